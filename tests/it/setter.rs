//! `minimal`, `rate` and `generate` (issue 37), each answer checked by an
//! oracle written here: the backtracking counter of `common` for
//! uniqueness, redundancy and minimality, and a naked-and-hidden-singles
//! solver for the easy level.

use std::collections::BTreeSet;

use serde_json::Value;

use satsudoku::count::enumerate::Prober;
use satsudoku::encode::{encode, Encoding};
use satsudoku::model::rules::{by_keyword, Args, Context};
use satsudoku::model::Puzzle;

use super::common::{assert_refused, count_grids, random_grid, rng, satsudoku, Draw};

/// Givens as a line: digits, `.` for 0.
fn line_of(givens: &[u32]) -> String {
    givens.iter().map(|&d| if d == 0 { '.' } else { char::from_digit(d, 36).unwrap() }).collect()
}

/// A givens line back as digits.
fn digits_of(line: &str) -> Vec<u32> {
    line.chars().map(|c| c.to_digit(36).unwrap_or(0)).collect()
}

/// `r1c2=5` as (index, digit) on a grid of side `n`.
fn cell_digit(text: &str, n: usize) -> (usize, u32) {
    let (cell, digit) = text.split_once('=').unwrap();
    let (r, c) = cell[1..].split_once('c').unwrap();
    let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
    ((r - 1) * n + c - 1, digit.parse().unwrap())
}

fn count(n: usize, shape: (usize, usize), givens: &[u32]) -> u64 {
    count_grids(n, shape, givens, &|_| true)
}

fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Random 4x4 and 6x6 puzzles (a random grid's cells, some kept): what
/// `minimal` says of each is what the oracle finds. A unique puzzle's
/// redundant givens are exactly those whose removal leaves one solution;
/// its kept givens are unique and minimal; a puzzle with several
/// solutions is made unique by the cells added, with the solution's
/// digits, and no smaller set of open cells does when it says `fewest`.
#[test]
fn minimal_agrees_with_the_oracle() {
    let mut rng = rng(37);
    for (n, shape, keep) in [(4, (2, 2), 3..9), (6, (2, 3), 8..16)] {
        let mut puzzles = Vec::new();
        for _ in 0..25 {
            let grid = random_grid(&mut rng, n, shape);
            let mut cells: Vec<usize> = (0..n * n).collect();
            rng.shuffle(&mut cells);
            let k = keep.start + rng.below(keep.end - keep.start);
            let mut givens = vec![0; n * n];
            for &i in &cells[..k] {
                givens[i] = grid[i];
            }
            puzzles.push(givens);
        }
        let text: String = puzzles.iter().map(|g| line_of(g) + "\n").collect();
        let out = satsudoku().args(["minimal", "--output", "json", "-j", "2", "-"]).write_stdin(text).output().unwrap();
        let records = json_lines(&out.stdout);
        assert_eq!(records.len(), puzzles.len(), "{}", String::from_utf8_lossy(&out.stderr));
        let mut seen = BTreeSet::new();
        for (givens, record) in puzzles.iter().zip(&records) {
            let solutions = count(n, shape, givens);
            let verdict = record["verdict"].as_str().unwrap();
            seen.insert(verdict.to_owned());
            match solutions {
                0 => assert_eq!(verdict, "none"),
                1 => {
                    assert_eq!(verdict, "unique");
                    let redundant: BTreeSet<usize> = record["redundant"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|t| cell_digit(t.as_str().unwrap(), n).0)
                        .collect();
                    for i in (0..n * n).filter(|&i| givens[i] != 0) {
                        let mut fewer = givens.clone();
                        fewer[i] = 0;
                        assert_eq!(redundant.contains(&i), count(n, shape, &fewer) == 1, "{}", line_of(givens));
                    }
                    assert_eq!(record["minimal"], Value::Bool(redundant.is_empty()));
                    let kept = digits_of(record["kept"].as_str().unwrap());
                    assert!(kept.iter().zip(givens).all(|(&k, &g)| k == 0 || k == g));
                    assert_eq!(count(n, shape, &kept), 1);
                    for i in (0..n * n).filter(|&i| kept[i] != 0) {
                        let mut fewer = kept.clone();
                        fewer[i] = 0;
                        assert!(count(n, shape, &fewer) > 1, "kept {} is not minimal", line_of(&kept));
                    }
                }
                _ => {
                    assert_eq!(verdict, "multiple");
                    let solution = digits_of(record["solution"].as_str().unwrap());
                    assert_eq!(count(n, shape, &solution), 1);
                    let mut more = givens.clone();
                    let added: Vec<(usize, u32)> =
                        record["add"].as_array().unwrap().iter().map(|t| cell_digit(t.as_str().unwrap(), n)).collect();
                    for &(i, d) in &added {
                        assert_eq!((givens[i], solution[i]), (0, d));
                        more[i] = d;
                    }
                    assert_eq!(count(n, shape, &more), 1, "{} + {added:?}", line_of(givens));
                    if record["proven"] == Value::Bool(true) && added.len() > 1 {
                        let open: Vec<usize> = (0..n * n).filter(|&i| givens[i] == 0).collect();
                        for subset in itertools::Itertools::combinations(open.iter(), added.len() - 1) {
                            let mut fewer = givens.clone();
                            for &&i in &subset {
                                fewer[i] = solution[i];
                            }
                            assert!(count(n, shape, &fewer) > 1, "a smaller set makes {} unique", line_of(givens));
                        }
                    }
                }
            }
        }
        assert!(seen.contains("unique") && seen.contains("multiple"), "{n}x{n}: only {seen:?}");
    }
}

/// A puzzle whose rules alone fix the solution: the given is redundant,
/// and stderr says no given is needed; exit 0 as `unique` would.
#[test]
fn minimal_says_when_the_rules_alone_fix_the_solution() {
    let out = satsudoku().args(["minimal", "-"]).write_stdin("size 1\nbox 1x1\ngivens\n1\n").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "redundant\tr1c1=1\t.\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("the rules alone fix the solution"));
    let out = satsudoku().args(["minimal", "-"]).write_stdin("1234\n................\n").output().unwrap();
    assert_eq!(out.status.code(), Some(2), "not a puzzle: {}", String::from_utf8_lossy(&out.stdout));
}

/// Generated 4x4 and 6x6 puzzles, with and without a symmetry: each has
/// exactly one solution by the oracle, and no given (orbit) can go; the
/// same seed gives the same puzzles on one thread and on two.
#[test]
fn generated_puzzles_are_unique_and_minimal_by_the_oracle() {
    for (n, shape) in [(4, (2, 2)), (6, (2, 3))] {
        let blank = ".".repeat(n * n) + "\n";
        for symmetry in ["none", "rotate180", "mirror", "diagonal"] {
            let args = ["generate", "-n", "12", "--seed", "9", "--symmetry", symmetry];
            let one = satsudoku().args(args).args(["-j", "1", "-"]).write_stdin(blank.clone()).output().unwrap();
            assert_eq!(one.status.code(), Some(0), "{}", String::from_utf8_lossy(&one.stderr));
            let two = satsudoku().args(args).args(["-j", "2", "-"]).write_stdin(blank.clone()).output().unwrap();
            assert_eq!(one.stdout, two.stdout, "the seed alone decides the puzzles");
            let text = String::from_utf8_lossy(&one.stdout);
            let puzzles: Vec<Vec<u32>> = text.lines().map(digits_of).collect();
            assert_eq!(puzzles.len(), 12);
            let orbit = |i: usize| -> Vec<usize> {
                let (r, c) = (i / n, i % n);
                let other = match symmetry {
                    "rotate180" => (n - 1 - r) * n + (n - 1 - c),
                    "mirror" => r * n + (n - 1 - c),
                    "diagonal" => c * n + r,
                    _ => i,
                };
                if other == i {
                    vec![i]
                } else {
                    vec![i, other]
                }
            };
            for givens in &puzzles {
                assert_eq!(count(n, shape, givens), 1, "{}", line_of(givens));
                for i in (0..n * n).filter(|&i| givens[i] != 0) {
                    assert!(orbit(i).iter().all(|&j| givens[j] != 0), "{symmetry}: {}", line_of(givens));
                    let mut fewer = givens.clone();
                    for j in orbit(i) {
                        fewer[j] = 0;
                    }
                    assert!(count(n, shape, &fewer) > 1, "{symmetry}: not minimal: {}", line_of(givens));
                }
            }
            let distinct: BTreeSet<_> = puzzles.iter().collect();
            assert!(distinct.len() > 6, "{symmetry}: the puzzles hardly differ");
        }
    }
}

/// Generated puzzles of a rule set (a native `puzzle` with a killer cage)
/// come back in that format with the rules, unique and minimal by
/// `minimal`; an f-puzzles input comes back as share links `unique`
/// reads.
#[test]
fn generate_writes_the_input_format_back() {
    let native = "size 4\nkiller r1c1 r1c2 = 3\n";
    let out = satsudoku().args(["generate", "-n", "3", "--seed", "2", "-"]).write_stdin(native).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let parts: Vec<&str> = text.split("# satsudoku generate").skip(1).collect();
    assert_eq!(parts.len(), 3, "{text}");
    for part in parts {
        let body: String = part.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert!(body.contains("killer r1c1 r1c2 = 3"), "{body}");
        let minimal = satsudoku().args(["minimal", "-"]).write_stdin(body.clone()).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&minimal.stdout), "minimal\n", "{body}");
        // The oracle: the givens with the cage, r1c1 + r1c2 = 3.
        let rows: Vec<&str> = body.lines().skip_while(|l| *l != "givens").skip(1).take(4).collect();
        let givens = digits_of(&rows.concat());
        let cage = |g: &[u32]| g[0] + g[1] == 3;
        assert_eq!(count_grids(4, (2, 2), &givens, &cage), 1, "{body}");
    }
    // The whole output reads back as one file of three puzzles (separated
    // by `---` lines), each labelled with its `size` line's number.
    let sizes: Vec<usize> = text.lines().enumerate().filter(|(_, l)| *l == "size 4").map(|(i, _)| i + 1).collect();
    let minimal = satsudoku().args(["minimal", "-"]).write_stdin(text.clone()).output().unwrap();
    let expected: String = sizes.iter().map(|line| format!("{line}\tminimal\n")).collect();
    assert_eq!(String::from_utf8_lossy(&minimal.stdout), expected, "{}", String::from_utf8_lossy(&minimal.stderr));
    let fpuzzles = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"diagonal+":true}"#;
    let out = satsudoku().args(["generate", "-n", "2", "-"]).write_stdin(fpuzzles).output().unwrap();
    let links = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(links.lines().count(), 2);
    assert!(links.lines().all(|l| l.starts_with("https://www.f-puzzles.com/?load=")), "{links}");
    let unique = satsudoku().args(["unique", "-"]).write_stdin(links).output().unwrap();
    assert_eq!(unique.status.code(), Some(0), "{}", String::from_utf8_lossy(&unique.stdout));
}

