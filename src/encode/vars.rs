//! The primary variables: how each cell's digit is spelled in them (the
//! [`DigitEncoding`]), how the given-aware reduction renumbers them, and the
//! decoding of a model back into a grid.

use std::fmt;

use varisat::{Lit, Var};

use super::amo::bits_for;
use crate::model::{Cell, Digit, Grid};

crate::named_enum! {
    /// How a cell's digit is spelled in primary variables.
    pub enum DigitEncoding = Direct {
        /// One-hot: `x(cell,d)` is true when the cell holds `d`.
        Direct = "direct",
        /// Order encoding (Tamura et al. 2009): `y(cell,d)` is "digit >= d", for `d` in `2..=n`.
        Order = "order",
        /// Log encoding: the bits of `digit - 1`, least significant first.
        Log = "log",
    }
}

impl DigitEncoding {
    /// Primary variables per cell on an `n`-digit grid: `n`, `n - 1`, `ceil(log2 n)`.
    pub fn vars_per_cell(self, n: usize) -> usize {
        match self {
            DigitEncoding::Direct => n,
            DigitEncoding::Order => n.saturating_sub(1),
            DigitEncoding::Log => bits_for(n),
        }
    }
}

/// What a primary variable of the full layout became after the given-aware
/// reduction: a variable of the reduced formula, or a value the givens fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Var(Var),
    Fixed(bool),
}

/// Numbers the primary variables of an `n x n` grid. In the full layout cell
/// `(r,c)` (0-based) owns the `k = vars_per_cell` variables from index
/// `(n*r + c) * k`; see the module doc of [`crate::encode`] for each encoding.
/// After the given-aware reduction the open ones are renumbered from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarMap {
    side: usize,
    digits: DigitEncoding,
    /// For each variable of the full layout, what it became; `None` when the
    /// formula is not reduced (every variable is itself).
    reduced: Option<Vec<Slot>>,
    primary: usize,
}

/// Why a model does not describe a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The model gives no value to this primary variable (DIMACS number).
    Unassigned(isize),
    NoDigit(Cell),
    SeveralDigits(Cell, Vec<Digit>),
    /// Order literals that are not monotone, or a log code above `n`.
    NotACode(Cell),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Unassigned(v) => write!(f, "the model gives no value to variable {v}"),
            DecodeError::NoDigit(cell) => write!(f, "the model puts no digit in {cell}"),
            DecodeError::SeveralDigits(cell, ds) => {
                write!(f, "the model puts several digits in {cell}: {}", itertools::join(ds, ", "))
            }
            DecodeError::NotACode(cell) => write!(f, "the model's variables for {cell} spell no digit"),
        }
    }
}

impl std::error::Error for DecodeError {}

impl VarMap {
    /// The full layout, before any reduction.
    pub fn new(side: usize, digits: DigitEncoding) -> VarMap {
        VarMap { side, digits, reduced: None, primary: side * side * digits.vars_per_cell(side) }
    }

    /// The same layout after the given-aware reduction: `slots` says what each
    /// full-layout variable became; `primary` variables remain.
    pub(crate) fn with_reduction(&self, slots: Vec<Slot>, primary: usize) -> VarMap {
        debug_assert_eq!(slots.len(), self.primary);
        VarMap { side: self.side, digits: self.digits, reduced: Some(slots), primary }
    }

    pub fn side(&self) -> usize {
        self.side
    }

    pub fn digits(&self) -> DigitEncoding {
        self.digits
    }

    pub fn is_reduced(&self) -> bool {
        self.reduced.is_some()
    }

    /// Number of primary variables in the formula; they are the first ones.
    pub fn primary_count(&self) -> usize {
        self.primary
    }

    fn per_cell(&self) -> usize {
        self.digits.vars_per_cell(self.side)
    }

    /// The `k`-th full-layout variable of `cell`.
    pub(crate) fn full_var(&self, cell: Cell, k: usize) -> Var {
        debug_assert!(cell.row < self.side && cell.col < self.side && k < self.per_cell());
        Var::from_index((cell.row * self.side + cell.col) * self.per_cell() + k)
    }

    /// The direct variable "`cell` holds `digit`" of the full layout.
    pub fn var(&self, cell: Cell, digit: Digit) -> Var {
        debug_assert_eq!(self.digits, DigitEncoding::Direct);
        debug_assert!(digit >= 1 && usize::from(digit) <= self.side);
        self.full_var(cell, usize::from(digit) - 1)
    }

    /// [`VarMap::var`] as a positive literal.
    pub fn lit(&self, cell: Cell, digit: Digit) -> Lit {
        self.var(cell, digit).positive()
    }

