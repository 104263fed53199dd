//! Constraints on one cell's digits or on more than two cells: what the
//! variant rules need beyond all-different groups and binary relations.

use std::fmt;

use super::{Cell, Digit};

/// A constraint on one cell's digits or on several cells. (Each variant's
/// doc says what its fields hold.)
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// The cell's digit is one of `allowed`, bit `d - 1` for digit `d`
    /// (odd and even cells).
    Digits { cell: Cell, allowed: u64 },
    /// The sum of `weight * digit` over the terms equals `target`: killer
    /// cages (weights 1; the cage's distinctness is a group of its own),
    /// little killer sums, arrows (the line's cells weigh 1, the circle's
    /// cells `-1`, or `-10`, `-1` for a two-cell circle read as a number).
    Sum { terms: Vec<(Cell, i32)>, target: i32 },
    /// The cells hold consecutive digits in some order (renban lines; their
    /// distinctness is a group of its own).
    Consecutive { cells: Vec<Cell> },
    /// Every cell of `inner` holds a digit strictly between the digits of
    /// the two `ends` (between lines).
    Between { ends: (Cell, Cell), inner: Vec<Cell> },
    /// The cells hold each of `digits` at least as often as it is listed
    /// (quadruples).
    Contains { cells: Vec<Cell>, digits: Vec<Digit> },
    /// The cells do not all hold the same digit (Takuzu: no three equal in a row).
    NotAllEqual { cells: Vec<Cell> },
    /// The two lines of cells, position by position, differ somewhere
    /// (Takuzu: no two equal rows or columns).
    DistinctLines { a: Vec<Cell>, b: Vec<Cell> },
    /// The digits of `a`, position by position, are lexicographically at
    /// most those of `b` renamed by `rename` (digit `d` reads as
    /// `rename[d]`; a permutation, `rename[0]` unused), or equal to them
    /// when `equal`: a transposition's symmetry breaking (see
    /// `count::symmetry`).
    Lex { a: Vec<Cell>, b: Vec<Cell>, rename: Vec<Digit>, equal: bool },
}

impl Constraint {
    /// The cells the constraint reads.
    pub fn cells(&self) -> Vec<Cell> {
        match self {
            Constraint::Digits { cell, .. } => vec![*cell],
            Constraint::Sum { terms, .. } => terms.iter().map(|&(c, _)| c).collect(),
            Constraint::Consecutive { cells }
            | Constraint::Contains { cells, .. }
            | Constraint::NotAllEqual { cells } => cells.clone(),
            Constraint::DistinctLines { a, b } => a.iter().chain(b).copied().collect(),
            // A cell may be compared with itself (the diagonal of a transposition).
            Constraint::Lex { a, b, .. } => a.iter().chain(b.iter().filter(|c| !a.contains(c))).copied().collect(),
            Constraint::Between { ends, inner } => [ends.0, ends.1].into_iter().chain(inner.iter().copied()).collect(),
        }
    }

    /// Whether the digits `digit_of` gives the cells satisfy the constraint.
    pub fn holds(&self, digit_of: impl Fn(Cell) -> Digit) -> bool {
        match self {
            Constraint::Digits { cell, allowed } => allowed >> (digit_of(*cell) - 1) & 1 == 1,
            Constraint::Sum { terms, target } => {
                terms.iter().map(|&(c, w)| i64::from(w) * i64::from(digit_of(c))).sum::<i64>() == i64::from(*target)
            }
            Constraint::Consecutive { cells } => {
                let digits: Vec<Digit> = cells.iter().map(|&c| digit_of(c)).collect();
                let (lo, hi) = (digits.iter().min(), digits.iter().max());
                let mut sorted = digits.clone();
                sorted.sort_unstable();
                sorted.dedup();
                match (lo, hi) {
                    (Some(&lo), Some(&hi)) => sorted.len() == digits.len() && usize::from(hi - lo) + 1 == digits.len(),
                    _ => true,
                }
            }
            Constraint::Between { ends, inner } => {
                let (a, b) = (digit_of(ends.0), digit_of(ends.1));
                let (lo, hi) = (a.min(b), a.max(b));
                inner.iter().all(|&c| (lo + 1..hi).contains(&digit_of(c)))
            }
            Constraint::NotAllEqual { cells } => cells.iter().any(|&c| digit_of(c) != digit_of(cells[0])),
            Constraint::DistinctLines { a, b } => a.iter().zip(b).any(|(&x, &y)| digit_of(x) != digit_of(y)),
            Constraint::Lex { a, b, rename, equal } => {
                let mut order = a.iter().zip(b).map(|(&x, &y)| digit_of(x).cmp(&rename[usize::from(digit_of(y))]));
                match order.find(|o| o.is_ne()) {
                    None => true,
                    Some(first) => !equal && first.is_lt(),
                }
            }
            Constraint::Contains { cells, digits } => {
                let mut wanted = digits.clone();
                wanted.sort_unstable();
                wanted.dedup();
                wanted.iter().all(|&d| {
                    let listed = digits.iter().filter(|&&x| x == d).count();
                    cells.iter().filter(|&&c| digit_of(c) == d).count() >= listed
                })
            }
        }
    }

