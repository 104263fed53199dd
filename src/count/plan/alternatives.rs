//! Alternatives settled before the search: ISS's `Or` (`either` in the
//! native format) propagates by running each alternative and keeping what
//! any of them allows. The same at the root, on the enum engine's
//! propagator: each alternative's selector is assumed in turn and
//! propagated. One that ends in a conflict holds on no solution and is
//! dropped; one left alone holds on every solution and becomes the
//! puzzle's own rules; and a digit that every alternative left rules out
//! of a cell is ruled out for good. Each of those keeps every solution
//! grid and admits no other (a grid of the narrowed puzzle satisfies the
//! alternative it kept), so counts do not change; the fixpoint is
//! repeated until nothing changes.
//!
//! Only the alternatives with selectors are settled so: an `Or` over few
//! cells is a table (`encode/constraint/either.rs`), already domain
//! consistent, with no selector to assume.
//!
//! A puzzle whose alternatives are all settled has none left, and the
//! plan counts it on the enum engine instead of varisat with blocking
//! clauses ([`super::Plan::engine_for`]); one with alternatives left is
//! still narrowed (a smaller formula for varisat).

use varisat::Lit;

use crate::count::enumerate::{Prober, Strength};
use crate::encode::{check_fits, encode, has_selectors, Encoding};
use crate::model::{Alternative, Constraint, Digit, Puzzle};

/// Rounds of the fixpoint at most: each makes a change, and a puzzle's
/// alternatives settle in a few.
const MAX_ROUNDS: usize = 32;

/// Probes at most, so that settling stays a small part of any count
/// ("City Planning" makes 66; a count of its probes, not a time, so
/// that a puzzle settles the same on every machine). What is settled
/// when they run out is kept.
const MAX_PROBES: usize = 4096;

/// What settling found.
#[derive(Clone, Debug)]
pub enum Settled {
    /// The puzzle with its alternatives narrowed: the same solutions.
    Narrowed(Puzzle),
    /// Propagation met a conflict at the root, with every step a
    /// consequence of the puzzle's rules: it has no solution.
    NoSolution,
}

/// `puzzle` with its alternatives narrowed as the module doc says, or
/// that it has no solution; `None` when it has no alternative or nothing
/// narrows.
pub fn settle(puzzle: &Puzzle) -> Option<Settled> {
    settle_within(puzzle, MAX_PROBES)
}

/// [`settle`] with at most `probes` probes (a block's alternatives are
/// probed all or none), keeping what is settled when they run out.
pub fn settle_within(puzzle: &Puzzle, mut probes: usize) -> Option<Settled> {
    let alternatives = puzzle.constraints().iter().filter(|c| has_selectors(c, puzzle.digits())).count();
    if alternatives == 0 {
        return None;
    }
    let encoding = Encoding::default();
    check_fits(puzzle, &encoding).ok()?;
    let encoded = encode(puzzle, &encoding);
    let choices = encoded.choices.clone();
    if choices.len() != alternatives {
        return None;
    }
    // Fresh from the formula: nothing assumed yet (no reset needed).
    let mut prober = Prober::once(&encoded, Strength::AsEncoded)?;
    if prober.contradicted() {
        return Some(Settled::NoSolution);
    }
    let mut narrowed = false;
    for _ in 0..MAX_ROUNDS {
        let Some(changed) = round(&mut prober, &choices, &mut probes) else { return Some(Settled::NoSolution) };
        narrowed |= changed;
        if !changed || probes == 0 {
            break;
        }
    }
    if !narrowed {
        return None;
    }
    rebuild(puzzle, &choices, &mut prober).map(Settled::Narrowed)
}

