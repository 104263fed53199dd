//! The rules of [`LineRule`] as automata over their lines, unrolled and
//! encoded with support clauses (`automaton.rs`), so that unit
//! propagation is domain consistent on each. Each automaton is written
//! here from the rule's meaning, apart from [`LineRule::accepts`], which
//! the checker uses; the oracle tests hold the two to the same counts.

use varisat::Lit;

use super::{at_least_of, at_most_one, automaton, digits_used, grouped, LineEncoding, Spelling};
use crate::encode::ClauseSink;
use crate::model::line_rule::value;
use crate::model::nfa::{Nfa, Subsets};
use crate::model::{Cell, Digit, LineRule};

/// A hidden skyscraper line's state: still visible with the tallest so
/// far (and, on a line of different digits, the clue's digits read so
/// far: each can be hidden only if it has not been seen), or past the
/// first hidden cell.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Sight {
    Visible(Digit, u64),
    Found,
}

/// A sum line's open segment after a cell of value `v`: closed (0) at
/// the target, `None` past it.
fn segment_step(open: u32, v: u32, target: u32) -> Option<u32> {
    match open + v {
        s if s == target => Some(0),
        s if s < target => Some(s),
        _ => None,
    }
}

/// Encodes "`rule` holds along `cells`", digits `1..=n`; `distinct` when
/// the cells must hold different digits anyway (a rellik cage's own
/// group), which the automaton then reads too: its state also holds the
/// set of digits used (at most 2^n states, `n` at most `MOST_SET_DIGITS`),
/// so that propagation is domain consistent on the rule and the
/// differences together.
pub(super) fn encode_along(
    rule: LineRule,
    cells: &[Cell],
    n: usize,
    distinct: bool,
    lines: LineEncoding,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    // The digits used so far, when they must differ: `None` on a repeat.
    let used = |set: u16, d: Digit| -> Option<u16> {
        if !distinct {
            return Some(0);
        }
        let bit = 1u16 << (d - 1);
        (set & bit == 0).then_some(set | bit)
    };
    match rule {
        LineRule::Segments { sum: target, first } => {
            // The sum of the segment open so far, 0 between segments; a
            // digit's value is itself, or one less from 0 (`first`).
            let step = |&open: &u32, d: Digit| segment_step(open, value(d, first), target);
            automaton::encode_line(cells, n, 0u32, step, |&open| open == 0, spelling, out);
        }
        LineRule::LoopSegments { sum: target, first } => {
            // For each offset c below the target, an automaton reading the
            // loop from its first cell as though a segment had already
            // summed to c before it (the state is the open segment's sum),
            // accepting when it ends at c again: its last segment closes
            // the first. The loop splits exactly when one of them accepts;
            // the union is encoded domain consistent, every auxiliary
            // variable fixed by the digits.
            let starts: Vec<u32> = (0..target).collect();
            let step = |&open: &u32, d: Digit| segment_step(open, value(d, first), target);
            if lines.automata() {
                automaton::encode_line_any(cells, n, &starts, step, |k, &end| end == starts[k], spelling, out);
                return;
            }
            // `--lines forward`: each offset's run alone (an automaton that
            // accepts every line, dead once a digit overshoots), and one
            // clause that some offset ends open at `c` again: sound, and
            // its digits fix every variable, but it propagates forwards
            // only (0.876 of the unsupported digits kept).
            let mut some = Vec::new();
            for &offset in &starts {
                let run = |state: &Option<u32>, d: Digit| Some(state.and_then(|open| step(&open, d)));
                let within = automaton::encode_line_within(
                    cells,
                    n,
                    Some(offset),
                    run,
                    |_| true,
                    |end| *end == Some(offset),
                    usize::MAX,
                    spelling,
                    out,
                );
                // The ends open at `c` again, one state.
                let ends = within.expect("no limit");
                some.extend(ends.iter().filter(|&&(again, _)| again).map(|&(_, lit)| lit));
            }
            out.add_clause(&some);
        }
        LineRule::Rellik { sum: target, first } => {
            // The sums below the target that some cells read so far make,
            // one bit each (bit 0 unused); a value 0 makes no new sum.
            let below = if target >= 128 { u128::MAX } else { (1u128 << target) - 1 };
            let step = |&(set, sums): &(u16, u128), digit: Digit| {
                let set = used(set, digit)?;
                let d = value(digit, first);
                if d == 0 {
                    return Some((set, sums));
                }
                if d == target {
                    return None;
                }
                let with = (sums | 1) << d; // each old sum plus d, and d alone
                let reached = sums | if d >= 128 { 0 } else { with };
                let hit = target < 128 && reached >> target & 1 == 1;
                (!hit).then_some((set, reached & below))
            };
            automaton::encode_line(cells, n, (0u16, 0u128), step, |_| true, spelling, out);
        }
        LineRule::Balanced(digits) => {
            // (even minus odd, low minus high) so far.
            let (m, half) = (u32::from(digits), u32::from(digits) / 2);
            let step = |&(parity, size): &(i32, i32), d: Digit| {
                let d = u32::from(d);
                let low = d <= half;
                if !low && d <= m - half {
                    return None; // the middle digit
                }
                Some((parity + if d % 2 == 0 { 1 } else { -1 }, size + if low { 1 } else { -1 }))
            };
            automaton::encode_line(cells, n, (0i32, 0i32), step, |&s| s == (0, 0), spelling, out);
        }
        LineRule::Lunchbox { sum: target, first } => {
            // The line's smallest and largest digits are read first, as
            // one-hot variables of their own, then the cells: each within
            // the two, each of the two met once, and the digits between
            // them summed (phase 1 waits for the other one, `high` says
            // which). Every digit must lie between them and both must
            // appear, so the cells fix the two variables: no count
            // changes. The state's sum lives only between the two, 4,000
            // states a layer for a number of 29 where carrying the
            // extremes and two sums along took 86,000. With `distinct`
            // (the lunchbox's own group, always there) the states also
            // hold the set of digits read: domain consistent on the rule
            // and the differences together, and on ISS's "Extreme
            // Lunchbox" fewer auxiliary variables (12,195 against 20,817:
            // sets that would repeat a digit end early).
            #[derive(Clone, PartialEq, Eq, Hash)]
            enum Box_ {
                Start,
                Low(u8),
                Before(u8, u8, u16),
                Between { low: u8, high: u8, waits_high: bool, sum: u32, set: u16 },
                After(u8, u8, u32, u16),
            }
            let step = |state: &Box_, _: usize, option: usize| -> Option<Box_> {
                let v = option as u8 + 1;
                // The digits read, with v (a cell's digit, past the two).
                let set = match *state {
                    Box_::Start | Box_::Low(_) => 0,
                    Box_::Before(_, _, set) | Box_::Between { set, .. } | Box_::After(_, _, _, set) => used(set, v)?,
                };
                Some(match *state {
                    Box_::Start => Box_::Low(v),
                    Box_::Low(low) if v >= low => Box_::Before(low, v, 0),
                    Box_::Low(_) => return None,
                    Box_::Before(low, high, _) | Box_::Between { low, high, .. } | Box_::After(low, high, _, _)
                        if v < low || v > high =>
                    {
                        return None;
                    }
                    Box_::Before(low, high, _) if v == low && v == high => Box_::After(low, high, 0, set),
                    Box_::Before(low, high, _) if v == low || v == high => {
                        Box_::Between { low, high, waits_high: v == low, sum: 0, set }
                    }
                    Box_::Before(low, high, _) => Box_::Before(low, high, set),
                    Box_::Between { low, high, waits_high, sum, .. } => {
                        let waited = if waits_high { high } else { low };
                        if v == waited {
                            Box_::After(low, high, sum, set)
                        } else if v == low || v == high {
                            return None; // an extreme met twice
                        } else {
                            // The value of digit v: v, or v - 1 from 0.
                            let sum = sum + value(v, first);
                            if sum > target {
                                return None;
                            }
                            Box_::Between { low, high, waits_high, sum, set }
                        }
                    }
                    Box_::After(low, high, _, _) if v == low || v == high => return None,
                    Box_::After(low, high, sum, _) => Box_::After(low, high, sum, set),
                })
            };
            let accept = |state: &Box_| matches!(state, Box_::After(_, _, sum, _) if *sum == target);
            let reads = |i: usize, out: &mut dyn ClauseSink| -> Vec<varisat::Lit> {
                if i >= 2 {
                    return (1..=n as Digit).map(|d| spelling.is(cells[i - 2], d, out)).collect();
                }
                // The smallest (i = 0) or the largest digit: exactly one value.
                let values: Vec<varisat::Lit> = (0..n).map(|_| out.new_var().positive()).collect();
                out.add_clause(&values);
                at_most_one(&values, out);
                values
            };
            let options = vec![n; cells.len() + 2];
            automaton::encode_reads(&options, Box_::Start, step, accept, |_| (), usize::MAX, reads, out);
        }
        LineRule::Flatmates(digits) => {
            // (the last digit was a 1, the last digit was a middle digit
            // without a 1 before it, so the next must be n).
            let middle = digits.div_ceil(2);
            let step = |&(after_one, waiting): &(bool, bool), d: Digit| {
                if waiting && d != digits {
                    return None;
                }
                Some((d == 1, d == middle && !after_one))
            };
            automaton::encode_line(cells, n, (false, false), step, |&(_, waiting)| !waiting, spelling, out);
        }
        LineRule::Skyline(target) => {
            // The skyscrapers' automaton from the ground at digit 1, on a
            // whole row reading its differences as theirs do.
            super::visible::encode_visible(cells, target, n, 1, distinct, spelling, out);
        }
        LineRule::FirstHidden(targets) => {
            // On a line of different digits a clue's digit read while still
            // visible cannot come again to be hidden (the ones read are
            // kept, the clue's digits only), nor can the tallest repeat.
            let step = |sight: &Sight, d: Digit| match *sight {
                Sight::Found => Some(Sight::Found),
                Sight::Visible(tallest, read) if d < tallest => {
                    let bit = 1u64 << (d - 1);
                    (targets & bit != 0 && read & bit == 0).then_some(Sight::Found)
                }
                Sight::Visible(tallest, _) if distinct && d == tallest => None,
                Sight::Visible(_, read) => {
                    Some(Sight::Visible(d, if distinct { read | targets & 1u64 << (d - 1) } else { read }))
                }
            };
            automaton::encode_line(cells, n, Sight::Visible(0, 0), step, |s| *s == Sight::Found, spelling, out);
        }
    }
}

