//! The command line, as clap derive types; the doc comments are the help text.

use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use satsudoku::compare::{EncodingList, TableFormat};
use satsudoku::count::plan::SymmetryUse;
use satsudoku::count::EngineKind;
use satsudoku::dimacs::Dialect;
use satsudoku::encode::amo::AmoEncoding;
use satsudoku::encode::relation::RelationEncoding;
use satsudoku::encode::{ClauseSet, DigitEncoding, Encoding, LineEncoding, SumEncoding};
use satsudoku::formulate::Formulation;
use satsudoku::named::Named;
use satsudoku::parse::Format;
use satsudoku::report::Output;
use satsudoku::setter::generate::Symmetry;

/// The most worker threads `--jobs` accepts: far more than useful on any
/// machine, few enough that starting them cannot exhaust memory.
pub const MAX_JOBS: u16 = 256;

/// A parser for a [`Named`] option: its names, each with its help, as
/// clap's possible values.
fn named<T: Named + Send + Sync>() -> impl TypedValueParser<Value = T> {
    named_of(T::VARIANTS)
}

/// [`named`] for some of the variants only: a command lists (and takes)
/// only the values it accepts.
fn named_of<T: Named + Send + Sync>(variants: &'static [T]) -> impl TypedValueParser<Value = T> {
    let values = variants.iter().map(|v| PossibleValue::new(v.name()).help(v.help()));
    // clap accepts only the names listed, so each maps back to its variant.
    PossibleValuesParser::new(values).map(|name| T::from_name(&name).unwrap_or(T::VARIANTS[0]))
}

/// What `unique` and `candidates` print: no model count, so no `mc`.
const TEXT_OR_JSON: &[Output] = &[Output::Text, Output::Json];

/// Count the solutions of Sudoku-family puzzles exactly with a SAT solver.
#[derive(Debug, Parser)]
#[command(name = "satsudoku", version, help_expected = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// The most memory satsudoku may use, such as 4G or 512M (powers of
    /// 1024). Work whose estimate passes it is refused before it starts,
    /// and an allocation past it ends the run with a message (exit 2).
    /// Default: three quarters of the machine's memory.
    #[arg(long, global = true, value_name = "SIZE", value_parser = satsudoku::memory::parse_size)]
    pub memory: Option<usize>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the solutions and print `solutions(S).` on stdout.
    Count(CountArgs),
    /// Say whether each puzzle has exactly one solution: `unique`, `none` or `multiple`.
    Unique(UniqueArgs),
    /// Print each cell's true candidates: the digits that appear in some solution (with `--counts`, in how many).
    Candidates(CandidatesArgs),
    /// Say which givens each unique puzzle needs (`minimal`, or `redundant` and which), or which
    /// cells to add to a puzzle with several solutions.
    Minimal(QuestionArgs),
    /// Rate each unique puzzle's difficulty by the propagation its solution needs: score, level, steps.
    Rate(QuestionArgs),
    /// Make puzzles with exactly one solution, minimal, from a layout and its rules.
    Generate(GenerateArgs),
    /// Find the fewest givens any puzzle of a layout needs to have one solution, over all its grids.
    Fewest(FewestArgs),
    /// Write the puzzle's CNF in DIMACS, with its projection.
    Export(ExportArgs),
    /// Read a SAT solver's model of an exported CNF and print the grid.
    Decode(DecodeArgs),
    /// Compare encodings on puzzles: sizes, propagation, times and counts.
    Compare(CompareArgs),
    /// Split a count into cube files and a manifest, to count on a cluster with `count --cube`.
    Cubes(CubesArgs),
    /// Add up the records of a split count: `solutions(S).` once every cube has one.
    Sum(SumArgs),
}

#[derive(Debug, Args)]
#[command(next_help_heading = "Input")]
pub struct InputArgs {
    /// Puzzle file; `-` or none reads stdin.
    pub file: Option<PathBuf>,
    /// Input format; detected from the content when not given.
    #[arg(long, value_parser = named::<Format>())]
    pub format: Option<Format>,
    #[command(flatten)]
    pub shape: ShapeArgs,
}

