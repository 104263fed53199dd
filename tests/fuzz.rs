//! Fuzzing every reader, in its own test binary so that it can count the
//! bytes it allocates (its global allocator records the peak).
//!
//! Each input is made from the seed and its index alone (a generator, or a
//! mutation of a sample from the repository), so any one can be made again:
//! `SATSUDOKU_FUZZ_SEED=S SATSUDOKU_FUZZ_FROM=I SATSUDOKU_FUZZ_INPUTS=1
//! SATSUDOKU_FUZZ_SAVE=1` writes it to `target/fuzz-failures/`.
//! Every reader in the library is tried: the seven puzzle formats (detected
//! and named, with the options that change their reading), DIMACS CNF, a
//! solver's model, the answers `decode --as` reads (clingo, MIP solution
//! files, MiniZinc, PB `v` lines, DLX options), and the cluster's cube,
//! manifest and record files. The
//! properties, on every input:
//!
//! - no panic; an error names the source and a place (`name:line:col:`, or
//!   `name:` and a JSON path for f-puzzles);
//! - a reader's time stays under [`READ_SECONDS`] and the bytes it
//!   allocates under [`read_bound`] (64 bytes per input byte and 64 MiB);
//! - a puzzle of at most 36 cells that reads is counted three ways, the
//!   enum engine on the direct encoding, varisat with blocking clauses on
//!   log digits, and the counting plan (symmetry, parts), each stopped at
//!   [`MAX_MODELS`] or [`COUNT_SECONDS`]; exact counts agree, and no lower
//!   bound passes an exact count;
//! - then [`CLI_INPUTS`] (or `SATSUDOKU_FUZZ_CLI`) of the inputs are run through the binary with
//!   `--timeout` and `--memory`: it exits 0 to 3 (never a signal, never an
//!   abort), says nothing of a panic, and an exit 2 comes with `error:`.
//!
//! `cargo test` runs a slice bounded by [`default_seconds`]; a longer run is
//! `SATSUDOKU_FUZZ_SECONDS=3600 SATSUDOKU_FUZZ_INPUTS=1000000 cargo test
//! --release --test fuzz -- --nocapture` (docs/testing.md). A failing input
//! is written to `target/fuzz-failures/`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use satsudoku::cluster::{CubeFile, Manifest, Record};
use satsudoku::count::plan::{self, Plan};
use satsudoku::count::{count_models, EngineKind, Limits, Stop};
use satsudoku::dimacs::{parse_dimacs, parse_model};
use satsudoku::encode::{encode, Encoding};
use satsudoku::formulate::{self, Formulation};
use satsudoku::model::rules::RULES;
use satsudoku::model::Puzzle;
use satsudoku::parse::{detect, fpuzzles, parse_part, parse_with, parts, Format, Options, ParseError};
use serde_json::Value;

// ---- the allocator: bytes live and their peak ----

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

struct Peak;

// SAFETY: every method forwards to `System` unchanged; the counting only
// touches atomics.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(pointer, layout)
    }
    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            grow(new_size - layout.size());
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        System.realloc(pointer, layout, new_size)
    }
}

