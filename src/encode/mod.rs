//! The encoder: a [`Puzzle`] becomes a CNF, with pluggable digit encodings,
//! clause sets, at-most-one encodings, relation encodings and the given-aware
//! reduction. An [`Encoding`] names one choice of each; its text form is the
//! one `--encoding` and `compare --encodings` read.
//!
//! With the direct (one-hot) digit encoding, variable `x(r,c,d)` is true when
//! cell `(r,c)` holds digit `d`. With 0-based row and column indices and digits
//! `1..=n` on an `n x n` grid its 0-based index is `n*n*r + n*c + (d-1)`; in
//! DIMACS (1-based `r`, `c`) that is `n*n*(r-1) + n*(c-1) + d`, which for 9x9
//! is `81*(r-1) + 9*(c-1) + d`. The order and log encodings give each cell
//! `n-1` and `ceil(log2 n)` variables instead ([`DigitEncoding`]), numbered
//! cell by cell in the same row-major order. These *primary* variables come
//! first; auxiliary variables that some encodings introduce follow them and
//! never change a count.

pub mod amo;
mod constraint;
mod decode;
mod integer;
mod reduce;
pub mod relation;
mod vars;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use varisat::{CnfFormula, ExtendFormula, Lit, Var};

use crate::model::{Digit, Puzzle};
use crate::named::Named;
pub use constraint::{
    combined_sums, crossing_sums, has_selectors, tabled, LineEncoding, SumEncoding, MOST_TABLE_TUPLES,
};
pub use vars::{DecodeError, DigitEncoding, Slot, VarMap};

/// Anything that accepts clauses and hands out fresh variables: varisat's
/// `CnfFormula` and `Solver` both do, so one encoder feeds export and solving.
pub trait ClauseSink {
    /// Adds a clause.
    fn add_clause(&mut self, lits: &[Lit]);
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    /// Adds the clause that one of a [`crate::model::Constraint::AnyOf`]'s
    /// selectors holds; the encoder's own sink also keeps it, for
    /// [`Encoded::choices`] (a guarded sink adds it as any clause, so an
    /// alternative's own alternatives are not kept).
    fn choose_one(&mut self, selectors: &[Lit]) {
        self.add_clause(selectors);
    }
    /// Adds the clause that one of `lits` holds, where the other clauses
    /// make exactly one of them hold in every model (a killer cage's
    /// combination selectors); the encoder's own sink also keeps it, for
    /// [`Encoded::exactly_one`] (a guarded sink adds it as any clause).
    fn one_in_every_model(&mut self, lits: &[Lit]) {
        self.add_clause(lits);
    }
}

impl<F: ExtendFormula> ClauseSink for F {
    fn add_clause(&mut self, lits: &[Lit]) {
        ExtendFormula::add_clause(self, lits)
    }

    fn new_var(&mut self) -> Var {
        ExtendFormula::new_var(self)
    }
}

crate::named_enum! {
    /// Which of the one-hot constraints are emitted (Lynce & Ouaknine 2006).
    pub enum ClauseSet = Extended {
        /// Cell at-least-one and group at-most-one (and a cell's at-most-one where no group of as many cells as values holds it).
        Minimal = "minimal",
        /// Minimal plus cell at-most-one.
        Efficient = "efficient",
        /// Every at-least-one and at-most-one, for cells and for groups.
        Extended = "extended",
    }
}

