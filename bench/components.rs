//! Does component decomposition with caching pay on the Sudoku family? An
//! experiment, not an engine: a small model counter in the manner of
//! sharpSAT (DPLL with unit propagation; at every node the open clauses are
//! split into components that share no variable, each counted on its own,
//! the counts multiplied, and each component's count cached under its
//! variables and open clauses) runs on satsudoku's CNF of a puzzle (direct
//! digits, pairwise at-most-one, no auxiliary variables: a model is a
//! grid), and is timed against satsudoku's enum engine on one thread on the
//! same formula. It prints, per puzzle, both counts (they must agree),
//! both times, the nodes, how many of them split and the cache hits.
//!
//! usage: cargo run --release --example components -- [--box RxC] [--late N,N,..] [--seconds S] FILE...
//!   --late: split and cache only at nodes with at most N open variables
//!   (several values: a row each; default: at every node); --seconds: give
//!   up on a puzzle after S seconds (default 60) and say so.
//!   each FILE one puzzle in any format satsudoku reads, or a collection
//!   (one puzzle a line), whose lines are counted one by one.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::time::Instant;

use satsudoku::count::{count_models, EngineKind, Limits, Search};
use satsudoku::encode::{encode, Encoding};
use satsudoku::model::Puzzle;
use satsudoku::parse::{parse_with, Options};

/// The counter's state: the formula, the assignment and its trail.
struct Counter {
    clauses: Vec<Vec<i32>>,
    /// Per variable, the clauses it occurs in.
    occurs: Vec<Vec<u32>>,
    /// 0 open, 1 true, -1 false.
    value: Vec<i8>,
    /// Per clause: its true literals and its open ones.
    satisfied: Vec<u32>,
    open: Vec<u32>,
    trail: Vec<u32>,
    cache: HashMap<(u64, u64), u128>,
    /// Split and cache only at nodes with at most this many open variables.
    late: usize,
    deadline: Instant,
    out_of_time: bool,
    nodes: u64,
    splits: u64,
    hits: u64,
}

impl Counter {
    fn new(vars: usize, clauses: Vec<Vec<i32>>, late: usize, deadline: Instant) -> Counter {
        let mut occurs = vec![Vec::new(); vars];
        for (i, clause) in clauses.iter().enumerate() {
            for &lit in clause {
                occurs[lit.unsigned_abs() as usize - 1].push(i as u32);
            }
        }
        let open = clauses.iter().map(|c| c.len() as u32).collect();
        Counter {
            satisfied: vec![0; clauses.len()],
            open,
            clauses,
            occurs,
            value: vec![0; vars],
            trail: Vec::new(),
            cache: HashMap::new(),
            late,
            deadline,
            out_of_time: false,
            nodes: 0,
            splits: 0,
            hits: 0,
        }
    }

    fn lit_value(&self, lit: i32) -> i8 {
        let v = self.value[lit.unsigned_abs() as usize - 1];
        if lit > 0 {
            v
        } else {
            -v
        }
    }

    /// Makes `lit` true and propagates; false on a conflict (the trail
    /// holds what was assigned either way).
    fn assign(&mut self, lit: i32) -> bool {
        let mut queue = vec![lit];
        while let Some(lit) = queue.pop() {
            match self.lit_value(lit) {
                1 => continue,
                -1 => return false,
                _ => {}
            }
            let var = lit.unsigned_abs() as usize - 1;
            self.value[var] = if lit > 0 { 1 } else { -1 };
            self.trail.push(var as u32);
            let mut conflict = false;
            for k in 0..self.occurs[var].len() {
                let c = self.occurs[var][k] as usize;
                self.open[c] -= 1;
                if self.clauses[c].contains(&lit) {
                    self.satisfied[c] += 1;
                } else if self.satisfied[c] == 0 {
                    if self.open[c] == 0 {
                        conflict = true;
                    } else if self.open[c] == 1 {
                        let unit = self.clauses[c].iter().copied().find(|&l| self.lit_value(l) == 0);
                        queue.extend(unit);
                    }
                }
            }
            if conflict {
                return false;
            }
        }
        true
    }

