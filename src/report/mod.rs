//! What the tool prints on stdout: one [`Printer`] per output format
//! (`--output text|json|mc`), each in its own file, as hyperfine keeps its
//! exporters; and how a solution is written in each puzzle's own terms.

mod json;
mod mc;
pub mod svg;
mod text;

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

use crate::count::plan::{Candidates, Tally, Verdict};
use crate::model::{push_symbol, symbol, Cell, Digit, Grid, Puzzle};
use crate::parse::Format;
use crate::setter::minimal::Needs;
use crate::setter::rate::Rating;

crate::named_enum! {
    /// The formats results are printed in.
    pub enum Output = Text {
        /// `count`: `solutions(S).`, the contest's fact; `unique`: `unique`, `none` or
        /// `multiple` and the solutions, tab-separated.
        Text = "text",
        /// One JSON object a line for each puzzle (counts past 2^53 as strings).
        Json = "json",
        /// `count` only: the model counting competition's `s mc N` and `c s exact arb int N` lines.
        Mc = "mc",
    }
}

/// How a solution is written: as the contest's LP facts, as the grid in
/// the puzzle's own symbols (digits above 9 as letters), or as Takuzu's rows
/// of 0 and 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrintStyle {
    /// `solution(K,Row,[d1,...]).` facts.
    Facts,
    /// Rows of symbols.
    Grid,
    /// Rows of 0 and 1.
    Binary,
    /// Rows of symbols from 0: each digit less one (a grid whose values
    /// run from 0, as ISS's `0-8`).
    Values,
}

impl PrintStyle {
    /// The style of `puzzle`, read in this style: its values from 0 when
    /// they start there.
    pub fn for_values_from(self, first_value: u8) -> PrintStyle {
        match self {
            PrintStyle::Grid | PrintStyle::Facts if first_value == 0 => PrintStyle::Values,
            style => style,
        }
    }

    /// The number a digit is written as: the digit less one in Takuzu's
    /// rows and on grids of values from 0.
    pub fn value(self, digit: Digit) -> Digit {
        match self {
            PrintStyle::Binary | PrintStyle::Values => digit - 1,
            PrintStyle::Facts | PrintStyle::Grid => digit,
        }
    }

    /// The style of a puzzle read in `format`.
    pub fn of(format: Format) -> PrintStyle {
        match format {
            Format::Lp | Format::Kattis => PrintStyle::Facts,
            Format::Takuzu => PrintStyle::Binary,
            _ => PrintStyle::Grid,
        }
    }
}

/// What of a puzzle its printed grids follow: the value its digit 1
/// stands for, and a rectangle's rows and columns (the cells shown of its
/// square model, [`Puzzle::shape`]); a chaos construction's are its grid
/// and, under it, the region labels ([`Puzzle::into_chaos`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    /// 1, or 0 for values from 0.
    pub first_value: u8,
    /// Rows and columns of a rectangle, or of a chaos construction's grid
    /// and labels; `None` for a square grid.
    pub shape: Option<(usize, usize)>,
    /// How many cells outside the grid follow its rows ([`Puzzle::add_vars`]).
    pub vars: usize,
}

impl Shown {
    /// How `puzzle`'s grids are shown.
    pub fn of(puzzle: &Puzzle) -> Shown {
        let shape = match (puzzle.is_rectangle() || puzzle.vars() > 0, puzzle.is_chaos()) {
            (true, _) => Some(puzzle.shape()),
            (_, true) => Some((puzzle.side(), puzzle.side() / 2)),
            _ => None,
        };
        Shown { first_value: puzzle.first_value(), shape, vars: puzzle.vars() }
    }

    /// A square grid of values from 1.
    pub const PLAIN: Shown = Shown { first_value: 1, shape: None, vars: 0 };
}

impl Item<'_> {
    /// The item with its style and shape for a puzzle shown as `shown`
    /// ([`PrintStyle::for_values_from`]).
    pub fn shown(self, shown: Shown) -> Self {
        Item { style: self.style.for_values_from(shown.first_value), shape: shown.shape, vars: shown.vars, ..self }
    }
}

/// Which puzzle a result is of, and how its solutions are written.
#[derive(Clone, Copy, Debug)]
pub struct Item<'a> {
    /// The file it was read from (`<stdin>` for standard input).
    pub source: &'a str,
    /// Its line in a collection (from 1).
    pub line: Option<usize>,
    /// What precedes its result on a line of text: the file in a batch, the
    /// line in a collection, both in a batch of collections; none alone.
    pub label: Option<&'a str>,
    /// How its solutions are written.
    pub style: PrintStyle,
    /// A rectangle's rows and columns: only those cells of its grids are
    /// printed.
    pub shape: Option<(usize, usize)>,
    /// How many cells outside the grid are printed after its rows.
    pub vars: usize,
}

