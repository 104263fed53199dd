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

use std::cmp::Ordering;

use super::grid::{box_shape, read_row};
use super::rules::{self, Global, Marker, Negative};
use super::{quote, ParseError, Pos};
use crate::model::{Cell, Constraint, Digit, ModelError, Predicate, Puzzle};

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

/// The constraints the format names, for messages.
const DIRECTIVES: &str = "size, box, givens, regions, diagonal+, diagonal-, antiknight, antiking, \
     nonconsecutive, windoku, disjoint, extra, killer, little-killer, arrow, thermo, slow-thermo, greater, \
     white, black, x, v, sum, odd, even, minimum, maximum, palindrome, clone, whisper, renban, between, \
     quadruple, negative";

struct Parser<'a> {
    name: &'a str,
    lines: Vec<&'a str>,
    next: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, pos: Pos, message: impl Into<String>) -> ParseError {
        pos.error(self.name, message)
    }

    /// The next line that has words, with its number.
    fn next_line(&mut self) -> Option<(usize, Vec<Word<'a>>)> {
        while self.next < self.lines.len() {
            let number = self.next + 1;
            let line = self.lines[self.next];
            self.next += 1;
            let found = words(line, number);
            if !found.is_empty() {
                return Some((number, found));
            }
        }
        None
    }

    fn end(&self) -> Pos {
        Pos { line: self.lines.len().max(1), col: self.lines.last().map_or(0, |l| l.chars().count()) + 1 }
    }
}