/// Encodes "digit `d` appears in `cells` a number of times `allowed`
/// accepts, at most `most`": an automaton counting it, reading at each
/// cell only whether it holds `d` (the other digits all leave the count
/// as it is, so one edge stands for them where an automaton over the
/// digits had one for each: the same propagation on the cell's digits,
/// with two edges a state where there were nine).
pub(super) fn encode_count(
    cells: &[Cell],
    d: Digit,
    most: usize,
    allowed: impl Fn(usize) -> bool,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let holds: Vec<Lit> = cells.iter().map(|&cell| spelling.is(cell, d, out)).collect();
    automaton::encode_true_count(&holds, most, allowed, out);
}

/// Encodes "each listed digit `d` is in exactly `times` of `cells`" (with
/// `exact`; else at least `times`), all the digits in one automaton whose
/// state is how many of each have been read (an at-least count stops at
/// its `times`): domain consistent on the whole rule, so that digits one
/// count needs crowd out another's (an automaton per digit saw each alone:
/// `contain-exact` left 0.458 of the unsupported digits in
/// `tests/it/propagation.rs`, `contain-at-least` 0.386). False, with
/// nothing encoded, when the unrolled automaton would pass `most` edges.
pub(super) fn encode_counts_together(
    cells: &[Cell],
    n: usize,
    wanted: &[(Digit, usize)],
    exact: bool,
    most: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) -> bool {
    let step = |seen: &Vec<usize>, digit: Digit| {
        let Some(i) = wanted.iter().position(|&(d, _)| d == digit) else {
            return Some(seen.clone());
        };
        let mut next = seen.clone();
        next[i] += 1;
        match exact {
            true => (next[i] <= wanted[i].1).then_some(next),
            false => {
                next[i] = next[i].min(wanted[i].1);
                Some(next)
            }
        }
    };
    let accept = |seen: &Vec<usize>| seen.iter().zip(wanted).all(|(&s, &(_, times))| s == times);
    let start = vec![0usize; wanted.len()];
    automaton::encode_line_within(cells, n, start, step, accept, |_| (), most, spelling, out).is_some()
}

