//! A count split for a cluster: `satsudoku cubes` writes the cube files
//! and a manifest, `satsudoku count --cube` counts one cube into a record,
//! `satsudoku sum` adds the records (file formats in [`satsudoku::cluster`]).

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use num_bigint::BigUint;
use varisat::Lit;

use satsudoku::cluster::{cube_digest, cube_name, digest, split_count, CubeFile, Manifest, Record, Split};
use satsudoku::count::plan::{Counter, Plan};
use satsudoku::count::{EngineKind, Limits, Stop};
use satsudoku::encode::{self, Encoding};
use satsudoku::parse;
use satsudoku::report::{self, Output};

use super::input::{display_name, read_text, Reading, Source, Text};
use super::output::{write_output, Replace};
use super::{AppError, Status, INTERRUPTED};
use crate::cli::{CountArgs, CubesArgs, SumArgs};
use crate::diag;

/// The manifest's file name in a cube directory.
pub const MANIFEST: &str = "manifest.txt";

/// `cubes`' options, resolved once.
pub struct Settings {
    pub source: Source,
    pub reading: Reading,
    pub encoding: Encoding,
    pub split: Split,
    pub symmetry: bool,
    pub dir: PathBuf,
}

impl Settings {
    pub fn resolve(args: &CubesArgs) -> Result<Settings, AppError> {
        let split = match (args.depth, args.count) {
            (Some(depth), None) => Split::Depth(depth),
            (None, count) => Split::Count(count.unwrap_or(64)),
            (Some(_), Some(_)) => return Err(AppError::Usage("give --depth or --count, not both".into())),
        };
        Ok(Settings {
            source: Source::from_arg(args.input.file.as_deref()),
            reading: Reading { format: args.input.format, options: args.input.shape.options() },
            encoding: args.encoding.encoding().map_err(AppError::Usage)?,
            split,
            symmetry: args.symmetry != satsudoku::count::plan::SymmetryUse::None,
            dir: args.output.clone(),
        })
    }
}

/// `satsudoku cubes`: splits the count of one puzzle into cube files in
/// `settings.dir` (created if needed; it must hold no earlier split), and
/// writes the manifest last.
pub fn split(settings: Settings) -> Result<Status, AppError> {
    let Text { name, text } = read_text(&settings.source)?;
    let format = match settings.reading.format {
        Some(format) => format,
        None => parse::detect(&text, &name, settings.reading.options)?,
    };
    let options = settings.reading.options;
    let puzzle = parse::parse_with(&text, &name, Some(format), options)?;
    satsudoku::encode::check_fits(&puzzle, &settings.encoding)?;
    let (factor, cubes) = split_count(&puzzle, &settings.encoding, settings.symmetry, settings.split);
    let dir = &settings.dir;
    let dir_name = display_name(dir);
    fs::create_dir_all(dir).map_err(AppError::write(dir_name.clone()))?;
    if dir.join(MANIFEST).exists() {
        return Err(AppError::Usage(format!("{dir_name} holds a split already ({MANIFEST}): use another directory")));
    }
    let digest = digest(&text, format, options, &settings.encoding, factor, &cubes);
    let of = cubes.len();
    let write = |path: &Path, contents: String| {
        write_output(Some(path), &[], Replace::Writable, |out: &mut dyn Write| out.write_all(contents.as_bytes()))
    };
    for (i, literals) in cubes.iter().enumerate() {
        let cube_digest = cube_digest(&digest, i + 1, of, &text, format, options, &settings.encoding, factor, literals);
        let cube = CubeFile {
            digest: digest.clone(),
            cube_digest,
            index: i + 1,
            of,
            encoding: settings.encoding,
            factor,
            format,
            options,
            literals: literals.clone(),
            puzzle: text.clone(),
        };
        write(&dir.join(cube_name(i + 1, of)), cube.to_string())?;
    }
    let manifest = Manifest {
        digest,
        source: name.clone(),
        encoding: settings.encoding,
        factor,
        format,
        options,
        cubes: cubes.into_iter().enumerate().map(|(i, literals)| (cube_name(i + 1, of), literals)).collect(),
        puzzle: text,
    };
    write(&dir.join(MANIFEST), manifest.to_string())?;
    let symmetry = if factor > 1 { format!(", counts to be multiplied by {factor} (symmetry)") } else { String::new() };
    diag!("satsudoku: {name}: {of} cubes in {dir_name}{symmetry}");
    Ok(Status::Done)
}

/// Where the record of `cube` goes: beside it, `.cube` replaced by `.result`.
pub fn record_path(cube: &Path) -> PathBuf {
    cube.with_extension("result")
}

