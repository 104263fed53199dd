//! Counting Sudoku grids by bands: the grid count as a sum over the bands'
//! column signatures, each band's fillings counted by the SAT engine once
//! per class of signatures, never a grid enumerated.
//!
//! A band is `h` rows of boxes of `h` rows and `w` columns: `h` boxes side
//! by side (the stacks), `w` bands in the grid. Rows and boxes stay inside
//! a band; the columns are the only tie between bands. A band's *column
//! signature* gives, for each column, the set of `h` digits the band puts
//! there; in each stack the `w` sets partition the digits, since the box
//! holds each digit once. Bands whose signatures partition every column's
//! digits make a grid, and every grid is made so once, so
//!
//! `grids = sum over signatures s1 .. sw that partition every column of
//! N(s1) ... N(sw)`,
//!
//! with `N(s)` the fillings of a band with signature `s`. `N` does not
//! change when the digits are renamed, the columns of a stack permuted or
//! the stacks permuted (each maps the band's fillings with one signature
//! one to one onto those with the other), so:
//! - renaming carries any first stack's signature onto the first
//!   partition `P` (the digits `j h ..` in its column `j`), so the sum is
//!   `(h w)! / h!^w` times the sum with the first stack's columns holding
//!   `P`'s blocks in order;
//! - `N` depends only on each other stack's partition, not on its
//!   columns' order: a table of `N` over the partitions of stacks
//!   `2 .. h` (`shapes.rs`), each entry standing for `w!^(h-1)` signatures;
//! - the table's entries fall into classes under the renamings that keep
//!   `P`, the permutations of stacks `2 .. h`, and exchanging the first two
//!   stacks (then renaming the new first stack's partition onto `P`): `N`
//!   is counted once per class, by the engine, on a band puzzle whose
//!   cells hold only their column's digits.
//!
//! With two bands (`w = 2`), a signature's only partner is its
//! complement, each stack's two columns exchanged, which has the same
//! `N`: `grids = sum of N(s)^2`. With three (`w = 3`), the partners of `s1`
//! are the `s2` whose column sets miss `s1`'s (then `s3` is what is left),
//! `C(s1) = sum of N(s2) N(s3)` over them, and `grids = sum of N(s1)
//! C(s1)`; `C` has the same symmetries as `N`, so it is computed once per
//! class too. A layout whose boxes are wider than tall is counted
//! transposed (transposition maps its grids one to one onto those with
//! the boxes turned), so that the bands are the fewer.
//!
//! The table has `partitions^(h-1)` entries: 78,400 for 9x9, 42,875 for
//! 8x8 (2x4 boxes, counted as 4x2), 100 for 6x6. Two bands whose table
//! has more than [`MAX_TABLE`] entries (10x10 with 2x5 boxes, counted as
//! 5x2: 2.5e8) are counted from the digits' profiles instead
//! (`profiles.rs`), each band counted by perfect matchings, not by the
//! engine (`matchings.rs`). Other
//! layouts whose table is too large (12x12 with 3x4 boxes: 1.9e11
//! entries; 12x12 with 2x6: bands of six rows, past what the profiles
//! count), or with more than three bands, are not counted by bands.
//! Felgenhauer and Jarvis (2005) count 9x9 grids from the top band's 44
//! classes; the column-signature sum is the band-generating method of
//! Pettersen and Stertenbrink, as the reproduction in
//! github.com/linche89/sudoku-enumeration describes it. This code is
//! written from the formula above.

mod local;
mod matchings;
mod profiles;
mod shapes;
mod table;

use std::sync::Mutex;

use num_bigint::BigUint;

use super::CountError;
use crate::model::{Cell, Constraint, Puzzle};
use matchings::{Factorizer, Graph};
use shapes::{ordered_partitions, Shape, Shapes};
use table::Table;

pub use local::{Local, LocalCount, Moved, Outcome, MAX_FILLINGS, MAX_PAIRS};

/// Counts a band puzzle's solutions (with the engine); `None` if it was
/// stopped first.
pub type Fill<'f> = dyn Fn(&Puzzle) -> Result<Option<BigUint>, CountError> + Sync + 'f;

/// The most table entries (and so classes) a count by bands builds:
/// about 40 bytes an entry while the classes are found.
pub const MAX_TABLE: usize = 1 << 20;

