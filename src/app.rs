//! What each subcommand does, from parsed arguments to printed results. Results
//! go to stdout; diagnostics go to stderr.

use std::fs;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::cli::{Cli, Command, CompareArgs, CountArgs, DecodeArgs, ExportArgs, Progress};
use crate::compare;
use crate::count::{self, EngineKind, Limits, Observer, Search, Stop};
use crate::dimacs::{self, SolverAnswer};
use crate::encode::{self, Encoded, Encoding};
use crate::model::{check, Grid, Puzzle};
use crate::parse::{self, ParseError, Pos};
use crate::report;

/// How a successful run ended; each maps to an exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Done; exit 0.
    Done,
    /// The count is a lower bound (`--max` or `--timeout`); exit 3.
    LowerBound,
    /// The model given to `decode` is not a solution; exit 1.
    NotASolution,
}

impl Status {
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Done => 0,
            Status::NotASolution => 1,
            Status::LowerBound => 3,
        }
    }
}

/// An input that cannot be used: unreadable or malformed. Exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(String);

impl From<ParseError> for BadInput {
    fn from(err: ParseError) -> BadInput {
        BadInput(err.to_string())
    }
}

/// Runs one subcommand.
pub fn run(cli: &Cli) -> Result<Status> {
    match &cli.command {
        Command::Count(args) => run_count(args),
        Command::Export(args) => run_export(args),
        Command::Decode(args) => run_decode(args),
        Command::Compare(args) => run_compare(args),
    }
}

/// Reads a file, or stdin for `-` or no path, as UTF-8; returns its display name.
fn read_text(path: Option<&Path>) -> Result<(String, String), BadInput> {
    let (name, bytes) = match path {
        None => read_stdin()?,
        Some(p) if p.as_os_str() == "-" => read_stdin()?,
        Some(p) => {
            let name = p.display().to_string();
            let bytes = fs::read(p).map_err(|e| BadInput(format!("cannot read {name}: {e}")))?;
            (name, bytes)
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok((name, text)),
        Err(err) => {
            let valid = &err.as_bytes()[..err.utf8_error().valid_up_to()];
            let valid = std::str::from_utf8(valid).unwrap_or_default();
            let line = valid.matches('\n').count() + 1;
            let col = valid.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            let byte = err.as_bytes()[valid.len()];
            Err(Pos { line, col }.error(&name, format!("expected UTF-8 text, found byte 0x{byte:02x}")).into())
        }
    }
}

fn read_stdin() -> Result<(String, Vec<u8>), BadInput> {
    let mut bytes = Vec::new();
    io::stdin().read_to_end(&mut bytes).map_err(|e| BadInput(format!("cannot read stdin: {e}")))?;
    Ok(("<stdin>".to_owned(), bytes))
}

fn read_puzzle(path: Option<&Path>, format: Option<parse::Format>) -> Result<(String, crate::model::Puzzle), BadInput> {
    let (name, text) = read_text(path)?;
    let puzzle = parse::parse(&text, &name, format)?;
    Ok((name, puzzle))
}

/// Set by Ctrl-C; the running count stops within milliseconds and reports a lower bound.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

fn run_count(args: &CountArgs) -> Result<Status> {
    let encoding = args.encoding.encoding().map_err(BadInput)?;
    // Without a handler Ctrl-C simply ends the process; with one, the partial
    // count is printed. A failure to install it only loses that nicety.
    if ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed)).is_err() {
        eprintln!("satsudoku: warning: cannot catch Ctrl-C; an interrupted count prints nothing");
    }
    let files: Vec<Option<&Path>> =
        if args.files.is_empty() { vec![None] } else { args.files.iter().map(|f| Some(f.as_path())).collect() };
    let batch = files.len() > 1;
    let threads = args.jobs.map_or_else(count::all_cores, usize::from);
    let outcomes = if batch && !args.print && threads > 1 {
        count_in_parallel(&files, threads.min(files.len()), &encoding, args)
    } else {
        count_in_turn(&files, &encoding, args)
    };
    let mut status = Status::Done;
    let mut unreadable = 0;
    for outcome in outcomes {
        match outcome {
            Outcome::Counted(lower_bound) => {
                if lower_bound == Status::LowerBound {
                    status = Status::LowerBound;
                }
            }
            // In a batch one bad file does not stop the others (its error
            // went to stderr in its turn).
            Outcome::Unreadable(_) if batch => unreadable += 1,
            Outcome::Unreadable(err) => return Err(err.into()),
            Outcome::Failed(err) => return Err(err),
        }
    }
    if unreadable > 0 {
        return Err(BadInput(format!("{unreadable} of {} files could not be counted", args.files.len())).into());
    }
    Ok(status)
}

