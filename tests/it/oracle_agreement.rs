//! Counts through the library API agree with the backtracking oracle of
//! `tests/common` and with numbers from the literature.

use crate::common::*;
use satsudoku::count::{count_models, EngineKind, Limits};
use satsudoku::encode::amo::AmoEncoding;
use satsudoku::encode::relation::RelationEncoding;
use satsudoku::encode::{encode, ClauseSet, Encoding};
use satsudoku::model::Puzzle;
use satsudoku::named::Named;
use satsudoku::parse::{parse, Format};

fn count(puzzle: &Puzzle) -> u128 {
    count_with(puzzle, &Encoding::default())
}

fn count_with(puzzle: &Puzzle, encoding: &Encoding) -> u128 {
    let encoded = encode(puzzle, encoding);
    let result = count_models(puzzle, &encoded, EngineKind::Blocking, Limits::default(), &mut ());
    let result = result.expect("count succeeds");
    assert!(result.is_exact());
    result.models
}

#[test]
fn empty_4x4_has_288_grids() {
    // 288: seed 002 ("Combinatorial explorations in Su-Doku") and the oracle.
    let spec = Spec::empty(2, 2);
    assert_eq!(oracle_count(&spec, u64::MAX), 288);
    assert_eq!(count(&puzzle_of(&spec)), 288);
}

#[test]
fn diagonal_4x4_has_48_grids() {
    // 48: seed 002, 4x4 grids whose two main diagonals are all-different.
    let spec = Spec { diagonals: true, ..Spec::empty(2, 2) };
    assert_eq!(oracle_count(&spec, u64::MAX), 48);
    assert_eq!(count(&puzzle_of(&spec)), 48);
}

#[test]
fn nine_by_nine_with_givens_matches_the_oracle() {
    let mut rng = rng(2024);
    let mut checked = 0;
    for round in 0..8 {
        let grid = random_grid(&mut rng, 9, (3, 3));
        let mut cells: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut cells);
        let mut spec = Spec::empty(3, 3);
        // Keep 28 + 2*round givens: counts from thousands down to one.
        for &i in &cells[..28 + 2 * round] {
            spec.givens[i] = grid[i];
        }
        let expected = oracle_count(&spec, 20_000);
        if expected >= 20_000 {
            continue;
        }
        assert_eq!(count(&puzzle_of(&spec)), u128::from(expected), "round {round}");
        checked += 1;
    }
    assert!(checked >= 5, "too few instances were small enough: {checked}");
}

#[test]
fn contest_example_has_one_solution() {
    let puzzle = parse(CONTEST_EXAMPLE, "contest.lp", None).unwrap();
    assert_eq!(count(&puzzle), 1);
    // The oracle reads the symbols from the same facts with its own layout.
    let symbols: Vec<Vec<i8>> = CONTEST_EXAMPLE
        .lines()
        .filter(|l| l.starts_with("row") || l.starts_with("vertical"))
        .map(|l| {
            let inner = &l[l.find('(').unwrap() + 1..l.find(')').unwrap()];
            inner.split(',').skip(1).map(|v| v.parse().unwrap()).collect()
        })
        .collect();
    assert_eq!(oracle_count(&contest_spec(&symbols), u64::MAX), 1);
}

/// 30 contest instances derived from random grids (a few solutions each) and
/// 20 random symbol patterns (mostly none), in both input formats.
#[test]
fn contest_instances_match_the_oracle() {
    let mut rng = rng(7);
    let mut counts = Vec::new();
    for i in 0..50 {
        let symbols = if i < 30 { symbols_of(&random_grid(&mut rng, 9, (3, 3))) } else { random_symbols(&mut rng) };
        let expected = oracle_count(&contest_spec(&symbols), u64::MAX);
        let lp = parse(&to_lp(&symbols), "gen.lp", Some(Format::Lp)).unwrap();
        let kattis = parse(&to_kattis(&symbols), "gen.txt", None).unwrap();
        assert_eq!(lp, kattis, "instance {i}: formats disagree");
        assert_eq!(count(&lp), u128::from(expected), "instance {i}:\n{}", to_lp(&symbols));
        counts.push(expected);
    }
    assert!(counts[..30].iter().all(|&c| c >= 1));
    assert!(counts[30..].iter().filter(|&&c| c == 0).count() >= 15, "{counts:?}");
}

