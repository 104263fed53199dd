//! The puzzles of a `count`, `unique` or `candidates` run: every input read
//! once (a file that cannot be read is reported in a batch, and is the
//! run's error alone), each file one puzzle or a collection (`givens`
//! lines, or f-puzzles puzzles: share strings and links one a line, JSON
//! objects one after another, a JSON array of them), each puzzle a [`Task`] parsed when a worker takes it (so that a
//! large collection is held as text), and how their results add up to the
//! run's status.

use satsudoku::count::plan::Plan;
use satsudoku::count::{EngineKind, Limits};
use satsudoku::encode::Encoding;
use satsudoku::model::Puzzle;
use satsudoku::parse::{self, Format, Options, ParseError};
use satsudoku::report::{Item, PrintStyle};

use super::input::{read_text, sources, Reading, Source, Text};
use super::{AppError, Status, INTERRUPTED};
use crate::cli::{PuzzlesArgs, SolveArgs};
use crate::diag;

/// What `count`, `unique` and `candidates` resolve alike: the inputs, how
/// to read them, the encoding and the engine asked for.
pub struct Puzzles {
    pub sources: Vec<Source>,
    pub reading: Reading,
    pub encoding: Encoding,
    /// `None`: the plan chooses.
    pub engine: Option<EngineKind>,
}

impl Puzzles {
    pub fn resolve(puzzles: &PuzzlesArgs, solve: &SolveArgs) -> Result<Puzzles, AppError> {
        Ok(Puzzles {
            sources: sources(&puzzles.files),
            reading: Reading { format: puzzles.format, options: puzzles.shape.options() },
            encoding: solve.encoding.encoding().map_err(AppError::Usage)?,
            engine: solve.engine,
        })
    }

    /// For `count` and `unique`, which assume no label of a chaos
    /// construction: such a puzzle whose rules are on its regions alone
    /// may number its labels by their regions' first cells
    /// ([`Encoding::chaos_first_cells`]).
    pub fn labels_by_first_cells(mut self) -> Puzzles {
        self.encoding.chaos_first_cells = true;
        self
    }

    /// Several files: each result starts with `FILE<TAB>`.
    pub fn is_batch(&self) -> bool {
        self.sources.len() > 1
    }

    /// The plan these options give, before the command adds its own.
    pub fn plan(&self) -> Plan {
        let limits = Limits { interrupt: Some(&INTERRUPTED), ..Limits::default() };
        Plan { engine: self.engine, limits, ..Plan::new(self.encoding) }
    }
}

/// One input's text and how to read it.
pub struct Input {
    name: String,
    text: String,
    format: Format,
    options: Options,
    /// `givens` lines or f-puzzles puzzles, more than one: a puzzle each.
    collection: bool,
}

/// Every input of a run, read.
pub struct Inputs {
    inputs: Vec<Input>,
    /// Files that could not be read (each reported in its turn).
    unreadable: usize,
    /// Files given.
    files: usize,
}

impl Inputs {
    /// Reads every source. Alone, a source that cannot be read is the
    /// run's error; in a batch it is reported on stderr and the others go on.
    pub fn read(puzzles: &Puzzles) -> Result<Inputs, AppError> {
        let batch = puzzles.is_batch();
        let mut inputs = Inputs { inputs: Vec::new(), unreadable: 0, files: puzzles.sources.len() };
        for source in &puzzles.sources {
            match read(source, puzzles.reading) {
                Ok(input) => inputs.inputs.push(input),
                Err(err) if batch => {
                    diag!("error: {err}");
                    inputs.unreadable += 1;
                }
                Err(err) => return Err(err),
            }
        }
        Ok(inputs)
    }

