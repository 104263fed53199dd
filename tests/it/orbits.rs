//! `count --up-to-symmetry`: essentially different grids by Burnside's
//! lemma, against an orbit enumeration written here (4x4) and the
//! literature (6x6).

use assert_cmd::Command;
use predicates::str::contains;

use crate::common::{count_stats as count, stopped_within};

/// Every 4x4 Sudoku grid, by backtracking in reading order.
fn grids_4x4() -> Vec<[u8; 16]> {
    fn fill(i: usize, grid: &mut [u8; 16], out: &mut Vec<[u8; 16]>) {
        if i == 16 {
            out.push(*grid);
            return;
        }
        let (r, c) = (i / 4, i % 4);
        for d in 1..=4 {
            let clash = (0..i).any(|j| {
                let (s, t) = (j / 4, j % 4);
                grid[j] == d && (s == r || t == c || (s / 2 == r / 2 && t / 2 == c / 2))
            });
            if !clash {
                grid[i] = d;
                fill(i + 1, grid, out);
            }
        }
        grid[i] = 0;
    }
    let mut out = Vec::new();
    fill(0, &mut [0; 16], &mut out);
    out
}

/// The orbits of the 4x4 grids: each grid's images under every row order
/// that keeps the bands (8), every such column order (8) and, with
/// `transpose`, transposition, renamed in order of first appearance; the
/// least image names the orbit.
fn orbits_4x4(transpose: bool) -> usize {
    let orders: Vec<[usize; 4]> = [[0, 1, 2, 3], [1, 0, 2, 3], [0, 1, 3, 2], [1, 0, 3, 2]]
        .into_iter()
        .flat_map(|o| [o, [o[2], o[3], o[0], o[1]]])
        .collect();
    let flips: &[bool] = if transpose { &[false, true] } else { &[false] };
    let mut seen = std::collections::HashSet::new();
    for grid in grids_4x4() {
        let mut least = None;
        for rows in &orders {
            for cols in &orders {
                for &flip in flips {
                    let at = |r: usize, c: usize| {
                        if flip {
                            grid[cols[c] * 4 + rows[r]]
                        } else {
                            grid[rows[r] * 4 + cols[c]]
                        }
                    };
                    let mut names = [0u8; 5];
                    let mut next = 1;
                    let mut image = [0u8; 16];
                    for (i, named) in image.iter_mut().enumerate() {
                        let d = usize::from(at(i / 4, i % 4));
                        if names[d] == 0 {
                            names[d] = next;
                            next += 1;
                        }
                        *named = names[d];
                    }
                    least = Some(least.map_or(image, |l: [u8; 16]| l.min(image)));
                }
            }
        }
        seen.insert(least.unwrap());
    }
    seen.len()
}

#[test]
fn four_by_four_orbits_equal_the_orbit_enumeration() {
    assert_eq!(grids_4x4().len(), 288);
    let (with, stderr) = count("size 4\n", &["--up-to-symmetry"]);
    assert_eq!(with, format!("solutions({}).\n", orbits_4x4(true)));
    assert!(stderr.contains("method: burnside") && stderr.contains("128 geometric symmetries"), "{stderr}");
    let (without, _) = count("size 4\n", &["--up-to-symmetry", "--symmetry", "no-transpose"]);
    assert_eq!(without, format!("solutions({}).\n", orbits_4x4(false)));
    // The literature: 2 with transposition (Russell & Jarvis), 3 without.
    assert_eq!((with.as_str(), without.as_str()), ("solutions(2).\n", "solutions(3).\n"));
}

