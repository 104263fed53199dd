//! State machines over a line as ISS writes them (its `NFA` constraint,
//! `NFASerializer` in ISS's `js/nfa_builder.js`): base64url bytes read
//! bit by bit, most significant first; a header (format, state bits,
//! symbol count, start and accept counts, which starts accept), then each
//! state's transitions, plain (a count, then symbol and target pairs) or
//! packed (a mask of symbols, lowest bit symbol 1, one target each).
//! States are numbered starts first, then the other accepting states,
//! then the rest. Symbol `k`, counted from 1, is digit `k`; on a line of
//! several segments, the symbol past the digits (`n + 1`) is read between
//! segments.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::Digit;

/// The most edges a state machine's (or a regular expression's) unrolled
/// automaton may have: its subset construction can grow exponentially
/// with the line.
pub const MOST_MACHINE_EDGES: usize = 200_000;

/// A nondeterministic automaton over the symbols `1..=symbols`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nfa {
    symbols: usize,
    starts: Vec<usize>,
    accepting: Vec<bool>,
    /// For each state, its (symbol, target) transitions.
    next: Vec<Vec<(usize, usize)>>,
}

/// The bits of a byte string, most significant first.
struct Bits<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Bits<'_> {
    fn left(&self) -> usize {
        self.bytes.len() * 8 - self.at
    }

    fn read(&mut self, count: usize) -> Result<usize, String> {
        if count > self.left() || count > 32 {
            return Err("the machine's data ends early".into());
        }
        let mut value = 0usize;
        for _ in 0..count {
            let bit = self.bytes[self.at / 8] >> (7 - self.at % 8) & 1;
            value = value << 1 | usize::from(bit);
            self.at += 1;
        }
        Ok(value)
    }
}

/// The bits needed to write `value` (0 for 0).
fn bits_for(value: usize) -> usize {
    (usize::BITS - value.leading_zeros()) as usize
}

/// The bytes of base64url text (ISS leaves the padding out).
fn base64url(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let (mut word, mut held) = (0u32, 0);
    for c in text.trim_end_matches('=').bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return None,
        };
        word = word << 6 | u32::from(v);
        held += 6;
        if held >= 8 {
            held -= 8;
            out.push((word >> held) as u8);
            word &= (1 << held) - 1;
        }
    }
    Some(out)
}

/// The most states a machine may have (ISS's bound: 16 bits of state).
const MOST_STATES: usize = 1 << 16;

impl Nfa {
    /// The machine ISS's token writes; an empty token is a machine with no
    /// state, which accepts nothing.
    pub fn decode(token: &str) -> Result<Nfa, String> {
        if token.is_empty() {
            return Ok(Nfa { symbols: 1, starts: Vec::new(), accepting: Vec::new(), next: Vec::new() });
        }
        let bytes = base64url(token).ok_or("expected the machine in base64url, as ISS writes it")?;
        let mut bits = Bits { bytes: &bytes, at: 0 };
        let format = bits.read(2)?;
        if format > 1 {
            return Err(format!("unknown machine format {format}"));
        }
        let state_bits = bits.read(4)? + 1;
        let symbols = bits.read(4)? + 1;
        let (start_count, accept_count) = (bits.read(state_bits)?, bits.read(state_bits)?);
        let start_accepts = bits.read(start_count)?;
        if start_count == 0 {
            return Err("a machine with no start state".into());
        }
        let mut next: Vec<Vec<(usize, usize)>> = Vec::new();
        let symbol_bits = bits_for(symbols - 1);
        if format == 0 {
            let count_bits = bits.read(4)?;
            while count_bits > 0 && bits.left() >= count_bits {
                let count = bits.read(count_bits)?;
                let mut moves = Vec::with_capacity(count);
                for _ in 0..count {
                    let symbol = bits.read(symbol_bits)? + 1;
                    moves.push((symbol, bits.read(state_bits)?));
                }
                next.push(moves);
                if next.len() > MOST_STATES {
                    return Err("a machine of more than 65,536 states".into());
                }
            }
        } else {
            while bits.left() >= symbols {
                let mask = bits.read(symbols)?;
                let mut moves = Vec::new();
                for symbol in (1..=symbols).filter(|s| mask >> (s - 1) & 1 == 1) {
                    moves.push((symbol, bits.read(state_bits)?));
                }
                next.push(moves);
                if next.len() > MOST_STATES {
                    return Err("a machine of more than 65,536 states".into());
                }
            }
        }
        let states = next.len().max(start_count + accept_count);
        next.resize(states, Vec::new());
        // By symbol, so that a step finds a symbol's moves by bisection.
        for moves in &mut next {
            moves.sort_unstable();
        }
        if next.iter().flatten().any(|&(_, to)| to >= states) {
            return Err("a transition to a state the machine does not have".into());
        }
        let mut accepting = vec![false; states];
        for (i, accepting) in accepting.iter_mut().enumerate().take(start_count) {
            *accepting = start_accepts >> i & 1 == 1;
        }
        for accepting in &mut accepting[start_count..start_count + accept_count] {
            *accepting = true;
        }
        Ok(Nfa { symbols, starts: (0..start_count).collect(), accepting, next })
    }

    /// The symbols the machine reads: `1..=symbols`.
    pub fn symbols(&self) -> usize {
        self.symbols
    }

