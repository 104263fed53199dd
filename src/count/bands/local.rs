//! Counting by bands a puzzle with givens, or rules of its own that stay
//! inside bands: the same sum over column signatures as a blank grid's
//! (see the parent module), with each band's own `N`.
//!
//! A band with no givens and no rules beyond rows and boxes (a *free*
//! band) has the blank layout's `N`, read from the table by the class of
//! the signature. A band with givens or rules of its own has its fillings
//! enumerated by the engine (at most [`MAX_FILLINGS`] over all such
//! bands), and each filling's signature tallied: its `N` is that tally. Givens break the
//! renamings and permutations the table's classes rest on, so such a
//! band's signatures are kept as they are, each column's set of digits
//! (which is why the grid's side is at most 11: the sets of a band fill
//! 128 bits). Then, over the bands (two or three):
//! - one band with its own `N`, the others free: `grids = sum over its
//!   signatures s of N1(s) P(s)`, with `P` the table's partner sum (`N`
//!   of the complement with two bands, `C` with three) at `s`'s class;
//! - two or three of them: the sum over the pairs of signatures of two
//!   such bands that miss each other's digits in every column, of their
//!   `N` times the third band's (tallied, or free) at the digits left,
//!   when the two bands' numbers of signatures multiply to at most
//!   [`MAX_PAIRS`].
//!
//! With fewer bands of their own than threads, each such band's fillings
//! are enumerated in pieces, one for each set of digits its column with
//! the most open cells may hold (`Local::pieces`): a filling's signature
//! holds that set, so the pieces' tallies are disjoint, and the partner
//! sum reads them one after another.
//!
//! Past either bound the puzzle is not counted by bands, and the plan goes
//! on as if it were not banded. The orientation, bands of rows or of
//! columns, is the one with fewer bands of their own.

mod crossing;
mod moved;

pub use moved::Moved;

use rustc_hash::FxHashMap as HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use itertools::Itertools;
use num_bigint::BigUint;

use super::{per_class, too_large, Bands, Blank, Route, Tabled};
use crate::count::CountError;
use crate::model::{Cell, Constraint, Grid, Puzzle};

/// The most fillings the bands with givens or rules of their own may
/// have together: the engine enumerates them all, and each distinct
/// signature takes about 70 bytes (under 300 MB in all).
pub const MAX_FILLINGS: u128 = 1 << 22;

/// The most pairs of signatures of two bands looked at (through an
/// index, which skips all but a few thousandths of them on 9x9: about a
/// second for 1e10).
pub const MAX_PAIRS: u128 = 1 << 36;

/// Signatures of one band and their fillings.
type Tally = HashMap<u128, u64>;

/// A puzzle whose givens and extra rules stay inside bands, as bands.
#[derive(Clone, Debug)]
pub struct Local {
    /// Lines of a band (and stacks in a band).
    pub h: usize,
    /// Bands.
    pub w: usize,
    /// Whether the bands are the puzzle's columns.
    pub transposed: bool,
    /// Per band, its puzzle if it has givens or rules of its own.
    own: Vec<Option<Puzzle>>,
    /// The extra all-different groups of a whole line's size that cross
    /// bands (disjoint groups, diagonals): joined as columns are
    /// ([`Local::count`]).
    crossing: Vec<Vec<Cell>>,
    /// The most pairs of two crossing bands' signatures looked at
    /// ([`crossing::MAX_CROSSING_PAIRS`] unless set).
    max_pairs: u128,
    /// The puzzle's solutions as estimated before the bands, if they were
    /// ([`Local::with_solutions_estimate`]): crossing bands then enumerate
    /// no more fillings than an eighth of that.
    solutions: Option<f64>,
}

/// What a count by local bands came to.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The count.
    Counted(LocalCount),
    /// Past a bound: the reason, to say in `--stats`.
    TooLarge(String),
    /// `stop` came first.
    Stopped,
}

/// What a count by local bands found.
#[derive(Clone, Debug)]
pub struct LocalCount {
    /// The solutions.
    pub grids: BigUint,
    /// Per band with its own `N`: its number (from 0), fillings and
    /// distinct signatures.
    pub own: Vec<(usize, u128, usize)>,
    /// Classes of the table the free bands were read from, if any.
    pub classes: Option<usize>,
    /// Pairs of signatures joined (that miss each other's digits in every
    /// column).
    pub pairs: u128,
}

