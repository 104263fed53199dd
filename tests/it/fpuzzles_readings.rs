//! The f-puzzles reader against the editor's meaning, each case one that
//! was once counted wrong (issue 41): regions shaped like rows, the
//! default regions of a side without a rectangular box, given pencil
//! marks, keys written twice, and the readings that two solvers of the
//! editor's files take differently (refused). Every count comes from the
//! backtracking oracle below, written apart from the library.

use crate::common::{count_layout, satsudoku};
use satsudoku::count::{count_models, EngineKind, Limits};
use satsudoku::encode::{encode, Encoding};
use satsudoku::parse::{parse, Format};

/// Every digit allowed in every cell.
fn any_digit(n: usize) -> Vec<u64> {
    vec![u64::MAX; n * n]
}

/// satsudoku's count of `text` read as f-puzzles.
fn count_fpuzzles(text: &str) -> u128 {
    let puzzle = parse(text, "test.json", Some(Format::Fpuzzles)).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let encoded = encode(&puzzle, &Encoding::default());
    count_models(&puzzle, &encoded, EngineKind::Enum, Limits::default(), &mut ()).unwrap().models
}

/// The f-puzzles reader's error on `text`.
fn refusal(text: &str) -> String {
    match parse(text, "test.json", Some(Format::Fpuzzles)) {
        Ok(_) => panic!("read, but expected a refusal:\n{text}"),
        Err(err) => err.to_string(),
    }
}