    /// The start states.
    pub fn start(&self) -> Vec<usize> {
        self.starts.clone()
    }

    /// The states `states` (sorted) reach on `symbol`, sorted.
    pub fn step(&self, states: &[usize], symbol: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for &s in states {
            let moves = &self.next[s];
            let from = moves.partition_point(|m| m.0 < symbol);
            out.extend(moves[from..].iter().take_while(|m| m.0 == symbol).map(|m| m.1));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether one of `states` accepts.
    pub fn accepts(&self, states: &[usize]) -> bool {
        states.iter().any(|&s| self.accepting[s])
    }

    /// Whether unrolling the machine's subset construction over segments of
    /// these lengths (digits `1..=n`, symbol `n + 1` between segments)
    /// makes at most `most` edges: the size of the automaton the encoder
    /// builds, which a machine of few states can make exponential.
    pub fn unrolls_within(&self, lengths: &[usize], n: usize, most: usize) -> bool {
        let mut subsets = Subsets::new(self);
        let mut layer = vec![subsets.start()];
        let mut edges = 0usize;
        for (i, &len) in lengths.iter().enumerate() {
            if i > 0 {
                layer = layer.iter().map(|&s| subsets.step(s, n + 1)).filter(|&s| s != Subsets::EMPTY).collect();
            }
            for _ in 0..len {
                let mut next = Vec::new();
                let mut seen = HashSet::default();
                for &states in &layer {
                    for d in 1..=n {
                        let to = subsets.step(states, d);
                        if to == Subsets::EMPTY {
                            continue;
                        }
                        edges += 1;
                        if edges > most {
                            return false;
                        }
                        if seen.insert(to) {
                            next.push(to);
                        }
                    }
                }
                layer = next;
            }
        }
        true
    }

    /// Whether the machine accepts the segments' digits, with symbol `n + 1`
    /// read between two segments.
    pub fn matches(&self, segments: &[Vec<Digit>], n: usize) -> bool {
        let mut states = self.start();
        for (i, segment) in segments.iter().enumerate() {
            if i > 0 {
                states = self.step(&states, n + 1);
            }
            for &d in segment {
                states = self.step(&states, usize::from(d));
            }
        }
        self.accepts(&states)
    }
}

/// A machine's subset construction, built as it is read: each set of
/// states reached gets a number ([`Subsets::EMPTY`] the empty set), and
/// each step from a set on a symbol is taken once.
pub struct Subsets<'a> {
    nfa: &'a Nfa,
    sets: Vec<Vec<usize>>,
    numbers: HashMap<Vec<usize>, usize>,
    steps: HashMap<(usize, usize), usize>,
}

impl<'a> Subsets<'a> {
    /// The number of the empty set, which accepts nothing and leads nowhere.
    pub const EMPTY: usize = 0;

    /// The construction of `nfa`, nothing built yet but the empty set.
    pub fn new(nfa: &'a Nfa) -> Subsets<'a> {
        let mut subsets = Subsets { nfa, sets: Vec::new(), numbers: HashMap::default(), steps: HashMap::default() };
        subsets.number(Vec::new());
        subsets
    }

    /// The set of start states.
    pub fn start(&mut self) -> usize {
        self.number(self.nfa.start())
    }

    /// The set `set` reaches on `symbol`.
    pub fn step(&mut self, set: usize, symbol: usize) -> usize {
        if let Some(&to) = self.steps.get(&(set, symbol)) {
            return to;
        }
        let to = self.number(self.nfa.step(&self.sets[set], symbol));
        self.steps.insert((set, symbol), to);
        to
    }

    /// Whether a state of `set` accepts.
    pub fn accepts(&self, set: usize) -> bool {
        self.nfa.accepts(&self.sets[set])
    }

    fn number(&mut self, set: Vec<usize>) -> usize {
        if let Some(&known) = self.numbers.get(&set) {
            return known;
        }
        self.sets.push(set.clone());
        self.numbers.insert(set, self.sets.len() - 1);
        self.sets.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A machine written bit by bit as ISS's serializer lays it out:
    /// packed, 1 state bit, 2 symbols, one start state that accepts and
    /// loops on symbol 1: the language `1*`.
    #[test]
    fn reads_a_packed_machine_bit_by_bit() {
        // 01 format | 0000 state bits - 1 | 0001 symbols - 1 | 1 start | 0 other accepts
        // | 1 the start accepts | 01 symbols of state 0 (symbol 1) | 0 its target.
        let bits = "0100000001101010";
        let bytes = [u8::from_str_radix(&bits[..8], 2).unwrap(), u8::from_str_radix(&bits[8..], 2).unwrap()];
        assert_eq!(bytes, [0x40, 0x6A]);
        let machine = Nfa::decode("QGo").unwrap();
        assert_eq!(machine.symbols(), 2);
        assert!(machine.matches(&[vec![1, 1, 1]], 9));
        assert!(machine.matches(&[vec![]], 9));
        assert!(!machine.matches(&[vec![1, 2]], 9));
        assert!(!machine.matches(&[vec![1], vec![1]], 9), "the segment break is a symbol it has no move on");
        assert!(!Nfa::decode("").unwrap().matches(&[vec![]], 9), "an empty machine accepts nothing");
        assert!(Nfa::decode("Q").is_err(), "a header cut short");
        assert!(Nfa::decode("!!").is_err());
    }
}
