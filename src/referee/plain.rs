//! The short way of a plain turn (issue 30), the fast branch of the one
//! play path ([`Referee::play`], the replays and `check`): a turn line
//! of actions (or `pass`), chance facts and at most a reveal, in a game
//! where nothing but the rules and the side's hash chain can refuse it
//! (no key, digest kept, deadline, deck, claim or draw offer, and no
//! hidden value the rules want opened on it), played straight into the
//! position.
//!
//! It checks what the full play ([`Referee::sealed_into`]) checks of
//! such a line, in the same terms: the number, the side and that it is
//! due, the game not over, the reveal against the side's chain, the
//! chance it settles and the facts written for it, each action read and
//! applied in turn, the end of the turn, and that chance it declares
//! can be settled. It reports no error: a line it does not take, or one
//! that breaks a rule, is left as it was (it plays in the spare box,
//! which takes the position's place only when the whole line has
//! played) to the full play, which names the problem. So a line is
//! refused exactly as by the full play alone, and a line taken leaves
//! the referee and the turn played as the full play would
//! (`tests/short_way.rs` compares the two on every game's records,
//! whole and tampered).

use super::{line_only_passes, Phase, Referee, Seat};
use crate::fairness::Hash;
use crate::game::{Game, Side};
use crate::record::{ItemKind, LineKind, ProofKind, Turn};

use super::{ChanceEvent, PlayedTurn};

impl<G: Game> Referee<G> {
    /// Whether no side's line can carry anything but actions, facts and
    /// a reveal in this game as it stands: nothing to sign, date or
    /// answer, and no digest to work out. (A game with hidden values
    /// qualifies: a line that must open one is left to the full play by
    /// [`Referee::owes_opening`].)
    #[inline]
    fn only_rules_judge(&self) -> bool {
        !self.keep.digest
            && self.keyless.is_none()
            && !self.header.any_key()
            && self.header.deadline().is_none()
            && !self.table.has_deck()
            && self.table.farewells().is_empty()
            && self.claim.is_none()
            && self.offer.is_none()
    }

    /// Play `turn` the short way into `played`, if it is a plain turn
    /// that plays: true when it played (the referee and `played` then
    /// are as the full play leaves them), false when the referee is left,
    /// untouched, to the full play (`played` then holds nothing to read).
    #[inline]
    pub(super) fn play_plain(&mut self, turn: &Turn<'_>, played: &mut PlayedTurn<G>) -> bool {
        let reveal = match turn.proofs[..] {
            [] => None,
            [ref proof] => match proof.kind {
                ProofKind::Reveal(value) => Some(value),
                _ => return false,
            },
            _ => return false,
        };
        let plain_line = turn.kind == LineKind::Turn
            && turn.forfeit.is_none()
            && turn.resign.is_none()
            && turn.draw.is_none()
            && turn.audit.is_none()
            && (turn.pass.is_some() == turn.items.is_empty());
        if !plain_line || turn.number != self.turns + 1 || !self.only_rules_judge() {
            return false;
        }
        // The line must be the mover's: its side named as the mover's
        // name (in any case; no two sides' names differ just in case, so
        // this is the side the full play finds by the name).
        let side = G::to_move(&self.state);
        let name = side.name::<G>();
        if !(name.as_bytes() == turn.side.as_bytes() || name.eq_ignore_ascii_case(turn.side)) {
            return false;
        }
        let Some(seat) = self.header.seat_of(side) else {
            return false;
        };
        if self.phase() != Phase::Play {
            return false;
        }
        if (reveal.is_some() || !self.ledger.is_empty())
            && self
                .ledger
                .check(self.header.side_chain(seat), seat, reveal)
                .is_err()
        {
            return false;
        }
        let mut state = self.spare_copy();
        // The chance derived goes into the turn played, over the events
        // of the turn before, as in the full play.
        let mut spent = Vec::new();
        if !played.chance.is_empty() {
            spent = std::mem::replace(&mut played.chance, std::mem::take(&mut self.chance_room));
        }
        let ok = self.play_plain_in(&mut state, turn, seat, side, reveal, &mut spent, played);
        if spent.capacity() > 0 {
            spent.clear();
            self.chance_room = spent;
        }
        if !ok {
            self.spare = Some(state);
            return false;
        }
        // What the full play records of such a line.
        self.spare = Some(std::mem::replace(&mut self.state, state));
        self.lapsed = None;
        self.ledger.record(seat, reveal);
        self.turns = turn.number;
        self.declared = G::pending(&self.state).map(|_| (turn.number, side));
        if self.keep.chance {
            self.chance.extend(played.chance.iter().cloned());
        }
        true
    }

