//! What a player sees at a glance ([`Referee::look`]): the position from
//! its side, its hand with this turn's draw marked, the chance its turn
//! starts with, the step due, and the legal actions grouped as the turn
//! proceeds. Everything here is what `show --key`, `hand --key`, `legal
//! --key` and `legal --after` compute, put together once in the library
//! so that the CLI only prints it; and the public position
//! ([`Referee::public_state`]) in which the counts of cards agree with
//! what a player's key file shows.

use crate::game::{Game, Phase, Side};

use super::header::Seat;
use super::{ChanceEvent, ComposeError, Keys, Preview, Referee, Said, StepDue};

/// A card of the viewer's hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandCard {
    /// Its position in the shared deck.
    pub position: u32,
    /// The card ([`Game::card_text`] names it).
    pub card: u32,
    /// Drawn at the start of the viewer's line now due (this turn's draw).
    pub drawn: bool,
}

/// One stage of the turn ahead: the actions legal once `after` are made.
#[derive(Clone, Debug)]
pub struct Stage<G: Game> {
    /// The actions made before this stage (none for the first): one
    /// example of the stage before, the board as it leaves it.
    pub after: Vec<G::Action>,
    /// The actions legal at this stage.
    pub actions: Vec<G::Action>,
}

/// Everything a player needs to choose its next line ([`Referee::look`]).
#[derive(Clone, Debug)]
pub struct Look<G: Game> {
    /// The side of the key file.
    pub viewer: Side,
    /// The step due next, and whose it is (`None`: the game is over).
    pub due: Option<StepDue>,
    /// Whether the viewer's turn is the line due (play, not set-up or
    /// audit).
    pub viewer_to_move: bool,
    /// The position as the viewer sees it: its own hidden values known;
    /// when its turn is due, as that turn starts (its draw received, its
    /// roll made) unless openings are due at its start (which may change
    /// the board: the record's position then, and a note).
    pub state: G::State,
    /// The viewer's hand, in deck order, in a game with hidden hands
    /// (`None` in a game without).
    pub hand: Option<Vec<HandCard>>,
    /// The chance the viewer's turn starts with (its key settles it).
    pub chance: Vec<ChanceEvent>,
    /// What the viewer should be told beside the actions, if anything.
    pub note: Option<String>,
    /// The legal actions, stage by stage as the turn proceeds (empty when
    /// the viewer has no turn to choose now).
    pub stages: Vec<Stage<G>>,
}

impl<G: Game> Referee<G> {
    /// The position as everyone knows it: the state the record gives,
    /// with the draw of the side whose turn is due received face down
    /// once every share of it is in the record. The cards are the drawer's
    /// from that moment: its key file shows them (`herald hand`), so the
    /// counts shown to everyone include them too.
    pub fn public_state(&self) -> G::State {
        let mut state = G::State::clone(&self.state);
        self.draw_face_down(&mut state, None);
        state
    }

    /// Into `state`, the draw at the start of the turn due, face down,
    /// unless it is `viewer`'s (whose key shows it, [`Referee::look`]).
    fn draw_face_down(&self, state: &mut G::State, viewer: Option<Seat>) {
        let (Some(deck), Some(mover)) = (self.table.deck(), self.to_move()) else {
            return;
        };
        if self.phase() != Phase::Play || G::outcome(&self.state).is_over() {
            return;
        }
        let Some(seat) = self.header.seat_of(mover) else {
            return;
        };
        let hand = self.deck_index(seat);
        if viewer.map(|v| self.deck_index(v)) == Some(hand) {
            return;
        }
        let mut d = deck.clone();
        if d.reshuffle_if_due(hand).is_some() {
            G::cards_reshuffled(state);
        }
        let Ok(drawn) = d.draw(hand) else {
            return;
        };
        if !drawn.is_empty() {
            // The drawer's view of the same cards is checked when they
            // open; a count that cannot be given leaves the state as it is.
            let mut with = state.clone();
            if G::receive_cards(&mut with, mover, &vec![None; drawn.len()]).is_ok() {
                *state = with;
            }
        }
    }

