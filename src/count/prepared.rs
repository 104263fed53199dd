//! One puzzle counted on the calling thread, on an engine that can be kept
//! for the next puzzle of the same layout. A collection's puzzles usually
//! share their layout (the grid, groups, relations and constraints) and
//! differ only in their givens, so the layout is encoded, compiled and given
//! its derived supports once, and each puzzle's givens are a cube of the
//! same engine (see [`Engine::start_cube`]): no encoding, allocation of a
//! formula or thread per puzzle. Every solution is still checked by the
//! independent checker, against the layout and the puzzle's givens.
//!
//! The count runs in steps ([`Prepared::run`]) that end at a number of
//! models, a time or a number of decisions, and go on from where they
//! stopped: the counting plan probes a count this way before it decides to
//! split it into parts or hand it to more threads.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use varisat::Lit;

use super::enumerate::Enumerate;
use super::grid::GridSearch;
use super::{CountError, Cube, Engine, EngineKind, Observer, SearchStats, Stop};
use crate::encode::{encode, Encoded, Encoding};
use crate::model::check::Checker;
use crate::model::{Cell, Digit, Grid, Puzzle};

/// An encoded layout with its engine, ready for any puzzle that fits it.
pub(crate) struct Prepared {
    kind: EngineKind,
    /// The puzzle the engine was built for: without its givens when the
    /// encoding does not depend on them, so that other puzzles fit.
    layout: Puzzle,
    /// Whether puzzles other than the first may use it: false when the
    /// encoding depends on the givens (the given-aware reduction).
    reusable: bool,
    encoded: Encoded,
    engine: Kernel,
    checker: Checker,
    /// The current puzzle's givens, checked in every model.
    givens: Vec<(Cell, Digit)>,
    /// Models found since [`Prepared::start`].
    found: u128,
    /// The search is done (every model of the cube found).
    done: bool,
}

/// The engine a layout is prepared for: the enum engine, or the grid
/// engine for layouts it takes (see [`super::grid::unfit`]).
enum Kernel {
    Enum(Box<Enumerate<'static>>),
    Grid(Box<GridSearch<'static>>),
}

impl Kernel {
    fn engine(&mut self) -> &mut dyn Engine {
        match self {
            Kernel::Enum(engine) => engine.as_mut(),
            Kernel::Grid(engine) => engine.as_mut(),
        }
    }

    /// The engine, read through the trait: its stats, its frontier and
    /// whether it halted.
    fn view(&self) -> &dyn Engine {
        match self {
            Kernel::Enum(engine) => engine.as_ref(),
            Kernel::Grid(engine) => engine.as_ref(),
        }
    }

    fn halt_at(&mut self, deadline: Option<Instant>, decisions: Option<u64>) {
        match self {
            Kernel::Enum(engine) => engine.halt_at(deadline, decisions),
            Kernel::Grid(engine) => engine.halt_at(deadline, decisions),
        }
    }

    /// Starts on `cube` from the engine's root.
    fn restart(&mut self, cube: &[Lit]) -> Result<(), CountError> {
        match self {
            Kernel::Enum(engine) => engine.restart(cube),
            Kernel::Grid(engine) => engine.start_cube(cube),
        }
    }
}

/// Where a [`Prepared::run`] ends, at the latest.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Until {
    /// This many models found since the start (the `(max + 1)`th is not
    /// taken: its existence is what `MaxReached` says).
    pub max: Option<u128>,
    pub deadline: Option<Instant>,
    /// This many decisions made since the engine was built.
    pub decisions: Option<u64>,
    pub interrupt: Option<&'static AtomicBool>,
}

impl Prepared {
    /// The engine of `kind` (enum or grid, which must fit: see
    /// [`super::grid::unfit`]) for `puzzle` under `encoding`; `interrupt`
    /// ends a run early when it is set.
    pub(crate) fn new(
        puzzle: &Puzzle,
        encoding: &Encoding,
        kind: EngineKind,
        interrupt: Option<&'static AtomicBool>,
    ) -> Prepared {
        let reusable = !encoding.reduce;
        let layout = if reusable { puzzle.without_givens() } else { puzzle.clone() };
        let encoded = encode(&layout, encoding);
        let engine = if kind == EngineKind::Grid {
            let engine = GridSearch::new(&layout, &encoded);
            Kernel::Grid(Box::new(if let Some(flag) = interrupt { engine.stop_when(flag) } else { engine }))
        } else {
            let engine = Enumerate::new(&layout, &encoded);
            Kernel::Enum(Box::new(if let Some(flag) = interrupt { engine.stop_when(flag) } else { engine }))
        };
        Prepared {
            kind,
            checker: Checker::new(&layout),
            layout,
            reusable,
            encoded,
            engine,
            givens: Vec::new(),
            found: 0,
            done: false,
        }
    }

