//! Sums over cells, as one-hot partial sums merged two at a time (see the
//! module doc of `encode::constraint`): fixed sums, equal sums, and the
//! masked sums of x-sums and sandwiches, whose terms count only where a
//! condition on other cells holds.

use std::collections::BTreeMap;

use varisat::Lit;

use super::{Spelling, SumEncoding};
use crate::encode::ClauseSink;
use crate::model::{Cell, Digit};

/// A one-hot set of values: the literal true when the value is taken.
pub(super) type Values = BTreeMap<i64, Lit>;

/// The least and greatest value of a non-empty set.
fn span(values: &Values) -> (i64, i64) {
    let first = values.keys().next().copied().unwrap_or(0);
    (first, values.keys().next_back().copied().unwrap_or(first))
}

/// The leaf of a term: the one-hot set of `w·digit` of its cell.
fn leaf(cell: Cell, w: i32, n: usize, spelling: &mut Spelling, out: &mut dyn ClauseSink) -> Values {
    (1..=n as Digit).map(|d| (i64::from(w) * i64::from(d), spelling.is(cell, d, out))).collect()
}

/// `Σ w·digit = target` over `terms`, merged as `sums` says.
pub(super) fn encode_sum(
    terms: &[(Cell, i32)],
    target: i64,
    sums: SumEncoding,
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let leaves: Vec<Values> =
        terms.iter().filter(|&&(_, w)| w != 0).map(|&(cell, w)| leaf(cell, w, n, spelling, out)).collect();
    sum_of_leaves(leaves, target, sums, out);
}

/// The sum of one value from each one-hot set of `leaves` equals `target`.
fn sum_of_leaves(leaves: Vec<Values>, target: i64, sums: SumEncoding, out: &mut dyn ClauseSink) {
    let (lo, hi) = leaves.iter().map(span).fold((0, 0), |(lo, hi), (a, b)| (lo + a, hi + b));
    let sum = Sum { target: Some(target), total: (lo, hi) };
    match leaves.len() {
        0 => {
            if target != 0 {
                out.add_clause(&[]);
            }
        }
        1 => {
            for (&v, &lit) in &leaves[0] {
                if v != target {
                    out.add_clause(&[!lit]);
                }
            }
        }
        _ => match sums {
            // An MDD or grouped sum too large for its automata (`lines.rs`,
            // `grouped.rs`) is the chain.
            SumEncoding::PartialSums | SumEncoding::Mdd | SumEncoding::Grouped | SumEncoding::Auto => {
                let mut leaves = leaves.into_iter();
                let mut node = leaves.next().expect("two leaves or more");
                let mut rest: Vec<Values> = leaves.collect();
                let last = rest.len() - 1;
                for (i, leaf) in rest.drain(..).enumerate() {
                    node = sum.merge(node, leaf, i == last, out);
                }
            }
            SumEncoding::Totalizer => {
                sum.tree(leaves, true, out);
            }
        },
    }
}

/// The sum being encoded: its target (none: every partial sum is kept) and
/// the range of all its terms.
struct Sum {
    target: Option<i64>,
    total: (i64, i64),
}

impl Sum {
    /// Merges `leaves` as a balanced tree; the root's pairs are checked against the target.
    fn tree(&self, mut leaves: Vec<Values>, root: bool, out: &mut dyn ClauseSink) -> Values {
        if leaves.len() == 1 {
            return leaves.pop().expect("one leaf");
        }
        let right = leaves.split_off(leaves.len() / 2);
        let left = self.tree(leaves, false, out);
        let right = self.tree(right, false, out);
        self.merge(left, right, root, out)
    }

    /// The one-hot set of `a + b`; at the root, only pairs summing to the
    /// target are allowed and no set is made.
    fn merge(&self, a: Values, b: Values, root: bool, out: &mut dyn ClauseSink) -> Values {
        if a.is_empty() || b.is_empty() {
            out.add_clause(&[]); // an earlier merge found no reachable sum
            return Values::new();
        }
        let ((alo, ahi), (blo, bhi)) = (span(&a), span(&b));
        // What the terms outside this node can still add.
        let (rest_lo, rest_hi) = (self.total.0 - alo - blo, self.total.1 - ahi - bhi);
        let mut merged = Values::new();
        for (&x, &lx) in &a {
            for (&y, &ly) in &b {
                let s = x + y;
                let reachable = match self.target {
                    None => true,
                    Some(t) if root => s == t,
                    Some(t) => (s + rest_lo..=s + rest_hi).contains(&t),
                };
                if !reachable {
                    out.add_clause(&[!lx, !ly]);
                } else if !root {
                    let ls = *merged.entry(s).or_insert_with(|| out.new_var().positive());
                    out.add_clause(&[!lx, !ly, ls]);
                }
            }
        }
        // At most one partial sum, so that propagation fixes them all.
        let lits: Vec<Lit> = merged.values().copied().collect();
        for (i, &p) in lits.iter().enumerate() {
            for &q in &lits[i + 1..] {
                out.add_clause(&[!p, !q]);
            }
        }
        merged
    }
}

/// The one-hot set of the sum of `cells`' digits, every partial sum kept.
fn one_hot_sum(cells: &[Cell], n: usize, spelling: &mut Spelling, out: &mut dyn ClauseSink) -> Values {
    let mut leaves = cells.iter().map(|&cell| leaf(cell, 1, n, spelling, out));
    let first = leaves.next().unwrap_or_default();
    let rest: Vec<Values> = leaves.collect();
    let sum = Sum { target: None, total: (0, 0) };
    rest.into_iter().fold(first, |node, leaf| sum.merge(node, leaf, false, out))
}