    /// What the holder of `wallet` needs to choose its next line, all at
    /// once: the position from its side (its draw and roll in it when its
    /// turn is due), its hand with this turn's draw marked, the chance
    /// its turn starts with, the step due and whose it is, and the legal
    /// actions grouped as the turn proceeds (a Battlegates card phase,
    /// then its dice phase after a card action that leaves the board as
    /// it is). `keys` are the viewer's key file and what shows its hand
    /// ([`super::HandKey`]; the hand holder's key file for a side playing
    /// from another side's hand, [`Referee::hand_wallet`]).
    pub fn look(&self, keys: Keys<'_>) -> Result<Look<G>, ComposeError> {
        let mut state = self.view(keys)?;
        let Some(wallet) = keys.own_file() else {
            return Err(ComposeError::Keys(
                "a side's view needs its key file: add --key with it".into(),
            ));
        };
        let viewer = self
            .header
            .side_named::<G>(wallet.side())
            .ok_or_else(|| ComposeError::Wallet(format!("is a key for {}", wallet.side())))?;
        let due = self.step_due();
        let viewer_to_move =
            self.phase() == Phase::Play && self.to_move() == Some(viewer) && due.is_some();
        let mut chance = Vec::new();
        let mut note;
        let mut stages = Vec::new();
        if viewer_to_move {
            // A turn that cannot be previewed (its chance not drawable
            // yet, a key that does not fit the line) still shows the
            // position, with the reason as the note.
            let preview = match self.preview_for(keys) {
                Ok(p) => p,
                Err(ComposeError::Keys(why) | ComposeError::Closed(_, why)) => {
                    Preview::Unknown(why.into())
                }
                Err(e) => return Err(e),
            };
            note = preview.legal_note().map(|n| n.to_string());
            if let Preview::Actions {
                state: start,
                actions,
                chance: drawn,
                ..
            } = preview
            {
                stages = Self::stages(&start, actions);
                // Openings the rules make at the start of the line (a
                // defender's identity) may change the board: the position
                // stays the record's, and the note says why the actions
                // follow from another.
                if self.openings_due().is_empty() {
                    state = start;
                } else if note.is_none() {
                    note = Some(format!(
                        "the openings due at the start of {}'s line are made first: the actions \
                         listed follow from the position they leave",
                        viewer.name::<G>()
                    ));
                }
                chance = drawn;
            }
        } else {
            self.draw_face_down(&mut state, self.header.seat_of(viewer));
            note = due.as_ref().map(|d| {
                format!(
                    "not {}'s turn: {}",
                    viewer.name::<G>(),
                    d.text.to_string().trim_end_matches('.')
                )
            });
        }
        let hand = match self.table.deck() {
            Some(_) => Some(self.hand_cards(viewer, keys)?),
            None => None,
        };
        Ok(Look {
            viewer,
            due,
            viewer_to_move,
            state,
            hand,
            chance,
            note,
            stages,
        })
    }

    /// The hand of `viewer` as its key file shows it (`keys`: its own key
    /// file, and what shows its hand, [`super::HandKey`]), in deck order,
    /// the cards drawn at the start of its turn due marked: what `herald
    /// hand` lists.
    pub fn hand_cards(&self, viewer: Side, keys: Keys<'_>) -> Result<Vec<HandCard>, ComposeError> {
        let Some(wallet) = keys.own_file() else {
            return Err(ComposeError::Keys(
                "a side's hand is shown with its key file: add --key with it".into(),
            ));
        };
        let holder = self.hand_shown_by(viewer, wallet, keys.hand())?;
        let cards = self.hand(viewer, holder)?;
        let held = match (self.table.deck(), self.header.seat_of(viewer)) {
            (Some(deck), Some(seat)) => deck.held(self.deck_index(seat)),
            _ => Vec::new(),
        };
        Ok(cards
            .into_iter()
            .map(|(position, card)| HandCard {
                position,
                card,
                drawn: !held.contains(&position),
            })
            .collect())
    }

