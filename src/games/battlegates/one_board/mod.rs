//! Layer 5, the one-board game: the position ([`state`]), the action
//! notation ([`notation`]), the turn ([`rules`]) and the position text
//! ([`position`]). What a set-up may change is a hook of [`variant`]:
//! this layer never names a set-up.

pub mod notation;
pub mod position;
pub mod rules;
pub mod state;
pub mod variant;
