//! Many puzzles of one layout, one engine. A collection's puzzles usually
//! share their layout (the grid, groups, relations and constraints) and
//! differ only in their givens, so the layout is encoded, compiled and given
//! its derived supports once, and each puzzle's givens are a cube of the
//! same engine (see [`Engine::start_cube`]): no encoding, allocation of a
//! formula or thread per puzzle. Every solution is still checked by the
//! independent checker, against the layout and the puzzle's givens.

use std::sync::atomic::{AtomicBool, Ordering};

use varisat::Lit;

use super::enumerate::Enumerate;
use super::{CountError, Engine};
use crate::encode::{encode, Encoded, Encoding};
use crate::model::check::Checker;
use crate::model::{Cell, Digit, Grid, Puzzle};

/// A layout, encoded once.
pub struct Layout {
    puzzle: Puzzle,
    encoded: Encoded,
}

impl Layout {
    /// The layout of `puzzle` under `encoding`; `None` when the encoding
    /// depends on the givens (the given-aware reduction), so that each
    /// puzzle needs its own.
    pub fn new(puzzle: &Puzzle, encoding: &Encoding) -> Option<Layout> {
        if encoding.reduce {
            return None;
        }
        let puzzle = puzzle.without_givens();
        let encoded = encode(&puzzle, encoding);
        Some(Layout { puzzle, encoded })
    }

    /// Whether `puzzle` has this layout, whatever its givens.
    pub fn fits(&self, puzzle: &Puzzle) -> bool {
        self.puzzle.same_layout(puzzle)
    }

    /// An engine on this layout; it returns early once `stop` is set.
    pub fn solver<'a>(&'a self, stop: &'a AtomicBool) -> LayoutSolver<'a> {
        LayoutSolver {
            engine: Enumerate::new(&self.puzzle, &self.encoded).stop_when(stop),
            checker: Checker::new(&self.puzzle),
            layout: self,
            stop,
            givens: Vec::new(),
            cube: Vec::new(),
        }
    }
}

/// The enum engine of one [`Layout`], counting its puzzles one after another.
pub struct LayoutSolver<'a> {
    layout: &'a Layout,
    engine: Enumerate<'a>,
    checker: Checker<'a>,
    stop: &'a AtomicBool,
    /// The current puzzle's givens, and the cube they make.
    givens: Vec<(Cell, Digit)>,
    cube: Vec<Lit>,
}

/// What [`LayoutSolver::solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    pub models: u128,
    /// The search ended before it was complete or reached `max`, because
    /// the stop flag was set.
    pub stopped: bool,
}

impl LayoutSolver<'_> {
    /// Whether `puzzle` has this solver's layout.
    pub fn fits(&self, puzzle: &Puzzle) -> bool {
        self.layout.fits(puzzle)
    }

    /// Counts the solutions of `puzzle`, which must fit the layout, up to
    /// `max` of them, and shows each to `model` after the checker has
    /// accepted it.
    pub fn solve(
        &mut self,
        puzzle: &Puzzle,
        max: Option<u128>,
        mut model: impl FnMut(&Grid),
    ) -> Result<Solved, CountError> {
        assert!(self.layout.fits(puzzle), "LayoutSolver::solve: the puzzle does not fit the layout");
        // Each model is checked against the givens too: they are listed once.
        self.givens.clear();
        self.givens.extend(puzzle.givens());
        self.cube.clear();
        for &(cell, digit) in &self.givens {
            self.cube.extend(self.layout.encoded.vars.digit_lits(cell, digit));
        }
        self.engine.restart(&self.cube)?;
        let mut models = 0;
        while max.is_none_or(|max| models < max) {
            let Some(grid) = self.engine.step()? else {
                let stopped = self.stop.load(Ordering::Relaxed);
                return Ok(Solved { models, stopped });
            };
            let givens_kept = self.givens.iter().all(|&(cell, digit)| grid.get(cell) == digit);
            if !givens_kept || !self.checker.solves(&grid) {
                let mut violations = self.checker.violations(&grid);
                violations.extend(Checker::new(puzzle).violations(&grid));
                let named =
                    violations.first().map_or_else(|| "a violation the checker did not name".into(), |v| v.to_string());
                return Err(CountError::NotASolution(named));
            }
            models += 1;
            model(&grid);
        }
        Ok(Solved { models, stopped: false })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 4x4 grid has 288 solutions (a known count; also the oracle's in
    /// tests/family.rs). Fixing the first row leaves 288 / 4! = 12; a
    /// puzzle with a clash leaves none; one engine answers all three in
    /// turn, in any order, and a different layout does not fit.
    #[test]
    fn one_engine_counts_puzzles_that_differ_in_their_givens() {
        let empty = Puzzle::sudoku(2, 2).unwrap();
        let mut row = empty.clone();
        for (c, d) in [(0, 1), (1, 2), (2, 3), (3, 4)] {
            row.set_given(Cell::new(0, c), d).unwrap();
        }
        let mut clash = empty.clone();
        clash.set_given(Cell::new(0, 0), 1).unwrap();
        clash.set_given(Cell::new(3, 0), 1).unwrap();
        let layout = Layout::new(&row, &Encoding::default()).unwrap();
        assert!(!layout.fits(&Puzzle::latin(4).unwrap()));
        let never = AtomicBool::new(false);
        let mut solver = layout.solver(&never);
        for (puzzle, expected) in [(&row, 12), (&empty, 288), (&clash, 0), (&row, 12), (&clash, 0), (&empty, 288)] {
            let mut grids = Vec::new();
            let solved = solver.solve(puzzle, None, |g| grids.push(g.clone())).unwrap();
            assert_eq!(solved, Solved { models: expected, stopped: false });
            assert!(grids.iter().all(|g| puzzle.givens().all(|(cell, d)| g.get(cell) == d)));
        }
        assert_eq!(solver.solve(&empty, Some(2), |_| {}).unwrap().models, 2);
    }
}
