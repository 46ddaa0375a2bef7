//! Sides leaving a game with a shared deck (spec section 3.9, "Leaving"
//! and "Farewell lines"): a side put out on a line written by another
//! hand writes one more line, its farewell line, at its next turn as the
//! order stood before it was put out, with no actions, no draw and no
//! resign: the shares its hand owes from there, or, when its hand has no
//! side left in the game, the hand's leaving items (every card it holds
//! opened and discarded, the seeds of its passes opened, its card secret
//! published). A hand whose last side leaves on the hand's own line (a
//! resignation) carries its leaving items on that line.

use super::deck::{DeckLedger, Hand};
use super::header::Seat;
use super::line::Line;
use super::{cards, At, Ending, LineError, Place, PlayedTurn, Referee};
use crate::game::{Game, Side};
use crate::record::ProofKind;

/// A farewell line owed by a side put out on another hand's line.
#[derive(Clone, Debug)]
pub(super) struct Farewell {
    /// The side put out.
    side: Seat,
    /// The turn whose line put it out.
    on: u32,
    /// The sides that, in the turn order before that line, came after
    /// the side put out, up to the line's writer: the farewell line comes
    /// before the first of them moves.
    after: Vec<Seat>,
    /// The first turn the farewell line may be: its place in the first
    /// round for a side out before turn 1, else 0.
    not_before: u32,
}

/// When a side was put out, for its messages: `on turn 5`, or `before
/// turn 1` (`on` 0: at the set-up).
fn put_out(on: u32) -> String {
    if on == 0 {
        "before turn 1".into()
    } else {
        format!("on turn {on}")
    }
}

impl Farewell {
    /// The farewell line owed by side `side`, put out on
    /// turn `on` (0: before turn 1), due before the first of `after`
    /// moves, and not before turn `not_before`.
    pub(super) fn new(side: Seat, on: u32, after: Vec<Seat>, not_before: u32) -> Farewell {
        Farewell {
            side,
            on,
            after,
            not_before,
        }
    }

    /// The side that owes it.
    pub(super) fn side(&self) -> Seat {
        self.side
    }

    /// The turn whose line put its side out (0: before turn 1).
    pub(super) fn on(&self) -> u32 {
        self.on
    }
}

/// The card secret a line publishes, with its proof index.
fn card_secret(line: &Line<'_>) -> Option<(usize, [u8; 32])> {
    line.proofs.iter().enumerate().find_map(|(k, p)| match *p {
        ProofKind::CardSecret(x) => Some((k, x)),
        _ => None,
    })
}

impl<G: Game> Referee<G> {
    /// Whether any side of the deck's hand `hand` takes turns in `state`.
    pub(super) fn hand_in(&self, state: &G::State, hand: Hand) -> bool {
        self.header
            .seated()
            .any(|(seat, side)| self.deck_index(seat) == hand && G::takes_turns(state, side))
    }

    /// The farewell line due now, if one is: the first (in the turn order
    /// before its side was put out) whose place has come, the side to
    /// move being one that came after it then (or none of those left).
    #[inline]
    pub(super) fn farewell_due(&self) -> Option<Seat> {
        if self.table.farewells().is_empty() {
            None
        } else {
            self.farewell_owed()
        }
    }

    /// [`Referee::farewell_due`] once some farewell is owed.
    fn farewell_owed(&self) -> Option<Seat> {
        if G::outcome(&self.state).is_over() || self.deck_broken().is_some() {
            return None;
        }
        let mover = self.header.seat_of(G::to_move(&self.state))?;
        self.farewell_owed_at(mover, self.next_turn(), None)
    }

    /// The farewell line owed at turn `turn` with `mover` the side to
    /// move on the board as it stands, `written` (a farewell line
    /// foreseen as written before it) left out: what
    /// [`Referee::farewell_due`] would say then ([`Referee::own_after_due`]
    /// foresees the line after the one due by it).
    pub(super) fn farewell_owed_at(
        &self,
        mover: Seat,
        turn: u32,
        written: Option<Seat>,
    ) -> Option<Seat> {
        self.table
            .farewells()
            .iter()
            .filter(|f| Some(f.side) != written)
            .find(|f| {
                turn >= f.not_before
                    && (f.after.contains(&mover)
                        || f.after
                            .iter()
                            .all(|&s| !G::takes_turns(&self.state, self.header.side(s))))
            })
            .map(|f| f.side)
    }

