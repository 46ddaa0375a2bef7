//! The picture of a position ([`crate::picture`]): the 7 x 9 squares with
//! their ground (grass, sand, the river, the two Portals), the pieces,
//! Walls and Fire on them, coordinates on the margins, and the status
//! lines. The text diagram draws its board and status from this picture.

use crate::picture::{Cell, Form, Ground, Picture, Point, Shape, Token};

use super::board::{side_name as name, Sq, Terrain, COLS, ROWS};
use super::state::{Cell as Content, State};

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
    pic.caption = super::diagram::status(state);
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
