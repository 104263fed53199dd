//! The incremental SAT loop the user drew: solve, read the model, add a clause
//! that blocks it (over the primary variables only), repeat until UNSAT.
//!
//! Under a cube (see [`super::Engine::start_cube`]) the solver runs under the
//! cube's literals as assumptions plus a fresh activation literal `a`, and each
//! blocking clause is `¬a ∨ ¬l₁ ∨ … ∨ ¬lₖ` over the model's true primary
//! literals that the cube does not already fix: within the cube those still
//! exclude exactly one model, and they are shorter. When the cube is done, the
//! unit `¬a` retires all its blocking clauses at once, so one solver serves
//! every cube without its clause database growing with the count.
//!
//! A puzzle with alternatives counts each grid under a cube only when the
//! cube's selectors agree with the grid's own (`choices.rs`), as the enum
//! engine does, so that cubes split on selectors add up to the whole.
//!
//! varisat has no way to stop a solve from inside, and one solve may run
//! for hours, so the solver lives on a thread of its own (`Sat`): the
//! engine waits for each answer while it watches the stop flag, and once
//! the flag is set leaves the solve behind (it ends with its solve, or
//! with the process), so that `--timeout`, Ctrl-C and SIGTERM stop the
//! count in a tick.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use varisat::solver::SolverError;
use varisat::{CnfFormula, ExtendFormula, Lit, Solver, Var};

use super::choices::{value_under, Choices};
use super::{CountError, Engine, SearchStats};
use crate::encode::Encoded;
use crate::model::Grid;

/// How often the engine looks at the stop flag while a solve runs.
const TICK: Duration = Duration::from_millis(20);

/// What the engine asks of its solver's thread.
enum Ask {
    NewVar,
    Clause(Vec<Lit>),
    /// A solve under these assumptions.
    Solve(Vec<Lit>),
}

/// What the solver's thread answers: a fresh variable, or whether a solve
/// found a model, and the model.
enum Answer {
    Var(Var),
    Solved(Result<bool, SolverError>, Option<Vec<Lit>>),
}

/// A varisat solver on a thread of its own (see the module doc). The
/// thread ends when the engine lets go of it and its solve is over.
struct Sat {
    asks: Sender<Ask>,
    answers: Receiver<Answer>,
}

impl Sat {
    /// The solver, given a copy of `formula`'s clauses, on a new thread.
    fn new(formula: &CnfFormula) -> Result<Sat, CountError> {
        let clauses = CnfFormula::from(formula.iter().map(<[Lit]>::to_vec).collect::<Vec<_>>());
        let (asks, inbox) = channel();
        let (outbox, answers) = channel();
        std::thread::Builder::new()
            .name("satsudoku-varisat".into())
            .spawn(move || {
                let mut solver = Solver::new();
                solver.add_formula(&clauses);
                while let Some(ask) = next(&inbox) {
                    let answer = match ask {
                        Ask::NewVar => Answer::Var(solver.new_var()),
                        Ask::Clause(clause) => {
                            solver.add_clause(&clause);
                            continue;
                        }
                        Ask::Solve(assumptions) => {
                            solver.assume(&assumptions);
                            let solved = solver.solve();
                            Answer::Solved(solved, solver.model())
                        }
                    };
                    if outbox.send(answer).is_err() {
                        break;
                    }
                }
            })
            .map_err(CountError::Threads)?;
        Ok(Sat { asks, answers })
    }
}

/// How long either side of the solver's channel looks for a message
/// before it sleeps: most solves take less, and waking a sleeping thread
/// cost about a tenth of the time a model took (measured on 2 cores).
const SPIN: Duration = Duration::from_micros(200);

/// The next message on `channel` if one comes within [`SPIN`].
fn spin<T>(channel: &Receiver<T>) -> Option<T> {
    let start = std::time::Instant::now();
    loop {
        match channel.try_recv() {
            Ok(message) => return Some(message),
            Err(std::sync::mpsc::TryRecvError::Disconnected) => return None,
            Err(std::sync::mpsc::TryRecvError::Empty) if start.elapsed() >= SPIN => return None,
            Err(std::sync::mpsc::TryRecvError::Empty) => std::hint::spin_loop(),
        }
    }
}

/// The solver thread's next ask, `None` once the engine let go of it.
fn next(inbox: &Receiver<Ask>) -> Option<Ask> {
    spin(inbox).or_else(|| inbox.recv().ok())
}

/// Where the engine's solver is.
enum State {
    /// Not started: it starts at the first ask.
    Unstarted,
    Running(Sat),
    /// A stop left a solve behind: nothing more is asked, and the engine
    /// finds nothing more.
    Abandoned,
}

/// Models of an encoded puzzle, one SAT call each.
pub struct Blocking<'a> {
    solver: State,
    encoded: &'a Encoded,
    /// The current cube's activation variable, if it has one.
    activation: Option<Var>,
    /// The activation literal, then the cube's literals.
    assumptions: Vec<Lit>,
    stop: Option<&'a AtomicBool>,
    sat_calls: u64,
    /// The alternatives whose selectors a cube may fix.
    choices: Choices,
    /// The last model found ([`Engine::step`] lends it).
    model: Option<Grid>,
}

