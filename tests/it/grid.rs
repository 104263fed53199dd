//! The grid engine (src/count/grid.rs), the plan's engine for puzzles made
//! only of all-different groups, against the family oracle written in the
//! tests (`common::count_grids`, plain backtracking over rows, columns and
//! boxes): alone, split into cubes on several threads, after probes of
//! every length, and under the plan's default choice.

use std::collections::HashSet;

use crate::common::{count_grids, random_grid, rng, satsudoku};
use predicates::prelude::*;
use predicates::str::contains;
use proptest::prelude::RngExt as _;
use satsudoku::count::plan::{count, Plan};
use satsudoku::count::{Each, EngineKind};
use satsudoku::encode::Encoding;
use satsudoku::model::{Cell, Constraint, Grid, Predicate, Puzzle};

/// A Sudoku of `h x w` boxes (a Latin square for `(1, n)`) with `givens`
/// (0 blank, reading order).
fn puzzle((h, w): (usize, usize), givens: &[u32]) -> Puzzle {
    let n = h * w;
    let mut puzzle = if h == 1 { Puzzle::latin(n).unwrap() } else { Puzzle::sudoku(h, w).unwrap() };
    for (i, &d) in givens.iter().enumerate().filter(|(_, &d)| d != 0) {
        puzzle.set_given(Cell::new(i / n, i % n), d as u8).unwrap();
    }
    puzzle
}

/// Up to `clues` givens (drawn cells, repeats allowed) of a random grid of
/// `h x w` boxes; 0 elsewhere.
fn random_givens(rng: &mut crate::common::Rng, (h, w): (usize, usize), clues: usize) -> Vec<u32> {
    let n = h * w;
    let grid = random_grid(rng, n, (h, w));
    let mut givens = vec![0; n * n];
    for _ in 0..clues {
        let i = rng.random_range(0..n * n);
        givens[i] = grid[i];
    }
    givens
}

/// Random puzzles cut from random grids (some with a clashing given
/// added), counted by the plan's default (which picks the grid engine) and
/// by the grid engine asked for on 1 to 3 threads after probes of 0 to 100
/// decisions, so that the frontier, the cubes and the work given to
/// waiting threads are all used: every count is the oracle's.
#[test]
fn the_grid_engine_counts_like_the_oracle() {
    let mut rng = rng(2611);
    let shapes = [(2, 2), (2, 3), (3, 2), (1, 5), (2, 4)];
    for round in 0..60 {
        let (h, w) = shapes[round % shapes.len()];
        let n = h * w;
        let grid = random_grid(&mut rng, n, (h, w));
        let keep = match n {
            4 | 5 => rng.random_range(0..8),
            6 => rng.random_range(8..16),
            _ => rng.random_range(30..40),
        };
        let mut givens = vec![0; n * n];
        for _ in 0..keep {
            let i = rng.random_range(0..n * n);
            givens[i] = grid[i];
        }
        if round % 7 == 0 {
            // A clash: a digit repeated in a row.
            givens[0] = grid[1];
            givens[1] = grid[1];
        }
        let expected = count_grids(n, (h, w), &givens, &|_| true);
        let puzzle = puzzle((h, w), &givens);
        let default = count(&puzzle, &Plan::new(Encoding::default()), &mut ()).unwrap();
        assert_eq!(default.count, expected.into(), "round {round}: default plan");
        for (jobs, probe) in [(1, 0), (2, 1), (3, 10), (2, 100)] {
            let plan =
                Plan { engine: Some(EngineKind::Grid), jobs: Some(jobs), probe, ..Plan::new(Encoding::default()) };
            let tally =
                count(&puzzle, &plan, &mut ()).unwrap_or_else(|e| panic!("round {round}, {h}x{w}, {keep} givens: {e}"));
            assert_eq!(tally.count, expected.into(), "round {round}: {jobs} jobs, probe {probe}");
        }
    }
}

