//! `satsudoku unique`: is each puzzle's solution unique? One line each:
//! `unique<TAB>SOLUTION`, `none`, or `multiple<TAB>SOLUTION<TAB>SOLUTION<TAB>CELLS`
//! (the cells where the two differ), after `LABEL<TAB>` in a batch or a
//! collection. The search stops at a second solution.

use std::io::{self, Write};
use std::ops::ControlFlow;

use satsudoku::count::prepared::LayoutSolver;
use satsudoku::count::{self, Limits, Observer, Search, Stop};
use satsudoku::encode;
use satsudoku::model::{push_symbol, Grid, Puzzle};
use satsudoku::parse::{Format, ParseError};

use super::count::{PrintStyle, INTERRUPTED};
use super::input::{read_input, Input, Puzzles};
use super::many::{self, Body, Judge};
use super::{AppError, Status};
use crate::cli::UniqueArgs;
use crate::diag;

/// `unique`'s options, resolved once.
pub struct Settings {
    pub puzzles: Puzzles,
    pub jobs: usize,
}

impl Settings {
    pub fn resolve(args: &UniqueArgs) -> Result<Settings, AppError> {
        Ok(Settings {
            puzzles: Puzzles::resolve(&args.puzzles, &args.solve)?,
            jobs: args.jobs.map_or_else(count::all_cores, usize::from),
        })
    }
}

/// What a puzzle's solutions are, up to the second.
#[derive(Debug)]
pub enum Verdict {
    None,
    Unique(Grid),
    Multiple(Grid, Grid),
}

/// How to write one puzzle's line: its label (or none for a lone puzzle)
/// and the style of its grids.
struct Head {
    label: Option<String>,
    style: PrintStyle,
}

/// What became of a task: its verdict (and for `none`, the conflicts among
/// its givens), or why it could not be read or judged.
enum Judged {
    Verdict(Verdict, Vec<String>),
    Unreadable(ParseError),
    Failed(AppError),
}

pub fn run(settings: Settings) -> Result<Status, AppError> {
    let batch = settings.puzzles.is_batch();
    let mut inputs = Vec::new();
    let mut unreadable = 0;
    for source in &settings.puzzles.sources {
        match read_input(source, settings.puzzles.reading) {
            Err(err) if batch => {
                diag!("error: {err}");
                unreadable += 1;
            }
            Err(err) => return Err(err),
            Ok(input) => inputs.push(input),
        }
    }
    let (mut heads, mut bodies) = (Vec::new(), Vec::new());
    for input in &inputs {
        match input {
            Input::One { name, puzzle, format } => {
                heads.push(Head { label: batch.then(|| name.clone()), style: PrintStyle::of(*format) });
                bodies.push(Body::One(puzzle));
            }
            Input::Collection(collection) => {
                for (line, text) in collection.lines() {
                    let label = if batch { format!("{}:{line}", collection.name) } else { line.to_string() };
                    heads.push(Head { label: Some(label), style: PrintStyle::of(Format::Givens) });
                    bodies.push(Body::Line { collection, line, text });
                }
            }
        }
    }
    let (mut all_unique, mut bad) = (true, 0);
    let mut stdout = io::stdout().lock();
    let judge = Judge {
        encoding: settings.puzzles.encoding,
        engine: settings.puzzles.engine,
        prepared: |solver: &mut LayoutSolver, puzzle: &Puzzle| with_conflicts(judge_on(solver, puzzle), puzzle),
        own: |puzzle: &Puzzle| with_conflicts(judge(puzzle, &settings), puzzle),
    };
    many::judge_all(&bodies, settings.jobs, &judge, |index, judged| {
        let task = &heads[index];
        let judged = judged.unwrap_or_else(Judged::Unreadable);
        let prefix = task.label.as_ref().map_or(String::new(), |l| format!("{l}\t"));
        let line = match judged {
            Judged::Failed(err) => return Err(err),
            Judged::Unreadable(err) => {
                diag!("error: {err}");
                bad += 1;
                return Ok(());
            }
            Judged::Verdict(Verdict::Unique(grid), _) => format!("unique\t{}", one_line(&grid, task.style)),
            Judged::Verdict(Verdict::None, conflicts) => {
                all_unique = false;
                let at = task.label.as_deref().unwrap_or("the puzzle");
                if conflicts.is_empty() {
                    diag!("satsudoku: {at}: no solution, though no two givens conflict directly");
                } else {
                    diag!("satsudoku: {at}: no solution: the givens conflict: {}", conflicts.join("; "));
                }
                "none".to_owned()
            }
            Judged::Verdict(Verdict::Multiple(a, b), _) => {
                all_unique = false;
                let differ: Vec<String> = puzzle_cells(&a)
                    .filter(|&(r, c)| a.get(cell(r, c)) != b.get(cell(r, c)))
                    .map(|(r, c)| cell(r, c).to_string())
                    .collect();
                format!("multiple\t{}\t{}\t{}", one_line(&a, task.style), one_line(&b, task.style), differ.join(","))
            }
        };
        writeln!(stdout, "{prefix}{line}").map_err(AppError::write("stdout"))
    })?;
    stdout_flush()?;
    if unreadable > 0 {
        return Err(AppError::Batch { failed: unreadable, total: settings.puzzles.sources.len() });
    }
    if bad > 0 {
        return Err(AppError::Collection { failed: bad, total: heads.len() });
    }
    Ok(if all_unique { Status::Done } else { Status::NotUnique })
}

