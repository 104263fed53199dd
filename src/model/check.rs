//! The independent checker: does a grid solve a puzzle? It reads only the
//! [`Puzzle`] and the [`Grid`], never the CNF, so it can judge what a solver says.

use std::fmt;

use super::{table_allows, Cell, Constraint, Digit, Grid, Group, Predicate, Puzzle};

/// One way a grid fails a puzzle. (The fields are named for what they
/// hold; `Display` says it in words.)
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The grid's side is not the puzzle's.
    WrongSize { expected: usize, found: usize },
    /// A cell holds no digit of the puzzle.
    DigitOutside { cell: Cell, digit: Digit },
    /// A given cell holds another digit.
    GivenChanged { cell: Cell, given: Digit, found: Digit },
    /// A digit twice in group `group` (from 0).
    Repeated { group: usize, digit: Digit, first: Cell, second: Cell },
    /// A relation's two digits `da` and `db` break its predicate.
    Relation { a: Cell, b: Cell, predicate: Predicate, da: Digit, db: Digit },
    /// A constraint's cells hold `digits`, which break it.
    Constraint { constraint: Constraint, digits: Vec<Digit> },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::WrongSize { expected, found } => {
                write!(f, "grid side is {found}, the puzzle's is {expected}")
            }
            Violation::DigitOutside { cell, digit } => {
                write!(f, "{cell} holds {digit}, not a digit of the puzzle")
            }
            Violation::GivenChanged { cell, given, found } => {
                write!(f, "{cell} holds {found} but the given is {given}")
            }
            Violation::Repeated { group, digit, first, second } => {
                write!(f, "digit {digit} appears at {first} and {second}, both in group {}", group + 1)
            }
            Violation::Relation { a, b, predicate, da, db } => {
                write!(f, "{a}={da} and {b}={db} break the relation {predicate}")
            }
            Violation::Constraint { constraint, digits } => {
                write!(f, "digits {} break the constraint {constraint}", itertools::join(digits, ","))
            }
        }
    }
}

/// Every violation of `puzzle` by `grid`; empty when the grid is a solution.
pub fn violations(puzzle: &Puzzle, grid: &Grid) -> Vec<Violation> {
    Checker::new(puzzle).violations(grid)
}

/// The checker of one puzzle's grids. Counting checks every model, so the
/// cells of givens, groups and relations are turned into positions in the
/// grid's digits once, here. It keeps its own copy of the puzzle, so that
/// an engine prepared for many puzzles can keep its checker beside it.
#[derive(Clone, Debug)]
pub struct Checker {
    puzzle: Puzzle,
    /// The positions of each group's cells, group after group.
    group_cells: Vec<usize>,
    /// The positions of each relation's two cells, and its predicate.
    relations: Vec<(usize, usize, Predicate)>,
    /// The position and digit of each given.
    givens: Vec<(usize, Digit)>,
    /// The positions of each table's two cells, and its allowed pairs
    /// (bands moved onto bands have many, checked on millions of grids).
    tables: Vec<(usize, usize, Vec<u64>)>,
    /// The indices of the other constraints.
    others: Vec<usize>,
}

impl Checker {
    /// The checker of `puzzle`'s grids.
    pub fn new(puzzle: &Puzzle) -> Checker {
        let at = |cell: Cell| cell.row * puzzle.side() + cell.col;
        let (mut tables, mut others) = (Vec::new(), Vec::new());
        for (i, constraint) in puzzle.constraints().iter().enumerate() {
            match constraint {
                Constraint::Table { a, b, allowed } => tables.push((at(*a), at(*b), allowed.clone())),
                _ => others.push(i),
            }
        }
        Checker {
            puzzle: puzzle.clone(),
            group_cells: puzzle.groups().iter().flat_map(|g| g.cells.iter().map(|&c| at(c))).collect(),
            relations: puzzle.relations().iter().map(|r| (at(r.a), at(r.b), r.predicate)).collect(),
            givens: puzzle.givens.iter().enumerate().filter_map(|(at, given)| Some((at, (*given)?))).collect(),
            tables,
            others,
        }
    }

