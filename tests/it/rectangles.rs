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
}

impl Rect {
    /// Its fillings, counted cell by cell in reading order.
    fn count(&self) -> u64 {
        let mut grid = vec![0; self.rows * self.cols];
        self.fill(0, &mut grid)
    }

    fn fill(&self, at: usize, grid: &mut [u32]) -> u64 {
        if at == grid.len() {
            return u64::from((self.keep)(self, grid));
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
        let mut rect = Rect { rows, cols, values, boxes, givens: vec![0; rows * cols], keep: |_, _| true };
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
        let rect = Rect { rows, cols, values: rows.max(cols) as u32, boxes, givens, keep };
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
