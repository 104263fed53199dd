//! Input formats: each turns text into a [`Puzzle`] or a [`ParseError`] that
//! names the place (`file:line:col`), what was expected and what was found.

pub mod contest;
pub mod fpuzzles;
pub mod grid;
pub mod iss;
pub mod json;
pub mod kattis;
pub mod lp;
mod lzstring;
pub mod puzzle;
pub mod takuzu;

use std::fmt;

use crate::named::Named;

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
        /// sigh's Interactive Sudoku Solver: its constraint string (`.Type~arg~cells`), its link, or its killer and jigsaw shorthands.
        Iss = "iss",
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

/// The format of `text`, from its content. Each format whose shape the
/// text has is a candidate:
/// - f-puzzles: JSON with a `grid`, a share string, an f-puzzles or SudokuPad link;
/// - Kattis: `<`, `=` or `>` first;
/// - the native puzzle format: a first word `size`;
/// - LP facts: a first line with `(`, or a `%` or `/*` comment;
/// - givens: a first puzzle line that is one word of cell characters, at
///   least half of them digits or blanks (several such lines are a
///   collection; prose is no puzzle);
/// - grid: as many rows of cells (and separators) as the first row has cells;
/// - Takuzu: rows of `0`, `1` and `.`, as many as each has cells, an even number;
/// - ISS: a link to sigh's Interactive Sudoku Solver with a `q` parameter,
///   or a first item that is a given (`.~R1C1_5`) or one of ISS's types.
///
/// A file whose extension is a format's name (`x.lp`, `x.grid`,
/// `x.puzzle`, `x.takuzu`, `x.givens`, `x.kattis`, `x.fpuzzles`, `x.iss`) is read in
/// that format: the name says it. Otherwise each candidate is read (a
/// collection: its first line); the one that reads is the format. Two that both read, such as a grid of 0, 1 and
/// blanks that is also a Takuzu, are an error naming them: the counts
/// differ, so the reading is not guessed. None that reads gives the
/// candidate's error when there is one, else an error that the format is
/// not recognised.
pub fn detect(text: &str, name: &str, options: Options) -> Result<Format, ParseError> {
    let extension = std::path::Path::new(name).extension().and_then(|e| e.to_str());
    if let Some(format) = extension.and_then(Format::from_name) {
        return Ok(format);
    }
    let candidates = candidates(text);
    let mut read = Vec::new();
    let mut errors = Vec::new();
    for &format in &candidates {
        let sample = match format {
            Format::Givens => grid::collection_lines(text).next().map_or("", |(_, line)| line),
            _ => text,
        };
        let outcome = match format {
            // A collection of f-puzzles puzzles is that format; its first
            // puzzle says whether it reads.
            Format::Fpuzzles => fpuzzles::items(text, name).and_then(|items| match &items[..] {
                [first, _, ..] => fpuzzles::parse_item(first, name).map(|_| ()),
                _ => fpuzzles::parse_fpuzzles(text, name).map(|_| ()),
            }),
            // So is a file of several `puzzle` or Takuzu puzzles.
            Format::Puzzle | Format::Takuzu => {
                let first = parts(text).first().copied().unwrap_or(Part::whole(text));
                parse_part(first, name, format, options).map(|_| ())
            }
            _ => parse_with(sample, name, Some(format), options).map(|_| ()),
        };
        match outcome {
            Ok(()) => read.push(format),
            Err(err) => errors.push(err),
        }
    }
    let start = Pos { line: 1, col: 1 };
    match (&read[..], &candidates[..]) {
        ([only], _) => Ok(*only),
        ([], [_]) => Err(errors.swap_remove(0)),
        ([], []) if text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) => {
            Err(start.error(name, "empty input: expected a puzzle"))
        }
        ([], []) => Err(start.error(
            name,
            format!("not a recognised format: use --format with one of {}", <Format as crate::named::Named>::names()),
        )),
        ([], several) => Err(start.error(
            name,
            format!(
                "not a recognised format: it does not read as {}; use --format to say which it is and see why",
                itertools::join(several, " or ")
            ),
        )),
        (several, _) => Err(start.error(
            name,
            format!(
                "this reads as {}, whose counts differ: say which with {}",
                itertools::join(several, " and as "),
                itertools::join(several.iter().map(|f| format!("--format {f}")), " or ")
            ),
        )),
    }
}

