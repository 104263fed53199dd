//! The binary's one error type: what went wrong, and the exit status it
//! maps to (see the README's exit statuses).

use std::fmt;
use std::io;

use satsudoku::count::CountError;
use satsudoku::parse::ParseError;

impl From<satsudoku::memory::TooLarge> for AppError {
    /// Work refused before it was built (exit 2, as a count's).
    fn from(err: satsudoku::memory::TooLarge) -> AppError {
        AppError::Count(CountError::Memory(err))
    }
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// An input that cannot be used: exit 2.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A malformed input: exit 2.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Options that do not go together: exit 2.
    #[error("{0}")]
    Usage(String),
    /// Some inputs of a batch could not be used (each was reported in its
    /// turn): exit 2.
    #[error("{failed} of {total} files could not be {verb}")]
    Batch { failed: usize, total: usize, verb: &'static str },
    /// Some lines of a collection could not be parsed (each was reported in
    /// its turn, the others `verb`, counted or judged): exit 2.
    #[error("{failed} of {total} puzzles of the collection could not be {verb}")]
    Collection { failed: usize, total: usize, verb: &'static str },
    /// Writing a result failed: exit 1, or 0 for a closed pipe.
    #[error("cannot write to {what}")]
    Write {
        what: String,
        #[source]
        source: io::Error,
    },
    /// The count failed: exit 1, or 2 when it would not fit under the
    /// memory limit.
    #[error(transparent)]
    Count(#[from] CountError),
    /// Anything else: exit 1.
    #[error("{0:#}")]
    Other(anyhow::Error),
}

impl AppError {
    /// A failed write to `what` (a file name, or `stdout`).
    pub fn write(what: impl Into<String>) -> impl FnOnce(io::Error) -> AppError {
        let what = what.into();
        move |source| AppError::Write { what, source }
    }

    /// The exit status the README documents for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            AppError::Input(_)
            | AppError::Parse(_)
            | AppError::Usage(_)
            | AppError::Batch { .. }
            | AppError::Collection { .. }
            | AppError::Count(CountError::Memory(_) | CountError::Unsupported(_)) => 2,
            AppError::Write { source, .. } if source.kind() == io::ErrorKind::BrokenPipe => 0,
            AppError::Write { .. } | AppError::Count(_) | AppError::Other(_) => 1,
        }
    }

    /// A closed stdout (`satsudoku ... | head`) is not an error: nothing is printed.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, AppError::Write { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Why an input cannot be read.
#[derive(Debug)]
pub enum InputError {
    Read { name: String, source: io::Error },
    TooLarge { name: String, limit: u64 },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Read { name, source } => write!(f, "cannot read {name}: {source}"),
            InputError::TooLarge { name, limit } => {
                write!(f, "{name}: input larger than {} MiB, the most satsudoku reads", limit >> 20)
            }
        }
    }
}

impl std::error::Error for InputError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_failure_has_its_documented_exit_status() {
        let parse = ParseError { source_name: "x.lp".into(), line: 1, col: 2, message: "bad".into() };
        assert_eq!(AppError::from(parse).exit_code(), 2);
        assert_eq!(AppError::Usage("no".into()).exit_code(), 2);
        assert_eq!(AppError::Batch { failed: 1, total: 2, verb: "counted" }.exit_code(), 2);
        let full = AppError::write("stdout")(io::Error::from_raw_os_error(28));
        assert_eq!((full.exit_code(), full.is_broken_pipe()), (1, false));
        let pipe = AppError::write("stdout")(io::ErrorKind::BrokenPipe.into());
        assert_eq!((pipe.exit_code(), pipe.is_broken_pipe()), (0, true));
        assert_eq!(AppError::Other(anyhow::anyhow!("x")).exit_code(), 1);
    }
}
