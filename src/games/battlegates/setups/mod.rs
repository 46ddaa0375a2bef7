//! Layer 7, the set-ups, each a layer over the one-board game: a set-up is a
//! folder here holding its rules as a [`Variant`] (hooks over the
//! one-board game, `one_board/variant.rs`), and one line in [`rules`].
//! Nothing below this folder names a set-up: the one-board game calls
//! the hooks of the set-up its position holds.
//!
//! - `misery/`: Misery Run (`Setup "misery-run"`).
//! - `castles/`: the four-castle set-ups on Battle Alley.
//!
//! The one-board game is the default, [`OneBoard`].

pub mod castles;
pub mod misery;

use crate::games::battlegates::geometry::layouts::Layout;
use crate::games::battlegates::one_board::state::State;
use crate::games::battlegates::one_board::variant::{OneBoard, Variant};

/// The rules `layout` is played by: its set-up's hooks, else the
/// one-board game's.
pub fn rules(layout: Layout) -> &'static dyn Variant {
    match layout {
        Layout::MiseryRun => &misery::MiseryRun,
        Layout::FourCastles | Layout::FourCastlesAllies | Layout::FourCastlesSolo => {
            &castles::FourCastles
        }
        #[allow(unreachable_patterns)]
        _ => &OneBoard,
    }
}

impl State {
    /// The position before the set-up of `layout`: armies on their
    /// portals, no maze, the deck whole, played by its set-up's rules.
    pub fn new(layout: Layout) -> State {
        State::with_rules(layout, rules(layout))
    }
}
