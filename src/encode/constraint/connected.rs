//! Connected values (ISS's `ConnectedValues`): the cells holding one of a
//! set of digits form one region, not empty, connected through orthogonal
//! neighbours, of a given size if one is given.
//!
//! Connectivity as reachability unrolled over steps, the usual SAT
//! formulation of a connected subgraph with a root: a member literal per
//! cell (it holds one of the digits); the root, the first member in reading
//! order (a literal per cell for "some member comes before it"); and
//! `reached(c, k)`, "`c` is a member at most `k` orthogonal steps from the
//! root through members", defined both ways:
//!
//! `reached(c, 0) = root(c)`,
//! `reached(c, k + 1) = member(c) and (reached(c, k) or reached(n, k) for a neighbour n)`;
//!
//! then every member is reached within `K` steps, `K` one less than the
//! most members there can be (a connected region of `m` cells has every
//! cell within `m - 1` steps of any other). Every literal is fixed by the
//! digits, so a grid has one assignment of them or none: none exactly when
//! its members are not connected. The size, when given, is a sequential
//! counter over the member literals (Sinz 2005), also fixed by the digits.
//! Propagation is not domain consistent (connectivity is not, by unit
//! propagation on such a formula); it is sound, and complete once the
//! digits are.

use varisat::Lit;

use super::grouped::Differ;
use super::{at_least_of, Spelling};
use crate::encode::amo::{AtMostOne, Sequential};
use crate::encode::ClauseSink;
use crate::model::{connected_members, line_rule, orthogonal, Cell, Constraint, Digit, Puzzle};

/// The clauses of the connected region of the cells holding one of
/// `digits` (bit `d - 1`) on a `side x side` grid of `n` digits, of
/// `size` cells if given.
pub(super) fn encode_connected(
    side: usize,
    digits: u64,
    size: Option<usize>,
    n: usize,
    differ: &Differ,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let cells: Vec<Cell> = itertools::iproduct!(0..side, 0..side).map(|(r, c)| Cell::new(r, c)).collect();
    let listed: Vec<Digit> = (1..=n.min(64) as Digit).filter(|d| digits >> (d - 1) & 1 == 1).collect();
    if listed.len() == n {
        // Every cell is a member: the grid is connected; only its size.
        if size.is_some_and(|s| s != cells.len()) {
            out.add_clause(&[]);
        }
        return;
    }
    // member(c): the cell holds one of the digits.
    let member: Vec<Lit> = cells
        .iter()
        .map(|&cell| {
            let holds: Vec<Lit> = listed.iter().map(|&d| spelling.is(cell, d, out)).collect();
            super::one_or_any_of(&holds, out)
        })
        .collect();
    // Not empty.
    out.add_clause(&member);
    let rows_differ = (0..side).all(|r| differ.all_differ(&cells[r * side..(r + 1) * side]));
    let most = connected_members(side, digits, size, rows_differ);
    connect(&member, side, most, out);
    if let Some(size) = size {
        exactly(&member, size, out);
    }
}

/// The clauses that make the cells whose `member` literal holds on a
/// `side x side` grid (in reading order) connected, if there are any, each
/// within `most - 1` orthogonal steps of the first: reachability as the
/// module's doc says.
fn connect(member: &[Lit], side: usize, most: usize, out: &mut dyn ClauseSink) -> Vec<Option<Lit>> {
    let fresh = |out: &mut dyn ClauseSink| out.new_var().positive();
    let count = member.len();
    // before(c): some member comes before `c` (none before the first cell).
    let mut before: Vec<Option<Lit>> = vec![None];
    for c in 1..count {
        let b = fresh(out);
        out.add_clause(&[!member[c - 1], b]);
        match before[c - 1] {
            Some(prev) => {
                out.add_clause(&[!prev, b]);
                out.add_clause(&[!b, prev, member[c - 1]]);
            }
            None => out.add_clause(&[!b, member[c - 1]]),
        }
        before.push(Some(b));
    }
    // The root: the first member.
    let roots: Vec<Option<Lit>> = (0..count)
        .map(|c| match before[c] {
            None => Some(member[c]),
            Some(b) => {
                let root = fresh(out);
                out.add_clause(&[!root, member[c]]);
                out.add_clause(&[!root, !b]);
                out.add_clause(&[!member[c], b, root]);
                Some(root)
            }
        })
        .collect();
    reach(member, roots, side, most, out);
    before
}

