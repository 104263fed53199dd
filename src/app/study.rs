//! `satsudoku compare --solvers LIST FILES`: external solvers and
//! satsudoku's own engines on every puzzle, each on the formulation it
//! reads (exported to a temporary file), run as a program and measured the
//! same way: wall and CPU time and peak memory of the process (`wait4`),
//! its status (solved, timeout, refused, killed: a signal not ours, most
//! often out of memory, error), and what it answers: a count
//! (model counters, clingo, MiniZinc, CP-SAT, SCIP's counting, satsudoku), a verdict (SAT
//! solvers: a model, then the same CNF with that model blocked, so unique,
//! multiple or none) or a solution (MIP and PB solvers). Every answer is
//! checked against satsudoku's own count, and every solution a solver gives
//! by the independent checker; a disagreement is printed loudly, marked in
//! the report, and makes the exit status 1. A solver that is not
//! installed is skipped with a line saying how to install it.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use satsudoku::compare::{median, TableFormat};
use satsudoku::count::plan::{self, Plan};
use satsudoku::dimacs::{self, Dialect, SolverAnswer};
use satsudoku::encode::{self, Encoding};
use satsudoku::formulate::{self, Answer, Formulation};
use satsudoku::model::{check, Grid, Puzzle};
use serde::Serialize;
use varisat::ExtendFormula as _;

use super::{AppError, Status};
use crate::diag;

const GANAK: &str = include_str!("../../scripts/ganak_count.py");
const HIGHS: &str = include_str!("../../scripts/highs_solve.py");
const CPSAT: &str = include_str!("../../scripts/cpsat_count.py");
const SCIP: &str = include_str!("../../scripts/scip_count.py");

/// What a solver's run answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gives {
    /// The number of solutions.
    Count,
    /// A model, then a second run with it blocked: unique, multiple or none.
    Verdict,
    /// One solution, or a proof of none.
    Solution,
}

/// A solver: what it reads, how it runs, what it gives.
#[derive(Clone, Copy, Debug)]
pub struct Solver {
    pub name: &'static str,
    formulation: Formulation,
    /// The exported file's extension (CBC and GLPK choose their reader by it).
    extension: &'static str,
    /// The program that must be installed (`python3` with `module`).
    program: &'static str,
    module: Option<&'static str>,
    gives: Gives,
    install: &'static str,
}

/// Every solver `--solvers` names.
pub const SOLVERS: &[Solver] = &[
    sat("minisat", "apt-get install minisat"),
    sat("cadical", "apt-get install cadical"),
    sat("kissat", "not packaged in Debian 12 or on PyPI: build it from its source and put kissat on PATH"),
    sat("picosat", "apt-get install picosat"),
    sat("cryptominisat5", "apt-get install cryptominisat"),
    Solver {
        name: "ganak",
        formulation: Formulation::Cnf,
        extension: "cnf",
        program: "python3",
        module: Some("pyganak"),
        gives: Gives::Count,
        install: "pip install pyganak",
    },
    Solver {
        name: "clingo",
        formulation: Formulation::Asp,
        extension: "lp",
        program: "clingo",
        module: None,
        gives: Gives::Count,
        install: "apt-get install gringo (or pip install clingo)",
    },
    Solver {
        name: "clasp",
        formulation: Formulation::Opb,
        extension: "opb",
        program: "clasp",
        module: None,
        gives: Gives::Solution,
        install: "apt-get install clasp",
    },
    Solver {
        name: "cbc",
        formulation: Formulation::Mip,
        extension: "lp",
        program: "cbc",
        module: None,
        gives: Gives::Solution,
        install: "apt-get install coinor-cbc",
    },
    Solver {
        name: "glpk",
        formulation: Formulation::Mip,
        extension: "lp",
        program: "glpsol",
        module: None,
        gives: Gives::Solution,
        install: "apt-get install glpk-utils",
    },
    Solver {
        name: "highs",
        formulation: Formulation::Mip,
        extension: "lp",
        program: "python3",
        module: Some("highspy"),
        gives: Gives::Solution,
        install: "pip install highspy",
    },
    Solver {
        name: "scip",
        formulation: Formulation::Mip,
        extension: "lp",
        program: "python3",
        module: Some("pyscipopt"),
        gives: Gives::Count,
        install: "pip install pyscipopt",
    },
    Solver {
        name: "minizinc",
        formulation: Formulation::Mzn,
        extension: "mzn",
        program: "minizinc",
        module: None,
        gives: Gives::Count,
        install: "apt-get install minizinc",
    },
    Solver {
        name: "cp-sat",
        formulation: Formulation::Opb,
        extension: "opb",
        program: "python3",
        module: Some("ortools"),
        gives: Gives::Count,
        install: "pip install ortools",
    },
    Solver {
        name: "sharpsat-td",
        formulation: Formulation::Cnf,
        extension: "cnf",
        program: "sharpSAT",
        module: None,
        gives: Gives::Count,
        install: "not packaged in Debian 12 or on PyPI: build sharpSAT-TD (github.com/Laakeri/sharpsat-td) and put its sharpSAT on PATH",
    },
    Solver {
        name: "d4",
        formulation: Formulation::Cnf,
        extension: "cnf",
        program: "d4",
        module: None,
        gives: Gives::Count,
        install: "not packaged in Debian 12 or on PyPI: build d4 (github.com/crillab/d4v2) and put d4 on PATH",
    },
    own("satsudoku"),
    own("satsudoku-enum"),
    own("satsudoku-grid"),
    own("satsudoku-dlx"),
    own("satsudoku-blocking"),
];

