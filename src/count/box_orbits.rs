//! A blank Sudoku whose rules relabelling does not keep (nonconsecutive,
//! Kropki-like relations between neighbours) but some motions of the
//! square and the digits read backwards do, counted by the orbits of one
//! box's fillings.
//!
//! A symmetry is a pair `(g, s)` of a permutation `g` of the cells and a
//! permutation `s` of the digits such that `x -> s o x o g^-1` maps
//! solutions onto solutions: `g` maps every all-different group onto a
//! group, and every pair of cells that relations tie onto a pair whose
//! relations allow `(s(a), s(b))` exactly where the first pair's allow
//! `(a, b)`. The symmetries that also map a box `B` onto itself form a
//! group `G`, and each maps the completions of a filling `f` of `B` one to
//! one onto those of `f`'s image (its digits moved by `g` and renamed by
//! `s`). So with `P(f)` the completions of `f`, `P` is the same on each
//! orbit of `G` on the fillings, and
//!
//! `grids = sum over f of P(f) = sum over the orbits O of |O| x P(rep O)`.
//!
//! The motions tried are the square's eight (turns and mirrors), the
//! digit maps the identity and `d -> n + 1 - d` (which keeps a difference,
//! so nonconsecutive, Kropki white dots and whispers, and turns `<` into
//! `>`); every one of the sixteen pairs is checked on the rules, none
//! assumed, and the box kept by the most is taken (the middle one of 9x9,
//! kept by all eight motions: 16 symmetries for nonconsecutive). A layout
//! is counted this way only when `G` has at least [`MIN_GROUP`] elements:
//! a rule laid over the whole grid is kept by all the square's motions,
//! while a setter's clues without givens rarely are, and for a puzzle
//! with few solutions the orbits' counts cost more than they save.
//! docs/counting-reach.md has the measurements.

use std::collections::HashMap;

use crate::model::{Cell, Digit, Puzzle};

/// The fewest symmetries for which the count by orbits is taken.
pub const MIN_GROUP: usize = 8;

/// The most fillings of the box listed.
const MAX_FILLINGS: u64 = 1 << 22;

/// The largest side: a pair's relations are one table of `n x n` bits.
const MAX_SIDE: usize = 11;

/// A motion of the square: the last index, a row and a column to the
/// image's row and column.
type Motion = fn(usize, usize, usize) -> (usize, usize);

/// A blank layout's box and the symmetries that keep it (see the module
/// doc).
#[derive(Clone, Debug)]
pub struct BoxOrbits {
    side: usize,
    /// The box's cells in reading order.
    cells: Vec<Cell>,
    /// The relations between two cells of the box, as positions in
    /// `cells` and the pair's table (bit `(a - 1) n + (b - 1)` set where
    /// the digits `(a, b)` are allowed).
    inside: Vec<(usize, usize, u128)>,
    /// Each symmetry as the position each position of `cells` goes to and
    /// the digit each digit becomes (index 0 unused), the identity first.
    group: Vec<(Vec<usize>, Vec<u8>)>,
}

/// The orbits of the box's fillings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orbits {
    /// The fillings listed.
    pub fillings: u64,
    /// Each orbit's least filling (4 bits a cell, position `k` at bits
    /// `4k`) and its size.
    pub orbits: Vec<(u64, u64)>,
}

impl BoxOrbits {
    /// The box and symmetries of `puzzle`, if it is a blank Sudoku layout
    /// (rows, columns, boxes and extra groups, relations, no givens or
    /// constraints) of side at most 11 with at least [`MIN_GROUP`]
    /// symmetries keeping one of its boxes.
    pub fn recognize(puzzle: &Puzzle) -> Option<BoxOrbits> {
        let found = BoxOrbits::of(puzzle)?;
        (found.group.len() >= MIN_GROUP).then_some(found)
    }