/// A complete choice of encodings. The clause set, at-most-one and relation
/// encodings apply to direct digits only; order and log digits have their own
/// all-different and relation clauses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Encoding {
    /// How a cell's digit is spelled.
    pub digits: DigitEncoding,
    /// Which one-hot constraints are emitted (direct digits).
    pub clause_set: ClauseSet,
    /// The at-most-one encoding (direct digits).
    pub amo: amo::AmoEncoding,
    /// How binary relations become clauses (direct digits).
    pub relation: relation::RelationEncoding,
    /// How sums over several cells become clauses (any digit encoding).
    pub sum: SumEncoding,
    /// How rules over a line with an automaton become clauses.
    pub lines: LineEncoding,
    /// Apply the given-aware reduction (Kwon & Jain 2006).
    pub reduce: bool,
    /// Number the labels of a chaos construction whose rules are all on
    /// its regions by their regions' first cells (see
    /// `constraint::connected::first_cell_labels`); decoding renumbers
    /// them by their 1s. Only for runs that give no label's value as a
    /// literal (`count` and `unique`): a label given or assumed means the
    /// label numbered by its region's 1.
    pub chaos_first_cells: bool,
}

impl Encoding {
    /// The default and every variation of one option from it, then order and
    /// log digits: what `compare --encodings all` runs.
    pub fn variations() -> Vec<Encoding> {
        let base = Encoding::default();
        let mut all = vec![base];
        all.extend([ClauseSet::Minimal, ClauseSet::Efficient].map(|clause_set| Encoding { clause_set, ..base }));
        all.extend(amo::AmoEncoding::VARIANTS.iter().copied().skip(1).map(|amo| Encoding { amo, ..base }));
        all.extend(
            relation::RelationEncoding::VARIANTS.iter().copied().skip(1).map(|relation| Encoding { relation, ..base }),
        );
        all.extend(SumEncoding::VARIANTS.iter().skip(1).map(|&sum| Encoding { sum, ..base }));
        all.extend(LineEncoding::VARIANTS.iter().skip(1).map(|&lines| Encoding { lines, ..base }));
        all.push(Encoding { reduce: true, ..base });
        all.extend([DigitEncoding::Order, DigitEncoding::Log].map(|digits| Encoding { digits, ..base }));
        all
    }
}

impl fmt::Display for Encoding {
    /// `direct/SET/AMO/RELATION`, or `order` or `log`; then the sum
    /// encoding unless it is the default, and `/reduced` when reduced.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.digits)?;
        if self.digits == DigitEncoding::Direct {
            write!(f, "/{}/{}/{}", self.clause_set, self.amo, self.relation)?;
        }
        if self.sum != SumEncoding::default() {
            write!(f, "/{}", self.sum)?;
        }
        if self.lines != LineEncoding::default() {
            write!(f, "/{}", self.lines)?;
        }
        if self.reduce {
            f.write_str("/reduced")?;
        }
        Ok(())
    }
}

impl FromStr for Encoding {
    type Err = String;

    /// Option names joined by `/`, in any order, each at most once; the rest
    /// default: `minimal`, `ladder/support`, `order/reduced`,
    /// `direct/extended/pairwise/forbidden-pairs`.
    fn from_str(text: &str) -> Result<Encoding, String> {
        let mut encoding = Encoding::default();
        let mut seen = [false; 7];
        let mut set = |slot: usize, name: &str| {
            let again = std::mem::replace(&mut seen[slot], true);
            if again {
                Err(format!("{name:?} repeats an option already given in {text:?}"))
            } else {
                Ok(())
            }
        };
        for name in text.split('/') {
            if let Ok(digits) = DigitEncoding::from_name(name).ok_or(()) {
                set(0, name)?;
                encoding.digits = digits;
            } else if let Ok(clause_set) = ClauseSet::from_name(name).ok_or(()) {
                set(1, name)?;
                encoding.clause_set = clause_set;
            } else if let Ok(amo) = amo::AmoEncoding::from_name(name).ok_or(()) {
                set(2, name)?;
                encoding.amo = amo;
            } else if let Ok(relation) = relation::RelationEncoding::from_name(name).ok_or(()) {
                set(3, name)?;
                encoding.relation = relation;
            } else if let Some(sum) = SumEncoding::from_name(name) {
                set(5, name)?;
                encoding.sum = sum;
            } else if let Some(lines) = LineEncoding::from_name(name) {
                set(6, name)?;
                encoding.lines = lines;
            } else if name == "reduced" {
                set(4, name)?;
                encoding.reduce = true;
            } else {
                return Err(format!(
                    "expected an encoding option (a digit encoding, clause set, at-most-one, relation, \
                     sum or line encoding, or `reduced`), found {name:?}"
                ));
            }
        }
        if encoding.digits != DigitEncoding::Direct && seen[1..4].contains(&true) {
            return Err(format!(
                "{text:?}: clause sets, at-most-one and relation encodings apply to direct digits only"
            ));
        }
        Ok(encoding)
    }
}

