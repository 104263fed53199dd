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
//! lines can be permuted too: rows within a band and bands among
//! themselves, and columns within a stack and stacks. With row 1 fixed to
//! `1..=n`, the row permutations that keep row 1 act freely together with
//! the relabellings: a permutation fixing row 1 can only be undone by the
//! identity relabelling, and no row permutation fixes a grid whose columns
//! are all different. So each orbit holds exactly one grid with row 1 fixed
//! whose first column rises within each band (below row 1) and across the
//! bands' top cells, and the count is the orbit size, `n!` times the
//! permutations, times the count of such grids (`<` relations added to the
//! puzzle): `(h - 1)! (B - 1)! h!^(B - 1)` permutations for `B = n / h`
//! bands of height `h`. The same holds for columns with column 1 fixed.
//! With box 1 fixed instead, the rows outside the first band and the
//! columns outside the first stack can be sorted at once (neither moves box
//! 1, row 1 or column 1): `(B - 1)! h!^(B - 1)` times `(S - 1)! w!^(S - 1)`
//! permutations, 5,184 for 9x9 against 144. Whichever removes the most is
//! used. On a Latin square the sorted first column is `1..=n`, so it is
//! fixed outright.
//!
//! A blank Sudoku layout with extra all-different groups (diagonals,
//! disjoint groups, windows) keeps only some line orders: those that leave
//! a full group in place and map every group onto one are found by listing
//! them, the groups the layout implies are added, and one grid of each
//! orbit is counted through `<` relations (`symmetry/extra.rs` has the
//! proof).
//!
//! After the reduction, a transposition that maps the reduced puzzle onto
//! itself (the digits renamed so that box 1 comes back, see
//! [`transposition`]) halves the count again, nearly: it is counted as `2L
//! - F` ([`Transposition`]), since some grids are their own transposition.
//! With square boxes the columns are sorted in the order of the digits read
//! down box 1 ([`Predicate::BoxColumnOrder`]), the order transposition
//! turns the rows' `<` into, so that the reduced puzzle is invariant.
//!
//! Invariance is proven from the rules, never assumed: with no givens, for
//! the generators of all permutations of `D` (a swap and a cycle), every
//! relation's table and every constraint is checked, by its kind where the
//! kind only compares digits for equality, else on every assignment of its
//! cells over `D` (when there are at most 2^16; beyond, no symmetry).

use std::collections::{HashMap, HashSet};

use crate::model::{Cell, Constraint, Digit, Predicate, Puzzle, Relation};

mod extra;

pub(crate) use extra::implied_groups;

/// The most assignments of one constraint's cells checked by brute force.
const MAX_ASSIGNMENTS: usize = 1 << 16;

/// A reduction by relabelling: fix `fixed` (cell, digit), add the `order`
/// relations, and multiply by `factor`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relabelling {
    /// Cells fixed to a digit (the reduced puzzle's givens).
    pub fixed: Vec<(Cell, Digit)>,
    /// Relations that sort lines by their first cells (the line order).
    pub order: Vec<Relation>,
    /// Full groups the layout implies, added to the counted puzzle (the
    /// same grids; see `symmetry/extra.rs`).
    pub implied: Vec<Vec<Cell>>,
    /// The relabellings and line permutations the reduction removes.
    pub factor: u128,
}

impl Relabelling {
    /// The puzzle with the fixed cells given and the order relations added.
    pub fn reduced(&self, puzzle: &Puzzle) -> Puzzle {
        let mut reduced = puzzle.clone();
        for &(cell, digit) in &self.fixed {
            // The cells are in the grid and the digits in 1..=n: this cannot fail.
            let _ = reduced.set_given(cell, digit);
        }
        for r in &self.order {
            // Two different cells of the grid: this cannot fail.
            let _ = reduced.add_relation(r.a, r.b, r.predicate);
        }
        for group in &self.implied {
            // Distinct cells of the grid, as many as the digits: this cannot fail.
            let _ = reduced.add_group(group.clone());
        }
        reduced
    }
}

impl std::fmt::Display for Relabelling {
    /// The reduction as `--stats` names it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fixed = itertools::join(self.fixed.iter().map(|(cell, d)| format!("{cell}={d}")), " ");
        let order = match self.order.len() {
            0 => String::new(),
            k => format!(", {k} order relations on the lines' first cells"),
        };
        let implied = match self.implied.len() {
            0 => String::new(),
            k => format!(", {k} implied groups added"),
        };
        write!(f, "symmetry: digit relabelling; fixed {fixed}{order}{implied}, the count multiplied by {}", self.factor)
    }
}

