//! `satsudoku decode`: a SAT solver's model of an exported CNF, or another
//! solver's answer to another formulation (`--as`), read back into a grid
//! and checked against the puzzle.

use std::io::{self, Write};

use satsudoku::dimacs::{self, SolverAnswer};
use satsudoku::encode::{self, Encoding};
use satsudoku::formulate::{self, Answer, Formulation};
use satsudoku::model::check;
use satsudoku::model::Grid;
use satsudoku::report::{self, PrintStyle};

use super::input::{read_puzzle, read_text, Reading, Source};
use super::{AppError, Status};
use crate::cli::DecodeArgs;
use crate::diag;

/// `decode`'s options, resolved once.
pub struct Settings {
    pub puzzle: Source,
    pub model: Source,
    pub reading: Reading,
    pub encoding: Encoding,
    pub formulation: Formulation,
}

impl Settings {
    pub fn resolve(args: &DecodeArgs) -> Result<Settings, AppError> {
        let (puzzle, model) = (Source::from_arg(Some(&args.puzzle)), Source::from_arg(Some(&args.model)));
        if matches!((&puzzle, &model), (Source::Stdin, Source::Stdin)) {
            return Err(AppError::Usage(
                "the puzzle and the model cannot both be standard input (`-`): give one of them as a file".into(),
            ));
        }
        Ok(Settings {
            puzzle,
            model,
            reading: Reading { format: args.format, options: args.shape.options() },
            encoding: args.encoding.encoding().map_err(AppError::Usage)?,
            formulation: args.formulation,
        })
    }
}

pub fn run(settings: Settings) -> Result<Status, AppError> {
    let (_, puzzle, format) = read_puzzle(&settings.puzzle, settings.reading)?;
    let model = read_text(&settings.model)?;
    if settings.formulation != Formulation::Cnf {
        let grid = match formulate::read_answer(&puzzle, settings.formulation, &model.text) {
            Ok(Answer::Solution(grid)) => grid,
            Ok(Answer::NoSolution) => {
                diag!("satsudoku: {}: the solver reports no solution", model.name);
                return Ok(Status::NotASolution);
            }
            Err(err) => {
                diag!("satsudoku: {}: not an answer to the {} formulation: {err}", model.name, settings.formulation);
                return Ok(Status::NotASolution);
            }
        };
        return print_and_check(&puzzle, format, &grid);
    }
    encode::check_fits(&puzzle, &settings.encoding)?;
    let encoded = encode::encode(&puzzle, &settings.encoding);
    let var_count = encoded.formula.var_count();
    // A model of another export (other encoding options) names other
    // variables: each way it fails says which options to give.
    let hint = format!(
        "satsudoku: hint: decode reads the model with the encoding options the CNF was exported with, here {}; \
         a CNF exported with other --encoding, --digits, --clause-set, --amo, --relation, --sum or --reduce \
         options needs the same options here",
        settings.encoding
    );
    let values = match dimacs::parse_model(&model.text, &model.name, var_count) {
        Ok(answer) => answer,
        Err(mut err) => {
            err.message += &format!(
                " (read as the CNF of encoding {}: one exported with other encoding options needs the same options here)",
                settings.encoding
            );
            return Err(err.into());
        }
    };
    let values = match values {
        SolverAnswer::Sat(values) => values,
        SolverAnswer::Unsat => {
            diag!("satsudoku: {}: the solver reports UNSAT: the puzzle has no solution", model.name);
            return Ok(Status::NotASolution);
        }
        SolverAnswer::Unknown => {
            diag!("satsudoku: {}: the solver gave no answer (UNKNOWN)", model.name);
            return Ok(Status::NotASolution);
        }
    };
    let grid = match encoded.vars.decode(|v| values.get(v.index()).copied().flatten()) {
        Ok(grid) => grid,
        Err(err) => {
            diag!("satsudoku: {}: not a grid: {err}", model.name);
            diag!("{hint}");
            return Ok(Status::NotASolution);
        }
    };
    print_and_check(&puzzle, format, &grid)
}

/// Prints `grid` in the puzzle's style and checks it against the puzzle.
fn print_and_check(
    puzzle: &satsudoku::model::Puzzle,
    format: satsudoku::parse::Format,
    grid: &Grid,
) -> Result<Status, AppError> {
    let mut out = io::stdout().lock();
    let shown = report::Shown::of(puzzle);
    let text = report::rows(grid, PrintStyle::of(format).for_values_from(shown.first_value), shown.shape, shown.vars);
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(AppError::write("stdout"))?;
    let violations = check::violations(puzzle, grid);
    if violations.is_empty() {
        diag!("satsudoku: the model solves the puzzle");
        return Ok(Status::Done);
    }
    for v in &violations {
        diag!("satsudoku: violation: {v}");
    }
    diag!("satsudoku: the model does NOT solve the puzzle ({} violations)", violations.len());
    Ok(Status::NotASolution)
}