fn stdout_flush() -> Result<(), AppError> {
    io::stdout().flush().map_err(AppError::write("stdout"))
}

fn cell(r: usize, c: usize) -> satsudoku::model::Cell {
    satsudoku::model::Cell::new(r, c)
}

fn puzzle_cells(grid: &Grid) -> impl Iterator<Item = (usize, usize)> {
    let n = grid.side();
    (0..n).flat_map(move |r| (0..n).map(move |c| (r, c)))
}

/// A grid on one line: its symbols in reading order (Takuzu as 0 and 1).
fn one_line(grid: &Grid, style: PrintStyle) -> String {
    let mut line = String::with_capacity(grid.side() * grid.side());
    for &d in grid.rows().flat_map(|row| row.iter()) {
        match style {
            PrintStyle::Binary => push_symbol(&mut line, d - 1),
            PrintStyle::Facts | PrintStyle::Grid => push_symbol(&mut line, d),
        }
    }
    line
}

/// A verdict with the direct conflicts among the givens when there is no solution.
fn with_conflicts(verdict: Result<Verdict, AppError>, puzzle: &Puzzle) -> Judged {
    match verdict {
        Ok(Verdict::None) => Judged::Verdict(Verdict::None, puzzle.given_conflicts()),
        Ok(verdict) => Judged::Verdict(verdict, Vec::new()),
        Err(err) => Judged::Failed(err),
    }
}

/// The first two solutions of `puzzle`, each checked by the independent checker.
pub fn judge(puzzle: &Puzzle, settings: &Settings) -> Result<Verdict, AppError> {
    let encoded = encode::encode(puzzle, &settings.puzzles.encoding);
    let mut found = Found(Vec::new());
    let limits = Limits { max: Some(2), timeout: None, interrupt: Some(&INTERRUPTED) };
    let counted = count::count_models(puzzle, &encoded, Search::from(settings.puzzles.engine), limits, &mut found)?;
    // A search stopped early (Ctrl-C) before a second solution says nothing.
    if matches!(counted.stop, Stop::Interrupted | Stop::Timeout | Stop::Caller) && counted.models < 2 {
        return Err(AppError::Other(anyhow::anyhow!("interrupted before the search ended")));
    }
    Ok(verdict(found.0))
}

/// [`judge`] on an engine prepared for the puzzle's layout.
fn judge_on(solver: &mut LayoutSolver, puzzle: &Puzzle) -> Result<Verdict, AppError> {
    let mut grids = Vec::with_capacity(2);
    let solved = solver.solve(puzzle, Some(2), |grid| grids.push(grid.clone()))?;
    if solved.stopped {
        return Err(AppError::Other(anyhow::anyhow!("interrupted before the search ended")));
    }
    Ok(verdict(grids))
}

fn verdict(grids: Vec<Grid>) -> Verdict {
    let mut grids = grids.into_iter();
    match (grids.next(), grids.next()) {
        (None, _) => Verdict::None,
        (Some(a), None) => Verdict::Unique(a),
        (Some(a), Some(b)) => Verdict::Multiple(a, b),
    }
}

/// Keeps the solutions a count shows.
pub(super) struct Found(pub(super) Vec<Grid>);

impl Observer for Found {
    fn wants_models(&self) -> bool {
        true
    }

    fn model(&mut self, _index: u128, grid: &Grid) -> ControlFlow<()> {
        self.0.push(grid.clone());
        ControlFlow::Continue(())
    }
}
