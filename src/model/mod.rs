//! The puzzle model: a square grid of `side` cells a row, optionally cut
//! into boxes, with givens, all-different groups (rows, columns, boxes,
//! irregular regions, extra groups), binary relations between cells, and
//! [`Constraint`]s on more cells. Every input format produces a [`Puzzle`];
//! every encoder consumes one.

pub mod check;
mod constraint;
pub(crate) mod line_rule;
pub mod nfa;
pub mod regex;
mod relation;
pub mod rules;

pub use constraint::{connected_members, orthogonal, readings, table_allows, Alternative, Constraint};
pub use line_rule::LineRule;
pub use relation::{Predicate, Relation};

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use itertools::Itertools;

/// A digit, `1..=side`. `0` never appears in a [`Grid`] or a given.
pub type Digit = u8;

/// The largest grid side the model accepts (boxes of 8 x 8 cells).
pub const MAX_SIDE: usize = 64;

/// A cell by 0-based row and column index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// From 0.
    pub row: usize,
    /// From 0.
    pub col: usize,
}

impl Cell {
    /// The cell at `row`, `col` (from 0).
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
    /// A row of the grid.
    Row,
    /// A column of the grid.
    Column,
    /// A box of the grid.
    Box,
    /// An irregular region of `side` cells (jigsaw).
    Region,
    /// Any further all-different group, such as a diagonal.
    Extra,
    /// A killer cage's cells (all different; its sum is a constraint).
    Cage,
}

impl Group {
    /// The group as a person names it: `row 3`, `column 2`, `the box of
    /// r4c4`, `the killer cage r1c1 r1c2`.
    pub fn describe(&self) -> String {
        let first = self.cells[0];
        let cells = || itertools::join(&self.cells, " ");
        match self.kind {
            GroupKind::Row => format!("row {}", first.row + 1),
            GroupKind::Column => format!("column {}", first.col + 1),
            GroupKind::Box => format!("the box of {first}"),
            GroupKind::Region => format!("the region of {first}"),
            GroupKind::Extra => format!("the group {}", cells()),
            GroupKind::Cage => format!("the killer cage {}", cells()),
        }
    }
}

/// Cells whose digits are all different.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Why it exists.
    pub kind: GroupKind,
    /// Its cells, all different.
    pub cells: Vec<Cell>,
}

/// The rows, columns and boxes of a grid of `box_rows x box_cols` boxes,
/// built once a thread for each box shape and shared by every puzzle of it
/// until one adds a group of its own (a batch of 10,000 classic puzzles
/// built them 10,000 times, 47 allocations a puzzle).
fn classic_groups(box_rows: usize, box_cols: usize) -> Arc<Vec<Group>> {
    /// A box shape's groups.
    type Built = ((usize, usize), Arc<Vec<Group>>);
    thread_local! {
        static BUILT: RefCell<Vec<Built>> = const { RefCell::new(Vec::new()) };
    }
    BUILT.with_borrow_mut(|built| {
        if let Some((_, groups)) = built.iter().find(|(shape, _)| *shape == (box_rows, box_cols)) {
            return Arc::clone(groups);
        }
        let side = box_rows * box_cols;
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
        let groups = Arc::new(groups);
        built.push(((box_rows, box_cols), Arc::clone(&groups)));
        groups
    })
}

/// What can be wrong when a puzzle is built through the library API.
/// (Each variant's message says what its fields hold.)
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("box of {0} x {1} cells: each side must be at least 1 and the grid side at most {MAX_SIDE}")]
    BoxSize(usize, usize),
    #[error("cell {0} is outside the {1} x {1} grid")]
    CellOutside(Cell, usize),
    #[error("cell {cell} is outside the {rows} x {cols} grid")]
    CellOutsideRectangle { cell: Cell, rows: usize, cols: usize },
    #[error("digit {digit} for cell {cell} is outside 1..={side}")]
    DigitOutside { cell: Cell, digit: Digit, side: usize },
    #[error("a relation needs two different cells, found {0} twice")]
    RelationSameCell(Cell),
    #[error("group has {len} cells, more than the {side} digits available")]
    GroupTooLarge { len: usize, side: usize },
    #[error("group lists cell {0} twice")]
    GroupRepeatsCell(Cell),
    #[error("a region has {len} cells; it needs {side}, one per digit")]
    RegionSize { len: usize, side: usize },
    #[error("{digits} digits on a side of {side}: a grid needs at least its side's and at most {MAX_SIDE}")]
    Digits { digits: usize, side: usize },
    #[error("cell {0} is in two regions")]
    RegionsOverlap(Cell),
    #[error("grid side {0}: it must be 1 to {MAX_SIDE}")]
    Side(usize),
    #[error(
        "a chaos construction on a {rows} x {cols} grid of {digits} digits: it needs a square grid of as many \
         digits as its side, at most {}, whose rows hold every digit",
        MAX_SIDE / 2
    )]
    Chaos { rows: usize, cols: usize, digits: usize },
    #[error("cell {0} holds a chaos construction's region label: labels are found with the digits, never given")]
    LabelGiven(Cell),
    #[error("a {rows} x {cols} grid: a rectangle needs two different sides of at least 1")]
    Shape { rows: usize, cols: usize },
    #[error("{0}")]
    Constraint(String),
}