/// The formats whose shape `text` has (see [`detect`]).
fn candidates(text: &str) -> Vec<Format> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
    let cell_like = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_');
    let grid_like = |c: char| cell_like(c) || matches!(c, '|' | '-' | '+' | ' ' | '\t');
    let mut found = Vec::new();
    if fpuzzles::looks_like(text) {
        return vec![Format::Fpuzzles];
    }
    if iss::looks_like(text) {
        return vec![Format::Iss];
    }
    match first.chars().next() {
        Some('<' | '=' | '>') => found.push(Format::Kattis),
        _ if first.split_whitespace().next() == Some("size") => found.push(Format::Puzzle),
        _ if first.contains('(') || first.starts_with('%') || first.starts_with("/*") => found.push(Format::Lp),
        _ => {}
    }
    if !found.is_empty() {
        return found;
    }
    // A puzzle's word is mostly digits and blanks; prose (a README's first
    // word) is letters, and is no puzzle of any format.
    let puzzle_like = |word: &str| {
        let digits = word.chars().filter(|c| c.is_ascii_digit() || matches!(c, '.' | '_')).count();
        2 * digits >= word.chars().count()
    };
    if grid::puzzle_text(first)
        .is_some_and(|word| word.chars().count() >= 4 && word.chars().all(cell_like) && puzzle_like(word))
    {
        found.push(Format::Givens);
    }
    if first.chars().all(grid_like) && looks_like_grid(text) {
        found.push(Format::Grid);
    }
    if looks_like_takuzu(text) {
        found.push(Format::Takuzu);
    }
    if iss::may_be_shorthand(text) {
        found.push(Format::Iss);
    }
    found
}

/// Whether `text` is rows of `0`, `1`, `.` and `_` only, as many as each
/// has cells, an even number of them.
fn looks_like_takuzu(text: &str) -> bool {
    let rows: Vec<&str> =
        text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()).collect();
    let binary = rows.iter().all(|r| r.chars().all(|c| matches!(c, '0' | '1' | '.' | '_' | ' ' | '\t')));
    let square = rows.iter().all(|r| r.chars().filter(|c| !c.is_whitespace()).count() == rows.len());
    binary && square && rows.len() >= 2 && rows.len() % 2 == 0
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
    let format = match format {
        Some(format) => format,
        None => detect(text, source_name, options)?,
    };
    match format {
        Format::Lp => lp::parse_lp(text, source_name),
        Format::Kattis => kattis::parse_kattis(text, source_name),
        Format::Givens => grid::parse_givens(text, source_name, boxes),
        Format::Grid => grid::parse_grid(text, source_name, boxes),
        Format::Puzzle => puzzle::parse_puzzle(text, source_name),
        Format::Fpuzzles => fpuzzles::parse_fpuzzles(text, source_name),
        Format::Takuzu => takuzu::parse_takuzu(text, source_name, options.takuzu_distinct),
        Format::Iss => iss::parse_iss(text, source_name),
    }
}

/// The line that separates two puzzles of one `puzzle` or Takuzu file
/// (YAML's document separator), alone on its line but for a comment.
pub const SEPARATOR: &str = "---";

/// One puzzle of a `puzzle` or Takuzu file that may hold several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part<'t> {
    /// Its text: from its first line with content up to the separator
    /// line after it, or the end.
    pub text: &'t str,
    /// The lines of the file before it (its errors are placed in the file).
    pub skipped: usize,
    /// Whether a separator line ends it.
    pub separated: bool,
}

impl<'t> Part<'t> {
    /// A whole text as its one part: a file with no puzzle in it, read
    /// whole so that its parser says what it expected.
    fn whole(text: &'t str) -> Part<'t> {
        Part { text, skipped: 0, separated: false }
    }
}

/// The puzzles of a `puzzle` or Takuzu file, between [`SEPARATOR`] lines,
/// each from its first line with content (blank and comment lines alone
/// are no puzzle). A file without a separator is one part.
pub fn parts(text: &str) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    // The first line with content since the last separator: its byte
    // offset and number.
    let mut first: Option<(usize, usize)> = None;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let content = line.split('#').next().unwrap_or("").trim();
        if content == SEPARATOR {
            if let Some((from, skipped)) = first.take() {
                parts.push(Part { text: &text[from..offset], skipped, separated: true });
            }
        } else if first.is_none() && !content.is_empty() {
            first = Some((offset, i));
        }
        offset += line.len();
    }
    if let Some((from, skipped)) = first {
        parts.push(Part { text: &text[from..], skipped, separated: false });
    }
    parts
}

