//! f-puzzles files: the JSON the f-puzzles editor saves, or its compressed
//! share string (lz-string, base64), alone or as a whole `?load=` link.
//! Errors name the JSON path (`$.killercage[2].cells[1]`). A constraint
//! the tool does not support is an error naming it, never dropped: that
//! would count a different puzzle. Cosmetic fields are ignored.

use serde_json::{Map, Value};

use super::{lzstring, quote, ParseError, Pos};
use crate::model::rules::{self, Args, Context, Rule, Shape, Value as RuleValue};
use crate::model::{Cell, Constraint, Digit, Puzzle};

/// Fields that draw or describe but constrain nothing.
/// (The editor's cosmetic tools are `text`, `line`, `circle`, `rectangle`,
/// `cage` and `arrowhead`; `cage` is read with care, see
/// `Reader::cosmetic_cages`.)
const COSMETIC: [&str; 15] = [
    "text",
    "line",
    "circle",
    "rectangle",
    "arrowhead",
    "title",
    "author",
    "ruleset",
    "solution",
    "successMessage",
    "highlightConflicts",
    "onlyUseJSONForPuzzleCheck",
    "disabledlogic",
    "truecandidatesoptions",
    "cage-cosmetic",
];

/// The first line that is not blank or a `#` comment, and its number.
fn first_line(text: &str) -> (usize, &str) {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .unwrap_or((1, ""))
}

/// Whether `text` looks like f-puzzles: JSON with a `grid` (an object, or an
/// array of them), or a first line
/// that is a share string or a link with `load=`.
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start();
    let first = first_line(text).1.trim_start();
    ((t.starts_with('{') || t.starts_with('[')) && t.contains("\"grid\""))
        || first.contains("load=")
        || first.starts_with("N4Ig")
        || first.starts_with("fpuz")
        || SUDOKUPAD_HOSTS.iter().any(|host| first.contains(host))
}

/// The hosts of SudokuPad links (its own, and Cracking the Cryptic's app).
const SUDOKUPAD_HOSTS: [&str; 2] = ["sudokupad.app", "crackingthecryptic.com"];

/// Where the share string starts on the line `trimmed`: after `load=` (an
/// f-puzzles link) or after `fpuz` (a SudokuPad payload that is an
/// f-puzzles puzzle, as a path or behind `?puzzle=`); `Err` names a
/// SudokuPad payload of another kind.
fn share_string_start(trimmed: &str) -> Result<usize, String> {
    if let Some(i) = trimmed.find("load=") {
        return Ok(i + "load=".len());
    }
    let sudokupad = SUDOKUPAD_HOSTS.iter().any(|host| trimmed.contains(host));
    if !sudokupad && !trimmed.starts_with("fpuz") {
        return Ok(0);
    }
    // The payload: where `fpuz` starts, else behind `puzzle=`, else the
    // path's last part (a share string may hold `/`, a short id does not).
    let path = trimmed.split(['?', '#']).next().unwrap_or(trimmed);
    let start = match (trimmed.find("fpuz"), trimmed.find("puzzle=")) {
        (Some(i), _) => i,
        (None, Some(i)) => i + "puzzle=".len(),
        (None, None) if sudokupad => path.rfind('/').map_or(0, |i| i + 1),
        (None, None) => 0,
    };
    let payload = &trimmed[start..];
    if let Some(rest) = payload.strip_prefix("fpuzzles").or_else(|| payload.strip_prefix("fpuz")) {
        return Ok(trimmed.len() - rest.len());
    }
    let kind = match payload {
        p if p.starts_with("scl") => "SudokuPad's own compressed format (scl...)",
        p if p.starts_with("ctc") => "a Cracking the Cryptic puzzle (ctc...)",
        p if p.starts_with('{') => "SudokuPad's own JSON",
        "" => "nothing",
        _ => "a short puzzle id, which only SudokuPad's server can resolve",
    };
    Err(format!(
        "a SudokuPad link whose payload is {kind}: only f-puzzles payloads (fpuz followed by a share string) are read"
    ))
}

