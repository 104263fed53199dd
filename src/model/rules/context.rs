//! What rules need of each other while a puzzle is read, and the rules
//! that act only once every rule is read: the cells in killer cages,
//! markers and the negative constraints that spare them, nonconsecutive,
//! minimum and maximum cells.

use std::cmp::Ordering;

use super::{Args, RuleError};
use crate::model::{Alternative, Cell, Constraint, GroupKind, Predicate, Puzzle};

/// What rules need of each other while a puzzle is read: the cells in
/// killer cages (cages may not overlap), the markers placed (which the
/// negative constraints and nonconsecutive spare), and the rules that act
/// only once every rule is read ([`Context::finish`]).
#[derive(Debug, Default)]
pub struct Context {
    pub(super) caged: Vec<Cell>,
    markers: Vec<(Marker, Cell, Cell)>,
    pub(super) negatives: Vec<Negative>,
    pub(super) nonconsecutive: bool,
    pub(super) minimum: Vec<Cell>,
    pub(super) maximum: Vec<Cell>,
    /// Full rank clues (a reading and its rank), made once every rule is
    /// read, with the tie mode.
    pub(super) ranks: Vec<(Vec<Cell>, u32)>,
    pub(super) ties: Option<Ties>,
    /// Whether an alternative ([`alternative`]) placed markers: the
    /// negative constraints, which spare marked pairs, are then refused.
    conditional_markers: bool,
}

/// When full rank's readings may tie (ISS's `FullRankTies`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// No two readings are equal (`none`), clued or not.
    None,
    /// A clued reading ties with none; others may (`only-unclued`, ISS's
    /// default).
    OnlyUnclued,
    /// Any readings may tie, sharing a rank (`any`).
    Any,
}

impl Ties {
    /// ISS's names, in its order.
    pub const NAMES: [&'static str; 3] = ["none", "only-unclued", "any"];

    /// The mode ISS names `name`.
    pub fn named(name: &str) -> Option<Ties> {
        [Ties::None, Ties::OnlyUnclued, Ties::Any].into_iter().zip(Ties::NAMES).find(|(_, n)| *n == name).map(|t| t.0)
    }
}

/// A marker between two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Marker {
    /// Kropki white dot: the difference.
    White(u32),
    /// Kropki black dot: the ratio.
    Black(u32),
    /// A sum: X (10), V (5) or a sum dot.
    Sum(u32),
}

impl Marker {
    fn kropki(self) -> bool {
        matches!(self, Marker::White(_) | Marker::Black(_))
    }
}

/// A negative constraint: what no unmarked pair of neighbours may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Negative {
    /// Differ by a white dot's value (any that appears).
    Difference,
    /// Have a black dot's ratio (any that appears; 2 if none does).
    Ratio,
    /// Sum to 10.
    X,
    /// Sum to 5.
    V,
    /// Sum to a sum dot's value (any that appears).
    Sum,
}

impl Context {
    /// A context for a new puzzle.
    pub fn new() -> Context {
        Context::default()
    }

