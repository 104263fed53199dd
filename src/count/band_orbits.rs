//! A blank Sudoku with extra all-different groups (and pairs of cells
//! whose digits differ: anti-king, anti-knight) counted by the orbits of
//! one band: every grid is that band's filling (`h` rows, one band of
//! boxes) with a completion around it, and the completions of a filling
//! depend only on what the layout's symmetries make of it.
//!
//! Let `P(B)` be the completions of a filling `B` of the band. The grids
//! are `sum over B of P(B)`. Relabelling the digits maps grids onto grids
//! (the rules are all-different groups and pairs of different cells), and
//! so does each motion of the cells that maps every group onto a group and
//! every pair onto a pair; one that also maps the band
//! onto itself maps the completions of `B` one to one onto those of its
//! image. So with `G` such motions and the relabellings, `P` is the same
//! on each orbit of the band's fillings, and every filling is the
//! relabelling of exactly one whose first box reads `1 .. n` in reading
//! order:
//!
//! `grids = n! x sum over the orbits O of the fillings with the first box fixed of |O| x P(rep O)`
//!
//! where `G` acts on those fillings by moving the cells and then
//! relabelling the first box back to `1 .. n` (a group action: relabelling
//! commutes with moving cells). This module picks the band the most
//! motions keep (the middle one for Sudoku X: 48 motions, the first 24),
//! finds `G` (the motions that move lines as wholes, and those that
//! permute a cell's coordinates, [`super::burnside`]'s, that keep every
//! group and the band), lists the band's fillings with its first box fixed,
//! and puts them in orbits; the plan counts one completion count per orbit
//! (`Counter::band_orbits`), by joining the outer bands' fillings where
//! that pays ([`super::band_join`]: 9x9 anti-king and anti-knight). 9x9
//! SudokuP: 2,612,736 fillings, 432 motions, 6,585 orbits, where
//! relabelling and line orders leave 1.4e11 grids to enumerate; anti-king:
//! 543,744 fillings of the middle band, 4 motions (the two mirrors and the
//! half turn), 136,128 orbits. docs/counting-reach.md has the measurements.

use std::collections::HashSet;

use super::bits;
use crate::model::{Cell, Puzzle};

/// The most fillings of a band with its first box fixed that are listed
/// (9x9 has 2,612,736; a visited set of 2^23 takes about 200 MB).
const MAX_FILLINGS: usize = 1 << 23;

/// The most pairs of a row order and a column order tried as motions
/// (9x9: 432 row orders keep a band, 1,296 column orders).
const MAX_TRIED: usize = 1 << 22;

/// A blank layout's band, its fillings' peers and the motions that keep
/// it (see the module doc).
#[derive(Clone, Debug)]
pub struct Band {
    side: usize,
    /// Rows in the band (the boxes' height) and the boxes' width.
    boxes: (usize, usize),
    /// Which band: rows `index h` to `index h + h - 1`.
    index: usize,
    /// For each cell of the band (`row * side + col`, rows counted from
    /// the band's first), the band's other cells that share a group with it.
    peers: Vec<u32>,
    /// The motions that keep every group and the band, each as a
    /// permutation of the band's cells (`cell -> image`), the identity first.
    motions: Vec<Vec<u8>>,
}

/// The orbits of a band's fillings with its first box fixed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orbits {
    /// The fillings listed.
    pub fillings: u64,
    /// Each orbit's first filling met (4 bits a cell, cell `k` at bits
    /// `4k`) and its size.
    pub orbits: Vec<(u128, u64)>,
}

