//! Rectangular grids (ISS's `Shape~6x8`): counts of random small
//! rectangles against a backtracker written here, ISS's rectangles written
//! as ISS strings and read back the same, and what the commands print and
//! refuse on them.

use satsudoku::formulate::iss::string;
use satsudoku::parse::{parse, Format};
use serde_json::Value;

use crate::common::{assert_refused, rng, satsudoku, Draw};

/// A rectangle as the backtracker sees it: `rows x cols` cells, digits
/// `1..=values`, rows and columns all different, and each box of `h x w`
/// cells (if any) all different; `givens` in reading order, 0 for open.
struct Rect {
    rows: usize,
    cols: usize,
    values: u32,
    boxes: Option<(usize, usize)>,
    givens: Vec<u32>,
    /// A rule every filling must also keep (on its digits in reading order).
    keep: fn(&Rect, &[u32]) -> bool,
    /// Rules of the native format every filling keeps too.
    lines: Vec<Line>,
}

/// A rule line of the native format, as the backtracker checks it: cells
/// by their index in reading order.
#[derive(Clone, Debug)]
enum Line {
    /// Digits increase along the cells.
    Thermo(Vec<usize>),
    /// Different digits summing to the number.
    Killer(Vec<usize>, u32),
    /// Two digits one apart.
    White(usize, usize),
    /// One digit twice the other.
    Black(usize, usize),
    /// Two digits summing to 10.
    X(usize, usize),
}

impl Line {
    fn holds(&self, g: &[u32]) -> bool {
        match self {
            Line::Thermo(cells) => cells.windows(2).all(|w| g[w[0]] < g[w[1]]),
            Line::Killer(cells, sum) => {
                let distinct = cells.iter().enumerate().all(|(i, &a)| cells[..i].iter().all(|&b| g[a] != g[b]));
                distinct && cells.iter().map(|&c| g[c]).sum::<u32>() == *sum
            }
            Line::White(a, b) => g[*a].abs_diff(g[*b]) == 1,
            Line::Black(a, b) => g[*a] == 2 * g[*b] || g[*b] == 2 * g[*a],
            Line::X(a, b) => g[*a] + g[*b] == 10,
        }
    }

    /// The line in the native format, on a grid of `cols` columns.
    fn native(&self, cols: usize) -> String {
        let name = |&i: &usize| format!("r{}c{}", i / cols + 1, i % cols + 1);
        let list = |cells: &[usize]| cells.iter().map(name).collect::<Vec<_>>().join(" ");
        match self {
            Line::Thermo(cells) => format!("thermo {}", list(cells)),
            Line::Killer(cells, sum) => format!("killer {} = {sum}", list(cells)),
            Line::White(a, b) => format!("white {} {}", name(a), name(b)),
            Line::Black(a, b) => format!("black {} {}", name(a), name(b)),
            Line::X(a, b) => format!("x {} {}", name(a), name(b)),
        }
    }
}

impl Rect {
    /// Its fillings, counted cell by cell in reading order.
    fn count(&self) -> u64 {
        let mut grid = vec![0; self.rows * self.cols];
        self.fill(0, &mut grid)
    }

    fn fill(&self, at: usize, grid: &mut [u32]) -> u64 {
        if at == grid.len() {
            return u64::from((self.keep)(self, grid) && self.lines.iter().all(|l| l.holds(grid)));
        }
        let (r, c) = (at / self.cols, at % self.cols);
        let mut found = 0;
        for d in 1..=self.values {
            if self.givens[at] != 0 && self.givens[at] != d {
                continue;
            }
            let clash = (0..at).any(|j| {
                let (r2, c2) = (j / self.cols, j % self.cols);
                let same_box = self.boxes.is_some_and(|(h, w)| r2 / h == r / h && c2 / w == c / w);
                grid[j] == d && (r2 == r || c2 == c || same_box)
            });
            if !clash {
                grid[at] = d;
                found += self.fill(at + 1, grid);
                grid[at] = 0;
            }
        }
        found
    }

