//! Blank Sudoku grids counted by bands (`count::bands`): every grid count
//! against an independent count (the backtracking oracle, with the first
//! row fixed by relabelling) or the literature, and every total of band
//! fillings against a band enumeration written here.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

use crate::common::{count_grids, count_stats as count, stopped_within};

/// The fillings of one band: `h` rows of `n = h w` cells, every row and
/// every box of `h x w` cells holding distinct digits; by backtracking,
/// cell by cell in reading order.
fn band_fillings(h: usize, w: usize) -> u64 {
    fn fill(h: usize, w: usize, cells: &mut Vec<usize>) -> u64 {
        let n = h * w;
        let i = cells.len();
        if i == h * n {
            return 1;
        }
        let (r, c) = (i / n, i % n);
        let mut count = 0;
        for d in 1..=n {
            let clash = (0..i).any(|j| cells[j] == d && (j / n == r || (j % n) / w == c / w));
            if !clash {
                cells.push(d);
                count += fill(h, w, cells);
                cells.pop();
            }
        }
        count
    }
    fill(h, w, &mut Vec::new())
}

/// The figure after `label` in `--stats`' bands lines.
fn figure(stderr: &str, label: &str) -> String {
    let at = stderr.find(label).unwrap_or_else(|| panic!("no {label:?} in {stderr}")) + label.len();
    stderr[at..].split_whitespace().next().unwrap().to_owned()
}

/// 4x4 and 6x6 grids, both box shapes: the count by bands equals the
/// oracle's (6x6: the grids with the first row 1..6, times the 6! ways to
/// name the digits), and the band fillings equal the enumeration's.
#[test]
fn small_grids_by_bands_equal_the_oracle() {
    let first_row: Vec<u32> = (1..=6).chain(std::iter::repeat_n(0, 30)).collect();
    let six = count_grids(6, (2, 3), &first_row, &|_| true) * 720;
    assert_eq!(six, 28_200_960, "the oracle itself against OEIS A107739");
    let cases = [
        (".".repeat(16), count_grids(4, (2, 2), &[0; 16], &|_| true), band_fillings(2, 2)),
        (".".repeat(36), six, band_fillings(3, 2)),
        ("size 6\nbox 3x2\n".to_owned(), six, band_fillings(3, 2)),
    ];
    for (text, grids, fillings) in cases {
        let (stdout, stderr) = count(&text, &[]);
        assert_eq!(stdout, format!("solutions({grids}).\n"), "{text}");
        assert!(stderr.contains("method: bands"), "{stderr}");
        assert_eq!(figure(&stderr, "band fillings: "), fillings.to_string(), "{text}: {stderr}");
        // The same count without bands, by the symmetry reductions.
        let (without, stderr) = count(&text, &["--symmetry", "no-bands"]);
        assert_eq!(without, stdout, "{text}");
        assert!(!stderr.contains("method: bands"), "{stderr}");
    }
    // 2x3 boxes are counted transposed, which --symmetry no-transpose forbids.
    let (stdout, stderr) = count(&".".repeat(36), &["--symmetry", "no-transpose"]);
    assert_eq!(stdout, format!("solutions({six}).\n"));
    assert!(!stderr.contains("method: bands"), "{stderr}");
    let (_, stderr) = count("size 6\nbox 3x2\n", &["--symmetry", "no-transpose"]);
    assert!(stderr.contains("method: bands"), "{stderr}");
}

/// The literature: 9x9 grids 6,670,903,752,021,072,936,960 and 9! x 56 x
/// 6^6 = 948,109,639,680 bands (Felgenhauer & Jarvis 2005); 8x8 grids with
/// 2x4 boxes 29,136,487,207,403,520 (Russell, also reproduced by
/// `satsudoku cubes` in docs/counting-reach.md), in either orientation.
#[test]
fn nine_by_nine_and_eight_by_eight_grids_come_to_the_literature_numbers() {
    let (stdout, stderr) = count(&".".repeat(81), &[]);
    assert_eq!(stdout, "solutions(6670903752021072936960).\n");
    assert_eq!(figure(&stderr, "band fillings: "), (362_880u64 * 56 * 6u64.pow(6)).to_string(), "{stderr}");
    for text in [".".repeat(64), "size 8\nbox 4x2\n".to_owned()] {
        let (stdout, stderr) = count(&text, &[]);
        assert_eq!(stdout, "solutions(29136487207403520).\n", "{text}");
        assert!(stderr.contains("method: bands"), "{stderr}");
    }
}

/// Bands are a shortcut: --print and --max see every solution, givens and
/// other rules are not counted by bands, and --symmetry none turns them off.
#[test]
fn only_blank_sudoku_grids_are_counted_by_bands() {
    for (text, args) in [
        ("1...............", &[][..]),
        ("size 4\ndiagonal+\n", &[]),
        ("size 4\nbox none\n", &[]),
        ("................", &["--symmetry", "none"]),
    ] {
        let (_, stderr) = count(text, args);
        assert!(!stderr.contains("bands"), "{text} {args:?}: {stderr}");
    }
    // --max sees every solution: tests/it/symmetry.rs checks it enumerates.
    // 12x12 with 2x6 boxes: two bands of six rows, past the profiles.
    Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["count", "--stats", "--timeout", "0.2", "-j1"])
        .write_stdin("size 12\nbox 2x6\n")
        .assert()
        .code(3)
        .stderr(contains("method: bands").not());
}

/// 10x10 grids with 2x5 boxes, 1,903,816,047,972,624,930,994,913,280,000
/// (Pettersen 2006, OEIS A291187), from the 355 classes of digit profiles
/// (as github.com/linche89/sudoku-enumeration finds them), each band
/// counted by matchings. About 10 s in release, minutes in the debug
/// build: `.ci/run` runs it in release.
#[test]
#[ignore]
fn ten_by_ten_grids_come_to_the_literature_number() {
    let (stdout, stderr) = count("size 10\nbox 2x5\n", &[]);
    assert_eq!(stdout, "solutions(1903816047972624930994913280000).\n");
    assert!(stderr.contains("589392 multisets of digit profiles, in 355 classes"), "{stderr}");
}

/// A count by bands stops on time: 10x10 takes longer than half a second
/// (minutes in the debug build), and a timeout of half a second ends it
/// within a few (exit 3, no count).
#[test]
fn a_count_by_profiles_stops_on_time() {
    let args = ["count", "--stats", "--timeout", "0.5"];
    let (_, stderr) = stopped_within(&args, "size 10\nbox 2x5\n", std::time::Duration::from_secs(20));
    assert!(stderr.contains("method: bands"), "{stderr}");
}