impl Band {
    /// The band of `puzzle` that the most motions keep (of those, the
    /// middle one of three if it is one, as the outer bands' join needs,
    /// [`super::band_join`]; else the first), if `puzzle` is a blank
    /// Sudoku with boxes whose extra rules
    /// are all-different groups (`blank_sudoku_extras`) and pairs of
    /// different cells (kept as groups of two), of at most 128
    /// cells, bands of at most 32, and two bands or more; with
    /// `beyond_lines`, the motions that move no lines as wholes are taken
    /// too. `None` past 2^22 line motions to try a band.
    pub fn recognize(puzzle: &Puzzle, beyond_lines: bool) -> Option<Band> {
        let (h, w) = puzzle.boxes()?;
        let n = puzzle.side();
        puzzle.blank_sudoku_extras()?;
        if n * n > 128 || h * n > 32 || n / h < 2 || !different_pairs(puzzle) {
            return None;
        }
        let mask = |cells: &mut dyn Iterator<Item = &Cell>| cells.fold(0u128, |m, c| m | 1 << (c.row * n + c.col));
        // A pair of cells whose digits differ is kept as a group of two.
        let pairs = puzzle.relations().iter().map(|r| mask(&mut [r.a, r.b].iter()));
        let extras: Vec<u128> = (puzzle.groups().iter())
            .filter(|g| g.kind == crate::model::GroupKind::Extra)
            .map(|g| mask(&mut g.cells.iter()))
            .chain(pairs)
            .collect();
        let groups: HashSet<u128> =
            puzzle.groups().iter().map(|g| mask(&mut g.cells.iter())).chain(extras.iter().copied()).collect();
        let mut best: Option<Band> = None;
        // The middle band of three first, so that it wins a tie.
        let mut order: Vec<usize> = (0..n / h).collect();
        if order.len() == 3 {
            order.swap(0, 1);
        }
        for index in order {
            let motions = band_motions(n, (h, w), index, &groups, &extras, beyond_lines)?;
            if best.as_ref().is_none_or(|b| motions.len() > b.motions.len()) {
                let (cells, base) = (h * n, index * h * n);
                let mut peers = vec![0u32; cells];
                for &group in &groups {
                    let inside = group >> base & ((1u128 << cells) - 1);
                    for cell in bits(inside) {
                        peers[cell] |= (inside & !(1 << cell)) as u32;
                    }
                }
                best = Some(Band { side: n, boxes: (h, w), index, peers, motions });
            }
        }
        best
    }

    /// The motions that keep every group and the band, as they act on the
    /// band (motions that differ only outside it counted once).
    pub fn motions(&self) -> usize {
        self.motions.len()
    }

    /// Which band: rows `index h` to `index h + h - 1` (from 0).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The band's rows, the first and the last (from 1).
    pub fn rows(&self) -> (usize, usize) {
        let h = self.boxes.0;
        (self.index * h + 1, self.index * h + h)
    }

    /// The band's fillings with its first box fixed, in orbits; `None` if `stop`
    /// (asked every 2^16 fillings met or images made) came first or the
    /// fillings pass 2^23.
    pub fn orbits(&self, stop: &dyn Fn() -> bool) -> Option<Orbits> {
        let (n, (h, w)) = (self.side, self.boxes);
        let box1: Vec<usize> = (0..h).flat_map(|r| (0..w).map(move |c| r * n + c)).collect();
        let mut digits = vec![0u8; h * n];
        for (i, &cell) in box1.iter().enumerate() {
            digits[cell] = i as u8 + 1;
        }
        let open: Vec<usize> = (0..h * n).filter(|&k| k % n >= w).collect();
        let mut visited: HashSet<u128> = HashSet::new();
        let mut found = Orbits { fillings: 0, orbits: Vec::new() };
        let (mut images, mut image) = (Vec::with_capacity(self.motions.len()), vec![0u8; h * n]);
        // Work done (a filling met, an image made) and when to poll `stop`
        // next: most orbits are met among the first fillings, each with
        // its images, so fillings alone poll too seldom there.
        let (mut work, mut poll, mut stopped) = (0u64, 1u64 << 16, false);
        let mut visit = |digits: &[u8]| {
            found.fillings += 1;
            work += 1;
            if work >= poll {
                poll = work + (1 << 16);
                if stop() || found.fillings > MAX_FILLINGS as u64 {
                    stopped = true;
                    return false;
                }
            }
            let filling = pack(digits);
            if visited.contains(&filling) {
                return true;
            }
            images.clear();
            let mut name = [0u8; 16];
            for motion in &self.motions {
                for (k, &to) in motion.iter().enumerate() {
                    image[usize::from(to)] = digits[k];
                }
                for (i, &cell) in box1.iter().enumerate() {
                    name[usize::from(image[cell])] = i as u8 + 1;
                }
                images.push(image.iter().rev().fold(0u128, |p, &d| p << 4 | u128::from(name[usize::from(d)])));
            }
            images.sort_unstable();
            images.dedup();
            work += self.motions.len() as u64;
            found.orbits.push((filling, images.len() as u64));
            visited.extend(images.iter().copied());
            true
        };
        fill(&self.peers, &open, 0, &mut digits, n, &mut visit);
        (!stopped).then_some(found)
    }

