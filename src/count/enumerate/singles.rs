//! Naked and hidden singles on bitboards: the prober's fast path for
//! layouts made only of all-different groups, cells' allowed digits and
//! pairs of different digits, on grids of up to 121 cells.
//!
//! Each digit keeps the cells it may still go in as one 128-bit word.
//! Placing a digit clears its cell from every other digit's word and the
//! cell's peers from its own; a cell left with one digit (a naked single)
//! or a digit left with one cell of a full group (a hidden single) is
//! placed, and a cell with no digit or a full group with no cell for a
//! digit is a conflict. That is the fixpoint unit propagation reaches on
//! the direct encoding of such a layout (cells' at-least-one clauses, the
//! binary clauses of the groups and pairs, the groups' at-least-one
//! clauses for each digit), so a probe fails here exactly when it fails on
//! the clauses (checked against them in debug builds and by
//! `tests/it/setter.rs`).
//!
//! A refutation's size is measured as [`super::Prober`] measures it on
//! the clauses: the literals the conflict rests on since the probe began,
//! followed back through their reasons. Each cell placed records when,
//! with what digit and why (assumed, a naked single, a hidden single in a
//! group); a digit ruled out from a cell rests on the earliest placement
//! that rules it out (its own cell's digit, or the same digit in a peer),
//! or on its own assumption. Singles are placed a generation at a time,
//! and the conflict taken is the one with the smallest cone among those of
//! the first generation that meets any. Reasons are picked this way rather
//! than in the clauses' watch order, so sizes can differ from the clauses'
//! on the same refutation; a rating never mixes the two (a layout either
//! fits the bitboards or not).

use crate::count::bits;
use crate::model::{Constraint, Predicate, Puzzle};

/// The most digits (and grid side) the words take: 11 x 11 = 121 cells.
pub const MAX_SIDE: usize = 11;

/// The state: where each digit may go, the cells placed, and the
/// candidates ruled out by assumption.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Board {
    digits: [u128; MAX_SIDE],
    placed: u128,
    ruled: [u128; MAX_SIDE],
    /// For each digit index, the full groups of the cells it is placed in
    /// (one bit a group): while those cells keep it, such a group has no
    /// hidden single of it and no conflict, and is not looked at.
    done: [u128; MAX_SIDE],
}

/// Why a literal was set, for measuring refutations.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Why {
    /// A placement assumed (a given, a decision, a probe).
    Assumed,
    /// A placement: the cell's only digit left.
    Naked,
    /// A placement: the digit's only cell left in this full group.
    Hidden(u16),
}

/// A conflict propagation met.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Conflict {
    /// A cell with no digit left.
    Cell(usize),
    /// A full group with no cell left for a digit index.
    Group(usize, usize),
    /// A single (naked or hidden) of a digit index in a cell that another
    /// placement of the same generation ruled out.
    Forced(usize, usize, Why),
}

/// Where propagation stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rest {
    /// No single left, no conflict.
    Fixpoint,
    /// A conflict (in `Singles::conflicts`).
    Conflict,
    /// Out of scans before either.
    Stopped,
}

/// A literal of the cone a refutation rests on.
#[derive(Clone, Copy, Debug)]
enum Item {
    /// A cell's placement.
    Placed(usize),
    /// A digit index ruled out of a cell.
    Out(usize, usize),
}

/// The bitboard propagator of one layout (see the module doc).
#[derive(Clone, Debug)]
pub struct Singles {
    side: usize,
    /// Every cell of the grid.
    all: u128,
    /// For each cell, the other cells that may not share its digit.
    peers: Vec<u128>,
    /// The full groups (`side` cells each): each digit goes in one cell.
    full: Vec<u128>,
    /// For each cell, the full groups it is in (one bit a group).
    groups_of: Vec<u128>,
    /// For each digit index, the cells it lost since its groups were
    /// last looked at for hidden singles (states at rest have none).
    dirty: [u128; MAX_SIDE],
    /// The layout's own state after propagation (`None`: a conflict).
    root: Option<Board>,
    board: Board,
    /// For each cell, when it was last placed (a count of placements
    /// since the reset), with what digit index and why; read only for
    /// cells placed since a probe began.
    at: Vec<(u32, u8, Why)>,
    /// Placements since the reset.
    steps: u32,
    /// The state before each open [`Singles::push`].
    saved: Vec<Board>,
    /// The conflicts of the generation that met the first.
    conflicts: Vec<Conflict>,
    /// A generation's singles, before they are placed.
    singles: Vec<(usize, usize, Why)>,
    /// Work list of [`Singles::cone`].
    stack: Vec<Item>,
}