const fn sat(name: &'static str, install: &'static str) -> Solver {
    Solver {
        name,
        formulation: Formulation::Cnf,
        extension: "cnf",
        program: name,
        module: None,
        gives: Gives::Verdict,
        install,
    }
}

const fn own(name: &'static str) -> Solver {
    Solver {
        name,
        formulation: Formulation::Cnf,
        extension: "",
        program: "",
        module: None,
        gives: Gives::Count,
        install: "",
    }
}

/// The solvers of a comma-separated list (`all`: every one).
/// `minizinc:BACKEND` runs MiniZinc with one of its solvers (`minizinc
/// --solvers` lists them: Gecode in Debian's package, Chuffed, OR-tools,
/// SCIP or HiGHS where configured); plain `minizinc` uses its default.
pub fn parse_solvers(text: &str) -> Result<Vec<&'static Solver>, String> {
    if text == "all" {
        return Ok(SOLVERS.iter().collect());
    }
    text.split(',')
        .map(|name| {
            if let Some(backend) = name.trim().strip_prefix("minizinc:") {
                if backend.is_empty() || !backend.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) {
                    return Err(format!("minizinc:{backend}: expected a MiniZinc solver name such as minizinc:gecode"));
                }
                // The list lives as long as the run: one small leak per
                // backend named, so that a solver stays a `&'static Solver`.
                let named: &'static str = Box::leak(format!("minizinc:{backend}").into_boxed_str());
                let minizinc = SOLVERS.iter().find(|s| s.name == "minizinc").expect("minizinc is listed");
                return Ok(&*Box::leak(Box::new(Solver { name: named, ..*minizinc })));
            }
            SOLVERS
                .iter()
                .find(|s| s.name == name.trim() || (name.trim() == "cryptominisat" && s.name == "cryptominisat5"))
                .ok_or_else(|| {
                    format!(
                        "unknown solver {name:?}: expected {} or all",
                        itertools::join(SOLVERS.iter().map(|s| s.name), ", ")
                    )
                })
        })
        .collect()
}

impl Solver {
    /// Whether it can run here.
    fn installed(&self) -> bool {
        if self.program.is_empty() {
            return true;
        }
        let on_path = std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(self.program).is_file()));
        if let Some(backend) = self.backend() {
            return on_path && minizinc_has(backend);
        }
        on_path
            && self.module.is_none_or(|module| {
                Command::new("python3")
                    .args(["-c", &format!("import {module}")])
                    .output()
                    .is_ok_and(|o| o.status.success())
            })
    }

    /// MiniZinc's solver, for `minizinc:BACKEND`.
    fn backend(&self) -> Option<&'static str> {
        self.name.strip_prefix("minizinc:")
    }

    /// The engine, for satsudoku's own.
    fn engine(&self) -> Option<Option<&'static str>> {
        self.name.strip_prefix("satsudoku").map(|rest| rest.strip_prefix('-'))
    }
}

