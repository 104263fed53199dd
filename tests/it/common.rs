//! Test helpers written apart from the library: a seeded RNG (proptest's), a random-grid
//! generator, the contest layout, and a plain backtracking counter that is the
//! oracle for every count. Nothing here calls the encoder or an engine; only
//! [`puzzle_of`] touches the library, to hand the same spec to it, and
//! [`count_stats`] and [`stopped_within`] run the binary, for the tests that
//! read its output.
#![allow(dead_code)]

use proptest::prelude::RngExt as _;
use proptest::test_runner::{RngAlgorithm, TestRng};
use satsudoku::named::Named as _;

/// A reproducible random source: proptest's ChaCha generator from a seed.
pub type Rng = TestRng;

/// The generator for `seed`.
pub fn rng(seed: u64) -> Rng {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

/// What the tests draw from a generator.
pub trait Draw {
    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize;
    /// Shuffles `items` (Fisher-Yates).
    fn shuffle<T>(&mut self, items: &mut [T]);
}

impl Draw for Rng {
    fn below(&mut self, n: usize) -> usize {
        self.random_range(0..n)
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A sum relation between two cells (0-based row, col): `a + b` cmp `target`,
/// with cmp -1, 0, 1 for <, =, >.
#[derive(Clone, Copy, Debug)]
pub struct SumRel {
    pub a: (usize, usize),
    pub b: (usize, usize),
    pub cmp: i8,
    pub target: u32,
}

impl SumRel {
    pub fn holds(&self, x: u32, y: u32) -> bool {
        let s = x + y;
        match self.cmp {
            -1 => s < self.target,
            0 => s == self.target,
            _ => s > self.target,
        }
    }
}

/// What the oracle counts: a Sudoku with boxes `bh x bw`, optional diagonals,
/// givens (0 = empty) and sum relations.
#[derive(Clone, Debug)]
pub struct Spec {
    pub bh: usize,
    pub bw: usize,
    pub diagonals: bool,
    pub givens: Vec<u32>,
    pub relations: Vec<SumRel>,
}

impl Spec {
    pub fn empty(bh: usize, bw: usize) -> Spec {
        let n = bh * bw;
        Spec { bh, bw, diagonals: false, givens: vec![0; n * n], relations: vec![] }
    }
}

/// Counts solutions by plain backtracking, always filling the empty cell with
/// the fewest candidates (digit sets as bitmasks); a relation is checked once
/// both its cells are filled. Stops at `cap` (returns `cap`).
pub fn oracle_count(spec: &Spec, cap: u64) -> u64 {
    let n = spec.bh * spec.bw;
    let mut links: Vec<Vec<(usize, SumRel, bool)>> = vec![Vec::new(); n * n];
    for rel in &spec.relations {
        let ia = rel.a.0 * n + rel.a.1;
        let ib = rel.b.0 * n + rel.b.1;
        links[ia].push((ib, *rel, true));
        links[ib].push((ia, *rel, false));
    }
    let mut state = Oracle {
        spec,
        n,
        links,
        grid: vec![0; n * n],
        // used[0..n] rows, [n..2n] columns, [2n..3n] boxes, [3n], [3n+1] diagonals.
        used: vec![0; 3 * n + 2],
        found: 0,
        cap,
    };
    state.search();
    state.found
}

struct Oracle<'a> {
    spec: &'a Spec,
    n: usize,
    links: Vec<Vec<(usize, SumRel, bool)>>,
    grid: Vec<u32>,
    used: Vec<u64>,
    found: u64,
    cap: u64,
}

impl Oracle<'_> {
    /// Indices into `used` of the groups that contain cell `i`.
    fn groups(&self, i: usize) -> Vec<usize> {
        let (n, r, c) = (self.n, i / self.n, i % self.n);
        let b = r / self.spec.bh * self.spec.bh + c / self.spec.bw;
        let mut g = vec![r, n + c, 2 * n + b];
        if self.spec.diagonals && r == c {
            g.push(3 * n);
        }
        if self.spec.diagonals && r + c == n - 1 {
            g.push(3 * n + 1);
        }
        g
    }

    fn candidates(&self, i: usize) -> u64 {
        let mut mask = ((1u64 << self.n) - 1) << 1;
        for g in self.groups(i) {
            mask &= !self.used[g];
        }
        let given = self.spec.givens[i];
        if given != 0 {
            mask &= 1 << given;
        }
        for d in 1..=self.n as u32 {
            if mask & (1 << d) == 0 {
                continue;
            }
            let ok = self.links[i].iter().all(|&(j, rel, cell_is_a)| {
                let other = self.grid[j];
                other == 0 || if cell_is_a { rel.holds(d, other) } else { rel.holds(other, d) }
            });
            if !ok {
                mask &= !(1 << d);
            }
        }
        mask
    }

    fn search(&mut self) {
        if self.found >= self.cap {
            return;
        }
        let mut best: Option<(usize, u64)> = None;
        for i in (0..self.n * self.n).filter(|&i| self.grid[i] == 0) {
            let mask = self.candidates(i);
            if best.is_none_or(|(_, b)| mask.count_ones() < b.count_ones()) {
                best = Some((i, mask));
                if mask == 0 {
                    return;
                }
            }
        }
        let Some((i, mask)) = best else {
            self.found += 1;
            return;
        };
        let groups = self.groups(i);
        for d in 1..=self.n as u32 {
            if mask & (1 << d) == 0 {
                continue;
            }
            self.grid[i] = d;
            groups.iter().for_each(|&g| self.used[g] |= 1 << d);
            self.search();
            groups.iter().for_each(|&g| self.used[g] &= !(1 << d));
            self.grid[i] = 0;
        }
    }
}

/// Two cells, as (row, column) indices.
pub type Pair = ((usize, usize), (usize, usize));

/// The contest's 15 symbol lines as cell pairs, written from the problem
/// statement: row lines 1,3,5,6,8,10,11,13,15 relate columns (1,2),(2,3),
/// (4,5),(5,6),(7,8),(8,9) of rows 1..9; vertical lines 2,4,7,9,12,14 relate
/// rows (1,2),(2,3),(4,5),(5,6),(7,8),(8,9), one symbol per column.
pub fn contest_pairs() -> Vec<Vec<Pair>> {
    let adjacent = [(0, 1), (1, 2), (3, 4), (4, 5), (6, 7), (7, 8)];
    let mut grid_row = 0;
    let mut vertical = 0;
    let mut lines = Vec::new();
    for line in 1..=15 {
        if [2, 4, 7, 9, 12, 14].contains(&line) {
            let (top, bottom) = adjacent[vertical];
            lines.push((0..9).map(|c| ((top, c), (bottom, c))).collect());
            vertical += 1;
        } else {
            lines.push(adjacent.iter().map(|&(a, b)| ((grid_row, a), (grid_row, b))).collect());
            grid_row += 1;
        }
    }
    lines
}

/// Symbols (-1, 0, 1) that `grid` satisfies, line by line.
pub fn symbols_of(grid: &[u32]) -> Vec<Vec<i8>> {
    contest_pairs()
        .iter()
        .map(|line| {
            line.iter()
                .map(|&((r1, c1), (r2, c2))| match (grid[r1 * 9 + c1] + grid[r2 * 9 + c2]).cmp(&10) {
                    std::cmp::Ordering::Less => -1,
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Greater => 1,
                })
                .collect()
        })
        .collect()
}

/// Random symbols: a contest instance that most likely has no solution.
pub fn random_symbols(rng: &mut Rng) -> Vec<Vec<i8>> {
    contest_pairs().iter().map(|line| line.iter().map(|_| rng.below(3) as i8 - 1).collect()).collect()
}

/// The oracle's view of a contest instance.
pub fn contest_spec(symbols: &[Vec<i8>]) -> Spec {
    let mut spec = Spec::empty(3, 3);
    for (line, pairs) in symbols.iter().zip(contest_pairs()) {
        for (&cmp, (a, b)) in line.iter().zip(pairs) {
            spec.relations.push(SumRel { a, b, cmp, target: 10 });
        }
    }
    spec
}

/// A contest instance cut down from a random 9x9 grid: some of the grid's
/// sum relations (how many drawn from `relations`) and some of its digits
/// as givens (drawn from `givens`), so that it has the grid as a solution
/// and usually many more.
pub fn partial_of_grid(rng: &mut Rng, givens: std::ops::Range<usize>, relations: std::ops::Range<usize>) -> Spec {
    let grid = random_grid(rng, 9, (3, 3));
    let mut spec = contest_spec(&symbols_of(&grid));
    rng.shuffle(&mut spec.relations);
    spec.relations.truncate(relations.start + rng.below(relations.len()));
    let mut cells: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut cells);
    for &c in &cells[..givens.start + rng.below(givens.len())] {
        spec.givens[c] = grid[c];
    }
    spec
}

