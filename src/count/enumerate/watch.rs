//! A watch: what the watch lists of the formula's clauses (`propagate.rs`)
//! and of the learnt ones (`learn.rs`) hold, and the header a formula's
//! clause keeps its length in.

use varisat::Lit;

/// A clause watching a literal, and another literal of the clause (its other
/// watch when the watch was set, or the last one found true there): while
/// that one is true, the clause is satisfied.
#[derive(Clone, Copy)]
pub(super) struct Watch {
    /// The clause: where its literals start in the formula's arena
    /// (`propagate.rs`), its index among the learnt ones (`learn.rs`).
    pub(super) clause: u32,
    pub(super) blocker: Lit,
}

/// The header before a clause's literals in the formula's arena
/// (`propagate.rs`): its length, 0 until known. A watch names such a clause
/// by where its literals start, and the length is read just before them.
pub(super) fn header(len: usize) -> Lit {
    Lit::from_code(len)
}
