//! Sums whose cells must partly hold different digits: a long arrow
//! through rows and boxes, a little killer's diagonal through boxes, a
//! killer cage. The cells of each weight are split into groups of cells
//! that pairwise may not share a digit (a row, a box, an anti-king pair),
//! as ISS's sum handler splits them into its exclusion groups. Each
//! group's sum comes from an automaton over its cells whose state is the
//! set of digits used so far (different digits: the set also gives the
//! sum), and the groups' sums and the other terms are added by an automaton
//! whose state is the sum so far (`automaton.rs`, both with backward
//! supports). The two kinds of automata share only a group's sum, one
//! variable each, so the network is acyclic and arc consistency on each is
//! domain consistency on the whole (Beeri, Fagin, Maier & Yannakakis 1983):
//! unit propagation removes exactly the digits that no assignment of the
//! sum's cells with different digits in each group supports. A 32-cell
//! arrow whose sum is at most 99 then fills its rows and boxes with small
//! digits at once, where the sum alone sees only bounds.
//!
//! Every auxiliary variable is fixed by the digits (both automata are
//! deterministic), so no count changes; the groups' differences are the
//! puzzle's own, so the encoding says nothing the puzzle does not.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeMap;

use varisat::Lit;

use super::automaton;
use super::Spelling;
use crate::encode::ClauseSink;
use crate::model::{Cell, Constraint, Digit, Predicate, Puzzle};

/// The most edges the automata of one sum may have together; a larger sum
/// keeps its partial sums.
const MOST_EDGES: usize = 100_000;

/// Which cells of a puzzle may not hold the same digit: two cells of one
/// group, or of a "different digits" relation.
#[derive(Clone, Debug, Default)]
pub struct Differ {
    groups_of: HashMap<Cell, Vec<usize>>,
    pairs: HashSet<(Cell, Cell)>,
}

impl Differ {
    /// The differences `puzzle` states (none kept when it has no sum, x-sum,
    /// sandwich, counting circles, renban, equal sums, connected values,
    /// skyscraper, or line rule that reads its digits: `reads_digits`). The
    /// sums inside an alternative are not looked at (they stay without their
    /// differences, which measured slower: bench/results/design-notes.md),
    /// but its skyscrapers and line rules that read their digits are, since
    /// their automata read the differences (ISS's "City Planning", 36
    /// alternatives of a given or a skyscraper clue, is decided in 17 ms
    /// where it took 23).
    pub fn new(puzzle: &Puzzle) -> Differ {
        let reads = |c: &Constraint| {
            matches!(c, Constraint::Visible { .. })
                || matches!(c, Constraint::Along { rule, .. } if super::reads_digits(rule))
        };
        let sums = |c: &Constraint| {
            reads(c)
                || matches!(
                    c,
                    Constraint::Sum { .. }
                        | Constraint::XSum { .. }
                        | Constraint::Sandwich { .. }
                        | Constraint::Counting { .. }
                        | Constraint::Consecutive { .. }
                        | Constraint::EqualSums { .. }
                        | Constraint::ConnectedValues { .. }
                )
                || matches!(c, Constraint::AnyOf { alternatives } if alternatives.iter().any(|a| a.constraints.iter().any(reads)))
        };
        if !puzzle.constraints().iter().any(sums) {
            return Differ::default();
        }
        Differ::of(puzzle)
    }

    /// Every difference `puzzle` states, whatever its rules.
    pub fn of(puzzle: &Puzzle) -> Differ {
        let mut groups_of: HashMap<Cell, Vec<usize>> = HashMap::default();
        for (g, group) in puzzle.groups().iter().enumerate() {
            for &cell in &group.cells {
                groups_of.entry(cell).or_default().push(g);
            }
        }
        let pairs = puzzle
            .relations()
            .iter()
            .filter(|r| r.predicate == Predicate::NotEqual)
            .flat_map(|r| [(r.a, r.b), (r.b, r.a)])
            .collect();
        Differ { groups_of, pairs }
    }

    /// Whether `a` and `b` (distinct cells) may not share a digit.
    pub fn differ(&self, a: Cell, b: Cell) -> bool {
        if a == b {
            return false;
        }
        if self.pairs.contains(&(a, b)) {
            return true;
        }
        match (self.groups_of.get(&a), self.groups_of.get(&b)) {
            (Some(x), Some(y)) => x.iter().any(|g| y.contains(g)),
            _ => false,
        }
    }

    /// The cells outside `cells` that may share a digit with none of them
    /// (those that see all of them), in reading order.
    pub fn seeing_all(&self, cells: &[Cell]) -> Vec<Cell> {
        self.seeing(cells, cells.len()).into_iter().map(|(cell, _)| cell).collect()
    }

