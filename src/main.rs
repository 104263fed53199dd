//! The `satsudoku` binary: parse arguments, run, map the result to an exit status.

use std::process::ExitCode;

use clap::Parser;
use satsudoku::app::{self, BadInput};
use satsudoku::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match app::run(&cli) {
        Ok(status) => ExitCode::from(status.exit_code()),
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(if err.is::<BadInput>() { 2 } else { 1 })
        }
    }
}

/// A closed stdout (`satsudoku ... | head`) is not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().filter_map(|e| e.downcast_ref::<std::io::Error>()).any(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}
