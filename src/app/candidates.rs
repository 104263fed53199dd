//! `satsudoku candidates`: each cell's true candidates, the digits that
//! appear in some solution (with `--counts`, in how many), found by the
//! library ([`satsudoku::count::plan::Counter::candidates`]); one result
//! per puzzle, in order, in the format asked for.

use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};

use satsudoku::count::plan::{Candidates, Counter};
use satsudoku::count::{self, many, CountError, Stop};
use satsudoku::parse::ParseError;
use satsudoku::report::{self, Output};

use super::tasks::{Inputs, Puzzles, Tallies};
use super::{AppError, Status};
use crate::cli::CandidatesArgs;
use crate::diag;

/// `candidates`' options, resolved once.
pub struct Settings {
    pub puzzles: Puzzles,
    pub counts: bool,
    pub max: Option<u128>,
    pub timeout: Option<Duration>,
    pub jobs: usize,
    pub output: Output,
    /// `--progress`, resolved against stderr.
    pub progress: bool,
    /// `--svg`: the picture of the one puzzle.
    pub svg: Option<std::path::PathBuf>,
}

impl Settings {
    pub fn resolve(args: &CandidatesArgs) -> Result<Settings, AppError> {
        // `--output mc` is not offered (cli::TEXT_OR_JSON).
        Ok(Settings {
            puzzles: Puzzles::resolve(&args.puzzles, &args.solve)?,
            counts: args.counts,
            max: args.max,
            timeout: args.timeout,
            jobs: args.jobs.map_or_else(count::all_cores, usize::from),
            output: args.output,
            progress: super::progress::resolve(args.progress),
            svg: args.svg.clone(),
        })
    }
}

type Found = Result<Result<(Candidates, Duration, report::Shown), CountError>, ParseError>;

pub fn run(settings: Settings) -> Result<Status, AppError> {
    super::catch_interrupts();
    let inputs = Inputs::read(&settings.puzzles)?;
    let tasks = inputs.tasks();
    let mut tallies = Tallies::new(&inputs, &tasks, "searched");
    let mut printer = report::printer(settings.output);
    let mut out = BufWriter::new(io::stdout().lock());
    if settings.svg.is_some() && tasks.len() != 1 {
        return Err(AppError::Usage(format!("--svg draws one puzzle; this run has {}", tasks.len())));
    }
    let mut drawn = None;
    let mut plan = settings.puzzles.plan();
    if settings.progress {
        plan.report = Some(super::progress::report);
    }
    plan.limits.max = settings.max;
    plan.limits.timeout = settings.timeout;
    let work = |counter: &mut Counter, index: usize| -> Found {
        // The drawing is of square grids.
        let puzzle = tasks[index].parse_square(settings.svg.as_ref().map(|_| "candidates --svg"))?;
        let start = Instant::now();
        Ok(counter.candidates(&puzzle, settings.counts).map(|c| (c, start.elapsed(), report::Shown::of(&puzzle))))
    };
    many::for_each(tasks.len(), settings.jobs, &plan, work, |index, found: Found| {
        let task = &tasks[index];
        let item = task.item();
        let (candidates, elapsed, shown) = match found {
            Err(err) => {
                printer.error(&mut out, &item, &err.to_string()).map_err(AppError::write("stdout"))?;
                return tallies.unreadable(task, err);
            }
            Ok(found) => found?,
        };
        let item = item.shown(shown);
        printer.candidates(&mut out, &item, &candidates, elapsed).map_err(AppError::write("stdout"))?;
        if settings.svg.is_some() {
            drawn = Some(candidates.clone());
        }
        let status = match candidates.stop {
            Stop::Complete => Status::Done,
            stop => {
                let at = item.label.map_or_else(String::new, |l| format!("{l}: "));
                let why = match stop {
                    Stop::MaxReached => "stopped at --max: the counts are lower bounds",
                    Stop::Interrupted => "interrupted: candidates found so far, the rest undecided",
                    _ => "stopped by --timeout: candidates found so far, the rest undecided",
                };
                diag!("satsudoku: {at}{why}");
                Status::LowerBound
            }
        };
        tallies.done(status);
        Ok(())
    })?;
    out.flush().map_err(AppError::write("stdout"))?;
    super::progress::clear_phases();
    if let (Some(path), Some(found), Some(task)) = (&settings.svg, &drawn, tasks.first()) {
        let puzzle = task.parse()?;
        let svg = report::svg::candidates(&puzzle, found);
        super::output::write_output(Some(path), &[], super::output::Replace::Writable, |out: &mut dyn Write| {
            out.write_all(svg.as_bytes())
        })?;
    }
    tallies.finish(&tasks)
}
