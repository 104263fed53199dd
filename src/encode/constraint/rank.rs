//! Full rank (ISS's `FullRank`): readings of the grid (a row or a column,
//! either way) compared lexicographically, by a chain from the last cell
//! back: `below[k]`, the one reading from cell `k` on is below the
//! other's, and `equal[k]`, the two agree from cell `k` on:
//!
//! - `below[k] <-> less[k] | (same[k] & below[k + 1])`, `equal[k] <->
//!   same[k] & equal[k + 1]`;
//! - `less[k]`: the first reading's cell holds a smaller digit, through the
//!   order literals `cell <= t` of each cell (defined by its digits, shared
//!   by every comparison); `same[k]`: the two cells hold one digit, defined
//!   both ways with "same and one holds `d`" implying the other holds `d`
//!   (a cell met by both readings: true; two cells of one group or of a
//!   "different digits" relation: false, so the chain ends at the first
//!   such pair, which decides the comparison). Each pair of cells is
//!   compared once for every reading that meets it, `y` against `x` read
//!   off `x` against `y`.
//!
//! Every auxiliary variable is defined both ways, so once the digits are
//! fixed all of them are (no count changes). Each pair of readings is
//! compared once for all the grid's clues. On a grid whose rows and
//! columns hold each digit once, a clue is its first digit and a count
//! over the 27 readings of the other kinds that start with the same digit
//! ([`encode_rank`]); elsewhere exactly `rank - 1` of every other reading's
//! `below` outcomes hold, an automaton counting ([`super::automaton`]). A
//! clued reading that may not tie has no `equal` outcome, and clues are
//! ordered among themselves by their ranks ([`encode_rank_order`]). The
//! comparisons propagate as the chain does: a digit decided in every
//! earlier cell of both readings decides the next outcome, not more.

use rustc_hash::FxHashMap as HashMap;

use varisat::Lit;

use super::automaton::encode_true_count;
use super::{Differ, Spelling};
use crate::encode::ClauseSink;
use crate::model::{readings, Cell, Digit};

/// A literal, or a value known while encoding.
#[derive(Clone, Copy)]
enum Bit {
    Known(bool),
    Var(Lit),
}

/// `a | b`, a new variable defined both ways unless one side is known.
fn or(a: Bit, b: Bit, out: &mut dyn ClauseSink) -> Bit {
    match (a, b) {
        (Bit::Known(true), _) | (_, Bit::Known(true)) => Bit::Known(true),
        (Bit::Known(false), other) | (other, Bit::Known(false)) => other,
        (Bit::Var(x), Bit::Var(y)) => {
            let v = out.new_var().positive();
            out.add_clause(&[!x, v]);
            out.add_clause(&[!y, v]);
            out.add_clause(&[!v, x, y]);
            Bit::Var(v)
        }
    }
}

impl std::ops::Not for Bit {
    type Output = Bit;

    fn not(self) -> Bit {
        match self {
            Bit::Known(b) => Bit::Known(!b),
            Bit::Var(l) => Bit::Var(!l),
        }
    }
}

/// `a & b`: not (not `a` or not `b`).
fn and(a: Bit, b: Bit, out: &mut dyn ClauseSink) -> Bit {
    !or(!a, !b, out)
}

/// Comparisons of readings, digit by digit, through each cell's order
/// literals (made once a cell, in [`Spelling::at_most`]), each pair
/// compared once: `b` against `a` is read off `a` against `b`.
pub(super) struct Compare {
    n: usize,
    made: HashMap<(Vec<Cell>, Vec<Cell>), (Bit, Bit)>,
    /// Per pair of cells compared: whether the first holds a smaller
    /// digit, and whether they hold the same (a pair meets in many
    /// comparisons of readings).
    cells: HashMap<(Cell, Cell), (Bit, Bit)>,
    /// Cells that never hold the same digit: a comparison is decided
    /// where it meets two.
    differ: Differ,
}

impl Compare {
    /// Comparisons knowing of no cells that differ.
    pub(super) fn new(n: usize) -> Compare {
        Compare::knowing(n, Differ::default())
    }

    /// Comparisons knowing that the cells `differ` says differ never tie.
    pub(super) fn knowing(n: usize, differ: Differ) -> Compare {
        Compare { n, made: HashMap::default(), cells: HashMap::default(), differ }
    }

