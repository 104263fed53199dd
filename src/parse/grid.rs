//! Classic puzzles as people type them: `givens`, one line of `n*n` cells;
//! `grid`, `n` rows with the separators people use (`|`, `-`, `+`,
//! spaces); and collections, one `givens` puzzle a line. Digits above 9 are
//! letters (`A` = 10 ... `Z` = 35); `.`, `0` and `_` are blanks. The box
//! shape follows from the side (square boxes for square sides, else 2x3,
//! 2x4, 2x5, 3x4 or 4x5) unless given (`--box RxC`).

use super::{quote, ParseError, Pos};
use crate::model::{Cell, Digit, Puzzle, MAX_SIDE};

/// The usual box shape of a grid side, rows x columns: square boxes for a
/// square side (4, 9, 16, 25, 36, 49, 64), and otherwise the shapes in
/// common use, wider than tall (6x6 has 2x3 boxes). Other sides (primes,
/// 14, 15, ...) have no usual shape: `--box` says which.
pub fn box_shape(side: usize) -> Option<(usize, usize)> {
    let root = (1..=side).find(|r| r * r >= side).unwrap_or(0);
    if root >= 2 && root * root == side {
        return Some((root, root));
    }
    match side {
        4 => Some((2, 2)),
        6 => Some((2, 3)),
        8 => Some((2, 4)),
        10 => Some((2, 5)),
        12 => Some((3, 4)),
        20 => Some((4, 5)),
        _ => None,
    }
}

/// `RxC` with `R * C = side`.
pub fn parse_box(text: &str, side: usize) -> Result<(usize, usize), String> {
    let shape =
        text.split_once(['x', 'X']).and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
    match shape {
        Some((r, c)) if r >= 1 && c >= 1 && r * c == side => Ok((r, c)),
        Some((r, c)) => Err(format!("a box of {r}x{c} does not tile a grid of side {side}")),
        None => Err(format!("expected a box shape such as 3x3, found {}", quote(text))),
    }
}

/// What a cell character means: a blank, a digit, or a separator to skip.
enum Symbol {
    Blank,
    Digit(Digit),
    Separator,
}

fn symbol(c: char) -> Option<Symbol> {
    match c {
        '.' | '0' | '_' => Some(Symbol::Blank),
        '1'..='9' => Some(Symbol::Digit(c as Digit - b'0')),
        'A'..='Z' => Some(Symbol::Digit(c as Digit - b'A' + 10)),
        'a'..='z' => Some(Symbol::Digit(c as Digit - b'a' + 10)),
        '|' | '-' | '+' | ' ' | '\t' => Some(Symbol::Separator),
        _ => None,
    }
}

/// What character `c` at `pos` is: `Some(cell)` (a blank or a digit up to
/// `side`), `None` for a separator, or an error.
fn read_cell(c: char, pos: Pos, side: usize, name: &str) -> Result<Option<Option<Digit>>, ParseError> {
    match symbol(c) {
        Some(Symbol::Separator) => Ok(None),
        Some(Symbol::Blank) => Ok(Some(None)),
        Some(Symbol::Digit(d)) if usize::from(d) <= side => Ok(Some(Some(d))),
        Some(Symbol::Digit(d)) => {
            Err(pos.error(name, format!("digit {} ({d}) is above the grid's {side} digits", quote(&c.to_string()))))
        }
        None => {
            Err(pos
                .error(name, format!("expected a digit, a letter or a blank ('.'), found {}", quote(&c.to_string()))))
        }
    }
}

/// The cells of one row of a grid, `side` of them, each a digit up to `side`.
pub fn read_row(raw: &str, line: usize, side: usize, name: &str) -> Result<Vec<Option<Digit>>, ParseError> {
    read_row_of(raw, line, side, (side, 1), name)
}

