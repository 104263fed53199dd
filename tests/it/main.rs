//! The end-to-end tests, one binary (as ripgrep keeps them): each file a
//! module, the oracles and helpers in `common`.

mod common;

mod automata;
mod bands;
mod cages;
mod candidates;
mod chaos;
mod chart;
mod cli;
mod conventions;
mod corpus;
mod cubes;
mod docs;
mod encodings;
mod export_decode;
mod external;
mod family;
mod formulations;
mod fpuzzles_readings;
mod grid;
mod hostile;
mod iss;
mod learning;
mod oracle_agreement;
mod orbits;
mod output;
mod paths;
mod progress;
mod propagation;
mod rectangles;
mod robustness;
mod rules;
mod samples;
mod setter;
mod split;
mod symmetry;
mod takuzu;
mod unique;
mod variants;
