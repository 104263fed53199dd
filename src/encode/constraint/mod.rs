//! Clauses for the n-ary [`Constraint`]s, over any digit encoding: "cell
//! holds d" is the digit's spelling (one literal with direct digits, a
//! conjunction otherwise), so a clause that needs it negated takes the
//! negated spelling, and one that needs it positive takes a defined
//! auxiliary variable when the spelling is not a single literal.
//!
//! - `Digits`: a unit clause (direct digits) per excluded digit.
//! - `Sum` (`Σ w·digit = t`): one-hot value sets merged two at a time. A
//!   merge of sets `A` and `B` makes a variable `s(v)` for each reachable
//!   partial sum `v` that can still reach `t` given the terms outside it,
//!   with `a ∧ b → s(a+b)` and pairwise at-most-one on the `s`, so unit
//!   propagation fixes every `s` once the digits are set (auxiliary
//!   variables never change a count); pairs that cannot reach `t`, and at
//!   the root every pair whose sum is not `t`, are forbidden by a clause.
//!   [`SumEncoding::PartialSums`] merges the terms left to right, a chain of
//!   partial sums (an MDD of the sum, as in Abío et al. 2012 and the
//!   sequential weight counter of Hölldobler et al. 2012);
//!   [`SumEncoding::Totalizer`] merges them as a balanced tree, the
//!   generalized totalizer of Joshi, Martins & Manquinho (2015);
//!   [`SumEncoding::Mdd`] is the chain as an automaton with backward
//!   supports too, domain consistent (`lines.rs`);
//!   [`SumEncoding::Grouped`] splits the cells into groups that may not
//!   share a digit and sums each by the set of digits it used, domain
//!   consistent on the sum and those differences (`grouped.rs`);
//!   [`SumEncoding::Auto`], the default, takes the groups for sums of more
//!   cells than digits and the chain for the others.
//! - `Consecutive` (renban): a variable per window `k..k+len-1` of digits,
//!   at least and at most one of them, and each cell outside the chosen
//!   window forbidden; with `--lines automaton` (the default) also each
//!   digit of the chosen window in some cell (`lines.rs`).
//! - `Between`: with `--lines automaton`, an automaton over the line
//!   (`lines.rs`, domain consistent); with `forward`, for each pair of end
//!   digits, the inner digits not strictly between them are forbidden (one
//!   binary clause when no digit is).
//! - `Contains`, `Exactly` (at least, or exactly, so many of each listed
//!   digit): with `--lines automaton`, one automaton over the cells whose
//!   state is how many of each listed digit were read, domain consistent
//!   (`along::encode_counts_together`), when it has at most 20,000 edges;
//!   else, and with `forward`, `Contains` as every `m-c+1` of the `m`
//!   cells holding a digit listed `c` times at least once, `Exactly` as an
//!   automaton counting each digit alone.
//! - `ValueIndex`: the value and the indexed cell equal both ways under
//!   each control digit; with `--lines automaton` also a defined variable
//!   per (control digit, digit) and the supports of every value and
//!   control digit, domain consistent.
//! - `NotAllEqual`: for each digit, one clause: some cell does not hold it.
//! - `DistinctLines`: a defined variable `same(k)` per position (the two
//!   cells hold one digit: `same(k) <-> OR_d (a_k = d ∧ b_k = d)`, with a
//!   defined variable per conjunction), and the clause `OR_k ¬same(k)`.
//! - `EqualSums`: each part's sum, and each value of the first part's sum
//!   equivalent to the same value of every other part's: with `--lines
//!   automaton`, each part's sum an automaton (`lines.rs`, domain
//!   consistent on the whole); with `forward`, one-hot sums (`sum.rs`).
//! - `XSum`, `Sandwich`: with `--lines automaton` (the default), an
//!   automaton over the line (`outside.rs`), reading the set of digits
//!   summed when the line's cells may not share a digit; with `forward`,
//!   one sum of masked digits, a cell counting only
//!   where a defined variable says so: for an x-sum, `first >= k+1` for
//!   cell `k`; for a sandwich, exactly one crust (low or high) before the
//!   cell and the cell none, from a one-hot count of the crusts so far
//!   (low and high each exactly once on the line) (`sum.rs`).
//! - `Visible` (skyscrapers): an automaton over the line whose state is
//!   the running maximum and the cells seen, unrolled and encoded with
//!   forward and backward supports so that unit propagation is domain
//!   consistent (`automaton.rs`, `visible.rs`).
//! - `Index`: `cell = d → line[d-1] = value`, one clause per digit.
//! - Killer cages' "45 rule" (`innies_and_outies`): for each full house,
//!   the cells outside the cages that meet it minus the cages' cells
//!   outside it sum to the house's total minus the cages' sums, and the
//!   same across runs of rows, columns and boxes (`across_houses`, as
//!   ISS's optimizer grows them); implied, so no count changes, encoded
//!   as sums.
//! - Sums the puzzle's own imply (`encode_implied_sums`): across a full
//!   house that its sums and other houses cover (`crossing.rs`), and two
//!   or more of its sums on cells apart added together when their cells'
//!   groups bring the total near an end of its range (`combined.rs`);
//!   both as ISS's optimizer finds them, encoded as sums.
//! - `Regular` (ISS's regular-expression lines): the pattern's automaton
//!   (Thompson's, run on sets of states) unrolled over the line, as the
//!   skyscrapers' (`automaton.rs`): unit propagation is domain consistent.
//! - `Table` (ISS's custom pairs): support clauses both ways, `¬(a = i)
//!   ∨ OR (b = j)` over the `j` allowed with `i`, and likewise for `b`.
//! - `Outside` (lockout): like `Between`, with the digits between the ends,
//!   both included, forbidden inside (the automaton only up to 2,000
//!   edges: `lines.rs`).
//! - `Automorphic`: a variable `r(d, e)` per pair of digits, exactly one
//!   `e` for each `d` and at most one `d` for each `e`, and `image = d ∧
//!   cell = e -> r(d, e)` for every cell and digits, with `r(d, e) ∧ image
//!   = d -> cell = e` and `r(d, e) ∧ cell = e -> image = d` for propagation.
//! - `AnyOf` (ISS's `Or`, the native `either`): over few cells (`n` to
//!   their number at most `MOST_TABLE_TUPLES`), a table of the digits
//!   some alternative allows (`either.rs`), domain consistent; otherwise a
//!   selector per alternative, one of them true, and each alternative's
//!   clauses (groups and relations as forbidden pairs) with its negated
//!   selector added; a selector is no function of the digits, which no
//!   count sees (counts project onto the cells).
//! - `ConnectedValues`: reachability from the first member unrolled over
//!   steps, every member reached, and a sequential counter for the size
//!   (`connected.rs`); every auxiliary variable fixed by the digits.
//! - `Chaos` (chaos construction): label `k` on row `k`'s 1 and on no
//!   other 1, per label its cells connected to that 1 as
//!   `ConnectedValues`'s to their first member, and per label and digit
//!   exactly one cell with both (`connected.rs`); every auxiliary variable
//!   fixed by the digits and labels. A `CountDistinct` over labels gets
//!   its most regions as ISS's optimizer bounds it (`connected.rs`).
//! - `Lex` (`a ≤lex rename(b)`): a defined variable `eq(k)` per position
//!   after the first, true when the positions before `k` are equal (`eq(k)
//!   -> eq(k-1)`, `eq(k) ∧ b = v -> a = rename(v)`, and `eq(k-1) ∧ a =
//!   rename(v) ∧ b = v -> eq(k)`), and under `eq(k)` every pair with `a_k >
//!   rename(b_k)` forbidden; `equal`: `a_k = rename(v) <-> b_k = v`, two
//!   binary clauses per digit and position.
//!
//! ## References
//! - I. Abío, R. Nieuwenhuis, A. Oliveras, E. Rodríguez-Carbonell, V.
//!   Mayer-Eichberger, "A New Look at BDDs for Pseudo-Boolean
//!   Constraints", JAIR 45, 2012.
//! - S. Hölldobler, N. Manthey, P. Steinke, "A compact encoding of
//!   pseudo-Boolean constraints into SAT", KI 2012.
//! - S. Joshi, R. Martins, V. Manquinho, "Generalized Totalizer Encoding
//!   for Pseudo-Boolean Constraints", CP 2015.