fn grow(size: usize) {
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

#[global_allocator]
static ALLOCATOR: Peak = Peak;

/// `f`'s result, its time, and the most bytes it had allocated at once.
fn measured<T>(f: impl FnOnce() -> T) -> (T, Duration, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let start = Instant::now();
    let value = f();
    let elapsed = start.elapsed();
    (value, elapsed, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

// ---- bounds ----

/// The most a reader may take on one input (an unoptimised build gets ten
/// times as long).
const READ_SECONDS: f64 = 1.0;
/// Each of the three counts of a small puzzle stops here...
const COUNT_SECONDS: f64 = 0.5;
/// ... or at this many solutions.
const MAX_MODELS: u128 = 200;
/// The longest input made (the binary reads up to 64 MiB; the readers'
/// bounds are per byte, so longer inputs test nothing new).
const MAX_INPUT: usize = 256 << 10;
/// How many of the inputs also go through the binary, when
/// `SATSUDOKU_FUZZ_CLI` does not say.
const CLI_INPUTS: usize = 300;

/// The bytes a reader may allocate for `len` bytes of input.
fn read_bound(len: usize) -> usize {
    64 * len + (64 << 20)
}

fn slow() -> f64 {
    if cfg!(debug_assertions) {
        10.0
    } else {
        1.0
    }
}

/// `cargo test`'s slice: seconds of fuzzing when `SATSUDOKU_FUZZ_SECONDS`
/// is not set.
fn default_seconds() -> f64 {
    10.0
}

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

// ---- randomness: one generator per input, from the seed and the index ----

struct Rng(u64);

impl Rng {
    fn new(seed: u64, index: u64) -> Rng {
        let mut rng = Rng(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        rng.next();
        rng
    }
    /// splitmix64.
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---- the readers ----

/// What is read, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reader {
    Detect,
    Named(Format),
    TakuzuAnyLines,
    Boxes(usize, usize),
    Dimacs,
    Model,
    Cube,
    Manifest,
    Record,
    /// A solver's answer to the contest puzzle exported as a formulation.
    Answer(Formulation),
    /// A `puzzle` or Takuzu file of several puzzles, each read as a
    /// collection's.
    Parts(Format),
}

const NAME: &str = "fuzz-input";

/// The contest puzzle, which the answers answer.
fn contest() -> &'static Puzzle {
    static CONTEST: std::sync::OnceLock<Puzzle> = std::sync::OnceLock::new();
    CONTEST.get_or_init(|| {
        let text = std::fs::read_to_string(root().join("cnf-samples/contest.lp")).unwrap();
        parse_with(&text, "contest.lp", None, Options::default()).unwrap()
    })
}

/// Reads `text`; a puzzle when the reader makes one.
fn read(reader: Reader, text: &str) -> Result<Option<Puzzle>, ParseError> {
    let options = Options::default();
    match reader {
        Reader::Detect => parse_with(text, NAME, None, options).map(Some),
        Reader::Named(format) => parse_with(text, NAME, Some(format), options).map(Some),
        Reader::TakuzuAnyLines => {
            parse_with(text, NAME, Some(Format::Takuzu), Options { takuzu_distinct: false, ..options }).map(Some)
        }
        Reader::Boxes(h, w) => parse_with(text, NAME, None, Options { boxes: Some((h, w)), ..options }).map(Some),
        Reader::Dimacs => parse_dimacs(text, NAME).map(|_| None),
        Reader::Model => parse_model(text, NAME, 1 + text.len() % 300).map(|_| None),
        Reader::Cube => CubeFile::parse(text, NAME).map(|cube| {
            let _ = cube.verify();
            None
        }),
        Reader::Manifest => Manifest::parse(text, NAME).map(|manifest| {
            let _ = manifest.verify();
            None
        }),
        Reader::Record => Record::parse(text, NAME).map(|_| None),
        Reader::Parts(format) => {
            let mut last = None;
            for part in parts(text) {
                last = Some(parse_part(part, NAME, format, options)?);
            }
            Ok(last)
        }
        // A solver's answer is read or refused, never a panic; its errors
        // name no place (the answer is not the user's text).
        Reader::Answer(formulation) => {
            let _ = formulate::read_answer(contest(), formulation, text);
            Ok(None)
        }
    }
}

/// Whether `message` names the source and a place in it.
fn located(error: &ParseError, reader: Reader) -> bool {
    let text = error.to_string();
    if !text.starts_with(&format!("{NAME}:")) || error.message.trim().is_empty() {
        return false;
    }
    // f-puzzles' JSON errors are placed by path (line 0); every other
    // reader gives a line from 1.
    error.line > 0 || matches!(reader, Reader::Detect | Reader::Named(Format::Fpuzzles) | Reader::Boxes(..))
}

// ---- the samples, generators and mutations ----

/// Every sample in the repository, each with the readers it is meant for.
#[derive(Default)]
struct Samples {
    puzzles: Vec<String>,
    /// The samples that are puzzles, with the format each is detected as.
    formatted: Vec<(Format, String)>,
    json: Vec<String>,
    dimacs: Vec<String>,
    models: Vec<String>,
    cubes: Vec<String>,
    manifests: Vec<String>,
    records: Vec<String>,
    /// Solvers' answers to the contest puzzle: the formulation, the text.
    answers: Vec<(Formulation, String)>,
}

/// Answers to the contest puzzle as each solver writes them (its solution,
/// row by row), for the answer readers.
fn answers() -> Vec<(Formulation, String)> {
    const ROWS: [&str; 9] = [
        "537821649",
        "964537821",
        "812946735",
        "645378192",
        "781492563",
        "329615478",
        "278169354",
        "193754286",
        "456283917",
    ];
    let cells = || {
        ROWS.iter().enumerate().flat_map(|(r, row)| row.bytes().enumerate().map(move |(c, d)| (r + 1, c + 1, d - b'0')))
    };
    let atoms = itertools::join(cells().map(|(r, c, d)| format!("x({r},{c},{d})")), " ");
    let cbc = itertools::join(cells().enumerate().map(|(i, (r, c, d))| format!("{i:>7} x_{r}_{c}_{d} 1 0")), "\n");
    let ints = itertools::join(cells().map(|(r, c, d)| format!("v_{r}_{c} {d}")), "\n");
    let grid = itertools::join(ROWS.iter().map(|row| itertools::join(row.chars(), " ")), "\n");
    let opb = itertools::join((1..=729).map(|k| if k % 9 == 1 { format!("x{k}") } else { format!("-x{k}") }), " ");
    let dlx = itertools::join(cells().map(|(r, c, d)| format!("p{r}_{c} r{r}_{d} c{c}_{d} b1_{d} f{r}{c}")), "\n");
    vec![
        (Formulation::Asp, format!("clingo version 5.6.2\nSolving...\nAnswer: 1\n{atoms}\nSATISFIABLE\n")),
        (Formulation::Asp, "Solving...\nUNSATISFIABLE\n".into()),
        (Formulation::Mip, format!("Optimal - objective value 0.00000000\n{cbc}\n")),
        (Formulation::MipInt, format!("Model status        : Optimal\n# Columns 81\n{ints}\n")),
        (Formulation::Mps, "PROBLEM HAS NO INTEGER FEASIBLE SOLUTION\n".into()),
        (Formulation::Mzn, format!("{grid}\n----------\n==========\n")),
        (Formulation::Opb, format!("c clasp\ns SATISFIABLE\nv {opb}\n")),
        (Formulation::ExactCover, format!("{dlx}\nAltogether 1 solution\n")),
    ]
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn samples() -> Samples {
    let mut files = Vec::new();
    files_under(&root().join("cnf-samples"), &mut files);
    let mut s = Samples::default();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        if path.extension().is_some_and(|e| e == "cnf") {
            s.dimacs.push(text);
        } else if !path.ends_with("COUNTS.tsv") {
            s.puzzles.push(text);
        }
    }
    let corpus: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(root().join("tests/corpus/variants/puzzles.json")).unwrap())
            .unwrap();
    for entry in &corpus {
        let share = entry["puzzle"].as_str().unwrap().to_owned();
        s.json.push(fpuzzles::json_text(&share, "corpus").unwrap());
        s.puzzles.push(share);
    }
    // ISS constraint strings and shorthands (every tenth example, and the
    // first example of each type read since: state machines, lunchboxes
    // and the rest).
    let iss: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(root().join("tests/corpus/iss/examples.json")).unwrap()).unwrap();
    let newer = [
        ".NFA~",
        ".Lunchbox~",
        ".SumLine~",
        ".RellikCage~",
        ".EqualityCage~",
        ".HiddenSkyscraper~",
        ".NumberedRoom~",
        ".CountingCircles~",
        ".LookAndSay~",
        ".ValueIndexing~",
        ".CountDistinct~",
        ".EqualSum~",
        ".AntiTaxicab",
        ".GlobalEntropy",
        ".DutchFlatmates",
        ".Or.",
        ".And.",
        ".Replicate~",
        ".RegionSize~",
        ".RegionSameValues",
        "~Raw",
        ".Or.HiddenSkyscraper~",
        // Rectangles: plain, a killer, a jigsaw, skyscrapers.
        ".Shape~6x8",
        ".Shape~5x10",
        ".Shape~4x7",
        ".Shape~4x6",
    ];
    let first_of = |t: &str| iss.iter().find(|e| e["input"].as_str().unwrap().contains(t));
    let picked: Vec<&Value> = iss.iter().step_by(10).chain(newer.iter().filter_map(|t| first_of(t))).collect();
    for entry in picked {
        s.formatted.push((Format::Iss, entry["input"].as_str().unwrap().to_owned()));
        s.puzzles.push(entry["input"].as_str().unwrap().to_owned());
    }
    s.answers = answers();
    for text in &s.puzzles {
        if let Ok(format) = detect(text, NAME, Options::default()) {
            s.formatted.push((format, text.clone()));
        }
        if text.trim_start().starts_with('{') {
            s.json.push(text.clone());
        }
    }
    // Chaos constructions, native and ISS's.
    s.formatted.push((Format::Puzzle, "size 4\nbox none\nchaos\ngivens\n1...\n....\n..2.\n....\n".into()));
    s.formatted.push((Format::Iss, ".Shape~5x5.NoBoxes.ChaosConstruction.~R1C1_1.Thermo~R2C2~R2C3".into()));
    s.models.push("s SATISFIABLE\nv 1 -2 3 -4 5 0\n".into());
    s.models.push("SAT\n1 -2 3 0\n".into());
    s.models.push("s UNSATISFIABLE\n".into());
    // Cube, manifest and record files as `satsudoku cubes` and `count
    // --cube` write them.
    let dir = tempfile::tempdir().unwrap();
    for (i, sample) in ["variants-6x6.puzzle", "classic-6x6.grid"].iter().enumerate() {
        let out = dir.path().join(i.to_string());
        let input = root().join("cnf-samples/family").join(sample);
        let status = Command::new(env!("CARGO_BIN_EXE_satsudoku"))
            .args(["cubes", "--count", "3", "-o"])
            .arg(&out)
            .arg(&input)
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        let cube = out.join("cube-00001.cube");
        Command::new(env!("CARGO_BIN_EXE_satsudoku"))
            .args(["count", "--cube"])
            .arg(&cube)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        s.cubes.push(std::fs::read_to_string(&cube).unwrap());
        s.manifests.push(std::fs::read_to_string(out.join("manifest.txt")).unwrap());
        s.records.push(std::fs::read_to_string(out.join("cube-00001.result")).unwrap());
    }
    s
}

/// Characters a mutation inserts: every format's punctuation, digits and
/// letters, blanks, and some that no format uses.
const ALPHABET: &[char] = &[
    '0',
    '1',
    '2',
    '3',
    '4',
    '5',
    '6',
    '7',
    '8',
    '9',
    '.',
    ',',
    ':',
    ';',
    '-',
    '+',
    '|',
    '=',
    '<',
    '>',
    '(',
    ')',
    '[',
    ']',
    '{',
    '}',
    '"',
    '\\',
    '/',
    '#',
    '%',
    '?',
    '&',
    ' ',
    '\t',
    '\n',
    '\r',
    'r',
    'c',
    'R',
    'C',
    'x',
    'A',
    'a',
    'z',
    '\0',
    '\u{feff}',
    '\u{1b}',
    'é',
    '\u{301}',
    '\u{10FFFF}',
    '\u{7f}',
];

/// Numbers at the edges of what readers accept.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "4",
    "6",
    "7",
    "8",
    "9",
    "10",
    "12",
    "16",
    "17",
    "36",
    "63",
    "64",
    "65",
    "100",
    "255",
    "256",
    "4096",
    "65536",
    "2147483647",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "99999999999999999999999999999",
    "1e309",
    "-0",
    "0.5",
    "1e3",
    "NaN",
];

