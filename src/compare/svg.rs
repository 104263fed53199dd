//! The report's medians as an SVG bar chart: count time and clauses per
//! encoding, one bar each with gaps between. Each axis is linear from zero
//! when its values are within 20x of each other, and log scale otherwise
//! (times span four orders of magnitude across encodings, and a linear
//! axis squashes all but the slowest bar to nothing).

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
    let panels = [
        (left, "count time, ms (median over files)", BLUE, true, bars.iter().map(|b| b.count_ms).collect::<Vec<_>>()),
        (right, "clauses (median over files)", RED, false, bars.iter().map(|b| b.clauses).collect()),
    ];
    for (area, title, colour, named, values) in panels {
        let panel = Panel { bars, values: &values, colour, named };
        match Scale::of(&values) {
            Scale::Linear { high } => panel.draw(&area, title, 0.0, 0.0..high)?,
            Scale::Log { low, high } => {
                panel.draw(&area, &format!("{title}, log scale"), low, (low..high).log_scale())?
            }
        }
    }
    root.present()?;
    Ok(())
}

/// How a panel's axis spreads its values: linear from zero while the
/// smallest nonzero value is at least a twentieth of the largest (so every
/// bar is some pixels wide), log scale beyond that.
#[derive(Debug, PartialEq)]
enum Scale {
    Linear { high: f64 },
    Log { low: f64, high: f64 },
}

impl Scale {
    fn of(values: &[f64]) -> Scale {
        let nonzero = values.iter().copied().filter(|&v| v > 0.0);
        let (least, most) = nonzero.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if most == 0.0 {
            return Scale::Linear { high: 1.0 };
        }
        if most / least <= 20.0 {
            Scale::Linear { high: most * 1.1 }
        } else {
            // From half the smallest, so that the smallest bar has a width.
            Scale::Log { low: least / 2.0, high: most * 1.5 }
        }
    }
}

/// One panel: a value per bar, drawn in one colour; the left panel names
/// the encodings.
struct Panel<'a> {
    bars: &'a [Bar],
    values: &'a [f64],
    colour: RGBColor,
    named: bool,
}

impl Panel<'_> {
    /// Draws the panel on `area` with an x axis over `range`, bars starting at `base`.
    fn draw<X>(
        &self,
        area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
        title: &str,
        base: f64,
        range: X,
    ) -> Result<(), Box<dyn std::error::Error>>
    where
        X: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
        X::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
    {
        let n = self.bars.len();
        // A segmented range `a..b` has a slot for each of `a..=b`: one per bar.
        let rows = (0..n.max(1) as i32 - 1).into_segmented();
        let at = |i: usize| SegmentValue::Exact((n - 1 - i) as i32);
        let next = |i: usize| SegmentValue::Exact((n - i) as i32);
        let mut chart = ChartBuilder::on(area)
            .caption(title, ("sans-serif", 17))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(if self.named { 300 } else { 10 })
            .build_cartesian_2d(range, rows)?;
        let names = |y: &SegmentValue<i32>| match y {
            SegmentValue::CenterOf(y) if self.named => {
                self.bars.get(n - 1 - *y as usize).map(|b| b.encoding.clone()).unwrap_or_default()
            }
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .y_labels(n.max(1))
            .y_label_formatter(&names)
            .x_labels(6)
            .x_label_formatter(&|x| short(*x))
            .draw()?;
        let style = self.colour.mix(0.6).filled();
        chart.draw_series(self.values.iter().enumerate().filter(|(_, &v)| v > 0.0).map(|(i, &v)| {
            let mut bar = Rectangle::new([(base, at(i)), (v, next(i))], style);
            bar.set_margin(4, 4, 0, 0);
            bar
        }))?;
        Ok(())
    }
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
    fn an_axis_is_linear_until_values_spread_past_twenty_times() {
        use super::Scale;
        assert!(matches!(Scale::of(&[10.0, 200.0]), Scale::Linear { high } if (high - 220.0).abs() < 1e-9));
        assert_eq!(Scale::of(&[10.0, 201.0, 0.0]), Scale::Log { low: 5.0, high: 301.5 });
        assert_eq!(Scale::of(&[0.0]), Scale::Linear { high: 1.0 });
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(short(0.25), "0.25");
        assert_eq!(short(20.0), "20");
        assert_eq!(short(12_000.0), "12k");
        assert_eq!(short(1_500_000.0), "1.5M");
        assert_eq!(short(0.0), "0");
    }
}
