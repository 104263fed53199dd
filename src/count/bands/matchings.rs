//! A band's fillings counted by perfect matchings, without the engine.
//!
//! A band filling is `h` rows, each a perfect matching of the band's
//! graph: a column joined to each digit it holds (`h`-regular, bipartite,
//! when each stack's columns partition the digits). The fillings are the
//! graph's ordered 1-factorizations, counted by the rooted recurrences
//!
//! - `F_d(G) = d * sum, over the perfect matchings M that hold a fixed
//!   edge e, of F_(d-1)(G - M)`: exchanging two rows maps the fillings
//!   with `e` in one row one to one onto those with `e` in the other;
//! - `F_d(G) = C(d, 2) * sum, over the 2-factors H that hold column 0's
//!   first two edges and none of its others, of 2^cycles(H) F_(d-2)(G -
//!   H)`: colours 1 and 2 make a 2-factor, coloured in `2^cycles` ways,
//!   and renaming the colours shows that every pair of column 0's edges
//!   comes with the same sum;
//! - `F_2(G) = 2^cycles` (a 2-regular bipartite graph is even cycles,
//!   each coloured in two ways) and `F_1 = 1`.
//!
//! `F_4` is kept for every 4-regular graph met, under a relabelled copy
//! of the graph. The recurrences and the memo are the ideas of the
//! reproduction in github.com/linche89/sudoku-enumeration; this code is
//! written from the formulas.

use std::collections::HashMap;
use std::sync::Mutex;

use itertools::Itertools;

/// The widest graphs whose `F_4` is kept: a side and ten bits a digit
/// fit 128 bits.
const MEMO_SIDE: usize = 11;
/// The most graphs kept (about 50 bytes each).
const MAX_MEMO: usize = 1 << 22;

/// The most columns (and digits) of a band graph.
const MAX_SIDE: usize = 16;

/// A bipartite graph between a band's columns and its digits, as bit
/// sets: `cols[c]`, the digits column `c` is joined to; `digits[d]`, the
/// columns digit `d` is joined to.
#[derive(Clone, Debug)]
pub(super) struct Graph {
    side: usize,
    cols: [u32; MAX_SIDE],
    digits: [u32; MAX_SIDE],
}

impl Graph {
    /// The graph of a band whose column `c` holds the digits `columns[c]`
    /// (a bit set each).
    pub(super) fn new(columns: &[u32]) -> Graph {
        assert!(columns.len() <= MAX_SIDE, "at most {MAX_SIDE} columns");
        let mut graph = Graph { side: columns.len(), cols: [0; MAX_SIDE], digits: [0; MAX_SIDE] };
        for (c, &digits) in columns.iter().enumerate() {
            graph.cols[c] = digits;
            for d in bits(digits) {
                graph.digits[d] |= 1 << c;
            }
        }
        graph
    }

    /// Removes (or puts back) the edges `col -- matched[col]`.
    fn toggle(&mut self, matched: &[u8]) {
        for (c, &d) in matched.iter().enumerate() {
            self.cols[c] ^= 1 << d;
            self.digits[usize::from(d)] ^= 1 << c;
        }
    }

    /// The cycles of a 2-regular graph.
    fn cycles(&self) -> u32 {
        cycles(&self.cols[..self.side], &self.digits)
    }
}

/// The cycles of a 2-regular bipartite graph given by both sides' bit
/// sets.
fn cycles(cols: &[u32], digits: &[u32]) -> u32 {
    let mut left: u32 = (1 << cols.len()) - 1;
    let mut cycles = 0;
    while left != 0 {
        let start = left.trailing_zeros() as usize;
        cycles += 1;
        let (mut c, mut d) = (start, cols[start].trailing_zeros() as usize);
        loop {
            left &= !(1 << c);
            let next = (digits[d] & !(1 << c)).trailing_zeros() as usize;
            if next == start {
                break;
            }
            d = (cols[next] & !(1 << d)).trailing_zeros() as usize;
            c = next;
        }
    }
    cycles
}

/// The indices of a bit set's ones.
fn bits(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let bit = set.trailing_zeros() as usize;
            set &= set - 1;
            bit
        })
    })
}

/// Counts ordered 1-factorizations, and the perfect matchings and
/// 2-factors it visits.
pub(super) struct Factorizer<'a> {
    /// Perfect matchings visited so far.
    pub matchings: u64,
    /// 2-factors visited so far.
    pub factors: u64,
    /// `F_4` of the 4-regular graphs met, by a relabelled copy; shared
    /// among the threads.
    memo: &'a Mutex<HashMap<u128, u128>>,
}

