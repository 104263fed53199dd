//! Between lines, lockout lines and equal sums (region-sum, zipper and
//! double-arrow lines) as automata over their cells (`automaton.rs`), and
//! renban lines with support clauses. Unit propagation is domain
//! consistent on between lines and equal sums, and on a lockout line's
//! inner digits given its ends; renban gains less. The clauses of `mod.rs`
//! and `sum.rs` (kept for `--lines forward`) propagate far less on each
//! (measured rule by rule in `tests/it/propagation.rs`).
//!
//! The ends' automata carry the position they have read up to in their
//! state, so that the ends are known; the layers of the unrolled automaton
//! are positions anyway, so this adds no state. An
//! automaton with more than [`MOST_EDGES`] edges (long region-sum lines
//! with large sums) is not built: the caller falls back to the old clauses.

use varisat::Lit;

use super::grouped::Differ;
use super::{automaton, sum, Spelling};
use crate::encode::ClauseSink;
use crate::model::{Cell, Digit};

/// The most edges an unrolled automaton here may have.
pub(super) const MOST_EDGES: usize = 20_000;

/// The most for a lockout line, whose states (the first end's digit and
/// the inner digits nearest it on either side) grow as the cube of the
/// side: on long 9x9 lockout lines the automaton's variables cost the
/// search more than its propagation saves (bench/results/iss-*.md).
const MOST_LOCKOUT_EDGES: usize = 2_000;

/// A rule over a line read as its first end, its inner cells, its second
/// end: the state after the first end is `first(d)` of its digit, each inner
/// digit moves it by `inner` (`None`: no line goes on), and the second end's
/// digit `d` is accepted where `closes(state, d)`. The automaton's state
/// also counts the cells read, so that it knows which cell is an end.
#[allow(clippy::too_many_arguments)]
fn encode_between_ends<S: Clone + Eq + std::hash::Hash>(
    ends: (Cell, Cell),
    inner: &[Cell],
    n: usize,
    first: impl Fn(Digit) -> S,
    step: impl Fn(&S, Digit) -> Option<S>,
    closes: impl Fn(&S, Digit) -> bool,
    most: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) -> bool {
    let cells: Vec<Cell> = [ends.0].into_iter().chain(inner.iter().copied()).chain([ends.1]).collect();
    let last = cells.len() - 1;
    let read = |&(read, ref state): &(usize, Option<S>), d: Digit| -> Option<(usize, Option<S>)> {
        let next = match state {
            None => first(d),
            Some(state) if read == last => closes(state, d).then(|| state.clone())?,
            Some(state) => step(state, d)?,
        };
        Some((read + 1, Some(next)))
    };
    let accept = |&(read, _): &(usize, Option<S>)| read == cells.len();
    automaton::encode_line_within(&cells, n, (0, None), read, accept, |_| (), most, spelling, out).is_some()
}

/// Each inner cell lies strictly between the ends' digits. The state is the
/// first end's digit and, once an inner digit is read, the furthest inner
/// digit from it (the inner digits must all lie on one side of it); 0
/// before any.
pub(super) fn encode_between(
    ends: (Cell, Cell),
    inner: &[Cell],
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) -> bool {
    let step = |&(first, far): &(Digit, Digit), d: Digit| -> Option<(Digit, Digit)> {
        let far = match far {
            _ if d == first => return None,
            0 => d,
            f if (f > first) != (d > first) => return None,
            f if f > first => f.max(d),
            f => f.min(d),
        };
        Some((first, far))
    };
    let closes =
        |&(first, far): &(Digit, Digit), d: Digit| far == 0 || (far > first && d > far) || (far < first && d < far);
    encode_between_ends(ends, inner, n, |d| (d, 0), step, closes, MOST_EDGES, spelling, out)
}

