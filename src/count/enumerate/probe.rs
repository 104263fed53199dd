//! Failed-literal probing on the enum engine's propagator: assume that a
//! cell holds a digit, propagate, and if that ends in a conflict the digit
//! is impossible there. Depth 1 propagates alone after the assumption;
//! depth 2 also probes at depth 1 under it. `satsudoku rate` measures a
//! puzzle's difficulty by the depth and the size of the refutations its
//! solution needs (`setter::rate`).
//!
//! A refutation's size is the number of literals the conflict rests on
//! besides what was known before the probe: the assumption and each literal
//! propagated from it on the way to the conflict, found by following each
//! literal's reason back from the conflicting clause. It counts the steps of
//! the chain a person would follow, not the propagation that happened on the
//! side.

use varisat::{Lit, Var};

use super::assignment::UNSET;
use super::propagate::{Propagator, Strength};
use super::singles::Singles;
use crate::encode::{DigitEncoding, Encoded};
use crate::model::{Cell, Digit, Puzzle};

/// A propagator on a layout's direct encoding with each cell's candidate
/// literals, for probing; a puzzle's givens and the digits ruled out so far
/// are assumed at level 0.
#[derive(Clone)]
pub struct Prober {
    prop: Propagator,
    /// Per cell (reading order), per digit: the literal "the cell holds it".
    candidates: Vec<Lit>,
    side: usize,
    digits: usize,
    /// The propagator as compiled, for the next puzzle: propagation moves
    /// the watches, and with them the order in which a later propagation
    /// meets a conflict, so each puzzle starts from the same state and
    /// rates the same whatever was rated before it. `None` in a prober
    /// made for one run ([`Prober::once`]), which is never reset.
    pristine: Option<std::sync::Arc<Propagator>>,
    /// Literals visited while measuring a refutation: a mark per variable.
    seen: Vec<bool>,
    /// Probes made since the last [`Prober::reset`].
    pub probes: u64,
    /// The trail's length before each open [`Prober::decide`].
    decisions: Vec<usize>,
    /// The bitboard fast path ([`Prober::with_singles`]), kept in step with
    /// the clauses; `None` for other layouts, and until the next reset
    /// after a literal that is not a candidate was assumed.
    singles: Option<Singles>,
    /// The same, kept for the reset.
    singles_built: Option<Singles>,
    /// For each variable, its candidate's index (cell times digits plus
    /// digit minus one), `u32::MAX` for the others.
    index_of: Vec<u32>,
    /// The cells a bitboard probe placed, with their digits (reused).
    placed: Vec<(usize, usize)>,
    /// Candidates assumed for good on the bitboards alone since the last
    /// reset; the clauses catch up only when something needs them
    /// ([`Prober::catch_up`]). A rating on the bitboards never does.
    behind: Vec<Lit>,
    /// Whether the clauses still hold an earlier puzzle's state: the
    /// reset's copy of `pristine` waits for the next catch-up too.
    stale: bool,
}

/// The invariant behind reading `pristine`: only the probers of
/// [`Prober::new`] keep their compiled state, and only they are reset (a
/// catch-up reads it only after a reset).
const NEVER_RESET: &str = "a prober made by `Prober::once` is never reset";

impl Prober {
    /// The prober of an encoded layout (direct digits; no givens in it, so
    /// that each puzzle's givens are assumptions), with the support clauses
    /// the enum engine derives: unit propagation then makes the naked and
    /// hidden singles of every group.
    pub fn new(encoded: &Encoded) -> Option<Prober> {
        let mut prober = Prober::once(encoded, Strength::WithSupports)?;
        prober.pristine = Some(std::sync::Arc::new(prober.prop.clone()));
        Some(prober)
    }

