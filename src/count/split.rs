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
    let mut parent: Vec<usize> = (0..value.len()).collect();
    for clause in formula.clauses() {
        if clause.iter().any(|&(v, positive)| value[v as usize] == Some(positive)) {
            continue;
        }
        let mut open = clause.iter().filter(|&&(v, _)| value[v as usize].is_none()).map(|&(v, _)| v as usize);
        if let Some(first) = open.next() {
            for other in open {
                let (a, b) = (root(&mut parent, first), root(&mut parent, other));
                parent[a] = b;
            }
        }
    }
    // A cell is open if one of its digits is; a primary variable not in
    // any open clause would be free, which the grid's rules never leave:
    // then nothing is split.
    let n = puzzle.side();
    let mut parts: Vec<(usize, Vec<Cell>)> = Vec::new();
    for cell in puzzle.cells() {
        let open: Vec<usize> = (1..=n)
            .map(|d| encoded.vars.var(cell, d as u8).index())
            .filter(|&v| v < value.len() && value[v].is_none())
            .collect();
        let Some(&first) = open.first() else { continue };
        let part = root(&mut parent, first);
        if open.iter().any(|&v| root(&mut parent, v) != part) {
            return Vec::new();
        }
        match parts.iter_mut().find(|(r, _)| *r == part) {
            Some((_, cells)) => cells.push(cell),
            None => parts.push((part, vec![cell])),
        }
    }
    if parts.len() < 2 {
        return Vec::new();
    }
    parts.into_iter().map(|(_, cells)| cells).collect()
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
    let open = |cell: Cell| !fixed[at(cell)];
    let mut parent: Vec<usize> = (0..n * n).collect();
    let mut tie = |cells: &mut dyn Iterator<Item = Cell>| {
        if let Some(first) = cells.next() {
            for other in cells {
                let (a, b) = (root(&mut parent, at(first)), root(&mut parent, at(other)));
                parent[a] = b;
            }
        }
    };
    for group in puzzle.groups() {
        for d in 0..n {
            tie(&mut group.cells.iter().copied().filter(|&c| open(c) && digits[at(c)] >> d & 1 == 1));
        }
    }
    for relation in puzzle.relations() {
        tie(&mut [relation.a, relation.b].into_iter().filter(|&c| open(c)));
    }
    for constraint in puzzle.constraints() {
        tie(&mut constraint.cells().into_iter().filter(|&c| open(c)));
    }
    let mut roots: Vec<usize> = puzzle.cells().filter(|&c| open(c)).map(|c| root(&mut parent, at(c))).collect();
    roots.sort_unstable();
    roots.dedup();
    roots.len() >= 2
}

/// The representative of `v`'s part (union-find with path halving).
fn root(parent: &mut [usize], mut v: usize) -> usize {
    while parent[v] != v {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    v
}

/// The formula's clauses in one array, and each variable's clauses.
struct Flat {
    vars: usize,
    lits: Vec<(u32, bool)>,
    /// Clause `i` is `lits[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
    /// Variable `v`'s clauses are `occurs[at[v]..at[v + 1]]`.
    occurs: Vec<u32>,
    at: Vec<usize>,
}

impl Flat {
    fn new(encoded: &Encoded) -> Flat {
        let vars = encoded.formula.var_count();
        let (mut lits, mut starts) = (Vec::new(), vec![0]);
        let mut degree = vec![0usize; vars + 1];
        for clause in encoded.formula.iter() {
            for lit in clause {
                lits.push((lit.index() as u32, lit.is_positive()));
                degree[lit.index() + 1] += 1;
            }
            starts.push(lits.len());
        }
        let mut at = degree;
        for v in 0..vars {
            at[v + 1] += at[v];
        }
        let mut fill = at.clone();
        let mut occurs = vec![0u32; lits.len()];
        for i in 0..starts.len() - 1 {
            for &(v, _) in &lits[starts[i]..starts[i + 1]] {
                occurs[fill[v as usize]] = i as u32;
                fill[v as usize] += 1;
            }
        }
        Flat { vars, lits, starts, occurs, at }
    }

    fn clause(&self, i: usize) -> &[(u32, bool)] {
        &self.lits[self.starts[i]..self.starts[i + 1]]
    }

    fn clauses(&self) -> impl Iterator<Item = &[(u32, bool)]> {
        (0..self.starts.len() - 1).map(|i| self.clause(i))
    }

    /// Unit propagation to a fixpoint: each variable's value, or `None` on
    /// a conflict. Each clause keeps its count of open literals; an
    /// assignment visits the clauses of its variable once.
    fn propagate(&self) -> Option<Vec<Option<bool>>> {
        let count = self.starts.len() - 1;
        let mut value: Vec<Option<bool>> = vec![None; self.vars];
        let mut open: Vec<usize> = (0..count).map(|i| self.starts[i + 1] - self.starts[i]).collect();
        let mut satisfied = vec![false; count];
        if open.contains(&0) {
            return None;
        }
        let mut queue: Vec<(u32, bool)> = self.clauses().filter(|c| c.len() == 1).map(|c| c[0]).collect();
        while let Some((var, positive)) = queue.pop() {
            match value[var as usize] {
                Some(v) if v == positive => continue,
                Some(_) => return None,
                None => value[var as usize] = Some(positive),
            }
            for &c in &self.occurs[self.at[var as usize]..self.at[var as usize + 1]] {
                let c = c as usize;
                open[c] -= 1;
                if satisfied[c] {
                    continue;
                }
                if self.clause(c).contains(&(var, positive)) {
                    satisfied[c] = true;
                } else if open[c] == 0 {
                    return None;
                } else if open[c] == 1 {
                    queue.extend(self.clause(c).iter().copied().find(|&(v, _)| value[v as usize].is_none()));
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
