//! Sums of sums: two of the puzzle's sums on cells apart, added, make a sum
//! of their cells together, and when many of those cells may not share a
//! digit that sum can sit near the least or the most its cells can hold,
//! though neither part does. ISS's "Zero solution: Little Killer" (eight
//! little killers of 49 and nothing else) has no solution because four of
//! its diagonals together, 32 cells in rows, columns and boxes, cannot
//! reach 196 by more than two; each diagonal alone has room to spare, and
//! without the sum of the four a CDCL solver searched past 300 s. ISS's
//! optimizer adds such sums (`_makeCombinedSumHandlers` in its
//! `optimizer.js`); this follows its steps, written anew:
//!
//! - each unit sum of the puzzle (weight 1 on each cell, no cell twice) is
//!   a record: its cells split into groups of different digits
//!   (`grouped::exclusion_groups`) give the least and most totals, its
//!   slack is the distance from its target to the nearer of them, and its
//!   score is the sum over groups of `k·(n − k) − slack` (a group of `k`
//!   cells on `n` digits has `k·(n − k)` totals to spare);
//! - two records may merge when they share no cell and at least
//!   [`RELATED`] cells of the smaller may not share a digit with a cell
//!   of the larger; the merge is a candidate when its score beats both
//!   parts', or their sum;
//! - the best candidate (highest score, then the larger cells) is merged,
//!   its parts leave the pool, and the merged record is paired with the
//!   rest; until no candidate is left;
//! - each merged record left with a positive score is added.
//!
//! A merge whose encoding would pass the bound of the sums across houses
//! (`crossing::MOST_EDGES`) is no candidate, so the pool's records stay
//! as small as the sums added.
//!
//! Every added sum is the sum of the puzzle's own on cells apart, so no
//! count changes. The pool shrinks by one at each merge, so there are
//! fewer merges than the puzzle has sums.

use rustc_hash::FxHashSet as HashSet;

use super::crossing::{unit_sums, MOST_EDGES};
use super::grouped::{group_totals, Differ};
use crate::model::{Cell, Puzzle};

/// The fewest cells of the smaller of two sums that must each differ from
/// some cell of the other for the two to be merged (ISS's
/// `MIN_OVERLAP_COUNT`).
const RELATED: usize = 6;

/// A sum in the pool: its sorted cells, its target, its score, and
/// whether it is one of the puzzle's own.
#[derive(Clone, Debug)]
struct Record {
    cells: Vec<Cell>,
    target: i64,
    score: i64,
    own: bool,
}

impl Record {
    /// The record of `Σ cells = target`, or none when the target is out of
    /// the cells' reach (the puzzle's own sum then says so).
    fn new(cells: Vec<Cell>, target: i64, own: bool, n: usize, differ: &Differ) -> Option<Record> {
        let totals = group_totals(&cells, n, differ);
        if !(totals.least..=totals.most).contains(&target) {
            return None;
        }
        let slack = (target - totals.least).min(totals.most - target);
        let n = n as i64;
        let score = totals.sizes.iter().map(|&k| k * (n - k) - slack).sum();
        Some(Record { cells, target, score, own })
    }

    /// Whether `self` and `other` share no cell and at least [`RELATED`]
    /// cells of the smaller differ from a cell of the larger.
    fn related(&self, other: &Record, differ: &Differ) -> bool {
        let (small, big) = if other.cells.len() < self.cells.len() { (other, self) } else { (self, other) };
        if small.cells.len() < RELATED || small.cells.iter().any(|c| big.cells.binary_search(c).is_ok()) {
            return false;
        }
        small.cells.iter().filter(|&&c| big.cells.iter().any(|&b| differ.differ(c, b))).take(RELATED).count() == RELATED
    }

    /// The two merged, if the merge is a candidate (see the module doc).
    fn merge(&self, other: &Record, n: usize, differ: &Differ) -> Option<Record> {
        if !self.related(other, differ) {
            return None;
        }
        let mut cells = [&self.cells[..], &other.cells[..]].concat();
        cells.sort_unstable();
        if !fits(&cells, n) {
            return None;
        }
        let merged = Record::new(cells, self.target + other.target, false, n, differ)?;
        let better = merged.score > self.score && merged.score > other.score;
        (better || merged.score > self.score + other.score).then_some(merged)
    }
}

