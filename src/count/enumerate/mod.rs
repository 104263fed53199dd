//! Non-blocking enumeration (Toda & Soh 2016): search over the encoder's CNF
//! with unit propagation on watched literals, branching on the cell with the
//! fewest remaining candidate digits, and chronological backtracking, so each
//! model is reached exactly once and no blocking clause is ever added. While
//! conflicts are frequent it learns from them, first-UIP clauses asserted
//! where the search stands (or, where no model was found, where they
//! would have been unit: it jumps back), and branches where they were
//! (`learn.rs`).
//!
//! A branch point is the smallest set of open exclusive options: the digits
//! left for one cell, or the cells left for one digit in a group of `n` cells.
//! Its branches are disjoint and cover every solution, because every solution
//! has exactly one digit per cell and each digit exactly once in such a group
//! (the rows alone guarantee the former). At a leaf every
//! cell has a digit; remaining primary variables are set false and
//! propagated; if auxiliary variables are still open, varisat decides under
//! assumptions whether the primary assignment extends to a model, so an
//! auxiliary variable never changes the count.
//!
//! The branch sets also propagate: each keeps the number of its literals
//! not yet false, and since every solution makes exactly one of them true,
//! a set left with one open literal makes it true and a set left with none
//! is a conflict. The formula's clauses that say "at least one of the set"
//! are therefore not watched (`propagate.rs`).
//!
//! Before the search, support clauses are derived from binary conflicts with
//! each cell (`supports.rs`): implied clauses, so the models do not change,
//! but on the forbidden-pairs encoding they lift unit propagation from
//! forward checking to arc consistency, as the support encoding has it.
//!
//! One concern per file: `propagate.rs` (the compiled formula and the
//! [`Propagator`]), `assignment.rs` (values, trail, levels and reasons),
//! `branch.rs` (what to branch on; an `Or`'s selectors too, with the
//! leaf's check that each grid is counted once: `count/choices.rs`),
//! `learn.rs` (conflict analysis and the learnt clauses), `supports.rs`, `frontier.rs` (splitting the search and
//! handing part of it to other threads), `watch.rs` (what both kinds of
//! watch lists hold); the compressed lists they share are `count/csr.rs`.
//!
//! ## References
//! - T. Toda, T. Soh, "Implementing Efficient All Solutions SAT Solvers", JEA 2016.

mod assignment;
mod branch;
mod frontier;
mod learn;
mod probe;
mod propagate;
mod singles;
mod supports;
mod watch;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use varisat::{CnfFormula, Lit, Solver, Var};

use super::choices::{guards, Choices};
use super::halt::Halt;
use super::pool::Pool;
use super::{CountError, Cube, Engine, SearchStats};
use crate::encode::{DigitEncoding, Encoded, VarMap};
use crate::model::{Grid, Puzzle};
use assignment::{Snapshot, UNSET};
use branch::Branches;
pub use learn::Learn;
pub use probe::Prober;
pub use propagate::{Propagator, Strength};

/// Decisions between two looks at the stop flag.
const STOP_CHECK_INTERVAL: u64 = 16;

/// One frame of the explicit search stack: mutually exclusive literals (the
/// digits of one cell, or the cells of one digit in a full group), of which
/// every solution makes exactly one true, tried in turn.
struct Frame {
    options: Vec<Lit>,
    next: usize,
    trail_len: usize,
    /// The cube's models found when the option was taken: a jump back
    /// may search that option's branch again only if none was found since.
    found: u64,
}

impl Frame {
    /// The option the search is under (every frame above the deepest has one).
    fn taken(&self) -> Option<Lit> {
        self.next.checked_sub(1).map(|i| self.options[i])
    }
}