/// A Sudoku-family puzzle: a `side x side` grid with digits `1..=side`,
/// optionally cut into boxes, with optional givens, all-different groups,
/// binary relations and n-ary constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    side: usize,
    /// The digits a cell may hold are `1..=digits`: `side`, except for
    /// Takuzu's two and ISS's grids of more values than the side
    /// ([`Puzzle::set_digits`]).
    digits: usize,
    /// The value digit 1 stands for: 1, or 0 for a grid whose values run
    /// `0..side` (ISS's `0-8` grids). Constraints hold digits; only the
    /// readers that take values and the printers use it.
    first_value: u8,
    /// Rows and columns of a box, when the grid has boxes.
    boxes: Option<(usize, usize)>,
    /// Rows and columns of a rectangular grid ([`Puzzle::rectangle`]), or
    /// of a grid with cells outside it ([`Puzzle::add_vars`]), whose cells
    /// are the top-left ones of the `side x side` model.
    shape: Option<(usize, usize)>,
    /// How many cells outside the grid hold values too (ISS's `Var`,
    /// [`Puzzle::add_vars`]): the model's cells in reading order from the
    /// row under the grid, as many a row as the grid has columns.
    vars: usize,
    /// Whether the regions are part of the solution (chaos construction,
    /// [`Puzzle::into_chaos`]): the grid is then the top-left quarter of
    /// the model, and the cells below it hold its cells' region labels.
    chaos: bool,
    givens: Vec<Option<Digit>>,
    /// Shared between the puzzles of one layout until one of them adds a
    /// group (a batch of classic puzzles builds its rows, columns and boxes
    /// once: [`Puzzle::sudoku`]).
    groups: Arc<Vec<Group>>,
    relations: Vec<Relation>,
    constraints: Vec<Constraint>,
    /// Whether this is a copy of a puzzle to which an alternative's rules
    /// are added ([`Puzzle::branch`]), and whether one of them holds on
    /// no grid.
    branch: Branch,
}

/// What [`Puzzle::branch`] marks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Branch {
    /// A puzzle.
    #[default]
    Root,
    /// A copy for an alternative's rules.
    Open,
    /// A copy for an alternative's rules, one of which holds on no grid.
    Impossible,
}

impl Puzzle {
    /// An empty Sudoku whose boxes have `box_rows x box_cols` cells: the grid side
    /// is their product, and rows, columns and boxes are all-different groups.
    pub fn sudoku(box_rows: usize, box_cols: usize) -> Result<Puzzle, ModelError> {
        let side = box_rows * box_cols;
        if box_rows == 0 || box_cols == 0 || side > MAX_SIDE {
            return Err(ModelError::BoxSize(box_rows, box_cols));
        }
        let groups = classic_groups(box_rows, box_cols);
        Ok(Puzzle {
            side,
            digits: side,
            first_value: 1,
            boxes: Some((box_rows, box_cols)),
            shape: None,
            vars: 0,
            chaos: false,
            givens: vec![None; side * side],
            groups,
            relations: Vec::new(),
            constraints: Vec::new(),
            branch: Branch::Root,
        })
    }

    /// An empty grid of `side` with no groups at all: digits `1..=side` in
    /// any cell, for puzzles whose rules are all constraints (Takuzu).
    pub fn blank(side: usize) -> Result<Puzzle, ModelError> {
        if side == 0 || side > MAX_SIDE {
            return Err(ModelError::Side(side));
        }
        Ok(Puzzle {
            side,
            digits: side,
            first_value: 1,
            boxes: None,
            shape: None,
            vars: 0,
            chaos: false,
            givens: vec![None; side * side],
            groups: Arc::default(),
            relations: Vec::new(),
            constraints: Vec::new(),
            branch: Branch::Root,
        })
    }

    /// An empty Takuzu (binary puzzle) of `side`, which must be even: every
    /// cell allows only the digits 1 and 2 (Takuzu's 0 and 1); every row and
    /// column sums to `3 * side / 2` (as many of each); every three
    /// neighbours in a row or column are [`Constraint::NotAllEqual`]; and, if
    /// `distinct`, every two rows and every two columns are
    /// [`Constraint::DistinctLines`].
    pub fn takuzu(side: usize, distinct: bool) -> Result<Puzzle, ModelError> {
        if side % 2 == 1 {
            return Err(ModelError::Side(side));
        }
        let mut puzzle = Puzzle::blank(side)?;
        puzzle.digits = 2;
        let lines: Vec<Vec<Cell>> = (0..side)
            .map(|r| (0..side).map(|c| Cell::new(r, c)).collect())
            .chain((0..side).map(|c| (0..side).map(|r| Cell::new(r, c)).collect()))
            .collect();
        for cell in puzzle.cells().collect::<Vec<_>>() {
            puzzle.add_constraint(Constraint::Digits { cell, allowed: 0b11 })?;
        }
        let target = i32::try_from(3 * side / 2).map_err(|_| ModelError::Side(side))?;
        for line in &lines {
            puzzle.add_constraint(Constraint::Sum { terms: line.iter().map(|&c| (c, 1)).collect(), target })?;
            for triple in line.windows(3) {
                puzzle.add_constraint(Constraint::NotAllEqual { cells: triple.to_vec() })?;
            }
        }
        if distinct {
            for rows_or_cols in [&lines[..side], &lines[side..]] {
                for (i, a) in rows_or_cols.iter().enumerate() {
                    for b in &rows_or_cols[i + 1..] {
                        puzzle.add_constraint(Constraint::DistinctLines { a: a.clone(), b: b.clone() })?;
                    }
                }
            }
        }
        Ok(puzzle)
    }