/// The sums of `puzzle`'s sums worth adding (see the module doc), each as
/// its sorted cells and target.
pub(super) fn combined_sums(puzzle: &Puzzle, differ: &Differ) -> Vec<(Vec<Cell>, i64)> {
    let n = puzzle.digits();
    // The pool, by index; a merged record's parts become `None`.
    let mut pool: Vec<Option<Record>> = Vec::new();
    let mut in_pool: HashSet<Vec<Cell>> = HashSet::default();
    for (cells, target) in unit_sums(puzzle) {
        // A sum of fewer cells than `RELATED` is never merged.
        if cells.len() < RELATED || in_pool.contains(&cells) {
            continue;
        }
        if let Some(record) = Record::new(cells, target, true, n, differ) {
            in_pool.insert(record.cells.clone());
            pool.push(Some(record));
        }
    }
    let mut candidates: Vec<(usize, usize, Record)> = Vec::new();
    let pair = |a: usize, b: usize, pool: &[Option<Record>], candidates: &mut Vec<(usize, usize, Record)>| {
        if let (Some(x), Some(y)) = (&pool[a], &pool[b]) {
            if let Some(merged) = x.merge(y, n, differ) {
                candidates.push((a, b, merged));
            }
        }
    };
    for b in 0..pool.len() {
        for a in 0..b {
            pair(a, b, &pool, &mut candidates);
        }
    }
    loop {
        candidates
            .retain(|(a, b, merged)| pool[*a].is_some() && pool[*b].is_some() && !in_pool.contains(&merged.cells));
        let best = candidates
            .iter()
            .enumerate()
            .max_by(|(_, x), (_, y)| x.2.score.cmp(&y.2.score).then_with(|| x.2.cells.cmp(&y.2.cells)))
            .map(|(i, _)| i);
        let Some(best) = best else { break };
        let (a, b, merged) = candidates.swap_remove(best);
        for part in [a, b] {
            if let Some(record) = pool[part].take() {
                in_pool.remove(&record.cells);
            }
        }
        in_pool.insert(merged.cells.clone());
        pool.push(Some(merged));
        let new = pool.len() - 1;
        for other in 0..new {
            pair(other, new, &pool, &mut candidates);
        }
    }
    pool.into_iter().flatten().filter(|r| !r.own && r.score > 0).map(|r| (r.cells, r.target)).collect()
}

/// Whether a sum of `cells` on `n` digits is small enough to encode, as
/// the sums across houses are (`crossing::MOST_EDGES`); a merge only grows,
/// so a record past it is left out at once.
fn fits(cells: &[Cell], n: usize) -> bool {
    (cells.len() * n).pow(2) <= MOST_EDGES
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ISS's "Zero solution: Little Killer" (its `data/collections.js`):
    /// ISS's optimizer logs two sums of four diagonals each for it
    /// (`_makeCombinedSumHandlers`, run with `logLevel: 1`), 31 cells and
    /// 32 cells of 196, numbered from 0 in reading order; the same two come
    /// out here.
    #[test]
    fn the_zero_solution_little_killer_has_the_sums_iss_finds() {
        let text = ".LittleKiller~49~R1C9.LittleKiller~49~R1C8.LittleKiller~49~R9C2.LittleKiller~49~R9C3\
            .LittleKiller~49~R7C9.LittleKiller~49~R1C1.LittleKiller~49~R2C1.LittleKiller~49~R3C1.";
        let puzzle = crate::parse::iss::parse_iss(text, "zero solution").unwrap();
        let mut found = combined_sums(&puzzle, &Differ::new(&puzzle));
        found.sort();
        let cells = |indices: &[usize]| indices.iter().map(|&i| Cell::new(i / 9, i % 9)).collect::<Vec<_>>();
        let iss = [
            cells(&[
                0, 2, 9, 10, 12, 18, 19, 20, 22, 28, 29, 30, 32, 38, 39, 40, 42, 48, 49, 50, 52, 58, 59, 60, 62, 68,
                69, 70, 78, 79, 80,
            ]),
            cells(&[
                7, 8, 15, 16, 17, 23, 24, 25, 26, 31, 32, 33, 34, 39, 40, 41, 42, 47, 48, 49, 50, 55, 56, 57, 58, 63,
                64, 65, 66, 72, 73, 74,
            ]),
        ];
        assert_eq!(found, vec![(iss[0].clone(), 196), (iss[1].clone(), 196)]);
    }

    /// Sums of fewer than [`RELATED`] cells, or on shared cells, are never
    /// merged; a puzzle without sums has none.
    #[test]
    fn short_or_overlapping_sums_stay_apart() {
        let mut p = crate::model::Puzzle::sudoku(3, 3).unwrap();
        assert!(combined_sums(&p, &Differ::new(&p)).is_empty());
        let row = |r: usize, cols: std::ops::Range<usize>| cols.map(|c| (Cell::new(r, c), 1)).collect::<Vec<_>>();
        for (terms, target) in [(row(0, 0..5), 15), (row(1, 0..5), 15), (row(2, 0..7), 28), (row(2, 3..9), 21)] {
            p.add_constraint(crate::model::Constraint::Sum { terms, target }).unwrap();
        }
        assert!(combined_sums(&p, &Differ::new(&p)).is_empty());
    }
}
