//! sigh's Interactive Sudoku Solver (ISS) constraint strings: `.Type~arg~...`
//! items, as ISS's text box takes them and its links carry them in the `q`
//! parameter (`?q=.~R1C1_5.Thermo~R1C2~R1C3`), and its killer and jigsaw
//! shorthands. The grammar is ISS's own (`js/sudoku_parser.js`): whitespace
//! is dropped, `#` lines are comments, sections between blank lines are read
//! one by one and merged; an item with an empty type is a given (`R1C1_5`,
//! or candidates `R1C1_1_2`); cells are `R{row}C{col}`, rows and columns
//! written in base 17 (`1`..`9`, `a`..`g`).
//!
//! Each type is read with the meaning ISS's solver gives it
//! (`js/solver/sudoku_builder.js` and the handlers it builds), not the
//! f-puzzles editor's where the two differ (docs/rules.md, "ISS constraint
//! strings", says where); a type that satsudoku cannot express is refused by
//! name, with the reason, and [`TYPES`] lists every one.

use super::{quote, ParseError, Pos};
use crate::model::rules::{self, merged_terms, Args, Context};
use crate::model::{Alternative, Cell, Constraint, Digit, Predicate, Puzzle, Relation};
use itertools::Itertools;

/// How satsudoku reads an ISS type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Read, as the sentence says.
    Read(&'static str),
    /// Read and ignored: it does not change the solutions.
    Ignored(&'static str),
    /// Refused, for the reason the sentence gives.
    Refused(&'static str),
}

const CHAOS: &str = "a chaos construction's region cell (ISS's CC cells) in a rule other than ChaosArrow, \
                     ChaosCount, SameValues (on region cells only) and CountDistinct (counting region cells only), \
                     or in an Or or And: not read yet";
/// Whether `item` is a rule on a chaos construction's region cells that
/// [`Reader::label_rule`] reads: a `SameValues` or `CountDistinct` naming
/// a `CC` cell.
fn on_labels(item: &Item) -> bool {
    matches!(item.kind.text.as_str(), "SameValues" | "CountDistinct")
        && item.args.iter().any(|w| w.text.starts_with("CC"))
}

const RANGE: &str =
    "a value range other than 1..V or 0..V-1 with V at least the (longer) side; not in satsudoku's model yet";

/// The types read on a grid whose values run from 0 (`Shape~9x9~0-8`):
/// those whose meaning depends on orders, differences, equalities or
/// residues of values, or on values listed (read as the digits that stand
/// for them), and the sums of a fixed number of cells (each digit stands
/// for its value and 1); full rank orders by values as by digits;
/// skyscrapers, whose 0s are no buildings there (ISS's handler:
/// [`LineRule::Skyline`]); the line rules that sum values themselves (sum
/// lines, rellik cages, lunchboxes and sandwiches), counting circles
/// (by value: no circle holds 0), x-sums and indexing (as ISS's `Or` of
/// the control's values from 1), count-distinct circles, pill arrows (a
/// sum of values), hidden skyscrapers,
/// regular expressions (rewritten over digits) and state machines (ISS's
/// symbols are digits). The others are refused by name there
/// (docs/rules.md, "Values from 0").
#[rustfmt::skip]
const FROM_ZERO: &[&str] = &[
    "", "Shape", "Var", "NoBoxes", "Jigsaw", "RegionSize", "SearchPriority",
    "Thermo", "Whisper", "Renban", "Between", "Lockout", "Palindrome", "GreaterThan", "WhiteDot",
    "AntiKnight", "AntiKing", "AntiConsecutive", "Diagonal", "Windoku", "DisjointSets", "AllDifferent",
    "SameValues", "Pair", "PairX", "Binary", "BinaryX", "Modular", "EqualityCage", "GlobalMod",
    "Quad", "ContainAtLeast", "ContainExact", "LookAndSay",
    "Cage", "Sum", "Arrow", "DoubleArrow", "Zipper", "LittleKiller", "X", "V", "StrictXV", "EqualSum",
    "RegionSumLine", "BlackDot", "StrictKropki", "FullRank", "FullRankTies", "Skyscraper", "RegionSameValues",
    "Or", "And", "End", "Doppelganger", "NFA", "Regex", "SumLine", "RellikCage", "Lunchbox", "Sandwich",
    "HiddenSkyscraper", "CountingCircles", "XSum", "Indexing", "NumberedRoom", "ValueIndexing", "CountDistinct",
    "PillArrow", "ConnectedValues",
];

/// The types read on a `Raw` grid (`Shape~9x9~~Raw`: ISS's grid type with
/// no rows, columns or boxes, values free to repeat): those whose meaning
/// there is checked against ISS's handlers, with `tests/it/iss.rs`'s 3x3
/// oracle. The others are refused by name there.
#[rustfmt::skip]
const RAW: &[&str] = &[
    "", "Shape", "Var", "SearchPriority", "Or", "And", "End",
    "ContainExact", "ContainAtLeast", "Sum", "Cage", "Arrow", "SameValues", "AllDifferent",
    "Thermo", "WhiteDot", "BlackDot", "GreaterThan", "Palindrome", "Pair",
];

/// ISS's types that only a Sudoku grid has (their `REQUIRES_SUDOKU_GRID`,
/// the outside clues' through `OutsideConstraintBase`): ISS refuses them
/// on a `Raw` grid.
#[rustfmt::skip]
const SUDOKU_GRID_ONLY: &[&str] = &[
    "AntiKing", "AntiKnight", "ChaosConstruction", "Diagonal", "DisjointSets", "Doppelganger",
    "FullRankTies", "Indexing", "Jigsaw", "NoBoxes", "RegionSameValues", "RegionSize", "Windoku",
    "LittleKiller", "XSum", "Sandwich", "Skyscraper", "HiddenSkyscraper", "NumberedRoom", "FullRank",
];

/// The types read on a grid of more values than its side (`Shape~6x6~9`)
/// or with regions of another size (`RegionSize`): those whose meaning
/// there was checked against ISS's handlers (the values listed, sums,
/// orders and differences of values; skyscrapers count cells, numbered
/// rooms index cells up to the line's length, global entropy splits 9
/// values). The others are refused by name there.
#[rustfmt::skip]
const MORE_VALUES: &[&str] = &[
    "", "Shape", "Var", "NoBoxes", "Jigsaw", "RegionSize", "SearchPriority",
    "Thermo", "Whisper", "Renban", "BlackDot", "WhiteDot", "X", "V", "GreaterThan", "AllDifferent",
    "Sum", "Cage", "Arrow", "DoubleArrow", "Quad", "Diagonal", "AntiKnight", "AntiKing", "Regex", "NFA",
    "Skyscraper", "NumberedRoom", "DisjointSets", "GlobalEntropy", "CountingCircles", "DutchFlatmates",
    "SameValues", "RegionSameValues", "Or", "And", "End", "LittleKiller", "Doppelganger", "ConnectedValues",
];

/// The types read on a rectangular grid (`Shape~6x8`): those whose cells
/// are all named, and the outside clues read along a row or column of the
/// rectangle; rows and columns are then shorter than the number of values,
/// as on a grid of more values than its side (`MORE_VALUES`). The others
/// (rules over the whole grid, diagonals, composites) are refused by name
/// there.
#[rustfmt::skip]
const RECTANGLE: &[&str] = &[
    "", "Shape", "Var", "NoBoxes", "Jigsaw", "SearchPriority",
    "Thermo", "Whisper", "Renban", "BlackDot", "WhiteDot", "X", "V", "GreaterThan", "AllDifferent",
    "Sum", "Cage", "Arrow", "DoubleArrow", "Quad", "Regex", "NFA", "Skyscraper", "SameValues", "Indexing",
    "AntiKnight", "AntiKing", "Or", "And", "End",
];

/// The types read with cells outside the grid (`Var`): those whose cells
/// are all named and whose meaning is not the grid's side but its values
/// (as [`RECTANGLE`]'s), and the layout. The others, which read the whole
/// grid, are refused by name there.
#[rustfmt::skip]
const VAR: &[&str] = &[
    "", "Shape", "NoBoxes", "Jigsaw", "SearchPriority", "Var", "Replicate", "End",
    "Thermo", "Whisper", "Renban", "BlackDot", "WhiteDot", "X", "V", "GreaterThan", "AllDifferent",
    "Sum", "Cage", "Arrow", "DoubleArrow", "Regex", "NFA", "SameValues", "EqualSum", "ValueIndexing",
    "Pair", "PairX", "Binary", "BinaryX", "Or", "And", "Palindrome", "Doppelganger",
];

/// The types that read the boxes or jigsaw regions, or lay them out: with
/// a chaos construction, where the regions are the ones found, they are
/// refused by name (docs/rules.md, "Chaos construction").
const CHAOS_REGIONS: &[&str] =
    &["Jigsaw", "RegionSize", "RegionSumLine", "RegionSameValues", "DisjointSets", "Doppelganger", "Indexing"];

/// The types ISS allows inside `Or` and `And` (its categories
/// LinesAndSets, GivenCandidates, OutsideClue, Pairwise, StateMachine and
/// Composite: `CompositeConstraintBase._ALLOWED_CATEGORIES`); the others
/// are refused there, as ISS refuses them.
#[rustfmt::skip]
const COMPOSABLE: &[&str] = &[
    "", "Given", "AllDifferent", "Arrow", "Between", "BlackDot", "Cage", "ContainAtLeast", "CountDistinct",
    "CountingCircles", "DoubleArrow", "Entropic", "EqualSum", "EqualityCage", "GreaterThan", "Indexing", "Lockout",
    "LookAndSay", "Lunchbox", "Modular", "Palindrome", "PillArrow", "Quad", "Regex", "RegionSumLine", "RellikCage",
    "Renban", "SameValues", "Sum", "SumLine", "Thermo", "V", "ValueIndexing", "Whisper", "WhiteDot", "X", "Zipper",
    "FullRank", "HiddenSkyscraper", "LittleKiller", "NumberedRoom", "Sandwich", "Skyscraper", "XSum",
    "Pair", "PairX", "NFA", "Or", "And", "Replicate",
];

/// ISS's outside clues (its category OutsideClue), which `Replicate` may
/// not hold.
const OUTSIDE_CLUES: &[&str] =
    &["FullRank", "HiddenSkyscraper", "LittleKiller", "NumberedRoom", "Sandwich", "Skyscraper", "XSum"];

/// The most items `Replicate` blocks may expand into (nested blocks
/// multiply), so that memory stays proportional to the puzzle.
const MOST_REPLICATED: usize = 100_000;

/// ISS's base64url alphabet (`Base64Codec.BASE64_CHARS`), a character's
/// place its six bits.
const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// An item, or a composite with the items up to its `.End`.
enum Node<'i> {
    Item(&'i Item),
    Or(&'i Item, Vec<Node<'i>>),
    And(&'i Item, Vec<Node<'i>>),
}

impl Node<'_> {
    fn pos(&self) -> Pos {
        match self {
            Node::Item(item) | Node::Or(item, _) | Node::And(item, _) => item.kind.pos,
        }
    }
}

/// Every constraint type ISS reads (its `SudokuConstraint` classes), and
/// how satsudoku reads it. docs/rules.md shows this table ([`markdown`]).
pub const TYPES: &[(&str, Reading)] = &[
    ("Given", Reading::Read("a given digit, or the cell's candidates (several givens of a cell: their intersection); `.Given~R1C1_5` and `.~R1C1_5` alike, as ISS reads an item without a type")),
    ("Shape", Reading::Read("an N x N grid with values 1..V or 0..V-1, V = N unless given and at least N (`9x9~0-8`, `6x6~9`: see \"Values from 0\" and \"More values than the side\" below; boxes as ISS chooses them); the grid type `Raw` (`9x9~~Raw`: no rows, columns or boxes, values may repeat; see \"Raw grids\" below); a rectangle R x C (`6x8`, `9x8`: values 1..max(R, C) unless given; see \"Rectangles\" below); other ranges are refused; natively `size N` or `size RxC` and `values 1-V` or `values 0-V`")),
    ("NoBoxes", Reading::Read("no boxes: a Latin square (with jigsaw regions, if any)")),
    ("Jigsaw", Reading::Read("irregular regions: they replace the boxes with `NoBoxes`, else they are extra regions")),
    ("Thermo", Reading::Read("`thermo`")),
    ("Whisper", Reading::Read("`whisper` with the difference given (5 if none, on every size, as ISS)")),
    ("Renban", Reading::Read("`renban`")),
    ("Modular", Reading::Read("cells whose positions differ modulo M hold digits that differ modulo M (`modular` is M = 3)")),
    ("Entropic", Reading::Read("`entropic` (ISS: 9 x 9 only)")),
    ("RegionSumLine", Reading::Read("`region-sum`, over the boxes, else the jigsaw regions")),
    ("Between", Reading::Read("`between`")),
    ("Lockout", Reading::Read("`lockout` with the ends' least difference given")),
    ("Palindrome", Reading::Read("`palindrome`")),
    ("Zipper", Reading::Read("`zipper`")),
    ("Arrow", Reading::Read("`arrow` with a one-cell circle, the first cell")),
    ("DoubleArrow", Reading::Read("`double-arrow`")),
    ("PillArrow", Reading::Read("`arrow` whose first 2 or 3 cells are the pill, read in reading order (digits 1..9 only)")),
    ("Cage", Reading::Read("a cage: different digits, summing to the sum unless it is 0 or empty (cages may overlap; a cell listed twice counts twice in the sum, as ISS's sum handler adds it); natively `killer`, or `extra` and `sum-of` for cages that overlap")),
    ("Sum", Reading::Read("a sum, with the coefficients if given (`S_=_c1_c2...`); digits may repeat; natively `sum-of` (`-10*r1c1` a coefficient)")),
    ("LittleKiller", Reading::Read("`little-killer` along ISS's diagonal from the named cell")),
    ("XSum", Reading::Read("`xsum` clues, from the start and the end of the row or column")),
    ("Sandwich", Reading::Read("`sandwich` (the line's 1 and N)")),
    ("Skyscraper", Reading::Read("`skyscraper` clues (on a grid of values from 0, 0s are no buildings, as in ISS)")),
    ("WhiteDot", Reading::Read("`white` (difference 1) on each pair of orthogonal neighbours among the cells")),
    ("BlackDot", Reading::Read("`black` (ratio 2) on each pair of orthogonal neighbours among the cells")),
    ("X", Reading::Read("`x` on each pair of orthogonal neighbours among the cells")),
    ("V", Reading::Read("`v` on each pair of orthogonal neighbours among the cells")),
    ("GreaterThan", Reading::Read("`greater`: each cell above the later cells next to it")),
    ("AntiKnight", Reading::Read("`antiknight`; on a rectangle too, within it")),
    ("AntiKing", Reading::Read("`antiking`; on a rectangle too, within it")),
    (
        "AntiConsecutive",
        Reading::Read("no orthogonal neighbours consecutive, dots or not (`nonconsecutive` spares dotted pairs)"),
    ),
    ("Diagonal", Reading::Read("`diagonal+` (1) or `diagonal-` (-1)")),
    ("Windoku", Reading::Read("ISS's windows: box-sized regions inset one cell from the boxes' corners")),
    ("DisjointSets", Reading::Read("`disjoint`")),
    ("AllDifferent", Reading::Read("`extra`")),
    ("Quad", Reading::Read("`quadruple`: the 2x2 from the cell holds the values (as often as listed)")),
    ("ContainAtLeast", Reading::Read("the cells hold the values, each at least as often as listed (`contain-at-least`)")),
    ("SameValues", Reading::Read("`same-values`: the cells in order split into the sets, each holding the same values as often (one set a cell: all the cells hold one value); with ChaosConstruction, on CC cells only too: their regions (docs/rules.md, Chaos construction)")),
    ("Indexing", Reading::Read("`column-index` (C) or `row-index` (R); on a rectangle, the control's row or column as long as it is (a digit past it names no cell, as in ISS's handler)")),
    ("StrictKropki", Reading::Read("`negative black` and `nonconsecutive`: no ratio of 2 and no difference of 1 between neighbours without a dot, white dots on the board or not")),
    ("StrictXV", Reading::Read("`negative x v`")),
    ("Pair", Reading::Read("a relation given by its allowed pairs (ISS's key), on each two consecutive cells of each group (`pair`, the pairs listed)")),
    ("PairX", Reading::Read("a symmetric relation given by its allowed pairs, on every two cells of each group (`pair-all`)")),
    ("Binary", Reading::Read("`Pair` with ISS's legacy key (`-` and `_` swapped)")),
    ("BinaryX", Reading::Read("`PairX` with ISS's legacy key (`-` and `_` swapped)")),
    ("SearchPriority", Reading::Ignored("the solver's search order, not a rule")),
    ("Container", Reading::Refused("ISS's root, never written in a string")),
    ("Or", Reading::Read("`either`: at least one of the items up to its `.End` holds (an `And`, or an item that stands for several rules, is one alternative); over cells that take at most 10,000 tuples of digits (and with no `Regex` or `NFA` inside), a table of the tuples some alternative allows (docs/encodings.md), else a selector variable per alternative, the count projected on the cells; an `Or` whose items are each one hidden skyscraper clue on the same line becomes one clue of all their values (the same grids, propagated as one automaton)")),
    ("And", Reading::Read("all the items up to its `.End` hold: one alternative of an `Or` (at the root, the items themselves)")),
    ("Replicate", Reading::Read("the items up to its `.End`, shifted so that the origin (`R1C1` unless given) falls on each cell the bitset names, all holding (an `And` of the copies; ISS's builder); natively a `replicate ORIGIN : TARGETS` block")),
    ("End", Reading::Read("closes the innermost `Or` or `And`")),
    ("Regex", Reading::Read("the line's digits match the pattern as a whole (`regex`; ISS's grammar; its automaton unrolled over the line, domain consistent; refused past 200,000 edges, as state machines are)")),
    ("NFA", Reading::Read("the state machine ISS serialises (its `NFASerializer`), over the cells in order, the symbol past the digits between segments; unrolled as an automaton, domain consistent (`state-machine`)")),
    ("ChaosConstruction", Reading::Read("`chaos`: the grid is divided into as many regions as its side, of that many orthogonally connected cells each holding every digit once, found with the digits (the boxes stay unless `NoBoxes`, as in ISS); a solution is a grid and its layout, each counted once (ISS's canonical labels); on a square grid of as many values as its side, without the types that read regions (docs/rules.md, Chaos construction)")),
    ("ChaosArrow", Reading::Read("region runs: the control cell's value plus the offset (0, or 1 to leave the start out) is the start plus, along each arm of CC cells from the same start, the run of cells in the start's region up to the first cell in another; with the control cell alone, its four arms to the grid's edges (ISS's handler and `expandedArms`); with ChaosConstruction only, on values from 1 (`chaos-arrow`)")),
    ("ChaosCount", Reading::Read("region runs of one step: the control cell's value plus the offset is how many of the CC cells, the first included, are in the first's region; with the control cell alone, its own and its eight neighbours' (ISS's `expandedRegionCells`) (`chaos-count`)")),
    ("RegionSize", Reading::Read("the size of the boxes (ISS's shape for it) and jigsaw pieces, from the side to the number of values; natively `box RxC` of that many cells with `values 1-V`")),
    ("RegionSameValues", Reading::Read("`same-values` over the largest of the rows, columns, boxes and jigsaw pieces, when they are smaller than the number of values (else nothing, as ISS)")),
    ("Var", Reading::Read("cells outside the grid, `VA` (one cell) or `VA1`, `VA2` ... (the prefix's letters after `V`), holding values as the grid's cells do, under the rules that name them; a size of `K` or `RxC` cells (1 if none); with the types of a rectangle's list and `EqualSum`, `ValueIndexing`, `Pair`, `Binary`, `Palindrome`, `Or`, `And` and `Replicate` (whose cells ISS shifts only on the grid), not with the types that read the whole grid; neighbours as ISS lays each group out (docs/rules.md, \"Cells outside the grid\"); natively `outside K`, named `v1`..`vK`")),
    ("Doppelganger", Reading::Read("on a grid of values 0-N (`9x9~0-9`): every row, column and box holds a 0 and misses one other value, no two of a kind miss the same one, and at each 0 its regions miss three different values (ISS's handler's rules 1-3); its cells outside the grid (`DGR1` ... each column's missing value, `DGC1` ... each row's, `DGB1` ... each box's, `DGZ` 0) when a rule names one (docs/rules.md, \"More values than the side\"); natively `doppelganger`, without the named cells")),
    ("AntiTaxicab", Reading::Read("`antitaxicab`")),
    ("GlobalEntropy", Reading::Read("`global-entropy` (ISS: 9 digits only)")),
    ("GlobalMod", Reading::Read("`global-modular` (ISS: 9 digits only)")),
    ("FullRankTies", Reading::Read("`full-rank-ties`: `none`, `only-unclued` (ISS's default) or `any`")),
    ("FullRank", Reading::Read("`full-rank` clues, from the start and the end of the row or column: the readings' rank, one more than the readings below (tied readings share a rank)")),
    ("DutchFlatmates", Reading::Read("`dutch-flatmates`: the middle digit is N/2 rounded up, as ISS has it")),
    ("ValueIndexing", Reading::Read("`value-index`: the value cell, the control cell, then the line it indexes (control 1: the line's first cell)")),
    ("RellikCage", Reading::Read("`rellik`: a cage of different digits, no set of which sums to the number")),
    ("EqualityCage", Reading::Read("`equality-cage` (an even number of cells, as ISS requires)")),
    ("HiddenSkyscraper", Reading::Read("`hidden-skyscraper` clues, from the start and the end of the row or column (a clue of 0 only on values from 0)")),
    ("NumberedRoom", Reading::Read("`numbered-room` clues, from the start and the end of the row or column (a clue of 0 only on values from 0)")),
    ("ContainExact", Reading::Read("the cells hold the values exactly as often as listed (`contain-exact`)")),
    ("LookAndSay", Reading::Read("`look-and-say`: (count, value) pairs, exact counts, 0 keeps the value out")),
    ("ConnectedValues", Reading::Read("`connected-values` over the grid: the cells holding one of the values form one region, not empty, orthogonally connected, of the size if given; over a group of `Var` cells refused, as `Var` is")),
    ("EqualSum", Reading::Read("the segments (split at `-`) have equal sums, as region-sum lines do")),
    ("CountingCircles", Reading::Read("`counting-circles`")),
    ("CountDistinct", Reading::Read("`count-distinct`: the control cell first; with ChaosConstruction, counting CC cells only too: how many regions they meet")),
    ("SumLine", Reading::Read("`sum-line`; a loop (`LOOP`): `sum-loop`")),
    ("Lunchbox", Reading::Read("`lunchbox`: different digits; the smallest and largest by value, the cells between them by the listed order")),
];

/// How satsudoku reads ISS's type `name`, if ISS has it.
pub fn reading(name: &str) -> Option<Reading> {
    TYPES.iter().find(|(n, _)| *n == name).map(|&(_, r)| r)
}

/// The table of ISS types as docs/rules.md shows it (Markdown).
pub fn markdown() -> String {
    let mut out = String::from("| ISS type | read as |\n|---|---|\n");
    for (name, reading) in TYPES {
        let text = match reading {
            Reading::Read(s) => s.to_string(),
            Reading::Ignored(s) => format!("ignored: {s}"),
            Reading::Refused(s) => format!("refused: {s}"),
        };
        out.push_str(&format!("| `{name}` | {text} |\n"));
    }
    out
}

/// Whether `text` looks like an ISS constraint string or link: a link to
/// the solver with a `q` parameter, or text whose first item (after `#`
/// comments) is a given (`.~`) or a type ISS has (`.Thermo~`), after
/// any empty items (`..Cage~`), or is a killer shorthand
/// ([`is_killer_shorthand`]).
pub fn looks_like(text: &str) -> bool {
    let trimmed = text.trim_start();
    if trimmed.starts_with("http") && trimmed.contains("Interactive-Sudoku-Solver") {
        return true;
    }
    if is_killer_shorthand(text) {
        return true;
    }
    let compact = first_line(text);
    // Empty items come first in some of ISS's own strings (`..Cage~14~`).
    let rest = compact.trim_start_matches('.');
    if rest.len() == compact.len() {
        return false;
    }
    if rest.starts_with('~') {
        return true;
    }
    let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
    let after = rest[name.len()..].chars().next();
    // `X` and `V` must take cells (`.X~R1C1~R1C2`): a line of givens of a
    // large grid may start `.V.` too.
    let takes_cells = matches!(after, Some('~')) || (name.len() > 1 && matches!(after, None | Some('.')));
    reading(&name).is_some() && takes_cells
}

/// Whether `text`'s first line (after `#` comments) is one of ISS's
/// killer shorthands (81 cells of totals and directions, or `3x3::k:` and
/// 81 numbers), which only ISS reads.
pub fn is_killer_shorthand(text: &str) -> bool {
    matches!(short_kind(&first_line(text)), Some(Short::Killer | Short::LongKiller))
}

/// Whether `text` is one line that ISS reads as its jigsaw shorthand with
/// givens (2 n^2 characters: the givens, then the layout) or as pencil
/// marks (n^3 digits and dots, where ISS does not read a plain grid): a
/// reading to try beside the others. ISS's plain grid is the `givens`
/// format's line, read alike; its jigsaw layout without givens (n^2 cells,
/// n symbols n times each) is also a full grid's line, and is left to the
/// `givens` format's reading (`--format iss` reads it as ISS does).
pub fn may_be_shorthand(text: &str) -> bool {
    let lines = text.lines().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')).count();
    lines == 1
        && matches!(short_kind(&first_line(text)), Some(Short::Jigsaw { givens: true, .. } | Short::Marks { .. }))
}

/// The first line that is not blank or a `#` comment, whitespace dropped.
fn first_line(text: &str) -> String {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
    first.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The characters of a section with whitespace dropped, each with where it
/// was in the text.
struct Compact {
    chars: Vec<char>,
    at: Vec<Pos>,
    /// Where the section ends (for errors at its end).
    end: Pos,
}

impl Compact {
    fn pos(&self, i: usize) -> Pos {
        self.at.get(i).copied().unwrap_or(self.end)
    }
}

/// The sections of `text` (split at blank lines; `#` lines dropped), or of
/// the `q` parameter of a link, percent-decoded (ISS reads it as a text).
fn sections(text: &str, name: &str) -> Result<Vec<Compact>, ParseError> {
    let trimmed = text.trim();
    if trimmed.starts_with("http") && !trimmed.contains(char::is_whitespace) {
        let line = text.lines().position(|l| !l.trim().is_empty()).unwrap_or(0) + 1;
        let indent = text.lines().nth(line - 1).map_or(0, |l| l.chars().take_while(|c| c.is_whitespace()).count());
        let chars: Vec<char> = trimmed.chars().collect();
        let query = (0..chars.len()).find(|&i| {
            matches!(chars[i], '?' | '&') && chars.get(i + 1) == Some(&'q') && chars.get(i + 2) == Some(&'=')
        });
        let Some(q) = query else {
            return Err(Pos { line, col: indent + 1 }.error(name, "expected an ISS link with a q= parameter"));
        };
        let at = |i: usize| Pos { line, col: indent + i + 1 };
        // The decoded characters, each with the place of its escape.
        let mut decoded: Vec<(char, Pos)> = Vec::new();
        let mut i = q + 3;
        while i < chars.len() && !matches!(chars[i], '&' | '#') {
            let hex = |k: usize| chars.get(k).and_then(|c| c.to_digit(16));
            let (c, width) = match (chars[i], hex(i + 1), hex(i + 2)) {
                ('%', Some(h), Some(l)) => {
                    // A multi-byte character: collect its bytes.
                    let mut bytes = vec![(h * 16 + l) as u8];
                    let mut k = i + 3;
                    while bytes[0] >= 0x80 && chars.get(k) == Some(&'%') && bytes.len() < 4 {
                        match (hex(k + 1), hex(k + 2)) {
                            (Some(h), Some(l)) => bytes.push((h * 16 + l) as u8),
                            _ => break,
                        }
                        k += 3;
                    }
                    let text = String::from_utf8(bytes.clone())
                        .map_err(|_| at(i).error(name, "a %-escape that is not UTF-8"))?;
                    (text.chars().next().unwrap_or(' '), 3 * bytes.len())
                }
                ('%', _, _) => return Err(at(i).error(name, "expected two hex digits after %")),
                ('+', _, _) => (' ', 1),
                (c, _, _) => (c, 1),
            };
            decoded.push((c, at(i)));
            i += width;
        }
        // The parameter's text is read as ISS reads a text (`parseText`):
        // its lines, split where the decoded text breaks a line.
        let end = at(chars.len());
        let mut lines = Vec::new();
        let mut line = Vec::new();
        let mut start = at(q + 3);
        for (c, pos) in decoded {
            if c == '\n' {
                lines.push((std::mem::take(&mut line), start, pos));
                start = pos;
            } else if !c.is_whitespace() {
                line.push((c, pos));
            }
        }
        lines.push((line, start, end));
        let found = split_sections(lines);
        if found.is_empty() {
            return Err(at(q).error(name, "an empty q= parameter: expected an ISS constraint string"));
        }
        return Ok(found);
    }
    let lines = text.lines().enumerate().map(|(number, line)| {
        let pos = |col: usize| Pos { line: number + 1, col: col + 1 };
        let content = line.chars().enumerate().filter(|(_, c)| !c.is_whitespace());
        (content.map(|(col, c)| (c, pos(col))).collect(), pos(0), pos(line.chars().count()))
    });
    // Line by line: a long file is never held twice.
    let found = split_sections(lines);
    if found.is_empty() {
        return Err(Pos { line: 1, col: 1 }.error(name, "empty input: expected an ISS constraint string"));
    }
    Ok(found)
}

/// The sections of a text given as its lines (each its characters other
/// than white space with their places, where it starts and where it
/// ends), as ISS's `parseText` splits them: at lines of blanks, lines
/// starting with `#` dropped.
fn split_sections(lines: impl IntoIterator<Item = (Vec<(char, Pos)>, Pos, Pos)>) -> Vec<Compact> {
    let mut found = Vec::new();
    let mut current = Compact { chars: Vec::new(), at: Vec::new(), end: Pos { line: 1, col: 1 } };
    for (content, start, end) in lines {
        match content.first() {
            None => {
                if !current.chars.is_empty() {
                    current.end = start;
                    let next = Compact { chars: Vec::new(), at: Vec::new(), end: start };
                    found.push(std::mem::replace(&mut current, next));
                }
            }
            Some(('#', _)) => {}
            Some(_) => {
                for (c, pos) in content {
                    current.chars.push(c);
                    current.at.push(pos);
                }
                current.end = end;
            }
        }
    }
    if !current.chars.is_empty() {
        found.push(current);
    }
    found
}

/// A word of an item and where it starts.
#[derive(Clone, Debug)]
struct Word {
    text: String,
    pos: Pos,
}

/// One `.Type~arg~arg` item.
#[derive(Clone, Debug)]
struct Item {
    kind: Word,
    args: Vec<Word>,
}

/// The items of a constraint string.
fn items(section: &Compact, name: &str) -> Result<Vec<Item>, ParseError> {
    if section.chars.first() != Some(&'.') {
        return Err(section.pos(0).error(name, "expected an ISS constraint string, starting with '.'"));
    }
    let mut found = Vec::new();
    let mut i = 1;
    while i <= section.chars.len() {
        let end = (i..section.chars.len()).find(|&k| section.chars[k] == '.').unwrap_or(section.chars.len());
        let mut words = Vec::new();
        let mut start = i;
        for k in i..=end {
            if k == end || section.chars[k] == '~' {
                words.push(Word { text: section.chars[start..k].iter().collect(), pos: section.pos(start) });
                start = k + 1;
            }
        }
        let mut words = words.into_iter();
        if let Some(mut kind) = words.next() {
            // `..` (an empty item) is nothing, as in ISS.
            if !(kind.text.is_empty() && end == i) {
                // ISS reads an item without a type as a `Given`
                // (`type ||= 'Given'`, sudoku_parser.js): `.Given~R1C1_5`
                // is `.~R1C1_5`, read as one from here on.
                if kind.text == "Given" {
                    kind.text.clear();
                }
                found.push(Item { kind, args: words.collect() });
            }
        }
        i = end + 1;
    }
    Ok(found)
}

/// Reads an ISS constraint string (or link, or shorthand).
pub fn parse_iss(text: &str, name: &str) -> Result<Puzzle, ParseError> {
    let mut all = Vec::new();
    // As ISS does: a section is a shorthand if it reads as one, else a
    // constraint string.
    for section in sections(text, name)? {
        match shorthand(&section, name)? {
            Some(found) => all.extend(found),
            None if section.chars.first() == Some(&'.') => all.extend(items(&section, name)?),
            None => {
                return Err(section.pos(0).error(
                    name,
                    "expected an ISS constraint string (starting with '.'), or ISS's killer, jigsaw, grid or \
                     pencil-mark shorthand",
                ))
            }
        }
    }
    Reader { name, items: &all, shape: Default::default(), vars: Default::default() }.read()
}

/// Which of ISS's shorthands a section is, tried in ISS's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Short {
    /// 81 cells, each a cage's total or a direction towards it.
    Killer,
    /// `3x3::k:` (or `3x3:d:k:`) and 81 numbers.
    LongKiller,
    /// A jigsaw layout of n^2 cells (n symbols, each n times), after n^2
    /// cells of givens if `givens`.
    Jigsaw { n: usize, givens: bool },
    /// n^2 cells, the values as ISS writes them and one character for the
    /// blanks.
    Plain { n: usize },
    /// n^3 digits and dots: n a cell, a digit where it is a candidate.
    Marks { n: usize },
}

/// The shorthand `text` is (its characters, whitespace dropped), as ISS
/// tries them, if any.
fn short_kind(text: &str) -> Option<Short> {
    let len = text.chars().count();
    let killer_char = |c: char| {
        c.is_ascii_digit() || matches!(c, 'A'..='Z' | 'a'..='j' | '^' | '<' | 'v' | '>' | '`' | '\'' | ',' | '.')
    };
    if len == 81 && text.contains(['<', 'v', '>', '^', '`', '\'', ',']) && text.chars().all(killer_char) {
        return Some(Short::Killer);
    }
    if text.starts_with("3x3:") && text.split(':').nth(2) == Some("k") {
        return Some(Short::LongKiller);
    }
    let side = (1..=16).find(|&n| n * n == len || 2 * n * n == len);
    if let Some(n) = side.filter(|_| len > 1) {
        let mut counts = std::collections::BTreeMap::new();
        for c in text.chars().skip(len - n * n) {
            *counts.entry(c).or_insert(0) += 1;
        }
        if counts.len() == n && counts.values().all(|&k| k == n) {
            return Some(Short::Jigsaw { n, givens: len == 2 * n * n });
        }
    }
    if let Some(n) = (2..=16).find(|&n| n * n == len) {
        let blanks: std::collections::BTreeSet<char> = text.chars().filter(|&c| short_value(c, n).is_none()).collect();
        if blanks.len() <= 1 {
            return Some(Short::Plain { n });
        }
    }
    let marks = (2..=9).find(|&n| n * n * n == len);
    marks.filter(|_| text.chars().all(|c| c.is_ascii_digit() || c == '.')).map(|n| Short::Marks { n })
}

/// A shorthand section (killer, jigsaw, plain grid, pencil marks, tried in
/// ISS's order), as the items it stands for; `None` if it is none.
fn shorthand(section: &Compact, name: &str) -> Result<Option<Vec<Item>>, ParseError> {
    let text: String = section.chars.iter().collect();
    let at = section.pos(0);
    let word = |text: String| Word { text, pos: at };
    let shape = |n: usize| Item { kind: word("Shape".into()), args: vec![word(format!("{n}x{n}"))] };
    let given = |i: usize, n: usize, values: String| word(format!("{}_{values}", cell_id(Cell::new(i / n, i % n))));
    let found = match short_kind(&text) {
        None => return Ok(None),
        Some(Short::Killer) => short_killer(&text, at, name)?,
        Some(Short::LongKiller) => long_killer(&text, at, name)?,
        Some(Short::Jigsaw { n, givens }) => {
            let layout: String = text.chars().skip(if givens { n * n } else { 0 }).collect();
            let mut found = vec![
                shape(n),
                Item { kind: word("NoBoxes".into()), args: vec![] },
                Item { kind: word("Jigsaw".into()), args: vec![word(layout)] },
            ];
            if givens {
                let values = text.chars().take(n * n).enumerate();
                let givens = values.filter_map(|(i, c)| short_value(c, n).map(|d| given(i, n, d.to_string())));
                found.push(Item { kind: word(String::new()), args: givens.collect() });
            }
            found
        }
        Some(Short::Plain { n }) => {
            let givens =
                text.chars().enumerate().filter_map(|(i, c)| short_value(c, n).map(|d| given(i, n, d.to_string())));
            vec![shape(n), Item { kind: word(String::new()), args: givens.collect() }]
        }
        Some(Short::Marks { n }) => {
            let chars: Vec<char> = text.chars().collect();
            let marks = (0..n * n).map(|i| {
                let values: Vec<String> =
                    chars[i * n..(i + 1) * n].iter().filter(|&&c| c != '.').map(|c| c.to_string()).collect();
                given(i, n, values.join("_"))
            });
            vec![shape(n), Item { kind: word(String::new()), args: marks.collect() }]
        }
    };
    Ok(Some(found))
}

/// A digit as ISS writes it in a short grid: `1`-`9` up to 9 values, `A`
/// for 1 onwards above.
fn short_value(c: char, n: usize) -> Option<usize> {
    let value = match c {
        '1'..='9' if n < 10 => c as usize - '0' as usize,
        'A'..='Z' if n >= 10 => c as usize - 'A' as usize + 1,
        _ => return None,
    };
    (value <= n).then_some(value)
}

/// The short killer format (forum.enjoysudoku.com "understandable,
/// snarfable killer cages", as ISS reads it): each cell a cage's total or a
/// direction towards the cell that holds it.
fn short_killer(text: &str, at: Pos, name: &str) -> Result<Vec<Item>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut next = Vec::with_capacity(81);
    for (i, &c) in chars.iter().enumerate() {
        let step: isize = match c {
            'v' => 9,
            '^' => -9,
            '<' => -1,
            '>' => 1,
            '`' => -10,
            '\'' => -8,
            ',' => 8,
            '.' => 10,
            '0'..='9' | 'A'..='Z' | 'a'..='j' => 0,
            _ => return Err(at.error(name, format!("killer shorthand: unexpected {c:?} in cell {}", i + 1))),
        };
        let target = i as isize + step;
        if !(0..81).contains(&target) {
            return Err(at.error(name, format!("killer shorthand: cell {} points outside the grid", i + 1)));
        }
        next.push(target as usize);
    }
    let mut cages: Vec<(usize, Vec<usize>)> = Vec::new();
    for i in 0..81 {
        let mut cell = i;
        let mut steps = 0;
        while next[cell] != cell {
            cell = next[cell];
            steps += 1;
            if steps > 9 {
                return Err(at.error(name, "killer shorthand: a loop of directions"));
            }
        }
        match cages.iter_mut().find(|(head, _)| *head == cell) {
            Some((_, cells)) => cells.push(i),
            None => cages.push((cell, vec![i])),
        }
    }
    let word = |text: String| Word { text, pos: at };
    let mut found = Vec::new();
    for (head, cells) in cages {
        let c = chars[head];
        let sum = match c {
            '0'..='9' => c as usize - '0' as usize,
            'A'..='Z' => c as usize - 'A' as usize + 10,
            _ => c as usize - 'a' as usize + 36,
        };
        let mut args = vec![word(sum.to_string())];
        args.extend(cells.iter().map(|&i| word(cell_id(Cell::new(i / 9, i % 9)))));
        found.push(Item { kind: word("Cage".into()), args });
    }
    Ok(found)
}

