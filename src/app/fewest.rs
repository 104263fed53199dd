//! `satsudoku fewest`: the fewest givens any puzzle of a layout needs
//! ([`satsudoku::setter::fewest`]), as facts on stdout (`fewest_givens(K).`,
//! with `--counts` one `unique_puzzles(K,N).` per number of givens) or one
//! JSON object; the grids, classes, checks and time on stderr.

use std::io::Write;

use satsudoku::report::Output;
use satsudoku::setter::fewest;

use super::input::{read_puzzle, Reading, Source};
use super::{AppError, Status};
use crate::cli::FewestArgs;
use crate::diag;

pub fn run(args: &FewestArgs) -> Result<Status, AppError> {
    let source = Source::from_arg(args.input.file.as_deref());
    let reading = Reading { format: args.input.format, options: args.input.shape.options() };
    let (name, layout, _) = read_puzzle(&source, reading)?;
    super::tasks::square_only(&layout, &name, "fewest")?;
    let found = fewest::fewest(&layout, args.counts).map_err(|e| AppError::Usage(format!("{name}: {e}")))?;
    let givens: Vec<_> = found.example.givens().collect();
    let style = satsudoku::report::PrintStyle::Grid.for_values_from(layout.first_value());
    let example = satsudoku::report::givens_line(layout.side(), &givens, style);
    diag!(
        "satsudoku: {name}: {} grids, {} searched (one per class), {} sets of givens checked, {:.3} s; e.g. {example}",
        found.grids,
        found.classes,
        found.checks,
        found.elapsed.as_secs_f64()
    );
    let mut out = std::io::stdout().lock();
    let written = match args.output {
        Output::Json => {
            let counts: Option<Vec<String>> =
                found.per_count.as_ref().map(|t| t.iter().map(ToString::to_string).collect());
            let record = serde_json::json!({
                "source": name,
                "fewest_givens": found.fewest,
                "example": example,
                "grids": found.grids.to_string(),
                "classes": found.classes,
                "checks": found.checks,
                "unique_puzzles": counts,
                "seconds": found.elapsed.as_secs_f64(),
            });
            writeln!(out, "{record}")
        }
        _ => {
            let mut text = format!("fewest_givens({}).\n", found.fewest);
            for (k, count) in found.per_count.iter().flatten().enumerate() {
                text.push_str(&format!("unique_puzzles({k},{count}).\n"));
            }
            out.write_all(text.as_bytes())
        }
    };
    written.map_err(AppError::write("stdout"))?;
    Ok(Status::Done)
}
