//! The report as CSV, through the `csv` crate: a header of every column,
//! a record per run, then the aggregates. Missing values are empty fields.

use super::Report;

/// The report as CSV: a header, then one record per row.
pub fn render(report: &Report) -> String {
    let mut writer = ::csv::Writer::from_writer(Vec::new());
    for row in report.runs.iter().chain(&report.aggregates) {
        // Rows hold strings, numbers and booleans only, which always serialize.
        writer.serialize(row).expect("a report row serializes to CSV");
    }
    let bytes = writer.into_inner().expect("writing to memory does not fail");
    String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8")
}
