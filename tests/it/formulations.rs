//! Every formulation round-trips on every sample it can express: `export
//! --as F`, solve with an external solver (clingo, clasp, CBC, GLPK,
//! MiniZinc/Gecode; each skipped with a line when not installed, required
//! in CI), `decode --as F` accepts the answer, and where the solver counts
//! (clingo `0`, MiniZinc `-a`) the count is the recorded one. The exact
//! cover export is read and solved by a small Algorithm X written here.
//! And `--engine dlx` counts like the backtracking oracle.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::Path;
use std::process::Command as Process;

use predicates::prelude::PredicateBooleanExt as _;

use crate::common::{count_grids, count_layout, random_grid, rng, satsudoku, Draw};
use satsudoku::count::{count_models, EngineKind, Limits};
use satsudoku::encode::{encode, Encoding};
use satsudoku::parse::{parse, Format};

/// The samples and their recorded counts (checked against the oracle and
/// ganak in tests/samples.rs, tests/family.rs, tests/external.rs).
fn samples() -> Vec<(String, u128)> {
    let mut all = Vec::new();
    for (dir, index) in
        [("cnf-samples", "cnf-samples/COUNTS.tsv"), ("cnf-samples/family", "cnf-samples/family/COUNTS.tsv")]
    {
        for line in std::fs::read_to_string(index).unwrap().lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
            let mut fields = line.split('\t');
            let (file, count) = (fields.next().unwrap(), fields.next().unwrap().parse().unwrap());
            all.push((format!("{dir}/{file}"), count));
        }
    }
    all
}

/// Whether `program` is on PATH; if not, a SKIPPED line on stderr (a
/// failure in CI, which installs it).
fn installed(program: &str, test: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()));
    if !found {
        let message = format!("{program} is not installed (bash scripts/install-tools.sh --research installs it)");
        assert!(std::env::var_os("CI").is_none(), "CI must run the round trip: {message}");
        let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {message}");
    }
    found
}

/// `satsudoku export --as F SAMPLE -o OUT`: Ok, or the refusal's message.
fn export(sample: &str, formulation: &str, out: &Path) -> Result<(), String> {
    let result = satsudoku().args(["export", "--as", formulation, sample, "-o"]).arg(out).output().unwrap();
    match result.status.code() {
        Some(0) => Ok(()),
        Some(2) => Err(String::from_utf8_lossy(&result.stderr).into_owned()),
        other => panic!("export --as {formulation} {sample}: exit {other:?}"),
    }
}

/// `satsudoku decode --as F SAMPLE ANSWER`'s exit status: 0 when the
/// answer is a solution that satsudoku's checker accepts.
fn decode(sample: &str, formulation: &str, answer: &Path) -> i32 {
    let out = satsudoku().args(["decode", "--as", formulation, sample]).arg(answer).output().unwrap();
    out.status.code().unwrap()
}

/// Runs a solver, its stdout to `out`.
fn solve(program: &str, args: &[&str], out: &Path) {
    let result = Process::new(program).args(args).output().unwrap();
    std::fs::write(out, &result.stdout).unwrap();
}

/// The side of a sample.
fn side(sample: &str) -> usize {
    parse(&std::fs::read_to_string(sample).unwrap(), sample, None).unwrap().side()
}

/// An exact cover problem in Knuth's text format, read here: the items
/// (primary ones first) and each option's item indices.
struct Problem {
    primary: usize,
    options: Vec<Vec<usize>>,
    lines: Vec<String>,
}

fn read_problem(text: &str) -> Problem {
    let mut lines = text.lines().filter(|l| !l.trim_start().starts_with('|') && !l.trim().is_empty());
    let header = lines.next().unwrap();
    let (primary, secondary) = header.split_once('|').unwrap_or((header, ""));
    let names: Vec<&str> = primary.split_whitespace().chain(secondary.split_whitespace()).collect();
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let mut problem = Problem { primary: primary.split_whitespace().count(), options: Vec::new(), lines: Vec::new() };
    for line in lines {
        problem.options.push(line.split_whitespace().map(|w| index[w]).collect());
        problem.lines.push(line.to_owned());
    }
    problem
}