    /// The turn's stages from `start`: the actions legal first, then,
    /// when the first of them leaves the same side to move with other
    /// actions than before (the turn has moved on to its next phase), the
    /// actions legal after it.
    fn stages(start: &G::State, first: Vec<G::Action>) -> Vec<Stage<G>> {
        let mut stages = Vec::new();
        let mut next = None;
        if let Some(&a) = first.first() {
            let mut after = start.clone();
            if G::apply(&mut after, a).is_ok() && G::to_move(&after) == G::to_move(start) {
                let mut rest = Vec::new();
                G::legal_actions(&after, &mut rest);
                if !rest.is_empty() && rest.iter().all(|r| !first.contains(r)) {
                    next = Some(Stage {
                        after: vec![a],
                        actions: rest,
                    });
                }
            }
        }
        stages.push(Stage {
            after: Vec::new(),
            actions: first,
        });
        stages.extend(next);
        stages
    }
}

impl<G: Game> Referee<G> {
    /// The game's state in a few words, as a message's subject ends:
    /// whose own line voids an open claim, the audits due (and a draw
    /// agreed), a key or set-up step due, a draw offered and whose answer
    /// it waits for, who is to move, or once over the result in words
    /// (`Blue won: Red resigned`, `drawn by agreement`).
    pub fn status(&self) -> String {
        let agreed = self.draw_agreed().is_some();
        let audits = || super::owed::<G>(&self.audits_due(), "audit");
        match (self.open_claim(), self.to_move()) {
            (Some((target, _)), _) => format!("{}'s own line voids it", target.name::<G>()),
            (None, Some(_)) if self.phase() == Phase::Audit && agreed => {
                format!(
                    "drawn by agreement, {} due, the result provisional",
                    audits()
                )
            }
            (None, Some(_)) if self.phase() == Phase::Audit => {
                format!("{} due, the result provisional", audits())
            }
            (None, Some(side)) if self.setup_due() == Some(super::SetupStep::Key) => {
                format!("{}'s key due", side.name::<G>())
            }
            (None, Some(_)) if !self.keys_due().is_empty() => {
                format!("{} due", super::owed::<G>(&self.keys_due(), "key"))
            }
            (None, Some(side)) if self.phase() == Phase::Setup => {
                format!("{}'s set-up step due", side.name::<G>())
            }
            (None, Some(side)) if self.draw_offered_to(side).is_some() => {
                let (by, _) = self.draw_offered_to(side).unwrap_or((side, 0));
                format!(
                    "{} offers a draw, {} to answer",
                    by.name::<G>(),
                    side.name::<G>()
                )
            }
            (None, Some(side)) if !self.outcome().is_over() => {
                format!("{} to move", side.name::<G>())
            }
            (None, _) if agreed && self.final_result().as_deref() == Some("draw:agreement") => {
                "drawn by agreement".into()
            }
            // Over: the result in words (`Blue won: Red resigned`).
            _ => self
                .summary()
                .to_string()
                .lines()
                .next()
                .map_or_else(|| format!("result {}", self.result()), str::to_owned),
        }
    }

    /// The note `legal` gives beside the actions `preview` lists
    /// ([`Preview::legal_note`]), with the draw offer the side to move may
    /// answer in front of it ([`Referee::draw_note`]).
    pub fn legal_note(&self, preview: &Preview<G>) -> Option<Said> {
        let note = preview.legal_note();
        match self.to_move().and_then(|s| self.draw_note(s)) {
            Some(draw) => {
                Some(note.map_or_else(|| draw.clone().into(), |n| n.after(&format!("{draw}; "))))
            }
            None => note,
        }
    }

    /// What `legal --after TEXT` lists: the actions typed as `text`, made
    /// from the position the turn due begins in as `preview` shows it
    /// ([`Referee::preview_typed_after`]), the actions that remain from
    /// there, and whether the turn may end after them. Refused (a choice
    /// the game does not allow now) when the game allows no action now:
    /// a draw to answer, a pass only, the game over, the game's reason
    /// said ([`Referee::legal_note`]).
    pub fn legal_after(
        &self,
        preview: &Preview<G>,
        text: &str,
    ) -> Result<ListedAfter<G>, super::TypedError> {
        let Some(start) = preview.state() else {
            let note = self.legal_note(preview);
            return Err(super::TypedError::Compose(ComposeError::Closed(
                super::ErrorKind::Illegal,
                format!(
                    "--after: no action can be listed now{}",
                    note.map_or(String::new(), |n| format!(" ({n})"))
                ),
            )));
        };
        let made = self.preview_typed_after(start, text)?;
        let mut rest = Vec::new();
        G::legal_actions(&made.state, &mut rest);
        let note = match made.can_end {
            Ok(()) => "the turn may end after these actions".into(),
            Err(why) => format!("the turn may not end after these actions: {why}").into(),
        };
        Ok(ListedAfter {
            made: made.actions,
            state: made.state,
            rest,
            note,
        })
    }