    /// Whether reading `a` is below reading `b`, and whether they are equal.
    fn compare(&mut self, a: &[Cell], b: &[Cell], spelling: &mut Spelling, out: &mut dyn ClauseSink) -> (Bit, Bit) {
        if let Some(&made) = self.made.get(&(a.to_vec(), b.to_vec())) {
            return made;
        }
        if let Some(&(below, equal)) = self.made.get(&(b.to_vec(), a.to_vec())) {
            // `a` is below `b` when `b` is neither below nor equal to it.
            let above = and(!below, !equal, out);
            self.made.insert((a.to_vec(), b.to_vec()), (above, equal));
            return (above, equal);
        }
        let made = self.chain(a, b, spelling, out);
        self.made.insert((a.to_vec(), b.to_vec()), made);
        made
    }

    /// [`Compare::compare`], by a chain from the last cell back.
    fn chain(&mut self, a: &[Cell], b: &[Cell], spelling: &mut Spelling, out: &mut dyn ClauseSink) -> (Bit, Bit) {
        // The first two cells that differ (never the same digit) decide
        // the comparison: the cells after them are never read.
        let decided = a.iter().zip(b).position(|(&x, &y)| self.differ.differ(x, y)).map_or(a.len(), |k| k + 1);
        let (mut below, mut equal) = (Bit::Known(false), Bit::Known(true));
        for (&x, &y) in a[..decided].iter().zip(b).rev() {
            if x == y {
                continue; // same digit: the outcome is the rest's
            }
            let (less, same) = self.cell_pair(x, y, spelling, out);
            let tail = and(same, below, out);
            below = or(less, tail, out);
            equal = and(same, equal, out);
        }
        (below, equal)
    }

    /// Whether cell `x` holds a smaller digit than cell `y`, and whether
    /// the same; `y` against `x` is read off `x` against `y`.
    fn cell_pair(&mut self, x: Cell, y: Cell, spelling: &mut Spelling, out: &mut dyn ClauseSink) -> (Bit, Bit) {
        if let Some(&made) = self.cells.get(&(x, y)) {
            return made;
        }
        if let Some(&(y_below, same)) = self.cells.get(&(y, x)) {
            // `x` is below `y` when `y` is neither below nor the same.
            let made = (and(!y_below, !same, out), same);
            self.cells.insert((x, y), made);
            return made;
        }
        let n = self.n;
        let less = out.new_var().positive();
        let same = if self.differ.differ(x, y) { Bit::Known(false) } else { Bit::Var(out.new_var().positive()) };
        for d in 1..=n {
            let (xd, yd) = (spelling.is(x, d as Digit, out), spelling.is(y, d as Digit, out));
            if let Bit::Var(same) = same {
                out.add_clause(&[!xd, !yd, same]);
                out.add_clause(&[!same, !xd, yd]);
                out.add_clause(&[!same, !yd, xd]);
            }
            // y = d: x below it exactly when x <= d - 1.
            if d == 1 {
                out.add_clause(&[!yd, !less]);
            } else {
                let low = spelling.at_most(x, d - 1, n, out);
                out.add_clause(&[!yd, !low, less]);
                out.add_clause(&[!yd, low, !less]);
            }
        }
        let made = (Bit::Var(less), same);
        self.cells.insert((x, y), made);
        made
    }
}

