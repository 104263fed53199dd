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
    for rule in RULES {
        let native = format!("size 9\n{} {}\n", rule.keyword, rule.example);
        let from_native = parse(&native, "native", Some(Format::Puzzle))
            .unwrap_or_else(|e| panic!("{}: the native example does not read: {e}", rule.keyword));
        assert_ne!(from_native, empty, "{}: the example adds nothing", rule.keyword);
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