/// Exact covers by plain Algorithm X on arrays (no dancing links): the
/// count, and the first cover's options. An option is blocked while one of
/// its items is covered (`blocked` counts them), and `free` counts each
/// item's options not blocked, so the item with the fewest is found
/// without scanning the options.
fn exact_covers(p: &Problem) -> (u128, Vec<usize>) {
    struct Search<'a> {
        p: &'a Problem,
        by_item: Vec<Vec<usize>>,
        covered: Vec<bool>,
        blocked: Vec<u32>,
        free: Vec<usize>,
        chosen: Vec<usize>,
        first: Vec<usize>,
    }
    impl Search<'_> {
        /// Covers (`by` 1) or uncovers (`by` -1) the items of option `o`
        /// (in any order: the counts come back as they were).
        fn cover(&mut self, o: usize, by: i32) {
            for &i in &self.p.options[o] {
                self.covered[i] = by > 0;
                for &other in &self.by_item[i] {
                    let was = self.blocked[other];
                    self.blocked[other] = was.checked_add_signed(by).unwrap();
                    if (was == 0) != (self.blocked[other] == 0) {
                        for &j in &self.p.options[other] {
                            self.free[j] = self.free[j].checked_add_signed(-by as isize).unwrap();
                        }
                    }
                }
            }
        }
        fn go(&mut self) -> u128 {
            let open = (0..self.p.primary).filter(|&i| !self.covered[i]);
            let Some(item) = open.min_by_key(|&i| self.free[i]) else {
                if self.first.is_empty() {
                    self.first.clone_from(&self.chosen);
                }
                return 1;
            };
            let mut count = 0;
            for k in 0..self.by_item[item].len() {
                let o = self.by_item[item][k];
                if self.blocked[o] > 0 {
                    continue;
                }
                self.cover(o, 1);
                self.chosen.push(o);
                count += self.go();
                self.chosen.pop();
                self.cover(o, -1);
            }
            count
        }
    }
    let items = p.options.iter().flatten().max().map_or(0, |&m| m + 1).max(p.primary);
    let mut by_item = vec![Vec::new(); items];
    for (o, option) in p.options.iter().enumerate() {
        for &i in option {
            by_item[i].push(o);
        }
    }
    let free = by_item.iter().map(Vec::len).collect();
    let blocked = vec![0; p.options.len()];
    let mut search =
        Search { p, by_item, covered: vec![false; items], blocked, free, chosen: Vec::new(), first: Vec::new() };
    let count = search.go();
    (count, search.first)
}

/// The exact cover export of every sample it can express has the sample's
/// count of covers (counted here), and one of them decodes to a solution;
/// a sample it cannot express is refused by name.
#[test]
fn the_exact_cover_export_has_the_samples_count_of_covers() {
    let dir = tempfile::tempdir().unwrap();
    let mut read = 0;
    for (sample, expected) in samples() {
        let file = dir.path().join("x.dlx");
        match export(&sample, "exact-cover", &file) {
            Err(message) => {
                assert!(message.contains("cannot express"), "{sample}: {message}");
                continue;
            }
            Ok(()) => read += 1,
        }
        let problem = read_problem(&std::fs::read_to_string(&file).unwrap());
        let (count, first) = exact_covers(&problem);
        assert_eq!(count, expected, "{sample}");
        let answer = dir.path().join("answer.txt");
        let lines: Vec<&str> = first.iter().map(|&o| problem.lines[o].as_str()).collect();
        std::fs::write(&answer, lines.join("\n") + "\n").unwrap();
        assert_eq!(decode(&sample, "exact-cover", &answer), if expected > 0 { 0 } else { 1 }, "{sample}");
    }
    assert!(read >= 10, "only {read} samples exported as exact cover");
}

