//! What each subcommand does, from parsed arguments to printed results: one
//! file per subcommand, each resolving its options once into a settings
//! struct. Results go to stdout; diagnostics go to stderr, and a failure to
//! write them never stops a run.

mod candidates;
mod cluster;
mod compare;
mod count;
mod decode;
mod error;
mod export;
mod fewest;
mod generate;
mod input;
mod minimal;
mod output;
mod progress;
mod study;
mod tasks;
mod unique;

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

pub use error::AppError;

use crate::cli::{Cli, Command};

/// How a successful run ended; each maps to an exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Done; exit 0.
    Done,
    /// The count is a lower bound (`--max`, `--timeout`, Ctrl-C); exit 3.
    LowerBound,
    /// The model given to `decode` is not a solution; exit 1.
    NotASolution,
    /// Some puzzle given to `unique` has no solution or several; exit 1.
    NotUnique,
}

impl Status {
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Done => 0,
            Status::NotASolution | Status::NotUnique => 1,
            Status::LowerBound => 3,
        }
    }
}

/// Runs one subcommand.
pub fn run(cli: &Cli) -> Result<Status, AppError> {
    match &cli.command {
        Command::Count(args) => match cluster::CubeSettings::resolve(args) {
            Some(cube) => cluster::count_cube(cube),
            None => count::run(count::Settings::resolve(args)?),
        },
        Command::Unique(args) => unique::run(unique::Settings::resolve(args)?),
        Command::Candidates(args) => candidates::run(candidates::Settings::resolve(args)?),
        Command::Minimal(args) => minimal::run(minimal::Settings::resolve(minimal::Question::Minimal, args)?),
        Command::Rate(args) => minimal::run(minimal::Settings::resolve(minimal::Question::Rate, args)?),
        Command::Generate(args) => generate::run(generate::Settings::resolve(args)?),
        Command::Fewest(args) => fewest::run(args),
        Command::Export(args) => export::run(export::Settings::resolve(args)?),
        Command::Decode(args) => decode::run(decode::Settings::resolve(args)?),
        Command::Compare(args) => compare::run(compare::Settings::resolve(args)?),
        Command::Cubes(args) => cluster::split(cluster::Settings::resolve(args)?),
        Command::Sum(args) => cluster::sum(cluster::SumSettings::resolve(args)),
    }
}

/// Set by Ctrl-C (SIGINT), SIGTERM (what `timeout`, Slurm and GNU parallel
/// send) or SIGHUP: the running count stops within milliseconds and reports
/// a lower bound.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes those signals set [`INTERRUPTED`] instead of ending the process.
/// A failure to install the handler only loses that nicety.
pub fn catch_interrupts() {
    if ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed)).is_err() {
        diag(format_args!("satsudoku: warning: cannot catch Ctrl-C or SIGTERM; an interrupted count prints nothing"));
    }
}

/// Whether the run was interrupted.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Writes a diagnostic line to stderr. A failed write is ignored: a closed
/// or full stderr must not end a count whose results go to stdout.
pub fn diag(args: fmt::Arguments) {
    progress::clear_phases();
    let _ = writeln!(std::io::stderr(), "{args}");
}

/// The givens' conflicts as one diagnostic: the first few, then how many
/// more (a line of givens read as the wrong grid has hundreds).
fn conflicts_listed(conflicts: &[String]) -> String {
    const SHOWN: usize = 5;
    let first = conflicts[..conflicts.len().min(SHOWN)].join("; ");
    match conflicts.len().saturating_sub(SHOWN) {
        0 => first,
        more => format!("{first}; and {more} more"),
    }
}

/// [`diag`] with `format!` arguments.
#[macro_export]
macro_rules! diag {
    ($($arg:tt)*) => {
        $crate::app::diag(format_args!($($arg)*))
    };
}
