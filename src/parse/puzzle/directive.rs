//! The rule lines of the `puzzle` format: a keyword of the rule table
//! ([`crate::model::rules`]) and its arguments, read by the rule's shape
//! into [`Args`]; errors point at the word that is wrong.

use super::{Grid, Parser, Word};
use crate::model::rules::{self, Args, Context, Rule, Shape, Value};
use crate::model::{Cell, Puzzle};
use crate::parse::{quote, ParseError, Pos};

/// One rule line being read.
pub(super) struct Directive<'p, 'a, 'w> {
    pub(super) p: &'p Parser<'a>,
    pub(super) line: &'p [Word<'w>],
    pub(super) grid: &'p Grid,
    /// How far its cells move (rows, columns), inside `replicate` blocks.
    pub(super) shift: (isize, isize),
}

/// A rule line's cells before a `:`, after it, and the number after `=`.
struct Parts {
    first: Vec<Cell>,
    second: Option<Vec<Cell>>,
    value: Option<(i64, Pos)>,
}

impl Directive<'_, '_, '_> {
    fn err(&self, pos: Pos, message: impl Into<String>) -> ParseError {
        self.p.error(pos, message)
    }

    fn head(&self) -> Word<'_> {
        self.line[0]
    }

    /// Reads the line and adds its rule to `puzzle`.
    pub(super) fn add(&self, puzzle: &mut Puzzle, ctx: &mut Context) -> Result<(), ParseError> {
        let head = self.head();
        let Some(rule) = rules::by_keyword(head.text) else {
            return Err(self.err(
                head.pos,
                format!(
                    "unknown directive {}: expected size, box, givens, regions, chaos or a rule ({})",
                    quote(head.text),
                    rules::keywords()
                ),
            ));
        };
        let said = self.grid.at.map_or(String::new(), |at| format!(" (line {})", at.line));
        for &(what, read) in &self.grid.restricted {
            if matches!(head.text, "antiknight" | "antiking") && !self.grid.outside.is_empty() {
                let why = format!("{} with {what}{said}: it reads the whole grid; not read there", head.text);
                return Err(self.err(head.pos, why));
            }
            if !read.contains(&head.text) {
                let why = format!(
                    "{} on {what}{said}: not read there; the rules read there are {} (docs/formats.md)",
                    head.text,
                    read.join(", ")
                );
                return Err(self.err(head.pos, why));
            }
        }
        self.labels_fit(head)?;
        let (args, value_pos) = self.args(rule)?;
        if !self.grid.restricted.is_empty() && head.text == "whisper" && args.value.is_none() {
            let why = "whisper without '= N' on this grid: its usual difference is the side's; give it";
            return Err(self.err(head.pos, why));
        }
        (rule.build)(puzzle, &args, ctx).map_err(|e| {
            let at = if e.at_value { value_pos.unwrap_or(head.pos) } else { head.pos };
            self.err(at, format!("{}: {e}", head.text))
        })
    }

    /// Region labels (`@r1c1`) in `same-values` (every cell) and
    /// `count-distinct` (every cell but the first): rules that ask only
    /// which labels are equal, so that satsudoku's labels may stand for
    /// any numbering (docs/rules.md, "Chaos construction"). Elsewhere, or
    /// mixed with grid cells there, a label would be compared with a digit.
    fn labels_fit(&self, head: Word) -> Result<(), ParseError> {
        let cells = self.line[1..].iter().filter(|w| !matches!(w.text, ":" | "="));
        let Some(label) = self.line[1..].iter().find(|w| w.text.starts_with('@')) else { return Ok(()) };
        let fits = match head.text {
            "same-values" => cells.clone().all(|w| w.text.starts_with('@')),
            "count-distinct" => {
                cells.clone().skip(1).all(|w| w.text.starts_with('@')) && !self.line[1].text.starts_with('@')
            }
            _ => false,
        };
        if fits {
            return Ok(());
        }
        let why = match head.text {
            "same-values" | "count-distinct" => format!(
                "{}: region labels such as {} with grid cells: not read (a label would be compared with a digit; \
                 same-values takes labels only, count-distinct a grid cell and then labels)",
                head.text,
                quote(label.text)
            ),
            _ => format!(
                "{} in {}: region labels are read in same-values and count-distinct only",
                quote(label.text),
                head.text
            ),
        };
        Err(self.err(label.pos, why))
    }

    /// The rule's arguments, as its shape says, and where its number is.
    fn args(&self, rule: &Rule) -> Result<(Args, Option<Pos>), ParseError> {
        let mut at = None;
        let args = self.read_args(rule, &mut at)?;
        Ok((args, at))
    }

    fn read_args(&self, rule: &Rule, value_at: &mut Option<Pos>) -> Result<Args, ParseError> {
        let head = self.head();
        let words = &self.line[1..];
        match rule.shape {
            Shape::Whole => {
                if let Some(w) = words.first() {
                    return Err(self.err(w.pos, format!("{} takes nothing: it applies to the whole grid", head.text)));
                }
                Ok(Args::default())
            }
            Shape::Names => {
                if words.is_empty() {
                    return Err(self.err(head.pos, format!("{} takes names, such as: {}", head.text, rule.example)));
                }
                Ok(Args { list: words.iter().map(|w| w.text.to_owned()).collect(), ..Args::default() })
            }
            Shape::Quad => self.quad(),
            Shape::Parts => self.cell_parts(rule, &self.line[1..], 2),
            Shape::Runs => self.runs(rule, value_at),
            Shape::Terms => self.terms(rule, value_at),
            Shape::WordParts => {
                let Some(word) = self.line.get(1) else {
                    let why = format!("{} takes a word, then cells: {}", head.text, rule.example);
                    return Err(self.err(head.pos, why));
                };
                let args = self.cell_parts(rule, &self.line[2..], 1)?;
                Ok(Args { list: vec![word.text.to_owned()], ..args })
            }
            _ => {
                let parts = self.parts(rule.shape == Shape::Outside)?;
                let value = self.value(rule, &parts)?;
                *value_at = parts.value.map(|(_, pos)| pos);
                let (min, max, colon) = match rule.shape {
                    Shape::Cells { min } | Shape::Line { min } => (min, usize::MAX, false),
                    Shape::EachCell => (1, usize::MAX, false),
                    Shape::Pair => (2, 2, false),
                    Shape::Outside => (1, 1, false),
                    _ => (1, usize::MAX, true),
                };
                let count = parts.first.len();
                match (&parts.second, colon) {
                    (Some(_), false) => return Err(self.err(head.pos, format!("{} takes no ':' part", head.text))),
                    (None, true) => {
                        return Err(self.err(
                            head.pos,
                            format!("{} takes cells, ':', then more cells: {}", head.text, rule.example),
                        ))
                    }
                    _ => {}
                }
                if count < min || count > max {
                    let wanted = match (min, max) {
                        (min, usize::MAX) => format!("at least {min}"),
                        (min, max) if min == max => min.to_string(),
                        (min, max) => format!("{min} to {max}"),
                    };
                    return Err(self.err(head.pos, format!("{} takes {wanted} cells, found {count}", head.text)));
                }
                let second = parts.second.unwrap_or_default();
                if rule.shape == Shape::Copies && second.len() != count {
                    return Err(self.err(head.pos, format!("{} takes cells, ':', then as many cells", head.text)));
                }
                if rule.shape == Shape::Outside {
                    let cells = self.looking_in(parts.first[0], head.pos)?;
                    return Ok(Args { cells, value, ..Args::default() });
                }
                Ok(Args { cells: parts.first, second, value, ..Args::default() })
            }
        }
    }

    /// The number after `=`, as the rule wants it.
    fn value(&self, rule: &Rule, parts: &Parts) -> Result<Option<i64>, ParseError> {
        let head = self.head();
        match (rule.value, parts.value) {
            (Value::No, Some((_, pos))) => Err(self.err(pos, format!("{} takes no '= N'", head.text))),
            (Value::Required, None) => Err(self.err(head.pos, format!("{} needs '= N': {}", head.text, rule.example))),
            (_, value) => Ok(value.map(|(v, _)| v)),
        }
    }

    /// The cells of the line (after the head), up to a `:` or `=`, and
    /// what follows: the cells after `:`, and the number after `=`.
    /// `outside`: a cell may be just outside the grid (row or column 0 or
    /// side + 1), as a clue is.
    fn parts(&self, outside: bool) -> Result<Parts, ParseError> {
        let mut parts = Parts { first: Vec::new(), second: None, value: None };
        let mut words = self.line[1..].iter();
        while let Some(w) = words.next() {
            match w.text {
                ":" if parts.second.is_none() => parts.second = Some(Vec::new()),
                "=" => {
                    let Some(v) = words.next() else { return Err(self.err(w.pos, "expected a number after '='")) };
                    let number = v.text.parse::<i64>().map_err(|_| {
                        self.err(v.pos, format!("expected a number after '=', found {}", quote(v.text)))
                    })?;
                    parts.value = Some((number, v.pos));
                    if let Some(extra) = words.next() {
                        return Err(self.err(
                            extra.pos,
                            format!("expected the end of the line after the number, found {}", quote(extra.text)),
                        ));
                    }
                }
                text => {
                    let cell = self.cell(text, w.pos, outside)?;
                    parts.second.as_mut().unwrap_or(&mut parts.first).push(cell);
                }
            }
        }
        Ok(parts)
    }

    /// A cell `rRcC`, from 1 (from 0 to side + 1 when `outside`), or
    /// `vK`, the grid's `K`-th cell outside it (`outside K`).
    fn cell(&self, text: &str, pos: Pos, outside: bool) -> Result<Cell, ParseError> {
        let grid = self.grid;
        if self.shift != (0, 0) && text.starts_with(['v', 'V', '@']) {
            let why = format!("{} inside a replicate block: its copies move grid cells only", quote(text));
            return Err(self.err(pos, why));
        }
        if let Some(k) = text.strip_prefix(['v', 'V']).and_then(|k| k.parse::<usize>().ok()) {
            return match grid.outside.get(k.wrapping_sub(1)) {
                Some(&cell) if !outside => Ok(cell),
                _ if grid.outside.is_empty() => Err(self.err(
                    pos,
                    format!("{} is a cell outside the grid, and the puzzle has none (\"outside K\")", quote(text)),
                )),
                _ => Err(self
                    .err(pos, format!("expected a cell r1c1 or v1 to v{}, found {}", grid.outside.len(), quote(text)))),
            };
        }
        if let Some(cell) = text.strip_prefix('@') {
            if !grid.chaos || cell.starts_with('@') {
                let why = format!("{}: a region label, read on a chaos construction only", quote(text));
                return Err(self.err(pos, why));
            }
            let cell = self.cell(cell, pos, false)?;
            return Ok(Cell::new(grid.rows + cell.row, cell.col));
        }
        let bad = || self.err(pos, format!("expected a cell such as r1c1, found {}", quote(text)));
        let rest = text.strip_prefix(['r', 'R']).ok_or_else(bad)?;
        let (row, col) = rest.split_once(['c', 'C']).ok_or_else(bad)?;
        let (row, col) = (row.parse::<usize>().map_err(|_| bad())?, col.parse::<usize>().map_err(|_| bad())?);
        let (rows, cols) =
            if outside { (0..=grid.rows + 1, 0..=grid.cols + 1) } else { (1..=grid.rows, 1..=grid.cols) };
        if !rows.contains(&row) || !cols.contains(&col) {
            let why = format!("cell {} is outside the {} x {} grid", quote(text), grid.rows, grid.cols);
            return Err(self.err(pos, why));
        }
        // Inside a `replicate` block, the copy's cell.
        let moved = |at: usize, by: isize| at.checked_add_signed(by);
        let (row, col) = match (moved(row, self.shift.0), moved(col, self.shift.1)) {
            (Some(r), Some(c)) if rows.contains(&r) && cols.contains(&c) => (r, c),
            _ => {
                let why = format!(
                    "cell {} moved by a replicate block ({:+} rows, {:+} columns) leaves the {} x {} grid",
                    quote(text),
                    self.shift.0,
                    self.shift.1,
                    grid.rows,
                    grid.cols
                );
                return Err(self.err(pos, why));
            }
        };
        // Outside cells are kept 1-based for `looking_in`; inside ones are 0-based.
        Ok(if outside { Cell::new(row, col) } else { Cell::new(row - 1, col - 1) })
    }

    /// The cells a clue at `clue` (1-based, just outside the grid) looks
    /// along, from its side.
    fn looking_in(&self, clue: Cell, pos: Pos) -> Result<Vec<Cell>, ParseError> {
        crate::model::rules::line_from_clue(clue.row, clue.col, self.grid.rows).ok_or_else(|| {
            self.err(pos, "expected a clue just outside the grid: row or column 0, or one past the last, not a corner")
        })
    }

    /// Parts of cells in `words` (of the line), each `:` starting
    /// the next: at least `fewest`, none empty, no number.
    fn cell_parts(&self, rule: &Rule, words: &[Word], fewest: usize) -> Result<Args, ParseError> {
        let head = self.head();
        let mut parts = vec![Vec::new()];
        let mut colon = head.pos;
        for w in words {
            match w.text {
                ":" => {
                    if parts.last().is_some_and(Vec::is_empty) {
                        return Err(self.err(w.pos, format!("{}: a part with no cells before this ':'", head.text)));
                    }
                    parts.push(Vec::new());
                    colon = w.pos;
                }
                "=" => return Err(self.err(w.pos, format!("{} takes no '= N'", head.text))),
                text => {
                    let cell = self.cell(text, w.pos, false)?;
                    parts.last_mut().expect("a part").push(cell);
                }
            }
        }
        if parts.last().is_some_and(Vec::is_empty) && parts.len() > 1 {
            return Err(self.err(colon, format!("{}: a part with no cells after this ':'", head.text)));
        }
        if parts.len() < fewest || parts[0].is_empty() {
            let what = if fewest > 1 { "two or more parts of cells, separated by ':'" } else { "cells" };
            return Err(self.err(head.pos, format!("{} takes {what}: {}", head.text, rule.example)));
        }
        Ok(Args { parts, ..Args::default() })
    }

    /// `KEYWORD CELL [: CELLS ...] [= N]`: a control cell, parts of cells
    /// each after a `:` (none empty), and the number.
    fn runs(&self, rule: &Rule, value_at: &mut Option<Pos>) -> Result<Args, ParseError> {
        let head = self.head();
        let (mut words, mut value) = (&self.line[1..], None);
        if let [rest @ .., eq, v] = words {
            if eq.text == "=" {
                let number = v
                    .text
                    .parse::<i64>()
                    .map_err(|_| self.err(v.pos, format!("expected a number after '=', found {}", quote(v.text))))?;
                (words, value, *value_at) = (rest, Some(number), Some(v.pos));
            }
        }
        let mut parts = self.cell_parts(rule, words, 1)?.parts;
        let control = match parts.remove(0)[..] {
            [control] => control,
            _ => {
                let why = format!("{} takes one cell, then ':' before more cells: {}", head.text, rule.example);
                return Err(self.err(head.pos, why));
            }
        };
        Ok(Args { cells: vec![control], parts, value, ..Args::default() })
    }

    /// `KEYWORD [K*]CELL... = N`: cells with their coefficients (1 if
    /// none), and the number.
    fn terms(&self, rule: &Rule, value_at: &mut Option<Pos>) -> Result<Args, ParseError> {
        let head = self.head();
        let words = &self.line[1..];
        let Some(eq) = words.iter().position(|w| w.text == "=") else {
            return Err(self.err(head.pos, format!("{} needs '= N': {}", head.text, rule.example)));
        };
        let (cells, tail) = (&words[..eq], &words[eq + 1..]);
        let ([value], false) = (tail, cells.is_empty()) else {
            let why = format!("{} takes cells, '=', then a number: {}", head.text, rule.example);
            return Err(self.err(tail.get(1).map_or(head.pos, |w| w.pos), why));
        };
        let number = value
            .text
            .parse::<i64>()
            .map_err(|_| self.err(value.pos, format!("expected a number after '=', found {}", quote(value.text))))?;
        *value_at = Some(value.pos);
        let mut args = Args { value: Some(number), ..Args::default() };
        for w in cells {
            let (coefficient, cell) = match w.text.split_once('*') {
                Some((k, cell)) => {
                    let k = k.parse::<i64>().map_err(|_| {
                        self.err(w.pos, format!("expected a coefficient such as -10*r1c1, found {}", quote(w.text)))
                    })?;
                    (k, cell)
                }
                None => (1, w.text),
            };
            args.cells.push(self.cell(cell, w.pos, false)?);
            args.list.push(coefficient.to_string());
        }
        Ok(args)
    }

    /// `replicate ORIGIN : TARGETS`: the cell the lines' positions are
    /// read from, and the cells it moves to, one copy each.
    pub(super) fn replicate(&self) -> Result<(Cell, Vec<Cell>), ParseError> {
        let head = self.head();
        let usage = "replicate takes a cell, ':', then the cells it moves to: replicate r1c1 : r1c4 r4c1";
        let words = &self.line[1..];
        let Some(colon) = words.iter().position(|w| w.text == ":") else { return Err(self.err(head.pos, usage)) };
        let ([origin], targets) = (&words[..colon], &words[colon + 1..]) else {
            return Err(self.err(head.pos, usage));
        };
        if targets.is_empty() {
            return Err(self.err(head.pos, usage));
        }
        if self.grid.chaos || !self.grid.outside.is_empty() {
            let why = "replicate with cells outside the grid or a chaos construction: not read";
            return Err(self.err(head.pos, why));
        }
        // Both where the block stands: an outer block's copy moves the
        // cells the lines name, not these.
        let unmoved = Directive { shift: (0, 0), ..*self };
        let origin = unmoved.cell(origin.text, origin.pos, false)?;
        let targets = targets.iter().map(|w| unmoved.cell(w.text, w.pos, false)).collect::<Result<Vec<_>, _>>()?;
        Ok((origin, targets))
    }

    /// `quadruple CELL D...`: the 2 x 2 from CELL holds the digits.
    fn quad(&self) -> Result<Args, ParseError> {
        let (head, grid) = (self.head(), self.grid);
        let n = grid.digits;
        let corner =
            self.line.get(1).ok_or_else(|| self.err(head.pos, format!("{} takes a cell, then digits", head.text)))?;
        let cell = self.cell(corner.text, corner.pos, false)?;
        if cell.row + 1 >= grid.rows || cell.col + 1 >= grid.cols {
            return Err(
                self.err(corner.pos, format!("{}: the cell is the top left of a 2 x 2 inside the grid", head.text))
            );
        }
        let mut list = Vec::new();
        for w in &self.line[2..] {
            match w.text.parse::<usize>() {
                Ok(d) if (1..=n).contains(&d) => list.push(w.text.to_owned()),
                _ => return Err(self.err(w.pos, format!("expected a digit 1..{n}, found {}", quote(w.text)))),
            }
        }
        let cells = itertools::iproduct!(0..2, 0..2).map(|(i, j)| Cell::new(cell.row + i, cell.col + j)).collect();
        Ok(Args { cells, list, ..Args::default() })
    }
}
