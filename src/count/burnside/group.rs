//! The geometric group of a Sudoku layout for [`count`](super::count):
//! its generators (each proven to keep the groups), its motions packed in
//! 128 bits and numbered by their line permutations, the subgroup that
//! keeps a layout's extra groups (with the reorderings of a cell's
//! coordinates that keep them, as permutations of the cells), and the
//! conjugacy classes.

use std::collections::{HashMap, HashSet};

use super::super::disjoint::DisjointSets;
use super::super::CountError;
use crate::model::Puzzle;

/// The most geometric symmetries built one by one, 16 bytes each and 5
/// more while the classes are found (8x8 with 2x4 boxes has 442,368; 9x9
/// has 3,359,232: about 70 MB).
pub const MAX_GROUP: usize = 1 << 22;

/// The most motions of a group with motions that move no lines as wholes,
/// kept as permutations of the cells (up to 225 bytes each, and as many
/// again in the map that numbers them: about 0.5 GB at most; SudokuP's
/// has 10,368).
const MAX_CELL_GROUP: usize = 1 << 20;

/// A permutation of the cells, `cell index -> its image`.
pub(super) type Motion = Vec<u8>;

/// The geometric group of `puzzle`, a blank Sudoku with boxes, as its
/// generators; transposition among them when the boxes are square and
/// `transpose`. An error says why the puzzle is not one this counts.
pub fn generators(puzzle: &Puzzle, transpose: bool) -> Result<Vec<Motion>, CountError> {
    let unsupported = |why: &str| Err(CountError::Unsupported(format!("--up-to-symmetry: {why}")));
    let Some((h, w)) = puzzle.boxes() else { return unsupported("the grid has no boxes") };
    if puzzle.givens().next().is_some() || !Puzzle::sudoku(h, w).is_ok_and(|p| p.same_layout(puzzle)) {
        return unsupported("it counts blank Sudoku grids (rows, columns and boxes, no givens, no other rule)");
    }
    let n = puzzle.side();
    if n > 15 {
        return unsupported("grids of up to 15 x 15 cells");
    }
    // Permutations of the lines: `lines(f)` moves row (or column) i to f(i).
    let rows = |f: &dyn Fn(usize) -> usize| -> Motion { cells(n, |r, c| (f(r), c)) };
    let cols = |f: &dyn Fn(usize) -> usize| -> Motion { cells(n, |r, c| (r, f(c))) };
    let mut motions = Vec::new();
    for (lines, size) in [(&rows as &dyn Fn(&dyn Fn(usize) -> usize) -> Motion, h), (&cols, w)] {
        let blocks = n / size;
        // Swap and cycle the blocks (bands or stacks), and the lines of the first.
        if blocks >= 2 {
            motions.push(lines(&|i| if i < 2 * size { (i + size) % (2 * size) } else { i }));
            motions.push(lines(&|i| (i + size) % n));
        }
        if size >= 2 {
            motions.push(lines(&|i| if i < 2 { 1 - i } else { i }));
            motions.push(lines(&|i| if i < size { (i + 1) % size } else { i }));
        }
    }
    if transpose && h == w {
        motions.push(cells(n, |r, c| (c, r)));
    }
    let identity = identity(n);
    motions.retain(|m| *m != identity);
    motions.sort();
    motions.dedup();
    for motion in &motions {
        if !keeps_groups(puzzle, motion) {
            return Err(CountError::NotASolution("a geometric generator does not keep the groups".into()));
        }
    }
    Ok(motions)
}

/// The motion that sends cell `(r, c)` to `to(r, c)`.
fn cells(n: usize, to: impl Fn(usize, usize) -> (usize, usize)) -> Motion {
    (0..n * n)
        .map(|i| {
            let (r, c) = to(i / n, i % n);
            (r * n + c) as u8
        })
        .collect()
}

/// The all-different groups of `puzzle` past a blank Sudoku's rows,
/// columns and boxes (diagonals, disjoint groups, windows), each as a set
/// of cell indices; an error unless `puzzle` is a blank Sudoku with such
/// groups and nothing else.
pub(super) fn extra_groups(puzzle: &Puzzle) -> Result<Vec<Cells>, CountError> {
    let unsupported = |why: &str| Err(CountError::Unsupported(format!("--up-to-symmetry: {why}")));
    if puzzle.boxes().is_none() {
        return unsupported("the grid has no boxes");
    }
    let Some(extra) = puzzle.blank_sudoku_extras().filter(|_| puzzle.relations().is_empty()) else {
        return unsupported(
            "it counts blank Sudoku grids (rows, columns and boxes, and extra all-different groups such as \
             diagonals, disjoint groups or windows; no givens, no other rule)",
        );
    };
    let n = puzzle.side();
    Ok(extra.iter().map(|g| g.cells.iter().fold([0; 4], |set, c| with(set, c.row * n + c.col))).collect())
}

/// A set of cells (of at most 15 x 15), a bit each.
pub(super) type Cells = [u64; 4];

/// The cells of a set on an `n x n` grid, in reading order.
fn members(set: &Cells, n: usize) -> impl Iterator<Item = usize> + '_ {
    (0..n * n).filter(|&cell| set[cell / 64] >> (cell % 64) & 1 == 1)
}

fn with(mut set: Cells, cell: usize) -> Cells {
    set[cell / 64] |= 1 << (cell % 64);
    set
}

/// Whether `motion` maps every all-different group of `puzzle` onto one.
fn keeps_groups(puzzle: &Puzzle, motion: &Motion) -> bool {
    let n = puzzle.side();
    let key = |cells: &mut dyn Iterator<Item = usize>| {
        let mut cells: Vec<usize> = cells.collect();
        cells.sort_unstable();
        cells
    };
    let groups: std::collections::HashSet<Vec<usize>> =
        puzzle.groups().iter().map(|g| key(&mut g.cells.iter().map(|c| c.row * n + c.col))).collect();
    puzzle
        .groups()
        .iter()
        .all(|g| groups.contains(&key(&mut g.cells.iter().map(|c| usize::from(motion[c.row * n + c.col])))))
}

