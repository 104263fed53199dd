//! The puzzle as a constraint string of sigh's Interactive Sudoku Solver
//! (`export --as iss`), so that a setter can open it there; the reader is
//! [`crate::parse::iss`], and each element is written as a type that reader
//! reads back with the same meaning. What ISS has no type for (or the
//! reader does not read yet) is refused by name, never dropped.

use std::io::{self, Write};

use super::{Formulation, Unsupported};
use crate::model::{
    table_allows, Alternative, Cell, Constraint, Digit, GroupKind, LineRule, Predicate, Puzzle, Relation,
};
use crate::parse::iss::{box_dims, box_shape, boxes_of, cell_id, pair_key, rectangle_boxes, regex_token};

fn refuse(what: impl Into<String>) -> Unsupported {
    Unsupported {
        formulation: Formulation::Iss,
        what: what.into(),
        why: "ISS has no type for it that satsudoku reads back (docs/rules.md, ISS constraint strings)",
    }
}

fn ids(cells: &[Cell]) -> String {
    cells.iter().map(|&c| cell_id(c)).collect::<Vec<_>>().join("~")
}

/// `R3` or `C4` and whether `cells` runs backwards along it, when `cells`
/// is a whole row or column.
fn full_line(cells: &[Cell], (rows, cols): (usize, usize)) -> Option<(String, bool)> {
    let first = *cells.first()?;
    let forward: Vec<Cell> = (0..cols).map(|c| Cell::new(first.row, c)).collect();
    let down: Vec<Cell> = (0..rows).map(|r| Cell::new(r, first.col)).collect();
    for (line, name) in [(forward, format!("R{}", first.row + 1)), (down, format!("C{}", first.col + 1))] {
        if cells == line.as_slice() {
            return Some((name, false));
        }
        if cells.iter().rev().eq(line.iter()) {
            return Some((name, true));
        }
    }
    None
}