impl<'a> Blocking<'a> {
    /// The engine on `encoded`, whose clauses a fresh varisat solver is
    /// given at the first cube.
    pub fn new(encoded: &'a Encoded) -> Blocking<'a> {
        let choices = Choices::default();
        Blocking {
            solver: State::Unstarted,
            encoded,
            activation: None,
            assumptions: Vec::new(),
            stop: None,
            sat_calls: 0,
            choices,
            model: None,
        }
    }

    /// Counts a grid under a cube only when the cube's selectors agree
    /// with the grid's own (see the module doc).
    pub fn with_choices(mut self, puzzle: &crate::model::Puzzle) -> Blocking<'a> {
        self.choices = Choices::new(puzzle, self.encoded);
        self
    }

    /// Makes [`Engine::step`] return `None` before the next SAT call once
    /// `stop` is set.
    pub fn stop_when(mut self, stop: &'a AtomicBool) -> Blocking<'a> {
        self.stop = Some(stop);
        self
    }
}

impl Blocking<'_> {
    /// Whether a stop left a solve behind.
    fn abandoned(&self) -> bool {
        matches!(self.solver, State::Abandoned)
    }

    /// Sends `ask` to the solver's thread, started if need be; nothing
    /// once a stop left a solve behind.
    fn ask(&mut self, ask: Ask) -> Result<(), CountError> {
        if let State::Unstarted = self.solver {
            self.solver = State::Running(Sat::new(&self.encoded.formula)?);
        }
        let State::Running(sat) = &self.solver else { return Ok(()) };
        sat.asks.send(ask).map_err(|_| CountError::SolverThread)
    }

    /// The solver's next answer, or `None` if the stop flag is set first
    /// (the solve is then left behind, and the engine finds nothing more)
    /// or was before.
    fn answer(&mut self) -> Result<Option<Answer>, CountError> {
        let State::Running(sat) = &self.solver else { return Ok(None) };
        if let Some(answer) = spin(&sat.answers) {
            return Ok(Some(answer));
        }
        loop {
            match sat.answers.recv_timeout(TICK) {
                Ok(answer) => return Ok(Some(answer)),
                Err(RecvTimeoutError::Timeout) => {
                    if self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                        self.solver = State::Abandoned;
                        return Ok(None);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Err(CountError::SolverThread),
            }
        }
    }

    /// The next model of the cube: a SAT call, then its blocking clause;
    /// a model whose alternatives the cube does not own is blocked and
    /// passed over.
    fn next_model(&mut self) -> Result<Option<Grid>, CountError> {
        loop {
            if self.abandoned() || self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                return Ok(None);
            }
            self.sat_calls += 1;
            self.ask(Ask::Solve(self.assumptions.clone()))?;
            let (solved, model) = match self.answer()? {
                None => return Ok(None),
                Some(Answer::Solved(solved, model)) => (solved, model),
                Some(Answer::Var(_)) => unreachable!("a solve answers with its model"),
            };
            if !solved.map_err(CountError::Solver)? {
                return Ok(None);
            }
            let model = model.ok_or(CountError::NoModel)?;
            let grid = self.encoded.vars.decode_model(&model)?;
            let mut clause = self.encoded.vars.blocking_clause(&grid);
            let cube = if self.activation.is_some() { &self.assumptions[1..] } else { &[] };
            if self.activation.is_some() {
                clause.retain(|lit| !cube.contains(&!*lit));
                clause.push(!self.assumptions[0]);
            }
            let counted = self.choices.own(&grid, |lit| value_under(cube, lit));
            self.ask(Ask::Clause(clause))?;
            if counted {
                return Ok(Some(grid));
            }
        }
    }
}

impl Engine for Blocking<'_> {
    fn start_cube(&mut self, cube: &[Lit]) -> Result<(), CountError> {
        if self.abandoned() {
            return Ok(()); // stopped: step finds nothing
        }
        if let Some(done) = self.activation.take() {
            self.ask(Ask::Clause(vec![done.negative()]))?;
        }
        self.assumptions.clear();
        if !cube.is_empty() {
            self.ask(Ask::NewVar)?;
            let Some(Answer::Var(activation)) = self.answer()? else {
                return Ok(()); // stopped: step finds nothing
            };
            self.activation = Some(activation);
            self.assumptions.push(activation.positive());
            self.assumptions.extend_from_slice(cube);
        }
        Ok(())
    }

    fn step(&mut self) -> Result<Option<&Grid>, CountError> {
        self.model = self.next_model()?;
        Ok(self.model.as_ref())
    }

    fn stats(&self) -> SearchStats {
        SearchStats { sat_calls: self.sat_calls, ..SearchStats::default() }
    }
}
