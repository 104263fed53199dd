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
    /// It became this variable.
    Var(Var),
    /// The givens fix it to this value.
    Fixed(bool),
}

/// Numbers the primary variables of an `n x n` grid. In the full layout cell
/// `(r,c)` (0-based) owns the `k = vars_per_cell` variables from index
/// `(n*r + c) * k`; see the module doc of [`crate::encode`] for each encoding.
/// After the given-aware reduction the open ones are renumbered from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarMap {
    pub(super) side: usize,
    /// The digits a cell may hold are `1..=values`.
    pub(super) values: usize,
    pub(super) digits: DigitEncoding,
    /// For each variable of the full layout, what it became; `None` when the
    /// formula is not reduced (every variable is itself).
    pub(super) reduced: Option<Vec<Slot>>,
    pub(super) primary: usize,
    /// On a chaos construction whose labels the formula numbers by their
    /// regions' first cells ([`super::constraint::first_cell_labels`]),
    /// decoding renumbers them by their 1s, as the model says they are.
    pub(super) first_cell_labels: bool,
}

/// Why a model does not describe a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The model gives no value to this primary variable (DIMACS number).
    Unassigned(isize),
    /// No digit variable of the cell is true.
    NoDigit(Cell),
    /// Several digit variables of the cell are true.
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
    /// The full layout, before any reduction, of a grid of `side` whose
    /// cells hold the digits `1..=values`.
    pub fn new(side: usize, values: usize, digits: DigitEncoding) -> VarMap {
        let primary = side * side * digits.vars_per_cell(values);
        VarMap { side, values, digits, reduced: None, primary, first_cell_labels: false }
    }

    /// The same layout after the given-aware reduction: `slots` says what each
    /// full-layout variable became; `primary` variables remain.
    pub(crate) fn with_reduction(&self, slots: Vec<Slot>, primary: usize) -> VarMap {
        debug_assert_eq!(slots.len(), self.primary);
        let (side, values, digits, first_cell_labels) = (self.side, self.values, self.digits, self.first_cell_labels);
        VarMap { side, values, digits, reduced: Some(slots), primary, first_cell_labels }
    }

    /// The grid's side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The digits a cell may hold: `1..=values()`.
    pub fn values(&self) -> usize {
        self.values
    }

    /// How digits are spelled.
    pub fn digits(&self) -> DigitEncoding {
        self.digits
    }

    /// Number of primary variables in the formula; they are the first ones.
    pub fn primary_count(&self) -> usize {
        self.primary
    }

    pub(super) fn per_cell(&self) -> usize {
        self.digits.vars_per_cell(self.values)
    }

    /// The `k`-th full-layout variable of `cell`.
    pub(crate) fn full_var(&self, cell: Cell, k: usize) -> Var {
        debug_assert!(cell.row < self.side && cell.col < self.side && k < self.per_cell());
        Var::from_index((cell.row * self.side + cell.col) * self.per_cell() + k)
    }

    /// The direct variable "`cell` holds `digit`" of the full layout.
    pub fn var(&self, cell: Cell, digit: Digit) -> Var {
        debug_assert_eq!(self.digits, DigitEncoding::Direct);
        debug_assert!(digit >= 1 && usize::from(digit) <= self.values);
        self.full_var(cell, usize::from(digit) - 1)
    }

    /// [`VarMap::var`] as a positive literal.
    pub fn lit(&self, cell: Cell, digit: Digit) -> Lit {
        self.var(cell, digit).positive()
    }

    /// The literals (full layout) whose conjunction says "`cell` holds `digit`":
    /// `x(d)`; `y(d) ∧ ¬y(d+1)` without the ends; or the bits of `d - 1`.
    pub(crate) fn digit_lits(&self, cell: Cell, digit: Digit) -> impl Iterator<Item = Lit> + '_ {
        let (n, d) = (self.values, usize::from(digit));
        // Which of the encoding's literals: for the order encoding, 0 is
        // `y(d)` and 1 is `¬y(d+1)`, each where it exists.
        let which = match self.digits {
            DigitEncoding::Direct => 0..1,
            DigitEncoding::Order => usize::from(d < 2)..1 + usize::from(d < n),
            DigitEncoding::Log => 0..self.per_cell(),
        };
        which.map(move |k| match self.digits {
            DigitEncoding::Direct => self.lit(cell, digit),
            DigitEncoding::Order if k == 0 => self.full_var(cell, d - 2).positive(),
            DigitEncoding::Order => self.full_var(cell, d - 1).negative(),
            DigitEncoding::Log => Lit::from_var(self.full_var(cell, k), (d - 1) >> k & 1 == 1),
        })
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

    /// The clause that excludes exactly this grid and no other: the negated
    /// primary literals that spell it. With one-hot digits the true ones suffice
    /// (one digit per cell); variables the reduction fixed are left out. A
    /// decoded grid's chaos labels are spelled as the formula numbers them
    /// (`VarMap::formula_labels`), so that the clause excludes the model
    /// the grid came from.
    pub fn blocking_clause(&self, grid: &Grid) -> Vec<Lit> {
        let n = self.side;
        let grid = self.formula_labels(grid);
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
        let (n, v) = (self.side, self.values);
        let k = self.per_cell();
        let layout = match self.digits {
            DigitEncoding::Direct => {
                format!("x(r,c,d) = {}*(r-1) + {k}*(c-1) + d for r, c in 1..{n}, d in 1..{v}", n * k)
            }
            DigitEncoding::Order => {
                format!("y(r,c,d) = \"digit >= d\" = {}*(r-1) + {k}*(c-1) + d-1 for r, c in 1..{n}, d in 2..{v}", n * k)
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
        let map = VarMap::new(9, 9, DigitEncoding::Direct);
        for (r, c, d) in itertools::iproduct!(1..=9usize, 1..=9usize, 1..=9u8) {
            let var = map.var(Cell::new(r - 1, c - 1), d);
            assert_eq!(var.to_dimacs() as usize, 81 * (r - 1) + 9 * (c - 1) + usize::from(d));
        }
        assert_eq!(map.primary_count(), 729);
    }

    /// For every encoding and side, the values a digit gives its cell make
    /// its digit literals true and every other digit's false, and decode back.
    #[test]
    fn every_digit_round_trips_through_its_spelling() {
        for &digits in DigitEncoding::VARIANTS {
            for n in [1, 2, 4, 6, 9, 16] {
                let map = VarMap::new(n, n, digits);
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
}
