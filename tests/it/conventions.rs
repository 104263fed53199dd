//! The f-puzzles conventions as the editor and the solvers that read its
//! files define them (docs/rules.md), each on a puzzle built so that the
//! reading satsudoku once had gives another count: the count is checked
//! against the backtracking oracle, with the rule's meaning written here.
//! Also SudokuPad links that carry an f-puzzles puzzle.

use predicates::str::contains;
use serde_json::{json, Value};

use crate::common::{count_grids, neighbours, satsudoku};

/// The count satsudoku prints for `text`.
fn count(text: &str) -> u64 {
    let out = satsudoku().args(["count", "-"]).write_stdin(text.to_owned()).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}\n{text}", String::from_utf8_lossy(&out.stderr));
    stdout.trim().trim_start_matches("solutions(").trim_end_matches(").").parse().unwrap()
}

/// An f-puzzles JSON puzzle of side `n` with `extra` keys; `regions` gives
/// each cell's `region` field (absent when `None`).
fn fpuzzles(n: usize, regions: Option<&dyn Fn(usize, usize) -> Value>, extra: Value) -> String {
    let grid: Vec<Vec<Value>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| match regions {
                    Some(region) if !region(r, c).is_string() => json!({ "region": region(r, c) }),
                    _ => json!({}),
                })
                .collect()
        })
        .collect();
    let mut puzzle = json!({ "size": n, "grid": grid });
    for (key, value) in extra.as_object().unwrap() {
        puzzle[key] = value.clone();
    }
    puzzle.to_string()
}

/// Two maximum cells side by side (a fortress wall): each is compared only
/// with its neighbours that are not maximum cells. Read as "greater than
/// every neighbour", the pair would contradict itself: no solution.
#[test]
fn maximum_cells_side_by_side_are_not_compared() {
    let walls = [0usize, 1];
    let expected = count_grids(4, (2, 2), &[0; 16], &|g| {
        walls.iter().all(|&m| neighbours(4, m).iter().all(|&o| walls.contains(&o) || g[m] > g[o]))
    });
    assert!(expected > 0);
    assert_eq!(count("size 4\nmaximum r1c1 r1c2\n"), expected);
    let json = fpuzzles(4, None, json!({ "maximum": [{ "cell": "R1C1" }, { "cell": "R1C2" }] }));
    assert_eq!(count(&json), expected);
}

/// A white dot with nonconsecutive: the dot's pair is consecutive, every
/// other orthogonal pair is not. Read as nonconsecutive everywhere, the dot
/// would contradict it. (The givens, six rows of a grid satsudoku found,
/// keep the oracle's search short; the oracle checks the grid too.)
#[test]
fn nonconsecutive_spares_the_pairs_with_a_kropki_dot() {
    let n = 9;
    let rows = ["124637958", "396815724", "758249361", "472583196", "835961472", "619724835"];
    let mut givens: Vec<u32> = rows.concat().chars().map(|c| c.to_digit(10).unwrap()).collect();
    givens.resize(81, 0);
    let dot = (0usize, 1usize);
    let expected = count_grids(n, (3, 3), &givens, &|g| {
        (0..n * n).all(|a| {
            neighbours(n, a).into_iter().all(|b| {
                let marked = (a, b) == dot || (b, a) == dot;
                marked == (g[a].abs_diff(g[b]) == 1)
            })
        })
    });
    assert!(expected > 0);
    let grid_text: String = rows.iter().map(|r| format!("{r}\n")).collect::<String>() + &".........\n".repeat(3);
    assert_eq!(count(&format!("size 9\ngivens\n{grid_text}nonconsecutive\nwhite r1c1 r1c2\n")), expected);
    let mut json: Value = serde_json::from_str(&fpuzzles(
        n,
        None,
        json!({ "nonconsecutive": true, "difference": [{ "cells": ["R1C1", "R1C2"] }] }),
    ))
    .unwrap();
    for (r, row) in rows.iter().enumerate() {
        for (c, d) in row.chars().enumerate() {
            json["grid"][r][c] = json!({ "value": d.to_digit(10).unwrap(), "given": true });
        }
    }
    assert_eq!(count(&json.to_string()), expected);
}