/// Every member within `most - 1` orthogonal steps, through members, of a
/// root (`roots[c]`, a literal that implies `member[c]`, or `None` where
/// no root can be): `reached(c, 0)` the root, `reached(c, k + 1)` defined
/// both ways from step `k` (`None` where no root is that near), and
/// `member(c) -> reached(c, most - 1)`.
fn reach(member: &[Lit], mut reached: Vec<Option<Lit>>, side: usize, most: usize, out: &mut dyn ClauseSink) {
    let count = member.len();
    let neighbours: Vec<Vec<usize>> = (0..count).map(|c| orthogonal(side, c).collect()).collect();
    for _ in 1..most {
        let next: Vec<Option<Lit>> = (0..count)
            .map(|c| {
                let near: Vec<Lit> = reached[c]
                    .iter()
                    .chain(neighbours[c].iter().filter_map(|&m| reached[m].as_ref()))
                    .copied()
                    .collect();
                if near.is_empty() {
                    return None;
                }
                let now = out.new_var().positive();
                out.add_clause(&[!now, member[c]]);
                out.add_clause(&[vec![!now], near].concat());
                if let Some(r) = reached[c] {
                    out.add_clause(&[!r, now]);
                }
                for r in neighbours[c].iter().filter_map(|&m| reached[m]) {
                    out.add_clause(&[!member[c], !r, now]);
                }
                Some(now)
            })
            .collect();
        reached = next;
    }
    for (&m, r) in member.iter().zip(reached) {
        match r {
            Some(r) => out.add_clause(&[!m, r]),
            None => out.add_clause(&[!m]),
        }
    }
}

/// The clauses of a chaos construction on a `side x side` grid
/// ([`crate::model::Constraint::Chaos`]), its labels in the cells below,
/// numbered in the reading order of their regions' 1s. Every row holds
/// each digit once ([`crate::model::Puzzle::into_chaos`] keeps the rows),
/// so that order is the rows': label `k` is the region of row `k`'s 1,
/// two clauses a cell (a 1 in row `k` has label `k`, a 1 elsewhere has
/// not), and row `k`'s 1 is the root its label's cells are connected to
/// ([`reach`]). For each label and digit, `y(c) <-> label(c) = k ∧ cell =
/// d` exactly once over the cells (a sequential counter), so each region
/// holds every digit once and, the `side` regions sharing the `side²`
/// cells, `side` cells. That size is also said outright, an
/// exactly-`side` counter over each label's cells: redundant, but unit
/// propagation then sees a region that is full or cannot grow (ISS's
/// examples "Cavernous Construction" and "Sunblock" went from 15 s and
/// 7 s to about 1.5 s); and so is a neighbour in its region for each
/// cell (down to about 0.6 s, "Let there be chaos" decided in 90 s).
/// Every auxiliary variable is fixed by the digits and labels.
///
/// With `by_first_cells` the labels are numbered instead in the reading
/// order of their regions' first cells, as they were before 2026-12-03:
/// label `k` only after a cell of label `k - 1`, and rooted at its first
/// cell ([`connect`]). Then the root of each label is found only with the
/// labels before it; rooted at the 1s, ISS's "Chaos Construction: x-sums"
/// went from 14.1 s to 2.6 s. But where the clues are on the regions
/// alone, the labels follow from the regions' shapes only by first cells
/// ("Calm Construction" 0.6 s by first cells, 5.4 s by 1s): such puzzles
/// ([`first_cell_labels`]) are numbered by first cells, and decoding
/// renumbers their labels by the 1s (docs/performance.md).
pub(super) fn encode_chaos(side: usize, by_first_cells: bool, spelling: &mut Spelling, out: &mut dyn ClauseSink) {
    let count = side * side;
    let cell = |i: usize| Cell::new(i / side, i % side);
    let label = |i: usize| Cell::new(side + i / side, i % side);
    let mut previous: Option<Vec<Option<Lit>>> = None;
    for k in 1..=side as Digit {
        let member: Vec<Lit> = (0..count).map(|i| spelling.is(label(i), k, out)).collect();
        if by_first_cells {
            // Label `k` only where label `k - 1` came before; rooted at its first cell.
            for (i, &m) in member.iter().enumerate() {
                match previous.as_ref().map(|before| before[i]) {
                    None => {}
                    Some(Some(b)) => out.add_clause(&[!m, b]),
                    Some(None) => out.add_clause(&[!m]),
                }
            }
            previous = Some(connect(&member, side, side, out));
        } else {
            let row = usize::from(k) - 1;
            let mut roots: Vec<Option<Lit>> = vec![None; count];
            for (i, &m) in member.iter().enumerate() {
                let one = spelling.is(cell(i), 1, out);
                if i / side == row {
                    out.add_clause(&[!one, m]);
                    roots[i] = Some(one);
                } else {
                    out.add_clause(&[!one, !m]);
                }
            }
            reach(&member, roots, side, side, out);
        }
        exactly(&member, side, out);
        if side > 1 {
            for (i, &m) in member.iter().enumerate() {
                let mut near = vec![!m];
                near.extend(orthogonal(side, i).map(|j| member[j]));
                out.add_clause(&near);
            }
        }
        for d in 1..=side as Digit {
            let some: Vec<Lit> = member
                .iter()
                .enumerate()
                .map(|(i, &m)| {
                    let holds = spelling.is(cell(i), d, out);
                    let y = out.new_var().positive();
                    out.add_clause(&[!y, m]);
                    out.add_clause(&[!y, holds]);
                    out.add_clause(&[y, !m, !holds]);
                    y
                })
                .collect();
            // At most one (its auxiliaries fixed once one y holds).
            Sequential.encode(&some, out);
            out.add_clause(&some);
        }
    }
}

