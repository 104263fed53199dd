//! Killer cages: a sum over cells that are also all different. The sum's
//! own clauses (`sum.rs`) and the group's see each other only through the
//! cells, so unit propagation misses what a solver reads off the cage's
//! digit combinations (the sets of distinct digits with the cage's size
//! and sum). This adds, implied by the two together:
//!
//! - a digit in no combination is in none of the cage's cells;
//! - a digit in every combination is in one of them;
//! - two digits in no combination together are not both in the cage;
//! - a digit in the cage brings each digit that every combination with
//!   it holds;
//! - a selector per combination, true exactly when the cage holds that
//!   set of digits (`select_combination`); exactly one is true in every
//!   model, so the enum engine's learning search may branch on them
//!   ([`crate::encode::Encoded::exactly_one`]), choosing a combination as
//!   a killer solver does;
//! - a digit in every combination is in none of the cells outside the
//!   cage that see all the cage's cells where it may still be (ISS's sum
//!   handler's required values kept out of the cells that see them,
//!   `keep_required_out`).
//!
//! Every clause is implied by the sum and the group, so the count is the
//! same; the search only meets fewer dead ends (bench/results/design-notes.md
//! has the measurement on the corpus's cages).

use varisat::Lit;

use crate::encode::ClauseSink;
use crate::model::{Cell, Digit};

use super::grouped::Differ;
use super::Spelling;

/// Combinations past this many are not listed (a cage of 8 of 16 digits has
/// 12,870): the cage keeps only its sum's and group's clauses.
const MAX_COMBINATIONS: usize = 1 << 14;