impl Singles {
    /// The propagator of `layout`, if the layout is made only of
    /// all-different groups, cells' allowed digits and pairs of different
    /// digits, with the digits 1 to the side, on a grid of at most
    /// [`MAX_SIDE`] rows. Givens are ignored: they are assumed later.
    pub fn new(layout: &Puzzle) -> Option<Singles> {
        let side = layout.side();
        let fits = side <= MAX_SIDE
            && layout.digits() == side
            && layout.relations().iter().all(|r| r.predicate == Predicate::NotEqual)
            && layout.constraints().iter().all(|c| matches!(c, Constraint::Digits { .. }));
        if !fits {
            return None;
        }
        let cells = side * side;
        let all = (1u128 << cells) - 1;
        let bit = |cell: crate::model::Cell| 1u128 << (cell.row * side + cell.col);
        let mut peers = vec![0u128; cells];
        let mut full = Vec::new();
        for group in layout.groups() {
            let mask = group.cells.iter().fold(0, |m, &c| m | bit(c));
            for &cell in &group.cells {
                peers[cell.row * side + cell.col] |= mask & !bit(cell);
            }
            if mask.count_ones() as usize == side && !full.contains(&mask) {
                full.push(mask);
            }
        }
        if full.len() > 128 {
            return None;
        }
        let mut groups_of = vec![0u128; cells];
        for (g, &group) in full.iter().enumerate() {
            for cell in bits(group) {
                groups_of[cell] |= 1 << g;
            }
        }
        for relation in layout.relations() {
            let (a, b) = (relation.a, relation.b);
            if a != b {
                peers[a.row * side + a.col] |= bit(b);
                peers[b.row * side + b.col] |= bit(a);
            }
        }
        let mut board = Board { digits: [0; MAX_SIDE], placed: 0, ruled: [0; MAX_SIDE], done: [0; MAX_SIDE] };
        board.digits[..side].fill(all);
        for constraint in layout.constraints() {
            if let &Constraint::Digits { cell, allowed } = constraint {
                for d in 0..side {
                    if allowed >> d & 1 == 0 {
                        board.digits[d] &= !bit(cell);
                    }
                }
            }
        }
        let at = vec![(0, 0, Why::Assumed); cells];
        let (saved, conflicts, singles, stack) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let dirty = [all; MAX_SIDE];
        let mut singles = Singles {
            side,
            all,
            peers,
            full,
            groups_of,
            dirty,
            root: None,
            board,
            at,
            steps: 0,
            saved,
            conflicts,
            singles,
            stack,
        };
        if singles.propagate(u32::MAX) == Rest::Fixpoint {
            singles.root = Some(singles.board);
        }
        Some(singles)
    }

    /// Back to the layout alone; false if it has a conflict.
    pub fn reset(&mut self) -> bool {
        self.saved.clear();
        self.steps = 0;
        match self.root {
            Some(root) => {
                self.board = root;
                true
            }
            None => false,
        }
    }

    /// Saves the state for [`Singles::pop`].
    pub fn push(&mut self) {
        self.saved.push(self.board);
    }

    /// Back to the state of the matching [`Singles::push`].
    pub fn pop(&mut self) {
        if let Some(board) = self.saved.pop() {
            self.board = board;
        }
    }

    /// Whether `cell` (reading order) may still hold digit index `d`.
    fn may(&self, cell: usize, d: usize) -> bool {
        self.board.digits[d] >> cell & 1 == 1
    }

    /// Whether the candidate is open: its cell not placed, the digit
    /// (1 to the side) still allowed there.
    pub fn is_open(&self, cell: usize, digit: usize) -> bool {
        self.board.placed >> cell & 1 == 0 && self.may(cell, digit - 1)
    }

    /// The value of "`cell` holds `digit`" (1 to the side): true once
    /// placed, false once ruled out, `None` while open.
    pub fn value(&self, cell: usize, digit: usize) -> Option<bool> {
        match (self.board.placed >> cell & 1 == 1, self.may(cell, digit - 1)) {
            (_, false) => Some(false),
            (true, true) => Some(true),
            (false, true) => None,
        }
    }

    /// Whether every cell is placed.
    pub fn solved(&self) -> bool {
        self.board.placed == self.all
    }

    /// The digit (1 to the side) placed in `cell`, if any.
    pub fn digit_of(&self, cell: usize) -> Option<usize> {
        if self.board.placed >> cell & 1 == 0 {
            return None;
        }
        (0..self.side).find(|&d| self.may(cell, d)).map(|d| d + 1)
    }

