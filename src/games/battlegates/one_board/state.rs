//! The position: the board (maze and characters), the cards, the points,
//! whose turn it is and what the turn in progress has done.

use crate::game::{Outcome, Side};

use crate::games::battlegates::geometry::layouts::Layout;
use crate::games::battlegates::mazes::maze::Piece;
use crate::games::battlegates::pieces::cards::{Card, Cards};
pub use crate::games::battlegates::pieces::characters::*;

use super::variant::{OneBoard, Variant};

/// How the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum End {
    /// Still going.
    None,
    /// This side has no character left.
    NoCharacters(Side),
    /// This side resigned.
    Resigned(Side),
    /// This side's maze broke the set-up rules (it lost before turn 1).
    BadMaze(Side),
    /// Both sides' mazes broke the set-up rules (a draw before turn 1).
    BadMazes,
}

/// The whole position.
#[derive(Debug)]
pub struct State {
    /// The set-up's rules (a function of `layout`).
    pub(in crate::games::battlegates) rules: &'static dyn Variant,
    /// The set-up played (its board is `board`'s geometry).
    pub(in crate::games::battlegates) layout: Layout,
    /// Maze and characters.
    pub(in crate::games::battlegates) board: Board,
    /// Deck, discard pile and hands.
    pub(in crate::games::battlegates) cards: Cards,
    /// Whose turn it is (once the opening roll is made).
    pub(in crate::games::battlegates) to_move: Side,
    /// Whether the opening roll and the deal are made.
    pub(in crate::games::battlegates) started: bool,
    /// Points scored by Scale and Climb kills, per side.
    pub(in crate::games::battlegates) points: [u16; MAX_SIDES],
    /// How the game stands.
    pub(in crate::games::battlegates) outcome: Outcome,
    /// How it ended.
    pub(in crate::games::battlegates) end: End,
    /// The card drawn at the start of this turn.
    pub(in crate::games::battlegates) drawn: Option<Card>,
    /// Whether this turn's card action is made.
    pub(in crate::games::battlegates) card_done: bool,
    /// This turn's dice phase.
    pub(in crate::games::battlegates) dice: Dice,
    /// What this turn did, for its comment.
    pub(in crate::games::battlegates) log: Vec<String>,
    /// Each side's maze pieces opened so far in the set-up, by slot.
    pub(in crate::games::battlegates) setup:
        [[Option<Piece>; crate::games::battlegates::mazes::setup::MAX_SLOTS]; MAX_SIDES],
    /// Each side's opening rolls (the last pair, the one that decided).
    pub(in crate::games::battlegates) opening: Option<[u8; 2]>,
}

/// A copy of the position; [`Clone::clone_from`] copies into the lists
/// of the position copied over (its turn log's), making none anew: the
/// referee plays every turn in a copy of the position before it, the
/// same two boxes in turn (issue 30, benches/RESULTS.md).
impl Clone for State {
    fn clone(&self) -> State {
        State {
            log: self.log.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &State) {
        let State {
            rules,
            layout,
            board,
            cards,
            to_move,
            started,
            points,
            outcome,
            end,
            drawn,
            card_done,
            dice,
            log,
            setup,
            opening,
        } = source;
        self.rules = *rules;
        self.layout = *layout;
        self.board = *board;
        self.cards = *cards;
        self.to_move = *to_move;
        self.started = *started;
        self.points = *points;
        self.outcome = *outcome;
        self.end = *end;
        self.drawn = *drawn;
        self.card_done = *card_done;
        self.dice = *dice;
        self.log.clone_from(log);
        self.setup = *setup;
        self.opening = *opening;
    }
}

impl State {
    /// The one-board game's position before the set-up.
    pub fn start() -> State {
        State::with_rules(Layout::OneBoard, &OneBoard)
    }

    /// The position before the set-up of `layout`, played by `rules`:
    /// armies on their portals, no maze, the deck whole, the sides seated
    /// by the set-up. (`State::new`, in `setups/`, picks the rules.)
    pub fn with_rules(layout: Layout, rules: &'static dyn Variant) -> State {
        let mut board = Board::start(layout.geometry());
        let mut cards = Cards::with_decks(layout.decks(None));
        rules.seat(layout, &mut board, &mut cards);
        let sides = layout.geometry().side_list();
        State {
            layout,
            rules,
            board,
            cards,
            to_move: sides.first().copied().unwrap_or(Side(0)),
            started: false,
            points: [0; MAX_SIDES],
            outcome: Outcome::Ongoing,
            end: End::None,
            drawn: None,
            card_done: false,
            dice: Dice::default(),
            log: Vec::new(),
            setup: [[None; crate::games::battlegates::mazes::setup::MAX_SLOTS]; MAX_SIDES],
            opening: None,
        }
    }

    /// End the game with `winner` (none: a draw).
    pub fn finish(&mut self, winner: Option<Side>, end: End) {
        self.outcome = match winner {
            Some(w) => Outcome::Won(w),
            None => Outcome::Draw,
        };
        self.end = end;
    }

    /// The sides whose complete maze breaks the set-up rules.
    pub fn bad_mazes(&self) -> Vec<Side> {
        self.board
            .geo()
            .side_list()
            .into_iter()
            .filter(|&s| {
                let count = self.layout.slots().len();
                let slots = &self.setup[usize::from(s) % MAX_SIDES][..count];
                let pieces: Option<Vec<_>> = slots.iter().copied().collect();
                pieces.is_some_and(|p| {
                    crate::games::battlegates::mazes::setup::check_maze(self.board.geo(), s, &p)
                        .is_err()
                })
            })
            .collect()
    }

    /// End the game if a side has no characters (the set-up's rule,
    /// [`Variant::judge`]).
    pub fn judge(&mut self) {
        if self.outcome.is_over() {
            return;
        }
        let rules = self.rules;
        rules.judge(self);
    }

    /// The rules of the set-up played, as hooks over the one-board game.
    pub fn rules(&self) -> &'static dyn Variant {
        self.rules
    }

    /// Play with `decks` whole decks (the `Decks` tag), before any card
    /// is dealt: the sides seated again by the set-up.
    pub fn set_decks(&mut self, decks: u8) {
        let mut cards = Cards::with_decks(decks);
        if self.cards.is_hidden() {
            cards = cards.into_hidden();
        }
        let mut board = self.board;
        self.rules.seat(self.layout, &mut board, &mut cards);
        self.cards = cards;
    }
}

/// Read-only views for self-play (`crate::games::battlegates::selfplay`),
/// which plays from above the game's layers.
impl State {
    /// The set-up played.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The maze and where every character stands.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The roll of the turn in progress, once rolled.
    pub fn roll(&self) -> Option<u8> {
        self.dice.roll
    }

    /// The dice phase of the turn in progress.
    pub fn dice(&self) -> &Dice {
        &self.dice
    }
}