    /// The ISS string: its shape and values (more than the longer side
    /// when so), `NoBoxes` when it has none but ISS would, the givens.
    fn iss(&self, iss_boxes: bool) -> String {
        let long = self.rows.max(self.cols) as u32;
        let mut text = format!(".Shape~{}x{}", self.rows, self.cols);
        if self.values != long {
            text.push_str(&format!("~{}", self.values));
        }
        if self.boxes.is_none() && iss_boxes {
            text.push_str(".NoBoxes");
        }
        for (at, &d) in self.givens.iter().enumerate().filter(|(_, &d)| d != 0) {
            text.push_str(&format!(".~R{}C{}_{d}", at / self.cols + 1, at % self.cols + 1));
        }
        text
    }

    /// The native `puzzle` text: `size` (a side, or `RxC`), `box`,
    /// `values` when more than the longer side, the givens, the lines.
    fn native(&self) -> String {
        let long = self.rows.max(self.cols);
        let mut text = match self.rows == self.cols {
            true => format!("size {long}\n"),
            false => format!("size {}x{}\n", self.rows, self.cols),
        };
        match self.boxes {
            Some((h, w)) => text.push_str(&format!("box {h}x{w}\n")),
            None => text.push_str("box none\n"),
        }
        if self.values as usize != long {
            text.push_str(&format!("values 1-{}\n", self.values));
        }
        text.push_str("givens\n");
        for row in self.givens.chunks(self.cols) {
            let symbol = |&d: &u32| if d == 0 { '.' } else { char::from_digit(d, 36).unwrap() };
            text.extend(row.iter().map(symbol));
            text.push('\n');
        }
        for line in &self.lines {
            text.push_str(&line.native(self.cols));
            text.push('\n');
        }
        text
    }
}

/// Counts of random rectangles with givens, boxes as ISS places them (or
/// none), and sometimes a value more than the longer side, as the
/// backtracker finds them: the padding of the square model adds no
/// solution and takes none away.
#[test]
fn rectangles_count_as_a_backtracker() {
    // Shapes, and ISS's boxes for regions of the longer side
    // (`CellGeometry.boxDimsForSize`), worked out by hand.
    type Shape = (usize, usize, Option<(usize, usize)>);
    let shapes: [Shape; 8] = [
        (2, 3, None),
        (3, 2, None),
        (2, 4, Some((2, 2))),
        (4, 2, Some((2, 2))),
        (3, 4, None),
        (2, 6, Some((2, 3))),
        (3, 6, Some((3, 2))),
        (4, 6, Some((2, 3))),
    ];
    let mut rng = rng(77);
    for round in 0..32 {
        let (rows, cols, iss_boxes) = shapes[round % shapes.len()];
        let long = rows.max(cols) as u32;
        let values = if round % 5 == 4 { long + 1 } else { long };
        // More values than the side: boxes of the side's cells would not
        // hold every value; ISS keeps them, so does the reader.
        let boxes = if round % 3 == 2 { None } else { iss_boxes };
        let mut rect =
            Rect { rows, cols, values, boxes, givens: vec![0; rows * cols], keep: |_, _| true, lines: vec![] };
        // A few givens, which may clash (a count of 0 is checked too); none
        // on some small ones, where a blank layout's shortcuts could apply.
        let givens = match (rows * cols, round % 4) {
            (..=12, 0) => 0,
            (18.., _) => rows * cols / 2,
            _ => rows * cols / 3,
        };
        for _ in 0..givens {
            let at = rng.below(rows * cols);
            rect.givens[at] = 1 + rng.below(values as usize) as u32;
        }
        let expected = rect.count();
        let text = rect.iss(iss_boxes.is_some());
        let out = satsudoku().args(["count", "--format", "iss", "-"]).write_stdin(text.clone()).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        if expected == 0 && out.status.code() == Some(2) {
            continue; // givens that clash in a group, refused as such
        }
        assert_eq!(stdout.trim(), format!("solutions({expected})."), "{text}");
    }
}

