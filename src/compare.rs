//! `satsudoku compare`: every encoding on every file, measured the same way,
//! with per-encoding aggregates over files (median and max), written as an
//! aligned table, CSV, JSON or markdown, and optionally as an SVG bar chart.
//!
//! Times are medians of `repeat` runs. The propagation figure is the number of
//! cells whose digit unit propagation alone fixes at level 0, givens included
//! (the measure of Lynce & Ouaknine 2006).

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::count::enumerate::{Propagator, Strength};
use crate::count::{self, EngineKind, Limits, SearchStats};
use crate::encode::{self, ClauseKind, Encoding};
use crate::model::Puzzle;

/// Output formats of `compare`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// Aligned columns for reading.
    #[default]
    Table,
    Csv,
    Json,
    Markdown,
}

/// The encodings to compare: a comma-separated list of encoding names, or `all`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodingList(pub Vec<Encoding>);

impl std::str::FromStr for EncodingList {
    type Err = String;

    fn from_str(text: &str) -> Result<EncodingList, String> {
        if text == "all" {
            return Ok(EncodingList(Encoding::variations()));
        }
        let list: Vec<Encoding> = text.split(',').map(str::parse).collect::<Result<_, _>>()?;
        Ok(EncodingList(list))
    }
}

/// One encoding measured on one file.
#[derive(Clone, Debug)]
pub struct Run {
    pub file: String,
    pub encoding: Encoding,
    pub primary: usize,
    pub aux: usize,
    pub clauses: encode::ClauseCounts,
    pub literals: usize,
    /// Cells fixed by unit propagation at level 0; `None` on a level-0 conflict.
    pub fixed_by_propagation: Option<usize>,
    /// Medians of the runs, in milliseconds.
    pub encode_ms: f64,
    pub first_ms: Option<f64>,
    pub count_ms: f64,
    pub stats: SearchStats,
    pub count: u128,
    /// False when the count stopped at the time limit (a lower bound).
    pub exact: bool,
}

/// How each run is made.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub engine: EngineKind,
    pub repeat: u32,
    pub timeout: Option<Duration>,
}

/// Measures one encoding on one puzzle.
pub fn measure(file: &str, puzzle: &Puzzle, encoding: &Encoding, settings: Settings) -> Result<Run, count::CountError> {
    let repeat = settings.repeat.max(1);
    let mut encode_times = Vec::new();
    let mut encoded = None;
    for _ in 0..repeat {
        let start = Instant::now();
        encoded = Some(encode::encode(puzzle, encoding));
        encode_times.push(ms(start.elapsed()));
    }
    let encoded = encoded.expect("repeat >= 1");
    let fixed_by_propagation = Propagator::new(&encoded, Strength::AsEncoded).cells_fixed(&encoded.vars);

    let (mut count_times, mut first_times, mut result) = (Vec::new(), Vec::new(), None);
    let limits = Limits { max: None, timeout: settings.timeout, interrupt: None };
    for _ in 0..repeat {
        let counted = count::count_models(puzzle, &encoded, settings.engine, limits, &mut ())?;
        count_times.push(ms(counted.elapsed));
        first_times.extend(counted.first.map(ms));
        result = Some(counted);
    }
    let result = result.expect("repeat >= 1");
    Ok(Run {
        file: file.to_owned(),
        encoding: *encoding,
        primary: encoded.vars.primary_count(),
        aux: encoded.aux_count(),
        clauses: encoded.clause_counts,
        literals: encoded.literal_count(),
        fixed_by_propagation,
        encode_ms: median(encode_times),
        first_ms: (!first_times.is_empty()).then(|| median(first_times)),
        count_ms: median(count_times),
        stats: result.stats,
        count: result.models,
        exact: result.is_exact(),
    })
}

/// A cell of the output.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Text(String),
    Int(u128),
    Num(f64),
    Missing,
}

impl Value {
    fn text(&self) -> String {
        match self {
            Value::Text(s) => s.clone(),
            Value::Int(n) => n.to_string(),
            Value::Num(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.0}"),
            Value::Num(x) => format!("{x:.3}"),
            Value::Missing => String::new(),
        }
    }

