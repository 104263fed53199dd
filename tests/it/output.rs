//! The output formats on every command that has them: `count` (text,
//! json, mc, also with `--print`, with a lower bound, and on a cube) and
//! `unique` (text, json); the refusals that keep a format honest; and
//! `compare`'s `--output` with its former `--format` spelling.

use crate::common::satsudoku;
use predicates::prelude::PredicateBooleanExt as _;
use predicates::str::contains;
use serde_json::Value;

fn stdout_of(args: &[&str]) -> String {
    let out = satsudoku().args(args).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// The 6x6 grids, 28,200,960 (Pettersen; OEIS A107739), in every format.
#[test]
fn count_prints_text_json_and_mc() {
    let grid = "......\n".repeat(6);
    let run = |output: &str| {
        let out =
            satsudoku().args(["count", "--format", "grid", "--output", output, "-"]).write_stdin(grid.clone()).output();
        let out = out.unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(run("text"), "solutions(28200960).\n");
    let record: Value = serde_json::from_str(run("json").trim()).unwrap();
    assert_eq!(record["count"], 28_200_960);
    assert_eq!(record["exact"], true);
    assert_eq!(record["stop"], "complete");
    assert_eq!(record["source"], "<stdin>");
    assert_eq!(record["line"], Value::Null);
    assert!(record["seconds"].as_f64().unwrap() >= 0.0);
    let mc = run("mc");
    let lines: Vec<&str> = mc.lines().filter(|l| !l.starts_with("c o ")).collect();
    // log10(28,200,960) = 7.450263893 (Python: math.log10)
    assert_eq!(lines, ["s mc 28200960", "c s type mc", "c s log10-estimate 7.450263893", "c s exact arb int 28200960"]);
}

/// A collection (counts by the backtracking oracle) in JSON: one
/// record per line, with its line number; a bad line is a record with its
/// error, and the status is 2.
#[test]
fn count_json_gives_each_line_a_record() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.txt");
    std::fs::write(&file, "1...............\nxx\n12..34..........\n").unwrap();
    let out = satsudoku().args(["count", "--output", "json"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let records: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 3);
    let mut one = [0; 16];
    one[0] = 1;
    let expected = crate::common::count_grids(4, (2, 2), &one, &|_| true);
    assert_eq!((records[0]["line"].clone(), records[0]["count"].clone()), (Value::from(1), Value::from(expected)));
    assert!(records[1]["error"].as_str().unwrap().contains("expected n*n cells"), "{}", records[1]);
    let mut givens = [0; 16];
    givens[..6].copy_from_slice(&[1, 2, 0, 0, 3, 4]);
    let expected = crate::common::count_grids(4, (2, 2), &givens, &|_| true);
    assert_eq!((records[2]["line"].clone(), records[2]["count"].clone()), (Value::from(3), Value::from(expected)));
}

/// `--print` in JSON puts the solutions in the record; mc has no place for
/// them, so the pair is refused.
#[test]
fn printed_solutions_go_into_the_json_record() {
    let out = stdout_of(&["count", "--print", "--output", "json", "cnf-samples/many.lp"]);
    let record: Value = serde_json::from_str(out.trim()).unwrap();
    let solutions = record["solutions"].as_array().unwrap();
    assert_eq!((record["count"].clone(), solutions.len()), (Value::from(117), 117));
    assert!(solutions.iter().all(|s| s.as_str().unwrap().len() == 81));
    satsudoku()
        .args(["count", "--print", "--output", "mc", "cnf-samples/many.lp"])
        .assert()
        .code(2)
        .stderr(contains("--print does not go with --output mc"));
}

/// A count stopped early is no answer in mc (`s UNKNOWN`, the bound in a
/// comment) and says so in JSON; the status is 3 either way.
#[test]
fn a_lower_bound_is_marked_in_every_format() {
    let mc = satsudoku().args(["count", "--output", "mc", "--max", "5", "cnf-samples/many.lp"]).assert().code(3);
    let mc = String::from_utf8(mc.get_output().stdout.clone()).unwrap();
    assert!(mc.contains("c o lower bound 5\ns UNKNOWN\n") && !mc.contains("exact"), "{mc}");
    let json = satsudoku().args(["count", "--output", "json", "--max", "5", "cnf-samples/many.lp"]).assert().code(3);
    let record: Value = serde_json::from_slice(&json.get_output().stdout).unwrap();
    assert_eq!((record["count"].clone(), record["exact"].clone()), (Value::from(5), Value::from(false)));
    assert_eq!(record["stop"], "max");
}

/// `unique` in JSON says what its text says (the collection's verdicts are
/// checked against the oracle in tests/it/unique.rs); mc is refused.
#[test]
fn unique_prints_text_and_json_alike() {
    let file = "cnf-samples/family/collection.txt";
    let text = stdout_of(&["unique", file]);
    let json = stdout_of(&["unique", "--output", "json", file]);
    let (text, json): (Vec<&str>, Vec<&str>) = (text.lines().collect(), json.lines().collect());
    assert_eq!(text.len(), json.len());
    for (t, j) in text.iter().zip(&json) {
        let record: Value = serde_json::from_str(j).unwrap();
        let fields: Vec<&str> = t.split('\t').collect();
        assert_eq!(record["line"].to_string(), fields[0]);
        assert_eq!(record["verdict"], fields[1]);
        match fields[1] {
            "unique" => assert_eq!(record["solution"], fields[2]),
            "multiple" => {
                assert_eq!(record["solutions"], serde_json::json!([fields[2], fields[3]]));
                assert_eq!(record["differ"].as_array().unwrap().len(), fields[4].split(',').count());
            }
            _ => assert!(record.get("solution").is_none()),
        }
    }
    // unique prints no model count: `mc` is neither offered nor taken.
    satsudoku()
        .args(["unique", "--output", "mc", file])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'mc'").and(contains("[possible values: text, json]")));
}

/// `count --cube` prints its cube's share in the format asked for.
#[test]
fn a_cube_prints_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let cubes = dir.path().join("cubes");
    satsudoku().args(["cubes", "cnf-samples/many.lp", "--count", "2", "-o"]).arg(&cubes).assert().success();
    let cube = cubes.join("cube-00001.cube");
    let json = satsudoku().args(["count", "--output", "json", "--cube"]).arg(&cube).output().unwrap();
    let record: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!((record["exact"].clone(), record["method"].clone()), (Value::from(true), Value::from("enumeration")));
    let mc = satsudoku().args(["count", "--output", "mc", "--cube"]).arg(&cube).output().unwrap();
    let mc = String::from_utf8(mc.stdout).unwrap();
    assert!(mc.contains(&format!("s mc {}\n", record["count"])), "{mc}");
    // In text, the result names its cube, as a worker's log line must.
    let text = satsudoku().args(["count", "--cube"]).arg(&cube).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert_eq!(text, format!("{}\tsolutions({}).\n", cube.display(), record["count"]));
}

/// compare's output format is `--output`; `--format` names the input
/// format as everywhere, and its former meaning still works, with a note.
#[test]
fn compare_takes_output_and_its_former_spelling() {
    let args = ["compare", "cnf-samples/contest.lp", "--encodings", "direct", "--repeat", "1"];
    let csv = satsudoku().args(args).args(["--output", "csv"]).assert().success();
    let csv = String::from_utf8(csv.get_output().stdout.clone()).unwrap();
    assert!(csv.starts_with("kind,file,"), "{csv}");
    let old = satsudoku().args(args).args(["--format", "csv"]).assert().success().stderr(contains("--output csv"));
    assert_eq!(String::from_utf8(old.get_output().stdout.clone()).unwrap().lines().next(), csv.lines().next());
    satsudoku().args(args).args(["--format", "lp", "--output", "json"]).assert().success().stdout(contains("\"file\""));
    satsudoku().args(args).args(["--format", "csv", "--output", "json"]).assert().code(2);
}

/// `unique --grids always` on a puzzle with two solutions: the usual line
/// first, then the two grids side by side with box lines, a `*` after
/// exactly the digits where they differ (read back from the line's two
/// solutions); piped with the default `auto`, only the line.
#[test]
fn unique_shows_two_solutions_side_by_side() {
    let puzzle = "12..34..........\n";
    let out =
        crate::common::satsudoku().args(["unique", "--grids", "always", "-"]).write_stdin(puzzle).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = text.lines();
    let first: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(first[0], "multiple");
    let (a, b): (Vec<char>, Vec<char>) = (first[1].chars().collect(), first[2].chars().collect());
    assert!(lines.next().unwrap().starts_with("solution 1"));
    let rows: Vec<&str> = lines.filter(|l| !l.starts_with('-')).collect();
    assert_eq!(rows.len(), 4, "{text}");
    for (r, row) in rows.iter().enumerate() {
        // Each grid's cells: a digit, then `*` or a space.
        let cells: Vec<(char, bool)> = row
            .char_indices()
            .filter(|(_, c)| c.is_ascii_digit())
            .map(|(i, c)| (c, row[i + 1..].starts_with('*')))
            .collect();
        assert_eq!(cells.len(), 8, "{row}");
        for c in 0..4 {
            let differ = a[r * 4 + c] != b[r * 4 + c];
            assert_eq!(cells[c], (a[r * 4 + c], differ), "{text}");
            assert_eq!(cells[4 + c], (b[r * 4 + c], differ), "{text}");
        }
    }
    assert!(text.contains("|") && text.contains("-+-") || text.contains("+-"), "box lines: {text}");
    let piped = crate::common::satsudoku().args(["unique", "-"]).write_stdin(puzzle).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&piped.stdout).lines().count(), 1);
}
