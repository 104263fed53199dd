//! The product at-most-one encoding (Chen 2010): place the `n` literals on a
//! `p x q` grid (`p = ceil(sqrt n)`, `q = ceil(n/p)`), give each row and each
//! column a variable implied by its literals, and require at most one row and
//! at most one column, recursively, down to [`BASE`] literals, which are
//! encoded pairwise. Two true literals would need two rows or two columns.
//!
//! Size: for `n <= BASE`, `C(n,2)` clauses and no auxiliary variable;
//! otherwise `p + q` auxiliary variables and `2n` clauses plus the sizes of
//! the encodings of `p` and of `q` literals ([`Product::size`]).
//!
//! ## References
//! - J. Chen, "A New SAT Encoding of the At-Most-One Constraint", ModRef 2010.

use varisat::Lit;

use super::{AtMostOne, Pairwise};
use crate::encode::ClauseSink;

/// Below this many literals the pairwise encoding is used.
pub const BASE: usize = 4;

/// The encoding (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct Product;

impl Product {
    fn shape(n: usize) -> (usize, usize) {
        let mut p = 1;
        while p * p < n {
            p += 1;
        }
        (p, n.div_ceil(p))
    }

    /// Auxiliary variables and clauses it adds for `n` literals.
    pub fn size(n: usize) -> (usize, usize) {
        if n <= BASE {
            return (0, n * n.saturating_sub(1) / 2);
        }
        let (p, q) = Self::shape(n);
        let (ap, cp) = Self::size(p);
        let (aq, cq) = Self::size(q);
        (p + q + ap + aq, 2 * n + cp + cq)
    }
}

impl AtMostOne for Product {
    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink) {
        let n = lits.len();
        if n <= BASE {
            return Pairwise.encode(lits, sink);
        }
        let (p, q) = Self::shape(n);
        let rows: Vec<Lit> = (0..p).map(|_| sink.new_var().positive()).collect();
        let cols: Vec<Lit> = (0..q).map(|_| sink.new_var().positive()).collect();
        for (i, &x) in lits.iter().enumerate() {
            sink.add_clause(&[!x, rows[i / q]]);
            sink.add_clause(&[!x, cols[i % q]]);
        }
        self.encode(&rows, sink);
        self.encode(&cols, sink);
    }
}
