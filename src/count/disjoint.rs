//! Disjoint sets over `0..len` (union-find with path halving): the classes
//! that symmetries join, in `bands` and `burnside`.

/// Disjoint sets of indices; each set is named by its least member.
pub(crate) struct DisjointSets {
    parent: Vec<u32>,
}

impl DisjointSets {
    /// `len` sets of one index each.
    pub(crate) fn new(len: usize) -> DisjointSets {
        DisjointSets { parent: (0..len as u32).collect() }
    }

    /// The least member of the set that holds `x`.
    pub(crate) fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            let up = self.parent[self.parent[x] as usize];
            self.parent[x] = up;
            x = up as usize;
        }
        x
    }

    /// Joins the sets of `a` and `b`.
    pub(crate) fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent[a.max(b)] = a.min(b) as u32;
        }
    }
}