/// Every model the grid engine shows, on two threads that give each other
/// work, is a solution the test checks itself, and none comes twice.
#[test]
fn the_grid_engine_shows_each_solution_once() {
    let empty = puzzle((2, 3), &[0; 36]);
    let mut first_row = empty.clone();
    for c in 0..6 {
        first_row.set_given(Cell::new(0, c), c as u8 + 1).unwrap();
    }
    // 28,200,960 grids of 2x3 boxes (Pettersen; also the oracle's), a
    // 720th with the first row fixed.
    let expected =
        count_grids(6, (2, 3), &[1, 2, 3, 4, 5, 6].iter().copied().chain([0; 30]).collect::<Vec<_>>(), &|_| true);
    assert_eq!(expected * 720, 28_200_960);
    let plan = Plan { engine: Some(EngineKind::Grid), jobs: Some(2), probe: 5, ..Plan::new(Encoding::default()) };
    let mut seen = HashSet::new();
    let mut valid = true;
    let mut keep = |grid: &Grid| {
        valid &= is_sudoku(grid, (2, 3)) && (0..6).all(|c| grid.get(Cell::new(0, c)) == c as u8 + 1);
        seen.insert(grid.clone());
        true
    };
    let tally = count(&first_row, &plan, &mut Each(&mut keep)).unwrap();
    assert!(valid);
    assert_eq!((tally.count, seen.len() as u64), (expected.into(), expected));
}

/// Rows, columns and `h x w` boxes each hold distinct digits 1..=n.
fn is_sudoku(grid: &Grid, (h, w): (usize, usize)) -> bool {
    let n = h * w;
    let at = |r: usize, c: usize| grid.get(Cell::new(r, c));
    let distinct = |cells: Vec<(usize, usize)>| {
        let digits: HashSet<u8> = cells.iter().map(|&(r, c)| at(r, c)).collect();
        digits.len() == n && digits.iter().all(|&d| d >= 1 && usize::from(d) <= n)
    };
    (0..n).all(|i| {
        let (br, bc) = (i / (n / w) * h, i % (n / w) * w);
        distinct((0..n).map(|k| (i, k)).collect())
            && distinct((0..n).map(|k| (k, i)).collect())
            && distinct((0..n).map(|k| (br + k / w, bc + k % w)).collect())
    })
}

/// Groups beyond rows, columns and boxes: the diagonals of a 4x4 Sudoku X,
/// counted by the plan's default and by the grid engine, against the
/// oracle's grids that keep both diagonals distinct.
#[test]
fn extra_groups_count_like_the_oracle() {
    let diagonals = |g: &[u32]| {
        let distinct = |cells: Vec<usize>| cells.iter().map(|&i| g[i]).collect::<HashSet<_>>().len() == 4;
        distinct((0..4).map(|k| k * 5).collect()) && distinct((0..4).map(|k| k * 3 + 3).collect())
    };
    let expected = count_grids(4, (2, 2), &[0; 16], &diagonals);
    let x = Puzzle::sudoku(2, 2).unwrap().with_diagonals();
    for engine in [None, Some(EngineKind::Grid)] {
        let plan = Plan { engine, ..Plan::new(Encoding::default()) };
        assert_eq!(count(&x, &plan, &mut ()).unwrap().count, expected.into(), "{engine:?}");
    }
}

/// The plan counts a classic puzzle with the grid engine and a variant with
/// the enum engine (as `--stats` says), and `--engine grid` refuses a
/// variant clearly, with exit status 2.
#[test]
fn the_plan_picks_the_grid_engine_for_groups_only() {
    let stats = |file: &str| {
        let out = satsudoku().args(["count", "--stats", "--jobs", "1", file]).output().unwrap();
        String::from_utf8(out.stderr).unwrap()
    };
    assert!(stats("cnf-samples/family/wikipedia.txt").contains("engine: grid"));
    assert!(stats("cnf-samples/family/killer-9x9.puzzle").contains("engine: enum"));
    satsudoku()
        .args(["count", "--engine", "grid", "cnf-samples/family/killer-9x9.puzzle"])
        .assert()
        .code(2)
        .stderr(contains("the grid engine cannot count this puzzle").and(contains("--engine enum")));
}

