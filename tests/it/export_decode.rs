//! `export` writes DIMACS that reads back to the same formula and count;
//! `decode` turns a solver's model into a grid and judges it.

use crate::common::satsudoku;
use predicates::prelude::*;
use predicates::str::contains;
use satsudoku::dimacs::parse_dimacs;
use varisat::{ExtendFormula, Lit, Solver, Var};

fn export(file: &str, extra: &[&str]) -> String {
    let out = satsudoku().arg("export").arg(file).args(extra).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// A blocking-clause count written here, projected on `show`, with its own
/// solver loop (not the library's engine).
fn projected_count(text: &str) -> u64 {
    let dimacs = parse_dimacs(text, "export").unwrap();
    let show = dimacs.projection.clone().unwrap_or_else(|| (0..dimacs.var_count).map(Var::from_index).collect());
    let mut solver = Solver::new();
    solver.add_formula(&dimacs.to_formula());
    let mut count = 0;
    while solver.solve().unwrap() {
        let model = solver.model().unwrap();
        let block: Vec<Lit> = show.iter().map(|&v| !model[v.index()]).collect();
        solver.add_clause(&block);
        count += 1;
    }
    count
}

#[test]
fn export_header_and_projection_are_exact() {
    let text = export("cnf-samples/contest.lp", &[]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "c t pmc");
    assert!(lines.contains(&"p cnf 729 17469"));
    let show: Vec<String> = (1..=729).map(|v| v.to_string()).collect();
    assert_eq!(lines.iter().filter(|l| l.starts_with("c p show")).count(), 1);
    assert!(lines.contains(&format!("c p show {} 0", show.join(" ")).as_str()));
    assert!(!text.contains("c ind"), "ganak rejects c ind next to c p show");
    let free = lines.iter().filter(|l| l.starts_with("c ") && !l.starts_with("c p show") && **l != "c t pmc");
    for line in free {
        assert!(!line.starts_with("c p ") && !line.starts_with("c t "), "{line}");
    }
    let clause_lines = lines.iter().filter(|l| !l.starts_with('c') && !l.starts_with('p')).count();
    assert_eq!(clause_lines, 17469);
}

#[test]
fn dialects_declare_the_projection_their_way() {
    let ind = export("cnf-samples/contest.lp", &["--dialect", "ind"]);
    assert!(!ind.contains("c p show") && !ind.contains("c t "));
    assert_eq!(parse_dimacs(&ind, "ind").unwrap().projection.unwrap().len(), 729);
    let plain = export("cnf-samples/contest.lp", &["--dialect", "plain"]);
    assert!(!plain.contains("c ind") && !plain.contains("c p show"));
    assert_eq!(parse_dimacs(&plain, "plain").unwrap().projection, None);
}

#[test]
fn exported_cnf_counts_like_the_puzzle() {
    // many.lp: the count recorded in cnf-samples/COUNTS.tsv, checked against
    // the oracle in tests/samples.rs.
    for (file, expected) in [("cnf-samples/contest.lp", 1), ("cnf-samples/zero.lp", 0), ("cnf-samples/some.lp", 12)] {
        assert_eq!(projected_count(&export(file, &[])), expected, "{file}");
    }
}

#[test]
fn output_file_is_written_and_replaced_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("contest.cnf");
    std::fs::write(&out, "old content").unwrap();
    satsudoku().args(["export", "cnf-samples/contest.lp", "-o"]).arg(&out).assert().success().stdout("");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("c t pmc\n") && text.ends_with(" 0\n"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left");
}

#[test]
fn failed_export_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir").join("x.cnf");
    satsudoku()
        .args(["export", "cnf-samples/contest.lp", "-o"])
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(contains("cannot write").and(contains("does not exist")));
    assert!(!missing.exists());
    satsudoku().args(["export", "tests/data/empty.lp", "-o"]).arg(dir.path().join("y.cnf")).assert().code(2);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// The published solution of the contest example (the same grid as the ICPC
/// sample), as literals by the documented formula 81(r-1) + 9(c-1) + d.
const SOLUTION: [[u32; 9]; 9] = [
    [5, 3, 7, 8, 2, 1, 6, 4, 9],
    [9, 6, 4, 5, 3, 7, 8, 2, 1],
    [8, 1, 2, 9, 4, 6, 7, 3, 5],
    [6, 4, 5, 3, 7, 8, 1, 9, 2],
    [7, 8, 1, 4, 9, 2, 5, 6, 3],
    [3, 2, 9, 6, 1, 5, 4, 7, 8],
    [2, 7, 8, 1, 6, 9, 3, 5, 4],
    [1, 9, 3, 7, 5, 4, 2, 8, 6],
    [4, 5, 6, 2, 8, 3, 9, 1, 7],
];

fn model_literals(grid: &[[u32; 9]; 9]) -> Vec<i64> {
    let mut lits = Vec::new();
    for r in 1..=9 {
        for c in 1..=9 {
            for d in 1..=9 {
                let v = 81 * (r - 1) + 9 * (c - 1) + d;
                lits.push(if grid[r as usize - 1][c as usize - 1] == d as u32 { v } else { -v });
            }
        }
    }
    lits
}

fn grid_text(grid: &[[u32; 9]; 9]) -> String {
    grid.iter().map(|row| itertools::join(row, " ") + "\n").collect()
}

fn decode(model: &str) -> assert_cmd::assert::Assert {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("model.txt");
    std::fs::write(&path, model).unwrap();
    satsudoku().args(["decode", "cnf-samples/contest.lp"]).arg(&path).assert()
}

#[test]
fn decode_reads_minisat_and_competition_models() {
    let lits = itertools::join(model_literals(&SOLUTION), " ");
    decode(&format!("SAT\n{lits} 0\n")).success().stdout(grid_text(&SOLUTION)).stderr(contains("solves the puzzle"));
    decode(&format!("c by hand\ns SATISFIABLE\nv {lits}\nv 0\n")).success().stdout(grid_text(&SOLUTION));
}

#[test]
fn decode_flags_a_model_that_breaks_the_puzzle() {
    let mut wrong = SOLUTION;
    wrong[0].swap(0, 1); // 3 5 ...: rows stay all-different, sums and columns break
    let lits = itertools::join(model_literals(&wrong), " ");
    decode(&format!("SAT\n{lits} 0\n"))
        .code(1)
        .stdout(grid_text(&wrong))
        .stderr(contains("violation").and(contains("does NOT solve")));
}

#[test]
fn decode_explains_models_that_are_not_grids() {
    decode("UNSAT\n").code(1).stderr(contains("UNSAT"));
    decode("SAT\n1 2 0\n").code(1).stderr(contains("not a grid"));
    decode("SAT\n1 x 0\n").code(2).stderr(contains("model.txt:2:3: expected a literal"));
}

/// A model of a CNF exported with other encoding options says which
/// options to give: one that names variables the CNF does not have, and
/// one that decodes to no grid (every variable true: several digits in a
/// cell), each with a hint naming the encoding it was read as.
#[test]
fn a_model_of_another_encoding_hints_at_the_options() {
    let dir = tempfile::tempdir().unwrap();
    let beyond = dir.path().join("beyond.model");
    // The contest's direct encoding has 729 variables; log digits 324.
    std::fs::write(&beyond, format!("SAT\n{} 0\n", (1..=729).map(|v| v.to_string()).collect::<Vec<_>>().join(" ")))
        .unwrap();
    satsudoku()
        .args(["decode", "--digits", "log", "cnf-samples/contest.lp"])
        .arg(&beyond)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("beyond the 324 variables").and(predicates::str::contains("encoding log")));
    satsudoku()
        .args(["decode", "cnf-samples/contest.lp"])
        .arg(&beyond)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("not a grid").and(predicates::str::contains("hint: decode reads the model")));
}
