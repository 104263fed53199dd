//! Rules over a line of cells that ISS reads and the f-puzzles editor has
//! no key for, each by its meaning: what a whole line's digits must be.
//! The checker asks [`LineRule::accepts`]; the encoder writes each as an
//! automaton over the line (`encode::constraint::along`), a separate
//! definition, so the oracle tests compare the two.

use std::fmt;

use super::Digit;

/// A rule over the digits of a line, read in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineRule {
    /// ISS's `SumLine`: the line splits into consecutive segments, each
    /// summing to the number (a line, not a loop). The values summed are
    /// the digits, or on a grid of values from 0 (`first` 0) each digit
    /// less one, as ISS's handler sums values: a line of 0s alone holds.
    Segments {
        /// Each segment's sum.
        sum: u32,
        /// The value of digit 1: 1, or 0 on a grid of values from 0.
        first: u8,
    },
    /// ISS's `SumLine` with `LOOP`: the cells are a loop (the last cell
    /// next to the first), and some cell starts a split of the loop, read
    /// round from there, into segments each summing to the number (the
    /// values as in [`LineRule::Segments`]).
    LoopSegments {
        /// Each segment's sum.
        sum: u32,
        /// The value of digit 1, as in [`LineRule::Segments`].
        first: u8,
    },
    /// ISS's `RellikCage` (with the cage's all-different group beside it):
    /// no set of one or more of the cells sums to the number (of values,
    /// as in [`LineRule::Segments`]).
    Rellik {
        /// The sum no set makes.
        sum: u32,
        /// The value of digit 1: 1, or 0 on a grid of values from 0.
        first: u8,
    },
    /// ISS's `EqualityCage` (with its all-different group beside it): as
    /// many even digits as odd, as many low as high (the lower and upper
    /// half of the digits `1..=n`, `n` given), and on an odd `n` no middle
    /// digit.
    Balanced(u8),
    /// ISS's `Skyscraper` on a grid whose values run from 0: the number of
    /// cells taller than every cell before them, seen from the line's
    /// start, where digit 1 (the value 0) is no building and counts as
    /// none ("0-valued cells do not count as skyscrapers").
    Skyline(u8),
    /// ISS's `HiddenSkyscraper`: the first cell lower than a cell before it
    /// (hidden behind it, seen from the line's start) holds one of these
    /// digits (digit `d` at bit `d - 1`): the clue's one digit, or several
    /// for an `Or` of clues on the same line ([`Constraint::AnyOf`]
    /// merged into one rule by [`Puzzle::add_constraint`]).
    ///
    /// [`Constraint::AnyOf`]: super::Constraint::AnyOf
    /// [`Puzzle::add_constraint`]: super::Puzzle::add_constraint
    FirstHidden(u64),
    /// ISS's `DutchFlatmates` down a column of `n` digits (given): each
    /// middle digit (`n / 2` rounded up) has a 1 directly before it or an
    /// `n` directly after it.
    Flatmates(u8),
    /// ISS's `Lunchbox` (with its all-different group beside it): the
    /// digits strictly between the line's smallest and its largest digit
    /// (by position) sum to the number (their values, as in
    /// [`LineRule::Segments`]: ISS's handler sums values).
    Lunchbox {
        /// The sum between the two.
        sum: u32,
        /// The value of digit 1: 1, or 0 on a grid of values from 0.
        first: u8,
    },
}