/// The instance as LP facts.
pub fn to_lp(symbols: &[Vec<i8>]) -> String {
    symbols
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let pred = if s.len() == 9 { "vertical" } else { "row" };
            format!("{pred}({},{}).\n", i + 1, itertools::join(s, ","))
        })
        .collect()
}

/// The instance in the Kattis form.
pub fn to_kattis(symbols: &[Vec<i8>]) -> String {
    symbols.iter().map(|s| s.iter().map(|&v| ['<', '=', '>'][(v + 1) as usize]).collect::<String>() + "\n").collect()
}

/// Symbols of the contest example, as printed in the problem statement.
pub const CONTEST_EXAMPLE: &str = include_str!("../../cnf-samples/contest.lp");

/// The library's puzzle for a spec, built through the public API.
pub fn puzzle_of(spec: &Spec) -> satsudoku::model::Puzzle {
    use satsudoku::model::{Cell, Predicate, Puzzle};
    let mut puzzle = Puzzle::sudoku(spec.bh, spec.bw).unwrap();
    if spec.diagonals {
        puzzle = puzzle.with_diagonals();
    }
    let n = spec.bh * spec.bw;
    for (i, &g) in spec.givens.iter().enumerate() {
        if g != 0 {
            puzzle.set_given(Cell::new(i / n, i % n), g as u8).unwrap();
        }
    }
    for rel in &spec.relations {
        let predicate = Predicate::Sum { cmp: rel.cmp.cmp(&0), target: rel.target };
        puzzle.add_relation(Cell::new(rel.a.0, rel.a.1), Cell::new(rel.b.0, rel.b.1), predicate).unwrap();
    }
    puzzle
}

