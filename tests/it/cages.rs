//! Killer cages, whose digit combinations the encoder turns into implied
//! clauses (src/encode/constraint/cage.rs), against the family oracle
//! (`common::count_grids`, plain backtracking that checks each cage's sum
//! and distinct digits only on full grids).

use crate::common::{count_grids, count_layout, random_grid, rng, Rng};
use proptest::prelude::RngExt as _;
use satsudoku::count::plan::{count, Plan};
use satsudoku::count::EngineKind;
use satsudoku::encode::{encode, ClauseKind, Encoding};
use satsudoku::parse::parse;

/// Cages grown from random cells over `grid` (side `n`), each cell in at
/// most one, neighbours with digits not yet in the cage, of 1 to 4 cells.
fn random_cages(rng: &mut Rng, grid: &[u32], n: usize) -> Vec<Vec<usize>> {
    let mut owner = vec![false; n * n];
    let mut cages = Vec::new();
    for _ in 0..n * n {
        let start = rng.random_range(0..n * n);
        if owner[start] {
            continue;
        }
        owner[start] = true;
        let (size, mut cage) = (rng.random_range(1..=4usize), vec![start]);
        while cage.len() < size {
            let next: Vec<usize> = cage
                .iter()
                .flat_map(|&i| {
                    let (r, c) = (i / n, i % n);
                    [(r + 1, c), (r, c + 1), (r.wrapping_sub(1), c), (r, c.wrapping_sub(1))]
                })
                .filter(|&(r, c)| r < n && c < n)
                .map(|(r, c)| r * n + c)
                .filter(|&j| !owner[j] && cage.iter().all(|&k| grid[k] != grid[j]))
                .collect();
            if next.is_empty() {
                break;
            }
            let j = next[rng.random_range(0..next.len())];
            owner[j] = true;
            cage.push(j);
        }
        cages.push(cage);
    }
    cages
}

/// The native puzzle's opening lines: its size and its givens (0 blank).
fn givens_text(n: usize, givens: &[u32]) -> String {
    let mut text = format!("size {n}\ngivens\n");
    for row in givens.chunks(n) {
        text.extend(row.iter().map(|&d| if d == 0 { '.' } else { char::from(b'0' + d as u8) }));
        text.push('\n');
    }
    text
}

/// Random killer puzzles on 4x4 and 6x6 grids (some cages dropped, a few
/// givens, now and then a sum other than the grid's), in the native format:
/// the default plan and the enum engine count what the oracle counts, and
/// the cages' implied clauses are there.
#[test]
fn killer_cages_count_like_the_oracle() {
    let mut rng = rng(2612);
    let mut with_cage_clauses = 0;
    for round in 0..40 {
        let (h, w) = if round % 2 == 0 { (2, 2) } else { (2, 3) };
        let n = h * w;
        let grid = random_grid(&mut rng, n, (h, w));
        let mut cages = random_cages(&mut rng, &grid, n);
        cages.retain(|cage| cage.len() > 1 && rng.random_bool(0.6));
        let mut sums: Vec<u32> = cages.iter().map(|cage| cage.iter().map(|&i| grid[i]).sum()).collect();
        if round % 3 == 1 && !sums.is_empty() {
            // Another sum the cage's digits can reach: fewer solutions, or none.
            let k = cages[0].len() as u32;
            let (least, most) = (k * (k + 1) / 2, k * (2 * n as u32 - k + 1) / 2);
            sums[0] = if sums[0] > least { sums[0] - 1 } else { (sums[0] + 1).min(most) };
        }
        let mut givens = vec![0; n * n];
        // The oracle checks the cages on full grids only: a 6x6 needs givens.
        let clues = if n == 4 { rng.random_range(0..3) } else { rng.random_range(10..14) };
        for _ in 0..clues {
            let i = rng.random_range(0..n * n);
            givens[i] = grid[i];
        }
        let mut text = givens_text(n, &givens);
        for (cage, sum) in cages.iter().zip(&sums) {
            let cells = itertools::join(cage.iter().map(|&i| format!("r{}c{}", i / n + 1, i % n + 1)), " ");
            text.push_str(&format!("killer {cells} = {sum}\n"));
        }
        let keep = |g: &[u32]| {
            cages.iter().zip(&sums).all(|(cage, &sum)| {
                let digits: std::collections::HashSet<u32> = cage.iter().map(|&i| g[i]).collect();
                digits.len() == cage.len() && digits.iter().sum::<u32>() == sum
            })
        };
        let expected = count_grids(n, (h, w), &givens, &keep);
        let puzzle = parse(&text, "cages.puzzle", None).unwrap();
        let encoded = encode(&puzzle, &Encoding::default());
        with_cage_clauses += usize::from(encoded.clause_counts.get(ClauseKind::Cage) > 0);
        for engine in [None, Some(EngineKind::Enum), Some(EngineKind::Blocking)] {
            let plan = Plan { engine, ..Plan::new(Encoding::default()) };
            let tally = count(&puzzle, &plan, &mut ()).unwrap();
            assert_eq!(tally.count, expected.into(), "round {round}, {engine:?}:\n{text}");
        }
    }
    assert!(with_cage_clauses >= 30, "{with_cage_clauses}");
}

