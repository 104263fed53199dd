//! The completions of a middle band joined from the two outer bands' own
//! fillings, where the layout has three bands (the middle one given) and
//! the outer bands meet only through groups of `n` cells that cross all
//! three, as columns do.
//!
//! Let `M` be the middle band's filling, `T` a filling of the band above
//! and `B` one of the band below. Every rule of the layout is an
//! all-different group or a pair of cells whose digits differ; the rules
//! that read only `T`'s cells and `M`'s, or only `B`'s and `M`'s, are
//! checked as each outer band is filled. What is left ties `T` to `B`:
//! the groups with cells in both (the *crossing* groups, each of `n`
//! cells). Such a group holds every digit once, so it holds with `M`
//! given exactly when `T`'s part and `B`'s part are disjoint and together
//! hold the digits that `M`'s part does not: when `B`'s part is the
//! complement of `T`'s within those digits. So with `key(T)` the list of
//! `T`'s parts and `need(T)` their complements,
//!
//! `completions(M) = sum over T of #{B : key(B) = need(T)}`,
//!
//! a join of the two bands' tallies by key. It pays where the completions
//! are many and the bands' fillings few: 9x9 anti-king, about 2.8 million
//! completions of a middle band from 1.2 million fillings of the outer
//! bands, where an enumeration meets every completion.
//!
//! An outer band is filled box by box: each box's fillings are listed
//! once (its cells' digits allowed by `M`, all different), bucketed by
//! the digits of each of its rows, and the boxes joined left to right
//! through buckets whose rows hold no digit twice; the last box's bucket
//! is the rows' complement, and pairs of cells in different boxes that
//! must differ (a relation, an extra group) are checked as boxes join.

use rustc_hash::FxHashMap as HashMap;

use super::bits;
use crate::model::{Cell, GroupKind, Puzzle};

/// The most bits a band's key may take (one per digit a crossing group's
/// part in an outer band may hold): SudokuP's 18 groups of six take 108.
/// The table keeps keys of at most 64 bits in 64 (anti-king's 54), since
/// slots of twice the size cost 12 % more time there.
const KEY_BITS: usize = 128;

/// A layout's middle band and what its outer bands need of it (see the
/// module doc).
#[derive(Clone, Debug)]
pub struct Join {
    side: usize,
    /// The boxes' height and width.
    boxes: (usize, usize),
    /// The band above and the band below.
    outer: [Outer; 2],
    /// For each crossing group, its cells in the middle band (`row * side
    /// + col`, rows counted from the band's first) and its key's first bit.
    crossing: Vec<(Vec<usize>, usize)>,
    /// Every crossing group's digits that the outer bands share, as key
    /// bits: the key below that a key above needs is this one's complement.
    need: u128,
}

/// An outer band: what each of its cells must differ from.
#[derive(Clone, Debug)]
struct Outer {
    /// For each cell of the band (`row * side + col`, rows from the band's
    /// first), the middle band's cells whose digits it may not take.
    avoid: Vec<u32>,
    /// For each cell, the crossing groups it is in.
    crossing: Vec<Vec<usize>>,
    /// For each box, the pairs `(earlier box, its cell, this box's cell)`
    /// (cells as places in their boxes) whose digits must differ, other
    /// than along a row.
    ties: Vec<Vec<(usize, usize, usize)>>,
}

/// A box's filling: its digits (the box's cells in reading order) and its
/// part of the key.
#[derive(Clone, Copy, Debug)]
struct BoxFilling {
    digits: [u8; 16],
    key: u128,
}

/// One outer band's fillings by box, bucketed by their rows' digits.
struct Listed {
    /// For each box, its buckets: the rows' digits (16 bits a row) and the
    /// fillings with them.
    boxes: Vec<Vec<(u64, Vec<BoxFilling>)>>,
    /// The last box's buckets by their rows' digits.
    last: HashMap<u64, usize>,
}