/// Whether `puzzle` is a chaos construction each of whose rules is on
/// the regions alone (region runs), with no label given: then its labels
/// are numbered by their regions' first cells ([`encode_chaos`]). Only
/// there, so that a rule that reads a label's value, or a given label,
/// always means the label numbered by its region's 1, as the model says.
pub(crate) fn first_cell_labels(puzzle: &Puzzle) -> bool {
    if !puzzle.is_chaos() {
        return false;
    }
    let side = puzzle.side() / 2;
    let on_regions = puzzle.constraints().iter().all(|c| match c {
        Constraint::Chaos { .. } | Constraint::RegionRuns { .. } => true,
        // The padding's 1s (`Puzzle::into_chaos`).
        Constraint::Digits { cell, .. } => cell.col >= side,
        _ => false,
    });
    let labels_open = puzzle.cells().all(|cell| puzzle.labelled(cell).is_none() || puzzle.given(cell).is_none());
    on_regions && labels_open
}

/// The clauses of region runs ([`crate::model::Constraint::RegionRuns`]):
/// `eq(c)`, "label cell `c` holds the start's label", defined both ways
/// (`eq -> (c = k <-> start = k)` for each label, `c = k ∧ start = k ->
/// eq`); `same(a, j)`, "the arm's cells up to `j` are all in the start's
/// region", `same(a, j - 1) ∧ eq`; and a sequential counter over the
/// `same` literals, whose total plus 1 is the control's digit plus
/// `offset`, both ways (digit to total, total to digit).
pub(super) fn encode_region_runs(
    control: Cell,
    arms: &[Vec<Cell>],
    offset: u8,
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let start = arms[0][0];
    let mut same: Vec<Lit> = Vec::new();
    for arm in arms {
        let mut before: Option<Lit> = None;
        for &cell in &arm[1..] {
            let eq = out.new_var().positive();
            for k in 1..=n as Digit {
                let (a, b) = (spelling.is(cell, k, out), spelling.is(start, k, out));
                out.add_clause(&[!eq, !a, b]);
                out.add_clause(&[!eq, a, !b]);
                out.add_clause(&[!a, !b, eq]);
            }
            let now = match before {
                None => eq,
                Some(prev) => {
                    let now = out.new_var().positive();
                    out.add_clause(&[!now, prev]);
                    out.add_clause(&[!now, eq]);
                    out.add_clause(&[!prev, !eq, now]);
                    now
                }
            };
            same.push(now);
            before = Some(now);
        }
    }
    // at_least[t - 1]: at least t of the same literals, t = 1..=m.
    let m = same.len();
    let at_least = at_least_of(&same, m, out);
    // The total t of same literals: the control's digit is t + 1 - offset.
    for t in 0..=m {
        let mut exactly: Vec<Lit> = Vec::new();
        if t >= 1 {
            exactly.push(!at_least[t - 1]);
        }
        if t < m {
            exactly.push(at_least[t]);
        }
        let digit = (t + 1).checked_sub(usize::from(offset)).filter(|d| (1..=n).contains(d));
        match digit {
            Some(d) => {
                let is = spelling.is(control, d as Digit, out);
                out.add_clause(&[exactly.clone(), vec![is]].concat());
                for &e in &exactly {
                    out.add_clause(&[!is, !e]);
                }
            }
            None => out.add_clause(&exactly),
        }
    }
    for d in 1..=n {
        if usize::from(offset) + d - 1 > m {
            out.add_clause(&spelling.not(control, d as Digit));
        }
    }
}

