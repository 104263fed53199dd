//! The counting plan: the one place that decides how a puzzle is counted.
//! Every path of the tool (a file, a collection's line, a batch, a cube,
//! `unique`, with or without `--stats`, `--print` or `--timeout`) counts
//! through a [`Counter`], so every path gets every method, decided here in
//! this order:
//!
//! 0. Unless shortcuts are off (`compare`), a puzzle with alternatives
//!    that keep selectors ([`crate::model::Constraint::AnyOf`] over more
//!    cells than a table takes) has them settled at the root where
//!    propagation can (`alternatives.rs`): the same grids, fewer
//!    alternatives, and none at all for many, which step 4 then counts on
//!    the enum engine.
//! 1. Every model wanted (`--print`), a bound on their number (`--max`),
//!    or shortcuts turned off (`compare`, which measures encodings): plain
//!    enumeration of the puzzle as step 0 left it.
//! 2. `--up-to-symmetry`: the essentially different grids of a blank
//!    Sudoku, by Burnside's lemma (`count::burnside`), each conjugacy
//!    class's fixed grids counted through this plan.
//! 3. A blank Sudoku grid whose bands fit ([`Bands::recognize`]) is
//!    counted by bands (`count::bands`), unless symmetry is off or
//!    `no-bands`: each class of band signatures counted by the engine on a
//!    band puzzle (or by perfect matchings, for two bands past the
//!    table), the classes combined in big integers.
//! 4. Otherwise a blank Sudoku with extra all-different groups (or pairs
//!    of different cells) whose band's motions, times `n!`, reduce more
//!    than the reduction below would (`band_orbits_pay`) is counted by the
//!    orbits of that band's fillings (`count::band_orbits`, `symmetry
//!    auto` only), each orbit's completions counted by this plan on one
//!    thread, or by joining the outer bands where that pays
//!    (`count::band_join`). A blank layout that relabelling does not
//!    keep (nonconsecutive) but at least eight motions of the square and
//!    digit maps do is counted by the orbits of a box's fillings
//!    (`count::box_orbits`), each orbit's completions by this plan on the
//!    grid engine. Any other puzzle is
//!    reduced by the symmetry proven for it, if
//!    any ([`symmetry`]: digit relabelling and line permutations, the count
//!    multiplied by their number; not by line permutations when the grid
//!    engine is asked for, since their order relations are not groups),
//!    and then
//!    - a Takuzu is counted a row at a time (`count::takuzu`), unless an
//!      engine is asked for;
//!    - a reduced puzzle that transposition maps onto itself is counted as
//!      `2L - F` ([`symmetry::Transposition`]), unless the grid engine is
//!      asked for (it counts no puzzle with their order constraint);
//!    - anything else is enumerated (a layout of groups and pairs of
//!      different digits, reduced with order relations on its lines, by
//!      the grid engine, which takes them: `Counter::enumerate_reduced`):
//!      on one thread for its first
//!      [`PROBE_DECISIONS`] decisions (most puzzles are done by then); a
//!      count still going that has found fewer than [`LEARN_BELOW`] models
//!      is counted by varisat, which learns, if it has at most
//!      [`LEARN_MAX`]; one still going after that, whose givens and
//!      rules stay inside bands ([`crate::count::bands::Local`], not with symmetry
//!      off or `no-bands`), goes on for [`BANDS_PROBE`] times the probe
//!      (on every thread, each its share, leaving its frontier as cubes)
//!      and is then counted by bands, unless its bands have too many
//!      fillings, estimated or met, or more than a sixteenth of its
//!      estimated solutions (`count::bands::local`), or, where groups
//!      cross the bands, more than an eighth of its solutions as Knuth's
//!      estimator on the grid engine puts them; one still going
//!      after that is split into
//!      the independent parts of its open cells where they fall apart
//!      (`count::split`), or goes on on every thread from where the probe
//!      stopped.
//!
//! The probe is a number of decisions, not a time, so that a puzzle gets
//! the same method on every path and every machine. [`Counter::judge`]
//! answers `unique`: the first two solutions, on the same prepared engine
//! for its first [`JUDGE_DECISIONS`] decisions ([`GRID_JUDGE_DECISIONS`]
//! for the grid engine, which does not learn), then (unless an engine is
//! asked for) from the start with varisat.