/// Words of the formats: directives, rule keywords and f-puzzles keys.
fn dictionary() -> Vec<String> {
    let mut words: Vec<String> = [
        "size",
        "box",
        "box none",
        "regions",
        "chaos",
        "values 1-",
        "outside ",
        " v1",
        "givens",
        "---\n",
        "row(",
        "vertical(",
        "solutions(",
        "p cnf ",
        "c p show ",
        "c ind ",
        " 0\n",
        "s SATISFIABLE",
        "v ",
        "N4Ig",
        "fpuz",
        "https://www.f-puzzles.com/?load=",
        "https://sudokupad.app/fpuz",
        "\"size\":",
        "\"grid\":",
        "\"cells\":",
        "\"value\":",
        "\"region\":",
        "null",
        "true",
        "false",
        "[]",
        "{}",
        "\"R1C1\"",
        "\"R9C9\"",
        "\"R0C1\"",
        "r1c1",
        "r9c9",
        "r0c0",
        "r65c1",
        "satsudoku-cube 2",
        "satsudoku-manifest 2",
        "digest ",
        "literals ",
        "factor ",
        "cubes ",
        "count ",
        "options ",
        "encoding ",
        "format ",
        "puzzle ",
        "# ",
        "\n\n",
        "either\n",
        "or\n",
        "end\n",
        ".Or",
        ".And",
        ".End",
        ".Replicate~BQ",
        ".SameValues~2~",
        ".RegionSize~",
        ".Shape~6x6~9",
    ]
    .iter()
    .map(|w| w.to_string())
    .collect();
    for rule in RULES {
        words.push(format!("{} {}\n", rule.keyword, rule.example));
        if let Some(key) = rule.fpuzzles {
            words.push(format!("\"{key}\":"));
        }
    }
    words
}

