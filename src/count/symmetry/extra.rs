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
//! onto a group, and every pair that must differ onto such a pair. `K` is
//! a group (an intersection of two), each `k` maps grids onto grids and
//! keeps `F` as it is, and `K` acts freely on them:
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

use itertools::Itertools;
use rustc_hash::FxHashSet;

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
    // Past the bounds before any other work; within them (10x10 at most)
    // a set of cells fits in 128 bits.
    let rows = orders(n, h)?;
    let columns = orders(n, w)?;
    if n * n > 128 {
        return None;
    }
    let bit = |c: Cell| 1u128 << (c.row * n + c.col);
    let mut groups: Vec<u128> = puzzle.groups().iter().map(|g| g.cells.iter().fold(0, |m, &c| m | bit(c))).collect();
    let implied = implied_groups(n, &mut groups);
    let known: FxHashSet<u128> = groups.iter().copied().collect();
    let different: FxHashSet<u128> = pairs.iter().map(|r| bit(r.a) | bit(r.b)).collect();
    let keeps = |rho: &[usize], sigma: &[usize]| {
        let image = |set: u128| cells(set).fold(0u128, |m, p| m | 1 << (rho[p / n] * n + sigma[p % n]));
        groups.iter().all(|&g| known.contains(&image(g))) && different.iter().all(|&d| different.contains(&image(d)))
    };
    let mut best: Option<(u128, Vec<Motion>)> = None;
    for &f in groups.iter().filter(|g| g.count_ones() as usize == n) {
        let (rhos, sigmas) = (fixing(&rows, cells(f).map(|p| p / n)), fixing(&columns, cells(f).map(|p| p % n)));
        if rhos.len().saturating_mul(sigmas.len()) > MAX_PAIRS {
            continue;
        }
        let k: Vec<Motion> = itertools::iproduct!(rhos, sigmas).filter(|(rho, sigma)| keeps(rho, sigma)).collect();
        if best.as_ref().is_none_or(|(_, b)| k.len() > b.len()) {
            best = Some((f, k));
        }
    }
    let (f, k) = best?;
    let (r0, c0) = (f.trailing_zeros() as usize / n, cells(f).map(|p| p % n).min()?);
    let first_moved = |o: &[usize]| (0..n).find(|&i| o[i] != i);
    let mut order = Vec::new();
    let mut seen = FxHashSet::default();
    let less = |a: Cell, b: Cell| Relation { a, b, predicate: Predicate::Less };
    for (rho, sigma) in &k {
        // A column relation only for the `(id, σ)`: `rho` moves nothing there.
        let (a, b) = if let Some(i) = first_moved(rho) {
            (Cell::new(i, c0), Cell::new(rho[i], c0))
        } else if let Some(j) = first_moved(sigma) {
            (Cell::new(r0, j), Cell::new(r0, sigma[j]))
        } else {
            continue;
        };
        if seen.insert((a, b)) {
            order.push(less(a, b));
        }
    }
    let at = |p: usize| Cell::new(p / n, p % n);
    let fixed = cells(f).enumerate().map(|(i, p)| (at(p), i)).collect();
    Some(Extra {
        implied: implied.into_iter().map(|g| cells(g).map(at).collect()).collect(),
        fixed,
        order,
        count: k.len() as u128,
    })
}

/// The orders among `lines` that leave each of the lines `kept` in place.
fn fixing(lines: &[Vec<usize>], kept: impl Iterator<Item = usize>) -> Vec<&[usize]> {
    let kept: Vec<usize> = kept.collect();
    lines.iter().filter(|o| kept.iter().all(|&l| o[l] == l)).map(Vec::as_slice).collect()
}

/// The cells of a set, a bit each (bit `r n + c` for row `r`, column `c`),
/// in reading order.
fn cells(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let at = set.trailing_zeros() as usize;
            set &= set - 1;
            at
        })
    })
}

/// Adds to `groups` (sets of cells) the full groups that two or three
/// parallel lines imply (see the module doc), until none is new; returns
/// them.
pub(crate) fn implied_groups(n: usize, groups: &mut Vec<u128>) -> Vec<u128> {
    let mut known: FxHashSet<u128> = groups.iter().copied().collect();
    let mut implied = Vec::new();
    let line = |row: bool, l: usize| (0..n).fold(0u128, |m, i| m | 1 << if row { l * n + i } else { i * n + l });
    loop {
        let mut found = Vec::new();
        let full: Vec<u128> = groups.iter().copied().filter(|g| g.count_ones() as usize == n).collect();
        for (row, k) in itertools::iproduct!([true, false], 2..=3.min(n)) {
            for lines in (0..n).combinations(k) {
                let inside = lines.iter().fold(0u128, |m, &l| m | line(row, l));
                let within = full.iter().copied().filter(|&g| g & !inside == 0);
                for parts in within.combinations(k - 1) {
                    // `n` cells left exactly when the parts are disjoint.
                    let rest = inside & !parts.iter().fold(0, |m, &g| m | g);
                    if rest.count_ones() as usize == n && known.insert(rest) {
                        found.push(rest);
                    }
                }
            }
        }
        if found.is_empty() {
            return implied;
        }
        groups.extend(&found);
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
    use std::collections::HashSet;

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