crate::named_enum! {
    /// What a clause was emitted for.
    pub enum ClauseKind {
        /// A cell holds at least one digit.
        CellAtLeastOne = "cell-alo",
        /// A cell holds at most one digit.
        CellAtMostOne = "cell-amo",
        /// A full group holds each digit at least once.
        GroupAtLeastOne = "group-alo",
        /// A group holds each digit at most once.
        GroupAtMostOne = "group-amo",
        /// A relation between two cells.
        Relation = "relation",
        /// A given digit.
        Given = "given",
        /// Order or log digits: monotone order literals, no log code above `n`.
        Domain = "domain",
        /// Order or log digits: pairwise disequality within groups.
        AllDifferent = "all-different",
        /// A constraint on several cells or on a cell's digits (sums, renban, ...).
        Constraint = "constraint",
        /// What a killer cage's digit combinations imply, beyond its sum's and
        /// its group's clauses (implied by them; see `constraint/cage.rs`).
        Cage = "cage",
    }
}

/// Clauses emitted, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClauseCounts([usize; ClauseKind::VARIANTS.len()]);

impl FromIterator<ClauseKind> for ClauseCounts {
    fn from_iter<I: IntoIterator<Item = ClauseKind>>(kinds: I) -> ClauseCounts {
        let mut counts = ClauseCounts::default();
        for kind in kinds {
            counts.0[kind as usize] += 1;
        }
        counts
    }
}

impl ClauseCounts {
    /// Clauses of `kind`.
    pub fn get(&self, kind: ClauseKind) -> usize {
        self.0[kind as usize]
    }

    /// Clauses of every kind.
    pub fn total(&self) -> usize {
        self.0.iter().sum()
    }

    /// Each kind with its clauses.
    pub fn iter(&self) -> impl Iterator<Item = (ClauseKind, usize)> + '_ {
        ClauseKind::VARIANTS.iter().copied().map(|k| (k, self.get(k)))
    }
}

impl fmt::Display for ClauseCounts {
    /// The non-zero kinds, as `cell-alo 81, cell-amo 2916, ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kinds = self.iter().filter(|&(_, n)| n > 0).map(|(k, n)| format!("{k} {n}"));
        f.write_str(&itertools::join(kinds, ", "))
    }
}

/// The encoder's output: the formula, how to read it, and what was emitted.
#[derive(Debug)]
pub struct Encoded {
    /// The clauses; shared, so that an engine can keep them without
    /// borrowing the encoding (a prepared engine owns both).
    pub formula: Arc<CnfFormula>,
    /// How to read the variables.
    pub vars: VarMap,
    /// Clauses emitted, by kind.
    pub clause_counts: ClauseCounts,
    /// The encoding used.
    pub encoding: Encoding,
    /// The selectors of each [`crate::model::Constraint::AnyOf`] of the
    /// puzzle that has them ([`has_selectors`]; the others are tables), in
    /// the order of [`Puzzle::constraints`]: at least one of
    /// each list is true in every model, and each alternative's clauses
    /// hold under its selector (empty when the encoding is reduced, which
    /// numbers the auxiliary variables anew).
    pub choices: Vec<Vec<Lit>>,
    /// Sets of auxiliary literals of which exactly one holds in every
    /// model, the rest of the clauses making sure (a killer cage's
    /// combination selectors): sets the enum engine may branch on (empty
    /// when the encoding is reduced).
    pub exactly_one: Vec<Vec<Lit>>,
}

