//! Many puzzles at a time (a batch of files, a collection's lines): worker
//! threads take the puzzles in runs of consecutive ones, as many as take
//! about two milliseconds at the pace the worker has seen (one puzzle at a
//! time where each takes that long), each worker with its own [`Counter`],
//! so that consecutive puzzles of one layout share a prepared engine; the
//! results come back in the order of the puzzles. One job runs on the
//! calling thread, with no channel between the puzzles.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use super::plan::{Counter, Plan};
use super::CountError;

/// Does `work` for each of the items `0..items` on `jobs` threads, each
/// item on one thread with that thread's [`Counter`] (whose plan is `plan`
/// on one thread a puzzle); `report` sees each item's result in order, on
/// the calling thread. After the plan's interrupt flag is set the workers
/// take no more items, so `report` sees a first part of them. An error from
/// `report` stops the run and is returned.
pub fn for_each<T, E>(
    items: usize,
    jobs: usize,
    plan: &Plan,
    work: impl Fn(&mut Counter, usize) -> T + Sync,
    mut report: impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
    E: From<CountError>,
{
    let never = AtomicBool::new(false);
    let stop = plan.limits.interrupt.unwrap_or(&never);
    let plan = Plan { jobs: Some(1), ..*plan };
    if jobs <= 1 || items <= 1 {
        // A channel message a puzzle costs a thread wake-up: a quarter of
        // the time of a collection of quick puzzles on one thread.
        let mut counter = Counter::new(plan);
        for index in 0..items {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            report(index, work(&mut counter, index))?;
        }
        return Ok(());
    }
    let claims = Claims { next: AtomicUsize::new(0), items, jobs };
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for started in 0..jobs.min(items) {
            let (sender, claims, work) = (sender.clone(), &claims, &work);
            let worker = move || {
                let mut counter = Counter::new(plan);
                // Seconds an item, as this worker has found them so far.
                let mut pace = None;
                while let Some(range) = claims.take(pace) {
                    let start = Instant::now();
                    let mut done = Vec::with_capacity(range.len());
                    for index in range {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        done.push((index, work(&mut counter, index)));
                    }
                    if done.is_empty() {
                        return;
                    }
                    let each = start.elapsed().as_secs_f64() / done.len() as f64;
                    pace = Some(pace.map_or(each, |pace: f64| (pace + each) / 2.0));
                    if sender.send(done).is_err() {
                        return;
                    }
                }
            };
            // The system may refuse a thread: go on with those started.
            if let Err(err) = std::thread::Builder::new().spawn_scoped(scope, worker) {
                if started == 0 {
                    return Err(CountError::Threads(err).into());
                }
                break;
            }
        }
        drop(sender);
        let (mut waiting, mut next) = (BTreeMap::new(), 0);
        for done in receiver {
            waiting.extend(done);
            while let Some(result) = waiting.remove(&next) {
                report(next, result)?;
                next += 1;
            }
        }
        Ok(())
    })
}

/// How long a worker's run of items should take: long enough that the
/// message that carries their results, and the wake-up of the thread that
/// reports them, cost little beside it (with a message a puzzle, 10,000
/// quick puzzles took longer on two threads than on one), short enough
/// that the threads end together and results come back steadily.
const RUN: f64 = 0.002;

/// The most items a worker takes at once.
const MOST: usize = 1024;

/// The items not yet taken, handed out in runs: one item to a worker that
/// has not timed any yet, then as many as take it about [`RUN`] at its
/// pace, but never more than those left over twice the workers, so that
/// the last runs are short (as guided scheduling does).
struct Claims {
    next: AtomicUsize,
    items: usize,
    jobs: usize,
}

impl Claims {
    /// The next run of items for a worker whose items took `pace` seconds
    /// each (`None` before its first); `None` once every item is taken.
    fn take(&self, pace: Option<f64>) -> Option<std::ops::Range<usize>> {
        let wanted = pace.map_or(1, |pace| (RUN / pace.max(1e-9)).clamp(1.0, MOST as f64) as usize);
        let mut start = self.next.load(Ordering::Relaxed);
        loop {
            let left = self.items.checked_sub(start).filter(|&left| left > 0)?;
            let len = wanted.min(left.div_ceil(2 * self.jobs)).max(1);
            match self.next.compare_exchange_weak(start, start + len, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return Some(start..start + len),
                Err(now) => start = now,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Encoding;
    use crate::model::{Cell, Puzzle};

    /// Three 4x4 puzzles judged on two threads come back in order: the
    /// empty grid's 288 solutions (a known count), 12 with the first row
    /// fixed (288 / 4!), none with a clash.
    #[test]
    fn results_come_back_in_the_order_of_the_items() {
        let empty = Puzzle::sudoku(2, 2).unwrap();
        let mut row = empty.clone();
        for (c, d) in [(0, 1), (1, 2), (2, 3), (3, 4)] {
            row.set_given(Cell::new(0, c), d).unwrap();
        }
        let mut clash = empty.clone();
        clash.set_given(Cell::new(0, 0), 1).unwrap();
        clash.set_given(Cell::new(3, 0), 1).unwrap();
        let puzzles = [row, empty, clash];
        let plan = Plan::new(Encoding::default());
        let mut seen = Vec::new();
        let result: Result<(), CountError> = for_each(
            puzzles.len() * 3,
            2,
            &plan,
            |counter, i| counter.count(&puzzles[i % 3], &mut ()).map(|t| t.count.to_string()),
            |i, counted| {
                seen.push((i, counted?));
                Ok(())
            },
        );
        result.unwrap();
        let expected: Vec<(usize, String)> = (0..9).map(|i| (i, ["12", "288", "0"][i % 3].to_owned())).collect();
        assert_eq!(seen, expected);
    }

    /// Runs start at one item, grow with the pace to about [`RUN`] but
    /// never past a share of what is left, and cover the items once.
    #[test]
    fn runs_cover_the_items_once_and_shrink_at_the_end() {
        let claims = Claims { next: AtomicUsize::new(0), items: 10_000, jobs: 2 };
        assert_eq!(claims.take(None), Some(0..1));
        // 1 ms an item: two a run.
        assert_eq!(claims.take(Some(0.001)), Some(1..3));
        // A slow item: one at a time.
        assert_eq!(claims.take(Some(1.0)), Some(3..4));
        // Quick items: capped at the most a run takes.
        assert_eq!(claims.take(Some(1e-9)), Some(4..4 + MOST));
        let mut next = 4 + MOST;
        let mut lens = Vec::new();
        while let Some(run) = claims.take(Some(1e-9)) {
            assert_eq!(run.start, next);
            next = run.end;
            lens.push(run.len());
        }
        assert_eq!(next, 10_000);
        // The last runs are a quarter of what was left, down to one item.
        assert!(lens.windows(2).all(|w| w[0] >= w[1]));
        assert_eq!(lens.last(), Some(&1));
        assert_eq!(claims.take(None), None);
    }
}
