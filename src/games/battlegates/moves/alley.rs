//! Battle Alley's own rules (the column `j` between the west and east
//! boards): no Brick wall ever lies across the Alley (the set-up keeps
//! every piece off it: `setup.rs`); a gate turned or moved across it
//! that can turn neither way on the maze alone is taken out of the
//! game after the action that left it so.

use crate::game::Side;

use crate::games::battlegates::geometry::board::{Edge, Sense};
use crate::games::battlegates::mazes::maze::{Gate, Piece};
use crate::games::battlegates::moves::gates::{quarter, Turner};
use crate::games::battlegates::pieces::characters::Board;

/// Why a Brick wall may not go to `edge` (a Move-a-wall card), if it
/// lies across the Alley.
pub fn wall_refused(board: &Board, edge: Edge) -> Option<String> {
    board.geo().across_alley(edge).then(|| {
        format!(
            "{} would lie across the Alley: a Brick wall never lies across it",
            Piece::Wall(edge).named()
        )
    })
}

/// Whether `gate` covers an edge across the Alley.
fn across(board: &Board, gate: Gate) -> bool {
    gate.edge_list()
        .into_iter()
        .any(|e| board.geo().across_alley(e))
}

/// Whether the gates on `gate`'s post can make a quarter turn either way
/// on the maze alone: walls, stone, other gates, the board's edge and
/// fixed posts count; characters do not.
fn can_swing(board: &Board, gate: Gate) -> bool {
    let bare = board.without_characters();
    let turner = Turner {
        side: Side(0),
        pusher: None,
    };
    [Sense::Cw, Sense::Ccw].into_iter().any(|sense| {
        let mut b = bare;
        quarter(&mut b, gate, sense, turner).is_ok()
    })
}

/// Take out of the game every gate lying across the Alley that cannot
/// swing away (judged after each action that changed the maze, a half
/// turn once after both quarters); the gates taken out, in maze order.
pub fn clear_stuck_gates(board: &mut Board) -> Vec<Gate> {
    if board.geo().alley.is_none() {
        return Vec::new();
    }
    let stuck: Vec<Gate> = board
        .maze
        .gates()
        .map(|(_, g)| g)
        .filter(|&g| across(board, g) && !can_swing(board, g))
        .collect();
    for &g in &stuck {
        board.maze.remove(Piece::Gate(g));
    }
    stuck
}

/// `; Gj6nw lay across the Alley and could not swing: it left the game`
/// for a turn's log, or nothing.
pub fn removal_text(gone: &[Gate]) -> String {
    if gone.is_empty() {
        return String::new();
    }
    let names: Vec<String> = gone.iter().map(Gate::to_string).collect();
    format!(
        "{} lay across the Alley and could not swing away: taken out of the game",
        names.join(", ")
    )
}
