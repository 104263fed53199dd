//! Chaos construction (ISS's `ChaosConstruction`, the native `chaos`): the
//! regions are found with the digits, and a solution is a grid and its
//! layout. Counts, candidates and unique solutions against a backtracker
//! written here, which lays out the regions first (every partition of the
//! grid into connected pieces, numbered by their first cells) and then
//! fills the digits, each solution's labels renumbered by the regions' 1s
//! as satsudoku numbers them; blank 4x4 counts also against ISS's.

use std::collections::HashSet;

use satsudoku::formulate::iss::string;
use satsudoku::parse::{parse, Format};

use crate::common::{assert_refused, neighbours, rng, satsudoku, Draw};

/// A chaos construction as the backtracker sees it: an `n x n` grid,
/// boxes of `h x w` cells if any, givens in reading order (0 for open).
struct Chaos {
    n: usize,
    boxes: Option<(usize, usize)>,
    givens: Vec<u8>,
}

/// A solution: the digits, then the region labels (from 1, numbered in
/// the reading order of each region's 1), in reading order.
type Solution = (Vec<u8>, Vec<u8>);

/// The labels renumbered in the reading order of their regions' 1s.
fn by_ones(digits: &[u8], labels: &[u8]) -> Vec<u8> {
    let ones: Vec<u8> = (0..digits.len()).filter(|&i| digits[i] == 1).map(|i| labels[i]).collect();
    labels.iter().map(|l| 1 + ones.iter().position(|o| o == l).expect("a 1 in every region") as u8).collect()
}

impl Chaos {
    /// Every partition of the grid into `n` orthogonally connected pieces
    /// of `n` cells, as labels: the first open cell starts the next piece,
    /// grown from it over open cells in every way.
    fn layouts(&self) -> Vec<Vec<u8>> {
        let mut found = Vec::new();
        self.lay(&mut vec![0; self.n * self.n], 1, &mut found);
        found
    }

    fn lay(&self, labels: &mut Vec<u8>, next: u8, found: &mut Vec<Vec<u8>>) {
        let Some(first) = labels.iter().position(|&l| l == 0) else {
            found.push(labels.clone());
            return;
        };
        for piece in self.pieces(first, labels) {
            for &i in &piece {
                labels[i] = next;
            }
            self.lay(labels, next + 1, found);
            for &i in &piece {
                labels[i] = 0;
            }
        }
    }

    /// The connected sets of `n` open cells that hold `first`.
    fn pieces(&self, first: usize, labels: &[u8]) -> Vec<Vec<usize>> {
        let n = self.n;
        let mut seen: HashSet<Vec<usize>> = HashSet::new();
        let mut layer = vec![vec![first]];
        for _ in 1..n {
            let mut grown = Vec::new();
            for set in &layer {
                for &i in set {
                    for j in neighbours(n, i) {
                        if labels[j] == 0 && !set.contains(&j) {
                            let mut bigger = set.clone();
                            bigger.push(j);
                            bigger.sort_unstable();
                            if seen.insert(bigger.clone()) {
                                grown.push(bigger);
                            }
                        }
                    }
                }
            }
            layer = grown;
        }
        layer
    }

    /// The fillings of one layout: digits cell by cell in reading order,
    /// different in each row, column, region and box.
    fn fill(&self, labels: &[u8], at: usize, grid: &mut Vec<u8>, found: &mut Vec<Solution>) {
        let n = self.n;
        if at == n * n {
            found.push((grid.clone(), by_ones(grid, labels)));
            return;
        }
        let (r, c) = (at / n, at % n);
        for d in 1..=n as u8 {
            if self.givens[at] != 0 && self.givens[at] != d {
                continue;
            }
            let clash = (0..at).any(|j| {
                let (r2, c2) = (j / n, j % n);
                let same_box = self.boxes.is_some_and(|(h, w)| r2 / h == r / h && c2 / w == c / w);
                grid[j] == d && (r2 == r || c2 == c || labels[j] == labels[at] || same_box)
            });
            if !clash {
                grid[at] = d;
                self.fill(labels, at + 1, grid, found);
                grid[at] = 0;
            }
        }
    }

