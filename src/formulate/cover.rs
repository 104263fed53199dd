//! The puzzle as an exact cover problem (seed 002 §2.3; Knuth, "Dancing
//! Links", 2000): an option for each digit a cell may hold, covering
//!
//! - the cell's item `pR_C` (primary: each cell gets one digit);
//! - for each group the cell is in, the item of the group and the digit:
//!   `rR_D` (row), `cC_D` (column), `bK_D` (box), `jK_D` (region), `gK_D`
//!   (another group). A group with as many cells as digits holds each digit
//!   once, so its items are primary; a smaller group's (a killer cage
//!   without a sum, an extra region) are secondary: covered at most once;
//! - for each pair of options a relation forbids (anti-knight, Kropki dots,
//!   thermometers), a secondary item `fK` both options cover, so at most
//!   one of them is chosen.
//!
//! Givens and allowed digits leave out the options they exclude. Sums and
//! the other arithmetic rules have no exact cover form and are refused.
//! Written in the text format of Knuth's DLX1 and DLX2: a first line of
//! items, primary then `|` then secondary, then one option a line; lines
//! starting with `|` are comments.

use std::io::{self, Write};

use super::{AnswerError, Formulation, Pieces, Takes, Unsupported};
use crate::model::{Cell, Digit, GroupKind, Puzzle};

/// Knuth's DLX programs read names of at most 8 characters.
const MAX_NAME: usize = 8;

/// One option: a digit in a cell, and the items it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoverOption {
    /// The cell.
    pub cell: Cell,
    /// Its digit.
    pub digit: Digit,
    /// The items it covers: indices into [`ExactCover::items`], the
    /// primary ones first in the list of items.
    pub items: Vec<usize>,
}

/// An exact cover problem whose solutions are the puzzle's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactCover {
    /// The grid side.
    pub side: usize,
    /// Every item's name; the first `primary` are primary.
    pub items: Vec<String>,
    /// How many items are primary.
    pub primary: usize,
    /// The options, cell by cell in reading order, digits in order.
    pub options: Vec<CoverOption>,
}

impl ExactCover {
    /// The exact cover problem of `puzzle`, or the rule it cannot express.
    pub fn of(puzzle: &Puzzle) -> Result<ExactCover, Unsupported> {
        let formulation = Formulation::ExactCover;
        let pieces = Pieces::of(puzzle, formulation, Takes { sums: false, counting: false })?;
        let (n, digits) = (pieces.side, pieces.digits);
        let full_rows = puzzle.groups().iter().filter(|g| g.kind == GroupKind::Row && g.cells.len() == digits).count();
        if full_rows < n {
            return Err(Unsupported {
                formulation,
                what: "a grid whose rows do not hold every digit once".into(),
                why: "its options are read back by their row items; export as cnf or asp",
            });
        }
        let mut primary: Vec<String> = (0..n * n).map(|i| format!("p{}_{}", i / n + 1, i % n + 1)).collect();
        let mut secondary: Vec<String> = Vec::new();
        // Each group's items: (primary?, index of its digit-1 item).
        let mut group_items: Vec<(bool, usize)> = Vec::new();
        let (mut boxes, mut regions) = (0, 0);
        for (k, group) in puzzle.groups().iter().enumerate() {
            let full = group.cells.len() == digits;
            let first = group.cells[0];
            let stem = match group.kind {
                GroupKind::Row if full => format!("r{}", first.row + 1),
                GroupKind::Column if full => format!("c{}", first.col + 1),
                GroupKind::Box if full => {
                    boxes += 1;
                    format!("b{boxes}")
                }
                GroupKind::Region if full => {
                    regions += 1;
                    format!("j{regions}")
                }
                _ => format!("g{}", k + 1),
            };
            let list = if full { &mut primary } else { &mut secondary };
            group_items.push((full, list.len()));
            list.extend((1..=digits).map(|d| format!("{stem}_{d}")));
        }
        let mut options: Vec<CoverOption> = Vec::new();
        let mut index = vec![Vec::new(); n * n];
        for cell in pieces.cells() {
            for d in pieces.domain(cell) {
                index[cell.row * n + cell.col].push(options.len());
                let mut items = vec![cell.row * n + cell.col];
                for (group, &(full, start)) in puzzle.groups().iter().zip(&group_items) {
                    if group.cells.contains(&cell) {
                        // Secondary items are numbered after the primary ones.
                        let at = start + usize::from(d) - 1;
                        items.push(if full { at } else { usize::MAX - at });
                    }
                }
                options.push(CoverOption { cell, digit: d, items });
            }
        }
        let option_of =
            |cell: Cell, d: Digit| index[cell.row * n + cell.col].iter().copied().find(|&o| options[o].digit == d);
        let mut forbidden = Vec::new();
        for (relation, pairs) in &pieces.relations {
            for &(a, b) in pairs {
                if let (Some(oa), Some(ob)) = (option_of(relation.a, a), option_of(relation.b, b)) {
                    forbidden.push((oa, ob));
                }
            }
        }
        for (oa, ob) in forbidden {
            let at = secondary.len();
            secondary.push(format!("f{}", at + 1));
            options[oa].items.push(usize::MAX - at);
            options[ob].items.push(usize::MAX - at);
        }
        let primary_count = primary.len();
        for option in &mut options {
            for item in &mut option.items {
                if *item > usize::MAX / 2 {
                    *item = primary_count + (usize::MAX - *item);
                }
            }
        }
        let items: Vec<String> = primary.into_iter().chain(secondary).collect();
        if let Some(long) = items.iter().find(|name| name.len() > MAX_NAME) {
            return Err(Unsupported {
                formulation,
                what: format!("an item named {long}"),
                why: "Knuth's DLX programs read names of at most 8 characters: the puzzle is too large",
            });
        }
        Ok(ExactCover { side: n, items, primary: primary_count, options })
    }