/// The editor's grid: `region[i]` for each cell (`None`: the key omitted),
/// givens (0 blank), given pencil marks.
fn grid_json(n: usize, region: &dyn Fn(usize) -> Option<usize>, givens: &[u32], marks: &[(usize, &[u32])]) -> String {
    let rows: Vec<String> = (0..n)
        .map(|r| {
            let cells: Vec<String> = (0..n)
                .map(|c| {
                    let i = r * n + c;
                    let mut fields = Vec::new();
                    if let Some(k) = region(i) {
                        fields.push(format!("\"region\":{k}"));
                    }
                    if givens[i] != 0 {
                        fields.push(format!("\"value\":{},\"given\":true", givens[i]));
                    }
                    if let Some((_, digits)) = marks.iter().find(|(at, _)| *at == i) {
                        fields.push(format!("\"givenPencilMarks\":{digits:?}"));
                    }
                    format!("{{{}}}", fields.join(","))
                })
                .collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    format!("\"size\":{n},\"grid\":[{}]", rows.join(","))
}

/// The puzzle: a 6x6 whose row 1 and row 6 are regions, with 3x2
/// blocks between; a given 3 at R1C3 and a region-sum line R1C1-R2C1-R2C2.
/// Native format and brute force: 352,512. Read as f-puzzles it counted
/// 4,700,160, the row-shaped regions dropped (so the line had one segment).
#[test]
fn a_region_sum_line_sees_regions_shaped_like_rows() {
    let n = 6;
    let region = |i: usize| {
        let (r, c) = (i / n, i % n);
        match r {
            0 => 0,
            5 => 5,
            _ => 1 + (r - 1) / 2 * 2 + c / 3,
        }
    };
    let mut givens = vec![0; 36];
    givens[2] = 3;
    let json = format!(
        "{{{},\"regionsumline\":[{{\"lines\":[[\"R1C1\",\"R2C1\",\"R2C2\"]]}}]}}",
        grid_json(n, &|i| Some(region(i)), &givens, &[])
    );
    let groups: Vec<Vec<usize>> = (0..n).map(|k| (0..36).filter(|&i| region(i) == k).collect()).collect();
    let line = |g: &[u32]| g[0] == 0 || g[6] == 0 || g[7] == 0 || g[0] == g[6] + g[7];
    let expected = count_layout(n, &groups, &givens, &any_digit(n), &line);
    assert_eq!(expected, 352_512, "the oracle disagrees with the issue's brute force");
    assert_eq!(count_fpuzzles(&json), u128::from(expected), "{json}");
    // The same puzzle in the native format.
    let native = "size 6\nregions\nAAAAAA\nBBBCCC\nBBBCCC\nDDDEEE\nDDDEEE\nFFFFFF\ngivens\n..3...\n......\n......\n\
                  ......\n......\n......\nregion-sum r1c1 r2c1 r2c2\n";
    let puzzle = parse(native, "native", Some(Format::Puzzle)).unwrap();
    let encoded = encode(&puzzle, &Encoding::default());
    let native_count = count_models(&puzzle, &encoded, EngineKind::Enum, Limits::default(), &mut ()).unwrap().models;
    assert_eq!(native_count, u128::from(expected));
}

/// A 5x5 has no rectangular box: the editor's default regions (and
/// Rangsk's solver's, `applyDefaultRegions`) are then its rows, so a
/// region-sum line crossing rows has a segment in each.
#[test]
fn a_five_by_five_region_sum_line_has_a_segment_per_row() {
    let n = 5;
    // R1C1-R1C2 in row 1, R2C2 in row 2: R1C1 + R1C2 = R2C2.
    let json = format!(
        "{{{},\"regionsumline\":[{{\"lines\":[[\"R1C1\",\"R1C2\",\"R2C2\"]]}}]}}",
        grid_json(n, &|_| None, &[0; 25], &[])
    );
    let line = |g: &[u32]| g[0] == 0 || g[1] == 0 || g[6] == 0 || g[0] + g[1] == g[6];
    let expected = count_layout(n, &[], &[0; 25], &any_digit(n), &line);
    assert!(expected > 0 && expected < 161_280, "{expected}");
    assert_eq!(count_fpuzzles(&json), u128::from(expected), "{json}");
}

/// `givenPencilMarks` restricts a cell to those digits (the editor's given
/// pencil marks; Rangsk's solver reads them so): a blank 4x4 with R1C1
/// limited to {1} has 72 grids, not 288; R2C3 limited to {2, 4} as well.
#[test]
fn given_pencil_marks_restrict_their_cells() {
    let n = 4;
    let json = format!("{{{}}}", grid_json(n, &|_| None, &[0; 16], &[(0, &[1])]));
    assert_eq!(count_fpuzzles(&json), 72);
    let json = format!("{{{}}}", grid_json(n, &|_| None, &[0; 16], &[(0, &[1]), (6, &[2, 4])]));
    let mut allowed = any_digit(n);
    allowed[0] = 1 << 1;
    allowed[6] = 1 << 2 | 1 << 4;
    let expected = count_layout(
        n,
        &[vec![0, 1, 4, 5], vec![2, 3, 6, 7], vec![8, 9, 12, 13], vec![10, 11, 14, 15]],
        &[0; 16],
        &allowed,
        &|_| true,
    );
    assert_eq!(count_fpuzzles(&json), u128::from(expected), "{json}");
    // A given outside its own pencil marks: two solvers would read it two ways.
    let mut givens = [0; 16];
    givens[0] = 2;
    let json = format!("{{{}}}", grid_json(n, &|_| None, &givens, &[(0, &[1])]));
    let err = refusal(&json);
    assert!(err.contains("$.grid[0][0]") && err.contains("givenPencilMarks"), "{err}");
}

/// A key written twice is ambiguous (serde keeps the last, a browser's
/// JSON.parse too, other readers the first): refused with its path.
#[test]
fn a_key_written_twice_is_refused_with_its_path() {
    let grid = grid_json(4, &|_| None, &[0; 16], &[]);
    let err = refusal(&format!("{{{grid},\"diagonal+\":true,\"diagonal+\":false}}"));
    assert!(err.contains("$") && err.contains("\"diagonal+\"") && err.contains("twice"), "{err}");
    let err = refusal(&format!("{{{grid},\"killercage\":[{{\"cells\":[\"R1C1\"],\"value\":1,\"value\":2}}]}}"));
    assert!(err.contains("$.killercage[0]") && err.contains("\"value\"") && err.contains("twice"), "{err}");
    let err = refusal(&format!("{{\"size\":4,{grid}}}"));
    assert!(err.contains("\"size\"") && err.contains("twice"), "{err}");
}

/// A pill (two or more circle cells) on a grid whose digits pass 9: the
/// editor's solvers join the digits as text (1 and 12 make 112), a place
/// value reading makes 22: refused, not guessed.
#[test]
fn a_pill_arrow_past_nine_is_refused() {
    let grid = grid_json(16, &|_| None, &[0; 256], &[]);
    let err = refusal(&format!(
        "{{{grid},\"arrow\":[{{\"cells\":[\"R1C1\",\"R1C2\"],\"lines\":[[\"R1C2\",\"R2C3\",\"R3C4\"]]}}]}}"
    ));
    assert!(err.contains("$.arrow[0]") && err.contains("pill"), "{err}");
    // One circle cell is no pill: read.
    let json = format!("{{{grid},\"arrow\":[{{\"cells\":[\"R1C1\"],\"lines\":[[\"R1C1\",\"R2C2\",\"R3C3\"]]}}]}}");
    assert!(parse(&json, "x", Some(Format::Fpuzzles)).is_ok());
}

/// The negative ratio constraint with black dots none of whose ratio is 2:
/// Rangsk's solver bans ratio 2 and every dot's ratio, the native format's
/// reading only the dots' ratios: refused.
#[test]
fn a_negative_ratio_without_a_dot_of_two_is_refused() {
    let grid = grid_json(6, &|_| None, &[0; 36], &[]);
    let err = refusal(&format!(
        "{{{grid},\"negative\":[\"ratio\"],\"ratio\":[{{\"cells\":[\"R1C1\",\"R1C2\"],\"value\":\"3\"}}]}}"
    ));
    assert!(err.contains("$.negative") && err.contains("ratio"), "{err}");
    // With a dot of 2 too, both readings ban 2 and 3: read, and counted so.
    let json = format!(
        "{{{grid},\"negative\":[\"ratio\"],\"ratio\":[{{\"cells\":[\"R1C1\",\"R1C2\"],\"value\":3}},\
         {{\"cells\":[\"R2C1\",\"R2C2\"]}}]}}"
    );
    let n = 6;
    let boxes: Vec<Vec<usize>> =
        (0..6).map(|b| (0..36).filter(|&i| (i / n) / 2 == b / 2 && (i % n) / 3 == b % 2).collect()).collect();
    let keep = |g: &[u32]| {
        let ratio = |a: u32, b: u32, k: u32| a == k * b || b == k * a;
        for r in 0..n {
            for c in 0..n {
                for (r2, c2) in [(r, c + 1), (r + 1, c)] {
                    if r2 >= n || c2 >= n {
                        continue;
                    }
                    let (a, b) = (g[r * n + c], g[r2 * n + c2]);
                    if a == 0 || b == 0 {
                        continue;
                    }
                    let ok = match (r * n + c, r2 * n + c2) {
                        (0, 1) => ratio(a, b, 3),
                        (6, 7) => ratio(a, b, 2),
                        _ => !ratio(a, b, 2) && !ratio(a, b, 3),
                    };
                    if !ok {
                        return false;
                    }
                }
            }
        }
        true
    };
    let expected = count_layout(n, &boxes, &[0; 36], &any_digit(n), &keep);
    assert_eq!(count_fpuzzles(&json), u128::from(expected), "{json}");
}

/// The same through the binary: the error names the file and the path,
/// exit status 2.
#[test]
fn the_binary_refuses_a_key_written_twice_with_status_2() {
    let grid = grid_json(4, &|_| None, &[0; 16], &[]);
    let assert = satsudoku()
        .args(["count", "--format", "fpuzzles", "-"])
        .write_stdin(format!("{{{grid},\"antiking\":true,\"antiking\":true}}"))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("<stdin>") && stderr.contains("\"antiking\""), "{stderr}");
}

/// The corpus's first `k` puzzles, as share strings or JSON objects.
fn corpus(k: usize) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string("tests/corpus/variants/puzzles.json").unwrap();
    let all: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    all.into_iter().take(k).map(|p| p["puzzle"].clone()).collect()
}