    /// Every solution: each layout's fillings.
    fn solutions(&self) -> Vec<Solution> {
        let mut found = Vec::new();
        for labels in self.layouts() {
            self.fill(&labels, 0, &mut vec![0; self.n * self.n], &mut found);
        }
        found
    }

    /// The native `puzzle` file.
    fn native(&self) -> String {
        let n = self.n;
        let boxes = self.boxes.map_or("none".to_owned(), |(h, w)| format!("{h}x{w}"));
        let mut text = format!("size {n}\nbox {boxes}\nchaos\ngivens\n");
        for row in self.givens.chunks(n) {
            text.extend(row.iter().map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) }));
            text.push('\n');
        }
        text
    }

    /// The ISS string: its boxes are ISS's unless `NoBoxes`.
    fn iss(&self) -> String {
        let n = self.n;
        let mut text = format!(".Shape~{n}x{n}");
        if self.boxes.is_none() {
            text.push_str(".NoBoxes");
        }
        text.push_str(".ChaosConstruction");
        for (at, &d) in self.givens.iter().enumerate().filter(|(_, &d)| d != 0) {
            text.push_str(&format!(".~R{}C{}_{d}", at / n + 1, at % n + 1));
        }
        text
    }
}

fn count(format: &str, text: &str) -> String {
    let out = satsudoku().args(["count", "--format", format, "-"]).write_stdin(text.to_owned()).output().unwrap();
    assert!(out.status.success(), "{text}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Blank 4x4 chaos constructions, without boxes and with 2x2 boxes: the
/// backtracker's count, which ISS's counts (`node run_iss.mjs --iss
/// '.Shape~4x4.NoBoxes.ChaosConstruction' --limit 0`, and without
/// `.NoBoxes`) match; from the native format and from ISS's.
#[test]
fn blank_chaos_constructions_count_each_grid_and_layout_once() {
    for (boxes, iss) in [(None, 13872), (Some((2, 2)), 8688)] {
        let chaos = Chaos { n: 4, boxes, givens: vec![0; 16] };
        let expected = chaos.solutions().len();
        assert_eq!(expected, iss, "the backtracker against ISS");
        assert_eq!(count("puzzle", &chaos.native()), format!("solutions({expected})."));
        assert_eq!(count("iss", &chaos.iss()), format!("solutions({expected})."));
    }
}

/// Random 5x5 chaos constructions with givens (some of which clash: a
/// count of 0 is checked too), counted as the backtracker counts them.
/// With the givens alone, `count` numbers the labels by their regions'
/// first cells; with a rule on the digits as well (a cage over row 1 that
/// every grid keeps, 1 + ... + 5), by their 1s (`first_cell_labels`):
/// both formulas are counted.
#[test]
fn chaos_constructions_with_givens_count_as_a_backtracker() {
    let mut rng = rng(2026);
    let layouts = Chaos { n: 5, boxes: None, givens: vec![0; 25] }.layouts();
    for round in 0..8 {
        let mut chaos = Chaos { n: 5, boxes: None, givens: vec![0; 25] };
        for _ in 0..5 + round % 3 {
            chaos.givens[rng.below(25)] = 1 + rng.below(5) as u8;
        }
        let mut expected = 0;
        for labels in &layouts {
            let mut found = Vec::new();
            chaos.fill(labels, 0, &mut vec![0; 25], &mut found);
            expected += found.len();
        }
        let (format, text) = if round % 2 == 0 { ("puzzle", chaos.native()) } else { ("iss", chaos.iss()) };
        let caged = chaos.native().replacen("givens\n", "killer r1c1 r1c2 r1c3 r1c4 r1c5 = 15\ngivens\n", 1);
        for (format, text, first_cells) in [(format, text, true), ("puzzle", caged, false)] {
            let mut command = satsudoku();
            let out = command.args(["count", "--stats", "--format", format, "-"]).write_stdin(text.clone()).output();
            let out = out.unwrap();
            if expected == 0 && out.status.code() == Some(2) {
                continue; // givens that clash in a row or column, refused as such
            }
            assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("solutions({expected})."), "{text}");
            let stats = String::from_utf8_lossy(&out.stderr);
            assert_eq!(stats.contains("chaos labels: by their regions' first cells"), first_cells, "{text}\n{stats}");
        }
    }
}

/// The blocking engine on chaos constructions, both numberings of the
/// labels, against the backtracker. Where the formula numbers the labels
/// by their regions' first cells, the grid a model decodes to has them
/// renumbered by their 1s, and the blocking clause was built from that
/// grid: it blocked another assignment, not the model, so varisat found
/// the same solution again and again (ISS's "Stretching", 1 solution:
/// `solutions_at_least(16193)` after two minutes).
#[test]
fn the_blocking_engine_counts_chaos_constructions_as_a_backtracker() {
    let mut rng = rng(41);
    for round in 0..6 {
        let mut chaos = Chaos { n: 4, boxes: None, givens: vec![0; 16] };
        for _ in 0..3 + round % 3 {
            chaos.givens[rng.below(16)] = 1 + rng.below(4) as u8;
        }
        let expected = chaos.solutions().len();
        let caged = chaos.native().replacen("givens\n", "killer r1c1 r1c2 r1c3 r1c4 = 10\ngivens\n", 1);
        for (text, first_cells) in [(chaos.native(), true), (caged, false)] {
            let out = satsudoku()
                .args(["count", "--engine", "blocking", "--stats", "-j1", "--format", "puzzle", "-"])
                .write_stdin(text.clone())
                .timeout(std::time::Duration::from_secs(60))
                .output()
                .unwrap();
            if expected == 0 && out.status.code() == Some(2) {
                continue; // givens that clash in a row or column, refused as such
            }
            assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("solutions({expected})."), "{text}");
            let stats = String::from_utf8_lossy(&out.stderr);
            assert_eq!(stats.contains("chaos labels: by their regions' first cells"), first_cells, "{text}\n{stats}");
        }
    }
}