/// The grids of a layout given by its all-different groups (cell indices)
/// whose first row is `1, 2, ..., n` (each orbit under relabelling has
/// them), by backtracking in reading order.
fn grids_of(n: usize, groups: &[Vec<usize>]) -> Vec<Vec<u8>> {
    fn fill(i: usize, n: usize, peers: &[Vec<usize>], grid: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if i == n * n {
            out.push(grid.clone());
            return;
        }
        for d in 1..=n as u8 {
            if i < n && usize::from(d) != i + 1 {
                continue;
            }
            if !peers[i].iter().any(|&j| j < i && grid[j] == d) {
                grid[i] = d;
                fill(i + 1, n, peers, grid, out);
            }
        }
        grid[i] = 0;
    }
    let peers: Vec<Vec<usize>> =
        (0..n * n).map(|i| groups.iter().filter(|g| g.contains(&i)).flatten().copied().collect()).collect();
    let mut out = Vec::new();
    fill(0, n, &peers, &mut vec![0; n * n], &mut out);
    out
}

/// The orbits of the grids (given by `grids`, which meets every orbit)
/// under every row order and column order (and, with square boxes,
/// transposition) that maps each of the layout's groups onto one of them
/// (the boxes may go onto other groups: on 4x4 the disjoint groups and
/// the boxes exchange), every reordering of a cell's coordinates (band,
/// row in it, stack, column in it; `h x w` boxes) that does (with
/// disjoint groups, the rows exchanged with the boxes), and what these
/// make together, and relabelling: the least image of each grid,
/// renamed in order of first appearance, names its orbit. With the number
/// of motions and of their conjugacy classes. (The layouts here imply no
/// groups past their own.)
fn orbits_by_motions(
    n: usize,
    (h, w): (usize, usize),
    groups: &[Vec<usize>],
    grids: &[Vec<u8>],
) -> (usize, usize, usize) {
    let square = h == w;
    use itertools::Itertools;
    let sorted = |g: Vec<usize>| g.into_iter().sorted().collect::<Vec<_>>();
    let known: std::collections::HashSet<Vec<usize>> = groups.iter().map(|g| sorted(g.clone())).collect();
    let mut motions = Vec::new();
    for rows in (0..n).permutations(n) {
        for cols in (0..n).permutations(n) {
            for flip in [false, true].into_iter().take(if square { 2 } else { 1 }) {
                let to = |i: usize| if flip { cols[i % n] * n + rows[i / n] } else { rows[i / n] * n + cols[i % n] };
                let onto = |g: &Vec<usize>, to_these: &std::collections::HashSet<Vec<usize>>| {
                    to_these.contains(&sorted(g.iter().map(|&i| to(i)).collect()))
                };
                if groups.iter().all(|g| onto(g, &known)) {
                    motions.push((0..n * n).map(to).collect::<Vec<usize>>());
                }
            }
        }
    }
    let compose = |a: &Vec<usize>, b: &Vec<usize>| b.iter().map(|&i| a[i]).collect::<Vec<usize>>();
    // A cell as (band, row in it, stack, column in it), the four reordered.
    let ranges = [n / h, h, n / w, w];
    for order in (0..4).permutations(4).filter(|order| (0..4).all(|k| ranges[order[k]] == ranges[k])) {
        let to = |i: usize| {
            let x = [i / n / h, i / n % h, i % n / w, i % n % w];
            (x[order[0]] * h + x[order[1]]) * n + x[order[2]] * w + x[order[3]]
        };
        let motion: Vec<usize> = (0..n * n).map(to).collect();
        if groups.iter().all(|g| known.contains(&sorted(g.iter().map(|&i| to(i)).collect())))
            && !motions.contains(&motion)
        {
            motions.push(motion);
        }
    }
    // Closed under composition.
    let mut all: std::collections::HashSet<Vec<usize>> = motions.iter().cloned().collect();
    let mut next = 0;
    while next < motions.len() {
        for k in 0..motions.len() {
            let product = compose(&motions[k], &motions[next]);
            if all.insert(product.clone()) {
                motions.push(product);
            }
        }
        next += 1;
    }
    // Conjugacy classes: each motion's class the set of its conjugates.
    let inverse = |a: &Vec<usize>| {
        let mut inverse = vec![0; a.len()];
        a.iter().enumerate().for_each(|(i, &j)| inverse[j] = i);
        inverse
    };
    let classes: std::collections::HashSet<Vec<Vec<usize>>> = motions
        .iter()
        .map(|g| motions.iter().map(|k| compose(k, &compose(g, &inverse(k)))).sorted().dedup().collect())
        .collect();
    let mut seen = std::collections::HashSet::new();
    for grid in grids {
        let least = motions.iter().map(|to| {
            // The image puts grid[i] at to(i); renamed in reading order.
            let mut image = vec![0u8; n * n];
            for (i, &d) in grid.iter().enumerate() {
                image[to[i]] = d;
            }
            let mut names = vec![0u8; n + 1];
            let mut next = 1;
            for d in image.iter_mut() {
                if names[usize::from(*d)] == 0 {
                    names[usize::from(*d)] = next;
                    next += 1;
                }
                *d = names[usize::from(*d)];
            }
            image
        });
        seen.insert(least.min().unwrap());
    }
    (seen.len(), motions.len(), classes.len())
}