/// Enumerates a band puzzle's solutions, at most `max`, showing each to
/// `each`, which returns whether to go on: `Some(true)` when that was all
/// of them, `Some(false)` when there are more, `None` if stopped (by the
/// count's stop or by `each`).
pub type Enumerate<'a> =
    dyn Fn(&Puzzle, u128, &mut dyn FnMut(&Grid) -> bool) -> Result<Option<bool>, CountError> + Sync + 'a;

impl Local {
    /// The puzzle as bands: a Sudoku with boxes, side at most 11, its
    /// rows, columns and boxes first among its groups, every other group,
    /// relation and constraint inside one band, two or three bands, and
    /// some band with givens or rules of its own; a free band needs the
    /// layout's table. `transpose` allows bands of columns.
    pub fn recognize(puzzle: &Puzzle, transpose: bool) -> Option<Local> {
        let (rows, cols, base) = Local::layout(puzzle)?;
        let orientations = [(rows, cols, false), (cols, rows, true)];
        let mut best: Option<Local> = None;
        for (h, w, transposed) in orientations.into_iter().filter(|&(_, _, t)| transpose || !t) {
            let Some(local) = Local::banded(puzzle, base, h, w, transposed, 3) else { continue };
            let own = local.own.iter().flatten().count();
            let free = own < w;
            let tabled = Bands { h, w, transposed, route: Route::Table }.entries().is_some();
            if own == 0 || (free && !tabled) {
                continue;
            }
            if best.as_ref().is_none_or(|b| own < b.own.iter().flatten().count()) {
                best = Some(local);
            }
        }
        best
    }

    /// The puzzle as bands of rows, or of columns when `transposed`, as
    /// [`Local::recognize`] takes them but in that orientation only, with
    /// or without bands of their own, and up to four bands (for
    /// [`Local::count_moved`]).
    pub fn oriented(puzzle: &Puzzle, transposed: bool) -> Option<Local> {
        let (rows, cols, base) = Local::layout(puzzle)?;
        let (h, w) = if transposed { (cols, rows) } else { (rows, cols) };
        Local::banded(puzzle, base, h, w, transposed, 4)
    }

    /// A Sudoku with boxes of `rows x cols`, side at most 11, its rows,
    /// columns and boxes first among its groups (`base` of them): those
    /// three.
    fn layout(puzzle: &Puzzle) -> Option<(usize, usize, usize)> {
        let (rows, cols) = puzzle.boxes()?;
        let n = rows * cols;
        let layout = Puzzle::sudoku(rows, cols).ok()?;
        let base = layout.groups().len();
        let sudoku =
            n <= 11 && puzzle.side() == n && puzzle.digits() == n && puzzle.groups().get(..base)? == layout.groups();
        sudoku.then_some((rows, cols, base))
    }

    /// The puzzle as `w` bands of `h` lines (2 to `most` bands), each
    /// band's puzzle if it has givens or rules of its own; `None` if a rule
    /// crosses bands.
    fn banded(puzzle: &Puzzle, base: usize, h: usize, w: usize, transposed: bool, most: usize) -> Option<Local> {
        if !(2..=most).contains(&w) || h < 2 {
            return None;
        }
        let band_of = |cell: Cell| if transposed { cell.col } else { cell.row } / h;
        // The band of each extra rule's cells, if they share one.
        let one_band = |cells: &[Cell]| -> Option<usize> {
            let first = band_of(*cells.first()?);
            cells.iter().all(|&c| band_of(c) == first).then_some(first)
        };
        let mut rules = vec![false; w];
        let mut crossing = Vec::new();
        for group in &puzzle.groups()[base..] {
            match one_band(&group.cells) {
                Some(band) => rules[band] = true,
                None if group.cells.len() == h * w => crossing.push(group.cells.clone()),
                None => return None,
            }
        }
        // A crossing group's digits take `h w` bits of a signature's
        // second word.
        if crossing.len() * h * w > 128 {
            return None;
        }
        let relations = puzzle.relations().iter().map(|r| one_band(&[r.a, r.b]));
        let constraints = puzzle.constraints().iter().map(|c| one_band(&c.cells()));
        for band in relations.chain(constraints) {
            rules[band?] = true;
        }
        if !crossing.is_empty() {
            // Each band holds its part of every crossing group.
            rules.fill(true);
        }
        let max_pairs = crossing::MAX_CROSSING_PAIRS;
        let local = Local { h, w, transposed, own: Vec::new(), crossing, max_pairs, solutions: None };
        let mut own = Vec::with_capacity(w);
        for (band, &ruled) in rules.iter().enumerate() {
            let given = puzzle.givens().any(|(cell, _)| band_of(cell) == band);
            own.push((ruled || given).then(|| local.band(puzzle, base, band)));
        }
        Some(Local { own, ..local })
    }

