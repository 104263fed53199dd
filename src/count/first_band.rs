//! A blank Sudoku with extra all-different groups counted by the orbits of
//! its first band: every grid is its first band (the first `h` rows, one
//! band of boxes) with a completion below it, and the completions of a
//! band depend only on what the layout's symmetries make of it.
//!
//! Let `P(B)` be the completions of a filling `B` of the first band. The
//! grids are `sum over B of P(B)`. Relabelling the digits maps grids onto
//! grids (the rules are all-different groups), and so does each motion of
//! the cells that maps every group onto a group; one that also maps the
//! first band onto itself maps the completions of `B` one to one onto
//! those of its image. So with `G` such motions and the relabellings,
//! `P` is the same on each orbit of the first band's fillings, and every
//! orbit meets the fillings whose first box reads `1 .. n` in reading
//! order (the relabelling that puts it there), each filling `n!` times
//! over all relabellings:
//!
//! `grids = n! x sum over the orbits O of the fillings with box 1 fixed of |O| x P(rep O)`
//!
//! where `G` acts on those fillings by moving the cells and then
//! relabelling box 1 back to `1 .. n` (a group action: relabelling
//! commutes with moving cells). This module lists the fillings with box 1
//! fixed, finds `G` (the motions that move lines as wholes, and those
//! that permute a cell's coordinates, [`super::burnside`]'s, that keep
//! every group and the first band), and puts the fillings in orbits; the
//! plan counts one completion count per orbit (`Counter::first_band`).
//! 9x9 SudokuP: 2,612,736 fillings, 864 motions, 3,106 orbits, where
//! relabelling and line orders leave 1.4e11 grids to enumerate.

use std::collections::HashSet;

use crate::model::{Cell, Puzzle};

/// The most fillings of the first band with box 1 fixed that are listed
/// (9x9 has 2,612,736; a visited set of 2^23 takes about 200 MB).
pub const MAX_FILLINGS: usize = 1 << 23;

/// The most pairs of a row order and a column order tried as motions
/// (9x9: 432 row orders keep the first band, 1,296 column orders).
const MAX_TRIED: usize = 1 << 22;

/// A blank layout's first band, its fillings' peers and the motions that
/// keep it (see the module doc).
#[derive(Clone, Debug)]
pub struct FirstBand {
    side: usize,
    /// Rows in the band (the boxes' height) and the boxes' width.
    boxes: (usize, usize),
    /// For each cell of the band (`row * side + col`), the band's other
    /// cells that share a group with it.
    peers: Vec<u32>,
    /// The motions that keep every group and the band, each as a
    /// permutation of the band's cells (`cell -> image`), the identity first.
    motions: Vec<Vec<u8>>,
}

/// The orbits of the first band's fillings with box 1 fixed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orbits {
    /// The fillings listed.
    pub fillings: u64,
    /// Each orbit's first filling met (4 bits a cell, cell `k` at bits
    /// `4k`) and its size.
    pub orbits: Vec<(u128, u64)>,
}

impl FirstBand {
    /// The first band of `puzzle`, if it is a blank Sudoku with boxes
    /// whose extra rules are all-different groups (`blank_sudoku_extras`),
    /// of at most 128 cells, a band of at most 32, and two bands or more;
    /// with `beyond_lines`, the motions that move no lines as wholes are
    /// taken too. `None` past 2^22 line motions to try.
    pub fn recognize(puzzle: &Puzzle, beyond_lines: bool) -> Option<FirstBand> {
        let (h, w) = puzzle.boxes()?;
        let n = puzzle.side();
        puzzle.blank_sudoku_extras().filter(|_| puzzle.relations().is_empty())?;
        if n * n > 128 || h * n > 32 || n / h < 2 || n > 15 {
            return None;
        }
        let mask = |cells: &mut dyn Iterator<Item = &Cell>| cells.fold(0u128, |m, c| m | 1 << (c.row * n + c.col));
        let groups: HashSet<u128> = puzzle.groups().iter().map(|g| mask(&mut g.cells.iter())).collect();
        let extras: Vec<u128> = puzzle
            .groups()
            .iter()
            .filter(|g| g.kind == crate::model::GroupKind::Extra)
            .map(|g| mask(&mut g.cells.iter()))
            .collect();
        let band_cells = h * n;
        let mut peers = vec![0u32; band_cells];
        for &group in &groups {
            let inside = group & ((1u128 << band_cells) - 1);
            for cell in bits(inside) {
                peers[cell] |= (inside & !(1 << cell)) as u32;
            }
        }
        // Line orders keeping the bands (the first in place) and the stacks.
        let rows = block_orders(n, h, true);
        let cols = block_orders(n, w, false);
        if rows.len().saturating_mul(cols.len()) > MAX_TRIED {
            return None;
        }
        let moved = |set: u128, motion: &dyn Fn(usize) -> usize| bits(set).fold(0u128, |m, k| m | 1 << motion(k));
        let mut generators: HashSet<Vec<u8>> = HashSet::new();
        for (rho, sigma) in itertools::iproduct!(&rows, &cols) {
            let motion = |k: usize| usize::from(rho[k / n]) * n + usize::from(sigma[k % n]);
            if extras.iter().all(|&g| groups.contains(&moved(g, &motion))) {
                generators.insert((0..band_cells).map(|k| motion(k) as u8).collect());
            }
        }
        if beyond_lines {
            let band = (1u128 << band_cells) - 1;
            for motion in super::burnside::coordinate_motions(n, (h, w)) {
                let motion = |k: usize| usize::from(motion[k]);
                if moved(band, &motion) == band && groups.iter().all(|&g| groups.contains(&moved(g, &motion))) {
                    generators.insert((0..band_cells).map(|k| motion(k) as u8).collect());
                }
            }
        }
        let motions = closure(generators.into_iter().collect(), band_cells);
        Some(FirstBand { side: n, boxes: (h, w), peers, motions })
    }

