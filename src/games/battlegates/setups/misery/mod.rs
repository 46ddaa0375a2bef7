//! Misery Run (`Setup "misery-run"`): the rules that set it apart from
//! the one-board game (docs/games/battlegates.md section 10, "Misery Run").
//!
//! - Each side sets up twenty maze pieces, in the slots [`SLOTS`].
//! - No card moves a wall or gate onto an edge that touches a post of
//!   either long edge of the Run, row 13 ([`card_move`]).
//! - A gate turned by a card carries a character of the card player's
//!   opponent onto the Run: it dies at once, and the card's player
//!   forfeits the dice phase ([`card_turn`]).
//! - Every character on the Run when a turn ends dies ([`turn_end`]).
//!
//! Each function does nothing on a board without a Run. [`MiseryRun`]
//! hands them to the one-board game as its [`Variant`] hooks.

use std::collections::BTreeSet;

use crate::game::Illegal;
use crate::games::battlegates::one_board::variant::Variant;
use crate::illegal;

use crate::games::battlegates::geometry::board::{Loc, Post};
use crate::games::battlegates::geometry::layouts::Layout;
use crate::games::battlegates::mazes::maze::Piece;
use crate::games::battlegates::moves::gates::Carry;
use crate::games::battlegates::one_board::state::{Board, Id, State};

/// A side's twenty set-up slots: eight Brick walls, six Gates and six
/// Long gates (the board's data,
/// [`Layout::slots`](crate::games::battlegates::geometry::layouts::Layout::slots)).
pub use crate::games::battlegates::geometry::layouts::MISERY_RUN_SLOTS as SLOTS;

/// Whether `loc` is a square of the Run on `board`'s board.
fn on_run(board: &Board, loc: Loc) -> bool {
    let run = board.geo().run;
    loc.sq().is_some_and(|sq| Some(sq.row) == run)
}

/// Whether post `p` lies on a long edge of the Run (the line between
/// rows 12 and 13, or between 13 and 14).
fn run_post(board: &Board, p: Post) -> bool {
    board
        .geo()
        .run
        .is_some_and(|row| p.y == row || p.y == row + 1)
}

/// A card places `piece` (a moved wall or gate): refused when the piece
/// would touch a post of a long edge of the Run.
pub fn card_move(board: &Board, piece: Piece) -> Result<(), Illegal> {
    match piece.posts().into_iter().find(|&p| run_post(board, p)) {
        Some(post) => illegal!(
            "{piece} would touch {post} on the edge of the Misery Run: in Misery Run no card \
             moves a wall or gate there"
        ),
        None => Ok(()),
    }
}

/// After a card's gate turn (the whole action, both quarters of a half
/// turn) that carried `carried`: each character of the card player's
/// opponent that was carried and now stands on the Run dies, and if any
/// did, the dice phase is forfeited. Returns the log line, if any.
pub fn card_turn(state: &mut State, carried: &[Carry]) -> Option<String> {
    let side = state.to_move;
    let ids: BTreeSet<Id> = carried.iter().map(|c| c.id).collect();
    let victims: Vec<(Id, Loc)> = ids
        .into_iter()
        .filter(|id| id.side() != side)
        .filter_map(|id| state.board.loc(id).map(|loc| (id, loc)))
        .filter(|&(_, loc)| on_run(&state.board, loc))
        .collect();
    if victims.is_empty() {
        return None;
    }
    for &(id, _) in &victims {
        state.board.set(id, None);
    }
    state.dice.forfeited = true;
    let names: Vec<String> = victims
        .iter()
        .map(|(id, loc)| format!("{} on {loc}", id.name()))
        .collect();
    Some(format!(
        "carried into the Misery Run, {} died (the dice phase is forfeited)",
        names.join(" and ")
    ))
}

/// The end of a turn: every character standing on the Run dies,
/// whichever side it is on. Returns the log line, if any.
pub fn turn_end(board: &mut Board) -> Option<String> {
    let g = board.geo();
    let doomed: Vec<(Id, Loc)> = g
        .sides
        .iter()
        .enumerate()
        .flat_map(|(s, _)| {
            let side = crate::game::Side(s as u8);
            board.alive(side).collect::<Vec<_>>()
        })
        .filter(|&(_, loc)| on_run(board, loc))
        .collect();
    if doomed.is_empty() {
        return None;
    }
    for &(id, _) in &doomed {
        board.set(id, None);
    }
    let names: Vec<String> = doomed
        .iter()
        .map(|(id, loc)| format!("{} on {loc}", id.name()))
        .collect();
    Some(format!(
        "the turn ended with {} in the Misery Run: {} died",
        names.join(" and "),
        if doomed.len() == 1 { "it" } else { "they" }
    ))
}

/// Misery Run's rules as hooks over the one-board game.
#[derive(Debug)]
pub struct MiseryRun;

impl Variant for MiseryRun {
    fn layouts(&self) -> &'static [Layout] {
        &[Layout::MiseryRun]
    }

    fn board_name(&self) -> &'static str {
        "Misery Run"
    }

    fn card_move(&self, board: &Board, piece: Piece) -> Result<(), Illegal> {
        card_move(board, piece)
    }

    fn card_turn(&self, state: &mut State, carried: &[Carry]) -> Option<String> {
        card_turn(state, carried)
    }

    fn turn_end(&self, board: &mut Board) -> Option<String> {
        turn_end(board)
    }
}

#[cfg(test)]
mod tests;
