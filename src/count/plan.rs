//! The counting plan: the one place that decides how a puzzle is counted.
//! Every path of the tool (a file, a collection's line, a batch, a cube,
//! `unique`, with or without `--stats`, `--print` or `--timeout`) counts
//! through a [`Counter`], so every path gets every method, decided here in
//! this order:
//!
//! 1. Every model wanted (`--print`), a bound on their number (`--max`),
//!    or shortcuts turned off (`compare`, which measures encodings): plain
//!    enumeration of the puzzle as it is.
//! 2. Otherwise the puzzle is reduced by the symmetry proven for it, if
//!    any ([`symmetry`]: digit relabelling and line permutations, the count
//!    multiplied by their number), and then
//!    - a Takuzu is counted a row at a time (`count::takuzu`), unless an
//!      engine is asked for;
//!    - a reduced puzzle that transposition maps onto itself is counted as
//!      `2L - F` ([`symmetry::Transposition`]);
//!    - anything else is enumerated: on one thread for its first
//!      [`PROBE_DECISIONS`] decisions (most puzzles are done by then); a
//!      count still going is split into the independent parts of its open
//!      cells where they fall apart (`count::split`), or goes on on every
//!      thread from where the probe stopped.
//!
//! The probe is a number of decisions, not a time, so that a puzzle gets
//! the same method on every path and every machine. [`Counter::judge`]
//! answers `unique`: the first two solutions, on the same prepared engine.

use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use num_bigint::BigUint;
use varisat::Lit;

use super::drive::{count_on, Resume};
use super::prepared::{Prepared, Until};
use super::symmetry::{self, Relabelling, Transposition};
use super::takuzu::Takuzu;
use super::{all_cores, split, CountError, EngineKind, Limits, Observer, SearchStats, Stop};
use crate::encode::{encode, Encoded, Encoding};
use crate::model::{Cell, Grid, Puzzle};

/// Decisions the enum engine makes on one thread before the plan looks
/// for independent parts or starts more threads: about a millisecond on a
/// 9x9 puzzle, so most puzzles are counted without either.
pub const PROBE_DECISIONS: u64 = 1 << 12;

crate::named_enum! {
    /// Whether a count may use symmetry.
    pub enum SymmetryUse = Auto {
        /// Relabelling, line permutations and transposition, wherever they are proven.
        Auto = "auto",
        /// Relabelling and line permutations, not transposition (to measure what it saves).
        NoTranspose = "no-transpose",
        /// No symmetry: every solution is enumerated.
        None = "none",
    }
}

/// How to count: everything that decides the method and bounds the count.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The encoding enumeration runs on.
    pub encoding: Encoding,
    /// The engine asked for; `None` lets the plan choose
    /// ([`EngineKind::fastest_for`] the encoding), and lets a Takuzu be
    /// counted by rows.
    pub engine: Option<EngineKind>,
    /// Which symmetries may reduce the count.
    pub symmetry: SymmetryUse,
    /// Whether methods other than enumeration may be used (false for
    /// `compare`, which measures the encodings' enumeration).
    pub shortcuts: bool,
    /// Threads for one puzzle; `None`: one for the probe, then every core
    /// (one only when every model is wanted, to keep their order).
    pub jobs: Option<usize>,
    /// When to stop early; the count is then a lower bound.
    pub limits: Limits,
    /// Whether to gather the lines `--stats` prints ([`Tally::details`]).
    pub details: bool,
    /// Decisions on one thread before parts are looked for or more threads
    /// start ([`PROBE_DECISIONS`]; smaller in tests of what follows).
    pub probe: u64,
}

impl Plan {
    /// The default plan for `encoding`: the plan's choice of engine and
    /// method, every symmetry, the default threads, no limits.
    pub fn new(encoding: Encoding) -> Plan {
        Plan {
            encoding,
            engine: None,
            symmetry: SymmetryUse::Auto,
            shortcuts: true,
            jobs: None,
            limits: Limits::default(),
            details: false,
            probe: PROBE_DECISIONS,
        }
    }

