//! The rule table ([`satsudoku::model::rules`]) against its readers and its
//! page: every rule's example is read by the native `puzzle` format and,
//! written as the editor writes it, by the f-puzzles reader, and the two
//! puzzles are the same; docs/rules.md shows the table as generated.

use satsudoku::model::rules::{self, Shape, RULES};
use satsudoku::model::Puzzle;
use satsudoku::parse::{parse, Format};
use serde_json::{json, Value};

/// The example's words: cells before `:`, cells after, the number after
/// `=`, the other words.
struct Example {
    first: Vec<String>,
    second: Vec<String>,
    value: Option<i64>,
    words: Vec<String>,
}

fn example(text: &str) -> Example {
    let mut ex = Example { first: Vec::new(), second: Vec::new(), value: None, words: Vec::new() };
    let mut words = text.split_whitespace();
    let mut after_colon = false;
    while let Some(w) = words.next() {
        match w {
            ":" => after_colon = true,
            "=" => ex.value = words.next().map(|v| v.parse().unwrap()),
            cell if cell.starts_with('r') && cell.contains('c') => {
                let name = cell.to_uppercase();
                if after_colon { &mut ex.second } else { &mut ex.first }.push(name);
            }
            other => ex.words.push(other.to_owned()),
        }
    }
    ex
}

/// The rule's example as an f-puzzles entry (or value) under its key.
fn fpuzzles_entry(rule: &rules::Rule, ex: &Example) -> Value {
    let mut entry = json!({});
    if let Some(v) = ex.value {
        entry["value"] = json!(v.to_string());
    }
    if let Some(selector) = rule.fpuzzles_value {
        entry["value"] = json!(selector);
    }
    match rule.shape {
        Shape::Whole => return json!(true),
        Shape::Names => {
            let names = ex.words.iter().map(|w| match w.as_str() {
                "white" => "difference",
                "black" => "ratio",
                other => other,
            });
            return json!(names.collect::<Vec<_>>());
        }
        Shape::Cells { .. } | Shape::Pair => entry["cells"] = json!(ex.first),
        Shape::EachCell => return json!(ex.first.iter().map(|c| json!({ "cell": c })).collect::<Vec<_>>()),
        Shape::Line { .. } => entry["lines"] = json!([ex.first]),
        Shape::CircleLine => {
            entry["cells"] = json!(ex.first);
            let line: Vec<String> = ex.first.iter().chain(&ex.second).cloned().collect();
            entry["lines"] = json!([line]);
        }
        Shape::Copies => {
            entry["cells"] = json!(ex.first);
            entry["cloneCells"] = json!(ex.second);
        }
        Shape::Quad => {
            let corner = &ex.first[0];
            let (r, c) = corner[1..].split_once('C').unwrap();
            let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
            let cells = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)].map(|(r, c)| format!("R{r}C{c}"));
            entry["cells"] = json!(cells);
            let digits: Vec<u64> = ex.words.iter().map(|d| d.parse().unwrap()).collect();
            entry["values"] = json!(digits);
        }
        Shape::Outside => entry["cell"] = json!(ex.first[0]),
        Shape::Parts | Shape::WordParts | Shape::Runs | Shape::Terms => {
            unreachable!("{}: the editor has no rule of parts", rule.keyword)
        }
    }
    json!([entry])
}

/// An empty 9x9 in f-puzzles JSON with one more key.
fn fpuzzles(key: &str, value: Value) -> String {
    let mut puzzle = json!({ "size": 9, "grid": vec![vec![json!({}); 9]; 9] });
    puzzle[key] = value;
    puzzle.to_string()
}