/// The native format's rectangles (`size RxC`), and squares of more
/// values than their side (`values 1-V`), with givens and random rules
/// that read their cells only (thermometers, cages, Kropki dots, X), count
/// as the backtracker finds them; rules that read the whole grid's
/// shape are refused there by name.
#[test]
fn native_rectangles_and_more_values_count_as_a_backtracker() {
    type Shape = (usize, usize, Option<(usize, usize)>);
    let shapes: [Shape; 7] = [
        (2, 3, None),
        (3, 2, None),
        (2, 4, Some((2, 2))),
        (3, 4, None),
        (4, 3, None),
        (3, 3, None),
        (4, 4, Some((2, 2))),
    ];
    let mut rng = rng(91);
    let mut solved = 0;
    for round in 0..40 {
        let (rows, cols, boxes) = shapes[round % shapes.len()];
        let long = rows.max(cols) as u32;
        let values = if rows == cols || round % 3 == 0 { long + 1 } else { long };
        let mut rect =
            Rect { rows, cols, values, boxes, givens: vec![0; rows * cols], keep: |_, _| true, lines: vec![] };
        for _ in 0..rng.below(3) {
            let at = rng.below(rows * cols);
            rect.givens[at] = 1 + rng.below(values as usize) as u32;
        }
        // Neighbours in a row or a column, no cell in two rules (two
        // dots on one pair, or two cages on one cell, are refused).
        let mut used = Vec::new();
        let mut pair = |rng: &mut crate::common::Rng| loop {
            let a = rng.below(rows * cols);
            let b = if rng.below(2) == 0 { a + 1 } else { a + cols };
            if b < rows * cols && (b == a + cols || b % cols != 0) && !used.contains(&a) && !used.contains(&b) {
                used.extend([a, b]);
                return (a, b);
            }
        };
        for _ in 0..1 + rng.below(2) {
            let (a, b) = pair(&mut rng);
            let line = match rng.below(5) {
                0 => Line::Thermo(vec![a, b]),
                1 => Line::Killer(vec![a, b], 3 + rng.below(2 * values as usize - 3) as u32),
                2 => Line::White(a, b),
                3 => Line::Black(a, b),
                _ => Line::X(a, b),
            };
            rect.lines.push(line);
        }
        let expected = rect.count();
        let text = rect.native();
        let out = satsudoku().args(["count", "--format", "puzzle", "-"]).write_stdin(text.clone()).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        if expected == 0 && out.status.code() == Some(2) {
            continue; // givens that clash in a group, or a dot no digits fit, refused as such
        }
        assert_eq!(stdout.trim(), format!("solutions({expected})."), "{text}");
        solved += usize::from(expected > 0);
    }
    assert!(solved >= 20, "only {solved} rounds with solutions");
    for (text, words) in [
        ("size 2x3\n", vec!["1:1:", "box RxC"]),
        ("size 6x4\nbox 2x3\n", vec!["2:5:", "do not tile the 6x4 grid"]),
        ("size 2x3\nbox none\nxsum r1c1 = 3\n", vec!["3:1:", "xsum on a rectangle", "not read there"]),
        ("size 4\nvalues 1-5\ndiagonal+\n", vec!["3:1:", "more values than its side (line 2)"]),
        ("size 4\nvalues 2-5\n", vec!["2:8:", "expected values 1-V or 0-V"]),
        ("size 4\nvalues 1-3\n", vec!["2:8:", "the side 4 or more"]),
        ("size 4\nvalues 1-6\nwhisper r1c1 r1c2\n", vec!["3:1:", "whisper without '= N'"]),
        ("size 2x3\nbox none\ngivens\n1..\n..4\n", vec!["5:3:", "above the grid's 3 digits"]),
        ("size 2x3\nbox none\nthermo r1c1 r3c1\n", vec!["3:13:", "outside the 2 x 3 grid"]),
        ("size 3x2\nbox none\nchaos\n", vec!["3:1:", "chaos on a rectangle"]),
        ("size 3x3\n", vec!["1:6:", "write \"size 3\""]),
    ] {
        assert_refused(&["count", "--format", "puzzle", "-"], text, &words);
    }
}

/// Whether no two cells `steps` apart (and inside the rectangle) of the
/// filling `g` hold the same digit.
fn none_apart(rect: &Rect, g: &[u32], steps: &[(isize, isize)]) -> bool {
    (0..g.len()).all(|i| {
        let (r, c) = ((i / rect.cols) as isize, (i % rect.cols) as isize);
        steps.iter().all(|&(dr, dc)| {
            let (r2, c2) = (r + dr, c + dc);
            let inside = (0..rect.rows as isize).contains(&r2) && (0..rect.cols as isize).contains(&c2);
            !inside || g[(r2 * rect.cols as isize + c2) as usize] != g[i]
        })
    })
}

