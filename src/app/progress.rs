//! The progress line long work shows on stderr: a count's models, a
//! phase of a method that finds none as it goes, a batch's puzzles done;
//! one line, rewritten in place.

use std::io::Write;
use std::time::Duration;

/// `models, rate, elapsed` on stderr, through [`line`] (rewritten in place
/// at most four times a second) once a count has run a second; never on
/// stdout.
pub struct ProgressLine {
    enabled: bool,
}

impl ProgressLine {
    pub fn new(enabled: bool) -> ProgressLine {
        ProgressLine { enabled }
    }

    /// Whether the line is shown at all.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Shows `models`, the count as it would be printed now (the counting
    /// plan scales it by the symmetry), if the line is due.
    pub fn update(&mut self, models: u128, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        if self.enabled && secs >= 1.0 {
            line(&format!("{models} models, {:.0}/s, {secs:.1} s", models as f64 / secs));
        }
    }

    pub fn clear(&mut self) {
        clear_phases();
    }
}

/// Whether [`report`] shows anything (set once a command has resolved
/// `--progress` against stderr).
static PHASES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
/// When a phase line was last written, in ms since [`STARTED`] (0: never).
static LAST: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// Turns the phase lines of [`report`] on or off.
pub fn show_phases(on: bool) {
    STARTED.get_or_init(std::time::Instant::now);
    PHASES.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// The plan's [`satsudoku::count::plan::Plan::report`]: what a long phase
/// is doing, on stderr, rewritten in place at most four times a second
/// once the phase has run a second (bands, Burnside, Takuzu rows, varisat).
pub fn report(phase: &satsudoku::count::plan::Phase) {
    if phase.elapsed.as_secs_f64() < 1.0 {
        return;
    }
    let what = match phase.done {
        Some((name, done)) => format!("{}: {done} {name}", phase.method),
        None => format!("{}: working", phase.method),
    };
    line(&format!("{what}, {:.1} s", phase.elapsed.as_secs_f64()));
}

/// `text` as the progress line, if shown and due.
pub fn line(text: &str) {
    use std::sync::atomic::Ordering;
    if !PHASES.load(Ordering::Relaxed) {
        return;
    }
    let now = STARTED.get_or_init(std::time::Instant::now).elapsed().as_millis() as u64 + 1;
    let last = LAST.load(Ordering::Relaxed);
    if last != 0 && now < last + 250 {
        return;
    }
    if LAST.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
        let _ = write!(std::io::stderr(), "\r\x1b[Ksatsudoku: {text}");
    }
}

/// Clears the phase line if one was written.
pub fn clear_phases() {
    if LAST.swap(0, std::sync::atomic::Ordering::Relaxed) != 0 {
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
}

/// A batch's progress: `done` of `total` puzzles `what` (judged, rated).
pub fn batch(done: usize, total: usize, what: &str, elapsed: Duration) {
    if total > 1 && elapsed.as_secs_f64() >= 1.0 {
        line(&format!("{done} of {total} puzzles {what}, {:.1} s", elapsed.as_secs_f64()));
    }
}

/// `--progress` resolved against stderr, and the phase lines set to match.
pub fn resolve(progress: crate::cli::Progress) -> bool {
    use std::io::IsTerminal as _;
    let on = match progress {
        crate::cli::Progress::Always => true,
        crate::cli::Progress::Never => false,
        crate::cli::Progress::Auto => std::io::stderr().is_terminal(),
    };
    show_phases(on);
    on
}
