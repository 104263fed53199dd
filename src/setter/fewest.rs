//! The fewest givens any puzzle of a layout needs to have exactly one
//! solution, over all its grids, by the method McGuire, Tugemann and
//! Civario used for 9x9 (There is no 16-clue Sudoku, 2012): the grids up
//! to symmetry; for each, its unavoidable sets (cells whose digits another
//! grid can rearrange, so every unique puzzle of the grid gives one of
//! them); then every set of `k` cells that hits all of them, each checked
//! with the solver, a failed check adding the unavoidable set it shows.
//! A grid has a unique puzzle with `k` givens exactly when some such set
//! passes the check.
//!
//! Grids up to symmetry: with rules blind to digit names
//! ([`crate::count::symmetry::relabelling`] proves it) and a first row
//! that holds every digit, each grid is relabelled so that its first row
//! reads 1..n (`n!` grids each); a plain Sudoku's band, stack, row and
//! column permutations ([`crate::count::burnside::generators`], the
//! machinery of `count --up-to-symmetry`) and a Latin square's row and
//! column permutations and transposition then join grids into classes,
//! and one grid of each class is searched. Variants with other rules are
//! searched grid by grid.
//!
//! With [`Fewest::per_count`], also the number of puzzles (grid and set of
//! given cells) with exactly one solution for each number of givens: for
//! each class's grid, the unavoidable sets from every other grid, and every
//! set of cells counted by whether it hits them all (grids of at most
//! [`MAX_COUNTED_CELLS`] cells).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use crate::count::plan::{Counter, Plan, Verdict};
use crate::count::{burnside, symmetry, CountError, Each};
use crate::encode::Encoding;
use crate::model::{Cell, Digit, Grid, Puzzle};

/// The most grids enumerated (after relabelling): 6x6 Sudoku has 39,168,
/// 5x5 Latin squares 1,344.
pub const MAX_GRIDS: usize = 2_000_000;

/// The most cells for the per-count table (every set of cells is looked at).
pub const MAX_COUNTED_CELLS: usize = 20;

/// What the search found.
#[derive(Clone, Debug)]
pub struct Fewest {
    /// The fewest givens of a puzzle with exactly one solution.
    pub fewest: usize,
    /// Such a puzzle.
    pub example: Puzzle,
    /// Every grid of the layout.
    pub grids: BigUint,
    /// The grids searched, one per class.
    pub classes: usize,
    /// Sets of cells checked with the solver.
    pub checks: u64,
    /// Per number of givens `k` (index), the puzzles with exactly one
    /// solution, when asked for.
    pub per_count: Option<Vec<BigUint>>,
    /// Time taken.
    pub elapsed: Duration,
}

/// Cells as bits of a `u64`, in reading order.
type Cells = u64;