    /// The puzzles, in order: one per file, one per line of a collection.
    pub fn tasks(&self) -> Vec<Task<'_>> {
        let batch = self.files > 1;
        let mut tasks = Vec::new();
        for input in &self.inputs {
            if !input.collection {
                let label = batch.then(|| input.name.clone());
                tasks.push(Task { input, line: None, label });
                continue;
            }
            let parts: Vec<Part> = match input.format {
                Format::Fpuzzles => match parse::fpuzzles::items(&input.text, &input.name) {
                    Ok(items) => items.into_iter().map(Part::Fpuzzles).collect(),
                    Err(_) => Vec::new(), // read() judged the file a collection
                },
                Format::Puzzle | Format::Takuzu => parse::parts(&input.text).into_iter().map(Part::Lines).collect(),
                _ => parse::grid::collection_lines(&input.text).map(|(line, text)| Part::Givens(line, text)).collect(),
            };
            // Puzzles that share a line (a JSON array on one) are told
            // apart by their column.
            let shared = parts.windows(2).any(|w| w[0].line() == w[1].line());
            for part in parts {
                let line = match (shared, part) {
                    (true, Part::Fpuzzles(item)) => item.at.to_string(),
                    _ => part.line().to_string(),
                };
                let label = if batch { format!("{}:{line}", input.name) } else { line };
                tasks.push(Task { input, line: Some(part), label: Some(label) });
            }
        }
        tasks
    }
}

/// One puzzle of a collection.
#[derive(Clone, Copy)]
enum Part<'i> {
    /// A `givens` line: its number and text.
    Givens(usize, &'i str),
    /// An f-puzzles puzzle: a share string or link on its line, a JSON
    /// object, or an element of a JSON array.
    Fpuzzles(parse::fpuzzles::Item<'i>),
    /// A `puzzle` or Takuzu file's puzzle, between `---` lines.
    Lines(parse::Part<'i>),
}

impl Part<'_> {
    /// The line it starts on.
    fn line(&self) -> usize {
        match self {
            Part::Givens(line, _) => *line,
            Part::Fpuzzles(item) => item.at.line,
            Part::Lines(part) => part.skipped + 1,
        }
    }
}

/// Reads one source and decides its format.
fn read(source: &Source, reading: Reading) -> Result<Input, AppError> {
    let Text { name, text } = read_text(source)?;
    let format = match reading.format {
        Some(format) => format,
        None => parse::detect(&text, &name, reading.options)?,
    };
    let collection = match format {
        Format::Givens => parse::grid::is_collection(&text),
        // A file of several f-puzzles puzzles: one that does not split into
        // puzzles is read whole, and its error reported as for one puzzle.
        Format::Fpuzzles => parse::fpuzzles::items(&text, &name).is_ok_and(|items| items.len() > 1),
        Format::Puzzle | Format::Takuzu => parse::parts(&text).len() > 1,
        _ => false,
    };
    Ok(Input { name, text, format, options: reading.options, collection })
}

/// One puzzle of a run.
pub struct Task<'i> {
    input: &'i Input,
    /// A collection's puzzle.
    line: Option<Part<'i>>,
    label: Option<String>,
}

impl Task<'_> {
    /// The puzzle.
    pub fn parse(&self) -> Result<Puzzle, ParseError> {
        let Input { name, text, format, options, .. } = self.input;
        match self.line {
            Some(Part::Givens(line, text)) => parse::grid::parse_givens_line(text, line, options.boxes, name),
            Some(Part::Fpuzzles(item)) => parse::fpuzzles::parse_item(&item, name),
            Some(Part::Lines(part)) => parse::parse_part(part, name, *format, *options),
            None => parse::parse_with(text, name, Some(*format), *options),
        }
    }

    /// [`Task::parse`], and with a `command` that reads square grids only
    /// (`None`: any grid), a rectangle (ISS's `Shape~6x8`) refused, naming
    /// the command.
    pub fn parse_square(&self, command: Option<&str>) -> Result<Puzzle, ParseError> {
        let puzzle = self.parse()?;
        if let Some(command) = command {
            square_only(&puzzle, &self.input.name, command)?;
        }
        Ok(puzzle)
    }

    /// Which puzzle it is, for the printers.
    pub fn item(&self) -> Item<'_> {
        let style = PrintStyle::of(self.input.format);
        Item {
            source: &self.input.name,
            line: self.line.map(|p| p.line()),
            label: self.label.as_deref(),
            style,
            shape: None,
            vars: 0,
        }
    }

    /// How messages name it: the file, or `FILE: LINE` for a collection's line.
    pub fn name(&self) -> String {
        match self.line {
            Some(part) => format!("{}: {}", self.input.name, part.line()),
            None => self.input.name.clone(),
        }
    }

    /// Whether it is a line of a collection (whose bad lines do not stop a run).
    pub fn is_line(&self) -> bool {
        self.line.is_some()
    }
}