/// Counting circles: each digit `v` in none of `cells` or in exactly `v`
/// of them, an automaton per digit counting it (domain consistent on each
/// digit alone), the count again over exclusion groups
/// ([`count_by_exclusion_groups`]), and with `--lines automaton` the
/// values used summing to the circles ([`used_values_fill_the_circles`]).
pub(super) fn encode_counting(
    cells: &[Cell],
    n: usize,
    first: Digit,
    differ: &grouped::Differ,
    lines: LineEncoding,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    for v in 1..=n as Digit {
        // Its value: as many circles as hold it (none for a 0).
        let times = value(v, first) as usize;
        encode_count(cells, v, times, |seen| seen == 0 || seen == times, spelling, out);
    }
    count_by_exclusion_groups(cells, n, first, differ, spelling, out);
    if lines.automata() {
        used_values_fill_the_circles(cells, n, first, spelling, out);
    }
}

/// Counting circles across digits: the digits used, each in as many
/// circles as its value, fill the circles, so their values sum to the
/// number of circles. A literal per digit, "some circle holds it" (defined
/// both ways), and an automaton over the digits in order whose state is
/// the sum of the values used so far: a digit whose value no set of the
/// others completes to the count is out (5 circles: {5}, {1, 4} or {2, 3};
/// the per-digit automata saw each digit alone and left 0.285 of the
/// unsupported digits in `tests/it/propagation.rs`). Implied by the rule,
/// each new variable set by the cells.
fn used_values_fill_the_circles(
    cells: &[Cell],
    n: usize,
    first: Digit,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let k = cells.len();
    // A digit used adds its value (a 0 adds nothing).
    let step = |&sum: &usize, d: Digit, used: bool| {
        let sum = sum + usize::from(used) * value(d, first) as usize;
        (sum <= k).then_some(sum)
    };
    over_digits_used(cells, n, 0usize, step, |&sum| sum == k, spelling, out);
}

