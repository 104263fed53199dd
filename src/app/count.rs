//! `satsudoku count`: every puzzle of the inputs counted by the library's
//! plan ([`satsudoku::count::plan`]), its result printed in the format
//! asked for. One puzzle (or `--print`) is counted on this thread, each on
//! every core; several are counted in parallel, one thread each, their
//! results printed in order.

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::time::Duration;

use satsudoku::count::plan::{Counter, Plan, SymmetryUse, Tally};
use satsudoku::count::{self, many, CountError, Observer, Stop};
use satsudoku::model::Grid;
use satsudoku::parse::ParseError;
use satsudoku::report::{self, Item, Output, Printer};

use super::progress::ProgressLine;
use super::tasks::{Inputs, Puzzles, Tallies, Task};
use super::{AppError, Status};
use crate::cli::CountArgs;
use crate::diag;

/// `count`'s options, resolved once.
pub struct Settings {
    pub puzzles: Puzzles,
    /// `--jobs`, if given.
    pub jobs: Option<usize>,
    pub max: Option<u128>,
    pub timeout: Option<Duration>,
    pub print: bool,
    pub stats: bool,
    pub symmetry: SymmetryUse,
    pub up_to_symmetry: bool,
    /// Whether to show the progress line (`auto` resolved against stderr).
    pub progress: bool,
    pub output: Output,
}

impl Settings {
    pub fn resolve(args: &CountArgs) -> Result<Settings, AppError> {
        if args.print && args.output == Output::Mc {
            return Err(AppError::Usage(
                "--print does not go with --output mc, which has no place for solutions".into(),
            ));
        }
        Ok(Settings {
            puzzles: Puzzles::resolve(&args.puzzles, &args.solve)?.labels_by_first_cells(),
            jobs: args.jobs.map(usize::from),
            max: args.max,
            timeout: args.timeout,
            print: args.print,
            stats: args.stats,
            symmetry: args.symmetry,
            up_to_symmetry: args.up_to_symmetry,
            progress: super::progress::resolve(args.progress),
            output: args.output,
        })
    }

    /// The plan of every count of the run.
    pub fn plan(&self) -> Plan {
        let mut plan = self.puzzles.plan();
        plan.symmetry = self.symmetry;
        plan.up_to_symmetry = self.up_to_symmetry;
        plan.jobs = self.jobs;
        plan.limits.max = self.max;
        plan.limits.timeout = self.timeout;
        plan.details = self.stats;
        if self.progress {
            plan.report = Some(super::progress::report);
        }
        plan
    }
}

/// What a worker hands back for one task: its puzzle could not be read, or
/// its count (with the conflicts among its givens when it has no solution).
type Counted = Result<Result<(Tally, Vec<String>), CountError>, ParseError>;

pub fn run(settings: Settings) -> Result<Status, AppError> {
    super::catch_interrupts();
    let inputs = Inputs::read(&settings.puzzles)?;
    let tasks = inputs.tasks();
    let mut tallies = Tallies::new(&inputs, &tasks, "counted");
    let mut printer = report::printer(settings.output);
    let mut out = BufWriter::new(io::stdout().lock());
    let plan = settings.plan();
    // Counting up to symmetry reads square grids only.
    let square = settings.up_to_symmetry.then_some("count --up-to-symmetry");
    if settings.up_to_symmetry {
        use satsudoku::count::burnside::{given_all, GIVEN_ALL};
        let given = given_all().map_err(|text| {
            AppError::Usage(format!(
                "{GIVEN_ALL}: expected a whole number, the identity's term (the layout's grids), not {text:?}"
            ))
        })?;
        if given.is_some() && tasks.len() > 1 {
            return Err(AppError::Usage(format!(
                "{GIVEN_ALL} gives one layout's number of grids: count one puzzle with it, not {}",
                tasks.len()
            )));
        }
        if let Some(grids) = given {
            eprintln!("satsudoku: the identity's term is {GIVEN_ALL}'s {grids}, not counted: the count holds if that is the number of the layout's grids");
        }
    }
    if tasks.len() <= 1 || settings.print {
        let mut counter = Counter::new(plan);
        for task in &tasks {
            if super::interrupted() {
                break;
            }
            let counted = task.parse_square(square).map(|puzzle| {
                let progress = ProgressLine::new(settings.progress && tasks.len() == 1);
                let mut view = View {
                    printer: &mut *printer,
                    out: &mut out,
                    item: task.item().shown(report::Shown::of(&puzzle)),
                    progress,
                    print: settings.print,
                    write_error: None,
                };
                let tally = counter.count(&puzzle, &mut view);
                view.progress.clear();
                if let Some(err) = view.write_error {
                    return Err(err);
                }
                Ok(with_conflicts(tally, &puzzle))
            });
            let counted = match counted {
                Ok(Err(write_error)) => return Err(AppError::write("stdout")(write_error)),
                Ok(Ok(counted)) => Ok(counted),
                Err(err) => Err(err),
            };
            report(&mut out, &mut *printer, &settings, task, counted, &mut tallies)?;
        }
    } else {
        let jobs = settings.jobs.unwrap_or_else(count::all_cores);
        let work = |counter: &mut Counter, index: usize| -> Counted {
            let puzzle = tasks[index].parse_square(square)?;
            Ok(with_conflicts(counter.count(&puzzle, &mut ()), &puzzle))
        };
        many::for_each(tasks.len(), jobs, &plan, work, |index, counted: Counted| {
            report(&mut out, &mut *printer, &settings, &tasks[index], counted, &mut tallies)
        })?;
    }
    super::progress::clear_phases();
    tallies.finish(&tasks)
}

