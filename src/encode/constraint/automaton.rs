//! A rule over a line written as a deterministic automaton that reads the
//! line's digits in order, encoded so that unit propagation enforces
//! generalised arc consistency: every digit left in a cell has a support,
//! a whole line the automaton accepts (Bacchus, "GAC via Unit Propagation",
//! CP 2007; the unrolled automaton as in Quimper & Walsh's REGULAR).
//!
//! The automaton is unrolled over the line and pruned to the states that
//! are both reachable from the start and able to reach an accepting state
//! at the end (a layered graph, the states of each layer merged by value),
//! then reduced as an MDD is: the states of a layer with the same future
//! (the same options into the same states of the next) are one (`merge`;
//! ISS's 250 examples: "NFA: Equal sum parition" 75,322 -> 46,578
//! clauses, "Normal Lunchbox" 114,223 -> 76,613). Variables: `q[i][s]`,
//! the line passes through state `s` after `i` cells, and `t[e]` for each
//! edge `e = (s, d, s')` of layer `i`: the line is in `s` there and cell
//! `i` holds `d`. Clauses:
//!
//! - `t -> q[i][s]`, `t -> cell i = d`, `t -> q[i+1][s']`, and
//!   `q[i][s] & cell i = d -> t` (an edge is taken exactly when both hold);
//! - `q[i][s] & cell i = d -> false` where `s` has no edge on `d`;
//! - supports: `q[i][s] ->` some edge out of `s`; `q[i+1][s'] ->` some
//!   edge into `s'`; `cell i = d ->` some edge of layer `i` on `d` (none:
//!   the digit is ruled out at once);
//! - the start state holds, and some state of each layer does.
//!
//! The automaton is deterministic and the start is the only state of the
//! first layer, so once the digits are fixed every auxiliary variable is
//! fixed too (the path is unique): no count changes.

use rustc_hash::FxHashMap as HashMap;
use std::hash::Hash;

use varisat::Lit;

use super::Spelling;
use crate::encode::ClauseSink;
use crate::model::{Cell, Digit};

/// The edges `(from, option, to)` between each layer of an unrolled
/// automaton and the next, by the states' indices in their layers.
type Edges = Vec<Vec<(usize, usize, usize)>>;

/// Encodes "the automaton (`start`, `step`, `accept`) accepts the digits
/// of `cells` in order", digits `1..=n`; `step` gives the next state, or
/// `None` where the line cannot go on.
pub(super) fn encode_line<S: Clone + Eq + Hash>(
    cells: &[Cell],
    n: usize,
    start: S,
    step: impl Fn(&S, Digit) -> Option<S>,
    accept: impl Fn(&S) -> bool,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    encode_line_within(cells, n, start, step, accept, |_| (), usize::MAX, spelling, out);
}

/// [`encode_line`] when the unrolled automaton has at most `most` edges
/// (counted before the pruning, so that building it stays cheap too), for
/// rules that tie how the line ends to something else: the accepting
/// states the line can end in, those with the same `key` one state, each
/// key with its variable (true exactly when the line ends in a state of
/// that key); `None`, with nothing encoded, when it has more. A key that
/// keeps less of the state merges more (see [`merge`]): a sum's set of
/// digits read, keyed by its total, makes one state of each total.
#[allow(clippy::too_many_arguments)]
pub(super) fn encode_line_within<S: Clone + Eq + Hash, K: Clone + Eq + Hash>(
    cells: &[Cell],
    n: usize,
    start: S,
    step: impl Fn(&S, Digit) -> Option<S>,
    accept: impl Fn(&S) -> bool,
    key: impl Fn(&S) -> K,
    most: usize,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) -> Option<Vec<(K, Lit)>> {
    let reads = |i: usize, out: &mut dyn ClauseSink| (1..=n as Digit).map(|d| spelling.is(cells[i], d, out)).collect();
    let step = |state: &S, _: usize, option: usize| step(state, option as Digit + 1);
    encode_reads(&vec![n; cells.len()], start, step, accept, key, most, reads, out)
}

