//! Input formats: each turns text into a [`Puzzle`] or a [`ParseError`] that
//! names the place (`file:line:col`), what was expected and what was found.

pub mod contest;
pub mod kattis;
pub mod lp;

use std::fmt;

use crate::model::Puzzle;

/// The input formats `satsudoku` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Contest facts: `row(Line,S1..S6).` and `vertical(Line,S1..S9).`
    Lp,
    /// ICPC "sumdoku": 15 lines of `<`, `=`, `>`.
    Kattis,
}

/// A malformed input, located at a 1-based line and column (in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub source_name: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.source_name, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// A 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

impl Pos {
    pub fn error(self, source_name: &str, message: impl Into<String>) -> ParseError {
        ParseError {
            source_name: source_name.to_owned(),
            line: self.line,
            col: self.col,
            message: message.into(),
        }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Guesses the format: text made only of `<`, `=`, `>` and white space is
/// Kattis; anything else is read as LP facts (whose errors then explain).
pub fn detect(text: &str) -> Format {
    let mut symbols = text.chars().filter(|c| !c.is_whitespace()).peekable();
    if symbols.peek().is_some() && symbols.all(|c| matches!(c, '<' | '=' | '>')) {
        Format::Kattis
    } else {
        Format::Lp
    }
}

/// Parses `text` in `format`, or in the detected format when `None`.
/// `source_name` appears in error messages (a path, or `<stdin>`).
pub fn parse(text: &str, source_name: &str, format: Option<Format>) -> Result<Puzzle, ParseError> {
    match format.unwrap_or_else(|| detect(text)) {
        Format::Lp => lp::parse_lp(text, source_name),
        Format::Kattis => kattis::parse_kattis(text, source_name),
    }
}

/// Quotes what was found for an error message, shortened to a readable length.
pub(crate) fn quote(found: &str) -> String {
    let short: String = found.chars().take(24).collect();
    let ellipsis = if found.chars().count() > 24 {
        "..."
    } else {
        ""
    };
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
        assert_eq!(detect("<< x"), Format::Lp);
    }
}
