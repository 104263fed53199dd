//! The commander at-most-one encoding (Klieber & Kwon 2007): split the
//! literals into groups of 3, give each group a commander `c` with
//! `c <-> (x_1 ∨ ... ∨ x_g)`, forbid two true literals inside a group
//! pairwise, and apply the encoding again to the commanders, down to at most
//! [`GROUP`] literals, which are encoded pairwise.
//!
//! Size: for `n <= 3`, `C(n,2)` clauses and no auxiliary variable; otherwise,
//! with `k = ceil(n/3)` groups, `k` commanders plus the size of the encoding of
//! `k` literals, and `sum over groups (C(g,2) + g + 1)` plus that encoding's
//! clauses. [`Commander::size`] computes it by that recurrence.
//!
//! ## References
//! - W. Klieber, G. Kwon, "Efficient CNF Encoding for Selecting 1 from N
//!   Objects", CFV 2007.

use varisat::Lit;

use super::{AtMostOne, Pairwise};
use crate::encode::ClauseSink;

/// Literals per group.
pub const GROUP: usize = 3;

/// The encoding (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct Commander;

impl Commander {
    /// Auxiliary variables and clauses it adds for `n` literals.
    pub fn size(n: usize) -> (usize, usize) {
        if n <= GROUP {
            return (0, n * n.saturating_sub(1) / 2);
        }
        let k = n.div_ceil(GROUP);
        let own: usize = (0..k).map(|i| GROUP.min(n - i * GROUP)).map(|g| g * (g - 1) / 2 + g + 1).sum();
        let (aux, clauses) = Self::size(k);
        (k + aux, own + clauses)
    }
}

impl AtMostOne for Commander {
    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink) {
        if lits.len() <= GROUP {
            return Pairwise.encode(lits, sink);
        }
        let mut commanders = Vec::with_capacity(lits.len().div_ceil(GROUP));
        for group in lits.chunks(GROUP) {
            let c = sink.new_var().positive();
            Pairwise.encode(group, sink);
            for &x in group {
                sink.add_clause(&[!x, c]);
            }
            let mut some: Vec<Lit> = group.to_vec();
            some.push(!c);
            sink.add_clause(&some);
            commanders.push(c);
        }
        self.encode(&commanders, sink);
    }
}
