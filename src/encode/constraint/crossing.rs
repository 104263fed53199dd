//! Sums across a house: the sums that cross a full house (little killers
//! across a diagonal, cages across a row), together with houses that fill
//! the rest of it, cover the house; their targets less the house's total
//! are then the sum of their cells outside it, less any further house that
//! lies wholly among those cells. Four little killers across a diagonal of
//! Hailstone leave 12 cells that sum to 81, a sum no single rule states and
//! unit propagation on the rules apart does not see. ISS's optimizer adds
//! the same sums (`_addSumIntersectionHandler` in its `optimizer.js`); this
//! follows its steps, written anew:
//!
//! - for each full house (as many cells as digits: each digit once), the
//!   unit sums that meet it, taken greedily without overlap (those meeting
//!   the fewest others first);
//! - the house's cells they leave uncovered filled by other houses that
//!   share no cell with them and meet the house in two or more cells, all
//!   of them uncovered; none left uncovered, or the house is skipped;
//! - the house's own cells and total taken off, then each house (smallest
//!   first) that lies wholly among the cells left;
//! - kept when the cells left, split into groups of different digits,
//!   have a span of totals more than four times the slack of the target
//!   (the distance to the nearer end): a sum with room to spare says
//!   little.
//!
//! Every added sum is implied by the puzzle's, so no count changes.

use super::grouped::{group_totals, Differ, GroupTotals};
use crate::model::{Cell, Constraint, Puzzle};

/// A sum of `m` cells on `n` digits is kept only while `m²·n²`, a bound on
/// the edges of its partial sums (the encoding it falls back on when its
/// groups' automata are too large), is at most this: an implied sum may be
/// left out, and memory stays proportional to the puzzle's own rules.
pub(super) const MOST_EDGES: usize = 2_000_000;

/// A sum across a house: its sorted cells, its target, and whether a
/// group of its cells that may not share a digit has more than half the
/// digits (a large automaton of sets that says little the partial sums do
/// not).
pub(super) struct Crossing {
    pub cells: Vec<Cell>,
    pub target: i64,
    pub wide: bool,
}

/// The sums across `puzzle`'s full houses (see the module doc), none twice.
pub(super) fn crossing_sums(puzzle: &Puzzle, differ: &Differ) -> Vec<Crossing> {
    let n = puzzle.digits();
    let total = (n * (n + 1) / 2) as i64;
    let houses: Vec<Vec<Cell>> = puzzle
        .groups()
        .iter()
        .filter(|g| g.cells.len() == n)
        .map(|g| {
            let mut cells = g.cells.clone();
            cells.sort_unstable();
            cells
        })
        .collect();
    let sums = unit_sums(puzzle);
    if sums.is_empty() || houses.is_empty() {
        return Vec::new();
    }
    let meets = |a: &[Cell], b: &[Cell]| a.iter().any(|c| b.binary_search(c).is_ok());
    let mut by_size: Vec<&Vec<Cell>> = houses.iter().collect();
    by_size.sort_by_key(|h| h.len());
    let mut found: Vec<Crossing> = Vec::new();
    for house in &houses {
        let crossing: Vec<&(Vec<Cell>, i64)> = sums.iter().filter(|s| meets(&s.0, house)).collect();
        if crossing.is_empty() {
            continue;
        }
        // Without overlap, those that meet the fewest others first.
        let mut order: Vec<(usize, &(Vec<Cell>, i64))> = crossing
            .iter()
            .map(|&s| (crossing.iter().filter(|&&t| !std::ptr::eq(t, s) && meets(&t.0, &s.0)).count(), s))
            .collect();
        order.sort_by_key(|&(overlaps, _)| overlaps);
        let mut covered: Vec<Cell> = Vec::new();
        let mut target = 0;
        for (_, (cells, sum)) in order {
            if !meets(cells, &covered) {
                covered = sorted(&[&covered[..], &cells[..]].concat());
                target += sum;
            }
        }
        // The house's uncovered cells, filled by other houses.
        let mut uncovered: Vec<Cell> = house.iter().filter(|c| covered.binary_search(c).is_err()).copied().collect();
        for gap in houses.iter().filter(|h| meets(h, house)) {
            if uncovered.is_empty() {
                break;
            }
            let fills = gap.iter().filter(|c| uncovered.contains(c)).count();
            let inside = gap.iter().filter(|c| house.binary_search(c).is_ok()).count();
            if meets(gap, &covered) || fills < 2 || fills != inside {
                continue;
            }
            covered = sorted(&[&covered[..], &gap[..]].concat());
            target += total;
            uncovered.retain(|c| gap.binary_search(c).is_err());
        }
        if !uncovered.is_empty() {
            continue;
        }
        // The cells outside the house, less the houses among them.
        let mut left: Vec<Cell> = covered.iter().filter(|c| house.binary_search(c).is_err()).copied().collect();
        target -= total;
        for &inner in &by_size {
            if inner.len() > left.len() {
                break;
            }
            if inner.iter().all(|c| left.binary_search(c).is_ok()) {
                left.retain(|c| inner.binary_search(c).is_err());
                target -= total;
            }
        }
        let size = left.len() * n;
        if left.is_empty() || size * size > MOST_EDGES || found.iter().any(|f| f.cells == left) {
            continue;
        }
        if let Some(wide) = narrow(&left, target, n, differ) {
            found.push(Crossing { cells: left, target, wide });
        }
    }
    found
}

