//! Input formats: each turns text into a [`Puzzle`] or a [`ParseError`] that
//! names the place (`file:line:col`), what was expected and what was found.

pub mod contest;
pub mod fpuzzles;
pub mod grid;
pub mod kattis;
pub mod lp;
mod lzstring;
pub mod puzzle;
pub mod takuzu;

use std::fmt;

use crate::model::Puzzle;

crate::named_enum! {
    /// The input formats `satsudoku` reads.
    pub enum Format {
        /// Contest facts: `row(Line,S1..S6).` and `vertical(Line,S1..S9).`
        Lp = "lp",
        /// ICPC "sumdoku": 15 lines of `<`, `=`, `>`.
        Kattis = "kattis",
        /// A classic puzzle on one line of n*n cells (`.` for blanks); several lines are a collection.
        Givens = "givens",
        /// A classic puzzle as n rows, with `|`, `-`, `+` and spaces as separators.
        Grid = "grid",
        /// The native format: size, boxes or regions, givens and every variant constraint.
        Puzzle = "puzzle",
        /// f-puzzles: the editor's JSON, its compressed share string, or a `?load=` link.
        Fpuzzles = "fpuzzles",
        /// Takuzu (Binairo): n rows of `0`, `1` and `.`, n even.
        Takuzu = "takuzu",
    }
}

/// A malformed input, located at a 1-based line and column (in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The file (or `<stdin>`) the text came from.
    pub source_name: String,
    /// From 1; 0 when the error is placed by a path instead.
    pub line: usize,
    /// From 1, in characters.
    pub col: usize,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for ParseError {
    /// `file:line:col: message`, or `file: message` for an error placed by
    /// a path (f-puzzles' JSON paths), whose line is 0.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return write!(f, "{}: {}", self.source_name, self.message);
        }
        write!(f, "{}:{}:{}: {}", self.source_name, self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// A 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// From 1.
    pub line: usize,
    /// From 1, in characters.
    pub col: usize,
}

impl Pos {
    /// An error at this position of `source_name`.
    pub fn error(self, source_name: &str, message: impl Into<String>) -> ParseError {
        ParseError { source_name: source_name.to_owned(), line: self.line, col: self.col, message: message.into() }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Guesses the format from the content:
/// - `<`, `=` or `>` first: Kattis;
/// - a first word `size`: the native puzzle format;
/// - a first line with `(`, or a `%` or `/*` comment: LP facts;
/// - a first puzzle line that is one word of n*n cell characters: givens
///   (a collection if more lines follow);
/// - other lines of cell characters and separators: a grid;
/// - anything else is read as LP facts, whose errors then explain what was expected.
pub fn detect(text: &str) -> Format {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
    let cell_like = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_');
    let grid_like = |c: char| cell_like(c) || matches!(c, '|' | '-' | '+' | ' ' | '\t');
    if fpuzzles::looks_like(text) {
        return Format::Fpuzzles;
    }
    if looks_like_takuzu(text) {
        return Format::Takuzu;
    }
    match first.chars().next() {
        Some('<' | '=' | '>') => Format::Kattis,
        _ if first.split_whitespace().next() == Some("size") => Format::Puzzle,
        _ if first.contains('(') || first.starts_with('%') || first.starts_with("/*") => Format::Lp,
        _ if grid::puzzle_text(first).is_some_and(|word| {
            // A word of cell characters that has n*n of them, or blanks or
            // digits (so that a line of the wrong length gets the givens
            // format's message).
            let n = word.chars().count();
            let square = (2..=64).any(|s| s * s == n);
            let blanks_or_digits = word.chars().any(|c| c == '.' || c.is_ascii_digit());
            // Rows of a grid are not lines of the wrong length.
            let grid = !square && looks_like_grid(text);
            n >= 4 && word.chars().all(cell_like) && (square || blanks_or_digits) && !grid
        }) =>
        {
            Format::Givens
        }
        Some(_) if first.chars().all(grid_like) && looks_like_grid(text) => Format::Grid,
        _ => Format::Lp,
    }
}

/// Whether `text` is rows of `0`, `1` and `.` only, as many as each has
/// cells, with both a 0 and a 1 somewhere (a classic grid has other digits).
fn looks_like_takuzu(text: &str) -> bool {
    let rows: Vec<&str> =
        text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()).collect();
    let binary = rows.iter().all(|r| r.chars().all(|c| matches!(c, '0' | '1' | '.' | ' ')));
    let square = rows.iter().all(|r| r.chars().filter(|&c| c != ' ').count() == rows.len());
    binary && square && rows.len() >= 2 && text.contains('0') && text.contains('1')
}

/// Whether `text` has as many rows with cells as its first row has cells
/// (separators and `#` comments aside): an n x n grid.
fn looks_like_grid(text: &str) -> bool {
    let cells = |line: &str| {
        let line = line.split('#').next().unwrap_or("");
        line.chars().filter(|c| !matches!(c, '|' | '-' | '+' | ' ' | '\t')).count()
    };
    let rows: Vec<usize> = text.lines().map(cells).filter(|&n| n > 0).collect();
    rows.first().is_some_and(|&n| n >= 2 && rows.len() == n)
}

/// Parses `text` in `format`, or in the detected format when `None`.
/// `source_name` appears in error messages (a path, or `<stdin>`).
pub fn parse(text: &str, source_name: &str, format: Option<Format>) -> Result<Puzzle, ParseError> {
    parse_with(text, source_name, format, Options::default())
}

/// What the format alone does not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The box shape for the `givens` and `grid` formats, instead of the
    /// usual one for the side.
    pub boxes: Option<(usize, usize)>,
    /// Takuzu: no two rows and no two columns alike (on by default).
    pub takuzu_distinct: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { boxes: None, takuzu_distinct: true }
    }
}

