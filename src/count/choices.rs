//! Alternatives the search branches on. An `AnyOf` (ISS's `Or`, the
//! native `either`) over more cells than a table takes
//! ([`crate::encode::has_selectors`]) is encoded with a selector per
//! alternative, at least one of them true; left open, a selector prunes
//! nothing until every cell has a digit (ISS's "Killer lunchboxes" took
//! 1.7 s so on the enum engine, and "Ambiguous Arrows - composite", before
//! its blocks were tables, more than a minute). So the
//! enum engine makes the selectors of each top-level `AnyOf` a branch
//! set, as a cell's digits are: it adds that at most one of them is true,
//! and branches on which.
//!
//! A grid may satisfy several alternatives, and would then be reached
//! once under each. Each grid `g` is counted under one assignment of the
//! selectors only, its *own*: each list's selector of the first
//! alternative `g` satisfies, read off the grid by [`Alternative::holds`]
//! (the model's checker). Every solution grid extends to a model with its
//! own selectors (the alternatives not taken have their clauses switched
//! off, each guarded by its selector), so under a cube (a set of
//! literals, some of them selectors) a count is of the grids whose own
//! selectors and digits, with some values of the other auxiliary
//! variables, satisfy the formula and the cube. The enum engine counts a
//! leaf when its selectors are the grid's own ([`Choices::own`] on the
//! leaf's values); the blocking engine, which finds each grid once under
//! a cube whatever selectors its model took, counts it when the cube's
//! selectors agree with the grid's own (the same test on the cube's
//! literals). So a cube split on selectors by one engine counts the same
//! on the other, and a count split into cubes adds up to the whole.

use std::sync::Arc;

use varisat::{CnfFormula, ExtendFormula, Lit};

use crate::encode::{has_selectors, DigitEncoding, Encoded};
use crate::model::{Alternative, Constraint, Grid, Puzzle};

/// The selectors of each top-level `AnyOf` with its alternatives, in the
/// same order; empty when no engine branches on them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Choices {
    lists: Vec<(Vec<Lit>, Vec<Alternative>)>,
}

impl Choices {
    /// The puzzle's alternatives with selectors ([`has_selectors`]: not
    /// the tables, which need none), when its digits are direct (whose
    /// branch sets the selectors join) and the encoding kept their
    /// selectors (it does unless reduced).
    pub(crate) fn new(puzzle: &Puzzle, encoded: &Encoded) -> Choices {
        let alternatives: Vec<&Vec<Alternative>> = puzzle
            .constraints()
            .iter()
            .filter_map(|c| match c {
                Constraint::AnyOf { alternatives } if has_selectors(c, puzzle.digits()) => Some(alternatives),
                _ => None,
            })
            .collect();
        let fits = encoded.vars.digits() == DigitEncoding::Direct
            && alternatives.len() == encoded.choices.len()
            && alternatives.iter().zip(&encoded.choices).all(|(a, s)| a.len() == s.len());
        if !fits {
            return Choices::default();
        }
        let lists = encoded.choices.iter().cloned().zip(alternatives.into_iter().cloned()).collect();
        Choices { lists }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.lists.is_empty()
    }

    /// The selector lists, each a branch set.
    pub(crate) fn sets(&self) -> impl Iterator<Item = &[Lit]> {
        self.lists.iter().map(|(selectors, _)| selectors.as_slice())
    }

    /// `encoded` with "at most one selector of each list" added, so that
    /// each list is a set of exclusive options. The models' grids are the
    /// same: a grid's own selectors satisfy it.
    pub(crate) fn exclusive(&self, encoded: &Encoded) -> Encoded {
        let mut formula = CnfFormula::new();
        formula.set_var_count(encoded.formula.var_count());
        for clause in encoded.formula.iter() {
            formula.add_clause(clause);
        }
        for selectors in self.sets() {
            for (i, &a) in selectors.iter().enumerate() {
                for &b in &selectors[i + 1..] {
                    formula.add_clause(&[!a, !b]);
                }
            }
        }
        Encoded {
            formula: Arc::new(formula),
            vars: encoded.vars.clone(),
            clause_counts: encoded.clause_counts,
            encoding: encoded.encoding,
            choices: encoded.choices.clone(),
            exactly_one: encoded.exactly_one.clone(),
        }
    }

    /// Whether every selector `value` knows (`Some(true)` for true) has
    /// `grid`'s own value: true for the first alternative the grid
    /// satisfies, false for the others. A grid that satisfies none of a
    /// list's alternatives, where the formula says it does, passes: the
    /// count's checker then refuses it with the rule it breaks, where
    /// dropping it would make the count wrong without a word.
    pub(crate) fn own(&self, grid: &Grid, value: impl Fn(Lit) -> Option<bool>) -> bool {
        let digit_of = |cell| grid.get(cell);
        self.lists.iter().all(|(selectors, alternatives)| {
            let Some(first) = alternatives.iter().position(|a| a.holds(&digit_of)) else { return true };
            selectors.iter().enumerate().all(|(i, &s)| value(s).is_none_or(|v| v == (i == first)))
        })
    }
}

/// By variable of `encoded`: a negated top-level selector that every
/// clause holding the variable holds, if any (the selectors themselves
/// have none). A variable open at a leaf whose guard is true is in no
/// clause that needs it: the enum engine's leaf needs no SAT call then.
pub(crate) fn guards(encoded: &Encoded) -> Vec<Option<Lit>> {
    let count = encoded.formula.var_count();
    let mut selector = vec![false; count];
    for lit in encoded.choices.iter().flatten() {
        selector[lit.index()] = true;
    }
    // Per variable: the negated selectors every clause so far held; `None`
    // before its first clause.
    let mut common: Vec<Option<Vec<Lit>>> = vec![None; count];
    for clause in encoded.formula.iter() {
        let negated: Vec<Lit> = clause.iter().copied().filter(|l| l.is_negative() && selector[l.index()]).collect();
        for lit in clause.iter().filter(|l| !selector[l.index()]) {
            match &mut common[lit.index()] {
                Some(kept) => kept.retain(|g| negated.contains(g)),
                slot @ None => *slot = Some(negated.clone()),
            }
        }
    }
    common.into_iter().map(|kept| kept.and_then(|kept| kept.first().copied())).collect()
}

/// A literal's value under `cube`: true if it is there, false if its
/// negation is.
pub(crate) fn value_under(cube: &[Lit], lit: Lit) -> Option<bool> {
    if cube.contains(&lit) {
        Some(true)
    } else if cube.contains(&!lit) {
        Some(false)
    } else {
        None
    }
}