/// A native-format puzzle: a size, maybe boxes and givens, and rules from
/// the table with their example's cells and numbers redrawn.
fn generate_native(rng: &mut Rng) -> String {
    let n = *rng.pick(&[1, 2, 3, 4, 4, 4, 5, 6, 6, 6, 8, 9]);
    // Now and then a rectangle, more values, cells outside the grid.
    let (rows, cols) = if rng.chance(5) { (n, 1 + rng.below(n + 1)) } else { (n, n) };
    let mut text = match rows == cols {
        true => format!("size {n}\n"),
        false => format!("size {rows}x{cols}\n"),
    };
    if rng.chance(4) {
        text += &format!("box {}x{}\n", 1 + rng.below(3), 1 + rng.below(3));
    } else if rows != cols && rng.chance(2) {
        text += "box none\n";
    }
    let values = if rng.chance(6) { n + rng.below(3) } else { n };
    if values != n {
        text += &format!("values {}-{values}\n", rng.below(2));
    }
    let outside = if rng.chance(6) { rng.below(4) } else { 0 };
    if outside > 0 {
        text += &format!("outside {outside}\n");
    }
    if rng.chance(2) {
        text += "givens\n";
        for _ in 0..rows {
            let row: String = (0..cols)
                .map(|_| if rng.chance(5) { char::from_digit(1 + rng.below(values) as u32, 36).unwrap() } else { '.' })
                .collect();
            text += &row;
            text.push('\n');
        }
    }
    for _ in 0..1 + rng.below(4) {
        let rule = rng.pick(RULES);
        let words: Vec<String> = rule
            .example
            .split_whitespace()
            .map(|w| {
                if w.starts_with('r') && w.contains('c') && w[1..].starts_with(|c: char| c.is_ascii_digit()) {
                    if outside > 0 && rng.chance(4) {
                        return format!("v{}", rng.below(outside + 2));
                    }
                    format!("r{}c{}", rng.below(rows + 2), rng.below(cols + 2))
                } else if w.parse::<i64>().is_ok() {
                    rng.below(2 * n + 3).to_string()
                } else {
                    w.to_owned()
                }
            })
            .collect();
        // Now and then inside alternatives: `either`, `or`, `end` lines.
        if rng.chance(6) {
            text += ["either\n", "or\n", "end\n", "replicate r1c1 : r2c2 r1c3\n"][rng.below(4)];
        }
        text += &format!("{} {}\n", rule.keyword, words.join(" "));
    }
    text
}

