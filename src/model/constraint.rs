//! Constraints on one cell's digits or on more than two cells: what the
//! variant rules need beyond all-different groups and binary relations.

use std::fmt;

use itertools::Itertools;

use super::{Cell, Digit, LineRule, Relation};

/// A constraint on one cell's digits or on several cells. (Each variant's
/// doc says what its fields hold.)
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// The cell's digit is one of `allowed`, bit `d - 1` for digit `d`
    /// (odd and even cells).
    Digits { cell: Cell, allowed: u64 },
    /// The sum of `weight * digit` over the terms equals `target`: killer
    /// cages (weights 1; the cage's distinctness is a group of its own),
    /// little killer sums, arrows (the line's cells weigh 1, the circle's
    /// cells `-1`, or `-10`, `-1` for a two-cell circle read as a number).
    Sum { terms: Vec<(Cell, i32)>, target: i32 },
    /// The cells hold consecutive digits in some order (renban lines; their
    /// distinctness is a group of its own).
    Consecutive { cells: Vec<Cell> },
    /// Every cell of `inner` holds a digit strictly between the digits of
    /// the two `ends` (between lines).
    Between { ends: (Cell, Cell), inner: Vec<Cell> },
    /// The cells hold each of `digits` at least as often as it is listed
    /// (quadruples).
    Contains { cells: Vec<Cell>, digits: Vec<Digit> },
    /// The cells do not all hold the same digit (Takuzu: no three equal in a row).
    NotAllEqual { cells: Vec<Cell> },
    /// The two lines of cells, position by position, differ somewhere
    /// (Takuzu: no two equal rows or columns).
    DistinctLines { a: Vec<Cell>, b: Vec<Cell> },
    /// The first `x` cells sum to `target`, where `x` is the first cell's
    /// digit (x-sums: `cells` run from the clue into the grid).
    XSum { cells: Vec<Cell>, target: i32 },
    /// `low` and `high` each appear once on the line, and the cells
    /// strictly between them sum to `target` (sandwich sums: 1 and the
    /// largest digit are the crusts).
    Sandwich { cells: Vec<Cell>, target: i32, low: Digit, high: Digit },
    /// Seen from the first cell, `target` cells are taller than every cell
    /// before them, the first included (skyscrapers).
    Visible { cells: Vec<Cell>, target: u8 },
    /// Every part sums to the same number (region sum lines, double
    /// arrows, zipper lines).
    EqualSums { parts: Vec<Vec<Cell>> },
    /// `line[d - 1]` holds `value`, where `d` is the digit of `cell`
    /// (indexers); `cell` may be on the line.
    Index { cell: Cell, line: Vec<Cell>, value: Digit },
    /// No cell of `inner` holds a digit between the two `ends`' digits,
    /// both included (lockout lines).
    Outside { ends: (Cell, Cell), inner: Vec<Cell> },
    /// The digits of `a`, position by position, are lexicographically at
    /// most those of `b` renamed by `rename` (digit `d` reads as
    /// `rename[d]`; a permutation, `rename[0]` unused), or equal to them
    /// when `equal`: a transposition's symmetry breaking (see
    /// `count::symmetry`).
    Lex { a: Vec<Cell>, b: Vec<Cell>, rename: Vec<Digit>, equal: bool },
    /// Some permutation `r` of the digits has `cells[i] = r(images[i])`
    /// for every `i`: with `images` the cells' images under a geometric
    /// symmetry, the grid is fixed by that symmetry followed by a
    /// relabelling (`count::burnside`).
    Automorphic { cells: Vec<Cell>, images: Vec<Cell> },
    /// A relation given by its allowed pairs of digits (ISS's custom
    /// pairs): bit `j - 1` of `allowed[i - 1]` is set when `a` may hold `i`
    /// while `b` holds `j`.
    Table { a: Cell, b: Cell, allowed: Vec<u64> },
    /// The digits of `cells`, read in order, match `pattern` as a whole
    /// (ISS's `Regex` lines; the grammar is [`super::regex`]).
    Regular { cells: Vec<Cell>, pattern: String },
    /// Some cell holds a digit of each class (bit `d - 1` for digit `d`):
    /// the 2x2 windows of ISS's global entropy and global modular rules.
    Classes { cells: Vec<Cell>, classes: Vec<u64> },
    /// The digits of `cells`, read in order, satisfy `rule` (ISS's sum
    /// lines, rellik and equality cages, hidden skyscrapers).
    Along { rule: LineRule, cells: Vec<Cell> },
    /// Each listed digit appears in `cells` exactly as often as listed
    /// (ISS's `ContainExact` and `LookAndSay`; a count of 0 keeps the
    /// digit out); other digits are free.
    Exactly { cells: Vec<Cell>, counts: Vec<(Digit, u8)> },
    /// The value of each cell says how many of the cells hold it (ISS's
    /// `CountingCircles`): each digit `v` appears 0 times or as many as its
    /// value, `v` (`first` 1), or `v - 1` on a grid of values from 0
    /// (`first` 0: digit 1, the value 0, appears in none, as ISS's handler
    /// has it).
    Counting {
        /// The circles.
        cells: Vec<Cell>,
        /// The value of digit 1: 1, or 0 on a grid of values from 0.
        first: u8,
    },
    /// `line[k - 1]` holds the digit of `value`, where `k` is the digit of
    /// `control` (ISS's `ValueIndexing`); `k` is at most the line's length.
    ValueIndex { value: Cell, control: Cell, line: Vec<Cell> },
    /// The value of `control` is the number of different digits in
    /// `cells` (ISS's `CountDistinct`).
    CountDistinct {
        /// The cell whose value counts.
        control: Cell,
        /// The cells counted.
        cells: Vec<Cell>,
        /// The value of digit 1: 1, or 0 on a grid of values from 0.
        first: u8,
    },
    /// The digits of the segments, read in order with symbol `n + 1`
    /// between two segments, are accepted by the state machine ISS's
    /// `token` writes (its `NFA` constraint, [`super::nfa`]), on a grid
    /// of `n` digits; `name` is ISS's label for it, kept for the way back.
    Machine { token: String, name: String, segments: Vec<Vec<Cell>>, n: usize },
    /// Two cells of a `side` x `side` grid a taxicab distance `d` apart
    /// (rows plus columns) do not both hold `d` (ISS's `AntiTaxicab`); one
    /// constraint for the grid, so that the model stays small.
    AntiTaxicab { side: usize },
    /// Full rank (ISS's `FullRank`): the rows and columns of the `side` x
    /// `side` grid, each read both ways ([`readings`]), ranked by their
    /// digits in lexicographic order; `line`'s reading has rank `rank`, one
    /// more than the number of readings below it (tied readings share a
    /// rank), and, if `alone`, no other reading ties with it. `latin`: the
    /// puzzle's rows and columns hold each digit once (the builder checks
    /// it), so that four readings start with each digit; the encoding then
    /// adds what follows (the rank's first digit, the count among the
    /// readings that start with it). It does not change what holds.
    Rank { line: Vec<Cell>, rank: u32, alone: bool, side: usize, latin: bool },
    /// No two of the grid's [`readings`] are equal (ISS's `FullRankTies`
    /// `none`).
    DistinctReadings { side: usize },
    /// Every set holds the same digits, as often each (ISS's `SameValues`
    /// and `RegionSameValues`; the native `same-values`): sets of one
    /// size, which may share cells (a row and a column).
    SameValues { sets: Vec<Vec<Cell>> },
    /// ISS's `Doppelganger`, on a grid of values `0..=side` (digits
    /// `1..=side + 1`, digit 1 the value 0): every region (each list of
    /// `regions` is one kind: rows, columns, boxes) holds a 0 and misses
    /// one other value; no two regions of a kind miss the same value; and
    /// at each 0, the values its regions miss differ.
    Doppelganger { regions: Vec<Vec<Vec<Cell>>> },
    /// The cells of the `side x side` grid that hold one of `digits` (bit
    /// `d - 1` for digit `d`) form a single region, not empty, connected
    /// through orthogonal neighbours, of exactly `size` cells if given
    /// (ISS's `ConnectedValues` over the grid; the native
    /// `connected-values`).
    ConnectedValues { side: usize, digits: u64, size: Option<usize> },
    /// Chaos construction ([`super::Puzzle::into_chaos`]): below the
    /// `side x side` grid, cell `(side + r, c)` holds the region label of
    /// cell `(r, c)`; the cells of a label are `side` orthogonally
    /// connected cells of different digits, and the labels are numbered
    /// from 1 in the reading order of their regions' 1s (each row holding
    /// every digit once, label `k`'s 1 is row `k`'s).
    Chaos { side: usize },
    /// A chaos construction's region runs (ISS's `ChaosArrow` and
    /// `ChaosCount`, [`super::Puzzle::add_region_runs`]): along each arm
    /// of region label cells, all starting at the same cell, the run of
    /// cells in the start's region (up to the first cell in another); the
    /// control's digit plus `offset` is the start plus every arm's run
    /// after it.
    RegionRuns { control: Cell, arms: Vec<Vec<Cell>>, offset: u8 },
    /// At least one of the alternatives holds, each a set of rules that
    /// all hold (ISS's `Or`, whose branches may be `And`s; the native
    /// `either` block). Several may hold at once: the puzzle's solutions
    /// are grids, counted once whichever alternatives they satisfy.
    AnyOf { alternatives: Vec<Alternative> },
}