/// A counting solver on every sample `formulation` expresses: `args` for
/// the exported file, the count read from its output by `count` (which may
/// reject an unfinished search); it must be the recorded count, and the
/// output must decode to a solution (or be a proof of none).
fn counts_like_the_recorded_counts(
    test: &str,
    program: &str,
    formulation: &str,
    args: &dyn Fn(&str) -> Vec<String>,
    count: &dyn Fn(&str) -> Option<u128>,
) {
    if !installed(program, test) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut read = 0;
    for (sample, expected) in samples() {
        let file = dir.path().join(format!("x.{formulation}"));
        if let Err(message) = export(&sample, formulation, &file) {
            assert!(message.contains("cannot express"), "{sample}: {message}");
            continue;
        }
        read += 1;
        let out = dir.path().join("answer.txt");
        let args = args(file.to_str().unwrap());
        solve(program, &args.iter().map(String::as_str).collect::<Vec<_>>(), &out);
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(count(&text), Some(expected), "{program} on {sample}: {text}");
        assert_eq!(decode(&sample, formulation, &out), if expected > 0 { 0 } else { 1 }, "{sample}");
    }
    assert!(read >= 12, "only {read} samples exported as {formulation}");
}

/// clingo counts every answer set of the ASP export (`clingo 0`).
#[test]
fn clingo_counts_the_asp_export_like_the_recorded_counts() {
    counts_like_the_recorded_counts(
        "clingo_counts_the_asp_export_like_the_recorded_counts",
        "clingo",
        "asp",
        &|file| vec![file.to_owned(), "0".to_owned()],
        &|text| text.lines().find_map(|l| l.strip_prefix("Models"))?.trim_start_matches([' ', ':']).trim().parse().ok(),
    );
}

/// MiniZinc (Gecode) finds every solution of the MiniZinc export (`-a`),
/// and says it searched them all (`==========`).
#[test]
fn minizinc_counts_the_mzn_export_like_the_recorded_counts() {
    counts_like_the_recorded_counts(
        "minizinc_counts_the_mzn_export_like_the_recorded_counts",
        "minizinc",
        "mzn",
        &|file| vec!["-a".to_owned(), file.to_owned()],
        &|text| {
            let complete = text.contains("==========") || text.contains("=====UNSATISFIABLE=====");
            complete.then(|| text.matches("----------").count() as u128)
        },
    );
}

/// The linear programs and the pseudo-Boolean export: CBC solves the binary
/// program (LP and MPS) of every sample, and the integer program of the
/// small ones (its big-M pairs take CBC minutes on 9x9, as seed 004
/// found); GLPK the small ones; clasp the OPB; each answer decodes to a
/// solution, or is a proof of none for the sample without one.
#[test]
fn mip_and_pb_solvers_answer_the_linear_exports() {
    let test = "mip_and_pb_solvers_answer_the_linear_exports";
    let (cbc, glpk, clasp) = (installed("cbc", test), installed("glpsol", test), installed("clasp", test));
    let dir = tempfile::tempdir().unwrap();
    let mut solved = HashMap::new();
    for (sample, expected) in samples() {
        let want = if expected > 0 { 0 } else { 1 };
        let small = side(&sample) <= 6;
        for (formulation, file) in
            [("mip", "x.lp"), ("mps", "x.mps"), ("mip-int", "xi.lp"), ("mps-int", "xi.mps"), ("opb", "x.opb")]
        {
            let file = dir.path().join(file);
            if let Err(message) = export(&sample, formulation, &file) {
                assert!(message.contains("cannot express"), "{sample} {formulation}: {message}");
                continue;
            }
            let path = file.to_str().unwrap();
            let out = dir.path().join("answer.txt");
            let mut runs: Vec<(&str, Vec<&str>)> = Vec::new();
            let integer = formulation.ends_with("-int");
            if cbc && formulation != "opb" && (small || !integer) {
                runs.push(("cbc", vec![path, "solve", "solu", out.to_str().unwrap()]));
            }
            if glpk && small && formulation.starts_with("mip") {
                runs.push(("glpsol", vec!["--lp", path, "-o", out.to_str().unwrap()]));
            }
            if clasp && formulation == "opb" {
                runs.push(("clasp", vec![path]));
            }
            for (program, args) in runs {
                let _ = std::fs::remove_file(&out);
                let result = Process::new(program).args(&args).output().unwrap();
                if program == "clasp" {
                    std::fs::write(&out, &result.stdout).unwrap();
                }
                if !out.exists() {
                    // CBC writes no solution file for an infeasible program.
                    std::fs::write(&out, &result.stdout).unwrap();
                }
                assert_eq!(decode(&sample, formulation, &out), want, "{program} on {sample} as {formulation}");
                *solved.entry(format!("{program} {formulation}")).or_insert(0) += 1;
            }
        }
    }
    if cbc && glpk && clasp {
        // Every sample for the binary programs and OPB; the two small
        // samples the integer program expresses (classic 6x6, jigsaw 5x5).
        for (run, at_least) in [
            ("cbc mip", 12),
            ("cbc mps", 12),
            ("clasp opb", 12),
            ("cbc mip-int", 2),
            ("glpsol mip", 2),
            ("glpsol mip-int", 2),
        ] {
            assert!(solved.get(run).is_some_and(|&k| k >= at_least), "{run}: {solved:?}");
        }
    }
}

