//! How the plan's methods run: enumeration with its probe (then parts, or
//! more threads), Takuzu rows and transposition; and the observers they
//! count through.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

use num_bigint::BigUint;
use varisat::Lit;

use super::{Counter, Method, Plan, SymmetryUse, Tally, LEARN_BELOW, LEARN_MAX};
use crate::count::band_join::{Join, Table};
use crate::count::band_orbits::Band;
use crate::count::bands::{Bands, Blank, Local, Moved, Outcome, Pieces, Route, MAX_FILLINGS};
use crate::count::box_orbits::BoxOrbits;
use crate::count::burnside::{self, Counts};
use crate::count::drive::{count_on, Resume};
use crate::count::grid::{unfit, GridSearch};
use crate::count::prepared::{Prepared, Until};
use crate::count::symmetry::Transposition;
use crate::count::takuzu::Takuzu;
use crate::count::{all_cores, split, CountError, Cube, Each, EngineKind, Limits, Observer, SearchStats, Stop};
use crate::encode::{check_fits, encode, Encoded};
use crate::model::{Cell, Grid, Puzzle};

/// How one piece of a count shared out between the threads is counted
/// ([`Counter::share_out`]).
type Piece<'a, S> =
    dyn Fn(&mut Counter, &mut S, usize, &dyn Fn() -> bool) -> Result<(BigUint, Stop), CountError> + Sync + 'a;

/// How many times the probe's decisions the enumeration makes before a
/// puzzle whose givens and rules stay inside bands is counted by bands:
/// about half a second.
pub const BANDS_PROBE: u64 = 1 << 7;

/// Bands with givens of their own that have at most this many fillings
/// (by [`Local::fillings_bound`]) are counted by bands right after the
/// probe.
pub const BANDS_AT_ONCE: u128 = 1 << 16;

/// The random paths of the estimate that weighs bands that groups cross
/// against enumeration ([`GridSearch::estimate`]): about 9 ms on a 9x9
/// Sudoku X, within a factor of 1.5 of its count on the puzzles tried.
const ESTIMATE_DIVES: u32 = 1000;

/// A band's orbits are each counted by joining the outer bands'
/// fillings ([`Join`]) where, on the orbits [`join_trials`] names, the
/// fillings the join meets are at most this many times the completions:
/// a filling met costs about 35 ns with keys of 64 bits and up to 130 ns
/// with more, a
/// completion the grid engine enumerates 0.75 µs (9x9 anti-king: 1.15
/// million fillings for 2.8 million completions, 42 ms against 2.1 s;
/// SudokuP: 0.4 to 3 fillings a completion; Sudoku X: 3.7 million for 118
/// thousand, 0.8 s against 90 ms, counted by the plan).
const JOIN_PAYS: u128 = 16;

/// The orbits (of `len`) on which the join is tried: eight spread over
/// the list from its end, not its start unless it is short. The first
/// orbit listed is the most regular band and far from typical: SudokuP's
/// meets 0.11 fillings a completion (631 million completions, 26 s), the
/// last one 1.4 (97 thousand); anti-knight's first pays, its last not.
fn join_trials(len: usize) -> Vec<usize> {
    if len == 0 {
        return Vec::new();
    }
    // `k len / 8 <= 7 len / 8 <= len - 1`: no index below 0.
    let mut trials: Vec<usize> = (0..8).map(|k| len - 1 - k * len / 8).collect();
    trials.dedup();
    trials
}

/// What [`Counter::learn`] came to.
pub(super) enum Learnt<O> {
    /// varisat's count, the encoding it counted, and the observer that
    /// saw it.
    Counted(crate::count::Count, Box<Encoded>, O),
    /// The deadline or an interrupt came first.
    Stopped(Stop),
}

/// What one enumeration found.
pub(super) struct Enumerated {
    pub(super) models: BigUint,
    pub(super) stop: Stop,
    /// How: enumeration, independent parts (their sizes) or bands.
    pub(super) method: Method,
    pub(super) details: Vec<String>,
}