mod along;
mod automaton;
mod cage;
mod combined;
mod connected;
// Which chaos constructions number their labels by first cells.
pub(crate) use connected::first_cell_labels;
mod crossing;
mod either;
pub use either::{has_selectors, tabled, MOST_TABLE_TUPLES};
mod grouped;
mod lines;
mod outside;
mod rank;
mod sum;
mod visible;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use itertools::Itertools;
use varisat::Lit;

use crate::encode::{ClauseSink, DigitEncoding, VarMap};
use crate::model::{Cell, Constraint, Digit, GroupKind, LineRule, Puzzle};

pub(super) use grouped::Differ;

crate::named_enum! {
    /// How a sum over several cells (killer cages, little killers, arrows) becomes clauses.
    pub enum SumEncoding = Auto {
        /// `grouped` for a sum of more cells than digits (a long arrow or sum line, where digits must repeat) and for arrows (a circle's cells weigh below 0), `partial-sums` for the others (killer cages and little killers, where the partial sums measured faster: docs/encodings.md).
        Auto = "auto",
        /// One-hot partial sums, merged left to right (an MDD of the sum).
        PartialSums = "partial-sums",
        /// One-hot partial sums, merged as a balanced tree (generalized totalizer).
        Totalizer = "totalizer",
        /// The partial sums as an automaton with backward supports too: propagation domain consistent on each sum (slower on little killers, pill arrows and killer cages, so not the default).
        Mdd = "mdd",
        /// The cells split into groups that must hold different digits, each group's sum an automaton over the set of digits used, the groups' sums an automaton: domain consistent on the sum and those differences together.
        Grouped = "grouped",
    }
}

crate::named_enum! {
    /// How a rule over a line that has an automaton (skyscraper, x-sum and sandwich clues; between, lockout, region-sum, zipper, double-arrow and renban lines) becomes clauses.
    pub enum LineEncoding = Automaton {
        /// The automaton unrolled along the line, with forward and backward supports: unit propagation is domain consistent (renban: window supports, not domain consistent).
        Automaton = "automaton",
        /// The forward decompositions used before (running maximum, masked partial sums, a sum loop's forward runs, a rellik cage and a lunchbox without their different digits): propagation along the line only.
        Forward = "forward",
        /// `automaton`, and each clique of cells whose every two are bound by one relation (nabner lines, ISS's PairX, the windows of entropic and modular lines) an automaton too, and each 2x2 window of global entropy and modular rules: domain consistent on each clique and window, but more decisions on ISS's examples, so not the default.
        Cliques = "cliques",
    }
}

impl LineEncoding {
    /// Whether lines become automata (`automaton` and `cliques`).
    pub fn automata(self) -> bool {
        self != LineEncoding::Forward
    }
}

/// "Cell holds digit" as clause material, for any digit encoding.
pub(super) struct Spelling<'a> {
    vars: &'a VarMap,
    /// Defined variables `e <-> cell = d` for spellings of several literals.
    defined: HashMap<(Cell, Digit), Lit>,
    /// Order literals made so far: `at_most[cell][t - 1]`, the cell's digit is at most `t`.
    at_most: HashMap<Cell, Vec<Lit>>,
}

