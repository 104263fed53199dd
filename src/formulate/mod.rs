//! The puzzle in the formulations the seeds compare, each written for the
//! solvers that read it, and each solver's answer read back:
//!
//! | formulation | written as | read by | answer read back |
//! |---|---|---|---|
//! | `opb` | pseudo-Boolean (OPB, PB competition format) | clasp, RoundingSat, Sat4j | `v` lines |
//! | `exact-cover` | Knuth's DLX text format (items, `\|`, options) | `dlx1`/`dlx2`, `--engine dlx` | the chosen option lines |
//! | `mip`, `mps` | seed 004's binary program, CPLEX LP or free MPS | HiGHS, CBC, GLPK, SCIP | a solution file (`name value`) |
//! | `mip-int`, `mps-int` | seed 004's integer program (all-different by big-M pairs, as seed 003) | the same | the same |
//! | `asp` | a clingo program with the puzzle's facts | clingo | an answer set |
//! | `mzn` | MiniZinc with `alldifferent` | MiniZinc and its solvers | the grid it prints |
//! | `iss` | sigh's Interactive Sudoku Solver's constraint string | ISS (and `--format iss`) | none: it is a puzzle |
//!
//! (`cnf`, the DIMACS export, lives in [`crate::dimacs`] and
//! [`crate::encode`].) Every formulation starts from the same pieces:
//! each cell's digits, the all-different groups, the binary relations as
//! forbidden pairs of digits, linear sums, and a few counting constraints.
//! A rule that a formulation cannot express is refused by name
//! ([`Unsupported`]), never dropped: that would be another puzzle.

mod asp;
pub mod cover;
pub mod iss;
mod linear;
mod mzn;

use std::fmt;
use std::io::{self, Write};

use itertools::Itertools;

use crate::model::{Cell, Constraint, Digit, Grid, Puzzle, Relation};

pub use cover::ExactCover;

crate::named_enum! {
    /// The formulations `export --as` writes and `decode --as` reads back.
    pub enum Formulation = Cnf {
        /// DIMACS CNF, with every encoding's options and the projection.
        Cnf = "cnf",
        /// Pseudo-Boolean constraints over the one-hot variables (OPB).
        Opb = "opb",
        /// Exact cover in the text format of Knuth's DLX programs.
        ExactCover = "exact-cover",
        /// The binary linear program (one-hot `x_R_C_D`) in CPLEX LP format.
        Mip = "mip",
        /// The integer program (one integer a cell, all-different by big-M pairs) in CPLEX LP format.
        MipInt = "mip-int",
        /// The binary linear program in free MPS format.
        Mps = "mps",
        /// The integer program in free MPS format.
        MpsInt = "mps-int",
        /// An answer set program for clingo.
        Asp = "asp",
        /// A MiniZinc model.
        Mzn = "mzn",
        /// sigh's Interactive Sudoku Solver's constraint string, to open the puzzle there (not a solver's answer).
        Iss = "iss",
    }
}

/// A rule the formulation cannot express: the export is refused rather
/// than written for another puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// The formulation asked for.
    pub formulation: Formulation,
    /// The rule, as a person names it.
    pub what: String,
    /// Why, or what to use instead.
    pub why: &'static str,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} formulation cannot express {}: {}", self.formulation, self.what, self.why)
    }
}

impl std::error::Error for Unsupported {}

/// A linear sum: `sum(weight * digit) == target`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Sum {
    pub terms: Vec<(Cell, i64)>,
    pub target: i64,
    /// What it came from, for the row's name.
    pub kind: &'static str,
}

/// The puzzle as the formulations see it.
#[derive(Clone, Debug)]
pub(crate) struct Pieces<'p> {
    pub side: usize,
    pub digits: usize,
    /// Each cell's digits (bit `d - 1`), givens and allowed digits applied.
    pub domains: Vec<u64>,
    pub puzzle: &'p Puzzle,
    /// Each relation with the pairs of digits (in the cells' domains) it forbids.
    pub relations: Vec<(Relation, Vec<(Digit, Digit)>)>,
    pub sums: Vec<Sum>,
    /// The cells hold `digit` at least `times` times (quadruples).
    pub contains: Vec<(Vec<Cell>, Digit, usize)>,
    /// The cells do not all hold one digit (Takuzu's no three alike).
    pub not_all_equal: Vec<Vec<Cell>>,
    /// `line[d - 1]` holds `value` when `cell` holds `d` (indexers).
    pub index: Vec<(Cell, Vec<Cell>, Digit)>,
}

