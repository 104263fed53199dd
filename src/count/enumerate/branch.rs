//! What the engine branches on: sets of mutually exclusive options (a
//! cell's digits, a digit's cells in a full group) with running weights,
//! so the smallest open set is found without reading every literal, and,
//! while the engine learns, running sums of their literals' activity, so
//! the most active set is found the same way.

use varisat::Lit;

use crate::count::csr::Csr;
use crate::encode::{DigitEncoding, Encoded, Slot};
use crate::model::{Digit, Puzzle};

/// The branch points for direct digits: the digit literals of each cell, the
/// cell literals of each digit in each group of `n` cells, and the selectors
/// of each `Or` (`count/choices.rs`), then the encoding's sets of which
/// exactly one holds in every model ([`Encoded::exactly_one`]: a killer
/// cage's combinations, which the learning search may branch on as a
/// killer solver reasons on a cage's combinations), one set after another. A set with a
/// literal the reduction fixed true is left out (it is decided); literals
/// fixed false are dropped. Empty for other digit encodings.
///
/// Each set keeps a number that counts its literals not false, plus
/// [`TRUE_WEIGHT`] for each true one, updated as variables are assigned and
/// unassigned: finding the smallest open set at a node is finding the
/// smallest number, one per set, not reading every literal.
#[derive(Clone)]
pub(super) struct Branches {
    lits: Vec<Lit>,
    /// Where each set ends in `lits`; it starts where the one before ends.
    ends: Vec<u32>,
    /// The sets each variable's positive literal is in.
    sets_of: Csr<u32>,
    /// Per set: literals not false, plus [`TRUE_WEIGHT`] per true literal.
    /// Sixteen bits, so that the smallest is found eight sets at a time.
    weight: Vec<u16>,
    /// Per variable, its activity while the engine learns (VSIDS, see
    /// `learn.rs`), in integers so that the sets' sums below stay exact
    /// (floating sums kept by adding and taking away drift, and sets whose
    /// open literals are the same, as a naked pair's cell and group, no
    /// longer tie).
    activity: Vec<u64>,
    /// Per set, while [`Branches::scoring`]: the activity of its literals
    /// not false (for an open set, its open literals'), kept in step with
    /// the assignment and the bumps, so that the engine scores a set
    /// without reading its literals (a fifth of the search's time on a
    /// puzzle that learns, read literal by literal).
    open_activity: Vec<u64>,
    /// Whether `open_activity` is kept (the engine learns).
    scoring: bool,
    /// Sets whose weight fell to 1 or 0 since propagation last looked:
    /// each set is exactly one of its literals in every solution, so one
    /// open literal left must be true, and none left is a conflict (see
    /// `Clauses::propagate`).
    pub(super) pending: Vec<u32>,
    /// How many sets come before the encoding's own exactly-one sets
    /// ([`Encoded::exactly_one`], a killer cage's combinations), which
    /// [`Branches::smallest_open`] leaves to the learning search's scores:
    /// chosen by their size alone, before the first conflicts, they
    /// slowed small puzzles ("Event horizon" 2,911 -> 6,170 decisions).
    plain: usize,
}

/// The first of `weights` with no true literal and the fewest open ones:
/// two passes, the first without branches (the smallest weight, then where
/// it first is).
fn smallest(weights: &[u16]) -> Option<usize> {
    let least = weights.iter().fold(u16::MAX, |least, &w| least.min(w));
    (least < TRUE_WEIGHT).then(|| weights.iter().position(|&w| w == least).expect("the minimum is there"))
}

/// Whether a set of this weight is open: no literal true, some open (an
/// empty one is a conflict propagation reports).
pub(super) fn is_open(weight: u16) -> bool {
    weight > 0 && weight < TRUE_WEIGHT
}

/// Above the size of any set (at most 64 cells or digits), so that a set
/// with a true literal weighs more than every open set; a set of 64 true
/// literals still fits in 16 bits.
const TRUE_WEIGHT: u16 = 1 << 8;

impl Branches {
    /// No sets, on `var_count` variables: for propagation without a search.
    pub(super) fn none(var_count: usize) -> Branches {
        Branches {
            lits: Vec::new(),
            ends: Vec::new(),
            sets_of: Csr::empty(var_count),
            weight: Vec::new(),
            activity: vec![0; var_count],
            open_activity: Vec::new(),
            scoring: false,
            pending: Vec::new(),
            plain: 0,
        }
    }