impl<'a> Spelling<'a> {
    pub(super) fn new(vars: &'a VarMap) -> Spelling<'a> {
        Spelling { vars, defined: HashMap::default(), at_most: HashMap::default() }
    }

    /// A literal true exactly when `cell`'s digit is at most `t` (`1 <= t <
    /// n`, digits `1..=n`), defined by the digits and made once a cell for
    /// every rule that compares digits.
    pub(super) fn at_most(&mut self, cell: Cell, t: usize, n: usize, out: &mut dyn ClauseSink) -> Lit {
        if !self.at_most.contains_key(&cell) {
            let lits: Vec<Lit> = (1..n)
                .map(|t| {
                    let v = out.new_var().positive();
                    for d in 1..=n {
                        let is = self.is(cell, d as Digit, out);
                        out.add_clause(&[!is, if d <= t { v } else { !v }]);
                    }
                    v
                })
                .collect();
            self.at_most.insert(cell, lits);
        }
        self.at_most[&cell][t - 1]
    }

    /// Literals whose disjunction says "`cell` does not hold `d`".
    pub(super) fn not(&self, cell: Cell, d: Digit) -> Vec<Lit> {
        self.vars.digit_lits(cell, d).map(|l| !l).collect()
    }

    /// One literal that is true exactly when `cell` holds `d`.
    pub(super) fn is(&mut self, cell: Cell, d: Digit, out: &mut dyn ClauseSink) -> Lit {
        if self.vars.digits() == DigitEncoding::Direct {
            return self.vars.lit(cell, d);
        }
        if let Some(&lit) = self.defined.get(&(cell, d)) {
            return lit;
        }
        let spelling: Vec<Lit> = self.vars.digit_lits(cell, d).collect();
        let e = out.new_var().positive();
        for &l in &spelling {
            out.add_clause(&[!e, l]);
        }
        let mut back: Vec<Lit> = spelling.iter().map(|&l| !l).collect();
        back.push(e);
        out.add_clause(&back);
        self.defined.insert((cell, d), e);
        e
    }
}

/// `puzzle`'s full rank clues (those of the whole grid, not inside an
/// alternative), sharing their comparisons of readings, and their order
/// among themselves ([`rank::encode_rank_order`]).
pub(super) fn encode_ranks(puzzle: &Puzzle, spelling: &mut Spelling, out: &mut dyn ClauseSink) {
    let n = puzzle.digits();
    let mut compare = rank::Compare::knowing(n, Differ::of(puzzle));
    let mut latin = true;
    let mut clues: Vec<(&[Cell], u32)> = Vec::new();
    for c in puzzle.constraints() {
        if let Constraint::Rank { line, rank, alone, side, latin: l } = c {
            rank::encode_rank(line, *rank, *alone, *side, *l, n, &mut compare, spelling, out);
            latin &= *l;
            clues.push((line, *rank));
        }
    }
    rank::encode_rank_order(&clues, latin, &mut compare, spelling, out);
}

/// The most edges a clique's automaton may have ([`encode_cliques`]).
const MOST_CLIQUE_EDGES: usize = 2_000;

/// With `--lines cliques`, each clique of three or more cells whose every
/// two cells are bound by the same symmetric relation (nabner lines, ISS's
/// `PairX` and `BinaryX`, the windows of entropic and modular lines) gets
/// an automaton over its cells whose state is the set of digits that pair
/// with every digit read (a digit read again must pair with itself):
/// domain consistent on the clique, where the pairs alone are arc
/// consistent on each pair (`tests/it/propagation.rs`: nabner and
/// `pair-all` left 0.585 and 0.254 of the unsupported digits, entropic
/// and modular windows 0.650 and 0.710). Implied by the pairs, which stay,
/// and a function of the digits, so no count changes. A clique whose
/// automaton would pass [`MOST_CLIQUE_EDGES`] edges (a table that allows
/// most pairs) keeps its pairs alone. Relations `different` are left out:
/// those are groups' business. Not the default: on ISS's examples the
/// stronger propagation cost more decisions than it saved
/// (docs/encodings.md).
pub(super) fn encode_cliques(puzzle: &Puzzle, lines: LineEncoding, spelling: &mut Spelling, out: &mut dyn ClauseSink) {
    if lines != LineEncoding::Cliques {
        return;
    }
    let n = puzzle.digits().min(64);
    let full: u64 = if n == 64 { u64::MAX } else { (1 << n) - 1 };
    // Each pair of cells (in order) and what its rules allow, as rows of
    // a table: bit `j` of row `i`, digits `i + 1` and `j + 1`.
    let mut pairs: HashMap<(Cell, Cell), Vec<u64>> = HashMap::default();
    let mut bind = |a: Cell, b: Cell, allows: &dyn Fn(usize, usize) -> bool| {
        let key = if a < b { (a, b) } else { (b, a) };
        let first = key.0 == a;
        let row = |i: usize| {
            (0..n).filter(|&j| if first { allows(i, j) } else { allows(j, i) }).fold(0u64, |row, j| row | 1 << j)
        };
        let table: Vec<u64> = (0..n).map(row).collect();
        let entry = pairs.entry(key).or_insert_with(|| vec![full; n]);
        for (kept, new) in entry.iter_mut().zip(&table) {
            *kept &= new;
        }
    };
    for r in puzzle.relations().iter().filter(|r| r.predicate != crate::model::Predicate::NotEqual && r.a != r.b) {
        bind(r.a, r.b, &|i, j| r.predicate.allows(i as Digit + 1, j as Digit + 1));
    }
    for c in puzzle.constraints() {
        if let Constraint::Table { a, b, allowed } = c {
            if a != b {
                bind(*a, *b, &|i, j| allowed.get(i).is_some_and(|row| row >> j & 1 == 1));
            }
        }
    }
    // Symmetric tables that rule something out, each with its pairs.
    let symmetric = |t: &[u64]| (0..n).all(|i| (0..n).all(|j| (t[i] >> j & 1) == (t[j] >> i & 1)));
    let mut by_table: HashMap<Vec<u64>, Vec<(Cell, Cell)>> = HashMap::default();
    for (pair, table) in pairs.into_iter().sorted() {
        if symmetric(&table) && table.iter().any(|&row| row != full) {
            by_table.entry(table).or_default().push(pair);
        }
    }
    for (table, edges) in by_table.into_iter().sorted() {
        let linked: HashSet<(Cell, Cell)> = edges.iter().copied().collect();
        let adjacent = |a: Cell, b: Cell| linked.contains(&if a < b { (a, b) } else { (b, a) });
        let cells: Vec<Cell> = edges.iter().flat_map(|&(a, b)| [a, b]).sorted().dedup().collect();
        let mut covered: HashSet<(Cell, Cell)> = HashSet::default();
        for &(a, b) in &edges {
            if covered.contains(&(a, b)) {
                continue;
            }
            // Grown greedily from the pair, cells in order.
            let mut clique = vec![a, b];
            for &c in &cells {
                if !clique.contains(&c) && clique.iter().all(|&m| adjacent(m, c)) {
                    clique.push(c);
                }
            }
            for (i, &x) in clique.iter().enumerate() {
                for &y in &clique[..i] {
                    covered.insert(if x < y { (x, y) } else { (y, x) });
                }
            }
            if clique.len() < 3 {
                continue;
            }
            // The state is the set of digits that still pair with every
            // digit read (the digits read themselves would do, but this
            // merges the sets no later digit tells apart: on modular
            // lines, the residues used).
            let step = |&open: &u64, d: Digit| {
                let d = usize::from(d) - 1;
                (open >> d & 1 == 1).then_some(open & table[d])
            };
            automaton::encode_line_within(&clique, n, full, step, |_| true, |_| (), MOST_CLIQUE_EDGES, spelling, out);
        }
    }
}

/// The clauses a killer cage's digit combinations imply (see `cage.rs`),
/// for each sum of weight-1 terms whose cells are also a group of `puzzle`;
/// the innies and outies ([`innies_and_outies`]); and the combinations'
/// clauses again for each of those with no outie (every term of weight 1)
/// whose cells pairwise differ (`differ`): a hidden cage, as ISS's
/// optimizer calls it (`_makeHiddenCageHandlers`). The partial sums of two
/// innies summing to 4 keep 2 in both cells; the hidden cage's
/// combinations, {1, 3} alone, rule it out (measured in
/// bench/results/design-notes.md).
pub(super) fn encode_cages(
    puzzle: &Puzzle,
    differ: &Differ,
    sums: SumEncoding,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let cages = cages(puzzle);
    for (cells, target) in &cages {
        cage::encode_cage(cells, *target, puzzle.digits(), differ, spelling, out);
    }
    for (terms, target) in innies_and_outies(puzzle, &cages) {
        if terms.len() > 1 && terms.iter().all(|&(_, weight)| weight == 1) {
            let cells: Vec<Cell> = terms.iter().map(|&(cell, _)| cell).collect();
            if differ.all_differ(&cells) {
                cage::encode_cage(&cells, target, puzzle.digits(), differ, spelling, out);
            }
        }
        sum::encode_sum(&terms, target, sums, puzzle.digits(), spelling, out);
    }
}

/// The sums `puzzle`'s own imply: across its houses (`crossing.rs`), each
/// encoded as a sum of the puzzle's is with `sums`, but for `auto` one with
/// a group of more than `n/2` cells as partial sums; then its sums added
/// together (`combined.rs`), each encoded as the puzzle's sums are.
pub(super) fn encode_implied_sums(
    puzzle: &Puzzle,
    differ: &Differ,
    sums: SumEncoding,
    lines: LineEncoding,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let mut encoded: Vec<Vec<Cell>> = Vec::new();
    let across = crossing::crossing_sums(puzzle, differ).into_iter().map(|c| (c.cells, c.target, c.wide));
    let combined = combined::combined_sums(puzzle, differ).into_iter().map(|(cells, target)| (cells, target, false));
    for (cells, target, wide) in across.chain(combined) {
        // A target past i32 (never from targets the puzzle can reach) is
        // left out, and so is a sum already encoded.
        let Ok(target) = i32::try_from(target) else { continue };
        if encoded.contains(&cells) {
            continue;
        }
        let terms: Vec<(Cell, i32)> = cells.iter().map(|&c| (c, 1)).collect();
        encoded.push(cells);
        // A wide group makes a large automaton of sets that says little the
        // partial sums do not: under `auto`, such a sum keeps the chain
        // (bench/results/design-notes.md).
        let sums = if sums == SumEncoding::Auto && wide { SumEncoding::PartialSums } else { sums };
        let sum = Constraint::Sum { terms, target };
        encode_constraint(&sum, differ, sums, lines, puzzle.digits(), spelling, out);
    }
}

/// The most regions each count-distinct over a chaos construction's
/// labels can meet (`connected.rs`), as clauses on its control.
pub(super) fn encode_chaos_count_bounds(puzzle: &Puzzle, spelling: &mut Spelling, out: &mut dyn ClauseSink) {
    connected::encode_chaos_count_bounds(puzzle, spelling, out);
}

/// The sums `puzzle` implies across its houses (see `crossing.rs`), each as
/// its sorted cells and target: what the encoder adds to its own sums.
pub fn crossing_sums(puzzle: &Puzzle) -> Vec<(Vec<Cell>, i64)> {
    crossing::crossing_sums(puzzle, &Differ::new(puzzle)).into_iter().map(|c| (c.cells, c.target)).collect()
}

/// The sums `puzzle`'s own make added together (see `combined.rs`), each
/// as its sorted cells and target: what the encoder adds after the sums
/// across houses.
pub fn combined_sums(puzzle: &Puzzle) -> Vec<(Vec<Cell>, i64)> {
    combined::combined_sums(puzzle, &Differ::new(puzzle))
}

/// The killer cages of `puzzle`: each sum of weight-1 terms whose cells
/// are also a group, its cells sorted, with its target.
fn cages(puzzle: &Puzzle) -> Vec<(Vec<Cell>, i64)> {
    let groups: HashSet<Vec<Cell>> = puzzle
        .groups()
        .iter()
        .map(|g| {
            let mut cells = g.cells.clone();
            cells.sort_unstable();
            cells
        })
        .collect();
    let mut found = Vec::new();
    for constraint in puzzle.constraints() {
        let Constraint::Sum { terms, target } = constraint else { continue };
        if terms.iter().any(|&(_, w)| w != 1) {
            continue;
        }
        let mut cells: Vec<Cell> = terms.iter().map(|&(c, _)| c).collect();
        cells.sort_unstable();
        if groups.contains(&cells) {
            found.push((cells, i64::from(*target)));
        }
    }
    found
}

/// The "45 rule" of killer solvers (ISS's optimizer adds the same sums):
/// a full house (a group of as many cells as digits: each digit once) sums
/// to `n(n+1)/2`, so with disjoint killer cages (unit sums over an
/// all-different group; little killers measured slower) that meet it, the cells of the house outside them (innies) minus the cells of
/// the sums outside the house (outies) sum to that total minus the sums'
/// targets. Implied by the puzzle, so no count changes; given to the
/// solver, unit propagation sees what otherwise takes search. One sum per
/// house, from the cages inside it first, then those with the fewest cells
/// outside (at most two); kept when it has at most `n/2 + 1` terms (longer
/// ones measured slower: bench/results/iss-*.md) and is not one of the
/// puzzle's own sums. Then the sums across runs of houses
/// ([`across_houses`], along each of [`sweeps`]).
fn innies_and_outies(puzzle: &Puzzle, cages: &[(Vec<Cell>, i64)]) -> Vec<(Vec<(Cell, i32)>, i64)> {
    let n = puzzle.digits();
    if cages.is_empty() || puzzle.side() != n {
        return Vec::new();
    }
    let mut found: Vec<(Vec<(Cell, i32)>, i64)> = Vec::new();
    let total = (n * (n + 1) / 2) as i64;
    for group in puzzle.groups().iter().filter(|g| g.cells.len() == n) {
        let house = &group.cells;
        let mut meeting: Vec<&(Vec<Cell>, i64)> =
            cages.iter().filter(|(cells, _)| cells.iter().any(|c| house.contains(c))).collect();
        meeting.sort_by_key(|(cells, _)| (cells.iter().filter(|c| !house.contains(c)).count(), cells.len()));
        let mut used: Vec<Cell> = Vec::new();
        let mut target = total;
        for (cells, sum) in meeting {
            let outside = cells.iter().filter(|c| !house.contains(c)).count();
            if outside > 2 || cells.iter().any(|c| used.contains(c)) {
                continue;
            }
            used.extend(cells);
            target -= sum;
        }
        if used.is_empty() {
            continue;
        }
        let mut terms: Vec<(Cell, i32)> = house.iter().filter(|c| !used.contains(c)).map(|&c| (c, 1)).collect();
        terms.extend(used.iter().filter(|c| !house.contains(c)).map(|&c| (c, -1)));
        keep(&mut found, cages, terms, target, n / 2 + 1);
    }
    // Disjoint cages only, the first of any that overlap.
    let mut taken: Vec<Cell> = Vec::new();
    let mut disjoint: Vec<&(Vec<Cell>, i64)> = Vec::new();
    for cage in cages {
        if cage.0.iter().all(|c| !taken.contains(c)) {
            taken.extend(&cage.0);
            disjoint.push(cage);
        }
    }
    for sweep in sweeps(puzzle) {
        across_houses(&sweep, cages, &disjoint, total, &mut found);
    }
    found
}

/// Adds `Σ terms = target` to `found` unless it is empty, has more than
/// `most` terms, is already there or is one of the cages.
fn keep(
    found: &mut Vec<(Vec<(Cell, i32)>, i64)>,
    cages: &[(Vec<Cell>, i64)],
    terms: Vec<(Cell, i32)>,
    target: i64,
    most: usize,
) {
    let mut key: Vec<Cell> = terms.iter().map(|t| t.0).collect();
    key.sort_unstable();
    let known = terms.iter().all(|t| t.1 == 1) && cages.iter().any(|(cells, _)| *cells == key);
    // The same terms in another order (each cell is in a sum once).
    let twice = found.iter().any(|f| f.0.len() == terms.len() && f.0.iter().all(|t| terms.contains(t)));
    if !terms.is_empty() && terms.len() <= most && !known && !twice {
        found.push((terms, target));
    }
}

/// The orders in which ISS's optimizer grows a region house by house for
/// the 45 rule across houses: the rows top down and bottom up, the
/// columns left to right and right to left, the boxes in reading order;
/// each only where all of its lines or boxes are full houses.
fn sweeps(puzzle: &Puzzle) -> Vec<Vec<Vec<Cell>>> {
    let n = puzzle.digits();
    let of = |kind: GroupKind| -> Vec<Vec<Cell>> {
        let houses: Vec<Vec<Cell>> =
            puzzle.groups().iter().filter(|g| g.kind == kind).map(|g| g.cells.clone()).collect();
        if houses.len() == puzzle.side() && houses.iter().all(|h| h.len() == n) {
            houses
        } else {
            Vec::new()
        }
    };
    let mut sweeps = Vec::new();
    for kind in [GroupKind::Row, GroupKind::Column] {
        let mut houses = of(kind);
        houses.sort();
        if !houses.is_empty() {
            sweeps.push(houses.iter().rev().cloned().collect());
            sweeps.push(houses);
        }
    }
    let mut boxes = of(GroupKind::Box);
    boxes.sort();
    if !boxes.is_empty() {
        sweeps.push(boxes);
    }
    sweeps
}

/// The 45 rule across houses, as ISS's optimizer applies it
/// (`_makeInnieOutieSumHandlers`): the houses of `sweep` are added one by
/// one to a region, and a cage joins the region's pieces once more than
/// half of it is inside. From the second house to the one before last,
/// the region's cells outside the pieces minus the pieces' cells outside
/// the region sum to the houses' total minus the pieces' sums; kept when
/// it has at most `n` terms, at most two of them on one side. The pieces
/// are drawn from `disjoint` (cages that share no cell).
fn across_houses(
    sweep: &[Vec<Cell>],
    cages: &[(Vec<Cell>, i64)],
    disjoint: &[&(Vec<Cell>, i64)],
    total: i64,
    found: &mut Vec<(Vec<(Cell, i32)>, i64)>,
) {
    let n = sweep.len();
    let mut left = disjoint.to_vec();
    let mut region: Vec<Cell> = Vec::new();
    let (mut pieces, mut sums): (Vec<Cell>, i64) = (Vec::new(), 0);
    for (i, house) in sweep.iter().enumerate().take(n.saturating_sub(1)) {
        region.extend(house);
        left.retain(|(cells, sum)| {
            let inside = cells.iter().filter(|c| region.contains(c)).count();
            if inside * 2 > cells.len() {
                pieces.extend(cells);
                sums += sum;
                return false;
            }
            true
        });
        if i == 0 {
            continue;
        }
        let innies: Vec<Cell> = region.iter().filter(|c| !pieces.contains(c)).copied().collect();
        let outies: Vec<Cell> = pieces.iter().filter(|c| !region.contains(c)).copied().collect();
        if innies.len() > 2 && outies.len() > 2 {
            continue;
        }
        let mut terms: Vec<(Cell, i32)> = innies.iter().map(|&c| (c, 1)).collect();
        terms.extend(outies.iter().map(|&c| (c, -1)));
        keep(found, cages, terms, total * (i as i64 + 1) - sums, n);
    }
}

/// Emits the clauses of `constraint` on digits `1..=n`.
/// The most digits for which an x-sum's or sandwich's automaton reads the
/// set of digits summed: its states grow with the sets (512 for 9 digits),
/// exponentially past that.
const MOST_SET_DIGITS: usize = 10;

/// Whether `rule`'s automaton also reads that its cells hold different
/// digits, when they must (the rellik cage's and the lunchbox's own group,
/// a skyscraper's row): then [`grouped::Differ`] keeps the puzzle's
/// differences for it to see. The rellik cage and the lunchbox read the
/// set of digits used; the skyscrapers only what their rule needs of it
/// (`along::encode_along`).
fn reads_digits(rule: &LineRule) -> bool {
    matches!(
        rule,
        LineRule::Rellik { .. } | LineRule::Lunchbox { .. } | LineRule::Skyline(_) | LineRule::FirstHidden(_)
    )
}

/// Pairwise at most one of `lits`.
fn at_most_one(lits: &[Lit], out: &mut dyn ClauseSink) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            out.add_clause(&[!a, !b]);
        }
    }
}