/// Whether `minizinc --solvers` lists `backend` (by name or id, any case)
/// with a known version: its configurations for CPLEX, Gurobi and the
/// like are listed with `<unknown version>` when their library is absent.
fn minizinc_has(backend: &str) -> bool {
    let Ok(out) = Command::new("minizinc").arg("--solvers").output() else { return false };
    let listed = String::from_utf8_lossy(&out.stdout).to_lowercase();
    let backend = backend.to_lowercase();
    listed.lines().any(|line| {
        let line = line.trim();
        let named = line.starts_with(&backend)
            || line.contains(&format!(".{backend},"))
            || line.contains(&format!("({backend},"));
        named && !line.contains("<unknown version>")
    })
}

/// One measured run of a process.
#[derive(Clone, Copy, Debug)]
struct Measured {
    wall: Duration,
    /// The first run's wall time: for a SAT solver the time to a model,
    /// before the second run proves uniqueness; for the others `wall`.
    first: Duration,
    cpu: Duration,
    peak_kb: u64,
    timed_out: bool,
    exit: Option<i32>,
}

impl Measured {
    /// A run that did not happen (a refused puzzle): nothing measured.
    fn not_run() -> Measured {
        let zero = Duration::ZERO;
        Measured { wall: zero, first: zero, cpu: zero, peak_kb: 0, timed_out: false, exit: Some(0) }
    }
}

/// Runs `program args`, its stdout to `stdout`, killed after `timeout`;
/// its wall and CPU time and peak resident memory from `wait4`.
fn measure(program: &str, args: &[String], stdout: &Path, timeout: Duration) -> std::io::Result<Measured> {
    let out = File::create(stdout)?;
    let start = Instant::now();
    let child = Command::new(program).args(args).stdin(Stdio::null()).stdout(out).stderr(Stdio::null()).spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // SAFETY: pid is our child, not yet reaped (std's Child is never waited on).
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break;
        }
        if done < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if !timed_out && start.elapsed() >= timeout {
            timed_out = true;
            // SAFETY: signalling our own unreaped child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let wall = start.elapsed();
    let tv = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    let exit = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Ok(Measured {
        wall,
        first: wall,
        cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
        peak_kb: usage.ru_maxrss as u64,
        timed_out,
        exit,
    })
}

/// A solver's answer, as the report shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Said {
    Count(u128),
    Unique,
    Multiple,
    None,
    Solution,
    Unknown,
}

impl Said {
    fn text(&self) -> String {
        match self {
            Said::Count(n) => format!("count {n}"),
            Said::Unique => "unique".into(),
            Said::Multiple => "multiple".into(),
            Said::None => "none".into(),
            Said::Solution => "a solution".into(),
            Said::Unknown => "no answer".into(),
        }
    }

    /// Whether it agrees with `expected` solutions; `None` when it says nothing.
    fn agrees(&self, expected: u128) -> Option<bool> {
        Some(match self {
            Said::Count(n) => *n == expected,
            Said::Unique => expected == 1,
            Said::Multiple => expected >= 2,
            Said::None => expected == 0,
            Said::Solution => expected >= 1,
            Said::Unknown => return None,
        })
    }
}

/// A run's status, its answer, and what is wrong with the answer in
/// itself (a solution that breaks the puzzle), if anything.
type Outcome = (String, Said, Option<String>);

/// One row of the report.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub file: String,
    pub solver: String,
    pub formulation: String,
    /// solved, timeout, refused (the formulation or engine cannot take the
    /// puzzle), killed (a signal not ours: most often out of memory), error
    pub status: String,
    pub answer: String,
    /// satsudoku's own count.
    pub expected: String,
    /// Whether the answer agrees with it (`null`: no answer).
    pub agrees: Option<bool>,
    pub wall_ms: f64,
    /// For a SAT solver the time to a model (its first run); else `wall_ms`.
    pub first_ms: f64,
    pub cpu_ms: f64,
    pub peak_mb: f64,
}

