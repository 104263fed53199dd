//! Line permutations for a blank Sudoku layout with extra all-different
//! groups (diagonals, disjoint groups, windows, any `extra` region) or
//! pairs of cells that must differ (anti-king, anti-knight), where the
//! plain Sudoku's reduction does not hold: only some row and column orders
//! keep them.
//!
//! *Implied groups.* With `n` digits, a group of `n` cells holds every
//! digit once. If `k` parallel lines hold `k - 1` pairwise disjoint full
//! groups, the `n` cells of the lines outside them hold every digit
//! `k - (k - 1)` = once: they are a full group too, on every grid. (On
//! Windoku these are the five hidden windows: columns 2 to 4 less the two
//! windows in them give rows 1, 5 and 9 of those columns, and rows 1, 5
//! and 9 less two such groups give the cells where they meet columns 1, 5
//! and 9.) They are looked for among two and three lines until no new one
//! appears, and added to the counted puzzle, which has the same grids.
//!
//! *The motions kept.* Let `F` be a full group, which relabelling fixes to
//! `1..n` (a factor of `n!`), and `K` the line permutations `k = (ρ, σ)`
//! (rows by `ρ`, columns by `σ`, each keeping bands, stacks) that leave
//! every cell of `F` in place and map every group, implied ones included,
//! onto a group, and every pair that must differ onto such a pair. `K` is a group (an intersection of two), each `k` maps
//! grids onto grids and keeps `F` as it is, and `K` acts freely on them:
//! a grid `x` with `x(ρ r, σ c) = x(r, c)` everywhere and `ρ` moving a row
//! `r` would repeat a digit in a column `c0` of `F` (which `σ` keeps), and
//! `ρ = id`, `σ` moving a column, in a row `r0` of `F`. So the grids with
//! `F` fixed fall into orbits of exactly `|K|` grids, and the count is
//! `n! |K|` times the orbits, each counted once by a canonical grid.
//!
//! *The canonical grid.* The orbit's grid whose column `c0` (read down)
//! is smallest in the lexicographic order, and among those (they differ by
//! the `k` with `ρ = id`) the one whose row `r0` (read across) is
//! smallest. Column `c0` of `x o k` is column `c0` of `x` with its rows
//! taken in the order `ρ`; its digits differ, so it is larger than `x`'s
//! exactly when `x(i, c0) < x(ρ(i), c0)` at the first row `i` that `ρ`
//! moves. So the canonical grids are those with `x(i, c0) < x(ρ(i), c0)`
//! for every row part `ρ ≠ id` of `K`, and `x(r0, j) < x(r0, σ(j))` for
//! every `(id, σ)` in `K` with `σ ≠ id` (`j` the first column it moves):
//! binary `<` relations, as the plain reduction's sorted lines are. Among
//! the full groups `F` is the one with the largest `K` (on a plain 9x9 a
//! box: 72 x 72 = 5,184, the plain reduction's number).

use std::collections::HashSet;

use itertools::Itertools;

use crate::model::{Cell, Predicate, Puzzle, Relation};

/// The most line orders of one kind (rows or columns) listed: 9x9 has
/// 1,296 band-keeping row orders, 12x12 with 3x4 boxes 82,944 column
/// orders (past this; such layouts keep the first group fixed alone).
const MAX_ORDERS: usize = 50_000;

/// The most pairs of row and column orders checked for one group.
const MAX_PAIRS: usize = 1 << 20;

/// A row order and a column order, each as the line each line goes to.
type Motion<'a> = (&'a [usize], &'a [usize]);

/// The reduction: groups implied by the layout, the cells fixed (with the
/// index of each one's digit), the order relations and `|K|`.
pub(super) struct Extra {
    pub implied: Vec<Vec<Cell>>,
    pub fixed: Vec<(Cell, usize)>,
    pub order: Vec<Relation>,
    pub count: u128,
}

