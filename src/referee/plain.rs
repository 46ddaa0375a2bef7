//! The short way of a plain turn through `check` (issue 30): a turn line
//! of actions (or `pass`) and nothing else, in a game where nothing but
//! the rules can refuse it (no commitment, key, deadline, hidden value,
//! deck, claim or draw offer), played straight into the position.
//!
//! It checks what [`Referee::play_into`] checks of such a line, in the
//! same terms: the number, the side and that it is due, the game not
//! over, each action read and applied in turn, the end of the turn, and
//! that no chance is left to settle. It reports no error: a line it
//! does not take, or one that breaks a rule, is left as it was (it plays
//! in the spare box, which takes the position's place only when the
//! whole line has played) for the full play, which names the problem.
//! So a line is refused exactly as before, and a line taken leaves the
//! referee as the full play would.

use super::{line_only_passes, Phase, Referee};
use crate::game::Game;
use crate::record::{ItemKind, LineKind, Turn};

impl<G: Game> Referee<G> {
    /// Whether no side's line can carry anything but actions in this
    /// game as it stands: nothing to reveal, sign, date, open or answer.
    #[inline]
    fn only_rules_judge(&self) -> bool {
        self.ledger.is_empty()
            && !self.keep.digest
            && self.keyless.is_none()
            && !self.header.any_key()
            && self.header.deadline().is_none()
            && !self.hidden.any()
            && !self.table.has_deck()
            && self.table.farewells().is_empty()
            && self.claim.is_none()
            && self.offer.is_none()
    }

    /// Play `turn` the short way, if it is a plain turn that plays: true
    /// when it played (the referee then is as [`Referee::play_into`]
    /// leaves it), false when it is left, untouched, to the full play.
    pub(super) fn play_plain(&mut self, turn: &Turn<'_>) -> bool {
        let plain_line = turn.kind == LineKind::Turn
            && turn.proofs.is_empty()
            && turn.forfeit.is_none()
            && turn.resign.is_none()
            && turn.draw.is_none()
            && turn.audit.is_none()
            && (turn.pass.is_some() == turn.items.is_empty());
        if !plain_line || turn.number != self.turns + 1 || !self.only_rules_judge() {
            return false;
        }
        let Some((side, seat)) = self.header.side_seat_named::<G>(turn.side) else {
            return false;
        };
        if self.phase() != Phase::Play || side != G::to_move(&self.state) {
            return false;
        }
        let mut state = self.spare_copy();
        if self.play_plain_in(&mut state, turn, seat, side) {
            self.spare = Some(std::mem::replace(&mut self.state, state));
            // What the full play records of such a line.
            self.ledger.record(seat, None);
            self.turns = turn.number;
            self.declared = None;
            self.lapsed = None;
            true
        } else {
            self.spare = Some(state);
            false
        }
    }

    /// The turn `turn` of side `side` (at `seat`) played in `state`, a
    /// copy of the position: whether it played as the rules allow, with
    /// no chance derived at its start and none left pending at its end.
    fn play_plain_in(
        &self,
        state: &mut G::State,
        turn: &Turn<'_>,
        seat: super::Seat,
        side: crate::game::Side,
    ) -> bool {
        let mut derived = Vec::new();
        let begun = self.start_turn_in(state, seat, None, &mut derived, &mut Vec::new());
        if begun.is_err() || !derived.is_empty() || line_only_passes::<G>(state, side) {
            return false;
        }
        for item in &turn.items {
            if !matches!(item.kind, ItemKind::Action) || G::outcome(state).is_over() {
                return false;
            }
            let Ok(action) = G::parse_action(state, &item.text) else {
                return false;
            };
            // No deck: no action spends an opened card (the full play
            // looks only where the line opened some).
            if G::apply(state, action).is_err() {
                return false;
            }
        }
        if !G::outcome(state).is_over() && G::end_turn(state).is_err() {
            return false;
        }
        G::pending(state).is_none()
    }
}
