//! `satsudoku count` on a collection: its lines counted in parallel, one
//! puzzle per thread, consecutive puzzles of one layout on one prepared
//! engine (see [`super::many`]), each line printed in order as
//! `LINE<TAB>solutions(S).` (`FILE:LINE` in a batch). With `--print`,
//! `--stats` or `--timeout` the lines are counted one after another
//! instead (`count::count_file`).

use std::io::Write;
use std::sync::atomic::Ordering;

use satsudoku::count::prepared::LayoutSolver;
use satsudoku::count::symmetry::{self, relabelling};
use satsudoku::count::{self, Limits, Search, Stop};
use satsudoku::encode;
use satsudoku::model::Puzzle;
use satsudoku::report;

use super::count::{total, Outcome, Settings, Sinks, INTERRUPTED};
use super::input::Collection;
use super::many::{self, Body, Judge};
use super::{AppError, Status};

/// One line's count.
struct Counted {
    models: u128,
    /// Why the count is only a lower bound, if it is.
    lower_bound: Option<String>,
    /// The direct conflicts among the givens, when there is no solution.
    conflicts: Vec<String>,
}

/// Whether the collection's lines can be counted in parallel.
pub fn in_parallel(settings: &Settings) -> bool {
    !settings.print && !settings.stats && settings.timeout.is_none()
}

/// Counts every line of `collection` on `search.jobs` threads.
pub fn count_lines<O: Write, D: Write>(
    collection: &Collection,
    search: Search,
    settings: &Settings,
    sinks: &mut Sinks<O, D>,
) -> Outcome {
    let name = &collection.name;
    let lines: Vec<(usize, &str)> = collection.lines().collect();
    let bodies: Vec<Body> = lines.iter().map(|&(line, text)| Body::Line { collection, line, text }).collect();
    let judge = Judge {
        encoding: settings.puzzles.encoding,
        engine: settings.puzzles.engine,
        prepared: |solver: &mut LayoutSolver, puzzle: &Puzzle| {
            if settings.symmetry && relabelling(puzzle).is_some() {
                return count_alone(puzzle, settings);
            }
            let solved = solver.solve(puzzle, settings.max.map(|max| max.saturating_add(1)), |_| {})?;
            let over = settings.max.filter(|&max| solved.models > max);
            let lower_bound = match (over, solved.stopped) {
                (Some(max), _) => {
                    Some(format!("stopped at --max {max}: more solutions exist, the count is a lower bound"))
                }
                (None, true) => Some("interrupted: the count is a lower bound".to_owned()),
                (None, false) => None,
            };
            Ok(with_conflicts(over.unwrap_or(solved.models), lower_bound, puzzle))
        },
        own: |puzzle: &Puzzle| count_alone(puzzle, settings),
    };
    let (mut status, mut bad, mut reported) = (Status::Done, 0, 0);
    let result = many::judge_all(&bodies, search.jobs, &judge, |index, counted| {
        reported += 1;
        let line = lines[index].0;
        let label = if settings.is_batch() { format!("{name}:{line}") } else { line.to_string() };
        let counted = match counted {
            Err(err) => {
                let _ = writeln!(sinks.diag, "error: {err}");
                bad += 1;
                return Ok(());
            }
            Ok(counted) => counted?,
        };
        if !counted.conflicts.is_empty() {
            let why = counted.conflicts.join("; ");
            let _ =
                writeln!(sinks.diag, "satsudoku: {name}: {label}: the givens conflict, so there is no solution: {why}");
        }
        if let Some(why) = &counted.lower_bound {
            let _ = writeln!(sinks.diag, "satsudoku: {label}: {why}");
            status = Status::LowerBound;
        }
        writeln!(sinks.out, "{label}\t{}", report::solutions_fact(counted.models))
            .and_then(|()| sinks.out.flush())
            .map_err(AppError::write("stdout"))
    });
    if let Err(err) = result {
        return Outcome::Failed(err);
    }
    if reported < lines.len() && INTERRUPTED.load(Ordering::Relaxed) {
        let _ = writeln!(sinks.diag, "satsudoku: {name}: interrupted before line {}", lines[reported].0);
        status = Status::LowerBound;
    }
    Outcome::Counted { status, bad, total: lines.len() }
}

/// A count with the conflicts among the givens when there is no solution.
fn with_conflicts(models: u128, lower_bound: Option<String>, puzzle: &Puzzle) -> Counted {
    let conflicts = if models == 0 { puzzle.given_conflicts() } else { Vec::new() };
    Counted { models, lower_bound, conflicts }
}

/// A line counted on its own encoding and one thread, up to relabelling
/// where the rules allow.
fn count_alone(puzzle: &Puzzle, settings: &Settings) -> Result<Counted, AppError> {
    let reduced = symmetry::reduce(puzzle, settings.symmetry);
    let encoded = encode::encode(&reduced.puzzle, &settings.puzzles.encoding);
    let limits = Limits { max: settings.max, timeout: None, interrupt: Some(&INTERRUPTED) };
    let search = Search { engine: settings.puzzles.engine, jobs: 1, probe: None };
    let count = count::count_models(&reduced.puzzle, &encoded, search, limits, &mut ())?;
    let models = total(&reduced, count.models)?;
    let lower_bound = match count.stop {
        Stop::Complete => None,
        Stop::MaxReached => {
            Some(format!("stopped at --max {models}: more solutions exist, the count is a lower bound"))
        }
        Stop::Timeout | Stop::Interrupted | Stop::Caller => Some("interrupted: the count is a lower bound".to_owned()),
    };
    Ok(with_conflicts(models, lower_bound, puzzle))
}