/// The constraint string of `puzzle`, one item a line.
pub fn string(puzzle: &Puzzle) -> Result<String, Unsupported> {
    if let Some(grid) = puzzle.chaos_grid() {
        // ISS's own chaos construction: its type after the grid's items.
        let mut items = string(&grid)?;
        items.push_str(".ChaosConstruction\n");
        let n = grid.side();
        // `CCk`: the label of the grid's `k`th cell in reading order.
        let cc = |cell: &Cell| puzzle.labelled(*cell).map_or(String::new(), |c| format!("CC{}", c.row * n + c.col + 1));
        let ccs = |cells: &[Cell]| itertools::join(cells.iter().map(cc), "~");
        let label = |cell: &Cell| puzzle.labelled(*cell).is_some();
        // The rules on the labels, which the grid has not: region runs
        // (every clue as a ChaosArrow, a count being one of arms of two),
        // and the rules that ask only which labels are equal.
        for c in puzzle.constraints() {
            match c {
                Constraint::Chaos { .. } | Constraint::Digits { .. } => {}
                Constraint::RegionRuns { control, arms, offset } => {
                    let arms = itertools::join(arms.iter().map(|arm| ccs(arm)), "~-~");
                    items.push_str(&format!(".ChaosArrow~{}~{offset}~{arms}\n", cell_id(*control)));
                }
                Constraint::SameValues { sets } if sets.iter().flatten().all(label) => {
                    items.push_str(&format!(".SameValues~{}~{}\n", sets.len(), ccs(&sets.concat())));
                }
                Constraint::CountDistinct { control, cells, .. } if !label(control) && cells.iter().all(label) => {
                    items.push_str(&format!(".CountDistinct~{}~{}\n", cell_id(*control), ccs(cells)));
                }
                c if c.cells().iter().any(label) => {
                    return Err(refuse(format!("{c} on a chaos construction's region labels")));
                }
                _ => {}
            }
        }
        for r in puzzle.relations().iter().filter(|r| label(&r.a) || label(&r.b)) {
            match r.predicate {
                Predicate::Equal if label(&r.a) && label(&r.b) => {
                    items.push_str(&format!(".SameValues~2~{}\n", ccs(&[r.a, r.b])));
                }
                _ => return Err(refuse("a relation on a chaos construction's region labels other than equal")),
            }
        }
        return Ok(items);
    }
    if let Some((grid, rest)) = puzzle.var_parts() {
        return with_vars(puzzle, &grid, &rest);
    }
    let (n, values) = (puzzle.side(), puzzle.digits());
    if values < n {
        return Err(refuse(format!("{values} digits on a side of {n}")));
    }
    if n > 16 {
        return Err(refuse(format!("a side of {n} (ISS names cells up to 16)")));
    }
    // On a grid whose values run from 0, each digit stands for its value
    // and 1; a grid of more values than its side says how many.
    let shift = puzzle.digit_shift();
    if puzzle.is_rectangle() {
        return rectangle(puzzle, shift);
    }
    let range = match (shift, values == n) {
        (0, true) => String::new(),
        (0, false) => format!("~{values}"),
        _ => format!("~0-{}", values - 1),
    };
    // A grid with no rows and no columns is ISS's `Raw` grid type (no
    // regions either: ISS has them only on a Sudoku grid).
    let has = |kind: GroupKind| puzzle.groups().iter().any(|g| g.kind == kind);
    let raw = match (has(GroupKind::Row), has(GroupKind::Column)) {
        (true, true) => false,
        (false, false) if puzzle.boxes().is_none() && !has(GroupKind::Region) => true,
        (false, false) => return Err(refuse("regions on a grid without rows and columns")),
        _ => return Err(refuse("rows without columns, or columns without rows")),
    };
    let mut items = vec![match (raw, range.is_empty()) {
        (false, _) => format!(".Shape~{n}x{n}{range}"),
        (true, true) => format!(".Shape~{n}x{n}~~Raw"),
        (true, false) => format!(".Shape~{n}x{n}{range}~Raw"),
    }];
    if raw {
        // Rules are written as on any grid; the reader checks each is one
        // it reads on a Raw grid.
        items.extend(rules(puzzle)?);
        return Ok(items.join("\n") + "\n");
    }
    let regions: Vec<&Vec<Cell>> =
        puzzle.groups().iter().filter(|g| g.kind == GroupKind::Region).map(|g| &g.cells).collect();
    let layout = |pieces: &[Vec<Cell>]| -> Result<String, Unsupported> {
        let mut labels = vec!['#'; n * n];
        for (k, piece) in pieces.iter().enumerate() {
            let label = std::char::from_digit(k as u32, 36).ok_or_else(|| refuse("more than 36 regions"))?;
            for c in piece {
                labels[c.row * n + c.col] = label;
            }
        }
        let left = labels.iter().filter(|&&l| l == '#').count();
        if (n..=values).contains(&left) {
            return Err(refuse("cells in no region, as many as a region may hold (ISS would make them one)"));
        }
        Ok(labels.into_iter().collect())
    };
    match puzzle.boxes() {
        Some(shape) if Some(shape) == box_shape(n) => {}
        Some((h, w)) => {
            let pieces: Vec<Vec<Cell>> =
                puzzle.groups().iter().filter(|g| g.kind == GroupKind::Box).map(|g| g.cells.clone()).collect();
            debug_assert_eq!(pieces.len(), n, "{h}x{w} boxes");
            items.push(".NoBoxes".into());
            items.push(format!(".Jigsaw~{}", layout(&pieces)?));
        }
        None => {
            let pieces: Vec<Vec<Cell>> = regions.iter().map(|r| r.to_vec()).collect();
            // Regions of another size than the side (a grid of more
            // values): ISS's RegionSize says it, the same for all; when
            // they are ISS's boxes for that size, they are written so.
            let size = pieces.first().map_or(n, Vec::len);
            if pieces.iter().any(|p| p.len() != size) {
                return Err(refuse("regions of different sizes"));
            }
            if size != n {
                items.push(format!(".RegionSize~{size}"));
            }
            let boxes = box_dims(n, size).map(|d| boxes_of(n, d));
            if pieces.is_empty() || boxes.as_ref() != Some(&pieces) {
                items.push(".NoBoxes".into());
            }
            if !pieces.is_empty() && boxes.as_ref() != Some(&pieces) {
                items.push(format!(".Jigsaw~{}", layout(&pieces)?));
            }
        }
    }
    items.extend(rules(puzzle)?);
    Ok(items.join("\n") + "\n")
}