/// Naked and hidden singles on a classic 9x9, the oracle for the easy
/// level: whether they alone fill the grid.
fn singles_solve(givens: &[u32]) -> bool {
    let mut g = givens.to_vec();
    let peers = |i: usize, j: usize| {
        let (r, c, s, t) = (i / 9, i % 9, j / 9, j % 9);
        i != j && (r == s || c == t || (r / 3 == s / 3 && c / 3 == t / 3))
    };
    let allowed = |g: &[u32], i: usize, d: u32| g[i] == 0 && (0..81).all(|j| !(peers(i, j) && g[j] == d));
    let units: Vec<Vec<usize>> = (0..9)
        .flat_map(|k| {
            [
                (0..9).map(|c| k * 9 + c).collect::<Vec<_>>(),
                (0..9).map(|r| r * 9 + k).collect(),
                (0..9).map(|x| (k / 3 * 3 + x / 3) * 9 + k % 3 * 3 + x % 3).collect(),
            ]
        })
        .collect();
    loop {
        let mut placed = false;
        for i in 0..81 {
            let options: Vec<u32> = (1..=9).filter(|&d| allowed(&g, i, d)).collect();
            if g[i] == 0 && options.len() == 1 {
                g[i] = options[0];
                placed = true;
            }
        }
        for unit in &units {
            for d in 1..=9 {
                let places: Vec<usize> = unit.iter().copied().filter(|&i| allowed(&g, i, d)).collect();
                if places.len() == 1 && !unit.iter().any(|&i| g[i] == d) {
                    g[places[0]] = d;
                    placed = true;
                }
            }
        }
        if !placed {
            return g.iter().all(|&d| d != 0);
        }
    }
}

