//! The builders of the rules: each rule as the model expresses it, in
//! groups, relations and constraints.

pub(super) use super::context::pairs_at;
use itertools::Itertools;

use super::context::{Context, Ties};
use super::{Args, RuleError};
use crate::model::{Cell, Constraint, Digit, GroupKind, LineRule, Predicate, Puzzle};

pub(super) const KNIGHT: [(i64, i64); 8] = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)];
pub(super) const KING_DIAGONAL: [(i64, i64); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

pub(super) fn relate_all(p: &mut Puzzle, pairs: &[(Cell, Cell)], predicate: Predicate) -> Result<(), RuleError> {
    pairs.iter().try_for_each(|&(a, b)| p.add_relation(a, b, predicate)).map_err(RuleError::from)
}

/// Relates each cell of a line to the next.
pub(super) fn along(p: &mut Puzzle, cells: &[Cell], predicate: Predicate) -> Result<(), RuleError> {
    cells.windows(2).try_for_each(|w| p.add_relation(w[0], w[1], predicate)).map_err(RuleError::from)
}

/// The number a rule requires.
pub(super) fn required(a: &Args) -> Result<i64, RuleError> {
    a.value.ok_or_else(|| RuleError::value("expected a number"))
}

/// The rule's number, a positive one (`default` when not given).
pub(super) fn positive(a: &Args, default: u32) -> Result<u32, RuleError> {
    match a.value {
        None => Ok(default),
        Some(v) if (1..=4096).contains(&v) => Ok(v as u32),
        Some(v) => Err(RuleError::value(format!("expected a positive number, found {v}"))),
    }
}

/// The sums `k` distinct digits of `1..=n` can have: `1+2+..+k` to
/// `n+(n-1)+..+(n-k+1)`.
pub(crate) fn distinct_sum_range(k: i64, n: i64) -> (i64, i64) {
    (k * (k + 1) / 2, k * (2 * n - k + 1) / 2)
}

/// A killer cage: distinct digits, summing to its value if given.
pub(super) fn killer(p: &mut Puzzle, ctx: &mut Context, a: &Args) -> Result<(), RuleError> {
    let cells = &a.cells;
    for (i, cell) in cells.iter().enumerate() {
        if cells[..i].contains(cell) {
            return Err(format!("the cage lists cell {cell} twice").into());
        }
    }
    if let Some(cell) = cells.iter().find(|c| ctx.caged.contains(c)) {
        return Err(format!("cell {cell} is already in another cage").into());
    }
    ctx.caged.extend(cells);
    if let Some(value) = a.value {
        // The values are the digits 1..=digits less the shift (0, or 1
        // when they run from 0).
        let (k, n) = (cells.len() as i64, p.digits() as i64);
        let (lo, hi) = distinct_sum_range(k, n);
        let (lo, hi) = (lo - k * p.digit_shift(), hi - k * p.digit_shift());
        if k <= n && !(lo..=hi).contains(&value) {
            return Err(RuleError::value(format!("a cage of {k} distinct digits sums to {lo}..{hi}, not {value}")));
        }
        sum(p, cells, value)?;
    }
    p.add_cage(cells.clone()).map_err(RuleError::from)
}

/// A sum without distinctness: the cells' values sum to `value`.
pub(super) fn sum(p: &mut Puzzle, cells: &[Cell], value: i64) -> Result<(), RuleError> {
    let digits = value + p.digit_shift() * cells.len() as i64;
    let target = i32::try_from(digits).map_err(|_| RuleError::value(format!("sum {value} is out of range")))?;
    p.add_constraint(Constraint::Sum { terms: cells.iter().map(|&c| (c, 1)).collect(), target })
        .map_err(RuleError::from)
}

/// An arrow: the circle's cells, read as a number, equal the line's sum.
pub(super) fn arrow(p: &mut Puzzle, circle: &[Cell], line: &[Cell]) -> Result<(), RuleError> {
    if circle.is_empty() || line.is_empty() || circle.len() > 9 {
        return Err("an arrow needs one to nine circle cells and a line".into());
    }
    if circle.len() > 1 && p.digits() > 9 {
        return Err("a pill (two or more circle cells) on a grid whose digits pass 9: read as a number by place \
                    value (1 and 12 make 22) or by joining the digits (1 and 12 make 112, as the editor's solvers \
                    do)? Refusing to guess"
            .into());
    }
    if circle.len() > 1 && p.digit_shift() != 0 {
        return Err("a pill (two or more circle cells) on a grid whose values run from 0: not read yet".into());
    }
    let m = circle.len() as u32;
    // One circle cell: the line's values sum to the circle's, so the
    // digits' sums differ by the line's length less one times the shift.
    let target = if m == 1 { (p.digit_shift() * (line.len() as i64 - 1)) as i32 } else { 0 };
    let mut terms: Vec<(Cell, i32)> = line.iter().map(|&c| (c, 1)).collect();
    terms.extend(circle.iter().enumerate().map(|(i, &c)| (c, -(10i32.pow(m - 1 - i as u32)))));
    p.add_constraint(Constraint::Sum { terms, target }).map_err(RuleError::from)
}

/// Odd or even digits only in the cells.
pub(super) fn parity(p: &mut Puzzle, cells: &[Cell], odd: bool) -> Result<(), RuleError> {
    let odd_mask = (1..=64u32).filter(|d| d % 2 == 1).fold(0u64, |m, d| m | 1 << (d - 1));
    let allowed = if odd { odd_mask } else { !odd_mask };
    cells.iter().try_for_each(|&cell| p.add_constraint(Constraint::Digits { cell, allowed })).map_err(RuleError::from)
}

/// An outside clue's number, from 0 to `max`.
fn clue(a: &Args, max: i64) -> Result<i64, RuleError> {
    let value = required(a)?;
    if !(0..=max).contains(&value) {
        return Err(RuleError::value(format!("expected a number from 0 to {max}, found {value}")));
    }
    Ok(value)
}

/// An x-sum: the first `x` cells from the clue sum to its number, `x` the
/// first cell's digit.
pub(super) fn xsum(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let n = p.grid_side() as i64;
    let target = clue(a, n * (n + 1) / 2)? as i32;
    p.add_constraint(Constraint::XSum { cells: a.cells.clone(), target }).map_err(RuleError::from)
}

/// A sandwich sum: the cells between 1 and the largest digit sum to the number.
pub(super) fn sandwich(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let n = p.grid_side() as i64;
    let target = clue(a, n * (n + 1) / 2 - 1 - n)? as i32;
    let high = Digit::try_from(p.grid_side()).map_err(|_| RuleError::from("the grid is too large for a sandwich"))?;
    p.add_constraint(Constraint::Sandwich { cells: a.cells.clone(), target, low: 1, high }).map_err(RuleError::from)
}

/// A skyscraper clue: that many cells seen from it.
pub(super) fn skyscraper(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let target = clue(a, p.grid_side() as i64)?;
    if target == 0 {
        return Err(RuleError::value("a skyscraper clue sees at least 1 cell, found 0"));
    }
    let constraint = match p.first_value() {
        // On values from 0, 0s are no buildings (ISS's handler).
        0 => Constraint::Along { rule: LineRule::Skyline(target as u8), cells: a.cells.clone() },
        _ => Constraint::Visible { cells: a.cells.clone(), target: target as u8 },
    };
    p.add_constraint(constraint).map_err(RuleError::from)
}

/// A region-sum line: its segments in each region (boxes or jigsaw
/// regions; cells in none are left out, and a line that comes back to a
/// region starts a new segment) have equal sums.
pub(super) fn region_sum(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let (n, region) = (p.side(), p.regions());
    let mut parts: Vec<Vec<Cell>> = Vec::new();
    let mut last = None;
    for &cell in &a.cells {
        let Some(r) = region[cell.row * n + cell.col] else { continue };
        match parts.last_mut() {
            Some(part) if last == Some(r) => part.push(cell),
            _ => parts.push(vec![cell]),
        }
        last = Some(r);
    }
    equal_sums(p, parts)
}

/// A state machine over segments of cells (ISS's `NFA`): its serialised
/// form first (`a.list`, then ISS's label for it, if any), the segments
/// in `a.parts`, read with the symbol past the digits between two.
pub(super) fn state_machine(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let n = p.digits();
    let token = a.list.first().ok_or("a state machine, then cells")?;
    let machine = crate::model::nfa::Nfa::decode(token).map_err(|e| format!("the state machine: {e}"))?;
    if a.parts.len() > 1 && machine.symbols() <= n {
        let symbols = machine.symbols();
        return Err(format!(
            "a state machine of {symbols} symbols over several segments: it needs {} (the last between segments)",
            n + 1
        )
        .into());
    }
    let lengths: Vec<usize> = a.parts.iter().map(Vec::len).collect();
    if !machine.unrolls_within(&lengths, n, crate::model::nfa::MOST_MACHINE_EDGES) {
        return Err("a state machine whose unrolled automaton passes 200,000 edges on these cells: not read yet".into());
    }
    let name = a.list.get(1).cloned().unwrap_or_default();
    let machine = Constraint::Machine { token: token.clone(), name, segments: a.parts.clone(), n };
    p.add_constraint(machine).map_err(RuleError::from)
}

/// Equal sums (of values) over `parts`, when there are two or more. Parts
/// that share cells (a magic square's lines), and parts of different
/// lengths on a grid whose values run from 0 (their digits' sums then
/// differ by the lengths' difference), are each held against the first as
/// one weighted sum, a shared cell's weights added.
pub(super) fn equal_sums(p: &mut Puzzle, parts: Vec<Vec<Cell>>) -> Result<(), RuleError> {
    if parts.len() < 2 {
        return Ok(()); // one part equals itself
    }
    let all: Vec<Cell> = parts.concat();
    let disjoint = all.iter().enumerate().all(|(i, c)| !all[..i].contains(c));
    let shift = p.digit_shift();
    if disjoint && (shift == 0 || parts.iter().all(|part| part.len() == parts[0].len())) {
        return p.add_constraint(Constraint::EqualSums { parts }).map_err(RuleError::from);
    }
    for part in &parts[1..] {
        let signed = parts[0].iter().map(|&c| (c, 1)).chain(part.iter().map(|&c| (c, -1)));
        let terms = merged_terms(signed);
        let target = (shift * (parts[0].len() as i64 - part.len() as i64)) as i32;
        p.add_constraint(Constraint::Sum { terms, target }).map_err(RuleError::from)?;
    }
    Ok(())
}

/// Terms with each cell once, its weights added; cells whose weights
/// cancel left out.
pub fn merged_terms(terms: impl Iterator<Item = (Cell, i32)>) -> Vec<(Cell, i32)> {
    let mut out: Vec<(Cell, i32)> = Vec::new();
    for (cell, w) in terms {
        match out.iter_mut().find(|t| t.0 == cell) {
            Some(term) => term.1 += w,
            None => out.push((cell, w)),
        }
    }
    out.retain(|t| t.1 != 0);
    out
}

/// A zipper line: cells the same distance from the middle sum to the same
/// total, the middle cell's digit on an odd line.
pub(super) fn zipper(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let cells = &a.cells;
    let k = cells.len();
    let mut parts: Vec<Vec<Cell>> = (0..k / 2).map(|i| vec![cells[i], cells[k - 1 - i]]).collect();
    if k % 2 == 1 {
        parts.push(vec![cells[k / 2]]);
    }
    equal_sums(p, parts)
}

/// A double arrow: the two ends sum to the cells between them.
pub(super) fn double_arrow(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let cells = &a.cells;
    let k = cells.len();
    equal_sums(p, vec![vec![cells[0], cells[k - 1]], cells[1..k - 1].to_vec()])
}

/// Relates every two cells of the line whose positions differ modulo `k`
/// (entropic and modular lines, `k` 3: any three in a row differ; ISS's
/// modular lines take their `k`).
pub fn every_nth(p: &mut Puzzle, cells: &[Cell], k: usize, predicate: Predicate) -> Result<(), RuleError> {
    for (i, &a) in cells.iter().enumerate() {
        for (j, &b) in cells.iter().enumerate().skip(i + 1) {
            if i % k != j % k {
                p.add_relation(a, b, predicate)?;
            }
        }
    }
    Ok(())
}

/// The entropic classes of `1..=n`: low, middle and high, as the editor's
/// solvers split them (sizes not divisible by 3: the outer classes equal).
pub(super) fn entropy_classes(n: u32) -> Predicate {
    let (floor, ceil) = (n / 3, n.div_ceil(3));
    let outer = if 2 * floor + ceil == n { floor } else { ceil };
    let middle = n - 2 * outer;
    Predicate::DifferentClass { low: outer, high: outer + middle }
}

/// Relates every two cells of the line.
pub(super) fn every_pair(p: &mut Puzzle, cells: &[Cell], predicate: Predicate) -> Result<(), RuleError> {
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            p.add_relation(a, b, predicate)?;
        }
    }
    Ok(())
}