mod alternatives;
mod candidates;
mod methods;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use num_bigint::BigUint;
use varisat::Lit;

use super::band_orbits::Band;
use super::bands::{Bands, Blank};
use super::box_orbits::BoxOrbits;
use super::prepared::{Prepared, Until};
use super::symmetry::{self, Relabelling};
use super::takuzu::Takuzu;
use super::{CountError, EngineKind, Limits, Observer, Stop};
use crate::encode::{encode, Encoding};
use crate::model::{Cell, Grid, Puzzle};
pub use alternatives::{settle as settle_alternatives, settle_within as settle_alternatives_within, Settled};
pub use candidates::Candidates;
pub use methods::BANDS_PROBE;
use methods::{deadline, Keep, Learnt, Scaled};

/// What `--stats` says of a puzzle whose alternatives all fail at the root.
const NO_ALTERNATIVE: &str = "alternatives: settled at the root, no solution (no search)";

/// Decisions the enum engine makes on one thread before the plan looks
/// for independent parts or starts more threads: about a millisecond on a
/// 9x9 puzzle, so most puzzles are counted without either.
pub const PROBE_DECISIONS: u64 = 1 << 12;

/// A count whose probe found fewer models than this is a search that
/// needs learning: the enum engine, which learns once conflicts are
/// frequent, goes on for [`JUDGE_DECISIONS`] more decisions, and if it
/// has still found fewer, varisat counts it, from the start, up to
/// [`LEARN_MAX`] models.
pub const LEARN_BELOW: u128 = 16;
/// The most models varisat counts for such a count before the enum engine
/// takes it back from where its probe stopped: past this, a blocking
/// clause a model costs more than learning saves.
pub const LEARN_MAX: u128 = 1024;

/// Decisions the enum engine makes looking for a puzzle's first solutions
/// ([`Counter::judge`], the true candidates), or for a count's first
/// [`LEARN_BELOW`] models, before the plan hands the search to varisat.
/// The enum engine learns from conflicts too, and judges every published
/// variant puzzle in far fewer (the slowest, #55, in about 20,000
/// decisions, 0.2 s, against 1.3 s for varisat); past this many, a few
/// seconds, varisat's different search gets its chance (docs/engines.md
/// has the measurements).
pub const JUDGE_DECISIONS: u64 = 1 << 18;

/// [`JUDGE_DECISIONS`] for the grid engine, which does not learn: a search
/// it has not ended in this many (a few milliseconds on a 16x16) is one
/// where varisat's learning pays. ISS's "16x16: Sudoku X, very hard"
/// (372,165 decisions to the end) was judged in 0.60 s after the grid
/// engine's 2^18, 0.29 s after 2^16 and 0.21 s after 2^12; its "hard"
/// (58,052) in 0.10 s after 2^16 and 0.06 s after 2^12, and the 16x16
/// Windoku 0.14 s and 0.09 s. A 9x9 the grid engine takes ends in a few
/// thousand at most (3,179 among ISS's examples; at most 102 on 10,000
/// generated minimal puzzles and 32 on HoDoKu's 2,000 rated ones).
pub const GRID_JUDGE_DECISIONS: u64 = 1 << 12;