/// One alternative of a [`Constraint::AnyOf`]: the rules a branch adds to
/// the puzzle, which all hold when it is the one that holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Alternative {
    /// Sets of cells whose digits differ (the branch's groups: extra
    /// regions, a cage's distinctness).
    pub distinct: Vec<Vec<Cell>>,
    /// Relations between two cells.
    pub relations: Vec<Relation>,
    /// The other constraints (a given is a [`Constraint::Digits`]).
    pub constraints: Vec<Constraint>,
}

impl Alternative {
    /// The cells the alternative reads, each once.
    pub fn cells(&self) -> Vec<Cell> {
        let all = self.distinct.iter().flatten().copied();
        let related = self.relations.iter().flat_map(|r| [r.a, r.b]);
        all.chain(related).chain(self.constraints.iter().flat_map(Constraint::cells)).unique().collect()
    }

    /// Whether the digits `digit_of` gives the cells satisfy every rule of
    /// the alternative.
    pub fn holds(&self, digit_of: &dyn Fn(Cell) -> Digit) -> bool {
        let distinct = |cells: &Vec<Cell>| {
            cells.iter().enumerate().all(|(i, &a)| cells[i + 1..].iter().all(|&b| digit_of(a) != digit_of(b)))
        };
        self.distinct.iter().all(distinct)
            && self.relations.iter().all(|r| r.predicate.allows(digit_of(r.a), digit_of(r.b)))
            && self.constraints.iter().all(|c| c.holds(digit_of))
    }
}