impl Encoded {
    /// Variables that are not primary.
    pub fn aux_count(&self) -> usize {
        self.formula.var_count() - self.vars.primary_count()
    }

    /// Literals in all clauses.
    pub fn literal_count(&self) -> usize {
        self.formula.iter().map(<[Lit]>::len).sum()
    }

    /// The encoding and its size, as `--stats` prints it (one item a line),
    /// and a chaos construction's labels when the formula numbers them by
    /// their regions' first cells.
    pub fn summary(&self) -> String {
        let labels = if self.vars.first_cell_labels {
            "\nchaos labels: by their regions' first cells (printed by their 1s)"
        } else {
            ""
        };
        format!(
            "encoding: {}{labels}\nvariables: {} ({} primary, {} auxiliary)\nclauses: {} ({})\nliterals: {}",
            self.encoding,
            self.formula.var_count(),
            self.vars.primary_count(),
            self.aux_count(),
            self.formula.len(),
            self.clause_counts,
            self.literal_count(),
        )
    }
}

/// Wraps the formula under construction and records each clause's kind.
struct Recorder {
    formula: CnfFormula,
    /// The kind of each clause, in order.
    kinds: Vec<ClauseKind>,
    kind: ClauseKind,
    /// The selectors of each top-level alternative, in order.
    choices: Vec<Vec<Lit>>,
    /// See [`Encoded::exactly_one`].
    exactly_one: Vec<Vec<Lit>>,
}

impl ClauseSink for Recorder {
    fn add_clause(&mut self, lits: &[Lit]) {
        self.kinds.push(self.kind);
        ExtendFormula::add_clause(&mut self.formula, lits);
    }

    fn new_var(&mut self) -> Var {
        ExtendFormula::new_var(&mut self.formula)
    }

    fn choose_one(&mut self, selectors: &[Lit]) {
        self.choices.push(selectors.to_vec());
        self.add_clause(selectors);
    }

    fn one_in_every_model(&mut self, lits: &[Lit]) {
        self.exactly_one.push(lits.to_vec());
        self.add_clause(lits);
    }
}

/// Encodes `puzzle` with the chosen `encoding`.
pub fn encode(puzzle: &Puzzle, encoding: &Encoding) -> Encoded {
    let mut vars = VarMap::new(puzzle.side(), puzzle.digits(), encoding.digits);
    vars.first_cell_labels = encoding.chaos_first_cells && constraint::first_cell_labels(puzzle);
    let mut formula = CnfFormula::new();
    formula.set_var_count(vars.primary_count());
    let mut out =
        Recorder { formula, kinds: Vec::new(), kind: ClauseKind::Given, choices: Vec::new(), exactly_one: Vec::new() };
    match encoding.digits {
        DigitEncoding::Direct => encode_direct(puzzle, encoding, &vars, &mut out),
        DigitEncoding::Order | DigitEncoding::Log => integer::encode(puzzle, &vars, &mut out),
    }
    out.kind = ClauseKind::Constraint;
    let mut spelling = constraint::Spelling::new(&vars);
    let differ = constraint::Differ::new(puzzle);
    for c in puzzle.constraints().iter().filter(|c| !matches!(c, crate::model::Constraint::Rank { .. })) {
        let (sum, lines, n) = (encoding.sum, encoding.lines, puzzle.digits());
        constraint::encode_constraint(c, &differ, sum, lines, n, &mut spelling, &mut out);
    }
    constraint::encode_implied_sums(puzzle, &differ, encoding.sum, encoding.lines, &mut spelling, &mut out);
    constraint::encode_chaos_count_bounds(puzzle, &mut spelling, &mut out);
    constraint::encode_ranks(puzzle, &mut spelling, &mut out);
    constraint::encode_cliques(puzzle, encoding.lines, &mut spelling, &mut out);
    out.kind = ClauseKind::Cage;
    constraint::encode_cages(puzzle, &differ, encoding.sum, &mut spelling, &mut out);
    out.kind = ClauseKind::Given;
    for cell in puzzle.cells() {
        if let Some(d) = puzzle.given(cell) {
            for lit in vars.digit_lits(cell, d) {
                out.add_clause(&[lit]);
            }
        }
    }
    if encoding.reduce {
        let (formula, kinds, vars) = reduce::reduce(puzzle, &out.formula, &out.kinds, &vars);
        let clause_counts = kinds.into_iter().collect();
        // Reduced, the auxiliary variables are numbered anew: no choices.
        let encoding = *encoding;
        let (choices, exactly_one) = (Vec::new(), Vec::new());
        return Encoded { formula: Arc::new(formula), vars, clause_counts, encoding, choices, exactly_one };
    }
    let clause_counts = out.kinds.into_iter().collect();
    let (choices, exactly_one) = (out.choices, out.exactly_one);
    Encoded { formula: Arc::new(out.formula), vars, clause_counts, encoding: *encoding, choices, exactly_one }
}

