//! f-puzzles files: the JSON the f-puzzles editor saves, or its compressed
//! share string (lz-string, base64), alone or as a whole `?load=` link.
//! Errors name the JSON path (`$.killercage[2].cells[1]`). A constraint
//! the tool does not support is an error naming it, never dropped: that
//! would count a different puzzle. Cosmetic fields are ignored.

use serde_json::{Map, Value};

use super::rules::{self, Global, Marker, Negative};
use super::{lzstring, quote, ParseError, Pos};
use crate::model::{Cell, Constraint, Digit, Predicate, Puzzle};

/// Fields that draw or describe but constrain nothing.
const COSMETIC: [&str; 12] = [
    "text",
    "line",
    "circle",
    "rectangle",
    "title",
    "author",
    "ruleset",
    "solution",
    "highlightConflicts",
    "disabledlogic",
    "truecandidatesoptions",
    "cage-cosmetic",
];

/// The constraint fields this reader knows.
const SUPPORTED: &str = "killercage, cage, littlekillersum, arrow, thermometer, slowthermometer, difference, \
     ratio, xv, negative, diagonal+, diagonal-, antiknight, antiking, disjointgroups, nonconsecutive, odd, even, \
     minimum, maximum, palindrome, clone, whispers, renban, betweenline, quadruple, extraregion";

/// The first line that is not blank or a `#` comment, and its number.
fn first_line(text: &str) -> (usize, &str) {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .unwrap_or((1, ""))
}

/// Whether `text` looks like f-puzzles: JSON with a `grid`, or a first line
/// that is a share string or a link with `load=`.
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start();
    let first = first_line(text).1.trim_start();
    (t.starts_with('{') && t.contains("\"grid\"")) || first.contains("load=") || first.starts_with("N4Ig")
}

/// An error at a JSON path (no line and column).
fn at(name: &str, path: &str, message: impl Into<String>) -> ParseError {
    ParseError { source_name: name.to_owned(), line: 0, col: 0, message: format!("{path}: {}", message.into()) }
}

/// The JSON text of `text`: itself, or decompressed from a share string.
fn json_text(text: &str, name: &str) -> Result<String, ParseError> {
    if text.trim_start().starts_with('{') {
        return Ok(text.trim().to_owned());
    }
    // A share string or link on its first line; `#` comment lines may precede it.
    let (line, raw) = first_line(text);
    let trimmed = raw.trim();
    let offset = trimmed.find("load=").map_or(0, |i| i + "load=".len());
    let start_col = raw.len() - raw.trim_start().len() + offset;
    let encoded: String = trimmed[offset..].split(['&', '#', ' ', '\n']).next().unwrap_or("").to_owned();
    let decoded =
        encoded.replace("%2B", "+").replace("%2F", "/").replace("%3D", "=").replace("%2b", "+").replace("%2f", "/");
    lzstring::decompress_base64(&decoded).map_err(|e| match e {
        lzstring::LzError::NotBase64(i, c) => Pos { line, col: start_col + i + 1 }
            .error(name, format!("expected an f-puzzles share string (base64), found {}", quote(&c.to_string()))),
        lzstring::LzError::Corrupt => {
            Pos { line, col: start_col + 1 }.error(name, "the f-puzzles share string does not decompress")
        }
    })
}