impl Counter {
    /// The prepared engine for `puzzle`: the one kept if it fits, else a
    /// new one, once its estimate fits under the memory limit.
    pub(super) fn prepared_for(&mut self, puzzle: &Puzzle, kind: EngineKind) -> Result<&mut Prepared, CountError> {
        let plan = self.plan;
        match &mut self.prepared {
            Some(prepared) if prepared.fits(puzzle, kind) => {}
            slot => {
                check_fits(puzzle, &plan.encoding)?;
                *slot = Some(Prepared::new(puzzle, &plan.encoding, kind, plan.limits.interrupt));
            }
        }
        Ok(self.prepared.as_mut().expect("just prepared"))
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
    /// count that outlasts the probe is counted by bands if its givens and
    /// rules stay inside them, or split into independent parts where the
    /// open cells fall apart.
    pub(super) fn enumerate(
        &mut self,
        puzzle: &Puzzle,
        cube: &[Lit],
        split: bool,
        start: Instant,
        observer: &mut impl Observer,
    ) -> Result<Enumerated, CountError> {
        let mut declined = None;
        let mut found = self.search(puzzle, cube, split, start, observer, &mut declined)?;
        if let Some(why) = declined.filter(|_| self.plan.details) {
            found.details.insert(0, why);
        }
        Ok(found)
    }

    /// [`Counter::enumerate`], saying in `declined` why bands that were
    /// tried did not count.
    fn search(
        &mut self,
        puzzle: &Puzzle,
        cube: &[Lit],
        split: bool,
        start: Instant,
        observer: &mut impl Observer,
        declined: &mut Option<String>,
    ) -> Result<Enumerated, CountError> {
        let plan = self.plan;
        let threads = self.threads(observer);
        let limits = plan.limits;
        let kind = plan.engine_for(puzzle)?;
        if matches!(kind, EngineKind::Blocking | EngineKind::Dlx) {
            check_fits(puzzle, &plan.encoding)?;
            let encoded = encode(puzzle, &plan.encoding);
            let resume = Resume { cubes: (!cube.is_empty()).then(|| vec![cube.to_vec()]), ..Resume::default() };
            let (count, _) = count_on(puzzle, &encoded, kind, threads, limits, observer, start, resume)?;
            let details = self.engine_details(kind, self.enumeration_details(&encoded, count.stats, start));
            return Ok(Enumerated {
                models: count.models.into(),
                stop: count.stop,
                method: Method::Enumeration,
                details,
            });
        }
        // Progress is reported from the calling thread while workers count.
        let inline = threads == 1 && !observer.wants_progress();
        // Whether a count that finds few models in the probe may go to varisat.
        let learn = plan.engine.is_none() && cube.is_empty() && !observer.wants_models();
        let probe = split || !inline || learn;
        let prepared = self.prepared_for(puzzle, kind)?;
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
        // A count that found fewer than LEARN_BELOW models in its probe is
        // a search that needs learning, which the enum engine does (see
        // `count::enumerate`): it goes on for `plan.judge` more decisions
        // (the grid engine, which does not learn, for fewer: `judge_for`).
        if stop == Stop::Budget && learn && prepared.found() < LEARN_BELOW {
            stop = prepared.run(Until { decisions: Some(decisions + plan.judge_for(kind)), ..until }, observer)?;
        }
        // Still short of LEARN_BELOW models: varisat counts it, from the
        // start, if it has at most LEARN_MAX models, and otherwise the enum
        // engine goes on from where it stopped (the attempt's models are
        // not kept, so it never reports a model or progress it takes back).
        if stop == Stop::Budget && learn && prepared.found() < LEARN_BELOW {
            let probed = prepared.found();
            // A --max at or below LEARN_MAX is the count's own bound.
            let own = limits.max.filter(|&m| m <= LEARN_MAX);
            match self.learn(puzzle, own.unwrap_or(LEARN_MAX), threads, start, Quiet)? {
                Learnt::Counted(count, encoded, _) if count.stop != Stop::MaxReached || own.is_some() => {
                    let mut details = self.enumeration_details(&encoded, count.stats, start);
                    if plan.details {
                        details.insert(0, format!("engine: blocking (the probe found {probed} models)"));
                    }
                    // Stopped early, the larger of two lower bounds (progress
                    // may have shown the probe's).
                    let models = if count.stop == Stop::Complete { count.models } else { count.models.max(probed) };
                    return Ok(Enumerated {
                        models: models.into(),
                        stop: count.stop,
                        method: Method::Enumeration,
                        details,
                    });
                }
                Learnt::Counted(..) => {}
                Learnt::Stopped(stop) => {
                    let encoded = self.prepared.as_ref().expect("prepared").encoded();
                    let mut details = self.enumeration_details(encoded, SearchStats::default(), start);
                    if plan.details {
                        details.insert(0, format!("engine: blocking, stopped (the probe found {probed} models)"));
                    }
                    return Ok(Enumerated { models: probed.into(), stop, method: Method::Enumeration, details });
                }
            }
        }
        // A count still going whose givens and rules stay inside bands is
        // counted by bands, if they are small enough.
        let banded = !matches!(plan.symmetry, SymmetryUse::None | SymmetryUse::NoBands);
        let local = (stop == Stop::Budget && split && banded)
            .then(|| Local::recognize(puzzle, plan.symmetry == SymmetryUse::Auto))
            .flatten();
        let quick = local.as_ref().is_some_and(|local| local.fillings_bound() <= BANDS_AT_ONCE);
        // What the threads found in the longer window, if they ran it: the
        // models, the cubes left and the search's effort.
        let mut threaded: Option<(u128, Vec<Cube>, SearchStats)> = None;
        if local.is_some() && !quick {
            // Most counts end soon after the probe, sooner than bands
            // would: the enumeration goes on a while longer first, unless
            // the bands are sure to be quick; on every thread, each with
            // its share of the decisions, when there are several.
            let longer = plan.probe * BANDS_PROBE;
            let prepared = self.prepared.as_mut().expect("prepared");
            if inline {
                stop = prepared.run(Until { decisions: Some(decisions + longer), ..until }, observer)?;
            } else {
                let budget = Some(longer / threads as u64);
                let resume = Resume { cubes: Some(prepared.frontier()), found: prepared.found(), budget };
                let probed = prepared.stats().since(before);
                let (mut count, mut left) =
                    count_on(puzzle, prepared.encoded(), kind, threads, limits, observer, start, resume)?;
                if count.stop == Stop::Budget && left.is_none() {
                    // Never with these engines (their workers leave their
                    // cubes): counted from the start instead.
                    (count, left) = count_on(
                        puzzle,
                        prepared.encoded(),
                        kind,
                        threads,
                        limits,
                        observer,
                        start,
                        Resume::default(),
                    )?;
                }
                count.stats += probed;
                match left.filter(|_| count.stop == Stop::Budget) {
                    Some(left) => threaded = Some((count.models, left, count.stats)),
                    None => {
                        let encoded = self.prepared.as_ref().expect("prepared").encoded();
                        let details = self.engine_details(kind, self.enumeration_details(encoded, count.stats, start));
                        let models = count.models.into();
                        return Ok(Enumerated { models, stop: count.stop, method: Method::Enumeration, details });
                    }
                }
            }
        }
        if let Some(local) = local.filter(|_| stop == Stop::Budget) {
            let probed = threaded.as_ref().map_or_else(|| self.prepared.as_ref().expect("prepared").found(), |t| t.0);
            // Bands that groups cross enumerate at most an eighth of the
            // solutions estimated (`Local::with_solutions_estimate`), unless
            // they are sure to be quick.
            let estimate = (local.crosses() && !quick).then(|| self.solutions_estimate(puzzle)).flatten();
            let local = match estimate {
                Some(solutions) => local.with_solutions_estimate(solutions),
                None => local,
            };
            // Weighed once: before the blank layout's table where the
            // literature gives its totals (9x9), which spares the table
            // when bands are declined, else with the table.
            let known = known_totals(local.h, local.w).is_some();
            let unlikely = |counter: &Self| (!quick).then(|| counter.bands_unlikely(&local, puzzle)).flatten();
            let early = known.then(|| unlikely(self)).flatten();
            let outcome = if let Some(why) = early {
                LocalBands::TooLarge(why)
            } else if !self.blank_for(&local, start)? {
                LocalBands::Stopped(stopped(&plan))
            } else if let Some(why) = (!known).then(|| unlikely(self)).flatten() {
                LocalBands::TooLarge(why)
            } else {
                self.local_bands(&local, None, start)?
            };
            match outcome {
                LocalBands::Counted(models, details) => {
                    return Ok(Enumerated { models, stop: Stop::Complete, method: Method::Bands, details });
                }
                LocalBands::Stopped(stop) => {
                    let encoded = self.prepared.as_ref().expect("prepared").encoded();
                    let mut details = self.enumeration_details(encoded, SearchStats::default(), start);
                    if plan.details {
                        details.insert(0, format!("bands: stopped (the probe found {probed} models)"));
                    }
                    let method = Method::Enumeration;
                    return Ok(Enumerated { models: probed.into(), stop, method, details });
                }
                LocalBands::TooLarge(why) => *declined = Some(why),
            }
        }
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
            let details = self.engine_details(kind, details);
            let models = self.prepared.as_ref().expect("prepared").found().into();
            return Ok(Enumerated { models, stop, method: Method::Enumeration, details });
        }
        // The probe is over: the rest of the search on the threads.
        let (resume, probed) = match threaded {
            Some((found, cubes, stats)) => (Resume { cubes: Some(cubes), found, budget: None }, stats),
            None => {
                let resume = Resume { cubes: Some(prepared.frontier()), found: prepared.found(), budget: None };
                (resume, prepared.stats().since(before))
            }
        };
        let prepared = self.prepared.as_ref().expect("prepared");
        let (mut count, _) = count_on(puzzle, prepared.encoded(), kind, threads, limits, observer, start, resume)?;
        count.stats += probed;
        let details = self.engine_details(kind, self.enumeration_details(prepared.encoded(), count.stats, start));
        Ok(Enumerated { models: count.models.into(), stop: count.stop, method: Method::Enumeration, details })
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
            let none = Enumerated {
                models: BigUint::default(),
                stop: found.stop,
                method: Method::Parts(sizes.clone()),
                details: Vec::new(),
            };
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
        Ok(Enumerated { models: product, stop, method: Method::Parts(sizes), details })
    }

