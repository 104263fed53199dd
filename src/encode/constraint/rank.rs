//! Full rank (ISS's `FullRank`): every reading of the grid (a row or a
//! column, either way) is compared with the clued one lexicographically,
//! by a chain from the last cell back: `below[k]`, the reading from cell
//! `k` on is below the clued one's, and `equal[k]`, the two agree from cell
//! `k` on:
//!
//! - `below[k] <-> less[k] | (same[k] & below[k + 1])`, `equal[k] <->
//!   same[k] & equal[k + 1]`;
//! - `less[k]`: the reading's cell holds a smaller digit, through the order
//!   literals `cell <= t` of each cell (defined by its digits); `same[k]`:
//!   the two cells hold one digit (a cell met by both readings: true).
//!
//! Every auxiliary variable is defined both ways, so once the digits are
//! fixed all of them are (no count changes). Then exactly `rank - 1` of the
//! `below` outcomes hold, an automaton over them counting
//! ([`super::automaton`]), and a clued reading that may not tie has no
//! `equal` outcome. The comparisons propagate as the chain does: a digit
//! decided in every earlier cell of both readings decides the next
//! outcome, not more.

use std::collections::HashMap;

use varisat::Lit;

use super::automaton::encode_reads;
use super::Spelling;
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

/// The comparisons of one constraint: each cell's order literals, made
/// once.
struct Compare {
    n: usize,
    /// `at_most[cell][t - 1]`: the cell's digit is at most `t`, `t < n`.
    at_most: HashMap<Cell, Vec<Lit>>,
}

impl Compare {
    fn new(n: usize) -> Compare {
        Compare { n, at_most: HashMap::new() }
    }

    fn at_most(&mut self, cell: Cell, t: usize, spelling: &mut Spelling, out: &mut dyn ClauseSink) -> Lit {
        let n = self.n;
        let lits = self.at_most.entry(cell).or_insert_with(|| {
            (1..n)
                .map(|t| {
                    let v = out.new_var().positive();
                    for d in 1..=n {
                        let is = spelling.is(cell, d as Digit, out);
                        out.add_clause(&[!is, if d <= t { v } else { !v }]);
                    }
                    v
                })
                .collect()
        });
        lits[t - 1]
    }

    /// Whether reading `a` is below reading `b`, whether they are equal,
    /// and whether `a` is below `b` after their first cells.
    fn compare(
        &mut self,
        a: &[Cell],
        b: &[Cell],
        spelling: &mut Spelling,
        out: &mut dyn ClauseSink,
    ) -> (Bit, Bit, Bit) {
        let n = self.n;
        let (mut below, mut equal) = (Bit::Known(false), Bit::Known(true));
        let mut after_first = below;
        for (k, (&x, &y)) in a.iter().zip(b).enumerate().rev() {
            if k == 0 {
                after_first = below;
            }
            if x == y {
                continue; // same digit: the outcome is the rest's
            }
            let less = out.new_var().positive();
            let same = out.new_var().positive();
            for d in 1..=n {
                let (xd, yd) = (spelling.is(x, d as Digit, out), spelling.is(y, d as Digit, out));
                out.add_clause(&[!xd, !yd, same]);
                out.add_clause(&[!same, !xd, yd]);
                // y = d: x below it exactly when x <= d - 1.
                if d == 1 {
                    out.add_clause(&[!yd, !less]);
                } else {
                    let low = self.at_most(x, d - 1, spelling, out);
                    out.add_clause(&[!yd, !low, less]);
                    out.add_clause(&[!yd, low, !less]);
                }
            }
            let tail = and(Bit::Var(same), below, out);
            below = or(Bit::Var(less), tail, out);
            equal = and(Bit::Var(same), equal, out);
        }
        (below, equal, after_first)
    }
}

/// `line`'s reading has rank `rank` among the `side` x `side` grid's
/// readings, and, if `alone`, ties with none. On a `latin` grid (each row
/// and column holds each digit once) four readings start with each
/// digit, one of each kind (rows forward, rows back, columns down,
/// columns up), all below those that start higher: the reading starts
/// with digit `v = (rank - 1) / 4 + 1`, and of the other three kinds'
/// readings that start with `v`, exactly `(rank - 1) % 4` are below it
/// after the first cell. Both are implied by the count; said outright
/// they propagate as the count alone does not.
#[allow(clippy::too_many_arguments)]
pub(super) fn encode_rank(
    line: &[Cell],
    rank: u32,
    alone: bool,
    side: usize,
    latin: bool,
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let mut compare = Compare::new(n);
    let (mut known_below, mut below) = (0usize, Vec::new());
    let all = readings(side);
    // Per kind (rows forward, rows back, columns down, columns up: the
    // order of `readings`), the readings that start with `v` and are below
    // after their first cell.
    let v = ((rank.max(1) - 1) / 4 + 1) as Digit;
    let kind = |i: usize| 2 * usize::from(i >= 2 * side) + i % 2;
    let mut kinds: [Vec<Bit>; 4] = Default::default();
    let own_kind = all.iter().position(|r| r.as_slice() == line).map(kind);
    for (i, other) in all.iter().enumerate().filter(|(_, r)| r.as_slice() != line) {
        let (b, e, after_first) = compare.compare(other, line, spelling, out);
        if latin && usize::from(v) <= n {
            let starts = if other[0] == line[0] { Bit::Known(true) } else { Bit::Var(spelling.is(other[0], v, out)) };
            kinds[kind(i)].push(and(starts, after_first, out));
        }
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
    if let Some(kind) = own_kind.filter(|_| latin && usize::from(v) <= n) {
        let first = spelling.is(line[0], v, out);
        out.add_clause(&[first]);
        let slots: Vec<Bit> = (0..4).filter(|&k| k != kind).map(|k| any(&kinds[k], out)).collect();
        exactly(&slots, ((rank - 1) % 4) as usize, out);
    }
    let Some(wanted) = (rank as usize).checked_sub(1 + known_below).filter(|&w| w <= below.len()) else {
        out.add_clause(&[]);
        return;
    };
    encode_reads(
        &vec![2; below.len()],
        0usize,
        |&count, _, option| Some(count + option).filter(|&c| c <= wanted),
        |&count| count == wanted,
        usize::MAX,
        |i, _| vec![!below[i], below[i]],
        out,
    );
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