/// The editor's default regions for a side: boxes `h` rows tall, `h` the
/// largest divisor of `n` up to its square root (9: 3x3, 6: 2x3, 7: 1x7,
/// the rows), as SudokuVariantSolverJS's `applyDefaultRegions` reads them.
fn default_box(n: usize) -> (usize, usize) {
    let h = (1..=n).take_while(|h| h * h <= n).filter(|h| n % h == 0).last().unwrap_or(1);
    (h, n / h)
}

/// An error at a JSON path (no line and column).
fn at(name: &str, path: &str, message: impl Into<String>) -> ParseError {
    ParseError { source_name: name.to_owned(), line: 0, col: 0, message: format!("{path}: {}", message.into()) }
}

/// The editor's JSON behind `text`: the text itself when it is JSON, or
/// decompressed from a share string, a `?load=` link or a SudokuPad `fpuz`
/// link (at most 8 MiB once decompressed).
pub fn json_text(text: &str, name: &str) -> Result<String, ParseError> {
    if text.trim_start().starts_with('{') {
        return Ok(text.trim().to_owned());
    }
    // A share string or link on its first line; `#` comment lines may precede it.
    let (line, raw) = first_line(text);
    let trimmed = raw.trim();
    let lead = raw.len() - raw.trim_start().len();
    let offset = share_string_start(trimmed).map_err(|e| Pos { line, col: lead + 1 }.error(name, e))?;
    let start_col = lead + trimmed[..offset].chars().count();
    let encoded: String = trimmed[offset..].split(['&', '#', ' ', '\n']).next().unwrap_or("").to_owned();
    let decoded =
        encoded.replace("%2B", "+").replace("%2F", "/").replace("%3D", "=").replace("%2b", "+").replace("%2f", "/");
    lzstring::decompress_base64(&decoded).map_err(|e| match e {
        lzstring::LzError::NotBase64(i, c) => Pos { line, col: start_col + i + 1 }
            .error(name, format!("expected an f-puzzles share string (base64), found {}", quote(&c.to_string()))),
        lzstring::LzError::Corrupt => {
            Pos { line, col: start_col + 1 }.error(name, "the f-puzzles share string does not decompress")
        }
        lzstring::LzError::TooLarge => Pos { line, col: start_col + 1 }.error(
            name,
            format!(
                "the f-puzzles share string decompresses to more than {} MiB, far more than any puzzle",
                (lzstring::MAX_UNITS * 2) >> 20
            ),
        ),
    })
}

/// One puzzle of an f-puzzles file: its text and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item<'t> {
    /// Its JSON, share string or link.
    pub text: &'t str,
    /// Where it starts in the file: a line and column from 1.
    pub at: Pos,
    /// Its index, when it is an element of a JSON array of puzzles.
    pub index: Option<usize>,
}