/// The enum engine: DPLL enumeration without blocking clauses (see the module doc).
pub struct Enumerate<'a> {
    /// How the encoding spells digits, and its clauses (for the rare leaf
    /// whose auxiliary variables need a SAT call): owned, so that an engine
    /// can live beside its encoding.
    vars: VarMap,
    formula: Arc<CnfFormula>,
    /// The last model found ([`Engine::step`] lends it).
    model: Option<Grid>,
    /// The alternatives branched on, checked at each leaf.
    choices: Choices,
    /// By variable, the literal that frees it at a leaf when true
    /// ([`guards`]); empty without alternatives.
    guard: Vec<Option<Lit>>,
    /// The formula with its derived supports, and the assignment searched.
    prop: Propagator,
    stack: Vec<Frame>,
    /// The literals the search is restricted to (see [`Engine::start_cube`]);
    /// after a refuted cube, the part of it before the refuting literal.
    cube: Vec<Lit>,
    /// The trail's length before each literal of `cube` was assigned, so
    /// that the next cube keeps what it shares with this one.
    cube_marks: Vec<usize>,
    /// The trail's length once `cube` is propagated.
    cube_end: usize,
    started: bool,
    /// The current cube contradicts the formula under propagation.
    cube_conflict: bool,
    /// The stop flag another thread sets, the deadline and the decision
    /// budget (see [`Enumerate::halt_at`]), and whether the last step
    /// stopped at one of them.
    halt: Halt<'a>,
    /// Where to give part of the search when another thread waits for work.
    pool: Option<&'a Pool>,
    sat_calls: u64,
    decisions: u64,
    conflicts: u64,
    solver: Option<Solver<'static>>,
    /// The assignment after level-0 propagation, for [`Enumerate::restart`].
    level0: Option<Snapshot>,
    /// Conflict analysis (`learn.rs`): a mark per variable, and the learnt
    /// units not yet assigned at level 0.
    seen: Vec<bool>,
    units: Vec<Lit>,
    /// Whether the engine learns, its activities and restarts.
    learning: learn::Learning,
    /// Models found in the cube, and whether part of it was given away:
    /// restarts are sound only while both are nothing (see `learn.rs`).
    found_in_cube: u64,
    gave_work: bool,
}