    /// The engine that enumerates.
    pub fn engine(&self) -> EngineKind {
        self.engine.unwrap_or_else(|| EngineKind::fastest_for(self.encoding.digits))
    }

    fn interrupted(&self) -> bool {
        self.limits.interrupt.is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

/// How a count was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// Every solution found one by one.
    Enumeration,
    /// A Takuzu counted a row at a time.
    TakuzuRows,
    /// The open cells' independent parts, counted apart and multiplied;
    /// the parts' sizes in cells.
    Parts(Vec<usize>),
    /// `2L - F` under a transposition.
    Transposition,
}

impl Method {
    /// The method's name, as `--output json` gives it.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Enumeration => "enumeration",
            Method::TakuzuRows => "takuzu-rows",
            Method::Parts(_) => "parts",
            Method::Transposition => "transposition",
        }
    }
}

/// The result of a count.
#[derive(Clone, Debug)]
pub struct Tally {
    /// The solutions: exact when `stop` is [`Stop::Complete`], else a
    /// lower bound.
    pub count: BigUint,
    /// The count before the symmetry factor: the puzzle as reduced.
    pub counted: BigUint,
    /// Why the count ended.
    pub stop: Stop,
    /// How it was made.
    pub method: Method,
    /// The symmetry reduction it used, if any.
    pub relabelling: Option<Relabelling>,
    /// What `--stats` prints, when the plan asked for it.
    pub details: Vec<String>,
    /// Time from the start of the count.
    pub elapsed: Duration,
}

impl Tally {
    /// Whether the count is exact.
    pub fn is_exact(&self) -> bool {
        self.stop == Stop::Complete
    }

    /// What the count is multiplied by for the symmetry (1 without).
    pub fn factor(&self) -> u128 {
        self.relabelling.as_ref().map_or(1, |r| r.factor)
    }

    /// Why the count is only a lower bound, if it is: the note `count`
    /// writes on stderr.
    pub fn lower_bound_note(&self) -> Option<String> {
        let elapsed = format!("{:.3} ms", self.elapsed.as_secs_f64() * 1e3);
        let rows = if self.method == Method::TakuzuRows {
            ": counting by rows gives no partial count, so the count is the lower bound 0"
        } else {
            ": the count is a lower bound"
        };
        Some(match self.stop {
            Stop::Complete => return None,
            Stop::MaxReached => {
                format!("stopped at --max {}: more solutions exist, the count is a lower bound", self.count)
            }
            Stop::Timeout | Stop::Budget => format!("stopped by --timeout after {elapsed}{rows}"),
            Stop::Interrupted => format!("interrupted after {elapsed}{rows}"),
            Stop::Caller => format!("stopped by its caller after {elapsed}: the count is a lower bound"),
        })
    }
}

/// What a puzzle's solutions are, up to the second.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No solution.
    None,
    /// Exactly one.
    Unique(Grid),
    /// Two different solutions (and perhaps more).
    Multiple(Grid, Grid),
}

impl Verdict {
    /// `none`, `unique` or `multiple`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::None => "none",
            Verdict::Unique(_) => "unique",
            Verdict::Multiple(..) => "multiple",
        }
    }

    /// The cells where the two solutions of `Multiple` differ.
    pub fn differing_cells(&self) -> Vec<Cell> {
        let Verdict::Multiple(a, b) = self else { return Vec::new() };
        let n = a.side();
        let cells = (0..n).flat_map(|r| (0..n).map(move |c| Cell::new(r, c)));
        cells.filter(|&cell| a.get(cell) != b.get(cell)).collect()
    }
}

/// Counts puzzles by the plan, one after another, keeping the engine of
/// the last layout for the next puzzle that shares it.
pub struct Counter {
    plan: Plan,
    prepared: Option<Prepared>,
}