/// The puzzles of an f-puzzles file: one JSON object; JSON objects one
/// after another (JSON Lines); a JSON array of objects; or share strings
/// and links, one a line (blank lines and `#` comments aside). Anything
/// else where a puzzle should be is an error at its line; an item's own
/// content is checked when it is parsed ([`parse_item`]).
pub fn items<'t>(text: &'t str, name: &str) -> Result<Vec<Item<'t>>, ParseError> {
    let trimmed = text.trim_start();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        let mut items = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let content = line.trim();
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            let col = line[..line.len() - line.trim_start().len()].chars().count() + 1;
            items.push(Item { text: content, at: Pos { line: i + 1, col }, index: None });
        }
        return Ok(items);
    }
    let at = |offset: usize| {
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Pos { line, col }
    };
    let offset_of = |raw: &str| raw.as_ptr() as usize - text.as_ptr() as usize;
    let json_error = |e: serde_json::Error| {
        let what = e.to_string();
        let what = what.split(" at line").next().unwrap_or("");
        Pos { line: e.line().max(1), col: e.column().max(1) }.error(name, format!("expected f-puzzles JSON: {what}"))
    };
    let mut items = Vec::new();
    let mut array = false;
    let stream = serde_json::Deserializer::from_str(text).into_iter::<&serde_json::value::RawValue>();
    for raw in stream {
        let raw = raw.map_err(json_error)?.get();
        let start = at(offset_of(raw));
        if array {
            return Err(start.error(name, "expected nothing after the array of puzzles"));
        }
        if raw.starts_with('[') {
            if !items.is_empty() {
                return Err(start.error(name, "expected an f-puzzles object, found an array after a puzzle"));
            }
            array = true;
            let elements: Vec<&serde_json::value::RawValue> = serde_json::from_str(raw).map_err(json_error)?;
            for (index, element) in elements.into_iter().enumerate() {
                let element = element.get();
                let start = at(offset_of(element));
                if !element.starts_with('{') {
                    return Err(start.error(
                        name,
                        format!(
                            "$[{index}]: expected an f-puzzles object, found {} (share strings and links go one a line)",
                            quote(element)
                        ),
                    ));
                }
                items.push(Item { text: element, at: start, index: Some(index) });
            }
        } else if raw.starts_with('{') {
            items.push(Item { text: raw, at: start, index: None });
        } else {
            return Err(start.error(name, format!("expected an f-puzzles object, found {}", quote(raw))));
        }
    }
    Ok(items)
}

/// Parses one puzzle of a collection of f-puzzles puzzles, its errors
/// placed in the file: a line and column shifted to where the puzzle
/// starts, a JSON path (which has none) at the puzzle's start, and an
/// array element's path from `$[i]`.
pub fn parse_item(item: &Item, name: &str) -> Result<Puzzle, ParseError> {
    parse_one(item.text, name).map_err(|err| place(err, item, true))
}

/// `err` of `item` placed in the file; a JSON path error gets the item's
/// line only `in_collection` (a lone puzzle's path says where it is).
fn place(mut err: ParseError, item: &Item, in_collection: bool) -> ParseError {
    {
        if err.line == 0 {
            if let (Some(i), Some(rest)) = (item.index, err.message.strip_prefix('$')) {
                err.message = format!("$[{i}]{rest}");
            }
            if in_collection {
                (err.line, err.col) = (item.at.line, item.at.col);
            }
        } else {
            if err.line == 1 {
                err.col += item.at.col - 1;
            }
            err.line += item.at.line - 1;
        }
        err
    }
}

/// Parses an f-puzzles file of one puzzle; a file of several is an error
/// at the second, which says that `count`, `unique` and `candidates` read
/// each puzzle of such a collection.
pub fn parse_fpuzzles(text: &str, name: &str) -> Result<Puzzle, ParseError> {
    let items = items(text, name)?;
    match &items[..] {
        [] => Err(Pos { line: 1, col: 1 }.error(name, "expected an f-puzzles puzzle, found nothing")),
        [item] => parse_one(item.text, name).map_err(|err| place(err, item, false)),
        [_, second, ..] => Err(second.at.error(
            name,
            format!(
                "a second puzzle: this file is a collection of {} f-puzzles puzzles, which {} read one by one; \
                 this command takes one puzzle",
                items.len(),
                super::COLLECTION_COMMANDS
            ),
        )),
    }
}

/// Parses one f-puzzles puzzle: JSON, a share string or a link.
fn parse_one(text: &str, name: &str) -> Result<Puzzle, ParseError> {
    let json = json_text(text, name)?;
    let compressed = !text.trim_start().starts_with('{');
    let value: Value = super::json::from_str(&json).map_err(|e| {
        let what = super::json::message(&e);
        // A key written twice names its path; the share string's text has
        // no lines of the user's to point at.
        let message = if what.starts_with('$') { what } else { format!("expected f-puzzles JSON: {what}") };
        if compressed {
            at(name, "(decompressed)", message)
        } else {
            Pos { line: e.line().max(1), col: e.column().max(1) }.error(name, message)
        }
    })?;
    let Value::Object(root) = value else { return Err(at(name, "$", "expected an object")) };
    Reader { name, root: &root }.read()
}

