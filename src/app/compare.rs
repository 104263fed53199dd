//! `satsudoku compare`: measure encodings on files, print the report, and
//! draw the chart if asked.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use satsudoku::compare::{self, Report, TableFormat};
use satsudoku::encode::Encoding;

use super::input::{read_puzzle, Reading, Source};
use super::output::{write_output, Replace};
use super::{AppError, Status};
use crate::cli::{CompareArgs, CompareFormat};
use crate::diag;

/// `compare`'s options, resolved once.
pub struct Settings {
    pub sources: Vec<Source>,
    pub reading: Reading,
    pub encodings: Vec<Encoding>,
    pub measure: compare::Settings,
    pub table: TableFormat,
    pub svg: Option<PathBuf>,
    /// Whether a read-only SVG file is replaced (`--force`).
    pub replace: Replace,
}

impl Settings {
    /// The options; the former spellings (`--format` for the output,
    /// `--input-format` for the input) still work, with a note on stderr.
    pub fn resolve(args: &CompareArgs) -> Result<Settings, AppError> {
        let (mut input, mut table) = (args.input_format, args.output);
        if input.is_some() {
            diag!("satsudoku: note: compare --input-format is now spelled --format, as on every command");
        }
        if args.svg.as_ref().is_some_and(|path| path.as_os_str() == "-") {
            return Err(AppError::Usage(
                "--svg - would mix the chart into the table on stdout: give the chart a file name".into(),
            ));
        }
        match args.format {
            Some(CompareFormat::Input(format)) => input = Some(format),
            Some(CompareFormat::Output(format)) if table.is_none() => {
                diag!("satsudoku: note: compare's output format is now --output {format}; --format names the input format, as on every command");
                table = Some(format);
            }
            Some(CompareFormat::Output(format)) => {
                return Err(AppError::Usage(format!(
                    "--format {format} is an output format, and --output is given too: give the output format once, with --output"
                )));
            }
            None => {}
        }
        Ok(Settings {
            sources: args.files.iter().map(|f| Source::from_arg(Some(f))).collect(),
            reading: Reading { format: input, options: args.shape.options() },
            encodings: args.encodings.0.clone(),
            measure: compare::Settings { engine: args.engine, repeat: args.repeat, timeout: args.timeout },
            table: table.unwrap_or_default(),
            svg: args.svg.clone(),
            replace: Replace::forced(args.force),
        })
    }
}

pub fn run(settings: Settings) -> Result<Status, AppError> {
    let mut puzzles = Vec::new();
    for source in &settings.sources {
        puzzles.push(read_puzzle(source, settings.reading)?);
    }
    let mut runs = Vec::new();
    for (name, puzzle, _) in &puzzles {
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
    write_output(None, &[], Replace::Writable, |out: &mut dyn Write| out.write_all(text.as_bytes()))?;
    if let Some(path) = &settings.svg {
        let svg = compare::svg::render(&report).map_err(|e| AppError::Other(anyhow::anyhow!(e)))?;
        let inputs: Vec<_> = settings.sources.iter().filter_map(Source::path).collect();
        write_output(Some(path), &inputs, settings.replace, |out: &mut dyn Write| out.write_all(svg.as_bytes()))?;
    }
    let exact = runs.iter().all(|r| r.exact);
    Ok(if exact { Status::Done } else { Status::LowerBound })
}
