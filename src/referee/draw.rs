//! Draws by agreement (spec section 3.10): a side offers a draw on its
//! turn line (`offer draw` after its actions); every other side still
//! taking turns accepts it on its own next line, in turn order (`accept
//! draw`); a line that does not accept declines, and the offer lapses.
//! The last acceptance ends the game as a draw, through the same end as
//! any other: the audit of hidden values follows where there are any.

use super::header::Seat;
use super::{At, Command, Ending, Line, LineError, Place, Referee};
use crate::game::{Game, Phase, Side};

/// A draw offered and not yet answered by every side that must accept it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// Who offered.
    pub by: Seat,
    /// The turn of the offer.
    pub turn: u32,
    /// The sides still to accept, in turn order.
    pub waiting: Vec<Seat>,
    /// The acceptances so far: side and turn.
    pub accepted: Vec<(Seat, u32)>,
}

/// A draw agreed: who offered it, on which turn, and who accepted it on
/// which turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreement {
    /// Who offered.
    pub offered_by: Side,
    /// The turn of the offer.
    pub offered_on: u32,
    /// Each acceptance: side and turn, in order.
    pub accepted: Vec<(Side, u32)>,
}

impl Agreement {
    /// `Blue offered on turn 12, Red accepted on turn 13`.
    pub fn words<G: Game>(&self) -> String {
        let mut text = format!(
            "{} offered on turn {}",
            self.offered_by.name::<G>(),
            self.offered_on
        );
        for (side, turn) in &self.accepted {
            text.push_str(&format!(", {} accepted on turn {turn}", side.name::<G>()));
        }
        text
    }
}

/// What a line does to a standing offer, worked out before it is played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Answer {
    /// No offer stands, or the line is not an answer to one.
    None,
    /// The line accepts, and others are still to accept after it.
    Accepts,
    /// The line accepts, and is the last acceptance: the draw is agreed.
    Agrees,
}

impl<G: Game> Referee<G> {
    /// The draw offer standing, if one does.
    pub fn draw_offer(&self) -> Option<&Offer> {
        self.offer.as_ref()
    }

    /// The draw agreed, if the game ended in one.
    pub fn draw_agreed(&self) -> Option<&Agreement> {
        self.agreed.as_ref()
    }

    /// The side who offered the standing draw and the turn, for a side
    /// `side` whose acceptance is due now, if one is.
    pub fn draw_offered_to(&self, side: Side) -> Option<(Side, u32)> {
        let offer = self.offer.as_ref()?;
        let seat = self.header.seat_of(side)?;
        (offer.waiting.first() == Some(&seat)).then(|| (self.header.side(offer.by), offer.turn))
    }

    /// How a game that is over ended, for a player who asks for a line:
    /// the draw agreed, else the board's summary.
    pub(super) fn over_summary(&self) -> String {
        match &self.agreed {
            Some(a) => format!("a draw by agreement ({})", a.words::<G>()),
            None => self.board_words(),
        }
    }

    /// What the side due is told when a draw offer waits for its answer:
    /// who offered, and how to accept or decline.
    pub fn draw_note(&self, side: Side) -> Option<String> {
        let (by, turn) = self.draw_offered_to(side)?;
        let accept = if self.accepts_last(side) {
            "accept draw"
        } else {
            "<actions>, accept draw"
        };
        Some(format!(
            "{} offered a draw on turn {turn}: accept it with {}, or decline it by playing on",
            by.name::<G>(),
            Command::moves().typed(accept).key()
        ))
    }

    /// Whether `side`'s acceptance would be the last the standing offer
    /// waits for (then it stands alone on its line: it ends the game).
    pub fn accepts_last(&self, side: Side) -> bool {
        let seat = self.header.seat_of(side);
        self.offer
            .as_ref()
            .is_some_and(|o| o.waiting.len() == 1 && seat == o.waiting.first().copied())
    }