    /// Whether `puzzle` can be counted on this engine, of `kind`.
    pub(crate) fn fits(&self, puzzle: &Puzzle, kind: EngineKind) -> bool {
        if self.kind != kind {
            false
        } else if self.reusable {
            self.layout.same_layout(puzzle)
        } else {
            self.layout == *puzzle
        }
    }

    /// The encoding the engine searches (the layout's).
    pub(crate) fn encoded(&self) -> &Encoded {
        &self.encoded
    }

    /// Starts counting the models of `puzzle` (which must fit) that make
    /// every literal of `cube` true.
    pub(crate) fn start(&mut self, puzzle: &Puzzle, cube: &[Lit]) -> Result<(), CountError> {
        debug_assert!(self.fits(puzzle, self.kind), "Prepared::start: the puzzle does not fit the layout");
        self.givens.clear();
        self.givens.extend(puzzle.givens());
        let mut literals: Cube = Vec::with_capacity(self.givens.len() + cube.len());
        if self.reusable {
            for &(cell, digit) in &self.givens {
                literals.extend(self.encoded.vars.digit_lits(cell, digit));
            }
        }
        literals.extend_from_slice(cube);
        self.found = 0;
        self.done = false;
        self.engine.restart(&literals)
    }

    /// Counts on from where the last run stopped, showing each model to
    /// `observer` if it wants them, until the search is done or `until`
    /// says to stop: `Complete`, or the reason it stopped.
    pub(crate) fn run(&mut self, until: Until, observer: &mut impl Observer) -> Result<Stop, CountError> {
        if self.done {
            return Ok(Stop::Complete);
        }
        let start = Instant::now();
        if until.interrupt.is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed)) {
            return Ok(Stop::Interrupted);
        }
        if until.deadline.is_some_and(|deadline| start >= deadline) {
            return Ok(Stop::Timeout);
        }
        self.engine.halt_at(until.deadline, until.decisions);
        let wants = observer.wants_models();
        loop {
            // One more model past `max` decides whether the count is exact.
            let past_max = until.max.is_some_and(|max| self.found >= max);
            let Some(grid) = self.engine.engine().step()? else {
                if self.engine.view().halted() {
                    return Ok(self.why_halted(until));
                }
                self.done = true;
                return Ok(Stop::Complete);
            };
            check_model(&self.checker, &self.givens, grid)?;
            if past_max {
                return Ok(Stop::MaxReached);
            }
            self.found += 1;
            if wants && observer.model(self.found, grid).is_break() {
                return Ok(Stop::Caller);
            }
            if self.found % 4096 == 0 {
                observer.progress(self.found, start.elapsed());
            }
        }
    }

    /// Models found since [`Prepared::start`].
    pub(crate) fn found(&self) -> u128 {
        self.found
    }

    /// What the engine has done since it was built.
    pub(crate) fn stats(&self) -> SearchStats {
        self.engine.view().stats()
    }

    /// The models of the current cube not yet found, as disjoint cubes of
    /// [`Prepared::encoded`] (with the givens' literals in each).
    pub(crate) fn frontier(&self) -> Vec<Cube> {
        if self.done {
            return Vec::new();
        }
        self.engine.view().remaining().unwrap_or_default()
    }

    /// Why the engine halted: the interrupt, the deadline or the budget.
    fn why_halted(&self, until: Until) -> Stop {
        if until.interrupt.is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed)) {
            Stop::Interrupted
        } else if until.decisions.is_some_and(|d| self.engine.view().stats().decisions.unwrap_or(0) >= d) {
            Stop::Budget
        } else {
            Stop::Timeout
        }
    }
}

