//! Cross-checks with external tools: minisat solves exported CNF and its model
//! decodes to the known solution; ganak (pyganak) counts every bundled sample
//! and agrees with the recorded counts. In CI (CI=true) a missing tool fails;
//! elsewhere the test is skipped with a `SKIPPED` line naming the tool,
//! written past the test harness's capture so that a plain `cargo test`
//! shows it (`scripts/install-tools.sh` installs both tools).

use std::io::Write;
use std::path::Path;
use std::process::Command as Process;

use assert_cmd::Command;
use satsudoku::count::plan::{Counter, Plan};
use satsudoku::encode::Encoding;
use satsudoku::parse::{parse, Format};

/// A tool a cross-check needs, and how to tell whether it is installed.
#[derive(Clone, Copy)]
enum Tool {
    Minisat,
    Pyganak,
    /// Node, to run sigh's Interactive Sudoku Solver (../shared/peers/iss).
    Node,
}

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::Minisat => "minisat",
            Tool::Pyganak => "pyganak (the python3 module)",
            Tool::Node => "node",
        }
    }

    fn installed(self) -> bool {
        match self {
            Tool::Minisat => std::env::var_os("PATH")
                .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("minisat").is_file())),
            Tool::Pyganak => {
                Process::new("python3").args(["-c", "import pyganak"]).output().is_ok_and(|o| o.status.success())
            }
            Tool::Node => Process::new("node").arg("--version").output().is_ok_and(|o| o.status.success()),
        }
    }
}

/// Whether `tool` is installed. If not: a failure in CI, elsewhere a
/// SKIPPED line on the process's stderr (not `eprintln!`, which the
/// harness captures and shows only for failing tests).
fn available(tool: Tool, test: &str) -> bool {
    let found = tool.installed();
    if !found {
        let message = format!("{} is not installed (scripts/install-tools.sh installs it)", tool.name());
        assert!(std::env::var_os("CI").is_none(), "CI must run the external cross-check: {message}");
        let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {message}");
    }
    found
}

fn export(input: &str, out: &Path, extra: &[&str]) {
    Command::cargo_bin("satsudoku").unwrap().args(["export", input, "-o"]).arg(out).args(extra).assert().success();
}

/// `cnf-samples/COUNTS.tsv`: file, count (checked against the oracle in tests/samples.rs).
fn recorded_counts() -> Vec<(String, u128)> {
    std::fs::read_to_string("cnf-samples/COUNTS.tsv")
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            (f.next().unwrap().to_owned(), f.next().unwrap().parse().unwrap())
        })
        .collect()
}

/// ganak's count of `cnf` (`scripts/ganak_count.py`, which must succeed):
/// the count the script prints last (ganak itself may print `c o ...`
/// lines first).
fn ganak_count(cnf: impl AsRef<Path>) -> u128 {
    let out = Process::new("python3").arg("scripts/ganak_count.py").arg(cnf.as_ref()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    last.trim().parse().unwrap_or_else(|_| panic!("no count in ganak's output: {text:?}"))
}

#[test]
fn ganak_counts_every_sample_like_satsudoku() {
    if !available(Tool::Pyganak, "ganak_counts_every_sample_like_satsudoku") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (file, expected) in recorded_counts() {
        for dialect in ["mcc", "ind", "plain"] {
            let cnf = dir.path().join(format!("{file}.{dialect}.cnf"));
            export(&format!("cnf-samples/{file}"), &cnf, &["--dialect", dialect]);
            assert_eq!(ganak_count(&cnf), expected, "ganak on {file} ({dialect})");
        }
    }
}

#[test]
fn ganak_counts_the_committed_cnf_files() {
    if !available(Tool::Pyganak, "ganak_counts_the_committed_cnf_files") {
        return;
    }
    for (file, expected) in recorded_counts() {
        let cnf = format!("cnf-samples/{}.cnf", file.rsplit_once('.').unwrap().0);
        if !Path::new(&cnf).exists() {
            continue;
        }
        assert_eq!(ganak_count(&cnf), expected, "ganak on {cnf}");
    }
}

#[test]
fn minisat_model_decodes_to_the_known_solution() {
    if !available(Tool::Minisat, "minisat_model_decodes_to_the_known_solution") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("contest.cnf");
    let model = dir.path().join("contest.model");
    export("cnf-samples/contest.lp", &cnf, &["--dialect", "plain"]);
    // minisat exits 10 for SAT, 20 for UNSAT.
    let status = Process::new("minisat").arg("-verb=0").arg(&cnf).arg(&model).status().unwrap();
    assert_eq!(status.code(), Some(10));
    Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["decode", "cnf-samples/contest.lp"])
        .arg(&model)
        .assert()
        .success()
        .stdout("5 3 7 8 2 1 6 4 9\n9 6 4 5 3 7 8 2 1\n8 1 2 9 4 6 7 3 5\n6 4 5 3 7 8 1 9 2\n7 8 1 4 9 2 5 6 3\n3 2 9 6 1 5 4 7 8\n2 7 8 1 6 9 3 5 4\n1 9 3 7 5 4 2 8 6\n4 5 6 2 8 3 9 1 7\n");
}