/// A blank Sudoku layout counted by bands, oriented so that its boxes are
/// at least as tall as wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bands {
    /// Rows of a box (stacks of a band).
    pub h: usize,
    /// Columns of a box (bands of the grid).
    pub w: usize,
    /// Whether the puzzle's boxes are `w x h`, counted transposed.
    pub transposed: bool,
    /// How the signatures are summed and the bands counted.
    pub route: Route,
}

/// How a count by bands sums the signatures and counts the bands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// A table over the other stacks' partitions, each class of entries
    /// counted by the engine.
    Table,
    /// Two bands, the multisets of the digits' profiles, each class
    /// counted by perfect matchings.
    Profiles,
}

/// What counted a count by bands' classes.
#[derive(Clone, Debug)]
pub enum Pieces {
    /// The engine, enumerating these models over the classes (`1 / h!` of
    /// their fillings: those with `1 .. h` down the first column).
    Engine {
        /// The models.
        models: BigUint,
    },
    /// The rooted recurrence, visiting these perfect matchings and
    /// 2-factors.
    Matchings {
        /// The perfect matchings.
        matchings: u64,
        /// The 2-factors.
        factors: u64,
        /// The 4-regular graphs counted, each kept for its isomorphic
        /// copies.
        graphs: usize,
    },
}

/// What a count by bands found.
#[derive(Clone, Debug)]
pub struct BandCount {
    /// The grids.
    pub grids: BigUint,
    /// Entries of the table of `N` (signatures of stacks `2 .. h`), or
    /// multisets of profiles.
    pub entries: usize,
    /// Classes of entries (or multisets), each counted once.
    pub classes: usize,
    /// Band fillings in all, the number of ways to fill one band.
    pub fillings: BigUint,
    /// What counted the classes, and how much it did.
    pub pieces: Pieces,
}

/// The table of a layout's band fillings, counted per class.
struct Tabled {
    shapes: Shapes,
    table: Table,
    classes: table::Classes,
    /// `N` per class.
    fillings: Vec<u128>,
    /// The partner sum per class (`N` with two bands, `C` with three).
    partners: Vec<u128>,
    /// The engine's models over the classes.
    models: BigUint,
}

/// A blank layout counted by its table ([`Bands::blank`]): what a count by
/// local bands reads its free bands from, and the counts its estimate
/// rests on.
pub struct Blank {
    /// Rows of a box, as [`Bands::h`].
    pub h: usize,
    /// Columns of a box, as [`Bands::w`].
    pub w: usize,
    tabled: Tabled,
    /// The layout's grids.
    pub grids: BigUint,
    /// The fillings of one band.
    pub fillings: BigUint,
}

impl Bands {
    /// The puzzle as bands: a Sudoku with boxes, nothing but rows, columns
    /// and boxes, no givens, at most three bands (two or three once
    /// oriented) and a table of at most [`MAX_TABLE`] entries, or two
    /// bands of at most five rows (`profiles.rs`). `transpose` allows
    /// counting a layout with wide boxes transposed.
    pub fn recognize(puzzle: &Puzzle, transpose: bool) -> Option<Bands> {
        let (rows, cols) = puzzle.boxes()?;
        if puzzle.givens().next().is_some() || !Puzzle::sudoku(rows, cols).is_ok_and(|p| p.same_layout(puzzle)) {
            return None;
        }
        let (h, w, transposed) = match (rows >= cols, transpose) {
            (true, _) => (rows, cols, false),
            (false, true) => (cols, rows, true),
            (false, false) => return None,
        };
        let table = Bands { h, w, transposed, route: Route::Table };
        if !matches!(w, 2 | 3) {
            None
        } else if table.entries().is_some() {
            Some(table)
        } else {
            (w == 2 && h <= profiles::MAX_H).then_some(Bands { route: Route::Profiles, ..table })
        }
    }

    /// The table's entries, if at most [`MAX_TABLE`].
    fn entries(&self) -> Option<usize> {
        let partitions = shapes::partitions(self.h, self.w)?;
        let entries = partitions.checked_pow(u32::try_from(self.h - 1).ok()?)?;
        usize::try_from(entries).ok().filter(|&e| e <= MAX_TABLE)
    }

