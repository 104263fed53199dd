//! Digit relabelling symmetry. Let `D` be the digits every cell may hold
//! (all `1..=n` in a Sudoku, `{1, 2}` in Takuzu, whose cells allow only
//! those). When every rule is unchanged by renaming the digits of `D` among
//! themselves, each solution's relabellings are all solutions, and the
//! count follows from a smaller search:
//! - if a group holds exactly `|D|` cells (all different, so each solution
//!   writes all of `D` in it), exactly one relabelling of each solution
//!   writes the group as `D` in order: the count is `|D|!` times the count
//!   with the group so fixed;
//! - otherwise the solutions with the first cell holding each digit of `D`
//!   are equally many (swapping two digits maps one set onto the other):
//!   the count is `|D|` times the count with the first cell fixed
//!   (Takuzu's complement symmetry, a factor of 2).
//!
//! On a plain Sudoku or Latin square (rows, columns and boxes only), the
//! lines can be permuted too. With row 1 fixed to `1..=n`, the row
//! permutations that keep row 1 and the bands (rows within a band, bands
//! other than the first among themselves) map solutions to solutions, and
//! with the relabellings they act freely: a permutation fixing row 1 can
//! only be undone by the identity relabelling, and no row permutation
//! fixes a grid whose columns are all different. So each orbit holds
//! exactly one grid with row 1 fixed whose first column rises within each
//! band (below row 1) and across the bands' top cells, and the count is the
//! orbit size, `n!` times the permutations, times the count of such grids
//! (`<` relations added to the puzzle). The same holds for columns and
//! stacks with column 1 fixed; whichever gives more is used (2x4 boxes:
//! 144 column permutations against 48 row permutations). The number of
//! permutations is derived from the band height `h` and the `B = n / h`
//! bands: `(h - 1)! (B - 1)! h!^(B - 1)` (144 for 9x9, 8 for 6x6).
//!
//! Invariance is proven from the rules, never assumed: with no givens, for
//! the generators of all permutations of `D` (a swap and a cycle), every
//! relation's table and every constraint is checked, by its kind where the
//! kind only compares digits for equality, else on every assignment of its
//! cells over `D` (when there are at most 2^16; beyond, no symmetry).

use crate::model::{Cell, Constraint, Digit, Predicate, Puzzle};

/// The most assignments of one constraint's cells checked by brute force.
const MAX_ASSIGNMENTS: usize = 1 << 16;

/// A reduction by relabelling: fix `fixed` (cell, digit), require each
/// pair of `rising` to hold rising digits, and multiply by `factor`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relabelling {
    pub fixed: Vec<(Cell, Digit)>,
    /// `(a, b)`: the digit of `a` is below the digit of `b` (the line order).
    pub rising: Vec<(Cell, Cell)>,
    /// The relabellings and line permutations the reduction removes.
    pub factor: u128,
}

impl Relabelling {
    /// The puzzle with the fixed cells given.
    pub fn reduced(&self, puzzle: &Puzzle) -> Puzzle {
        let mut reduced = puzzle.clone();
        for &(cell, digit) in &self.fixed {
            // The cells are in the grid and the digits in 1..=n: this cannot fail.
            let _ = reduced.set_given(cell, digit);
        }
        for &(a, b) in &self.rising {
            // Two different cells of the grid: this cannot fail.
            let _ = reduced.add_relation(a, b, Predicate::Less);
        }
        reduced
    }
}

/// A puzzle as it is counted: reduced by [`relabelling`] when that is
/// allowed and proven, with the reduction (none: the puzzle itself).
pub struct Reduced<'p> {
    pub puzzle: std::borrow::Cow<'p, Puzzle>,
    pub relabelling: Option<Relabelling>,
}

