//! `satsudoku export`: the puzzle's CNF in DIMACS, with its projection, or
//! another formulation (`--as`: OPB, exact cover, MIP, ASP, MiniZinc).

use std::io::Write;
use std::path::PathBuf;

use satsudoku::dimacs::{self, Dialect};
use satsudoku::encode::{self, Encoded, Encoding};
use satsudoku::formulate::{self, Formulation};

use super::input::{read_puzzle, Reading, Source};
use super::output::{write_output, Replace};
use super::{AppError, Status};
use crate::cli::ExportArgs;

/// `export`'s options, resolved once.
pub struct Settings {
    pub source: Source,
    pub reading: Reading,
    pub encoding: Encoding,
    /// The output file; stdout when `None` or `-`.
    pub output: Option<PathBuf>,
    /// Whether a read-only output file is replaced (`--force`).
    pub replace: Replace,
    pub dialect: Dialect,
    pub formulation: Formulation,
}

impl Settings {
    pub fn resolve(args: &ExportArgs) -> Result<Settings, AppError> {
        Ok(Settings {
            source: Source::from_arg(args.input.file.as_deref()),
            reading: Reading { format: args.input.format, options: args.input.shape.options() },
            encoding: args.encoding.encoding().map_err(AppError::Usage)?,
            output: args.output.clone(),
            replace: Replace::forced(args.force),
            dialect: args.dialect,
            formulation: args.formulation,
        })
    }
}

pub fn run(settings: Settings) -> Result<Status, AppError> {
    let (name, puzzle, _) = read_puzzle(&settings.source, settings.reading)?;
    let inputs: Vec<_> = settings.source.path().into_iter().collect();
    if settings.formulation != Formulation::Cnf {
        let comments = vec![
            format!("satsudoku {} export --as {}", env!("CARGO_PKG_VERSION"), settings.formulation),
            format!("source: {name}"),
        ];
        // Refused before any file is written.
        let mut text = Vec::new();
        formulate::write(&puzzle, settings.formulation, &comments, &mut text)
            .map_err(|e| AppError::Usage(format!("{name}: {e}")))?
            .map_err(AppError::write("memory"))?;
        write_output(settings.output.as_deref(), &inputs, settings.replace, |out: &mut dyn Write| {
            out.write_all(&text)
        })?;
        return Ok(Status::Done);
    }
    encode::check_fits(&puzzle, &settings.encoding)?;
    let encoded = encode::encode(&puzzle, &settings.encoding);
    let projection: Vec<_> = (0..encoded.vars.primary_count()).map(varisat::Var::from_index).collect();
    let comments = export_comments(&name, &encoded);
    write_output(settings.output.as_deref(), &inputs, settings.replace, |out: &mut dyn Write| {
        dimacs::write_dimacs(out, &encoded.formula, &projection, settings.dialect, &comments)
    })?;
    Ok(Status::Done)
}

/// Comment lines that say where an exported CNF comes from and how to read it.
fn export_comments(source: &str, encoded: &Encoded) -> Vec<String> {
    vec![
        format!("satsudoku {} export", env!("CARGO_PKG_VERSION")),
        format!("source: {source}"),
        format!("encoding: {}", encoded.encoding),
        format!("variables: {}; {} auxiliary follow", encoded.vars.describe(), encoded.aux_count()),
        format!("clauses: {}", encoded.clause_counts),
    ]
}