    /// For a reader given `wallet`, the key file of the side a claim made
    /// in play waits on (spec section 3.8): the claim voided here, so
    /// that the reader sees the turn (and the hand) that side may still
    /// answer it with, as `show`, `legal` and `hand` show it. Nothing
    /// changes for another key file, or a claim made during the set-up.
    pub fn answerable_by(&mut self, wallet: &crate::wallet::Wallet) {
        if let Some((target, Phase::Play | Phase::Over)) = self.open_claim() {
            if wallet.side().eq_ignore_ascii_case(target.name::<G>()) {
                self.void_claim();
            }
        }
    }

    /// The side `wallet` is the key file of in this very game (its game,
    /// side and chain) when this copy lacks that side's key tags as
    /// `asked` counts them ([`KeylessCopy`]: which tags, and when the
    /// lack matters): the one question "does this copy carry the key
    /// file's side's tags", asked by `check --key` and the inbox
    /// ([`KeylessCopy::CHECKED`]) and by every command that writes or
    /// shows with the key file ([`Referee::stripped_for`]).
    pub fn copy_without_key_of(
        &self,
        wallet: &crate::wallet::Wallet,
        asked: KeylessCopy,
    ) -> Option<Side> {
        let side = self.wallet_side(wallet).ok()?;
        let lines = self.setup_lines + self.turns;
        let lacks = self.header.commit(side).is_none()
            && (asked.lacks == KeyTags::Commit || self.header.key(side).is_none());
        let matters = match asked.when {
            KeylessWhen::Always => true,
            KeylessWhen::BeforeAnyLine => wallet.protocol().binds_keys() && lines == 0,
            KeylessWhen::BeforeAnyLineOrInPlayLate => {
                wallet.protocol().binds_keys()
                    && (lines == 0
                        || (self.header.protocol().keys_join_late()
                            && self.phase() != Phase::Setup))
            }
        };
        (wallet.chain() == self.header.chain_id() && lacks && matters).then_some(side)
    }

    /// The step due in words, when the game's own diagram would name
    /// another step: a key, a set-up line, a farewell line or an audit
    /// is due, or a forfeit claim waits for its target's answer or
    /// decided the game (spec section 3.7). The engine's state names a
    /// side to move all along, even while another side's set-up step is
    /// due; `None` when that side's turn is what is due.
    pub fn step_heading(&self) -> Option<Said> {
        let turn_due = self
            .step_due()
            .is_none_or(|due| due.step == super::Step::Turn);
        (!turn_due || self.forfeit_decides()).then(|| self.summary())
    }

    /// The game's diagram of `seen` (this referee's position as a viewer
    /// sees it) with its line that names the side to move, or the
    /// result, put as [`Referee::step_heading`] says where that differs
    /// (`fit` writes the words, their commands as the caller's reader
    /// runs them, and lays them out as the caller prints them): never "Blue
    /// to move" while Red's set-up line, an audit or a claim's answer is
    /// due. The line is the game's summary, else the one that says who
    /// moves (`Turn 42: Elf to move`) or ends with the summary (`Turn 42:
    /// Elf won`); a diagram without one gets the step as its last line.
    /// A diagram that marks a side as due ([`Game::diagram_marking`])
    /// marks the side whose turn is due, or none.
    pub fn diagram_with_step(
        &self,
        seen: &G::State,
        style: crate::game::DiagramStyle,
        fit: impl Fn(&Said) -> String,
    ) -> String {
        // A diagram that marks whose step is due marks the side whose
        // turn is due by the referee (a claim's target while its answer
        // is due), and nobody when the step due is no side's turn.
        let marked = match self.step_due() {
            Some(due) if due.step == super::Step::Turn => crate::game::Marked::Side(due.side),
            _ => crate::game::Marked::Nobody,
        };
        let diagram = G::diagram_marking(seen, style, marked);
        let Some(step) = self.step_heading() else {
            return diagram;
        };
        let engine = G::summary(seen);
        let to_move = format!("{} to move", G::to_move(seen).name::<G>());
        let mut lines: Vec<String> = diagram.lines().map(str::to_owned).collect();
        let at = lines
            .iter()
            .position(|l| *l == engine)
            .or_else(|| lines.iter().position(|l| l.contains(&to_move)))
            .or_else(|| {
                let first = engine.split(';').next().unwrap_or_default();
                lines
                    .iter()
                    .position(|l| !first.is_empty() && l.ends_with(first))
            });
        let step = fit(&step).trim_end().to_owned();
        match at {
            Some(at) => lines[at] = step,
            None => lines.push(step),
        }
        lines.join("\n") + "\n"
    }
}