impl<'a> Enumerate<'a> {
    /// The engine on `encoded`, propagated at level 0. Each thread of a
    /// count builds its own, at the same time as the others: one built
    /// once and copied for each cost as much wall time, and more in the
    /// allocator (the heap was trimmed and paged in again file after file
    /// in a batch).
    pub fn new(puzzle: &Puzzle, encoded: &Encoded) -> Enumerate<'a> {
        let choices = Choices::new(puzzle, encoded);
        let exclusive;
        let (encoded, guard) = if choices.is_empty() {
            (encoded, Vec::new())
        } else {
            exclusive = choices.exclusive(encoded);
            (&exclusive, guards(encoded))
        };
        let branches = Branches::new(puzzle, encoded, choices.sets());
        let prop = Propagator::with_branches(encoded, Strength::WithSupports, branches);
        // The cube starts empty, after level-0 propagation.
        let cube_end = prop.trail_len();
        let var_count = encoded.formula.var_count();
        Enumerate {
            model: None,
            choices,
            guard,
            vars: encoded.vars.clone(),
            formula: Arc::clone(&encoded.formula),
            prop,
            stack: Vec::new(),
            cube: Vec::new(),
            cube_marks: Vec::new(),
            cube_end,
            started: false,
            cube_conflict: false,
            halt: Halt::default(),
            pool: None,
            sat_calls: 0,
            decisions: 0,
            conflicts: 0,
            solver: None,
            level0: None,
            seen: vec![false; var_count],
            units: Vec::new(),
            learning: learn::Learning::new(),
            found_in_cube: 0,
            gave_work: false,
        }
    }

    /// [`Engine::start_cube`] from level 0 at once: for a cube that shares
    /// nothing with the last (the givens of another puzzle, see
    /// `count::prepared`), going back by copying the level-0
    /// assignment costs less than undoing the trail variable by variable.
    pub fn restart(&mut self, cube: &[Lit]) -> Result<(), CountError> {
        if !self.prop.unsat {
            let level0 = self.level0.get_or_insert_with(|| {
                self.prop.undo_to(self.cube_marks.first().copied().unwrap_or(self.cube_end));
                self.prop.state.snapshot()
            });
            self.prop.state.restore(level0);
            self.cube_end = self.prop.trail_len();
            self.cube.clear();
            self.cube_marks.clear();
        }
        // Another puzzle, most likely: it learns once it has shown it
        // needs to, without the clauses learnt for the last but the glue.
        self.learn_as(self.learning.mode);
        if self.learning.mode == Learn::Auto {
            self.forget();
        }
        self.start_cube(cube)
    }

    /// Makes [`Engine::step`] return `None` soon after `stop` is set.
    pub fn stop_when(mut self, stop: &'a AtomicBool) -> Enumerate<'a> {
        self.halt.stop = Some(stop);
        self
    }

    /// Learns as `mode` says (by default [`Learn::Auto`]).
    pub fn learn(mut self, mode: Learn) -> Enumerate<'a> {
        self.learn_as(mode);
        self
    }

    /// Gives part of the search to `pool` when a worker waits there (see
    /// `Enumerate::give_work`).
    pub fn share_with(mut self, pool: &'a Pool) -> Enumerate<'a> {
        self.pool = Some(pool);
        self
    }

    /// Makes [`Engine::step`] return `None` soon after `deadline` or once
    /// `decisions` decisions are made in all (each `None` for no limit), with
    /// the search left where it was: [`Engine::halted`] then says so, and
    /// the next step, under new limits, goes on from there.
    pub fn halt_at(&mut self, deadline: Option<Instant>, decisions: Option<u64>) {
        self.halt.deadline = deadline;
        self.halt.budget = decisions;
    }

    fn stopped(&self) -> bool {
        self.halt.due(self.decisions)
    }

    /// The smallest set of open options among cells (their digits) and full
    /// groups (the cells left for a digit), or `None` when every cell has a
    /// true digit variable; `Some` with no options means a dead end.
    fn choose(&self) -> Option<Vec<Lit>> {
        if self.learning.on {
            return self.choose_active();
        }
        if self.vars.digits() != DigitEncoding::Direct {
            return self.choose_variable();
        }
        let set = self.prop.state.branches.smallest_open()?;
        Some(self.prop.state.branches.set(set).iter().copied().filter(|&lit| self.prop.value(lit) == UNSET).collect())
    }

    /// While learning (see `learn.rs`): the open set of the highest score,
    /// its open literals' activity (a literal's is its variable's) summed
    /// and divided by the square of their number, its literals by
    /// activity, the one last true first (phase saving); with no open
    /// set, the open primary variable of the highest activity, both its
    /// values. It is ISS's
    /// candidate selector (a cell's conflict score over its candidates)
    /// with VSIDS activities for conflict scores and the square of the
    /// candidates, and its fallback to the fewest candidates where scores
    /// tie; it ranked the sets better than the first power or the most
    /// active variable's smallest set, as it was: ISS's example puzzles
    /// took 17.0 s in all instead of 28.8 s, the same on the 85-puzzle
    /// corpus (bench/results/design-notes.md).
    fn choose_active(&self) -> Option<Vec<Lit>> {
        let branches = &self.prop.state.branches;
        let activity = |v: usize| branches.activity(v);
        // The saved phases lead only where the search may restart: before
        // the cube's first model, with none of it given away (see
        // `learn.rs`).
        let (phases, by_phase) = (&self.prop.state.phases, self.cube_untouched());
        // The best score; of equal scores (none before the first
        // conflict), the fewest open literals, as ISS falls back to. A
        // score `a / w²` is kept as `(a, w)` and compared exactly:
        // `a / w² > b / v²` when `a v² > b w²`.
        let mut best: Option<(u64, u16, usize)> = None;
        for (set, &weight) in branches.weights().iter().enumerate() {
            if !branch::is_open(weight) {
                continue;
            }
            let score = branches.open_activity(set);
            debug_assert_eq!(
                score,
                branches
                    .set(set)
                    .iter()
                    .filter(|&&lit| self.prop.value(lit) == UNSET)
                    .map(|l| activity(l.index()))
                    .sum::<u64>(),
                "a set's activity out of step"
            );
            let better = |(most, fewest, _): (u64, u16, usize)| {
                let (ours, theirs) =
                    (u128::from(score) * u128::from(fewest).pow(2), u128::from(most) * u128::from(weight).pow(2));
                ours > theirs || (ours == theirs && weight < fewest)
            };
            if best.is_none_or(better) {
                best = Some((score, weight, set));
            }
        }
        let Some((_, _, set)) = best else {
            let values = &self.prop.state.values[..self.vars.primary_count()];
            let open = (0..values.len()).filter(|&v| values[v] == UNSET);
            let var = Var::from_index(open.max_by_key(|&v| activity(v))?);
            return Some(if by_phase && phases[var.index()] == 0 {
                vec![var.negative(), var.positive()]
            } else {
                vec![var.positive(), var.negative()]
            });
        };
        let mut options: Vec<Lit> =
            branches.set(set).iter().copied().filter(|&lit| self.prop.value(lit) == UNSET).collect();
        options.sort_by_key(|l| std::cmp::Reverse(activity(l.index())));
        if by_phase {
            // The option last true first, if any was.
            if let Some(k) = options.iter().position(|l| phases[l.index()] == 1) {
                options[..=k].rotate_right(1);
            }
        }
        Some(options)
    }

    /// For order and log digits, whose literals are not exclusive options: both
    /// values of the first open primary variable, or `None` when all are set.
    /// (Branching on a cell's possible digits was slower with log digits: a
    /// bit shared by half the digits prunes them all at once; see
    /// bench/results/design-notes.md.)
    fn choose_variable(&self) -> Option<Vec<Lit>> {
        let primary = self.vars.primary_count();
        let var = (0..primary).map(Var::from_index).find(|v| self.prop.state.values[v.index()] == UNSET)?;
        Some(vec![var.positive(), var.negative()])
    }

    /// Cells whose digit unit propagation fixed at level 0, givens included;
    /// At a leaf: completes the assignment; the grid if it is a model.
    fn leaf(&mut self) -> Result<Option<Grid>, CountError> {
        let mark = self.prop.state.trail.len();
        // The trail holds each assigned variable once, so a trail as long as
        // the variables is a complete, propagated assignment: a model. (With
        // the direct encoding's one-hot clauses, every leaf is one.)
        if mark == self.prop.state.values.len() {
            let grid = self.grid()?;
            return Ok(self.choices.own(&grid, |lit| self.known(lit)).then_some(grid));
        }
        let primary = self.vars.primary_count();
        // Usually none is open; `contains` on bytes is a fast scan.
        if self.prop.state.values[..primary].contains(&UNSET) {
            for var in (0..primary).map(Var::from_index) {
                if self.prop.state.values[var.index()] == UNSET {
                    self.prop.assign(var.negative()); // cannot fail: the variable is open
                }
            }
        }
        let mut ok = self.prop.propagate_from(mark);
        if ok && self.prop.state.values[primary..].contains(&UNSET) {
            ok = self.free(primary) || self.extends_to_model()?;
        }
        let grid = if ok { Some(self.grid()?) } else { None };
        let grid = grid.filter(|grid| self.choices.own(grid, |lit| self.known(lit)));
        self.prop.undo_to(mark);
        Ok(grid)
    }

    /// `lit`'s value, if set.
    fn known(&self, lit: Lit) -> Option<bool> {
        let value = self.prop.value(lit);
        (value != UNSET).then_some(value == 1)
    }

    /// Whether the auxiliary variables open at a leaf (past the `primary`
    /// ones) can take any value: each is only in clauses of an alternative
    /// not taken, whose negated selector, true, satisfies them all. The
    /// clauses without an open variable hold, as propagation met no
    /// conflict, so the leaf is then a model without a SAT call.
    fn free(&self, primary: usize) -> bool {
        let values = &self.prop.state.values;
        let mut open = (primary..values.len()).filter(|&v| values[v] == UNSET);
        !self.guard.is_empty() && open.all(|v| self.guard[v].is_some_and(|g| self.known(g) == Some(true)))
    }

    fn extends_to_model(&mut self) -> Result<bool, CountError> {
        let primary = self.vars.primary_count();
        let values = &self.prop.state.values;
        let primaries = (0..primary).map(|i| Lit::from_index(i, values[i] == 1));
        // The selectors set too: the model must keep the leaf's alternatives.
        let selectors = self.choices.sets().flatten().filter_map(|&l| self.known(l).map(|v| if v { l } else { !l }));
        let assumptions: Vec<Lit> = primaries.chain(selectors).collect();
        let formula = &self.formula;
        let solver = self.solver.get_or_insert_with(|| {
            let mut solver = Solver::new();
            solver.add_formula(formula);
            solver
        });
        solver.assume(&assumptions);
        self.sat_calls += 1;
        solver.solve().map_err(CountError::Solver)
    }

    /// The grid of a complete assignment.
    fn grid(&self) -> Result<Grid, CountError> {
        Ok(self.vars.decode_bytes(&self.prop.state.values)?)
    }

    fn next_model(&mut self) -> Result<Option<Grid>, CountError> {
        self.halt.halted = false;
        if self.prop.unsat || self.cube_conflict {
            return Ok(None);
        }
        if !self.started {
            self.started = true;
            self.push_choice();
            if self.stack.is_empty() {
                // Every cell was fixed by propagation alone.
                return self.leaf();
            }
        }
        while let Some(frame) = self.stack.last_mut() {
            if frame.next == frame.options.len() {
                let len = frame.trail_len;
                self.stack.pop();
                self.prop.undo_to(len);
                continue;
            }
            // Before taking the option, so that `remaining` still covers it.
            if self.decisions % STOP_CHECK_INTERVAL == STOP_CHECK_INTERVAL - 1 {
                if self.stopped() {
                    self.halt.halted = true;
                    return Ok(None);
                }
                if let Some(pool) = self.pool.filter(|pool| pool.wanted()) {
                    self.give_work(pool);
                }
                if self.decisions >= self.learning.until {
                    self.judge_learning();
                }
            }
            let found = self.found_in_cube;
            let frame = self.stack.last_mut().expect("checked above");
            let (choice, len) = (frame.options[frame.next], frame.trail_len);
            frame.next += 1;
            frame.found = found;
            self.prop.undo_to(len);
            self.decisions += 1;
            self.prop.state.level = (self.cube.len() + self.stack.len()) as u32;
            if !self.prop.assign(choice) {
                // Made false at the frame's base: a branch with no model.
                self.conflicts += 1;
                continue;
            }
            if !self.prop.propagate_from(len) {
                self.conflicts += 1;
                self.backtrack_learning();
                if self.restart_due() {
                    if !self.start_again() {
                        return Ok(None);
                    }
                    if self.stack.is_empty() {
                        return self.leaf();
                    }
                }
                continue;
            }
            match self.choose() {
                None => {
                    if let Some(grid) = self.leaf()? {
                        return Ok(Some(grid));
                    }
                }
                Some(options) if options.is_empty() => {}
                Some(options) => {
                    self.stack.push(Frame { options, next: 0, trail_len: self.prop.state.trail.len(), found: 0 })
                }
            }
        }
        Ok(None)
    }

    pub(super) fn push_choice(&mut self) {
        if let Some(options) = self.choose() {
            self.stack.push(Frame { options, next: 0, trail_len: self.prop.state.trail.len(), found: 0 });
        }
    }
}

