//! Inputs that once gave a wrong count with exit 0, or an abort: each test
//! names the hole it closes and fails on the code that had it.

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::common::count_grids;
use crate::common::satsudoku;

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

/// `either` blocks that are not well formed, nested past the limit, or
/// hold a rule that acts on the whole grid are located errors (exit 2);
/// so are ISS composites nested past it. Nothing reaches stdout.
#[test]
fn malformed_alternatives_are_located_errors() {
    let deep = |open: &str, close: &str, k: usize| format!("{}{}", open.repeat(k), close.repeat(k));
    for (text, message) in [
        ("size 4\nor\n".to_owned(), "<stdin>:2:1: or outside an either block"),
        ("size 4\nend\n".to_owned(), "<stdin>:2:1: end outside an either or replicate block"),
        ("size 4\neither\nthermo r1c1 r1c2\n".to_owned(), "<stdin>:2:1: an either block with no end"),
        ("size 4\neither now\nend\n".to_owned(), "<stdin>:2:8: expected nothing after either"),
        ("size 4\neither\nx r1c1 r1c2\nor\nnonconsecutive\nend\n".to_owned(), "<stdin>:4:1: nonconsecutive inside"),
        (format!("size 4\n{}", deep("either\n", "end\n", 17)), "<stdin>:18:1: either blocks nested deeper than 16"),
        (
            "size 4\neither\ngivens\n1...\n....\n....\n....\nend\n".to_owned(),
            "<stdin>:3:1: givens inside an either block",
        ),
        (format!(".Shape~4x4{}", deep(".Or", ".End", 17)), "<stdin>:1:60: Or and And nested deeper than 16"),
    ] {
        satsudoku().args(["count", "-"]).write_stdin(text).assert().code(2).stdout("").stderr(contains(message));
    }
}

/// Whether this process may write into a directory without write
/// permission (root may): then such a directory proves nothing.
fn privileged(dir: &std::path::Path) -> bool {
    std::fs::write(dir.join("probe"), "").is_ok()
}

/// `export -o` renamed over a read-only file, even for an unprivileged
/// user; now it refuses unless `--force`, as `cp` does, and the file it
/// replaces keeps its mode. A missing directory exited 1 where other bad
/// paths exit 2; a read-only directory's error named the temporary file.
#[test]
fn export_respects_read_only_files_and_names_bad_paths() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ro.cnf");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o444)).unwrap();
    let export = || {
        let mut command = satsudoku();
        command.args(["export", "cnf-samples/contest.lp", "-o"]);
        command
    };
    export().arg(&out).assert().code(2).stderr(contains("ro.cnf is read-only").and(contains("--force")));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    export().arg(&out).arg("--force").assert().success();
    assert!(std::fs::read_to_string(&out).unwrap().contains("p cnf"));
    assert_eq!(std::fs::metadata(&out).unwrap().permissions().mode() & 0o777, 0o444);

    let missing = dir.path().join("no-such-dir").join("x.cnf");
    export().arg(&missing).assert().code(2).stderr(contains("no-such-dir does not exist"));
    let under_a_file = out.join("x.cnf");
    export().arg(&under_a_file).assert().code(2).stderr(contains("cannot write"));

    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    if !privileged(&locked) {
        export()
            .arg(locked.join("x.cnf"))
            .assert()
            .code(2)
            .stderr(contains("cannot write").and(contains("x.cnf")).and(contains(".satsudoku-").not()));
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    // A directory no one may create files in, root included.
    if std::path::Path::new("/proc/self").exists() {
        export()
            .arg("/proc/x.cnf")
            .assert()
            .code(2)
            .stderr(contains("cannot write /proc/x.cnf").and(contains(".satsudoku-").not()));
    }
}

