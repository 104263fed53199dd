//! The pairwise (binomial) at-most-one encoding: `¬a ∨ ¬b` for every pair.
//!
//! Size for `n` literals: `n(n-1)/2` binary clauses, no auxiliary variables.
//!
//! ## References
//! - S. D. Prestwich, "CNF Encodings", Handbook of Satisfiability, 2009 (ch. 2).

use varisat::Lit;

use super::AtMostOne;
use crate::encode::ClauseSink;

/// The encoding (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct Pairwise;

impl Pairwise {
    /// Auxiliary variables and clauses it adds for `n` literals.
    pub fn size(n: usize) -> (usize, usize) {
        (0, n * n.saturating_sub(1) / 2)
    }
}

impl AtMostOne for Pairwise {
    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink) {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                sink.add_clause(&[!a, !b]);
            }
        }
    }
}
