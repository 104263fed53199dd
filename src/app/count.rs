//! `satsudoku count`: one file, or a batch of files one line each.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use satsudoku::count::symmetry::{self, Reduced};
use satsudoku::count::{self, Limits, Observer, Search, Stop};
use satsudoku::count::{lines, split};
use satsudoku::encode;
use satsudoku::model::{Grid, Puzzle};
use satsudoku::parse::Format;
use satsudoku::report;

use super::input::{read_input, Input, Puzzles, Source};
use super::progress::ProgressLine;
use super::unique::Found;
use super::{batch, AppError, Status};
use crate::cli::{CountArgs, Progress, SymmetryUse};
use crate::diag;

/// Set by Ctrl-C; the running count stops within milliseconds and reports a lower bound.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// `count`'s options, resolved once.
pub struct Settings {
    pub puzzles: Puzzles,
    /// `--jobs`, if given.
    pub jobs: Option<usize>,
    pub max: Option<u128>,
    pub timeout: Option<Duration>,
    pub print: bool,
    pub stats: bool,
    /// Count up to digit relabelling where the rules allow it.
    pub symmetry: bool,
    /// And up to transposition, where the reduced puzzle has it.
    pub transpose: bool,
    /// Whether to show the progress line (`auto` resolved against stderr).
    pub progress: bool,
    /// `--cube`: count this cube file instead.
    pub cube: Option<std::path::PathBuf>,
    /// Count Takuzu grids a row at a time ([`count::lines`]) rather than
    /// enumerate them: unless an engine is asked for, or every solution
    /// (`--print`) or a bound (`--max`).
    pub lines: bool,
    /// Count the independent parts of a puzzle's open cells apart
    /// ([`count::split`]): unless every solution (`--print`), a bound
    /// (`--max`) or a time limit (`--timeout`) is asked for.
    pub split: bool,
}

impl Settings {
    pub fn resolve(args: &CountArgs) -> Result<Settings, AppError> {
        Ok(Settings {
            puzzles: Puzzles::resolve(&args.puzzles, &args.solve)?,
            jobs: args.jobs.map(usize::from),
            max: args.max,
            timeout: args.timeout,
            print: args.print,
            stats: args.stats,
            symmetry: args.symmetry != SymmetryUse::None && !args.print && args.max.is_none(),
            transpose: args.symmetry == SymmetryUse::Auto,
            progress: match args.progress {
                Progress::Always => true,
                Progress::Never => false,
                Progress::Auto => io::stderr().is_terminal(),
            },
            cube: args.cube.clone(),
            lines: args.solve.engine.is_none() && !args.print && args.max.is_none(),
            split: !args.print && args.max.is_none() && args.timeout.is_none(),
        })
    }

    /// Several files: each line is `NAME<TAB>solutions(S).`
    pub fn is_batch(&self) -> bool {
        self.puzzles.is_batch()
    }
}

