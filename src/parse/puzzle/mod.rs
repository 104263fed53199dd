//! The native `puzzle` format: everything the model expresses, one
//! directive a line, cells named `r1c1` (row, column, from 1). `#` starts a
//! comment. The grammar is in the README ("The puzzle format").
//!
//! ```text
//! size 6                  # first; boxes follow from the size (box 2x3 here)
//! givens                  # then `size` rows: digits, `.` `0` `_` for blanks
//! 1.....                  # (spaces and | - + separators are ignored)
//! ...
//! killer r1c1 r1c2 = 7    # one constraint a line
//! ```

use super::grid::{box_shape, read_row_of};
use super::{quote, ParseError, Pos};
use crate::model::rules::{self, Context};
use crate::model::{Cell, Constraint, Digit, ModelError, Puzzle};

mod directive;

use directive::Directive;

/// A word of a line and where it starts.
#[derive(Clone, Copy, Debug)]
struct Word<'a> {
    text: &'a str,
    pos: Pos,
}

/// The words of a line before any `#`, with their columns (in characters).
fn words(line: &str, number: usize) -> Vec<Word<'_>> {
    let content = line.split('#').next().unwrap_or("");
    let mut found = Vec::new();
    let mut start = None;
    for (col, (byte, c)) in content.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((byte, col)),
            (true, Some((from, col0))) => {
                found.push(Word { text: &content[from..byte], pos: Pos { line: number, col: col0 + 1 } });
                start = None;
            }
            _ => {}
        }
    }
    if let Some((from, col0)) = start {
        found.push(Word { text: &content[from..], pos: Pos { line: number, col: col0 + 1 } });
    }
    found
}

pub(super) struct Parser<'a> {
    name: &'a str,
    /// The puzzle's lines, after `skipped` lines of the file.
    lines: Vec<&'a str>,
    skipped: usize,
    next: usize,
    /// Whether a separator line ends the puzzle (another follows).
    separated: bool,
}

impl<'a> Parser<'a> {
    fn error(&self, pos: Pos, message: impl Into<String>) -> ParseError {
        pos.error(self.name, message)
    }

    /// The next line that has words, with its number.
    fn next_line(&mut self) -> Option<(usize, Vec<Word<'a>>)> {
        while self.next < self.lines.len() {
            let number = self.skipped + self.next + 1;
            let line = self.lines[self.next];
            self.next += 1;
            let found = words(line, number);
            if !found.is_empty() {
                return Some((number, found));
            }
        }
        None
    }

    /// The error of a puzzle that ends where `expected` was: at the end of
    /// the input, or at the separator line after it.
    fn ended(&self, expected: String) -> ParseError {
        if self.separated {
            let at = Pos { line: self.skipped + self.lines.len() + 1, col: 1 };
            return self.error(at, format!("{expected}, found the \"{}\" line that ends the puzzle", super::SEPARATOR));
        }
        let line = self.skipped + self.lines.len().max(1);
        let end = Pos { line, col: self.lines.last().map_or(0, |l| l.chars().count()) + 1 };
        self.error(end, format!("{expected}, found end of input"))
    }
}

/// Cells outside the grid a puzzle may name at most (the model then
/// refuses those that do not fit its largest square).
const MOST_OUTSIDE: usize = crate::model::MAX_SIDE * crate::model::MAX_SIDE;

/// `size`'s argument: a side `N` (an N x N grid) or a rectangle `RxC`
/// of different sides, each 1 to the model's largest side.
fn size(text: &str) -> Option<(usize, usize)> {
    let fits = |n: usize| (1..=crate::model::MAX_SIDE).contains(&n);
    match dims(text) {
        Some((r, c)) => Some((r, c)).filter(|&(r, c)| fits(r) && fits(c) && r != c),
        None => text.parse::<usize>().ok().filter(|&n| fits(n)).map(|n| (n, n)),
    }
}

/// `RxC` (or `RXC`) as two numbers, for sizes and box shapes.
fn dims(text: &str) -> Option<(usize, usize)> {
    let (r, c) = text.split_once(['x', 'X'])?;
    Some((r.parse().ok()?, c.parse().ok()?))
}