/// The reduction of a blank Sudoku layout whose groups are its rows,
/// columns and boxes and extra groups, and whose other rules are pairs of
/// different digits, with at least one extra group or pair; `None` for any
/// other puzzle, or past the bounds above.
pub(super) fn reduction(puzzle: &Puzzle) -> Option<Extra> {
    let n = puzzle.side();
    let (h, w) = puzzle.boxes()?;
    let pairs = puzzle.relations();
    if puzzle.blank_sudoku_extras()?.is_empty() && pairs.is_empty()
        || pairs.iter().any(|r| r.predicate != Predicate::NotEqual)
    {
        return None;
    }
    // Past the bounds before any other work.
    let rows = orders(n, h)?;
    let columns = orders(n, w)?;
    let index = |c: &Cell| c.row * n + c.col;
    let mut groups: Vec<Vec<usize>> =
        puzzle.groups().iter().map(|g| g.cells.iter().map(index).sorted().collect()).collect();
    let implied = implied_groups(n, &mut groups);
    let known: HashSet<&[usize]> = groups.iter().map(Vec::as_slice).collect();
    let pair = |a: usize, b: usize| (a.min(b), a.max(b));
    let different: HashSet<(usize, usize)> = pairs.iter().map(|r| pair(index(&r.a), index(&r.b))).collect();
    let keeps = |rho: &[usize], sigma: &[usize]| {
        let to = |p: usize| rho[p / n] * n + sigma[p % n];
        groups.iter().all(|g| {
            let image: Vec<usize> = g.iter().map(|&p| to(p)).sorted().collect();
            known.contains(image.as_slice())
        }) && different.iter().all(|&(a, b)| different.contains(&pair(to(a), to(b))))
    };
    let mut best: Option<(Vec<usize>, Vec<Motion>)> = None;
    for f in groups.iter().filter(|g| g.len() == n) {
        let (rhos, sigmas) = (fixing(&rows, f.iter().map(|p| p / n)), fixing(&columns, f.iter().map(|p| p % n)));
        if rhos.len().saturating_mul(sigmas.len()) > MAX_PAIRS {
            continue;
        }
        let k: Vec<Motion> = itertools::iproduct!(rhos, sigmas).filter(|(rho, sigma)| keeps(rho, sigma)).collect();
        if best.as_ref().is_none_or(|(_, b)| k.len() > b.len()) {
            best = Some((f.clone(), k));
        }
    }
    let (f, k) = best?;
    let (r0, c0) = (f[0] / n, f.iter().map(|p| p % n).min()?);
    let identity: Vec<usize> = (0..n).collect();
    let first_moved = |o: &[usize]| (0..n).find(|&i| o[i] != i);
    let mut order = Vec::new();
    let mut seen = HashSet::new();
    let less = |a: Cell, b: Cell| Relation { a, b, predicate: Predicate::Less };
    for (rho, sigma) in &k {
        if let Some(i) = first_moved(rho) {
            if seen.insert((i, rho[i], true)) {
                order.push(less(Cell::new(i, c0), Cell::new(rho[i], c0)));
            }
        } else if let Some(j) = first_moved(sigma) {
            debug_assert_eq!(*rho, identity.as_slice());
            if seen.insert((j, sigma[j], false)) {
                order.push(less(Cell::new(r0, j), Cell::new(r0, sigma[j])));
            }
        }
    }
    let fixed = f.iter().enumerate().map(|(i, &p)| (Cell::new(p / n, p % n), i)).collect();
    let cells = |g: &Vec<usize>| g.iter().map(|&p| Cell::new(p / n, p % n)).collect();
    Some(Extra { implied: implied.iter().map(cells).collect(), fixed, order, count: k.len() as u128 })
}

/// The orders among `lines` that leave each of the lines `kept` in place.
fn fixing(lines: &[Vec<usize>], kept: impl Iterator<Item = usize>) -> Vec<&[usize]> {
    let kept: Vec<usize> = kept.collect();
    lines.iter().filter(|o| kept.iter().all(|&l| o[l] == l)).map(Vec::as_slice).collect()
}