impl Join {
    /// The join for `puzzle` given `middle` (the band at rows `middle h` to
    /// `middle h + h - 1`), if the layout has three bands with that one in
    /// the middle, every rule is a group or a pair of different cells, no
    /// pair ties the outer bands, every group with cells in both has `n`
    /// cells, and the keys fit 128 bits.
    pub fn new(puzzle: &Puzzle, middle: usize) -> Option<Join> {
        let (h, w) = puzzle.boxes()?;
        let n = puzzle.side();
        // (Bands of at most 32 cells: `n = 3h` is at most 9.)
        if n / h != 3 || middle != 1 || h * n > 32 || !super::band_orbits::different_pairs(puzzle) {
            return None;
        }
        puzzle.blank_sudoku_extras()?;
        let band = |cell: Cell| cell.row / h;
        let at = |cell: Cell| (cell.row % h) * n + cell.col;
        let mut outer = [0, 2].map(|_| Outer {
            avoid: vec![0; h * n],
            crossing: vec![Vec::new(); h * n],
            ties: vec![Vec::new(); n / w],
        });
        // The band above is `outer[0]`, the band below `outer[1]`.
        let side_of = |b: usize| (b != 1).then_some(b / 2);
        let mut crossing = Vec::new();
        let (mut bits_used, mut need) = (0, 0);
        // Every pair of cells that must differ, by group or relation.
        let mut differ: Vec<(Cell, Cell)> = puzzle.relations().iter().map(|r| (r.a, r.b)).collect();
        for group in puzzle.groups() {
            let bands: Vec<usize> = group.cells.iter().map(|&c| band(c)).collect();
            let (above, below) = (bands.contains(&0), bands.contains(&2));
            if above && below {
                if group.cells.len() != n {
                    return None;
                }
                let inside: Vec<usize> = group.cells.iter().filter(|&&c| band(c) == 1).map(|&c| at(c)).collect();
                let index = crossing.len();
                for &cell in group.cells.iter().filter(|&&c| band(c) != 1) {
                    outer[side_of(band(cell))?].crossing[at(cell)].push(index);
                }
                let width = n - inside.len();
                if bits_used + width > KEY_BITS {
                    return None;
                }
                crossing.push((inside, bits_used));
                need |= (u128::MAX >> (128 - width)) << bits_used;
                bits_used += width;
            }
            // A row's cells in different boxes are kept apart by the
            // buckets, a crossing group's across the outer bands by the keys.
            if group.kind != GroupKind::Row {
                for (i, &a) in group.cells.iter().enumerate() {
                    let others = group.cells[i + 1..].iter().filter(|&&b| band(a).abs_diff(band(b)) != 2);
                    differ.extend(others.map(|&b| (a, b)));
                }
            }
        }
        for (a, b) in differ {
            let (a, b) = if band(a) <= band(b) { (a, b) } else { (b, a) };
            match (band(a), band(b)) {
                // A relation across the middle band: not a join.
                (0, 2) => return None,
                (x, 1) if x != 1 => outer[side_of(x)?].avoid[at(a)] |= 1 << at(b),
                (1, y) if y != 1 => outer[side_of(y)?].avoid[at(b)] |= 1 << at(a),
                (x, y) if x == y && x != 1 && a.col / w != b.col / w => {
                    let (a, b) = if a.col / w < b.col / w { (a, b) } else { (b, a) };
                    // A cell's place in its box, in reading order.
                    let place = |c: Cell| (c.row % h) * w + c.col % w;
                    outer[side_of(x)?].ties[b.col / w].push((a.col / w, place(a), place(b)));
                }
                _ => {}
            }
        }
        for ties in outer.iter_mut().flat_map(|side| side.ties.iter_mut()) {
            ties.sort_unstable();
            ties.dedup();
        }
        Some(Join { side: n, boxes: (h, w), outer, crossing, need })
    }

