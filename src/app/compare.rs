//! `satsudoku compare`: measure encodings on files, print the report, and
//! draw the chart if asked.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use satsudoku::compare::{self, Report, TableFormat};
use satsudoku::encode::Encoding;

use super::input::{read_puzzle, Reading, Source};
use super::output::{write_output, Replace};
use super::{study, AppError, Status};
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
    /// `--solvers`: the solvers to run instead of measuring encodings.
    pub solvers: Option<Vec<&'static study::Solver>>,
    pub timeout: Option<std::time::Duration>,
    pub repeat: u32,
    /// `--scatter A,B` and its file.
    pub scatter: Option<((String, String), PathBuf)>,
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
        let solvers = args.solvers.as_deref().map(study::parse_solvers).transpose().map_err(AppError::Usage)?;
        let encodings = match (&args.encodings, &solvers) {
            (Some(list), _) => list.0.clone(),
            (None, Some(_)) => vec![Encoding::default()],
            (None, None) => Encoding::variations(),
        };
        if solvers.is_some() && args.files.iter().any(|f| f.as_os_str() == "-") {
            return Err(AppError::Usage(
                "compare --solvers runs satsudoku again on each file: give the puzzles as files, not `-`".into(),
            ));
        }
        let scatter = match (&args.scatter, &args.scatter_svg) {
            (Some(pair), Some(file)) => {
                let Some((a, b)) = pair.split_once(',') else {
                    return Err(AppError::Usage(format!("--scatter {pair:?}: expected two solvers, A,B")));
                };
                let listed = |name: &str| solvers.as_ref().is_some_and(|s| s.iter().any(|x| x.name == name));
                if !listed(a) || !listed(b) {
                    return Err(AppError::Usage(format!("--scatter {pair}: both must be among --solvers")));
                }
                Some(((a.to_owned(), b.to_owned()), file.clone()))
            }
            _ => None,
        };
        Ok(Settings {
            scatter,
            sources: args.files.iter().map(|f| Source::from_arg(Some(f))).collect(),
            reading: Reading { format: input, options: args.shape.options() },
            encodings,
            solvers,
            timeout: args.timeout,
            repeat: args.repeat,
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
    if let Some(solvers) = &settings.solvers {
        return run_solvers(&settings, solvers, puzzles);
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

/// `compare --solvers`: the study, its report, its cactus plot.
fn run_solvers(
    settings: &Settings,
    solvers: &[&'static study::Solver],
    puzzles: Vec<(String, satsudoku::model::Puzzle, satsudoku::parse::Format)>,
) -> Result<Status, AppError> {
    let paths = settings.sources.iter().filter_map(|s| s.path().map(PathBuf::from)).collect();
    let puzzles: Vec<(String, satsudoku::model::Puzzle)> = puzzles.into_iter().map(|(n, p, _)| (n, p)).collect();
    let plan = study::Study {
        solvers: solvers.to_vec(),
        repeat: settings.repeat,
        timeout: settings.timeout.unwrap_or(std::time::Duration::from_secs(60)),
        encoding: settings.encodings.first().copied().unwrap_or_default(),
        puzzles: &puzzles,
        paths,
    };
    let (rows, disagreed) = study::run(&plan)?;
    if let Some(path) = &settings.svg {
        let svg = study::cactus(&rows).map_err(|e| AppError::Other(anyhow::anyhow!(e)))?;
        let inputs: Vec<_> = settings.sources.iter().filter_map(Source::path).collect();
        write_output(Some(path), &inputs, settings.replace, |out: &mut dyn Write| out.write_all(svg.as_bytes()))?;
    }
    if let Some(((a, b), path)) = &settings.scatter {
        let svg = study::scatter(&rows, a, b, plan.timeout).map_err(|e| AppError::Other(anyhow::anyhow!(e)))?;
        let inputs: Vec<_> = settings.sources.iter().filter_map(Source::path).collect();
        write_output(Some(path), &inputs, settings.replace, |out: &mut dyn Write| out.write_all(svg.as_bytes()))?;
    }
    study::finish(&rows, disagreed, settings.table, &mut std::io::stdout().lock())
}
