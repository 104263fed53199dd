//! The puzzle as a MiniZinc model: an array of digits, `alldifferent` for
//! each group, each relation as a `table` of the pairs it allows, sums and
//! the counting rules as linear and Boolean constraints. The output is the
//! grid, a row a line, which [`read_answer`] reads back.

use std::io::{self, Write};

use super::{AnswerError, Formulation, Pieces, Takes, Unsupported};
use crate::model::{Cell, Digit, Puzzle};

/// Writes the model.
pub(super) fn write(puzzle: &Puzzle, comments: &[String], out: &mut dyn Write) -> Result<io::Result<()>, Unsupported> {
    let p = Pieces::of(puzzle, Formulation::Mzn, Takes { sums: true, counting: true })?;
    Ok(write_pieces(&p, comments, out))
}

fn write_pieces(p: &Pieces, comments: &[String], out: &mut dyn Write) -> io::Result<()> {
    let x = |c: Cell| format!("x[{},{}]", c.row + 1, c.col + 1);
    let list = |cells: &[Cell]| itertools::join(cells.iter().map(|&c| x(c)), ", ");
    for line in comments {
        writeln!(out, "% {line}")?;
    }
    writeln!(out, "include \"alldifferent.mzn\";\ninclude \"table.mzn\";")?;
    writeln!(out, "array[1..{n}, 1..{n}] of var 1..{}: x;", p.digits, n = p.side)?;
    for cell in p.cells() {
        let domain = p.domain(cell);
        if domain.len() < p.digits {
            writeln!(out, "constraint {} in {{{}}};", x(cell), itertools::join(&domain, ", "))?;
        }
    }
    for group in p.puzzle.groups() {
        writeln!(out, "constraint alldifferent([{}]);", list(&group.cells))?;
    }
    for (relation, forbidden) in &p.relations {
        let allowed: Vec<String> = p
            .domain(relation.a)
            .into_iter()
            .flat_map(|a| p.domain(relation.b).into_iter().map(move |b| (a, b)))
            .filter(|pair| !forbidden.contains(pair))
            .map(|(a, b)| format!("{a}, {b}"))
            .collect();
        if allowed.is_empty() {
            writeln!(out, "constraint false;")?;
        } else {
            let (a, b) = (x(relation.a), x(relation.b));
            writeln!(out, "constraint table([{a}, {b}], [| {} |]);", allowed.join(" | "))?;
        }
    }
    for sum in &p.sums {
        let terms = itertools::join(sum.terms.iter().map(|&(c, w)| format!("{w} * {}", x(c))), " + ");
        writeln!(out, "constraint {terms} = {};", sum.target)?;
    }
    for (cells, d, times) in &p.contains {
        let terms = itertools::join(cells.iter().map(|&c| format!("bool2int({} = {d})", x(c))), " + ");
        writeln!(out, "constraint {terms} >= {times};")?;
    }
    for cells in &p.not_all_equal {
        let equal = itertools::join(cells.windows(2).map(|w| format!("{} = {}", x(w[0]), x(w[1]))), " /\\ ");
        writeln!(out, "constraint not ({equal});")?;
    }
    for (cell, line, value) in &p.index {
        for d in p.domain(*cell) {
            match line.get(usize::from(d) - 1) {
                Some(&target) => writeln!(out, "constraint {} = {d} -> {} = {value};", x(*cell), x(target))?,
                None => writeln!(out, "constraint {} != {d};", x(*cell))?,
            }
        }
    }
    writeln!(out, "solve satisfy;")?;
    writeln!(
        out,
        "output [show(x[r, c]) ++ if c = {n} then \"\\n\" else \" \" endif | r in 1..{n}, c in 1..{n}];",
        n = p.side
    )
}

/// MiniZinc's output: the first `side` lines of `side` numbers each;
/// `=====UNSATISFIABLE=====` is a proof of none.
pub(super) fn read_answer(side: usize, text: &str) -> Result<Option<Vec<Digit>>, AnswerError> {
    if text.contains("=====UNSATISFIABLE=====") {
        return Ok(None);
    }
    let rows: Vec<Vec<Digit>> = text
        .lines()
        .map(|l| l.split_whitespace().map(str::parse::<Digit>).collect::<Result<Vec<_>, _>>())
        .filter_map(Result::ok)
        .filter(|row| row.len() == side)
        .take(side)
        .collect();
    if rows.len() < side {
        return Err(AnswerError(format!("expected {side} lines of {side} digits, the grid MiniZinc prints")));
    }
    let assigned =
        rows.iter().enumerate().flat_map(|(r, row)| row.iter().enumerate().map(move |(c, &d)| (Cell::new(r, c), d)));
    super::fill(side, assigned).map(Some)
}
