//! The picture of a position ([`crate::picture`]): the squares of the
//! set-up's board (portals marked), the Keeps beyond its last and first
//! rows, the characters,
//! the Brick walls (closed edges) and the gates (edges a push opens),
//! the coordinates, the summary and the hands.

use crate::picture::{Cell, Colour, Edge, Ground, Passage, Picture, Point, Shape, SideKey, Token};

use crate::games::battlegates::geometry::board::{side_name, Castle, Dir, Geometry, Loc, Sq};
use crate::games::battlegates::mazes::maze::Piece;
use crate::games::battlegates::one_board::rules::hand_text;
use crate::games::battlegates::one_board::state::{Id, State};

/// The margin for the coordinates, in squares.
const MARGIN: f32 = 0.7;
/// The height of a Keep's strip beyond the coordinates.
const KEEP: f32 = 0.6;

fn rows(g: &Geometry) -> f32 {
    f32::from(g.rows)
}

fn top() -> f32 {
    KEEP + MARGIN
}

/// A post's point in the picture.
fn post_point(g: &Geometry, x: u8, y: u8) -> Point {
    Point::new(MARGIN + f32::from(x), top() + rows(g) - f32::from(y))
}

/// The picture of `state`. Its first cells are the squares in square
/// order (`cells[g.idx(sq)]` is `sq`), then the Keeps beyond the last
/// row (North's), then those beyond the first (South's).
pub fn picture(state: &State) -> Picture {
    let g = state.board.geo();
    let cols = f32::from(g.cols);
    let mut pic = Picture::new(
        "Battlegates",
        cols + 2.0 * MARGIN,
        rows(g) + 2.0 * (MARGIN + KEEP),
        g.side_list()
            .into_iter()
            .zip(COLOURS)
            .map(|(s, colour)| SideKey {
                name: side_name(s),
                colour,
            })
            .collect(),
    );
    pic.cells = g.squares().map(|sq| square(state, sq)).collect();
    for (end, y) in [(Dir::N, 0.0), (Dir::S, top() + rows(g) + MARGIN + 0.05)] {
        for c in g.castles.iter().filter(|c| c.entrances[0].inward == end) {
            pic.cells.push(keep(state, c, y));
        }
    }
    for piece in state.board.pieces() {
        let (passage, title, hinge) = match piece {
            Piece::Wall(_) => (Passage::Wall, piece.named(), None),
            Piece::Gate(gate) => {
                let swing = match state.board.maze.fixed_reason(g, gate.hinge) {
                    Some(_) => "fixed: it does not swing now".to_string(),
                    None => "it swings about that post".to_string(),
                };
                let title = format!("{}, hinged at {}: {swing}", gate.named(), gate.hinge);
                (Passage::Open, title, Some(gate.hinge))
            }
        };
        for e in piece.edge_list() {
            let [a, b] = e.posts();
            // The ring on the hinge post is drawn with the edge that
            // touches it (a Long gate's other edge has none).
            let ring = hinge
                .filter(|h| *h == a || *h == b)
                .map(|h| post_point(g, h.x, h.y));
            pic.edges.push(Edge {
                from: post_point(g, a.x, a.y),
                to: post_point(g, b.x, b.y),
                passage,
                name: format!("{piece} on {e}"),
                title: title.clone(),
                hinge: ring,
                changed: false,
            });
        }
    }
    pic.grid_coordinates(g.cols, g.rows, (MARGIN, top()), MARGIN);
    pic.caption = vec![crate::games::battlegates::views::diagram::summary(state)];
    pic.legend = vec![
        "C Crusader, A Archer, G Gatekeeper; portals (starting squares) shaded".into(),
        "solid: Brick walls; dashed: gates, swung about the ringed post".into(),
    ];
    if let Some(run) = g.run {
        pic.legend.push(format!(
            "water: the Misery Run, row {}: deadly when a turn ends",
            run + 1
        ));
    }
    let sides = g.side_list();
    let mut shown = Vec::new();
    for &s in &sides {
        let h = state.cards.holder(s);
        if shown.contains(&h) {
            continue;
        }
        shown.push(h);
        let names: Vec<&str> = sides
            .iter()
            .filter(|&&t| state.cards.holder(t) == h)
            .map(|&t| side_name(t))
            .collect();
        pic.legend.push(format!(
            "{}'s hand: {}",
            names.join("+"),
            hand_text(state, h)
        ));
    }
    pic
}

/// The sides' colours, in turn order.
const COLOURS: [Colour; 4] = [
    Colour::Blue,
    Colour::Vermillion,
    Colour::BluishGreen,
    Colour::Orange,
];

fn token(state: &State, id: Id) -> Token {
    let key = state
        .board
        .geo()
        .side_list()
        .iter()
        .position(|&s| s == id.side())
        .unwrap_or(0);
    Token::piece(key, id.kind().letter().to_string(), id.name())
}

fn square(state: &State, sq: Sq) -> Cell {
    let g = state.board.geo();
    let at = Point::new(
        MARGIN + f32::from(sq.col),
        top() + rows(g) - 1.0 - f32::from(sq.row),
    );
    let portal = g.is_portal(sq);
    let ground = if portal {
        Ground::Special
    } else if g.run == Some(sq.row) {
        Ground::Water
    } else {
        Ground::Plain
    };
    let mut cell = Cell::new(sq.to_string(), Shape::Square { at, size: 1.0 }, ground);
    if let Some(id) = state.board.on(sq) {
        cell.tokens.push(token(state, id));
    }
    cell
}

fn keep(state: &State, castle: &Castle, y: f32) -> Cell {
    let side = castle.side;
    let [west, east] = castle.entrances;
    let shape = Shape::Place {
        at: Point::new(MARGIN + f32::from(west.square.col), y),
        width: f32::from(east.square.col - west.square.col + 1),
        height: KEEP * 0.9,
    };
    let name = format!("{}'s Keep", side_name(side));
    let mut cell = Cell::new(name.clone(), shape, Ground::Home);
    cell.tag = Some(name);
    if let Some(id) = state.board.at(Loc::Keep(side)) {
        cell.tokens.push(token(state, id));
    }
    cell
}
