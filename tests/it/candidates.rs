//! `candidates`: each cell's digits that appear in some solution, and with
//! `--counts` in how many, against every solution the backtracking oracle
//! finds (random 4x4 and 6x6 puzzles with givens); on every format; and a
//! stopped search marked as such.

use std::cell::RefCell;

use serde_json::Value;

use crate::common::satsudoku;
use crate::common::{count_grids, random_grid, rng, Draw};

/// Every solution of a classic puzzle, by the oracle.
fn solutions(n: usize, boxes: (usize, usize), givens: &[u32]) -> Vec<Vec<u32>> {
    let found = RefCell::new(Vec::new());
    count_grids(n, boxes, givens, &|g| {
        found.borrow_mut().push(g.to_vec());
        true
    });
    found.into_inner()
}

fn givens_line(givens: &[u32]) -> String {
    givens.iter().map(|&d| if d == 0 { '.' } else { char::from_digit(d, 10).unwrap() }).collect()
}

#[test]
fn candidates_and_counts_match_every_solution() {
    let mut rng = rng(57);
    for i in 0..24 {
        let (n, boxes) = if i % 3 == 2 { (6, (2, 3)) } else { (4, (2, 2)) };
        // Givens from a random solution, then a random digit somewhere (which may leave none).
        let grid = random_grid(&mut rng, n, boxes);
        let mut givens = vec![0; n * n];
        for _ in 0..(n * n / 3) {
            let c = rng.below(n * n);
            givens[c] = grid[c];
        }
        if i % 4 == 3 {
            givens[rng.below(n * n)] = 1 + rng.below(n) as u32;
        }
        let sols = solutions(n, boxes, &givens);
        let line = givens_line(&givens);
        let out =
            satsudoku().args(["candidates", "--counts", "--output", "json", "-"]).write_stdin(line.clone()).output();
        let record: Value = serde_json::from_slice(&out.unwrap().stdout).unwrap();
        assert_eq!(record["exact"], true);
        assert_eq!(record["solutions"], sols.len() as u64, "{line}");
        let plain = satsudoku().args(["candidates", "--output", "json", "-"]).write_stdin(line.clone()).output();
        let plain: Value = serde_json::from_slice(&plain.unwrap().stdout).unwrap();
        for cell in 0..n * n {
            let mut expected: Vec<u64> =
                (1..=n as u32).map(|d| sols.iter().filter(|g| g[cell] == d).count() as u64).collect();
            let digits: Vec<u64> = (1..=n as u64).filter(|&d| expected[d as usize - 1] > 0).collect();
            let at = &record["cells"][cell];
            assert_eq!(at["digits"], serde_json::json!(digits), "{line} cell {cell}");
            assert_eq!(plain["cells"][cell]["digits"], serde_json::json!(digits), "{line} cell {cell}, no counts");
            expected.retain(|&k| k > 0);
            let counts: Vec<u64> = digits.iter().map(|d| at["counts"][d.to_string()].as_u64().unwrap()).collect();
            assert_eq!(counts, expected, "{line} cell {cell}");
        }
    }
}