crate::named_enum! {
    /// Whether a count may use symmetry.
    pub enum SymmetryUse = Auto {
        /// Relabelling, line permutations and transposition, wherever they are proven, and
        /// blank Sudoku grids counted by bands.
        Auto = "auto",
        /// The same, but no grid counted by bands (to measure the reductions by themselves).
        NoBands = "no-bands",
        /// Relabelling and line permutations, not transposition (to measure what it saves) nor,
        /// up to symmetry, the motions that move no lines as wholes; bands only in the layout's
        /// own orientation.
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
    /// The engine asked for; `None` lets the plan choose (`enum`, with
    /// varisat for a search it has not ended in [`JUDGE_DECISIONS`]), and
    /// lets a Takuzu be counted by rows. (With log digits the default was
    /// `blocking` until `enum` learnt: bench/results/design-notes.md.)
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
    /// Decisions the enum engine goes on for, learning, on a search that
    /// has found too few solutions, before varisat takes it
    /// ([`JUDGE_DECISIONS`]; smaller in tests of the hand-over).
    pub judge: u64,
    /// Count the essentially different grids of a blank Sudoku (up to
    /// relabelling and the layout's geometric symmetries, by Burnside's
    /// lemma; `count::burnside`) instead of its grids.
    pub up_to_symmetry: bool,
    /// Where long phases that find no models as they go (bands, Burnside's
    /// classes, Takuzu rows, a varisat search) say what they are doing,
    /// every few milliseconds; the caller decides what to show and how
    /// often (`satsudoku`'s progress line on stderr).
    pub report: Option<fn(&Phase)>,
}

/// What a long phase of a count is doing, for [`Plan::report`].
#[derive(Clone, Copy, Debug)]
pub struct Phase<'a> {
    /// The method, such as `bands` or `varisat`.
    pub method: &'a str,
    /// What is counted, when it is: its name and how many are done.
    pub done: Option<(&'a str, u64)>,
    /// Time since the count started.
    pub elapsed: Duration,
}

impl Plan {
    /// The decisions `kind` makes looking for a puzzle's first solutions
    /// before the plan hands the search to varisat: [`Plan::judge`], or
    /// [`GRID_JUDGE_DECISIONS`] if fewer, for the grid engine, which does
    /// not learn.
    pub fn judge_for(&self, kind: EngineKind) -> u64 {
        match kind {
            EngineKind::Grid => self.judge.min(GRID_JUDGE_DECISIONS),
            _ => self.judge,
        }
    }

    /// Tells [`Plan::report`] about a phase, if anyone listens.
    pub(crate) fn tell(&self, method: &str, done: Option<(&str, u64)>, start: Instant) {
        if let Some(report) = self.report {
            report(&Phase { method, done, elapsed: start.elapsed() });
        }
    }

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
            judge: JUDGE_DECISIONS,
            up_to_symmetry: false,
            report: None,
        }
    }

    /// The engine that enumerates `puzzle`: the one asked for, else the
    /// grid engine for a puzzle it takes ([`super::grid::unfit`] says
    /// nothing; direct digits) and no given-aware reduction, else
    /// `blocking` for a puzzle with alternatives that keep their
    /// selectors ([`crate::encode::has_selectors`]: an `AnyOf` over more
    /// cells than a table takes) whose digits are not direct or whose
    /// encoding is reduced (the enum engine branches on the alternatives'
    /// selectors only with direct digits, whose encoding keeps them:
    /// `count/choices.rs`; left
    /// open, a selector prunes nothing until every cell has a digit,
    /// where varisat decides it: 1.7 s against 0.21 s with blocking on
    /// ISS's "Killer lunchboxes", and 0.06 s branched on), else `enum`;
    /// an error when the grid engine is asked for a puzzle it cannot
    /// count.
    pub fn engine_for(&self, puzzle: &Puzzle) -> Result<EngineKind, CountError> {
        let unfit = || super::grid::unfit(puzzle, self.encoding.digits);
        match self.engine {
            Some(EngineKind::Grid) => match unfit() {
                Some(why) => Err(CountError::Unsupported(format!("the grid engine cannot count this puzzle: {why}"))),
                None => Ok(EngineKind::Grid),
            },
            // Its cubes are read as the direct encoding's variables.
            Some(EngineKind::Dlx) if self.encoding.digits != crate::encode::DigitEncoding::Direct => {
                Err(CountError::Unsupported("the dlx engine counts with the direct digit encoding".into()))
            }
            Some(kind) => Ok(kind),
            None if !self.encoding.reduce && unfit().is_none() && super::grid::plain(puzzle) => Ok(EngineKind::Grid),
            None if puzzle.constraints().iter().any(|c| crate::encode::has_selectors(c, puzzle.digits()))
                && (self.encoding.digits != crate::encode::DigitEncoding::Direct || self.encoding.reduce) =>
            {
                Ok(EngineKind::Blocking)
            }
            None => Ok(EngineKind::Enum),
        }
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
    /// A blank grid, or one whose givens and rules stay inside bands,
    /// counted by its bands' column signatures ([`crate::count::bands`]).
    Bands,
    /// Essentially different grids, by Burnside's lemma
    /// ([`crate::count::burnside`]).
    Burnside,
    /// A blank grid with extra groups, by the orbits of a band's fillings
    /// ([`crate::count::band_orbits`]).
    BandOrbits,
    /// A blank grid that relabelling does not keep, by the orbits of a
    /// box's fillings under its symmetries ([`crate::count::box_orbits`]).
    BoxOrbits,
}