/// A grid of digits and blanks, as `givens`, `grid` or Takuzu write it.
fn generate_grid(rng: &mut Rng) -> String {
    let n = *rng.pick(&[2, 4, 4, 6, 6, 8, 9, 10, 12, 16]);
    let takuzu = rng.chance(3);
    let cell = |rng: &mut Rng| -> char {
        if rng.chance(3) {
            if takuzu {
                *rng.pick(&['0', '1'])
            } else {
                char::from_digit(1 + rng.below(n) as u32, 36).unwrap().to_ascii_uppercase()
            }
        } else {
            *rng.pick(&['.', '.', '0', '_'])
        }
    };
    let mut rows: Vec<String> = (0..n).map(|_| (0..n).map(|_| cell(rng)).collect()).collect();
    if !takuzu && rng.chance(2) {
        return rows.concat() + "\n";
    }
    if rng.chance(4) {
        rows = rows.iter().map(|r| r.chars().map(|c| format!("{c} ")).collect::<String>()).collect();
    }
    rows.join("\n") + "\n"
}

/// One edit of an f-puzzles JSON value: a node replaced, removed, doubled
/// or given a key from the rule table.
fn mutate_json(rng: &mut Rng, value: &mut Value, dict: &[String], depth: usize) {
    let scalar = |rng: &mut Rng| -> Value {
        match rng.below(6) {
            0 => Value::Null,
            1 => Value::Bool(rng.chance(2)),
            2 => serde_json::from_str::<Value>(rng.pick::<&str>(NUMBERS)).unwrap_or(Value::from(rng.below(100))),
            3 => Value::from(format!("R{}C{}", rng.below(11), rng.below(11))),
            4 => Value::from(Vec::<Value>::new()),
            _ => Value::from(rng.pick(NUMBERS).to_string()),
        }
    };
    match value {
        Value::Object(map) if !map.is_empty() && (depth < 6 && !rng.chance(4)) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = rng.pick(&keys).clone();
            match rng.below(8) {
                0 => {
                    map.remove(&key);
                }
                1 => {
                    let word = rng.pick(dict).trim_matches(['"', ':']).to_owned();
                    let copy = map[&key].clone();
                    map.insert(word, copy);
                }
                _ => mutate_json(rng, map.get_mut(&key).unwrap(), dict, depth + 1),
            }
        }
        Value::Array(items) if !items.is_empty() && (depth < 6 && !rng.chance(4)) => {
            let i = rng.below(items.len());
            match rng.below(8) {
                0 => {
                    items.remove(i);
                }
                1 => {
                    let copy = items[i].clone();
                    items.insert(rng.below(items.len() + 1), copy);
                }
                _ => mutate_json(rng, &mut items[i], dict, depth + 1),
            }
        }
        _ => *value = scalar(rng),
    }
}

