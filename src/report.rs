//! What the tool prints: the `solutions(S).` fact, solution facts, statistics.

use std::fmt::Write as _;
use std::time::Duration;

use crate::count::SearchStats;
use crate::encode::Encoded;
use crate::model::Grid;

/// The contest's output fact.
pub fn solutions_fact(count: u128) -> String {
    format!("solutions({count}).")
}

/// A solution as LP facts, one `solution(K,Row,[Digits]).` per grid row,
/// preceded by a `%` comment line.
pub fn solution_facts(index: u128, grid: &Grid) -> String {
    let mut out = format!("% solution {index}\n");
    for (r, row) in grid.rows().enumerate() {
        let _ = writeln!(out, "solution({index},{},[{}]).", r + 1, itertools::join(row, ","));
    }
    out
}

/// A solution as its grid: a `% solution K` line, then one line per row,
/// digits separated by spaces (above 9 as letters).
pub fn solution_grid(index: u128, grid: &Grid) -> String {
    format!("% solution {index}\n{grid}")
}

/// A Takuzu grid as its rows of `0` and `1` (the model's digits 1 and 2).
pub fn binary_rows(grid: &Grid) -> String {
    let mut out = String::new();
    for row in grid.rows() {
        out.extend(row.iter().map(|&d| if d == 1 { '0' } else { '1' }));
        out.push('\n');
    }
    out
}

/// Milliseconds with three decimals.
pub fn millis(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// The size of an encoding, for `--stats`.
pub fn encoding_stats(encoded: &Encoded) -> String {
    format!(
        "encoding: {}\nvariables: {} ({} primary, {} auxiliary)\nclauses: {} ({})\nliterals: {}",
        encoded.encoding,
        encoded.formula.var_count(),
        encoded.vars.primary_count(),
        encoded.aux_count(),
        encoded.formula.len(),
        encoded.clause_counts,
        encoded.literal_count(),
    )
}

/// Search effort, for `--stats`.
pub fn search_stats(stats: &SearchStats) -> String {
    let known = |x: Option<u64>| x.map_or_else(|| "n/a".to_owned(), |x| x.to_string());
    format!(
        "sat calls: {}\ndecisions: {}\nconflicts: {}\nderived clauses: {}",
        stats.sat_calls,
        known(stats.decisions),
        known(stats.conflicts),
        known(stats.derived_clauses)
    )
}