/// SudoCue's long killer format (`3x3:d:k:` then 81 numbers, each a
/// cage's total times 256 plus its number; `d`: both diagonals), as ISS
/// reads it.
fn long_killer(text: &str, at: Pos, name: &str) -> Result<Vec<Item>, ParseError> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 81 + 4 || parts[2] != "k" || !matches!(parts[1], "" | "d") {
        return Err(at.error(name, "expected the long killer format: 3x3::k: (or 3x3:d:k:) and 81 numbers"));
    }
    let word = |text: String| Word { text, pos: at };
    let mut cages: Vec<(u64, u64, Vec<usize>)> = Vec::new();
    for i in 0..81 {
        let value: u64 = match parts[i + 3] {
            "" => 0,
            p => p.parse().map_err(|_| at.error(name, format!("long killer: cell {} is not a number", i + 1)))?,
        };
        let (id, sum) = (value % 256, value / 256);
        if sum == 0 {
            continue;
        }
        match cages.iter_mut().find(|c| c.0 == id) {
            Some(cage) => cage.2.push(i),
            None => cages.push((id, sum, vec![i])),
        }
    }
    let mut found = Vec::new();
    if parts[1] == "d" {
        found.push(Item { kind: word("Diagonal".into()), args: vec![word("1".into())] });
        found.push(Item { kind: word("Diagonal".into()), args: vec![word("-1".into())] });
    }
    for (_, sum, cells) in cages {
        let mut args = vec![word(sum.to_string())];
        args.extend(cells.iter().map(|&i| word(cell_id(Cell::new(i / 9, i % 9)))));
        found.push(Item { kind: word("Cage".into()), args });
    }
    Ok(found)
}