    /// The puzzle checked.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// Each group with the positions of its cells.
    fn groups(&self) -> impl Iterator<Item = (&Group, &[usize])> {
        let mut rest = &self.group_cells[..];
        self.puzzle.groups().iter().map(move |group| {
            let (cells, after) = rest.split_at(group.cells.len());
            rest = after;
            (group, cells)
        })
    }

    /// Whether `grid` solves the puzzle: [`Checker::violations`] is empty.
    /// Counting asks this of every model, so it only says yes or no, and
    /// touches each cell of each group with no branch.
    pub fn solves(&self, grid: &Grid) -> bool {
        let (side, values) = (self.puzzle.side(), self.puzzle.digits());
        let digits = &grid.digits;
        if grid.side() != side
            || digits.iter().any(|&d| usize::from(d).wrapping_sub(1) >= values)
            || self.givens.iter().any(|&(at, given)| digits[at] != given)
        {
            return false;
        }
        let all = u64::MAX >> (64 - values);
        for (group, cells) in self.groups() {
            // A bit per digit (1..=64, checked above): all differ when the
            // group has as many bits as cells.
            let seen = cells.iter().fold(0u64, |seen, &at| seen | 1 << (digits[at] - 1));
            // Full groups (most) need no population count, which takes
            // dozens of instructions on the baseline x86-64 target.
            let differ =
                if group.cells.len() == values { seen == all } else { seen.count_ones() as usize == group.cells.len() };
            if !differ {
                return false;
            }
        }
        let constraints = self.puzzle.constraints();
        self.relations.iter().all(|&(a, b, predicate)| predicate.allows(digits[a], digits[b]))
            && self.tables.iter().all(|(a, b, allowed)| table_allows(allowed, digits[*a], digits[*b]))
            && self.others.iter().all(|&i| constraints[i].holds(|cell| grid.get(cell)))
    }

    /// Every violation of the puzzle by `grid`; empty when the grid is a solution.
    pub fn violations(&self, grid: &Grid) -> Vec<Violation> {
        let (puzzle, side) = (&self.puzzle, self.puzzle.side());
        if grid.side() != side {
            return vec![Violation::WrongSize { expected: side, found: grid.side() }];
        }
        let mut found = Vec::new();
        for (index, (&digit, &given)) in grid.digits.iter().zip(&puzzle.givens).enumerate() {
            let outside = digit == 0 || usize::from(digit) > puzzle.digits();
            if outside || given.is_some_and(|given| given != digit) {
                let cell = Cell::new(index / side, index % side);
                found.push(match given {
                    Some(given) if !outside => Violation::GivenChanged { cell, given, found: digit },
                    _ => Violation::DigitOutside { cell, digit },
                });
            }
        }
        if !found.is_empty() {
            return found;
        }
        for (index, (group, cells)) in self.groups().enumerate() {
            // A bit per digit (1..=64, checked above).
            let mut seen = 0u64;
            for (i, &at) in cells.iter().enumerate() {
                let bit = 1 << (grid.digits[at] - 1);
                if seen & bit != 0 {
                    found.push(repeated(index, &group.cells[..=i], grid));
                }
                seen |= bit;
            }
        }
        for (relation, &(a, b, predicate)) in puzzle.relations().iter().zip(&self.relations) {
            let (da, db) = (grid.digits[a], grid.digits[b]);
            if !predicate.allows(da, db) {
                found.push(Violation::Relation { a: relation.a, b: relation.b, predicate, da, db });
            }
        }
        for constraint in puzzle.constraints() {
            if !constraint.holds(|cell| grid.get(cell)) {
                let digits = constraint.cells().iter().map(|&c| grid.get(c)).collect();
                found.push(Violation::Constraint { constraint: constraint.clone(), digits });
            }
        }
        found
    }
}

