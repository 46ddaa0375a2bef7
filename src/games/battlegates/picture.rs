//! The picture of a position ([`crate::picture`]): the 9 x 12 squares
//! (portals marked), the two Keeps beyond rows 12 and 1, the characters,
//! the Brick walls (closed edges) and the gates (edges a push opens),
//! the coordinates, the summary and the hands.

use crate::picture::{Cell, Colour, Edge, Ground, Passage, Picture, Point, Shape, SideKey, Token};

use super::board::{side_name, Loc, Sq, NORTH, ONE_BOARD, SOUTH};
use super::maze::Piece;
use super::rules::hand_text;
use super::state::{Id, State};

/// The margin for the coordinates, in squares.
const MARGIN: f32 = 0.7;
/// The height of a Keep's strip beyond the coordinates.
const KEEP: f32 = 0.6;

fn rows() -> f32 {
    f32::from(ONE_BOARD.rows)
}

fn top() -> f32 {
    KEEP + MARGIN
}

/// A post's point in the picture.
fn post_point(x: u8, y: u8) -> Point {
    Point::new(MARGIN + f32::from(x), top() + rows() - f32::from(y))
}

/// The picture of `state`. Its first cells are the squares in square
/// order (`cells[sq.idx()]` is `sq`), then North's Keep and South's.
pub fn picture(state: &State) -> Picture {
    let cols = f32::from(ONE_BOARD.cols);
    let mut pic = Picture::new(
        "Battlegates",
        cols + 2.0 * MARGIN,
        rows() + 2.0 * (MARGIN + KEEP),
        vec![
            SideKey {
                name: "South",
                colour: Colour::Blue,
            },
            SideKey {
                name: "North",
                colour: Colour::Vermillion,
            },
        ],
    );
    pic.cells = Sq::all().map(|sq| square(state, sq)).collect();
    pic.cells.push(keep(state, NORTH, 0.0));
    pic.cells
        .push(keep(state, SOUTH, top() + rows() + MARGIN + 0.05));
    for piece in state.board.pieces() {
        let passage = match piece {
            Piece::Wall(_) => Passage::Closed,
            Piece::Gate(_) => Passage::Open,
        };
        for e in piece.edge_list() {
            let [a, b] = e.posts();
            pic.edges.push(Edge {
                from: post_point(a.x, a.y),
                to: post_point(b.x, b.y),
                passage,
                name: format!("{piece} on {e}"),
            });
        }
    }
    pic.grid_coordinates(ONE_BOARD.cols, ONE_BOARD.rows, (MARGIN, top()), MARGIN);
    pic.caption = vec![super::diagram::summary(state)];
    pic.legend = vec![
        "C Crusader, A Archer, G Gatekeeper; portals shaded".into(),
        "solid edges: Brick walls; dashed: gates (a step pushes them)".into(),
        format!("South's hand: {}", hand_text(state, SOUTH)),
        format!("North's hand: {}", hand_text(state, NORTH)),
    ];
    pic
}

fn token(id: Id) -> Token {
    Token::piece(
        usize::from(id.side()),
        id.kind().letter().to_string(),
        id.name(),
    )
}

fn square(state: &State, sq: Sq) -> Cell {
    let at = Point::new(
        MARGIN + f32::from(sq.col),
        top() + rows() - 1.0 - f32::from(sq.row),
    );
    let portal = ONE_BOARD.portals.iter().any(|p| p.contains(&sq));
    let ground = if portal {
        Ground::Special
    } else {
        Ground::Plain
    };
    let mut cell = Cell::new(sq.to_string(), Shape::Square { at, size: 1.0 }, ground);
    if let Some(id) = state.board.on(sq) {
        cell.tokens.push(token(id));
    }
    cell
}

fn keep(state: &State, side: crate::game::Side, y: f32) -> Cell {
    let [west, east] = ONE_BOARD.castle(side).entrances;
    let shape = Shape::Place {
        at: Point::new(MARGIN + f32::from(west.square.col), y),
        width: f32::from(east.square.col - west.square.col + 1),
        height: KEEP * 0.9,
    };
    let name = format!("{}'s Keep", side_name(side));
    let mut cell = Cell::new(name.clone(), shape, Ground::Home);
    cell.tag = Some(name);
    if let Some(id) = state.board.at(Loc::Keep(side)) {
        cell.tokens.push(token(id));
    }
    cell
}