/// Which of the key file's side's tags a copy lacks, and when that
/// matters, for [`Referee::copy_without_key_of`]: its callers'
/// conditions as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeylessCopy {
    /// The tags the copy lacks.
    pub lacks: KeyTags,
    /// When the lack matters.
    pub when: KeylessWhen,
}

/// The key tags of a side a copy may lack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyTags {
    /// Its Commit tag (its Key tag may be there).
    Commit,
    /// Both its Commit and its Key tag.
    CommitAndKey,
}

/// When a copy without the key file's side's tags is one to speak of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeylessWhen {
    /// Always (a key file that wrote a line of this game: its game had
    /// the tag).
    Always,
    /// Before any line, under a protocol that binds the key file's key.
    BeforeAnyLine,
    /// Before any line, or once play began under protocol 3 (during its
    /// set-up a key may still join with its side's first line), under a
    /// protocol that binds the key file's key.
    BeforeAnyLineOrInPlayLate,
}

impl KeylessCopy {
    /// `check --key` and the inbox: a copy with neither tag of the side
    /// before any line, a true record, from before the side's key was
    /// added or stripped of it (said, not refused).
    pub const CHECKED: KeylessCopy = KeylessCopy {
        lacks: KeyTags::CommitAndKey,
        when: KeylessWhen::BeforeAnyLine,
    };
    /// A key file that wrote a line of this game given a copy without
    /// the side's Commit tag: the header changed.
    pub const AFTER_ITS_LINE: KeylessCopy = KeylessCopy {
        lacks: KeyTags::Commit,
        when: KeylessWhen::Always,
    };
    /// A command that writes or shows with the key file: a copy without
    /// the side's Commit tag where the protocol binds the key, refused as
    /// stripped.
    pub const STRIPPED: KeylessCopy = KeylessCopy {
        lacks: KeyTags::Commit,
        when: KeylessWhen::BeforeAnyLineOrInPlayLate,
    };
}

/// What `legal --after` lists ([`Referee::legal_after`]).
#[derive(Debug)]
pub struct ListedAfter<G: Game> {
    /// The actions typed, as made.
    pub made: Vec<G::Action>,
    /// The position after them, as the player sees it.
    pub state: G::State,
    /// The actions legal from there.
    pub rest: Vec<G::Action>,
    /// Whether the turn may end after them, or why not.
    pub note: Said,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::castle_danger::CastleDanger;
    use crate::record::{self, Source};
    use crate::referee::{replay_to_turn, turn_count, ErrorKind, Keep, TypedError};

    type G = CastleDanger;

    /// Blue offers a draw on turn 1, Red plays on; Blue offers again on
    /// turn 3 and Red accepts on turn 4 (the fixture
    /// `game-draw-by-agreement.pbem`).
    const DRAWN: &str = "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n[Red \"bob@example.org\"]\n[Result \"draw:agreement\"]\n\n1. Blue: Kc1-b1, offer draw\n2. Red: Kc9-b9\n3. Blue: Kb1-c1, offer draw\n4. Red: accept draw\n";

    fn source() -> Source {
        Source::new(DRAWN.as_bytes()).expect("a record")
    }