#[test]
fn every_rule_reads_alike_in_both_formats() {
    let empty = Puzzle::sudoku(3, 3).unwrap();
    let chaos = Puzzle::latin(9).unwrap().into_chaos().unwrap();
    for rule in RULES {
        // Region runs read a chaos construction's regions.
        let doppelganger = parse("size 9\nvalues 0-9\n", "native", Some(Format::Puzzle)).unwrap();
        let (layout, empty) = match (rule.shape, rule.keyword) {
            (Shape::Runs, _) => ("box none\nchaos\n", &chaos),
            (_, "doppelganger") => ("values 0-9\n", &doppelganger),
            _ => ("", &empty),
        };
        let native = format!("size 9\n{layout}{} {}\n", rule.keyword, rule.example);
        let from_native = parse(&native, "native", Some(Format::Puzzle))
            .unwrap_or_else(|e| panic!("{}: the native example does not read: {e}", rule.keyword));
        assert_ne!(&from_native, empty, "{}: the example adds nothing", rule.keyword);
        let Some(key) = rule.fpuzzles else { continue };
        let json = fpuzzles(key, fpuzzles_entry(rule, &example(rule.example)));
        let from_fpuzzles = parse(&json, "json", Some(Format::Fpuzzles))
            .unwrap_or_else(|e| panic!("{}: the f-puzzles example does not read: {e}\n{json}", rule.keyword));
        assert_eq!(from_native, from_fpuzzles, "{}: the readers disagree\n{native}\n{json}", rule.keyword);
    }
}

/// docs/rules.md holds the table as generated, between its markers
/// (`SATSUDOKU_BLESS=1 cargo test rules_page` writes it there).
#[test]
fn the_rules_page_shows_every_rule() {
    let path = "docs/rules.md";
    let page = std::fs::read_to_string(path).unwrap();
    let (begin, end) = ("<!-- rules:begin -->\n", "<!-- rules:end -->");
    let (head, rest) = page.split_once(begin).expect("docs/rules.md has a rules:begin marker");
    let (_, tail) = rest.split_once(end).expect("docs/rules.md has a rules:end marker");
    let table = rules::markdown();
    let wanted = format!("{head}{begin}{table}{end}{tail}");
    if std::env::var_os("SATSUDOKU_BLESS").is_some() {
        std::fs::write(path, &wanted).unwrap();
        return;
    }
    assert!(page == wanted, "docs/rules.md is not the generated table: run SATSUDOKU_BLESS=1 cargo test rules_page");
    for rule in RULES {
        assert!(page.contains(&format!("| `{}` |", rule.keyword)), "{} is not on the page", rule.keyword);
    }
}

