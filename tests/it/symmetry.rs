//! Counting up to digit relabelling (`count --symmetry auto`, the default):
//! on puzzles whose rules are blind to digit names the count is the same as
//! full enumeration (`--symmetry none`) and the oracle's, the 6x6 grids and
//! Latin squares come to the literature's numbers, and puzzles with givens
//! or digit-specific rules are never reduced. Transposition: `2L - F` on
//! symmetric 9x9 puzzles equals the oracle's count, and `L` and `F` each
//! equal the oracle's count of the grids at most and equal to their
//! transposition.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use satsudoku::count::symmetry::{transposition, Transposition};
use satsudoku::count::{count_models, EngineKind, Limits, Search};
use satsudoku::encode::{encode, DigitEncoding, Encoding};
use satsudoku::model::{Cell, Predicate, Puzzle};
use satsudoku::parse::parse;

use crate::common::count_stats as count;

/// 6x6 Sudoku grids (2x3 boxes, and 3x2): 28,200,960 (Pettersen, OEIS
/// A107739), counted with the first box fixed and the 8 row orders of the
/// other bands and 6 column orders of the other stack (a factor of 6! x
/// 48 = 34,560); no transposition, the boxes are not square. (By default
/// a blank grid is counted by bands, tests/it/bands.rs.)
#[test]
fn six_by_six_grids_come_to_the_literature_number() {
    for text in [".".repeat(36), "size 6\nbox 3x2\n".to_owned()] {
        let (stdout, stderr) = count(&text, &["--symmetry", "no-bands"]);
        assert_eq!(stdout, "solutions(28200960).\n");
        assert!(stderr.contains("the count multiplied by 34560"), "{stderr}");
        assert!(!stderr.contains("transposition"), "{stderr}");
    }
}

/// Latin squares of orders 4 to 6: 576, 161,280 and 812,851,200 (OEIS
/// A002860), counted up to relabelling, the orders of the rows below the
/// first (row and column 1 fixed to `1..n`: the reduced squares, 4, 56 and
/// 9,408, OEIS A000315) and transposition; the same without it and with
/// no symmetry at all (order 4 and 5).
#[test]
fn latin_squares_come_to_the_literature_numbers() {
    for (n, squares, reduced) in [(4, 576u128, 4u128), (5, 161_280, 56), (6, 812_851_200, 9408)] {
        let text = format!("size {n}\nbox none\n");
        let (stdout, stderr) = count(&text, &[]);
        assert_eq!(stdout, format!("solutions({squares}).\n"));
        assert!(stderr.contains(&format!("2L - F = {reduced}\n")), "{stderr}");
        let (stdout, stderr) = count(&text, &["--symmetry", "no-transpose"]);
        assert_eq!(stdout, format!("solutions({squares}).\n"));
        assert!(!stderr.contains("transposition"), "{stderr}");
        if n < 6 {
            assert_eq!(count(&text, &["--symmetry", "none"]).0, format!("solutions({squares}).\n"));
        }
    }
}

/// A transposed count that runs out of time prints a lower bound (the
/// larger of its two partial counts, times the factor) and exits 3.
#[test]
fn a_timeout_stops_a_transposed_count_with_a_lower_bound() {
    let out = Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["count", "--stats", "--timeout", "0.5"])
        .write_stdin("size 7\nbox none\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let found: u128 =
        stdout.trim().strip_prefix("solutions_at_least(").unwrap().strip_suffix(").").unwrap().parse().unwrap();
    // 7! x 6! relabellings and row orders; 61,479,419,904,000 Latin squares in all.
    assert!(found % 3_628_800 == 0 && found < 61_479_419_904_000, "{stdout}");
    assert!(stderr.contains("symmetry: transposition") && stderr.contains("stopped by --timeout"), "{stderr}");
    assert!(!stderr.contains("2L - F ="), "{stderr}");
}