    fn json(&self) -> serde_json::Value {
        match self {
            Value::Text(s) => s.clone().into(),
            // u128 may exceed what JSON readers keep exactly: counts past 2^53 are strings.
            Value::Int(n) if *n < 1 << 53 => (*n as u64).into(),
            Value::Int(n) => n.to_string().into(),
            Value::Num(x) => serde_json::Number::from_f64(*x).map_or(serde_json::Value::Null, Into::into),
            Value::Missing => serde_json::Value::Null,
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The numeric columns that are aggregated over files, with their values.
fn measures(run: &Run) -> Vec<(&'static str, Option<f64>)> {
    let mut out = vec![
        ("primary", Some(run.primary as f64)),
        ("aux", Some(run.aux as f64)),
        ("clauses", Some(run.clauses.total() as f64)),
        ("literals", Some(run.literals as f64)),
        ("fixed_by_up", run.fixed_by_propagation.map(|x| x as f64)),
        ("encode_ms", Some(run.encode_ms)),
        ("first_ms", run.first_ms),
        ("count_ms", Some(run.count_ms)),
        ("sat_calls", Some(run.stats.sat_calls as f64)),
        ("decisions", run.stats.decisions.map(|x| x as f64)),
        ("conflicts", run.stats.conflicts.map(|x| x as f64)),
    ];
    for (kind, n) in run.clauses.iter() {
        out.push((kind_column(kind), Some(n as f64)));
    }
    out
}

fn kind_column(kind: ClauseKind) -> &'static str {
    match kind {
        ClauseKind::CellAtLeastOne => "clauses_cell_alo",
        ClauseKind::CellAtMostOne => "clauses_cell_amo",
        ClauseKind::GroupAtLeastOne => "clauses_group_alo",
        ClauseKind::GroupAtMostOne => "clauses_group_amo",
        ClauseKind::Relation => "clauses_relation",
        ClauseKind::Given => "clauses_given",
        ClauseKind::Domain => "clauses_domain",
        ClauseKind::AllDifferent => "clauses_all_different",
    }
}

/// Columns shown in the table and markdown formats (CSV and JSON have all).
const SHORT: [&str; 14] = [
    "file",
    "encoding",
    "primary",
    "aux",
    "clauses",
    "literals",
    "fixed_by_up",
    "encode_ms",
    "first_ms",
    "count_ms",
    "sat_calls",
    "decisions",
    "conflicts",
    "count",
];

/// A row: named values in column order.
type Row = Vec<(&'static str, Value)>;

fn run_row(run: &Run) -> Row {
    let mut row: Row = vec![
        ("kind", Value::Text("file".into())),
        ("file", Value::Text(run.file.clone())),
        ("encoding", Value::Text(run.encoding.to_string())),
    ];
    for (name, value) in measures(run) {
        let value = match value {
            None => Value::Missing,
            Some(x) if name.ends_with("_ms") => Value::Num(x),
            Some(x) => Value::Int(x as u128),
        };
        row.push((name, value));
    }
    row.push(("count", Value::Int(run.count)));
    row.push(("exact", Value::Text(run.exact.to_string())));
    row
}

/// Per encoding, in first-seen order: median and max of each measure over files.
fn aggregate_rows(runs: &[Run]) -> Vec<Row> {
    let mut encodings: Vec<Encoding> = Vec::new();
    for run in runs {
        if !encodings.contains(&run.encoding) {
            encodings.push(run.encoding);
        }
    }
    let mut rows = Vec::new();
    for encoding in encodings {
        let of: Vec<&Run> = runs.iter().filter(|r| r.encoding == encoding).collect();
        let columns: Vec<Vec<(&'static str, Option<f64>)>> = of.iter().map(|r| measures(r)).collect();
        for (kind, pick) in [("median", median as fn(Vec<f64>) -> f64), ("max", max_f64)] {
            let mut row: Row = vec![
                ("kind", Value::Text(kind.into())),
                ("file", Value::Text(format!("{} files", of.len()))),
                ("encoding", Value::Text(encoding.to_string())),
            ];
            for (i, &(name, _)) in columns[0].iter().enumerate() {
                let values: Vec<f64> = columns.iter().filter_map(|c| c[i].1).collect();
                row.push((name, if values.is_empty() { Value::Missing } else { Value::Num(pick(values)) }));
            }
            row.push(("count", Value::Missing));
            row.push(("exact", Value::Missing));
            rows.push(row);
        }
    }
    rows
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

fn max_f64(values: Vec<f64>) -> f64 {
    values.into_iter().fold(f64::NEG_INFINITY, f64::max)
}

/// The report in the chosen format. Aggregates follow the runs when there is
/// more than one file.
pub fn render(runs: &[Run], format: TableFormat) -> String {
    let files = runs.iter().map(|r| &r.file).collect::<std::collections::HashSet<_>>().len();
    let run_rows: Vec<Row> = runs.iter().map(run_row).collect();
    let aggregates = if files > 1 { aggregate_rows(runs) } else { Vec::new() };
    match format {
        TableFormat::Csv => {
            let all: Vec<&Row> = run_rows.iter().chain(&aggregates).collect();
            let Some(first) = all.first() else { return String::new() };
            let mut out = itertools::join(first.iter().map(|(name, _)| *name), ",") + "\n";
            for row in all {
                out += &itertools::join(row.iter().map(|(_, v)| csv_field(&v.text())), ",");
                out.push('\n');
            }
            out
        }
        TableFormat::Json => {
            let object = |row: &Row| {
                serde_json::Value::Object(row.iter().map(|(name, v)| ((*name).to_owned(), v.json())).collect())
            };
            let json = serde_json::json!({
                "runs": run_rows.iter().map(object).collect::<Vec<_>>(),
                "aggregate": aggregates.iter().map(object).collect::<Vec<_>>(),
            });
            serde_json::to_string_pretty(&json).expect("JSON values serialize") + "\n"
        }
        TableFormat::Table | TableFormat::Markdown => {
            let markdown = format == TableFormat::Markdown;
            let mut out = text_table(&run_rows, markdown);
            if !aggregates.is_empty() {
                out.push('\n');
                let mut short: Vec<Row> = aggregates.clone();
                for row in &mut short {
                    // The kind (median or max) takes the file column's place.
                    let kind = row[0].1.clone();
                    row[1].1 = kind;
                }
                out += &text_table(&short, markdown);
            }
            out
        }
    }
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// The [`SHORT`] columns, aligned (numbers to the right) or as markdown.
fn text_table(rows: &[Row], markdown: bool) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            let lower_bound = row.iter().any(|(n, v)| *n == "exact" && *v == Value::Text("false".into()));
            SHORT
                .iter()
                .map(|name| {
                    let value = row.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()).unwrap_or(Value::Missing);
                    match value {
                        Value::Missing => "-".to_owned(),
                        Value::Int(n) if *name == "count" && lower_bound => format!(">={n}"),
                        v => v.text(),
                    }
                })
                .collect()
        })
        .collect();
    let widths: Vec<usize> =
        (0..SHORT.len()).map(|i| cells.iter().map(|r| r[i].len()).chain([SHORT[i].len()]).max().unwrap_or(0)).collect();
    let numeric = |i: usize| i >= 2;
    let line = |values: &[String]| {
        let padded = values.iter().enumerate().map(|(i, v)| {
            if numeric(i) {
                format!("{v:>w$}", w = widths[i])
            } else {
                format!("{v:<w$}", w = widths[i])
            }
        });
        if markdown {
            format!("| {} |\n", itertools::join(padded, " | "))
        } else {
            itertools::join(padded, "  ").trim_end().to_owned() + "\n"
        }
    };
    let header: Vec<String> = SHORT.iter().map(|s| (*s).to_owned()).collect();
    let mut out = line(&header);
    if markdown {
        let rule = (0..SHORT.len()).map(|i| {
            let dashes = "-".repeat(widths[i].max(3));
            if numeric(i) {
                format!("{}:", &dashes[1..])
            } else {
                dashes
            }
        });
        let _ = writeln!(out, "| {} |", itertools::join(rule, " | "));
    }
    for row in &cells {
        out += &line(row);
    }
    out
}

/// A bar chart of count time and clauses per encoding (medians over files).
pub fn write_svg(runs: &[Run], path: &Path) -> Result<(), String> {
    use plotters::prelude::*;

    let rows = aggregate_rows(runs);
    let medians: Vec<(String, f64, f64)> = rows
        .iter()
        .filter(|row| row[0].1 == Value::Text("median".into()))
        .map(|row| {
            let get = |name: &str| match row.iter().find(|(n, _)| *n == name) {
                Some((_, Value::Num(x))) => *x,
                _ => 0.0,
            };
            (row[2].1.text(), get("count_ms"), get("clauses"))
        })
        .collect();
    let height = 120 + 28 * medians.len() as u32;
    let root = SVGBackend::new(path, (1100, height)).into_drawing_area();
    let error = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| error(&e))?;
    let panels = root.split_evenly((1, 2));
    let charts = [("count time, ms (median over files)", 1usize), ("clauses (median over files)", 2)];
    for (panel, (title, column)) in panels.iter().zip(charts) {
        let value = |m: &(String, f64, f64)| if column == 1 { m.1 } else { m.2 };
        let top = medians.iter().map(value).fold(0.0, f64::max).max(1e-9) * 1.1;
        let n = medians.len() as i32;
        let mut chart = ChartBuilder::on(panel)
            .caption(title, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(if column == 1 { 300 } else { 10 })
            .build_cartesian_2d(0.0..top, (0..n).into_segmented())
            .map_err(|e| error(&e))?;
        let labels = |y: &SegmentValue<i32>| match (y, column) {
            (SegmentValue::CenterOf(y), 1) => {
                medians.get((n - 1 - y) as usize).map(|m| m.0.clone()).unwrap_or_default()
            }
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(medians.len().max(1))
            .y_label_formatter(&labels)
            .draw()
            .map_err(|e| error(&e))?;
        let bars = medians.iter().enumerate().map(|(i, m)| {
            let y = n - 1 - i as i32;
            let color = if column == 1 { BLUE.mix(0.6) } else { RED.mix(0.6) };
            Rectangle::new([(0.0, SegmentValue::Exact(y)), (value(m), SegmentValue::Exact(y + 1))], color.filled())
        });
        chart.draw_series(bars).map_err(|e| error(&e))?;
    }
    root.present().map_err(|e| error(&e))?;
    Ok(())
}
