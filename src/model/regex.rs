//! Regular expressions over a line's digits, in the grammar of sigh's
//! Interactive Sudoku Solver's `Regex` rule (its `js/nfa_builder.js`):
//! literals, `.`, classes `[...]` and `[^...]` with ranges, groups `(...)`,
//! alternation `|`, and the quantifiers `*`, `+`, `?`, `{n}`, `{n,}`,
//! `{n,m}`. A character is a value: `0`-`9`, then `A`-`Z` (or `a`-`z`) for
//! 10 and up; a value outside `1..=n` is an error, as in ISS. The pattern
//! matches the whole line.
//!
//! Compiled to a nondeterministic automaton (Thompson's construction) and
//! run on sets of its states: [`Regex::start`], [`Regex::step`] and
//! [`Regex::accepts`] are the deterministic automaton the encoder unrolls
//! over the line (`encode::constraint::automaton`).

use super::Digit;

/// The most automaton states a pattern may take (`{1000}` of a large
/// group is refused rather than built).
const MAX_STATES: usize = 20_000;

#[derive(Clone, Debug)]
enum Node {
    /// One cell holding one of the values (bit `v - 1`).
    Set(u64),
    Concat(Vec<Node>),
    Alternate(Vec<Node>),
    Repeat(Box<Node>, usize, Option<usize>),
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub struct Regex {
    /// Per state: the values it reads (bit `v - 1`) and the state they lead to.
    edges: Vec<Option<(u64, usize)>>,
    /// Per state: the states it reaches without reading.
    epsilon: Vec<Vec<usize>>,
    start: usize,
    accept: usize,
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    n: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        self.at += usize::from(c.is_some());
        c
    }

    fn error(&self, what: &str) -> String {
        format!("{what} at position {} of the pattern", self.at + 1)
    }

    fn expression(&mut self) -> Result<Node, String> {
        let mut options = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.next();
            options.push(self.sequence()?);
        }
        Ok(if options.len() == 1 { options.pop().expect("one") } else { Node::Alternate(options) })
    }

    fn sequence(&mut self) -> Result<Node, String> {
        let mut parts = Vec::new();
        while self.peek().is_some_and(|c| c != '|' && c != ')') {
            parts.push(self.quantified()?);
        }
        Ok(if parts.len() == 1 { parts.pop().expect("one") } else { Node::Concat(parts) })
    }

    fn quantified(&mut self) -> Result<Node, String> {
        let mut node = self.primary()?;
        loop {
            node = match self.peek() {
                Some('*') => Node::Repeat(Box::new(node), 0, None),
                Some('+') => Node::Repeat(Box::new(node), 1, None),
                Some('?') => Node::Repeat(Box::new(node), 0, Some(1)),
                Some('{') => {
                    self.next();
                    let min = self.number().ok_or_else(|| self.error("expected a number after '{'"))?;
                    let max = if self.peek() == Some(',') {
                        self.next();
                        if self.peek() == Some('}') {
                            None
                        } else {
                            Some(self.number().ok_or_else(|| self.error("expected a number or '}'"))?)
                        }
                    } else {
                        Some(min)
                    };
                    if max.is_some_and(|max| max < min) {
                        return Err(self.error("a quantifier whose maximum is below its minimum"));
                    }
                    if self.peek() != Some('}') {
                        return Err(self.error("expected '}'"));
                    }
                    node = Node::Repeat(Box::new(node), min, max);
                    self.next();
                    continue;
                }
                _ => return Ok(node),
            };
            self.next();
        }
    }

    fn number(&mut self) -> Option<usize> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.next();
        }
        let text: String = self.chars[start..self.at].iter().collect();
        text.parse().ok().filter(|&k: &usize| k <= MAX_STATES)
    }

    fn value(&self, c: char) -> Result<u64, String> {
        let value = symbol_value(c).ok_or_else(|| self.error(&format!("unsupported character {c:?}")))?;
        if !(1..=self.n).contains(&value) {
            return Err(self.error(&format!("{c:?} is out of the values 1-{}", self.n)));
        }
        Ok(1 << (value - 1))
    }

    fn primary(&mut self) -> Result<Node, String> {
        let all = if self.n >= 64 { u64::MAX } else { (1 << self.n) - 1 };
        match self.peek() {
            Some('(') => {
                self.next();
                let inner = self.expression()?;
                if self.next() != Some(')') {
                    return Err(self.error("an unclosed group"));
                }
                Ok(inner)
            }
            Some('[') => {
                self.next();
                let negated = self.peek() == Some('^');
                if negated {
                    self.next();
                }
                let mut set = 0u64;
                let mut any = false;
                while self.peek().is_some_and(|c| c != ']') {
                    let first = self.next().expect("a character");
                    if self.peek() == Some('-') {
                        self.next();
                        let last = self.next().ok_or_else(|| self.error("an unfinished range"))?;
                        if last < first {
                            return Err(self.error("a range that runs backwards"));
                        }
                        for c in first..=last {
                            set |= self.value(c)?;
                        }
                    } else {
                        set |= self.value(first)?;
                    }
                    any = true;
                }
                if self.next() != Some(']') {
                    return Err(self.error("expected ']'"));
                }
                if !any {
                    return Err(self.error("an empty character class"));
                }
                Ok(Node::Set(if negated { all & !set } else { set }))
            }
            Some('.') => {
                self.next();
                Ok(Node::Set(all))
            }
            None => Err(self.error("the pattern ends early")),
            Some(c) if "*+?{|)".contains(c) => Err(self.error(&format!("unexpected {c:?}"))),
            Some(c) => {
                self.next();
                Ok(Node::Set(self.value(c)?))
            }
        }
    }
}

