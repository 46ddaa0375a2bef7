//! Layer 3, pieces: the characters and where they stand on the maze
//! ([`characters`]: `Board`, `Id`, `Kind`, the dice phase), and the cards,
//! deck and hands ([`cards`]). Over geometry and mazes.

pub mod cards;
pub mod characters;