    /// The cells outside `cells` that may share a digit with `least` of
    /// them or more, in reading order, each with the indices in `cells`
    /// of those it sees.
    pub fn seeing(&self, cells: &[Cell], least: usize) -> Vec<(Cell, Vec<usize>)> {
        let mut known: Vec<Cell> = self.groups_of.keys().chain(self.pairs.iter().map(|(a, _)| a)).copied().collect();
        known.sort_unstable();
        known.dedup();
        known
            .into_iter()
            .filter(|x| !cells.contains(x))
            .map(|x| (x, (0..cells.len()).filter(|&k| self.differ(x, cells[k])).collect::<Vec<usize>>()))
            .filter(|(_, seen)| seen.len() >= least)
            .collect()
    }

    /// Whether every two of `cells` may not share a digit.
    pub fn all_differ(&self, cells: &[Cell]) -> bool {
        cells.iter().enumerate().all(|(i, &a)| cells[i + 1..].iter().all(|&b| self.differ(a, b)))
    }
}

/// The terms of a sum split into groups: the indices of terms of one
/// weight whose cells pairwise differ, at most `n` a group. As ISS finds
/// its exclusion groups (`HandlerUtil.findExclusionGroups`): cliques grown
/// one at a time, either from the first cell left in the terms' order or
/// from the cell that differs from the most cells left, keeping the split
/// with the larger sum of squared group sizes (fewer, larger groups: a
/// narrower range of sums).
pub fn exclusion_groups(terms: &[(Cell, i32)], n: usize, differ: &Differ) -> Vec<Vec<usize>> {
    let mut weights: Vec<i32> = terms.iter().map(|t| t.1).collect();
    weights.sort_unstable();
    weights.dedup();
    // Which terms differ, looked up once: the cliques ask again and again.
    let m = terms.len();
    let mut differs = vec![false; m * m];
    for a in 0..m {
        for b in a + 1..m {
            let d = terms[a].1 == terms[b].1 && differ.differ(terms[a].0, terms[b].0);
            (differs[a * m + b], differs[b * m + a]) = (d, d);
        }
    }
    let mut groups = Vec::new();
    for w in weights {
        let of_weight: Vec<usize> = (0..terms.len()).filter(|&i| terms[i].1 == w).collect();
        let edge = |a: usize, b: usize| differs[a * m + b];
        let first = cliques(&of_weight, n, &edge, false);
        let most = cliques(&of_weight, n, &edge, true);
        let score = |split: &Vec<Vec<usize>>| split.iter().map(|g| g.len() * g.len()).sum::<usize>();
        groups.extend(if score(&most) > score(&first) { most } else { first });
    }
    groups.sort_by_key(|group| group[0]);
    groups
}

/// The least and most totals of `cells` (weight 1 each) with different
/// digits in each of their groups (`exclusion_groups`), on digits 1 to
/// `n`, and the groups' sizes.
pub(super) struct GroupTotals {
    pub least: i64,
    pub most: i64,
    pub sizes: Vec<i64>,
}

/// The [`GroupTotals`] of `cells`.
pub(super) fn group_totals(cells: &[Cell], n: usize, differ: &Differ) -> GroupTotals {
    let terms: Vec<(Cell, i32)> = cells.iter().map(|&c| (c, 1)).collect();
    let sizes: Vec<i64> = exclusion_groups(&terms, n, differ).iter().map(|g| g.len() as i64).collect();
    let n = n as i64;
    let least = sizes.iter().map(|k| k * (k + 1) / 2).sum();
    let most = sizes.iter().map(|k| k * (2 * n - k + 1) / 2).sum();
    GroupTotals { least, most, sizes }
}

/// `items` split into cliques of `edge`, of at most `n` items, grown one at
/// a time: each takes, among the items that differ from all it holds (at
/// first, all items left), the first (`most` false) or the one that
/// differs from the most of those (`most` true, the first on a tie).
fn cliques(items: &[usize], n: usize, edge: &dyn Fn(usize, usize) -> bool, most: bool) -> Vec<Vec<usize>> {
    let mut left: Vec<usize> = items.to_vec();
    let mut split = Vec::new();
    while !left.is_empty() {
        let mut candidates = left.clone();
        let mut clique: Vec<usize> = Vec::new();
        while !candidates.is_empty() && clique.len() < n {
            let pick = if most {
                let degree = |&a: &usize| candidates.iter().filter(|&&b| b != a && edge(a, b)).count();
                let best = candidates.iter().map(degree).max().unwrap_or(0);
                candidates.iter().position(|a| degree(a) == best).unwrap_or(0)
            } else {
                0
            };
            let chosen = candidates.remove(pick);
            clique.push(chosen);
            candidates.retain(|&b| edge(chosen, b));
        }
        left.retain(|a| !clique.contains(a));
        split.push(clique);
    }
    split
}