/// `count --cube`'s options, resolved once: the cube file, and the
/// options of `count` that apply to it.
pub struct CubeSettings {
    pub path: PathBuf,
    /// `--engine`, if given; else the plan's choice for the cube's encoding.
    pub engine: Option<EngineKind>,
    pub jobs: Option<usize>,
    pub timeout: Option<Duration>,
    pub stats: bool,
    pub output: Output,
    /// `--progress`, resolved against stderr.
    pub progress: bool,
}

impl CubeSettings {
    /// The settings of `count --cube FILE`, if `args` has `--cube`.
    pub fn resolve(args: &CountArgs) -> Option<CubeSettings> {
        Some(CubeSettings {
            path: args.cube.clone()?,
            engine: args.solve.engine,
            jobs: args.jobs.map(usize::from),
            timeout: args.timeout,
            stats: args.stats,
            output: args.output,
            progress: super::progress::resolve(args.progress),
        })
    }
}

/// `satsudoku count --cube FILE`: counts one cube through the counting
/// plan (enumeration of the cube, on the cube's own encoding), prints its
/// share of the count in the format asked for, and writes its record
/// atomically beside it, but only when the count is complete (a stopped
/// count leaves no record, so `sum` names the cube).
pub fn count_cube(settings: CubeSettings) -> Result<Status, AppError> {
    super::catch_interrupts();
    let cube_path = &settings.path;
    let name = display_name(cube_path);
    let Text { text, .. } = read_text(&Source::File(cube_path.to_owned()))?;
    let cube = CubeFile::parse(&text, &name)?;
    cube.verify().map_err(|why| AppError::Usage(format!("{name}: {why}")))?;
    // Beside its manifest (not when it travelled alone), the cube must be
    // the one the manifest lists.
    let manifest_path = cube_path.parent().unwrap_or(Path::new(".")).join(MANIFEST);
    if manifest_path.exists() {
        let Text { name: manifest_name, text } = read_text(&Source::File(manifest_path))?;
        let manifest = Manifest::parse(&text, &manifest_name)?;
        manifest.verify().map_err(|why| AppError::Usage(format!("{manifest_name}: {why}")))?;
        if manifest.digest != cube.digest || manifest.cube_digest(cube.index).as_deref() != Some(&cube.cube_digest) {
            return Err(AppError::Usage(format!(
                "{name}: the cube is not the one {manifest_name} lists as cube {}",
                cube.index
            )));
        }
    }
    let puzzle = parse::parse_with(&cube.puzzle, &format!("{name} (its puzzle)"), Some(cube.format), cube.options)?;
    let symmetry = cube.factor > 1;
    let reduced = satsudoku::count::symmetry::reduce(&puzzle, symmetry);
    if reduced.factor() != cube.factor {
        return Err(AppError::Usage(format!(
            "{name}: the cube says its counts are multiplied by {}, but this puzzle's relabelling factor is {}",
            cube.factor,
            reduced.factor()
        )));
    }
    let literals = lits_of(&cube, &encode::encode(&reduced.puzzle, &cube.encoding), &name)?;
    let mut plan = Plan::new(cube.encoding);
    plan.engine = settings.engine;
    plan.jobs = settings.jobs;
    plan.details = settings.stats;
    plan.limits = Limits { max: None, timeout: settings.timeout, interrupt: Some(&INTERRUPTED) };
    if settings.progress {
        plan.report = Some(super::progress::report);
    }
    let mut line = CubeProgress(super::progress::ProgressLine::new(settings.progress));
    let tally = Counter::new(plan).count_cube(&puzzle, symmetry, &literals, &mut line);
    line.0.clear();
    let tally = tally?;
    // The result names its cube (`CUBEFILE<TAB>solutions(S).`), so that the
    // lines of many workers gathered in one log say which cube each is.
    let item = report::Item {
        source: &name,
        line: None,
        label: Some(&name),
        style: report::PrintStyle::Grid,
        shape: None,
        vars: 0,
    };
    let mut stdout = std::io::stdout().lock();
    report::printer(settings.output).count(&mut stdout, &item, &tally).map_err(AppError::write("stdout"))?;
    if settings.stats {
        for line in &tally.details {
            diag!("{line}");
        }
    }
    if tally.stop != Stop::Complete {
        let why = tally.lower_bound_note().unwrap_or_default();
        diag!("satsudoku: {name}: {why}; no record written");
        return Ok(Status::LowerBound);
    }
    let solutions = u128::try_from(&tally.counted)
        .map_err(|_| AppError::Other(anyhow::anyhow!("{name}: the cube's count does not fit in 128 bits")))?;
    let record =
        Record { digest: cube.digest, index: cube.index, of: cube.of, cube_digest: cube.cube_digest, solutions };
    let path = record_path(cube_path);
    write_output(Some(&path), &[cube_path], Replace::Writable, |out: &mut dyn Write| {
        out.write_all(record.to_string().as_bytes())
    })?;
    Ok(Status::Done)
}

