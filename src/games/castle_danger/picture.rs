//! The picture of a position ([`crate::picture`]): the 7 x 9 squares with
//! their ground (grass, sand, the river, the two Portals), the pieces,
//! Walls and Fire on them, coordinates on the margins, and the status
//! lines. The text diagram draws its board and status from this picture.
//!
//! The status lines are written here and the text diagram uses them: the
//! diagram uses the picture, never the other way.

use crate::picture::{Cell, Form, Ground, Picture, Point, Shape, Token};

use crate::game::{Game, Outcome};

use super::board::{opponent, portal, side_name as name, Sq, Terrain, BLUE, COLS, ROWS};
use super::state::{Cell as Content, State};
use super::CastleDanger;

/// The margin around the board, in squares.
const MARGIN: f32 = 0.7;

/// The picture of `state`. Its cells are in square order (`a1 b1 ... g9`:
/// `cells[sq.idx()]` is `sq`).
pub fn picture(state: &State) -> Picture {
    let mut pic = Picture::new(
        "Castle Danger",
        f32::from(COLS) + 2.0 * MARGIN,
        f32::from(ROWS) + 2.0 * MARGIN,
        crate::games::two_sides::picture_sides(),
    );
    pic.cells = Sq::all().map(|sq| square(state, sq)).collect();
    margins(&mut pic);
    pic.caption = status(state);
    pic.legend = vec![
        "K King, W Wizard, B Builder, C Cannon; ! a Cannon that has fired".into(),
        "diamond: Fire; dark square: Wall; sand (rows 4, 6): no Walls".into(),
        "blue row 5: the river; grey: the Portals, d1 Blue and d9 Red".into(),
    ];
    pic
}

/// The top left corner of `sq` (row 9 at the top).
fn corner(sq: Sq) -> Point {
    Point::new(
        MARGIN + f32::from(sq.col()),
        MARGIN + f32::from(ROWS - 1 - sq.row()),
    )
}

fn square(state: &State, sq: Sq) -> Cell {
    let ground = match sq.terrain() {
        _ if sq.is_portal() => Ground::Special,
        Terrain::Grass => Ground::Plain,
        Terrain::Sand => Ground::Sand,
        Terrain::River => Ground::Water,
    };
    let shape = Shape::Square {
        at: corner(sq),
        size: 1.0,
    };
    let mut cell = Cell::new(sq.to_string(), shape, ground);
    if sq.is_portal() {
        cell.tag = Some("Portal".into());
    }
    if let Some(token) = token(state.cell(sq)) {
        cell.tokens.push(token);
    }
    cell
}

/// What stands on a square, as a token.
fn token(content: Content) -> Option<Token> {
    match content {
        Content::Empty => None,
        Content::Wall => Some(Token {
            side: None,
            text: "#".into(),
            form: Form::Block,
            known: crate::picture::Known::Public,
            badge: None,
            title: "Wall".into(),
        }),
        Content::Fire(s) => Some(Token {
            form: Form::Marker,
            ..Token::piece(usize::from(s), "F", format!("{} Fire", name(s)))
        }),
        Content::Piece(p) => {
            let mut title = format!("{} {}", name(p.side), p.kind.name());
            if p.fired {
                title.push_str(" (has fired)");
            }
            Some(Token {
                badge: p.fired.then_some("!"),
                ..Token::piece(usize::from(p.side), p.kind.letter().to_string(), title)
            })
        }
    }
}

fn margins(pic: &mut Picture) {
    pic.grid_coordinates(COLS, ROWS, (MARGIN, MARGIN), MARGIN);
}

/// The lines under the legend: the summary, the pieces on the board, and
/// whether the side to move may add a piece (the picture's caption).
pub(super) fn status(state: &State) -> Vec<String> {
    let mut out = vec![CastleDanger::summary(state)];
    let me = state.to_move();
    out.push(format!(
        "Pieces on the board: Blue {}, Red {}",
        state.movable(BLUE),
        state.movable(opponent(BLUE))
    ));
    if state.outcome == Outcome::Ongoing {
        let gate = portal(me);
        let may_add = if state.active {
            !state.turn().acted && state.turn().portal_was_empty
        } else {
            state.cell(gate) == Content::Empty
        };
        if may_add {
            let cost = match super::rules::add_cost(state) {
                0 => "free".to_string(),
                n => format!("costs {n} moves"),
            };
            out.push(format!(
                "{} may first add a piece on {gate}: {cost}",
                name(me)
            ));
        } else if !state.active || !state.turn().acted {
            out.push(format!(
                "{}'s Portal {gate} is not empty: no piece can be added",
                name(me)
            ));
        }
    }
    out
}
