//! A count split into cube files for a cluster, and the records that come
//! back. `satsudoku cubes` writes one cube file per cube and a manifest;
//! `satsudoku count --cube` counts one cube and writes its record;
//! `satsudoku sum` adds the records once every cube has exactly one.
//!
//! All three are plain text, a `key value` line each after a first line
//! naming the kind and version. A cube file is self-contained (it carries
//! the puzzle text, how to read and encode it, and its literals), so a
//! worker needs nothing else: it can be copied to another machine
//! (`parallel --transferfile`) and its record copied back. The digest names
//! one split of one puzzle: a record from another split, another puzzle or
//! another encoding does not match the manifest, and `sum` refuses it.

use std::fmt;
use std::str::FromStr;

use crate::count::enumerate::Enumerate;
use crate::count::symmetry;
use crate::encode::{encode, Encoding};
use crate::model::Puzzle;
use crate::parse::{Format, Options, ParseError, Pos};

/// One cube of a split count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeFile {
    /// The digest of the split this cube belongs to (see [`digest`]).
    pub digest: String,
    /// The digest of this cube: of the split's digest and of every field
    /// below (see [`cube_digest`]), so that an edited cube file is refused.
    pub cube_digest: String,
    /// From 1.
    pub index: usize,
    /// Cubes in the split.
    pub of: usize,
    /// The encoding the literals are of.
    pub encoding: Encoding,
    /// The relabelling factor the counts are multiplied by when summed (1
    /// when the count does not use symmetry); the cube is of the puzzle
    /// reduced by it (see [`crate::count::symmetry`]).
    pub factor: u128,
    /// The puzzle text's format.
    pub format: Format,
    /// How the puzzle text is read.
    pub options: Options,
    /// The cube's literals, as DIMACS numbers of the encoding's variables.
    pub literals: Vec<i64>,
    /// The puzzle file's text, verbatim.
    pub puzzle: String,
}

/// The manifest of a split: what every record must match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The split's digest, which every record must carry.
    pub digest: String,
    /// The name of the puzzle file split.
    pub source: String,
    /// The encoding the cubes' literals are of.
    pub encoding: Encoding,
    /// What the records' sum is multiplied by (the symmetry factor).
    pub factor: u128,
    /// The puzzle text's format.
    pub format: Format,
    /// How the puzzle text is read.
    pub options: Options,
    /// Each cube's file name and literals, in index order.
    pub cubes: Vec<(String, Vec<i64>)>,
    /// The puzzle file's text, verbatim.
    pub puzzle: String,
}

/// The count of one cube.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The digest of the split counted.
    pub digest: String,
    /// The cube counted, from 1.
    pub index: usize,
    /// Cubes in the split.
    pub of: usize,
    /// The digest of the cube counted.
    pub cube_digest: String,
    /// Solutions in the cube, before the symmetry factor.
    pub solutions: u128,
}

const CUBE: &str = "satsudoku-cube 2";
const MANIFEST: &str = "satsudoku-manifest 2";
const RECORD: &str = "satsudoku-result 2";

/// The name of cube `index` (from 1) of `of`: zero-padded, so that the
/// files sort in order.
pub fn cube_name(index: usize, of: usize) -> String {
    let width = of.to_string().len().max(5);
    format!("cube-{index:0width$}.cube")
}

/// The digest of a split: 128 bits of FNV-1a over everything that decides
/// the counts (the puzzle text, how it is read and encoded, the factor and
/// every cube), in hex. It tells splits apart; it is not a defence against
/// someone forging records.
pub fn digest(
    puzzle: &str,
    format: Format,
    options: Options,
    encoding: &Encoding,
    factor: u128,
    cubes: &[Vec<i64>],
) -> String {
    let mut text = format!("{format}\n{}\n{encoding}\n{factor}\n", options_line(options));
    for cube in cubes {
        text.push_str(&join(cube));
        text.push('\n');
    }
    text.push_str(puzzle);
    fnv(&text)
}

/// 128 bits of FNV-1a over `text`, in hex.
fn fnv(text: &str) -> String {
    let mut hash: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for byte in text.bytes() {
        hash ^= u128::from(byte);
        hash = hash.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
    }
    format!("{hash:032x}")
}

