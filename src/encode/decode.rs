//! Decoding: a model (variable values, engine bytes or solver literals)
//! read back into a [`Grid`], or a [`DecodeError`] that names the cell.

use std::borrow::Cow;

use varisat::{Lit, Var};

use super::vars::{DecodeError, DigitEncoding, Slot, VarMap};
use crate::model::{Cell, Digit, Grid};

impl VarMap {
    /// Reads a grid from variable values; `value` answers for a primary variable.
    pub fn decode(&self, value: impl Fn(Var) -> Option<bool>) -> Result<Grid, DecodeError> {
        let (n, per_cell) = (self.side, self.per_cell());
        let bit = |full: usize| match self.slot(Var::from_index(full)) {
            Slot::Fixed(b) => Ok(b),
            Slot::Var(v) => value(v).ok_or_else(|| DecodeError::Unassigned(v.to_dimacs())),
        };
        let mut digits = Vec::with_capacity(n * n);
        // The full layout numbers cells in reading order, `per_cell` variables each.
        let mut full = 0;
        for r in 0..n {
            for c in 0..n {
                let mut bits = 0u64;
                for k in 0..per_cell {
                    bits |= u64::from(bit(full + k)?) << k;
                }
                full += per_cell;
                digits.push(self.read_cell(Cell::new(r, c), bits)?);
            }
        }
        Ok(self.grid(digits))
    }

    /// The grid of `n * n` decoded digits, a chaos construction's labels
    /// renumbered by their regions' 1s where the formula numbers them by
    /// their first cells: label `k` is the region of row `k`'s 1, as
    /// [`crate::model::Puzzle::into_chaos`] says. Labels that do not make
    /// a layout stay as they are, for the checker to refuse.
    fn grid(&self, mut digits: Vec<Digit>) -> Grid {
        if self.first_cell_labels {
            let n = self.side / 2;
            let mut by_ones = vec![0; n + 1];
            for k in 0..n {
                let one = (0..n).find(|&c| digits[k * self.side + c] == 1);
                if let Some(&l) =
                    one.and_then(|c| digits.get(self.label_at(k, c))).filter(|&&l| (1..=n).contains(&usize::from(l)))
                {
                    by_ones[usize::from(l)] = k as Digit + 1;
                }
            }
            if by_ones[1..].iter().all(|&k| k > 0) {
                for (r, c) in itertools::iproduct!(0..n, 0..n) {
                    let l = &mut digits[self.label_at(r, c)];
                    *l = by_ones.get(usize::from(*l)).copied().filter(|&k| k > 0).unwrap_or(*l);
                }
            }
        }
        Grid::new(self.side, digits).expect("n * n digits")
    }

    /// Where a chaos construction's label of (`r`, `c`) is in the padded
    /// grid's digits: `n` columns of digits, `n` rows of labels below.
    fn label_at(&self, r: usize, c: usize) -> usize {
        (self.side / 2 + r) * self.side + c
    }

