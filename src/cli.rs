//! The command line, as clap derive types; the doc comments are the help text.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::count::EngineKind;
use crate::dimacs::Dialect;
use crate::encode::amo::AmoEncoding;
use crate::encode::relation::RelationEncoding;
use crate::encode::{ClauseSet, Encoding};
use crate::parse::Format;

/// Count the solutions of Sudoku-family puzzles exactly with a SAT solver.
#[derive(Debug, Parser)]
#[command(name = "satsudoku", version, help_expected = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the solutions and print `solutions(S).` on stdout.
    Count(CountArgs),
    /// Write the puzzle's CNF in DIMACS, with its projection.
    Export(ExportArgs),
    /// Read a SAT solver's model of an exported CNF and print the grid.
    Decode(DecodeArgs),
}

#[derive(Debug, Args)]
pub struct InputArgs {
    /// Puzzle file; `-` or none reads stdin.
    pub file: Option<PathBuf>,
    /// Input format; detected from the content when not given.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
}

#[derive(Debug, Clone, Copy, Args)]
pub struct EncodingArgs {
    /// Which one-hot constraints to emit.
    #[arg(long, value_enum, default_value_t)]
    pub clause_set: ClauseSet,
    /// At-most-one encoding for cells and groups.
    #[arg(long, value_enum, default_value_t)]
    pub amo: AmoEncoding,
    /// How each sum relation becomes clauses.
    #[arg(long, value_enum, default_value_t)]
    pub relation: RelationEncoding,
}

impl EncodingArgs {
    pub fn encoding(&self) -> Encoding {
        Encoding { clause_set: self.clause_set, amo: self.amo, relation: self.relation }
    }
}

#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Counting engine.
    #[arg(long, value_enum, default_value_t)]
    pub engine: EngineKind,
    /// Stop after N solutions; if more exist, the count is a lower bound (exit 3).
    #[arg(long, value_name = "N")]
    pub max: Option<u128>,
    /// Stop after SECS seconds (checked between solutions); the count is then a lower bound (exit 3).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Print every solution as `solution(K,Row,[...]).` facts before the count.
    #[arg(long)]
    pub print: bool,
    /// Print variables, clauses by kind, SAT calls and times on stderr.
    #[arg(long)]
    pub stats: bool,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Output file, written atomically; stdout when not given.
    #[arg(short, long, value_name = "OUT.cnf")]
    pub output: Option<PathBuf>,
    /// How to declare the projection onto the puzzle's variables.
    #[arg(long, value_enum, default_value_t)]
    pub dialect: Dialect,
}

#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// The puzzle file the CNF was exported from.
    pub puzzle: PathBuf,
    /// The solver's output: minisat's result file or competition `s`/`v` lines; `-` reads stdin.
    pub model: PathBuf,
    /// Input format of the puzzle; detected when not given.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
}

/// Seconds as a non-negative decimal number.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text.parse().map_err(|_| format!("expected seconds, found {text:?}"))?;
    Duration::try_from_secs_f64(secs).map_err(|_| format!("expected seconds >= 0, found {text:?}"))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