    /// The prober of an encoded formula for one run of probes from its
    /// state as encoded, on its clauses with or without the support clauses
    /// (deriving them takes a while on a large formula). It keeps no copy
    /// of that state, so it cannot be [`Prober::reset`]: the copy took a
    /// tenth of the time to settle the alternatives of ISS's "City
    /// Planning", which probes once.
    pub fn once(encoded: &Encoded, strength: Strength) -> Option<Prober> {
        if encoded.vars.digits() != DigitEncoding::Direct {
            return None;
        }
        let prop = Propagator::new(encoded, strength);
        let (side, digits) = (encoded.vars.side(), encoded.vars.values());
        let candidates: Vec<Lit> = itertools::iproduct!(0..side, 0..side, 1..=digits)
            .map(|(r, c, d)| encoded.vars.lit(Cell::new(r, c), d as Digit))
            .collect();
        let seen = vec![false; encoded.formula.var_count()];
        let mut index_of = vec![u32::MAX; encoded.formula.var_count()];
        for (i, lit) in candidates.iter().enumerate() {
            index_of[lit.index()] = i as u32;
        }
        let decisions = Vec::new();
        let (singles, singles_built) = (None, None);
        Some(Prober {
            prop,
            candidates,
            side,
            digits,
            pristine: None,
            seen,
            probes: 0,
            decisions,
            singles,
            singles_built,
            index_of,
            placed: Vec::new(),
            behind: Vec::new(),
            stale: false,
        })
    }

    /// The prober with the bitboard fast path for `layout` (the layout it
    /// was encoded from, without givens), when the layout is made only of
    /// all-different groups, allowed digits and pairs of different digits
    /// on at most 11 x 11 cells: probes that do not fail are answered on
    /// bitboards, and only the failing ones propagate on the clauses (for
    /// their size). The answers are the same: the bitboards reach unit
    /// propagation's fixpoint on such a layout.
    pub fn with_singles(mut self, layout: &Puzzle) -> Prober {
        let fits = layout.side() == self.side && layout.digits() == self.digits;
        self.singles_built = Singles::new(layout).filter(|_| fits);
        self.singles = self.singles_built.clone();
        self
    }

    /// Whether the bitboard fast path is in use.
    pub fn has_singles(&self) -> bool {
        self.singles.is_some()
    }

    /// `lit`'s cell (reading order), digit and sign, if it is a candidate.
    fn candidate(&self, lit: Lit) -> Option<(usize, usize, bool)> {
        let index = *self.index_of.get(lit.index())?;
        (index != u32::MAX).then(|| {
            let index = index as usize;
            (index / self.digits, index % self.digits + 1, lit.is_positive())
        })
    }

    /// Assumes `lit` on the bitboards too, if they are in use; their
    /// verdict, which must be `clauses` (the clauses' verdict). A literal
    /// that is not a candidate ends the fast path until the next reset.
    fn mirror(&mut self, lit: Lit, clauses: bool) {
        let Some((cell, digit, holds)) = self.candidate(lit) else {
            self.singles = None;
            return;
        };
        if let Some(singles) = &mut self.singles {
            let fast = singles.assume(cell, digit, holds);
            debug_assert_eq!(fast, clauses, "bitboards and clauses disagree on {cell} {digit} {holds}");
        }
    }

    /// Whether propagation has met a conflict at level 0.
    pub fn contradicted(&self) -> bool {
        self.prop.unsat
    }

    /// Back to the layout alone, nothing assumed; false if the layout
    /// itself has no solution under propagation.
    pub fn reset(&mut self) -> bool {
        let pristine = self.pristine.as_deref().expect(NEVER_RESET);
        self.probes = 0;
        self.decisions.clear();
        self.behind.clear();
        if self.singles.is_none() {
            self.singles.clone_from(&self.singles_built);
        }
        match &mut self.singles {
            Some(singles) => {
                let fast = singles.reset();
                debug_assert_eq!(fast, !pristine.unsat);
                self.stale = true;
            }
            None => {
                self.prop.clone_from(pristine);
                self.stale = false;
            }
        }
        !pristine.unsat
    }

    /// Brings the clauses up to the bitboards: the layout's state again if
    /// a reset left it stale, then each candidate assumed on the bitboards
    /// alone. False on a conflict (the bitboards met it too).
    fn catch_up(&mut self) -> bool {
        if self.stale {
            self.prop.clone_from(self.pristine.as_deref().expect(NEVER_RESET));
            self.stale = false;
        }
        let mut ok = !self.prop.unsat;
        for lit in std::mem::take(&mut self.behind) {
            let head = self.prop.trail_len();
            ok = ok && self.prop.assign(lit) && self.prop.propagate_from(head);
        }
        ok
    }

