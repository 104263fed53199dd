//! `satsudoku compare`: measure encodings on files, print the report, and
//! draw the chart if asked.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use satsudoku::compare::{self, Report, TableFormat};
use satsudoku::encode::Encoding;

use super::input::{read_puzzle, Reading, Source};
use super::output::write_output;
use super::{AppError, Status};
use crate::cli::CompareArgs;
use crate::diag;

/// `compare`'s options, resolved once.
pub struct Settings {
    pub sources: Vec<Source>,
    pub reading: Reading,
    pub encodings: Vec<Encoding>,
    pub measure: compare::Settings,
    pub table: TableFormat,
    pub svg: Option<PathBuf>,
}

impl Settings {
    pub fn resolve(args: &CompareArgs) -> Settings {
        Settings {
            sources: args.files.iter().map(|f| Source::from_arg(Some(f))).collect(),
            reading: Reading { format: args.input_format, options: args.shape.options() },
            encodings: args.encodings.0.clone(),
            measure: compare::Settings { engine: args.engine, repeat: args.repeat, timeout: args.timeout },
            table: args.format,
            svg: args.svg.clone(),
        }
    }
}

pub fn run(settings: Settings) -> Result<Status, AppError> {
    let mut puzzles = Vec::new();
    for source in &settings.sources {
        puzzles.push(read_puzzle(source, settings.reading)?);
    }
    let mut runs = Vec::new();
    for (name, puzzle) in &puzzles {
        let file_start = runs.len();
        for encoding in &settings.encodings {
            if std::io::stderr().is_terminal() {
                diag!("satsudoku: {name}: {encoding}");
            }
            runs.push(compare::measure(name, puzzle, encoding, settings.measure)?);
        }
        // Every exact count must agree; anything else is a bug worth stopping for.
        let mut exact = runs[file_start..].iter().filter(|r| r.exact);
        if let Some(first) = exact.next() {
            if let Some(other) = exact.find(|r| r.count != first.count) {
                return Err(AppError::Other(anyhow::anyhow!(
                    "{name}: encodings disagree: {} counts {}, {} counts {}; this is a bug in satsudoku",
                    first.encoding,
                    first.count,
                    other.encoding,
                    other.count
                )));
            }
        }
    }
    let report = Report::new(&runs);
    let text = report.render(settings.table);
    write_output(None, &[], |out: &mut dyn Write| out.write_all(text.as_bytes()))?;
    if let Some(path) = &settings.svg {
        let svg = compare::svg::render(&report).map_err(|e| AppError::Other(anyhow::anyhow!(e)))?;
        let inputs: Vec<_> = settings.sources.iter().filter_map(Source::path).collect();
        write_output(Some(path), &inputs, |out: &mut dyn Write| out.write_all(svg.as_bytes()))?;
    }
    let exact = runs.iter().all(|r| r.exact);
    Ok(if exact { Status::Done } else { Status::LowerBound })
}
