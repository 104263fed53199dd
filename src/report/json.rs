//! `--output json`: one JSON object a line (JSON Lines) for each puzzle,
//! from serde. A count is a number up to 2^53 (where every integer is
//! exact in a double) and a string past it, so that no reader rounds it.

use std::io::{self, Write};
use std::time::Duration;

use num_bigint::BigUint;
use serde::Serialize;

use super::{cell_digits, givens_line, one_line, Item, Printer};
use crate::count::plan::{Candidates, Tally, Verdict};
use crate::count::Stop;
use crate::model::{Cell, Grid};
use crate::named::Named;
use crate::setter::minimal::Needs;
use crate::setter::rate::Rating;

/// The JSON printer; it keeps the solutions `--print` shows until the
/// puzzle's count is printed with them.
#[derive(Default)]
pub(super) struct Json {
    solutions: Vec<String>,
}

/// The largest count written as a JSON number: 2^53.
const LARGEST_NUMBER: u64 = 1 << 53;

/// A count as JSON: a number while doubles hold it exactly, else a string.
#[derive(Serialize)]
#[serde(untagged)]
enum Number {
    Exact(u64),
    Text(String),
}

impl From<&BigUint> for Number {
    fn from(count: &BigUint) -> Number {
        match u64::try_from(count) {
            Ok(n) if n <= LARGEST_NUMBER => Number::Exact(n),
            _ => Number::Text(count.to_string()),
        }
    }
}

/// The stop reason's name.
fn stop_name(stop: Stop) -> &'static str {
    match stop {
        Stop::Complete => "complete",
        Stop::MaxReached => "max",
        Stop::Timeout | Stop::Budget => "timeout",
        Stop::Interrupted => "interrupted",
        Stop::Caller => "stopped",
    }
}

#[derive(Serialize)]
struct CountRecord<'a> {
    source: &'a str,
    line: Option<usize>,
    count: Number,
    exact: bool,
    stop: &'static str,
    method: &'static str,
    symmetry_factor: Number,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<&'a [String]>,
}

#[derive(Serialize)]
struct VerdictRecord<'a> {
    source: &'a str,
    line: Option<usize>,
    verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<[String; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    differ: Option<Vec<String>>,
    seconds: f64,
}

#[derive(Serialize)]
struct CandidatesRecord<'a> {
    source: &'a str,
    line: Option<usize>,
    exact: bool,
    stop: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<Number>,
    cells: Vec<CellRecord>,
    seconds: f64,
}

#[derive(Serialize)]
struct CellRecord {
    cell: String,
    digits: Vec<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    undecided: Vec<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    counts: Option<std::collections::BTreeMap<u8, Number>>,
}

#[derive(Serialize)]
struct ErrorRecord<'a> {
    source: &'a str,
    line: Option<usize>,
    error: &'a str,
}

#[derive(Serialize)]
struct NeedsRecord<'a> {
    source: &'a str,
    line: Option<usize>,
    verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimal: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    redundant: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kept: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules_alone: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    add: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proven: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    seconds: f64,
}

#[derive(Serialize)]
struct RatingRecord<'a> {
    source: &'a str,
    line: Option<usize>,
    verdict: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    open: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    probes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<StepRecord>>,
    seconds: f64,
}

#[derive(Serialize)]
struct StepRecord {
    depth: u8,
    size: usize,
    ruled_out: usize,
}

/// Writes `record` as one line.
fn line(out: &mut dyn Write, record: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record)?;
    out.write_all(b"\n")
}

impl Printer for Json {
    fn solution(&mut self, _out: &mut dyn Write, item: &Item, _index: u128, grid: &Grid) -> io::Result<()> {
        self.solutions.push(one_line(grid, item.style, item.shape, item.vars));
        Ok(())
    }

    fn count(&mut self, out: &mut dyn Write, item: &Item, tally: &Tally) -> io::Result<()> {
        let solutions = std::mem::take(&mut self.solutions);
        let record = CountRecord {
            source: item.source,
            line: item.line,
            count: Number::from(&tally.count),
            exact: tally.is_exact(),
            stop: stop_name(tally.stop),
            method: tally.method.name(),
            symmetry_factor: Number::from(&BigUint::from(tally.factor())),
            seconds: tally.elapsed.as_secs_f64(),
            solutions: (!solutions.is_empty()).then_some(&solutions[..]),
        };
        line(out, &record)
    }

    fn verdict(&mut self, out: &mut dyn Write, item: &Item, verdict: &Verdict, elapsed: Duration) -> io::Result<()> {
        let (solution, solutions, differ) = match verdict {
            Verdict::None | Verdict::Undecided => (None, None, None),
            Verdict::Unique(grid) => (Some(one_line(grid, item.style, item.shape, item.vars)), None, None),
            Verdict::Multiple(a, b) => {
                let cells = verdict.differing_cells().iter().map(ToString::to_string).collect();
                (
                    None,
                    Some([
                        one_line(a, item.style, item.shape, item.vars),
                        one_line(b, item.style, item.shape, item.vars),
                    ]),
                    Some(cells),
                )
            }
        };
        let record = VerdictRecord {
            source: item.source,
            line: item.line,
            verdict: verdict.name(),
            solution,
            solutions,
            differ,
            seconds: elapsed.as_secs_f64(),
        };
        line(out, &record)
    }