impl Regex {
    /// Compiles `pattern` for digits `1..=n`, or says what is wrong.
    pub fn new(pattern: &str, n: usize) -> Result<Regex, String> {
        let mut parser = Parser { chars: pattern.chars().collect(), at: 0, n };
        let ast = parser.expression()?;
        if parser.at < parser.chars.len() {
            return Err(parser.error("unexpected ')'"));
        }
        let mut regex = Regex { edges: Vec::new(), epsilon: Vec::new(), start: 0, accept: 0 };
        let (start, accept) = regex.build(&ast)?;
        (regex.start, regex.accept) = (start, accept);
        Ok(regex)
    }

    fn state(&mut self) -> Result<usize, String> {
        if self.edges.len() >= MAX_STATES {
            return Err(format!("the pattern needs more than {MAX_STATES} automaton states"));
        }
        self.edges.push(None);
        self.epsilon.push(Vec::new());
        Ok(self.edges.len() - 1)
    }

    /// Thompson's construction: the fragment's start and accepting state.
    fn build(&mut self, node: &Node) -> Result<(usize, usize), String> {
        match node {
            Node::Set(set) => {
                let (a, b) = (self.state()?, self.state()?);
                self.edges[a] = Some((*set, b));
                Ok((a, b))
            }
            Node::Concat(parts) => {
                let first = self.state()?;
                let mut end = first;
                for part in parts {
                    let (s, e) = self.build(part)?;
                    self.epsilon[end].push(s);
                    end = e;
                }
                Ok((first, end))
            }
            Node::Alternate(options) => {
                let (a, b) = (self.state()?, self.state()?);
                for option in options {
                    let (s, e) = self.build(option)?;
                    self.epsilon[a].push(s);
                    self.epsilon[e].push(b);
                }
                Ok((a, b))
            }
            Node::Repeat(child, min, max) => {
                let first = self.state()?;
                let mut end = first;
                for _ in 0..*min {
                    let (s, e) = self.build(child)?;
                    self.epsilon[end].push(s);
                    end = e;
                }
                match max {
                    None => {
                        // Any number more: a loop back to the copy's start.
                        let (s, e) = self.build(child)?;
                        self.epsilon[end].push(s);
                        self.epsilon[e].push(s);
                        let last = self.state()?;
                        self.epsilon[end].push(last);
                        self.epsilon[e].push(last);
                        Ok((first, last))
                    }
                    Some(max) => {
                        let last = self.state()?;
                        self.epsilon[end].push(last);
                        for _ in *min..*max {
                            let (s, e) = self.build(child)?;
                            self.epsilon[end].push(s);
                            self.epsilon[e].push(last);
                            end = e;
                        }
                        Ok((first, last))
                    }
                }
            }
        }
    }

