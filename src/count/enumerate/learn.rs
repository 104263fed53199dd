//! Learning from conflicts: first-UIP clauses (Marques-Silva & Sakallah
//! 1999), kept with watches of their own and reduced by their literal block
//! distance (Audemard & Simon 2009); backjumping while searching for the
//! next model, and chronological backtracking after each model (Nadel &
//! Ryvchin 2018; Möhle & Biere 2019).
//!
//! A learnt clause is derived by resolution from clauses the formula
//! implies: its clauses, the derived supports, the branch sets (each is
//! exactly one of its literals in every solution) and earlier learnt
//! clauses. Literals of level 0 and those implied by learnt units are
//! resolved away, as the formula implies them too. So a learnt clause
//! holds in every model, whatever the cube and the decisions were, and
//! adding it removes no model: it only cuts branches with none.
//!
//! The search jumps back where no model was found: the frames above the
//! level of the clause's second literal are dropped, and its first literal
//! is asserted at that level, where the branch of the option taken there
//! (or the whole cube, at the cube's level) is searched again under the
//! assertion. That is allowed when no model of the cube was found since
//! the option was taken (each frame keeps the count of the cube's models
//! when it took its option) and none of the cube was given to another
//! thread: nothing in the branch can then be found twice, and what the
//! dropped frames had left is searched again.
//!
//! Where it may not, it backtracks chronologically, as after each model:
//! after a conflict under an option,
//! the learnt clause is unit at the base of the option's frame (its other
//! literals are of lower levels), and its literal is asserted there, out of
//! order, for every option the frame has left; if that conflicts too, no
//! option left in the frame has a model, and the frame is dropped the same
//! way one level up. The frames' options are still tried in turn, so no
//! model is found twice and none needs a blocking clause.
//!
//! It restarts (Luby et al. 1993) only before the cube's first model and
//! while none of the cube was given to another thread, as it jumps. Each
//! variable keeps the value it last had (phase saving, Pipatsrisawat &
//! Darwiche 2007), and a branch set is tried from the option last true, so
//! a jump or a restart finds its way back to where the search was.
//!
//! ## References
//! - J. Marques-Silva, K. Sakallah, "GRASP: A search algorithm for
//!   propositional satisfiability", IEEE Trans. Computers 1999.
//! - G. Audemard, L. Simon, "Predicting learnt clauses quality in modern SAT
//!   solvers", IJCAI 2009.
//! - A. Nadel, V. Ryvchin, "Chronological backtracking", SAT 2018.
//! - S. Möhle, A. Biere, "Backing backtracking", SAT 2019.
//! - M. Luby, A. Sinclair, D. Zuckerman, "Optimal speedup of Las Vegas
//!   algorithms", Information Processing Letters 1993.
//! - K. Pipatsrisawat, A. Darwiche, "A lightweight component caching
//!   scheme for satisfiability solvers", SAT 2007.

use varisat::Lit;

use super::assignment::{Assignment, Reason};
use super::watch::Watch;
use super::Enumerate;

/// Clauses learnt between two reductions of the learnt clauses, at first;
/// each reduction adds [`REDUCE_STEP`] to it.
const REDUCE_FIRST: u64 = 2_000;
const REDUCE_STEP: u64 = 300;

/// Learnt clauses of at most this literal block distance are kept for good.
const GLUE: u32 = 2;

/// Decisions in a window of [`Learning::judge`].
pub(super) const WINDOW: u64 = 1024;

/// Decisions in a puzzle's first window: a puzzle that needs search
/// learns from its 96th decision on, not its 1,024th, which is most of a
/// small puzzle's search (bench/results/design-notes.md).
const FIRST_WINDOW: u64 = 96;