/// The native format's negative ratio constraint bans the ratios the black
/// dots show (3 here), not 2, on the pairs without a dot (a 5x5 Latin
/// square). From the editor's JSON the same puzzle is refused: Rangsk's
/// solver bans ratio 2 as well whenever the negative ratio is on
/// (`KropkiConstraint.ts`), so the file has two readings.
#[test]
fn the_negative_ratio_bans_the_ratios_on_the_board() {
    let n = 5;
    let dot = (0usize, 1usize);
    let ratio = |x: u32, y: u32, r: u32| x == r * y || y == r * x;
    let reading = |banned: u32| {
        count_grids(n, (1, n), &[0; 25], &|g| {
            ratio(g[0], g[1], 3)
                && (0..n * n).all(|a| {
                    neighbours(n, a).into_iter().all(|b| (a, b) == dot || (b, a) == dot || !ratio(g[a], g[b], banned))
                })
        })
    };
    let (expected, twos) = (reading(3), reading(2));
    assert!(expected > 0 && expected != twos, "{expected} {twos}");
    assert_eq!(count("size 5\nbox none\nblack r1c1 r1c2 = 3\nnegative black\n"), expected);
    let json =
        fpuzzles(n, None, json!({ "negative": ["ratio"], "ratio": [{ "cells": ["R1C1", "R1C2"], "value": "3" }] }));
    let err = satsudoku::parse::parse(&json, "x.json", None).unwrap_err().to_string();
    assert!(err.contains("$.negative") && err.contains("refusing to guess"), "{err}");
}

/// An arrow whose circle has two lines is two arrows: each line sums to the
/// circle (not both together).
#[test]
fn each_line_of_an_arrow_sums_to_its_circle() {
    let expected = count_grids(4, (2, 2), &[0; 16], &|g| g[0] == g[1] + g[2] && g[0] == g[4] + g[8]);
    let together = count_grids(4, (2, 2), &[0; 16], &|g| g[0] == g[1] + g[2] + g[4] + g[8]);
    assert!(expected > 0 && expected != together);
    let json = fpuzzles(
        4,
        None,
        json!({ "arrow": [{ "cells": ["R1C1"], "lines": [["R1C1", "R1C2", "R1C3"], ["R1C1", "R2C1", "R3C1"]] }] }),
    );
    assert_eq!(count(&json), expected);
    assert_eq!(count("size 4\narrow r1c1 : r1c2 r1c3\narrow r1c1 : r2c1 r3c1\n"), expected);
}

/// Whispers without a value differ by half the side, rounded up: 3 on a
/// 5x5 Latin square (the editor's default regions for 5 are its rows), 3
/// on 6x6; 5 would leave no solution on either.
#[test]
fn whispers_default_to_half_the_side() {
    let line = [0usize, 1, 2];
    let expected = count_grids(5, (1, 5), &[0; 25], &|g| line.windows(2).all(|w| g[w[0]].abs_diff(g[w[1]]) >= 3));
    assert!(expected > 0);
    let json = fpuzzles(5, None, json!({ "whispers": [{ "lines": [["R1C1", "R1C2", "R1C3"]] }] }));
    assert_eq!(count(&json), expected);
    assert_eq!(count("size 5\nbox none\nwhisper r1c1 r1c2 r1c3\n"), expected);
}

/// The 7x7 jigsaw sample (one solution: COUNTS.tsv, checked by the oracle
/// in tests/it/family.rs) as the editor saves it: a cell whose region is
/// its default one (7x7: its row, regions 1x7) has no `region` field.
/// Reading missing regions as "no region" left regions short of cells.
#[test]
fn cells_without_a_region_take_the_default_one() {
    let labels = ["BBBDDDE", "BBFDDDE", "BFFFFDE", "BFFEEEE", "AAGGGGC", "AAGCGGC", "AAACCCC"];
    // Number the regions so that as many cells as possible are in their
    // default one (region r is row r): each label takes the row where it
    // has the most cells, first come first served.
    let mut number: Vec<(char, usize)> = Vec::new();
    let mut rows_taken = Vec::new();
    for label in "ABCDEFG".chars() {
        let mut best: Vec<(usize, usize)> =
            (0..7).map(|r| (labels[r].chars().filter(|&c| c == label).count(), r)).collect();
        best.sort_by(|a, b| b.cmp(a));
        let row = best.iter().map(|&(_, r)| r).find(|r| !rows_taken.contains(r)).unwrap();
        rows_taken.push(row);
        number.push((label, row));
    }
    let region = |r: usize, c: usize| {
        let label = labels[r].as_bytes()[c] as char;
        let k = number.iter().find(|&&(l, _)| l == label).unwrap().1;
        if k == r {
            json!("default") // left out
        } else {
            json!(k)
        }
    };
    let givens = ["..34...", "......5", "..6....", "....12.", "..436..", ".......", "......."];
    let mut json: Value = serde_json::from_str(&fpuzzles(7, Some(&region), json!({}))).unwrap();
    let mut omitted = 0;
    for (r, row) in givens.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if let Some(d) = ch.to_digit(10) {
                json["grid"][r][c]["value"] = json!(d);
                json["grid"][r][c]["given"] = json!(true);
            }
            omitted += usize::from(json["grid"][r][c].get("region").is_none());
        }
    }
    assert!(omitted > 0, "no cell is left in its default region");
    assert_eq!(count(&json.to_string()), 1);
}