/// The rows of a `side` x `side` grid read left to right and right to
/// left, then its columns top to bottom and bottom to top: full rank's
/// readings, in ISS's order (`FullRank.buildEntries`).
pub fn readings(side: usize) -> Vec<Vec<Cell>> {
    let rows = (0..side).map(|r| (0..side).map(|c| Cell::new(r, c)).collect::<Vec<_>>());
    let columns = (0..side).map(|c| (0..side).map(|r| Cell::new(r, c)).collect::<Vec<_>>());
    let mut all = Vec::with_capacity(4 * side);
    for line in rows.chain(columns) {
        let back = line.iter().rev().copied().collect();
        all.push(line);
        all.push(back);
    }
    all
}

/// The most literals (cells times steps) a [`Constraint::ConnectedValues`]'s
/// encoding may take: 4 million, about 30 million clauses.
pub const MOST_CONNECTED: usize = 4_000_000;

/// The most members a [`Constraint::ConnectedValues`] region of `digits`
/// can have on a `side x side` grid: every cell, `size` if given, and
/// `side` per digit when each row's cells differ (`rows_differ`). Its
/// encoding reaches every member within one step fewer.
pub fn connected_members(side: usize, digits: u64, size: Option<usize>, rows_differ: bool) -> usize {
    let mut most = (side * side).min(size.unwrap_or(usize::MAX));
    if rows_differ {
        most = most.min(digits.count_ones() as usize * side);
    }
    most
}

/// The orthogonal neighbours of cell `index` (row by row) on a `side x
/// side` grid, as indices.
pub fn orthogonal(side: usize, index: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (index / side, index % side);
    let steps = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
    steps.into_iter().filter(move |&(a, b)| a < side && b < side).map(move |(a, b)| a * side + b)
}

/// Whether a [`Constraint::Table`]'s `allowed` lets its first cell hold
/// `i` while the second holds `j`.
pub fn table_allows(allowed: &[u64], i: Digit, j: Digit) -> bool {
    let (i, j) = (usize::from(i), u32::from(j));
    (1..=64).contains(&j) && allowed.get(i.wrapping_sub(1)).is_some_and(|row| row >> (j - 1) & 1 == 1)
}

/// Whether the labels under a `side x side` grid make a chaos
/// construction's regions ([`Constraint::Chaos`]): a label `1..=side` per
/// cell, each label's cells `side` of them, of different digits,
/// connected, and the labels in the reading order of their regions' 1s.
fn chaos_holds(side: usize, digit_of: &impl Fn(Cell) -> Digit) -> bool {
    let label = |i: usize| usize::from(digit_of(Cell::new(side + i / side, i % side)));
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); side];
    // The labels of the 1s, in reading order.
    let mut ones = Vec::new();
    for i in 0..side * side {
        let l = label(i);
        if l == 0 || l > side {
            return false;
        }
        members[l - 1].push(i);
        if digit_of(Cell::new(i / side, i % side)) == 1 {
            ones.push(l);
        }
    }
    if !ones.iter().copied().eq(1..=side) {
        return false;
    }
    members.iter().all(|cells| {
        let mut digits: Vec<Digit> = cells.iter().map(|&i| digit_of(Cell::new(i / side, i % side))).collect();
        digits.sort_unstable();
        digits.dedup();
        if cells.len() != side || digits.len() != side {
            return false;
        }
        // Every cell from the first by orthogonal steps within the region.
        let mut seen = vec![cells[0]];
        let mut at = 0;
        while let Some(&i) = seen.get(at) {
            at += 1;
            for next in orthogonal(side, i) {
                if cells.contains(&next) && !seen.contains(&next) {
                    seen.push(next);
                }
            }
        }
        seen.len() == side
    })
}