/// ISS's name of a cell: `R{row}C{col}` in base 17.
pub fn cell_id(cell: Cell) -> String {
    let digit = |i: usize| std::char::from_digit(i as u32 + 1, 17).unwrap_or('?');
    format!("R{}C{}", digit(cell.row), digit(cell.col))
}

/// ISS's box shape for an `n x n` grid (`CellGeometry.boxDimsForSize`):
/// the tallest box not taller than wide, or none (a prime side).
pub fn box_shape(n: usize) -> Option<(usize, usize)> {
    box_dims(n, n)
}

/// ISS's boxes of `size` cells on an `n x n` grid
/// (`CellGeometry.boxDimsForSize`): rows and columns of a box, the
/// shorter side first, or none.
pub(crate) fn box_dims(n: usize, size: usize) -> Option<(usize, usize)> {
    rectangle_boxes(n, n, size)
}

/// ISS's boxes of `size` cells on a `rows x cols` grid
/// (`CellGeometry.boxDimsForSize`): from the squarest shape down, the box
/// of `small x large` cells if it tiles the grid, else `large x small`;
/// none if no shape with both sides at least 2 does.
pub(crate) fn rectangle_boxes(rows: usize, cols: usize, size: usize) -> Option<(usize, usize)> {
    let root = (1..=size).take_while(|k| k * k <= size).last().unwrap_or(1);
    (2..=root).rev().filter(|small| size % small == 0).find_map(|small| {
        let large = size / small;
        if rows % small == 0 && cols % large == 0 {
            Some((small, large))
        } else if rows % large == 0 && cols % small == 0 {
            Some((large, small))
        } else {
            None
        }
    })
}

/// The boxes of `h x w` cells of an `n x n` grid, in reading order, each
/// in reading order.
pub(crate) fn boxes_of(n: usize, (h, w): (usize, usize)) -> Vec<Vec<Cell>> {
    itertools::iproduct!(0..n / h, 0..n / w)
        .map(|(br, bc)| itertools::iproduct!(0..h, 0..w).map(|(i, j)| Cell::new(br * h + i, bc * w + j)).collect())
        .collect()
}

struct Reader<'a> {
    name: &'a str,
    items: &'a [Item],
    /// The grid's rows and columns once [`Reader::build`] has read them,
    /// for the cells' errors.
    shape: std::cell::Cell<Option<(usize, usize)>>,
    /// The cells outside the grid (`Var`), once the model has them
    /// ([`Reader::add_vars`]).
    vars: std::cell::RefCell<Vec<(Outside, Cell)>>,
}

/// A cell outside the grid as ISS declares it: its name, and its place in
/// its group, laid out in rows of `columns` cells (ISS's `CellGraph`, by
/// which two cells of one group may be neighbours; none of another group
/// or of the grid is).
#[derive(Clone, Debug)]
struct Outside {
    name: String,
    group: usize,
    index: usize,
    columns: usize,
}

