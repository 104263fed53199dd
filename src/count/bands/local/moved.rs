//! Bands moved onto bands: the grids a geometric motion `g` maps onto a
//! relabelling `r` of themselves, `x(g(p)) = r(x(p))` at every cell `p`,
//! when `g` moves the lines and the positions along them of the oriented
//! grid, and so each band onto a band (`count::burnside`, for the motions
//! that move the bands and the stacks alike).
//!
//! Follow a cycle of `k` bands `b, g(b), ..., g^(k-1)(b)`. The rule fills
//! each band after the first from the one before it (`x = r o x o g^-1`
//! there), so the cycle's bands are its first band's filling moved, and
//! the rule holds on the whole cycle exactly when the first band's filling
//! has `x(g^k(p)) = r^k(x(p))` at each of its cells: a rule inside the
//! band, which `g^k` maps onto itself. A moved band is a band's filling
//! (`g` maps lines and boxes onto lines and boxes), and its signature is
//! the first band's moved, `T(s)`: column `c`'s digits, renamed by `r`, in
//! column `g(c)`. The columns hold each digit once when the cycles'
//! signatures `s, T(s), ..., T^(k-1)(s)` together partition every column.
//! So the grids are the sum, over the first bands' signatures whose
//! cycles partition every column, of the product of the first bands'
//! fillings `N_i(s_i)` under the rule `g^k`, `r^k`: each grid is one term
//! (its first bands' fillings), and each term's fillings, moved, make one
//! grid.
//!
//! A cycle's first band is enumerated and its signatures tallied when it
//! has a rule of its own. Without one (`g^k` leaves each of its cells
//! where it is and `r^k` is the identity) its fillings are the blank
//! layout's `N`, read from the table, and its signatures are listed
//! column by column (each stack's columns partitioning the digits), a
//! partial signature dropped as soon as its cycle's signatures meet in a
//! column; the stacks fall into orbits under `g`, whose columns never
//! meet another orbit's, so each orbit is listed apart and the lists are
//! combined. With one cycle through every band the grids are the
//! fillings of the signatures whose cycle partitions every column; with
//! three bands, one of them fixed and a cycle of two, the sum over the
//! cycle's unions `u` of their fillings times the fixed band's `N` at
//! the digits left. With four bands (8x8's bands of two rows) every
//! cycle's first band must have a rule of its own, and the cycles'
//! unions are joined in two halves ([`Local::count_cycles`]).

use std::collections::HashMap;

use itertools::Itertools;
use num_bigint::BigUint;

use super::{Blank, Enumerate, Local, LocalCount, Outcome, Sum, Tabled, MAX_PAIRS};
use crate::count::CountError;

/// How a motion moves the bands of the oriented grid, and the relabelling
/// that comes with it.
#[derive(Clone, Debug)]
pub struct Moved {
    /// The bands' cycles, each from its first band: band `cycle[j]` moves
    /// onto band `cycle[j + 1]`.
    pub cycles: Vec<Vec<usize>>,
    /// The position each position along a line moves to.
    pub positions: Vec<usize>,
    /// The relabelling: digit `d` becomes `rename[d - 1]`.
    pub rename: Vec<u8>,
}

impl Moved {
    /// A band's signature moved (`T`): column `c`'s digits renamed, in
    /// column `positions[c]`. `n` is the side.
    fn moved(&self, signature: u128, n: usize) -> u128 {
        let mut moved = 0;
        for (c, &to) in self.positions.iter().enumerate() {
            let mut digits = (signature >> (c * n)) & ((1u128 << n) - 1);
            let mut renamed = 0u128;
            while digits != 0 {
                renamed |= 1 << (self.rename[digits.trailing_zeros() as usize] - 1);
                digits &= digits - 1;
            }
            moved |= renamed << (to * n);
        }
        moved
    }

    /// The union of a cycle of `k` bands' signatures, from its first
    /// band's; `None` if two of them meet in a column. A partial
    /// signature (some columns empty) meets only where its completions do.
    fn cycle(&self, signature: u128, k: usize, n: usize) -> Option<u128> {
        let (mut union, mut band) = (signature, signature);
        for _ in 1..k {
            band = self.moved(band, n);
            if union & band != 0 {
                return None;
            }
            union |= band;
        }
        Some(union)
    }

    /// A cycle of `k` bands' unions, each with the fillings of its first
    /// band's signatures that make it ([`Moved::cycle`]).
    fn unions(&self, tally: &HashMap<u128, u64>, k: usize, n: usize) -> HashMap<u128, u128> {
        let mut unions: HashMap<u128, u128> = HashMap::new();
        for (&signature, &fillings) in tally {
            if let Some(union) = self.cycle(signature, k, n) {
                *unions.entry(union).or_default() += u128::from(fillings);
            }
        }
        unions
    }
}