/// How counting one file ended, once its output is written.
enum Outcome {
    Counted(Status),
    Unreadable(BadInput),
    Failed(anyhow::Error),
}

impl Outcome {
    /// In a batch, reports an unreadable file on stderr in its turn; alone,
    /// its error is the run's error.
    fn announce(&self, batch: bool) {
        if let (Outcome::Unreadable(err), true) = (self, batch) {
            eprintln!("error: {err}");
        }
    }
}

/// Counts the files one after another, each with the `--jobs` the user gave
/// (default: [`Search::auto`]), streaming output; stops after an interrupt.
fn count_in_turn(files: &[Option<&Path>], encoding: &Encoding, args: &CountArgs) -> Vec<Outcome> {
    let batch = files.len() > 1;
    let engine = engine(args, encoding);
    let search = match args.jobs {
        Some(jobs) => Search { engine, jobs: jobs.into(), probe: None },
        None => Search::auto(engine),
    };
    let show_progress = match args.progress {
        Progress::Always => true,
        Progress::Never => false,
        Progress::Auto => io::stderr().is_terminal(),
    };
    let mut outcomes = Vec::new();
    for &file in files {
        let mut sinks = Sinks { out: BufWriter::new(io::stdout().lock()), diag: io::stderr(), show_progress };
        let outcome = count_file(file, batch, encoding, search, args, &mut sinks);
        let failed = matches!(outcome, Outcome::Failed(_));
        outcome.announce(batch);
        outcomes.push(outcome);
        if failed || INTERRUPTED.load(Ordering::Relaxed) {
            break;
        }
    }
    outcomes
}

/// The engine the user asked for, or the fastest for the encoding.
fn engine(args: &CountArgs, encoding: &Encoding) -> EngineKind {
    args.engine.unwrap_or_else(|| EngineKind::fastest_for(encoding.digits))
}

/// Counts a batch on `threads` threads, one file per thread at a time, each
/// on one thread: for many short counts this beats splitting each count.
/// Output is gathered per file and written in the order of the files; there
/// is no progress line. After an interrupt no new file is started, and the
/// output stops before the first file that was not.
fn count_in_parallel(files: &[Option<&Path>], threads: usize, encoding: &Encoding, args: &CountArgs) -> Vec<Outcome> {
    let search = Search::from(engine(args, encoding));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= files.len() || INTERRUPTED.load(Ordering::Relaxed) {
                    break;
                }
                let mut sinks = Sinks { out: Vec::new(), diag: Vec::new(), show_progress: false };
                let outcome = count_file(files[index], true, encoding, search, args, &mut sinks);
                if sender.send((index, outcome, sinks.out, sinks.diag)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        // Writes each file's output once every file before it is written.
        let mut waiting = std::collections::BTreeMap::new();
        let mut outcomes = Vec::new();
        let mut stdout = io::stdout().lock();
        for (index, outcome, out, diag) in receiver {
            waiting.insert(index, (outcome, out, diag));
            while let Some((outcome, out, diag)) = waiting.remove(&outcomes.len()) {
                let written = stdout.write_all(&out).and_then(|()| stdout.flush());
                let _ = io::stderr().write_all(&diag);
                let outcome = match written {
                    Err(err) => Outcome::Failed(anyhow::Error::new(err).context("cannot write to stdout")),
                    Ok(()) => outcome,
                };
                outcome.announce(true);
                outcomes.push(outcome);
            }
        }
        outcomes
    })
}

/// Reads, counts and reports one file (`NAME<TAB>` before its line in a batch).
fn count_file<O: Write, D: Write>(
    file: Option<&Path>,
    batch: bool,
    encoding: &Encoding,
    search: Search,
    args: &CountArgs,
    sinks: &mut Sinks<O, D>,
) -> Outcome {
    match read_puzzle(file, args.format) {
        Err(err) => Outcome::Unreadable(err),
        Ok((name, puzzle)) => match count_one(batch.then_some(name.as_str()), &puzzle, encoding, search, args, sinks) {
            Ok(status) => Outcome::Counted(status),
            Err(err) => Outcome::Failed(err),
        },
    }
}

/// Where one count writes: its results, its diagnostics, and whether it
/// shows a progress line (on stderr).
struct Sinks<O: Write, D: Write> {
    out: O,
    diag: D,
    show_progress: bool,
}

