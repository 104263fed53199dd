//! How hard a puzzle is, measured by the propagation its solution needs
//! (Lynce & Ouaknine 2006: singles are unit propagation on a strong
//! encoding, and failed literals go further; Pelánek 2011: difficulty from
//! the constraint propagation a solution takes). The puzzle is solved the
//! way a person would, easiest step first:
//!
//! 1. singles: unit propagation on the direct encoding with the support
//!    clauses the enum engine derives (naked and hidden singles of every
//!    group, and what each rule's clauses propagate);
//! 2. when they stall, failed-literal probing at depth 1: every open
//!    candidate is assumed in turn, and those whose propagation ends in a
//!    conflict are ruled out; only the ones with the shortest refutation
//!    (the fewest literals the conflict rests on) are taken, then singles
//!    again;
//! 3. when depth 1 rules out nothing, depth 2 (probing under each probe);
//! 4. when that stalls too, a guess: the open cell with the fewest
//!    candidates is given its digit from the solution (a backdoor).
//!
//! On layouts made only of all-different groups, allowed digits and pairs
//! of different digits, the prober runs on bitboards
//! (`count::enumerate::singles`), and a depth-1 sweep gives up a probe
//! once its refutation can no longer be as small as the smallest found so
//! far (`Prober::probe_within`): the step is the same, found sooner. A
//! sweep also skips the solution's own digits, which cannot fail, and
//! probes first the candidates that failed with the smallest refutations
//! in the sweep before, so that the smallest is found early. Before any
//! probe, a sweep there looks for refutations of 3 literals, the smallest
//! there are (locked candidates and their kin, found on the bitboards
//! without probing: `Singles::refuted_in_three`); when there are some, they
//! are the step, and the sweep needs no probe.
//!
//! The score adds a cost for each step; see [`Rating::score`] and
//! docs/commands.md for the scale. Nothing depends on time or threads: a
//! puzzle rates the same on every run and machine.

use crate::count::enumerate::Prober;
use crate::model::{Cell, Grid, Puzzle};

/// One step past singles: candidates ruled out by probing, or a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// 1 or 2 for probing at that depth, 0 for a guess.
    pub depth: u8,
    /// The size of the refutations taken (all of one size), 0 for a guess.
    pub size: usize,
    /// Candidates ruled out (a guess: 1, the cell set).
    pub ruled_out: usize,
}

/// A puzzle's difficulty: the steps its solution took and what they cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The steps past singles, in order.
    pub steps: Vec<Step>,
    /// Open cells at the start.
    pub open: usize,
    /// Probes made (depth-2 probes count once, their inner probes too).
    pub probes: u64,
}

crate::named_enum! {
    /// How hard a puzzle is, by its score (bands fitted to HoDoKu's levels
    /// on classic puzzles: bench/results/rate-*.md).
    pub enum Level = Easy {
        /// Singles alone solve it (score 0).
        Easy = "easy",
        /// A few short refutations: locked candidates, pairs (score 1 to 9).
        Medium = "medium",
        /// Score 10 to 24: fish, wings, short chains.
        Hard = "hard",
        /// Score 25 to 49: many chains (HoDoKu's "unfair").
        Fiendish = "fiendish",
        /// Score 50 or more, or a step at depth 2 or a guess.
        Extreme = "extreme",
    }
}

impl Rating {
    /// The score: each step's cost added up. A depth-1 step of size `s`
    /// costs `s`, a depth-2 step `50 + s`, a guess 200; singles cost nothing.
    pub fn score(&self) -> u64 {
        self.steps.iter().map(|step| cost(*step)).sum()
    }

    /// The level its score and its hardest step fall in.
    pub fn level(&self) -> Level {
        if self.depth() >= 2 {
            return Level::Extreme;
        }
        match self.score() {
            0 => Level::Easy,
            1..=9 => Level::Medium,
            10..=24 => Level::Hard,
            25..=49 => Level::Fiendish,
            _ => Level::Extreme,
        }
    }

    /// The hardest step's depth: 0 for singles alone, 1 or 2 for
    /// probing, 3 for a guess.
    pub fn depth(&self) -> u8 {
        let guessed = self.steps.iter().any(|s| s.depth == 0);
        if guessed {
            3
        } else {
            self.steps.iter().map(|s| s.depth).max().unwrap_or(0)
        }
    }
}