/// The search for `layout` (no givens; at most 64 cells).
pub fn fewest(layout: &Puzzle, per_count: bool) -> Result<Fewest, CountError> {
    let start = Instant::now();
    let n = layout.side();
    let unsupported = |why: String| Err(CountError::Unsupported(why));
    if layout.givens().next().is_some() {
        return unsupported("fewest: give the layout without givens".into());
    }
    if n * n > 64 {
        return unsupported(format!(
            "fewest: {n}x{n} has {} cells; this search keeps sets of cells in 64 bits (9x9 took McGuire et al. \
             7 million CPU hours: docs/commands.md says what it would need)",
            n * n
        ));
    }
    if per_count && n * n > MAX_COUNTED_CELLS {
        return unsupported(format!(
            "fewest --counts looks at every set of cells: at most {MAX_COUNTED_CELLS} cells, {n}x{n} has {}",
            n * n
        ));
    }
    let first_row: Vec<Cell> = (0..n).map(|c| Cell::new(0, c)).collect();
    let row_is_full = layout.digits() == n && layout.groups().iter().any(|g| g.cells == first_row);
    let relabel = row_is_full && symmetry::relabelling(layout).is_some();
    let mut enumerated = layout.clone();
    if relabel {
        for (c, &cell) in first_row.iter().enumerate() {
            enumerated.set_given(cell, (c + 1) as Digit).map_err(|e| CountError::Unsupported(e.to_string()))?;
        }
    }
    let factor: u128 = if relabel { (1..=n as u128).product() } else { 1 };
    let grids = enumerate(&enumerated)?;
    let motions = motions(layout);
    let classes = classes(&grids, &motions, n, relabel);
    let mut counter = Counter::new(plain_plan());
    let mut best: Option<(usize, Cells, usize)> = None;
    let mut checks = 0;
    for &(rep, _) in &classes {
        let grid = &grids[rep];
        let mut sets = first_sets(&mut counter, layout, grid, &mut checks)?;
        let bound = best.map_or(n * n, |(k, _, _)| k - 1);
        for k in 0..=bound {
            if let Some(cells) = hitting(&mut counter, layout, grid, &mut sets, k, &mut checks)? {
                best = Some((k, cells, rep));
                break;
            }
        }
    }
    let (fewest, cells, rep) = best.ok_or_else(|| CountError::Unsupported("fewest: the layout has no grid".into()))?;
    let example = with_cells(layout, &grids[rep], cells);
    let per_count = if per_count {
        let table = count_table(&grids, &classes, n, relabel, factor);
        // The set logic and the solver must agree on the fewest.
        let first = table.iter().position(|c| *c != BigUint::default());
        if first != Some(fewest) {
            return Err(CountError::NotASolution(format!(
                "the per-count table starts at {first:?} givens, the search found {fewest}"
            )));
        }
        Some(table)
    } else {
        None
    };
    let total: u128 = classes.iter().map(|&(_, size)| size as u128).sum();
    Ok(Fewest {
        fewest,
        example,
        grids: BigUint::from(total) * factor,
        classes: classes.len(),
        checks,
        per_count,
        elapsed: start.elapsed(),
    })
}

/// The default plan without symmetry: the grids are enumerated as they
/// are, and each check judges the puzzle itself.
fn plain_plan() -> Plan {
    Plan { symmetry: crate::count::plan::SymmetryUse::None, ..Plan::new(Encoding::default()) }
}

/// Every grid of `puzzle`, each checked (at most [`MAX_GRIDS`]).
fn enumerate(puzzle: &Puzzle) -> Result<Vec<Vec<Digit>>, CountError> {
    let mut grids = Vec::new();
    let mut too_many = false;
    let mut keep = |grid: &Grid| {
        if grids.len() == MAX_GRIDS {
            too_many = true;
            return false;
        }
        grids.push(grid.rows().flatten().copied().collect());
        true
    };
    Counter::new(plain_plan()).count(puzzle, &mut Each(&mut keep))?;
    if too_many {
        return Err(CountError::Unsupported(format!(
            "fewest: the layout has more than {MAX_GRIDS} grids (after relabelling); the search enumerates them"
        )));
    }
    Ok(grids)
}

/// The geometric symmetries the search joins grids by, as cell maps.
fn motions(layout: &Puzzle) -> Vec<Vec<u8>> {
    let n = layout.side();
    if let Ok(motions) = burnside::generators(layout, true) {
        return motions;
    }
    if Puzzle::latin(n).is_ok_and(|latin| latin.same_layout(layout)) && n >= 2 {
        let cells = |to: &dyn Fn(usize, usize) -> (usize, usize)| -> Vec<u8> {
            (0..n * n)
                .map(|i| {
                    let (r, c) = to(i / n, i % n);
                    (r * n + c) as u8
                })
                .collect()
        };
        let swap = |i: usize| if i < 2 { 1 - i } else { i };
        let cycle = |i: usize| (i + 1) % n;
        return vec![
            cells(&|r, c| (swap(r), c)),
            cells(&|r, c| (cycle(r), c)),
            cells(&|r, c| (r, swap(c))),
            cells(&|r, c| (r, cycle(c))),
            cells(&|r, c| (c, r)),
        ];
    }
    Vec::new()
}

