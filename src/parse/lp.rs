//! The contest's LP facts: `row(Line,S1,...,S6).` and `vertical(Line,S1,...,S9).`
//! with `S` in {-1, 0, 1} for sum <, =, > 10. Facts come in any order, with any
//! white space between tokens, `%` line comments and `/* */` block comments.

use std::cmp::Ordering;

use super::contest::{self, LineKind, LINES};
use super::{quote, ParseError, Pos};
use crate::model::Puzzle;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Ident(String),
    /// An optionally signed run of decimal digits, kept as text.
    Int(String),
    Punct(char),
    /// Any other character, reported as found.
    Other(char),
    End,
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    pos: Pos,
}

impl Token {
    fn describe(&self) -> String {
        match &self.kind {
            Kind::Ident(s) | Kind::Int(s) => quote(s),
            Kind::Punct(c) | Kind::Other(c) => quote(&c.to_string()),
            Kind::End => "end of input".to_owned(),
        }
    }
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    pos: Pos,
    name: &'a str,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, name: &'a str) -> Lexer<'a> {
        Lexer { chars: text.chars().peekable(), pos: Pos { line: 1, col: 1 }, name }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.pos.line += 1;
            self.pos.col = 1;
        } else {
            self.pos.col += 1;
        }
        Some(c)
    }

    /// Skips white space and comments; fails on an unterminated block comment.
    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            match self.chars.peek() {
                Some(c) if c.is_whitespace() => {
                    self.bump();
                }
                Some('%') => {
                    while !matches!(self.chars.peek(), None | Some('\n')) {
                        self.bump();
                    }
                }
                Some('/') => {
                    let start = self.pos;
                    let mut ahead = self.chars.clone();
                    ahead.next();
                    if ahead.peek() != Some(&'*') {
                        return Ok(());
                    }
                    self.bump();
                    self.bump();
                    let mut last = ' ';
                    loop {
                        match self.bump() {
                            None => {
                                return Err(
                                    start.error(self.name, "unterminated comment: expected \"*/\" before end of input")
                                )
                            }
                            Some('/') if last == '*' => break,
                            Some(c) => last = c,
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn next_token(&mut self) -> Result<Token, ParseError> {
        self.skip_trivia()?;
        let pos = self.pos;
        let Some(&c) = self.chars.peek() else {
            return Ok(Token { kind: Kind::End, pos });
        };
        let kind = if c.is_ascii_alphabetic() || c == '_' {
            Kind::Ident(self.take_while(|c| c.is_ascii_alphanumeric() || c == '_'))
        } else if c.is_ascii_digit() || c == '-' || c == '+' {
            let mut text = String::new();
            text.push(c);
            self.bump();
            text.push_str(&self.take_while(|c| c.is_ascii_digit()));
            Kind::Int(text)
        } else if matches!(c, '(' | ')' | ',' | '.') {
            self.bump();
            Kind::Punct(c)
        } else {
            self.bump();
            Kind::Other(c)
        };
        Ok(Token { kind, pos })
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let mut text = String::new();
        while let Some(&c) = self.chars.peek() {
            if !keep(c) {
                break;
            }
            text.push(c);
            self.bump();
        }
        text
    }
}

/// The most arguments a fact has (`vertical`: the line and nine symbols).
const MAX_ARGS: usize = 10;

/// One parsed fact before its meaning is checked.
struct Fact {
    name: String,
    name_pos: Pos,
    args: Vec<(i64, Token)>,
}

struct Parser<'a> {
    lexer: Lexer<'a>,
    name: &'a str,
}

impl Parser<'_> {
    fn unexpected(&self, token: &Token, expected: &str) -> ParseError {
        token.pos.error(self.name, format!("expected {expected}, found {}", token.describe()))
    }

    fn expect_punct(&mut self, punct: char, expected: &str) -> Result<Token, ParseError> {
        let token = self.lexer.next_token()?;
        match token.kind {
            Kind::Punct(c) if c == punct => Ok(token),
            _ => Err(self.unexpected(&token, expected)),
        }
    }

    /// The next fact, or `None` at the end of input.
    fn fact(&mut self) -> Result<Option<Fact>, ParseError> {
        let head = self.lexer.next_token()?;
        let name = match &head.kind {
            Kind::End => return Ok(None),
            Kind::Ident(name) => name.clone(),
            _ => return Err(self.unexpected(&head, "a fact such as \"row(1,...).\"")),
        };
        self.expect_punct('(', &format!("'(' after {}", quote(&name)))?;
        let mut args = Vec::new();
        loop {
            let token = self.lexer.next_token()?;
            let Kind::Int(text) = &token.kind else {
                return Err(self.unexpected(&token, "an integer"));
            };
            let Ok(value) = text.parse::<i64>() else {
                let message = format!("expected an integer, found {}", token.describe());
                return Err(token.pos.error(self.name, message));
            };
            // No fact takes more arguments; stopping here keeps memory
            // proportional to the puzzle, not to a runaway fact.
            if args.len() == MAX_ARGS {
                let message = format!("expected ')': no fact takes more than {MAX_ARGS} arguments");
                return Err(token.pos.error(self.name, message));
            }
            args.push((value, token));
            let sep = self.lexer.next_token()?;
            match sep.kind {
                Kind::Punct(',') => continue,
                Kind::Punct(')') => break,
                _ => return Err(self.unexpected(&sep, "',' or ')'")),
            }
        }
        self.expect_punct('.', "'.' at the end of the fact")?;
        Ok(Some(Fact { name, name_pos: head.pos, args }))
    }
}

/// Parses contest facts into the contest [`Puzzle`].
pub fn parse_lp(text: &str, source_name: &str) -> Result<Puzzle, ParseError> {
    let mut parser = Parser { lexer: Lexer::new(text, source_name), name: source_name };
    let mut lines: [Option<(Pos, Vec<Ordering>)>; LINES] = Default::default();
    let mut facts = 0;
    while let Some(fact) = parser.fact()? {
        facts += 1;
        let kind = match fact.name.as_str() {
            "row" => LineKind::Row,
            "vertical" => LineKind::Vertical,
            _ => {
                let message = format!("unknown predicate {}: expected \"row\" or \"vertical\"", quote(&fact.name));
                return Err(fact.name_pos.error(source_name, message));
            }
        };
        let arity = kind.symbols() + 1;
        if fact.args.len() != arity {
            let message = format!(
                "{} takes {arity} arguments (the line number and {} symbols), found {}",
                fact.name,
                kind.symbols(),
                fact.args.len()
            );
            return Err(fact.name_pos.error(source_name, message));
        }
        let (line, line_token) = &fact.args[0];
        let expected_lines = itertools::join(contest::lines_of(kind), ", ");
        let index = usize::try_from(*line).ok().filter(|&l| contest::line_kind(l) == Some(kind)).ok_or_else(|| {
            let message =
                format!("expected a {} line number ({expected_lines}), found {}", fact.name, line_token.describe());
            line_token.pos.error(source_name, message)
        })?;
        let mut symbols = Vec::with_capacity(kind.symbols());
        for (value, token) in &fact.args[1..] {
            let cmp = match value {
                -1 => Ordering::Less,
                0 => Ordering::Equal,
                1 => Ordering::Greater,
                _ => {
                    let message = format!("expected -1, 0 or 1, found {}", token.describe());
                    return Err(token.pos.error(source_name, message));
                }
            };
            symbols.push(cmp);
        }
        let slot = &mut lines[index - 1];
        if let Some((first, _)) = slot {
            let message = format!("{} line {index} is given twice (first at {first})", fact.name);
            return Err(fact.name_pos.error(source_name, message));
        }
        *slot = Some((fact.name_pos, symbols));
    }
    let end = parser.lexer.pos;
    if facts == 0 {
        return Err(end.error(source_name, "empty input: expected row/7 and vertical/10 facts"));
    }
    let missing: Vec<String> = (1..=LINES)
        .filter(|&l| lines[l - 1].is_none())
        .map(|l| match contest::line_kind(l) {
            Some(LineKind::Row) => format!("row {l}"),
            _ => format!("vertical {l}"),
        })
        .collect();
    if !missing.is_empty() {
        let message = format!("missing lines: {} (expected all 15 lines)", missing.join(", "));
        return Err(end.error(source_name, message));
    }
    let symbols = lines.map(|slot| slot.map(|(_, s)| s).unwrap_or_default());
    Ok(contest::build(&symbols))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = include_str!("../../cnf-samples/contest.lp");

    fn error(text: &str) -> String {
        parse_lp(text, "t.lp").unwrap_err().to_string()
    }

    #[test]
    fn parses_the_contest_example() {
        let puzzle = parse_lp(EXAMPLE, "contest.lp").unwrap();
        assert_eq!(puzzle.relations().len(), 9 * 6 + 6 * 9);
    }

    #[test]
    fn accepts_comments_crlf_and_any_order() {
        let mut facts: Vec<&str> =
            EXAMPLE.lines().filter(|l| l.starts_with("row") || l.starts_with("vertical")).collect();
        facts.reverse();
        let text = format!("% reversed\r\n/* block\r\n comment */{}", facts.join("\r\n  "));
        let spaced = text.replace(",", " ,\n ");
        assert_eq!(parse_lp(&spaced, "t.lp").unwrap(), parse_lp(EXAMPLE, "e.lp").unwrap());
    }

    #[test]
    fn locates_errors() {
        assert_eq!(error("row(1,0,0,0,0,0,2)."), "t.lp:1:17: expected -1, 0 or 1, found \"2\"");
        assert_eq!(error("\n  foo(1)."), "t.lp:2:3: unknown predicate \"foo\": expected \"row\" or \"vertical\"");
        assert_eq!(error("row(1,0,x"), "t.lp:1:9: expected an integer, found \"x\"");
        assert_eq!(error("row(1,0,0,0,0,0,0)"), "t.lp:1:19: expected '.' at the end of the fact, found end of input");
        assert_eq!(error("/* open"), "t.lp:1:1: unterminated comment: expected \"*/\" before end of input");
        assert_eq!(error("  % only a comment\n"), "t.lp:2:1: empty input: expected row/7 and vertical/10 facts");
    }
}