/// A formulation that cannot express a rule names it, exit 2, and writes
/// nothing: sums in exact cover, a Kropki dot in the integer program,
/// skyscrapers everywhere but CNF.
#[test]
fn a_rule_a_formulation_cannot_express_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for (text, formulation, named) in [
        ("size 4\nkiller r1c1 r1c2 = 3\n", "exact-cover", "sums"),
        ("size 4\nwhite r1c1 r1c2\n", "mip-int", "difference = 1"),
        ("size 4\nodd r1c1\n", "mps-int", "no range"),
        ("size 4\nskyscraper r0c1 = 2\n", "asp", "skyscraper clues"),
        ("size 4\nskyscraper r0c1 = 2\n", "opb", "skyscraper clues"),
    ] {
        let out = dir.path().join("out");
        let result =
            satsudoku().args(["export", "--as", formulation, "-", "-o"]).arg(&out).write_stdin(text).output().unwrap();
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "{text}");
        assert!(stderr.contains("cannot express") && stderr.contains(named), "{formulation}: {stderr}");
        assert!(!out.exists());
    }
}

/// satsudoku's count with `engine` (direct encoding).
fn count_with(text: &str, engine: EngineKind) -> u128 {
    let puzzle = parse(text, "test", Some(Format::Puzzle)).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let encoded = encode(&puzzle, &Encoding::default());
    count_models(&puzzle, &encoded, engine, Limits::default(), &mut ()).unwrap_or_else(|e| panic!("{e}\n{text}")).models
}

/// The grid as native `givens` lines.
fn givens_text(n: usize, givens: &[u32]) -> String {
    givens
        .chunks(n)
        .map(|row| row.iter().map(|&d| if d == 0 { ".".into() } else { d.to_string() }).collect::<String>() + "\n")
        .collect()
}

