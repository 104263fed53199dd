//! Which givens a puzzle needs: for a unique puzzle, the givens that could
//! each be left out (redundant) and a minimal puzzle inside it; for a puzzle
//! with several solutions, the fewest cells of one solution to add. Every
//! question is a [`Counter::judge`], the check `unique` makes.

use std::time::Instant;

use itertools::Itertools;

use crate::count::plan::{Counter, Verdict};
use crate::count::CountError;
use crate::model::{Cell, Digit, Grid, Puzzle};

/// What a puzzle needs to have exactly one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Needs {
    /// One solution.
    Unique {
        /// The solution.
        solution: Grid,
        /// The givens whose removal alone keeps the solution unique, in
        /// reading order: none when the puzzle is minimal.
        redundant: Vec<(Cell, Digit)>,
        /// A minimal set of the givens (none of it redundant): the first
        /// pass in reading order that drops each given it can.
        kept: Vec<(Cell, Digit)>,
        /// The rules alone, with no given, already have one solution.
        rules_alone: bool,
    },
    /// No solution.
    None,
    /// Several solutions: these cells of `solution`, with its digits, added
    /// as givens make it unique.
    Multiple {
        /// The solution whose digits are added.
        solution: Grid,
        /// The cells added, in reading order, with their digits.
        added: Vec<(Cell, Digit)>,
        /// Whether no fewer cells of `solution` would do: every smaller set
        /// was judged. Otherwise `added` is irredundant (no cell of it can
        /// go) but a smaller set may exist.
        proven: bool,
    },
    /// The time limit passed (or an interrupt came) before the answer.
    Undecided,
}

impl Needs {
    /// The word that starts its line of text: `minimal`, `redundant`,
    /// `none`, `multiple`, `undecided`.
    pub fn name(&self) -> &'static str {
        match self {
            Needs::Unique { redundant, .. } if redundant.is_empty() => "minimal",
            Needs::Unique { .. } => "redundant",
            Needs::None => "none",
            Needs::Multiple { .. } => "multiple",
            Needs::Undecided => "undecided",
        }
    }
}

/// The most judgements spent on proving that no smaller set of cells than
/// the one found makes a puzzle unique; past it, the answer is marked a
/// heuristic one.
pub const PROOF_BUDGET: usize = 5_000;

/// Answers [`Needs`] for `puzzle` with `counter`'s engines; its plan's time
/// limit counts from `start` for the whole answer.
pub fn needs(counter: &mut Counter, puzzle: &Puzzle, start: Instant) -> Result<Needs, CountError> {
    let verdict = counter.judge_since(puzzle, start)?;
    match verdict {
        Verdict::None => Ok(Needs::None),
        Verdict::Undecided => Ok(Needs::Undecided),
        Verdict::Unique(solution) => unique_needs(counter, puzzle, solution, start),
        Verdict::Multiple(solution, _) => multiple_needs(counter, puzzle, solution, start),
    }
}

/// Whether `puzzle` has exactly one solution; `None` if undecided.
fn is_unique(counter: &mut Counter, puzzle: &Puzzle, start: Instant) -> Result<Option<bool>, CountError> {
    Ok(match counter.judge_since(puzzle, start)? {
        Verdict::Undecided => None,
        verdict => Some(matches!(verdict, Verdict::Unique(_))),
    })
}