/// `compare --svg -` appended the SVG to the table on stdout.
#[test]
fn compare_refuses_an_svg_on_stdout() {
    satsudoku()
        .args(["compare", "cnf-samples/many.lp", "--svg", "-"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("--svg -").and(contains("file name")));
}

/// `decode - -` read the puzzle from stdin and then an empty model.
#[test]
fn decode_refuses_stdin_twice() {
    satsudoku().args(["decode", "-", "-"]).write_stdin("").assert().code(2).stderr(contains("both be standard input"));
}

/// `--timeout 1e30` said "expected seconds >= 0"; it now names the range,
/// and the limit is far past any wait (about 31 years).
#[test]
fn a_timeout_out_of_range_names_the_range() {
    for value in ["1e30", "-1", "NaN", "inf"] {
        satsudoku()
            .args(["count", "cnf-samples/many.lp", &format!("--timeout={value}")])
            .assert()
            .code(2)
            .stderr(contains("expected seconds from 0 to 1e9"));
    }
    satsudoku().args(["count", "cnf-samples/many.lp", "--timeout", "1e9"]).assert().success();
}

/// Sides 36, 49 and 64 had no default box; a 65x65 grid was refused as
/// "expected n*n cells" although 4,225 is 65 squared.
#[test]
fn large_square_sides_have_square_boxes_and_the_limit_is_named() {
    for side in [36, 49, 64] {
        // Two 1s in one box but in different rows and columns: a conflict
        // only if the default boxes are side-root squares.
        let root = (side as f64).sqrt() as usize;
        let mut rows = vec![vec!['.'; side]; side];
        rows[0][0] = '1';
        rows[root - 1][root - 1] = '1';
        let text: String = rows.iter().map(|r| r.iter().collect::<String>() + "\n").collect();
        satsudoku()
            .args(["count", "--format", "grid", "-"])
            .write_stdin(text)
            .assert()
            .success()
            .stdout("solutions(0).\n")
            .stderr(contains(format!("r1c1 and r{root}c{root} are both given 1 in the box of r1c1")));
    }
    satsudoku()
        .args(["count", "--format", "givens", "-"])
        .write_stdin(".".repeat(65 * 65))
        .assert()
        .code(2)
        .stderr(contains("a grid of side 65 (4225 cells): sides are at most 64"));
}

/// `unique` said a file it could not read "could not be counted".
#[test]
fn unique_says_judged() {
    satsudoku()
        .args(["unique", "cnf-samples/many.lp", "no-such-file.txt"])
        .assert()
        .code(2)
        .stderr(contains("1 of 2 files could not be judged"));
}

/// Runs `satsudoku ARGS`, sends it SIGTERM (what `timeout`, Slurm and GNU
/// parallel send) after `after`, and returns its status, stdout and stderr.
fn terminated(args: &[&std::ffi::OsStr], after: std::time::Duration) -> (Option<i32>, String, String) {
    use std::io::Read;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("satsudoku"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let sent = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let (mut stdout, mut stderr) = (String::new(), String::new());
    child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    (child.wait().unwrap().code(), stdout, stderr)
}

/// The lower bound in `solutions_at_least(N).`.
fn solutions(stdout: &str) -> num_bigint::BigUint {
    let digits = stdout.trim().strip_prefix("solutions_at_least(").and_then(|s| s.strip_suffix(")."));
    digits.unwrap_or_else(|| panic!("not a count: {stdout:?}")).parse().unwrap()
}

/// SIGTERM printed nothing and exited 143, losing the partial count. Now
/// it stops a count as Ctrl-C does: a lower bound on stdout (at most the
/// literature's 29,136,487,207,403,520 8x8 grids), exit 3; and a cube
/// worker writes no record.
#[test]
fn sigterm_stops_with_a_lower_bound_and_no_record() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("empty-8x8.puzzle");
    std::fs::write(&puzzle, "size 8\nbox 2x4\n").unwrap();
    let wait = std::time::Duration::from_millis(1500);
    // Not by bands, which count it in a tenth of a second.
    let args = ["count".as_ref(), "-j1".as_ref(), "--symmetry".as_ref(), "no-bands".as_ref(), puzzle.as_os_str()];
    let (code, stdout, stderr) = terminated(&args, wait);
    assert_eq!(code, Some(3), "{stderr}");
    let bound = solutions(&stdout);
    assert!(bound > 0u32.into() && bound < 29_136_487_207_403_520u64.into(), "{stdout}");
    assert!(stderr.contains("lower bound"), "{stderr}");

    let cubes = dir.path().join("cubes");
    satsudoku().arg("cubes").arg(&puzzle).args(["--count", "2", "-o"]).arg(&cubes).assert().success();
    let cube = cubes.join("cube-00001.cube");
    let (code, stdout, stderr) = terminated(&["count".as_ref(), "--cube".as_ref(), cube.as_os_str()], wait);
    assert_eq!(code, Some(3), "{stderr}");
    let result = stdout.split_once('\t').map_or("", |(_, r)| r);
    assert!(result.starts_with("solutions_at_least(") || result == "solutions_unknown.\n", "{stdout}");
    assert!(stderr.contains("no record written"), "{stderr}");
    assert!(!cubes.join("cube-00001.result").exists());
}

/// Under transposition the progress line showed 1.1e16 where the lower
/// bound printed at the end was 6.0e15: every figure it shows is now one
/// that would be printed, so none passes the final count.
#[test]
fn progress_never_passes_the_printed_count_under_transposition() {
    let blank = ".........\n".repeat(9);
    let out = satsudoku()
        .args(["count", "--format", "grid", "-", "-j1", "--progress", "always", "--timeout", "2.5", "--stats"])
        .args(["--symmetry", "no-bands"])
        .write_stdin(blank)
        .assert()
        .code(3);
    let (stdout, stderr) = (&out.get_output().stdout, &out.get_output().stderr);
    let (stdout, stderr) = (String::from_utf8_lossy(stdout), String::from_utf8_lossy(stderr));
    assert!(stderr.contains("symmetry: transposition"), "{stderr}");
    let printed = solutions(&stdout);
    let shown: Vec<num_bigint::BigUint> = stderr
        .split('\r')
        .filter_map(|part| part.split("satsudoku: ").nth(1)?.split(" models").next()?.parse().ok())
        .collect();
    assert!(!shown.is_empty(), "no progress line: {stderr:?}");
    for figure in shown {
        assert!(figure <= printed, "progress showed {figure}, the count printed is {printed}");
    }
}

/// A Takuzu cell can hold only two digits, so it gets two variables: the
/// blank 64x64 Takuzu exported 17,297,152 variables (64 per cell, one-hot
/// over the grid's side) and now exports 982,656. Cell (r, c)'s variables
/// are 2(nr + c) + 1 and + 2 (the direct encoding's numbering with two
/// values, 0-based r and c), so each given is a unit clause on one of them.
#[test]
fn a_takuzu_cell_has_two_variables() {
    let n = 16;
    let mut rows = vec![".".repeat(n); n];
    rows[0] = format!("10{}", ".".repeat(n - 2));
    rows[1] = format!("1{}", ".".repeat(n - 1));
    let out =
        satsudoku().args(["export", "--format", "takuzu", "-"]).write_stdin(rows.join("\n") + "\n").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let units: Vec<&str> =
        text.lines().filter(|l| l.split_whitespace().count() == 2 && !l.starts_with(['c', 'p'])).collect();
    // r1c1 = 1 (second variable of cell 0), r1c2 = 0 (first of cell 1),
    // r2c1 = 1 (second of cell 16).
    for unit in ["2 0", "3 0", "34 0"] {
        assert!(units.contains(&unit), "no unit clause {unit} among {units:?}");
    }
}

/// What would not fit under the memory limit is refused before it is
/// built, with the estimate and the option to raise (exit 2), where a
/// blank 12x12 Takuzu without the distinct rule aborted after 32-58 s at
/// 3.7-7.6 GB, and a 64x64 grid built its encoding until the system
/// refused.
#[test]
fn work_past_the_memory_limit_is_refused_with_the_estimate() {
    let takuzu = vec![".".repeat(12); 12].join("\n") + "\n";
    satsudoku()
        .args(["count", "--format", "takuzu", "--takuzu-rules", "no-distinct", "--memory", "40M", "-"])
        .write_stdin(takuzu)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("counting this Takuzu by rows").and(contains("--memory")));
    let grid = ".".repeat(64 * 64) + "\n";
    for command in ["count", "unique", "export", "candidates"] {
        satsudoku()
            .args([command, "--memory", "64M", "-"])
            .write_stdin(grid.clone())
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(contains("encoding this 64x64 puzzle").and(contains("--memory")));
    }
    satsudoku()
        .args(["count", "--memory", "1M", "-"])
        .write_stdin(".".repeat(16))
        .assert()
        .code(2)
        .stderr(contains("from 32M up"));
}

