//! Skyscrapers: seen from the first cell, `target` cells are taller than
//! every cell before them. The encoding used is the automaton's
//! ([`encode_visible`]: states (running maximum, cells seen), encoded by
//! `automaton.rs` so that unit propagation is domain consistent); the
//! forward-only decomposition ([`encode_visible_forward`]) is kept for
//! studies (`--lines forward`). The latter: along the line, the running maximum (one-hot
//! over the digits), a defined variable `taller` per cell (it exceeds that
//! maximum), and the number of cells seen so far (one-hot over 1..=target,
//! more being a conflict); every auxiliary variable is fixed by
//! propagation once the digits are, so none changes a count.

use varisat::Lit;

use super::{at_most_one, Spelling};
use crate::encode::ClauseSink;
use crate::model::{Cell, Digit};

/// The rule as an automaton over the line: the state is the tallest digit
/// so far and the cells seen; a taller digit is one more seen, more than
/// `target` is a dead end; the line is accepted with exactly `target` seen.
/// The tallest starts at `ground`: 0, or 1 on a grid of values from 0,
/// whose digit 1 (the value 0) is no building (`LineRule::Skyline`).
/// On a whole line of `distinct` cells (`n` cells of different digits, a
/// row of the grid) every digit comes once, so the tallest read last is `n`
/// and no building equals the tallest before it: a clue of 1 puts `n`
/// first, which the rule alone does not (its lines may repeat a digit and
/// leave `n` out).
pub(super) fn encode_visible(
    cells: &[Cell],
    target: u8,
    n: usize,
    ground: Digit,
    distinct: bool,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let whole = distinct && cells.len() == n;
    let step = |&(tallest, seen): &(Digit, u8), d: Digit| match d > tallest {
        true if seen < target => Some((d, seen + 1)),
        true => None,
        false if whole && d == tallest && d > ground => None,
        false => Some((tallest, seen)),
    };
    let accept = |&(tallest, seen): &(Digit, u8)| seen == target && (!whole || usize::from(tallest) == n);
    super::automaton::encode_line(cells, n, (ground, 0), step, accept, spelling, out);
}

/// The forward-only decomposition (the encoding before the automaton):
/// unit propagation follows the line forwards only.
pub(super) fn encode_visible_forward(
    cells: &[Cell],
    target: u8,
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let t = usize::from(target);
    if t == 0 || t > cells.len() {
        out.add_clause(&[]);
        return;
    }
    let digits = |spelling: &mut Spelling, cell: Cell, out: &mut dyn ClauseSink| -> Vec<Lit> {
        (1..=n as Digit).map(|d| spelling.is(cell, d, out)).collect()
    };
    // After the first cell: the maximum is its digit, and one cell is seen.
    let mut max = digits(spelling, cells[0], out);
    let yes = out.new_var().positive();
    out.add_clause(&[yes]);
    let mut seen: Vec<Lit> = (1..=t).map(|c| if c == 1 { yes } else { !yes }).collect();
    for &cell in &cells[1..] {
        let is = digits(spelling, cell, out);
        let taller = out.new_var().positive();
        let next_max: Vec<Lit> = (0..n).map(|_| out.new_var().positive()).collect();
        for (m, d) in itertools::iproduct!(0..n, 0..n) {
            out.add_clause(&[!max[m], !is[d], next_max[m.max(d)]]);
            out.add_clause(&[!max[m], !is[d], if d > m { taller } else { !taller }]);
        }
        at_most_one(&next_max, out);
        let next_seen: Vec<Lit> = (0..t).map(|_| out.new_var().positive()).collect();
        for c in 0..t {
            out.add_clause(&[!seen[c], taller, next_seen[c]]);
            match next_seen.get(c + 1) {
                Some(&more) => out.add_clause(&[!seen[c], !taller, more]),
                None => out.add_clause(&[!seen[c], !taller]), // more than `target` seen
            }
        }
        at_most_one(&next_seen, out);
        (max, seen) = (next_max, next_seen);
    }
    out.add_clause(&[seen[t - 1]]);
}