/// What a formulation takes beyond groups, domains and relations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Takes {
    /// Linear sums (killer cages, arrows, little killers, equal sums).
    pub sums: bool,
    /// Quadruples, Takuzu's no three alike, indexers.
    pub counting: bool,
}

impl<'p> Pieces<'p> {
    /// The pieces of `puzzle`, or the first rule `formulation` (which
    /// `takes` what it says) cannot express.
    pub(crate) fn of(puzzle: &'p Puzzle, formulation: Formulation, takes: Takes) -> Result<Pieces<'p>, Unsupported> {
        let (side, digits) = (puzzle.side(), puzzle.digits());
        let all = if digits >= 64 { u64::MAX } else { (1u64 << digits) - 1 };
        let mut domains = vec![all; side * side];
        for (cell, d) in puzzle.givens() {
            domains[cell.row * side + cell.col] &= 1 << (d - 1);
        }
        let refuse = |what: &str, why: &'static str| Unsupported { formulation, what: what.to_owned(), why };
        let mut pieces = Pieces {
            side,
            digits,
            domains: Vec::new(),
            puzzle,
            relations: Vec::new(),
            sums: Vec::new(),
            contains: Vec::new(),
            not_all_equal: Vec::new(),
            index: Vec::new(),
        };
        let no_sums = "it has no arithmetic; export as cnf, opb, mip, asp or mzn";
        let no_counting = "it has no counting constraints; export as cnf, opb, mip, asp or mzn";
        for constraint in puzzle.constraints() {
            match constraint {
                Constraint::Digits { cell, allowed } => domains[cell.row * side + cell.col] &= allowed,
                Constraint::Sum { terms, target } if takes.sums => pieces.sums.push(Sum {
                    terms: merged(terms.iter().map(|&(c, w)| (c, i64::from(w)))),
                    target: i64::from(*target),
                    kind: "sum",
                }),
                Constraint::Sum { .. } => return Err(refuse("sums (killer cages, arrows, little killers)", no_sums)),
                Constraint::EqualSums { parts } if takes.sums => {
                    for part in &parts[1..] {
                        let terms = parts[0].iter().map(|&c| (c, 1)).chain(part.iter().map(|&c| (c, -1)));
                        pieces.sums.push(Sum { terms: merged(terms), target: 0, kind: "equal" });
                    }
                }
                Constraint::EqualSums { .. } => {
                    return Err(refuse("equal sums (region-sum lines, zippers, double arrows)", no_sums))
                }
                Constraint::Contains { cells, digits } if takes.counting => {
                    let mut listed = digits.clone();
                    listed.sort_unstable();
                    for (times, d) in listed.iter().copied().dedup_with_count() {
                        pieces.contains.push((cells.clone(), d, times));
                    }
                }
                Constraint::NotAllEqual { cells } if takes.counting => pieces.not_all_equal.push(cells.clone()),
                Constraint::Index { cell, line, value } if takes.counting => {
                    pieces.index.push((*cell, line.clone(), *value))
                }
                Constraint::Contains { .. } => return Err(refuse("quadruples", no_counting)),
                Constraint::NotAllEqual { .. } => return Err(refuse("Takuzu's no three alike", no_counting)),
                Constraint::Index { .. } => return Err(refuse("indexers", no_counting)),
                other => {
                    return Err(refuse(constraint_name(other), "not written in this formulation yet; export as cnf"))
                }
            }
        }
        pieces.domains = domains;
        for relation in puzzle.relations() {
            let (da, db) = (pieces.domain(relation.a), pieces.domain(relation.b));
            let forbidden: Vec<(Digit, Digit)> = da
                .iter()
                .flat_map(|&a| db.iter().map(move |&b| (a, b)))
                .filter(|&(a, b)| !relation.predicate.allows(a, b))
                .collect();
            pieces.relations.push((*relation, forbidden));
        }
        Ok(pieces)
    }

    /// The digits `cell` may hold, in order.
    pub(crate) fn domain(&self, cell: Cell) -> Vec<Digit> {
        let mask = self.domains[cell.row * self.side + cell.col];
        (1..=self.digits as Digit).filter(|&d| mask >> (d - 1) & 1 == 1).collect()
    }

    /// Every cell, in reading order.
    pub(crate) fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.puzzle.cells()
    }
}