/// Whether each indexing control `(row, col)` of the filling `g` names,
/// by its digit, a cell of its row (`by_column`: ISS's `Indexing~C`) or of
/// its column that holds its column (or row) number; a digit past the
/// line names none.
fn indexes(rect: &Rect, g: &[u32], controls: &[(usize, usize)], by_column: bool) -> bool {
    controls.iter().all(|&(row, col)| {
        let v = g[row * rect.cols + col] as usize;
        match by_column {
            true => v <= rect.cols && g[row * rect.cols + v - 1] as usize == col + 1,
            false => v <= rect.rows && g[(v - 1) * rect.cols + col] as usize == row + 1,
        }
    })
}

/// ISS's rules over the whole rectangle (anti-knight, anti-king), its
/// indexing, whose line is the control's row or column, as long as the
/// rectangle has columns or rows (a digit past it names no cell: ISS's
/// handler), `Or`, `And` and `Replicate` (its targets counted along the
/// rectangle's rows, as ISS's cell indices are), against the
/// backtracker, before and after `export --as iss`
/// (ISS's "Answers on a Postcard", a 6x9 with both, is checked with its
/// published solution in tests/it/iss.rs).
#[test]
fn whole_grid_rules_and_indexing_on_rectangles_count_as_a_backtracker() {
    const KNIGHT: [(isize, isize); 4] = [(1, 2), (2, 1), (1, -2), (2, -1)];
    const KING: [(isize, isize); 2] = [(1, 1), (1, -1)];
    type Case = (&'static str, usize, usize, Option<(usize, usize)>, Vec<(usize, u32)>, fn(&Rect, &[u32]) -> bool);
    let cases: [Case; 9] = [
        (".Shape~3x4.AntiKnight", 3, 4, None, vec![], |r, g| none_apart(r, g, &KNIGHT)),
        (".Shape~2x4.AntiKing", 2, 4, Some((2, 2)), vec![], |r, g| none_apart(r, g, &KING)),
        (".Shape~4x6.AntiKnight.~R1C1_1~R2C3_2~R3C5_3", 4, 6, Some((2, 3)), vec![(0, 1), (8, 2), (16, 3)], |r, g| {
            none_apart(r, g, &KNIGHT)
        }),
        (".Shape~2x4.Indexing~C~R1C2~R2C1", 2, 4, Some((2, 2)), vec![], |r, g| indexes(r, g, &[(0, 1), (1, 0)], true)),
        (".Shape~3x4.Indexing~R~R1C1~R3C4", 3, 4, None, vec![], |r, g| indexes(r, g, &[(0, 0), (2, 3)], false)),
        (".Shape~4x3.Indexing~C~R2C2.Indexing~R~R4C1", 4, 3, None, vec![], |r, g| {
            indexes(r, g, &[(1, 1)], true) && indexes(r, g, &[(3, 0)], false)
        }),
        // Alternatives, and copies of a rule on the rectangle's cells in
        // reading order: "R" is bits 0 and 4, R1C1 and (three columns a
        // row) R2C2.
        (".Shape~2x3.Or.~R1C1_1.~R1C2_1.End", 2, 3, None, vec![], |_, g| g[0] == 1 || g[1] == 1),
        (".Shape~4x3.Replicate~R.Thermo~R1C1~R1C2.End", 4, 3, None, vec![], |_, g| g[0] < g[1] && g[4] < g[5]),
        (
            ".Shape~2x4.And.Thermo~R1C1~R2C1.End.Or.WhiteDot~R2C3~R2C4.Thermo~R1C4~R1C3.End",
            2,
            4,
            Some((2, 2)),
            vec![],
            |_, g| g[0] < g[4] && (g[6].abs_diff(g[7]) == 1 || g[3] < g[2]),
        ),
    ];
    for (text, rows, cols, boxes, given, keep) in cases {
        let mut givens = vec![0; rows * cols];
        for (at, d) in given {
            givens[at] = d;
        }
        let rect = Rect { rows, cols, values: rows.max(cols) as u32, boxes, givens, keep, lines: vec![] };
        let expected = rect.count();
        assert!(expected > 0, "{text}: a case with no solution proves little");
        let puzzle = parse(text, "t", Some(Format::Iss)).unwrap_or_else(|e| panic!("{text}: {e}"));
        let back = string(&puzzle).unwrap_or_else(|e| panic!("{text}: {e}"));
        for text in [text, back.as_str()] {
            let out = satsudoku().args(["count", "--format", "iss", "-"]).write_stdin(text).output().unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("solutions({expected})."), "{text}");
        }
    }
}