/// The string of a puzzle with cells outside its grid
/// ([`Puzzle::var_parts`]): the grid's items, one `Var` of prefix `V`
/// (its cells `VV1`, `VV2` ..., or `VV` alone), and the rules that name
/// them, written as any rule and then renamed.
fn with_vars(puzzle: &Puzzle, grid: &Puzzle, rest: &Puzzle) -> Result<String, Unsupported> {
    if puzzle.side() > 16 {
        return Err(refuse(format!("{} cells outside the grid on a model of side {}", puzzle.vars(), puzzle.side())));
    }
    let mut items = string(grid)?;
    let count = puzzle.vars();
    items.push_str(&format!(".Var~V~~{count}\n"));
    let names: Vec<(String, String)> = puzzle
        .var_cells()
        .enumerate()
        .map(|(i, c)| (cell_id(c), if count == 1 { "VV".to_owned() } else { format!("VV{}", i + 1) }))
        .collect();
    // Each item (a line may hold several, as an `Or`'s) renamed word by
    // word, but for a state machine's, pattern's or pair key's first word.
    let renamed = |item: &str| {
        let keyed = ["NFA~", "Regex~", "Pair~", "PairX~", "Binary~", "BinaryX~"].iter().any(|t| item.starts_with(t));
        let words = item.split('~').enumerate().map(|(k, word)| {
            let (id, tail) = word.split_once('_').map_or((word, ""), |(id, _)| (id, &word[id.len()..]));
            match names.iter().find(|(old, _)| old == id) {
                Some((_, name)) if k > usize::from(keyed) => format!("{name}{tail}"),
                _ => word.to_owned(),
            }
        });
        itertools::join(words, "~")
    };
    for line in rules(rest)? {
        items.push_str(&itertools::join(line.split('.').map(renamed), "."));
        items.push('\n');
    }
    Ok(items)
}

/// The string of a rectangle (`Shape~6x8`): its shape and values, its
/// regions when they are not ISS's boxes, and its rules, the padding of its
/// square model left out.
fn rectangle(puzzle: &Puzzle, shift: i64) -> Result<String, Unsupported> {
    let ((rows, cols), values) = (puzzle.shape(), puzzle.digits());
    let long = rows.max(cols);
    let range = match (shift, values == long) {
        (0, true) => String::new(),
        (0, false) => format!("~{values}"),
        _ => format!("~0-{}", values - 1),
    };
    let mut items = vec![format!(".Shape~{rows}x{cols}{range}")];
    let regions = |p: &Puzzle| -> Vec<Vec<Cell>> {
        p.groups().iter().filter(|g| g.kind == GroupKind::Region).map(|g| g.cells.clone()).collect()
    };
    let mut pieces = regions(puzzle);
    // ISS's boxes, as the reader lays them.
    let dims = rectangle_boxes(rows, cols, long);
    let boxes = Puzzle::rectangle(rows, cols, values, dims).map(|p| regions(&p)).map_err(|e| refuse(e.to_string()))?;
    if dims.is_none() || boxes != pieces {
        if dims.is_some() {
            items.push(".NoBoxes".into());
        }
        if !pieces.is_empty() {
            if pieces.iter().any(|p| p.len() != long) || pieces.len() * long != rows * cols {
                return Err(refuse("regions on a rectangle that are not a jigsaw of it"));
            }
            pieces.sort();
            let mut labels = vec!['#'; rows * cols];
            for (k, piece) in pieces.iter().enumerate() {
                let label = std::char::from_digit(k as u32, 36).ok_or_else(|| refuse("more than 36 regions"))?;
                for c in piece {
                    labels[c.row * cols + c.col] = label;
                }
            }
            items.push(format!(".Jigsaw~{}", labels.into_iter().collect::<String>()));
        }
    }
    let rules_only: Vec<Constraint> = puzzle
        .constraints()
        .iter()
        .filter(|c| !matches!(c, Constraint::Digits { cell, .. } if !puzzle.in_grid(*cell)))
        .cloned()
        .collect();
    items.extend(rules(&puzzle.with_constraints(rules_only))?);
    Ok(items.join("\n") + "\n")
}