/// `--engine dlx` against the backtracking oracle: blank 4x4 (288) and
/// Latin 4x4 (576, OEIS A002860), random classic 6x6 and diagonal 6x6
/// puzzles with givens, random jigsaw 5x5 and 6x6 puzzles, anti-knight and
/// a Kropki dot (relations as forbidden pairs), odd cells.
#[test]
fn dlx_counts_like_the_oracle() {
    assert_eq!(count_with("size 4\n", EngineKind::Dlx), 288);
    assert_eq!(count_with("size 4\nbox none\n", EngineKind::Dlx), 576);
    let mut rng = rng(3636);
    let mut counts = Vec::new();
    for i in 0..24 {
        let grid = random_grid(&mut rng, 6, (2, 3));
        let mut shown = vec![0; 36];
        for _ in 0..10 + rng.below(6) {
            let c = rng.below(36);
            shown[c] = grid[c];
        }
        let diagonal = i % 3 == 1;
        let antiknight = i % 3 == 2;
        let mut text = format!("size 6\ngivens\n{}", givens_text(6, &shown));
        if diagonal {
            text += "diagonal+\ndiagonal-\n";
        }
        if antiknight {
            text += "antiknight\nwhite r1c1 r1c2\nodd r6c6\n";
        }
        let expected = count_grids(6, (2, 3), &shown, &|g| {
            let distinct = |cells: Vec<usize>| (0..6).all(|i| (0..i).all(|j| g[cells[i]] != g[cells[j]]));
            let diagonals = distinct((0..6).map(|i| i * 7).collect()) && distinct((0..6).map(|i| i * 5 + 5).collect());
            let knight = (0..36).all(|a| {
                [(1i64, 2i64), (2, 1), (1, -2), (2, -1)].iter().all(|&(dr, dc)| {
                    let (r, c) = ((a / 6) as i64 + dr, (a % 6) as i64 + dc);
                    !(0..6).contains(&r) || !(0..6).contains(&c) || g[a] != g[(r * 6 + c) as usize]
                })
            });
            (!diagonal || diagonals) && (!antiknight || (knight && g[0].abs_diff(g[1]) == 1 && g[35] % 2 == 1))
        });
        assert_eq!(count_with(&text, EngineKind::Dlx), u128::from(expected), "{text}");
        counts.push(expected);
    }
    // Jigsaws: regions grown at random, 5x5 and 6x6, a few givens.
    for n in [5usize, 6, 5, 6, 6] {
        let regions = random_regions(&mut rng, n);
        let labels: String = regions
            .chunks(n)
            .map(|row| row.iter().map(|&k| (b'A' + k as u8) as char).collect::<String>() + "\n")
            .collect();
        let groups: Vec<Vec<usize>> = (0..n).map(|k| (0..n * n).filter(|&i| regions[i] == k).collect()).collect();
        let mut givens = vec![0; n * n];
        givens[rng.below(n * n)] = 1 + rng.below(n) as u32;
        let text = format!("size {n}\nregions\n{labels}givens\n{}", givens_text(n, &givens));
        let expected = count_layout(n, &groups, &givens, &vec![u64::MAX; n * n], &|_| true);
        assert_eq!(count_with(&text, EngineKind::Dlx), u128::from(expected), "{text}");
        counts.push(expected);
    }
    assert!(counts.iter().filter(|&&c| c > 1).count() >= 3, "too few puzzles with several solutions: {counts:?}");
    // Through the binary too, on two threads (cubes become forced options).
    satsudoku()
        .args(["count", "--engine", "dlx", "-j2", "cnf-samples/many.lp"])
        .assert()
        .success()
        .stdout("solutions(117).\n");
    satsudoku()
        .args(["count", "--engine", "dlx", "-"])
        .write_stdin("size 4\nkiller r1c1 r1c2 = 3\n")
        .assert()
        .code(2)
        .stderr(
            predicates::str::contains("dlx engine cannot count this puzzle").and(predicates::str::contains("sums")),
        );
}

/// `n` connected regions of `n` cells each, grown from random seeds (and
/// regrown until every region reaches `n` cells).
fn random_regions(rng: &mut crate::common::Rng, n: usize) -> Vec<usize> {
    'again: loop {
        let mut region = vec![usize::MAX; n * n];
        let mut sizes = vec![0; n];
        let mut seeds: Vec<usize> = (0..n * n).collect();
        rng.shuffle(&mut seeds);
        for (k, &s) in seeds.iter().take(n).enumerate() {
            region[s] = k;
            sizes[k] = 1;
        }
        for _ in 0..n * n * 50 {
            let c = rng.below(n * n);
            if region[c] != usize::MAX {
                continue;
            }
            let (r, col) = (c / n, c % n);
            let mut near: Vec<usize> = Vec::new();
            if r > 0 {
                near.push(c - n)
            }
            if r + 1 < n {
                near.push(c + n)
            }
            if col > 0 {
                near.push(c - 1)
            }
            if col + 1 < n {
                near.push(c + 1)
            }
            let open: Vec<usize> =
                near.iter().map(|&x| region[x]).filter(|&k| k != usize::MAX && sizes[k] < n).collect();
            if let Some(&k) = open.first() {
                region[c] = k;
                sizes[k] += 1;
            }
        }
        if sizes.iter().all(|&s| s == n) {
            return region;
        }
        continue 'again;
    }
}

/// `compare --solvers` as JSON: its rows.
fn study(
    solvers: &str,
    files: &[&str],
    path: Option<&std::ffi::OsStr>,
    extra: &[&str],
) -> (Vec<serde_json::Value>, String, i32) {
    let mut command = satsudoku();
    command
        .args(["compare", "--solvers", solvers, "--repeat", "1", "--timeout", "30", "--output", "json"])
        .args(extra)
        .args(files);
    if let Some(path) = path {
        command.env("PATH", path);
    }
    let out = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let rows = serde_json::from_str::<serde_json::Value>(&stdout)
        .map(|v| v["runs"].as_array().cloned().unwrap_or_default())
        .unwrap_or_default();
    (rows, String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code().unwrap_or(-1))
}