impl Reader<'_> {
    fn err(&self, pos: Pos, message: impl Into<String>) -> ParseError {
        pos.error(self.name, message)
    }

    /// Reads the items, ISS's `Replicate` blocks first expanded into an
    /// `And` of their shifted copies ([`Reader::replicated`]).
    fn read(&self) -> Result<Puzzle, ParseError> {
        if !self.items.iter().any(|i| i.kind.text == "Replicate") {
            return self.build();
        }
        let (rows, cols, _, _, _) = self.side()?;
        self.shape.set(Some((rows, cols)));
        let items = self.replicated(self.items, (rows, cols), 0)?;
        Reader { name: self.name, items: &items, shape: Default::default(), vars: Default::default() }.build()
    }

    /// `items` with each `Replicate` block (to its `.End`) replaced by an
    /// `And` of its items shifted so that the origin (`R1C1` unless given)
    /// falls on each target cell, as ISS's builder does: the targets are
    /// the set bits of the base64url bitset, bit `i` the cell `i` places
    /// after the origin in reading order; a word is shifted when it names
    /// a cell (or a given's cell), except a state machine's, pattern's or
    /// pair key's first word; a cell shifted off the grid is an error, as
    /// in ISS. Blocks nest, `depth` of them around `items`.
    fn replicated(&self, items: &[Item], (rows, cols): (usize, usize), depth: usize) -> Result<Vec<Item>, ParseError> {
        let n = rows.max(cols);
        let mut out = Vec::with_capacity(items.len());
        let mut i = 0;
        // The cells outside the grid, which no copy may name (as in ISS).
        let declared = self.declared_vars()?;
        while i < items.len() {
            let item = &items[i];
            if item.kind.text != "Replicate" {
                out.push(item.clone());
                i += 1;
                continue;
            }
            // The block's items, to the matching `.End`.
            let mut open = 0;
            let end = (i + 1..items.len()).find(|&k| {
                match items[k].kind.text.as_str() {
                    "Or" | "And" | "Replicate" => open += 1,
                    "End" if open == 0 => return true,
                    "End" => open -= 1,
                    _ => {}
                }
                false
            });
            let Some(end) = end else {
                return Err(self.err(item.kind.pos, "this Replicate has no .End"));
            };
            for inner in &items[i + 1..end] {
                let kind = inner.kind.text.as_str();
                let id = |w: &Word| w.text.split('_').next().unwrap_or("").to_owned();
                if let Some(word) = inner.args.iter().find(|w| declared.iter().any(|o| o.name == id(w))) {
                    let why =
                        format!("{} inside Replicate: a cell outside the grid (ISS refuses it too)", quote(&word.text));
                    return Err(self.err(word.pos, why));
                }
                if !(COMPOSABLE.contains(&kind) || matches!(kind, "Replicate" | "End")) || OUTSIDE_CLUES.contains(&kind)
                {
                    let why = format!("ISS constraint {kind} is not allowed inside Replicate (as in ISS)");
                    return Err(self.err(inner.kind.pos, why));
                }
            }
            if depth == rules::MOST_NESTED {
                let why = format!("Replicate nested deeper than {}: not read", rules::MOST_NESTED);
                return Err(self.err(item.kind.pos, why));
            }
            let body = self.replicated(&items[i + 1..end], (rows, cols), depth + 1)?;
            let word = |k: usize| item.args.get(k).filter(|w| !w.text.is_empty());
            let origin = match word(1) {
                Some(w) => self.cell(w, n)?,
                None => Cell::new(0, 0),
            };
            let mut targets = Vec::new();
            if let Some(bits) = word(0) {
                for (k, c) in bits.text.chars().enumerate() {
                    let Some(value) = BASE64URL.find(c) else {
                        return Err(
                            self.err(bits.pos, format!("expected a bitset in base64url, found {}", quote(&bits.text)))
                        );
                    };
                    for b in (0..6).filter(|b| value >> b & 1 == 1) {
                        // Cells in reading order of the grid's rows (ISS's
                        // cell indices), from the origin's.
                        let at = origin.row * cols + origin.col + 6 * k + b;
                        if at >= rows * cols {
                            return Err(self.err(bits.pos, "a Replicate target past the grid's last cell"));
                        }
                        targets.push(Cell::new(at / cols, at % cols));
                    }
                }
            }
            out.push(Item { kind: Word { text: "And".into(), pos: item.kind.pos }, args: Vec::new() });
            if out.len() + targets.len() * body.len() > MOST_REPLICATED {
                let why = format!("Replicate makes more than {MOST_REPLICATED} items: not read");
                return Err(self.err(item.kind.pos, why));
            }
            for target in targets {
                let by = (target.row as isize - origin.row as isize, target.col as isize - origin.col as isize);
                for inner in &body {
                    out.push(self.shifted(inner, by, (rows, cols))?);
                }
            }
            out.push(Item { kind: Word { text: "End".into(), pos: items[end].kind.pos }, args: Vec::new() });
            i = end + 1;
        }
        Ok(out)
    }

    /// `item` with the cells it names moved `by` rows and columns.
    fn shifted(&self, item: &Item, by: (isize, isize), (rows, cols): (usize, usize)) -> Result<Item, ParseError> {
        let keyed = matches!(item.kind.text.as_str(), "NFA" | "Regex" | "Pair" | "PairX" | "Binary" | "BinaryX");
        let mut moved = item.clone();
        for (k, word) in moved.args.iter_mut().enumerate() {
            if keyed && k == 0 {
                continue;
            }
            let (id, rest) = match word.text.split_once('_') {
                Some((id, rest)) if item.kind.text.is_empty() => (id, Some(rest)),
                _ => (word.text.as_str(), None),
            };
            let id_word = Word { text: id.to_owned(), pos: word.pos };
            let Some(cell) = self.cell(&id_word, crate::model::MAX_SIDE).ok() else { continue };
            let (row, col) = (cell.row as isize + by.0, cell.col as isize + by.1);
            if !(0..rows as isize).contains(&row) || !(0..cols as isize).contains(&col) {
                let why = format!("{} replicated falls outside the {rows}x{cols} grid", quote(&word.text));
                return Err(self.err(word.pos, why));
            }
            let id = cell_id(Cell::new(row as usize, col as usize));
            word.text = rest.map_or(id.clone(), |rest| format!("{id}_{rest}"));
        }
        Ok(moved)
    }

    fn build(&self) -> Result<Puzzle, ParseError> {
        for item in self.items {
            match reading(&item.kind.text) {
                _ if item.kind.text.is_empty() => {}
                Some(Reading::Refused(why)) => {
                    return Err(self.err(item.kind.pos, format!("ISS constraint {} is not read: {why}", item.kind.text)))
                }
                Some(_) => {}
                None => {
                    return Err(self.err(
                        item.kind.pos,
                        format!("unknown ISS constraint type {}: expected one of ISS's types", quote(&item.kind.text)),
                    ))
                }
            }
        }
        let tree = self.tree()?;
        let (rows, cols, values, from_zero, raw) = self.side()?;
        self.shape.set(Some((rows, cols)));
        let chaos = self.items.iter().find(|i| i.kind.text == "ChaosConstruction");
        if let Some(chaos) = chaos {
            if let Some(item) = self.items.iter().find(|i| CHAOS_REGIONS.contains(&i.kind.text.as_str())) {
                let why = "with ChaosConstruction: it reads or lays out regions, and the regions are the ones found; \
                           not read yet";
                return Err(self.err(item.kind.pos, format!("ISS constraint {} {why}", item.kind.text)));
            }
            if rows != cols || values != rows {
                let why = format!(
                    "ChaosConstruction on a {rows}x{cols} grid of {values} values: read on a square grid of as many \
                     values as its side only"
                );
                return Err(self.err(chaos.kind.pos, why));
            }
        }
        let outside = !self.declared_vars()?.is_empty();
        if let (true, Some(item)) = (outside, self.items.iter().find(|i| !VAR.contains(&i.kind.text.as_str()))) {
            let why = "with cells outside the grid (Var): not read yet (it reads the whole grid, or its meaning there \
                       is not checked against ISS's)";
            return Err(self.err(item.kind.pos, format!("ISS constraint {} {why}", item.kind.text)));
        }
        if rows != cols {
            return self.finish(self.rectangle(rows, cols, values, raw)?, &tree, from_zero);
        }
        let n = rows;
        if raw {
            if let Some(item) = self.items.iter().find(|i| !RAW.contains(&i.kind.text.as_str())) {
                let why = match SUDOKU_GRID_ONLY.contains(&item.kind.text.as_str()) {
                    true => "is only valid on a Sudoku grid (ISS refuses it on a Raw grid too)",
                    false => "on a Raw grid: not read yet (its meaning there is not checked against ISS's)",
                };
                return Err(self.err(item.kind.pos, format!("ISS constraint {} {why}", item.kind.text)));
            }
        }
        let size = self.region_size(n, values)?;
        let no_boxes = self.items.iter().any(|i| i.kind.text == "NoBoxes");
        let dims = box_dims(n, size).filter(|_| !no_boxes && !raw);
        let plain = values == n && size == n;
        let mut p = match dims {
            _ if raw => Puzzle::blank(n),
            Some((h, w)) if plain => Puzzle::sudoku(h, w),
            _ => Puzzle::latin(n),
        }
        .map_err(|e| self.err(Pos { line: 1, col: 1 }, e.to_string()))?;
        if !plain {
            // More values than the side, or regions of another size: the
            // boxes (ISS's of `size` cells) are regions.
            let at = self.items.iter().find(|i| i.kind.text == "Shape").map_or(Pos { line: 1, col: 1 }, |i| i.kind.pos);
            p.set_digits(values).map_err(|e| self.err(at, e.to_string()))?;
            for cells in dims.map(|d| boxes_of(n, d)).unwrap_or_default() {
                p.add_region(cells).map_err(|e| self.err(at, e.to_string()))?;
            }
            if let Some(item) = self.items.iter().find(|i| !MORE_VALUES.contains(&i.kind.text.as_str())) {
                let why = format!(
                    "on a grid of {values} values on a side of {n}, or regions of {size} cells: not read yet (its \
                     meaning there is not checked against ISS's)"
                );
                return Err(self.err(item.kind.pos, format!("ISS constraint {} {why}", item.kind.text)));
            }
        }
        // Jigsaw pieces are the regions of a grid without boxes (region-sum
        // lines read them, as ISS's do), else extra all-different groups.
        let pieces_replace_boxes = no_boxes || dims.is_none();
        for item in self.items.iter().filter(|i| i.kind.text == "Jigsaw") {
            self.jigsaw(&mut p, item, pieces_replace_boxes, size)?;
        }
        let p = self.finish(p, &tree, from_zero)?;
        let clues = self.items.iter().filter(|i| matches!(i.kind.text.as_str(), "ChaosArrow" | "ChaosCount"));
        match chaos {
            Some(item) => {
                let mut p = p.into_chaos().map_err(|e| self.err(item.kind.pos, e.to_string()))?;
                for clue in clues {
                    self.region_runs(&mut p, clue, n)?;
                }
                for item in self.items.iter().filter(|i| on_labels(i)) {
                    self.label_rule(&mut p, item, n)?;
                }
                Ok(p)
            }
            None => match clues.into_iter().next() {
                Some(clue) => Err(self.err(
                    clue.kind.pos,
                    format!("ISS constraint {} needs ChaosConstruction (as in ISS)", clue.kind.text),
                )),
                None => Ok(p),
            },
        }
    }

    /// A rectangle's layout (`Shape~6x8`): rows, columns and ISS's boxes
    /// (`CellGeometry.boxDimsForSize` for regions as large as the longer
    /// side, `boxRegions`), unless `NoBoxes`; only the types of
    /// [`RECTANGLE`] are read there.
    fn rectangle(&self, rows: usize, cols: usize, values: usize, raw: bool) -> Result<Puzzle, ParseError> {
        let at = self.items.iter().find(|i| i.kind.text == "Shape").map_or(Pos { line: 1, col: 1 }, |i| i.kind.pos);
        if raw {
            return Err(self.err(at, format!("a {rows}x{cols} Raw grid: rectangles are read on Sudoku grids only")));
        }
        if let Some(item) = self.items.iter().find(|i| !RECTANGLE.contains(&i.kind.text.as_str())) {
            let why = "on a rectangular grid: not read yet (its meaning there is not checked against ISS's)";
            return Err(self.err(item.kind.pos, format!("ISS constraint {} {why}", item.kind.text)));
        }
        let no_boxes = self.items.iter().any(|i| i.kind.text == "NoBoxes");
        let dims = rectangle_boxes(rows, cols, rows.max(cols)).filter(|_| !no_boxes);
        let mut p = Puzzle::rectangle(rows, cols, values, dims).map_err(|e| self.err(at, e.to_string()))?;
        for item in self.items.iter().filter(|i| i.kind.text == "Jigsaw") {
            self.jigsaw(&mut p, item, no_boxes || dims.is_none(), rows.max(cols))?;
        }
        Ok(p)
    }

    /// The rest of a puzzle once its layout (rows, columns, boxes, jigsaw
    /// pieces) is built: values from 0, ISS's `RegionSameValues`, and the
    /// items.
    fn finish(&self, mut p: Puzzle, tree: &[Node], from_zero: bool) -> Result<Puzzle, ParseError> {
        self.add_vars(&mut p)?;
        if from_zero {
            p.set_values_from_zero();
            if let Some(item) = self.items.iter().find(|i| !FROM_ZERO.contains(&i.kind.text.as_str())) {
                // ISS's builder throws on these with an offset of values.
                let refused_by_iss = ["AntiTaxicab", "Entropic", "GlobalEntropy", "DutchFlatmates"];
                let why = if refused_by_iss.contains(&item.kind.text.as_str()) {
                    "on a grid whose values run from 0: ISS refuses it there too (it needs values from 1)"
                } else {
                    "on a grid whose values run from 0: not read yet (its meaning on values from 0 is not checked \
                     against ISS's)"
                };
                return Err(self.err(item.kind.pos, format!("ISS constraint {} {why}", item.kind.text)));
            }
        }
        // ISS's RegionSameValues: the largest of the rows, columns, boxes
        // and jigsaw pieces, which are all the groups so far.
        if let Some(item) = self.items.iter().find(|i| i.kind.text == "RegionSameValues") {
            let largest = p.groups().iter().map(|g| g.cells.len()).max().unwrap_or(0);
            let parts: Vec<Vec<Cell>> =
                p.groups().iter().filter(|g| g.cells.len() == largest).map(|g| g.cells.clone()).collect();
            if largest != p.digits() && parts.len() >= 2 {
                let rule = rules::by_keyword("same-values").expect("a rule of the table");
                (rule.build)(&mut p, &Args { parts, ..Args::default() }, &mut Context::new())
                    .map_err(|e| self.err(item.kind.pos, e.message))?;
            }
        }
        let mut ctx = Context::new();
        // Rules on a chaos construction's labels are read once the model
        // has them ([`Reader::label_rule`]).
        let chaos = self.items.iter().any(|i| i.kind.text == "ChaosConstruction");
        for node in tree.iter().filter(|node| !(chaos && matches!(node, Node::Item(i) if on_labels(i)))) {
            self.add_node(&mut p, &mut ctx, node)?;
        }
        let at = self.items.first().map_or(Pos { line: 1, col: 1 }, |i| i.kind.pos);
        ctx.finish(&mut p).map_err(|e| self.err(at, e.message))?;
        Ok(p)
    }

    /// The items as ISS nests them: `Or` and `And` hold the items up to
    /// their `.End`, and only the types ISS allows there.
    fn tree(&self) -> Result<Vec<Node<'_>>, ParseError> {
        // The open composites, each with its items so far; the root first.
        let mut stack: Vec<(Option<&Item>, Vec<Node>)> = vec![(None, Vec::new())];
        for item in self.items {
            let kind = item.kind.text.as_str();
            if let Some((Some(open), _)) = stack.last() {
                if kind != "End" && !COMPOSABLE.contains(&kind) {
                    let why = format!("ISS constraint {kind} is not allowed inside {} (as in ISS)", open.kind.text);
                    return Err(self.err(item.kind.pos, why));
                }
            }
            match kind {
                "Or" | "And" if stack.len() > rules::MOST_NESTED => {
                    let why = format!("Or and And nested deeper than {}: not read", rules::MOST_NESTED);
                    return Err(self.err(item.kind.pos, why));
                }
                "Or" | "And" => stack.push((Some(item), Vec::new())),
                "End" => {
                    if stack.len() == 1 {
                        return Err(self.err(item.kind.pos, "an .End with no Or or And open"));
                    }
                    let (open, children) = stack.pop().expect("an open composite");
                    let open = open.expect("not the root");
                    let node =
                        if open.kind.text == "Or" { Node::Or(open, children) } else { Node::And(open, children) };
                    stack.last_mut().expect("the root").1.push(node);
                }
                _ => stack.last_mut().expect("the root").1.push(Node::Item(item)),
            }
        }
        match stack.pop() {
            Some((None, root)) => Ok(root),
            Some((Some(open), _)) => Err(self.err(open.kind.pos, format!("this {} has no .End", open.kind.text))),
            None => unreachable!("the root is never popped"),
        }
    }

    /// Adds an item, or a composite: an `And`'s items as they are, an
    /// `Or` as one [`Constraint::AnyOf`] whose alternatives its items are
    /// (each built on a copy of the puzzle, with a context of its own).
    fn add_node(&self, p: &mut Puzzle, ctx: &mut Context, node: &Node) -> Result<(), ParseError> {
        match node {
            Node::Item(item) => self.add(p, ctx, item),
            Node::And(_, children) => children.iter().try_for_each(|child| self.add_node(p, ctx, child)),
            Node::Or(open, children) => {
                let start = p.branch();
                let mut alternatives = Vec::with_capacity(children.len());
                for child in children {
                    let mut branch = start.clone();
                    let mut own = Context::new();
                    self.add_node(&mut branch, &mut own, child)?;
                    let found =
                        rules::alternative(&start, &branch, &own, ctx).map_err(|e| self.err(child.pos(), e.message))?;
                    alternatives.extend(found);
                }
                self.constraint(p, Constraint::AnyOf { alternatives }, open.kind.pos)
            }
        }
    }

    /// The side, from the `Shape` items (9 if none), the number of values
    /// (the side unless the shape says), whether they run from 0
    /// (`9x9~0-8`), and whether the grid type is `Raw` (`9x9~~Raw`: no
    /// rows, columns or boxes).
    fn side(&self) -> Result<(usize, usize, usize, bool, bool), ParseError> {
        let mut found: Option<(usize, usize, usize, bool, bool)> = None;
        for item in self.items.iter().filter(|i| i.kind.text == "Shape") {
            let at = item.args.first().map_or(item.kind.pos, |w| w.pos);
            let spec: Vec<&str> = item.args.iter().map(|w| w.text.as_str()).collect();
            let dims = spec.first().and_then(|d| d.split_once('x'));
            let (rows, cols) = dims
                .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)))
                .ok_or_else(|| self.err(at, "expected a shape such as 9x9"))?;
            // ISS's sides are 1 to 16; the model's, up to its own limit.
            if !(1..=crate::model::MAX_SIDE).contains(&rows) || !(1..=crate::model::MAX_SIDE).contains(&cols) {
                return Err(self.err(at, format!("expected sides from 1 to {}", crate::model::MAX_SIDE)));
            }
            let long = rows.max(cols);
            // A bare count of values (`6x6~9`: 1-9), or a range from 0 or 1
            // (`9x9~0-8`, `9x9~1-9`); at least the side's, as ISS requires.
            let range = spec.get(1).copied().unwrap_or("");
            let number = |t: &str| t.parse::<usize>().ok().filter(|v| t == v.to_string());
            let read = match range.split_once('-') {
                _ if range.is_empty() => Some((long, false)),
                None => number(range).map(|v| (v, false)),
                Some((from, to)) => match (number(from), number(to)) {
                    (Some(0), Some(to)) => Some((to + 1, true)),
                    (Some(1), Some(to)) => Some((to, false)),
                    _ => None,
                },
            };
            let (values, zero) = match read {
                Some((values, zero)) if (long..=crate::model::MAX_SIDE).contains(&values) => (values, zero),
                _ => return Err(self.err(item.args[1].pos, format!("values {range} on a {rows}x{cols} grid: {RANGE}"))),
            };
            let raw = match spec.get(2).copied() {
                None | Some("Sudoku") => false,
                Some("Raw") => true,
                Some(kind) => {
                    let why = format!("grid type {kind}: expected Sudoku or Raw (ISS's grid types)");
                    return Err(self.err(item.args[2].pos, why));
                }
            };
            if spec.len() > 3 {
                return Err(self.err(item.args[3].pos, "expected at most a shape, a value range and a grid type"));
            }
            if found.is_some_and(|f| f != (rows, cols, values, zero, raw)) {
                return Err(self.err(at, "inconsistent Shape constraints"));
            }
            found = Some((rows, cols, values, zero, raw));
        }
        Ok(found.unwrap_or((9, 9, 9, false, false)))
    }

    /// The size of the boxes and jigsaw pieces: `RegionSize`'s, else the
    /// side; at most the number of values.
    fn region_size(&self, n: usize, values: usize) -> Result<usize, ParseError> {
        let mut size = None;
        for item in self.items.iter().filter(|i| i.kind.text == "RegionSize") {
            let (k, rest) = self.number_first(item)?;
            if let Some(extra) = rest.first() {
                return Err(self.err(extra.pos, "RegionSize takes one number, the cells of a region"));
            }
            if !(n as i64..=values as i64).contains(&k) {
                let why = format!("regions of {k} cells on a side of {n} with {values} values: not read");
                return Err(self.err(item.args[0].pos, why));
            }
            if size.is_some_and(|s| s != k as usize) {
                return Err(self.err(item.kind.pos, "inconsistent RegionSize constraints"));
            }
            size = Some(k as usize);
        }
        Ok(size.unwrap_or(n))
    }

    /// A jigsaw layout (`JigsawLayout`'s reading): each label's cells a
    /// piece when there are from the side's to the values' many of them,
    /// one label of another size left out (ISS: "partially filled
    /// grids"); each piece then of the region size (ISS's handler).
    fn jigsaw(&self, p: &mut Puzzle, item: &Item, no_boxes: bool, size: usize) -> Result<(), ParseError> {
        let (n, values) = (p.side(), p.digits());
        let (rows, cols) = p.shape();
        let Some(layout) = item.args.last().filter(|_| (1..=2).contains(&item.args.len())) else {
            return Err(self.err(item.kind.pos, "expected a jigsaw layout"));
        };
        let chars: Vec<char> = layout.text.chars().collect();
        if chars.len() != rows * cols {
            let why =
                format!("a jigsaw layout of a {rows}x{cols} grid has {} cells, found {}", rows * cols, chars.len());
            return Err(self.err(layout.pos, why));
        }
        let mut labels: Vec<char> = chars.clone();
        labels.sort_unstable();
        labels.dedup();
        if labels.len() == 1 {
            return Ok(()); // one region: ISS adds nothing
        }
        let mut left_out = false;
        for label in labels {
            let cells: Vec<Cell> =
                (0..rows * cols).filter(|&i| chars[i] == label).map(|i| Cell::new(i / cols, i % cols)).collect();
            if !(n..=values).contains(&cells.len()) && !left_out {
                left_out = true;
                continue;
            }
            if cells.len() != size {
                let why = format!("jigsaw region {label:?} has {} cells, not {size}", cells.len());
                return Err(self.err(layout.pos, why));
            }
            let added = if no_boxes { p.add_region(cells) } else { p.add_group(cells) };
            added.map_err(|e| self.err(layout.pos, e.to_string()))?;
        }
        Ok(())
    }

    fn cell(&self, word: &Word, n: usize) -> Result<Cell, ParseError> {
        if let Some(cell) = self.var(&word.text) {
            return Ok(cell);
        }
        // A rectangle's cells are the top-left ones of its square model.
        let (rows, cols) = self.shape.get().filter(|&(r, c)| r.max(c) == n).unwrap_or((n, n));
        let chars: Vec<char> = word.text.chars().collect();
        let coord = |c: char| c.to_digit(17).filter(|&d| d >= 1).map(|d| d as usize - 1);
        match chars[..] {
            [r, row, c, col] if matches!(r, 'R' | 'r') && matches!(c, 'C' | 'c') => match (coord(row), coord(col)) {
                (Some(row), Some(col)) if row < rows && col < cols => Ok(Cell::new(row, col)),
                (Some(_), Some(_)) => {
                    Err(self.err(word.pos, format!("cell {} is outside the {rows}x{cols} grid", quote(&word.text))))
                }
                _ => Err(self.err(word.pos, format!("expected a cell such as R1C1, found {}", quote(&word.text)))),
            },
            // ISS's cells outside the grid (`Var` groups, a doppelganger's
            // missing values): letters then a number.
            _ if word.text.trim_end_matches(|c: char| c.is_ascii_digit()).chars().all(|c| c.is_ascii_uppercase())
                && (word.text.ends_with(|c: char| c.is_ascii_digit()) || word.text.starts_with('V'))
                && word.text.starts_with(|c: char| c.is_ascii_uppercase()) =>
            {
                let why = match &word.text {
                    t if t.starts_with("CC") => CHAOS,
                    t if t.starts_with("DG") => "a doppelganger's cell outside the grid: not read yet",
                    _ => "a cell outside the grid that no Var declares",
                };
                Err(self.err(word.pos, format!("{}: {why}", quote(&word.text))))
            }
            _ => Err(self.err(word.pos, format!("expected a cell such as R1C1, found {}", quote(&word.text)))),
        }
    }

    /// The names of the cells outside the grid that the `Var` items
    /// declare, in order: `V` and the prefix for a group of one cell, and
    /// then `1`, `2` ... for more (ISS's `VarCellRegistry`). A size is `K`
    /// or `RxC` cells (none: 1); what ISS reads as 1 otherwise (any other
    /// word) is refused.
    fn declared_vars(&self) -> Result<Vec<Outside>, ParseError> {
        let (rows, cols, ..) = self.side()?;
        let mut names = Vec::new();
        let group = |names: &mut Vec<Outside>, prefix: &str, count: usize, columns: usize| {
            let group = names.last().map_or(0, |o: &Outside| o.group + 1);
            // ISS lays out a group of a count alone in rows of the grid's.
            let columns = if columns == 0 { cols } else { columns };
            names.extend((0..count).map(|index| {
                let name = if count == 1 { prefix.to_owned() } else { format!("{prefix}{}", index + 1) };
                Outside { name, group, index, columns }
            }));
        };
        let mut prefixes: Vec<&str> = Vec::new();
        for item in self.items.iter().filter(|i| i.kind.text == "Var") {
            let Some(prefix) = item.args.first() else {
                return Err(self.err(item.kind.pos, "a Var needs a prefix of capital letters"));
            };
            if prefix.text.is_empty() || !prefix.text.chars().all(|c| c.is_ascii_uppercase()) {
                let why = format!("a Var's prefix is capital letters A-Z (as in ISS), found {}", quote(&prefix.text));
                return Err(self.err(prefix.pos, why));
            }
            if prefixes.contains(&prefix.text.as_str()) {
                let why = format!("a second Var of prefix {} (ISS refuses it too)", quote(&prefix.text));
                return Err(self.err(prefix.pos, why));
            }
            prefixes.push(&prefix.text);
            let (count, columns) = match item.args.get(2).filter(|w| !w.text.is_empty()) {
                None => (1, 0),
                Some(size) => {
                    let number = |t: &str| t.parse::<usize>().ok().filter(|&k| k >= 1 && !t.starts_with('0'));
                    let shape = match size.text.split_once('x') {
                        Some((r, c)) => number(r).zip(number(c)).and_then(|(r, c)| Some((r.checked_mul(c)?, c))),
                        None => number(&size.text).map(|k| (k, 0)),
                    };
                    match shape.filter(|&(k, c)| k <= crate::model::MAX_SIDE * crate::model::MAX_SIDE && c <= 16) {
                        Some(shape) => shape,
                        None => {
                            let why = format!("expected a Var size of K or RxC cells, found {}", quote(&size.text));
                            return Err(self.err(size.pos, why));
                        }
                    }
                }
            };
            group(&mut names, &format!("V{}", prefix.text), count, columns);
        }
        // A doppelganger's cells, when a rule names one: `DGZ` (ISS's
        // hidden 0), `DGC1`.. the value each row misses, `DGR1`.. each
        // column's, `DGB1`.. each box's (as many as ISS's boxes for the
        // side, with or without `NoBoxes`): ISS's `getVarCellGroups`.
        let named = self.items.iter().flat_map(|i| &i.args).any(|w| w.text.starts_with("DG"));
        if named && self.items.iter().any(|i| i.kind.text == "Doppelganger") {
            let boxes = box_dims(rows.max(cols), rows.max(cols));
            group(&mut names, "DGZ", 1, 0);
            group(&mut names, "DGR", cols, 0);
            group(&mut names, "DGC", rows, 0);
            group(&mut names, "DGB", boxes.map_or(0, |(h, w)| h * w), boxes.map_or(0, |(_, w)| w));
        }
        Ok(names)
    }

    /// A cell outside the grid by name, once the model has it.
    fn var(&self, name: &str) -> Option<Cell> {
        self.vars.borrow().iter().find(|(o, _)| o.name == name).map(|&(_, cell)| cell)
    }

    /// Whether two cells are orthogonal neighbours as ISS's `CellGraph`
    /// sees them: in the grid, or in one group of cells outside it, laid
    /// out in its rows.
    fn touch(&self, a: Cell, b: Cell) -> bool {
        let vars = self.vars.borrow();
        let place = |c: Cell| vars.iter().find(|(_, cell)| *cell == c).map(|(o, _)| (o.group, o.index, o.columns));
        match (place(a), place(b)) {
            (None, None) => a.row.abs_diff(b.row) + a.col.abs_diff(b.col) == 1,
            (Some((g, i, w)), Some((h, j, _))) if g == h => {
                let (lo, hi) = (i.min(j), i.max(j));
                hi - lo == w || (hi - lo == 1 && hi % w != 0)
            }
            _ => false,
        }
    }

    /// Adds the cells outside the grid that the `Var` items declare
    /// ([`Puzzle::add_vars`]), to the layout `p`, and their names.
    fn add_vars(&self, p: &mut Puzzle) -> Result<(), ParseError> {
        let names = self.declared_vars()?;
        if names.is_empty() {
            return Ok(());
        }
        let at = self.items.iter().find(|i| i.kind.text == "Var").map_or(Pos { line: 1, col: 1 }, |i| i.kind.pos);
        let cells = p.add_vars(names.len()).map_err(|e| self.err(at, e.to_string()))?;
        *self.vars.borrow_mut() = names.into_iter().zip(cells).collect();
        Ok(())
    }

    /// A `ChaosArrow` or `ChaosCount` on a chaos construction's model, as
    /// the rules `chaos-arrow` and `chaos-count`: the control, the offset,
    /// and the grid cells of the CC cells (`CC1` the region cell of
    /// `R1C1`, in reading order), in arms split at `-` or, for a count,
    /// one list.
    fn region_runs(&self, p: &mut Puzzle, item: &Item, n: usize) -> Result<(), ParseError> {
        let at = item.kind.pos;
        let Some(first) = item.args.first() else {
            return Err(self.err(at, format!("{} needs a control cell", item.kind.text)));
        };
        let control = self.cell(first, n)?;
        let offset = match item.args.get(1).map(|w| w.text.as_str()) {
            None | Some("") | Some("0") => 0,
            Some("1") => 1,
            Some(_) => return Err(self.err(item.args[1].pos, "expected an offset of 0 or 1")),
        };
        // The rule reads the grid cells whose regions it means.
        let grid_cell = |word: &Word| self.region_cell(p, word, n).map(|label| Cell::new(label.row - n, label.col));
        let listed = item.args.get(2..).unwrap_or_default();
        let mut parts: Vec<Vec<Cell>> = Vec::new();
        let keyword = if item.kind.text == "ChaosArrow" { "chaos-arrow" } else { "chaos-count" };
        if !listed.is_empty() {
            parts.push(Vec::new());
        }
        for word in listed {
            match word.text.as_str() {
                "-" if keyword == "chaos-arrow" => parts.push(Vec::new()),
                _ => parts.last_mut().expect("a part").push(grid_cell(word)?),
            }
        }
        let args = Args { cells: vec![control], parts, value: Some(offset), ..Args::default() };
        self.rule(p, &mut Context::new(), keyword, args, at)
    }

    /// A region cell `CCk` of a chaos construction's model of an `n x n`
    /// grid: the label cell of the grid's `k`th cell in reading order.
    fn region_cell(&self, p: &Puzzle, word: &Word, n: usize) -> Result<Cell, ParseError> {
        let k = word.text.strip_prefix("CC").and_then(|k| k.parse::<usize>().ok()).filter(|k| (1..=n * n).contains(k));
        match k {
            Some(k) => Ok(p.label_cell(Cell::new((k - 1) / n, (k - 1) % n))),
            None => Err(self.err(
                word.pos,
                format!("expected a region cell CC1 to CC{} (as in ISS), found {}", n * n, quote(&word.text)),
            )),
        }
    }

    /// A `SameValues` on region cells (the cells in the same region, or
    /// the sets meeting the same regions as often) or a `CountDistinct`
    /// counting them (how many regions they meet), on a chaos
    /// construction's model: rules that ask only which labels are equal,
    /// so that satsudoku's labels (numbered by the regions' first cells)
    /// may stand for ISS's. A region cell with a grid cell in one such set
    /// is refused: it would compare a label with a digit.
    fn label_rule(&self, p: &mut Puzzle, item: &Item, n: usize) -> Result<(), ParseError> {
        let at = item.kind.pos;
        let mixed = |word: &Word| {
            let why = format!(
                "{} with region cells (CC) and grid cells such as {} in one set: not read",
                item.kind.text,
                quote(&word.text)
            );
            self.err(word.pos, why)
        };
        let labels = |words: &[Word]| -> Result<Vec<Cell>, ParseError> {
            words
                .iter()
                .map(|w| if w.text.starts_with("CC") { self.region_cell(p, w, n) } else { Err(mixed(w)) })
                .collect()
        };
        let mut ctx = Context::new();
        if item.kind.text == "SameValues" {
            let (sets, words) = self.number_first(item)?;
            self.same_values(p, &mut ctx, item, sets, labels(words)?)?;
        } else {
            let Some((first, rest)) = item.args.split_first().filter(|(_, rest)| !rest.is_empty()) else {
                return Err(self.err(at, "CountDistinct needs at least 2 cells"));
            };
            let control = self.cell(first, n)?;
            let mut cells = vec![control];
            cells.extend(labels(rest)?);
            self.rule(p, &mut ctx, "count-distinct", Args { cells, ..Args::default() }, at)?;
        }
        ctx.finish(p).map_err(|e| self.err(at, e.message))
    }

    /// ISS's `SameValues` on `cells` split in order into `sets` sets of one
    /// size (its `splitCells`): one cell a set, all equal.
    fn same_values(
        &self,
        p: &mut Puzzle,
        ctx: &mut Context,
        item: &Item,
        sets: i64,
        cells: Vec<Cell>,
    ) -> Result<(), ParseError> {
        let at = item.kind.pos;
        if sets < 1 || cells.is_empty() || cells.len() % sets as usize != 0 {
            let why = format!("{} cells do not split into {sets} sets of one size", cells.len());
            return Err(self.err(item.args[0].pos, why));
        }
        let size = cells.len() / sets as usize;
        if size == 1 {
            for pair in cells.windows(2) {
                self.relation(p, pair[0], pair[1], Predicate::Equal, at)?;
            }
        } else if sets >= 2 {
            let parts = cells.chunks(size).map(<[Cell]>::to_vec).collect();
            self.rule(p, ctx, "same-values", Args { parts, ..Args::default() }, at)?;
        }
        Ok(())
    }

    fn cells(&self, words: &[Word], n: usize) -> Result<Vec<Cell>, ParseError> {
        words.iter().map(|w| self.cell(w, n)).collect()
    }

    fn number(&self, word: &Word) -> Result<i64, ParseError> {
        word.text
            .parse::<i64>()
            .ok()
            .filter(|v| v.abs() < 1 << 30)
            .ok_or_else(|| self.err(word.pos, format!("expected a whole number, found {}", quote(&word.text))))
    }

    /// The first argument as a number, and the rest.
    fn number_first<'w>(&self, item: &'w Item) -> Result<(i64, &'w [Word]), ParseError> {
        let first = item.args.first().ok_or_else(|| self.err(item.kind.pos, "expected a number"))?;
        Ok((self.number(first)?, &item.args[1..]))
    }

    fn rule(&self, p: &mut Puzzle, ctx: &mut Context, keyword: &str, args: Args, at: Pos) -> Result<(), ParseError> {
        let rule = rules::by_keyword(keyword).expect("a rule of the table");
        (rule.build)(p, &args, ctx).map_err(|e| self.err(at, e.message))
    }

    fn relation(&self, p: &mut Puzzle, a: Cell, b: Cell, predicate: Predicate, at: Pos) -> Result<(), ParseError> {
        p.add_relation(a, b, predicate).map_err(|e| self.err(at, e.to_string()))
    }

    fn constraint(&self, p: &mut Puzzle, constraint: Constraint, at: Pos) -> Result<(), ParseError> {
        p.add_constraint(constraint).map_err(|e| self.err(at, e.to_string()))
    }

    fn add(&self, p: &mut Puzzle, ctx: &mut Context, item: &Item) -> Result<(), ParseError> {
        let n = p.grid_side();
        let at = item.kind.pos;
        let kind = item.kind.text.as_str();
        let line = |words: &[Word]| self.cells(words, n);
        let args = |cells: Vec<Cell>, value: Option<i64>| Args { cells, value, ..Args::default() };
        match kind {
            "" => {
                for word in &item.args {
                    self.given(p, word)?;
                }
            }
            // Chaos clues name the region cells: read once the model has
            // them (`Reader::region_runs`).
            "Shape" | "NoBoxes" | "Jigsaw" | "RegionSize" | "RegionSameValues" | "SearchPriority"
            | "ChaosConstruction" | "ChaosArrow" | "ChaosCount" | "Var" => {}
            "Thermo" | "Renban" | "Palindrome" | "Zipper" | "Between" | "RegionSumLine" | "DoubleArrow"
            | "Entropic" => {
                let cells = line(&item.args)?;
                let (keyword, fewest) = match kind {
                    "Thermo" => ("thermo", 2),
                    "Renban" => ("renban", 2),
                    "Palindrome" => ("palindrome", 2),
                    "Zipper" => ("zipper", 2),
                    "Between" => ("between", 3),
                    "RegionSumLine" => ("region-sum", 2),
                    "DoubleArrow" => ("double-arrow", 3),
                    _ => ("entropic", 2),
                };
                if kind == "Entropic" && n != 9 {
                    return Err(self.err(at, "ISS's entropic lines need 9 values (1-9)"));
                }
                if kind == "DoubleArrow" && cells.len() < 3 {
                    return Err(self.err(at, "a double arrow needs two circles and a line between them"));
                }
                if cells.len() >= fewest {
                    self.rule(p, ctx, keyword, args(cells, None), at)?;
                }
            }
            "Whisper" => {
                let (difference, words) = match item.args.first() {
                    Some(w) if w.text.parse::<f64>().is_ok() => (self.number(w)?, &item.args[1..]),
                    _ => (5, &item.args[..]),
                };
                let cells = line(words)?;
                if difference >= 1 {
                    self.rule(p, ctx, "whisper", args(cells, Some(difference)), at)?;
                }
            }
            "Modular" => {
                let (m, words) = self.number_first(item)?;
                if m < 1 {
                    return Err(self.err(item.args[0].pos, format!("Modular needs a modulus from 1, found {m}")));
                }
                let cells = line(words)?;
                let residues = Predicate::ResidueDiffers { modulus: m as u32 };
                rules::every_nth(p, &cells, m as usize, residues).map_err(|e| self.err(at, e.message))?;
            }
            "Lockout" => {
                let (min, words) = self.number_first(item)?;
                let cells = line(words)?;
                if cells.len() < 2 {
                    return Err(self.err(at, "a lockout line needs two ends"));
                }
                let ends = (cells[0], cells[cells.len() - 1]);
                let min = min.max(1) as u32;
                self.relation(p, ends.0, ends.1, Predicate::DifferenceAtLeast { min }, at)?;
                let inner = cells[1..cells.len() - 1].to_vec();
                if !inner.is_empty() {
                    self.constraint(p, Constraint::Outside { ends, inner }, at)?;
                }
            }
            "Arrow" => {
                let cells = line(&item.args)?;
                if cells.len() < 2 {
                    return Err(self.err(at, "an arrow needs a circle and a line"));
                }
                self.rule(
                    p,
                    ctx,
                    "arrow",
                    Args { cells: vec![cells[0]], second: cells[1..].to_vec(), ..Args::default() },
                    at,
                )?;
            }
            "PillArrow" => {
                let (size, words) = self.number_first(item)?;
                if !(2..=3).contains(&size) {
                    return Err(self.err(item.args[0].pos, "a pill has 2 or 3 cells"));
                }
                let cells = line(words)?;
                let size = size as usize;
                if cells.len() <= size {
                    return Err(self.err(at, "a pill arrow needs more cells than its pill"));
                }
                if n > 9 {
                    return Err(self.err(at, "a pill arrow on a grid whose digits pass 9: not read"));
                }
                let mut pill = cells[..size].to_vec();
                pill.sort();
                let readable = pill.windows(2).all(|w| {
                    let (a, b) = (w[0], w[1]);
                    (b.row == a.row && b.col == a.col + 1)
                        || (b.col == a.col && b.row == a.row + 1)
                        || (b.row == a.row + 1 && b.col == a.col + 1)
                });
                if !readable {
                    return Err(self.err(at, "pill cells must be adjacent and in reading order when sorted"));
                }
                let second = cells[size..].to_vec();
                if p.first_value() == 0 {
                    // ISS's builder: a sum of values, the pill's read as a
                    // number (`Sum(cells, 0, coeffs)`, its cells -10^k),
                    // the arrow's each once; over digits, each coefficient
                    // once more in the target.
                    let weights = (0..size).map(|i| -(10i32.pow((size - 1 - i) as u32)));
                    let terms: Vec<(Cell, i32)> =
                        pill.iter().copied().zip(weights).chain(second.iter().map(|&c| (c, 1))).collect();
                    let target = terms.iter().map(|t| t.1).sum();
                    let terms = merged_terms(terms.into_iter());
                    self.constraint(p, Constraint::Sum { terms, target }, at)?;
                    return Ok(());
                }
                self.rule(p, ctx, "arrow", Args { cells: pill, second, ..Args::default() }, at)?;
            }
            "Cage" => {
                let sum = match item.args.first() {
                    Some(w) if w.text.trim().is_empty() => 0,
                    Some(w) => self.number(w)?,
                    None => return Err(self.err(at, "expected a sum and cells")),
                };
                let cells = line(&item.args[1..])?;
                if sum != 0 {
                    // Values sum to `sum`: digits to `sum` and the shift a
                    // cell. A cell listed twice counts twice, as in ISS's
                    // sum handler (`Sum`'s constructor adds the
                    // coefficients of a repeated cell).
                    let target = sum + p.digit_shift() * cells.len() as i64;
                    let terms = merged_terms(cells.iter().map(|&c| (c, 1)));
                    self.constraint(p, Constraint::Sum { terms, target: target as i32 }, at)?;
                }
                // ISS's all-different handler drops repeated cells.
                let cells: Vec<Cell> = cells.into_iter().unique().collect();
                p.add_cage(cells).map_err(|e| self.err(at, e.to_string()))?;
            }
            "Sum" => {
                let first = item.args.first().ok_or_else(|| self.err(at, "expected a sum and cells"))?;
                let parts: Vec<&str> = first.text.split('_').collect();
                let bad =
                    || self.err(first.pos, format!("expected a sum, or S_=_c1_c2... , found {}", quote(&first.text)));
                let target: i64 = parts[0].parse().map_err(|_| bad())?;
                let cells = line(&item.args[1..])?;
                let coefficients: Vec<i64> = match parts[..] {
                    [_] => vec![1; cells.len()],
                    [_, "=", ref rest @ ..] => {
                        rest.iter().map(|c| c.parse().map_err(|_| bad())).collect::<Result<_, _>>()?
                    }
                    _ => return Err(bad()),
                };
                if coefficients.len() != cells.len() || coefficients.iter().any(|c| c.abs() > 100) {
                    return Err(self.err(first.pos, "expected one coefficient from -100 to 100 per cell"));
                }
                if target.abs() >= 1 << 30 {
                    return Err(bad());
                }
                let list = coefficients.iter().map(i64::to_string).collect();
                self.rule(p, ctx, "sum-of", Args { cells, list, value: Some(target), ..Args::default() }, at)?;
            }
            "LittleKiller" => {
                let (sum, words) = self.number_first(item)?;
                let id = words.first().ok_or_else(|| self.err(at, "expected a sum and a cell"))?;
                let start = self.cell(id, n)?;
                let cells = little_killer(n, start)
                    .ok_or_else(|| self.err(id.pos, format!("no little killer diagonal starts at {}", id.text)))?;
                self.rule(p, ctx, "little-killer", args(cells, Some(sum)), at)?;
            }
            "FullRankTies" => {
                let list = item.args.iter().map(|w| w.text.clone()).collect();
                self.rule(p, ctx, "full-rank-ties", Args { list, ..Args::default() }, at)?;
            }
            "XSum" | "Skyscraper" | "FullRank" => {
                let keyword = match kind {
                    "XSum" => "xsum",
                    "Skyscraper" => "skyscraper",
                    _ => "full-rank",
                };
                let id = item.args.first().ok_or_else(|| self.err(at, "expected a row or column such as R1"))?;
                for (k, reverse) in [(1, false), (2, true)] {
                    let Some(word) = item.args.get(k).filter(|w| !w.text.is_empty()) else { continue };
                    let value = self.number(word)?;
                    if value == 0 {
                        return Err(self.err(word.pos, "a clue of 0: ISS refuses it"));
                    }
                    let cells = self.full_line(id, p.shape(), reverse)?;
                    if kind == "XSum" && p.first_value() == 0 {
                        let alternatives = xsum_from_zero(&cells, value, p.digits());
                        self.constraint(p, Constraint::AnyOf { alternatives }, word.pos)?;
                        continue;
                    }
                    self.rule(p, ctx, keyword, args(cells, Some(value)), word.pos)?;
                }
            }
            "SumLine" => {
                let (sum, words) = self.number_first(item)?;
                let (keyword, words) = match words.split_last() {
                    Some((word, rest)) if word.text == "LOOP" => ("sum-loop", rest),
                    _ => ("sum-line", words),
                };
                let cells = line(words)?;
                self.rule(p, ctx, keyword, args(cells, Some(sum)), at)?;
            }
            "ValueIndexing" | "CountDistinct" => {
                let cells = line(&item.args)?;
                let (keyword, least) = if kind == "ValueIndexing" { ("value-index", 3) } else { ("count-distinct", 2) };
                if cells.len() < least {
                    return Err(self.err(at, format!("{kind} needs at least {least} cells")));
                }
                if kind == "ValueIndexing" && p.first_value() == 0 {
                    let alternatives = value_index_from_zero(cells[0], cells[1], &cells[2..], p.digits());
                    self.constraint(p, Constraint::AnyOf { alternatives }, at)?;
                    return Ok(());
                }
                self.rule(p, ctx, keyword, args(cells, None), at)?;
            }
            "NFA" => {
                let token = item.args.first().ok_or_else(|| self.err(at, "expected a machine, then cells"))?;
                // Decoded here too, to place its errors at the token.
                crate::model::nfa::Nfa::decode(&token.text)
                    .map_err(|e| self.err(token.pos, format!("the state machine: {e}")))?;
                // ISS's named groups: `_name` starts one, an empty item ends
                // one; each is the machine over its own cells, `-` between
                // segments.
                let mut groups: Vec<(String, Vec<Vec<Cell>>)> = Vec::new();
                let mut name = String::new();
                let mut open: Vec<Vec<Cell>> = vec![Vec::new()];
                let mut flush = |name: &str, open: &mut Vec<Vec<Cell>>| {
                    let segments = std::mem::replace(open, vec![Vec::new()]);
                    if segments.iter().any(|s| !s.is_empty()) {
                        groups.push((name.to_owned(), segments));
                    }
                };
                for word in &item.args[1..] {
                    if word.text.is_empty() {
                        flush(&name, &mut open);
                    } else if let Some(label) = word.text.strip_prefix('_') {
                        flush(&name, &mut open);
                        name = label.to_owned();
                    } else if word.text == "-" {
                        open.push(Vec::new());
                    } else {
                        let cell = self.cell(word, n)?;
                        open.last_mut().expect("a segment").push(cell);
                    }
                }
                flush(&name, &mut open);
                for (name, segments) in groups {
                    let list = vec![token.text.clone(), name];
                    self.rule(p, ctx, "state-machine", Args { list, parts: segments, ..Args::default() }, at)?;
                }
            }
            "Lunchbox" => {
                let (sum, words) = self.number_first(item)?;
                let cells = line(words)?;
                self.rule(p, ctx, "lunchbox", args(cells, Some(sum)), at)?;
            }
            "RellikCage" => {
                let (sum, words) = self.number_first(item)?;
                let cells = line(words)?;
                self.rule(p, ctx, "rellik", args(cells, Some(sum)), at)?;
            }
            "EqualityCage" => {
                let cells = line(&item.args)?;
                self.rule(p, ctx, "equality-cage", args(cells, None), at)?;
            }
            "ContainExact" | "LookAndSay" => {
                let first = item.args.first().ok_or_else(|| self.err(at, "expected values and cells"))?;
                let mut counts: Vec<(Digit, u8)> = Vec::new();
                if kind == "ContainExact" {
                    let words: Vec<Word> =
                        first.text.split('_').map(|t| Word { text: t.to_owned(), pos: first.pos }).collect();
                    let mut digits = self.values(&words, p)?;
                    digits.sort_unstable();
                    for (t, &d) in itertools::Itertools::dedup_with_count(digits.iter()) {
                        counts.push((d, u8::try_from(t).map_err(|_| self.err(first.pos, "too many values"))?));
                    }
                } else {
                    let clue = first.text.as_bytes();
                    if clue.is_empty() || clue.len() % 2 == 1 || !clue.iter().all(u8::is_ascii_digit) {
                        return Err(self.err(first.pos, "expected (count, value) digit pairs, as ISS writes them"));
                    }
                    for pair in clue.chunks(2) {
                        let (t, v) = (pair[0] - b'0', pair[1] - b'0');
                        let first_value = p.first_value();
                        let last = usize::from(first_value) + n - 1;
                        if v < first_value || usize::from(v) > last {
                            return Err(self.err(first.pos, format!("value {v} is outside {first_value}..{last}")));
                        }
                        let d = v + 1 - first_value;
                        if counts.iter().any(|&(e, u)| e == d && (u > 0 || t > 0)) {
                            return Err(self.err(first.pos, format!("the clue has two pairs for value {v}")));
                        }
                        counts.retain(|&(e, _)| e != d);
                        counts.push((d, t));
                    }
                    counts.sort_unstable();
                }
                let cells = line(&item.args[1..])?;
                let listed: usize = counts.iter().map(|&(_, t)| usize::from(t)).sum();
                if listed > cells.len() {
                    return Err(self.err(at, format!("{listed} values do not fit in {} cells", cells.len())));
                }
                self.constraint(p, Constraint::Exactly { cells, counts }, at)?;
            }
            "CountingCircles" => {
                let cells = line(&item.args)?;
                self.rule(p, ctx, "counting-circles", args(cells, None), at)?;
            }
            "DutchFlatmates" => self.rule(p, ctx, "dutch-flatmates", Args::default(), at)?,
            "EqualSum" => {
                let mut parts: Vec<Vec<Cell>> = vec![Vec::new()];
                for word in &item.args {
                    if word.text == "-" {
                        parts.push(Vec::new());
                    } else {
                        let cell = self.cell(word, n)?;
                        parts.last_mut().expect("a part").push(cell);
                    }
                }
                if parts.iter().any(Vec::is_empty) {
                    return Err(self.err(at, "an EqualSum segment with no cells"));
                }
                self.rule(p, ctx, "equal-sums", Args { parts, ..Args::default() }, at)?;
            }
            "NumberedRoom" | "HiddenSkyscraper" => {
                let (keyword, noun) = if kind == "NumberedRoom" {
                    ("numbered-room", "numbered room")
                } else {
                    ("hidden-skyscraper", "hidden skyscraper")
                };
                let id = item.args.first().ok_or_else(|| self.err(at, "expected a row or column such as R1"))?;
                for (k, reverse) in [(1, false), (2, true)] {
                    let Some(word) = item.args.get(k).filter(|w| !w.text.is_empty()) else { continue };
                    let value = self.number(word)?;
                    if value == 0 && p.first_value() != 0 {
                        let why = "no value is 0 on a grid of values 1..N";
                        return Err(self.err(word.pos, format!("a {noun} clue of 0: {why}")));
                    }
                    let cells = self.full_line(id, p.shape(), reverse)?;
                    if kind == "NumberedRoom" && p.first_value() == 0 {
                        // The room's value, as the digit one more.
                        let value = usize::try_from(value + 1).unwrap_or(usize::MAX);
                        let alternatives = index_from_zero(cells[0], &cells, value, p.digits());
                        self.constraint(p, Constraint::AnyOf { alternatives }, word.pos)?;
                        continue;
                    }
                    self.rule(p, ctx, keyword, args(cells, Some(value)), word.pos)?;
                }
            }
            "AntiTaxicab" => self.rule(p, ctx, "antitaxicab", Args::default(), at)?,
            "ConnectedValues" => {
                // ISS: `ConnectedValues~GROUP~VALUES[~SIZE]`, the group
                // empty for the grid, the values joined by `_`.
                let (Some(group), Some(listed), None) = (item.args.first(), item.args.get(1), item.args.get(3)) else {
                    let why = "ConnectedValues takes a cell group (empty: the grid), the values and a size if any";
                    return Err(self.err(at, why));
                };
                if !group.text.is_empty() {
                    let why = format!(
                        "ConnectedValues over the cell group {}: cells outside the grid (ISS's Var) are not in \
                         satsudoku's model yet",
                        quote(&group.text)
                    );
                    return Err(self.err(group.pos, why));
                }
                let words: Vec<Word> =
                    listed.text.split(['_', ',']).map(|t| Word { text: t.to_owned(), pos: listed.pos }).collect();
                let digits = self.values(&words, p)?.iter().fold(0u64, |m, &d| m | 1 << (d - 1));
                let size = match item.args.get(2).filter(|w| !w.text.is_empty()) {
                    None => None,
                    Some(w) => match self.number(w)? {
                        s if s >= 1 => Some(s as usize),
                        s => return Err(self.err(w.pos, format!("a region size from 1, found {s}"))),
                    },
                };
                self.constraint(p, Constraint::ConnectedValues { side: n, digits, size }, at)?;
            }
            "Doppelganger" => {
                if p.first_value() != 0 || p.digits() != n + 1 || self.region_size(n, n + 1)? != n {
                    let why = "Doppelganger needs values 0-N on an N x N grid (9x9~0-9), regions of N cells";
                    return Err(self.err(at, why));
                }
                let kind = |k: crate::model::GroupKind| -> Vec<Vec<Cell>> {
                    p.groups().iter().filter(|g| g.kind == k && g.cells.len() == n).map(|g| g.cells.clone()).collect()
                };
                use crate::model::GroupKind as G;
                // The boxes are regions here (more values than the side);
                // jigsaw pieces, which replace them, are none of ISS's.
                let boxes = box_dims(n, n).is_some() && !self.items.iter().any(|i| i.kind.text == "NoBoxes");
                let mut regions = vec![kind(G::Row), kind(G::Column)];
                if boxes {
                    regions.push(kind(G::Region));
                }
                // The cells outside the grid that a rule names: each the
                // value its row, column or box misses (all different from
                // its cells, as many as the values), and `DGZ` 0, as are
                // the box cells of a grid without boxes (ISS's handlers).
                if let Some(zero) = self.var("DGZ") {
                    let mut fixed = vec![zero];
                    for (prefix, lines) in ["DGC", "DGR", "DGB"].iter().zip(&regions) {
                        for (k, line) in lines.iter().enumerate() {
                            let cell = self.var(&format!("{prefix}{}", k + 1)).expect("declared");
                            let group = line.iter().copied().chain([cell]).collect();
                            p.add_group(group).map_err(|e| self.err(at, e.to_string()))?;
                        }
                    }
                    if !boxes {
                        fixed.extend((1..=n).filter_map(|k| self.var(&format!("DGB{k}"))));
                    }
                    for cell in fixed {
                        p.set_given(cell, 1).map_err(|e| self.err(at, e.to_string()))?;
                    }
                }
                self.constraint(p, Constraint::Doppelganger { regions }, at)?;
            }
            "GlobalEntropy" | "GlobalMod" => {
                if p.digits() != 9 {
                    return Err(self.err(at, format!("ISS's {kind} is defined for 9 digits, not {}", p.digits())));
                }
                let keyword = if kind == "GlobalEntropy" { "global-entropy" } else { "global-modular" };
                self.rule(p, ctx, keyword, Args::default(), at)?;
            }
            "Sandwich" => {
                let (sum, words) = self.number_first(item)?;
                let id = words.first().ok_or_else(|| self.err(at, "expected a sum and a row or column"))?;
                let cells = self.full_line(id, p.shape(), false)?;
                if p.first_value() == 0 {
                    // ISS's sandwich is its lunchbox handler on the line,
                    // which sums values: between the 0 and the largest,
                    // a sum that digits cannot say with one number.
                    let sum = u32::try_from(sum).map_err(|_| self.err(at, "expected a sum from 0"))?;
                    let rule = crate::model::LineRule::Lunchbox { sum, first: 0 };
                    self.constraint(p, Constraint::Along { rule, cells }, at)?;
                } else {
                    self.rule(p, ctx, "sandwich", args(cells, Some(sum)), at)?;
                }
            }
            "WhiteDot" | "BlackDot" | "X" | "V" | "GreaterThan" => {
                let cells = line(&item.args)?;
                let pairs = adjacent_pairs(&cells, |a, b| self.touch(a, b));
                if pairs.is_empty() {
                    return Err(self.err(at, format!("{kind} enforces nothing: no two of its cells are neighbours")));
                }
                let (keyword, value) = match kind {
                    "WhiteDot" => ("white", Some(1)),
                    "BlackDot" => ("black", Some(2)),
                    "X" => ("x", None),
                    "V" => ("v", None),
                    _ => ("greater", None),
                };
                for (a, b) in pairs {
                    self.rule(p, ctx, keyword, args(vec![a, b], value), at)?;
                }
            }
            "AntiKnight" => self.rule(p, ctx, "antiknight", Args::default(), at)?,
            "AntiKing" => self.rule(p, ctx, "antiking", Args::default(), at)?,
            "DisjointSets" => {
                if p.boxes().is_some() {
                    self.rule(p, ctx, "disjoint", Args::default(), at)?;
                } else if p.digits() != n {
                    // The boxes are regions here: the cells at each
                    // position of them (ISS's `disjointSetRegions`).
                    let boxes: Vec<Vec<Cell>> = p
                        .groups()
                        .iter()
                        .filter(|g| g.kind == crate::model::GroupKind::Region)
                        .map(|g| g.cells.clone())
                        .collect();
                    let size = boxes.first().map_or(0, Vec::len);
                    let no_boxes = self.items.iter().any(|i| i.kind.text == "NoBoxes");
                    if !no_boxes && box_dims(n, size).is_some() {
                        for k in 0..size {
                            let cells = boxes.iter().map(|b| b[k]).collect();
                            p.add_group(cells).map_err(|e| self.err(at, e.to_string()))?;
                        }
                    }
                }
            }
            "AntiConsecutive" => {
                for (a, b) in rules::orthogonal_pairs(n) {
                    self.relation(p, a, b, Predicate::DifferenceNot { diff: 1 }, at)?;
                }
            }
            "Diagonal" => match item.args.first().map(|w| w.text.as_str()) {
                Some("1") => self.rule(p, ctx, "diagonal+", Args::default(), at)?,
                Some("-1") => self.rule(p, ctx, "diagonal-", Args::default(), at)?,
                _ => return Err(self.err(at, "expected Diagonal~1 or Diagonal~-1")),
            },
            "Windoku" => {
                for cells in windows(n) {
                    p.add_group(cells).map_err(|e| self.err(at, e.to_string()))?;
                }
            }
            "AllDifferent" => {
                let cells = line(&item.args)?;
                p.add_group(cells).map_err(|e| self.err(at, e.to_string()))?;
            }
            "Quad" => {
                let corner = item.args.first().ok_or_else(|| self.err(at, "expected a cell and values"))?;
                let top_left = self.cell(corner, n)?;
                if top_left.row + 1 >= n || top_left.col + 1 >= n {
                    return Err(self.err(corner.pos, "a quad's 2x2 square leaves the grid"));
                }
                let (r, c) = (top_left.row, top_left.col);
                let cells = vec![top_left, Cell::new(r, c + 1), Cell::new(r + 1, c), Cell::new(r + 1, c + 1)];
                let digits = self.values(&item.args[1..], p)?;
                self.constraint(p, Constraint::Contains { cells, digits }, at)?;
            }
            "ContainAtLeast" => {
                let first = item.args.first().ok_or_else(|| self.err(at, "expected values and cells"))?;
                let words: Vec<Word> =
                    first.text.split('_').map(|t| Word { text: t.to_owned(), pos: first.pos }).collect();
                let digits = self.values(&words, p)?;
                let cells = line(&item.args[1..])?;
                self.constraint(p, Constraint::Contains { cells, digits }, at)?;
            }
            "SameValues" => {
                let (sets, words) = self.number_first(item)?;
                self.same_values(p, ctx, item, sets, line(words)?)?;
            }
            "Indexing" => {
                let keyword = match item.args.first().map(|w| w.text.as_str()) {
                    Some("C") => "column-index",
                    Some("R") => "row-index",
                    _ => return Err(self.err(at, "expected Indexing~C or Indexing~R")),
                };
                let cells = line(&item.args[1..])?;
                if p.first_value() == 0 {
                    // ISS's builder: a column index names the control's
                    // row, cell by cell, with the value of its column
                    // number (1 to N whatever the values' offset).
                    let (rows, cols) = p.shape();
                    for &control in &cells {
                        let (line, number): (Vec<Cell>, usize) = match keyword {
                            "column-index" => ((0..cols).map(|c| Cell::new(control.row, c)).collect(), control.col + 1),
                            _ => ((0..rows).map(|r| Cell::new(r, control.col)).collect(), control.row + 1),
                        };
                        let alternatives = index_from_zero(control, &line, number + 1, p.digits());
                        self.constraint(p, Constraint::AnyOf { alternatives }, at)?;
                    }
                    return Ok(());
                }
                self.rule(p, ctx, keyword, args(cells, None), at)?;
            }
            // ISS bans a difference of 1 and a ratio of 2 on every pair
            // without a dot (`StrictKropki.fnKey`), white dots on the board
            // or not: `nonconsecutive`, where `negative white` would ban
            // only the differences the white dots show (none without one).
            "StrictKropki" => {
                let list = vec!["black".to_string()];
                self.rule(p, ctx, "negative", Args { list, ..Args::default() }, at)?;
                self.rule(p, ctx, "nonconsecutive", Args::default(), at)?;
            }
            "StrictXV" => {
                let list = vec!["x".to_string(), "v".to_string()];
                self.rule(p, ctx, "negative", Args { list, ..Args::default() }, at)?;
            }
            "Regex" => {
                let token = item.args.first().ok_or_else(|| self.err(at, "expected a pattern and cells"))?;
                let pattern = regex_pattern(&token.text)
                    .ok_or_else(|| self.err(token.pos, "expected a pattern in base64url, as ISS writes it"))?;
                let mut pattern: String = pattern.chars().filter(|c| !c.is_whitespace()).collect();
                if p.digit_shift() != 0 {
                    pattern = crate::model::regex::shift_symbols(&pattern, 0, p.digits(), 1)
                        .map_err(|e| self.err(token.pos, format!("the pattern {}: {e}", quote(&pattern))))?;
                }
                // Lines: an empty item ends one.
                let parts = item.args[1..]
                    .split(|w| w.text.is_empty())
                    .map(line)
                    .filter(|cells| !cells.as_ref().is_ok_and(Vec::is_empty))
                    .collect::<Result<Vec<_>, _>>()?;
                self.rule(p, ctx, "regex", Args { list: vec![pattern], parts, ..Args::default() }, token.pos)?;
            }
            "Pair" | "PairX" | "Binary" | "BinaryX" => {
                let key = item.args.first().ok_or_else(|| self.err(at, "expected a key and cells"))?;
                let legacy = kind.starts_with("Binary");
                let allowed = pair_table(&key.text, p.digits(), legacy).ok_or_else(|| {
                    self.err(key.pos, format!("expected a pair key in base64url, found {}", quote(&key.text)))
                })?;
                // Groups: a `_name` starts one, an empty item ends one.
                let mut groups: Vec<Vec<Cell>> = vec![Vec::new()];
                for word in &item.args[1..] {
                    if word.text.is_empty() || word.text.starts_with('_') {
                        groups.push(Vec::new());
                    } else {
                        let cell = self.cell(word, n)?;
                        groups.last_mut().expect("a group").push(cell);
                    }
                }
                rules::table_pairs(p, &allowed, &groups, kind.ends_with('X'))
                    .map_err(|e| self.err(at, format!("{kind}: {}", e.message)))?;
            }
            other => return Err(self.err(at, format!("ISS constraint {other} is not read"))),
        }
        Ok(())
    }

    /// Values, one a word (`1..=n`, or `0..n` on a grid whose values run
    /// from 0), as the digits that stand for them.
    fn values(&self, words: &[Word], p: &Puzzle) -> Result<Vec<Digit>, ParseError> {
        let first = usize::from(p.first_value());
        let last = first + p.digits() - 1;
        words
            .iter()
            .map(|w| match w.text.parse::<usize>() {
                Ok(v) if (first..=last).contains(&v) && w.text == v.to_string() => Ok((v + 1 - first) as Digit),
                _ => Err(self.err(w.pos, format!("expected a value from {first} to {last}, found {}", quote(&w.text)))),
            })
            .collect()
    }

    /// A given: `R1C1_5`, or candidates `R1C1_1_2`.
    fn given(&self, p: &mut Puzzle, word: &Word) -> Result<(), ParseError> {
        let n = p.grid_side();
        let mut parts = word.text.split('_');
        let id = Word { text: parts.next().unwrap_or("").to_owned(), pos: word.pos };
        let cell = self.cell(&id, n)?;
        let values: Vec<Word> = parts.map(|t| Word { text: t.to_owned(), pos: word.pos }).collect();
        let digits = self.values(&values, p)?;
        match digits[..] {
            [d] if p.given(cell).is_none() => p.set_given(cell, d).map_err(|e| self.err(word.pos, e.to_string())),
            _ => {
                let allowed = digits.iter().fold(0u64, |m, &d| m | 1 << (d - 1));
                self.constraint(p, Constraint::Digits { cell, allowed }, word.pos)
            }
        }
    }

    /// A row or column (`R3`, `C4`) from its start, or from its end.
    fn full_line(&self, id: &Word, (rows, cols): (usize, usize), reverse: bool) -> Result<Vec<Cell>, ParseError> {
        let mut chars = id.text.chars();
        let kind = chars.next();
        let index: Option<usize> = chars.as_str().parse().ok();
        let mut cells: Vec<Cell> = match (kind, index) {
            (Some('R'), Some(r)) if (1..=rows).contains(&r) => (0..cols).map(|c| Cell::new(r - 1, c)).collect(),
            (Some('C'), Some(c)) if (1..=cols).contains(&c) => (0..rows).map(|r| Cell::new(r, c - 1)).collect(),
            _ => {
                return Err(
                    self.err(id.pos, format!("expected a row or column such as R1 or C1, found {}", quote(&id.text)))
                )
            }
        };
        if reverse {
            cells.reverse();
        }
        Ok(cells)
    }
}