/// `satsudoku ARGS` on `text` from stdin: stdout, stderr, exit status.
fn run(args: &[&str], text: &str) -> (String, String, i32) {
    let out = satsudoku().args(args).write_stdin(text.to_owned()).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (text(&out.stdout), text(&out.stderr), out.status.code().unwrap_or(-1))
}

/// Share strings one a line are a collection: every puzzle judged, each
/// result naming its line (the file was once read as its first puzzle).
#[test]
fn share_strings_one_a_line_are_a_collection() {
    let shares: Vec<String> = corpus(6).iter().map(|p| p.as_str().unwrap().to_owned()).collect();
    let mut text = format!("# six published puzzles\n{}\n\n", shares[..3].join("\n"));
    text += &shares[3..].iter().map(|s| format!("https://www.f-puzzles.com/?load={s}\n")).collect::<String>();
    let (out, err, status) = run(&["unique", "-"], &text);
    assert_eq!(status, 0, "{err}");
    let labels: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(labels, ["2", "3", "4", "6", "7", "8"], "{out}");
    assert!(out.lines().all(|l| l.split('\t').nth(1) == Some("unique")), "{out}");
}

/// A share string followed by a line that is no puzzle: the puzzle is
/// judged, the line is an error naming it, exit 2 (it was accepted).
#[test]
fn a_line_after_a_share_string_that_is_no_puzzle_is_an_error() {
    let share = corpus(1)[0].as_str().unwrap().to_owned();
    let (out, err, status) = run(&["unique", "-"], &format!("{share}\nthis is not a puzzle\n"));
    assert_eq!(status, 2, "{out}{err}");
    assert!(out.starts_with("1\tunique"), "{out}");
    assert!(err.contains("<stdin>:2:"), "{err}");
}