/// `equal-sums`, read natively with any number of parts (ISS's `EqualSum`
/// past the two-part rules), on 4x4 grids with two givens: counted as the
/// oracle counts the grids whose parts have equal sums; ISS's `EqualSum`
/// of the same disjoint parts reads to the same puzzle; and malformed
/// parts are refused with their place.
#[test]
fn equal_sums_of_any_parts_count_as_the_oracle() {
    use crate::common::{count_grids, random_grid, rng, Draw};
    use satsudoku::count::plan::{count, Plan};
    use satsudoku::encode::Encoding;
    let name = |c: usize| format!("r{}c{}", c / 4 + 1, c % 4 + 1);
    let mut rng = rng(38);
    let (mut checked, mut nonzero) = (0, 0);
    for _ in 0..40 {
        let grid = random_grid(&mut rng, 4, (2, 2));
        let mut cells: Vec<usize> = (0..16).collect();
        rng.shuffle(&mut cells);
        let mut given = vec![0u32; 16];
        for &c in &cells[..2] {
            given[c] = grid[c];
        }
        // Two to four parts of one to three cells; disjoint on even draws.
        let count_parts = 2 + rng.below(3);
        let disjoint = checked % 2 == 0;
        let mut parts: Vec<Vec<usize>> = Vec::new();
        let mut next = 0;
        for _ in 0..count_parts {
            let size = 1 + rng.below(3);
            let part: Vec<usize> = if disjoint {
                next += size;
                cells[next - size..next].to_vec()
            } else {
                (0..size).map(|_| rng.below(16)).collect::<std::collections::BTreeSet<_>>().into_iter().collect()
            };
            parts.push(part);
        }
        let sums_equal = |g: &[u32]| {
            let sums: Vec<u32> = parts.iter().map(|p| p.iter().map(|&c| g[c]).sum()).collect();
            sums.iter().all(|&s| s == sums[0])
        };
        let expected = count_grids(4, (2, 2), &given, &sums_equal);
        let rows: Vec<String> = given
            .chunks(4)
            .map(|r| r.iter().map(|&d| if d == 0 { '.' } else { char::from(b'0' + d as u8) }).collect())
            .collect();
        let rule = parts.iter().map(|p| p.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" ")).collect::<Vec<_>>();
        let native = format!("size 4\ngivens\n{}\nequal-sums {}\n", rows.join("\n"), rule.join(" : "));
        let puzzle = match parse(&native, "native", Some(Format::Puzzle)) {
            Ok(puzzle) => puzzle,
            // A part holding another and more can never sum as it does:
            // refused, as any sum out of reach is.
            Err(e) if e.to_string().contains("out of reach") => {
                assert_eq!(expected, 0, "{e}\n{native}");
                continue;
            }
            Err(e) => panic!("{e}\n{native}"),
        };
        let counted = count(&puzzle, &Plan::new(Encoding::default()), &mut ()).unwrap().count;
        assert_eq!(counted, expected.into(), "{native}");
        if disjoint {
            let iss_parts =
                parts.iter().map(|p| p.iter().map(|&c| name(c).to_uppercase()).collect::<Vec<_>>().join("~"));
            let givens: String = (0..16)
                .filter(|&c| given[c] != 0)
                .map(|c| format!(".~{}_{}", name(c).to_uppercase(), given[c]))
                .collect();
            let iss = format!(".Shape~4x4{givens}.EqualSum~{}", iss_parts.collect::<Vec<_>>().join("~-~"));
            let from_iss = parse(&iss, "iss", Some(Format::Iss)).unwrap_or_else(|e| panic!("{e}\n{iss}"));
            assert_eq!(from_iss, puzzle, "{iss}\n{native}");
        }
        checked += 1;
        nonzero += usize::from(expected > 0);
    }
    assert!(checked >= 30 && nonzero >= 10, "{checked} draws counted, {nonzero} with solutions");
    refused(&[
        ("equal-sums r1c1 r1c2\n", "takes two or more parts"),
        ("equal-sums r1c1 : : r2c2\n", "2:19: equal-sums: a part with no cells before this ':'"),
        ("equal-sums r1c1 :\n", "2:17: equal-sums: a part with no cells after this ':'"),
        ("equal-sums r1c1 : r2c2 = 5\n", "2:24: equal-sums takes no '= N'"),
    ]);
}

/// `state-machine`, ISS's NFA read natively: `QGo` is the machine of the
/// language `1*` (decoded bit by bit in `model::nfa`'s test), so on 4x4 it
/// over r1c1 and r4c2 leaves the grids with both cells 1, as the oracle
/// counts them with those two givens; ISS's `NFA` of the same cells reads
/// to the same puzzle; two segments need a machine with a symbol past the
/// digits, and a token that is no machine is refused, both with their
/// place.
#[test]
fn a_state_machine_reads_natively_as_iss_reads_it() {
    use crate::common::count_grids;
    use satsudoku::count::plan::{count, Plan};
    use satsudoku::encode::Encoding;
    let native = parse("size 4\nstate-machine QGo r1c1 r4c2\n", "native", Some(Format::Puzzle)).unwrap();
    let mut given = vec![0u32; 16];
    (given[0], given[13]) = (1, 1);
    let expected = count_grids(4, (2, 2), &given, &|_| true);
    assert_eq!(count(&native, &Plan::new(Encoding::default()), &mut ()).unwrap().count, expected.into());
    let iss = parse(".Shape~4x4.NFA~QGo~R1C1~R4C2", "iss", Some(Format::Iss)).unwrap();
    assert_eq!(iss, native);
    refused(&[
        ("state-machine QGo r1c1 : r4c2\n", "2:1: state-machine: a state machine of 2 symbols over several segments"),
        ("state-machine !! r1c1\n", "2:1: state-machine: the state machine:"),
        ("state-machine QGo\n", "2:1: state-machine takes cells"),
    ]);
}

/// Each rule line, on a 4x4, is refused (exit 2) with the message.
fn refused(cases: &[(&str, &str)]) {
    for (bad, message) in cases {
        crate::common::assert_refused(&["count", "--format", "puzzle", "-"], &format!("size 4\n{bad}"), &[message]);
    }
}