/// Whether the sum of `cells` in the partial grid `g` (0 blank) is `sum`,
/// or cannot be judged yet.
fn sum_holds(g: &[u32], cells: &[usize], sum: u32) -> bool {
    cells.iter().any(|&i| g[i] == 0) || cells.iter().map(|&i| g[i]).sum::<u32>() == sum
}

/// The native puzzle `text`, after the default plan and the enum engine
/// have both counted `expected`, the oracle's count.
fn counts_as_the_oracle(text: &str, expected: u64, round: usize) -> satsudoku::model::Puzzle {
    let puzzle = parse(text, "sums.puzzle", None).unwrap();
    for engine in [None, Some(EngineKind::Enum)] {
        let plan = Plan { engine, ..Plan::new(Encoding::default()) };
        let tally = count(&puzzle, &plan, &mut ()).unwrap();
        assert_eq!(tally.count, expected.into(), "round {round}, {engine:?}:\n{text}");
    }
    puzzle
}

/// Random little killers (sums along diagonals, digits may repeat) with a
/// cage or two and now and then the two main diagonals as houses, on 4x4
/// and 6x6 grids: the sums the encoder adds across houses
/// (`encode::crossing_sums`, implied by the puzzle's own) leave every count
/// what the oracle counts (`common::count_layout`, plain backtracking that
/// checks each sum once its cells are full), and are added in most rounds.
#[test]
fn sums_across_houses_keep_the_count() {
    let mut rng = rng(1203);
    let mut with_crossing = 0;
    for round in 0..40 {
        let (h, w) = if round % 2 == 0 { (2, 2) } else { (2, 3) };
        let n = h * w;
        let grid = random_grid(&mut rng, n, (h, w));
        let diagonals = round % 4 < 2 && {
            let main = (0..n).map(|i| grid[i * n + i]).collect::<std::collections::HashSet<_>>();
            let anti = (0..n).map(|i| grid[i * n + n - 1 - i]).collect::<std::collections::HashSet<_>>();
            main.len() == n && anti.len() == n
        };
        // Every diagonal but the longest, one direction (as Hailstone's cross
        // a main diagonal) or, one round in three, both.
        let mut lines: Vec<Vec<usize>> = Vec::new();
        for start in 0..2 * n - 1 {
            let down: Vec<usize> =
                (0..n).filter_map(|r| (start + r + 1).checked_sub(n).filter(|&c| c < n).map(|c| r * n + c)).collect();
            let up: Vec<usize> =
                (0..n).filter_map(|r| start.checked_sub(r).filter(|&c| c < n).map(|c| r * n + c)).collect();
            let both = round % 3 == 0;
            lines.extend(
                [Some(down), both.then_some(up)].into_iter().flatten().filter(|l| !l.is_empty() && l.len() < n),
            );
        }
        let mut sums: Vec<(Vec<usize>, u32, bool)> = Vec::new();
        for line in lines {
            if rng.random_bool(0.8) {
                let sum = line.iter().map(|&i| grid[i]).sum();
                sums.push((line, sum, false));
            }
        }
        for cage in random_cages(&mut rng, &grid, n).into_iter().filter(|c| c.len() > 1).take(2) {
            if sums.iter().all(|(cells, _, _)| cells.iter().all(|i| !cage.contains(i))) {
                let sum = cage.iter().map(|&i| grid[i]).sum();
                sums.push((cage, sum, true));
            }
        }
        if round % 3 == 1 && sums.first().is_some_and(|s| !s.2) {
            // Another target: fewer solutions, or none.
            let least = sums[0].0.len() as u32;
            sums[0].1 = if sums[0].1 > least { sums[0].1 - 1 } else { sums[0].1 + 1 };
        }
        let mut givens = vec![0; n * n];
        for _ in 0..rng.random_range(0..n) {
            let i = rng.random_range(0..n * n);
            givens[i] = grid[i];
        }
        let at = |i: usize| format!("r{}c{}", i / n + 1, i % n + 1);
        let mut text = givens_text(n, &givens);
        if diagonals {
            text.push_str("diagonal+\ndiagonal-\n");
        }
        for (cells, sum, cage) in &sums {
            let rule = if *cage { "killer" } else { "little-killer" };
            text.push_str(&format!("{rule} {} = {sum}\n", itertools::join(cells.iter().map(|&i| at(i)), " ")));
        }
        let mut groups: Vec<Vec<usize>> = (0..n)
            .map(|b| (0..n).map(|k| ((b / (n / w)) * h + k / w) * n + (b % (n / w)) * w + k % w).collect())
            .collect();
        if diagonals {
            groups.push((0..n).map(|i| i * n + i).collect());
            groups.push((0..n).map(|i| i * n + n - 1 - i).collect());
        }
        groups.extend(sums.iter().filter(|s| s.2).map(|s| s.0.clone()));
        let keep = |g: &[u32]| sums.iter().all(|(cells, sum, _)| sum_holds(g, cells, *sum));
        let expected = count_layout(n, &groups, &givens, &vec![u64::MAX; n * n], &keep);
        let puzzle = counts_as_the_oracle(&text, expected, round);
        with_crossing += usize::from(!satsudoku::encode::crossing_sums(&puzzle).is_empty());
    }
    assert!(with_crossing >= 12, "{with_crossing}");
}