/// A lockout line: its ends differ by at least half the side (rounded
/// down), and no digit on it lies between them, both included.
pub(super) fn lockout(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let cells = &a.cells;
    let ends = (cells[0], cells[cells.len() - 1]);
    p.add_relation(ends.0, ends.1, Predicate::DifferenceAtLeast { min: (p.grid_side() / 2) as u32 })?;
    let inner = cells[1..cells.len() - 1].to_vec();
    if inner.is_empty() {
        return Ok(());
    }
    p.add_constraint(Constraint::Outside { ends, inner }).map_err(RuleError::from)
}

/// Which line an indexer cell indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Indexer {
    /// Its column: the digit `d` in row `r` puts `r` in row `d`.
    Row,
    /// Its row: the digit `d` in column `c` puts `c` in column `d`.
    Column,
    /// Its box or region: the digit `d` in position `i` puts `i` in position `d`.
    Box,
}

/// Indexer cells (as the editor's solvers read them: a row indexer's digit
/// names the row where its own row number stands in its column).
pub(super) fn indexer(p: &mut Puzzle, a: &Args, kind: Indexer) -> Result<(), RuleError> {
    let (n, (rows, cols)) = (p.side(), p.shape());
    let region = p.regions();
    for &cell in &a.cells {
        // A rectangle's column is shorter than its row (or the reverse):
        // a digit past its line names no cell (ISS's handler).
        let (line, position): (Vec<Cell>, usize) = match kind {
            Indexer::Row => ((0..rows).map(|r| Cell::new(r, cell.col)).collect(), cell.row),
            Indexer::Column => ((0..cols).map(|c| Cell::new(cell.row, c)).collect(), cell.col),
            Indexer::Box => {
                let r = region[cell.row * n + cell.col]
                    .ok_or_else(|| RuleError::from(format!("box indexer {cell} is in no box or region")))?;
                let group = p.groups().iter().filter(|g| matches!(g.kind, GroupKind::Box | GroupKind::Region)).nth(r);
                let line = group.map(|g| g.cells.clone()).unwrap_or_default();
                let position = line.iter().position(|&c| c == cell).unwrap_or(0);
                (line, position)
            }
        };
        let value = Digit::try_from(position + 1).map_err(|_| RuleError::from("the grid is too large"))?;
        p.add_constraint(Constraint::Index { cell, line, value })?;
    }
    Ok(())
}