impl Engine for Enumerate<'_> {
    fn start_cube(&mut self, cube: &[Lit]) -> Result<(), CountError> {
        self.restrict_to(cube);
        Ok(())
    }

    fn remaining(&self) -> Option<Vec<Cube>> {
        Some(self.frontier())
    }

    fn halt_after(&mut self, decisions: u64) {
        self.halt.budget = Some(self.decisions + decisions);
    }

    fn halted(&self) -> bool {
        self.halt.halted
    }

    fn step(&mut self) -> Result<Option<&Grid>, CountError> {
        self.model = self.next_model()?;
        self.found_in_cube += u64::from(self.model.is_some());
        Ok(self.model.as_ref())
    }

    fn stats(&self) -> SearchStats {
        SearchStats {
            sat_calls: self.sat_calls,
            decisions: Some(self.decisions),
            conflicts: Some(self.conflicts),
            derived_clauses: Some(self.prop.derived),
            learnt_clauses: Some(self.prop.clauses.learnt.learnt()),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::named::Named;
    use itertools::Itertools;
    use std::cmp::Ordering;

    use super::*;
    use crate::encode::relation::RelationEncoding;
    use crate::encode::{encode, Encoding};
    use crate::model::{Cell, Predicate};

    /// (0,0) + (0,1) > 10 with a 9 given at (0,2): the row takes 9 from (0,1),
    /// which leaves digit 2 of (0,0) without support (2 + j > 10 needs j = 9).
    /// Arc consistency removes it at level 0; forward checking alone (the
    /// forbidden-pairs clauses) would not. Digit 3 keeps its support 8.
    #[test]
    fn derived_supports_give_arc_consistency_on_forbidden_pairs() {
        let mut puzzle = Puzzle::sudoku(3, 3).unwrap();
        let (a, b) = (Cell::new(0, 0), Cell::new(0, 1));
        puzzle.add_relation(a, b, Predicate::Sum { cmp: Ordering::Greater, target: 10 }).unwrap();
        puzzle.set_given(Cell::new(0, 2), 9).unwrap();
        for &relation in RelationEncoding::VARIANTS {
            let encoded = encode(&puzzle, &Encoding { relation, ..Encoding::default() });
            let engine = Enumerate::new(&puzzle, &encoded);
            let value = |d| engine.prop.var_value(encoded.vars.var(a, d));
            assert_eq!(value(1), Some(false), "{relation:?}: 1 + j > 10 has no support at all");
            assert_eq!(value(2), Some(false), "{relation:?}: the support of 2 is gone");
            assert_eq!(value(3), None, "{relation:?}: 3 still has the support 8");
            let derived = engine.stats().derived_clauses.unwrap();
            assert_eq!(derived > 0, relation == RelationEncoding::ForbiddenPairs, "{relation:?}");
            // The formula as encoded: forbidden pairs alone only forward-check,
            // so digit 2 stays open there; support clauses remove it (the
            // `>` relation has them under `equivalence` too).
            let as_encoded = Propagator::new(&encoded, Strength::AsEncoded);
            let removed = relation != RelationEncoding::ForbiddenPairs;
            assert_eq!(as_encoded.var_value(encoded.vars.var(a, 2)), removed.then_some(false), "{relation:?}");
            assert_eq!(as_encoded.derived_clauses(), 0);
        }
    }

    /// cnf-samples/many.lp: 117 solutions, confirmed by the oracle in tests/samples.rs.
    fn many() -> Puzzle {
        let text = std::fs::read_to_string("cnf-samples/many.lp").unwrap();
        crate::parse::parse(&text, "many.lp", None).unwrap()
    }

    /// Stopped after `k` models, the engine's frontier holds exactly the
    /// models it has not returned: counted cube by cube on a fresh engine,
    /// they add up with the `k` to the recorded count of many.lp (117,
    /// confirmed by the oracle in tests/samples.rs).
    #[test]
    fn the_frontier_after_a_stop_holds_exactly_the_models_not_yet_found() {
        let puzzle = many();
        for relation in [RelationEncoding::ForbiddenPairs, RelationEncoding::Support] {
            let encoded = encode(&puzzle, &Encoding { relation, ..Encoding::default() });
            for k in [0, 1, 2, 30, 116, 117] {
                let stop = AtomicBool::new(false);
                let mut engine = Enumerate::new(&puzzle, &encoded).stop_when(&stop);
                engine.start_cube(&[]).unwrap();
                let mut found = 0u128;
                while found < k && engine.step().unwrap().is_some() {
                    found += 1;
                }
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                while engine.step().unwrap().is_some() {
                    found += 1; // models met before the next look at the flag
                }
                let cubes = engine.remaining().unwrap();
                let mut rest = Enumerate::new(&puzzle, &encoded);
                for cube in &cubes {
                    rest.start_cube(cube).unwrap();
                    while rest.step().unwrap().is_some() {
                        found += 1;
                    }
                }
                assert_eq!(found, 117, "{relation:?}, stopped after {k}: {} cubes", cubes.len());
            }
        }
    }

    /// While learning, the branch variable's set is tried from the option
    /// that was last true (phase saving): after the search took one option
    /// and went back, that option comes first, the others keeping their
    /// order; before that, by activity (here none yet: the smallest set's
    /// own order).
    #[test]
    fn while_learning_the_option_last_true_comes_first() {
        let puzzle = many();
        let encoded = encode(&puzzle, &Encoding::default());
        let mut engine = Enumerate::new(&puzzle, &encoded).learn(Learn::Always);
        engine.start_cube(&[]).unwrap();
        let options = engine.choose_active().unwrap();
        assert!(options.len() >= 2, "{options:?}");
        let last = *options.last().unwrap();
        let mark = engine.prop.trail_len();
        assert!(engine.prop.assign(last) && engine.prop.propagate_from(mark));
        assert!(options[..options.len() - 1].iter().all(|&o| engine.prop.value(o) == 0), "one option of a set");
        engine.prop.undo_to(mark);
        let again = engine.choose_active().unwrap();
        let mut expected = vec![last];
        expected.extend_from_slice(&options[..options.len() - 1]);
        assert_eq!(again, expected);
    }

    /// Asked for work before every model, the engine gives part of its
    /// cube to the pool many times, and takes the given cubes back one by
    /// one until the pool is empty; it finds the 117 grids of many.lp
    /// (confirmed by the oracle in tests/samples.rs), each exactly once,
    /// also learning from every conflict (so jumping back between models).
    #[test]
    fn work_given_away_and_taken_back_holds_every_model_once() {
        let puzzle = many();
        let ways =
            [DigitEncoding::Direct, DigitEncoding::Order].into_iter().cartesian_product([Learn::Auto, Learn::Always]);
        for (digits, learn) in ways {
            let encoded = encode(&puzzle, &Encoding { digits, ..Encoding::default() });
            let (pool, never) = (Pool::new(vec![Vec::new()]), AtomicBool::new(false));
            let mut engine = Enumerate::new(&puzzle, &encoded).share_with(&pool).learn(learn);
            let (mut cubes, mut grids) = (0, Vec::new());
            while let Some(cube) = pool.take(cubes > 0, &never) {
                cubes += 1;
                engine.start_cube(&cube).unwrap();
                pool.want();
                while let Some(grid) = engine.step().unwrap() {
                    grids.push(grid.clone());
                    pool.want();
                }
            }
            assert!(cubes > 10, "{digits:?} {learn:?}: only {cubes} cubes");
            let distinct: std::collections::HashSet<_> = grids.iter().collect();
            assert_eq!((grids.len(), distinct.len()), (117, 117), "{digits:?} {learn:?}");
        }
    }

    /// Learning from every conflict, so restarting and jumping back before
    /// the first model, and asked for work at every look: a part given
    /// away is never searched again by a restart or a jump. Published
    /// puzzles that take hundreds of conflicts to their solution
    /// ("Modular Nabner DA Coverage", "It being a weekend...", "Keep off
    /// the Border!", "Third-Degree Murder", CC BY 4.0,
    /// tests/corpus/variants/ATTRIBUTION.md; "Effluence" and "Endless
    /// Knight", used before, restart once each since the renban and
    /// equal-sum clauses of 2026-12-04 propagate more) are found exactly
    /// once, the published solution (tests/it/corpus.rs checks it), with
    /// restarts and jumps before work was first given away.
    #[test]
    fn restarts_and_jumps_never_search_again_what_was_given_away() {
        let text = std::fs::read_to_string("tests/corpus/variants/puzzles.json").unwrap();
        let corpus: serde_json::Value = serde_json::from_str(&text).unwrap();
        let (mut restarts, mut jumps) = (0, 0);
        for i in [55, 66, 75, 79] {
            let puzzle = crate::parse::parse(corpus[i]["puzzle"].as_str().unwrap(), "variant.txt", None).unwrap();
            let encoded = encode(&puzzle, &Encoding::default());
            let (pool, never) = (Pool::new(vec![Vec::new()]), AtomicBool::new(false));
            let mut engine = Enumerate::new(&puzzle, &encoded).share_with(&pool).learn(Learn::Always);
            let (mut cubes, mut grids) = (0, Vec::new());
            while let Some(cube) = pool.take(cubes > 0, &never) {
                cubes += 1;
                engine.start_cube(&cube).unwrap();
                // Every other cube gives work away at its first look;
                // the others restart freely.
                if cubes % 2 == 1 {
                    pool.want();
                }
                while let Some(grid) = engine.step().unwrap() {
                    grids.push(grid.to_string());
                }
            }
            restarts += engine.learning.restarts;
            jumps += engine.learning.jumps;
            let expected = corpus[i]["solution"].as_str().unwrap();
            assert_eq!(grids.len(), 1, "#{i}: {cubes} cubes");
            assert_eq!(grids[0].split_whitespace().collect::<String>(), expected, "#{i}");
        }
        assert!(restarts > 5 && jumps > 100, "only {restarts} restarts and {jumps} jumps back");
    }
}