/// `replicate ORIGIN : TARGETS ... end` (ISS's `Replicate`) on 4x4
/// Sudokus: a random template of a thermometer and a white dot, copied so
/// that the origin falls on each target (blocks nested on some rounds),
/// counted as the backtracker counts the grids that keep every copy; the
/// same puzzle as its copies written out; copies that leave the grid, an
/// `or` inside, and cells outside the grid inside are refused.
#[test]
fn replicate_blocks_count_as_the_oracle() {
    use crate::common::{count_grids, rng, Draw};
    use satsudoku::count::plan::{count, Plan};
    use satsudoku::encode::Encoding;
    let name = |(r, c): (usize, usize)| format!("r{}c{}", r + 1, c + 1);
    let mut rng = rng(41);
    let mut nonzero = 0;
    for round in 0..24 {
        // The template near the origin r1c1, the targets where it fits.
        let (a, b) = ((0, 0), [(0, 1), (1, 0)][rng.below(2)]);
        let (c, d) = ((1, 1), [(1, 2), (2, 1)][rng.below(2)]);
        let fits = |(r, c): (usize, usize)| r + 2 < 4 && c + 2 < 4;
        let mut targets: Vec<(usize, usize)> = (0..16).map(|k| (k / 4, k % 4)).filter(|&t| fits(t)).collect();
        rng.shuffle(&mut targets);
        targets.truncate(1 + rng.below(targets.len()));
        let nested = round % 3 == 2 && targets.iter().all(|&(r, _)| r == 0);
        let mut text =
            format!("size 4\nreplicate r1c1 : {}\n", targets.iter().map(|&t| name(t)).collect::<Vec<_>>().join(" "));
        // Nested: an inner copy one row down as well.
        if nested {
            text += "replicate r1c1 : r1c1 r2c1\n";
        }
        text += &format!("thermo {} {}\nwhite {} {}\n", name(a), name(b), name(c), name(d));
        text += if nested { "end\nend\n" } else { "end\n" };
        let mut shifts: Vec<(usize, usize)> = targets.clone();
        if nested {
            shifts = shifts.iter().flat_map(|&(r, c)| [(r, c), (r + 1, c)]).collect();
        }
        let at = |(r, c): (usize, usize), (dr, dc): (usize, usize)| (r + dr) * 4 + c + dc;
        let keep =
            |g: &[u32]| shifts.iter().all(|&s| g[at(a, s)] < g[at(b, s)] && g[at(c, s)].abs_diff(g[at(d, s)]) == 1);
        let expected = count_grids(4, (2, 2), &[0; 16], &keep);
        nonzero += usize::from(expected > 0);
        let puzzle = parse(&text, "t", Some(Format::Puzzle)).unwrap_or_else(|e| panic!("{text}: {e}"));
        let counted = count(&puzzle, &Plan::new(Encoding::default()), &mut ()).unwrap().count;
        assert_eq!(counted, expected.into(), "{text}");
        let mut written = String::from("size 4\n");
        for &(dr, dc) in &shifts {
            let m = |(r, c): (usize, usize)| name((r + dr, c + dc));
            written += &format!("thermo {} {}\nwhite {} {}\n", m(a), m(b), m(c), m(d));
        }
        assert_eq!(parse(&written, "t", Some(Format::Puzzle)).unwrap(), puzzle, "{text}\n{written}");
    }
    assert!(nonzero >= 8, "only {nonzero} with solutions");
    for (text, why) in [
        ("size 4\nreplicate r1c1 : r1c4\nthermo r1c1 r1c2\nend\n", "3:13: cell \"r1c2\" moved by a replicate block"),
        ("size 4\nreplicate r1c1 : r2c2\nthermo r1c1 r1c2\nor\nend\n", "4:1: or inside a replicate block"),
        ("size 4\nreplicate r1c1 r2c2\nend\n", "2:1: replicate takes a cell, ':'"),
        ("size 4\nreplicate r1c1 : r2c2\nthermo r1c1 r1c2\n", "2:1: a replicate block with no end"),
        ("size 3\nbox none\noutside 1\nreplicate r1c1 : r2c2\nend\n", "4:1: replicate with cells outside the grid"),
    ] {
        let e = parse(text, "t", Some(Format::Puzzle)).expect_err(text).to_string();
        assert!(e.contains(why), "{text}: {e}");
    }
}