    /// An empty Latin square of `side`: rows and columns are all-different
    /// groups, and there are no boxes (add regions for a jigsaw).
    pub fn latin(side: usize) -> Result<Puzzle, ModelError> {
        if side == 0 || side > MAX_SIDE {
            return Err(ModelError::Side(side));
        }
        let mut groups = Vec::with_capacity(2 * side);
        for r in 0..side {
            groups.push(Group { kind: GroupKind::Row, cells: (0..side).map(|c| Cell::new(r, c)).collect() });
        }
        for c in 0..side {
            groups.push(Group { kind: GroupKind::Column, cells: (0..side).map(|r| Cell::new(r, c)).collect() });
        }
        Ok(Puzzle {
            side,
            digits: side,
            first_value: 1,
            boxes: None,
            shape: None,
            vars: 0,
            chaos: false,
            givens: vec![None; side * side],
            groups: Arc::new(groups),
            relations: Vec::new(),
            constraints: Vec::new(),
            branch: Branch::Root,
        })
    }

    /// An empty rectangular grid of `rows x cols` cells (not square) whose
    /// cells hold `values` digits, at least as many as its longer side (as
    /// ISS's `Shape~6x8`): each row and each column is an all-different
    /// group, and `boxes` (`h x w` cells, as many as the longer side), if
    /// any, tile the grid as regions. The model is the square of the
    /// longer side, the grid its top-left cells; each other cell, padding
    /// that no group, rule or given may name, allows only digit 1, so that
    /// it adds no solution. [`Puzzle::shape`] and [`Puzzle::in_grid`] tell
    /// them apart, and the printers show only the grid's.
    pub fn rectangle(
        rows: usize,
        cols: usize,
        values: usize,
        boxes: Option<(usize, usize)>,
    ) -> Result<Puzzle, ModelError> {
        let side = rows.max(cols);
        if rows == cols || rows == 0 || cols == 0 {
            return Err(ModelError::Shape { rows, cols });
        }
        let mut p = Puzzle::blank(side)?;
        p.set_digits(values)?;
        let groups = Arc::make_mut(&mut p.groups);
        for r in 0..rows {
            groups.push(Group { kind: GroupKind::Row, cells: (0..cols).map(|c| Cell::new(r, c)).collect() });
        }
        for c in 0..cols {
            groups.push(Group { kind: GroupKind::Column, cells: (0..rows).map(|r| Cell::new(r, c)).collect() });
        }
        for cell in p.cells().filter(|c| c.row >= rows || c.col >= cols).collect::<Vec<_>>() {
            p.constraints.push(Constraint::Digits { cell, allowed: 1 });
        }
        p.shape = Some((rows, cols));
        if let Some((h, w)) = boxes {
            if h * w != side || rows % h != 0 || cols % w != 0 {
                return Err(ModelError::BoxSize(h, w));
            }
            for (br, bc) in itertools::iproduct!(0..rows / h, 0..cols / w) {
                let cells = itertools::iproduct!(0..h, 0..w).map(|(i, j)| Cell::new(br * h + i, bc * w + j)).collect();
                p.add_region(cells)?;
            }
        }
        Ok(p)
    }

    /// Adds an irregular region of `side` cells (a jigsaw piece) as an
    /// all-different group; no cell may be in two regions. On a grid of
    /// more digits than its side ([`Puzzle::set_digits`]) a region may
    /// hold up to as many cells as digits (ISS's `RegionSize`).
    pub fn add_region(&mut self, cells: Vec<Cell>) -> Result<(), ModelError> {
        let side = self.side();
        if cells.len() != side && !(side..=self.digits).contains(&cells.len()) {
            return Err(ModelError::RegionSize { len: cells.len(), side });
        }
        self.check_group(&cells)?;
        let taken = self.groups.iter().filter(|g| g.kind == GroupKind::Region).flat_map(|g| &g.cells);
        if let Some(&cell) = taken.filter(|c| cells.contains(c)).min() {
            return Err(ModelError::RegionsOverlap(cell));
        }
        Arc::make_mut(&mut self.groups).push(Group { kind: GroupKind::Region, cells });
        Ok(())
    }

    /// Adds a constraint on more cells than a relation takes, after checking
    /// its cells and digits.
    pub fn add_constraint(&mut self, constraint: Constraint) -> Result<(), ModelError> {
        let constraint = merged(constraint);
        for &cell in constraint.cells().iter() {
            self.check_cell(cell)?;
        }
        constraint.validate(self.digits()).map_err(ModelError::Constraint)?;
        if let Some(why) = constraint.impossible(self.digits()) {
            // An alternative with a rule that cannot hold is one that never
            // holds; a puzzle's is refused.
            if self.branch == Branch::Root {
                return Err(ModelError::Constraint(why));
            }
            self.branch = Branch::Impossible;
            return Ok(());
        }
        self.constraints.push(constraint);
        Ok(())
    }

