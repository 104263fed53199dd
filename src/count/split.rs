//! Counting independent parts apart: component decomposition at the root.
//!
//! After unit propagation of the formula (the givens and what they force),
//! the open variables are joined whenever a clause not yet satisfied holds
//! both. When they fall into two or more parts, no clause ties one part to
//! another, so the solutions are every combination of each part's own
//! solutions, and the count is the product of the parts' counts. Each part
//! is counted with the engine on the cube that fixes every cell outside it
//! to one solution's digits (any solution will do: the parts do not
//! interact), so a puzzle whose open cells fall into k parts of m
//! solutions each costs k counts of m rather than an enumeration of m^k.
//!
//! Measured (bench/results/components-2026-11-23.md): a counter that looks
//! for components at every node (and caches them) beats enumeration 20x to
//! 880x where the open cells split near the root, as in a 16x16 grid with
//! independent unavoidable rectangles left open; in the search of ordinary
//! puzzles with 10^5 to 10^6 solutions the open part splits at 0.05% to
//! 0.33% of the nodes, and that counter is 11x to 45x slower than the enum
//! engine. So parts are looked for once, at the root (2x to 21x faster than
//! enumeration on those 16x16 grids), and only by `count` (not by `unique`,
//! where puzzles are many and their counts small). A test on the puzzle
//! alone rules most puzzles out in microseconds, before the formula is read.
//!
//! It works on direct digits without the given-aware reduction (the
//! default encoding), whose variables are the cells' digits.

use super::csr::Csr;
use crate::encode::{DigitEncoding, Encoded};
use crate::model::{Cell, Grid, Puzzle};

/// The cells of each independent part of the puzzle's open cells, after
/// unit propagation; fewer than two parts (or a conflict, or an encoding
/// other than direct digits without reduction) gives an empty list.
pub fn independent_parts(puzzle: &Puzzle, encoded: &Encoded) -> Vec<Vec<Cell>> {
    if encoded.encoding.digits != DigitEncoding::Direct || encoded.encoding.reduce || !may_split(puzzle) {
        return Vec::new();
    }
    let formula = Flat::new(encoded);
    let Some(value) = formula.propagate() else { return Vec::new() };
    // Join the open variables of each clause not yet satisfied.
    let mut parts = Parts::new(value.len());
    for clause in (0..formula.clauses.keys()).map(|c| formula.clauses.of(c)) {
        if clause.iter().any(|&(v, positive)| value[v as usize] == Some(positive)) {
            continue;
        }
        parts.tie(clause.iter().filter(|&&(v, _)| value[v as usize].is_none()).map(|&(v, _)| v as usize));
    }
    // A cell is open if one of its digits is; a primary variable not in
    // any open clause would be free, which the grid's rules never leave:
    // then nothing is split.
    let n = puzzle.digits();
    let mut cells_of: Vec<(usize, Vec<Cell>)> = Vec::new();
    for cell in puzzle.cells() {
        let open: Vec<usize> = (1..=n)
            .map(|d| encoded.vars.var(cell, d as u8).index())
            .filter(|&v| v < value.len() && value[v].is_none())
            .collect();
        let Some(&first) = open.first() else { continue };
        let part = parts.root(first);
        if open.iter().any(|&v| parts.root(v) != part) {
            return Vec::new();
        }
        match cells_of.iter_mut().find(|(r, _)| *r == part) {
            Some((_, cells)) => cells.push(cell),
            None => cells_of.push((part, vec![cell])),
        }
    }
    if cells_of.len() < 2 {
        return Vec::new();
    }
    cells_of.into_iter().map(|(_, cells)| cells).collect()
}

