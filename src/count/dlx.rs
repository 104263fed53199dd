//! The dancing-links engine: Knuth's Algorithm X on the puzzle's exact
//! cover problem ([`crate::formulate::ExactCover`]; seed 002 §2.3), with
//! the links laid out as in his DLX1 program (Knuth, "Dancing Links", 2000,
//! and the DLX1 notes: one array of nodes, a spacer between options, the
//! items' list headers first). It branches on the primary item with the
//! fewest options left (the MRV rule of DLX1) and counts each option it
//! tries as a node, the measure seed 002 reports. Secondary items (smaller
//! groups, forbidden pairs) are covered when an option takes them and are
//! never chosen to branch on.
//!
//! Cubes (from the driver's split over the direct encoding's variables)
//! become forced options (a positive literal) and removed options (a
//! negative one) before the search starts.

use std::sync::atomic::{AtomicBool, Ordering};

use std::collections::HashMap;

use varisat::{Lit, Var};

use super::{CountError, Engine, SearchStats};
use crate::encode::{DigitEncoding, Slot, VarMap};
use crate::formulate::ExactCover;
use crate::model::{Digit, Grid, Puzzle};

/// The links, reset for each cube.
#[derive(Clone, Debug)]
struct Links {
    /// Per item (index from 1; 0 is the root of the active primary items).
    llink: Vec<usize>,
    rlink: Vec<usize>,
    len: Vec<usize>,
    /// Per node: nodes `1..=items` are the items' headers, then options
    /// separated by spacers. `top` is the item, or `-k` for the k-th spacer.
    top: Vec<isize>,
    ulink: Vec<usize>,
    dlink: Vec<usize>,
}

impl Links {
    fn cover(&mut self, i: usize) {
        let mut p = self.dlink[i];
        while p != i {
            self.hide(p);
            p = self.dlink[p];
        }
        let (l, r) = (self.llink[i], self.rlink[i]);
        self.rlink[l] = r;
        self.llink[r] = l;
    }

    fn hide(&mut self, p: usize) {
        let mut q = p + 1;
        while q != p {
            let (x, u, d) = (self.top[q], self.ulink[q], self.dlink[q]);
            if x <= 0 {
                q = u;
            } else {
                self.dlink[u] = d;
                self.ulink[d] = u;
                self.len[x as usize] -= 1;
                q += 1;
            }
        }
    }

    fn uncover(&mut self, i: usize) {
        let (l, r) = (self.llink[i], self.rlink[i]);
        self.rlink[l] = i;
        self.llink[r] = i;
        let mut p = self.ulink[i];
        while p != i {
            self.unhide(p);
            p = self.ulink[p];
        }
    }

    fn unhide(&mut self, p: usize) {
        let mut q = p - 1;
        while q != p {
            let (x, u, d) = (self.top[q], self.ulink[q], self.dlink[q]);
            if x <= 0 {
                q = d;
            } else {
                self.dlink[u] = q;
                self.ulink[d] = q;
                self.len[x as usize] += 1;
                q -= 1;
            }
        }
    }

    /// Covers every item of the option node `x` is in, but `x`'s own
    /// (covered by the caller): DLX1's step X5.
    fn commit(&mut self, x: usize) {
        let mut p = x + 1;
        while p != x {
            let j = self.top[p];
            if j <= 0 {
                p = self.ulink[p];
            } else {
                self.cover(j as usize);
                p += 1;
            }
        }
    }

    /// Undoes [`Links::commit`]: DLX1's step X6.
    fn uncommit(&mut self, x: usize) {
        let mut p = x - 1;
        while p != x {
            let j = self.top[p];
            if j <= 0 {
                p = self.dlink[p];
            } else {
                self.uncover(j as usize);
                p -= 1;
            }
        }
    }

    /// Removes one option's nodes from their items' lists.
    fn remove_option(&mut self, first: usize, count: usize) {
        for q in first..first + count {
            let (u, d, x) = (self.ulink[q], self.dlink[q], self.top[q] as usize);
            self.dlink[u] = d;
            self.ulink[d] = u;
            self.len[x] -= 1;
        }
    }
}

/// Where the search is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Look at the items left (DLX1's X2).
    Enter,
    /// Try the option at the top of the stack, or the next one (X5, X6).
    Next,
    /// The cube is done.
    Done,
}