/// A printer of results in one format. Each call writes whole lines to
/// `out`; a printer that needs the solutions with the count (JSON) keeps
/// them until then.
pub trait Printer {
    /// A solution found while counting (`--print`), the `index`th (from 1).
    fn solution(&mut self, out: &mut dyn Write, item: &Item, index: u128, grid: &Grid) -> io::Result<()>;
    /// A puzzle's count.
    fn count(&mut self, out: &mut dyn Write, item: &Item, tally: &Tally) -> io::Result<()>;
    /// A puzzle's verdict (`unique`), judged in `elapsed`.
    fn verdict(&mut self, out: &mut dyn Write, item: &Item, verdict: &Verdict, elapsed: Duration) -> io::Result<()>;
    /// A puzzle's true candidates (`candidates`), found in `elapsed`.
    fn candidates(
        &mut self,
        out: &mut dyn Write,
        item: &Item,
        candidates: &Candidates,
        elapsed: Duration,
    ) -> io::Result<()>;
    /// What a puzzle needs to be unique (`minimal`), found in `elapsed`.
    /// Formats that cannot show it are not offered (`mc`): nothing.
    fn needs(&mut self, _out: &mut dyn Write, _item: &Item, _needs: &Needs, _elapsed: Duration) -> io::Result<()> {
        Ok(())
    }
    /// A puzzle's rating (`rate`), or the verdict that kept it from one
    /// (`none`, `multiple`, `undecided`); not offered in `mc`.
    fn rating(
        &mut self,
        _out: &mut dyn Write,
        _item: &Item,
        _rating: Result<&Rating, &str>,
        _elapsed: Duration,
    ) -> io::Result<()> {
        Ok(())
    }
    /// A puzzle that could not be read or counted (the message also goes to
    /// stderr); only formats that give every puzzle a record print it.
    fn error(&mut self, _out: &mut dyn Write, _item: &Item, _message: &str) -> io::Result<()> {
        Ok(())
    }
}

/// The printer of `output`.
pub fn printer(output: Output) -> Box<dyn Printer + Send> {
    match output {
        Output::Text => Box::new(text::Text),
        Output::Json => Box::new(json::Json::default()),
        Output::Mc => Box::new(mc::Mc),
    }
}

/// The contest's output fact.
pub fn solutions_fact(count: impl std::fmt::Display) -> String {
    format!("solutions({count}).")
}

/// A count as text: the contest's fact when it is exact; when it is not,
/// a fact of another predicate, so that no reader of `solutions/1` takes it
/// for a count: `solutions_at_least(N).` for a lower bound N > 0, and
/// `solutions_unknown.` when there is none (no solution found yet, or a
/// method that gives no partial count).
pub fn count_fact(count: &num_bigint::BigUint, exact: bool) -> String {
    match (exact, count.bits()) {
        (true, _) => solutions_fact(count),
        (false, 0) => "solutions_unknown.".to_owned(),
        (false, _) => format!("solutions_at_least({count})."),
    }
}

/// A solution as LP facts, one `solution(K,Row,[Digits]).` per grid row,
/// preceded by a `%` comment line.
pub fn solution_facts(index: u128, grid: &Grid) -> String {
    let mut out = format!("% solution {index}\n");
    for (r, row) in grid.rows().enumerate() {
        let _ = writeln!(out, "solution({index},{},[{}]).", r + 1, itertools::join(row, ","));
    }
    out
}

/// A solution in `style`, after a `% solution K` line: facts, rows of
/// symbols separated by spaces, or rows of 0 and 1.
pub fn solution_text(
    index: u128,
    grid: &Grid,
    style: PrintStyle,
    shape: Option<(usize, usize)>,
    vars: usize,
) -> String {
    match style {
        PrintStyle::Facts => solution_facts(index, grid),
        _ => format!("% solution {index}\n{}", rows(grid, style, shape, vars)),
    }
}

/// The rows of `grid` shown: all, or a rectangle's (`shape`, rows and
/// columns), its top-left cells, and then the `vars` cells outside the
/// grid ([`Puzzle::add_vars`]), as many a row as the grid has columns.
pub fn shown_rows(grid: &Grid, shape: Option<(usize, usize)>, vars: usize) -> impl Iterator<Item = &[Digit]> {
    let (rows, cols) = shape.unwrap_or((grid.side(), grid.side()));
    let outside = grid.rows().skip(rows).take(vars.div_ceil(cols)).enumerate();
    let grid_rows = grid.rows().take(rows).map(move |row| &row[..cols]);
    grid_rows.chain(outside.map(move |(i, row)| &row[..cols.min(vars - i * cols)]))
}

