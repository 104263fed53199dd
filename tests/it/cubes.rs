//! A count split into cubes (`cubes`), counted cube by cube (`count
//! --cube`, here under GNU parallel as on a cluster) and summed (`sum`):
//! the sum is the literature's count; a killed worker leaves its cube
//! without a record, `sum` names it and exits 3, and a rerun of the
//! missing cubes completes it; records of another split are refused.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::time::Duration;

use crate::common::satsudoku;
use assert_cmd::cargo::cargo_bin;
use predicates::prelude::PredicateBooleanExt as _;
use predicates::str::contains;
use satsudoku::cluster::{self, CubeFile, Manifest, Record};

/// The empty 6x6 grid (2x3 boxes): 28,200,960 grids (Pettersen; also
/// OEIS A107739), counted up to relabelling as 720 x 39,168.
const EMPTY_6X6: &str = "......\n......\n......\n......\n......\n......\n";
const GRIDS_6X6: &str = "solutions(28200960).";

fn split(dir: &Path, puzzle: &Path, args: &[&str]) {
    satsudoku().arg("cubes").arg(puzzle).args(args).arg("-o").arg(dir).assert().success();
}

fn cube_files(dir: &Path) -> Vec<PathBuf> {
    let mut cubes: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cube"))
        .collect();
    cubes.sort();
    cubes
}

/// Whether GNU parallel is installed; in CI it must be (scripts/install-tools.sh).
fn parallel_installed(test: &str) -> bool {
    let found = Process::new("parallel").arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        assert!(std::env::var_os("CI").is_none(), "CI must run the GNU parallel test");
        let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: GNU parallel is not installed");
    }
    found
}

/// `parallel -j2 satsudoku count -j1 --cube {} ::: CUBES`.
fn run_parallel(cubes: &[PathBuf]) {
    let status = Process::new("parallel")
        .args(["--will-cite", "--halt", "now,fail=1", "-j2"])
        .arg(cargo_bin("satsudoku"))
        .args(["count", "-j1", "--cube", "{}", ":::"])
        .args(cubes)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "parallel: {status}");
}

#[test]
fn a_split_count_under_gnu_parallel_survives_a_killed_worker() {
    if !parallel_installed("a_split_count_under_gnu_parallel_survives_a_killed_worker") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let puzzle = tmp.path().join("empty.grid");
    fs::write(&puzzle, EMPTY_6X6).unwrap();
    let dir = tmp.path().join("cubes");
    split(&dir, &puzzle, &["--format", "grid", "--count", "4"]);
    let cubes = cube_files(&dir);
    assert!(cubes.len() >= 4, "{cubes:?}");
    // Every cube through GNU parallel: the sum is the literature's count.
    run_parallel(&cubes);
    satsudoku().arg("sum").arg(&dir).assert().code(0).stdout(format!("{GRIDS_6X6}\n"));

    // A worker killed mid-count leaves no record, not even half a one. It
    // is stopped (SIGSTOP) first, then killed: a worker that finished
    // before the stop is run again with less time, down to none.
    let victim = &cubes[1];
    let record = victim.with_extension("result");
    let killed = [150, 50, 10, 0].into_iter().any(|millis| {
        let _ = fs::remove_file(&record);
        let mut worker = Process::new(cargo_bin("satsudoku"))
            .args(["count", "-j1", "--engine", "blocking", "--cube"])
            .arg(victim)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(millis));
        let stopped = Process::new("kill").args(["-STOP", &worker.id().to_string()]).status().unwrap();
        let alive = stopped.success() && worker.try_wait().unwrap().is_none();
        let _ = worker.kill();
        worker.wait().unwrap();
        // Stopped after its record was in place, it had finished its work.
        alive && !record.exists()
    });
    assert!(killed, "every worker finished before it could be stopped");
    assert!(!record.exists());
    let name = victim.file_name().unwrap().to_str().unwrap();
    satsudoku()
        .arg("sum")
        .arg(&dir)
        .assert()
        .code(3)
        // A sum with a cube missing is a lower bound, not the count.
        .stdout(predicates::str::starts_with("solutions_at_least(").or(predicates::ord::eq("solutions_unknown.\n")))
        .stderr(contains(format!("1 of {} cubes have no record", cubes.len())))
        .stderr(contains(name));
    // Rerunning the cubes without a record completes the count.
    let missing: Vec<PathBuf> = cubes.iter().filter(|c| !c.with_extension("result").exists()).cloned().collect();
    assert_eq!(missing, std::slice::from_ref(victim));
    run_parallel(&missing);
    satsudoku().arg("sum").arg(&dir).assert().code(0).stdout(format!("{GRIDS_6X6}\n"));
}