/// What the commands print of a 5x5 chaos construction's solutions,
/// against the backtracker's: `count --print` every (grid, layout) of a
/// full grid (no grid of 5x5 has one layout only: 28 to 118 fit each of
/// those tried, so none is unique without clues on the regions), its
/// labels numbered as the backtracker numbers them; `unique` two of them;
/// and `candidates` every digit and label some solution has, with givens.
#[test]
fn commands_show_the_digits_and_the_regions() {
    let mut rng = rng(5);
    let layouts = Chaos { n: 5, boxes: None, givens: vec![0; 25] }.layouts();
    let solutions = |givens: &[u8]| {
        let chaos = Chaos { n: 5, boxes: None, givens: givens.to_vec() };
        let mut found = Vec::new();
        for labels in &layouts {
            chaos.fill(labels, 0, &mut vec![0; 25], &mut found);
        }
        found.sort();
        found
    };
    let shown =
        |(digits, labels): &Solution| -> String { digits.iter().chain(labels).map(|d| char::from(b'0' + d)).collect() };
    // A filling of a random layout, all given.
    let labels = &layouts[rng.below(layouts.len())];
    let mut fillings = Vec::new();
    Chaos { n: 5, boxes: None, givens: vec![0; 25] }.fill(labels, 0, &mut vec![0; 25], &mut fillings);
    let (digits, _) = fillings[rng.below(fillings.len())].clone();
    let all = solutions(&digits);
    assert!(all.len() > 1);
    let native = Chaos { n: 5, boxes: None, givens: digits.clone() }.native();
    let out = satsudoku().args(["count", "--print", "--format", "puzzle", "-"]).write_stdin(native.clone()).output();
    let printed = String::from_utf8_lossy(&out.unwrap().stdout).into_owned();
    let mut grids: Vec<String> = printed
        .split("% solution")
        .skip(1)
        .map(|block| {
            let rows = block.lines().skip(1).filter(|l| !l.starts_with("solutions("));
            rows.flat_map(|l| l.split_whitespace()).collect::<String>()
        })
        .collect();
    grids.sort();
    assert_eq!(grids, all.iter().map(shown).collect::<Vec<_>>(), "{printed}");
    let out = satsudoku().args(["unique", "--format", "puzzle", "-"]).write_stdin(native).output().unwrap();
    let line = String::from_utf8_lossy(&out.stdout).into_owned();
    let words: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(words[0], "multiple", "{line}");
    assert!(words[1] != words[2] && [words[1], words[2]].iter().all(|w| grids.iter().any(|g| g == w)), "{line}");
    // Some givens of the grid: every digit and label of some solution,
    // and no other, in each cell.
    let mut cells: Vec<usize> = (0..25).collect();
    rng.shuffle(&mut cells);
    let mut givens = vec![0; 25];
    for &at in &cells[..9] {
        givens[at] = digits[at];
    }
    let all = solutions(&givens);
    let native = Chaos { n: 5, boxes: None, givens }.native();
    let out = satsudoku().args(["candidates", "--format", "puzzle", "-"]).write_stdin(native.clone()).output();
    // A given's digit is shown in brackets.
    let shown: Vec<String> = String::from_utf8_lossy(&out.unwrap().stdout)
        .split_whitespace()
        .map(|w| w.trim_matches(['[', ']']).to_owned())
        .collect();
    assert_eq!(shown.len(), 50, "{shown:?}");
    for (i, shown) in shown.iter().enumerate() {
        let mut expected: Vec<u8> = all.iter().map(|(d, l)| if i < 25 { d[i] } else { l[i - 25] }).collect();
        expected.sort_unstable();
        expected.dedup();
        let expected: String = expected.iter().map(|d| char::from(b'0' + d)).collect();
        assert_eq!(*shown, expected, "cell {i} of {native}");
    }
}