/// The characters of ISS's keys (base64url, RFC 4648 section 5).
const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The allowed pairs an ISS pair key stands for (`fnToBinaryKey`): bit
/// `(i-1)*n + (j-1)` of the key, six a character, least significant first,
/// says whether `(i, j)` may stand; `legacy` keys (`Binary`) swap `-` and
/// `_`. `None` for a character outside base64url or a key too long.
pub fn pair_table(key: &str, n: usize, legacy: bool) -> Option<Vec<u64>> {
    let mut bits = Vec::new();
    for c in key.chars() {
        let c = match (legacy, c) {
            (true, '-') => '_',
            (true, '_') => '-',
            _ => c,
        };
        let value = BASE64.iter().position(|&b| char::from(b) == c)?;
        bits.extend((0..6).map(|k| value >> k & 1 == 1));
    }
    if bits.len() > 6 * (n * n).div_ceil(6) + 6 || n > 64 {
        return None;
    }
    let mut allowed = vec![0u64; n];
    for (k, _) in bits.iter().enumerate().filter(|(k, &b)| b && *k < n * n) {
        allowed[k / n] |= 1 << (k % n);
    }
    Some(allowed)
}

/// A given, as an alternative's constraint: `cell` holds `digit`.
fn given(cell: Cell, digit: usize) -> Constraint {
    Constraint::Digits { cell, allowed: 1 << (digit - 1) }
}

