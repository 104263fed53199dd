//! How much memory satsudoku may use, and what it needs.
//!
//! One limit holds for the whole process (`--memory`, by default three
//! quarters of the machine's memory). Two things enforce it:
//!
//! - estimates, checked before the work they are of: the encoding of a
//!   puzzle and the engine that searches it ([`crate::encode::estimate`]),
//!   the states of a Takuzu counted by rows (`count::takuzu`). One
//!   that does not fit is refused with the estimate and the limit, as a
//!   [`TooLarge`] error (exit 2), before anything is built;
//! - [`Tracking`], the binary's global allocator, which counts the bytes
//!   live and ends the process with a message (exit 2, never an abort) on an
//!   allocation past the limit or one the system refuses: the backstop for
//!   whatever an estimate missed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes allocated and not yet freed (counted by [`Tracking`]).
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The limit; `usize::MAX` until one is set.
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Sets the process's memory limit in bytes.
pub fn set_limit(bytes: usize) {
    LIMIT.store(bytes, Ordering::Relaxed);
}

/// The process's memory limit in bytes (`usize::MAX`: none).
pub fn limit() -> usize {
    LIMIT.load(Ordering::Relaxed)
}

/// Bytes live now, as [`Tracking`] counts them (0 where it is not the
/// global allocator, as in the library's own tests).
pub fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Bytes that may still be allocated under the limit.
pub fn room() -> usize {
    limit().saturating_sub(live())
}

/// An estimate past the limit: what it is of, what it needs, and the limit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{what} would need about {} of memory, more than the {} left under the limit of {} \
     (raise it with --memory, e.g. --memory {})",
    human(*.needs),
    human(*.room),
    human(*.limit),
    suggestion(*.needs + (*.limit - *.room))
)]
pub struct TooLarge {
    /// What the estimate is of.
    pub what: String,
    /// The estimate, in bytes.
    pub needs: usize,
    /// The bytes left under the limit when it was checked.
    pub room: usize,
    /// The limit, in bytes.
    pub limit: usize,
}

/// Whether `needs` bytes for `what` fit in the room left under the limit.
pub fn check(what: impl FnOnce() -> String, needs: usize) -> Result<(), TooLarge> {
    check_in(room(), what, needs)
}

/// [`check`] against `room` bytes, the room taken before the work began,
/// so that the answer does not depend on what other threads have
/// allocated since.
pub fn check_in(room: usize, what: impl FnOnce() -> String, needs: usize) -> Result<(), TooLarge> {
    if needs <= room {
        return Ok(());
    }
    Err(TooLarge { what: what(), needs, room, limit: limit() })
}

/// The default limit: three quarters of the machine's memory (from
/// `/proc/meminfo`), or 8 GiB where that cannot be read.
pub fn default_limit() -> usize {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        kib.checked_mul(1024)
    });
    total.map_or(8 << 30, |bytes| bytes / 4 * 3)
}

/// The smallest limit `--memory` takes: room for the program itself
/// (about 10 MiB at start) and a small puzzle.
pub const MIN_LIMIT: usize = 32 << 20;

/// A size as people write it: a number of bytes, or with a unit `K`, `M`,
/// `G` or `T` (powers of 1024; `KiB`, `MB` and lower case read the same).
pub fn parse_size(text: &str) -> Result<usize, String> {
    let bad = || format!("expected a size such as 512M, 8G or 20GiB, found {text:?}");
    let trimmed = text.trim();
    let split = trimmed.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let number: f64 = number.parse().map_err(|_| bad())?;
    let shift = match unit.trim().to_ascii_lowercase().trim_end_matches("ib").trim_end_matches('b') {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(bad()),
    };
    let bytes = number * 2f64.powi(shift);
    if !(bytes >= MIN_LIMIT as f64 && bytes < usize::MAX as f64) {
        return Err(format!("expected a size from 32M up (the program itself needs a few MiB), found {text:?}"));
    }
    Ok(bytes as usize)
}

/// `bytes` in the largest binary unit that leaves at least 1 (`3.2 GiB`).
pub fn human(bytes: usize) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A `--memory` value of at least `bytes`, rounded up to whole GiB.
fn suggestion(bytes: usize) -> String {
    format!("{}G", bytes.div_ceil(1 << 30).max(1))
}