/// The digest of one cube: of its split's digest, its place in the split,
/// and every field of its file (the puzzle, how it is read and encoded,
/// the factor, the literals).
#[allow(clippy::too_many_arguments)]
pub fn cube_digest(
    split: &str,
    index: usize,
    of: usize,
    puzzle: &str,
    format: Format,
    options: Options,
    encoding: &Encoding,
    factor: u128,
    literals: &[i64],
) -> String {
    let text = format!(
        "{split}\n{index} {of}\n{format}\n{}\n{encoding}\n{factor}\n{}\n{puzzle}",
        options_line(options),
        join(literals)
    );
    fnv(&text)
}

impl CubeFile {
    /// Whether the file's fields are those its cube digest was made of:
    /// an error saying so if it was edited.
    pub fn verify(&self) -> Result<(), String> {
        let wanted = cube_digest(
            &self.digest,
            self.index,
            self.of,
            &self.puzzle,
            self.format,
            self.options,
            &self.encoding,
            self.factor,
            &self.literals,
        );
        if wanted != self.cube_digest {
            return Err("the cube file was changed after it was written (its digest does not match its contents): \
                 split the puzzle again"
                .into());
        }
        Ok(())
    }
}

impl Manifest {
    /// Whether the manifest's fields are those its digest was made of: an
    /// error saying so if it was edited.
    pub fn verify(&self) -> Result<(), String> {
        let cubes: Vec<Vec<i64>> = self.cubes.iter().map(|(_, l)| l.clone()).collect();
        if digest(&self.puzzle, self.format, self.options, &self.encoding, self.factor, &cubes) != self.digest {
            return Err("the manifest was changed after it was written (its digest does not match its contents): \
                 split the puzzle again"
                .into());
        }
        Ok(())
    }

    /// The digest cube `index` (from 1) of this split has.
    pub fn cube_digest(&self, index: usize) -> Option<String> {
        let (_, literals) = self.cubes.get(index.checked_sub(1)?)?;
        let of = self.cubes.len();
        Some(cube_digest(
            &self.digest,
            index,
            of,
            &self.puzzle,
            self.format,
            self.options,
            &self.encoding,
            self.factor,
            literals,
        ))
    }
}

/// How to split a count into cubes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Every cube this many branch points deep.
    Depth(usize),
    /// At least this many cubes, level by level, where the search allows.
    Count(usize),
}

/// The cubes of the count of `puzzle` (reduced by relabelling when
/// `symmetry` allows and the rules permit), as DIMACS literals of
/// `encoding`'s variables, and the factor their counts are multiplied by.
pub fn split_count(puzzle: &Puzzle, encoding: &Encoding, symmetry: bool, split: Split) -> (u128, Vec<Vec<i64>>) {
    let reduced = symmetry::reduce(puzzle, symmetry);
    let encoded = encode(&reduced.puzzle, encoding);
    let mut engine = Enumerate::new(&reduced.puzzle, &encoded);
    let cubes = match split {
        Split::Depth(depth) => engine.split_to_depth(depth),
        Split::Count(count) => engine.split(count),
    };
    let dimacs = |lit: varisat::Lit| {
        let number = lit.index() as i64 + 1;
        if lit.is_positive() {
            number
        } else {
            -number
        }
    };
    (reduced.factor(), cubes.iter().map(|cube| cube.iter().map(|&l| dimacs(l)).collect()).collect())
}

fn join(literals: &[i64]) -> String {
    itertools::join(literals, " ")
}

/// The reading options as one line: `box RxC` (or `box auto`), then the Takuzu rules.
fn options_line(options: Options) -> String {
    let boxes = options.boxes.map_or("auto".to_owned(), |(r, c)| format!("{r}x{c}"));
    let rules = if options.takuzu_distinct { "all" } else { "no-distinct" };
    format!("box {boxes} takuzu-rules {rules}")
}