/// The refusal says the same on every run: the Takuzu's projection was
/// made by whichever thread first had 65,536 states, from its own share
/// (13,782,244 or 13,964,193 states, about half the runs each), against
/// the room left at that moment, less what the other thread had made by
/// then, so docs/commands.md's example failed its test now and then.
/// Before the fix, eight runs all alike had odds of one in 128.
#[test]
fn a_refusal_past_the_memory_limit_is_the_same_on_every_run() {
    let takuzu = vec![".".repeat(12); 12].join("\n") + "\n";
    let message = || {
        let out = satsudoku()
            .args(["count", "--format", "takuzu", "--takuzu-rules", "no-distinct", "--memory", "1G", "-j2", "-"])
            .write_stdin(takuzu.clone())
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8(out.stderr).unwrap()
    };
    let first = message();
    assert!(first.contains("states after row 4"), "{first}");
    for _ in 0..7 {
        assert_eq!(message(), first);
    }
}

/// `unique` stopped by a signal printed nothing for the puzzle it was
/// judging; it now says `undecided` as on `--timeout` (exit 3). A 12x12
/// with anti-knight, anti-king and nonconsecutive takes far longer than
/// the wait.
#[test]
fn unique_stopped_by_a_signal_says_undecided() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("slow.puzzle");
    std::fs::write(&puzzle, "size 12\nbox 3x4\nantiknight\nantiking\nnonconsecutive\n").unwrap();
    let (code, stdout, stderr) =
        terminated(&["unique".as_ref(), puzzle.as_os_str()], std::time::Duration::from_millis(800));
    assert_eq!((code, stdout.as_str()), (Some(3), "undecided\n"), "{stderr}");
    assert!(stderr.contains("undecided: interrupted"), "{stderr}");
}