/// The external solvers CI installs and satsudoku's engines, on the
/// contest samples and classic puzzles: every one answers, and every
/// answer agrees with satsudoku's count (recorded in COUNTS.tsv and checked
/// against the oracle elsewhere); the cactus plot is drawn.
#[test]
fn compare_solvers_agree_on_the_contest_samples_and_classic_puzzles() {
    let test = "compare_solvers_agree_on_the_contest_samples_and_classic_puzzles";
    let external = ["minisat", "cadical", "picosat", "cryptominisat5", "clingo", "clasp", "cbc", "minizinc"];
    if !external.iter().all(|p| installed(p, test)) {
        return;
    }
    let files =
        ["cnf-samples/contest.lp", "cnf-samples/some.lp", "cnf-samples/zero.lp", "cnf-samples/family/wikipedia.txt"];
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("cactus.svg");
    // GLPK is left out: it does not solve the contest puzzle's binary
    // program within minutes (tests above give it the small samples).
    let python = |module: &str| {
        let found = Process::new("python3")
            .args(["-c", &format!("import {module}")])
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(found || std::env::var_os("CI").is_none(), "CI installs the python module {module}");
        found
    };
    let mut solvers =
        String::from("minisat,cadical,picosat,cryptominisat,clingo,clasp,cbc,minizinc,satsudoku,satsudoku-dlx");
    for (module, solver) in [("pyganak", "ganak"), ("highspy", "highs"), ("ortools", "cp-sat"), ("pyscipopt", "scip")] {
        if python(module) {
            solvers += &format!(",{solver}");
        }
    }
    let (rows, stderr, status) = study(&solvers, &files, None, &["--svg", svg.to_str().unwrap()]);
    assert_eq!(status, 0, "{stderr}");
    let recorded: HashMap<String, u128> = samples().into_iter().collect();
    for row in &rows {
        let file = row["file"].as_str().unwrap();
        assert_eq!(row["status"], "solved", "{row}");
        assert_eq!(row["agrees"], true, "{row}");
        assert_eq!(row["expected"].as_str().unwrap().parse::<u128>().unwrap(), recorded[file], "{row}");
    }
    assert_eq!(rows.len(), files.len() * solvers.split(',').count(), "{stderr}");
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let labels: String = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(
        labels.contains("minisat") && labels.contains("satsudoku-dlx") && labels.contains("instances solved"),
        "{labels}"
    );
}

/// A solver that answers wrong is caught: a `clingo` on PATH that always
/// reports 5 models makes the row disagree, says so on stderr, exit 1. A
/// solver that is not installed is skipped with a line saying how to
/// install it, and the run goes on.
#[test]
fn a_wrong_solver_is_caught_and_a_missing_one_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("clingo");
    std::fs::write(&fake, "#!/bin/sh\necho 'clingo version 0 (a fake)'\necho 'Models       : 5'\n").unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = std::env::join_paths([dir.path().to_path_buf(), "/usr/bin".into(), "/bin".into()]).unwrap();
    let (rows, stderr, status) = study("clingo,kissat-not-a-solver", &["cnf-samples/contest.lp"], Some(&path), &[]);
    assert!(rows.is_empty() && status == 2, "an unknown solver is a usage error: {stderr}");
    let (rows, stderr, status) = study("clingo,satsudoku", &["cnf-samples/contest.lp"], Some(&path), &[]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("DISAGREEMENT: clingo on cnf-samples/contest.lp"), "{stderr}");
    let clingo = rows.iter().find(|r| r["solver"] == "clingo").unwrap();
    assert_eq!((clingo["answer"].as_str(), clingo["agrees"].as_bool()), (Some("count 5"), Some(false)));
    // A solver that dies by a signal it was not sent (as the out-of-memory
    // killer sends it) is `killed`, not an answer.
    let clasp = dir.path().join("clasp");
    std::fs::write(&clasp, "#!/bin/sh\nkill -9 $$\n").unwrap();
    std::fs::set_permissions(&clasp, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (rows, stderr, status) = study("clasp", &["cnf-samples/contest.lp"], Some(&path), &[]);
    assert_eq!((status, rows[0]["status"].as_str()), (0, Some("killed")), "{stderr}");
    let (rows, stderr, status) = study("kissat,satsudoku", &["cnf-samples/contest.lp"], Some(&path), &[]);
    assert_eq!((status, rows.len()), (0, 1), "{stderr}");
    assert!(stderr.contains("skipped kissat: not installed (not packaged"), "{stderr}");
    // A formulation that cannot express the puzzle is a row that says so.
    let (rows, stderr, status) =
        study("clingo,satsudoku-grid,satsudoku", &["cnf-samples/family/killer-9x9.puzzle"], None, &[]);
    if installed("clingo", "a_wrong_solver_is_caught_and_a_missing_one_skipped") {
        assert_eq!(status, 0, "{stderr}");
        let grid = rows.iter().find(|r| r["solver"] == "satsudoku-grid").unwrap();
        assert_eq!(grid["status"], "refused", "{grid}");
    }
}

