//! The puzzle model: a square grid cut into boxes, givens, all-different groups
//! and binary relations between cells. Every input format produces a [`Puzzle`];
//! every encoder consumes one.

pub mod check;

use std::cmp::Ordering;
use std::fmt;

/// A digit, `1..=side`. `0` never appears in a [`Grid`] or a given.
pub type Digit = u8;

/// The largest grid side the model accepts (boxes of 8 x 8 cells).
pub const MAX_SIDE: usize = 64;

/// A cell by 0-based row and column index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
}

impl Cell {
    pub fn new(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }
}

impl fmt::Display for Cell {
    /// `r3c4`, 1-based, as Sudoku players write it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// Why a group exists; the clause sets of the encoder treat the kinds alike,
/// but reports name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupKind {
    Row,
    Column,
    Box,
    /// Any further all-different group, such as a diagonal.
    Extra,
}

/// Cells whose digits are all different.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub kind: GroupKind,
    pub cells: Vec<Cell>,
}

/// A predicate on the pair of digits of two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Predicate {
    /// `a + b` compares to `target` as `cmp` says: `Less` is `a + b < target`.
    Sum { cmp: Ordering, target: u32 },
}

impl Predicate {
    /// Whether the pair of digits `(a, b)` satisfies the predicate.
    pub fn allows(&self, a: Digit, b: Digit) -> bool {
        match *self {
            Predicate::Sum { cmp, target } => (u32::from(a) + u32::from(b)).cmp(&target) == cmp,
        }
    }
}

impl fmt::Display for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Predicate::Sum { cmp, target } => {
                let op = match cmp {
                    Ordering::Less => "<",
                    Ordering::Equal => "=",
                    Ordering::Greater => ">",
                };
                write!(f, "sum {op} {target}")
            }
        }
    }
}

/// A binary relation between the digits of two distinct cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Relation {
    pub a: Cell,
    pub b: Cell,
    pub predicate: Predicate,
}

/// What can be wrong when a puzzle is built through the library API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("box of {0} x {1} cells: each side must be at least 1 and the grid side at most {MAX_SIDE}")]
    BoxSize(usize, usize),
    #[error("cell {0} is outside the {1} x {1} grid")]
    CellOutside(Cell, usize),
    #[error("digit {digit} for cell {cell} is outside 1..={side}")]
    DigitOutside { cell: Cell, digit: Digit, side: usize },
    #[error("a relation needs two different cells, found {0} twice")]
    RelationSameCell(Cell),
    #[error("group has {len} cells, more than the {side} digits available")]
    GroupTooLarge { len: usize, side: usize },
    #[error("group lists cell {0} twice")]
    GroupRepeatsCell(Cell),
}

/// A Sudoku-family puzzle: a `side x side` grid of boxes of `box_rows x box_cols`
/// cells, optional givens, all-different groups and binary relations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    box_rows: usize,
    box_cols: usize,
    givens: Vec<Option<Digit>>,
    groups: Vec<Group>,
    relations: Vec<Relation>,
}

impl Puzzle {
    /// An empty Sudoku whose boxes have `box_rows x box_cols` cells: the grid side
    /// is their product, and rows, columns and boxes are all-different groups.
    pub fn sudoku(box_rows: usize, box_cols: usize) -> Result<Puzzle, ModelError> {
        let side = box_rows * box_cols;
        if box_rows == 0 || box_cols == 0 || side > MAX_SIDE {
            return Err(ModelError::BoxSize(box_rows, box_cols));
        }
        let mut groups = Vec::with_capacity(3 * side);
        for r in 0..side {
            groups.push(Group { kind: GroupKind::Row, cells: (0..side).map(|c| Cell::new(r, c)).collect() });
        }
        for c in 0..side {
            groups.push(Group { kind: GroupKind::Column, cells: (0..side).map(|r| Cell::new(r, c)).collect() });
        }
        // Boxes in reading order: `side / box_cols` box rows of `side / box_rows` boxes.
        for br in 0..box_cols {
            for bc in 0..box_rows {
                let cells = (0..box_rows)
                    .flat_map(|i| (0..box_cols).map(move |j| Cell::new(br * box_rows + i, bc * box_cols + j)))
                    .collect();
                groups.push(Group { kind: GroupKind::Box, cells });
            }
        }
        Ok(Puzzle { box_rows, box_cols, givens: vec![None; side * side], groups, relations: Vec::new() })
    }