/// Whether the engine learns: only while conflicts are frequent. When
/// the search mostly finds models (a blank grid: one conflict in ten
/// thousand decisions; counting classic puzzles with 10^5 solutions: one
/// in a hundred), a learnt clause is long, rarely meets the same branch
/// again, and its watches cost more than it saves (2x slower per model,
/// bench/results/design-notes.md); on a puzzle that needs search, half
/// the decisions conflict. Learning starts when a window of [`WINDOW`]
/// decisions (the first of a puzzle: [`FIRST_WINDOW`]) has a conflict in
/// eight of them or more, and stops, with its clauses reduced to the glue
/// ones, when it has one in thirty-two or fewer.
///
/// While it learns, the engine branches where conflicts were (VSIDS,
/// Moskewicz et al. 2001): each variable met in a conflict's analysis
/// gains activity, by an amount that grows by 1/0.95 every conflict, so
/// recent conflicts weigh most; a set's activity is its open literals'
/// (`Enumerate::choose_active`).
pub(super) struct Learning {
    pub(super) mode: Learn,
    pub(super) on: bool,
    /// The decisions at which the window ends, and the conflicts when it
    /// began.
    pub(super) until: u64,
    since: u64,
    /// The decisions in the window.
    window: u64,
    /// What the next conflict adds to the activity of the variables it
    /// meets (kept per variable by `Branches`, in integers: this rounded
    /// down).
    bump: f64,
    /// The conflicts at which the next restart is due, and the restarts
    /// so far (for the Luby sequence).
    pub(super) restart_at: u64,
    pub(super) restarts: u32,
    /// Jumps back so far (see [`Enumerate::jump_keeps`]).
    pub(super) jumps: u64,
}

/// Conflicts in a unit of the Luby sequence of restarts (Luby, Sinclair &
/// Zuckerman 1993; MiniSat has 100). With backjumping and phase saving,
/// 200 keeps the slowest corpus puzzle against varisat, #41, at 1.04x to
/// 1.16x its time; 100 left it at about 2x (bench/results/design-notes.md).
const RESTART_UNIT: u64 = 200;

/// The `i`-th term (from 0) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ...
fn luby(i: u32) -> u64 {
    let (mut size, mut seq) = (1u64, 0u32);
    while size < u64::from(i) + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    let mut i = u64::from(i);
    while size - 1 != i {
        size = (size - 1) >> 1;
        seq -= 1;
        i %= size;
    }
    1 << seq
}

/// When the engine learns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learn {
    /// While conflicts are frequent: from one in eight decisions of a window
    /// of 1,024 (a puzzle's first: 96) to one in thirty-two (the default).
    Auto,
    /// From the first conflict on, whatever the rate (for tests and
    /// measurements).
    Always,
    /// Never: the search of the engine before it learnt (for measurements).
    Never,
}

/// How fast activity fades, per conflict.
const DECAY: f64 = 0.95;

/// The first bump, and the largest before every activity is divided by
/// `2^RESCALE_SHIFT`: a variable's activity stays below `20 MOST_BUMP`
/// (the bumps' geometric sum), a set's sum of 64 of them below `2^61`.
const FIRST_BUMP: f64 = (1u64 << 16) as f64;
const MOST_BUMP: f64 = (1u64 << 50) as f64;
const RESCALE_SHIFT: u32 = 32;

impl Learning {
    pub(super) fn new() -> Learning {
        Learning {
            mode: Learn::Auto,
            on: false,
            until: FIRST_WINDOW,
            since: 0,
            window: FIRST_WINDOW,
            bump: FIRST_BUMP,
            restart_at: RESTART_UNIT,
            restarts: 0,
            jumps: 0,
        }
    }

    /// Learning as `mode` says, judged afresh from a window that starts
    /// now, after `decisions` and `conflicts`.
    pub(super) fn set_mode(&mut self, mode: Learn, decisions: u64, conflicts: u64) {
        self.mode = mode;
        self.on = mode == Learn::Always;
        (self.until, self.since, self.window) = (decisions + FIRST_WINDOW, conflicts, FIRST_WINDOW);
        (self.restart_at, self.restarts) = (conflicts + RESTART_UNIT, 0);
    }

    /// After a restart at `conflicts`: when the next is due.
    fn restarted(&mut self, conflicts: u64) {
        self.restarts += 1;
        self.restart_at = conflicts + RESTART_UNIT * luby(self.restarts);
    }

    /// What to add to the activity of the variables of this conflict, and
    /// the power of two to divide every activity by after, if any (the
    /// bumps grow by 1/[`DECAY`] a conflict and are brought down before a
    /// sum of activities could overflow).
    fn next_bump(&mut self) -> (u64, Option<u32>) {
        let amount = self.bump as u64;
        self.bump /= DECAY;
        if self.bump > MOST_BUMP {
            self.bump /= (1u64 << RESCALE_SHIFT) as f64;
            return (amount, Some(RESCALE_SHIFT));
        }
        (amount, None)
    }