impl fmt::Display for CubeFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{CUBE}")?;
        writeln!(f, "digest {}", self.digest)?;
        writeln!(f, "cube-digest {}", self.cube_digest)?;
        writeln!(f, "cube {} of {}", self.index, self.of)?;
        writeln!(f, "encoding {}", self.encoding)?;
        writeln!(f, "factor {}", self.factor)?;
        writeln!(f, "format {}", self.format)?;
        writeln!(f, "options {}", options_line(self.options))?;
        writeln!(f, "literals {}", join(&self.literals))?;
        writeln!(f, "puzzle {}", self.puzzle.len())?;
        f.write_str(&self.puzzle)
    }
}

impl fmt::Display for Manifest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{MANIFEST}")?;
        writeln!(f, "digest {}", self.digest)?;
        writeln!(f, "source {}", self.source)?;
        writeln!(f, "encoding {}", self.encoding)?;
        writeln!(f, "factor {}", self.factor)?;
        writeln!(f, "format {}", self.format)?;
        writeln!(f, "options {}", options_line(self.options))?;
        writeln!(f, "cubes {}", self.cubes.len())?;
        for (name, literals) in &self.cubes {
            writeln!(f, "{name} {}", join(literals))?;
        }
        writeln!(f, "puzzle {}", self.puzzle.len())?;
        f.write_str(&self.puzzle)
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{RECORD}")?;
        writeln!(f, "digest {}", self.digest)?;
        writeln!(f, "cube-digest {}", self.cube_digest)?;
        writeln!(f, "cube {} of {}", self.index, self.of)?;
        writeln!(f, "solutions {}", self.solutions)?;
        writeln!(f, "end")
    }
}

/// Reads `key value` lines one after another, with positions for errors.
struct Lines<'t> {
    name: &'t str,
    lines: std::iter::Peekable<std::iter::Enumerate<std::str::Lines<'t>>>,
    rest: &'t str,
    line: usize,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str, name: &'t str, first: &str) -> Result<Lines<'t>, ParseError> {
        let mut lines = Lines { name, lines: text.lines().enumerate().peekable(), rest: text, line: 0 };
        let (line, got) = lines.next_line()?;
        if got != first {
            let kind = first.rsplit_once(' ').map_or(first, |(kind, _)| kind);
            let message = if got.starts_with(kind) {
                format!("written by another version of satsudoku (`{got}`; this one reads `{first}`): split the puzzle again")
            } else {
                format!("expected `{first}`, found `{got}`")
            };
            return Err(Pos { line, col: 1 }.error(name, message));
        }
        Ok(lines)
    }

    fn next_line(&mut self) -> Result<(usize, &'t str), ParseError> {
        match self.lines.next() {
            Some((i, text)) => {
                self.line = i + 1;
                // What follows this line in the text (for the verbatim puzzle).
                let after = text.as_ptr() as usize - self.rest.as_ptr() as usize + text.len();
                let after = self.rest[after..].strip_prefix("\r\n").or_else(|| self.rest[after..].strip_prefix('\n'));
                self.rest = after.unwrap_or("");
                Ok((i + 1, text))
            }
            None => Err(Pos { line: self.line + 1, col: 1 }.error(self.name, "expected another line, found the end")),
        }
    }

    /// The value of the next line, which must start with `key `.
    fn value(&mut self, key: &str) -> Result<(Pos, &'t str), ParseError> {
        let (line, text) = self.next_line()?;
        match text.strip_prefix(key).and_then(|v| v.strip_prefix(' ').or((v.is_empty()).then_some(""))) {
            Some(value) => Ok((Pos { line, col: key.len() + 2 }, value)),
            None => Err(Pos { line, col: 1 }.error(self.name, format!("expected `{key} ...`, found `{text}`"))),
        }
    }

    fn parsed<T: FromStr>(&mut self, key: &str, what: &str) -> Result<T, ParseError> {
        let (pos, value) = self.value(key)?;
        value.trim().parse().map_err(|_| pos.error(self.name, format!("expected {what}, found `{value}`")))
    }

    /// The puzzle text to the end: `puzzle N` and then exactly N bytes.
    fn puzzle(&mut self) -> Result<String, ParseError> {
        let bytes: usize = self.parsed("puzzle", "the puzzle's length in bytes")?;
        match self.rest.get(..bytes) {
            Some(puzzle) if self.rest.len() == bytes => Ok(puzzle.to_owned()),
            _ => {
                let found = self.rest.len();
                let message = format!("expected the puzzle's {bytes} bytes to the end, found {found}");
                Err(Pos { line: self.line + 1, col: 1 }.error(self.name, message))
            }
        }
    }

    fn digest(&mut self, key: &str) -> Result<String, ParseError> {
        let (pos, value) = self.value(key)?;
        if value.len() != 32 || !value.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(pos.error(self.name, format!("expected 32 hex digits, found `{value}`")));
        }
        Ok(value.to_owned())
    }

    /// `cube I of N`, with `1 <= I <= N`.
    fn index(&mut self) -> Result<(usize, usize), ParseError> {
        let (pos, value) = self.value("cube")?;
        let parsed = value.split_once(" of ").and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)));
        match parsed {
            Some((i, n)) if (1..=n).contains(&i) => Ok((i, n)),
            _ => Err(pos.error(self.name, format!("expected `I of N` with 1 <= I <= N, found `{value}`"))),
        }
    }

    fn literals(&mut self, pos: Pos, value: &str) -> Result<Vec<i64>, ParseError> {
        value
            .split_whitespace()
            .map(|word| match word.parse::<i64>() {
                Ok(lit) if lit != 0 && lit.unsigned_abs() < 1 << 32 => Ok(lit),
                _ => Err(pos.error(self.name, format!("expected a nonzero variable number, found `{word}`"))),
            })
            .collect()
    }

    /// The `end` line, and nothing after it but blank lines.
    fn last(&mut self) -> Result<(), ParseError> {
        let (pos, value) = self.value("end")?;
        if !value.is_empty() {
            return Err(pos.error(self.name, format!("expected the end of the line, found `{value}`")));
        }
        self.end()
    }

    fn end(&mut self) -> Result<(), ParseError> {
        match self.lines.peek() {
            Some(&(i, text)) if !text.trim().is_empty() => {
                Err(Pos { line: i + 1, col: 1 }.error(self.name, format!("expected the end, found `{text}`")))
            }
            _ => Ok(()),
        }
    }
}