    #[test]
    fn a_record_is_replayed_to_the_turn_asked_with_the_position_it_started_from() {
        let source = source();
        let record = record::parse(&source).expect("parsed");
        assert_eq!(turn_count(&record), 4);
        let at = replay_to_turn::<G>(&record, 2, Keep::RULES).expect("replayed");
        assert_eq!(at.referee.next_turn(), 3);
        let (before, line) = at.before.expect("turn 2 started from turn 1's position");
        assert_eq!((line.number, line.side), (2, "Red"));
        assert_eq!(before.next_turn(), 2);
        let start = replay_to_turn::<G>(&record, 0, Keep::RULES).expect("replayed");
        assert_eq!(start.referee.next_turn(), 1);
        assert!(start.before.is_none(), "turn 0 started from nothing");
    }

    #[test]
    fn the_status_says_what_the_game_waits_for() {
        let source = source();
        let record = record::parse(&source).expect("parsed");
        let status = |upto| {
            replay_to_turn::<G>(&record, upto, Keep::RULES)
                .expect("replayed")
                .referee
                .status()
        };
        assert_eq!(status(2), "Blue to move");
        assert_eq!(status(3), "Blue offers a draw, Red to answer");
        assert_eq!(status(4), "drawn by agreement");
    }

    #[test]
    fn legal_after_lists_the_rest_of_the_turn_and_refuses_when_no_action_is_listed() {
        let source = source();
        let record = record::parse(&source).expect("parsed");
        let start = replay_to_turn::<G>(&record, 0, Keep::RULES).expect("replayed");
        let preview = start.referee.preview_for(Keys::NONE).expect("a preview");
        let after = start
            .referee
            .legal_after(&preview, "Kc1-b1")
            .expect("Blue's King may move first");
        let made: Vec<String> = after
            .made
            .iter()
            .map(crate::game::action_text::<G>)
            .collect();
        assert_eq!(made, ["Kc1-b1"]);
        let mut rest = Vec::new();
        G::legal_actions(&after.state, &mut rest);
        assert_eq!(
            after.rest, rest,
            "the rest are listed from where the actions led"
        );
        assert!(after.note.to_string().starts_with("the turn may"));
        // Over by agreement: nothing to list, the game's reason said.
        let over = replay_to_turn::<G>(&record, 4, Keep::RULES).expect("replayed");
        let preview = over.referee.preview_for(Keys::NONE).expect("a preview");
        let refused = over.referee.legal_after(&preview, "Kc1-b1").err();
        match refused.expect("nothing can be listed once the game is over") {
            TypedError::Compose(ComposeError::Closed(ErrorKind::Illegal, why)) => {
                assert!(
                    why.starts_with("--after: no action can be listed now (the game is over"),
                    "{why}"
                );
            }
            other => panic!("not refused as closed: {other:?}"),
        }
    }

    #[test]
    fn a_copy_without_the_key_files_tags_is_asked_of_as_each_caller_counts_it() {
        use crate::fairness::Protocol;
        use crate::wallet::Wallet;
        let text = "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n[Red \"bob@example.org\"]\n[Protocol \"3\"]\n[Nonce \"5f9e80467197231546fc8003b1cf2017\"]\n[Result \"*\"]\n\n";
        let source = Source::new(text.as_bytes()).expect("a record");
        let record = record::parse(&source).expect("parsed");
        let referee = Referee::<G>::start(&record).expect("a header");
        let chain = *referee.header().chain_id();
        let blue = |protocol| Wallet::for_protocol(G::ID, "Blue", chain, [7; 32], protocol);
        let asked = |wallet: &Wallet| {
            [
                KeylessCopy::CHECKED,
                KeylessCopy::STRIPPED,
                KeylessCopy::AFTER_ITS_LINE,
            ]
            .map(|how| referee.copy_without_key_of(wallet, how))
        };
        // No line yet, and no tag of Blue's: every caller speaks of it.
        let side = Some(crate::game::Side(0));
        assert_eq!(asked(&blue(Protocol::Three)), [side; 3]);
        // A key file whose protocol binds no key: only a key file that
        // wrote a line of this game counts it.
        assert_eq!(asked(&blue(Protocol::One)), [None, None, side]);
        // A key file of another game: never.
        let other = Wallet::for_protocol(G::ID, "Blue", [1; 32], [7; 32], Protocol::Three);
        assert_eq!(asked(&other), [None; 3]);
    }
}