/// The violation of group `index` by the last of `cells`, whose digit an
/// earlier one holds too.
fn repeated(index: usize, cells: &[Cell], grid: &Grid) -> Violation {
    let (&second, before) = cells.split_last().expect("at least two cells");
    let digit = grid.get(second);
    let first = *before.iter().find(|&&c| grid.get(c) == digit).expect("seen before");
    Violation::Repeated { group: index, digit, first, second }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::{Just, Strategy};

    use super::*;

    fn latin4() -> Grid {
        Grid::new(4, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap()
    }

    #[test]
    fn accepts_a_valid_4x4_grid() {
        let puzzle = Puzzle::sudoku(2, 2).unwrap();
        assert_eq!(violations(&puzzle, &latin4()), vec![]);
    }

    #[test]
    fn reports_repeat_in_box() {
        let puzzle = Puzzle::sudoku(2, 2).unwrap();
        // Rows and columns are latin, but the top-left box holds 1,2,2,1.
        let grid = Grid::new(4, vec![1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 1, 2, 4, 3, 2, 1]).unwrap();
        let found: Vec<String> = violations(&puzzle, &grid).iter().map(|v| v.to_string()).collect();
        // Groups: 4 rows, 4 columns, then the boxes; the first box is group 9.
        // Every box repeats two digits.
        let expected =
            ["digit 2 appears at r1c2 and r2c1, both in group 9", "digit 1 appears at r1c1 and r2c2, both in group 9"];
        assert_eq!((&found[..2], found.len()), (&expected.map(String::from)[..], 8), "{found:?}");
    }

    proptest::proptest! {
        /// `solves` says yes exactly when `violations` finds none, on 4x4
        /// solutions (latin4 with its digits relabelled), some with one
        /// cell changed, against random givens, sum relations and tables
        /// of allowed pairs (which `solves` reads apart from the other
        /// constraints).
        #[test]
        fn solves_agrees_with_violations(
            labels in Just(vec![1u8, 2, 3, 4]).prop_shuffle(),
            change in proptest::option::of((0usize..16, 0u8..=5)),
            givens in proptest::collection::vec((0usize..16, 1u8..=4), 0..3),
            relations in proptest::collection::vec((0usize..16, 0usize..16, 0usize..3, 2u32..=8), 0..3),
            tables in proptest::collection::vec((0usize..16, 0usize..16, proptest::collection::vec(1u64..16, 4)), 0..3),
        ) {
            let mut digits: Vec<Digit> = latin4().digits.iter().map(|&d| labels[usize::from(d) - 1]).collect();
            if let Some((at, digit)) = change {
                digits[at] = digit;
            }
            let grid = Grid::new(4, digits).unwrap();
            let mut puzzle = Puzzle::sudoku(2, 2).unwrap();
            let cell = |at: usize| Cell::new(at / 4, at % 4);
            for (at, digit) in givens {
                puzzle.set_given(cell(at), digit).unwrap();
            }
            for (a, b, cmp, target) in relations {
                let cmp = [std::cmp::Ordering::Less, std::cmp::Ordering::Equal, std::cmp::Ordering::Greater][cmp];
                // Relations between a cell and itself are refused; skip them.
                let _ = puzzle.add_relation(cell(a), cell(b), Predicate::Sum { cmp, target });
            }
            for (a, b, allowed) in tables {
                // A table of a cell with itself is refused; skip it.
                let _ = puzzle.add_constraint(Constraint::Table { a: cell(a), b: cell(b), allowed });
            }
            let checker = Checker::new(&puzzle);
            proptest::prop_assert_eq!(checker.solves(&grid), checker.violations(&grid).is_empty());
        }
    }

    #[test]
    fn automorphisms_rename_one_to_one_both_ways() {
        // latin4: 1234 / 3412 / 2143 / 4321. Each case: the cells, their
        // images, and whether the pairs rename one to one, as a person
        // reads them off the grid.
        let cases: [(&[usize], &[usize], bool); 5] = [
            // Rows 1 and 2 swapped: 1<->3, 2<->4, a renaming.
            (&[0, 1, 2, 3, 4, 5, 6, 7], &[4, 5, 6, 7, 0, 1, 2, 3], true),
            // r1c1 (1) and r4c4 (1) onto r1c2 (2) and r1c3 (3): 1 would
            // be both 2 and 3.
            (&[0, 15], &[1, 2], false),
            // r1c1 (1) and r1c2 (2) onto r1c3 (3) and r2c1 (3): 3 would
            // stand for both.
            (&[0, 1], &[2, 4], false),
            // r1c1 (1) onto r2c3 (1) and r4c4 (1) onto r1c1 (1): 1 is 1.
            (&[0, 15], &[6, 0], true),
            // One pair: always a renaming.
            (&[5], &[10], true),
        ];
        let grid = latin4();
        let cell = |at: usize| Cell::new(at / 4, at % 4);
        for (cells, images, renames) in cases {
            let mut puzzle = Puzzle::sudoku(2, 2).unwrap();
            let cells = cells.iter().map(|&at| cell(at)).collect();
            let images = images.iter().map(|&at| cell(at)).collect();
            let automorphic = Constraint::Automorphic { cells, images };
            puzzle.add_constraint(automorphic.clone()).unwrap();
            let checker = Checker::new(&puzzle);
            assert_eq!(checker.solves(&grid), renames, "{automorphic}");
            assert_eq!(checker.violations(&grid).is_empty(), renames, "{automorphic}");
        }
    }

    #[test]
    fn reports_relation_and_given() {
        let mut puzzle = Puzzle::sudoku(2, 2).unwrap();
        puzzle.set_given(Cell::new(0, 0), 2).unwrap();
        let sum_eq_5 = Predicate::Sum { cmp: std::cmp::Ordering::Equal, target: 5 };
        puzzle.add_relation(Cell::new(0, 0), Cell::new(0, 1), sum_eq_5).unwrap();
        let found = violations(&puzzle, &latin4());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].to_string(), "r1c1 holds 1 but the given is 2");
    }

    /// The checker's chaos construction on a 4x4 Latin square: its rows as
    /// regions pass; labels out of order, a region of repeated digits, a
    /// region not connected, and a region of the wrong size fail.
    #[test]
    fn chaos_regions_are_checked_on_their_own() {
        let puzzle = Puzzle::latin(4).unwrap().into_chaos().unwrap();
        let checker = Checker::new(&puzzle);
        // The square's rows under the labels, in the model of side 8.
        let model = |square: &str, labels: &str| {
            let mut digits = vec![1; 64];
            for (i, (d, l)) in square.bytes().zip(labels.bytes()).enumerate() {
                digits[(i / 4) * 8 + i % 4] = d - b'0';
                digits[(4 + i / 4) * 8 + i % 4] = l - b'0';
            }
            Grid::new(8, digits).unwrap()
        };
        let square = "1234341221434321";
        assert!(checker.solves(&model(square, "1111222233334444")));
        // 2x2 boxes: 12/34 and 34/12 repeat no digit in a box.
        assert!(checker.solves(&model(square, "1122112233443344")));
        for labels in [
            "2222111133334444", // label 2 first
            "1111333322224444", // label 3 before label 2
            "1212121234343434", // columns 1 and 3: repeats digits, and not connected
            "1111122223333444", // sizes 5 and 3
        ] {
            assert!(!checker.solves(&model(square, labels)), "{labels}");
        }
        // Labels in order, each of 4 different digits, label 4 (r2c4, r4c1,
        // r4c3, r4c4) not connected.
        let columns = "1234214334124321";
        assert!(checker.solves(&model(columns, "1111222233334444")));
        assert!(!checker.solves(&model(columns, "1111223422334344")));
    }
}
