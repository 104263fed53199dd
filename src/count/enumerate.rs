//! Non-blocking enumeration (Toda & Soh 2016): DPLL over the encoder's CNF with
//! unit propagation on watched literals, branching on the cell with the fewest
//! remaining candidate digits, and chronological backtracking, so each model
//! is reached exactly once and no blocking clause is ever added.
//!
//! A branch point is the smallest set of open exclusive options: the digits
//! left for one cell, or the cells left for one digit in a group of `n` cells.
//! Its branches are disjoint and cover every solution, because every solution
//! has exactly one digit per cell and each digit exactly once in such a group
//! (the rows alone guarantee the former). At a leaf every
//! cell has a digit; remaining primary variables are set false and
//! propagated; if auxiliary variables are still open, varisat decides under
//! assumptions whether the primary assignment extends to a model, so an
//! auxiliary variable never changes the count.
//!
//! Before the search, support clauses are derived from binary conflicts with
//! each cell (see [`derive_supports`]): implied clauses, so the models do not
//! change, but on the forbidden-pairs encoding they lift unit propagation
//! from forward checking to arc consistency, as the support encoding has it.
//! Without them the engine is up to 20x slower on that encoding (many.lp:
//! 306 ms, with them 20 ms).
//!
//! ## References
//! - T. Toda, T. Soh, "Implementing Efficient All Solutions SAT Solvers", JEA 2016.

use std::sync::atomic::{AtomicBool, Ordering};

use varisat::{Lit, Solver, Var};

use super::pool::Pool;
use super::{CountError, Cube, Engine, SearchStats};
use crate::encode::{DigitEncoding, Encoded, Slot};
use crate::model::{Cell, Digit, Grid, Puzzle};

const UNSET: u8 = 2;

/// Decisions between two looks at the stop flag.
const STOP_CHECK_INTERVAL: u64 = 16;

/// One frame of the explicit search stack: mutually exclusive literals (the
/// digits of one cell, or the cells of one digit in a full group), of which
/// every solution makes exactly one true, tried in turn.
struct Frame {
    options: Vec<Lit>,
    next: usize,
    trail_len: usize,
}

impl Frame {
    /// The option the search is under (every frame above the deepest has one).
    fn taken(&self) -> Option<Lit> {
        self.next.checked_sub(1).map(|i| self.options[i])
    }
}

pub struct Enumerate<'a> {
    encoded: &'a Encoded,
    clauses: Clauses,
    state: Assignment,
    /// Length of the trail after level-0 propagation, before any cube.
    base_len: usize,
    stack: Vec<Frame>,
    /// The literals the search is restricted to (see [`Engine::start_cube`]);
    /// after a refuted cube, the part of it before the refuting literal.
    cube: Vec<Lit>,
    /// The trail's length before each literal of `cube` was assigned, so
    /// that the next cube keeps what it shares with this one.
    cube_marks: Vec<usize>,
    /// The trail's length once `cube` is propagated.
    cube_end: usize,
    started: bool,
    /// Propagation at level 0 found a conflict: there is no model.
    unsat: bool,
    /// The current cube contradicts the formula under propagation.
    cube_conflict: bool,
    /// Set by another thread to end the search early.
    stop: Option<&'a AtomicBool>,
    /// Where to give part of the search when another thread waits for work.
    pool: Option<&'a Pool>,
    sat_calls: u64,
    decisions: u64,
    conflicts: u64,
    /// Support clauses added by [`derive_supports`].
    derived: u64,
    solver: Option<Solver<'a>>,
}

