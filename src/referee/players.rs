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
use crate::referee::StepDue;

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

    /// The side whose line `writer`'s player may write right after
    /// `writer`'s, in the same message (`setup --then`, `move --then`):
    /// [`Referee::own_next`], the line due when every line due is that
    /// player's; in the audit, where audits come in any order, an audit
    /// due of one of its sides (`wanted`, the side of the key file given
    /// for it, when its audit is due), even beside another player's.
    /// `None` when the line due is another player's, or nothing is.
    pub fn own_line_after(&self, writer: Side, wanted: Option<Side>) -> Option<Side> {
        if self.phase() == Phase::Audit && self.open_claim().is_none() {
            let mine: Vec<Side> = self
                .audits_due()
                .into_iter()
                .filter(|&s| s != writer && self.same_player(writer, s))
                .collect();
            return wanted
                .filter(|w| mine.contains(w))
                .or_else(|| mine.first().copied());
        }
        self.own_next(writer)
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

    /// Before the line due: the line after it and its step, where that
    /// line is foreseeably another side's of the same player (so the
    /// player due writes both in one message, `setup --then` or `move
    /// --then`; spec section 3.7, "One player, several sides"). In the
    /// set-up, [`Referee::step_after_due`]; in play, the side due after
    /// the line due on the board as it stands (the line puts nobody out
    /// and ends nothing: a line that does is followed by what it made
    /// due, and `--then` is refused then, naming it); in the audit, when
    /// every audit due is one player's, another of them. `None` while a
    /// claim waits for its answer, and where the next line may be
    /// another player's.
    pub fn own_after_due(&self) -> Option<(Side, Step)> {
        let due = self.step_due()?;
        if self.open_claim().is_some() {
            return None;
        }
        let next = match self.phase() {
            Phase::Setup => self.step_after_due(),
            Phase::Play => self.play_after_due(&due),
            Phase::Audit => {
                let audits = self.audits_due();
                let one = audits.iter().all(|&s| self.same_player(s, due.side));
                audits
                    .into_iter()
                    .find(|&s| s != due.side)
                    .filter(|_| one)
                    .map(|s| (s, Step::Audit))
            }
            Phase::Over => None,
        }?;
        (next.0 != due.side && self.same_player(due.side, next.0)).then_some(next)
    }

    /// In play, before the line `due`: the side due after it on the board
    /// as it stands, and its step. After a turn, the next side in header
    /// order that takes turns ([`Game::takes_turns`]); after a farewell
    /// line, the side to move stays; either way a farewell line owed
    /// before that side moves comes first.
    fn play_after_due(&self, due: &StepDue) -> Option<(Side, Step)> {
        let header = &self.header;
        let seat = header.seat_of(due.side)?;
        let (mover, written) = match due.step {
            Step::Turn => {
                let next = header
                    .seats_from(seat)
                    .skip(1)
                    .chain(std::iter::once(seat))
                    .find(|&s| G::takes_turns(&self.state, header.side(s)))?;
                (next, None)
            }
            Step::Farewell => (header.seat_of(G::to_move(&self.state))?, Some(seat)),
            _ => return None,
        };
        match self.farewell_owed_at(mover, self.next_turn() + 1, written) {
            Some(f) => Some((header.side(f), Step::Farewell)),
            None => Some((header.side(mover), Step::Turn)),
        }
    }
}