/// Sudoku groups of an `n x n` grid with `h x w` boxes, as cell indices.
fn sudoku_groups(n: usize, h: usize, w: usize) -> Vec<Vec<usize>> {
    let rows = (0..n).map(|r| (0..n).map(|c| r * n + c).collect());
    let cols = (0..n).map(|c| (0..n).map(|r| r * n + c).collect());
    rows.chain(cols).chain(crate::common::boxes(n, (h, w))).collect()
}

/// Layouts with extra groups (diagonals, disjoint groups): their
/// symmetries are the motions of lines that keep every group (on 4x4
/// with disjoint groups, twice the Sudoku motions that keep them) and,
/// with disjoint groups, the exchange of the rows with the boxes and what
/// it makes with them (128 on 4x4, 576 on 6x6), and the count equals the
/// orbits found by every such motion here.
/// (Groups come first as rows, columns and boxes, `n` of each.)
#[test]
fn extra_groups_count_their_own_orbits() {
    // With the grids of each (issue 40's figures, each checked by the
    // backtracking oracle of tests/it/family.rs).
    for (text, n, (h, w), extra, all) in [
        ("size 4\ndiagonal+\ndiagonal-\n", 4, (2, 2), "diagonals", 48),
        ("size 4\ndisjoint\n", 4, (2, 2), "disjoint", 168),
        ("size 6\nbox 2x3\ndiagonal+\ndiagonal-\n", 6, (2, 3), "diagonals", 8_640),
        ("size 6\nbox 2x3\ndisjoint\n", 6, (2, 3), "disjoint", 2_799_360),
    ] {
        let mut groups = sudoku_groups(n, h, w);
        let boxes = groups[2 * n..].to_vec();
        if extra == "diagonals" {
            groups.push((0..n).map(|i| i * n + i).collect());
            groups.push((0..n).map(|i| i * n + n - 1 - i).collect());
        } else {
            groups.extend((0..n).map(|p| boxes.iter().map(|b| b[p]).collect()));
        }
        let grids = grids_of(n, &groups);
        assert_eq!(grids.len() * (1..=n).product::<usize>(), all, "{text}");
        let (orbits, motions, classes) = orbits_by_motions(n, (h, w), &groups, &grids);
        let (stdout, stderr) = count(text, &["--up-to-symmetry"]);
        assert_eq!(stdout, format!("solutions({orbits}).\n"), "{text}");
        assert!(stderr.contains(&format!("burnside: {motions} geometric symmetries")), "{text}: {stderr}");
        assert!(stderr.contains(&format!("in {classes} conjugacy classes")), "{text}: {stderr}");
    }
}