impl Constraint {
    /// The cells the constraint reads.
    pub fn cells(&self) -> Vec<Cell> {
        match self {
            Constraint::Digits { cell, .. } => vec![*cell],
            Constraint::Sum { terms, .. } => terms.iter().map(|&(c, _)| c).collect(),
            Constraint::Consecutive { cells }
            | Constraint::Contains { cells, .. }
            | Constraint::Classes { cells, .. }
            | Constraint::Along { cells, .. }
            | Constraint::Exactly { cells, .. }
            | Constraint::Counting { cells, .. }
            | Constraint::NotAllEqual { cells }
            | Constraint::XSum { cells, .. }
            | Constraint::Sandwich { cells, .. }
            | Constraint::Visible { cells, .. } => cells.clone(),
            Constraint::EqualSums { parts } => parts.concat(),
            Constraint::Doppelganger { regions } => {
                let mut once: Vec<Cell> = regions.iter().flatten().flatten().copied().collect();
                once.sort_unstable();
                once.dedup();
                once
            }
            Constraint::SameValues { sets } => sets.iter().flatten().copied().unique().collect(),
            Constraint::AntiTaxicab { side }
            | Constraint::ConnectedValues { side, .. }
            | Constraint::Rank { side, .. }
            | Constraint::DistinctReadings { side } => {
                itertools::iproduct!(0..*side, 0..*side).map(|(r, c)| Cell::new(r, c)).collect()
            }
            Constraint::Machine { segments, .. } => segments.iter().flatten().copied().unique().collect(),
            Constraint::RegionRuns { control, arms, .. } => {
                std::iter::once(*control).chain(arms.iter().flatten().copied()).unique().collect()
            }
            Constraint::Chaos { side } => {
                itertools::iproduct!(0..2 * side, 0..*side).map(|(r, c)| Cell::new(r, c)).collect()
            }
            Constraint::ValueIndex { value, control, line } => {
                let mut all = vec![*value, *control];
                all.extend(line.iter().filter(|c| !all.contains(c)).copied().collect::<Vec<_>>());
                all
            }
            Constraint::CountDistinct { control, cells, .. } => {
                std::iter::once(*control).chain(cells.iter().copied().filter(|c| c != control)).collect()
            }
            Constraint::Index { cell, line, .. } => {
                std::iter::once(*cell).chain(line.iter().copied().filter(|c| c != cell)).collect()
            }
            Constraint::Outside { ends, inner } => [ends.0, ends.1].into_iter().chain(inner.iter().copied()).collect(),
            Constraint::DistinctLines { a, b } => a.iter().chain(b).copied().collect(),
            // A cell may be compared with itself (the diagonal of a transposition).
            Constraint::Lex { a, b, .. } => a.iter().chain(b.iter().filter(|c| !a.contains(c))).copied().collect(),
            Constraint::Automorphic { cells, images } => {
                cells.iter().chain(images.iter().filter(|c| !cells.contains(c))).copied().collect()
            }
            Constraint::Between { ends, inner } => [ends.0, ends.1].into_iter().chain(inner.iter().copied()).collect(),
            Constraint::Table { a, b, .. } => vec![*a, *b],
            Constraint::Regular { cells, .. } => cells.iter().copied().unique().collect(),
            Constraint::AnyOf { alternatives } => alternatives.iter().flat_map(Alternative::cells).unique().collect(),
        }
    }

