//! At-most-one encodings: each writes "at most one of these literals is true"
//! into a [`ClauseSink`], one encoding per file.

mod pairwise;

pub use pairwise::Pairwise;

use super::ClauseSink;
use varisat::Lit;

/// An at-most-one encoding.
pub trait AtMostOne {
    /// Emits clauses (and auxiliary variables, if any) that allow at most one of
    /// `lits` to be true, and forbid nothing else on `lits`.
    fn encode(&self, lits: &[Lit], sink: &mut dyn ClauseSink);
}

/// The at-most-one encodings the CLI offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum AmoEncoding {
    /// One binary clause per pair: n(n-1)/2 clauses, no auxiliary variables.
    #[default]
    Pairwise,
}

impl AmoEncoding {
    pub fn encoder(self) -> &'static dyn AtMostOne {
        match self {
            AmoEncoding::Pairwise => &Pairwise,
        }
    }
}

/// The default at-most-one encoding.
pub type Def = Pairwise;
