//! Bands joined through groups that cross them: disjoint groups,
//! diagonals, any extra all-different group with as many cells as a line.
//!
//! Such a group is a column in all but shape. A grid's bands put some of
//! its digits in each band's part of it; the group holds each digit once
//! exactly when each part's digits differ (a rule of the band's own
//! puzzle) and the parts' sets of digits are disjoint, and then, their
//! sizes adding up to the side, they partition the digits. So a band's
//! signature is widened by one set per crossing group (its second word),
//! and the parent module's sum holds as it stands:
//!
//! `grids = sum over signatures s1 .. sw that partition every column and
//! every crossing group of N1(s1) ... Nw(sw)`,
//!
//! each grid counted once (its bands' fillings, one term), and each term's
//! fillings making a grid (rows and boxes inside bands, the lines and
//! groups across them by the partition). The blank layout's table knows
//! nothing of the groups, so every band is enumerated, with its givens
//! and its part of each group, and its signatures tallied.
//!
//! The bands are enumerated fewest fillings first, and each prunes the
//! next: when every signature of a band enumerated has digit `d` in a
//! column or crossing group, a filling of another band with `d` there is
//! in no term of the sum (its set there would meet that band's, whatever
//! signature it took), so the later bands are enumerated with `d` ruled
//! out of those cells. A band with all its digits given prunes the others
//! down to the fillings that fit it: the Sudoku P grids under a given top
//! band, 631,369,728 on the forum, take seconds, where enumerating them
//! took minutes.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use super::{too_large, CountError, Enumerate, Local, LocalCount, Outcome, Sum};
use crate::model::{Cell, Constraint, Grid, Puzzle};

/// The most fillings the bands may have together (the search's time: a
/// band of 35 million fillings, the Sudoku P bands under a given top band,
/// takes about 10 s on one core, 5 on two).
pub const MAX_CROSSING_FILLINGS: u128 = 1 << 27;

/// The most distinct signatures the bands may have together: a tally
/// takes about 90 bytes a signature with its maps' spare room (the 9.2
/// million of that band: 0.83 GB at the peak), so at most about 1.5 GB.
pub const MAX_CROSSING_SIGNATURES: usize = 1 << 24;

/// The most pairs of two bands' signatures looked at, one by one.
pub const MAX_CROSSING_PAIRS: u128 = 1 << 30;

/// A band's signature: its columns' digits (column `c` at bits `c n ..`)
/// and its crossing groups' (group `g` at bits `g n ..`).
type Key = [u128; 2];