    /// Counts a Takuzu a row at a time; stopped early, the lower bound is 0.
    pub(super) fn rows(
        &self,
        takuzu: &Takuzu,
        start: Instant,
    ) -> Result<(BigUint, Stop, Method, Vec<String>), CountError> {
        let plan = self.plan;
        let stop = telling_stopper(&plan, start, "Takuzu rows");
        let counted = takuzu.count(plan.jobs.unwrap_or_else(all_cores), &stop)?;
        let mut details = Vec::new();
        if plan.details {
            details.push(format!(
                "rows: Takuzu, top and bottom halves joined; {} states in the larger half",
                counted.states
            ));
            details.push(format!("time: count {}", millis(start.elapsed())));
        }
        if counted.stopped {
            let why = stopped(&plan);
            return Ok((BigUint::default(), why, Method::TakuzuRows, details));
        }
        Ok((BigUint::from(counted.count), Stop::Complete, Method::TakuzuRows, details))
    }

    /// Counts a blank grid by its bands: each class of band signatures
    /// counted by the plan's engine on a band puzzle (no symmetry, no
    /// shortcut, one thread each; the classes shared out among the
    /// threads), or by perfect matchings on the profiles' route. Stopped
    /// early, the lower bound is 0.
    pub(super) fn bands(&self, bands: &Bands, start: Instant) -> Result<(BigUint, Stop, Vec<String>), CountError> {
        let plan = self.plan;
        let filled = std::sync::atomic::AtomicU64::new(0);
        let told = || {
            let done = filled.load(std::sync::atomic::Ordering::Relaxed);
            plan.tell("bands", (done > 0).then_some(("band classes counted", done)), start);
        };
        let stop = stopper(&plan, start);
        let stop = || {
            told();
            stop()
        };
        let piece = filler(&plan, start);
        let fill = |band: &Puzzle| {
            let counted = piece(band);
            filled.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            counted
        };
        let counted = bands.count(self.threads(&Quiet), &fill, &stop)?;
        let Some(counted) = counted else {
            let why = stopped(&plan);
            return Ok((BigUint::default(), why, Vec::new()));
        };
        let mut details = Vec::new();
        if plan.details {
            let (h, w) = (bands.h, bands.w);
            let turned =
                if bands.transposed { format!(" (the {w}x{h} boxes counted transposed)") } else { String::new() };
            let summed = match bands.route {
                Route::Table => "column signatures with the first stack fixed",
                Route::Profiles => "multisets of digit profiles",
            };
            details.push(format!(
                "bands: {w} bands of {h} rows, boxes {h}x{w}{turned}; {} {summed}, in {} classes",
                counted.entries, counted.classes
            ));
            let by = match &counted.pieces {
                Pieces::Engine { models } => {
                    // A band puzzle is made of groups and givens only.
                    let engine = plan.engine.unwrap_or(EngineKind::Grid);
                    format!("by the {engine} engine ({models} models)")
                }
                Pieces::Matchings { matchings, factors, graphs } => format!(
                    "by perfect matchings ({matchings} matchings, {factors} 2-factors, {graphs} 4-regular graphs kept)"
                ),
            };
            details.push(format!(
                "band fillings: {} in all, the {} classes counted {by}",
                counted.fillings, counted.classes
            ));
            details.push(format!("time: count {}", millis(start.elapsed())));
        }
        Ok((counted.grids, Stop::Complete, details))
    }

