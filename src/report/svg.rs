//! A puzzle's grid as a setter looks at it, in SVG: thin lines between
//! cells, thick ones around boxes and jigsaw regions, givens in bold black,
//! and per command what it found: `unique`'s solution (digits in blue), or
//! its two solutions with the cells where they differ shaded red and both
//! digits shown; `candidates`' digits in small type, each open cell shaded
//! by how many digits it keeps (a heat map: pale for two, dark for many).

use std::fmt::Write as _;

use crate::count::plan::{Candidates, Verdict};
use crate::model::{push_symbol, Cell, Digit, Puzzle};

/// Pixels a cell.
const CELL: usize = 48;
/// The margin around the grid, and the height of the caption under it.
const MARGIN: usize = 12;
const CAPTION: usize = 30;

/// What a cell shows.
#[derive(Clone, Debug, Default)]
struct View {
    /// Large text: a given (bold) or a solution's digit.
    big: Option<(String, bool)>,
    /// Small text: candidates, or the two digits where solutions differ.
    small: Option<String>,
    /// A fill colour.
    fill: Option<String>,
}

/// `unique`'s picture: the givens, and the solution or the two solutions.
pub fn verdict(puzzle: &Puzzle, verdict: &Verdict) -> String {
    let n = puzzle.side();
    let mut views = givens(puzzle);
    let caption = match verdict {
        Verdict::Unique(grid) => {
            for (i, view) in views.iter_mut().enumerate() {
                if view.big.is_none() {
                    view.big = Some((symbol(puzzle, grid.get(Cell::new(i / n, i % n))), false));
                }
            }
            "unique: the solution in blue".to_owned()
        }
        Verdict::Multiple(a, b) => {
            let differ = verdict.differing_cells();
            for (i, view) in views.iter_mut().enumerate() {
                let cell = Cell::new(i / n, i % n);
                if differ.contains(&cell) {
                    view.small = Some(format!("{} / {}", symbol(puzzle, a.get(cell)), symbol(puzzle, b.get(cell))));
                    view.fill = Some("#f4b6b6".into());
                } else if view.big.is_none() {
                    view.big = Some((symbol(puzzle, a.get(cell)), false));
                }
            }
            format!("multiple: two solutions differ in the {} red cells (first / second)", differ.len())
        }
        Verdict::None => "none: no solution".to_owned(),
        Verdict::Undecided => "undecided: stopped before an answer".to_owned(),
    };
    draw(puzzle, &views, &caption)
}

/// `candidates`' picture: each open cell's digits, shaded by how many.
pub fn candidates(puzzle: &Puzzle, found: &Candidates) -> String {
    let n = puzzle.side();
    let mut views = givens(puzzle);
    let mut open = 0;
    for (i, view) in views.iter_mut().enumerate() {
        if view.big.is_some() {
            continue;
        }
        let digits: Vec<Digit> =
            (1..=found.digits as Digit).filter(|d| found.possible[i] >> (d - 1) & 1 == 1).collect();
        match digits.len() {
            0 => view.fill = Some("#555555".into()),
            1 => view.big = Some((symbol(puzzle, digits[0]), false)),
            k => {
                open += 1;
                let mut text = String::new();
                for &d in &digits {
                    push_symbol(&mut text, d - 1 + puzzle.first_value());
                }
                view.small = Some(text);
                // Heat: pale orange for two digits, dark for all of them.
                let t = (k - 1) as f64 / (n.max(2) - 1) as f64;
                let channel = |from: f64, to: f64| (from + (to - from) * t).round() as u8;
                view.fill = Some(format!(
                    "#{:02x}{:02x}{:02x}",
                    channel(255.0, 230.0),
                    channel(236.0, 97.0),
                    channel(204.0, 1.0)
                ));
            }
        }
    }
    draw(puzzle, &views, &format!("candidates: {open} open cells, shaded by how many digits each keeps"))
}