/// Edits of the text, character by character and word by word.
fn mutate(rng: &mut Rng, text: &str, others: &[String], dict: &[String]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let edits = if rng.chance(2) { 1 } else { 2 + rng.below(3) };
    for _ in 0..edits {
        let at = rng.below(chars.len() + 1);
        match rng.below(10) {
            0 if at < chars.len() => chars[at] = *rng.pick(ALPHABET),
            1 => chars.splice(at..at, rng.pick(dict).chars()).for_each(drop),
            2 => {
                let end = (at + 1 + rng.below(16)).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            3 => {
                let end = (at + 1 + rng.below(64)).min(chars.len());
                let span: Vec<char> = chars[at.min(end)..end].to_vec();
                let to = rng.below(chars.len() + 1);
                let times = if rng.chance(20) { 2000 } else { 3 };
                for _ in 0..1 + rng.below(times) {
                    chars.splice(to..to, span.iter().copied()).for_each(drop);
                    if chars.len() > MAX_INPUT {
                        break;
                    }
                }
            }
            4 => {
                // A number replaced by one at the edges.
                if let Some(start) = (at..chars.len()).find(|&i| chars[i].is_ascii_digit()) {
                    let end = (start..chars.len()).find(|&i| !chars[i].is_ascii_digit()).unwrap_or(chars.len());
                    chars.splice(start..end, rng.pick(NUMBERS).chars()).for_each(drop);
                }
            }
            5 => {
                let mut lines: Vec<String> = chars.iter().collect::<String>().lines().map(str::to_owned).collect();
                if lines.len() > 1 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    lines.swap(a, b);
                    chars = (lines.join("\n") + "\n").chars().collect();
                }
            }
            6 if !others.is_empty() => {
                let other: Vec<char> = rng.pick(others).chars().collect();
                let from = rng.below(other.len() + 1);
                chars.truncate(at);
                chars.extend_from_slice(&other[from..]);
            }
            7 => chars.truncate(at),
            8 => chars.insert(at.min(chars.len()), char::from_u32(rng.next() as u32 % 0x11_0000).unwrap_or('\u{fffd}')),
            _ => chars.insert(at.min(chars.len()), *rng.pick(ALPHABET)),
        }
    }
    chars.truncate(MAX_INPUT);
    chars.into_iter().collect()
}

/// Input number `index`: its reader and its text.
fn input(rng: &mut Rng, s: &Samples, dict: &[String]) -> (Reader, String) {
    const FORMATS: [Format; 8] = [
        Format::Lp,
        Format::Kattis,
        Format::Givens,
        Format::Grid,
        Format::Puzzle,
        Format::Fpuzzles,
        Format::Takuzu,
        Format::Iss,
    ];
    match rng.below(21) {
        20 => {
            let (formulation, sample) = s.answers[rng.below(s.answers.len())].clone();
            let pool: Vec<String> = s.answers.iter().map(|(_, text)| text.clone()).collect();
            // Now and then read as another formulation's answer.
            let formulation = if rng.chance(4) { s.answers[rng.below(s.answers.len())].0 } else { formulation };
            (Reader::Answer(formulation), mutate(rng, &sample, &pool, dict))
        }
        file @ 0..=4 => {
            let (reader, pool) = [
                (Reader::Dimacs, &s.dimacs),
                (Reader::Model, &s.models),
                (Reader::Cube, &s.cubes),
                (Reader::Manifest, &s.manifests),
                (Reader::Record, &s.records),
            ][file];
            let sample = rng_pick(rng, pool);
            (reader, mutate(rng, sample, pool, dict))
        }
        5..=7 => {
            let mut value: Value = serde_json::from_str(rng_pick(rng, &s.json)).unwrap();
            for _ in 0..1 + rng.below(3) {
                mutate_json(rng, &mut value, dict, 0);
            }
            let text = value.to_string();
            let text = if rng.chance(4) { mutate(rng, &text, &s.json, dict) } else { text };
            (if rng.chance(2) { Reader::Detect } else { Reader::Named(Format::Fpuzzles) }, text)
        }
        8..=10 => {
            let text = generate_native(rng);
            // Now and then a file of two puzzles, read one by one.
            if rng.chance(4) {
                let text = format!("{text}---\n{}", generate_native(rng));
                let text = if rng.chance(3) { mutate(rng, &text, &s.puzzles, dict) } else { text };
                return (Reader::Parts(Format::Puzzle), text);
            }
            let text = if rng.chance(3) { mutate(rng, &text, &s.puzzles, dict) } else { text };
            (if rng.chance(2) { Reader::Detect } else { Reader::Named(Format::Puzzle) }, text)
        }
        11 | 12 => {
            let text = generate_grid(rng);
            // Now and then a file of two grids, read as Takuzu one by one.
            if rng.chance(6) {
                let text = format!("{text}---\n{}", generate_grid(rng));
                let text = if rng.chance(3) { mutate(rng, &text, &s.puzzles, dict) } else { text };
                return (Reader::Parts(Format::Takuzu), text);
            }
            let text = if rng.chance(3) { mutate(rng, &text, &s.puzzles, dict) } else { text };
            let reader = match rng.below(5) {
                0 => Reader::Named(*rng.pick(&FORMATS)),
                1 => Reader::TakuzuAnyLines,
                2 => Reader::Boxes(1 + rng.below(4), 1 + rng.below(4)),
                _ => Reader::Detect,
            };
            (reader, text)
        }
        13..=15 => {
            // A sample of one format, read as that format.
            let (format, sample) = s.formatted[rng.below(s.formatted.len())].clone();
            (Reader::Named(format), mutate(rng, &sample, &s.puzzles, dict))
        }
        _ => {
            let sample = rng_pick(rng, &s.puzzles);
            let text = mutate(rng, sample, &s.puzzles, dict);
            let reader = if rng.chance(3) { Reader::Named(*rng.pick(&FORMATS)) } else { Reader::Detect };
            (reader, text)
        }
    }
}

