//! The progress line a long count shows on stderr.

use std::io::Write;
use std::time::Duration;

/// `models, rate, elapsed` on stderr, rewritten in place at most four times a
/// second once a count has run for a second; never on stdout.
pub struct ProgressLine {
    enabled: bool,
    /// When the line was last written, as time since the count started.
    last: Option<Duration>,
}

impl ProgressLine {
    pub fn new(enabled: bool) -> ProgressLine {
        ProgressLine { enabled, last: None }
    }

    /// Whether the line is shown at all.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Shows `models`, the count as it would be printed now (the counting
    /// plan scales it by the symmetry), if the line is due.
    pub fn update(&mut self, models: u128, elapsed: Duration) {
        if !self.enabled {
            return;
        }
        let due = self.last.map_or(elapsed.as_secs_f64() >= 1.0, |last| (elapsed - last).as_secs_f64() >= 0.25);
        if due {
            let rate = models as f64 / elapsed.as_secs_f64();
            let secs = elapsed.as_secs_f64();
            let _ = write!(std::io::stderr(), "\r\x1b[Ksatsudoku: {models} models, {rate:.0}/s, {secs:.1} s");
            self.last = Some(elapsed);
        }
    }

    pub fn clear(&mut self) {
        if self.last.is_some() {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}
