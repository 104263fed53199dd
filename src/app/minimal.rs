//! `satsudoku minimal` and `satsudoku rate`: the setter's questions after
//! "is it unique?", one result per puzzle, in order, like `unique`
//! ([`satsudoku::setter`] answers them).

use std::cell::RefCell;
use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};

use satsudoku::count::enumerate::Prober;
use satsudoku::count::plan::{Counter, Verdict};
use satsudoku::count::{self, many, CountError};
use satsudoku::encode::{encode, Encoding};
use satsudoku::model::Puzzle;
use satsudoku::parse::ParseError;
use satsudoku::report::{self, Output};
use satsudoku::setter::minimal::{self, Needs};
use satsudoku::setter::rate::{self, Rating};

use super::tasks::{Inputs, Puzzles, Tallies};
use super::{AppError, Status};
use crate::cli::QuestionArgs;
use crate::diag;

/// Which question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    Minimal,
    Rate,
}

/// The options, resolved once.
pub struct Settings {
    pub question: Question,
    pub puzzles: Puzzles,
    pub jobs: usize,
    pub timeout: Option<Duration>,
    pub output: Output,
    /// `--progress`, resolved against stderr.
    pub progress: bool,
}

impl Settings {
    pub fn resolve(question: Question, args: &QuestionArgs) -> Result<Settings, AppError> {
        Ok(Settings {
            question,
            puzzles: Puzzles::resolve(&args.puzzles, &args.solve)?,
            jobs: args.jobs.map_or_else(count::all_cores, usize::from),
            timeout: args.timeout,
            output: args.output,
            progress: super::progress::resolve(args.progress),
        })
    }
}

/// A puzzle's answer: what it needs, or its rating (or the verdict that
/// kept it from one).
enum Answer {
    Needs(Needs),
    Rated(Result<Rating, &'static str>),
}

impl Answer {
    fn status(&self) -> Status {
        match self {
            Answer::Needs(Needs::Unique { .. }) | Answer::Rated(Ok(_)) => Status::Done,
            Answer::Needs(Needs::Undecided) | Answer::Rated(Err("undecided")) => Status::LowerBound,
            _ => Status::NotUnique,
        }
    }
}

type Worked = Result<Result<(Answer, Duration, report::Shown), CountError>, ParseError>;

thread_local! {
    /// Each worker's prober, kept for the next puzzle of the same layout.
    static PROBER: RefCell<Option<(Puzzle, Prober)>> = const { RefCell::new(None) };
}

/// Runs `f` on this thread's prober for `puzzle`'s layout (built on the
/// layout's default encoding the first time, kept for the next puzzle of
/// the same layout); `None` if the layout has no direct encoding.
pub fn with_prober<T>(puzzle: &Puzzle, f: impl FnOnce(&mut Prober) -> T) -> Option<T> {
    PROBER.with(|cell| {
        let mut cached = cell.borrow_mut();
        let layout = puzzle.without_givens();
        if cached.as_ref().is_none_or(|(l, _)| !l.same_layout(&layout)) {
            let prober = Prober::new(&encode(&layout, &Encoding::default()))?.with_singles(&layout);
            *cached = Some((layout, prober));
        }
        let (_, prober) = cached.as_mut()?;
        Some(f(prober))
    })
}

/// Rates `puzzle` (unique, with `solution`) on this thread's prober.
pub fn rate_on_thread(puzzle: &Puzzle, solution: &satsudoku::model::Grid) -> Option<Rating> {
    with_prober(puzzle, |prober| rate::rate(prober, puzzle, solution)).flatten()
}

pub fn run(settings: Settings) -> Result<Status, AppError> {
    super::catch_interrupts();
    let inputs = Inputs::read(&settings.puzzles)?;
    let tasks = inputs.tasks();
    let mut tallies = Tallies::new(&inputs, &tasks, "answered");
    let mut printer = report::printer(settings.output);
    let mut out = BufWriter::new(io::stdout().lock());
    let question = settings.question;
    let work = |counter: &mut Counter, index: usize| -> Worked {
        let puzzle = tasks[index].parse_square(Some(match question {
            Question::Minimal => "minimal",
            Question::Rate => "rate",
        }))?;
        let start = Instant::now();
        let answer = match question {
            Question::Minimal => minimal::needs(counter, &puzzle, start).map(Answer::Needs),
            Question::Rate => counter.judge_since(&puzzle, start).map(|verdict| {
                Answer::Rated(match verdict {
                    Verdict::Unique(solution) => rate_on_thread(&puzzle, &solution).ok_or("none"),
                    other => Err(other.name()),
                })
            }),
        };
        Ok(answer.map(|answer| (answer, start.elapsed(), report::Shown::of(&puzzle))))
    };
    let mut plan = settings.puzzles.plan();
    if settings.progress {
        plan.report = Some(super::progress::report);
    }
    plan.limits.timeout = settings.timeout;
    many::for_each(tasks.len(), settings.jobs, &plan, work, |index, worked: Worked| {
        let task = &tasks[index];
        let item = task.item();
        let at = item.label.unwrap_or("the puzzle");
        let (answer, elapsed, shown) = match worked {
            Err(err) => {
                printer.error(&mut out, &item, &err.to_string()).map_err(AppError::write("stdout"))?;
                return tallies.unreadable(task, err);
            }
            // A signal stopped it: undecided, as one --timeout stopped.
            Ok(Err(CountError::Stopped)) if super::interrupted() => match question {
                Question::Minimal => (Answer::Needs(Needs::Undecided), Duration::ZERO, report::Shown::PLAIN),
                Question::Rate => (Answer::Rated(Err("undecided")), Duration::ZERO, report::Shown::PLAIN),
            },
            Ok(worked) => worked?,
        };
        let item = item.shown(shown);
        let printed = match &answer {
            Answer::Needs(needs) => {
                if let Needs::Unique { rules_alone: true, .. } = needs {
                    diag!("satsudoku: {at}: the rules alone fix the solution: no given is needed");
                }
                printer.needs(&mut out, &item, needs, elapsed)
            }
            Answer::Rated(rated) => printer.rating(&mut out, &item, rated.as_ref().map_err(|e| *e), elapsed),
        };
        printed.map_err(AppError::write("stdout"))?;
        match answer.status() {
            Status::LowerBound => diag!("satsudoku: {at}: undecided: stopped before the answer"),
            Status::NotUnique if question == Question::Rate => {
                diag!("satsudoku: {at}: not one solution: only a puzzle with one solution is rated")
            }
            _ => {}
        }
        tallies.done(answer.status());
        Ok(())
    })?;
    out.flush().map_err(AppError::write("stdout"))?;
    super::progress::clear_phases();
    tallies.finish(&tasks)
}