/// Grids of side `n` whose rows and columns hold distinct digits, and the
/// boxes of `h x w` cells too (`(1, n)` for no boxes: a box is then a row),
/// that agree with `givens` (0 blank) and that `keep` accepts; by plain
/// backtracking, filling next the open cell with the fewest digits left.
/// The oracle for every family count.
pub fn count_grids(n: usize, (h, w): (usize, usize), givens: &[u32], keep: &dyn Fn(&[u32]) -> bool) -> u64 {
    fn candidates(n: usize, h: usize, w: usize, g: &[u32], i: usize) -> Vec<u32> {
        let (r, c) = (i / n, i % n);
        let used = |d: u32| {
            (0..n).any(|k| g[r * n + k] == d || g[k * n + c] == d)
                || (0..n * n).any(|j| (j / n) / h == r / h && (j % n) / w == c / w && g[j] == d)
        };
        (1..=n as u32).filter(|&d| !used(d)).collect()
    }
    fn fill(n: usize, h: usize, w: usize, keep: &dyn Fn(&[u32]) -> bool, g: &mut Vec<u32>) -> u64 {
        let open =
            (0..n * n).filter(|&i| g[i] == 0).map(|i| (candidates(n, h, w, g, i), i)).min_by_key(|(c, _)| c.len());
        let Some((digits, i)) = open else {
            return u64::from(keep(g));
        };
        let mut count = 0;
        for d in digits {
            g[i] = d;
            count += fill(n, h, w, keep, g);
        }
        g[i] = 0;
        count
    }
    // The givens must not clash among themselves.
    let mut g = vec![0; n * n];
    for (i, &d) in givens.iter().enumerate() {
        if d != 0 {
            if !candidates(n, h, w, &g, i).contains(&d) {
                return 0;
            }
            g[i] = d;
        }
    }
    fill(n, h, w, keep, &mut g)
}