pub fn run(settings: Settings) -> Result<Status, AppError> {
    // Without a handler Ctrl-C simply ends the process; with one, the partial
    // count is printed. A failure to install it only loses that nicety.
    if ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed)).is_err() {
        diag!("satsudoku: warning: cannot catch Ctrl-C; an interrupted count prints nothing");
    }
    let threads = settings.jobs.unwrap_or_else(count::all_cores);
    if let Some(cube) = &settings.cube {
        let search = Search { engine: settings.puzzles.engine, jobs: threads, probe: None };
        let limits = Limits { max: None, timeout: settings.timeout, interrupt: Some(&INTERRUPTED) };
        return super::cubes::count_one(cube, search, limits);
    }
    let outcomes = if settings.is_batch() && !settings.print && threads > 1 {
        batch::count_in_parallel(&settings, threads.min(settings.puzzles.sources.len()))?
    } else {
        count_in_turn(&settings)
    };
    // Files left after an interrupt (after a failure, the failure is the news).
    let skipped: Vec<String> = settings.puzzles.sources[outcomes.len()..].iter().map(Source::name).collect();
    if !skipped.is_empty() && INTERRUPTED.load(Ordering::Relaxed) {
        diag!("satsudoku: interrupted: not counted: {}", skipped.join(", "));
    }
    let mut status = if skipped.is_empty() { Status::Done } else { Status::LowerBound };
    let (mut unreadable, mut bad_lines, mut puzzles) = (0, 0, 0);
    for outcome in outcomes {
        match outcome {
            Outcome::Counted { status: counted, bad, total } => {
                (bad_lines, puzzles) = (bad_lines + bad, puzzles + total);
                if counted != Status::Done {
                    status = counted;
                }
            }
            // In a batch one bad file does not stop the others (its error
            // went to stderr in its turn).
            Outcome::Unreadable(_) if settings.is_batch() => unreadable += 1,
            Outcome::Unreadable(err) | Outcome::Failed(err) => return Err(err),
        }
    }
    if unreadable > 0 {
        return Err(AppError::Batch { failed: unreadable, total: settings.puzzles.sources.len() });
    }
    if bad_lines > 0 {
        return Err(AppError::Collection { failed: bad_lines, total: puzzles });
    }
    Ok(status)
}

/// How counting one file ended, once its output is written.
pub enum Outcome {
    /// Counted: the status of its counts, and of its `total` puzzles the
    /// `bad` lines of a collection that could not be (each reported in turn).
    Counted { status: Status, bad: usize, total: usize },
    /// The input could not be read or parsed.
    Unreadable(AppError),
    /// Counting or writing failed: the run stops.
    Failed(AppError),
}

impl Outcome {
    /// In a batch, reports an unreadable file on stderr in its turn; alone,
    /// its error is the run's error.
    pub fn announce(&self, batch: bool) {
        if let (Outcome::Unreadable(err), true) = (self, batch) {
            diag!("error: {err}");
        }
    }
}

/// Counts the files one after another, each with the `--jobs` the user gave
/// (default: [`Search::auto`]), streaming output; stops after an interrupt.
fn count_in_turn(settings: &Settings) -> Vec<Outcome> {
    let search = match settings.jobs {
        Some(jobs) => Search { engine: settings.puzzles.engine, jobs, probe: None },
        None => Search::auto(settings.puzzles.engine),
    };
    let mut outcomes = Vec::new();
    for source in &settings.puzzles.sources {
        if INTERRUPTED.load(Ordering::Relaxed) {
            break;
        }
        let mut sinks =
            Sinks { out: BufWriter::new(io::stdout().lock()), diag: Stderr, show_progress: settings.progress };
        let outcome = count_file(source, search, settings, &mut sinks);
        let failed = matches!(outcome, Outcome::Failed(_));
        outcome.announce(settings.is_batch());
        outcomes.push(outcome);
        if failed {
            break;
        }
    }
    outcomes
}

/// Reads, counts and reports one file (`NAME<TAB>` before its line in a
/// batch), or each puzzle of a collection (`LINE<TAB>`, or `NAME:LINE<TAB>`
/// in a batch), going on past a bad line.
pub fn count_file<O: Write, D: Write>(
    source: &Source,
    search: Search,
    settings: &Settings,
    sinks: &mut Sinks<O, D>,
) -> Outcome {
    let input = match read_input(source, settings.puzzles.reading) {
        Err(err) => return Outcome::Unreadable(err),
        Ok(input) => input,
    };
    match input {
        Input::One { name, puzzle, format } => {
            let label = settings.is_batch().then_some(name.as_str());
            let style = PrintStyle::of(format);
            match count_one(label, &name, &puzzle, search, style, settings, sinks) {
                Ok(status) => Outcome::Counted { status, bad: 0, total: 1 },
                Err(err) => Outcome::Failed(err),
            }
        }
        Input::Collection(collection) if super::collection::in_parallel(settings) => {
            super::collection::count_lines(&collection, search, settings, sinks)
        }
        Input::Collection(collection) => {
            let name = &collection.name;
            let (mut status, mut bad, total) = (Status::Done, 0, collection.lines().count());
            for (line, text) in collection.lines() {
                if INTERRUPTED.load(Ordering::Relaxed) {
                    let _ = writeln!(sinks.diag, "satsudoku: {name}: interrupted before line {line}");
                    status = Status::LowerBound;
                    break;
                }
                let parsed = collection.parse(line, text);
                let label = if settings.is_batch() { format!("{name}:{line}") } else { line.to_string() };
                match parsed {
                    Err(err) => {
                        let _ = writeln!(sinks.diag, "error: {err}");
                        bad += 1;
                    }
                    Ok(puzzle) => {
                        match count_one(Some(&label), name, &puzzle, search, PrintStyle::Grid, settings, sinks) {
                            Ok(Status::Done) => {}
                            Ok(other) => status = other,
                            Err(err) => return Outcome::Failed(err),
                        }
                    }
                }
            }
            Outcome::Counted { status, bad, total }
        }
    }
}