/// A puzzle as it is counted: reduced by [`relabelling`] when that is
/// allowed and proven, with the reduction (none: the puzzle itself).
pub struct Reduced<'p> {
    /// The puzzle counted: reduced, or the puzzle itself.
    pub puzzle: std::borrow::Cow<'p, Puzzle>,
    /// The reduction, if the puzzle was reduced.
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

    /// The reduced puzzle's [`transposition`], if it was reduced and has one.
    pub fn transposition(&self) -> Option<Transposition> {
        self.relabelling.as_ref()?;
        transposition(&self.puzzle)
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
    let digits: Vec<Digit> = (1..=puzzle.digits() as Digit).filter(|&d| domain >> (d - 1) & 1 == 1).collect();
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
        let fixed = lines.fixed.into_iter().map(|(cell, i)| (cell, digits[i])).collect();
        return Some(Relabelling { fixed, order: lines.order, implied: Vec::new(), factor });
    }
    if let Some(extra) = extra::reduction(puzzle) {
        let factor = relabellings.checked_mul(extra.count)?;
        let fixed = extra.fixed.into_iter().map(|(cell, i)| (cell, digits[i])).collect();
        return Some(Relabelling { fixed, order: extra.order, implied: extra.implied, factor });
    }
    if let Some(group) = puzzle.groups().iter().find(|g| g.cells.len() == k) {
        let fixed = group.cells.iter().copied().zip(digits).collect();
        return Some(Relabelling { fixed, order: Vec::new(), implied: Vec::new(), factor: relabellings });
    }
    Some(Relabelling {
        fixed: vec![(Cell::new(0, 0), digits[0])],
        order: Vec::new(),
        implied: Vec::new(),
        factor: k as u128,
    })
}

fn factorial(k: usize) -> Option<u128> {
    (1..=k as u128).try_fold(1u128, |f, i| f.checked_mul(i))
}

/// Line permutations to count up to: the cells to fix (with the index of
/// the digit each takes), the order relations that sort the others, and
/// how many permutations that removes.
struct Lines {
    fixed: Vec<(Cell, usize)>,
    order: Vec<Relation>,
    count: u128,
}

/// On a plain Sudoku or Latin square (no relations, no constraints, and
/// the groups exactly its rows, columns and boxes, checked as sets), the
/// line permutations to count up to: on a Latin square, every order of the
/// rows below the first (the first column fixed as well); on a Sudoku,
/// the band-keeping row permutations with row 1 fixed, the column ones
/// with column 1 fixed, or those of both outside the first band and stack
/// with the first box fixed, whichever are more.
fn line_permutations(puzzle: &Puzzle) -> Option<Lines> {
    let n = puzzle.side();
    // A grid of more digits than its side (ISS's `6x6~9`) has the rows'
    // and columns' cells of a Latin square but not its lines of every
    // digit.
    if !puzzle.relations().is_empty() || !puzzle.constraints().is_empty() || puzzle.digits() != n {
        return None;
    }
    let plain = match puzzle.boxes() {
        Some((h, w)) => Puzzle::sudoku(h, w).ok()?,
        None => Puzzle::latin(n).ok()?,
    };
    let cell_sets = |p: &Puzzle| {
        let mut sets: Vec<Vec<Cell>> = p.groups().iter().map(|g| sorted(g.cells.iter().copied())).collect();
        sets.sort();
        sets
    };
    if cell_sets(puzzle) != cell_sets(&plain) {
        return None;
    }
    let row = |line: usize, i: usize| Cell::new(line, i);
    let col = |line: usize, i: usize| Cell::new(i, line);
    let Some((h, w)) = puzzle.boxes() else {
        // The (n - 1)! orders of the rows below the first, sorted by their
        // first cells: with every column all different, that column is 1..n.
        let count = factorial(n - 1)?;
        let fixed = (0..n).map(|i| (row(0, i), i)).chain((1..n).map(|i| (col(0, i), i))).collect();
        return Some(Lines { fixed, order: Vec::new(), count });
    };
    let line_fixed = |at: &dyn Fn(usize, usize) -> Cell| (0..n).map(|i| (at(0, i), i)).collect::<Vec<_>>();
    let rows = sorted_lines(n, h, 1, row, Predicate::Less).map(|(order, count)| Lines {
        fixed: line_fixed(&row),
        order,
        count,
    });
    let cols = sorted_lines(n, w, 1, col, Predicate::Less).map(|(order, count)| Lines {
        fixed: line_fixed(&col),
        order,
        count,
    });
    [rows, cols, first_box(n, h, w)].into_iter().flatten().max_by_key(|lines| lines.count)
}

