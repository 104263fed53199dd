//! Takuzu (Binairo): the counts of OEIS A253316 (full grids: 2, 72, 4,140,
//! 4,111,116) and random puzzles with givens against an enumeration of the
//! grids row by row, written here without the library.

use crate::common::{rng, satsudoku, Draw};
use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn count(text: &str, extra: &[&str]) -> String {
    let out = Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["count", "--format", "takuzu"])
        .args(extra)
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn blank(n: usize) -> String {
    format!("{}\n", ".".repeat(n)).repeat(n)
}

/// The rows of length `n` that keep a line's rules: as many 1s as 0s, no
/// three equal in a row. Bit `k` is cell `k`.
fn valid_lines(n: usize) -> Vec<u32> {
    (0..1u32 << n)
        .filter(|&v| {
            v.count_ones() as usize * 2 == n && (0..n.saturating_sub(2)).all(|k| (v >> k & 7) != 0 && (v >> k & 7) != 7)
        })
        .collect()
}

/// Grids of valid rows whose columns are valid too, agreeing with `givens`
/// (-1 blank), with all rows and all columns distinct if `distinct`.
fn oracle(n: usize, givens: &[i8], distinct: bool) -> u64 {
    let lines = valid_lines(n);
    let fits = |r: usize, row: u32| (0..n).all(|c| givens[r * n + c] < 0 || givens[r * n + c] as u32 == row >> c & 1);
    fn fill(
        n: usize,
        r: usize,
        rows: &mut Vec<u32>,
        lines: &[u32],
        fits: &dyn Fn(usize, u32) -> bool,
        distinct: bool,
    ) -> u64 {
        if r == n {
            let cols: Vec<u32> = (0..n).map(|c| (0..n).fold(0, |v, r| v | (rows[r] >> c & 1) << r)).collect();
            let ok = cols.iter().all(|col| lines.contains(col));
            let unique = |v: &[u32]| (0..v.len()).all(|i| (0..i).all(|j| v[i] != v[j]));
            return u64::from(ok && (!distinct || (unique(rows) && unique(&cols))));
        }
        let mut count = 0;
        for &row in lines {
            if fits(r, row) {
                rows.push(row);
                count += fill(n, r + 1, rows, lines, fits, distinct);
                rows.pop();
            }
        }
        count
    }
    fill(n, 0, &mut Vec::new(), &lines, &fits, distinct)
}

#[test]
fn full_grids_match_oeis_a253316() {
    assert_eq!(count(&blank(2), &[]), "solutions(2).\n");
    assert_eq!(count(&blank(4), &[]), "solutions(72).\n");
    assert_eq!(count(&blank(6), &[]), "solutions(4140).\n");
    assert_eq!([2, 4, 6].map(|n| oracle(n, &vec![-1; n * n], true)), [2, 72, 4140]);
}

/// Takuzu's rules are blind to swapping 0 and 1 (proven from the rules by
/// `count::symmetry`), so a blank grid is counted with its first cell fixed
/// and doubled; the count is full enumeration's and the oracle's, under
/// both rule sets. A given breaks the symmetry.
#[test]
fn the_complement_symmetry_halves_the_search_and_keeps_the_count() {
    for (n, distinct) in [(4, true), (6, true), (4, false), (6, false)] {
        let rules: &[&str] = if distinct { &[] } else { &["--takuzu-rules", "no-distinct"] };
        let stats = Command::cargo_bin("satsudoku")
            .unwrap()
            .args(["count", "--format", "takuzu", "--stats"])
            .args(rules)
            .write_stdin(blank(n))
            .output()
            .unwrap();
        let stderr = String::from_utf8(stats.stderr).unwrap();
        assert!(stderr.contains("fixed r1c1=1, the count multiplied by 2"), "{stderr}");
        let reduced = String::from_utf8(stats.stdout).unwrap();
        let full = count(&blank(n), &[rules, &["--symmetry", "none"]].concat());
        assert_eq!(reduced, full);
        assert_eq!(reduced, format!("solutions({}).\n", oracle(n, &vec![-1; n * n], distinct)));
    }
    let given = Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["count", "--format", "takuzu", "--stats"])
        .write_stdin(format!("0{}\n{}", ".".repeat(5), blank(6).split_once('\n').unwrap().1))
        .output()
        .unwrap();
    assert!(!String::from_utf8(given.stderr).unwrap().contains("symmetry"));
}

