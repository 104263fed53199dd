//! The column signature of one stack of a band, up to the order of its
//! columns: a partition of the `n` digits into `w` blocks of `h` (a box
//! of `h` rows and `w` columns holds every digit once, so the sets of
//! digits its columns hold partition them). Partitions are numbered, and
//! digit relabellings act on the numbers.

/// A digit, from 0, in this module.
pub(super) type Digit = u8;
/// A partition's number, an index into [`Shapes::blocks`].
pub(super) type Shape = u32;

/// Every partition of `n` digits into `w` blocks of `h`, numbered.
pub(super) struct Shapes {
    h: usize,
    w: usize,
    /// Per partition, the block of each digit, blocks numbered in the
    /// order of their smallest digits (the normal form).
    blocks: Vec<Vec<u8>>,
    /// Per normal form read as a number in base `w`, its partition's
    /// number (`u32::MAX`: not a partition into blocks of `h`).
    numbers: Vec<Shape>,
    /// Per partition, a relabelling that maps it onto partition 0 (the
    /// digits `j h .. j h + h - 1` in block `j`): its block `j`'s digits,
    /// in increasing order, go to `j h ..`.
    to_first: Vec<Vec<Digit>>,
}

impl Shapes {
    /// Every partition of `h * w` digits into `w` blocks of `h`; `None`
    /// if there are more than `limit`.
    pub(super) fn new(h: usize, w: usize, limit: usize) -> Option<Shapes> {
        let n = h * w;
        let codes = w.checked_pow(u32::try_from(n).ok()?)?;
        if partitions(h, w)? > limit as u128 || codes > 1 << 24 {
            return None;
        }
        let mut shapes = Shapes { h, w, blocks: Vec::new(), numbers: vec![Shape::MAX; codes], to_first: Vec::new() };
        let mut current = Vec::with_capacity(n);
        shapes.extend(&mut current, &mut vec![0; w]);
        Some(shapes)
    }

    /// Fills in every normal form that starts with `current`, given each
    /// block's size so far.
    fn extend(&mut self, current: &mut Vec<u8>, sizes: &mut [usize]) {
        if current.len() == self.h * self.w {
            let number = self.blocks.len() as Shape;
            let code = self.code(current);
            self.numbers[code] = number;
            let mut to_first = vec![0; current.len()];
            let mut next = vec![0; self.w];
            for (digit, &block) in current.iter().enumerate() {
                to_first[digit] = (usize::from(block) * self.h + next[usize::from(block)]) as Digit;
                next[usize::from(block)] += 1;
            }
            self.blocks.push(current.clone());
            self.to_first.push(to_first);
            return;
        }
        // A new block opens only after every earlier one (the normal form).
        let opened = current.iter().map(|&b| usize::from(b) + 1).max().unwrap_or(0);
        for block in 0..(opened + 1).min(self.w) {
            if sizes[block] < self.h {
                sizes[block] += 1;
                current.push(block as u8);
                self.extend(current, sizes);
                current.pop();
                sizes[block] -= 1;
            }
        }
    }

    fn code(&self, normal: &[u8]) -> usize {
        normal.iter().rev().fold(0, |code, &block| code * self.w + usize::from(block))
    }

    /// How many partitions there are.
    pub(super) fn len(&self) -> usize {
        self.blocks.len()
    }

    /// The block of each digit in partition `shape`.
    pub(super) fn blocks(&self, shape: Shape) -> &[u8] {
        &self.blocks[shape as usize]
    }

    /// The relabelling that maps `shape` onto partition 0.
    pub(super) fn to_first(&self, shape: Shape) -> &[Digit] {
        &self.to_first[shape as usize]
    }

    /// The partition whose block of digit `d` is `blocks[d]`, for blocks
    /// named in any order.
    pub(super) fn number(&self, blocks: &[u8]) -> Shape {
        let mut names = [u8::MAX; 256];
        let mut normal = [0u8; 64];
        let mut opened = 0;
        for (digit, &block) in blocks.iter().enumerate() {
            if names[usize::from(block)] == u8::MAX {
                names[usize::from(block)] = opened;
                opened += 1;
            }
            normal[digit] = names[usize::from(block)];
        }
        let number = self.numbers[self.code(&normal[..blocks.len()])];
        debug_assert!(number != Shape::MAX, "not a partition into equal blocks: {blocks:?}");
        number
    }

    /// The partition `shape` with each digit `d` renamed `rename[d]`.
    pub(super) fn relabelled(&self, shape: Shape, rename: &[Digit]) -> Shape {
        let mut blocks = [0u8; 64];
        for (digit, &block) in self.blocks(shape).iter().enumerate() {
            blocks[usize::from(rename[digit])] = block;
        }
        self.number(&blocks[..rename.len()])
    }
}

/// The number of partitions of `h w` digits into `w` blocks of `h`,
/// `(h w)! / (h!^w w!)`, if it fits.
pub(super) fn partitions(h: usize, w: usize) -> Option<u128> {
    // Choose the block of the smallest digit left, then the rest of it.
    let mut count: u128 = 1;
    for left in (1..=w).rev() {
        count = count.checked_mul(binomial(left * h - 1, h - 1)?)?;
    }
    Some(count)
}

/// The number of orders of a partition's blocks times its count: ordered
/// partitions, `(h w)! / h!^w`.
pub(super) fn ordered_partitions(h: usize, w: usize) -> Option<u128> {
    partitions(h, w)?.checked_mul((1..=w as u128).product())
}

fn binomial(n: usize, k: usize) -> Option<u128> {
    let mut result: u128 = 1;
    for i in 0..k {
        result = result.checked_mul((n - i) as u128)? / (i as u128 + 1);
    }
    Some(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_are_counted_and_numbered() {
        for (h, w, count) in [(2, 2, 3), (3, 2, 10), (4, 2, 35), (3, 3, 280), (5, 2, 126)] {
            assert_eq!(partitions(h, w), Some(count));
            let shapes = Shapes::new(h, w, 1000).expect("small");
            assert_eq!(shapes.len() as u128, count);
            for shape in 0..shapes.len() as Shape {
                assert_eq!(shapes.number(shapes.blocks(shape)), shape);
                assert_eq!(shapes.relabelled(shape, shapes.to_first(shape)), 0);
            }
        }
        assert_eq!(ordered_partitions(3, 3), Some(1680));
    }
}