    /// Counts a puzzle whose givens and rules stay inside bands by its
    /// bands: each band with its own givens or rules enumerated by the
    /// plan's engine (no symmetry, no shortcut, one thread each; the bands
    /// shared out among the threads), the free ones read from the blank
    /// layout's table; past the method's bounds, the reason, and stopped
    /// early, the stop.
    pub(super) fn local_bands(
        &self,
        local: &Local,
        moved: Option<&Moved>,
        start: Instant,
    ) -> Result<LocalBands, CountError> {
        let plan = self.plan;
        let stop = stopper(&plan, start);
        let enumerate = |band: &Puzzle, max: u128, each: &mut dyn FnMut(&Grid) -> bool| {
            let mut piece = piece_plan(&plan, start, Some(max));
            // The bands of a count moved onto bands hold tables of pairs,
            // which the plan leaves to the enum engine; the grid engine
            // enumerates them faster (8x8 up to symmetry: 88 s where it
            // took 116 s, bench/results/orbits-2026-12-02-2.md).
            if moved.is_some() && piece.engine.is_none() && unfit(band, piece.encoding.digits).is_none() {
                piece.engine = Some(EngineKind::Grid);
            }
            let tally = Counter::new(piece).count(band, &mut Each(each))?;
            Ok::<_, CountError>(match tally.stop {
                Stop::Complete => Some(true),
                Stop::MaxReached => Some(false),
                _ => None,
            })
        };
        let (h, w) = (local.h, local.w);
        let bands = if local.transposed { "columns" } else { "rows" };
        let lines = format!("{w} bands of {h} {bands}");
        let (threads, blank) = (self.threads(&Quiet), self.blank_of(local));
        let outcome = match moved {
            Some(moved) => local.count_moved(moved, threads, &enumerate, blank, &stop)?,
            None => local.count(threads, &enumerate, blank, &stop)?,
        };
        let counted = match outcome {
            Outcome::Counted(counted) => counted,
            Outcome::TooLarge(why) => {
                return Ok(LocalBands::TooLarge(format!("bands: {lines}, not counted by bands: {why}")))
            }
            Outcome::Stopped => return Ok(LocalBands::Stopped(stopped(&plan))),
        };
        let mut details = Vec::new();
        if plan.details {
            let own = itertools::join(
                counted.own.iter().map(|&(band, fillings, signatures)| {
                    format!("band {} {fillings} fillings in {signatures} signatures", band + 1)
                }),
                ", ",
            );
            let free = match counted.classes {
                Some(classes) => format!("; the other bands by the blank layout's {classes} classes"),
                None => String::new(),
            };
            let what = if local.crosses() { "groups crossing them" } else { "givens or rules inside bands" };
            details.push(format!("bands: {lines} with {what}; enumerated: {own}{free}"));
            if counted.pairs > 0 {
                details.push(format!("joined: {} pairs of signatures", counted.pairs));
            }
            details.push(format!("time: count {}", millis(start.elapsed())));
        }
        Ok(LocalBands::Counted(counted.grids, details))
    }

    /// Makes sure the counter holds the blank layout of `local`'s bands,
    /// counted by its table, if the table fits: counted once per layout
    /// (9x9: 0.07 s). `false` if stopped first.
    fn blank_for(&mut self, local: &Local, start: Instant) -> Result<bool, CountError> {
        let Some(bands) = local.blank() else { return Ok(true) };
        if self.blank.as_ref().is_some_and(|blank| (blank.h, blank.w) == (bands.h, bands.w)) {
            return Ok(true);
        }
        let plan = self.plan;
        let stop = stopper(&plan, start);
        self.blank = bands.blank(self.threads(&Quiet), &filler(&plan, start), &stop)?;
        Ok(self.blank.is_some())
    }

    /// The counter's blank layout for `local`'s bands, if it holds it.
    fn blank_of(&self, local: &Local) -> Option<&Blank> {
        self.blank.as_ref().filter(|blank| (blank.h, blank.w) == (local.h, local.w))
    }

    /// Knuth's estimate of `puzzle`'s solutions on the grid engine, where
    /// it takes the puzzle in the plan's encoding.
    fn solutions_estimate(&self, puzzle: &Puzzle) -> Option<f64> {
        let encoded = self.prepared.as_ref()?.encoded();
        if unfit(puzzle, encoded.vars.digits()).is_some() {
            return None;
        }
        Some(GridSearch::new(puzzle, encoded).estimate(ESTIMATE_DIVES, 1))
    }

