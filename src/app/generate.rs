//! `satsudoku generate`: puzzles with exactly one solution from a layout
//! and its rules ([`satsudoku::setter::generate`]), each checked unique and
//! minimal, written in the input's format: a givens line, the `puzzle`
//! format with the new givens, f-puzzles JSON with its share link, or a
//! Takuzu grid.

use std::io::{self, BufWriter, Write};
use std::time::Instant;

use satsudoku::count::enumerate::Prober;
use satsudoku::count::plan::{Counter, Plan, Verdict};
use satsudoku::count::{self, many, CountError};
use satsudoku::encode::Encoding;
use satsudoku::model::{push_symbol, Cell, Puzzle};
use satsudoku::named::Named;
use satsudoku::parse::{self, fpuzzles, Format};
use satsudoku::setter::generate::{self, Generated, Symmetry};
use satsudoku::setter::rate::{Level, Rating};

use super::input::{read_text, Reading, Source};
use super::{AppError, Status};
use crate::cli::{GenerateArgs, GenerateOutput};
use crate::diag;

/// `generate`'s options, resolved once.
pub struct Settings {
    source: Source,
    reading: Reading,
    count: usize,
    seed: u64,
    symmetry: Symmetry,
    levels: Option<Vec<Level>>,
    scores: Option<(u64, u64)>,
    max_givens: Option<usize>,
    tries: u64,
    jobs: usize,
    output: GenerateOutput,
    progress: bool,
}