/// The full count from the count of `reduced`; an error if it does not fit in 128 bits.
pub fn total(reduced: &Reduced, counted: u128) -> Result<u128, AppError> {
    reduced.total(counted).ok_or_else(|| {
        let factor = reduced.factor();
        AppError::Other(anyhow::anyhow!("the count times {factor} relabellings does not fit in 128 bits"))
    })
}

/// How `--print` and `decode` show a solution: as the contest's LP facts,
/// as the grid in the puzzle's own symbols (digits above 9 as letters), or
/// as Takuzu's rows of 0 and 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrintStyle {
    Facts,
    Grid,
    Binary,
}

impl PrintStyle {
    pub fn of(format: Format) -> PrintStyle {
        match format {
            Format::Lp | Format::Kattis => PrintStyle::Facts,
            Format::Takuzu => PrintStyle::Binary,
            _ => PrintStyle::Grid,
        }
    }
}

/// Where one count writes: its results, its diagnostics, and whether it
/// shows a progress line (on stderr).
pub struct Sinks<O: Write, D: Write> {
    pub out: O,
    pub diag: D,
    pub show_progress: bool,
}

/// stderr, whose write errors are ignored (see [`super::diag`]).
pub struct Stderr;

impl Write for Stderr {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _ = io::stderr().write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = io::stderr().flush();
        Ok(())
    }
}

