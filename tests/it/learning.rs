//! A count whose probe finds fewer than `LEARN_BELOW` models goes on
//! learning for `plan.judge` decisions, then to varisat, and back to the
//! enum engine past `LEARN_MAX` models. With a probe of one decision and
//! no more to learn in, every open puzzle takes that turn: random
//! 6x6 puzzles, from a handful of solutions to tens of thousands, are
//! counted by the plan and by the backtracking oracle, and both ends of the
//! turn are seen.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
        plan.judge = 0;
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

/// A count the plan hands to varisat (a blank 32x32 Takuzu, --max 1, with
/// no decisions to learn in first: varisat takes about 12 s, the enum
/// engine 1.3 s) still stops at the timeout, and when interrupted, with a
/// lower bound: a varisat search cannot be stopped inside one solve, so it
/// runs on a thread the count does not wait for.
#[test]
fn a_count_handed_to_varisat_still_stops_on_time() {
    let text = vec![".".repeat(32); 32].join("\n") + "\n";
    let puzzle = parse(&text, "blank-32.takuzu", Some(Format::Takuzu)).unwrap();
    for interrupt in [false, true] {
        let mut plan = Plan::new(Encoding::default());
        (plan.probe, plan.judge, plan.details, plan.jobs) = (1, 0, true, Some(1));
        plan.limits.max = Some(1);
        let flag: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        if interrupt {
            plan.limits.interrupt = Some(flag);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(2));
                flag.store(true, Ordering::Relaxed);
            });
        } else {
            plan.limits.timeout = Some(Duration::from_secs(2));
        }
        let start = Instant::now();
        let tally = Counter::new(plan).count(&puzzle, &mut ()).unwrap();
        assert!(start.elapsed() < Duration::from_secs(10), "interrupt {interrupt}: {:?}", start.elapsed());
        assert!(!tally.is_exact(), "interrupt {interrupt}");
        assert!(tally.details.iter().any(|d| d.starts_with("engine: blocking, stopped")), "{:?}", tally.details);
    }
}