/// `values 1-V` or `values 0-V`: the values the cells hold, V at least
/// the (longer) side, or V + 1 from 0; how many, and whether from 0.
fn values(p: &Parser, line: &[Word], side: usize) -> Result<(usize, bool), ParseError> {
    let Some(w) = line.get(1) else {
        return Err(p.error(line[0].pos, "expected \"values 1-V\" or \"values 0-V\""));
    };
    if let Some(extra) = line.get(2) {
        return Err(p.error(extra.pos, format!("expected nothing after the values, found {}", quote(extra.text))));
    }
    let range = w.text.split_once('-').and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)));
    match range {
        Some((first @ (0 | 1), last)) if (side..=crate::model::MAX_SIDE).contains(&(last + 1 - first)) => {
            Ok((last + 1 - first, first == 0))
        }
        _ => Err(p.error(
            w.pos,
            format!(
                "expected values 1-V or 0-V, as many as the side {side} or more (up to {}), found {}",
                crate::model::MAX_SIDE,
                quote(w.text)
            ),
        )),
    }
}

/// Parses a `puzzle` file of one puzzle; a file of several (separated by
/// `---` lines) is an error at the second.
pub fn parse_puzzle(text: &str, name: &str) -> Result<Puzzle, ParseError> {
    parse_part(super::single_part(text, name)?, name)
}