impl Reduced<'_> {
    /// What the reduced count is multiplied by (1 without a reduction).
    pub fn factor(&self) -> u128 {
        self.relabelling.as_ref().map_or(1, |r| r.factor)
    }

    /// The full count from the reduced one; `None` if it does not fit in a `u128`.
    pub fn total(&self, counted: u128) -> Option<u128> {
        counted.checked_mul(self.factor())
    }
}

/// `puzzle` reduced by [`relabelling`] when `allowed` and the rules permit.
pub fn reduce(puzzle: &Puzzle, allowed: bool) -> Reduced<'_> {
    match allowed.then(|| relabelling(puzzle)).flatten() {
        Some(r) => Reduced { puzzle: std::borrow::Cow::Owned(r.reduced(puzzle)), relabelling: Some(r) },
        None => Reduced { puzzle: std::borrow::Cow::Borrowed(puzzle), relabelling: None },
    }
}

/// The relabelling reduction of `puzzle`, if every rule is proven
/// invariant under renaming the digits its cells may hold; `None`
/// otherwise (or when the factor does not fit in a `u128`).
pub fn relabelling(puzzle: &Puzzle) -> Option<Relabelling> {
    if puzzle.givens().next().is_some() {
        return None;
    }
    let domain = common_domain(puzzle)?;
    let digits: Vec<Digit> = (1..=puzzle.side() as Digit).filter(|&d| domain >> (d - 1) & 1 == 1).collect();
    let k = digits.len();
    if k < 2 {
        return None;
    }
    // A swap and a cycle generate every permutation of the digits.
    let swap = permutation(&digits, |i| [1, 0].get(i).copied().unwrap_or(i));
    let cycle = permutation(&digits, |i| (i + 1) % k);
    let generators = [swap, cycle];
    let relations = puzzle.relations().iter().all(|r| {
        generators.iter().all(|g| {
            itertools::iproduct!(&digits, &digits)
                .all(|(&a, &b)| r.predicate.allows(a, b) == r.predicate.allows(g[a as usize], g[b as usize]))
        })
    });
    if !relations || !puzzle.constraints().iter().all(|c| invariant(c, &digits, &generators)) {
        return None;
    }
    let relabellings = factorial(k)?;
    if let Some(lines) = line_permutations(puzzle) {
        let factor = relabellings.checked_mul(lines.count)?;
        let fixed = lines.fixed.into_iter().zip(digits).collect();
        return Some(Relabelling { fixed, rising: lines.rising, factor });
    }
    if let Some(group) = puzzle.groups().iter().find(|g| g.cells.len() == k) {
        let fixed = group.cells.iter().copied().zip(digits).collect();
        return Some(Relabelling { fixed, rising: Vec::new(), factor: relabellings });
    }
    Some(Relabelling { fixed: vec![(Cell::new(0, 0), digits[0])], rising: Vec::new(), factor: k as u128 })
}

fn factorial(k: usize) -> Option<u128> {
    (1..=k as u128).try_fold(1u128, |f, i| f.checked_mul(i))
}

/// Line permutations to count up to: the first line to fix, the order the
/// others are sorted into, and how many permutations that removes.
struct Lines {
    fixed: Vec<Cell>,
    rising: Vec<(Cell, Cell)>,
    count: u128,
}

/// On a plain Sudoku or Latin square (no relations, no constraints, and
/// the groups exactly its rows, columns and boxes, checked as sets), the
/// row or column permutations that keep the first line and the bands or
/// stacks, whichever are more.
fn line_permutations(puzzle: &Puzzle) -> Option<Lines> {
    if !puzzle.relations().is_empty() || !puzzle.constraints().is_empty() {
        return None;
    }
    let n = puzzle.side();
    let (h, w) = puzzle.boxes().unwrap_or((n, n));
    let plain = match puzzle.boxes() {
        Some((h, w)) => Puzzle::sudoku(h, w).ok()?,
        None => Puzzle::latin(n).ok()?,
    };
    let cell_sets = |p: &Puzzle| {
        let mut sets: Vec<Vec<Cell>> = p
            .groups()
            .iter()
            .map(|g| {
                let mut cells = g.cells.clone();
                cells.sort();
                cells
            })
            .collect();
        sets.sort();
        sets
    };
    if cell_sets(puzzle) != cell_sets(&plain) {
        return None;
    }
    // Rows in bands of `h`, or columns in stacks of `w` (the transpose).
    let rows = band_order(n, h, Cell::new);
    let cols = band_order(n, w, |line, i| Cell::new(i, line));
    [rows, cols].into_iter().flatten().max_by_key(|lines| lines.count)
}

