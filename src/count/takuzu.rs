//! Counting Takuzu grids a row at a time, with the rows placed so far kept
//! as a set: caching by a canonical key, and the two halves of the grid
//! joined, without enumerating the grids.
//!
//! Fill a Takuzu grid row by row, each row one of the valid lines (as many
//! 0s as 1s, no three equal neighbours) that agrees with its givens. What
//! the rows still to come must satisfy depends on the rows placed so far
//! only through
//! - the set of them (the rule that rows differ), which also gives each
//!   column's count of 1s (balance) and which pairs of columns are equal on
//!   every row placed (the rule that columns differ: whether two columns
//!   agree on a set of rows does not depend on the rows' order);
//! - the last two rows (no three equal neighbours down a column).
//!
//! That is the key of a state; each state carries the number of row
//! sequences that reach it, so the orderings of the earlier rows collapse
//! into one state. Without the rule that lines differ, the key is the
//! columns' counts of 1s and the last two rows.
//!
//! The rows are placed from the top down to the middle and from the bottom
//! up to it (the first rows of either half have no neighbours above them
//! to check), and the two halves' states are joined: a top state and a
//! bottom state make grids when their columns' 1s add up to half the side,
//! no three equal neighbours meet across the middle, and (with the distinct
//! rule) their sets of rows are disjoint and no two columns are equal on
//! both halves. The count is the sum, over the compatible pairs, of the
//! product of their counts. On the blank 10x10 grid the halves hold 7.8 and
//! 13.3 million states, where a single pass from the top reaches 106
//! million states by the sixth row and grows from there.
//!
//! The counter takes exactly the puzzles whose rules are those of
//! [`Puzzle::takuzu`] (checked by comparing the layouts), with any givens,
//! up to the side whose valid lines fit the 128-bit set (10: 84 lines) or,
//! without the distinct rule, up to 12. Counts are exact and in `u128`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::memory::{self, TooLarge};
use crate::model::Puzzle;

/// Bytes a state takes in a level's list.
const STATE_BYTES: usize = std::mem::size_of::<State>();
/// Bytes a state takes in a level's maps while they grow: the entry, its
/// control byte, the free slots of a table kept at most 7/8 full, and the
/// old table beside the new one when it doubles.
const ENTRY_BYTES: usize = 3 * (STATE_BYTES + 1) * 8 / 7;

/// The largest side counted with the rule that lines differ: the 84 valid
/// lines of 10 cells fit the 128-bit set of rows placed (12 has 208).
pub const MAX_SIDE_DISTINCT: usize = 10;
/// The largest side counted without that rule (line indices are kept in a
/// byte: 208 lines at 12, 518 at 14).
pub const MAX_SIDE: usize = 12;

/// A Takuzu puzzle in the counter's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Takuzu {
    side: usize,
    distinct: bool,
    /// Per row, the cells given (bit `c` for column `c`) and which of them
    /// hold a 1 (the model's digit 2).
    givens: Vec<(u16, u16)>,
    /// A given outside 0 and 1 (the model's 1 and 2): no solution.
    impossible: bool,
}

/// What one count found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCount {
    pub count: u128,
    /// The states of the larger half.
    pub states: usize,
    /// Stopped before the end: `count` is 0 and means nothing.
    pub stopped: bool,
}

impl Takuzu {
    /// The puzzle as a Takuzu, if its layout is [`Puzzle::takuzu`]'s (with
    /// or without the distinct rule) and within the counter's sides.
    pub fn recognize(puzzle: &Puzzle) -> Option<Takuzu> {
        let side = puzzle.side();
        // Cheap refusals first: most puzzles counted are Sudokus.
        if side % 2 == 1 || side > MAX_SIDE || !puzzle.groups().is_empty() || !puzzle.relations().is_empty() {
            return None;
        }
        let distinct =
            [true, false].into_iter().find(|&d| Puzzle::takuzu(side, d).is_ok_and(|t| t.same_layout(puzzle)))?;
        if distinct && side > MAX_SIDE_DISTINCT {
            return None;
        }
        let mut givens = vec![(0, 0); side];
        let mut impossible = false;
        for (cell, digit) in puzzle.givens() {
            let bit = 1 << cell.col;
            givens[cell.row].0 |= bit;
            match digit {
                1 => {}
                2 => givens[cell.row].1 |= bit,
                _ => impossible = true,
            }
        }
        Some(Takuzu { side, distinct, givens, impossible })
    }

