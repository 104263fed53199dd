//! Reads one classic 9x9 puzzle per line (81 cells, `.` or `0` for blanks,
//! `#` lines skipped) and prints `LINE:COUNT` with the solutions counted up
//! to LIMIT (the first argument), as `tdoku-solve` does.
use std::io::{self, BufRead, Write};

use sudoku::Sudoku;

fn main() {
    let limit: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).expect("usage: sudoku-crate-peer LIMIT");
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let puzzle = Sudoku::from_str_line(line).expect("a 9x9 puzzle on one line");
        writeln!(out, "{line}:{}", puzzle.solutions_count_up_to(limit)).expect("stdout");
    }
}