fn rng_pick<'a>(rng: &mut Rng, items: &'a [String]) -> &'a str {
    rng.pick(items).as_str()
}

// ---- the differential count ----

/// A count and whether it is exact, or why there is none.
type Counted = Result<(u128, bool), String>;

/// The three counts of a small puzzle agree where they are exact, and no
/// lower bound passes an exact count. An error (a rule that cannot hold on
/// this grid, say) must be the same error on every path.
fn counts_agree(puzzle: &Puzzle) -> Result<(), String> {
    let limits = || Limits {
        max: Some(MAX_MODELS),
        timeout: Some(Duration::from_secs_f64(COUNT_SECONDS * slow())),
        interrupt: None,
    };
    let direct = Encoding::default();
    let log: Encoding = "log".parse().unwrap();
    let mut results: Vec<(&str, Counted)> = Vec::new();
    for (name, encoding, engine) in
        [("enum/direct", direct, EngineKind::Enum), ("blocking/log", log, EngineKind::Blocking)]
    {
        let encoded = encode(puzzle, &encoding);
        let result = count_models(puzzle, &encoded, engine, limits(), &mut ())
            .map(|c| (c.models, c.stop == Stop::Complete))
            .map_err(|e| e.to_string());
        results.push((name, result));
    }
    let mut plan = Plan::new(direct);
    plan.limits = limits();
    plan.jobs = Some(1);
    let tally = plan::count(puzzle, &plan, &mut ()).map_err(|e| e.to_string()).and_then(|t| {
        let exact = t.is_exact();
        u128::try_from(&t.count).map(|c| (c, exact)).map_err(|_| format!("a count past u128: {}", t.count))
    });
    results.push(("plan", tally));
    let exact: Vec<(&str, u128)> =
        results.iter().filter_map(|(n, r)| r.as_ref().ok().filter(|(_, e)| *e).map(|&(c, _)| (*n, c))).collect();
    if let Some(&(first, count)) = exact.first() {
        for (name, result) in &results {
            match result {
                Ok((c, true)) if *c != count => return Err(format!("{first} counts {count}, {name} {c}")),
                Ok((c, false)) if *c > count => {
                    return Err(format!("{first} counts {count}, {name} a lower bound of {c}"))
                }
                Err(e) => return Err(format!("{first} counts {count}, {name} fails: {e}")),
                _ => {}
            }
        }
    }
    Ok(())
}

// ---- the run ----

#[derive(Default)]
struct Report {
    inputs: usize,
    by_reader: std::collections::BTreeMap<String, (usize, usize)>,
    counted: usize,
    slowest: (Duration, usize),
    most_bytes: (usize, usize),
    failures: Vec<String>,
}