    /// The bitboards, when they are in use and hold the whole state
    /// (candidates' values there are the clauses' after a catch-up).
    fn board(&self) -> Option<&Singles> {
        self.singles.as_ref()
    }

    /// The literal "`cell` holds `digit`".
    pub fn literal(&self, cell: Cell, digit: Digit) -> Lit {
        self.candidates[(cell.row * self.side + cell.col) * self.digits + usize::from(digit) - 1]
    }

    /// Assumes `lit` for good and propagates; false on a conflict (the
    /// state is then unusable until [`Prober::reset`]). A candidate goes
    /// to the bitboards alone while they are in use and nothing is decided
    /// (debug builds catch the clauses up at once, to check they agree).
    pub fn assume(&mut self, lit: Lit) -> bool {
        if let (Some((cell, digit, holds)), Some(singles), true) =
            (self.candidate(lit), &mut self.singles, self.decisions.is_empty())
        {
            let fast = singles.assume(cell, digit, holds);
            self.behind.push(lit);
            #[cfg(debug_assertions)]
            {
                let clauses = self.catch_up();
                debug_assert_eq!(fast, clauses, "bitboards and clauses disagree on {cell} {digit} {holds}");
            }
            return fast;
        }
        self.catch_up();
        let head = self.prop.trail_len();
        let ok = self.prop.assign(lit) && self.prop.propagate_from(head);
        self.mirror(lit, ok);
        ok
    }

    /// Assumes `lit` until the matching [`Prober::backtrack`] and
    /// propagates; false on a conflict (backtrack then too).
    pub fn decide(&mut self, lit: Lit) -> bool {
        self.catch_up();
        let head = self.prop.trail_len();
        self.decisions.push(head);
        self.prop.state.level += 1;
        if let Some(singles) = &mut self.singles {
            singles.push();
        }
        let ok = self.prop.assign(lit) && self.prop.propagate_from(head);
        self.mirror(lit, ok);
        ok
    }

    /// Undoes the last [`Prober::decide`] and what it propagated.
    pub fn backtrack(&mut self) {
        if let Some(mark) = self.decisions.pop() {
            self.prop.undo_to(mark);
            self.prop.state.level -= 1;
            if let Some(singles) = &mut self.singles {
                singles.pop();
            }
        }
    }

    /// The candidates still open: (cell, digit, literal), reading order.
    pub fn open(&self) -> Vec<(Cell, Digit, Lit)> {
        let n = self.side;
        let lits = self.candidates.iter().enumerate();
        let open = lits.filter(|&(i, &lit)| match self.board() {
            Some(board) => board.is_open(i / self.digits, i % self.digits + 1),
            None => self.prop.value(lit) == UNSET,
        });
        open.map(|(i, &lit)| (Cell::new(i / self.digits / n, i / self.digits % n), (i % self.digits + 1) as Digit, lit))
            .collect()
    }

    /// A literal's value, `None` while open.
    pub fn value(&mut self, lit: Lit) -> Option<bool> {
        if let (Some((cell, digit, holds)), Some(board)) = (self.candidate(lit), self.board()) {
            return board.value(cell, digit).map(|v| v == holds);
        }
        self.catch_up();
        match self.prop.value(lit) {
            UNSET => None,
            v => Some(v == 1),
        }
    }

    /// The digit `cell` holds, if propagation fixed one.
    pub fn fixed(&self, cell: Cell) -> Option<Digit> {
        if let Some(board) = self.board() {
            return board.digit_of(cell.row * self.side + cell.col).map(|d| d as Digit);
        }
        (1..=self.digits as Digit).find(|&d| self.prop.value(self.literal(cell, d)) == 1)
    }