/// stderr stays short on a batch: one puzzle's line says its givens and
/// tries; a batch of 200 ends with one summary line (no line a puzzle),
/// whose givens range holds every printed puzzle's (counted here).
#[test]
fn generate_says_one_line_for_a_batch() {
    let one = satsudoku().args(["generate", "--seed", "3", "-"]).write_stdin(".".repeat(81)).output().unwrap();
    let stderr = String::from_utf8_lossy(&one.stderr);
    assert!(one.status.success() && stderr.lines().count() == 1, "{stderr}");
    assert!(stderr.contains(" givens after 1 try"), "{stderr}");
    let many =
        satsudoku().args(["generate", "-n", "200", "--seed", "3", "-"]).write_stdin(".".repeat(81)).output().unwrap();
    let stderr = String::from_utf8_lossy(&many.stderr);
    assert!(many.status.success() && stderr.lines().count() == 1, "{stderr}");
    let givens: Vec<usize> =
        String::from_utf8_lossy(&many.stdout).lines().map(|l| l.chars().filter(|c| *c != '.').count()).collect();
    assert_eq!(givens.len(), 200);
    let (least, most) = (givens.iter().min().unwrap(), givens.iter().max().unwrap());
    assert!(stderr.starts_with("satsudoku: 200 puzzles made in "), "{stderr}");
    assert!(stderr.contains(&format!(": {least} to {most} givens, ")), "{stderr}");
}

/// `rate` on generated classic puzzles: score 0 and level easy exactly when
/// singles alone solve the puzzle, by the oracle; the levels and scores are
/// the same on one thread and two, and in any order; the hardest step's
/// depth is 0 exactly for the easy ones. Easter Monster (a famous hardest puzzle, 2007) rates
/// extreme; a puzzle with two solutions is not rated (exit 1).
#[test]
fn rate_is_easy_exactly_when_singles_solve() {
    let gen =
        satsudoku().args(["generate", "-n", "60", "--seed", "4", "-"]).write_stdin(".".repeat(81)).output().unwrap();
    let puzzles = String::from_utf8_lossy(&gen.stdout).into_owned();
    let run = |jobs: &str| {
        satsudoku().args(["rate", "--output", "json", "-j", jobs, "-"]).write_stdin(puzzles.clone()).output().unwrap()
    };
    let (one, two) = (run("1"), run("2"));
    let strip = |out: &[u8]| -> Vec<Value> {
        json_lines(out)
            .into_iter()
            .map(|mut v| {
                v.as_object_mut().unwrap().remove("seconds");
                v
            })
            .collect()
    };
    assert_eq!(strip(&one.stdout), strip(&two.stdout));
    // A puzzle rates the same whatever was rated before it on its thread.
    let reversed: String = puzzles.lines().rev().map(|l| format!("{l}\n")).collect();
    let back = satsudoku().args(["rate", "--output", "json", "-j", "1", "-"]).write_stdin(reversed).output().unwrap();
    let mut back = strip(&back.stdout);
    back.reverse();
    let unlined = |records: Vec<Value>| -> Vec<Value> {
        records
            .into_iter()
            .map(|mut v| {
                v.as_object_mut().unwrap().remove("line");
                v
            })
            .collect()
    };
    assert_eq!(unlined(back), unlined(strip(&one.stdout)));
    let mut levels = BTreeSet::new();
    for (line, record) in puzzles.lines().zip(json_lines(&one.stdout)) {
        let easy = singles_solve(&digits_of(line));
        assert_eq!(record["score"] == 0, easy, "{line}: {record}");
        assert_eq!(record["level"] == "easy", easy, "{line}: {record}");
        assert_eq!(record["depth"] == 0, easy, "{line}: {record}");
        levels.insert(record["level"].as_str().unwrap().to_owned());
    }
    assert!(levels.len() >= 2, "60 random puzzles all rated {levels:?}");
    let easter_monster = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1";
    let out = satsudoku().args(["rate", "-"]).write_stdin(easter_monster).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.split('\t').nth(1), Some("extreme"), "{text}");
    let two_solutions = format!("1234{}\n", ".".repeat(77));
    let out = satsudoku().args(["rate", "-"]).write_stdin(two_solutions).output().unwrap();
    assert_eq!((out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned()), (Some(1), "multiple\n".into()));
}