    /// Why the constraint cannot hold on a grid of digits `1..=side`
    /// whatever the other rules say, if it cannot: a repeated cell, a
    /// digit out of range, a sum out of reach.
    pub(super) fn validate(&self, side: usize) -> Result<(), String> {
        let cells = self.cells();
        for (i, cell) in cells.iter().enumerate() {
            if cells[..i].contains(cell) {
                return Err(format!("{self} lists cell {cell} twice"));
            }
        }
        let n = side as i64;
        match self {
            Constraint::Digits { allowed, .. } if allowed & (u64::MAX >> (64 - side)) == 0 => {
                Err(format!("{self} allows no digit of 1..{side}"))
            }
            Constraint::Sum { terms, target } => {
                // Each term alone ranges over 1..=n times its weight.
                let (lo, hi) = terms.iter().fold((0i64, 0i64), |(lo, hi), &(_, w)| {
                    let (a, b) = (i64::from(w), i64::from(w) * n);
                    (lo + a.min(b), hi + a.max(b))
                });
                if terms.is_empty() || !(lo..=hi).contains(&i64::from(*target)) {
                    return Err(format!("{self}: {target} is out of reach, the cells can sum to {lo}..{hi} only"));
                }
                Ok(())
            }
            Constraint::DistinctLines { a, b } if a.len() != b.len() || a.is_empty() => {
                Err(format!("{self}: the lines need the same, nonzero length"))
            }
            Constraint::Lex { a, b, rename, .. } => {
                if a.len() != b.len() {
                    return Err(format!("{self}: the lines need the same length"));
                }
                let mut sorted = rename.get(1..).unwrap_or_default().to_vec();
                sorted.sort_unstable();
                if rename.len() != side + 1 || sorted.iter().zip(1..).any(|(&d, i)| usize::from(d) != i) {
                    return Err(format!("{self}: the renaming is not a permutation of 1..{side}"));
                }
                Ok(())
            }
            Constraint::Consecutive { cells } if cells.len() > side => {
                Err(format!("{self}: {} cells cannot hold distinct consecutive digits of 1..{side}", cells.len()))
            }
            Constraint::Contains { cells, digits } => {
                if let Some(d) = digits.iter().find(|&&d| d == 0 || usize::from(d) > side) {
                    return Err(format!("{self}: digit {d} is outside 1..{side}"));
                }
                if digits.len() > cells.len() {
                    return Err(format!("{self}: {} digits do not fit in {} cells", digits.len(), cells.len()));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells = |cells: &[Cell]| itertools::join(cells, " ");
        match self {
            Constraint::Digits { cell, allowed } => {
                let digits = (1..=64u8).filter(|d| allowed >> (d - 1) & 1 == 1);
                write!(f, "{cell} in {{{}}}", itertools::join(digits, ","))
            }
            Constraint::Sum { terms, target } => {
                let parts = terms.iter().map(|&(c, w)| if w == 1 { c.to_string() } else { format!("{w}*{c}") });
                write!(f, "sum {} = {target}", itertools::join(parts, " + "))
            }
            Constraint::Consecutive { cells: c } => write!(f, "consecutive {}", cells(c)),
            Constraint::Between { ends, inner } => write!(f, "between {} and {}: {}", ends.0, ends.1, cells(inner)),
            Constraint::Contains { cells: c, digits } => {
                write!(f, "{} contain {}", cells(c), itertools::join(digits, ","))
            }
            Constraint::NotAllEqual { cells: c } => write!(f, "not all equal: {}", cells(c)),
            Constraint::DistinctLines { a, b } => write!(f, "lines differ: {} / {}", cells(a), cells(b)),
            Constraint::Lex { a, b, rename, equal } => {
                let op = if *equal { "=" } else { "<=" };
                let renamed = itertools::join(rename.iter().enumerate().skip(1).map(|(d, r)| format!("{d}>{r}")), ",");
                write!(f, "lex {} {op} {} renamed {renamed}", cells(a), cells(b))
            }
        }
    }
}
