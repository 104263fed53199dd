//! The variant rules as the model expresses them, shared by the input
//! formats that name them (the native `puzzle` format and f-puzzles): each
//! adds groups, relations and constraints to a [`Puzzle`].

use std::cmp::Ordering;

use crate::model::{Cell, Constraint, ModelError, Predicate, Puzzle};

/// Every pair of orthogonally adjacent cells, once.
pub fn orthogonal_pairs(n: usize) -> Vec<(Cell, Cell)> {
    pairs_at(n, &[(0, 1), (1, 0)])
}

/// Cells `(dr, dc)` apart for each step, each unordered pair once.
pub fn pairs_at(n: usize, steps: &[(i64, i64)]) -> Vec<(Cell, Cell)> {
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

/// A rule on the whole grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Global {
    /// Top left to bottom right (`diagonal-`).
    MainDiagonal,
    /// Bottom left to top right (`diagonal+`).
    AntiDiagonal,
    AntiKnight,
    AntiKing,
    Nonconsecutive,
    Windoku,
    DisjointGroups,
}

/// Adds a whole-grid rule.
pub fn global(p: &mut Puzzle, rule: Global) -> Result<(), String> {
    let n = p.side();
    let err = |e: ModelError| e.to_string();
    match rule {
        Global::MainDiagonal => p.add_group((0..n).map(|i| Cell::new(i, i)).collect()).map_err(err),
        Global::AntiDiagonal => p.add_group((0..n).map(|i| Cell::new(n - 1 - i, i)).collect()).map_err(err),
        Global::AntiKnight | Global::AntiKing | Global::Nonconsecutive => {
            let (pairs, predicate) = match rule {
                Global::AntiKnight => (pairs_at(n, &KNIGHT), Predicate::NotEqual),
                Global::AntiKing => (pairs_at(n, &KING_DIAGONAL), Predicate::NotEqual),
                _ => (orthogonal_pairs(n), Predicate::DifferenceNot { diff: 1 }),
            };
            pairs.into_iter().try_for_each(|(a, b)| p.add_relation(a, b, predicate)).map_err(err)
        }
        Global::Windoku => {
            if n != 9 {
                return Err("windoku needs a 9 x 9 grid".into());
            }
            for (r0, c0) in itertools::iproduct!([1, 5], [1, 5]) {
                p.add_group(itertools::iproduct!(r0..r0 + 3, c0..c0 + 3).map(|(r, c)| Cell::new(r, c)).collect())
                    .map_err(err)?;
            }
            Ok(())
        }
        Global::DisjointGroups => {
            let (h, w) = p.boxes().ok_or("disjoint groups need boxes")?;
            for (i, j) in itertools::iproduct!(0..h, 0..w) {
                let cells = itertools::iproduct!(0..n / h, 0..n / w).map(|(br, bc)| Cell::new(br * h + i, bc * w + j));
                p.add_group(cells.collect()).map_err(err)?;
            }
            Ok(())
        }
    }
}

/// The cells already in a killer cage: cages may not overlap.
#[derive(Debug, Default)]
pub struct Cages(Vec<Cell>);

/// The sums `k` distinct digits of `1..=n` can have: `1+2+..+k` to
/// `n+(n-1)+..+(n-k+1)`.
pub fn distinct_sum_range(k: i64, n: i64) -> (i64, i64) {
    (k * (k + 1) / 2, k * (2 * n - k + 1) / 2)
}

/// A killer cage: distinct digits, summing to `sum` if given; a sum out of
/// reach of distinct digits, or a cell already in another cage, is an error.
pub fn killer(p: &mut Puzzle, cages: &mut Cages, cells: Vec<Cell>, sum: Option<i64>) -> Result<(), String> {
    if let Some(cell) = cells.iter().find(|c| cages.0.contains(c)) {
        return Err(format!("cell {cell} is already in another cage"));
    }
    cages.0.extend(&cells);
    if let Some(sum) = sum {
        let (k, n) = (cells.len() as i64, p.side() as i64);
        let (lo, hi) = distinct_sum_range(k, n);
        if k <= n && !(lo..=hi).contains(&sum) {
            return Err(format!("a cage of {k} distinct digits sums to {lo}..{hi}, not {sum}"));
        }
        little_killer(p, &cells, sum)?;
    }
    p.add_group(cells).map_err(|e| e.to_string())
}

/// A sum without distinctness (little killer).
pub fn little_killer(p: &mut Puzzle, cells: &[Cell], sum: i64) -> Result<(), String> {
    let target = i32::try_from(sum).map_err(|_| format!("sum {sum} is out of range"))?;
    p.add_constraint(Constraint::Sum { terms: cells.iter().map(|&c| (c, 1)).collect(), target })
        .map_err(|e| e.to_string())
}