/// Every part sums to the same number: each part's one-hot sum, and each
/// value of the first part's sum equivalent to that value of every other's.
pub(super) fn encode_equal_sums(parts: &[Vec<Cell>], n: usize, spelling: &mut Spelling, out: &mut dyn ClauseSink) {
    let sets: Vec<Values> = parts.iter().map(|part| one_hot_sum(part, n, spelling, out)).collect();
    tie_equal(&sets, out);
}

/// Parts' sums, each a one-hot set of values, made equal: each value of the
/// first part's equivalent to that value of every other's, a value some
/// part cannot take ruled out for the others.
pub(super) fn tie_equal(sets: &[Values], out: &mut dyn ClauseSink) {
    let Some((first, rest)) = sets.split_first() else { return };
    for other in rest {
        let values: std::collections::BTreeSet<i64> = first.keys().chain(other.keys()).copied().collect();
        for v in values {
            match (first.get(&v), other.get(&v)) {
                (Some(&a), Some(&b)) => {
                    out.add_clause(&[!a, b]);
                    out.add_clause(&[!b, a]);
                }
                (Some(&only), None) | (None, Some(&only)) => out.add_clause(&[!only]),
                (None, None) => {}
            }
        }
    }
}

/// The leaf of a cell whose digit counts only where `counts` is true: the
/// one-hot set of `0` (the literal `¬counts`) and of each digit `d` (a
/// defined variable `counts ∧ cell = d`).
fn masked_leaf(cell: Cell, counts: Lit, n: usize, spelling: &mut Spelling, out: &mut dyn ClauseSink) -> Values {
    let mut leaf = Values::new();
    leaf.insert(0, !counts);
    for d in 1..=n as Digit {
        let is = spelling.is(cell, d, out);
        let v = out.new_var().positive();
        out.add_clause(&[!v, counts]);
        out.add_clause(&[!v, is]);
        out.add_clause(&[!counts, !is, v]);
        leaf.insert(i64::from(d), v);
    }
    leaf
}

/// X-sum: the first `x` cells sum to `target`, `x` the first cell's digit.
/// Cell `k` (from 0) counts when `x > k`: a defined variable `first >= k+1`
/// per cell after the first, and one sum of masked digits.
pub(super) fn encode_xsum(
    cells: &[Cell],
    target: i64,
    sums: SumEncoding,
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let first = cells[0];
    for x in (cells.len() + 1)..=n {
        out.add_clause(&spelling.not(first, x as Digit)); // fewer cells than the digit
    }
    let mut leaves = vec![leaf(first, 1, n, spelling, out)];
    for (k, &cell) in cells.iter().enumerate().skip(1) {
        // counts <-> first holds one of k+1..=n
        let counts = out.new_var().positive();
        let above: Vec<Lit> = (k + 1..=n).map(|d| spelling.is(first, d as Digit, out)).collect();
        let mut back = vec![!counts];
        back.extend(&above);
        out.add_clause(&back);
        for &lit in &above {
            out.add_clause(&[!lit, counts]);
        }
        leaves.push(masked_leaf(cell, counts, n, spelling, out));
    }
    sum_of_leaves(leaves, target, sums, out);
}

/// Sandwich: `low` and `high` once each on the line, and the cells between
/// them summing to `target`. Per cell, `crust` (it holds low or high) and a
/// one-hot count of the crusts before it (0, 1 or 2); a cell counts when
/// exactly one crust precedes it and it is none; one sum of masked digits.
#[allow(clippy::too_many_arguments)]
pub(super) fn encode_sandwich(
    cells: &[Cell],
    target: i64,
    (low, high): (Digit, Digit),
    sums: SumEncoding,
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    for d in [low, high] {
        let lits: Vec<Lit> = cells.iter().map(|&c| spelling.is(c, d, out)).collect();
        out.add_clause(&lits);
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                out.add_clause(&[!a, !b]);
            }
        }
    }
    let mut leaves = Vec::with_capacity(cells.len());
    // How many crusts precede the current cell, one-hot over 0, 1, 2;
    // before the first cell, 0 (a variable fixed true).
    let yes = out.new_var().positive();
    out.add_clause(&[yes]);
    let mut before = [yes, !yes, !yes];
    for &cell in cells {
        let (l, h) = (spelling.is(cell, low, out), spelling.is(cell, high, out));
        let crust = out.new_var().positive();
        out.add_clause(&[!crust, l, h]);
        out.add_clause(&[!l, crust]);
        out.add_clause(&[!h, crust]);
        // counts <-> one crust before, and this cell none.
        let counts = out.new_var().positive();
        out.add_clause(&[!counts, before[1]]);
        out.add_clause(&[!counts, !crust]);
        out.add_clause(&[!before[1], crust, counts]);
        leaves.push(masked_leaf(cell, counts, n, spelling, out));
        let next = [0; 3].map(|_| out.new_var().positive());
        for q in 0..3 {
            out.add_clause(&[!before[q], crust, next[q]]);
            if q > 0 {
                out.add_clause(&[!before[q - 1], !crust, next[q]]);
            }
        }
        out.add_clause(&[!before[2], !crust]); // a third crust
        for (i, &a) in next.iter().enumerate() {
            for &b in &next[i + 1..] {
                out.add_clause(&[!a, !b]);
            }
        }
        before = next;
    }
    out.add_clause(&[before[2]]);
    sum_of_leaves(leaves, target, sums, out);
}