fn encoding(lines: &mut Lines) -> Result<Encoding, ParseError> {
    let (pos, value) = lines.value("encoding")?;
    value.parse().map_err(|err: String| pos.error(lines.name, err))
}

fn factor(lines: &mut Lines) -> Result<u128, ParseError> {
    let (pos, value) = lines.value("factor")?;
    match value.parse::<u128>() {
        Ok(factor) if factor >= 1 => Ok(factor),
        _ => Err(pos.error(lines.name, format!("expected a factor of at least 1, found `{value}`"))),
    }
}

fn options(lines: &mut Lines) -> Result<Options, ParseError> {
    let (pos, value) = lines.value("options")?;
    let words: Vec<&str> = value.split(' ').collect();
    let bad =
        || pos.error(lines.name, format!("expected `box RxC|auto takuzu-rules all|no-distinct`, found `{value}`"));
    let ["box", boxes, "takuzu-rules", rules] = words[..] else { return Err(bad()) };
    let boxes = match boxes {
        "auto" => None,
        shape => {
            let (r, c) = shape.split_once('x').ok_or_else(bad)?;
            Some((r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?))
        }
    };
    let takuzu_distinct = match rules {
        "all" => true,
        "no-distinct" => false,
        _ => return Err(bad()),
    };
    Ok(Options { boxes, takuzu_distinct })
}

impl CubeFile {
    /// Reads a cube file; errors name `name`, the line and the column.
    pub fn parse(text: &str, name: &str) -> Result<CubeFile, ParseError> {
        let mut lines = Lines::new(text, name, CUBE)?;
        let digest = lines.digest("digest")?;
        let cube_digest = lines.digest("cube-digest")?;
        let (index, of) = lines.index()?;
        let encoding = encoding(&mut lines)?;
        let factor = factor(&mut lines)?;
        let format = lines.parsed("format", "a format name")?;
        let options = options(&mut lines)?;
        let (pos, value) = lines.value("literals")?;
        let literals = lines.literals(pos, value)?;
        let puzzle = lines.puzzle()?;
        Ok(CubeFile { digest, cube_digest, index, of, encoding, factor, format, options, literals, puzzle })
    }
}