/// A chaos construction written as an ISS string reads back as the same
/// puzzle, and what is not read with it is refused by name, with its
/// position, exit status 2.
#[test]
fn chaos_round_trips_and_refuses_what_it_does_not_read() {
    let text =
        "size 6\nbox none\nchaos\nthermo r1c1 r1c2 r1c3\ngivens\n1.....\n......\n......\n......\n......\n.....6\n";
    let puzzle = parse(text, "t", Some(Format::Puzzle)).unwrap();
    assert!(puzzle.is_chaos());
    let iss = string(&puzzle).unwrap();
    assert!(iss.contains(".ChaosConstruction") && iss.contains(".NoBoxes"), "{iss}");
    assert_eq!(parse(&iss, "t", Some(Format::Iss)).unwrap(), puzzle, "{iss}");
    for (format, text, words) in [
        ("iss", ".NoBoxes.ChaosConstruction.Thermo~CC1~CC2", vec!["1:35:", "CC1", "region cell"]),
        ("iss", ".NoBoxes.ChaosConstruction.ChaosCount~R1C1~0~CC1~CC82", vec!["1:50:", "CC1 to CC81"]),
        ("iss", ".NoBoxes.ChaosConstruction.ChaosCount~R1C1~0~R1C2", vec!["1:46:", "R1C2", "region cell"]),
        ("iss", ".NoBoxes.ChaosCount~R1C1~0~CC1~CC2", vec!["1:10:", "needs ChaosConstruction"]),
        (
            "iss",
            ".NoBoxes.ChaosConstruction.SameValues~2~CC1~R1C2",
            vec!["1:45:", "R1C2", "region cells (CC) and grid cells"],
        ),
        ("iss", ".NoBoxes.ChaosConstruction.CountDistinct~CC1~CC2", vec!["1:42:", "CC1", "region cell"]),
        ("iss", ".NoBoxes.SameValues~2~CC1~CC2", vec!["1:23:", "CC1", "region cell"]),
        ("iss", ".ChaosConstruction.RegionSumLine~R1C1~R1C2", vec!["1:20:", "RegionSumLine", "regions"]),
        ("iss", ".Shape~6x8.ChaosConstruction", vec!["ChaosConstruction on a 6x8 grid"]),
        ("iss", ".Shape~6x6~7.NoBoxes.ChaosConstruction", vec!["6x6 grid of 7 values"]),
        ("puzzle", "size 4\nchaos\n", vec!["2:1:", "box none"]),
        ("puzzle", "size 4\nbox none\nchaos\nregion-sum r1c1 r1c2\n", vec!["4:1:", "region-sum"]),
        ("puzzle", "size 4\nbox none\nchaos\nchaos\n", vec!["4:1:", "twice"]),
        ("puzzle", "size 4\nbox none\nchaos-count r1c1\n", vec!["3:1:", "on a chaos construction only"]),
        ("puzzle", "size 4\nbox none\nsame-values @r1c1 : @r2c2\n", vec!["3:1:", "on a chaos construction only"]),
        ("puzzle", "size 4\nbox none\nchaos\nthermo @r1c1 r1c2\n", vec!["4:8:", "\"@r1c1\" in thermo"]),
        ("puzzle", "size 4\nbox none\nchaos\nsame-values @r1c1 : r1c2\n", vec!["4:13:", "with grid cells"]),
        ("puzzle", "size 4\nbox none\nchaos\ncount-distinct @r1c1 @r1c2\n", vec!["4:16:", "with grid cells"]),
        ("puzzle", "size 4\nbox none\nchaos\nchaos-arrow r1c1 = 2\n", vec!["4:20:", "an offset of 0 or 1"]),
        (
            "puzzle",
            "size 4\nbox none\nchaos\nchaos-arrow r1c1 : r2c1 r2c2 : r3c3\n",
            vec!["4:1:", "the first from r2c1, another from r3c3"],
        ),
        ("puzzle", "size 4\nbox none\nchaos\nchaos-count r1c1 r2c2\n", vec!["4:1:", "takes one cell, then ':'"]),
        ("puzzle", "size 4\nbox none\nchaos\neither\nchaos-count r1c1\nend\n", vec!["5:1:", "inside an either block"]),
    ] {
        assert_refused(&["count", "--format", format, "-"], text, &words);
    }
    for command in [&["rate"][..], &["minimal"], &["generate"], &["fewest"], &["count", "--up-to-symmetry"]] {
        let args = [command, &["--format", "puzzle", "-"]].concat();
        assert_refused(&args, text, &["a chaos construction"]);
    }
}

