//! DIMACS: writing a CNF with its projection in the dialect a counter expects,
//! reading a CNF back, and reading a SAT solver's model.

use std::io::{self, Write};

use varisat::dimacs::{write_dimacs_clauses, write_dimacs_header, DimacsHeader};
use varisat::{CnfFormula, Lit, Var};

use crate::parse::{quote, ParseError, Pos};

crate::named_enum! {
    /// How the projection onto the primary variables is declared.
    pub enum Dialect = Mcc {
        /// Model counting competition: `c t pmc` and one `c p show ... 0` line.
        Mcc = "mcc",
        /// `c ind ... 0` lines (ApproxMC, older ganak builds).
        Ind = "ind",
        /// No projection (sharpSAT, minisat).
        Plain = "plain",
    }
}

/// Variables per `c ind` line.
const IND_PER_LINE: usize = 20;

/// A comment line that can never be read as `c p ...`, `c t ...` or `c ind ...`.
fn comment(text: &str) -> String {
    let flat = text.replace(['\n', '\r'], " ");
    let reserved = ["p ", "t ", "ind ", "p\t", "t\t"].iter().any(|p| flat.starts_with(p)) || flat == "p" || flat == "t";
    if reserved {
        format!("c - {flat}")
    } else {
        format!("c {flat}")
    }
}

/// Writes `formula` with free `comments`, declaring `projection` as `dialect`
/// says; the header and clauses are varisat's DIMACS writer's.
pub fn write_dimacs(
    mut out: &mut (impl Write + ?Sized),
    formula: &CnfFormula,
    projection: &[Var],
    dialect: Dialect,
    comments: &[String],
) -> io::Result<()> {
    if dialect == Dialect::Mcc {
        writeln!(out, "c t pmc")?;
    }
    for text in comments {
        writeln!(out, "{}", comment(text))?;
    }
    let header = DimacsHeader { var_count: formula.var_count(), clause_count: formula.len() };
    write_dimacs_header(&mut out, header)?;
    let numbers = |vars: &[Var]| itertools::join(vars.iter().map(|v| v.to_dimacs()), " ");
    match dialect {
        Dialect::Mcc => writeln!(out, "c p show {} 0", numbers(projection))?,
        Dialect::Ind => {
            for chunk in projection.chunks(IND_PER_LINE) {
                writeln!(out, "c ind {} 0", numbers(chunk))?;
            }
        }
        Dialect::Plain => {}
    }
    write_dimacs_clauses(&mut out, formula.iter())?;
    out.flush()
}

/// A CNF read back from DIMACS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dimacs {
    /// Variables in the header.
    pub var_count: usize,
    /// The clauses, in order.
    pub clauses: Vec<Vec<Lit>>,
    /// The variables named by `c p show` or `c ind` lines, if any.
    pub projection: Option<Vec<Var>>,
}

impl Dimacs {
    /// The clauses as a varisat formula.
    pub fn to_formula(&self) -> CnfFormula {
        let mut formula = CnfFormula::new();
        formula.set_var_count(self.var_count);
        for clause in &self.clauses {
            varisat::ExtendFormula::add_clause(&mut formula, clause);
        }
        formula
    }
}

/// Integers of a line from `start` (a 0-based char column), with their positions.
fn numbers(line: &str, number: usize, start: usize, name: &str) -> Result<Vec<(isize, Pos)>, ParseError> {
    let mut found = Vec::new();
    let mut col = start;
    let chars: Vec<char> = line.chars().collect();
    while col < chars.len() {
        if chars[col].is_whitespace() {
            col += 1;
            continue;
        }
        let begin = col;
        while col < chars.len() && !chars[col].is_whitespace() {
            col += 1;
        }
        let word: String = chars[begin..col].iter().collect();
        let pos = Pos { line: number, col: begin + 1 };
        let value = word
            .parse::<isize>()
            .ok()
            .filter(|v| v.unsigned_abs() <= Var::max_count())
            .ok_or_else(|| pos.error(name, format!("expected a literal, found {}", quote(&word))))?;
        found.push((value, pos));
    }
    Ok(found)
}