    /// `grid` as the formula spells it: where the formula numbers a chaos
    /// construction's labels by their regions' first cells, each label
    /// renumbered by the order its region's first cell comes in reading
    /// order (the numbering the formula's models have, which [`VarMap::grid`]
    /// replaced by the 1s'); any other grid as it is.
    pub(super) fn formula_labels<'g>(&self, grid: &'g Grid) -> Cow<'g, Grid> {
        if !self.first_cell_labels {
            return Cow::Borrowed(grid);
        }
        let n = self.side / 2;
        let mut digits: Vec<Digit> = grid.rows().flatten().copied().collect();
        let mut by_first_cells = vec![0; n + 1];
        let mut next = 0;
        for (r, c) in itertools::iproduct!(0..n, 0..n) {
            let l = &mut digits[self.label_at(r, c)];
            if let Some(k) = by_first_cells.get_mut(usize::from(*l)).filter(|_| *l > 0) {
                if *k == 0 {
                    next += 1;
                    *k = next;
                }
                *l = *k;
            }
        }
        Cow::Owned(Grid::new(self.side, digits).expect("the grid's own digits"))
    }

    /// [`VarMap::decode`] from one byte per primary variable, true when its
    /// lowest bit is set (as the enum engine keeps them: 0 false, 1 true, 2
    /// open). Without the reduction each cell's bytes are read eight at a
    /// time, as a count does per model.
    pub fn decode_bytes(&self, values: &[u8]) -> Result<Grid, DecodeError> {
        let (n, per_cell) = (self.side, self.per_cell());
        if self.reduced.is_some() || per_cell == 0 || values.len() < self.primary {
            return self.decode(|v| values.get(v.index()).map(|b| b & 1 == 1));
        }
        if self.digits == DigitEncoding::Direct {
            if let Some(digits) = direct_digits(&values[..self.primary], n, per_cell) {
                return Ok(self.grid(digits));
            }
        }
        // The full layout numbers cells in reading order, `per_cell` variables each.
        let mut cells = values[..self.primary].chunks_exact(per_cell);
        let mut digits = Vec::with_capacity(n * n);
        for r in 0..n {
            for c in 0..n {
                let bytes = cells.next().expect("n * n cells in the layout");
                digits.push(self.read_cell(Cell::new(r, c), low_bits(bytes))?);
            }
        }
        Ok(self.grid(digits))
    }

    /// The digit the full-layout values of one cell spell; bit `k` of `bits`
    /// is the cell's `k`-th variable (at most 64 of them, as sides are).
    pub(super) fn read_cell(&self, cell: Cell, bits: u64) -> Result<Digit, DecodeError> {
        let digit = |k: u32| (k + 1) as Digit;
        match self.digits {
            DigitEncoding::Direct if bits == 0 => Err(DecodeError::NoDigit(cell)),
            // One bit set, tested without a population count (dozens of
            // instructions on the baseline x86-64 target).
            DigitEncoding::Direct if bits & (bits - 1) == 0 => Ok(digit(bits.trailing_zeros())),
            DigitEncoding::Direct => {
                Err(DecodeError::SeveralDigits(cell, (0..64).filter(|k| bits >> k & 1 == 1).map(digit).collect()))
            }
            DigitEncoding::Order => {
                let at_least = bits.trailing_ones();
                if at_least < 64 && bits >> at_least != 0 {
                    return Err(DecodeError::NotACode(cell));
                }
                Ok(digit(at_least))
            }
            DigitEncoding::Log if bits >= self.values as u64 => Err(DecodeError::NotACode(cell)),
            DigitEncoding::Log => Ok(digit(bits as u32)),
        }
    }

    /// Reads a grid from a model given as literals (as varisat returns it).
    pub fn decode_model(&self, model: &[Lit]) -> Result<Grid, DecodeError> {
        self.decode(|var| model.get(var.index()).filter(|l| l.var() == var).map(|l| l.is_positive()))
    }
}

/// The lowest bit of each of eight bytes in a little-endian word.
const LOW: u64 = 0x0101_0101_0101_0101;

/// The digits of a full direct layout of an `n x n` grid with `per_cell`
/// variables per cell, from the
/// lowest bit of each value's byte; `None` unless every cell has exactly one
/// true variable. The true ones are found eight bytes at a time (at a model of
/// a 9x9 grid, 81 among 729), in order, so the cell of each follows from the
/// cell of the one before, without a division.
fn direct_digits(values: &[u8], n: usize, per_cell: usize) -> Option<Vec<Digit>> {
    let mut digits = vec![0 as Digit; n * n];
    let (mut cell, mut cell_start) = (0, 0);
    let mut place = |var: usize| {
        while var >= cell_start + per_cell {
            cell += 1;
            cell_start += per_cell;
        }
        let digit = &mut digits[cell];
        let first = *digit == 0;
        *digit = (var - cell_start + 1) as Digit;
        first
    };
    let mut words = values.chunks_exact(8);
    for (w, word) in words.by_ref().enumerate() {
        let mut bits = u64::from_le_bytes(word.try_into().expect("eight bytes")) & LOW;
        while bits != 0 {
            if !place(8 * w + bits.trailing_zeros() as usize / 8) {
                return None;
            }
            bits &= bits - 1;
        }
    }
    let tail = values.len() - words.remainder().len();
    for (i, &b) in words.remainder().iter().enumerate() {
        if b & 1 == 1 && !place(tail + i) {
            return None;
        }
    }
    (!digits.contains(&0)).then_some(digits)
}