/// A copy of a graph of at most ten columns, relabelled so that graphs
/// that differ only in the order of their columns and digits mostly get
/// the same copy, packed as its side and then ten bits a digit: its
/// columns ordered by how many digits they share with each other column,
/// refined once by the other columns' counts (orders within ties tried,
/// up to 48 of them), then its digits' column sets sorted. A copy is a
/// relabelling of the graph, so equal copies have equal counts whatever
/// the ties did: a weak order only costs lookups. For 10x10 it keeps
/// 15,777 graphs of 413,136.
fn relabelled(graph: &Graph) -> u128 {
    let side = graph.side;
    // Per column, how many other columns share 0, 1, .. 4 digits with it,
    // four bits each.
    let mut shared = [0u32; MAX_SIDE];
    for (c, counts) in shared.iter_mut().enumerate().take(side) {
        for other in (0..side).filter(|&o| o != c) {
            *counts += 1 << (4 * (graph.cols[c] & graph.cols[other]).count_ones());
        }
    }
    // One round of refinement: each column's histogram with the pairs
    // (digits shared, the other column's histogram), sorted and mixed.
    let mut refined = [0u64; MAX_SIDE];
    for c in 0..side {
        let mut pairs: Vec<u64> = (0..side)
            .filter(|&o| o != c)
            .map(|o| u64::from((graph.cols[c] & graph.cols[o]).count_ones()) << 32 | u64::from(shared[o]))
            .collect();
        pairs.sort_unstable();
        refined[c] =
            pairs.iter().fold(u64::from(shared[c]), |h, &p| (h ^ p).wrapping_mul(0x0100_0000_01b3).rotate_left(17));
    }
    let mut order: Vec<usize> = (0..side).collect();
    order.sort_by_key(|&c| (shared[c], refined[c]));
    let ties: Vec<Vec<usize>> =
        order.chunk_by(|&a, &b| (shared[a], refined[a]) == (shared[b], refined[b])).map(|run| run.to_vec()).collect();
    let orders: u64 = ties.iter().map(|t| (1..=t.len() as u64).product::<u64>()).product();
    let packed = |order: &[usize]| -> u128 {
        let mut at = [0usize; MAX_SIDE];
        for (i, &c) in order.iter().enumerate() {
            at[c] = i;
        }
        let mut masks: Vec<u32> = (0..side).map(|d| bits(graph.digits[d]).fold(0, |m, c| m | 1 << at[c])).collect();
        masks.sort_unstable();
        masks.iter().fold(side as u128, |key, &m| key << 10 | u128::from(m))
    };
    if orders > 48 {
        return packed(&order);
    }
    ties.iter()
        .map(|t| t.iter().copied().permutations(t.len()).collect::<Vec<_>>())
        .multi_cartesian_product()
        .map(|parts| packed(&parts.concat()))
        .min()
        .expect("at least one order")
}