    /// The literals (full layout) whose conjunction says "`cell` holds `digit`":
    /// `x(d)`; `y(d) ∧ ¬y(d+1)` without the ends; or the bits of `d - 1`.
    pub(crate) fn digit_lits(&self, cell: Cell, digit: Digit) -> Vec<Lit> {
        let (n, d) = (self.side, usize::from(digit));
        match self.digits {
            DigitEncoding::Direct => vec![self.lit(cell, digit)],
            DigitEncoding::Order => {
                let mut lits = Vec::with_capacity(2);
                if d >= 2 {
                    lits.push(self.full_var(cell, d - 2).positive());
                }
                if d < n {
                    lits.push(self.full_var(cell, d - 1).negative());
                }
                lits
            }
            DigitEncoding::Log => {
                (0..self.per_cell()).map(|k| Lit::from_var(self.full_var(cell, k), (d - 1) >> k & 1 == 1)).collect()
            }
        }
    }

    /// The value of each full-layout variable of `cell` when it holds `digit`.
    pub(crate) fn cell_values(&self, digit: Digit) -> impl Iterator<Item = bool> + '_ {
        let d = usize::from(digit);
        (0..self.per_cell()).map(move |k| match self.digits {
            DigitEncoding::Direct => k + 1 == d,
            DigitEncoding::Order => d >= k + 2,
            DigitEncoding::Log => (d - 1) >> k & 1 == 1,
        })
    }

    /// What a full-layout variable became.
    pub fn slot(&self, full: Var) -> Slot {
        match &self.reduced {
            None => Slot::Var(full),
            Some(slots) => slots[full.index()],
        }
    }

    /// Whether `cell` holds `digit` under a partial assignment of the
    /// formula's variables: `None` while open.
    pub fn holds(&self, cell: Cell, digit: Digit, value: impl Fn(Var) -> Option<bool>) -> Option<bool> {
        let mut all_true = true;
        for lit in self.digit_lits(cell, digit) {
            let var_value = match self.slot(lit.var()) {
                Slot::Fixed(b) => Some(b),
                Slot::Var(v) => value(v),
            };
            match var_value {
                Some(b) if b == lit.is_positive() => {}
                Some(_) => return Some(false),
                None => all_true = false,
            }
        }
        all_true.then_some(true)
    }

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
        Ok(Grid::new(n, digits).expect("n * n digits were pushed"))
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
            if let Some(digits) = direct_digits(&values[..self.primary], n) {
                return Ok(Grid::new(n, digits).expect("n * n digits"));
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
        Ok(Grid::new(n, digits).expect("n * n digits"))
    }

    /// The digit the full-layout values of one cell spell; bit `k` of `bits`
    /// is the cell's `k`-th variable (at most 64 of them, as sides are).
    fn read_cell(&self, cell: Cell, bits: u64) -> Result<Digit, DecodeError> {
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
            DigitEncoding::Log if bits >= self.side as u64 => Err(DecodeError::NotACode(cell)),
            DigitEncoding::Log => Ok(digit(bits as u32)),
        }
    }

    /// Reads a grid from a model given as literals (as varisat returns it).
    pub fn decode_model(&self, model: &[Lit]) -> Result<Grid, DecodeError> {
        self.decode(|var| model.get(var.index()).filter(|l| l.var() == var).map(|l| l.is_positive()))
    }

    /// The clause that excludes exactly this grid and no other: the negated
    /// primary literals that spell it. With one-hot digits the true ones suffice
    /// (one digit per cell); variables the reduction fixed are left out.
    pub fn blocking_clause(&self, grid: &Grid) -> Vec<Lit> {
        let n = self.side;
        let mut clause = Vec::with_capacity(n * n);
        for cell in (0..n).flat_map(|r| (0..n).map(move |c| Cell::new(r, c))) {
            for (k, value) in self.cell_values(grid.get(cell)).enumerate() {
                if self.digits == DigitEncoding::Direct && !value {
                    continue;
                }
                if let Slot::Var(v) = self.slot(self.full_var(cell, k)) {
                    clause.push(Lit::from_var(v, !value));
                }
            }
        }
        clause
    }

    /// How the primary variables are numbered, for comments in exported files.
    pub fn describe(&self) -> String {
        let n = self.side;
        let k = self.per_cell();
        let layout = match self.digits {
            DigitEncoding::Direct => format!("x(r,c,d) = {}*(r-1) + {n}*(c-1) + d for r, c, d in 1..{n}", n * n),
            DigitEncoding::Order => {
                format!("y(r,c,d) = \"digit >= d\" = {}*(r-1) + {k}*(c-1) + d-1 for r, c in 1..{n}, d in 2..{n}", n * k)
            }
            DigitEncoding::Log => {
                format!("bit j of digit-1 = {}*(r-1) + {k}*(c-1) + j+1 for r, c in 1..{n}, j in 0..{}", n * k, k - 1)
            }
        };
        match self.reduced {
            None => format!("{layout} are primary (1..{})", self.primary),
            Some(_) => format!(
                "{layout}, less those the givens fix, renumbered in order, are primary (1..{}); \
                 decode models with the same encoding options",
                self.primary
            ),
        }
    }
}

/// The lowest bit of each of eight bytes in a little-endian word.
const LOW: u64 = 0x0101_0101_0101_0101;