    /// `states` with every state reachable without reading, sorted.
    fn closure(&self, mut states: Vec<usize>) -> Vec<usize> {
        let mut seen = vec![false; self.edges.len()];
        let mut stack = states.clone();
        for &s in &states {
            seen[s] = true;
        }
        while let Some(s) = stack.pop() {
            for &t in &self.epsilon[s] {
                if !seen[t] {
                    seen[t] = true;
                    states.push(t);
                    stack.push(t);
                }
            }
        }
        states.sort_unstable();
        states
    }

    /// The states before any cell is read.
    pub fn start(&self) -> Vec<usize> {
        self.closure(vec![self.start])
    }

    /// The states after reading `digit` from `states`; `None` when there
    /// are none (the line cannot match).
    pub fn step(&self, states: &[usize], digit: Digit) -> Option<Vec<usize>> {
        let bit = 1u64.checked_shl(u32::from(digit).wrapping_sub(1))?;
        let next: Vec<usize> =
            states.iter().filter_map(|&s| self.edges[s].filter(|(set, _)| set & bit != 0).map(|(_, t)| t)).collect();
        if next.is_empty() {
            return None;
        }
        let mut next = self.closure(next);
        next.dedup();
        Some(next)
    }

    /// Whether unrolling the pattern over a line of `len` cells (digits
    /// `1..=n`) makes at most `most` edges: the size of the automaton the
    /// encoder builds, which a short pattern can make exponential (`.*1`
    /// and twelve `.` on a 16-cell line: 111 MB).
    pub fn unrolls_within(&self, len: usize, n: usize, most: usize) -> bool {
        let mut layer: Vec<Vec<usize>> = vec![self.start()];
        let mut edges = 0usize;
        for _ in 0..len {
            let mut next: rustc_hash::FxHashSet<Vec<usize>> = rustc_hash::FxHashSet::default();
            for states in &layer {
                for d in 1..=n.min(64) as Digit {
                    if let Some(to) = self.step(states, d) {
                        edges += 1;
                        if edges > most {
                            return false;
                        }
                        next.insert(to);
                    }
                }
            }
            layer = next.into_iter().collect();
        }
        true
    }

    /// Whether `states` include the accepting one.
    pub fn accepts(&self, states: &[usize]) -> bool {
        states.binary_search(&self.accept).is_ok()
    }

    /// Whether the whole line of digits matches.
    pub fn matches(&self, digits: &[Digit]) -> bool {
        let mut states = self.start();
        for &d in digits {
            match self.step(&states, d) {
                Some(next) => states = next,
                None => return false,
            }
        }
        self.accepts(&states)
    }
}

/// A pattern character's value, as ISS's `charToValue` reads it: `0`-`9`,
/// then `A`-`Z` or `a`-`z` for 10 on.
fn symbol_value(c: char) -> Option<usize> {
    match c {
        '0'..='9' => Some(c as usize - '0' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize + 10),
        'a'..='z' => Some(c as usize - 'a' as usize + 10),
        _ => None,
    }
}

