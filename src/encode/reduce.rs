//! The given-aware reduction (Kwon & Jain 2006): the variables the givens fix
//! are removed, satisfied clauses are deleted and false literals stripped.
//!
//! Fixed are the variables of every given cell (to the values its digit gives
//! them) and, with one-hot digits, the given digit in every other cell of each
//! group the given cell is in. The open primary variables are renumbered in
//! order from 1, then the auxiliary variables that still occur in a clause.
//! Two givens that contradict each other leave one empty clause. Every model
//! of the reduced formula, with the fixed values, is a model of the full one
//! and vice versa, so counts do not change.
//!
//! ## References
//! - G. Kwon, H. Jain, "Optimized CNF Encoding for Sudoku Puzzles", LPAR 2006.

use varisat::{CnfFormula, ExtendFormula, Lit, Var};

use super::{ClauseKind, DigitEncoding, Slot, VarMap};
use crate::model::Puzzle;

/// The reduced formula, the kind of each of its clauses, and its variable map.
pub(super) fn reduce(
    puzzle: &Puzzle,
    formula: &CnfFormula,
    kinds: &[ClauseKind],
    vars: &VarMap,
) -> (CnfFormula, Vec<ClauseKind>, VarMap) {
    let primary = vars.primary_count();
    let mut fixed: Vec<Option<bool>> = vec![None; primary];
    let mut conflict = false;
    let mut fix = |var: Var, value: bool| match fixed[var.index()] {
        Some(old) => conflict |= old != value,
        None => fixed[var.index()] = Some(value),
    };
    for cell in puzzle.cells() {
        let Some(d) = puzzle.given(cell) else { continue };
        for (k, value) in vars.cell_values(d).enumerate() {
            fix(vars.full_var(cell, k), value);
        }
        if vars.digits() == DigitEncoding::Direct {
            for group in puzzle.groups().iter().filter(|g| g.cells.contains(&cell)) {
                for &peer in group.cells.iter().filter(|&&peer| peer != cell) {
                    fix(vars.var(peer, d), false);
                }
            }
        }
    }

    let mut out = CnfFormula::new();
    if conflict {
        out.add_clause(&[]);
        let slots = fixed.iter().map(|f| Slot::Fixed(f.unwrap_or(false))).collect();
        return (out, vec![ClauseKind::Given], vars.with_reduction(slots, 0));
    }

    let mut new_index: Vec<Option<usize>> = vec![None; formula.var_count()];
    let mut next = 0;
    for (i, f) in fixed.iter().enumerate() {
        if f.is_none() {
            new_index[i] = Some(next);
            next += 1;
        }
    }
    let open_primary = next;
    let is_satisfied =
        |clause: &[Lit]| clause.iter().any(|l| l.index() < primary && fixed[l.index()] == Some(l.is_positive()));
    let kept: Vec<(usize, &[Lit])> = formula.iter().enumerate().filter(|(_, clause)| !is_satisfied(clause)).collect();
    let mut aux_used = vec![false; formula.var_count() - primary];
    for lit in kept.iter().flat_map(|&(_, clause)| clause).filter(|l| l.index() >= primary) {
        aux_used[lit.index() - primary] = true;
    }
    for (slot, _) in new_index[primary..].iter_mut().zip(&aux_used).filter(|(_, &used)| used) {
        *slot = Some(next);
        next += 1;
    }
    out.set_var_count(next);
    let mut out_kinds = Vec::with_capacity(kept.len());
    for (i, clause) in kept {
        let lits: Vec<Lit> = clause
            .iter()
            .filter(|l| !(l.index() < primary && fixed[l.index()].is_some()))
            .map(|l| Lit::from_index(new_index[l.index()].expect("open variables are numbered"), l.is_positive()))
            .collect();
        out_kinds.push(kinds[i]);
        out.add_clause(&lits);
    }
    let slots = (0..primary)
        .map(|i| match fixed[i] {
            Some(value) => Slot::Fixed(value),
            None => Slot::Var(Var::from_index(new_index[i].expect("open primary variables are numbered"))),
        })
        .collect();
    (out, out_kinds, vars.with_reduction(slots, open_primary))
}
