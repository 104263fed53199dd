//! Compressed rows: items grouped by a small integer key in one array, as
//! the enum engine's implication lists, watch lists and branch sets keep
//! them, and the split's clauses and occurrence lists.

/// Where each key's region starts in an array holding, key after key, one
/// slot per occurrence of the key in `keys` (below `count`); one more
/// start at the end.
pub(super) fn starts_of(count: usize, keys: impl Iterator<Item = usize>) -> Vec<u32> {
    let mut starts = vec![0u32; count + 1];
    for key in keys {
        starts[key + 1] += 1;
    }
    for key in 0..count {
        starts[key + 1] += starts[key];
    }
    starts
}

/// Items grouped by a key `0..keys`, all in one array (compressed rows).
#[derive(Clone)]
pub(super) struct Csr<T> {
    starts: Vec<u32>,
    pub(super) items: Vec<T>,
}

impl<T: Copy> Csr<T> {
    /// Keys `0..keys` with no items.
    pub(super) fn empty(keys: usize) -> Csr<T> {
        Csr { starts: vec![0; keys + 1], items: Vec::new() }
    }

    /// From the `(key, item)` pairs `pairs` yields, each key's items in the
    /// order given. They are read twice, to count and to place, rather than
    /// collected first (a list of pairs is four times the result's size).
    pub(super) fn new<I: Iterator<Item = (usize, T)>>(keys: usize, pairs: impl Fn() -> I) -> Csr<T> {
        let starts = starts_of(keys, pairs().map(|(key, _)| key));
        let mut next = starts.clone();
        // Every slot is overwritten below; any item will do to fill them first.
        let mut items = pairs().next().map_or(Vec::new(), |(_, any)| vec![any; starts[keys] as usize]);
        for (key, item) in pairs() {
            items[next[key] as usize] = item;
            next[key] += 1;
        }
        Csr { starts, items }
    }

    /// Keeps the first of each key's items with the same `code_of`, a
    /// number below `codes`.
    pub(super) fn dedup(&mut self, codes: usize, code_of: impl Fn(T) -> usize) {
        // The key that last kept an item with each code.
        let mut kept_by = vec![usize::MAX; codes];
        let mut kept = 0;
        for key in 0..self.starts.len() - 1 {
            let range = self.range(key); // before its start moves down
            self.starts[key] = kept as u32;
            for i in range {
                let item = self.items[i];
                if std::mem::replace(&mut kept_by[code_of(item)], key) != key {
                    self.items[kept] = item;
                    kept += 1;
                }
            }
        }
        *self.starts.last_mut().expect("keys + 1 starts") = kept as u32;
        self.items.truncate(kept);
    }

    /// The number of keys.
    pub(super) fn keys(&self) -> usize {
        self.starts.len() - 1
    }

    pub(super) fn range(&self, key: usize) -> std::ops::Range<usize> {
        self.starts[key] as usize..self.starts[key + 1] as usize
    }

    pub(super) fn of(&self, key: usize) -> &[T] {
        &self.items[self.range(key)]
    }
}