/// The oracle's solution: is `g` (9x9, row by row) equal to, or at most,
/// its transposition with digits renamed by `rename`, compared cell by
/// cell in row order?
fn versus_transposition(g: &[u32], rename: &[u32]) -> std::cmp::Ordering {
    (0..81)
        .map(|i| g[i].cmp(&rename[g[(i % 9) * 9 + i / 9] as usize]))
        .find(|o| o.is_ne())
        .unwrap_or(std::cmp::Ordering::Equal)
}

/// 9x9 puzzles whose givens are their own transposition with the digits
/// of the first box renamed (`2 <-> 4, 3 <-> 7, 6 <-> 8`, as transposing
/// a box of `1..9` written row by row), taken from such a grid. The
/// transposition is found and its renaming read off the givens; `F` and
/// `L` equal the oracle's counts of the grids equal to and at most their
/// transposition, and `2L - F` its count of all, with several encodings.
#[test]
fn transposition_counts_agree_with_the_oracle() {
    // A grid with g(r, c) = rename(g(c, r)), and its givens kept in mirrored pairs.
    let grid = "123684795456719823789532164835927416617458239294361578361245987948173652572896341";
    let rename = [0, 1, 4, 7, 2, 5, 8, 3, 6, 9];
    let digits: Vec<u32> = grid.bytes().map(|b| u32::from(b - b'0')).collect();
    assert_eq!(crate::common::count_grids(9, (3, 3), &digits, &|_| true), 1, "the grid is a Sudoku");
    assert_eq!(versus_transposition(&digits, &rename), std::cmp::Ordering::Equal, "and its own transposition");
    let puzzles = [
        "123..4.9.456...8..789...1...............58..92...6.....61....879.....6......9.3.1",
        "123.84..5456...8.3789.....4...9....66......3.2.......8.6......7....7...25728.634.",
    ];
    for text in puzzles {
        let givens: Vec<u32> = text.bytes().map(|b| if b == b'.' { 0 } else { u32::from(b - b'0') }).collect();
        let all = crate::common::count_grids(9, (3, 3), &givens, &|_| true);
        let fixed = crate::common::count_grids(9, (3, 3), &givens, &|g| versus_transposition(g, &rename).is_eq());
        let at_most = crate::common::count_grids(9, (3, 3), &givens, &|g| versus_transposition(g, &rename).is_le());
        assert!(fixed > 0 && fixed < at_most, "{text}: a test that means something");
        let puzzle = parse(text, "test", None).unwrap();
        let t = transposition(&puzzle).expect("the givens are symmetric");
        assert_eq!(t.rename, rename.map(|d| d as u8).to_vec());
        for digits in [DigitEncoding::Direct, DigitEncoding::Order, DigitEncoding::Log] {
            for reduce in [false, true] {
                let encoding = Encoding { digits, reduce, ..Encoding::default() };
                let count = |p: &Puzzle| {
                    let counted = count_models(
                        p,
                        &encode(p, &encoding),
                        Search::from(EngineKind::default()),
                        Limits::default(),
                        &mut (),
                    );
                    let counted = counted.unwrap();
                    assert!(counted.is_exact());
                    counted.models
                };
                let (l, f) = (count(&t.constrained(&puzzle, false)), count(&t.constrained(&puzzle, true)));
                assert_eq!((l, f), (u128::from(at_most), u128::from(fixed)), "{text} with {encoding}");
                assert_eq!(Transposition::total(l, f), Some(u128::from(all)));
            }
        }
    }
}

/// A rule that is not its own mirror image, or givens that are not,
/// leave no transposition (for boxes that are not square, see the 6x6
/// grids).
#[test]
fn only_mirrored_rules_have_a_transposition() {
    let symmetric = "123..4.9.456...8..789...1...............58..92...6.....61....879.....6......9.3.1";
    assert!(transposition(&parse(symmetric, "test", None).unwrap()).is_some());
    let mut one_sided = symmetric.to_owned();
    one_sided.replace_range(3..4, "6"); // r1c4 = 6, and r4c1 open
    assert!(transposition(&parse(&one_sided, "test", None).unwrap()).is_none());
    // A thermometer r1c4 < r1c5 without its mirror r4c1 < r5c1.
    let mut thermo = parse(symmetric, "test", None).unwrap();
    thermo.add_relation(Cell::new(0, 3), Cell::new(0, 4), Predicate::Less).unwrap();
    assert!(transposition(&thermo).is_none());
    // With its mirror (renamed: 4 < 5 read through the renaming is 2 < 5), it has one.
    let mut mirrored = thermo.clone();
    mirrored.add_relation(Cell::new(3, 0), Cell::new(4, 0), Predicate::BoxColumnOrder { side: 3 }).unwrap();
    assert!(transposition(&mirrored).is_some());
}