    /// Adds both main diagonals as all-different groups ("Sudoku X").
    pub fn with_diagonals(mut self) -> Puzzle {
        let side = self.side();
        let main = (0..side).map(|i| Cell::new(i, i)).collect();
        let anti = (0..side).map(|i| Cell::new(i, side - 1 - i)).collect();
        self.groups.push(Group { kind: GroupKind::Extra, cells: main });
        self.groups.push(Group { kind: GroupKind::Extra, cells: anti });
        self
    }

    /// Adds an all-different group. A group of fewer than `side` cells only
    /// forbids repeats; a group of `side` cells also holds every digit.
    pub fn add_group(&mut self, cells: Vec<Cell>) -> Result<(), ModelError> {
        let side = self.side();
        if cells.len() > side {
            return Err(ModelError::GroupTooLarge { len: cells.len(), side });
        }
        for (i, &cell) in cells.iter().enumerate() {
            self.check_cell(cell)?;
            if cells[..i].contains(&cell) {
                return Err(ModelError::GroupRepeatsCell(cell));
            }
        }
        self.groups.push(Group { kind: GroupKind::Extra, cells });
        Ok(())
    }

    /// Fixes the digit of a cell.
    pub fn set_given(&mut self, cell: Cell, digit: Digit) -> Result<(), ModelError> {
        self.check_cell(cell)?;
        let side = self.side();
        if digit == 0 || usize::from(digit) > side {
            return Err(ModelError::DigitOutside { cell, digit, side });
        }
        self.givens[cell.row * side + cell.col] = Some(digit);
        Ok(())
    }

    /// Relates the digits of two different cells.
    pub fn add_relation(&mut self, a: Cell, b: Cell, predicate: Predicate) -> Result<(), ModelError> {
        self.check_cell(a)?;
        self.check_cell(b)?;
        if a == b {
            return Err(ModelError::RelationSameCell(a));
        }
        self.relations.push(Relation { a, b, predicate });
        Ok(())
    }

    fn check_cell(&self, cell: Cell) -> Result<(), ModelError> {
        let side = self.side();
        if cell.row >= side || cell.col >= side {
            return Err(ModelError::CellOutside(cell, side));
        }
        Ok(())
    }

    /// Number of rows, columns and digits.
    pub fn side(&self) -> usize {
        self.box_rows * self.box_cols
    }

    /// All cells in reading order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let side = self.side();
        (0..side).flat_map(move |r| (0..side).map(move |c| Cell::new(r, c)))
    }

    pub fn given(&self, cell: Cell) -> Option<Digit> {
        self.givens[cell.row * self.side() + cell.col]
    }

    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    pub fn relations(&self) -> &[Relation] {
        &self.relations
    }
}

/// A filled grid, digits in reading order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    side: usize,
    digits: Vec<Digit>,
}

impl Grid {
    /// A grid from its digits in reading order; `None` unless there are `side * side`.
    pub fn new(side: usize, digits: Vec<Digit>) -> Option<Grid> {
        (digits.len() == side * side).then_some(Grid { side, digits })
    }

    pub fn side(&self) -> usize {
        self.side
    }

    pub fn get(&self, cell: Cell) -> Digit {
        self.digits[cell.row * self.side + cell.col]
    }

    pub fn rows(&self) -> impl Iterator<Item = &[Digit]> {
        self.digits.chunks(self.side.max(1))
    }
}

impl fmt::Display for Grid {
    /// One line per row, digits separated by a space (the Kattis output form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.rows() {
            let line = itertools::join(row, " ");
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}