    /// What a player whose farewell line is due is told (`legal`,
    /// `move`), if one is due (spec section 3.9, "Farewell lines").
    pub fn farewell_note(&self) -> Option<String> {
        let seat = self.farewell_due()?;
        let f = self.table.farewells().iter().find(|f| f.side == seat)?;
        let name = self.header.side(seat).name::<G>();
        let what = if self.hand_in(&self.state, self.deck_index(seat)) {
            "the shares its hand owes"
        } else {
            "its hand's cards opened, its seeds and its card secret"
        };
        Some(format!(
            "{name} was put out {}: turn {} is its farewell line, with no actions and no \
             draw, carrying {what} (herald move pass --key)",
            put_out(f.on()),
            self.next_turn()
        ))
    }

    /// After turn `on`, written by side `seat`, which left the game in
    /// `state`: the farewell lines owed by the sides it put out of
    /// another hand, in the turn order before the line, added to those
    /// still due. A side put out on its own hand's line owes none.
    pub(super) fn owe_farewells(&mut self, seat: Seat, on: u32, state: &G::State) {
        if G::outcome(state).is_over() {
            self.table.clear_farewells();
            return;
        }
        let writer = self.deck_index(seat);
        // The turn order before the line, from the writer's next (the
        // writer last).
        let before: Vec<Seat> = self
            .header
            .seats_from(seat)
            .cycle()
            .skip(1)
            .take(self.header.seats().len())
            .filter(|&s| s == seat || G::takes_turns(&self.state, self.header.side(s)))
            .collect();
        for (k, &s) in before.iter().enumerate() {
            let out = s != seat
                && !G::takes_turns(state, self.header.side(s))
                && self.deck_index(s) != writer
                && !self.table.owes_farewell(s);
            if out {
                let after = before[k + 1..].to_vec();
                self.table.owe_farewell(Farewell::new(s, on, after, 0));
            }
        }
    }

    /// Once the set-up is over, in `state`: a side already out of the
    /// game (a Battlegates castle whose maze broke the rules) whose hand
    /// has no side left in it owes its leaving line at its place in the
    /// first round of turns, counted in header order from the side to
    /// move first (spec section 3.9, "Farewell lines"). A side out whose
    /// hand plays on owes none: every line is written knowing it out.
    pub(super) fn owe_setup_farewells(&mut self, state: &G::State) {
        if G::outcome(state).is_over() {
            return;
        }
        let Some(first) = self.header.seat_of(G::to_move(state)) else {
            return;
        };
        for (k, s) in self.header.seats_from(first).enumerate() {
            let owes = !G::takes_turns(state, self.header.side(s))
                && !self.hand_in(state, self.deck_index(s))
                && !self.table.owes_farewell(s);
            if owes {
                let after = self.header.seats().filter(|&o| o != s).collect();
                self.table
                    .owe_farewell(Farewell::new(s, 0, after, k as u32 + 1));
            }
        }
    }

    /// Play the farewell line `line` of side `seat` (spec section 3.9,
    /// "Farewell lines"): no actions, no draw, no resign, no chance; the
    /// engine's position stays as it is. Its hand's pass if one is due
    /// and the shares it owes from here, the order as it now stands; or,
    /// its hand having no side left, the hand's leaving items.
    pub(super) fn play_farewell(
        &mut self,
        line: &Line<'_>,
        seat: Seat,
        at: At<'_>,
    ) -> Result<PlayedTurn<G>, LineError> {
        let side = self.header.side(seat);
        let on = self
            .table
            .farewells()
            .iter()
            .find(|f| f.side == seat)
            .map_or(0, |f| f.on);
        let reason = format!(
            "{} was put out {}: this is its farewell line, which carries no actions, draws no \
             card and cannot resign (herald move pass --key)",
            at.side,
            put_out(on)
        );
        if let Some((k, text)) = line.actions().next() {
            return Err(at.illegal(Place::Item(k), Some(text), reason));
        }
        if line.ending == Ending::Resign {
            return Err(at.illegal(Place::End, Some("resign"), reason));
        }
        super::check_facts(line, &[], at)?;
        let mut state = G::State::clone(&self.state);
        let mut pending = self.table.pending().expect("a farewell line needs a deck");
        let deck = pending.deck_mut();
        let hand = self.deck_index(seat);
        let mut checks = std::mem::take(&mut self.share_checks);
        let given = self.give_deck_items(line, seat, deck, at, &mut checks);
        self.share_checks = checks;
        given?;
        if self.hand_in(&state, hand) {
            if let Some((k, _)) = card_secret(line) {
                return Err(at.record(
                    Place::Proof(k),
                    format!(
                        "cardsecret: {} publishes its hand's card secret only when no side of \
                         its hand is left in the game",
                        at.side
                    ),
                ));
            }
            if let Some(k) = self.own_share(line, hand, deck) {
                return Err(at.illegal(
                    Place::Proof(k),
                    None,
                    format!(
                        "a farewell line opens no card of its hand: {}'s hand plays on",
                        at.side
                    ),
                ));
            }
            let round = self.round(&state);
            Self::check_owed(deck.owed_on_turn(hand, &round), at)?;
        } else {
            self.open_leaving(line, side, hand, &mut state, deck, at)?;
            self.leave(line, hand, deck, at)?;
        }
        let mut played = PlayedTurn::blank(at.turn, side, self.before(&state));
        played.farewell = true;
        played.reveal = line.reveal().map(|(_, h)| h);
        self.table.settle_farewell(seat);
        self.commit_turn(seat, state, &played);
        self.table.keep(pending);
        Ok(played)
    }