/// Random long sums on 6x6 grids (three to five sums of up to 9 cells
/// apart, each mostly on low or mostly on high digits, as `sum-of`, digits
/// may repeat; a few givens; now and then a target off by one or two): the sums the encoder adds by adding the
/// puzzle's together (`encode::combined_sums`, implied by the puzzle's own)
/// leave every count what the oracle counts (`common::count_layout`, plain
/// backtracking that checks each sum once its cells are full), and are
/// added in many rounds.
#[test]
fn sums_added_together_keep_the_count() {
    let mut rng = rng(1205);
    let (n, mut with_combined, mut with_none) = (6, 0, 0);
    for round in 0..40 {
        let grid = random_grid(&mut rng, n, (2, 3));
        let mut cells: Vec<usize> = (0..n * n).collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.random_range(0..=i));
        }
        // Each sum mostly of low digits or mostly of high ones, so that its
        // target lies near one end of what its cells can hold (where sums
        // added together say more than each alone).
        let mut sums: Vec<(Vec<usize>, u32)> = Vec::new();
        for _ in 0..rng.random_range(3..=5) {
            let (size, low) = (rng.random_range(6..=9usize), rng.random_bool(0.5));
            let mut part = Vec::new();
            cells.retain(|&i| {
                let fits = (grid[i] <= 3) == low || rng.random_bool(0.15);
                if part.len() < size && fits {
                    part.push(i);
                    return false;
                }
                true
            });
            if !part.is_empty() {
                let sum = part.iter().map(|&i| grid[i]).sum();
                sums.push((part, sum));
            }
        }
        if round % 3 == 1 {
            let off = rng.random_range(1..=2);
            sums[0].1 = if rng.random_bool(0.5) { sums[0].1 + off } else { sums[0].1 - off };
        }
        let mut givens = vec![0; n * n];
        for _ in 0..rng.random_range(6..=10) {
            let i = rng.random_range(0..n * n);
            givens[i] = grid[i];
        }
        let at = |i: usize| format!("r{}c{}", i / n + 1, i % n + 1);
        let mut text = givens_text(n, &givens);
        for (cells, sum) in &sums {
            text.push_str(&format!("sum-of {} = {sum}\n", itertools::join(cells.iter().map(|&i| at(i)), " ")));
        }
        let boxes: Vec<Vec<usize>> =
            (0..n).map(|b| (0..n).map(|k| ((b / 2) * 2 + k / 3) * n + (b % 2) * 3 + k % 3).collect()).collect();
        let keep = |g: &[u32]| sums.iter().all(|(cells, sum)| sum_holds(g, cells, *sum));
        let expected = count_layout(n, &boxes, &givens, &vec![u64::MAX; n * n], &keep);
        with_none += usize::from(expected == 0);
        let puzzle = counts_as_the_oracle(&text, expected, round);
        with_combined += usize::from(!satsudoku::encode::combined_sums(&puzzle).is_empty());
    }
    assert!(with_combined >= 20 && with_none >= 6, "{with_combined} {with_none}");
}