    fn undo(&mut self, to: usize) {
        while self.trail.len() > to {
            let var = self.trail.pop().unwrap() as usize;
            let lit = if self.value[var] > 0 { var as i32 + 1 } else { -(var as i32 + 1) };
            for k in 0..self.occurs[var].len() {
                let c = self.occurs[var][k] as usize;
                self.open[c] += 1;
                if self.clauses[c].contains(&lit) {
                    self.satisfied[c] -= 1;
                }
            }
            self.value[var] = 0;
        }
    }

    /// The models of the open part of `vars`: split into components, each
    /// counted (or found in the cache), the counts multiplied; a variable in
    /// no open clause is free (a factor of 2).
    fn count(&mut self, vars: &[u32]) -> u128 {
        self.nodes += 1;
        if self.nodes % 4096 == 0 && Instant::now() > self.deadline {
            self.out_of_time = true;
        }
        if self.out_of_time {
            return 0;
        }
        let open: Vec<u32> = vars.iter().copied().filter(|&v| self.value[v as usize] == 0).collect();
        if open.len() > self.late {
            return self.branch(&open);
        }
        let mut seen: HashMap<u32, usize> = HashMap::new();
        let mut components: Vec<Vec<u32>> = Vec::new();
        let mut free = 0u32;
        for &start in &open {
            if seen.contains_key(&start) {
                continue;
            }
            let id = components.len();
            let mut component = vec![start];
            seen.insert(start, id);
            let mut i = 0;
            while i < component.len() {
                let var = component[i] as usize;
                i += 1;
                for &c in &self.occurs[var] {
                    if self.satisfied[c as usize] > 0 {
                        continue;
                    }
                    for &lit in &self.clauses[c as usize] {
                        let other = lit.unsigned_abs() - 1;
                        if self.value[other as usize] == 0 && !seen.contains_key(&other) {
                            seen.insert(other, id);
                            component.push(other);
                        }
                    }
                }
            }
            if component.len() == 1 && self.occurs[start as usize].iter().all(|&c| self.satisfied[c as usize] > 0) {
                free += 1;
                continue;
            }
            components.push(component);
        }
        if components.len() > 1 {
            self.splits += 1;
        }
        let mut total = 1u128 << free;
        for mut component in components {
            component.sort_unstable();
            let count = self.component(&component);
            if count == 0 {
                return 0;
            }
            total *= count;
        }
        total
    }

    /// One component's count: from the cache, or by branching on its most
    /// frequent variable in open clauses.
    fn component(&mut self, vars: &[u32]) -> u128 {
        let key = self.key(vars);
        if let Some(&count) = self.cache.get(&key) {
            self.hits += 1;
            return count;
        }
        let total = self.branch(vars);
        self.cache.insert(key, total);
        total
    }

    /// The open part of `vars`, counted by branching on its most frequent
    /// variable in open clauses.
    fn branch(&mut self, vars: &[u32]) -> u128 {
        if vars.is_empty() {
            return 1;
        }
        let branch = *vars
            .iter()
            .max_by_key(|&&v| self.occurs[v as usize].iter().filter(|&&c| self.satisfied[c as usize] == 0).count())
            .unwrap();
        let mut total = 0;
        for lit in [branch as i32 + 1, -(branch as i32 + 1)] {
            let mark = self.trail.len();
            if self.assign(lit) {
                total += self.count(vars);
            }
            self.undo(mark);
        }
        total
    }