/// [`parse`] with [`Options`].
pub fn parse_with(
    text: &str,
    source_name: &str,
    format: Option<Format>,
    options: Options,
) -> Result<Puzzle, ParseError> {
    let boxes = options.boxes;
    match format.unwrap_or_else(|| detect(text)) {
        Format::Lp => lp::parse_lp(text, source_name),
        Format::Kattis => kattis::parse_kattis(text, source_name),
        Format::Givens => grid::parse_givens(text, source_name, boxes),
        Format::Grid => grid::parse_grid(text, source_name, boxes),
        Format::Puzzle => puzzle::parse_puzzle(text, source_name),
        Format::Fpuzzles => fpuzzles::parse_fpuzzles(text, source_name),
        Format::Takuzu => takuzu::parse_takuzu(text, source_name, options.takuzu_distinct),
    }
}

/// Quotes what was found for an error message, shortened to a readable length.
pub(crate) fn quote(found: &str) -> String {
    let short: String = found.chars().take(24).collect();
    let ellipsis = if found.chars().count() > 24 { "..." } else { "" };
    format!("{:?}", short + ellipsis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_formats() {
        assert_eq!(detect("<<=\n>>\n"), Format::Kattis);
        assert_eq!(detect("row(1,0,0,0,0,0,0)."), Format::Lp);
        assert_eq!(detect(""), Format::Lp);
        assert_eq!(detect("  <<x"), Format::Kattis);
        assert_eq!(detect("% <<<"), Format::Lp);
    }
}

/// The parsers never panic, whatever the bytes, and every error points at a
/// line and column inside the text (or just past its end).
#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    const LP: &str = include_str!("../../cnf-samples/contest.lp");
    const KATTIS: &str = include_str!("../../cnf-samples/kattis-sample.txt");

    fn check(text: &str) {
        for format in [None, Some(Format::Lp), Some(Format::Kattis)] {
            if let Err(err) = parse(text, "fuzz", format) {
                let lines: Vec<&str> = text.split('\n').collect();
                assert!(err.line >= 1 && err.line <= lines.len().max(1), "{err} in {text:?}");
                let width = lines.get(err.line - 1).map_or(0, |l| l.chars().count());
                assert!(err.col >= 1 && err.col <= width + 1, "{err} in {text:?}");
            }
        }
    }

    /// `text` with `edits` applied: (position, kind, byte) deletes, inserts or replaces.
    fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> String {
        let mut bytes = text.as_bytes().to_vec();
        let alphabet = b"row(vertical),.-0123456789 \n\r%/*<=>x\xff";
        for &(at, kind, pick) in edits {
            let at = at % (bytes.len() + 1);
            let byte = alphabet[usize::from(pick) % alphabet.len()];
            match kind % 3 {
                0 if at < bytes.len() => {
                    bytes.remove(at);
                }
                1 => bytes.insert(at, byte),
                _ if at < bytes.len() => bytes[at] = byte,
                _ => {}
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            check(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn mutated_lp(edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6)) {
            check(&mutate(LP, &edits));
        }

        #[test]
        fn mutated_kattis(edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6)) {
            check(&mutate(KATTIS, &edits));
        }
    }
}