/// 49 essentially different 6x6 grids (Pettersen; Russell & Jarvis), with
/// either box shape; the boxes are not square, so no transposition.
#[test]
fn six_by_six_has_49_essentially_different_grids() {
    for text in ["size 6\nbox 2x3\n", "size 6\nbox 3x2\n"] {
        let (stdout, stderr) = count(text, &["--up-to-symmetry"]);
        assert_eq!(stdout, "solutions(49).\n", "{text}");
        assert!(stderr.contains("3456 geometric symmetries (without transposition)"), "{stderr}");
    }
}

#[test]
fn only_blank_sudoku_grids_are_counted_up_to_symmetry() {
    for (text, args, says) in [
        ("1...............", &[][..], "blank Sudoku grids"),
        ("size 4\nbox none\n", &[], "no boxes"),
        ("size 4\nantiknight\n", &[], "blank Sudoku grids"),
        ("size 4\n", &["--symmetry", "none"], "--symmetry none"),
        // 3,840 row orders times 28,800 column orders (docs/counting-reach.md).
        ("size 10\nbox 2x5\n", &[], "this layout's has 110592000"),
    ] {
        Command::cargo_bin("satsudoku")
            .unwrap()
            .args(["count", "--up-to-symmetry"])
            .args(args)
            .write_stdin(text)
            .assert()
            .code(2)
            .stderr(contains(says));
    }
}

/// The constraint Burnside's sum counts with: the 4x4 grids that a
/// geometric motion maps onto a relabelling of themselves, by each engine,
/// with and without the relabelling reduction, against the oracle with
/// the condition checked here.
#[test]
fn automorphic_grids_equal_the_oracle() {
    use satsudoku::count::plan::{count, Plan, SymmetryUse};
    use satsudoku::count::EngineKind;
    use satsudoku::encode::Encoding;
    use satsudoku::model::{Cell, Constraint, Puzzle};

    type Motion = fn(usize, usize) -> (usize, usize);
    let motions: [(&str, Motion); 3] = [
        ("transposition", |r, c| (c, r)),
        ("bands swapped", |r, c| ((r + 2) % 4, c)),
        ("half turn", |r, c| (3 - r, 3 - c)),
    ];
    for (name, to) in motions {
        let image = |i: usize| {
            let (r, c) = to(i / 4, i % 4);
            r * 4 + c
        };
        let renamed = |g: &[u32]| {
            let mut rename = [0u32; 5];
            (0..16).all(|i| {
                let (d, e) = (g[image(i)] as usize, g[i]);
                let fits = rename[d] == 0 || rename[d] == e;
                rename[d] = e;
                fits
            })
        };
        let expected = crate::common::count_grids(4, (2, 2), &[0; 16], &renamed);
        assert!(expected > 0 && expected < 288, "{name}: {expected}");
        let mut puzzle = Puzzle::sudoku(2, 2).unwrap();
        let cells: Vec<Cell> = (0..16).map(|i| Cell::new(i / 4, i % 4)).collect();
        let images = (0..16).map(|i| Cell::new(image(i) / 4, image(i) % 4)).collect();
        puzzle.add_constraint(Constraint::Automorphic { cells, images }).unwrap();
        for engine in [EngineKind::Enum, EngineKind::Blocking] {
            for symmetry in [SymmetryUse::Auto, SymmetryUse::None] {
                let plan = Plan { engine: Some(engine), symmetry, ..Plan::new(Encoding::default()) };
                let counted = count(&puzzle, &plan, &mut ()).unwrap().count;
                assert_eq!(counted, expected.into(), "{name}, {engine:?}, {symmetry:?}");
            }
        }
    }
}

/// Building the 9x9 group (3,359,232 symmetries) once took 45 s of a 5 s
/// `--timeout`; a timeout stops the count wherever it is (the group now
/// takes milliseconds, the classes' counts the time).
#[test]
fn a_timeout_stops_the_count_while_the_group_is_built() {
    let args = ["count", "--up-to-symmetry", "--timeout", "1"];
    let (stdout, stderr) = stopped_within(&args, "size 9\n", std::time::Duration::from_secs(20));
    assert_eq!(stdout, "solutions_unknown.\n");
    assert!(stderr.contains("Burnside's sum gives no partial count"), "{stderr}");
}