/// Every format reads into candidates: the contest example (one solution,
/// COUNTS.tsv) gives a single digit a cell, the text grid shows them, and
/// a Takuzu's digits are 0 and 1.
#[test]
fn candidates_work_on_every_format() {
    let out = satsudoku().args(["candidates", "cnf-samples/contest.lp"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // Nine rows and two box lines; every cell one digit (no givens).
    assert_eq!(text.lines().count(), 11);
    let cells: Vec<&str> = text.split_whitespace().filter(|c| *c != "|" && !c.starts_with('-')).collect();
    assert!(cells.len() == 81 && cells.iter().all(|c| c.len() == 1), "{text}");
    for file in [
        "cnf-samples/kattis-sample.txt",
        "cnf-samples/family/killer-9x9.fpuzzles.json",
        "cnf-samples/family/jigsaw-7x7.puzzle",
        "cnf-samples/family/classic-6x6.grid",
        "cnf-samples/family/takuzu-6x6.takuzu",
    ] {
        satsudoku().args(["candidates", file]).assert().success();
    }
}

/// A search stopped by its time limit says so (exit 3; in JSON, `exact`
/// false and the undecided digits listed).
#[test]
fn a_stopped_search_is_marked() {
    let out = satsudoku()
        .args(["candidates", "--timeout", "0", "--output", "json", "-"])
        .write_stdin(".".repeat(16))
        .assert()
        .code(3);
    let record: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(record["exact"], false);
    assert_eq!(record["cells"][0]["undecided"].as_array().unwrap().len(), 4);
}

/// The text grid is for a person: columns of one width, givens in
/// brackets, box lines, and with `--counts` only the open cells listed.
/// classic-6x6.grid has 8 solutions; its 12 open cells hold 3 or 6, 4
/// solutions each (the oracle's candidates: candidates_and_counts_match_every_solution).
#[test]
fn the_candidate_grid_reads_at_a_glance() {
    let out = satsudoku().args(["candidates", "--counts", "cnf-samples/family/classic-6x6.grid"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let grid = &lines[..8];
    assert_eq!(grid.iter().filter(|l| l.contains("-+-")).count(), 2, "{text}");
    let rows: Vec<&&str> = grid.iter().filter(|l| !l.contains("-+-")).collect();
    assert!(rows.iter().all(|r| r.matches(" | ").count() == 1), "{text}");
    // Every column of cells starts at the same place in every row.
    let starts = |r: &str| {
        r.char_indices()
            .filter(|&(i, c)| c != ' ' && (i == 0 || r.as_bytes()[i - 1] == b' '))
            .map(|(i, _)| i)
            .collect::<Vec<_>>()
    };
    assert!(rows.iter().all(|r| starts(r) == starts(rows[0])), "{text}");
    let givens = std::fs::read_to_string("cnf-samples/family/classic-6x6.grid").unwrap();
    let given_count = givens
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(|l| l.chars())
        .filter(|c| c.is_ascii_digit() && *c != '0')
        .count();
    assert_eq!(text.matches('[').count(), given_count, "{text}");
    let counted = &lines[8..];
    assert_eq!(counted.len(), 12, "{text}");
    assert!(counted.iter().all(|l| l.ends_with(" 3:4 6:4")), "{text}");
}

/// Every filling of a 4x4 grid with the values 1 to 5 (ISS's `4x4~5`):
/// rows, columns and 2x2 boxes all different, the givens kept; a plain
/// backtracker in reading order.
fn five_value_fillings(givens: &[u32; 16]) -> Vec<[u32; 16]> {
    fn fill(at: usize, g: &mut [u32; 16], givens: &[u32; 16], found: &mut Vec<[u32; 16]>) {
        if at == 16 {
            found.push(*g);
            return;
        }
        let (r, c) = (at / 4, at % 4);
        for d in 1..=5 {
            if givens[at] != 0 && givens[at] != d {
                continue;
            }
            let clash = (0..at).any(|j| {
                let (r2, c2) = (j / 4, j % 4);
                g[j] == d && (r2 == r || c2 == c || (r2 / 2 == r / 2 && c2 / 2 == c / 2))
            });
            if !clash {
                g[at] = d;
                fill(at + 1, g, givens, found);
            }
        }
        g[at] = 0;
    }
    let mut found = Vec::new();
    fill(0, &mut [0; 16], givens, &mut found);
    found
}

/// On a grid of more values than its side, a cell's candidates run to the
/// last value: digits 5 were left out (and `--counts` panicked on them)
/// while the candidates went only to the side.
#[test]
fn candidates_reach_every_value_of_a_grid_of_more_values_than_its_side() {
    let mut rng = rng(91);
    for _ in 0..12 {
        let mut givens = [0u32; 16];
        let all = five_value_fillings(&givens);
        let solution = all[rng.below(all.len())];
        for _ in 0..6 {
            let at = rng.below(16);
            givens[at] = solution[at];
        }
        let sols = five_value_fillings(&givens);
        let mut iss = String::from(".Shape~4x4~5");
        for (at, &d) in givens.iter().enumerate().filter(|(_, &d)| d != 0) {
            iss.push_str(&format!(".~R{}C{}_{d}", at / 4 + 1, at % 4 + 1));
        }
        for counts in [true, false] {
            let mut args = vec!["candidates", "--format", "iss", "--output", "json", "-"];
            if counts {
                args.push("--counts");
            }
            let out = satsudoku().args(&args).write_stdin(iss.clone()).output().unwrap();
            assert!(out.status.success(), "{iss}: {}", String::from_utf8_lossy(&out.stderr));
            let record: Value = serde_json::from_slice(&out.stdout).unwrap();
            for cell in 0..16 {
                let per: Vec<usize> = (1..=5).map(|d| sols.iter().filter(|g| g[cell] == d).count()).collect();
                let digits: Vec<u64> = (1..=5).filter(|&d| per[d as usize - 1] > 0).collect();
                assert_eq!(record["cells"][cell]["digits"], serde_json::json!(digits), "{iss} cell {cell}");
                if counts {
                    for &d in &digits {
                        let k = record["cells"][cell]["counts"][d.to_string()].as_u64();
                        assert_eq!(k, Some(per[d as usize - 1] as u64), "{iss} cell {cell} digit {d}");
                    }
                }
            }
        }
    }
}