/// Counts one puzzle and prints its line: `solutions(S).`, after
/// `LABEL<TAB>` in a batch or collection. `source` names the file in a
/// note on conflicting givens.
fn count_one<O: Write, D: Write>(
    label: Option<&str>,
    source: &str,
    puzzle: &Puzzle,
    search: Search,
    style: PrintStyle,
    settings: &Settings,
    sinks: &mut Sinks<O, D>,
) -> Result<Status, AppError> {
    let (prefix, name) = match label {
        Some(label) => (format!("{label}\t"), format!("{label}: ")),
        None => (String::new(), String::new()),
    };
    let conflicts = puzzle.given_conflicts();
    if !conflicts.is_empty() {
        let at = label
            .map_or_else(|| source.to_owned(), |l| if l == source { l.to_owned() } else { format!("{source}: {l}") });
        let _ = writeln!(
            sinks.diag,
            "satsudoku: {at}: the givens conflict, so there is no solution: {}",
            conflicts.join("; ")
        );
    }
    // Up to digit relabelling, when the rules are proven blind to digit names.
    let reduced = symmetry::reduce(puzzle, settings.symmetry);
    let (puzzle, factor) = (&*reduced.puzzle, reduced.factor());
    let mut job = Job { reduced: &reduced, settings, prefix: &prefix, name: &name, sinks };
    if let Some(takuzu) = settings.lines.then(|| lines::Takuzu::recognize(puzzle)).flatten() {
        return count_lines(&takuzu, search.jobs, &mut job);
    }
    if let Some(transposition) = settings.transpose.then(|| reduced.transposition()).flatten() {
        return count_transposed(&transposition, search, &mut job);
    }
    let start = Instant::now();
    let encoded = encode::encode(puzzle, &settings.puzzles.encoding);
    let encode_time = start.elapsed();
    let parts = if settings.split { split::independent_parts(puzzle, &encoded) } else { Vec::new() };
    if !parts.is_empty() {
        return count_parts(puzzle, &encoded, &parts, search, &mut job);
    }

    let sinks = job.sinks;
    let limits = Limits { max: settings.max, timeout: settings.timeout, interrupt: Some(&INTERRUPTED) };
    let progress = ProgressLine::new(sinks.show_progress, factor);
    let mut view = CountView { out: &mut sinks.out, print: settings.print, style, write_error: None, progress };
    let mut count = count::count_models(puzzle, &encoded, search, limits, &mut view)?;
    count.models = total(&reduced, count.models)?;
    view.progress.clear();
    if let Some(err) = view.write_error {
        return Err(AppError::write("stdout")(err));
    }
    write_count(view.out, &prefix, count.models)?;

    // Diagnostics: a failed write to them is ignored (see `Stderr`).
    let diag = &mut sinks.diag;
    if settings.stats {
        if let Some(note) = relabelling_note(&reduced) {
            let _ = writeln!(diag, "{note}");
        }
        let _ = writeln!(diag, "{}", report::encoding_stats(&encoded));
        let _ = writeln!(diag, "{}", report::search_stats(&count.stats));
        let (encode_ms, count_ms) = (report::millis(encode_time), report::millis(count.elapsed));
        let _ = writeln!(diag, "time: encode {encode_ms}, count {count_ms}");
    }
    let elapsed = report::millis(count.elapsed);
    let Some(why) = stop_reason(count.stop, count.models, &elapsed)? else {
        return Ok(Status::Done);
    };
    let _ = writeln!(diag, "satsudoku: {name}{why}");
    Ok(Status::LowerBound)
}

/// One puzzle's count, as the methods other than plain enumeration (rows,
/// parts, transposition) report it: its reduction, the options, the prefix
/// of its line and the name in its notes, and where they go.
struct Job<'a, O: Write, D: Write> {
    reduced: &'a Reduced<'a>,
    settings: &'a Settings,
    prefix: &'a str,
    name: &'a str,
    sinks: &'a mut Sinks<O, D>,
}

impl<O: Write, D: Write> Job<'_, O, D> {
    /// Prints the line of `counted` (the reduced count) times the
    /// relabelling factor; with `--stats`, the relabelling note, the
    /// method's `stats` lines and the time; and `why` the count is only a
    /// lower bound, if it is.
    fn finish(
        &mut self,
        counted: u128,
        stats: &[String],
        elapsed: &str,
        why: Option<String>,
    ) -> Result<Status, AppError> {
        write_count(&mut self.sinks.out, self.prefix, total(self.reduced, counted)?)?;
        let diag = &mut self.sinks.diag;
        if self.settings.stats {
            for line in relabelling_note(self.reduced).iter().chain(stats) {
                let _ = writeln!(diag, "{line}");
            }
            let _ = writeln!(diag, "time: count {elapsed}");
        }
        let Some(why) = why else {
            return Ok(Status::Done);
        };
        let _ = writeln!(diag, "satsudoku: {}{why}", self.name);
        Ok(Status::LowerBound)
    }
}