/// An automaton reading, digit by digit from 1 to `n`, whether some of
/// `cells` holds it (one literal per digit, defined both ways by the
/// cells: [`digits_used`]); the end states it may stop in, each with its
/// variable.
fn over_digits_used<S: Clone + Eq + std::hash::Hash>(
    cells: &[Cell],
    n: usize,
    start: S,
    step: impl Fn(&S, Digit, bool) -> Option<S>,
    accept: impl Fn(&S) -> bool,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) -> Option<Vec<(S, Lit)>> {
    let used = digits_used(cells, n, spelling, out);
    // Option 0: unused, 1: used.
    let step = |state: &S, i: usize, option: usize| step(state, i as Digit + 1, option == 1);
    let reads = |i: usize, _: &mut dyn ClauseSink| vec![!used[i], used[i]];
    automaton::encode_reads(&vec![2; n], start, step, accept, |s| s.clone(), usize::MAX, reads, out)
}

/// Counting circles read as ISS's handler reads them: the cells split
/// into exclusion groups (cells that pairwise differ, `grouped.rs`), each
/// holding a digit at most once, so `v` appears in 0 or `v` of the groups.
/// A literal per group and digit, true exactly when one of its cells holds
/// the digit, and a sequential counter over them (at most `v`, and at
/// least `v` once at least one): a digit fewer than `v` groups can hold is
/// out of every cell, and one that is in needs every group left that can
/// hold it. A group that holds a digit keeps it out of every cell that
/// sees the whole group (ISS's handler clears it from the group's
/// "exclusion complement"): on "Bubble Tornado", 1,150 -> 254 decisions.
/// Implied by the rule, each new variable set by the cells.
fn count_by_exclusion_groups(
    cells: &[Cell],
    n: usize,
    first: Digit,
    differ: &grouped::Differ,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let terms: Vec<(Cell, i32)> = cells.iter().map(|&c| (c, 1)).collect();
    let groups = grouped::exclusion_groups(&terms, n, differ);
    if groups.len() == cells.len() {
        return; // no two cells differ: the automata say it all
    }
    let seeing: Vec<Vec<Cell>> = groups
        .iter()
        .map(|group| match group[..] {
            [_] => Vec::new(), // the puzzle's own clauses keep a cell's digit from those that see it
            _ => differ.seeing_all(&group.iter().map(|&i| cells[i]).collect::<Vec<_>>()),
        })
        .collect();
    for v in 1..=n as Digit {
        let times = value(v, first) as usize;
        if times == 0 || groups.len() < times {
            for &cell in cells {
                out.add_clause(&spelling.not(cell, v));
            }
            continue;
        }
        let mut holds = Vec::new();
        for (group, seeing) in groups.iter().zip(&seeing) {
            let xs: Vec<Lit> = group.iter().map(|&i| spelling.is(cells[i], v, out)).collect();
            if let [x] = xs[..] {
                holds.push(x);
                continue;
            }
            let y = out.new_var().positive();
            for &x in &xs {
                out.add_clause(&[!x, y]);
            }
            out.add_clause(&[vec![!y], xs].concat());
            for &other in seeing {
                out.add_clause(&[vec![!y], spelling.not(other, v)].concat());
            }
            holds.push(y);
        }
        let at_least = at_least_of(&holds, holds.len(), out);
        if let Some(&more) = at_least.get(times) {
            out.add_clause(&[!more]);
        }
        out.add_clause(&[!at_least[0], at_least[times - 1]]);
    }
}