impl Settings {
    pub fn resolve(args: &GenerateArgs) -> Result<Settings, AppError> {
        let levels = match &args.level {
            None => None,
            Some(list) => Some(
                list.split(',')
                    .map(|name| {
                        Level::from_name(name.trim()).ok_or_else(|| {
                            AppError::Usage(format!("--level: expected {}, found {name:?}", Level::names()))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let scores = args.score.as_deref().map(parse_range).transpose().map_err(AppError::Usage)?;
        Ok(Settings {
            source: Source::from_arg(args.file.as_deref()),
            reading: Reading { format: args.format, options: args.shape.options() },
            count: args.count,
            seed: args.seed,
            symmetry: args.symmetry,
            levels,
            scores,
            max_givens: args.max_givens,
            tries: args.tries.max(1),
            jobs: args.jobs.map_or_else(count::all_cores, usize::from),
            output: args.output,
            progress: super::progress::resolve(args.progress),
        })
    }

    /// Whether a rating is wanted at all.
    fn rates(&self) -> bool {
        self.levels.is_some() || self.scores.is_some()
    }

    fn accepts(&self, rating: &Rating) -> bool {
        let level_ok = self.levels.as_ref().is_none_or(|levels| levels.contains(&rating.level()));
        let score_ok = self.scores.is_none_or(|(lo, hi)| (lo..=hi).contains(&rating.score()));
        level_ok && score_ok
    }
}

/// `LO..HI`, either end left out.
fn parse_range(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--score: expected a range such as 10..24, 50.. or ..9, found {text:?}");
    let (lo, hi) = text.split_once("..").ok_or_else(bad)?;
    let lo = if lo.trim().is_empty() { 0 } else { lo.trim().parse().map_err(|_| bad())? };
    let hi = if hi.trim().is_empty() { u64::MAX } else { hi.trim().parse().map_err(|_| bad())? };
    if lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

/// How the puzzles are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Writer {
    Givens,
    Puzzle,
    Fpuzzles,
    Link,
    Takuzu,
}

/// A worker's result for one puzzle asked for: the puzzle, its rating if
/// asked, and the tries it took; `None` when every try failed.
type Made = Result<Option<(Generated, Option<Rating>, u64)>, CountError>;

pub fn run(settings: Settings) -> Result<Status, AppError> {
    super::catch_interrupts();
    let text = read_text(&settings.source)?;
    let format = match settings.reading.format {
        Some(format) => format,
        None => satsudoku::parse::detect(&text.text, &text.name, settings.reading.options)?,
    };
    let layout = satsudoku::parse::parse_with(&text.text, &text.name, Some(format), settings.reading.options)?;
    super::tasks::square_only(&layout, &text.name, "generate")?;
    let writer = match (settings.output, format) {
        (GenerateOutput::Givens, _) => Writer::Givens,
        (GenerateOutput::Puzzle, Format::Puzzle) | (GenerateOutput::Auto, Format::Puzzle) => Writer::Puzzle,
        (GenerateOutput::Fpuzzles, Format::Fpuzzles) => Writer::Fpuzzles,
        (GenerateOutput::Link, Format::Fpuzzles) | (GenerateOutput::Auto, Format::Fpuzzles) => Writer::Link,
        (GenerateOutput::Auto, Format::Takuzu) => Writer::Takuzu,
        (GenerateOutput::Auto, _) => Writer::Givens,
        (asked, _) => {
            return Err(AppError::Usage(format!(
                "--output {}: generate writes a {} input back with new givens; this input is {} (use --output givens)",
                match asked {
                    GenerateOutput::Puzzle => "puzzle",
                    _ => "fpuzzles",
                },
                match asked {
                    GenerateOutput::Puzzle => "`puzzle`",
                    _ => "f-puzzles",
                },
                format.name()
            )))
        }
    };
    if writer == Writer::Givens && !matches!(format, Format::Givens | Format::Grid) {
        diag!("satsudoku: {}: writing the givens only; the rules stay those of the input", text.name);
    }
    if layout.givens().next().is_some() {
        let mut counter = Counter::new(Plan::new(Encoding::default()));
        if matches!(counter.judge(&layout)?, Verdict::Unique(_)) {
            diag!("satsudoku: {}: already unique with its own givens: each puzzle is the input (clear givens to vary them)", text.name);
        }
    }
    let mut plan = Plan::new(Encoding::default());
    plan.limits.interrupt = Some(&super::INTERRUPTED);
    let settings = &settings;
    // One puzzle asked for: its tries, each a new solution grid.
    let make = |counter: &mut Counter, prober: &mut Prober, index: usize| -> Made {
        let mut rng = generate::rng_for(settings.seed, index as u64);
        for tried in 1..=settings.tries {
            if super::interrupted() {
                return Err(CountError::Stopped);
            }
            let Some(solution) = generate::random_solution(prober, &layout, &mut rng) else { continue };
            let start = Instant::now();
            let Some(made) = generate::puzzle_from(counter, &layout, &solution, settings.symmetry, &mut rng, start)?
            else {
                continue;
            };
            let givens = made.puzzle.givens().count();
            if settings.max_givens.is_some_and(|k| givens > k) {
                continue;
            }
            let rating = if settings.rates() {
                let Some(rating) = satsudoku::setter::rate::rate(prober, &made.puzzle, &made.solution) else {
                    continue;
                };
                if !settings.accepts(&rating) {
                    continue;
                }
                Some(rating)
            } else {
                None
            };
            // The check every puzzle passes: unique and minimal, judged as
            // `unique` and `minimal` judge.
            let unique = matches!(counter.judge_since(&made.puzzle, start)?, Verdict::Unique(_));
            let minimal = generate::is_minimal(counter, &layout, &made.puzzle, settings.symmetry, start)?;
            if !unique || minimal != Some(true) {
                return Err(CountError::NotASolution(
                    "a generated puzzle failed its uniqueness or minimality check".into(),
                ));
            }
            return Ok(Some((made, rating, tried)));
        }
        Ok(None)
    };
    let work = |counter: &mut Counter, index: usize| -> Made {
        let made = super::minimal::with_prober(&layout, |prober| make(counter, prober, index));
        made.unwrap_or_else(|| Err(CountError::Unsupported("generate: the layout has no direct digit encoding".into())))
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut missing = 0;
    let mut status = Status::Done;
    // What the batch took: puzzles made, their givens (least, most, in
    // all) and tries in all.
    let (mut made_count, mut givens_range, mut givens_total, mut tries_total) = (0usize, (usize::MAX, 0), 0, 0);
    let started = Instant::now();
    many::for_each(settings.count, settings.jobs, &plan, work, |index, made: Made| {
        let made = match made {
            Err(CountError::Stopped) => {
                status = Status::LowerBound;
                return Ok(());
            }
            made => made?,
        };
        let Some((made, rating, tried)) = made else {
            missing += 1;
            diag!("satsudoku: puzzle {}: none found in {} tries", index + 1, settings.tries);
            return Ok(());
        };
        let givens = made.puzzle.givens().count();
        if settings.count == 1 {
            let note = rating.map(|r| format!(" (rated {} {})", r.score(), r.level().name())).unwrap_or_default();
            diag!("satsudoku: {givens} givens after {tried} tr{}{note}", if tried == 1 { "y" } else { "ies" });
        }
        made_count += 1;
        givens_range = (givens_range.0.min(givens), givens_range.1.max(givens));
        givens_total += givens;
        tries_total += tried;
        if settings.progress {
            super::progress::batch(index + 1, settings.count, "made", started.elapsed());
        }
        // A Takuzu grid or `puzzle` file after the first is after a
        // separator line, so that the whole output reads back as a
        // collection.
        let separator = if made_count > 1 { format!("{}\n", parse::SEPARATOR) } else { String::new() };
        let written = match writer {
            Writer::Givens => writeln!(out, "{}", givens_line(&made.puzzle)),
            Writer::Takuzu => writeln!(out, "{separator}{}", takuzu_rows(&made.puzzle)),
            Writer::Puzzle => {
                let header =
                    format!("# satsudoku generate: puzzle {} of {}, seed {}", index + 1, settings.count, settings.seed);
                writeln!(out, "{separator}{header}\n{}", native(&text.text, &made.puzzle))
            }
            Writer::Fpuzzles | Writer::Link => {
                let json = fpuzzles_json(&text.text, &text.name, &made.puzzle)?;
                if writer == Writer::Link {
                    writeln!(out, "https://www.f-puzzles.com/?load={}", lz_str::compress_to_base64(&json))
                } else {
                    writeln!(out, "{json}")
                }
            }
        };
        written.map_err(AppError::write("stdout"))
    })?;
    out.flush().map_err(AppError::write("stdout"))?;
    super::progress::clear_phases();
    if settings.count > 1 && made_count > 0 {
        diag!(
            "satsudoku: {made_count} puzzles made in {:.2} s: {} to {} givens, {:.1} on average; {:.2} tries each",
            started.elapsed().as_secs_f64(),
            givens_range.0,
            givens_range.1,
            givens_total as f64 / made_count as f64,
            tries_total as f64 / made_count as f64
        );
    }
    if super::interrupted() {
        diag!("satsudoku: interrupted: the puzzles printed are all there is");
        return Ok(Status::LowerBound);
    }
    if missing > 0 {
        return Err(AppError::Usage(format!(
            "{missing} of {} puzzles not found in {} tries each: relax --level, --score or --max-givens, or raise --tries",
            settings.count, settings.tries
        )));
    }
    Ok(status)
}

/// The givens on one line, `.` for open cells, in the puzzle's values.
fn givens_line(puzzle: &Puzzle) -> String {
    let givens: Vec<_> = puzzle.givens().collect();
    let style = satsudoku::report::PrintStyle::Grid.for_values_from(puzzle.first_value());
    satsudoku::report::givens_line(puzzle.side(), &givens, style)
}

/// A Takuzu grid: rows of `0`, `1` and `.`, then a blank line.
fn takuzu_rows(puzzle: &Puzzle) -> String {
    let n = puzzle.side();
    let mut text = String::new();
    for r in 0..n {
        for c in 0..n {
            text.push(match puzzle.given(Cell::new(r, c)) {
                Some(1) => '0',
                Some(_) => '1',
                None => '.',
            });
        }
        text.push('\n');
    }
    text
}

/// The input in the native format with its `givens` block replaced by the
/// new givens (added after the `size` line when it has none).
fn native(text: &str, puzzle: &Puzzle) -> String {
    let n = puzzle.side();
    let mut rows = String::from("givens\n");
    for r in 0..n {
        for c in 0..n {
            match puzzle.given(Cell::new(r, c)) {
                Some(d) => push_symbol(&mut rows, d),
                None => rows.push('.'),
            }
        }
        rows.push('\n');
    }
    let word = |line: &str| line.split('#').next().unwrap_or("").split_whitespace().next().map(str::to_owned);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut placed = false;
    while i < lines.len() {
        let line = lines[i];
        match word(line).as_deref() {
            Some("givens") if !placed => {
                out.push_str(&rows);
                placed = true;
                // Skip the block's rows: `n` lines with content.
                let mut left = n;
                i += 1;
                while i < lines.len() && left > 0 {
                    if word(lines[i]).is_some() {
                        left -= 1;
                    }
                    i += 1;
                }
                continue;
            }
            Some("size") if !placed && !lines.iter().any(|l| word(l).as_deref() == Some("givens")) => {
                out.push_str(line);
                out.push('\n');
                out.push_str(&rows);
                placed = true;
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
        i += 1;
    }
    out
}

/// The input's f-puzzles JSON with the new givens, on one line.
fn fpuzzles_json(text: &str, name: &str, puzzle: &Puzzle) -> Result<String, AppError> {
    let json = fpuzzles::json_text(text, name)?;
    let mut value: serde_json::Value =
        serde_json::from_str(&json).map_err(|e| AppError::Usage(format!("{name}: {e}")))?;
    for (cell, digit) in puzzle.givens() {
        if let Some(object) =
            value.pointer_mut(&format!("/grid/{}/{}", cell.row, cell.col)).and_then(|v| v.as_object_mut())
        {
            object.insert("value".into(), serde_json::Value::from(digit));
            object.insert("given".into(), serde_json::Value::Bool(true));
        }
    }
    Ok(value.to_string())
}