    /// Why counting `puzzle` by its bands is unlikely to pay, if it is:
    /// estimated ([`Local::estimate`], from the blank layout's counts), its
    /// bands have more fillings than they may, or more than a sixteenth of
    /// its solutions. A layout without a table is left to the bounds.
    fn bands_unlikely(&self, local: &Local, puzzle: &Puzzle) -> Option<String> {
        if local.crosses() {
            // Estimates from the blank layout know nothing of crossing
            // groups; the count's own bounds decide.
            return None;
        }
        let (band, grids) = match known_totals(local.h, local.w) {
            Some(totals) => totals,
            None => {
                let blank = self.blank_of(local)?;
                let float = |n: &BigUint| n.to_string().parse::<f64>().unwrap_or(f64::INFINITY);
                (float(&blank.fillings), float(&blank.grids))
            }
        };
        let (bands, solutions) = local.estimate(puzzle, band, grids);
        let lines = format!("{} bands of {} {}", local.w, local.h, if local.transposed { "columns" } else { "rows" });
        if bands > MAX_FILLINGS as f64 {
            Some(format!("bands: {lines}, not counted by bands: their fillings are estimated at {bands:.1e}, past {MAX_FILLINGS}"))
        } else if bands * 16.0 > solutions {
            Some(format!(
                "bands: {lines}, not counted by bands: their fillings are estimated at {bands:.1e}, the solutions at {solutions:.1e}"
            ))
        } else {
            None
        }
    }

    /// Counts the essentially different grids of a blank Sudoku by
    /// Burnside's lemma: every grid by the plan (by bands where it can),
    /// each class's fixed grids by the engine, or by bands moved onto
    /// bands where the engine is not done within `burnside::quick`.
    /// Stopped early, the lower bound is 0.
    pub(super) fn orbits(&self, puzzle: &Puzzle, start: Instant) -> Result<(BigUint, Stop, Vec<String>), CountError> {
        let plan = self.plan;
        if matches!(plan.symmetry, SymmetryUse::None) {
            return Err(CountError::Unsupported("--up-to-symmetry needs symmetry: not with --symmetry none".into()));
        }
        let transpose = matches!(plan.symmetry, SymmetryUse::Auto | SymmetryUse::NoBands);
        let piece = |symmetry, within: Option<Duration>| {
            let left = plan.limits.timeout.map(|t| t.saturating_sub(start.elapsed()));
            let timeout = match (left, within) {
                (Some(left), Some(within)) => Some(left.min(within)),
                (left, within) => left.or(within),
            };
            Plan {
                up_to_symmetry: false,
                details: false,
                symmetry,
                limits: Limits { max: None, timeout, ..plan.limits },
                ..plan
            }
        };
        let complete = |tally: Tally| (tally.stop == Stop::Complete).then_some(tally.count);
        // Every grid, by any method (bands where they apply), whatever the group.
        let mut all = || Ok(complete(Counter::new(piece(SymmetryUse::Auto, None)).count(puzzle, &mut Quiet)?));
        // The grids a symmetry maps onto a relabelling of themselves, up to
        // relabelling (the constraint only compares digits for equality).
        let mut fixed = |invariant: &Puzzle, within: Option<Duration>| {
            Ok(complete(Counter::new(piece(SymmetryUse::Auto, within)).count(invariant, &mut Quiet)?))
        };
        let mut done =
            |classes: usize| plan.tell("Burnside", Some(("classes' fixed grids counted", classes as u64)), start);
        // Relabelling by relabelling, by bands (one counter: the layout's
        // table once).
        let mut bands = Counter::new(piece(SymmetryUse::Auto, None));
        let mut banded = |invariant: &Puzzle, transposed: bool, moved: &Moved| {
            let Some(local) = Local::oriented(invariant, transposed) else { return Ok(None) };
            if !bands.blank_for(&local, start)? {
                return Ok(None);
            }
            Ok(match bands.local_bands(&local, Some(moved), start)? {
                LocalBands::Counted(grids, _) => Some(grids),
                LocalBands::TooLarge(_) | LocalBands::Stopped(_) => None,
            })
        };
        let stop = telling_stopper(&plan, start, "Burnside");
        // The engine's brief first try, `burnside::quick`; another (in milliseconds,
        // 0: bands for every class they can count) from the environment,
        // for tests and measurements.
        let quick = std::env::var("SATSUDOKU_BURNSIDE_QUICK").ok().and_then(|v| v.parse().ok());
        let (h, w) = puzzle.boxes().unwrap_or((1, 1));
        let quick = quick.map_or(burnside::quick(h, w), Duration::from_millis);
        let bands = plan.symmetry != SymmetryUse::NoBands;
        // The identity's term from the environment, if given (the app checks it
        // and says on stderr that the count rests on it).
        let given = burnside::given_all().ok().flatten();
        let counts =
            Counts { all: &mut all, fixed: &mut fixed, banded: &mut banded, done: &mut done, quick, bands, given };
        let Some(orbits) = crate::count::burnside::count(puzzle, transpose, counts, &stop)? else {
            let why = stopped(&plan);
            return Ok((BigUint::default(), why, Vec::new()));
        };
        let mut details = Vec::new();
        if plan.details {
            let with = if orbits.transposed { "with" } else { "without" };
            let beyond = match orbits.beyond_lines {
                0 => String::new(),
                k => format!("; {k} of them move no lines as wholes"),
            };
            let n = puzzle.side();
            details.push(format!(
                "burnside: {} geometric symmetries ({with} transposition{beyond}) in {} conjugacy classes, times {n}! \
                 relabellings",
                orbits.group,
                orbits.classes.len()
            ));
            let fixing = orbits.classes.iter().filter(|(_, fixed)| *fixed != BigUint::default());
            let terms = itertools::join(fixing.map(|(size, fixed)| format!("{size} x {fixed}")), " + ");
            details.push(format!("fixed grids, class size x grids fixed by each element: {terms}"));
            details.push(format!(
                "classes counted by bands: {} of {} (the identity by the plan, the others by the engine)",
                orbits.banded,
                orbits.classes.len()
            ));
            details.push(format!("time: count {}", millis(start.elapsed())));
        }
        Ok((orbits.orbits, Stop::Complete, details))
    }