/// What a format alone does not say about the puzzle.
#[derive(Debug, Clone, Copy, Args)]
pub struct ShapeArgs {
    /// Box shape for the givens and grid formats, rows x columns [default: the usual one for the side].
    #[arg(long = "box", value_name = "RxC", value_parser = parse_box)]
    pub boxes: Option<(usize, usize)>,
    /// Takuzu rules: `all`, or `no-distinct` to allow equal rows and columns, as some publishers do.
    #[arg(long, value_enum, default_value_t)]
    pub takuzu_rules: TakuzuRules,
}

impl ShapeArgs {
    pub fn options(&self) -> satsudoku::parse::Options {
        satsudoku::parse::Options { boxes: self.boxes, takuzu_distinct: self.takuzu_rules == TakuzuRules::All }
    }
}

/// Which Takuzu rules apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TakuzuRules {
    /// Balance, no three alike in a line, no two lines alike.
    #[default]
    All,
    /// Balance and no three alike; rows (and columns) may repeat.
    NoDistinct,
}

/// `RxC`, each at least 1.
fn parse_box(text: &str) -> Result<(usize, usize), String> {
    let shape =
        text.split_once(['x', 'X']).and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
    shape.filter(|&(r, c)| r >= 1 && c >= 1).ok_or_else(|| format!("expected a box shape such as 2x3, found {text:?}"))
}

#[derive(Debug, Clone, Copy, Args)]
#[command(next_help_heading = "Encoding")]
pub struct EncodingArgs {
    /// A whole encoding by name: option names joined by `/`, in any order, the rest default
    /// (`order`, `minimal/ladder`, `support/reduced`, `direct/extended/pairwise/forbidden-pairs`).
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["digits", "clause_set", "amo", "relation", "sum", "lines", "reduce"])]
    pub encoding: Option<Encoding>,
    /// How a cell's digit is spelled in variables [default: direct].
    #[arg(long, value_parser = named::<DigitEncoding>())]
    pub digits: Option<DigitEncoding>,
    /// Which one-hot constraints to emit (direct digits only) [default: extended].
    #[arg(long, value_parser = named::<ClauseSet>())]
    pub clause_set: Option<ClauseSet>,
    /// At-most-one encoding for cells and groups (direct digits only) [default: pairwise].
    #[arg(long, value_parser = named::<AmoEncoding>())]
    pub amo: Option<AmoEncoding>,
    /// How each binary relation becomes clauses (direct digits only) [default: forbidden-pairs].
    #[arg(long, value_parser = named::<RelationEncoding>())]
    pub relation: Option<RelationEncoding>,
    /// How sums over several cells (killer cages, little killers, arrows) become clauses
    /// [default: auto].
    #[arg(long, value_parser = named::<SumEncoding>())]
    pub sum: Option<SumEncoding>,
    /// How skyscraper, x-sum and sandwich clues and between, lockout, renban, region-sum, zipper and
    /// double-arrow lines become clauses [default: automaton].
    #[arg(long, value_parser = named::<LineEncoding>())]
    pub lines: Option<LineEncoding>,
    /// Remove the variables the givens fix (Kwon & Jain's reduction).
    #[arg(long)]
    pub reduce: bool,
}

impl EncodingArgs {
    /// The chosen encoding, or why the options do not go together.
    pub fn encoding(&self) -> Result<Encoding, String> {
        if let Some(encoding) = self.encoding {
            return Ok(encoding);
        }
        let digits = self.digits.unwrap_or_default();
        if digits != DigitEncoding::Direct
            && (self.clause_set.is_some() || self.amo.is_some() || self.relation.is_some())
        {
            return Err("--clause-set, --amo and --relation apply to --digits direct only".into());
        }
        Ok(Encoding {
            digits,
            clause_set: self.clause_set.unwrap_or_default(),
            amo: self.amo.unwrap_or_default(),
            relation: self.relation.unwrap_or_default(),
            sum: self.sum.unwrap_or_default(),
            lines: self.lines.unwrap_or_default(),
            reduce: self.reduce,
            chaos_first_cells: false,
        })
    }
}