/// One pass over the alternatives, as many as `probes` allows (each
/// block's selectors taken from it); whether it changed anything, `None` on
/// a contradiction (every literal assumed at the root follows from the
/// rules, so the puzzle has no solution).
fn round(prober: &mut Prober, choices: &[Vec<Lit>], probes: &mut usize) -> Option<bool> {
    let mut changed = false;
    for selectors in choices {
        if selectors.iter().any(|&s| prober.value(s) == Some(true)) {
            continue;
        }
        // A block is probed whole or not at all: its common consequences
        // need every alternative's.
        if *probes < selectors.len() {
            *probes = 0;
            break;
        }
        *probes -= selectors.len();
        let open: Vec<Lit> = prober.open().into_iter().map(|(_, _, lit)| lit).collect();
        // Per open candidate, whether every alternative that held so far
        // ruled it out.
        let mut out_in_all: Option<Vec<bool>> = None;
        for &selector in selectors {
            if prober.value(selector) == Some(false) {
                continue;
            }
            let held = prober.decide(selector);
            let out: Vec<bool> = open.iter().map(|&lit| held && prober.value(lit) == Some(false)).collect();
            prober.backtrack();
            if !held {
                // This alternative holds on no solution.
                if !prober.assume(!selector) {
                    return None;
                }
                changed = true;
                continue;
            }
            out_in_all = Some(match out_in_all {
                None => out,
                Some(all) => all.iter().zip(&out).map(|(&a, &b)| a && b).collect(),
            });
        }
        // No alternative left holding: the puzzle has no solution.
        let out_in_all = out_in_all?;
        for (&lit, _) in open.iter().zip(&out_in_all).filter(|&(_, &out)| out) {
            if prober.value(lit).is_none() {
                if !prober.assume(!lit) {
                    return None;
                }
                changed = true;
            }
        }
    }
    Some(changed)
}

/// The puzzle with each alternative settled as the prober found it, and
/// each cell's digits narrowed to those still open; `None` if the model
/// refuses a rule of an alternative as the puzzle's own (a rule that holds
/// on no grid, which the readers never leave in an alternative).
fn rebuild(puzzle: &Puzzle, choices: &[Vec<Lit>], prober: &mut Prober) -> Option<Puzzle> {
    let mut kept = Vec::new();
    let mut forced: Vec<Alternative> = Vec::new();
    let mut choice = choices.iter();
    for constraint in puzzle.constraints() {
        let alternatives = match constraint {
            Constraint::AnyOf { alternatives } if has_selectors(constraint, puzzle.digits()) => alternatives,
            _ => {
                kept.push(constraint.clone());
                continue;
            }
        };
        let selectors = choice.next().expect("one list of selectors for each");
        let values: Vec<Option<bool>> = selectors.iter().map(|&s| prober.value(s)).collect();
        if let Some(i) = values.iter().position(|&v| v == Some(true)) {
            forced.push(alternatives[i].clone());
            continue;
        }
        let alive = alternatives.iter().zip(&values).filter(|&(_, &v)| v.is_none());
        kept.push(Constraint::AnyOf { alternatives: alive.map(|(a, _)| a.clone()).collect() });
    }
    let mut settled = puzzle.with_constraints(kept);
    for alternative in forced {
        add_rules(&mut settled, alternative)?;
    }
    let n = puzzle.digits();
    for cell in puzzle.cells() {
        if puzzle.given(cell).is_some() {
            continue;
        }
        let open = (1..=n as Digit).filter(|&d| prober.value(prober.literal(cell, d)) != Some(false));
        let allowed: u64 = open.fold(0, |bits, d| bits | 1 << (d - 1));
        if allowed.count_ones() == 1 {
            let digit = allowed.trailing_zeros() as Digit + 1;
            settled.set_given(cell, digit).ok()?;
        } else if allowed.count_ones() < n as u32 {
            settled.add_constraint(Constraint::Digits { cell, allowed }).ok()?;
        }
    }
    Some(settled)
}

/// Adds an alternative's rules to `puzzle` as its own.
fn add_rules(puzzle: &mut Puzzle, alternative: Alternative) -> Option<()> {
    for cells in alternative.distinct {
        puzzle.add_group(cells).ok()?;
    }
    for r in alternative.relations {
        puzzle.add_relation(r.a, r.b, r.predicate).ok()?;
    }
    for c in alternative.constraints {
        puzzle.add_constraint(c).ok()?;
    }
    Some(())
}