    /// A start for an alternative's rules (see [`rules::alternative`]):
    /// a rule that holds on no grid is no error
    /// there, it makes the alternative one that never holds
    /// ([`Puzzle::impossible_branch`]).
    ///
    /// The copy keeps the layout (rows, columns, boxes, regions) and the
    /// givens, which are all the rules read of a puzzle, and drops the
    /// other rules, so that a puzzle of many alternatives is no copy of
    /// all of them each.
    pub fn branch(&self) -> Puzzle {
        let layout =
            |g: &&Group| matches!(g.kind, GroupKind::Row | GroupKind::Column | GroupKind::Box | GroupKind::Region);
        Puzzle {
            side: self.side,
            digits: self.digits,
            first_value: self.first_value,
            boxes: self.boxes,
            shape: self.shape,
            vars: self.vars,
            chaos: self.chaos,
            givens: self.givens.clone(),
            groups: Arc::new(self.groups.iter().filter(layout).cloned().collect()),
            relations: Vec::new(),
            constraints: Vec::new(),
            branch: Branch::Open,
        }
    }

    /// The puzzle with `constraints` for its constraints: for a caller that
    /// has proven the new ones hold on exactly the same grids (each is one
    /// of the old, or narrows one, or follows from them), since they are
    /// not checked again.
    pub(crate) fn with_constraints(&self, constraints: Vec<Constraint>) -> Puzzle {
        Puzzle { constraints, ..self.clone() }
    }

    /// Whether this is a [`Puzzle::branch`] given a rule that holds on no grid.
    pub fn impossible_branch(&self) -> bool {
        self.branch == Branch::Impossible
    }

    /// Adds both main diagonals as all-different groups ("Sudoku X").
    pub fn with_diagonals(mut self) -> Puzzle {
        let side = self.side();
        let main = (0..side).map(|i| Cell::new(i, i)).collect();
        let anti = (0..side).map(|i| Cell::new(i, side - 1 - i)).collect();
        Arc::make_mut(&mut self.groups).push(Group { kind: GroupKind::Extra, cells: main });
        Arc::make_mut(&mut self.groups).push(Group { kind: GroupKind::Extra, cells: anti });
        self
    }

    /// Adds an all-different group. A group of fewer than `side` cells only
    /// forbids repeats; a group of `side` cells also holds every digit.
    pub fn add_group(&mut self, cells: Vec<Cell>) -> Result<(), ModelError> {
        self.check_group(&cells)?;
        Arc::make_mut(&mut self.groups).push(Group { kind: GroupKind::Extra, cells });
        Ok(())
    }

    /// Adds a killer cage's group: its cells all different (its sum, if
    /// any, is a [`Constraint::Sum`] of its own).
    pub fn add_cage(&mut self, cells: Vec<Cell>) -> Result<(), ModelError> {
        self.check_group(&cells)?;
        Arc::make_mut(&mut self.groups).push(Group { kind: GroupKind::Cage, cells });
        Ok(())
    }

    /// A group's cells are in the grid, distinct, and at most `side` many.
    fn check_group(&self, cells: &[Cell]) -> Result<(), ModelError> {
        let digits = self.digits();
        if cells.len() > digits {
            return Err(ModelError::GroupTooLarge { len: cells.len(), side: digits });
        }
        for (i, &cell) in cells.iter().enumerate() {
            self.check_cell(cell)?;
            if cells[..i].contains(&cell) {
                return Err(ModelError::GroupRepeatsCell(cell));
            }
        }
        Ok(())
    }

    /// Fixes the digit of a cell.
    pub fn set_given(&mut self, cell: Cell, digit: Digit) -> Result<(), ModelError> {
        self.check_cell(cell)?;
        if self.labelled(cell).is_some() {
            return Err(ModelError::LabelGiven(cell));
        }
        self.fix(cell, digit)
    }

    /// Fixes the digit of any cell of the model, a chaos construction's
    /// region labels included (which no reader may give: their numbers
    /// are the solver's), for a search that asks whether some solution
    /// has it (`candidates`).
    pub(crate) fn fix(&mut self, cell: Cell, digit: Digit) -> Result<(), ModelError> {
        let (side, digits) = (self.side(), self.digits());
        if cell.row >= side || cell.col >= side {
            return Err(ModelError::CellOutside(cell, side));
        }
        if digit == 0 || usize::from(digit) > digits {
            return Err(ModelError::DigitOutside { cell, digit, side: digits });
        }
        self.givens[cell.row * side + cell.col] = Some(digit);
        Ok(())
    }

    /// Makes a cell open again (nothing if it had no given).
    pub fn clear_given(&mut self, cell: Cell) {
        if cell.row < self.side && cell.col < self.side {
            self.givens[cell.row * self.side + cell.col] = None;
        }
    }

    /// The same puzzle with no givens: its layout.
    pub fn without_givens(&self) -> Puzzle {
        Puzzle { givens: vec![None; self.givens.len()], ..self.clone() }
    }