impl Local {
    /// Counts a puzzle whose bands extra groups cross (see the module doc).
    pub(super) fn count_crossing(
        &self,
        jobs: usize,
        enumerate: &Enumerate,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Outcome, CountError> {
        let n = self.h * self.w;
        let mut order: Vec<usize> = (0..self.w).collect();
        order.sort_by_key(|&band| self.band_bound(band));
        let mut order: VecDeque<usize> = order.into();
        // The digits every signature of the bands so far has, per column
        // and crossing group.
        let mut common: Key = [0, 0];
        let mut tallies: Vec<Arc<Tally>> = Vec::new();
        // The first two stacks' columns: a tally's groups.
        let stacks = self.h.min(2) * self.w;
        let front = (1u128 << (stacks * n)) - 1;
        // Per band enumerated: its number, fillings and signatures.
        let mut report: Vec<(usize, (u128, usize))> = Vec::new();
        // At most an eighth of the solutions estimated, where they were (a
        // float past the bound saturates).
        let most_fillings =
            self.solutions.map_or(MAX_CROSSING_FILLINGS, |s| ((s / 8.0) as u128).min(MAX_CROSSING_FILLINGS));
        let mut left = most_fillings;
        let mut signatures = 0;
        // The cells of each band enumerated by `fill`, with its place in
        // `report` and `tallies`.
        let mut seen: Vec<(Vec<Place>, usize)> = Vec::new();
        // A band whose tally passed its cap, enumerated again last.
        let mut deferred = false;
        while let Some(band) = order.pop_front() {
            if stop() {
                return Ok(Outcome::Stopped);
            }
            let Some(puzzle) = self.pruned(band, common) else {
                // A cell with no digit left: no grid.
                let counted = LocalCount { grids: 0u32.into(), own: Vec::new(), classes: None, pairs: 0 };
                return Ok(Outcome::Counted(counted));
            };
            let places = self.digits_only(band, &puzzle);
            // A band whose cells are another's, moved (the same columns,
            // digits, groups and crossing groups, place by place), has its
            // fillings' signatures: its tally is shared.
            let twin = places.as_ref().and_then(|p| seen.iter().find(|(q, _)| q == p));
            if let Some((_, earlier)) = twin {
                let (fillings, signatures) = report[*earlier].1;
                report.push((band, (fillings, signatures)));
                tallies.push(tallies[*earlier].clone());
                continue;
            }
            let sizes: Vec<usize> = tallies.iter().map(|tally| tally.len).collect();
            let cap = if self.w == 3 { cap(&sizes, deferred, self.max_pairs) } else { Cap::Free };
            let most = match cap {
                Cap::Free => usize::MAX,
                Cap::Defer(most) | Cap::Decline(most) => most,
            };
            let (done, fillings, tally) = match &places {
                Some(cells) => tally_fillings(cells, n, front, left, most, jobs, stop),
                None => {
                    let mut tally = Tally::new(front);
                    let mut fillings = 0u128;
                    let done = enumerate(&puzzle, left, &mut |grid| {
                        fillings += 1;
                        tally.add(self.key(grid, band));
                        tally.len <= most
                    })?;
                    (done, fillings, tally)
                }
            };
            if tally.len > most {
                // Freed before anything else is enumerated.
                drop(tally);
                if matches!(cap, Cap::Decline(_)) {
                    let tallied = match sizes[..] {
                        [a] => format!("a band of {a} signatures and two of more than {most}"),
                        _ => format!(
                            "bands of {} signatures and one of more than {most}",
                            itertools::join(&sizes, " and ")
                        ),
                    };
                    let why = format!("more than {} pairs of signatures to look at: {tallied}", self.max_pairs);
                    return Ok(Outcome::TooLarge(why));
                }
                // Its fillings took their time all the same.
                left = left.saturating_sub(fillings);
                deferred = true;
                order.push_back(band);
                continue;
            }
            match done {
                None => return Ok(Outcome::Stopped),
                Some(false) => {
                    let why = match self.solutions {
                        Some(solutions) if most_fillings < MAX_CROSSING_FILLINGS => format!(
                            "the bands have more than {most_fillings} fillings, and the solutions are \
                             estimated at {solutions:.1e} (Knuth's estimator): enumerating them is quicker"
                        ),
                        _ => format!("the bands have more than {MAX_CROSSING_FILLINGS} fillings"),
                    };
                    return Ok(Outcome::TooLarge(why));
                }
                Some(true) => {}
            }
            left -= fillings;
            signatures += tally.len;
            if signatures > MAX_CROSSING_SIGNATURES {
                let why = format!("the bands have more than {MAX_CROSSING_SIGNATURES} signatures");
                return Ok(Outcome::TooLarge(why));
            }
            let every =
                tally.iter().map(|(key, _)| key).fold([u128::MAX; 2], |all, key| [all[0] & key[0], all[1] & key[1]]);
            common = [common[0] | every[0], common[1] | every[1]];
            if let Some(places) = places {
                seen.push((places, report.len()));
            }
            report.push((band, (fillings, tally.len)));
            tallies.push(Arc::new(tally));
        }
        let report = report.into_iter().map(|(band, (fillings, signatures))| (band, fillings, signatures)).collect();
        let line = (1u128 << n) - 1;
        let full: Key = [
            (0..n).fold(0, |key, at| key | line << (at * n)),
            (0..self.crossing.len()).fold(0, |key, g| key | line << (g * n)),
        ];
        let (sum, pairs) = if self.w == 2 {
            let mut sum = Sum::default();
            for (s, count) in tallies[0].iter() {
                let other = tallies[1].get([full[0] ^ s[0], full[1] ^ s[1]]);
                sum.add(u128::from(count), u128::from(other))?;
            }
            (sum, 0)
        } else {
            // The two smallest tallies in pairs, the third at the digits left.
            tallies.sort_by_key(|tally| tally.len);
            let product = (tallies[0].len as u128) * (tallies[1].len as u128);
            if product > self.max_pairs {
                let why = format!("{product} pairs of signatures to look at, past {}", self.max_pairs);
                return Ok(Outcome::TooLarge(why));
            }
            match join(jobs, &tallies[0], &tallies[1], &tallies[2], full, stop)? {
                Some(joined) => joined,
                None => return Ok(Outcome::Stopped),
            }
        };
        Ok(Outcome::Counted(LocalCount { grids: sum.total(), own: report, classes: None, pairs }))
    }

    /// Band `band`'s puzzle with the digits of `common` ruled out of its
    /// columns and crossing groups; `None` if that leaves a cell none.
    fn pruned(&self, band: usize, common: Key) -> Option<Puzzle> {
        let n = self.h * self.w;
        let mut puzzle = self.own[band].clone().expect("every band is enumerated when groups cross");
        let all = (1u64 << n) - 1;
        for line in band * self.h..band * self.h + self.h {
            for at in 0..n {
                let cell = self.cell(line, at);
                let mut out = (common[0] >> (at * n)) as u64 & all;
                for (g, group) in self.crossing.iter().enumerate() {
                    if group.contains(&cell) {
                        out |= (common[1] >> (g * n)) as u64 & all;
                    }
                }
                let allowed = all & !out;
                if allowed == 0 {
                    return None;
                }
                if out != 0 {
                    puzzle.add_constraint(Constraint::Digits { cell, allowed }).expect("a cell of the grid");
                }
            }
        }
        Some(puzzle)
    }

    /// Band `band`'s cells for [`fill`], if its puzzle holds only
    /// all-different groups, allowed digits and givens (as a band of
    /// rows, boxes and parts of crossing groups does); `None` sends it to
    /// the engine.
    fn digits_only(&self, band: usize, puzzle: &Puzzle) -> Option<Vec<Place>> {
        let n = self.h * self.w;
        let digits_only = puzzle.constraints().iter().all(|c| matches!(c, Constraint::Digits { .. }));
        if !puzzle.relations().is_empty() || !digits_only || puzzle.groups().len() > 64 {
            return None;
        }
        let all = (1u64 << n) - 1;
        let mut places = Vec::with_capacity(self.h * n);
        for line in band * self.h..band * self.h + self.h {
            for at in 0..n {
                let cell = self.cell(line, at);
                let mut allowed = match puzzle.given(cell) {
                    Some(digit) => 1 << (digit - 1),
                    None => all,
                };
                for constraint in puzzle.constraints() {
                    if let Constraint::Digits { cell: c, allowed: a } = constraint {
                        allowed &= if *c == cell { *a } else { all };
                    }
                }
                let in_group = |g: &crate::model::Group| g.cells.contains(&cell);
                let groups = puzzle.groups().iter().enumerate().filter(|(_, g)| in_group(g));
                let groups = groups.fold(0u64, |m, (i, _)| m | 1 << i);
                let crossing = self.crossing.iter().enumerate().filter(|(_, g)| g.contains(&cell));
                let crossing = crossing.fold(0u128, |m, (g, _)| m | 1 << g);
                places.push(Place { at, allowed, groups, crossing });
            }
        }
        // The first two stacks first (see [`Tally`]).
        let stacks = self.h.min(2) * self.w;
        places.sort_by_key(|place| place.at >= stacks);
        Some(places)
    }

    /// Band `band`'s signature in `grid` (see [`Key`]).
    fn key(&self, grid: &Grid, band: usize) -> Key {
        let n = self.h * self.w;
        let lines = band * self.h..band * self.h + self.h;
        let inside = |cell: &Cell| lines.contains(&if self.transposed { cell.col } else { cell.row });
        let bit = |cell: Cell| 1u128 << (grid.get(cell) - 1);
        let mut crossing = 0u128;
        for (g, group) in self.crossing.iter().enumerate() {
            let digits = group.iter().filter(|c| inside(c)).fold(0u128, |m, &c| m | bit(c));
            crossing |= digits << (g * n);
        }
        [self.signature(grid, band), crossing]
    }
}

/// How far a band's tally may grow (in distinct signatures) while three
/// bands are tallied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cap {
    /// As far as it goes.
    Free,
    /// Past this, the band is put off and enumerated again last.
    Defer(usize),
    /// Past this, the bands decline: the join would look at more pairs
    /// than it may.
    Decline(usize),
}

