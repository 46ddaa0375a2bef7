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
    /// For `check --key`: the side `wallet` is the key file of in this
    /// very game (its chain) when this copy has no line yet and carries
    /// none of that side's key tags though the key file's protocol binds
    /// its key: a copy from before the side's key was added (the player's
    /// own message, checked again), or one stripped of it. Such a copy is
    /// a true record, so a reader says OK of it, and says this; every
    /// command that writes or shows with the key file refuses it
    /// ([`Referee::stripped_for`]).
    pub fn copy_without_key_of(&self, wallet: &crate::wallet::Wallet) -> Option<Side> {
        let side = self.key_file_side(wallet).ok()?;
        (self.setup_lines + self.turns == 0
            && wallet.protocol().binds_keys()
            && self.header.commit(side).is_none()
            && self.header.key(side).is_none())
        .then_some(side)
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
