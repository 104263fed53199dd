//! The grid engine: the plan's engine for puzzles made only of
//! all-different groups, givens, cells' allowed digits and pairs of cells
//! with different digits (classic Sudoku of any box shape, jigsaw, Latin
//! squares, diagonals, windoku, odd and even cells, anti-knight and
//! anti-king, the band puzzles of a count by bands), where a search needs
//! no learning and its time is all propagation. Asked for, it also counts
//! relations of any other kind between two cells (nonconsecutive, Kropki
//! dots, thermometer steps, tables of allowed pairs), each propagated from
//! a cell's one digit left through a table of the digits it rules out of
//! the other cell; a count by bands moved onto bands asks for it on its
//! bands, whose rules are such tables (`count::burnside`), and a count by
//! a box's orbits on each orbit's completions (`count::box_orbits`).
//!
//! Each cell keeps its candidates as a bitset of digits, and on grids of
//! up to 128 cells each digit also keeps the cells it may go in as one
//! word. A cell left with one digit removes it from every cell that shares
//! a group with it (a naked single), those that still hold it found from
//! its peers' word and the digit's, not looked for; a digit left
//! with one cell in a full group (one of
//! `side` cells) goes there (a hidden single), and a digit with none in
//! such a group, or a cell with no digit, is a conflict. That is what the
//! enum engine's branch sets propagate on the CNF, done on words instead
//! of literals, clauses and set weights: much the same searches, two to
//! two and a half times as fast (bench/results/design-notes.md). The search branches on a
//! cell with the fewest candidates, one digit after another, each child a
//! copy of its parent's candidates. It counts the cells still open: a node
//! with none is a solution as soon as its naked singles are removed; while
//! conflicts are rare (a count of many solutions), hidden singles are
//! looked for only while more than `side` cells are open, below which they
//! cost more than the decisions they save.
//!
//! It speaks the engines' language ([`Engine`]): cubes are literals of the
//! direct encoding (the givens of a prepared layout's puzzles, the options
//! it gives to a waiting worker, the frontier it leaves when it stops), and
//! every model is a grid that the driver checks with the independent
//! checker, as for every engine.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use varisat::Lit;

use super::csr::Csr;
use super::halt::Halt;
use super::pool::Pool;
use super::{CountError, Cube, Engine, SearchStats};
use crate::encode::{DigitEncoding, Encoded, Slot};
use crate::model::{table_allows, Cell, Constraint, Digit, Grid, Predicate, Puzzle};

/// The largest side the engine takes: a cell's candidates fit in 32 bits.
/// Larger grids go to the enum engine.
pub const MAX_SIDE: usize = 32;

/// The most full groups the engine looks for hidden singles in.
const MAX_UNITS: usize = 128;

/// How often (in decisions) the search looks at the stop flag, the
/// deadline, the budget and the pool, and weighs its conflicts.
const CHECK_INTERVAL: u64 = 16;

/// Conflicts are rare below one in this many decisions (see
/// `GridSearch::rare_conflicts`).
const RARE_CONFLICTS: u64 = 8;

/// Why the grid engine cannot count `puzzle` with `digits` encoded, if it
/// cannot. It counts relations of any kind; the plan picks it by itself
/// only where every relation says "different digits" ([`plain`]).
pub fn unfit(puzzle: &Puzzle, digits: DigitEncoding) -> Option<String> {
    let side = puzzle.side();
    if digits != DigitEncoding::Direct {
        Some(format!("it needs the direct digit encoding, not {digits}"))
    } else if side > MAX_SIDE {
        Some(format!("it takes grids up to {MAX_SIDE} x {MAX_SIDE}, not {side} x {side}"))
    } else if puzzle.digits() != side {
        Some("it needs the digits 1 to the grid side in each cell".to_owned())
    } else if puzzle.constraints().iter().any(|c| !matches!(c, Constraint::Digits { .. } | Constraint::Table { .. })) {
        Some(
            "it counts only puzzles made of all-different groups, givens, cells' allowed digits and \
             relations between two cells, and this one has other rules (`--engine enum` counts them)"
                .to_owned(),
        )
    } else {
        None
    }
}