/// No inner digit lies between the ends' digits, both included (lockout
/// lines). The state is the first end's digit, the greatest inner digit
/// below it and the smallest above it (0 and n + 1 before any).
pub(super) fn encode_outside(
    ends: (Cell, Cell),
    inner: &[Cell],
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) -> bool {
    let top = n as Digit + 1;
    let step = |&(first, below, above): &(Digit, Digit, Digit), d: Digit| match d {
        _ if d == first => None,
        _ if d < first => Some((first, below.max(d), above)),
        _ => Some((first, below, above.min(d))),
    };
    // The digits between the ends, both included, hold no inner one.
    let closes = |&(first, below, above): &(Digit, Digit, Digit), d: Digit| {
        (d >= first && d < above) || (d <= first && d > below)
    };
    encode_between_ends(ends, inner, n, |d| (d, 0, top), step, closes, MOST_LOCKOUT_EDGES, spelling, out)
}

/// The cells hold different digits that make a run (renban): one window
/// of `len` digits is chosen (one-hot), each cell's digit lies in it, and,
/// added to the clauses `--lines forward` keeps, each digit of the chosen
/// window is in some cell (the line holds `len` different digits of a
/// window of `len`). A digit no cell can hold rules out every window with
/// it, which a run of different digits needs: propagation then narrows the
/// cells to the windows left. The chosen window's digits are also out of
/// every cell that sees the whole line (`differ`), as ISS's renban
/// handler removes a value the line requires from the cells that see
/// every cell that may hold it (`BinaryPairwise`'s
/// `enforceRequiredValueExclusions`): on "Hard renban 2" 81,521 -> 58,662
/// decisions. Not domain consistent (the different digits
/// are pairs of cells, not one constraint), but the automaton over the set
/// of digits read, which is, made the search slower on the renban puzzles
/// measured (its variables cost more than it saved).
pub(super) fn encode_consecutive(
    cells: &[Cell],
    n: usize,
    differ: &Differ,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let len = cells.len();
    let windows = consecutive_windows(cells, n, spelling, out);
    let seeing = differ.seeing_all(cells);
    for (k, &window) in (1..).zip(&windows) {
        for d in (k..k + len).map(|d| d as Digit) {
            let mut clause = vec![!window];
            for &cell in cells {
                clause.push(spelling.is(cell, d, out));
            }
            out.add_clause(&clause);
            for &other in &seeing {
                out.add_clause(&[vec![!window], spelling.not(other, d)].concat());
            }
        }
    }
}

/// The clauses of a run of `cells.len()` digits that `--lines forward`
/// keeps: a window variable for each run `k..k + len` (one-hot), and each
/// cell's digit in the chosen window. Returns the windows' variables.
pub(super) fn consecutive_windows(
    cells: &[Cell],
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) -> Vec<Lit> {
    let len = cells.len();
    let windows: Vec<Lit> = (1..=n + 1 - len).map(|_| out.new_var().positive()).collect();
    out.add_clause(&windows);
    for (i, &a) in windows.iter().enumerate() {
        for &b in &windows[i + 1..] {
            out.add_clause(&[!a, !b]);
        }
    }
    for (k, &window) in (1..).zip(&windows) {
        for &cell in cells {
            for d in (1..=n as Digit).filter(|&d| usize::from(d) < k || usize::from(d) >= k + len) {
                let mut clause = spelling.not(cell, d);
                clause.push(!window);
                out.add_clause(&clause);
            }
        }
    }
    windows
}