    /// The completions of the middle band's `filling` (4 bits a cell, cell
    /// `k` at bits `4k`, as [`super::band_orbits::Orbits`] lists them) and
    /// the outer bands' fillings met (the join's work); `None` if `stop`
    /// (asked every 2^16 fillings met) came first.
    pub fn count(&self, filling: u128, table: &mut Table, stop: &dyn Fn() -> bool) -> Option<(u128, u64)> {
        let digit = |k: usize| (filling >> (4 * k) & 15) as usize;
        // Each crossing group's digits in the middle band.
        let held: Vec<u32> =
            self.crossing.iter().map(|(cells, _)| cells.iter().fold(0, |m, &k| m | 1 << digit(k))).collect();
        let full = ((1u32 << self.side) - 1) << 1;
        let listed = self.outer.each_ref().map(|side| self.list(side, &digit, &held, full));
        if self.need >> 64 == 0 {
            self.tally(&listed, full, &mut table.narrow, stop)
        } else {
            self.tally(&listed, full, &mut table.wide, stop)
        }
    }

    /// The join through `table`: the band below tallied by key, the band
    /// above looked up; the completions and the fillings met, `None` if
    /// `stop` came first.
    fn tally<K: Key>(
        &self,
        listed: &[Listed; 2],
        full: u32,
        table: &mut Slots<K>,
        stop: &dyn Fn() -> bool,
    ) -> Option<(u128, u64)> {
        table.clear();
        let below = self.join(&self.outer[1], &listed[1], full, stop, &mut |key| table.add(K::of(key)))?;
        let mut sum = 0u128;
        let above = self.join(&self.outer[0], &listed[0], full, stop, &mut |key| {
            sum += u128::from(table.get(K::of(key ^ self.need)));
        })?;
        Some((sum, above + below))
    }

    /// One outer band's box fillings, bucketed by their rows' digits.
    fn list(&self, side: &Outer, digit: &dyn Fn(usize) -> usize, held: &[u32], full: u32) -> Listed {
        let (n, (h, w)) = (self.side, self.boxes);
        let mut boxes = Vec::new();
        for b in 0..n / w {
            let cells: Vec<usize> = (0..h).flat_map(|r| (0..w).map(move |c| r * n + b * w + c)).collect();
            let allowed: Vec<u32> = cells
                .iter()
                .map(|&k| bits(u128::from(side.avoid[k])).fold(full, |m, j| m & !(1 << digit(j))))
                .collect();
            let mut buckets: HashMap<u64, Vec<BoxFilling>> = HashMap::default();
            let mut digits = [0u8; 16];
            fill_box(&allowed, 0, 0, &mut digits, &mut |digits| {
                let mut rows = 0u64;
                let mut key = 0u128;
                for (i, &k) in cells.iter().enumerate() {
                    rows |= 1 << (16 * (i / w) + usize::from(digits[i]));
                    for &g in &side.crossing[k] {
                        let (_, first) = self.crossing[g];
                        // The digit's place among those the middle band leaves the group.
                        let rank = (full & !held[g] & ((1 << digits[i]) - 1)).count_ones() as usize;
                        key |= 1 << (first + rank);
                    }
                }
                buckets.entry(rows).or_default().push(BoxFilling { digits: *digits, key });
            });
            let mut buckets: Vec<(u64, Vec<BoxFilling>)> = buckets.into_iter().collect();
            buckets.sort_unstable_by_key(|b| b.0);
            boxes.push(buckets);
        }
        let last =
            boxes.last().map_or_else(HashMap::default, |b| b.iter().enumerate().map(|(i, b)| (b.0, i)).collect());
        Listed { boxes, last }
    }

    /// Joins an outer band's boxes left to right, giving each filling's key
    /// to `leaf`; the fillings met, `None` if `stop` came first.
    fn join(
        &self,
        side: &Outer,
        listed: &Listed,
        full: u32,
        stop: &dyn Fn() -> bool,
        leaf: &mut impl FnMut(u128),
    ) -> Option<u64> {
        let (n, (h, w)) = (self.side, self.boxes);
        let mut join = Joining {
            listed,
            ties: &side.ties,
            all_rows: (0..h).fold(0u64, |m, r| m | u64::from(full) << (16 * r)),
            chosen: Vec::with_capacity(n / w),
            met: 0,
            stop,
            stopped: false,
        };
        join.from(0, 0, 0, None, leaf);
        (!join.stopped).then_some(join.met)
    }
}