/// The puzzles `count` and `unique` read.
#[derive(Debug, Args)]
#[command(next_help_heading = "Input")]
pub struct PuzzlesArgs {
    /// Puzzle files, any format; `-` or none reads stdin. With several, each
    /// output line starts with `FILE<TAB>`; a collection (one puzzle a line)
    /// gives a line per puzzle, starting with `LINE<TAB>`.
    pub files: Vec<PathBuf>,
    /// Input format; detected from the content when not given.
    #[arg(long, value_parser = named::<Format>())]
    pub format: Option<Format>,
    #[command(flatten)]
    pub shape: ShapeArgs,
}

/// How `count` and `unique` search: the encoding and the engine.
#[derive(Debug, Args)]
#[command(next_help_heading = "Encoding")]
pub struct SolveArgs {
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Counting engine [default: the plan's choice: grid for the puzzles it takes, else enum, with varisat for a search it has not ended in 2^18 decisions]
    #[arg(long, value_parser = named::<EngineKind>())]
    pub engine: Option<EngineKind>,
}

#[derive(Debug, Args)]
pub struct CountArgs {
    /// Worker threads, 1 to 256; above 1 the count is split into cubes counted
    /// in parallel [default: one thread for the first 4,096 decisions, then all cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_JOBS)))]
    pub jobs: Option<u16>,
    /// Stop after N solutions; if more exist, the count is a lower bound (exit 3).
    #[arg(long, value_name = "N")]
    pub max: Option<u128>,
    /// Stop after SECS seconds; the count is then a lower bound (exit 3).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Print every solution before the count (LP facts for the contest formats, grids otherwise).
    #[arg(long)]
    pub print: bool,
    /// Count up to digit relabelling when the rules allow it (no givens, rules blind to digit
    /// names): a full group fixed to 1..n, the count multiplied by n!; on plain Sudoku and Latin
    /// squares also up to line permutations, and transposition where the reduced puzzle is
    /// proven invariant under it (counted as 2L - F). Off with --print and --max.
    #[arg(long, value_parser = named::<SymmetryUse>(), default_value_t)]
    pub symmetry: SymmetryUse,
    /// Count the essentially different grids of a blank Sudoku instead: its grids up to digit
    /// relabelling and the layout's band, stack, row and column permutations and (square boxes,
    /// unless --symmetry no-transpose) transposition, by Burnside's lemma.
    #[arg(long, conflicts_with_all = ["print", "max", "cube"])]
    pub up_to_symmetry: bool,
    /// Print the method, variables, clauses by kind, search effort and times on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Output format: `text` (`solutions(S).`), `json` (a JSON object a line) or `mc`
    /// (the model counting competition's lines).
    #[arg(long, value_parser = named::<Output>(), default_value_t)]
    pub output: Output,
    /// Count one cube file written by `satsudoku cubes` (its puzzle and encoding are in it),
    /// and write its record beside it (`.cube` replaced by `.result`) once the count is complete.
    #[arg(long, value_name = "CUBEFILE", conflicts_with_all = ["files", "print", "max", "format"])]
    pub cube: Option<PathBuf>,
    /// A progress line on stderr (models, rate, elapsed) once a count has run a second:
    /// `auto` when stderr is a terminal.
    #[arg(long, value_enum, default_value_t)]
    pub progress: Progress,
    // The input and the encoding last: their help headings follow the
    // command's own options.
    #[command(flatten)]
    pub puzzles: PuzzlesArgs,
    #[command(flatten)]
    pub solve: SolveArgs,
}

#[derive(Debug, Args)]
pub struct CubesArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Split this many branch points deep (each cube fixes one option of each).
    #[arg(long, value_name = "D")]
    pub depth: Option<usize>,
    /// Split level by level into at least N cubes where the search allows [default: 64].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000).map(|n| n as usize))]
    pub count: Option<usize>,
    /// Count up to digit relabelling when the rules allow it (see `count --symmetry`).
    #[arg(long, value_parser = named::<SymmetryUse>(), default_value_t)]
    pub symmetry: SymmetryUse,
    /// Directory for the cube files and manifest.txt; created if needed, and
    /// it must not hold another split. (`--output DIR` is still read: the
    /// long name `--output` is the output format on the other commands.)
    #[arg(short = 'o', long = "out", alias = "output", value_name = "DIR")]
    pub output: PathBuf,
}