/// Anti-knight and anti-king (pairs of cells with different digits, peers
/// to the grid engine) on a blank 4x4 and on 6x6 puzzles with givens from a
/// random grid: the plan's default and the grid engine count what the
/// oracle counts with the pairs checked on full grids.
#[test]
fn different_digit_pairs_count_like_the_oracle() {
    let mut rng = rng(2613);
    for (moves, name) in [(&[(1, 2), (2, 1)][..], "anti-knight"), (&[(1, 1)][..], "anti-king")] {
        for (h, w, clues) in [(2, 2, 0), (2, 3, 12), (2, 3, 14), (3, 2, 13)] {
            let n = h * w;
            let givens = random_givens(&mut rng, (h, w), clues);
            let mut pairs = Vec::new();
            for (r, c) in (0..n).flat_map(|r| (0..n).map(move |c| (r, c))) {
                for &(dr, dc) in moves {
                    for (r2, c2) in [(r + dr, c + dc), (r + dr, c.wrapping_sub(dc))] {
                        if r2 < n && c2 < n {
                            pairs.push((r * n + c, r2 * n + c2));
                        }
                    }
                }
            }
            let expected = count_grids(n, (h, w), &givens, &|g| pairs.iter().all(|&(a, b)| g[a] != g[b]));
            let mut p = puzzle((h, w), &givens);
            for &(a, b) in &pairs {
                p.add_relation(Cell::new(a / n, a % n), Cell::new(b / n, b % n), Predicate::NotEqual).unwrap();
            }
            for engine in [None, Some(EngineKind::Grid)] {
                let plan = Plan { engine, ..Plan::new(Encoding::default()) };
                let tally = count(&p, &plan, &mut ()).unwrap();
                assert_eq!(tally.count, expected.into(), "{name} {h}x{w}, {clues} givens, {engine:?}");
            }
        }
    }
}

/// 9x9 puzzles with hundreds to thousands of solutions, counted on two
/// threads after a probe of one decision: their givens stay inside bands,
/// so the count goes on for `probe * BANDS_PROBE` more decisions on both
/// threads (each stopping at its share, the rest left as cubes) before
/// bands are weighed and the threads go on from those cubes. Every count
/// is the oracle's, with each engine the plan can use.
#[test]
fn a_count_weighing_bands_on_threads_counts_each_solution_once() {
    let mut rng = rng(2614);
    let mut tried = 0;
    while tried < 3 {
        let grid = random_grid(&mut rng, 9, (3, 3));
        let mut givens = grid.clone();
        for _ in 0..60 {
            givens[rng.random_range(0..81)] = 0;
        }
        let expected = count_grids(9, (3, 3), &givens, &|_| true);
        if !(300..=20_000).contains(&expected) {
            continue;
        }
        tried += 1;
        let puzzle = puzzle((3, 3), &givens);
        for engine in [None, Some(EngineKind::Enum), Some(EngineKind::Grid)] {
            let plan = Plan { engine, jobs: Some(2), probe: 1, ..Plan::new(Encoding::default()) };
            let tally = count(&puzzle, &plan, &mut ()).unwrap();
            assert_eq!(tally.count, expected.into(), "{engine:?}");
        }
    }
}

