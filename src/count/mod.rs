//! Counting engines behind one interface. An engine is an iterator of models
//! (as grids); [`count_models`] drives it, checks every grid against the
//! puzzle with the independent checker, and applies the limits.

pub mod blocking;
pub mod enumerate;
pub mod pool;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use varisat::Lit;

use crate::encode::{DigitEncoding, Encoded};
use crate::model::{check, Grid, Puzzle};
use enumerate::Enumerate;
use pool::Pool;

crate::named_enum! {
    /// The engines the CLI offers.
    pub enum EngineKind = Enum {
        /// varisat with one blocking clause per model, until UNSAT.
        Blocking = "blocking",
        /// Non-blocking DPLL enumeration with chronological backtracking: the
        /// fastest on every bundled and benchmark instance (see the README),
        /// except with log digits.
        Enum = "enum",
    }
}

impl EngineKind {
    /// The engine `count` uses when none is asked for: `enum`, except with
    /// log digits, where its search without learning is 15x to 170x slower
    /// than `blocking` (many.lp 11.7 s against 0.85 s, some.lp 19 s against
    /// 0.11 s, one thread).
    pub fn fastest_for(digits: DigitEncoding) -> EngineKind {
        match digits {
            DigitEncoding::Log => EngineKind::Blocking,
            DigitEncoding::Direct | DigitEncoding::Order => EngineKind::Enum,
        }
    }
}

/// What can go wrong while counting.
#[derive(Debug, thiserror::Error)]
pub enum CountError {
    #[error("SAT solver failed")]
    Solver(#[source] varisat::solver::SolverError),
    #[error("the SAT solver reported SAT without a model; this is a bug")]
    NoModel,
    #[error("the solver returned a model that is not a grid: {0}")]
    Decode(#[from] crate::encode::DecodeError),
    #[error("the solver returned a grid that breaks the puzzle ({0}); this is a bug in satsudoku")]
    NotASolution(String),
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
    fn step(&mut self) -> Result<Option<Grid>, CountError>;
    /// After [`Engine::step`] returned `None` because of the stop flag: the
    /// rest of the current cube as disjoint cubes, so that the count can go
    /// on elsewhere; `None` if the engine cannot say.
    fn remaining(&self) -> Option<Vec<Cube>> {
        None
    }
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
    /// Implied clauses an engine added to the formula before searching (the
    /// same in every thread, so sums keep the largest).
    pub derived_clauses: Option<u64>,
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
        EngineKind::Blocking => Box::new(blocking::Blocking::new(encoded).stop_when(stop)),
        EngineKind::Enum => Box::new(Enumerate::new(puzzle, encoded).stop_when(stop).share_with(pool)),
    }
}

/// Which engine runs, on how many threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    pub engine: EngineKind,
    /// Worker threads. Above 1 the count is split into cubes that the
    /// workers take from a [`Pool`], and their counts are summed: the enum
    /// engine splits its cube when a worker waits, the blocking engine's
    /// count is split before it starts (see [`enumerate::Enumerate::split`]).
    pub jobs: usize,
    /// Count on one thread for this long first, and go on from where it
    /// stopped on `jobs` threads only if that did not finish: starting the
    /// threads costs about two milliseconds, which short counts (most
    /// puzzles) do not win back. When the observer wants every model, the
    /// count stays on one thread.
    pub probe: Option<Duration>,
}

impl Search {
    /// How long [`Search::auto`] counts on one thread before it splits.
    /// 5 ms: contest puzzles finish within it; on the many-solution
    /// instances it was faster than 20 ms (high4.lp: 73 against 85 ms).
    pub const PROBE: Duration = Duration::from_millis(5);

    /// `engine` on every core, after a one-thread probe of [`Search::PROBE`].
    pub fn auto(engine: EngineKind) -> Search {
        Search { engine, jobs: all_cores(), probe: Some(Search::PROBE) }
    }
}

/// The threads the machine can run at once (1 if it cannot say).
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

impl From<EngineKind> for Search {
    fn from(engine: EngineKind) -> Search {
        Search { engine, jobs: 1, probe: None }
    }
}

/// Cubes per worker thread for the blocking engine: enough that one slow
/// cube does not leave the other threads idle for long.
const CUBES_PER_JOB: usize = 32;

/// How often the calling thread looks at the clock, the interrupt flag and
/// the progress while workers count.
const TICK: Duration = Duration::from_millis(20);

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
    /// Called every few milliseconds with the models found so far.
    fn progress(&mut self, _models: u128, _elapsed: Duration) {}
}

/// Counts without looking.
impl Observer for () {}

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

