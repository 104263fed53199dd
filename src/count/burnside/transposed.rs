//! The transposition's class: the grids a transposing involution maps onto
//! a relabelling of themselves, counted from the first band's signatures
//! (for [`count`](super::count), where bands moved onto bands cannot take
//! the class: a motion that transposes maps no band onto a band).
//!
//! *The class.* A geometric motion that transposes is `T` (the
//! transposition) after a permutation of the rows and one of the columns;
//! if it is an involution it is `g(r, c) = (a(c), a^-1(r))` for a line
//! permutation `a` of the layout, and with `k` the column permutation `a^-1`
//! (in the group, since `g T` permutes the rows by `a`), `k T k^-1 = g`. So
//! every transposing involution is conjugate to `T`, and since the grids a
//! motion fixes are a class function, each has `F(T)`.
//!
//! *Up to relabelling.* `F(T)` counts the grids `x` with `x(T(p)) =
//! r(x(p))` everywhere for some relabelling `r`. Relabelling maps such a
//! grid onto another (with `r` conjugated), no grid onto itself, and each
//! orbit holds exactly one grid whose first box is `1, 2, ..., n` in
//! reading order. So `F(T) = n! F0`, `F0` the grids with that first box;
//! the box maps onto itself under `T`, which fixes the relabelling: `r0`,
//! the digit of box cell `(i, j)` to that of `(j, i)`.
//!
//! *Bands.* Such a grid is its first band `B` (the first box given), its
//! first stack (the band transposed and relabelled by `r0`), and the
//! square `L` of the other rows and columns, itself equal to its
//! transposition relabelled. The rows of the first band hold every digit
//! by `B`'s rules (rows and boxes inside it); row `i` of `L` meets the
//! first stack in `r0(S_i)`, `S_i` the digits of `B`'s column `i`, and
//! holds every digit exactly when `L`'s part of it is the others; the
//! columns are the rows relabelled; the first stack's boxes are the first
//! band's relabelled, and `L`'s boxes off its diagonal come in mirrored
//! pairs, one relabelled from the other. So `F0 = sum over the signatures
//! s of B (its columns' digit sets past the first box) of N(s) M(s)`: `N`
//! the first band's fillings with that signature, `M` the symmetric
//! fillings of `L` whose row `i` holds the digits `r0(S_i)` leaves, each
//! box on the diagonal holding every digit once. `M` fills `L`'s cells on
//! and above the diagonal, a cell `(i, j)` with `d` putting `r0(d)` in
//! row `j` (and in the same box when the box is on the diagonal); a
//! diagonal cell holds a digit `r0` fixes.
//!
//! For 9x9 the first band has 2,612,736 fillings with its first box given;
//! `F0` is 30,258,432 (Russell and Jarvis 2006, the class of 1,296 motions
//! that their table numbers 37).

use std::collections::HashMap;

use itertools::Itertools;
use num_bigint::BigUint;

/// The most fillings of the first band enumerated: 9x9's 2,612,736 fit,
/// 16x16's do not (and its group is past [`super::MAX_GROUP`]).
const MAX_FILLINGS: u64 = 1 << 24;

/// `F(T)` for a blank Sudoku of `h x h` boxes: the grids the transposition
/// maps onto a relabelling of themselves. `None` when the first band has
/// more than [`MAX_FILLINGS`] fillings, or `stop` (polled now and then)
/// came first.
pub(super) fn count(h: usize, stop: &dyn Fn() -> bool) -> Option<BigUint> {
    let n = h * h;
    if !(2..=3).contains(&h) {
        return None;
    }
    let square = Square::new(h);
    // `M` once per signature up to the order of the columns (below).
    let mut orders: HashMap<u128, u64> = HashMap::new();
    for (signature, fillings) in square.first_band(stop)? {
        *orders.entry(square.ordered(signature)).or_default() += fillings;
    }
    let mut sum = 0u128;
    for (k, (&signature, &fillings)) in orders.iter().enumerate() {
        if k % 1024 == 0 && stop() {
            return None;
        }
        sum += u128::from(fillings) * u128::from(square.rest(signature));
    }
    let factorial = (1..=n as u64).map(BigUint::from).product::<BigUint>();
    Some(BigUint::from(sum) * factorial)
}