    /// [`BoxOrbits::recognize`] whatever the group's size (at least the
    /// identity).
    pub fn of(puzzle: &Puzzle) -> Option<BoxOrbits> {
        let n = puzzle.side();
        let (h, w) = puzzle.boxes()?;
        puzzle.blank_sudoku_extras()?;
        if n > MAX_SIDE {
            return None;
        }
        let index = |c: Cell| c.row * n + c.col;
        let groups: std::collections::HashSet<u128> =
            puzzle.groups().iter().map(|g| g.cells.iter().fold(0u128, |m, &c| m | 1 << index(c))).collect();
        let tables = pair_tables(puzzle);
        let last = n - 1;
        let motions: [Motion; 8] = [
            |_, r, c| (r, c),
            |l, r, c| (c, l - r),
            |l, r, c| (l - r, l - c),
            |l, r, c| (l - c, r),
            |_, r, c| (c, r),
            |l, r, c| (l - c, l - r),
            |l, r, c| (r, l - c),
            |l, r, c| (l - r, c),
        ];
        let identity: Vec<u8> = (0..=n as u8).collect();
        let backwards: Vec<u8> = std::iter::once(0).chain((1..=n as u8).rev()).collect();
        let mut symmetries = Vec::new();
        for motion in motions {
            let to: Vec<usize> = (0..n * n).map(|k| motion(last, k / n, k % n)).map(|(r, c)| r * n + c).collect();
            let moved = |set: u128| super::bits(set).fold(0u128, |m, k| m | 1 << to[k]);
            if !groups.iter().all(|&g| groups.contains(&moved(g))) {
                continue;
            }
            for digits in [&identity, &backwards] {
                if keeps(&tables, &to, digits, n) {
                    symmetries.push((to.clone(), digits.clone()));
                }
            }
        }
        // The box the most symmetries keep, the first of those.
        let boxes = (0..n / h).flat_map(|band| (0..n / w).map(move |stack| (band, stack)));
        let box_cells = |(band, stack): (usize, usize)| -> Vec<usize> {
            (0..h).flat_map(|r| (0..w).map(move |c| (band * h + r) * n + stack * w + c)).collect()
        };
        let mask = |cells: &mut dyn Iterator<Item = usize>| cells.fold(0u128, |m, k| m | 1 << k);
        let kept =
            |to: &[usize], cells: &[usize]| mask(&mut cells.iter().map(|&k| to[k])) == mask(&mut cells.iter().copied());
        let keeping = |cells: &[usize]| symmetries.iter().filter(|(to, _)| kept(to, cells)).count();
        let best = boxes.map(box_cells).rev().max_by_key(|cells| keeping(cells))?;
        let position = |k: usize| best.iter().position(|&b| b == k);
        let group: Vec<(Vec<usize>, Vec<u8>)> = symmetries
            .iter()
            .filter(|(to, _)| kept(to, &best))
            .map(|(to, digits)| (best.iter().filter_map(|&k| position(to[k])).collect(), digits.clone()))
            .collect();
        let inside =
            (tables.iter()).filter_map(|(&(a, b), &table)| Some((position(a)?, position(b)?, table))).collect();
        let cells = best.iter().map(|&k| Cell::new(k / n, k % n)).collect();
        Some(BoxOrbits { side: n, cells, inside, group })
    }

    /// The symmetries that keep the box.
    pub fn symmetries(&self) -> usize {
        self.group.len()
    }

    /// The box's cells, the first and the last (from 1, as `rXcY`).
    pub fn corners(&self) -> (Cell, Cell) {
        (self.cells[0], self.cells[self.cells.len() - 1])
    }

    /// The box's fillings in orbits; `None` if `stop` (asked every 2^16
    /// fillings) came first or the fillings pass 2^22.
    pub fn orbits(&self, stop: &dyn Fn() -> bool) -> Option<Orbits> {
        let mut found = Orbits { fillings: 0, orbits: Vec::new() };
        let mut digits = vec![0u8; self.cells.len()];
        let mut images = Vec::with_capacity(self.group.len());
        let mut image = vec![0u8; self.cells.len()];
        let mut visit = |digits: &[u8]| {
            found.fillings += 1;
            if found.fillings % (1 << 16) == 0 && (stop() || found.fillings > MAX_FILLINGS) {
                return false;
            }
            let filling = pack(digits);
            images.clear();
            for (to, rename) in &self.group {
                for (k, &d) in digits.iter().enumerate() {
                    image[to[k]] = rename[usize::from(d)];
                }
                images.push(pack(&image));
            }
            // Each orbit is kept once, at its least filling.
            if images.iter().all(|&other| other >= filling) {
                images.sort_unstable();
                images.dedup();
                found.orbits.push((filling, images.len() as u64));
            }
            true
        };
        self.fill(0, &mut digits, &mut visit).then_some(found)
    }

