//! herald: a referee for board games played by email.
//!
//! Layers, arrows pointing one way: [`record`] (parsing records, with
//! positions) -> [`games`] (pure engines behind [`game::Game`]) ->
//! [`referee`] (replays a record through an engine, derives chance from
//! commitments, verifies reveals) -> `cli` (arguments, files, output).

#![warn(missing_docs)]

pub mod cli;
pub mod fairness;
pub mod game;
pub mod games;
pub mod picture;
pub mod record;
pub mod referee;
pub mod selfplay;
pub mod wallet;
