//! Counting up to digit relabelling (`count --symmetry auto`, the default):
//! on puzzles whose rules are blind to digit names the count is the same as
//! full enumeration (`--symmetry none`) and the oracle's, the 6x6 grids come
//! to the literature's 28,200,960, and puzzles with givens or digit-specific
//! rules are never reduced.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn count(text: &str, extra: &[&str]) -> (String, String) {
    let out = Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["count", "--stats"])
        .args(extra)
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// 6x6 Sudoku grids (2x3 boxes, and 3x2): 28,200,960 (Pettersen, OEIS
/// A107739), counted up to relabelling and 12 column permutations (a
/// factor of 8,640); Latin squares of order 6: 812,851,200 (OEIS A002860),
/// up to relabelling and the 5! orders of the rows below the first.
#[test]
fn six_by_six_grids_come_to_the_literature_number() {
    let (stdout, stderr) = count(&".".repeat(36), &[]);
    assert_eq!(stdout, "solutions(28200960).\n");
    assert!(stderr.contains("the count multiplied by 8640"), "{stderr}");
    let (stdout, _) = count("size 6\nbox 3x2\n", &[]);
    assert_eq!(stdout, "solutions(28200960).\n");
    let (stdout, stderr) = count("size 6\nbox none\n", &[]);
    assert_eq!(stdout, "solutions(812851200).\n");
    assert!(stderr.contains("the count multiplied by 86400"), "{stderr}");
}

/// Invariant puzzles: the same count with and without the reduction, and
/// the oracle's.
#[test]
fn reduced_counts_equal_full_enumeration_and_the_oracle() {
    let distinct = |g: &[u32], cells: &[usize]| (0..cells.len()).all(|i| (0..i).all(|j| g[cells[i]] != g[cells[j]]));
    let knight_free = |g: &[u32]| {
        (0..16).all(|a| {
            [(1i32, 2i32), (2, 1), (1, -2), (2, -1)].iter().all(|&(dr, dc)| {
                let (r, c) = (a as i32 / 4 + dr, a as i32 % 4 + dc);
                !(0..4).contains(&r) || !(0..4).contains(&c) || g[a] != g[(r * 4 + c) as usize]
            })
        })
    };
    let jigsaw = |g: &[u32]| {
        let labels: Vec<char> = "AAABBACCBBACCDBECDDDEEEED".chars().collect();
        (0..25).all(|i| (0..i).all(|j| labels[i] != labels[j] || g[i] != g[j]))
    };
    let cases: Vec<(&str, u64)> = vec![
        ("................", 288),
        (
            "size 4\ndiagonal+\ndiagonal-\n",
            common::count_grids(4, (2, 2), &[0; 16], &|g| distinct(g, &[0, 5, 10, 15]) && distinct(g, &[3, 6, 9, 12])),
        ),
        ("size 4\nbox none\n", common::count_grids(4, (1, 4), &[0; 16], &|_| true)),
        ("size 4\nbox none\nantiknight\n", common::count_grids(4, (1, 4), &[0; 16], &knight_free)),
        ("size 5\nregions\nAAABB\nACCBB\nACCDB\nECDDD\nEEEED\n", common::count_grids(5, (1, 5), &[0; 25], &jigsaw)),
        (
            "size 4\nbox none\nextra r1c1 r2c2 r3c3\n",
            common::count_grids(4, (1, 4), &[0; 16], &|g| distinct(g, &[0, 5, 10])),
        ),
    ];
    for (text, expected) in cases {
        let (reduced, stderr) = count(text, &[]);
        assert!(stderr.contains("symmetry: digit relabelling"), "{text}: {stderr}");
        let (full, stderr) = count(text, &["--symmetry", "none"]);
        assert!(!stderr.contains("symmetry"), "{stderr}");
        assert_eq!(reduced, full, "{text}");
        assert_eq!(reduced, format!("solutions({expected}).\n"), "{text}");
    }
}

/// Givens, sums, Kropki dots and other digit-specific rules keep the full count.
#[test]
fn digit_specific_rules_are_never_reduced() {
    for text in [
        "1...............",
        "size 4\nkiller r1c1 r1c2 = 3\n",
        "size 4\nwhite r1c1 r1c2\n",
        "size 4\nodd r1c1\n",
        "size 4\nthermo r1c1 r1c2\n",
    ] {
        let (_, stderr) = count(text, &[]);
        assert!(!stderr.contains("symmetry"), "{text}: {stderr}");
    }
    // --print and --max see every solution: no reduction.
    Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["count", "--stats", "--max", "5"])
        .write_stdin(".".repeat(16))
        .assert()
        .code(3)
        .stdout("solutions(5).\n")
        .stderr(contains("symmetry").not());
}
