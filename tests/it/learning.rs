//! A count whose probe finds fewer than `LEARN_BELOW` models goes to varisat
//! (which learns), and back to the enum engine past `LEARN_MAX` models.
//! With a probe of one decision every open puzzle takes that turn: random
//! 6x6 puzzles, from a handful of solutions to tens of thousands, are
//! counted by the plan and by the backtracking oracle, and both ends of the
//! turn are seen.

use satsudoku::count::plan::{Counter, Plan, LEARN_MAX};
use satsudoku::encode::Encoding;
use satsudoku::parse::{parse, Format};

use crate::common::{count_grids, random_grid, rng, Draw};

#[test]
fn counts_handed_to_varisat_and_back_match_the_oracle() {
    let mut rng = rng(25);
    let (mut learnt, mut handed_back) = (0, 0);
    for round in 0..16 {
        let grid = random_grid(&mut rng, 6, (2, 3));
        let mut cells: Vec<usize> = (0..36).collect();
        rng.shuffle(&mut cells);
        let mut givens = grid.clone();
        for &cell in &cells[..16 + round] {
            givens[cell] = 0;
        }
        let text: String =
            givens.iter().map(|&d| if d == 0 { '.' } else { char::from_digit(d, 10).unwrap() }).collect();
        let puzzle = parse(&text, "learning", Some(Format::Givens)).unwrap();
        let expected = count_grids(6, (2, 3), &givens, &|_| true);
        let mut plan = Plan::new(Encoding::default());
        plan.probe = 1;
        plan.details = true;
        let tally = Counter::new(plan).count(&puzzle, &mut ()).unwrap();
        assert!(tally.is_exact());
        assert_eq!(tally.count, expected.into(), "{text}: {:?}", tally.details);
        if tally.details.iter().any(|d| d.starts_with("engine: blocking")) {
            learnt += 1;
            assert!(tally.counted <= LEARN_MAX.into(), "{text}: {} counted by varisat", tally.counted);
        } else if tally.counted > LEARN_MAX.into() {
            handed_back += 1;
        }
    }
    assert!(learnt > 0 && handed_back > 0, "learnt {learnt}, handed back {handed_back}");
}
