#![warn(missing_docs)]

//! `satsudoku` counts the solutions of Sudoku-family puzzles exactly with a SAT
//! solver. Data flows one way:
//! text ([`parse`]) -> [`model::Puzzle`] -> CNF ([`encode`]) -> models ([`count`])
//! -> report; [`dimacs`] writes the CNF for other counters and reads models back;
//! [`compare`] measures encodings against each other.
//!
//! The command line (`src/main.rs`, `src/cli.rs`, `src/app/`) is a thin
//! client of this library and not part of its API.

pub mod cluster;
pub mod compare;
pub mod count;
pub mod dimacs;
pub mod encode;
pub mod formulate;
pub mod memory;
pub mod model;
pub mod named;
pub mod parse;
pub mod report;
pub mod setter;