impl<'a> Factorizer<'a> {
    /// A counter that keeps `F_4` in `memo`.
    pub(super) fn new(memo: &'a Mutex<HashMap<u128, u128>>) -> Factorizer<'a> {
        Factorizer { matchings: 0, factors: 0, memo }
    }

    /// The ordered 1-factorizations of a `d`-regular bipartite graph (the
    /// fillings of a band of `d` rows with the graph's columns); `None` if
    /// the count passes 128 bits.
    pub(super) fn count(&mut self, graph: &mut Graph, d: usize) -> Option<u128> {
        match d {
            0 | 1 => Some(1),
            2 => Some(1 << graph.cycles()),
            4 if graph.side <= MEMO_SIDE => {
                let key = relabelled(graph);
                let known = self.memo.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(&key).copied();
                if let Some(known) = known {
                    return Some(known);
                }
                let counted = self.split(graph, d)?;
                let mut memo = self.memo.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if memo.len() < MAX_MEMO {
                    memo.insert(key, counted);
                }
                Some(counted)
            }
            4 | 6.. => self.split(graph, d),
            _ => {
                let mut matched = [0u8; MAX_SIDE];
                matched[0] = graph.cols[0].trailing_zeros() as u8;
                let used = 1 << matched[0];
                let sum = self.extend(graph, d, 1, used, &mut matched)?;
                sum.checked_mul(d as u128)
            }
        }
    }

    /// `F_d(G)` by a 2-factor: colours 1 and 2 make a 2-factor `H` of
    /// `G`, coloured in `2^cycles(H)` ways, and the other colours colour
    /// `G - H`, so `F_d(G)` is the sum over the 2-factors `H` of
    /// `2^cycles(H) F_(d-2)(G - H)`. Each `H` holds two of column 0's `d`
    /// edges, and renaming the colours shows that each pair comes with the
    /// same sum: `F_d = C(d, 2)` times the sum over the `H` that hold column
    /// 0's first two edges (and no other of its edges).
    fn split(&mut self, graph: &mut Graph, d: usize) -> Option<u128> {
        let side = graph.side;
        let mut factor =
            Factor { cols: [0; MAX_SIDE], digits: [0; MAX_SIDE], need: [2; MAX_SIDE], left: [0; MAX_SIDE], full: 0 };
        for digit in 0..side {
            factor.left[digit] = graph.digits[digit].count_ones() as u8;
        }
        let first = graph.cols[0] & graph.cols[0].wrapping_neg();
        let rest = graph.cols[0] & !first;
        let pair = first | (rest & rest.wrapping_neg());
        let sum = if factor.choose(graph, 0, pair) { self.descend(graph, d, &mut factor, 1)? } else { 0 };
        sum.checked_mul((d * (d - 1) / 2) as u128)
    }

    /// The sum of `2^cycles(H) F_(d-2)(G - H)` over the 2-factors `H` that
    /// extend `factor`'s choices for the columns `done`.
    fn descend(&mut self, graph: &mut Graph, d: usize, factor: &mut Factor, done: u32) -> Option<u128> {
        let side = graph.side;
        if done.count_ones() as usize == side {
            self.factors += 1;
            let cycles = cycles(&factor.cols[..side], &factor.digits);
            let mut rest = Graph { side, cols: graph.cols, digits: graph.digits };
            for i in 0..side {
                rest.cols[i] ^= factor.cols[i];
                rest.digits[i] ^= factor.digits[i];
            }
            return self.count(&mut rest, d - 2)?.checked_mul(1 << cycles);
        }
        // The open column with the fewest digits left to choose from.
        let (mut c, mut fewest) = (0, u32::MAX);
        for col in bits(!done & ((1 << side) - 1)) {
            let open = (graph.cols[col] & !factor.full).count_ones();
            if open < fewest {
                (c, fewest) = (col, open);
            }
        }
        let open = graph.cols[c] & !factor.full;
        let mut sum: u128 = 0;
        for a in bits(open) {
            for b in bits(open & !((2u32 << a) - 1)) {
                let pair = 1 << a | 1 << b;
                if factor.choose(graph, c, pair) {
                    sum = sum.checked_add(self.descend(graph, d, factor, done | 1 << c)?)?;
                }
                factor.unchoose(graph, c, pair);
            }
        }
        Some(sum)
    }

    /// The sum of `F_(d-1)(G - M)` over the perfect matchings `M` that
    /// extend `matched` on the columns `done` (its digits `used`).
    fn extend(
        &mut self,
        graph: &mut Graph,
        d: usize,
        done: u32,
        used: u32,
        matched: &mut [u8; MAX_SIDE],
    ) -> Option<u128> {
        let side = graph.side;
        if done.count_ones() as usize == side {
            self.matchings += 1;
            graph.toggle(&matched[..side]);
            let rest = self.count(graph, d - 1);
            graph.toggle(&matched[..side]);
            return rest;
        }
        // The open column with the fewest digits left (none: a dead end).
        let (mut best, mut fewest) = (0, u32::MAX);
        for c in bits(!done & ((1 << side) - 1)) {
            let open = (graph.cols[c] & !used).count_ones();
            if open < fewest {
                (best, fewest) = (c, open);
            }
        }
        let mut sum: u128 = 0;
        for digit in bits(graph.cols[best] & !used) {
            matched[best] = digit as u8;
            sum = sum.checked_add(self.extend(graph, d, done | 1 << best, used | 1 << digit, matched)?)?;
        }
        Some(sum)
    }
}

/// A 2-factor being chosen column by column.
struct Factor {
    /// Its edges so far, from both sides.
    cols: [u32; MAX_SIDE],
    digits: [u32; MAX_SIDE],
    /// Per digit, the edges it still needs, and its columns not yet
    /// decided.
    need: [u8; MAX_SIDE],
    left: [u8; MAX_SIDE],
    /// The digits that need no more edges.
    full: u32,
}

impl Factor {
    /// Gives column `c` the digits `pair`; `false` if a digit can no
    /// longer get its two edges.
    fn choose(&mut self, graph: &Graph, c: usize, pair: u32) -> bool {
        self.cols[c] = pair;
        let mut fine = true;
        for d in bits(graph.cols[c]) {
            self.left[d] -= 1;
            if pair >> d & 1 == 1 {
                self.digits[d] |= 1 << c;
                self.need[d] -= 1;
                if self.need[d] == 0 {
                    self.full |= 1 << d;
                }
            }
            fine &= self.left[d] >= self.need[d];
        }
        fine
    }

