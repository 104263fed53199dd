//! `compare --svg` draws a chart a person can read: rendered to PNG by
//! rsvg-convert (librsvg, as browsers and viewers draw SVG), every nonzero
//! value has a bar at least 2 px wide in its own colour, every encoding is
//! named once, and the time axis's tick labels do not overlap. Checked on
//! a real comparison and on made-up times spanning eight orders of magnitude.

use std::io::Write;
use std::path::Path;
use std::process::Command as Process;

use assert_cmd::Command;
use satsudoku::compare::{svg, Count, Num, Report, Row, RowKind};

/// A bar as the SVG places it.
struct Bar {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    fill: String,
}

fn attr(node: &roxmltree::Node, name: &str) -> f64 {
    node.attribute(name).unwrap().parse().unwrap()
}

/// The filled bars (plotters draws them at opacity 0.6; the background is opaque).
fn bars(svg: &str) -> Vec<Bar> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("opacity") == Some("0.6"))
        .map(|n| Bar {
            x: attr(&n, "x"),
            y: attr(&n, "y"),
            width: attr(&n, "width"),
            height: attr(&n, "height"),
            fill: n.attribute("fill").unwrap().to_owned(),
        })
        .collect()
}

/// Text elements: (x, y, anchor, font size, text).
fn texts(svg: &str) -> Vec<(f64, f64, String, f64, String)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let anchor = n.attribute("text-anchor").unwrap_or("start").to_owned();
            (attr(&n, "x"), attr(&n, "y"), anchor, attr(&n, "font-size"), n.text().unwrap_or("").trim().to_owned())
        })
        .collect()
}

/// The PNG rendering: width and RGB pixels; `None` (skipped, said on
/// stderr past the harness's capture) without rsvg-convert outside CI.
fn render_png(svg: &Path) -> Option<(usize, Vec<u8>)> {
    let png = svg.with_extension("png");
    let rendered = Process::new("rsvg-convert").arg(svg).arg("-o").arg(&png).status();
    if !rendered.is_ok_and(|s| s.success()) {
        let message = "rsvg-convert is not installed (scripts/install-tools.sh installs it)";
        assert!(std::env::var_os("CI").is_none(), "CI must render the chart: {message}");
        let _ = writeln!(std::io::stderr().lock(), "SKIPPED chart rendering: {message}");
        return None;
    }
    let decoder = png::Decoder::new(std::fs::File::open(&png).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    // RGB or RGBA: the colour is in the first three samples of a pixel.
    let samples = info.color_type.samples();
    assert!(samples >= 3, "a colour PNG");
    let rgb = pixels[..info.buffer_size()].chunks(samples).flat_map(|p| [p[0], p[1], p[2]]).collect();
    Some((info.width as usize, rgb))
}

/// Checks what a person needs of the chart in `svg` (written at `path`),
/// which draws `expected` bars with `names` on the time axis.
fn assert_readable(svg: &str, path: &Path, expected: usize, names: &[&str]) {
    let bars = bars(svg);
    assert_eq!(bars.len(), expected, "one bar per nonzero value");
    for bar in &bars {
        assert!(bar.width >= 2.0, "a bar of {} px at y={}", bar.width, bar.y);
    }
    // Bars of one panel do not touch: a gap between each and the next.
    for fill in ["#0000FF", "#FF0000"] {
        let mut ys: Vec<(f64, f64)> = bars.iter().filter(|b| b.fill == fill).map(|b| (b.y, b.y + b.height)).collect();
        ys.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(ys.windows(2).all(|w| w[1].0 - w[0].1 >= 4.0), "{fill} bars without gaps: {ys:?}");
    }
    let texts = texts(svg);
    for name in names {
        assert_eq!(texts.iter().filter(|t| t.4 == *name).count(), 1, "{name} named once");
    }
    // Tick labels of each horizontal axis (centred, on one line) keep apart,
    // taking a character as 0.6 em wide.
    let mut rows: std::collections::BTreeMap<i64, Vec<(f64, f64)>> = Default::default();
    for (x, y, anchor, size, text) in &texts {
        if anchor == "middle" && !text.is_empty() {
            let half = text.chars().count() as f64 * size * 0.6 / 2.0;
            rows.entry(*y as i64).or_default().push((x - half, x + half));
        }
    }
    for labels in rows.values_mut() {
        labels.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(labels.windows(2).all(|w| w[1].0 > w[0].1), "overlapping tick labels: {labels:?}");
    }
    let Some((width, pixels)) = render_png(path) else { return };
    // On the middle row of each bar, the bar's colour (60% over white)
    // covers at least 2 px, and nine tenths of its width (grid lines show
    // through the translucent bars).
    for bar in &bars {
        let colour: [u8; 3] = if bar.fill == "#0000FF" { [102, 102, 255] } else { [255, 102, 102] };
        let row = (bar.y + bar.height / 2.0) as usize;
        let covered = (bar.x as usize..(bar.x + bar.width) as usize)
            .filter(|&x| {
                let p = &pixels[3 * (row * width + x)..][..3];
                p.iter().zip(colour).all(|(&a, b)| a.abs_diff(b) <= 3)
            })
            .count();
        assert!(covered >= 2 && covered as f64 >= 0.9 * bar.width, "{covered} px of a {} px bar drawn", bar.width);
    }
}

#[test]
fn a_real_comparison_draws_every_bar_visibly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chart.svg");
    Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["compare", "cnf-samples/contest.lp", "cnf-samples/zero.lp", "--repeat", "1", "--format", "csv"])
        .args(["--encodings", "direct,support,order,log", "--svg"])
        .arg(&path)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&path).unwrap();
    let names = ["direct/extended/pairwise/forbidden-pairs", "direct/extended/pairwise/support", "order", "log"];
    assert_readable(&svg, &path, 8, &names);
}

/// A made-up median row of one encoding.
fn row(encoding: &str, count_ms: f64, clauses: u64) -> Row {
    Row {
        kind: RowKind::Median,
        file: "2 files".into(),
        encoding: encoding.into(),
        primary: None,
        aux: None,
        clauses: Some(Num::Int(clauses)),
        literals: None,
        fixed_by_up: None,
        encode_ms: None,
        first_ms: None,
        count_ms: Some(Num::Real(count_ms)),
        sat_calls: None,
        decisions: None,
        conflicts: None,
        clauses_cell_alo: None,
        clauses_cell_amo: None,
        clauses_group_alo: None,
        clauses_group_amo: None,
        clauses_relation: None,
        clauses_given: None,
        clauses_domain: None,
        clauses_all_different: None,
        clauses_constraint: None,
        clauses_cage: None,
        count: None::<Count>,
        exact: None,
    }
}

/// Times from 10 us to 17 minutes, and a clause count 1,000 times below
/// the largest: the fastest bar and the smallest still show.
#[test]
fn extreme_spreads_keep_every_bar_visible() {
    let names = ["fast", "middle", "slow", "tiny"];
    let aggregates = vec![
        row("fast", 0.01, 1_000_000),
        row("middle", 3.0, 500_000),
        row("slow", 1e6, 20_000),
        row("tiny", 1.0, 1_000),
    ];
    let report = Report { runs: Vec::new(), aggregates };
    let svg = svg::render(&report).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chart.svg");
    std::fs::write(&path, &svg).unwrap();
    assert_readable(&svg, &path, 8, &names);
}