/// `rate`'s depth-1 steps are those of a plain sweep written here: every
/// open candidate probed in reading order with no limit and nothing
/// skipped, the smallest refutations taken, then the next sweep. `rate`
/// orders its probes by the sweep before, skips the solution's own digits
/// and the candidates a probe that held implied, and cuts probes short at
/// the smallest size found; none of that may change a step.
#[test]
fn rate_takes_the_steps_of_a_plain_sweep() {
    let gen =
        satsudoku().args(["generate", "-n", "40", "--seed", "5", "-"]).write_stdin(".".repeat(81)).output().unwrap();
    let puzzles = String::from_utf8_lossy(&gen.stdout).into_owned();
    let out =
        satsudoku().args(["rate", "--output", "json", "-j", "1", "-"]).write_stdin(puzzles.clone()).output().unwrap();
    let layout = layout_with(3, 3, &[]);
    let mut prober = Prober::new(&encode(&layout, &Encoding::default())).unwrap().with_singles(&layout);
    let mut compared = 0;
    for (line, record) in puzzles.lines().zip(json_lines(&out.stdout)) {
        assert!(prober.reset());
        for (i, d) in digits_of(line).into_iter().enumerate().filter(|&(_, d)| d != 0) {
            assert!(prober.assume(prober.literal(satsudoku::model::Cell::new(i / 9, i % 9), d as u8)));
        }
        for step in record["steps"].as_array().unwrap() {
            let open = prober.open();
            let sizes: Vec<_> = open.iter().map(|&(_, _, lit)| (lit, prober.probe(lit))).collect();
            let Some(best) = sizes.iter().filter_map(|&(_, s)| s).min() else {
                assert_ne!(step["depth"], 1, "{line}: depth 1 refutes nothing, yet {step}");
                break;
            };
            let refuted: Vec<_> = sizes.iter().filter(|&&(_, s)| s == Some(best)).map(|&(lit, _)| lit).collect();
            assert_eq!((step["depth"].as_u64(), step["size"].as_u64()), (Some(1), Some(best as u64)), "{line}");
            assert_eq!(step["ruled_out"].as_u64(), Some(refuted.len() as u64), "{line}");
            for lit in refuted {
                assert!(prober.assume(!lit));
            }
            compared += 1;
        }
        let steps = record["steps"].as_array().unwrap();
        if steps.iter().all(|step| step["depth"] == 1) {
            assert!(prober.solved(), "{line}: the steps leave it unsolved");
        }
    }
    assert!(compared >= 60, "{compared} steps compared");
}

/// A layout for the probing test: a Sudoku with the whole-grid rules of
/// `keywords` added.
fn layout_with(box_rows: usize, box_cols: usize, keywords: &[&str]) -> Puzzle {
    let mut puzzle = Puzzle::sudoku(box_rows, box_cols).unwrap();
    for keyword in keywords {
        let rule = by_keyword(keyword).unwrap();
        let mut context = Context::new();
        let args = Args::default();
        (rule.build)(&mut puzzle, &args, &mut context).unwrap();
        context.finish(&mut puzzle).unwrap();
    }
    puzzle
}