/// Every 2x2 square of an `n` x `n` grid, top-left first, in reading order.
pub fn windows_2x2(n: usize) -> Vec<Vec<Cell>> {
    let corners = itertools::iproduct!(0..n.saturating_sub(1), 0..n.saturating_sub(1));
    corners
        .map(|(r, c)| vec![Cell::new(r, c), Cell::new(r, c + 1), Cell::new(r + 1, c), Cell::new(r + 1, c + 1)])
        .collect()
}

/// The low, middle and high digits of `1..=n`, as `entropic` splits them
/// (1-3, 4-6, 7-9 on 9x9), one bit a digit.
pub fn entropy_windows(n: usize) -> Vec<u64> {
    let Predicate::DifferentClass { low, high } = entropy_classes(n as u32) else { unreachable!() };
    let span = |from: u32, to: u32| (from..=to).fold(0u64, |m, d| m | 1 << (d - 1));
    vec![span(1, low), span(low + 1, high), span(high + 1, n as u32)]
}

/// The digits of `1..=n` by their residue modulo 3 (1 4 7, 2 5 8, 3 6 9
/// on 9x9), one bit a digit.
pub fn modular_windows(n: usize) -> Vec<u64> {
    (1..=3u32).map(|r| (1..=n as u32).filter(|d| d % 3 == r % 3).fold(0u64, |m, d| m | 1 << (d - 1))).collect()
}