/// The global allocator of the binary: the system's, counting the bytes
/// live so that the limit holds. An allocation past the limit, or one the
/// system refuses, ends the process with a message on stderr and exit
/// status 2 instead of an abort. (The message is written without
/// allocating, and the process ends without running destructors, which
/// might allocate or wait for a lock the failing thread holds.)
pub struct Tracking;

// SAFETY: every method forwards to `System` with the same arguments; the
// counting only reads and writes atomics.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        reserve(layout.size());
        granted(System.alloc(layout), layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        reserve(layout.size());
        granted(System.alloc_zeroed(layout), layout.size())
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        System.dealloc(pointer, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            reserve(new_size - layout.size());
        }
        let moved = granted(System.realloc(pointer, layout, new_size), new_size);
        if new_size < layout.size() {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        moved
    }
}

/// `pointer`, or the end of the process if the system refused `size` bytes.
fn granted(pointer: *mut u8, size: usize) -> *mut u8 {
    if pointer.is_null() {
        refused(size);
    }
    pointer
}

/// Counts `size` more bytes live, or ends the process if that passes the limit.
fn reserve(size: usize) {
    let before = LIVE.fetch_add(size, Ordering::Relaxed);
    let limit = LIMIT.load(Ordering::Relaxed);
    if before.saturating_add(size) > limit {
        over_limit(before, size, limit);
    }
}

#[cold]
fn over_limit(live: usize, size: usize, limit: usize) -> ! {
    let mut message = Message::default();
    message.push("error: out of memory: the limit is ");
    message.size(limit);
    message.push(", and ");
    message.size(live);
    message.push(" were in use when ");
    message.size(size);
    message.push(" more were asked for; raise the limit with --memory (e.g. --memory ");
    message.number(live.saturating_add(size).div_ceil(1 << 30) * 2);
    message.push("G), or count a smaller puzzle or part\n");
    message.exit()
}

#[cold]
fn refused(size: usize) -> ! {
    let mut message = Message::default();
    message.push("error: out of memory: the system refused ");
    message.size(size);
    message.push(" with ");
    message.size(live());
    message
        .push(" in use; give a lower --memory limit so that the count is refused before it starts, or free memory\n");
    message.exit()
}

/// A message built in a fixed buffer, without allocating.
struct Message {
    bytes: [u8; 512],
    len: usize,
}

impl Default for Message {
    fn default() -> Message {
        Message { bytes: [0; 512], len: 0 }
    }
}

impl Message {
    fn push(&mut self, text: &str) {
        text.bytes().for_each(|b| self.byte(b));
    }

    fn byte(&mut self, b: u8) {
        if self.len < self.bytes.len() {
            self.bytes[self.len] = b;
            self.len += 1;
        }
    }

    fn number(&mut self, mut value: usize) {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (value % 10) as u8;
            value /= 10;
            if value == 0 {
                break;
            }
        }
        digits[i..].iter().for_each(|&d| self.byte(d));
    }

    /// `bytes` in MiB, rounded up.
    fn size(&mut self, bytes: usize) {
        self.number(bytes.div_ceil(1 << 20));
        self.push(" MiB");
    }

    fn exit(&self) -> ! {
        let mut written = 0;
        while written < self.len {
            // SAFETY: the pointer and length name initialised bytes of `self.bytes`.
            let n = unsafe { libc::write(2, self.bytes[written..].as_ptr().cast(), self.len - written) };
            if n <= 0 {
                break;
            }
            written += n as usize;
        }
        // SAFETY: `_exit` ends the process at once; nothing runs after it.
        unsafe { libc::_exit(2) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("8GiB"), Ok(8 << 30));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("2T"), Ok(2 << 40));
        assert_eq!(parse_size("33554432"), Ok(32 << 20));
        for bad in ["", "G", "8X", "-1G", "100", "1M", "31M", "1e99G", "nanG"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_refusal_names_the_estimate_and_the_way_out() {
        let err = TooLarge { what: "the encoding".into(), needs: 3 << 30, room: 1 << 30, limit: 2 << 30 };
        let text = err.to_string();
        assert!(text.starts_with("the encoding would need about 3.0 GiB"), "{text}");
        assert!(text.contains("limit of 2.0 GiB") && text.contains("--memory 4G"), "{text}");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(12), "12 bytes");
    }
}