    /// The motions that keep every group and the first band, as they act
    /// on the band (motions that differ only below it counted once).
    pub fn motions(&self) -> usize {
        self.motions.len()
    }

    /// The rows of the band.
    pub fn rows(&self) -> usize {
        self.boxes.0
    }

    /// The band's fillings with box 1 fixed, in orbits; `None` if `stop`
    /// (asked every 2^16 fillings) came first or the fillings pass
    /// [`MAX_FILLINGS`].
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
        let mut images = Vec::with_capacity(self.motions.len());
        let mut stopped = false;
        let mut visit = |digits: &[u8]| {
            found.fillings += 1;
            if found.fillings % (1 << 16) == 0 && (stop() || found.fillings > MAX_FILLINGS as u64) {
                stopped = true;
                return false;
            }
            let filling = pack(digits);
            if visited.contains(&filling) {
                return true;
            }
            images.clear();
            let mut image = vec![0u8; digits.len()];
            let mut name = [0u8; 16];
            for motion in &self.motions {
                for (k, &to) in motion.iter().enumerate() {
                    image[usize::from(to)] = digits[k];
                }
                for (i, &cell) in box1.iter().enumerate() {
                    name[usize::from(image[cell])] = i as u8 + 1;
                }
                images.push(pack(&image.iter().map(|&d| name[usize::from(d)]).collect::<Vec<u8>>()));
            }
            images.sort_unstable();
            images.dedup();
            found.orbits.push((filling, images.len() as u64));
            visited.extend(images.iter().copied());
            true
        };
        fill(&self.peers, &open, 0, &mut digits, n, &mut visit);
        (!stopped).then_some(found)
    }

    /// `layout` with the first band given as `filling`.
    pub fn given(&self, layout: &Puzzle, filling: u128) -> Puzzle {
        let mut puzzle = layout.clone();
        let n = self.side;
        for k in 0..self.boxes.0 * n {
            let digit = (filling >> (4 * k) & 15) as u8;
            // A cell of the grid, a digit in 1..=n: this cannot fail.
            let _ = puzzle.set_given(Cell::new(k / n, k % n), digit);
        }
        puzzle
    }
}

/// The cells of `set`, in order.
fn bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let k = set.trailing_zeros() as usize;
            set &= set - 1;
            k
        })
    })
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
/// `line -> image`; with `first_fixed`, only those keeping the first block
/// in place.
fn block_orders(n: usize, size: usize, first_fixed: bool) -> Vec<Vec<u8>> {
    use itertools::Itertools;
    let blocks = n / size;
    let inner: Vec<Vec<usize>> = (0..size).permutations(size).collect();
    let mut orders = Vec::new();
    for order in (0..blocks).permutations(blocks).filter(|o| !first_fixed || o[0] == 0) {
        for lines in (0..blocks).map(|_| inner.iter()).multi_cartesian_product() {
            let image = (0..n).map(|l| (order[l / size] * size + lines[l / size][l % size]) as u8).collect();
            orders.push(image);
        }
    }
    orders
}

/// The group `generators` make, as permutations of `cells` points, the
/// identity first.
fn closure(generators: Vec<Vec<u8>>, cells: usize) -> Vec<Vec<u8>> {
    let identity: Vec<u8> = (0..cells as u8).collect();
    let mut seen: HashSet<Vec<u8>> = HashSet::from([identity.clone()]);
    let mut elements = vec![identity];
    let mut next = 0;
    while next < elements.len() {
        for g in &generators {
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
    fn the_first_band_of_9x9_has_its_fillings_and_each_familys_motions() {
        // 9x9 without extra groups: 56 x 6^6 fillings with box 1 fixed;
        // the row orders of the band (6) and every column order (1,296).
        for (rules, motions) in [("", 6 * 1296), ("disjoint\n", 432), ("diagonal+\ndiagonal-\n", 24)] {
            let band = FirstBand::recognize(&layout(&format!("size 9\n{rules}")), true).unwrap();
            assert_eq!(band.motions(), motions, "{rules:?}");
        }
        let band = FirstBand::recognize(&layout("size 9\ndisjoint\n"), true).unwrap();
        let orbits = band.orbits(&|| false).unwrap();
        assert_eq!(orbits.fillings, 2_612_736);
        assert_eq!(orbits.orbits.iter().map(|o| o.1).sum::<u64>(), 2_612_736);
    }

    #[test]
    fn a_layout_with_givens_or_other_rules_has_no_first_band_here() {
        assert!(FirstBand::recognize(&layout("size 9\nantiknight\n"), true).is_none());
        assert!(FirstBand::recognize(&layout("size 4\ngivens\n1...\n....\n....\n....\n"), true).is_none());
    }
}