/// Counts each independent part of the open cells on its own (see
/// [`split`]) and prints the product.
fn count_parts<O: Write, D: Write>(
    puzzle: &Puzzle,
    encoded: &encode::Encoded,
    parts: &[Vec<satsudoku::model::Cell>],
    search: Search,
    job: &mut Job<O, D>,
) -> Result<Status, AppError> {
    let start = Instant::now();
    let limits = Limits { max: None, timeout: None, interrupt: Some(&INTERRUPTED) };
    let mut first = Found(Vec::new());
    let found = count::count_models(puzzle, encoded, search, Limits { max: Some(1), ..limits }, &mut first)?;
    let mut counts = Vec::new();
    let mut complete = found.is_exact() || found.stop == Stop::MaxReached;
    if let Some(grid) = first.0.first() {
        for part in parts {
            let cube = split::cube_outside(puzzle, encoded, part, grid);
            let counted = count::count_cube(puzzle, encoded, search, limits, &mut (), cube)?;
            complete &= counted.is_exact();
            counts.push(counted.models);
        }
    }
    let product =
        if first.0.is_empty() { Some(0) } else { counts.iter().try_fold(1u128, |acc, &c| acc.checked_mul(c)) };
    let product = product
        .ok_or_else(|| AppError::Other(anyhow::anyhow!("the product of the parts' counts does not fit in 128 bits")))?;
    let elapsed = report::millis(start.elapsed());
    let sizes = itertools::join(parts.iter().map(Vec::len), ", ");
    let each = itertools::join(counts.iter(), " x ");
    let stats = format!(
        "split: the open cells fall into {} independent parts of {sizes} cells, counted apart: {each}",
        parts.len()
    );
    let why = (!complete).then(|| format!("interrupted after {elapsed}: the count is a lower bound"));
    job.finish(product, &[stats], &elapsed, why)
}

/// Writes a count's line, `solutions(S).` after `prefix`, and flushes it.
fn write_count(out: &mut impl Write, prefix: &str, models: u128) -> Result<(), AppError> {
    writeln!(out, "{prefix}{}", report::solutions_fact(models))
        .and_then(|()| out.flush())
        .map_err(AppError::write("stdout"))
}

/// `--stats`' line on the relabelling a count used, if any.
fn relabelling_note(reduced: &Reduced) -> Option<String> {
    let s = reduced.relabelling.as_ref()?;
    let fixed = itertools::join(s.fixed.iter().map(|(cell, d)| format!("{cell}={d}")), " ");
    let order = match s.order.len() {
        0 => String::new(),
        k => format!(", {k} order relations on the lines' first cells"),
    };
    Some(format!("symmetry: digit relabelling; fixed {fixed}{order}, the count multiplied by {}", s.factor))
}

/// Why a count that did not complete stopped, for the note that its count
/// is a lower bound.
fn stop_reason(stop: Stop, models: u128, elapsed: &str) -> Result<Option<String>, AppError> {
    Ok(Some(match stop {
        Stop::Complete => return Ok(None),
        Stop::MaxReached => format!("stopped at --max {models}: more solutions exist, the count is a lower bound"),
        Stop::Timeout => format!("stopped by --timeout after {elapsed}: the count is a lower bound"),
        Stop::Interrupted => format!("interrupted after {elapsed}: the count is a lower bound"),
        // The callback stops the count only on a write error, returned before.
        Stop::Caller => return Err(AppError::Other(anyhow::anyhow!("counting stopped before the end"))),
    }))
}