/// No stopped count has the form of the contest's answer: `--timeout 0`
/// on a puzzle with solutions, `--max` below the count, and a count by
/// bands stopped at once each print another predicate.
#[test]
fn a_stopped_count_never_looks_like_an_exact_one() {
    let many = ["count", "cnf-samples/many.lp"];
    for (extra, expected) in [
        (&["--timeout", "0"][..], "solutions_unknown.\n"),
        (&["--max", "3"][..], "solutions_at_least(3).\n"),
        (&["--max", "3", "--output", "text", "-j1"][..], "solutions_at_least(3).\n"),
    ] {
        satsudoku().args(many).args(extra).assert().code(3).stdout(expected);
    }
    satsudoku()
        .args(["count", "--timeout", "0", "-"])
        .write_stdin("size 10\nbox 2x5\n")
        .assert()
        .code(3)
        .stdout("solutions_unknown.\n");
}

/// A file in no format says so (README.md was "a bad givens line": its
/// first word, "Counts", has the shape of one).
#[test]
fn a_file_in_no_format_says_so() {
    satsudoku()
        .args(["count", "README.md"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("README.md:1:1: not a recognised format: use --format"));
}

/// An argument that names no file but is a puzzle is read as one, and
/// stderr says so; one that is neither says how to pipe a puzzle in.
#[test]
fn an_argument_that_is_a_puzzle_is_read_as_one() {
    // 288 / 4: one digit given in a blank 4x4.
    satsudoku()
        .args(["count", "1..............."])
        .assert()
        .success()
        .stdout("solutions(72).\n")
        .stderr(predicates::str::contains("reading the argument itself as the puzzle"));
    satsudoku()
        .args(["count", "no-such-puzzle.txt"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no such file").and(predicates::str::contains("pipe it in")));
}

/// Givens that clash inside a killer cage name the cage (they named an
/// "Extra group").
#[test]
fn a_clash_in_a_killer_cage_names_the_cage() {
    satsudoku()
        .arg("count")
        .write_stdin("size 4\nkiller r1c1 r2c2\ngivens\n1...\n.1..\n....\n....\n")
        .assert()
        .success()
        .stdout("solutions(0).\n")
        .stderr(predicates::str::contains("r1c1 and r2c2 are both given 1 in the killer cage r1c1 r2c2"));
}

/// `--engine blocking` ran each varisat solve to its end, and varisat has
/// no way to stop one from inside: on ISS's "Zero solution: Little Killer"
/// (its `data/collections.js`, MIT licence; no solution, which the first
/// solve takes many minutes to show) `--timeout 30` and then SIGTERM went
/// unheeded for 13 minutes. The solve now runs on a thread of its own,
/// which a stop leaves behind. (Its diagonals added together now show in
/// 0.1 s that it has none, but not with `--sum partial-sums`, where each
/// sum's digits are not told apart: the solve stays long there.)
#[test]
fn a_long_varisat_solve_stops_at_the_timeout_and_at_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("zero-little-killer.iss");
    let killers = ["R1C9", "R1C8", "R9C2", "R9C3", "R7C9", "R1C1", "R2C1", "R3C1"];
    std::fs::write(&puzzle, killers.map(|cell| format!(".LittleKiller~49~{cell}")).concat()).unwrap();
    let start = std::time::Instant::now();
    satsudoku()
        .args(["count", "--engine", "blocking", "--sum", "partial-sums", "-j1", "--timeout", "1"])
        .arg(&puzzle)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(3)
        .stdout("solutions_unknown.\n");
    assert!(start.elapsed() < std::time::Duration::from_secs(30), "{:?}", start.elapsed());
    let args = ["count", "--engine", "blocking", "--sum", "partial-sums"].map(std::ffi::OsStr::new);
    let args = [&args[..], &[puzzle.as_os_str()]].concat();
    let (code, stdout, stderr) = terminated(&args, std::time::Duration::from_millis(1500));
    assert_eq!(code, Some(3), "{stderr}");
    assert_eq!(stdout, "solutions_unknown.\n");
}
