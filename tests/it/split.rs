//! Independent parts of the open cells counted apart (`count::split`): a
//! 16x16 grid with unavoidable rectangles left open, counted against the
//! backtracking oracle, with and without the split.

use crate::common::{count_grids, count_stats as count, rectangles, rectangles_text as text};

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