/// An alternative of the given digits, unless two name one cell apart.
fn givens(pairs: &[(Cell, usize)]) -> Option<Alternative> {
    let clash = pairs.iter().tuple_combinations().any(|(a, b)| a.0 == b.0 && a.1 != b.1);
    let constraints = pairs.iter().unique().map(|&(cell, digit)| given(cell, digit)).collect();
    (!clash).then_some(Alternative { constraints, ..Alternative::default() })
}

/// ISS's `Indexing` and `NumberedRoom` on a grid of values from 0, as its
/// handler reads them there (`Indexing.initialize`: the control's values
/// run 1 to the line's length, whatever the offset): one alternative per
/// value `k` of the control, which puts `value` (a digit: the value one
/// more) in the line's `k`-th cell. Digit `k + 1` stands for value `k`;
/// a value past the digits, or a `value` past them, leaves no alternative.
fn index_from_zero(control: Cell, line: &[Cell], value: usize, digits: usize) -> Vec<Alternative> {
    let picks = (1..=line.len()).filter(|&k| k < digits && value <= digits);
    picks.filter_map(|k| givens(&[(control, k + 1), (line[k - 1], value)])).collect()
}

/// ISS's `ValueIndexing` on a grid of values from 0 (its handler's
/// control values run 1 to the line's length there too): one alternative
/// per value `k` of the control, whose line's `k`-th cell holds the value
/// cell's value.
fn value_index_from_zero(value: Cell, control: Cell, line: &[Cell], digits: usize) -> Vec<Alternative> {
    let picks = (1..=line.len()).filter(|&k| k < digits);
    picks
        .filter_map(|k| {
            let at = line[k - 1];
            let mut pairs = vec![(control, k + 1)];
            // `at` and `value` hold one digit.
            if at != value {
                if at == control || value == control {
                    pairs.push((if at == control { value } else { at }, k + 1));
                } else {
                    let mut alternative = givens(&pairs)?;
                    alternative.relations.push(Relation { a: at, b: value, predicate: Predicate::Equal });
                    return Some(alternative);
                }
            }
            givens(&pairs)
        })
        .collect()
}