/// A `null` region is no region: the cell is in no region (so a region
/// short of cells is refused rather than guessed).
#[test]
fn a_null_region_is_none() {
    let json = fpuzzles(4, Some(&|r, c| if (r, c) == (0, 0) { Value::Null } else { json!("default") }), json!({}));
    satsudoku().args(["count", "-"]).write_stdin(json).assert().code(2).stderr(contains("region 0"));
}

/// Cages the editor draws for another rule (`fromConstraint`) or whose
/// value is a message are decoration; a plain cage with a number is not
/// guessed at (killer cages are `killercage`).
#[test]
fn cosmetic_cages_are_decoration_or_refused() {
    let indexers = json!([{ "cells": ["R1C1", "R2C1", "R3C1", "R4C1"] }]);
    let expected = count_grids(4, (2, 2), &[0; 16], &|g| {
        (0..4).all(|r| {
            let d = g[r * 4] as usize; // column indexer cell (r, 0): digit d puts 1 in column d of row r
            g[r * 4 + d - 1] == 1
        })
    });
    assert!(expected > 0);
    let drawn = json!([{ "cells": ["R1C1", "R2C1", "R3C1", "R4C1", "R1C2"], "fromConstraint": "Column Indexer" }]);
    let json = fpuzzles(4, None, json!({ "columnindexer": indexers.clone(), "cage": drawn }));
    assert_eq!(count(&json), expected);
    let message = json!([{ "cells": ["R1C1"], "value": "msgcorrect: well done" }]);
    assert_eq!(count(&fpuzzles(4, None, json!({ "columnindexer": indexers, "cage": message }))), expected);
    let numbered = json!([{ "cells": ["R1C1", "R1C2"], "value": "3" }]);
    satsudoku()
        .args(["count", "-"])
        .write_stdin(fpuzzles(4, None, json!({ "cage": numbered })))
        .assert()
        .code(2)
        .stderr(contains("$.cage[0].value").and(contains("killercage")));
}

use predicates::prelude::PredicateBooleanExt;

/// SudokuPad links whose payload is an f-puzzles puzzle (`fpuz` and a
/// share string, as a path or behind `?puzzle=`) read like the share
/// string; SudokuPad's own payloads are refused by name.
#[test]
fn sudokupad_links_with_an_fpuzzles_payload_are_read() {
    let text = std::fs::read_to_string("cnf-samples/family/killer-9x9.fpuzzles.txt").unwrap();
    let share = text.lines().find(|l| l.starts_with("N4Ig")).unwrap();
    // COUNTS.tsv: 4 (checked by the oracle and ganak).
    for link in [
        format!("https://sudokupad.app/fpuz{share}"),
        format!("https://sudokupad.app/?puzzle=fpuz{share}"),
        format!("https://app.crackingthecryptic.com/sudoku/fpuzzles{share}"),
        format!("fpuz{share}"),
    ] {
        satsudoku().args(["count", "-"]).write_stdin(link.clone()).assert().success().stdout("solutions(4).\n");
    }
    for (link, kind) in [
        ("https://sudokupad.app/sclN4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9", "own compressed format"),
        ("https://sudokupad.app/abc123xyz", "short puzzle id"),
        ("https://sudokupad.app/ctcN4Ig", "Cracking the Cryptic"),
    ] {
        satsudoku().args(["count", "-"]).write_stdin(link).assert().code(2).stderr(contains(kind));
    }
}
