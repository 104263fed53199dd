//! The rows of the rule table and their builders: each rule as the model
//! expresses it, in groups, relations and constraints.

use std::cmp::Ordering;

use super::{Args, Rule, RuleError, Shape, Value};
use crate::model::{Cell, Constraint, Digit, Predicate, Puzzle};

/// What rules need of each other while a puzzle is read: the cells in
/// killer cages (cages may not overlap), the markers placed (which the
/// negative constraints and nonconsecutive spare), and the rules that act
/// only once every rule is read ([`Context::finish`]).
#[derive(Debug, Default)]
pub struct Context {
    caged: Vec<Cell>,
    markers: Vec<(Marker, Cell, Cell)>,
    negatives: Vec<Negative>,
    nonconsecutive: bool,
    minimum: Vec<Cell>,
    maximum: Vec<Cell>,
}

/// A marker between two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    /// Kropki white dot: the difference.
    White(u32),
    /// Kropki black dot: the ratio.
    Black(u32),
    /// A sum: X (10), V (5) or a sum dot.
    Sum(u32),
}

impl Marker {
    fn kropki(self) -> bool {
        matches!(self, Marker::White(_) | Marker::Black(_))
    }
}

/// A negative constraint: what no unmarked pair of neighbours may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Negative {
    /// Differ by a white dot's value (any that appears).
    Difference,
    /// Have a black dot's ratio (any that appears; 2 if none does).
    Ratio,
    /// Sum to 10.
    X,
    /// Sum to 5.
    V,
    /// Sum to a sum dot's value (any that appears).
    Sum,
}

impl Context {
    /// A context for a new puzzle.
    pub fn new() -> Context {
        Context::default()
    }

    /// Adds what acts only once every rule is read: minimum and maximum
    /// cells (compared with the neighbours not shaded the same way),
    /// nonconsecutive and the negative constraints (on the pairs of
    /// orthogonal neighbours without a marker of their family).
    pub fn finish(self, p: &mut Puzzle) -> Result<(), RuleError> {
        let pairs = orthogonal_pairs(p.side());
        for (a, b) in &pairs {
            for (low, high) in [(*a, *b), (*b, *a)] {
                let min = self.minimum.contains(&low) && !self.minimum.contains(&high);
                let max = self.maximum.contains(&high) && !self.maximum.contains(&low);
                if min || max {
                    p.add_relation(low, high, Predicate::Less).map_err(RuleError::from)?;
                }
            }
        }
        let values = |wanted: fn(Marker) -> Option<u32>| {
            let mut found: Vec<u32> = self.markers.iter().filter_map(|m| wanted(m.0)).collect();
            found.sort_unstable();
            found.dedup();
            found
        };
        let white = values(|m| if let Marker::White(d) = m { Some(d) } else { None });
        let mut black = values(|m| if let Marker::Black(r) = m { Some(r) } else { None });
        if black.is_empty() {
            black.push(2);
        }
        let sums = values(|m| if let Marker::Sum(s) = m { Some(s) } else { None });
        let mut banned: Vec<(bool, Predicate)> = Vec::new(); // (spared by Kropki dots, else by sums)
        if self.nonconsecutive {
            banned.push((true, Predicate::DifferenceNot { diff: 1 }));
        }
        for negative in &self.negatives {
            match negative {
                Negative::Difference => {
                    banned.extend(white.iter().map(|&diff| (true, Predicate::DifferenceNot { diff })))
                }
                Negative::Ratio => banned.extend(black.iter().map(|&ratio| (true, Predicate::RatioNot { ratio }))),
                Negative::X => banned.push((false, Predicate::SumNot { target: 10 })),
                Negative::V => banned.push((false, Predicate::SumNot { target: 5 })),
                Negative::Sum => banned.extend(sums.iter().map(|&target| (false, Predicate::SumNot { target }))),
            }
        }
        banned.dedup();
        for (a, b) in pairs {
            let marked = |kropki: bool| {
                self.markers.iter().any(|&(m, x, y)| m.kropki() == kropki && ((x, y) == (a, b) || (x, y) == (b, a)))
            };
            for &(kropki, predicate) in &banned {
                if !marked(kropki) {
                    p.add_relation(a, b, predicate).map_err(RuleError::from)?;
                }
            }
        }
        Ok(())
    }
}

/// Every pair of orthogonally adjacent cells, once.
pub(crate) fn orthogonal_pairs(n: usize) -> Vec<(Cell, Cell)> {
    pairs_at(n, &[(0, 1), (1, 0)])
}