/// A clue of ISS's on the region cells, as the backtracker reads it.
enum Clue {
    /// `ChaosArrow`: the control (a grid index), the offset, the arms (grid
    /// indices of the region cells), or none for the four to the edges.
    Arrow(usize, u8, Vec<Vec<usize>>),
    /// `ChaosCount`: the control, the offset, the counted cells (the first
    /// is the one they are compared with), or none for the 3x3 around it.
    Count(usize, u8, Vec<usize>),
    /// `SameValues` on region cells: the number of sets, the cells (split
    /// in order into sets of one size, each meeting the same regions as
    /// often).
    Same(usize, Vec<usize>),
    /// `CountDistinct` counting region cells: the control, the cells (how
    /// many regions they meet).
    Distinct(usize, Vec<usize>),
}

impl Clue {
    /// The ISS item, `CC{k + 1}` for the region cell of grid index `k`.
    fn iss(&self, n: usize) -> String {
        let id = |k: usize| format!("R{}C{}", k / n + 1, k % n + 1);
        let cc = |cells: &[usize]| cells.iter().map(|k| format!("~CC{}", k + 1)).collect::<String>();
        match self {
            Clue::Arrow(control, offset, arms) if arms.is_empty() => format!(".ChaosArrow~{}~{offset}", id(*control)),
            Clue::Arrow(control, offset, arms) => {
                let arms: Vec<String> = arms.iter().map(|a| cc(a)).collect();
                format!(".ChaosArrow~{}~{offset}{}", id(*control), arms.join("~-"))
            }
            Clue::Count(control, offset, cells) => format!(".ChaosCount~{}~{offset}{}", id(*control), cc(cells)),
            Clue::Same(sets, cells) => format!(".SameValues~{sets}{}", cc(cells)),
            Clue::Distinct(control, cells) => format!(".CountDistinct~{}{}", id(*control), cc(cells)),
        }
    }

