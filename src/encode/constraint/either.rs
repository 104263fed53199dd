//! An `AnyOf` over few cells (ISS's `Or` of arrows over the same four
//! cells, one circled in turn: "Ambiguous Arrows") as one table: an
//! automaton over its cells whose states are the digits read so far,
//! accepting the tuples on which some alternative holds by the model's
//! own checker ([`Alternative::holds`]), unrolled and merged as every
//! line rule's (`automaton.rs`). Unit propagation is then domain
//! consistent on the whole `Or` (ISS keeps only the union of what each
//! alternative allows alone), every auxiliary variable is fixed by the
//! digits, and there are no selectors to branch on (`count/choices.rs`
//! deals with the `AnyOf`s that keep them, [`has_selectors`]).

use super::{automaton, grouped, Spelling};
use crate::encode::ClauseSink;
use crate::model::{Alternative, Cell, Constraint, Digit};

/// The most digit tuples an `AnyOf`'s cells may take (`n` to the number
/// of cells, whatever else the puzzle says) for it to be a table: four
/// cells of a 9x9, six of a 4x4, two of a 100x100. ISS's "Ambiguous
/// Arrows - composite" (fourteen `Or`s of three and four cells): 8,285
/// decisions with selectors, 1,557 as tables; "Killer lunchboxes" (some
/// of its fourteen have five or six cells, which keep their selectors):
/// 3,113 -> 510 (docs/encodings.md).
pub const MOST_TABLE_TUPLES: u64 = 10_000;

/// The most cells a table reads: `2^14` passes [`MOST_TABLE_TUPLES`].
const MOST_CELLS: usize = 13;

/// Whether `constraint` is an `AnyOf` the encoder writes as a table (see
/// the module doc) on digits `1..=n`: it has an alternative and reads a
/// cell, `n` to the number of cells it reads is at most
/// [`MOST_TABLE_TUPLES`], and no alternative holds a regular expression
/// or a state machine, whose checker builds its automaton at every call
/// (three blocks of two regular expressions over four cells took 44 ms
/// to tabulate so, 2 ms with their selectors).
pub fn tabled(constraint: &Constraint, n: usize) -> bool {
    let Constraint::AnyOf { alternatives } = constraint else { return false };
    let cells = constraint.cells().len();
    !alternatives.is_empty()
        && (1..=MOST_CELLS).contains(&cells)
        && (n as u64).checked_pow(cells as u32).is_some_and(|tuples| tuples <= MOST_TABLE_TUPLES)
        && !builds_automata(constraint)
}

/// Whether `constraint` is, or has in an alternative, a rule whose checker
/// builds an automaton ([`Constraint::Regular`], [`Constraint::Machine`]).
fn builds_automata(constraint: &Constraint) -> bool {
    match constraint {
        Constraint::Regular { .. } | Constraint::Machine { .. } => true,
        Constraint::AnyOf { alternatives } => alternatives.iter().flat_map(|a| &a.constraints).any(builds_automata),
        _ => false,
    }
}

/// Whether `constraint` is an `AnyOf` encoded with a selector per
/// alternative (one not [`tabled`]): the enum engine branches on them.
pub fn has_selectors(constraint: &Constraint, n: usize) -> bool {
    matches!(constraint, Constraint::AnyOf { .. }) && !tabled(constraint, n)
}

/// Encodes a [`tabled`] `AnyOf` of `alternatives` over `cells` (its own,
/// in order): the tuples some alternative accepts, less those that give
/// two cells the puzzle keeps apart one digit (so the table stays small
/// where the cells share a house; the puzzle's groups refuse those tuples
/// anyway).
pub(super) fn encode_table(
    alternatives: &[Alternative],
    cells: &[Cell],
    n: usize,
    differ: &grouped::Differ,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    debug_assert!(cells.len() <= MOST_CELLS);
    // The digits read so far, and how many.
    type Prefix = (usize, [Digit; MOST_CELLS]);
    let step = |&(read, digits): &Prefix, d: Digit| {
        let clash = (0..read).any(|j| digits[j] == d && differ.differ(cells[read], cells[j]));
        let mut next = digits;
        next[read] = d;
        (!clash).then_some((read + 1, next))
    };
    let accept = |(_, digits): &Prefix| {
        let digit_of = |cell: Cell| {
            let at = cells.iter().position(|&c| c == cell).expect("an alternative reads only the table's cells");
            digits[at]
        };
        alternatives.iter().any(|a| a.holds(&digit_of))
    };
    automaton::encode_line(cells, n, (0, [0; MOST_CELLS]), step, accept, spelling, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An `Or` of "cell `i` is the sum of the others" over `cells`.
    fn arrows(cells: &[Cell]) -> Constraint {
        let alternatives = (0..cells.len())
            .map(|i| {
                let terms = cells.iter().enumerate().map(|(j, &c)| (c, if i == j { -1 } else { 1 })).collect();
                Alternative { constraints: vec![Constraint::Sum { terms, target: 0 }], ..Alternative::default() }
            })
            .collect();
        Constraint::AnyOf { alternatives }
    }

    #[test]
    fn a_table_takes_at_most_its_tuples() {
        let cells = |k: usize| (0..k).map(|i| Cell::new(0, i)).collect::<Vec<Cell>>();
        assert!(tabled(&arrows(&cells(4)), 9), "9^4 = 6,561 tuples");
        assert!(!tabled(&arrows(&cells(5)), 9), "9^5 = 59,049 tuples");
        assert!(tabled(&arrows(&cells(6)), 4), "4^6 = 4,096 tuples");
        assert!(has_selectors(&arrows(&cells(5)), 9) && !has_selectors(&arrows(&cells(4)), 9));
        // No alternative (holds on no grid) and no cell keep their selectors.
        assert!(!tabled(&Constraint::AnyOf { alternatives: Vec::new() }, 9));
        assert!(!tabled(&Constraint::AnyOf { alternatives: vec![Alternative::default()] }, 9));
        // A regular expression, even in a nested block, keeps them too.
        let pattern = Constraint::Regular { cells: cells(2), pattern: "1.".into() };
        let nested = Constraint::AnyOf {
            alternatives: vec![Alternative { constraints: vec![pattern], ..Alternative::default() }],
        };
        let outer = Constraint::AnyOf {
            alternatives: vec![Alternative { constraints: vec![nested.clone()], ..Alternative::default() }],
        };
        assert!(!tabled(&nested, 9) && !tabled(&outer, 9) && has_selectors(&outer, 9));
    }
}