/// ISS's `XSum` on a grid of values from 0, as its builder makes it (one
/// branch of an `Or` per value `i` from 2 of the first cell: that value
/// there, and the next `i - 1` cells' values summing to `sum - i`; a sum
/// of 1 is the first cell's value 1 alone, and a 0 there is no branch).
/// Each branch's sum is of digits, each its value and 1.
fn xsum_from_zero(cells: &[Cell], sum: i64, digits: usize) -> Vec<Alternative> {
    let control = cells[0];
    if sum == 1 {
        return givens(&[(control, 2)]).into_iter().collect();
    }
    let lengths = (2..=cells.len()).take_while(|&i| sum - i as i64 >= 0).filter(|&i| i < digits);
    lengths
        .filter_map(|i| {
            let mut alternative = givens(&[(control, i + 1)])?;
            let terms = cells[1..i].iter().map(|&c| (c, 1)).collect();
            let target = (sum - i as i64 + (i as i64 - 1)) as i32;
            alternative.constraints.push(Constraint::Sum { terms, target });
            Some(alternative)
        })
        .collect()
}

/// A `Regex` pattern as ISS writes it (`Regex.decodePattern`): base64url
/// without padding, or, in older strings, percent-escaped text.
pub fn regex_pattern(token: &str) -> Option<String> {
    if token.contains('%') {
        let bytes = token.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        return String::from_utf8(out).ok();
    }
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    // Padding, which ISS's decoder (atob) takes too.
    let token = token.strip_suffix("==").or_else(|| token.strip_suffix('=')).unwrap_or(token);
    for c in token.chars() {
        let value = BASE64.iter().position(|&b| char::from(b) == c)? as u32;
        bits = bits << 6 | value;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count & 0xff) as u8);
        }
    }
    out.iter().all(u8::is_ascii).then(|| out.iter().map(|&b| char::from(b)).collect())
}