/// The cap on the next band's tally, from the signatures of the bands
/// tallied (`done`) and whether one was put off. The join looks at the
/// pairs of the two smallest tallies, at most `max_pairs` of them; a tally
/// that cannot be among those two need not be built to find that out:
///
/// - after two tallies `m <= M`: if `m M` is within `max_pairs`, so is the
///   join, whatever the third; else the third's `c` brings the smallest
///   two's product past `max_pairs` exactly when `c > max_pairs / m`
///   (`c >= M`: `m M`; `m <= c < M`: `m c`; `c < m`: `c m`);
/// - after one tally `a`, with `k = max(a, max_pairs / a)`: a second band
///   past `k` is put off; if the third passes `k` too, both are larger
///   than `a`, and the smallest two are `a` and one past `max_pairs / a`,
///   so the bands decline; if the third stays within `k`, the band put
///   off is enumerated again, capped as the third of the first case.
///
/// The Sudoku P grids under row 1 and column 1 given (tallies of 84
/// thousand, 9.8 million and 2.1 million signatures, 1.8e11 pairs) so
/// decline after 84 thousand signatures of each of the larger two, in
/// megabytes rather than a gigabyte.
fn cap(done: &[usize], deferred: bool, max_pairs: u128) -> Cap {
    let at_most = |pairs: u128| usize::try_from(pairs).unwrap_or(usize::MAX);
    match *done {
        [a] => {
            let a = a.max(1);
            let k = a.max(at_most(max_pairs / a as u128));
            if deferred {
                Cap::Decline(k)
            } else {
                Cap::Defer(k)
            }
        }
        [x, y] => {
            let (m, big) = (x.min(y) as u128, x.max(y) as u128);
            if m * big > max_pairs {
                Cap::Decline(at_most(max_pairs / m))
            } else {
                Cap::Free
            }
        }
        _ => Cap::Free,
    }
}