/// Each class's fixed grids counted by bands (the motions that map bands
/// or stacks onto bands or stacks: relabelling by relabelling, the first
/// band of each cycle of bands enumerated or read from the table) equal
/// the engine's count of the same class through the `Automorphic`
/// constraint (`--symmetry no-bands`), class by class, on every layout
/// small enough for the debug build.
#[test]
fn bands_count_each_class_as_the_engine_does() {
    let count = |text: &str, extra: &[&str]| {
        // Bands for every class they can count, not the engine's brief try.
        let out = Command::cargo_bin("satsudoku")
            .unwrap()
            .args(["count", "--stats"])
            .args(extra)
            .env("SATSUDOKU_BURNSIDE_QUICK", "0")
            .write_stdin(text.to_owned())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let terms = |stderr: &str| -> String {
        let line = stderr.lines().find(|l| l.starts_with("fixed grids, class size x grids fixed"));
        line.unwrap_or_else(|| panic!("{stderr}")).to_string()
    };
    for text in ["size 4\n", "size 6\nbox 2x3\n", "size 6\nbox 3x2\n"] {
        let (banded, by_bands) = count(text, &["--up-to-symmetry"]);
        let (engine, by_engine) = count(text, &["--up-to-symmetry", "--symmetry", "no-bands"]);
        assert_eq!(banded, engine, "{text}");
        assert_eq!(terms(&by_bands), terms(&by_engine), "{text}");
        let none = "classes counted by bands: 0 of";
        assert!(by_bands.contains("classes counted by bands: ") && !by_bands.contains(none), "{text}: {by_bands}");
        assert!(by_engine.contains(none), "{text}: {by_engine}");
    }
}

/// `count --up-to-symmetry` (with `more` options) on `text`: the count
/// of `solutions` in `classes` conjugacy classes; its stderr, for what a
/// literature test checks beyond them.
fn comes_to(text: &str, more: &[&str], solutions: u64, classes: usize) -> String {
    let args: Vec<&str> = ["--up-to-symmetry"].iter().chain(more).copied().collect();
    let (stdout, stderr) = count(text, &args);
    assert_eq!(stdout, format!("solutions({solutions}).\n"));
    assert!(stderr.contains(&format!("in {classes} conjugacy classes")), "{stderr}");
    stderr
}

/// 9x9: 5,472,730,538 essentially different grids (Russell & Jarvis
/// 2006), 275 classes, the transposition's counted from the first band's
/// signatures: 16 s (26.5 minutes by the engine alone). Run by
/// `.ci/run`.
#[test]
#[ignore]
fn nine_by_nine_comes_to_russell_and_jarvis() {
    let stderr = comes_to("size 9\n", &[], 5_472_730_538, 275);
    // Their class 37, the transposition's: 1,296 motions, each fixing
    // 30,258,432 x 9! grids.
    assert!(stderr.contains("1296 x 10980179804160"), "{stderr}");
}

/// 8x8 with 2x4 boxes: 1,673,187 essentially different grids (kjellfp,
/// enjoysudoku.com forum, 2006), 400 classes, some counted by their four
/// bands of two rows joined (`Local::count_cycles`, free first bands
/// included): about 9 s. Run by `.ci/run`, the only check
/// of that join on a whole count (`moved::tests` checks a free band's
/// listing against every signature).
#[test]
#[ignore]
fn eight_by_eight_comes_to_the_forum_count() {
    let stderr = comes_to("size 8\nbox 2x4\n", &[], 1_673_187, 400);
    // The central motion (each band's rows swapped) is counted by its four
    // bands (the engine took 53 s): 1 x 2,283,043,553,280 fixed grids.
    assert!(stderr.contains(" 1 x 2283043553280 "), "{stderr}");
}

/// 9x9 without transposition: 10,945,437,157 essentially different grids
/// (kjellfp, enjoysudoku.com forum, 2006; the "T-classes" of the forum's
/// enumeration, 2005), 484 classes, the largest counted by bands moved
/// onto bands: 21 s (37 minutes by the engine alone). Run by
/// `.ci/run`.
#[test]
#[ignore]
fn nine_by_nine_without_transposition_comes_to_the_forum_count() {
    let stderr = comes_to("size 9\n", &["--symmetry", "no-transpose"], 10_945_437_157, 484);
    assert!(!stderr.contains("classes counted by bands: 0 of"), "{stderr}");
}

/// SudokuP: 53,666,689 essentially different grids under its 10,368
/// motions (the forum's figure: enjoysudoku forum, "SudokuP - Analysis",
/// 2018), the identity's term given as the forum's 201,105,135,151,764,480
/// grids; half the motions move no lines as wholes (the rows exchanged
/// with the boxes), and every class but the identity's is counted by the
/// engine: about 6 minutes on 2 cores in release. Run by hand (too long
/// for `.ci/run`, whose 4x4 and 6x6 tests above check the same group and
/// method against an orbit enumeration).
#[test]
#[ignore]
fn sudoku_p_comes_to_the_forum_count_under_its_10368_motions() {
    let out = Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["count", "--up-to-symmetry", "--stats"])
        .env("SATSUDOKU_BURNSIDE_ALL", "201105135151764480")
        .write_stdin("size 9\ndisjoint\n")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "solutions(53666689).\n", "{stderr}");
    assert!(stderr.contains("10368 geometric symmetries (with transposition; 5184 of them"), "{stderr}");
}

