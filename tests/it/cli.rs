//! End-to-end tests of the binary: exit statuses, the stdout/stderr split,
//! stdin, and one test per malformed-input class.

use crate::common::satsudoku;
use predicates::prelude::*;
use predicates::str::contains;

const CONTEST: &str = "cnf-samples/contest.lp";

#[test]
fn count_prints_exactly_the_fact_on_stdout() {
    satsudoku().args(["count", CONTEST]).assert().success().stdout("solutions(1).\n").stderr("");
}

#[test]
fn count_reads_stdin_with_dash_and_without_a_file() {
    let text = std::fs::read_to_string(CONTEST).unwrap();
    satsudoku().args(["count", "-"]).write_stdin(text.clone()).assert().success().stdout("solutions(1).\n");
    satsudoku().arg("count").write_stdin(text).assert().success().stdout("solutions(1).\n");
}

#[test]
fn kattis_sample_counts_one_and_its_solution_is_the_published_one() {
    // The published output of the ICPC "sumdoku" sample.
    let published = [
        "5 3 7 8 2 1 6 4 9",
        "9 6 4 5 3 7 8 2 1",
        "8 1 2 9 4 6 7 3 5",
        "6 4 5 3 7 8 1 9 2",
        "7 8 1 4 9 2 5 6 3",
        "3 2 9 6 1 5 4 7 8",
        "2 7 8 1 6 9 3 5 4",
        "1 9 3 7 5 4 2 8 6",
        "4 5 6 2 8 3 9 1 7",
    ];
    let expected: String = published
        .iter()
        .enumerate()
        .map(|(r, row)| format!("solution(1,{},[{}]).\n", r + 1, row.replace(' ', ",")))
        .collect();
    satsudoku()
        .args(["count", "--print", "cnf-samples/kattis-sample.txt"])
        .assert()
        .success()
        .stdout(format!("% solution 1\n{expected}solutions(1).\n"));
}

#[test]
fn stats_go_to_stderr_only() {
    // One model, then UNSAT: two SAT calls.
    satsudoku()
        .args(["count", "--stats", "--jobs", "1", "--engine", "blocking", CONTEST])
        .assert()
        .success()
        .stdout("solutions(1).\n")
        .stderr(contains("variables: 729").and(contains("sat calls: 2")).and(contains("relation 5481")));
    // The enum engine (the default) calls no solver when there are no
    // auxiliary variables, and derives support clauses from the forbidden pairs.
    satsudoku()
        .args(["count", "--stats", "--jobs", "1", CONTEST])
        .assert()
        .success()
        .stdout("solutions(1).\n")
        .stderr(contains("sat calls: 0").and(contains("decisions: ")).and(contains("derived clauses: ")))
        .stderr(contains("derived clauses: 0").not());
}

/// Without `--engine`, every digit encoding counts with `enum` (its stats
/// have decisions; `blocking`'s do not). some.lp has 12 solutions
/// (confirmed by the oracle in tests/samples.rs).
#[test]
fn the_default_engine_is_enum_with_every_digit_encoding() {
    let count = |digits: &str, engine: &[&str]| {
        satsudoku()
            .args(["count", "--stats", "--jobs", "1", "--digits", digits, "cnf-samples/some.lp"])
            .args(engine)
            .assert()
            .success()
    };
    for digits in ["direct", "order", "log"] {
        count(digits, &[])
            .stdout("solutions(12).\n")
            .stderr(contains("decisions: ").and(contains("decisions: n/a").not()));
    }
    count("log", &["--engine", "blocking"]).stdout("solutions(12).\n").stderr(contains("decisions: n/a"));
}

#[test]
fn max_gives_a_lower_bound_with_status_3_only_when_more_exist() {
    let many = "cnf-samples/many.lp";
    satsudoku()
        .args(["count", "--max", "5", many])
        .assert()
        .code(3)
        .stdout("solutions_at_least(5).\n")
        .stderr(contains("lower bound"));
    satsudoku().args(["count", "--max", "1", CONTEST]).assert().success().stdout("solutions(1).\n");
}