/// An outer band's boxes being joined.
struct Joining<'a> {
    listed: &'a Listed,
    /// The band's [`Outer::ties`].
    ties: &'a [Vec<(usize, usize, usize)>],
    /// Every digit in every row of the band (16 bits a row).
    all_rows: u64,
    /// The boxes joined so far.
    chosen: Vec<BoxFilling>,
    /// The band's fillings met.
    met: u64,
    stop: &'a dyn Fn() -> bool,
    /// `stop` said yes: nothing more is joined.
    stopped: bool,
}

impl Joining<'_> {
    /// Joins boxes `b` on, given the rows' digits `rows` and the key `key`
    /// of the boxes chosen before it and, for the last box, its bucket.
    fn from(&mut self, b: usize, rows: u64, key: u128, last: Option<usize>, leaf: &mut impl FnMut(u128)) {
        let listed = self.listed;
        if self.stopped {
            return;
        }
        if let Some(last) = last {
            for f in &listed.boxes[b][last].1 {
                if self.fits(b, f) {
                    self.met += 1;
                    leaf(key | f.key);
                    if self.met % (1 << 16) == 0 && (self.stop)() {
                        self.stopped = true;
                        return;
                    }
                }
            }
            return;
        }
        for (bucket, fillings) in &listed.boxes[b] {
            if bucket & rows != 0 {
                continue;
            }
            // The last box's bucket: the rows' digits left.
            let last = if b + 2 == listed.boxes.len() {
                match listed.last.get(&(self.all_rows ^ rows ^ bucket)) {
                    Some(&i) => Some(i),
                    None => continue,
                }
            } else {
                None
            };
            for f in fillings {
                if self.fits(b, f) {
                    self.chosen.push(*f);
                    self.from(b + 1, rows | bucket, key | f.key, last, leaf);
                    self.chosen.pop();
                }
            }
        }
    }

    /// Whether box `b`'s filling `f` differs where it must from the boxes chosen.
    #[inline]
    fn fits(&self, b: usize, f: &BoxFilling) -> bool {
        self.ties[b].iter().all(|&(other, at, here)| self.chosen[other].digits[at] != f.digits[here])
    }
}

/// Every filling of a box's cells (`allowed[i]`: the digits cell `i` may
/// take, as bits), all different, given to `visit`.
fn fill_box(allowed: &[u32], at: usize, used: u32, digits: &mut [u8; 16], visit: &mut dyn FnMut(&[u8; 16])) {
    let Some(&can) = allowed.get(at) else { return visit(digits) };
    for d in bits(u128::from(can & !used)) {
        digits[at] = d as u8;
        fill_box(allowed, at + 1, used | 1 << d, digits, visit);
    }
}

/// Tallies of keys, kept between counts: of at most 64 bits, or of more.
#[derive(Default)]
pub struct Table {
    narrow: Slots<u64>,
    wide: Slots<u128>,
}

/// A key of a [`Slots`] table.
trait Key: Copy + Eq {
    /// A slot no key takes (a key with every bit set would need every
    /// digit of every crossing group in one band).
    const EMPTY: Self;
    /// The key of a join's 128 bits (which fit it).
    fn of(key: u128) -> Self;
    /// Where the key's search starts, before the table's size is applied.
    fn spread(self) -> usize;
}

impl Key for u64 {
    const EMPTY: u64 = u64::MAX;
    fn of(key: u128) -> u64 {
        key as u64
    }
    fn spread(self) -> usize {
        (self.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 24) as usize
    }
}

impl Key for u128 {
    const EMPTY: u128 = u128::MAX;
    fn of(key: u128) -> u128 {
        key
    }
    fn spread(self) -> usize {
        (self as u64 ^ (self >> 64) as u64).spread()
    }
}

/// A tally of keys: open addressing, linear probing.
struct Slots<K> {
    /// Each slot's key and count.
    slots: Vec<(K, u64)>,
    len: usize,
}

impl<K> Default for Slots<K> {
    fn default() -> Self {
        Slots { slots: Vec::new(), len: 0 }
    }
}