struct Reader<'a> {
    name: &'a str,
    root: &'a Map<String, Value>,
}

impl Reader<'_> {
    fn err(&self, path: &str, message: impl Into<String>) -> ParseError {
        at(self.name, path, message)
    }

    fn read(&self) -> Result<Puzzle, ParseError> {
        let n = match self.root.get("size").and_then(Value::as_u64) {
            Some(n) if (1..=crate::model::MAX_SIDE as u64).contains(&n) => n as usize,
            _ => return Err(self.err("$.size", "expected the grid side, a number from 1 to 64")),
        };
        let grid = self
            .root
            .get("grid")
            .and_then(Value::as_array)
            .ok_or_else(|| self.err("$.grid", "expected the grid's rows"))?;
        if grid.len() != n {
            return Err(self.err("$.grid", format!("expected {n} rows, found {}", grid.len())));
        }
        let mut givens = Vec::new();
        let mut marks = Vec::new();
        // Each cell's region: the editor omits it for a cell in its default
        // region (its box, `default_box`), and writes `null` for a cell in none.
        let (h, w) = default_box(n);
        let mut regions: Vec<Option<usize>> = (0..n * n).map(|i| Some((i / n) / h * h + (i % n) / w)).collect();
        for (r, row) in grid.iter().enumerate() {
            let row = row.as_array().filter(|row| row.len() == n);
            let row = row.ok_or_else(|| self.err(&format!("$.grid[{r}]"), format!("expected a row of {n} cells")))?;
            for (c, cell) in row.iter().enumerate() {
                let path = format!("$.grid[{r}][{c}]");
                let Some(cell) = cell.as_object() else { return Err(self.err(&path, "expected a cell object")) };
                let mut given = None;
                if cell.get("given").and_then(Value::as_bool) == Some(true) {
                    match cell.get("value").and_then(Value::as_u64) {
                        Some(d) if (1..=n as u64).contains(&d) => given = Some(d as Digit),
                        _ => return Err(self.err(&format!("{path}.value"), format!("expected a given digit 1..{n}"))),
                    }
                }
                givens.extend(given.map(|d| (Cell::new(r, c), d)));
                if let Some(allowed) = self.pencil_marks(cell, &path, n)? {
                    match given {
                        // A given outside its cell's own marks: Rangsk's
                        // solver keeps the given, a reader of both the
                        // contradiction; which the setter meant is unknown.
                        Some(d) if allowed >> (d - 1) & 1 == 0 => {
                            return Err(self.err(
                                &format!("{path}.givenPencilMarks"),
                                format!(
                                "the given {d} is not among the cell's givenPencilMarks: refusing to guess which holds"
                            ),
                            ))
                        }
                        Some(_) => {}
                        None => marks.push((Cell::new(r, c), allowed)),
                    }
                }
                if let Some(region) = cell.get("region") {
                    match region.as_u64() {
                        Some(k) if (k as usize) < n => regions[r * n + c] = Some(k as usize),
                        _ if region.is_null() => regions[r * n + c] = None,
                        _ => return Err(self.err(&format!("{path}.region"), format!("expected a region 0..{}", n - 1))),
                    }
                }
            }
        }
        let mut puzzle = self.layout(n, &regions)?;
        for (cell, d) in givens {
            puzzle.set_given(cell, d).map_err(|e| self.err("$.grid", e.to_string()))?;
        }
        for (cell, allowed) in marks {
            let path = format!("$.grid[{}][{}].givenPencilMarks", cell.row, cell.col);
            puzzle.add_constraint(Constraint::Digits { cell, allowed }).map_err(|e| self.err(&path, e.to_string()))?;
        }
        self.negative_ratio()?;
        self.constraints(&mut puzzle)?;
        Ok(puzzle)
    }

    /// A cell's `givenPencilMarks`, the editor's given pencil marks: the
    /// digits the setter allows there, as a bit per digit (bit 0 for 1).
    /// Rangsk's solver restricts the cell to them; an empty list (or none)
    /// allows every digit. (`centerPencilMarks` are a solver's notes, not
    /// the setter's: ignored, as that solver ignores them when counting.)
    fn pencil_marks(&self, cell: &Map<String, Value>, path: &str, n: usize) -> Result<Option<u64>, ParseError> {
        let path = format!("{path}.givenPencilMarks");
        let list = match cell.get("givenPencilMarks") {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::Array(list)) if list.is_empty() => return Ok(None),
            Some(Value::Array(list)) => list,
            Some(other) => return Err(self.err(&path, format!("expected a list of digits, found {other}"))),
        };
        let mut allowed = 0u64;
        for (i, digit) in list.iter().enumerate() {
            let d = digit.as_u64().or_else(|| digit.as_str().and_then(|s| s.trim().parse().ok()));
            match d {
                Some(d) if (1..=n as u64).contains(&d) => allowed |= 1 << (d - 1),
                _ => return Err(self.err(&format!("{path}[{i}]"), format!("expected a digit 1..{n}, found {digit}"))),
            }
        }
        Ok(Some(allowed))
    }

    /// The negative ratio constraint with black dots, none of ratio 2, has
    /// two readings: Rangsk's solver bans ratio 2 and every dot's ratio,
    /// the native format's `negative black` only the dots' ratios (2 when
    /// there is no dot). They agree whenever a dot of 2 is there, or none.
    fn negative_ratio(&self) -> Result<(), ParseError> {
        let negative = self.root.get("negative").and_then(Value::as_array);
        if !negative.is_some_and(|names| names.iter().any(|n| n.as_str() == Some("ratio"))) {
            return Ok(());
        }
        let Some(dots) = self.root.get("ratio").and_then(Value::as_array).filter(|d| !d.is_empty()) else {
            return Ok(());
        };
        let two = dots.iter().any(|dot| match dot.get("value") {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s.trim().is_empty() || s.trim() == "2",
            Some(v) => v.as_u64() == Some(2),
        });
        if two {
            return Ok(());
        }
        Err(self.err(
            "$.negative",
            "the negative ratio constraint with black dots, none of ratio 2: the editor's solvers read it as \
             banning ratio 2 as well as the dots' ratios, others as banning the dots' ratios only; refusing to \
             guess (add a dot of ratio 2, or write the puzzle in the native format, whose `negative black` bans \
             the dots' ratios)",
        ))
    }

    /// Boxes when every cell's region is its default box (with boxes of
    /// more than one row), else a Latin square with the regions: each must
    /// have `n` cells. A region shaped like a row is still a region (it
    /// repeats the row's rule, but region-sum lines and the box indexer
    /// read regions), as the default regions of a side without a
    /// rectangular box are its rows (5x5, 7x7: Rangsk's solver's
    /// `applyDefaultRegions`).
    fn layout(&self, n: usize, regions: &[Option<usize>]) -> Result<Puzzle, ParseError> {
        let (h, w) = default_box(n);
        let boxes = (0..n * n).all(|i| regions[i] == Some((i / n) / h * h + (i % n) / w));
        if boxes && h > 1 {
            return Puzzle::sudoku(h, w).map_err(|e| self.err("$.size", e.to_string()));
        }
        let mut puzzle = Puzzle::latin(n).map_err(|e| self.err("$.size", e.to_string()))?;
        for k in 0..n {
            let cells: Vec<Cell> =
                (0..n * n).filter(|&i| regions[i] == Some(k)).map(|i| Cell::new(i / n, i % n)).collect();
            if cells.is_empty() {
                continue; // no such region
            }
            puzzle.add_region(cells).map_err(|e| self.err("$.grid", format!("region {k}: {e}")))?;
        }
        Ok(puzzle)
    }

    /// A cell name's row and column as written (from 1; a clue outside the
    /// grid has 0 or side + 1).
    fn cell_coords(&self, value: &Value, path: &str) -> Result<(usize, usize), ParseError> {
        let text = value.as_str().unwrap_or("");
        text.strip_prefix(['R', 'r'])
            .and_then(|rest| rest.split_once(['C', 'c']))
            .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)))
            .ok_or_else(|| self.err(path, format!("expected a cell such as \"R1C1\", found {value}")))
    }

    fn cell(&self, value: &Value, path: &str, n: usize) -> Result<Cell, ParseError> {
        let text = value.as_str().unwrap_or("");
        let parsed = text
            .strip_prefix(['R', 'r'])
            .and_then(|rest| rest.split_once(['C', 'c']))
            .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
        match parsed {
            Some((r, c)) if (1..=n).contains(&r) && (1..=n).contains(&c) => Ok(Cell::new(r - 1, c - 1)),
            Some(_) => Err(self.err(path, format!("cell {} is outside the {n} x {n} grid", quote(text)))),
            None => Err(self.err(path, format!("expected a cell such as \"R1C1\", found {value}"))),
        }
    }

    fn cells(&self, value: Option<&Value>, path: &str, n: usize) -> Result<Vec<Cell>, ParseError> {
        let list = value.and_then(Value::as_array).ok_or_else(|| self.err(path, "expected a list of cells"))?;
        list.iter().enumerate().map(|(i, v)| self.cell(v, &format!("{path}[{i}]"), n)).collect()
    }

    /// The lines of an entry (`lines`: lists of cells).
    fn lines(&self, entry: &Map<String, Value>, path: &str, n: usize) -> Result<Vec<Vec<Cell>>, ParseError> {
        let path = format!("{path}.lines");
        let lines =
            entry.get("lines").and_then(Value::as_array).ok_or_else(|| self.err(&path, "expected a list of lines"))?;
        lines.iter().enumerate().map(|(i, line)| self.cells(Some(line), &format!("{path}[{i}]"), n)).collect()
    }

    /// An entry's `value`, a number or a numeric string, if present.
    fn number(&self, entry: &Map<String, Value>, path: &str) -> Result<Option<i64>, ParseError> {
        match entry.get("value") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::Number(x)) => {
                x.as_i64().map(Some).ok_or_else(|| self.err(&format!("{path}.value"), "expected a whole number"))
            }
            Some(Value::String(s)) => s
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| self.err(&format!("{path}.value"), format!("expected a number, found {}", quote(s)))),
            Some(other) => Err(self.err(&format!("{path}.value"), format!("expected a number, found {other}"))),
        }
    }

    fn constraints(&self, p: &mut Puzzle) -> Result<(), ParseError> {
        let n = p.side();
        let mut ctx = Context::new();
        for (key, value) in self.root {
            let path = format!("$.{key}");
            if matches!(key.as_str(), "size" | "grid") || COSMETIC.contains(&key.as_str()) {
                continue;
            }
            if key == "cage" {
                self.cosmetic_cages(value, &path)?;
                continue;
            }
            let unsupported = || {
                self.err(
                    &path,
                    format!(
                        "unsupported f-puzzles constraint {}: this reader reads {}",
                        quote(key),
                        rules::fpuzzles_keys()
                    ),
                )
            };
            let Some(first) =
                rules::by_fpuzzles_key(key, None).or_else(|| rules::RULES.iter().find(|r| r.fpuzzles == Some(key)))
            else {
                return Err(unsupported());
            };
            let add = |p: &mut Puzzle, ctx: &mut Context, rule: &Rule, args: &Args, at: &str| {
                (rule.build)(p, args, ctx).map_err(|e| {
                    let at = if e.at_value { format!("{at}.value") } else { at.to_owned() };
                    self.err(&at, e.message)
                })
            };
            match first.shape {
                Shape::Whole => match value.as_bool() {
                    Some(true) => add(p, &mut ctx, first, &Args::default(), &path)?,
                    Some(false) => {}
                    None => return Err(self.err(&path, "expected true or false")),
                },
                Shape::Names => {
                    let names = value
                        .as_array()
                        .ok_or_else(|| self.err(&path, "expected a list such as [\"ratio\", \"xv\"]"))?;
                    let mut list = Vec::new();
                    for (i, name) in names.iter().enumerate() {
                        let name = name.as_str().ok_or_else(|| self.err(&format!("{path}[{i}]"), "expected a name"))?;
                        list.push(name.to_owned());
                    }
                    add(p, &mut ctx, first, &Args { list, ..Args::default() }, &path)?;
                }
                _ => {
                    let entries = match value {
                        Value::Array(entries) => entries,
                        Value::Bool(false) | Value::Null => continue,
                        _ => return Err(self.err(&path, "expected a list of entries")),
                    };
                    for (i, entry) in entries.iter().enumerate() {
                        let path = format!("{path}[{i}]");
                        let entry = entry.as_object().ok_or_else(|| self.err(&path, "expected an object"))?;
                        let rule = match first.fpuzzles_value {
                            None => first,
                            Some(_) => {
                                let selector = entry.get("value").and_then(Value::as_str);
                                rules::by_fpuzzles_key(key, selector).ok_or_else(|| {
                                    let wanted = rules::RULES
                                        .iter()
                                        .filter(|r| r.fpuzzles == Some(key))
                                        .filter_map(|r| r.fpuzzles_value);
                                    let wanted = itertools::join(wanted.map(|v| format!("{v:?}")), " or ");
                                    self.err(&format!("{path}.value"), format!("expected {wanted}"))
                                })?
                            }
                        };
                        for args in self.args(rule, entry, &path, n)? {
                            add(p, &mut ctx, rule, &args, &path)?;
                        }
                    }
                }
            }
        }
        ctx.finish(p).map_err(|e| self.err("$", e.message))
    }

    /// The arguments of one entry of `rule`: one set, or one per line.
    fn args(&self, rule: &Rule, entry: &Map<String, Value>, path: &str, n: usize) -> Result<Vec<Args>, ParseError> {
        let cells = |field: &str| self.cells(entry.get(field), &format!("{path}.{field}"), n);
        let value = match (rule.value, rule.fpuzzles_value) {
            (_, Some(_)) => None, // the value selected the rule
            (RuleValue::No, None) => {
                self.no_number(entry, path)?;
                None
            }
            (RuleValue::Optional, None) => self.number(entry, path)?,
            (RuleValue::Required, None) => {
                Some(self.number(entry, path)?.ok_or_else(|| self.err(&format!("{path}.value"), "expected a number"))?)
            }
        };
        let one = |cells: Vec<Cell>| Args { cells, value, ..Args::default() };
        Ok(match rule.shape {
            Shape::Cells { min } => {
                let cs = cells("cells")?;
                if cs.len() < min {
                    return Err(self.err(&format!("{path}.cells"), format!("expected at least {min} cells")));
                }
                vec![one(cs)]
            }
            Shape::Pair => {
                let cs = cells("cells")?;
                if cs.len() != 2 {
                    return Err(self.err(&format!("{path}.cells"), "expected two cells"));
                }
                vec![one(cs)]
            }
            Shape::EachCell => {
                vec![one(vec![self.cell(entry.get("cell").unwrap_or(&Value::Null), &format!("{path}.cell"), n)?])]
            }
            Shape::Line { min } => {
                let mut all = Vec::new();
                for (k, line) in self.lines(entry, path, n)?.into_iter().enumerate() {
                    if line.len() < min {
                        return Err(self.err(&format!("{path}.lines[{k}]"), format!("expected at least {min} cells")));
                    }
                    all.push(one(line));
                }
                all
            }
            Shape::CircleLine => {
                // Each line is an arrow of its own from the circle (its
                // first cells are the circle's).
                let circle = cells("cells")?;
                let mut all = Vec::new();
                for (k, line) in self.lines(entry, path, n)?.into_iter().enumerate() {
                    let start = line.iter().take_while(|c| circle.contains(c)).count();
                    let rest = line[start..].to_vec();
                    if rest.iter().any(|c| circle.contains(c)) {
                        return Err(
                            self.err(&format!("{path}.lines[{k}]"), "the arrow passes through its circle again")
                        );
                    }
                    all.push(Args { cells: circle.clone(), second: rest, ..Args::default() });
                }
                all
            }
            Shape::Copies => {
                let (a, b) = (cells("cells")?, cells("cloneCells")?);
                if a.len() != b.len() {
                    return Err(self.err(path, "expected as many cloneCells as cells"));
                }
                vec![Args { cells: a, second: b, ..Args::default() }]
            }
            Shape::Quad => {
                let cs = cells("cells")?;
                if cs.len() != 4 {
                    return Err(self.err(&format!("{path}.cells"), "expected the four cells of a 2x2"));
                }
                let values = entry
                    .get("values")
                    .and_then(Value::as_array)
                    .ok_or_else(|| self.err(&format!("{path}.values"), "expected a list of digits"))?;
                let mut list = Vec::new();
                for (k, v) in values.iter().enumerate() {
                    match v.as_u64().map(|d| d.to_string()).or_else(|| v.as_str().map(str::to_owned)) {
                        Some(d) => list.push(d),
                        None => {
                            return Err(self.err(&format!("{path}.values[{k}]"), format!("expected a digit 1..{n}")))
                        }
                    }
                }
                vec![Args { cells: cs, list, ..Args::default() }]
            }
            Shape::Outside => {
                let at = format!("{path}.cell");
                let (r, c) = self.cell_coords(entry.get("cell").unwrap_or(&Value::Null), &at)?;
                let line = rules::line_from_clue(r, c, n).ok_or_else(|| {
                    self.err(
                        &at,
                        format!("expected a clue just outside the {n} x {n} grid (row or column 0 or {})", n + 1),
                    )
                })?;
                vec![one(line)]
            }
            Shape::Whole | Shape::Names | Shape::Parts | Shape::WordParts | Shape::Runs | Shape::Terms => Vec::new(),
        })
    }

    /// A rule that takes no number may carry an empty `value`, nothing else.
    fn no_number(&self, entry: &Map<String, Value>, path: &str) -> Result<(), ParseError> {
        match entry.get("value") {
            None | Some(Value::Null) => Ok(()),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(()),
            Some(other) => Err(self.err(
                &format!("{path}.value"),
                format!("this rule takes no value, found {other}: refusing to guess what it means"),
            )),
        }
    }

    /// `cage` entries: the editor's cosmetic cages (the killer cage is
    /// `killercage`). One drawn for another rule (`fromConstraint`), or
    /// whose value is not a number (a message, a label), is decoration. A
    /// plain cage with a number could be a killer cage drawn with the
    /// cosmetic tool or a label: that is not guessed.
    fn cosmetic_cages(&self, value: &Value, path: &str) -> Result<(), ParseError> {
        let Some(entries) = value.as_array() else { return Ok(()) };
        for (i, entry) in entries.iter().enumerate() {
            let path = format!("{path}[{i}]");
            let Some(entry) = entry.as_object() else { return Err(self.err(&path, "expected an object")) };
            if entry.contains_key("fromConstraint") {
                continue;
            }
            let numeric = match entry.get("value") {
                Some(Value::Number(_)) => true,
                Some(Value::String(s)) => s.trim().parse::<i64>().is_ok(),
                _ => false,
            };
            if numeric {
                return Err(self.err(
                    &format!("{path}.value"),
                    "a cosmetic cage with a number: f-puzzles' killer cages are `killercage`, and this reader \
                     does not guess whether a drawn cage is one; make it a killer cage or drop its number",
                ));
            }
        }
        Ok(())
    }
}