/// About how many bytes encoding `puzzle` with `encoding` and searching
/// it take: the formula, the engine's copy of it and the search's own
/// tables. An upper estimate from the sizes alone (cells, groups,
/// relations, constraints), computed without building anything, so that a
/// puzzle too large for the memory limit is refused before it is built
/// (see [`check_fits`]).
pub fn estimate(puzzle: &Puzzle, encoding: &Encoding) -> usize {
    let digits = puzzle.digits();
    let cells = puzzle.cells().count();
    // Each term: (auxiliary variables, clauses, literals).
    let amo = |n: usize| {
        let (aux, clauses) = encoding.amo.size(n);
        (aux, clauses, clauses.saturating_mul(3))
    };
    // Each cell: its variables, at least one digit, at most one.
    let (aux, clauses, lits) = amo(digits);
    let mut terms = vec![(cells * digits, cells, cells * digits), (aux * cells, clauses * cells, lits * cells)];
    for group in puzzle.groups() {
        let (aux, clauses, lits) = amo(group.cells.len());
        terms.push((aux * digits, (clauses + 1) * digits, (lits + group.cells.len()) * digits));
    }
    let pairs = digits * digits;
    terms.push((0, puzzle.relations().len() * pairs, puzzle.relations().len() * pairs * 2));
    for constraint in puzzle.constraints() {
        terms.push(constraint_size(constraint, digits));
    }
    let (vars, clauses, lits) = terms.into_iter().fold((0usize, 0usize, 0usize), |(v, c, l), (tv, tc, tl)| {
        (v.saturating_add(tv), c.saturating_add(tc), l.saturating_add(tl))
    });
    // A clause costs its range in the formula and a header and watches in
    // the engine; a literal four bytes in each; a variable its slots in
    // the engine's tables (values, reasons, levels, watch lists, supports).
    let bytes =
        clauses.saturating_mul(48).saturating_add(lits.saturating_mul(12)).saturating_add(vars.saturating_mul(96));
    // With alternatives the enum engine keeps a second copy of the formula
    // (`count/choices.rs`: "at most one selector" added to its own copy).
    let any_of = puzzle.constraints().iter().any(|c| has_selectors(c, digits));
    let copy = if any_of { clauses.saturating_mul(16).saturating_add(lits.saturating_mul(4)) } else { 0 };
    bytes.saturating_add(copy)
}