    /// The cell at line `line`, position `at` of the oriented grid.
    fn cell(&self, line: usize, at: usize) -> Cell {
        if self.transposed {
            Cell::new(at, line)
        } else {
            Cell::new(line, at)
        }
    }

    /// The puzzle of one band: its lines and boxes all different, its
    /// givens and its own rules, and every cell outside it given 1 and in
    /// no group.
    fn band(&self, puzzle: &Puzzle, base: usize, band: usize) -> Puzzle {
        let (h, w) = (self.h, self.w);
        let n = h * w;
        let lines = band * h..band * h + h;
        let inside = |cell: Cell| lines.contains(&if self.transposed { cell.col } else { cell.row });
        let mut own = Puzzle::blank(n).expect("a Sudoku's side");
        for line in lines.clone() {
            own.add_group((0..n).map(|at| self.cell(line, at)).collect()).expect("a line");
        }
        for stack in 0..h {
            let cells = lines.clone().flat_map(|line| (0..w).map(move |j| (line, stack * w + j)));
            own.add_group(cells.map(|(line, at)| self.cell(line, at)).collect()).expect("a box");
        }
        for group in &puzzle.groups()[base..] {
            if group.cells.iter().all(|&c| inside(c)) {
                own.add_group(group.cells.clone()).expect("the puzzle's group");
            }
        }
        for group in &self.crossing {
            let part: Vec<Cell> = group.iter().copied().filter(|&c| inside(c)).collect();
            if part.len() >= 2 {
                own.add_group(part).expect("part of the puzzle's group");
            }
        }
        for relation in puzzle.relations() {
            if inside(relation.a) && inside(relation.b) {
                own.add_relation(relation.a, relation.b, relation.predicate).expect("the puzzle's relation");
            }
        }
        for constraint in puzzle.constraints() {
            if constraint.cells().iter().all(|&c| inside(c)) {
                own.add_constraint(constraint.clone()).expect("the puzzle's constraint");
            }
        }
        for cell in puzzle.cells() {
            let digit = if inside(cell) { puzzle.given(cell) } else { Some(1) };
            if let Some(digit) = digit {
                own.set_given(cell, digit).expect("a cell of the grid");
            }
        }
        own
    }

    /// A bound on the fillings of the bands with givens or rules of their
    /// own: each line's open cells in any order, multiplied (saturating).
    pub fn fillings_bound(&self) -> u128 {
        self.own().map(|band| self.band_bound(band)).fold(1, u128::saturating_mul)
    }

    /// [`Local::fillings_bound`] of band `band` alone (`u128::MAX` for a
    /// free band).
    fn band_bound(&self, band: usize) -> u128 {
        let n = self.h * self.w;
        let Some(puzzle) = &self.own[band] else { return u128::MAX };
        let mut bound: u128 = 1;
        for line in band * self.h..band * self.h + self.h {
            let open = (0..n).filter(|&at| puzzle.given(self.cell(line, at)).is_none()).count();
            bound = (1..=open as u128).fold(bound, u128::saturating_mul);
        }
        bound
    }

    /// The blank layout counted by bands in this orientation, if its table
    /// fits: its [`Bands::blank`] is what [`Local::count`] reads free
    /// bands from and [`Local::estimate`] rests on.
    pub fn blank(&self) -> Option<Bands> {
        if self.crosses() {
            return None;
        }
        let bands = Bands { h: self.h, w: self.w, transposed: self.transposed, route: Route::Table };
        bands.entries().is_some().then_some(bands)
    }