/// The layout and `r0` (digits from 0: box cell `(i, j)` holds `i h + j`).
struct Square {
    h: usize,
    n: usize,
    /// `r0` of each digit.
    rename: Vec<usize>,
    /// `r0` of each set of digits.
    renamed: Vec<u16>,
    /// The digits `r0` fixes.
    fixed: u16,
}

impl Square {
    fn new(h: usize) -> Square {
        let n = h * h;
        let rename: Vec<usize> = (0..n).map(|d| (d % h) * h + d / h).collect();
        let renamed = (0..1usize << n)
            .map(|set| (0..n).filter(|&d| set >> d & 1 == 1).fold(0u16, |m, d| m | 1 << rename[d]))
            .collect();
        let fixed = (0..n).filter(|&d| rename[d] == d).fold(0, |m, d| m | 1 << d);
        Square { h, n, rename, renamed, fixed }
    }

    fn all(&self) -> u16 {
        ((1u32 << self.n) - 1) as u16
    }

    /// The first band's fillings with the first box given, tallied by
    /// signature: the digits of column `h + k` at bits `k n ..`.
    fn first_band(&self, stop: &dyn Fn() -> bool) -> Option<HashMap<u128, u64>> {
        let (h, n) = (self.h, self.n);
        // Row r still needs the digits outside the first box's row r.
        let rows: Vec<u16> = (0..h).map(|r| self.all() & !(((1u16 << h) - 1) << (r * h))).collect();
        let mut band = Band {
            h,
            n,
            rows,
            boxes: vec![self.all(); h],
            columns: vec![0; n - h],
            tally: HashMap::new(),
            fillings: 0,
            stop,
        };
        band.fill(0).then_some(band.tally)
    }

    /// The signature with each stack's columns in order and the stacks in
    /// order: `M` is the same for both. Permuting `L`'s rows and its
    /// columns alike, within its bands and the bands themselves, maps its
    /// fillings for `S` one to one onto those for `S` so permuted (it keeps
    /// the symmetry, and maps boxes onto boxes, those on the diagonal onto
    /// those on the diagonal).
    fn ordered(&self, signature: u128) -> u128 {
        let (h, n) = (self.h, self.n);
        let columns = (0..n - h).map(|c| (signature >> (c * n)) as u16 & self.all());
        let mut stacks: Vec<Vec<u16>> = columns.chunks(h).into_iter().map(|stack| stack.sorted().collect()).collect();
        stacks.sort();
        stacks.iter().flatten().enumerate().fold(0u128, |key, (c, &m)| key | u128::from(m) << (c * n))
    }

    /// `M(s)`: the fillings of `L` (rows and columns `h..n`) equal to their
    /// transposition relabelled by `r0`, row `i` holding the digits that
    /// `r0(S_i)` leaves, the boxes all different.
    fn rest(&self, signature: u128) -> u64 {
        let (h, n) = (self.h, self.n);
        let column = |i: usize| (signature >> ((i - h) * n)) as u16 & self.all();
        let rows: Vec<u16> = (h..n).map(|i| self.all() & !self.renamed[usize::from(column(i))]).collect();
        let cells: Vec<(usize, usize)> = (h..n).flat_map(|i| (i..n).map(move |j| (i - h, j - h))).collect();
        let mut rest = Rest { square: self, cells, rows, boxes: vec![self.all(); h * h] };
        rest.fill(0)
    }
}

/// The first band's enumeration past its first box, row by row.
struct Band<'a> {
    h: usize,
    n: usize,
    /// The digits each row still needs.
    rows: Vec<u16>,
    /// The digits each box still needs.
    boxes: Vec<u16>,
    /// The digits of each column past the first box.
    columns: Vec<u16>,
    tally: HashMap<u128, u64>,
    fillings: u64,
    stop: &'a dyn Fn() -> bool,
}

