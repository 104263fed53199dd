//! `--output mc`: the model counting competition's answer lines, so that
//! scripts written for model counters read satsudoku's counts too. The
//! 2020 format's `s mc N` is the solution line; the 2021-2025 formats'
//! `c s type mc`, `c s log10-estimate X` and `c s exact arb int N` follow
//! it (comment lines to a 2020 reader). A count that is only a lower
//! bound is no answer: `s UNKNOWN`, with the bound in a `c o` comment.
//! Each puzzle's lines follow a `c o` line naming it.
//!
//! ## References
//! - Model Counting Competition 2020, "Competition Format", mccompetition.org/2020/mc_format.
//! - Model Counting Competition 2024/2025 format document (mccomp_format_24.pdf,
//!   mccomp_format_25.pdf): the `c s` solution lines.

use std::io::{self, Write};
use std::time::Duration;

use num_bigint::BigUint;

use super::{Item, Printer};
use crate::count::plan::{Candidates, Tally, Verdict};
use crate::model::Grid;

/// The model-counting printer.
pub(super) struct Mc;

/// `log10(count)` to nine decimals, `-inf` for 0.
pub(crate) fn log10(count: &BigUint) -> String {
    if count.bits() == 0 {
        return "-inf".to_owned();
    }
    // The top 64 bits carry all a double can; the rest is a power of two.
    let shift = count.bits().saturating_sub(64);
    let top = u64::try_from(count >> shift).unwrap_or(u64::MAX) as f64;
    format!("{:.9}", top.log10() + shift as f64 * std::f64::consts::LOG10_2)
}

impl Printer for Mc {
    fn solution(&mut self, _out: &mut dyn Write, _item: &Item, _index: u128, _grid: &Grid) -> io::Result<()> {
        Ok(()) // `--print` with `--output mc` is refused before counting
    }

    fn count(&mut self, out: &mut dyn Write, item: &Item, tally: &Tally) -> io::Result<()> {
        let at = item.line.map_or_else(String::new, |line| format!(":{line}"));
        writeln!(out, "c o satsudoku count {}{at} (method {})", item.source, tally.method.name())?;
        if !tally.is_exact() {
            writeln!(out, "c o lower bound {}", tally.count)?;
            return writeln!(out, "s UNKNOWN");
        }
        let count = &tally.count;
        writeln!(out, "s mc {count}")?;
        writeln!(out, "c s type mc")?;
        writeln!(out, "c s log10-estimate {}", log10(count))?;
        writeln!(out, "c s exact arb int {count}")
    }

    fn verdict(
        &mut self,
        _out: &mut dyn Write,
        _item: &Item,
        _verdict: &Verdict,
        _elapsed: Duration,
    ) -> io::Result<()> {
        Ok(()) // `unique` does not offer `--output mc`
    }

    fn candidates(
        &mut self,
        _out: &mut dyn Write,
        _item: &Item,
        _c: &Candidates,
        _elapsed: Duration,
    ) -> io::Result<()> {
        Ok(()) // `candidates` does not offer `--output mc`
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// log10 against values worked by hand: 1, 1000, the 9x9 grid count
    /// (6.670903752e21: 21.824184...), and 2^200 (200 log10 2 = 60.205999...).
    #[test]
    fn log10_is_right_past_doubles_too() {
        assert_eq!(log10(&BigUint::from(0u32)), "-inf");
        assert_eq!(log10(&BigUint::from(1u32)), "0.000000000");
        assert_eq!(log10(&BigUint::from(1000u32)), "3.000000000");
        let grids: BigUint = "6670903752021072936960".parse().unwrap();
        assert_eq!(&log10(&grids)[..9], "21.824184");
        assert_eq!(&log10(&(BigUint::from(1u32) << 200u32))[..9], "60.205999");
    }
}