/// Encodes "the number of `lits` that hold is one `allowed` accepts, at
/// most `most`": the automaton of [`encode_reads`] reading each literal
/// as false or true, its state the count so far.
pub(super) fn encode_true_count(lits: &[Lit], most: usize, allowed: impl Fn(usize) -> bool, out: &mut dyn ClauseSink) {
    let step = |&seen: &usize, _: usize, option: usize| Some(seen + option).filter(|&seen| seen <= most);
    let reads = |i: usize, _: &mut dyn ClauseSink| vec![!lits[i], lits[i]];
    encode_reads(&vec![2; lits.len()], 0usize, step, |&seen| allowed(seen), |_| (), usize::MAX, reads, out);
}

/// The automaton of [`encode_line_within`] over positions that each take
/// one of `options[i]` values, one-hot: `step` gets the state, the
/// position and the option's index, and `reads` gives a position's
/// option literals (exactly one of them true), asked for in order once the
/// automaton is built. Positions may be cells or any one-hot variable (a
/// group's sum, for sums over groups of different digits). The live end
/// states with the same `key` are one state (`merge`), returned with its
/// variable, the keys in the order of their first end state (`|_| ()`:
/// one end state, for rules that need none of it).
#[allow(clippy::too_many_arguments)]
pub(super) fn encode_reads<S: Clone + Eq + Hash, K: Clone + Eq + Hash>(
    options: &[usize],
    start: S,
    step: impl Fn(&S, usize, usize) -> Option<S>,
    accept: impl Fn(&S) -> bool,
    key: impl Fn(&S) -> K,
    most: usize,
    mut reads: impl FnMut(usize, &mut dyn ClauseSink) -> Vec<Lit>,
    out: &mut dyn ClauseSink,
) -> Option<Vec<(K, Lit)>> {
    let len = options.len();
    let (layers, edges) = unroll(options, start, step, most)?;
    let alive = alive(&layers, &edges, accept);
    if !alive[0][0] {
        out.add_clause(&[]); // no line is accepted
        return Some(Vec::new());
    }
    // Each live end state's class: its key's place among the keys.
    let mut keys: Vec<K> = Vec::new();
    let mut place: HashMap<K, usize> = HashMap::default();
    let mut ends = vec![usize::MAX; layers[len].len()];
    for (s, state) in layers[len].iter().enumerate().filter(|&(s, _)| alive[len][s]) {
        ends[s] = *place.entry(key(state)).or_insert_with_key(|k| {
            keys.push(k.clone());
            keys.len() - 1
        });
    }
    let (classes, edges) = merge(&alive, &edges, ends, keys.len());
    // A variable per class of live states.
    let q: Vec<Vec<Lit>> =
        classes.iter().map(|&count| (0..count).map(|_| out.new_var().positive()).collect()).collect();
    out.add_clause(&[q[0][0]]);
    for layer in &q {
        out.add_clause(layer);
    }
    for i in 0..len {
        let is: Vec<Lit> = reads(i, out);
        let n = is.len();
        debug_assert_eq!(n, options[i], "one literal an option");
        let mut out_of: Vec<Vec<Lit>> = vec![Vec::new(); q[i].len()];
        let mut into: Vec<Vec<Lit>> = vec![Vec::new(); q[i + 1].len()];
        let mut on: Vec<Vec<Lit>> = vec![Vec::new(); n];
        let mut has = vec![vec![false; n]; q[i].len()];
        for &(from, d, to) in &edges[i] {
            let (qs, qt, x) = (q[i][from], q[i + 1][to], is[d]);
            let t = out.new_var().positive();
            out.add_clause(&[!t, qs]);
            out.add_clause(&[!t, x]);
            out.add_clause(&[!t, qt]);
            out.add_clause(&[!qs, !x, t]);
            out_of[from].push(t);
            into[to].push(t);
            on[d].push(t);
            has[from][d] = true;
        }
        for (from, &qs) in q[i].iter().enumerate() {
            for d in 0..n {
                if !has[from][d] {
                    out.add_clause(&[!qs, !is[d]]);
                }
            }
            let mut support = vec![!qs];
            support.extend(&out_of[from]);
            out.add_clause(&support);
        }
        for (to, &qt) in q[i + 1].iter().enumerate() {
            let mut support = vec![!qt];
            support.extend(&into[to]);
            out.add_clause(&support);
        }
        for d in 0..n {
            let mut support = vec![!is[d]];
            support.extend(&on[d]);
            out.add_clause(&support);
        }
    }
    Some(keys.into_iter().zip(q[len].iter().copied()).collect())
}