/// The total of a set of digits, digit `d` as bit `d - 1`.
fn total(set: u64) -> i64 {
    (0..64).filter(|d| set >> d & 1 == 1).map(|d| d + 1).sum()
}

/// A new variable true exactly when one of `lits` is (defined both ways,
/// so the literals fix it; false when there are none).
fn any_of(lits: &[Lit], out: &mut dyn ClauseSink) -> Lit {
    let any = out.new_var().positive();
    let mut some = vec![!any];
    some.extend(lits);
    out.add_clause(&some);
    for &lit in lits {
        out.add_clause(&[!lit, any]);
    }
    any
}

/// [`any_of`], or the literal itself when `lits` is one literal.
fn one_or_any_of(lits: &[Lit], out: &mut dyn ClauseSink) -> Lit {
    match lits {
        [one] => *one,
        _ => any_of(lits, out),
    }
}

/// For each digit `1..=n`, [`any_of`] the cells holding it: "some of
/// `cells` holds the digit".
fn digits_used(cells: &[Cell], n: usize, spelling: &mut Spelling, out: &mut dyn ClauseSink) -> Vec<Lit> {
    (1..=n as Digit)
        .map(|d| {
            let holds: Vec<Lit> = cells.iter().map(|&cell| spelling.is(cell, d, out)).collect();
            any_of(&holds, out)
        })
        .collect()
}