/// Encodes `Σ w·digit = target` over `terms` by groups (see the module
/// doc; groups of one cell make it the sum's MDD, as `--sum mdd`), when the
/// digits are at most 16 and the automata fit in [`MOST_EDGES`]; false,
/// with nothing encoded, otherwise.
pub(super) fn encode_grouped_sum(
    terms: &[(Cell, i32)],
    target: i64,
    n: usize,
    differ: &Differ,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) -> bool {
    if n > 16 {
        return false;
    }
    let terms: Vec<(Cell, i32)> = terms.iter().copied().filter(|&(_, w)| w != 0).collect();
    let groups = exclusion_groups(&terms, n, differ);
    // Each position of the outer automaton: the values it may add (in
    // increasing order), from a cell or from a group's sets of digits.
    let mut values: Vec<Vec<i64>> = Vec::new();
    let mut edges = 0usize;
    let mut group_sums: Vec<BTreeMap<i64, Vec<u32>>> = Vec::new();
    for group in &groups {
        let w = i64::from(terms[group[0]].1);
        let mut sums: BTreeMap<i64, Vec<u32>> = BTreeMap::new();
        // The sets of `group.len()` digits of 1..=n, by their weighted sum.
        for set in 0u32..1 << n {
            if set.count_ones() as usize == group.len() {
                sums.entry(w * super::total(set.into())).or_default().push(set);
            }
        }
        // The set automaton's edges: a set of k digits, n - k ways on.
        edges += (0..group.len()).map(|k| binomial(n, k) * (n - k)).sum::<usize>();
        values.push(sums.keys().copied().collect());
        group_sums.push(sums);
    }
    // The outer automaton's states are partial sums within the range.
    let span = values.iter().map(|v| v[v.len() - 1] - v[0]).sum::<i64>() as usize + 1;
    edges += values.iter().map(|v| v.len() * span).sum::<usize>();
    if edges > MOST_EDGES {
        return false;
    }
    // Each group's sum, one-hot: the literal of each value.
    let mut reads: Vec<Vec<Lit>> = Vec::new();
    for (group, sums) in groups.iter().zip(&group_sums) {
        let cells: Vec<Cell> = group.iter().map(|&i| terms[i].0).collect();
        if let [cell] = cells[..] {
            // One set of one digit for each value, in the values' order.
            let digit = |sets: &Vec<u32>| sets[0].trailing_zeros() as Digit + 1;
            reads.push(sums.values().map(|sets| spelling.is(cell, digit(sets), out)).collect());
            continue;
        }
        let step = |&set: &u32, d: Digit| {
            let bit = 1u32 << (d - 1);
            (set & bit == 0).then_some(set | bit)
        };
        // The sets of digits that end the group, one end state a value.
        let w = i64::from(terms[group[0]].1);
        let value = |&set: &u32| w * super::total(set.into());
        let ends = automaton::encode_line_within(&cells, n, 0u32, step, |_| true, value, usize::MAX, spelling, out)
            .expect("no limit");
        let end_of: HashMap<i64, Lit> = ends.into_iter().collect();
        // The value's literal: its end state's (none live: false).
        let lits = sums.keys().map(|value| end_of.get(value).copied().unwrap_or_else(|| super::any_of(&[], out)));
        reads.push(lits.collect());
    }
    // The least and greatest the positions from i on can add.
    let (mut least, mut most) = (vec![0i64; values.len() + 1], vec![0i64; values.len() + 1]);
    for (i, v) in values.iter().enumerate().rev() {
        least[i] = least[i + 1] + v[0];
        most[i] = most[i + 1] + v[v.len() - 1];
    }
    let options: Vec<usize> = values.iter().map(Vec::len).collect();
    let step = |&(read, sum): &(usize, i64), at: usize, option: usize| -> Option<(usize, i64)> {
        let sum = sum + values[at][option];
        (sum + least[read + 1]..=sum + most[read + 1]).contains(&target).then_some((read + 1, sum))
    };
    let accept = |&(_, sum): &(usize, i64)| sum == target;
    let mut reads = reads.into_iter();
    let take = |_: usize, _: &mut dyn ClauseSink| reads.next().expect("a position's literals");
    automaton::encode_reads(&options, (0, 0), step, accept, |_| (), usize::MAX, take, out);
    true
}

/// `n` choose `k`.
fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connected values bound their region by the rows' differences (each
    /// row holds each digit once, so `k` digits fill at most `k` cells a
    /// row: `connected_members`); the differences were left out for it
    /// once, and the reach ran over the whole grid.
    #[test]
    fn connected_values_see_the_rows_differences() {
        let puzzle = crate::parse::iss::parse_iss(".ConnectedValues~~1_2_3", "connected").unwrap();
        let differ = Differ::new(&puzzle);
        let row: Vec<Cell> = (0..9).map(|c| Cell::new(4, c)).collect();
        assert!(differ.all_differ(&row));
        assert!(!differ.differ(Cell::new(0, 0), Cell::new(4, 4)));
    }
}