/// Counts `puzzle` by `plan` (a [`Counter`] of one puzzle).
pub fn count(puzzle: &Puzzle, plan: &Plan, observer: &mut impl Observer) -> Result<Tally, CountError> {
    Counter::new(*plan).count(puzzle, observer)
}

/// What one enumeration found.
struct Enumerated {
    models: BigUint,
    stop: Stop,
    /// The independent parts it was split into (their sizes), if it was.
    parts: Option<Vec<usize>>,
    details: Vec<String>,
}

impl Counter {
    /// A counter with no engine prepared yet.
    pub fn new(plan: Plan) -> Counter {
        Counter { plan, prepared: None }
    }

    /// The plan it counts by.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Counts the solutions of `puzzle`, showing each to `observer` if it
    /// wants them; its progress reports the count as it would be printed.
    pub fn count(&mut self, puzzle: &Puzzle, observer: &mut impl Observer) -> Result<Tally, CountError> {
        let start = Instant::now();
        let plan = self.plan;
        let every = observer.wants_models() || plan.limits.max.is_some() || !plan.shortcuts;
        let reduced = symmetry::reduce(puzzle, !every && plan.symmetry != SymmetryUse::None);
        let factor = reduced.factor();
        let mut scaled = Scaled { inner: observer, factor, floor: 0 };
        let rows = (!every && plan.engine.is_none()).then(|| Takuzu::recognize(&reduced.puzzle)).flatten();
        let transposed = (!every && plan.symmetry == SymmetryUse::Auto).then(|| reduced.transposition()).flatten();
        let (counted, stop, method, mut details) = if let Some(takuzu) = rows {
            self.rows(&takuzu, start)
        } else if let Some(transposition) = transposed {
            self.transposed(&reduced.puzzle, &transposition, start, &mut scaled)?
        } else {
            let found = self.enumerate(&reduced.puzzle, &[], !every, start, &mut scaled)?;
            let method = found.parts.map_or(Method::Enumeration, Method::Parts);
            (found.models, found.stop, method, found.details)
        };
        if plan.details {
            if let Some(relabelling) = &reduced.relabelling {
                details.insert(0, relabelling.to_string());
            }
        }
        Ok(Tally {
            count: &counted * factor,
            counted,
            stop,
            method,
            relabelling: reduced.relabelling,
            details,
            elapsed: start.elapsed(),
        })
    }

    /// Counts the models of `puzzle` reduced by relabelling (when
    /// `symmetry`; the cube files of [`crate::cluster`] are made of that
    /// puzzle) that make every literal of `cube` true: one cube of a split
    /// count, enumerated.
    pub fn count_cube(
        &mut self,
        puzzle: &Puzzle,
        symmetry: bool,
        cube: &[Lit],
        observer: &mut impl Observer,
    ) -> Result<Tally, CountError> {
        let start = Instant::now();
        let reduced = symmetry::reduce(puzzle, symmetry);
        let factor = reduced.factor();
        let mut scaled = Scaled { inner: observer, factor, floor: 0 };
        let found = self.enumerate(&reduced.puzzle, cube, false, start, &mut scaled)?;
        let counted = found.models;
        Ok(Tally {
            count: &counted * factor,
            counted,
            stop: found.stop,
            method: Method::Enumeration,
            relabelling: reduced.relabelling,
            details: found.details,
            elapsed: start.elapsed(),
        })
    }