    /// Counts a blank Sudoku with extra groups (or pairs of different
    /// cells) by a band's orbits
    /// ([`Band`]): each orbit's completions counted by the plan on
    /// one thread, the orbits shared out between the threads, and summed
    /// times their sizes and the relabellings. `None` if the band has too
    /// many fillings to list (the caller counts another way). Stopped
    /// early, the sum so far is a lower bound.
    pub(super) fn band_orbits(
        &self,
        puzzle: &Puzzle,
        band: &Band,
        start: Instant,
    ) -> Result<Option<(BigUint, Stop, Vec<String>)>, CountError> {
        let plan = self.plan;
        let stop = telling_stopper(&plan, start, "band orbits");
        let Some(orbits) = band.orbits(&stop) else {
            return Ok(stop().then(|| (BigUint::default(), stopped(&plan), Vec::new())));
        };
        // The outer bands joined where that pays on the orbits tried (see
        // `JOIN_PAYS`), their counts kept either way.
        let (mut join, mut tried) = (Join::new(puzzle, band.index()), Vec::new());
        if let Some(joined) = &join {
            let (mut met, mut completions, mut table) = (0u128, 0u128, Table::default());
            for k in join_trials(orbits.orbits.len()) {
                let Some(count) = joined.count(orbits.orbits[k].0, &mut table, &stop) else {
                    return Ok(Some((BigUint::default(), stopped(&plan), Vec::new())));
                };
                (completions, met) = (completions + count.0, met + u128::from(count.1));
                tried.push((k, count.0));
            }
            if met > completions.saturating_mul(JOIN_PAYS) {
                join = None;
            }
        }
        let each = |counter: &mut Counter, table: &mut Table, k: usize, stop: &dyn Fn() -> bool| {
            let (filling, size) = orbits.orbits[k];
            // An orbit the join was tried on is counted already, whether
            // the join was then kept or not.
            if let Some(&(_, completions)) = tried.iter().find(|t| t.0 == k) {
                Ok((BigUint::from(completions) * size, Stop::Complete))
            } else if let Some(join) = &join {
                Ok(match join.count(filling, table, stop) {
                    Some((completions, _)) => (BigUint::from(completions) * size, Stop::Complete),
                    None => (BigUint::default(), stopped(&plan)),
                })
            } else {
                let tally = counter.count(&band.given(puzzle, filling), &mut Quiet)?;
                Ok((tally.count * size, tally.stop))
            }
        };
        let (sum, why) = self.share_out(orbits.orbits.len(), plan.engine, start, "band orbits", &each)?;
        let n = puzzle.side();
        let relabellings: BigUint = (1..=n as u32).product();
        let mut details = Vec::new();
        if plan.details {
            details.push(format!(
                "band orbits: {} fillings of rows {} to {} with their first box fixed, {} motions keep the band and the \
                 rules, {} orbits, each one's completions counted once ({}), times its size and {n}! relabellings",
                orbits.fillings,
                band.rows().0,
                band.rows().1,
                band.motions(),
                orbits.orbits.len(),
                if join.is_some() { "by joining the outer bands' fillings" } else { "by the plan" },
            ));
            details.push(format!("time: count {}", millis(start.elapsed())));
        }
        Ok(Some((sum * relabellings, why, details)))
    }