/// Adds to `groups` (each its cells' indices, sorted) the full groups
/// that two or three parallel lines imply (see the module doc), until
/// none is new; returns them.
fn implied_groups(n: usize, groups: &mut Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    let mut known: HashSet<Vec<usize>> = groups.iter().cloned().collect();
    let mut implied = Vec::new();
    let line =
        |row: bool, l: usize| -> Vec<usize> { (0..n).map(|i| if row { l * n + i } else { i * n + l }).collect() };
    loop {
        let mut found = Vec::new();
        let full: Vec<&Vec<usize>> = groups.iter().filter(|g| g.len() == n).collect();
        for (row, k) in itertools::iproduct!([true, false], 2..=3.min(n)) {
            for lines in (0..n).combinations(k) {
                let mut inside = vec![false; n * n];
                for &l in &lines {
                    for p in line(row, l) {
                        inside[p] = true;
                    }
                }
                let within: Vec<&&Vec<usize>> = full.iter().filter(|g| g.iter().all(|&p| inside[p])).collect();
                for parts in within.into_iter().combinations(k - 1) {
                    let mut rest = inside.clone();
                    for &p in parts.iter().flat_map(|g| g.iter()) {
                        rest[p] = false;
                    }
                    // `n` cells left exactly when the parts are disjoint.
                    let rest: Vec<usize> = (0..n * n).filter(|&p| rest[p]).collect();
                    if rest.len() == n && !known.contains(&rest) {
                        known.insert(rest.clone());
                        found.push(rest);
                    }
                }
            }
        }
        if found.is_empty() {
            return implied;
        }
        groups.extend(found.iter().cloned());
        implied.extend(found);
    }
}