/// Counted a row at a time (`count::lines`), the 8x8 grids take well under
/// a second; enumerating them (`--engine enum`) takes about 20 s in a
/// release build.
#[test]
fn the_8x8_count_matches_oeis_a253316() {
    assert_eq!(count(&blank(8), &[]), "solutions(4111116).\n");
    assert_eq!(count(&blank(8), &["--symmetry", "none"]), "solutions(4111116).\n");
}

/// A count by rows that runs out of time says so, prints no count (rows
/// give no partial count: `solutions_unknown.`, once `solutions(0).`, which
/// reads as "no solution") and exits 3.
#[test]
fn a_timeout_stops_the_count_by_rows() {
    Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["count", "--format", "takuzu", "--timeout", "0.05"])
        .write_stdin(blank(10))
        .assert()
        .code(3)
        .stdout("solutions_unknown.\n")
        .stderr(contains("stopped by --timeout").and(contains("counting by rows gives no partial count")));
}

/// The 10x10 count, 48,183,195,384 (OEIS A253316): about 40 s and 2.2 GB
/// on two cores, too long for every `cargo test`; `.ci/run` runs it.
#[test]
#[ignore]
fn the_10x10_count_matches_oeis_a253316() {
    assert_eq!(count(&blank(10), &[]), "solutions(48183195384).\n");
}

/// Random 4x4 and 6x6 puzzles, some givens of a random valid grid shown,
/// under both rule sets.
#[test]
fn random_puzzles_match_the_oracle() {
    let mut rng = rng(71);
    for i in 0..40 {
        let n = if i % 2 == 0 { 4 } else { 6 };
        let lines = valid_lines(n);
        let mut givens = vec![-1i8; n * n];
        for _ in 0..rng.below(n * n / 2) {
            let (r, c) = (rng.below(n), rng.below(n));
            givens[r * n + c] = (lines[rng.below(lines.len())] >> c & 1) as i8;
        }
        let text: String = givens
            .chunks(n)
            .map(|row| {
                row.iter().map(|&g| if g < 0 { '.' } else { char::from(b'0' + g as u8) }).collect::<String>() + "\n"
            })
            .collect();
        // Counted a row at a time (the default), and enumerated.
        for (distinct, rules) in [(true, &[][..]), (false, &["--takuzu-rules", "no-distinct"][..])] {
            let expected = format!("solutions({}).\n", oracle(n, &givens, distinct));
            for engine in [&[][..], &["--engine", "enum"]] {
                let extra = [rules, engine].concat();
                assert_eq!(count(&text, &extra), expected, "{text} {extra:?}");
            }
        }
    }
}