    /// Counts the grids. `fill` counts a band puzzle's solutions (with the
    /// engine, on the table's route); `stop` is polled between steps and
    /// ends the count with `Ok(None)`.
    pub fn count(
        &self,
        jobs: usize,
        fill: &Fill,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<BandCount>, CountError> {
        match self.route {
            Route::Table => self.by_table(jobs, fill, stop),
            Route::Profiles => self.by_profiles(jobs, stop),
        }
    }

    /// Counts two bands from the digits' profiles: `grids = sum over the
    /// classes of weight * F^2`, `F` a class's band fillings by matchings.
    fn by_profiles(&self, jobs: usize, stop: &(dyn Fn() -> bool + Sync)) -> Result<Option<BandCount>, CountError> {
        let Some((classes, of)) = profiles::classes(self.h, stop) else { return Ok(None) };
        let indices: Vec<usize> = (0..classes.len()).collect();
        let memo = Mutex::default();
        let counted = per_class(jobs, &indices, stop, |&index| {
            let mut factorizer = Factorizer::new(&memo);
            let graph = &mut Graph::new(&profiles::columns(&classes[index].profiles));
            let fillings = factorizer.count(graph, self.h).ok_or_else(too_large)?;
            Ok(Some((fillings, factorizer.matchings, factorizer.factors)))
        })?;
        let graphs = memo.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).len();
        let Some(counted) = counted.into_iter().collect::<Option<Vec<(u128, u64, u64)>>>() else { return Ok(None) };
        let (mut grids, mut fillings) = (BigUint::default(), BigUint::default());
        for (class, &(n, _, _)) in classes.iter().zip(&counted) {
            let n = BigUint::from(n);
            fillings += &n * class.weight;
            grids += &n * &n * class.weight;
        }
        Ok(Some(BandCount {
            grids,
            entries: of.len(),
            classes: classes.len(),
            fillings,
            pieces: Pieces::Matchings {
                matchings: counted.iter().map(|&(_, m, _)| m).sum(),
                factors: counted.iter().map(|&(_, _, f)| f).sum(),
                graphs,
            },
        }))
    }

