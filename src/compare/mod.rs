//! `satsudoku compare`: every encoding on every file, measured the same way,
//! with per-encoding aggregates over files (median and max). The report is
//! a list of typed [`Row`]s, written by one module per format: [`table`]
//! (aligned or markdown), [`csv`], [`json`], and [`svg`] for the chart.
//!
//! Times are medians of `repeat` runs. The propagation figure (`fixed_by_up`)
//! is the number of cells whose digit unit propagation alone fixes at level
//! 0, givens included (the measure of Lynce & Ouaknine 2006), on the formula
//! exactly as encoded and exported: not on the enum engine's strengthened
//! formula, whose derived support clauses would credit every relation
//! encoding with arc consistency.

pub mod csv;
pub mod json;
pub mod svg;
pub mod table;

use std::fmt;
use std::time::{Duration, Instant};

use serde::{Serialize, Serializer};

use crate::count::enumerate::{Propagator, Strength};
use crate::count::{self, EngineKind, Limits, SearchStats};
use crate::encode::{self, ClauseKind, Encoding};
use crate::model::Puzzle;

crate::named_enum! {
    /// Output formats of `compare`.
    pub enum TableFormat = Table {
        /// Aligned columns for reading.
        Table = "table",
        /// Comma-separated values with every column, aggregates after the runs.
        Csv = "csv",
        /// A JSON object with the runs and the aggregates, every column.
        Json = "json",
        /// The aligned table's columns as a markdown table.
        Markdown = "markdown",
    }
}

/// The encodings to compare: a comma-separated list of encoding names, or `all`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodingList(pub Vec<Encoding>);

impl std::str::FromStr for EncodingList {
    type Err = String;

    fn from_str(text: &str) -> Result<EncodingList, String> {
        if text == "all" {
            return Ok(EncodingList(Encoding::variations()));
        }
        let list: Vec<Encoding> = text.split(',').map(str::parse).collect::<Result<_, _>>()?;
        Ok(EncodingList(list))
    }
}

/// One encoding measured on one file.
#[derive(Clone, Debug)]
pub struct Run {
    /// The puzzle file.
    pub file: String,
    /// The encoding measured.
    pub encoding: Encoding,
    /// Primary variables.
    pub primary: usize,
    /// Auxiliary variables.
    pub aux: usize,
    /// Clauses by kind.
    pub clauses: encode::ClauseCounts,
    /// Literals in all clauses.
    pub literals: usize,
    /// Cells fixed by unit propagation at level 0 on the formula as
    /// encoded; `None` on a level-0 conflict.
    pub fixed_by_propagation: Option<usize>,
    /// Medians of the runs, in milliseconds.
    pub encode_ms: f64,
    /// Median time to the first model, if any.
    pub first_ms: Option<f64>,
    /// Median time of the count.
    pub count_ms: f64,
    /// The last count's search effort.
    pub stats: SearchStats,
    /// Models counted.
    pub count: u128,
    /// False when the count stopped at the time limit (a lower bound).
    pub exact: bool,
}

/// How each run is made.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The engine timed.
    pub engine: EngineKind,
    /// Runs of each measurement.
    pub repeat: u32,
    /// Stop each count after this long.
    pub timeout: Option<Duration>,
}

/// Measures one encoding on one puzzle.
pub fn measure(file: &str, puzzle: &Puzzle, encoding: &Encoding, settings: Settings) -> Result<Run, count::CountError> {
    let repeat = settings.repeat.max(1);
    encode::check_fits(puzzle, encoding)?;
    let timed_encode = || {
        let start = Instant::now();
        let encoded = encode::encode(puzzle, encoding);
        (encoded, ms(start.elapsed()))
    };
    let (mut encoded, first) = timed_encode();
    let mut encode_times = vec![first];
    for _ in 1..repeat {
        let (again, time) = timed_encode();
        encoded = again;
        encode_times.push(time);
    }
    let fixed_by_propagation = Propagator::new(&encoded, Strength::AsEncoded).cells_fixed(&encoded.vars);

    let (mut count_times, mut first_times, mut result) = (Vec::new(), Vec::new(), None);
    let limits = Limits { max: None, timeout: settings.timeout, interrupt: None };
    for _ in 0..repeat {
        let counted = count::count_models(puzzle, &encoded, settings.engine, limits, &mut ())?;
        count_times.push(ms(counted.elapsed));
        first_times.extend(counted.first.map(ms));
        result = Some(counted);
    }
    let result = result.expect("repeat >= 1");
    Ok(Run {
        file: file.to_owned(),
        encoding: *encoding,
        primary: encoded.vars.primary_count(),
        aux: encoded.aux_count(),
        clauses: encoded.clause_counts,
        literals: encoded.literal_count(),
        fixed_by_propagation,
        encode_ms: median(encode_times),
        first_ms: (!first_times.is_empty()).then(|| median(first_times)),
        count_ms: median(count_times),
        stats: result.stats,
        count: result.models,
        exact: result.is_exact(),
    })
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A measured number: a whole count, or a time or median that may have a
/// fraction. Written as an integer when it is one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// A whole number.
    Int(u64),
    /// A number with a fraction.
    Real(f64),
}

