//! One puzzle, every path: a file alone, with `--stats` and `--timeout`, in
//! a batch, as a collection's lines, with `--print`, through `unique`, and
//! split into cubes, counted and summed. The counting plan decides the
//! method in one place, so every path reports the same count and (but for
//! `--print`, which must enumerate every solution to show it) the same
//! method. One puzzle for each method the plan has, each count checked
//! against an oracle of its own.

use std::path::Path;

use serde_json::Value;

use crate::common::satsudoku;
use crate::common::{count_grids, rectangles, rectangles_text};

/// A case: a file, its count by an independent oracle, the method the plan
/// takes, and whether it is a `givens` line (then it can be a
/// collection's line too).
struct Case {
    file: std::path::PathBuf,
    count: u64,
    method: &'static str,
    givens_line: Option<String>,
    /// Options that say how to read it.
    reading: &'static [&'static str],
}

/// `count --output json` on `args`: each record's count (as text) and method.
fn json_counts(args: &[&str]) -> Vec<(String, String)> {
    let out = satsudoku().args(["count", "--output", "json"]).args(args).output().unwrap();
    assert!(matches!(out.status.code(), Some(0)), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let record: Value = serde_json::from_str(line).unwrap();
            assert_eq!(record["exact"], true, "{line}");
            (record["count"].to_string().trim_matches('"').to_owned(), record["method"].as_str().unwrap().to_owned())
        })
        .collect()
}

fn cases(dir: &Path) -> Vec<Case> {
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    // 12 open rectangles in a 16x16 grid: the backtracking oracle's count.
    let (grid, _) = rectangles(12);
    let rectangles_line = rectangles_text(&grid);
    vec![
        // COUNTS.tsv's 117, which tests/it/samples.rs checks with the oracle.
        Case { file: "cnf-samples/many.lp".into(), count: 117, method: "enumeration", givens_line: None, reading: &[] },
        Case {
            file: write("rectangles.txt", &rectangles_line),
            count: count_grids(16, (4, 4), &grid, &|_| true),
            method: "parts",
            givens_line: Some(rectangles_line.trim().to_owned()),
            reading: &[],
        },
        // 4x4 grids: 288 (the literature; the oracle in tests/it/family.rs).
        Case {
            file: write("empty-4x4.txt", &".".repeat(16)),
            count: count_grids(4, (2, 2), &[0; 16], &|_| true),
            method: "bands",
            givens_line: Some(".".repeat(16)),
            reading: &[],
        },
        // Latin squares of order 4: 576 (the same oracle, without boxes).
        Case {
            file: write("latin-4.puzzle", "size 4\nbox none\n"),
            count: count_grids(4, (1, 4), &[0; 16], &|_| true),
            method: "transposition",
            givens_line: None,
            reading: &[],
        },
        // Blank 6x6 Takuzu: 4,140 (OEIS A253316).
        Case {
            file: write("takuzu-6.txt", &"......\n".repeat(6)),
            count: 4140,
            method: "takuzu-rows",
            givens_line: None,
            reading: &["--format", "takuzu"],
        },
    ]
}

#[test]
fn every_path_gives_one_puzzle_the_same_count_and_method() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases(dir.path()) {
        let file: &'static str = case.file.to_str().unwrap().to_owned().leak();
        let expected = (case.count.to_string(), case.method.to_owned());
        let with = |args: &[&'static str]| [case.reading, args].concat();
        // A file alone, and with the options that once changed the method.
        assert_eq!(json_counts(&with(&[file])), vec![expected.clone()], "{file} alone");
        let stats = satsudoku().args(["count", "--stats", file]).args(case.reading).output().unwrap();
        assert!(String::from_utf8_lossy(&stats.stderr).contains(&format!("method: {}", case.method)), "{file}");
        let timed = json_counts(&with(&[file, "--stats", "--timeout", "600"]));
        assert_eq!(timed, vec![expected.clone()], "{file} --stats --timeout");
        assert_eq!(json_counts(&with(&[file, "-j", "1"])), vec![expected.clone()], "{file} -j 1");
        // In a batch, counted in parallel with another file.
        let batch = json_counts(&with(&[file, file]));
        assert_eq!(batch, [expected.clone(), expected.clone()], "{file} in a batch");
        // A collection's lines.
        if let Some(line) = &case.givens_line {
            let collection = dir.path().join("collection.txt");
            std::fs::write(&collection, format!("{line}\n# a comment\n{line}\n")).unwrap();
            let lines = json_counts(&[collection.to_str().unwrap()]);
            assert_eq!(lines, [expected.clone(), expected.clone()], "{file} as a collection");
        }
        // --print enumerates every solution (the method it must take) and
        // prints them before the same count.
        let printed = satsudoku().args(["count", "--print", file]).args(case.reading).output().unwrap();
        let stdout = String::from_utf8(printed.stdout).unwrap();
        assert!(stdout.ends_with(&format!("solutions({}).\n", case.count)), "{file} --print");
        assert_eq!(stdout.matches("% solution ").count() as u64, case.count, "{file} --print");
        // unique: several solutions.
        let judged = satsudoku().args(["unique", "--output", "json", file]).args(case.reading).output().unwrap();
        let verdict: Value = serde_json::from_slice(&judged.stdout).unwrap();
        assert_eq!(verdict["verdict"], "multiple", "{file} unique");
        // Cubes, each counted by `count --cube`, and summed.
        let cubes = dir.path().join(format!("cubes-{}", case.method));
        satsudoku().args(["cubes", file, "--count", "6", "-o"]).arg(&cubes).args(case.reading).assert().success();
        for entry in std::fs::read_dir(&cubes).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "cube") {
                satsudoku().args(["count", "-j1", "--cube"]).arg(&path).assert().success();
            }
        }
        let sum = satsudoku().arg("sum").arg(&cubes).output().unwrap();
        assert_eq!(String::from_utf8(sum.stdout).unwrap(), format!("solutions({}).\n", case.count), "{file} cubes");
    }
}
