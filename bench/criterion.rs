//! Engine internals, measured with criterion: encoding, engine setup, cube
//! splitting and whole counts on the bundled samples. Whole-process times
//! against other tools live in bench/peers.py.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use satsudoku::count::{count_models, enumerate::Enumerate, EngineKind, Limits};
use satsudoku::encode::{encode, Encoding};
use satsudoku::model::Puzzle;
use satsudoku::parse::parse;

fn sample(name: &str) -> Puzzle {
    let text = std::fs::read_to_string(format!("cnf-samples/{name}")).unwrap();
    parse(&text, name, None).unwrap()
}

fn encodings() -> Vec<Encoding> {
    ["direct", "support", "order", "log"].iter().map(|s| s.parse().unwrap()).collect()
}

fn encode_bench(c: &mut Criterion) {
    let puzzle = sample("contest.lp");
    let mut group = c.benchmark_group("encode/contest");
    for encoding in encodings() {
        group.bench_function(encoding.to_string(), |b| b.iter(|| encode(&puzzle, &encoding)));
    }
    group.finish();
}

fn setup_bench(c: &mut Criterion) {
    let puzzle = sample("many.lp");
    let encoded = encode(&puzzle, &Encoding::default());
    c.bench_function("enum/new+propagate/many", |b| b.iter(|| Enumerate::new(&puzzle, &encoded)));
    c.bench_function("enum/split-64/many", |b| b.iter(|| Enumerate::new(&puzzle, &encoded).split(64)));
}

fn count_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    group.sample_size(20);
    for name in ["contest.lp", "many.lp"] {
        let puzzle = sample(name);
        for (engine, spec) in
            [(EngineKind::Blocking, "direct"), (EngineKind::Blocking, "support"), (EngineKind::Enum, "support")]
        {
            let encoded = encode(&puzzle, &spec.parse().unwrap());
            let id = BenchmarkId::new(format!("{engine:?}/{spec}"), name);
            group.bench_function(id, |b| {
                b.iter(|| count_models(&puzzle, &encoded, engine, Limits::default(), &mut ()).unwrap().models)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, encode_bench, setup_bench, count_bench);
criterion_main!(benches);
