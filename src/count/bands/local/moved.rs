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

use rustc_hash::FxHashMap as HashMap;

use itertools::Itertools;
use num_bigint::BigUint;

use super::{Blank, Enumerate, Local, LocalCount, Outcome, Sum, MAX_PAIRS};
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
        let mut unions: HashMap<u128, u128> = HashMap::default();
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
        let tallied = match self.tally_own_joined(jobs, enumerate, stop)? {
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
                let fillings = |signature: u128| tabled.fillings[tabled.class(signature, h, w)];
                match self.free_unions(moved, k, Fillings::Table(&fillings), stop) {
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

    /// [`Local::count_moved`] with four bands or more. Each cycle's unions
    /// come from its first band's signatures: tallied by the engine where
    /// the band has a rule of its own; listed where it is free, which needs
    /// bands of two lines, whose fillings are [`two_line_fillings`], and a
    /// band the motion moves (`TooLarge` otherwise: no table lists a free
    /// band's signatures here). The cycles are split in two halves
    /// ([`halves`]); the unions of each half are joined pair by pair where
    /// they miss each other (at most [`MAX_PAIRS`] pairs), and the halves
    /// joined where one is the other's complement in every column: every
    /// choice of the cycles' first bands' signatures whose cycles
    /// partition every column is one term, whatever the split.
    fn count_cycles(
        &self,
        moved: &Moved,
        jobs: usize,
        enumerate: &Enumerate,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Outcome, CountError> {
        let n = self.h * self.w;
        let free = |cycle: &[usize]| self.own[cycle[0]].is_none();
        if self.h != 2 && moved.cycles.iter().any(|cycle| free(cycle)) {
            return Ok(Outcome::TooLarge(format!("{} bands of {} lines, one of them free", self.w, self.h)));
        }
        // A free band the motion leaves in place would have all its
        // signatures listed, and has no grid: the motion then moves no cell
        // of it and renames no digit, so no column either, and a cycle of
        // bands repeats its first band's signature. Left to the engine.
        if moved.cycles.iter().filter(|cycle| cycle.len() == 1).any(|cycle| free(cycle)) {
            return Ok(Outcome::TooLarge("a free band left in place".into()));
        }
        let tallied = match self.tally_own_joined(jobs, enumerate, stop)? {
            Ok(tallied) => tallied,
            Err(outcome) => return Ok(outcome),
        };
        let own: Vec<usize> = self.own().collect();
        let report = own.iter().zip(&tallied).map(|(&b, (tally, fillings))| (b, *fillings, tally.len())).collect();
        if tallied.iter().any(|(tally, _)| tally.is_empty()) {
            // A band with no filling: no grid (and no free band to list).
            return Ok(Outcome::Counted(LocalCount {
                grids: BigUint::default(),
                own: report,
                classes: None,
                pairs: 0,
            }));
        }
        let mut unions: Vec<HashMap<u128, u128>> = Vec::with_capacity(moved.cycles.len());
        for (i, cycle) in moved.cycles.iter().enumerate() {
            let k = cycle.len();
            match own.iter().position(|&b| b == cycle[0]) {
                Some(at) => unions.push(moved.unions(&tallied[at].0, k, n)),
                // Free cycles of the same length have the same unions (the
                // motion and the relabelling alone make them).
                None => match moved.cycles[..i].iter().position(|before| before.len() == k && free(before)) {
                    Some(same) => unions.push(unions[same].clone()),
                    None => match self.free_unions(moved, k, Fillings::TwoLines, stop) {
                        Some(listed) => unions.push(listed),
                        None => return Ok(Outcome::Stopped),
                    },
                },
            }
        }
        let (left_half, _) = halves(&unions.iter().map(HashMap::len).collect::<Vec<_>>());
        let (mut left_unions, mut right_unions) = (Vec::new(), Vec::new());
        for (i, cycle_unions) in unions.into_iter().enumerate() {
            let half = if left_half.contains(&i) { &mut left_unions } else { &mut right_unions };
            half.push(cycle_unions);
        }
        let joined = |unions: &[HashMap<u128, u128>]| -> Result<Option<HashMap<u128, u128>>, CountError> {
            let mut joined: HashMap<u128, u128> = HashMap::from_iter([(0, 1)]);
            for next in unions {
                if (joined.len() as u128) * (next.len() as u128) > MAX_PAIRS {
                    return Ok(None);
                }
                // Scanned once for each of `joined`'s: a list is faster to
                // walk than a map. `joined` shared out among the threads,
                // their maps added up.
                let next: Vec<(u128, u128)> = next.iter().map(|(&b, &y)| (b, y)).collect();
                let pairs: Vec<(u128, u128)> = joined.iter().map(|(&a, &x)| (a, x)).collect();
                let chunk = pairs.len().div_ceil(jobs.max(1)).max(1);
                let parts = std::thread::scope(|scope| {
                    let next = &next;
                    let handles: Vec<_> =
                        pairs.chunks(chunk).map(|part| scope.spawn(move || join_pairs(part, next, stop))).collect();
                    handles.into_iter().map(|handle| handle.join().expect("a join thread panicked")).collect::<Vec<_>>()
                });
                let mut more: HashMap<u128, u128> = HashMap::default();
                for part in parts {
                    let Some(part) = part? else { return Ok(None) };
                    if more.is_empty() {
                        more = part;
                        continue;
                    }
                    for (union, fillings) in part {
                        let entry = more.entry(union).or_default();
                        *entry = entry.checked_add(fillings).ok_or_else(super::too_large)?;
                    }
                }
                joined = more;
            }
            Ok(Some(joined))
        };
        // Halves whose cycles have the same unions (bands the motion treats
        // alike) join alike.
        let left = joined(&left_unions)?;
        let right = if right_unions == left_unions { left.clone() } else { joined(&right_unions)? };
        let (Some(left), Some(right)) = (left, right) else {
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
    /// with the fillings (`fillings` of each signature: the blank layout's,
    /// or [`Fillings::TwoLines`]) of the signatures that make it.
    /// The motion moves stacks onto stacks, so whether a cycle's
    /// signatures meet is settled within each orbit of the stacks apart:
    /// each orbit's parts of signatures are listed column by column (a
    /// part dropped once its cycle's signatures meet), and the signatures
    /// are the orbits' parts combined. `None` if stopped.
    ///
    /// The cycle's union is built as the part grows: column `c`'s digit
    /// set `S` is, in the cycle's `j`-th band, `r^j(S)` in column
    /// `g^j(c)`, so the cycle's bands meet exactly when one of these
    /// pieces meets the union of those before it. The orbits' parts are
    /// grouped by their unions, so that each combination of groups is
    /// one union, entered once with the fillings of its signatures
    /// summed.
    fn free_unions(
        &self,
        moved: &Moved,
        k: usize,
        fillings: Fillings,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<HashMap<u128, u128>> {
        let (h, w) = (self.h, self.w);
        let n = h * w;
        let all = (1u128 << n) - 1;
        // The columns' possible digits: every set of `h` of them, and each
        // renamed by `r^j` for `j < k`.
        let subsets: Vec<u128> = (0..n).combinations(h).map(|set| set.iter().fold(0, |m, &d| m | 1 << d)).collect();
        // The sets that fit in each set of digits left (`n` is at most 11).
        let within: Vec<Vec<usize>> =
            (0..1u128 << n).map(|left| (0..subsets.len()).filter(|&at| subsets[at] & !left == 0).collect()).collect();
        let rename =
            |set: u128| (0..n).filter(|&d| set >> d & 1 == 1).fold(0u128, |m, d| m | 1 << (moved.rename[d] - 1));
        let renamed: Vec<Vec<u128>> = subsets
            .iter()
            .map(|&set| (0..k).scan(set, |at, _| Some(std::mem::replace(at, rename(*at)))).collect())
            .collect();
        // Column `c`'s images, `g^j(c)` for `j < k`.
        let images: Vec<Vec<usize>> = (0..n)
            .map(|c| (0..k).scan(c, |at, _| Some(std::mem::replace(at, moved.positions[*at]))).collect())
            .collect();
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
            // so far, its cycle's union, the digits its stack has left, the
            // next of the sets within them to try).
            let mut path: Vec<(u128, u128, u128, usize)> = vec![(0, 0, all, 0)];
            while let Some(&(signature, union, left, next)) = path.last() {
                let depth = path.len() - 1;
                if depth == orbit.len() * w {
                    valid.push((signature, union));
                    path.pop();
                    continue;
                }
                let Some(&at) = within[left as usize].get(next) else {
                    path.pop();
                    continue;
                };
                path.last_mut().expect("the column's place").3 = next + 1;
                visited += 1;
                if visited % 4096 == 0 && stop() {
                    return None;
                }
                let column = orbit[depth / w] * w + depth % w;
                let mut grown = union;
                let apart = renamed[at].iter().zip(&images[column]).all(|(&piece, &to)| {
                    let piece = piece << (to * n);
                    let apart = grown & piece == 0;
                    grown |= piece;
                    apart
                });
                if apart {
                    let left = if depth % w == w - 1 { all } else { left & !subsets[at] };
                    path.push((signature | subsets[at] << (column * n), grown, left, 0));
                }
            }
            parts.push(valid);
        }
        if let [valid] = parts.as_slice() {
            // One orbit: each part is a signature.
            let mut unions: HashMap<u128, u128> = HashMap::default();
            for &(signature, union) in valid {
                *unions.entry(union).or_default() += fillings.of(signature, n);
            }
            return Some(unions);
        }
        // Each orbit's parts grouped by their unions.
        let groups: Vec<Vec<(u128, Vec<u128>)>> = parts
            .into_iter()
            .map(|mut valid| {
                valid.sort_unstable_by_key(|&(_, union)| union);
                let chunks = valid.chunk_by(|a, b| a.1 == b.1);
                chunks.map(|chunk| (chunk[0].1, chunk.iter().map(|&(part, _)| part).collect())).collect()
            })
            .collect();
        // The fillings of the signatures of one group from each orbit
        // (`chosen[i]`: orbit `i`'s group).
        let fillings_of: ChosenFillings = match fillings {
            Fillings::TwoLines if groups.len() == 2 => {
                // Two stacks, each its own orbit: a part is one stack's
                // columns, whose fillings' count depends only on which
                // digits share a column (`two_line_fillings` follows
                // digits from column to column), so on the pairs each
                // part makes, whatever their order: a table over the
                // pairings met.
                let (ids, representatives): (Vec<Vec<Vec<usize>>>, Vec<Vec<u128>>) =
                    groups.iter().map(|orbit| pairings(orbit, n)).unzip();
                let table: Vec<Vec<u128>> = representatives[0]
                    .iter()
                    .map(|&a| representatives[1].iter().map(|&b| two_line_fillings(a | b, n)).collect())
                    .collect();
                Box::new(move |chosen: &[usize]| {
                    let (left, right) = (&ids[0][chosen[0]], &ids[1][chosen[1]]);
                    left.iter().map(|&a| right.iter().map(|&b| table[a][b]).sum::<u128>()).sum()
                })
            }
            _ => Box::new(|chosen: &[usize]| sum_product(&groups, chosen, &|s| fillings.of(s, n))),
        };
        let mut unions: HashMap<u128, u128> = HashMap::default();
        for (i, chosen) in groups.iter().map(|orbit| 0..orbit.len()).multi_cartesian_product().enumerate() {
            if i % 4096 == 0 && stop() {
                return None;
            }
            let union = chosen.iter().zip(&groups).fold(0, |u, (&j, orbit)| u | orbit[j].0);
            *unions.entry(union).or_default() += fillings_of(&chosen);
        }
        Some(unions)
    }
}

/// The unions of `left`'s and `right`'s where they miss each other, each
/// with the product of their fillings summed; `None` if stopped.
fn join_pairs(
    left: &[(u128, u128)],
    right: &[(u128, u128)],
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<HashMap<u128, u128>>, CountError> {
    let mut more: HashMap<u128, u128> = HashMap::default();
    for &(a, x) in left {
        if stop() {
            return Ok(None);
        }
        for &(b, y) in right.iter().filter(|&&(b, _)| a & b == 0) {
            let product = x.checked_mul(y).ok_or_else(super::too_large)?;
            let entry = more.entry(a | b).or_default();
            *entry = entry.checked_add(product).ok_or_else(super::too_large)?;
        }
    }
    Ok(Some(more))
}

/// The fillings of the signatures made of one chosen group of parts from
/// each orbit, by the groups' numbers ([`Local::free_unions`]).
type ChosenFillings<'a> = Box<dyn Fn(&[usize]) -> u128 + 'a>;

/// How [`Local::free_unions`] counts a free band's fillings of a
/// signature.
pub(super) enum Fillings<'a> {
    /// From the blank layout's table.
    Table(&'a dyn Fn(u128) -> u128),
    /// A band of two lines: [`two_line_fillings`].
    TwoLines,
}

impl Fillings<'_> {
    /// The fillings of `signature` (`n` the side).
    fn of(&self, signature: u128, n: usize) -> u128 {
        match self {
            Fillings::Table(table) => table(signature),
            Fillings::TwoLines => two_line_fillings(signature, n),
        }
    }
}

/// The sum, over one part from each orbit's chosen group, of the
/// fillings of the signature they make.
fn sum_product(groups: &[Vec<(u128, Vec<u128>)>], chosen: &[usize], fillings: &dyn Fn(u128) -> u128) -> u128 {
    let members = chosen.iter().zip(groups).map(|(&j, orbit)| orbit[j].1.iter());
    members.multi_cartesian_product().map(|parts| fillings(parts.iter().fold(0, |s, &&p| s | p))).sum()
}

/// A stack's part of a two-line band's signature as the pairs of digits
/// its columns hold, sorted: the same for parts that differ only in the
/// columns' order.
fn pairing(part: u128, n: usize) -> u128 {
    let mut columns: Vec<u128> =
        (0..n).map(|c| (part >> (c * n)) & ((1u128 << n) - 1)).filter(|&set| set != 0).collect();
    columns.sort_unstable();
    columns.iter().enumerate().fold(0, |key, (i, &set)| key | set << (i * n))
}

/// An orbit's parts, group by group, each as the number of its pairing
/// ([`pairing`]) among those met, and a part that makes each pairing.
fn pairings(groups: &[(u128, Vec<u128>)], n: usize) -> (Vec<Vec<usize>>, Vec<u128>) {
    let mut ids: HashMap<u128, usize> = HashMap::default();
    let mut representatives = Vec::new();
    let numbered = groups
        .iter()
        .map(|(_, parts)| {
            let number = |&part: &u128| {
                *ids.entry(pairing(part, n)).or_insert_with(|| {
                    representatives.push(part);
                    representatives.len() - 1
                })
            };
            parts.iter().map(number).collect()
        })
        .collect();
    (numbered, representatives)
}

/// The cycles (by index, `sizes` their numbers of unions) split in two
/// halves for [`Local::count_cycles`]'s join, the split that looks at the
/// fewest pairs: a half of one cycle (or none) needs no pairs, one of more
/// about the product of its cycles' unions. The first such split in the
/// order of the cycles' bit masks, so the same on every run.
fn halves(sizes: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let pairs = |half: &[usize]| -> f64 {
        if half.len() < 2 {
            0.0
        } else {
            half.iter().map(|&i| sizes[i] as f64).product()
        }
    };
    let mut best: Option<(f64, Vec<usize>, Vec<usize>)> = None;
    for mask in 0u64..1 << sizes.len() {
        let (left, right): (Vec<usize>, Vec<usize>) = (0..sizes.len()).partition(|&i| mask >> i & 1 == 1);
        let cost = pairs(&left) + pairs(&right);
        if best.as_ref().is_none_or(|(least, _, _)| cost < *least) {
            best = Some((cost, left, right));
        }
    }
    best.map(|(_, left, right)| (left, right)).unwrap_or_default()
}

/// The fillings of a band of two lines with the signature `signature`
/// (`n` columns of `n` bits, each column's two digits; each stack's
/// columns partitioning the digits, as a band's do). A digit lies in one
/// column of each of the two stacks: joining the two, the columns fall
/// into cycles, each alternating columns and digits. A filling puts one
/// digit of each column in the first line, every digit exactly once: on a
/// cycle, either every column's digit shared with the next column along
/// it, or every column's shared with the one before (a column with the
/// same two digits as another makes a cycle of two with it). So `2^c`,
/// `c` the cycles.
fn two_line_fillings(signature: u128, n: usize) -> u128 {
    // `n` columns of `n` bits fit 128 bits: at most 11 columns.
    let mut parent = [0u8; 11];
    let mut holder = [u8::MAX; 11];
    fn root(parent: &mut [u8], mut at: u8) -> u8 {
        while parent[usize::from(at)] != at {
            parent[usize::from(at)] = parent[usize::from(parent[usize::from(at)])];
            at = parent[usize::from(at)];
        }
        at
    }
    let mut cycles = n;
    for c in 0..n {
        parent[c] = c as u8;
        let mut digits = (signature >> (c * n)) & ((1u128 << n) - 1);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            // The digit's first column met: joined with this one.
            match holder[d] {
                u8::MAX => holder[d] = c as u8,
                other => {
                    let (a, b) = (root(&mut parent, other), root(&mut parent, c as u8));
                    if a != b {
                        parent[usize::from(a)] = b;
                        cycles -= 1;
                    }
                }
            }
        }
    }
    1 << cycles
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every band of two lines of a 4x4 (2x2 boxes) and a 6x6 (2x3
    /// boxes), its two rows listed as permutations, tallied by signature,
    /// against [`two_line_fillings`].
    #[test]
    fn two_line_bands_have_two_to_the_cycles_fillings() {
        for (n, w) in [(4, 2), (6, 3)] {
            let mut tally: HashMap<u128, u128> = HashMap::default();
            for top in (0..n).permutations(n) {
                for bottom in (0..n).permutations(n) {
                    let boxes = (0..2).all(|stack| {
                        let cells = stack * w..(stack + 1) * w;
                        let digits = cells.clone().map(|c| top[c]).chain(cells.map(|c| bottom[c]));
                        digits.fold(0u32, |m, d| m | 1 << d).count_ones() as usize == n
                    });
                    if boxes {
                        let signature =
                            (0..n).fold(0u128, |s, c| s | ((1u128 << top[c]) | (1u128 << bottom[c])) << (c * n));
                        *tally.entry(signature).or_default() += 1;
                    }
                }
            }
            // n! first rows, each stack's other digits in any order below:
            // (w!)^2.
            let total: u128 = tally.values().sum();
            assert_eq!(total, (1..=n as u128).product::<u128>() * (1..=w as u128).product::<u128>().pow(2));
            for (&signature, &fillings) in &tally {
                assert_eq!(two_line_fillings(signature, n), fillings, "{n}x{n}, {signature:#x}");
            }
        }
    }

    /// A free band's unions, listed column by column with the cycle's
    /// union grown piece by piece (and, for two stacks left in place, the
    /// fillings from a table over pairings), against every signature of
    /// an 8x8 band of two rows (each stack's columns an ordered choice of
    /// four disjoint pairs: 2,520 x 2,520) put through [`Moved::cycle`]
    /// and [`two_line_fillings`] (or another fillings function) one by
    /// one.
    #[test]
    fn free_unions_are_every_signatures_cycles() {
        let (n, w) = (8, 4);
        let local = Local::oriented(&crate::model::Puzzle::sudoku(2, w).unwrap(), false).unwrap();
        // Each stack's ordered pairings, as a stack's part of a signature.
        fn ordered(left: u128, column: usize, n: usize, w: usize, part: u128, out: &mut Vec<u128>) {
            if column == w {
                out.push(part);
                return;
            }
            for pair in (0..n).filter(|&d| left >> d & 1 == 1).combinations(2) {
                let set = (1u128 << pair[0]) | (1u128 << pair[1]);
                ordered(left & !set, column + 1, n, w, part | set << (column * n), out);
            }
        }
        let mut stack = Vec::new();
        ordered((1 << n) - 1, 0, n, w, 0, &mut stack);
        assert_eq!(stack.len(), 2520);
        let odd = |s: u128| s % 1_000_003 + 1;
        let swap_pairs = vec![2, 1, 4, 3, 6, 5, 8, 7];
        let cases = [
            // The stacks swapped (one orbit), digits swapped in pairs.
            (vec![4, 5, 6, 7, 0, 1, 2, 3], swap_pairs.clone(), 2),
            // The stacks swapped, their columns turned.
            (vec![5, 6, 7, 4, 3, 0, 1, 2], swap_pairs.clone(), 2),
            // Each stack left in place (two orbits), columns swapped.
            (vec![1, 0, 2, 3, 5, 4, 6, 7], swap_pairs.clone(), 2),
            (vec![1, 0, 3, 2, 4, 5, 6, 7], swap_pairs.clone(), 2),
            // Every column in place, digits in two cycles of four.
            ((0..8).collect(), vec![2, 3, 4, 1, 6, 7, 8, 5], 4),
        ];
        for (positions, rename, k) in cases {
            let moved = Moved { cycles: vec![vec![0, 2], vec![1, 3]], positions, rename };
            for table in [false, true] {
                let mut every: HashMap<u128, u128> = HashMap::default();
                for &left in &stack {
                    for &right in &stack {
                        let signature = left | right << (w * n);
                        if let Some(union) = moved.cycle(signature, k, n) {
                            let fillings = if table { odd(signature) } else { two_line_fillings(signature, n) };
                            *every.entry(union).or_default() += fillings;
                        }
                    }
                }
                assert!(!every.is_empty(), "{moved:?}");
                let fillings = if table { Fillings::Table(&odd) } else { Fillings::TwoLines };
                let listed = local.free_unions(&moved, k, fillings, &|| false).unwrap();
                assert_eq!(listed, every, "{moved:?}, by a table: {table}");
            }
        }
    }

    /// The split: one cycle on each side where there are two, the
    /// largest alone where the others' product is smaller than any other
    /// split's pairs.
    #[test]
    fn halves_look_at_the_fewest_pairs() {
        assert_eq!(halves(&[10]), (vec![], vec![0]));
        assert_eq!(halves(&[10, 20]), (vec![0], vec![1]));
        // 5 x 7 pairs, against 1000 x 7 or 1000 x 5.
        assert_eq!(halves(&[1000, 5, 7]), (vec![0], vec![1, 2]));
        // 5 x 7 x 9 = 315 pairs, against 5 x 7 + 1000 x 9 and the like.
        assert_eq!(halves(&[1000, 5, 7, 9]), (vec![0], vec![1, 2, 3]));
        // 2 x 2 x 3 = 12 with a 3 alone (mask 4), before 2 x 3 + 2 x 3
        // (mask 5), as few; 2 x 2 + 3 x 3 = 13 (mask 3) is more.
        assert_eq!(halves(&[2, 2, 3, 3]), (vec![2], vec![0, 1, 3]));
    }
}