    /// At the end of a window, after `decisions`: whether learning just
    /// stopped.
    fn judge(&mut self, decisions: u64, conflicts: u64) -> bool {
        let recent = conflicts - std::mem::replace(&mut self.since, conflicts);
        let window = std::mem::replace(&mut self.window, WINDOW);
        self.until = decisions + WINDOW;
        if self.mode != Learn::Auto {
            return false;
        }
        let was = self.on;
        if recent * 8 >= window {
            self.on = true;
        } else if recent * 32 <= window {
            self.on = false;
        }
        was && !self.on
    }
}

/// The clauses learnt from conflicts, each watching its first two literals.
/// A clause that implies a literal holds it first.
#[derive(Clone)]
pub(super) struct Learnt {
    /// The clauses' literals one after another, as `Clauses` keeps the
    /// formula's: a clause in a heap block of its own cost a cache miss
    /// at every visit (2x slower propagation on a puzzle that learns
    /// 45,000 clauses).
    lits: Vec<Lit>,
    /// Per clause index: where its literals are in `lits`; a deleted
    /// clause has length 0 and its index is free.
    spans: Vec<(u32, u32)>,
    /// Per clause: its literal block distance (the levels among its
    /// literals when it was learnt) and when it was learnt.
    lbd: Vec<u32>,
    born: Vec<u64>,
    free: Vec<u32>,
    /// Literals of deleted clauses still in `lits`.
    garbage: usize,
    /// Per literal code, the learnt clauses watching it.
    watches: Vec<Vec<Watch>>,
    /// The clauses not deleted.
    pub(super) alive: usize,
    learnt: u64,
    /// The clauses learnt at which the next reduction is due, and the
    /// reductions so far.
    reduce_at: u64,
    reductions: u64,
}

impl Learnt {
    pub(super) fn new(codes: usize) -> Learnt {
        Learnt {
            lits: Vec::new(),
            spans: Vec::new(),
            lbd: Vec::new(),
            born: Vec::new(),
            free: Vec::new(),
            garbage: 0,
            watches: vec![Vec::new(); codes],
            alive: 0,
            learnt: 0,
            reduce_at: REDUCE_FIRST,
            reductions: 0,
        }
    }

    /// Halves the clauses (see [`Learnt::reduce`]) when [`REDUCE_FIRST`]
    /// clauses were learnt since the last time, plus [`REDUCE_STEP`] for
    /// each reduction before.
    fn reduce_when_due(&mut self, state: &Assignment) {
        if self.learnt >= self.reduce_at {
            self.reductions += 1;
            self.reduce_at = self.learnt + REDUCE_FIRST + REDUCE_STEP * self.reductions;
            self.reduce(state, self.alive / 2);
        }
    }

    pub(super) fn clause(&self, c: u32) -> &[Lit] {
        let (start, len) = self.spans[c as usize];
        &self.lits[start as usize..(start + len) as usize]
    }

    /// Clauses learnt so far, the deleted included.
    pub(super) fn learnt(&self) -> u64 {
        self.learnt
    }

    /// Adds `lits` (two or more), watching its first two literals; its index.
    fn add(&mut self, lits: &[Lit], lbd: u32) -> u32 {
        let (a, b) = (lits[0], lits[1]);
        let span = (self.lits.len() as u32, lits.len() as u32);
        self.lits.extend_from_slice(lits);
        let c = match self.free.pop() {
            Some(c) => {
                self.spans[c as usize] = span;
                self.lbd[c as usize] = lbd;
                self.born[c as usize] = self.learnt;
                c
            }
            None => {
                self.spans.push(span);
                self.lbd.push(lbd);
                self.born.push(self.learnt);
                (self.spans.len() - 1) as u32
            }
        };
        self.watches[a.code()].push(Watch { clause: c, blocker: b });
        self.watches[b.code()].push(Watch { clause: c, blocker: a });
        self.alive += 1;
        self.learnt += 1;
        c
    }

    /// Unit propagation of the learnt clauses watching `falsified`, just
    /// made false; false on conflict, with the conflict in `state.conflict`.
    pub(super) fn propagate(&mut self, state: &mut Assignment, falsified: Lit) -> bool {
        let code = falsified.code();
        if self.watches[code].is_empty() {
            return true;
        }
        let mut list = std::mem::take(&mut self.watches[code]);
        let (mut i, mut ok) = (0, true);
        while i < list.len() {
            let Watch { clause: c, blocker } = list[i];
            if state.value(blocker) == 1 {
                i += 1;
                continue;
            }
            let (start, len) = self.spans[c as usize];
            let clause = &mut self.lits[start as usize..(start + len) as usize];
            if clause[0] == falsified {
                clause.swap(0, 1);
            }
            let other = clause[0];
            if state.value(other) == 1 {
                list[i].blocker = other;
                i += 1;
                continue;
            }
            if let Some(k) = (2..clause.len()).find(|&k| state.value(clause[k]) != 0) {
                clause.swap(1, k);
                self.watches[clause[1].code()].push(Watch { clause: c, blocker: other });
                list.swap_remove(i);
                continue;
            }
            i += 1;
            if !state.assign_by(other, Reason::Learnt(c)) {
                state.conflict = (Reason::Learnt(c), other);
                ok = false;
                break;
            }
        }
        self.watches[code] = list;
        ok
    }