/// Invariant puzzles: the same count with and without the reduction, and
/// the oracle's.
#[test]
fn reduced_counts_equal_full_enumeration_and_the_oracle() {
    let distinct = |g: &[u32], cells: &[usize]| (0..cells.len()).all(|i| (0..i).all(|j| g[cells[i]] != g[cells[j]]));
    let knight_free = |g: &[u32]| {
        (0..16).all(|a| {
            [(1i32, 2i32), (2, 1), (1, -2), (2, -1)].iter().all(|&(dr, dc)| {
                let (r, c) = (a as i32 / 4 + dr, a as i32 % 4 + dc);
                !(0..4).contains(&r) || !(0..4).contains(&c) || g[a] != g[(r * 4 + c) as usize]
            })
        })
    };
    let jigsaw = |g: &[u32]| {
        let labels: Vec<char> = "AAABBACCBBACCDBECDDDEEEED".chars().collect();
        (0..25).all(|i| (0..i).all(|j| labels[i] != labels[j] || g[i] != g[j]))
    };
    let cases: Vec<(&str, u64)> = vec![
        ("................", 288),
        (
            "size 4\ndiagonal+\ndiagonal-\n",
            crate::common::count_grids(4, (2, 2), &[0; 16], &|g| {
                distinct(g, &[0, 5, 10, 15]) && distinct(g, &[3, 6, 9, 12])
            }),
        ),
        ("size 4\nbox none\n", crate::common::count_grids(4, (1, 4), &[0; 16], &|_| true)),
        ("size 4\nbox none\nantiknight\n", crate::common::count_grids(4, (1, 4), &[0; 16], &knight_free)),
        (
            "size 5\nregions\nAAABB\nACCBB\nACCDB\nECDDD\nEEEED\n",
            crate::common::count_grids(5, (1, 5), &[0; 25], &jigsaw),
        ),
        (
            "size 4\nbox none\nextra r1c1 r2c2 r3c3\n",
            crate::common::count_grids(4, (1, 4), &[0; 16], &|g| distinct(g, &[0, 5, 10])),
        ),
    ];
    for (i, (text, expected)) in cases.into_iter().enumerate() {
        let (reduced, stderr) = count(text, &["--symmetry", "no-bands"]);
        assert!(stderr.contains("symmetry: digit relabelling"), "{text}: {stderr}");
        // Plain 4x4 Sudoku and Latin squares have a transposition.
        assert_eq!(stderr.contains("symmetry: transposition"), i == 0 || i == 2, "{text}: {stderr}");
        let (full, stderr) = count(text, &["--symmetry", "none"]);
        assert!(!stderr.contains("symmetry"), "{stderr}");
        assert_eq!(reduced, full, "{text}");
        assert_eq!(reduced, format!("solutions({expected}).\n"), "{text}");
    }
}

/// Givens, sums, Kropki dots and other digit-specific rules keep the full count.
#[test]
fn digit_specific_rules_are_never_reduced() {
    for text in [
        "1...............",
        "size 4\nkiller r1c1 r1c2 = 3\n",
        "size 4\nwhite r1c1 r1c2\n",
        "size 4\nodd r1c1\n",
        "size 4\nthermo r1c1 r1c2\n",
    ] {
        let (_, stderr) = count(text, &[]);
        assert!(!stderr.contains("symmetry"), "{text}: {stderr}");
    }
    // --print and --max see every solution: no reduction, and no bands.
    Command::cargo_bin("satsudoku")
        .unwrap()
        .args(["count", "--stats", "--max", "5"])
        .write_stdin(".".repeat(16))
        .assert()
        .code(3)
        .stdout("solutions_at_least(5).\n")
        .stderr(contains("symmetry").not().and(contains("method: enumeration")));
}