/// An upper estimate of one constraint's (auxiliary variables, clauses,
/// literals) on `digits` digits, for [`estimate`].
fn constraint_size(constraint: &crate::model::Constraint, digits: usize) -> (usize, usize, usize) {
    use crate::model::Constraint as C;
    let n = constraint.cells().len();
    let linear = n.saturating_mul(digits);
    let pairs = digits * digits;
    match constraint {
        // Sums and counts go through a table of partial values per cell.
        C::Sum { .. } | C::XSum { .. } | C::Sandwich { .. } | C::EqualSums { .. } | C::Visible { .. } => {
            let table = linear.saturating_mul(linear + 1);
            (table, table.saturating_mul(2), table.saturating_mul(6))
        }
        // A renaming variable per pair of digits, three clauses per cell and pair.
        C::Automorphic { cells, .. } => {
            let per_pair = cells.len().saturating_mul(pairs);
            (pairs, per_pair.saturating_mul(3), per_pair.saturating_mul(9))
        }
        // Full rank: a chain of comparison per other reading (five
        // variables and about five clauses a digit per cell), each
        // cell's order literals, and the count of readings below.
        C::Rank { side, .. } | C::DistinctReadings { side } => {
            let readings = side.saturating_mul(4);
            let comparisons = match constraint {
                C::Rank { .. } => readings,
                _ => readings.saturating_mul(readings) / 2,
            };
            let steps = comparisons.saturating_mul(*side);
            let order = n.saturating_mul(digits);
            let vars = steps.saturating_mul(5).saturating_add(order).saturating_add(readings * readings);
            let clauses = steps.saturating_mul(5 * digits + 12).saturating_add(order.saturating_mul(digits));
            (vars, clauses, clauses.saturating_mul(3))
        }
        // A sequential counter per set and digit: the set's size squared.
        C::SameValues { sets } => {
            let len = sets.first().map_or(0, Vec::len);
            let vars = n.saturating_mul(digits).saturating_mul(len);
            (vars, vars.saturating_mul(4), vars.saturating_mul(11))
        }
        // Each alternative's rules, one literal longer each clause, and a
        // selector; its groups and relations as forbidden pairs.
        // A table: an edge variable and a few clauses per tuple and cell.
        C::AnyOf { .. } if tabled(constraint, digits) => {
            let edges = (MOST_TABLE_TUPLES as usize).saturating_mul(n);
            (edges, edges.saturating_mul(3), edges.saturating_mul(8))
        }
        C::AnyOf { alternatives } => {
            // The selectors, "one of them" and, in the enum engine, "at
            // most one" for each pair.
            let exclusions = alternatives.len().saturating_mul(alternatives.len()) / 2;
            let clauses = exclusions.saturating_add(1);
            let lits = exclusions.saturating_mul(2).saturating_add(alternatives.len());
            let mut total: (usize, usize, usize) = (alternatives.len(), clauses, lits);
            for a in alternatives {
                let pairs_of = |k: usize| k.saturating_mul(k) / 2;
                let forbidden = a.distinct.iter().map(|g| pairs_of(g.len()).saturating_mul(digits)).sum::<usize>();
                let related = a.relations.len().saturating_mul(pairs);
                let parts = a.constraints.iter().map(|c| constraint_size(c, digits));
                let clauses = forbidden.saturating_add(related);
                for (v, c, l) in parts.chain([(0, clauses, clauses.saturating_mul(3))]) {
                    total.0 = total.0.saturating_add(v);
                    total.1 = total.1.saturating_add(c);
                    total.2 = total.2.saturating_add(l).saturating_add(c);
                }
            }
            total
        }
        // The others a few clauses (and at most one variable) per cell and digit.
        _ => (linear, linear.saturating_mul(4), linear.saturating_mul(12)),
    }
}

/// Whether encoding `puzzle` fits in the memory left under the limit
/// (see [`crate::memory`]), by [`estimate`].
pub fn check_fits(puzzle: &Puzzle, encoding: &Encoding) -> Result<(), crate::memory::TooLarge> {
    crate::memory::check(
        || format!("encoding this {side}x{side} puzzle ({encoding})", side = puzzle.side()),
        estimate(puzzle, encoding),
    )
}