    /// The native rule line: `chaos-arrow` and `chaos-count` name the grid
    /// cells whose regions they read, `same-values` and `count-distinct`
    /// the region labels `@r1c1`.
    fn native(&self, n: usize) -> String {
        let id = |k: &usize| format!("r{}c{}", k / n + 1, k % n + 1);
        let list = |cells: &[usize]| cells.iter().map(id).collect::<Vec<_>>().join(" ");
        let labels = |cells: &[usize]| cells.iter().map(|k| format!("@{}", id(k))).collect::<Vec<_>>().join(" ");
        match self {
            Clue::Arrow(control, offset, arms) => {
                let arms: String = arms.iter().map(|a| format!(" : {}", list(a))).collect();
                format!("chaos-arrow {}{arms} = {offset}", id(control))
            }
            Clue::Count(control, offset, cells) if cells.is_empty() => {
                format!("chaos-count {} = {offset}", id(control))
            }
            Clue::Count(control, offset, cells) => format!("chaos-count {} : {} = {offset}", id(control), list(cells)),
            Clue::Same(sets, cells) => {
                let parts: Vec<String> = cells.chunks(cells.len() / sets).map(labels).collect();
                format!("same-values {}", parts.join(" : "))
            }
            Clue::Distinct(control, cells) => format!("count-distinct {} {}", id(control), labels(cells)),
        }
    }

    /// Whether a solution's digits and labels satisfy it.
    fn holds(&self, n: usize, (digits, labels): &Solution) -> bool {
        let steps = |from: usize, dr: isize, dc: isize| -> Vec<usize> {
            let (mut r, mut c) = ((from / n) as isize, (from % n) as isize);
            let mut cells = Vec::new();
            while (0..n as isize).contains(&r) && (0..n as isize).contains(&c) {
                cells.push(r as usize * n + c as usize);
                (r, c) = (r + dr, c + dc);
            }
            cells
        };
        let (control, offset, total) = match self {
            Clue::Same(sets, cells) => {
                let sorted = |set: &[usize]| {
                    let mut of: Vec<u8> = set.iter().map(|&k| labels[k]).collect();
                    of.sort_unstable();
                    of
                };
                let size = cells.len() / sets;
                return cells.chunks(size).all(|set| sorted(set) == sorted(&cells[..size]));
            }
            Clue::Distinct(control, cells) => {
                let met: HashSet<u8> = cells.iter().map(|&k| labels[k]).collect();
                return usize::from(digits[*control]) == met.len();
            }
            Clue::Arrow(control, offset, arms) => {
                let arms = match arms.is_empty() {
                    true => vec![
                        steps(*control, 0, -1),
                        steps(*control, 0, 1),
                        steps(*control, -1, 0),
                        steps(*control, 1, 0),
                    ],
                    false => arms.clone(),
                };
                // The start, then each arm's cells in its region, up to the
                // first that is not.
                let start = labels[arms[0][0]];
                let runs: usize = arms.iter().map(|a| a[1..].iter().take_while(|&&k| labels[k] == start).count()).sum();
                (*control, *offset, 1 + runs)
            }
            Clue::Count(control, offset, cells) => {
                let cells = match cells.is_empty() {
                    true => {
                        let (r, c) = ((control / n) as isize, (control % n) as isize);
                        let mut around = vec![*control];
                        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)] {
                            let (i, j) = (r + dr, c + dc);
                            if (0..n as isize).contains(&i) && (0..n as isize).contains(&j) {
                                around.push(i as usize * n + j as usize);
                            }
                        }
                        around
                    }
                    false => cells.clone(),
                };
                (*control, *offset, cells.iter().filter(|&&k| labels[k] == labels[cells[0]]).count())
            }
        };
        usize::from(digits[control]) + usize::from(offset) == total
    }
}