    /// Sets "`cell` holds `digit`" (or, `holds` false, its negation) and
    /// propagates; false on a conflict (the state is then spent until a
    /// [`Singles::pop`] or reset).
    pub fn assume(&mut self, cell: usize, digit: usize, holds: bool) -> bool {
        self.assume_within(cell, digit, holds, u32::MAX) == Rest::Fixpoint
    }

    /// [`Singles::assume`], stopping before scan number `scans + 1`.
    fn assume_within(&mut self, cell: usize, digit: usize, holds: bool, scans: u32) -> Rest {
        let d = digit - 1;
        self.conflicts.clear();
        self.dirty = [0; MAX_SIDE];
        if holds {
            if !self.place(cell, d, Why::Assumed) {
                self.conflicts.push(Conflict::Cell(cell));
                return Rest::Conflict;
            }
        } else if self.may(cell, d) {
            self.board.digits[d] &= !(1u128 << cell);
            self.board.ruled[d] |= 1u128 << cell;
            self.dirty[d] |= 1u128 << cell;
        }
        self.propagate(scans)
    }

    /// Depth-1 probe of "`cell` holds `digit`": the size of its refutation
    /// if propagation ends in a conflict; otherwise `None`, and `placed`
    /// gets each cell the probe placed, with its digit. The state is as
    /// before.
    ///
    /// With a `limit`, a refutation larger than it may be given up
    /// (`None`, nothing in `placed`): the conflicts a scan of generation
    /// `s` meets rest on at least `2s` literals, a chain back to the
    /// assumption through one placement and one digit ruled out per
    /// generation (each single is new at its scan, so some literal of its
    /// reason is from the generation before), so the scans past
    /// `limit / 2` are not made.
    pub fn probe(
        &mut self,
        cell: usize,
        digit: usize,
        placed: &mut Vec<(usize, usize)>,
        limit: Option<usize>,
    ) -> Option<usize> {
        self.push();
        let start = self.board;
        let scans = limit.map_or(u32::MAX, |limit| (limit / 2).min(u32::MAX as usize) as u32);
        let size = match self.assume_within(cell, digit, true, scans) {
            Rest::Fixpoint => {
                self.placed_since(&start, placed);
                None
            }
            Rest::Conflict => self.smallest_cone(&start, limit.unwrap_or(usize::MAX)),
            Rest::Stopped => None,
        };
        self.pop();
        size
    }

    /// Every open candidate whose depth-1 probe fails with a refutation of
    /// size 3, found without probing; the state must be at rest (after a
    /// propagation without a conflict). No probe fails with fewer, and these
    /// are the only ones of size 3: placing digit index `d` in a cell `c`
    /// rules out only `d` from its peers and the other digits from `c`, so
    /// the first scan's conflicts are full groups left without a cell for
    /// `d` (a cell losing its last digit, or a group its last cell for
    /// another digit, would have been a single at rest). Such a group's
    /// conflict rests on the placement and its `k` cells that lost `d`,
    /// `1 + k` literals with `k >= 2` (one cell would have been a hidden
    /// single); a conflict of a later scan, or between two singles of the
    /// first, rests on at least 4 (see [`Singles::probe`]). So the size-3
    /// refutations are the candidates `d` in a cell that sees both cells of
    /// a full group where `d` has exactly two: the pointing and claiming of
    /// locked candidates, and their kin on other groups. `found` gets
    /// (cell, digit index) of each.
    pub fn refuted_in_three(&self, found: &mut Vec<(usize, usize)>) {
        let open = self.all & !self.board.placed;
        for d in 0..self.side {
            let mut seen_by_pairs = 0u128;
            for &group in &self.full {
                let here = self.board.digits[d] & group & open;
                if here.count_ones() == 2 {
                    let (a, b) = (here.trailing_zeros() as usize, 127 - here.leading_zeros() as usize);
                    seen_by_pairs |= self.peers[a] & self.peers[b];
                }
            }
            found.extend(bits(seen_by_pairs & self.board.digits[d] & open).map(|cell| (cell, d)));
        }
    }