/// An arrow: the circle's cells, read as a number, equal the line's sum.
pub fn arrow(p: &mut Puzzle, circle: &[Cell], line: &[Cell]) -> Result<(), String> {
    if circle.is_empty() || line.is_empty() || circle.len() > 9 {
        return Err("an arrow needs one to nine circle cells and a line".into());
    }
    let m = circle.len() as u32;
    let mut terms: Vec<(Cell, i32)> = line.iter().map(|&c| (c, 1)).collect();
    terms.extend(circle.iter().enumerate().map(|(i, &c)| (c, -(10i32.pow(m - 1 - i as u32)))));
    p.add_constraint(Constraint::Sum { terms, target: 0 }).map_err(|e| e.to_string())
}

/// Relates each cell of a line to the next.
pub fn along(p: &mut Puzzle, cells: &[Cell], predicate: Predicate) -> Result<(), String> {
    cells.windows(2).try_for_each(|w| p.add_relation(w[0], w[1], predicate)).map_err(|e| e.to_string())
}

/// A palindrome: the line reads the same both ways.
pub fn palindrome(p: &mut Puzzle, cells: &[Cell]) -> Result<(), String> {
    let k = cells.len();
    (0..k / 2).try_for_each(|i| p.add_relation(cells[i], cells[k - 1 - i], Predicate::Equal)).map_err(|e| e.to_string())
}

/// A renban line: distinct consecutive digits.
pub fn renban(p: &mut Puzzle, cells: Vec<Cell>) -> Result<(), String> {
    p.add_constraint(Constraint::Consecutive { cells: cells.clone() }).map_err(|e| e.to_string())?;
    p.add_group(cells).map_err(|e| e.to_string())
}

/// A between line: the inner cells lie strictly between the two ends.
pub fn between(p: &mut Puzzle, cells: &[Cell]) -> Result<(), String> {
    if cells.len() < 2 {
        return Err("a between line needs two ends".into());
    }
    let ends = (cells[0], cells[cells.len() - 1]);
    p.add_constraint(Constraint::Between { ends, inner: cells[1..cells.len() - 1].to_vec() }).map_err(|e| e.to_string())
}

/// A minimum (or maximum) cell: less (greater) than each orthogonal neighbour.
pub fn extremum(p: &mut Puzzle, cell: Cell, minimum: bool) -> Result<(), String> {
    let n = p.side();
    for (a, b) in orthogonal_pairs(n) {
        let other = if a == cell {
            b
        } else if b == cell {
            a
        } else {
            continue;
        };
        let (low, high) = if minimum { (cell, other) } else { (other, cell) };
        p.add_relation(low, high, Predicate::Less).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Odd or even digits only in the cell.
pub fn parity(p: &mut Puzzle, cell: Cell, odd: bool) -> Result<(), String> {
    let odd_mask = (1..=64u32).filter(|d| d % 2 == 1).fold(0u64, |m, d| m | 1 << (d - 1));
    let allowed = if odd { odd_mask } else { !odd_mask };
    p.add_constraint(Constraint::Digits { cell, allowed }).map_err(|e| e.to_string())
}

/// A marker between two adjacent cells, whose absence a negative
/// constraint can make meaningful.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// Kropki white dot: difference `d` (1 by default).
    White(u32),
    /// Kropki black dot: ratio `r` (2 by default).
    Black(u32),
    /// X: sum 10.
    X,
    /// V: sum 5.
    V,
}

impl Marker {
    pub fn predicate(self) -> Predicate {
        match self {
            Marker::White(diff) => Predicate::Difference { diff },
            Marker::Black(ratio) => Predicate::Ratio { ratio },
            Marker::X => Predicate::Sum { cmp: Ordering::Equal, target: 10 },
            Marker::V => Predicate::Sum { cmp: Ordering::Equal, target: 5 },
        }
    }
}

/// The kinds of negative constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Negative {
    /// No unmarked adjacent pair differs by 1.
    White,
    /// No unmarked adjacent pair has ratio 2.
    Black,
    /// No adjacent pair without an X or V sums to 10.
    X,
    /// No adjacent pair without an X or V sums to 5.
    V,
}

/// Adds a negative constraint, given every marker placed (`(marker, a, b)`).
pub fn negative(p: &mut Puzzle, kind: Negative, marked: &[(Marker, Cell, Cell)]) -> Result<(), String> {
    let n = p.side();
    for (a, b) in orthogonal_pairs(n) {
        let has = |test: &dyn Fn(Marker) -> bool| {
            marked.iter().any(|&(m, x, y)| test(m) && ((x, y) == (a, b) || (x, y) == (b, a)))
        };
        let (spared, predicate) = match kind {
            Negative::White => (has(&|m| matches!(m, Marker::White(_))), Predicate::DifferenceNot { diff: 1 }),
            Negative::Black => (has(&|m| matches!(m, Marker::Black(_))), Predicate::RatioNot { ratio: 2 }),
            Negative::X => (has(&|m| matches!(m, Marker::X | Marker::V)), Predicate::SumNot { target: 10 }),
            Negative::V => (has(&|m| matches!(m, Marker::X | Marker::V)), Predicate::SumNot { target: 5 }),
        };
        if !spared {
            p.add_relation(a, b, predicate).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