/// Whether every relation of `puzzle` says "different digits" (anti-knight,
/// anti-king), with no table of allowed pairs: the puzzles the plan gives
/// the grid engine unasked. Other relations (nonconsecutive, Kropki dots,
/// thermometers, tables of pairs) it counts when asked (`--engine grid`,
/// or a count by bands moved onto bands), propagating them only from
/// placed digits, as unit propagation does on their forbidden pairs; the
/// enum engine, which also learns, stays the default for them.
pub fn plain(puzzle: &Puzzle) -> bool {
    puzzle.relations().iter().all(|r| r.predicate == Predicate::NotEqual)
        && !puzzle.constraints().iter().any(|c| matches!(c, Constraint::Table { .. }))
}

/// One branch point: the cell, the digit being tried (whose subtree is
/// below), the digits still to try, and the node's open cells.
#[derive(Clone, Copy, Debug)]
struct Frame {
    cell: u32,
    taken: u32,
    rest: u32,
    open: usize,
}

/// The grid engine on one puzzle (see the module doc).
pub struct GridSearch<'a> {
    side: usize,
    cells: usize,
    /// Every digit of the grid.
    all: u32,
    /// The other cells that share a group with each cell, or must differ
    /// from it.
    peers: Csr<u32>,
    /// The cells another relation ties each cell to, each with its table
    /// in `tables`.
    links: Csr<(u32, u32)>,
    /// Per table, per digit index of a cell, the digits its linked cell
    /// may not hold.
    tables: Vec<[u32; MAX_SIDE]>,
    /// The full groups' cells, `side` a group, one group after another.
    units: Vec<u32>,
    /// The full groups each cell is in, one bit a group.
    units_of: Vec<u128>,
    /// Full groups to look for hidden singles in: those whose cells lost
    /// candidates since they were last looked at.
    dirty: u128,
    /// For each variable of the formula that says "cell holds digit", the
    /// cell times the side plus the digit minus one; `u32::MAX` for others.
    code_of_var: Vec<u32>,
    /// The inverse: the literal of each cell and digit (for cubes).
    lit_of: Vec<Option<Lit>>,
    /// The candidates of the puzzle before any cube: its givens and what
    /// the encoding fixed.
    root: Vec<u32>,
    /// Candidates, `cells` a node, one node per depth of the search.
    states: Vec<u32>,
    /// On grids of at most 128 cells, each cell's peers as one word, and
    /// per node, `side` words a node: the cells each digit is still a
    /// candidate of. A placed digit is then taken only from the peers that
    /// still hold it, found in two words, not looked for among all of them
    /// (bench/results/design-notes.md).
    peer_masks: Vec<u128>,
    has: Vec<u128>,
    /// The cells with more than one candidate, counted for the node
    /// being propagated: at none, once the naked singles are removed, the
    /// node is a solution (every group's digits then differ), with no
    /// group to look at and no cell to choose.
    open: usize,
    /// Conflicts are rare: hidden singles are then looked for only while
    /// more than a group's worth of cells (`side`) is open, as in a count
    /// of many solutions, where near the leaves the scans cost more than
    /// the decisions they save; while conflicts are frequent, as in a
    /// search for one solution, they are looked for at every node
    /// (bench/results/design-notes.md).
    rare_conflicts: bool,
    stack: Vec<Frame>,
    cube: Cube,
    /// The last model found, written in place.
    model: Grid,
    /// The current cube has no model (found while it was set).
    dead: bool,
    started: bool,
    /// Cells left with one candidate, not yet removed from their peers.
    queue: Vec<u32>,
    /// The stop flag, the deadline and the decision budget, and whether
    /// the last step stopped at one of them.
    halt: Halt<'a>,
    pool: Option<&'a Pool>,
    decisions: u64,
    conflicts: u64,
}

/// Takes `cell` from the cells of each digit of `out` in `has` (empty on
/// grids past 128 cells, which keep no such words).
fn forget(has: &mut [u128], cell: u32, mut out: u32) {
    if has.is_empty() {
        return;
    }
    while out != 0 {
        has[out.trailing_zeros() as usize] &= !(1u128 << cell);
        out &= out - 1;
    }
}

