//! A batch of files counted on several threads, one file per thread at a
//! time: for many short counts this beats splitting each count. The files
//! wait in the same [`Pool`] a count's cubes wait in.

use std::io::{self, Write};

use satsudoku::count::pool::Pool;
use satsudoku::count::Search;

use super::count::{count_file, Outcome, Settings, Sinks, INTERRUPTED};
use super::AppError;

/// Counts `settings.puzzles.sources` on `threads` threads. Output is gathered per
/// file and written in the order of the files; there is no progress line.
/// After an interrupt no new file is started, and the output stops before
/// the first file that was not: the outcomes cover a prefix of the files.
pub fn count_in_parallel(settings: &Settings, threads: usize) -> Result<Vec<Outcome>, AppError> {
    let search = Search::from(settings.puzzles.engine);
    let files = &settings.puzzles.sources;
    let pool = Pool::new((0..files.len()).collect());
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for started in 0..threads {
            let (sender, pool) = (sender.clone(), &pool);
            let worker = move || {
                let mut finished = false;
                while let Some(index) = pool.take(finished, &INTERRUPTED) {
                    finished = true;
                    let mut sinks = Sinks { out: Vec::new(), diag: Vec::new(), show_progress: false };
                    let outcome = count_file(&files[index], search, settings, &mut sinks);
                    if sender.send((index, outcome, sinks.out, sinks.diag)).is_err() {
                        break;
                    }
                }
            };
            // The system may refuse a thread: go on with those started.
            if let Err(err) = std::thread::Builder::new().spawn_scoped(scope, worker) {
                if started == 0 {
                    return Err(AppError::Other(anyhow::anyhow!("cannot start a worker thread: {err}")));
                }
                break;
            }
        }
        drop(sender);
        // Writes each file's output once every file before it is written.
        let mut waiting = std::collections::BTreeMap::new();
        let mut outcomes = Vec::new();
        let mut stdout = io::stdout().lock();
        for (index, outcome, out, diag) in receiver {
            waiting.insert(index, (outcome, out, diag));
            while let Some((outcome, out, diag)) = waiting.remove(&outcomes.len()) {
                let written = stdout.write_all(&out).and_then(|()| stdout.flush());
                let _ = io::stderr().write_all(&diag);
                let outcome = match written {
                    Err(err) => Outcome::Failed(AppError::write("stdout")(err)),
                    Ok(()) => outcome,
                };
                outcome.announce(true);
                outcomes.push(outcome);
            }
        }
        Ok(outcomes)
    })
}