/// The sum over the pairs of `a`'s and `b`'s signatures that miss each
/// other's digits in every column and crossing group, of their fillings
/// times `c`'s at the digits left; `b`'s groups shared out among the
/// threads in blocks, read in place (`a`, the smallest tally, is
/// the one copied). `None` if stopped.
fn join(
    jobs: usize,
    a: &Tally,
    b: &Tally,
    c: &Tally,
    full: Key,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<(Sum, u128)>, CountError> {
    let a: Vec<(Key, u64)> = a.iter().collect();
    // Sixty-four blocks of b's groups a thread.
    let groups: Vec<&HashMap<Key, u64>> = b.groups.values().collect();
    let blocks: Vec<&[&HashMap<Key, u64>]> = groups.chunks(groups.len().div_ceil(64 * jobs.max(1)).max(1)).collect();
    let indices: Vec<usize> = (0..blocks.len()).collect();
    let sums = super::per_class(jobs, &indices, stop, |&block| {
        let (mut sum, mut pairs) = (Sum::default(), 0u128);
        // Group by group, so that the digits left fall in one group of
        // `c` for a run of pairs.
        for group in blocks[block] {
            for &(s, count) in &a {
                for (&t, &other) in group.iter().filter(|(t, _)| s[0] & t[0] == 0 && s[1] & t[1] == 0) {
                    pairs += 1;
                    let rest = [full[0] ^ s[0] ^ t[0], full[1] ^ s[1] ^ t[1]];
                    let third = c.get(rest);
                    if third != 0 {
                        let pair = u128::from(count).checked_mul(u128::from(other)).ok_or_else(too_large)?;
                        sum.add(pair, u128::from(third))?;
                    }
                }
            }
        }
        Ok(Some((sum, pairs)))
    })?;
    Ok(super::gathered(sums))
}

/// A band's signatures and their fillings, in groups by the digits of
/// the first two stacks' columns. The search fills those stacks first, so
/// the fillings of a group come together and its map, a few thousandths
/// of the whole, stays in cache while they are tallied (one map of nine
/// million signatures was four times slower, each step a cache miss).
struct Tally {
    /// The bits of a signature's first word that pick its group.
    front: u128,
    groups: HashMap<u128, HashMap<Key, u64>>,
    /// Distinct signatures.
    len: usize,
}

impl Tally {
    fn new(front: u128) -> Tally {
        Tally { front, groups: HashMap::default(), len: 0 }
    }

    fn add(&mut self, key: Key) {
        let group = self.groups.entry(key[0] & self.front).or_default();
        let count = group.entry(key).or_insert(0);
        self.len += usize::from(*count == 0);
        *count += 1;
    }

    /// The fillings with signature `key`.
    fn get(&self, key: Key) -> u64 {
        let group = self.groups.get(&(key[0] & self.front));
        group.and_then(|group| group.get(&key)).copied().unwrap_or(0)
    }

    /// Each signature and its fillings, group by group.
    fn iter(&self) -> impl Iterator<Item = (Key, u64)> + '_ {
        self.groups.values().flat_map(|group| group.iter().map(|(&key, &count)| (key, count)))
    }
}

