//! At-most-one encodings: each writes "at most one of these literals is true"
//! into a [`ClauseSink`], one encoding per file, each with its size formula
//! (`size(n) -> (auxiliary variables, clauses)`) asserted in tests.

mod bimander;
mod bitwise;
mod commander;
mod ladder;
mod pairwise;
mod product;
mod sequential;

pub use bimander::Bimander;
pub(crate) use bitwise::bits_for;
pub use bitwise::Bitwise;
pub use commander::Commander;
pub use ladder::Ladder;
pub use pairwise::Pairwise;
pub use product::Product;
pub use sequential::Sequential;

use super::ClauseSink;
use varisat::Lit;

/// An at-most-one encoding.
pub trait AtMostOne {
    /// Emits clauses (and auxiliary variables, if any) that allow at most one
    /// entry of `lits` to be true (a literal listed twice counts twice), and
    /// forbid nothing else on the variables of `lits`.
    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink);
}

crate::named_enum! {
    /// The at-most-one encodings the CLI offers.
    pub enum AmoEncoding = Pairwise {
        /// One binary clause per pair: n(n-1)/2 clauses, no auxiliary variables.
        Pairwise = "pairwise",
        /// Sequential counter (Sinz 2005): n-1 auxiliary variables, 3n-4 clauses.
        Sequential = "sequential",
        /// Ladder / regular encoding: n-1 auxiliary variables, 4n-5 clauses.
        Ladder = "ladder",
        /// Commander (Klieber & Kwon 2007), groups of 3, recursive.
        Commander = "commander",
        /// Product (Chen 2010), recursive on a sqrt(n) x sqrt(n) grid.
        Product = "product",
        /// Bitwise / binary (Frisch et al.): ceil(log2 n) bits, n*ceil(log2 n) clauses.
        Bitwise = "bitwise",
        /// Bimander (Nguyen & Mai 2015): pairwise in groups of 2, bitwise between groups.
        Bimander = "bimander",
    }
}

impl AmoEncoding {
    /// The encoder of this encoding.
    pub fn encoder(self) -> &'static dyn AtMostOne {
        match self {
            AmoEncoding::Pairwise => &Pairwise,
            AmoEncoding::Sequential => &Sequential,
            AmoEncoding::Ladder => &Ladder,
            AmoEncoding::Commander => &Commander,
            AmoEncoding::Product => &Product,
            AmoEncoding::Bitwise => &Bitwise,
            AmoEncoding::Bimander => &Bimander,
        }
    }

    /// Auxiliary variables and clauses for `n` literals, by the documented formula.
    pub fn size(self, n: usize) -> (usize, usize) {
        match self {
            AmoEncoding::Pairwise => Pairwise::size(n),
            AmoEncoding::Sequential => Sequential::size(n),
            AmoEncoding::Ladder => Ladder::size(n),
            AmoEncoding::Commander => Commander::size(n),
            AmoEncoding::Product => Product::size(n),
            AmoEncoding::Bitwise => Bitwise::size(n),
            AmoEncoding::Bimander => Bimander::size(n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::named::Named;
    use varisat::{CnfFormula, ExtendFormula, Solver, Var};

    /// Every encoding, on every list of up to 7 entries drawn from 4 variables
    /// with either polarity (so duplicates and complementary pairs occur), under
    /// every assignment of the 4 variables: satisfiable exactly when at most one
    /// entry is true; and the emitted size equals the documented formula.
    #[test]
    fn every_encoding_is_exactly_at_most_one() {
        let mut lists: Vec<Vec<Lit>> = Vec::new();
        let mut seed = 0x5eed_u64;
        for len in 0..=7 {
            for _ in 0..40 {
                let list = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        Lit::from_index((seed % 4) as usize, seed >> 8 & 1 == 1)
                    })
                    .collect();
                lists.push(list);
            }
        }
        for &encoding in AmoEncoding::VARIANTS {
            for lits in &lists {
                let mut formula = CnfFormula::new();
                formula.set_var_count(4);
                encoding.encoder().encode(lits, &mut formula);
                let aux = formula.var_count() - 4;
                assert_eq!((aux, formula.len()), encoding.size(lits.len()), "{encoding:?} on {} literals", lits.len());
                let mut solver = Solver::new();
                solver.add_formula(&formula);
                for bits in 0..16usize {
                    let assignment: Vec<Lit> =
                        (0..4).map(|v| Lit::from_var(Var::from_index(v), bits >> v & 1 == 1)).collect();
                    let true_entries = lits.iter().filter(|l| assignment[l.index()] == **l).count();
                    solver.assume(&assignment);
                    assert_eq!(solver.solve().unwrap(), true_entries <= 1, "{encoding:?} {lits:?} under {bits:04b}");
                }
            }
        }
    }

    #[test]
    fn sizes_follow_the_formulas_for_larger_n() {
        for &encoding in AmoEncoding::VARIANTS {
            for n in [8, 9, 16, 25, 36, 64] {
                let mut formula = CnfFormula::new();
                let lits: Vec<Lit> = (0..n).map(|_| formula.new_lit()).collect();
                encoding.encoder().encode(&lits, &mut formula);
                assert_eq!((formula.var_count() - n, formula.len()), encoding.size(n), "{encoding:?} n={n}");
            }
        }
        assert_eq!(AmoEncoding::Sequential.size(9), (8, 23));
        assert_eq!(AmoEncoding::Bitwise.size(9), (4, 36));
        assert_eq!(AmoEncoding::Pairwise.size(9), (0, 36));
    }
}