/// The first box fixed to `1..n` row by row, the rows of the other bands
/// sorted by their first cells (`<`) and the columns of the other stacks
/// by theirs: by `<` too, or, with square boxes, in the order of the
/// digits read down the first box ([`Predicate::BoxColumnOrder`]), so
/// that transposing and renaming the first box back to `1..n` maps the
/// reduced grids onto themselves (see [`transposition`]).
fn first_box(n: usize, h: usize, w: usize) -> Option<Lines> {
    let column_order =
        if h == w { Predicate::BoxColumnOrder { side: u32::try_from(w).ok()? } } else { Predicate::Less };
    let (mut order, rows) = sorted_lines(n, h, h, Cell::new, Predicate::Less)?;
    let (columns, cols) = sorted_lines(n, w, w, |line, i| Cell::new(i, line), column_order)?;
    order.extend(columns);
    let fixed = itertools::iproduct!(0..h, 0..w).map(|(r, c)| (Cell::new(r, c), r * w + c)).collect();
    Some(Lines { fixed, order, count: rows.checked_mul(cols)? })
}

/// Relations that sort lines `0..n`, in bands of `h`, by their first cells
/// (`at(line, 0)`), and how many permutations that removes: the lines of
/// the first band from `from` on (`1`: all but line 0; `h`: none) within
/// it, the lines of every other band within it, and those bands by their
/// first lines: `(h - from)! (B - 1)! h!^(B - 1)` for `B = n / h` bands.
/// `None` when the number does not fit in a `u128`.
fn sorted_lines(
    n: usize,
    h: usize,
    from: usize,
    at: impl Fn(usize, usize) -> Cell,
    predicate: Predicate,
) -> Option<(Vec<Relation>, u128)> {
    let bands = n / h;
    let rising = |a: usize, b: usize| Relation { a: at(a, 0), b: at(b, 0), predicate };
    let mut order = Vec::new();
    for band in 0..bands {
        let first = if band == 0 { from } else { band * h };
        order.extend((first..(band + 1) * h - 1).map(|line| rising(line, line + 1)));
    }
    order.extend((1..bands.saturating_sub(1)).map(|band| rising(band * h, (band + 1) * h)));
    let within = factorial(h)?.checked_pow(u32::try_from(bands - 1).ok()?)?;
    let count = factorial(h - from.min(h))?.checked_mul(factorial(bands - 1)?)?.checked_mul(within)?;
    Some((order, count))
}

/// Transposing a grid and renaming its digits, as a symmetry of a
/// (reduced) puzzle: `φ(x)(r, c) = rename[x(c, r)]`, an involution that
/// maps the puzzle's solutions onto themselves. Each solution `x` with
/// `x ≠ φ(x)` has a partner, and the [`Constraint::Lex`] on the cells
/// `a` and their mirrors `b` holds of exactly one of the two; so with
/// `L` the solutions that satisfy it and `F` those with `x = φ(x)`, the
/// count is `2L - F`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transposition {
    /// What each digit becomes (`rename[0]` unused).
    pub rename: Vec<Digit>,
    /// The cells on and above the diagonal, row by row, where `x` and
    /// `φ(x)` can differ.
    pub a: Vec<Cell>,
    /// Their mirrors.
    pub b: Vec<Cell>,
}

impl Transposition {
    /// `puzzle` with the solutions at most their transposition (`equal`:
    /// equal to it) in the lexicographic order of the cells `a`.
    pub fn constrained(&self, puzzle: &Puzzle, equal: bool) -> Puzzle {
        let mut p = puzzle.clone();
        let lex = Constraint::Lex { a: self.a.clone(), b: self.b.clone(), rename: self.rename.clone(), equal };
        // Cells of the grid and a permutation of its digits: this cannot fail.
        let _ = p.add_constraint(lex);
        p
    }