    /// Counts the grids from the table, each class by the engine.
    fn by_table(
        &self,
        jobs: usize,
        fill: &Fill,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<BandCount>, CountError> {
        let Some(blank) = self.blank(jobs, fill, stop)? else { return Ok(None) };
        let Tabled { table, classes, models, .. } = &blank.tabled;
        Ok(Some(BandCount {
            entries: table.len(),
            classes: classes.roots.len(),
            pieces: Pieces::Engine { models: models.clone() },
            grids: blank.grids,
            fillings: blank.fillings,
        }))
    }

    /// The blank layout's table, `N` and the partner sum of each class
    /// counted (`fill` counts a class's band puzzle with the engine), and
    /// its band fillings and grids; `None` if `stop` came first.
    pub fn blank(
        &self,
        jobs: usize,
        fill: &Fill,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Blank>, CountError> {
        let (h, w) = (self.h, self.w);
        let entries = self.entries().expect("recognized");
        let shapes = Shapes::new(h, w, entries).expect("the table fits, so do its partitions");
        let table = Table::new(&shapes, h - 1);
        let classes = table.classes(&shapes);
        // N per class, the classes shared out among the threads: h! times
        // the fillings whose first column holds 1 .. h from the top.
        let counted = per_class(jobs, &classes.roots, stop, |&root| {
            let counted = fill(&self.band(&shapes, &table.stacks(root)))?;
            counted.map(|n| u128::try_from(n).map_err(|_| too_large())).transpose()
        })?;
        let Some(counted) = counted.into_iter().collect::<Option<Vec<u128>>>() else { return Ok(None) };
        let rows: u128 = (1..=h as u128).product();
        let fillings =
            counted.iter().map(|&c| c.checked_mul(rows).ok_or_else(too_large)).collect::<Result<Vec<_>, _>>()?;
        // The partner sum of each class: N itself with two bands, C with three.
        let partners = if w == 2 {
            fillings.clone()
        } else {
            let mut n = vec![0u128; table.len()];
            for (entry, &class) in classes.of.iter().enumerate() {
                n[entry] = fillings[class as usize];
            }
            let partners = per_class(jobs, &classes.roots, stop, |&root| {
                three_bands(&shapes, &table, &n, root).map(Some).ok_or_else(too_large)
            })?;
            let Some(partners) = partners.into_iter().collect::<Option<Vec<u128>>>() else { return Ok(None) };
            partners
        };
        // Each entry stands for (h w)!/h!^w first stacks times w!^(h-1)
        // orders of the other stacks' columns.
        let orders = (1..=w as u32).product::<u32>();
        let weight = BigUint::from(ordered_partitions(h, w).expect("fits")) * BigUint::from(orders).pow(h as u32 - 1);
        let (mut grids, mut band_sum) = (BigUint::default(), BigUint::default());
        for ((&size, &fills), &partner) in classes.sizes.iter().zip(&fillings).zip(&partners) {
            grids += BigUint::from(size) * fills * partner;
            band_sum += BigUint::from(size) * fills;
        }
        let models = counted.iter().map(|&c| BigUint::from(c)).sum();
        let tabled = Tabled { shapes, table, classes, fillings, partners, models };
        Ok(Some(Blank { h, w, tabled, grids: grids * &weight, fillings: band_sum * weight }))
    }

    /// The band puzzle of a signature: the top `h` rows of an `n x n` grid,
    /// its rows and boxes all different and each cell holding one of its
    /// column's digits (`stacks[k]`: the block of each digit in stack `k`,
    /// block `j` in the stack's column `j`); the rows below are given 1s
    /// and belong to no group. Its first column, which holds `P`'s block 0,
    /// is given `1 .. h` from the top: permuting a band's rows keeps its
    /// signature, and exactly one order of the rows puts the first
    /// column's digits in that order, so the band puzzle has `N / h!`
    /// solutions.
    fn band(&self, shapes: &Shapes, stacks: &[Shape]) -> Puzzle {
        let (h, w) = (self.h, self.w);
        let n = h * w;
        let mut band = Puzzle::blank(n).expect("a Sudoku's side");
        for row in 0..h {
            band.add_group((0..n).map(|col| Cell::new(row, col)).collect()).expect("a row");
        }
        for (stack, &shape) in stacks.iter().enumerate() {
            let cells = (0..h).flat_map(|row| (0..w).map(move |j| Cell::new(row, stack * w + j)));
            band.add_group(cells.collect()).expect("a box");
            for j in 0..w {
                let allowed = shapes
                    .blocks(shape)
                    .iter()
                    .enumerate()
                    .filter(|&(_, &block)| usize::from(block) == j)
                    .fold(0u64, |mask, (digit, _)| mask | 1 << digit);
                for row in 0..h {
                    let cell = Cell::new(row, stack * w + j);
                    band.add_constraint(Constraint::Digits { cell, allowed }).expect("a cell of the grid");
                }
            }
        }
        for row in 0..n {
            let (cols, digit) = if row < h { (0..1, row + 1) } else { (0..n, 1) };
            for col in cols {
                band.set_given(Cell::new(row, col), digit as u8).expect("a cell of the grid");
            }
        }
        band
    }
}

/// Band counts fit 128 bits on every layout counted by bands; past that,
/// an error rather than a wrong count.
fn too_large() -> CountError {
    CountError::Unsupported("a band's count passes 128 bits".into())
}

/// Runs `each` on every class root, shared out among `jobs` threads in
/// turns, in the roots' order; `None` if `stop` came first.
fn per_class<T: Send>(
    jobs: usize,
    roots: &[usize],
    stop: &(dyn Fn() -> bool + Sync),
    each: impl Fn(&usize) -> Result<Option<T>, CountError> + Sync,
) -> Result<Vec<Option<T>>, CountError> {
    let jobs = jobs.clamp(1, roots.len().max(1));
    type Done<T> = Result<Vec<(usize, Option<T>)>, CountError>;
    let results: Vec<Done<T>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|job| {
                let each = &each;
                scope.spawn(move || {
                    let mut done = Vec::new();
                    for index in (job..roots.len()).step_by(jobs) {
                        if stop() {
                            done.push((index, None));
                            continue;
                        }
                        done.push((index, each(&roots[index])?));
                    }
                    Ok(done)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    let mut all: Vec<Option<T>> = (0..roots.len()).map(|_| None).collect();
    for done in results {
        for (index, value) in done? {
            all[index] = value;
        }
    }
    Ok(all)
}

/// `C(s1)` for the signature at `root` (first stack `P`, the others'
/// columns in their blocks' order), with three bands: the sum of `N(s2)
/// N(s3)` over the `s2` whose column sets miss `s1`'s, `s3` the rest.
/// `None` if it passes 128 bits.
fn three_bands(shapes: &Shapes, table: &Table, n: &[u128], root: usize) -> Option<u128> {
    let stacks = table.stacks(root);
    // Per stack, its partners: (s2's partition, s3's partition), s2's
    // column j missing s1's column j's digits and s3 the rest.
    let options: Vec<Vec<(Shape, Shape)>> = stacks.iter().map(|&s| partners(shapes, s)).collect();
    // Per option of the first stack, the renaming of its s2 (and s3) onto
    // P, applied to every other stack's options.
    let renamed = |pick: fn(&(Shape, Shape)) -> Shape| -> Vec<Vec<Vec<Shape>>> {
        options[0]
            .iter()
            .map(|first| {
                let rename = shapes.to_first(pick(first));
                options[1..]
                    .iter()
                    .map(|stack| stack.iter().map(|o| shapes.relabelled(pick(o), rename)).collect())
                    .collect()
            })
            .collect()
    };
    let (second, third) = (renamed(|o| o.0), renamed(|o| o.1));
    let places: Vec<usize> = (0..stacks.len() - 1).map(|k| table.base.pow(k as u32)).collect();
    let mut sum: u128 = 0;
    let mut picks = vec![0usize; places.len()];
    for first in 0..options[0].len() {
        picks.iter_mut().for_each(|p| *p = 0);
        loop {
            let entry = |renamed: &[Vec<Vec<Shape>>]| -> usize {
                picks.iter().zip(&renamed[first]).zip(&places).map(|((&p, o), &place)| o[p] as usize * place).sum()
            };
            sum = sum.checked_add(n[entry(&second)].checked_mul(n[entry(&third)])?)?;
            // The next choice of the other stacks, as an odometer.
            let mut k = 0;
            while k < picks.len() {
                picks[k] += 1;
                if picks[k] < options[k + 1].len() {
                    break;
                }
                picks[k] = 0;
                k += 1;
            }
            if k == picks.len() {
                break;
            }
        }
    }
    Some(sum)
}

/// The partners of one stack's partition `s1` (its column `j` holding
/// block `j`): the ordered partitions `s2` whose column `j` misses `s1`'s,
/// with `s3`'s column `j` what is left; as pairs of partitions.
fn partners(shapes: &Shapes, s1: Shape) -> Vec<(Shape, Shape)> {
    let first = shapes.blocks(s1);
    let (n, w) = (first.len(), 3);
    let h = n / w;
    let mut found = Vec::new();
    let mut second = vec![0u8; n];
    let mut sizes = [0usize; 3];
    fn place(
        digit: usize,
        first: &[u8],
        second: &mut [u8],
        sizes: &mut [usize; 3],
        h: usize,
        shapes: &Shapes,
        found: &mut Vec<(Shape, Shape)>,
    ) {
        if digit == first.len() {
            let third: Vec<u8> = first.iter().zip(second.iter()).map(|(&a, &b)| 3 - a - b).collect();
            found.push((shapes.number(second), shapes.number(&third)));
            return;
        }
        for block in 0..3u8 {
            if block != first[digit] && sizes[usize::from(block)] < h {
                sizes[usize::from(block)] += 1;
                second[digit] = block;
                place(digit + 1, first, second, sizes, h, shapes, found);
                sizes[usize::from(block)] -= 1;
            }
        }
    }
    place(0, first, &mut second, &mut sizes, h, shapes, &mut found);
    found
}

#[cfg(test)]
mod tests {
    use super::matchings::backtracked;
    use super::*;
    use crate::count::plan::{count, Plan, SymmetryUse};
    use crate::encode::Encoding;

    /// The digits of each column of the signature, as bit sets: the
    /// stacks' partitions, block `j` in the stack's column `j`.
    fn columns(shapes: &Shapes, stacks: &[Shape], w: usize) -> Vec<u32> {
        let block = |s: Shape, j: usize| {
            shapes.blocks(s).iter().enumerate().filter(|&(_, &b)| usize::from(b) == j).fold(0, |m, (d, _)| m | 1 << d)
        };
        stacks.iter().flat_map(|&s| (0..w).map(move |j| block(s, j))).collect()
    }

    /// Every entry of a class has its root's fillings (the symmetries are
    /// true), and the band puzzle of each root has `1 / h!` of them.
    #[test]
    fn classes_join_only_signatures_with_equal_fillings() {
        for (h, w, step) in [(2, 2, 1), (3, 2, 1), (4, 2, 211), (3, 3, 101)] {
            let bands = Bands { h, w, transposed: false, route: Route::Table };
            let shapes = Shapes::new(h, w, MAX_TABLE).unwrap();
            let table = Table::new(&shapes, h - 1);
            let classes = table.classes(&shapes);
            // Each stack's columns partition the digits, so the boxes hold
            // them once: a band is its rows and its columns' digits.
            let brute: Vec<u128> =
                classes.roots.iter().map(|&root| backtracked(&columns(&shapes, &table.stacks(root), w), h)).collect();
            for entry in (0..table.len()).step_by(step) {
                let n = backtracked(&columns(&shapes, &table.stacks(entry), w), h);
                assert_eq!(n, brute[classes.of[entry] as usize], "{h}x{w} entry {entry}");
            }
            let plan = Plan { symmetry: SymmetryUse::None, shortcuts: false, ..Plan::new(Encoding::default()) };
            let rows: u128 = (1..=h as u128).product();
            for (&root, &n) in classes.roots.iter().zip(&brute) {
                let band = bands.band(&shapes, &table.stacks(root));
                let counted = count(&band, &plan, &mut ()).unwrap().count;
                assert_eq!(u128::try_from(counted).unwrap() * rows, n, "{h}x{w} root {root}");
            }
        }
    }

    /// Two bands counted from profiles come to the literature's counts
    /// (4x4: 288; 6x6: 28,200,960, OEIS A107739; 8x8: 29,136,487,207,403,520,
    /// Russell), and their band fillings equal the table's, whose classes
    /// the engine counts.
    #[test]
    fn two_bands_by_profiles_come_to_the_literature_counts() {
        let no_engine =
            |_: &Puzzle| -> Result<Option<BigUint>, CountError> { unreachable!("matchings, not the engine") };
        let engine = |band: &Puzzle| -> Result<Option<BigUint>, CountError> {
            let plan = Plan { symmetry: SymmetryUse::None, shortcuts: false, ..Plan::new(Encoding::default()) };
            Ok(Some(count(band, &plan, &mut ()).unwrap().count))
        };
        for (h, grids) in [(2, 288u128), (3, 28_200_960), (4, 29_136_487_207_403_520)] {
            let profiles = Bands { h, w: 2, transposed: false, route: Route::Profiles };
            let counted = profiles.count(2, &no_engine, &|| false).unwrap().unwrap();
            assert_eq!(counted.grids, BigUint::from(grids), "h = {h}");
            let table = Bands { route: Route::Table, ..profiles }.count(2, &engine, &|| false).unwrap().unwrap();
            assert_eq!(counted.fillings, table.fillings, "h = {h}");
        }
    }

    /// Each stack of a 9x9 band has 56 partners (Felgenhauer & Jarvis'
    /// count of the middle box's choices given the top one's, by digits).
    #[test]
    fn a_nine_by_nine_stack_has_56_partners() {
        let shapes = Shapes::new(3, 3, 1000).unwrap();
        for shape in [0, 1, 100, 279] {
            assert_eq!(partners(&shapes, shape).len(), 56);
        }
    }

    #[test]
    fn layouts_past_the_table_and_the_profiles_are_not_counted_by_bands() {
        let layout = |h, w| Puzzle::sudoku(h, w).unwrap();
        let bands = |h, w, transposed, route| Some(Bands { h, w, transposed, route });
        assert_eq!(Bands::recognize(&layout(3, 3), true), bands(3, 3, false, Route::Table));
        assert_eq!(Bands::recognize(&layout(2, 4), true), bands(4, 2, true, Route::Table));
        assert_eq!(Bands::recognize(&layout(2, 4), false), None);
        assert_eq!(Bands::recognize(&layout(2, 5), true), bands(5, 2, true, Route::Profiles));
        assert_eq!(Bands::recognize(&layout(5, 2), false), bands(5, 2, false, Route::Profiles));
        for (h, w) in [(3, 4), (2, 6), (6, 2), (4, 4), (1, 4)] {
            assert_eq!(Bands::recognize(&layout(h, w), true), None, "{h}x{w}");
        }
    }
}