/// The cells of one row of `count` cells, each a value from `first` (0
/// or 1) of `digits` values, as the digit that stands for it; from 0,
/// `0` is a value, and only `.` and `_` are blanks.
pub fn read_row_of(
    raw: &str,
    line: usize,
    count: usize,
    (digits, first): (usize, u8),
    name: &str,
) -> Result<Vec<Option<Digit>>, ParseError> {
    let mut cells = Vec::with_capacity(count);
    for (i, c) in raw.chars().enumerate() {
        let pos = Pos { line, col: i + 1 };
        let cell = match (first, c) {
            (0, '0') => Some(Some(1)),
            (0, _) => read_cell(c, pos, digits - 1, name)?.map(|d| d.map(|d| d + 1)),
            _ => read_cell(c, pos, digits, name)?,
        };
        if let Some(cell) = cell {
            cells.push(cell);
        }
        if cells.len() > count {
            return Err(pos.error(name, format!("expected {count} cells in the row, found more")));
        }
    }
    if cells.len() < count {
        let end = Pos { line, col: raw.chars().count() + 1 };
        return Err(end.error(name, format!("expected {count} cells in the row, found {}", cells.len())));
    }
    Ok(cells)
}

/// A classic Sudoku (or Latin square, with `box none`) with these givens.
fn build(
    side: usize,
    boxes: Option<(usize, usize)>,
    cells: &[Option<Digit>],
    pos: Pos,
    name: &str,
) -> Result<Puzzle, ParseError> {
    let mut puzzle = match boxes {
        Some((r, c)) => Puzzle::sudoku(r, c),
        None => Puzzle::latin(side),
    }
    .map_err(|e| pos.error(name, e.to_string()))?;
    for (i, d) in cells.iter().enumerate() {
        if let Some(d) = *d {
            puzzle.set_given(Cell::new(i / side, i % side), d).map_err(|e| pos.error(name, e.to_string()))?;
        }
    }
    Ok(puzzle)
}

/// The side of a grid of `cells` cells, and its box shape (`boxes` if
/// given, else the usual one); an error at `pos` if there is none.
fn shape(
    cells: usize,
    boxes: Option<(usize, usize)>,
    pos: Pos,
    name: &str,
) -> Result<(usize, (usize, usize)), ParseError> {
    let side = (1..).find(|s: &usize| s * s >= cells).filter(|s| s * s == cells);
    let side = match side {
        Some(side) if side <= MAX_SIDE => side,
        Some(side) => {
            let message = format!("a grid of side {side} ({cells} cells): sides are at most {MAX_SIDE}");
            return Err(pos.error(name, message));
        }
        None => {
            let message = format!(
                "expected n*n cells for an n x n grid with n at most {MAX_SIDE} (16, 36, 81, 256, ...), found {cells}"
            );
            return Err(pos.error(name, message));
        }
    };
    match boxes.or_else(|| box_shape(side)) {
        Some((r, c)) if r * c == side => Ok((side, (r, c))),
        Some((r, c)) => Err(pos.error(name, format!("a box of {r}x{c} does not tile a grid of side {side}"))),
        None => Err(pos.error(name, format!("a grid of side {side} has no usual box shape: give --box RxC"))),
    }
}

/// The puzzle text of a collection line: what precedes the first white
/// space (a rating or a name may follow it), or `None` for a blank or
/// comment line.
pub fn puzzle_text(line: &str) -> Option<&str> {
    let text = line.split_whitespace().next()?;
    (!text.starts_with('#')).then_some(text)
}

/// One `givens` line: `n*n` cells.
pub fn parse_givens_line(
    text: &str,
    line: usize,
    boxes: Option<(usize, usize)>,
    name: &str,
) -> Result<Puzzle, ParseError> {
    let start = Pos { line, col: 1 };
    // Separators are not part of a one-line puzzle, but a blank run of them is harmless.
    let count = text.chars().filter(|&c| !matches!(symbol(c), Some(Symbol::Separator))).count();
    let (side, shape) = shape(count, boxes, start, name)?;
    let mut cells = Vec::with_capacity(side * side);
    for (i, c) in text.chars().enumerate() {
        cells.extend(read_cell(c, Pos { line, col: i + 1 }, side, name)?);
    }
    build(side, Some(shape), &cells, start, name)
}