/// Counts one puzzle and prints its line: `solutions(S).`, after `NAME<TAB>`
/// in a batch.
fn count_one<O: Write, D: Write>(
    batch_name: Option<&str>,
    puzzle: &Puzzle,
    encoding: &Encoding,
    search: Search,
    args: &CountArgs,
    sinks: &mut Sinks<O, D>,
) -> Result<Status> {
    let (prefix, name) = match batch_name {
        Some(name) => (format!("{name}\t"), format!("{name}: ")),
        None => (String::new(), String::new()),
    };
    let start = Instant::now();
    let encoded = encode::encode(puzzle, encoding);
    let encode_time = start.elapsed();

    let limits = Limits { max: args.max, timeout: args.timeout, interrupt: Some(&INTERRUPTED) };
    let progress = ProgressLine::new(sinks.show_progress);
    let mut view = CountView { out: &mut sinks.out, print: args.print, write_error: None, progress };
    let count = count::count_models(puzzle, &encoded, search, limits, &mut view)?;
    view.progress.clear();
    if let Some(err) = view.write_error {
        return Err(err).context("cannot write to stdout");
    }
    writeln!(view.out, "{prefix}{}", report::solutions_fact(count.models))?;
    view.out.flush()?;
    let diag = &mut sinks.diag;

    if args.stats {
        writeln!(diag, "{}", report::encoding_stats(&encoded))?;
        writeln!(diag, "{}", report::search_stats(&count.stats))?;
        writeln!(diag, "time: encode {}, count {}", report::millis(encode_time), report::millis(count.elapsed))?;
    }
    let elapsed = report::millis(count.elapsed);
    let (status, why) = match count.stop {
        Stop::Complete => return Ok(Status::Done),
        Stop::MaxReached => (
            Status::LowerBound,
            format!("stopped at --max {}: more solutions exist, the count is a lower bound", count.models),
        ),
        Stop::Timeout => {
            (Status::LowerBound, format!("stopped by --timeout after {elapsed}: the count is a lower bound"))
        }
        Stop::Interrupted => (Status::LowerBound, format!("interrupted after {elapsed}: the count is a lower bound")),
        // The callback stops the count only on a write error, returned above.
        Stop::Caller => return Err(anyhow::anyhow!("counting stopped before the end")),
    };
    writeln!(diag, "satsudoku: {name}{why}")?;
    Ok(status)
}

/// What a count shows while it runs: the solutions with `--print` (stdout)
/// and the progress line (stderr).
struct CountView<W: Write> {
    out: W,
    print: bool,
    write_error: Option<io::Error>,
    progress: ProgressLine,
}

impl<W: Write> Observer for CountView<W> {
    fn wants_models(&self) -> bool {
        self.print
    }