impl<K: Key> Slots<K> {
    /// Empties the table, keeping room for as many keys as it last held.
    fn clear(&mut self) {
        if self.len > 0 || self.slots.is_empty() {
            let size = (self.len * 2).next_power_of_two().max(1 << 10);
            self.slots.clear();
            self.slots.resize(size, (K::EMPTY, 0));
            self.len = 0;
        }
    }

    /// Where `key`'s search starts.
    fn slot(&self, key: K) -> usize {
        key.spread() & (self.slots.len() - 1)
    }

    /// Counts `key` once more.
    fn add(&mut self, key: K) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            let slot = &mut self.slots[i];
            if slot.0 == key {
                slot.1 += 1;
                return;
            }
            if slot.0 == K::EMPTY {
                *slot = (key, 1);
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// How many times `key` was counted.
    fn get(&self, key: K) -> u64 {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            let (k, count) = self.slots[i];
            if k == key {
                return count;
            }
            if k == K::EMPTY {
                return 0;
            }
            i = (i + 1) & mask;
        }
    }

    /// Twice the room, every key placed again.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(1 << 10);
        let old = std::mem::replace(&mut self.slots, vec![(K::EMPTY, 0); size]);
        for (key, count) in old.into_iter().filter(|s| s.0 != K::EMPTY) {
            let mut i = self.slot(key);
            while self.slots[i].0 != K::EMPTY {
                i = (i + 1) & (size - 1);
            }
            self.slots[i] = (key, count);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::band_orbits::Band;
    use crate::model::Predicate;

    fn layout(text: &str) -> Puzzle {
        crate::parse::parse(text, "layout", None).unwrap()
    }

    /// The completions of the middle band's `filling`, by backtracking over
    /// the outer bands' cells in reading order, every group and relation
    /// of `puzzle` checked against the cells filled so far.
    fn completions(puzzle: &Puzzle, filling: u128) -> u64 {
        let (n, (h, _)) = (puzzle.side(), puzzle.boxes().unwrap());
        let mut grid = vec![0u8; n * n];
        for k in 0..h * n {
            grid[h * n + k] = (filling >> (4 * k) & 15) as u8;
        }
        let at = |c: &Cell| c.row * n + c.col;
        let mut differ: Vec<(usize, usize)> = puzzle.relations().iter().map(|r| (at(&r.a), at(&r.b))).collect();
        for group in puzzle.groups() {
            for (i, a) in group.cells.iter().enumerate() {
                differ.extend(group.cells[i + 1..].iter().map(|b| (at(a), at(b))));
            }
        }
        let open: Vec<usize> = (0..n * n).filter(|&k| grid[k] == 0).collect();
        fn search(at: usize, open: &[usize], grid: &mut [u8], differ: &[(usize, usize)], n: usize) -> u64 {
            let Some(&cell) = open.get(at) else { return 1 };
            let mut found = 0;
            for d in 1..=n as u8 {
                let clash = differ.iter().any(|&(a, b)| (a == cell && grid[b] == d) || (b == cell && grid[a] == d));
                if !clash {
                    grid[cell] = d;
                    found += search(at + 1, open, grid, differ, n);
                    grid[cell] = 0;
                }
            }
            found
        }
        search(0, &open, &mut grid, &differ, n)
    }

    #[test]
    fn each_middle_band_joins_to_its_completions_by_backtracking() {
        for rules in ["antiking", "antiknight", "diagonal+\ndiagonal-", "antiking\ndisjoint", "antiking\ndiagonal+"] {
            // (Each of these layouts keeps its middle band the most.)
            let puzzle = layout(&format!("size 6\nbox 2x3\n{rules}\n"));
            let band = Band::recognize(&puzzle, true).unwrap();
            let join = Join::new(&puzzle, band.index()).unwrap_or_else(|| panic!("{rules}: no join"));
            let orbits = band.orbits(&|| false).unwrap();
            let mut table = Table::default();
            for &(filling, _) in &orbits.orbits {
                let (joined, _) = join.count(filling, &mut table, &|| false).unwrap();
                assert_eq!(joined, u128::from(completions(&puzzle, filling)), "{rules}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
        /// Random rules on 6x6: pairs of different cells (inside a band,
        /// between the middle band and an outer one, or between the outer
        /// bands, which no join takes) and a group of six cells, two in
        /// each band (which meets both outer bands with all its digits):
        /// each middle band's orbit joins to its completions by
        /// backtracking.
        #[test]
        fn random_rules_join_to_their_completions_by_backtracking(
            pairs in proptest::collection::vec((0usize..36, 0usize..36), 0..5),
            group in proptest::option::of([0usize, 1, 2].map(|_| proptest::sample::subsequence((0..12).collect::<Vec<usize>>(), 2))),
        ) {
            let mut puzzle = layout("size 6\nbox 2x3\n");
            let cell = |k: usize| Cell::new(k / 6, k % 6);
            let mut outer_pair = false;
            for &(a, b) in pairs.iter().filter(|(a, b)| a != b) {
                puzzle.add_relation(cell(a), cell(b), Predicate::NotEqual).unwrap();
                outer_pair |= (a / 12).abs_diff(b / 12) == 2;
            }
            if let Some(group) = &group {
                let cells = group.iter().enumerate().flat_map(|(band, two)| two.iter().map(move |&k| cell(12 * band + k)));
                puzzle.add_group(cells.collect()).unwrap();
            }
            let band = Band::recognize(&puzzle, true).unwrap();
            let join = Join::new(&puzzle, band.index());
            proptest::prop_assert_eq!(join.is_some(), band.index() == 1 && !outer_pair);
            if let Some(join) = join {
                let mut table = Table::default();
                for &(filling, _) in &band.orbits(&|| false).unwrap().orbits {
                    let (joined, _) = join.count(filling, &mut table, &|| false).unwrap();
                    proptest::prop_assert_eq!(joined, u128::from(completions(&puzzle, filling)));
                }
            }
        }
    }

    #[test]
    fn a_9x9_middle_band_joins_to_the_grid_engines_count() {
        // Counted by the grid engine (`satsudoku count --engine grid` with
        // the band given), the first also by a program written apart
        // (2026-12-07), the disjoint groups' also by bands. Both diagonals
        // take 66 bits of key, the disjoint groups 108 (a wide table).
        for (rules, rows, expected) in [
            ("antiking", ["365781429", "941326875", "728549316"], 2_770_940),
            ("antiking\ndiagonal+", ["365781429", "941326875", "728549316"], 15_047),
            ("diagonal+", ["123456789", "456789123", "789123456"], 24_847_600),
            ("diagonal+\ndiagonal-", ["365781429", "941326875", "728549316"], 42_958),
            ("disjoint", ["365781429", "941326875", "728549316"], 420_294),
        ] {
            let puzzle = layout(&format!("size 9\n{rules}\n"));
            let filling = rows.concat().bytes().rev().fold(0u128, |f, b| f << 4 | u128::from(b - b'0'));
            let join = Join::new(&puzzle, 1).unwrap();
            assert_eq!(join.count(filling, &mut Table::default(), &|| false).unwrap().0, expected, "{rules}");
        }
    }

    #[test]
    fn a_layout_the_join_cannot_split_has_none() {
        // Two bands; the first band in place of the middle one.
        assert!(Join::new(&layout("size 4\nantiking\n"), 1).is_none());
        assert!(Join::new(&layout("size 6\nbox 2x3\nantiking\n"), 0).is_none());
        // A relation between the outer bands, a group across them of fewer
        // than `n` cells, a relation that is not "different".
        let base = layout("size 6\nbox 2x3\n");
        let mut tied = base.clone();
        tied.add_relation(Cell::new(0, 0), Cell::new(5, 1), Predicate::NotEqual).unwrap();
        assert!(Join::new(&tied, 1).is_none());
        let mut short = base.clone();
        short.add_group(vec![Cell::new(0, 0), Cell::new(5, 1)]).unwrap();
        assert!(Join::new(&short, 1).is_none());
        let mut less = base.clone();
        less.add_relation(Cell::new(0, 0), Cell::new(1, 4), Predicate::Less).unwrap();
        assert!(Join::new(&less, 1).is_none());
        assert!(Join::new(&base, 1).is_some());
    }
}