impl LineRule {
    /// Whether the line's digits satisfy the rule.
    pub fn accepts(self, digits: &[Digit]) -> bool {
        match self {
            LineRule::Segments { sum: target, first } => {
                let mut open = 0u32;
                for &d in digits {
                    open += value(d, first);
                    if open == target {
                        open = 0;
                    } else if open > target {
                        return false;
                    }
                }
                !digits.is_empty() && open == 0
            }
            LineRule::LoopSegments { sum, first } => {
                // The loop read from each cell in turn, as a line.
                (0..digits.len()).any(|start| {
                    let round: Vec<Digit> = digits[start..].iter().chain(&digits[..start]).copied().collect();
                    LineRule::Segments { sum, first }.accepts(&round)
                })
            }
            LineRule::Rellik { sum: target, first } => {
                // Every nonempty subset, by its bits.
                let k = digits.len().min(20);
                (1u32..1 << k).all(|set| {
                    let sum: u32 = (0..k).filter(|i| set >> i & 1 == 1).map(|i| value(digits[i], first)).sum();
                    sum != target
                })
            }
            LineRule::Balanced(n) => {
                let (n, half) = (usize::from(n), usize::from(n) / 2);
                let count = |f: &dyn Fn(usize) -> bool| digits.iter().filter(|&&d| f(usize::from(d))).count();
                let (even, odd) = (count(&|d| d % 2 == 0), count(&|d| d % 2 == 1));
                let (low, high) = (count(&|d| d <= half), count(&|d| d > n - half));
                even == odd && low == high && low + high == digits.len()
            }
            LineRule::Lunchbox { sum: target, first } => {
                let at = |pick: fn(&u8, &u8) -> std::cmp::Ordering| {
                    digits.iter().enumerate().max_by(|a, b| pick(a.1, b.1)).map(|(i, _)| i)
                };
                let (Some(low), Some(high)) = (at(|a, b| b.cmp(a)), at(|a, b| a.cmp(b))) else { return false };
                let (from, to) = (low.min(high), low.max(high));
                let between = digits.get(from + 1..to).unwrap_or(&[]).iter();
                let between: u32 = between.map(|&d| value(d, first)).sum();
                between == target
            }
            LineRule::Flatmates(n) => {
                let middle = n.div_ceil(2);
                (0..digits.len())
                    .all(|i| digits[i] != middle || (i > 0 && digits[i - 1] == 1) || digits.get(i + 1) == Some(&n))
            }
            LineRule::Skyline(target) => {
                let mut tallest = 1; // the ground: the value 0
                let seen = digits.iter().filter(|&&d| {
                    let taller = d > tallest;
                    tallest = tallest.max(d);
                    taller
                });
                seen.count() == usize::from(target)
            }
            LineRule::FirstHidden(targets) => {
                let mut tallest = 0;
                for &d in digits {
                    if d < tallest {
                        return targets >> (d - 1) & 1 == 1;
                    }
                    tallest = d;
                }
                false
            }
        }
    }
}

impl fmt::Display for LineRule {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LineRule::Segments { sum, first } => write!(f, "segments summing to {sum}{}", of_values(*first)),
            LineRule::LoopSegments { sum, first } => {
                write!(f, "a loop of segments summing to {sum}{}", of_values(*first))
            }
            LineRule::Rellik { sum, first } => write!(f, "no digits summing to {sum}{}", of_values(*first)),
            LineRule::Balanced(_) => write!(f, "as many even as odd and low as high digits"),
            LineRule::FirstHidden(targets) => {
                let digits: Vec<u32> = (1..=64).filter(|d| targets >> (d - 1) & 1 == 1).collect();
                match &digits[..] {
                    [.., last] if digits.len() > 1 => {
                        write!(
                            f,
                            "first hidden skyscraper {} or {last}",
                            itertools::join(&digits[..digits.len() - 1], ", ")
                        )
                    }
                    _ => write!(f, "first hidden skyscraper {}", itertools::join(&digits, "")),
                }
            }
            LineRule::Skyline(t) => write!(f, "{t} buildings visible (0s are none)"),
            LineRule::Lunchbox { sum, first } => write!(f, "lunchbox {sum}{}", of_values(*first)),
            LineRule::Flatmates(n) => write!(f, "each {} beside a 1 before or a {n} after", n.div_ceil(2)),
        }
    }
}

/// How a sum's values are named: nothing on digits, " (values from 0)".
fn of_values(first: u8) -> &'static str {
    if first == 0 {
        " (values from 0)"
    } else {
        ""
    }
}

/// The value digit `d` stands for when digit 1 stands for `first` (1, or
/// 0 on a grid of values from 0): `d + first - 1`.
pub fn value(d: Digit, first: u8) -> u32 {
    u32::from(d) + u32::from(first) - 1
}