    fn model(&mut self, index: u128, grid: &Grid) -> ControlFlow<()> {
        match self.out.write_all(report::solution_facts(index, grid).as_bytes()) {
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

/// `models, rate, elapsed` on stderr, rewritten in place at most four times a
/// second once a count has run for a second; never on stdout.
struct ProgressLine {
    enabled: bool,
    /// When the line was last written, as time since the count started.
    last: Option<Duration>,
}

impl ProgressLine {
    fn new(enabled: bool) -> ProgressLine {
        ProgressLine { enabled, last: None }
    }

    fn update(&mut self, models: u128, elapsed: Duration) {
        if !self.enabled {
            return;
        }
        let due = self.last.map_or(elapsed.as_secs_f64() >= 1.0, |last| (elapsed - last).as_secs_f64() >= 0.25);
        if due {
            let rate = models as f64 / elapsed.as_secs_f64();
            eprint!("\r\x1b[Ksatsudoku: {models} models, {rate:.0}/s, {:.1} s", elapsed.as_secs_f64());
            self.last = Some(elapsed);
        }
    }

    fn clear(&mut self) {
        if self.last.is_some() {
            eprint!("\r\x1b[K");
        }
    }
}

/// Comment lines that say where an exported CNF comes from and how to read it.
fn export_comments(source: &str, encoded: &Encoded) -> Vec<String> {
    vec![
        format!("satsudoku {} export", env!("CARGO_PKG_VERSION")),
        format!("source: {source}"),
        format!("encoding: {}", encoded.encoding),
        format!("variables: {}; {} auxiliary follow", encoded.vars.describe(), encoded.aux_count()),
        format!("clauses: {}", encoded.clause_counts),
    ]
}

fn run_export(args: &ExportArgs) -> Result<Status> {
    let (name, puzzle) = read_puzzle(args.input.file.as_deref(), args.input.format)?;
    let encoded = encode::encode(&puzzle, &args.encoding.encoding().map_err(BadInput)?);
    let projection: Vec<_> = (0..encoded.vars.primary_count()).map(varisat::Var::from_index).collect();
    let comments = export_comments(&name, &encoded);
    let write = |out: &mut dyn Write| {
        let mut out = BufWriter::new(out);
        dimacs::write_dimacs(&mut out, &encoded.formula, &projection, args.dialect, &comments)
    };
    match &args.output {
        None => write(&mut io::stdout().lock()).context("cannot write to stdout")?,
        Some(path) => write_atomically(path, write)?,
    }
    Ok(Status::Done)
}

/// Writes through a temporary file beside `path`, then renames it over `path`,
/// so an error never leaves a truncated file.
fn write_atomically(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<()> {
    let file_name = path.file_name().with_context(|| format!("{} is not a file name", path.display()))?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(file_name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp: PathBuf = path.with_file_name(temp_name);
    let result = (|| -> io::Result<()> {
        let mut file = fs::File::create(&temp)?;
        write(&mut file)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result.with_context(|| format!("cannot write {}", path.display()))
}

fn run_decode(args: &DecodeArgs) -> Result<Status> {
    let (_, puzzle) = read_puzzle(Some(&args.puzzle), args.format)?;
    let (model_name, model_text) = read_text(Some(&args.model))?;
    let values = match dimacs::parse_model(&model_text, &model_name).map_err(BadInput::from)? {
        SolverAnswer::Sat(values) => values,
        SolverAnswer::Unsat => {
            eprintln!("satsudoku: {model_name}: the solver reports UNSAT: the puzzle has no solution");
            return Ok(Status::NotASolution);
        }
        SolverAnswer::Unknown => {
            eprintln!("satsudoku: {model_name}: the solver gave no answer (UNKNOWN)");
            return Ok(Status::NotASolution);
        }
    };
    let vars = encode::encode(&puzzle, &args.encoding.encoding().map_err(BadInput)?).vars;
    let grid = match vars.decode(|v| values.get(v.index()).copied().flatten()) {
        Ok(grid) => grid,
        Err(err) => {
            eprintln!("satsudoku: {model_name}: not a grid: {err}");
            return Ok(Status::NotASolution);
        }
    };
    let mut out = io::stdout().lock();
    write!(out, "{grid}")?;
    out.flush()?;
    let violations = check::violations(&puzzle, &grid);
    if violations.is_empty() {
        eprintln!("satsudoku: the model solves the puzzle");
        return Ok(Status::Done);
    }
    for v in &violations {
        eprintln!("satsudoku: violation: {v}");
    }
    eprintln!("satsudoku: the model does NOT solve the puzzle ({} violations)", violations.len());
    Ok(Status::NotASolution)
}

fn run_compare(args: &CompareArgs) -> Result<Status> {
    let mut puzzles = Vec::new();
    for path in &args.files {
        puzzles.push(read_puzzle(Some(path), args.input_format)?);
    }
    let settings = compare::Settings { engine: args.engine, repeat: args.repeat, timeout: args.timeout };
    let mut runs = Vec::new();
    for (name, puzzle) in &puzzles {
        let file_start = runs.len();
        for encoding in &args.encodings.0 {
            if io::stderr().is_terminal() {
                eprintln!("satsudoku: {name}: {encoding}");
            }
            runs.push(compare::measure(name, puzzle, encoding, settings)?);
        }
        // Every exact count must agree; anything else is a bug worth stopping for.
        let mut exact = runs[file_start..].iter().filter(|r| r.exact);
        if let Some(first) = exact.next() {
            if let Some(other) = exact.find(|r| r.count != first.count) {
                anyhow::bail!(
                    "{name}: encodings disagree: {} counts {}, {} counts {}; this is a bug in satsudoku",
                    first.encoding,
                    first.count,
                    other.encoding,
                    other.count
                );
            }
        }
    }
    let mut out = io::stdout().lock();
    out.write_all(compare::render(&runs, args.format).as_bytes())?;
    out.flush()?;
    if let Some(path) = &args.svg {
        compare::write_svg(&runs, path).map_err(anyhow::Error::msg)?;
    }
    let exact = runs.iter().all(|r| r.exact);
    Ok(if exact { Status::Done } else { Status::LowerBound })
}