    /// The count `2L - F` from `L`, the count at most the transposition,
    /// and `F`, the count equal to it; `None` if it does not fit in a
    /// `u128` or `F > L` (impossible: the fixed grids satisfy both).
    pub fn total(at_most: u128, fixed: u128) -> Option<u128> {
        (fixed <= at_most).then_some(())?;
        at_most.checked_mul(2)?.checked_sub(fixed)
    }
}

/// The transposition of a puzzle with no n-ary constraints, if it is
/// proven to map the puzzle's solutions onto themselves. The renaming is
/// read off the givens (the digit given at `(c, r)` becomes the one given
/// at `(r, c)`): every given's mirror must be given, every digit renamed,
/// and renaming twice the identity. Then every group's mirror must be a
/// group (as a set), and every relation's mirror image, renamed, must
/// follow from a relation between the mirrored cells (compared as tables
/// over all digit pairs) or from their givens.
pub fn transposition(puzzle: &Puzzle) -> Option<Transposition> {
    // The renaming is of the side's digits: a grid of more values than its
    // side has none (its givens' digits pass the side).
    if !puzzle.constraints().is_empty() || puzzle.digits() != puzzle.side() {
        return None;
    }
    let n = puzzle.side();
    let mirror = |c: Cell| Cell::new(c.col, c.row);
    let given: HashMap<Cell, Digit> = puzzle.givens().collect();
    let mut rename: Vec<Digit> = vec![0; n + 1];
    for (&cell, &d) in &given {
        let from = usize::from(*given.get(&mirror(cell))?);
        if rename[from] != 0 && rename[from] != d {
            return None;
        }
        rename[from] = d;
    }
    if (1..=n).any(|d| rename[d] == 0 || usize::from(rename[usize::from(rename[d])]) != d) {
        return None;
    }
    let groups: HashSet<Vec<Cell>> = puzzle.groups().iter().map(|g| sorted(g.cells.iter().copied())).collect();
    if !puzzle.groups().iter().all(|g| groups.contains(&sorted(g.cells.iter().map(|&c| mirror(c))))) {
        return None;
    }
    let digits = || 1..=n as Digit;
    let follows = |r: &Relation| {
        let (a, b) = (mirror(r.a), mirror(r.b));
        // What the relation asks of φ(x), as a relation on x's digits at a and b.
        let wanted = |u: Digit, v: Digit| r.predicate.allows(rename[usize::from(u)], rename[usize::from(v)]);
        if let (Some(&u), Some(&v)) = (given.get(&a), given.get(&b)) {
            return wanted(u, v);
        }
        puzzle.relations().iter().any(|q| {
            let allows =
                |u: Digit, v: Digit| if q.a == a { q.predicate.allows(u, v) } else { q.predicate.allows(v, u) };
            ((q.a, q.b) == (a, b) || (q.a, q.b) == (b, a))
                && itertools::iproduct!(digits(), digits()).all(|(u, v)| !allows(u, v) || wanted(u, v))
        })
    };
    if !puzzle.relations().iter().all(follows) {
        return None;
    }
    let renamed = (1..=n).any(|d| usize::from(rename[d]) != d);
    let (a, b) = itertools::iproduct!(0..n, 0..n)
        .filter(|&(r, c)| r < c || (r == c && renamed))
        .map(|(r, c)| (Cell::new(r, c), Cell::new(c, r)))
        .filter(|(a, b)| !(given.contains_key(a) && given.contains_key(b)))
        .unzip();
    Some(Transposition { rename, a, b })
}

/// The cells in order (a group as a set).
fn sorted(cells: impl Iterator<Item = Cell>) -> Vec<Cell> {
    let mut cells: Vec<Cell> = cells.collect();
    cells.sort();
    cells
}