/// A person's name for a constraint no formulation but CNF writes yet.
fn constraint_name(constraint: &Constraint) -> &'static str {
    match constraint {
        Constraint::Consecutive { .. } => "renban lines (consecutive digits)",
        Constraint::Between { .. } => "between lines",
        Constraint::Outside { .. } => "lockout lines",
        Constraint::XSum { .. } => "x-sum clues",
        Constraint::Sandwich { .. } => "sandwich clues",
        Constraint::Visible { .. } => "skyscraper clues",
        Constraint::DistinctLines { .. } => "Takuzu's distinct rows and columns",
        Constraint::Lex { .. } | Constraint::Automorphic { .. } => "symmetry breaking",
        Constraint::Table { .. } => "relations given by their allowed pairs (ISS's Pair)",
        Constraint::Regular { .. } => "regular-expression lines (ISS's Regex)",
        Constraint::Classes { .. } => "global entropy and modular windows (a digit of each class)",
        Constraint::Along { .. } => "sum lines, rellik and equality cages, hidden skyscrapers, Dutch flatmates",
        Constraint::Exactly { .. } => "exact counts of digits (ISS's ContainExact, LookAndSay)",
        Constraint::Counting { .. } => "counting circles",
        Constraint::ValueIndex { .. } => "value indexing lines",
        Constraint::CountDistinct { .. } => "count-distinct circles",
        Constraint::Machine { .. } => "state machines over a line (ISS's NFA)",
        Constraint::AntiTaxicab { .. } => "the anti-taxicab rule",
        Constraint::ConnectedValues { .. } => "connected values (ISS's ConnectedValues)",
        Constraint::Rank { .. } | Constraint::DistinctReadings { .. } => "full rank clues (ISS's FullRank)",
        Constraint::SameValues { .. } => "sets of the same digits (ISS's SameValues)",
        Constraint::Doppelganger { .. } => "doppelgangers (ISS's Doppelganger)",
        Constraint::AnyOf { .. } => "alternatives of rules (ISS's Or)",
        Constraint::Chaos { .. } => "chaos construction (ISS's ChaosConstruction)",
        Constraint::RegionRuns { .. } => "region runs (ISS's ChaosArrow and ChaosCount)",
        _ => "this constraint",
    }
}

/// Terms with each cell once, its weights added, zero weights dropped.
fn merged(terms: impl Iterator<Item = (Cell, i64)>) -> Vec<(Cell, i64)> {
    let mut out: Vec<(Cell, i64)> = Vec::new();
    for (cell, w) in terms {
        match out.iter_mut().find(|(c, _)| *c == cell) {
            Some((_, total)) => *total += w,
            None => out.push((cell, w)),
        }
    }
    out.retain(|&(_, w)| w != 0);
    out
}