/// Reads a DIMACS CNF, with a `c p show` or `c ind` projection if present.
pub fn parse_dimacs(text: &str, name: &str) -> Result<Dimacs, ParseError> {
    let mut header: Option<(usize, usize)> = None;
    let mut clauses = Vec::new();
    let mut clause = Vec::new();
    let mut projection: Option<Vec<Var>> = None;
    let mut last = Pos { line: 1, col: 1 };
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        last = Pos { line: number, col: line.chars().count() + 1 };
        let trimmed = line.trim_start();
        let indent = line.chars().count() - trimmed.chars().count();
        let declared = ["c p show ", "c ind "].iter().find(|p| trimmed.starts_with(*p));
        if let Some(prefix) = declared {
            let mut values = numbers(line, number, indent + prefix.len(), name)?;
            match values.pop() {
                Some((0, _)) => {}
                _ => return Err(last.error(name, "expected '0' at the end of the projection line")),
            }
            let vars = projection.get_or_insert_with(Vec::new);
            for (v, pos) in values {
                if v <= 0 {
                    return Err(pos.error(name, format!("expected a positive variable, found \"{v}\"")));
                }
                vars.push(Var::from_dimacs(v));
            }
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('c') || trimmed.starts_with('%') {
            continue;
        }
        let pos = Pos { line: number, col: indent + 1 };
        if trimmed.starts_with('p') {
            let words: Vec<&str> = trimmed.split_whitespace().collect();
            let parsed = match words[..] {
                ["p", "cnf", v, c] => v.parse().ok().zip(c.parse().ok()),
                _ => None,
            };
            if header.is_some() {
                return Err(pos.error(name, "a second \"p cnf\" header"));
            }
            let Some((vars, count)) = parsed else {
                return Err(pos.error(name, format!("expected \"p cnf VARS CLAUSES\", found {}", quote(trimmed))));
            };
            if vars > Var::max_count() {
                return Err(pos.error(name, format!("{vars} variables is more than varisat supports")));
            }
            header = Some((vars, count));
            continue;
        }
        let Some((var_count, _)) = header else {
            return Err(pos.error(name, "expected the \"p cnf VARS CLAUSES\" header before clauses"));
        };
        for (value, pos) in numbers(line, number, indent, name)? {
            if value == 0 {
                clauses.push(std::mem::take(&mut clause));
            } else if value.unsigned_abs() > var_count {
                return Err(
                    pos.error(name, format!("literal {value} is beyond the {var_count} variables of the header"))
                );
            } else {
                clause.push(Lit::from_dimacs(value));
            }
        }
    }
    let Some((var_count, clause_count)) = header else {
        return Err(last.error(name, "expected a \"p cnf VARS CLAUSES\" header, found none"));
    };
    if !clause.is_empty() {
        return Err(last.error(name, "expected '0' to end the last clause, found end of input"));
    }
    if clauses.len() != clause_count {
        let message = format!("the header declares {clause_count} clauses, found {}", clauses.len());
        return Err(last.error(name, message));
    }
    if let Some(vars) = &projection {
        if let Some(v) = vars.iter().find(|v| v.index() >= var_count) {
            return Err(last.error(name, format!("projection names variable {}, beyond the header", v.to_dimacs())));
        }
    }
    Ok(Dimacs { var_count, clauses, projection })
}

/// What a SAT solver said about a formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverAnswer {
    /// Satisfiable, with the literals of the model (values indexed by variable).
    Sat(Vec<Option<bool>>),
    /// The solver proved that there is no model.
    Unsat,
    /// The solver gave no answer.
    Unknown,
}

