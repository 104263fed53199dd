//! A watch: what the watch lists of the formula's clauses (`propagate.rs`)
//! and of the learnt ones (`learn.rs`) hold.

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