    /// [`Referee::check_draw`] for a line about to be composed: the
    /// side due, the phase now.
    pub(super) fn check_draw_now(&self, line: &Line<'_>) -> Result<(), LineError> {
        if !matches!(line.ending, Ending::Offer | Ending::Accept) {
            return Ok(());
        }
        let phase = self.phase();
        let Some(side) = self.to_move() else {
            return Ok(());
        };
        let Some(seat) = self.header.seat_of(side) else {
            return Ok(());
        };
        let (kind, turn) = self.next_line();
        let at = At {
            line: kind,
            turn,
            side: side.name::<G>(),
        };
        let farewell = phase == Phase::Play && self.farewell_due() == Some(seat);
        self.check_draw(line, seat, phase, farewell, at).map(|_| ())
    }

    /// Check the draw word of `line`, of side `seat`, in `phase`: an
    /// offer or acceptance only on a turn line during play, an acceptance
    /// only of an offer another side made and that this side is due to
    /// answer. Returns what the line does to the offer.
    pub(super) fn check_draw(
        &self,
        line: &Line<'_>,
        seat: Seat,
        phase: Phase,
        farewell: bool,
        at: At<'_>,
    ) -> Result<Answer, LineError> {
        let word = match line.ending {
            Ending::Offer => "offer draw",
            Ending::Accept => "accept draw",
            _ => return Ok(Answer::None),
        };
        let refuse = |reason: String| Err(at.illegal(Place::End, Some(word), reason));
        match phase {
            Phase::Setup => {
                return refuse(format!(
                "no draw can be offered or accepted during the set-up: a draw is agreed in play, \
                     from turn 1 on (the set-up line is {}; offer on a turn: {})",
                Command::setup().key(),
                Command::moves().action("<actions>, offer draw").key()
            ))
            }
            Phase::Audit => {
                return refuse(format!(
                    "the game is over and in its audit: {} writes its closing line of openings \
                     ({}), and no draw can be offered or accepted now",
                    at.side,
                    Command::moves().action("audit").key()
                ))
            }
            Phase::Over => {
                return refuse(
                    "the game is already over: no draw can be offered or accepted".into(),
                )
            }
            Phase::Play => {}
        }
        if farewell {
            return refuse(format!(
                "{} is out of the game and this is its farewell line: it can neither offer nor \
                 accept a draw ({})",
                at.side,
                Command::moves().action("pass").key()
            ));
        }
        if line.ending == Ending::Offer {
            return Ok(Answer::None);
        }
        let Some(offer) = &self.offer else {
            return refuse(format!(
                "no draw is offered: {} can accept a draw only on its line right after another \
                 side offers one (to offer one: {})",
                at.side,
                Command::moves().action("<actions>, offer draw").key()
            ));
        };
        if offer.by == seat {
            return refuse(format!(
                "{} offered this draw itself on turn {}: the other sides accept it, not the side \
                 that offered (play on: {})",
                at.side,
                offer.turn,
                Command::moves().typed("<actions>").key()
            ));
        }
        if offer.waiting.first() != Some(&seat) {
            return refuse(format!(
                "{} is not due to answer the draw {} offered on turn {}",
                at.side,
                self.header.side(offer.by).name::<G>(),
                offer.turn
            ));
        }
        if offer.waiting.len() > 1 {
            return Ok(Answer::Accepts);
        }
        if let Some((k, text)) = line.actions().next() {
            return Err(at.illegal(
                Place::Item(k),
                Some(text),
                format!(
                    "{} is the last side to accept the draw {} offered on turn {}: the acceptance \
                     ends the game, so the line carries no actions ({})",
                    at.side,
                    self.header.side(offer.by).name::<G>(),
                    offer.turn,
                    Command::moves().action("accept draw").key()
                ),
            ));
        }
        Ok(Answer::Agrees)
    }

