//! The report's medians as an SVG bar chart: count time per encoding on a
//! log axis (times span four orders of magnitude across encodings, and a
//! linear axis squashes all but the slowest bar), clauses per encoding on
//! a linear axis from zero. One bar per encoding, with gaps between.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

use super::{Num, Report};

/// Chart width, and height per encoding beyond the fixed part.
const WIDTH: u32 = 1100;
const BAR_HEIGHT: u32 = 28;

/// An encoding's median count time (ms) and clauses.
struct Bar {
    encoding: String,
    count_ms: f64,
    clauses: f64,
}

/// The chart as SVG text, or why it could not be drawn.
pub fn render(report: &Report) -> Result<String, String> {
    let value = |n: Option<Num>| n.map_or(0.0, Num::value);
    let bars: Vec<Bar> = report
        .medians()
        .map(|row| Bar { encoding: row.encoding.clone(), count_ms: value(row.count_ms), clauses: value(row.clauses) })
        .collect();
    let mut svg = String::new();
    draw(&bars, &mut svg).map_err(|e| format!("cannot draw the chart: {e}"))?;
    Ok(svg)
}

fn draw(bars: &[Bar], svg: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let n = bars.len() as u32;
    let height = 110 + BAR_HEIGHT * n.max(1);
    let root = SVGBackend::with_string(svg, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(WIDTH * 62 / 100);
    let rows = (0..n.max(1) as i32).into_segmented();
    let at = |i: usize| SegmentValue::Exact((n as usize - 1 - i) as i32);
    let next = |i: usize| SegmentValue::Exact((n as usize - i) as i32);

    // Count time, log axis: from half the fastest to a little above the slowest.
    let times = bars.iter().map(|b| b.count_ms).filter(|&t| t > 0.0);
    let (fastest, slowest) = times.fold((f64::INFINITY, 0.0f64), |(lo, hi), t| (lo.min(t), hi.max(t)));
    let (low, high) = if slowest > 0.0 { (fastest / 2.0, slowest * 1.5) } else { (0.1, 1.0) };
    let mut chart = ChartBuilder::on(&left)
        .caption("count time, ms (median over files, log scale)", ("sans-serif", 17))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(300)
        .build_cartesian_2d((low..high).log_scale(), rows.clone())?;
    let names = |y: &SegmentValue<i32>| match y {
        SegmentValue::CenterOf(y) => {
            bars.get((n as i32 - 1 - y) as usize).map(|b| b.encoding.clone()).unwrap_or_default()
        }
        _ => String::new(),
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(bars.len().max(1))
        .y_label_formatter(&names)
        .x_labels(6)
        .x_label_formatter(&|x| short(*x))
        .draw()?;
    chart.draw_series(bars.iter().enumerate().filter(|(_, b)| b.count_ms > 0.0).map(|(i, b)| {
        let mut bar = Rectangle::new([(low, at(i)), (b.count_ms, next(i))], BLUE.mix(0.6).filled());
        bar.set_margin(4, 4, 0, 0);
        bar
    }))?;

    // Clauses, linear from zero.
    let most = bars.iter().map(|b| b.clauses).fold(0.0, f64::max).max(1.0) * 1.1;
    let mut chart = ChartBuilder::on(&right)
        .caption("clauses (median over files)", ("sans-serif", 17))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(10)
        .build_cartesian_2d(0.0..most, rows)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_label_formatter(&|_| String::new())
        .x_labels(4)
        .x_label_formatter(&|x| short(*x))
        .draw()?;
    chart.draw_series(bars.iter().enumerate().filter(|(_, b)| b.clauses > 0.0).map(|(i, b)| {
        let mut bar = Rectangle::new([(0.0, at(i)), (b.clauses, next(i))], RED.mix(0.6).filled());
        bar.set_margin(4, 4, 0, 0);
        bar
    }))?;
    root.present()?;
    Ok(())
}

/// A tick label: `0.5`, `20`, `3k`, `12k`, `1.5M`.
fn short(x: f64) -> String {
    let trimmed = |v: f64, unit: &str| {
        let text = format!("{v:.1}");
        format!("{}{unit}", text.trim_end_matches('0').trim_end_matches('.'))
    };
    match x.abs() {
        a if a >= 1e6 => trimmed(x / 1e6, "M"),
        a if a >= 1e3 => trimmed(x / 1e3, "k"),
        a if a >= 1.0 || a == 0.0 => trimmed(x, ""),
        _ => format!("{}", (x * 1000.0).round() / 1000.0),
    }
}

#[cfg(test)]
mod tests {
    use super::short;

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(short(0.25), "0.25");
        assert_eq!(short(20.0), "20");
        assert_eq!(short(12_000.0), "12k");
        assert_eq!(short(1_500_000.0), "1.5M");
        assert_eq!(short(0.0), "0");
    }
}
