//! The ladder (regular) at-most-one encoding (Gent & Nightingale 2004; Ansótegui
//! & Manyà 2004): auxiliary `y_i` is *equivalent* to "one of `x_1..x_i` is
//! true", so the ladder `y_1 -> y_2 -> ...` is fully determined by the `x`.
//!
//! Clauses for 1 <= i < n (1-based): `¬x_i ∨ y_i`, `¬y_i ∨ y_{i-1} ∨ x_i`
//! (`¬y_1 ∨ x_1` for i = 1); for 1 < i < n: `¬y_{i-1} ∨ y_i`; for 1 < i <= n:
//! `¬x_i ∨ ¬y_{i-1}`.
//!
//! Size for `n >= 2` literals: `n - 1` auxiliary variables, `4n - 5` clauses
//! (none for `n < 2`).
//!
//! ## References
//! - I. P. Gent, P. Nightingale, "A New Encoding of AllDifferent into SAT",
//!   Modelling and Reformulating CSPs workshop, 2004.
//! - C. Ansótegui, F. Manyà, "Mapping Problems with Finite-Domain Variables
//!   into Problems with Boolean Variables", SAT 2004 (the regular encoding).

use varisat::Lit;

use super::AtMostOne;
use crate::encode::ClauseSink;

/// The encoding (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ladder;

impl Ladder {
    /// Auxiliary variables and clauses it adds for `n` literals.
    pub fn size(n: usize) -> (usize, usize) {
        if n < 2 {
            (0, 0)
        } else {
            (n - 1, 4 * n - 5)
        }
    }
}

impl AtMostOne for Ladder {
    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink) {
        let n = lits.len();
        if n < 2 {
            return;
        }
        let y: Vec<Lit> = (0..n - 1).map(|_| sink.new_var().positive()).collect();
        for i in 0..n - 1 {
            sink.add_clause(&[!lits[i], y[i]]);
            if i == 0 {
                sink.add_clause(&[!y[0], lits[0]]);
            } else {
                sink.add_clause(&[!y[i], y[i - 1], lits[i]]);
                sink.add_clause(&[!y[i - 1], y[i]]);
            }
        }
        for i in 1..n {
            sink.add_clause(&[!lits[i], !y[i - 1]]);
        }
    }
}