/// The grid's rows in `style`: symbols separated by spaces (from 0 for
/// [`PrintStyle::Values`]), or Takuzu's rows of 0 and 1.
pub fn rows(grid: &Grid, style: PrintStyle, shape: Option<(usize, usize)>, vars: usize) -> String {
    match style {
        PrintStyle::Binary => binary_rows(grid),
        PrintStyle::Facts | PrintStyle::Grid if shape.is_none() => grid.to_string(),
        PrintStyle::Facts | PrintStyle::Grid | PrintStyle::Values => {
            let mut out = String::new();
            for row in shown_rows(grid, shape, vars) {
                let line = itertools::join(row.iter().map(|&d| symbol(style.value(d))), " ");
                let _ = writeln!(out, "{line}");
            }
            out
        }
    }
}

/// A Takuzu grid as its rows of `0` and `1` (the model's digits 1 and 2).
pub fn binary_rows(grid: &Grid) -> String {
    let mut out = String::new();
    for row in grid.rows() {
        out.extend(row.iter().map(|&d| if d == 1 { '0' } else { '1' }));
        out.push('\n');
    }
    out
}

/// A grid on one line: its symbols in reading order (Takuzu as 0 and 1).
pub fn one_line(grid: &Grid, style: PrintStyle, shape: Option<(usize, usize)>, vars: usize) -> String {
    let mut line = String::with_capacity(grid.side() * grid.side());
    for &d in shown_rows(grid, shape, vars).flatten() {
        push_symbol(&mut line, style.value(d));
    }
    line
}

/// Givens on one line: each cell's symbol in reading order, `.` for an
/// open cell (the givens format).
pub fn givens_line(side: usize, givens: &[(Cell, Digit)], style: PrintStyle) -> String {
    let mut digits = vec![0; side * side];
    for &(cell, digit) in givens {
        digits[cell.row * side + cell.col] = digit;
    }
    let mut line = String::with_capacity(side * side);
    for d in digits {
        match d {
            0 => line.push('.'),
            d => push_symbol(&mut line, style.value(d)),
        }
    }
    line
}

/// Cells with digits, `r1c2=5` each, joined by commas.
pub fn cell_digits(cells: &[(Cell, Digit)], style: PrintStyle) -> String {
    let mut text = String::new();
    for (i, &(cell, digit)) in cells.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        let _ = write!(text, "{cell}=");
        push_symbol(&mut text, style.value(digit));
    }
    text
}

/// A rating's steps past singles in a few words: `d1:4` for a depth-1
/// step of size 4, `d2:31`, `guess`; `singles` when there are none.
pub fn steps_text(rating: &Rating) -> String {
    if rating.steps.is_empty() {
        return "singles".to_owned();
    }
    let words = rating.steps.iter().map(|step| match step.depth {
        0 => "guess".to_owned(),
        depth => format!("d{depth}:{}", step.size),
    });
    itertools::join(words, " ")
}

/// Two solutions side by side, as a person compares them: each a grid
/// of rows, box lines where the puzzle has boxes (`boxes`), and each cell
/// where they differ marked `*` after its digit; the two grids three
/// spaces apart, under the titles `solution 1` and `solution 2`.
pub fn side_by_side(a: &Grid, b: &Grid, boxes: Option<(usize, usize)>, item: &Item) -> String {
    let (style, n) = (item.style, a.side());
    let (rows, cols) = item.shape.unwrap_or((n, n));
    let (box_rows, box_cols) = boxes.unwrap_or((rows, cols));
    let symbol = |g: &Grid, cell: Cell| {
        let mut text = String::new();
        let d = g.get(cell);
        push_symbol(&mut text, style.value(d));
        text
    };
    let width = (1..=n as Digit).map(symbol_width).max().unwrap_or(1);
    let grid_lines = |g: &Grid, other: &Grid| -> Vec<String> {
        let mut lines = Vec::new();
        let rule = vec!["-".repeat(box_cols * (width + 2) - 1); cols / box_cols.max(1)].join("+-");
        for r in 0..rows {
            if r > 0 && r % box_rows == 0 {
                lines.push(rule.clone());
            }
            let mut line = String::new();
            for c in 0..cols {
                if c > 0 {
                    line.push_str(if c % box_cols == 0 { "| " } else { " " });
                }
                let cell = Cell::new(r, c);
                let mark = if g.get(cell) == other.get(cell) { ' ' } else { '*' };
                let _ = write!(line, "{:>width$}{mark}", symbol(g, cell));
            }
            lines.push(line);
        }
        lines
    };
    let (left, right) = (grid_lines(a, b), grid_lines(b, a));
    let wide = left.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut out = format!("{:<wide$}   {}\n", "solution 1", "solution 2");
    for (l, r) in left.iter().zip(&right) {
        let _ = writeln!(out, "{l:<wide$}   {}", r.trim_end());
    }
    out
}

/// How many characters a digit's symbol takes.
fn symbol_width(d: Digit) -> usize {
    let mut text = String::new();
    push_symbol(&mut text, d);
    text.chars().count()
}

/// Milliseconds with three decimals.
pub fn millis(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}