/// Relations of every kind (nonconsecutive and Kropki pairs, sums,
/// thermometer steps, equal cells, classes) and tables of allowed pairs,
/// which the grid engine counts when asked (links propagated from placed
/// digits), on 4x4 and 6x6 puzzles with givens from a random grid: the
/// grid engine on one and two threads, after probes, counts what the
/// oracle counts with each relation checked on full grids; the plan's own
/// choice for them stays the enum engine.
#[test]
fn relations_of_every_kind_count_like_the_oracle_on_the_grid_engine() {
    use std::cmp::Ordering;
    let predicates = [
        Predicate::DifferenceNot { diff: 1 },
        Predicate::Difference { diff: 1 },
        Predicate::Ratio { ratio: 2 },
        Predicate::RatioNot { ratio: 2 },
        Predicate::Sum { cmp: Ordering::Equal, target: 5 },
        Predicate::SumNot { target: 7 },
        Predicate::Less,
        Predicate::LessOrEqual,
        Predicate::Equal,
        Predicate::DifferenceAtLeast { min: 2 },
        Predicate::DifferentClass { low: 2, high: 4 },
        Predicate::ResidueDiffers { modulus: 3 },
    ];
    let mut rng = rng(2615);
    let (mut counted, mut nonzero) = (0, 0);
    for round in 0..48 {
        let (h, w, clues) = [(2, 2, 0), (2, 2, 3), (2, 3, 10), (3, 2, 12)][round % 4];
        let n = h * w;
        let givens = random_givens(&mut rng, (h, w), clues);
        let mut relations = Vec::new();
        for _ in 0..rng.random_range(1..6) {
            let a = rng.random_range(0..n * n);
            // A neighbour to the right or below (wrapping round).
            let b = (a + [1, n][rng.random_range(0..2)]) % (n * n);
            relations.push((a, b, predicates[rng.random_range(0..predicates.len())]));
        }
        // Every other round, a table of allowed pairs too (ISS's Pair, and
        // the rules of a count by bands moved onto bands), each pair of
        // digits allowed with odds of 3 in 4.
        let table = (round % 2 == 1).then(|| {
            let a = rng.random_range(0..n * n);
            let b = (a + [1, n][rng.random_range(0..2)]) % (n * n);
            let allowed: Vec<u64> =
                (0..n).map(|_| (0..n).fold(0, |m, y| m | u64::from(rng.random_range(0..4) > 0) << y)).collect();
            (a, b, allowed)
        });
        let in_table = |g: &[u32]| {
            table.as_ref().is_none_or(|(a, b, allowed)| allowed[g[*a] as usize - 1] >> (g[*b] - 1) & 1 == 1)
        };
        let holds = |g: &[u32]| relations.iter().all(|&(a, b, p)| p.allows(g[a] as u8, g[b] as u8)) && in_table(g);
        let expected = count_grids(n, (h, w), &givens, &holds);
        let mut p = puzzle((h, w), &givens);
        for &(a, b, predicate) in &relations {
            p.add_relation(Cell::new(a / n, a % n), Cell::new(b / n, b % n), predicate).unwrap();
        }
        if let Some((a, b, allowed)) = &table {
            let (a, b) = (Cell::new(a / n, a % n), Cell::new(b / n, b % n));
            p.add_constraint(Constraint::Table { a, b, allowed: allowed.clone() }).unwrap();
        }
        for (jobs, probe) in [(1, 0), (2, 3)] {
            let plan =
                Plan { engine: Some(EngineKind::Grid), jobs: Some(jobs), probe, ..Plan::new(Encoding::default()) };
            let tally = count(&p, &plan, &mut ()).unwrap();
            assert_eq!(tally.count, expected.into(), "round {round}, {relations:?}, givens {givens:?}, {jobs} jobs");
        }
        let plain = relations.iter().all(|&(_, _, p)| p == Predicate::NotEqual) && table.is_none();
        assert_eq!(Plan::new(Encoding::default()).engine_for(&p).unwrap() == EngineKind::Grid, plain);
        counted += 1;
        nonzero += usize::from(expected > 0);
    }
    assert_eq!(counted, 48);
    assert!(nonzero >= 16, "only {nonzero} rounds with solutions");
}

/// Knuth's estimate of the solutions on the grid engine, which weighs bands
/// that groups cross against enumeration: the same for the same seed; 1
/// where propagation alone finds the one solution, 0 where the givens
/// clash; near the count on blank grids (4x4: 288; 6x6 with 2x3 boxes:
/// 28,200,960, OEIS A107739), and on 6x6 puzzles with givens near the
/// oracle's count.
#[test]
fn knuths_estimate_is_near_the_count() {
    use satsudoku::count::grid::GridSearch;
    use satsudoku::encode::encode;

    let estimate = |puzzle: &Puzzle, dives: u32, seed: u64| {
        GridSearch::new(puzzle, &encode(puzzle, &Encoding::default())).estimate(dives, seed)
    };
    let near = |estimate: f64, count: f64, within: f64| (estimate / count - 1.0).abs() <= within;
    let four = puzzle((2, 2), &[0; 16]);
    assert_eq!(estimate(&four, 500, 7), estimate(&four, 500, 7));
    let e = estimate(&four, 20_000, 1);
    assert!(near(e, 288.0, 0.05), "{e}");
    let six = puzzle((2, 3), &[0; 36]);
    let e = estimate(&six, 20_000, 1);
    assert!(near(e, 28_200_960.0, 0.15), "{e}");
    // A full grid less its last cell; two 1s in the first row.
    let mut grid = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0];
    assert_eq!(estimate(&puzzle((2, 2), &grid), 10, 1), 1.0);
    grid[1] = 1;
    assert_eq!(estimate(&puzzle((2, 2), &grid), 10, 1), 0.0);
    let mut rng = rng(31);
    for _ in 0..20 {
        let givens = random_givens(&mut rng, (2, 3), 8);
        let count = count_grids(6, (2, 3), &givens, &|_| true) as f64;
        let e = estimate(&puzzle((2, 3), &givens), 20_000, 1);
        assert!(count == 0.0 && e == 0.0 || near(e, count, 0.15), "{givens:?}: {e} for {count}");
    }
}