/// ISS's rectangles (its examples `6x8: Plain`, `5x10: Killer Sudoku`,
/// `4x7: Jigsaw`, `4x6: Skyscraper`, `9x8: Plain boxless` and the 0-indexed
/// ones) written as ISS strings read back as the same puzzle; "Answers on
/// a Postcard", whose anti-knight is written pair by pair (as groups of
/// two), with its published solution.
#[test]
fn iss_rectangles_round_trip() {
    use satsudoku::count::plan::{Counter, Plan, Verdict};
    let corpus: Vec<Value> = serde_json::from_str(include_str!("../corpus/iss/examples.json")).unwrap();
    let mut counter = Counter::new(Plan::new(satsudoku::encode::Encoding::default()));
    let mut trips = 0;
    for entry in &corpus {
        let input = entry["input"].as_str().unwrap();
        let name = entry["name"].as_str().unwrap_or("");
        let Ok(puzzle) = parse(input, name, Some(Format::Iss)) else { continue };
        if !puzzle.is_rectangle() {
            continue;
        }
        let text = string(&puzzle).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = parse(&text, name, Some(Format::Iss)).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        if name == "Answers on a Postcard" {
            let (rows, cols) = back.shape();
            let Ok(Verdict::Unique(grid)) = counter.judge(&back) else { panic!("{name}: not unique\n{text}") };
            let shown: String = grid.rows().take(rows).flat_map(|row| &row[..cols]).map(|d| d.to_string()).collect();
            assert_eq!(shown, entry["solution"].as_str().unwrap(), "{name}\n{text}");
        } else {
            assert_eq!(back, puzzle, "{name}\n{text}");
        }
        trips += 1;
    }
    assert_eq!(trips, 9, "ISS's rectangles read");
}

/// What `unique` and `candidates` print on a rectangle: its own cells
/// only, in reading order (as ISS writes a solution); a cell outside it,
/// and the commands that read square grids only, are refused with exit 2.
#[test]
fn commands_print_the_rectangle_and_refuse_outside_it() {
    // ISS's "4x6: Skyscraper" and its published solution.
    let input = ".Shape~4x6.Skyscraper~C1~1~4.Skyscraper~C2~2~3.Skyscraper~C3~3~.Skyscraper~C4~3~2.Skyscraper~C5~2~.Skyscraper~C6~1~.Skyscraper~R4~4~";
    let out = satsudoku().args(["unique", "--format", "iss", "-"]).write_stdin(input).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unique\t531246462315346521125463\n");
    let out = satsudoku().args(["candidates", "--format", "iss", "-"]).write_stdin(input).output().unwrap();
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect();
    // Four rows of six cells (its boxes are regions, drawn without lines
    // as jigsaw pieces are).
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines.iter().all(|l| l.split_whitespace().count() == 6), "{lines:?}");
    let out = satsudoku().args(["candidates", "--format", "iss", "--output", "json", "-"]).write_stdin(input).output();
    let record: Value = serde_json::from_slice(&out.unwrap().stdout).unwrap();
    assert_eq!(record["cells"].as_array().unwrap().len(), 24);
    assert_eq!(record["cells"][23]["cell"], "r4c6");
    for (text, words) in [
        (".Shape~4x6.~R5C1_1", vec!["1:13:", "R5C1", "outside the 4x6 grid"]),
        (".Shape~6x4.~R1C5_1", vec!["1:13:", "R1C5", "outside the 6x4 grid"]),
        (".Shape~4x6.Thermo~R4C1~R5C1", vec!["1:24:", "outside the 4x6 grid"]),
        (".Shape~4x6.Diagonal~1", vec!["1:12:", "Diagonal", "rectangular grid"]),
    ] {
        assert_refused(&["count", "--format", "iss", "-"], text, &words);
    }
    for command in [&["rate"][..], &["minimal"], &["generate"], &["fewest"], &["count", "--up-to-symmetry"]] {
        let args = [command, &["--format", "iss", "-"]].concat();
        assert_refused(&args, input, &["a 4x6 grid", "square grids only"]);
    }
}
