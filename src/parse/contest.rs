//! The contest puzzle's layout: 15 lines of sum symbols between the cells of a
//! 9x9 Sudoku, shared by the LP-facts and the Kattis formats.
//!
//! Lines 1, 3, 5, 6, 8, 10, 11, 13 and 15 are *row lines*: they hold the 6
//! symbols between columns (1,2), (2,3), (4,5), (5,6), (7,8), (8,9) of grid rows
//! 1..9. Lines 2, 4, 7, 9, 12 and 14 are *vertical lines*: they hold the 9
//! symbols between grid rows (1,2), (2,3), (4,5), (5,6), (7,8), (8,9), one per
//! column. Symbols relate the sum of the two cells to [`TARGET`].

use std::cmp::Ordering;

use crate::model::{Cell, Predicate, Puzzle};

/// The sum the contest's symbols compare to.
pub const TARGET: u32 = 10;
/// Number of symbol lines.
pub const LINES: usize = 15;
/// Symbols on a row line.
pub const ROW_SYMBOLS: usize = 6;
/// Symbols on a vertical line.
pub const VERTICAL_SYMBOLS: usize = 9;

/// Whether a line holds row symbols or vertical symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A line of six relations inside a grid row.
    Row,
    /// A line of nine relations between two grid rows.
    Vertical,
}

impl LineKind {
    /// Relations on a line of this kind.
    pub fn symbols(self) -> usize {
        match self {
            LineKind::Row => ROW_SYMBOLS,
            LineKind::Vertical => VERTICAL_SYMBOLS,
        }
    }
}

/// The kind of a 1-based line number, `None` outside 1..=15.
pub fn line_kind(line: usize) -> Option<LineKind> {
    match line {
        1 | 3 | 5 | 6 | 8 | 10 | 11 | 13 | 15 => Some(LineKind::Row),
        2 | 4 | 7 | 9 | 12 | 14 => Some(LineKind::Vertical),
        _ => None,
    }
}

/// The line numbers of one kind, in order.
pub fn lines_of(kind: LineKind) -> impl Iterator<Item = usize> {
    (1..=LINES).filter(move |&l| line_kind(l) == Some(kind))
}

/// Column index pairs related by the symbols of a row line.
const ROW_PAIRS: [(usize, usize); ROW_SYMBOLS] = [(0, 1), (1, 2), (3, 4), (4, 5), (6, 7), (7, 8)];

/// The two cells related by symbol `index` (0-based) of `line` (1-based).
pub fn cells_of(line: usize, index: usize) -> Option<(Cell, Cell)> {
    let kind = line_kind(line)?;
    let position = lines_of(kind).position(|l| l == line)?;
    match kind {
        LineKind::Row => {
            let (a, b) = *ROW_PAIRS.get(index)?;
            Some((Cell::new(position, a), Cell::new(position, b)))
        }
        LineKind::Vertical => {
            let (top, bottom) = ROW_PAIRS[position];
            (index < VERTICAL_SYMBOLS).then(|| (Cell::new(top, index), Cell::new(bottom, index)))
        }
    }
}

/// Builds the contest puzzle from its 15 lines of symbols, `lines[0]` being
/// line 1. Each line must have the length its kind asks for.
pub fn build(lines: &[Vec<Ordering>; LINES]) -> Puzzle {
    let mut puzzle = Puzzle::sudoku(3, 3).expect("3x3 boxes are valid");
    for (i, symbols) in lines.iter().enumerate() {
        for (index, &cmp) in symbols.iter().enumerate() {
            let (a, b) = cells_of(i + 1, index).expect("line lengths are checked by the parsers");
            puzzle
                .add_relation(a, b, Predicate::Sum { cmp, target: TARGET })
                .expect("contest cells are inside the grid and distinct");
        }
    }
    puzzle
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_the_problem_statement() {
        assert_eq!(lines_of(LineKind::Row).collect::<Vec<_>>(), [1, 3, 5, 6, 8, 10, 11, 13, 15]);
        assert_eq!(lines_of(LineKind::Vertical).collect::<Vec<_>>(), [2, 4, 7, 9, 12, 14]);
        assert_eq!(cells_of(1, 0), Some((Cell::new(0, 0), Cell::new(0, 1))));
        assert_eq!(cells_of(15, 5), Some((Cell::new(8, 7), Cell::new(8, 8))));
        assert_eq!(cells_of(9, 2), Some((Cell::new(4, 2), Cell::new(5, 2))));
        assert_eq!(cells_of(14, 8), Some((Cell::new(7, 8), Cell::new(8, 8))));
        assert_eq!(cells_of(2, 9), None);
        assert_eq!(cells_of(16, 0), None);
    }
}
