//! Layer 4, moves: turning and moving gates and what they carry
//! ([`gates`]), the Alley's stuck gates ([`alley`]), the actions as data
//! ([`action`]) and the dice phase's runs and shots ([`dice`]). Over the
//! pieces; no turn order, no set-up.

pub mod action;
pub mod alley;
pub mod dice;
pub mod gates;