/// `grid` moved by `motion` (the digit of cell `p` goes to `motion[p]`),
/// relabelled so that its first row reads 1..n when `relabel`.
fn moved(grid: &[Digit], motion: &[u8], n: usize, relabel: bool) -> Vec<Digit> {
    let mut out = vec![0; grid.len()];
    for (p, &d) in grid.iter().enumerate() {
        out[motion[p] as usize] = d;
    }
    if relabel {
        let mut name = [0 as Digit; 65];
        for (c, &d) in out[..n].iter().enumerate() {
            name[d as usize] = (c + 1) as Digit;
        }
        for d in &mut out {
            *d = name[*d as usize];
        }
    }
    out
}

/// The classes of `grids` under the group `motions` generate: one grid of
/// each (its index) and the class's size.
fn classes(grids: &[Vec<Digit>], motions: &[Vec<u8>], n: usize, relabel: bool) -> Vec<(usize, usize)> {
    let index: HashMap<&[Digit], usize> = grids.iter().enumerate().map(|(i, g)| (g.as_slice(), i)).collect();
    let mut seen = vec![false; grids.len()];
    let mut classes = Vec::new();
    for start in 0..grids.len() {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let (mut stack, mut size) = (vec![start], 0);
        while let Some(i) = stack.pop() {
            size += 1;
            for motion in motions {
                let image = moved(&grids[i], motion, n, relabel);
                // Every image is a grid of the layout: the motions keep its
                // groups (proven by `generators`) and the first row full.
                if let Some(&j) = index.get(image.as_slice()) {
                    if !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        classes.push((start, size));
    }
    classes
}

/// `layout` with `cells` of `grid` given.
fn with_cells(layout: &Puzzle, grid: &[Digit], cells: Cells) -> Puzzle {
    let n = layout.side();
    let mut puzzle = layout.clone();
    for p in (0..n * n).filter(|&p| cells >> p & 1 == 1) {
        puzzle.set_given(Cell::new(p / n, p % n), grid[p]).expect("a grid's digit fits its layout");
    }
    puzzle
}

/// Whether `cells` of `grid` make a puzzle with one solution; when not,
/// an unavoidable set it misses (where another solution differs).
fn check(
    counter: &mut Counter,
    layout: &Puzzle,
    grid: &[Digit],
    cells: Cells,
    checks: &mut u64,
) -> Result<Option<Cells>, CountError> {
    *checks += 1;
    let other = match counter.judge(&with_cells(layout, grid, cells))? {
        Verdict::Unique(_) => return Ok(None),
        Verdict::Multiple(a, b) => {
            let a_is_grid = a.rows().flatten().eq(grid.iter());
            if a_is_grid {
                b
            } else {
                a
            }
        }
        Verdict::None => return Err(CountError::NotASolution("a grid's own givens have no solution".into())),
        Verdict::Undecided => return Err(CountError::Stopped),
    };
    let differ = other.rows().flatten().zip(grid).enumerate().filter(|(_, (a, b))| a != b);
    Ok(Some(differ.fold(0, |set, (p, _)| set | 1 << p)))
}

/// Unavoidable sets to start with: for each pair of digits, the grid with
/// their cells open, and each other solution's difference.
fn first_sets(
    counter: &mut Counter,
    layout: &Puzzle,
    grid: &[Digit],
    checks: &mut u64,
) -> Result<Vec<Cells>, CountError> {
    let digits = layout.digits() as Digit;
    let mut sets = Vec::new();
    for a in 1..=digits {
        for b in a + 1..=digits {
            let kept = grid.iter().enumerate().filter(|&(_, &d)| d != a && d != b);
            let cells = kept.fold(0, |set: Cells, (p, _)| set | 1 << p);
            if let Some(set) = check(counter, layout, grid, cells, checks)? {
                sets.push(set);
            }
        }
    }
    Ok(minimal_sets(sets))
}

/// The sets no other set of the list is inside.
fn minimal_sets(mut sets: Vec<Cells>) -> Vec<Cells> {
    sets.sort_by_key(|s| (s.count_ones(), *s));
    sets.dedup();
    let mut kept: Vec<Cells> = Vec::new();
    for s in sets {
        if !kept.iter().any(|&k| k & !s == 0) {
            kept.push(s);
        }
    }
    kept
}

/// A set of `k` cells of `grid` whose puzzle has one solution, if any:
/// every set that hits all of `sets` is tried (a failed check adds the
/// set it misses).
fn hitting(
    counter: &mut Counter,
    layout: &Puzzle,
    grid: &[Digit],
    sets: &mut Vec<Cells>,
    k: usize,
    checks: &mut u64,
) -> Result<Option<Cells>, CountError> {
    Hitting { counter, layout, grid, sets, checks }.go(0, k, 0)
}

/// The state of one [`hitting`] search.
struct Hitting<'a> {
    counter: &'a mut Counter,
    layout: &'a Puzzle,
    grid: &'a [Digit],
    sets: &'a mut Vec<Cells>,
    checks: &'a mut u64,
}

impl Hitting<'_> {
    /// Sets that add at most `left` cells to `chosen`, none of `barred`.
    fn go(&mut self, chosen: Cells, left: usize, mut barred: Cells) -> Result<Option<Cells>, CountError> {
        loop {
            // The unhit set with the fewest cells still open to choose.
            let unhit = self.sets.iter().filter(|&&s| s & chosen == 0).min_by_key(|&&s| (s & !barred).count_ones());
            let Some(&set) = unhit else {
                match check(self.counter, self.layout, self.grid, chosen, self.checks)? {
                    None => return Ok(Some(chosen)),
                    Some(set) => {
                        self.sets.push(set);
                        continue;
                    }
                }
            };
            if left == 0 {
                return Ok(None);
            }
            let mut open = set & !barred;
            while open != 0 {
                let bit = open & open.wrapping_neg();
                open &= open - 1;
                if let Some(found) = self.go(chosen | bit, left - 1, barred)? {
                    return Ok(Some(found));
                }
                // The sets with this cell are all tried: the next branches bar it.
                barred |= bit;
            }
            return Ok(None);
        }
    }
}

/// Per number of givens, the puzzles with one solution over all grids:
/// for each class's grid, its unavoidable sets from every other grid
/// (every relabelling of every grid enumerated), and each set of cells
/// that hits them all; times the grids of its class.
fn count_table(
    grids: &[Vec<Digit>],
    classes: &[(usize, usize)],
    n: usize,
    relabel: bool,
    factor: u128,
) -> Vec<BigUint> {
    let cells = n * n;
    let mut all: Vec<Vec<Digit>> = Vec::new();
    for grid in grids {
        if relabel {
            for names in itertools::Itertools::permutations(1..=n as Digit, n) {
                all.push(grid.iter().map(|&d| names[d as usize - 1]).collect());
            }
        } else {
            all.push(grid.clone());
        }
    }
    let mut table = vec![BigUint::default(); cells + 1];
    for &(rep, size) in classes {
        let grid = &grids[rep];
        let differences = all
            .iter()
            .filter(|h| *h != grid)
            .map(|h| h.iter().zip(grid).enumerate().filter(|(_, (a, b))| a != b).fold(0u64, |s, (p, _)| s | 1 << p));
        let sets = minimal_sets(differences.collect());
        let mut counts = vec![0u64; cells + 1];
        for chosen in 0..(1u64 << cells) {
            if sets.iter().all(|&s| s & chosen != 0) {
                counts[chosen.count_ones() as usize] += 1;
            }
        }
        for (k, &c) in counts.iter().enumerate() {
            table[k] += BigUint::from(c) * BigUint::from(size as u128 * factor);
        }
    }
    table
}