/// `pattern` with each symbol's value moved `by` (a pattern over values
/// from 0 as one over digits: `by` 1; back: -1). Symbols are read as
/// ISS's `charToValue` reads them (`0`-`9`, then `A`-`Z` or `a`-`z` for
/// 10 on) and must lie in `lowest..lowest + count`; ISS's
/// `createCharToSymbol` makes the same shift (a character is the symbol of
/// its value less the offset). Repetition counts (`{2,3}`) stay; a range
/// in a class is spelt out, since a moved range may cross from `9` to `A`.
pub fn shift_symbols(pattern: &str, lowest: usize, count: usize, by: i64) -> Result<String, String> {
    let value = |c: char| -> Result<usize, String> {
        let v = symbol_value(c).ok_or_else(|| format!("unsupported character {c:?}"))?;
        if !(lowest..lowest + count).contains(&v) {
            return Err(format!("{c:?} is out of the values {lowest}-{}", lowest + count - 1));
        }
        Ok(v)
    };
    let moved = |v: usize| -> Result<String, String> {
        let to = u8::try_from(v as i64 + by).map_err(|_| "a symbol moved out of range".to_string())?;
        Ok(crate::model::symbol(to))
    };
    let chars: Vec<char> = pattern.chars().collect();
    let (mut out, mut i, mut class) = (String::new(), 0, false);
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '{' if !class => {
                // A repetition count, copied as it is.
                out.push(c);
                while i < chars.len() && chars[i - 1] != '}' {
                    out.push(chars[i]);
                    i += 1;
                }
            }
            '[' if !class => {
                class = true;
                out.push(c);
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
            }
            ']' if class => {
                class = false;
                out.push(c);
            }
            c if c.is_ascii_alphanumeric() && class && chars.get(i) == Some(&'-') && i + 1 < chars.len() => {
                let (first, last) = (value(c)?, value(chars[i + 1])?);
                if last < first {
                    return Err("a range that runs backwards".into());
                }
                for v in first..=last {
                    out.push_str(&moved(v)?);
                }
                i += 2;
            }
            c if c.is_ascii_alphanumeric() => out.push_str(&moved(value(c)?)?),
            c => out.push(c),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar_iss_reads() {
        let re = |p: &str| Regex::new(p, 9).unwrap();
        assert_eq!(shift_symbols("0[1-3]{2,3}|[^0]", 0, 4, 1).as_deref(), Ok("1[234]{2,3}|[^1]"));
        assert_eq!(shift_symbols("[8-B].*F", 0, 16, 1).as_deref(), Ok("[9ABC].*G"));
        assert_eq!(shift_symbols("(9a)+", 0, 11, 1).as_deref(), Ok("(AB)+"));
        assert_eq!(shift_symbols("[9ABC].*G", 1, 16, -1).as_deref(), Ok("[89AB].*F"));
        assert!(shift_symbols("4", 0, 4, 1).is_err());
        assert!(shift_symbols("[3-1]", 0, 4, 1).is_err());
        assert!(re("1.*9").matches(&[1, 5, 9]) && !re("1.*9").matches(&[1, 5]));
        assert!(re("[1-3]+").matches(&[1, 2, 3, 3]) && !re("[1-3]+").matches(&[]));
        assert!(re("[^1-3]{2}").matches(&[4, 9]) && !re("[^1-3]{2}").matches(&[4, 1]));
        assert!(re("(12|3)*").matches(&[]) && re("(12|3)*").matches(&[3, 1, 2, 3]));
        assert!(!re("(12|3)*").matches(&[2]));
        assert!(re("5{2,3}").matches(&[5, 5, 5]) && !re("5{2,3}").matches(&[5, 5, 5, 5]));
        assert!(re("5{2,}").matches(&[5, 5, 5, 5]) && !re("5{2,}").matches(&[5]));
        assert!(re("1?2").matches(&[2]) && re("|1").matches(&[]));
        for bad in ["0", "(1", "1)", "[]", "*", "1{3,2}", "[9-1]", "x", "a"] {
            assert!(Regex::new(bad, 9).is_err(), "{bad}");
        }
        assert!(Regex::new("a", 16).unwrap().matches(&[10]));
        assert!(Regex::new("1{20000}", 9).is_err());
    }
}