/// Parses one of the [`super::parts`] of a `puzzle` file, its errors
/// placed in the whole file.
pub fn parse_part(part: super::Part, name: &str) -> Result<Puzzle, ParseError> {
    let lines = part.text.lines().collect();
    let mut p = Parser { name, lines, skipped: part.skipped, next: 0, separated: part.separated };
    let Some((_, first)) = p.next_line() else {
        return Err(p.error(Pos { line: 1, col: 1 }, "expected \"size N\", found end of input"));
    };
    if first[0].text != "size" {
        return Err(p.error(first[0].pos, format!("expected \"size N\" first, found {}", quote(first[0].text))));
    }
    let (rows, cols) = match first.get(1).map(|w| (w, size(w.text))) {
        Some((_, Some(shape))) if first.len() == 2 => shape,
        Some((w, _)) if dims(w.text).is_some_and(|(r, c)| r == c) => {
            let side = dims(w.text).map_or(0, |(r, _)| r);
            return Err(p.error(w.pos, format!("size {} is a square: write \"size {side}\"", w.text)));
        }
        Some((w, _)) => {
            let message = format!(
                "expected a grid side 1..{m} or a rectangle RxC after \"size\", found {}",
                quote(w.text),
                m = crate::model::MAX_SIDE
            );
            return Err(p.error(w.pos, message));
        }
        None => return Err(p.error(first[0].pos, "expected a grid side after \"size\"")),
    };
    let side = rows.max(cols);
    let mut b = Builder {
        rows,
        cols,
        boxes: if rows == cols { box_shape(side) } else { None },
        box_pos: None,
        values: None,
        outside: None,
        regions: None,
        chaos: None,
        givens: None,
        lines: Vec::new(),
    };
    // A layout directive given twice, or two that say different things
    // (`box` with `regions`), is an error at the second: never one
    // silently replacing the other.
    let once = |p: &Parser, seen: Option<Pos>, head: Word, what: &str| match seen {
        Some(first) => {
            Err(p.error(head.pos, format!("{what} is given twice (first at line {}): give it once", first.line)))
        }
        None => Ok(()),
    };
    // `either` blocks open (the rule lines inside are read later): the
    // layout and the givens are the puzzle's, never an alternative's.
    // The blocks open, innermost last.
    let mut blocks: Vec<&str> = Vec::new();
    while let Some((number, line)) = p.next_line() {
        let head = line[0];
        let inside = blocks.last().map(|&open| if open == "either" { "an either block" } else { "a replicate block" });
        let layout = matches!(head.text, "size" | "box" | "values" | "outside" | "givens" | "regions" | "chaos");
        if let (Some(inside), true) = (inside, layout) {
            let why = format!(
                "{} inside {inside}: the layout and givens are the whole puzzle's (a given of an alternative or \
                 a copy is a line \"given r1c1 = 5\")",
                head.text
            );
            return Err(p.error(head.pos, why));
        }
        if let (Some(inside), true) = (inside, on_labels(&line)) {
            let why = format!("{} inside {inside}: rules on a chaos construction's regions are not", head.text);
            return Err(p.error(head.pos, format!("{why} read there")));
        }
        match head.text {
            "either" | "replicate" => blocks.push(head.text),
            "end" => {
                blocks.pop();
            }
            _ => {}
        }
        match head.text {
            "size" => {
                return Err(p.error(
                    head.pos,
                    format!(
                    "size is given twice: it comes once, first (puzzles of one file are separated by a \"{}\" line)",
                    super::SEPARATOR
                ),
                ))
            }
            "box" => {
                once(&p, b.box_pos, head, "box")?;
                if let Some((at, _)) = &b.regions {
                    return Err(p.error(
                        head.pos,
                        format!(
                            "box with regions (line {}): a jigsaw's regions replace its boxes; give one of them",
                            at.line
                        ),
                    ));
                }
                let Some(arg) = line.get(1) else {
                    return Err(p.error(head.pos, "expected \"box RxC\" or \"box none\""));
                };
                b.boxes = match arg.text {
                    "none" => None,
                    // Boxes of more cells than the side, up to the values
                    // (ISS's `RegionSize`), are checked once the values are known.
                    text => Some(match super::grid::parse_box(text, side) {
                        Ok(shape) => shape,
                        Err(m) => dims(text)
                            .filter(|&(r, c)| r >= 1 && c >= 1 && r * c > side && r * c <= crate::model::MAX_SIDE)
                            .ok_or_else(|| p.error(arg.pos, m))?,
                    }),
                };
                b.box_pos = Some(arg.pos);
            }
            "values" => {
                once(&p, b.values.map(|v| v.2), head, "values")?;
                if let Some(at) = b.givens.as_ref().map(|g| g.0) {
                    let why = format!("values after givens (line {}): give values first", at.line);
                    return Err(p.error(head.pos, why));
                }
                let (count, from_zero) = values(&p, &line, side)?;
                b.values = Some((count, from_zero, head.pos));
            }
            "outside" => {
                once(&p, b.outside.map(|o| o.1), head, "outside")?;
                let count = match line.get(1).map(|w| (w, w.text.parse::<usize>())) {
                    Some((_, Ok(k))) if (1..=MOST_OUTSIDE).contains(&k) && line.len() == 2 => k,
                    Some((w, _)) => {
                        let why = format!(
                            "expected how many cells outside the grid, 1..{MOST_OUTSIDE}, found {}",
                            quote(w.text)
                        );
                        return Err(p.error(w.pos, why));
                    }
                    None => return Err(p.error(head.pos, "expected \"outside K\": K cells v1..vK outside the grid")),
                };
                b.outside = Some((count, head.pos));
            }
            "givens" => {
                once(&p, b.givens.as_ref().map(|g| g.0), head, "givens")?;
                let (digits_up_to, first) = b.values.map_or((side, 1), |v| (v.0, u8::from(!v.1)));
                let mut digits = Vec::with_capacity(rows * cols);
                for _ in 0..rows {
                    let Some((row_number, _)) = p.next_line() else {
                        return Err(p.ended(format!("expected {rows} rows of givens")));
                    };
                    let raw = p.lines[row_number - 1 - p.skipped].split('#').next().unwrap_or("");
                    digits.extend(read_row_of(raw, row_number, cols, (digits_up_to, first), name)?);
                }
                b.givens = Some((head.pos, digits));
            }
            "chaos" => {
                once(&p, b.chaos, head, "chaos")?;
                if let Some(extra) = line.get(1) {
                    return Err(
                        p.error(extra.pos, format!("expected nothing after \"chaos\", found {}", quote(extra.text)))
                    );
                }
                b.chaos = Some(head.pos);
            }
            "regions" => {
                once(&p, b.regions.as_ref().map(|r| r.0), head, "regions")?;
                if let Some(at) = b.box_pos {
                    return Err(p.error(
                        head.pos,
                        format!(
                            "regions with box (line {}): a jigsaw's regions replace its boxes; give one of them",
                            at.line
                        ),
                    ));
                }
                let mut labels = Vec::with_capacity(rows * cols);
                for _ in 0..rows {
                    let Some((row_number, row)) = p.next_line() else {
                        return Err(p.ended(format!("expected {rows} rows of region labels")));
                    };
                    let chars: Vec<(char, Pos)> = row
                        .iter()
                        .flat_map(|w| {
                            w.text
                                .chars()
                                .enumerate()
                                .map(move |(i, c)| (c, Pos { line: row_number, col: w.pos.col + i }))
                        })
                        .collect();
                    if chars.len() != cols {
                        let at = chars.get(cols).map_or(row[0].pos, |c| c.1);
                        return Err(
                            p.error(at, format!("expected {cols} region labels in the row, found {}", chars.len()))
                        );
                    }
                    labels.extend(chars);
                }
                b.regions = Some((head.pos, labels));
            }
            _ => b.lines.push((number, line)),
        }
    }
    b.build(&p)
}

