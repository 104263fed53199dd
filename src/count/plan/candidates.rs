//! True candidates: for each cell, the digits that appear in some solution
//! ([`Counter::candidates`]), and with counts, in how many.
//!
//! The digits are found without enumerating every solution: a first
//! solution marks its digits; then each digit not yet marked is tried alone
//! (the puzzle with that digit given): a solution marks every digit it
//! holds, none rules the digit out. The counts need every solution: one
//! enumeration, each (checked) solution tallied cell by cell.

use std::ops::ControlFlow;
use std::time::Instant;

use num_bigint::BigUint;

use super::{Counter, Plan};
use crate::count::{CountError, Observer, Stop};
use crate::model::{Cell, Digit, Grid, Puzzle};

/// The true candidates of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidates {
    /// Cells a row.
    pub side: usize,
    /// The digits a cell may hold, `1..=digits`: the side's, or more
    /// (ISS's `6x6~9`).
    pub digits: usize,
    /// Per cell in reading order, the digits found in some solution: bit
    /// `d - 1` for digit `d`.
    pub possible: Vec<u64>,
    /// Per cell, the digits neither found nor ruled out (the search was
    /// stopped): bit `d - 1` for digit `d`.
    pub undecided: Vec<u64>,
    /// With counts: per cell and digit (`d - 1`), the solutions with that
    /// digit there; lower bounds unless `stop` is `Complete`.
    pub counts: Option<Vec<Vec<BigUint>>>,
    /// With counts: the solutions counted.
    pub solutions: Option<BigUint>,
    /// Why the search ended.
    pub stop: Stop,
    /// The box shape, for drawing box lines (none for jigsaws and Latin squares).
    pub boxes: Option<(usize, usize)>,
    /// Each cell's given digit, in reading order.
    pub givens: Vec<Option<Digit>>,
}

impl Candidates {
    /// The digits of `cell` found in some solution.
    pub fn digits(&self, cell: Cell) -> impl Iterator<Item = Digit> + '_ {
        let bits = self.possible[cell.row * self.side + cell.col];
        (1..=self.digits as Digit).filter(move |d| bits >> (d - 1) & 1 == 1)
    }

    /// Whether every digit is decided and every count exact.
    pub fn is_exact(&self) -> bool {
        self.stop == Stop::Complete
    }
}

/// Tallies every solution it sees.
struct Tally<'a> {
    counts: &'a mut [Vec<BigUint>],
    possible: &'a mut [u64],
    solutions: u128,
}

impl Observer for Tally<'_> {
    fn wants_models(&self) -> bool {
        true
    }

    fn model(&mut self, _index: u128, grid: &Grid) -> ControlFlow<()> {
        for (i, &d) in grid.rows().flatten().enumerate() {
            self.counts[i][usize::from(d) - 1] += 1u32;
            self.possible[i] |= 1 << (d - 1);
        }
        self.solutions += 1;
        ControlFlow::Continue(())
    }
}

impl Counter {
    /// The true candidates of `puzzle`: each cell's digits that appear in
    /// some solution, and with `counts`, in how many (which takes every
    /// solution). Stopped by the plan's limits, what was found so far, the
    /// rest undecided.
    pub fn candidates(&mut self, puzzle: &Puzzle, counts: bool) -> Result<Candidates, CountError> {
        let mut found = self.search_candidates(puzzle, counts)?;
        found.boxes = puzzle.boxes();
        found.givens = puzzle.cells().map(|cell| puzzle.given(cell)).collect();
        Ok(found)
    }

    /// [`Counter::candidates`] before the layout is noted.
    fn search_candidates(&mut self, puzzle: &Puzzle, counts: bool) -> Result<Candidates, CountError> {
        let (n, digits) = (puzzle.side(), puzzle.digits());
        let all: u64 = if digits >= 64 { u64::MAX } else { (1 << digits) - 1 };
        let mut possible = vec![0u64; n * n];
        if counts {
            let mut tallies = vec![vec![BigUint::default(); digits]; n * n];
            let mut tally = Tally { counts: &mut tallies, possible: &mut possible, solutions: 0 };
            let start = Instant::now();
            let found = self.enumerate(puzzle, &[], false, start, &mut tally)?;
            let solutions = tally.solutions;
            debug_assert_eq!(found.models, BigUint::from(solutions));
            let stop = found.stop;
            let undecided =
                if stop == Stop::Complete { vec![0; n * n] } else { possible.iter().map(|p| all & !p).collect() };
            return Ok(Candidates {
                side: n,
                digits,
                possible,
                undecided,
                counts: Some(tallies),
                solutions: Some(BigUint::from(solutions)),
                stop,
                boxes: None,
                givens: Vec::new(),
            });
        }
        let start = Instant::now();
        let mark = |possible: &mut [u64], grid: &Grid| {
            for (i, &d) in grid.rows().flatten().enumerate() {
                possible[i] |= 1 << (d - 1);
            }
        };
        let mut undecided = vec![all; n * n];
        match self.first_solutions(puzzle, 1, start)? {
            None => return Ok(stopped(n, digits, possible, undecided, &self.plan)),
            Some(grids) if grids.is_empty() => {
                return Ok(Candidates {
                    side: n,
                    digits,
                    possible,
                    undecided: vec![0; n * n],
                    counts: None,
                    solutions: None,
                    stop: Stop::Complete,
                    boxes: None,
                    givens: Vec::new(),
                })
            }
            Some(grids) => mark(&mut possible, &grids[0]),
        }
        for i in 0..n * n {
            let cell = Cell::new(i / n, i % n);
            for d in 1..=digits as Digit {
                let bit = 1u64 << (d - 1);
                if possible[i] & bit != 0 || puzzle.given(cell).is_some_and(|g| g != d) {
                    undecided[i] &= !bit;
                    continue;
                }
                let mut tried = puzzle.clone();
                if tried.fix(cell, d).is_err() {
                    undecided[i] &= !bit;
                    continue;
                }
                match self.first_solutions(&tried, 1, start)? {
                    None => return Ok(stopped(n, digits, possible, undecided, &self.plan)),
                    Some(grids) => {
                        if let Some(grid) = grids.first() {
                            mark(&mut possible, grid);
                        }
                    }
                }
                undecided[i] &= !bit;
            }
            undecided[i] &= !possible[i];
        }
        let (boxes, givens) = (None, Vec::new());
        Ok(Candidates {
            side: n,
            digits,
            possible,
            undecided,
            counts: None,
            solutions: None,
            stop: Stop::Complete,
            boxes,
            givens,
        })
    }
}

/// What a stopped search found: the digits marked, the rest undecided.
fn stopped(n: usize, digits: usize, possible: Vec<u64>, undecided: Vec<u64>, plan: &Plan) -> Candidates {
    let stop = if plan.interrupted() { Stop::Interrupted } else { Stop::Timeout };
    let undecided = undecided.iter().zip(&possible).map(|(u, p)| u & !p).collect();
    let givens = Vec::new();
    Candidates { side: n, digits, possible, undecided, counts: None, solutions: None, stop, boxes: None, givens }
}