    fn needs(&mut self, out: &mut dyn Write, item: &Item, needs: &Needs, elapsed: Duration) -> io::Result<()> {
        let words = |cells: &[(Cell, u8)]| cells.iter().map(|&c| cell_digits(&[c], item.style)).collect::<Vec<_>>();
        let mut record = NeedsRecord {
            source: item.source,
            line: item.line,
            verdict: match needs {
                Needs::Unique { .. } => "unique",
                other => other.name(),
            },
            minimal: None,
            redundant: None,
            kept: None,
            rules_alone: None,
            add: None,
            proven: None,
            solution: None,
            seconds: elapsed.as_secs_f64(),
        };
        match needs {
            Needs::Unique { solution, redundant, kept, rules_alone } => {
                record.minimal = Some(redundant.is_empty());
                record.redundant = Some(words(redundant));
                record.kept = Some(givens_line(solution.side(), kept, item.style));
                record.rules_alone = Some(*rules_alone);
                record.solution = Some(one_line(solution, item.style, item.shape, item.vars));
            }
            Needs::Multiple { solution, added, proven } => {
                record.add = Some(words(added));
                record.proven = Some(*proven);
                record.solution = Some(one_line(solution, item.style, item.shape, item.vars));
            }
            Needs::None | Needs::Undecided => {}
        }
        line(out, &record)
    }

    fn rating(
        &mut self,
        out: &mut dyn Write,
        item: &Item,
        rating: Result<&Rating, &str>,
        elapsed: Duration,
    ) -> io::Result<()> {
        let record = RatingRecord {
            source: item.source,
            line: item.line,
            verdict: if rating.is_ok() { "unique" } else { rating.err().unwrap_or_default() },
            score: rating.ok().map(Rating::score),
            level: rating.ok().map(|r| r.level().name()),
            depth: rating.ok().map(Rating::depth),
            open: rating.ok().map(|r| r.open),
            probes: rating.ok().map(|r| r.probes),
            steps: rating.ok().map(|r| {
                r.steps.iter().map(|s| StepRecord { depth: s.depth, size: s.size, ruled_out: s.ruled_out }).collect()
            }),
            seconds: elapsed.as_secs_f64(),
        };
        line(out, &record)
    }

    fn candidates(&mut self, out: &mut dyn Write, item: &Item, c: &Candidates, elapsed: Duration) -> io::Result<()> {
        let n = c.side;
        let bits = |mask: u64| {
            (1..=c.digits as u8).filter(|d| mask >> (d - 1) & 1 == 1).map(|d| item.style.value(d)).collect::<Vec<_>>()
        };
        // A rectangle's cells only (`item.shape`) and the cells outside the
        // grid after them, not its model's padding.
        let (rows, cols) = item.shape.unwrap_or((n, n));
        let outside = |i: usize| i / n >= rows && i % n < cols && (i / n - rows) * cols + i % n < item.vars;
        let cells = (0..n * n)
            .filter(|&i| i / n < rows && i % n < cols || outside(i))
            .map(|i| CellRecord {
                cell: Cell::new(i / n, i % n).to_string(),
                digits: bits(c.possible[i]),
                undecided: bits(c.undecided[i]),
                counts: c.counts.as_ref().map(|counts| {
                    counts[i]
                        .iter()
                        .enumerate()
                        .filter(|(_, k)| k.bits() > 0)
                        .map(|(d, k)| (item.style.value(d as u8 + 1), Number::from(k)))
                        .collect()
                }),
            })
            .collect();
        let record = CandidatesRecord {
            source: item.source,
            line: item.line,
            exact: c.is_exact(),
            stop: stop_name(c.stop),
            solutions: c.solutions.as_ref().map(Number::from),
            cells,
            seconds: elapsed.as_secs_f64(),
        };
        line(out, &record)
    }

    fn error(&mut self, out: &mut dyn Write, item: &Item, message: &str) -> io::Result<()> {
        self.solutions.clear();
        line(out, &ErrorRecord { source: item.source, line: item.line, error: message })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Up to 2^53 a count is a JSON number; past it, where a double would
    /// round it, a string of its digits.
    #[test]
    fn counts_past_two_to_the_53_are_strings() {
        let json = |n: BigUint| serde_json::to_string(&Number::from(&n)).unwrap();
        assert_eq!(json(BigUint::from(1u64 << 53)), "9007199254740992");
        assert_eq!(json(BigUint::from((1u64 << 53) + 1)), "\"9007199254740993\"");
        let grids: BigUint = "6670903752021072936960".parse().unwrap();
        assert_eq!(json(grids), "\"6670903752021072936960\"");
    }
}