/// The sets of `size` distinct digits `1..=n` summing to `target`, each a
/// bit per digit (`d - 1`); `None` past [`MAX_COMBINATIONS`].
fn combinations(n: usize, size: usize, target: i64) -> Option<Vec<u64>> {
    fn extend(from: usize, n: usize, left: usize, target: i64, set: u64, out: &mut Vec<u64>) -> bool {
        if left == 0 {
            if target == 0 {
                out.push(set);
            }
            return out.len() <= MAX_COMBINATIONS;
        }
        for d in from..=n {
            // The `left` smallest digits from `d` already pass the target.
            let least = (left * (2 * d + left - 1) / 2) as i64;
            if least > target {
                break;
            }
            if !extend(d + 1, n, left - 1, target - d as i64, set | 1 << (d - 1), out) {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    extend(1, n, size, target, 0, &mut out).then_some(out)
}

/// The clauses the combinations of a cage of `cells` (all different, at
/// most 64 digits) summing to `target` imply; `differ` says which cells
/// outside it see which of its cells.
pub(super) fn encode_cage(
    cells: &[Cell],
    target: i64,
    n: usize,
    differ: &Differ,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let Some(sets) = combinations(n, cells.len(), target) else { return };
    if sets.len() > 1 && sets.len() <= MOST_SELECTED {
        select_combination(cells, &sets, n, spelling, out);
    }
    let digits = || 1..=n as Digit;
    let bit = |d: Digit| 1u64 << (d - 1);
    let union = sets.iter().fold(0, |all, &s| all | s);
    let every = sets.iter().fold(u64::MAX, |all, &s| all & s);
    keep_required_out(cells, every, n, differ, spelling, out);
    for d in digits() {
        if union & bit(d) == 0 {
            for &cell in cells {
                out.add_clause(&spelling.not(cell, d));
            }
            continue;
        }
        if every & bit(d) != 0 {
            let somewhere: Vec<_> = cells.iter().map(|&cell| spelling.is(cell, d, out)).collect();
            out.add_clause(&somewhere);
            continue;
        }
        // What every combination holding d holds besides it, and what none does.
        let with = sets.iter().filter(|&&s| s & bit(d) != 0).fold(u64::MAX, |all, &s| all & s) & !bit(d) & !every;
        let together = sets.iter().filter(|&&s| s & bit(d) != 0).fold(0, |all, &s| all | s);
        for (at, &cell) in cells.iter().enumerate() {
            let holds = spelling.not(cell, d);
            for e in digits().filter(|&e| e > d && union & bit(e) != 0 && together & bit(e) == 0) {
                for (_, &other) in cells.iter().enumerate().filter(|&(k, _)| k != at) {
                    out.add_clause(&[holds.clone(), spelling.not(other, e)].concat());
                }
            }
            for e in digits().filter(|&e| with & bit(e) != 0) {
                let mut clause = holds.clone();
                clause.extend(cells.iter().enumerate().filter(|&(k, _)| k != at).map(|(_, &o)| spelling.is(o, e, out)));
                out.add_clause(&clause);
            }
        }
    }
}

/// For each digit of `every` (bit `d - 1`), the digits every combination
/// holds, and each cell `o` outside the cage that sees two or more of its
/// `cells`, those `S`: `¬o(d) ∨ ⋁ c(d)` over the cage's cells outside
/// `S`. The digit is in the cage, so once it is in none of the cells `o`
/// does not see, it is in `S` and not in `o`; where `o` sees every cell,
/// a unit. (ISS's sum handler removes such required values from the
/// cells that see every cell of the cage where they may still be; with
/// `S` of one cell the clause says what that cell's own differences do.)
/// Selectors would carry it to the digits of some combinations only, but
/// measured slower: the searches of small puzzles took two to four times
/// the decisions (bench/results/design-notes.md).
fn keep_required_out(
    cells: &[Cell],
    every: u64,
    n: usize,
    differ: &Differ,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    if every == 0 {
        return;
    }
    for (outside, seen) in differ.seeing(cells, 2) {
        for d in (1..=n as Digit).filter(|&d| every >> (d - 1) & 1 == 1) {
            let mut clause = spelling.not(outside, d);
            for (k, &cell) in cells.iter().enumerate() {
                if !seen.contains(&k) {
                    clause.push(spelling.is(cell, d, out));
                }
            }
            out.add_clause(&clause);
        }
    }
}

/// Combinations up to this many get a selector each.
const MOST_SELECTED: usize = 64;

/// A variable per combination, true exactly when the cage's digits are
/// that set: at least one holds; each excludes the digits outside it from
/// every cell and puts each of its digits in some cell; a digit in a cell
/// brings one of the combinations that hold it. With every cell set, the
/// one combination equal to the cage's digits is the only one left true,
/// so the count is the same; unit propagation now drops a combination
/// once a cell or a missing digit rules it out, and the digits no
/// combination left holds.
fn select_combination(cells: &[Cell], sets: &[u64], n: usize, spelling: &mut Spelling, out: &mut dyn ClauseSink) {
    let selectors: Vec<Lit> = sets.iter().map(|_| out.new_var().positive()).collect();
    out.one_in_every_model(&selectors);
    for (&set, &s) in sets.iter().zip(&selectors) {
        for d in 1..=n as Digit {
            if set >> (d - 1) & 1 == 0 {
                for &cell in cells {
                    out.add_clause(&[vec![!s], spelling.not(cell, d)].concat());
                }
            } else {
                let mut somewhere = vec![!s];
                somewhere.extend(cells.iter().map(|&cell| spelling.is(cell, d, out)));
                out.add_clause(&somewhere);
            }
        }
    }
    for d in 1..=n as Digit {
        let holding: Vec<Lit> =
            sets.iter().zip(&selectors).filter(|&(&set, _)| set >> (d - 1) & 1 == 1).map(|(_, &s)| s).collect();
        if holding.is_empty() {
            continue;
        }
        for &cell in cells {
            out.add_clause(&[spelling.not(cell, d), holding.clone()].concat());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a count by brute force over every subset of `1..=9`.
    #[test]
    fn combinations_are_the_subsets_with_the_size_and_sum() {
        for size in 1..=9 {
            for target in 0..=50 {
                let brute: Vec<u64> = (0u64..1 << 9)
                    .filter(|s| {
                        s.count_ones() as usize == size
                            && (0..9).filter(|d| s >> d & 1 == 1).map(|d| d + 1).sum::<i64>() == target
                    })
                    .collect();
                let mut listed = combinations(9, size, target).unwrap();
                listed.sort_unstable();
                assert_eq!(listed, brute, "size {size}, sum {target}");
            }
        }
    }

    /// The cage's selectors are one of the encoding's exactly-one sets,
    /// and so are those of the hidden cages its innies make (r1c3 + r1c4
    /// = 5 and r2c1 + r2c2 = 5): over every 4x4 grid with r1c1 + r1c2 = 5
    /// (listed here by brute force), the grid's digits leave exactly one
    /// of each set true, and with any other also true nothing is left.
    #[test]
    fn exactly_one_selector_holds_in_each_grid() {
        use crate::encode::{encode, Encoding};
        use varisat::Solver;

        let p = crate::parse::parse("size 4\nkiller r1c1 r1c2 = 5\n", "a cage", None).unwrap();
        let encoded = encode(&p, &Encoding::default());
        // {1, 4} and {2, 3}, for each of the three.
        assert_eq!(encoded.exactly_one.iter().map(Vec::len).collect::<Vec<_>>(), [2, 2, 2]);
        // Every 4x4 grid, row by row from the permutations of 1..=4.
        let perms: Vec<[u8; 4]> =
            itertools::Itertools::permutations(1..=4u8, 4).map(|v| [v[0], v[1], v[2], v[3]]).collect();
        let box_of = |r: usize, c: usize| r / 2 * 2 + c / 2;
        let mut grids = 0;
        for rows in itertools::Itertools::multi_cartesian_product((0..4).map(|_| perms.iter())) {
            let fits = (0..4).all(|c| (0..4).map(|r| rows[r][c]).collect::<std::collections::BTreeSet<_>>().len() == 4)
                && (0..4).all(|b| {
                    let digits: std::collections::BTreeSet<u8> =
                        (0..16).filter(|i| box_of(i / 4, i % 4) == b).map(|i| rows[i / 4][i % 4]).collect();
                    digits.len() == 4
                });
            if !fits || rows[0][0] + rows[0][1] != 5 {
                continue;
            }
            grids += 1;
            let mut solver = Solver::new();
            solver.add_formula(&encoded.formula);
            let digits: Vec<Lit> = (0..16)
                .map(|i| encoded.vars.var(Cell::new(i / 4, i % 4), Digit::from(rows[i / 4][i % 4])).positive())
                .collect();
            solver.assume(&digits);
            assert!(solver.solve().unwrap(), "grid {rows:?} has a model");
            let model = solver.model().unwrap();
            for selectors in &encoded.exactly_one {
                let true_ones: Vec<Lit> = selectors.iter().copied().filter(|s| model.contains(s)).collect();
                assert_eq!(true_ones.len(), 1, "grid {rows:?}: selectors {true_ones:?}");
                for &other in selectors.iter().filter(|&&s| s != true_ones[0]) {
                    solver.assume(&[digits.clone(), vec![other]].concat());
                    assert!(!solver.solve().unwrap(), "grid {rows:?}: a second selector true");
                }
            }
        }
        // 288 grids; r1c1 + r1c2 = 5 in 4 of the 12 ordered pairs of a
        // row's first two digits: a third of them.
        assert_eq!(grids, 96);
    }
}
