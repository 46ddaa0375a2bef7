//! Layer 1, geometry: squares, posts, edges and directions
//! ([`board`]), and the boards of the set-ups with their sides and maze
//! slots ([`layouts`]). Imports nothing of Battlegates.

pub mod board;
pub mod layouts;
