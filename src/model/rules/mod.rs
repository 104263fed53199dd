//! The vocabulary of variant rules, in one table that both readers look up:
//! each [`Rule`] has its keyword in the native `puzzle` format, its key in
//! the f-puzzles editor's JSON (where the editor has the rule), the shape
//! of its arguments, a line saying what it means, and the function that
//! adds it to a [`Puzzle`] as groups, relations and constraints (whose
//! meaning the independent checker knows). docs/rules.md is generated from
//! it ([`markdown`]), and a test fails when a rule is missing from either
//! reader or from the page.
//!
//! Adding a rule means: a row here, its builder in `build.rs`, and, if the
//! model has no element for it yet, a [`crate::model::Constraint`] with its
//! meaning for the checker and its encoding.
//!
//! Where the editor and the solvers that read its files define a
//! convention, the rule follows it (the f-puzzles editor; Rangsk's
//! SudokuSolver and its TypeScript port, SudokuVariantSolverJS): a white
//! dot's value is the difference, 1 by default; a black dot's the ratio, 2
//! by default; whispers' default difference is half the side, rounded up
//! (5 on 9x9, "German"; 4 is "Dutch"); minimum and maximum cells are
//! compared only with neighbours not shaded the same way; nonconsecutive
//! and the negative constraints spare the pairs that carry a marker of
//! their family (docs/rules.md says each).

mod build;
mod context;
mod table;

pub use build::{entropy_windows, every_nth, merged_terms, modular_windows, table_pairs, windows_2x2};
pub use context::{alternative, orthogonal_pairs, Context, Ties, MOST_NESTED};

use super::{Cell, Puzzle};

/// What a rule's arguments are, in either reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Nothing: the rule applies to the whole grid. Native: the keyword
    /// alone; f-puzzles: `"key": true`.
    Whole,
    /// Cells, at least `min`; native: `KEYWORD CELLS [= N]`; f-puzzles:
    /// `{"cells": [...], "value": N}`.
    Cells {
        /// The fewest cells.
        min: usize,
    },
    /// Each cell on its own (odd, even, minimum, maximum); native: one or
    /// more cells; f-puzzles: one `{"cell": ...}` an entry.
    EachCell,
    /// Two cells that touch, a marker between them; native: `KEYWORD A B [= N]`;
    /// f-puzzles: `{"cells": [A, B], "value": N}`.
    Pair,
    /// A line of cells, in order, at least `min`; native: `KEYWORD CELLS [= N]`;
    /// f-puzzles: `{"lines": [[...], ...], "value": N}`, each line a rule.
    Line {
        /// The fewest cells.
        min: usize,
    },
    /// Circle cells and a line (arrows); native: `KEYWORD CIRCLE : LINE`;
    /// f-puzzles: `{"cells": CIRCLE, "lines": [[CIRCLE..., LINE...], ...]}`.
    CircleLine,
    /// Cells and as many copies (clones); native: `KEYWORD CELLS : CELLS`;
    /// f-puzzles: `{"cells": [...], "cloneCells": [...]}`.
    Copies,
    /// The four cells of a 2x2 and up to four digits (quadruples); native:
    /// `KEYWORD CELL D...` (CELL its top left); f-puzzles: `{"cells": [4
    /// cells], "values": [...]}`.
    Quad,
    /// A clue outside the grid, looking in (x-sums, sandwiches,
    /// skyscrapers): native `KEYWORD rRcC = N` with row or column 0 or
    /// side + 1; f-puzzles: `{"cell": "R0C3", "value": N}`.
    Outside,
    /// Names of other rules (the negative constraints); native: `KEYWORD
    /// NAME...`; f-puzzles: `["name", ...]`.
    Names,
    /// Two or more parts of cells; native: `KEYWORD CELLS : CELLS [:
    /// CELLS ...]`, each `:` starting a part; the f-puzzles editor has no
    /// such rule.
    Parts,
    /// A word (a serialised state machine), then one or more parts of
    /// cells; native: `KEYWORD WORD CELLS [: CELLS ...]`; not in the
    /// f-puzzles editor.
    WordParts,
    /// Cells, each with a whole coefficient (`-10*r1c1`; 1 if none), and
    /// a number; native: `KEYWORD [K*]CELL... = N`; not in the f-puzzles
    /// editor.
    Terms,
    /// A control cell, then parts of cells, each after a `:`, and a
    /// number (a chaos construction's region runs); native: `KEYWORD CELL
    /// [: CELLS ...] [= N]`; not in the f-puzzles editor.
    Runs,
}

/// Whether a rule takes a number (`= N`, f-puzzles' `value`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// It takes none.
    No,
    /// It may take one.
    Optional,
    /// It must.
    Required,
}

/// A rule's arguments, as either reader found them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    /// The cells (for [`Shape::CircleLine`] and [`Shape::Copies`], those
    /// before the `:`; for [`Shape::Outside`], the line the clue looks
    /// along, from the clue).
    pub cells: Vec<Cell>,
    /// The cells after the `:` (an arrow's line, a clone's copies).
    pub second: Vec<Cell>,
    /// The number, if one was given.
    pub value: Option<i64>,
    /// The digits of a quadruple, or the names of [`Shape::Names`].
    pub list: Vec<String>,
    /// The parts of [`Shape::Parts`] and [`Shape::WordParts`].
    pub parts: Vec<Vec<Cell>>,
}

/// A builder: adds the rule with `args` to the puzzle; `Context` carries
/// what rules need of each other (cages that may not overlap, markers the
/// negative constraints spare).
pub type Build = fn(&mut Puzzle, &Args, &mut Context) -> Result<(), RuleError>;