/// The dancing-links engine on one puzzle.
pub struct Dlx<'a> {
    cover: Result<ExactCover, String>,
    /// The links as built, copied for each cube.
    initial: Option<Links>,
    links: Option<Links>,
    /// The first node of each option, and its node count.
    option_nodes: Vec<(usize, usize)>,
    /// Each node's option.
    option_of: Vec<usize>,
    /// Each option's variable in the direct encoding.
    by_var: HashMap<Var, usize>,
    /// Forced options of the cube.
    forced: Vec<usize>,
    /// The option node chosen at each level, and the item it covers.
    stack: Vec<(usize, usize)>,
    state: State,
    side: usize,
    stats: SearchStats,
    stop: Option<&'a AtomicBool>,
    halted: bool,
    /// The last model found ([`Engine::step`] lends it).
    model: Option<Grid>,
}

impl<'a> Dlx<'a> {
    /// The engine for `puzzle`; a rule exact cover cannot express is the
    /// error of its first cube.
    pub fn new(puzzle: &Puzzle, vars: &VarMap) -> Dlx<'a> {
        let cover = match vars.digits() == DigitEncoding::Direct {
            // Cubes are literals of the formula's variables, each option's.
            false => Err("the dlx engine counts with the direct digit encoding".into()),
            true => ExactCover::of(puzzle).map_err(|e| format!("the dlx engine cannot count this puzzle: {e}")),
        };
        let mut engine = Dlx {
            cover,
            initial: None,
            links: None,
            option_nodes: Vec::new(),
            option_of: Vec::new(),
            by_var: HashMap::new(),
            forced: Vec::new(),
            stack: Vec::new(),
            state: State::Done,
            side: puzzle.side(),
            stats: SearchStats { decisions: Some(0), conflicts: Some(0), ..SearchStats::default() },
            stop: None,
            halted: false,
            model: None,
        };
        if let Ok(cover) = &engine.cover {
            let (links, nodes, of) = build(cover);
            engine.initial = Some(links);
            engine.option_nodes = nodes;
            engine.option_of = of;
            // Under the given-aware reduction a given cell's variables are
            // fixed, not the formula's: no cube names them.
            let var = |o: &crate::formulate::cover::CoverOption| match vars.slot(vars.var(o.cell, o.digit)) {
                Slot::Var(v) => Some(v),
                Slot::Fixed(_) => None,
            };
            engine.by_var = cover.options.iter().enumerate().filter_map(|(k, o)| Some((var(o)?, k))).collect();
        }
        engine
    }

    /// Stops the search once `flag` is set.
    pub fn stop_when(mut self, flag: &'a AtomicBool) -> Dlx<'a> {
        self.stop = Some(flag);
        self
    }

    /// DLX1's X8 then X6: undoes the last level's option and moves it to
    /// the next option of its item; the cube is done when no level is left.
    fn backtrack(&mut self, links: &mut Links) {
        match self.stack.last_mut() {
            None => self.state = State::Done,
            Some((x, _)) => {
                links.uncommit(*x);
                *x = links.dlink[*x];
                self.state = State::Next;
            }
        }
    }

    /// The solution the forced options and the stack make.
    fn grid(&self) -> Result<Grid, CountError> {
        let Ok(cover) = &self.cover else { unreachable!("no search without a cover") };
        let mut digits: Vec<Digit> = vec![0; self.side * self.side];
        let chosen = self.forced.iter().copied().chain(self.stack.iter().map(|&(x, _)| self.option_of[x]));
        for option in chosen {
            let option = &cover.options[option];
            digits[option.cell.row * self.side + option.cell.col] = option.digit;
        }
        Grid::new(self.side, digits).ok_or(CountError::NotASolution("the options chosen leave a cell empty".into()))
    }
}