    /// Undoes [`Factor::choose`].
    fn unchoose(&mut self, graph: &Graph, c: usize, pair: u32) {
        for d in bits(graph.cols[c]) {
            self.left[d] += 1;
            if pair >> d & 1 == 1 {
                self.digits[d] &= !(1 << c);
                self.need[d] += 1;
                self.full &= !(1 << d);
            }
        }
    }
}

/// A band's fillings by backtracking over its cells, row by row: each
/// row a permutation that puts in every column one of its digits not
/// yet used there. Written apart from the recurrence.
#[cfg(test)]
pub(super) fn backtracked(columns: &[u32], rows: usize) -> u128 {
    fn fill(columns: &[u32], rows: usize, row: usize, col: usize, used: &mut [u32], in_row: u32) -> u128 {
        if row == rows {
            return 1;
        }
        if col == columns.len() {
            return fill(columns, rows, row + 1, 0, used, 0);
        }
        let mut count = 0;
        for d in bits(columns[col] & !used[col] & !in_row) {
            used[col] |= 1 << d;
            count += fill(columns, rows, row, col + 1, used, in_row | 1 << d);
            used[col] &= !(1 << d);
        }
        count
    }
    fill(columns, rows, 0, 0, &mut vec![0; columns.len()], 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pseudo-random generator for the test's graphs (xorshift).
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Random signatures of bands with `w`-column stacks: each stack's
    /// columns partition the digits.
    fn signature(h: usize, w: usize, state: &mut u64) -> Vec<u32> {
        let n = h * w;
        (0..h)
            .flat_map(|_| {
                let mut digits: Vec<usize> = (0..n).collect();
                for i in (1..n).rev() {
                    digits.swap(i, (next(state) % (i as u64 + 1)) as usize);
                }
                (0..w)
                    .map(move |j| digits[j * h..(j + 1) * h].iter().fold(0u32, |m, &d| m | 1 << d))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn factorizations_are_the_band_backtracked() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for (h, w, samples) in [(2, 2, 10), (3, 2, 20), (4, 2, 20), (3, 3, 20), (2, 3, 10), (2, 4, 5)] {
            for _ in 0..samples {
                let columns = signature(h, w, &mut state);
                let brute = backtracked(&columns, h);
                assert!(brute > 0);
                let counted = Factorizer::new(&Mutex::default()).count(&mut Graph::new(&columns), h);
                assert_eq!(counted, Some(brute), "{h}x{w} {columns:?}");
            }
        }
    }

    /// The complete bipartite graph `K(n, n)`'s ordered 1-factorizations
    /// are the Latin squares of order `n` (OEIS A002860: 1, 2, 12, 576,
    /// 161280, 812851200), and two disjoint copies of `K(5, 5)` have the
    /// square of one's: the recurrence at every degree through 6.
    #[test]
    fn complete_graphs_have_the_latin_squares() {
        for (n, squares) in [(1u32, 1u128), (2, 2), (3, 12), (4, 576), (5, 161_280), (6, 812_851_200)] {
            let columns = vec![(1u32 << n) - 1; n as usize];
            assert_eq!(
                Factorizer::new(&Mutex::default()).count(&mut Graph::new(&columns), n as usize),
                Some(squares),
                "order {n}"
            );
        }
        let two: Vec<u32> = (0..10).map(|c| if c < 5 { 0b11111 } else { 0b11111 << 5 }).collect();
        assert_eq!(Factorizer::new(&Mutex::default()).count(&mut Graph::new(&two), 5), Some(161_280u128.pow(2)));
    }

    /// A graph's relabelled copy is a relabelling of it: decoded, it has
    /// the graph's fillings (by backtracking), and relabelling the graph
    /// first gives a copy with them too; one memo serves every graph.
    #[test]
    fn relabelled_copies_keep_the_backtracked() {
        let mut state = 0x2545_f491_4f6c_dd1d;
        let memo = Mutex::default();
        for _ in 0..30 {
            let columns = signature(4, 2, &mut state);
            let brute = backtracked(&columns, 4);
            let mut order: Vec<usize> = (0..8).collect();
            let mut names: Vec<usize> = (0..8).collect();
            for i in (1..8).rev() {
                order.swap(i, (next(&mut state) % (i as u64 + 1)) as usize);
                names.swap(i, (next(&mut state) % (i as u64 + 1)) as usize);
            }
            let renamed: Vec<u32> = order.iter().map(|&c| bits(columns[c]).fold(0, |m, d| m | 1 << names[d])).collect();
            for graph in [Graph::new(&columns), Graph::new(&renamed)] {
                let key = relabelled(&graph);
                assert_eq!(key >> 80, 8, "the side");
                let digits: Vec<u32> = (0..8).map(|d| (key >> (10 * (7 - d)) & 0x3ff) as u32).collect();
                let decoded: Vec<u32> =
                    (0..8).map(|c| (0..8).filter(|&d| digits[d] >> c & 1 == 1).fold(0, |m, d| m | 1 << d)).collect();
                assert_eq!(backtracked(&decoded, 4), brute, "{columns:?} as {decoded:?}");
                assert_eq!(Factorizer::new(&memo).count(&mut graph.clone(), 4), Some(brute));
            }
        }
    }
}