/// The band order of lines `0..n` in bands of `h`: line 0 fixed, the first
/// cells (`at(line, 0)`) rising within each band below line 0 and across
/// the bands' first lines after the first band; `None` when the number of
/// permutations does not fit in a `u128`.
fn band_order(n: usize, h: usize, at: impl Fn(usize, usize) -> Cell) -> Option<Lines> {
    let bands = n / h;
    let mut rising = Vec::new();
    for band in 0..bands {
        let first = if band == 0 { 1 } else { band * h };
        for line in first..(band + 1) * h - 1 {
            rising.push((at(line, 0), at(line + 1, 0)));
        }
    }
    for band in 1..bands.saturating_sub(1) {
        rising.push((at(band * h, 0), at((band + 1) * h, 0)));
    }
    let within = factorial(h)?.checked_pow(u32::try_from(bands - 1).ok()?)?;
    let count = factorial(h - 1)?.checked_mul(factorial(bands - 1)?)?.checked_mul(within)?;
    Some(Lines { fixed: (0..n).map(|i| at(0, i)).collect(), rising, count })
}

/// The digits every cell allows (bit `d - 1` for digit `d`), when all
/// cells allow the same ones; `None` otherwise.
fn common_domain(puzzle: &Puzzle) -> Option<u64> {
    let n = puzzle.side();
    let all = u64::MAX >> (64 - n);
    let mut domains = vec![all; n * n];
    for c in puzzle.constraints() {
        if let Constraint::Digits { cell, allowed } = c {
            domains[cell.row * n + cell.col] &= allowed;
        }
    }
    let first = domains[0];
    domains.iter().all(|&d| d == first).then_some(first)
}

/// A permutation of `digits` as a table indexed by digit: the `i`th digit
/// goes to the `to(i)`th; digits outside stay.
fn permutation(digits: &[Digit], to: impl Fn(usize) -> usize) -> Vec<Digit> {
    let mut table: Vec<Digit> = (0..=64).collect();
    for (i, &d) in digits.iter().enumerate() {
        table[d as usize] = digits[to(i)];
    }
    table
}