/// How the results of a run's tasks add up.
pub struct Tallies {
    /// What `unique` calls a bad line's fate, `counted` or `judged`.
    verb: &'static str,
    batch: bool,
    unreadable: usize,
    files: usize,
    bad_lines: usize,
    lines: usize,
    status: Status,
    /// Tasks whose result was reported.
    reported: usize,
    /// Tasks in all, and when the run started: the batch's progress line.
    total: usize,
    started: std::time::Instant,
}

impl Tallies {
    pub fn new(inputs: &Inputs, tasks: &[Task], verb: &'static str) -> Tallies {
        Tallies {
            verb,
            batch: inputs.files > 1,
            unreadable: inputs.unreadable,
            files: inputs.files,
            bad_lines: 0,
            lines: tasks.iter().filter(|t| t.is_line()).count(),
            status: Status::Done,
            reported: 0,
            total: tasks.len(),
            started: std::time::Instant::now(),
        }
    }

    /// A task's result was printed; `status` is what it says of the run.
    pub fn done(&mut self, status: Status) {
        self.reported += 1;
        super::progress::batch(self.reported, self.total, self.verb, self.started.elapsed());
        if status != Status::Done && self.status != Status::LowerBound {
            self.status = status;
        }
    }

    /// A task could not be read or parsed: in a batch or a collection it
    /// is reported and the run goes on; alone, it is the run's error.
    pub fn unreadable(&mut self, task: &Task, err: ParseError) -> Result<(), AppError> {
        self.reported += 1;
        super::progress::batch(self.reported, self.total, self.verb, self.started.elapsed());
        if !task.is_line() && !self.batch {
            return Err(err.into());
        }
        diag!("error: {err}");
        if task.is_line() {
            self.bad_lines += 1;
        } else {
            self.unreadable += 1;
        }
        Ok(())
    }

    /// The run's status once every task reported: the tasks left after an
    /// interrupt are named, and failures are the run's error.
    pub fn finish(self, tasks: &[Task]) -> Result<Status, AppError> {
        let mut status = self.status;
        let left: Vec<String> =
            tasks[self.reported.min(tasks.len())..].iter().map(|t| t.label_or_name().to_owned()).collect();
        if !left.is_empty() {
            const NAMED: usize = 20;
            let mut named = itertools::join(left.iter().take(NAMED), ", ");
            if left.len() > NAMED {
                named.push_str(&format!(" and {} more", left.len() - NAMED));
            }
            diag!("satsudoku: interrupted: not {}: {named}", self.verb);
            status = Status::LowerBound;
        }
        if self.unreadable > 0 {
            return Err(AppError::Batch { failed: self.unreadable, total: self.files, verb: self.verb });
        }
        if self.bad_lines > 0 {
            return Err(AppError::Collection { failed: self.bad_lines, total: self.lines, verb: self.verb });
        }
        Ok(status)
    }
}

impl Task<'_> {
    /// Its label, or its file's name when it has none.
    fn label_or_name(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.input.name)
    }
}

/// Refuses a rectangle (ISS's `Shape~6x8`), a chaos construction or a grid
/// with cells outside it for a command that reads square grids of given
/// regions only.
pub fn square_only(puzzle: &Puzzle, name: &str, command: &str) -> Result<(), ParseError> {
    let (rows, cols) = puzzle.shape();
    let message = match (puzzle.is_rectangle(), puzzle.is_chaos()) {
        _ if puzzle.vars() > 0 => format!(
            "{} cells outside the grid (ISS's Var): `{command}` reads grids alone (cells outside: count, unique, \
             candidates, export --as cnf or iss)",
            puzzle.vars()
        ),
        (true, _) => format!(
            "a {rows}x{cols} grid: `{command}` reads square grids only (rectangles: count, unique, candidates, \
             export --as cnf or iss)"
        ),
        (_, true) => format!(
            "a chaos construction: `{command}` reads grids whose regions are given only (chaos constructions: \
             count, unique, candidates, export --as cnf or iss)"
        ),
        _ => return Ok(()),
    };
    Err(ParseError { source_name: name.to_owned(), line: 1, col: 1, message })
}