    /// Every filling of the box's positions from `at` on, each given to
    /// `visit` (which says whether to go on); whether to go on.
    fn fill(&self, at: usize, digits: &mut [u8], visit: &mut dyn FnMut(&[u8]) -> bool) -> bool {
        if at == digits.len() {
            return visit(digits);
        }
        let n = self.side;
        for d in 1..=n as u8 {
            if digits[..at].contains(&d) {
                continue;
            }
            let allowed = |&(a, b, table): &(usize, usize, u128)| {
                let (x, y) = match (a == at, b == at) {
                    (true, _) if b < at => (d, digits[b]),
                    (_, true) if a < at => (digits[a], d),
                    _ => return true,
                };
                table >> (usize::from(x - 1) * n + usize::from(y - 1)) & 1 == 1
            };
            if self.inside.iter().all(allowed) {
                digits[at] = d;
                if !self.fill(at + 1, digits, visit) {
                    return false;
                }
            }
        }
        digits[at] = 0;
        true
    }

    /// `layout` with the box given as `filling`.
    pub fn given(&self, layout: &Puzzle, filling: u64) -> Puzzle {
        let mut puzzle = layout.clone();
        for (k, &cell) in self.cells.iter().enumerate() {
            let digit = (filling >> (4 * k) & 15) as Digit;
            // A cell of the grid, a digit in 1..=n: this cannot fail.
            let _ = puzzle.set_given(cell, digit);
        }
        puzzle
    }
}

/// Each pair of cells (reading-order indices, the smaller first) that
/// relations tie, with the table of the digit pairs all of them allow.
fn pair_tables(puzzle: &Puzzle) -> HashMap<(usize, usize), u128> {
    let n = puzzle.side();
    let mut tables: HashMap<(usize, usize), u128> = HashMap::new();
    for relation in puzzle.relations() {
        let (a, b) = (relation.a.row * n + relation.a.col, relation.b.row * n + relation.b.col);
        let mut table = 0u128;
        for x in 1..=n as Digit {
            for y in 1..=n as Digit {
                // The table read from the smaller cell's side.
                let (p, q) = if a <= b { (x, y) } else { (y, x) };
                if relation.predicate.allows(p, q) && (a != b || x == y) {
                    table |= 1 << (usize::from(x - 1) * n + usize::from(y - 1));
                }
            }
        }
        *tables.entry((a.min(b), a.max(b))).or_insert(u128::MAX) &= table;
    }
    tables
}

/// Whether moving the cells by `to` and renaming the digits by `digits`
/// maps every pair's table onto the table of the pair it lands on.
fn keeps(tables: &HashMap<(usize, usize), u128>, to: &[usize], digits: &[u8], n: usize) -> bool {
    tables.iter().all(|(&(a, b), &table)| {
        let (p, q) = (to[a], to[b]);
        let mut image = 0u128;
        for x in 1..=n {
            for y in 1..=n {
                if table >> ((x - 1) * n + (y - 1)) & 1 == 1 {
                    let (u, v) = (usize::from(digits[x]), usize::from(digits[y]));
                    let (u, v) = if p <= q { (u, v) } else { (v, u) };
                    image |= 1 << ((u - 1) * n + (v - 1));
                }
            }
        }
        tables.get(&(p.min(q), p.max(q))) == Some(&image)
    })
}

/// Position `k`'s digit at bits `4k`.
fn pack(digits: &[u8]) -> u64 {
    digits.iter().rev().fold(0u64, |p, &d| p << 4 | u64::from(d))
}

#[cfg(test)]
mod tests {
    use itertools::Itertools;

    use super::*;
    use crate::model::Predicate;

    fn layout(text: &str) -> Puzzle {
        crate::parse::parse(text, "layout", None).unwrap()
    }

    /// An earlier cell a cell's digit is checked against: different from
    /// its digit, or a relation's predicate, with whether the earlier cell
    /// is its first.
    type Rule = (usize, Option<(Predicate, bool)>);

    /// The solutions of `puzzle`, by a plain backtracking search in
    /// reading order over its groups and relations, written here apart
    /// from the engines: each cell's rules name an earlier cell and, for a
    /// relation, its predicate and whether the earlier cell is its first.
    fn solutions(puzzle: &Puzzle) -> u64 {
        let n = puzzle.side();
        let index = |c: Cell| c.row * n + c.col;
        let mut rules: Vec<Vec<Rule>> = vec![Vec::new(); n * n];
        for group in puzzle.groups() {
            for (a, b) in group.cells.iter().map(|&c| index(c)).tuple_combinations() {
                rules[a.max(b)].push((a.min(b), None));
            }
        }
        for r in puzzle.relations() {
            let (a, b) = (index(r.a), index(r.b));
            rules[a.max(b)].push((a.min(b), Some((r.predicate, a < b))));
        }
        fn go(at: usize, grid: &mut Vec<u8>, n: usize, rules: &[Vec<Rule>]) -> u64 {
            if at == grid.len() {
                return 1;
            }
            let digits: Vec<u8> = match grid[at] {
                0 => (1..=n as u8).collect(),
                given => vec![given],
            };
            let mut found = 0;
            for d in digits {
                let ok = |&(other, rule): &Rule| match rule {
                    None => d != grid[other],
                    Some((p, true)) => p.allows(grid[other], d),
                    Some((p, false)) => p.allows(d, grid[other]),
                };
                if rules[at].iter().all(ok) {
                    let kept = grid[at];
                    grid[at] = d;
                    found += go(at + 1, grid, n, rules);
                    grid[at] = kept;
                }
            }
            found
        }
        let mut grid: Vec<u8> = puzzle.cells().map(|c| puzzle.given(c).unwrap_or(0)).collect();
        go(0, &mut grid, n, &rules)
    }