    /// Adds what acts only once every rule is read: minimum and maximum
    /// cells (compared with the neighbours not shaded the same way),
    /// nonconsecutive and the negative constraints (on the pairs of
    /// orthogonal neighbours without a marker of their family).
    pub fn finish(self, p: &mut Puzzle) -> Result<(), RuleError> {
        if self.conditional_markers && (self.nonconsecutive || !self.negatives.is_empty()) {
            return Err(RuleError::from(
                "a negative constraint (or nonconsecutive) with markers inside an alternative: whether an unmarked \
                 pair is spared would depend on the alternative (ISS refuses it too)",
            ));
        }
        let ties = self.ties.unwrap_or(Ties::OnlyUnclued);
        let side = p.side();
        // Where every row and column holds each digit once, exactly four
        // readings start with each digit (the encoding uses it).
        let kinds = |kind| p.groups().iter().filter(|g| g.kind == kind && g.cells.len() == side).count();
        let latin = p.digits() == side && kinds(GroupKind::Row) == side && kinds(GroupKind::Column) == side;
        for (line, rank) in &self.ranks {
            let alone = ties != Ties::Any;
            p.add_constraint(Constraint::Rank { line: line.clone(), rank: *rank, alone, side, latin })?;
        }
        if ties == Ties::None {
            p.add_constraint(Constraint::DistinctReadings { side })?;
        }
        let pairs = orthogonal_pairs(p.side());
        for (a, b) in &pairs {
            for (low, high) in [(*a, *b), (*b, *a)] {
                let min = self.minimum.contains(&low) && !self.minimum.contains(&high);
                let max = self.maximum.contains(&high) && !self.maximum.contains(&low);
                if min || max {
                    p.add_relation(low, high, Predicate::Less).map_err(RuleError::from)?;
                }
            }
        }
        let values = |wanted: fn(Marker) -> Option<u32>| {
            let mut found: Vec<u32> = self.markers.iter().filter_map(|m| wanted(m.0)).collect();
            found.sort_unstable();
            found.dedup();
            found
        };
        let white = values(|m| if let Marker::White(d) = m { Some(d) } else { None });
        let mut black = values(|m| if let Marker::Black(r) = m { Some(r) } else { None });
        if black.is_empty() {
            black.push(2);
        }
        let sums = values(|m| if let Marker::Sum(s) = m { Some(s) } else { None });
        // Two cells' values sum to `s` when their digits sum to `s` and twice
        // the shift; a ratio of values is no ratio of digits: a table of
        // the pairs of digits whose values are in no banned ratio.
        let shift = p.digit_shift() as u32;
        let pair_sum = |target: u32| Predicate::SumNot { target: target + 2 * shift };
        let mut banned: Vec<(bool, Predicate)> = Vec::new(); // (spared by Kropki dots, else by sums)
        let mut value_ratios: Vec<u32> = Vec::new(); // spared by Kropki dots
        if self.nonconsecutive {
            banned.push((true, Predicate::DifferenceNot { diff: 1 }));
        }
        for negative in &self.negatives {
            match negative {
                Negative::Difference => {
                    banned.extend(white.iter().map(|&diff| (true, Predicate::DifferenceNot { diff })))
                }
                Negative::Ratio if shift != 0 => value_ratios.extend(&black),
                Negative::Ratio => banned.extend(black.iter().map(|&ratio| (true, Predicate::RatioNot { ratio }))),
                Negative::X => banned.push((false, pair_sum(10))),
                Negative::V => banned.push((false, pair_sum(5))),
                Negative::Sum => banned.extend(sums.iter().map(|&target| (false, pair_sum(target)))),
            }
        }
        banned.dedup();
        let n = p.digits() as u32;
        let value = |d: u32| d - shift;
        let in_ratio = |x: u32, y: u32| value_ratios.iter().any(|&r| x == r * y || y == r * x);
        // Row `i` (digit i + 1 in the first cell): the second cell's digits
        // whose values are in no banned ratio with its value.
        let ratio_table: Vec<u64> = (1..=n)
            .map(|i| (1..=n).filter(|&j| !in_ratio(value(i), value(j))).fold(0, |row, j| row | 1 << (j - 1)))
            .collect();
        for (a, b) in pairs {
            let marked = |kropki: bool| {
                self.markers.iter().any(|&(m, x, y)| m.kropki() == kropki && ((x, y) == (a, b) || (x, y) == (b, a)))
            };
            for &(kropki, predicate) in &banned {
                if !marked(kropki) {
                    p.add_relation(a, b, predicate).map_err(RuleError::from)?;
                }
            }
            if !value_ratios.is_empty() && !marked(true) {
                p.add_constraint(Constraint::Table { a, b, allowed: ratio_table.clone() })?;
            }
        }
        Ok(())
    }
}