    /// Counts `pieces` pieces on the threads, piece `k` by `each` (its
    /// share of the count and how its count ended, given a counter of the
    /// plan on one thread with `engine` and the time left, the worker's
    /// own state and what says stop), each worker taking the next piece;
    /// the sum, and the first way a piece's count stopped short (the other
    /// workers stop at their next piece). `method` names the progress it
    /// reports.
    fn share_out<S: Default>(
        &self,
        pieces: usize,
        engine: Option<EngineKind>,
        start: Instant,
        method: &'static str,
        each: &Piece<S>,
    ) -> Result<(BigUint, Stop), CountError> {
        let plan = self.plan;
        let piece = Plan {
            up_to_symmetry: false,
            details: false,
            jobs: Some(1),
            report: None,
            limits: Limits { max: None, ..plan.limits },
            engine,
            ..plan
        };
        let end = deadline(&plan, start);
        // The next piece to count, the pieces counted, and whether a worker
        // has stopped.
        let (next, done, halt) = (AtomicUsize::new(0), AtomicUsize::new(0), AtomicBool::new(false));
        let results = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.threads(&Quiet).min(pieces.max(1)))
                .map(|_| {
                    scope.spawn(|| -> Result<(BigUint, Stop), CountError> {
                        let (mut counter, mut sum, mut state) = (Counter::new(piece), BigUint::default(), S::default());
                        let stop = || halt.load(AtomicOrdering::Relaxed) || stopper(&plan, start)();
                        loop {
                            let k = next.fetch_add(1, AtomicOrdering::Relaxed);
                            if k >= pieces {
                                return Ok((sum, Stop::Complete));
                            }
                            // Each count's time limit: what is left of this one's.
                            counter.plan.limits.timeout = end.map(|end| end.saturating_duration_since(Instant::now()));
                            if counter.plan.limits.timeout == Some(Duration::ZERO) || halt.load(AtomicOrdering::Relaxed)
                            {
                                return Ok((sum, stopped(&plan)));
                            }
                            let found = each(&mut counter, &mut state, k, &stop);
                            let (part, why) = found.inspect_err(|_| halt.store(true, AtomicOrdering::Relaxed))?;
                            sum += part;
                            if why != Stop::Complete {
                                halt.store(true, AtomicOrdering::Relaxed);
                                return Ok((sum, why));
                            }
                            let counted = done.fetch_add(1, AtomicOrdering::Relaxed) + 1;
                            plan.tell(method, Some(("orbits counted", counted as u64)), start);
                        }
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().expect("an orbits worker panicked")).collect::<Vec<_>>()
        });
        let (mut sum, mut why) = (BigUint::default(), Stop::Complete);
        for result in results {
            let (part, stop) = result?;
            sum += part;
            if why == Stop::Complete {
                why = stop;
            }
        }
        Ok((sum, why))
    }

    /// Counts a blank Sudoku that relabelling does not keep by the orbits
    /// of one box's fillings under its symmetries ([`BoxOrbits`]): each
    /// orbit's completions counted by the plan on one thread (on the grid
    /// engine where it fits and none is asked for: see below), the orbits
    /// shared out, and summed times their sizes. `None` if the box has
    /// too many fillings to list. Stopped early, the sum so far is a lower
    /// bound.
    pub(super) fn box_orbits(
        &self,
        puzzle: &Puzzle,
        found: &BoxOrbits,
        start: Instant,
    ) -> Result<Option<(BigUint, Stop, Vec<String>)>, CountError> {
        let plan = self.plan;
        let stop = telling_stopper(&plan, start, "box orbits");
        let Some(orbits) = found.orbits(&stop) else {
            return Ok(stop().then(|| (BigUint::default(), stopped(&plan), Vec::new())));
        };
        // A box's completions are many grids of a rule laid over the whole
        // grid: the grid engine, which does not learn, counts them three
        // times as fast as the enum engine (678 nonconsecutive 9x9 grids
        // around one middle box: 0.33 s against 0.98 s).
        let grid = plan.engine.is_none() && !plan.encoding.reduce && unfit(puzzle, plan.encoding.digits).is_none();
        let engine = if grid { Some(EngineKind::Grid) } else { plan.engine };
        let each = |counter: &mut Counter, _: &mut (), k: usize, _: &dyn Fn() -> bool| {
            let (filling, size) = orbits.orbits[k];
            let tally = counter.count(&found.given(puzzle, filling), &mut Quiet)?;
            Ok((tally.count * size, tally.stop))
        };
        let (sum, why) = self.share_out(orbits.orbits.len(), engine, start, "box orbits", &each)?;
        let mut details = Vec::new();
        if plan.details {
            let (first, last) = found.corners();
            details.push(format!(
                "box orbits: {} fillings of the box {first} to {last}, {} symmetries keep it and the rules (motions of \
                 the square, the digits read backwards), {} orbits, each one's completions counted once ({}), times \
                 its size",
                orbits.fillings,
                found.symmetries(),
                orbits.orbits.len(),
                if grid { "by the plan on the grid engine" } else { "by the plan" },
            ));
            details.push(format!("time: count {}", millis(start.elapsed())));
        }
        Ok(Some((sum, why, details)))
    }