    /// Counts the solutions on `jobs` threads; `stop` is polled now and then
    /// and ends the count early when it returns true. A level whose states
    /// would not fit in the memory left under the limit (projected from
    /// the states it has made so far, see [`crate::memory`]) ends the
    /// count with an error.
    ///
    /// The rows are placed from the top down to the middle and from the
    /// bottom up to it, and the two halves' states are joined: a top state
    /// and a bottom state make grids when their columns' 1s add up to half
    /// the side, no three equal neighbours meet across the middle, and
    /// (with the distinct rule) their rows are disjoint sets and no two
    /// columns are equal on both. The number of grids is the sum, over the
    /// compatible pairs, of the product of their counts.
    pub fn count(&self, jobs: usize, stop: &(dyn Fn() -> bool + Sync)) -> Result<LineCount, TooLarge> {
        let n = self.side;
        let level = Level::new(n, self.distinct);
        let jobs = jobs.max(1);
        let middle = n / 2;
        let stopped = LineCount { count: 0, states: 0, stopped: true };
        let Some(top) = self.half(&level, 0..middle, jobs, stop)? else { return Ok(stopped) };
        let Some(bottom) = self.half(&level, (middle..n).rev(), jobs, stop)? else { return Ok(stopped) };
        let states = top.len().max(bottom.len());
        Ok(match level.join(top, bottom, jobs, stop) {
            Some(count) => LineCount { count, states, stopped: false },
            None => stopped,
        })
    }

    /// The states after placing `rows` in that order, each as a valid line
    /// agreeing with its givens; `None` if stopped.
    fn half(
        &self,
        level: &Level,
        rows: impl Iterator<Item = usize>,
        jobs: usize,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Vec<State>>, TooLarge> {
        let start = State { key: Key { set: 0, a: 0, b: 0 }, value: Value { count: 1, ones: 0, same: !0 } };
        let mut states = if self.impossible { Vec::new() } else { vec![start] };
        for (k, row) in rows.enumerate() {
            let (known, ones) = self.givens[row];
            let candidates: Vec<u16> = level.lines.iter().copied().filter(|&line| line & known == ones).collect();
            let Some(next) = level.next(k, &states, &candidates, jobs, stop)? else { return Ok(None) };
            states = next;
        }
        Ok(Some(states))
    }
}

/// The lines of `n` cells with as many 1s as 0s and no three equal
/// neighbours (bit `c` for cell `c`), ascending.
fn valid_lines(n: usize) -> Vec<u16> {
    (0..1u32 << n)
        .filter(|&v| v.count_ones() as usize * 2 == n && (0..n.saturating_sub(2)).all(|c| !matches!(v >> c & 7, 0 | 7)))
        .map(|v| v as u16)
        .collect()
}

/// A state's key: the rows placed as a set of line indices (with the
/// distinct rule) or as the columns' counts of 1s (without), and the last
/// two rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    set: u128,
    a: u16,
    b: u16,
}

/// The row sequences that reach a key, and what the key determines: the
/// columns' counts of 1s (4 bits a column) and the pairs of columns equal
/// on every row placed (a bit a pair).
#[derive(Clone, Copy, Debug)]
struct Value {
    count: u128,
    ones: u64,
    same: u64,
}

#[derive(Clone, Copy, Debug)]
struct State {
    key: Key,
    value: Value,
}

impl State {
    /// What the join files a state by: its columns' 1s, and its last two
    /// rows (the one next to the middle first).
    fn run(&self) -> (u64, u16, u16) {
        (self.value.ones, self.key.b, self.key.a)
    }
}

/// What every row level shares: the valid lines and tables by row value.
struct Level {
    n: usize,
    distinct: bool,
    /// Every cell of a row: `n` low bits.
    full: u16,
    lines: Vec<u16>,
    /// Line index by row value (`u8::MAX` for an invalid line).
    index: Vec<u8>,
    /// A row's 1s spread into 4-bit lanes.
    spread: Vec<u64>,
    /// Bit `p`: the cells of the `p`th pair hold the same digit (45 pairs
    /// at 10; unused, and all 0, without the distinct rule).
    same: Vec<u64>,
}

impl Level {
    fn new(n: usize, distinct: bool) -> Level {
        let lines = valid_lines(n);
        let mut index = vec![u8::MAX; 1 << n];
        for (i, &line) in lines.iter().enumerate() {
            index[usize::from(line)] = i as u8;
        }
        let spread =
            (0..1usize << n).map(|r| (0..n).fold(0, |acc, c| acc | ((r >> c & 1) as u64) << (4 * c))).collect();
        let pairs: Vec<(usize, usize)> =
            if distinct { (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).collect() } else { Vec::new() };
        let same = (0..1usize << n)
            .map(|r| {
                pairs.iter().enumerate().fold(0, |acc, (p, &(i, j))| acc | u64::from(r >> i & 1 == r >> j & 1) << p)
            })
            .collect();
        Level { n, distinct, full: (1u16 << n).wrapping_sub(1), lines, index, spread, same }
    }