impl<'a> GridSearch<'a> {
    /// The engine for `puzzle` (for which [`unfit`] says nothing) on
    /// `encoded`, its direct encoding; its givens are part of the root.
    pub fn new(puzzle: &Puzzle, encoded: &Encoded) -> GridSearch<'a> {
        debug_assert!(unfit(puzzle, encoded.vars.digits()).is_none());
        let side = puzzle.side();
        let cells = side * side;
        let index = |cell: Cell| (cell.row * side + cell.col) as u32;
        let mut neighbours: Vec<Vec<u32>> = vec![Vec::new(); cells];
        let mut units = Vec::new();
        for group in puzzle.groups() {
            let members: Vec<u32> = group.cells.iter().map(|&c| index(c)).collect();
            for &a in &members {
                neighbours[a as usize].extend(members.iter().copied().filter(|&b| b != a));
            }
            if members.len() == side {
                units.extend_from_slice(&members);
            }
        }
        // Two cells whose digits differ (anti-knight, anti-king) are peers;
        // other relations are links, each way with the table of the digits
        // a digit rules out of the other cell (the model relates two
        // different cells only).
        let mut tables: Vec<[u32; MAX_SIDE]> = Vec::new();
        let mut links: Vec<(usize, (u32, u32))> = Vec::new();
        // Relations, and tables of allowed pairs (two different cells: the
        // model refuses a table that lists a cell twice), as (a, b, whether
        // it says "different digits", which pairs of digits it allows).
        let relations = puzzle.relations().iter().map(|relation| {
            let allows: Box<dyn Fn(usize, usize) -> bool> =
                Box::new(|x, y| relation.predicate.allows(x as Digit, y as Digit));
            (relation.a, relation.b, relation.predicate == Predicate::NotEqual, allows)
        });
        let pair_tables = puzzle.constraints().iter().filter_map(|constraint| match constraint {
            Constraint::Table { a, b, allowed } => {
                let allows: Box<dyn Fn(usize, usize) -> bool> =
                    Box::new(|x, y| table_allows(allowed, x as Digit, y as Digit));
                Some((*a, *b, false, allows))
            }
            _ => None,
        });
        for (a, b, different, allows) in relations.chain(pair_tables) {
            let (a, b) = (index(a), index(b));
            if different {
                neighbours[a as usize].push(b);
                neighbours[b as usize].push(a);
            } else {
                let (mut from_a, mut from_b) = ([0u32; MAX_SIDE], [0u32; MAX_SIDE]);
                for (x, y) in (1..=side).flat_map(|x| (1..=side).map(move |y| (x, y))) {
                    if !allows(x, y) {
                        from_a[x - 1] |= 1 << (y - 1);
                        from_b[y - 1] |= 1 << (x - 1);
                    }
                }
                let mut table_of = |table: [u32; MAX_SIDE]| match tables.iter().position(|t| *t == table) {
                    Some(at) => at as u32,
                    None => {
                        tables.push(table);
                        tables.len() as u32 - 1
                    }
                };
                links.push((a as usize, (b, table_of(from_a))));
                links.push((b as usize, (a, table_of(from_b))));
            }
        }
        let links = Csr::new(cells, || links.iter().copied());
        for list in &mut neighbours {
            list.sort_unstable();
            list.dedup();
        }
        let peers =
            Csr::new(cells, || neighbours.iter().enumerate().flat_map(|(a, list)| list.iter().map(move |&b| (a, b))));
        let peer_masks = if cells <= 128 {
            neighbours.iter().map(|list| list.iter().fold(0u128, |mask, &b| mask | 1 << b)).collect()
        } else {
            Vec::new()
        };
        // Hidden singles are looked for in the first 128 full groups (a
        // 32 x 32 grid has 96 lines and boxes); the others still remove
        // each placed digit from their cells.
        units.truncate(MAX_UNITS * side);
        let mut units_of = vec![0u128; cells];
        for (at, &cell) in units.iter().enumerate() {
            units_of[cell as usize] |= 1 << (at / side);
        }
        let all = if side == 32 { u32::MAX } else { (1u32 << side) - 1 };
        let mut root = vec![all; cells];
        let mut code_of_var = vec![u32::MAX; encoded.formula.var_count()];
        let mut lit_of = vec![None; cells * side];
        for cell in puzzle.cells() {
            for digit in 1..=side as Digit {
                let code = index(cell) as usize * side + usize::from(digit) - 1;
                let bit = 1u32 << (digit - 1);
                match encoded.vars.slot(encoded.vars.var(cell, digit)) {
                    Slot::Var(var) => {
                        code_of_var[var.index()] = code as u32;
                        lit_of[code] = Some(var.positive());
                    }
                    Slot::Fixed(true) => root[index(cell) as usize] &= bit,
                    Slot::Fixed(false) => root[index(cell) as usize] &= !bit,
                }
            }
            if let Some(digit) = puzzle.given(cell) {
                root[index(cell) as usize] &= 1u32 << (digit - 1);
            }
        }
        for constraint in puzzle.constraints() {
            if let Constraint::Digits { cell, allowed } = *constraint {
                // Digits above the side are no digits of the grid.
                root[index(cell) as usize] &= allowed as u32;
            }
        }
        GridSearch {
            side,
            cells,
            all,
            peers,
            links,
            tables,
            units,
            units_of,
            dirty: 0,
            code_of_var,
            lit_of,
            root,
            states: Vec::new(),
            peer_masks,
            has: Vec::new(),
            open: 0,
            rare_conflicts: false,
            stack: Vec::new(),
            cube: Vec::new(),
            model: Grid::new(side, vec![0; cells]).expect("side x side digits"),
            dead: true,
            started: false,
            queue: Vec::new(),
            halt: Halt::default(),
            pool: None,
            decisions: 0,
            conflicts: 0,
        }
    }

    /// Makes [`Engine::step`] return `None` soon after `stop` is set.
    pub fn stop_when(mut self, stop: &'a AtomicBool) -> GridSearch<'a> {
        self.halt.stop = Some(stop);
        self
    }

    /// Gives part of the search to `pool` when a worker waits there.
    pub fn share_with(mut self, pool: &'a Pool) -> GridSearch<'a> {
        self.pool = Some(pool);
        self
    }

    /// Makes [`Engine::step`] return `None` soon after `deadline` or once
    /// `decisions` decisions are made in all, with the search left where
    /// it was (as [`super::enumerate::Enumerate::halt_at`]).
    pub fn halt_at(&mut self, deadline: Option<Instant>, decisions: Option<u64>) {
        self.halt.deadline = deadline;
        self.halt.budget = decisions;
    }

    fn stopped(&self) -> bool {
        self.halt.due(self.decisions)
    }

    /// The candidates of the node at `depth`.
    fn node(&mut self, depth: usize) -> &mut [u32] {
        let end = (depth + 1) * self.cells;
        if self.states.len() < end {
            self.states.resize(end, 0);
            if !self.peer_masks.is_empty() {
                self.has.resize((depth + 1) * self.side, 0);
            }
        }
        &mut self.states[depth * self.cells..end]
    }

    /// Removes the digit of each queued cell from its peers, and places the
    /// hidden singles of the full groups whose cells lost candidates, until
    /// nothing changes; false on a conflict. The groups of each queued cell
    /// must be marked dirty already. `RARE`: conflicts are rare, so hidden
    /// singles are looked for only while more than `side` cells are open
    /// (two copies of the function, so that neither tests at run time).
    fn propagate<const RARE: bool>(&mut self, depth: usize) -> bool {
        let (cells, all, side) = (self.cells, self.all, self.side);
        let node = &mut self.states[depth * cells..(depth + 1) * cells];
        let masked = !self.peer_masks.is_empty();
        let has: &mut [u128] = if masked { &mut self.has[depth * side..(depth + 1) * side] } else { &mut [] };
        let units_of = &self.units_of;
        let mut dirty = self.dirty;
        // Kept in registers, written back when it ends well.
        let mut open = self.open;
        let scan_above = if RARE { side } else { 0 };
        loop {
            while let Some(cell) = self.queue.pop() {
                let bit = node[cell as usize];
                let digit = bit.trailing_zeros() as usize;
                let queue = &mut self.queue;
                // Takes `out`, digits `other` holds, from it: false when
                // none is left.
                let mut cut = |node: &mut [u32], has: &mut [u128], other: u32, out: u32| {
                    let after = node[other as usize] ^ out;
                    node[other as usize] = after;
                    forget(has, other, out);
                    dirty |= units_of[other as usize];
                    if after & after.wrapping_sub(1) == 0 {
                        if after == 0 {
                            return false;
                        }
                        queue.push(other);
                        open -= 1;
                    }
                    true
                };
                let consistent = 'cuts: {
                    if masked {
                        // The peers that hold the digit lose it from its
                        // word at once (so the cuts need not).
                        let mut hits = self.peer_masks[cell as usize] & has[digit];
                        has[digit] &= !hits;
                        while hits != 0 {
                            let peer = hits.trailing_zeros();
                            hits &= hits - 1;
                            if !cut(node, &mut [], peer, bit) {
                                break 'cuts false;
                            }
                        }
                    } else {
                        for &peer in self.peers.of(cell as usize) {
                            let out = node[peer as usize] & bit;
                            if out != 0 && !cut(node, has, peer, out) {
                                break 'cuts false;
                            }
                        }
                    }
                    for &(other, table) in self.links.of(cell as usize) {
                        let out = node[other as usize] & self.tables[table as usize][digit];
                        if out != 0 && !cut(node, has, other, out) {
                            break 'cuts false;
                        }
                    }
                    true
                };
                if !consistent {
                    self.queue.clear();
                    self.dirty = 0;
                    return false;
                }
            }
            // The naked singles alone end at solutions only; hidden singles
            // prune (see `rare_conflicts`).
            if dirty == 0 || open <= scan_above {
                self.dirty = 0;
                self.open = open;
                return true;
            }
            let unit_index = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let unit = &self.units[unit_index * side..(unit_index + 1) * side];
            let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
            for &cell in unit {
                let m = node[cell as usize];
                twice |= once & m;
                once |= m;
                if m & m.wrapping_sub(1) == 0 {
                    placed |= m;
                }
            }
            if once != all {
                self.queue.clear();
                self.dirty = 0;
                return false;
            }
            let mut singles = once & !twice & !placed;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                // Gone if another hidden single took its one cell.
                let Some(&cell) = unit.iter().find(|&&c| node[c as usize] & bit != 0) else {
                    self.queue.clear();
                    self.dirty = 0;
                    return false;
                };
                forget(has, cell, node[cell as usize] & !bit);
                node[cell as usize] = bit;
                dirty |= units_of[cell as usize];
                self.queue.push(cell);
                open -= 1;
            }
        }
    }

    /// The node below `depth`: its candidates with `cell` set to the
    /// digit of `bit`, queued for propagation.
    fn child(&mut self, depth: usize, cell: u32, bit: u32) {
        let cells = self.cells;
        self.node(depth + 1);
        let (parent, child) = self.states.split_at_mut((depth + 1) * cells);
        child[..cells].copy_from_slice(&parent[depth * cells..]);
        let out = child[cell as usize] & !bit;
        child[cell as usize] = bit;
        if !self.peer_masks.is_empty() {
            let side = self.side;
            let (parent, child) = self.has.split_at_mut((depth + 1) * side);
            child[..side].copy_from_slice(&parent[depth * side..]);
            forget(&mut child[..side], cell, out);
        }
        self.queue.push(cell);
        self.dirty |= self.units_of[cell as usize];
    }

    /// Knuth's estimate of the number of solutions (D. E. Knuth,
    /// "Estimating the efficiency of backtrack programs", Math. Comp. 29,
    /// 1975): `dives` paths from the root, each taking a candidate of the
    /// cell the search would branch on at random, weighed by the product
    /// of the candidates it chose among, 0 where it meets a conflict; their
    /// mean. Unbiased, and the same for the same `seed` on every machine;
    /// its spread is wide (a few times either way on a Sudoku's), so it
    /// only weighs methods, never counts. The engine is left as
    /// [`Engine::start_cube`] of no literal leaves it.
    pub fn estimate(&mut self, dives: u32, seed: u64) -> f64 {
        use rand::{Rng, SeedableRng};
        if self.start_cube(&[]).is_err() || self.dead || dives == 0 {
            return 0.0;
        }
        let (cells, root_open) = (self.cells, self.open);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut sum = 0.0;
        for _ in 0..dives {
            let (mut depth, mut weight) = (0, 1.0);
            self.open = root_open;
            loop {
                if self.open == 0 {
                    sum += weight;
                    break;
                }
                let Some(cell) = self.choose(depth) else { break };
                let mut rest = self.states[depth * cells + cell as usize];
                weight *= f64::from(rest.count_ones());
                for _ in 0..rng.gen_range(0..rest.count_ones()) {
                    rest &= rest - 1;
                }
                self.child(depth, cell, rest & rest.wrapping_neg());
                self.open -= 1;
                depth += 1;
                if !self.propagate::<false>(depth) {
                    break;
                }
            }
        }
        // The paths wrote only the nodes below the root; a propagation
        // leaves no queue and no dirty group behind.
        self.open = root_open;
        sum / f64::from(dives)
    }

    /// The open cell with the fewest candidates at `depth`, `None` when
    /// every cell has one.
    fn choose(&self, depth: usize) -> Option<u32> {
        let node = &self.states[depth * self.cells..(depth + 1) * self.cells];
        let mut best = (u32::MAX, 0);
        for (cell, &m) in node.iter().enumerate() {
            // Tested with bit tricks first: a population count takes
            // dozens of instructions on the baseline x86-64 target.
            let rest = m & m.wrapping_sub(1);
            if rest == 0 {
                continue; // one candidate
            }
            if rest & rest.wrapping_sub(1) == 0 {
                return Some(cell as u32); // two, the fewest an open cell has
            }
            let count = m.count_ones();
            if count < best.0 {
                best = (count, cell as u32);
            }
        }
        (best.0 != u32::MAX).then_some(best.1)
    }

    /// Writes the grid of the node at `depth` (every cell placed) into
    /// `self.model`.
    fn grid(&mut self, depth: usize) {
        let node = &self.states[depth * self.cells..(depth + 1) * self.cells];
        for (digit, &m) in self.model.digits_mut().iter_mut().zip(node) {
            *digit = m.trailing_zeros() as Digit + 1;
        }
    }

    /// The literal that says `cell` holds the digit of `bit`.
    fn lit(&self, cell: u32, bit: u32) -> Lit {
        let code = cell as usize * self.side + bit.trailing_zeros() as usize;
        self.lit_of[code].expect("an open candidate has a variable")
    }

    /// Gives `pool` the digits not yet tried at the shallowest frame that
    /// has any, each as a cube (the cube, the digits taken above, then the
    /// option); they leave the frame.
    fn give_work(&mut self, pool: &Pool) {
        let Some(level) = self.stack.iter().position(|frame| frame.rest != 0) else { return };
        let mut path = self.cube.clone();
        path.extend(self.stack[..level].iter().map(|frame| self.lit(frame.cell, frame.taken)));
        let frame = &mut self.stack[level];
        let (cell, mut rest) = (frame.cell, std::mem::take(&mut frame.rest));
        let mut cubes = Vec::new();
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            let mut cube = path.clone();
            cube.push(self.lit(cell, bit));
            cubes.push(cube);
        }
        pool.give(cubes);
    }

    /// The search frontier: for each frame, its digits not yet tried, each
    /// after the cube and the digits taken above it.
    pub fn frontier(&self) -> Vec<Cube> {
        if self.dead {
            return Vec::new();
        }
        if !self.started {
            return vec![self.cube.clone()];
        }
        let mut path = self.cube.clone();
        let mut cubes = Vec::new();
        for frame in &self.stack {
            let mut rest = frame.rest;
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                rest ^= bit;
                let mut cube = path.clone();
                cube.push(self.lit(frame.cell, bit));
                cubes.push(cube);
            }
            // The top frame may have taken no digit yet (the search
            // stopped before its first): nothing below it to reach.
            if frame.taken != 0 {
                path.push(self.lit(frame.cell, frame.taken));
            }
        }
        cubes
    }

    /// Finds the next model, written into `self.model`; false when there
    /// are no more (or the search stopped).
    fn next_model(&mut self) -> bool {
        self.halt.halted = false;
        if self.dead {
            return false;
        }
        if !self.started {
            self.started = true;
            if self.descend(0) {
                return true;
            }
        }
        while let Some(frame) = self.stack.last() {
            if frame.rest == 0 {
                self.stack.pop();
                continue;
            }
            if self.decisions % CHECK_INTERVAL == CHECK_INTERVAL - 1 {
                if self.stopped() {
                    self.halt.halted = true;
                    return false;
                }
                if let Some(pool) = self.pool.filter(|pool| pool.wanted()) {
                    self.give_work(pool);
                    continue;
                }
                // Frequent: one conflict in eight decisions or more (a
                // hard puzzle's search has one in two, a count of 10^5
                // solutions one in thirty or fewer).
                let frequent = self.conflicts * RARE_CONFLICTS >= self.decisions;
                self.rare_conflicts = !frequent;
            }
            let depth = self.stack.len() - 1;
            let frame = self.stack.last_mut().expect("checked above");
            let bit = frame.rest & frame.rest.wrapping_neg();
            frame.rest ^= bit;
            frame.taken = bit;
            let (cell, open) = (frame.cell, frame.open);
            self.decisions += 1;
            self.child(depth, cell, bit);
            self.open = open - 1;
            let propagated = if self.rare_conflicts {
                self.propagate::<true>(depth + 1)
            } else {
                self.propagate::<false>(depth + 1)
            };
            if !propagated {
                self.conflicts += 1;
                continue;
            }
            if self.descend(depth + 1) {
                return true;
            }
        }
        false
    }

    /// After the node at `depth` is propagated (its open cells in
    /// `self.open`): true with its grid in `self.model` when no cell is
    /// open, else false with a frame on the stack for the cell to branch
    /// on.
    fn descend(&mut self, depth: usize) -> bool {
        if self.open == 0 {
            self.grid(depth);
            return true;
        }
        let cell = self.choose(depth).expect("an open cell");
        let rest = self.states[depth * self.cells + cell as usize];
        self.stack.push(Frame { cell, taken: 0, rest, open: self.open });
        false
    }
}

