//! A sample of a blank layout's middle-band orbits, each with the
//! completions the join of the outer bands finds for it
//! (`count::band_join`), for `bench/join_sample.py` to count again by
//! enumeration (`satsudoku count` on the puzzle with the band given, which
//! no join touches). The orbits are drawn at random without repeats, the
//! same for the same seed on every machine (ChaCha8).
//!
//! usage: cargo run --release --example join_sample -- FILE ORBITS SEED
//!        cargo run --release --example join_sample -- FILE --range FROM TO
//!   FILE: a blank layout the plan counts by the middle band's orbits with
//!   the outer bands joined (e.g. `size 9` and `antiking` lines); with
//!   `--range`, the orbits FROM to TO - 1 in the order the plan lists them
//!   (their sizes times their completions, summed over every orbit, are
//!   the whole count over `n!`, which the plan sums on its threads)
//!
//! Prints one line an orbit, tab-separated: its place in the list of
//! orbits, its size (fillings with the first box fixed), the completions
//! the join counts, and the band as givens on one line (`.` elsewhere).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use satsudoku::count::band_join::{Join, Table};
use satsudoku::count::band_orbits::Band;
use satsudoku::report::{givens_line, PrintStyle};

/// Which orbits: so many drawn with a seed, or a stretch of the list.
enum Pick {
    Random(usize, u64),
    Range(usize, usize),
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (file, chosen) = match &args[..] {
        [file, flag, from, to] if flag == "--range" => {
            (file, from.parse().and_then(|f| Ok(Pick::Range(f, to.parse()?))))
        }
        [file, orbits, seed] => (file, orbits.parse().and_then(|o| Ok(Pick::Random(o, seed.parse()?)))),
        _ => {
            eprintln!("usage: join_sample FILE ORBITS SEED | join_sample FILE --range FROM TO");
            std::process::exit(2);
        }
    };
    let Ok(chosen) = chosen else {
        eprintln!("join_sample: ORBITS, SEED, FROM and TO are whole numbers");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("join_sample: {file}: {e}");
        std::process::exit(2);
    });
    let layout = satsudoku::parse::parse(&text, file, None).unwrap_or_else(|e| {
        eprintln!("join_sample: {file}: {e:#}");
        std::process::exit(2);
    });
    let Some(band) = Band::recognize(&layout, true) else {
        eprintln!("join_sample: {file}: no band's orbits count this layout");
        std::process::exit(2);
    };
    let Some(join) = Join::new(&layout, band.index()) else {
        eprintln!("join_sample: {file}: the outer bands cannot be joined around band {}", band.index());
        std::process::exit(2);
    };
    let orbits = band.orbits(&|| false).expect("not stopped");
    let listed = orbits.orbits.len();
    eprintln!(
        "join_sample: {} fillings of band {}, {listed} orbits under {} motions",
        orbits.fillings,
        band.index(),
        band.motions()
    );
    let picked: Vec<usize> = match chosen {
        Pick::Random(wanted, seed) => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut picked = rand::seq::index::sample(&mut rng, listed, wanted.min(listed)).into_vec();
            picked.sort_unstable();
            picked
        }
        Pick::Range(from, to) => (from.min(listed)..to.min(listed)).collect(),
    };
    let side = layout.grid_side();
    let mut table = Table::default();
    for k in picked {
        let (filling, size) = orbits.orbits[k];
        let (joined, _) = join.count(filling, &mut table, &|| false).expect("not stopped");
        let givens: Vec<_> = band.given(&layout, filling).givens().collect();
        println!("{k}\t{size}\t{joined}\t{}", givens_line(side, &givens, PrintStyle::Grid));
    }
}