/// Whether constraint `c` holds of a relabelled assignment exactly when it
/// holds of the assignment, for each generator, over the cells' digits.
fn invariant(c: &Constraint, digits: &[Digit], generators: &[Vec<Digit>]) -> bool {
    match c {
        // Only equality between digits matters to these.
        Constraint::NotAllEqual { .. } | Constraint::DistinctLines { .. } => true,
        // Every cell's digits are in the domain, which this allows whole
        // (the domain is the intersection of what each cell allows).
        Constraint::Digits { .. } => true,
        Constraint::Sum { .. }
        | Constraint::Consecutive { .. }
        | Constraint::Between { .. }
        | Constraint::Contains { .. } => {
            let mut cells = c.cells();
            cells.sort();
            cells.dedup();
            let k = digits.len();
            let Some(total) = u32::try_from(cells.len()).ok().and_then(|len| k.checked_pow(len)) else {
                return false;
            };
            if total > MAX_ASSIGNMENTS {
                return false;
            }
            (0..total).all(|code| {
                let digit_of = |cell: Cell| {
                    let at = cells.binary_search(&cell).expect("a cell of the constraint");
                    digits[code / k.pow(at as u32) % k]
                };
                let holds = c.holds(digit_of);
                generators.iter().all(|g| c.holds(|cell| g[digit_of(cell) as usize]) == holds)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use super::*;
    use crate::model::Predicate;

    #[test]
    fn only_rules_blind_to_digit_names_allow_it() {
        let plain = Puzzle::sudoku(2, 2).unwrap();
        let r = relabelling(&plain).unwrap();
        assert_eq!((r.factor, r.fixed.len()), (48, 4), "4! relabellings, 2 line orders");
        let mut given = plain.clone();
        given.set_given(Cell::new(0, 0), 1).unwrap();
        assert_eq!(relabelling(&given), None);
        let mut summed = plain.clone();
        summed
            .add_relation(Cell::new(0, 0), Cell::new(1, 1), Predicate::Sum { cmp: Ordering::Less, target: 5 })
            .unwrap();
        assert_eq!(relabelling(&summed), None);
        let mut different = plain.clone();
        different.add_relation(Cell::new(0, 0), Cell::new(1, 1), Predicate::NotEqual).unwrap();
        assert!(relabelling(&different).is_some());
        let mut odd = plain;
        odd.add_constraint(Constraint::Digits { cell: Cell::new(0, 0), allowed: 0b0101 }).unwrap();
        assert_eq!(relabelling(&odd), None);
        // No group to fix: the first cell is fixed, a factor of |D| = 4.
        let blank = relabelling(&Puzzle::blank(4).unwrap()).unwrap();
        assert_eq!((blank.factor, blank.fixed), (4, vec![(Cell::new(0, 0), 1)]));
    }

    /// Cells that allow only 1 and 2, rows that sum to 6 (two of each, as
    /// Takuzu's balance): swapping 1 and 2 keeps every rule, a factor of 2
    /// with the first cell fixed. A sum of 7 (three 2s and a 1) names digits.
    #[test]
    fn a_two_digit_domain_with_balanced_sums_has_the_complement_symmetry() {
        let binary = |target: i32| {
            let mut p = Puzzle::blank(4).unwrap();
            for cell in p.cells().collect::<Vec<_>>() {
                p.add_constraint(Constraint::Digits { cell, allowed: 0b11 }).unwrap();
            }
            for r in 0..4 {
                let terms = (0..4).map(|c| (Cell::new(r, c), 1)).collect();
                p.add_constraint(Constraint::Sum { terms, target }).unwrap();
            }
            p
        };
        let balanced = relabelling(&binary(6)).unwrap();
        assert_eq!((balanced.factor, balanced.fixed), (2, vec![(Cell::new(0, 0), 1)]));
        assert_eq!(relabelling(&binary(7)), None);
    }

    /// The line permutations' number, derived from the bands: `(h - 1)!
    /// (B - 1)! h!^(B - 1)` for rows in `B` bands of `h` (or columns in
    /// stacks), whichever is more; a diagonal or a jigsaw region has none.
    #[test]
    fn line_permutations_follow_the_bands() {
        let factor = |p: &Puzzle| relabelling(p).unwrap().factor;
        let fact = |k: u128| (1..=k).product::<u128>();
        assert_eq!(factor(&Puzzle::sudoku(3, 3).unwrap()), fact(9) * 2 * 2 * 6 * 6);
        // 2x4 boxes: columns in 2 stacks of 4 (3! 1! 4! = 144) beat rows in 4 bands of 2 (1! 3! 2!^3 = 48).
        let r = relabelling(&Puzzle::sudoku(2, 4).unwrap()).unwrap();
        assert_eq!(r.factor, fact(8) * 144);
        assert_eq!(r.fixed[1], (Cell::new(1, 0), 2), "the first column is fixed");
        assert_eq!(factor(&Puzzle::latin(5).unwrap()), fact(5) * fact(4));
        assert_eq!(factor(&Puzzle::sudoku(3, 3).unwrap().with_diagonals()), fact(9));
    }
}
