//! Relation encodings: how a binary relation between the digits of two cells
//! becomes clauses over their one-hot variables.
//!
//! - `forbidden-pairs` (the direct encoding the user described): one binary
//!   clause `¬x(a,i) ∨ ¬x(b,j)` for every pair `(i, j)` the relation forbids.
//! - `support` (Gent 2002): for every digit `i` of each cell, `¬x(a,i) ∨` the
//!   disjunction of `x(b,j)` over the digits `j` that support `i`. Unit
//!   propagation then enforces arc consistency on the relation.
//! - `equivalence`: for a sum relation `a + b = t`, `x(a,i) <-> x(b,t-i)`
//!   (two binary clauses per `i`, a unit `¬x(a,i)` when `t-i` is not a digit,
//!   and likewise for `b`); other relations fall back to `support`.
//!
//! ## References
//! - I. P. Gent, "Arc Consistency in SAT", ECAI 2002.
//! - T. Walsh, "SAT v CSP", CP 2000 (direct and support encodings).

use std::cmp::Ordering;

use varisat::Lit;

use super::{ClauseSink, VarMap};
use crate::model::{Cell, Digit, Predicate, Relation};

crate::named_enum! {
    /// The relation encodings the CLI offers.
    pub enum RelationEncoding = ForbiddenPairs {
        /// One binary clause per forbidden pair of digits.
        ForbiddenPairs = "forbidden-pairs",
        /// Support clauses (Gent 2002): unit propagation is arc consistent.
        Support = "support",
        /// x(a,i) <-> x(b,t-i) for `= t` sums; support for the others.
        Equivalence = "equivalence",
    }
}

/// Emits the clauses of `relation` on an `n`-digit grid.
pub fn encode_relation(encoding: RelationEncoding, relation: &Relation, vars: &VarMap, sink: &mut dyn ClauseSink) {
    let n = vars.values() as Digit;
    let allows = |i: Digit, j: Digit| relation.predicate.allows(i, j);
    match encoding {
        RelationEncoding::ForbiddenPairs => {
            for i in 1..=n {
                for j in (1..=n).filter(|&j| !allows(i, j)) {
                    sink.add_clause(&[!vars.lit(relation.a, i), !vars.lit(relation.b, j)]);
                }
            }
        }
        RelationEncoding::Equivalence if is_sum_equal(&relation.predicate) => {
            let partner = |i: Digit| (1..=n).find(|&j| allows(i, j));
            equivalence_side(relation.a, relation.b, n, vars, partner, sink);
            let partner_b = |j: Digit| (1..=n).find(|&i| allows(i, j));
            for j in 1..=n {
                if partner_b(j).is_none() {
                    sink.add_clause(&[!vars.lit(relation.b, j)]);
                }
            }
        }
        RelationEncoding::Support | RelationEncoding::Equivalence => {
            support_side(relation.a, relation.b, n, vars, allows, sink);
            support_side(relation.b, relation.a, n, vars, |j, i| allows(i, j), sink);
        }
    }
}

fn is_sum_equal(predicate: &Predicate) -> bool {
    matches!(predicate, Predicate::Sum { cmp: Ordering::Equal, .. })
}

/// `¬x(from,i) ∨ OR x(to,j)` over the supports `j` of each `i`.
fn support_side(
    from: Cell,
    to: Cell,
    n: Digit,
    vars: &VarMap,
    allows: impl Fn(Digit, Digit) -> bool,
    sink: &mut dyn ClauseSink,
) {
    for i in 1..=n {
        let mut clause = vec![!vars.lit(from, i)];
        clause.extend((1..=n).filter(|&j| allows(i, j)).map(|j| vars.lit(to, j)));
        if clause.len() < n as usize + 1 {
            sink.add_clause(&clause);
        }
    }
}

/// `x(a,i) <-> x(b,partner(i))`, or `¬x(a,i)` when `i` has no partner.
fn equivalence_side(
    a: Cell,
    b: Cell,
    n: Digit,
    vars: &VarMap,
    partner: impl Fn(Digit) -> Option<Digit>,
    sink: &mut dyn ClauseSink,
) {
    for i in 1..=n {
        let x: Lit = vars.lit(a, i);
        match partner(i) {
            Some(j) => {
                sink.add_clause(&[!x, vars.lit(b, j)]);
                sink.add_clause(&[x, !vars.lit(b, j)]);
            }
            None => sink.add_clause(&[!x]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::named::Named;
    use varisat::{CnfFormula, Solver};

    /// On two 9-digit cells with exactly-one each, every encoding of every sum
    /// relation admits exactly the pairs the predicate allows.
    #[test]
    fn every_encoding_admits_exactly_the_allowed_pairs() {
        let vars = VarMap::new(9, 9, crate::encode::DigitEncoding::Direct);
        let (a, b) = (Cell::new(0, 0), Cell::new(0, 1));
        for &encoding in RelationEncoding::VARIANTS {
            for cmp in [Ordering::Less, Ordering::Equal, Ordering::Greater] {
                for target in [2, 7, 10, 17, 19] {
                    let relation = Relation { a, b, predicate: Predicate::Sum { cmp, target } };
                    let mut formula = CnfFormula::new();
                    formula.set_var_count(vars.primary_count());
                    encode_relation(encoding, &relation, &vars, &mut formula);
                    let mut solver = Solver::new();
                    solver.add_formula(&formula);
                    for (i, j) in itertools::iproduct!(1..=9, 1..=9) {
                        let mut assumptions = vec![];
                        for d in 1..=9 {
                            assumptions.push(Lit::from_var(vars.var(a, d), d == i));
                            assumptions.push(Lit::from_var(vars.var(b, d), d == j));
                        }
                        solver.assume(&assumptions);
                        let expected = relation.predicate.allows(i, j);
                        assert_eq!(solver.solve().unwrap(), expected, "{encoding:?} {cmp:?} {target} ({i},{j})");
                    }
                }
            }
        }
    }

    /// Sizes for `a + b = 10` on 9 digits, counted by hand: every digit has
    /// exactly one partner.
    #[test]
    fn sizes_for_sum_equal_ten() {
        let vars = VarMap::new(9, 9, crate::encode::DigitEncoding::Direct);
        let relation = Relation {
            a: Cell::new(0, 0),
            b: Cell::new(0, 1),
            predicate: Predicate::Sum { cmp: Ordering::Equal, target: 10 },
        };
        let mut formula = CnfFormula::new();
        encode_relation(RelationEncoding::Support, &relation, &vars, &mut formula);
        // Each of the 9 digits of each cell has exactly one support: 18 clauses.
        assert_eq!(formula.len(), 18);
        let mut formula = CnfFormula::new();
        encode_relation(RelationEncoding::Equivalence, &relation, &vars, &mut formula);
        // 9 equivalences, two clauses each; every digit has a partner.
        assert_eq!(formula.len(), 18);
        let mut formula = CnfFormula::new();
        encode_relation(RelationEncoding::ForbiddenPairs, &relation, &vars, &mut formula);
        assert_eq!(formula.len(), 81 - 9);
    }
}