/// The digits every cell allows (bit `d - 1` for digit `d`), when all
/// cells allow the same ones; `None` otherwise.
fn common_domain(puzzle: &Puzzle) -> Option<u64> {
    let n = puzzle.side();
    let all = u64::MAX >> (64 - puzzle.digits());
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
        Constraint::NotAllEqual { .. } | Constraint::DistinctLines { .. } | Constraint::Automorphic { .. } => true,
        // Every cell's digits are in the domain, which this allows whole
        // (the domain is the intersection of what each cell allows).
        Constraint::Digits { .. } => true,
        Constraint::DistinctReadings { .. } | Constraint::SameValues { .. } => true,
        // They compare digits through a fixed renaming, or by their order.
        Constraint::Lex { .. } | Constraint::Rank { .. } | Constraint::Doppelganger { .. } => false,
        // Not looked into: taken as not invariant, which is never wrong.
        Constraint::AnyOf { .. } | Constraint::ConnectedValues { .. } => false,
        // Its labels are digits of the model, numbered in order.
        Constraint::Chaos { .. } | Constraint::RegionRuns { .. } => false,
        Constraint::Sum { .. }
        | Constraint::Consecutive { .. }
        | Constraint::Between { .. }
        | Constraint::Contains { .. }
        | Constraint::XSum { .. }
        | Constraint::Sandwich { .. }
        | Constraint::Visible { .. }
        | Constraint::EqualSums { .. }
        | Constraint::Index { .. }
        | Constraint::Table { .. }
        | Constraint::Regular { .. }
        | Constraint::Classes { .. }
        | Constraint::Along { .. }
        | Constraint::Exactly { .. }
        | Constraint::Counting { .. }
        | Constraint::ValueIndex { .. }
        | Constraint::CountDistinct { .. }
        | Constraint::Machine { .. }
        | Constraint::AntiTaxicab { .. }
        | Constraint::Outside { .. } => {
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
        assert_eq!((r.factor, r.fixed.len()), (96, 4), "4! relabellings, 2 row and 2 column orders");
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

    /// The line permutations' number, derived from the bands: with the
    /// first box fixed, `(B - 1)! h!^(B - 1)` row orders of the other bands
    /// times the column orders of the other stacks, which beats `(h - 1)!
    /// (B - 1)! h!^(B - 1)` with a whole line fixed; a Latin square has the
    /// `(n - 1)!` orders of its rows below the first; the diagonals keep
    /// 12 (the count of those grids is checked in `tests/it/family.rs`).
    #[test]
    fn line_permutations_follow_the_bands() {
        let factor = |p: &Puzzle| relabelling(p).unwrap().factor;
        let fact = |k: u128| (1..=k).product::<u128>();
        assert_eq!(factor(&Puzzle::sudoku(3, 3).unwrap()), fact(9) * 72 * 72);
        // 2x4 boxes: rows in 3 other bands of 2 (3! 2!^3 = 48), columns in 1 other stack of 4 (4! = 24).
        let r = relabelling(&Puzzle::sudoku(2, 4).unwrap()).unwrap();
        assert_eq!(r.factor, fact(8) * 48 * 24);
        assert_eq!(r.fixed[4], (Cell::new(1, 0), 5), "the first box is fixed row by row");
        assert!(r.order.iter().all(|o| o.predicate == Predicate::Less), "the boxes are not square");
        assert_eq!(factor(&Puzzle::latin(5).unwrap()), fact(5) * fact(4));
        // Both diagonals: the middle box fixed, the rows and columns
        // around it moved alike by an order that commutes with reading
        // backwards (`symmetry/extra.rs`): 12.
        assert_eq!(factor(&Puzzle::sudoku(3, 3).unwrap().with_diagonals()), fact(9) * 12);
    }

    /// Transposition after the reduction: square boxes sort the columns in
    /// the first box's column order, and transposing with the first box
    /// renamed back maps the reduced puzzle onto itself; a Latin square
    /// needs no renaming; 2x4 boxes and a diagonal Sudoku (row 1 fixed)
    /// have no transposition.
    #[test]
    fn reduced_square_layouts_have_a_transposition() {
        let reduced = |p: Puzzle| relabelling(&p).unwrap().reduced(&p);
        let t = transposition(&reduced(Puzzle::sudoku(3, 3).unwrap())).unwrap();
        assert_eq!(t.rename, vec![0, 1, 4, 7, 2, 5, 8, 3, 6, 9]);
        // The cells on and above the diagonal outside the first box.
        assert_eq!((t.a.len(), t.a[0], t.b[0]), (45 - 6, Cell::new(0, 3), Cell::new(3, 0)));
        let latin = transposition(&reduced(Puzzle::latin(5).unwrap())).unwrap();
        assert_eq!((latin.rename, latin.a.len()), (vec![0, 1, 2, 3, 4, 5], 6), "r2..r4 above the diagonal");
        assert_eq!(transposition(&reduced(Puzzle::sudoku(2, 4).unwrap())), None);
        assert_eq!(transposition(&reduced(Puzzle::sudoku(3, 3).unwrap().with_diagonals())), None);
        assert_eq!(Transposition::total(10, 4), Some(16));
        assert_eq!(Transposition::total(3, 4), None);
    }
}