/// What `compare --solvers` needs.
pub struct Study<'a> {
    pub solvers: Vec<&'static Solver>,
    pub repeat: u32,
    pub timeout: Duration,
    pub encoding: Encoding,
    pub puzzles: &'a [(String, Puzzle)],
    /// The files, for satsudoku's own runs.
    pub paths: Vec<PathBuf>,
}

/// Runs the study: its rows, and whether any answer disagreed.
pub fn run(study: &Study) -> Result<(Vec<Row>, bool), AppError> {
    let dir = tempfile::tempdir().map_err(|e| AppError::Other(e.into()))?;
    let mut rows = Vec::new();
    let mut disagreed = false;
    let available: Vec<&Solver> = study
        .solvers
        .iter()
        .copied()
        .filter(|s| {
            let ok = s.installed();
            if !ok {
                diag!("satsudoku: skipped {}: not installed ({}; bash scripts/install-tools.sh --research installs the solvers the package registries have)", s.name, s.install);
            }
            ok
        })
        .collect();
    for ((name, puzzle), path) in study.puzzles.iter().zip(&study.paths) {
        let plan = Plan {
            limits: satsudoku::count::Limits { timeout: Some(study.timeout), ..Default::default() },
            ..Plan::new(study.encoding)
        };
        let tally = plan::count(puzzle, &plan, &mut ()).map_err(AppError::from)?;
        let expected = tally.is_exact().then(|| u128::try_from(&tally.count).ok()).flatten();
        for solver in &available {
            let mut runs = Vec::new();
            let mut last: Outcome = (String::from("error"), Said::Unknown, None);
            for _ in 0..study.repeat {
                let (measured, outcome) = run_one(solver, puzzle, path, study, dir.path())?;
                runs.push(measured);
                last = outcome;
            }
            let (status, said, problem) = last;
            if let Some(problem) = &problem {
                diag!("satsudoku: DISAGREEMENT: {} on {name}: {problem}", solver.name);
                disagreed = true;
            }
            let agrees = match (problem.is_some(), expected) {
                (true, _) => Some(false),
                (false, Some(expected)) => said.agrees(expected),
                (false, None) => None,
            };
            if agrees == Some(false) && problem.is_none() {
                diag!(
                    "satsudoku: DISAGREEMENT: {} on {name} answers {}, satsudoku counts {}",
                    solver.name,
                    said.text(),
                    expected.map_or("?".into(), |e| e.to_string())
                );
                disagreed = true;
            }
            let ms = |d: fn(&Measured) -> Duration| median(runs.iter().map(|m| d(m).as_secs_f64() * 1e3).collect());
            rows.push(Row {
                file: name.clone(),
                solver: solver.name.to_owned(),
                formulation: if solver.engine().is_some() { "native".into() } else { solver.formulation.to_string() },
                status,
                answer: said.text(),
                expected: expected.map_or_else(|| "unknown".into(), |e| e.to_string()),
                agrees,
                wall_ms: ms(|m| m.wall),
                first_ms: ms(|m| m.first),
                cpu_ms: ms(|m| m.cpu),
                peak_mb: runs.iter().map(|m| m.peak_kb).max().unwrap_or(0) as f64 / 1024.0,
            });
        }
    }
    Ok((rows, disagreed))
}