impl Band<'_> {
    /// Fills the band from cell `k` on (row `k / (n - h)`, column `h + k %
    /// (n - h)`); `false` if past [`MAX_FILLINGS`] or stopped.
    fn fill(&mut self, k: usize) -> bool {
        let width = self.n - self.h;
        if k == self.h * width {
            let key = self.columns.iter().enumerate().fold(0u128, |key, (c, &m)| key | u128::from(m) << (c * self.n));
            *self.tally.entry(key).or_default() += 1;
            self.fillings += 1;
            return self.fillings <= MAX_FILLINGS && (self.fillings % (1 << 16) != 0 || !(self.stop)());
        }
        let (row, c) = (k / width, k % width);
        let b = (self.h + c) / self.h;
        let mut free = self.rows[row] & self.boxes[b];
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.rows[row] ^= bit;
            self.boxes[b] ^= bit;
            self.columns[c] ^= bit;
            let going = self.fill(k + 1);
            self.rows[row] ^= bit;
            self.boxes[b] ^= bit;
            self.columns[c] ^= bit;
            if !going {
                return false;
            }
        }
        true
    }
}

/// `L`'s cells on and above the diagonal, filled in order.
struct Rest<'a> {
    square: &'a Square,
    /// `(i, j)` with `i <= j`, rows and columns of `L` from 0.
    cells: Vec<(usize, usize)>,
    /// The digits each row of `L` still needs.
    rows: Vec<u16>,
    /// The digits each box of `L` still needs (`a (h - 1) + b` for box `(a,
    /// b)`; those below the diagonal are mirrors and never read).
    boxes: Vec<u16>,
}

impl Rest<'_> {
    fn fill(&mut self, k: usize) -> u64 {
        let Some(&(i, j)) = self.cells.get(k) else { return 1 };
        let square = self.square;
        let h = square.h;
        let b = (i / h) * h + j / h;
        let diagonal = i / h == j / h;
        let mut free = self.rows[i] & self.boxes[b];
        if i == j {
            free &= square.fixed;
        } else {
            // r0(d) goes into row j (and into this box if on the diagonal).
            free &= square.renamed[usize::from(self.rows[j])];
            if diagonal {
                free &= square.renamed[usize::from(self.boxes[b])] & !square.fixed;
            }
        }
        let mut grids = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let mirror = 1u16 << square.rename[bit.trailing_zeros() as usize];
            let (row, cell_box) = if i == j { (0, 0) } else { (mirror, if diagonal { mirror } else { 0 }) };
            self.rows[i] ^= bit;
            self.rows[j] ^= row;
            self.boxes[b] ^= bit | cell_box;
            grids += self.fill(k + 1);
            self.rows[i] ^= bit;
            self.rows[j] ^= row;
            self.boxes[b] ^= bit | cell_box;
        }
        grids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every 4x4 Sudoku grid, by a plain backtracking search.
    fn four_by_four_grids() -> Vec<[usize; 16]> {
        fn fill(grid: &mut [usize; 16], at: usize, out: &mut Vec<[usize; 16]>) {
            if at == 16 {
                out.push(*grid);
                return;
            }
            let (r, c) = (at / 4, at % 4);
            for d in 0..4 {
                let clash = (0..16).take(at).any(|p| {
                    let (pr, pc) = (p / 4, p % 4);
                    grid[p] == d && (pr == r || pc == c || (pr / 2 == r / 2 && pc / 2 == c / 2))
                });
                if !clash {
                    grid[at] = d;
                    fill(grid, at + 1, out);
                }
            }
        }
        let mut out = Vec::new();
        fill(&mut [0; 16], 0, &mut out);
        out
    }

    #[test]
    fn four_by_four_comes_to_the_grids_equal_to_a_relabelled_transposition() {
        let grids = four_by_four_grids();
        assert_eq!(grids.len(), 288);
        // A grid counts when x(c, r) = r(x(r, c)) for one map r of digits.
        let fixed = grids
            .iter()
            .filter(|x| {
                let mut r = [None; 4];
                (0..16).all(|p| {
                    let q = (p % 4) * 4 + p / 4;
                    *r[x[p]].get_or_insert(x[q]) == x[q]
                })
            })
            .count();
        assert_eq!(count(2, &|| false), Some(BigUint::from(fixed)));
        assert!(fixed > 0);
    }

    #[test]
    fn nine_by_nine_first_box_given_comes_to_russell_and_jarvis() {
        // Their class 37: 30,258,432 grids up to relabelling.
        let f = count(3, &|| false).unwrap();
        assert_eq!(f, BigUint::from(30_258_432u64) * BigUint::from(362_880u64));
    }
}
