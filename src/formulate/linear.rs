//! The puzzle as a linear program over integer variables, written in CPLEX
//! LP, free MPS or OPB, and a solver's solution read back.
//!
//! - The binary program (seed 004's): `x_R_C_D = 1` when cell (R, C)
//!   holds D (a variable only for the digits its domain allows); each cell
//!   one digit; each group at most one of each digit (exactly one when it
//!   has as many cells as digits); a relation's forbidden pairs
//!   `x_a_d + x_b_e <= 1`; a sum `sum(w * d * x_c_d) = target`; a
//!   quadruple's `sum(x_c_d) >= k`; Takuzu's no three alike
//!   `sum(x_c_d) <= len - 1`; an indexer's `x_cell_d <= x_target_value`.
//! - The integer program (seed 004's, its all-different linearised as seed
//!   003 does): `v_R_C` in the cell's range; for every two cells of a group
//!   a binary `o_K` with `v_a - v_b + M o >= 1` and `v_b - v_a - M o >= 1 - M`
//!   (M the number of digits: one of the two orders holds); order and sum
//!   relations and sums as linear rows. What is not linear in one integer a
//!   cell (Kropki dots, allowed digits that are no range) is refused.
//!
//! References: CPLEX LP file format (IBM, "CPLEX File formats", LP); MPS
//! (free MPS as HiGHS, CBC and GLPK read it, with `MARKER INTORG` and
//! `BV`, `LI`, `UI` bounds); OPB: the Pseudo-Boolean Competition's
//! "Input/Output Format and Solver Requirements" (Roussel & Manquinho).

use std::collections::HashMap;
use std::io::{self, Write};

use super::{AnswerError, Formulation, Pieces, Takes, Unsupported};
use crate::model::{Cell, Digit, Predicate, Puzzle};

/// A row's sense.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sense {
    Eq,
    Le,
    Ge,
}

/// A row: `sum(coef * var) sense rhs`.
#[derive(Clone, Debug)]
struct Row {
    name: String,
    terms: Vec<(usize, i64)>,
    sense: Sense,
    rhs: i64,
}

/// What a variable stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Meaning {
    /// Binary: the cell holds the digit.
    Holds(Cell, Digit),
    /// Integer: the cell's digit.
    DigitOf(Cell),
    /// An order variable of the all-different pairs.
    Order,
}

/// A variable: its name, bounds and meaning (every variable is integer).
#[derive(Clone, Debug)]
struct Var {
    name: String,
    lo: i64,
    hi: i64,
    meaning: Meaning,
}

/// The program.
#[derive(Clone, Debug)]
pub(super) struct Linear {
    side: usize,
    vars: Vec<Var>,
    rows: Vec<Row>,
    /// A row with no terms that cannot hold (a cell with no digit left):
    /// written as a row no assignment meets.
    infeasible: bool,
}

impl Linear {
    fn var(&mut self, name: String, lo: i64, hi: i64, meaning: Meaning) -> usize {
        self.vars.push(Var { name, lo, hi, meaning });
        self.vars.len() - 1
    }

    /// Adds a row; one without terms is kept out, and marks the program
    /// infeasible when `0 sense rhs` is false.
    fn row(&mut self, name: String, terms: Vec<(usize, i64)>, sense: Sense, rhs: i64) {
        let terms: Vec<(usize, i64)> = terms.into_iter().filter(|&(_, c)| c != 0).collect();
        if terms.is_empty() {
            let holds = match sense {
                Sense::Eq => rhs == 0,
                Sense::Le => 0 <= rhs,
                Sense::Ge => 0 >= rhs,
            };
            self.infeasible |= !holds;
            return;
        }
        self.rows.push(Row { name, terms, sense, rhs });
    }

