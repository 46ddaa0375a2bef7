//! Layer 2, mazes: walls, gates and long gates on the edges of a board
//! ([`maze`]), and a side's hidden maze set-up, its slots and the rules
//! a complete maze obeys ([`setup`]). Over geometry only.

pub mod maze;
pub mod setup;