/// The lowest bit of each of up to 64 bytes, the first byte's lowest.
fn low_bits(bytes: &[u8]) -> u64 {
    // Multiplying moves bit 8i of a word to bit 56 + i, and every other
    // product bit elsewhere without carries (a known gather).
    const GATHER: u64 = 0x0102_0408_1020_4080;
    bytes.chunks(8).enumerate().fold(0, |bits, (k, chunk)| {
        let word = match <[u8; 8]>::try_from(chunk) {
            Ok(word) => u64::from_le_bytes(word),
            Err(_) => chunk.iter().rev().fold(0, |word, &b| word << 8 | u64::from(b)),
        };
        bits | ((word & LOW).wrapping_mul(GATHER) >> 56) << (8 * k)
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::encode::{encode, Encoding};
    use crate::named::Named;

    /// A cell's variable values as the bit set `read_cell` takes.
    fn bits(values: &[bool]) -> u64 {
        values.iter().enumerate().map(|(k, &b)| u64::from(b) << k).sum()
    }

    #[test]
    fn decode_reports_cells_without_one_digit() {
        let map = VarMap::new(4, 4, DigitEncoding::Direct);
        let none = map.decode(|_| Some(false));
        assert_eq!(none, Err(DecodeError::NoDigit(Cell::new(0, 0))));
        let all = map.decode(|_| Some(true));
        assert_eq!(all, Err(DecodeError::SeveralDigits(Cell::new(0, 0), vec![1, 2, 3, 4])));
        assert_eq!(map.decode(|_| None), Err(DecodeError::Unassigned(1)));
    }

    /// A 2x2 chaos construction's labels as a formula numbered by first
    /// cells gives them (regions {r1c1, r2c1} = 1 and {r1c2, r2c2} = 2,
    /// first cells r1c1 and r1c2) come out numbered by their 1s (row 1's 1
    /// is r1c2's, row 2's r2c1's): 2 and 1; labels that are not a layout
    /// as they were, for the checker; and renumbered back by first cells
    /// (`formula_labels`). Padding cells hold 1.
    #[test]
    fn first_cell_labels_are_renumbered_by_the_ones() {
        let map = VarMap { first_cell_labels: true, ..VarMap::new(4, 2, DigitEncoding::Direct) };
        let grid = |labels: [u8; 4]| {
            let [a, b, c, d] = labels;
            map.grid(vec![2, 1, 1, 1, 1, 2, 1, 1, a, b, 1, 1, c, d, 1, 1])
        };
        let labels =
            |g: &Grid| [g.get(Cell::new(2, 0)), g.get(Cell::new(2, 1)), g.get(Cell::new(3, 0)), g.get(Cell::new(3, 1))];
        assert_eq!(labels(&grid([1, 2, 1, 2])), [2, 1, 2, 1]);
        assert_eq!(labels(&grid([1, 1, 1, 1])), [1, 1, 1, 1]);
        assert_eq!(labels(&grid([0, 3, 1, 2])), [0, 3, 1, 2]);
        // And back to the formula's numbering, as blocking clauses spell a model.
        assert_eq!(labels(&map.formula_labels(&grid([1, 2, 1, 2]))), [1, 2, 1, 2]);
        assert_eq!(labels(&map.formula_labels(&grid([1, 1, 1, 1]))), [1, 1, 1, 1]);
        assert_eq!(labels(&map.formula_labels(&grid([0, 2, 2, 1]))), [0, 1, 1, 2]);
        let plain = VarMap::new(4, 2, DigitEncoding::Direct);
        let g = plain.grid(vec![2, 1, 1, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1, 2, 1, 1]);
        assert_eq!(labels(&g), [1, 2, 1, 2]);
    }

    proptest! {
        /// Decoding from bytes agrees with decoding from every variable's
        /// value, on random assignments of every encoding, reduced or not,
        /// grids and errors alike, on 4x4 and 9x9 grids (a cell's direct
        /// variables fill more than one eight-byte word there). Bytes above
        /// the lowest bit are set at random, as the engine's open value sets them.
        #[test]
        fn decoding_bytes_agrees_with_decoding_values(
            box_side in 2usize..=3,
            digits in proptest::sample::select(DigitEncoding::VARIANTS),
            reduce in any::<bool>(),
            cells in proptest::collection::vec(0u8..9, 81),
            flips in proptest::collection::vec(any::<proptest::sample::Index>(), 0..3),
            high in proptest::collection::vec(any::<bool>(), 729),
        ) {
            let mut puzzle = crate::model::Puzzle::sudoku(box_side, box_side).unwrap();
            puzzle.set_given(Cell::new(0, 0), 3).unwrap();
            let n = puzzle.side() as u8;
            let map = encode(&puzzle, &Encoding { digits, reduce, ..Default::default() }).vars;
            // A random grid's spelling, then a few variables flipped.
            let mut values = vec![false; map.primary_count()];
            for (cell, d) in puzzle.cells().zip(&cells) {
                for (k, bit) in map.cell_values(1 + d % n).enumerate() {
                    if let Slot::Var(v) = map.slot(map.full_var(cell, k)) {
                        values[v.index()] = bit;
                    }
                }
            }
            for flip in flips {
                let i = flip.index(values.len());
                values[i] = !values[i];
            }
            let bytes: Vec<u8> = values.iter().zip(&high).map(|(&b, &h)| u8::from(b) | u8::from(h) << 1).collect();
            let all = map.decode(|v| values.get(v.index()).copied());
            prop_assert_eq!(map.decode_bytes(&bytes), all);
        }
    }

    #[test]
    fn codes_that_spell_no_digit_are_rejected() {
        let order = VarMap::new(4, 4, DigitEncoding::Order);
        assert_eq!(
            order.read_cell(Cell::new(0, 0), bits(&[false, true, false])),
            Err(DecodeError::NotACode(Cell::new(0, 0)))
        );
        let log = VarMap::new(3, 3, DigitEncoding::Log);
        assert_eq!(log.read_cell(Cell::new(0, 0), bits(&[true, true])), Err(DecodeError::NotACode(Cell::new(0, 0))));
    }
}
