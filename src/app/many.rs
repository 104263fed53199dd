//! Many puzzles at a time, for `unique` and for counting a collection:
//! worker threads take the puzzles in turn, parse a collection's lines
//! themselves, and judge consecutive puzzles of one layout on one prepared
//! engine ([`satsudoku::count::prepared`]); the results come back in the
//! order of the puzzles.

use std::borrow::Cow;
use std::collections::BTreeMap;

use satsudoku::count::pool::Pool;
use satsudoku::count::prepared::{Layout, LayoutSolver};
use satsudoku::count::EngineKind;
use satsudoku::encode::Encoding;
use satsudoku::model::Puzzle;
use satsudoku::parse::ParseError;

use super::count::INTERRUPTED;
use super::input::Collection;
use super::AppError;

/// A puzzle read already, or a collection's line that the worker taking it
/// parses.
pub enum Body<'t> {
    One(&'t Puzzle),
    Line { collection: &'t Collection, line: usize, text: &'t str },
}

impl Body<'_> {
    pub fn puzzle(&self) -> Result<Cow<'_, Puzzle>, ParseError> {
        match *self {
            Body::One(puzzle) => Ok(Cow::Borrowed(puzzle)),
            Body::Line { collection, line, text } => collection.parse(line, text).map(Cow::Owned),
        }
    }
}

/// How each puzzle is judged: on a prepared engine when its layout allows
/// one, else on its own.
pub struct Judge<P, O> {
    pub encoding: Encoding,
    pub engine: EngineKind,
    pub prepared: P,
    pub own: O,
}

impl<P, O> Judge<P, O> {
    /// The layout of `puzzle`, prepared once for the puzzles after it that
    /// share it, when the engine and encoding allow (the enum engine, no
    /// given-aware reduction).
    fn layout_of(&self, puzzle: &Puzzle) -> Option<Layout> {
        (self.engine == EngineKind::Enum).then(|| Layout::new(puzzle, &self.encoding)).flatten()
    }
}

/// Judges every body on `jobs` threads, one puzzle per thread at a time;
/// `report` sees each body's result in order (a parse error for a line that
/// could not be read). After an interrupt the workers take no more
/// puzzles, so `report` sees a first part of them.
pub fn judge_all<'t, T, P, O>(
    bodies: &[Body<'t>],
    jobs: usize,
    judge: &Judge<P, O>,
    mut report: impl FnMut(usize, Result<T, ParseError>) -> Result<(), AppError>,
) -> Result<(), AppError>
where
    T: Send,
    P: Fn(&mut LayoutSolver, &Puzzle) -> T + Sync,
    O: Fn(&Puzzle) -> T + Sync,
{
    let pool = Pool::new((0..bodies.len()).collect());
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for started in 0..jobs.min(bodies.len()).max(1) {
            let (sender, pool) = (sender.clone(), &pool);
            let worker = move || {
                let take = |finished| pool.take(finished, &INTERRUPTED).map(|i: usize| (i, bodies[i].puzzle()));
                let mut next = take(false);
                // Consecutive puzzles of one layout share an engine; another
                // layout (or a puzzle that needs its own encoding) starts anew.
                while let Some((first, _)) = next {
                    let layout = match &next {
                        Some((_, Ok(puzzle))) => judge.layout_of(puzzle),
                        _ => None,
                    };
                    let mut solver = layout.as_ref().map(|layout| layout.solver(&INTERRUPTED));
                    while let Some((index, puzzle)) = next.take() {
                        let result = match (puzzle, &mut solver) {
                            (Err(err), _) => Err(err),
                            (Ok(puzzle), Some(solver)) if solver.fits(&puzzle) => Ok((judge.prepared)(solver, &puzzle)),
                            (Ok(puzzle), None) if index == first => Ok((judge.own)(&puzzle)),
                            (Ok(puzzle), _) => {
                                next = Some((index, Ok(puzzle)));
                                break;
                            }
                        };
                        if sender.send((index, result)).is_err() {
                            return;
                        }
                        next = take(true);
                    }
                }
            };
            if let Err(err) = std::thread::Builder::new().spawn_scoped(scope, worker) {
                if started == 0 {
                    return Err(AppError::Other(anyhow::Error::new(err).context("cannot start a worker thread")));
                }
                break;
            }
        }
        drop(sender);
        let (mut waiting, mut next) = (BTreeMap::new(), 0);
        for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                report(next, result)?;
                next += 1;
            }
        }
        Ok(())
    })
}