    /// The first two solutions of `puzzle`, each checked by the independent
    /// checker; an error if the search was stopped before it could decide.
    pub fn judge(&mut self, puzzle: &Puzzle) -> Result<Verdict, CountError> {
        let mut kept = Keep { grids: Vec::with_capacity(2), limit: 2 };
        let plan = Plan { limits: Limits { max: None, ..self.plan.limits }, ..self.plan };
        let stop = if plan.engine() == EngineKind::Enum {
            let until = Until {
                deadline: deadline(&plan, Instant::now()),
                interrupt: plan.limits.interrupt,
                ..Until::default()
            };
            let prepared = self.prepared_for(puzzle);
            prepared.start(puzzle, &[])?;
            prepared.run(until, &mut kept)?
        } else {
            let encoded = encode(puzzle, &plan.encoding);
            let limits = Limits { max: Some(2), ..plan.limits };
            super::count_models(puzzle, &encoded, plan.engine(), limits, &mut kept)?.stop
        };
        let decided = matches!(stop, Stop::Complete | Stop::MaxReached) || kept.grids.len() == 2;
        if !decided {
            return Err(CountError::Stopped);
        }
        let mut grids = kept.grids.into_iter();
        Ok(match (grids.next(), grids.next()) {
            (None, _) => Verdict::None,
            (Some(a), None) => Verdict::Unique(a),
            (Some(a), Some(b)) => Verdict::Multiple(a, b),
        })
    }

    /// The prepared engine for `puzzle`: the one kept if it fits, else a new one.
    fn prepared_for(&mut self, puzzle: &Puzzle) -> &mut Prepared {
        let plan = self.plan;
        match &mut self.prepared {
            Some(prepared) if prepared.fits(puzzle) => {}
            slot => *slot = Some(Prepared::new(puzzle, &plan.encoding, plan.limits.interrupt)),
        }
        self.prepared.as_mut().expect("just prepared")
    }

    /// Threads for one enumeration.
    fn threads(&self, observer: &impl Observer) -> usize {
        match self.plan.jobs {
            Some(jobs) => jobs.max(1),
            None if observer.wants_models() => 1,
            None => all_cores(),
        }
    }

    /// Enumerates the models of `puzzle` under `cube`; with `split`, a
    /// count that outlasts the probe is split into independent parts where
    /// the open cells fall apart.
    fn enumerate(
        &mut self,
        puzzle: &Puzzle,
        cube: &[Lit],
        split: bool,
        start: Instant,
        observer: &mut impl Observer,
    ) -> Result<Enumerated, CountError> {
        let plan = self.plan;
        let threads = self.threads(observer);
        let limits = Limits { timeout: plan.limits.timeout, ..plan.limits };
        if plan.engine() != EngineKind::Enum {
            let encoded = encode(puzzle, &plan.encoding);
            let resume = Resume { cubes: (!cube.is_empty()).then(|| vec![cube.to_vec()]), found: 0 };
            let (count, _) = count_on(puzzle, &encoded, plan.engine(), threads, limits, observer, start, resume)?;
            let details = self.enumeration_details(&encoded, count.stats, start);
            return Ok(Enumerated { models: count.models.into(), stop: count.stop, parts: None, details });
        }
        // Progress is reported from the calling thread while workers count.
        let inline = threads == 1 && !observer.wants_progress();
        let probe = split || !inline;
        let prepared = self.prepared_for(puzzle);
        let before = prepared.stats();
        prepared.start(puzzle, cube)?;
        let decisions = before.decisions.unwrap_or(0) + plan.probe;
        let until = Until {
            max: plan.limits.max,
            deadline: deadline(&plan, start),
            decisions: probe.then_some(decisions),
            interrupt: plan.limits.interrupt,
        };
        let mut stop = prepared.run(until, observer)?;
        if stop == Stop::Budget && split {
            let encoded = encode(puzzle, &plan.encoding);
            let parts = split::independent_parts(puzzle, &encoded);
            if parts.len() >= 2 {
                return self.parts(puzzle, &encoded, parts, start);
            }
        }
        let prepared = self.prepared.as_mut().expect("prepared above");
        if stop == Stop::Budget && inline {
            stop = prepared.run(Until { decisions: None, ..until }, observer)?;
        }
        if stop != Stop::Budget {
            let stats = prepared.stats().since(before);
            let details = self.enumeration_details(self.prepared.as_ref().expect("prepared").encoded(), stats, start);
            let models = self.prepared.as_ref().expect("prepared").found().into();
            return Ok(Enumerated { models, stop, parts: None, details });
        }
        // The probe is over: the rest of the search on the threads.
        let resume = Resume { cubes: Some(prepared.frontier()), found: prepared.found() };
        let probed = prepared.stats().since(before);
        let prepared = self.prepared.as_ref().expect("prepared");
        let (mut count, _) =
            count_on(puzzle, prepared.encoded(), plan.engine(), threads, limits, observer, start, resume)?;
        count.stats += probed;
        let details = self.enumeration_details(prepared.encoded(), count.stats, start);
        Ok(Enumerated { models: count.models.into(), stop: count.stop, parts: None, details })
    }