    /// The binary program of `puzzle`.
    pub(super) fn binary(puzzle: &Puzzle, formulation: Formulation) -> Result<Linear, Unsupported> {
        let pieces = Pieces::of(puzzle, formulation, Takes { sums: true, counting: true })?;
        let n = pieces.side;
        let mut lp = Linear { side: n, vars: Vec::new(), rows: Vec::new(), infeasible: false };
        let mut x: HashMap<(Cell, Digit), usize> = HashMap::new();
        for cell in pieces.cells() {
            let mut terms = Vec::new();
            for d in pieces.domain(cell) {
                let name = format!("x_{}_{}_{d}", cell.row + 1, cell.col + 1);
                let v = lp.var(name, 0, 1, Meaning::Holds(cell, d));
                x.insert((cell, d), v);
                terms.push((v, 1));
            }
            lp.row(format!("cell_{}_{}", cell.row + 1, cell.col + 1), terms, Sense::Eq, 1);
        }
        let of = |cell: Cell, d: Digit| x.get(&(cell, d)).copied();
        for (k, group) in puzzle.groups().iter().enumerate() {
            let sense = if group.cells.len() == pieces.digits { Sense::Eq } else { Sense::Le };
            for d in 1..=pieces.digits as Digit {
                let terms = group.cells.iter().filter_map(|&c| of(c, d)).map(|v| (v, 1)).collect();
                lp.row(format!("grp_{}_{d}", k + 1), terms, sense, 1);
            }
        }
        for (k, (relation, forbidden)) in pieces.relations.iter().enumerate() {
            for (i, &(a, b)) in forbidden.iter().enumerate() {
                if let (Some(va), Some(vb)) = (of(relation.a, a), of(relation.b, b)) {
                    lp.row(format!("rel_{}_{}", k + 1, i + 1), vec![(va, 1), (vb, 1)], Sense::Le, 1);
                }
            }
        }
        for (k, sum) in pieces.sums.iter().enumerate() {
            let mut terms = Vec::new();
            for &(cell, w) in &sum.terms {
                terms.extend(pieces.domain(cell).into_iter().filter_map(|d| Some((of(cell, d)?, w * i64::from(d)))));
            }
            lp.row(format!("{}_{}", sum.kind, k + 1), terms, Sense::Eq, sum.target);
        }
        for (k, (cells, d, times)) in pieces.contains.iter().enumerate() {
            let terms = cells.iter().filter_map(|&c| of(c, *d)).map(|v| (v, 1)).collect();
            lp.row(format!("quad_{}_{d}", k + 1), terms, Sense::Ge, *times as i64);
        }
        for (k, cells) in pieces.not_all_equal.iter().enumerate() {
            for d in 1..=pieces.digits as Digit {
                let terms = cells.iter().filter_map(|&c| of(c, d)).map(|v| (v, 1)).collect();
                lp.row(format!("nae_{}_{d}", k + 1), terms, Sense::Le, cells.len() as i64 - 1);
            }
        }
        for (k, (cell, line, value)) in pieces.index.iter().enumerate() {
            for d in pieces.domain(*cell) {
                let Some(vd) = of(*cell, d) else { continue };
                let mut terms = vec![(vd, 1)];
                if let Some(vt) = line.get(usize::from(d) - 1).and_then(|&t| of(t, *value)) {
                    terms.push((vt, -1));
                }
                lp.row(format!("idx_{}_{d}", k + 1), terms, Sense::Le, 0);
            }
        }
        Ok(lp)
    }

