//! The `satsudoku` binary: parse arguments, run, map the result to an exit
//! status. Everything else is library code (`satsudoku::*`); `cli` and
//! `app` are this binary's own modules, not library API.

mod app;
mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use cli::Cli;

/// The system's allocator, counting the bytes live against `--memory`.
#[global_allocator]
static ALLOCATOR: satsudoku::memory::Tracking = satsudoku::memory::Tracking;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // `--help`, `--version` (exit 0) or a usage error (exit 2). If the
        // text cannot be written (`--help > /dev/full`), exit 1.
        Err(err) => {
            return match err.print() {
                Ok(()) if err.use_stderr() => ExitCode::from(2),
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::from(1),
            }
        }
    };
    satsudoku::memory::set_limit(cli.memory.unwrap_or_else(satsudoku::memory::default_limit));
    match app::run(&cli) {
        Ok(status) => ExitCode::from(status.exit_code()),
        Err(err) if err.is_broken_pipe() => ExitCode::SUCCESS,
        Err(err) => {
            let code = err.exit_code();
            // `{:#}` puts the causes on one line; a failed write to stderr
            // cannot be reported anywhere, and must not panic.
            let _ = writeln!(std::io::stderr(), "error: {:#}", anyhow::Error::new(err));
            ExitCode::from(code)
        }
    }
}
