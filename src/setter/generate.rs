//! New puzzles with exactly one solution: a random solution of the layout
//! (its rules and any givens it has), givens of that solution added in a
//! random order until the puzzle is unique, then each added given dropped
//! that can be, in a random order, so the puzzle is minimal. Givens go in orbits of the
//! symmetry asked for, so the pattern keeps it; a puzzle made with a
//! symmetry is minimal among puzzles with that symmetry (no orbit can go).
//! Uniqueness is judged by [`Counter::judge`], as `unique` judges.
//!
//! Randomness comes from ChaCha8 seeded with the seed and the puzzle's
//! index, so the same seed makes the same puzzles on every machine and
//! with any number of threads.

use std::time::Instant;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::count::enumerate::Prober;
use crate::count::plan::{Counter, Verdict};
use crate::count::CountError;
use crate::model::check::Checker;
use crate::model::{Cell, Digit, Grid, Puzzle};

crate::named_enum! {
    /// The symmetry of a generated puzzle's givens.
    pub enum Symmetry = None {
        /// Givens anywhere.
        None = "none",
        /// Unchanged by a half turn about the centre.
        Rotate180 = "rotate180",
        /// Unchanged by the mirror across the middle column.
        Mirror = "mirror",
        /// Unchanged by the mirror across the main diagonal.
        Diagonal = "diagonal",
    }
}

impl Symmetry {
    /// The cells `cell` goes with (itself first).
    pub fn orbit(self, side: usize, cell: Cell) -> Vec<Cell> {
        let other = match self {
            Symmetry::None => cell,
            Symmetry::Rotate180 => Cell::new(side - 1 - cell.row, side - 1 - cell.col),
            Symmetry::Mirror => Cell::new(cell.row, side - 1 - cell.col),
            Symmetry::Diagonal => Cell::new(cell.col, cell.row),
        };
        if other == cell {
            vec![cell]
        } else {
            vec![cell, other]
        }
    }
}

/// The random source of puzzle `index` under `seed`.
pub fn rng_for(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// The most search nodes spent on one random solution before the try is
/// given up (a layout whose rules make solutions rare).
const NODE_BUDGET: u64 = 200_000;

/// A random solution of `puzzle` (its givens kept), by a search on
/// `prober` (built for its layout) that takes the cell with the fewest
/// candidates (ties broken by a random order of the cells) and tries its
/// digits in a random order; each grid is checked by the independent
/// checker. `None` if there is none, or the budget ran out.
pub fn random_solution(prober: &mut Prober, puzzle: &Puzzle, rng: &mut ChaCha8Rng) -> Option<Grid> {
    if !prober.reset() {
        return None;
    }
    for (cell, digit) in puzzle.givens() {
        if !prober.assume(prober.literal(cell, digit)) {
            return None;
        }
    }
    let mut order: Vec<Cell> = puzzle.cells().collect();
    order.shuffle(rng);
    let checker = Checker::new(puzzle);
    let mut nodes = 0;
    search(prober, puzzle, &order, &checker, rng, &mut nodes)
}

fn search(
    prober: &mut Prober,
    puzzle: &Puzzle,
    order: &[Cell],
    checker: &Checker,
    rng: &mut ChaCha8Rng,
    nodes: &mut u64,
) -> Option<Grid> {
    *nodes += 1;
    if *nodes > NODE_BUDGET {
        return None;
    }
    let open = order.iter().copied().filter(|&cell| prober.fixed(cell).is_none());
    let Some(cell) = open.min_by_key(|&cell| prober.open_in(cell)) else {
        let digits = puzzle.cells().map(|cell| prober.fixed(cell).unwrap_or(0)).collect();
        let grid = Grid::new(puzzle.side(), digits)?;
        return checker.solves(&grid).then_some(grid);
    };
    let mut digits: Vec<Digit> =
        (1..=puzzle.digits() as Digit).filter(|&d| prober.fixed(cell).is_none() && is_open(prober, cell, d)).collect();
    digits.shuffle(rng);
    for digit in digits {
        let ok = prober.decide(prober.literal(cell, digit));
        let found = if ok { search(prober, puzzle, order, checker, rng, nodes) } else { None };
        prober.backtrack();
        if found.is_some() {
            return found;
        }
        if *nodes > NODE_BUDGET {
            return None;
        }
    }
    None
}

fn is_open(prober: &mut Prober, cell: Cell, digit: Digit) -> bool {
    prober.value(prober.literal(cell, digit)).is_none()
}

/// One generated puzzle: the puzzle and its solution.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The layout's givens and the new ones.
    pub puzzle: Puzzle,
    /// Its one solution.
    pub solution: Grid,
}