#[test]
fn timeout_gives_a_lower_bound_with_status_3() {
    satsudoku()
        .args(["count", "--timeout", "0", "cnf-samples/many.lp"])
        .assert()
        .code(3)
        .stdout("solutions_unknown.\n")
        .stderr(contains("lower bound"));
    satsudoku().args(["count", "--timeout=-1", CONTEST]).assert().code(2).stderr(contains("--timeout"));
}

#[test]
fn printed_solutions_are_distinct_and_match_the_count() {
    // 117 is many.lp's count in COUNTS.tsv, which tests/samples.rs confirms with the oracle.
    for (engine, jobs) in itertools::iproduct!(["blocking", "enum"], ["1", "2"]) {
        let out = satsudoku()
            .args(["count", "--print", "cnf-samples/many.lp", "--engine", engine, "--jobs", jobs])
            .assert()
            .success();
        let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("solution(")).collect();
        assert_eq!(stdout.lines().last().unwrap(), "solutions(117).");
        assert_eq!(rows.len(), 9 * 117);
        let grids: std::collections::HashSet<String> =
            rows.chunks(9).map(|g| g.iter().map(|r| &r[r.find('[').unwrap()..]).collect()).collect();
        assert_eq!(grids.len(), 117, "{engine} on {jobs} threads");
    }
}

/// On several threads `--max` still stops at exactly N, and a count with
/// exactly N solutions is still exact.
#[test]
fn max_is_exact_on_several_threads() {
    for engine in ["blocking", "enum"] {
        let many = ["count", "cnf-samples/many.lp", "--jobs", "2", "--engine", engine];
        satsudoku().args(many).args(["--max", "40"]).assert().code(3).stdout("solutions_at_least(40).\n");
        satsudoku().args(many).args(["--max", "117"]).assert().success().stdout("solutions(117).\n");
        satsudoku().args(many).args(["--max", "116"]).assert().code(3).stdout("solutions_at_least(116).\n");
    }
    satsudoku().args(["count", "--jobs", "0", CONTEST]).assert().code(2).stderr(contains("--jobs"));
}

#[test]
fn usage_errors_exit_2() {
    satsudoku().args(["count", "--engine", "nope", CONTEST]).assert().code(2);
    satsudoku().args(["count", "tests/data/no-such-file.lp"]).assert().code(2).stderr(contains("cannot read"));
}

/// Each malformed input names file:line:col and what was expected, exits 2,
/// prints nothing on stdout.
fn rejects(file: &str, location: &str, message: &str) {
    let path = format!("tests/data/{file}");
    satsudoku()
        .args(["count", &path])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(format!("{path}:{location}: ")).and(contains(message)));
}

#[test]
fn rejects_unknown_predicate() {
    rejects("unknown-predicate.lp", "6:1", "unknown predicate \"rows\": expected \"row\" or \"vertical\"");
}

#[test]
fn rejects_wrong_arity() {
    rejects("wrong-arity.lp", "8:1", "row takes 7 arguments (the line number and 6 symbols), found 6");
}

#[test]
fn rejects_value_out_of_range() {
    rejects("value-out-of-range.lp", "10:16", "expected -1, 0 or 1, found \"2\"");
}

#[test]
fn rejects_line_number_invalid_for_predicate() {
    rejects("invalid-line.lp", "5:5", "expected a row line number (1, 3, 5, 6, 8, 10, 11, 13, 15), found \"4\"");
}

#[test]
fn rejects_duplicate_line() {
    rejects("duplicate-line.lp", "16:1", "row line 3 is given twice (first at 3:1)");
}

#[test]
fn rejects_missing_lines_listing_all() {
    rejects("missing-lines.lp", "14:1", "missing lines: row 5, vertical 9");
}

#[test]
fn rejects_missing_final_period() {
    rejects("missing-period.lp", "12:1", "expected '.' at the end of the fact, found \"vertical\"");
}