/// The items of the puzzle's extra groups, givens, constraints and
/// relations (after its shape and layout).
fn rules(puzzle: &Puzzle) -> Result<Vec<String>, Unsupported> {
    let shift = puzzle.digit_shift();
    let mut items = Vec::new();
    for group in puzzle.groups() {
        match group.kind {
            GroupKind::Extra => items.push(format!(".AllDifferent~{}", ids(&group.cells))),
            GroupKind::Cage => items.push(format!(".Cage~0~{}", ids(&group.cells))),
            _ => {}
        }
    }
    let givens: Vec<String> =
        puzzle.givens().map(|(c, d)| format!("~{}_{}", cell_id(c), i64::from(d) - shift)).collect();
    if !givens.is_empty() {
        items.push(format!(".{}", givens.concat()));
    }
    for constraint in puzzle.constraints() {
        let item = constraint_item(puzzle, constraint)?;
        if !item.is_empty() {
            items.push(item);
        }
    }
    for r in puzzle.relations() {
        items.push(relation_item(puzzle, r)?);
    }
    Ok(items)
}

/// The item of relation `r` on `puzzle`'s grid, its values and their
/// shift from the digits.
fn relation_item(puzzle: &Puzzle, r: &Relation) -> Result<String, Unsupported> {
    let (values, shift) = (puzzle.digits(), puzzle.digit_shift());
    let (a, b) = (cell_id(r.a), cell_id(r.b));
    // Neighbours as ISS sees them: in the grid, or both outside it in the
    // one group written, laid out in the grid's columns as the model's are
    // ([`with_vars`]); a cell in the grid and one outside never are.
    let adjacent =
        r.a.row.abs_diff(r.b.row) + r.a.col.abs_diff(r.b.col) == 1 && puzzle.in_grid(r.a) == puzzle.in_grid(r.b);
    Ok(match r.predicate {
        Predicate::Less => format!(".Thermo~{a}~{b}"),
        Predicate::Equal => format!(".Palindrome~{a}~{b}"),
        Predicate::NotEqual => format!(".AllDifferent~{a}~{b}"),
        Predicate::DifferenceAtLeast { min } => format!(".Whisper~{min}~{a}~{b}"),
        Predicate::Sum { cmp: std::cmp::Ordering::Equal, target } => {
            format!(".Sum~{}~{a}~{b}", i64::from(target) - 2 * shift)
        }
        Predicate::Ratio { .. } | Predicate::DifferentClass { .. } if shift != 0 => {
            return Err(refuse("a ratio or classes of digits on a grid whose values run from 0"))
        }
        Predicate::Difference { diff: 1 } if adjacent => format!(".WhiteDot~{a}~{b}"),
        Predicate::Ratio { ratio: 2 } if adjacent => format!(".BlackDot~{a}~{b}"),
        Predicate::ResidueDiffers { modulus } if modulus >= 1 => format!(".Modular~{modulus}~{a}~{b}"),
        Predicate::DifferentClass { low: 3, high: 6 } if values == 9 => format!(".Entropic~{a}~{b}"),
        other => {
            let key = pair_key(values, |i, j| other.allows(i as Digit, j as Digit));
            format!(".Pair~{key}~{a}~{b}")
        }
    })
}

