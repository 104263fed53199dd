//! X-sums and sandwich sums as automata over their line (`automaton.rs`):
//! unit propagation is domain consistent on each rule, where the masked
//! partial sums of `sum.rs` propagate forwards only.

use super::{automaton, Spelling};
use crate::encode::ClauseSink;
use crate::model::{Cell, Digit};

/// Where an x-sum's reading of its line stands.
#[derive(Clone, PartialEq, Eq, Hash)]
enum XState {
    Start,
    /// The first cell said `x` cells count; `read` read so far, summing to `sum`.
    Counting {
        x: u8,
        read: u8,
        sum: i64,
    },
    /// The `x` cells are read and summed to the target.
    Done,
}

/// The first `x` cells sum to `target`, `x` the first cell's digit.
pub(super) fn encode_xsum(cells: &[Cell], target: i64, n: usize, spelling: &mut Spelling, out: &mut dyn ClauseSink) {
    let len = cells.len();
    let step = |state: &XState, d: Digit| -> Option<XState> {
        let next = match *state {
            XState::Start => {
                if usize::from(d) > len {
                    return None;
                }
                XState::Counting { x: d, read: 1, sum: i64::from(d) }
            }
            XState::Counting { x, read, sum } => XState::Counting { x, read: read + 1, sum: sum + i64::from(d) },
            XState::Done => return Some(XState::Done),
        };
        match next {
            XState::Counting { x, read, sum } if read == x => (sum == target).then_some(XState::Done),
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
    /// One crust seen; `other` closes it; the cells since sum to `sum`.
    Inside { other: Digit, sum: i64 },
    /// Both crusts seen, around the target.
    After,
}

/// `low` and `high` each once on the line, the cells between them summing
/// to `target`.
pub(super) fn encode_sandwich(
    cells: &[Cell],
    target: i64,
    (low, high): (Digit, Digit),
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let crust = |d: Digit| d == low || d == high;
    let step = |state: &SState, d: Digit| -> Option<SState> {
        match *state {
            SState::Before if crust(d) => Some(SState::Inside { other: if d == low { high } else { low }, sum: 0 }),
            SState::Before => Some(SState::Before),
            SState::Inside { other, sum } if d == other => (sum == target).then_some(SState::After),
            SState::Inside { .. } if crust(d) => None, // the same crust twice
            SState::Inside { other, sum } => {
                let sum = sum + i64::from(d);
                (sum <= target).then_some(SState::Inside { other, sum })
            }
            SState::After if crust(d) => None,
            SState::After => Some(SState::After),
        }
    };
    automaton::encode_line(cells, n, SState::Before, step, |s| *s == SState::After, spelling, out);
}
