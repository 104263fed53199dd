//! Many puzzles at a time (a batch of files, a collection's lines): worker
//! threads take the puzzles in turn, one thread a puzzle, each with its own
//! [`Counter`], so that consecutive puzzles of one layout share a prepared
//! engine; the results come back in the order of the puzzles. One job
//! runs on the calling thread, with no channel between the puzzles.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::plan::{Counter, Plan};
use super::pool::Pool;
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
    let pool = Pool::new((0..items).collect());
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for started in 0..jobs.clamp(1, items.max(1)) {
            let (sender, pool, work) = (sender.clone(), &pool, &work);
            let worker = move || {
                let mut counter = Counter::new(plan);
                let mut finished = false;
                while let Some(index) = pool.take(finished, stop) {
                    finished = true;
                    if sender.send((index, work(&mut counter, index))).is_err() {
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
        for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                report(next, result)?;
                next += 1;
            }
        }
        Ok(())
    })
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
}