/// Grids of side `n` whose rows, columns and `groups` (cell indices) hold
/// distinct digits, that agree with `givens` (0 blank), restricted to
/// `allowed[i]` (a bit per digit, from bit 1) and that `keep` accepts; `keep`
/// sees partial grids (0 blank) and must accept any it cannot yet judge.
pub fn count_layout(
    n: usize,
    groups: &[Vec<usize>],
    givens: &[u32],
    allowed: &[u64],
    keep: &dyn Fn(&[u32]) -> bool,
) -> u64 {
    let peers = peers_of(n, n * n, groups);
    fn fill(n: usize, peers: &[Vec<usize>], allowed: &[u64], keep: &dyn Fn(&[u32]) -> bool, g: &mut [u32]) -> u64 {
        if !keep(g) {
            return 0;
        }
        let options = |i: usize| -> Vec<u32> {
            (1..=n as u32).filter(|&d| allowed[i] >> d & 1 == 1 && peers[i].iter().all(|&p| g[p] != d)).collect()
        };
        let open = (0..n * n).filter(|&i| g[i] == 0).map(|i| (options(i), i)).min_by_key(|(o, _)| o.len());
        let Some((digits, i)) = open else { return 1 };
        let mut count = 0;
        for d in digits {
            g[i] = d;
            count += fill(n, peers, allowed, keep, g);
        }
        g[i] = 0;
        count
    }
    let mut g = givens.to_vec();
    for i in 0..n * n {
        let d = g[i];
        if d != 0 && (allowed[i] >> d & 1 == 0 || peers[i].iter().any(|&p| g[p] == d)) {
            return 0;
        }
    }
    fill(n, &peers, allowed, keep, &mut g)
}

/// Counts the fillings of an `n x n` grid with values `1..=values` in
/// which each row's, column's and group's cells differ, the `given` cells
/// hold their values, and `keep` holds: plain backtracking in reading
/// order, the oracle for grids of more values than their side.
pub fn count_fillings(
    n: usize,
    values: u32,
    groups: &[Vec<usize>],
    given: &[(usize, u32)],
    keep: fn(&[u32]) -> bool,
) -> u64 {
    count_with_outside(n, 0, values, groups, given, keep)
}

/// [`count_fillings`] with `extra` cells after the grid's (`n * n` on),
/// in no row or column, each holding a value of `1..=values` too.
pub fn count_with_outside(
    n: usize,
    extra: usize,
    values: u32,
    groups: &[Vec<usize>],
    given: &[(usize, u32)],
    keep: fn(&[u32]) -> bool,
) -> u64 {
    fn fill(
        at: usize,
        g: &mut Vec<u32>,
        values: u32,
        peers: &[Vec<usize>],
        given: &[(usize, u32)],
        keep: fn(&[u32]) -> bool,
    ) -> u64 {
        if at == g.len() {
            return u64::from(keep(g));
        }
        let mut found = 0;
        for v in 1..=values {
            let fits = given.iter().all(|&(cell, w)| cell != at || w == v);
            if fits && peers[at].iter().all(|&p| p >= at || g[p] != v) {
                g[at] = v;
                found += fill(at + 1, g, values, peers, given, keep);
            }
        }
        g[at] = 0;
        found
    }
    let peers = peers_of(n, n * n + extra, groups);
    fill(0, &mut vec![0; n * n + extra], values, &peers, given, keep)
}

/// For each of `cells` cells (an `n x n` grid's first, in reading order),
/// the cells sharing a row, a column or one of `groups` with it.
fn peers_of(n: usize, cells: usize, groups: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut peers = vec![Vec::new(); cells];
    let lines =
        (0..n).flat_map(|i| [(0..n).map(|j| i * n + j).collect::<Vec<_>>(), (0..n).map(|j| j * n + i).collect()]);
    for group in lines.chain(groups.iter().cloned()) {
        for &a in &group {
            peers[a].extend(group.iter().copied().filter(|&b| b != a));
        }
    }
    peers
}