#[derive(Debug, Args)]
pub struct SumArgs {
    /// A directory written by `satsudoku cubes`, with the records `count --cube` wrote.
    pub dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct UniqueArgs {
    /// Puzzles judged at a time, one thread each [default: all cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_JOBS)))]
    pub jobs: Option<u16>,
    /// Stop each puzzle after SECS seconds: it is then `undecided` (exit 3).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Output format: `text` (tab-separated lines) or `json` (a JSON object a line).
    #[arg(long, value_parser = named_of(TEXT_OR_JSON), default_value_t)]
    pub output: Output,
    /// With several solutions, also print the two grids side by side under the line, the cells
    /// where they differ marked `*` (text output): `auto` when stdout is a terminal.
    #[arg(long, value_enum, default_value_t)]
    pub grids: Progress,
    /// Also draw the puzzle (one puzzle) as SVG in this file: givens, the
    /// solution, or the cells where two solutions differ.
    #[arg(long, value_name = "PICTURE.svg")]
    pub svg: Option<PathBuf>,
    /// A progress line on stderr for long work (puzzles done in a batch; a long search's phase):
    /// `auto` when stderr is a terminal.
    #[arg(long, value_enum, default_value_t)]
    pub progress: Progress,
    // The input and the encoding last: their help headings follow the
    // command's own options.
    #[command(flatten)]
    pub puzzles: PuzzlesArgs,
    #[command(flatten)]
    pub solve: SolveArgs,
}

/// What `minimal` and `rate` take: `unique`'s options without the picture.
#[derive(Debug, Args)]
pub struct QuestionArgs {
    /// Puzzles worked on at a time, one thread each [default: all cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_JOBS)))]
    pub jobs: Option<u16>,
    /// Stop each puzzle after SECS seconds: it is then `undecided` (exit 3).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Output format: `text` (tab-separated lines) or `json` (a JSON object a line).
    #[arg(long, value_parser = named_of(TEXT_OR_JSON), default_value_t)]
    pub output: Output,
    /// A progress line on stderr for long work (puzzles done in a batch; a long search's phase):
    /// `auto` when stderr is a terminal.
    #[arg(long, value_enum, default_value_t)]
    pub progress: Progress,
    // The input and the encoding last: their help headings follow the
    // command's own options.
    #[command(flatten)]
    pub puzzles: PuzzlesArgs,
    #[command(flatten)]
    pub solve: SolveArgs,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many puzzles to make.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=10_000_000).map(|n| n as usize))]
    pub count: usize,
    /// The random seed: the same seed, input and options give the same puzzles on every machine.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The symmetry of the givens.
    #[arg(long, value_parser = named::<Symmetry>(), default_value_t)]
    pub symmetry: Symmetry,
    /// Keep only puzzles whose `rate` level is one of these (comma-separated: easy, medium,
    /// hard, fiendish, extreme).
    #[arg(long, value_name = "LEVELS")]
    pub level: Option<String>,
    /// Keep only puzzles whose `rate` score is in this range, `LO..HI` (either end may be left out).
    #[arg(long, value_name = "LO..HI")]
    pub score: Option<String>,
    /// Keep only puzzles with at most this many givens.
    #[arg(long, value_name = "K")]
    pub max_givens: Option<usize>,
    /// Give up after this many tries per puzzle asked for (a try is one solution grid).
    #[arg(long, value_name = "T", default_value_t = 1000)]
    pub tries: u64,
    /// Worker threads [default: all cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_JOBS)))]
    pub jobs: Option<u16>,
    /// Output format: `auto` (the input's: a givens line, the `puzzle` format, an f-puzzles
    /// share link, a Takuzu grid), `givens`, `puzzle`, `fpuzzles` (JSON), `link`.
    #[arg(long, value_enum, default_value_t)]
    pub output: GenerateOutput,
    /// A progress line on stderr while a batch is made (puzzles made, elapsed): `auto` when
    /// stderr is a terminal.
    #[arg(long, value_enum, default_value_t)]
    pub progress: Progress,
    /// The layout and rules (any format, givens in it kept); none or `-` reads stdin.
    pub file: Option<PathBuf>,
    /// Input format; detected from the content when not given.
    #[arg(long, value_parser = named::<Format>())]
    pub format: Option<Format>,
    #[command(flatten)]
    pub shape: ShapeArgs,
}