/// `SATSUDOKU_BURNSIDE_ALL` gives the identity's term (every grid of the
/// layout) instead of counting it: with the true number (issue 40's
/// figures, each checked by the backtracking oracle of tests/it/family.rs)
/// the orbits are those the orbit enumeration above finds, stderr says
/// the count rests on it, and a number one off, no number, or a batch of
/// puzzles is refused (exit 2) with the reason.
#[test]
fn a_given_identity_term_counts_the_orbits_or_is_refused() {
    let run = |text: &str, given: &str| {
        let out = Command::cargo_bin("satsudoku")
            .unwrap()
            .args(["count", "--up-to-symmetry"])
            .env("SATSUDOKU_BURNSIDE_ALL", given)
            .write_stdin(text.to_owned())
            .output()
            .unwrap();
        let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
        (out.status.code(), text(out.stdout), text(out.stderr))
    };
    for (text, all, orbits) in
        [("size 4\ndiagonal+\ndiagonal-\n", 48, 1), ("size 6\nbox 2x3\ndisjoint\n", 2_799_360, 65)]
    {
        let (status, stdout, stderr) = run(text, &all.to_string());
        assert_eq!((status, stdout), (Some(0), format!("solutions({orbits}).\n")), "{text}: {stderr}");
        assert!(
            stderr.contains(&format!("the identity's term is SATSUDOKU_BURNSIDE_ALL's {all}, not counted")),
            "{stderr}"
        );
        let (status, stdout, stderr) = run(text, &(all + 1).to_string());
        assert_eq!((status, stdout.as_str()), (Some(2), ""), "{text}");
        assert!(stderr.contains("is not a multiple of the group's order times"), "{stderr}");
    }
    let (status, _, stderr) = run("size 4\n", "many");
    assert_eq!(status, Some(2));
    assert!(stderr.contains("SATSUDOKU_BURNSIDE_ALL: expected a whole number"), "{stderr}");
    // One layout's number: not for a batch.
    let (status, _, stderr) = run("................\n................\n", "288");
    assert_eq!(status, Some(2));
    assert!(stderr.contains("count one puzzle with it, not 2"), "{stderr}");
}