/// `rate` probes layouts of all-different groups and pairs of different
/// digits on bitboards. Their probes must fail exactly where unit
/// propagation on the clauses fails (the enum engine's propagator over the
/// CNF, a separate algorithm), at depth 1 and 2, on random states of a
/// classic 9x9, a 6x6, an anti-knight 9x9 and a 9x9 with both diagonals;
/// a probe with a limit must give the full size when the refutation
/// fits the limit and may give up only when it does not; and the
/// refutations of size 3 found without probing must be those the probes
/// find.
#[test]
fn bitboard_probes_fail_where_the_clauses_do() {
    let layouts = [
        layout_with(3, 3, &[]),
        layout_with(2, 3, &[]),
        layout_with(3, 3, &["antiknight"]),
        layout_with(3, 3, &["diagonal+", "diagonal-"]),
    ];
    let mut rng = rng(37);
    let mut compared = (0, 0, 0);
    for layout in &layouts {
        let encoded = encode(layout, &Encoding::default());
        let mut clauses = Prober::new(&encoded).unwrap();
        let mut fast = Prober::new(&encoded).unwrap().with_singles(layout);
        assert!(fast.has_singles() && !clauses.has_singles());
        for _ in 0..12 {
            assert!(clauses.reset() && fast.reset());
            // A random state without a conflict: candidates whose probe
            // holds, assumed on both.
            let steps = 4 + rng.below(layout.side() * 2);
            for _ in 0..steps {
                let open = clauses.open();
                if open.is_empty() {
                    break;
                }
                let (_, _, lit) = open[rng.below(open.len())];
                if clauses.probe(lit).is_none() {
                    assert!(clauses.assume(lit) && fast.assume(lit));
                }
            }
            let open = clauses.open();
            assert_eq!(open, fast.open());
            let mut in_three = Vec::new();
            for (i, &(cell, digit, lit)) in open.iter().enumerate() {
                let size = fast.probe(lit);
                if size == Some(3) {
                    in_three.push(lit);
                }
                assert_eq!(size.is_some(), clauses.probe(lit).is_some(), "{cell:?} {digit}");
                compared.0 += 1;
                for limit in [2, 3, 5, 8] {
                    let within = fast.probe_within(lit, None, Some(limit));
                    match size {
                        Some(s) if s <= limit => assert_eq!(within, size, "{cell:?} {digit} within {limit}"),
                        Some(_) => assert!(within.is_none() || within == size, "{cell:?} {digit} within {limit}"),
                        None => assert_eq!(within, None),
                    }
                }
                if i % 16 == 0 {
                    let deep = fast.probe2(lit, None);
                    assert_eq!(deep.is_some(), clauses.probe2(lit, None).is_some(), "{cell:?} {digit} at depth 2");
                    compared.1 += 1;
                }
            }
            // The refutations of size 3, found without probing, are those
            // the probes found.
            let mut found = fast.refuted_in_three().unwrap();
            found.sort_by_key(|lit| lit.code());
            in_three.sort_by_key(|lit| lit.code());
            assert_eq!(found, in_three);
            compared.2 += usize::from(!found.is_empty());
        }
    }
    assert!(compared.0 > 2_000 && compared.1 > 100 && compared.2 > 10, "{compared:?}");
}

/// `fewest` on 4x4 Sudoku: 4 givens (OEIS A198297), and the puzzles with one
/// solution for each number of givens are OEIS A109252 (van der Sanden,
/// 2005), from 25,728 with 4 givens to 288 with all 16.
#[test]
fn fewest_reproduces_oeis_for_4x4() {
    let a109252: [u64; 17] = [
        0, 0, 0, 0, 25728, 284160, 1041408, 2141184, 2961024, 2958336, 2204928, 1239552, 522624, 161280, 34560, 4608,
        288,
    ];
    let out = satsudoku().args(["fewest", "--counts", "-"]).write_stdin(".".repeat(16)).output().unwrap();
    let mut expected = String::from("fewest_givens(4).\n");
    for (k, n) in a109252.iter().enumerate() {
        expected.push_str(&format!("unique_puzzles({k},{n}).\n"));
    }
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{}", String::from_utf8_lossy(&out.stderr));
}