#[derive(Debug, Args)]
pub struct FewestArgs {
    /// Also count the puzzles with exactly one solution for each number of givens (grids of
    /// at most 20 cells: every set of cells is looked at).
    #[arg(long)]
    pub counts: bool,
    /// Output format: `text` (facts: `fewest_givens(K).`, then `unique_puzzles(K,N).`) or `json`.
    #[arg(long, value_parser = named_of(TEXT_OR_JSON), default_value_t)]
    pub output: Output,
    #[command(flatten)]
    pub input: InputArgs,
}

/// How `generate` writes its puzzles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum GenerateOutput {
    /// The input's own format.
    #[default]
    Auto,
    /// One line of givens a puzzle (`.` for an open cell).
    Givens,
    /// The native `puzzle` format, the input's rules with the new givens.
    Puzzle,
    /// f-puzzles JSON, one object a line.
    Fpuzzles,
    /// f-puzzles share links, one a line (what `auto` writes for an f-puzzles input).
    Link,
}

#[derive(Debug, Args)]
pub struct CandidatesArgs {
    /// Also count, for each cell and digit, the solutions that put the digit there (this
    /// enumerates every solution once).
    #[arg(long)]
    pub counts: bool,
    /// With --counts, stop after N solutions: the counts are then lower bounds (exit 3).
    #[arg(long, value_name = "N", requires = "counts")]
    pub max: Option<u128>,
    /// Stop each puzzle after SECS seconds: what was found so far, the rest undecided (exit 3).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Puzzles worked on at a time, one thread each [default: all cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_JOBS)))]
    pub jobs: Option<u16>,
    /// Output format: `text` (the grid of candidates; with --counts, a line per open cell) or `json`.
    #[arg(long, value_parser = named_of(TEXT_OR_JSON), default_value_t)]
    pub output: Output,
    /// Also draw the puzzle (one puzzle) as SVG in this file: givens, and
    /// each open cell's candidates, shaded by how many it keeps.
    #[arg(long, value_name = "PICTURE.svg")]
    pub svg: Option<PathBuf>,
    /// A progress line on stderr for long work (puzzles done in a batch; a long search's phase):
    /// `auto` when stderr is a terminal.
    #[arg(long, value_enum, default_value_t)]
    pub progress: Progress,
    // The input and the encoding last: their help headings follow the
    // command's own options.
    #[command(flatten)]
    pub puzzles: PuzzlesArgs,
    #[command(flatten)]
    pub solve: SolveArgs,
}

/// When to show the progress line (or another addition for a person).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Progress {
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Output file, written atomically (a device or FIFO is written through);
    /// stdout when not given or `-`. (`--output FILE` is still read: the long
    /// name `--output` is the output format on the other commands.)
    #[arg(short = 'o', long = "out", alias = "output", value_name = "OUT.cnf")]
    pub output: Option<PathBuf>,
    /// Replace the output file even if it is read-only (as `cp -f` does).
    #[arg(short = 'f', long)]
    pub force: bool,
    /// How to declare the projection onto the puzzle's variables.
    #[arg(long, value_parser = named::<Dialect>(), default_value_t)]
    pub dialect: Dialect,
    /// The formulation to write: cnf (DIMACS), opb, exact-cover (Knuth's DLX
    /// format), mip or mps (the binary program), mip-int or mps-int (the
    /// integer program), asp (clingo), mzn (MiniZinc). A rule the formulation
    /// cannot express is refused by name.
    #[arg(long = "as", value_name = "FORMULATION", value_parser = named::<Formulation>(), default_value_t)]
    pub formulation: Formulation,
}

#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// The puzzle file the CNF was exported from.
    pub puzzle: PathBuf,
    /// The solver's output: minisat's result file or competition `s`/`v` lines; `-` reads stdin.
    pub model: PathBuf,
    /// Input format of the puzzle; detected when not given.
    #[arg(long, value_parser = named::<Format>())]
    pub format: Option<Format>,
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// The encoding options the CNF was exported with (they fix the numbering).
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// The formulation the puzzle was exported as (`export --as`): the answer
    /// is then clingo's, a MIP solution file, MiniZinc's grid, a DLX
    /// solution or a PB solver's `v` lines.
    #[arg(long = "as", value_name = "FORMULATION", value_parser = named::<Formulation>(), default_value_t)]
    pub formulation: Formulation,
}

