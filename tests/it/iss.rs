//! sigh's Interactive Sudoku Solver (ISS) constraint strings: its own
//! example puzzles and the puzzles of its collections that carry a
//! solution (`tests/corpus/iss/examples.json`, from ISS's `data/` by
//! `bench/gen_iss_examples.mjs`; MIT licence, see the README beside them),
//! with ISS's own verdict on each (`iss_verdict`: run headless, `--limit
//! 2`). The oracles are ISS's verdicts and the published solutions.

use std::time::Duration;

use crate::common::{count_fillings, count_with_outside};

use satsudoku::count::plan::{Counter, Plan, Verdict};
use satsudoku::encode::Encoding;
use satsudoku::model::{symbol, Grid, Group, GroupKind, Puzzle};
use satsudoku::parse::iss::{self, Reading};
use satsudoku::parse::{parse, Format};
use serde_json::Value;

fn corpus() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/iss/examples.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn digits(grid: &Grid) -> String {
    grid.rows().flatten().map(|&d| symbol(d)).collect()
}

/// The grid's values as ISS writes them: its digits, less one on a grid
/// whose values run from 0.
fn values(grid: &Grid, puzzle: &Puzzle) -> String {
    // A rectangle's cells only: the top-left ones of its square model.
    let ((rows, cols), first_value) = (puzzle.shape(), puzzle.first_value());
    let shown = grid.rows().take(rows).flat_map(|row| &row[..cols]);
    shown.map(|&d| symbol(d + first_value - 1)).collect()
}

/// ISS writes a solution of more than 9 values with letters, `A` for 1.
fn iss_solution(text: &str, side: usize) -> String {
    if side <= 9 {
        return text.to_owned();
    }
    text.chars().map(|c| symbol(c as u8 - b'A' + 1)).collect()
}

/// Puzzles that take satsudoku more than a few seconds (hard killers,
/// little killers, renban: bench/iss.py times them against ISS); the debug
/// build skips them, and they are not counted as read.
const SLOW: &[&str] = &[
    "Killing with flowers",
    "Wecoc #1",
    "Wecoc #1 [mod A]",
    "Wecoc #2",
    "tarek unsolvable #41",
    "Pencilmark sudoku 3",
    "Sandwich snipe 18",
    "Hard renban 2",
    "Hailstone - little killer",
    "Calm Construction",
    "Let there be chaos",
    "Cavernous Construction",
    "Chaos Construction: x-sums",
    "Chaos Construction: Sack Lunch",
    "Chaos Construction: killer",
    "The Fountain",
];

/// Examples where ISS's verdict is wrong by its own rules, each shown by a
/// test of its own: ISS finds one solution, there are more
/// (`iss_prunes_long_sandwiches_on_values_from_zero`).
const ISS_WRONG: &[&str] = &["0-indexed: Sums and indexing"];

/// The right verdict on an example: ISS's, but where [`ISS_WRONG`] says.
fn verdict(entry: &Value) -> &str {
    match entry["name"].as_str() {
        Some(name) if ISS_WRONG.contains(&name) => "multiple",
        _ => entry["iss_verdict"].as_str().unwrap(),
    }
}

