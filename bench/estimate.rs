//! How long an exact count out of reach would take, measured: a two-stage
//! sample of the count's cubes (Knuth's estimator, cube by cube). The
//! search is split `DEPTH` branch points deep into cubes (as `satsudoku
//! cubes --depth` does, after the relabelling reduction); `CUBES` of them
//! are drawn at random, each split further into at least `SUBCUBES`, of
//! which `DRAWS` are drawn and counted exactly. Each level's count times the
//! mean of its draws is an unbiased estimate of the level above, so the
//! estimate of the whole count, and of its time, is the number of cubes
//! times the mean over the drawn cubes (times the relabelling factor).
//!
//! usage: cargo run --release --example estimate -- FILE BOX DEPTH CUBES SUBCUBES DRAWS SEED [ENGINE]
//!   FILE: a puzzle in any format satsudoku detects (e.g. 64 dots for the
//!   empty 8x8 grid, or `size 9` and `antiking` lines), BOX: e.g. 2x4 (for
//!   a grid of givens), ENGINE: `enum` (the default) or `grid`, which
//!   counts the drawn subcubes

use std::time::{Duration, Instant};

use satsudoku::count::enumerate::Enumerate;
use satsudoku::count::symmetry;
use satsudoku::count::{count_cube, EngineKind, Limits, Search};
use satsudoku::encode::{encode, Encoding};
use satsudoku::parse::{parse_with, Options};

/// A small generator for the draws (splitmix64).
struct Draws(u64);

impl Draws {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (args, engine) = match &args[..] {
        [rest @ .., engine] if rest.len() == 7 => (rest, engine.as_str()),
        _ => (&args[..], "enum"),
    };
    let ([file, boxes, depth, cubes, subcubes, draws, seed], Ok(kind)) = (args, engine.parse::<EngineKind>()) else {
        eprintln!("usage: estimate FILE BOX DEPTH CUBES SUBCUBES DRAWS SEED [ENGINE]");
        std::process::exit(2);
    };
    let num = |s: &str| s.parse::<usize>().expect("a number");
    let (r, c) = boxes.split_once('x').expect("BOX as RxC");
    let options = Options { boxes: Some((num(r), num(c))), takuzu_distinct: true };
    let text = std::fs::read_to_string(file).expect("the puzzle file");
    let puzzle = parse_with(&text, file, None, options).expect("a puzzle");
    let reduced = symmetry::reduce(&puzzle, true);
    let (puzzle, factor) = (&*reduced.puzzle, reduced.factor());
    let encoded = encode(puzzle, &Encoding::default());
    let mut engine = Enumerate::new(puzzle, &encoded);
    let top = engine.split_to_depth(num(depth));
    let mut rng = Draws(num(seed) as u64);
    let search = Search { engine: kind, jobs: satsudoku::count::all_cores() };
    let (mut estimates, mut counted, mut spent) = (Vec::new(), 0u128, Duration::ZERO);
    let (cubes, draws) = (num(cubes), num(draws));
    for i in 0..cubes {
        let cube = top[rng.below(top.len())].clone();
        let subs = engine.split_further(vec![cube], num(subcubes));
        let (mut sub_count, mut sub_time) = (0f64, 0f64);
        for _ in 0..draws {
            let sub = subs[rng.below(subs.len())].clone();
            let start = Instant::now();
            let count = count_cube(puzzle, &encoded, search, Limits::default(), &mut (), sub).expect("a count");
            let elapsed = start.elapsed();
            (counted, spent) = (counted + count.models, spent + elapsed);
            sub_count += count.models as f64;
            sub_time += elapsed.as_secs_f64();
        }
        let (est_count, est_time) =
            (subs.len() as f64 * sub_count / draws as f64, subs.len() as f64 * sub_time / draws as f64);
        estimates.push((est_count, est_time));
        eprintln!("cube {}/{cubes}: {} subcubes, estimate {est_count:.3e} models, {est_time:.0} s", i + 1, subs.len());
    }
    // The mean over the drawn cubes and its standard error, scaled to all cubes.
    let n = top.len() as f64;
    let mean_and_error = |values: Vec<f64>| {
        let k = values.len() as f64;
        let mean = values.iter().sum::<f64>() / k;
        let variance = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (k - 1.0).max(1.0);
        (n * mean, n * (variance / k).sqrt())
    };
    let (count, count_error) = mean_and_error(estimates.iter().map(|e| e.0).collect());
    let (seconds, seconds_error) = mean_and_error(estimates.iter().map(|e| e.1).collect());
    println!("cubes at depth {depth}: {}", top.len());
    println!("models counted in the sample: {counted} in {:.1} s", spent.as_secs_f64());
    let f = factor as f64;
    println!(
        "estimated count: {count:.4e} +- {count_error:.1e} (x {factor} relabellings = {:.4e} +- {:.1e})",
        count * f,
        count_error * f
    );
    println!(
        "estimated time on {} threads: {:.3e} s +- {:.1e} = {:.1} days",
        search.jobs,
        seconds,
        seconds_error,
        seconds / 86400.0
    );
}