fn cost(step: Step) -> u64 {
    match step.depth {
        0 => 200,
        1 => step.size as u64,
        _ => 50 + step.size as u64,
    }
}

/// Rates `puzzle`, whose one solution is `solution`, on `prober` (built for
/// its layout: [`Prober::new`] of the layout's default encoding); `None` if
/// the givens contradict the layout under propagation (they cannot, with a
/// solution) .
pub fn rate(prober: &mut Prober, puzzle: &Puzzle, solution: &Grid) -> Option<Rating> {
    if !prober.reset() {
        return None;
    }
    for (cell, digit) in puzzle.givens() {
        if !prober.assume(prober.literal(cell, digit)) {
            return None;
        }
    }
    let open = puzzle.cells().filter(|&cell| puzzle.given(cell).is_none()).count();
    let mut steps = Vec::new();
    let mut last = vec![u32::MAX; prober.codes()];
    while !prober.solved() {
        let step = probe_step(prober, solution, 1, &mut last).or_else(|| probe_step(prober, solution, 2, &mut last));
        let step = match step {
            Some((step, refuted)) => {
                for lit in refuted {
                    if !prober.assume(!lit) {
                        return None;
                    }
                }
                step
            }
            None => {
                let cell = guess_cell(prober, puzzle)?;
                if !prober.assume(prober.literal(cell, solution.get(cell))) {
                    return None;
                }
                Step { depth: 0, size: 0, ruled_out: 1 }
            }
        };
        steps.push(step);
    }
    Some(Rating { steps, open, probes: prober.probes })
}

/// Probes every open candidate at `depth`; the step of the shortest
/// refutations found, with the literals they refute.
///
/// `last` holds, by literal code, the size of each candidate's refutation
/// in the sweep before (`u32::MAX` where it held or was given up), and
/// gets this sweep's. Candidates are probed smallest first: one that
/// failed stays failed (propagation only grows), and a small refutation
/// found early cuts the probes after it short (`Prober::probe_within`).
/// The step does not depend on the order: every refutation as small as
/// the smallest is found whatever came before it, and a candidate skipped
/// as implied by a probe that held cannot fail.
fn probe_step(prober: &mut Prober, solution: &Grid, depth: u8, last: &mut [u32]) -> Option<(Step, Vec<varisat::Lit>)> {
    if depth == 1 {
        // The smallest refutations there are, when there are any, are
        // found on the bitboards without a probe.
        let three = prober.refuted_in_three().filter(|three| !three.is_empty());
        if let Some(three) = three {
            // The solution's own digits cannot fail.
            debug_assert!(prober
                .open()
                .iter()
                .all(|&(cell, digit, lit)| solution.get(cell) != digit || !three.contains(&lit)));
            return Some((Step { depth, size: 3, ruled_out: three.len() }, three));
        }
    }
    let mut best: Option<usize> = None;
    let mut refuted = Vec::new();
    // A candidate a probe that held made true cannot fail either: skipped.
    let mut implied = vec![false; prober.codes()];
    // The solution's own digits cannot fail: it satisfies every
    // assumption, and propagation never contradicts a model.
    let open = prober.open().into_iter().filter(|&(cell, digit, _)| solution.get(cell) != digit);
    let mut open: Vec<_> = open.map(|(_, _, lit)| lit).collect();
    open.sort_by_key(|lit| last[lit.code()]);
    for lit in open {
        if implied[lit.code()] {
            continue;
        }
        let size = if depth == 1 {
            prober.probe_within(lit, Some(&mut implied), best)
        } else {
            prober.probe2(lit, Some(&mut implied))
        };
        last[lit.code()] = size.map_or(u32::MAX, |s| s as u32);
        let Some(size) = size else { continue };
        match best {
            Some(b) if size > b => {}
            Some(b) if size == b => refuted.push(lit),
            _ => {
                best = Some(size);
                refuted.clear();
                refuted.push(lit);
            }
        }
    }
    let size = best?;
    Some((Step { depth, size, ruled_out: refuted.len() }, refuted))
}

/// The open cell with the fewest candidates, the first in reading order.
fn guess_cell(prober: &Prober, puzzle: &Puzzle) -> Option<Cell> {
    let open = puzzle.cells().filter(|&cell| prober.fixed(cell).is_none());
    open.min_by_key(|&cell| prober.open_in(cell))
}
