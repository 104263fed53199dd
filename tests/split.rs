//! Independent parts of the open cells counted apart (`count::split`): a
//! 16x16 grid with unavoidable rectangles left open, counted against the
//! backtracking oracle, with and without the split.

mod common;

use common::{count_grids, count_stats as count};

/// A 16x16 Sudoku grid (4x4 boxes) from the shifted pattern, with up to
/// `open` disjoint unavoidable rectangles blanked: four cells in two rows,
/// two columns and two boxes holding `a b / b a`, which either order fills.
fn rectangles(open: usize) -> (Vec<u32>, usize) {
    let (n, b) = (16, 4);
    let mut grid: Vec<u32> = (0..n * n).map(|i| ((b * ((i / n) % b) + (i / n) / b + i % n) % n + 1) as u32).collect();
    let mut blanked = 0;
    let mut used = vec![false; n * n];
    'search: for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    if blanked == open {
                        break 'search;
                    }
                    let cells = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    let boxes: std::collections::BTreeSet<(usize, usize)> =
                        cells.iter().map(|&i| ((i / n) / b, (i % n) / b)).collect();
                    let swapped = grid[cells[0]] == grid[cells[3]] && grid[cells[1]] == grid[cells[2]];
                    if swapped && boxes.len() == 2 && cells.iter().all(|&i| !used[i] && grid[i] != 0) {
                        for &i in &cells {
                            used[i] = true;
                            grid[i] = 0;
                        }
                        blanked += 1;
                    }
                }
            }
        }
    }
    (grid, blanked)
}

fn text(grid: &[u32]) -> String {
    let symbols = b"123456789ABCDEFG";
    grid.iter().map(|&d| if d == 0 { '.' } else { char::from(symbols[d as usize - 1]) }).collect::<String>() + "\n"
}

/// 12 open rectangles: 4,096 solutions (the backtracking oracle's count),
/// whose enumeration takes about 8,000 decisions, more than the plan's probe,
/// so the plan splits the count; with `--max` (every solution enumerated, up
/// to a bound far above the count) the whole enumeration agrees.
#[test]
fn open_rectangles_are_counted_apart_and_match_the_oracle() {
    let (grid, blanked) = rectangles(12);
    assert_eq!(blanked, 12);
    let expected = count_grids(16, (4, 4), &grid, &|_| true);
    assert_eq!(expected, 1 << 12);
    let (split, stats) = count(&text(&grid), &[]);
    assert_eq!(split, format!("solutions({expected}).\n"));
    assert!(stats.contains("independent parts"), "{stats}");
    let (whole, stats) = count(&text(&grid), &["--max", "1000000000"]);
    assert_eq!(whole, split);
    assert!(!stats.contains("independent parts"), "{stats}");
}

/// 8 open rectangles: 256 solutions (the backtracking oracle's count, and
/// 2^8), enumerated within the probe, so no split is needed (and none is made).
#[test]
fn a_count_done_within_the_probe_is_not_split() {
    let (grid, _) = rectangles(8);
    let expected = count_grids(16, (4, 4), &grid, &|_| true);
    assert_eq!(expected, 1 << 8);
    let (whole, stats) = count(&text(&grid), &[]);
    assert_eq!(whole, format!("solutions({expected}).\n"));
    assert!(!stats.contains("independent parts"), "{stats}");
}

/// A puzzle whose open cells are all tied together is counted whole.
#[test]
fn tied_cells_are_not_split() {
    let (_, stats) = count(&".".repeat(16), &["--symmetry", "none"]);
    assert!(!stats.contains("independent parts"), "{stats}");
}
