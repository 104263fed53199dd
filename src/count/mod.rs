//! Counting engines behind one interface. An engine is an iterator of models
//! (as grids); [`count_models`] drives it, checks every grid against the
//! puzzle with the independent checker, and applies the limits.

pub mod blocking;
pub mod enumerate;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::encode::Encoded;
use crate::model::{check, Grid, Puzzle};

/// The engines the CLI offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum EngineKind {
    /// varisat with one blocking clause per model, until UNSAT.
    #[default]
    Blocking,
    /// Non-blocking DPLL enumeration with chronological backtracking.
    Enum,
}

impl EngineKind {
    pub const ALL: [EngineKind; 2] = [EngineKind::Blocking, EngineKind::Enum];
}

/// What can go wrong while counting.
#[derive(Debug, thiserror::Error)]
pub enum CountError {
    #[error("SAT solver failed: {0}")]
    Solver(String),
    #[error("the solver returned a model that is not a grid: {0}")]
    Decode(#[from] crate::encode::DecodeError),
    #[error("the solver returned a grid that breaks the puzzle ({0}); this is a bug in satsudoku")]
    NotASolution(String),
}

/// One engine run: each call yields another model (in any order, each exactly
/// once), or `None` when there are no more.
pub trait Engine {
    fn step(&mut self) -> Result<Option<Grid>, CountError>;
    /// What the search has done so far.
    fn stats(&self) -> SearchStats;
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
}

/// An engine as an iterator of models that ends after the last model or the
/// first error.
pub struct Models<'a> {
    engine: Box<dyn Engine + 'a>,
    done: bool,
}

impl Models<'_> {
    pub fn stats(&self) -> SearchStats {
        self.engine.stats()
    }
}

impl Iterator for Models<'_> {
    type Item = Result<Grid, CountError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let step = self.engine.step();
        self.done = !matches!(step, Ok(Some(_)));
        step.transpose()
    }
}

/// Starts `engine` on an encoded puzzle.
pub fn models<'a>(engine: EngineKind, puzzle: &Puzzle, encoded: &'a Encoded) -> Models<'a> {
    let engine: Box<dyn Engine + 'a> = match engine {
        EngineKind::Blocking => Box::new(blocking::Blocking::new(encoded)),
        EngineKind::Enum => Box::new(enumerate::Enumerate::new(puzzle, encoded)),
    };
    Models { engine, done: false }
}

/// When to stop before the count is complete.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop once this many models are found.
    pub max: Option<u128>,
    /// Stop after this long (checked between models).
    pub timeout: Option<Duration>,
    /// Stop when this flag is set, e.g. by Ctrl-C (checked between models).
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
}

/// The result of a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Models found; exact when `stop` is [`Stop::Complete`].
    pub models: u128,
    pub stop: Stop,
    pub stats: SearchStats,
    pub elapsed: Duration,
    /// Time from the start of the count to the first model, if any.
    pub first: Option<Duration>,
}

impl Count {
    pub fn is_exact(&self) -> bool {
        self.stop == Stop::Complete
    }
}

/// Counts the solutions of `puzzle` with `engine`, calling `on_solution` for
/// each, and checks every solution against the puzzle (never trusting the solver).
pub fn count_models(
    puzzle: &Puzzle,
    encoded: &Encoded,
    engine: EngineKind,
    limits: Limits,
    mut on_solution: impl FnMut(u128, &Grid) -> ControlFlow<()>,
) -> Result<Count, CountError> {
    let start = Instant::now();
    let mut models = models(engine, puzzle, encoded);
    let mut found: u128 = 0;
    let mut first = None;
    let finish = |models: Models, found, stop, first| {
        Ok(Count { models: found, stop, stats: models.stats(), elapsed: start.elapsed(), first })
    };
    loop {
        if limits.timeout.is_some_and(|t| start.elapsed() >= t) {
            return finish(models, found, Stop::Timeout, first);
        }
        if limits.interrupt.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return finish(models, found, Stop::Interrupted, first);
        }
        let Some(grid) = models.next() else {
            return finish(models, found, Stop::Complete, first);
        };
        let grid = grid?;
        first.get_or_insert_with(|| start.elapsed());
        if let Some(first) = check::violations(puzzle, &grid).first() {
            return Err(CountError::NotASolution(first.to_string()));
        }
        if limits.max.is_some_and(|max| found >= max) {
            return finish(models, found, Stop::MaxReached, first);
        }
        found += 1;
        if on_solution(found, &grid).is_break() {
            return finish(models, found, Stop::Caller, first);
        }
    }
}