/// Parses a `puzzle` file.
pub fn parse_puzzle(text: &str, name: &str) -> Result<Puzzle, ParseError> {
    let mut p = Parser { name, lines: text.lines().collect(), next: 0 };
    let Some((_, first)) = p.next_line() else {
        return Err(p.error(Pos { line: 1, col: 1 }, "expected \"size N\", found end of input"));
    };
    if first[0].text != "size" {
        return Err(p.error(first[0].pos, format!("expected \"size N\" first, found {}", quote(first[0].text))));
    }
    let side = match first.get(1).map(|w| (w, w.text.parse::<usize>())) {
        Some((_, Ok(n))) if (1..=crate::model::MAX_SIDE).contains(&n) && first.len() == 2 => n,
        Some((w, _)) => {
            let message =
                format!("expected a grid side 1..{} after \"size\", found {}", crate::model::MAX_SIDE, quote(w.text));
            return Err(p.error(w.pos, message));
        }
        None => return Err(p.error(first[0].pos, "expected a grid side after \"size\"")),
    };
    let mut b = Builder { side, boxes: box_shape(side), box_pos: None, regions: None, givens: None, lines: Vec::new() };
    while let Some((number, line)) = p.next_line() {
        let head = line[0];
        match head.text {
            "box" => {
                let Some(arg) = line.get(1) else {
                    return Err(p.error(head.pos, "expected \"box RxC\" or \"box none\""));
                };
                b.boxes = match arg.text {
                    "none" => None,
                    text => Some(super::grid::parse_box(text, side).map_err(|m| p.error(arg.pos, m))?),
                };
                b.box_pos = Some(arg.pos);
            }
            "givens" => {
                let mut digits = Vec::with_capacity(side * side);
                for _ in 0..side {
                    let Some((row_number, _)) = p.next_line() else {
                        return Err(p.error(p.end(), format!("expected {side} rows of givens, found end of input")));
                    };
                    let raw = p.lines[row_number - 1].split('#').next().unwrap_or("");
                    digits.extend(read_row(raw, row_number, side, name)?);
                }
                b.givens = Some((head.pos, digits));
            }
            "regions" => {
                let mut labels = Vec::with_capacity(side * side);
                for _ in 0..side {
                    let Some((row_number, row)) = p.next_line() else {
                        return Err(
                            p.error(p.end(), format!("expected {side} rows of region labels, found end of input"))
                        );
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
                    if chars.len() != side {
                        let at = chars.get(side).map_or(row[0].pos, |c| c.1);
                        return Err(
                            p.error(at, format!("expected {side} region labels in the row, found {}", chars.len()))
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
    side: usize,
    boxes: Option<(usize, usize)>,
    box_pos: Option<Pos>,
    regions: Option<(Pos, Vec<(char, Pos)>)>,
    givens: Option<(Pos, Vec<Option<Digit>>)>,
    lines: Vec<(usize, Vec<Word<'a>>)>,
}

impl Builder<'_> {
    fn build(self, p: &Parser) -> Result<Puzzle, ParseError> {
        let n = self.side;
        let model = |pos: Pos| move |e: ModelError| p.error(pos, e.to_string());
        let mut puzzle = match (self.boxes, &self.regions) {
            (Some((h, w)), None) => Puzzle::sudoku(h, w).map_err(model(Pos { line: 1, col: 1 }))?,
            (_, Some(_)) | (None, None) => Puzzle::latin(n).map_err(model(Pos { line: 1, col: 1 }))?,
        };
        if self.regions.is_none() && self.boxes.is_none() && self.box_pos.is_none() {
            return Err(p.error(
                Pos { line: 1, col: 1 },
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
                    .map(|(i, _)| Cell::new(i / n, i % n))
                    .collect();
                let at = labels.iter().find(|l| l.0 == label).map_or(*pos, |l| l.1);
                puzzle
                    .add_region(cells)
                    .map_err(|e| p.error(at, format!("region {}: {e}", quote(&label.to_string()))))?;
            }
        }
        if let Some((pos, digits)) = &self.givens {
            for (i, d) in digits.iter().enumerate() {
                if let Some(d) = d {
                    puzzle.set_given(Cell::new(i / n, i % n), *d).map_err(model(*pos))?;
                }
            }
        }
        let mut negatives = Vec::new();
        let mut marked = Vec::new();
        let mut cages = rules::Cages::default();
        for (_, line) in &self.lines {
            if line[0].text == "negative" {
                if line.len() == 1 {
                    return Err(p.error(line[0].pos, "expected white, black, x or v after \"negative\""));
                }
                for w in &line[1..] {
                    negatives.push(match w.text {
                        "white" => Negative::White,
                        "black" => Negative::Black,
                        "x" => Negative::X,
                        "v" => Negative::V,
                        other => {
                            let message =
                                format!("expected white, black, x or v after \"negative\", found {}", quote(other));
                            return Err(p.error(w.pos, message));
                        }
                    });
                }
                continue;
            }
            let mut c = Directive { p, puzzle: &mut puzzle, cages: &mut cages, line, n };
            if let Some(marker) = c.directive()? {
                marked.push(marker);
            }
        }
        for kind in negatives {
            rules::negative(&mut puzzle, kind, &marked).map_err(|e| p.error(Pos { line: 1, col: 1 }, e))?;
        }
        Ok(puzzle)
    }
}

/// A constraint line's cells before a `:`, after it, and the number after `=`.
type Parts = (Vec<Cell>, Vec<Cell>, Option<(i64, Pos)>);

/// One constraint line being read.
struct Directive<'p, 'a, 'w> {
    p: &'p Parser<'a>,
    puzzle: &'p mut Puzzle,
    cages: &'p mut rules::Cages,
    line: &'p [Word<'w>],
    n: usize,
}

impl<'w> Directive<'_, '_, 'w> {
    fn err(&self, pos: Pos, message: impl Into<String>) -> ParseError {
        self.p.error(pos, message)
    }

    fn head(&self) -> Word<'w> {
        self.line[0]
    }

    /// The cells of the line (after the head), up to a `:` or `=`, and
    /// what follows: the words after `:`, and the number after `=`.
    fn parts(&self) -> Result<Parts, ParseError> {
        let (mut first, mut second, mut value) = (Vec::new(), Vec::new(), None);
        let mut after_colon = false;
        let mut words = self.line[1..].iter();
        while let Some(w) = words.next() {
            match w.text {
                ":" if !after_colon => after_colon = true,
                "=" => {
                    let Some(v) = words.next() else { return Err(self.err(w.pos, "expected a number after '='")) };
                    let number = v.text.parse::<i64>().map_err(|_| {
                        self.err(v.pos, format!("expected a number after '=', found {}", quote(v.text)))
                    })?;
                    value = Some((number, v.pos));
                    if let Some(extra) = words.next() {
                        return Err(self.err(
                            extra.pos,
                            format!("expected the end of the line after the number, found {}", quote(extra.text)),
                        ));
                    }
                }
                text => {
                    let cell = self.cell(text, w.pos)?;
                    if after_colon { &mut second } else { &mut first }.push(cell);
                }
            }
        }
        Ok((first, second, value))
    }

    fn cell(&self, text: &str, pos: Pos) -> Result<Cell, ParseError> {
        let bad = || self.err(pos, format!("expected a cell such as r1c1, found {}", quote(text)));
        let rest = text.strip_prefix(['r', 'R']).ok_or_else(bad)?;
        let (row, col) = rest.split_once(['c', 'C']).ok_or_else(bad)?;
        let (row, col) = (row.parse::<usize>().map_err(|_| bad())?, col.parse::<usize>().map_err(|_| bad())?);
        if !(1..=self.n).contains(&row) || !(1..=self.n).contains(&col) {
            return Err(self.err(pos, format!("cell {} is outside the {n} x {n} grid", quote(text), n = self.n)));
        }
        Ok(Cell::new(row - 1, col - 1))
    }

    fn model(&self, e: ModelError) -> ParseError {
        self.err(self.head().pos, format!("{}: {e}", self.head().text))
    }

    fn relate(&mut self, a: Cell, b: Cell, predicate: Predicate) -> Result<(), ParseError> {
        self.puzzle.add_relation(a, b, predicate).map_err(|e| self.model(e))
    }

    fn constrain(&mut self, c: Constraint) -> Result<(), ParseError> {
        self.puzzle.add_constraint(c).map_err(|e| self.model(e))
    }

    fn group(&mut self, cells: Vec<Cell>) -> Result<(), ParseError> {
        self.puzzle.add_group(cells).map_err(|e| self.model(e))
    }

    /// Requires exactly `count` cells (or at least, with `at_least`), no `:` part.
    fn expect_cells(&self, cells: &[Cell], second: &[Cell], count: usize, at_least: bool) -> Result<(), ParseError> {
        let head = self.head();
        if !second.is_empty() {
            return Err(self.err(head.pos, format!("{} takes no ':' part", head.text)));
        }
        let ok = if at_least { cells.len() >= count } else { cells.len() == count };
        if !ok {
            let wanted = if at_least { format!("at least {count}") } else { count.to_string() };
            return Err(self.err(head.pos, format!("{} takes {wanted} cells, found {}", head.text, cells.len())));
        }
        Ok(())
    }

    /// `quadruple CELL D...`: the 2 x 2 from CELL holds the digits.
    fn quadruple(&mut self) -> Result<(), ParseError> {
        let (head, n) = (self.head(), self.n);
        let corner = self.line.get(1).ok_or_else(|| self.err(head.pos, "quadruple takes a cell, then digits"))?;
        let cell = self.cell(corner.text, corner.pos)?;
        if cell.row + 1 >= n || cell.col + 1 >= n {
            return Err(self.err(corner.pos, "quadruple: the cell is the top left of a 2 x 2 inside the grid"));
        }
        let mut digits = Vec::new();
        for w in &self.line[2..] {
            match w.text.parse::<Digit>() {
                Ok(d) if (1..=n).contains(&usize::from(d)) => digits.push(d),
                _ => return Err(self.err(w.pos, format!("expected a digit 1..{n}, found {}", quote(w.text)))),
            }
        }
        let cells = itertools::iproduct!(0..2, 0..2).map(|(i, j)| Cell::new(cell.row + i, cell.col + j)).collect();
        self.constrain(Constraint::Contains { cells, digits })?;
        Ok(())
    }

    /// Adds a rule, or says why it cannot be added, at the directive.
    fn rule(&mut self, add: impl FnOnce(&mut Puzzle) -> Result<(), String>) -> Result<(), ParseError> {
        let head = self.head();
        add(self.puzzle).map_err(|e| self.err(head.pos, format!("{}: {e}", head.text)))
    }

    /// Reads one constraint line; a marker (`white`, `black`, `x`, `v`) is
    /// returned with its cells for the negative constraints.
    fn directive(&mut self) -> Result<Option<(Marker, Cell, Cell)>, ParseError> {
        let head = self.head();
        if head.text == "quadruple" {
            self.quadruple()?;
            return Ok(None);
        }
        let (cells, second, value) = self.parts()?;
        let no_value = |this: &Self| match value {
            Some((_, pos)) => Err(this.err(pos, format!("{} takes no '= N'", head.text))),
            None => Ok(()),
        };
        let positive = |this: &Self, default: u32| match value {
            None => Ok(default),
            Some((v, _)) if (1..=4096).contains(&v) => Ok(v as u32),
            Some((v, pos)) => Err(this.err(pos, format!("expected a positive number, found {v}"))),
        };
        let global = match head.text {
            "diagonal+" => Some(Global::AntiDiagonal),
            "diagonal-" => Some(Global::MainDiagonal),
            "antiknight" => Some(Global::AntiKnight),
            "antiking" => Some(Global::AntiKing),
            "nonconsecutive" => Some(Global::Nonconsecutive),
            "windoku" => Some(Global::Windoku),
            "disjoint" => Some(Global::DisjointGroups),
            _ => None,
        };
        if let Some(rule) = global {
            if !cells.is_empty() || !second.is_empty() || value.is_some() {
                return Err(self.err(head.pos, format!("{} takes no cells: it applies to the whole grid", head.text)));
            }
            self.rule(|p| rules::global(p, rule))?;
            return Ok(None);
        }
        match head.text {
            "extra" => {
                no_value(self)?;
                self.expect_cells(&cells, &second, 1, true)?;
                self.group(cells)?;
            }
            "killer" => {
                self.expect_cells(&cells, &second, 1, true)?;
                if let Some((sum, pos)) = value {
                    let (k, n) = (cells.len() as i64, self.n as i64);
                    let (lo, hi) = (k * (k + 1) / 2, k * (2 * n - k + 1) / 2);
                    if k <= n && !(lo..=hi).contains(&sum) {
                        return Err(
                            self.err(pos, format!("a cage of {k} distinct digits sums to {lo}..{hi}, not {sum}"))
                        );
                    }
                }
                let (head, cages) = (self.head(), &mut *self.cages);
                rules::killer(self.puzzle, cages, cells, value.map(|v| v.0))
                    .map_err(|e| self.p.error(head.pos, format!("killer: {e}")))?;
            }
            "little-killer" => {
                self.expect_cells(&cells, &second, 1, true)?;
                let Some((sum, _)) = value else { return Err(self.err(head.pos, "little-killer needs '= SUM'")) };
                self.rule(|p| rules::little_killer(p, &cells, sum))?;
            }
            "arrow" => {
                no_value(self)?;
                if cells.is_empty() || second.is_empty() {
                    return Err(self.err(head.pos, "arrow takes the circle's cells, ':', then the line's cells"));
                }
                self.rule(|p| rules::arrow(p, &cells, &second))?;
            }
            "thermo" | "slow-thermo" => {
                no_value(self)?;
                self.expect_cells(&cells, &second, 2, true)?;
                let predicate = if head.text == "thermo" { Predicate::Less } else { Predicate::LessOrEqual };
                self.rule(|p| rules::along(p, &cells, predicate))?;
            }
            "greater" => {
                no_value(self)?;
                self.expect_cells(&cells, &second, 2, false)?;
                self.relate(cells[1], cells[0], Predicate::Less)?;
            }
            "white" | "black" | "x" | "v" => {
                self.expect_cells(&cells, &second, 2, false)?;
                let marker = match head.text {
                    "white" => Marker::White(positive(self, 1)?),
                    "black" => Marker::Black(positive(self, 2)?),
                    "x" => no_value(self).map(|()| Marker::X)?,
                    _ => no_value(self).map(|()| Marker::V)?,
                };
                self.relate(cells[0], cells[1], marker.predicate())?;
                return Ok(Some((marker, cells[0], cells[1])));
            }
            "sum" => {
                self.expect_cells(&cells, &second, 2, false)?;
                let Some((target, pos)) = value else { return Err(self.err(head.pos, "sum needs '= N'")) };
                let target = u32::try_from(target)
                    .map_err(|_| self.err(pos, format!("expected a positive number, found {target}")))?;
                self.relate(cells[0], cells[1], Predicate::Sum { cmp: Ordering::Equal, target })?;
            }
            "odd" | "even" => {
                no_value(self)?;
                self.expect_cells(&cells, &second, 1, true)?;
                for cell in cells {
                    self.rule(|p| rules::parity(p, cell, head.text == "odd"))?;
                }
            }
            "minimum" | "maximum" => {
                no_value(self)?;
                self.expect_cells(&cells, &second, 1, true)?;
                for cell in cells {
                    self.rule(|p| rules::extremum(p, cell, head.text == "minimum"))?;
                }
            }
            "palindrome" => {
                no_value(self)?;
                self.expect_cells(&cells, &second, 2, true)?;
                self.rule(|p| rules::palindrome(p, &cells))?;
            }
            "clone" => {
                no_value(self)?;
                if cells.is_empty() || cells.len() != second.len() {
                    return Err(self.err(head.pos, "clone takes cells, ':', then as many cells"));
                }
                for (&a, &b) in cells.iter().zip(&second) {
                    self.relate(a, b, Predicate::Equal)?;
                }
            }
            "whisper" => {
                self.expect_cells(&cells, &second, 2, true)?;
                let min = positive(self, 5)?;
                self.rule(|p| rules::along(p, &cells, Predicate::DifferenceAtLeast { min }))?;
            }
            "renban" => {
                no_value(self)?;
                self.expect_cells(&cells, &second, 2, true)?;
                self.rule(|p| rules::renban(p, cells))?;
            }
            "between" => {
                no_value(self)?;
                self.expect_cells(&cells, &second, 2, true)?;
                self.rule(|p| rules::between(p, &cells))?;
            }
            other => {
                return Err(
                    self.err(head.pos, format!("unknown directive {}: expected one of {DIRECTIVES}", quote(other)))
                );
            }
        }
        Ok(None)
    }
}