pub(super) fn compose(a: &Motion, b: &Motion) -> Motion {
    // (a after b)(i) = a(b(i))
    b.iter().map(|&i| a[usize::from(i)]).collect()
}

fn inverse(a: &Motion) -> Motion {
    let mut inverse = vec![0; a.len()];
    for (i, &j) in a.iter().enumerate() {
        inverse[usize::from(j)] = i as u8;
    }
    inverse
}

/// The geometric group's order: `B! h!^B` row orders (`B` bands of `h`
/// rows) times `S! w!^S` column orders, times 2 with transposition; `None`
/// past 128 bits.
pub(super) fn order(puzzle: &Puzzle, transposed: bool) -> Option<u128> {
    let (h, w) = puzzle.boxes()?;
    let n = puzzle.side();
    lines(n, h)?.checked_mul(lines(n, w)?)?.checked_mul(if transposed { 2 } else { 1 })
}

/// The permutations of `n` lines in blocks of `size` that keep the blocks:
/// `(n / size)! size!^(n / size)`; `None` past 128 bits.
fn lines(n: usize, size: usize) -> Option<u128> {
    let factorial = |k: usize| (1..=k as u128).try_fold(1u128, |f, i| f.checked_mul(i));
    factorial(n / size)?.checked_mul(factorial(size)?.checked_pow((n / size) as u32)?)
}

/// A geometric motion packed in 128 bits, four bits each (every motion of
/// the group maps rows and columns onto rows and columns): whether it
/// transposes (0 or 1), then the image of each row and then of each
/// column ([`image`]).
pub(super) type Packed = u128;

/// The image of line `k` (a row, or column `k - n`) in `packed`.
fn image(packed: Packed, k: usize) -> usize {
    (packed >> (4 + 4 * k) & 15) as usize
}

pub(super) fn pack(motion: &Motion, n: usize) -> Packed {
    let at = |r: usize, c: usize| (usize::from(motion[r * n + c]) / n, usize::from(motion[r * n + c]) % n);
    let transposed = n >= 2 && at(0, 0).0 != at(0, 1).0;
    let rows = (0..n).map(|r| if transposed { at(r, 0).1 } else { at(r, 0).0 });
    let cols = (0..n).map(|c| if transposed { at(0, c).0 } else { at(0, c).1 });
    rows.chain(cols).enumerate().fold(Packed::from(transposed), |p, (k, line)| p | (line as Packed) << (4 + 4 * k))
}

/// `a` after `b`, packed: the transpositions cancel, and a transposing `b`
/// sends rows to columns, which `a`'s column images then move (and columns
/// to rows). Read and written a byte at a time (shifts of 128 bits by a
/// variable amount made building the group twice as slow).
fn compose_packed(a: Packed, b: Packed, n: usize) -> Packed {
    let (a, b) = (nibbles(a), nibbles(b));
    let mut product = [0u8; 32];
    product[0] = a[0] ^ b[0];
    let (rows, cols) = if b[0] == 1 { (n, 0) } else { (0, n) };
    for k in 1..=n {
        product[k] = a[1 + rows + usize::from(b[k])];
        product[n + k] = a[1 + cols + usize::from(b[n + k])];
    }
    let mut bytes = [0u8; 16];
    for (j, byte) in bytes.iter_mut().enumerate() {
        *byte = product[2 * j] | product[2 * j + 1] << 4;
    }
    Packed::from_le_bytes(bytes)
}

/// The packed motion's four-bit values, in order.
fn nibbles(packed: Packed) -> [u8; 32] {
    let mut nibbles = [0u8; 32];
    for (j, byte) in packed.to_le_bytes().iter().enumerate() {
        nibbles[2 * j] = byte & 15;
        nibbles[2 * j + 1] = byte >> 4;
    }
    nibbles
}

pub(super) fn unpack(packed: Packed, n: usize) -> Motion {
    let line = |k: usize| image(packed, k);
    cells(n, |r, c| if packed & 1 == 1 { (line(n + c), line(r)) } else { (line(r), line(n + c)) })
}

/// Each motion of the group numbered from 0: whether it transposes, then
/// its row images and its column images, each a permutation of the blocks
/// (bands, or stacks) and one of the lines inside each block, in the
/// factorial number system. The group is every such motion (the generators
/// swap and cycle the blocks and the first block's lines, and with the
/// blocks' moves that reaches every block's lines; transposition where it
/// is allowed), so the numbers are `0..order` ([`classes`] checks that the
/// generators reach each of them).
struct Ranks {
    n: usize,
    /// For the row images and then the column images: the lines in a
    /// block, and each line's block and place in it.
    blocks: [(usize, [u8; 16], [u8; 16]); 2],
    /// The row images' number of values, and the column images'.
    lines: (usize, usize),
    order: usize,
}

impl Ranks {
    /// For a group of at most [`MAX_GROUP`] motions.
    fn new(n: usize, (h, w): (usize, usize), transposed: bool) -> Ranks {
        let lines = |size: usize| lines(n, size).and_then(|l| usize::try_from(l).ok()).expect("a small group");
        let lines = (lines(h), lines(w));
        let blocks =
            |size: usize| (size, std::array::from_fn(|v| (v / size) as u8), std::array::from_fn(|v| (v % size) as u8));
        Ranks { n, blocks: [blocks(h), blocks(w)], lines, order: lines.0 * lines.1 * if transposed { 2 } else { 1 } }
    }

    fn rank(&self, packed: Packed) -> usize {
        let x = nibbles(packed);
        let n = self.n;
        // A permutation's rank: each value's count of smaller values not
        // yet used, in the factorial number system.
        let mut rank = usize::from(x[0]);
        for (k, ((size, block, place), count)) in self.blocks.iter().zip([self.lines.0, self.lines.1]).enumerate() {
            let images = &x[1 + k * n..][..n];
            let mut lines = 0;
            let mut used = 0u32;
            for b in 0..n / size {
                let v = block[usize::from(images[b * size])];
                lines = lines * (n / size - b) + (!used & ((1 << v) - 1)).count_ones() as usize;
                used |= 1 << v;
            }
            for b in 0..n / size {
                let mut used = 0u32;
                for i in 0..*size {
                    let v = place[usize::from(images[b * size + i])];
                    lines = lines * (size - i) + (!used & ((1 << v) - 1)).count_ones() as usize;
                    used |= 1 << v;
                }
            }
            rank = rank * count + lines;
        }
        rank
    }
}