/// The independent checker's verdict on a model: it must solve the layout
/// and keep the givens (none for the drive's workers, whose formula holds
/// them). Not a method of [`Prepared`]: its engine lends the model, and
/// holds it while it is checked.
pub(super) fn check_model(checker: &Checker, givens: &[(Cell, Digit)], grid: &Grid) -> Result<(), CountError> {
    let givens_kept = givens.iter().all(|&(cell, digit)| grid.get(cell) == digit);
    if givens_kept && checker.solves(grid) {
        return Ok(());
    }
    let mut violations = checker.violations(grid);
    let changed = givens.iter().filter(|&&(cell, digit)| grid.get(cell) != digit);
    violations.extend(changed.map(|&(cell, given)| crate::model::check::Violation::GivenChanged {
        cell,
        given,
        found: grid.get(cell),
    }));
    let named = violations.first().map_or_else(|| "a violation the checker did not name".into(), |v| v.to_string());
    Err(CountError::NotASolution(named))
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;

    /// Keeps every model a run shows.
    struct Keep(Vec<Grid>);

    impl Observer for Keep {
        fn wants_models(&self) -> bool {
            true
        }

        fn model(&mut self, _index: u128, grid: &Grid) -> ControlFlow<()> {
            self.0.push(grid.clone());
            ControlFlow::Continue(())
        }
    }

    /// The 4x4 grid has 288 solutions (a known count; also the oracle's in
    /// tests/it/family.rs). Fixing the first row leaves 288 / 4! = 12; a
    /// puzzle with a clash leaves none; one engine answers all three in
    /// turn, in any order, and a different layout does not fit.
    #[test]
    fn one_engine_counts_puzzles_that_differ_in_their_givens() {
        let empty = Puzzle::sudoku(2, 2).unwrap();
        let mut row = empty.clone();
        for (c, d) in [(0, 1), (1, 2), (2, 3), (3, 4)] {
            row.set_given(Cell::new(0, c), d).unwrap();
        }
        let mut clash = empty.clone();
        clash.set_given(Cell::new(0, 0), 1).unwrap();
        clash.set_given(Cell::new(3, 0), 1).unwrap();
        let mut prepared = Prepared::new(&row, &Encoding::default(), EngineKind::Enum, None);
        assert!(!prepared.fits(&Puzzle::latin(4).unwrap(), EngineKind::Enum));
        for (puzzle, expected) in [(&row, 12), (&empty, 288), (&clash, 0), (&row, 12), (&clash, 0), (&empty, 288)] {
            let mut kept = Keep(Vec::new());
            prepared.start(puzzle, &[]).unwrap();
            assert_eq!(prepared.run(Until::default(), &mut kept).unwrap(), Stop::Complete);
            assert_eq!(prepared.found(), expected);
            assert!(kept.0.iter().all(|g| puzzle.givens().all(|(cell, d)| g.get(cell) == d)));
        }
        prepared.start(&empty, &[]).unwrap();
        let until = Until { max: Some(2), ..Until::default() };
        assert_eq!(prepared.run(until, &mut ()).unwrap(), Stop::MaxReached);
        assert_eq!(prepared.found(), 2);
    }

    /// A run stopped by its decision budget goes on from where it stopped:
    /// the two runs together find the 288 grids of the 4x4 Sudoku once.
    #[test]
    fn a_run_halted_by_its_budget_goes_on_where_it_stopped() {
        let empty = Puzzle::sudoku(2, 2).unwrap();
        let mut prepared = Prepared::new(&empty, &Encoding::default(), EngineKind::Enum, None);
        prepared.start(&empty, &[]).unwrap();
        let mut kept = Keep(Vec::new());
        let first = prepared.run(Until { decisions: Some(40), ..Until::default() }, &mut kept).unwrap();
        assert_eq!(first, Stop::Budget);
        assert!(kept.0.len() < 288);
        assert_eq!(prepared.run(Until::default(), &mut kept).unwrap(), Stop::Complete);
        let distinct: std::collections::HashSet<_> = kept.0.iter().collect();
        assert_eq!((kept.0.len(), distinct.len()), (288, 288));
    }
}