struct Builder<'a> {
    rows: usize,
    cols: usize,
    boxes: Option<(usize, usize)>,
    box_pos: Option<Pos>,
    /// `values`: how many, whether from 0, and where it stands.
    values: Option<(usize, bool, Pos)>,
    /// `outside K` and where it stands.
    outside: Option<(usize, Pos)>,
    regions: Option<(Pos, Vec<(char, Pos)>)>,
    /// Where `chaos` stands: the regions are found with the digits.
    chaos: Option<Pos>,
    givens: Option<(Pos, Vec<Option<Digit>>)>,
    lines: Vec<(usize, Vec<Word<'a>>)>,
}

impl Builder<'_> {
    fn build(self, p: &Parser) -> Result<Puzzle, ParseError> {
        let (rows, cols) = (self.rows, self.cols);
        let n = rows.max(cols);
        // The puzzle's first line (its `size`).
        let start = Pos { line: p.skipped + 1, col: 1 };
        let model = |pos: Pos| move |e: ModelError| p.error(pos, e.to_string());
        let values = self.values.map_or(n, |v| v.0);
        let from_zero = self.values.is_some_and(|v| v.1);
        let (values_at, outside_at) = (self.values.map(|v| v.2), self.outside.map(|o| o.1));
        // Not a square of digits 1..side: only the rules of `NOT_SQUARE`
        // (and from 0, of `FROM_ZERO`).
        let mut restricted: Vec<(&'static str, &'static [&'static str])> = Vec::new();
        if rows != cols {
            restricted.push(("a rectangle", NOT_SQUARE));
        }
        if values > n {
            restricted.push(("a grid of more values than its side", NOT_SQUARE));
        }
        if self.outside.is_some() {
            restricted.push(("cells outside the grid", NOT_SQUARE));
        }
        if from_zero {
            restricted.push(("a grid of values from 0", FROM_ZERO));
        }
        if let (Some(at), Some((what, _))) = (self.chaos, restricted.first()) {
            return Err(p.error(at, format!("chaos on {what}: not read (ISS has no such puzzle either)")));
        }
        if rows != cols && self.box_pos.is_none() && self.regions.is_none() {
            let why = format!("size {rows}x{cols}: say \"box RxC\" (boxes of {n} cells), \"box none\" or \"regions\"");
            return Err(p.error(start, why));
        }
        if let (Some((h, w)), Some(at)) = (self.boxes, self.box_pos) {
            if rows % h != 0 || cols % w != 0 {
                return Err(p.error(at, format!("boxes of {h}x{w} do not tile the {rows}x{cols} grid")));
            }
            if h * w != n && (h * w > values || rows != cols) {
                let why = format!(
                    "boxes of {h}x{w} ({} cells) on a grid of side {n}: boxes hold as many cells as the side, or on \
                     a square of more values up to as many as its values (\"values 1-V\")",
                    h * w
                );
                return Err(p.error(at, why));
            }
        }
        let mut puzzle = match (self.boxes, &self.regions) {
            _ if rows != cols => Puzzle::rectangle(rows, cols, values, self.boxes).map_err(model(start))?,
            (Some((h, w)), None) if values == n => Puzzle::sudoku(h, w).map_err(model(start))?,
            (Some((h, w)), None) => {
                // More values than the side, boxes kept as regions (as ISS's
                // `Shape~6x6~9` keeps them): a box then holds different
                // digits, not every digit.
                let mut latin = Puzzle::latin(n).map_err(model(start))?;
                latin.set_digits(values).map_err(model(values_at.unwrap_or(start)))?;
                // Boxes of more cells than the side (ISS's `RegionSize`)
                // tile the grid all the same.
                for cells in super::iss::boxes_of(n, (h, w)) {
                    latin.add_region(cells).map_err(model(start))?;
                }
                latin
            }
            (_, Some(_)) | (None, None) => {
                let mut latin = Puzzle::latin(n).map_err(model(start))?;
                if values > n {
                    latin.set_digits(values).map_err(model(values_at.unwrap_or(start)))?;
                }
                latin
            }
        };
        if from_zero {
            puzzle.set_values_from_zero();
        }
        if let Some(at) = self.chaos {
            // The genre has no boxes, a few puzzles keep them: which, is said.
            if let Some((pos, _)) = &self.regions {
                let why = format!("chaos with regions (line {}): the regions are the ones found; give one", pos.line);
                return Err(p.error(at, why));
            }
            if self.box_pos.is_none() {
                let why = "chaos: say \"box none\" (the regions replace the boxes, as usual) or \"box RxC\" (boxes \
                           as well)";
                return Err(p.error(at, why));
            }
            if let Some((number, line)) = self.lines.iter().find(|(_, l)| CHAOS_REGIONS.contains(&l[0].text)) {
                let why = format!(
                    "{} with chaos: it reads the boxes or regions, and the regions are the ones found; not read yet",
                    quote(line[0].text)
                );
                return Err(p.error(Pos { line: *number, ..line[0].pos }, why));
            }
        }
        if self.regions.is_none() && self.boxes.is_none() && self.box_pos.is_none() {
            return Err(p.error(
                start,
                format!("size {n} has no usual box shape: give \"box RxC\", \"box none\" or \"regions\""),
            ));
        }
        if let Some((pos, labels)) = &self.regions {
            let mut order: Vec<char> = Vec::new();
            for &(c, _) in labels {
                if !order.contains(&c) {
                    order.push(c);
                }
            }
            for label in order {
                let cells: Vec<Cell> = labels
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| l.0 == label)
                    .map(|(i, _)| Cell::new(i / cols, i % cols))
                    .collect();
                let at = labels.iter().find(|l| l.0 == label).map_or(*pos, |l| l.1);
                puzzle
                    .add_region(cells)
                    .map_err(|e| p.error(at, format!("region {}: {e}", quote(&label.to_string()))))?;
            }
        }
        let outside = match self.outside {
            Some((count, at)) => puzzle.add_vars(count).map_err(model(at))?,
            None => Vec::new(),
        };
        if let Some((pos, digits)) = &self.givens {
            for (i, d) in digits.iter().enumerate() {
                if let Some(d) = d {
                    puzzle.set_given(Cell::new(i / cols, i % cols), *d).map_err(model(*pos))?;
                }
            }
        }
        let chaos = self.chaos.is_some();
        let grid = Grid { rows, cols, digits: values, outside, restricted, at: outside_at.or(values_at), chaos };
        if let Some((number, line)) =
            self.regions.as_ref().and(self.lines.iter().find(|(_, l)| l[0].text == "doppelganger"))
        {
            let why =
                "doppelganger with regions: ISS's reads the rows, columns and boxes; a jigsaw's pieces are not read";
            return Err(p.error(Pos { line: *number, ..line[0].pos }, why));
        }
        // The rules on a chaos construction's regions are read once the
        // model has them (after `into_chaos`).
        let (on_regions, on_grid): (Vec<Line>, Vec<Line>) = self.lines.into_iter().partition(|(_, l)| on_labels(l));
        if let Some((number, line)) = on_regions.first().filter(|_| !chaos) {
            let why = format!("{}: region runs and region labels (@) on a chaos construction only", line[0].text);
            return Err(p.error(Pos { line: *number, ..line[0].pos }, why));
        }
        let mut ctx = Context::new();
        add_lines(p, &on_grid, &grid, Scope::ROOT, &mut puzzle, &mut ctx)?;
        ctx.finish(&mut puzzle).map_err(|e| p.error(start, e.message))?;
        let Some(at) = self.chaos else { return Ok(puzzle) };
        let mut puzzle = puzzle.into_chaos().map_err(model(at))?;
        let mut ctx = Context::new();
        add_lines(p, &on_regions, &grid, Scope::ROOT, &mut puzzle, &mut ctx)?;
        ctx.finish(&mut puzzle).map_err(|e| p.error(start, e.message))?;
        Ok(puzzle)
    }
}