#[test]
fn rejects_token_that_is_not_an_integer() {
    rejects("not-an-integer.lp", "12:16", "expected an integer, found \"one\"");
}

#[test]
fn rejects_empty_file() {
    rejects("empty.lp", "1:1", "empty input");
}

#[test]
fn rejects_unterminated_comment() {
    rejects("unterminated-comment.lp", "13:1", "unterminated comment");
}

#[test]
fn rejects_invalid_utf8() {
    rejects("invalid-utf8.lp", "1:7", "expected UTF-8 text, found byte 0xff");
}

#[test]
fn rejects_kattis_bad_symbol() {
    rejects("kattis-bad-symbol.txt", "3:5", "expected '<', '=' or '>', found \"x\"");
}

#[test]
fn rejects_kattis_short_line() {
    rejects("kattis-short-line.txt", "2:9", "expected 9 symbols on line 2, found 8");
}

#[test]
fn rejects_kattis_missing_line() {
    rejects("kattis-missing-line.txt", "15:1", "expected 15 lines of symbols, found 14");
}

#[test]
fn accepts_crlf_without_final_newline() {
    satsudoku().args(["count", "tests/data/crlf-no-final-newline.lp"]).assert().success().stdout("solutions(1).\n");
}

#[test]
fn format_flag_overrides_detection() {
    satsudoku()
        .args(["count", "--format", "kattis", CONTEST])
        .assert()
        .code(2)
        .stderr(contains(":1:1: expected '<', '=' or '>'"));
}

#[test]
fn several_files_give_one_tab_separated_line_each() {
    let files =
        ["cnf-samples/contest.lp", "cnf-samples/zero.lp", "cnf-samples/some.lp", "cnf-samples/kattis-sample.txt"];
    satsudoku().arg("count").args(files).assert().success().stdout(
        "cnf-samples/contest.lp\tsolutions(1).\ncnf-samples/zero.lp\tsolutions(0).\n\
         cnf-samples/some.lp\tsolutions(12).\ncnf-samples/kattis-sample.txt\tsolutions(1).\n",
    );
    // A bad file is reported on stderr and the others are still counted; status 2.
    satsudoku()
        .args(["count", CONTEST, "tests/data/empty.lp", "cnf-samples/zero.lp"])
        .assert()
        .code(2)
        .stdout("cnf-samples/contest.lp\tsolutions(1).\ncnf-samples/zero.lp\tsolutions(0).\n")
        .stderr(contains("tests/data/empty.lp:1:1").and(contains("1 of 3 files")));
}

/// On several threads a batch still writes each file's diagnostics in the
/// order of the files, after its own line.
#[test]
fn a_parallel_batch_keeps_each_files_stats_and_warnings_in_order() {
    let files = ["cnf-samples/many.lp", "cnf-samples/contest.lp", "cnf-samples/some.lp", "cnf-samples/zero.lp"];
    let out =
        satsudoku().arg("count").args(files).args(["--jobs", "2", "--stats", "--max", "5"]).assert().code(3).stdout(
            "cnf-samples/many.lp\tsolutions_at_least(5).\ncnf-samples/contest.lp\tsolutions(1).\n\
             cnf-samples/some.lp\tsolutions_at_least(5).\ncnf-samples/zero.lp\tsolutions(0).\n",
        );
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(stderr.matches("encoding: ").count(), 4, "{stderr}");
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("lower bound")).collect();
    assert_eq!(warnings.len(), 2, "{stderr}");
    assert!(warnings[0].contains("many.lp") && warnings[1].contains("some.lp"), "{stderr}");
    let blocks: Vec<&str> = stderr.split("encoding: ").collect();
    assert!(blocks[1].contains("many.lp: stopped at --max 5") && blocks[3].contains("some.lp: stopped"), "{stderr}");
}

