//! Takuzu (Binairo): an n x n grid (n even) of `0`, `1` and `.` for blanks,
//! one row a line, `#` comments. Rules: every row and column holds as many
//! 0s as 1s; no three equal digits next to each other in a row or column;
//! no two rows and no two columns alike (this last rule can be dropped, as
//! some publishers do).
//!
//! In the model the digits 0 and 1 are 1 and 2; the rules are those of
//! [`Puzzle::takuzu`].

use super::{quote, ParseError, Pos};
use crate::model::{Cell, Puzzle, MAX_SIDE};

/// Parses a Takuzu grid; `distinct` keeps the rule that lines differ. A
/// file of several grids (separated by `---` lines) is an error at the
/// second.
pub fn parse_takuzu(text: &str, name: &str, distinct: bool) -> Result<Puzzle, ParseError> {
    parse_takuzu_part(super::single_part(text, name)?, name, distinct)
}

/// Parses one of the [`super::parts`] of a Takuzu file, its errors placed
/// in the whole file.
pub fn parse_takuzu_part(part: super::Part, name: &str, distinct: bool) -> Result<Puzzle, ParseError> {
    let mut rows: Vec<(usize, Vec<Option<u8>>)> = Vec::new();
    for (i, line) in part.text.lines().enumerate().map(|(i, line)| (i + part.skipped, line)) {
        let content = line.split('#').next().unwrap_or("");
        if content.trim().is_empty() {
            continue;
        }
        let mut cells = Vec::new();
        for (col, c) in content.chars().enumerate() {
            match c {
                '0' => cells.push(Some(1)),
                '1' => cells.push(Some(2)),
                '.' | '_' => cells.push(None),
                ' ' | '\t' => {}
                _ => {
                    let pos = Pos { line: i + 1, col: col + 1 };
                    return Err(pos.error(name, format!("expected 0, 1 or '.', found {}", quote(&c.to_string()))));
                }
            }
        }
        rows.push((i + 1, cells));
    }
    let n = rows.len();
    let first = rows.first().map_or(1, |r| r.0);
    if n == 0 {
        return Err(Pos { line: 1, col: 1 }.error(name, "expected the rows of a Takuzu grid, found none"));
    }
    if n % 2 == 1 || n > MAX_SIDE {
        let message = format!("a Takuzu grid has an even side (2 to {MAX_SIDE}), found {n} rows");
        return Err(Pos { line: first, col: 1 }.error(name, message));
    }
    for (line, cells) in &rows {
        if cells.len() != n {
            let message = format!("expected {n} cells in the row (as many as rows), found {}", cells.len());
            return Err(Pos { line: *line, col: 1 }.error(name, message));
        }
    }
    let model = |e: crate::model::ModelError| Pos { line: first, col: 1 }.error(name, e.to_string());
    let mut puzzle = Puzzle::takuzu(n, distinct).map_err(model)?;
    for (r, (_, cells)) in rows.iter().enumerate() {
        for (c, d) in cells.iter().enumerate() {
            if let Some(d) = d {
                puzzle.set_given(Cell::new(r, c), *d).map_err(model)?;
            }
        }
    }
    Ok(puzzle)
}