impl<'a> Enumerate<'a> {
    /// The engine on `encoded`, propagated at level 0. Each thread of a
    /// count builds its own, at the same time as the others: one built
    /// once and copied for each cost as much wall time, and more in the
    /// allocator (the heap was trimmed and paged in again file after file
    /// in a batch).
    pub fn new(puzzle: &Puzzle, encoded: &'a Encoded) -> Enumerate<'a> {
        let var_count = encoded.formula.var_count();
        // Room for the derived support clauses too, which add up to a third
        // to the forbidden-pairs encoding's literals.
        let mut lits = Vec::with_capacity(encoded.literal_count() * 3 / 2);
        let mut clauses = Vec::with_capacity(encoded.formula.len());
        let mut units = Vec::new();
        let mut unsat = false;
        // Binary clauses `a ∨ b` propagate from lists of implied literals:
        // `¬a` implies `b`, `¬b` implies `a`. The watches take the others.
        let mut binaries = Vec::with_capacity(encoded.formula.len());
        for clause in encoded.formula.iter() {
            if let &[a, b] = clause {
                if a.var() != b.var() {
                    binaries.push((a, b));
                    continue;
                } // else x ∨ x or x ∨ ¬x, dealt with below
            }
            let start = lits.len();
            lits.extend_from_slice(clause);
            let len = sort_and_dedup(&mut lits[start..]);
            let added = &lits[start..start + len];
            let tautology = added.windows(2).any(|w| w[0].var() == w[1].var());
            let first = added.first().copied();
            match (len, first) {
                _ if tautology => {} // x and ¬x: always true
                (0, _) => unsat = true,
                (1, Some(unit)) => units.push(unit),
                (2, _) => binaries.push((lits[start], lits[start + 1])),
                _ => clauses.push((start as u32, len as u32)),
            }
            // Only clauses of three or more literals stay in the arena.
            lits.truncate(if tautology || len < 3 { start } else { start + len });
        }
        // A pair of cells in one row and one box has its clauses twice; once is enough.
        let implications = || binaries.iter().flat_map(|&(a, b)| [((!a).code(), b), ((!b).code(), a)]);
        let mut implied = Csr::new(2 * var_count, implications);
        implied.dedup(2 * var_count, Lit::code);
        let before = clauses.len();
        derive_supports(&mut lits, &mut clauses, &mut units, &cell_of(encoded), &implied);
        let derived = (clauses.len() - before) as u64;
        let watches = Watches::new(2 * var_count, &lits, &clauses);
        let mut engine = Enumerate {
            encoded,
            clauses: Clauses { implied, lits, spans: clauses, watches },
            state: Assignment {
                values: vec![UNSET; var_count],
                lit_values: vec![UNSET; 2 * var_count],
                trail: Vec::new(),
                branches: Branches::new(puzzle, encoded),
            },
            base_len: 0,
            stack: Vec::new(),
            cube: Vec::new(),
            cube_marks: Vec::new(),
            cube_end: 0,
            started: false,
            unsat,
            cube_conflict: false,
            stop: None,
            pool: None,
            sat_calls: 0,
            decisions: 0,
            conflicts: 0,
            derived,
            solver: None,
        };
        for unit in units {
            if !engine.assign(unit) {
                engine.unsat = true;
            }
        }
        if !engine.unsat && !engine.propagate_from(0) {
            engine.unsat = true;
        }
        engine.base_len = engine.state.trail.len();
        engine.cube_end = engine.base_len;
        engine
    }

    /// Makes [`Engine::step`] return `None` soon after `stop` is set.
    pub fn stop_when(mut self, stop: &'a AtomicBool) -> Enumerate<'a> {
        self.stop = Some(stop);
        self
    }

    /// Gives part of the search to `pool` when a worker waits there (see
    /// [`Enumerate::give_work`]).
    pub fn share_with(mut self, pool: &'a Pool) -> Enumerate<'a> {
        self.pool = Some(pool);
        self
    }

    /// Splits the search into at least `target` cubes where it can: disjoint
    /// sets of branch literals that together cover every model. Each cube is
    /// a path of the engine's own branching (smallest set of exclusive
    /// options first), expanded level by level; cubes that propagation refutes
    /// are dropped, so the list is empty when the formula has no model.
    pub fn split(&mut self, target: usize) -> Vec<Cube> {
        self.split_further(vec![Vec::new()], target)
    }

    /// [`Enumerate::split`] starting from `cubes` instead of the whole search.
    /// Each round extends every cube by each option of its next branch
    /// point; consecutive cubes share their start, which stays propagated
    /// (see [`Enumerate::restrict_to`]).
    pub fn split_further(&mut self, mut cubes: Vec<Cube>, target: usize) -> Vec<Cube> {
        while cubes.len() < target {
            let mut next = Vec::new();
            let mut expanded = false;
            for cube in cubes {
                if !self.restrict_to(&cube) {
                    continue;
                }
                match self.choose() {
                    None => next.push(cube),
                    Some(options) => {
                        expanded = true;
                        for option in options {
                            let mut longer = cube.clone();
                            longer.push(option);
                            if self.restrict_to(&longer) {
                                next.push(longer);
                            }
                        }
                    }
                }
            }
            cubes = next;
            if !expanded {
                break;
            }
        }
        self.restrict_to(&[]);
        cubes
    }

    /// Resets the search to the models that make every literal of `cube`
    /// true; false if propagation refutes the cube (or the formula). What
    /// `cube` shares at its start with the previous cube stays propagated.
    fn restrict_to(&mut self, cube: &[Lit]) -> bool {
        self.stack.clear();
        self.started = false;
        self.cube_conflict = false;
        if self.unsat {
            return false;
        }
        let kept = self.cube.iter().zip(cube).take_while(|(a, b)| a == b).count();
        self.undo_to(self.cube_marks.get(kept).copied().unwrap_or(self.cube_end));
        self.cube.truncate(kept);
        self.cube_marks.truncate(kept);
        for &lit in &cube[kept..] {
            let mark = self.state.trail.len();
            if !self.assign(lit) || !self.propagate_from(mark) {
                self.undo_to(mark);
                self.cube_conflict = true;
                break;
            }
            self.cube.push(lit);
            self.cube_marks.push(mark);
        }
        self.cube_end = self.state.trail.len();
        !self.cube_conflict
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    fn value(&self, lit: Lit) -> u8 {
        self.state.value(lit)
    }

    /// Sets `lit` true; false if it is already false.
    fn assign(&mut self, lit: Lit) -> bool {
        self.state.assign(lit)
    }

    /// Unit propagation of the trail from position `head`; false on conflict.
    fn propagate_from(&mut self, head: usize) -> bool {
        self.clauses.propagate(&mut self.state, head)
    }

    fn undo_to(&mut self, len: usize) {
        self.state.undo_to(len);
    }

    /// The smallest set of open options among cells (their digits) and full
    /// groups (the cells left for a digit), or `None` when every cell has a
    /// true digit variable; `Some` with no options means a dead end.
    fn choose(&self) -> Option<Vec<Lit>> {
        if self.encoded.vars.digits() != DigitEncoding::Direct {
            return self.choose_variable();
        }
        let set = self.state.branches.smallest_open()?;
        Some(self.state.branches.set(set).iter().copied().filter(|&lit| self.value(lit) == UNSET).collect())
    }

    /// For order and log digits, whose literals are not exclusive options: both
    /// values of the first open primary variable, or `None` when all are set.
    /// (Branching on a cell's possible digits was measured 10x slower with log
    /// digits: a bit shared by half the digits prunes them all at once.)
    fn choose_variable(&self) -> Option<Vec<Lit>> {
        let primary = self.encoded.vars.primary_count();
        let var = (0..primary).map(Var::from_index).find(|v| self.state.values[v.index()] == UNSET)?;
        Some(vec![var.positive(), var.negative()])
    }

    /// Cells whose digit unit propagation fixed at level 0, givens included;
    /// `None` if propagation alone finds a conflict.
    pub fn cells_fixed_by_propagation(&self) -> Option<usize> {
        if self.unsat {
            return None;
        }
        let vars = &self.encoded.vars;
        let n = vars.side();
        let value = |v: Var| self.state.var_value(v);
        let cells = itertools::iproduct!(0..n, 0..n).map(|(r, c)| Cell::new(r, c));
        Some(cells.filter(|&cell| (1..=n as Digit).any(|d| vars.holds(cell, d, value) == Some(true))).count())
    }

    /// At a leaf: completes the assignment; the grid if it is a model.
    fn leaf(&mut self) -> Result<Option<Grid>, CountError> {
        let mark = self.state.trail.len();
        // The trail holds each assigned variable once, so a trail as long as
        // the variables is a complete, propagated assignment: a model. (With
        // the direct encoding's one-hot clauses, every leaf is one.)
        if mark == self.state.values.len() {
            return Ok(Some(self.grid()?));
        }
        let primary = self.encoded.vars.primary_count();
        // Usually none is open; `contains` on bytes is a fast scan.
        if self.state.values[..primary].contains(&UNSET) {
            for var in (0..primary).map(Var::from_index) {
                if self.state.values[var.index()] == UNSET {
                    self.assign(var.negative()); // cannot fail: the variable is open
                }
            }
        }
        let mut ok = self.propagate_from(mark);
        if ok && self.state.values[primary..].contains(&UNSET) {
            ok = self.extends_to_model()?;
        }
        let grid = if ok { Some(self.grid()?) } else { None };
        self.undo_to(mark);
        Ok(grid)
    }

    fn extends_to_model(&mut self) -> Result<bool, CountError> {
        let primary = self.encoded.vars.primary_count();
        let assumptions: Vec<Lit> = (0..primary).map(|i| Lit::from_index(i, self.state.values[i] == 1)).collect();
        let encoded = self.encoded;
        let solver = self.solver.get_or_insert_with(|| {
            let mut solver = Solver::new();
            solver.add_formula(&encoded.formula);
            solver
        });
        solver.assume(&assumptions);
        self.sat_calls += 1;
        solver.solve().map_err(|e| CountError::Solver(e.to_string()))
    }

    /// The grid of a complete assignment.
    fn grid(&self) -> Result<Grid, CountError> {
        Ok(self.encoded.vars.decode_bytes(&self.state.values)?)
    }

    fn next_model(&mut self) -> Result<Option<Grid>, CountError> {
        if self.unsat || self.cube_conflict {
            return Ok(None);
        }
        if !self.started {
            self.started = true;
            self.push_choice();
            if self.stack.is_empty() {
                // Every cell was fixed by propagation alone.
                return self.leaf();
            }
        }
        while let Some(frame) = self.stack.last_mut() {
            if frame.next == frame.options.len() {
                let len = frame.trail_len;
                self.stack.pop();
                self.undo_to(len);
                continue;
            }
            // Before taking the option, so that `remaining` still covers it.
            if self.decisions % STOP_CHECK_INTERVAL == STOP_CHECK_INTERVAL - 1 {
                if self.stopped() {
                    return Ok(None);
                }
                if let Some(pool) = self.pool.filter(|pool| pool.wanted()) {
                    self.give_work(pool);
                }
            }
            let frame = self.stack.last_mut().expect("checked above");
            let (choice, len) = (frame.options[frame.next], frame.trail_len);
            frame.next += 1;
            self.undo_to(len);
            self.decisions += 1;
            if !self.assign(choice) || !self.propagate_from(len) {
                self.conflicts += 1;
                continue;
            }
            match self.choose() {
                None => {
                    if let Some(grid) = self.leaf()? {
                        return Ok(Some(grid));
                    }
                }
                Some(options) if options.is_empty() => {}
                Some(options) => self.stack.push(Frame { options, next: 0, trail_len: self.state.trail.len() }),
            }
        }
        Ok(None)
    }

    /// Gives `pool` the options not yet tried at the shallowest frame that
    /// has any, each as a cube (the path to the frame, then the option);
    /// they leave the frame. The deepest frame keeps the option it takes
    /// next, so the search always keeps some work.
    fn give_work(&mut self, pool: &Pool) {
        let last = self.stack.len() - 1;
        let kept = |depth: usize, frame: &Frame| frame.next + usize::from(depth == last);
        let Some(level) =
            self.stack.iter().enumerate().position(|(depth, frame)| kept(depth, frame) < frame.options.len())
        else {
            return;
        };
        let mut path = self.cube.clone();
        path.extend(self.stack[..level].iter().filter_map(Frame::taken));
        let from = kept(level, &self.stack[level]);
        let given = self.stack[level].options.split_off(from);
        pool.give(given.into_iter().map(|option| {
            let mut cube = path.clone();
            cube.push(option);
            cube
        }));
    }

    fn push_choice(&mut self) {
        if let Some(options) = self.choose() {
            self.stack.push(Frame { options, next: 0, trail_len: self.state.trail.len() });
        }
    }
}

/// What changes as the search assigns and backtracks: the values, the trail
/// and the branch weights, kept in step.
struct Assignment {
    /// Each variable's value: 0 false, 1 true, UNSET.
    values: Vec<u8>,
    /// Each literal's value, by code, the same way: propagation reads a
    /// literal's value with one load, no sign to apply.
    lit_values: Vec<u8>,
    trail: Vec<Lit>,
    /// The sets of exclusive options [`Enumerate::choose`] branches on.
    branches: Branches,
}

impl Assignment {
    /// A variable's value, `None` while unset.
    fn var_value(&self, var: Var) -> Option<bool> {
        match self.values[var.index()] {
            UNSET => None,
            x => Some(x == 1),
        }
    }

    fn value(&self, lit: Lit) -> u8 {
        self.lit_values[lit.code()]
    }

    /// Sets `lit` true; false if it is already false.
    fn assign(&mut self, lit: Lit) -> bool {
        match self.value(lit) {
            1 => true,
            0 => false,
            _ => {
                self.values[lit.index()] = u8::from(lit.is_positive());
                self.lit_values[lit.code()] = 1;
                self.lit_values[(!lit).code()] = 0;
                self.trail.push(lit);
                self.branches.became_true(lit);
                true
            }
        }
    }

    fn undo_to(&mut self, len: usize) {
        for lit in self.trail.drain(len..) {
            self.values[lit.index()] = UNSET;
            self.lit_values[lit.code()] = UNSET;
            self.lit_values[(!lit).code()] = UNSET;
            self.branches.reopened(lit);
        }
    }
}

/// The formula as propagation reads it. Kept apart from the [`Assignment`],
/// so that propagation borrows the two separately and the compiler keeps
/// each array's address in a register instead of reloading it after every
/// write.
struct Clauses {
    /// For each literal code, the literals binary clauses make true with it.
    implied: Csr<Lit>,
    /// Every other clause of two or more literals (those of three or more
    /// in the formula, and the derived ones), one after another; the first
    /// two literals of each are its watches.
    lits: Vec<Lit>,
    /// Start and length of each clause in `lits`.
    spans: Vec<(u32, u32)>,
    /// The clauses watching each literal (looked at when it becomes false).
    watches: Watches,
}

impl Clauses {
    /// Unit propagation of `state`'s trail from position `head`; false on conflict.
    fn propagate(&mut self, state: &mut Assignment, mut head: usize) -> bool {
        let Clauses { implied, lits, spans, watches } = self;
        while head < state.trail.len() {
            let made_true = state.trail[head];
            let falsified = !made_true;
            head += 1;
            for i in implied.range(made_true.code()) {
                // Most implied literals are false already; look before assigning.
                let lit = implied.items[i];
                match state.value(lit) {
                    1 => {}
                    0 => return false,
                    _ => {
                        state.assign(lit);
                    }
                }
            }
            // The falsified literal's watches are at `i..end` of the array;
            // a watch that moves is replaced by the last, and `end` shrinks.
            let watching = falsified.code();
            let (mut i, mut end) = watches.region(watching);
            while i < end {
                let Watch { clause: c, blocker } = watches.list[i];
                // A true blocker satisfies the clause without reading it.
                if state.value(blocker) == 1 {
                    i += 1;
                    continue;
                }
                let (start, len) = spans[c as usize];
                let clause = &mut lits[start as usize..(start + len) as usize];
                if clause[0] == falsified {
                    clause.swap(0, 1);
                }
                let other = clause[0];
                if state.value(other) == 1 {
                    watches.list[i].blocker = other;
                    i += 1;
                    continue;
                }
                let mut moved = false;
                for k in 2..clause.len() {
                    if state.value(clause[k]) != 0 {
                        clause.swap(1, k);
                        let new_watch = clause[1];
                        watches.push(new_watch.code(), Watch { clause: c, blocker: other });
                        end -= 1;
                        watches.list[i] = watches.list[end];
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                i += 1;
                if !state.assign(other) {
                    watches.set_end(watching, end);
                    return false;
                }
            }
            watches.set_end(watching, end);
        }
        true
    }
}

/// Adds the implied clauses that make unit propagation arc consistent on
/// binary conflicts with a cell. For each cell's at-least-one clause
/// `y1 ∨ ... ∨ yn` and each variable `x` of another cell with binary clauses
/// `¬x ∨ ¬yi` for a set `S` of two or more of the `yi`: the resolvent
/// `¬x ∨ OR_{i∉S} yi` (the support clause of `x`), or the unit `¬x` when `S`
/// is every `yi`. Resolvents only, so the models stay the same; with the
/// forbidden-pairs encoding they are the support encoding's clauses. (A
/// single conflict is a peer's digit, whose resolvent propagates nothing
/// new; across all positive clauses the resolvents outnumbered the formula.)
fn derive_supports(
    lits: &mut Vec<Lit>,
    clauses: &mut Vec<(u32, u32)>,
    units: &mut Vec<Lit>,
    cell_of: &[u32],
    implied: &Csr<Lit>,
) {
    let var_count = cell_of.len();
    // The variables `y` with a binary clause `¬x ∨ ¬y`, each once.
    let conflicts = |x: usize| {
        let negated = implied.of(Var::from_index(x).positive().code()).iter();
        negated.filter(|y| y.is_negative()).map(|y| y.index())
    };
    // For each `x`, the literals of the current clause it conflicts with,
    // a bit each (a cell's clause has at most 64, one per digit).
    let mut hits = vec![0u64; var_count];
    let mut touched = Vec::new();
    for c in 0..clauses.len() {
        let (start, len) = clauses[c];
        let range = start as usize..(start + len) as usize;
        let cell = cell_of[lits[start as usize].index()];
        let one_cell = |l: &Lit| l.is_positive() && cell_of[l.index()] == cell;
        if !(3..=64).contains(&len) || cell == NO_CELL || !lits[range.clone()].iter().all(one_cell) {
            continue;
        }
        for (bit, i) in range.clone().enumerate() {
            for x in conflicts(lits[i].index()) {
                if cell_of[x] != cell {
                    if hits[x] == 0 {
                        touched.push(x);
                    }
                    hits[x] |= 1 << bit;
                }
            }
        }
        for x in touched.drain(..) {
            let hit = std::mem::take(&mut hits[x]);
            if hit & (hit - 1) == 0 {
                continue; // a single conflict
            }
            let at = lits.len();
            lits.push(Var::from_index(x).negative());
            for (bit, i) in range.clone().enumerate() {
                if hit >> bit & 1 == 0 {
                    lits.push(lits[i]);
                }
            }
            match lits.len() - at {
                1 => units.push(lits.pop().expect("just pushed")),
                n => clauses.push((at as u32, n as u32)),
            }
        }
    }
}

/// The branch points for direct digits: the digit literals of each cell, and
/// the cell literals of each digit in each group of `n` cells, one set after
/// another. A set with a literal the reduction fixed true is left out (it is
/// decided); literals fixed false are dropped. Empty for other digit encodings.
///
/// Each set keeps a number that counts its literals not false, plus
/// [`TRUE_WEIGHT`] for each true one, updated as variables are assigned and
/// unassigned: finding the smallest open set at a node is finding the
/// smallest number, one per set, not reading every literal.
struct Branches {
    lits: Vec<Lit>,
    /// Where each set ends in `lits`; it starts where the one before ends.
    ends: Vec<u32>,
    /// The sets each variable's positive literal is in.
    sets_of: Csr<u32>,
    /// Per set: literals not false, plus [`TRUE_WEIGHT`] per true literal.
    /// Sixteen bits, so that the smallest is found eight sets at a time.
    weight: Vec<u16>,
}

/// Above the size of any set (at most 64 cells or digits), so that a set
/// with a true literal weighs more than every open set; a set of 64 true
/// literals still fits in 16 bits.
const TRUE_WEIGHT: u16 = 1 << 8;

impl Branches {
    fn new(puzzle: &Puzzle, encoded: &Encoded) -> Branches {
        let vars = &encoded.vars;
        let (mut lits, mut ends) = (Vec::new(), Vec::new());
        if vars.digits() == DigitEncoding::Direct {
            let n = puzzle.side();
            let digits = || 1..=n as Digit;
            let cells = puzzle.cells().map(|cell| digits().map(move |d| (cell, d)).collect::<Vec<_>>());
            let full = puzzle.groups().iter().filter(|g| g.cells.len() == n);
            let in_groups = full.flat_map(|g| digits().map(|d| g.cells.iter().map(|&cell| (cell, d)).collect()));
            'sets: for set in cells.chain(in_groups) {
                let start = lits.len();
                for (cell, d) in set {
                    match vars.slot(vars.var(cell, d)) {
                        Slot::Fixed(true) => {
                            lits.truncate(start);
                            continue 'sets;
                        }
                        Slot::Fixed(false) => {}
                        Slot::Var(var) => lits.push(var.positive()),
                    }
                }
                ends.push(lits.len() as u32);
            }
        }
        let ranges = || {
            let starts = std::iter::once(0).chain(ends.iter().copied());
            starts.zip(&ends).map(|(start, &end)| start as usize..end as usize)
        };
        let in_set =
            |(set, range): (usize, std::ops::Range<usize>)| lits[range].iter().map(move |l| (l.index(), set as u32));
        let sets_of = Csr::new(encoded.formula.var_count(), || ranges().enumerate().flat_map(in_set));
        let weight = ranges().map(|range| range.len() as u16).collect();
        Branches { lits, ends, sets_of, weight }
    }

    fn set(&self, set: usize) -> &[Lit] {
        let start = if set == 0 { 0 } else { self.ends[set - 1] as usize };
        &self.lits[start..self.ends[set] as usize]
    }

    fn became_true(&mut self, lit: Lit) {
        let change = Branches::change(lit);
        for &set in self.sets_of.of(lit.index()) {
            self.weight[set as usize] = self.weight[set as usize].wrapping_add(change);
        }
    }

    fn reopened(&mut self, lit: Lit) {
        let change = Branches::change(lit);
        for &set in self.sets_of.of(lit.index()) {
            self.weight[set as usize] = self.weight[set as usize].wrapping_sub(change);
        }
    }

    /// What `lit` becoming true adds to the weight of its variable's sets:
    /// a true variable stays counted as open and adds [`TRUE_WEIGHT`] on
    /// top; a false one is one open literal fewer.
    fn change(lit: Lit) -> u16 {
        if lit.is_positive() {
            TRUE_WEIGHT
        } else {
            1u16.wrapping_neg()
        }
    }

    /// The first set with no true literal and the fewest open ones, or
    /// `None` when every set has a true literal.
    fn smallest_open(&self) -> Option<usize> {
        // Two passes, the first without branches: the smallest weight,
        // then where it first is.
        let least = self.weight.iter().fold(u16::MAX, |least, &w| least.min(w));
        (least < TRUE_WEIGHT).then(|| self.weight.iter().position(|&w| w == least).expect("the minimum is there"))
    }
}

/// The watch lists: for each literal code, the clauses that watch it, in
/// one array. A clause is in a literal's list only if it holds the literal,
/// once, so each literal gets a fixed region as long as the number of
/// clauses that hold it, and a watch moves without allocating.
struct Watches {
    /// Where each literal's region starts; it ends where the next starts.
    starts: Vec<u32>,
    /// How much of each region is in use.
    lens: Vec<u32>,
    list: Vec<Watch>,
}

/// A clause watching a literal, and another literal of the clause (its other
/// watch when the watch was set, or the last one found true there): while
/// that one is true, the clause is satisfied.
#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: Lit,
}

impl Watches {
    /// Each clause (start and length in `lits`, at least two distinct
    /// literals) watching its first two literals.
    fn new(codes: usize, lits: &[Lit], clauses: &[(u32, u32)]) -> Watches {
        let held = clauses.iter().flat_map(|&(start, len)| &lits[start as usize..(start + len) as usize]);
        let starts = starts_of(codes, held.map(|lit| lit.code()));
        let none = Watch { clause: 0, blocker: Lit::from_index(0, true) };
        let mut watches = Watches { list: vec![none; starts[codes] as usize], starts, lens: vec![0; codes] };
        for (index, &(start, _)) in clauses.iter().enumerate() {
            let (a, b) = (lits[start as usize], lits[start as usize + 1]);
            watches.push(a.code(), Watch { clause: index as u32, blocker: b });
            watches.push(b.code(), Watch { clause: index as u32, blocker: a });
        }
        watches
    }

    /// Where `code`'s watches are in `list`.
    fn region(&self, code: usize) -> (usize, usize) {
        let start = self.starts[code] as usize;
        (start, start + self.lens[code] as usize)
    }

    /// Keeps `code`'s watches up to `end` in `list`.
    fn set_end(&mut self, code: usize, end: usize) {
        self.lens[code] = (end - self.starts[code] as usize) as u32;
    }

    fn push(&mut self, code: usize, watch: Watch) {
        let at = self.starts[code] + self.lens[code];
        debug_assert!(at < self.starts[code + 1], "a clause watches a literal it does not hold, or twice");
        self.list[at as usize] = watch;
        self.lens[code] += 1;
    }
}

/// Where each key's region starts in an array holding, key after key, one
/// slot per occurrence of the key in `keys` (below `count`); one more
/// start at the end.
fn starts_of(count: usize, keys: impl Iterator<Item = usize>) -> Vec<u32> {
    let mut starts = vec![0u32; count + 1];
    for key in keys {
        starts[key + 1] += 1;
    }
    for key in 0..count {
        starts[key + 1] += starts[key];
    }
    starts
}

/// Items grouped by a key `0..keys`, all in one array (compressed rows).
struct Csr<T> {
    starts: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Csr<T> {
    /// From the `(key, item)` pairs `pairs` yields, each key's items in the
    /// order given. They are read twice, to count and to place, rather than
    /// collected first (a list of pairs is four times the result's size).
    fn new<I: Iterator<Item = (usize, T)>>(keys: usize, pairs: impl Fn() -> I) -> Csr<T> {
        let starts = starts_of(keys, pairs().map(|(key, _)| key));
        let mut next = starts.clone();
        // Every slot is overwritten below; any item will do to fill them first.
        let mut items = pairs().next().map_or(Vec::new(), |(_, any)| vec![any; starts[keys] as usize]);
        for (key, item) in pairs() {
            items[next[key] as usize] = item;
            next[key] += 1;
        }
        Csr { starts, items }
    }

    /// Keeps the first of each key's items with the same `code_of`, a
    /// number below `codes`.
    fn dedup(&mut self, codes: usize, code_of: impl Fn(T) -> usize) {
        // The key that last kept an item with each code.
        let mut kept_by = vec![usize::MAX; codes];
        let mut kept = 0;
        for key in 0..self.starts.len() - 1 {
            let range = self.range(key); // before its start moves down
            self.starts[key] = kept as u32;
            for i in range {
                let item = self.items[i];
                if std::mem::replace(&mut kept_by[code_of(item)], key) != key {
                    self.items[kept] = item;
                    kept += 1;
                }
            }
        }
        *self.starts.last_mut().expect("keys + 1 starts") = kept as u32;
        self.items.truncate(kept);
    }

    fn range(&self, key: usize) -> std::ops::Range<usize> {
        self.starts[key] as usize..self.starts[key + 1] as usize
    }

    fn of(&self, key: usize) -> &[T] {
        &self.items[self.range(key)]
    }
}

const NO_CELL: u32 = u32::MAX;

/// The cell of each variable that is one digit of one cell (direct digits),
/// [`NO_CELL`] for the others.
fn cell_of(encoded: &Encoded) -> Vec<u32> {
    let vars = &encoded.vars;
    let mut cell_of = vec![NO_CELL; encoded.formula.var_count()];
    if vars.digits() == DigitEncoding::Direct {
        let n = vars.side();
        for (index, (r, c)) in itertools::iproduct!(0..n, 0..n).enumerate() {
            for d in 1..=n as Digit {
                if let Slot::Var(var) = vars.slot(vars.var(Cell::new(r, c), d)) {
                    cell_of[var.index()] = index as u32;
                }
            }
        }
    }
    cell_of
}

/// Sorts `lits` by code and moves the distinct ones to the front; their count.
fn sort_and_dedup(lits: &mut [Lit]) -> usize {
    lits.sort_unstable_by_key(|l| l.code());
    let mut len = 0;
    for i in 0..lits.len() {
        if len == 0 || lits[i] != lits[len - 1] {
            lits[len] = lits[i];
            len += 1;
        }
    }
    len
}

impl Engine for Enumerate<'_> {
    fn start_cube(&mut self, cube: &[Lit]) -> Result<(), CountError> {
        self.restrict_to(cube);
        Ok(())
    }

    /// The search frontier: for each frame of the stack, its options not yet
    /// taken, each after the cube and the options taken above it. Every
    /// model of the cube is either already returned or in exactly one of these.
    fn remaining(&self) -> Option<Vec<Cube>> {
        if self.unsat || self.cube_conflict {
            return Some(Vec::new());
        }
        if !self.started {
            return Some(vec![self.cube.clone()]);
        }
        let mut path = self.cube.clone();
        let mut cubes = Vec::new();
        for frame in &self.stack {
            for &option in &frame.options[frame.next..] {
                let mut cube = path.clone();
                cube.push(option);
                cubes.push(cube);
            }
            path.extend(frame.taken());
        }
        Some(cubes)
    }

    fn step(&mut self) -> Result<Option<Grid>, CountError> {
        self.next_model()
    }

    fn stats(&self) -> SearchStats {
        SearchStats {
            sat_calls: self.sat_calls,
            decisions: Some(self.decisions),
            conflicts: Some(self.conflicts),
            derived_clauses: Some(self.derived),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use super::*;
    use crate::encode::relation::RelationEncoding;
    use crate::encode::{encode, Encoding};
    use crate::model::Predicate;

    /// (0,0) + (0,1) > 10 with a 9 given at (0,2): the row takes 9 from (0,1),
    /// which leaves digit 2 of (0,0) without support (2 + j > 10 needs j = 9).
    /// Arc consistency removes it at level 0; forward checking alone (the
    /// forbidden-pairs clauses) would not. Digit 3 keeps its support 8.
    #[test]
    fn derived_supports_give_arc_consistency_on_forbidden_pairs() {
        let mut puzzle = Puzzle::sudoku(3, 3).unwrap();
        let (a, b) = (Cell::new(0, 0), Cell::new(0, 1));
        puzzle.add_relation(a, b, Predicate::Sum { cmp: Ordering::Greater, target: 10 }).unwrap();
        puzzle.set_given(Cell::new(0, 2), 9).unwrap();
        for relation in RelationEncoding::ALL {
            let encoded = encode(&puzzle, &Encoding { relation, ..Encoding::default() });
            let engine = Enumerate::new(&puzzle, &encoded);
            let value = |d| engine.state.var_value(encoded.vars.var(a, d));
            assert_eq!(value(1), Some(false), "{relation:?}: 1 + j > 10 has no support at all");
            assert_eq!(value(2), Some(false), "{relation:?}: the support of 2 is gone");
            assert_eq!(value(3), None, "{relation:?}: 3 still has the support 8");
            let derived = engine.stats().derived_clauses.unwrap();
            assert_eq!(derived > 0, relation == RelationEncoding::ForbiddenPairs, "{relation:?}");
        }
    }

    /// cnf-samples/many.lp: 117 solutions, confirmed by the oracle in tests/samples.rs.
    fn many() -> Puzzle {
        let text = std::fs::read_to_string("cnf-samples/many.lp").unwrap();
        crate::parse::parse(&text, "many.lp", None).unwrap()
    }

    /// Stopped after `k` models, the engine's frontier holds exactly the
    /// models it has not returned: counted cube by cube on a fresh engine,
    /// they add up with the `k` to the recorded count of many.lp (117,
    /// confirmed by the oracle in tests/samples.rs).
    #[test]
    fn the_frontier_after_a_stop_holds_exactly_the_models_not_yet_found() {
        let puzzle = many();
        for relation in [RelationEncoding::ForbiddenPairs, RelationEncoding::Support] {
            let encoded = encode(&puzzle, &Encoding { relation, ..Encoding::default() });
            for k in [0, 1, 2, 30, 116, 117] {
                let stop = AtomicBool::new(false);
                let mut engine = Enumerate::new(&puzzle, &encoded).stop_when(&stop);
                engine.start_cube(&[]).unwrap();
                let mut found = 0u128;
                while found < k && engine.step().unwrap().is_some() {
                    found += 1;
                }
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                while engine.step().unwrap().is_some() {
                    found += 1; // models met before the next look at the flag
                }
                let cubes = engine.remaining().unwrap();
                let mut rest = Enumerate::new(&puzzle, &encoded);
                for cube in &cubes {
                    rest.start_cube(cube).unwrap();
                    while rest.step().unwrap().is_some() {
                        found += 1;
                    }
                }
                assert_eq!(found, 117, "{relation:?}, stopped after {k}: {} cubes", cubes.len());
            }
        }
    }

    /// Asked for work before every model, the engine gives part of its
    /// cube to the pool many times, and takes the given cubes back one by
    /// one until the pool is empty; it finds the 117 grids of many.lp
    /// (confirmed by the oracle in tests/samples.rs), each exactly once.
    #[test]
    fn work_given_away_and_taken_back_holds_every_model_once() {
        let puzzle = many();
        for digits in [DigitEncoding::Direct, DigitEncoding::Order] {
            let encoded = encode(&puzzle, &Encoding { digits, ..Encoding::default() });
            let (pool, never) = (Pool::new(vec![Vec::new()]), AtomicBool::new(false));
            let mut engine = Enumerate::new(&puzzle, &encoded).share_with(&pool);
            let (mut cubes, mut grids) = (0, Vec::new());
            while let Some(cube) = pool.take(cubes > 0, &never) {
                cubes += 1;
                engine.start_cube(&cube).unwrap();
                pool.want();
                while let Some(grid) = engine.step().unwrap() {
                    grids.push(grid);
                    pool.want();
                }
            }
            assert!(cubes > 10, "{digits:?}: only {cubes} cubes");
            let distinct: std::collections::HashSet<_> = grids.iter().collect();
            assert_eq!((grids.len(), distinct.len()), (117, 117), "{digits:?}");
        }
    }
}