/// The digits of a full direct layout of `n` variables per cell, from the
/// lowest bit of each value's byte; `None` unless every cell has exactly one
/// true variable. The true ones are found eight bytes at a time (at a model of
/// a 9x9 grid, 81 among 729), in order, so the cell of each follows from the
/// cell of the one before, without a division.
fn direct_digits(values: &[u8], n: usize) -> Option<Vec<Digit>> {
    let mut digits = vec![0 as Digit; n * n];
    let (mut cell, mut cell_start) = (0, 0);
    let mut place = |var: usize| {
        while var >= cell_start + n {
            cell += 1;
            cell_start += n;
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
    use super::*;
    use crate::named::Named;

    /// A cell's variable values as the bit set `read_cell` takes.
    fn bits(values: &[bool]) -> u64 {
        values.iter().enumerate().map(|(k, &b)| u64::from(b) << k).sum()
    }

    #[test]
    fn direct_numbering_matches_the_documented_formula() {
        let map = VarMap::new(9, DigitEncoding::Direct);
        for (r, c, d) in itertools::iproduct!(1..=9usize, 1..=9usize, 1..=9u8) {
            let var = map.var(Cell::new(r - 1, c - 1), d);
            assert_eq!(var.to_dimacs() as usize, 81 * (r - 1) + 9 * (c - 1) + usize::from(d));
        }
        assert_eq!(map.primary_count(), 729);
    }

    #[test]
    fn decode_reports_cells_without_one_digit() {
        let map = VarMap::new(4, DigitEncoding::Direct);
        let none = map.decode(|_| Some(false));
        assert_eq!(none, Err(DecodeError::NoDigit(Cell::new(0, 0))));
        let all = map.decode(|_| Some(true));
        assert_eq!(all, Err(DecodeError::SeveralDigits(Cell::new(0, 0), vec![1, 2, 3, 4])));
        assert_eq!(map.decode(|_| None), Err(DecodeError::Unassigned(1)));
    }

    /// Decoding from bytes agrees with decoding from every variable's
    /// value, on random assignments of every encoding, reduced or not,
    /// grids and errors alike, on 4x4 and 9x9 grids (a cell's direct
    /// variables fill more than one eight-byte word there). Bytes above
    /// the lowest bit are set at random, as the engine's open value sets them.
    #[test]
    fn decoding_bytes_agrees_with_decoding_values() {
        let mut state = 7u64;
        let mut next = |bound: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % bound
        };
        for (box_side, tries) in [(2, 500), (3, 100)] {
            let mut puzzle = crate::model::Puzzle::sudoku(box_side, box_side).unwrap();
            puzzle.set_given(Cell::new(0, 0), 3).unwrap();
            let n = puzzle.side() as u64;
            for &digits in DigitEncoding::VARIANTS {
                for reduce in [false, true] {
                    let encoding = super::super::Encoding { digits, reduce, ..Default::default() };
                    let map = super::super::encode(&puzzle, &encoding).vars;
                    for _ in 0..tries {
                        // A random grid's spelling, then a few variables flipped.
                        let mut values = vec![false; map.primary_count()];
                        for cell in puzzle.cells() {
                            let d = 1 + next(n) as Digit;
                            for (k, bit) in map.cell_values(d).enumerate() {
                                if let Slot::Var(v) = map.slot(map.full_var(cell, k)) {
                                    values[v.index()] = bit;
                                }
                            }
                        }
                        for _ in 0..next(3) {
                            let i = next(values.len() as u64) as usize;
                            values[i] = !values[i];
                        }
                        let bytes: Vec<u8> = values.iter().map(|&b| u8::from(b) | (next(2) as u8) << 1).collect();
                        let all = map.decode(|v| values.get(v.index()).copied());
                        assert_eq!(map.decode_bytes(&bytes), all, "{digits:?} reduce={reduce} {values:?}");
                    }
                }
            }
        }
    }

    /// For every encoding and side, the values a digit gives its cell make
    /// its digit literals true and every other digit's false, and decode back.
    #[test]
    fn every_digit_round_trips_through_its_spelling() {
        for &digits in DigitEncoding::VARIANTS {
            for n in [1, 2, 4, 6, 9, 16] {
                let map = VarMap::new(n, digits);
                let cell = Cell::new(0, 0);
                for d in 1..=n as Digit {
                    let values: Vec<bool> = map.cell_values(d).collect();
                    let value = |v: Var| Some(values[v.index()]);
                    for e in 1..=n as Digit {
                        assert_eq!(map.holds(cell, e, value), Some(d == e), "{digits:?} n={n} d={d} e={e}");
                    }
                    assert_eq!(map.read_cell(cell, bits(&values)), Ok(d));
                }
            }
        }
    }

    #[test]
    fn codes_that_spell_no_digit_are_rejected() {
        let order = VarMap::new(4, DigitEncoding::Order);
        assert_eq!(
            order.read_cell(Cell::new(0, 0), bits(&[false, true, false])),
            Err(DecodeError::NotACode(Cell::new(0, 0)))
        );
        let log = VarMap::new(3, DigitEncoding::Log);
        assert_eq!(log.read_cell(Cell::new(0, 0), bits(&[true, true])), Err(DecodeError::NotACode(Cell::new(0, 0))));
    }
}
