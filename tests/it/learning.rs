//! A count whose probe finds fewer than `LEARN_BELOW` models goes on
//! learning for `plan.judge` decisions, then to varisat, and back to the
//! enum engine past `LEARN_MAX` models. With a probe of one decision and
//! no more to learn in, every open puzzle takes that turn: random
//! 6x6 puzzles, from a handful of solutions to tens of thousands, are
//! counted by the plan and by the backtracking oracle, and both ends of the
//! turn are seen.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use std::collections::HashSet;

use satsudoku::count::enumerate::{Enumerate, Learn};
use satsudoku::count::plan::{Counter, Plan, LEARN_MAX};
use satsudoku::count::Engine;
use satsudoku::encode::{encode, Encoding, SumEncoding};
use satsudoku::model::{Grid, Puzzle};
use satsudoku::parse::{parse, Format};

use crate::common::{
    contest_spec, count_grids, oracle_count, partial_of_grid, puzzle_of, random_grid, random_symbols, rng, symbols_of,
    Draw, Spec,
};

#[test]
fn counts_handed_to_varisat_and_back_match_the_oracle() {
    let mut rng = rng(25);
    let (mut learnt, mut handed_back) = (0, 0);
    for round in 0..16 {
        let grid = random_grid(&mut rng, 6, (2, 3));
        let mut cells: Vec<usize> = (0..36).collect();
        rng.shuffle(&mut cells);
        let mut givens = grid.clone();
        for &cell in &cells[..16 + round] {
            givens[cell] = 0;
        }
        let text: String =
            givens.iter().map(|&d| if d == 0 { '.' } else { char::from_digit(d, 10).unwrap() }).collect();
        let puzzle = parse(&text, "learning", Some(Format::Givens)).unwrap();
        let expected = count_grids(6, (2, 3), &givens, &|_| true);
        let mut plan = Plan::new(Encoding::default());
        plan.probe = 1;
        plan.judge = 0;
        plan.details = true;
        let tally = Counter::new(plan).count(&puzzle, &mut ()).unwrap();
        assert!(tally.is_exact());
        assert_eq!(tally.count, expected.into(), "{text}: {:?}", tally.details);
        if tally.details.iter().any(|d| d.starts_with("engine: blocking")) {
            learnt += 1;
            assert!(tally.counted <= LEARN_MAX.into(), "{text}: {} counted by varisat", tally.counted);
        } else if tally.counted > LEARN_MAX.into() {
            handed_back += 1;
        }
    }
    assert!(learnt > 0 && handed_back > 0, "learnt {learnt}, handed back {handed_back}");
}

/// A count the plan hands to varisat (a blank 32x32 Takuzu with its sums
/// as partial sums, --max 1, with no decisions to learn in first: varisat
/// takes about 12 s, the enum engine 1.3 s; with the default `--sum auto`
/// the rows' sums are automata and varisat needs 0.4 s) still stops at the
/// timeout (not before it), and when interrupted, with a
/// lower bound: a varisat search cannot be stopped inside one solve, so it
/// runs on a thread the count does not wait for.
#[test]
fn a_count_handed_to_varisat_still_stops_on_time() {
    let text = vec![".".repeat(32); 32].join("\n") + "\n";
    let puzzle = parse(&text, "blank-32.takuzu", Some(Format::Takuzu)).unwrap();
    for interrupt in [false, true] {
        let mut plan = Plan::new(Encoding { sum: SumEncoding::PartialSums, ..Encoding::default() });
        (plan.probe, plan.judge, plan.details, plan.jobs) = (1, 0, true, Some(1));
        plan.limits.max = Some(1);
        let flag: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        if interrupt {
            plan.limits.interrupt = Some(flag);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(2));
                flag.store(true, Ordering::Relaxed);
            });
        } else {
            plan.limits.timeout = Some(Duration::from_secs(2));
        }
        let start = Instant::now();
        let tally = Counter::new(plan).count(&puzzle, &mut ()).unwrap();
        assert!(start.elapsed() < Duration::from_secs(10), "interrupt {interrupt}: {:?}", start.elapsed());
        // Nor before it: the varisat count once took what the probe and the
        // encoding had used off the timeout twice.
        assert!(start.elapsed() >= Duration::from_secs(2), "interrupt {interrupt}: {:?}", start.elapsed());
        assert!(!tally.is_exact(), "interrupt {interrupt}");
        // Stopped by the plan's watch ("engine: blocking, stopped ...") or,
        // since the blocking engine leaves a solve behind at a stop too, by
        // the count it watches.
        assert!(tally.details.iter().any(|d| d.starts_with("engine: blocking")), "{:?}", tally.details);
    }
}