/// What [`classes`] found: the group and its conjugacy classes.
pub(super) struct Classes {
    /// The group's order.
    pub order: usize,
    /// A representative and the size of each class.
    pub classes: Vec<(Motion, usize)>,
    /// Whether a motion of the group maps the rows onto the columns.
    pub transposed: bool,
    /// The motions that do not move lines as wholes (a cell's coordinates
    /// permuted, [`coordinate_motions`]).
    pub beyond_lines: usize,
}

/// How bands count the grids the motion `packed` fixes (`by_relabellings`):
/// in bands of rows (`false`) or of columns (`true`), where there are two
/// to four of them, each with whether the motion maps every band of it
/// onto itself; in the order to try them: those with more bands first
/// (smaller bands, fewer fillings: 8x8's two bands of four columns took
/// up to four seconds to give up on where its four bands of two rows
/// took milliseconds), then those it keeps. Empty for a motion that
/// transposes (it maps no band onto a band).
pub(super) fn banding(packed: Packed, n: usize, h: usize, w: usize) -> Vec<(bool, bool)> {
    if packed & 1 == 1 {
        return Vec::new();
    }
    let line = |k: usize| image(packed, k);
    let rows = (2..=4).contains(&(n / h)).then(|| (false, (0..n).all(|r| line(r) / h == r / h), n / h));
    let cols = (2..=4).contains(&(n / w)).then(|| (true, (0..n).all(|c| line(n + c) / w == c / w), n / w));
    let mut ways: Vec<(bool, bool, usize)> = rows.into_iter().chain(cols).collect();
    ways.sort_by_key(|&(transposed, keeps, bands)| (std::cmp::Reverse(bands), !keeps, transposed));
    ways.into_iter().map(|(transposed, keeps, _)| (transposed, keeps)).collect()
}