    /// Whether every cell holds a digit.
    pub fn solved(&self) -> bool {
        if let Some(board) = self.board() {
            return board.solved();
        }
        let cells = itertools::iproduct!(0..self.side, 0..self.side);
        cells.map(|(r, c)| Cell::new(r, c)).all(|cell| self.fixed(cell).is_some())
    }

    /// Open candidates of `cell`.
    pub fn open_in(&self, cell: Cell) -> usize {
        if let Some(board) = self.board() {
            let at = cell.row * self.side + cell.col;
            return (1..=self.digits).filter(|&d| board.is_open(at, d)).count();
        }
        (1..=self.digits as Digit).filter(|&d| self.prop.value(self.literal(cell, d)) == UNSET).count()
    }

    /// Depth-1 probe: assumes `lit` and propagates; the size of the
    /// refutation if that ends in a conflict. The state is as before.
    pub fn probe(&mut self, lit: Lit) -> Option<usize> {
        self.probe_marking(lit, None)
    }

    /// [`Prober::probe`]; when it ends without a conflict, also marks in
    /// `implied` (by literal code) every literal it made true. Their own
    /// probes cannot fail: what they propagate, `lit` propagated too
    /// (unit propagation is monotone), without a conflict. A sweep skips
    /// them, which saves most of its probes.
    pub fn probe_marking(&mut self, lit: Lit, implied: Option<&mut [bool]>) -> Option<usize> {
        self.probe_within(lit, implied, None)
    }

    /// [`Prober::probe_marking`], where a refutation larger than `limit`
    /// may be given up (`None`, nothing marked): on the bitboards, the
    /// propagation stops once every conflict left to find would be larger
    /// (see `Singles::probe`). A sweep that wants only the smallest
    /// refutations passes the smallest found so far.
    pub fn probe_within(&mut self, lit: Lit, implied: Option<&mut [bool]>, limit: Option<usize>) -> Option<usize> {
        self.probes += 1;
        if let (Some((cell, digit, true)), Some(singles)) = (self.candidate(lit), &mut self.singles) {
            let mut placed = std::mem::take(&mut self.placed);
            placed.clear();
            let size = singles.probe(cell, digit, &mut placed, limit);
            self.mark(&placed, size, implied);
            self.placed = placed;
            #[cfg(debug_assertions)]
            if limit.is_none() {
                let clauses = self.clause_probe(lit, None);
                debug_assert_eq!(clauses.is_some(), size.is_some(), "bitboards and clauses disagree on {lit:?}");
            }
            return size;
        }
        self.clause_probe(lit, implied)
    }

    /// On the bitboards (`None` without them): every open candidate whose
    /// depth-1 probe would fail with a refutation of 3 literals, the
    /// smallest there is, found without probing (`Singles::refuted_in_three`).
    /// A sweep that finds any needs no probe.
    pub fn refuted_in_three(&self) -> Option<Vec<Lit>> {
        let singles = self.singles.as_ref()?;
        let mut found = Vec::new();
        singles.refuted_in_three(&mut found);
        Some(found.into_iter().map(|(cell, d)| self.candidates[cell * self.digits + d]).collect())
    }

    /// Marks in `implied` the candidates of `placed`, when `size` says the
    /// probe held.
    fn mark(&self, placed: &[(usize, usize)], size: Option<usize>, implied: Option<&mut [bool]>) {
        if let (None, Some(implied)) = (size, implied) {
            for &(cell, digit) in placed {
                implied[self.candidates[cell * self.digits + digit - 1].code()] = true;
            }
        }
    }

    /// [`Prober::probe_marking`] on the clauses.
    fn clause_probe(&mut self, lit: Lit, implied: Option<&mut [bool]>) -> Option<usize> {
        self.catch_up();
        let mark = self.prop.trail_len();
        let level = self.prop.state.level;
        self.prop.state.level = level + 1;
        let refuted = !self.prop.assign(lit) || !self.prop.propagate_from(mark);
        let size = refuted.then(|| self.refutation_size(level + 1));
        if let (false, Some(implied)) = (refuted, implied) {
            for &l in &self.prop.state.trail[mark..] {
                implied[l.code()] = true;
            }
        }
        self.prop.undo_to(mark);
        self.prop.state.level = level;
        size
    }