/// A `givens` file holding one puzzle.
pub fn parse_givens(text: &str, name: &str, boxes: Option<(usize, usize)>) -> Result<Puzzle, ParseError> {
    let mut lines = text.lines().enumerate().filter_map(|(i, l)| Some((i + 1, puzzle_text(l)?)));
    let Some((line, first)) = lines.next() else {
        return Err(Pos { line: 1, col: 1 }.error(name, "expected a puzzle line, found none"));
    };
    if let Some((second, _)) = lines.next() {
        let message = "expected one puzzle, found more lines: a collection is counted line by line with `count`";
        return Err(Pos { line: second, col: 1 }.error(name, message));
    }
    parse_givens_line(first, line, boxes, name)
}

/// The puzzle lines of a collection, one `givens` puzzle each (read with
/// [`parse_givens_line`]), with their line numbers; comments and blank
/// lines are left out.
pub fn collection_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, l)| Some((i + 1, puzzle_text(l)?)))
}

/// Whether `text` is a collection: more than one puzzle line.
pub fn is_collection(text: &str) -> bool {
    text.lines().filter_map(puzzle_text).nth(1).is_some()
}

/// A `grid` file: `n` rows of `n` cells, with separators and `#` comments;
/// lines of separators only are skipped.
pub fn parse_grid(text: &str, name: &str, boxes: Option<(usize, usize)>) -> Result<Puzzle, ParseError> {
    let rows: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("")))
        .filter(|(_, l)| l.chars().any(|c| !matches!(symbol(c), Some(Symbol::Separator))))
        .collect();
    let Some(&(first, first_row)) = rows.first() else {
        return Err(Pos { line: 1, col: 1 }.error(name, "expected the rows of a grid, found none"));
    };
    let side = first_row.chars().filter(|&c| !matches!(symbol(c), Some(Symbol::Separator))).count();
    let (side, shape) = shape(side * side, boxes, Pos { line: first, col: 1 }, name)?;
    if rows.len() != side {
        let at =
            rows.get(side).map_or(Pos { line: text.lines().count().max(1), col: 1 }, |r| Pos { line: r.0, col: 1 });
        return Err(at.error(name, format!("expected {side} rows (the first has {side} cells), found {}", rows.len())));
    }
    let mut cells = Vec::with_capacity(side * side);
    for &(line, raw) in &rows {
        cells.extend(read_row(raw, line, side, name)?);
    }
    build(side, Some(shape), &cells, Pos { line: first, col: 1 }, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_shapes_tile_their_sides() {
        for side in 1..=64 {
            if let Some((r, c)) = box_shape(side) {
                assert_eq!(r * c, side);
                assert!(r <= c);
            }
        }
        assert_eq!([36, 49, 64].map(box_shape), [Some((6, 6)), Some((7, 7)), Some((8, 8))]);
        assert_eq!(parse_box("2x3", 6), Ok((2, 3)));
        assert!(parse_box("2x2", 6).unwrap_err().contains("does not tile"));
    }

    #[test]
    fn letters_stand_for_digits_above_nine() {
        let line = format!("G{}", ".".repeat(255));
        let puzzle = parse_givens_line(&line, 1, None, "x").unwrap();
        assert_eq!(puzzle.given(Cell::new(0, 0)), Some(16));
        assert_eq!(puzzle.boxes(), Some((4, 4)));
        let err = parse_givens_line(&format!("H{}", ".".repeat(15)), 3, None, "x").unwrap_err();
        assert_eq!(err.to_string(), "x:3:1: digit \"H\" (17) is above the grid's 4 digits");
    }
}
