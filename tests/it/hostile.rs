//! Inputs that once gave a wrong count with exit 0, or an abort: each test
//! names the hole it closes and fails on the code that had it.

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::common::count_grids;

fn satsudoku() -> Command {
    Command::cargo_bin("satsudoku").unwrap()
}

/// A 4x4 grid whose only givens are 1s (blanks written 0) is also a
/// Takuzu: read as one it counted 0, as a grid it has 18 (the oracle's
/// count). Detection names both and asks; `--format` or a `.grid` name says.
#[test]
fn a_text_that_reads_as_two_formats_is_refused() {
    let text = "1000\n0010\n0100\n0001\n";
    satsudoku()
        .args(["count", "-"])
        .write_stdin(text)
        .assert()
        .code(2)
        .stderr(contains("grid").and(contains("takuzu")).and(contains("--format")));
    let mut givens = [0u32; 16];
    for i in [0, 6, 9, 15] {
        givens[i] = 1;
    }
    let expected = count_grids(4, (2, 2), &givens, &|_| true);
    assert_eq!(expected, 18);
    satsudoku()
        .args(["count", "--format", "grid", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout("solutions(18).\n");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ones.grid");
    std::fs::write(&file, text).unwrap();
    satsudoku().arg("count").arg(&file).assert().success().stdout("solutions(18).\n");
}

/// Text that is no format says so, instead of LP errors about `row(1,...)`.
#[test]
fn an_unknown_format_says_so() {
    for text in ["{\"not\": \"f-puzzles\"}", "hello, world!\n"] {
        satsudoku()
            .args(["count", "-"])
            .write_stdin(text)
            .assert()
            .code(2)
            .stderr(contains("not a recognised format").and(contains("--format")));
    }
}

/// A `puzzle` file whose layout directives contradict each other: a
/// second `givens` block replaced the first, `box` then `box none` kept
/// the last, `regions` with `box` kept one. Each is now a located error.
#[test]
fn contradictory_directives_are_located_errors() {
    for (text, message) in [
        (
            "size 4\ngivens\n1...\n....\n....\n....\ngivens\n2...\n....\n....\n....\n",
            "<stdin>:7:1: givens is given twice",
        ),
        ("size 4\nbox 2x2\nbox none\n", "<stdin>:3:1: box is given twice"),
        ("size 4\nbox 2x2\nregions\nAABB\nAABB\nCCDD\nCCDD\n", "<stdin>:3:1: regions with box"),
        ("size 4\nregions\nAABB\nAABB\nCCDD\nCCDD\nbox 2x2\n", "<stdin>:7:1: box with regions"),
        (
            "size 4\nregions\nAABB\nAABB\nCCDD\nCCDD\nregions\nABAB\nABAB\nCDCD\nCDCD\n",
            "<stdin>:7:1: regions is given twice",
        ),
        ("size 4\nsize 4\n", "<stdin>:2:1: size is given twice"),
    ] {
        satsudoku().args(["count", "-"]).write_stdin(text).assert().code(2).stderr(contains(message));
    }
}