    /// Depth-2 probe, as [`super::Prober::probe2`] defines it on the
    /// clauses: assumes the candidate, then probes every open candidate
    /// at depth 1 under it in reading order, ruling out each that fails,
    /// pass after pass, until a conflict or a pass that rules out nothing.
    /// The size: one for the candidate, one plus its size for each
    /// depth-1 refutation used, and the final conflict's cone. Without a
    /// conflict, `None`, and `placed` gets each cell placed under it.
    pub fn probe2(
        &mut self,
        cell: usize,
        digit: usize,
        placed: &mut Vec<(usize, usize)>,
        probes: &mut u64,
    ) -> Option<usize> {
        self.push();
        let start = self.board;
        let mut size = None;
        if !self.assume(cell, digit, true) {
            size = self.smallest_cone(&start, usize::MAX);
        }
        let mut used = 1;
        let mut inner_placed = Vec::new();
        'passes: while size.is_none() {
            let mut progress = false;
            // Candidates a probe that held placed cannot fail either.
            let mut skip = [0u128; MAX_SIDE];
            for at in 0..self.side * self.side {
                for d in 1..=self.side {
                    if !self.is_open(at, d) || skip[d - 1] >> at & 1 == 1 {
                        continue;
                    }
                    *probes += 1;
                    inner_placed.clear();
                    match self.probe(at, d, &mut inner_placed, None) {
                        None => {
                            for &(c, e) in &inner_placed {
                                skip[e - 1] |= 1u128 << c;
                            }
                        }
                        Some(inner) => {
                            used += 1 + inner;
                            progress = true;
                            if !self.assume(at, d, false) {
                                size = self.smallest_cone(&start, usize::MAX).map(|cone| used + cone);
                                break 'passes;
                            }
                            skip = [0; MAX_SIDE];
                        }
                    }
                }
            }
            if !progress {
                break;
            }
        }
        if size.is_none() {
            self.placed_since(&start, placed);
        }
        self.pop();
        size
    }

    /// Adds to `placed` each cell placed since `start`, with its digit.
    fn placed_since(&self, start: &Board, placed: &mut Vec<(usize, usize)>) {
        placed.extend(bits(self.board.placed & !start.placed).map(|at| (at, self.digit_of(at).unwrap_or(1))));
    }

    /// Places digit index `d` in `cell`, recording when and `why`; false if it
    /// may not go there.
    fn place(&mut self, cell: usize, d: usize, why: Why) -> bool {
        let bit = 1u128 << cell;
        let board = &mut self.board;
        if board.digits[d] & bit == 0 {
            return false;
        }
        if board.placed & bit != 0 {
            return true;
        }
        board.placed |= bit;
        board.done[d] |= self.groups_of[cell];
        for (e, word) in board.digits[..self.side].iter_mut().enumerate() {
            let lost = if e == d { *word & self.peers[cell] } else { *word & bit };
            self.dirty[e] |= lost;
            *word &= !lost;
        }
        self.at[cell] = (self.steps, d as u8, why);
        self.steps += 1;
        true
    }

    /// Naked and hidden singles until none is left, a generation at a
    /// time: every single of the state is found, then all are placed.
    /// False on a conflict, with every conflict of that generation in
    /// `self.conflicts` (cells without a digit, groups without a cell for
    /// a digit, singles that another single of the generation ruled out).
    fn propagate(&mut self, scans: u32) -> Rest {
        for _ in 0..scans {
            let (mut ones, mut twos) = (0u128, 0u128);
            for &word in &self.board.digits[..self.side] {
                twos |= ones & word;
                ones |= word;
            }
            self.conflicts.extend(bits(self.all & !ones).map(Conflict::Cell));
            // A placed cell that lost its digit (a conflict) leaves its
            // groups to be looked at; otherwise they hold the digit there.
            let keeps = self.board.placed & !ones == 0;
            let mut singles = std::mem::take(&mut self.singles);
            singles.clear();
            for cell in bits(ones & !twos & !self.board.placed) {
                let d = (0..self.side).find(|&d| self.may(cell, d)).unwrap_or(0);
                singles.push((cell, d, Why::Naked));
            }
            for d in 0..self.side {
                // Only groups where the digit lost a cell can have changed.
                let lost = std::mem::take(&mut self.dirty[d]);
                let mut touched = bits(lost).fold(0u128, |groups, cell| groups | self.groups_of[cell]);
                if keeps {
                    touched &= !self.board.done[d];
                }
                for g in bits(touched) {
                    let here = self.board.digits[d] & self.full[g];
                    if here == 0 {
                        self.conflicts.push(Conflict::Group(g, d));
                    } else if here & (here - 1) == 0 && here & self.board.placed == 0 {
                        singles.push((here.trailing_zeros() as usize, d, Why::Hidden(g as u16)));
                    }
                }
            }
            if !self.conflicts.is_empty() {
                self.singles = singles;
                return Rest::Conflict;
            }
            if singles.is_empty() {
                self.singles = singles;
                return Rest::Fixpoint;
            }
            for &(cell, d, why) in &singles {
                let fresh = self.board.placed >> cell & 1 == 0;
                if !self.may(cell, d) || (!fresh && usize::from(self.at[cell].1) != d) {
                    self.conflicts.push(Conflict::Forced(cell, d, why));
                } else if fresh {
                    self.place(cell, d, why);
                }
            }
            self.singles = singles;
            if !self.conflicts.is_empty() {
                return Rest::Conflict;
            }
        }
        Rest::Stopped
    }

    /// The smallest of the last conflicts' cones since `start` (the board
    /// when the probe began): the literals each rests on, through their
    /// reasons (see the module doc).
    /// `None` if every one is larger than `limit` (each cone is followed
    /// only until it passes the smallest so far, or the limit).
    fn smallest_cone(&mut self, start: &Board, limit: usize) -> Option<usize> {
        let conflicts = std::mem::take(&mut self.conflicts);
        let mut smallest = conflicts.is_empty().then_some(1);
        for &conflict in &conflicts {
            let cap = smallest.map_or(limit, |s: usize| s.min(limit));
            if let Some(size) = self.cone(start, conflict, cap) {
                smallest = Some(size);
            }
        }
        self.conflicts = conflicts;
        smallest
    }

    /// The number of literals `conflict` rests on since `start`; `None`
    /// once it passes `cap`.
    fn cone(&mut self, start: &Board, conflict: Conflict, cap: usize) -> Option<usize> {
        let side = self.side;
        let board = &self.board;
        // For each digit index, the cells it was ruled out of since the
        // start: allowed then, not now.
        let mut gone = [0u128; MAX_SIDE];
        for (d, word) in gone[..side].iter_mut().enumerate() {
            *word = start.digits[d] & !board.digits[d];
        }
        let gone_in = |cell: usize| (0..side).filter(move |&d| gone[d] >> cell & 1 == 1);
        let fresh = board.placed & !start.placed;
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        // The literals a placement of `d` in `cell` for `why` rests on.
        let reason = |stack: &mut Vec<Item>, cell: usize, d: usize, why: Why| match why {
            Why::Naked => stack.extend(gone_in(cell).filter(|&e| e != d).map(|e| Item::Out(cell, e))),
            Why::Hidden(g) => {
                let others = self.full[g as usize] & !(1 << cell) & gone[d];
                stack.extend(bits(others).map(|c| Item::Out(c, d)));
            }
            Why::Assumed => {}
        };
        match conflict {
            Conflict::Cell(cell) => stack.extend(gone_in(cell).map(|d| Item::Out(cell, d))),
            Conflict::Group(g, d) => stack.extend(bits(self.full[g] & gone[d]).map(|c| Item::Out(c, d))),
            Conflict::Forced(cell, d, why) => {
                if gone[d] >> cell & 1 == 1 {
                    stack.push(Item::Out(cell, d));
                }
                reason(&mut stack, cell, d, why);
            }
        }
        let (mut out_seen, mut placed_seen) = ([0u128; MAX_SIDE], 0u128);
        let mut size = 0;
        while let Some(item) = stack.pop() {
            match item {
                Item::Out(cell, d) => {
                    if out_seen[d] >> cell & 1 == 1 {
                        continue;
                    }
                    out_seen[d] |= 1 << cell;
                    size += 1;
                    if size > cap {
                        break;
                    }
                    if board.ruled[d] >> cell & 1 == 1 {
                        continue; // assumed
                    }
                    // The first placement that rules it out: the cell's
                    // own, or the digit's in a peer.
                    let own = (fresh >> cell & 1 == 1).then_some(cell);
                    let peers = bits(self.peers[cell] & fresh & board.digits[d]);
                    if let Some(by) = own.into_iter().chain(peers).min_by_key(|&p| self.at[p].0) {
                        stack.push(Item::Placed(by));
                    }
                }
                Item::Placed(cell) => {
                    if placed_seen >> cell & 1 == 1 {
                        continue;
                    }
                    placed_seen |= 1 << cell;
                    size += 1;
                    if size > cap {
                        break;
                    }
                    let (_, d, why) = self.at[cell];
                    reason(&mut stack, cell, usize::from(d), why);
                }
            }
        }
        self.stack = stack;
        (size <= cap).then_some(size)
    }
}