/// The puzzle's unit sums (weight 1 on each cell, no cell twice), each as
/// its sorted cells and target.
pub(super) fn unit_sums(puzzle: &Puzzle) -> Vec<(Vec<Cell>, i64)> {
    let mut sums = Vec::new();
    for constraint in puzzle.constraints() {
        let Constraint::Sum { terms, target } = constraint else { continue };
        let mut cells: Vec<Cell> = terms.iter().map(|t| t.0).collect();
        cells.sort_unstable();
        cells.dedup();
        if terms.iter().all(|t| t.1 == 1) && cells.len() == terms.len() {
            sums.push((cells, i64::from(*target)));
        }
    }
    sums
}

/// `cells` sorted.
fn sorted(cells: &[Cell]) -> Vec<Cell> {
    let mut cells = cells.to_vec();
    cells.sort_unstable();
    cells
}

/// Whether `Σ cells = target` is worth adding: its groups' span of totals
/// is more than four times its slack (or it cannot hold at all, which the
/// sum then says); if so, whether one of those groups is wide (more than
/// `n/2` cells).
fn narrow(cells: &[Cell], target: i64, n: usize, differ: &Differ) -> Option<bool> {
    let GroupTotals { least, most, sizes } = group_totals(cells, n, differ);
    let span = most - least;
    let worth = !(least..=most).contains(&target) || span > 0 && span > 4 * (target - least).min(most - target);
    worth.then(|| sizes.iter().any(|&k| k > n as i64 / 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hailstone (ISS's example list: two diagonals, four cages, eight
    /// little killers): ISS's optimizer logs the same two sums for it
    /// (`_addSumIntersectionHandler`, run with `logLevel: 1`: cells 12 21
    /// 22 28 29 38 42 51 52 58 59 68 sum to 81, cells 14 22 23 33 34 38 42
    /// 46 47 57 58 66 to 83, numbered from 0 in reading order), and the
    /// published solution bears both out.
    #[test]
    fn hailstone_has_the_sums_iss_finds() {
        let text = "..Cage~14~R5C3~R5C4~R6C4.Cage~19~R6C6~R6C5~R7C5.Cage~14~R4C4~R4C5~R3C5\
            .Cage~14~R4C6~R5C6~R5C7.Diagonal~1.Diagonal~-1.LittleKiller~47~R3C1.LittleKiller~49~R2C1\
            .LittleKiller~30~R8C9.LittleKiller~45~R7C9.LittleKiller~43~R1C7.LittleKiller~44~R1C8\
            .LittleKiller~34~R9C2.LittleKiller~52~R9C3";
        let puzzle = crate::parse::iss::parse_iss(text, "hailstone").unwrap();
        let found: Vec<(Vec<Cell>, i64)> =
            crossing_sums(&puzzle, &Differ::new(&puzzle)).into_iter().map(|c| (c.cells, c.target)).collect();
        let cells = |indices: &[usize]| indices.iter().map(|&i| Cell::new(i / 9, i % 9)).collect::<Vec<_>>();
        let iss = [
            (cells(&[12, 21, 22, 28, 29, 38, 42, 51, 52, 58, 59, 68]), 81),
            (cells(&[14, 22, 23, 33, 34, 38, 42, 46, 47, 57, 58, 66]), 83),
        ];
        let mut sorted_found = found.clone();
        sorted_found.sort();
        assert_eq!(sorted_found, iss.to_vec());
        let solution = "815432976763918245942567318278351694154896732396274581437685129681729453529143867";
        let digit = |c: &Cell| i64::from(solution.as_bytes()[c.row * 9 + c.col] - b'0');
        for (cells, target) in &found {
            assert_eq!(cells.iter().map(digit).sum::<i64>(), *target);
        }
    }

    /// A sum that covers no full house's cells leaves nothing to add; a
    /// puzzle without sums neither.
    #[test]
    fn nothing_without_a_covered_house() {
        let mut p = Puzzle::sudoku(2, 2).unwrap();
        assert!(crossing_sums(&p, &Differ::new(&p)).is_empty());
        let diagonal = [Cell::new(0, 1), Cell::new(1, 0)];
        p.add_constraint(Constraint::Sum { terms: diagonal.iter().map(|&c| (c, 1)).collect(), target: 3 }).unwrap();
        assert!(crossing_sums(&p, &Differ::new(&p)).is_empty());
    }
}