/// 30 instances built from random grids: a few of the grid's contest sum
/// relations and 24 to 26 of its digits as givens, so counts run from tens to
/// thousands (a full contest symbol set from a grid leaves only a few).
#[test]
fn partial_relation_instances_match_the_oracle() {
    let mut rng = rng(12);
    let mut counts = Vec::new();
    for i in 0..30 {
        let spec = partial_of_grid(&mut rng, 24..27, 5..9);
        let expected = oracle_count(&spec, 20_000);
        if expected >= 20_000 {
            continue;
        }
        let puzzle = puzzle_of(&spec);
        assert_eq!(count(&puzzle), u128::from(expected), "instance {i}");
        counts.push(expected);
    }
    assert!(counts.len() >= 20, "{counts:?}");
    assert!(counts.iter().any(|&c| c < 50), "{counts:?}");
    assert!(counts.iter().filter(|&&c| c >= 1000).count() >= 3, "{counts:?}");
}

/// Puzzles with their oracle counts: empty 4x4, with and without diagonals;
/// contest instances from `grids` random grids (seeded by `seed`), then one
/// from random symbols.
fn oracle_cases(seed: u64, grids: usize) -> Vec<(String, Puzzle, u64)> {
    let mut rng = rng(seed);
    let mut cases = Vec::new();
    for diagonals in [false, true] {
        let spec = Spec { diagonals, ..Spec::empty(2, 2) };
        cases.push((format!("4x4 diagonals={diagonals}"), puzzle_of(&spec), oracle_count(&spec, u64::MAX)));
    }
    for i in 0..=grids {
        let symbols = if i < grids { symbols_of(&random_grid(&mut rng, 9, (3, 3))) } else { random_symbols(&mut rng) };
        let puzzle = parse(&to_lp(&symbols), "gen.lp", None).unwrap();
        cases.push((format!("contest {i}"), puzzle, oracle_count(&contest_spec(&symbols), u64::MAX)));
    }
    cases
}

/// Every clause set with every at-most-one encoding counts the same as the
/// oracle: auxiliary variables never change a count.
#[test]
fn every_encoding_counts_like_the_oracle() {
    let cases = oracle_cases(3, 3);
    for (name, puzzle, expected) in &cases {
        for clause_set in [ClauseSet::Minimal, ClauseSet::Efficient, ClauseSet::Extended] {
            for &amo in AmoEncoding::VARIANTS {
                let encoding = Encoding { clause_set, amo, ..Encoding::default() };
                assert_eq!(count_with(puzzle, &encoding), u128::from(*expected), "{name} with {encoding}");
            }
            for &relation in RelationEncoding::VARIANTS {
                let encoding = Encoding { clause_set, relation, ..Encoding::default() };
                assert_eq!(count_with(puzzle, &encoding), u128::from(*expected), "{name} with {encoding}");
            }
        }
    }
}

/// Both engines agree with the oracle under several encodings, including ones
/// with auxiliary variables.
#[test]
fn every_engine_counts_like_the_oracle() {
    let cases = oracle_cases(19, 4);
    let encodings = [
        Encoding::default(),
        Encoding { relation: RelationEncoding::Support, ..Encoding::default() },
        Encoding { relation: RelationEncoding::Equivalence, amo: AmoEncoding::Bitwise, ..Encoding::default() },
        Encoding {
            clause_set: ClauseSet::Minimal,
            relation: RelationEncoding::Support,
            amo: AmoEncoding::Sequential,
            ..Encoding::default()
        },
    ];
    for (name, puzzle, expected) in &cases {
        for encoding in &encodings {
            let encoded = encode(puzzle, encoding);
            for engine in engines_for(puzzle, encoding.digits) {
                let result = count_models(puzzle, &encoded, engine, Limits::default(), &mut ());
                let result = result.expect("count succeeds");
                assert_eq!(result.models, u128::from(*expected), "{name} with {encoding} on {engine:?}");
            }
        }
    }
}
