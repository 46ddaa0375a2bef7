//! Layer 7, the set-ups, each a layer over the one-board game: a set-up is a
//! folder here holding its rules as a [`Variant`] (hooks over the
//! one-board game, `one_board/variant.rs`: its layouts, header checks,
//! seating and rules), and one line in [`SETUPS`].
//! Nothing below this folder names a set-up: the one-board game calls
//! the hooks of the set-up its position holds.
//!
//! - `misery/`: Misery Run (`Setup "misery-run"`).
//! - `castles/`: the four-castle set-ups on Battle Alley.
//!
//! The one-board game is the default, [`OneBoard`].

use crate::games::battlegates::geometry::layouts::Layout;
use crate::games::battlegates::one_board::state::State;
use crate::games::battlegates::one_board::variant::{OneBoard, Variant};

/// Declares each set-up's folder (`pub mod`) and lists its hooks in
/// [`SETUPS`], after the one-board game (the default).
macro_rules! setups {
    ($($folder:ident :: $rules:ident),* $(,)?) => {
        $(pub mod $folder;)*

        /// Every set-up played: deleting a set-up's folder and its line in
        /// `setups!` leaves a game that compiles without it.
        pub const SETUPS: &[&dyn Variant] = &[&OneBoard, $(&$folder::$rules),*];
    };
}

setups! {
    misery::MiseryRun,
    castles::FourCastles,
}

/// Whether a set-up in [`SETUPS`] plays `layout`.
pub fn played(layout: Layout) -> bool {
    SETUPS.iter().any(|s| s.layouts().contains(&layout))
}

/// The rules `layout` is played by: the set-up that plays it
/// ([`Variant::layouts`]), else the one-board game's.
pub fn rules(layout: Layout) -> &'static dyn Variant {
    SETUPS
        .iter()
        .copied()
        .find(|s| s.layouts().contains(&layout))
        .unwrap_or(&OneBoard)
}

impl State {
    /// The position before the set-up of `layout`: armies on their
    /// portals, no maze, the deck whole, played by its set-up's rules.
    pub fn new(layout: Layout) -> State {
        State::with_rules(layout, rules(layout))
    }
}
