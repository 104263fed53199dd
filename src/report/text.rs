//! `--output text`: `count` prints the contest's fact, `solutions(S).`
//! (only for an exact count: `solutions_at_least(N).` or
//! `solutions_unknown.` for a stopped one);
//! `unique` prints `unique`, `none` or `multiple` with the solutions,
//! tab-separated; each after `LABEL<TAB>` in a batch or a collection.

use std::io::{self, Write};
use std::time::Duration;

use super::{count_fact, one_line, solution_text, Item, Printer};
use crate::count::plan::{Candidates, Tally, Verdict};
use crate::model::Grid;
use crate::model::{push_symbol, Cell};

/// The text printer.
pub(super) struct Text;

/// `LABEL<TAB>`, or nothing for a lone puzzle.
fn prefix(item: &Item) -> String {
    item.label.map_or_else(String::new, |label| format!("{label}\t"))
}

impl Printer for Text {
    fn solution(&mut self, out: &mut dyn Write, item: &Item, index: u128, grid: &Grid) -> io::Result<()> {
        out.write_all(solution_text(index, grid, item.style).as_bytes())
    }

    /// An exact count is the contest's fact, `solutions(S).`; a stopped one
    /// is another predicate, so that no reader of that fact takes it for a
    /// count: `solutions_at_least(N).` for a lower bound, and
    /// `solutions_unknown.` when there is none (no solution found yet, or a
    /// method that gives no partial count: bands, Burnside, Takuzu rows).
    fn count(&mut self, out: &mut dyn Write, item: &Item, tally: &Tally) -> io::Result<()> {
        writeln!(out, "{}{}", prefix(item), count_fact(&tally.count, tally.is_exact()))
    }

    fn verdict(&mut self, out: &mut dyn Write, item: &Item, verdict: &Verdict, _elapsed: Duration) -> io::Result<()> {
        let line = match verdict {
            Verdict::None => "none".to_owned(),
            Verdict::Unique(grid) => format!("unique\t{}", one_line(grid, item.style)),
            Verdict::Multiple(a, b) => {
                let differ = itertools::join(verdict.differing_cells(), ",");
                format!("multiple\t{}\t{}\t{differ}", one_line(a, item.style), one_line(b, item.style))
            }
            Verdict::Undecided => "undecided".to_owned(),
        };
        writeln!(out, "{}{line}", prefix(item))
    }

    /// The candidates as a grid, a row a line, each cell's digits run
    /// together (`.` for none); with counts, one line per cell after it,
    /// `rRcC d:count ...`. A digit not decided (a stopped search) is `?`.
    fn candidates(&mut self, out: &mut dyn Write, item: &Item, c: &Candidates, _elapsed: Duration) -> io::Result<()> {
        let n = c.side;
        let prefix = prefix(item);
        for r in 0..n {
            let mut line = prefix.clone();
            for col in 0..n {
                let i = r * n + col;
                if col > 0 {
                    line.push(' ');
                }
                let mut text = String::new();
                for d in 1..=n as u8 {
                    if c.possible[i] >> (d - 1) & 1 == 1 {
                        push_symbol(&mut text, d);
                    }
                }
                if c.undecided[i] != 0 {
                    text.push('?');
                }
                line.push_str(if text.is_empty() { "." } else { &text });
            }
            writeln!(out, "{line}")?;
        }
        if let Some(counts) = &c.counts {
            for (i, per_digit) in counts.iter().enumerate() {
                let cell = Cell::new(i / n, i % n);
                let found = per_digit.iter().enumerate().filter(|(_, k)| k.bits() > 0);
                let found = itertools::join(found.map(|(d, k)| format!("{}:{k}", d + 1)), " ");
                writeln!(out, "{prefix}{cell} {found}")?;
            }
        }
        Ok(())
    }
}
