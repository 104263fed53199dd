//! The variable map between cells, digits and the primary variables, and the
//! decoding of a model back into a grid.

use std::fmt;

use varisat::{Lit, Var};

use crate::model::{Cell, Digit, Grid};

/// Numbers the one-hot variables of an `n x n` grid: see the module doc of
/// [`crate::encode`] for the formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VarMap {
    side: usize,
}

/// Why a model does not describe a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The model gives no value to this primary variable (DIMACS number).
    Unassigned(isize),
    NoDigit(Cell),
    SeveralDigits(Cell, Vec<Digit>),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Unassigned(v) => write!(f, "the model gives no value to variable {v}"),
            DecodeError::NoDigit(cell) => write!(f, "the model puts no digit in {cell}"),
            DecodeError::SeveralDigits(cell, ds) => {
                write!(f, "the model puts several digits in {cell}: {}", itertools::join(ds, ", "))
            }
        }
    }
}

impl std::error::Error for DecodeError {}

impl VarMap {
    pub fn new(side: usize) -> VarMap {
        VarMap { side }
    }

    pub fn side(&self) -> usize {
        self.side
    }

    /// Number of primary variables, `n^3`; they are the first ones.
    pub fn primary_count(&self) -> usize {
        self.side * self.side * self.side
    }

    /// The variable "`cell` holds `digit`".
    pub fn var(&self, cell: Cell, digit: Digit) -> Var {
        debug_assert!(cell.row < self.side && cell.col < self.side);
        debug_assert!(digit >= 1 && usize::from(digit) <= self.side);
        Var::from_index((cell.row * self.side + cell.col) * self.side + usize::from(digit) - 1)
    }

    pub fn lit(&self, cell: Cell, digit: Digit) -> Lit {
        self.var(cell, digit).positive()
    }

    /// The cell and digit of a primary variable, `None` for auxiliary ones.
    pub fn cell_digit(&self, var: Var) -> Option<(Cell, Digit)> {
        let index = var.index();
        if index >= self.primary_count() {
            return None;
        }
        let n = self.side;
        let digit = (index % n + 1) as Digit;
        let cell = index / n;
        Some((Cell::new(cell / n, cell % n), digit))
    }

    /// Reads a grid from variable values; `value` answers for a primary variable.
    pub fn decode(&self, value: impl Fn(Var) -> Option<bool>) -> Result<Grid, DecodeError> {
        let n = self.side;
        let mut digits = Vec::with_capacity(n * n);
        for r in 0..n {
            for c in 0..n {
                let cell = Cell::new(r, c);
                let mut found = Vec::new();
                for d in 1..=n as Digit {
                    let var = self.var(cell, d);
                    match value(var) {
                        None => return Err(DecodeError::Unassigned(var.to_dimacs())),
                        Some(true) => found.push(d),
                        Some(false) => {}
                    }
                }
                match found[..] {
                    [d] => digits.push(d),
                    [] => return Err(DecodeError::NoDigit(cell)),
                    _ => return Err(DecodeError::SeveralDigits(cell, found)),
                }
            }
        }
        Ok(Grid::new(n, digits).expect("n * n digits were pushed"))
    }

    /// Reads a grid from a model given as literals (as varisat returns it).
    pub fn decode_model(&self, model: &[Lit]) -> Result<Grid, DecodeError> {
        self.decode(|var| model.get(var.index()).filter(|l| l.var() == var).map(|l| l.is_positive()))
    }

    /// The clause that excludes exactly this grid: with one digit per cell, the
    /// `n^2` true primary literals, negated, suffice.
    pub fn blocking_clause(&self, grid: &Grid) -> Vec<Lit> {
        let n = self.side;
        (0..n).flat_map(|r| (0..n).map(move |c| Cell::new(r, c))).map(|cell| !self.lit(cell, grid.get(cell))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_documented_formula() {
        let map = VarMap::new(9);
        for (r, c, d) in itertools::iproduct!(1..=9usize, 1..=9usize, 1..=9u8) {
            let var = map.var(Cell::new(r - 1, c - 1), d);
            assert_eq!(var.to_dimacs() as usize, 81 * (r - 1) + 9 * (c - 1) + usize::from(d));
            assert_eq!(map.cell_digit(var), Some((Cell::new(r - 1, c - 1), d)));
        }
        assert_eq!(map.cell_digit(Var::from_index(729)), None);
    }

    #[test]
    fn decode_reports_cells_without_one_digit() {
        let map = VarMap::new(4);
        let none = map.decode(|_| Some(false));
        assert_eq!(none, Err(DecodeError::NoDigit(Cell::new(0, 0))));
        let all = map.decode(|_| Some(true));
        assert_eq!(all, Err(DecodeError::SeveralDigits(Cell::new(0, 0), vec![1, 2, 3, 4])));
        assert_eq!(map.decode(|_| None), Err(DecodeError::Unassigned(1)));
    }
}
