//! What a hostile or unlucky user meets: special output files, full or
//! closed streams, absurd option values, huge or strange inputs, odd file
//! names, interrupted batches. Each test names the hole it closes.

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::Duration;

use crate::common::satsudoku;
use predicates::prelude::*;
use predicates::str::contains;

const CONTEST: &str = "cnf-samples/contest.lp";

fn full() -> fs::File {
    fs::OpenOptions::new().write(true).open("/dev/full").unwrap()
}

/// The CNF `export` writes for the contest sample, to compare against.
fn contest_cnf() -> Vec<u8> {
    satsudoku().args(["export", CONTEST]).output().unwrap().stdout
}

/// Regression: run as root, `export -o /dev/full` replaced the device node
/// with a regular file. Devices are written through and stay devices. The
/// nodes are made in a temporary directory (as root, which CI is), so that
/// a regression cannot replace the machine's own.
#[test]
fn export_writes_through_a_device_and_never_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let (null, full) = (dir.path().join("null"), dir.path().join("full"));
    let made = |path: &Path, minor: &str| Process::new("mknod").arg(path).args(["c", "1", minor]).status();
    if !made(&null, "3").is_ok_and(|s| s.success()) || !made(&full, "7").is_ok_and(|s| s.success()) {
        assert!(std::env::var_os("CI").is_none(), "CI runs as root and must make device nodes");
        let _ = writeln!(std::io::stderr().lock(), "SKIPPED export_writes_through_a_device: mknod needs root");
        return;
    }
    satsudoku().args(["export", CONTEST, "-o"]).arg(&null).assert().success();
    assert!(fs::metadata(&null).unwrap().file_type().is_char_device());
    satsudoku().args(["export", CONTEST, "-o"]).arg(&full).assert().code(1).stderr(contains("cannot write to"));
    assert!(fs::metadata(&full).unwrap().file_type().is_char_device());
}

#[test]
fn export_writes_through_a_fifo_and_leaves_it_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.cnf");
    assert!(Process::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = Vec::new();
            fs::File::open(fifo).unwrap().read_to_end(&mut text).unwrap();
            text
        })
    };
    satsudoku().args(["export", CONTEST, "-o"]).arg(&fifo).assert().success();
    // Before joining the reader, which a replaced FIFO would leave waiting.
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(reader.join().unwrap(), contest_cnf());
}

#[test]
fn export_follows_a_symlink_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let (target, link) = (dir.path().join("target.cnf"), dir.path().join("link.cnf"));
    fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    satsudoku().args(["export", CONTEST, "-o"]).arg(&link).assert().success();
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(fs::read(&target).unwrap(), contest_cnf());
    // A link to nowhere is refused, not replaced by a file.
    let dangling = dir.path().join("dangling.cnf");
    std::os::unix::fs::symlink(dir.path().join("missing/x.cnf"), &dangling).unwrap();
    satsudoku()
        .args(["export", CONTEST, "-o"])
        .arg(&dangling)
        .assert()
        .code(2)
        .stderr(contains("symbolic link that leads nowhere"));
    assert!(fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
}

#[test]
fn export_keeps_the_mode_of_the_file_it_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.cnf");
    fs::write(&out, "old").unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(0o640)).unwrap();
    satsudoku().args(["export", CONTEST, "-o"]).arg(&out).assert().success();
    assert_eq!(fs::metadata(&out).unwrap().permissions().mode() & 0o777, 0o640);
    assert_eq!(fs::read(&out).unwrap(), contest_cnf());
}

#[test]
fn export_to_dash_writes_stdout() {
    satsudoku()
        .args(["export", CONTEST, "-o", "-"])
        .assert()
        .success()
        .stdout(String::from_utf8(contest_cnf()).unwrap());
    assert!(!Path::new("-").exists());
}

#[test]
fn export_refuses_to_overwrite_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("puzzle.lp");
    fs::copy(CONTEST, &input).unwrap();
    let link = dir.path().join("same.lp");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    for out in [&input, &link] {
        satsudoku()
            .args(["export"])
            .arg(&input)
            .arg("-o")
            .arg(out)
            .assert()
            .code(2)
            .stderr(contains("is an input of this run: refusing to overwrite it"));
    }
    assert_eq!(fs::read(&input).unwrap(), fs::read(CONTEST).unwrap());
}

/// Regression: a failed write to stderr (`2>/dev/full`) panicked with exit
/// 101. Diagnostics that cannot be written are dropped; results still count.
#[test]
fn a_full_stderr_never_panics() {
    let out = Process::new(assert_cmd::cargo::cargo_bin("satsudoku"))
        .args(["count", "--stats", CONTEST])
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!((out.status.code(), out.stdout), (Some(0), b"solutions(1).\n".to_vec()));
    let bad = Process::new(assert_cmd::cargo::cargo_bin("satsudoku"))
        .args(["count", "tests/data/empty.lp"])
        .stderr(full())
        .status()
        .unwrap();
    assert_eq!(bad.code(), Some(2));
}