    /// The number of literal codes (for [`Prober::probe_marking`]'s marks).
    pub fn codes(&self) -> usize {
        2 * self.seen.len()
    }

    /// Depth-2 probe: assumes `lit`, propagates, then probes each open
    /// candidate at depth 1 under it, ruling out each that fails, until a
    /// conflict or a pass that rules out nothing. The size is the number of
    /// depth-1 refutations used plus their sizes; the state is as before.
    /// Without a conflict, marks in `implied` every literal made true: their
    /// own depth-2 probes cannot fail either (what they reach, `lit` reached).
    pub fn probe2(&mut self, lit: Lit, implied: Option<&mut [bool]>) -> Option<usize> {
        self.probes += 1;
        if let (Some((cell, digit, true)), Some(singles)) = (self.candidate(lit), &mut self.singles) {
            let mut placed = std::mem::take(&mut self.placed);
            placed.clear();
            let size = singles.probe2(cell, digit, &mut placed, &mut self.probes);
            self.mark(&placed, size, implied);
            self.placed = placed;
            return size;
        }
        self.catch_up();
        let mark = self.prop.trail_len();
        let level = self.prop.state.level;
        self.prop.state.level = level + 1;
        let mut size = None;
        if !self.prop.assign(lit) || !self.prop.propagate_from(mark) {
            size = Some(self.refutation_size(level + 1));
        }
        let mut used = 1;
        // Depth-1 skips, valid while the state does not grow.
        let mut inner_implied = vec![false; self.codes()];
        'passes: while size.is_none() {
            let mut progress = false;
            inner_implied.iter_mut().for_each(|x| *x = false);
            for (_, _, inner) in self.open() {
                if self.prop.value(inner) != UNSET || inner_implied[inner.code()] {
                    continue;
                }
                if let Some(inner_size) = self.probe_marking(inner, Some(&mut inner_implied)) {
                    used += 1 + inner_size;
                    progress = true;
                    let head = self.prop.trail_len();
                    if !self.prop.assign(!inner) || !self.prop.propagate_from(head) {
                        size = Some(used + self.refutation_size(level + 1));
                        break 'passes;
                    }
                    // The state grew: earlier non-failures may fail now.
                    inner_implied.iter_mut().for_each(|x| *x = false);
                }
            }
            if !progress {
                break;
            }
        }
        if let (None, Some(implied)) = (size, implied) {
            for &l in &self.prop.state.trail[mark..] {
                implied[l.code()] = true;
            }
        }
        self.prop.undo_to(mark);
        self.prop.state.level = level;
        size
    }

    /// After a conflict: the literals assigned at `level` or above that the
    /// conflicting clause rests on, through their reasons.
    fn refutation_size(&mut self, level: u32) -> usize {
        let state = &self.prop.state;
        let clauses = &self.prop.clauses;
        let (reason, lit) = state.conflict;
        let mut binary = [lit; 2];
        let mut stack: Vec<Var> = Vec::new();
        let mut visited: Vec<Var> = Vec::new();
        let push = |l: Lit, stack: &mut Vec<Var>, visited: &mut Vec<Var>, seen: &mut Vec<bool>| {
            let var = l.var();
            if state.values[var.index()] != UNSET && state.levels[var.index()] >= level && !seen[var.index()] {
                seen[var.index()] = true;
                visited.push(var);
                stack.push(var);
            }
        };
        for &l in clauses.clause_of(&state.branches, reason, lit, &mut binary) {
            push(l, &mut stack, &mut visited, &mut self.seen);
        }
        while let Some(var) = stack.pop() {
            let value = state.values[var.index()] == 1;
            let true_lit = var.lit(value);
            let why = state.reasons[var.index()];
            let mut binary = [true_lit; 2];
            for &l in clauses.clause_of(&state.branches, why, true_lit, &mut binary) {
                if l.var() != var {
                    push(l, &mut stack, &mut visited, &mut self.seen);
                }
            }
        }
        for var in &visited {
            self.seen[var.index()] = false;
        }
        visited.len()
    }
}