/// ISS's global entropy (`classes` from [`entropy_windows`]) or global
/// modular rule ([`modular_windows`]): every 2x2 square holds a digit of
/// each class. Grids of 3 or more digits (each class must have one).
pub(super) fn global_windows(p: &mut Puzzle, classes: Vec<u64>) -> Result<(), RuleError> {
    let n = p.side();
    if n < 3 {
        return Err(format!("a {n}x{n} grid has fewer than three classes of digits").into());
    }
    for cells in windows_2x2(n) {
        p.add_constraint(Constraint::Classes { cells, classes: classes.clone() })?;
    }
    Ok(())
}

/// ISS's anti-taxicab rule: two cells a taxicab distance `d` apart (rows
/// plus columns) do not both hold `d`.
pub(super) fn anti_taxicab(p: &mut Puzzle) -> Result<(), RuleError> {
    let side = p.side();
    p.add_constraint(Constraint::AntiTaxicab { side }).map_err(RuleError::from)
}

/// A numbered room clue outside the grid: the line's first digit `D` says
/// where the clue's digit stands on the line, in cell `D`.
pub(super) fn numbered_room(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let value = clue(a, p.grid_side() as i64)?;
    if value == 0 {
        return Err(RuleError::value("a numbered room's digit is one of 1..N, not 0"));
    }
    let cell = a.cells[0];
    p.add_constraint(Constraint::Index { cell, line: a.cells.clone(), value: value as Digit }).map_err(RuleError::from)
}