/// Counts a reduced puzzle with a transposition symmetry (see
/// [`symmetry::Transposition`]): `F`, the grids equal to their
/// transposition, then `L`, those at most it, and prints `2L - F` times
/// the relabelling factor. Stopped early, it prints the larger partial
/// count times the factor, a lower bound (`F <= L <= 2L - F`).
fn count_transposed<O: Write, D: Write>(
    transposition: &symmetry::Transposition,
    search: Search,
    job: &mut Job<O, D>,
) -> Result<Status, AppError> {
    let (reduced, settings) = (job.reduced, job.settings);
    let start = Instant::now();
    let (mut counts, mut stats, mut stop) = (Vec::new(), Vec::new(), Stop::Complete);
    for (equal, weight, what) in [(true, 1, "F"), (false, 2, "L")] {
        let puzzle = transposition.constrained(&reduced.puzzle, equal);
        let encoded = encode::encode(&puzzle, &settings.puzzles.encoding);
        let timeout = settings.timeout.map(|limit| limit.saturating_sub(start.elapsed()));
        let limits = Limits { max: None, timeout, interrupt: Some(&INTERRUPTED) };
        let progress = ProgressLine::new(job.sinks.show_progress, reduced.factor().saturating_mul(weight));
        let mut view =
            CountView { out: io::sink(), print: false, style: PrintStyle::Grid, write_error: None, progress };
        let count = count::count_models(&puzzle, &encoded, search, limits, &mut view)?;
        view.progress.clear();
        counts.push(count.models);
        stats.push(format!("{what}: {}", report::encoding_stats(&encoded)));
        stats.push(format!("{what}: {}", report::search_stats(&count.stats)));
        stop = count.stop;
        if !count.is_exact() {
            break;
        }
    }
    let counted = match counts[..] {
        [fixed, at_most] if stop == Stop::Complete => {
            symmetry::Transposition::total(at_most, fixed).ok_or_else(|| {
                AppError::Other(anyhow::anyhow!("the count 2 x {at_most} - {fixed} does not fit in 128 bits"))
            })?
        }
        // Stopped: the larger partial count is a lower bound.
        _ => counts.iter().max().copied().unwrap_or(0),
    };
    let renamed = transposition.rename.iter().enumerate().skip(1).filter(|&(d, &r)| usize::from(r) != d);
    let renamed = itertools::join(renamed.map(|(d, r)| format!("{d}>{r}")), " ");
    let renamed = if renamed.is_empty() { String::new() } else { format!(", digits renamed {renamed}") };
    let found = itertools::join(
        counts.iter().zip(["F (equal to it)", "L (at most it)"]).map(|(c, what)| format!("{what} {c}")),
        ", ",
    );
    let result = if stop == Stop::Complete { format!(": 2L - F = {counted}") } else { String::new() };
    let cells = transposition.a.len();
    stats.insert(0, format!("symmetry: transposition{renamed}, in the order of {cells} cells; {found}{result}"));
    let elapsed = report::millis(start.elapsed());
    let why = stop_reason(stop, counted, &elapsed)?;
    job.finish(counted, &stats, &elapsed, why)
}

/// Counts a Takuzu a row at a time (see [`lines`]) and prints its line.
fn count_lines<O: Write, D: Write>(
    takuzu: &lines::Takuzu,
    jobs: usize,
    job: &mut Job<O, D>,
) -> Result<Status, AppError> {
    let start = Instant::now();
    let deadline = job.settings.timeout.map(|t| start + t);
    let stop = || INTERRUPTED.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    let counted = takuzu.count(jobs, &stop);
    let elapsed = report::millis(start.elapsed());
    let stats =
        format!("method: Takuzu rows, top and bottom halves joined; {} states in the larger half", counted.states);
    let why = counted.stopped.then(|| {
        let why = if INTERRUPTED.load(Ordering::Relaxed) { "interrupted" } else { "stopped by --timeout" };
        format!("{why} after {elapsed}: counting by rows gives no partial count, so the count is the lower bound 0")
    });
    job.finish(if counted.stopped { 0 } else { counted.count }, &[stats], &elapsed, why)
}

/// What a count shows while it runs: the solutions with `--print` (stdout)
/// and the progress line (stderr).
struct CountView<W: Write> {
    out: W,
    print: bool,
    style: PrintStyle,
    write_error: Option<io::Error>,
    progress: ProgressLine,
}

impl<W: Write> Observer for CountView<W> {
    fn wants_models(&self) -> bool {
        self.print
    }

    fn model(&mut self, index: u128, grid: &Grid) -> ControlFlow<()> {
        let text = match self.style {
            PrintStyle::Facts => report::solution_facts(index, grid),
            PrintStyle::Grid => report::solution_grid(index, grid),
            PrintStyle::Binary => format!("% solution {index}\n{}", report::binary_rows(grid)),
        };
        match self.out.write_all(text.as_bytes()) {
            Ok(()) => ControlFlow::Continue(()),
            Err(err) => {
                self.write_error = Some(err);
                ControlFlow::Break(())
            }
        }
    }

    fn progress(&mut self, models: u128, elapsed: Duration) {
        self.progress.update(models, elapsed);
    }
}