/// The cube's literals as the encoding's literals; an error for a variable
/// the encoding does not have.
fn lits_of(cube: &CubeFile, encoded: &encode::Encoded, name: &str) -> Result<Vec<Lit>, AppError> {
    let var_count = encoded.formula.var_count() as i64;
    cube.literals
        .iter()
        .map(|&lit| {
            if lit == 0 || lit.abs() > var_count {
                return Err(AppError::Usage(format!(
                    "{name}: literal {lit} names a variable the encoding {} does not have ({var_count})",
                    cube.encoding
                )));
            }
            Ok(Lit::from_index(lit.unsigned_abs() as usize - 1, lit > 0))
        })
        .collect()
}

/// `sum`'s options.
pub struct SumSettings {
    pub dir: PathBuf,
}

impl SumSettings {
    pub fn resolve(args: &SumArgs) -> SumSettings {
        SumSettings { dir: args.dir.clone() }
    }
}

/// `satsudoku sum DIR`: every `.result` record in `DIR` must match the
/// manifest's digest, and each cube must have exactly one. Prints
/// `solutions(S).`, the sum times the factor; with cubes missing, the sum
/// of those present (a lower bound), their names on stderr, and exit 3.
pub fn sum(settings: SumSettings) -> Result<Status, AppError> {
    let dir = &settings.dir;
    let manifest_path = dir.join(MANIFEST);
    let Text { name, text } = read_text(&Source::File(manifest_path))?;
    let manifest = Manifest::parse(&text, &name)?;
    manifest.verify().map_err(|why| AppError::Usage(format!("{name}: {why}")))?;
    let of = manifest.cubes.len();
    let entries = fs::read_dir(dir)
        .map_err(|err| AppError::Other(anyhow::anyhow!("cannot read {}: {err}", display_name(dir))))?;
    let mut records: BTreeMap<usize, String> = BTreeMap::new();
    let mut total = BigUint::default();
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    // Every cube file still there must be the one the manifest lists.
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "cube")) {
        let cube_name = display_name(path);
        let Text { text, .. } = read_text(&Source::File(path.clone()))?;
        let cube = CubeFile::parse(&text, &cube_name)?;
        cube.verify().map_err(|why| AppError::Usage(format!("{cube_name}: {why}")))?;
        if cube.digest != manifest.digest || manifest.cube_digest(cube.index).as_deref() != Some(&cube.cube_digest) {
            return Err(AppError::Usage(format!(
                "{cube_name}: the cube is not the one {name} lists as cube {}",
                cube.index
            )));
        }
    }
    paths.retain(|p| p.extension().is_some_and(|e| e == "result"));
    for path in paths {
        let record_name = display_name(&path);
        let Text { text, .. } = read_text(&Source::File(path))?;
        let record = Record::parse(&text, &record_name)?;
        if record.digest != manifest.digest || record.of != of {
            return Err(AppError::Usage(format!(
                "{record_name}: the record is of another split (digest {}, {} cubes) than {name} ({}, {of} cubes)",
                record.digest, record.of, manifest.digest
            )));
        }
        if manifest.cube_digest(record.index).as_deref() != Some(&record.cube_digest) {
            return Err(AppError::Usage(format!(
                "{record_name}: the record is of a cube that is not the one {name} lists as cube {}",
                record.index
            )));
        }
        if let Some(first) = records.insert(record.index, record_name.clone()) {
            return Err(AppError::Usage(format!("cube {} has two records: {first} and {record_name}", record.index)));
        }
        total += record.solutions;
    }
    let total = total * manifest.factor;
    let missing: Vec<&str> =
        (1..=of).filter(|i| !records.contains_key(i)).map(|i| manifest.cubes[i - 1].0.as_str()).collect();
    let fact = report::count_fact(&total, missing.is_empty());
    writeln!(std::io::stdout().lock(), "{fact}").map_err(AppError::write("stdout"))?;
    if missing.is_empty() {
        return Ok(Status::Done);
    }
    diag!(
        "satsudoku: {}: {} of {of} cubes have no record, so the sum is a lower bound: {}",
        display_name(dir),
        missing.len(),
        missing.join(", ")
    );
    Ok(Status::LowerBound)
}

/// The progress line of a cube's count: its models as it goes.
struct CubeProgress(super::progress::ProgressLine);

impl satsudoku::count::Observer for CubeProgress {
    fn wants_progress(&self) -> bool {
        self.0.enabled()
    }

    fn progress(&mut self, models: u128, elapsed: std::time::Duration) {
        self.0.update(models, elapsed);
    }
}