    /// Counts `F`, the grids equal to their transposition, then `L`, those
    /// at most it: `2L - F`. Stopped early, the larger partial count is a
    /// lower bound (`F <= L <= 2L - F`), which is what progress shows.
    pub(super) fn transposed(
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

    /// Counts `puzzle` with varisat (blocking clauses, on `threads`), up to
    /// `max` models, on a thread of its own: a varisat search cannot be
    /// stopped inside one solve, so this thread watches the plan's deadline
    /// and interrupt and, when either comes first, answers
    /// [`Learnt::Stopped`] at once and leaves the search to end on its own
    /// (its result is dropped; a process that exits ends it).
    pub(super) fn learn<O: Observer + Send + 'static>(
        &self,
        puzzle: &Puzzle,
        max: u128,
        threads: usize,
        start: Instant,
        mut observer: O,
    ) -> Result<Learnt<O>, CountError> {
        let plan = self.plan;
        let until = deadline(&plan, start);
        let (puzzle, (sender, receiver)) = (puzzle.clone(), std::sync::mpsc::channel());
        let search = std::thread::Builder::new()
            .name("satsudoku-learn".into())
            .spawn(move || {
                let encoded = encode(&puzzle, &plan.encoding);
                // `count_on` measures the timeout from `start`, as the plan does.
                let limits = Limits { max: Some(max), ..plan.limits };
                let counted = count_on(
                    &puzzle,
                    &encoded,
                    EngineKind::Blocking,
                    threads,
                    limits,
                    &mut observer,
                    start,
                    Resume::default(),
                );
                let _ = sender.send(counted.map(|(count, _)| (count, Box::new(encoded), observer)));
            })
            .map_err(CountError::Threads)?;
        loop {
            match receiver.recv_timeout(Duration::from_millis(20)) {
                Ok(counted) => {
                    return counted.map(|(count, encoded, observer)| Learnt::Counted(count, encoded, observer))
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    plan.tell("varisat", None, start);
                    if plan.interrupted() {
                        return Ok(Learnt::Stopped(Stop::Interrupted));
                    }
                    if until.is_some_and(|d| Instant::now() >= d) {
                        return Ok(Learnt::Stopped(Stop::Timeout));
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => match search.join() {
                    Err(panic) => std::panic::resume_unwind(panic),
                    Ok(()) => unreachable!("the search sends its result before it ends"),
                },
            }
        }
    }

    /// `details` with the engine that enumerated named first.
    fn engine_details(&self, kind: EngineKind, mut details: Vec<String>) -> Vec<String> {
        if self.plan.details {
            details.insert(0, format!("engine: {kind}"));
        }
        details
    }

    /// The `--stats` lines of an enumeration, when asked for.
    fn enumeration_details(&self, encoded: &Encoded, stats: SearchStats, start: Instant) -> Vec<String> {
        if !self.plan.details {
            return Vec::new();
        }
        vec![encoded.summary(), stats.to_string(), format!("time: count {}", millis(start.elapsed()))]
    }
}

/// The plan of a piece of a count (a band puzzle): no symmetry, no
/// shortcut, one thread, at most `max` models, what is left of the
/// timeout.
fn piece_plan(plan: &Plan, start: Instant, max: Option<u128>) -> Plan {
    let timeout = plan.limits.timeout.map(|t| t.saturating_sub(start.elapsed()));
    Plan {
        symmetry: SymmetryUse::None,
        shortcuts: false,
        jobs: Some(1),
        details: false,
        limits: Limits { max, timeout, ..plan.limits },
        ..*plan
    }
}

/// Counts a band puzzle of a count by bands by the plan of a piece:
/// `None` if it stopped first.
fn filler(plan: &Plan, start: Instant) -> impl Fn(&Puzzle) -> Result<Option<BigUint>, CountError> + Sync + '_ {
    move |band: &Puzzle| {
        let tally = Counter::new(piece_plan(plan, start, None)).count(band, &mut Quiet)?;
        Ok((tally.stop == Stop::Complete).then_some(tally.count))
    }
}

/// The blank layout's band fillings and grids, for boxes of `h x w`
/// cells, where the literature gives them: 9x9, 948,109,639,680 fillings
/// of the first band (9! x 2,612,736) and 6,670,903,752,021,072,936,960
/// grids (Felgenhauer & Jarvis 2005); the bands' own table agrees
/// (`known_totals_are_the_tables`).
fn known_totals(h: usize, w: usize) -> Option<(f64, f64)> {
    ((h, w) == (3, 3)).then_some((948_109_639_680.0, 6_670_903_752_021_072_936_960.0))
}

/// What counting by local bands came to.
pub(super) enum LocalBands {
    /// The count, and what `--stats` says.
    Counted(BigUint, Vec<String>),
    /// Past the method's bounds: what `--stats` says.
    TooLarge(String),
    /// Stopped early.
    Stopped(Stop),
}

/// Whether a count that started at `start` must stop now: interrupted, or
/// past its deadline (for the methods that poll rather than run an engine).
fn stopper(plan: &Plan, start: Instant) -> impl Fn() -> bool + Sync + '_ {
    let deadline = deadline(plan, start);
    move || plan.interrupted() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// [`stopper`], telling [`Plan::report`] about `method` at each poll.
fn telling_stopper<'p>(plan: &'p Plan, start: Instant, method: &'static str) -> impl Fn() -> bool + Sync + 'p {
    let stop = stopper(plan, start);
    move || {
        plan.tell(method, None, start);
        stop()
    }
}

/// Why a polling method stopped early.
fn stopped(plan: &Plan) -> Stop {
    if plan.interrupted() {
        Stop::Interrupted
    } else {
        Stop::Timeout
    }
}

/// The deadline of a count that started at `start`.
pub(super) fn deadline(plan: &Plan, start: Instant) -> Option<Instant> {
    plan.limits.timeout.and_then(|t| start.checked_add(t))
}

fn millis(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// An observer seen through the symmetry: progress reports the count as
/// it will be printed, the models so far (or `floor`, if more) times the
/// factor.
pub(super) struct Scaled<'o, O: Observer> {
    pub(super) inner: &'o mut O,
    pub(super) factor: u128,
    pub(super) floor: u128,
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
pub(super) struct Keep {
    pub(super) grids: Vec<Grid>,
    pub(super) limit: usize,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Encoding;

    /// The totals taken from the literature are the ones the bands' table
    /// computes for the blank 9x9 layout.
    #[test]
    fn known_totals_are_the_tables() {
        let puzzle = Puzzle::sudoku(3, 3).unwrap();
        let bands = Bands::recognize(&puzzle, true).unwrap();
        let plan = Plan::new(Encoding::default());
        let start = Instant::now();
        let blank = bands.blank(1, &filler(&plan, start), &|| false).unwrap().unwrap();
        let (fillings, grids) = (948_109_639_680u64, "6670903752021072936960".parse::<BigUint>().unwrap());
        assert_eq!((blank.fillings.clone(), blank.grids.clone()), (fillings.into(), grids.clone()));
        let float = |n: &BigUint| n.to_string().parse::<f64>().unwrap();
        assert_eq!(known_totals(3, 3), Some((float(&blank.fillings), float(&grids))));
        assert_eq!(known_totals(2, 3), None);
    }
}