    /// `layout` with the band given as `filling`.
    pub fn given(&self, layout: &Puzzle, filling: u128) -> Puzzle {
        let mut puzzle = layout.clone();
        let (n, h) = (self.side, self.boxes.0);
        for k in 0..h * n {
            let digit = (filling >> (4 * k) & 15) as u8;
            // A cell of the grid, a digit in 1..=n: this cannot fail.
            let _ = puzzle.set_given(Cell::new(self.index * h + k / n, k % n), digit);
        }
        puzzle
    }
}

/// The motions that keep every group (`groups`, of which `extras` are
/// the ones past rows, columns and boxes) and band `index` (rows `index
/// h` to `index h + h - 1`), as permutations of the band's cells, the
/// identity first: the line orders that keep the bands (that one in
/// place) and the stacks and map every extra group onto a group, with
/// `beyond_lines` the reorderings of a cell's coordinates that keep every
/// group and the band, and what these make together. `None` past
/// [`MAX_TRIED`] line orders to try.
fn band_motions(
    n: usize,
    (h, w): (usize, usize),
    index: usize,
    groups: &HashSet<u128>,
    extras: &[u128],
    beyond_lines: bool,
) -> Option<Vec<Vec<u8>>> {
    let (cells, base) = (h * n, index * h * n);
    let rows = block_orders(n, h, Some(index));
    let cols = block_orders(n, w, None);
    if rows.len().saturating_mul(cols.len()) > MAX_TRIED {
        return None;
    }
    let moved = |set: u128, motion: &dyn Fn(usize) -> usize| bits(set).fold(0u128, |m, k| m | 1 << motion(k));
    // A motion of the grid's cells as one of the band's (it keeps the band).
    let on_band = |motion: &dyn Fn(usize) -> usize| (0..cells).map(|k| (motion(base + k) - base) as u8).collect();
    let mut lines: HashSet<Vec<u8>> = HashSet::new();
    for (rho, sigma) in itertools::iproduct!(&rows, &cols) {
        let motion = |k: usize| usize::from(rho[k / n]) * n + usize::from(sigma[k % n]);
        if extras.iter().all(|&g| groups.contains(&moved(g, &motion))) {
            lines.insert(on_band(&motion));
        }
    }
    let mut beyond = Vec::new();
    if beyond_lines {
        let band = ((1u128 << cells) - 1) << base;
        for motion in super::burnside::coordinate_motions(n, (h, w)) {
            let motion = |k: usize| usize::from(motion[k]);
            if moved(band, &motion) == band && groups.iter().all(|&g| groups.contains(&moved(g, &motion))) {
                beyond.push(on_band(&motion));
            }
        }
    }
    Some(closure(lines, &beyond, cells))
}

/// Whether every relation of `puzzle` says that two cells' digits differ
/// (anti-king, anti-knight): a rule relabelling keeps, as it keeps groups.
pub(crate) fn different_pairs(puzzle: &Puzzle) -> bool {
    puzzle.relations().iter().all(|r| r.predicate == crate::model::Predicate::NotEqual && r.a != r.b)
}

/// Cell `k`'s digit at bits `4k`.
fn pack(digits: &[u8]) -> u128 {
    digits.iter().rev().fold(0u128, |p, &d| p << 4 | u128::from(d))
}

/// Every filling of the band's `open` cells from the `at`-th on, each
/// given to `visit` (which says whether to go on); whether to go on.
fn fill(
    peers: &[u32],
    open: &[usize],
    at: usize,
    digits: &mut [u8],
    n: usize,
    visit: &mut dyn FnMut(&[u8]) -> bool,
) -> bool {
    let Some(&cell) = open.get(at) else { return visit(digits) };
    let used = bits(u128::from(peers[cell])).fold(0u32, |m, k| m | 1 << digits[k]);
    for d in 1..=n as u8 {
        if used >> d & 1 == 0 {
            digits[cell] = d;
            if !fill(peers, open, at + 1, digits, n, visit) {
                return false;
            }
        }
    }
    digits[cell] = 0;
    true
}