#[test]
fn records_of_another_split_or_twice_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let puzzle = tmp.path().join("empty.grid");
    fs::write(&puzzle, EMPTY_6X6).unwrap();
    let (one, other) = (tmp.path().join("one"), tmp.path().join("other"));
    split(&one, &puzzle, &["--format", "grid", "--count", "4"]);
    split(&other, &puzzle, &["--format", "grid", "--depth", "1"]);
    for dir in [&one, &other] {
        for cube in cube_files(dir) {
            satsudoku().args(["count", "-j1", "--cube"]).arg(&cube).assert().success();
        }
        satsudoku().arg("sum").arg(dir).assert().code(0).stdout(format!("{GRIDS_6X6}\n"));
    }
    let foreign = one.join("foreign.result");
    fs::copy(other.join(cube_files(&other)[0].with_extension("result").file_name().unwrap()), &foreign).unwrap();
    satsudoku()
        .arg("sum")
        .arg(&one)
        .assert()
        .code(2)
        .stderr(contains("foreign.result: the record is of another split"));
    fs::copy(cube_files(&one)[0].with_extension("result"), &foreign).unwrap();
    satsudoku().arg("sum").arg(&one).assert().code(2).stderr(contains("has two records"));
    // A directory holding a split is not split into again.
    satsudoku()
        .arg("cubes")
        .arg(&puzzle)
        .args(["--format", "grid", "-o"])
        .arg(&one)
        .assert()
        .code(2)
        .stderr(contains("holds a split already"));
}

/// A puzzle with givens (no symmetry): cnf-samples/many.lp has 117
/// solutions (the oracle's count in tests/samples.rs), whatever the split
/// and the encoding its cubes name.
#[test]
fn cubes_of_a_puzzle_with_givens_add_up_to_its_count() {
    for args in [&["--depth", "2"][..], &["--count", "50", "--digits", "order"], &["--depth", "0"]] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("cubes");
        split(&dir, Path::new("cnf-samples/many.lp"), args);
        for cube in cube_files(&dir) {
            satsudoku().args(["count", "-j1", "--cube"]).arg(&cube).assert().success();
        }
        satsudoku().arg("sum").arg(&dir).assert().code(0).stdout("solutions(117).\n");
    }
}

#[test]
fn a_bad_cube_file_is_located() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    split(&dir, Path::new("cnf-samples/many.lp"), &["--depth", "1"]);
    let cube = &cube_files(&dir)[0];
    let text = fs::read_to_string(cube).unwrap();
    fs::write(cube, text.replacen("literals ", "literals 0 ", 1)).unwrap();
    satsudoku()
        .args(["count", "--cube"])
        .arg(cube)
        .assert()
        .code(2)
        .stderr(contains(":9:10: expected a nonzero variable number, found `0`"));
    // An edited literal fails the cube's digest, in count and in sum.
    fs::write(cube, text.replacen("literals ", "literals 7 ", 1)).unwrap();
    for args in [&["count", "--cube"][..], &["sum"]] {
        let target = if args[0] == "sum" { dir.clone() } else { cube.clone() };
        satsudoku().args(args).arg(target).assert().code(2).stderr(contains("changed after it was written"));
    }
    satsudoku().args(["sum"]).arg(tmp.path()).assert().code(2).stderr(contains("manifest.txt"));
    // A cube forged with a matching digest, travelling alone, still may
    // not name a variable the encoding lacks.
    let mut forged = CubeFile::parse(&text, "cube").unwrap();
    forged.literals.push(99_999);
    forged.cube_digest = cluster::cube_digest(
        &forged.digest,
        forged.index,
        forged.of,
        &forged.puzzle,
        forged.format,
        forged.options,
        &forged.encoding,
        forged.factor,
        &forged.literals,
    );
    let alone = tmp.path().join("alone.cube");
    fs::write(&alone, forged.to_string()).unwrap();
    satsudoku().args(["count", "--cube"]).arg(&alone).assert().code(2).stderr(contains("names a variable"));
    // Beside the manifest, it is not the cube the manifest lists.
    fs::write(cube, forged.to_string()).unwrap();
    satsudoku().args(["count", "--cube"]).arg(cube).assert().code(2).stderr(contains("is not the one"));
}

/// Records forged to 2^127 solutions each: the sum passes u128 and is
/// printed exactly (the factor multiplies a big integer).
#[test]
fn a_sum_past_u128_is_exact() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cubes");
    split(&dir, Path::new("cnf-samples/many.lp"), &["--count", "4"]);
    let manifest = Manifest::parse(&fs::read_to_string(dir.join("manifest.txt")).unwrap(), "m").unwrap();
    let of = manifest.cubes.len();
    assert!(of >= 2, "{of} cubes");
    for index in 1..=of {
        let record = Record {
            digest: manifest.digest.clone(),
            index,
            of,
            cube_digest: manifest.cube_digest(index).unwrap(),
            solutions: 1 << 127,
        };
        let name = cluster::cube_name(index, of).replace(".cube", ".result");
        fs::write(dir.join(name), record.to_string()).unwrap();
    }
    let expected = num_bigint::BigUint::from(1u8) << 127u32;
    let expected = expected * of * manifest.factor;
    satsudoku().arg("sum").arg(&dir).assert().code(0).stdout(format!("solutions({expected}).\n"));
}