/// Literals, the `k - 1`th true exactly when at least `k` of `cells` hold
/// `d` (`k` from 1 to the cells): a sequential counter, `s(j, k) <->
/// s(j-1, k) | (s(j-1, k-1) & x_j)` with both directions written, so unit
/// propagation fixes every one once the digits are set.
fn at_least_counts(cells: &[Cell], d: Digit, spelling: &mut Spelling, out: &mut dyn ClauseSink) -> Vec<Lit> {
    let lits: Vec<Lit> = cells.iter().map(|&cell| spelling.is(cell, d, out)).collect();
    at_least_of(&lits, lits.len(), out)
}

/// [`at_least_counts`] of any literals, counting up to `most`: the `k -
/// 1`th true exactly when at least `k` of `lits` are, for `k` up to
/// `most` and the number of literals.
fn at_least_of(lits: &[Lit], most: usize, out: &mut dyn ClauseSink) -> Vec<Lit> {
    let mut before: Vec<Lit> = Vec::new();
    for (j, &x) in lits.iter().enumerate() {
        let mut now = Vec::with_capacity(j + 1);
        for k in 1..=(j + 1).min(most) {
            let s = out.new_var().positive();
            // At least k before, or at least k - 1 before (always, for
            // k = 1) and this cell.
            let had = before.get(k - 1).copied();
            let one_less = if k == 1 { None } else { Some(before[k - 2]) };
            if let Some(h) = had {
                out.add_clause(&[!h, s]);
            }
            match one_less {
                None => out.add_clause(&[!x, s]),
                Some(l) => out.add_clause(&[!l, !x, s]),
            }
            out.add_clause(&[vec![!s, x], had.into_iter().collect()].concat());
            if let Some(l) = one_less {
                out.add_clause(&[vec![!s, l], had.into_iter().collect()].concat());
            }
            now.push(s);
        }
        before = now;
    }
    before
}

/// A sink that adds a literal to every clause: the clauses hold only
/// where `unless` is false (an alternative's, under its selector).
struct Guarded<'a> {
    out: &'a mut dyn ClauseSink,
    unless: Lit,
    /// The clause being guarded (reused: an alternative's automata make
    /// thousands).
    clause: Vec<Lit>,
}

