//! The puzzle as an answer set program for clingo: the contest's own form
//! (seed 000 is an ASP/Prolog contest) generalised to every piece. Facts
//! state the puzzle (`allowed/3`, `in/3`, `no/6`, `term/4`, ...), and a few
//! rules say what they mean: a choice of one digit a cell, at most one of
//! each digit a group, no forbidden pair, each sum's `#sum`. `clingo 0`
//! enumerates every answer set, one a solution; `#show x/3.` prints the
//! digits as `x(Row,Col,Digit)`.

use std::io::{self, Write};

use super::{AnswerError, Formulation, Pieces, Takes, Unsupported};
use crate::model::{Cell, Digit, Puzzle};

/// The rules, the same for every puzzle.
const RULES: &str = "\
#defined total/2. #defined term/4. #defined contains/3. #defined at/3.
#defined alike/1. #defined nae/3. #defined index/4. #defined line/4.
#defined group/1. #defined in/3. #defined no/6.
1 { x(R,C,D) : allowed(R,C,D) } 1 :- cell(R,C).
:- group(G), digit(D), #count { R,C : in(G,R,C), x(R,C,D) } > 1.
:- no(R1,C1,D1,R2,C2,D2), x(R1,C1,D1), x(R2,C2,D2).
:- total(S,T), #sum { W*D,R,C : term(S,R,C,W), x(R,C,D) } != T.
:- contains(K,D,T), #count { R,C : at(K,R,C), x(R,C,D) } < T.
:- alike(K), digit(D), x(R,C,D) : nae(K,R,C).
indexed(K,I) :- line(K,I,_,_).
:- index(K,R,C,_), x(R,C,I), not indexed(K,I).
:- index(K,R,C,V), x(R,C,I), line(K,I,R2,C2), not x(R2,C2,V).
#show x/3.
";

/// Writes the program.
pub(super) fn write(puzzle: &Puzzle, comments: &[String], out: &mut dyn Write) -> Result<io::Result<()>, Unsupported> {
    let p = Pieces::of(puzzle, Formulation::Asp, Takes { sums: true, counting: true })?;
    Ok(write_pieces(&p, comments, out))
}

fn write_pieces(p: &Pieces, comments: &[String], out: &mut dyn Write) -> io::Result<()> {
    let rc = |c: Cell| format!("{},{}", c.row + 1, c.col + 1);
    for line in comments {
        writeln!(out, "% {line}")?;
    }
    writeln!(out, "cell(1..{n},1..{n}).\ndigit(1..{}).", p.digits, n = p.side)?;
    for cell in p.cells() {
        let facts: Vec<String> = p.domain(cell).iter().map(|d| format!("allowed({},{d}).", rc(cell))).collect();
        writeln!(out, "{}", facts.join(" "))?;
    }
    for (k, group) in p.puzzle.groups().iter().enumerate() {
        let facts: Vec<String> = group.cells.iter().map(|&c| format!("in({},{}).", k + 1, rc(c))).collect();
        writeln!(out, "group({}). {}", k + 1, facts.join(" "))?;
    }
    for (relation, pairs) in &p.relations {
        for &(a, b) in pairs {
            writeln!(out, "no({},{a},{},{b}).", rc(relation.a), rc(relation.b))?;
        }
    }
    for (k, sum) in p.sums.iter().enumerate() {
        let terms: Vec<String> = sum.terms.iter().map(|&(c, w)| format!("term({},{},{w}).", k + 1, rc(c))).collect();
        writeln!(out, "total({},{}). {}", k + 1, sum.target, terms.join(" "))?;
    }
    for (k, (cells, d, times)) in p.contains.iter().enumerate() {
        let at: Vec<String> = cells.iter().map(|&c| format!("at({},{}).", k + 1, rc(c))).collect();
        writeln!(out, "contains({},{d},{times}). {}", k + 1, at.join(" "))?;
    }
    for (k, cells) in p.not_all_equal.iter().enumerate() {
        let facts: Vec<String> = cells.iter().map(|&c| format!("nae({},{}).", k + 1, rc(c))).collect();
        writeln!(out, "alike({}). {}", k + 1, facts.join(" "))?;
    }
    for (k, (cell, line, value)) in p.index.iter().enumerate() {
        let lines: Vec<String> =
            line.iter().enumerate().map(|(i, &c)| format!("line({},{},{}).", k + 1, i + 1, rc(c))).collect();
        writeln!(out, "index({},{},{value}). {}", k + 1, rc(*cell), lines.join(" "))?;
    }
    out.write_all(RULES.as_bytes())
}

/// clingo's answer: the atoms `x(R,C,D)` on the line after the first
/// `Answer:`; `UNSATISFIABLE` without an answer is a proof of none.
pub(super) fn read_answer(side: usize, text: &str) -> Result<Option<Vec<Digit>>, AnswerError> {
    let mut lines = text.lines();
    let answer = match lines.by_ref().position(|l| l.trim_start().starts_with("Answer:")) {
        Some(_) => lines.next().unwrap_or(""),
        None if text.contains("UNSATISFIABLE") => return Ok(None),
        None => text,
    };
    let mut assigned = Vec::new();
    for atom in answer.split_whitespace().filter(|a| a.starts_with("x(")) {
        let inner = atom.trim_start_matches("x(").trim_end_matches(')');
        let numbers: Vec<usize> = inner.split(',').filter_map(|s| s.trim().parse().ok()).collect();
        match numbers[..] {
            [r, c, d] if r >= 1 && c >= 1 && (1..=usize::from(Digit::MAX)).contains(&d) => {
                assigned.push((Cell::new(r - 1, c - 1), d as Digit))
            }
            _ => return Err(AnswerError(format!("expected an atom x(Row,Col,Digit), found {atom:?}"))),
        }
    }
    if assigned.is_empty() {
        return Err(AnswerError("no x(Row,Col,Digit) atom found: expected clingo's answer".into()));
    }
    super::fill(side, assigned).map(Some)
}