/// Writes `puzzle` as `formulation` (not `cnf`, which [`crate::dimacs`]
/// writes with its encoding), with `comments` at the top where the format
/// has comments.
pub fn write(
    puzzle: &Puzzle,
    formulation: Formulation,
    comments: &[String],
    out: &mut dyn Write,
) -> Result<io::Result<()>, Unsupported> {
    if puzzle.is_rectangle() && formulation != Formulation::Iss {
        let (rows, cols) = puzzle.shape();
        return Err(Unsupported {
            formulation,
            what: format!("a {rows}x{cols} grid"),
            why: "rectangles are written as CNF and ISS strings only (export --as cnf or iss)",
        });
    }
    if puzzle.vars() > 0 && formulation != Formulation::Iss {
        return Err(Unsupported {
            formulation,
            what: format!("{} cells outside the grid", puzzle.vars()),
            why: "cells outside the grid (ISS's Var) are written as CNF and ISS strings only (export --as cnf or iss)",
        });
    }
    if puzzle.is_chaos() && formulation != Formulation::Iss {
        return Err(Unsupported {
            formulation,
            what: "a chaos construction".to_owned(),
            why: "chaos constructions are written as CNF and ISS strings only (export --as cnf or iss)",
        });
    }
    Ok(match formulation {
        Formulation::Cnf => unreachable!("the CNF is written by dimacs::write_dimacs"),
        Formulation::Opb => linear::Linear::binary(puzzle, formulation)?.write_opb(comments, out),
        Formulation::Mip => linear::Linear::binary(puzzle, formulation)?.write_lp(comments, out),
        Formulation::Mps => linear::Linear::binary(puzzle, formulation)?.write_mps(comments, out),
        Formulation::MipInt => linear::Linear::integer(puzzle, formulation)?.write_lp(comments, out),
        Formulation::MpsInt => linear::Linear::integer(puzzle, formulation)?.write_mps(comments, out),
        Formulation::ExactCover => ExactCover::of(puzzle)?.write(comments, out),
        Formulation::Asp => asp::write(puzzle, comments, out)?,
        Formulation::Mzn => mzn::write(puzzle, comments, out)?,
        Formulation::Iss => iss::write(puzzle, comments, out)?,
    })
}

/// What a solver answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A solution: the grid it gives (not yet checked against the puzzle).
    Solution(Grid),
    /// The solver proved there is none.
    NoSolution,
}

/// A solver's answer that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerError(pub String);

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AnswerError {}

/// Reads a solver's answer to `puzzle` written as `formulation` (not
/// `cnf`): the grid it gives, or that it found none.
pub fn read_answer(puzzle: &Puzzle, formulation: Formulation, text: &str) -> Result<Answer, AnswerError> {
    let side = puzzle.side();
    let digits = match formulation {
        Formulation::Cnf => unreachable!("a DIMACS model is read by dimacs::parse_model"),
        Formulation::Opb => {
            let linear = linear::Linear::binary(puzzle, formulation).map_err(|e| AnswerError(e.to_string()))?;
            linear.read_opb_answer(text)?
        }
        Formulation::Mip | Formulation::Mps => {
            let linear = linear::Linear::binary(puzzle, formulation).map_err(|e| AnswerError(e.to_string()))?;
            linear.read_solution(text)?
        }
        Formulation::MipInt | Formulation::MpsInt => {
            let linear = linear::Linear::integer(puzzle, formulation).map_err(|e| AnswerError(e.to_string()))?;
            linear.read_solution(text)?
        }
        Formulation::ExactCover => cover::read_answer(side, text)?,
        Formulation::Asp => asp::read_answer(side, text)?,
        Formulation::Mzn => mzn::read_answer(side, text)?,
        Formulation::Iss => {
            return Err(AnswerError(
                "an ISS string is a puzzle, not a solver's answer: read it with --format iss".into(),
            ))
        }
    };
    Ok(match digits {
        None => Answer::NoSolution,
        Some(digits) => Answer::Solution(
            Grid::new(side, digits).ok_or_else(|| AnswerError("the answer does not fill the grid".into()))?,
        ),
    })
}

/// A grid's digits, from cells set in any order: an error names a cell set
/// twice or left unset.
pub(crate) fn fill(side: usize, assigned: impl IntoIterator<Item = (Cell, Digit)>) -> Result<Vec<Digit>, AnswerError> {
    let mut digits = vec![0; side * side];
    for (cell, d) in assigned {
        if cell.row >= side || cell.col >= side {
            return Err(AnswerError(format!("the answer names cell {cell}, outside the {side} x {side} grid")));
        }
        let slot = &mut digits[cell.row * side + cell.col];
        if *slot != 0 && *slot != d {
            return Err(AnswerError(format!("the answer gives cell {cell} two digits, {} and {d}", *slot)));
        }
        *slot = d;
    }
    if let Some(i) = digits.iter().position(|&d| d == 0) {
        return Err(AnswerError(format!("the answer gives no digit for cell {}", Cell::new(i / side, i % side))));
    }
    Ok(digits)
}
