//! The questions a setter asks after "is it unique?": which givens the
//! puzzle needs ([`minimal`]), how hard it is ([`rate`]), a new puzzle
//! with one solution ([`generate`]), and the fewest givens any puzzle of a
//! layout needs ([`fewest`]). Each works for every rule the model
//! holds, through the engines `unique` judges with and the propagation the
//! enum engine searches on.

pub mod fewest;
pub mod generate;
pub mod minimal;
pub mod rate;