impl Method {
    /// The method's name, as `--output json` gives it.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Enumeration => "enumeration",
            Method::TakuzuRows => "takuzu-rows",
            Method::Parts(_) => "parts",
            Method::Transposition => "transposition",
            Method::Bands => "bands",
            Method::Burnside => "burnside",
            Method::BandOrbits => "band-orbits",
            Method::BoxOrbits => "box-orbits",
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
        let rows = match self.method {
            Method::TakuzuRows => ": counting by rows gives no partial count, so the count is the lower bound 0",
            Method::Bands => ": counting by bands gives no partial count, so the count is the lower bound 0",
            Method::Burnside => ": Burnside's sum gives no partial count, so the count is the lower bound 0",
            _ => ": the count is a lower bound",
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
    /// The plan's time limit passed before the search could say.
    Undecided,
}

impl Verdict {
    /// `none`, `unique`, `multiple` or `undecided`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::None => "none",
            Verdict::Unique(_) => "unique",
            Verdict::Multiple(..) => "multiple",
            Verdict::Undecided => "undecided",
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

/// Whether a blank layout is counted by a band's orbits rather
/// than reduced and enumerated: both enumerate about the grids over their
/// reduction, `n!` times the band's motions for the orbits (each orbit's
/// completions), the relabelling's factor for the reduction (twice that
/// where transposition's `2L - F` halves what is enumerated).
fn band_orbits_pay(band: &Band, n: usize, factor: u128, transposed: bool) -> bool {
    let relabellings: u128 = (1..=n as u128).product();
    relabellings.saturating_mul(band.motions() as u128) > factor.saturating_mul(if transposed { 2 } else { 1 })
}

/// Counts puzzles by the plan, one after another, keeping the engine of
/// the last layout for the next puzzle that shares it.
pub struct Counter {
    plan: Plan,
    prepared: Option<Prepared>,
    /// The last blank layout counted by its table for a count by local
    /// bands (their free bands and their estimate).
    blank: Option<Blank>,
}

/// Counts `puzzle` by `plan` (a [`Counter`] of one puzzle).
pub fn count(puzzle: &Puzzle, plan: &Plan, observer: &mut impl Observer) -> Result<Tally, CountError> {
    Counter::new(*plan).count(puzzle, observer)
}

impl Counter {
    /// A counter with no engine prepared yet.
    pub fn new(plan: Plan) -> Counter {
        Counter { plan, prepared: None, blank: None }
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
        if plan.up_to_symmetry {
            return Ok(self.whole(Method::Burnside, self.orbits(puzzle, start)?, start));
        }
        let Some(settled) = self.settled(puzzle) else {
            let found = (BigUint::default(), Stop::Complete, vec![NO_ALTERNATIVE.to_string()]);
            return Ok(self.whole(Method::Enumeration, found, start));
        };
        let puzzle = settled.as_ref().unwrap_or(puzzle);
        let banded = !every && !matches!(plan.symmetry, SymmetryUse::None | SymmetryUse::NoBands);
        if let Some(bands) = banded.then(|| Bands::recognize(puzzle, plan.symmetry == SymmetryUse::Auto)).flatten() {
            return Ok(self.whole(Method::Bands, self.bands(&bands, start)?, start));
        }
        let reduced = self.reduce(puzzle, !every && plan.symmetry != SymmetryUse::None);
        let factor = reduced.factor();
        let transpose = matches!(plan.symmetry, SymmetryUse::Auto | SymmetryUse::NoBands);
        // The grid engine, asked for, counts no puzzle with an order
        // constraint: no transposition then.
        let transpose = transpose && !matches!(plan.engine, Some(EngineKind::Grid | EngineKind::Dlx));
        let transposed = (!every && transpose).then(|| reduced.transposition()).flatten();
        if let Some(band) = (!every && plan.symmetry == SymmetryUse::Auto)
            .then(|| Band::recognize(puzzle, true))
            .flatten()
            .filter(|band| band_orbits_pay(band, puzzle.side(), factor, transposed.is_some()))
        {
            if let Some(found) = self.band_orbits(puzzle, &band, start)? {
                return Ok(self.whole(Method::BandOrbits, found, start));
            }
        }
        if let Some(found) = (!every && plan.symmetry == SymmetryUse::Auto && factor == 1)
            .then(|| BoxOrbits::recognize(puzzle))
            .flatten()
        {
            if let Some(found) = self.box_orbits(puzzle, &found, start)? {
                return Ok(self.whole(Method::BoxOrbits, found, start));
            }
        }
        let mut scaled = Scaled { inner: observer, factor, floor: 0 };
        let rows = (!every && plan.engine.is_none()).then(|| Takuzu::recognize(&reduced.puzzle)).flatten();
        let (counted, stop, method, mut details) = if let Some(takuzu) = rows {
            self.rows(&takuzu, start)?
        } else if let Some(transposition) = transposed {
            self.transposed(&reduced.puzzle, &transposition, start, &mut scaled)?
        } else {
            let found = self.enumerate_reduced(&reduced, puzzle, &[], !every, start, &mut scaled)?;
            let method = found.method;
            (found.models, found.stop, method, found.details)
        };
        if plan.details {
            if let Some(relabelling) = &reduced.relabelling {
                details.insert(0, relabelling.to_string());
            }
            details.insert(0, format!("method: {}", method.name()));
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

    /// Step 0 of the plan: `Some(Some(narrowed))` for a puzzle whose
    /// alternatives settle, `Some(None)` for one left as it is (no
    /// alternatives, nothing settled, or shortcuts off), and `None` for
    /// one settling proved has no solution.
    fn settled(&self, puzzle: &Puzzle) -> Option<Option<Puzzle>> {
        match self.plan.shortcuts.then(|| alternatives::settle(puzzle)).flatten() {
            Some(Settled::NoSolution) => None,
            Some(Settled::Narrowed(settled)) => Some(Some(settled)),
            None => Some(None),
        }
    }

    /// `puzzle` reduced by the symmetry proven for it, when `allowed`;
    /// with the grid engine asked for, not by a reduction whose order
    /// relations it could not count.
    fn reduce<'p>(&self, puzzle: &'p Puzzle, allowed: bool) -> symmetry::Reduced<'p> {
        let reduced = symmetry::reduce(puzzle, allowed);
        let digits = self.plan.encoding.digits;
        let grid = self.plan.engine == Some(EngineKind::Grid);
        if grid && reduced.relabelling.is_some() && super::grid::unfit(&reduced.puzzle, digits).is_some() {
            return symmetry::reduce(puzzle, false);
        }
        reduced
    }

