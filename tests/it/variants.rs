//! Variant constraints against an independent oracle: random 4x4 and 6x6
//! puzzles, each with a handful of rules, are written in the native
//! `puzzle` format, parsed and counted by satsudoku (several encodings,
//! both engines), and counted again by plain enumeration in this file,
//! which implements every rule's meaning on its own (no library code).

use crate::common::{random_grid, rng, Draw, Rng};
use satsudoku::count::{count_models, EngineKind, Limits};
use satsudoku::encode::{encode, Encoding};
use satsudoku::parse::{parse, Format};

/// A rule of a test puzzle; cells are indices `r * n + c`.
#[derive(Clone, Debug)]
enum Rule {
    Diagonal(bool),
    AntiKnight,
    AntiKing,
    Nonconsecutive,
    Extra(Vec<usize>),
    Killer(Vec<usize>, Option<u32>),
    LittleKiller(Vec<usize>, u32),
    /// The circle's cells (two or more: a pill, read as a number) and the line.
    Arrow(Vec<usize>, Vec<usize>),
    Thermo(Vec<usize>, bool),
    Greater(usize, usize),
    White(usize, usize, u32),
    Black(usize, usize, u32),
    X(usize, usize),
    V(usize, usize),
    Odd(Vec<usize>),
    Even(Vec<usize>),
    Minimum(usize),
    Maximum(usize),
    Palindrome(Vec<usize>),
    Clone(Vec<usize>, Vec<usize>),
    Whisper(Vec<usize>, u32),
    Renban(Vec<usize>),
    Between(Vec<usize>),
    Quadruple(usize, Vec<u32>),
    Negative(&'static str),
    /// Outside clues: the clue's row and column (from 1; 0 or n + 1 outside).
    XSum((usize, usize), u32),
    Sandwich((usize, usize), u32),
    Skyscraper((usize, usize), u32),
    RegionSum(Vec<usize>),
    Zipper(Vec<usize>),
    DoubleArrow(Vec<usize>),
    Entropic(Vec<usize>),
    Modular(Vec<usize>),
    Nabner(Vec<usize>),
    Lockout(Vec<usize>),
    RowIndex(Vec<usize>),
    ColumnIndex(Vec<usize>),
    BoxIndex(Vec<usize>),
    /// ISS's global rules (docs/rules.md: AntiTaxicab, GlobalEntropy,
    /// GlobalMod) and its numbered rooms, written from ISS's descriptions.
    AntiTaxicab,
    GlobalEntropy,
    GlobalModular,
    NumberedRoom((usize, usize), u32),
    /// ISS's sum lines, rellik and equality cages, hidden skyscrapers.
    SumLine(Vec<usize>, u32),
    /// The cells as a loop, split from some cell into parts summing to x.
    SumLoop(Vec<usize>, u32),
    Rellik(Vec<usize>, u32),
    EqualityCage(Vec<usize>),
    HiddenSkyscraper((usize, usize), u32),
    /// ISS's exact counts, look-and-say clues (count, digit), counting
    /// circles and Dutch flatmates.
    ContainExact(Vec<usize>, Vec<u32>),
    LookAndSay(Vec<usize>, Vec<(u32, u32)>),
    CountingCircles(Vec<usize>),
    DutchFlatmates,
    Lunchbox(Vec<usize>, u32),
    /// Value cell, control cell, then the indexed line; control first,
    /// then the counted cells.
    ValueIndex(Vec<usize>),
    CountDistinct(Vec<usize>),
    FullRank((usize, usize), u32),
    /// An `either` block: the rules of at least one alternative all hold.
    Either(Vec<Vec<Rule>>),
    /// Sets of one size holding the same digits, as often each.
    SameValues(Vec<Vec<usize>>),
    /// ISS's connected values: the cells holding these digits form one
    /// region, orthogonally connected, of this size if given.
    ConnectedValues(Vec<u32>, Option<usize>),
}

/// The kinds an alternative of an `either` block draws: all but those
/// that act on the whole grid once every rule is read (nonconsecutive,
/// minimum and maximum cells, negative constraints, full rank), the
/// markers those spare, and `either` itself.
const NOT_IN_EITHER: [usize; 10] = [3, 10, 11, 12, 15, 16, 23, 52, 54, 55];

/// The cells a clue outside the grid looks along, from its side.
fn clue_line(n: usize, (r, c): (usize, usize)) -> Vec<usize> {
    if r == 0 {
        (0..n).map(|i| i * n + c - 1).collect()
    } else if r == n + 1 {
        (0..n).rev().map(|i| i * n + c - 1).collect()
    } else if c == 0 {
        (0..n).map(|i| (r - 1) * n + i).collect()
    } else {
        (0..n).rev().map(|i| (r - 1) * n + i).collect()
    }
}

/// A random clue position just outside an n x n grid.
fn random_clue(rng: &mut Rng, n: usize) -> (usize, usize) {
    let k = 1 + rng.below(n);
    match rng.below(4) {
        0 => (0, k),
        1 => (n + 1, k),
        2 => (k, 0),
        _ => (k, n + 1),
    }
}

/// A test puzzle: side, box shape (rows, cols), givens (0 blank), rules.
#[derive(Clone, Debug)]
struct Spec {
    n: usize,
    boxes: (usize, usize),
    givens: Vec<u32>,
    rules: Vec<Rule>,
}

fn name(cell: usize, n: usize) -> String {
    format!("r{}c{}", cell / n + 1, cell % n + 1)
}

impl Spec {
    /// The puzzle in the native format, written by hand here.
    fn text(&self) -> String {
        let n = self.n;
        let cells = |cs: &[usize]| cs.iter().map(|&c| name(c, n)).collect::<Vec<_>>().join(" ");
        let mut out = format!("size {n}\nbox {}x{}\ngivens\n", self.boxes.0, self.boxes.1);
        for row in self.givens.chunks(n) {
            out += &row.iter().map(|&d| if d == 0 { ".".into() } else { d.to_string() }).collect::<String>();
            out.push('\n');
        }
        for rule in &self.rules {
            out += &match rule {
                Rule::Diagonal(plus) => format!("diagonal{}", if *plus { "+" } else { "-" }),
                Rule::AntiKnight => "antiknight".into(),
                Rule::AntiKing => "antiking".into(),
                Rule::Nonconsecutive => "nonconsecutive".into(),
                Rule::Extra(cs) => format!("extra {}", cells(cs)),
                Rule::Killer(cs, None) => format!("killer {}", cells(cs)),
                Rule::Killer(cs, Some(s)) => format!("killer {} = {s}", cells(cs)),
                Rule::LittleKiller(cs, s) => format!("little-killer {} = {s}", cells(cs)),
                Rule::Arrow(circle, line) => format!("arrow {} : {}", cells(circle), cells(line)),
                Rule::Thermo(cs, strict) => format!("{} {}", if *strict { "thermo" } else { "slow-thermo" }, cells(cs)),
                Rule::Greater(a, b) => format!("greater {} {}", name(*a, n), name(*b, n)),
                Rule::White(a, b, d) => format!("white {} {} = {d}", name(*a, n), name(*b, n)),
                Rule::Black(a, b, r) => format!("black {} {} = {r}", name(*a, n), name(*b, n)),
                Rule::X(a, b) => format!("x {} {}", name(*a, n), name(*b, n)),
                Rule::V(a, b) => format!("v {} {}", name(*a, n), name(*b, n)),
                Rule::Odd(cs) => format!("odd {}", cells(cs)),
                Rule::Even(cs) => format!("even {}", cells(cs)),
                Rule::Minimum(c) => format!("minimum {}", name(*c, n)),
                Rule::Maximum(c) => format!("maximum {}", name(*c, n)),
                Rule::Palindrome(cs) => format!("palindrome {}", cells(cs)),
                Rule::Clone(a, b) => format!("clone {} : {}", cells(a), cells(b)),
                Rule::Whisper(cs, m) => format!("whisper {} = {m}", cells(cs)),
                Rule::Renban(cs) => format!("renban {}", cells(cs)),
                Rule::Between(cs) => format!("between {}", cells(cs)),
                Rule::Quadruple(c, ds) => {
                    format!("quadruple {} {}", name(*c, n), ds.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
                }
                Rule::Negative(kind) => format!("negative {kind}"),
                Rule::XSum((r, c), t) => format!("xsum r{r}c{c} = {t}"),
                Rule::Sandwich((r, c), t) => format!("sandwich r{r}c{c} = {t}"),
                Rule::Skyscraper((r, c), t) => format!("skyscraper r{r}c{c} = {t}"),
                Rule::RegionSum(cs) => format!("region-sum {}", cells(cs)),
                Rule::Zipper(cs) => format!("zipper {}", cells(cs)),
                Rule::DoubleArrow(cs) => format!("double-arrow {}", cells(cs)),
                Rule::Entropic(cs) => format!("entropic {}", cells(cs)),
                Rule::Modular(cs) => format!("modular {}", cells(cs)),
                Rule::Nabner(cs) => format!("nabner {}", cells(cs)),
                Rule::Lockout(cs) => format!("lockout {}", cells(cs)),
                Rule::RowIndex(cs) => format!("row-index {}", cells(cs)),
                Rule::ColumnIndex(cs) => format!("column-index {}", cells(cs)),
                Rule::BoxIndex(cs) => format!("box-index {}", cells(cs)),
                Rule::AntiTaxicab => "antitaxicab".into(),
                Rule::GlobalEntropy => "global-entropy".into(),
                Rule::GlobalModular => "global-modular".into(),
                Rule::NumberedRoom((r, c), x) => format!("numbered-room r{r}c{c} = {x}"),
                Rule::SumLine(cs, x) => format!("sum-line {} = {x}", cells(cs)),
                Rule::SumLoop(cs, x) => format!("sum-loop {} = {x}", cells(cs)),
                Rule::Rellik(cs, x) => format!("rellik {} = {x}", cells(cs)),
                Rule::EqualityCage(cs) => format!("equality-cage {}", cells(cs)),
                Rule::HiddenSkyscraper((r, c), x) => format!("hidden-skyscraper r{r}c{c} = {x}"),
                Rule::ContainExact(cs, ds) => {
                    format!("contain-exact {} = {}", cells(cs), ds.iter().map(u32::to_string).collect::<String>())
                }
                Rule::LookAndSay(cs, pairs) => {
                    let clue: String = pairs.iter().map(|(t, d)| format!("{t}{d}")).collect();
                    format!("look-and-say {} = {}", cells(cs), clue.parse::<u64>().unwrap())
                }
                Rule::CountingCircles(cs) => format!("counting-circles {}", cells(cs)),
                Rule::DutchFlatmates => "dutch-flatmates".into(),
                Rule::ConnectedValues(ds, size) => {
                    let size = size.map_or(String::new(), |s| format!(" size {s}"));
                    format!("connected-values {}{size}", ds.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
                }
                Rule::Lunchbox(cs, x) => format!("lunchbox {} = {x}", cells(cs)),
                Rule::ValueIndex(cs) => format!("value-index {}", cells(cs)),
                Rule::CountDistinct(cs) => format!("count-distinct {}", cells(cs)),
                Rule::FullRank((r, c), x) => format!("full-rank r{r}c{c} = {x}"),
                Rule::SameValues(sets) => {
                    format!("same-values {}", sets.iter().map(|set| cells(set)).collect::<Vec<_>>().join(" : "))
                }
                Rule::Either(alternatives) => {
                    // Each alternative's rule lines, as a puzzle of its own writes them.
                    let lines: Vec<String> = alternatives
                        .iter()
                        .map(|rules| {
                            let alone = Spec { n, boxes: self.boxes, givens: vec![0; n * n], rules: rules.clone() };
                            alone.text().lines().skip(3 + n).map(|l| format!("{l}\n")).collect()
                        })
                        .collect();
                    format!("either\n{}end", lines.join("or\n"))
                }
            };
            out.push('\n');
        }
        out
    }

    /// The puzzle as the f-puzzles editor's JSON, written by hand here;
    /// `None` for a rule the editor has no key for (greater-than, the
    /// negative X and V alone). Regions are written out when `regions` is
    /// set or the boxes are not the editor's default for the side.
    fn fpuzzles(&self, regions: bool) -> Option<String> {
        let n = self.n;
        let q = |c: usize| format!("\"R{}C{}\"", c / n + 1, c % n + 1);
        let list = |cs: &[usize]| format!("[{}]", cs.iter().map(|&c| q(c)).collect::<Vec<_>>().join(","));
        let default = (1..=n).take_while(|h| h * h <= n).filter(|h| n % h == 0).last().unwrap();
        let explicit = regions || self.boxes != (default, n / default);
        let (h, w) = self.boxes;
        let rows: Vec<String> = (0..n)
            .map(|r| {
                let cells: Vec<String> = (0..n)
                    .map(|c| {
                        let mut fields = Vec::new();
                        if explicit {
                            fields.push(format!("\"region\":{}", r / h * (n / w) + c / w));
                        }
                        let d = self.givens[r * n + c];
                        if d != 0 {
                            fields.push(format!("\"value\":{d},\"given\":true"));
                        }
                        format!("{{{}}}", fields.join(","))
                    })
                    .collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        let mut keys: Vec<(String, Vec<String>)> = Vec::new();
        let mut flags = Vec::new();
        let mut negative = Vec::new();
        let mut add = |key: &str, entry: String| match keys.iter_mut().find(|(k, _)| k == key) {
            Some((_, entries)) => entries.push(entry),
            None => keys.push((key.to_owned(), vec![entry])),
        };
        let lines = |cs: &[usize]| format!("{{\"lines\":[{}]}}", list(cs));
        let valued = |cs: &[usize], v: u32| format!("{{\"cells\":{},\"value\":{v}}}", list(cs));
        let clue = |(r, c): (usize, usize), v: u32| format!("{{\"cell\":\"R{r}C{c}\",\"value\":{v}}}");
        for rule in &self.rules {
            match rule {
                Rule::Diagonal(plus) => flags.push(format!("\"diagonal{}\":true", if *plus { "+" } else { "-" })),
                Rule::AntiKnight => flags.push("\"antiknight\":true".into()),
                Rule::AntiKing => flags.push("\"antiking\":true".into()),
                Rule::Nonconsecutive => flags.push("\"nonconsecutive\":true".into()),
                Rule::Extra(cs) => add("extraregion", format!("{{\"cells\":{}}}", list(cs))),
                Rule::Killer(cs, None) => add("killercage", format!("{{\"cells\":{}}}", list(cs))),
                // The editor writes a cage's sum as a string.
                Rule::Killer(cs, Some(s)) => add("killercage", format!("{{\"cells\":{},\"value\":\"{s}\"}}", list(cs))),
                Rule::LittleKiller(cs, s) => add("littlekillersum", valued(cs, *s)),
                Rule::Arrow(circle, line) => {
                    let mut whole = vec![circle[circle.len() - 1]];
                    whole.extend(line);
                    add("arrow", format!("{{\"cells\":{},\"lines\":[{}]}}", list(circle), list(&whole)))
                }
                Rule::Thermo(cs, true) => add("thermometer", lines(cs)),
                Rule::Thermo(cs, false) => add("slowthermometer", lines(cs)),
                Rule::Greater(..) => return None,
                // The editor has none of ISS's global rules or numbered rooms.
                Rule::AntiTaxicab
                | Rule::GlobalEntropy
                | Rule::GlobalModular
                | Rule::NumberedRoom(..)
                | Rule::SumLine(..)
                | Rule::SumLoop(..)
                | Rule::Rellik(..)
                | Rule::EqualityCage(..)
                | Rule::HiddenSkyscraper(..)
                | Rule::ContainExact(..)
                | Rule::LookAndSay(..)
                | Rule::CountingCircles(..)
                | Rule::DutchFlatmates
                | Rule::ConnectedValues(..)
                | Rule::Lunchbox(..)
                | Rule::ValueIndex(..)
                | Rule::CountDistinct(..)
                | Rule::FullRank(..)
                | Rule::Either(..)
                | Rule::SameValues(..) => return None,
                Rule::White(a, b, d) => add("difference", valued(&[*a, *b], *d)),
                Rule::Black(a, b, r) => add("ratio", valued(&[*a, *b], *r)),
                Rule::X(a, b) => add("xv", format!("{{\"cells\":{},\"value\":\"X\"}}", list(&[*a, *b]))),
                Rule::V(a, b) => add("xv", format!("{{\"cells\":{},\"value\":\"V\"}}", list(&[*a, *b]))),
                Rule::Odd(cs) => cs.iter().for_each(|&c| add("odd", format!("{{\"cell\":{}}}", q(c)))),
                Rule::Even(cs) => cs.iter().for_each(|&c| add("even", format!("{{\"cell\":{}}}", q(c)))),
                Rule::Minimum(c) => add("minimum", format!("{{\"cell\":{}}}", q(*c))),
                Rule::Maximum(c) => add("maximum", format!("{{\"cell\":{}}}", q(*c))),
                Rule::Palindrome(cs) => add("palindrome", lines(cs)),
                Rule::Clone(a, b) => add("clone", format!("{{\"cells\":{},\"cloneCells\":{}}}", list(a), list(b))),
                Rule::Whisper(cs, m) => add("whispers", format!("{{\"lines\":[{}],\"value\":{m}}}", list(cs))),
                Rule::Renban(cs) => add("renban", lines(cs)),
                Rule::Between(cs) => add("betweenline", lines(cs)),
                Rule::Quadruple(c, ds) => add(
                    "quadruple",
                    format!("{{\"cells\":{},\"values\":{ds:?}}}", list(&[*c, c + 1, c + n, c + n + 1])),
                ),
                Rule::Negative("white") => negative.push("\"difference\""),
                Rule::Negative("black") => negative.push("\"ratio\""),
                Rule::Negative(_) => return None,
                Rule::XSum(at, t) => add("xsum", clue(*at, *t)),
                Rule::Sandwich(at, t) => add("sandwichsum", clue(*at, *t)),
                Rule::Skyscraper(at, t) => add("skyscraper", clue(*at, *t)),
                Rule::RegionSum(cs) => add("regionsumline", lines(cs)),
                Rule::Zipper(cs) => add("zipperline", lines(cs)),
                Rule::DoubleArrow(cs) => add("doublearrow", lines(cs)),
                Rule::Entropic(cs) => add("entropicline", lines(cs)),
                Rule::Modular(cs) => add("modularline", lines(cs)),
                Rule::Nabner(cs) => add("nabner", lines(cs)),
                Rule::Lockout(cs) => add("lockout", lines(cs)),
                Rule::RowIndex(cs) => add("rowindexer", format!("{{\"cells\":{}}}", list(cs))),
                Rule::ColumnIndex(cs) => add("columnindexer", format!("{{\"cells\":{}}}", list(cs))),
                Rule::BoxIndex(cs) => add("boxindexer", format!("{{\"cells\":{}}}", list(cs))),
            }
        }
        // One key each (the reader refuses a key written twice).
        flags.sort();
        flags.dedup();
        negative.sort();
        negative.dedup();
        let mut fields = vec![format!("\"size\":{n}"), format!("\"grid\":[{}]", rows.join(","))];
        fields.extend(flags);
        if !negative.is_empty() {
            fields.push(format!("\"negative\":[{}]", negative.join(",")));
        }
        fields.extend(keys.into_iter().map(|(k, entries)| format!("\"{k}\":[{}]", entries.join(","))));
        Some(format!("{{{}}}", fields.join(",")))
    }

    /// Whether the f-puzzles reader refuses this puzzle as ambiguous: the
    /// negative ratio with black dots, none of ratio 2.
    fn ambiguous_in_fpuzzles(&self) -> bool {
        let black = self.dots("black");
        self.rules.iter().any(|r| matches!(r, Rule::Negative("black"))) && !black.is_empty() && !black.contains(&2)
    }

    /// Orthogonal neighbours of a cell.
    fn neighbours(&self, c: usize) -> Vec<usize> {
        crate::common::neighbours(self.n, c)
    }

    /// Whether cell `c` is a minimum (`minimum`) or a maximum cell.
    fn shaded(&self, c: usize, minimum: bool) -> bool {
        self.rules.iter().any(|r| match r {
            Rule::Minimum(x) => minimum && *x == c,
            Rule::Maximum(x) => !minimum && *x == c,
            _ => false,
        })
    }

    /// The values of the white (differences) or black (ratios) dots placed.
    fn dots(&self, kind: &str) -> Vec<u32> {
        self.rules
            .iter()
            .filter_map(|r| match (r, kind) {
                (Rule::White(_, _, d), "white") | (Rule::Black(_, _, d), "black") => Some(*d),
                _ => None,
            })
            .collect()
    }

    /// Whether a full grid keeps every rule (rows, columns and boxes are
    /// kept by the enumeration).
    fn keeps(&self, g: &[u32]) -> bool {
        let n = self.n;
        let distinct = |cs: &[usize]| (0..cs.len()).all(|i| (0..i).all(|j| g[cs[i]] != g[cs[j]]));
        let sum = |cs: &[usize]| cs.iter().map(|&c| g[c]).sum::<u32>();
        let pairs_apart = |steps: &[(i64, i64)], ok: &dyn Fn(u32, u32) -> bool| {
            (0..n * n).all(|c| {
                steps.iter().all(|&(dr, dk)| {
                    let (r, k) = ((c / n) as i64 + dr, (c % n) as i64 + dk);
                    !((0..n as i64).contains(&r) && (0..n as i64).contains(&k))
                        || ok(g[c], g[r as usize * n + k as usize])
                })
            })
        };
        let marked = |kinds: &[&str], a: usize, b: usize| {
            self.rules.iter().any(|rule| {
                let (kind, x, y) = match rule {
                    Rule::White(x, y, _) => ("white", x, y),
                    Rule::Black(x, y, _) => ("black", x, y),
                    Rule::X(x, y) => ("x", x, y),
                    Rule::V(x, y) => ("v", x, y),
                    _ => return false,
                };
                kinds.contains(&kind) && ((*x, *y) == (a, b) || (*x, *y) == (b, a))
            })
        };
        self.rules.iter().all(|rule| match rule {
            Rule::Diagonal(plus) => {
                distinct(&(0..n).map(|i| if *plus { (n - 1 - i) * n + i } else { i * n + i }).collect::<Vec<_>>())
            }
            Rule::AntiKnight => pairs_apart(&[(1, 2), (2, 1), (1, -2), (2, -1)], &|a, b| a != b),
            Rule::AntiKing => pairs_apart(&[(1, 1), (1, -1)], &|a, b| a != b),
            // The editor's convention: pairs with a Kropki dot are spared.
            Rule::Nonconsecutive => (0..n * n).all(|a| {
                self.neighbours(a).into_iter().all(|b| marked(&["white", "black"], a, b) || g[a].abs_diff(g[b]) != 1)
            }),
            Rule::SameValues(sets) => {
                let digits = |set: &Vec<usize>| {
                    let mut ds: Vec<u32> = set.iter().map(|&c| g[c]).collect();
                    ds.sort_unstable();
                    ds
                };
                sets.iter().all(|set| digits(set) == digits(&sets[0]))
            }
            Rule::Either(alternatives) => {
                alternatives.iter().any(|rules| Spec { rules: rules.clone(), ..self.clone() }.keeps(g))
            }
            Rule::Extra(cs) | Rule::Killer(cs, None) => distinct(cs),
            Rule::Killer(cs, Some(s)) => distinct(cs) && sum(cs) == *s,
            Rule::LittleKiller(cs, s) => sum(cs) == *s,
            Rule::Arrow(circle, line) => circle.iter().fold(0, |v, &c| 10 * v + g[c]) == sum(line),
            Rule::Thermo(cs, strict) => {
                cs.windows(2).all(|w| if *strict { g[w[0]] < g[w[1]] } else { g[w[0]] <= g[w[1]] })
            }
            Rule::Greater(a, b) => g[*a] > g[*b],
            Rule::White(a, b, d) => g[*a].abs_diff(g[*b]) == *d,
            Rule::Black(a, b, r) => g[*a] == r * g[*b] || g[*b] == r * g[*a],
            Rule::X(a, b) => g[*a] + g[*b] == 10,
            Rule::V(a, b) => g[*a] + g[*b] == 5,
            Rule::Odd(cs) => cs.iter().all(|&c| g[c] % 2 == 1),
            Rule::Even(cs) => cs.iter().all(|&c| g[c] % 2 == 0),
            // Compared only with neighbours not shaded the same way (fortresses).
            Rule::Minimum(c) => self.neighbours(*c).iter().all(|&o| self.shaded(o, true) || g[*c] < g[o]),
            Rule::Maximum(c) => self.neighbours(*c).iter().all(|&o| self.shaded(o, false) || g[*c] > g[o]),
            Rule::Palindrome(cs) => (0..cs.len()).all(|i| g[cs[i]] == g[cs[cs.len() - 1 - i]]),
            Rule::Clone(a, b) => a.iter().zip(b).all(|(&x, &y)| g[x] == g[y]),
            Rule::Whisper(cs, m) => cs.windows(2).all(|w| g[w[0]].abs_diff(g[w[1]]) >= *m),
            Rule::Renban(cs) => {
                let (lo, hi) = (cs.iter().map(|&c| g[c]).min().unwrap(), cs.iter().map(|&c| g[c]).max().unwrap());
                distinct(cs) && (hi - lo) as usize == cs.len() - 1
            }
            Rule::Between(cs) => {
                let (a, b) = (g[cs[0]], g[cs[cs.len() - 1]]);
                cs[1..cs.len() - 1].iter().all(|&c| a.min(b) < g[c] && g[c] < a.max(b))
            }
            Rule::Quadruple(c, ds) => {
                let cells = [*c, c + 1, c + n, c + n + 1];
                ds.iter().all(|d| {
                    let listed = ds.iter().filter(|&x| x == d).count();
                    cells.iter().filter(|&&x| g[x] == *d).count() >= listed
                })
            }
            // The editor's negative constraints: every white dot's difference
            // and every black dot's ratio (2 with none) on pairs without a
            // Kropki dot; sums 10 and 5 on pairs without an X or V.
            Rule::Negative(kind) => (0..n * n).all(|a| {
                self.neighbours(a).into_iter().filter(|&b| b > a).all(|b| {
                    let (x, y) = (g[a], g[b]);
                    match *kind {
                        "white" => {
                            marked(&["white", "black"], a, b) || self.dots("white").iter().all(|&d| x.abs_diff(y) != d)
                        }
                        "black" => {
                            let mut ratios = self.dots("black");
                            if ratios.is_empty() {
                                ratios.push(2);
                            }
                            marked(&["white", "black"], a, b) || ratios.iter().all(|&r| x != r * y && y != r * x)
                        }
                        "x" => marked(&["x", "v"], a, b) || x + y != 10,
                        _ => marked(&["x", "v"], a, b) || x + y != 5,
                    }
                })
            }),
            Rule::XSum(clue, t) => {
                let line = clue_line(n, *clue);
                let x = g[line[0]] as usize;
                line[..x].iter().map(|&c| g[c]).sum::<u32>() == *t
            }
            Rule::Sandwich(clue, t) => {
                let line = clue_line(n, *clue);
                let at = |d: u32| line.iter().position(|&c| g[c] == d).unwrap();
                let (a, b) = (at(1), at(n as u32));
                line[a.min(b) + 1..a.max(b)].iter().map(|&c| g[c]).sum::<u32>() == *t
            }
            Rule::AntiTaxicab => super::common::anti_taxicab(n, g),
            Rule::GlobalEntropy | Rule::GlobalModular => {
                // Low, middle and high as the entropic line has them; or the residue modulo 3.
                let (floor, ceil) = (n as u32 / 3, (n as u32).div_ceil(3));
                let outer = if 2 * floor + ceil == n as u32 { floor } else { ceil };
                let class = |d: u32| match rule {
                    Rule::GlobalEntropy => (d > outer) as u32 + (d > n as u32 - outer) as u32,
                    _ => d % 3,
                };
                (0..n - 1).all(|r| {
                    (0..n - 1).all(|c| {
                        let window = [r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1];
                        (0..3).all(|k| window.iter().any(|&w| class(g[w]) == k))
                    })
                })
            }
            Rule::NumberedRoom(clue, x) => {
                let line = clue_line(n, *clue);
                g[line[g[line[0]] as usize - 1]] == *x
            }
            Rule::SumLine(cs, x) => {
                // Some cut of the line into consecutive parts each summing to x.
                let mut cut = vec![false; cs.len() + 1];
                cut[0] = true;
                for i in 1..=cs.len() {
                    cut[i] = (0..i).any(|j| cut[j] && sum(&cs[j..i]) == *x);
                }
                cut[cs.len()]
            }
            Rule::SumLoop(cs, x) => {
                // As ISS's handler reads a loop: some open sum c below x
                // carried into the first cell, no part passing x, and the
                // last part ending with c open again.
                (0..*x).any(|c| {
                    let mut open = c;
                    for &cell in cs {
                        open += g[cell];
                        if open == *x {
                            open = 0;
                        } else if open > *x {
                            return false;
                        }
                    }
                    open == c
                })
            }
            Rule::Rellik(cs, x) => {
                // The sums some nonempty set of the cells makes.
                let mut sums = std::collections::BTreeSet::new();
                for &c in cs {
                    let before: Vec<u32> = sums.iter().copied().collect();
                    sums.insert(g[c]);
                    sums.extend(before.iter().map(|s| s + g[c]));
                }
                distinct(cs) && !sums.contains(x)
            }
            Rule::EqualityCage(cs) => {
                let count = |f: &dyn Fn(u32) -> bool| cs.iter().filter(|&&c| f(g[c])).count();
                let half = n as u32 / 2;
                distinct(cs)
                    && count(&|d| d % 2 == 0) == count(&|d| d % 2 == 1)
                    && count(&|d| d <= half) == count(&|d| d > n as u32 - half)
                    && count(&|d| d > half && d <= n as u32 - half) == 0
            }
            Rule::ContainExact(cs, ds) => ds.iter().all(|d| {
                let listed = ds.iter().filter(|&e| e == d).count();
                cs.iter().filter(|&&c| g[c] == *d).count() == listed
            }),
            Rule::LookAndSay(cs, pairs) => {
                pairs.iter().all(|&(t, d)| cs.iter().filter(|&&c| g[c] == d).count() == t as usize)
            }
            Rule::CountingCircles(cs) => {
                cs.iter().all(|&c| cs.iter().filter(|&&o| g[o] == g[c]).count() == g[c] as usize)
            }
            Rule::Lunchbox(cs, x) => distinct(cs) && lunch(g, cs) == *x,
            Rule::ValueIndex(cs) => {
                let k = g[cs[1]] as usize;
                k + 2 <= cs.len() && g[cs[k + 1]] == g[cs[0]]
            }
            Rule::CountDistinct(cs) => {
                let others: std::collections::BTreeSet<u32> = cs[1..].iter().map(|&c| g[c]).collect();
                others.len() as u32 == g[cs[0]]
            }
            Rule::ConnectedValues(ds, size) => crate::common::connected(n, g, ds, *size),
            Rule::DutchFlatmates => {
                let middle = (n as u32).div_ceil(2);
                (0..n * n).all(|c| {
                    let (r, above, below) = (c / n, c.checked_sub(n), c + n);
                    g[c] != middle || above.is_some_and(|a| g[a] == 1) || (r + 1 < n && g[below] == n as u32)
                })
            }
            Rule::HiddenSkyscraper(clue, x) => {
                let line = clue_line(n, *clue);
                let first = (1..line.len()).find(|&i| line[..i].iter().any(|&b| g[b] > g[line[i]]));
                first.is_some_and(|i| g[line[i]] == *x)
            }
            Rule::FullRank(clue, x) => {
                // Every row and column read both ways; the clued reading
                // has `x - 1` below it and ties with none (the default).
                let mut all: Vec<Vec<usize>> = Vec::new();
                for k in 1..=n {
                    for at in [(0, k), (n + 1, k), (k, 0), (k, n + 1)] {
                        all.push(clue_line(n, at));
                    }
                }
                let own = clue_line(n, *clue);
                let read = |cs: &[usize]| cs.iter().map(|&c| g[c]).collect::<Vec<u32>>();
                let others: Vec<Vec<u32>> = all.iter().filter(|l| **l != own).map(|l| read(l)).collect();
                let mine = read(&own);
                others.iter().filter(|o| **o < mine).count() as u32 + 1 == *x && !others.contains(&mine)
            }
            Rule::Skyscraper(clue, t) => {
                let line = clue_line(n, *clue);
                let mut tallest = 0;
                let seen = line.iter().filter(|&&c| {
                    let taller = g[c] > tallest;
                    tallest = tallest.max(g[c]);
                    taller
                });
                seen.count() as u32 == *t
            }
            Rule::RegionSum(cs) => {
                let box_of = |c: usize| (c / n) / self.boxes.0 * (n / self.boxes.1) + (c % n) / self.boxes.1;
                let mut sums: Vec<u32> = Vec::new();
                for (i, &c) in cs.iter().enumerate() {
                    if i > 0 && box_of(cs[i - 1]) == box_of(c) {
                        *sums.last_mut().unwrap() += g[c];
                    } else {
                        sums.push(g[c]);
                    }
                }
                sums.windows(2).all(|w| w[0] == w[1])
            }
            Rule::Zipper(cs) => {
                let k = cs.len();
                let mut totals: Vec<u32> = (0..k / 2).map(|i| g[cs[i]] + g[cs[k - 1 - i]]).collect();
                if k % 2 == 1 {
                    totals.push(g[cs[k / 2]]);
                }
                totals.windows(2).all(|w| w[0] == w[1])
            }
            Rule::DoubleArrow(cs) => g[cs[0]] + g[cs[cs.len() - 1]] == sum(&cs[1..cs.len() - 1]),
            Rule::Entropic(cs) | Rule::Modular(cs) => {
                // The peer's classes: low and high equal in size, middle the rest.
                let (floor, ceil) = (n as u32 / 3, (n as u32).div_ceil(3));
                let outer = if 2 * floor + ceil == n as u32 { floor } else { ceil };
                let class = |d: u32| match rule {
                    Rule::Entropic(_) => (d > outer) as u32 + (d > n as u32 - outer) as u32,
                    _ => d % 3,
                };
                (0..cs.len()).all(|i| (0..i).all(|j| i % 3 == j % 3 || class(g[cs[i]]) != class(g[cs[j]])))
            }
            Rule::Nabner(cs) => (0..cs.len()).all(|i| (0..i).all(|j| g[cs[i]].abs_diff(g[cs[j]]) >= 2)),
            Rule::Lockout(cs) => {
                let (a, b) = (g[cs[0]], g[cs[cs.len() - 1]]);
                a.abs_diff(b) >= n as u32 / 2 && cs[1..cs.len() - 1].iter().all(|&c| g[c] < a.min(b) || g[c] > a.max(b))
            }
            Rule::RowIndex(cs) => cs.iter().all(|&c| {
                let (r, k, d) = (c / n, c % n, g[c] as usize);
                g[(d - 1) * n + k] == r as u32 + 1
            }),
            Rule::ColumnIndex(cs) => cs.iter().all(|&c| {
                let (r, k, d) = (c / n, c % n, g[c] as usize);
                g[r * n + d - 1] == k as u32 + 1
            }),
            Rule::BoxIndex(cs) => cs.iter().all(|&c| {
                let (h, w) = self.boxes;
                let (top, left) = ((c / n) / h * h, (c % n) / w * w);
                let cells: Vec<usize> = (0..h).flat_map(|i| (0..w).map(move |j| (top + i) * n + left + j)).collect();
                let i = cells.iter().position(|&x| x == c).unwrap();
                g[cells[g[c] as usize - 1]] == i as u32 + 1
            }),
        })
    }

    /// Grids with distinct rows, columns and boxes and the givens, each
    /// kept if it keeps every rule.
    fn oracle(&self) -> u64 {
        crate::common::count_grids(self.n, self.boxes, &self.givens, &|g| self.keeps(g))
    }
}

/// A random path of `len` orthogonally adjacent distinct cells.
fn path(rng: &mut Rng, n: usize, len: usize) -> Vec<usize> {
    let len = len.max(1);
    'again: loop {
        let mut cells = vec![rng.below(n * n)];
        while cells.len() < len {
            let last = *cells.last().unwrap();
            let (r, c) = (last / n, last % n);
            let next: Vec<usize> = [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)]
                .iter()
                .map(|&(dr, dc)| (r as i64 + dr, c as i64 + dc))
                .filter(|&(r, c)| (0..n as i64).contains(&r) && (0..n as i64).contains(&c))
                .map(|(r, c)| r as usize * n + c as usize)
                .filter(|x| !cells.contains(x))
                .collect();
            if next.is_empty() {
                continue 'again;
            }
            cells.push(next[rng.below(next.len())]);
        }
        return cells;
    }
}

/// A lunchbox's sum: the digits strictly between the cells holding the
/// smallest and the largest digit of `cells`.
fn lunch(grid: &[u32], cells: &[usize]) -> u32 {
    let low = (0..cells.len()).min_by_key(|&i| grid[cells[i]]).unwrap();
    let high = (0..cells.len()).max_by_key(|&i| grid[cells[i]]).unwrap();
    cells[low.min(high) + 1..low.max(high).max(low.min(high) + 1)].iter().map(|&c| grid[c]).sum()
}

/// The digits of `cells` in `grid`, added.
fn sum_of(grid: &[u32], cells: &[usize]) -> u32 {
    cells.iter().map(|&c| grid[c]).sum()
}

/// A random rule, made true of `grid` when it has a value to choose (sums,
/// differences), so that many puzzles keep solutions; `kind` picks it.
fn random_rule(rng: &mut Rng, kind: usize, n: usize, grid: &[u32]) -> Rule {
    let pair = |rng: &mut Rng| {
        let p = path(rng, n, 2);
        (p[0], p[1])
    };
    let len = |rng: &mut Rng| 2 + rng.below(2);
    match kind {
        0 => Rule::Diagonal(rng.below(2) == 0),
        1 => Rule::AntiKnight,
        2 => Rule::AntiKing,
        3 => Rule::Nonconsecutive,
        4 => {
            let l = len(rng);
            Rule::Extra(path(rng, n, l))
        }
        5 => {
            let l = len(rng);
            let cs = path(rng, n, l);
            let s = cs.iter().map(|&c| grid[c]).sum();
            // A sum only where different digits can make it (a path may
            // repeat a digit in cells that share no group).
            let k = cs.len() as u32;
            let reachable = (k * (k + 1) / 2..=k * (2 * n as u32 - k + 1) / 2).contains(&s);
            Rule::Killer(cs, (rng.below(3) > 0 && reachable).then_some(s))
        }
        6 => {
            let cs: Vec<usize> = (0..n).map(|i| i * n + i).take(2 + rng.below(n - 1)).collect();
            let s = cs.iter().map(|&c| grid[c]).sum::<u32>() + rng.below(2) as u32;
            Rule::LittleKiller(cs, s)
        }
        7 => {
            let p = path(rng, n, 3);
            // Now and then a pill with a line of more cells than digits,
            // which `--sum auto` encodes by groups of different digits.
            if rng.below(3) == 0 {
                let len = n + 3 + rng.below(3);
                let p = path(rng, n, len);
                Rule::Arrow(p[..2].to_vec(), p[2..].to_vec())
            } else {
                Rule::Arrow(vec![p[0]], p[1..].to_vec())
            }
        }
        8 => {
            let l = len(rng);
            Rule::Thermo(path(rng, n, l), rng.below(2) == 0)
        }
        9 => {
            let (a, b) = pair(rng);
            Rule::Greater(a, b)
        }
        10 => {
            let (a, b) = pair(rng);
            Rule::White(a, b, grid[a].abs_diff(grid[b]).max(1))
        }
        11 => {
            let (a, b) = pair(rng);
            Rule::Black(a, b, 2 + rng.below(2) as u32)
        }
        12 => {
            let (a, b) = pair(rng);
            if rng.below(2) == 0 {
                Rule::X(a, b)
            } else {
                Rule::V(a, b)
            }
        }
        13 => Rule::Odd(vec![rng.below(n * n)]),
        14 => Rule::Even(vec![rng.below(n * n)]),
        15 => Rule::Minimum(rng.below(n * n)),
        16 => Rule::Maximum(rng.below(n * n)),
        17 => {
            let l = 3 + rng.below(2);
            Rule::Palindrome(path(rng, n, l))
        }
        18 => {
            let a = rng.below(n * n - 1);
            // A clone of another cell (a cell is not its own clone).
            let b = (a + 1 + rng.below(n * n - 2)) % (n * n - 1);
            Rule::Clone(vec![a, a + 1].into_iter().filter(|&x| x % n + 1 < n || x == a).take(1).collect(), vec![b])
        }
        19 => {
            let l = len(rng);
            Rule::Whisper(path(rng, n, l), 1 + rng.below(n / 2) as u32)
        }
        20 => {
            let l = len(rng);
            Rule::Renban(path(rng, n, l))
        }
        21 => {
            let l = 3 + rng.below(2);
            Rule::Between(path(rng, n, l))
        }
        22 => {
            let c = rng.below(n - 1) * n + rng.below(n - 1);
            let mut ds: Vec<u32> = [c, c + 1, c + n, c + n + 1].iter().map(|&x| grid[x]).collect();
            rng.shuffle(&mut ds);
            ds.truncate(1 + rng.below(3));
            if rng.below(4) == 0 {
                ds.push(ds[0]); // a digit asked twice
            }
            Rule::Quadruple(c, ds)
        }
        23 => Rule::Negative(["white", "black", "x", "v", "xv"][rng.below(5)]),
        24 => {
            let clue = random_clue(rng, n);
            let line = clue_line(n, clue);
            let x = grid[line[0]] as usize;
            let t = line[..x].iter().map(|&c| grid[c]).sum::<u32>() + rng.below(2) as u32;
            Rule::XSum(clue, t.min((n * (n + 1) / 2) as u32))
        }
        25 => {
            let clue = random_clue(rng, n);
            let line = clue_line(n, clue);
            let at = |d: u32| line.iter().position(|&c| grid[c] == d).unwrap();
            let (a, b) = (at(1), at(n as u32));
            let t = line[a.min(b) + 1..a.max(b)].iter().map(|&c| grid[c]).sum::<u32>() + rng.below(2) as u32;
            Rule::Sandwich(clue, t.min((n * (n + 1) / 2 - 1 - n) as u32))
        }
        26 => {
            let clue = random_clue(rng, n);
            let mut tallest = 0;
            let seen = clue_line(n, clue)
                .into_iter()
                .filter(|&c| {
                    let taller = grid[c] > tallest;
                    tallest = tallest.max(grid[c]);
                    taller
                })
                .count();
            Rule::Skyscraper(clue, (seen + rng.below(2)).min(n) as u32)
        }
        27 => {
            let len = 2 + rng.below(3);
            Rule::RegionSum(path(rng, n, len))
        }
        28 => {
            let len = 2 + rng.below(3);
            Rule::Zipper(path(rng, n, len))
        }
        29 => {
            let len = 3 + rng.below(2);
            Rule::DoubleArrow(path(rng, n, len))
        }
        30 => {
            let len = 2 + rng.below(3);
            Rule::Entropic(path(rng, n, len))
        }
        31 => {
            let len = 2 + rng.below(3);
            Rule::Modular(path(rng, n, len))
        }
        32 => {
            let len = 2 + rng.below(2);
            Rule::Nabner(path(rng, n, len))
        }
        33 => {
            let len = 2 + rng.below(3);
            Rule::Lockout(path(rng, n, len))
        }
        37 => Rule::AntiTaxicab,
        38 => Rule::GlobalEntropy,
        39 => Rule::GlobalModular,
        40 => {
            let clue = random_clue(rng, n);
            let line = clue_line(n, clue);
            let x = if rng.below(3) > 0 { grid[line[grid[line[0]] as usize - 1]] } else { 1 + rng.below(n) as u32 };
            Rule::NumberedRoom(clue, x)
        }
        41 => {
            let len = 2 + rng.below(3);
            let cs = path(rng, n, len);
            let x =
                if rng.below(3) > 0 { sum_of(grid, &cs[..1 + rng.below(cs.len())]) } else { 2 + rng.below(9) as u32 };
            Rule::SumLine(cs, x)
        }
        42 => {
            let len = 2 + rng.below(2);
            let cs = path(rng, n, len);
            Rule::Rellik(cs, 1 + rng.below(2 * n) as u32)
        }
        43 => {
            let len = if rng.below(2) == 0 { 2 } else { 4 };
            Rule::EqualityCage(path(rng, n, len))
        }
        44 => {
            let clue = random_clue(rng, n);
            let line = clue_line(n, clue);
            let first = (1..n).find(|&i| line[..i].iter().any(|&b| grid[b] > grid[line[i]]));
            let x = match first {
                Some(i) if rng.below(3) > 0 => grid[line[i]],
                _ => 1 + rng.below(n) as u32,
            };
            Rule::HiddenSkyscraper(clue, x)
        }
        45 => {
            let len = 2 + rng.below(3);
            let cs = path(rng, n, len);
            let mut ds: Vec<u32> = cs.iter().map(|&c| grid[c]).take(1 + rng.below(len)).collect();
            if rng.below(3) == 0 {
                ds[0] = 1 + rng.below(n) as u32;
            }
            Rule::ContainExact(cs, ds)
        }
        46 => {
            let len = 2 + rng.below(3);
            let cs = path(rng, n, len);
            let mut pairs: Vec<(u32, u32)> = Vec::new();
            for _ in 0..1 + rng.below(2) {
                let d = 1 + rng.below(n) as u32;
                if pairs.iter().all(|&(_, e)| e != d) {
                    let truth = cs.iter().filter(|&&c| grid[c] == d).count() as u32;
                    pairs.push((if rng.below(3) > 0 { truth } else { rng.below(3) as u32 }, d));
                }
            }
            if pairs.iter().map(|&(t, _)| t as usize).sum::<usize>() > cs.len() {
                for pair in &mut pairs {
                    pair.0 = cs.iter().filter(|&&c| grid[c] == pair.1).count() as u32;
                }
            }
            Rule::LookAndSay(cs, pairs)
        }
        47 => {
            let len = 2 + rng.below(4);
            Rule::CountingCircles(path(rng, n, len))
        }
        48 => Rule::DutchFlatmates,
        50 => {
            let len = 3 + rng.below(3);
            Rule::ValueIndex(path(rng, n, len))
        }
        51 => {
            let len = 2 + rng.below(4);
            Rule::CountDistinct(path(rng, n, len))
        }
        49 => {
            let len = 2 + rng.below(3);
            let cs = path(rng, n, len);
            let x = if rng.below(3) > 0 { lunch(grid, &cs) } else { rng.below(2 * n) as u32 };
            Rule::Lunchbox(cs, x)
        }
        53 => {
            let len = 2 + rng.below(4);
            let cs = path(rng, n, len);
            // Often a number some run of the loop's digits makes.
            let from = rng.below(len);
            let x = if rng.below(3) > 0 { sum_of(grid, &cs[from..]) } else { 2 + rng.below(9) as u32 };
            Rule::SumLoop(cs, x)
        }
        54 => {
            // The clued reading's own rank in the grid, or near it.
            let clue = random_clue(rng, n);
            let own: Vec<u32> = clue_line(n, clue).iter().map(|&c| grid[c]).collect();
            let mut below = 0;
            for k in 1..=n {
                for at in [(0, k), (n + 1, k), (k, 0), (k, n + 1)] {
                    let other: Vec<u32> = clue_line(n, at).iter().map(|&c| grid[c]).collect();
                    below += usize::from(at != clue && other < own);
                }
            }
            Rule::FullRank(clue, (1 + below + rng.below(2)).min(4 * n) as u32)
        }
        55 => {
            let alternative = |rng: &mut Rng| -> Vec<Rule> {
                let rules = 1 + rng.below(2);
                let mut drawn = Vec::new();
                while drawn.len() < rules {
                    let kind = rng.below(KINDS);
                    if !NOT_IN_EITHER.contains(&kind) {
                        drawn.push(random_rule(rng, kind, n, grid));
                    }
                }
                drawn
            };
            Rule::Either((0..1 + rng.below(3)).map(|_| alternative(rng)).collect())
        }
        56 => {
            // A set, and sets of its digits elsewhere in the grid, or now
            // and then any cells (sets may share cells).
            let len = 1 + rng.below(3);
            let first = path(rng, n, len);
            let mut sets = vec![first.clone()];
            for _ in 0..1 + rng.below(2) {
                let set: Vec<usize> = if rng.below(3) > 0 {
                    let mut taken = Vec::new();
                    for &c in &first {
                        let same: Vec<usize> =
                            (0..n * n).filter(|&o| grid[o] == grid[c] && !taken.contains(&o)).collect();
                        taken.push(same[rng.below(same.len())]);
                    }
                    taken
                } else {
                    let mut cells: Vec<usize> = Vec::new();
                    while cells.len() < len {
                        let c = rng.below(n * n);
                        if !cells.contains(&c) {
                            cells.push(c);
                        }
                    }
                    cells
                };
                sets.push(set);
            }
            Rule::SameValues(sets)
        }
        57 => {
            // All digits but one or two (fewer rarely connect), and now
            // and then the size of the grid's own region, or one off.
            let mut ds: Vec<u32> = (1..=n as u32).collect();
            rng.shuffle(&mut ds);
            ds.truncate(n - 1 - rng.below(2));
            ds.sort_unstable();
            let own = grid.iter().filter(|d| ds.contains(d)).count();
            let size = match rng.below(4) {
                0 => Some(own),
                1 => Some(own - 1),
                _ => None,
            };
            Rule::ConnectedValues(ds, size)
        }
        34 => Rule::RowIndex(vec![rng.below(n * n)]),
        35 => Rule::ColumnIndex(vec![rng.below(n * n)]),
        36 => Rule::BoxIndex(vec![rng.below(n * n)]),
        _ => {
            // A marker between diagonal neighbours (SudokuPad draws them).
            let (r, c) = (rng.below(n - 1), rng.below(n - 1));
            let (a, b) =
                if rng.below(2) == 0 { (r * n + c, (r + 1) * n + c + 1) } else { (r * n + c + 1, (r + 1) * n + c) };
            match rng.below(3) {
                0 => Rule::White(a, b, grid[a].abs_diff(grid[b]).max(1)),
                1 => Rule::Black(a, b, 2),
                _ => Rule::X(a, b),
            }
        }
    }
}

const KINDS: usize = 58;

fn random_spec(rng: &mut Rng, n: usize, boxes: (usize, usize), rules: usize, givens: usize) -> Spec {
    let grid = random_grid(rng, n, boxes);
    let mut shown = vec![0; n * n];
    for _ in 0..givens {
        let c = rng.below(n * n);
        shown[c] = grid[c];
    }
    let mut drawn: Vec<Rule> = Vec::new();
    while drawn.len() < rules {
        let kind = rng.below(KINDS);
        let rule = random_rule(rng, kind, n, &grid);
        // Killer cages may not share a cell (the native format refuses it).
        let cage = |r: &Rule| match r {
            Rule::Killer(cs, _) => cs.clone(),
            _ => Vec::new(),
        };
        if drawn.iter().any(|r| cage(r).iter().any(|c| cage(&rule).contains(c))) {
            continue;
        }
        drawn.push(rule);
    }
    Spec { n, boxes, givens: shown, rules: drawn }
}

fn count(text: &str, encoding: &str, engine: EngineKind) -> u128 {
    let puzzle = parse(text, "spec", Some(Format::Puzzle)).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let encoding: Encoding = encoding.parse().unwrap();
    let encoded = encode(&puzzle, &encoding);
    count_models(&puzzle, &encoded, engine, Limits::default(), &mut ()).unwrap().models
}

/// Every rule kind alone, on 4x4, many times.
#[test]
fn every_rule_alone_matches_the_oracle_on_4x4() {
    let mut rng = rng(41);
    for kind in 0..KINDS {
        for _ in 0..6 {
            let grid = random_grid(&mut rng, 4, (2, 2));
            let spec =
                Spec { n: 4, boxes: (2, 2), givens: vec![0; 16], rules: vec![random_rule(&mut rng, kind, 4, &grid)] };
            let text = spec.text();
            let expected = spec.oracle();
            assert_eq!(count(&text, "direct", EngineKind::Enum), u128::from(expected), "{text}");
        }
    }
}

/// Several rules together, on 4x4 and 6x6 (with givens), under several
/// encodings (the sum encodings, support relations, order digits, the
/// forward line encodings, the cliques' automata) and
/// both engines; at least some puzzles keep solutions and some have none.
#[test]
fn mixed_rules_match_the_oracle_under_every_encoding() {
    let mut rng = rng(43);
    let mut counts = Vec::new();
    for i in 0..120 {
        let (n, boxes, givens) = if i % 4 == 3 { (6, (2, 3), 14) } else { (4, (2, 2), rng.below(3)) };
        let rules = 2 + rng.below(3);
        let spec = random_spec(&mut rng, n, boxes, rules, givens);
        let text = spec.text();
        let expected = u128::from(spec.oracle());
        for (encoding, engine) in [
            ("direct", EngineKind::Enum),
            ("totalizer", EngineKind::Enum),
            ("support/totalizer", EngineKind::Blocking),
            ("order", EngineKind::Enum),
            ("grouped", EngineKind::Blocking),
            ("forward", EngineKind::Enum),
            ("cliques", EngineKind::Enum),
        ] {
            assert_eq!(count(&text, encoding, engine), expected, "{encoding} {engine:?}\n{text}");
        }
        counts.push(expected);
    }
    assert!(counts.iter().filter(|&&c| c > 0).count() >= 15, "{counts:?}");
    assert!(counts.contains(&0), "{counts:?}");
}

/// Pill arrows whose line has more cells than there are digits (the sums
/// `--sum auto` encodes by groups of different digits), alone or with
/// another rule, on 4x4 and 6x6, under each sum encoding and both engines,
/// against the oracle; some keep solutions.
#[test]
fn long_pill_arrows_match_the_oracle_under_every_sum_encoding() {
    let mut rng = rng(4343);
    let mut counts = Vec::new();
    for i in 0..40 {
        let (n, boxes, givens) = if i % 4 == 3 { (6, (2, 3), 12) } else { (4, (2, 2), rng.below(2)) };
        let others = rng.below(2);
        let mut spec = random_spec(&mut rng, n, boxes, others, givens);
        let grid = random_grid(&mut rng, n, boxes);
        let len = n + 3 + rng.below(3);
        let p = path(&mut rng, n, len);
        // Half the time a pill the line's sum on the grid fits.
        let (circle, line) = (p[..2].to_vec(), p[2..].to_vec());
        let total: u32 = line.iter().map(|&c| grid[c]).sum();
        if rng.below(2) == 0 && (11..=10 * n as u32 + n as u32).contains(&total) {
            let (a, b) = (total / 10, total % 10);
            if (1..=n as u32).contains(&a) && (1..=n as u32).contains(&b) {
                spec.givens[circle[0]] = a;
                spec.givens[circle[1]] = b;
            }
        }
        spec.rules.push(Rule::Arrow(circle, line));
        let text = spec.text();
        let expected = u128::from(spec.oracle());
        for (encoding, engine) in [
            ("direct", EngineKind::Enum),
            ("grouped", EngineKind::Blocking),
            ("partial-sums", EngineKind::Enum),
            ("mdd", EngineKind::Blocking),
        ] {
            assert_eq!(count(&text, encoding, engine), expected, "{encoding} {engine:?}\n{text}");
        }
        counts.push(expected);
    }
    assert!(counts.iter().filter(|&&c| c > 0).count() >= 5, "{counts:?}");
}

/// The f-puzzles reader reads what the native format reads: random
/// puzzles written both ways (by this file's two writers) count the same,
/// and the oracle's number. The layouts include row-shaped regions written
/// out (4x4 with 1x4 regions), the default rows of a 5x5, and a 6x6 with
/// 3x2 boxes, which the editor writes as regions; the regions are written
/// out on half the default layouts too.
#[test]
fn the_fpuzzles_reader_reads_what_the_native_format_reads() {
    let mut rng = rng(4141);
    let layouts = [(4, (2, 2), 0), (4, (1, 4), 0), (5, (1, 5), 6), (6, (2, 3), 16), (6, (3, 2), 16)];
    let (mut checked, mut refused, mut solvable) = (0, 0, 0);
    for i in 0..260 {
        let (n, boxes, givens) = layouts[i % layouts.len()];
        let rules = 1 + rng.below(3);
        let givens = givens + rng.below(3);
        let spec = random_spec(&mut rng, n, boxes, rules, givens);
        let Some(json) = spec.fpuzzles(rng.below(2) == 0) else { continue };
        let puzzle = parse(&json, "spec.json", Some(Format::Fpuzzles));
        if spec.ambiguous_in_fpuzzles() {
            let err = puzzle.err().unwrap_or_else(|| panic!("read an ambiguous negative ratio:\n{json}")).to_string();
            assert!(err.contains("$.negative"), "{err}");
            refused += 1;
            continue;
        }
        // A puzzle the native format refuses (a clone of a cell onto
        // itself) must be refused from the editor's JSON too.
        if let Err(native) = parse(&spec.text(), "spec", Some(Format::Puzzle)) {
            assert!(puzzle.is_err(), "native refuses ({native}), f-puzzles reads:\n{json}");
            refused += 1;
            continue;
        }
        let puzzle = puzzle.unwrap_or_else(|e| panic!("{e}\n{json}"));
        let encoded = encode(&puzzle, &Encoding::default());
        let from_json = count_models(&puzzle, &encoded, EngineKind::Enum, Limits::default(), &mut ()).unwrap().models;
        let expected = u128::from(spec.oracle());
        assert_eq!(from_json, expected, "f-puzzles\n{json}\nnative\n{}", spec.text());
        assert_eq!(count(&spec.text(), "direct", EngineKind::Enum), expected, "native\n{}", spec.text());
        checked += 1;
        solvable += usize::from(expected > 0);
    }
    assert!(checked >= 100 && solvable >= 20, "{checked} checked, {solvable} with solutions, {refused} refused");
}

/// Whether some grid of `spec`, whose last rule is an `either`, keeps two of
/// its alternatives (by the oracle's own reading of the rules).
fn keeps_two_alternatives(spec: &Spec) -> bool {
    let Some(Rule::Either(alternatives)) = spec.rules.last() else { unreachable!() };
    let together = |g: &[u32]| {
        let held = alternatives.iter().filter(|rules| Spec { rules: rules.to_vec(), ..spec.clone() }.keeps(g));
        spec.keeps(g) && held.count() >= 2
    };
    crate::common::count_grids(spec.n, spec.boxes, &spec.givens, &together) > 0
}

/// `either` blocks (ISS's `Or`) with another rule or none, on 4x4 and
/// 6x6, under direct, order and log digits and both engines, against the
/// oracle: at least one alternative's rules all hold, each grid counted
/// once however many do. Some keep solutions, some have none, and some
/// have alternatives that hold together.
#[test]
fn either_blocks_match_the_oracle_under_every_encoding() {
    let mut rng = rng(5555);
    let mut counts = Vec::new();
    let mut overlapping = 0;
    for i in 0..60 {
        let (n, boxes, givens) = if i % 5 == 4 { (6, (2, 3), 14) } else { (4, (2, 2), rng.below(3)) };
        let others = rng.below(2);
        let mut spec = random_spec(&mut rng, n, boxes, others, givens);
        let grid = random_grid(&mut rng, n, boxes);
        spec.rules.push(random_rule(&mut rng, 55, n, &grid));
        let text = spec.text();
        let expected = u128::from(spec.oracle());
        overlapping += u64::from(keeps_two_alternatives(&spec));
        for (encoding, engine) in [
            ("direct", EngineKind::Enum),
            ("direct", EngineKind::Blocking),
            ("order", EngineKind::Enum),
            ("log", EngineKind::Blocking),
        ] {
            assert_eq!(count(&text, encoding, engine), expected, "{encoding} {engine:?}\n{text}");
        }
        counts.push(expected);
    }
    assert!(counts.iter().filter(|&&c| c > 0).count() >= 15, "{counts:?}");
    assert!(counts.contains(&0), "{counts:?}");
    assert!(overlapping >= 5, "{overlapping} puzzles with grids that keep two alternatives");
}

/// A count split into cubes on the alternatives' selectors (the enum
/// engine branches on them) adds up to the oracle's number whichever
/// engine counts each cube: the enum engine counts a grid under its own
/// selectors only (the first alternative it satisfies), and the blocking
/// engine, which finds it under any, counts it where the cube's selectors
/// are its own. Either block here has two or three alternatives that
/// often hold together, on 4x4 grids with few givens; some cubes fix a
/// selector. Counting every model under each cube (the check left out)
/// counts grids twice.
#[test]
fn cubes_split_on_alternatives_add_up_whichever_engine_counts_them() {
    use satsudoku::cluster::{split_count, Split};
    use satsudoku::count::{count_cube, Search};
    let mut rng = rng(7373);
    let (mut on_selectors, mut overlapping) = (0, 0);
    for _ in 0..40 {
        let grid = random_grid(&mut rng, 4, (2, 2));
        let givens = rng.below(2);
        let mut spec = random_spec(&mut rng, 4, (2, 2), 0, givens);
        let alternatives = (0..2 + rng.below(2))
            .map(|_| loop {
                let kind = rng.below(KINDS);
                if !NOT_IN_EITHER.contains(&kind) {
                    break vec![random_rule(&mut rng, kind, 4, &grid)];
                }
            })
            .collect();
        spec.rules.push(Rule::Either(alternatives));
        let text = spec.text();
        let expected = u128::from(spec.oracle());
        overlapping += u64::from(keeps_two_alternatives(&spec));
        let puzzle = parse(&text, "spec", Some(Format::Puzzle)).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let encoding = Encoding::default();
        let encoded = encode(&puzzle, &encoding);
        let (factor, cubes) = split_count(&puzzle, &encoding, false, Split::Depth(3));
        assert_eq!(factor, 1);
        let selectors = |cube: &Vec<i64>| cube.iter().any(|&l| l.unsigned_abs() as usize > 4 * 4 * 4);
        on_selectors += cubes.iter().filter(|cube| selectors(cube)).count();
        for search in
            [Search::from(EngineKind::Enum), Search { engine: EngineKind::Enum, jobs: 2 }, EngineKind::Blocking.into()]
        {
            let mut total = 0;
            for cube in &cubes {
                let cube = cube.iter().map(|&l| varisat::Lit::from_dimacs(l as isize)).collect();
                total += count_cube(&puzzle, &encoded, search, Limits::default(), &mut (), cube).unwrap().models;
            }
            assert_eq!(total, expected, "{search:?}, {} cubes\n{text}", cubes.len());
        }
    }
    assert!(on_selectors >= 20, "{on_selectors} cubes fix a selector");
    assert!(overlapping >= 5, "{overlapping} puzzles with grids that keep two alternatives");
}

/// Alternatives settled at the root before the search
/// (`settle_alternatives`): puzzles of one to three `either` blocks (each
/// over more cells than a table takes, so with selectors to probe), each
/// an alternative drawn from the grid the givens come from and one drawn
/// from another grid (which the givens often contradict), counted through
/// the plan and judged as `unique` judges, against the oracle; the settled
/// puzzle, counted by the enum engine alone, gives the oracle's number
/// too, and a puzzle found to have no solution at the root has none. Some
/// draws settle every block (no alternative left), some a few, and some
/// have no solution; settled with the probes cut short, the narrowed
/// puzzle counts the same.
#[test]
fn alternatives_settled_at_the_root_keep_the_oracle_count() {
    use satsudoku::count::plan::{settle_alternatives, settle_alternatives_within, Counter, Plan, Settled, Verdict};
    let mut rng = rng(6161);
    let (mut narrowed, mut all_settled, mut refuted, mut cut_short, mut solvable) = (0, 0, 0, 0, 0);
    // A settled puzzle's count by the enum engine alone.
    let enumerated = |settled: &satsudoku::model::Puzzle| {
        let encoded = encode(settled, &Encoding::default());
        count_models(settled, &encoded, EngineKind::Enum, Limits::default(), &mut ()).unwrap().models
    };
    for i in 0..90 {
        let (n, boxes, givens) =
            if i % 3 == 2 { (6, (2, 3), 12 + rng.below(6)) } else { (4, (2, 2), 2 + rng.below(4)) };
        let grid = random_grid(&mut rng, n, boxes);
        let other = random_grid(&mut rng, n, boxes);
        let mut shown = vec![0; n * n];
        for _ in 0..givens {
            let c = rng.below(n * n);
            shown[c] = grid[c];
        }
        let alternative = |rng: &mut Rng, from: &[u32]| loop {
            let kind = rng.below(KINDS);
            if !NOT_IN_EITHER.contains(&kind) {
                break vec![random_rule(rng, kind, n, from)];
            }
        };
        let blocks = 1 + rng.below(3);
        let mut rules = Vec::new();
        for _ in 0..blocks {
            // Blocks over more cells than a table takes, whose selectors
            // settling probes (a smaller block is a table: no selectors).
            let both = loop {
                let mut both = vec![alternative(&mut rng, &grid), alternative(&mut rng, &other)];
                if rng.below(2) == 0 {
                    both.reverse();
                }
                let alone = Spec { n, boxes, givens: vec![0; n * n], rules: vec![Rule::Either(both.clone())] };
                let puzzle = parse(&alone.text(), "spec", Some(Format::Puzzle)).unwrap();
                if puzzle.constraints().iter().any(|c| satsudoku::encode::has_selectors(c, n)) {
                    break both;
                }
            };
            rules.push(Rule::Either(both));
        }
        let spec = Spec { n, boxes, givens: shown, rules };
        let text = spec.text();
        let expected = u128::from(spec.oracle());
        solvable += usize::from(expected > 0);
        let puzzle = parse(&text, "spec", Some(Format::Puzzle)).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let plan = Plan::new(Encoding::default());
        let tally = satsudoku::count::plan::count(&puzzle, &plan, &mut ()).unwrap();
        assert_eq!(tally.count, expected.into(), "plan\n{text}");
        let verdict = Counter::new(plan).judge(&puzzle).unwrap();
        let judged = match verdict {
            Verdict::None => 0,
            Verdict::Unique(_) => 1,
            Verdict::Multiple(..) => 2,
            Verdict::Undecided => panic!("undecided\n{text}"),
        };
        assert_eq!(judged, expected.min(2), "judge\n{text}");
        match settle_alternatives(&puzzle) {
            Some(Settled::NoSolution) => {
                assert_eq!(expected, 0, "no solution at the root\n{text}");
                refuted += 1;
            }
            Some(Settled::Narrowed(settled)) => {
                narrowed += 1;
                let left =
                    settled.constraints().iter().any(|c| matches!(c, satsudoku::model::Constraint::AnyOf { .. }));
                all_settled += usize::from(!left);
                assert_eq!(enumerated(&settled), expected, "settled\n{text}");
            }
            None => {}
        }
        // With the probes running out after the first block or two, what
        // was settled is kept, and counts the same.
        if let Some(Settled::Narrowed(settled)) = settle_alternatives_within(&puzzle, 1 + rng.below(5)) {
            cut_short += 1;
            assert_eq!(enumerated(&settled), expected, "settled, probes cut short\n{text}");
        }
    }
    let counts = format!(
        "{narrowed} narrowed, {all_settled} settled, {refuted} refuted, {cut_short} cut short, {solvable} solvable"
    );
    assert!(narrowed >= 20 && all_settled >= 10 && refuted >= 5 && cut_short >= 10 && solvable >= 30, "{counts}");
}

/// Counting circles on scattered cells of 4x4 and 6x6 grids (a path, as
/// the mixed draws make them, stays inside a few groups): the cells split
/// into several exclusion groups, which the encoding counts over too.
/// Under the enum engine and order digits, against the oracle; some draws
/// keep solutions.
#[test]
fn counting_circles_on_scattered_cells_match_the_oracle() {
    let mut rng = rng(4747);
    let mut solvable = 0;
    for round in 0..40 {
        let (n, boxes) = if round % 2 == 0 { (4, (2, 2)) } else { (6, (2, 3)) };
        let mut cells: Vec<usize> = Vec::new();
        let size = 3 + rng.below(2 * n - 2);
        while cells.len() < size {
            let cell = rng.below(n * n);
            if !cells.contains(&cell) {
                cells.push(cell);
            }
        }
        let mut givens = vec![0; n * n];
        if n == 6 {
            // The oracle is plain backtracking: a few givens keep it quick.
            let grid = random_grid(&mut rng, n, boxes);
            for _ in 0..16 {
                let i = rng.below(n * n);
                if !cells.contains(&i) {
                    givens[i] = grid[i];
                }
            }
        }
        let spec = Spec { n, boxes, givens, rules: vec![Rule::CountingCircles(cells)] };
        let (text, expected) = (spec.text(), spec.oracle());
        solvable += usize::from(expected > 0);
        for encoding in ["direct", "order"] {
            assert_eq!(count(&text, encoding, EngineKind::Enum), u128::from(expected), "{encoding}\n{text}");
        }
    }
    assert!(solvable >= 10, "only {solvable} draws kept solutions");
}