/// The rules that read the boxes or regions (region-sum lines, box
/// indexers, disjoint groups): refused with `chaos`, whose regions are
/// unknown.
const CHAOS_REGIONS: &[&str] = &["region-sum", "box-index", "disjoint"];

/// What the rule lines may name: the grid's rows and columns, its digits
/// (1 to `digits`), the cells outside it (`v1`, `v2`, ...), and, on a
/// grid that is not a square of digits 1 to its side, what it is (only
/// the rules of [`NOT_SQUARE`] are read there).
pub(super) struct Grid {
    rows: usize,
    cols: usize,
    digits: usize,
    outside: Vec<Cell>,
    /// What the grid is where it is not a square of digits 1 to its side,
    /// each with the rules read there.
    restricted: Vec<(&'static str, &'static [&'static str])>,
    /// Where the directive that restricts it stands, if a line says so.
    at: Option<Pos>,
    /// A chaos construction: `@r1c1` names the region label of `r1c1`.
    chaos: bool,
}

/// The rules read on a rectangle, a grid of more values than its side, or
/// with cells outside the grid: those that name all their cells and mean
/// the same whatever the side (the digits listed, their sums, orders,
/// differences, ratios and equalities; a whisper with its difference
/// given), as ISS reads them there (`src/parse/iss.rs`'s `RECTANGLE`,
/// `MORE_VALUES` and `VAR`). The anti-knight and anti-king rules read any
/// grid's cells, not the cells outside. Others (outside clues, diagonals,
/// rules that split the values or read the boxes) are refused by name.
#[rustfmt::skip]
const NOT_SQUARE: &[&str] = &[
    "extra", "killer", "arrow", "double-arrow", "thermo", "slow-thermo", "greater", "white", "black", "x",
    "v", "sum", "odd", "even", "palindrome", "clone", "renban", "whisper", "between", "state-machine",
    "same-values", "equal-sums", "quadruple", "given", "antiknight", "antiking", "regex", "pair", "pair-all",
    "contain-at-least", "doppelganger", "sum-of",
];

/// Whether a rule line reads a chaos construction's regions: region runs,
/// or a rule naming a region label (`@r1c1`).
fn on_labels(line: &[Word]) -> bool {
    matches!(line[0].text, "chaos-arrow" | "chaos-count") || line.iter().any(|w| w.text.starts_with('@'))
}

/// The rules read on a grid whose values run from 0 (`values 0-V`):
/// those whose meaning reads differences, orders or equalities of values
/// (the same on the digits that stand for them), sums of values (the
/// builders count the shift: cages, arrows of one circle cell, equal
/// sums), all-different sets, given values, and the doppelganger. Those
/// that read values themselves (parities, ratios, X and V, listed digits,
/// patterns) are refused by name there: ISS strings read more of them.
#[rustfmt::skip]
const FROM_ZERO: &[&str] = &[
    "thermo", "slow-thermo", "greater", "white", "renban", "whisper", "between", "palindrome", "clone",
    "extra", "same-values", "killer", "arrow", "equal-sums", "antiknight", "antiking", "diagonal+",
    "diagonal-", "disjoint", "nonconsecutive", "lockout", "modular", "doppelganger", "given", "sum-of",
];

/// A rule line: its number and words.
type Line<'a> = (usize, Vec<Word<'a>>);

/// Where rule lines are read: the shift their cells move by (inside
/// `replicate` blocks), how many copies of them the blocks around make,
/// and how many blocks are around them.
#[derive(Clone, Copy)]
struct Scope {
    shift: (isize, isize),
    copies: usize,
    depth: usize,
}

impl Scope {
    const ROOT: Scope = Scope { shift: (0, 0), copies: 1, depth: 0 };
}

/// The most copies of a line that `replicate` blocks make, nested ones
/// multiplied: memory stays proportional to the puzzle.
const MOST_COPIES: usize = 4096;

/// Adds the rule lines to `puzzle`: each a rule, an `either` block
/// (`either`, the alternatives' lines split at `or` lines, `end`), which
/// becomes one [`Constraint::AnyOf`], or a `replicate` block (`replicate
/// ORIGIN : TARGETS`, lines, `end`: the lines once for each target, their
/// cells shifted so that the origin falls on it; ISS's `Replicate`);
/// blocks nest, up to [`rules::MOST_NESTED`].
fn add_lines(
    p: &Parser,
    lines: &[Line],
    grid: &Grid,
    scope: Scope,
    puzzle: &mut Puzzle,
    ctx: &mut Context,
) -> Result<(), ParseError> {
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i].1;
        let head = line[0];
        if let Some(extra) = line.get(1).filter(|_| matches!(head.text, "either" | "or" | "end")) {
            return Err(
                p.error(extra.pos, format!("expected nothing after {}, found {}", head.text, quote(extra.text)))
            );
        }
        match head.text {
            "either" | "replicate" if scope.depth == rules::MOST_NESTED => {
                let why = format!("{} blocks nested deeper than {}: not read", head.text, rules::MOST_NESTED);
                return Err(p.error(head.pos, why));
            }
            "either" => {
                let (branches, next) = either_block(p, lines, i)?;
                let start = puzzle.branch();
                let mut alternatives = Vec::with_capacity(branches.len());
                for (at, branch_lines) in branches {
                    let mut branch = start.clone();
                    let mut own = Context::new();
                    let inner = Scope { depth: scope.depth + 1, ..scope };
                    add_lines(p, branch_lines, grid, inner, &mut branch, &mut own)?;
                    let found = rules::alternative(&start, &branch, &own, ctx).map_err(|e| p.error(at, e.message))?;
                    alternatives.extend(found);
                }
                puzzle
                    .add_constraint(Constraint::AnyOf { alternatives })
                    .map_err(|e| p.error(head.pos, e.to_string()))?;
                i = next;
            }
            "replicate" => {
                let (body, next) = either_block(p, lines, i)?;
                let [(_, body)] = body[..] else {
                    let or =
                        lines[i + 1..next].iter().find(|(_, l)| l[0].text == "or").map_or(head.pos, |l| l.1[0].pos);
                    return Err(p.error(or, "or inside a replicate block: its lines are copies, not alternatives"));
                };
                let directive = Directive { p, line, grid, shift: scope.shift };
                let (origin, targets) = directive.replicate()?;
                let copies = scope.copies.saturating_mul(targets.len());
                if copies > MOST_COPIES {
                    let why = format!("replicate blocks making {copies} copies of a line: more than {MOST_COPIES}");
                    return Err(p.error(head.pos, why));
                }
                for target in targets {
                    let shift = (
                        scope.shift.0 + target.row as isize - origin.row as isize,
                        scope.shift.1 + target.col as isize - origin.col as isize,
                    );
                    let inner = Scope { shift, copies, depth: scope.depth + 1 };
                    add_lines(p, body, grid, inner, puzzle, ctx)?;
                }
                i = next;
            }
            "or" | "end" => {
                let block = if head.text == "or" { "an either block" } else { "an either or replicate block" };
                return Err(p.error(head.pos, format!("{} outside {block}", head.text)));
            }
            _ => {
                Directive { p, line, grid, shift: scope.shift }.add(puzzle, ctx)?;
                i += 1;
            }
        }
    }
    Ok(())
}

/// The alternatives of the `either` block that starts at `lines[start]`
/// (each with where it starts, for errors), and the index past its `end`.
#[allow(clippy::type_complexity)]
fn either_block<'l, 'a>(
    p: &Parser,
    lines: &'l [Line<'a>],
    start: usize,
) -> Result<(Vec<(Pos, &'l [Line<'a>])>, usize), ParseError> {
    let mut depth = 0;
    let mut branches = Vec::new();
    let (mut from, mut at) = (start + 1, lines[start].1[0].pos);
    for (i, (_, line)) in lines.iter().enumerate().skip(start + 1) {
        match (line[0].text, depth) {
            ("either" | "replicate", _) => depth += 1,
            ("end", 0) => {
                branches.push((at, &lines[from..i]));
                return Ok((branches, i + 1));
            }
            ("end", _) => depth -= 1,
            ("or", 0) => {
                branches.push((at, &lines[from..i]));
                (from, at) = (i + 1, line[0].pos);
            }
            _ => {}
        }
    }
    let what = if lines[start].1[0].text == "either" { "an either" } else { "a replicate" };
    Err(p.error(lines[start].1[0].pos, format!("{what} block with no end: close it with a line \"end\"")))
}