/// The links of `cover`: DLX1's step X1. Also each option's first node and
/// length, and each node's option.
fn build(cover: &ExactCover) -> (Links, Vec<(usize, usize)>, Vec<usize>) {
    let items = cover.items.len();
    let mut links = Links {
        llink: vec![0; items + 1],
        rlink: vec![0; items + 1],
        len: vec![0; items + 1],
        top: vec![0; items + 1],
        ulink: (0..=items).collect(),
        dlink: (0..=items).collect(),
    };
    // The active list: the root 0 and the primary items 1..=primary.
    let primary = cover.primary;
    for i in 0..=primary {
        links.rlink[i] = if i == primary { 0 } else { i + 1 };
        links.llink[i] = if i == 0 { primary } else { i - 1 };
    }
    // Secondary items: each a list of its own.
    for i in primary + 1..=items {
        links.rlink[i] = i;
        links.llink[i] = i;
    }
    let mut option_nodes = Vec::with_capacity(cover.options.len());
    let mut option_of = vec![usize::MAX; items + 1];
    // The first spacer.
    let mut spacer = links.top.len();
    links.top.push(0);
    links.ulink.push(0);
    links.dlink.push(0);
    option_of.push(usize::MAX);
    for (k, option) in cover.options.iter().enumerate() {
        let first = links.top.len();
        for &item in &option.items {
            let i = item + 1;
            let node = links.top.len();
            links.top.push(i as isize);
            links.len[i] += 1;
            let last = links.ulink[i];
            links.ulink.push(last);
            links.dlink.push(i);
            links.dlink[last] = node;
            links.ulink[i] = node;
            option_of.push(k);
        }
        let count = links.top.len() - first;
        option_nodes.push((first, count));
        // The spacer after it: back to this option's first node; the
        // previous spacer forward to this option's last.
        links.dlink[spacer] = links.top.len() - 1;
        spacer = links.top.len();
        links.top.push(-(k as isize + 1));
        links.ulink.push(first);
        links.dlink.push(0);
        option_of.push(usize::MAX);
    }
    (links, option_nodes, option_of)
}

impl Engine for Dlx<'_> {
    fn start_cube(&mut self, cube: &[Lit]) -> Result<(), CountError> {
        let cover = self.cover.as_ref().map_err(|e| CountError::Unsupported(e.clone()))?;
        let mut links = self.initial.clone().expect("built with the cover");
        self.forced.clear();
        self.stack.clear();
        self.halted = false;
        self.state = State::Enter;
        // A literal of a digit the cell's domain excludes has no option.
        let option = |lit: &Lit| self.by_var.get(&lit.var()).copied();
        let mut removed = vec![false; cover.options.len()];
        for lit in cube.iter().filter(|l| l.is_negative()) {
            if let Some(k) = option(lit) {
                if !removed[k] {
                    removed[k] = true;
                    let (first, count) = self.option_nodes[k];
                    links.remove_option(first, count);
                }
            }
        }
        let mut covered = vec![false; cover.items.len() + 1];
        for lit in cube.iter().filter(|l| l.is_positive()) {
            let Some(k) = option(lit) else {
                self.state = State::Done; // the digit is not in the cell's domain
                break;
            };
            let (first, count) = self.option_nodes[k];
            let items: Vec<usize> = (first..first + count).map(|q| links.top[q] as usize).collect();
            if removed[k] || items.iter().any(|&i| covered[i]) {
                self.state = State::Done;
                break;
            }
            for &i in &items {
                covered[i] = true;
                links.cover(i);
            }
            self.forced.push(k);
        }
        self.links = Some(links);
        Ok(())
    }

    fn step(&mut self) -> Result<Option<&Grid>, CountError> {
        let Some(mut links) = self.links.take() else { return Ok(None) };
        let mut polls = 0u32;
        let found = loop {
            polls = polls.wrapping_add(1);
            if polls % 1024 == 0 && self.stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
                self.halted = true;
                break None;
            }
            match self.state {
                State::Done => break None,
                State::Enter if links.rlink[0] == 0 => {
                    // X2: every primary item is covered, a solution; then
                    // on to the next option of the last choice (X8, X6).
                    let grid = self.grid();
                    self.backtrack(&mut links);
                    break Some(grid);
                }
                State::Enter => {
                    // X3: the primary item with the fewest options; X4.
                    let (mut best, mut fewest) = (0, usize::MAX);
                    let mut p = links.rlink[0];
                    while p != 0 {
                        if links.len[p] < fewest {
                            (best, fewest) = (p, links.len[p]);
                            if fewest == 0 {
                                break;
                            }
                        }
                        p = links.rlink[p];
                    }
                    if fewest == 0 {
                        *self.stats.conflicts.get_or_insert(0) += 1;
                    }
                    links.cover(best);
                    self.stack.push((links.dlink[best], best));
                    self.state = State::Next;
                }
                State::Next => {
                    let &(x, i) = self.stack.last().expect("Next has a choice");
                    if x == i {
                        // X7: the item's options are spent; X8.
                        links.uncover(i);
                        self.stack.pop();
                        self.backtrack(&mut links);
                        continue;
                    }
                    // X5: try option x.
                    *self.stats.decisions.get_or_insert(0) += 1;
                    links.commit(x);
                    self.state = State::Enter;
                }
            }
        };
        self.links = Some(links);
        self.model = found.transpose()?;
        Ok(self.model.as_ref())
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }

    fn halted(&self) -> bool {
        self.halted
    }
}
