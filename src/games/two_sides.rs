//! What the two-sided games share: the other side; and for the
//! Blue-and-Red ones, the sides, their names, and the header check that
//! both play and nobody else does.

use crate::game::{Game, Setup, SetupError, Side};
use crate::picture::{Colour, SideKey};

/// Blue: side 0.
pub const BLUE: Side = Side(0);
/// Red: side 1.
pub const RED: Side = Side(1);

/// A side's name, `Blue` or `Red`.
pub fn side_name(side: Side) -> &'static str {
    if side == BLUE {
        "Blue"
    } else {
        "Red"
    }
}

/// The other side.
pub fn opponent(side: Side) -> Side {
    Side(1 - side.0)
}

/// The sides of a Blue-and-Red game's picture, Blue first, in the
/// palette's blue and vermillion.
pub fn picture_sides() -> Vec<SideKey> {
    vec![
        SideKey {
            name: "Blue",
            colour: Colour::Blue,
        },
        SideKey {
            name: "Red",
            colour: Colour::Vermillion,
        },
    ]
}

/// Check that exactly Blue and Red play game `G`.
pub fn check_sides<G: Game>(setup: &Setup<'_>) -> Result<(), SetupError> {
    for side in [BLUE, RED] {
        if !setup.sides.contains(&side) {
            return Err(SetupError {
                tag: Some(side_name(side).to_string()),
                reason: format!(
                    "{} is played by Blue and Red: {} is missing",
                    G::TITLE,
                    side_name(side)
                ),
            });
        }
    }
    if setup.sides.len() != 2 {
        return Err(SetupError {
            tag: None,
            reason: format!("{} is played by exactly two sides, Blue and Red", G::TITLE),
        });
    }
    Ok(())
}
