//! The incremental SAT loop the user drew: solve, read the model, add a clause
//! that blocks it (over the primary variables only), repeat until UNSAT.

use varisat::{ExtendFormula, Solver};

use super::{CountError, Engine, SearchStats};
use crate::encode::Encoded;
use crate::model::Grid;

/// Models of an encoded puzzle, one SAT call each.
pub struct Blocking<'a> {
    solver: Solver<'a>,
    encoded: &'a Encoded,
    sat_calls: u64,
}

impl<'a> Blocking<'a> {
    pub fn new(encoded: &'a Encoded) -> Blocking<'a> {
        let mut solver = Solver::new();
        solver.add_formula(&encoded.formula);
        Blocking { solver, encoded, sat_calls: 0 }
    }
}

impl Engine for Blocking<'_> {
    fn step(&mut self) -> Result<Option<Grid>, CountError> {
        self.sat_calls += 1;
        if !self.solver.solve().map_err(|e| CountError::Solver(e.to_string()))? {
            return Ok(None);
        }
        let model = self.solver.model().ok_or_else(|| CountError::Solver("no model after SAT".into()))?;
        let grid = self.encoded.vars.decode_model(&model)?;
        self.solver.add_clause(&self.encoded.vars.blocking_clause(&grid));
        Ok(Some(grid))
    }

    fn stats(&self) -> SearchStats {
        SearchStats { sat_calls: self.sat_calls, ..SearchStats::default() }
    }
}