/// A sum line (ISS's `SumLine`): the line splits into consecutive
/// segments, each summing to its number; with `round`, the cells are a
/// loop and the split may start at any cell.
pub(super) fn sum_line(p: &mut Puzzle, a: &Args, round: bool) -> Result<(), RuleError> {
    let target = positive(a, 0)?;
    if target == 0 {
        return Err(RuleError::value("expected the segments' sum"));
    }
    // An automaton for each offset below the number, each with a state for
    // each open sum: refused past 2,000,000 edges in all.
    let edges = |t: u64| t * (t + 1) * p.digits() as u64 * a.cells.len() as u64;
    if round && (target > 64 || edges(u64::from(target)) > 2_000_000) {
        return Err(RuleError::value(format!(
            "a sum loop of {} cells summing to {target}: its automata would pass 2,000,000 edges; not read yet",
            a.cells.len()
        )));
    }
    // On a grid of values from 0, the values are summed (ISS's handler).
    let first = p.first_value();
    let rule =
        if round { LineRule::LoopSegments { sum: target, first } } else { LineRule::Segments { sum: target, first } };
    p.add_constraint(Constraint::Along { rule, cells: a.cells.clone() }).map_err(RuleError::from)
}

/// A cage of different digits with a rule over them (ISS's rellik and
/// equality cages); the cells may be listed in any order.
fn cage_with(p: &mut Puzzle, cells: &[Cell], rule: LineRule) -> Result<(), RuleError> {
    for (i, cell) in cells.iter().enumerate() {
        if cells[..i].contains(cell) {
            return Err(format!("the cage lists cell {cell} twice").into());
        }
    }
    p.add_cage(cells.to_vec())?;
    p.add_constraint(Constraint::Along { rule, cells: cells.to_vec() }).map_err(RuleError::from)
}

/// A rellik cage (ISS's `RellikCage`): different digits, no set of one or
/// more of which sums to the number.
pub(super) fn rellik(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let target = positive(a, 0)?;
    if !(1..=127).contains(&target) {
        return Err(RuleError::value(format!("expected a sum from 1 to 127, found {}", a.value.unwrap_or(0))));
    }
    cage_with(p, &a.cells, LineRule::Rellik { sum: target, first: p.first_value() })
}

/// An equality cage (ISS's `EqualityCage`): different digits, as many even
/// as odd and as many low as high, no middle digit; an even number of
/// cells (ISS refuses others).
pub(super) fn equality_cage(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    if a.cells.len() % 2 == 1 {
        return Err(format!("an equality cage of {} cells: it needs an even number", a.cells.len()).into());
    }
    let n = u8::try_from(p.digits()).map_err(|_| RuleError::from("too many digits for an equality cage"))?;
    cage_with(p, &a.cells, LineRule::Balanced(n))
}

/// A hidden skyscraper clue outside the grid (ISS's `HiddenSkyscraper`):
/// the first cell lower than one before it, seen from the clue, holds the
/// clue's value (on a grid of values from 0, the digit one more).
pub(super) fn hidden_skyscraper(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let shift = p.digit_shift();
    let value = clue(a, p.grid_side() as i64 - shift)?;
    if value + shift == 0 {
        return Err(RuleError::value("a hidden skyscraper's digit is one of 1..N, not 0"));
    }
    let rule = LineRule::FirstHidden(1 << (value + shift - 1));
    p.add_constraint(Constraint::Along { rule, cells: a.cells.clone() }).map_err(RuleError::from)
}

/// The digits written as one number (`= 557`: 5, 5 and 7), on grids of at
/// most 9 digits.
pub(super) fn digits_of_value(p: &Puzzle, a: &Args) -> Result<Vec<Digit>, RuleError> {
    let value = required(a)?;
    if p.digits() > 9 {
        return Err("digits written as one number: only on grids of 9 digits or fewer".into());
    }
    if value <= 0 {
        return Err(RuleError::value(format!("expected digits written as one number, found {value}")));
    }
    Ok(value.to_string().bytes().map(|b| b - b'0').collect())
}

/// Each digit of `digits` (which may repeat) appears exactly as often as
/// listed.
fn exactly(p: &mut Puzzle, cells: &[Cell], counts: Vec<(Digit, u8)>) -> Result<(), RuleError> {
    let n = p.digits();
    if let Some(&(d, _)) = counts.iter().find(|&&(d, _)| d == 0 || usize::from(d) > n) {
        return Err(RuleError::value(format!("digit {d} is outside 1..{n}")));
    }
    let listed: usize = counts.iter().map(|&(_, t)| usize::from(t)).sum();
    if listed > cells.len() {
        return Err(format!("{listed} digits do not fit in {} cells", cells.len()).into());
    }
    p.add_constraint(Constraint::Exactly { cells: cells.to_vec(), counts }).map_err(RuleError::from)
}

/// ISS's `ContainExact`: the cells hold each listed digit exactly as often
/// as it is listed (`= 557`: two 5s and one 7).
pub(super) fn contain_exact(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let mut digits = digits_of_value(p, a)?;
    digits.sort_unstable();
    let counts = digits.iter().dedup_with_count().map(|(t, &d)| (d, t as u8)).collect();
    exactly(p, &a.cells, counts)
}

