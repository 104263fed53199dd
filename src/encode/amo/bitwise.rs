//! The bitwise (binary) at-most-one encoding (Frisch et al. 2005; Prestwich):
//! `m = ceil(log2 n)` auxiliary bits spell the index of the true literal, so
//! two true literals would need two different spellings.
//!
//! Clauses: for each literal `x_i` (0-based) and bit `j`: `¬x_i ∨ b_j` if bit
//! `j` of `i` is 1, else `¬x_i ∨ ¬b_j`.
//!
//! Size for `n >= 2` literals: `m` auxiliary variables, `n * m` clauses. The
//! bits are free when no literal is true: only a count projected on the
//! primary variables is right.
//!
//! ## References
//! - A. M. Frisch, T. J. Peugniez, A. J. Doggett, P. W. Nightingale, "Solving
//!   Non-Boolean Satisfiability Problems with Stochastic Local Search", JAR 2005.
//! - S. D. Prestwich, "CNF Encodings", Handbook of Satisfiability, 2009.

use varisat::Lit;

use super::AtMostOne;
use crate::encode::ClauseSink;

/// The encoding (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct Bitwise;

/// `ceil(log2 n)` for `n >= 1`.
pub(crate) fn bits_for(n: usize) -> usize {
    (usize::BITS - (n.max(1) - 1).leading_zeros()) as usize
}

/// Emits `¬lit ∨ (bits spell index)` for every bit.
pub(super) fn spell(sink: &mut dyn ClauseSink, lit: Lit, index: usize, bits: &[Lit]) {
    for (j, &b) in bits.iter().enumerate() {
        let bit = if index >> j & 1 == 1 { b } else { !b };
        sink.add_clause(&[!lit, bit]);
    }
}

impl Bitwise {
    /// Auxiliary variables and clauses it adds for `n` literals.
    pub fn size(n: usize) -> (usize, usize) {
        if n < 2 {
            (0, 0)
        } else {
            (bits_for(n), n * bits_for(n))
        }
    }
}

impl AtMostOne for Bitwise {
    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink) {
        let n = lits.len();
        if n < 2 {
            return;
        }
        let bits: Vec<Lit> = (0..bits_for(n)).map(|_| sink.new_var().positive()).collect();
        for (i, &lit) in lits.iter().enumerate() {
            spell(sink, lit, i, &bits);
        }
    }
}