    /// A component's identity: its variables and its open clauses (whose
    /// open literals are then determined), hashed twice into 128 bits.
    fn key(&self, vars: &[u32]) -> (u64, u64) {
        let mut clauses: Vec<u32> = vars
            .iter()
            .flat_map(|&v| self.occurs[v as usize].iter().copied())
            .filter(|&c| self.satisfied[c as usize] == 0)
            .collect();
        clauses.sort_unstable();
        clauses.dedup();
        let mut a = std::collections::hash_map::DefaultHasher::new();
        let mut b = std::collections::hash_map::DefaultHasher::new();
        0xa5u8.hash(&mut b);
        for h in [&mut a, &mut b] {
            vars.hash(h);
            clauses.hash(h);
        }
        (a.finish(), b.finish())
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut options = Options::default();
    let (mut lates, mut seconds) = (vec![usize::MAX], 60.0);
    while args.first().is_some_and(|a| a.starts_with("--")) {
        let value = args[1].clone();
        match args[0].as_str() {
            "--box" => {
                let shape = value.split_once('x').expect("--box RxC");
                options.boxes = Some((shape.0.parse().unwrap(), shape.1.parse().unwrap()));
            }
            "--late" => lates = value.split(',').map(|v| v.parse().expect("--late N,N,...")).collect(),
            "--seconds" => seconds = value.parse().expect("--seconds S"),
            other => panic!("unknown option {other}"),
        }
        args.drain(..2);
    }
    println!("| puzzle | solutions | enum -j1 ms | split at open vars <= | components ms | components / enum | nodes | splits | cache hits |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for file in &args {
        let text = std::fs::read_to_string(file).expect("a readable file");
        let puzzles: Vec<(String, Puzzle)> = match parse_with(&text, file, None, options) {
            Ok(p) => vec![(file.clone(), p)],
            Err(_) => text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
                .map(|(i, l)| {
                    (format!("{file}:{}", i + 1), parse_with(l, file, None, options).expect("a puzzle a line"))
                })
                .collect(),
        };
        for (name, puzzle) in puzzles {
            for &late in &lates {
                run(&name, &puzzle, late, seconds);
            }
        }
    }
}

fn run(name: &str, puzzle: &Puzzle, late: usize, seconds: f64) {
    let encoded = encode(puzzle, &Encoding::default());
    assert_eq!(encoded.aux_count(), 0, "the experiment counts formulas without auxiliary variables");
    let search = Search { engine: EngineKind::Enum, jobs: 1 };
    let start = Instant::now();
    let limits = Limits { max: None, timeout: None, interrupt: None };
    let counted = count_models(puzzle, &encoded, search, limits, &mut ()).expect("a count");
    let enum_ms = start.elapsed().as_secs_f64() * 1e3;

    let vars = encoded.formula.var_count();
    let clauses: Vec<Vec<i32>> =
        encoded.formula.iter().map(|c| c.iter().map(|l| l.to_dimacs() as i32).collect()).collect();
    let start = Instant::now();
    let deadline = start + std::time::Duration::from_secs_f64(seconds);
    let mut counter = Counter::new(vars, clauses.clone(), late, deadline);
    let units: Vec<i32> = clauses.iter().filter(|c| c.len() == 1).map(|c| c[0]).collect();
    let all: Vec<u32> = (0..vars as u32).collect();
    let count = if units.into_iter().all(|u| counter.assign(u)) { counter.count(&all) } else { 0 };
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let late = if late == usize::MAX { "all".to_owned() } else { late.to_string() };
    let models = counted.models;
    if counter.out_of_time {
        println!(
            "| {name} | {models} | {enum_ms:.1} | {late} | > {ms:.0} (stopped) | > {:.0}x | {} | {} | {} |",
            ms / enum_ms,
            counter.nodes,
            counter.splits,
            counter.hits
        );
        return;
    }
    assert_eq!(count, models, "{name}: the two counts differ");
    println!(
        "| {name} | {count} | {enum_ms:.1} | {late} | {ms:.1} | {:.2}x | {} | {} | {} |",
        ms / enum_ms,
        counter.nodes,
        counter.splits,
        counter.hits
    );
}