fn save(seed: u64, index: usize, text: &str, problem: &str) -> String {
    let dir = root().join("target/fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("seed{seed}-input{index}.txt"));
    let _ = std::fs::write(&path, text);
    format!("input {index} (seed {seed}, saved as {}): {problem}", path.display())
}

#[test]
fn every_reader_survives_generated_and_mutated_inputs() {
    let seed: u64 = env("SATSUDOKU_FUZZ_SEED", 1);
    let from: usize = env("SATSUDOKU_FUZZ_FROM", 0);
    let inputs: usize = env("SATSUDOKU_FUZZ_INPUTS", usize::MAX);
    let seconds: f64 = env("SATSUDOKU_FUZZ_SECONDS", default_seconds());
    let cli_inputs: usize = env("SATSUDOKU_FUZZ_CLI", CLI_INPUTS);
    let s = samples();
    let dict = dictionary();
    std::panic::set_hook(Box::new(|_| {}));
    let start = Instant::now();
    let mut report = Report::default();
    let mut cli = Vec::new();
    for index in from..from.saturating_add(inputs) {
        if start.elapsed().as_secs_f64() > seconds || report.failures.len() >= 10 {
            break;
        }
        let mut rng = Rng::new(seed, index as u64);
        let (reader, text) = input(&mut rng, &s, &dict);
        if cli.len() < cli_inputs && rng.chance(20) {
            cli.push((index, text.clone()));
        }
        report.inputs += 1;
        if std::env::var_os("SATSUDOKU_FUZZ_SAVE").is_some() {
            save(seed, index, &text, "saved on request");
        }
        let (result, elapsed, bytes) = measured(|| catch_unwind(AssertUnwindSafe(|| read(reader, &text))));
        let label = format!("{reader:?}");
        let label = if label.starts_with("Boxes") { "Boxes".to_owned() } else { label };
        let tally = report.by_reader.entry(label).or_default();
        tally.0 += 1;
        if elapsed > report.slowest.0 {
            report.slowest = (elapsed, index);
        }
        if bytes > report.most_bytes.0 {
            report.most_bytes = (bytes, index);
        }
        let mut problem = None;
        if elapsed.as_secs_f64() > READ_SECONDS * slow() {
            problem = Some(format!("{reader:?} took {elapsed:?}"));
        }
        if bytes > read_bound(text.len()) {
            problem = Some(format!("{reader:?} allocated {bytes} bytes for {} bytes of input", text.len()));
        }
        match result {
            Err(_) => problem = Some(format!("{reader:?} panicked")),
            Ok(Err(error)) if !located(&error, reader) => {
                problem = Some(format!("{reader:?}: an error without its place: {error}"))
            }
            Ok(Ok(Some(puzzle))) => {
                tally.1 += 1;
                if puzzle.side() * puzzle.side() <= 36 {
                    report.counted += 1;
                    match catch_unwind(AssertUnwindSafe(|| counts_agree(&puzzle))) {
                        Err(_) => problem = Some("counting panicked".into()),
                        Ok(Err(disagreement)) => problem = Some(disagreement),
                        Ok(Ok(())) => {}
                    }
                }
            }
            Ok(Ok(None)) => tally.1 += 1,
            Ok(Err(_)) => {}
        }
        if let Some(problem) = problem {
            report.failures.push(save(seed, index, &text, &problem));
        }
    }
    let _ = std::panic::take_hook();
    let cli_failures = through_the_binary(seed, &cli);
    report.failures.extend(cli_failures);
    eprintln!(
        "fuzz: seed {seed}, {} inputs in {:.1} s ({} read, {} small puzzles counted three ways), \
         {} through the binary; slowest read {:?} (input {}), most bytes {} (input {})",
        report.inputs,
        start.elapsed().as_secs_f64(),
        report.by_reader.values().map(|t| t.1).sum::<usize>(),
        report.counted,
        cli.len(),
        report.slowest.0,
        report.slowest.1,
        report.most_bytes.0,
        report.most_bytes.1,
    );
    for (reader, (tried, read)) in &report.by_reader {
        eprintln!("fuzz:   {reader}: {tried} inputs, {read} read");
    }
    assert!(report.inputs > 0);
    assert!(report.failures.is_empty(), "{}", report.failures.join("\n"));
}

/// Runs each input through `satsudoku count` with a time and memory limit.
fn through_the_binary(seed: u64, inputs: &[(usize, String)]) -> Vec<String> {
    let mut failures = Vec::new();
    for (index, text) in inputs {
        let mut child = Command::new(env!("CARGO_BIN_EXE_satsudoku"))
            .args(["count", "--timeout", "2", "--memory", "1G", "--jobs", "1", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let bytes = text.clone().into_bytes();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
        let out = child.wait_with_output().unwrap();
        let _ = writer.join();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let problem = match out.status.code() {
            None => Some(format!("the binary was killed by a signal: {:?}", out.status)),
            Some(code) if code > 3 => Some(format!("the binary exited {code}: {stderr}")),
            Some(2) if !stderr.contains("error:") => Some(format!("exit 2 without an error: {stderr}")),
            _ if stderr.contains("panicked") => Some(format!("the binary panicked: {stderr}")),
            _ => None,
        };
        if let Some(problem) = problem {
            failures.push(save(seed, *index, text, &problem));
        }
    }
    failures
}