    /// Whether the digits `digit_of` gives the cells satisfy the constraint.
    pub fn holds(&self, digit_of: impl Fn(Cell) -> Digit) -> bool {
        match self {
            Constraint::Digits { cell, allowed } => allowed >> (digit_of(*cell) - 1) & 1 == 1,
            Constraint::AnyOf { alternatives } => {
                alternatives.iter().any(|a| a.holds(&digit_of as &dyn Fn(Cell) -> Digit))
            }
            Constraint::Regular { cells, pattern } => {
                // The checker compiles for every digit there is: restricted
                // to the puzzle's digits, the language is the same.
                let digits: Vec<Digit> = cells.iter().map(|&c| digit_of(c)).collect();
                super::regex::Regex::new(pattern, 64).is_ok_and(|re| re.matches(&digits))
            }
            Constraint::Table { a, b, allowed } => table_allows(allowed, digit_of(*a), digit_of(*b)),
            Constraint::Exactly { cells, counts } => counts
                .iter()
                .all(|&(d, times)| cells.iter().filter(|&&c| digit_of(c) == d).count() == usize::from(times)),
            Constraint::ValueIndex { value, control, line } => {
                let k = usize::from(digit_of(*control));
                k >= 1 && line.get(k - 1).is_some_and(|&at| digit_of(at) == digit_of(*value))
            }
            Constraint::AntiTaxicab { side } => {
                let cells: Vec<Cell> = itertools::iproduct!(0..*side, 0..*side).map(|(r, c)| Cell::new(r, c)).collect();
                cells.iter().enumerate().all(|(i, &a)| {
                    cells[i + 1..].iter().all(|&b| {
                        let d = a.row.abs_diff(b.row) + a.col.abs_diff(b.col);
                        !(usize::from(digit_of(a)) == d && usize::from(digit_of(b)) == d)
                    })
                })
            }
            Constraint::ConnectedValues { side, digits, size } => {
                let inside = |i: usize| digits >> (digit_of(Cell::new(i / side, i % side)) - 1) & 1 == 1;
                let members: Vec<usize> = (0..side * side).filter(|&i| inside(i)).collect();
                // From the first member, every member by orthogonal steps.
                let Some(&first) = members.first() else { return false };
                let mut seen = vec![false; side * side];
                let mut stack = vec![first];
                seen[first] = true;
                let mut reached = 0;
                while let Some(i) = stack.pop() {
                    reached += 1;
                    for next in orthogonal(*side, i) {
                        if !seen[next] && inside(next) {
                            seen[next] = true;
                            stack.push(next);
                        }
                    }
                }
                reached == members.len() && size.is_none_or(|s| s == members.len())
            }
            Constraint::Chaos { side } => chaos_holds(*side, &digit_of),
            Constraint::RegionRuns { control, arms, offset } => {
                let runs: usize = arms
                    .iter()
                    .map(|arm| arm[1..].iter().take_while(|&&c| digit_of(c) == digit_of(arm[0])).count())
                    .sum();
                usize::from(digit_of(*control)) + usize::from(*offset) == 1 + runs
            }
            Constraint::Machine { token, segments, n, .. } => {
                let digits: Vec<Vec<Digit>> =
                    segments.iter().map(|s| s.iter().map(|&c| digit_of(c)).collect()).collect();
                super::nfa::Nfa::decode(token).is_ok_and(|m| m.matches(&digits, *n))
            }
            Constraint::Rank { line, rank, alone, side, .. } => {
                let read = |cells: &[Cell]| cells.iter().map(|&c| digit_of(c)).collect::<Vec<Digit>>();
                let own = read(line);
                let others: Vec<Vec<Digit>> = readings(*side).iter().filter(|r| *r != line).map(|r| read(r)).collect();
                let below = others.iter().filter(|r| **r < own).count();
                below + 1 == *rank as usize && !(*alone && others.contains(&own))
            }
            Constraint::DistinctReadings { side } => {
                let mut all: Vec<Vec<Digit>> =
                    readings(*side).iter().map(|r| r.iter().map(|&c| digit_of(c)).collect()).collect();
                all.sort_unstable();
                all.windows(2).all(|w| w[0] != w[1])
            }
            Constraint::CountDistinct { control, cells, first } => {
                let mut seen: Vec<Digit> = cells.iter().map(|&c| digit_of(c)).collect();
                seen.sort_unstable();
                seen.dedup();
                seen.len() + 1 == usize::from(digit_of(*control) + first)
            }
            Constraint::Counting { cells, first } => cells.iter().all(|&c| {
                let d = digit_of(c);
                cells.iter().filter(|&&o| digit_of(o) == d).count() + 1 == usize::from(d + first)
            }),
            Constraint::Along { rule, cells } => {
                let digits: Vec<Digit> = cells.iter().map(|&c| digit_of(c)).collect();
                rule.accepts(&digits)
            }
            Constraint::Classes { cells, classes } => classes.iter().all(|&class| {
                cells.iter().any(|&c| (1..=64).contains(&digit_of(c)) && class >> (digit_of(c) - 1) & 1 == 1)
            }),
            Constraint::Sum { terms, target } => {
                terms.iter().map(|&(c, w)| i64::from(w) * i64::from(digit_of(c))).sum::<i64>() == i64::from(*target)
            }
            Constraint::Consecutive { cells } => {
                let digits: Vec<Digit> = cells.iter().map(|&c| digit_of(c)).collect();
                let (lo, hi) = (digits.iter().min(), digits.iter().max());
                let mut sorted = digits.clone();
                sorted.sort_unstable();
                sorted.dedup();
                match (lo, hi) {
                    (Some(&lo), Some(&hi)) => sorted.len() == digits.len() && usize::from(hi - lo) + 1 == digits.len(),
                    _ => true,
                }
            }
            Constraint::Between { ends, inner } => {
                let (a, b) = (digit_of(ends.0), digit_of(ends.1));
                let (lo, hi) = (a.min(b), a.max(b));
                inner.iter().all(|&c| (lo + 1..hi).contains(&digit_of(c)))
            }
            Constraint::NotAllEqual { cells } => cells.iter().any(|&c| digit_of(c) != digit_of(cells[0])),
            Constraint::XSum { cells, target } => {
                let x = usize::from(digit_of(cells[0]));
                x <= cells.len()
                    && cells[..x].iter().map(|&c| i64::from(digit_of(c))).sum::<i64>() == i64::from(*target)
            }
            Constraint::Sandwich { cells, target, low, high } => {
                let at = |d: Digit| {
                    let mut found = cells.iter().enumerate().filter(|&(_, &c)| digit_of(c) == d).map(|(i, _)| i);
                    match (found.next(), found.next()) {
                        (Some(i), None) => Some(i),
                        _ => None,
                    }
                };
                let (Some(a), Some(b)) = (at(*low), at(*high)) else { return false };
                let between = &cells[a.min(b) + 1..a.max(b)];
                between.iter().map(|&c| i64::from(digit_of(c))).sum::<i64>() == i64::from(*target)
            }
            Constraint::Visible { cells, target } => {
                let mut tallest = 0;
                let mut seen = 0u32;
                for &c in cells {
                    let d = digit_of(c);
                    if d > tallest {
                        tallest = d;
                        seen += 1;
                    }
                }
                seen == u32::from(*target)
            }
            Constraint::Doppelganger { regions } => {
                // The digit each region misses (digit 1, the value 0, must
                // be there), per kind.
                let missed = |cells: &Vec<Cell>| -> Option<Digit> {
                    let mut seen = 0u64;
                    for &c in cells {
                        seen |= 1 << (digit_of(c) - 1);
                    }
                    let gone: Vec<Digit> =
                        (2..=cells.len() as Digit + 1).filter(|d| seen >> (d - 1) & 1 == 0).collect();
                    (seen & 1 == 1 && gone.len() == 1).then(|| gone[0])
                };
                let mut of_cell: std::collections::HashMap<Cell, Vec<Digit>> = std::collections::HashMap::new();
                for kind in regions {
                    let mut used = Vec::new();
                    for cells in kind {
                        let Some(d) = missed(cells) else { return false };
                        if used.contains(&d) {
                            return false;
                        }
                        used.push(d);
                        for &c in cells {
                            of_cell.entry(c).or_default().push(d);
                        }
                    }
                }
                of_cell.iter().all(|(&c, ds)| digit_of(c) != 1 || ds.iter().all_unique())
            }
            Constraint::SameValues { sets } => {
                let sorted = |set: &Vec<Cell>| {
                    let mut digits: Vec<Digit> = set.iter().map(|&c| digit_of(c)).collect();
                    digits.sort_unstable();
                    digits
                };
                sets.windows(2).all(|w| sorted(&w[0]) == sorted(&w[1]))
            }
            Constraint::EqualSums { parts } => {
                let sum = |part: &Vec<Cell>| part.iter().map(|&c| i64::from(digit_of(c))).sum::<i64>();
                parts.windows(2).all(|w| sum(&w[0]) == sum(&w[1]))
            }
            Constraint::Index { cell, line, value } => {
                let d = usize::from(digit_of(*cell));
                (1..=line.len()).contains(&d) && digit_of(line[d - 1]) == *value
            }
            Constraint::Outside { ends, inner } => {
                let (a, b) = (digit_of(ends.0), digit_of(ends.1));
                inner.iter().all(|&c| !(a.min(b)..=a.max(b)).contains(&digit_of(c)))
            }
            Constraint::DistinctLines { a, b } => a.iter().zip(b).any(|(&x, &y)| digit_of(x) != digit_of(y)),
            Constraint::Lex { a, b, rename, equal } => {
                let mut order = a.iter().zip(b).map(|(&x, &y)| digit_of(x).cmp(&rename[usize::from(digit_of(y))]));
                match order.find(|o| o.is_ne()) {
                    None => true,
                    Some(first) => !equal && first.is_lt(),
                }
            }
            Constraint::Automorphic { cells, images } => {
                // The renaming the pairs define must be a one-to-one function.
                let (mut to, mut from) = ([0 as Digit; 256], [0 as Digit; 256]);
                cells.iter().zip(images).all(|(&c, &i)| {
                    let (e, d) = (digit_of(c), digit_of(i));
                    let (t, f) = (&mut to[usize::from(d)], &mut from[usize::from(e)]);
                    let fits = (*t == 0 || *t == e) && (*f == 0 || *f == d);
                    (*t, *f) = (e, d);
                    fits
                })
            }
            Constraint::Contains { cells, digits } => {
                let mut wanted = digits.clone();
                wanted.sort_unstable();
                wanted.dedup();
                wanted.iter().all(|&d| {
                    let listed = digits.iter().filter(|&&x| x == d).count();
                    cells.iter().filter(|&&c| digit_of(c) == d).count() >= listed
                })
            }
        }
    }