    /// `v` in each column's 4-bit lane.
    fn lane(&self, v: u64) -> u64 {
        (0..self.n).fold(0, |acc, c| acc | v << (4 * c))
    }

    /// Whether three rows, one under the other, have three equal digits
    /// down some column.
    fn triple(&self, a: u16, b: u16, c: u16) -> bool {
        ((a & b & c) | (!a & !b & !c & self.full)) != 0
    }

    /// The states after placing row `k` (0-based) as each of `candidates`.
    /// Each of the `jobs` threads follows every transition but keeps only
    /// the keys that hash to it, so the threads' maps are disjoint and
    /// need no merging. `None` if stopped; an error if the states, as
    /// projected from the first ones made, would not fit under the memory
    /// limit. The first thread alone projects, from its own share, against
    /// the room left before any thread began: the same projection and the
    /// same message on every run with as many threads.
    fn next(
        &self,
        k: usize,
        states: &[State],
        candidates: &[u16],
        jobs: usize,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Vec<State>>, TooLarge> {
        let half = self.n / 2;
        let too_large: std::sync::Mutex<Option<TooLarge>> = std::sync::Mutex::new(None);
        let room = memory::room();
        let (lane_8, too_many_ones) = (self.lane(8), self.lane((7 - half) as u64));
        // Every column needs at least `k + 1 - half` ones after this row.
        let least = (k + 1).saturating_sub(half);
        let enough = self.lane(8 - least as u64);
        let work = |job: usize| -> Option<Map> {
            let mut map = Map::default();
            let mut checked = 0;
            for (i, state) in states.iter().enumerate() {
                if i % 4_096 == 0 && (stop() || too_large.lock().is_ok_and(|t| t.is_some())) {
                    return None;
                }
                // Every 65,536 new states, the first job projects the
                // maps' size from the share of the states read so far (an
                // over-estimate as keys repeat), every job keeping about
                // as many as it does.
                if job == 0 && map.len() >= checked + 65_536 {
                    checked = map.len();
                    let projected = (map.len() * jobs).saturating_mul(states.len()) / (i + 1);
                    let needs = projected.saturating_mul(ENTRY_BYTES + STATE_BYTES);
                    if let Err(err) = memory::check_in(
                        room,
                        || format!("counting this Takuzu by rows: about {projected} states after row {}", k + 1),
                        needs,
                    ) {
                        *too_large.lock().unwrap_or_else(|p| p.into_inner()) = Some(err);
                        return None;
                    }
                }
                let Key { set, a, b } = state.key;
                for &row in candidates {
                    // A line index above 127 (sides over 10) only without the distinct rule.
                    let bit = if self.distinct { 1u128 << self.index[usize::from(row)] } else { 0 };
                    if set & bit != 0 {
                        continue;
                    }
                    if k >= 2 && self.triple(a, b, row) {
                        continue;
                    }
                    let ones = state.value.ones + self.spread[usize::from(row)];
                    if (ones + too_many_ones) & lane_8 != 0 || (least > 0 && (ones + enough) & lane_8 != lane_8) {
                        continue;
                    }
                    let key = Key { set: if self.distinct { set | bit } else { u128::from(ones) }, a: b, b: row };
                    if jobs > 1 && shard(&key, jobs) != job {
                        continue;
                    }
                    let same = state.value.same & self.same[usize::from(row)];
                    map.entry(key).or_insert(Value { count: 0, ones, same }).count += state.value.count;
                }
            }
            Some(map)
        };
        let maps = on_threads(jobs, work);
        if let Some(err) = too_large.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(err);
        }
        let mut next = Vec::with_capacity(maps.iter().map(|m| m.as_ref().map_or(0, HashMap::len)).sum());
        for map in maps {
            let Some(map) = map else { return Ok(None) };
            next.extend(map.into_iter().map(|(key, value)| State { key, value }));
        }
        Ok(Some(next))
    }