/// Every order of `n` lines in bands of `h` that keeps the bands (moves
/// them as wholes and lines within them), each as the line each goes to;
/// `None` past [`MAX_ORDERS`].
fn orders(n: usize, h: usize) -> Option<Vec<Vec<usize>>> {
    let bands = n / h;
    let count = (1..=bands).product::<usize>().checked_mul((1..=h).product::<usize>().checked_pow(bands as u32)?)?;
    if count > MAX_ORDERS {
        return None;
    }
    let within: Vec<Vec<usize>> = (0..h).permutations(h).collect();
    let mut out = Vec::with_capacity(count);
    for band_order in (0..bands).permutations(bands) {
        for inner in std::iter::repeat_n(&within, bands).multi_cartesian_product() {
            let mut to = vec![0; n];
            for (band, (&target, perm)) in band_order.iter().zip(&inner).enumerate() {
                for i in 0..h {
                    to[band * h + i] = target * h + perm[i];
                }
            }
            out.push(to);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn windoku() -> Puzzle {
        let mut p = Puzzle::sudoku(3, 3).unwrap();
        for (r, c) in itertools::iproduct!([1, 5], [1, 5]) {
            p.add_group(itertools::iproduct!(r..r + 3, c..c + 3).map(|(r, c)| Cell::new(r, c)).collect()).unwrap();
        }
        p
    }

    /// Windoku implies the five hidden windows (rows and columns 1, 5, 9
    /// crossed with each other and with 2-4 and 6-8). Keeping the middle
    /// box in place (or the hidden window at rows and columns 1, 5, 9,
    /// found after it with as many) leaves rows 2 and 3, rows 7 and 8, and
    /// the same columns free to swap: 16 motions, and the order relations
    /// of the four swaps (a pair of swaps moves first what one of them
    /// does).
    #[test]
    fn windoku_has_five_hidden_windows_and_sixteen_motions() {
        let extra = reduction(&windoku()).unwrap();
        let set = |rows: [usize; 3], cols: [usize; 3]| {
            itertools::iproduct!(rows, cols).map(|(r, c)| Cell::new(r, c)).sorted().collect::<Vec<_>>()
        };
        let (edge, left, right) = ([0, 4, 8], [1, 2, 3], [5, 6, 7]);
        let mut hidden = vec![set(edge, left), set(edge, right), set(left, edge), set(right, edge), set(edge, edge)];
        hidden.sort();
        let mut implied: Vec<Vec<Cell>> = extra.implied.iter().map(|g| g.iter().copied().sorted().collect()).collect();
        implied.sort();
        assert_eq!(implied, hidden);
        assert_eq!(extra.count, 16);
        let fixed: Vec<Cell> = extra.fixed.iter().map(|&(c, _)| c).collect();
        assert_eq!(fixed, set([3, 4, 5], [3, 4, 5]));
        let pairs: Vec<(Cell, Cell)> = extra.order.iter().map(|r| (r.a, r.b)).collect();
        let (at, on) = (|r, c| Cell::new(r, c), |c, r| Cell::new(r, c));
        let swaps = [(at(1, 3), at(2, 3)), (at(6, 3), at(7, 3)), (on(1, 3), on(2, 3)), (on(6, 3), on(7, 3))];
        assert_eq!(pairs.iter().sorted().collect::<Vec<_>>(), swaps.iter().sorted().collect::<Vec<_>>());
        assert!(extra.order.iter().all(|r| r.predicate == Predicate::Less));
    }

    /// On a plain layout with a harmless extra group (a box repeated as an
    /// extra region) the motions are the plain reduction's, a box fixed:
    /// 72 x 72 on 9x9, 48 x 24 with 2x4 boxes.
    #[test]
    fn a_plain_layout_keeps_the_plain_number_of_motions() {
        for ((h, w), motions) in [((3, 3), 5184), ((2, 4), 48 * 24), ((2, 3), 8 * 6)] {
            let mut p = Puzzle::sudoku(h, w).unwrap();
            p.add_group(itertools::iproduct!(0..h, 0..w).map(|(r, c)| Cell::new(r, c)).collect()).unwrap();
            let extra = reduction(&p).unwrap();
            assert_eq!((extra.count, extra.implied.len()), (motions, 0), "{h}x{w}");
        }
    }

    /// Knight's-move pairs on 9x9: reading the rows upwards keeps them
    /// (and the bands), so the middle row is fixed and the two orders of
    /// the rows are one relation between the first column's ends.
    #[test]
    fn the_anti_knight_pairs_keep_the_rows_read_upwards() {
        let mut p = Puzzle::sudoku(3, 3).unwrap();
        for (a, b) in itertools::iproduct!(0..81usize, 0..81usize) {
            let (dr, dc) = ((a / 9).abs_diff(b / 9), (a % 9).abs_diff(b % 9));
            if a < b && matches!((dr, dc), (1, 2) | (2, 1)) {
                p.add_relation(Cell::new(a / 9, a % 9), Cell::new(b / 9, b % 9), Predicate::NotEqual).unwrap();
            }
        }
        let extra = reduction(&p).unwrap();
        assert_eq!((extra.count, extra.implied.len()), (2, 0));
        assert_eq!(extra.fixed[0], (Cell::new(4, 0), 0), "the middle row");
        let pairs: Vec<(Cell, Cell)> = extra.order.iter().map(|r| (r.a, r.b)).collect();
        assert_eq!(pairs, vec![(Cell::new(0, 0), Cell::new(8, 0))]);
        // A pair that reading upwards does not keep leaves no order.
        p.add_relation(Cell::new(0, 0), Cell::new(0, 1), Predicate::NotEqual).unwrap();
        assert_eq!(reduction(&p).unwrap().count, 1);
    }

    #[test]
    fn line_orders_keep_the_bands() {
        let all = orders(9, 3).unwrap();
        assert_eq!(all.len(), 1296);
        assert!(all.iter().all(|o| (0..9).all(|i| o[i] / 3 == o[i / 3 * 3] / 3)));
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), 1296);
        assert_eq!(orders(16, 4), None);
    }
}