impl Num {
    /// The number as a double.
    pub fn value(self) -> f64 {
        match self {
            Num::Int(n) => n as f64,
            Num::Real(x) => x,
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Num::Int(n) => write!(f, "{n}"),
            Num::Real(x) if x.fract() == 0.0 && x.abs() < 1e15 => write!(f, "{x:.0}"),
            Num::Real(x) => write!(f, "{x:.3}"),
        }
    }
}

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Num::Int(n) => serializer.serialize_u64(n),
            Num::Real(x) if x.fract() == 0.0 && x.abs() < 1e15 => serializer.serialize_i64(x as i64),
            Num::Real(x) => serializer.serialize_f64(x),
        }
    }
}

/// A model count. JSON readers keep integers exactly only up to 2^53, so
/// larger counts are written as strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count(pub u128);

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(self.0) {
            Ok(n) if n < 1 << 53 => serializer.serialize_u64(n),
            _ => serializer.collect_str(&self.0),
        }
    }
}

/// What a row stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RowKind {
    /// One encoding on one file.
    File,
    /// The median over files of one encoding's runs.
    Median,
    /// The largest value over files of one encoding's runs.
    Max,
}

/// One line of the report: a run, or the median or max of one encoding's
/// runs over files. Its fields are the columns of every format, in order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Whether it is a run or an aggregate.
    pub kind: RowKind,
    /// The file, or `N files` for an aggregate.
    pub file: String,
    /// The encoding, by name.
    pub encoding: String,
    /// Primary variables.
    pub primary: Option<Num>,
    /// Auxiliary variables.
    pub aux: Option<Num>,
    /// Clauses.
    pub clauses: Option<Num>,
    /// Literals.
    pub literals: Option<Num>,
    /// Cells unit propagation fixes on the formula as encoded.
    pub fixed_by_up: Option<Num>,
    /// Encoding time (median).
    pub encode_ms: Option<Num>,
    /// Time to the first model (median).
    pub first_ms: Option<Num>,
    /// Count time (median).
    pub count_ms: Option<Num>,
    /// SAT calls.
    pub sat_calls: Option<Num>,
    /// Decisions of the engine's own search.
    pub decisions: Option<Num>,
    /// Conflicts of the engine's own search.
    pub conflicts: Option<Num>,
    /// Clauses of kind `cell-alo`.
    pub clauses_cell_alo: Option<Num>,
    /// Clauses of kind `cell-amo`.
    pub clauses_cell_amo: Option<Num>,
    /// Clauses of kind `group-alo`.
    pub clauses_group_alo: Option<Num>,
    /// Clauses of kind `group-amo`.
    pub clauses_group_amo: Option<Num>,
    /// Clauses of kind `relation`.
    pub clauses_relation: Option<Num>,
    /// Clauses of kind `given`.
    pub clauses_given: Option<Num>,
    /// Clauses of kind `domain`.
    pub clauses_domain: Option<Num>,
    /// Clauses of kind `all-different`.
    pub clauses_all_different: Option<Num>,
    /// Clauses of kind `constraint`.
    pub clauses_constraint: Option<Num>,
    /// Clauses of kind `cage`.
    pub clauses_cage: Option<Num>,
    /// The count of a run; `None` for aggregates.
    pub count: Option<Count>,
    /// Whether the run's count is exact (not stopped by the time limit).
    pub exact: Option<bool>,
}

