//! Rules encoded as automata over a line (issue 39): unit propagation on
//! the encoding is domain consistent. On random domains of a short line,
//! the digits propagation rules out are exactly those a brute force over
//! the rule finds without a support (a whole line the rule accepts), and
//! propagation fails exactly when no line is left.

use satsudoku::count::enumerate::Prober;
use satsudoku::encode::{encode, Encoding};
use satsudoku::model::{Cell, Constraint, Puzzle};

use super::common::{rng, Draw};

/// Skyscrapers: `target` digits of the line taller than all before them.
fn seen(line: &[u8]) -> u8 {
    let (mut tallest, mut seen) = (0, 0);
    for &d in line {
        if d > tallest {
            tallest = d;
            seen += 1;
        }
    }
    seen
}

/// Every line over `domains` (digits per cell), in turn.
fn lines(domains: &[Vec<u8>], each: &mut dyn FnMut(&[u8])) {
    fn go(domains: &[Vec<u8>], line: &mut Vec<u8>, each: &mut dyn FnMut(&[u8])) {
        if line.len() == domains.len() {
            each(line);
            return;
        }
        for &d in &domains[line.len()] {
            line.push(d);
            go(domains, line, each);
            line.pop();
        }
    }
    go(domains, &mut Vec::new(), each);
}

#[test]
fn skyscraper_propagation_is_domain_consistent() {
    let mut rng = rng(39);
    let mut trials = (0, 0); // (with a line left, with none)
    for _ in 0..300 {
        let n = 4 + rng.below(3);
        let target = 1 + rng.below(n) as u8;
        let cells: Vec<Cell> = (0..n).map(|c| Cell::new(0, c)).collect();
        let mut puzzle = Puzzle::blank(n).unwrap();
        puzzle.add_constraint(Constraint::Visible { cells: cells.clone(), target }).unwrap();
        let encoded = encode(&puzzle, &Encoding::default());
        let mut prober = Prober::new(&encoded).unwrap();
        assert!(prober.reset());
        // Random domains: each digit kept with probability 3/4, at least one.
        let mut domains = Vec::new();
        for _ in 0..n {
            let mut kept: Vec<u8> = (1..=n as u8).filter(|_| rng.below(4) > 0).collect();
            if kept.is_empty() {
                kept.push(1 + rng.below(n) as u8);
            }
            domains.push(kept);
        }
        let mut consistent = true;
        for (i, domain) in domains.iter().enumerate() {
            for d in (1..=n as u8).filter(|d| !domain.contains(d)) {
                consistent &= prober.assume(!prober.literal(cells[i], d));
            }
        }
        let mut supported = vec![vec![false; n + 1]; n];
        let mut any = false;
        lines(&domains, &mut |line| {
            if seen(line) == target {
                any = true;
                for (i, &d) in line.iter().enumerate() {
                    supported[i][usize::from(d)] = true;
                }
            }
        });
        if !any {
            // No line left: propagation must find the conflict.
            let wiped = (0..n).any(|i| (1..=n as u8).all(|d| prober.value(prober.literal(cells[i], d)) == Some(false)));
            assert!(!consistent || wiped, "n {n}, target {target}, domains {domains:?}: no line, no conflict");
            trials.1 += 1;
            continue;
        }
        assert!(consistent, "n {n}, target {target}, domains {domains:?}: a conflict with a line left");
        trials.0 += 1;
        for (i, domain) in domains.iter().enumerate() {
            for &d in domain {
                let value = prober.value(prober.literal(cells[i], d));
                assert_eq!(
                    value != Some(false),
                    supported[i][usize::from(d)],
                    "n {n}, target {target}, domains {domains:?}: r1c{} = {d}",
                    i + 1
                );
            }
        }
    }
    assert!(trials.0 > 100 && trials.1 > 10, "{trials:?}");
}