/// ISS's `LookAndSay`: the clue's digits in pairs (count, digit): `= 1223`
/// is exactly one 2 and two 3s; a count of 0 keeps the digit out.
pub(super) fn look_and_say(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let mut clue = digits_of_value(p, a)?;
    if clue.len() % 2 == 1 {
        clue.insert(0, 0); // a leading count of 0, which a number does not write
    }
    let mut counts: Vec<(Digit, u8)> = Vec::new();
    for pair in clue.chunks(2) {
        let (times, d) = (pair[0], pair[1]);
        if counts.iter().any(|&(e, _)| e == d) {
            return Err(RuleError::value(format!("the clue names digit {d} twice")));
        }
        counts.push((d, times));
    }
    counts.sort_unstable();
    exactly(p, &a.cells, counts)
}

/// ISS's `CountingCircles`: each circle's digit says how many circles hold
/// it.
pub(super) fn counting_circles(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let first = p.first_value();
    p.add_constraint(Constraint::Counting { cells: a.cells.clone(), first }).map_err(RuleError::from)
}

/// ISS's `DutchFlatmates`: down each column, each middle digit has a 1
/// directly above it or the largest digit directly below it.
pub(super) fn dutch_flatmates(p: &mut Puzzle) -> Result<(), RuleError> {
    let n = p.side();
    let digits = u8::try_from(p.digits()).map_err(|_| RuleError::from("too many digits"))?;
    if digits < 3 {
        return Err("Dutch flatmates needs 3 or more digits".into());
    }
    for c in 0..n {
        let cells = (0..n).map(|r| Cell::new(r, c)).collect();
        p.add_constraint(Constraint::Along { rule: LineRule::Flatmates(digits), cells })?;
    }
    Ok(())
}

/// A lunchbox (ISS's `Lunchbox`): different digits, those strictly
/// between the smallest and the largest (in the order the cells are
/// listed) summing to the number.
pub(super) fn lunchbox(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let target = required(a)?;
    if !(0..=4096).contains(&target) {
        return Err(RuleError::value(format!("expected a sum from 0, found {target}")));
    }
    cage_with(p, &a.cells, LineRule::Lunchbox { sum: target as u32, first: p.first_value() })
}

/// A value indexing line (ISS's `ValueIndexing`): the first cell's digit
/// stands on the line past the second cell, in the cell the second
/// cell's digit counts to (1: the third cell).
pub(super) fn value_index(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let (value, control, line) = (a.cells[0], a.cells[1], a.cells[2..].to_vec());
    p.add_constraint(Constraint::ValueIndex { value, control, line }).map_err(RuleError::from)
}

/// A count-distinct circle (ISS's `CountDistinct`): the first cell's digit
/// is the number of different digits in the others.
pub(super) fn count_distinct(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let (control, cells) = (a.cells[0], a.cells[1..].to_vec());
    let first = p.first_value();
    p.add_constraint(Constraint::CountDistinct { control, cells, first }).map_err(RuleError::from)
}

/// A full rank clue: its reading and rank, made once the tie mode is known
/// ([`Context::finish`]).
pub(super) fn full_rank(p: &mut Puzzle, a: &Args, ctx: &mut Context) -> Result<(), RuleError> {
    let readings = 4 * p.grid_side() as i64;
    let rank = required(a)?;
    if !(1..=readings).contains(&rank) {
        return Err(RuleError::value(format!("a full rank clue from 1 to {readings}, found {rank}")));
    }
    ctx.ranks.push((a.cells.clone(), rank as u32));
    Ok(())
}

/// Full rank's tie mode, once.
pub(super) fn full_rank_ties(a: &Args, ctx: &mut Context) -> Result<(), RuleError> {
    let [name] = &a.list[..] else {
        return Err(format!("expected one tie mode: {}", Ties::NAMES.join(", ")).into());
    };
    let ties = Ties::named(name)
        .ok_or_else(|| RuleError::from(format!("unknown tie mode {name:?}: expected {}", Ties::NAMES.join(", "))))?;
    if ctx.ties.is_some_and(|t| t != ties) {
        return Err("two different full rank tie modes".into());
    }
    ctx.ties = Some(ties);
    Ok(())
}