/// Parses an f-puzzles puzzle.
pub fn parse_fpuzzles(text: &str, name: &str) -> Result<Puzzle, ParseError> {
    let json = json_text(text, name)?;
    let compressed = !text.trim_start().starts_with('{');
    let value: Value = serde_json::from_str(&json).map_err(|e| {
        let message = format!("expected f-puzzles JSON: {e}");
        if compressed {
            at(name, "(decompressed)", message)
        } else {
            Pos { line: e.line().max(1), col: e.column().max(1) }.error(
                name,
                format!("expected f-puzzles JSON: {}", e.to_string().split(" at line").next().unwrap_or("")),
            )
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
        let mut regions: Vec<Option<usize>> = vec![None; n * n];
        for (r, row) in grid.iter().enumerate() {
            let row = row.as_array().filter(|row| row.len() == n);
            let row = row.ok_or_else(|| self.err(&format!("$.grid[{r}]"), format!("expected a row of {n} cells")))?;
            for (c, cell) in row.iter().enumerate() {
                let path = format!("$.grid[{r}][{c}]");
                let Some(cell) = cell.as_object() else { return Err(self.err(&path, "expected a cell object")) };
                if cell.get("given").and_then(Value::as_bool) == Some(true) {
                    match cell.get("value").and_then(Value::as_u64) {
                        Some(d) if (1..=n as u64).contains(&d) => givens.push((Cell::new(r, c), d as Digit)),
                        _ => return Err(self.err(&format!("{path}.value"), format!("expected a given digit 1..{n}"))),
                    }
                }
                if let Some(region) = cell.get("region") {
                    match region.as_u64() {
                        Some(k) if (k as usize) < n => regions[r * n + c] = Some(k as usize),
                        _ if region.is_null() => {}
                        _ => return Err(self.err(&format!("{path}.region"), format!("expected a region 0..{}", n - 1))),
                    }
                }
            }
        }
        let mut puzzle = self.layout(n, &regions)?;
        for (cell, d) in givens {
            puzzle.set_given(cell, d).map_err(|e| self.err("$.grid", e.to_string()))?;
        }
        self.constraints(&mut puzzle)?;
        Ok(puzzle)
    }

    /// Boxes when every cell's region is its box (or none is set), else the regions.
    fn layout(&self, n: usize, regions: &[Option<usize>]) -> Result<Puzzle, ParseError> {
        let boxes = super::grid::box_shape(n);
        let box_of = |i: usize| boxes.map(|(h, w)| (i / n) / h * (n / w) + (i % n) / w);
        let all_boxes = (0..n * n).all(|i| regions[i].is_none() || regions[i] == box_of(i));
        match boxes {
            Some((h, w)) if all_boxes => Puzzle::sudoku(h, w).map_err(|e| self.err("$.size", e.to_string())),
            _ => {
                let mut puzzle = Puzzle::latin(n).map_err(|e| self.err("$.size", e.to_string()))?;
                for k in 0..n {
                    let cells: Vec<Cell> = (0..n * n)
                        .filter(|&i| regions[i].or_else(|| box_of(i)) == Some(k))
                        .map(|i| Cell::new(i / n, i % n))
                        .collect();
                    if cells.is_empty() && boxes.is_none() && regions.iter().all(Option::is_none) {
                        continue; // a Latin square: no regions at all
                    }
                    puzzle.add_region(cells).map_err(|e| self.err("$.grid", format!("region {k}: {e}")))?;
                }
                Ok(puzzle)
            }
        }
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
        let mut markers = Vec::new();
        let mut negatives = Vec::new();
        let mut cages = rules::Cages::default();
        for (key, value) in self.root {
            let path = format!("$.{key}");
            if matches!(key.as_str(), "size" | "grid") || COSMETIC.contains(&key.as_str()) {
                continue;
            }
            let rule = |p: &mut Puzzle, add: &dyn Fn(&mut Puzzle) -> Result<(), String>| {
                add(p).map_err(|e| self.err(&path, e))
            };
            let global = match key.as_str() {
                "diagonal+" => Some(Global::AntiDiagonal),
                "diagonal-" => Some(Global::MainDiagonal),
                "antiknight" => Some(Global::AntiKnight),
                "antiking" => Some(Global::AntiKing),
                "disjointgroups" => Some(Global::DisjointGroups),
                "nonconsecutive" => Some(Global::Nonconsecutive),
                _ => None,
            };
            if let Some(g) = global {
                match value.as_bool() {
                    Some(true) => rule(p, &|p| rules::global(p, g))?,
                    Some(false) => {}
                    None => return Err(self.err(&path, "expected true or false")),
                }
                continue;
            }
            if key == "negative" {
                let kinds =
                    value.as_array().ok_or_else(|| self.err(&path, "expected a list such as [\"ratio\", \"xv\"]"))?;
                for (i, kind) in kinds.iter().enumerate() {
                    match kind.as_str() {
                        Some("ratio") => negatives.push(Negative::Black),
                        Some("difference") => negatives.push(Negative::White),
                        Some("xv") => negatives.extend([Negative::X, Negative::V]),
                        _ => {
                            return Err(self.err(
                                &format!("{path}[{i}]"),
                                format!(
                                "unsupported negative constraint {kind}: expected \"ratio\", \"difference\" or \"xv\""
                            ),
                            ))
                        }
                    }
                }
                continue;
            }
            let entries = match value {
                Value::Array(entries) => entries,
                Value::Bool(false) | Value::Null => continue,
                _ => {
                    return Err(self.err(
                        &path,
                        format!("unsupported f-puzzles constraint {}: this reader supports {SUPPORTED}", quote(key)),
                    ))
                }
            };
            for (i, entry) in entries.iter().enumerate() {
                let path = format!("{path}[{i}]");
                let entry = entry.as_object().ok_or_else(|| self.err(&path, "expected an object"))?;
                let cells = |field: &str| self.cells(entry.get(field), &format!("{path}.{field}"), n);
                match key.as_str() {
                    "killercage" | "cage" => {
                        let cs = cells("cells")?;
                        let sum = self.number(entry, &path)?;
                        rules::killer(p, &mut cages, cs, sum).map_err(|e| self.err(&path, e))?;
                    }
                    "littlekillersum" => {
                        let cs = cells("cells")?;
                        let sum = self
                            .number(entry, &path)?
                            .ok_or_else(|| self.err(&format!("{path}.value"), "expected the sum"))?;
                        rules::little_killer(p, &cs, sum).map_err(|e| self.err(&path, e))?;
                    }
                    "arrow" => {
                        let circle = cells("cells")?;
                        let mut line = Vec::new();
                        for l in self.lines(entry, &path, n)? {
                            line.extend(l.into_iter().filter(|c| !circle.contains(c)));
                        }
                        line.dedup();
                        rules::arrow(p, &circle, &line).map_err(|e| self.err(&path, e))?;
                    }
                    "thermometer" | "slowthermometer" | "whispers" => {
                        let predicate = match key.as_str() {
                            "thermometer" => Predicate::Less,
                            "slowthermometer" => Predicate::LessOrEqual,
                            _ => Predicate::DifferenceAtLeast {
                                min: self.number(entry, &path)?.map_or(5, |v| v.clamp(1, 64) as u32),
                            },
                        };
                        for line in self.lines(entry, &path, n)? {
                            rules::along(p, &line, predicate).map_err(|e| self.err(&path, e))?;
                        }
                    }
                    "palindrome" | "renban" | "betweenline" => {
                        for line in self.lines(entry, &path, n)? {
                            match key.as_str() {
                                "palindrome" => rules::palindrome(p, &line),
                                "renban" => rules::renban(p, line),
                                _ => rules::between(p, &line),
                            }
                            .map_err(|e| self.err(&path, e))?;
                        }
                    }
                    "difference" | "ratio" | "xv" => {
                        let cs = cells("cells")?;
                        if cs.len() != 2 {
                            return Err(self.err(&format!("{path}.cells"), "expected two cells"));
                        }
                        let marker = match key.as_str() {
                            "difference" => {
                                Marker::White(self.number(entry, &path)?.map_or(1, |v| v.clamp(0, 64) as u32))
                            }
                            "ratio" => Marker::Black(self.number(entry, &path)?.map_or(2, |v| v.clamp(0, 64) as u32)),
                            _ => match entry.get("value").and_then(Value::as_str) {
                                Some("X" | "x") => Marker::X,
                                Some("V" | "v") => Marker::V,
                                _ => return Err(self.err(&format!("{path}.value"), "expected \"X\" or \"V\"")),
                            },
                        };
                        p.add_relation(cs[0], cs[1], marker.predicate()).map_err(|e| self.err(&path, e.to_string()))?;
                        markers.push((marker, cs[0], cs[1]));
                    }
                    "odd" | "even" | "minimum" | "maximum" => {
                        let cell = self.cell(entry.get("cell").unwrap_or(&Value::Null), &format!("{path}.cell"), n)?;
                        match key.as_str() {
                            "odd" | "even" => rules::parity(p, cell, key == "odd"),
                            _ => rules::extremum(p, cell, key == "minimum"),
                        }
                        .map_err(|e| self.err(&path, e))?;
                    }
                    "clone" => {
                        let (a, b) = (cells("cells")?, cells("cloneCells")?);
                        if a.len() != b.len() {
                            return Err(self.err(&path, "expected as many cloneCells as cells"));
                        }
                        for (x, y) in a.into_iter().zip(b) {
                            p.add_relation(x, y, Predicate::Equal).map_err(|e| self.err(&path, e.to_string()))?;
                        }
                    }
                    "quadruple" => {
                        let cs = cells("cells")?;
                        let values = entry
                            .get("values")
                            .and_then(Value::as_array)
                            .ok_or_else(|| self.err(&format!("{path}.values"), "expected a list of digits"))?;
                        let mut digits = Vec::new();
                        for (k, v) in values.iter().enumerate() {
                            match v.as_u64() {
                                Some(d) if (1..=n as u64).contains(&d) => digits.push(d as Digit),
                                _ => {
                                    return Err(
                                        self.err(&format!("{path}.values[{k}]"), format!("expected a digit 1..{n}"))
                                    )
                                }
                            }
                        }
                        p.add_constraint(Constraint::Contains { cells: cs, digits })
                            .map_err(|e| self.err(&path, e.to_string()))?;
                    }
                    "extraregion" => {
                        let cs = cells("cells")?;
                        p.add_group(cs).map_err(|e| self.err(&path, e.to_string()))?;
                    }
                    _ => {
                        let path = format!("$.{key}");
                        return Err(self.err(
                            &path,
                            format!(
                                "unsupported f-puzzles constraint {}: this reader supports {SUPPORTED}",
                                quote(key)
                            ),
                        ));
                    }
                }
            }
        }
        for kind in negatives {
            rules::negative(p, kind, &markers).map_err(|e| self.err("$.negative", e))?;
        }
        Ok(())
    }
}