    /// Estimates of the fillings of the bands with givens or rules of
    /// their own, together, and of the puzzle's solutions, from the blank
    /// layout's `band` fillings and `grids`: each given, in reading order,
    /// divides by the digits its lines and box (and, for the solutions,
    /// its column) leave it after the givens before it. A given that
    /// clashes makes both 0. Rules are not read: they only lower the
    /// counts, the bands' as much as the puzzle's.
    pub fn estimate(&self, puzzle: &Puzzle, band: f64, grids: f64) -> (f64, f64) {
        let n = self.h * self.w;
        // Per unit (line, column, box of the oriented grid), its digits so far.
        let (mut lines, mut columns, mut boxes) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
        let (mut bands, mut total) = (vec![1f64; self.w], 1f64);
        for line in 0..n {
            for (at, column) in columns.iter_mut().enumerate() {
                let Some(digit) = puzzle.given(self.cell(line, at)) else { continue };
                let bit = 1u64 << (digit - 1);
                let square = line / self.h * self.h + at / self.w;
                let inside = lines[line] | boxes[square];
                let left = |used: u64| (n as u32 - used.count_ones()) as f64;
                if (inside | *column) & bit != 0 {
                    return (0.0, 0.0);
                }
                bands[line / self.h] /= left(inside);
                total /= left(inside | *column);
                lines[line] |= bit;
                *column |= bit;
                boxes[square] |= bit;
            }
        }
        let own: f64 = self.own().map(|b| band * bands[b]).sum();
        (own, grids * total)
    }

    /// The same, with at most `max` pairs of two crossing bands'
    /// signatures looked at (tests set it low to reach the tallies put
    /// off and the early declines of [`Local::count`]).
    pub fn with_max_pairs(self, max: u128) -> Local {
        Local { max_pairs: max, ..self }
    }

    /// The same, with the puzzle's solutions estimated at `solutions`:
    /// bands that groups cross then decline once their fillings, those of
    /// a band put off included, pass an eighth of it. A filling costs from
    /// a third of what enumerating a solution does to about as much (the
    /// tallies' maps grow), so declining there wastes at most about a
    /// seventh of the enumeration; the estimate may be off a few times
    /// either way. Their fillings are not known before they are
    /// enumerated: a Sudoku X with rows 4 and 5 and two cells of row 6
    /// given has 1.9 million solutions, enumerated in 1.2 s, but its outer
    /// bands more than 30 million signatures each, tallied in 38 s and
    /// 2.6 GB before the pairs' bound declined them.
    pub fn with_solutions_estimate(self, solutions: f64) -> Local {
        Local { solutions: Some(solutions), ..self }
    }

    /// Whether groups cross the bands: then every band is enumerated (the
    /// blank layout's table knows nothing of them) and the estimates from
    /// the blank layout do not apply.
    pub fn crosses(&self) -> bool {
        !self.crossing.is_empty()
    }

