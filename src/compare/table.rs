//! The aligned table and the markdown table: the columns a reader wants
//! (CSV and JSON have them all), numbers aligned to the right.

use super::{Num, Report, Row, RowKind};

/// A column: its header and how a row shows in it.
type Column = (&'static str, fn(&Row) -> String);

fn num(value: Option<Num>) -> String {
    value.map_or_else(|| "-".to_owned(), |n| n.to_string())
}

/// The columns shown, in order. An aggregate row shows its kind (median or
/// max) in the file column; a count the time limit stopped shows as `>=N`.
const COLUMNS: [Column; 14] = [
    ("file", |row| match row.kind {
        RowKind::File => row.file.clone(),
        RowKind::Median => "median".to_owned(),
        RowKind::Max => "max".to_owned(),
    }),
    ("encoding", |row| row.encoding.clone()),
    ("primary", |row| num(row.primary)),
    ("aux", |row| num(row.aux)),
    ("clauses", |row| num(row.clauses)),
    ("literals", |row| num(row.literals)),
    ("fixed_by_up", |row| num(row.fixed_by_up)),
    ("encode_ms", |row| num(row.encode_ms)),
    ("first_ms", |row| num(row.first_ms)),
    ("count_ms", |row| num(row.count_ms)),
    ("sat_calls", |row| num(row.sat_calls)),
    ("decisions", |row| num(row.decisions)),
    ("conflicts", |row| num(row.conflicts)),
    ("count", |row| match (row.count, row.exact) {
        (None, _) => "-".to_owned(),
        (Some(count), Some(false)) => format!(">={}", count.0),
        (Some(count), _) => count.0.to_string(),
    }),
];

/// The runs as a table, then the aggregates as a second one if any.
pub fn render(report: &Report, markdown: bool) -> String {
    let mut out = text_table(&report.runs, markdown);
    if !report.aggregates.is_empty() {
        out.push('\n');
        out += &text_table(&report.aggregates, markdown);
    }
    out
}

fn text_table(rows: &[Row], markdown: bool) -> String {
    let cells: Vec<Vec<String>> = rows.iter().map(|row| COLUMNS.iter().map(|(_, show)| show(row)).collect()).collect();
    let widths: Vec<usize> = COLUMNS
        .iter()
        .enumerate()
        .map(|(i, (name, _))| cells.iter().map(|r| r[i].len()).chain([name.len()]).max().unwrap_or(0))
        .collect();
    // The file and encoding columns are text; the rest are numbers.
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
    let header: Vec<String> = COLUMNS.iter().map(|(name, _)| (*name).to_owned()).collect();
    let mut out = line(&header);
    if markdown {
        let rule = (0..COLUMNS.len()).map(|i| {
            let dashes = "-".repeat(widths[i].max(3));
            if numeric(i) {
                format!("{}:", &dashes[1..])
            } else {
                dashes
            }
        });
        out += &format!("| {} |\n", itertools::join(rule, " | "));
    }
    for row in &cells {
        out += &line(row);
    }
    out
}