/// Latin squares: the smallest critical set of order n is ⌊n²/4⌋ for
/// n = 4, 5 (and 6, in the ignored test below), the known values (Nelder's
/// bound, proven for small orders: Fu, Fu and Rodger 1997; Adams and
/// Khodkar 2000 for order 6). The example printed on stderr is unique by
/// the oracle.
#[test]
fn fewest_finds_the_smallest_critical_sets_of_latin_squares() {
    for (n, fewest) in [(4, 4), (5, 6)] {
        let out = satsudoku()
            .args(["fewest", "--output", "json", "-"])
            .write_stdin(format!("size {n}\nbox none\n"))
            .output()
            .unwrap();
        let record: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(record["fewest_givens"], fewest, "order {n}");
        let example = digits_of(record["example"].as_str().unwrap());
        assert_eq!(example.iter().filter(|&&d| d != 0).count(), fewest);
        assert_eq!(count_grids(n, (1, n), &example, &|_| true), 1, "order {n}");
    }
}

/// 4x4 Sudoku X (both diagonals): every puzzle counted by the oracle's own
/// method, each of the 48 grids against every other: a set of cells is a
/// unique puzzle of a grid when no other grid agrees with it there.
#[test]
fn fewest_counts_a_variant_by_the_pairwise_oracle() {
    let diagonal = |g: &[u32]| {
        let main: BTreeSet<u32> = (0..4).map(|i| g[i * 4 + i]).collect();
        let anti: BTreeSet<u32> = (0..4).map(|i| g[i * 4 + 3 - i]).collect();
        main.len() == 4 && anti.len() == 4
    };
    let mut grids = Vec::new();
    let mut rng = rng(1);
    // Every 4x4 Sudoku grid (288), from random ones until none is new.
    let mut all = BTreeSet::new();
    while all.len() < 288 {
        all.insert(random_grid(&mut rng, 4, (2, 2)));
    }
    grids.extend(all.into_iter().filter(|g| diagonal(g)));
    assert_eq!(grids.len(), 48);
    let mut table = [0u64; 17];
    for g in &grids {
        for cells in 0u32..1 << 16 {
            let agrees = |h: &Vec<u32>| (0..16).all(|p| cells >> p & 1 == 0 || h[p] == g[p]);
            if grids.iter().filter(|h| agrees(h)).count() == 1 {
                table[cells.count_ones() as usize] += 1;
            }
        }
    }
    let out =
        satsudoku().args(["fewest", "--counts", "-"]).write_stdin("size 4\ndiagonal+\ndiagonal-\n").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let fewest = table.iter().position(|&c| c > 0).unwrap();
    let mut expected = format!("fewest_givens({fewest}).\n");
    for (k, n) in table.iter().enumerate() {
        expected.push_str(&format!("unique_puzzles({k},{n}).\n"));
    }
    assert_eq!(text, expected);
}

/// 6x6 Sudoku needs 8 givens (the Sudoku Programmers forum, "minimum
/// number of clues for sudoku 6*6", 2011), from its 49 essentially
/// different grids; Latin squares of order 6, 9 (⌊36/4⌋). About 11 s:
/// `.ci/run` runs it.
#[test]
#[ignore]
fn fewest_for_6x6_sudoku_and_latin_squares() {
    let out = satsudoku().args(["fewest", "--output", "json", "-"]).write_stdin("size 6\n").output().unwrap();
    let record: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((record["fewest_givens"].as_u64(), record["classes"].as_u64()), (Some(8), Some(49)));
    assert_eq!(record["grids"], "28200960");
    let example = digits_of(record["example"].as_str().unwrap());
    assert_eq!(count_grids(6, (2, 3), &example, &|_| true), 1);
    let out = satsudoku().args(["fewest", "-"]).write_stdin("size 6\nbox none\n").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "fewest_givens(9).\n");
}

/// What `fewest` cannot do, it says: a layout with givens, a grid past 64
/// cells, `--counts` past 20 cells; exit 2.
#[test]
fn fewest_refuses_clearly() {
    for (input, args, says) in [
        ("1...............\n".to_owned(), vec![], "without givens"),
        (".".repeat(81), vec![], "7 million CPU hours"),
        ("size 6\n".to_owned(), vec!["--counts"], "at most 20 cells"),
    ] {
        assert_refused(&[&["fewest"], &args[..], &["-"]].concat(), &input, &[says]);
    }
}
