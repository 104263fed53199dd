//! The report as JSON: `{"runs": [...], "aggregate": [...]}`, one object per
//! row with every column, through serde. Booleans are booleans, missing
//! values `null`, counts past 2^53 strings (see [`super::Count`]).

use serde::Serialize;

use super::{Report, Row};

#[derive(Serialize)]
struct Document<'a> {
    runs: &'a [Row],
    aggregate: &'a [Row],
}

/// The report as one JSON object: its runs and its aggregates.
pub fn render(report: &Report) -> String {
    let document = Document { runs: &report.runs, aggregate: &report.aggregates };
    serde_json::to_string_pretty(&document).expect("a report serializes to JSON") + "\n"
}
