//! Reading inputs: a file or stdin, bounded in size, as UTF-8 text (a
//! byte-order mark is skipped), named in messages with control characters
//! escaped.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use satsudoku::model::Puzzle;
use satsudoku::parse::{self, Format, Pos};

use super::error::{AppError, InputError};

/// The largest input read, in bytes: far above any puzzle, so that reading
/// `/dev/zero` or a runaway file ends with a clear error, not out of memory.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Where an input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    /// `-` or no path is stdin.
    pub fn from_arg(path: Option<&Path>) -> Source {
        match path {
            Some(p) if p.as_os_str() != "-" => Source::File(p.to_owned()),
            _ => Source::Stdin,
        }
    }

    /// The name messages give it: the path with control characters escaped,
    /// or `<stdin>`.
    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_owned(),
            Source::File(path) => display_name(path),
        }
    }

    /// The file, if it is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Source::Stdin => None,
            Source::File(path) => Some(path),
        }
    }
}

/// The sources of a list of file arguments: stdin when there are none.
pub fn sources(files: &[std::path::PathBuf]) -> Vec<Source> {
    if files.is_empty() {
        vec![Source::Stdin]
    } else {
        files.iter().map(|f| Source::from_arg(Some(f))).collect()
    }
}

/// A path as messages show it: lossy UTF-8, control characters escaped
/// (`\n`, `\u{1b}`), so a file name cannot rewrite the terminal or forge a line.
pub fn display_name(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// An input's text and the name to report it by.
pub struct Text {
    pub name: String,
    pub text: String,
}

/// Reads `source` as UTF-8 text of at most [`MAX_INPUT_BYTES`]. A file
/// argument that names no file but is itself a puzzle (a givens line, an
/// f-puzzles share string or link) is read as the puzzle, and stderr says
/// so; one that is neither is an error that says how to pipe a puzzle in.
pub fn read_text(source: &Source) -> Result<Text, AppError> {
    if let Source::File(path) = source {
        if !path.exists() && path.symlink_metadata().is_err() {
            let argument = path.to_string_lossy();
            let name = "<argument>";
            if parse::detect(&argument, name, parse::Options::default()).is_ok() {
                crate::diag!("satsudoku: no file {}: reading the argument itself as the puzzle", display_name(path));
                return Ok(Text { name: name.to_owned(), text: argument.into_owned() });
            }
            return Err(AppError::Usage(format!(
                "cannot read {}: no such file, and the argument is no puzzle either; to give a puzzle as text, \
                 pipe it in: echo 'PUZZLE' | satsudoku COMMAND",
                display_name(path)
            )));
        }
    }
    let name = source.name();
    let read_err = |source| InputError::Read { name: name.clone(), source };
    let mut bytes = Vec::new();
    let limit = MAX_INPUT_BYTES + 1;
    match source {
        Source::Stdin => io::stdin().lock().take(limit).read_to_end(&mut bytes),
        Source::File(path) => fs::File::open(path).and_then(|file| file.take(limit).read_to_end(&mut bytes)),
    }
    .map_err(read_err)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(InputError::TooLarge { name, limit: MAX_INPUT_BYTES }.into());
    }
    let text = decode_utf8(bytes, &name)?;
    Ok(Text { name, text })
}

/// The text of `bytes`, without a leading byte-order mark; an error at the
/// first byte that is not UTF-8.
fn decode_utf8(bytes: Vec<u8>, name: &str) -> Result<String, AppError> {
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            if text.starts_with('\u{feff}') {
                text.drain(..'\u{feff}'.len_utf8());
            }
            Ok(text)
        }
        Err(err) => {
            let valid = &err.as_bytes()[..err.utf8_error().valid_up_to()];
            let valid = std::str::from_utf8(valid).unwrap_or_default();
            let line = valid.matches('\n').count() + 1;
            let col = valid.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            let byte = err.as_bytes()[valid.len()];
            Err(Pos { line, col }.error(name, format!("expected UTF-8 text, found byte 0x{byte:02x}")).into())
        }
    }
}

/// How the input is to be read: its format (detected when `None`) and
/// what the format alone does not say (box shape, Takuzu rules).
#[derive(Clone, Copy, Debug, Default)]
pub struct Reading {
    pub format: Option<Format>,
    pub options: parse::Options,
}

/// Reads and parses one puzzle (a collection of several is an error that
/// says so), and says in what format it was read.
pub fn read_puzzle(source: &Source, reading: Reading) -> Result<(String, Puzzle, Format), AppError> {
    let Text { name, text } = read_text(source)?;
    let format = match reading.format {
        Some(format) => format,
        None => parse::detect(&text, &name, reading.options)?,
    };
    let puzzle = parse::parse_with(&text, &name, Some(format), reading.options)?;
    Ok((name, puzzle, format))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_in_names_are_escaped() {
        assert_eq!(display_name(Path::new("a\nb\u{1b}[31m.lp")), "a\\nb\\u{1b}[31m.lp");
        assert_eq!(display_name(Path::new("plain/é.lp")), "plain/é.lp");
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_bad_bytes_are_located() {
        assert_eq!(decode_utf8("\u{feff}row".as_bytes().to_vec(), "x").unwrap(), "row");
        let err = decode_utf8(b"ab\ncd\xff".to_vec(), "x.lp").unwrap_err().to_string();
        assert_eq!(err, "x.lp:2:3: expected UTF-8 text, found byte 0xff");
    }
}