#[test]
fn minisat_finds_no_model_of_the_zero_sample() {
    if !available(Tool::Minisat, "minisat_finds_no_model_of_the_zero_sample") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("zero.cnf");
    export("cnf-samples/zero.lp", &cnf, &["--dialect", "plain"]);
    let status = Process::new("minisat").arg("-verb=0").arg(&cnf).status().unwrap();
    assert_eq!(status.code(), Some(20));
}

/// With auxiliary variables in the CNF, the declared projection keeps ganak's
/// count equal to the puzzle's, in both projection dialects.
#[test]
fn ganak_projected_count_ignores_auxiliary_variables() {
    if !available(Tool::Pyganak, "ganak_projected_count_ignores_auxiliary_variables") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases = [("contest.lp", 1, &["sequential", "commander", "bitwise"][..]), ("many.lp", 117, &["bitwise"][..])];
    for (file, expected, amos) in cases {
        for &amo in amos {
            for dialect in ["mcc", "ind"] {
                let cnf = dir.path().join(format!("{file}.{amo}.{dialect}.cnf"));
                export(&format!("cnf-samples/{file}"), &cnf, &["--amo", amo, "--dialect", dialect]);
                let text = std::fs::read_to_string(&cnf).unwrap();
                let header = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
                let vars: usize = header.split_whitespace().nth(2).unwrap().parse().unwrap();
                assert!(vars > 729, "{amo} adds auxiliary variables");
                assert_eq!(ganak_count(&cnf), expected, "ganak on {file} with {amo} ({dialect})");
            }
        }
    }
}

/// Order and log digits change what the primary variables are: ganak's
/// projected count on them is still the puzzle's count, and a minisat model
/// of the log CNF decodes (with the same options) to the published grid.
#[test]
fn integer_digit_encodings_count_and_decode_externally() {
    let dir = tempfile::tempdir().unwrap();
    if available(Tool::Pyganak, "integer_digit_encodings_count_and_decode_externally") {
        for digits in ["order", "log"] {
            let cnf = dir.path().join(format!("many.{digits}.cnf"));
            export("cnf-samples/many.lp", &cnf, &["--digits", digits]);
            assert_eq!(ganak_count(&cnf), 117, "ganak on many.lp with {digits} digits");
        }
    }
    if available(Tool::Minisat, "integer_digit_encodings_count_and_decode_externally") {
        let (cnf, model) = (dir.path().join("contest.log.cnf"), dir.path().join("contest.log.model"));
        export("cnf-samples/contest.lp", &cnf, &["--digits", "log", "--dialect", "plain"]);
        let status = Process::new("minisat").arg("-verb=0").arg(&cnf).arg(&model).status().unwrap();
        assert_eq!(status.code(), Some(10));
        let decoded = Command::cargo_bin("satsudoku")
            .unwrap()
            .args(["decode", "cnf-samples/contest.lp", "--digits", "log"])
            .arg(&model)
            .assert()
            .success();
        let grid = String::from_utf8(decoded.get_output().stdout.clone()).unwrap();
        assert!(grid.starts_with("5 3 7 8 2 1 6 4 9\n"), "{grid}");
    }
}

/// The SKIPPED line reaches a plain `cargo test` run: this test runs one
/// cross-check of this very binary with no minisat on PATH and outside
/// CI, without `--nocapture`, and reads the line in what it printed.
#[test]
fn a_skipped_cross_check_says_so_and_names_the_tool() {
    let me = std::env::current_exe().unwrap();
    let out = Process::new(me)
        .args(["--exact", "external::minisat_finds_no_model_of_the_zero_sample"])
        .env("PATH", "/nonexistent")
        .env_remove("CI")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("SKIPPED minisat_finds_no_model_of_the_zero_sample: minisat is not installed"), "{stderr}");
}