/// Every part sums to the same total: each part's sum as an automaton over
/// its cells (the state is the sum so far; for a part whose cells may not
/// share a digit, `distinct`, as a region-sum line's part in a box, the
/// set of digits used, whose sum it is, unless that passes [`MOST_EDGES`]),
/// and the parts' end states tied to one another by their sums (the first
/// part ends in sum `v` exactly when each other part does; a sum one part
/// cannot reach is ruled out for all). Each part's encoding is domain
/// consistent on "the part sums to the total" (with its cells' differences,
/// for a distinct part: ISS's "Region sum lines, hard" 9,090 -> 1,210
/// decisions, since a sum alone keeps 2 + 2 for 4) and
/// the parts share only the total, so propagation is domain consistent on
/// the whole (a constraint network whose constraints meet in one variable
/// is acyclic: arc consistency on each is global consistency; Beeri et
/// al. 1983). Parts whose automata would pass [`MOST_EDGES`] together
/// fall back to the one-hot sums of `sum.rs`.
pub(super) fn encode_equal_sums(
    parts: &[Vec<Cell>],
    distinct: &[bool],
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) -> bool {
    // Each part's automaton has at most (its length x its largest sum + 1)
    // states and n edges out of each: checked before anything is encoded.
    let size: usize = parts.iter().map(|part| part.len() * (part.len() * n + 1) * n).sum();
    if size > MOST_EDGES {
        return false;
    }
    let mut ends: Vec<sum::Values> = Vec::new();
    for (part, &distinct) in parts.iter().zip(distinct) {
        // The state: the set of digits read (bit `d - 1`), whose sum the
        // part ends in.
        let set_step = |&set: &u64, d: Digit| {
            let bit = 1u64 << (d - 1);
            (set & bit == 0).then_some(set | bit)
        };
        // The sets that end in the same sum are one end state.
        let sum_of = |&set: &u64| super::total(set);
        let with_sets = distinct
            .then(|| {
                automaton::encode_line_within(part, n, 0u64, set_step, |_| true, sum_of, MOST_EDGES, spelling, out)
            })
            .flatten();
        let values = match with_sets {
            Some(finals) => finals.into_iter().collect(),
            None => {
                let step = |&sum: &i64, d: Digit| Some(sum + i64::from(d));
                let finals =
                    automaton::encode_line_within(part, n, 0i64, step, |_| true, |s| *s, MOST_EDGES, spelling, out);
                finals.expect("sized above").into_iter().collect()
            }
        };
        ends.push(values);
    }
    sum::tie_equal(&ends, out);
    true
}

/// `Σ w·digit = target` over `terms` (little killers, arrows, cages' sums)
/// as an automaton whose state is the sum so far, pruned to the sums from
/// which the terms left can still reach the target (`--sum mdd`): the
/// partial sums of `sum.rs` with backward supports too, so that
/// propagation is domain consistent on the sum (Abío et al. 2012, MDDs of
/// pseudo-Boolean constraints). Not the default: on ISS's little killer,
/// pill arrow and killer puzzles the search was slower with it
/// (docs/encodings.md). False, with nothing encoded, past [`MOST_EDGES`].
pub(super) fn encode_sum(
    terms: &[(Cell, i32)],
    target: i64,
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) -> bool {
    let terms: Vec<(Cell, i64)> = terms.iter().filter(|&&(_, w)| w != 0).map(|&(c, w)| (c, i64::from(w))).collect();
    let cells: Vec<Cell> = terms.iter().map(|&(c, _)| c).collect();
    // The least and greatest the terms from position i on can add.
    let (mut least, mut most) = (vec![0i64; terms.len() + 1], vec![0i64; terms.len() + 1]);
    for (i, &(_, w)) in terms.iter().enumerate().rev() {
        let (a, b) = (w, w * n as i64);
        least[i] = least[i + 1] + a.min(b);
        most[i] = most[i + 1] + a.max(b);
    }
    let step = |&(read, sum): &(usize, i64), d: Digit| -> Option<(usize, i64)> {
        let sum = sum + terms[read].1 * i64::from(d);
        let reach = (sum + least[read + 1]..=sum + most[read + 1]).contains(&target);
        reach.then_some((read + 1, sum))
    };
    let accept = |&(_, sum): &(usize, i64)| sum == target;
    automaton::encode_line_within(&cells, n, (0, 0), step, accept, |_| (), MOST_EDGES, spelling, out).is_some()
}