/// `line`'s reading has rank `rank` among the `side` x `side` grid's
/// readings, and, if `alone`, ties with none.
///
/// On a `latin` grid (each row and column holds each digit once) four
/// readings start with each digit, one of each kind (rows forward, rows
/// back, columns down, columns up), all below those that start higher, so
/// the rank says everything in two parts: the reading starts with digit
/// `v = (rank - 1) / 4 + 1`, and of the other three kinds' readings that
/// start with `v`, exactly `(rank - 1) % 4` are below it after the first
/// cell (a reading of its own kind starts in the same row or column as
/// it, so with another digit). Only those 27 comparisons after the first
/// cell are encoded, each gated by "starts with `v`" (ISS's handler keeps
/// the same rank sets). Elsewhere every other reading is compared whole
/// and exactly `rank - 1` of them are below, an automaton counting.
#[allow(clippy::too_many_arguments)]
pub(super) fn encode_rank(
    line: &[Cell],
    rank: u32,
    alone: bool,
    side: usize,
    latin: bool,
    n: usize,
    compare: &mut Compare,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let all = readings(side);
    let v = ((rank.max(1) - 1) / 4 + 1) as Digit;
    // Rows forward, rows back, columns down, columns up: the order of
    // `readings`.
    let kind = |i: usize| 2 * usize::from(i >= 2 * side) + i % 2;
    let own_kind = all.iter().position(|r| r.as_slice() == line).map(kind);
    if let Some(own) = own_kind.filter(|_| latin && rank >= 1 && usize::from(v) <= n && n >= 2) {
        let first = spelling.is(line[0], v, out);
        out.add_clause(&[first]);
        let mut kinds: [Vec<Bit>; 4] = Default::default();
        for (i, other) in all.iter().enumerate().filter(|&(i, _)| kind(i) != own) {
            let starts = if other[0] == line[0] { Bit::Known(true) } else { Bit::Var(spelling.is(other[0], v, out)) };
            let (below, equal) = compare.compare(&other[1..], &line[1..], spelling, out);
            kinds[kind(i)].push(and(starts, below, out));
            if alone {
                match and(starts, equal, out) {
                    Bit::Known(true) => out.add_clause(&[]),
                    Bit::Known(false) => {}
                    Bit::Var(l) => out.add_clause(&[!l]),
                }
            }
        }
        let slots: Vec<Bit> = (0..4).filter(|&k| k != own).map(|k| any(&kinds[k], out)).collect();
        exactly(&slots, ((rank - 1) % 4) as usize, out);
        return;
    }
    let (mut known_below, mut below) = (0usize, Vec::new());
    for other in all.iter().filter(|r| r.as_slice() != line) {
        let (b, e) = compare.compare(other, line, spelling, out);
        match b {
            Bit::Known(true) => known_below += 1,
            Bit::Known(false) => {}
            Bit::Var(l) => below.push(l),
        }
        if alone {
            match e {
                Bit::Known(true) => out.add_clause(&[]),
                Bit::Known(false) => {}
                Bit::Var(l) => out.add_clause(&[!l]),
            }
        }
    }
    // (A rank past the readings, or a line that is none of them, is left
    // to the count, which rules it out or reads it as it is.)
    let Some(wanted) = (rank as usize).checked_sub(1 + known_below).filter(|&w| w <= below.len()) else {
        out.add_clause(&[]);
        return;
    };
    encode_true_count(&below, wanted, |count| count == wanted, out);
}

/// Clued readings of one grid ordered by their ranks: a reading of a
/// lower rank is below one of a higher rank (each reading below the
/// higher one is below the lower one too, and so is the lower one), which
/// every clue's count implies but says only through the others. On a
/// `latin` grid only clues whose readings start with the same digit are
/// ordered (the others are ordered by their first cells).
pub(super) fn encode_rank_order(
    clues: &[(&[Cell], u32)],
    latin: bool,
    compare: &mut Compare,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    for (i, &(a, rank_a)) in clues.iter().enumerate() {
        for &(b, rank_b) in &clues[i + 1..] {
            if rank_a == rank_b || rank_a == 0 || rank_b == 0 || (latin && (rank_a - 1) / 4 != (rank_b - 1) / 4) {
                continue;
            }
            let (low, high) = if rank_a < rank_b { (a, b) } else { (b, a) };
            match compare.compare(low, high, spelling, out).0 {
                Bit::Known(true) => {}
                Bit::Known(false) => out.add_clause(&[]),
                Bit::Var(l) => out.add_clause(&[l]),
            }
        }
    }
}

/// Whether any of `bits` holds, a variable defined both ways.
fn any(bits: &[Bit], out: &mut dyn ClauseSink) -> Bit {
    bits.iter().fold(Bit::Known(false), |acc, &b| or(acc, b, out))
}

/// Exactly `wanted` of `bits` hold (a few bits: every subset of the
/// unknown ones with the wrong count is ruled out by a clause).
fn exactly(bits: &[Bit], wanted: usize, out: &mut dyn ClauseSink) {
    let known = bits.iter().filter(|b| matches!(b, Bit::Known(true))).count();
    let lits: Vec<Lit> = bits.iter().filter_map(|b| if let Bit::Var(l) = b { Some(*l) } else { None }).collect();
    for mask in 0u32..1 << lits.len() {
        if known + mask.count_ones() as usize != wanted {
            // Not this assignment: some literal differs from it.
            let clause: Vec<Lit> =
                lits.iter().enumerate().map(|(i, &l)| if mask >> i & 1 == 1 { !l } else { l }).collect();
            out.add_clause(&clause);
        }
    }
}

/// No two of the grid's readings are equal.
pub(super) fn encode_distinct_readings(side: usize, n: usize, spelling: &mut Spelling, out: &mut dyn ClauseSink) {
    let mut compare = Compare::new(n);
    let all = readings(side);
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            match compare.compare(a, b, spelling, out).1 {
                Bit::Known(true) => out.add_clause(&[]),
                Bit::Known(false) => {}
                Bit::Var(l) => out.add_clause(&[!l]),
            }
        }
    }
}
