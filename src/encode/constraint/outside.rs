//! X-sums and sandwich sums as automata over their line (`automaton.rs`):
//! unit propagation is domain consistent on each rule, where the masked
//! partial sums of `sum.rs` propagate forwards only. When the line's cells
//! may not share a digit (a row or a column), the automata read the set of
//! digits summed rather than the sum alone (the set gives the sum), so
//! that propagation is domain consistent on the rule and those differences
//! together (for a sandwich, less the difference of its two crusts, which
//! the row's clauses keep: either crust closes it there, at half the
//! clauses): a sandwich of 18 between 1 and 9 then has three or four cells
//! inside at once, as a sandwich solver knows.

use super::{automaton, Spelling};
use crate::encode::ClauseSink;
use crate::model::{Cell, Digit};

/// Where an x-sum's reading of its line stands.
#[derive(Clone, PartialEq, Eq, Hash)]
enum XState {
    Start,
    /// The first cell said `x` cells count; `read` read so far, summing to
    /// `sum`; with different digits, `used` holds them (bit `d - 1`).
    Counting {
        x: u8,
        read: u8,
        sum: i64,
        used: u64,
    },
    /// The `x` cells are read and summed to the target.
    Done,
}

/// The first `x` cells sum to `target`, `x` the first cell's digit; with
/// `distinct`, the line's digits all differ.
pub(super) fn encode_xsum(
    cells: &[Cell],
    target: i64,
    distinct: bool,
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let len = cells.len();
    let bit = |d: Digit| if distinct { 1u64 << (d - 1) } else { 0 };
    let step = |state: &XState, d: Digit| -> Option<XState> {
        let next = match *state {
            XState::Start => {
                if usize::from(d) > len {
                    return None;
                }
                XState::Counting { x: d, read: 1, sum: i64::from(d), used: bit(d) }
            }
            XState::Counting { used, .. } if used & bit(d) != 0 => return None,
            XState::Counting { x, read, sum, used } => {
                XState::Counting { x, read: read + 1, sum: sum + i64::from(d), used: used | bit(d) }
            }
            XState::Done => return Some(XState::Done),
        };
        match next {
            XState::Counting { x, read, sum, .. } if read == x => (sum == target).then_some(XState::Done),
            XState::Counting { sum, .. } if sum >= target => None,
            other => Some(other),
        }
    };
    automaton::encode_line(cells, n, XState::Start, step, |s| *s == XState::Done, spelling, out);
}

/// Where a sandwich's reading of its line stands.
#[derive(Clone, PartialEq, Eq, Hash)]
enum SState {
    /// No crust yet.
    Before,
    /// One crust seen; `other` closes it (`None`: either, the line's
    /// digits being different); the cells since sum to `sum` (with
    /// different digits, `used` holds them, bit `d - 1`).
    Inside { other: Option<Digit>, sum: i64, used: u64 },
    /// Both crusts seen, around the target.
    After,
}

/// `low` and `high` each once on the line, the cells between them summing
/// to `target`; with `distinct`, the line's digits all differ.
#[allow(clippy::too_many_arguments)]
pub(super) fn encode_sandwich(
    cells: &[Cell],
    target: i64,
    (low, high): (Digit, Digit),
    distinct: bool,
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let crust = |d: Digit| d == low || d == high;
    let bit = |d: Digit| if distinct { 1u64 << (d - 1) } else { 0 };
    let step = |state: &SState, d: Digit| -> Option<SState> {
        match *state {
            // With different digits the crust seen cannot come again, so
            // either crust closes the sandwich (`other` is `None`): one
            // state where two would be, half the clauses (Sandwich snipe
            // 18: 0.96 -> 0.48 s, bench/results/design-notes.md).
            SState::Before if crust(d) && distinct => Some(SState::Inside { other: None, sum: 0, used: 0 }),
            SState::Before if crust(d) => {
                Some(SState::Inside { other: Some(if d == low { high } else { low }), sum: 0, used: 0 })
            }
            SState::Before => Some(SState::Before),
            SState::Inside { other, sum, .. } if crust(d) && other.is_none_or(|o| o == d) => {
                (sum == target).then_some(SState::After)
            }
            SState::Inside { .. } if crust(d) => None, // the same crust twice
            SState::Inside { used, .. } if used & bit(d) != 0 => None,
            SState::Inside { other, sum, used } => {
                let sum = sum + i64::from(d);
                (sum <= target).then_some(SState::Inside { other, sum, used: used | bit(d) })
            }
            SState::After if crust(d) => None,
            SState::After => Some(SState::After),
        }
    };
    automaton::encode_line(cells, n, SState::Before, step, |s| *s == SState::After, spelling, out);
}
