//! `satsudoku unique`: is each puzzle's solution unique? The library judges
//! ([`satsudoku::count::plan::Counter::judge`]: the first two solutions,
//! each checked); one result per puzzle, in order, in the format asked for
//! (`unique<TAB>SOLUTION`, `none`, or
//! `multiple<TAB>SOLUTION<TAB>SOLUTION<TAB>CELLS`, or `undecided` after
//! `--timeout` or a signal, in text, after
//! `LABEL<TAB>` in a batch or a collection).

use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};

use satsudoku::count::plan::{Counter, Verdict};
use satsudoku::count::{self, many, CountError};
use satsudoku::parse::ParseError;
use satsudoku::report::{self, Output};

use super::tasks::{Inputs, Puzzles, Tallies};
use super::{AppError, Status};
use crate::cli::UniqueArgs;
use crate::diag;

/// `unique`'s options, resolved once.
pub struct Settings {
    pub puzzles: Puzzles,
    pub jobs: usize,
    pub timeout: Option<Duration>,
    pub output: Output,
    /// `--progress`, resolved against stderr.
    pub progress: bool,
    /// `--grids`: two solutions side by side under a `multiple` line.
    pub grids: bool,
    /// `--svg`: the picture of the one puzzle.
    pub svg: Option<std::path::PathBuf>,
}

impl Settings {
    pub fn resolve(args: &UniqueArgs) -> Result<Settings, AppError> {
        // `--output mc` is not offered (cli::TEXT_OR_JSON).
        Ok(Settings {
            puzzles: Puzzles::resolve(&args.puzzles, &args.solve)?.labels_by_first_cells(),
            jobs: args.jobs.map_or_else(count::all_cores, usize::from),
            timeout: args.timeout,
            output: args.output,
            progress: super::progress::resolve(args.progress),
            svg: args.svg.clone(),
            grids: args.output == Output::Text
                && match args.grids {
                    crate::cli::Progress::Always => true,
                    crate::cli::Progress::Never => false,
                    crate::cli::Progress::Auto => std::io::IsTerminal::is_terminal(&io::stdout()),
                },
        })
    }
}

/// A worker's answer for one task: its verdict, the conflicts among its
/// givens when it has none, the time it took and its boxes (for
/// `--grids`) and first value (for the printers); or why not.
type Judged =
    Result<Result<(Verdict, Vec<String>, Duration, Option<(usize, usize)>, report::Shown), CountError>, ParseError>;

pub fn run(settings: Settings) -> Result<Status, AppError> {
    super::catch_interrupts();
    let inputs = Inputs::read(&settings.puzzles)?;
    let tasks = inputs.tasks();
    let mut tallies = Tallies::new(&inputs, &tasks, "judged");
    let mut printer = report::printer(settings.output);
    let mut out = BufWriter::new(io::stdout().lock());
    let work = |counter: &mut Counter, index: usize| -> Judged {
        // The drawing is of square grids.
        let puzzle = tasks[index].parse_square(settings.svg.as_ref().map(|_| "unique --svg"))?;
        let start = Instant::now();
        Ok(counter.judge(&puzzle).map(|verdict| {
            let conflicts = if verdict == Verdict::None { puzzle.given_conflicts() } else { Vec::new() };
            (verdict, conflicts, start.elapsed(), puzzle.boxes(), report::Shown::of(&puzzle))
        }))
    };
    if settings.svg.is_some() && tasks.len() != 1 {
        return Err(AppError::Usage(format!("--svg draws one puzzle; this run has {}", tasks.len())));
    }
    let mut drawn = None;
    let mut plan = settings.puzzles.plan();
    if settings.progress {
        plan.report = Some(super::progress::report);
    }
    plan.limits.timeout = settings.timeout;
    many::for_each(tasks.len(), settings.jobs, &plan, work, |index, judged: Judged| {
        let task = &tasks[index];
        let item = task.item();
        // A puzzle a signal stopped is undecided, as one --timeout stopped.
        let stopped = matches!(judged, Ok(Err(CountError::Stopped))) && super::interrupted();
        let (verdict, conflicts, elapsed, boxes, shown) = match judged {
            Err(err) => {
                printer.error(&mut out, &item, &err.to_string()).map_err(AppError::write("stdout"))?;
                return tallies.unreadable(task, err);
            }
            Ok(Err(CountError::Stopped)) if stopped => {
                (Verdict::Undecided, Vec::new(), Duration::ZERO, None, report::Shown::PLAIN)
            }
            Ok(judged) => judged?,
        };
        let item = item.shown(shown);
        if verdict == Verdict::None {
            let at = item.label.unwrap_or("the puzzle");
            if conflicts.is_empty() {
                diag!("satsudoku: {at}: no solution, though no two givens conflict directly");
            } else {
                diag!("satsudoku: {at}: no solution: the givens conflict: {}", super::conflicts_listed(&conflicts));
            }
        }
        if verdict == Verdict::Undecided {
            let at = item.label.unwrap_or("the puzzle");
            let why = if stopped { "interrupted" } else { "stopped at --timeout" };
            diag!("satsudoku: {at}: undecided: {why}");
        }
        printer.verdict(&mut out, &item, &verdict, elapsed).map_err(AppError::write("stdout"))?;
        if let (true, Verdict::Multiple(a, b)) = (settings.grids, &verdict) {
            let grids = report::side_by_side(a, b, boxes, &item);
            out.write_all(grids.as_bytes()).map_err(AppError::write("stdout"))?;
        }
        if settings.svg.is_some() {
            drawn = Some(verdict.clone());
        }
        tallies.done(match verdict {
            Verdict::Unique(_) => Status::Done,
            Verdict::Undecided => Status::LowerBound,
            Verdict::None | Verdict::Multiple(..) => Status::NotUnique,
        });
        Ok(())
    })?;
    out.flush().map_err(AppError::write("stdout"))?;
    super::progress::clear_phases();
    if let (Some(path), Some(verdict), Some(task)) = (&settings.svg, &drawn, tasks.first()) {
        let puzzle = task.parse()?;
        let svg = report::svg::verdict(&puzzle, verdict);
        super::output::write_output(Some(path), &[], super::output::Replace::Writable, |out: &mut dyn Write| {
            out.write_all(svg.as_bytes())
        })?;
    }
    tallies.finish(&tasks)
}
