//! `--output text`: `count` prints the contest's fact, `solutions(S).`
//! (only for an exact count: `solutions_at_least(N).` or
//! `solutions_unknown.` for a stopped one);
//! `unique` prints `unique`, `none` or `multiple` with the solutions,
//! tab-separated; each after `LABEL<TAB>` in a batch or a collection.

use std::io::{self, Write};
use std::time::Duration;

use super::{cell_digits, count_fact, givens_line, one_line, solution_text, steps_text, Item, Printer};
use crate::count::plan::{Candidates, Tally, Verdict};
use crate::model::Grid;
use crate::model::{push_symbol, Cell};
use crate::named::Named;
use crate::setter::minimal::Needs;
use crate::setter::rate::Rating;

/// The text printer.
pub(super) struct Text;

/// `LABEL<TAB>`, or nothing for a lone puzzle.
fn prefix(item: &Item) -> String {
    item.label.map_or_else(String::new, |label| format!("{label}\t"))
}

impl Printer for Text {
    fn solution(&mut self, out: &mut dyn Write, item: &Item, index: u128, grid: &Grid) -> io::Result<()> {
        out.write_all(solution_text(index, grid, item.style, item.shape, item.vars).as_bytes())
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
            Verdict::Unique(grid) => format!("unique\t{}", one_line(grid, item.style, item.shape, item.vars)),
            Verdict::Multiple(a, b) => {
                let differ = itertools::join(verdict.differing_cells(), ",");
                format!(
                    "multiple\t{}\t{}\t{differ}",
                    one_line(a, item.style, item.shape, item.vars),
                    one_line(b, item.style, item.shape, item.vars)
                )
            }
            Verdict::Undecided => "undecided".to_owned(),
        };
        writeln!(out, "{}{line}", prefix(item))
    }

    /// `minimal`; `redundant<TAB>CELLS<TAB>KEPT` (the redundant givens,
    /// then a minimal puzzle inside this one as a givens line);
    /// `multiple<TAB>CELLS<TAB>fewest|heuristic` (the cells to add, and
    /// whether no fewer would do); `none`; `undecided`.
    fn needs(&mut self, out: &mut dyn Write, item: &Item, needs: &Needs, _elapsed: Duration) -> io::Result<()> {
        let line = match needs {
            Needs::Unique { redundant, .. } if redundant.is_empty() => "minimal".to_owned(),
            Needs::Unique { solution, redundant, kept, .. } => {
                format!(
                    "redundant\t{}\t{}",
                    cell_digits(redundant, item.style),
                    givens_line(solution.side(), kept, item.style)
                )
            }
            Needs::Multiple { added, proven, .. } => {
                format!(
                    "multiple\t{}\t{}",
                    cell_digits(added, item.style),
                    if *proven { "fewest" } else { "heuristic" }
                )
            }
            Needs::None | Needs::Undecided => needs.name().to_owned(),
        };
        writeln!(out, "{}{line}", prefix(item))
    }

    /// `SCORE<TAB>LEVEL<TAB>STEPS`, or the verdict that kept the puzzle
    /// from a rating.
    fn rating(
        &mut self,
        out: &mut dyn Write,
        item: &Item,
        rating: Result<&Rating, &str>,
        _elapsed: Duration,
    ) -> io::Result<()> {
        match rating {
            Ok(r) => writeln!(out, "{}{}\t{}\t{}", prefix(item), r.score(), r.level().name(), steps_text(r)),
            Err(verdict) => writeln!(out, "{}{verdict}", prefix(item)),
        }
    }

    /// The candidates as a grid a person reads: a row a line, each cell's
    /// digits run together in a column of one width, a given in brackets,
    /// `.` for a cell with none, `?` after a digit not decided (a stopped
    /// search), `|` and `-+-` lines between boxes. With counts, one line per
    /// open cell after it (a cell with one digit left is not listed),
    /// `rRcC d:count ...`.
    fn candidates(&mut self, out: &mut dyn Write, item: &Item, c: &Candidates, _elapsed: Duration) -> io::Result<()> {
        let n = c.side;
        let prefix = prefix(item);
        let text: Vec<String> = (0..n * n)
            .map(|i| {
                let mut text = String::new();
                for d in 1..=c.digits as u8 {
                    if c.possible[i] >> (d - 1) & 1 == 1 {
                        push_symbol(&mut text, item.style.value(d));
                    }
                }
                if c.undecided[i] != 0 {
                    text.push('?');
                }
                match c.givens.get(i).copied().flatten() {
                    Some(_) => format!("[{text}]"),
                    None if text.is_empty() => ".".to_owned(),
                    None => text,
                }
            })
            .collect();
        let width = text.iter().map(|t| t.chars().count()).max().unwrap_or(1);
        let (box_rows, box_cols) = c.boxes.unwrap_or((n, n));
        let rule = {
            let block = "-".repeat(box_cols * (width + 1) - 1);
            vec![block; item.shape.map_or(n, |(_, cols)| cols) / box_cols.max(1)].join("-+-")
        };
        // A rectangle's cells only (`item.shape`), not its model's padding.
        let (rows, cols) = item.shape.unwrap_or((n, n));
        for r in 0..rows {
            if r > 0 && r % box_rows == 0 {
                writeln!(out, "{prefix}{rule}")?;
            }
            let mut line = prefix.clone();
            for col in 0..cols {
                if col > 0 {
                    line.push_str(if col % box_cols == 0 { " | " } else { " " });
                }
                line.push_str(&format!("{:<width$}", text[r * n + col]));
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        // The cells outside the grid, as many a row as it has columns, as
        // `count --print` writes them.
        for row in (0..item.vars).collect::<Vec<_>>().chunks(cols.max(1)) {
            let cells = row.iter().map(|&k| format!("{:<width$}", text[(rows + k / cols) * n + k % cols]));
            writeln!(out, "{prefix}{}", itertools::join(cells, " ").trim_end())?;
        }
        if let Some(counts) = &c.counts {
            for (i, per_digit) in counts.iter().enumerate() {
                let found: Vec<_> = per_digit.iter().enumerate().filter(|(_, k)| k.bits() > 0).collect();
                if found.len() <= 1 {
                    continue; // fixed (or, with no digit at all, shown as `.` above)
                }
                let cell = Cell::new(i / n, i % n);
                let found =
                    itertools::join(found.iter().map(|(d, k)| format!("{}:{k}", item.style.value(*d as u8 + 1))), " ");
                writeln!(out, "{prefix}{cell} {found}")?;
            }
        }
        Ok(())
    }
}
