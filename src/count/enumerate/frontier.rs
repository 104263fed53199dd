//! Splitting the search: cubes made of the engine's own branch literals,
//! restricting the search to one, handing untried options to a waiting
//! thread, and the frontier left after a stop.

use varisat::Lit;

use super::{Enumerate, Frame};
use crate::count::pool::Pool;
use crate::count::Cube;

impl Enumerate<'_> {
    /// Splits the search into at least `target` cubes where it can: disjoint
    /// sets of branch literals that together cover every model. Each cube is
    /// a path of the engine's own branching (smallest set of exclusive
    /// options first), expanded level by level; cubes that propagation refutes
    /// are dropped, so the list is empty when the formula has no model.
    pub fn split(&mut self, target: usize) -> Vec<Cube> {
        self.split_further(vec![Vec::new()], target)
    }

    /// [`Enumerate::split`] starting from `cubes` instead of the whole search.
    /// Each round extends every cube by each option of its next branch
    /// point; consecutive cubes share their start, which stays propagated
    /// (see `Enumerate::restrict_to`).
    pub fn split_further(&mut self, cubes: Vec<Cube>, target: usize) -> Vec<Cube> {
        self.split_until(cubes, target, usize::MAX)
    }

    /// [`Enumerate::split`] by levels: every cube is extended by each
    /// option of `depth` branch points in turn (fewer where the search
    /// ends sooner), whatever the number of cubes that makes.
    pub fn split_to_depth(&mut self, depth: usize) -> Vec<Cube> {
        self.split_until(vec![Vec::new()], usize::MAX, depth)
    }

    /// Extends `cubes` level by level until there are `target` of them or
    /// `levels` rounds are done.
    fn split_until(&mut self, mut cubes: Vec<Cube>, target: usize, levels: usize) -> Vec<Cube> {
        for _ in 0..levels {
            if cubes.len() >= target {
                break;
            }
            let mut next = Vec::new();
            let mut expanded = false;
            for cube in cubes {
                if !self.restrict_to(&cube) {
                    continue;
                }
                match self.choose() {
                    None => next.push(cube),
                    Some(options) => {
                        expanded = true;
                        for option in options {
                            let mut longer = cube.clone();
                            longer.push(option);
                            if self.restrict_to(&longer) {
                                next.push(longer);
                            }
                        }
                    }
                }
            }
            cubes = next;
            if !expanded {
                break;
            }
        }
        self.restrict_to(&[]);
        cubes
    }

    /// Resets the search to the models that make every literal of `cube`
    /// true; false if propagation refutes the cube (or the formula). What
    /// `cube` shares at its start with the previous cube stays propagated.
    pub(super) fn restrict_to(&mut self, cube: &[Lit]) -> bool {
        self.stack.clear();
        self.started = false;
        self.cube_conflict = false;
        (self.found_in_cube, self.gave_work) = (0, false);
        if self.prop.unsat {
            return false;
        }
        let kept = self.cube.iter().zip(cube).take_while(|(a, b)| a == b).count();
        self.prop.undo_to(self.cube_marks.get(kept).copied().unwrap_or(self.cube_end));
        self.cube.truncate(kept);
        self.cube_marks.truncate(kept);
        if kept == 0 && !self.units.is_empty() && !self.settle_units() {
            return false;
        }
        for &lit in &cube[kept..] {
            let mark = self.prop.state.trail.len();
            // Each literal of the cube starts a level (see `learn.rs`).
            self.prop.state.level = (self.cube.len() + 1) as u32;
            if !self.prop.assign(lit) || !self.prop.propagate_from(mark) {
                self.prop.undo_to(mark);
                self.cube_conflict = true;
                break;
            }
            self.cube.push(lit);
            self.cube_marks.push(mark);
        }
        self.cube_end = self.prop.state.trail.len();
        self.prop.state.level = self.cube.len() as u32;
        !self.cube_conflict
    }

    /// Assigns the learnt units at level 0, where the formula implies
    /// them, with the trail back at level 0; false (the formula has no
    /// model) on conflict.
    fn settle_units(&mut self) -> bool {
        self.prop.state.level = 0;
        if !self.assign_units() {
            self.prop.unsat = true;
            return false;
        }
        // At level 0 they stay; the assignment there is not what it was.
        self.units.clear();
        self.level0 = None;
        self.cube_end = self.prop.state.trail.len();
        true
    }

    /// Gives `pool` the options not yet tried at the shallowest frame that
    /// has any, each as a cube (the path to the frame, then the option);
    /// they leave the frame. The deepest frame keeps the option it takes
    /// next, so the search always keeps some work.
    pub(super) fn give_work(&mut self, pool: &Pool) {
        let last = self.stack.len() - 1;
        let kept = |depth: usize, frame: &Frame| frame.next + usize::from(depth == last);
        let Some(level) =
            self.stack.iter().enumerate().position(|(depth, frame)| kept(depth, frame) < frame.options.len())
        else {
            return;
        };
        let mut path = self.cube.clone();
        path.extend(self.stack[..level].iter().filter_map(Frame::taken));
        let from = kept(level, &self.stack[level]);
        let given = self.stack[level].options.split_off(from);
        self.gave_work = true;
        pool.give(given.into_iter().map(|option| {
            let mut cube = path.clone();
            cube.push(option);
            cube
        }));
    }

    /// The search frontier: for each frame of the stack, its options not yet
    /// taken, each after the cube and the options taken above it. Every
    /// model of the cube is either already returned or in exactly one of these.
    pub(super) fn frontier(&self) -> Vec<Cube> {
        if self.prop.unsat || self.cube_conflict {
            return Vec::new();
        }
        if !self.started {
            return vec![self.cube.clone()];
        }
        let mut path = self.cube.clone();
        let mut cubes = Vec::new();
        for frame in &self.stack {
            for &option in &frame.options[frame.next..] {
                let mut cube = path.clone();
                cube.push(option);
                cubes.push(cube);
            }
            path.extend(frame.taken());
        }
        cubes
    }
}
