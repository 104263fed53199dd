//! Counting engines behind one interface. An engine is an iterator of models
//! (as grids); [`count_models`] drives it, checks every grid against the
//! puzzle with the independent checker, and applies the limits.

pub mod band_join;
pub mod band_orbits;
pub mod bands;
pub mod blocking;
pub mod box_orbits;
pub mod burnside;
mod choices;
mod csr;
mod disjoint;
pub mod dlx;
mod drive;
pub mod enumerate;
pub mod grid;
mod halt;
pub mod many;
pub mod plan;
mod pool;
mod prepared;
mod split;
pub mod symmetry;
mod takuzu;

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use varisat::Lit;

use crate::encode::Encoded;
use crate::model::{Grid, Puzzle};
pub use drive::{count_cube, count_models};
use enumerate::Enumerate;
use pool::Pool;

crate::named_enum! {
    /// The engines the CLI offers.
    pub enum EngineKind = Enum {
        /// varisat with one blocking clause per model, until UNSAT.
        Blocking = "blocking",
        /// Non-blocking DPLL enumeration with chronological backtracking, which
        /// learns from its conflicts when they are frequent: the plan's engine
        /// for every puzzle the grid engine does not take.
        Enum = "enum",
        /// Candidate bitsets with naked and hidden singles, for puzzles made
        /// only of all-different groups, givens, allowed digits and pairs of
        /// different digits (classic, jigsaw, Latin, diagonals, odd/even,
        /// anti-knight): the plan's engine for those. Asked for, it also
        /// counts relations of any kind between two cells (nonconsecutive,
        /// Kropki, thermometer steps).
        Grid = "grid",
        /// Knuth's Algorithm X with dancing links on the puzzle's exact cover
        /// problem (seed 002): groups, givens, allowed digits and relations;
        /// it counts nodes as seed 002 reports them.
        Dlx = "dlx",
    }
}

/// What can go wrong while counting.
#[derive(Debug, thiserror::Error)]
pub enum CountError {
    #[error("SAT solver failed")]
    /// varisat failed.
    Solver(#[source] varisat::solver::SolverError),
    #[error("the SAT solver reported SAT without a model; this is a bug")]
    /// varisat said SAT but gave no model.
    NoModel,
    #[error("cannot start a counting thread")]
    /// A worker thread could not be started.
    Threads(#[source] std::io::Error),
    #[error("the solver returned a model that is not a grid")]
    /// A model did not decode to a grid.
    Decode(#[from] crate::encode::DecodeError),
    #[error("the solver returned a grid that breaks the puzzle ({0}); this is a bug in satsudoku")]
    /// A model broke the puzzle (the checker caught the engine out).
    NotASolution(String),
    #[error("the SAT solver's thread ended before it answered; this is a bug in satsudoku")]
    /// The thread a varisat solver runs on (see [`blocking`]) ended
    /// before it answered: it panicked.
    SolverThread,
    #[error("the search was stopped before it could decide")]
    /// A search was stopped (interrupt or time) before it could answer.
    Stopped,
    #[error("{0}")]
    /// The count asked for does not apply to the puzzle.
    Unsupported(String),
    #[error(transparent)]
    /// The work would not fit under the memory limit (an estimate, made
    /// before it was started; see [`crate::memory`]).
    Memory(#[from] crate::memory::TooLarge),
}

/// Literals that restrict a count to part of the search (see
/// [`Engine::start_cube`]).
pub type Cube = Vec<Lit>;

/// One engine run: each call to [`Engine::step`] yields another model of the
/// current cube (in any order, each exactly once), or `None` when there are no
/// more or the engine was told to stop.
pub trait Engine {
    /// Restricts the next steps to the models that make every literal of
    /// `cube` true (the empty cube: every model). Cubes come from
    /// [`enumerate::Enumerate::split`].
    fn start_cube(&mut self, cube: &[Lit]) -> Result<(), CountError>;
    /// The next model of the current cube, `None` when there are no more
    /// (or the engine was told to stop); the engine keeps it until the
    /// next step, so that it may write every model into one grid (the
    /// grid engine does).
    fn step(&mut self) -> Result<Option<&Grid>, CountError>;
    /// After [`Engine::step`] returned `None` because of the stop flag: the
    /// rest of the current cube as disjoint cubes, so that the count can go
    /// on elsewhere; `None` if the engine cannot say.
    fn remaining(&self) -> Option<Vec<Cube>> {
        None
    }
    /// What the search has done so far.
    fn stats(&self) -> SearchStats;
    /// Makes [`Engine::step`] return `None` once `decisions` more decisions
    /// are made, with the rest of the cube left for [`Engine::remaining`]
    /// (engines that count decisions; the others ignore it).
    fn halt_after(&mut self, _decisions: u64) {}
    /// Whether the last `None` of [`Engine::step`] came from the stop flag
    /// or [`Engine::halt_after`], not from the end of the cube.
    fn halted(&self) -> bool {
        false
    }
}

/// Search effort. varisat 0.2 exposes no statistics of its own, so for the
/// blocking engine only the SAT calls are known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// SAT solver calls (0 for engines that do not call one).
    pub sat_calls: u64,
    /// Branches tried by an engine's own search.
    pub decisions: Option<u64>,
    /// Branches that ended in a propagation conflict.
    pub conflicts: Option<u64>,
    /// Implied clauses an engine added to the formula before searching (the
    /// same in every thread, so sums keep the largest).
    pub derived_clauses: Option<u64>,
    /// Clauses an engine learnt from conflicts (the deleted included).
    pub learnt_clauses: Option<u64>,
}

impl SearchStats {
    /// What was done after `before`, taken from the same engine.
    pub fn since(self, before: SearchStats) -> SearchStats {
        let sub = |a: Option<u64>, b: Option<u64>| a.map(|a| a.saturating_sub(b.unwrap_or(0)));
        SearchStats {
            sat_calls: self.sat_calls.saturating_sub(before.sat_calls),
            decisions: sub(self.decisions, before.decisions),
            conflicts: sub(self.conflicts, before.conflicts),
            derived_clauses: self.derived_clauses,
            learnt_clauses: sub(self.learnt_clauses, before.learnt_clauses),
        }
    }
}

impl std::fmt::Display for SearchStats {
    /// Search effort, as `--stats` prints it (one item a line).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let known = |x: Option<u64>| x.map_or_else(|| "n/a".to_owned(), |x| x.to_string());
        write!(
            f,
            "sat calls: {}\ndecisions: {}\nconflicts: {}\nderived clauses: {}\nlearnt clauses: {}",
            self.sat_calls,
            known(self.decisions),
            known(self.conflicts),
            known(self.derived_clauses),
            known(self.learnt_clauses)
        )
    }
}

impl std::ops::AddAssign for SearchStats {
    fn add_assign(&mut self, other: SearchStats) {
        let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        };
        self.sat_calls += other.sat_calls;
        self.decisions = add(self.decisions, other.decisions);
        self.conflicts = add(self.conflicts, other.conflicts);
        self.derived_clauses = self.derived_clauses.max(other.derived_clauses);
        self.learnt_clauses = add(self.learnt_clauses, other.learnt_clauses);
    }
}

/// Starts an engine of `kind` on an encoded puzzle; it returns early once
/// `stop` is set. The enum engine gives part of its search to `pool` when
/// a worker waits there.
pub fn engine<'a>(
    kind: EngineKind,
    puzzle: &Puzzle,
    encoded: &'a Encoded,
    stop: &'a AtomicBool,
    pool: &'a Pool,
) -> Box<dyn Engine + 'a> {
    match kind {
        EngineKind::Blocking => Box::new(blocking::Blocking::new(encoded).with_choices(puzzle).stop_when(stop)),
        EngineKind::Enum => Box::new(Enumerate::new(puzzle, encoded).stop_when(stop).share_with(pool)),
        EngineKind::Grid => Box::new(grid::GridSearch::new(puzzle, encoded).stop_when(stop).share_with(pool)),
        EngineKind::Dlx => Box::new(dlx::Dlx::new(puzzle, &encoded.vars).stop_when(stop)),
    }
}