impl Manifest {
    /// Reads a manifest; errors name `name`, the line and the column.
    pub fn parse(text: &str, name: &str) -> Result<Manifest, ParseError> {
        let mut lines = Lines::new(text, name, MANIFEST)?;
        let digest = lines.digest("digest")?;
        let (_, source) = lines.value("source")?;
        let encoding = encoding(&mut lines)?;
        let factor = factor(&mut lines)?;
        let format = lines.parsed("format", "a format name")?;
        let options = options(&mut lines)?;
        let count: usize = lines.parsed("cubes", "the number of cubes")?;
        // Each cube is a line, so the text bounds what to reserve.
        let mut cubes = Vec::with_capacity(count.min(text.lines().count()));
        for index in 1..=count {
            let expected = cube_name(index, count);
            let (pos, value) = lines.value(&expected)?;
            cubes.push((expected, lines.literals(pos, value)?));
        }
        let puzzle = lines.puzzle()?;
        Ok(Manifest { digest, source: source.to_owned(), encoding, factor, format, options, cubes, puzzle })
    }
}

impl Record {
    /// Reads a record; errors name `name`, the line and the column.
    pub fn parse(text: &str, name: &str) -> Result<Record, ParseError> {
        let mut lines = Lines::new(text, name, RECORD)?;
        let digest = lines.digest("digest")?;
        let cube_digest = lines.digest("cube-digest")?;
        let (index, of) = lines.index()?;
        let solutions = lines.parsed("solutions", "a count")?;
        // The last line: a record cut short (or a count cut in its digits) is refused.
        lines.last()?;
        Ok(Record { digest, index, of, cube_digest, solutions })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube() -> CubeFile {
        let puzzle = "1...\n..2.\n".to_owned();
        let options = Options { boxes: Some((2, 2)), takuzu_distinct: true };
        let encoding = Encoding::default();
        let literals = vec![3, -17];
        let digest = digest(&puzzle, Format::Grid, options, &encoding, 24, std::slice::from_ref(&literals));
        let cube_digest = cube_digest(&digest, 2, 9, &puzzle, Format::Grid, options, &encoding, 24, &literals);
        CubeFile {
            digest,
            cube_digest,
            index: 2,
            of: 9,
            encoding,
            factor: 24,
            format: Format::Grid,
            options,
            literals,
            puzzle,
        }
    }

    #[test]
    fn each_file_reads_back_what_was_written() {
        let cube = cube();
        assert_eq!(CubeFile::parse(&cube.to_string(), "c").unwrap(), cube);
        let manifest = Manifest {
            digest: cube.digest.clone(),
            source: "puzzle.txt".into(),
            encoding: cube.encoding,
            factor: 24,
            format: cube.format,
            options: cube.options,
            cubes: (1..=3).map(|i| (cube_name(i, 3), vec![i as i64, -(i as i64) - 5])).collect(),
            puzzle: cube.puzzle.clone(),
        };
        assert_eq!(Manifest::parse(&manifest.to_string(), "m").unwrap(), manifest);
        let record =
            Record { digest: cube.digest, index: 2, of: 9, cube_digest: cube.cube_digest, solutions: u128::MAX };
        assert_eq!(Record::parse(&record.to_string(), "r").unwrap(), record);
    }

    #[test]
    fn the_digest_tells_splits_apart() {
        let c = cube();
        let other =
            |puzzle: &str, factor, cubes: &[Vec<i64>]| digest(puzzle, c.format, c.options, &c.encoding, factor, cubes);
        let base = other(&c.puzzle, 24, &[vec![3, -17]]);
        assert_eq!(base, c.digest);
        assert_ne!(base, other("1...\n..3.\n", 24, &[vec![3, -17]]));
        assert_ne!(base, other(&c.puzzle, 1, &[vec![3, -17]]));
        assert_ne!(base, other(&c.puzzle, 24, &[vec![3], vec![-17]]));
    }

    #[test]
    fn a_half_written_or_foreign_file_is_refused_with_its_place() {
        let record =
            Record { digest: "0".repeat(32), index: 1, of: 2, cube_digest: "1".repeat(32), solutions: 5 }.to_string();
        let cut = &record[..record.len() - 6];
        let err = Record::parse(cut, "r").unwrap_err().to_string();
        assert!(err.starts_with("r:5:"), "{err}");
        assert!(Record::parse("satsudoku-result 2\ndigest xyz\n", "r").unwrap_err().to_string().starts_with("r:2:8:"));
        let err = Record::parse(&record.replace("cube 1 of 2", "cube 3 of 2"), "r").unwrap_err().to_string();
        assert!(err.contains("1 <= I <= N"), "{err}");
        assert!(Manifest::parse(&record, "m")
            .unwrap_err()
            .to_string()
            .starts_with("m:1:1: expected `satsudoku-manifest 2`"));
        let old = cube().to_string().replacen("satsudoku-cube 2", "satsudoku-cube 1", 1);
        let err = CubeFile::parse(&old, "c").unwrap_err().to_string();
        assert!(err.starts_with("c:1:1: written by another version"), "{err}");
    }

    #[test]
    fn an_edited_cube_or_manifest_fails_its_digest() {
        let cube = cube();
        assert_eq!(cube.verify(), Ok(()));
        let edits: [fn(&mut CubeFile); 5] = [
            |c| c.literals[1] = 17,
            |c| c.factor = 1,
            |c| c.index = 3,
            |c| c.puzzle.push('3'),
            |c| c.options.boxes = None,
        ];
        for edit in edits {
            let mut edited = cube.clone();
            edit(&mut edited);
            assert!(edited.verify().unwrap_err().contains("changed after it was written"));
        }
        let cubes = vec![vec![1, -2], vec![-1]];
        let digest = digest(&cube.puzzle, cube.format, cube.options, &cube.encoding, 2, &cubes);
        let mut manifest = Manifest {
            digest,
            source: "p".into(),
            encoding: cube.encoding,
            factor: 2,
            format: cube.format,
            options: cube.options,
            cubes: cubes.iter().enumerate().map(|(i, c)| (cube_name(i + 1, 2), c.clone())).collect(),
            puzzle: cube.puzzle.clone(),
        };
        assert_eq!(manifest.verify(), Ok(()));
        assert_ne!(manifest.cube_digest(1), manifest.cube_digest(2));
        assert_eq!(manifest.cube_digest(3), None);
        manifest.factor = 4;
        assert!(manifest.verify().is_err());
    }

    proptest::proptest! {
        /// Any text, and any valid file with a stretch replaced by other
        /// text, is read or refused with a located error, never a panic;
        /// a file cut short never reads as a record with another count.
        #[test]
        fn mangled_files_are_refused_without_a_panic(
            junk in "\\PC{0,40}",
            at in 0usize..200,
            len in 0usize..20,
        ) {
            let cube = cube().to_string();
            let record = Record { digest: "a".repeat(32), index: 1, of: 2, cube_digest: "b".repeat(32), solutions: 12345 }.to_string();
            for text in [cube.as_str(), record.as_str()] {
                let (a, b) = (at.min(text.len()), (at + len).min(text.len()));
                if text.is_char_boundary(a) && text.is_char_boundary(b) {
                    let mangled = format!("{}{junk}{}", &text[..a], &text[b..]);
                    for result in [
                        CubeFile::parse(&mangled, "x").map(|_| ()),
                        Manifest::parse(&mangled, "x").map(|_| ()),
                        Record::parse(&mangled, "x").map(|_| ()),
                    ] {
                        if let Err(err) = result {
                            proptest::prop_assert!(err.to_string().starts_with("x:"), "{}", err);
                        }
                    }
                    if let Ok(read) = Record::parse(&text[..a], "x") {
                        proptest::prop_assert_eq!(read.solutions, 12345);
                    }
                }
            }
            let _ = CubeFile::parse(&junk, "x");
        }
    }
}