    /// The problem in the DLX text format.
    pub fn write(&self, comments: &[String], out: &mut dyn Write) -> io::Result<()> {
        for line in comments {
            writeln!(out, "| {line}")?;
        }
        writeln!(
            out,
            "| {} primary items, {} secondary, {} options",
            self.primary,
            self.items.len() - self.primary,
            self.options.len()
        )?;
        let (primary, secondary) = self.items.split_at(self.primary);
        if secondary.is_empty() {
            writeln!(out, "{}", primary.join(" "))?;
        } else {
            writeln!(out, "{} | {}", primary.join(" "), secondary.join(" "))?;
        }
        for option in &self.options {
            writeln!(out, "{}", itertools::join(option.items.iter().map(|&i| &self.items[i]), " "))?;
        }
        Ok(())
    }
}

/// A DLX solver's solution: the chosen options' lines, each with its cell
/// item `pR_C` and its row item `rR_D` (other lines and words ignored, as
/// are DLX2's colours); "Altogether 0 solutions" without any option line
/// is a proof that there is none.
pub(super) fn read_answer(side: usize, text: &str) -> Result<Option<Vec<Digit>>, AnswerError> {
    let number = |s: &str| s.parse::<usize>().ok();
    let mut assigned = Vec::new();
    for line in text.lines() {
        let (mut cell, mut digit) = (None, None);
        for word in line.split_whitespace().map(|w| w.split(':').next().unwrap_or(w)) {
            let Some((head, tail)) = word.split_once('_') else { continue };
            match (head.strip_prefix('p'), head.strip_prefix('r'), number(tail)) {
                (Some(r), _, Some(c)) => cell = number(r).map(|r| (r, c)),
                (_, Some(r), Some(d)) => digit = number(r).map(|r| (r, d)),
                _ => {}
            }
        }
        if let (Some((r, c)), Some((r2, d))) = (cell, digit) {
            if r != r2 || r == 0 || c == 0 || d == 0 || d > usize::from(Digit::MAX) {
                return Err(AnswerError(format!(
                    "the option line {:?} is not one of the exported problem's",
                    line.trim()
                )));
            }
            assigned.push((Cell::new(r - 1, c - 1), d as Digit));
        }
    }
    if assigned.is_empty() {
        if text.contains("Altogether 0 solutions") || text.to_lowercase().contains("no solution") {
            return Ok(None);
        }
        return Err(AnswerError(
            "no option line found: expected the chosen options, each with its pR_C and rR_D items".into(),
        ));
    }
    super::fill(side, assigned).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word that starts with a character of several bytes was split
    /// inside it (found by tests/fuzz.rs).
    #[test]
    fn words_of_any_characters_are_read_or_refused() {
        assert!(read_answer(2, "é_1 p1_1\nα_2").is_err());
        let answer = "p1_1 r1_1 c1_1\np1_2 r1_2 c2_2\np2_1 r2_2 c1_2\np2_2 r2_1 c2_1\n";
        assert_eq!(read_answer(2, answer), Ok(Some(vec![1, 2, 2, 1])));
        assert_eq!(read_answer(2, "Altogether 0 solutions"), Ok(None));
    }
}
