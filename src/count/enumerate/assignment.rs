//! The part of the search state that changes as the engine assigns and
//! backtracks: each variable's and literal's value, the trail, the branch
//! weights, and why and at which level each variable was assigned (for
//! conflict analysis, `learn.rs`), kept in step.

use varisat::{Lit, Var};

use super::branch::Branches;

/// The value of an unassigned variable or literal (0 is false, 1 true).
pub(super) const UNSET: u8 = 2;

/// Why a literal is true: the clause that implied it, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reason {
    /// A decision, a literal of the cube, a unit of the formula, or a
    /// leaf's completion: nothing implied it.
    Decision,
    /// Implied by a learnt clause of one literal: by the formula alone,
    /// whatever its level (conflict analysis leaves it out, as it leaves
    /// out level 0).
    Unit,
    /// The binary clause `¬p ∨ l`, with `p` the literal held here (true).
    Binary(Lit),
    /// A clause of the formula or a derived support (where its literals
    /// start in `Clauses`'s arena).
    Clause(u32),
    /// A branch set whose other literals are false (see `Branches`).
    Set(u32),
    /// A learnt clause (its index in `Learnt`).
    Learnt(u32),
}

/// What changes as the search assigns and backtracks: the values, the trail,
/// the branch weights and each variable's level and reason, kept in step.
#[derive(Clone)]
pub(super) struct Assignment {
    /// Each variable's value: 0 false, 1 true, UNSET.
    pub(super) values: Vec<u8>,
    /// Each literal's value, by code, the same way: propagation reads a
    /// literal's value with one load, no sign to apply.
    pub(super) lit_values: Vec<u8>,
    pub(super) trail: Vec<Lit>,
    /// The sets of exclusive options [`super::Enumerate`] branches on.
    pub(super) branches: Branches,
    /// Per variable, while it is assigned: the decision level it was
    /// assigned at, and why. Levels never fall along the trail: 0 is what
    /// the formula implies alone, then one level per literal of the cube
    /// and one per frame of the search.
    pub(super) levels: Vec<u32>,
    pub(super) reasons: Vec<Reason>,
    /// Per variable, the value it had when last unassigned (phase saving).
    pub(super) phases: Vec<u8>,
    /// The level new assignments get (the engine sets it).
    pub(super) level: u32,
    /// After propagation fails: a clause whose literals are all false, as
    /// the reason that would imply the second (false) literal; see
    /// `Enumerate::clause_of`.
    pub(super) conflict: (Reason, Lit),
}

impl Assignment {
    /// A variable's value, `None` while unset.
    pub(super) fn var_value(&self, var: Var) -> Option<bool> {
        match self.values[var.index()] {
            UNSET => None,
            x => Some(x == 1),
        }
    }

    pub(super) fn value(&self, lit: Lit) -> u8 {
        self.lit_values[lit.code()]
    }

    /// Sets `lit` true as a decision; false if it is already false.
    pub(super) fn assign(&mut self, lit: Lit) -> bool {
        self.assign_by(lit, Reason::Decision)
    }

    /// Sets `lit` true, implied by `reason`; false if it is already false.
    #[inline]
    pub(super) fn assign_by(&mut self, lit: Lit, reason: Reason) -> bool {
        match self.value(lit) {
            1 => true,
            0 => false,
            _ => {
                self.values[lit.index()] = u8::from(lit.is_positive());
                self.levels[lit.index()] = self.level;
                self.reasons[lit.index()] = reason;
                self.lit_values[lit.code()] = 1;
                self.lit_values[(!lit).code()] = 0;
                self.trail.push(lit);
                self.branches.became_true(lit);
                true
            }
        }
    }

    /// A copy of the values, trail and branch weights, to go back to at once
    /// with [`Assignment::restore`].
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            values: self.values.clone(),
            lit_values: self.lit_values.clone(),
            trail: self.trail.clone(),
            weights: self.branches.weights().to_vec(),
        }
    }

    /// Back to `snapshot`, taken of this assignment with a trail that is
    /// a start of the current one: what [`Assignment::undo_to`] its length
    /// does, by copying a few kilobytes instead of reopening each variable.
    pub(super) fn restore(&mut self, snapshot: &Snapshot) {
        self.values.copy_from_slice(&snapshot.values);
        self.lit_values.copy_from_slice(&snapshot.lit_values);
        self.trail.truncate(snapshot.trail.len());
        debug_assert_eq!(self.trail, snapshot.trail, "the snapshot is not of an earlier point of this search");
        self.branches.set_weights(&snapshot.weights);
        self.branches.pending.clear();
        // The sets' activities, computed afresh for the values restored.
        let scoring = self.branches.scoring();
        self.branches.score(scoring, &self.lit_values);
    }

    pub(super) fn undo_to(&mut self, len: usize) {
        self.branches.pending.clear();
        // Read once, outside the loop: a check per literal inside
        // `reopened` made searches that do not learn 4% slower.
        let scoring = self.branches.scoring();
        for lit in self.trail.drain(len..) {
            self.phases[lit.index()] = self.values[lit.index()];
            self.values[lit.index()] = UNSET;
            self.lit_values[lit.code()] = UNSET;
            self.lit_values[(!lit).code()] = UNSET;
            if scoring {
                self.branches.reopened_scoring(lit);
            } else {
                self.branches.reopened(lit);
            }
        }
    }
}

/// An [`Assignment`] as it was (see [`Assignment::snapshot`]).
#[derive(Clone)]
pub(super) struct Snapshot {
    values: Vec<u8>,
    lit_values: Vec<u8>,
    trail: Vec<Lit>,
    weights: Vec<u16>,
}