#[test]
fn solutions_print_as_rows_of_0_and_1() {
    let out = Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["count", "--print", "cnf-samples/family/takuzu-6x6.takuzu"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = stdout.lines().filter(|l| !l.starts_with('%') && !l.starts_with("solutions")).collect();
    assert_eq!(rows.len(), 6, "{stdout}");
    assert!(rows.iter().all(|r| r.len() == 6 && r.chars().all(|c| c == '0' || c == '1')), "{stdout}");
}

#[test]
fn rejects_an_odd_side_and_other_symbols() {
    let reject = |text: &str, message: &str| {
        Command::cargo_bin("satsudoku")
            .unwrap()
            .args(["count", "--format", "takuzu"])
            .write_stdin(text.to_owned())
            .assert()
            .code(2)
            .stderr(contains(message.to_owned()));
    };
    reject("...\n...\n...\n", "<stdin>:1:1: a Takuzu grid has an even side (2 to 64), found 3 rows");
    reject("01\n2.\n", "<stdin>:2:1: expected 0, 1 or '.', found \"2\"");
    reject("01\n0\n", "<stdin>:2:1: expected 2 cells in the row (as many as rows), found 1");
}

/// 8x8 puzzles with a third to a half of a valid grid's cells given: the
/// count by rows (the default) and full enumeration (`--engine enum`),
/// two separate algorithms, agree under both rule sets.
#[test]
fn counting_by_rows_agrees_with_enumeration_on_8x8_puzzles() {
    let mut rng = rng(88);
    // A valid grid (rows and columns balanced, no triples, all distinct).
    let grid = "01011010 11001100 00110011 10110100 01001011 10010011 10101100 01100101";
    let cells: Vec<char> = grid.chars().filter(|c| !c.is_whitespace()).collect();
    for _ in 0..12 {
        let shown = 20 + rng.below(12);
        let mut text: Vec<char> = vec!['.'; 64];
        for _ in 0..shown {
            let at = rng.below(64);
            text[at] = cells[at];
        }
        let text: String = text.chunks(8).map(|row| row.iter().collect::<String>() + "\n").collect();
        for rules in [&[][..], &["--takuzu-rules", "no-distinct"]] {
            let enumerated = count(&text, &[rules, &["--engine", "enum"]].concat());
            assert_eq!(count(&text, rules), enumerated, "{text} {rules:?}");
        }
    }
}

/// `generate` on a blank 6x6 Takuzu writes Takuzu grids back, each with
/// exactly one solution by the oracle and no given that can go; `rate`
/// rates them and `minimal` says `minimal` (issue 37).
#[test]
fn generated_takuzu_puzzles_are_unique_and_minimal_by_the_oracle() {
    let out = satsudoku()
        .args(["generate", "--format", "takuzu", "-n", "5", "--seed", "6", "-"])
        .write_stdin(blank(6))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    // One after another, separated by `---` lines.
    let puzzles: Vec<&str> = text.split("---\n").map(str::trim).collect();
    assert_eq!(puzzles.len(), 5, "{text}");
    // The whole output reads back as a collection (`--format takuzu`: a
    // grid of 0, 1 and blanks reads as a grid too), each grid labelled
    // with its first row's line.
    let unique = satsudoku().args(["unique", "--format", "takuzu", "-"]).write_stdin(text.clone()).output().unwrap();
    let labels: Vec<String> = String::from_utf8_lossy(&unique.stdout)
        .lines()
        .map(|l| l.split('\t').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    let firsts = text.lines().enumerate().filter(|&(i, _)| i == 0 || text.lines().nth(i - 1) == Some("---"));
    let expected: Vec<String> = firsts.map(|(i, _)| format!("{} unique", i + 1)).collect();
    assert_eq!(labels, expected, "{}", String::from_utf8_lossy(&unique.stderr));
    for puzzle in puzzles {
        let givens: Vec<i8> = puzzle
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                '0' => 0,
                '1' => 1,
                _ => -1,
            })
            .collect();
        assert_eq!(oracle(6, &givens, true), 1, "{puzzle}");
        for i in (0..36).filter(|&i| givens[i] >= 0) {
            let mut fewer = givens.clone();
            fewer[i] = -1;
            assert!(oracle(6, &fewer, true) > 1, "not minimal: {puzzle}");
        }
        let minimal = satsudoku().args(["minimal", "--format", "takuzu", "-"]).write_stdin(puzzle).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&minimal.stdout), "minimal\n");
        let rate = satsudoku().args(["rate", "--format", "takuzu", "-"]).write_stdin(puzzle).output().unwrap();
        assert_eq!(rate.status.code(), Some(0));
    }
}

/// A Takuzu file of grids separated by `---` lines is a collection: each
/// grid counted on its own (2x2: 2 grids, 4x4: 72; OEIS A253316), an
/// error placed in the whole file, the run exiting 2 at the end.
#[test]
fn takuzu_grids_separated_by_lines_are_a_collection() {
    satsudoku()
        .args(["count", "--format", "takuzu", "-"])
        .write_stdin("..\n..\n---\n....\n....\n....\n....\n---  # a bad one\n..\n.2\n")
        .assert()
        .code(2)
        .stdout("1\tsolutions(2).\n4\tsolutions(72).\n")
        .stderr(contains("<stdin>:10:2: expected 0, 1 or '.', found \"2\""));
}
