//! What a set-up may change in the one-board game: the hooks a set-up
//! (`setups/`) implements over the one-board rules. Every hook defaults
//! to the one-board game's rule, so the one-board game itself is the
//! [`OneBoard`] variant with no method written.
//!
//! The one-board game calls these hooks through the set-up a position
//! holds ([`State::rules`]); it never names a set-up. Which set-up plays
//! which [`Layout`] is the composition's choice (`setups/mod.rs`), passed
//! in when a position is made ([`State::with_rules`]).

use std::fmt::Debug;

use crate::game::{
    Chance, Illegal, PositionField, PositionParseError, Setup, SetupError, Side, Team,
};
use crate::games::battlegates::geometry::board::{opponent, side_name, NORTH, SOUTH};
use crate::games::battlegates::geometry::layouts::Layout;
use crate::games::battlegates::mazes::maze::Piece;
use crate::games::battlegates::moves::gates::Carry;
use crate::games::battlegates::pieces::cards::Cards;

use super::position;
use super::state::{Board, End, State};

/// The rules of a set-up, as hooks over the one-board game.
pub trait Variant: Sync + Debug {
    /// The layouts (`Setup` tag values) this set-up plays: its line in
    /// the composition's table (`setups::SETUPS`) is all it takes to be
    /// played.
    fn layouts(&self) -> &'static [Layout];

    /// The board's name in the header's errors (one board: "one board").
    fn board_name(&self) -> &'static str {
        "one board"
    }

    /// The header's sides are the ones `layout` is played by (one board:
    /// South and North, no other).
    fn check_sides(&self, setup: &Setup<'_>, _layout: Layout) -> Result<(), SetupError> {
        let board = self.board_name();
        for side in [SOUTH, NORTH] {
            if !setup.sides.contains(&side) {
                return Err(SetupError {
                    tag: Some(side_name(side).to_string()),
                    reason: format!(
                        "Battlegates on {board} is played by South and North: {} is missing",
                        side_name(side)
                    ),
                });
            }
        }
        if setup.sides.len() != 2 {
            return Err(SetupError {
                tag: None,
                reason: format!(
                    "Battlegates on {board} is played by exactly two sides, South and North"
                ),
            });
        }
        Ok(())
    }

    /// Whether `side` takes its turns (one board: always).
    fn takes_turns(&self, _state: &State, _side: Side) -> bool {
        true
    }

    /// Whether `side` is out of the game and its hand discarded, so a card
    /// of it opened goes to the pile (one board: never).
    fn hand_discarded(&self, _state: &State, _side: Side) -> bool {
        false
    }

    /// Seat the sides of `layout`: allies on the board and the hand each
    /// side plays from (one board: each side alone, its own hand).
    fn seat(&self, _layout: Layout, _board: &mut Board, _cards: &mut Cards) {}

    /// Start play once every maze is open, or `None` for the one-board
    /// start (bad mazes, the opening roll, the deal).
    fn begin_play(
        &self,
        _state: &mut State,
        _chance: &mut dyn Chance,
    ) -> Option<Result<(), Illegal>> {
        None
    }

    /// The side that moves first if play begins, when the set-up cannot
    /// change the turns ([`crate::game::Game::first_mover_before_play`]);
    /// one board: never, the opening roll decides.
    fn first_mover_before_play(&self, _state: &State) -> Option<Side> {
        None
    }

    /// A card places `piece` (a moved wall or gate): refused where the
    /// set-up forbids it (one board: nowhere).
    fn card_move(&self, _board: &Board, _piece: Piece) -> Result<(), Illegal> {
        Ok(())
    }

    /// After a card's gate turn that carried `carried`: what the set-up
    /// does to them; returns the log line, if any (one board: nothing).
    fn card_turn(&self, _state: &mut State, _carried: &[Carry]) -> Option<String> {
        None
    }

    /// The end of a turn, before the next side is chosen; returns the log
    /// line, if any (one board: nothing).
    fn turn_end(&self, _board: &mut Board) -> Option<String> {
        None
    }

    /// The side to move after `side` (one board: its opponent).
    fn next_to_move(&self, _state: &State, side: Side) -> Side {
        opponent(side)
    }

    /// `side` resigns (one board: its opponent wins).
    fn resign(&self, state: &mut State, side: Side) {
        state.finish(Some(opponent(side)), End::Resigned(side));
    }

    /// End the game if the characters left decide it (one board: a side
    /// without characters loses; both without, a draw). Called only while
    /// the game is on.
    fn judge(&self, state: &mut State) {
        let gone: Vec<Side> = [Side(0), Side(1)]
            .into_iter()
            .filter(|&s| !state.board.has_characters(s))
            .collect();
        match gone.as_slice() {
            [] => {}
            [one] => state.finish(Some(opponent(*one)), End::NoCharacters(*one)),
            _ => state.finish(None, End::NoCharacters(Side(0))),
        }
    }

    /// Read the result field of a position (one board: `*`, a win or a
    /// draw of South or North).
    fn read_result(
        &self,
        field: &PositionField<'_>,
        state: &mut State,
    ) -> Result<(), PositionParseError> {
        position::read_result(field, state)
    }

    /// The team `side` plays in (one board: itself alone).
    fn team_of(&self, _layout: Layout, side: Side) -> Team {
        Team::of(&[side])
    }
}

/// The one-board game: every hook its default.
#[derive(Debug)]
pub struct OneBoard;

impl Variant for OneBoard {
    fn layouts(&self) -> &'static [Layout] {
        &[Layout::OneBoard]
    }
}

/// Which set-up's rules play a layout: the composition's table, passed to
/// whatever makes a position from a layout ([`position::parse`]).
pub type Rules = fn(Layout) -> &'static dyn Variant;
