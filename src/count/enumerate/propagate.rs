//! Unit propagation: the formula compiled for it ([`Clauses`]: implication
//! lists for binary clauses, watched literals with blockers for the rest)
//! and the [`Propagator`] that runs it on an [`Assignment`]. The engine
//! searches on a propagator; `compare` uses one alone to measure what
//! propagation fixes.

use varisat::{Lit, Var};

use super::assignment::{Assignment, Reason, UNSET};
use super::branch::Branches;
use super::learn::Learnt;
use super::supports::{cell_of, derive_supports};
use super::watch::{header, Watch};
use crate::count::csr::{starts_of, Csr};
use crate::encode::{Encoded, VarMap};
use crate::model::{Cell, Digit};

/// Which clauses propagation runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// The formula exactly as encoded (and exported).
    AsEncoded,
    /// The formula plus the support clauses derived from binary conflicts:
    /// what the enum engine searches on.
    WithSupports,
}

/// A formula compiled for unit propagation and an assignment to propagate
/// on, propagated at level 0 when built.
#[derive(Clone)]
pub struct Propagator {
    pub(super) clauses: Clauses,
    pub(super) state: Assignment,
    /// Propagation at level 0 found a conflict: there is no model.
    pub(super) unsat: bool,
    /// Support clauses added by [`derive_supports`].
    pub(super) derived: u64,
}

impl Propagator {
    /// Compiles `encoded` (strengthened as `strength` says) and propagates
    /// its unit clauses.
    pub fn new(encoded: &Encoded, strength: Strength) -> Propagator {
        Propagator::with_branches(encoded, strength, Branches::none(encoded.formula.var_count()))
    }

    /// [`Propagator::new`] keeping the weights of `branches` in step.
    pub(super) fn with_branches(encoded: &Encoded, strength: Strength, branches: Branches) -> Propagator {
        let var_count = encoded.formula.var_count();
        // Room for the derived support clauses too, which add up to a third
        // to the forbidden-pairs encoding's literals. Each clause goes after
        // a header holding its length ([`Clauses::span`]), so that a watch
        // names the clause by where its literals start and propagation
        // reads the length beside them.
        let mut lits = Vec::with_capacity(encoded.literal_count() * 3 / 2);
        let mut clauses = Vec::with_capacity(encoded.formula.len());
        let mut units = Vec::new();
        let mut unsat = false;
        // Binary clauses `a ∨ b` propagate from lists of implied literals:
        // `¬a` implies `b`, `¬b` implies `a`. The watches take the others.
        let mut binaries = Vec::with_capacity(encoded.formula.len());
        for clause in encoded.formula.iter() {
            if let &[a, b] = clause {
                if a.var() != b.var() {
                    binaries.push((a, b));
                    continue;
                } // else x ∨ x or x ∨ ¬x, dealt with below
            }
            let at = lits.len();
            lits.push(header(0));
            let start = lits.len();
            lits.extend_from_slice(clause);
            let len = sort_and_dedup(&mut lits[start..]);
            let added = &lits[start..start + len];
            let tautology = added.windows(2).any(|w| w[0].var() == w[1].var());
            let first = added.first().copied();
            match (len, first) {
                _ if tautology => {} // x and ¬x: always true
                (0, _) => unsat = true,
                (1, Some(unit)) => units.push(unit),
                (2, _) => binaries.push((lits[start], lits[start + 1])),
                _ => {
                    lits[at] = header(len);
                    clauses.push((start as u32, len as u32));
                }
            }
            // Only clauses of three or more literals stay in the arena.
            lits.truncate(if tautology || len < 3 { at } else { start + len });
        }
        // A pair of cells in one row and one box has its clauses twice; once is enough.
        let implications = || binaries.iter().flat_map(|&(a, b)| [((!a).code(), b), ((!b).code(), a)]);
        let mut implied = Csr::new(2 * var_count, implications);
        implied.dedup(2 * var_count, Lit::code);
        let before = clauses.len();
        if strength == Strength::WithSupports {
            derive_supports(&mut lits, &mut clauses, &mut units, &cell_of(encoded), &implied);
        }
        let derived = (clauses.len() - before) as u64;
        // "At least one of a branch set" is propagated from the set's weight
        // (`Clauses::propagate`), so those clauses need no watches.
        if !branches.weights().is_empty() {
            clauses.retain(|&(start, len)| !branches.is_set_clause(&lits[start as usize..(start + len) as usize]));
        }
        let watches = Watches::new(2 * var_count, &lits, &clauses);
        let mut propagator = Propagator {
            clauses: Clauses { implied, lits, watches, learnt: Learnt::new(2 * var_count) },
            state: Assignment {
                values: vec![UNSET; var_count],
                lit_values: vec![UNSET; 2 * var_count],
                trail: Vec::new(),
                branches,
                levels: vec![0; var_count],
                reasons: vec![Reason::Decision; var_count],
                phases: vec![1; var_count],
                level: 0,
                conflict: (Reason::Decision, Lit::from_index(0, true)),
            },
            unsat,
            derived,
        };
        for unit in units {
            if !propagator.assign(unit) {
                propagator.unsat = true;
            }
        }
        if !propagator.unsat && !propagator.propagate_from(0) {
            propagator.unsat = true;
        }
        propagator
    }