    /// The proof index of the first share `line` gives of a card its
    /// hand `hand` holds, if any.
    fn own_share(&self, line: &Line<'_>, hand: Hand, deck: &DeckLedger) -> Option<usize> {
        line.proofs.iter().enumerate().find_map(|(k, p)| match *p {
            ProofKind::Share { position, .. } if deck.held(hand).contains(&position) => Some(k),
            _ => None,
        })
    }

    /// On a leaving farewell line: open every card of the hand the line
    /// shares, each told to the engine as opened by `side` (a side out of
    /// play discards it).
    fn open_leaving(
        &self,
        line: &Line<'_>,
        side: Side,
        hand: Hand,
        state: &mut G::State,
        deck: &mut DeckLedger,
        at: At<'_>,
    ) -> Result<(), LineError> {
        for (k, proof) in line.proofs.iter().enumerate() {
            let ProofKind::Share { position, .. } = *proof else {
                continue;
            };
            if !deck.held(hand).contains(&position) {
                continue;
            }
            Self::open_share(k, position, hand, side, state, deck, at)?;
        }
        Ok(())
    }

    /// The hand `hand` leaves on `line`: every card it held is opened by
    /// now, every seed of its passes is opened (its passes audited at
    /// once), and its card secret is published and matches its card key.
    pub(super) fn leave(
        &self,
        line: &Line<'_>,
        hand: Hand,
        deck: &mut DeckLedger,
        at: At<'_>,
    ) -> Result<(), LineError> {
        let leaves = format!(
            "{} leaves the game on this line, its hand with it: the line opens every card the \
             hand holds, the seed of each of its passes and publishes its card secret (herald \
             move --key adds them)",
            at.side
        );
        if let Some(p) = deck.held(hand).first() {
            return Err(at.illegal(
                Place::Line,
                None,
                format!("{leaves}; deck position {p} is not opened"),
            ));
        }
        let seeds = cards::seed_openings(line);
        if let Some(g) = deck
            .passed(hand)
            .into_iter()
            .find(|g| !seeds.iter().any(|(s, _)| s == g))
        {
            return Err(at.record(
                Place::Line,
                format!("{leaves}; the seed of its pass over deck {g} is not opened"),
            ));
        }
        let Some((k, secret)) = card_secret(line) else {
            return Err(at.record(Place::Line, format!("{leaves}; its card secret is missing")));
        };
        deck.leave(hand, &secret, &seeds)
            .map_err(|e| at.record(Place::Proof(k), e))
    }

    /// After a turn of side `seat` that left the game in `state`: when
    /// no side of the writer's hand is left and the game goes on, the
    /// line was the hand's leaving line and must carry its leaving items;
    /// a card secret on any other line is refused.
    pub(super) fn check_leaving(
        &self,
        line: &Line<'_>,
        seat: Seat,
        state: &G::State,
        deck: &mut DeckLedger,
        at: At<'_>,
        check: super::SealCheck,
    ) -> Result<bool, LineError> {
        let hand = self.deck_index(seat);
        let leaves = !G::outcome(state).is_over() && !self.hand_in(state, hand);
        if leaves && !check.draft() {
            self.leave(line, hand, deck, at)?;
        } else if let Some((k, _)) = card_secret(line).filter(|_| !leaves) {
            return Err(at.record(
                Place::Proof(k),
                format!(
                    "cardsecret: {} publishes its card secret only when its hand leaves a game \
                     that goes on drawing without it",
                    at.side
                ),
            ));
        }
        Ok(leaves)
    }
}