/// The live states of the unrolled automaton merged into classes of the
/// states with the same future (as a reduced MDD's nodes: from the last
/// layer back, two states of a layer are one class when their edges read
/// the same options into the same classes), the live end states in the
/// `count` classes `ends` gives them (`usize::MAX` for the dead): the
/// number of classes in each layer, and the edges between classes. The
/// merged automaton is still deterministic and accepts the same lines, so
/// unit propagation on it is as strong and the digits still fix every
/// state.
fn merge(
    alive: &[Vec<bool>],
    edges: &[Vec<(usize, usize, usize)>],
    ends: Vec<usize>,
    count: usize,
) -> (Vec<usize>, Edges) {
    let len = edges.len();
    let mut class: Vec<Vec<usize>> = alive.iter().map(|layer| vec![usize::MAX; layer.len()]).collect();
    let mut counts = vec![0; len + 1];
    class[len] = ends;
    counts[len] = count;
    let mut merged = vec![Vec::new(); len];
    for i in (0..len).rev() {
        let live: Vec<(usize, usize, usize)> =
            edges[i].iter().copied().filter(|&(from, _, to)| alive[i][from] && alive[i + 1][to]).collect();
        let mut futures: Vec<Vec<(usize, usize)>> = vec![Vec::new(); alive[i].len()];
        for &(from, d, to) in &live {
            futures[from].push((d, class[i + 1][to]));
        }
        let mut index: HashMap<Vec<(usize, usize)>, usize> = HashMap::default();
        for (s, future) in futures.into_iter().enumerate().filter(|&(s, _)| alive[i][s]) {
            let next = index.len();
            class[i][s] = *index.entry(future).or_insert(next);
        }
        counts[i] = index.len();
        let mut kept: Vec<(usize, usize, usize)> =
            live.into_iter().map(|(from, d, to)| (class[i][from], d, class[i + 1][to])).collect();
        kept.sort_unstable();
        kept.dedup();
        merged[i] = kept;
    }
    (counts, merged)
}

/// The automaton (`start`, `step`) unrolled over positions taking
/// `options[i]` values: each layer's states (reached from the start, merged
/// by value) and the edges `(from, option, to)` between layers `i` and `i +
/// 1`; `None` past `most` edges in all.
fn unroll<S: Clone + Eq + Hash>(
    options: &[usize],
    start: S,
    step: impl Fn(&S, usize, usize) -> Option<S>,
    most: usize,
) -> Option<(Vec<Vec<S>>, Edges)> {
    let mut made = 0usize;
    let mut layers: Vec<Vec<S>> = vec![vec![start]];
    let mut edges: Edges = Vec::with_capacity(options.len());
    for (i, &count) in options.iter().enumerate() {
        let mut index: HashMap<S, usize> = HashMap::default();
        let mut next: Vec<S> = Vec::new();
        let mut layer_edges = Vec::new();
        for (from, state) in layers[i].iter().enumerate() {
            for d in 0..count {
                if let Some(to) = step(state, i, d) {
                    let at = *index.entry(to.clone()).or_insert_with(|| {
                        next.push(to);
                        next.len() - 1
                    });
                    layer_edges.push((from, d, at));
                }
            }
        }
        made += layer_edges.len();
        if made > most {
            return None;
        }
        layers.push(next);
        edges.push(layer_edges);
    }
    Some((layers, edges))
}