    /// Whether propagation at level 0 found a conflict.
    pub fn is_unsat(&self) -> bool {
        self.unsat
    }

    /// A variable's value, `None` while open.
    pub fn var_value(&self, var: Var) -> Option<bool> {
        self.state.var_value(var)
    }

    /// Support clauses derived before propagating (0 [`Strength::AsEncoded`]).
    pub fn derived_clauses(&self) -> u64 {
        self.derived
    }

    /// Cells whose digit propagation fixed at level 0, givens included;
    /// `None` if propagation alone finds a conflict.
    pub fn cells_fixed(&self, vars: &VarMap) -> Option<usize> {
        if self.unsat {
            return None;
        }
        let (n, values) = (vars.side(), vars.values());
        let value = |v: Var| self.state.var_value(v);
        let cells = itertools::iproduct!(0..n, 0..n).map(|(r, c)| Cell::new(r, c));
        Some(cells.filter(|&cell| (1..=values as Digit).any(|d| vars.holds(cell, d, value) == Some(true))).count())
    }

    pub(super) fn value(&self, lit: Lit) -> u8 {
        self.state.value(lit)
    }

    /// Sets `lit` true; false if it is already false.
    pub(super) fn assign(&mut self, lit: Lit) -> bool {
        self.state.assign(lit)
    }

    /// Unit propagation of the trail from position `head`; false on conflict.
    pub(super) fn propagate_from(&mut self, head: usize) -> bool {
        self.clauses.propagate(&mut self.state, head)
    }

    pub(super) fn undo_to(&mut self, len: usize) {
        self.state.undo_to(len);
    }

    pub(super) fn trail_len(&self) -> usize {
        self.state.trail.len()
    }
}

/// The formula as propagation reads it. Kept apart from the [`Assignment`],
/// so that propagation borrows the two separately and the compiler keeps
/// each array's address in a register instead of reloading it after every
/// write.
#[derive(Clone)]
pub(super) struct Clauses {
    /// For each literal code, the literals binary clauses make true with it.
    implied: Csr<Lit>,
    /// Every other clause of two or more literals (those of three or more
    /// in the formula, and the derived ones), one after another, each after
    /// a header whose code is its length ([`Clauses::span`]); the first two
    /// literals of each are its watches.
    lits: Vec<Lit>,
    /// The clauses watching each literal (looked at when it becomes false).
    watches: Watches,
    /// The clauses learnt from conflicts, with their own watches.
    pub(super) learnt: Learnt,
}