/// A quick test on the puzzle, before the formula is read: whether its open
/// cells fall apart when two cells are tied by any rule that holds both
/// (a group only if both may hold a same digit, judged from the givens and
/// naked singles). Propagation only unties cells, so if this finds one
/// part, so would the formula: most puzzles stop here, in microseconds.
/// No solution (a cell left no digit): nothing to split.
fn may_split(puzzle: &Puzzle) -> bool {
    let n = puzzle.side();
    let at = |cell: Cell| cell.row * n + cell.col;
    let mut digits: Vec<u64> = vec![if n >= 64 { !0 } else { (1u64 << n) - 1 }; n * n];
    let mut fixed: Vec<bool> = puzzle.cells().map(|c| puzzle.given(c).is_some()).collect();
    for (cell, d) in puzzle.givens() {
        digits[at(cell)] = 1 << (d - 1);
    }
    // Naked singles: a cell left one digit is as good as given.
    loop {
        for group in puzzle.groups() {
            let used = group.cells.iter().filter(|&&c| fixed[at(c)]).fold(0u64, |acc, &c| acc | digits[at(c)]);
            for &cell in &group.cells {
                if !fixed[at(cell)] {
                    digits[at(cell)] &= !used;
                }
            }
        }
        let mut changed = false;
        for i in 0..n * n {
            if !fixed[i] && digits[i].count_ones() <= 1 {
                if digits[i] == 0 {
                    return false;
                }
                fixed[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let open = |cell: &Cell| !fixed[at(*cell)];
    let mut parts = Parts::new(n * n);
    for group in puzzle.groups() {
        for d in 0..n {
            parts.tie(group.cells.iter().filter(|&c| open(c) && digits[at(*c)] >> d & 1 == 1).map(|&c| at(c)));
        }
    }
    for relation in puzzle.relations() {
        parts.tie([relation.a, relation.b].iter().filter(|&c| open(c)).map(|&c| at(c)));
    }
    for constraint in puzzle.constraints() {
        parts.tie(constraint.cells().iter().filter(|&c| open(c)).map(|&c| at(c)));
    }
    let mut roots: Vec<usize> = puzzle.cells().filter(open).map(|c| parts.root(at(c))).collect();
    roots.sort_unstable();
    roots.dedup();
    roots.len() >= 2
}

/// Union-find over `0..n`: which items are tied together, directly or not.
struct Parts(Vec<usize>);

impl Parts {
    fn new(n: usize) -> Parts {
        Parts((0..n).collect())
    }

    /// The representative of `v`'s part (with path halving).
    fn root(&mut self, mut v: usize) -> usize {
        while self.0[v] != v {
            self.0[v] = self.0[self.0[v]];
            v = self.0[v];
        }
        v
    }

    /// Ties all of `items` into one part.
    fn tie(&mut self, mut items: impl Iterator<Item = usize>) {
        if let Some(first) = items.next() {
            for other in items {
                let (a, b) = (self.root(first), self.root(other));
                self.0[a] = b;
            }
        }
    }
}

/// The formula's clauses, and each variable's clauses, as compressed rows.
struct Flat {
    vars: usize,
    /// Clause `c`'s literals as (variable, sign).
    clauses: Csr<(u32, bool)>,
    /// Variable `v`'s clauses.
    occurs: Csr<u32>,
}

impl Flat {
    fn new(encoded: &Encoded) -> Flat {
        let formula = &encoded.formula;
        let vars = formula.var_count();
        let lits = || {
            formula
                .iter()
                .enumerate()
                .flat_map(|(c, clause)| clause.iter().map(move |l| (c, (l.index() as u32, l.is_positive()))))
        };
        let clauses = Csr::new(formula.len(), lits);
        let occurs = Csr::new(vars, || lits().map(|(c, (v, _))| (v as usize, c as u32)));
        Flat { vars, clauses, occurs }
    }

    /// Unit propagation to a fixpoint: each variable's value, or `None` on
    /// a conflict. Each clause keeps its count of open literals; an
    /// assignment visits the clauses of its variable once.
    fn propagate(&self) -> Option<Vec<Option<bool>>> {
        let count = self.clauses.keys();
        let mut value: Vec<Option<bool>> = vec![None; self.vars];
        let mut open: Vec<usize> = (0..count).map(|c| self.clauses.of(c).len()).collect();
        let mut satisfied = vec![false; count];
        if open.contains(&0) {
            return None;
        }
        let mut queue: Vec<(u32, bool)> = (0..count).filter(|&c| open[c] == 1).map(|c| self.clauses.of(c)[0]).collect();
        while let Some((var, positive)) = queue.pop() {
            match value[var as usize] {
                Some(v) if v == positive => continue,
                Some(_) => return None,
                None => value[var as usize] = Some(positive),
            }
            for &c in self.occurs.of(var as usize) {
                let c = c as usize;
                open[c] -= 1;
                if satisfied[c] {
                    continue;
                }
                if self.clauses.of(c).contains(&(var, positive)) {
                    satisfied[c] = true;
                } else if open[c] == 0 {
                    return None;
                } else if open[c] == 1 {
                    queue.extend(self.clauses.of(c).iter().copied().find(|&(v, _)| value[v as usize].is_none()));
                }
            }
        }
        Some(value)
    }
}

/// The cube that fixes every cell outside `part` to its digit in `grid`.
pub fn cube_outside(puzzle: &Puzzle, encoded: &Encoded, part: &[Cell], grid: &Grid) -> super::Cube {
    puzzle.cells().filter(|cell| !part.contains(cell)).map(|cell| encoded.vars.lit(cell, grid.get(cell))).collect()
}
