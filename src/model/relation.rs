//! Binary relations: a predicate on the digits of two cells (sums,
//! differences, ratios, order, equality), each with its meaning in
//! [`Predicate::allows`].

use std::cmp::Ordering;
use std::fmt;

use super::{Cell, Digit};

/// A predicate on the pair of digits `(a, b)` of two cells. (Each
/// variant's doc says what its fields hold.)
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Predicate {
    /// `a + b` compares to `target` as `cmp` says: `Less` is `a + b < target`
    /// (the contest's relations; XV: `= 10`, `= 5`).
    Sum { cmp: Ordering, target: u32 },
    /// `a + b != target` (negative XV).
    SumNot { target: u32 },
    /// `|a - b| = diff` (Kropki white dot: 1, or a given value).
    Difference { diff: u32 },
    /// `|a - b| != diff` (negative white dots; non-consecutive).
    DifferenceNot { diff: u32 },
    /// `|a - b| >= min` (German whispers: 5).
    DifferenceAtLeast { min: u32 },
    /// One digit is `ratio` times the other (Kropki black dot: 2).
    Ratio { ratio: u32 },
    /// Neither digit is `ratio` times the other (negative black dots).
    RatioNot { ratio: u32 },
    /// `a < b` (thermometers, greater-than signs, minimum and maximum cells).
    Less,
    /// `a <= b` (slow thermometers).
    LessOrEqual,
    /// `a = b` (palindromes, clones).
    Equal,
    /// `a != b` (anti-knight, anti-king).
    NotEqual,
    /// The digits fall in different classes of `1..=low`, `low+1..=high`
    /// and `high+1..` (entropic lines: low, middle and high digits).
    DifferentClass { low: u32, high: u32 },
    /// The digits differ modulo `modulus` (modular lines: 3).
    ResidueDiffers { modulus: u32 },
    /// `a` comes before `b` when the digits, written row by row into a
    /// `side x side` box, are read column by column (the order that
    /// transposing a Sudoku with its first box fixed turns into `<`; see
    /// `count::symmetry`).
    BoxColumnOrder { side: u32 },
}

impl Predicate {
    /// Whether the pair of digits `(a, b)` satisfies the predicate.
    pub fn allows(&self, a: Digit, b: Digit) -> bool {
        let (a, b) = (u32::from(a), u32::from(b));
        match *self {
            Predicate::Sum { cmp, target } => (a + b).cmp(&target) == cmp,
            Predicate::SumNot { target } => a + b != target,
            Predicate::Difference { diff } => a.abs_diff(b) == diff,
            Predicate::DifferenceNot { diff } => a.abs_diff(b) != diff,
            Predicate::DifferenceAtLeast { min } => a.abs_diff(b) >= min,
            Predicate::Ratio { ratio } => a == ratio * b || b == ratio * a,
            Predicate::RatioNot { ratio } => a != ratio * b && b != ratio * a,
            Predicate::Less => a < b,
            Predicate::LessOrEqual => a <= b,
            Predicate::Equal => a == b,
            Predicate::NotEqual => a != b,
            Predicate::DifferentClass { low, high } => {
                let class = |d: u32| u32::from(d > low) + u32::from(d > high);
                class(a) != class(b)
            }
            Predicate::ResidueDiffers { modulus } => a % modulus.max(1) != b % modulus.max(1),
            Predicate::BoxColumnOrder { side } => {
                let side = side.max(1);
                let rank = |d: u32| d.saturating_sub(1) % side * side + d.saturating_sub(1) / side;
                rank(a) < rank(b)
            }
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
            Predicate::SumNot { target } => write!(f, "sum != {target}"),
            Predicate::Difference { diff } => write!(f, "difference = {diff}"),
            Predicate::DifferenceNot { diff } => write!(f, "difference != {diff}"),
            Predicate::DifferenceAtLeast { min } => write!(f, "difference >= {min}"),
            Predicate::Ratio { ratio } => write!(f, "ratio {ratio}"),
            Predicate::RatioNot { ratio } => write!(f, "ratio not {ratio}"),
            Predicate::Less => write!(f, "first < second"),
            Predicate::LessOrEqual => write!(f, "first <= second"),
            Predicate::Equal => write!(f, "equal"),
            Predicate::NotEqual => write!(f, "different"),
            Predicate::DifferentClass { low, high } => {
                write!(f, "in different classes of 1..{low}, {}..{high} and above", low + 1)
            }
            Predicate::ResidueDiffers { modulus } => write!(f, "different modulo {modulus}"),
            Predicate::BoxColumnOrder { side } => write!(f, "first before second down a {side}x{side} box"),
        }
    }
}

/// A binary relation between the digits of two distinct cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Relation {
    /// The first cell.
    pub a: Cell,
    /// The second cell.
    pub b: Cell,
    /// What the pair of digits must satisfy.
    pub predicate: Predicate,
}