/// A band's fillings on `places` tallied by their signatures, `jobs`
/// threads sharing out the groups of [`Tally`] (each group's fillings are
/// those below the places of the first two stacks filled with its digits:
/// a thread fills those places and goes on only into its own groups, a
/// few percent of the search repeated, and the tallies it builds are
/// disjoint, so they are put together as they are). With the fillings and
/// whether all were shown, as [`fill`] says, for at most `max` fillings in
/// all; a thread stops the others once its tally passes `most`
/// signatures (then the whole tally passes it too).
fn tally_fillings(
    places: &[Place],
    n: usize,
    front: u128,
    max: u128,
    most: usize,
    jobs: usize,
    stop: &(dyn Fn() -> bool + Sync),
) -> (Option<bool>, u128, Tally) {
    // Where the first two stacks are the whole band, each thread would
    // fill it all: one thread.
    let whole = places.iter().all(|place| front >> (place.at * n) & 1 == 1);
    let jobs = if whole { 1 } else { jobs.max(1) };
    let halt = AtomicBool::new(false);
    let share = |me: usize| {
        let halt = &halt;
        move || {
            let stopped = || stop() || halt.load(Ordering::Relaxed);
            let mut tally = Tally::new(front);
            let mut fillings = 0u128;
            let part = Part { front, me, jobs };
            let done = fill(places, n, max, &stopped, part, &mut |key| {
                fillings += 1;
                tally.add(key);
                tally.len <= most
            });
            if tally.len > most || done == Some(false) {
                halt.store(true, Ordering::Relaxed);
            }
            (done, fillings, tally)
        }
    };
    let parts: Vec<(Option<bool>, u128, Tally)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs).map(|me| scope.spawn(share(me))).collect();
        handles.into_iter().map(|handle| handle.join().expect("a band's thread panicked")).collect()
    });
    let mut tally = Tally::new(front);
    let (mut fillings, mut past_max, mut stopped) = (0u128, false, false);
    for (done, filled, part) in parts {
        fillings += filled;
        tally.len += part.len;
        tally.groups.extend(part.groups);
        past_max |= done == Some(false);
        stopped |= done.is_none();
    }
    let done = if past_max || fillings > max {
        Some(false)
    } else if stopped {
        None
    } else {
        Some(true)
    };
    (done, fillings, tally)
}

/// Which groups of [`Tally`] a thread of [`tally_fillings`] fills: those
/// its owner function gives `me` of `jobs`.
#[derive(Clone, Copy, Debug)]
struct Part {
    front: u128,
    me: usize,
    jobs: usize,
}

impl Part {
    /// Whether the group of the signature's first word `key` is this part's.
    fn owns(&self, key: u128) -> bool {
        let group = key & self.front;
        let mixed = ((group as u64) ^ ((group >> 64) as u64)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> 32) as usize % self.jobs == self.me
    }
}

/// A band cell for [`fill`]: its column, the digits it may hold, the
/// band's groups it is in (bits), the crossing groups it is in (bits).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Place {
    at: usize,
    allowed: u64,
    groups: u64,
    crossing: u128,
}