    /// Counts each independent part of the open cells on its own, on the
    /// cube that fixes the rest to one solution, and multiplies.
    fn parts(
        &mut self,
        puzzle: &Puzzle,
        encoded: &Encoded,
        parts: Vec<Vec<Cell>>,
        start: Instant,
    ) -> Result<Enumerated, CountError> {
        let sizes: Vec<usize> = parts.iter().map(Vec::len).collect();
        let mut first = Keep { grids: Vec::new(), limit: 1 };
        let found = self.enumerate(puzzle, &[], false, start, &mut first)?;
        let Some(grid) = first.grids.pop() else {
            let none =
                Enumerated { models: BigUint::default(), stop: found.stop, parts: Some(sizes), details: Vec::new() };
            return Ok(none);
        };
        // Stopped early, the product so far is a lower bound: a part not
        // counted has at least one solution, and a part's partial count is
        // a lower bound of its own.
        let (mut product, mut stop, mut counts) = (BigUint::from(1u32), Stop::Complete, Vec::new());
        for part in &parts {
            let cube = split::cube_outside(puzzle, encoded, part, &grid);
            let counted = self.enumerate(puzzle, &cube, false, start, &mut Quiet)?;
            product *= &counted.models;
            counts.push(counted.models);
            if counted.stop != Stop::Complete {
                stop = counted.stop;
                break;
            }
        }
        let mut details = Vec::new();
        if self.plan.details {
            let each = itertools::join(&counts, " x ");
            let sizes_text = itertools::join(&sizes, ", ");
            details.push(format!(
                "split: the open cells fall into {} independent parts of {sizes_text} cells, counted apart: {each}",
                sizes.len()
            ));
            details.push(format!("time: count {}", millis(start.elapsed())));
        }
        Ok(Enumerated { models: product, stop, parts: Some(sizes), details })
    }

    /// Counts a Takuzu a row at a time; stopped early, the lower bound is 0.
    fn rows(&self, takuzu: &Takuzu, start: Instant) -> (BigUint, Stop, Method, Vec<String>) {
        let plan = self.plan;
        let deadline = deadline(&plan, start);
        let stop = || plan.interrupted() || deadline.is_some_and(|d| Instant::now() >= d);
        let counted = takuzu.count(plan.jobs.unwrap_or_else(all_cores), &stop);
        let mut details = Vec::new();
        if plan.details {
            details.push(format!(
                "method: Takuzu rows, top and bottom halves joined; {} states in the larger half",
                counted.states
            ));
            details.push(format!("time: count {}", millis(start.elapsed())));
        }
        if counted.stopped {
            let why = if plan.interrupted() { Stop::Interrupted } else { Stop::Timeout };
            return (BigUint::default(), why, Method::TakuzuRows, details);
        }
        (BigUint::from(counted.count), Stop::Complete, Method::TakuzuRows, details)
    }