/// One run of `solver` on `puzzle`: its measurement, and its status,
/// answer and (when the answer is wrong in itself) the problem.
fn run_one(
    solver: &Solver,
    puzzle: &Puzzle,
    path: &Path,
    study: &Study,
    dir: &Path,
) -> Result<(Measured, Outcome), AppError> {
    let io = |e: std::io::Error| AppError::Other(anyhow::anyhow!("running {}: {e}", solver.name));
    let out = dir.join("out.txt");
    let secs = format!("{}", study.timeout.as_secs_f64());
    if let Some(engine) = solver.engine() {
        let me = std::env::current_exe().map_err(io)?;
        let mut args: Vec<String> = vec!["count".into(), "-j1".into(), "--timeout".into(), secs];
        if let Some(engine) = engine {
            args.extend(["--engine".into(), engine.into()]);
        }
        args.push(path.display().to_string());
        let measured =
            measure(&me.display().to_string(), &args, &out, study.timeout + Duration::from_secs(5)).map_err(io)?;
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        let count =
            text.trim().strip_prefix("solutions(").and_then(|s| s.strip_suffix(").")).and_then(|s| s.parse().ok());
        let outcome = match (measured.exit, count) {
            (Some(0), Some(n)) => ("solved".into(), Said::Count(n), None),
            (Some(3), _) => ("timeout".into(), Said::Unknown, None),
            // The engine does not take the puzzle (the grid engine and
            // sums, dancing links and arithmetic).
            (Some(2), _) => ("refused".into(), Said::Unknown, None),
            _ => ("error".into(), Said::Unknown, None),
        };
        return Ok((measured, outcome));
    }
    if solver.formulation != Formulation::Cnf {
        // A rule the formulation cannot express: no run, a row that says so.
        if let Err(e) = formulate::write(puzzle, solver.formulation, &[], &mut std::io::sink()) {
            diag!("satsudoku: {}: refused: {e}", solver.name);
            return Ok((Measured::not_run(), ("refused".into(), Said::Unknown, None)));
        }
    }
    let input = dir.join(format!("puzzle.{}", solver.extension));
    let encoded = (solver.formulation == Formulation::Cnf).then(|| encode::encode(puzzle, &study.encoding));
    // sharpSAT-TD and d4 count every variable's models, not the projection
    // (`c p show`): with auxiliary variables their count is another number.
    if let Some(encoded) = encoded.as_ref().filter(|_| matches!(solver.name, "sharpsat-td" | "d4")) {
        if encoded.vars.primary_count() < encoded.formula.var_count() {
            diag!(
                "satsudoku: {}: refused: it counts every variable, and this encoding has {} auxiliary ones (ganak counts the projection)",
                solver.name,
                encoded.formula.var_count() - encoded.vars.primary_count()
            );
            return Ok((Measured::not_run(), ("refused".into(), Said::Unknown, None)));
        }
    }
    let write = |extra: Option<Vec<varisat::Lit>>| -> Result<(), AppError> {
        let mut file = File::create(&input).map_err(io)?;
        match &encoded {
            Some(encoded) => {
                let mut formula = varisat::CnfFormula::new();
                formula.set_var_count(encoded.formula.var_count());
                for clause in encoded.formula.iter() {
                    formula.add_clause(clause);
                }
                if let Some(clause) = extra {
                    formula.add_clause(&clause);
                }
                let projection: Vec<_> = (0..encoded.vars.primary_count()).map(varisat::Var::from_index).collect();
                dimacs::write_dimacs(&mut file, &formula, &projection, Dialect::Mcc, &[]).map_err(io)
            }
            None => formulate::write(puzzle, solver.formulation, &[], &mut file)
                .map_err(|e| AppError::Usage(e.to_string()))?
                .map_err(io),
        }
    };
    write(None)?;
    let file = input.display().to_string();
    let solution = dir.join("solution.txt");
    let _ = std::fs::remove_file(&solution);
    let (program, args): (&str, Vec<String>) = match solver.name {
        "minisat" => ("minisat", vec![file.clone(), solution.display().to_string()]),
        "cryptominisat5" => ("cryptominisat5", vec!["--verb".into(), "0".into(), file.clone()]),
        "ganak" => ("python3", vec!["-c".into(), GANAK.into(), file.clone()]),
        "clingo" => ("clingo", vec![file.clone(), "0".into(), "--quiet=2".into()]),
        "cbc" => ("cbc", vec![file.clone(), "solve".into(), "solu".into(), solution.display().to_string()]),
        "glpk" => ("glpsol", vec!["--lp".into(), file.clone(), "-o".into(), solution.display().to_string()]),
        "highs" => ("python3", vec!["-c".into(), HIGHS.into(), file.clone(), solution.display().to_string()]),
        "minizinc" => ("minizinc", vec!["-a".into(), file.clone()]),
        name if name.starts_with("minizinc:") => {
            let backend = solver.backend().unwrap_or_default().to_owned();
            ("minizinc", vec!["--solver".into(), backend, "-a".into(), file.clone()])
        }
        "sharpsat-td" => (
            "sharpSAT",
            vec![
                "-decot".into(),
                "1".into(),
                "-decow".into(),
                "100".into(),
                "-tmpdir".into(),
                dir.display().to_string(),
                "-cs".into(),
                "3500".into(),
                file.clone(),
            ],
        ),
        "d4" => ("d4", vec!["-i".into(), file.clone(), "-m".into(), "counting".into()]),
        "cp-sat" => ("python3", vec!["-c".into(), CPSAT.into(), file.clone(), secs.clone()]),
        "scip" => ("python3", vec!["-c".into(), SCIP.into(), file.clone(), secs.clone()]),
        name => (name, vec![file.clone()]),
    };
    let measured = measure(program, &args, &out, study.timeout).map_err(io)?;
    if measured.timed_out {
        return Ok((measured, ("timeout".into(), Said::Unknown, None)));
    }
    if measured.exit.is_none() {
        // Ended by a signal we did not send: most often the kernel's
        // out-of-memory killer.
        return Ok((measured, ("killed".into(), Said::Unknown, None)));
    }
    let stdout = std::fs::read_to_string(&out).unwrap_or_default();
    let answer_text = std::fs::read_to_string(&solution).unwrap_or_else(|_| stdout.clone());
    let checked = |grid: &Grid| {
        let violations = check::violations(puzzle, grid);
        (!violations.is_empty()).then(|| format!("its solution breaks the puzzle: {}", violations[0]))
    };
    let outcome = match solver.gives {
        Gives::Count => {
            let count: Option<u128> = match solver.name {
                "clingo" => stdout
                    .lines()
                    .find_map(|l| l.strip_prefix("Models"))
                    .map(|m| m.trim_start_matches([' ', ':']).trim())
                    .filter(|m| !m.ends_with('+'))
                    .and_then(|m| m.parse().ok()),
                name if name.starts_with("minizinc")
                    && (stdout.contains("==========") || stdout.contains("=====UNSATISFIABLE=====")) =>
                {
                    Some(stdout.matches("----------").count() as u128)
                }
                "cp-sat" | "scip" => {
                    stdout.lines().find_map(|l| l.strip_prefix("s mc ")).and_then(|n| n.trim().parse().ok())
                }
                "ganak" => stdout.lines().rev().find_map(|l| l.trim().parse().ok()),
                "sharpsat-td" | "d4" => mcc_count(&stdout),
                _ => None,
            };
            match count {
                Some(n) => ("solved".into(), Said::Count(n), None),
                None => ("error".into(), Said::Unknown, None),
            }
        }
        Gives::Solution => match formulate::read_answer(puzzle, solver.formulation, &answer_text) {
            Ok(Answer::Solution(grid)) => ("solved".into(), Said::Solution, checked(&grid)),
            Ok(Answer::NoSolution) => ("solved".into(), Said::None, None),
            Err(_) => ("error".into(), Said::Unknown, None),
        },
        Gives::Verdict => {
            let encoded = encoded.as_ref().expect("a CNF solver");
            let model = |text: &str| dimacs::parse_model(text, solver.name, encoded.formula.var_count());
            match model(&answer_text) {
                Ok(SolverAnswer::Unsat) => ("solved".into(), Said::None, None),
                Ok(SolverAnswer::Sat(values)) => {
                    match encoded.vars.decode(|v| values.get(v.index()).copied().flatten()) {
                        Err(e) => ("solved".into(), Said::Solution, Some(format!("its model is no grid: {e}"))),
                        Ok(grid) => {
                            if let Some(problem) = checked(&grid) {
                                return Ok((measured, ("solved".into(), Said::Solution, Some(problem))));
                            }
                            // The same CNF with that model blocked: unique when UNSAT.
                            write(Some(encoded.vars.blocking_clause(&grid)))?;
                            let _ = std::fs::remove_file(&solution);
                            let second = measure(program, &args, &out, study.timeout).map_err(io)?;
                            let total = Measured {
                                wall: measured.wall + second.wall,
                                first: measured.wall,
                                cpu: measured.cpu + second.cpu,
                                peak_kb: measured.peak_kb.max(second.peak_kb),
                                ..second
                            };
                            if second.timed_out {
                                return Ok((total, ("timeout".into(), Said::Unknown, None)));
                            }
                            let text = std::fs::read_to_string(&solution)
                                .unwrap_or_else(|_| std::fs::read_to_string(&out).unwrap_or_default());
                            let said = match model(&text) {
                                Ok(SolverAnswer::Unsat) => Said::Unique,
                                Ok(SolverAnswer::Sat(_)) => Said::Multiple,
                                _ => Said::Unknown,
                            };
                            return Ok((total, ("solved".into(), said, None)));
                        }
                    }
                }
                _ => ("error".into(), Said::Unknown, None),
            }
        }
    };
    Ok((measured, outcome))
}