    /// Whether `other` differs from this puzzle at most in its givens.
    pub fn same_layout(&self, other: &Puzzle) -> bool {
        self.side == other.side
            && self.digits == other.digits
            && self.boxes == other.boxes
            && self.shape == other.shape
            && self.vars == other.vars
            && self.chaos == other.chaos
            && self.groups == other.groups
            && self.relations == other.relations
            && self.constraints == other.constraints
    }

    /// Each given's cell and digit, in reading order.
    pub fn givens(&self) -> impl Iterator<Item = (Cell, Digit)> + '_ {
        self.cells().filter_map(|cell| Some((cell, self.given(cell)?)))
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

    /// A cell of the grid, or a chaos construction's region label (which
    /// rules may read: [`Puzzle::into_chaos`]), not padding.
    fn check_cell(&self, cell: Cell) -> Result<(), ModelError> {
        let side = self.side();
        if cell.row >= side || cell.col >= side {
            return Err(ModelError::CellOutside(cell, side));
        }
        if !self.in_grid(cell) && self.labelled(cell).is_none() && !self.is_var(cell) {
            let (rows, cols) = self.shape();
            return Err(ModelError::CellOutsideRectangle { cell, rows, cols });
        }
        Ok(())
    }

    /// Rows and columns of the grid: `(side, side)` but for a rectangle,
    /// a grid with cells outside it ([`Puzzle::add_vars`]) and a chaos
    /// construction.
    pub fn shape(&self) -> (usize, usize) {
        match self.chaos {
            true => (self.side / 2, self.side / 2),
            false => self.shape.unwrap_or((self.side, self.side)),
        }
    }

    /// Whether the regions are part of the solution ([`Puzzle::into_chaos`]).
    pub fn is_chaos(&self) -> bool {
        self.chaos
    }

    /// This chaos construction (ISS's `ChaosConstruction`) of an `n x n`
    /// puzzle, whose grid is divided into `n` regions of `n` orthogonally
    /// connected cells, each holding every digit once, that the solver
    /// finds with the digits: a solution is a grid and a region layout,
    /// and a grid with two layouts counts twice.
    ///
    /// The model is the square of side `2n`: the puzzle's grid its
    /// top-left cells, unchanged with its rules; below each cell `(r, c)`,
    /// cell `(n + r, c)` holds the cell's region label, `1..=n`, numbered
    /// in the reading order of the regions' 1s (so each layout has one
    /// labelling; each row holding every digit once, the label of row
    /// `k`'s 1 is `k`); every other cell is padding that allows only
    /// digit 1. A [`Constraint::Chaos`] says all this; the printers show
    /// the grid and, under it, the labels. For a square puzzle of as many
    /// digits as its side, its rows all-different groups.
    pub fn into_chaos(self) -> Result<Puzzle, ModelError> {
        let n = self.side;
        // A group of the row's n cells, each once.
        let row = |r: usize| {
            self.groups.iter().any(|g| {
                let cols =
                    g.cells.iter().filter(|c| c.row == r).map(|c| c.col).collect::<std::collections::BTreeSet<_>>();
                g.cells.len() == n && cols.len() == n
            })
        };
        let latin = (0..n).all(row);
        if self.chaos || self.shape.is_some() || self.digits != n || 2 * n > MAX_SIDE || !latin {
            return Err(ModelError::Chaos { rows: self.shape().0, cols: self.shape().1, digits: self.digits });
        }
        let side = 2 * n;
        let mut givens = vec![None; side * side];
        for (cell, d) in self.givens() {
            givens[cell.row * side + cell.col] = Some(d);
        }
        let mut constraints = self.constraints;
        for (r, c) in itertools::iproduct!(0..side, n..side) {
            constraints.push(Constraint::Digits { cell: Cell::new(r, c), allowed: 1 });
        }
        constraints.push(Constraint::Chaos { side: n });
        Ok(Puzzle { side, givens, constraints, chaos: true, ..self })
    }

    /// The `n x n` puzzle of a chaos construction, without its regions
    /// and the rules on their labels: what [`Puzzle::into_chaos`] was
    /// given (the writers of formats that say "chaos construction" in a
    /// word write it, this, and the rules on the labels).
    pub fn chaos_grid(&self) -> Option<Puzzle> {
        if !self.chaos {
            return None;
        }
        let n = self.side / 2;
        let mut givens = vec![None; n * n];
        for (cell, d) in self.givens() {
            givens[cell.row * n + cell.col] = Some(d);
        }
        let constraints =
            self.constraints.iter().filter(|c| c.cells().iter().all(|&cell| self.in_grid(cell))).cloned().collect();
        let relations = self.relations.iter().filter(|r| self.in_grid(r.a) && self.in_grid(r.b)).cloned().collect();
        Some(Puzzle { side: n, givens, constraints, relations, chaos: false, ..self.clone() })
    }

    /// Adds a chaos construction's region runs ([`Constraint::RegionRuns`]):
    /// the control is a cell of the grid, each arm a path of label cells
    /// ([`Puzzle::label_cell`]), none repeated, all from the same one.
    pub fn add_region_runs(&mut self, control: Cell, arms: Vec<Vec<Cell>>, offset: u8) -> Result<(), ModelError> {
        let label = |c: &Cell| self.labelled(*c).is_some();
        let start = arms.first().and_then(|a| a.first()).copied();
        let fits = |arm: &Vec<Cell>| arm.first() == start.as_ref() && arm.iter().all(label) && arm.iter().all_unique();
        if !self.in_grid(control) || start.is_none() || !arms.iter().all(fits) || offset > 1 {
            return Err(ModelError::Constraint(format!(
                "region runs from {control}: arms of region cells from one start, on a chaos construction, and an \
                 offset of 0 or 1"
            )));
        }
        self.constraints.push(Constraint::RegionRuns { control, arms, offset });
        Ok(())
    }

