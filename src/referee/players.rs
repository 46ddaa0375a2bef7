//! Players and sides: one player may hold several sides (Battlegates'
//! `four-castles`: one address on two side tags, a key file a castle).
//! A message goes from a player to the players whose lines may come
//! next, so a line after which every such line is its own player's
//! would make a message whose only receiver is its sender: that player
//! writes those lines too, in the same message, and no player ever
//! answers their own mail (spec section 3.7, "One player, several
//! sides").

use crate::game::{Game, Phase, Side};
use crate::record::Contact;

use super::{Referee, Step};

/// The player a contact names, for comparing: its mail address in lower
/// case (`None` for a contact without one, which no message reaches).
fn player(contact: &str) -> Option<String> {
    Contact::parse(contact)
        .ok()?
        .address()
        .map(str::to_ascii_lowercase)
}

impl<G: Game> Referee<G> {
    /// Whether sides `a` and `b` are one player's: a side is its own
    /// player's, and two sides are one player's when their contacts name
    /// one mail address (any case, whatever the names beside it).
    pub fn same_player(&self, a: Side, b: Side) -> bool {
        if a == b {
            return true;
        }
        let header = &self.header;
        let contact = |side: Side| {
            let seat = header.seat_of(side)?;
            player(header.contacts().get(seat.index())?)
        };
        matches!((contact(a), contact(b)), (Some(x), Some(y)) if x == y)
    }

    /// The side whose line `writer`'s player writes next, in the same
    /// message as the line `writer` just wrote: the side due, when every
    /// side whose line may come next ([`Referee::sides_due`]) is a side
    /// of `writer`'s player (`writer` itself included). The message would
    /// otherwise go to nobody but its writer. `None` when another
    /// player's line may come next (audits in any order: one of another
    /// player is enough), or the game is over.
    pub fn own_next(&self, writer: Side) -> Option<Side> {
        let due = self.sides_due();
        if due.is_empty() || !due.iter().all(|&s| self.same_player(writer, s)) {
            return None;
        }
        self.step_due().map(|d| d.side)
    }

    /// During the set-up, before the line due is written: the side whose
    /// line comes after it and its step, where the set-up's order tells
    /// them without that line (its commitments and openings are not known
    /// yet): the next set-up line, or, after the set-up's last line, turn
    /// 1 of the side that moves first if play begins, when the game knows
    /// it before play ([`Game::first_mover_before_play`]). `None` anywhere
    /// else: after a turn, who is due depends on the turn.
    pub fn step_after_due(&self) -> Option<(Side, Step)> {
        if self.phase() != Phase::Setup || self.keyless.is_some() || self.open_claim().is_some() {
            return None;
        }
        match self.hidden.due_after_due()? {
            Some((seat, step)) => Some((self.header.side(seat), Step::Setup(step))),
            None => G::first_mover_before_play(&self.state).map(|side| (side, Step::Turn)),
        }
    }
}