/// Reads a model as minisat writes it (`SAT` then literals ending in `0`) or as
/// competition solvers print it (`s SATISFIABLE` and `v ...` lines). A file of
/// bare literals is read as a model too. The model names variables of a CNF
/// of `var_count` variables only, and ends with `0`.
pub fn parse_model(text: &str, name: &str, var_count: usize) -> Result<SolverAnswer, ParseError> {
    let mut values: Vec<Option<bool>> = Vec::new();
    let mut status: Option<bool> = None;
    let mut ended = false;
    let mut last = Pos { line: 1, col: 1 };
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        last = Pos { line: number, col: line.chars().count() + 1 };
        let trimmed = line.trim_start();
        let indent = line.chars().count() - trimmed.chars().count();
        let word = trimmed.split_whitespace().next().unwrap_or("");
        let literals_from = match word {
            "" | "c" => continue,
            "SAT" | "SATISFIABLE" => {
                status = Some(true);
                indent + word.len()
            }
            "s" => {
                match trimmed.split_whitespace().nth(1) {
                    Some("SATISFIABLE") => status = Some(true),
                    Some("UNSATISFIABLE") => return Ok(SolverAnswer::Unsat),
                    _ => return Ok(SolverAnswer::Unknown),
                }
                continue;
            }
            "UNSAT" | "UNSATISFIABLE" => return Ok(SolverAnswer::Unsat),
            "INDET" | "UNKNOWN" | "INDETERMINATE" => return Ok(SolverAnswer::Unknown),
            "v" => indent + 1,
            _ => indent,
        };
        for (value, pos) in numbers(line, number, literals_from, name)? {
            if value == 0 {
                ended = true;
                continue;
            }
            if ended {
                return Err(pos.error(name, format!("expected end of model after '0', found \"{value}\"")));
            }
            if value.unsigned_abs() > var_count {
                let message =
                    format!("variable {} is beyond the {var_count} variables of the CNF", value.unsigned_abs());
                return Err(pos.error(name, message));
            }
            let index = value.unsigned_abs() - 1;
            if values.len() <= index {
                values.resize(index + 1, None);
            }
            let polarity = value > 0;
            if values[index] == Some(!polarity) {
                return Err(pos.error(name, format!("variable {} is given both values", index + 1)));
            }
            values[index] = Some(polarity);
        }
    }
    if status == Some(false) {
        return Ok(SolverAnswer::Unsat);
    }
    if values.is_empty() {
        return Err(last
            .error(name, "expected a model (\"SAT\" and literals, or \"s SATISFIABLE\" and \"v\" lines), found none"));
    }
    if !ended {
        return Err(last.error(name, "expected '0' to end the model, found end of input"));
    }
    Ok(SolverAnswer::Sat(values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use varisat::ExtendFormula;

    fn formula(clauses: &[Vec<isize>], vars: usize) -> CnfFormula {
        let mut f = CnfFormula::new();
        f.set_var_count(vars);
        for c in clauses {
            f.add_clause(&c.iter().map(|&l| Lit::from_dimacs(l)).collect::<Vec<_>>());
        }
        f
    }

    fn written(f: &CnfFormula, projection: &[Var], dialect: Dialect, comments: &[String]) -> String {
        let mut out = Vec::new();
        write_dimacs(&mut out, f, projection, dialect, comments).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn writes_the_header_and_projection_per_dialect() {
        let f = formula(&[vec![1, -2], vec![3]], 3);
        let show = [Var::from_dimacs(1), Var::from_dimacs(2)];
        let mcc = written(&f, &show, Dialect::Mcc, &["p cnf trap".into(), "t mc trap".into()]);
        assert_eq!(mcc, "c t pmc\nc - p cnf trap\nc - t mc trap\np cnf 3 2\nc p show 1 2 0\n1 -2 0\n3 0\n");
        let ind = written(&f, &show, Dialect::Ind, &[]);
        assert_eq!(ind, "p cnf 3 2\nc ind 1 2 0\n1 -2 0\n3 0\n");
        assert!(!written(&f, &show, Dialect::Plain, &[]).contains("c "));
    }

    #[test]
    fn reads_models_of_both_solver_styles() {
        let minisat = parse_model("SAT\n1 -2 3 0\n", "m", 3).unwrap();
        let competition = parse_model("c hi\ns SATISFIABLE\nv 1 -2\nv 3 0\n", "m", 3).unwrap();
        assert_eq!(minisat, SolverAnswer::Sat(vec![Some(true), Some(false), Some(true)]));
        assert_eq!(minisat, competition);
        assert_eq!(parse_model("UNSAT\n", "m", 3).unwrap(), SolverAnswer::Unsat);
        assert_eq!(parse_model("s UNSATISFIABLE\n", "m", 3).unwrap(), SolverAnswer::Unsat);
        let err = |text: &str| parse_model(text, "m", 3).unwrap_err().to_string();
        assert_eq!(err("SAT\n1 x 0"), "m:2:3: expected a literal, found \"x\"");
        assert_eq!(err("SAT\n1 -1 0"), "m:2:3: variable 1 is given both values");
    }

    /// Regression: `decode` read variables beyond the CNF and models cut
    /// short before their final 0 as if they were whole.
    #[test]
    fn rejects_variables_beyond_the_cnf_and_models_without_their_final_zero() {
        let err = |text: &str| parse_model(text, "m", 3).unwrap_err().to_string();
        assert_eq!(err("SAT\n1 -2 4 0\n"), "m:2:6: variable 4 is beyond the 3 variables of the CNF");
        assert_eq!(err("v 1 -2 -3\n"), "m:1:10: expected '0' to end the model, found end of input");
        assert_eq!(err("SAT\n1 -2 3"), "m:2:7: expected '0' to end the model, found end of input");
    }

    #[test]
    fn rejects_malformed_cnf_with_a_location() {
        let err = |t: &str| parse_dimacs(t, "f.cnf").unwrap_err().to_string();
        assert_eq!(err("p cnf 2 1\n1 3 0\n"), "f.cnf:2:3: literal 3 is beyond the 2 variables of the header");
        assert_eq!(err("p cn 2 1\n"), "f.cnf:1:1: expected \"p cnf VARS CLAUSES\", found \"p cn 2 1\"");
        assert_eq!(err("p cnf 2 2\n1 0\n"), "f.cnf:2:4: the header declares 2 clauses, found 1");
        assert_eq!(err("1 0\n"), "f.cnf:1:1: expected the \"p cnf VARS CLAUSES\" header before clauses");
    }

    proptest! {
        /// Write, parse back, compare: the round trip every writer needs.
        #[test]
        fn round_trips(
            clauses in proptest::collection::vec(proptest::collection::vec((1isize..40, any::<bool>()), 0..6), 0..30),
            show in proptest::collection::vec(1isize..40, 0..50),
            dialect in prop_oneof![Just(Dialect::Mcc), Just(Dialect::Ind), Just(Dialect::Plain)],
        ) {
            let clauses: Vec<Vec<isize>> = clauses.iter()
                .map(|c| c.iter().map(|&(v, neg)| if neg { -v } else { v }).collect())
                .collect();
            let f = formula(&clauses, 40);
            let show: Vec<Var> = show.into_iter().map(Var::from_dimacs).collect();
            let text = written(&f, &show, dialect, &["source: x".into()]);
            let back = parse_dimacs(&text, "rt").unwrap();
            prop_assert_eq!(back.var_count, 40);
            let expected: Vec<Vec<Lit>> = f.iter().map(|c| c.to_vec()).collect();
            prop_assert_eq!(&back.clauses, &expected);
            let projection = match dialect {
                Dialect::Plain => None,
                Dialect::Ind if show.is_empty() => None,
                _ => Some(show),
            };
            prop_assert_eq!(back.projection, projection);
        }

        #[test]
        fn never_panics_on_arbitrary_text(text in ".{0,200}") {
            let _ = parse_dimacs(&text, "x");
            let _ = parse_model(&text, "x", 100);
        }
    }
}