impl ClauseSink for Guarded<'_> {
    fn add_clause(&mut self, lits: &[Lit]) {
        self.clause.clear();
        self.clause.extend_from_slice(lits);
        self.clause.push(self.unless);
        self.out.add_clause(&self.clause);
    }

    fn new_var(&mut self) -> varisat::Var {
        self.out.new_var()
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn encode_constraint(
    constraint: &Constraint,
    differ: &grouped::Differ,
    sums: SumEncoding,
    lines: LineEncoding,
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let digits = || 1..=n as Digit;
    match constraint {
        Constraint::Digits { cell, allowed } => {
            for d in digits().filter(|d| allowed >> (d - 1) & 1 == 0) {
                out.add_clause(&spelling.not(*cell, d));
            }
        }
        Constraint::Sum { terms, target } => {
            let target = i64::from(*target);
            let done = match sums {
                SumEncoding::Mdd => lines::encode_sum(terms, target, n, spelling, out),
                SumEncoding::Grouped => grouped::encode_grouped_sum(terms, target, n, differ, spelling, out),
                SumEncoding::Auto => {
                    // Long sums and arrows (a circle's cells weigh below 0).
                    let arrow = terms.iter().any(|&(_, w)| w < 0);
                    (terms.len() > n || arrow) && grouped::encode_grouped_sum(terms, target, n, differ, spelling, out)
                }
                SumEncoding::PartialSums | SumEncoding::Totalizer => false,
            };
            if !done {
                sum::encode_sum(terms, target, sums, n, spelling, out)
            }
        }
        Constraint::EqualSums { parts } => {
            // The parts whose cells may not share a digit (a region-sum
            // line's part in a box) read the set of digits too.
            let distinct: Vec<bool> =
                parts.iter().map(|part| n <= MOST_SET_DIGITS && part.len() > 1 && differ.all_differ(part)).collect();
            if lines == LineEncoding::Forward || !lines::encode_equal_sums(parts, &distinct, n, spelling, out) {
                sum::encode_equal_sums(parts, n, spelling, out)
            }
        }
        Constraint::XSum { cells, target } => match lines {
            LineEncoding::Automaton | LineEncoding::Cliques => {
                let distinct = n <= MOST_SET_DIGITS && differ.all_differ(cells);
                outside::encode_xsum(cells, i64::from(*target), distinct, n, spelling, out)
            }
            LineEncoding::Forward => sum::encode_xsum(cells, i64::from(*target), sums, n, spelling, out),
        },
        Constraint::Sandwich { cells, target, low, high } => {
            let target = i64::from(*target);
            match lines {
                LineEncoding::Automaton | LineEncoding::Cliques => {
                    let distinct = n <= MOST_SET_DIGITS && differ.all_differ(cells);
                    outside::encode_sandwich(cells, target, (*low, *high), distinct, n, spelling, out)
                }
                LineEncoding::Forward => sum::encode_sandwich(cells, target, (*low, *high), sums, n, spelling, out),
            }
        }
        Constraint::Visible { cells, target } => match lines {
            LineEncoding::Automaton | LineEncoding::Cliques => {
                let distinct = differ.all_differ(cells);
                visible::encode_visible(cells, *target, n, 0, distinct, spelling, out)
            }
            LineEncoding::Forward => visible::encode_visible_forward(cells, *target, n, spelling, out),
        },
        Constraint::Index { cell, line, value } => {
            for d in digits() {
                let clause = match line.get(usize::from(d) - 1) {
                    Some(&at) if at == *cell && d == *value => continue, // it holds d: true
                    Some(&at) if at == *cell => spelling.not(*cell, d),  // it would hold d and value
                    Some(&at) => [spelling.not(*cell, d), vec![spelling.is(at, *value, out)]].concat(),
                    None => spelling.not(*cell, d), // no such place on the line
                };
                out.add_clause(&clause);
            }
        }
        Constraint::Regular { cells, pattern } => match crate::model::regex::Regex::new(pattern, n) {
            Ok(re) => {
                let accept = |s: &Vec<usize>| re.accepts(s);
                automaton::encode_line(cells, n, re.start(), |s, d| re.step(s, d), accept, spelling, out);
            }
            // The readers refuse such a pattern; if one came through, no line matches it.
            Err(_) => out.add_clause(&[]),
        },
        Constraint::Table { a, b, allowed } => {
            // Support clauses both ways (Gent 2002): unit propagation is
            // arc consistent on the relation.
            let allows = |i: Digit, j: Digit| crate::model::table_allows(allowed, i, j);
            for (from, to, forward) in [(*a, *b, true), (*b, *a, false)] {
                for i in digits() {
                    let mut clause = spelling.not(from, i);
                    for j in digits().filter(|&j| if forward { allows(i, j) } else { allows(j, i) }) {
                        clause.push(spelling.is(to, j, out));
                    }
                    out.add_clause(&clause);
                }
            }
        }
        Constraint::Outside { ends: (a, b), inner } => {
            if lines.automata() && lines::encode_outside((*a, *b), inner, n, spelling, out) {
                return;
            }
            for (i, j) in itertools::iproduct!(digits(), digits()) {
                let ends = [spelling.not(*a, i), spelling.not(*b, j)].concat();
                for &m in inner {
                    for k in digits().filter(|&k| i.min(j) <= k && k <= i.max(j)) {
                        out.add_clause(&[ends.clone(), spelling.not(m, k)].concat());
                    }
                }
            }
        }
        Constraint::Consecutive { cells } => match lines {
            _ if cells.is_empty() => {}
            LineEncoding::Automaton | LineEncoding::Cliques => {
                lines::encode_consecutive(cells, n, differ, spelling, out)
            }
            LineEncoding::Forward => {
                lines::consecutive_windows(cells, n, spelling, out);
            }
        },
        Constraint::Between { ends: (a, b), inner } => {
            if lines.automata() && lines::encode_between((*a, *b), inner, n, spelling, out) {
                return;
            }
            for (i, j) in itertools::iproduct!(digits(), digits()) {
                let ends = [spelling.not(*a, i), spelling.not(*b, j)].concat();
                let (lo, hi) = (i.min(j), i.max(j));
                if hi - lo <= 1 {
                    if !inner.is_empty() {
                        out.add_clause(&ends); // no digit lies strictly between
                    }
                    continue;
                }
                for &m in inner {
                    for k in digits().filter(|&k| k <= lo || k >= hi) {
                        out.add_clause(&[ends.clone(), spelling.not(m, k)].concat());
                    }
                }
            }
        }
        Constraint::NotAllEqual { cells } => {
            for d in digits() {
                let clause: Vec<Lit> = cells.iter().flat_map(|&c| spelling.not(c, d)).collect();
                out.add_clause(&clause);
            }
        }
        Constraint::DistinctLines { a, b } => {
            // same(k) <-> OR_d both(k,d), both(k,d) <-> a_k = d ∧ b_k = d;
            // then some position is not the same. Every auxiliary variable
            // is defined both ways, so propagation fixes them all.
            let mut differ = Vec::with_capacity(a.len());
            for (&x, &y) in a.iter().zip(b) {
                let same = out.new_var().positive();
                let mut some_both = vec![!same];
                for d in digits() {
                    let (xd, yd) = (spelling.is(x, d, out), spelling.is(y, d, out));
                    let both = out.new_var().positive();
                    out.add_clause(&[!both, xd]);
                    out.add_clause(&[!both, yd]);
                    out.add_clause(&[!xd, !yd, both]);
                    out.add_clause(&[!both, same]);
                    some_both.push(both);
                }
                out.add_clause(&some_both);
                differ.push(!same);
            }
            out.add_clause(&differ);
        }
        Constraint::Lex { a, b, rename, equal: true } => {
            for (&x, &y) in a.iter().zip(b) {
                for v in digits() {
                    let u = rename[usize::from(v)];
                    let (xu, yv) = (spelling.is(x, u, out), spelling.is(y, v, out));
                    out.add_clause(&[!xu, yv]);
                    out.add_clause(&[!yv, xu]);
                }
            }
        }
        Constraint::Automorphic { cells, images } => {
            // rename(d, e): the renaming takes d to e; exactly one e for
            // each d, at most one d for each e, and every pair of a cell
            // and its image sets its own.
            let rename: Vec<Vec<Lit>> =
                digits().map(|_| digits().map(|_| out.new_var().positive()).collect()).collect();
            for (&cell, &image) in cells.iter().zip(images) {
                for (d, e) in itertools::iproduct!(digits(), digits()) {
                    let by = rename[usize::from(d) - 1][usize::from(e) - 1];
                    out.add_clause(&[spelling.not(image, d), spelling.not(cell, e), vec![by]].concat());
                    // and the renaming carries each digit across (for propagation).
                    let (cell_e, image_d) = (spelling.is(cell, e, out), spelling.is(image, d, out));
                    out.add_clause(&[vec![!by], spelling.not(image, d), vec![cell_e]].concat());
                    out.add_clause(&[vec![!by], spelling.not(cell, e), vec![image_d]].concat());
                }
            }
            for (k, to) in rename.iter().enumerate() {
                out.add_clause(to);
                for (i, j) in (0..n).tuple_combinations() {
                    out.add_clause(&[!to[i], !to[j]]);
                    out.add_clause(&[!rename[i][k], !rename[j][k]]);
                }
            }
        }
        Constraint::Lex { a, b, rename, equal: false } => {
            // `None`: the empty prefix, always equal.
            let mut prefix_equal: Option<Lit> = None;
            for (k, (&x, &y)) in a.iter().zip(b).enumerate() {
                let guard: Vec<Lit> = prefix_equal.map(|e| !e).into_iter().collect();
                for (u, v) in itertools::iproduct!(digits(), digits()).filter(|&(u, v)| u > rename[usize::from(v)]) {
                    out.add_clause(&[guard.clone(), spelling.not(x, u), spelling.not(y, v)].concat());
                }
                if k + 1 == a.len() {
                    break;
                }
                let next = out.new_var().positive();
                if let Some(e) = prefix_equal {
                    out.add_clause(&[!next, e]);
                }
                for v in digits() {
                    let u = rename[usize::from(v)];
                    let xu = spelling.is(x, u, out);
                    out.add_clause(&[vec![!next, xu], spelling.not(y, v)].concat());
                    out.add_clause(&[guard.clone(), spelling.not(x, u), spelling.not(y, v), vec![next]].concat());
                }
                prefix_equal = Some(next);
            }
        }
        Constraint::Along { rule, cells } => {
            // A rellik cage and a lunchbox read their different digits too
            // (ISS's "Extreme Lunchbox" 0.70 -> 0.09 s, 5,259 -> 1,326
            // decisions; an equality cage's automaton grew three times as
            // large for no fewer decisions on ISS's examples: 6.3 to 9.0
            // ms).
            // `--lines forward` keeps the encodings before: the rellik cage
            // and the lunchbox without their digits, the sum loop's forward
            // runs alone.
            let distinct = reads_digits(rule) && lines.automata() && n <= MOST_SET_DIGITS && differ.all_differ(cells);
            along::encode_along(*rule, cells, n, distinct, lines, spelling, out)
        }
        Constraint::Exactly { cells, counts } => {
            let wanted: Vec<(Digit, usize)> = counts.iter().map(|&(d, times)| (d, usize::from(times))).collect();
            let together = lines.automata()
                && along::encode_counts_together(cells, n, &wanted, true, lines::MOST_EDGES, spelling, out);
            for &(d, times) in counts.iter().filter(|_| !together) {
                let times = usize::from(times);
                along::encode_count(cells, d, times, |seen| seen == times, spelling, out);
            }
        }
        Constraint::ValueIndex { value, control, line } => {
            // The control's digit k picks line[k - 1], whose digit is the
            // value's: equal both ways, and no k past the line.
            // With `--lines automaton`, also `y(k, d)`, "the control holds
            // k, and line[k - 1] and the value hold d", defined both ways,
            // and the supports: a value digit d needs some y(k, d), a
            // control digit k some y(k, d): domain consistent on the rule
            // (the equalities alone, as `--lines forward` keeps them, left
            // 0.091 of the unsupported digits in `tests/it/propagation.rs`).
            let supports = lines.automata();
            let mut by_value: Vec<Vec<Lit>> = vec![Vec::new(); n + 1];
            for k in digits() {
                let Some(&at) = line.get(usize::from(k) - 1) else {
                    out.add_clause(&spelling.not(*control, k));
                    continue;
                };
                let mut by_control = spelling.not(*control, k);
                for d in digits() {
                    let picked = spelling.not(*control, k);
                    let to = spelling.is(at, d, out);
                    out.add_clause(&[picked.clone(), spelling.not(*value, d), vec![to]].concat());
                    let back = spelling.is(*value, d, out);
                    out.add_clause(&[picked.clone(), spelling.not(at, d), vec![back]].concat());
                    if supports {
                        let y = out.new_var().positive();
                        let k_is = spelling.is(*control, k, out);
                        for holds in [k_is, to, back] {
                            out.add_clause(&[!y, holds]);
                        }
                        out.add_clause(&[picked, spelling.not(at, d), vec![y]].concat());
                        by_value[usize::from(d)].push(y);
                        by_control.push(y);
                    }
                }
                if supports {
                    out.add_clause(&by_control);
                }
            }
            for d in digits().filter(|_| supports) {
                let mut some = spelling.not(*value, d);
                some.extend(&by_value[usize::from(d)]);
                out.add_clause(&some);
            }
        }
        Constraint::ConnectedValues { side, digits, size } => {
            connected::encode_connected(*side, *digits, *size, n, differ, spelling, out)
        }
        Constraint::Chaos { side } => {
            // Labels by first cells where `encode` chose them (`VarMap::first_cell_labels`).
            let by_first_cells = spelling.vars.first_cell_labels;
            connected::encode_chaos(*side, by_first_cells, spelling, out)
        }
        Constraint::RegionRuns { control, arms, offset } => {
            connected::encode_region_runs(*control, arms, *offset, n, spelling, out)
        }
        Constraint::AntiTaxicab { side } => {
            // A binary clause per pair of cells d apart, for d a digit.
            let cells: Vec<Cell> = itertools::iproduct!(0..*side, 0..*side).map(|(r, c)| Cell::new(r, c)).collect();
            for (i, &a) in cells.iter().enumerate() {
                for &b in &cells[i + 1..] {
                    let d = a.row.abs_diff(b.row) + a.col.abs_diff(b.col);
                    if (1..=n).contains(&d) {
                        out.add_clause(&[spelling.not(a, d as Digit), spelling.not(b, d as Digit)].concat());
                    }
                }
            }
        }
        Constraint::Machine { token, segments, .. } => along::encode_machine(token, segments, n, spelling, out),
        Constraint::CountDistinct { control, cells, first } => {
            along::encode_count_distinct(*control, cells, *first, n, spelling, out)
        }
        Constraint::Rank { line, rank, alone, side, latin } => {
            // (Those of the whole grid are encoded together, `encode_ranks`.)
            rank::encode_rank(line, *rank, *alone, *side, *latin, n, &mut rank::Compare::new(n), spelling, out)
        }
        Constraint::DistinctReadings { side } => rank::encode_distinct_readings(*side, n, spelling, out),
        Constraint::Doppelganger { regions } => {
            // Per region: a 0 (digit 1) somewhere, and `miss(d)` defined
            // as "no cell holds d" (both ways, so the digits fix it); per
            // kind and digit at most one region missing it; at a 0, no
            // two of its regions missing the same digit.
            let mut of_cell: HashMap<Cell, Vec<Vec<Lit>>> = HashMap::default();
            for kind in regions {
                let mut by_digit: Vec<Vec<Lit>> = vec![Vec::new(); n + 1];
                for cells in kind {
                    let zero: Vec<Lit> = cells.iter().map(|&c| spelling.is(c, 1, out)).collect();
                    out.add_clause(&zero);
                    let mut missing = vec![Lit::from_dimacs(1); n + 1];
                    for d in digits().skip(1) {
                        let miss = out.new_var().positive();
                        let mut held = vec![miss];
                        for &c in cells {
                            let x = spelling.is(c, d, out);
                            out.add_clause(&[!miss, !x]);
                            held.push(x);
                        }
                        out.add_clause(&held);
                        missing[usize::from(d)] = miss;
                        by_digit[usize::from(d)].push(miss);
                    }
                    for &c in cells {
                        of_cell.entry(c).or_default().push(missing.clone());
                    }
                }
                for lits in by_digit.iter().skip(2) {
                    at_most_one(lits, out);
                }
            }
            for (cell, missing) in of_cell.iter().sorted_by_key(|(c, _)| **c) {
                for (a, b) in missing.iter().tuple_combinations() {
                    for d in digits().skip(1) {
                        let (x, y) = (a[usize::from(d)], b[usize::from(d)]);
                        out.add_clause(&[spelling.not(*cell, 1), vec![!x, !y]].concat());
                    }
                }
            }
        }
        Constraint::SameValues { sets } => {
            // For each digit, each set's count of it in unary (a sequential
            // counter, functional both ways), and the first set's counts
            // equivalent to every other's.
            for d in digits() {
                let first = at_least_counts(&sets[0], d, spelling, out);
                for set in &sets[1..] {
                    for (&a, &b) in first.iter().zip(&at_least_counts(set, d, spelling, out)) {
                        out.add_clause(&[!a, b]);
                        out.add_clause(&[a, !b]);
                    }
                }
            }
        }
        Constraint::AnyOf { alternatives } if tabled(constraint, n) => {
            either::encode_table(alternatives, &constraint.cells(), n, differ, spelling, out);
        }
        Constraint::AnyOf { alternatives } => {
            // A selector per alternative, one of them true, and each
            // alternative's clauses under its selector. A selector is no
            // function of the digits (a grid may satisfy two
            // alternatives), which no count sees: counts are of the cells'
            // digits only (the projection). The cells' spellings are made
            // first, outside the guard, as every other rule shares them.
            let selectors: Vec<Lit> = alternatives.iter().map(|_| out.new_var().positive()).collect();
            out.choose_one(&selectors);
            for (alternative, &selector) in alternatives.iter().zip(&selectors) {
                for (cell, d) in itertools::iproduct!(alternative.cells(), digits()) {
                    spelling.is(cell, d, out);
                }
                // And the order literals the readings' comparisons share.
                let compares =
                    |c: &Constraint| matches!(c, Constraint::Rank { .. } | Constraint::DistinctReadings { .. });
                if n >= 2 && alternative.constraints.iter().any(compares) {
                    for cell in alternative.cells() {
                        spelling.at_most(cell, 1, n, out);
                    }
                }
                let guarded = &mut Guarded { out: &mut *out, unless: !selector, clause: Vec::new() };
                for cells in &alternative.distinct {
                    for (&a, &b) in cells.iter().tuple_combinations() {
                        for d in digits() {
                            guarded.add_clause(&[spelling.not(a, d), spelling.not(b, d)].concat());
                        }
                    }
                }
                for r in &alternative.relations {
                    for (i, j) in itertools::iproduct!(digits(), digits()).filter(|&(i, j)| !r.predicate.allows(i, j)) {
                        guarded.add_clause(&[spelling.not(r.a, i), spelling.not(r.b, j)].concat());
                    }
                }
                for c in &alternative.constraints {
                    encode_constraint(c, differ, sums, lines, n, spelling, guarded);
                }
            }
        }
        Constraint::Counting { cells, first } => along::encode_counting(cells, n, *first, differ, lines, spelling, out),
        Constraint::Classes { cells, classes } => {
            // With `--lines cliques`, the window as one automaton too, state
            // the classes seen so far: domain consistent on the window (the
            // clauses below, one a class, are each alone, but miss a digit
            // whose class leaves two others to one cell). Not the default:
            // slower on ISS's examples (docs/encodings.md).
            if lines == LineEncoding::Cliques && (1..=64).contains(&classes.len()) {
                let seen = |d: Digit| {
                    let of = classes.iter().enumerate().filter(|(_, &class)| class >> (d - 1) & 1 == 1);
                    of.fold(0u64, |set, (i, _)| set | 1 << i)
                };
                let every = u64::MAX >> (64 - classes.len());
                let step = |&set: &u64, d: Digit| Some(set | seen(d));
                automaton::encode_line_within(
                    cells,
                    n,
                    0u64,
                    step,
                    |&set| set & every == every,
                    |_| (),
                    lines::MOST_EDGES,
                    spelling,
                    out,
                );
            }
            // One clause a class: some cell holds one of its digits.
            for &class in classes {
                let mut clause = Vec::new();
                for &cell in cells {
                    for d in digits().filter(|&d| class >> (d - 1) & 1 == 1) {
                        clause.push(spelling.is(cell, d, out));
                    }
                }
                out.add_clause(&clause);
            }
        }
        Constraint::Contains { cells, digits: wanted } => {
            let counts = wanted.iter().counts();
            let wanted: Vec<(Digit, usize)> = counts.iter().sorted().map(|(&&d, &c)| (d, c)).collect();
            let together = lines.automata()
                && along::encode_counts_together(cells, n, &wanted, false, lines::MOST_EDGES, spelling, out);
            for (&&d, &c) in counts.iter().sorted().filter(|_| !together) {
                let lits: Vec<Lit> = cells.iter().map(|&cell| spelling.is(cell, d, out)).collect();
                for subset in lits.iter().copied().combinations(cells.len() + 1 - c) {
                    out.add_clause(&subset);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cage in the first row of a 4x4 leaves the row's other cells the
    /// rest of 10; a cage across two boxes adds its outie to the box's sum.
    #[test]
    fn innies_and_outies_of_a_4x4() {
        let mut p = Puzzle::sudoku(2, 2).unwrap();
        let cage = vec![Cell::new(0, 0), Cell::new(0, 1)];
        p.add_cage(cage.clone()).unwrap();
        p.add_constraint(Constraint::Sum { terms: cage.iter().map(|&c| (c, 1)).collect(), target: 3 }).unwrap();
        let found = innies_and_outies(&p, &cages(&p));
        assert!(found.contains(&(vec![(Cell::new(0, 2), 1), (Cell::new(0, 3), 1)], 7)), "{found:?}");
        // The box r1-2 c1-2: r2c1 + r2c2 = 7 too. Column 1's (its three
        // other cells minus the outie r1c2) has 4 terms, past n/2 + 1.
        assert!(found.contains(&(vec![(Cell::new(1, 0), 1), (Cell::new(1, 1), 1)], 7)), "{found:?}");
        assert_eq!(found.len(), 2, "{found:?}");
        // A sum that is no cage (a little killer) is not used.
        let mut q = Puzzle::sudoku(2, 2).unwrap();
        q.add_constraint(Constraint::Sum { terms: cage.iter().map(|&c| (c, 1)).collect(), target: 3 }).unwrap();
        assert!(innies_and_outies(&q, &cages(&q)).is_empty());
    }

    /// Rows 1 and 2 of a 4x4 sum to 20; with the cages r1c1+r1c2 = 3,
    /// r1c3+r2c3 = 4 and r1c4+r2c4 = 6 inside them (a grid with rows
    /// 1234 and 3412 fits), r2c1 + r2c2 = 7. Rows 1 to 3 leave six cells,
    /// more than the side: not kept.
    #[test]
    fn the_45_rule_across_rows() {
        let at = Cell::new;
        let rows: Vec<Vec<Cell>> = (0..4).map(|r| (0..4).map(|c| at(r, c)).collect()).collect();
        let cages = vec![(vec![at(0, 0), at(0, 1)], 3), (vec![at(0, 2), at(1, 2)], 4), (vec![at(0, 3), at(1, 3)], 6)];
        let mut found = Vec::new();
        across_houses(&rows, &cages, &cages.iter().collect::<Vec<_>>(), 10, &mut found);
        assert_eq!(found, vec![(vec![(at(1, 0), 1), (at(1, 1), 1)], 7)]);
        // A cage mostly outside the region is no piece until it is in.
        let cages = vec![(vec![at(1, 0), at(2, 0), at(3, 0)], 6)];
        let mut found = Vec::new();
        across_houses(&rows, &cages, &cages.iter().collect::<Vec<_>>(), 10, &mut found);
        // Rows 1-2: eight cells, none caged past half; rows 1-3: the cage
        // is a piece, its r4c1 an outie, with nine innies: too many.
        assert!(found.is_empty(), "{found:?}");
    }
}