    /// Enumerates `reduced`, the reduction of `original`, under `cube`: on
    /// the grid engine when none is asked for, `original` is made of groups
    /// and pairs of different digits (what the plan gives the grid engine
    /// unreduced) and the reduction added order relations on its lines
    /// (and implied groups), which the grid engine takes too: measured 1.55
    /// times the enum engine's speed on 8x8 grids and twice on Windoku's.
    /// Otherwise as [`Counter::enumerate`] chooses.
    fn enumerate_reduced(
        &mut self,
        reduced: &symmetry::Reduced,
        original: &Puzzle,
        cube: &[Lit],
        split: bool,
        start: Instant,
        observer: &mut impl Observer,
    ) -> Result<methods::Enumerated, CountError> {
        let plan = self.plan;
        let sorted = reduced.relabelling.as_ref().is_some_and(|r| !r.order.is_empty());
        let grid = sorted
            && plan.engine.is_none()
            && !plan.encoding.reduce
            && super::grid::plain(original)
            && super::grid::unfit(&reduced.puzzle, plan.encoding.digits).is_none();
        if grid {
            self.plan.engine = Some(EngineKind::Grid);
        }
        let found = self.enumerate(&reduced.puzzle, cube, split, start, observer);
        self.plan.engine = plan.engine;
        found
    }