/// A file's one puzzle (the whole text when it has none); a file of
/// several [`parts`] is an error at the second, which says which commands
/// read them one by one.
fn single_part<'t>(text: &'t str, name: &str) -> Result<Part<'t>, ParseError> {
    let parts = parts(text);
    match &parts[..] {
        [] => Ok(Part::whole(text)),
        [one] => Ok(*one),
        [_, second, ..] => {
            let message = format!(
                "a second puzzle: this file holds {} puzzles separated by \"{SEPARATOR}\" lines, which {} read \
                 one by one; this command takes one puzzle",
                parts.len(),
                COLLECTION_COMMANDS
            );
            Err(Pos { line: second.skipped + 1, col: 1 }.error(name, message))
        }
    }
}

/// The commands that read each puzzle of a file of several, in a
/// sentence (the others take one puzzle).
pub(crate) const COLLECTION_COMMANDS: &str = "count, unique, candidates, rate and minimal";

/// Parses one of the [`parts`] of a `puzzle` or Takuzu file, its errors
/// placed in the whole file. The other formats have no parts: the part's
/// text is read whole.
pub fn parse_part(part: Part, name: &str, format: Format, options: Options) -> Result<Puzzle, ParseError> {
    match format {
        Format::Puzzle => puzzle::parse_part(part, name),
        Format::Takuzu => takuzu::parse_takuzu_part(part, name, options.takuzu_distinct),
        _ => parse_with(part.text, name, Some(format), options),
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

    fn candidates_of(text: &str) -> Vec<Format> {
        candidates(text)
    }

    /// The parts of a file are the texts between separator lines, each
    /// from its first line with content, with the lines before it counted
    /// (CRLF line ends too); separators with nothing between make none.
    #[test]
    fn a_file_splits_into_parts_at_separator_lines() {
        let text = "# two\r\n\r\nsize 4\r\n--- # next\r\n---\r\n\r\nsize 5\nbox none\n";
        let part = |text, skipped, separated| Part { text, skipped, separated };
        assert_eq!(parts(text), [part("size 4\r\n", 2, true), part("size 5\nbox none\n", 6, false)]);
        assert_eq!(parts("---\n# only\n---\n"), []);
        assert_eq!(parts("size 4"), [part("size 4", 0, false)]);
        assert_eq!(single_part("size 4\n---\nsize 4\n", "f").unwrap_err().to_string().get(..6), Some("f:3:1:"));
    }

    #[test]
    fn detects_formats() {
        assert_eq!(candidates_of("<<=\n>>\n"), [Format::Kattis]);
        assert_eq!(candidates_of("row(1,0,0,0,0,0,0)."), [Format::Lp]);
        assert_eq!(candidates_of(""), []);
        assert_eq!(candidates_of("  <<x"), [Format::Kattis]);
        assert_eq!(candidates_of("% <<<"), [Format::Lp]);
        assert_eq!(candidates_of("1000\n0010\n0100\n0001\n"), [Format::Givens, Format::Grid, Format::Takuzu]);
        assert_eq!(candidates_of("1234\n3412\n2143\n4321\n"), [Format::Givens, Format::Grid]);
        assert_eq!(detect("1234\n3412\n2143\n4321\n", "x", Options::default()), Ok(Format::Grid));
    }

    /// A grid of 0, 1 and blanks is also a Takuzu: the reading is not
    /// guessed. (As a 4x4 grid this has 18 solutions, as a Takuzu none.)
    #[test]
    fn a_text_that_reads_two_ways_is_refused() {
        let err = detect("1000\n0010\n0100\n0001\n", "x", Options::default()).unwrap_err().to_string();
        assert!(err.contains("grid") && err.contains("takuzu") && err.contains("--format"), "{err}");
        let err = detect("{\"foo\": 1}", "x", Options::default()).unwrap_err().to_string();
        assert!(err.contains("not a recognised format"), "{err}");
        // ISS's pencil marks of a 9x9 (every candidate everywhere) are
        // also the givens of a 27x27 when its boxes are given: refused.
        let marks = "123456789".repeat(81);
        assert_eq!(candidates_of(&marks), [Format::Givens, Format::Iss]);
        assert_eq!(detect(&marks, "x", Options::default()), Ok(Format::Iss));
        let boxed = Options { boxes: Some((9, 3)), ..Options::default() };
        let err = detect(&marks, "x", boxed).unwrap_err().to_string();
        assert!(err.contains("givens and as iss") && err.contains("--format"), "{err}");
        // ISS's jigsaw shorthand with givens reads only as ISS's; its
        // plain grid is the givens format's.
        let jigsaw = format!("{}{}", ".".repeat(16), "1122112233443344");
        assert_eq!(candidates_of(&jigsaw), [Format::Givens, Format::Iss]);
        assert_eq!(detect(&jigsaw, "x", Options::default()), Ok(Format::Iss));
        assert_eq!(candidates_of(&"1.3.".repeat(4)), [Format::Givens]);
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