/// The family samples (classic, 16x16, jigsaw, killer, variants): ganak's
/// count of each export, projected on the primary variables (killer cages
/// and arrows add auxiliary ones), equals the recorded count.
#[test]
fn ganak_counts_the_family_samples_like_satsudoku() {
    if !available(Tool::Pyganak, "ganak_counts_the_family_samples_like_satsudoku") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let index = std::fs::read_to_string("cnf-samples/family/COUNTS.tsv").unwrap();
    for line in index.lines().filter(|l| !l.starts_with('#')) {
        let (file, expected) = line.split_once('\t').unwrap();
        let cnf = dir.path().join(format!("{file}.cnf"));
        export(&format!("cnf-samples/family/{file}"), &cnf, &[]);
        assert_eq!(ganak_count(&cnf), expected.parse::<u128>().unwrap(), "ganak on {file}");
    }
}

/// minisat solves the export of a family puzzle and `decode` prints the
/// model in the puzzle's own shape: letters on 16x16, 0 and 1 for Takuzu,
/// with the checker's verdict on stderr.
#[test]
fn minisat_models_of_family_puzzles_decode_in_their_shape() {
    if !available(Tool::Minisat, "minisat_models_of_family_puzzles_decode_in_their_shape") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (file, check) in [
        (
            "classic-16x16.txt",
            (|row: &str| row.split(' ').count() == 16 && row.chars().any(|c| c.is_ascii_uppercase()))
                as fn(&str) -> bool,
        ),
        ("takuzu-6x6.takuzu", |row: &str| row.len() == 6 && row.chars().all(|c| c == '0' || c == '1')),
        ("killer-9x9.puzzle", |row: &str| row.split(' ').count() == 9),
    ] {
        let (cnf, model) = (dir.path().join(format!("{file}.cnf")), dir.path().join(format!("{file}.model")));
        let puzzle = format!("cnf-samples/family/{file}");
        export(&puzzle, &cnf, &["--dialect", "plain"]);
        let status = Process::new("minisat").arg("-verb=0").arg(&cnf).arg(&model).status().unwrap();
        assert_eq!(status.code(), Some(10), "{file}");
        let out = Command::cargo_bin("satsudoku").unwrap().args(["decode", &puzzle]).arg(&model).assert().success();
        let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(stdout.lines().count() > 1 && stdout.lines().all(check), "{file}: {stdout}");
        assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("the model solves the puzzle"));
    }
}

/// sigh's Interactive Sudoku Solver, run headless (../shared/peers/iss),
/// counts every family sample satsudoku exports as an ISS string, and the
/// first published variant puzzles, as satsudoku does: the string means
/// the same puzzle to ISS.
#[test]
fn iss_counts_the_exported_strings_like_satsudoku() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases: Vec<(String, String)> = Vec::new();
    let index = std::fs::read_to_string("cnf-samples/family/COUNTS.tsv").unwrap();
    for line in index.lines().filter(|l| !l.starts_with('#')) {
        let (file, expected) = line.split_once('\t').unwrap();
        cases.push((format!("cnf-samples/family/{file}"), expected.to_owned()));
    }
    let variants: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("tests/corpus/variants/puzzles.json").unwrap()).unwrap();
    for (i, entry) in variants.as_array().unwrap().iter().take(12).enumerate() {
        let path = dir.path().join(format!("variant-{i}.txt"));
        std::fs::write(&path, entry["puzzle"].as_str().unwrap()).unwrap();
        cases.push((path.to_str().unwrap().to_owned(), "1".to_owned()));
    }
    let mut written = Vec::new();
    for (input, expected) in cases {
        let out = Command::cargo_bin("satsudoku").unwrap().args(["export", "--as", "iss", &input]).output().unwrap();
        if !out.status.success() {
            continue; // a rule ISS has no type for (Takuzu): refused by name, tested in iss.rs
        }
        written.push((input, expected, String::from_utf8(out.stdout).unwrap()));
    }
    assert!(written.len() >= 20, "{} exported", written.len());
    let strings: Vec<&str> = written.iter().map(|(_, _, string)| string.as_str()).collect();
    let Some(counts) = iss_counts("iss_counts_the_exported_strings_like_satsudoku", &strings) else { return };
    for ((input, expected, _), count) in written.iter().zip(counts) {
        assert_eq!(&count, expected, "ISS on the export of {input}");
    }
}