/// Which states of the unrolled automaton reach a state `accept` holds for
/// in the last layer.
fn alive<S>(layers: &[Vec<S>], edges: &[Vec<(usize, usize, usize)>], accept: impl Fn(&S) -> bool) -> Vec<Vec<bool>> {
    let len = edges.len();
    let mut alive: Vec<Vec<bool>> = layers.iter().map(|layer| vec![false; layer.len()]).collect();
    for (s, state) in layers[len].iter().enumerate() {
        alive[len][s] = accept(state);
    }
    for i in (0..len).rev() {
        for &(from, _, to) in &edges[i] {
            if alive[i + 1][to] {
                alive[i][from] = true;
            }
        }
    }
    alive
}

/// Encodes "some one of several deterministic automata accepts the digits
/// of `cells`": automaton `k` starts in `starts[k]`, steps by `step`
/// (`None`: it dies) and accepts the end states `accept(k, state)` holds
/// for. A line may be accepted by several of them, so the accepting runs
/// cannot be told apart by their start variables alone; each automaton is
/// encoded twice over:
///
/// - its *run*, whatever the line: `r[i][s]`, one state a layer (or
///   dead), `r[i][s] & cell i = d -> r[i+1][step(s, d)]` and at most one
///   state a layer, so that the digits fix every `r`; `acc`, the run ends
///   in an accepting state, is then a literal the digits fix;
/// - its *accepting run*, the layered graph of [`encode_reads`] pruned to
///   the states that are reachable and reach an accepting end, with
///   `g[i][s] <-> r[i][s] & acc` and `e <-> g[i][s] & cell i = d` for each
///   edge, and the same supports, except that a digit's support is any
///   edge on it of any automaton's layer `i`.
///
/// Unit propagation on the second part is that of one layered graph with
/// several sources, so it is domain consistent on the union (a digit left
/// in a cell lies on an edge whose states reach a source and an accepting
/// end through edges whose digits are left); the first part keeps every
/// auxiliary variable a function of the digits, so no count changes.
pub(super) fn encode_line_any<S: Clone + Eq + Hash>(
    cells: &[Cell],
    n: usize,
    starts: &[S],
    step: impl Fn(&S, Digit) -> Option<S>,
    accept: impl Fn(usize, &S) -> bool,
    spelling: &mut Spelling,
    out: &mut dyn ClauseSink,
) {
    let len = cells.len();
    let x: Vec<Vec<Lit>> =
        cells.iter().map(|&cell| (1..=n as Digit).map(|d| spelling.is(cell, d, out)).collect()).collect();
    // Per cell and digit, the accepting edges on it, of every automaton.
    let mut on: Vec<Vec<Vec<Lit>>> = vec![vec![Vec::new(); n]; len];
    let mut accepted = Vec::new();
    let options = vec![n; len];
    let by_index = |state: &S, _: usize, d: usize| step(state, d as Digit + 1);
    for (k, start) in starts.iter().enumerate() {
        // The run's layers and edges; a digit with no edge from a state
        // kills the run (the dead state).
        let (layers, edges) = unroll(&options, start.clone(), by_index, usize::MAX).expect("no limit");
        let mut moves: Vec<Vec<Vec<Option<usize>>>> =
            layers[..len].iter().map(|layer| vec![vec![None; n]; layer.len()]).collect();
        for (i, layer_edges) in edges.iter().enumerate() {
            for &(from, d, to) in layer_edges {
                moves[i][from][d] = Some(to);
            }
        }
        // The run: a variable per state and one for dead, per layer.
        let r: Vec<Vec<Lit>> =
            layers.iter().map(|layer| layer.iter().map(|_| out.new_var().positive()).collect()).collect();
        let dead: Vec<Lit> = (0..=len).map(|_| out.new_var().positive()).collect();
        out.add_clause(&[r[0][0]]);
        out.add_clause(&[!dead[0]]);
        for i in 0..len {
            for (from, targets) in moves[i].iter().enumerate() {
                for (d, to) in targets.iter().enumerate() {
                    let next = to.map_or(dead[i + 1], |to| r[i + 1][to]);
                    out.add_clause(&[!r[i][from], !x[i][d], next]);
                }
            }
            out.add_clause(&[!dead[i], dead[i + 1]]);
            let mut layer = r[i + 1].clone();
            layer.push(dead[i + 1]);
            at_most_one_defined(&layer, out);
        }
        // Which states are on an accepting run.
        let alive = alive(&layers, &edges, |state| accept(k, state));
        if !alive[0][0] {
            continue; // this automaton accepts no line
        }
        let ends: Vec<Lit> = (0..layers[len].len()).filter(|&s| alive[len][s]).map(|s| r[len][s]).collect();
        let acc = match ends[..] {
            [one] => one,
            _ => {
                let acc = out.new_var().positive();
                for &end in &ends {
                    out.add_clause(&[!end, acc]);
                }
                let mut some = vec![!acc];
                some.extend(&ends);
                out.add_clause(&some);
                acc
            }
        };
        accepted.push(acc);
        // The accepting run: g <-> r & acc, on the live states.
        let g: Vec<Vec<Option<Lit>>> = alive
            .iter()
            .zip(&r)
            .map(|(live, run)| {
                live.iter()
                    .zip(run)
                    .map(|(&live, &run)| {
                        live.then(|| {
                            let g = out.new_var().positive();
                            out.add_clause(&[!g, run]);
                            out.add_clause(&[!g, acc]);
                            out.add_clause(&[!run, !acc, g]);
                            g
                        })
                    })
                    .collect()
            })
            .collect();
        for i in 0..len {
            let mut into: Vec<Vec<Lit>> = vec![Vec::new(); g[i + 1].len()];
            for (from, targets) in moves[i].iter().enumerate() {
                let Some(gs) = g[i][from] else { continue };
                let mut out_of = vec![!gs];
                for (d, to) in targets.iter().enumerate() {
                    match to.and_then(|to| Some((to, g[i + 1][to]?))) {
                        Some((to, gt)) => {
                            let e = out.new_var().positive();
                            out.add_clause(&[!e, gs]);
                            out.add_clause(&[!e, x[i][d]]);
                            out.add_clause(&[!e, gt]);
                            out.add_clause(&[!gs, !x[i][d], e]);
                            out_of.push(e);
                            into[to].push(e);
                            on[i][d].push(e);
                        }
                        None => out.add_clause(&[!gs, !x[i][d]]),
                    }
                }
                out.add_clause(&out_of);
            }
            for (to, state) in g[i + 1].iter().enumerate() {
                let Some(gt) = *state else { continue };
                let mut support = vec![!gt];
                support.extend(&into[to]);
                out.add_clause(&support);
            }
        }
    }
    out.add_clause(&accepted);
    for (i, digits) in on.iter().enumerate() {
        for (d, edges) in digits.iter().enumerate() {
            let mut support = vec![!x[i][d]];
            support.extend(edges);
            out.add_clause(&support);
        }
    }
}