    /// Which bands have givens or rules of their own.
    pub fn own(&self) -> impl Iterator<Item = usize> + '_ {
        self.own.iter().enumerate().filter(|(_, p)| p.is_some()).map(|(b, _)| b)
    }

    /// The signature of band `band` in `grid`: column `c`'s digits at bits
    /// `c n ..`, digit `d` at bit `d - 1`.
    fn signature(&self, grid: &Grid, band: usize) -> u128 {
        let n = self.h * self.w;
        let mut key = 0u128;
        for at in 0..n {
            let column = (band * self.h..band * self.h + self.h)
                .fold(0u128, |m, line| m | 1 << (grid.get(self.cell(line, at)) - 1));
            key |= column << (at * n);
        }
        key
    }

    /// Each band of its own ([`Local::own`], in that order) enumerated
    /// and its signatures tallied, with its fillings; a band's tally is
    /// the tallies of its pieces ([`Local::pieces`]: more than one when
    /// there are fewer such bands than `jobs`), which have no signature
    /// in common. Pieces in parallel, all of them given up once the bands
    /// have more than [`MAX_FILLINGS`] fillings together (`Err`: the
    /// outcome to report), or stopped.
    #[allow(clippy::type_complexity)]
    fn tally_own(
        &self,
        jobs: usize,
        enumerate: &Enumerate,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Result<Vec<(Vec<Tally>, u128)>, Outcome>, CountError> {
        let own: Vec<usize> = self.own().collect();
        let split = jobs > own.len();
        // Per piece: its band's place in `own`, and its puzzle.
        let pieces: Vec<(usize, Puzzle)> = own
            .iter()
            .enumerate()
            .flat_map(|(k, &band)| self.pieces(band, split).into_iter().map(move |piece| (k, piece)))
            .collect();
        let indices: Vec<usize> = (0..pieces.len()).collect();
        // Each piece's signatures tallied, in parallel, all of them given
        // up once the bands have too many fillings together.
        let over = AtomicBool::new(false);
        let enumerated = AtomicU64::new(0);
        let tallied = per_class(jobs, &indices, stop, |&index| {
            let (k, piece) = &pieces[index];
            let band = own[*k];
            let mut tally = Tally::default();
            let mut fillings = 0u128;
            let done = enumerate(piece, MAX_FILLINGS, &mut |grid| {
                fillings += 1;
                *tally.entry(self.signature(grid, band)).or_default() += 1;
                if u128::from(enumerated.fetch_add(1, Ordering::Relaxed)) >= MAX_FILLINGS {
                    over.store(true, Ordering::Relaxed);
                }
                !over.load(Ordering::Relaxed)
            })?;
            if done == Some(false) {
                over.store(true, Ordering::Relaxed);
            }
            Ok(Some(done.filter(|&all| all).map(|_| (tally, fillings))))
        })?;
        if over.load(Ordering::Relaxed) {
            return Ok(Err(Outcome::TooLarge(format!("the bands have more than {MAX_FILLINGS} fillings"))));
        }
        // A piece the stop came before (outer `None`), or whose
        // enumeration it ended (inner `None`): no count.
        let Some(tallied) = tallied.into_iter().collect::<Option<Option<Vec<(Tally, u128)>>>>().flatten() else {
            return Ok(Err(Outcome::Stopped));
        };
        let mut bands: Vec<(Vec<Tally>, u128)> = own.iter().map(|_| (Vec::new(), 0)).collect();
        for ((k, _), (tally, fillings)) in pieces.iter().zip(tallied) {
            bands[*k].0.push(tally);
            bands[*k].1 += fillings;
        }
        Ok(Ok(bands))
    }

    /// [`Local::tally_own`] with each band's pieces joined in one tally.
    #[allow(clippy::type_complexity)]
    fn tally_own_joined(
        &self,
        jobs: usize,
        enumerate: &Enumerate,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Result<Vec<(Tally, u128)>, Outcome>, CountError> {
        let tallied = self.tally_own(jobs, enumerate, stop)?;
        Ok(tallied.map(|bands| bands.into_iter().map(|(pieces, fillings)| (joined(pieces), fillings)).collect()))
    }

    /// Band `band`'s puzzle whole, or, with `split`, in pieces: one for
    /// each set of `h` digits that the band's column with the most open
    /// cells may hold (the sets containing its givens there), the
    /// column's open cells allowed only that set's digits. The column's
    /// `h` cells lie in one box, so each filling is in exactly one piece,
    /// the one of its column's digits, which its signature holds: the
    /// pieces' signatures are disjoint.
    fn pieces(&self, band: usize, split: bool) -> Vec<Puzzle> {
        let puzzle = self.own[band].as_ref().expect("a band of its own");
        if !split {
            return vec![puzzle.clone()];
        }
        let (h, n) = (self.h, self.h * self.w);
        let column = |at: usize| (band * h..band * h + h).map(move |line| self.cell(line, at));
        let open = |at: usize| column(at).filter(|&cell| puzzle.given(cell).is_none()).count();
        let Some(at) = (0..n).filter(|&at| open(at) > 0).max_by_key(|&at| (open(at), std::cmp::Reverse(at))) else {
            return vec![puzzle.clone()];
        };
        let given = column(at).filter_map(|cell| puzzle.given(cell)).fold(0u64, |m, d| m | 1 << (d - 1));
        (0..n)
            .combinations(h)
            .map(|digits| digits.iter().fold(0u64, |m, &d| m | 1 << d))
            .filter(|&set| set & given == given)
            .map(|allowed| {
                let mut piece = puzzle.clone();
                for cell in column(at).filter(|&cell| puzzle.given(cell).is_none()) {
                    piece.add_constraint(Constraint::Digits { cell, allowed }).expect("a cell of the band");
                }
                piece
            })
            .collect()
    }

    /// Counts the solutions. `enumerate` lists a band puzzle's solutions;
    /// `blank` is the layout's counted table ([`Local::blank`]), which the
    /// free bands need; `stop` is polled between steps.
    pub fn count(
        &self,
        jobs: usize,
        enumerate: &Enumerate,
        blank: Option<&Blank>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Outcome, CountError> {
        if self.crosses() {
            return self.count_crossing(jobs, enumerate, stop);
        }
        let (h, w) = (self.h, self.w);
        let own: Vec<usize> = self.own().collect();
        let mut tallied = match self.tally_own(jobs, enumerate, stop)? {
            Ok(tallied) => tallied,
            Err(outcome) => return Ok(outcome),
        };
        let signatures = |pieces: &[Tally]| pieces.iter().map(HashMap::len).sum::<usize>();
        let report: Vec<(usize, u128, usize)> =
            own.iter().zip(&tallied).map(|(&b, (pieces, fillings))| (b, *fillings, signatures(pieces))).collect();
        // The smallest tallies first: they are the pairs' sides.
        tallied.sort_by_key(|(pieces, _)| signatures(pieces));
        let tallies: Vec<Vec<Tally>> = tallied.into_iter().map(|(pieces, _)| pieces).collect();
        let free = w - tallies.len();
        let tabled = (free > 0).then(|| {
            let blank = blank.expect("free bands need the blank layout's table");
            assert_eq!((blank.h, blank.w), (h, w), "the blank layout of these bands");
            &blank.tabled
        });
        let n = h * w;
        let full = (0..n).fold(0u128, |key, at| key | ((1u128 << n) - 1) << (at * n));
        let (mut sum, mut pairs) = (Sum::default(), 0u128);
        if tallies.len() == 1 {
            // One band of its own: the free bands by the partner sum.
            let tabled = tabled.expect("free bands");
            let partners = &tabled.partners;
            for (i, (&s, &count)) in tallies[0].iter().flatten().enumerate() {
                if i % 4096 == 0 && stop() {
                    return Ok(Outcome::Stopped);
                }
                sum.add(u128::from(count), partners[tabled.class(s, h, w)])?;
            }
        } else {
            // Lookups need one map a band: its pieces joined.
            let mut tallies: Vec<Tally> = tallies.into_iter().map(joined).collect();
            if w == 2 {
                for (&s, &count) in &tallies[0] {
                    sum.add(u128::from(count), tallies[1].get(&(full ^ s)).map_or(0, |&c| u128::from(c)))?;
                }
            } else {
                // Two or three of their own: pairs of the two smallest, the
                // third band (the largest tally, or free) at the digits left.
                let product = (tallies[0].len() as u128) * (tallies[1].len() as u128);
                if product > MAX_PAIRS {
                    return Ok(Outcome::TooLarge(format!(
                        "{product} pairs of signatures to look at, past {MAX_PAIRS}"
                    )));
                }
                let third = (tallies.len() == 3).then(|| tallies.pop().expect("three"));
                let last = |s: u128| -> u128 {
                    match (&third, tabled) {
                        (Some(tally), _) => tally.get(&s).map_or(0, |&c| u128::from(c)),
                        (None, Some(tabled)) => tabled.fillings[tabled.class(s, h, w)],
                        (None, None) => unreachable!("three bands: tallied or free"),
                    }
                };
                let Some((joined, matched)) = join(jobs, &tallies[0], &tallies[1], (h, w), full, stop, last)? else {
                    return Ok(Outcome::Stopped);
                };
                (sum, pairs) = (joined, matched);
            }
        }
        Ok(Outcome::Counted(LocalCount {
            grids: sum.total(),
            own: report,
            classes: tabled.map(|t| t.classes.roots.len()),
            pairs,
        }))
    }
}

/// One tally of a band's disjoint pieces.
fn joined(pieces: Vec<Tally>) -> Tally {
    let mut pieces = pieces.into_iter();
    let mut all = pieces.next().unwrap_or_default();
    for piece in pieces {
        all.extend(piece);
    }
    all
}

/// The sum over the pairs of `a`'s and `b`'s signatures that miss each
/// other's digits in every column, of their fillings times `last` at the
/// digits left; `a` shared out among the threads. `b` is indexed by the
/// digits of its first two stacks' columns, so that each of `a`'s
/// signatures visits only the groups that miss its own there: about 56
/// of the 1,680 of a 9x9 stack. `None` if stopped.
fn join(
    jobs: usize,
    a: &Tally,
    b: &Tally,
    (h, w): (usize, usize),
    full: u128,
    stop: &(dyn Fn() -> bool + Sync),
    last: impl Fn(u128) -> u128 + Sync,
) -> Result<Option<(Sum, u128)>, CountError> {
    let n = h * w;
    let stack = |s: u128, k: usize| (s >> (k * w * n)) & ((1u128 << (w * n)) - 1);
    let mut index: HashMap<u128, HashMap<u128, Vec<(u128, u64)>>> = HashMap::default();
    for (&s, &count) in b {
        index.entry(stack(s, 0)).or_default().entry(stack(s, 1)).or_default().push((s, count));
    }
    type Group = Vec<(u128, Vec<(u128, u64)>)>;
    let index: Vec<(u128, Group)> = index.into_iter().map(|(k, inner)| (k, inner.into_iter().collect())).collect();
    let a: Vec<(u128, u64)> = a.iter().map(|(&s, &c)| (s, c)).collect();
    let chunks: Vec<usize> = (0..a.len().div_ceil(256)).collect();
    let sums = per_class(jobs, &chunks, stop, |&chunk| {
        let (mut sum, mut pairs) = (Sum::default(), 0u128);
        for &(s, count) in &a[chunk * 256..(chunk * 256 + 256).min(a.len())] {
            let (first, second) = (stack(s, 0), stack(s, 1));
            for (_, inner) in index.iter().filter(|(k, _)| k & first == 0) {
                for (_, group) in inner.iter().filter(|(k, _)| k & second == 0) {
                    for &(t, other) in group.iter().filter(|(t, _)| s & t == 0) {
                        pairs += 1;
                        let left = last(full ^ s ^ t);
                        if left != 0 {
                            let pair = u128::from(count).checked_mul(u128::from(other)).ok_or_else(too_large)?;
                            sum.add(pair, left)?;
                        }
                    }
                }
            }
        }
        Ok(Some((sum, pairs)))
    })?;
    Ok(gathered(sums))
}

/// The threads' sums and pairs joined, added up; `None` if any was
/// stopped.
fn gathered(sums: Vec<Option<(Sum, u128)>>) -> Option<(Sum, u128)> {
    let (mut total, mut pairs) = (Sum::default(), 0u128);
    for sum in sums {
        let (sum, joined) = sum?;
        total.big += sum.total();
        pairs += joined;
    }
    Some((total, pairs))
}

/// A sum of products kept in 128 bits and carried into a big integer
/// before it overflows.
#[derive(Default)]
struct Sum {
    small: u128,
    big: BigUint,
}

impl Sum {
    fn add(&mut self, a: u128, b: u128) -> Result<(), CountError> {
        let product = a.checked_mul(b).ok_or_else(too_large)?;
        match self.small.checked_add(product) {
            Some(small) => self.small = small,
            None => {
                self.big += self.small;
                self.small = product;
            }
        }
        Ok(())
    }

    fn total(self) -> BigUint {
        self.big + self.small
    }
}

impl Tabled {
    /// The class of a signature of the blank layout's band: its first
    /// stack's columns renamed onto `P`'s blocks in order, the other
    /// stacks read as partitions.
    pub(super) fn class(&self, key: u128, h: usize, w: usize) -> usize {
        let n = h * w;
        let column = |at: usize| (key >> (at * n)) & ((1u128 << n) - 1);
        let mut rename = [0u8; 128];
        for j in 0..w {
            let mut digits = column(j);
            let mut next = j * h;
            while digits != 0 {
                rename[digits.trailing_zeros() as usize] = next as u8;
                next += 1;
                digits &= digits - 1;
            }
        }
        let mut others = Vec::with_capacity(h - 1);
        let mut blocks = [0u8; 64];
        for stack in 1..h {
            for j in 0..w {
                let mut digits = column(stack * w + j);
                while digits != 0 {
                    blocks[usize::from(rename[digits.trailing_zeros() as usize])] = j as u8;
                    digits &= digits - 1;
                }
            }
            others.push(self.shapes.number(&blocks[..n]));
        }
        self.classes.of[self.table.entry(&others)] as usize
    }
}