/// Layouts with extra groups (`src/count/symmetry/extra.rs`): each count,
/// reduced by relabelling, the line orders that keep every group with a
/// full group in place, and the implied groups, equals the oracle's (the
/// grids with row 1 fixed, times `n!`). The extra groups are drawn at
/// random from windows (box-shaped, anywhere), the diagonals, disjoint
/// sets, and a line's mirror images, on 4x4 and both 6x6 box shapes; the
/// draws include layouts with implied groups and with several line orders
/// kept, all of them enumerated by the grid engine.
#[test]
fn layouts_with_extra_groups_count_as_the_oracle() {
    use crate::common::{rng, Draw};
    let mut random = rng(40);
    let (mut implied, mut kept, mut both, mut orbits) = (0, 0, 0, 0);
    for case in 0..36 {
        let (n, h, w) = [(4, 2, 2), (6, 2, 3), (6, 3, 2)][case % 3];
        let boxes = crate::common::boxes(n, (h, w));
        let mut extras: Vec<Vec<usize>> = Vec::new();
        for _ in 0..1 + random.below(3) {
            let group: Vec<usize> = match random.below(5) {
                0 | 1 => {
                    let (r, c) = (random.below(n - h + 1), random.below(n - w + 1));
                    (0..h * w).map(|k| (r + k / w) * n + c + k % w).collect()
                }
                2 => (0..n).map(|i| i * n + if random.below(2) == 0 { i } else { n - 1 - i }).collect(),
                3 => {
                    let p = random.below(n);
                    boxes.iter().map(|b| b[p]).collect()
                }
                _ => {
                    // Two cells and their mirror images across the middle column.
                    let (a, b) = (random.below(n * n), random.below(n * n));
                    let mirror = |p: usize| p / n * n + n - 1 - p % n;
                    let mut g = vec![a, b, mirror(a), mirror(b)];
                    g.sort_unstable();
                    g.dedup();
                    g
                }
            };
            if !extras.contains(&group) {
                extras.push(group);
            }
        }
        let groups: Vec<Vec<usize>> = boxes.iter().cloned().chain(extras.iter().cloned()).collect();
        let mut first_row = vec![0u32; n * n];
        (0..n).for_each(|c| first_row[c] = c as u32 + 1);
        let factorial: u64 = (1..=n as u64).product();
        let oracle = crate::common::count_layout(n, &groups, &first_row, &vec![u64::MAX; n * n], &|_| true) * factorial;
        let cell = |p: &usize| format!("r{}c{}", p / n + 1, p % n + 1);
        let lines: Vec<String> =
            extras.iter().map(|g| format!("extra {}", itertools::join(g.iter().map(cell), " "))).collect();
        let text = format!("size {n}\nbox {h}x{w}\n{}\n", lines.join("\n"));
        // The plan's choice (a band's orbits for some), then the
        // reduction by relabelling and line orders.
        let (stdout, stderr) = count(&text, &[]);
        assert_eq!(stdout, format!("solutions({oracle}).\n"), "{text}{stderr}");
        orbits += usize::from(stderr.contains("method: band-orbits"));
        let (stdout, stderr) = count(&text, &["--symmetry", "no-bands"]);
        assert_eq!(stdout, format!("solutions({oracle}).\n"), "{text}{stderr}");
        // Order relations and all, the grid engine takes these layouts.
        assert!(stderr.contains("engine: grid"), "{stderr}");
        implied += usize::from(stderr.contains("implied groups added"));
        let relations =
            stderr.split(", ").find_map(|part| part.strip_suffix(" order relations on the lines' first cells"));
        kept += usize::from(relations.is_some());
        both += usize::from(relations.is_some_and(|k| k.parse::<usize>().unwrap() >= 2));
    }
    assert!(implied >= 3 && kept >= 6 && both >= 2, "implied {implied}, kept {kept}, two or more relations {both}");
    assert!(orbits >= 3, "{orbits} counted by a band's orbits");
}
