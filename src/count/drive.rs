//! The count itself: workers on threads take cubes from a [`Pool`], run an
//! engine on each, check every model with the independent checker, and
//! add up; the calling thread watches the limits and shows progress. A
//! count may start on one thread and go on from its frontier on several.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use super::enumerate::Enumerate;
use super::pool::Pool;
use super::prepared::check_model;
use super::{engine, Count, CountError, Cube, EngineKind, Limits, Observer, Search, SearchStats, Stop};
use crate::encode::Encoded;
use crate::model::{check, Grid, Puzzle};

/// How often the calling thread looks at the clock, the interrupt flag and
/// the progress while workers count.
const TICK: Duration = Duration::from_millis(20);

/// Cubes per worker thread for the blocking engine: enough that one slow
/// cube does not leave the other threads idle for long.
const CUBES_PER_JOB: usize = 32;

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
    checker: check::Checker,
    /// Decisions each worker may make; set when one has made them.
    budget: Option<u64>,
    spent: AtomicBool,
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
    if let Some(budget) = shared.budget {
        engine.halt_after(budget);
    }
    let mut found: u128 = 0;
    let mut remaining = Some(Vec::new());
    let mut finished = false;
    'cubes: while let Some(cube) = shared.pool.take(finished, &shared.stop) {
        finished = true;
        engine.start_cube(&cube)?;
        while let Some(grid) = engine.step()? {
            check_model(&shared.checker, &[], grid)?;
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
                if models.send(grid.clone()).is_err() {
                    remaining = None; // the caller stopped listening
                    shared.stop.store(true, Ordering::Relaxed);
                    break 'cubes;
                }
            }
            if shared.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        if engine.halted() && !shared.stop.load(Ordering::Relaxed) {
            // This worker's budget is spent: every worker stops.
            shared.spent.store(true, Ordering::Relaxed);
            shared.stop.store(true, Ordering::Relaxed);
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
/// flag between models and, for the enum engine, every 16 decisions. This is
/// plain enumeration: the counting plan ([`super::plan`]) decides when a
/// puzzle is counted another way.
pub fn count_models(
    puzzle: &Puzzle,
    encoded: &Encoded,
    search: impl Into<Search>,
    limits: Limits,
    observer: &mut impl Observer,
) -> Result<Count, CountError> {
    let search = search.into();
    let resume = Resume::default();
    Ok(count_on(puzzle, encoded, search.engine, search.jobs, limits, observer, Instant::now(), resume)?.0)
}

/// [`count_models`] of the models that make every literal of `cube` true:
/// one cube of a split count (see [`crate::cluster`]), counted on
/// `search.jobs` threads.
pub fn count_cube(
    puzzle: &Puzzle,
    encoded: &Encoded,
    search: impl Into<Search>,
    limits: Limits,
    observer: &mut impl Observer,
    cube: Cube,
) -> Result<Count, CountError> {
    let search = search.into();
    let resume = Resume { cubes: Some(vec![cube]), ..Resume::default() };
    Ok(count_on(puzzle, encoded, search.engine, search.jobs, limits, observer, Instant::now(), resume)?.0)
}

/// Where [`count_on`] starts: the whole search, or the cubes left by an
/// earlier count that found `found` models; and, with a `budget`, where
/// it stops early: once a worker has made that many decisions, every
/// worker stops, the count is `Stop::Budget`, and what is left comes back
/// as cubes (engines that count decisions: `enum` and `grid`).
#[derive(Default)]
pub(crate) struct Resume {
    pub(crate) cubes: Option<Vec<Cube>>,
    pub(crate) found: u128,
    pub(crate) budget: Option<u64>,
}

/// [`count_models`] on `jobs` threads from `resume`, with times measured
/// from `start`; also what is left to count if it stopped early (`None` if
/// unknown).
#[allow(clippy::too_many_arguments)]
pub(crate) fn count_on(
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
    if let Some(why) = (engine == EngineKind::Grid).then(|| super::grid::unfit(puzzle, encoded.vars.digits())).flatten()
    {
        return Err(CountError::Unsupported(format!("the grid engine cannot count this puzzle: {why}")));
    }
    let cubes = resume.cubes.unwrap_or_else(|| vec![Vec::new()]);
    let (cubes, workers) = match engine {
        // The enum engine splits its cube whenever a worker waits.
        EngineKind::Enum | EngineKind::Grid => (cubes, jobs),
        // Blocking counts in cubes even on one thread: each cube's blocking
        // clauses retire when it is done, so the solver does not slow down
        // as they pile up (bench/results/design-notes.md).
        // Dancing links split before they start too: the cubes become
        // forced and removed options.
        EngineKind::Blocking | EngineKind::Dlx => {
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
        budget: resume.budget,
        spent: AtomicBool::new(false),
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
        let mut handles = Vec::with_capacity(workers);
        for _ in 0..workers {
            // Each worker holds a sender until it ends, so the channel
            // disconnects exactly when the last worker is done.
            let sender = sender.clone();
            let shared = &shared;
            let worker = move || {
                let result = work(shared, engine, wants_models.then_some(&sender));
                if result.is_err() {
                    shared.stop.store(true, Ordering::Relaxed);
                }
                result
            };
            // The system may refuse a thread: count on those started.
            match std::thread::Builder::new().spawn_scoped(scope, worker) {
                Ok(handle) => handles.push(handle),
                Err(err) if handles.is_empty() => return Err(CountError::Threads(err)),
                Err(_) => break,
            }
        }
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
        Ok(handles.into_iter().map(|h| h.join().expect("a counting thread panicked")).collect::<Vec<_>>())
    })?;
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
        None if shared.spent.load(Ordering::Relaxed) => Stop::Budget,
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