/// Makes one puzzle from `solution` (a solution of `layout`): givens of it
/// added in orbits of `symmetry` until the puzzle is unique, then each
/// added orbit dropped that can be, in a random order. `None` if the time
/// limit passed first.
pub fn puzzle_from(
    counter: &mut Counter,
    layout: &Puzzle,
    solution: &Grid,
    symmetry: Symmetry,
    rng: &mut ChaCha8Rng,
    start: Instant,
) -> Result<Option<Generated>, CountError> {
    let side = layout.side();
    let mut puzzle = layout.clone();
    let mut added: Vec<Vec<Cell>> = Vec::new();
    // Open cells in a random order, each added with its orbit until the
    // puzzle is unique. The order depends on the seed alone, and each step
    // on whether the puzzle is unique, a fact: not on which second solution
    // an engine happened to find, so the puzzle is the same on any thread.
    let mut order: Vec<Cell> = layout.cells().filter(|&cell| layout.given(cell).is_none()).collect();
    order.shuffle(rng);
    let mut next = order.into_iter();
    loop {
        match counter.judge_since(&puzzle, start)? {
            Verdict::Unique(_) => break,
            Verdict::Undecided => return Ok(None),
            Verdict::None => return Err(CountError::NotASolution("a solution lost its puzzle".into())),
            Verdict::Multiple(..) => {}
        }
        let Some(cell) = next.by_ref().find(|&cell| puzzle.given(cell).is_none()) else {
            return Err(CountError::NotASolution("a full grid with several solutions".into()));
        };
        let orbit: Vec<Cell> = symmetry.orbit(side, cell).into_iter().filter(|&c| puzzle.given(c).is_none()).collect();
        for &c in &orbit {
            puzzle.set_given(c, solution.get(c)).expect("a solution's digit fits its puzzle");
        }
        added.push(orbit);
    }
    added.shuffle(rng);
    for orbit in &added {
        let mut fewer = puzzle.clone();
        for &c in orbit {
            fewer.clear_given(c);
        }
        match counter.judge_since(&fewer, start)? {
            Verdict::Unique(_) => puzzle = fewer,
            Verdict::Undecided => return Ok(None),
            _ => {}
        }
    }
    Ok(Some(Generated { puzzle, solution: solution.clone() }))
}

/// Whether no orbit of givens that `puzzle` has beyond `layout`'s can be
/// dropped with the solution staying unique (`None` if undecided): the
/// check each generated puzzle passes.
pub fn is_minimal(
    counter: &mut Counter,
    layout: &Puzzle,
    puzzle: &Puzzle,
    symmetry: Symmetry,
    start: Instant,
) -> Result<Option<bool>, CountError> {
    let side = puzzle.side();
    let added = puzzle.givens().filter(|&(cell, _)| layout.given(cell).is_none());
    for (cell, _) in added {
        let mut fewer = puzzle.clone();
        for c in symmetry.orbit(side, cell) {
            fewer.clear_given(c);
        }
        match counter.judge_since(&fewer, start)? {
            Verdict::Unique(_) => return Ok(Some(false)),
            Verdict::Undecided => return Ok(None),
            _ => {}
        }
    }
    Ok(Some(true))
}
