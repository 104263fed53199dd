//! The ICPC "sumdoku" form: 15 lines of `<`, `=`, `>`, in the contest's line
//! order (6 symbols on row lines, 9 on vertical lines). White space around a
//! line's symbols and blank lines after the last are ignored; CRLF is accepted.

use std::cmp::Ordering;

use super::contest::{self, LINES};
use super::{quote, ParseError, Pos};
use crate::model::Puzzle;

/// Parses the 15 symbol lines into the contest [`Puzzle`].
pub fn parse_kattis(text: &str, source_name: &str) -> Result<Puzzle, ParseError> {
    let all: Vec<&str> = text.lines().collect();
    let used = all.iter().rposition(|l| !l.trim().is_empty()).map_or(0, |i| i + 1);
    if used == 0 {
        let pos = Pos { line: all.len().max(1), col: 1 };
        return Err(pos.error(source_name, "empty input: expected 15 lines of '<', '=' or '>'"));
    }
    let mut lines: [Vec<Ordering>; LINES] = Default::default();
    for (i, raw) in all[..used].iter().enumerate() {
        let number = i + 1;
        let Some(kind) = contest::line_kind(number) else {
            let pos = Pos { line: number, col: 1 };
            return Err(
                pos.error(source_name, format!("expected end of input after 15 lines, found {}", quote(raw.trim())))
            );
        };
        let expected = kind.symbols();
        let mut symbols = Vec::with_capacity(expected);
        let mut col_after = 1;
        for (col0, c) in raw.chars().enumerate() {
            let pos = Pos { line: number, col: col0 + 1 };
            if c.is_whitespace() {
                continue;
            }
            let cmp = match c {
                '<' => Ordering::Less,
                '=' => Ordering::Equal,
                '>' => Ordering::Greater,
                _ => {
                    return Err(
                        pos.error(source_name, format!("expected '<', '=' or '>', found {}", quote(&c.to_string())))
                    )
                }
            };
            if symbols.len() == expected {
                return Err(pos.error(source_name, format!("expected {expected} symbols on line {number}, found more")));
            }
            symbols.push(cmp);
            col_after = col0 + 2;
        }
        if symbols.len() != expected {
            let pos = Pos { line: number, col: col_after };
            let message = format!("expected {expected} symbols on line {number}, found {}", symbols.len());
            return Err(pos.error(source_name, message));
        }
        lines[i] = symbols;
    }
    if used < LINES {
        let pos = Pos { line: used + 1, col: 1 };
        return Err(pos.error(source_name, format!("expected 15 lines of symbols, found {used}")));
    }
    Ok(contest::build(&lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = include_str!("../../cnf-samples/kattis-sample.txt");

    #[test]
    fn parses_the_public_sample() {
        assert_eq!(parse_kattis(SAMPLE, "s").unwrap().relations().len(), 108);
    }

    #[test]
    fn locates_errors() {
        let err = |t: &str| parse_kattis(t, "k.txt").unwrap_err().to_string();
        assert_eq!(err("<<x"), "k.txt:1:3: expected '<', '=' or '>', found \"x\"");
        assert_eq!(err("<<<"), "k.txt:1:4: expected 6 symbols on line 1, found 3");
        assert_eq!(err("<<<<<<<"), "k.txt:1:7: expected 6 symbols on line 1, found more");
        assert_eq!(err("<<<<<<\n"), "k.txt:2:1: expected 15 lines of symbols, found 1");
        assert_eq!(err("\n\n"), "k.txt:2:1: empty input: expected 15 lines of '<', '=' or '>'");
    }
}