/// What `compare --format` names: an input format, or (its meaning
/// before) an output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareFormat {
    Input(Format),
    Output(TableFormat),
}

/// An input format's name, or an output format's.
fn parse_compare_format(text: &str) -> Result<CompareFormat, String> {
    if let Some(format) = Format::from_name(text) {
        return Ok(CompareFormat::Input(format));
    }
    TableFormat::from_name(text)
        .map(CompareFormat::Output)
        .ok_or_else(|| format!("expected an input format ({}), found {text:?}", Format::names()))
}

/// The longest `--timeout`: about 31 years, far past any count one would
/// wait for, and small enough that a deadline never overflows the clock.
pub const MAX_TIMEOUT_SECS: f64 = 1e9;

/// Seconds as a decimal number from 0 to [`MAX_TIMEOUT_SECS`].
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text.trim().parse().map_err(|_| format!("expected seconds (such as 30 or 2.5), found {text:?}"))?;
    if !(0.0..=MAX_TIMEOUT_SECS).contains(&secs) {
        return Err(format!(
            "expected seconds from 0 to {MAX_TIMEOUT_SECS:e} (about 31 years; leave the option out for no limit), found {text:?}"
        ));
    }
    Duration::try_from_secs_f64(secs)
        .map_err(|_| format!("expected seconds from 0 to {MAX_TIMEOUT_SECS:e}, found {text:?}"))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Puzzle files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Encodings, comma-separated, each named as for `--encoding`; `all` is the
    /// default, each variation of one option from it, and order and log digits.
    /// With --solvers, the CNF solvers' encoding (the first listed; default:
    /// the default encoding).
    #[arg(long, value_name = "LIST|all")]
    pub encodings: Option<EncodingList>,
    /// Run these solvers instead of measuring encodings: a comma-separated list
    /// of minisat, cadical, kissat, picosat, cryptominisat, ganak,
    /// sharpsat-td, d4, clingo, clasp, cbc, glpk, highs, scip, minizinc (or
    /// minizinc:SOLVER, one of `minizinc --solvers`), cp-sat, satsudoku,
    /// satsudoku-enum, -grid, -dlx, -blocking; or all. Each runs on the
    /// formulation it reads; its answer is checked against satsudoku's count
    /// (a disagreement exits 1); one not installed is skipped with a line.
    #[arg(long, value_name = "LIST|all")]
    pub solvers: Option<String>,
    /// With --solvers: two of them, `A,B`, whose per-puzzle times
    /// --scatter-svg draws against each other.
    #[arg(long, value_name = "A,B", requires = "scatter_svg")]
    pub scatter: Option<String>,
    /// The per-puzzle scatter of the two --scatter solvers, as SVG.
    #[arg(long, value_name = "SCATTER.svg", requires = "scatter")]
    pub scatter_svg: Option<PathBuf>,
    /// Runs of each measurement; times are medians.
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Input format of the puzzles; detected from the content when not given. (An output
    /// format here, `table`, `csv`, `json` or `markdown`, is read as `--output`, with a note:
    /// it was this flag's meaning before.)
    #[arg(long, value_name = "FORMAT", value_parser = parse_compare_format)]
    pub format: Option<CompareFormat>,
    /// The input format's former spelling (`--format` now), still read, with a note.
    #[arg(long, hide = true, value_parser = named::<Format>(), conflicts_with = "format")]
    pub input_format: Option<Format>,
    /// Output format of the comparison.
    #[arg(long, value_parser = named::<TableFormat>())]
    pub output: Option<TableFormat>,
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// Counting engine for the times.
    #[arg(long, value_parser = named::<EngineKind>(), default_value_t)]
    pub engine: EngineKind,
    /// Stop each count after SECS seconds; such counts are lower bounds (shown as `>=N`).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Also draw count time and clauses per encoding as a bar chart in this
    /// SVG file (a file: the table goes to stdout).
    #[arg(long, value_name = "CHART.svg")]
    pub svg: Option<PathBuf>,
    /// Replace the SVG file even if it is read-only (as `cp -f` does).
    #[arg(short = 'f', long)]
    pub force: bool,
}
