//! Support clauses derived from binary conflicts with a cell, so that unit
//! propagation on the forbidden-pairs encoding is arc consistent.

use varisat::{Lit, Var};

use super::watch::header;
use crate::count::csr::Csr;
use crate::encode::{DigitEncoding, Encoded, Slot};
use crate::model::{Cell, Digit};

/// Adds the implied clauses that make unit propagation arc consistent on
/// binary conflicts with a cell. For each cell's at-least-one clause
/// `y1 ∨ ... ∨ yn` and each variable `x` of another cell with binary clauses
/// `¬x ∨ ¬yi` for a set `S` of two or more of the `yi`: the resolvent
/// `¬x ∨ OR_{i∉S} yi` (the support clause of `x`), or the unit `¬x` when `S`
/// is every `yi`; each clause after its [`header`], as the arena holds
/// them. Resolvents only, so the models stay the same; with the
/// forbidden-pairs encoding they are the support encoding's clauses. (A
/// single conflict is a peer's digit, whose resolvent propagates nothing
/// new; across all positive clauses the resolvents outnumbered the formula.)
pub(super) fn derive_supports(
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
            lits.push(header(0));
            let at = lits.len();
            lits.push(Var::from_index(x).negative());
            for (bit, i) in range.clone().enumerate() {
                if hit >> bit & 1 == 0 {
                    lits.push(lits[i]);
                }
            }
            match lits.len() - at {
                1 => {
                    units.push(lits.pop().expect("just pushed"));
                    lits.pop(); // its header
                }
                n => {
                    lits[at - 1] = header(n);
                    clauses.push((at as u32, n as u32));
                }
            }
        }
    }
}

const NO_CELL: u32 = u32::MAX;

/// The cell of each variable that is one digit of one cell (direct digits),
/// [`NO_CELL`] for the others.
pub(super) fn cell_of(encoded: &Encoded) -> Vec<u32> {
    let vars = &encoded.vars;
    let mut cell_of = vec![NO_CELL; encoded.formula.var_count()];
    if vars.digits() == DigitEncoding::Direct {
        let n = vars.side();
        for (index, (r, c)) in itertools::iproduct!(0..n, 0..n).enumerate() {
            for d in 1..=vars.values() as Digit {
                if let Slot::Var(var) = vars.slot(vars.var(Cell::new(r, c), d)) {
                    cell_of[var.index()] = index as u32;
                }
            }
        }
    }
    cell_of
}