    /// The region label cell of a chaos construction's cell `(r, c)`.
    pub fn label_cell(&self, cell: Cell) -> Cell {
        Cell::new(self.side / 2 + cell.row, cell.col)
    }

    /// The cell of a chaos construction's grid whose region label `label`
    /// holds ([`Puzzle::label_cell`]'s inverse), if it is a label cell.
    pub fn labelled(&self, label: Cell) -> Option<Cell> {
        let cell = Cell::new(label.row.checked_sub(self.side / 2)?, label.col);
        (self.chaos && self.in_grid(cell)).then_some(cell)
    }

    /// Whether the grid is a rectangle of fewer rows than columns or the
    /// reverse ([`Puzzle::rectangle`]).
    pub fn is_rectangle(&self) -> bool {
        self.shape.is_some_and(|(rows, cols)| rows != cols)
    }

    /// The grid's longer side, which the rules read as the side: the
    /// model's [`Puzzle::side`] but with cells outside the grid
    /// ([`Puzzle::add_vars`]).
    pub fn grid_side(&self) -> usize {
        self.shape.map_or(self.side, |(rows, cols)| rows.max(cols))
    }

    /// Adds `count` cells outside the grid that hold digits as the grid's
    /// do, under no rule until one names them (ISS's `Var` cells), and
    /// returns them, after those added before. The model grows to a square
    /// that holds the grid, top left as before, and under it the cells
    /// outside, as many a row as the grid has columns; every other cell is
    /// padding that allows only digit 1. Boxes become regions of the same
    /// cells (the model is no Sudoku of boxes any more). For a puzzle of
    /// no givens and no rules yet (its layout only), not a chaos
    /// construction.
    pub fn add_vars(&mut self, count: usize) -> Result<Vec<Cell>, ModelError> {
        let (rows, cols) = self.shape();
        let padding = |c: &Constraint| matches!(c, Constraint::Digits { cell, allowed: 1 } if !self.in_grid(*cell));
        let layout_only = self.givens().next().is_none() && self.relations.is_empty();
        if self.chaos || !layout_only || !self.constraints.iter().all(padding) {
            return Err(ModelError::Constraint(
                "cells outside the grid are added to a layout of no givens or rules, not a chaos construction"
                    .to_owned(),
            ));
        }
        let first = self.vars;
        let total = first + count;
        let side = cols.max(rows + total.div_ceil(cols)).max(self.side);
        if side > MAX_SIDE {
            return Err(ModelError::Constraint(format!(
                "{total} cells outside a {rows}x{cols} grid: they need a model of side {side}, past {MAX_SIDE}"
            )));
        }
        self.side = side;
        self.shape = Some((rows, cols));
        self.vars = total;
        self.boxes = None;
        for group in Arc::make_mut(&mut self.groups).iter_mut().filter(|g| g.kind == GroupKind::Box) {
            group.kind = GroupKind::Region;
        }
        self.givens = vec![None; side * side];
        let open = |cell: &Cell| cell.row < rows && cell.col < cols || self.is_var(*cell);
        let padded: Vec<Cell> = self.cells().filter(|c| !open(c)).collect();
        self.constraints = padded.into_iter().map(|cell| Constraint::Digits { cell, allowed: 1 }).collect();
        Ok(self.var_cells().skip(first).collect())
    }