/// The givens, bold.
fn givens(puzzle: &Puzzle) -> Vec<View> {
    puzzle
        .cells()
        .map(|cell| View { big: puzzle.given(cell).map(|d| (symbol(puzzle, d), true)), ..View::default() })
        .collect()
}

fn symbol(puzzle: &Puzzle, d: Digit) -> String {
    let mut text = String::new();
    push_symbol(&mut text, d - 1 + puzzle.first_value());
    text
}

fn draw(puzzle: &Puzzle, views: &[View], caption: &str) -> String {
    let n = puzzle.side();
    let size = n * CELL;
    // Wide enough for the caption (about 8 px a character at 14 px).
    let width = (size + 2 * MARGIN).max(caption.chars().count() * 8 + 2 * MARGIN);
    let height = size + 2 * MARGIN + CAPTION;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(svg, r#"<rect width="{width}" height="{height}" fill="white"/>"#);
    let at = |k: usize| MARGIN + k * CELL;
    for (i, view) in views.iter().enumerate() {
        let (x, y) = (at(i % n), at(i / n));
        if let Some(fill) = &view.fill {
            let _ = writeln!(svg, r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#);
        }
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        if let Some((text, given)) = &view.big {
            let (weight, colour) = if *given { ("bold", "black") } else { ("normal", "#1f4fbf") };
            let _ = writeln!(
                svg,
                r#"<text x="{cx}" y="{}" font-size="{}" font-weight="{weight}" fill="{colour}" text-anchor="middle">{text}</text>"#,
                cy + CELL * 3 / 16,
                CELL / 2
            );
        }
        if let Some(text) = &view.small {
            // Up to five characters a line, in small type.
            let chars: Vec<char> = text.chars().collect();
            let lines: Vec<String> = chars.chunks(5).map(|c| c.iter().collect()).collect();
            let size = (CELL / 4).max(8);
            let top = cy + size / 3 - (lines.len() - 1) * size / 2;
            for (k, line) in lines.iter().enumerate() {
                let _ = writeln!(
                    svg,
                    r##"<text x="{cx}" y="{}" font-size="{size}" fill="#333333" text-anchor="middle">{line}</text>"##,
                    top + k * size
                );
            }
        }
    }
    // Thin lines between all cells, then thick ones where regions change.
    let region = puzzle.regions();
    let any_region = region.iter().any(Option::is_some);
    for k in 0..=n {
        let (p, from, to) = (at(k), at(0), at(n));
        let _ = writeln!(svg, r##"<line x1="{p}" y1="{from}" x2="{p}" y2="{to}" stroke="#999999" stroke-width="1"/>"##);
        let _ = writeln!(svg, r##"<line x1="{from}" y1="{p}" x2="{to}" y2="{p}" stroke="#999999" stroke-width="1"/>"##);
    }
    let thick = |svg: &mut String, x1: usize, y1: usize, x2: usize, y2: usize| {
        let _ = writeln!(
            svg,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="black" stroke-width="3" stroke-linecap="square"/>"#
        );
    };
    for r in 0..n {
        for c in 0..n {
            let here = region[r * n + c];
            if c + 1 < n && any_region && (here != region[r * n + c + 1] || here.is_none()) {
                thick(&mut svg, at(c + 1), at(r), at(c + 1), at(r + 1));
            }
            if r + 1 < n && any_region && (here != region[(r + 1) * n + c] || here.is_none()) {
                thick(&mut svg, at(c), at(r + 1), at(c + 1), at(r + 1));
            }
        }
    }
    let _ = writeln!(
        svg,
        r#"<rect x="{MARGIN}" y="{MARGIN}" width="{size}" height="{size}" fill="none" stroke="black" stroke-width="3"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{MARGIN}" y="{}" font-size="14" fill="black">{}</text>"#,
        size + MARGIN + CAPTION - 8,
        escape(caption)
    );
    svg.push_str("</svg>\n");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