    /// The turn `turn` of side `side` (at `seat`), carrying `reveal`,
    /// played in `state`, a copy of the position, into `played`: whether
    /// it played as the rules allow, each fact it writes the value
    /// derived in its place, and any chance it leaves pending one the
    /// next mover can settle.
    #[allow(clippy::too_many_arguments)]
    fn play_plain_in(
        &self,
        state: &mut G::State,
        turn: &Turn<'_>,
        seat: Seat,
        side: Side,
        reveal: Option<Hash>,
        spent: &mut Vec<ChanceEvent>,
        played: &mut PlayedTurn<G>,
    ) -> bool {
        if self
            .start_turn_in(state, seat, reveal, &mut played.chance, spent)
            .is_err()
            || line_only_passes::<G>(state, side)
            || self.owes_opening(state, side)
        {
            return false;
        }
        played.begin(turn.number, side);
        played.before = self.before(state);
        let mut facts = played.chance.iter();
        for item in &turn.items {
            let text = match item.kind {
                ItemKind::Action => &item.text,
                ItemKind::Fact { label, value } => match facts.next() {
                    Some(e)
                        if e.label.eq_ignore_ascii_case(label)
                            && e.text.eq_ignore_ascii_case(value) =>
                    {
                        continue
                    }
                    _ => return false,
                },
            };
            if G::outcome(state).is_over() {
                return false;
            }
            let Ok(action) = G::parse_action(state, text) else {
                return false;
            };
            // No deck: no action spends an opened card (the full play
            // looks only where the line opened some).
            if G::apply(state, action).is_err() {
                return false;
            }
            played.actions.push(action);
        }
        // An opening the mover's actions demand (an attacker's), or a
        // game ended with hidden values left to audit: the full play's.
        if self.owes_opening(state, side) || (self.hidden.any() && G::outcome(state).is_over()) {
            return false;
        }
        if !G::outcome(state).is_over() && G::end_turn(state).is_err() {
            return false;
        }
        if G::pending(state).is_some() && !self.can_settle(G::to_move(state)) {
            return false;
        }
        played.reveal = reveal;
        true
    }

    /// Whether the rules demand in `state` that `side` open a hidden
    /// value on its line (before its actions, a defender's identity;
    /// after them, an attacker's): a line of the short way opens none.
    #[inline]
    fn owes_opening(&self, state: &G::State, side: Side) -> bool {
        self.hidden.any() && G::demands(state).iter().any(|d| d.side == side)
    }
}

#[cfg(test)]
mod tests {
    //! When the short way is not taken: `tests/short_way.rs` shows that
    //! it plays as the full play does.
    use super::*;
    use crate::games::castle_danger::CastleDanger;
    use crate::record::{parse, Source};
    use crate::selfplay::{self, Options};

    #[test]
    fn a_referee_that_keeps_the_digest_plays_every_turn_in_full() {
        let options = Options::new::<CastleDanger>(3, 2);
        let text = selfplay::record::<CastleDanger>(&options).unwrap();
        let source = Source::new(text.as_bytes()).unwrap();
        let record = parse(&source).unwrap();
        let mut referee = Referee::<CastleDanger>::start(&record).unwrap();
        let mut played = PlayedTurn::blank(0, Side(0), None);
        let turn = &record.turns[0];
        assert!(!referee.play_plain(turn, &mut played));
        referee.play(turn).unwrap();
        assert_eq!(referee.turns(), 1);
    }

    #[test]
    fn in_a_game_with_hidden_values_a_turn_that_opens_none_takes_the_short_way() {
        // Playground Battles' armies are hidden: a turn line that opens
        // no value (no fight) plays the short way; one that opens a
        // value, or ends the game with values left to audit, is the
        // full play's.
        use crate::games::playground_battles::PlaygroundBattles;
        let (mut short, mut full) = (0, 0);
        for seed in 0..4 {
            let mut options = Options::new::<PlaygroundBattles>(seed, 2);
            options.commitments = true;
            options.max_turns = 80;
            let text = selfplay::record::<PlaygroundBattles>(&options).unwrap();
            let source = Source::new(text.as_bytes()).unwrap();
            let record = parse(&source).unwrap();
            let mut referee = Referee::<PlaygroundBattles>::start(&record)
                .unwrap()
                .keeping(crate::referee::Keep::RULES);
            for turn in &record.turns {
                let opens = turn
                    .proofs
                    .iter()
                    .any(|p| matches!(p.kind, ProofKind::Open { .. }));
                let in_play = turn.kind == LineKind::Turn && referee.phase() == Phase::Play;
                let mut played = PlayedTurn::blank(0, Side(0), None);
                if in_play && referee.play_plain(turn, &mut played) {
                    assert!(!opens, "turn {} opens a value", turn.number);
                    short += 1;
                } else {
                    referee.play(turn).unwrap();
                    if in_play {
                        assert!(
                            opens || referee.phase() != Phase::Play,
                            "turn {} opens nothing and the game goes on",
                            turn.number
                        );
                        full += 1;
                    }
                }
            }
            referee.check_result().unwrap();
        }
        assert!(short > 50 && full > 5, "{short} short, {full} full");
    }
}
