//! The header of a four-castle game: its sides (Castle1 to Castle4, all
//! four). (The `Decks` tag is the game's option, checked in the
//! composition for every set-up.)

use crate::game::{Setup, SetupError};

use crate::games::battlegates::geometry::board::side_name;
use crate::games::battlegates::geometry::layouts::{Layout, CASTLES};

/// Every castle named, no other side.
pub fn check_sides(setup: &Setup<'_>, layout: Layout) -> Result<(), SetupError> {
    if let Some(&other) = setup.sides.iter().find(|s| !CASTLES.contains(s)) {
        return Err(SetupError {
            tag: Some(side_name(other).to_string()),
            reason: format!(
                "Setup \"{}\" is played by Castle1, Castle2, Castle3 and Castle4, not {}",
                layout.tag(),
                side_name(other)
            ),
        });
    }
    if let Some(&missing) = CASTLES.iter().find(|c| !setup.sides.contains(c)) {
        let who = match layout {
            Layout::FourCastles => {
                "; one player holds Castle1 and Castle3, the other Castle2 and Castle4 (each \
                 castle a side tag of its own, the player's address on both)"
            }
            _ => "",
        };
        return Err(SetupError {
            tag: None,
            reason: format!(
                "Setup \"{}\" is played by Castle1, Castle2, Castle3 and Castle4: {} is \
                 missing{who}",
                layout.tag(),
                side_name(missing)
            ),
        });
    }
    Ok(())
}