/// Which engine runs, on how many threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// The engine.
    pub engine: EngineKind,
    /// Worker threads. Above 1 the count is split into cubes that the
    /// workers take from a pool, and their counts are summed: the enum
    /// engine splits its cube when a worker waits, the blocking engine's
    /// count is split before it starts (see [`enumerate::Enumerate::split`]).
    pub jobs: usize,
}

/// The set bits of a word, lowest first (cells of a grid of up to 128).
pub(crate) fn bits(mut word: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let at = word.trailing_zeros() as usize;
            word &= word - 1;
            at
        })
    })
}

/// The threads the machine can run at once (1 if it cannot say).
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

impl From<EngineKind> for Search {
    fn from(engine: EngineKind) -> Search {
        Search { engine, jobs: 1 }
    }
}

/// What the caller sees of a count while it runs.
pub trait Observer {
    /// Whether [`Observer::model`] should see every model. Models then travel
    /// from the worker threads to the calling thread, which costs a little.
    fn wants_models(&self) -> bool {
        false
    }
    /// The `index`th model (from 1, in the order the workers found them).
    fn model(&mut self, _index: u128, _grid: &Grid) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// Whether [`Observer::progress`] should be called every few
    /// milliseconds (a count that would otherwise run on the calling
    /// thread then runs on a worker while the calling thread reports).
    fn wants_progress(&self) -> bool {
        false
    }
    /// Called every few milliseconds with the models found so far.
    fn progress(&mut self, _models: u128, _elapsed: Duration) {}
}

/// Counts without looking.
impl Observer for () {}

/// Shows each model to a function, which says whether to go on (`true`)
/// or to stop the count there (`false`).
pub struct Each<'f>(pub &'f mut dyn FnMut(&Grid) -> bool);

impl Observer for Each<'_> {
    fn wants_models(&self) -> bool {
        true
    }

    fn model(&mut self, _index: u128, grid: &Grid) -> ControlFlow<()> {
        if (self.0)(grid) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }
}

/// When to stop before the count is complete.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop once this many models are found.
    pub max: Option<u128>,
    /// Stop after this long.
    pub timeout: Option<Duration>,
    /// Stop when this flag is set, e.g. by Ctrl-C.
    pub interrupt: Option<&'static AtomicBool>,
}

/// Why a count ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every model was found: the count is exact.
    Complete,
    /// `--max` models were found and more exist: the count is a lower bound.
    MaxReached,
    /// The time limit passed: the count is a lower bound.
    Timeout,
    /// The caller's callback asked to stop.
    Caller,
    /// The interrupt flag was set: the count is a lower bound.
    Interrupted,
    /// A step's budget of decisions ran out (the counting plan probes a
    /// count this way before it chooses how to go on); never how a whole
    /// count ends.
    Budget,
}

/// The result of a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Models found; exact when `stop` is [`Stop::Complete`].
    pub models: u128,
    /// Why the count ended.
    pub stop: Stop,
    /// The engines' effort.
    pub stats: SearchStats,
    /// Time from the start.
    pub elapsed: Duration,
    /// Time from the start of the count to the first model, if any.
    pub first: Option<Duration>,
}

impl Count {
    /// Whether every model was found.
    pub fn is_exact(&self) -> bool {
        self.stop == Stop::Complete
    }
}