/// Why a rule cannot be added as given, and whether it is its number that
/// is wrong (so that a reader points at it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// What is wrong.
    pub message: String,
    /// The rule's number is what is wrong.
    pub at_value: bool,
}

impl RuleError {
    /// An error in the rule's number.
    pub fn value(message: impl Into<String>) -> RuleError {
        RuleError { message: message.into(), at_value: true }
    }
}

impl From<String> for RuleError {
    fn from(message: String) -> RuleError {
        RuleError { message, at_value: false }
    }
}

impl From<&str> for RuleError {
    fn from(message: &str) -> RuleError {
        RuleError::from(message.to_owned())
    }
}

impl From<crate::model::ModelError> for RuleError {
    fn from(e: crate::model::ModelError) -> RuleError {
        RuleError::from(e.to_string())
    }
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// One rule of the vocabulary.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// Its keyword in the native `puzzle` format.
    pub keyword: &'static str,
    /// Its key in f-puzzles JSON, if the editor has it.
    pub fpuzzles: Option<&'static str>,
    /// With [`Rule::fpuzzles`] `xv`: the entry's `value` that selects this
    /// rule (`X` or `V`).
    pub fpuzzles_value: Option<&'static str>,
    /// Its arguments.
    pub shape: Shape,
    /// Whether it takes a number.
    pub value: Value,
    /// What it means, in one line.
    pub meaning: &'static str,
    /// An example of its arguments in the native format (after the keyword).
    pub example: &'static str,
    /// Adds it to a puzzle.
    pub build: Build,
}

/// Every rule, in the order docs/rules.md lists them.
pub const RULES: &[Rule] = table::RULES;

/// The rule the native format calls `keyword`.
pub fn by_keyword(keyword: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.keyword == keyword)
}

/// The rule f-puzzles calls `key` (and, for `xv`, selects by `value`).
pub fn by_fpuzzles_key(key: &str, value: Option<&str>) -> Option<&'static Rule> {
    let matches = |r: &&Rule| r.fpuzzles == Some(key);
    let candidates: Vec<&Rule> = RULES.iter().filter(matches).collect();
    match candidates[..] {
        [only] if only.fpuzzles_value.is_none() => Some(only),
        _ => candidates.into_iter().find(|r| {
            r.fpuzzles_value.zip(value).is_some_and(|(wanted, found)| wanted.eq_ignore_ascii_case(found.trim()))
        }),
    }
}

/// The f-puzzles keys the readers know, for messages.
pub fn fpuzzles_keys() -> String {
    let mut keys: Vec<&str> = RULES.iter().filter_map(|r| r.fpuzzles).collect();
    keys.dedup();
    keys.join(", ")
}

/// The native keywords, for messages.
pub fn keywords() -> String {
    RULES.iter().map(|r| r.keyword).collect::<Vec<_>>().join(", ")
}

/// The cells a clue outside the grid looks along, from its side: the clue
/// at 1-based row `row` and column `col` of an `n x n` grid, where row 0
/// is above the grid, row `n + 1` below it, column 0 left of it and column
/// `n + 1` right of it (f-puzzles' convention: `R0C3` is above column 3).
/// `None` for a cell that is not just outside one side.
pub fn line_from_clue(row: usize, col: usize, n: usize) -> Option<Vec<Cell>> {
    let inside = |x: usize| (1..=n).contains(&x);
    let cells: Vec<Cell> = match (row, col) {
        (0, c) if inside(c) => (0..n).map(|r| Cell::new(r, c - 1)).collect(),
        (r, c) if r == n + 1 && inside(c) => (0..n).rev().map(|r| Cell::new(r, c - 1)).collect(),
        (r, 0) if inside(r) => (0..n).map(|c| Cell::new(r - 1, c)).collect(),
        (r, c) if c == n + 1 && inside(r) => (0..n).rev().map(|c| Cell::new(r - 1, c)).collect(),
        _ => return None,
    };
    Some(cells)
}

/// The table of rules as docs/rules.md shows it (Markdown).
pub fn markdown() -> String {
    let mut out = String::from("| `puzzle` keyword | f-puzzles key | arguments | meaning |\n|---|---|---|---|\n");
    for rule in RULES {
        let key = match (rule.fpuzzles, rule.fpuzzles_value) {
            (Some(key), Some(value)) => format!("`{key}` (value `{value}`)"),
            (Some(key), None) => format!("`{key}`"),
            (None, _) => "(none)".to_owned(),
        };
        let example = if rule.example.is_empty() {
            format!("`{}`", rule.keyword)
        } else {
            format!("`{} {}`", rule.keyword, rule.example)
        };
        out.push_str(&format!("| `{}` | {key} | {example} | {} |\n", rule.keyword, rule.meaning));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keywords and f-puzzles keys (with their values) name one rule each.
    #[test]
    fn every_name_names_one_rule() {
        for (i, a) in RULES.iter().enumerate() {
            for b in &RULES[i + 1..] {
                assert_ne!(a.keyword, b.keyword);
                if a.fpuzzles.is_some() {
                    assert!(
                        a.fpuzzles != b.fpuzzles || a.fpuzzles_value != b.fpuzzles_value,
                        "{} and {} share an f-puzzles key",
                        a.keyword,
                        b.keyword
                    );
                }
            }
            assert!(a.meaning.ends_with('.'), "{}: a meaning is a sentence", a.keyword);
            assert!(by_keyword(a.keyword).is_some_and(|r| r.keyword == a.keyword));
            if let Some(key) = a.fpuzzles {
                assert_eq!(by_fpuzzles_key(key, a.fpuzzles_value).map(|r| r.keyword), Some(a.keyword));
            }
        }
    }
}