impl Engine for GridSearch<'_> {
    /// Starts from the root with every literal of `cube` (of the direct
    /// encoding's "cell holds digit" variables) applied: a positive one
    /// places the digit, a negative one removes it.
    fn start_cube(&mut self, cube: &[Lit]) -> Result<(), CountError> {
        let (side, cells) = (self.side, self.cells);
        self.stack.clear();
        self.queue.clear();
        self.started = false;
        self.halt.halted = false;
        self.cube = cube.to_vec();
        let root = std::mem::take(&mut self.root);
        self.node(0).copy_from_slice(&root);
        self.root = root;
        let mut dead = false;
        for &lit in cube {
            let code = self.code_of_var.get(lit.index()).copied().unwrap_or(u32::MAX);
            if code == u32::MAX {
                return Err(CountError::Unsupported(format!(
                    "the grid engine takes cubes of cell-digit literals only, not of variable {}",
                    lit.index() + 1
                )));
            }
            let (cell, bit) = (code as usize / side, 1u32 << (code as usize % side));
            let node = &mut self.states[..cells];
            node[cell] = if lit.is_positive() { node[cell] & bit } else { node[cell] & !bit };
            dead |= node[cell] == 0;
        }
        // A cell the root left without a digit (allowed digits past the
        // side) is no open cell to branch on.
        dead |= self.states[..cells].contains(&0);
        if !dead {
            let node = &self.states[..cells];
            if !self.peer_masks.is_empty() {
                let has = &mut self.has[..side];
                has.fill(0);
                for (cell, &candidates) in node.iter().enumerate() {
                    for digit in super::bits(u128::from(candidates)) {
                        has[digit] |= 1 << cell;
                    }
                }
            }
            self.queue.extend((0..cells as u32).filter(|&c| node[c as usize].count_ones() == 1));
            self.open = cells - self.queue.len();
            self.dirty = self.units_of.iter().fold(0, |all, &units| all | units);
            dead = !self.propagate::<false>(0);
        }
        self.dead = dead;
        Ok(())
    }

    fn step(&mut self) -> Result<Option<&Grid>, CountError> {
        Ok(self.next_model().then_some(&self.model))
    }

    fn remaining(&self) -> Option<Vec<Cube>> {
        Some(self.frontier())
    }

    fn halt_after(&mut self, decisions: u64) {
        self.halt.budget = Some(self.decisions + decisions);
    }

    fn halted(&self) -> bool {
        self.halt.halted
    }

    fn stats(&self) -> SearchStats {
        SearchStats { decisions: Some(self.decisions), conflicts: Some(self.conflicts), ..SearchStats::default() }
    }
}