/// Enumerates a band's fillings (each cell a digit it may hold, no two
/// alike in a group), those of `part`'s groups (the places of the first
/// two stacks come first), and shows each one's [`Key`] to `each`: a plain
/// depth-first search on bitmasks (digits `1..=n`), the engine's work without its
/// generality, for bands of tens of millions of fillings. `each` returns
/// whether to go on. `Some(true)` when all were shown, `Some(false)` past
/// `max`, `None` if stopped (by `stop` or by `each`).
fn fill(
    places: &[Place],
    n: usize,
    max: u128,
    stop: &dyn Fn() -> bool,
    part: Part,
    each: &mut dyn FnMut(Key) -> bool,
) -> Option<bool> {
    struct Search<'a> {
        places: &'a [Place],
        n: usize,
        part: Part,
        /// The places of the first two stacks, which make the group.
        front_places: usize,
        used: [u64; 64],
        key: Key,
        shown: u128,
        max: u128,
        stopped: bool,
    }
    impl Search<'_> {
        fn go(&mut self, i: usize, stop: &dyn Fn() -> bool, each: &mut dyn FnMut(Key) -> bool) {
            if i == self.front_places && !self.part.owns(self.key[0]) {
                return;
            }
            let Some(place) = self.places.get(i) else {
                self.shown += 1;
                if self.shown > self.max || (self.shown % (1 << 20) == 0 && stop()) {
                    self.stopped = true;
                    return;
                }
                self.stopped = !each(self.key);
                return;
            };
            let mut taken = 0u64;
            let mut groups = place.groups;
            while groups != 0 {
                taken |= self.used[groups.trailing_zeros() as usize];
                groups &= groups - 1;
            }
            let mut free = place.allowed & !taken;
            while free != 0 && !self.stopped {
                let d = free.trailing_zeros();
                free &= free - 1;
                let bit = 1u64 << d;
                let mut groups = place.groups;
                while groups != 0 {
                    self.used[groups.trailing_zeros() as usize] |= bit;
                    groups &= groups - 1;
                }
                // A column's cells in a band share a box, a crossing
                // group's are a group of the band: no two alike, so the
                // signature's bits are set and cleared by toggling.
                let n = self.n;
                let mark = |key: &mut Key| {
                    key[0] ^= 1u128 << (place.at * n + d as usize);
                    let mut crossing = place.crossing;
                    while crossing != 0 {
                        let g = crossing.trailing_zeros() as usize;
                        key[1] ^= 1u128 << (g * n + d as usize);
                        crossing &= crossing - 1;
                    }
                };
                mark(&mut self.key);
                self.go(i + 1, stop, each);
                mark(&mut self.key);
                let mut groups = place.groups;
                while groups != 0 {
                    self.used[groups.trailing_zeros() as usize] &= !bit;
                    groups &= groups - 1;
                }
            }
        }
    }
    let front_places = places.iter().take_while(|place| part.front >> (place.at * n) & 1 == 1).count();
    let mut search =
        Search { places, n, part, front_places, used: [0; 64], key: [0, 0], shown: 0, max, stopped: false };
    search.go(0, stop, each);
    match (search.stopped, search.shown > max) {
        (false, _) => Some(true),
        (true, true) => Some(false),
        (true, false) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{cap, Cap};

    /// Three tallies' sizes run through the caps as `count_crossing` does
    /// (a band past a `Defer` cap put off and tallied again last): whether
    /// the bands decline.
    fn declines(sizes: [usize; 3], max_pairs: u128) -> bool {
        let mut order = std::collections::VecDeque::from(sizes);
        let (mut done, mut deferred) = (Vec::new(), false);
        while let Some(size) = order.pop_front() {
            match cap(&done, deferred, max_pairs) {
                Cap::Decline(most) if size > most => return true,
                Cap::Defer(most) if size > most => {
                    deferred = true;
                    order.push_back(size);
                }
                _ => done.push(size),
            }
        }
        false
    }

    /// The caps decline exactly when the two smallest tallies make more
    /// pairs than the join may look at (sorted here, apart from `cap`),
    /// for every order of every three sizes up to 40 and caps up to 400;
    /// and the Sudoku P tallies under a given row and column decline
    /// after the first band's size of each other band.
    #[test]
    fn the_caps_decline_exactly_when_the_join_would() {
        for (a, b, c) in itertools::iproduct!(1..=40usize, 1..=40, 1..=40) {
            let mut sorted = [a, b, c];
            sorted.sort_unstable();
            for max_pairs in 1..=400u128 {
                let over = (sorted[0] * sorted[1]) as u128 > max_pairs;
                assert_eq!(declines([a, b, c], max_pairs), over, "{a} {b} {c} {max_pairs}");
            }
        }
        assert_eq!(cap(&[84_006], false, 1 << 30), Cap::Defer(84_006));
        assert_eq!(cap(&[84_006], true, 1 << 30), Cap::Decline(84_006));
        assert_eq!(cap(&[100], false, 1 << 30), Cap::Defer(10_737_418));
        assert_eq!(cap(&[3, 10], false, 20), Cap::Decline(6));
        assert_eq!(cap(&[4, 5], false, 20), Cap::Free);
        assert_eq!(cap(&[], false, 20), Cap::Free);
    }
}