/// The drivers of solvers CI cannot install, run on stand-ins that print
/// what the real ones print: kissat the SAT competition's `s`/`v` lines
/// (from minisat's answer), sharpSAT-TD the model counting competition's
/// `c s exact arb int N`, d4 `s N`. Their answers are read and checked like
/// any other (a wrong count is a disagreement); sharpSAT-TD and d4 count
/// every variable, so an encoding with auxiliary variables is refused for
/// them. `minizinc:gecode` runs MiniZinc with that solver, and a backend
/// MiniZinc does not have is skipped.
#[test]
fn kissat_sharpsat_td_and_d4_drivers_read_their_formats() {
    let test = "kissat_sharpsat_td_and_d4_drivers_read_their_formats";
    if !installed("minisat", test) {
        return;
    }
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let script = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    let result = dir.path().join("minisat.out");
    let result = result.display();
    script(
        "kissat",
        &format!(
            "minisat \"$1\" {result} >/dev/null 2>&1\nif [ \"$(head -1 {result})\" = SAT ]; then echo 's SATISFIABLE'; \
             echo \"v $(tail -1 {result})\"; exit 10; else echo 's UNSATISFIABLE'; exit 20; fi"
        ),
    );
    script(
        "sharpSAT",
        "echo 'c o sharpSAT-TD stand-in'\necho 's SATISFIABLE'\necho 'c s type mc'\necho 'c s exact arb int 117'",
    );
    script("d4", "echo 'c d4 stand-in'\necho 's 7'");
    let path =
        std::env::join_paths([dir.path().to_path_buf(), "/usr/bin".into(), "/bin".into(), "/usr/local/bin".into()])
            .unwrap();
    let (rows, stderr, status) = study("kissat,sharpsat-td,d4", &["cnf-samples/many.lp"], Some(&path), &[]);
    assert_eq!(status, 1, "d4's 7 is not 117: {stderr}");
    let row = |name: &str| rows.iter().find(|r| r["solver"] == name).unwrap().clone();
    assert_eq!((row("kissat")["answer"].as_str(), row("kissat")["agrees"].as_bool()), (Some("multiple"), Some(true)));
    assert_eq!(
        (row("sharpsat-td")["answer"].as_str(), row("sharpsat-td")["agrees"].as_bool()),
        (Some("count 117"), Some(true))
    );
    assert_eq!(row("d4")["agrees"], false);
    assert!(stderr.contains("DISAGREEMENT: d4 on cnf-samples/many.lp"), "{stderr}");
    let (rows, stderr, _) = study("sharpsat-td", &["cnf-samples/family/killer-9x9.puzzle"], Some(&path), &[]);
    assert_eq!(rows[0]["status"], "refused", "{stderr}");
    assert!(stderr.contains("auxiliary"), "{stderr}");
    if installed("minizinc", test) {
        let (rows, stderr, status) =
            study("minizinc:gecode,minizinc:no-such-solver", &["cnf-samples/many.lp"], None, &[]);
        assert_eq!((status, rows.len()), (0, 1), "{stderr}");
        assert_eq!(
            (rows[0]["solver"].as_str(), rows[0]["answer"].as_str()),
            (Some("minizinc:gecode"), Some("count 117"))
        );
        assert!(stderr.contains("skipped minizinc:no-such-solver"), "{stderr}");
    }
}