/// `connected-values D... [size N]`: the cells holding one of the digits
/// form one region, orthogonally connected, of `N` cells if given (ISS's
/// `ConnectedValues` over the grid).
pub(super) fn connected_values(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let mut words = a.list.iter();
    let (mut digits, mut size) = (0u64, None);
    while let Some(word) = words.next() {
        if word == "size" {
            let Some(n) = words.next().and_then(|n| n.parse::<usize>().ok()).filter(|&n| n >= 1) else {
                return Err("expected a size from 1 after \"size\"".to_owned().into());
            };
            if size.replace(n).is_some() || words.len() > 0 {
                return Err("the size comes once, after the digits".to_owned().into());
            }
            continue;
        }
        match word.parse::<usize>() {
            Ok(d) if (1..=p.digits()).contains(&d) && d.to_string() == *word => digits |= 1 << (d - 1),
            _ => return Err(format!("expected a digit from 1 to {}, found {word:?}", p.digits()).into()),
        }
    }
    if digits == 0 {
        return Err("expected the digits whose cells connect, such as: 1 2 3".to_owned().into());
    }
    p.add_constraint(Constraint::ConnectedValues { side: p.side(), digits, size }).map_err(RuleError::from)
}

/// A chaos construction's region runs (ISS's `ChaosArrow` with `arrow`,
/// `ChaosCount` without; [`Puzzle::add_region_runs`]): `a.cells[0]` the
/// control, `a.parts` the listed grid cells (an arrow's arms, each from
/// the same start; a count's one part, the cells counted, the first the
/// one compared), `a.value` the offset. Listed none, an arrow's arms run
/// from the control to the four edges (ISS's `expandedArms`) and a count
/// reads the control's cell and its eight neighbours (`expandedRegionCells`).
pub(super) fn region_runs(p: &mut Puzzle, a: &Args, arrow: bool) -> Result<(), RuleError> {
    if !p.is_chaos() {
        return Err("region runs on a chaos construction only (a \"chaos\" line)".into());
    }
    let offset = match a.value.unwrap_or(0) {
        0 => 0,
        1 => 1,
        v => return Err(RuleError::value(format!("an offset of 0 or 1, not {v}"))),
    };
    let (&control, n) = (a.cells.first().ok_or("a control cell first")?, p.side() / 2);
    let (r, c) = (control.row, control.col);
    let parts = &a.parts;
    let grid_arms: Vec<Vec<Cell>> = match (arrow, parts.is_empty()) {
        (true, true) => vec![
            (0..=c).rev().map(|j| Cell::new(r, j)).collect(),
            (c..n).map(|j| Cell::new(r, j)).collect(),
            (0..=r).rev().map(|i| Cell::new(i, c)).collect(),
            (r..n).map(|i| Cell::new(i, c)).collect(),
        ],
        (true, false) => parts.clone(),
        (false, empty) => {
            let counted: Vec<Cell> = match empty {
                true => {
                    let steps = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)];
                    steps
                        .iter()
                        .filter_map(|&(dr, dc)| {
                            let (i, j) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
                            (i < n && j < n).then(|| Cell::new(i, j))
                        })
                        .collect()
                }
                false if parts.len() == 1 => parts[0].clone(),
                false => return Err("a count takes one list of cells after its ':'".into()),
            };
            match counted[..] {
                [only] => vec![vec![only]],
                _ => counted[1..].iter().map(|&cell| vec![counted[0], cell]).collect(),
            }
        }
    };
    let start = grid_arms.first().and_then(|arm| arm.first());
    if let Some(other) = grid_arms.iter().filter_map(|arm| arm.first()).find(|&first| Some(first) != start) {
        let start = start.expect("a first arm");
        return Err(format!(
            "every arm starts from one cell (its region): the first from {start}, another from {other}"
        )
        .into());
    }
    if let Some(cell) = grid_arms.iter().flatten().find(|cell| cell.row >= n || cell.col >= n) {
        return Err(format!("cell {cell} is outside the chaos construction's grid").into());
    }
    let arms = grid_arms.iter().map(|arm| arm.iter().map(|&cell| p.label_cell(cell)).collect()).collect();
    p.add_region_runs(control, arms, offset).map_err(RuleError::from)
}

/// A regular expression over each part's digits (ISS's `Regex`; the
/// grammar is [`crate::model::regex`]): `a.list[0]` the pattern.
pub(super) fn regex(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let pattern = a.list.first().ok_or("a pattern, then cells")?;
    let n = p.digits();
    let regex = crate::model::regex::Regex::new(pattern, n).map_err(|e| format!("the pattern {pattern:?}: {e}"))?;
    for cells in &a.parts {
        if !regex.unrolls_within(cells.len(), n, crate::model::nfa::MOST_MACHINE_EDGES) {
            return Err("a regular expression whose unrolled automaton passes 200,000 edges on these cells: not read \
                        yet"
            .into());
        }
        p.add_constraint(Constraint::Regular { cells: cells.clone(), pattern: pattern.clone() })?;
    }
    Ok(())
}