/// What the workers share.
struct Shared<'a> {
    pool: Pool,
    /// Set to end every worker early.
    stop: AtomicBool,
    /// Models counted so far by all workers (for `--max` and progress; a
    /// count that could overflow it would take centuries).
    found: AtomicU64,
    max: Option<u128>,
    /// Nanoseconds from the start to the first model.
    first: AtomicU64,
    start: Instant,
    encoded: &'a Encoded,
    /// The independent checker, and the puzzle the engines count.
    checker: check::Checker<'a>,
}

impl Shared<'_> {
    /// Counts one more model unless `--max` are counted already.
    fn admit(&self) -> bool {
        let index = self.found.fetch_add(1, Ordering::Relaxed) + 1;
        let admitted = self.max.is_none_or(|max| u128::from(index) <= max);
        if !admitted {
            self.stop.store(true, Ordering::Relaxed);
        }
        admitted
    }
}

/// What one worker did.
struct Worked {
    found: u128,
    stats: SearchStats,
    /// What is left of the cube it was counting when it stopped (see
    /// [`Engine::remaining`]); empty if it stopped between cubes, `None` if
    /// unknown.
    remaining: Option<Vec<Cube>>,
}

/// One worker thread: takes cubes until none are left or the count stops.
fn work(shared: &Shared, kind: EngineKind, models: Option<&SyncSender<Grid>>) -> Result<Worked, CountError> {
    let mut engine = engine(kind, shared.checker.puzzle(), shared.encoded, &shared.stop, &shared.pool);
    let mut found: u128 = 0;
    let mut remaining = Some(Vec::new());
    let mut finished = false;
    'cubes: while let Some(cube) = shared.pool.take(finished, &shared.stop) {
        finished = true;
        engine.start_cube(&cube)?;
        while let Some(grid) = engine.step()? {
            if !shared.checker.solves(&grid) {
                let violations = shared.checker.violations(&grid);
                return Err(CountError::NotASolution(
                    violations.first().map_or_else(|| "a violation the checker did not name".into(), |v| v.to_string()),
                ));
            }
            if !shared.admit() {
                remaining = None; // this model is in no cube any more
                break 'cubes;
            }
            found += 1;
            if found == 1 {
                let nanos = u64::try_from(shared.start.elapsed().as_nanos()).unwrap_or(u64::MAX);
                shared.first.fetch_min(nanos, Ordering::Relaxed);
            }
            if let Some(models) = models {
                if models.send(grid).is_err() {
                    remaining = None; // the caller stopped listening
                    shared.stop.store(true, Ordering::Relaxed);
                    break 'cubes;
                }
            }
            if shared.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        if shared.stop.load(Ordering::Relaxed) {
            remaining = engine.remaining();
            break;
        }
    }
    Ok(Worked { found, stats: engine.stats(), remaining })
}

/// Counts the solutions of `puzzle` on `search.jobs` threads, shows each to
/// `observer` if it asks, and checks every solution against the puzzle with the
/// independent checker (never trusting the solver). The calling thread watches
/// the time limit and the interrupt flag; the engines look at a shared stop
/// flag between models and, for the enum engine, every 16 decisions.
pub fn count_models(
    puzzle: &Puzzle,
    encoded: &Encoded,
    search: impl Into<Search>,
    limits: Limits,
    observer: &mut impl Observer,
) -> Result<Count, CountError> {
    let search = search.into();
    let start = Instant::now();
    let Some(probe) = search.probe.filter(|_| search.jobs > 1) else {
        return Ok(count_on(puzzle, encoded, search.engine, search.jobs, limits, observer, start, Resume::default())?.0);
    };
    if observer.wants_models() {
        // Starting over would show models twice; one thread keeps their order.
        return Ok(count_on(puzzle, encoded, search.engine, 1, limits, observer, start, Resume::default())?.0);
    }
    let budget = limits.timeout.map_or(probe, |t| t.min(probe));
    let probed = Limits { timeout: Some(budget), ..limits };
    let (first, remaining) = count_on(puzzle, encoded, search.engine, 1, probed, observer, start, Resume::default())?;
    if first.stop != Stop::Timeout || limits.timeout.is_some_and(|t| t <= probe) {
        return Ok(first);
    }
    // The enum engine hands over its frontier, so no work is lost; the
    // blocking engine starts over.
    let resume = match remaining {
        Some(cubes) => Resume { cubes: Some(cubes), found: first.models },
        None => Resume::default(),
    };
    let mut count = count_on(puzzle, encoded, search.engine, search.jobs, limits, observer, start, resume)?.0;
    count.stats += first.stats;
    count.first = first.first.or(count.first);
    Ok(count)
}

