//! herald: a referee for board games played by email.
//!
//! Layers, arrows pointing one way: [`record`] (parsing records, with
//! positions) -> [`games`] (pure engines behind [`game::Game`]) ->
//! [`referee`] (replays a record through an engine, derives chance from
//! commitments, verifies reveals) -> `cli` (arguments, files, output).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod cli;
pub mod fairness;
pub mod game;
pub mod games;
pub mod picture;
pub mod record;
pub mod referee;
pub mod selfplay;
pub mod wallet;

/// Run the `herald` command line with the process's arguments (what the
/// binary does), returning its exit code: 0 ok, 1 an illegal or invalid
/// game or choice, 2 usage or I/O.
pub use cli::main as run;
/// A problem as the command line reports it, placed in the record's
/// text and rendered like rustc's errors (`Problem::render`) or as JSON.
pub use cli::Problem;