    /// Move the draw on after a turn line of side `seat` numbered `turn`
    /// that left the game in `state`: an offer made, an acceptance
    /// recorded or the draw agreed, or the offer lapsed.
    pub(super) fn after_draw_line(
        &mut self,
        line: &Line<'_>,
        seat: Seat,
        turn: u32,
        answer: Answer,
        state: &G::State,
        at: At<'_>,
    ) -> Result<(), LineError> {
        self.lapsed = None;
        match (line.ending, answer) {
            (Ending::Offer, _) => {
                if G::outcome(state).is_over() {
                    return Err(at.illegal(
                        Place::End,
                        Some("offer draw"),
                        format!(
                            "the game ended with this line's actions ({}): there is no draw left \
                             to offer",
                            G::summary(state)
                        ),
                    ));
                }
                let waiting = self
                    .header
                    .seats_from(seat)
                    .skip(1)
                    .filter(|&s| G::takes_turns(state, self.header.side(s)))
                    .collect();
                self.offer = Some(Offer {
                    by: seat,
                    turn,
                    waiting,
                    accepted: Vec::new(),
                });
            }
            (Ending::Accept, Answer::Accepts | Answer::Agrees) => {
                let Some(mut offer) = self.offer.take() else {
                    return Ok(());
                };
                offer.waiting.retain(|&i| i != seat);
                offer.accepted.push((seat, turn));
                if G::outcome(state).is_over() {
                    // The acceptor's own actions ended the game.
                    return Ok(());
                }
                let back = G::to_move(state) == self.header.side(offer.by);
                if answer == Answer::Agrees || offer.waiting.is_empty() || back {
                    self.agreed = Some(Agreement {
                        offered_by: self.header.side(offer.by),
                        offered_on: offer.turn,
                        accepted: offer
                            .accepted
                            .iter()
                            .map(|&(s, t)| (self.header.side(s), t))
                            .collect(),
                    });
                } else {
                    self.offer = Some(offer);
                }
            }
            _ => self.lapsed = self.offer.take().map(|o| (o.by, o.turn)),
        }
        Ok(())
    }

