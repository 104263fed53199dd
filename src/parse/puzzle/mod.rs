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

use super::grid::{box_shape, read_row};
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
    let mut b = Builder {
        side,
        boxes: box_shape(side),
        box_pos: None,
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
    let mut blocks = 0usize;
    while let Some((number, line)) = p.next_line() {
        let head = line[0];
        if blocks > 0 && matches!(head.text, "size" | "box" | "givens" | "regions" | "chaos") {
            let why = format!(
                "{} inside an either block: the layout and givens are the whole puzzle's (a given of an \
                 alternative is a line \"given r1c1 = 5\")",
                head.text
            );
            return Err(p.error(head.pos, why));
        }
        match head.text {
            "either" => blocks += 1,
            "end" => blocks = blocks.saturating_sub(1),
            _ => {}
        }
        match head.text {
            "size" => return Err(p.error(head.pos, "size is given twice: it comes once, first")),
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
                    text => Some(super::grid::parse_box(text, side).map_err(|m| p.error(arg.pos, m))?),
                };
                b.box_pos = Some(arg.pos);
            }
            "givens" => {
                once(&p, b.givens.as_ref().map(|g| g.0), head, "givens")?;
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
    /// Where `chaos` stands: the regions are found with the digits.
    chaos: Option<Pos>,
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
        let mut ctx = Context::new();
        add_lines(p, &self.lines, n, 0, &mut puzzle, &mut ctx)?;
        ctx.finish(&mut puzzle).map_err(|e| p.error(Pos { line: 1, col: 1 }, e.message))?;
        match self.chaos {
            Some(at) => puzzle.into_chaos().map_err(model(at)),
            None => Ok(puzzle),
        }
    }
}

/// The rules that read the boxes or regions (region-sum lines, box
/// indexers, disjoint groups): refused with `chaos`, whose regions are
/// unknown.
const CHAOS_REGIONS: &[&str] = &["region-sum", "box-index", "disjoint"];

/// A rule line: its number and words.
type Line<'a> = (usize, Vec<Word<'a>>);

/// Adds the rule lines to `puzzle`: each a rule, or an `either` block
/// (`either`, the alternatives' lines split at `or` lines, `end`), which
/// becomes one [`Constraint::AnyOf`]; blocks nest, up to
/// [`rules::MOST_NESTED`] (`depth` of them around these lines).
fn add_lines(
    p: &Parser,
    lines: &[Line],
    n: usize,
    depth: usize,
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
            "either" if depth == rules::MOST_NESTED => {
                let why = format!("either blocks nested deeper than {}: not read", rules::MOST_NESTED);
                return Err(p.error(head.pos, why));
            }
            "either" => {
                let (branches, next) = either_block(p, lines, i)?;
                let start = puzzle.branch();
                let mut alternatives = Vec::with_capacity(branches.len());
                for (at, branch_lines) in branches {
                    let mut branch = start.clone();
                    let mut own = Context::new();
                    add_lines(p, branch_lines, n, depth + 1, &mut branch, &mut own)?;
                    let found = rules::alternative(&start, &branch, &own, ctx).map_err(|e| p.error(at, e.message))?;
                    alternatives.extend(found);
                }
                puzzle
                    .add_constraint(Constraint::AnyOf { alternatives })
                    .map_err(|e| p.error(head.pos, e.to_string()))?;
                i = next;
            }
            "or" | "end" => {
                return Err(p.error(head.pos, format!("{} outside an either block", head.text)));
            }
            _ => {
                Directive { p, line, n }.add(puzzle, ctx)?;
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
            ("either", _) => depth += 1,
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
    Err(p.error(lines[start].1[0].pos, "an either block with no end: close it with a line \"end\""))
}