fn unique_needs(counter: &mut Counter, puzzle: &Puzzle, solution: Grid, start: Instant) -> Result<Needs, CountError> {
    let givens: Vec<(Cell, Digit)> = puzzle.givens().collect();
    let mut redundant = Vec::new();
    let mut without = puzzle.clone();
    for &(cell, digit) in &givens {
        without.clear_given(cell);
        let Some(unique) = is_unique(counter, &without, start)? else { return Ok(Needs::Undecided) };
        if unique {
            redundant.push((cell, digit));
        }
        without.set_given(cell, digit).expect("a given of the puzzle fits it");
    }
    // A given needed with all the others is needed with fewer: only the
    // redundant ones may go, one pass in reading order.
    let mut reduced = puzzle.clone();
    for &(cell, digit) in &redundant {
        reduced.clear_given(cell);
        let Some(unique) = is_unique(counter, &reduced, start)? else { return Ok(Needs::Undecided) };
        if !unique {
            reduced.set_given(cell, digit).expect("a given of the puzzle fits it");
        }
    }
    let kept = reduced.givens().collect();
    let rules_alone = if givens.is_empty() {
        true
    } else if redundant.is_empty() {
        false
    } else {
        let Some(unique) = is_unique(counter, &puzzle.without_givens(), start)? else { return Ok(Needs::Undecided) };
        unique
    };
    Ok(Needs::Unique { solution, redundant, kept, rules_alone })
}

/// `puzzle` with `cells` of `solution` added as givens.
fn with_cells(puzzle: &Puzzle, solution: &Grid, cells: &[Cell]) -> Puzzle {
    let mut more = puzzle.clone();
    for &cell in cells {
        more.set_given(cell, solution.get(cell)).expect("a solution's digit fits its puzzle");
    }
    more
}

fn multiple_needs(counter: &mut Counter, puzzle: &Puzzle, solution: Grid, start: Instant) -> Result<Needs, CountError> {
    // Greedy: while another solution exists, give a cell where it differs
    // from `solution` (the first such, in reading order).
    let mut added: Vec<Cell> = Vec::new();
    loop {
        let verdict = counter.judge_since(&with_cells(puzzle, &solution, &added), start)?;
        let other = match verdict {
            Verdict::Unique(_) => break,
            Verdict::Undecided => return Ok(Needs::Undecided),
            // `solution` keeps every given added: the engines contradict
            // each other.
            Verdict::None => return Err(CountError::NotASolution(format!("{solution:?} lost with more givens"))),
            Verdict::Multiple(a, b) => {
                if a == solution {
                    b
                } else {
                    a
                }
            }
        };
        let cell = puzzle.cells().find(|&cell| other.get(cell) != solution.get(cell));
        added.push(cell.expect("two different solutions differ in some cell"));
    }
    // Then drop each added cell that is not needed (the last first).
    for i in (0..added.len()).rev() {
        let mut fewer = added.clone();
        fewer.remove(i);
        match is_unique(counter, &with_cells(puzzle, &solution, &fewer), start)? {
            None => return Ok(Needs::Undecided),
            Some(true) => added = fewer,
            Some(false) => {}
        }
    }
    // Smaller sets, size by size, while the judgements fit the budget.
    let open: Vec<Cell> = puzzle.cells().filter(|&cell| puzzle.given(cell).is_none()).collect();
    let mut proven = added.len() == 1;
    let mut budget = PROOF_BUDGET;
    'sizes: while !proven {
        let size = added.len() - 1;
        if binomial(open.len(), size) > budget as u128 {
            break;
        }
        budget -= binomial(open.len(), size) as usize;
        for cells in open.iter().copied().combinations(size) {
            match is_unique(counter, &with_cells(puzzle, &solution, &cells), start)? {
                None => return Ok(Needs::Undecided),
                Some(true) => {
                    added = cells;
                    continue 'sizes;
                }
                Some(false) => {}
            }
        }
        proven = true;
    }
    let added = added.into_iter().sorted().map(|cell| (cell, solution.get(cell))).collect();
    Ok(Needs::Multiple { solution, added, proven })
}

/// `n` choose `k`, saturating.
fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc.saturating_mul((n - i) as u128) / (i as u128 + 1))
}

#[cfg(test)]
mod tests {
    use super::binomial;

    #[test]
    fn binomials() {
        assert_eq!(binomial(81, 2), 3240);
        assert_eq!(binomial(5, 0), 1);
        assert_eq!(binomial(3, 4), 0);
    }
}