/// Random ISS region clues (`ChaosArrow`, `ChaosCount`: arms and counted
/// cells listed or left to ISS's defaults, offsets 0 and 1; `SameValues`
/// and `CountDistinct` on region cells) on blank 4x4 chaos constructions:
/// counted as the backtracker's solutions that satisfy them, read from
/// ISS's handlers' meaning, and written back as ISS strings the same.
#[test]
fn region_clues_count_as_a_backtracker() {
    let mut rng = rng(38);
    let n = 4;
    let all = Chaos { n, boxes: None, givens: vec![0; n * n] }.solutions();
    let mut nonzero = 0;
    for round in 0..36 {
        let mut clues = Vec::new();
        for _ in 0..1 + round % 3 {
            let control = rng.below(n * n);
            let offset = rng.below(2) as u8;
            let start = rng.below(n * n);
            let path = |rng: &mut crate::common::Rng, from: usize| {
                // A straight arm from `from`, to the edge or shorter.
                let (dr, dc) = [(0, 1), (1, 0), (0, -1), (-1, 0)][rng.below(4)];
                let (mut r, mut c) = ((from / n) as isize, (from % n) as isize);
                let mut cells = Vec::new();
                while (0..n as isize).contains(&r) && (0..n as isize).contains(&c) && cells.len() < 1 + rng.below(4) {
                    cells.push(r as usize * n + c as usize);
                    (r, c) = (r + dr, c + dc);
                }
                cells
            };
            let mut cells: Vec<usize> = (0..n * n).collect();
            rng.shuffle(&mut cells);
            clues.push(match round % 6 {
                0 => Clue::Arrow(control, offset, Vec::new()),
                1 => Clue::Arrow(control, offset, (0..1 + rng.below(3)).map(|_| path(&mut rng, start)).collect()),
                2 => Clue::Count(control, offset, Vec::new()),
                3 => Clue::Count(control, offset, cells[..1 + rng.below(6)].to_vec()),
                4 => {
                    let (sets, size) = (2 + rng.below(2), 1 + rng.below(2));
                    Clue::Same(sets, cells[..sets * size].to_vec())
                }
                _ => Clue::Distinct(control, cells[..1 + rng.below(8)].to_vec()),
            });
        }
        let expected = all.iter().filter(|s| clues.iter().all(|c| c.holds(n, s))).count();
        nonzero += usize::from(expected > 0);
        let text =
            format!(".Shape~4x4.NoBoxes.ChaosConstruction{}", clues.iter().map(|c| c.iss(n)).collect::<String>());
        assert_eq!(count("iss", &text), format!("solutions({expected})."), "{text}");
        // The same clues in the native format.
        let native =
            format!("size 4\nbox none\nchaos\n{}\n", clues.iter().map(|c| c.native(n)).collect::<Vec<_>>().join("\n"));
        assert_eq!(count("puzzle", &native), format!("solutions({expected})."), "{native}");
        // Written as ISS's string (every region run a ChaosArrow), read back the same.
        let puzzle = parse(&text, "t", Some(Format::Iss)).unwrap();
        let written = string(&puzzle).unwrap();
        assert_eq!(parse(&written, "t", Some(Format::Iss)).unwrap(), puzzle, "{text}\n{written}");
    }
    assert!(nonzero >= 12, "{nonzero} of the puzzles have solutions");
}

/// `CountDistinct` over region cells some of which are enclosed by the
/// others (a corner and its two neighbours, a cross, a 3x3 block, two
/// corners' L shapes), where satsudoku also rules out counts above the
/// cells less one per enclosed cell (ISS's optimizer's bound): each alone
/// and two together, counted as the backtracker's solutions that satisfy
/// them, so that a bound one too tight loses solutions.
#[test]
fn counts_of_regions_around_enclosed_cells_count_as_a_backtracker() {
    let n = 4;
    let all = Chaos { n, boxes: None, givens: vec![0; n * n] }.solutions();
    let sets: [&[usize]; 5] =
        [&[0, 1, 4], &[1, 4, 5, 6, 9], &[0, 1, 2, 4, 5, 6, 8, 9, 10], &[0, 1, 4, 11, 14, 15], &[3, 2, 7]];
    let mut clue_sets: Vec<Vec<Clue>> = sets.iter().map(|s| vec![Clue::Distinct(15, s.to_vec())]).collect();
    clue_sets.push(vec![Clue::Distinct(12, sets[0].to_vec()), Clue::Distinct(3, sets[1].to_vec())]);
    for clues in clue_sets {
        let expected = all.iter().filter(|s| clues.iter().all(|c| c.holds(n, s))).count();
        assert!(expected > 0);
        let text =
            format!(".Shape~4x4.NoBoxes.ChaosConstruction{}", clues.iter().map(|c| c.iss(n)).collect::<String>());
        assert_eq!(count("iss", &text), format!("solutions({expected})."), "{text}");
    }
}