/// ISS's counts (`run_iss.mjs --limit 0`, ../shared/peers/iss) of the
/// constraint strings, in order; `None` when node or the peer is missing
/// (after [`available`]'s SKIPPED line, or its failure in CI).
fn iss_counts(test: &str, strings: &[&str]) -> Option<Vec<String>> {
    let run_iss = Path::new("../shared/peers/iss/run_iss.mjs");
    if !available(Tool::Node, test) || !run_iss.is_file() {
        return None;
    }
    // run_iss.mjs runs only when node is given its real path (it compares
    // it with its own URL to know it is the main module): CI reaches
    // ../shared through a link.
    let run_iss = std::fs::canonicalize(run_iss).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list.json");
    let entries: Vec<_> = strings.iter().map(|string| serde_json::json!({ "iss": string })).collect();
    std::fs::write(&list, serde_json::to_string(&entries).unwrap()).unwrap();
    let iss =
        Process::new("node").arg(&run_iss).arg(&list).args(["--limit", "0", "--timeout", "120"]).output().unwrap();
    let text = String::from_utf8_lossy(&iss.stdout);
    // A header, a row per string (index, name, verdict, count, ...), `#` lines.
    let rows: Vec<&str> = text.lines().skip(1).filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), strings.len(), "ISS: {text}\n{}", String::from_utf8_lossy(&iss.stderr));
    Some(rows.iter().map(|row| row.split('\t').nth(3).unwrap_or_else(|| panic!("ISS: {row}")).to_owned()).collect())
}

/// ISS's own examples with one rule taken away
/// (`tests/corpus/iss/without-one-rule.tsv`: 32 of them, chosen to cover
/// 60 rule types, each left with 2 to 1,109 solutions): ISS, run headless,
/// counts each as satsudoku does. The counts of many solutions on every
/// kind of rule, where the examples themselves have one. Without node the
/// counts recorded from ISS are the oracle.
#[test]
fn iss_counts_its_examples_without_one_rule_like_satsudoku() {
    let examples: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("tests/corpus/iss/examples.json").unwrap()).unwrap();
    let cases: Vec<(String, u64)> = std::fs::read_to_string("tests/corpus/iss/without-one-rule.tsv")
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let [name, rule, count] = line.split('\t').collect::<Vec<_>>()[..] else { panic!("{line}") };
            let entry = examples.as_array().unwrap().iter().find(|e| e["name"] == name).unwrap();
            let input = entry["input"].as_str().unwrap();
            assert_eq!(input.matches(rule).count(), 1, "{name}: {rule}");
            (input.replacen(rule, "", 1), count.parse().unwrap())
        })
        .collect();
    assert_eq!(cases.len(), 32);
    let mut counter = Counter::new(Plan::new(Encoding::default()));
    for (text, expected) in &cases {
        let puzzle = parse(text, "t", Some(Format::Iss)).unwrap();
        let tally = counter.count(&puzzle, &mut ()).unwrap();
        assert_eq!(tally.count, (*expected).into(), "{text}");
    }
    let strings: Vec<&str> = cases.iter().map(|(text, _)| text.as_str()).collect();
    let Some(counts) = iss_counts("iss_counts_its_examples_without_one_rule_like_satsudoku", &strings) else { return };
    for ((text, expected), count) in cases.iter().zip(counts) {
        assert_eq!(count, expected.to_string(), "ISS on {text}");
    }
}

/// A chaos construction's CNF needs no projection: every auxiliary
/// variable (reachability, counters, the digit-and-label literals) is
/// fixed by the digits and labels, so ganak's count of the plain export
/// (no `c p show`) is the puzzle's. The blank 4x4 with 2x2 boxes has
/// 8,688 grids with their layouts (the backtracker's count and ISS's,
/// tests/it/chaos.rs; ganak takes 15 s on it, 24 s without the boxes).
#[test]
fn ganak_counts_a_chaos_construction_without_projection() {
    if !available(Tool::Pyganak, "ganak_counts_a_chaos_construction_without_projection") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("chaos.txt");
    std::fs::write(&input, "size 4\nbox 2x2\nchaos\n").unwrap();
    let cnf = dir.path().join("chaos.cnf");
    export(input.to_str().unwrap(), &cnf, &["--dialect", "plain"]);
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(!text.contains("c p show") && !text.contains("c ind"), "the plain dialect projects nothing");
    assert_eq!(ganak_count(&cnf), 8_688);
}