    /// Deletes clauses until `keep` are left, those of the highest literal
    /// block distance first (the oldest among equals), keeping the glue
    /// clauses and every clause that implies a literal of `state`; then
    /// closes the gaps they leave, once they are half the literals.
    fn reduce(&mut self, state: &Assignment, keep: usize) {
        if self.alive <= keep {
            return;
        }
        let locked = |c: usize| {
            let first = self.lits[self.spans[c].0 as usize];
            state.value(first) == 1 && state.reasons[first.index()] == Reason::Learnt(c as u32)
        };
        let mut doomed: Vec<usize> =
            (0..self.spans.len()).filter(|&c| self.spans[c].1 > 0 && self.lbd[c] > GLUE && !locked(c)).collect();
        doomed.sort_unstable_by_key(|&c| (std::cmp::Reverse(self.lbd[c]), self.born[c]));
        doomed.truncate(self.alive.saturating_sub(keep));
        if doomed.is_empty() {
            return;
        }
        let mut deleted = vec![false; self.spans.len()];
        for &c in &doomed {
            deleted[c] = true;
            self.garbage += self.spans[c].1 as usize;
            self.spans[c] = (0, 0);
            self.free.push(c as u32);
        }
        self.alive -= doomed.len();
        for list in &mut self.watches {
            list.retain(|watch| !deleted[watch.clause as usize]);
        }
        if self.garbage * 2 > self.lits.len() {
            // Clause indices stay, so the reasons that name them do too.
            let mut lits = Vec::with_capacity(self.lits.len() - self.garbage);
            for span in &mut self.spans {
                let (start, len) = *span;
                *span = (lits.len() as u32, len);
                lits.extend_from_slice(&self.lits[start as usize..(start + len) as usize]);
            }
            (self.lits, self.garbage) = (lits, 0);
        }
    }
}

