//! Digit relabelling symmetry. When every rule of a puzzle is unchanged by
//! renaming the digits (no givens, all-different groups, relations that only
//! say "equal" or "different", constraints that only compare digits for
//! equality), each solution has exactly `n!` relabellings, all solutions,
//! and exactly one of them writes a chosen full group as `1, 2, ..., n`. So
//! the count is `n!` times the count with that group fixed: the search is
//! `n!` times smaller. Invariance is proven from the rules, never assumed.

use crate::model::{Cell, Constraint, Digit, Predicate, Puzzle};

/// A reduction by relabelling: fix `cells` to `1..=n` and multiply by `factor`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relabelling {
    pub cells: Vec<Cell>,
    /// `n!`, the number of relabellings.
    pub factor: u128,
}

impl Relabelling {
    /// The puzzle with the group fixed.
    pub fn reduced(&self, puzzle: &Puzzle) -> Puzzle {
        let mut reduced = puzzle.clone();
        for (i, &cell) in self.cells.iter().enumerate() {
            // The cells are in the grid and i < n: this cannot fail.
            let _ = reduced.set_given(cell, (i + 1) as Digit);
        }
        reduced
    }
}

/// The relabelling reduction of `puzzle`, if every rule is invariant under
/// renaming digits and a group holds all `n` digits; `None` otherwise (or
/// when `n!` does not fit in a `u128`).
pub fn relabelling(puzzle: &Puzzle) -> Option<Relabelling> {
    let n = puzzle.side();
    let no_givens = puzzle.cells().all(|c| puzzle.given(c).is_none());
    let relations = puzzle.relations().iter().all(|r| matches!(r.predicate, Predicate::Equal | Predicate::NotEqual));
    let constraints = puzzle.constraints().iter().all(|c| match c {
        Constraint::NotAllEqual { .. } | Constraint::DistinctLines { .. } => true,
        // Allowing every digit says nothing; anything less names digits.
        Constraint::Digits { allowed, .. } => allowed & (u64::MAX >> (64 - n)) == u64::MAX >> (64 - n),
        Constraint::Sum { .. }
        | Constraint::Consecutive { .. }
        | Constraint::Between { .. }
        | Constraint::Contains { .. } => false,
    });
    if !(no_givens && relations && constraints) {
        return None;
    }
    let group = puzzle.groups().iter().find(|g| g.cells.len() == n)?;
    let factor = (1..=n as u128).try_fold(1u128, |f, k| f.checked_mul(k))?;
    Some(Relabelling { cells: group.cells.clone(), factor })
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use super::*;

    #[test]
    fn only_rules_blind_to_digit_names_allow_it() {
        let plain = Puzzle::sudoku(2, 2).unwrap();
        let r = relabelling(&plain).unwrap();
        assert_eq!((r.factor, r.cells.len()), (24, 4));
        let mut given = plain.clone();
        given.set_given(Cell::new(0, 0), 1).unwrap();
        assert_eq!(relabelling(&given), None);
        let mut summed = plain.clone();
        summed
            .add_relation(Cell::new(0, 0), Cell::new(1, 1), Predicate::Sum { cmp: Ordering::Less, target: 5 })
            .unwrap();
        assert_eq!(relabelling(&summed), None);
        let mut different = plain.clone();
        different.add_relation(Cell::new(0, 0), Cell::new(1, 1), Predicate::NotEqual).unwrap();
        assert!(relabelling(&different).is_some());
        let mut odd = plain;
        odd.add_constraint(Constraint::Digits { cell: Cell::new(0, 0), allowed: 0b0101 }).unwrap();
        assert_eq!(relabelling(&odd), None);
        assert_eq!(relabelling(&Puzzle::blank(4).unwrap()), None, "no group of n cells to fix");
    }
}
