//! Every instance in `cnf-samples/COUNTS.tsv` has its recorded count confirmed
//! by the oracle (reading the symbols with its own code) and by `satsudoku count`.

use crate::common::{contest_spec, oracle_count, Draw};
use assert_cmd::Command;

/// The symbols of a contest file in either format, read without the library.
fn symbols(text: &str) -> Vec<Vec<i8>> {
    let facts: Vec<&str> = text.lines().filter(|l| l.starts_with("row") || l.starts_with("vertical")).collect();
    if facts.is_empty() {
        return text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.trim().chars().map(|c| "<=>".find(c).unwrap() as i8 - 1).collect())
            .collect();
    }
    let mut lines: Vec<(usize, Vec<i8>)> = facts
        .iter()
        .map(|l| {
            let inner = &l[l.find('(').unwrap() + 1..l.find(')').unwrap()];
            let mut values = inner.split(',').map(|v| v.trim().parse::<i64>().unwrap());
            let line = values.next().unwrap() as usize;
            (line, values.map(|v| v as i8).collect())
        })
        .collect();
    lines.sort();
    lines.into_iter().map(|(_, s)| s).collect()
}

#[test]
fn recorded_counts_match_the_oracle_and_the_tool() {
    let index = std::fs::read_to_string("cnf-samples/COUNTS.tsv").unwrap();
    let mut seen = 0;
    for line in index.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut fields = line.split('\t');
        let (file, count) = (fields.next().unwrap(), fields.next().unwrap());
        let path = format!("cnf-samples/{file}");
        let text = std::fs::read_to_string(&path).unwrap();
        let oracle = oracle_count(&contest_spec(&symbols(&text)), u64::MAX);
        assert_eq!(oracle.to_string(), count, "oracle on {file}");
        for args in [&[][..], &["--jobs", "2", "--engine", "enum"], &["--jobs", "2", "--engine", "blocking"]] {
            Command::cargo_bin("satsudoku")
                .unwrap()
                .args(["count", &path])
                .args(args)
                .assert()
                .success()
                .stdout(format!("solutions({count}).\n"));
        }
        seen += 1;
    }
    assert!(seen >= 5);
}

/// A batch of the samples, each three times in a shuffled order, prints one
/// line per file in the order given, with the oracle's count, whether the
/// files are counted one after another or on several threads.
#[test]
fn a_batch_prints_the_oracle_counts_in_file_order_on_any_number_of_threads() {
    let index = std::fs::read_to_string("cnf-samples/COUNTS.tsv").unwrap();
    let mut files = Vec::new();
    for line in index.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let file = format!("cnf-samples/{}", line.split('\t').next().unwrap());
        let oracle = oracle_count(&contest_spec(&symbols(&std::fs::read_to_string(&file).unwrap())), u64::MAX);
        files.extend(std::iter::repeat_n((file, oracle), 3));
    }
    crate::common::rng(7).shuffle(&mut files);
    let expected: String = files.iter().map(|(file, count)| format!("{file}\tsolutions({count}).\n")).collect();
    let names: Vec<&str> = files.iter().map(|(file, _)| file.as_str()).collect();
    for args in [&[][..], &["--jobs", "1"], &["--jobs", "2"], &["--jobs", "3", "--engine", "blocking"]] {
        Command::cargo_bin("satsudoku")
            .unwrap()
            .arg("count")
            .args(&names)
            .args(args)
            .assert()
            .success()
            .stdout(expected.clone());
    }
}

/// The benchmark's instances with many solutions (bench/instances/high): the
/// count in each file's header comment, from the generator, is confirmed by
/// the oracle and by `satsudoku count` (default engine, and blocking where
/// that takes seconds rather than minutes in a debug build). Above 10,000
/// solutions the oracle takes minutes; those counts are confirmed by the
/// peers in bench/peers.py instead (clingo, GNU Prolog, ganak, the C floor).
#[test]
fn benchmark_instances_with_many_solutions_have_their_recorded_counts() {
    let mut seen = 0;
    for entry in std::fs::read_dir("bench/instances/high").unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let header = text.lines().next().unwrap();
        let recorded: u64 = header.rsplit(": ").next().unwrap().trim_end_matches(" solutions").parse().unwrap();
        if recorded > 10_000 {
            continue;
        }
        assert_eq!(oracle_count(&contest_spec(&symbols(&text)), u64::MAX), recorded, "oracle on {}", path.display());
        let engines: &[&[&str]] = if recorded < 3000 { &[&[], &["--engine", "blocking"]] } else { &[&[]] };
        for args in engines {
            Command::cargo_bin("satsudoku")
                .unwrap()
                .arg("count")
                .arg(&path)
                .args(*args)
                .assert()
                .success()
                .stdout(format!("solutions({recorded}).\n"));
        }
        seen += 1;
    }
    assert!(seen >= 3);
}
