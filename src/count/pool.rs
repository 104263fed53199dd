//! The work that waits for a worker thread: the cubes of a count (a
//! batch's puzzles are handed out by `count::many`). A worker takes one
//! item, does it, and takes the next;
//! when none is left but others are still busy, it waits, and says so
//! through [`Pool::wanted`]: an engine that can split its search (the enum
//! engine) then gives part of its cube back (see [`Pool::give`]). So the
//! threads stay busy to the end without splitting the count into many
//! cubes up front.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use super::Cube;

/// How long a waiting worker sleeps before it looks at the stop flag again.
const NAP: Duration = Duration::from_millis(1);

pub struct Pool {
    state: Mutex<State>,
    /// Signalled when cubes arrive or the last busy worker finishes.
    changed: Condvar,
    /// A worker is waiting for a cube.
    wanted: AtomicBool,
}

struct State {
    cubes: VecDeque<Cube>,
    /// Workers counting a cube they took.
    busy: usize,
}

impl Pool {
    pub fn new(cubes: Vec<Cube>) -> Pool {
        let state = State { cubes: cubes.into(), busy: 0 };
        Pool { state: Mutex::new(state), changed: Condvar::new(), wanted: AtomicBool::new(false) }
    }

    /// Whether a worker waits for a cube.
    pub fn wanted(&self) -> bool {
        self.wanted.load(Ordering::Relaxed)
    }

    /// Makes the engines give work as if a worker waited (for tests).
    #[cfg(test)]
    pub fn want(&self) {
        self.wanted.store(true, Ordering::Relaxed);
    }

    /// Adds cubes split off a busy worker's cube: together with what that
    /// worker keeps, they must cover its models exactly once.
    pub fn give(&self, cubes: impl IntoIterator<Item = Cube>) {
        let mut state = self.lock();
        state.cubes.extend(cubes);
        self.wanted.store(false, Ordering::Relaxed);
        self.changed.notify_all();
    }

    /// The next cube for a worker, which had `finished` the cube it took
    /// before (false on its first call). Waits while the pool is empty but
    /// other workers are busy, since they may give some; `None` once every
    /// cube is counted or `stop` is set.
    pub fn take(&self, finished: bool, stop: &AtomicBool) -> Option<Cube> {
        let mut state = self.lock();
        if finished {
            state.busy -= 1;
        }
        loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(cube) = state.cubes.pop_front() {
                state.busy += 1;
                return Some(cube);
            }
            if state.busy == 0 {
                self.changed.notify_all(); // the other waiters are done too
                return None;
            }
            self.wanted.store(true, Ordering::Relaxed);
            state = self.changed.wait_timeout(state, NAP).expect("no worker panics holding the pool").0;
        }
    }

    /// Takes out the cubes no worker took.
    pub fn take_left(&self) -> Vec<Cube> {
        self.lock().cubes.drain(..).collect()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().expect("no worker panics holding the pool")
    }
}

#[cfg(test)]
mod tests {
    use varisat::Lit;

    use super::*;

    fn cube(n: isize) -> Cube {
        vec![Lit::from_dimacs(n)]
    }

    /// A worker that finds the pool empty while another is busy waits, and
    /// asks; it gets what the busy one gives; then each finishes, and both
    /// learn that the count is done once the pool is empty and neither is busy.
    #[test]
    fn a_waiting_worker_gets_what_a_busy_one_gives() {
        let (pool, never) = (&Pool::new(vec![cube(1)]), &AtomicBool::new(false));
        assert_eq!(pool.take(false, never), Some(cube(1)));
        std::thread::scope(|scope| {
            let (sender, receiver) = std::sync::mpsc::channel();
            let waiter = scope.spawn(move || {
                sender.send(pool.take(false, never)).unwrap();
                pool.take(true, never)
            });
            while !pool.wanted() {
                std::thread::yield_now();
            }
            pool.give([cube(2)]);
            assert_eq!(receiver.recv().unwrap(), Some(cube(2)));
            assert_eq!(pool.take(true, never), None);
            assert_eq!(waiter.join().unwrap(), None);
        });
    }

    /// A waiting worker gives up when the count stops, and the cubes nobody
    /// took are left.
    #[test]
    fn a_stop_ends_the_wait_and_leaves_the_cubes() {
        let (pool, stop) = (Pool::new(vec![cube(1)]), AtomicBool::new(false));
        assert_eq!(pool.take(false, &stop), Some(cube(1)));
        std::thread::scope(|scope| {
            let waiter = scope.spawn(|| pool.take(false, &stop));
            while !pool.wanted() {
                std::thread::yield_now();
            }
            stop.store(true, Ordering::Relaxed);
            assert_eq!(waiter.join().unwrap(), None);
        });
        pool.give([cube(4)]);
        assert_eq!(pool.take(true, &stop), None);
        assert_eq!(pool.take_left(), vec![cube(4)]);
    }
}