/// Cells `(dr, dc)` apart for each step, each unordered pair once.
fn pairs_at(n: usize, steps: &[(i64, i64)]) -> Vec<(Cell, Cell)> {
    let mut pairs = Vec::new();
    for r in 0..n as i64 {
        for c in 0..n as i64 {
            for &(dr, dc) in steps {
                let (r2, c2) = (r + dr, c + dc);
                let later = (r2, c2) > (r, c);
                if later && (0..n as i64).contains(&r2) && (0..n as i64).contains(&c2) {
                    pairs.push((Cell::new(r as usize, c as usize), Cell::new(r2 as usize, c2 as usize)));
                }
            }
        }
    }
    pairs
}

const KNIGHT: [(i64, i64); 8] = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)];
const KING_DIAGONAL: [(i64, i64); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// A row of the table.
#[allow(clippy::too_many_arguments)]
const fn rule(
    keyword: &'static str,
    fpuzzles: Option<&'static str>,
    shape: Shape,
    value: Value,
    meaning: &'static str,
    example: &'static str,
    build: super::Build,
) -> Rule {
    Rule { keyword, fpuzzles, fpuzzles_value: None, shape, value, meaning, example, build }
}

/// The table (see [`super::RULES`]).
pub(super) const RULES: &[Rule] = &[
    rule(
        "diagonal+",
        Some("diagonal+"),
        Shape::Whole,
        Value::No,
        "The diagonal from bottom left to top right holds different digits.",
        "",
        |p, _, _| {
            let n = p.side();
            p.add_group((0..n).map(|i| Cell::new(n - 1 - i, i)).collect()).map_err(RuleError::from)
        },
    ),
    rule(
        "diagonal-",
        Some("diagonal-"),
        Shape::Whole,
        Value::No,
        "The diagonal from top left to bottom right holds different digits.",
        "",
        |p, _, _| {
            let n = p.side();
            p.add_group((0..n).map(|i| Cell::new(i, i)).collect()).map_err(RuleError::from)
        },
    ),
    rule(
        "antiknight",
        Some("antiknight"),
        Shape::Whole,
        Value::No,
        "Cells a chess knight's move apart hold different digits.",
        "",
        |p, _, _| relate_all(p, &pairs_at(p.side(), &KNIGHT), Predicate::NotEqual),
    ),
    rule(
        "antiking",
        Some("antiking"),
        Shape::Whole,
        Value::No,
        "Cells a chess king's move apart hold different digits.",
        "",
        |p, _, _| relate_all(p, &pairs_at(p.side(), &KING_DIAGONAL), Predicate::NotEqual),
    ),
    rule(
        "nonconsecutive",
        Some("nonconsecutive"),
        Shape::Whole,
        Value::No,
        "Orthogonal neighbours without a Kropki dot (white or black) do not hold consecutive digits.",
        "",
        |_, _, ctx| {
            ctx.nonconsecutive = true;
            Ok(())
        },
    ),
    rule(
        "windoku",
        None,
        Shape::Whole,
        Value::No,
        "Four extra 3x3 regions (9x9 only), inset one cell from the box corners, hold different digits.",
        "",
        |p, _, _| {
            if p.side() != 9 {
                return Err("windoku needs a 9 x 9 grid".into());
            }
            for (r0, c0) in itertools::iproduct!([1, 5], [1, 5]) {
                p.add_group(itertools::iproduct!(r0..r0 + 3, c0..c0 + 3).map(|(r, c)| Cell::new(r, c)).collect())
                    .map_err(RuleError::from)?;
            }
            Ok(())
        },
    ),
    rule(
        "disjoint",
        Some("disjointgroups"),
        Shape::Whole,
        Value::No,
        "Cells in the same position of their boxes hold different digits.",
        "",
        |p, _, _| {
            let n = p.side();
            let (h, w) = p.boxes().ok_or("disjoint groups need boxes")?;
            for (i, j) in itertools::iproduct!(0..h, 0..w) {
                let cells = itertools::iproduct!(0..n / h, 0..n / w).map(|(br, bc)| Cell::new(br * h + i, bc * w + j));
                p.add_group(cells.collect()).map_err(RuleError::from)?;
            }
            Ok(())
        },
    ),
    rule(
        "extra",
        Some("extraregion"),
        Shape::Cells { min: 1 },
        Value::No,
        "The cells hold different digits.",
        "r1c1 r1c2 r2c1",
        |p, a, _| p.add_group(a.cells.clone()).map_err(RuleError::from),
    ),
    rule(
        "killer",
        Some("killercage"),
        Shape::Cells { min: 1 },
        Value::Optional,
        "A cage: its cells hold different digits, which sum to N if given; cages do not overlap.",
        "r1c1 r1c2 = 3",
        |p, a, ctx| killer(p, ctx, a),
    ),
    rule(
        "little-killer",
        Some("littlekillersum"),
        Shape::Cells { min: 1 },
        Value::Required,
        "The cells (a diagonal) sum to N; digits may repeat.",
        "r1c2 r2c1 = 5",
        |p, a, _| sum(p, &a.cells, required(a)?),
    ),
    rule(
        "arrow",
        Some("arrow"),
        Shape::CircleLine,
        Value::No,
        "The line's digits sum to the circle's (two or more circle cells read as a number).",
        "r1c1 : r1c2 r1c3",
        |p, a, _| arrow(p, &a.cells, &a.second),
    ),
    rule(
        "thermo",
        Some("thermometer"),
        Shape::Line { min: 2 },
        Value::No,
        "Digits rise strictly from the bulb (the first cell).",
        "r1c1 r1c2 r1c3",
        |p, a, _| along(p, &a.cells, Predicate::Less),
    ),
    rule(
        "slow-thermo",
        Some("slowthermometer"),
        Shape::Line { min: 2 },
        Value::No,
        "Digits do not fall from the bulb (the first cell).",
        "r1c1 r1c2 r1c3",
        |p, a, _| along(p, &a.cells, Predicate::LessOrEqual),
    ),
    rule(
        "greater",
        None,
        Shape::Pair,
        Value::No,
        "The first cell's digit is greater than the second's.",
        "r1c1 r1c2",
        |p, a, _| p.add_relation(a.cells[1], a.cells[0], Predicate::Less).map_err(RuleError::from),
    ),
    rule(
        "white",
        Some("difference"),
        Shape::Pair,
        Value::Optional,
        "A white Kropki dot: the digits differ by N (1 if not given).",
        "r1c1 r1c2",
        |p, a, ctx| marker(p, ctx, a, Marker::White(positive(a, 1)?)),
    ),
    rule(
        "black",
        Some("ratio"),
        Shape::Pair,
        Value::Optional,
        "A black Kropki dot: one digit is N times the other (2 if not given).",
        "r1c1 r1c2",
        |p, a, ctx| marker(p, ctx, a, Marker::Black(positive(a, 2)?)),
    ),
    Rule {
        fpuzzles_value: Some("X"),
        ..rule("x", Some("xv"), Shape::Pair, Value::No, "An X: the digits sum to 10.", "r1c1 r1c2", |p, a, ctx| {
            marker(p, ctx, a, Marker::Sum(10))
        })
    },
    Rule {
        fpuzzles_value: Some("V"),
        ..rule("v", Some("xv"), Shape::Pair, Value::No, "A V: the digits sum to 5.", "r1c1 r1c2", |p, a, ctx| {
            marker(p, ctx, a, Marker::Sum(5))
        })
    },
    rule(
        "sum",
        Some("sum"),
        Shape::Pair,
        Value::Required,
        "A sum dot: the digits sum to N.",
        "r1c1 r1c2 = 7",
        |p, a, ctx| marker(p, ctx, a, Marker::Sum(positive(a, 0)?)),
    ),
    rule("odd", Some("odd"), Shape::EachCell, Value::No, "The cells hold odd digits.", "r1c1", |p, a, _| {
        parity(p, &a.cells, true)
    }),
    rule("even", Some("even"), Shape::EachCell, Value::No, "The cells hold even digits.", "r1c1", |p, a, _| {
        parity(p, &a.cells, false)
    }),
    rule(
        "minimum",
        Some("minimum"),
        Shape::EachCell,
        Value::No,
        "Each cell is less than its orthogonal neighbours that are not minimum cells.",
        "r1c1",
        |_, a, ctx| {
            ctx.minimum.extend(&a.cells);
            Ok(())
        },
    ),
    rule(
        "maximum",
        Some("maximum"),
        Shape::EachCell,
        Value::No,
        "Each cell is greater than its orthogonal neighbours that are not maximum cells.",
        "r1c1",
        |_, a, ctx| {
            ctx.maximum.extend(&a.cells);
            Ok(())
        },
    ),
    rule(
        "palindrome",
        Some("palindrome"),
        Shape::Line { min: 2 },
        Value::No,
        "The line reads the same from either end.",
        "r1c1 r1c2 r2c2",
        |p, a, _| {
            let k = a.cells.len();
            (0..k / 2)
                .try_for_each(|i| p.add_relation(a.cells[i], a.cells[k - 1 - i], Predicate::Equal))
                .map_err(RuleError::from)
        },
    ),
    rule(
        "clone",
        Some("clone"),
        Shape::Copies,
        Value::No,
        "Each cell holds the digit of its copy, position by position.",
        "r1c1 r1c2 : r3c3 r3c4",
        |p, a, _| {
            a.cells
                .iter()
                .zip(&a.second)
                .try_for_each(|(&x, &y)| p.add_relation(x, y, Predicate::Equal))
                .map_err(RuleError::from)
        },
    ),
    rule(
        "whisper",
        Some("whispers"),
        Shape::Line { min: 2 },
        Value::Optional,
        "Neighbours on the line differ by at least N (half the side, rounded up, if not given: 5 on 9x9; 4 is Dutch).",
        "r1c1 r1c2 r1c3",
        |p, a, _| {
            let min = positive(a, p.side().div_ceil(2) as u32)?;
            along(p, &a.cells, Predicate::DifferenceAtLeast { min })
        },
    ),
    rule(
        "renban",
        Some("renban"),
        Shape::Line { min: 1 },
        Value::No,
        "The line holds different, consecutive digits in any order.",
        "r1c1 r1c2 r1c3",
        |p, a, _| {
            p.add_constraint(Constraint::Consecutive { cells: a.cells.clone() }).map_err(RuleError::from)?;
            p.add_group(a.cells.clone()).map_err(RuleError::from)
        },
    ),
    rule(
        "between",
        Some("betweenline"),
        Shape::Line { min: 2 },
        Value::No,
        "Each cell inside the line lies strictly between the two ends' digits.",
        "r1c1 r1c2 r1c3",
        |p, a, _| {
            let cells = &a.cells;
            let ends = (cells[0], cells[cells.len() - 1]);
            p.add_constraint(Constraint::Between { ends, inner: cells[1..cells.len() - 1].to_vec() })
                .map_err(RuleError::from)
        },
    ),
    rule(
        "quadruple",
        Some("quadruple"),
        Shape::Quad,
        Value::No,
        "The 2x2 holds each listed digit (as often as it is listed).",
        "r1c1 1 2",
        |p, a, _| {
            let n = p.side();
            let mut digits = Vec::with_capacity(a.list.len());
            for d in &a.list {
                match d.parse::<Digit>() {
                    Ok(d) if (1..=n).contains(&usize::from(d)) => digits.push(d),
                    _ => return Err(format!("expected a digit 1..{n}, found {d:?}").into()),
                }
            }
            if digits.len() > 4 {
                return Err(format!("a quadruple lists at most 4 digits, found {}", digits.len()).into());
            }
            p.add_constraint(Constraint::Contains { cells: a.cells.clone(), digits }).map_err(RuleError::from)
        },
    ),
    rule(
        "negative",
        Some("negative"),
        Shape::Names,
        Value::No,
        "Orthogonal neighbours without a marker of the kind obey its negative: `white` (f-puzzles `difference`): \
         no white dot's difference; `black` (`ratio`): no black dot's ratio (2 if there is none); `x`, `v` \
         (`xv`: both): no sum of 10, 5; `sum`: no sum dot's sum. Kropki dots spare a pair from the first two, \
         X, V and sum dots from the rest.",
        "white black xv",
        |_, a, ctx| {
            for name in &a.list {
                ctx.negatives.extend_from_slice(match name.as_str() {
                    "white" | "difference" => &[Negative::Difference],
                    "black" | "ratio" => &[Negative::Ratio],
                    "x" => &[Negative::X],
                    "v" => &[Negative::V],
                    "xv" => &[Negative::X, Negative::V],
                    "sum" => &[Negative::Sum],
                    other => {
                        return Err(format!(
                            "unknown negative constraint {other:?}: expected white (difference), black (ratio), x, v, xv or sum"
                        )
                        .into())
                    }
                });
            }
            Ok(())
        },
    ),
];

fn relate_all(p: &mut Puzzle, pairs: &[(Cell, Cell)], predicate: Predicate) -> Result<(), RuleError> {
    pairs.iter().try_for_each(|&(a, b)| p.add_relation(a, b, predicate)).map_err(RuleError::from)
}

/// Relates each cell of a line to the next.
fn along(p: &mut Puzzle, cells: &[Cell], predicate: Predicate) -> Result<(), RuleError> {
    cells.windows(2).try_for_each(|w| p.add_relation(w[0], w[1], predicate)).map_err(RuleError::from)
}

/// The number a rule requires.
fn required(a: &Args) -> Result<i64, RuleError> {
    a.value.ok_or_else(|| RuleError::value("expected a number"))
}

/// The rule's number, a positive one (`default` when not given).
fn positive(a: &Args, default: u32) -> Result<u32, RuleError> {
    match a.value {
        None => Ok(default),
        Some(v) if (1..=4096).contains(&v) => Ok(v as u32),
        Some(v) => Err(RuleError::value(format!("expected a positive number, found {v}"))),
    }
}

/// The sums `k` distinct digits of `1..=n` can have: `1+2+..+k` to
/// `n+(n-1)+..+(n-k+1)`.
pub(crate) fn distinct_sum_range(k: i64, n: i64) -> (i64, i64) {
    (k * (k + 1) / 2, k * (2 * n - k + 1) / 2)
}

/// A killer cage: distinct digits, summing to its value if given.
fn killer(p: &mut Puzzle, ctx: &mut Context, a: &Args) -> Result<(), RuleError> {
    let cells = &a.cells;
    for (i, cell) in cells.iter().enumerate() {
        if cells[..i].contains(cell) {
            return Err(format!("the cage lists cell {cell} twice").into());
        }
    }
    if let Some(cell) = cells.iter().find(|c| ctx.caged.contains(c)) {
        return Err(format!("cell {cell} is already in another cage").into());
    }
    ctx.caged.extend(cells);
    if let Some(value) = a.value {
        let (k, n) = (cells.len() as i64, p.side() as i64);
        let (lo, hi) = distinct_sum_range(k, n);
        if k <= n && !(lo..=hi).contains(&value) {
            return Err(RuleError::value(format!("a cage of {k} distinct digits sums to {lo}..{hi}, not {value}")));
        }
        sum(p, cells, value)?;
    }
    p.add_group(cells.clone()).map_err(RuleError::from)
}

/// A sum without distinctness.
fn sum(p: &mut Puzzle, cells: &[Cell], value: i64) -> Result<(), RuleError> {
    let target = i32::try_from(value).map_err(|_| RuleError::value(format!("sum {value} is out of range")))?;
    p.add_constraint(Constraint::Sum { terms: cells.iter().map(|&c| (c, 1)).collect(), target })
        .map_err(RuleError::from)
}

/// An arrow: the circle's cells, read as a number, equal the line's sum.
fn arrow(p: &mut Puzzle, circle: &[Cell], line: &[Cell]) -> Result<(), RuleError> {
    if circle.is_empty() || line.is_empty() || circle.len() > 9 {
        return Err("an arrow needs one to nine circle cells and a line".into());
    }
    let m = circle.len() as u32;
    let mut terms: Vec<(Cell, i32)> = line.iter().map(|&c| (c, 1)).collect();
    terms.extend(circle.iter().enumerate().map(|(i, &c)| (c, -(10i32.pow(m - 1 - i as u32)))));
    p.add_constraint(Constraint::Sum { terms, target: 0 }).map_err(RuleError::from)
}

/// Odd or even digits only in the cells.
fn parity(p: &mut Puzzle, cells: &[Cell], odd: bool) -> Result<(), RuleError> {
    let odd_mask = (1..=64u32).filter(|d| d % 2 == 1).fold(0u64, |m, d| m | 1 << (d - 1));
    let allowed = if odd { odd_mask } else { !odd_mask };
    cells.iter().try_for_each(|&cell| p.add_constraint(Constraint::Digits { cell, allowed })).map_err(RuleError::from)
}

/// A marker between two touching cells: its relation, and its place for
/// the negative constraints.
fn marker(p: &mut Puzzle, ctx: &mut Context, a: &Args, marker: Marker) -> Result<(), RuleError> {
    let (x, y) = (a.cells[0], a.cells[1]);
    let predicate = match marker {
        Marker::White(diff) => Predicate::Difference { diff },
        Marker::Black(ratio) => Predicate::Ratio { ratio },
        Marker::Sum(target) => Predicate::Sum { cmp: Ordering::Equal, target },
    };
    p.add_relation(x, y, predicate).map_err(RuleError::from)?;
    ctx.markers.push((marker, x, y));
    Ok(())
}