/// ISS's `Or` of the alternatives, each an `And` of its items unless it
/// is one item. Rules that ISS writes once for the whole grid (its global
/// windows, full rank) are refused inside.
fn or_item(puzzle: &Puzzle, alternatives: &[Alternative]) -> Result<String, Unsupported> {
    let mut out = String::from(".Or");
    for a in alternatives {
        let mut items = String::new();
        for cells in &a.distinct {
            items += &format!(".AllDifferent~{}", ids(cells));
        }
        for r in &a.relations {
            items += &relation_item(puzzle, r)?;
        }
        for c in &a.constraints {
            if matches!(c, Constraint::Classes { .. } | Constraint::Rank { .. } | Constraint::DistinctReadings { .. }) {
                return Err(refuse(format!("{c} inside an alternative")));
            }
            items += &constraint_item(puzzle, c)?.replace('\n', "");
        }
        // Every item starts with its '.', and no item holds another.
        if items.matches('.').count() == 1 {
            out += &items;
        } else {
            out += &format!(".And{items}.End");
        }
    }
    Ok(out + ".End")
}

fn constraint_item(puzzle: &Puzzle, constraint: &Constraint) -> Result<String, Unsupported> {
    // The side places cells; the values are as many as the digits.
    let (n, values) = (puzzle.side(), puzzle.digits());
    let shift = puzzle.digit_shift();
    // What the reader reads on a grid of values from 0 (and no more).
    let from_zero = matches!(
        constraint,
        Constraint::Digits { .. }
            | Constraint::Sum { .. }
            | Constraint::EqualSums { .. }
            | Constraint::Consecutive { .. }
            | Constraint::Between { .. }
            | Constraint::Contains { .. }
            | Constraint::Outside { .. }
            | Constraint::Along { rule: LineRule::Balanced(_) | LineRule::Skyline(_) | LineRule::FirstHidden(_), .. }
            | Constraint::Along {
                rule: LineRule::Segments { first: 0, .. }
                    | LineRule::LoopSegments { first: 0, .. }
                    | LineRule::Rellik { first: 0, .. }
                    | LineRule::Lunchbox { first: 0, .. },
                ..
            }
            | Constraint::Regular { .. }
            | Constraint::Counting { first: 0, .. }
            | Constraint::AnyOf { .. }
            | Constraint::CountDistinct { first: 0, .. }
            | Constraint::Machine { .. }
            | Constraint::Exactly { .. }
            | Constraint::Table { .. }
            | Constraint::Classes { .. }
            | Constraint::Rank { .. }
            | Constraint::DistinctReadings { .. }
            | Constraint::SameValues { .. }
            | Constraint::Doppelganger { .. }
            | Constraint::ConnectedValues { .. }
    );
    if shift != 0 && !from_zero {
        return Err(refuse(format!("{constraint} on a grid whose values run from 0")));
    }
    let value = |d: Digit| (i64::from(d) - shift).to_string();
    Ok(match constraint {
        Constraint::Chaos { .. } | Constraint::RegionRuns { .. } => {
            return Err(refuse("a chaos construction inside a rule"))
        }
        Constraint::Digits { cell, allowed } => {
            let values: Vec<String> =
                (1..=values as Digit).filter(|d| allowed >> (d - 1) & 1 == 1).map(value).collect();
            if values.is_empty() {
                return Err(refuse(format!("cell {cell} with no digit allowed")));
            }
            format!(".~{}_{}", cell_id(*cell), values.join("_"))
        }
        Constraint::Sum { terms, target } => {
            let target = i64::from(*target) - shift * terms.iter().map(|t| i64::from(t.1)).sum::<i64>();
            let cells: Vec<Cell> = terms.iter().map(|t| t.0).collect();
            if terms.iter().all(|t| t.1 == 1) {
                format!(".Sum~{target}~{}", ids(&cells))
            } else if terms.iter().all(|t| t.1.abs() <= 100) {
                let weights: Vec<String> = terms.iter().map(|t| t.1.to_string()).collect();
                format!(".Sum~{target}_=_{}~{}", weights.join("_"), ids(&cells))
            } else {
                return Err(refuse("a sum with a weight past 100 (a long pill)"));
            }
        }
        Constraint::EqualSums { parts } => {
            let mut out = String::new();
            for part in &parts[1..] {
                let weights: Vec<&str> = parts[0].iter().map(|_| "1").chain(part.iter().map(|_| "-1")).collect();
                let cells: Vec<Cell> = parts[0].iter().chain(part).copied().collect();
                let target = shift * (part.len() as i64 - parts[0].len() as i64);
                out.push_str(&format!(".Sum~{target}_=_{}~{}", weights.join("_"), ids(&cells)));
            }
            out
        }
        Constraint::Consecutive { cells } => format!(".Renban~{}", ids(cells)),
        Constraint::Between { ends, inner } => {
            format!(".Between~{}~{}~{}", cell_id(ends.0), ids(inner), cell_id(ends.1)).replace("~~", "~")
        }
        Constraint::Contains { cells, digits } => {
            let values: Vec<String> = digits.iter().map(|&d| value(d)).collect();
            format!(".ContainAtLeast~{}~{}", values.join("_"), ids(cells))
        }
        Constraint::XSum { cells, target } => match full_line(cells, puzzle.shape()) {
            Some((line, false)) => format!(".XSum~{line}~{target}~"),
            Some((line, true)) => format!(".XSum~{line}~~{target}"),
            None => return Err(refuse("an x-sum clue along cells that are not a row or column")),
        },
        Constraint::Visible { cells, target } => match full_line(cells, puzzle.shape()) {
            Some((line, false)) => format!(".Skyscraper~{line}~{target}~"),
            Some((line, true)) => format!(".Skyscraper~{line}~~{target}"),
            None => return Err(refuse("a skyscraper clue along cells that are not a row or column")),
        },
        Constraint::Sandwich { cells, target, low, high } if *low == 1 && usize::from(*high) == n => {
            match full_line(cells, puzzle.shape()) {
                Some((line, _)) => format!(".Sandwich~{target}~{line}"),
                None => return Err(refuse("a sandwich clue along cells that are not a row or column")),
            }
        }
        Constraint::Index { cell, line, value } => {
            let (rows, cols) = puzzle.shape();
            let row: Vec<Cell> = (0..cols).map(|c| Cell::new(cell.row, c)).collect();
            let column: Vec<Cell> = (0..rows).map(|r| Cell::new(r, cell.col)).collect();
            if *line == row && usize::from(*value) == cell.col + 1 {
                format!(".Indexing~C~{}", cell_id(*cell))
            } else if *line == column && usize::from(*value) == cell.row + 1 {
                format!(".Indexing~R~{}", cell_id(*cell))
            } else if let (Some((id, reverse)), true) = (full_line(line, puzzle.shape()), line.first() == Some(cell)) {
                // A numbered room: the line's first digit places the value.
                if reverse {
                    format!(".NumberedRoom~{id}~~{value}")
                } else {
                    format!(".NumberedRoom~{id}~{value}~")
                }
            } else {
                return Err(refuse("a box indexer"));
            }
        }
        Constraint::Outside { ends, inner } => {
            // ISS's lockout line also keeps its ends apart by its number:
            // written only beside a relation that already does.
            let apart = puzzle.relations().iter().find_map(|r| match r.predicate {
                Predicate::DifferenceAtLeast { min } if min >= 1 && [r.a, r.b] == [ends.0, ends.1] => Some(min),
                _ => None,
            });
            let min = apart.ok_or_else(|| refuse("a lockout line whose ends may be equal"))?;
            format!(".Lockout~{min}~{}~{}~{}", cell_id(ends.0), ids(inner), cell_id(ends.1))
        }
        Constraint::Regular { cells, pattern } => {
            // A pattern over digits, written over values.
            let pattern = match shift {
                0 => pattern.clone(),
                _ => crate::model::regex::shift_symbols(pattern, 1, values, -shift).map_err(refuse)?,
            };
            format!(".Regex~{}~{}", regex_token(&pattern), ids(cells))
        }
        Constraint::Along { rule, cells } => match rule {
            LineRule::Segments { sum, .. } => format!(".SumLine~{sum}~{}", ids(cells)),
            LineRule::LoopSegments { sum, .. } => format!(".SumLine~{sum}~{}~LOOP", ids(cells)),
            LineRule::Rellik { sum, .. } => format!(".RellikCage~{sum}~{}", ids(cells)),
            LineRule::Balanced(_) => format!(".EqualityCage~{}", ids(cells)),
            LineRule::Lunchbox { sum, .. } => format!(".Lunchbox~{sum}~{}", ids(cells)),
            LineRule::Flatmates(_) => {
                // ISS writes the rule once, for every column.
                let column = |c: usize| (0..n).map(|r| Cell::new(r, c)).collect::<Vec<_>>();
                let every = (0..n).all(|c| {
                    puzzle
                        .constraints()
                        .iter()
                        .any(|k| matches!(k, Constraint::Along { rule: r, cells: cs } if r == rule && *cs == column(c)))
                });
                match (every, *cells == column(0)) {
                    (true, true) => ".DutchFlatmates".to_owned(),
                    (true, false) => String::new(),
                    (false, _) => return Err(refuse("a Dutch flatmates line apart from ISS's global rule")),
                }
            }
            // ISS's skyscrapers on a grid of values from 0 (0s are no
            // buildings); on values from 1 ISS has no such rule.
            LineRule::Skyline(target) => match full_line(cells, puzzle.shape()) {
                Some((line, false)) if shift != 0 => format!(".Skyscraper~{line}~{target}~"),
                Some((line, true)) if shift != 0 => format!(".Skyscraper~{line}~~{target}"),
                _ => {
                    return Err(refuse(
                        "skyscrapers whose 0s are no buildings, apart from a row or column of values from 0",
                    ))
                }
            },
            // Several digits: an `Or` of one clue each, as ISS has them.
            LineRule::FirstHidden(targets) => {
                let clues =
                    (1..=64).filter(|d| targets >> (d - 1) & 1 == 1).map(|d| match full_line(cells, puzzle.shape()) {
                        Some((line, false)) => Ok(format!(".HiddenSkyscraper~{line}~{}~", value(d))),
                        Some((line, true)) => Ok(format!(".HiddenSkyscraper~{line}~~{}", value(d))),
                        None => Err(refuse("a hidden skyscraper clue along cells that are not a row or column")),
                    });
                let clues: String = clues.collect::<Result<_, _>>()?;
                match targets.count_ones() {
                    1 => clues,
                    _ => format!(".Or{clues}.End"),
                }
            }
        },
        Constraint::Exactly { cells, counts } if counts.iter().all(|&(_, t)| t >= 1) => {
            let values = counts.iter().flat_map(|&(d, t)| std::iter::repeat_n(value(d), usize::from(t)));
            format!(".ContainExact~{}~{}", itertools::join(values, "_"), ids(cells))
        }
        Constraint::Exactly { cells, counts } if counts.iter().all(|&(d, t)| d <= 9 && t <= 9) => {
            let clue: String = counts.iter().map(|&(d, t)| format!("{t}{}", value(d))).collect();
            format!(".LookAndSay~{clue}~{}", ids(cells))
        }
        Constraint::Exactly { .. } => return Err(refuse("a digit kept out of cells on a side past 9")),
        Constraint::Counting { cells, .. } => format!(".CountingCircles~{}", ids(cells)),
        Constraint::ValueIndex { value, control, line } => {
            format!(".ValueIndexing~{}~{}~{}", cell_id(*value), cell_id(*control), ids(line))
        }
        Constraint::AntiTaxicab { .. } => ".AntiTaxicab".to_owned(),
        Constraint::ConnectedValues { digits, size, .. } => {
            let listed: Vec<String> = (1..=values as Digit).filter(|d| digits >> (d - 1) & 1 == 1).map(value).collect();
            let size = size.map_or(String::new(), |s| format!("~{s}"));
            format!(".ConnectedValues~~{}{size}", listed.join("_"))
        }
        Constraint::Machine { token, name, segments, .. } => {
            let parts: Vec<String> = segments.iter().map(|s| ids(s)).collect();
            let label = if name.is_empty() { String::new() } else { format!("_{name}~") };
            format!(".NFA~{token}~{label}{}", parts.join("~-~"))
        }
        Constraint::CountDistinct { control, cells, .. } => {
            format!(".CountDistinct~{}~{}", cell_id(*control), ids(cells))
        }
        Constraint::Classes { cells, classes } => match global_windows(puzzle, classes) {
            // ISS writes the rule once, for every 2x2 window of a 9x9.
            Some("GlobalEntropy") if shift != 0 => {
                return Err(refuse("GlobalEntropy on a grid whose values run from 0 (ISS refuses it)"))
            }
            Some(name) if cells.first() == Some(&Cell::new(0, 0)) => format!(".{name}"),
            Some(_) => String::new(),
            None => return Err(refuse("a window that must hold a digit of each class, apart from ISS's global rules")),
        },
        Constraint::Table { a, b, allowed } => {
            let key = pair_key(values, |i, j| table_allows(allowed, i as Digit, j as Digit));
            format!(".Pair~{key}~{}~{}", cell_id(*a), cell_id(*b))
        }
        Constraint::Rank { line, rank, alone, .. } => {
            // ISS writes one tie mode for all clues: a clue that may tie
            // (`any`) beside one that may not is refused.
            let ranks = puzzle.constraints().iter().filter_map(|c| match c {
                Constraint::Rank { alone, .. } => Some(*alone),
                _ => None,
            });
            if ranks.clone().any(|a| a != *alone) {
                return Err(refuse("full rank clues of two tie modes"));
            }
            let ties = if *alone { "" } else { ".FullRankTies~any\n" };
            let first = puzzle.constraints().iter().find(|c| matches!(c, Constraint::Rank { .. }));
            let mode = if std::ptr::eq(first.expect("this one"), constraint) { ties } else { "" };
            match full_line(line, puzzle.shape()) {
                Some((id, false)) => format!("{mode}.FullRank~{id}~{rank}~"),
                Some((id, true)) => format!("{mode}.FullRank~{id}~~{rank}"),
                None => return Err(refuse("a full rank clue along cells that are not a row or column")),
            }
        }
        Constraint::DistinctReadings { .. } => ".FullRankTies~none".to_owned(),
        Constraint::AnyOf { alternatives } => or_item(puzzle, alternatives)?,
        // The reader builds it from the grid's regions, and only there.
        Constraint::Doppelganger { .. } => ".Doppelganger".to_owned(),
        Constraint::SameValues { sets } => format!(".SameValues~{}~{}", sets.len(), ids(&sets.concat())),
        Constraint::Sandwich { .. } => return Err(refuse("a sandwich between other digits than 1 and N")),
        Constraint::NotAllEqual { .. } => return Err(refuse("Takuzu's no three alike")),
        Constraint::DistinctLines { .. } => return Err(refuse("Takuzu's distinct rows and columns")),
        Constraint::Lex { .. } | Constraint::Automorphic { .. } => return Err(refuse("symmetry breaking")),
    })
}

/// ISS's name for the rule the windows with `classes` make, when the
/// puzzle (a 9x9) holds the window of every 2x2 square with those classes:
/// `GlobalEntropy` or `GlobalMod`.
fn global_windows(puzzle: &Puzzle, classes: &[u64]) -> Option<&'static str> {
    let n = puzzle.side();
    let name = if classes == crate::model::rules::entropy_windows(n).as_slice() {
        "GlobalEntropy"
    } else if classes == crate::model::rules::modular_windows(n).as_slice() {
        "GlobalMod"
    } else {
        return None;
    };
    let every = crate::model::rules::windows_2x2(n).into_iter().all(|window| {
        puzzle
            .constraints()
            .iter()
            .any(|c| matches!(c, Constraint::Classes { cells, classes: k } if *cells == window && k == classes))
    });
    (n == 9 && every).then_some(name)
}

/// Writes the string, with `comments` as `#` lines.
pub(super) fn write(puzzle: &Puzzle, comments: &[String], out: &mut dyn Write) -> Result<io::Result<()>, Unsupported> {
    let text = string(puzzle)?;
    Ok((|| {
        for c in comments {
            writeln!(out, "# {c}")?;
        }
        out.write_all(text.as_bytes())
    })())
}