/// At most one of `lits`: pairwise up to eight, else a ladder `p[j] <->
/// p[j-1] | lits[j]` (defined both ways, so fixed by `lits`) with `p[j-1]
/// -> !lits[j]`.
fn at_most_one_defined(lits: &[Lit], out: &mut dyn ClauseSink) {
    if lits.len() <= 8 {
        super::at_most_one(lits, out);
        return;
    }
    let mut before = lits[0];
    for (j, &l) in lits.iter().enumerate().skip(1) {
        out.add_clause(&[!before, !l]);
        if j + 1 == lits.len() {
            break;
        }
        let p = out.new_var().positive();
        out.add_clause(&[!before, p]);
        out.add_clause(&[!l, p]);
        out.add_clause(&[!p, before, l]);
        before = p;
    }
}

#[cfg(test)]
mod tests {
    use varisat::{CnfFormula, ExtendFormula, Solver};

    use super::*;

    /// "An even number of 8 literals": the count automaton's states (the
    /// count so far) merge into their parities, at most two a layer, and
    /// the formula still holds for exactly the even assignments.
    #[test]
    fn states_with_the_same_future_are_one() {
        let mut formula = CnfFormula::new();
        let lits: Vec<Lit> = (0..8).map(|_| ExtendFormula::new_var(&mut formula).positive()).collect();
        encode_true_count(&lits, 8, |count| count % 2 == 0, &mut formula);
        // Layers 0 and 8 one state each, 1 to 7 two; two edges out of
        // each state, one into the end from each state of layer 7:
        // 16 state and 28 edge variables (unmerged: 41 and 64).
        assert_eq!(formula.var_count(), 8 + 16 + 28);
        for bits in 0..256u32 {
            let mut solver = Solver::new();
            solver.add_formula(&formula);
            let assumed: Vec<Lit> =
                lits.iter().enumerate().map(|(i, &l)| if bits >> i & 1 == 1 { l } else { !l }).collect();
            solver.assume(&assumed);
            assert_eq!(solver.solve().unwrap(), bits.count_ones() % 2 == 0, "{bits:08b}");
        }
    }