/// Cell and group constraints and relations over one-hot variables.
fn encode_direct(puzzle: &Puzzle, encoding: &Encoding, vars: &VarMap, out: &mut Recorder) {
    let amo = encoding.amo.encoder();
    let values = puzzle.digits();
    let digits = || (1..=values).map(|d| d as Digit);
    let with_group_alo = encoding.clause_set == ClauseSet::Extended;
    // Which cells get their at-most-one: all, but under `minimal` none a
    // group of as many cells as values holds, whose at-most-ones leave its
    // cells one digit each (as many digits as cells, each at most once, and
    // each cell at least one). A cell in no such group (more values than
    // the side, a group short of a line) keeps it, or a model may give it
    // two digits.
    let side = puzzle.side();
    let mut cell_amo = vec![true; side * side];
    if encoding.clause_set == ClauseSet::Minimal {
        for group in puzzle.groups().iter().filter(|g| g.cells.len() == values) {
            for cell in &group.cells {
                cell_amo[cell.row * side + cell.col] = false;
            }
        }
    }

    for cell in puzzle.cells() {
        let lits: Vec<Lit> = digits().map(|d| vars.lit(cell, d)).collect();
        out.kind = ClauseKind::CellAtLeastOne;
        out.add_clause(&lits);
        if cell_amo[cell.row * side + cell.col] {
            out.kind = ClauseKind::CellAtMostOne;
            amo.encode(&lits, out);
        }
    }
    for group in puzzle.groups() {
        for d in digits() {
            let lits: Vec<Lit> = group.cells.iter().map(|&cell| vars.lit(cell, d)).collect();
            if with_group_alo && lits.len() == values {
                out.kind = ClauseKind::GroupAtLeastOne;
                out.add_clause(&lits);
            }
            out.kind = ClauseKind::GroupAtMostOne;
            amo.encode(&lits, out);
        }
    }
    out.kind = ClauseKind::Relation;
    for relation in puzzle.relations() {
        relation::encode_relation(encoding.relation, relation, vars, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::named::Named;

    #[test]
    fn plain_9x9_sizes_match_lynce_ouaknine() {
        let puzzle = Puzzle::sudoku(3, 3).unwrap();
        let sizes = |clause_set| {
            let e = encode(&puzzle, &Encoding { clause_set, ..Encoding::default() });
            (e.formula.var_count(), e.formula.len())
        };
        assert_eq!(sizes(ClauseSet::Extended), (729, 11_988));
        assert_eq!(sizes(ClauseSet::Efficient), (729, 11_745));
        assert_eq!(sizes(ClauseSet::Minimal), (729, 8_829));
    }

    /// Sizes on an empty `n x n` Sudoku (3n groups of n cells), for an
    /// at-most-one encoding that takes `(a, c)` auxiliary variables and clauses
    /// on n literals: cell ALO n^2, cell AMO n^2 (a, c), group ALO 3n*n,
    /// group AMO 3n*n (a, c). `minimal` has cell ALO and group AMO; `efficient`
    /// adds cell AMO; `extended` adds group ALO.
    fn documented_size(n: usize, clause_set: ClauseSet, amo: amo::AmoEncoding) -> (usize, usize) {
        let (a, c) = amo.size(n);
        let (cells, groups) = (n * n, 3 * n * n);
        let (mut vars, mut clauses) = (n * n * n + groups * a, cells + groups * c);
        if clause_set != ClauseSet::Minimal {
            vars += cells * a;
            clauses += cells * c;
        }
        if clause_set == ClauseSet::Extended {
            clauses += groups;
        }
        (vars, clauses)
    }

    #[test]
    fn sizes_follow_the_formula_for_every_encoding_and_size() {
        for (h, w) in [(2, 2), (2, 3), (3, 3), (4, 4), (5, 5)] {
            let puzzle = Puzzle::sudoku(h, w).unwrap();
            for clause_set in [ClauseSet::Minimal, ClauseSet::Efficient, ClauseSet::Extended] {
                for &amo in amo::AmoEncoding::VARIANTS {
                    let e = encode(&puzzle, &Encoding { clause_set, amo, ..Encoding::default() });
                    let found = (e.formula.var_count(), e.formula.len());
                    assert_eq!(found, documented_size(h * w, clause_set, amo), "{h}x{w} {clause_set:?} {amo:?}");
                    assert_eq!(e.clause_counts.total(), e.formula.len());
                }
            }
        }
        // Pairwise figures, by the formula: 4x4, 16x16 and 25x25.
        let pairwise = |n, set| documented_size(n, set, amo::AmoEncoding::Pairwise).1;
        assert_eq!([4, 16, 25].map(|n| pairwise(n, ClauseSet::Extended)), [448, 123_904, 752_500]);
        assert_eq!([4, 16, 25].map(|n| pairwise(n, ClauseSet::Minimal)), [304, 92_416, 563_125]);
    }

    #[test]
    fn relations_forbid_exactly_the_failing_pairs() {
        use crate::model::{Cell, Predicate};
        let mut puzzle = Puzzle::sudoku(3, 3).unwrap();
        let less = Predicate::Sum { cmp: std::cmp::Ordering::Less, target: 10 };
        puzzle.add_relation(Cell::new(0, 0), Cell::new(0, 1), less).unwrap();
        let e = encode(&puzzle, &Encoding::default());
        // Pairs (i, j) in 1..=9 with i + j >= 10: 45 of the 81.
        assert_eq!(e.clause_counts.get(ClauseKind::Relation), 45);
    }

    /// Order and log digits on an empty `bh x bw` Sudoku, by the formulas of
    /// [`integer`]: `n^2 * k` variables; domain clauses `n^2 (n-2)` (order) or
    /// `n^2 (2^b - n)` (log); `n` disequality clauses for each of the
    /// `n^2 * peers / 2` pairs, where a cell has `2(n-1) + (bh-1)(bw-1)` peers.
    #[test]
    fn integer_sizes_follow_the_formula() {
        for (h, w) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)] {
            let n = h * w;
            let puzzle = Puzzle::sudoku(h, w).unwrap();
            let pairs = n * n * (2 * (n - 1) + (h - 1) * (w - 1)) / 2;
            let b = amo::bits_for(n);
            for (digits, k, domain) in
                [(DigitEncoding::Order, n - 1, n * n * (n - 2)), (DigitEncoding::Log, b, n * n * ((1 << b) - n))]
            {
                let e = encode(&puzzle, &Encoding { digits, ..Encoding::default() });
                assert_eq!(e.formula.var_count(), n * n * k, "{h}x{w} {digits:?}");
                assert_eq!(e.clause_counts.get(ClauseKind::Domain), domain, "{h}x{w} {digits:?}");
                assert_eq!(e.clause_counts.get(ClauseKind::AllDifferent), n * pairs, "{h}x{w} {digits:?}");
                assert_eq!(e.formula.len(), domain + n * pairs);
            }
        }
        // 9x9: 810 peer pairs, 7,290 disequalities; 567 order and 567 log domain clauses.
        let e =
            encode(&Puzzle::sudoku(3, 3).unwrap(), &Encoding { digits: DigitEncoding::Order, ..Encoding::default() });
        assert_eq!(e.formula.len(), 7_290 + 567);
    }

    #[test]
    fn encoding_names_round_trip_and_mistakes_are_explained() {
        for encoding in Encoding::variations() {
            assert_eq!(encoding.to_string().parse::<Encoding>(), Ok(encoding));
        }
        let parsed: Encoding = "support/reduced/ladder".parse().unwrap();
        assert_eq!(parsed.to_string(), "direct/extended/ladder/support/reduced");
        assert!("order/ladder".parse::<Encoding>().unwrap_err().contains("direct digits only"));
        assert!("minimal/efficient".parse::<Encoding>().unwrap_err().contains("repeats"));
        assert!("pairwize".parse::<Encoding>().unwrap_err().contains("\"pairwize\""));
    }
}