impl Row {
    /// The row of one run.
    pub fn of(run: &Run) -> Row {
        let int = |n: usize| Some(Num::Int(n as u64));
        let kind = |k: ClauseKind| int(run.clauses.get(k));
        Row {
            kind: RowKind::File,
            file: run.file.clone(),
            encoding: run.encoding.to_string(),
            primary: int(run.primary),
            aux: int(run.aux),
            clauses: int(run.clauses.total()),
            literals: int(run.literals),
            fixed_by_up: run.fixed_by_propagation.and_then(int),
            encode_ms: Some(Num::Real(run.encode_ms)),
            first_ms: run.first_ms.map(Num::Real),
            count_ms: Some(Num::Real(run.count_ms)),
            sat_calls: Some(Num::Int(run.stats.sat_calls)),
            decisions: run.stats.decisions.map(Num::Int),
            conflicts: run.stats.conflicts.map(Num::Int),
            clauses_cell_alo: kind(ClauseKind::CellAtLeastOne),
            clauses_cell_amo: kind(ClauseKind::CellAtMostOne),
            clauses_group_alo: kind(ClauseKind::GroupAtLeastOne),
            clauses_group_amo: kind(ClauseKind::GroupAtMostOne),
            clauses_relation: kind(ClauseKind::Relation),
            clauses_given: kind(ClauseKind::Given),
            clauses_domain: kind(ClauseKind::Domain),
            clauses_all_different: kind(ClauseKind::AllDifferent),
            clauses_constraint: kind(ClauseKind::Constraint),
            clauses_cage: kind(ClauseKind::Cage),
            count: Some(Count(run.count)),
            exact: Some(run.exact),
        }
    }

    /// Every measured number, for aggregating them alike.
    fn measures_mut(&mut self) -> [&mut Option<Num>; 21] {
        [
            &mut self.primary,
            &mut self.aux,
            &mut self.clauses,
            &mut self.literals,
            &mut self.fixed_by_up,
            &mut self.encode_ms,
            &mut self.first_ms,
            &mut self.count_ms,
            &mut self.sat_calls,
            &mut self.decisions,
            &mut self.conflicts,
            &mut self.clauses_cell_alo,
            &mut self.clauses_cell_amo,
            &mut self.clauses_group_alo,
            &mut self.clauses_group_amo,
            &mut self.clauses_relation,
            &mut self.clauses_given,
            &mut self.clauses_domain,
            &mut self.clauses_all_different,
            &mut self.clauses_constraint,
            &mut self.clauses_cage,
        ]
    }

    /// The `kind` row of `runs` (one encoding's): each measure picked
    /// (median or max) over the runs that have it.
    fn aggregate(kind: RowKind, runs: &[Row], pick: fn(Vec<f64>) -> f64) -> Row {
        let mut columns: Vec<Row> = runs.to_vec();
        let mut out = Row { kind, file: format!("{} files", runs.len()), count: None, exact: None, ..runs[0].clone() };
        for (i, slot) in out.measures_mut().into_iter().enumerate() {
            let values: Vec<f64> =
                columns.iter_mut().filter_map(|row| *row.measures_mut()[i]).map(Num::value).collect();
            *slot = (!values.is_empty()).then(|| Num::Real(pick(values)));
        }
        out
    }
}

/// The report: a row per run and, with more than one file, the median and
/// max rows of each encoding.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// One row per run.
    pub runs: Vec<Row>,
    /// Medians per encoding over the files.
    pub aggregates: Vec<Row>,
}

impl Report {
    /// The report of `runs`.
    pub fn new(runs: &[Run]) -> Report {
        let files = runs.iter().map(|r| &r.file).collect::<std::collections::HashSet<_>>().len();
        let aggregates = if files > 1 { aggregate_rows(runs) } else { Vec::new() };
        Report { runs: runs.iter().map(Row::of).collect(), aggregates }
    }

    /// The report in `format`.
    pub fn render(&self, format: TableFormat) -> String {
        match format {
            TableFormat::Table => table::render(self, false),
            TableFormat::Markdown => table::render(self, true),
            TableFormat::Csv => csv::render(self),
            TableFormat::Json => json::render(self),
        }
    }

    /// The median rows, one per encoding.
    pub fn medians(&self) -> impl Iterator<Item = &Row> {
        self.aggregates.iter().filter(|row| row.kind == RowKind::Median)
    }
}

/// Per encoding, in first-seen order: median and max of each measure over files.
fn aggregate_rows(runs: &[Run]) -> Vec<Row> {
    let mut encodings: Vec<Encoding> = Vec::new();
    for run in runs {
        if !encodings.contains(&run.encoding) {
            encodings.push(run.encoding);
        }
    }
    let mut rows = Vec::new();
    for encoding in encodings {
        let of: Vec<Row> = runs.iter().filter(|r| r.encoding == encoding).map(Row::of).collect();
        rows.push(Row::aggregate(RowKind::Median, &of, median));
        rows.push(Row::aggregate(RowKind::Max, &of, max_f64));
    }
    rows
}

/// The median of a non-empty list.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

fn max_f64(values: Vec<f64>) -> f64 {
    values.into_iter().fold(f64::NEG_INFINITY, f64::max)
}