    /// The tally of a method that counts the whole puzzle at once (bands,
    /// Burnside): no symmetry factor, the method named first in `--stats`.
    fn whole(&self, method: Method, (count, stop, mut details): (BigUint, Stop, Vec<String>), start: Instant) -> Tally {
        if self.plan.details {
            details.insert(0, format!("method: {}", method.name()));
        }
        Tally { counted: count.clone(), count, stop, method, relabelling: None, details, elapsed: start.elapsed() }
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
        let reduced = self.reduce(puzzle, symmetry);
        let factor = reduced.factor();
        let mut scaled = Scaled { inner: observer, factor, floor: 0 };
        let found = self.enumerate_reduced(&reduced, puzzle, cube, false, start, &mut scaled)?;
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
    /// checker; [`Verdict::Undecided`] if the plan's time limit passed
    /// first, an error if it was interrupted.
    pub fn judge(&mut self, puzzle: &Puzzle) -> Result<Verdict, CountError> {
        self.judge_since(puzzle, Instant::now())
    }

    /// [`Counter::judge`], with the plan's time limit counted from `start`:
    /// the questions that judge a puzzle many times (`minimal`, `rate`,
    /// `generate`) give the whole puzzle one limit.
    pub fn judge_since(&mut self, puzzle: &Puzzle, start: Instant) -> Result<Verdict, CountError> {
        let Some(grids) = self.first_solutions(puzzle, 2, start)? else {
            if self.plan.interrupted() {
                return Err(CountError::Stopped);
            }
            return Ok(Verdict::Undecided);
        };
        let mut grids = grids.into_iter();
        Ok(match (grids.next(), grids.next()) {
            (None, _) => Verdict::None,
            (Some(a), None) => Verdict::Unique(a),
            (Some(a), Some(b)) => Verdict::Multiple(a, b),
        })
    }

    /// Up to `limit` solutions of `puzzle` (all there are, if fewer), each
    /// checked; `None` if the plan's limits stopped the search before it
    /// could say (the time counted from `start`).
    fn first_solutions(
        &mut self,
        puzzle: &Puzzle,
        limit: usize,
        start: Instant,
    ) -> Result<Option<Vec<Grid>>, CountError> {
        let mut kept = Keep { grids: Vec::with_capacity(limit), limit };
        let plan = Plan { limits: Limits { max: None, ..self.plan.limits }, ..self.plan };
        let Some(settled) = self.settled(puzzle) else { return Ok(Some(Vec::new())) };
        let puzzle = settled.as_ref().unwrap_or(puzzle);
        let kind = plan.engine_for(puzzle)?;
        let stop = if !matches!(kind, EngineKind::Blocking | EngineKind::Dlx) {
            // The plan's own choice (no engine asked for) hands a search
            // that needs more than `plan.judge` decisions to varisat.
            let fallback = plan.engine.is_none();
            let prepared = self.prepared_for(puzzle, kind)?;
            let decisions = prepared.stats().decisions.unwrap_or(0) + plan.judge_for(kind);
            let until = Until {
                deadline: deadline(&plan, start),
                interrupt: plan.limits.interrupt,
                decisions: fallback.then_some(decisions),
                ..Until::default()
            };
            prepared.start(puzzle, &[])?;
            match prepared.run(until, &mut kept)? {
                // varisat on a thread of its own, which the deadline and
                // an interrupt do not wait for; its grids come back with it.
                Stop::Budget => match self.learn(puzzle, limit as u128, 1, start, Keep { grids: Vec::new(), limit })? {
                    Learnt::Counted(count, _, found) => {
                        kept = found;
                        count.stop
                    }
                    Learnt::Stopped(stop) => {
                        kept.grids.clear();
                        stop
                    }
                },
                stop => stop,
            }
        } else {
            crate::encode::check_fits(puzzle, &plan.encoding)?;
            let encoded = encode(puzzle, &plan.encoding);
            let timeout = plan.limits.timeout.map(|t| t.saturating_sub(start.elapsed()));
            let limits = Limits { max: Some(limit as u128), timeout, ..plan.limits };
            super::count_models(puzzle, &encoded, kind, limits, &mut kept)?.stop
        };
        let decided = matches!(stop, Stop::Complete | Stop::MaxReached) || kept.grids.len() == limit;
        Ok(decided.then_some(kept.grids))
    }
}