/// The enum engine on `puzzle`, learning as `mode` says: its grids, each
/// checked against `spec` by the test's own rules, and the clauses it learnt.
fn grids_by(spec: &Spec, puzzle: &Puzzle, mode: Learn) -> (u64, u64) {
    let encoded = encode(puzzle, &Encoding::default());
    let mut engine = Enumerate::new(puzzle, &encoded).learn(mode);
    engine.start_cube(&[]).unwrap();
    let mut seen = HashSet::new();
    while let Some(grid) = engine.step().unwrap() {
        let digits = digits_of(grid);
        assert!(satisfies(spec, &digits), "{mode:?}: not a solution: {digits:?}");
        assert!(seen.insert(digits), "{mode:?}: a grid found twice");
    }
    (seen.len() as u64, engine.stats().learnt_clauses.unwrap())
}

fn digits_of(grid: &Grid) -> Vec<u32> {
    grid.rows().flatten().map(|&d| u32::from(d)).collect()
}

/// Whether `grid` keeps `spec`'s rules: givens, distinct digits in rows,
/// columns and boxes, and the sum relations (written apart from the oracle).
fn satisfies(spec: &Spec, grid: &[u32]) -> bool {
    let n = spec.bh * spec.bw;
    let at = |r: usize, c: usize| grid[r * n + c];
    let distinct = |cells: Vec<(usize, usize)>| {
        let mut digits: Vec<u32> = cells.iter().map(|&(r, c)| at(r, c)).collect();
        digits.sort_unstable();
        digits.dedup();
        digits.len() == n && digits.iter().all(|&d| (1..=n as u32).contains(&d))
    };
    let units = (0..n).flat_map(|i| {
        let (br, bc) = (i / (n / spec.bw) * spec.bh, i % (n / spec.bw) * spec.bw);
        [
            (0..n).map(|c| (i, c)).collect::<Vec<_>>(),
            (0..n).map(|r| (r, i)).collect(),
            (0..n).map(|k| (br + k / spec.bw, bc + k % spec.bw)).collect(),
        ]
    });
    spec.givens.iter().zip(grid).all(|(&g, &d)| g == 0 || g == d)
        && units.into_iter().all(distinct)
        && spec.relations.iter().all(|rel| rel.holds(at(rel.a.0, rel.a.1), at(rel.b.0, rel.b.1)))
}

/// Searches full of conflicts, with learning from the first conflict on and
/// without it: contest instances from random grids (a few solutions each)
/// and random ones (mostly none), and 9x9 puzzles with some of a random
/// grid's digits and sum relations (up to thousands of solutions). Both
/// find the backtracking oracle's count, each grid a solution by the
/// test's own check, none twice; learning learnt hundreds of clauses.
#[test]
fn learning_from_every_conflict_keeps_the_oracles_counts() {
    let mut rng = rng(2511);
    let mut learnt = 0;
    for i in 0..36 {
        let spec = if i < 24 {
            let symbols = if i < 12 { symbols_of(&random_grid(&mut rng, 9, (3, 3))) } else { random_symbols(&mut rng) };
            contest_spec(&symbols)
        } else {
            partial_of_grid(&mut rng, 22 + i % 4..23 + i % 4, 12..13)
        };
        let puzzle = puzzle_of(&spec);
        let expected = oracle_count(&spec, u64::MAX);
        for mode in [Learn::Always, Learn::Never] {
            let (count, clauses) = grids_by(&spec, &puzzle, mode);
            assert_eq!(count, expected, "instance {i}, {mode:?}: {spec:?}");
            if mode == Learn::Always {
                learnt += clauses;
            } else {
                assert_eq!(clauses, 0);
            }
        }
    }
    assert!(learnt > 100, "only {learnt} clauses learnt");
}

/// Clauses learnt in one cube are kept for the next, on the same engine:
/// they must hold in every model, not only in the cube's. Puzzles split
/// into cubes, counted cube after cube on one learning engine (every
/// fourth cube from level 0 again, as a batch of puzzles is): the cubes'
/// counts add up to the oracle's.
#[test]
fn clauses_learnt_in_one_cube_hold_in_the_next() {
    let mut rng = rng(2512);
    let mut learnt = 0;
    for i in 0..8 {
        let spec = partial_of_grid(&mut rng, 20 + i % 3..21 + i % 3, 14..15);
        let puzzle = puzzle_of(&spec);
        let expected = oracle_count(&spec, u64::MAX);
        let encoded = encode(&puzzle, &Encoding::default());
        let cubes = Enumerate::new(&puzzle, &encoded).split(48);
        let mut engine = Enumerate::new(&puzzle, &encoded).learn(Learn::Always);
        let mut total = 0;
        for (k, cube) in cubes.iter().enumerate() {
            if k % 4 == 3 {
                engine.restart(cube).unwrap();
            } else {
                engine.start_cube(cube).unwrap();
            }
            while let Some(grid) = engine.step().unwrap() {
                assert!(satisfies(&spec, &digits_of(grid)));
                total += 1;
            }
        }
        assert_eq!(total, expected, "puzzle {i}, {} cubes: {spec:?}", cubes.len());
        learnt += engine.stats().learnt_clauses.unwrap();
    }
    assert!(learnt > 100, "only {learnt} clauses learnt");
}