/// The boxes of an `n x n` grid with `h x w` boxes, in reading order, each
/// as its cell indices in reading order.
pub fn boxes(n: usize, (h, w): (usize, usize)) -> Vec<Vec<usize>> {
    (0..n).map(|b| (0..n).map(|k| (b / (n / w) * h + k / w) * n + b % (n / w) * w + k % w).collect()).collect()
}

/// `satsudoku count --stats EXTRA` on `text`: its stdout and stderr, once
/// it has exited 0.
pub fn count_stats(text: &str, extra: &[&str]) -> (String, String) {
    let out = assert_cmd::Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["count", "--stats"])
        .args(extra)
        .write_stdin(text.to_owned())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// `satsudoku ARGS` on `text`, which a timeout in `args` stops: its stdout
/// and stderr, once it has exited 3 within `within`.
pub fn stopped_within(args: &[&str], text: &str, within: std::time::Duration) -> (String, String) {
    let start = std::time::Instant::now();
    let out =
        assert_cmd::Command::cargo_bin("satsudoku").unwrap().args(args).write_stdin(text.to_owned()).output().unwrap();
    let elapsed = start.elapsed();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(elapsed < within, "{elapsed:?}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

/// A 16x16 Sudoku grid (4x4 boxes) from the shifted pattern, with up to
/// `open` disjoint unavoidable rectangles blanked: four cells in two rows,
/// two columns and two boxes holding `a b / b a`, which either order fills.
pub fn rectangles(open: usize) -> (Vec<u32>, usize) {
    let (n, b) = (16, 4);
    let mut grid: Vec<u32> = (0..n * n).map(|i| ((b * ((i / n) % b) + (i / n) / b + i % n) % n + 1) as u32).collect();
    let mut blanked = 0;
    let mut used = vec![false; n * n];
    'search: for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    if blanked == open {
                        break 'search;
                    }
                    let cells = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    let boxes: std::collections::BTreeSet<(usize, usize)> =
                        cells.iter().map(|&i| ((i / n) / b, (i % n) / b)).collect();
                    let swapped = grid[cells[0]] == grid[cells[3]] && grid[cells[1]] == grid[cells[2]];
                    if swapped && boxes.len() == 2 && cells.iter().all(|&i| !used[i] && grid[i] != 0) {
                        for &i in &cells {
                            used[i] = true;
                            grid[i] = 0;
                        }
                        blanked += 1;
                    }
                }
            }
        }
    }
    (grid, blanked)
}

/// A grid of 16 as a `givens` line.
pub fn rectangles_text(grid: &[u32]) -> String {
    let symbols = b"123456789ABCDEFG";
    grid.iter().map(|&d| if d == 0 { '.' } else { char::from(symbols[d as usize - 1]) }).collect::<String>() + "\n"
}

/// A random full grid with distinct rows, columns and boxes.
pub fn random_grid(rng: &mut Rng, n: usize, (h, w): (usize, usize)) -> Vec<u32> {
    fn fill(rng: &mut Rng, g: &mut Vec<u32>, i: usize, n: usize, h: usize, w: usize) -> bool {
        if i == n * n {
            return true;
        }
        let (r, c) = (i / n, i % n);
        let mut digits: Vec<u32> = (1..=n as u32).collect();
        rng.shuffle(&mut digits);
        for d in digits {
            let clash = (0..c).any(|k| g[r * n + k] == d)
                || (0..r).any(|k| g[k * n + c] == d)
                || (0..i).any(|j| (j / n) / h == r / h && (j % n) / w == c / w && g[j] == d);
            if !clash {
                g[i] = d;
                if fill(rng, g, i + 1, n, h, w) {
                    return true;
                }
                g[i] = 0;
            }
        }
        false
    }
    let mut g = vec![0; n * n];
    assert!(fill(rng, &mut g, 0, n, h, w));
    g
}

/// The binary under test, ready for its arguments.
pub fn satsudoku() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("satsudoku").unwrap()
}