    /// Counts `F`, the grids equal to their transposition, then `L`, those
    /// at most it: `2L - F`. Stopped early, the larger partial count is a
    /// lower bound (`F <= L <= 2L - F`), which is what progress shows.
    fn transposed(
        &mut self,
        puzzle: &Puzzle,
        transposition: &Transposition,
        start: Instant,
        observer: &mut Scaled<impl Observer>,
    ) -> Result<(BigUint, Stop, Method, Vec<String>), CountError> {
        let (mut counts, mut details, mut stop) = (Vec::new(), Vec::new(), Stop::Complete);
        for (equal, what) in [(true, "F"), (false, "L")] {
            let constrained = transposition.constrained(puzzle, equal);
            let found = self.enumerate(&constrained, &[], false, start, observer)?;
            let models = u128::try_from(&found.models).unwrap_or(u128::MAX);
            observer.floor = observer.floor.max(models);
            counts.push(found.models);
            details.extend(found.details.iter().map(|line| format!("{what}: {line}")));
            stop = found.stop;
            if stop != Stop::Complete {
                break;
            }
        }
        let counted = match &counts[..] {
            // F <= L always (the grids equal to their transposition are at most it).
            [fixed, at_most] if stop == Stop::Complete && fixed <= at_most => at_most * 2u32 - fixed,
            [_, _] if stop == Stop::Complete => {
                return Err(CountError::NotASolution("F > L under transposition".into()))
            }
            _ => counts.iter().max().cloned().unwrap_or_default(),
        };
        if self.plan.details {
            let renamed = transposition.rename.iter().enumerate().skip(1).filter(|&(d, &r)| usize::from(r) != d);
            let renamed = itertools::join(renamed.map(|(d, r)| format!("{d}>{r}")), " ");
            let renamed = if renamed.is_empty() { String::new() } else { format!(", digits renamed {renamed}") };
            let found = itertools::join(
                counts.iter().zip(["F (equal to it)", "L (at most it)"]).map(|(c, what)| format!("{what} {c}")),
                ", ",
            );
            let result = if stop == Stop::Complete { format!(": 2L - F = {counted}") } else { String::new() };
            let cells = transposition.a.len();
            details
                .insert(0, format!("symmetry: transposition{renamed}, in the order of {cells} cells; {found}{result}"));
        }
        Ok((counted, stop, Method::Transposition, details))
    }

    /// The `--stats` lines of an enumeration, when asked for.
    fn enumeration_details(&self, encoded: &Encoded, stats: SearchStats, start: Instant) -> Vec<String> {
        if !self.plan.details {
            return Vec::new();
        }
        vec![encoded.summary(), stats.to_string(), format!("time: count {}", millis(start.elapsed()))]
    }
}

/// The deadline of a count that started at `start`.
fn deadline(plan: &Plan, start: Instant) -> Option<Instant> {
    plan.limits.timeout.and_then(|t| start.checked_add(t))
}

fn millis(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// An observer seen through the symmetry: progress reports the count as
/// it will be printed, the models so far (or `floor`, if more) times the
/// factor.
struct Scaled<'o, O: Observer> {
    inner: &'o mut O,
    factor: u128,
    floor: u128,
}

impl<O: Observer> Observer for Scaled<'_, O> {
    fn wants_models(&self) -> bool {
        self.inner.wants_models()
    }

    fn wants_progress(&self) -> bool {
        self.inner.wants_progress()
    }

    fn model(&mut self, index: u128, grid: &Grid) -> ControlFlow<()> {
        self.inner.model(index, grid)
    }

    fn progress(&mut self, models: u128, elapsed: Duration) {
        self.inner.progress(models.max(self.floor).saturating_mul(self.factor), elapsed);
    }
}

/// An observer that sees no models and no progress: a part's count is not
/// the puzzle's.
struct Quiet;

impl Observer for Quiet {}

/// Keeps the first `limit` models, then stops the count.
struct Keep {
    grids: Vec<Grid>,
    limit: usize,
}

impl Observer for Keep {
    fn wants_models(&self) -> bool {
        true
    }

    fn model(&mut self, _index: u128, grid: &Grid) -> ControlFlow<()> {
        self.grids.push(grid.clone());
        if self.grids.len() >= self.limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}