/// The most edges a count-distinct's automaton over the sets of digits
/// read may have; past it, a literal per digit and their count. Four
/// counted cells of nine digits fit (1,700 edges), five do not (4,000);
/// the limit was 20,000 before ISS's "Count Different (Circles)" measured
/// faster with the digits' literals (bench/results/design-notes.md).
const MOST_COUNT_DISTINCT_EDGES: usize = 2_000;

/// Encodes "`control` holds the number of different digits of `cells`":
/// an automaton over the cells whose state is the set of digits read, its
/// end tied to the control's digit both ways (the end state's size is the
/// control's digit; a digit of the control needs some end of that size).
pub(super) fn encode_count_distinct(
    control: Cell,
    cells: &[Cell],
    first: Digit,
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let step = |&seen: &u64, d: Digit| Some(seen | 1 << (d - 1));
    // The sets of the same size end in one state.
    let size = |seen: &u64| seen.count_ones();
    let within =
        automaton::encode_line_within(cells, n, 0u64, step, |_| true, size, MOST_COUNT_DISTINCT_EDGES, spelling, out);
    // Each end state with the number of different digits it stands for.
    let ends: Vec<(u32, Lit)> = match within {
        Some(ends) => ends,
        None => {
            // Past the limit (ISS's "The Fountain": nine counted cells of
            // nine labels had 160,000 variables, no answer in 120 s): a
            // literal per digit, "some counted cell holds it", defined both
            // ways, and an automaton counting them; domain consistent on
            // the count of those literals, not on the cells.
            let step = |&count: &u32, _: Digit, used: bool| Some(count + u32::from(used));
            let Some(ends) = over_digits_used(cells, n, 0u32, step, |_| true, spelling, out) else {
                return;
            };
            ends
        }
    };
    // The control's digit d stands for the value d + first - 1.
    for d in 1..=n as Digit {
        let mut some = spelling.not(control, d);
        let count = value(d, first);
        some.extend(ends.iter().filter(|&&(seen, _)| seen == count).map(|&(_, lit)| lit));
        out.add_clause(&some);
    }
    for &(seen, lit) in &ends {
        let size = seen as usize + 1 - usize::from(first);
        if (1..=n).contains(&size) {
            let holds = spelling.is(control, size as Digit, out);
            out.add_clause(&[!lit, holds]);
        } else {
            out.add_clause(&[!lit]);
        }
    }
}

/// Encodes "the machine `token` accepts the segments' digits" (symbol
/// `n + 1` between segments): the subset construction run as the line is
/// read, each state the position and the machine's states there (the
/// position tells where a segment ends), unrolled like every automaton
/// here, domain consistent. A token that does not decode accepts nothing
/// (the readers refuse it first).
pub(super) fn encode_machine(
    token: &str,
    segments: &[Vec<Cell>],
    n: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let Ok(machine) = Nfa::decode(token) else {
        out.add_clause(&[]);
        return;
    };
    let cells: Vec<Cell> = segments.concat();
    // The segment ends after each position (0: before the first cell).
    let mut breaks = vec![0usize; cells.len() + 1];
    let mut at = 0;
    for (i, segment) in segments.iter().enumerate() {
        if i > 0 {
            breaks[at] += 1;
        }
        at += segment.len();
    }
    // Each state's set of the machine's states by its number, each step
    // taken once.
    let subsets = std::cell::RefCell::new(Subsets::new(&machine));
    let across = |mut states: usize, count: usize| {
        for _ in 0..count {
            states = subsets.borrow_mut().step(states, n + 1);
        }
        states
    };
    let first = subsets.borrow_mut().start();
    let start = (0usize, across(first, breaks[0]));
    let step = |&(pos, states): &(usize, usize), d: Digit| {
        let next = across(subsets.borrow_mut().step(states, usize::from(d)), breaks[pos + 1]);
        (next != Subsets::EMPTY).then_some((pos + 1, next))
    };
    let accept = |&(_, states): &(usize, usize)| subsets.borrow().accepts(states);
    automaton::encode_line(&cells, n, start, step, accept, spelling, out);
}