    /// What `played`, the last line played, did to a draw, in words for
    /// `annotate` and the replay page: `Blue offers a draw`, `Red accepts:
    /// drawn by agreement`, `Elf accepts; Goblin is still to answer`,
    /// `Red plays on: Blue's draw offer lapses`.
    pub fn draw_comment(&self, played: &super::PlayedTurn<G>) -> Option<String> {
        let name = played.side.name::<G>();
        match played.draw {
            Some(crate::record::DrawItem::Offer) => Some(format!("{name} offers a draw")),
            Some(crate::record::DrawItem::Accept) => match (&self.agreed, &self.offer) {
                (Some(_), _) => Some(format!("{name} accepts: drawn by agreement")),
                (None, Some(o)) => Some(format!(
                    "{name} accepts; {} is still to answer",
                    o.waiting
                        .first()
                        .map_or("nobody", |&s| self.header.name::<G>(s))
                )),
                (None, None) => Some(format!("{name} accepts")),
            },
            None => self.lapsed.map(|(by, turn)| {
                let by = self.header.name::<G>(by);
                match played.claimant {
                    Some(_) => format!("{by}'s draw offer of turn {turn} lapses"),
                    None => format!("{name} plays on: {by}'s draw offer of turn {turn} lapses"),
                }
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::battle_of_the_dale::BattleOfTheDale;
    use crate::games::castle_danger::CastleDanger;
    use crate::record::{parse, Source};
    use crate::referee::{replay, ErrorKind, RefereeError};

    const HEADER: &str = "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n[Red \"bob@example.org\"]\n[Result \"*\"]\n";

    /// The log replayed under a Castle Danger header without keys.
    fn replayed(log: &str) -> Result<Referee<CastleDanger>, RefereeError> {
        replayed_with(HEADER, log)
    }

    fn replayed_with(header: &str, log: &str) -> Result<Referee<CastleDanger>, RefereeError> {
        let text = format!("{header}\n{log}");
        let source = Source::new(text.as_bytes()).unwrap();
        let record = parse(&source).map_err(RefereeError::from)?;
        replay::<CastleDanger>(&record, |_, _| {})
    }

    fn refused(log: &str) -> RefereeError {
        match replayed(log) {
            Ok(_) => panic!("{log}: accepted"),
            Err(e) => e,
        }
    }

    #[test]
    fn an_offer_accepted_on_the_next_line_ends_the_game_as_a_draw_by_agreement() {
        let referee = replayed("1. Blue: Kc1-b1, offer draw\n2. Red: accept draw\n").unwrap();
        assert_eq!(referee.phase(), Phase::Over);
        assert_eq!(referee.outcome(), crate::game::Outcome::Draw);
        assert_eq!(referee.final_result().as_deref(), Some("draw:agreement"));
        let agreed = referee.draw_agreed().unwrap();
        assert_eq!(
            agreed.words::<CastleDanger>(),
            "Blue offered on turn 1, Red accepted on turn 2"
        );
        assert_eq!(
            referee.summary().to_string(),
            "a draw by agreement (Blue offered on turn 1, Red accepted on turn 2)"
        );
        // The acceptance ended no turn: Red made no move.
        assert_eq!(referee.turns(), 2);
    }

    #[test]
    fn the_draw_words_are_read_in_any_case_and_wrapped() {
        let referee = replayed("1. Blue: Kc1-b1, OFFER\n    Draw\n2. Red: Accept  DRAW\n").unwrap();
        assert!(referee.draw_agreed().is_some());
    }

    #[test]
    fn an_offer_is_declined_by_playing_on_and_lapses() {
        let referee = replayed("1. Blue: Kc1-b1, offer draw\n2. Red: Kc9-b9\n").unwrap();
        assert_eq!(referee.phase(), Phase::Play);
        assert!(referee.draw_offer().is_none());
        assert!(referee.draw_agreed().is_none());
        // Too late now: the offer lapsed with Red's line.
        let err = refused(
            "1. Blue: Kc1-b1, offer draw\n2. Red: Kc9-b9\n3. Blue: Kb1-c1\n4. Red: accept draw\n",
        );
        assert_eq!(err.kind, ErrorKind::Illegal);
        assert_eq!(
            err.message,
            "accept draw: no draw is offered: Red can accept a draw only on its line right after \
             another side offers one (to offer one: herald move \"<actions>, offer draw\" --key)"
        );
    }

    #[test]
    fn an_acceptance_without_an_offer_is_refused() {
        let err = refused("1. Blue: Kc1-b1\n2. Red: accept draw\n");
        assert_eq!(err.kind, ErrorKind::Illegal);
        assert!(
            err.message.starts_with("accept draw: no draw is offered"),
            "{}",
            err.message
        );
        assert!(err
            .message
            .contains("herald move \"<actions>, offer draw\" --key"));
    }

    #[test]
    fn the_last_acceptance_carries_no_actions() {
        let err = refused("1. Blue: Kc1-b1, offer draw\n2. Red: Kc9-b9, accept draw\n");
        assert_eq!(err.kind, ErrorKind::Illegal);
        assert_eq!(
            err.message,
            "Kc9-b9: Red is the last side to accept the draw Blue offered on turn 1: the \
             acceptance ends the game, so the line carries no actions (herald move \"accept draw\" \
             --key)"
        );
    }

    #[test]
    fn no_turn_follows_a_draw_by_agreement() {
        let err = refused("1. Blue: Kc1-b1, offer draw\n2. Red: accept draw\n3. Blue: Kb1-c1\n");
        assert_eq!(
            err.message,
            "the game is already over (a draw by agreement): no turn may follow (herald check shows the result)"
        );
        let err =
            refused("1. Blue: Kc1-b1, offer draw\n2. Red: accept draw\n3. Blue: offer draw\n");
        assert!(
            err.message
                .contains("a draw can be offered only while the game runs"),
            "{}",
            err.message
        );
    }

    #[test]
    fn the_result_tag_of_a_draw_by_agreement_is_draw_agreement() {
        let log = "1. Blue: Kc1-b1, offer draw\n2. Red: accept draw\n";
        let header = HEADER.replace("[Result \"*\"]", "[Result \"draw:agreement\"]");
        let referee = replayed_with(&header, log).unwrap();
        referee.check_result().unwrap();
        // A plain `draw` is not what happened.
        let header = HEADER.replace("[Result \"*\"]", "[Result \"draw\"]");
        let err = replayed_with(&header, log)
            .unwrap()
            .check_result()
            .unwrap_err();
        assert_eq!(
            err.message,
            "the Result tag says `draw` but the game's result is `draw:agreement`"
        );
    }

    #[test]
    fn the_draw_words_end_the_line() {
        let err = refused("1. Blue: offer draw, Kc1-b1\n");
        assert!(
            err.message.contains("`offer draw` ends the line"),
            "{}",
            err.message
        );
        let err = refused("1. Blue: Kc1-b1, resign, offer draw\n");
        assert!(
            err.message
                .contains("`resign` must be the line's last action"),
            "{}",
            err.message
        );
    }

    #[test]
    fn an_offer_on_a_forfeit_line_is_refused() {
        let err = refused("1. Blue: forfeit claimed by Red, offer draw\n");
        assert!(
            err.message
                .contains("`forfeit claimed by <side>` stands alone on its line"),
            "{}",
            err.message
        );
    }

    #[test]
    fn a_side_cannot_accept_its_own_offer() {
        let err = refused("1. Blue: Kc1-b1, offer draw\n2. Blue: accept draw\n");
        assert_eq!(err.kind, ErrorKind::Illegal);
        assert_eq!(
            err.message,
            "accept draw: Blue offered this draw itself on turn 1: the other sides accept it, not \
             the side that offered (Red answers next: herald move \"accept draw\" --key, or plays on)"
        );
    }

    const DALE: &str = "[Game \"battle-of-the-dale\"]\n[Dwarf \"dora@example.org\"]\n[Human \"hal@example.org\"]\n[Elf \"eve@example.org\"]\n[Result \"*\"]\n";

    fn dale(log: &str) -> Result<Referee<BattleOfTheDale>, RefereeError> {
        let text = format!("{DALE}\n{log}");
        let source = Source::new(text.as_bytes()).unwrap();
        let record = parse(&source).map_err(RefereeError::from)?;
        replay::<BattleOfTheDale>(&record, |_, _| {})
    }

    #[test]
    fn with_three_sides_every_other_side_accepts_in_turn_order() {
        let referee =
            dale("1. Dwarf: R@E3, offer draw\n2. Human: R@A1, accept draw\n3. Elf: accept draw\n")
                .unwrap();
        assert_eq!(referee.phase(), Phase::Over);
        assert_eq!(referee.final_result().as_deref(), Some("draw:agreement"));
        assert_eq!(
            referee.draw_agreed().unwrap().words::<BattleOfTheDale>(),
            "Dwarf offered on turn 1, Human accepted on turn 2, Elf accepted on turn 3"
        );
        // Between the two acceptances the offer stands, Elf to answer.
        let waiting = dale("1. Dwarf: R@E3, offer draw\n2. Human: R@A1, accept draw\n").unwrap();
        assert_eq!(waiting.phase(), Phase::Play);
        let elf = crate::game::side_by_name::<BattleOfTheDale>("Elf").unwrap();
        let dwarf = crate::game::side_by_name::<BattleOfTheDale>("Dwarf").unwrap();
        assert_eq!(waiting.draw_offered_to(elf), Some((dwarf, 1)));
    }

    #[test]
    fn with_three_sides_one_side_playing_on_declines_for_all() {
        let referee =
            dale("1. Dwarf: R@E3, offer draw\n2. Human: R@A1, accept draw\n3. Elf: R@E1\n")
                .unwrap();
        assert_eq!(referee.phase(), Phase::Play);
        assert!(referee.draw_offer().is_none());
        assert!(referee.draw_agreed().is_none());
        assert_eq!(referee.final_result(), None);
    }

    #[test]
    fn an_acceptance_before_others_still_plays_the_turn_where_the_rules_demand_an_action() {
        // Human is not the last to accept, so its turn goes on: the Dale
        // allows a pass only when no action is possible.
        let Err(err) = dale("1. Dwarf: R@E3, offer draw\n2. Human: accept draw\n") else {
            panic!("accepted");
        };
        assert_eq!(err.kind, ErrorKind::Illegal);
        assert!(
            err.message
                .starts_with("accept draw: the turn needs its action"),
            "{}",
            err.message
        );
        assert!(
            err.message.ends_with("(others are still to accept after this side, so its turn goes on: herald move \"<actions>, accept draw\" --key)"),
            "{}",
            err.message
        );
    }

    /// A Playground Battles fixture (Commit tags, no Key tags: its lines
    /// carry reveals and no signatures) with `from` replaced by `to`,
    /// replayed: its error.
    fn playground_refused(fixture: &str, from: &str, to: &str) -> RefereeError {
        use crate::games::playground_battles::PlaygroundBattles;
        let path = format!(
            "{}/fixtures/playground-battles/{fixture}.pbem",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        let changed = text.replacen(from, to, 1);
        assert_ne!(changed, text, "{from} not in {fixture}");
        let source = Source::new(changed.as_bytes()).unwrap();
        let record = parse(&source).map_err(RefereeError::from);
        match record.and_then(|r| replay::<PlaygroundBattles>(&r, |_, _| {}).map(|_| ())) {
            Ok(()) => panic!("accepted"),
            Err(e) => e,
        }
    }

    #[test]
    fn no_draw_is_offered_during_the_set_up() {
        let err = playground_refused(
            "game-attack-waits-for-the-defenders-opening",
            "S2. Red:\n",
            "S2. Red: offer draw\n",
        );
        assert_eq!(err.kind, ErrorKind::Illegal);
        assert_eq!(
            err.message,
            "offer draw: no draw can be offered or accepted during the set-up: a draw is agreed in \
             play, from turn 1 on (the set-up line is herald setup --key; offer on a turn: herald \
             move \"<actions>, offer draw\" --key)"
        );
    }

    #[test]
    fn no_draw_is_offered_or_accepted_in_the_audit() {
        for word in ["offer draw", "accept draw"] {
            let err = playground_refused(
                "game-audit-failed-army-without-scissors",
                "9. Blue: audit\n",
                &format!("9. Blue: {word}\n"),
            );
            assert_eq!(err.kind, ErrorKind::Illegal);
            assert_eq!(
                err.message,
                format!(
                    "{word}: the game is over and in its audit: Blue writes its closing line of \
                     openings (herald move audit --key), and no draw can be offered or accepted now"
                )
            );
        }
    }

    /// The words `annotate` and the replay page give each line.
    fn comments(log: &str) -> Vec<String> {
        let text = format!("{HEADER}\n{log}");
        let source = Source::new(text.as_bytes()).unwrap();
        let record = parse(&source).unwrap();
        let mut said = Vec::new();
        replay::<CastleDanger>(&record, |played, referee| {
            said.push(referee.draw_comment(played).unwrap_or_default());
        })
        .unwrap();
        said
    }

    #[test]
    fn each_line_says_what_it_did_to_a_draw() {
        assert_eq!(
            comments("1. Blue: Kc1-b1, offer draw\n2. Red: Kc9-b9\n3. Blue: Kb1-c1\n"),
            [
                "Blue offers a draw",
                "Red plays on: Blue's draw offer of turn 1 lapses",
                ""
            ]
        );
        assert_eq!(
            comments("1. Blue: Kc1-b1, offer draw\n2. Red: accept draw\n"),
            ["Blue offers a draw", "Red accepts: drawn by agreement"]
        );
    }

    #[test]
    fn the_offer_and_acceptance_are_part_of_the_sealed_text() {
        let source = Source::typed("1. Blue: Kc1-b1,  OFFER draw\n2. Red: accept\n draw\n");
        let record = crate::record::parse_lines(&source).unwrap().0;
        assert_eq!(
            Line::from_turn(&record[0]).sealed_text(None),
            "Kc1-b1, offer draw"
        );
        assert_eq!(Line::from_turn(&record[1]).sealed_text(None), "accept draw");
    }
}