    /// Why the constraint cannot hold on a grid of digits `1..=side`
    /// whatever the other rules say, if it cannot: a repeated cell, a
    /// digit out of range, a sum out of reach.
    pub(super) fn validate(&self, side: usize) -> Result<(), String> {
        let cells = self.cells();
        for (i, cell) in cells.iter().enumerate() {
            if cells[..i].contains(cell) {
                return Err(format!("{self} lists cell {cell} twice"));
            }
        }
        match self {
            Constraint::Sum { terms, .. } if terms.is_empty() => Err(format!("{self}: a sum of no cells")),
            Constraint::DistinctLines { a, b } if a.len() != b.len() || a.is_empty() => {
                Err(format!("{self}: the lines need the same, nonzero length"))
            }
            Constraint::Lex { a, b, rename, .. } => {
                if a.len() != b.len() {
                    return Err(format!("{self}: the lines need the same length"));
                }
                let mut sorted = rename.get(1..).unwrap_or_default().to_vec();
                sorted.sort_unstable();
                if rename.len() != side + 1 || sorted.iter().zip(1..).any(|(&d, i)| usize::from(d) != i) {
                    return Err(format!("{self}: the renaming is not a permutation of 1..{side}"));
                }
                Ok(())
            }
            Constraint::ConnectedValues { digits, size, side: n } => {
                let cells = n * n;
                if *digits == 0 || size.is_some_and(|s| s == 0 || s > cells) {
                    return Err(format!("{self}: needs a digit, and a size from 1 to the grid's cells"));
                }
                // The encoding's literals: one per cell and step, up to the
                // most members (the model's rows hold each digit once).
                let steps = connected_members(*n, *digits, *size, true);
                if (digits.count_ones() as usize) < side && cells * steps > MOST_CONNECTED {
                    return Err(format!(
                        "{self}: {cells} cells reached in up to {steps} steps take {} variables, more than \
                         {MOST_CONNECTED}: not encoded",
                        cells * steps
                    ));
                }
                Ok(())
            }
            Constraint::Automorphic { cells, images } if cells.len() != images.len() || cells.is_empty() => {
                Err(format!("{self}: the cells and their images need the same, nonzero number"))
            }
            Constraint::XSum { cells, .. } | Constraint::Sandwich { cells, .. } | Constraint::Visible { cells, .. }
                if cells.is_empty() =>
            {
                Err(format!("{self}: the clue looks along no cells"))
            }
            Constraint::Sandwich { low, high, .. } if low == high || usize::from(*high) > side || *low == 0 => {
                Err(format!("{self}: the crusts are two different digits of 1..{side}"))
            }
            Constraint::SameValues { sets } if sets.len() < 2 || sets.iter().any(|s| s.len() != sets[0].len()) => {
                Err(format!("{self}: the sets need the same size, two or more of them"))
            }
            Constraint::EqualSums { parts } if parts.len() < 2 || parts.iter().any(Vec::is_empty) => {
                Err(format!("{self}: the sums need two or more parts, none empty"))
            }
            Constraint::Index { value, .. } if *value == 0 || usize::from(*value) > side => {
                Err(format!("{self}: digit {value} is outside 1..{side}"))
            }
            Constraint::AnyOf { alternatives } => {
                alternatives.iter().flat_map(|a| &a.constraints).try_for_each(|c| c.validate(side))
            }
            Constraint::Contains { cells, digits } => {
                if let Some(d) = digits.iter().find(|&&d| d == 0 || usize::from(d) > side) {
                    return Err(format!("{self}: digit {d} is outside 1..{side}"));
                }
                if digits.len() > cells.len() {
                    return Err(format!("{self}: {} digits do not fit in {} cells", digits.len(), cells.len()));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Why the constraint, well formed, holds on no grid of digits
    /// `1..=side` whatever the other rules say, if it does not: a cell
    /// left no digit, a sum out of reach, a run longer than the digits.
    pub(super) fn impossible(&self, side: usize) -> Option<String> {
        let n = side as i64;
        match self {
            Constraint::Digits { allowed, .. } if allowed & (u64::MAX >> (64 - side)) == 0 => {
                Some(format!("{self} allows no digit of 1..{side}"))
            }
            Constraint::Sum { terms, target } => {
                // Each term alone ranges over 1..=n times its weight.
                let (lo, hi) = terms.iter().fold((0i64, 0i64), |(lo, hi), &(_, w)| {
                    let (a, b) = (i64::from(w), i64::from(w) * n);
                    (lo + a.min(b), hi + a.max(b))
                });
                let out = !(lo..=hi).contains(&i64::from(*target));
                out.then(|| format!("{self}: {target} is out of reach, the cells can sum to {lo}..{hi} only"))
            }
            Constraint::Consecutive { cells } if cells.len() > side => {
                Some(format!("{self}: {} cells cannot hold distinct consecutive digits of 1..{side}", cells.len()))
            }
            _ => None,
        }
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells = |cells: &[Cell]| itertools::join(cells, " ");
        match self {
            Constraint::Digits { cell, allowed } => {
                let digits = (1..=64u8).filter(|d| allowed >> (d - 1) & 1 == 1);
                write!(f, "{cell} in {{{}}}", itertools::join(digits, ","))
            }
            Constraint::Sum { terms, target } => {
                let parts = terms.iter().map(|&(c, w)| if w == 1 { c.to_string() } else { format!("{w}*{c}") });
                write!(f, "sum {} = {target}", itertools::join(parts, " + "))
            }
            Constraint::Consecutive { cells: c } => write!(f, "consecutive {}", cells(c)),
            Constraint::Between { ends, inner } => write!(f, "between {} and {}: {}", ends.0, ends.1, cells(inner)),
            Constraint::Contains { cells: c, digits } => {
                write!(f, "{} contain {}", cells(c), itertools::join(digits, ","))
            }
            Constraint::NotAllEqual { cells: c } => write!(f, "not all equal: {}", cells(c)),
            Constraint::Regular { cells: c, pattern } => write!(f, "{} matches /{pattern}/", cells(c)),
            Constraint::Along { rule, cells: c } => write!(f, "{} has {rule}", cells(c)),
            Constraint::Exactly { cells: c, counts } => {
                let each = counts.iter().map(|(d, t)| format!("{t} x {d}"));
                write!(f, "{} hold exactly {}", cells(c), itertools::join(each, ", "))
            }
            Constraint::Counting { cells: c, first: 0 } => write!(f, "counting circles {} (values from 0)", cells(c)),
            Constraint::Counting { cells: c, .. } => write!(f, "counting circles {}", cells(c)),
            Constraint::ValueIndex { value, control, line } => {
                write!(f, "{value}'s digit in cell {control} of {}", cells(line))
            }
            Constraint::AntiTaxicab { .. } => write!(f, "anti-taxicab"),
            Constraint::Rank { line, rank, alone, .. } => {
                let tie = if *alone { ", tied with none" } else { "" };
                write!(f, "full rank: {} reads at rank {rank}{tie}", cells(line))
            }
            Constraint::DistinctReadings { .. } => write!(f, "full rank: no two rows or columns read alike"),
            Constraint::AnyOf { alternatives } if alternatives.is_empty() => write!(f, "either (no alternative)"),
            Constraint::AnyOf { alternatives } => {
                let each = alternatives.iter().map(|a| {
                    let rules = a.distinct.iter().map(|g| format!("distinct {}", cells(g)));
                    let related = a.relations.iter().map(|r| format!("{} {} {}", r.a, r.predicate, r.b));
                    let all = rules.chain(related).chain(a.constraints.iter().map(|c| c.to_string()));
                    format!("({})", itertools::join(all, " and "))
                });
                write!(f, "either {}", itertools::join(each, " or "))
            }
            Constraint::Machine { name, segments, .. } => {
                let lines = segments.iter().map(|s| cells(s));
                write!(f, "state machine {name:?} accepts {}", itertools::join(lines, " then "))
            }
            Constraint::CountDistinct { control, cells: c, first } => {
                let from_zero = if *first == 0 { " (values from 0)" } else { "" };
                write!(f, "{control} counts the digits of {}{from_zero}", cells(c))
            }
            Constraint::Classes { cells: c, classes } => {
                let class = |m: u64| itertools::join((1..=64u32).filter(|d| m >> (d - 1) & 1 == 1), "");
                write!(
                    f,
                    "{} hold a digit of each of {}",
                    cells(c),
                    itertools::join(classes.iter().map(|&m| class(m)), " ")
                )
            }
            Constraint::Table { a, b, allowed } => {
                let pairs = allowed.iter().enumerate().flat_map(|(i, row)| {
                    (0..64).filter(move |j| row >> j & 1 == 1).map(move |j| format!("{}{}", i + 1, j + 1))
                });
                write!(f, "{a},{b} in {{{}}}", itertools::join(pairs, " "))
            }
            Constraint::DistinctLines { a, b } => write!(f, "lines differ: {} / {}", cells(a), cells(b)),
            Constraint::XSum { cells: c, target } => write!(f, "x-sum {target} along {}", cells(c)),
            Constraint::Sandwich { cells: c, target, low, high } => {
                write!(f, "sandwich {target} between {low} and {high} along {}", cells(c))
            }
            Constraint::Visible { cells: c, target } => write!(f, "{target} visible along {}", cells(c)),
            Constraint::EqualSums { parts } => {
                write!(f, "equal sums of {}", itertools::join(parts.iter().map(|p| cells(p)), " / "))
            }
            Constraint::Doppelganger { .. } => write!(f, "doppelgangers"),
            Constraint::Chaos { .. } => write!(f, "chaos construction"),
            Constraint::RegionRuns { control, arms, offset } => {
                let arms = itertools::join(arms.iter().map(|a| cells(a)), " / ");
                write!(f, "{control} + {offset} counts the region runs along {arms}")
            }
            Constraint::ConnectedValues { digits, size, .. } => {
                let listed = (1..=64).filter(|d| digits >> (d - 1) & 1 == 1);
                write!(f, "connected values {}", itertools::join(listed, " "))?;
                match size {
                    Some(size) => write!(f, " (size {size})"),
                    None => Ok(()),
                }
            }
            Constraint::SameValues { sets } => {
                write!(f, "the same digits in {}", itertools::join(sets.iter().map(|p| cells(p)), " / "))
            }
            Constraint::Index { cell, line, value } => {
                write!(f, "{cell} = d puts {value} at the d-th of {}", cells(line))
            }
            Constraint::Outside { ends, inner } => {
                write!(f, "outside {} and {}, both included: {}", ends.0, ends.1, cells(inner))
            }
            Constraint::Automorphic { cells: from, images } => {
                write!(f, "{} equal {} under one renaming of the digits", cells(from), cells(images))
            }
            Constraint::Lex { a, b, rename, equal } => {
                let op = if *equal { "=" } else { "<=" };
                let renamed = itertools::join(rename.iter().enumerate().skip(1).map(|(d, r)| format!("{d}>{r}")), ",");
                write!(f, "lex {} {op} {} renamed {renamed}", cells(a), cells(b))
            }
        }
    }
}