/// One alternative of a [`Constraint::AnyOf`] (the native `either`
/// block's, ISS's `Or`'s): `branch` is a copy of `base`, a
/// [`Puzzle::branch`], to which the alternative's rules were added, with
/// their own context `own`; what they added is the alternative (a given becomes a
/// [`Constraint::Digits`], a group a set of distinct cells). Rules that
/// act on the whole grid once every rule is read (negative constraints,
/// nonconsecutive, minimum and maximum cells, full rank) are refused
/// inside; markers placed are noted in `root`, for [`Context::finish`].
/// `None`: a rule of the alternative holds on no grid
/// ([`Puzzle::impossible_branch`]), so the alternative never holds.
pub fn alternative(
    base: &Puzzle,
    branch: &Puzzle,
    own: &Context,
    root: &mut Context,
) -> Result<Option<Alternative>, RuleError> {
    let global = [
        (!own.negatives.is_empty(), "negative constraints"),
        (own.nonconsecutive, "nonconsecutive"),
        (!own.minimum.is_empty() || !own.maximum.is_empty(), "minimum and maximum cells"),
        (!own.ranks.is_empty() || own.ties.is_some(), "full rank"),
    ];
    if let Some((_, what)) = global.iter().find(|g| g.0) {
        return Err(RuleError::from(format!(
            "{what} inside an alternative: not read (the rule acts on the whole grid once every rule is read)"
        )));
    }
    root.conditional_markers |= own.conditional_markers || !own.markers.is_empty();
    if branch.impossible_branch() {
        return Ok(None);
    }
    let (groups, relations, constraints) = (base.groups().len(), base.relations().len(), base.constraints().len());
    let kept = branch.groups().get(..groups) == Some(base.groups())
        && branch.relations().get(..relations) == Some(base.relations())
        && branch.constraints().get(..constraints) == Some(base.constraints())
        && branch.first_value() == base.first_value();
    if !kept {
        return Err(RuleError::from("a rule inside an alternative changed the rest of the puzzle: not read"));
    }
    let mut found = Alternative::default();
    for group in &branch.groups()[groups..] {
        if !matches!(group.kind, GroupKind::Extra | GroupKind::Cage) {
            return Err(RuleError::from(format!("{} inside an alternative: not read", group.describe())));
        }
        found.distinct.push(group.cells.clone());
    }
    found.relations = branch.relations()[relations..].to_vec();
    for cell in branch.cells().filter(|&c| branch.given(c) != base.given(c)) {
        let Some(d) = branch.given(cell) else {
            return Err(RuleError::from("a rule inside an alternative cleared a given: not read"));
        };
        found.constraints.push(Constraint::Digits { cell, allowed: 1 << (d - 1) });
    }
    found.constraints.extend_from_slice(&branch.constraints()[constraints..]);
    Ok(Some(found))
}

/// A marker between two touching cells: its relation, and its place for
/// the negative constraints.
pub(super) fn marker(p: &mut Puzzle, ctx: &mut Context, a: &Args, marker: Marker) -> Result<(), RuleError> {
    let (x, y) = (a.cells[0], a.cells[1]);
    let shift = p.digit_shift() as u32;
    let predicate = match marker {
        Marker::White(diff) => Predicate::Difference { diff },
        Marker::Black(ratio) if shift != 0 => {
            // One value `ratio` times the other (0 and 0 too, as ISS's
            // function has it), as a table of the digits that stand for them.
            let n = p.digits() as u64;
            let r = u64::from(ratio);
            let allowed = (0..n).map(|u| (0..n).filter(|&v| u == r * v || v == r * u).fold(0, |m, v| m | 1 << v));
            p.add_constraint(Constraint::Table { a: x, b: y, allowed: allowed.collect() })?;
            ctx.markers.push((marker, x, y));
            return Ok(());
        }
        Marker::Black(ratio) => Predicate::Ratio { ratio },
        Marker::Sum(target) => Predicate::Sum { cmp: Ordering::Equal, target: target + 2 * shift },
    };
    p.add_relation(x, y, predicate).map_err(RuleError::from)?;
    ctx.markers.push((marker, x, y));
    Ok(())
}

/// How deep alternatives may nest (an `either` inside an `either` ...):
/// each level is a level of recursion in the readers, the encoder and the
/// checker, so a deeper nest is refused rather than run out of stack.
pub const MOST_NESTED: usize = 16;

/// Every pair of orthogonally adjacent cells, once.
pub fn orthogonal_pairs(n: usize) -> Vec<(Cell, Cell)> {
    pairs_at((n, n), &[(0, 1), (1, 0)])
}

/// Cells `(dr, dc)` apart for each step on a grid of `(rows, cols)`, each
/// unordered pair once.
pub(super) fn pairs_at((rows, cols): (usize, usize), steps: &[(i64, i64)]) -> Vec<(Cell, Cell)> {
    let mut pairs = Vec::new();
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            for &(dr, dc) in steps {
                let (r2, c2) = (r + dr, c + dc);
                let later = (r2, c2) > (r, c);
                if later && (0..rows as i64).contains(&r2) && (0..cols as i64).contains(&c2) {
                    pairs.push((Cell::new(r as usize, c as usize), Cell::new(r2 as usize, c2 as usize)));
                }
            }
        }
    }
    pairs
}