/// The orders of `n` lines in blocks of `size` that keep the blocks, as
/// `line -> image`; with `fixed`, only those keeping that block in place.
fn block_orders(n: usize, size: usize, fixed: Option<usize>) -> Vec<Vec<u8>> {
    use itertools::Itertools;
    let blocks = n / size;
    let inner: Vec<Vec<usize>> = (0..size).permutations(size).collect();
    let mut orders = Vec::new();
    for order in (0..blocks).permutations(blocks).filter(|o| fixed.is_none_or(|b| o[b] == b)) {
        for lines in (0..blocks).map(|_| inner.iter()).multi_cartesian_product() {
            let image = (0..n).map(|l| (order[l / size] * size + lines[l / size][l % size]) as u8).collect();
            orders.push(image);
        }
    }
    orders
}

/// The group that the group `lines` and the permutations `beyond` make,
/// as permutations of `cells` points, the identity first. `lines` is
/// closed already, so only the products that leave it are multiplied
/// further: by `beyond` from each of `lines`, and by every generator from
/// each new element.
fn closure(lines: HashSet<Vec<u8>>, beyond: &[Vec<u8>], cells: usize) -> Vec<Vec<u8>> {
    let identity: Vec<u8> = (0..cells as u8).collect();
    let mut elements: Vec<Vec<u8>> = vec![identity.clone()];
    elements.extend(lines.iter().filter(|&m| *m != identity).cloned());
    let generators: Vec<Vec<u8>> = elements.iter().chain(beyond).cloned().collect();
    let mut seen = lines;
    seen.insert(identity);
    let (mut next, closed) = (0, elements.len());
    while next < elements.len() {
        let by = if next < closed { beyond } else { &generators[..] };
        for g in by {
            let product: Vec<u8> = elements[next].iter().map(|&k| g[usize::from(k)]).collect();
            if seen.insert(product.clone()) {
                elements.push(product);
            }
        }
        next += 1;
    }
    elements
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(text: &str) -> Puzzle {
        crate::parse::parse(text, "layout", None).unwrap()
    }

    #[test]
    fn a_9x9_band_has_its_fillings_and_each_familys_motions() {
        // Without extra groups: the band's row orders (6) and every column
        // order (1,296); Sudoku X's middle band keeps 48 (the first 24).
        // Every band ties but for Sudoku X: the middle one is taken.
        for (rules, motions, rows) in
            [("", 6 * 1296, (4, 6)), ("disjoint\n", 432, (4, 6)), ("diagonal+\ndiagonal-\n", 48, (4, 6))]
        {
            let band = Band::recognize(&layout(&format!("size 9\n{rules}")), true).unwrap();
            assert_eq!((band.motions(), band.rows()), (motions, rows), "{rules:?}");
        }
        // 56 x 6^6 fillings with box 1 fixed (Felgenhauer & Jarvis).
        let band = Band::recognize(&layout("size 9\ndisjoint\n"), true).unwrap();
        let orbits = band.orbits(&|| false).unwrap();
        assert_eq!(orbits.fillings, 2_612_736);
        assert_eq!(orbits.orbits.iter().map(|o| o.1).sum::<u64>(), 2_612_736);
    }

    #[test]
    fn a_layout_with_givens_or_other_rules_has_no_band_here() {
        // Pairs of different cells are kept: anti-king's middle band, kept
        // by the two mirrors; consecutive digits are not relabelled.
        let band = Band::recognize(&layout("size 9\nantiking\n"), true).unwrap();
        assert_eq!((band.motions(), band.rows()), (4, (4, 6)));
        assert!(Band::recognize(&layout("size 9\nnonconsecutive\n"), true).is_none());
        assert!(Band::recognize(&layout("size 4\ngivens\n1...\n....\n....\n....\n"), true).is_none());
    }
}