/// Where [`count_on`] starts: the whole search, or the cubes left by an
/// earlier count that found `found` models.
#[derive(Default)]
struct Resume {
    cubes: Option<Vec<Cube>>,
    found: u128,
}

/// [`count_models`] on `jobs` threads from `resume`, with times measured
/// from `start`; also what is left to count if it stopped early (`None` if
/// unknown).
#[allow(clippy::too_many_arguments)]
fn count_on(
    puzzle: &Puzzle,
    encoded: &Encoded,
    engine: EngineKind,
    jobs: usize,
    limits: Limits,
    observer: &mut impl Observer,
    start: Instant,
    resume: Resume,
) -> Result<(Count, Option<Vec<Cube>>), CountError> {
    let jobs = jobs.max(1);
    let cubes = resume.cubes.unwrap_or_else(|| vec![Vec::new()]);
    let (cubes, workers) = match engine {
        // The enum engine splits its cube whenever a worker waits.
        EngineKind::Enum => (cubes, jobs),
        // Blocking counts in cubes even on one thread: each cube's blocking
        // clauses retire when it is done, so the solver does not slow down
        // as they pile up (high4.lp, 12,424 models on one thread: 14.5 s in
        // one piece).
        EngineKind::Blocking => {
            let cubes = Enumerate::new(puzzle, encoded).split_further(cubes, jobs * CUBES_PER_JOB);
            let workers = jobs.min(cubes.len()).max(1);
            (cubes, workers)
        }
    };
    let (sender, receiver) = std::sync::mpsc::sync_channel(1024);
    let shared = Shared {
        pool: Pool::new(cubes),
        stop: AtomicBool::new(false),
        found: AtomicU64::new(u64::try_from(resume.found).unwrap_or(u64::MAX)),
        max: limits.max,
        first: AtomicU64::new(u64::MAX),
        start,
        encoded,
        checker: check::Checker::new(puzzle),
    };
    let wants_models = observer.wants_models();
    let limit_reached = || {
        if limits.timeout.is_some_and(|t| start.elapsed() >= t) {
            Some(Stop::Timeout)
        } else if limits.interrupt.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            Some(Stop::Interrupted)
        } else {
            None
        }
    };
    // Keeps the first reason to stop and tells every worker.
    let halt = |stop: &mut Option<Stop>, reason: Option<Stop>| {
        if stop.is_none() && reason.is_some() {
            *stop = reason;
            shared.stop.store(true, Ordering::Relaxed);
        }
    };
    let mut stop = None;
    halt(&mut stop, limit_reached());
    let results = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                // Each worker holds a sender until it ends, so the channel
                // disconnects exactly when the last worker is done.
                let sender = sender.clone();
                let shared = &shared;
                scope.spawn(move || {
                    let result = work(shared, engine, wants_models.then_some(&sender));
                    if result.is_err() {
                        shared.stop.store(true, Ordering::Relaxed);
                    }
                    result
                })
            })
            .collect();
        drop(sender);
        let mut shown: u128 = 0;
        loop {
            halt(&mut stop, limit_reached());
            // Wakes at the time limit, not up to a tick after it.
            let until_limit = limits.timeout.filter(|_| stop.is_none()).map(|t| t.saturating_sub(start.elapsed()));
            match receiver.recv_timeout(until_limit.map_or(TICK, |left| left.min(TICK))) {
                Ok(grid) => {
                    shown += 1;
                    if stop.is_none() && observer.model(shown, &grid).is_break() {
                        halt(&mut stop, Some(Stop::Caller));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            observer.progress(u128::from(shared.found.load(Ordering::Relaxed)), start.elapsed());
        }
        handles.into_iter().map(|h| h.join().expect("a counting thread panicked")).collect::<Vec<_>>()
    });
    let (mut models, mut stats) = (resume.found, SearchStats::default());
    let mut remaining = Some(shared.pool.take_left());
    for result in results {
        let worked = result?;
        models += worked.found;
        stats += worked.stats;
        remaining = remaining.zip(worked.remaining).map(|(mut all, left)| {
            all.extend(left);
            all
        });
    }
    let max_reached = limits.max.is_some_and(|max| u128::from(shared.found.load(Ordering::Relaxed)) > max);
    let stop = match stop {
        Some(stop) => stop,
        None if max_reached => Stop::MaxReached,
        // A worker may have seen the stop flag only because another hit --max.
        None => Stop::Complete,
    };
    let first = shared.first.load(Ordering::Relaxed);
    let count = Count {
        models,
        stop,
        stats,
        elapsed: start.elapsed(),
        first: (first != u64::MAX).then(|| Duration::from_nanos(first)),
    };
    Ok((count, remaining))
}