/// Exactly `k` of `lits`: a sequential counter ([`at_least_of`]) up to
/// `k + 1`, the `k`th literal true and the `k + 1`th false.
fn exactly(lits: &[Lit], k: usize, out: &mut dyn ClauseSink) {
    if k > lits.len() {
        out.add_clause(&[]);
        return;
    }
    let at_least = at_least_of(lits, k + 1, out);
    if k >= 1 {
        out.add_clause(&[at_least[k - 1]]);
    }
    if let Some(&too_many) = at_least.get(k) {
        out.add_clause(&[!too_many]);
    }
}

/// The most regions a count-distinct over a chaos construction's label
/// cells can meet (ISS's `_addChaosCountDistinctMaxBounds`), as clauses on
/// its control: every region has `side` connected cells, so a counted cell
/// whose orthogonal neighbours are all counted shares its region with one
/// of them. Such enclosed cells taken greedily in the clue's order, each
/// only while neither it nor a neighbour is in an earlier one's closed
/// neighbourhood, give pairs of counted cells with one label each, no two
/// pairs sharing a cell: each takes one off the labels the counted cells
/// can hold. The control's values past the counted cells less those pairs
/// are ruled out (none when that is not below `side`).
pub(super) fn encode_chaos_count_bounds(puzzle: &Puzzle, spelling: &mut Spelling, out: &mut dyn ClauseSink) {
    if !puzzle.is_chaos() {
        return;
    }
    let side = puzzle.side() / 2;
    let grid_index = |label: Cell| puzzle.labelled(label).map(|c| c.row * side + c.col);
    for constraint in puzzle.constraints() {
        let Constraint::CountDistinct { control, cells, first } = constraint else { continue };
        if grid_index(*control).is_some() {
            continue;
        }
        let Some(mut counted) = cells.iter().map(|&c| grid_index(c)).collect::<Option<Vec<usize>>>() else { continue };
        let mut seen = vec![false; side * side];
        counted.retain(|&i| !std::mem::replace(&mut seen[i], true));
        let most = counted.len() - enclosed_pairs(side, &counted);
        if most >= side {
            continue;
        }
        for d in 1..=puzzle.digits() as Digit {
            if line_rule::value(d, *first) as usize > most {
                out.add_clause(&spelling.not(*control, d));
            }
        }
    }
}

/// How many counted cells (grid indices on a `side x side` grid) are
/// enclosed by counted neighbours with closed neighbourhoods no two of
/// which meet, taken greedily in the order given; 0 on a grid of one cell,
/// where a region needs no neighbour.
fn enclosed_pairs(side: usize, counted: &[usize]) -> usize {
    if side < 2 {
        return 0;
    }
    let mut used = vec![false; side * side];
    let mut pairs = 0;
    for &cell in counted {
        let near: Vec<usize> = orthogonal(side, cell).collect();
        if !near.iter().all(|n| counted.contains(n)) || used[cell] || near.iter().any(|&n| used[n]) {
            continue;
        }
        pairs += 1;
        used[cell] = true;
        for n in near {
            used[n] = true;
        }
    }
    pairs
}