/// JSON objects one after another, and a JSON array of them, are
/// collections: 4x4 blank (288, Felgenhauer-style small count), with both
/// diagonals (48, seed 002), with one (the oracle). A bad element is named
/// by its path from `$[i]`; a command that takes one puzzle says the file
/// holds several.
#[test]
fn json_objects_and_arrays_of_puzzles_are_collections() {
    let grid = grid_json(4, &|_| None, &[0; 16], &[]);
    let blank = format!("{{{grid}}}");
    let one = format!("{{{grid},\"diagonal+\":true}}");
    let both = format!("{{{grid},\"diagonal+\":true,\"diagonal-\":true}}");
    let boxes = [vec![0, 1, 4, 5], vec![2, 3, 6, 7], vec![8, 9, 12, 13], vec![10, 11, 14, 15]];
    let mut with_diagonal = boxes.to_vec();
    with_diagonal.push(vec![12, 9, 6, 3]);
    let one_count = count_layout(4, &with_diagonal, &[0; 16], &any_digit(4), &|_| true);
    let expected = format!("1\tsolutions(288).\n2\tsolutions({one_count}).\n3\tsolutions(48).\n");
    let (out, err, status) = run(&["count", "-"], &format!("{blank}\n{one}\n{both}\n"));
    assert_eq!((out.as_str(), status), (expected.as_str(), 0), "{err}");
    let (out, err, status) = run(&["count", "-"], &format!("[\n{blank},\n{one},\n{both}\n]\n"));
    let expected = format!("2\tsolutions(288).\n3\tsolutions({one_count}).\n4\tsolutions(48).\n");
    assert_eq!((out.as_str(), status), (expected.as_str(), 0), "{err}");
    // On one line, the puzzles are told apart by their columns.
    let (out, _, _) = run(&["count", "-"], &format!("[{blank},{one}]"));
    assert!(out.starts_with("1:2\tsolutions(288).\n1:"), "{out}");
    let (out, err, status) = run(&["count", "-"], &format!("[{blank},\n{{{grid},\"bogus\":true}}]"));
    assert_eq!(status, 2, "{out}");
    assert!(err.contains("<stdin>:2:1: $[1].bogus"), "{err}");
    let (_, err, status) = run(&["export", "-", "-o", "-"], &format!("{blank}\n{one}\n"));
    assert_eq!(status, 2);
    assert!(err.contains("<stdin>:2:1") && err.contains("collection of 2"), "{err}");
    // A value that is no puzzle after them.
    let (_, err, status) = run(&["count", "-"], &format!("{blank}\n42\n"));
    assert_eq!(status, 2);
    assert!(err.contains("<stdin>:2:1") && err.contains("expected an f-puzzles object"), "{err}");
}