impl Local {
    /// Counts the grids `moved` maps onto themselves (see the module):
    /// `self` holds the rule `g^k`, `r^k` inside each cycle's first band
    /// and nothing else. `enumerate`, `blank` and `stop` are as
    /// [`Local::count`] takes them.
    pub fn count_moved(
        &self,
        moved: &Moved,
        jobs: usize,
        enumerate: &Enumerate,
        blank: Option<&Blank>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Outcome, CountError> {
        let (h, w) = (self.h, self.w);
        let n = h * w;
        if w > 3 {
            return self.count_cycles(moved, jobs, enumerate, stop);
        }
        // Three bands at most: one cycle through them all, or a fixed band
        // and a cycle of two.
        let Some(long) = moved.cycles.iter().find(|cycle| cycle.len() > 1) else {
            return self.count(jobs, enumerate, blank, stop);
        };
        let tallied = match self.tally_own(jobs, enumerate, stop)? {
            Ok(tallied) => tallied,
            Err(outcome) => return Ok(outcome),
        };
        let own: Vec<usize> = self.own().collect();
        let report = own.iter().zip(&tallied).map(|(&b, (tally, fillings))| (b, *fillings, tally.len())).collect();
        let classes = blank.map(|blank| blank.tabled.classes.roots.len());
        if tallied.iter().any(|(tally, _)| tally.is_empty()) {
            // A band with no filling: no grid (and no free band to list).
            return Ok(Outcome::Counted(LocalCount { grids: BigUint::default(), own: report, classes, pairs: 0 }));
        }
        let tally = |band: usize| own.iter().position(|&b| b == band).map(|i| &tallied[i].0);
        let tabled = blank.map(|blank| &blank.tabled);
        let k = long.len();
        let unions = match tally(long[0]) {
            Some(tally) => moved.unions(tally, k, n),
            None => {
                let Some(tabled) = tabled else {
                    return Ok(Outcome::TooLarge("a free band needs the blank layout's table".into()));
                };
                match self.free_unions(moved, k, tabled, stop) {
                    Some(unions) => unions,
                    None => return Ok(Outcome::Stopped),
                }
            }
        };
        let full = (0..n).fold(0u128, |key, at| key | ((1u128 << n) - 1) << (at * n));
        let mut sum = Sum::default();
        if k == w {
            sum.add(unions.get(&full).copied().unwrap_or(0), 1)?;
        } else {
            // A fixed band with no rule of its own is one the motion leaves
            // cell by cell with the identity relabelling: then it moves no
            // position, the cycle of two moves its first band onto itself
            // unrenamed, and no signature's cycle is disjoint: no grid.
            let fixed = moved.cycles.iter().find(|cycle| cycle.len() == 1).expect("a fixed band")[0];
            if let Some(tally) = tally(fixed) {
                for (&union, &fillings) in &unions {
                    let other = tally.get(&(full ^ union)).map_or(0, |&c| u128::from(c));
                    sum.add(fillings, other)?;
                }
            }
        }
        Ok(Outcome::Counted(LocalCount { grids: sum.total(), own: report, classes, pairs: 0 }))
    }

    /// [`Local::count_moved`] with four bands or more, every cycle's first
    /// band a rule of its own (else `TooLarge`: no table lists a free
    /// band's signatures here). Each cycle's unions are tallied from its
    /// first band's signatures; the cycles are split in two halves, the
    /// unions of each half joined pair by pair where they miss each other
    /// (at most [`MAX_PAIRS`] pairs), and the halves joined where one is
    /// the other's complement in every column.
    fn count_cycles(
        &self,
        moved: &Moved,
        jobs: usize,
        enumerate: &Enumerate,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Outcome, CountError> {
        let n = self.h * self.w;
        if moved.cycles.iter().any(|cycle| self.own[cycle[0]].is_none()) {
            return Ok(Outcome::TooLarge(format!("{} bands, one of them free", self.w)));
        }
        let tallied = match self.tally_own(jobs, enumerate, stop)? {
            Ok(tallied) => tallied,
            Err(outcome) => return Ok(outcome),
        };
        let own: Vec<usize> = self.own().collect();
        let report = own.iter().zip(&tallied).map(|(&b, (tally, fillings))| (b, *fillings, tally.len())).collect();
        let unions: Vec<HashMap<u128, u128>> = moved
            .cycles
            .iter()
            .map(|cycle| {
                let tally = &tallied[own.iter().position(|&b| b == cycle[0]).expect("tallied")].0;
                moved.unions(tally, cycle.len(), n)
            })
            .collect();
        // Halves of about as many bands each.
        let mut bands = 0;
        let split = moved.cycles.iter().take_while(|cycle| {
            bands += cycle.len();
            bands - cycle.len() < self.w / 2
        });
        let split = split.count().max(1).min(unions.len());
        let joined = |unions: &[HashMap<u128, u128>]| -> Result<Option<HashMap<u128, u128>>, CountError> {
            let mut joined: HashMap<u128, u128> = HashMap::from([(0, 1)]);
            for next in unions {
                if (joined.len() as u128) * (next.len() as u128) > MAX_PAIRS {
                    return Ok(None);
                }
                let mut more: HashMap<u128, u128> = HashMap::new();
                for (&a, &x) in &joined {
                    if stop() {
                        return Ok(None);
                    }
                    for (&b, &y) in next.iter().filter(|&(&b, _)| a & b == 0) {
                        let product = x.checked_mul(y).ok_or_else(super::too_large)?;
                        let entry = more.entry(a | b).or_default();
                        *entry = entry.checked_add(product).ok_or_else(super::too_large)?;
                    }
                }
                joined = more;
            }
            Ok(Some(joined))
        };
        let (Some(left), Some(right)) = (joined(&unions[..split])?, joined(&unions[split..])?) else {
            return Ok(if stop() { Outcome::Stopped } else { Outcome::TooLarge(format!("past {MAX_PAIRS} pairs")) });
        };
        let full = (0..n).fold(0u128, |key, at| key | ((1u128 << n) - 1) << (at * n));
        let mut sum = Sum::default();
        for (&union, &fillings) in &left {
            sum.add(fillings, right.get(&(full ^ union)).copied().unwrap_or(0))?;
        }
        Ok(Outcome::Counted(LocalCount { grids: sum.total(), own: report, classes: None, pairs: 0 }))
    }

    /// The unions of a cycle of `k` bands whose first band is free, each
    /// with the blank layout's fillings of the signatures that make it.
    /// The motion moves stacks onto stacks, so whether a cycle's
    /// signatures meet is settled within each orbit of the stacks apart:
    /// each orbit's parts of signatures are listed column by column (a
    /// part dropped once its cycle's signatures meet), and the signatures
    /// are the orbits' parts combined. `None` if stopped.
    fn free_unions(
        &self,
        moved: &Moved,
        k: usize,
        tabled: &Tabled,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<HashMap<u128, u128>> {
        let (h, w) = (self.h, self.w);
        let n = h * w;
        let all = (1u128 << n) - 1;
        // The columns' possible digits: every set of `h` of them.
        let subsets: Vec<u128> = (0..n).combinations(h).map(|set| set.iter().fold(0, |m, &d| m | 1 << d)).collect();
        let mut orbits: Vec<Vec<usize>> = Vec::new();
        for stack in 0..h {
            if orbits.iter().flatten().any(|&s| s == stack) {
                continue;
            }
            let mut orbit = vec![stack];
            while let Some(next) = Some(moved.positions[orbit[orbit.len() - 1] * w] / w).filter(|&s| s != stack) {
                orbit.push(next);
            }
            orbits.push(orbit);
        }
        // Per orbit, its valid parts: (part of the signature, its cycle's union).
        let mut parts: Vec<Vec<(u128, u128)>> = Vec::with_capacity(orbits.len());
        let mut visited = 0u64;
        for orbit in &orbits {
            let mut valid = Vec::new();
            // Depth-first over the orbit's columns, stack by stack: (signature
            // so far, the digits its stack has left, the next set to try).
            let mut path: Vec<(u128, u128, usize)> = vec![(0, all, 0)];
            while let Some(&(signature, left, next)) = path.last() {
                let depth = path.len() - 1;
                if depth == orbit.len() * w {
                    valid.push((signature, moved.cycle(signature, k, n).expect("checked")));
                    path.pop();
                    continue;
                }
                let Some(offset) = subsets[next..].iter().position(|&set| set & !left == 0) else {
                    path.pop();
                    continue;
                };
                path.last_mut().expect("the column's place").2 = next + offset + 1;
                visited += 1;
                if visited % 4096 == 0 && stop() {
                    return None;
                }
                let set = subsets[next + offset];
                let column = orbit[depth / w] * w + depth % w;
                let placed = signature | set << (column * n);
                if moved.cycle(placed, k, n).is_some() {
                    let left = if depth % w == w - 1 { all } else { left & !set };
                    path.push((placed, left, 0));
                }
            }
            parts.push(valid);
        }
        let mut unions: HashMap<u128, u128> = HashMap::new();
        for (i, combined) in parts.iter().multi_cartesian_product().enumerate() {
            if i % 4096 == 0 && stop() {
                return None;
            }
            let (signature, union) = combined.iter().fold((0, 0), |(s, u), &&(part, of)| (s | part, u | of));
            *unions.entry(union).or_default() += tabled.fillings[tabled.class(signature, h, w)];
        }
        Some(unions)
    }
}