    /// Three different digits of 1 to 5, the state the set read, the ends
    /// keyed by their totals: ten sets, one end state per total (6 to 12), whose
    /// variable is true exactly when the digits are different and add up
    /// to it, checked against every line of three digits.
    #[test]
    fn end_states_with_the_same_key_are_one() {
        let mut formula = CnfFormula::new();
        let x: Vec<Vec<Lit>> =
            (0..3).map(|_| (0..5).map(|_| ExtendFormula::new_var(&mut formula).positive()).collect()).collect();
        for position in &x {
            ExtendFormula::add_clause(&mut formula, position);
            for (i, &a) in position.iter().enumerate() {
                for &b in &position[i + 1..] {
                    ExtendFormula::add_clause(&mut formula, &[!a, !b]);
                }
            }
        }
        let step = |&set: &u32, _: usize, option: usize| (set >> option & 1 == 0).then_some(set | 1 << option);
        let total = |&set: &u32| (0..5).filter(|d| set >> d & 1 == 1).map(|d| d + 1).sum::<u32>();
        let reads = |i: usize, _: &mut dyn ClauseSink| x[i].clone();
        let ends = encode_reads(&[5, 5, 5], 0u32, step, |_| true, total, usize::MAX, reads, &mut formula).unwrap();
        let mut totals: Vec<u32> = ends.iter().map(|&(total, _)| total).collect();
        totals.sort_unstable();
        assert_eq!(totals, [6, 7, 8, 9, 10, 11, 12]);
        for line in itertools::iproduct!(0..5usize, 0..5usize, 0..5usize) {
            let digits = [line.0, line.1, line.2];
            let different = digits[0] != digits[1] && digits[0] != digits[2] && digits[1] != digits[2];
            let sum: usize = digits.iter().map(|d| d + 1).sum();
            for &(total, end) in &ends {
                let mut solver = Solver::new();
                solver.add_formula(&formula);
                let mut assumed: Vec<Lit> = (0..3).map(|i| x[i][digits[i]]).collect();
                assumed.push(end);
                solver.assume(&assumed);
                assert_eq!(solver.solve().unwrap(), different && sum == total as usize, "{digits:?} ending in {total}");
            }
        }
    }
}