    /// The cells outside the grid ([`Puzzle::add_vars`]), in order.
    pub fn var_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let cols = self.shape().1;
        (0..self.vars).map(move |i| Cell::new(self.shape().0 + i / cols, i % cols))
    }

    /// Whether `cell` is one outside the grid ([`Puzzle::add_vars`]).
    pub fn is_var(&self, cell: Cell) -> bool {
        let (rows, cols) = self.shape();
        cell.row >= rows && cell.col < cols && (cell.row - rows) * cols + cell.col < self.vars
    }

    /// How many cells outside the grid there are ([`Puzzle::add_vars`]).
    pub fn vars(&self) -> usize {
        self.vars
    }

    /// A puzzle with cells outside its grid ([`Puzzle::add_vars`]) in two
    /// parts, for the writers that declare those cells apart: the grid's
    /// (its layout, givens and the rules on its cells only, on a model of
    /// the grid's side, as before the cells were added) and the rest (the
    /// givens and rules that name a cell outside, on this model, with no
    /// layout). `None` for a puzzle of none.
    pub fn var_parts(&self) -> Option<(Puzzle, Puzzle)> {
        if self.vars == 0 {
            return None;
        }
        let (rows, cols) = self.shape();
        let n = rows.max(cols);
        let inside = |cells: &[Cell]| cells.iter().all(|&c| self.in_grid(c));
        let outside = |cells: &[Cell]| cells.iter().any(|&c| self.is_var(c));
        let mut grid = if rows == cols {
            Puzzle::blank(n).ok()?
        } else {
            Puzzle::rectangle(rows, cols, self.digits, None).ok()?
        };
        grid.digits = self.digits;
        grid.first_value = self.first_value;
        grid.groups = Arc::new(self.groups.iter().filter(|g| inside(&g.cells)).cloned().collect());
        grid.constraints.extend(self.constraints.iter().filter(|c| inside(&c.cells())).cloned());
        grid.relations = self.relations.iter().filter(|r| inside(&[r.a, r.b])).cloned().collect();
        for (cell, d) in self.givens().filter(|&(c, _)| self.in_grid(c)) {
            grid.givens[cell.row * n + cell.col] = Some(d);
        }
        let mut rest = self.without_givens();
        rest.groups = Arc::new(self.groups.iter().filter(|g| outside(&g.cells)).cloned().collect());
        rest.constraints = self.constraints.iter().filter(|c| outside(&c.cells())).cloned().collect();
        rest.relations = self.relations.iter().filter(|r| outside(&[r.a, r.b])).cloned().collect();
        for (cell, d) in self.givens().filter(|&(c, _)| self.is_var(c)) {
            rest.givens[cell.row * self.side + cell.col] = Some(d);
        }
        Some((grid, rest))
    }

    /// Whether `cell` is one of the grid's: always but for a rectangle's
    /// padding, a chaos construction's labels and the cells outside the
    /// grid ([`Puzzle::add_vars`]).
    pub fn in_grid(&self, cell: Cell) -> bool {
        let (rows, cols) = self.shape();
        cell.row < rows && cell.col < cols
    }

    /// Number of rows and columns (and of digits, but for Takuzu).
    pub fn side(&self) -> usize {
        self.side
    }

    /// The digits a cell may hold are `1..=digits()`: the side, except
    /// for Takuzu (2), whose encodings then give each cell variables for
    /// two digits only.
    pub fn digits(&self) -> usize {
        self.digits
    }

    /// The value digit 1 stands for: 1, or 0 when the values run from 0
    /// (the digit `d` then stands for `d - 1`).
    pub fn first_value(&self) -> u8 {
        self.first_value
    }

    /// How much a cell's digit exceeds the value it stands for: 0, or 1
    /// when the values run from 0. A sum of `k` cells' values is their
    /// digits' sum less `k` times this.
    pub fn digit_shift(&self) -> i64 {
        1 - i64::from(self.first_value)
    }

    /// Makes the values run from 0: digit `d` stands for the value `d - 1`
    /// in what the puzzle prints (its constraints stay on digits).
    pub fn set_values_from_zero(&mut self) {
        self.first_value = 0;
    }

    /// Lets every cell hold the digits `1..=digits`, more than the side
    /// (ISS's `Shape~6x6~9`): rows, columns and regions then hold
    /// different digits, not every digit. For a grid without boxes, before
    /// any given or rule.
    pub fn set_digits(&mut self, digits: usize) -> Result<(), ModelError> {
        let side = self.side;
        if digits < side || digits > MAX_SIDE || self.boxes.is_some() {
            return Err(ModelError::Digits { digits, side });
        }
        self.digits = digits;
        Ok(())
    }

    /// Rows and columns of a box, if the grid has boxes.
    pub fn boxes(&self) -> Option<(usize, usize)> {
        self.boxes
    }

    /// All cells in reading order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let side = self.side();
        (0..side).flat_map(move |r| (0..side).map(move |c| Cell::new(r, c)))
    }

    /// The given digit of `cell`, if any.
    pub fn given(&self, cell: Cell) -> Option<Digit> {
        self.givens[cell.row * self.side() + cell.col]
    }

    /// Each cell's box or jigsaw region, in reading order: the index of its
    /// group among the box and region groups (`None` for a cell in none).
    /// Region-sum lines, box indexers and the drawings read it.
    pub fn regions(&self) -> Vec<Option<usize>> {
        let n = self.side();
        let mut of = vec![None; n * n];
        let kept = self.groups.iter().filter(|g| matches!(g.kind, GroupKind::Box | GroupKind::Region));
        for (k, group) in kept.enumerate() {
            for cell in &group.cells {
                of[cell.row * n + cell.col] = Some(k);
            }
        }
        of
    }

    /// The extra groups of a blank Sudoku layout (diagonals, disjoint
    /// groups, windows, `extra` regions), none or more; `None` unless the
    /// puzzle's other groups are exactly a Sudoku's rows, columns and boxes,
    /// with as many digits as the side and no givens or constraints (its
    /// relations are the caller's to judge). `--up-to-symmetry` and the
    /// line orders that keep the extra groups (`count::symmetry`) take
    /// only such layouts.
    pub fn blank_sudoku_extras(&self) -> Option<Vec<&Group>> {
        let (h, w) = self.boxes?;
        let sudoku = Puzzle::sudoku(h, w).ok()?;
        let own = self.groups.iter().filter(|g| g.kind != GroupKind::Extra);
        let blank = self.side() == sudoku.side()
            && self.digits == sudoku.digits
            && self.constraints.is_empty()
            && self.givens().next().is_none()
            && own.eq(sudoku.groups.iter());
        blank.then(|| self.groups.iter().filter(|g| g.kind == GroupKind::Extra).collect())
    }

    /// The all-different groups.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The binary relations.
    pub fn relations(&self) -> &[Relation] {
        &self.relations
    }

    /// The constraints on more cells.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// How the givens contradict each other directly, if they do: two
    /// equal givens in one group, two givens that break a relation, a given
    /// a one-cell constraint excludes. Empty does not mean the puzzle has
    /// a solution, only that no rule is broken by the givens alone.
    pub fn given_conflicts(&self) -> Vec<String> {
        let mut found = Vec::new();
        for group in self.groups.iter() {
            for (i, &a) in group.cells.iter().enumerate() {
                for &b in &group.cells[i + 1..] {
                    if let (Some(x), Some(y)) = (self.given(a), self.given(b)) {
                        if x == y {
                            found.push(format!("{a} and {b} are both given {x} in {}", group.describe()));
                        }
                    }
                }
            }
        }
        for r in &self.relations {
            if let (Some(x), Some(y)) = (self.given(r.a), self.given(r.b)) {
                if !r.predicate.allows(x, y) {
                    found.push(format!("{}={x} and {}={y} are given but break {}", r.a, r.b, r.predicate));
                }
            }
        }
        for c in &self.constraints {
            let cells = c.cells();
            let decided = !cells.is_empty() && cells.iter().all(|&cell| self.given(cell).is_some());
            if decided && !c.holds(|cell| self.given(cell).unwrap_or(0)) {
                found.push(format!("the givens break {c}"));
            }
        }
        found
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

    /// Cells a row.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The digits in reading order, to be written in place (an engine's
    /// model, filled anew for each one found).
    pub(crate) fn digits_mut(&mut self) -> &mut [Digit] {
        &mut self.digits
    }

    /// The digit of `cell`.
    pub fn get(&self, cell: Cell) -> Digit {
        self.digits[cell.row * self.side + cell.col]
    }

    /// The rows, each `side` digits.
    pub fn rows(&self) -> impl Iterator<Item = &[Digit]> {
        self.digits.chunks(self.side.max(1))
    }
}