/// ISS's "Zero solution: Little Killer" (its `data/collections.js`, MIT
/// licence: eight little killers of 49, nothing else) has no solution, as
/// ISS counts; four of its diagonals added together show it (ISS's two
/// sums of 196, `combined.rs`), where the sums apart kept varisat and the
/// enum engine searching past 300 s.
#[test]
fn the_zero_solution_little_killer_has_none() {
    let killers = ["R1C9", "R1C8", "R9C2", "R9C3", "R7C9", "R1C1", "R2C1", "R3C1"];
    let text = killers.map(|cell| format!(".LittleKiller~49~{cell}")).concat();
    let puzzle = parse(&text, "zero-little-killer.iss", None).unwrap();
    assert_eq!(satsudoku::encode::combined_sums(&puzzle).iter().map(|s| s.1).collect::<Vec<_>>(), [196, 196]);
    let mut plan = Plan::new(Encoding::default());
    plan.limits.timeout = Some(std::time::Duration::from_secs(60));
    let tally = count(&puzzle, &plan, &mut ()).unwrap();
    assert!(tally.is_exact());
    assert_eq!(tally.count, 0u32.into());
}

/// A hidden cage: row 1's cells but two are one cage of 41, so the two
/// left (the row's innies) sum to 4, and being in one row they are 1 and
/// 3, never 2, though 2 + 2 is 4 (worked by hand). Unit propagation on
/// the formula as encoded rules 2 out of both now that the innies get the
/// combinations' clauses of a cage; the sum's partial sums alone kept it.
#[test]
fn a_hidden_cage_rules_out_the_digits_of_no_combination() {
    use satsudoku::count::enumerate::{Propagator, Strength};
    use satsudoku::model::Cell;
    let text = "size 9\nkiller r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9 = 41\n";
    let puzzle = parse(text, "hidden.puzzle", None).unwrap();
    let encoded = encode(&puzzle, &Encoding::default());
    let propagator = Propagator::new(&encoded, Strength::AsEncoded);
    let value = |cell: Cell, d| propagator.var_value(encoded.vars.var(cell, d));
    for cell in [Cell::new(0, 0), Cell::new(0, 1)] {
        assert_eq!(value(cell, 2), Some(false), "{cell:?}");
        assert_eq!(value(cell, 1), None, "{cell:?}");
        assert_eq!(value(cell, 3), None, "{cell:?}");
    }
}

/// A digit every combination of a cage holds stays out of the cells that
/// see where it may still be (`cage.rs`, `keep_required_out`): a cage of
/// 6 on r1c1, r1c2 and r2c1 is {1, 2, 3}; the rest of box 1 and r1c3,
/// which see all three cells, lose 1, 2 and 3 at once (units); r1c5 sees
/// r1c1 and r1c2 only, so it keeps them until r2c1, given 2, can hold
/// neither 1 nor 3: then they are in r1c1 and r1c2, and r1c5 loses them
/// but not 2 (worked by hand). Unit propagation on the formula as encoded
/// finds each; the cage's other clauses left r1c5 with all three.
#[test]
fn a_cages_required_digits_stay_out_of_the_cells_that_see_them() {
    use satsudoku::count::enumerate::{Propagator, Strength};
    use satsudoku::model::Cell;
    let value = |text: &str, cell: Cell, d| {
        let puzzle = parse(text, "required.puzzle", None).unwrap();
        let encoded = encode(&puzzle, &Encoding::default());
        let propagator = Propagator::new(&encoded, Strength::AsEncoded);
        propagator.var_value(encoded.vars.var(cell, d))
    };
    let cage = "size 9\nkiller r1c1 r1c2 r2c1 = 6\n";
    for cell in [Cell::new(0, 2), Cell::new(1, 1), Cell::new(2, 2)] {
        for d in 1..=3 {
            assert_eq!(value(cage, cell, d), Some(false), "{cell:?} {d}");
        }
    }
    let r1c5 = Cell::new(0, 4);
    for d in 1..=3 {
        assert_eq!(value(cage, r1c5, d), None, "{d}");
    }
    let mut givens = vec![0; 81];
    givens[9] = 2;
    let given = givens_text(9, &givens) + "killer r1c1 r1c2 r2c1 = 6\n";
    let given = given.as_str();
    assert_eq!(value(given, Cell::new(1, 0), 2), Some(true));
    assert_eq!(value(given, r1c5, 1), Some(false));
    assert_eq!(value(given, r1c5, 3), Some(false));
    assert_eq!(value(given, r1c5, 2), None);
}
