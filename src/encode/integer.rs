//! The integer digit encodings, the SAT counterpart of a CP model with one
//! integer variable per cell: the order encoding and the log encoding. They
//! exist to be compared with the direct one, not to be fast.
//!
//! - Domain: order literals are monotone, `¬y(d+1) ∨ y(d)` for `d` in
//!   `2..n-1` (`n - 2` clauses a cell); log codes above `n - 1` are excluded,
//!   one clause per code in `n..2^b` (`2^b - n` clauses a cell, `b = ceil(log2 n)`).
//! - All-different: pairwise disequality. For each pair of cells that share a
//!   group (counted once even if they share several) and each digit `d`, the
//!   clause `¬[a = d] ∨ ¬[b = d]` over the digit's spelling: `n` clauses a
//!   pair; with order literals a clause has 2 to 4 literals, with log ones `2b`.
//! - Relations: with order literals a sum is a comparison (Tamura et al.):
//!   `a + b <= k` is `¬[a >= i] ∨ ¬[b >= k-i+1]` for `i` in `1..=n`, and
//!   `a + b >= k` is `[a >= i+1] ∨ [b >= k-i]`, with constant literals
//!   simplified; `=` is both, `<` is `<= t-1`, `>` is `>= t+1`. Other
//!   relations, and every relation with log literals: each forbidden pair
//!   of digits is one clause over the two digits' spellings.
//!
//! ## References
//! - N. Tamura, A. Taga, S. Kitagawa, M. Banbara, "Compiling finite linear CSP
//!   into SAT", Constraints 14(2), 2009 (the order encoding).
//! - T. Walsh, "SAT v CSP", CP 2000; S. D. Prestwich, "CNF Encodings",
//!   Handbook of Satisfiability, 2009 (log encoding).

use std::cmp::Ordering;
use std::collections::BTreeSet;

use varisat::Lit;

use super::{ClauseKind, ClauseSink, DigitEncoding, Recorder, VarMap};
use crate::model::{Cell, Digit, Predicate, Puzzle, Relation};

/// Emits domain, all-different and relation clauses for order or log digits.
pub(super) fn encode(puzzle: &Puzzle, vars: &VarMap, out: &mut Recorder) {
    let n = puzzle.digits();
    out.kind = ClauseKind::Domain;
    for cell in puzzle.cells() {
        match vars.digits() {
            DigitEncoding::Order => {
                for d in 2..n {
                    out.add_clause(&[vars.full_var(cell, d - 1).negative(), vars.full_var(cell, d - 2).positive()]);
                }
            }
            DigitEncoding::Log => {
                let bits = DigitEncoding::Log.vars_per_cell(n);
                for code in n..1 << bits {
                    let clause: Vec<Lit> =
                        (0..bits).map(|k| Lit::from_var(vars.full_var(cell, k), code >> k & 1 == 0)).collect();
                    out.add_clause(&clause);
                }
            }
            DigitEncoding::Direct => unreachable!("the direct encoding has its own encoder"),
        }
    }

    out.kind = ClauseKind::AllDifferent;
    let pairs: BTreeSet<(Cell, Cell)> = puzzle
        .groups()
        .iter()
        .flat_map(|g| {
            g.cells.iter().enumerate().flat_map(|(i, &a)| g.cells[i + 1..].iter().map(move |&b| (a.min(b), a.max(b))))
        })
        .collect();
    for &(a, b) in &pairs {
        for d in 1..=n as Digit {
            out.add_clause(&not_both(vars, a, d, b, d));
        }
    }

    out.kind = ClauseKind::Relation;
    for relation in puzzle.relations() {
        match (vars.digits(), relation.predicate) {
            (DigitEncoding::Order, Predicate::Sum { cmp, target }) => order_relation(vars, relation, cmp, target, out),
            _ => {
                for (i, j) in itertools::iproduct!(1..=n as Digit, 1..=n as Digit) {
                    if !relation.predicate.allows(i, j) {
                        out.add_clause(&not_both(vars, relation.a, i, relation.b, j));
                    }
                }
            }
        }
    }
}

/// `¬[a = i] ∨ ¬[b = j]`.
fn not_both(vars: &VarMap, a: Cell, i: Digit, b: Cell, j: Digit) -> Vec<Lit> {
    vars.digit_lits(a, i).chain(vars.digit_lits(b, j)).map(|l| !l).collect()
}

/// "`cell` >= `v`" in the order encoding: a literal, or a constant outside `2..=n`.
enum AtLeast {
    Const(bool),
    Lit(Lit),
}

fn at_least(vars: &VarMap, cell: Cell, v: i64) -> AtLeast {
    let n = vars.values() as i64;
    if v <= 1 {
        AtLeast::Const(true)
    } else if v > n {
        AtLeast::Const(false)
    } else {
        AtLeast::Lit(vars.full_var(cell, (v - 2) as usize).positive())
    }
}

/// Emits the disjunction of two possibly constant literals, simplified.
fn add_or(out: &mut Recorder, x: AtLeast, y: AtLeast, negate: bool) {
    let mut clause = Vec::with_capacity(2);
    for part in [x, y] {
        match part {
            AtLeast::Const(b) if b != negate => return, // a true disjunct
            AtLeast::Const(_) => {}
            AtLeast::Lit(l) => clause.push(if negate { !l } else { l }),
        }
    }
    out.add_clause(&clause);
}

/// A sum relation as order-encoding comparisons.
fn order_relation(vars: &VarMap, relation: &Relation, cmp: Ordering, target: u32, out: &mut Recorder) {
    let (n, t) = (vars.values() as i64, i64::from(target));
    let (a, b) = (relation.a, relation.b);
    let (at_most, at_least_k) = match cmp {
        Ordering::Less => (Some(t - 1), None),
        Ordering::Equal => (Some(t), Some(t)),
        Ordering::Greater => (None, Some(t + 1)),
    };
    for i in 1..=n {
        if let Some(k) = at_most {
            // a >= i -> b <= k - i
            add_or(out, at_least(vars, a, i), at_least(vars, b, k - i + 1), true);
        }
        if let Some(k) = at_least_k {
            // a <= i -> b >= k - i
            add_or(out, at_least(vars, a, i + 1), at_least(vars, b, k - i), false);
        }
    }
}