    /// The integer program of `puzzle`.
    pub(super) fn integer(puzzle: &Puzzle, formulation: Formulation) -> Result<Linear, Unsupported> {
        let pieces = Pieces::of(puzzle, formulation, Takes { sums: true, counting: false })?;
        let (n, m) = (pieces.side, pieces.digits as i64);
        let mut lp = Linear { side: n, vars: Vec::new(), rows: Vec::new(), infeasible: false };
        let refuse = |what: String, why: &'static str| Unsupported { formulation, what, why };
        for cell in pieces.cells() {
            let domain = pieces.domain(cell);
            let (lo, hi) = match (domain.first(), domain.last()) {
                (Some(&lo), Some(&hi)) => (i64::from(lo), i64::from(hi)),
                _ => (1, 0),
            };
            if domain.len() as i64 != (hi - lo + 1).max(0) {
                return Err(refuse(
                    format!("cell {cell}'s digits {domain:?}, which are no range"),
                    "one integer a cell holds only a range; export as mip (the binary program)",
                ));
            }
            if lo > hi {
                lp.infeasible = true;
            }
            lp.var(format!("v_{}_{}", cell.row + 1, cell.col + 1), lo, hi.max(lo), Meaning::DigitOf(cell));
        }
        let v = |cell: Cell| cell.row * n + cell.col;
        // Every two cells that must differ, once, from groups and relations.
        let mut pairs: Vec<(Cell, Cell)> = Vec::new();
        for group in puzzle.groups() {
            for (i, &a) in group.cells.iter().enumerate() {
                for &b in &group.cells[i + 1..] {
                    pairs.push(if a < b { (a, b) } else { (b, a) });
                }
            }
        }
        for (k, (relation, _)) in pieces.relations.iter().enumerate() {
            let (a, b) = (v(relation.a), v(relation.b));
            let name = format!("rel_{}", k + 1);
            match relation.predicate {
                Predicate::NotEqual => {
                    let (a, b) = (relation.a.min(relation.b), relation.a.max(relation.b));
                    pairs.push((a, b));
                }
                Predicate::Less => lp.row(name, vec![(a, 1), (b, -1)], Sense::Le, -1),
                Predicate::LessOrEqual => lp.row(name, vec![(a, 1), (b, -1)], Sense::Le, 0),
                Predicate::Equal => lp.row(name, vec![(a, 1), (b, -1)], Sense::Eq, 0),
                Predicate::Sum { cmp, target } => {
                    let (sense, rhs) = match cmp {
                        std::cmp::Ordering::Less => (Sense::Le, i64::from(target) - 1),
                        std::cmp::Ordering::Equal => (Sense::Eq, i64::from(target)),
                        std::cmp::Ordering::Greater => (Sense::Ge, i64::from(target) + 1),
                    };
                    lp.row(name, vec![(a, 1), (b, 1)], sense, rhs);
                }
                other => {
                    return Err(refuse(
                        format!("the relation \"{other}\" (between {} and {})", relation.a, relation.b),
                        "it is not linear in one integer a cell; export as mip (the binary program)",
                    ))
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        for (k, &(a, b)) in pairs.iter().enumerate() {
            let o = lp.var(format!("o_{}", k + 1), 0, 1, Meaning::Order);
            let (a, b) = (v(a), v(b));
            lp.row(format!("ne_{}_a", k + 1), vec![(a, 1), (b, -1), (o, m)], Sense::Ge, 1);
            lp.row(format!("ne_{}_b", k + 1), vec![(b, 1), (a, -1), (o, -m)], Sense::Ge, 1 - m);
        }
        for (k, sum) in pieces.sums.iter().enumerate() {
            let terms = sum.terms.iter().map(|&(c, w)| (v(c), w)).collect();
            lp.row(format!("{}_{}", sum.kind, k + 1), terms, Sense::Eq, sum.target);
        }
        Ok(lp)
    }

    /// `+ 3 x_1_1_3 - x_1_2_1`, ten terms a line.
    fn expression(&self, terms: &[(usize, i64)]) -> String {
        let mut out = String::new();
        for (i, &(v, c)) in terms.iter().enumerate() {
            if i > 0 && i % 10 == 0 {
                out.push_str("\n   ");
            }
            let sign = if c < 0 { '-' } else { '+' };
            out.push_str(&format!(" {sign} {} {}", c.abs(), self.vars[v].name));
        }
        out
    }

    /// The row no assignment meets, for an infeasible program: its first
    /// variable above its bound.
    fn void_row(&self) -> Row {
        Row { name: "void".into(), terms: vec![(0, 1)], sense: Sense::Ge, rhs: self.vars[0].hi + 1 }
    }

    fn all_rows(&self) -> Vec<Row> {
        let mut rows = self.rows.clone();
        if self.infeasible {
            rows.push(self.void_row());
        }
        rows
    }

    /// CPLEX LP format.
    pub(super) fn write_lp(&self, comments: &[String], out: &mut dyn Write) -> io::Result<()> {
        for line in comments {
            writeln!(out, "\\ {line}")?;
        }
        writeln!(out, "Minimize\n obj: 0 {}\nSubject To", self.vars[0].name)?;
        for row in self.all_rows() {
            let op = match row.sense {
                Sense::Eq => "=",
                Sense::Le => "<=",
                Sense::Ge => ">=",
            };
            writeln!(out, " {}:{} {op} {}", row.name, self.expression(&row.terms), row.rhs)?;
        }
        writeln!(out, "Bounds")?;
        for var in self.vars.iter().filter(|v| !(v.lo == 0 && v.hi == 1)) {
            writeln!(out, " {} <= {} <= {}", var.lo, var.name, var.hi)?;
        }
        let names = |binary: bool| {
            let names = self.vars.iter().filter(|v| (v.lo == 0 && v.hi == 1) == binary).map(|v| v.name.as_str());
            names.collect::<Vec<_>>().chunks(10).map(|c| format!(" {}", c.join(" "))).collect::<Vec<_>>().join("\n")
        };
        let (binary, general) = (names(true), names(false));
        if !binary.is_empty() {
            writeln!(out, "Binary\n{binary}")?;
        }
        if !general.is_empty() {
            writeln!(out, "General\n{general}")?;
        }
        writeln!(out, "End")
    }

    /// Free MPS format, every variable integer.
    pub(super) fn write_mps(&self, comments: &[String], out: &mut dyn Write) -> io::Result<()> {
        for line in comments {
            writeln!(out, "* {line}")?;
        }
        let rows = self.all_rows();
        writeln!(out, "NAME satsudoku\nROWS\n N obj")?;
        for row in &rows {
            let sense = match row.sense {
                Sense::Eq => 'E',
                Sense::Le => 'L',
                Sense::Ge => 'G',
            };
            writeln!(out, " {sense} {}", row.name)?;
        }
        let mut columns: Vec<Vec<(usize, i64)>> = vec![Vec::new(); self.vars.len()];
        for (r, row) in rows.iter().enumerate() {
            for &(v, c) in &row.terms {
                columns[v].push((r, c));
            }
        }
        writeln!(out, "COLUMNS\n MARKER 'MARKER' 'INTORG'")?;
        for (var, entries) in self.vars.iter().zip(&columns) {
            writeln!(out, " {} obj 0", var.name)?;
            for &(r, c) in entries {
                writeln!(out, " {} {} {c}", var.name, rows[r].name)?;
            }
        }
        writeln!(out, " MARKER 'MARKER' 'INTEND'\nRHS")?;
        for row in rows.iter().filter(|r| r.rhs != 0) {
            writeln!(out, " rhs {} {}", row.name, row.rhs)?;
        }
        writeln!(out, "BOUNDS")?;
        for var in &self.vars {
            if var.lo == 0 && var.hi == 1 {
                writeln!(out, " BV bnd {}", var.name)?;
            } else {
                writeln!(out, " LI bnd {} {}\n UI bnd {} {}", var.name, var.lo, var.name, var.hi)?;
            }
        }
        writeln!(out, "ENDATA")
    }

    /// OPB: the binary program's rows as pseudo-Boolean constraints over
    /// `x1`, `x2`, ... in the order of the variables (`<=` rows negated,
    /// since OPB has `>=` and `=` only).
    pub(super) fn write_opb(&self, comments: &[String], out: &mut dyn Write) -> io::Result<()> {
        let rows = self.all_rows();
        writeln!(out, "* #variable= {} #constraint= {}", self.vars.len(), rows.len())?;
        for line in comments {
            writeln!(out, "* {line}")?;
        }
        for (i, var) in self.vars.iter().enumerate() {
            writeln!(out, "* x{} is {}", i + 1, var.name)?;
        }
        for row in rows {
            let flip = if row.sense == Sense::Le { -1 } else { 1 };
            let terms = itertools::join(row.terms.iter().map(|&(v, c)| format!("{:+} x{}", c * flip, v + 1)), " ");
            let op = if row.sense == Sense::Eq { "=" } else { ">=" };
            writeln!(out, "{terms} {op} {} ;", row.rhs * flip)?;
        }
        Ok(())
    }

    /// The grid from the variables' values (missing ones are 0, as CBC
    /// leaves zeros out).
    fn grid(&self, values: &HashMap<usize, i64>) -> Result<Vec<Digit>, AnswerError> {
        let value = |v: usize| values.get(&v).copied().unwrap_or(0);
        let mut assigned = Vec::new();
        for (i, var) in self.vars.iter().enumerate() {
            match var.meaning {
                Meaning::Holds(cell, d) if value(i) == 1 => assigned.push((cell, d)),
                Meaning::DigitOf(cell) => {
                    let d = Digit::try_from(value(i)).ok().filter(|&d| d >= 1);
                    let d = d.ok_or_else(|| AnswerError(format!("{} is {}, no digit", var.name, value(i))))?;
                    assigned.push((cell, d));
                }
                _ => {}
            }
        }
        super::fill(self.side, assigned)
    }

    /// A MIP solver's solution file: each variable's name followed, after
    /// other words, by its value (HiGHS's solution file, CBC's `solu`,
    /// GLPK's `-o` report); no value at all with "infeasible" in the text
    /// is a proof that there is none.
    pub(super) fn read_solution(&self, text: &str) -> Result<Option<Vec<Digit>>, AnswerError> {
        // The status line: CBC's first line ("Integer infeasible - ...",
        // followed by the relaxation's fractional values), HiGHS's "Model
        // status", GLPK's "Status: INTEGER EMPTY".
        for line in text.lines().map(|l| l.trim().to_lowercase()) {
            let status = line.starts_with("infeasible")
                || line.starts_with("integer infeasible")
                || line.starts_with("model status")
                || line.starts_with("status:");
            if status && (line.contains("infeasible") || line.contains("empty")) {
                return Ok(None);
            }
        }
        let by_name: HashMap<&str, usize> = self.vars.iter().enumerate().map(|(i, v)| (v.name.as_str(), i)).collect();
        let mut values = HashMap::new();
        let mut tokens = text.split_whitespace().peekable();
        while let Some(token) = tokens.next() {
            let Some(&var) = by_name.get(token) else { continue };
            let value = tokens.by_ref().take(4).find_map(|t| t.parse::<f64>().ok());
            if let Some(value) = value {
                if (value - value.round()).abs() > 1e-6 || !value.is_finite() {
                    return Err(AnswerError(format!("{token} is {value}, not a whole number: no integer solution")));
                }
                values.insert(var, value.round() as i64);
            }
        }
        if values.is_empty() {
            let lower = text.to_lowercase();
            if ["infeasible", "no primal", "no integer feasible", "integer empty"].iter().any(|w| lower.contains(w)) {
                return Ok(None);
            }
            return Err(AnswerError(
                "no variable's value found: expected a solution file with the program's variable names".into(),
            ));
        }
        self.grid(&values).map(Some)
    }

    /// A pseudo-Boolean solver's answer: `s UNSATISFIABLE`, or `v` lines
    /// of `x3` and `-x4`.
    pub(super) fn read_opb_answer(&self, text: &str) -> Result<Option<Vec<Digit>>, AnswerError> {
        let mut values = HashMap::new();
        for line in text.lines().map(str::trim) {
            if line.starts_with("s ") && line.contains("UNSAT") {
                return Ok(None);
            }
            let Some(rest) = line.strip_prefix("v ").or_else(|| line.strip_prefix("v\t")) else { continue };
            for literal in rest.split_whitespace() {
                let (value, name) = match literal.strip_prefix('-') {
                    Some(name) => (0, name),
                    None => (1, literal),
                };
                let index = name.strip_prefix('x').and_then(|k| k.parse::<usize>().ok());
                match index {
                    Some(k) if (1..=self.vars.len()).contains(&k) => {
                        values.insert(k - 1, value);
                    }
                    _ => return Err(AnswerError(format!("expected a literal such as x3 or -x3, found {literal:?}"))),
                }
            }
        }
        if values.is_empty() {
            return Err(AnswerError("no `v` line: expected the solver's `s` and `v` lines".into()));
        }
        self.grid(&values).map(Some)
    }
}
