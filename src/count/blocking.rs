//! The incremental SAT loop the user drew: solve, read the model, add a clause
//! that blocks it (over the primary variables only), repeat until UNSAT.
//!
//! Under a cube (see [`super::Engine::start_cube`]) the solver runs under the
//! cube's literals as assumptions plus a fresh activation literal `a`, and each
//! blocking clause is `¬a ∨ ¬l₁ ∨ … ∨ ¬lₖ` over the model's true primary
//! literals that the cube does not already fix: within the cube those still
//! exclude exactly one model, and they are shorter. When the cube is done, the
//! unit `¬a` retires all its blocking clauses at once, so one solver serves
//! every cube without its clause database growing with the count.
//!
//! A puzzle with alternatives counts each grid under a cube only when the
//! cube's selectors agree with the grid's own (`choices.rs`), as the enum
//! engine does, so that cubes split on selectors add up to the whole.

use std::sync::atomic::{AtomicBool, Ordering};

use varisat::{ExtendFormula, Lit, Solver, Var};

use super::choices::{value_under, Choices};
use super::{CountError, Engine, SearchStats};
use crate::encode::Encoded;
use crate::model::Grid;

/// Models of an encoded puzzle, one SAT call each.
pub struct Blocking<'a> {
    solver: Solver<'a>,
    encoded: &'a Encoded,
    /// The current cube's activation variable, if it has one.
    activation: Option<Var>,
    /// The activation literal, then the cube's literals.
    assumptions: Vec<Lit>,
    stop: Option<&'a AtomicBool>,
    sat_calls: u64,
    /// The alternatives whose selectors a cube may fix.
    choices: Choices,
}

impl<'a> Blocking<'a> {
    /// The engine on `encoded`, its clauses given to a fresh varisat solver.
    pub fn new(encoded: &'a Encoded) -> Blocking<'a> {
        let mut solver = Solver::new();
        solver.add_formula(&encoded.formula);
        let choices = Choices::default();
        Blocking { solver, encoded, activation: None, assumptions: Vec::new(), stop: None, sat_calls: 0, choices }
    }

    /// Counts a grid under a cube only when the cube's selectors agree
    /// with the grid's own (see the module doc).
    pub fn with_choices(mut self, puzzle: &crate::model::Puzzle) -> Blocking<'a> {
        self.choices = Choices::new(puzzle, self.encoded);
        self
    }

    /// Makes [`Engine::step`] return `None` before the next SAT call once
    /// `stop` is set.
    pub fn stop_when(mut self, stop: &'a AtomicBool) -> Blocking<'a> {
        self.stop = Some(stop);
        self
    }
}

impl Engine for Blocking<'_> {
    fn start_cube(&mut self, cube: &[Lit]) -> Result<(), CountError> {
        if let Some(done) = self.activation.take() {
            self.solver.add_clause(&[done.negative()]);
        }
        self.assumptions.clear();
        if !cube.is_empty() {
            let activation = self.solver.new_var();
            self.activation = Some(activation);
            self.assumptions.push(activation.positive());
            self.assumptions.extend_from_slice(cube);
        }
        Ok(())
    }

    fn step(&mut self) -> Result<Option<Grid>, CountError> {
        loop {
            if self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                return Ok(None);
            }
            self.sat_calls += 1;
            self.solver.assume(&self.assumptions);
            if !self.solver.solve().map_err(CountError::Solver)? {
                return Ok(None);
            }
            let model = self.solver.model().ok_or(CountError::NoModel)?;
            let grid = self.encoded.vars.decode_model(&model)?;
            let mut clause = self.encoded.vars.blocking_clause(&grid);
            let cube = if self.activation.is_some() { &self.assumptions[1..] } else { &[] };
            if self.activation.is_some() {
                clause.retain(|lit| !cube.contains(&!*lit));
                clause.push(!self.assumptions[0]);
            }
            let counted = self.choices.own(&grid, |lit| value_under(cube, lit));
            self.solver.add_clause(&clause);
            if counted {
                return Ok(Some(grid));
            }
        }
    }

    fn stats(&self) -> SearchStats {
        SearchStats { sat_calls: self.sat_calls, ..SearchStats::default() }
    }
}