impl Enumerate<'_> {
    /// After a conflict under the top frame's option (in `state.conflict`):
    /// learns its first-UIP clause; jumps back to the level of its second
    /// literal and asserts it there when it may ([`Enumerate::jump_keeps`]),
    /// with the next branch point on top; otherwise goes back to the
    /// frame's base and asserts the clause's literal there. If the
    /// assertion conflicts too, it does the same for that conflict (the
    /// frame dropped when it was the frame's base: none of its options
    /// left has a model; see the module doc). Without a clause to learn,
    /// it only goes back to the frame's base.
    pub(super) fn backtrack_learning(&mut self) {
        if !self.learning.on {
            let base = self.stack.last().expect("a conflict under a frame").trail_len;
            self.prop.undo_to(base);
            return;
        }
        loop {
            let learnt = self.analyze();
            if let Some(keep) = learnt.as_ref().and_then(|(lits, _)| self.jump_keeps(lits)) {
                let (lits, lbd) = learnt.expect("checked above");
                self.learning.jumps += 1;
                let base = self.stack[keep].trail_len;
                self.stack.truncate(keep);
                self.prop.undo_to(base);
                self.prop.state.level = (self.cube.len() + keep) as u32;
                let asserting = lits[0];
                let reason = self.store(lits, lbd);
                if self.prop.state.assign_by(asserting, reason) && self.prop.propagate_from(base) {
                    self.prop.clauses.learnt.reduce_when_due(&self.prop.state);
                    // The next branch point on top; at a complete
                    // assignment, one whose single option holds already,
                    // so that the search takes it and meets the leaf.
                    let options = self.choose().unwrap_or_else(|| vec![asserting]);
                    self.stack.push(super::Frame { options, next: 0, trail_len: self.prop.trail_len(), found: 0 });
                    return;
                }
                // A conflict under the option of the frame now on top.
                self.conflicts += 1;
                if self.stack.is_empty() {
                    self.cube_refuted();
                    return;
                }
                continue;
            }
            let base = self.stack.last().expect("a conflict under a frame").trail_len;
            self.prop.undo_to(base);
            let Some((lits, lbd)) = learnt else {
                return;
            };
            self.prop.state.level = (self.cube.len() + self.stack.len() - 1) as u32;
            let asserting = lits[0];
            let reason = self.store(lits, lbd);
            if self.prop.state.assign_by(asserting, reason) && self.prop.propagate_from(base) {
                self.stack.last_mut().expect("checked above").trail_len = self.prop.trail_len();
                self.prop.clauses.learnt.reduce_when_due(&self.prop.state);
                return;
            }
            // No option left in the frame has a model.
            self.conflicts += 1;
            self.stack.pop();
            if self.stack.is_empty() {
                self.cube_refuted();
                return;
            }
        }
    }

    /// After a conflict at the cube's last level (or level 0) with no
    /// frame left: the cube has no model.
    fn cube_refuted(&mut self) {
        if self.prop.state.level == 0 {
            self.prop.unsat = true;
        } else if let Some((lits, lbd)) = self.analyze() {
            self.store(lits, lbd);
        }
        self.prop.undo_to(self.cube_end);
    }

    /// How many frames to keep when jumping back to assert `lits`: below
    /// the top frame's base, to the level of its second literal, when the
    /// branch searched again holds no model found and none of the cube was
    /// given away (see the module doc); `None` to assert it at the top
    /// frame's base.
    fn jump_keeps(&self, lits: &[Lit]) -> Option<usize> {
        if lits.len() < 2 || self.gave_work {
            return None;
        }
        let second = self.prop.state.levels[lits[1].index()] as usize;
        let keep = second.saturating_sub(self.cube.len());
        // The branch searched again, which must hold no model found: the
        // option the frame below takes, or the whole cube.
        let untouched = match keep {
            0 => self.found_in_cube == 0,
            _ => self.stack[keep - 1].found == self.found_in_cube,
        };
        (keep + 1 < self.stack.len() && untouched).then_some(keep)
    }

    /// Whether the cube is as it started: no model of it found and none of
    /// it given away; the search may then start again (see the module doc).
    pub(super) fn cube_untouched(&self) -> bool {
        self.found_in_cube == 0 && !self.gave_work
    }

    /// Whether the search should start again: learning, where it may
    /// ([`Enumerate::cube_untouched`]), at the end of a Luby run of
    /// conflicts.
    pub(super) fn restart_due(&self) -> bool {
        self.learning.on
            && self.cube_untouched()
            && !self.stack.is_empty()
            && self.conflicts >= self.learning.restart_at
    }

    /// Starts the search again from the base of its first frame (the cube,
    /// and what learnt clauses asserted under it), keeping what it learnt,
    /// with the learnt units asserted there too; false when they conflict:
    /// the cube has no model. No model was found yet, so none can be found
    /// twice, and every branch dropped is searched again.
    pub(super) fn start_again(&mut self) -> bool {
        self.learning.restarted(self.conflicts);
        let base = self.stack[0].trail_len;
        self.stack.clear();
        self.prop.undo_to(base);
        self.prop.state.level = self.cube.len() as u32;
        if !self.assign_units() {
            self.prop.undo_to(self.cube_end);
            return false;
        }
        self.push_choice();
        true
    }

    /// Assigns the learnt units at the current level and propagates; false
    /// on conflict (the formula implies each, so the assignment so far has
    /// no model).
    pub(super) fn assign_units(&mut self) -> bool {
        let mark = self.prop.trail_len();
        let Enumerate { prop, units, .. } = self;
        units.iter().all(|&unit| prop.state.assign_by(unit, Reason::Unit)) && prop.propagate_from(mark)
    }

    /// Keeps `lits` (asserting literal first) as a learnt clause, or a
    /// learnt unit; the reason it gives its first literal.
    fn store(&mut self, lits: Vec<Lit>, lbd: u32) -> Reason {
        if let [unit] = lits[..] {
            self.units.push(unit);
            return Reason::Unit;
        }
        Reason::Learnt(self.prop.clauses.learnt.add(&lits, lbd))
    }

    /// Called at the end of each window: learning on or off by the
    /// conflicts of the window.
    pub(super) fn judge_learning(&mut self) {
        if self.learning.judge(self.decisions, self.conflicts) {
            self.forget();
        }
        self.keep_scores();
    }

    /// Keeps the branch sets' activities in step while learning, which
    /// reads them (`Enumerate::choose_active`), and not otherwise.
    fn keep_scores(&mut self) {
        let state = &mut self.prop.state;
        if self.learning.on != state.branches.scoring() {
            state.branches.score(self.learning.on, &state.lit_values);
        }
    }

    /// Learning as `mode` says, judged afresh from now on (see [`Learning`]).
    pub(super) fn learn_as(&mut self, mode: Learn) {
        self.learning.set_mode(mode, self.decisions, self.conflicts);
        self.keep_scores();
    }

    /// Keeps only the glue clauses and those that imply a literal now.
    pub(super) fn forget(&mut self) {
        self.prop.clauses.learnt.reduce(&self.prop.state, 0);
    }

    /// The first-UIP clause of the conflict in `state.conflict`, at the
    /// current level: its asserting literal first, then one of the highest
    /// level among the rest; and its literal block distance. `None` when
    /// the conflict has no literal of the current level, or meets a
    /// decision before the first UIP (it cannot, while levels do not fall
    /// along the trail; the search then just goes back).
    fn analyze(&mut self) -> Option<(Vec<Lit>, u32)> {
        let Enumerate { prop, seen, .. } = self;
        let (state, clauses) = (&prop.state, &prop.clauses);
        let level = state.level;
        let (mut reason, mut lit) = state.conflict;
        let mut learnt = vec![lit];
        let mut touched = Vec::new();
        let (mut pending, mut index, mut binary) = (0usize, state.trail.len(), [lit; 2]);
        // The conflict's clause is all false; a reason's holds its literal.
        let mut implied = None;
        // Resolves on each literal of the current level in turn, from
        // the end of the trail, until one is left: the first UIP.
        let uip = loop {
            for &l in clauses.clause_of(&state.branches, reason, lit, &mut binary) {
                let v = l.index();
                if Some(v) == implied || seen[v] || state.levels[v] == 0 || state.reasons[v] == Reason::Unit {
                    continue;
                }
                seen[v] = true;
                touched.push(v);
                if state.levels[v] >= level {
                    pending += 1;
                } else {
                    learnt.push(l);
                }
            }
            if pending == 0 {
                break None;
            }
            // (Levels never fall along the trail, so the pending literals
            // are the last seen ones; a trail run out would mean they do.)
            let Some(at) = state.trail[..index].iter().rposition(|l| seen[l.index()]) else {
                break None;
            };
            index = at;
            let p = state.trail[at];
            pending -= 1;
            if pending == 0 {
                break Some(p);
            }
            (reason, lit, implied) = (state.reasons[p.index()], p, Some(p.index()));
            if reason == Reason::Decision {
                break None;
            }
        };
        let result = uip.map(|uip| {
            learnt[0] = !uip;
            // A literal whose reason's other literals are all in the
            // clause (or of level 0, or implied by learnt units) is implied
            // by them: leave it out. (Recursive minimization, Sörensson &
            // Biere 2009, which follows reasons further back, made the
            // published variant puzzles 20% slower: design-notes.md.)
            let mut kept = 1;
            for i in 1..learnt.len() {
                let l = learnt[i];
                let reason = state.reasons[l.index()];
                let redundant = reason != Reason::Decision
                    && clauses.clause_of(&state.branches, reason, !l, &mut binary).iter().all(|&o| {
                        o.index() == l.index()
                            || seen[o.index()]
                            || state.levels[o.index()] == 0
                            || state.reasons[o.index()] == Reason::Unit
                    });
                if !redundant {
                    learnt[kept] = l;
                    kept += 1;
                }
            }
            learnt.truncate(kept);
            if learnt.len() > 1 {
                let highest = (1..learnt.len()).max_by_key(|&i| state.levels[learnt[i].index()]).expect("two or more");
                learnt.swap(1, highest);
            }
            let mut levels: Vec<u32> = learnt.iter().map(|l| state.levels[l.index()]).collect();
            levels.sort_unstable();
            levels.dedup();
            (learnt, levels.len() as u32)
        });
        for &v in &touched {
            seen[v] = false;
        }
        if result.is_some() {
            let (amount, rescale) = self.learning.next_bump();
            let state = &mut self.prop.state;
            state.branches.bump(&touched, amount, &state.lit_values);
            if let Some(shift) = rescale {
                state.branches.rescale(shift, &state.lit_values);
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    /// The sequence as Luby, Sinclair & Zuckerman give it.
    #[test]
    fn the_luby_sequence() {
        let terms: Vec<u64> = (0..15).map(super::luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