    /// The grids the `top` and `bottom` half states make together (see
    /// [`Takuzu::count`]); `None` if stopped. Both halves are sorted into
    /// runs of equal columns' 1s and rows next to the middle; a top run
    /// meets the bottom runs whose 1s complete its own, the runs' rows are
    /// checked for three equal neighbours across the middle once a pair of
    /// runs, and the rows and columns pair by pair.
    fn join(
        &self,
        mut top: Vec<State>,
        mut bottom: Vec<State>,
        jobs: usize,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<u128> {
        top.sort_unstable_by_key(State::run);
        bottom.sort_unstable_by_key(State::run);
        let (top_runs, bottom_runs) = (runs(&top), runs(&bottom));
        // The bottom runs by their columns' 1s: a range of `bottom_runs`.
        let mut by_ones: HashMap<u64, (usize, usize), BuildHasherDefault<Mix>> = HashMap::default();
        for (i, run) in bottom_runs.iter().enumerate() {
            by_ones.entry(bottom[run.start].value.ones).or_insert((i, i)).1 = i + 1;
        }
        let half = self.lane((self.n / 2) as u64);
        // Rows on each side of the middle: three-in-a-row checks across it
        // need two on one side.
        let (up, down) = (self.n / 2 >= 2, self.n - self.n / 2 >= 2);
        let work = |job: usize| -> Option<u128> {
            let mut total = 0u128;
            for (i, run) in top_runs.iter().enumerate().skip(job).step_by(jobs) {
                if i % 1024 < jobs && stop() {
                    return None;
                }
                let first = &top[run.start];
                let Some(&(from, to)) = by_ones.get(&(half - first.value.ones)) else { continue };
                let (far, near) = (first.key.a, first.key.b);
                for other in &bottom_runs[from..to] {
                    let b = &bottom[other.start];
                    if (up && self.triple(far, near, b.key.b)) || (down && self.triple(near, b.key.b, b.key.a)) {
                        continue;
                    }
                    let matches = &bottom[other.clone()];
                    for t in &top[run.clone()] {
                        let mut sum = 0u128;
                        for b in matches {
                            if !self.distinct || (t.key.set & b.key.set == 0 && t.value.same & b.value.same == 0) {
                                sum += b.value.count;
                            }
                        }
                        total += t.value.count * sum;
                    }
                }
            }
            Some(total)
        };
        on_threads(jobs, work).into_iter().sum()
    }
}

/// `work(job)` for each job `0..jobs`, on a thread each (on this one if
/// there is one job); a thread that panicked gives `None`.
fn on_threads<T: Send>(jobs: usize, work: impl Fn(usize) -> Option<T> + Sync) -> Vec<Option<T>> {
    if jobs == 1 {
        return vec![work(0)];
    }
    std::thread::scope(|scope| {
        let work = &work;
        let handles: Vec<_> = (0..jobs).map(|job| scope.spawn(move || work(job))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or(None)).collect()
    })
}

/// The runs of states with equal [`State::run`], in order (the states sorted by it).
fn runs(states: &[State]) -> Vec<std::ops::Range<usize>> {
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, s) in states.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if states[run.start].run() == s.run() => run.end = i + 1,
            _ => runs.push(i..i + 1),
        }
    }
    runs
}

type Map = HashMap<Key, Value, BuildHasherDefault<Mix>>;

/// Which thread keeps a key.
fn shard(key: &Key, jobs: usize) -> usize {
    let mut h = Mix::default();
    key.hash(&mut h);
    // The high bits: the map's buckets use the low ones.
    (h.finish() >> 40) as usize % jobs
}

/// A fast hasher for the keys (which are not chosen by an adversary): a
/// multiply-rotate mix of each word.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u16(&mut self, v: u16) {
        self.write_u64(u64::from(v));
    }

    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(23) ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 29
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Cell;

    fn blank(n: usize, distinct: bool) -> Takuzu {
        Takuzu::recognize(&Puzzle::takuzu(n, distinct).unwrap()).unwrap()
    }

    #[test]
    fn valid_lines_are_counted_as_in_oeis_a177790() {
        assert_eq!([2, 4, 6, 8, 10].map(|n| valid_lines(n).len()), [2, 6, 14, 34, 84]);
    }

    #[test]
    fn only_takuzu_layouts_are_recognized() {
        assert!(Takuzu::recognize(&Puzzle::sudoku(2, 2).unwrap()).is_none());
        assert!(Takuzu::recognize(&Puzzle::takuzu(12, true).unwrap()).is_none());
        assert!(Takuzu::recognize(&Puzzle::takuzu(12, false).unwrap()).is_some());
        let mut extra = Puzzle::takuzu(4, true).unwrap();
        extra.add_group(vec![Cell::new(0, 0), Cell::new(1, 1)]).unwrap();
        assert!(Takuzu::recognize(&extra).is_none());
    }

    /// OEIS A253316 (2, 72, 4,140, 4,111,116); the 10x10 count is checked
    /// from the command line in tests/takuzu.rs.
    #[test]
    fn blank_grids_match_oeis_a253316() {
        let never = || false;
        let counts = [2, 4, 6, 8].map(|n| blank(n, true).count(2, &never).unwrap().count);
        assert_eq!(counts, [2, 72, 4140, 4_111_116]);
    }

    #[test]
    fn a_stop_ends_the_count() {
        let counted = blank(8, true).count(1, &|| true).unwrap();
        assert!(counted.stopped);
    }
}
