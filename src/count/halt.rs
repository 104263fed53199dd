//! Where an engine's steps stop before its cube is done: the stop flag a
//! count shares, a deadline, a number of decisions; the enum and grid
//! engines look at them every few decisions and leave the search where
//! it was, so that the next step goes on from there.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The limits an engine's steps look at, and whether the last step
/// stopped at one of them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Halt<'a> {
    pub(crate) stop: Option<&'a AtomicBool>,
    pub(crate) deadline: Option<Instant>,
    /// Decisions in all, counted from the engine's start.
    pub(crate) budget: Option<u64>,
    /// The last step returned `None` because a limit was reached, not
    /// because the search was done.
    pub(crate) halted: bool,
}

impl Halt<'_> {
    /// Whether a limit is reached after `decisions` decisions.
    pub(crate) fn due(&self, decisions: u64) -> bool {
        self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
            || self.budget.is_some_and(|budget| decisions >= budget)
            || self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
    }
}