/// The layout's own geometric group and its conjugacy classes: with
/// extra groups that are each the product of their rows and columns
/// (windows, disjoint groups), every motion that moves lines as wholes and
/// keeps the groups ([`line_motions`]), and with `beyond_lines` also the
/// permutations of a cell's coordinates that keep them
/// ([`coordinate_motions`]: SudokuP's exchange of the rows with the
/// boxes) and what they make with the others; without extra groups,
/// from the row motions' classes and the column motions'
/// ([`product_classes`]); otherwise (diagonals, `extra` regions) the group the
/// generators make on the blank layout `sudoku`, element by element (each
/// numbered by [`Ranks`]), cut down to the motions that keep the extra
/// groups. An error if the generators do not make every motion [`Ranks`]
/// numbers, `None` if `stop` (polled now and then) came first. At most
/// [`MAX_GROUP`] motions.
pub(super) fn classes(
    generators: &[Motion],
    sudoku: &Puzzle,
    extras: &[Cells],
    beyond_lines: bool,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Classes>, CountError> {
    let (h, w) = sudoku.boxes().expect("a Sudoku layout");
    let n = h * w;
    let identity = pack(&identity(n), n);
    let packed: Vec<Packed> = generators.iter().map(|g| pack(g, n)).collect();
    let transposing = packed.iter().any(|g| g & 1 == 1);
    let sets = (!extras.is_empty()).then(|| layout_sets(sudoku, extras));
    if let Some((sets, elements)) = sets.and_then(|sets| line_motions(n, &sets, transposing).map(|e| (sets, e))) {
        let place: HashMap<Packed, usize> = elements.iter().enumerate().map(|(e, &p)| (p, e)).collect();
        let index = move |p| place[&p];
        let generators = subgroup_generators(&elements, n, &index);
        let groups: HashSet<Cells> = sets.into_iter().collect();
        let coordinates = if beyond_lines { coordinate_motions(n, (h, w)) } else { Vec::new() };
        let beyond: Vec<Motion> =
            coordinates.into_iter().filter(|motion| !moves_lines(motion, n) && keeps_all(motion, n, &groups)).collect();
        if !beyond.is_empty() {
            let generators = generators.iter().map(|&g| unpack(g, n)).chain(beyond).collect::<Vec<_>>();
            return cell_classes(&generators, n, stop);
        }
        return conjugacy(elements, &generators, &index, (h, w), stop);
    }
    if extras.is_empty() {
        return product_classes(&packed, (h, w), stop);
    }
    let ranks = Ranks::new(n, (h, w), transposing);
    let mut seen = vec![false; ranks.order];
    seen[ranks.rank(identity)] = true;
    let mut elements = vec![identity];
    let mut next = 0;
    while next < elements.len() {
        let element = elements[next];
        for &generator in &packed {
            let product = compose_packed(generator, element, n);
            let seen = &mut seen[ranks.rank(product)];
            if !*seen {
                *seen = true;
                elements.push(product);
            }
        }
        next += 1;
        if next % (1 << 16) == 0 && stop() {
            return Ok(None);
        }
    }
    if elements.len() != ranks.order {
        let why = format!("the geometric generators make {} motions, not {}", elements.len(), ranks.order);
        return Err(CountError::NotASolution(why));
    }
    drop(seen);
    // The motions that keep the extra groups (an extra group may map onto
    // any group of the layout), and generators of those.
    let own = sudoku.groups().iter().map(|g| g.cells.iter().fold([0; 4], |set, c| with(set, c.row * n + c.col)));
    let groups: HashSet<Cells> = extras.iter().copied().chain(own).collect();
    elements.retain(|&element| keeps(element, n, extras, &groups));
    let place: HashMap<Packed, usize> = elements.iter().enumerate().map(|(e, &p)| (p, e)).collect();
    let index = move |p| place[&p];
    let packed = subgroup_generators(&elements, n, &index);
    conjugacy(elements, &packed, &index, (h, w), stop)
}

/// The conjugacy classes of the group `elements` (the identity first),
/// made by `generators`, `index` the place of each element; `None` if
/// `stop` came first.
fn conjugacy(
    elements: Vec<Packed>,
    generators: &[Packed],
    index: &dyn Fn(Packed) -> usize,
    (h, w): (usize, usize),
    stop: &dyn Fn() -> bool,
) -> Result<Option<Classes>, CountError> {
    let n = h * w;
    let inverses: Vec<Packed> = generators.iter().map(|&g| pack(&inverse(&unpack(g, n)), n)).collect();
    let conjugate =
        |g: &Packed, e: &Packed, g_inverse: &Packed| compose_packed(*g, compose_packed(*e, *g_inverse, n), n);
    let Some(mut sets) = conjugates_joined(&elements, generators, &inverses, conjugate, |&p| index(p), 1 << 16, stop)
    else {
        return Ok(None);
    };
    // Each class's representative: an element that keeps the bands or the
    // stacks where the class has one (bands count them with the fewest
    // bands enumerated).
    let keeps = |&packed: &Packed| banding(packed, n, h, w).first().is_some_and(|&(_, keeps)| keeps);
    let mut classes: Vec<(Motion, usize)> =
        class_sizes(&elements, &mut sets, keeps).into_iter().map(|(p, size)| (unpack(p, n), size)).collect();
    classes.sort();
    let transposed = elements.iter().any(|&element| element & 1 == 1);
    Ok(Some(Classes { order: elements.len(), classes, transposed, beyond_lines: 0 }))
}

/// The classes of the geometric group of a blank layout, from those of
/// its row motions `R` and its column motions `C`, each built element by
/// element (9x9: 1,296 each, not 3,359,232 motions).
///
/// Row and column motions move lines the other leaves in place, so they
/// commute, and `x r c x^-1` with `x = y z` (`y` in `R`, `z` in `C`) is
/// `(y r y^-1)(z c z^-1)`: without transposition the classes are the
/// pairs of a class of `R` and a class of `C`, with the product of their
/// sizes. With the transposition `t` (square boxes), `t r c t^-1 = f(c)
/// f(r)` where `f` is conjugation by `t`, which maps `R` onto `C` and back,
/// so the pair of classes `(A, B)` joins `(f(B), f(A))`: one class of
/// `|A||B|` motions where the two are the same pair, one of twice that
/// otherwise. The group is then the wreath product `R wr 2`, whose
/// motions that transpose, `r c t`, fall into one class for each class of
/// `R`: conjugating `r c t` by `c^-1` (a column motion) gives `r' t` with
/// `r' = r f(c)` in `R`, and `r' t` by `y` in `R` gives `y r' y^-1 t`
/// once brought to that form, so every class of `R` makes one; and no
/// two meet, since `(r c t)^2 = (r f(c)) (c f(r))`, whose row part's class
/// in `R` no conjugation changes (`t` turns it into `f(c) r`, conjugate to
/// `r f(c)`). Each has `|R|` times its class's size (they add up to
/// `|R|^2`), represented by `r t`.
/// Each factor's representative keeps its blocks (bands, or stacks) where
/// its class has one that does, and of a joined pair the one whose first
/// way of banding keeps it, as [`conjugacy`] prefers. `generators` each
/// move rows alone, columns alone, or transpose ([`generators`]).
fn product_classes(
    generators: &[Packed],
    (h, w): (usize, usize),
    stop: &dyn Fn() -> bool,
) -> Result<Option<Classes>, CountError> {
    let n = h * w;
    let identity = pack(&identity(n), n);
    // The row images (nibbles 1 to n) and the column images (n + 1 to 2n).
    let rows_mask: Packed = ((1 << (4 * n)) - 1) << 4;
    let moves = |g: Packed, mask: Packed| g & 1 == 0 && g & mask != identity & mask;
    let mut factors = Vec::with_capacity(2);
    for (mask, size, first) in [(rows_mask, h, 0), (rows_mask << (4 * n), w, n)] {
        let own: Vec<Packed> = generators.iter().copied().filter(|&g| moves(g, mask)).collect();
        let Some(factor) = factor_classes(&own, n, stop, |p| (0..n).all(|k| image(p, first + k) / size == k / size))?
        else {
            return Ok(None);
        };
        factors.push(factor);
    }
    let (rows, cols) = (&factors[0], &factors[1]);
    let order = rows.order() * cols.order();
    let keeps = |packed: Packed| banding(packed, n, h, w).first().is_some_and(|&(_, keeps)| keeps);
    let mut classes: Vec<(Motion, usize)> = Vec::new();
    let transposition = generators.iter().copied().find(|&g| g & 1 == 1);
    match transposition {
        None => {
            for (&(r, r_size), &(c, c_size)) in itertools::iproduct!(&rows.classes, &cols.classes) {
                classes.push((unpack(compose_packed(r, c, n), n), r_size * c_size));
            }
        }
        Some(t) => {
            let turned = |p: Packed| compose_packed(t, compose_packed(p, t, n), n);
            for (i, &(r, r_size)) in rows.classes.iter().enumerate() {
                for (j, &(c, c_size)) in cols.classes.iter().enumerate() {
                    let partner = (rows.class_of[&turned(c)], cols.class_of[&turned(r)]);
                    let size = r_size * c_size;
                    if partner == (i, j) {
                        classes.push((unpack(compose_packed(r, c, n), n), size));
                    } else if (i, j) < partner {
                        let (mine, theirs) = (compose_packed(r, c, n), compose_packed(turned(c), turned(r), n));
                        let chosen = if !keeps(mine) && keeps(theirs) { theirs } else { mine };
                        classes.push((unpack(chosen, n), 2 * size));
                    }
                }
            }
            for &(r, r_size) in &rows.classes {
                classes.push((unpack(compose_packed(r, t, n), n), rows.order() * r_size));
            }
        }
    }
    classes.sort();
    let transposed = transposition.is_some();
    Ok(Some(Classes { order: order * if transposed { 2 } else { 1 }, classes, transposed, beyond_lines: 0 }))
}

/// A factor of [`product_classes`]: its classes (a representative and
/// the size of each), and each motion's class.
struct Factor {
    classes: Vec<(Packed, usize)>,
    class_of: HashMap<Packed, usize>,
}

impl Factor {
    /// The number of motions.
    fn order(&self) -> usize {
        self.class_of.len()
    }
}

/// The group `generators` make (packed motions that commute with the
/// other factor's) and its conjugacy classes, each with its size, the
/// representative one that `prefer` takes where the class has one; `None`
/// if `stop` came first, an error past [`MAX_GROUP`] motions.
fn factor_classes(
    generators: &[Packed],
    n: usize,
    stop: &dyn Fn() -> bool,
    prefer: impl Fn(Packed) -> bool,
) -> Result<Option<Factor>, CountError> {
    let compose = |a: &Packed, b: &Packed| compose_packed(*a, *b, n);
    let most = (MAX_GROUP, "the row or column motions number");
    let Some((elements, place)) = closure(pack(&identity(n), n), generators, compose, most, 1 << 16, stop)? else {
        return Ok(None);
    };
    let inverses: Vec<Packed> = generators.iter().map(|&g| pack(&inverse(&unpack(g, n)), n)).collect();
    let conjugate =
        |g: &Packed, e: &Packed, g_inverse: &Packed| compose_packed(*g, compose_packed(*e, *g_inverse, n), n);
    let Some(mut sets) = conjugates_joined(&elements, generators, &inverses, conjugate, |p| place[p], 1 << 16, stop)
    else {
        return Ok(None);
    };
    // In the representatives' order, so that a class's number, and the
    // representative of a pair the transposition joins, are the same on
    // every run.
    let mut classes = class_sizes(&elements, &mut sets, |&p| prefer(p));
    classes.sort_unstable();
    let by_root: HashMap<usize, usize> =
        classes.iter().enumerate().map(|(i, &(p, _))| (sets.find(place[&p]), i)).collect();
    let class_of = elements.iter().enumerate().map(|(e, &p)| (p, by_root[&sets.find(e)])).collect();
    Ok(Some(Factor { classes, class_of }))
}

/// The group `generators` make, as permutations of the cells, and its
/// conjugacy classes, for a group with motions that move no lines as
/// wholes; `None` if `stop` came first, an error past [`MAX_CELL_GROUP`]
/// motions.
fn cell_classes(generators: &[Motion], n: usize, stop: &dyn Fn() -> bool) -> Result<Option<Classes>, CountError> {
    let most = (MAX_CELL_GROUP, "the layout's motions number");
    let Some((elements, place)) = closure(identity(n), generators, compose, most, 1 << 12, stop)? else {
        return Ok(None);
    };
    let inverses: Vec<Motion> = generators.iter().map(inverse).collect();
    let conjugate = |g: &Motion, e: &Motion, g_inverse: &Motion| compose(g, &compose(e, g_inverse));
    let Some(mut sets) = conjugates_joined(&elements, generators, &inverses, conjugate, |m| place[m], 1 << 12, stop)
    else {
        return Ok(None);
    };
    let mut classes = class_sizes(&elements, &mut sets, |_| false);
    classes.sort();
    // A motion maps the rows onto the columns where the first row's first
    // two cells go to one column.
    let transposed = n >= 2 && elements.iter().any(|m| m[0] as usize % n == m[1] as usize % n);
    let beyond_lines = elements.iter().filter(|m| !moves_lines(m, n)).count();
    Ok(Some(Classes { order: elements.len(), classes, transposed, beyond_lines }))
}

/// A group's elements, listed, and each one's place in the list.
type Listed<T> = (Vec<T>, HashMap<T, usize>);

/// The group `generators` make from `identity` under `compose`, element
/// by element, each with its place in the list; `None` if `stop`, polled
/// every `every` elements, came first, an error past `most.0` elements
/// (`most.1` says what they are).
fn closure<T: Clone + Eq + std::hash::Hash>(
    identity: T,
    generators: &[T],
    compose: impl Fn(&T, &T) -> T,
    most: (usize, &str),
    every: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Listed<T>>, CountError> {
    let mut place: HashMap<T, usize> = HashMap::from([(identity.clone(), 0)]);
    let mut elements = vec![identity];
    let mut next = 0;
    while next < elements.len() {
        for generator in generators {
            let product = compose(generator, &elements[next]);
            if let std::collections::hash_map::Entry::Vacant(entry) = place.entry(product.clone()) {
                if elements.len() == most.0 {
                    let why = format!("--up-to-symmetry: {} more than {}", most.1, most.0);
                    return Err(CountError::Unsupported(why));
                }
                entry.insert(elements.len());
                elements.push(product);
            }
        }
        next += 1;
        if next % every == 0 && stop() {
            return Ok(None);
        }
    }
    Ok(Some((elements, place)))
}

/// The group `elements` with each element joined to its conjugates `g e
/// g^-1` by the `generators` (`inverses` theirs), whatever the motions'
/// form: its conjugacy classes (conjugation by any element is a chain of
/// conjugations by generators), `index` the place of each element. `None`
/// if `stop`, polled every `every` elements, came first.
fn conjugates_joined<T>(
    elements: &[T],
    generators: &[T],
    inverses: &[T],
    conjugate: impl Fn(&T, &T, &T) -> T,
    index: impl Fn(&T) -> usize,
    every: usize,
    stop: &dyn Fn() -> bool,
) -> Option<DisjointSets> {
    let mut sets = DisjointSets::new(elements.len());
    for (e, element) in elements.iter().enumerate() {
        if e % every == 0 && stop() {
            return None;
        }
        for (generator, inverse) in generators.iter().zip(inverses) {
            sets.join(e, index(&conjugate(generator, element, inverse)));
        }
    }
    Some(sets)
}

/// Each class of `sets` (over `elements`) with its size: its
/// representative the first of its elements, or the first one `prefer`
/// takes if any does.
fn class_sizes<T: Clone>(elements: &[T], sets: &mut DisjointSets, prefer: impl Fn(&T) -> bool) -> Vec<(T, usize)> {
    let mut sizes: HashMap<usize, (usize, usize)> = HashMap::new();
    for (e, element) in elements.iter().enumerate() {
        let (size, representative) = sizes.entry(sets.find(e)).or_insert((0, e));
        *size += 1;
        if !prefer(&elements[*representative]) && prefer(element) {
            *representative = e;
        }
    }
    sizes.into_values().map(|(size, representative)| (elements[representative].clone(), size)).collect()
}

/// The motion that leaves every cell where it is.
fn identity(n: usize) -> Motion {
    (0..(n * n) as u16).map(|i| i as u8).collect()
}

/// Every permutation of a cell's four coordinates (its band, its row in
/// the band, its stack, its column in the stack) that sends each to one of
/// the same range, as a motion of the cells, the identity left out: on
/// 9x9 the 24 orders of `(a, i, b, j)` in `0..3`, among them the
/// transposition `(b, j, a, i)` and SudokuP's exchange of the rows with
/// the boxes and the columns with the disjoint groups, `(a, b, i, j)`.
/// Which of them keep a layout's groups is for the caller to check.
pub(crate) fn coordinate_motions(n: usize, (h, w): (usize, usize)) -> Vec<Motion> {
    use itertools::Itertools;
    let ranges = [n / h, h, n / w, w];
    let identity = identity(n);
    (0..4)
        .permutations(4)
        .filter(|order| (0..4).all(|k| ranges[k] == ranges[order[k]]))
        .map(|order| {
            cells(n, |r, c| {
                let x = [r / h, r % h, c / w, c % w];
                (x[order[0]] * h + x[order[1]], x[order[2]] * w + x[order[3]])
            })
        })
        .filter(|motion| *motion != identity)
        .collect()
}

/// Whether `motion` moves rows and columns as wholes (onto rows and
/// columns): whether its packed form, which reads only where the lines
/// go, gives it back.
fn moves_lines(motion: &Motion, n: usize) -> bool {
    unpack(pack(motion, n), n) == *motion
}

/// Whether `motion` maps each set of `groups` onto one of them.
fn keeps_all(motion: &Motion, n: usize, groups: &HashSet<Cells>) -> bool {
    groups
        .iter()
        .all(|set| groups.contains(&members(set, n).fold([0; 4], |image, cell| with(image, usize::from(motion[cell])))))
}

/// The motions of an `n x n` grid that move rows and columns as wholes
/// (and transpose, where `transpose`) and map every set of `sets` onto one
/// of them, packed, the identity first: with a layout's groups and those
/// they imply ([`layout_sets`]: Windoku's five hidden windows too), the
/// layout's own geometric symmetries, each mapping grids onto grids. Such
/// a motion may leave the Sudoku's group: Windoku's exchange of the boxes
/// with the windows and hidden windows (rows and columns 1 and 4, 6 and 9
/// swapped), the disjoint groups' exchange with the boxes on 4x4. `None` unless every
/// group is the product of its rows and its columns (a set of rows
/// times a set of columns), which a diagonal is not, or past
/// [`MAX_GROUP`] motions. Where the groups are such products, a motion of
/// lines keeps them exactly when it maps each pair (rows, columns) onto a
/// pair: the row orders that keep the rows' sets and the column orders
/// that keep the columns' sets are listed by backtracking, then the
/// pairs of them kept, and the transposition where it maps the pairs onto
/// themselves.
fn line_motions(n: usize, sets: &[Cells], transpose: bool) -> Option<Vec<Packed>> {
    let mut products: HashSet<(u32, u32)> = HashSet::new();
    for set in sets {
        let rows = members(set, n).fold(0u32, |m, p| m | 1 << (p / n));
        let cols = members(set, n).fold(0u32, |m, p| m | 1 << (p % n));
        if (rows.count_ones() * cols.count_ones()) as usize != members(set, n).count() {
            return None;
        }
        products.insert((rows, cols));
    }
    let family = |pick: fn(&(u32, u32)) -> u32| products.iter().map(pick).collect::<HashSet<u32>>();
    let rhos = line_orders(n, &family(|p| p.0))?;
    let sigmas = line_orders(n, &family(|p| p.1))?;
    if rhos.len().saturating_mul(sigmas.len()) > MAX_GROUP {
        return None;
    }
    let flips = transpose && products.iter().all(|&(r, c)| products.contains(&(c, r)));
    let identity = pack(&identity(n), n);
    let mut elements = vec![identity];
    for (rho, sigma) in itertools::iproduct!(&rhos, &sigmas) {
        if !products.iter().all(|&(r, c)| products.contains(&(moved(r, rho), moved(c, sigma)))) {
            continue;
        }
        for flip in [false, true].into_iter().take(1 + usize::from(flips)) {
            let (rho, sigma) = (|r: usize| usize::from(rho[r]), |c: usize| usize::from(sigma[c]));
            let motion = cells(n, |r, c| if flip { (sigma(c), rho(r)) } else { (rho(r), sigma(c)) });
            let motion = pack(&motion, n);
            if motion != identity {
                elements.push(motion);
            }
        }
    }
    Some(elements)
}

/// The groups of the layout `sudoku` with the `extras`, and those they
/// imply (Windoku's five hidden windows: every grid holds them all
/// different, `symmetry::implied_groups`, on grids of up to 128 cells).
fn layout_sets(sudoku: &Puzzle, extras: &[Cells]) -> Vec<Cells> {
    let n = sudoku.side();
    let own = sudoku.groups().iter().map(|g| g.cells.iter().fold([0; 4], |set, c| with(set, c.row * n + c.col)));
    let mut sets: Vec<Cells> = own.chain(extras.iter().copied()).collect();
    if n * n <= 128 {
        let wide = |set: &Cells| u128::from(set[0]) | u128::from(set[1]) << 64;
        let mut groups: Vec<u128> = sets.iter().map(wide).collect();
        let implied = crate::count::symmetry::implied_groups(n, &mut groups);
        sets.extend(implied.iter().map(|&g| [g as u64, (g >> 64) as u64, 0, 0]));
    }
    sets
}

/// The set of lines `lines` (a bit each) moved by `to`.
fn moved(lines: u32, to: &[u8]) -> u32 {
    (0..to.len()).filter(|&l| lines >> l & 1 == 1).fold(0, |m, l| m | 1 << to[l])
}

/// Every order of `n` lines (the line each goes to) that maps each set of
/// `family` onto one of them, by backtracking line by line, a set checked
/// once its last line has its image; `None` past [`MAX_GROUP`].
fn line_orders(n: usize, family: &HashSet<u32>) -> Option<Vec<Vec<u8>>> {
    let mut by_last: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &set in family {
        by_last[31 - set.leading_zeros() as usize].push(set);
    }
    let mut out = Vec::new();
    let mut to = vec![0u8; n];
    // False once past the bound.
    fn extend(
        line: usize,
        used: u32,
        to: &mut Vec<u8>,
        by_last: &[Vec<u32>],
        family: &HashSet<u32>,
        out: &mut Vec<Vec<u8>>,
    ) -> bool {
        if line == to.len() {
            out.push(to.clone());
            return out.len() <= MAX_GROUP;
        }
        for image in (0..to.len()).filter(|&i| used >> i & 1 == 0) {
            to[line] = image as u8;
            if by_last[line].iter().all(|&set| family.contains(&moved(set, &to[..=line])))
                && !extend(line + 1, used | 1 << image, to, by_last, family, out)
            {
                return false;
            }
        }
        true
    }
    extend(0, 0, &mut to, &by_last, family, &mut out).then_some(out)
}

/// Whether the packed motion maps each extra group onto one of `groups`
/// (the layout's).
fn keeps(packed: Packed, n: usize, extras: &[Cells], groups: &HashSet<Cells>) -> bool {
    let x = nibbles(packed);
    let image = |cell: usize| {
        let (r, c) = (usize::from(x[1 + cell / n]), usize::from(x[1 + n + cell % n]));
        if x[0] == 1 {
            c * n + r
        } else {
            r * n + c
        }
    };
    extras
        .iter()
        .all(|set| groups.contains(&members(set, n).fold([0; 4], |image_set, cell| with(image_set, image(cell)))))
}

/// Generators of the group `elements` (closed under composition, the
/// identity first), `index` the place of each: each element not yet
/// reached by those before it is added, and what they reach found again.
fn subgroup_generators(elements: &[Packed], n: usize, index: &dyn Fn(Packed) -> usize) -> Vec<Packed> {
    let mut generators = Vec::new();
    let mut reached = vec![false; elements.len()];
    reached[0] = true;
    for e in 1..elements.len() {
        if reached[e] {
            continue;
        }
        generators.push(elements[e]);
        reached.fill(false);
        reached[0] = true;
        let mut queue = vec![elements[0]];
        while let Some(element) = queue.pop() {
            for &generator in &generators {
                let product = compose_packed(generator, element, n);
                if !std::mem::replace(&mut reached[index(product)], true) {
                    queue.push(product);
                }
            }
        }
    }
    generators
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn motions_pack_and_unpack() {
        let puzzle = Puzzle::sudoku(3, 3).unwrap();
        for generator in generators(&puzzle, true).unwrap() {
            assert_eq!(unpack(pack(&generator, 9), 9), generator);
        }
    }

    #[test]
    fn packed_motions_compose_as_their_cells_do() {
        for (h, w) in [(2, 2), (2, 3), (3, 3)] {
            let n = h * w;
            let generators = generators(&Puzzle::sudoku(h, w).unwrap(), true).unwrap();
            let mut motions = generators.clone();
            for a in &generators {
                motions.extend(generators.iter().map(|b| compose(a, b)));
            }
            for a in &motions {
                for b in &motions {
                    assert_eq!(compose_packed(pack(a, n), pack(b, n), n), pack(&compose(a, b), n), "{h}x{w}");
                }
            }
        }
    }

    /// 9x9: 3,359,232 symmetries in 275 conjugacy classes (Russell &
    /// Jarvis 2006). About 7 s in the test profile (opt-level 1).
    #[test]
    fn the_nine_by_nine_group_has_275_classes() {
        let puzzle = Puzzle::sudoku(3, 3).unwrap();
        let found = classes(&generators(&puzzle, true).unwrap(), &puzzle, &[], true, &|| false).unwrap().unwrap();
        assert_eq!((found.order, found.classes.len()), (3_359_232, 275));
        assert_eq!(found.classes.iter().map(|c| c.1).sum::<usize>(), found.order);
        // Sudoku X: 96 of them keep the diagonals (Mathimagics, enjoysudoku
        // forum, "SudokuX (Diagonal Sudoku)", 2018).
        let extras = extra_groups(&puzzle.clone().with_diagonals()).unwrap();
        let x =
            super::classes(&generators(&puzzle, true).unwrap(), &puzzle, &extras, true, &|| false).unwrap().unwrap();
        assert_eq!((x.order, x.beyond_lines), (96, 0));
        assert_eq!(x.classes.iter().map(|c| c.1).sum::<usize>(), x.order);
    }

    /// The classes found from the row motions' and the column motions'
    /// (pairs of their classes, joined by the transposition where it is
    /// one of the motions, and the transposing classes one for each row
    /// class), checked against the same group built as permutations of
    /// the cells, one class at a time, each class found by conjugating its
    /// representative by every element: 4x4 with and without
    /// transposition, 6x6 with 2x3 and 3x2 boxes. 9x9 has 275 classes
    /// (Russell & Jarvis 2006; `the_nine_by_nine_group_has_275_classes`),
    /// 484 without transposition (kjellfp 2006, enjoysudoku.com forum).
    #[test]
    fn a_group_has_the_classes_its_row_and_column_motions_make() {
        for (h, w, transpose) in [(2, 2, false), (2, 2, true), (2, 3, false), (3, 2, false)] {
            let puzzle = Puzzle::sudoku(h, w).unwrap();
            let n = h * w;
            let generators = generators(&puzzle, transpose).unwrap();
            let found = classes(&generators, &puzzle, &[], transpose, &|| false).unwrap().unwrap();
            let whole = cell_classes(&generators, n, &|| false).unwrap().unwrap();
            assert_eq!((found.order, found.transposed), (whole.order, transpose));
            let mut sizes: Vec<usize> = found.classes.iter().map(|c| c.1).collect();
            let mut expected: Vec<usize> = whole.classes.iter().map(|c| c.1).collect();
            sizes.sort();
            expected.sort();
            assert_eq!(sizes, expected, "{h}x{w}");
            // The group's elements, by closure of the cell permutations.
            let mut elements = vec![identity(n)];
            let mut seen: HashSet<Motion> = elements.iter().cloned().collect();
            let mut next = 0;
            while next < elements.len() {
                for g in &generators {
                    let product = compose(g, &elements[next]);
                    if seen.insert(product.clone()) {
                        elements.push(product);
                    }
                }
                next += 1;
            }
            let mut covered = HashSet::new();
            for (representative, size) in &found.classes {
                let class: HashSet<Motion> =
                    elements.iter().map(|x| compose(x, &compose(representative, &inverse(x)))).collect();
                assert_eq!(class.len(), *size, "{h}x{w}: {representative:?}");
                assert!(class.iter().all(|m| covered.insert(m.clone())), "{h}x{w}: two classes meet");
            }
            assert_eq!(covered.len(), found.order);
        }
        let nine = Puzzle::sudoku(3, 3).unwrap();
        let found = classes(&generators(&nine, false).unwrap(), &nine, &[], false, &|| false).unwrap().unwrap();
        assert_eq!((found.order, found.classes.len()), (1_679_616, 484));
    }

    /// Windoku's own group: 256 motions (Michel 2007, "Mathematics of
    /// NRC-Sudoku"): the row orders that keep the boxes' and the windows'
    /// rows (rows 2 and 3 swapped, rows 7 and 8, the rows read upwards) or
    /// exchange them (rows 1 and 4, 6 and 9 swapped, 1-based), 16, the same
    /// for the columns, both keeping or both exchanging, and transposition:
    /// 2 x 8 x 8 x 2. Half of them keep the bands (the Sudoku motions that
    /// keep the windows). SudokuP's: 36 row orders keep the bands and the
    /// rows' places in them (bands in any order, the same order of rows in
    /// each) and 36 exchange the two, with the columns likewise and
    /// transposition: 5,184, half of them Sudoku motions.
    #[test]
    fn windoku_and_sudoku_p_have_their_own_groups() {
        let sudoku = Puzzle::sudoku(3, 3).unwrap();
        let at = |r: usize, c: usize| r * 9 + c;
        let window = |r: usize, c: usize| {
            itertools::iproduct!(r..r + 3, c..c + 3).fold([0; 4], |set, (r, c)| with(set, at(r, c)))
        };
        let windows: Vec<Cells> = itertools::iproduct!([1, 5], [1, 5]).map(|(r, c)| window(r, c)).collect();
        let disjoint: Vec<Cells> = itertools::iproduct!(0..3, 0..3)
            .map(|(i, j)| {
                itertools::iproduct!(0..3, 0..3).fold([0; 4], |set, (b, s)| with(set, at(3 * b + i, 3 * s + j)))
            })
            .collect();
        for (extras, order) in [(windows, 256), (disjoint, 5184)] {
            let motions = line_motions(9, &layout_sets(&sudoku, &extras), true).unwrap();
            assert_eq!(motions.len(), order);
            assert_eq!(motions.iter().collect::<HashSet<_>>().len(), order);
            let transposing = motions.iter().filter(|&&m| m & 1 == 1).count();
            assert_eq!(transposing, order / 2);
            // Lines of one block go to one block.
            let sudoku_motions = motions
                .iter()
                .filter(|&&m| (0..9).all(|k| image(m, k) / 3 == image(m, k - k % 3) / 3))
                .filter(|&&m| (9..18).all(|k| image(m, k) / 3 == image(m, k - k % 3) / 3))
                .count();
            assert_eq!(sudoku_motions, order / 2);
        }
        // Diagonals are no products of rows and columns.
        let diagonals = extra_groups(&sudoku.clone().with_diagonals()).unwrap();
        assert!(line_motions(9, &layout_sets(&sudoku, &diagonals), true).is_none());
    }

    /// With the permutations of a cell's coordinates that keep the groups,
    /// SudokuP's group doubles to the forum's 10,368 (enjoysudoku forum,
    /// "SudokuP - Analysis", 2018), half of it moving no lines as wholes;
    /// 4x4's to 128 and 6x6's (either box shape) to 576; Windoku's and
    /// Sudoku X's stay 256 and 96, every motion a line motion; without
    /// them (`--symmetry no-transpose`) SudokuP keeps its 2,592 line motions
    /// that do not transpose.
    #[test]
    fn coordinate_motions_join_the_groups_that_they_keep() {
        for ((h, w), rules, beyond, order, lines_only) in [
            ((3, 3), "disjoint\n", true, 10_368, 5_184),
            ((3, 3), "disjoint\n", false, 2_592, 2_592),
            ((2, 2), "disjoint\n", true, 128, 64),
            ((2, 3), "box 2x3\ndisjoint\n", true, 576, 288),
            ((3, 2), "box 3x2\ndisjoint\n", true, 576, 288),
            ((3, 3), "windoku\n", true, 256, 256),
            ((3, 3), "diagonal+\ndiagonal-\n", true, 96, 96),
        ] {
            let n = h * w;
            let layout = crate::parse::parse(&format!("size {n}\n{rules}"), "layout", None).unwrap();
            let sudoku = Puzzle::sudoku(h, w).unwrap();
            let extras = extra_groups(&layout).unwrap();
            let found = classes(&generators(&sudoku, beyond).unwrap(), &sudoku, &extras, beyond, &|| false).unwrap();
            let found = found.unwrap();
            assert_eq!((found.order, found.order - found.beyond_lines), (order, lines_only), "{h}x{w} {rules}");
            assert_eq!(found.classes.iter().map(|c| c.1).sum::<usize>(), order);
        }
    }

    #[test]
    fn the_geometric_groups_have_their_orders() {
        for (h, w, transpose, order) in [(2, 2, true, 128), (2, 2, false, 64), (2, 3, true, 3456), (3, 2, false, 3456)]
        {
            let puzzle = Puzzle::sudoku(h, w).unwrap();
            let found =
                classes(&generators(&puzzle, transpose).unwrap(), &puzzle, &[], transpose, &|| false).unwrap().unwrap();
            assert_eq!(found.order, order, "{h}x{w}");
            assert_eq!(super::order(&puzzle, transpose && h == w), Some(order as u128));
            assert_eq!(found.classes.iter().map(|c| c.1).sum::<usize>(), order);
        }
    }
}