/// A count of over a second (the blank 9x9 grid enumerated model by
/// model, stopped by `--timeout`) with the progress line forced on: the
/// line is on stderr and stdout holds only the count.
#[test]
fn the_progress_line_stays_off_stdout() {
    let out = satsudoku()
        .args([
            "count",
            "--format",
            "givens",
            "--symmetry",
            "none",
            "--engine",
            "enum",
            "--timeout",
            "1.6",
            "--jobs",
            "1",
        ])
        .args(["--progress", "always"])
        .write_stdin(format!("{}\n", ".".repeat(81)))
        .assert()
        .code(3)
        .stdout(predicate::str::is_match(r"^solutions_at_least\([0-9]+\)\.\n$").unwrap());
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains(" models, ") && stderr.contains("/s"), "no progress line on stderr: {stderr:?}");
    // Not a terminal, so `auto` shows nothing.
    satsudoku().args(["count", "cnf-samples/many.lp"]).assert().success().stderr("");
}

/// SIGINT during a long count (the blank 9x9 grid enumerated model by
/// model, 6.67e21 of them) prints the partial count as a lower bound, exit 3.
#[test]
fn ctrl_c_prints_a_lower_bound_with_status_3() {
    let dir = tempfile::tempdir().unwrap();
    let blank = dir.path().join("blank.txt");
    std::fs::write(&blank, format!("{}\n", ".".repeat(81))).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("satsudoku");
    let child = std::process::Command::new(bin)
        .args(["count", "--symmetry", "none", "--engine", "enum"])
        .arg(&blank)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    let killed = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let count: u128 =
        stdout.strip_prefix("solutions_at_least(").and_then(|s| s.strip_suffix(").\n")).unwrap().parse().unwrap();
    // Felgenhauer & Jarvis: 6,670,903,752,021,072,936,960 grids.
    assert!(count < 6_670_903_752_021_072_936_960, "the count stopped early: {count}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
}

/// Help for a newcomer: lines wrapped to the terminal (`COLUMNS`; 100 when
/// it cannot be told), the options looked for first (`--jobs`, `--max`,
/// `--timeout`, `--print`, `--output`) before the input and encoding
/// options, and no `--output` value a command refuses (`unique` and
/// `candidates` print no model count, so no `mc`).
#[test]
fn help_is_wrapped_and_leads_with_the_common_options() {
    let help = |args: &[&str]| {
        let out = satsudoku().args(args).env("COLUMNS", "80").output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let count = help(&["count", "--help"]);
    assert!(count.lines().all(|l| l.chars().count() <= 80), "{count}");
    let at = |name: &str| count.find(name).unwrap_or_else(|| panic!("{name} missing: {count}"));
    for first in ["--jobs", "--max", "--timeout", "--print", "--output"] {
        assert!(at(first) < at("--format") && at(first) < at("--encoding"), "{first} after the encoding: {count}");
    }
    for command in ["unique", "candidates"] {
        let text = help(&[command, "-h"]);
        let output = text.lines().skip_while(|l| !l.contains("--output")).take(3).collect::<String>();
        assert!(output.contains("text, json") && !output.contains("mc"), "{command}: {output}");
    }
}

/// The defaults `count --help` states for the encoding options are the
/// ones `Encoding::default()` uses (the help said `partial-sums` for
/// `--sum` while the default was `auto`).
#[test]
fn help_states_the_encodings_real_defaults() {
    use satsudoku::encode::Encoding;
    use satsudoku::named::Named;
    let out = satsudoku().args(["count", "--help"]).env("COLUMNS", "200").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let default = Encoding::default();
    let expected = [
        ("--digits", default.digits.name()),
        ("--clause-set", default.clause_set.name()),
        ("--amo", default.amo.name()),
        ("--relation", default.relation.name()),
        ("--sum", default.sum.name()),
        ("--lines", default.lines.name()),
    ];
    for (option, name) in expected {
        let at = help.find(&format!("{option} <")).unwrap_or_else(|| panic!("{option} missing: {help}"));
        let text = &help[at..];
        let stated = text.split("[default: ").nth(1).and_then(|rest| rest.split(']').next());
        assert_eq!(stated, Some(name), "{option}: {}", text.lines().take(4).collect::<Vec<_>>().join(" "));
    }
}