    /// The orbits' sum, each orbit's completions by the search above,
    /// against the search on the whole layout; and every filling of an
    /// orbit has as many completions as its representative, checked on
    /// each orbit's images.
    fn orbits_add_up(text: &str, symmetries: usize) {
        let puzzle = layout(text);
        let found = BoxOrbits::of(&puzzle).unwrap();
        assert_eq!(found.symmetries(), symmetries, "{text}");
        let orbits = found.orbits(&|| false).unwrap();
        assert_eq!(orbits.orbits.iter().map(|o| o.1).sum::<u64>(), orbits.fillings, "{text}");
        let mut total = 0;
        for &(filling, size) in &orbits.orbits {
            let completions = solutions(&found.given(&puzzle, filling));
            for (to, rename) in &found.group {
                let mut image = 0u64;
                for (k, &at) in to.iter().enumerate() {
                    let d = usize::from((filling >> (4 * k) & 15) as u8);
                    image |= u64::from(rename[d]) << (4 * at);
                }
                assert_eq!(solutions(&found.given(&puzzle, image)), completions, "{text}: {filling:x} -> {image:x}");
            }
            total += size * completions;
        }
        assert_eq!(total, solutions(&puzzle), "{text}");
    }

    #[test]
    fn orbits_of_small_layouts_add_up_to_their_solutions() {
        // 4x4: the box r1c1 is kept by the transposition; the digits read
        // backwards keep differences.
        orbits_add_up("size 4\nnonconsecutive\n", 4);
        // 6x6 with 2x3 boxes: the box r3c1 is kept by the mirror top to
        // bottom.
        orbits_add_up("size 6\nbox 2x3\nnonconsecutive\n", 4);
        // A thermometer rising to the right in row 1 and one rising to
        // the left in row 6: the mirror top to bottom maps each onto the
        // other reversed, which the digits read backwards put right;
        // neither alone is a symmetry, and no other motion keeps them.
        orbits_add_up("size 6\nbox 2x3\nnonconsecutive\nthermo r1c1 r1c2\nthermo r6c2 r6c1\n", 2);
    }

    #[test]
    fn nonconsecutive_9x9_keeps_its_middle_box_under_sixteen_symmetries() {
        let found = BoxOrbits::recognize(&layout("size 9\nnonconsecutive\n")).unwrap();
        assert_eq!((found.symmetries(), found.corners()), (16, (Cell::new(3, 3), Cell::new(5, 5))));
        // The 3x3 arrangements of 1..9 without orthogonal neighbours
        // consecutive, counted apart in this test.
        let adjacent = [(0, 1), (1, 2), (3, 4), (4, 5), (6, 7), (7, 8), (0, 3), (3, 6), (1, 4), (4, 7), (2, 5), (5, 8)];
        let apart = (1..=9u8).permutations(9).filter(|p| adjacent.iter().all(|&(a, b)| p[a].abs_diff(p[b]) != 1));
        let orbits = found.orbits(&|| false).unwrap();
        assert_eq!(orbits.fillings, apart.count() as u64);
        assert_eq!(orbits.orbits.iter().map(|o| o.1).sum::<u64>(), orbits.fillings);
    }

    #[test]
    fn layouts_with_givens_or_few_symmetries_are_not_taken() {
        // One thermometer is kept by no motion but the identity.
        assert_eq!(BoxOrbits::of(&layout("size 9\nthermo r1c1 r1c2\n")).unwrap().symmetries(), 1);
        let given = format!("size 9\nnonconsecutive\ngivens\n1........\n{}", ".........\n".repeat(8));
        assert!(BoxOrbits::recognize(&layout(&given)).is_none());
        // 6x6: 4 symmetries keep a box, fewer than MIN_GROUP.
        assert!(BoxOrbits::recognize(&layout("size 6\nbox 2x3\nnonconsecutive\n")).is_none());
    }
}