impl Clauses {
    /// The literals of the clause behind `reason`, which implies `lit`
    /// (for [`Reason::Binary`], the clause is `¬p ∨ lit`).
    pub(super) fn clause_of<'c>(
        &'c self,
        branches: &'c Branches,
        reason: Reason,
        lit: Lit,
        binary: &'c mut [Lit; 2],
    ) -> &'c [Lit] {
        match reason {
            Reason::Decision | Reason::Unit => &[],
            Reason::Binary(p) => {
                *binary = [!p, lit];
                &binary[..]
            }
            Reason::Clause(c) => {
                let (start, end) = Clauses::span(&self.lits, c);
                &self.lits[start..end]
            }
            Reason::Set(set) => branches.set(set as usize),
            Reason::Learnt(c) => self.learnt.clause(c),
        }
    }

    /// Where the clause whose literals start at `c` in `lits` starts and
    /// ends (its header, just before, holds its length).
    #[inline]
    fn span(lits: &[Lit], c: u32) -> (usize, usize) {
        let start = c as usize;
        (start, start + lits[start - 1].code())
    }

    /// Unit propagation of `state`'s trail from position `head`; false on
    /// conflict, with the conflict in `state.conflict`.
    pub(super) fn propagate(&mut self, state: &mut Assignment, head: usize) -> bool {
        let ok = self.propagate_all(state, head);
        if !ok {
            state.branches.pending.clear();
        }
        ok
    }

    /// [`Clauses::propagate`], leaving the pending branch sets after a conflict.
    fn propagate_all(&mut self, state: &mut Assignment, mut head: usize) -> bool {
        let Clauses { implied, lits, watches, learnt } = self;
        loop {
            // A branch set with one open literal left makes it true; with
            // none, it is a conflict (its clause "at least one" is not watched).
            if let Some(set) = state.branches.pending.pop() {
                match state.branches.weight_of(set) {
                    0 => {
                        state.conflict = (Reason::Set(set), state.branches.set(set as usize)[0]);
                        return false;
                    }
                    1 => {
                        let lits = state.branches.set(set as usize);
                        let open = lits.iter().copied().find(|&l| state.value(l) != 0).expect("one literal is open");
                        state.assign_by(open, Reason::Set(set));
                    }
                    _ => {}
                }
                continue;
            }
            if head >= state.trail.len() {
                break;
            }
            let made_true = state.trail[head];
            let falsified = !made_true;
            head += 1;
            for i in implied.range(made_true.code()) {
                // Most implied literals are false already; look before assigning.
                let lit = implied.items[i];
                match state.value(lit) {
                    1 => {}
                    0 => {
                        state.conflict = (Reason::Binary(made_true), lit);
                        return false;
                    }
                    _ => {
                        state.assign_by(lit, Reason::Binary(made_true));
                    }
                }
            }
            // The falsified literal's watches are at `i..end` of the array;
            // a watch that moves is replaced by the last, and `end` shrinks.
            let watching = falsified.code();
            let (mut i, mut end) = watches.region(watching);
            while i < end {
                let Watch { clause: c, blocker } = watches.list[i];
                // A true blocker satisfies the clause without reading it.
                if state.value(blocker) == 1 {
                    i += 1;
                    continue;
                }
                let (from, to) = Clauses::span(lits, c);
                let clause = &mut lits[from..to];
                if clause[0] == falsified {
                    clause.swap(0, 1);
                }
                let other = clause[0];
                if state.value(other) == 1 {
                    watches.list[i].blocker = other;
                    i += 1;
                    continue;
                }
                let mut moved = false;
                for k in 2..clause.len() {
                    if state.value(clause[k]) != 0 {
                        clause.swap(1, k);
                        let new_watch = clause[1];
                        watches.push(new_watch.code(), Watch { clause: c, blocker: other });
                        end -= 1;
                        watches.list[i] = watches.list[end];
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                i += 1;
                if !state.assign_by(other, Reason::Clause(c)) {
                    watches.set_end(watching, end);
                    state.conflict = (Reason::Clause(c), other);
                    return false;
                }
            }
            watches.set_end(watching, end);
            // Most searches learn nothing: then not even a look.
            if learnt.alive > 0 && !learnt.propagate(state, falsified) {
                return false;
            }
        }
        true
    }
}

/// The watch lists: for each literal code, the clauses that watch it, in
/// one array. A clause is in a literal's list only if it holds the literal,
/// once, so each literal gets a fixed region as long as the number of
/// clauses that hold it, and a watch moves without allocating.
#[derive(Clone)]
struct Watches {
    /// Where each literal's region starts; it ends where the next starts.
    starts: Vec<u32>,
    /// How much of each region is in use.
    lens: Vec<u32>,
    list: Vec<Watch>,
}

impl Watches {
    /// Each clause (start and length in `lits`, at least two distinct
    /// literals) watching its first two literals, named by its start.
    fn new(codes: usize, lits: &[Lit], clauses: &[(u32, u32)]) -> Watches {
        let held = clauses.iter().flat_map(|&(start, len)| &lits[start as usize..(start + len) as usize]);
        let starts = starts_of(codes, held.map(|lit| lit.code()));
        let none = Watch { clause: 0, blocker: Lit::from_index(0, true) };
        let mut watches = Watches { list: vec![none; starts[codes] as usize], starts, lens: vec![0; codes] };
        for &(start, _) in clauses {
            let (a, b) = (lits[start as usize], lits[start as usize + 1]);
            watches.push(a.code(), Watch { clause: start, blocker: b });
            watches.push(b.code(), Watch { clause: start, blocker: a });
        }
        watches
    }

    /// Where `code`'s watches are in `list`.
    fn region(&self, code: usize) -> (usize, usize) {
        let start = self.starts[code] as usize;
        (start, start + self.lens[code] as usize)
    }

    /// Keeps `code`'s watches up to `end` in `list`.
    fn set_end(&mut self, code: usize, end: usize) {
        self.lens[code] = (end - self.starts[code] as usize) as u32;
    }

    fn push(&mut self, code: usize, watch: Watch) {
        let at = self.starts[code] + self.lens[code];
        debug_assert!(at < self.starts[code + 1], "a clause watches a literal it does not hold, or twice");
        self.list[at as usize] = watch;
        self.lens[code] += 1;
    }
}

/// Sorts `lits` by code and moves the distinct ones to the front; their count.
fn sort_and_dedup(lits: &mut [Lit]) -> usize {
    lits.sort_unstable_by_key(|l| l.code());
    let mut len = 0;
    for i in 0..lits.len() {
        if len == 0 || lits[i] != lits[len - 1] {
            lits[len] = lits[i];
            len += 1;
        }
    }
    len
}
