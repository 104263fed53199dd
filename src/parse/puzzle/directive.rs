//! The constraint lines of the `puzzle` format: one [`Directive`] a line,
//! turned into the model's rules through [`super::super::rules`].

use std::cmp::Ordering;

use super::{Parser, Word};
use crate::model::{Cell, Constraint, Digit, ModelError, Predicate, Puzzle};
use crate::parse::rules::{self, Global, Marker};
use crate::parse::{quote, ParseError, Pos};

/// The constraints the format names, for messages.
const DIRECTIVES: &str = "size, box, givens, regions, diagonal+, diagonal-, antiknight, antiking, \
     nonconsecutive, windoku, disjoint, extra, killer, little-killer, arrow, thermo, slow-thermo, greater, \
     white, black, x, v, sum, odd, even, minimum, maximum, palindrome, clone, whisper, renban, between, \
     quadruple, negative";

/// A constraint line's cells before a `:`, after it, and the number after `=`.
type Parts = (Vec<Cell>, Vec<Cell>, Option<(i64, Pos)>);

/// One constraint line being read.
pub(super) struct Directive<'p, 'a, 'w> {
    pub(super) p: &'p Parser<'a>,
    pub(super) puzzle: &'p mut Puzzle,
    pub(super) cages: &'p mut rules::Cages,
    pub(super) line: &'p [Word<'w>],
    pub(super) n: usize,
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
    pub(super) fn directive(&mut self) -> Result<Option<(Marker, Cell, Cell)>, ParseError> {
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
                    // Checked here too, to point at the sum itself.
                    let (k, n) = (cells.len() as i64, self.n as i64);
                    let (lo, hi) = rules::distinct_sum_range(k, n);
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