    pub(super) fn new<'s>(puzzle: &Puzzle, encoded: &Encoded, choices: impl Iterator<Item = &'s [Lit]>) -> Branches {
        let vars = &encoded.vars;
        let (mut lits, mut ends) = (Vec::new(), Vec::new());
        let mut plain = 0;
        if vars.digits() == DigitEncoding::Direct {
            let n = puzzle.digits();
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
            for selectors in choices {
                lits.extend_from_slice(selectors);
                ends.push(lits.len() as u32);
            }
            plain = ends.len();
            for set in &encoded.exactly_one {
                lits.extend_from_slice(set);
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
        let weight: Vec<u16> = ranges().map(|range| range.len() as u16).collect();
        let (activity, open_activity) = (vec![0; encoded.formula.var_count()], vec![0; weight.len()]);
        Branches { lits, ends, sets_of, weight, activity, open_activity, scoring: false, pending: Vec::new(), plain }
    }

    pub(super) fn set(&self, set: usize) -> &[Lit] {
        let start = if set == 0 { 0 } else { self.ends[set - 1] as usize };
        &self.lits[start..self.ends[set] as usize]
    }

    pub(super) fn weights(&self) -> &[u16] {
        &self.weight
    }

    pub(super) fn set_weights(&mut self, weights: &[u16]) {
        self.weight.copy_from_slice(weights);
    }

    pub(super) fn became_true(&mut self, lit: Lit) {
        let change = Branches::change(lit);
        if self.scoring && !lit.is_positive() {
            self.false_activity(lit.index(), true);
        }
        for &set in self.sets_of.of(lit.index()) {
            let weight = self.weight[set as usize].wrapping_add(change);
            self.weight[set as usize] = weight;
            if weight <= 1 {
                self.pending.push(set);
            }
        }
    }

    /// The set's weight: open literals, plus [`TRUE_WEIGHT`] per true one.
    pub(super) fn weight_of(&self, set: u32) -> u16 {
        self.weight[set as usize]
    }

    /// Whether `clause` (sorted by code, no literal twice) says "at least
    /// one of" some set: holds exactly that set's literals.
    pub(super) fn is_set_clause(&self, clause: &[Lit]) -> bool {
        let Some(first) = clause.first().filter(|l| l.is_positive() && l.index() < self.sets_of.keys()) else {
            return false;
        };
        self.sets_of.of(first.index()).iter().any(|&set| {
            let lits = self.set(set as usize);
            lits.len() == clause.len()
                && lits.iter().all(|l| clause.binary_search_by_key(&l.code(), |c| c.code()).is_ok())
        })
    }

    pub(super) fn reopened(&mut self, lit: Lit) {
        let change = Branches::change(lit);
        for &set in self.sets_of.of(lit.index()) {
            self.weight[set as usize] = self.weight[set as usize].wrapping_sub(change);
        }
    }

    /// [`Branches::reopened`] while scoring.
    pub(super) fn reopened_scoring(&mut self, lit: Lit) {
        if !lit.is_positive() {
            self.false_activity(lit.index(), false);
        }
        self.reopened(lit);
    }

    /// Variable `var` just became false (`now`) or open again from false:
    /// its activity leaves its sets' sums or comes back. Out of line, so
    /// that the searches that do not learn keep their hot loops as they were.
    #[cold]
    #[inline(never)]
    fn false_activity(&mut self, var: usize, now: bool) {
        let activity = self.activity[var];
        for &set in self.sets_of.of(var) {
            let sum = &mut self.open_activity[set as usize];
            *sum = if now { *sum - activity } else { *sum + activity };
        }
    }

    /// Whether [`Branches::open_activity`] is kept in step.
    pub(super) fn scoring(&self) -> bool {
        self.scoring
    }

    /// A variable's activity.
    pub(super) fn activity(&self, var: usize) -> u64 {
        self.activity[var]
    }

    /// The activity of `set`'s literals not false; valid while scoring.
    pub(super) fn open_activity(&self, set: usize) -> u64 {
        self.open_activity[set]
    }

    /// Keeps each set's [`Branches::open_activity`] in step from now on
    /// (`on`), computed afresh from `lit_values` (per literal code: 0
    /// false), or stops keeping it.
    pub(super) fn score(&mut self, on: bool, lit_values: &[u8]) {
        self.scoring = on;
        if on {
            for set in 0..self.weight.len() {
                let not_false = self.set(set).iter().filter(|l| lit_values[l.code()] != 0);
                self.open_activity[set] = not_false.map(|l| self.activity[l.index()]).sum();
            }
        }
    }

    /// Adds `amount` to the activity of `vars`, and to their sets' where
    /// the variable is not false (per literal code in `lit_values`: 0).
    pub(super) fn bump(&mut self, vars: &[usize], amount: u64, lit_values: &[u8]) {
        for &v in vars {
            self.activity[v] += amount;
            if self.scoring && lit_values[Lit::from_index(v, true).code()] != 0 {
                for &set in self.sets_of.of(v) {
                    self.open_activity[set as usize] += amount;
                }
            }
        }
    }

    /// Divides every activity by `2^shift` (activities only compare, so
    /// their scale can be brought down before it overflows), the sets'
    /// sums computed afresh from `lit_values`.
    pub(super) fn rescale(&mut self, shift: u32, lit_values: &[u8]) {
        self.activity.iter_mut().for_each(|a| *a >>= shift);
        self.score(self.scoring, lit_values);
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

    /// The first set with no true literal and the fewest open ones among
    /// the cells', groups' and alternatives' sets; if each of those has a
    /// true literal, among the encoding's exactly-one sets; `None` when
    /// every set has a true literal.
    pub(super) fn smallest_open(&self) -> Option<usize> {
        // The plain sets first, then the encoding's (open only if some plain
        // set is, in practice: the cells decide them).
        let (plain, extra) = self.weight.split_at(self.plain);
        smallest(plain).or_else(|| smallest(extra).map(|set| self.plain + set))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{encode, Encoding};

    /// A 4x4 with the cage r1c1 + r1c2 = 5: the branch sets are the 16
    /// cells' digits, the 12 full groups' cells for each of 4 digits, then
    /// the cage's and its two hidden cages' combinations, two each; before
    /// any conflict the smallest open set is a cell's or a group's (four
    /// literals), not a cage's (two).
    #[test]
    fn a_cages_combinations_come_after_the_cells_and_groups() {
        let p = crate::parse::parse("size 4\nkiller r1c1 r1c2 = 5\n", "a cage", None).unwrap();
        let encoded = encode(&p, &Encoding::default());
        let branches = Branches::new(&p, &encoded, std::iter::empty());
        assert_eq!(branches.plain, 16 + 12 * 4);
        assert_eq!(branches.weights().len(), 16 + 12 * 4 + 3);
        for (k, selectors) in encoded.exactly_one.iter().enumerate() {
            assert_eq!(branches.set(branches.plain + k), selectors.as_slice());
        }
        assert_eq!(branches.smallest_open(), Some(0));
    }
}
