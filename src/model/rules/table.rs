//! The rows of the rule table: each rule's names, arguments, meaning,
//! example and builder (see [`super::RULES`]).

use super::build::*;
use super::context::{marker, Marker, Negative};
use super::{Rule, RuleError, Shape, Value};
use crate::model::{Cell, Constraint, Digit, Predicate};

/// A row of the table.
#[allow(clippy::too_many_arguments)]
const fn rule(
    keyword: &'static str,
    fpuzzles: Option<&'static str>,
    shape: Shape,
    value: Value,
    meaning: &'static str,
    example: &'static str,
    build: super::Build,
) -> Rule {
    Rule { keyword, fpuzzles, fpuzzles_value: None, shape, value, meaning, example, build }
}

/// The table (see [`super::RULES`]).
pub(super) const RULES: &[Rule] = &[
    rule(
        "diagonal+",
        Some("diagonal+"),
        Shape::Whole,
        Value::No,
        "The diagonal from bottom left to top right holds different digits.",
        "",
        |p, _, _| {
            let n = p.grid_side();
            p.add_group((0..n).map(|i| Cell::new(n - 1 - i, i)).collect()).map_err(RuleError::from)
        },
    ),
    rule(
        "diagonal-",
        Some("diagonal-"),
        Shape::Whole,
        Value::No,
        "The diagonal from top left to bottom right holds different digits.",
        "",
        |p, _, _| {
            let n = p.grid_side();
            p.add_group((0..n).map(|i| Cell::new(i, i)).collect()).map_err(RuleError::from)
        },
    ),
    rule(
        "antiknight",
        Some("antiknight"),
        Shape::Whole,
        Value::No,
        "Cells a chess knight's move apart hold different digits.",
        "",
        |p, _, _| relate_all(p, &pairs_at(p.shape(), &KNIGHT), Predicate::NotEqual),
    ),
    rule(
        "antitaxicab",
        None,
        Shape::Whole,
        Value::No,
        "Two cells a taxicab distance D apart (rows plus columns) do not both hold D (ISS's AntiTaxicab).",
        "",
        |p, _, _| anti_taxicab(p),
    ),
    rule(
        "connected-values",
        None,
        Shape::Names,
        Value::No,
        "The cells holding one of the digits form one region, not empty, orthogonally connected, of the size if one follows `size` (ISS's ConnectedValues).",
        "1 2 3 size 27",
        |p, a, _| connected_values(p, a),
    ),
    rule(
        "global-entropy",
        None,
        Shape::Whole,
        Value::No,
        "Every 2x2 square holds a low, a middle and a high digit (1-3, 4-6, 7-9 on 9x9; ISS's GlobalEntropy).",
        "",
        |p, _, _| global_windows(p, entropy_windows(p.digits())),
    ),
    rule(
        "global-modular",
        None,
        Shape::Whole,
        Value::No,
        "Every 2x2 square holds a digit of each residue modulo 3 (1 4 7, 2 5 8, 3 6 9; ISS's GlobalMod).",
        "",
        |p, _, _| global_windows(p, modular_windows(p.digits())),
    ),
    rule(
        "dutch-flatmates",
        None,
        Shape::Whole,
        Value::No,
        "Down each column, each middle digit (5 on 9x9) has a 1 directly above or the largest digit directly below.",
        "",
        |p, _, _| dutch_flatmates(p),
    ),
    rule(
        "antiking",
        Some("antiking"),
        Shape::Whole,
        Value::No,
        "Cells a chess king's move apart hold different digits.",
        "",
        |p, _, _| relate_all(p, &pairs_at(p.shape(), &KING_DIAGONAL), Predicate::NotEqual),
    ),
    rule(
        "nonconsecutive",
        Some("nonconsecutive"),
        Shape::Whole,
        Value::No,
        "Orthogonal neighbours without a Kropki dot (white or black) do not hold consecutive digits.",
        "",
        |_, _, ctx| {
            ctx.nonconsecutive = true;
            Ok(())
        },
    ),
    rule(
        "windoku",
        None,
        Shape::Whole,
        Value::No,
        "Four extra 3x3 regions (9x9 only), inset one cell from the box corners, hold different digits.",
        "",
        |p, _, _| {
            if p.grid_side() != 9 {
                return Err("windoku needs a 9 x 9 grid".into());
            }
            for (r0, c0) in itertools::iproduct!([1, 5], [1, 5]) {
                p.add_group(itertools::iproduct!(r0..r0 + 3, c0..c0 + 3).map(|(r, c)| Cell::new(r, c)).collect())
                    .map_err(RuleError::from)?;
            }
            Ok(())
        },
    ),
    rule(
        "disjoint",
        Some("disjointgroups"),
        Shape::Whole,
        Value::No,
        "Cells in the same position of their boxes hold different digits.",
        "",
        |p, _, _| {
            let n = p.grid_side();
            let (h, w) = p.boxes().ok_or("disjoint groups need boxes")?;
            for (i, j) in itertools::iproduct!(0..h, 0..w) {
                let cells = itertools::iproduct!(0..n / h, 0..n / w).map(|(br, bc)| Cell::new(br * h + i, bc * w + j));
                p.add_group(cells.collect()).map_err(RuleError::from)?;
            }
            Ok(())
        },
    ),
    rule(
        "extra",
        Some("extraregion"),
        Shape::Cells { min: 1 },
        Value::No,
        "The cells hold different digits.",
        "r1c1 r1c2 r2c1",
        |p, a, _| p.add_group(a.cells.clone()).map_err(RuleError::from),
    ),
    rule(
        "killer",
        Some("killercage"),
        Shape::Cells { min: 1 },
        Value::Optional,
        "A cage: its cells hold different digits, which sum to N if given; cages do not overlap.",
        "r1c1 r1c2 = 3",
        |p, a, ctx| killer(p, ctx, a),
    ),
    rule(
        "little-killer",
        Some("littlekillersum"),
        Shape::Cells { min: 1 },
        Value::Required,
        "The cells (a diagonal) sum to N; digits may repeat.",
        "r1c2 r2c1 = 5",
        |p, a, _| sum(p, &a.cells, required(a)?),
    ),
    rule(
        "arrow",
        Some("arrow"),
        Shape::CircleLine,
        Value::No,
        "The line's digits sum to the circle's (two or more circle cells read as a number).",
        "r1c1 : r1c2 r1c3",
        |p, a, _| arrow(p, &a.cells, &a.second),
    ),
    rule(
        "thermo",
        Some("thermometer"),
        Shape::Line { min: 2 },
        Value::No,
        "Digits rise strictly from the bulb (the first cell).",
        "r1c1 r1c2 r1c3",
        |p, a, _| along(p, &a.cells, Predicate::Less),
    ),
    rule(
        "slow-thermo",
        Some("slowthermometer"),
        Shape::Line { min: 2 },
        Value::No,
        "Digits do not fall from the bulb (the first cell).",
        "r1c1 r1c2 r1c3",
        |p, a, _| along(p, &a.cells, Predicate::LessOrEqual),
    ),
    rule(
        "greater",
        None,
        Shape::Pair,
        Value::No,
        "The first cell's digit is greater than the second's.",
        "r1c1 r1c2",
        |p, a, _| p.add_relation(a.cells[1], a.cells[0], Predicate::Less).map_err(RuleError::from),
    ),
    rule(
        "white",
        Some("difference"),
        Shape::Pair,
        Value::Optional,
        "A white Kropki dot: the digits differ by N (1 if not given).",
        "r1c1 r1c2",
        |p, a, ctx| marker(p, ctx, a, Marker::White(positive(a, 1)?)),
    ),
    rule(
        "black",
        Some("ratio"),
        Shape::Pair,
        Value::Optional,
        "A black Kropki dot: one digit is N times the other (2 if not given).",
        "r1c1 r1c2",
        |p, a, ctx| marker(p, ctx, a, Marker::Black(positive(a, 2)?)),
    ),
    Rule {
        fpuzzles_value: Some("X"),
        ..rule("x", Some("xv"), Shape::Pair, Value::No, "An X: the digits sum to 10.", "r1c1 r1c2", |p, a, ctx| {
            marker(p, ctx, a, Marker::Sum(10))
        })
    },
    Rule {
        fpuzzles_value: Some("V"),
        ..rule("v", Some("xv"), Shape::Pair, Value::No, "A V: the digits sum to 5.", "r1c1 r1c2", |p, a, ctx| {
            marker(p, ctx, a, Marker::Sum(5))
        })
    },
    rule(
        "sum",
        Some("sum"),
        Shape::Pair,
        Value::Required,
        "A sum dot: the digits sum to N.",
        "r1c1 r1c2 = 7",
        |p, a, ctx| marker(p, ctx, a, Marker::Sum(positive(a, 0)?)),
    ),
    rule("odd", Some("odd"), Shape::EachCell, Value::No, "The cells hold odd digits.", "r1c1", |p, a, _| {
        parity(p, &a.cells, true)
    }),
    rule("even", Some("even"), Shape::EachCell, Value::No, "The cells hold even digits.", "r1c1", |p, a, _| {
        parity(p, &a.cells, false)
    }),
    rule(
        "given",
        None,
        Shape::EachCell,
        Value::Required,
        "Each cell holds the digit (the value, on a grid of values from 0): a given as a rule line (inside an `either` block, a given of the alternative).",
        "r1c1 = 5",
        |p, a, _| {
            let (first, shift) = (i64::from(p.first_value()), p.digit_shift());
            let last = first + p.digits() as i64 - 1;
            let value = a.value.filter(|v| (first..=last).contains(v)).ok_or_else(|| {
                RuleError::value(format!("expected a value from {first} to {last}, found {}", a.value.unwrap_or(0)))
            })?;
            let d = value + shift;
            let allowed = 1u64 << (d - 1);
            a.cells.iter().try_for_each(|&cell| p.add_constraint(Constraint::Digits { cell, allowed })).map_err(RuleError::from)
        },
    ),
    rule(
        "minimum",
        Some("minimum"),
        Shape::EachCell,
        Value::No,
        "Each cell is less than its orthogonal neighbours that are not minimum cells.",
        "r1c1",
        |_, a, ctx| {
            ctx.minimum.extend(&a.cells);
            Ok(())
        },
    ),
    rule(
        "maximum",
        Some("maximum"),
        Shape::EachCell,
        Value::No,
        "Each cell is greater than its orthogonal neighbours that are not maximum cells.",
        "r1c1",
        |_, a, ctx| {
            ctx.maximum.extend(&a.cells);
            Ok(())
        },
    ),
    rule(
        "palindrome",
        Some("palindrome"),
        Shape::Line { min: 2 },
        Value::No,
        "The line reads the same from either end.",
        "r1c1 r1c2 r2c2",
        |p, a, _| {
            let k = a.cells.len();
            (0..k / 2)
                .try_for_each(|i| p.add_relation(a.cells[i], a.cells[k - 1 - i], Predicate::Equal))
                .map_err(RuleError::from)
        },
    ),
    rule(
        "clone",
        Some("clone"),
        Shape::Copies,
        Value::No,
        "Each cell holds the digit of its copy, position by position.",
        "r1c1 r1c2 : r3c3 r3c4",
        |p, a, _| {
            a.cells
                .iter()
                .zip(&a.second)
                .try_for_each(|(&x, &y)| p.add_relation(x, y, Predicate::Equal))
                .map_err(RuleError::from)
        },
    ),
    rule(
        "whisper",
        Some("whispers"),
        Shape::Line { min: 2 },
        Value::Optional,
        "Neighbours on the line differ by at least N (half the side, rounded up, if not given: 5 on 9x9; 4 is Dutch).",
        "r1c1 r1c2 r1c3",
        |p, a, _| {
            let min = positive(a, p.grid_side().div_ceil(2) as u32)?;
            along(p, &a.cells, Predicate::DifferenceAtLeast { min })
        },
    ),
    rule(
        "renban",
        Some("renban"),
        Shape::Line { min: 1 },
        Value::No,
        "The line holds different, consecutive digits in any order.",
        "r1c1 r1c2 r1c3",
        |p, a, _| {
            p.add_constraint(Constraint::Consecutive { cells: a.cells.clone() }).map_err(RuleError::from)?;
            p.add_group(a.cells.clone()).map_err(RuleError::from)
        },
    ),
    rule(
        "between",
        Some("betweenline"),
        Shape::Line { min: 2 },
        Value::No,
        "Each cell inside the line lies strictly between the two ends' digits.",
        "r1c1 r1c2 r1c3",
        |p, a, _| {
            let cells = &a.cells;
            let ends = (cells[0], cells[cells.len() - 1]);
            p.add_constraint(Constraint::Between { ends, inner: cells[1..cells.len() - 1].to_vec() })
                .map_err(RuleError::from)
        },
    ),
    rule(
        "quadruple",
        Some("quadruple"),
        Shape::Quad,
        Value::No,
        "The 2x2 holds each listed digit (as often as it is listed).",
        "r1c1 1 2",
        |p, a, _| {
            let n = p.grid_side();
            let mut digits = Vec::with_capacity(a.list.len());
            for d in &a.list {
                match d.parse::<Digit>() {
                    Ok(d) if (1..=n).contains(&usize::from(d)) => digits.push(d),
                    _ => return Err(format!("expected a digit 1..{n}, found {d:?}").into()),
                }
            }
            if digits.len() > 4 {
                return Err(format!("a quadruple lists at most 4 digits, found {}", digits.len()).into());
            }
            p.add_constraint(Constraint::Contains { cells: a.cells.clone(), digits }).map_err(RuleError::from)
        },
    ),
    rule(
        "negative",
        Some("negative"),
        Shape::Names,
        Value::No,
        "Orthogonal neighbours without a marker of the kind obey its negative: `white` (f-puzzles `difference`): \
         no white dot's difference (none without a white dot, as Rangsk's solver reads it; `nonconsecutive` bans \
         a difference of 1); `black` (`ratio`): no black dot's ratio (2 if there is none); `x`, `v` \
         (`xv`: both): no sum of 10, 5; `sum`: no sum dot's sum. Kropki dots spare a pair from the first two, \
         X, V and sum dots from the rest.",
        "white black xv",
        |_, a, ctx| {
            for name in &a.list {
                ctx.negatives.extend_from_slice(match name.as_str() {
                    "white" | "difference" => &[Negative::Difference],
                    "black" | "ratio" => &[Negative::Ratio],
                    "x" => &[Negative::X],
                    "v" => &[Negative::V],
                    "xv" => &[Negative::X, Negative::V],
                    "sum" => &[Negative::Sum],
                    other => {
                        return Err(format!(
                            "unknown negative constraint {other:?}: expected white (difference), black (ratio), x, v, xv or sum"
                        )
                        .into())
                    }
                });
            }
            Ok(())
        },
    ),
    rule(
        "xsum",
        Some("xsum"),
        Shape::Outside,
        Value::Required,
        "An x-sum clue outside the grid: the first X cells it looks along sum to N, X the first cell's digit.",
        "r0c1 = 10",
        |p, a, _| xsum(p, a),
    ),
    rule(
        "sandwich",
        Some("sandwichsum"),
        Shape::Outside,
        Value::Required,
        "A sandwich clue outside the grid: the cells between 1 and the largest digit on its line sum to N.",
        "r1c0 = 10",
        |p, a, _| sandwich(p, a),
    ),
    rule(
        "skyscraper",
        Some("skyscraper"),
        Shape::Outside,
        Value::Required,
        "A skyscraper clue outside the grid: N cells of its line are taller than every cell before them.",
        "r0c1 = 3",
        |p, a, _| skyscraper(p, a),
    ),
    rule(
        "full-rank",
        None,
        Shape::Outside,
        Value::Required,
        "A full rank clue (ISS's FullRank): the rows and columns, each read both ways, ranked by their digits from the lowest (1); the line read from the clue has rank N, one more than the readings below it. Ties: `full-rank-ties`.",
        "r0c1 = 3",
        full_rank,
    ),
    rule(
        "full-rank-ties",
        None,
        Shape::Names,
        Value::No,
        "When full rank's readings may tie: `none` (no two alike, clued or not), `only-unclued` (the default: a clued reading ties with none) or `any` (tied readings share a rank).",
        "none",
        |_, a, ctx| full_rank_ties(a, ctx),
    ),
    rule(
        "numbered-room",
        None,
        Shape::Outside,
        Value::Required,
        "A numbered room clue outside the grid: the line's first digit D says the clue's digit is in the line's cell D.",
        "r0c1 = 3",
        |p, a, _| numbered_room(p, a),
    ),
    rule(
        "hidden-skyscraper",
        None,
        Shape::Outside,
        Value::Required,
        "A hidden skyscraper clue outside the grid: the first cell lower than one before it holds the clue's digit.",
        "r0c1 = 3",
        |p, a, _| hidden_skyscraper(p, a),
    ),
    rule(
        "sum-line",
        None,
        Shape::Line { min: 1 },
        Value::Required,
        "The line splits into consecutive segments, each summing to the number (ISS's SumLine).",
        "r1c1 r1c2 r1c3 = 10",
        |p, a, _| sum_line(p, a, false),
    ),
    rule(
        "sum-loop",
        None,
        Shape::Line { min: 2 },
        Value::Required,
        "The cells are a loop (the last next to the first); read round from some cell, it splits into segments, each summing to the number (ISS's SumLine with LOOP).",
        "r1c1 r1c2 r2c2 r2c1 = 10",
        |p, a, _| sum_line(p, a, true),
    ),
    rule(
        "rellik",
        None,
        Shape::Cells { min: 1 },
        Value::Required,
        "A cage of different digits, no set of one or more of which sums to the number (ISS's RellikCage).",
        "r1c1 r1c2 = 5",
        |p, a, _| rellik(p, a),
    ),
    rule(
        "equality-cage",
        None,
        Shape::Cells { min: 2 },
        Value::No,
        "A cage of different digits, as many even as odd and low as high, no middle digit (ISS's EqualityCage).",
        "r1c1 r1c2",
        |p, a, _| equality_cage(p, a),
    ),
    rule(
        "contain-exact",
        None,
        Shape::Cells { min: 1 },
        Value::Required,
        "The cells hold each digit of the number exactly as often as it is written there (ISS's ContainExact).",
        "r1c1 r1c2 r1c3 = 55",
        |p, a, _| contain_exact(p, a),
    ),
    rule(
        "look-and-say",
        None,
        Shape::Cells { min: 1 },
        Value::Required,
        "The number's digits in pairs (count, digit): exactly that many of each digit; 0 keeps it out (ISS's LookAndSay).",
        "r1c1 r1c2 r1c3 = 1223",
        |p, a, _| look_and_say(p, a),
    ),
    rule(
        "counting-circles",
        None,
        Shape::Cells { min: 1 },
        Value::No,
        "Each cell's digit says how many of the cells hold it (ISS's CountingCircles).",
        "r1c1 r1c2",
        |p, a, _| counting_circles(p, a),
    ),
    rule(
        "lunchbox",
        None,
        Shape::Line { min: 1 },
        Value::Required,
        "Different digits; those between the smallest and the largest, in the cells' order, sum to the number (ISS's Lunchbox).",
        "r1c1 r1c2 r1c3 = 0",
        |p, a, _| lunchbox(p, a),
    ),
    rule(
        "value-index",
        None,
        Shape::Line { min: 3 },
        Value::No,
        "The first cell's digit is on the line past the second cell, as many cells on as the second cell's digit (ISS's ValueIndexing).",
        "r1c1 r1c2 r1c3 r1c4",
        |p, a, _| value_index(p, a),
    ),
    rule(
        "count-distinct",
        None,
        Shape::Cells { min: 2 },
        Value::No,
        "The first cell's digit is how many different digits the other cells hold (ISS's CountDistinct).",
        "r1c1 r2c1 r2c2",
        |p, a, _| count_distinct(p, a),
    ),
    rule(
        "chaos-arrow",
        None,
        Shape::Runs,
        Value::Optional,
        "On a chaos construction, the first cell's digit plus N (0 or 1; 0 if not given) counts the start and, along each arm after a ':' (cells from one start), the cells in the start's region up to the first in another; no arm: the four to the edges (ISS's ChaosArrow).",
        "r1c1 : r2c2 r2c3 r2c4 : r2c2 r3c2",
        |p, a, _| region_runs(p, a, true),
    ),
    rule(
        "chaos-count",
        None,
        Shape::Runs,
        Value::Optional,
        "On a chaos construction, the first cell's digit plus N (0 or 1; 0 if not given) is how many of the cells after ':' are in the first of them's region; none: the cell's own and its eight neighbours' (ISS's ChaosCount).",
        "r1c1 : r2c2 r2c3 r3c3",
        |p, a, _| region_runs(p, a, false),
    ),
    rule(
        "region-sum",
        Some("regionsumline"),
        Shape::Line { min: 1 },
        Value::No,
        "The line's segments in each box or region (cells in none left out) have equal sums.",
        "r1c3 r1c4",
        |p, a, _| region_sum(p, a),
    ),
    rule(
        "state-machine",
        None,
        Shape::WordParts,
        Value::No,
        "The digits along the cells are a word the state machine accepts (ISS's NFA, in its serialised form); segments split at ':' are read with the symbol past the digits between two.",
        "QGo r1c1 r4c2",
        |p, a, _| state_machine(p, a),
    ),
    rule(
        "doppelganger",
        None,
        Shape::Whole,
        Value::No,
        "On an N x N grid of values 0 to N, every row, column and box holds a 0 and misses one other value, no two rows (columns, boxes) miss the same, and at each 0 the values its three miss differ (ISS's Doppelganger).",
        "",
        |p, _, _| doppelganger(p),
    ),
    rule(
        "sum-of",
        None,
        Shape::Terms,
        Value::Required,
        "The cells' values, each times its coefficient (K*r1c1; 1 if none), sum to N; digits may repeat and a cell listed twice counts twice (ISS's Sum, and its cages that overlap).",
        "r1c1 r1c2 -10*r2c1 = 5",
        |p, a, _| sum_of(p, a),
    ),
    rule(
        "regex",
        None,
        Shape::WordParts,
        Value::No,
        "The digits along each part's cells, read in order, match the pattern as a whole (ISS's Regex and its grammar: digits, any digit ., classes such as [1-3] and [^5], alternation, groups, the repeats *, +, ?, {m,n}; no spaces).",
        "1[2-4]*9 r1c1 r1c2 r1c3",
        |p, a, _| regex(p, a),
    ),
    rule(
        "pair",
        None,
        Shape::WordParts,
        Value::No,
        "Each two consecutive cells of each part hold one of the listed pairs of digits a-b, in that order (ISS's Pair, its pairs listed).",
        "1-2,2-3,3-4 r1c1 r1c2 r1c3",
        |p, a, _| pairs(p, a, false),
    ),
    rule(
        "pair-all",
        None,
        Shape::WordParts,
        Value::No,
        "Every two cells of each part hold one of the listed pairs of digits, which goes both ways (ISS's PairX).",
        "1-2,2-1,1-3,3-1 r1c1 r1c2 r2c1",
        |p, a, _| pairs(p, a, true),
    ),
    rule(
        "contain-at-least",
        None,
        Shape::Cells { min: 1 },
        Value::Required,
        "The cells hold each digit of the number at least as often as it is written there (ISS's ContainAtLeast).",
        "r1c1 r1c2 r1c3 = 12",
        |p, a, _| {
            let digits = digits_of_value(p, a)?;
            p.add_constraint(Constraint::Contains { cells: a.cells.clone(), digits }).map_err(RuleError::from)
        },
    ),
    rule(
        "equal-sums",
        None,
        Shape::Parts,
        Value::No,
        "Every part (the cells between two ':') has the same sum; digits may repeat within a part (ISS's EqualSum, any number of parts).",
        "r1c1 r1c2 : r2c1 : r3c1 r3c2",
        |p, a, _| equal_sums(p, a.parts.clone()),
    ),
    rule(
        "same-values",
        None,
        Shape::Parts,
        Value::No,
        "Every part (the cells between two ':') holds the same digits, as often each; the parts have one size (ISS's SameValues and RegionSameValues).",
        "r1c1 r1c2 : r2c3 r2c4",
        |p, a, _| {
            if a.parts.iter().any(|part| part.len() != a.parts[0].len()) {
                return Err("the parts need the same number of cells".into());
            }
            p.add_constraint(Constraint::SameValues { sets: a.parts.clone() }).map_err(RuleError::from)
        },
    ),
    rule(
        "zipper",
        Some("zipperline"),
        Shape::Line { min: 2 },
        Value::No,
        "Cells the same distance from the line's middle sum to the same total (the middle cell's digit on an odd line).",
        "r1c1 r1c2 r1c3",
        |p, a, _| zipper(p, a),
    ),
    rule(
        "double-arrow",
        Some("doublearrow"),
        Shape::Line { min: 3 },
        Value::No,
        "The two ends' digits sum to the digits between them.",
        "r1c1 r1c2 r1c3",
        |p, a, _| double_arrow(p, a),
    ),
    rule(
        "entropic",
        Some("entropicline"),
        Shape::Line { min: 2 },
        Value::No,
        "Any three cells in a row on the line hold a low, a middle and a high digit (1-3, 4-6, 7-9 on 9x9).",
        "r1c1 r1c2 r1c3",
        |p, a, _| every_nth(p, &a.cells, 3, entropy_classes(p.grid_side() as u32)),
    ),
    rule(
        "modular",
        Some("modularline"),
        Shape::Line { min: 2 },
        Value::No,
        "Any three cells in a row on the line hold digits that differ modulo 3.",
        "r1c1 r1c2 r1c3",
        |p, a, _| every_nth(p, &a.cells, 3, Predicate::ResidueDiffers { modulus: 3 }),
    ),
    rule(
        "nabner",
        Some("nabner"),
        Shape::Line { min: 2 },
        Value::No,
        "No two digits on the line are equal or consecutive.",
        "r1c1 r2c3",
        |p, a, _| every_pair(p, &a.cells, Predicate::DifferenceAtLeast { min: 2 }),
    ),
    rule(
        "lockout",
        Some("lockout"),
        Shape::Line { min: 2 },
        Value::No,
        "The ends differ by at least half the side (4 on 9x9), and no digit on the line lies between them, both included.",
        "r1c1 r2c2 r3c3",
        |p, a, _| lockout(p, a),
    ),
    rule(
        "row-index",
        Some("rowindexer"),
        Shape::Cells { min: 1 },
        Value::No,
        "Each cell's digit D says where its row number stands in its column: in row D.",
        "r1c1",
        |p, a, _| indexer(p, a, Indexer::Row),
    ),
    rule(
        "column-index",
        Some("columnindexer"),
        Shape::Cells { min: 1 },
        Value::No,
        "Each cell's digit D says where its column number stands in its row: in column D.",
        "r1c1",
        |p, a, _| indexer(p, a, Indexer::Column),
    ),
    rule(
        "box-index",
        Some("boxindexer"),
        Shape::Cells { min: 1 },
        Value::No,
        "Each cell's digit D says where its position in its box (reading order) stands in the box: at position D.",
        "r1c1",
        |p, a, _| indexer(p, a, Indexer::Box),
    ),
];