/// The engines that can count `puzzle` with `digits` encoded: all of them,
/// except the grid engine on a puzzle with rules other than all-different
/// groups and relations between two cells (which it refuses:
/// tests/it/grid.rs), and
/// dancing links on a puzzle exact cover cannot express or with digits
/// other than direct (refused: tests/it/formulations.rs).
pub fn engines_for(
    puzzle: &satsudoku::model::Puzzle,
    digits: satsudoku::encode::DigitEncoding,
) -> Vec<satsudoku::count::EngineKind> {
    use satsudoku::count::{grid, EngineKind};
    let fits = grid::unfit(puzzle, digits).is_none();
    // Dancing links: the puzzles exact cover expresses, direct digits.
    let covers =
        digits == satsudoku::encode::DigitEncoding::Direct && satsudoku::formulate::ExactCover::of(puzzle).is_ok();
    EngineKind::VARIANTS
        .iter()
        .copied()
        .filter(|&e| (e != EngineKind::Grid || fits) && (e != EngineKind::Dlx || covers))
        .collect()
}

/// Every line over `domains` (the digits each cell may hold), in turn: the
/// brute force behind the propagation tests.
pub fn lines(domains: &[Vec<u8>], each: &mut dyn FnMut(&[u8])) {
    fn go(domains: &[Vec<u8>], line: &mut Vec<u8>, each: &mut dyn FnMut(&[u8])) {
        if line.len() == domains.len() {
            each(line);
            return;
        }
        for &d in &domains[line.len()] {
            line.push(d);
            go(domains, line, each);
            line.pop();
        }
    }
    go(domains, &mut Vec::new(), each);
}

/// The first `k` cells of row 1.
pub fn row(k: usize) -> Vec<satsudoku::model::Cell> {
    (0..k).map(|c| satsudoku::model::Cell::new(0, c)).collect()
}

/// Whether the cells of an `n x n` grid `g` holding one of `digits` form
/// one region, not empty, orthogonally connected, of `size` cells if
/// given: a flood fill from the first member, the tests' oracle of
/// connected values.
pub fn connected(n: usize, g: &[u32], digits: &[u32], size: Option<usize>) -> bool {
    let members: Vec<usize> = (0..n * n).filter(|&c| digits.contains(&g[c])).collect();
    let Some(&first) = members.first() else { return false };
    let mut reached = vec![first];
    let mut k = 0;
    while let Some(&c) = reached.get(k) {
        k += 1;
        for m in neighbours(n, c) {
            if digits.contains(&g[m]) && !reached.contains(&m) {
                reached.push(m);
            }
        }
    }
    reached.len() == members.len() && size.is_none_or(|s| s == members.len())
}

/// The taxicab distance (rows plus columns) between cells `a` and `b` (in
/// reading order) on a side of `n`.
pub fn taxicab(n: usize, a: usize, b: usize) -> usize {
    (a / n).abs_diff(b / n) + (a % n).abs_diff(b % n)
}

/// Whether no two cells of an `n x n` grid `g` a taxicab distance `D`
/// apart both hold `D`: the tests' oracle of anti-taxicab.
pub fn anti_taxicab(n: usize, g: &[u32]) -> bool {
    (0..n * n).all(|a| (0..a).all(|b| !(g[a] as usize == taxicab(n, a, b) && g[b] as usize == taxicab(n, a, b))))
}

/// Orthogonal neighbours of cell `i` (in reading order) on a side of `n`.
pub fn neighbours(n: usize, i: usize) -> Vec<usize> {
    let (r, c) = (i / n, i % n);
    let mut out = Vec::new();
    if r > 0 {
        out.push(i - n);
    }
    if r + 1 < n {
        out.push(i + n);
    }
    if c > 0 {
        out.push(i - 1);
    }
    if c + 1 < n {
        out.push(i + 1);
    }
    out
}

/// Runs the binary with `args` on `input` (its stdin) and asserts that it
/// refuses it: exit status 2, every one of `words` in stderr.
pub fn assert_refused(args: &[&str], input: &str, words: &[&str]) {
    let out = satsudoku().args(args).write_stdin(input).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?} on {input:?}: {stderr}");
    for word in words {
        assert!(stderr.contains(word), "{args:?} on {input:?}: {word:?} not in {stderr}");
    }
}
