//! Commands an error suggests, as they work in the phase the game is in
//! (issue 29): `herald keygen` adds a side's tags before the record's
//! first line only, so once a line is written an error does not send
//! the player to it.

use crate::game::{Game, Side};

use super::{Command, Referee};

impl<G: Game> Referee<G> {
    /// How `side` gets a Commit and Key tag now: `herald keygen --side
    /// Blue` before the record's first line; after it, that it is too
    /// late in this game (tags are never added after a line).
    pub(super) fn keygen_hint(&self, side: Side) -> String {
        let name = side.name::<G>();
        let lines = self.setup_lines + self.turns;
        if lines == 0 {
            let key = format!("{}.key", name.to_ascii_lowercase());
            let keygen = Command::keygen(name).on_record().makes_key(&key);
            format!("{keygen} adds it before the first line")
        } else {
            format!(
                "too late in this game: tags are added before the first line only, and the \
                 record has {lines} line{}; a new game (herald new) can give every side a key",
                if lines == 1 { "" } else { "s" }
            )
        }
    }
}
