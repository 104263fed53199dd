//! `--output text`: `count` prints the contest's fact, `solutions(S).`;
//! `unique` prints `unique`, `none` or `multiple` with the solutions,
//! tab-separated; each after `LABEL<TAB>` in a batch or a collection.

use std::io::{self, Write};
use std::time::Duration;

use super::{one_line, solution_text, solutions_fact, Item, Printer};
use crate::count::plan::{Tally, Verdict};
use crate::model::Grid;

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

    fn count(&mut self, out: &mut dyn Write, item: &Item, tally: &Tally) -> io::Result<()> {
        writeln!(out, "{}{}", prefix(item), solutions_fact(&tally.count))
    }

    fn verdict(&mut self, out: &mut dyn Write, item: &Item, verdict: &Verdict, _elapsed: Duration) -> io::Result<()> {
        let line = match verdict {
            Verdict::None => "none".to_owned(),
            Verdict::Unique(grid) => format!("unique\t{}", one_line(grid, item.style)),
            Verdict::Multiple(a, b) => {
                let differ = itertools::join(verdict.differing_cells(), ",");
                format!("multiple\t{}\t{}\t{differ}", one_line(a, item.style), one_line(b, item.style))
            }
        };
        writeln!(out, "{}{line}", prefix(item))
    }
}
