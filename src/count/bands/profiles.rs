//! Two bands whose table would be too large (10x10 with 2x5 boxes, counted
//! as 5x2: 126^4 entries), counted from the digits' profiles, each class's
//! band fillings counted by perfect matchings instead of the engine
//! (`matchings.rs`).
//!
//! With two bands each stack has two columns, and a signature says, for
//! each digit and each stack, which of the stack's two columns holds it:
//! the digit's *profile*, `h` bits (bit `k` set: column 0 of stack `k`).
//! Each stack's column 0 holds `h` digits, so each bit is set in `h` of
//! the `2h` profiles. Renaming the digits permutes the profiles, so up to
//! renaming a signature is the multiset of its profiles: 589,392 of them
//! for `h = 5`, against 252^5 = 1.0e12 signatures. Permuting the stacks
//! (the profiles' bits) and exchanging a stack's two columns (one bit of
//! every profile flipped) keep `N`, and the multisets fall into classes
//! under them (355 for `h = 5`, as github.com/linche89/sudoku-enumeration
//! finds). A class stands for `orbit (2h)! / prod m!` signatures: each
//! multiset in its orbit, once for each way of giving its profiles to the
//! digits (`m` the multiplicities of the profiles).

use std::collections::HashMap;

use itertools::Itertools;

/// The tallest bands counted from profiles: `2h` profiles of `h` bits pack
/// into a 64-bit key. With `h = 6` (12x12, 2x6 boxes) Pettersen counted
/// 63,199 classes, each band's count far slower than `h = 5`'s.
pub const MAX_H: usize = 5;

/// A class of signatures up to renaming, stack order and column exchange.
#[derive(Clone, Debug)]
pub(super) struct Class {
    /// The profile of each digit, in increasing order.
    pub profiles: Vec<u8>,
    /// The signatures it stands for.
    pub weight: u128,
}

/// The classes of the signatures of a band of `h` rows and two-column
/// stacks, and each multiset of profiles' class (by its [`key`]); `None`
/// if `stop` said so first.
pub(super) fn classes(h: usize, stop: &(dyn Fn() -> bool + Sync)) -> Option<(Vec<Class>, HashMap<u64, u32>)> {
    assert!((1..=MAX_H).contains(&h), "profiles of 1 ..= {MAX_H} bits");
    let profiles = 1usize << h;
    // Each symmetry as the image of every profile: the bits permuted,
    // then some flipped.
    let group: Vec<Vec<u8>> = (0..h)
        .permutations(h)
        .flat_map(|order| {
            (0..profiles).map(move |flip| {
                (0..profiles)
                    .map(|p| {
                        let moved = (0..h).filter(|&k| p >> k & 1 == 1).fold(0, |m, k| m | 1 << order[k]);
                        (moved ^ flip) as u8
                    })
                    .collect()
            })
        })
        .collect();
    let digits = 2 * h;
    let arrangements: u128 = (1..=digits as u128).product();
    let mut seen = HashMap::new();
    let mut classes = Vec::new();
    let mut image = vec![0u8; digits];
    let (mut stopped, mut met) = (false, 0u64);
    each_multiset(h, &mut Vec::with_capacity(digits), &mut vec![0; h], &mut |multiset| {
        met += 1;
        stopped = stopped || (met % 4096 == 0 && stop());
        if stopped || seen.contains_key(&key(multiset)) {
            return;
        }
        let mut orbit: Vec<u64> = group
            .iter()
            .map(|g| {
                image.iter_mut().zip(multiset).for_each(|(i, &p)| *i = g[usize::from(p)]);
                image.sort_unstable();
                key(&image)
            })
            .collect();
        orbit.sort_unstable();
        orbit.dedup();
        let repeats: u128 = multiset
            .iter()
            .chunk_by(|&&p| p)
            .into_iter()
            .map(|(_, run)| (1..=run.count() as u128).product::<u128>())
            .product();
        let class = classes.len() as u32;
        classes.push(Class { profiles: multiset.to_vec(), weight: orbit.len() as u128 * (arrangements / repeats) });
        seen.extend(orbit.into_iter().map(|k| (k, class)));
    });
    (!stopped).then_some((classes, seen))
}

/// A sorted multiset of profiles packed six bits each.
fn key(multiset: &[u8]) -> u64 {
    multiset.iter().fold(0, |key, &p| key << 6 | u64::from(p))
}

/// Calls `each` on every non-decreasing list of `2h` profiles that sets
/// each bit `h` times and starts with `current` (`sums`: each bit's count
/// so far).
fn each_multiset(h: usize, current: &mut Vec<u8>, sums: &mut [usize], each: &mut dyn FnMut(&[u8])) {
    let left = 2 * h - current.len();
    // Every bit must still be able to reach h.
    if sums.iter().any(|&s| s + left < h) {
        return;
    }
    if left == 0 {
        each(current);
        return;
    }
    let from = current.last().copied().unwrap_or(0);
    for p in from..(1u8 << h) {
        if (0..h).any(|k| p >> k & 1 == 1 && sums[k] == h) {
            continue;
        }
        (0..h).filter(|&k| p >> k & 1 == 1).for_each(|k| sums[k] += 1);
        current.push(p);
        each_multiset(h, current, sums, each);
        current.pop();
        (0..h).filter(|&k| p >> k & 1 == 1).for_each(|k| sums[k] -= 1);
    }
}

/// The digits each column of a band holds, as bit sets, when its digits
/// have these profiles: column `2k` holds the digits with bit `k` set,
/// column `2k + 1` the others.
pub(super) fn columns(profiles: &[u8]) -> Vec<u32> {
    let h = profiles.len() / 2;
    let holding = |k: usize, set: bool| {
        profiles.iter().enumerate().filter(|&(_, &p)| (p >> k & 1 == 1) == set).fold(0u32, |m, (d, _)| m | 1 << d)
    };
    (0..h).flat_map(|k| [holding(k, true), holding(k, false)]).collect()
}

#[cfg(test)]
mod tests {
    use super::super::matchings::backtracked;
    use super::*;

    /// Every signature is in one class: the weights add up to all of them,
    /// `C(2h, h)^h` (each stack's column 0 any `h` of the digits).
    #[test]
    fn the_class_weights_add_up_to_every_signature() {
        for h in 1..=4 {
            let (classes, _) = classes(h, &|| false).unwrap();
            let total: u128 = classes.iter().map(|c| c.weight).sum();
            let choose = (h as u128 + 1..=2 * h as u128).product::<u128>() / (1..=h as u128).product::<u128>();
            assert_eq!(total, choose.pow(h as u32), "h = {h}");
        }
    }

    /// Every multiset of a class has the class's fillings (the symmetries
    /// are true): each multiset's band counted by backtracking.
    #[test]
    fn classes_join_only_multisets_with_equal_fillings() {
        for h in [2, 3, 4] {
            let (classes, of) = classes(h, &|| false).unwrap();
            let band = |profiles: &[u8]| backtracked(&columns(profiles), h);
            let counts: Vec<u128> = classes.iter().map(|c| band(&c.profiles)).collect();
            let mut each = Vec::new();
            each_multiset(h, &mut Vec::new(), &mut vec![0; h], &mut |m| each.push(m.to_vec()));
            assert_eq!(each.len(), of.len(), "h = {h}: every multiset is in a class");
            for multiset in each.iter().step_by(if h == 4 { 7 } else { 1 }) {
                assert_eq!(band(multiset), counts[of[&key(multiset)] as usize], "{multiset:?}");
            }
        }
    }
}