/// How a digit is written: `1`..`9`, then `A` for 10, `B` for 11, up to
/// `Z` for 35; larger digits as numbers.
pub fn symbol(digit: Digit) -> String {
    let mut out = String::new();
    push_symbol(&mut out, digit);
    out
}

/// [`symbol`], appended to `out` without allocating a string of its own.
pub fn push_symbol(out: &mut String, digit: Digit) {
    match digit {
        0..=9 => out.push(char::from(b'0' + digit)),
        10..=35 => out.push(char::from(b'A' + (digit - 10))),
        _ => out.push_str(&digit.to_string()),
    }
}

impl fmt::Display for Grid {
    /// One line per row, digits separated by a space (the Kattis output
    /// form), digits above 9 as letters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.rows() {
            let line = itertools::join(row.iter().map(|&d| symbol(d)), " ");
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// An alternative of hidden skyscraper clues on one line, each clue alone
/// (ISS's way to say "the first hidden digit is even": `Or` of four
/// clues), as one clue of all their digits: the grids that satisfy one of
/// them are those whose first hidden digit is one of theirs, and one
/// automaton propagates where the alternatives' selectors did not (ISS's
/// "Hidden Skyscraper - Full Odd": 0.59 s with them). Any other
/// constraint as it is.
fn merged(constraint: Constraint) -> Constraint {
    let Constraint::AnyOf { alternatives } = &constraint else { return constraint };
    fn clue(a: &Alternative) -> Option<(u64, &Vec<Cell>)> {
        match (&a.distinct[..], &a.relations[..], &a.constraints[..]) {
            ([], [], [Constraint::Along { rule: LineRule::FirstHidden(targets), cells }]) => Some((*targets, cells)),
            _ => None,
        }
    }
    let Some(clues) = alternatives.iter().map(clue).collect::<Option<Vec<_>>>() else { return constraint };
    match clues.first() {
        Some(&(_, cells)) if clues.iter().all(|&(_, other)| other == cells) => {
            let targets = clues.iter().fold(0, |all, &(targets, _)| all | targets);
            Constraint::Along { rule: LineRule::FirstHidden(targets), cells: cells.clone() }
        }
        _ => constraint,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Puzzles of one box shape share their rows, columns and boxes until
    /// one adds a group of its own: the others keep theirs, and each box
    /// shape has its own.
    #[test]
    fn a_group_added_to_one_puzzle_is_in_no_other() {
        let mut x = Puzzle::sudoku(3, 3).unwrap().with_diagonals();
        x.add_group(vec![Cell::new(0, 0), Cell::new(8, 8)]).unwrap();
        let plain = Puzzle::sudoku(3, 3).unwrap();
        assert_eq!((x.groups().len(), plain.groups().len()), (30, 27));
        let cells = |list: &[(usize, usize)]| list.iter().map(|&(r, c)| Cell::new(r, c)).collect::<Vec<_>>();
        // The first box comes after the 6 rows and the 6 columns.
        let wide = Puzzle::sudoku(2, 3).unwrap();
        assert_eq!(wide.groups()[12].cells, cells(&[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]));
        let tall = Puzzle::sudoku(3, 2).unwrap();
        assert_eq!(tall.groups()[12].cells, cells(&[(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]));
    }
}
