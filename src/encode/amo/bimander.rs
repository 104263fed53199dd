//! The bimander at-most-one encoding (Nguyen & Mai 2015): split the literals
//! into `m = ceil(n / 2)` groups of at most `g = ceil(n / m)`, pairwise inside
//! each group, and the bitwise encoding between groups: the literals of group
//! `i` spell `i` on `ceil(log2 m)` shared bits.
//!
//! Size for `n >= 2` literals: `ceil(log2 m)` auxiliary variables and
//! `sum over groups of C(|group|, 2) + n * ceil(log2 m)` clauses.
//!
//! ## References
//! - V.-H. Nguyen, S. T. Mai, "A New Method to Encode the At-Most-One
//!   Constraint into SAT", SoICT 2015.

use varisat::Lit;

use super::bitwise::{bits_for, spell};
use super::{AtMostOne, Pairwise};
use crate::encode::ClauseSink;

/// The encoding (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct Bimander;

impl Bimander {
    /// Group count and size for `n` literals.
    fn groups(n: usize) -> (usize, usize) {
        let m = n.div_ceil(2).max(1);
        (m, n.div_ceil(m))
    }

    /// Auxiliary variables and clauses it adds for `n` literals.
    pub fn size(n: usize) -> (usize, usize) {
        if n < 2 {
            return (0, 0);
        }
        let (m, g) = Self::groups(n);
        let pairs: usize = (0..m).map(|i| g.min(n.saturating_sub(i * g))).map(|k| k * k.saturating_sub(1) / 2).sum();
        (bits_for(m), pairs + n * bits_for(m))
    }
}

impl AtMostOne for Bimander {
    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink) {
        let n = lits.len();
        if n < 2 {
            return;
        }
        let (m, g) = Self::groups(n);
        let bits: Vec<Lit> = (0..bits_for(m)).map(|_| sink.new_var().positive()).collect();
        for (i, group) in lits.chunks(g).enumerate() {
            Pairwise.encode(group, sink);
            for &lit in group {
                spell(sink, lit, i, &bits);
            }
        }
    }
}