/// A pattern as ISS writes it: base64url of its text, without padding.
pub fn regex_token(pattern: &str) -> String {
    let mut out = String::new();
    for chunk in pattern.as_bytes().chunks(3) {
        let mut word = 0u32;
        for (i, &b) in chunk.iter().enumerate() {
            word |= u32::from(b) << (16 - 8 * i);
        }
        for k in 0..=chunk.len() {
            out.push(char::from(BASE64[(word >> (18 - 6 * k) & 63) as usize]));
        }
    }
    out
}

/// ISS's key for the relation `allows` on digits `1..=n` (`fnToBinaryKey`).
pub fn pair_key(n: usize, allows: impl Fn(usize, usize) -> bool) -> String {
    let mut values = Vec::new();
    let (mut v, mut k) = (0usize, 0);
    for i in 1..=n {
        for j in 1..=n {
            v |= usize::from(allows(i, j)) << k;
            k += 1;
            if k == 6 {
                values.push(v);
                (v, k) = (0, 0);
            }
        }
    }
    values.push(v);
    while values.last() == Some(&0) {
        values.pop();
    }
    values.iter().map(|&v| char::from(BASE64[v])).collect()
}

/// Pairs of orthogonal neighbours (`touch`) among `cells`, each once, the
/// earlier cell first (ISS's `_adjacentCellPairs`).
fn adjacent_pairs(cells: &[Cell], touch: impl Fn(Cell, Cell) -> bool) -> Vec<(Cell, Cell)> {
    let mut pairs = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if touch(a, b) && !pairs.contains(&(a, b)) && !pairs.contains(&(b, a)) {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// ISS's windoku regions (`Windoku.regions`): box-sized windows, one cell
/// in from the corners of the boxes, a cell apart.
pub fn windows(n: usize) -> Vec<Vec<Cell>> {
    let Some((h, w)) = box_shape(n) else { return Vec::new() };
    let mut regions = Vec::new();
    let mut i = 1;
    while i + w < n {
        let mut j = 1;
        while j + h < n {
            regions.push((0..n).map(|k| Cell::new(j + k % h, i + k / h)).collect());
            j += h + 1;
        }
        i += w + 1;
    }
    regions
}

/// The little killer diagonal ISS names by its first cell
/// (`LittleKiller.cellMap`), if there is one.
pub fn little_killer(n: usize, start: Cell) -> Option<Vec<Cell>> {
    little_killer_lines(n).into_iter().find(|line| line[0] == start)
}

/// Every little killer diagonal of an `n x n` grid, as ISS lists them.
pub fn little_killer_lines(n: usize) -> Vec<Vec<Cell>> {
    let mut lines: Vec<Vec<Cell>> = Vec::new();
    let mut seen: Vec<Vec<Cell>> = Vec::new();
    let mut add = |row: isize, col: isize, dr: isize, dc: isize| {
        let mut cells = Vec::new();
        let (mut r, mut c) = (row, col);
        while r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n {
            cells.push(Cell::new(r as usize, c as usize));
            r += dr;
            c += dc;
        }
        if cells.len() <= 1 {
            return;
        }
        let mut sorted = cells.clone();
        sorted.sort();
        if seen.contains(&sorted) {
            return;
        }
        seen.push(sorted);
        lines.push(cells);
    };
    let n_ = n as isize;
    for row in 0..n_ - 1 {
        add(row, 0, 1, 1);
    }
    for row in 1..n_ - 1 {
        add(row, n_ - 1, -1, -1);
    }
    for col in 1..n_ {
        add(0, col, 1, -1);
    }
    for col in 1..n_ - 1 {
        add(n_ - 1, col, -1, 1);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_boxes_as_iss_names_them() {
        assert_eq!(cell_id(Cell::new(0, 0)), "R1C1");
        assert_eq!(cell_id(Cell::new(9, 15)), "RaCg");
        assert_eq!(box_shape(9), Some((3, 3)));
        assert_eq!(box_shape(6), Some((2, 3)));
        assert_eq!(box_shape(8), Some((2, 4)));
        assert_eq!(box_shape(12), Some((3, 4)));
        assert_eq!(box_shape(7), None);
        assert_eq!(windows(9).len(), 4);
        assert_eq!(windows(9)[0][..3], [Cell::new(1, 1), Cell::new(2, 1), Cell::new(3, 1)]);
    }

    #[test]
    fn little_killer_diagonals_as_iss_lists_them() {
        let lines = little_killer_lines(9);
        // 8 from the left, 7 from the right, 8 from the top, 7 from the bottom.
        assert_eq!(lines.len(), 30);
        assert_eq!(little_killer(9, Cell::new(0, 0)).unwrap().len(), 9);
        assert_eq!(little_killer(9, Cell::new(0, 8)).unwrap()[1], Cell::new(1, 7));
        assert!(little_killer(9, Cell::new(4, 4)).is_none());
    }

    #[test]
    fn items_and_positions() {
        let p = parse_iss(".~R1C1_5\n.Thermo~R1C2~R1C3", "t").unwrap();
        assert_eq!(p.given(Cell::new(0, 0)), Some(5));
        let err = parse_iss(".~R1C1_5\n.Thermo~R1C2~R1Cz", "t").unwrap_err();
        assert_eq!((err.line, err.col), (2, 14), "{err}");
        let err = parse_iss(".Container", "t").unwrap_err();
        assert!(err.message.contains("Container is not read"), "{err}");
        let p = parse_iss(".Var~A~~2.~VA2_3", "t").unwrap();
        assert_eq!((p.vars(), p.side(), p.given(Cell::new(9, 1))), (2, 10, Some(3)));
        let err = parse_iss(".Foo~R1C1", "t").unwrap_err();
        assert!(err.message.contains("unknown ISS constraint type"), "{err}");
    }

    /// ISS's own example: the key of a 1:3 ratio on 9 digits (its
    /// "Entropic lines" puzzle's pair named 1:3), and back.
    #[test]
    fn pair_keys_as_iss_writes_them() {
        let allowed = pair_table("EAEBEAAQAAAAE", 9, false).unwrap();
        let ratio = |i: usize, j: usize| allowed[i - 1] >> (j - 1) & 1 == 1;
        let pairs: Vec<(usize, usize)> = itertools::iproduct!(1..=9, 1..=9).filter(|&(i, j)| ratio(i, j)).collect();
        assert_eq!(pairs, [(1, 3), (2, 6), (3, 1), (3, 9), (6, 2), (9, 3)]);
        assert_eq!(pair_key(9, ratio), "EAEBEAAQAAAAE");
        let consecutive = pair_key(9, |i, j| i.abs_diff(j) == 1);
        assert_eq!(pair_table(&consecutive, 9, false).unwrap()[4], 0b1010 << 2);
        assert!(pair_table("A*", 9, false).is_none());
    }

    /// ISS writes patterns in base64url: "1.*9" is "MS4qOQ" (btoa's
    /// "MS4qOQ==" without padding).
    #[test]
    fn regex_patterns_as_iss_writes_them() {
        assert_eq!(regex_token("1.*9"), "MS4qOQ");
        assert_eq!(regex_pattern("MS4qOQ").as_deref(), Some("1.*9"));
        assert_eq!(regex_pattern("1%7C2").as_deref(), Some("1|2"));
        assert_eq!(regex_pattern("MS4qOQ==").as_deref(), Some("1.*9"));
        for pattern in ["", "a", "ab", "abc", "[1-9]{2,}|(34)*"] {
            assert_eq!(regex_pattern(&regex_token(pattern)).as_deref(), Some(pattern));
        }
    }

    #[test]
    fn detection() {
        assert!(looks_like(".~R1C1_5"));
        assert!(looks_like("# a comment\n.Thermo~R1C1~R1C2"));
        assert!(looks_like(".NoBoxes.Jigsaw~0"));
        assert!(looks_like(".X~R1C1~R1C2"));
        // ISS's "Hailstone - little killer" starts with an empty item.
        assert!(looks_like("..Cage~14~R5C3~R5C4~R6C4.Diagonal~1"));
        assert!(looks_like("...~R1C1_5"));
        assert!(!looks_like("..V.3...."));
        assert!(!looks_like(".V.3....."));
        assert!(!looks_like("..3.5....."));
        assert!(!looks_like(".A....."));
    }

    #[test]
    fn links_are_decoded() {
        let p = parse_iss("https://sigh.github.io/Interactive-Sudoku-Solver/?q=.%7ER1C1_3.Shape%7E4x4", "t").unwrap();
        assert_eq!(p.side(), 4);
        assert_eq!(p.given(Cell::new(0, 0)), Some(3));
    }
}