/// A model counter's exact count in the model counting competition's
/// output (2021 on: `c s exact arb int N`; also `s mc N`), or d4's `s N`;
/// `None` for anything else (an approximate count, `s UNKNOWN`).
pub fn mcc_count(stdout: &str) -> Option<u128> {
    let mut count = None;
    for line in stdout.lines().map(str::trim) {
        let number = line
            .strip_prefix("c s exact arb int ")
            .or_else(|| line.strip_prefix("s mc "))
            .or_else(|| line.strip_prefix("s ").filter(|n| n.chars().all(|c| c.is_ascii_digit())));
        if let Some(n) = number {
            let n: u128 = n.trim().parse().ok()?;
            if count.is_some_and(|c| c != n) {
                return None; // two different counts: not an answer
            }
            count = Some(n);
        }
    }
    count
}

/// The rows in `format`.
pub fn render(rows: &[Row], format: TableFormat) -> String {
    let header = [
        "file",
        "solver",
        "formulation",
        "status",
        "answer",
        "satsudoku",
        "agrees",
        "wall ms",
        "first ms",
        "cpu ms",
        "peak MB",
    ];
    let cells = |r: &Row| {
        vec![
            r.file.clone(),
            r.solver.clone(),
            r.formulation.clone(),
            r.status.clone(),
            r.answer.clone(),
            r.expected.clone(),
            match r.agrees {
                Some(true) => "yes".into(),
                Some(false) => "NO".into(),
                None => "-".into(),
            },
            format!("{:.1}", r.wall_ms),
            format!("{:.1}", r.first_ms),
            format!("{:.1}", r.cpu_ms),
            format!("{:.1}", r.peak_mb),
        ]
    };
    match format {
        TableFormat::Json => {
            serde_json::to_string_pretty(&serde_json::json!({ "runs": rows })).unwrap_or_default() + "\n"
        }
        TableFormat::Csv => {
            let mut writer = csv::Writer::from_writer(Vec::new());
            let _ = writer.write_record(header);
            for row in rows {
                let _ = writer.write_record(cells(row));
            }
            String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
        }
        TableFormat::Markdown => {
            let mut out = format!("| {} |\n|{}\n", header.join(" | "), "---|".repeat(header.len()));
            for row in rows {
                out += &format!("| {} |\n", cells(row).join(" | "));
            }
            out
        }
        TableFormat::Table => {
            let all: Vec<Vec<String>> =
                std::iter::once(header.iter().map(|h| h.to_string()).collect()).chain(rows.iter().map(cells)).collect();
            let widths: Vec<usize> =
                (0..header.len()).map(|i| all.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
            let mut out = String::new();
            for row in all {
                let line: Vec<String> = row.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
                out += line.join("  ").trim_end();
                out.push('\n');
            }
            out
        }
    }
}

/// Strong, distinct line colours (the Tableau 10 and two more), dark
/// enough on white.
const PALETTE: [plotters::style::RGBColor; 12] = [
    plotters::style::RGBColor(31, 119, 180),
    plotters::style::RGBColor(255, 127, 14),
    plotters::style::RGBColor(44, 160, 44),
    plotters::style::RGBColor(214, 39, 40),
    plotters::style::RGBColor(148, 103, 189),
    plotters::style::RGBColor(140, 86, 75),
    plotters::style::RGBColor(227, 119, 194),
    plotters::style::RGBColor(90, 90, 90),
    plotters::style::RGBColor(188, 189, 34),
    plotters::style::RGBColor(23, 190, 207),
    plotters::style::RGBColor(0, 0, 0),
    plotters::style::RGBColor(0, 90, 50),
];

/// The cactus plot: for each solver, its solved instances' times sorted,
/// the k-th at x = k (instances solved within that time), time on a log
/// axis, as SAT and model counting papers draw it.
pub fn cactus(rows: &[Row]) -> Result<String, String> {
    use plotters::prelude::*;
    let mut solvers: Vec<String> = rows.iter().map(|r| r.solver.clone()).collect();
    solvers.dedup();
    solvers.sort();
    solvers.dedup();
    let lines: Vec<(String, Vec<f64>)> = solvers
        .iter()
        .map(|s| {
            let mut times: Vec<f64> = rows
                .iter()
                .filter(|r| &r.solver == s && r.status == "solved" && r.agrees != Some(false))
                .map(|r| r.wall_ms.max(0.01) / 1e3)
                .collect();
            times.sort_by(f64::total_cmp);
            (s.clone(), times)
        })
        .collect();
    let most = lines.iter().map(|(_, t)| t.len()).max().unwrap_or(0).max(1);
    let (low, high) =
        lines.iter().flat_map(|(_, t)| t).fold((f64::INFINITY, 0.0f64), |(l, h), &v| (l.min(v), h.max(v)));
    let (low, high) = if high > 0.0 { (low / 2.0, high * 2.0) } else { (0.001, 1.0) };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Instances solved within a time (cactus plot)", ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(0u32..(most as u32 + 1), (low..high).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_labels(most + 2)
            .x_desc("instances solved")
            .y_desc("wall time per instance, s (log scale)")
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, (solver, times)) in lines.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()].to_rgba();
            let points: Vec<(u32, f64)> = times.iter().enumerate().map(|(k, &t)| (k as u32 + 1, t)).collect();
            chart
                .draw_series(std::iter::once(PathElement::new(points.clone(), colour.stroke_width(2))))
                .map_err(|e| e.to_string())?
                .label(solver.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2)));
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled()))).map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.9))
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// The per-instance scatter of solvers `a` and `b`: one point per puzzle at
/// (time of `a`, time of `b`), both axes log scale, with the diagonal; a
/// puzzle one of them did not solve sits at the timeout, on the border.
pub fn scatter(rows: &[Row], a: &str, b: &str, timeout: Duration) -> Result<String, String> {
    use plotters::prelude::*;
    let cap = timeout.as_secs_f64();
    let time = |solver: &str, file: &str| {
        rows.iter().find(|r| r.solver == solver && r.file == file).map(|r| {
            if r.status == "solved" && r.agrees != Some(false) {
                (r.wall_ms / 1e3).max(1e-3)
            } else {
                cap
            }
        })
    };
    let mut files: Vec<&str> = rows.iter().map(|r| r.file.as_str()).collect();
    files.dedup();
    let points: Vec<(f64, f64)> = files.iter().filter_map(|f| Some((time(a, f)?, time(b, f)?))).collect();
    if points.is_empty() {
        return Err(format!("no puzzle was run by both {a} and {b}"));
    }
    let low = points.iter().flat_map(|&(x, y)| [x, y]).fold(f64::INFINITY, f64::min) / 2.0;
    let high = cap.max(points.iter().flat_map(|&(x, y)| [x, y]).fold(0.0, f64::max)) * 1.5;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640, 640)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{b} against {a}, per puzzle"), ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d((low..high).log_scale(), (low..high).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(format!("{a}: wall time, s (log scale)"))
            .y_desc(format!("{b}: wall time, s (log scale)"))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(std::iter::once(PathElement::new(vec![(low, low), (high, high)], BLACK.mix(0.4))))
            .map_err(|e| e.to_string())?;
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 4, BLUE.filled()))).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Prints the report and writes the chart; exit 1 on a disagreement.
pub fn finish(rows: &[Row], disagreed: bool, format: TableFormat, out: &mut dyn Write) -> Result<Status, AppError> {
    out.write_all(render(rows, format).as_bytes()).map_err(AppError::write("stdout"))?;
    if disagreed {
        diag!("satsudoku: some solvers disagree with satsudoku's count: see the rows marked NO");
        return Ok(Status::NotASolution);
    }
    Ok(Status::Done)
}
