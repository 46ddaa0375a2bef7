//! The header of a four-castle game: its sides (Castle1 to Castle4, all
//! four) and its `Decks` tag.

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

/// The number the `Decks` tag gives, if any (checked by
/// [`check_options`]).
pub fn decks_tag(setup: &Setup<'_>) -> Option<u8> {
    setup.tag("Decks").and_then(|v| v.trim().parse().ok())
}

/// `Decks` is 1 or 2, and 2 only for four players.
pub fn check_options(setup: &Setup<'_>, layout: Layout) -> Result<(), SetupError> {
    if let Some(v) = setup.tag("Decks") {
        let n = decks_tag(setup);
        let ok = match n {
            Some(1) => true,
            Some(2) => layout.players() == 4,
            _ => false,
        };
        if !ok {
            let reason = if n == Some(2) {
                format!(
                    "Decks \"{v}\": two players play with one deck of 34 cards (Decks \"1\"); \
                     two decks are for four players"
                )
            } else {
                format!(
                    "Decks \"{v}\": the cards are one deck of 34 (\"1\") or, for four players, \
                     two decks of 68 (\"2\", their default)"
                )
            };
            return Err(SetupError {
                tag: Some("Decks".into()),
                reason,
            });
        }
    }
    Ok(())
}