/// A failed write to stdout is exit 1, as the README says: for results and
/// for `--help` and `--version` alike.
#[test]
fn a_full_stdout_is_exit_1() {
    for args in [&["count", CONTEST][..], &["--help"], &["--version"], &["export", CONTEST], &["count", "--help"]] {
        let out = Process::new(assert_cmd::cargo::cargo_bin("satsudoku"))
            .args(args)
            .stdout(full())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// Regression: `--jobs 65535` aborted trying to start the threads.
#[test]
fn jobs_are_capped_with_a_clear_error() {
    satsudoku()
        .args(["count", "--jobs", "65535", CONTEST])
        .assert()
        .code(2)
        .stderr(contains("65535").and(contains("1..=256")));
    satsudoku().args(["count", "--jobs", "256", CONTEST]).assert().success().stdout("solutions(1).\n");
}

/// Regression: reading `/dev/zero` ran out of memory. Inputs past 64 MiB
/// are refused after reading 64 MiB.
#[test]
fn inputs_past_the_size_limit_are_refused() {
    let message = "input larger than 64 MiB, the most satsudoku reads";
    satsudoku().args(["count", "/dev/zero"]).assert().code(2).stderr(contains(format!("/dev/zero: {message}")));
    let big = " ".repeat((64 << 20) + 1);
    satsudoku().arg("count").write_stdin(big).assert().code(2).stderr(contains(format!("<stdin>: {message}")));
}

/// Regression: a 50 MB fact of one predicate took 2.3 GB of memory (every
/// argument kept). The parser stops at the first argument too many.
#[test]
fn a_runaway_fact_stops_at_its_eleventh_argument() {
    let fact = format!("row(1{}).\n", ",1".repeat(1_000_000));
    satsudoku()
        .arg("count")
        .write_stdin(fact)
        .assert()
        .code(2)
        .stderr(contains("<stdin>:1:25: expected ')': no fact takes more than 10 arguments"));
}

#[test]
fn a_utf8_byte_order_mark_is_accepted() {
    let mut text = "\u{feff}".to_owned();
    text.push_str(&fs::read_to_string(CONTEST).unwrap());
    satsudoku().arg("count").write_stdin(text).assert().success().stdout("solutions(1).\n");
}

/// A file name cannot write control sequences to the terminal.
#[test]
fn control_characters_in_file_names_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad\u{1b}[31m\nname.lp");
    fs::write(&file, "nonsense").unwrap();
    let out = satsudoku().arg("count").arg(&file).assert().code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("bad\\u{1b}[31m\\nname.lp:1:9"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
}

#[test]
fn decode_rejects_models_beyond_the_cnf_or_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("model.txt");
    fs::write(&model, "SAT\n1 -2 730 0\n").unwrap();
    satsudoku()
        .args(["decode", CONTEST])
        .arg(&model)
        .assert()
        .code(2)
        .stderr(contains(":2:6: variable 730 is beyond the 729 variables of the CNF"));
    fs::write(&model, "SAT\n1 -2 3\n").unwrap();
    satsudoku()
        .args(["decode", CONTEST])
        .arg(&model)
        .assert()
        .code(2)
        .stderr(contains("expected '0' to end the model, found end of input"));
}

/// After Ctrl-C a batch names the files it did not count, and exits 3.
#[test]
fn an_interrupted_batch_names_the_files_it_skipped() {
    // The blank 9x9 grid enumerated model by model: never done in time.
    let dir = tempfile::tempdir().unwrap();
    let blank = dir.path().join("blank.txt");
    fs::write(&blank, format!("{}\n", ".".repeat(81))).unwrap();
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("satsudoku"))
        .args(["count", "-j1", "--symmetry", "none", "--engine", "enum"])
        .arg(&blank)
        .args([CONTEST, "cnf-samples/some.lp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    assert!(Process::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let out = {
        let _ = child.wait();
        let mut stdout = String::new();
        let mut stderr = String::new();
        child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
        child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        (child.wait().unwrap().code(), stdout, stderr)
    };
    let (code, stdout, stderr) = out;
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stdout.starts_with(&format!("{}\tsolutions_at_least(", blank.display())), "{stdout}");
    assert!(stderr.contains("interrupted after"), "{stderr}");
    assert!(stderr.contains("not counted: cnf-samples/contest.lp, cnf-samples/some.lp"), "{stderr}");
}
