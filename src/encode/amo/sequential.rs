//! The sequential counter at-most-one encoding (Sinz 2005): auxiliary `s_i`
//! means "one of `x_1..x_i` is true".
//!
//! Clauses for `i` in 1..n (1-based): `¬x_1 ∨ s_1`; for 1 < i < n:
//! `¬x_i ∨ s_i`, `¬s_{i-1} ∨ s_i`, `¬x_i ∨ ¬s_{i-1}`; and `¬x_n ∨ ¬s_{n-1}`.
//!
//! Size for `n >= 2` literals: `n - 1` auxiliary variables, `3n - 4` clauses
//! (none for `n < 2`).
//!
//! ## References
//! - C. Sinz, "Towards an Optimal CNF Encoding of Boolean Cardinality
//!   Constraints", CP 2005.

use varisat::Lit;

use super::AtMostOne;
use crate::encode::ClauseSink;

/// The encoding (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sequential;

impl Sequential {
    /// Auxiliary variables and clauses it adds for `n` literals.
    pub fn size(n: usize) -> (usize, usize) {
        if n < 2 {
            (0, 0)
        } else {
            (n - 1, 3 * n - 4)
        }
    }
}

impl AtMostOne for Sequential {
    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink) {
        let n = lits.len();
        if n < 2 {
            return;
        }
        let s: Vec<Lit> = (0..n - 1).map(|_| sink.new_var().positive()).collect();
        sink.add_clause(&[!lits[0], s[0]]);
        for i in 1..n - 1 {
            sink.add_clause(&[!lits[i], s[i]]);
            sink.add_clause(&[!s[i - 1], s[i]]);
            sink.add_clause(&[!lits[i], !s[i - 1]]);
        }
        sink.add_clause(&[!lits[n - 1], !s[n - 2]]);
    }
}