/// Pairs of digits allowed on two cells (ISS's `Pair`, and `PairX` with
/// `every`): `a.list[0]` lists them, `a-b` comma-separated; on each two
/// consecutive cells of each part, or with `every` on every two, whose
/// list must then go both ways.
pub(super) fn pairs(p: &mut Puzzle, a: &Args, every: bool) -> Result<(), RuleError> {
    let list = a.list.first().ok_or("pairs of digits, then cells")?;
    let n = p.digits();
    let mut allowed = vec![0u64; n];
    for pair in list.split(',') {
        let digit = |t: &str| t.parse::<usize>().ok().filter(|d| (1..=n).contains(d) && t == d.to_string());
        match pair.split_once('-').and_then(|(x, y)| Some((digit(x)?, digit(y)?))) {
            Some((x, y)) => allowed[x - 1] |= 1 << (y - 1),
            None => return Err(format!("expected pairs of digits 1 to {n} such as 1-2,2-3, found {pair:?}").into()),
        }
    }
    table_pairs(p, &allowed, &a.parts, every)
}

/// [`Constraint::Table`] of the `allowed` pairs (bit `j` of `allowed[i]`:
/// digits `i + 1` then `j + 1`) on each two consecutive cells of each
/// part, or with `every` on every two cells, the table then symmetric.
pub fn table_pairs(p: &mut Puzzle, allowed: &[u64], parts: &[Vec<Cell>], every: bool) -> Result<(), RuleError> {
    let n = allowed.len();
    if every && (0..n).any(|i| (0..n).any(|j| (allowed[i] >> j & 1) != (allowed[j] >> i & 1))) {
        return Err("pairs that do not go both ways, on every two cells: which way each applies is not defined".into());
    }
    for part in parts {
        for (i, &x) in part.iter().enumerate() {
            let partners = if every { &part[i + 1..] } else { part.get(i + 1..(i + 2).min(part.len())).unwrap_or(&[]) };
            for &y in partners {
                if x == y {
                    return Err(format!("cell {x} paired with itself").into());
                }
                p.add_constraint(Constraint::Table { a: x, b: y, allowed: allowed.to_vec() })?;
            }
        }
    }
    Ok(())
}

/// ISS's `Doppelganger` on a square grid of values 0 to N: the rows, the
/// columns and the regions of N cells (the boxes, kept as regions since
/// the values outnumber the side), each of which holds a 0 and misses
/// one other value ([`Constraint::Doppelganger`]).
pub(super) fn doppelganger(p: &mut Puzzle) -> Result<(), RuleError> {
    let n = p.grid_side();
    if p.first_value() != 0 || p.digits() != n + 1 || p.is_rectangle() || p.vars() > 0 {
        return Err(format!("a doppelganger needs values 0-{n} on the {n} x {n} grid (\"values 0-{n}\")").into());
    }
    let kind = |k: GroupKind| -> Vec<Vec<Cell>> {
        p.groups().iter().filter(|g| g.kind == k && g.cells.len() == n).map(|g| g.cells.clone()).collect()
    };
    let mut regions = vec![kind(GroupKind::Row), kind(GroupKind::Column)];
    let boxes = kind(GroupKind::Region);
    if !boxes.is_empty() {
        regions.push(boxes);
    }
    p.add_constraint(Constraint::Doppelganger { regions }).map_err(RuleError::from)
}

/// A sum of the cells' values, each times its coefficient (`a.list`, as
/// many as the cells, or none for all 1), equal to the number (ISS's
/// `Sum`): a cell listed twice adds its coefficients, as ISS's handler
/// does; each value is its digit less the shift.
pub(super) fn sum_of(p: &mut Puzzle, a: &Args) -> Result<(), RuleError> {
    let target = required(a)?;
    if target.abs() >= 1 << 30 {
        return Err(RuleError::value(format!("a sum of {target}: out of range")));
    }
    let coefficients: Vec<i64> = match a.list.is_empty() {
        true => vec![1; a.cells.len()],
        false => a
            .list
            .iter()
            .map(|c| c.parse::<i64>().map_err(|_| format!("expected a coefficient, found {c:?}")))
            .collect::<Result<_, _>>()?,
    };
    if coefficients.len() != a.cells.len() || coefficients.iter().any(|c| c.abs() > 100) {
        return Err("expected one coefficient from -100 to 100 per cell".into());
    }
    let target = target + p.digit_shift() * coefficients.iter().sum::<i64>();
    let terms = merged_terms(a.cells.iter().copied().zip(coefficients.into_iter().map(|c| c as i32)));
    p.add_constraint(Constraint::Sum { terms, target: target as i32 }).map_err(RuleError::from)
}