/// A count with the direct conflicts among the givens when there is no solution.
fn with_conflicts(
    tally: Result<Tally, CountError>,
    puzzle: &satsudoku::model::Puzzle,
) -> Result<(Tally, Vec<String>), CountError> {
    let tally = tally?;
    let none = tally.is_exact() && tally.count.bits() == 0;
    let conflicts = if none { puzzle.given_conflicts() } else { Vec::new() };
    Ok((tally, conflicts))
}

/// Prints one task's result on stdout and its notes on stderr.
fn report(
    out: &mut impl Write,
    printer: &mut dyn Printer,
    settings: &Settings,
    task: &Task,
    counted: Result<Result<(Tally, Vec<String>), CountError>, ParseError>,
    tallies: &mut Tallies,
) -> Result<(), AppError> {
    let item = task.item();
    let (tally, conflicts) = match counted {
        Err(err) => {
            printer
                .error(out, &item, &err.to_string())
                .and_then(|()| out.flush())
                .map_err(AppError::write("stdout"))?;
            return tallies.unreadable(task, err);
        }
        Ok(counted) => counted?,
    };
    if !conflicts.is_empty() {
        diag!(
            "satsudoku: {}: the givens conflict, so there is no solution: {}",
            task.name(),
            super::conflicts_listed(&conflicts)
        );
    }
    printer.count(out, &item, &tally).and_then(|()| out.flush()).map_err(AppError::write("stdout"))?;
    if settings.stats {
        for line in &tally.details {
            diag!("{line}");
        }
    }
    if tally.stop == Stop::Caller {
        return Err(AppError::Other(anyhow::anyhow!("counting stopped before the end")));
    }
    let status = match tally.lower_bound_note() {
        None => Status::Done,
        Some(note) => {
            match item.label {
                Some(label) => diag!("satsudoku: {label}: {note}"),
                None => diag!("satsudoku: {note}"),
            }
            Status::LowerBound
        }
    };
    tallies.done(status);
    Ok(())
}

/// What a count shows while it runs: the solutions with `--print`
/// (stdout, through the printer) and the progress line (stderr).
struct View<'a, W: Write> {
    printer: &'a mut dyn Printer,
    out: &'a mut W,
    item: Item<'a>,
    progress: ProgressLine,
    /// `--print`: every model is shown (which tells the plan to enumerate them).
    print: bool,
    write_error: Option<io::Error>,
}

impl<W: Write> Observer for View<'_, W> {
    fn wants_models(&self) -> bool {
        self.print
    }

    fn model(&mut self, index: u128, grid: &Grid) -> ControlFlow<()> {
        match self.printer.solution(self.out, &self.item, index, grid) {
            Ok(()) => ControlFlow::Continue(()),
            Err(err) => {
                self.write_error = Some(err);
                ControlFlow::Break(())
            }
        }
    }

    fn wants_progress(&self) -> bool {
        self.progress.enabled()
    }

    fn progress(&mut self, models: u128, elapsed: Duration) {
        self.progress.update(models, elapsed);
    }
}