/// Every example satsudoku reads gets ISS's verdict, with the published
/// solution when unique; every one it does not read is refused by a
/// message that names an ISS type docs/rules.md lists as refused, or a
/// shape or value range outside the model.
#[test]
fn every_iss_example_read_gets_iss_verdict_and_solution() {
    let mut plan = Plan::new(Encoding::default());
    plan.limits.timeout = Some(Duration::from_secs(20));
    let mut counter = Counter::new(plan);
    let (mut read, mut refused, mut wrong) = (0, 0, Vec::new());
    for (i, entry) in corpus().iter().enumerate() {
        let name = entry["name"].as_str().unwrap_or("");
        let input = entry["input"].as_str().unwrap();
        if SLOW.contains(&name) {
            continue;
        }
        let puzzle = match parse(input, name, Some(Format::Iss)) {
            Ok(puzzle) => puzzle,
            Err(e) => {
                let named = iss::TYPES.iter().any(|(t, r)| {
                    matches!(r, Reading::Refused(_)) && e.message.contains(&format!("ISS constraint {t} is not read"))
                });
                let limit = ["rectangular grids", "value range", "not read yet", "lists cell", "only Sudoku grids"]
                    .iter()
                    .any(|s| e.message.contains(s));
                assert!(named || limit, "#{i} {name}: refused without a reason named: {e}");
                refused += 1;
                continue;
            }
        };
        read += 1;
        if let Err(e) = judged(&mut counter, &puzzle, entry) {
            wrong.push(format!("#{i} {name}: {e}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // What is read today; a drop means a reading was lost.
    assert!(read >= 234, "read {read}, refused {refused}");
}

/// Whether satsudoku's verdict on a read example is [`verdict`]'s, with
/// the published solution when unique, or what it found instead.
fn judged(counter: &mut Counter, puzzle: &Puzzle, entry: &Value) -> Result<(), String> {
    let expected = verdict(entry);
    // A rectangle's or chaos construction's grid is not its model's.
    let (rows, cols) = puzzle.shape();
    let solution = iss_solution(entry["solution"].as_str().unwrap(), rows.max(cols));
    match (counter.judge(puzzle), expected) {
        (Ok(Verdict::Unique(grid)), "unique") if values(&grid, puzzle) == solution => Ok(()),
        (Ok(Verdict::Multiple(..)), "multiple") => Ok(()),
        (got, _) => Err(format!("ISS {expected}, satsudoku {got:?}")),
    }
}

/// The chaos constructions of [`SLOW`], decided in seconds (about 6 s in
/// all, too long for every `cargo test`; `.ci/run` runs it): ISS's verdict
/// and the published solution, as for every other example.
#[test]
#[ignore]
fn slow_chaos_examples_get_iss_verdict_and_solution() {
    let mut plan = Plan::new(Encoding::default());
    plan.limits.timeout = Some(Duration::from_secs(60));
    let mut counter = Counter::new(plan);
    // "Let there be chaos" joined on 2026-12-03 (57 s before the values
    // its counting circles use were summed, about 3 s after).
    let names = [
        "Cavernous Construction",
        "Chaos Construction: Sack Lunch",
        "Chaos Construction: killer",
        "Let there be chaos",
    ];
    for name in names {
        let entry = corpus().into_iter().find(|e| e["name"] == name).unwrap_or_else(|| panic!("{name}"));
        assert!(SLOW.contains(&name), "{name} is tested with the others");
        let puzzle = parse(entry["input"].as_str().unwrap(), name, Some(Format::Iss)).unwrap();
        judged(&mut counter, &puzzle, &entry).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// The puzzles of ISS's collections that carry no solution
/// (`tests/corpus/iss/unsolved.json`, by `bench/gen_iss_examples.mjs
/// --unsolved`, with ISS's verdicts): each gets ISS's verdict. Among them
/// "Zero solution: Renban" (ISS 75 s, 16.6 million guesses) and "Zero
/// solution: Little Killer" (past 300 s here until its diagonals were
/// added together). About 7 s in all ("Wecoc #1 [mod B]" 2.7 s), too long
/// for every `cargo test`: `.ci/run` runs it.
#[test]
#[ignore]
fn the_collections_puzzles_without_a_solution_get_iss_verdict() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/iss/unsolved.json");
    let corpus: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut plan = Plan::new(Encoding::default());
    plan.limits.timeout = Some(Duration::from_secs(60));
    let mut counter = Counter::new(plan);
    let mut wrong = Vec::new();
    for entry in &corpus {
        let name = entry["name"].as_str().unwrap();
        let puzzle = parse(entry["input"].as_str().unwrap(), name, Some(Format::Iss)).unwrap();
        let got = match counter.judge(&puzzle) {
            Ok(Verdict::None) => "none",
            Ok(Verdict::Unique(_)) => "unique",
            Ok(Verdict::Multiple(..)) => "multiple",
            other => panic!("{name}: {other:?}"),
        };
        if got != entry["iss_verdict"].as_str().unwrap() {
            wrong.push(format!("{name}: ISS {}, satsudoku {got}", entry["iss_verdict"]));
        }
    }
    assert_eq!(corpus.len(), 15);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The types this reader reads, refuses or ignores are exactly ISS's.
#[test]
fn every_iss_type_has_a_reading_and_the_docs_list_them() {
    let source = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/peers/iss/src/js/sudoku_constraint.js"
    ));
    if let Ok(source) = source {
        let mut names: Vec<&str> = source
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("static ")?.split_once(" = class ").map(|(n, _)| n))
            .collect();
        names.sort_unstable();
        let mut ours: Vec<&str> = iss::TYPES.iter().map(|(n, _)| *n).collect();
        ours.sort_unstable();
        assert_eq!(names, ours, "ISS's types and the reader's table differ");
    }
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md")).unwrap();
    assert!(docs.contains(&iss::markdown()), "docs/rules.md's ISS table is stale: paste iss::markdown()");
}

#[test]
#[ignore]
fn print_iss_table() {
    print!("{}", iss::markdown());
}

/// `export --as iss` writes every sample and every published puzzle of
/// the corpus as an ISS string that reads back as the same puzzle: the
/// family samples keep their recorded counts (COUNTS.tsv, checked by the
/// oracles in family.rs), the 85 published variants their solutions, and
/// ISS's examples ISS's verdicts.
#[test]
fn export_as_iss_round_trips() {
    use satsudoku::formulate::iss::string;
    let mut counter = Counter::new(Plan::new(Encoding::default()));
    let mut wrong = Vec::new();
    let mut written = 0;
    let back =
        |text: &str, name: &str| parse(text, name, Some(Format::Iss)).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    let index = std::fs::read_to_string("cnf-samples/family/COUNTS.tsv").unwrap();
    for line in index.lines().filter(|l| !l.starts_with('#')) {
        let (file, expected) = line.split_once('\t').unwrap();
        let path = format!("cnf-samples/family/{file}");
        let puzzle = parse(&std::fs::read_to_string(&path).unwrap(), &path, None).unwrap();
        let Ok(text) = string(&puzzle) else { continue };
        written += 1;
        let tally = counter.count(&back(&text, &path), &mut ()).unwrap();
        if tally.count.to_string() != expected {
            wrong.push(format!("{file}: {} after the round trip, {expected} recorded", tally.count));
        }
    }
    assert!(written >= 12, "{written} family samples written");
    let variants: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/variants/puzzles.json")).unwrap(),
    )
    .unwrap();
    let mut refused = Vec::new();
    for entry in &variants {
        let title = entry["title"].as_str().unwrap();
        let puzzle = parse(entry["puzzle"].as_str().unwrap(), title, Some(Format::Fpuzzles)).unwrap();
        let text = match string(&puzzle) {
            Ok(text) => text,
            Err(e) => {
                refused.push(format!("{title}: {e}"));
                continue;
            }
        };
        written += 1;
        let published = entry["solution"].as_str().unwrap();
        match counter.judge(&back(&text, title)) {
            Ok(Verdict::Unique(grid)) if digits(&grid) == published || title == "Executive Function" => {}
            other => wrong.push(format!("{title}: {other:?} after the round trip")),
        }
    }
    assert!(refused.len() <= 5, "refused:\n{}", refused.join("\n"));
    for (i, entry) in corpus().iter().enumerate().step_by(3) {
        let name = entry["name"].as_str().unwrap_or("");
        if SLOW.contains(&name) {
            continue;
        }
        let Ok(puzzle) = parse(entry["input"].as_str().unwrap(), name, Some(Format::Iss)) else { continue };
        let Ok(text) = string(&puzzle) else { continue };
        written += 1;
        let expected = verdict(entry);
        match (counter.judge(&back(&text, name)), expected) {
            (Ok(Verdict::Unique(_)), "unique") | (Ok(Verdict::Multiple(..)), "multiple") => {}
            (got, _) => wrong.push(format!("#{i} {name}: {got:?} after the round trip, ISS {expected}")),
        }
    }
    // Every grid of values from 0 that is read is written with its range,
    // and reads back with ISS's solution.
    let mut from_zero = 0;
    for entry in corpus() {
        let name = entry["name"].as_str().unwrap_or("");
        let Ok(puzzle) = parse(entry["input"].as_str().unwrap(), name, Some(Format::Iss)) else { continue };
        if puzzle.first_value() != 0 || SLOW.contains(&name) {
            continue;
        }
        let text = string(&puzzle).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = back(&text, name);
        match counter.judge(&again) {
            Ok(Verdict::Unique(grid)) if values(&grid, &again) == entry["solution"].as_str().unwrap() => from_zero += 1,
            Ok(Verdict::Multiple(..)) if verdict(&entry) == "multiple" => from_zero += 1,
            other => wrong.push(format!("{name}: {other:?} after the round trip of values from 0\n{text}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(written >= 100, "{written} written");
    assert!(from_zero >= 15, "{from_zero} grids of values from 0 written");
}

/// From the command line: an ISS link is detected and counted; a type
/// satsudoku does not read is refused by name at its place, exit 2, and
/// nothing that looks like an answer reaches stdout.
#[test]
fn iss_strings_from_the_command_line() {
    use crate::common::satsudoku;
    let link = "https://sigh.github.io/Interactive-Sudoku-Solver/?q=.Shape%7E4x4.%7ER1C1_1%7ER2C3_1";
    let mut givens = vec![0; 16];
    (givens[0], givens[6]) = (1, 1);
    let oracle = crate::common::count_grids(4, (2, 2), &givens, &|_| true);
    satsudoku().arg("count").write_stdin(link).assert().success().stdout(format!("solutions({oracle}).\n"));
    // A link's q= is read as ISS reads a text: blank-line sections (a grid
    // shorthand, then a constraint string), `#` lines dropped; the same
    // as the text itself. An empty q= is refused.
    let q = "1...............%0A%23%20a%20comment%0A%0A.Shape~4x4.~R2C3_1";
    let link = format!("https://sigh.github.io/Interactive-Sudoku-Solver/?q={q}");
    satsudoku().arg("count").write_stdin(link).assert().success().stdout(format!("solutions({oracle}).\n"));
    let text = "1...............\n# a comment\n\n.Shape~4x4.~R2C3_1\n";
    satsudoku()
        .args(["count", "--format", "iss"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(format!("solutions({oracle}).\n"));
    let empty = "https://sigh.github.io/Interactive-Sudoku-Solver/?q=";
    satsudoku()
        .arg("count")
        .write_stdin(empty)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("an empty q= parameter"));
    let out = satsudoku().arg("count").write_stdin(".Shape~4x4\n.Container\n").assert().code(2);
    let output = out.get_output();
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("<stdin>:2:2: ISS constraint Container is not read"), "{stderr}");
}

/// A short pattern whose automaton is exponential on a long line (".*1"
/// then twelve ".", on a 16-cell row: 111 MB to encode) is refused at the
/// pattern's position, as a state machine that large is, rather than
/// built; the same pattern on a shorter line is read.
#[test]
fn a_regular_expression_too_large_to_unroll_is_refused() {
    use crate::common::satsudoku;
    let token = "LioxLi4uLi4uLi4uLi4u"; // base64url of .*1............
    let ids = "123456789abcdefg";
    let row = |k: usize| ids.chars().take(k).map(|c| format!("R1C{c}")).collect::<Vec<_>>().join("~");
    let long = format!(".Shape~16x16.Regex~{token}~{}.", row(16));
    let out = satsudoku().args(["count", "--format", "iss"]).write_stdin(long).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("<stdin>:1:20: a regular expression whose unrolled automaton passes 200,000 edges"),
        "{stderr}"
    );
    // On 13 cells (131,000 edges) it is read: the first cell holds the 1,
    // and the grids are many.
    let short = format!(".Shape~16x16.Regex~{token}~{}.", row(13));
    let out = satsudoku().args(["unique", "--format", "iss"]).write_stdin(short).assert().code(1);
    assert!(String::from_utf8_lossy(&out.get_output().stdout).starts_with("multiple\t1"));
}

/// A sum loop's automata (one an offset below its number) are sized before
/// they are built: a 256-cell loop summing to 60 is refused with the rule's
/// position, a short one is read.
#[test]
fn a_sum_loop_too_large_to_unroll_is_refused() {
    use crate::common::satsudoku;
    let cells: Vec<String> = (1..=16).flat_map(|r| (1..=16).map(move |c| format!("r{r}c{c}"))).collect();
    let long = format!("size 16\nsum-loop {} = 60\n", cells.join(" "));
    let out = satsudoku().arg("count").write_stdin(long).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("<stdin>:2:1516: sum-loop: a sum loop of 256 cells summing to 60"), "{stderr}");
    // Two cells of a 4x4 summing to 5 either way round: 2 and 3, 1 and 4
    // or the reverse, in cells of one row.
    let short = "size 4\nbox 2x2\nsum-loop r1c1 r1c2 = 5\n";
    let oracle = crate::common::count_grids(4, (2, 2), &[0; 16], &|g: &[u32]| g[0] + g[1] == 5);
    satsudoku().arg("count").write_stdin(short).assert().success().stdout(format!("solutions({oracle}).\n"));
}

/// Whether `values` split into consecutive runs each summing to `sum`
/// (every prefix sum that is a multiple of it can end a run).
fn splits(values: &[i64], sum: i64) -> bool {
    let mut open = 0;
    for &v in values {
        open += v;
        if open == sum {
            open = 0;
        } else if open > sum {
            return false;
        }
    }
    open == 0
}

/// The sum of the values strictly between the smallest and the largest.
fn between(values: &[i64]) -> i64 {
    let at = |v: i64| values.iter().position(|&x| x == v).unwrap();
    let (low, high) = (at(*values.iter().min().unwrap()), at(*values.iter().max().unwrap()));
    values[low.min(high) + 1..low.max(high)].iter().sum()
}

/// The first value lower than one before it, if any.
fn first_hidden(values: &[i64]) -> Option<i64> {
    let mut tallest = i64::MIN;
    for &v in values {
        if v < tallest {
            return Some(v);
        }
        tallest = tallest.max(v);
    }
    None
}

/// A `SameValues` with a number of sets and no cells is an error at its
/// number, not a panic (found by the fuzzer: the sets' size was 0).
#[test]
fn same_values_without_cells_is_refused() {
    let err = parse(".SameValues~21", "t", Some(Format::Iss)).unwrap_err();
    assert_eq!((err.line, err.col), (1, 13), "{err}");
    assert!(err.to_string().contains("0 cells do not split into 21 sets"), "{err}");
}

/// ISS's `Raw` grids (`Shape~3x3~~Raw`): no rows, columns or boxes, the
/// values free to repeat; each rule ISS reads there counts as the test's
/// own enumeration of all 3^9 grids of values (1-3, or 0-2 from 0) says.
/// A reader that kept the rows, or dropped a rule, fails here; the types
/// only a Sudoku grid has are refused, as ISS refuses them.
#[test]
fn raw_grids_count_as_the_oracle() {
    type Rule = fn(&[i64]) -> bool;
    let cases: &[(&str, Rule)] = &[
        ("", |_| true),
        (".~R1C1_2~R3C3_2", |v| v[0] == 2 && v[8] == 2),
        (".ContainExact~1_1_2~R1C1~R1C2~R1C3", |v| {
            let mut row = v[..3].to_vec();
            row.sort_unstable();
            row == [1, 1, 2]
        }),
        (".ContainAtLeast~1_1~R1C1~R2C2~R3C3", |v| [v[0], v[4], v[8]].iter().filter(|&&x| x == 1).count() >= 2),
        (".Sum~4~R1C1~R1C2", |v| v[0] + v[1] == 4),
        (".Cage~4~R1C1~R1C2", |v| v[0] + v[1] == 4 && v[0] != v[1]),
        (".Arrow~R1C1~R2C2~R3C3", |v| v[0] == v[4] + v[8]),
        (".SameValues~2~R1C1~R1C2~R3C2~R3C3", |v| {
            let (mut a, mut b) = (vec![v[0], v[1]], vec![v[7], v[8]]);
            a.sort_unstable();
            b.sort_unstable();
            a == b
        }),
        (".AllDifferent~R1C1~R2C1~R3C1", |v| v[0] != v[3] && v[3] != v[6] && v[0] != v[6]),
        (".Thermo~R1C1~R1C2~R1C3", |v| v[0] < v[1] && v[1] < v[2]),
        (".WhiteDot~R1C1~R1C2", |v| (v[0] - v[1]).abs() == 1),
        (".BlackDot~R1C1~R2C1", |v| v[0] == 2 * v[3] || v[3] == 2 * v[0]),
        (".GreaterThan~R1C1~R1C2", |v| v[0] > v[1]),
        (".Palindrome~R1C1~R2C2~R3C3", |v| v[0] == v[8]),
        (".Or.Sum~4~R1C1~R1C2.GreaterThan~R3C3~R3C2.End", |v| v[0] + v[1] == 4 || v[8] > v[7]),
    ];
    // Every grid of values `from..from + 3` on the 9 cells.
    let count = |from: i64, holds: Rule| {
        (0..3usize.pow(9))
            .filter(|&code| {
                let v: Vec<i64> = (0..9).map(|i| (code / 3usize.pow(i)) as i64 % 3 + from).collect();
                holds(&v)
            })
            .count()
    };
    for (from, range) in [(1, "~"), (0, "~0-2")] {
        for (rule, holds) in cases {
            let text = format!(".Shape~3x3{range}~Raw{rule}");
            let puzzle = parse(&text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{text}: {e}"));
            let layout = |g: &Group| !matches!(g.kind, GroupKind::Cage | GroupKind::Extra);
            assert!(!puzzle.groups().iter().any(layout), "{text}: a Raw grid has no rows, columns or boxes");
            let mut counter = Counter::new(Plan::new(Encoding::default()));
            let tally = counter.count(&puzzle, &mut ()).unwrap();
            assert_eq!(tally.count.to_string(), count(from, *holds).to_string(), "{text}");
            // Written back as a Raw grid, read the same.
            let again = satsudoku::formulate::iss::string(&puzzle).unwrap();
            assert!(again.starts_with(&format!(".Shape~3x3{range}~Raw")), "{again}");
            assert_eq!(parse(&again, "t", Some(Format::Iss)).unwrap(), puzzle, "{text}");
        }
    }
    for refused in [".Diagonal~1", ".NoBoxes", ".LittleKiller~6~R1C1", ".Jigsaw~000111222", ".Renban~R1C1~R1C2"] {
        let err = parse(&format!(".Shape~3x3~~Raw{refused}"), "t", Some(Format::Iss)).unwrap_err().to_string();
        assert!(err.contains("on a Raw grid") || err.contains("only valid on a Sudoku grid"), "{refused}: {err}");
    }
}

/// Grids whose values run from 0 (`Shape~4x4~0-3`): each rule holds on
/// the values, which the oracle (the test's own enumeration of 4x4 grids)
/// takes as each digit less one. Every sum counts differently when its
/// rule is read on the digits instead, and every list of values holds a 0,
/// which a reading on digits refuses: a reader that forgot the shift
/// fails here. (No 4x4 case tells StrictXV's shifted sums apart; ISS's
/// "± Information", on values 0-8, does, in the examples' test.)
#[test]
fn grids_of_values_from_zero_count_as_the_oracle() {
    type Rule = fn(&[i64]) -> bool;
    let cases: &[(&str, Rule)] = &[
        (".Cage~3~R1C1~R1C2", |v| v[0] + v[1] == 3),
        (".Sum~4_=_2_1~R1C1~R2C2", |v| 2 * v[0] + v[5] == 4),
        (".Arrow~R1C1~R2C2~R3C3~R4C4", |v| v[0] == v[5] + v[10] + v[15]),
        (".V~R1C1~R1C2", |v| v[0] + v[1] == 5),
        (".LittleKiller~4~R1C1", |v| v[0] + v[5] + v[10] + v[15] == 4),
        (".BlackDot~R1C1~R2C1", |v| v[0] == 2 * v[4] || v[4] == 2 * v[0]),
        (".EqualSum~R1C1~R1C2~-~R2C4", |v| v[0] + v[1] == v[7]),
        (".Zipper~R1C1~R1C3~R1C2", |v| v[0] + v[1] == v[2]),
        (".DoubleArrow~R1C1~R1C3~R1C2", |v| v[0] + v[1] == v[2]),
        (".LookAndSay~1012~R1C1~R2C2", |v| [v[0], v[5]].contains(&0) && [v[0], v[5]].contains(&2)),
        (".Quad~R2C2~0~0", |v| [v[5], v[6], v[9], v[10]].iter().filter(|&&x| x == 0).count() >= 2),
        (".~R1C1_0", |v| v[0] == 0),
        // Patterns of values (ISS's `createCharToSymbol` shifts them):
        // `01|23`, and `[0-2]3*`.
        (".Regex~MDF8MjM~R1C1~R2C2", |v| (v[0], v[5]) == (0, 1) || (v[0], v[5]) == (2, 3)),
        (".Regex~WzAtMl0zKg~R1C1~R2C3~R4C2", |v| v[0] <= 2 && v[6] == 3 && v[13] == 3),
        // Sums of values along a line, split anywhere (0s join either
        // side; a line of 0s alone holds, as ISS's partial sums say).
        (".SumLine~3~R1C1~R2C2~R3C3~R4C4", |v| splits(&[v[0], v[5], v[10], v[15]], 3)),
        (".SumLine~2~R1C1~R2C1~R3C2~R3C1", |v| splits(&[v[0], v[4], v[9], v[8]], 2)),
        (".SumLine~3~R1C1~R1C2~R2C2~R2C1~LOOP", |v| {
            let round = [v[0], v[1], v[5], v[4]];
            (0..4).any(|k| splits(&[round[k], round[(k + 1) % 4], round[(k + 2) % 4], round[(k + 3) % 4]], 3))
        }),
        // No set of the cage's values sums to the number (a 0 adds none).
        (".RellikCage~5~R1C1~R2C2~R3C3", |v| {
            let cage = [v[0], v[5], v[10]];
            v[0] != v[10]
                && v[5] != v[10]
                && (1..8).all(|set: usize| (0..3).filter(|i| set >> i & 1 == 1).map(|i| cage[i]).sum::<i64>() != 5)
        }),
        // The values between the line's smallest and largest sum to it.
        (".Lunchbox~1~R1C1~R2C2~R3C3", |v| {
            let line = [v[0], v[5], v[10]];
            line[0] != line[2] && line[1] != line[2] && between(&line) == 1
        }),
        (".Sandwich~1~R2", |v| between(&v[4..8]) == 1),
        // Each circle's value is how many circles hold it (a 0 never).
        (".CountingCircles~R1C1~R2C3~R3C2~R4C4~R1C2", |v| {
            let circles = [v[0], v[6], v[9], v[15], v[1]];
            circles.iter().all(|&x| circles.iter().filter(|&&y| y == x).count() as i64 == x)
        }),
        // An x-sum's first value counts the cells summed (0 counts none:
        // ISS's builder has no branch for it).
        (".XSum~R1~5~", |v| v[0] >= 1 && v[..v[0] as usize].iter().sum::<i64>() == 5),
        (".XSum~C2~~4", |v| {
            let up = [v[13], v[9], v[5], v[1]];
            up[0] >= 1 && up[..up[0] as usize].iter().sum::<i64>() == 4
        }),
        // Indexing: the control's value k (1 to the line's length, ISS's
        // handler allows no other) puts the value in the line's k-th
        // cell; ISS's `Indexing` asks for the column's number (from 1).
        (".NumberedRoom~R1~2~", |v| v[0] >= 1 && v[v[0] as usize - 1] == 2),
        (".Indexing~C~R2C3", |v| v[6] >= 1 && v[4 + v[6] as usize - 1] == 3),
        (".ValueIndexing~R1C1~R2C2~R3C3~R4C4~R3C1~R4C2", |v| {
            let line = [v[10], v[15], v[8], v[13]];
            (1..=4).contains(&v[5]) && line[v[5] as usize - 1] == v[0]
        }),
        // The control is the value cell: its value is a position.
        (".ValueIndexing~R1C1~R1C1~R2C3~R3C2~R4C4", |v| {
            let line = [v[6], v[9], v[15]];
            (1..=3).contains(&v[0]) && line[v[0] as usize - 1] == v[0]
        }),
        // A pill read as a number of values is the arrow's sum.
        (".PillArrow~2~R1C1~R1C2~R2C3~R3C3~R4C4~R3C4", |v| 10 * v[0] + v[1] == v[6] + v[10] + v[15] + v[11]),
        // The control's value is how many values the others hold.
        (".CountDistinct~R1C1~R2C2~R3C3~R4C4~R3C1", |v| {
            let mut seen = vec![v[5], v[10], v[15], v[8]];
            seen.sort_unstable();
            seen.dedup();
            v[0] == seen.len() as i64
        }),
        // No two neighbours without a dot are consecutive or one twice
        // the other, in values (ISS's StrictKropki; on 4x4 only white dots
        // leave grids); the dotted pairs are consecutive.
        (
            ".StrictKropki.WhiteDot~R1C2~R1C3.WhiteDot~R2C2~R2C3.WhiteDot~R1C2~R2C2.WhiteDot~R1C3~R2C3\
             .WhiteDot~R3C1~R4C1.WhiteDot~R3C4~R4C4",
            |v| {
                let white = [(1, 2), (5, 6), (1, 5), (2, 6), (8, 12), (11, 15)];
                let pairs = (0..16).flat_map(|i| [(i % 4 < 3).then_some((i, i + 1)), (i < 12).then_some((i, i + 4))]);
                pairs.flatten().all(|(a, b)| {
                    let (x, y) = (v[a], v[b]);
                    match white.contains(&(a, b)) {
                        true => (x - y).abs() == 1,
                        false => (x - y).abs() != 1 && x != 2 * y && y != 2 * x,
                    }
                })
            },
        ),
        // The first cell lower than one before it holds the value.
        (".HiddenSkyscraper~R1~0~", |v| first_hidden(&v[..4]) == Some(0)),
        (".HiddenSkyscraper~C2~~1", |v| first_hidden(&[v[13], v[9], v[5], v[1]]) == Some(1)),
        // An alternative of clues on one line: one of their values (one
        // rule, merged); on two lines: either clue.
        (".Or.HiddenSkyscraper~R1~0~.HiddenSkyscraper~R1~2~.End", |v| matches!(first_hidden(&v[..4]), Some(0 | 2))),
        (".Or.HiddenSkyscraper~R1~0~.HiddenSkyscraper~R2~~2.End", |v| {
            first_hidden(&v[..4]) == Some(0) || first_hidden(&[v[7], v[6], v[5], v[4]]) == Some(2)
        }),
        // 0s are no buildings: the ground is 0.
        (".Skyscraper~R1~2~", |v| {
            let mut tallest = 0;
            let mut seen = 0;
            for &x in &v[..4] {
                if x > tallest {
                    (tallest, seen) = (x, seen + 1);
                }
            }
            seen == 2
        }),
    ];
    for (rule, holds) in cases {
        let text = format!(".Shape~4x4~0-3{rule}");
        let puzzle = parse(&text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{rule}: {e}"));
        assert_eq!(puzzle.first_value(), 0);
        let on_values = crate::common::count_grids(4, (2, 2), &[0; 16], &|g| {
            holds(&g.iter().map(|&d| i64::from(d) - 1).collect::<Vec<_>>())
        });
        let on_digits = crate::common::count_grids(4, (2, 2), &[0; 16], &|g| {
            holds(&g.iter().map(|&d| i64::from(d)).collect::<Vec<_>>())
        });
        // A value that is also a position (the control as the value
        // cell) counts alike on digits: relabelling 1..3 as 2..4 maps one
        // reading to the other; the case holds the position to the value.
        let listed = rule.contains("_0")
            || rule.contains("~0")
            || rule.contains("LookAndSay")
            || rule.contains("Regex")
            || rule.contains("R1C1~R1C1");
        assert!(listed || on_values != on_digits, "{rule}: the case does not tell values from digits");
        let mut counter = Counter::new(Plan::new(Encoding::default()));
        let tally = counter.count(&puzzle, &mut ()).unwrap();
        assert_eq!(tally.count.to_string(), on_values.to_string(), "{rule}");
    }
}

/// A sandwich in a row or a column closes on either crust (its
/// automaton forgets which one opened it, the line's digits being
/// different): on 4x4 grids, every clue on a row and on a column counts as
/// the test's own enumeration of the grids.
#[test]
fn sandwiches_in_rows_and_columns_count_as_the_oracle() {
    let lines: [(&str, [usize; 4]); 2] = [("R2", [4, 5, 6, 7]), ("C3", [2, 6, 10, 14])];
    for target in 0..=5 {
        for (line, cells) in lines {
            let text = format!(".Shape~4x4.Sandwich~{target}~{line}");
            let puzzle = parse(&text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{text}: {e}"));
            let oracle = crate::common::count_grids(4, (2, 2), &[0; 16], &|g| {
                between(&cells.map(|i| i64::from(g[i]))) == target
            });
            let mut counter = Counter::new(Plan::new(Encoding::default()));
            let tally = counter.count(&puzzle, &mut ()).unwrap();
            assert_eq!(tally.count.to_string(), oracle.to_string(), "{text}");
        }
    }
}

/// ISS's `StrictKropki` bans a difference of 1 and a ratio of 2 on every
/// orthogonal pair without a dot (its `fnKey`), whether or not a white
/// dot is on the board. It was read as the native `negative white black`,
/// whose white half bans only the differences white dots show: with no
/// white dot, neighbours could be consecutive. On 4x4 grids of the values
/// 0 to 3 (on 1 to 4 no grid keeps every undotted pair off a ratio of 2)
/// against the test's own enumeration, where the reading that lets
/// neighbours be consecutive counts otherwise; then the copy of ISS's "I
/// just like colours" without its `AntiConsecutive` that
/// `bench/iss_counts.py 5` found: 72 solutions here before the fix, 1 by
/// ISS (a counter written apart) and now.
#[test]
fn strict_kropki_bans_consecutive_neighbours_without_a_white_dot() {
    let pairs: Vec<(usize, usize)> =
        (0..16).flat_map(|i| [(i % 4 < 3).then_some((i, i + 1)), (i < 12).then_some((i, i + 4))]).flatten().collect();
    let black_cases: [&[(usize, usize)]; 3] = [&[], &[(0, 1), (4, 8)], &[(0, 1), (2, 3), (8, 12), (10, 14), (5, 9)]];
    let name = |i: usize| format!("R{}C{}", i / 4 + 1, i % 4 + 1);
    let mut told_apart = false;
    for black in black_cases {
        let dots: String = black.iter().map(|&(a, b)| format!(".BlackDot~{}~{}", name(a), name(b))).collect();
        let text = format!(".Shape~4x4~0-3.StrictKropki{dots}");
        let holds = |g: &[u32], strict: bool| {
            pairs.iter().all(|&(a, b)| {
                let (x, y) = (g[a] - 1, g[b] - 1);
                let ratio = x == 2 * y || y == 2 * x;
                match black.contains(&(a, b)) {
                    true => ratio,
                    false => !ratio && (!strict || x.abs_diff(y) != 1),
                }
            })
        };
        let oracle = crate::common::count_grids(4, (2, 2), &[0; 16], &|g| holds(g, true));
        let loose = crate::common::count_grids(4, (2, 2), &[0; 16], &|g| holds(g, false));
        told_apart |= oracle != loose;
        let puzzle = parse(&text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut counter = Counter::new(Plan::new(Encoding::default()));
        let tally = counter.count(&puzzle, &mut ()).unwrap();
        assert_eq!(tally.count.to_string(), oracle.to_string(), "{text}");
    }
    assert!(told_apart, "no case tells the two readings apart");
    let colours = ".AntiKing.AntiKnight.BlackDot~R2C2~R2C3.BlackDot~R3C5~R3C6.BlackDot~R1C8~R1C9\
        .BlackDot~R2C7~R3C7.BlackDot~R4C5~R5C5.BlackDot~R5C3~R5C4.BlackDot~R1C4~R2C4.BlackDot~R6C1~R7C1\
        .BlackDot~R7C1~R7C2.BlackDot~R8C4~R8C5.BlackDot~R7C6~R8C6.BlackDot~R6C6~R6C7.BlackDot~R5C8~R6C8\
        .BlackDot~R3C9~R4C9.BlackDot~R8C9~R9C9.BlackDot~R9C7~R9C8.StrictKropki";
    let puzzle = parse(colours, "t", Some(Format::Iss)).unwrap();
    let mut counter = Counter::new(Plan::new(Encoding::default()));
    assert_eq!(counter.count(&puzzle, &mut ()).unwrap().count.to_string(), "1");
}

/// Rows and columns of a 7x7 grid of the values 1 to 9 hold different
/// values, not every value, so no row's sum is known, nor the grid's. On
/// copies of "7x7: Killer Squishdoku" with sums taken out,
/// `bench/iss_counts.py` counted 115 here and 10 by ISS (seed 5), and 75
/// against 0, 41 against 7, 207 against 12 (seed 6, two rules out): ISS's
/// optimizer fills the cells no sum covers, when fewer than a house, with
/// a sum making the grid's total 49 / 9 x 45 = 245, as if every 9 cells
/// held every value (`_fillInSumGap` in ISS's `optimizer.js`). This grid,
/// one of the 115 (checked by hand against every rule of that copy),
/// keeps the rows, the columns and six sums (the test checks them itself)
/// and totals 250: given whole with only those rules, ISS rejects it, its
/// gap sum putting 30 on the eight cells the six sums leave (here 35),
/// and satsudoku counts its one solution. With ISS's gap sum added as a
/// rule, the copy without `Sum~12` counts ISS's 10.
#[test]
fn a_grid_of_more_values_than_the_side_keeps_sums_without_houses() {
    let grid: [[u32; 7]; 7] = [
        [6, 7, 2, 9, 8, 4, 1],
        [5, 9, 3, 4, 7, 2, 6],
        [8, 4, 1, 6, 5, 9, 3],
        [2, 6, 7, 3, 4, 1, 8],
        [3, 5, 9, 8, 2, 6, 7],
        [7, 2, 4, 5, 1, 8, 9],
        [1, 8, 6, 7, 3, 5, 4],
    ];
    let sums: [(u32, &str); 6] = [
        (55, "R1C1~R1C2~R1C3~R2C3~R3C3~R4C3~R4C4~R3C2~R3C1~R2C1~R2C2"),
        (22, "R4C2~R5C2~R6C2~R6C3~R6C4"),
        (21, "R7C2~R7C3~R7C4"),
        (34, "R2C4~R3C4~R3C5~R3C6~R4C6~R2C6~R2C5"),
        (17, "R2C7~R3C7~R4C7"),
        (66, "R5C3~R5C4~R5C5~R4C5~R6C5~R7C5~R7C6~R7C7~R6C7~R5C7~R5C6~R6C6"),
    ];
    let at = |name: &str| {
        let (r, c) = name[1..].split_once('C').unwrap();
        grid[r.parse::<usize>().unwrap() - 1][c.parse::<usize>().unwrap() - 1]
    };
    let distinct = |line: Vec<u32>| line.iter().all(|&v| line.iter().filter(|&&w| w == v).count() == 1);
    assert!((0..7).all(|i| distinct(grid[i].to_vec()) && distinct((0..7).map(|r| grid[r][i]).collect())));
    assert!(sums.iter().all(|&(target, cells)| cells.split('~').map(at).sum::<u32>() == target));
    let mut text = String::from(".Shape~7x7~9.RegionSize~9");
    for (target, cells) in sums {
        text += &format!(".Sum~{target}~{cells}");
    }
    for (r, row) in grid.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            text += &format!(".~R{}C{}_{v}", r + 1, c + 1);
        }
    }
    let puzzle = parse(&text, "t", Some(Format::Iss)).unwrap();
    let mut counter = Counter::new(Plan::new(Encoding::default()));
    assert_eq!(counter.count(&puzzle, &mut ()).unwrap().count.to_string(), "1");
    let total: u32 = grid.iter().flatten().sum();
    assert_eq!(total, 250, "the total ISS's gap sum would make 245");

    // The copy without `Sum~12` given ISS's gap sum as a rule (r1c4 to
    // r1c7 summing to 245 less the other sums): ISS's count of it, which
    // no gap sum of its own changes (every cell is in a sum).
    let mut text = String::from(".Shape~7x7~9.RegionSize~9");
    for cells in [
        "R1C3~R2C3~R3C3~R3C4~R3C5~R2C5~R1C5~R1C4~R2C4",
        "R3C7~R3C6~R3C5~R4C5~R5C5~R5C6~R5C7~R4C7~R4C6",
        "R3C5~R4C5~R5C5~R5C4~R5C3~R4C3~R3C3~R3C4~R4C4",
        "R3C1~R3C2~R3C3~R4C3~R5C3~R5C2~R5C1~R4C1~R4C2",
        "R5C3~R5C4~R5C5~R6C5~R7C5~R7C4~R7C3~R6C3~R6C4",
    ] {
        text += &format!(".AllDifferent~{cells}");
    }
    let gap = 245 - sums.iter().map(|s| s.0).sum::<u32>() - 13;
    assert_eq!(gap, 17);
    for (target, cells) in sums.iter().chain(&[(13, "R4C1~R5C1~R6C1~R7C1"), (gap, "R1C4~R1C5~R1C6~R1C7")]) {
        text += &format!(".Sum~{target}~{cells}");
    }
    text += ".Jigsaw~1112333111233311123332222222444255544425554442555";
    let puzzle = parse(&text, "t", Some(Format::Iss)).unwrap();
    assert_eq!(counter.count(&puzzle, &mut ()).unwrap().count.to_string(), "10", "ISS's count: {text}");
}

/// A cage that lists a cell twice (ISS's "Event Horizon" does): the sum
/// counts the cell twice and the cell differs from the others once, as
/// ISS's handlers do (its `Sum` adds a repeated cell's coefficients, its
/// `AllDifferent` drops repeats). The oracle is the test's own
/// enumeration of 4x4 grids; the readings that drop the repeat from the
/// sum, or the cage's difference, count otherwise.
#[test]
fn a_cage_listing_a_cell_twice_counts_it_twice() {
    type Rule = fn(&[u32]) -> bool;
    let cases: &[(&str, Rule)] = &[
        // r1c1 and r3c3 share no house: only the cage keeps them apart.
        (".Cage~9~R1C1~R3C3~R3C3", |g| g[0] != g[10] && g[0] + 2 * g[10] == 9),
        (".Cage~9~R1C1~R1C2~R1C2~R2C1", |g| g[0] + 2 * g[1] + g[4] == 9),
        (".Cage~~R1C1~R1C1~R3C3", |g| g[0] != g[10]),
    ];
    for (rule, holds) in cases {
        let puzzle =
            parse(&format!(".Shape~4x4{rule}"), "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{rule}: {e}"));
        let oracle = crate::common::count_grids(4, (2, 2), &[0; 16], holds);
        assert!(oracle > 0, "{rule}: an empty case");
        let mut counter = Counter::new(Plan::new(Encoding::default()));
        let tally = counter.count(&puzzle, &mut ()).unwrap();
        assert_eq!(tally.count.to_string(), oracle.to_string(), "{rule}");
    }
    let once = crate::common::count_grids(4, (2, 2), &[0; 16], &|g: &[u32]| g[0] != g[10] && g[0] + g[10] == 9);
    let apart = crate::common::count_grids(4, (2, 2), &[0; 16], &|g: &[u32]| g[0] + 2 * g[10] == 9);
    let twice = crate::common::count_grids(4, (2, 2), &[0; 16], &|g: &[u32]| g[0] != g[10] && g[0] + 2 * g[10] == 9);
    assert!(once != twice && apart != twice, "the first case does not tell the readings apart");
}

/// `Given` spelled out is the item without a type (ISS's parser reads an
/// empty type as `Given`): one value a given, several the cell's
/// candidates, on values from 1 and from 0, each against the test's own
/// count of 4x4 grids (ISS counts 72 and 144 for the two cases on 0-3).
#[test]
fn given_spelled_out_is_a_given() {
    type Rule = fn(&[u32]) -> bool;
    let cases: &[(&str, Rule)] = &[
        (".Shape~4x4.Given~R1C1_1", |g| g[0] == 1),
        (".Shape~4x4.Given~R1C2_2_3.Given~R4C4_4", |g| (g[1] == 2 || g[1] == 3) && g[15] == 4),
        // Values 0 to 3 are digits 1 to 4.
        (".Shape~4x4~0-3.Given~R1C1_0", |g| g[0] == 1),
        (".Shape~4x4~0-3.Given~R1C1_0_1", |g| g[0] <= 2),
        // Two givens of a cell: their intersection.
        (".Shape~4x4.Given~R2C2_1_2_3.~R2C2_3_4", |g| g[5] == 3),
    ];
    for (text, holds) in cases {
        let oracle = crate::common::count_grids(4, (2, 2), &[0; 16], holds);
        let spelled = parse(text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{text}: {e}"));
        let short = parse(&text.replace("Given~", "~"), "t", Some(Format::Iss)).unwrap();
        for puzzle in [spelled, short] {
            let mut counter = Counter::new(Plan::new(Encoding::default()));
            let tally = counter.count(&puzzle, &mut ()).unwrap();
            assert_eq!(tally.count.to_string(), oracle.to_string(), "{text}");
        }
    }
    assert_eq!(crate::common::count_grids(4, (2, 2), &[0; 16], &|g: &[u32]| g[0] <= 2), 144);
}

/// The connected-values oracle on a 4x4 (`common::connected`).
fn connected(g: &[u32], digits: &[u32], size: Option<usize>) -> bool {
    crate::common::connected(4, g, digits, size)
}

/// ISS's `ConnectedValues` over the grid, against the test's own count of
/// 4x4 grids with a flood fill: Sudoku, with givens, values from 0, a
/// Latin square, five values on a 4x4, with and without a size (ISS
/// counts the same: 216, 0, 216, 6, 288, 13,536, 61,920); the string
/// `export --as iss` writes reads back with the same count; and a group
/// of `Var` cells is refused by name.
#[test]
fn connected_values_count_as_the_oracle() {
    let boxes: Vec<Vec<usize>> = boxes_4x4();
    let sudoku = |keep: &dyn Fn(&[u32]) -> bool, givens: &[u32]| crate::common::count_grids(4, (2, 2), givens, keep);
    let mut givens = [0u32; 16];
    givens[0] = 4;
    givens[6] = 1;
    let cases: Vec<(&str, u64)> = vec![
        (".Shape~4x4.ConnectedValues~~1_2_3", sudoku(&|g| connected(g, &[1, 2, 3], None), &[0; 16])),
        (".Shape~4x4.ConnectedValues~~1_2_3~12", sudoku(&|g| connected(g, &[1, 2, 3], Some(12)), &[0; 16])),
        (".Shape~4x4.ConnectedValues~~1_2_3~11", sudoku(&|g| connected(g, &[1, 2, 3], Some(11)), &[0; 16])),
        // Values 0, 1 and 3 are digits 1, 2 and 4.
        (".Shape~4x4~0-3.ConnectedValues~~0_1_3", sudoku(&|g| connected(g, &[1, 2, 4], None), &[0; 16])),
        (".Shape~4x4.~R1C1_4~R2C3_1.ConnectedValues~~1_2_3", sudoku(&|g| connected(g, &[1, 2, 3], None), &givens)),
        (
            ".Shape~4x4.NoBoxes.ConnectedValues~~2_3_4",
            count_fillings(4, 4, &[], &[], |g| connected(g, &[2, 3, 4], None)),
        ),
        (".Shape~4x4~5.ConnectedValues~~1_2_3", count_fillings(4, 5, &boxes, &[], |g| connected(g, &[1, 2, 3], None))),
        (
            ".Shape~4x4~5.ConnectedValues~~2_3_4_5~13",
            count_fillings(4, 5, &boxes, &[], |g| connected(g, &[2, 3, 4, 5], Some(13))),
        ),
    ];
    assert!(cases.iter().filter(|c| c.1 > 0).count() >= 6, "{cases:?}");
    for (text, oracle) in cases {
        let puzzle = parse(text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{text}: {e}"));
        let written = satsudoku::formulate::iss::string(&puzzle).unwrap_or_else(|e| panic!("{text}: {e}"));
        let back = parse(&written, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{written}: {e}"));
        for puzzle in [puzzle, back] {
            let mut counter = Counter::new(Plan::new(Encoding::default()));
            let tally = counter.count(&puzzle, &mut ()).unwrap();
            assert_eq!(tally.count.to_string(), oracle.to_string(), "{text} (written {written})");
        }
    }
    let err = parse(".Shape~4x4.ConnectedValues~A~1", "t", Some(Format::Iss)).unwrap_err();
    assert!(err.message.contains("cells outside the grid"), "{err}");
    // Past 4 million literals (cells times steps) it is refused, not built;
    // every digit listed is the whole grid, which is connected.
    let digits = |k: usize| (1..=k).map(|d| d.to_string()).collect::<Vec<_>>().join(" ");
    let big = format!("size 64\nbox none\nconnected-values {}\n", digits(20));
    let err = parse(&big, "t", Some(Format::Puzzle)).unwrap_err();
    assert!(err.message.contains("not encoded"), "{err}");
    let all = format!("size 64\nbox none\nconnected-values {}\n", digits(64));
    assert!(parse(&all, "t", Some(Format::Puzzle)).is_ok());
}

/// A grid of values from 0 prints its values: the solution, the
/// candidates and the cells `minimal` names, as ISS writes them; and the
/// rules not yet read on values from 0 are refused by name.
#[test]
fn grids_of_values_from_zero_print_their_values() {
    use crate::common::satsudoku;
    let entry = corpus().into_iter().find(|e| e["name"] == "0-indexed: Classic sudoku").unwrap();
    let solution = entry["solution"].as_str().unwrap();
    let input = entry["input"].as_str().unwrap();
    satsudoku()
        .args(["unique", "--format", "iss"])
        .write_stdin(input)
        .assert()
        .success()
        .stdout(format!("unique\t{solution}\n"));
    let out = satsudoku().args(["candidates", "--format", "iss"]).write_stdin(input).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let found: String = text.chars().filter(char::is_ascii_digit).collect();
    assert_eq!(found, solution, "candidates:\n{text}");
    let out = satsudoku().args(["count", "--format", "iss", "--print"]).write_stdin(input).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let printed: String = text.lines().skip(1).take(9).flat_map(|l| l.split(' ')).collect();
    assert_eq!(printed, solution, "count --print:\n{text}");
    let refusals = [
        (".AntiTaxicab", "on a grid whose values run from 0: ISS refuses it there too"),
        (".Entropic~R1C1~R1C2~R1C3", "on a grid whose values run from 0: ISS refuses it there too"),
    ];
    for (refused, why) in refusals {
        let text = format!(".Shape~4x4~0-3{refused}");
        satsudoku()
            .args(["count", "--format", "iss"])
            .write_stdin(text)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::contains(why));
    }
}

/// Full rank on 4x4 (ISS's `FullRank` and `FullRankTies`), against the
/// test's own enumeration: each row and column read both ways, a reading's
/// rank one more than the readings below it, the clued readings tied with
/// none unless the mode is `any`, and no two readings alike under `none`.
/// Clues are drawn from random grids' own ranks, and some at random.
#[test]
fn full_rank_counts_as_the_oracle() {
    use crate::common::{rng, Draw};
    // Each reading as (ISS's line, from the end?, its cells' indices).
    let mut lines: Vec<(String, bool, Vec<usize>)> = Vec::new();
    for k in 0..4 {
        let row: Vec<usize> = (0..4).map(|c| 4 * k + c).collect();
        let col: Vec<usize> = (0..4).map(|r| 4 * r + k).collect();
        for (name, cells) in [(format!("R{}", k + 1), row), (format!("C{}", k + 1), col)] {
            lines.push((name.clone(), true, cells.iter().rev().copied().collect()));
            lines.push((name, false, cells));
        }
    }
    let read = |g: &[u32], cells: &[usize]| cells.iter().map(|&i| g[i]).collect::<Vec<u32>>();
    let rank = |g: &[u32], i: usize| {
        let own = read(g, &lines[i].2);
        1 + (0..lines.len()).filter(|&j| j != i && read(g, &lines[j].2) < own).count()
    };
    let tied = |g: &[u32], i: usize| (0..lines.len()).any(|j| j != i && read(g, &lines[j].2) == read(g, &lines[i].2));
    // Every 4x4 grid, to count over and to draw clues from.
    fn grids(g: &mut Vec<u32>, i: usize, out: &mut Vec<Vec<u32>>) {
        if i == 16 {
            out.push(g.clone());
            return;
        }
        let (r, c) = (i / 4, i % 4);
        for d in 1..=4 {
            let clash = (0..16)
                .any(|j| j < i && g[j] == d && (j / 4 == r || j % 4 == c || (j / 8 == r / 2 && j % 4 / 2 == c / 2)));
            if !clash {
                g[i] = d;
                grids(g, i + 1, out);
            }
        }
        g[i] = 0;
    }
    let mut all = Vec::new();
    grids(&mut vec![0; 16], 0, &mut all);
    assert_eq!(all.len(), 288);
    let mut r = rng(41);
    let mut counter = Counter::new(Plan::new(Encoding::default()));
    let (mut nonzero, mut same_first) = (0, 0);
    for case in 0..150 {
        let mode = ["none", "only-unclued", "any"][case % 3];
        let from = &all[r.below(all.len())];
        let mut clues: Vec<(usize, usize)> = Vec::new();
        for _ in 0..1 + r.below(5) {
            let i = r.below(lines.len());
            let k = if r.below(4) == 0 { 1 + r.below(16) } else { rank(from, i) };
            if !clues.iter().any(|c| c.0 == i) {
                clues.push((i, k));
            }
        }
        let holds = |g: &[u32]| {
            let distinct = (0..lines.len()).all(|i| !tied(g, i));
            (mode != "none" || distinct)
                && clues.iter().all(|&(i, k)| rank(g, i) == k && (mode == "any" || !tied(g, i)))
        };
        let expected = all.iter().filter(|g| holds(g)).count();
        let mut text = format!(".Shape~4x4.FullRankTies~{mode}");
        for &(i, k) in &clues {
            let (name, back, _) = &lines[i];
            text += &if *back { format!(".FullRank~{name}~~{k}") } else { format!(".FullRank~{name}~{k}~") };
        }
        let puzzle = parse(&text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{text}: {e}"));
        let tally = counter.count(&puzzle, &mut ()).unwrap();
        assert_eq!(tally.count.to_string(), expected.to_string(), "{text}");
        nonzero += usize::from(expected > 0);
        // Clues whose readings start with one digit (ranked among themselves).
        let firsts = |k: usize| (k - 1) / 4;
        same_first += usize::from(
            expected > 0
                && clues.iter().enumerate().any(|(a, x)| clues[..a].iter().any(|y| firsts(x.1) == firsts(y.1))),
        );
    }
    assert!(nonzero >= 60 && same_first >= 10, "{nonzero} cases with solutions, {same_first} ranked among themselves");
}

/// ISS's `Or` and `And` on 4x4, against the test's own count: at least
/// one branch holds (a grid that keeps two counts once), an `And` or an
/// item standing for several rules is one branch, branches nest, a branch
/// with a cage out of reach never holds (as ISS's handler has it), and
/// an `And` at the root is its items. Every ISS example with an `Or` reads
/// back after `export --as iss` with ISS's solution. What ISS refuses in a
/// composite is refused, with the place.
#[test]
fn or_and_and_count_as_the_oracle() {
    use satsudoku::formulate::iss::string;
    let cases: &[(&str, Rule)] = &[
        (".Or.~R1C1_1.~R2C3_1.End", |g| g[0] == 1 || g[6] == 1),
        (".Or.~R1C1_1_2.~R1C1_2_3.End", |g| (1..=3).contains(&g[0])),
        (".Or.And.Thermo~R1C1~R1C2.~R4C4_2.End.Cage~5~R3C3~R3C4.End", |g| {
            (g[0] < g[1] && g[15] == 2) || g[10] + g[11] == 5
        }),
        // X on two pairs: one branch, both pairs.
        (".Or.X~R1C1~R1C2~R2C2.V~R4C4~R4C3.End", |g| (g[0] + g[1] == 10 && g[1] + g[5] == 10) || g[15] + g[14] == 5),
        (".Or.Or.Cage~99~R1C1~R1C2.Whisper~2~R1C1~R2C1.End.~R4C4_4.End", |g| g[0].abs_diff(g[4]) >= 2 || g[15] == 4),
        (".Or.Cage~99~R1C1~R1C2.End", |_| false),
        (".Or.End", |_| false),
        (".And.~R1C1_1.Renban~R2C1~R2C2.End", |g| g[0] == 1 && g[4].abs_diff(g[5]) == 1),
        (".Or.Sum~5~R1C1~R2C2.GreaterThan~R1C1~R1C2.End.Or.~R1C1_4.~R4C4_4.End", |g| {
            (g[0] + g[5] == 5 || g[0] > g[1]) && (g[0] == 4 || g[15] == 4)
        }),
    ];
    let mut counter = Counter::new(Plan::new(Encoding::default()));
    for (rule, holds) in cases {
        let text = format!(".Shape~4x4{rule}");
        let puzzle = parse(&text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{rule}: {e}"));
        let expected = crate::common::count_grids(4, (2, 2), &[0; 16], holds);
        assert_eq!(counter.count(&puzzle, &mut ()).unwrap().count.to_string(), expected.to_string(), "{rule}");
        let again = string(&puzzle).unwrap_or_else(|e| panic!("{rule}: {e}"));
        let back = parse(&again, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{rule}: {e}\n{again}"));
        assert_eq!(counter.count(&back, &mut ()).unwrap().count.to_string(), expected.to_string(), "{again}");
    }
    let mut read = 0;
    for entry in corpus().iter().filter(|e| e["input"].as_str().unwrap().contains(".Or")) {
        let name = entry["name"].as_str().unwrap();
        let Ok(puzzle) = parse(entry["input"].as_str().unwrap(), name, Some(Format::Iss)) else { continue };
        let text = string(&puzzle).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = parse(&text, name, Some(Format::Iss)).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        match counter.judge(&back) {
            Ok(Verdict::Unique(grid)) if values(&grid, &back) == entry["solution"].as_str().unwrap() => read += 1,
            other => panic!("{name}: {other:?} after the round trip\n{text}"),
        }
    }
    assert!(read >= 5, "{read} examples with an Or read");
    // Columns in the whole string, after `.Shape~4x4` (10 characters).
    let refused = [
        (".Or.Shape~4x4.End", 15, "Shape is not allowed inside Or"),
        (".Or.And.AntiKnight.End.End", 19, "AntiKnight is not allowed inside And"),
        (".Or.~R1C1_1.Binary~1~R1C1~R1C2.End", 23, "Binary is not allowed inside Or"),
        (".~R1C1_1.End", 20, "an .End with no Or or And open"),
        (".Thermo~R1C1~R1C2.Or.~R1C1_1", 29, "this Or has no .End"),
        (".StrictKropki.Or.WhiteDot~R1C1~R1C2.~R1C1_1.End", 2, "with markers inside an alternative"),
        (".Or.FullRank~R1~3~.End", 15, "full rank inside an alternative"),
    ];
    for (text, col, message) in refused {
        let e = parse(&format!(".Shape~4x4{text}"), "t", Some(Format::Iss)).unwrap_err().to_string();
        let at = format!("t:1:{col}:");
        assert!(e.contains(message) && e.starts_with(&at), "{text}: {e} (expected {at} {message})");
    }
}

/// `puzzle` (read from the ISS string `text`) counts `expected`, and so
/// does its string written back (`export --as iss`) and read again.
fn counts_both_ways(counter: &mut Counter, puzzle: &Puzzle, text: &str, expected: u64) {
    assert_eq!(counter.count(puzzle, &mut ()).unwrap().count.to_string(), expected.to_string(), "{text}");
    let again = satsudoku::formulate::iss::string(puzzle).unwrap_or_else(|e| panic!("{text}: {e}"));
    let back = parse(&again, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{again}: {e}"));
    assert_eq!(counter.count(&back, &mut ()).unwrap().count.to_string(), expected.to_string(), "{again}");
}

/// Each ISS string is refused with a message that says what is expected.
fn refused(cases: &[(&str, &str)]) {
    for (text, message) in cases {
        let e = parse(text, "t", Some(Format::Iss)).unwrap_err().to_string();
        assert!(e.contains(message), "{text}: {e}");
    }
}

/// ISS's `Var`: cells outside the grid holding values as its cells do,
/// under the rules that name them (sums, arrows, thermometers, dots
/// between neighbours as ISS lays a group out, all-different and
/// same-value sets, state machines, `Or`), on Latin
/// 3x3s, a 4x4 Sudoku and values from 0, against the test's own count
/// (each cell outside one more cell, after the grid's), before and after
/// a round trip through `export --as iss`; ISS's five examples with `Var`
/// are checked with their published solutions by `every_iss_example...`.
/// What ISS refuses, or satsudoku does not read with them, is refused.
#[test]
fn cells_outside_the_grid_count_as_the_oracle() {
    // The string, the side, the cells outside, the values, the groups
    // beside rows and columns, the givens (cell, value) and the rule.
    type Case = (&'static str, usize, usize, u32, Vec<Vec<usize>>, Vec<(usize, u32)>, Rule);
    let cases: &[Case] = &[
        // Free cells outside multiply the count: 12 Latin squares x 3^2.
        (".Shape~3x3.Var~A~~2", 3, 2, 3, vec![], vec![], |_| true),
        (".Shape~3x3.Var~A~~2.Sum~4~R1C1~VA1.AllDifferent~VA1~VA2~R1C2", 3, 2, 3, vec![vec![9, 10, 1]], vec![], |g| {
            g[0] + g[9] == 4
        }),
        // A single cell is `VB`; an arrow from it, a thermometer to it.
        (".Shape~3x3.Var~B.Arrow~VB~R1C1~R2C2.Var~C~~1.Thermo~R3C3~VC", 3, 2, 3, vec![], vec![], |g| {
            g[9] == g[0] + g[4] && g[8] < g[10]
        }),
        // A 2x2 group: VD1..VD4 in reading order, in two rows of two
        // (ISS's layout, by which VD1 and VD3 are neighbours).
        (
            ".Shape~3x3.Var~D~~2x2.SameValues~2~VD1~VD4~R1C1~R2C2.WhiteDot~VD3~VD1.~VD3_2",
            3,
            4,
            3,
            vec![],
            vec![],
            |g| {
                let (mut a, mut b) = ([g[9], g[12]], [g[0], g[4]]);
                a.sort_unstable();
                b.sort_unstable();
                a == b && g[9].abs_diff(g[11]) == 1 && g[11] == 2
            },
        ),
        // A group of a count alone is laid out in rows of the grid's
        // columns: VE4 is under VE1; a dot from the grid to it is none.
        (".Shape~3x3.Var~E~~4.BlackDot~VE1~VE4~R3C1", 3, 4, 3, vec![], vec![], |g| {
            g[9] == 2 * g[12] || g[12] == 2 * g[9]
        }),
        // Or: the cell outside is below or above R1C1, never equal.
        (".Shape~3x3.Var~A.Or.Thermo~VA~R1C1.Thermo~R1C1~VA.End.Sum~4~VA~R3C1", 3, 1, 3, vec![], vec![], |g| {
            g[9] != g[0] && g[9] + g[6] == 4
        }),
        // A 4x4 Sudoku: a little killer through its diagonal, less the
        // two cells outside as a two-digit number (ISS's Sum with factors).
        (
            ".Shape~4x4.Var~A~~2.Sum~0_=_1_1_1_1_-10_-1~R1C1~R2C2~R3C3~R4C4~VA1~VA2.~R1C2_3",
            4,
            2,
            4,
            boxes_4x4(),
            vec![(1, 3)],
            |g| g[0] + g[5] + g[10] + g[15] == 10 * g[16] + g[17],
        ),
        // Values from 0 (digit 1 the value 0), outside too: the pair of
        // cells outside sums with R1C1 to 4 in values.
        (".Shape~3x3~0-2.Var~A~~2.Sum~4~R1C1~VA1~VA2.~VA1_0", 3, 2, 3, vec![], vec![(9, 1)], |g| {
            (g[0] - 1) + (g[9] - 1) + (g[10] - 1) == 4
        }),
    ];
    let mut counter = Counter::new(Plan::new(Encoding::default()));
    for (text, n, extra, values, groups, givens, keep) in cases {
        let puzzle = parse(text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(puzzle.vars(), *extra, "{text}");
        let expected = count_with_outside(*n, *extra, *values, groups, givens, *keep);
        assert!(expected > 0, "{text}: a case with no solution proves little");
        counts_both_ways(&mut counter, &puzzle, text, expected);
    }
    // The native format's cells outside the grid (`outside K`, named
    // `v1`..`vK`), on the same oracle.
    let native: &[Case] = &[
        ("size 3\nbox none\noutside 2\n", 3, 2, 3, vec![], vec![], |_| true),
        // Two cells outside read in base 3 (ISS's Sum with factors).
        ("size 3\nbox none\noutside 2\nsum-of r1c1 r2c2 r3c3 -3*v1 -1*v2 = 0\n", 3, 2, 3, vec![], vec![], |g| {
            g[0] + g[4] + g[8] == 3 * g[9] + g[10]
        }),
        (
            "size 3\nbox none\noutside 2\nkiller r1c1 v1 = 4\nextra v1 v2 r1c2\n",
            3,
            2,
            3,
            vec![vec![9, 10, 1]],
            vec![],
            |g| g[0] + g[9] == 4 && g[0] != g[9],
        ),
        ("size 3\nbox none\noutside 2\narrow v1 : r1c1 r2c2\nthermo r3c3 v2\n", 3, 2, 3, vec![], vec![], |g| {
            g[9] == g[0] + g[4] && g[8] < g[10]
        }),
        (
            "size 4\noutside 2\ngivens\n.3..\n....\n....\n....\nwhite v1 v2\ngiven v2 = 2\n",
            4,
            2,
            4,
            boxes_4x4(),
            vec![(1, 3), (17, 2)],
            |g| g[16].abs_diff(g[17]) == 1,
        ),
        (
            "size 3\nbox none\nvalues 1-4\noutside 1\neither\nthermo v1 r1c1\nor\nx v1 r3c3\nend\n",
            3,
            1,
            4,
            vec![],
            vec![],
            |g| g[9] < g[0] || g[9] + g[8] == 10,
        ),
    ];
    for (text, n, extra, values, groups, givens, keep) in native {
        let puzzle = parse(text, "t", Some(Format::Puzzle)).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(puzzle.vars(), *extra, "{text}");
        let expected = count_with_outside(*n, *extra, *values, groups, givens, *keep);
        assert!(expected > 0, "{text}: a case with no solution proves little");
        counts_both_ways(&mut counter, &puzzle, text, expected);
    }
    for (text, why) in [
        ("size 3\nbox none\nkiller v1 = 2\n", "3:8: \"v1\" is a cell outside the grid, and the puzzle has none"),
        ("size 3\nbox none\noutside 2\nkiller v3 = 2\n", "4:8: expected a cell r1c1 or v1 to v2, found \"v3\""),
        ("size 3\nbox none\noutside 1\nantiking\n", "4:1: antiking with cells outside the grid (line 3)"),
        ("size 3\nbox none\noutside 1\ndiagonal+\n", "4:1: diagonal+ on cells outside the grid (line 3)"),
        ("size 3\nbox none\noutside 0\n", "3:9: expected how many cells outside the grid"),
        ("size 9\noutside 600\n", "600 cells outside a 9x9 grid"),
        ("size 3\nbox none\noutside 1\nquadruple v1 1\n", "4:11: quadruple: the cell is the top left of a 2 x 2"),
    ] {
        let e = parse(text, "t", Some(Format::Puzzle)).expect_err(text).to_string();
        assert!(e.contains(why), "{text}: {e}");
    }
    // A doppelganger's cells outside the grid, named by a rule: each the
    // value its column (`DGR`), row (`DGC`) or box (`DGB`) misses, so
    // that the count is the grids' where the rule holds on those.
    let text = ".Shape~4x4~0-4.Doppelganger.Thermo~DGR1~DGC2.Thermo~DGB4~R4C4.~R1C1_0";
    let puzzle = parse(text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{text}: {e}"));
    let expected = count_fillings(4, 5, &boxes_4x4(), &[(0, 1)], |g| {
        doppelganger(g).is_some_and(|[rows, columns, boxes]| columns[0] < rows[1] && boxes[3] < g[15])
    });
    assert!(expected > 0, "{text}: a case with no solution proves little");
    counts_both_ways(&mut counter, &puzzle, text, expected);
    // A relation from a grid cell to the cell outside under it in the
    // model is no dot in ISS (no cell outside neighbours the grid): it is
    // written as a pair of values, and reads back.
    let mut puzzle = Puzzle::latin(3).unwrap();
    let outside = puzzle.add_vars(1).unwrap()[0];
    let diff = satsudoku::model::Predicate::Difference { diff: 1 };
    puzzle.add_relation(satsudoku::model::Cell::new(2, 0), outside, diff).unwrap();
    let expected = count_with_outside(3, 1, 3, &[], &[], |g| g[6].abs_diff(g[9]) == 1);
    counts_both_ways(&mut counter, &puzzle, "R3C1 and the cell under it differ by 1", expected);
    refused(&[
        (".Shape~3x3.Var~a", "a Var's prefix is capital letters A-Z"),
        (".Shape~3x3.Var~A.Var~A", "a second Var of prefix \"A\""),
        (".Shape~3x3.Var~A~~0", "expected a Var size of K or RxC cells, found \"0\""),
        (".Shape~3x3.Var~A~~two", "expected a Var size"),
        (".Shape~3x3.Var~A~~2.Replicate~_.~VA1_1.End", "\"VA1_1\" inside Replicate: a cell outside the grid"),
        (".Var~A.AntiKnight", "ISS constraint AntiKnight with cells outside the grid (Var): not read yet"),
        (".Var~A.ChaosConstruction", "ISS constraint ChaosConstruction with cells outside the grid"),
        (".Shape~3x3.~VB_1", "\"VB\": a cell outside the grid that no Var declares"),
        // Neighbours in ISS's layout only: not diagonally in a group, not
        // from one group to the next, not from the grid.
        (".Shape~3x3.Var~D~~2x2.WhiteDot~VD2~VD3", "WhiteDot enforces nothing: no two of its cells are neighbours"),
        (".Shape~3x3.Var~A~~2.Var~B.X~VA2~VB", "X enforces nothing"),
        (".Shape~3x3.Var~A~~3.GreaterThan~R3C1~VA1", "GreaterThan enforces nothing"),
        (".Shape~3x3.Var~A~~2x17", "expected a Var size of K or RxC cells, found \"2x17\""),
        (".Var~A~~9999", "expected a Var size of K or RxC cells, found \"9999\""),
        (".Var~A~~600", "600 cells outside a 9x9 grid: they need a model of side 76, past 64"),
    ]);
}

/// The native format's values from 0 (`values 0-V`): givens written as
/// values (`0` one of them), sums of values in cages and arrows, orders,
/// differences and given values, and ISS's doppelganger on a 4x4 of
/// values 0-4, against the test's own enumeration (digit `d` the value
/// `d - 1`); rules that read values themselves are refused there.
#[test]
fn native_values_from_zero_count_as_the_oracle() {
    type Case = (&'static str, usize, u32, Vec<Vec<usize>>, Vec<(usize, u32)>, Rule);
    let cases: &[Case] = &[
        ("size 3\nbox none\nvalues 0-2\ngivens\n0..\n...\n...\n", 3, 3, vec![], vec![(0, 1)], |_| true),
        ("size 3\nbox none\nvalues 0-2\nkiller r1c2 r1c3 = 3\n", 3, 3, vec![], vec![], |g| {
            (g[1] - 1) + (g[2] - 1) == 3
        }),
        ("size 3\nbox none\nvalues 0-2\narrow r2c2 : r1c1 r3c3\n", 3, 3, vec![], vec![], |g| {
            g[4] - 1 == (g[0] - 1) + (g[8] - 1)
        }),
        ("size 3\nbox none\nvalues 0-3\nthermo r1c1 r2c1 r3c1\ngiven r2c2 = 0\n", 3, 4, vec![], vec![(4, 1)], |g| {
            g[0] < g[3] && g[3] < g[6]
        }),
        (
            "size 4\nvalues 0-3\ngivens\n.3..\n....\n....\n...0\nwhite r2c1 r2c2\n",
            4,
            4,
            boxes_4x4(),
            vec![(1, 4), (15, 1)],
            |g| g[4].abs_diff(g[5]) == 1,
        ),
        ("size 4\nbox 2x2\nvalues 0-4\ndoppelganger\ngiven r1c1 = 0\n", 4, 5, boxes_4x4(), vec![(0, 1)], |g| {
            doppelganger(g).is_some()
        }),
        ("size 4\nbox 2x2\nvalues 0-4\ndoppelganger\nkiller r1c1 r1c2 = 7\n", 4, 5, boxes_4x4(), vec![], |g| {
            doppelganger(g).is_some() && (g[0] - 1) + (g[1] - 1) == 7
        }),
        // ISS's Sum: a cell listed twice counts twice, coefficients, values.
        ("size 3\nbox none\nvalues 0-2\nsum-of r1c1 r1c1 -1*r3c3 2*r2c2 = 3\n", 3, 3, vec![], vec![], |g| {
            2 * (g[0] as i64 - 1) - (g[8] as i64 - 1) + 2 * (g[4] as i64 - 1) == 3
        }),
    ];
    let mut counter = Counter::new(Plan::new(Encoding::default()));
    for (text, n, values, groups, givens, keep) in cases {
        let puzzle = parse(text, "t", Some(Format::Puzzle)).unwrap_or_else(|e| panic!("{text}: {e}"));
        let expected = count_fillings(*n, *values, groups, givens, *keep);
        assert!(expected > 0, "{text}: a case with no solution proves little");
        counts_both_ways(&mut counter, &puzzle, text, expected);
    }
    for (text, why) in [
        ("size 3\nbox none\nvalues 0-2\nx r1c1 r1c2\n", "4:1: x on a grid of values from 0 (line 3): not read there"),
        ("size 3\nbox none\nvalues 0-2\ngivens\n3..\n", "5:1: digit \"3\""),
        ("size 3\nbox none\nvalues 0-2\ngiven r1c1 = 3\n", "4:14: given: expected a value from 0 to 2, found 3"),
        ("size 3\nbox none\nvalues 0-1\n", "3:8: expected values 1-V or 0-V, as many as the side 3"),
        ("size 4\nbox 2x2\nvalues 0-3\ndoppelganger\n", "4:1: doppelganger: a doppelganger needs values 0-4"),
        ("size 4\nvalues 0-4\nregions\naabb\naabb\nccdd\nccdd\ndoppelganger\n", "8:1: doppelganger with regions"),
        ("size 3\nbox none\nvalues 0-2\nchaos\n", "4:1: chaos on a grid of values from 0"),
    ] {
        let e = parse(text, "t", Some(Format::Puzzle)).expect_err(text).to_string();
        assert!(e.contains(why), "{text}: {e}");
    }
}

/// A 4x4 of values 1-8 in two boxes of 2x4 (ISS's `4x4~8` with
/// `RegionSize~8`): its count is 8! top halves times the bottom halves
/// whose columns avoid the top's, counted here over the permutations.
/// Counting it panicked now and then (the transposition shortcut read
/// givens past the side as digits of a side's renaming), so it is
/// counted several times.
#[test]
fn a_grid_of_more_values_in_large_boxes_counts_every_time() {
    use itertools::Itertools;
    let top = [1, 2, 3, 4, 5, 6, 7, 8];
    let bottoms = (1..=8u32)
        .permutations(8)
        .filter(|b| (0..4).all(|c| ![top[c], top[4 + c]].contains(&b[c]) && ![top[c], top[4 + c]].contains(&b[4 + c])))
        .count() as u64;
    let expected = 40320 * bottoms;
    let puzzle = parse("size 4\nvalues 1-8\nbox 2x4\n", "t", Some(Format::Puzzle)).unwrap();
    // The native format's boxes of the values' size are ISS's RegionSize.
    assert_eq!(parse(".Shape~4x4~8.RegionSize~8", "t", Some(Format::Iss)).unwrap(), puzzle);
    for _ in 0..8 {
        let mut counter = Counter::new(Plan::new(Encoding::default()));
        assert_eq!(counter.count(&puzzle, &mut ()).unwrap().count.to_string(), expected.to_string());
    }
}

/// The cells outside the grid print after its rows, on the command line:
/// `unique`'s line, `count --print`'s rows, `candidates` (text and
/// JSON); the formats without them
/// refuse them by name.
#[test]
fn cells_outside_the_grid_print_after_the_grid() {
    use crate::common::satsudoku;
    // The first row, the first column and R2C2 fix the 3x3 Latin square
    // 123/231/312; the cells outside are 1+2 and 3.
    let text = ".Shape~3x3.Var~A~~2.~R1C1_1~R1C2_2~R2C1_2~R2C2_3.Sum~3~VA1~R1C1.~VA2_3";
    satsudoku().args(["unique", "-"]).write_stdin(text).assert().success().stdout("unique\t12323131223\n");
    satsudoku()
        .args(["count", "--print", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout("% solution 1\n1 2 3\n2 3 1\n3 1 2\n2 3\nsolutions(1).\n");
    // Candidates: the cells outside follow the grid's rows. By hand:
    // R1C1 and v1 are 1 and 3 (a cage of 4), so R1C2 is 2 and v2 is R1C1.
    let native = "size 3\nbox none\noutside 2\nkiller r1c1 v1 = 4\nextra v1 v2 r1c2\n";
    let out = satsudoku().args(["candidates", "--format", "puzzle", "-"]).write_stdin(native).output().unwrap();
    let shown = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(shown.lines().next(), Some("13  2   13"), "{shown}");
    assert_eq!(shown.lines().last(), Some("13  13"), "{shown}");
    assert_eq!(shown.lines().count(), 4, "{shown}");
    let args = ["candidates", "--output", "json", "--format", "puzzle", "-"];
    let out = satsudoku().args(args).write_stdin(native).output().unwrap();
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cells = record["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 11, "{record}");
    assert_eq!((&cells[9]["cell"], &cells[10]["digits"]), (&serde_json::json!("r4c1"), &serde_json::json!([1, 3])));
    satsudoku()
        .args(["export", "--as", "mzn", "-"])
        .write_stdin(text)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("2 cells outside the grid"));
    satsudoku()
        .args(["rate", "-"])
        .write_stdin(text)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cells outside the grid"));
}

type Rule = fn(&[u32]) -> bool;

/// The 2x2 boxes of a 4x4, as cell indices.
fn boxes_4x4() -> Vec<Vec<usize>> {
    [0, 2, 8, 10].iter().map(|&c| vec![c, c + 1, c + 4, c + 5]).collect()
}

/// Grids of more values than their side (`Shape~3x3~4`, `4x4~8`) and
/// regions of another size (`RegionSize`, boxes of that many cells as ISS
/// shapes them, jigsaw pieces of it with one piece of another size left
/// out), against the test's own enumeration, before and after a round
/// trip through `export --as iss`; ISS's examples of them are checked
/// with their published solutions by `every_iss_example...`.
#[test]
fn grids_of_more_values_count_as_the_oracle() {
    let given = |cells: &[usize], values: &[u32]| cells.iter().copied().zip(values.iter().copied()).collect::<Vec<_>>();
    // The string, the side, the values, the groups beside rows and
    // columns, the givens (cell, value) and the rest of the rules.
    type Case = (&'static str, usize, u32, Vec<Vec<usize>>, Vec<(usize, u32)>, Rule);
    let cases: &[Case] = &[
        (".Shape~3x3~4", 3, 4, vec![], vec![], |_| true),
        (".Shape~3x3~1-4.Thermo~R1C1~R1C2~R1C3.Cage~7~R2C1~R3C1", 3, 4, vec![], vec![], |g| {
            g[0] < g[1] && g[1] < g[2] && g[3] + g[6] == 7 && g[3] != g[6]
        }),
        (".Shape~3x3~0-3.Sum~3~R1C1~R2C2", 3, 4, vec![], vec![], |g| g[0] + g[4] == 3 + 2),
        // Candidates past the side (written back as such).
        (".Shape~3x3~5.~R1C1_4_5", 3, 5, vec![], vec![], |g| g[0] >= 4),
        (".Shape~3x3~5.Skyscraper~R1~2~.V~R3C3~R3C2", 3, 5, vec![], vec![], |g| {
            let seen = (0..3).filter(|&i| (0..i).all(|j| g[j] < g[i])).count();
            seen == 2 && g[8] + g[7] == 5
        }),
        (
            ".Shape~4x4~8.RegionSize~8.~R1C1_1~R1C2_2~R1C3_3~R2C1_4~R2C2_5~R3C1_6~R3C2_7~R3C3_8~R4C1_2",
            4,
            8,
            vec![(0..8).collect(), (8..16).collect()],
            given(&[0, 1, 2, 4, 5, 8, 9, 10, 12], &[1, 2, 3, 4, 5, 6, 7, 8, 2]),
            |_| true,
        ),
        // Jigsaw "AAAAABBBBBCCCCCD": pieces of five cells, the last cell none.
        (
            ".Shape~4x4~6.RegionSize~5.NoBoxes.Jigsaw~AAAAABBBBBCCCCCD.~R1C1_1~R2C2_2~R3C3_3",
            4,
            6,
            vec![(0..5).collect(), (5..10).collect(), (10..15).collect()],
            given(&[0, 5, 10], &[1, 2, 3]),
            |_| true,
        ),
        // Every row, column and box (the largest regions, smaller than
        // the values) holds the same values.
        (".Shape~4x4~5.RegionSameValues.~R1C1_1~R1C2_2", 4, 5, boxes_4x4(), given(&[0, 1], &[1, 2]), |g| {
            let set = |cells: Vec<usize>| {
                let mut values: Vec<u32> = cells.iter().map(|&c| g[c]).collect();
                values.sort_unstable();
                values
            };
            let mut regions: Vec<Vec<usize>> = boxes_4x4();
            regions.extend((0..4).map(|i| (0..4).map(|j| i * 4 + j).collect()));
            regions.extend((0..4).map(|i| (0..4).map(|j| j * 4 + i).collect()));
            regions.into_iter().all(|r| set(r) == set(vec![0, 1, 2, 3]))
        }),
        // Doppelganger on values 0-4 (digit 1 the value 0): each row,
        // column and box holds a 0 and misses one value of 1-4, no two of
        // a kind miss the same, and at a 0 its three regions miss three.
        (".Shape~4x4~0-4.Doppelganger.~R1C1_0", 4, 5, boxes_4x4(), given(&[0], &[1]), |g| doppelganger(g).is_some()),
        // ISS's SameValues: the cells in order, two sets of two.
        (".Shape~4x4.SameValues~2~R1C1~R1C2~R3C3~R4C4", 4, 4, boxes_4x4(), vec![], |g| {
            let (mut a, mut b) = ([g[0], g[1]], [g[10], g[15]]);
            a.sort_unstable();
            b.sort_unstable();
            a == b
        }),
    ];
    let mut counter = Counter::new(Plan::new(Encoding::default()));
    for (text, n, values, groups, givens, keep) in cases {
        let puzzle = parse(text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(puzzle.digits(), *values as usize, "{text}");
        let expected = count_fillings(*n, *values, groups, givens, *keep);
        assert!(expected > 0, "{text}: a case with no solution proves little");
        counts_both_ways(&mut counter, &puzzle, text, expected);
    }
    refused(&[
        (".Shape~4x4~3", "values 3 on a 4x4 grid"),
        (".Shape~4x4~6.RegionSize~7", "regions of 7 cells"),
        (".Shape~4x4~6.Sandwich~5~R1", "ISS constraint Sandwich on a grid of 6 values"),
        (".Shape~4x4~6.RegionSize~5.NoBoxes.Jigsaw~AAAAABBBBBCCCDDD", "jigsaw region 'D' has 3 cells, not 5"),
    ]);
}

/// A 4x4 doppelganger on values 0-4 (digit 1 the value 0), if `g` is
/// one: each row, column and box holds a 0 and misses one value of 1-4,
/// no two of a kind miss the same, and at a 0 its three regions miss
/// three; then the digit each row, column and box misses.
fn doppelganger(g: &[u32]) -> Option<[Vec<u32>; 3]> {
    let lines = |cells: &[usize]| (2..=5).filter(|&d| !cells.iter().any(|&c| g[c] == d)).collect::<Vec<u32>>();
    let rows: Vec<Vec<usize>> = (0..4).map(|i| (0..4).map(|j| i * 4 + j).collect()).collect();
    let columns: Vec<Vec<usize>> = (0..4).map(|i| (0..4).map(|j| j * 4 + i).collect()).collect();
    let mut missing_at: Vec<Vec<u32>> = vec![Vec::new(); 16];
    let mut missing: [Vec<u32>; 3] = Default::default();
    for (kind, seen) in [rows, columns, boxes_4x4()].iter().zip(&mut missing) {
        for cells in kind {
            let gone = lines(cells);
            if !cells.iter().any(|&c| g[c] == 1) || gone.len() != 1 || seen.contains(&gone[0]) {
                return None;
            }
            seen.push(gone[0]);
            cells.iter().for_each(|&c| missing_at[c].push(gone[0]));
        }
    }
    let three = |c: usize| missing_at[c].iter().collect::<std::collections::BTreeSet<_>>().len() == 3;
    (0..16).all(|c| g[c] != 1 || three(c)).then_some(missing)
}

/// ISS's `Replicate`: the items up to its `.End` shifted onto each target
/// cell of its bitset (from `R1C1`, or the origin given), all holding;
/// inside an `Or` the copies are one alternative. Against the test's own
/// count on 4x4, and the refusals ISS makes.
#[test]
fn replicate_counts_as_the_oracle() {
    // "BQ": bit 0 (R1C1) and bit 10 (R3C3); "C" from R2C2: bit 1 (R2C3).
    let cases: &[(&str, Rule)] = &[
        (".Replicate~BQ.Thermo~R1C1~R1C2.End", |g| g[0] < g[1] && g[10] < g[11]),
        (".Replicate~C~R2C2.~R2C2_3.End", |g| g[6] == 3),
        (".Or.Replicate~BQ.~R1C1_1.End.~R4C4_4.End", |g| (g[0] == 1 && g[10] == 1) || g[15] == 4),
        (".Replicate~BQ.Replicate~C.Whisper~2~R1C1~R2C1.End.End", |g| {
            // The inner copy lands on R1C2 (whisper R1C2-R2C2), the outer
            // ones on R1C1 and R3C3: R1C2-R2C2 and R3C4-R4C4.
            g[1].abs_diff(g[5]) >= 2 && g[11].abs_diff(g[15]) >= 2
        }),
    ];
    let mut counter = Counter::new(Plan::new(Encoding::default()));
    for (rule, holds) in cases {
        let text = format!(".Shape~4x4{rule}");
        let puzzle = parse(&text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{rule}: {e}"));
        let expected = crate::common::count_grids(4, (2, 2), &[0; 16], holds);
        assert!(expected > 0 && expected < 288, "{rule}: {expected} proves little");
        assert_eq!(counter.count(&puzzle, &mut ()).unwrap().count.to_string(), expected.to_string(), "{rule}");
    }
    let deep = format!("{}.And.End{}", ".Replicate~B".repeat(17), ".End".repeat(17));
    for (text, message) in [
        (".Replicate~BQ.Thermo~R1C3~R1C4.End", "\"R1C3\" replicated falls outside the 4x4 grid"),
        (".Replicate~B.Skyscraper~R1~2~.End", "Skyscraper is not allowed inside Replicate"),
        (".Replicate~B.Thermo~R1C1~R1C2", "this Replicate has no .End"),
        (".Replicate~B*.End", "expected a bitset in base64url"),
        (&deep, "Replicate nested deeper than 16"),
        // Twelve copies a level, five levels: bounded, not built.
        (
            ".Replicate~__.Replicate~__.Replicate~__.Replicate~__.Replicate~__.And.End.End.End.End.End.End",
            "Replicate makes more than 100000 items",
        ),
    ] {
        let e = parse(&format!(".Shape~4x4{text}"), "t", Some(Format::Iss)).unwrap_err().to_string();
        assert!(e.contains(message), "{text}: {e}");
    }
}

/// Every model a count finds.
#[derive(Default)]
struct Models(Vec<Grid>);

impl satsudoku::count::Observer for Models {
    fn wants_models(&self) -> bool {
        true
    }
    fn model(&mut self, _index: u128, grid: &Grid) -> std::ops::ControlFlow<()> {
        self.0.push(grid.clone());
        std::ops::ControlFlow::Continue(())
    }
}

/// ISS's "0-indexed: Sums and indexing": ISS says unique, and there are
/// 201 solutions. ISS's sandwich is its lunchbox handler, which on values
/// from 0 remaps its table of combinations by the offset but not the range
/// of distances between the crusts (`Lunchbox.initialize`: `_distances =
/// distanceRange[sum]`, looked up with the sum unshifted), so a sandwich
/// of 17 between the 0 and the 8 may not hold 5 cells there (their values
/// shifted sum to at least 20): 200 grids are pruned, though ISS accepts
/// each when all its cells are given (its exact-sum shortcut runs first).
/// The oracle: ISS's own count of the puzzle without the sandwich (2,537,
/// `node run_iss.mjs --limit 0`), whose grids the test filters by its own
/// reading of the sandwich on values.
#[test]
fn iss_prunes_long_sandwiches_on_values_from_zero() {
    let entry = corpus().into_iter().find(|e| e["name"] == "0-indexed: Sums and indexing").unwrap();
    let input = entry["input"].as_str().unwrap();
    let without = input.replace(".Sandwich~17~R5", "");
    assert_ne!(without, input);
    let all = |text: &str| {
        let puzzle = parse(text, "t", Some(Format::Iss)).unwrap();
        let mut models = Models::default();
        Counter::new(Plan::new(Encoding::default())).count(&puzzle, &mut models).unwrap();
        models.0
    };
    let grids = all(&without);
    assert_eq!(grids.len(), 2537, "ISS counts 2,537 without the sandwich");
    let row5 = |g: &Grid| g.rows().nth(4).unwrap().iter().map(|&d| i64::from(d) - 1).collect::<Vec<_>>();
    let kept: Vec<&Grid> = grids.iter().filter(|g| between(&row5(g)) == 17).collect();
    let with = all(input);
    assert_eq!(with.len(), kept.len());
    assert_eq!(kept.len(), 201);
    let published = entry["solution"].as_str().unwrap();
    let square = parse(input, "t", Some(Format::Iss)).unwrap();
    assert!(with.iter().any(|g| values(g, &square) == published));
    // The sandwiches ISS would allow: 4 cells or fewer between.
    let short = |g: &&&Grid| {
        let row = row5(g);
        let (a, b) = (row.iter().position(|&v| v == 0).unwrap(), row.iter().position(|&v| v == 8).unwrap());
        a.abs_diff(b) - 1 <= 4
    };
    assert_eq!(kept.iter().filter(short).count(), 1, "ISS's one solution");
}

/// The grid engine, which does not learn, hands a search to varisat after
/// `GRID_JUDGE_DECISIONS` (2^12) where the enum engine gets 2^18: ISS's
/// "16x16: Sudoku X, very hard" with one more given from its solution
/// takes the grid engine 109,204 decisions to the end, and its "16x16:
/// Sudoku X, hard" 58,052, so varisat judges and counts them; ISS's
/// "16x16" (1,372) stays with the grid engine. Every answer is ISS's: one
/// solution, the published one.
#[test]
fn the_grid_engine_hands_long_searches_to_varisat_sooner() {
    let cases = [
        ("16x16: Sudoku X, very hard", ".~RbC4_7", "engine: blocking"),
        ("16x16: Sudoku X, hard", "", "engine: blocking"),
        ("16x16", "", "engine: grid"),
    ];
    for (name, extra, engine) in cases {
        let entry = corpus().into_iter().find(|e| e["name"] == name).unwrap();
        let text = format!("{}{extra}", entry["input"].as_str().unwrap().trim());
        let puzzle = parse(&text, "t", Some(Format::Iss)).unwrap();
        let published = iss_solution(entry["solution"].as_str().unwrap(), 16);
        let mut plan = Plan::new(Encoding::default());
        (plan.details, plan.jobs) = (true, Some(1));
        plan.limits.max = Some(2);
        let tally = Counter::new(plan).count(&puzzle, &mut ()).unwrap();
        assert!(tally.is_exact(), "{name}");
        assert_eq!(tally.count, 1u32.into(), "{name}");
        assert!(tally.details.iter().any(|d| d.starts_with(engine)), "{name}: {:?}", tally.details);
        match Counter::new(Plan::new(Encoding::default())).judge(&puzzle).unwrap() {
            Verdict::Unique(grid) => assert_eq!(digits(&grid), published, "{name}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// Every puzzle of ISS's own list is read without `--format` as with
/// `--format iss`: constraint strings (also those that start with an empty
/// item, `..Cage~`), the killer shorthands, the jigsaw shorthand with
/// givens and pencil marks are detected as ISS's (and a type refused is
/// refused alike); a plain grid is the `givens` format's line, read
/// alike.
#[test]
fn every_iss_example_is_detected() {
    let mut detected = std::collections::BTreeMap::new();
    for entry in corpus() {
        let text = entry["input"].as_str().unwrap();
        let as_iss = parse(text, "t", Some(Format::Iss));
        let format = satsudoku::parse::detect(text, "t", Default::default());
        let what = format!("{:?}: {:?}", entry["name"], format);
        match format {
            Ok(Format::Iss) => {}
            Ok(Format::Givens) => assert_eq!(parse(text, "t", Some(Format::Givens)), as_iss, "{what}"),
            // A puzzle refused (chaos construction, var cells) is refused
            // for the same reason.
            Err(ref err) => assert_eq!(Err(err), as_iss.as_ref(), "{what}"),
            other => panic!("{:?} is detected as {other:?}", entry["name"]),
        }
        *detected.entry(format!("{format:?}")).or_insert(0) += 1;
    }
    // The corpus's plain grids are its 16x16 and 9x9 shorthands.
    assert!(detected.get("Ok(Iss)").is_some_and(|&n| n > 200), "{detected:?}");
}
