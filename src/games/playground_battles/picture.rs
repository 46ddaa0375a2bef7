//! The picture of a position ([`crate::picture`]): the 10 x 8 squares, the
//! two bases beyond the back rows, the pieces with what the viewer knows
//! of each (`?` hidden, its identity once opened, or known only to the
//! viewer: its own pieces, with `--key`), stalemates and battles, the
//! coordinates and the summary. The text diagram draws its board from
//! this picture.
//!
//! The summary line is written here (`diagram::summary` re-exports it):
//! the diagram uses the picture, never the other way.

use std::fmt::Write;

use crate::game::Outcome;
use crate::picture::{Cell, Ground, Known, Picture, Point, Shape, Token};

use super::board::{side_name as name, Sq, BLUE, COLS, ROWS};
use super::state::{End, PieceId, State};

/// The margin for the coordinates, in squares.
const MARGIN: f32 = 0.7;
/// The height of a base's strip beyond the coordinates.
const BASE: f32 = 0.6;

/// The picture of `state` as its viewer knows it. Its first cells are the
/// squares in square order (`cells[sq.idx()]` is `sq`), then Red's base
/// and Blue's base.
pub fn picture(state: &State) -> Picture {
    let mut pic = Picture::new(
        "Playground Battles",
        f32::from(COLS) + 2.0 * MARGIN,
        f32::from(ROWS) + 2.0 * (MARGIN + BASE),
        crate::games::two_sides::picture_sides(),
    );
    pic.cells = Sq::all().map(|sq| square(state, sq)).collect();
    let strip = |y: f32, text: &str| {
        let shape = Shape::Place {
            at: Point::new(MARGIN, y),
            width: f32::from(COLS),
            height: BASE * 0.9,
        };
        let mut cell = Cell::new(text, shape, Ground::Home);
        cell.tag = Some(text.to_string());
        cell
    };
    pic.cells.push(strip(0.0, "Red's base"));
    pic.cells.push(strip(
        top() + f32::from(ROWS) + MARGIN + 0.05,
        "Blue's base",
    ));
    margins(&mut pic);
    pic.caption = vec![summary(state)];
    let own = if has_own(&pic) {
        "dashed ring, italic: known only to you (your key), not opened"
    } else {
        "only the identities opened in the record show"
    };
    pic.legend = vec![
        "R Rock, P Paper, S Scissors; ? an identity still hidden".into(),
        own.into(),
        "A = B: a stalemate; A > B: A attacks, waiting for B's opening".into(),
    ];
    pic
}

fn has_own(pic: &Picture) -> bool {
    pic.cells
        .iter()
        .flat_map(|c| &c.tokens)
        .any(|t| t.known == Known::Own)
}

/// Where the board's top edge lies.
fn top() -> f32 {
    BASE + MARGIN
}

fn square(state: &State, sq: Sq) -> Cell {
    let at = Point::new(
        MARGIN + f32::from(sq.col()),
        top() + f32::from(ROWS - 1 - sq.row()),
    );
    let mut cell = Cell::new(
        sq.to_string(),
        Shape::Square { at, size: 1.0 },
        Ground::Plain,
    );
    match state.at(sq) {
        [Some(a), None] => cell.tokens.push(token(state, a)),
        [Some(a), Some(b)] if state.battle.is_some_and(|x| x.at == sq) => {
            // The attacker (second on the square) first.
            cell.tokens.push(token(state, b));
            cell.tokens.push(token(state, a));
            cell.link = Some(">");
        }
        [Some(a), Some(b)] => {
            let (blue, red) = if a.side() == BLUE { (a, b) } else { (b, a) };
            cell.tokens.push(token(state, blue));
            cell.tokens.push(token(state, red));
            cell.link = Some("=");
        }
        [None, _] => {}
    }
    cell
}

/// A piece as the viewer knows it.
fn token(state: &State, id: PieceId) -> Token {
    let p = state.piece(id);
    let side = name(id.side());
    let from = char::from(b'a' + id.origin());
    let (text, known, title) = match p.kind {
        Some(k) if p.public => (
            k.letter().to_string(),
            Known::Public,
            format!("{side} {} (from {from}), opened", k.name()),
        ),
        Some(k) => (
            k.letter().to_string(),
            Known::Own,
            format!("{side} {} (from {from}), known only to you", k.name()),
        ),
        None => (
            "?".to_string(),
            Known::Hidden,
            format!("{side} piece from {from}, identity hidden"),
        ),
    };
    Token {
        known,
        ..Token::piece(usize::from(id.side()), text, title)
    }
}

fn margins(pic: &mut Picture) {
    pic.grid_coordinates(COLS, ROWS, (MARGIN, top()), MARGIN);
}

/// One line on the position.
pub fn summary(s: &State) -> String {
    match (s.outcome, s.end) {
        (Outcome::Won(w), End::Base(_)) => format!(
            "{} won: a {} piece entered {}'s base",
            name(w),
            name(w),
            name(State::other(w))
        ),
        (Outcome::Won(w), End::Resigned(l)) => format!("{} won: {} resigned", name(w), name(l)),
        (Outcome::Won(w), End::NoFreePiece(l)) if s.on_board(l) == 0 => {
            format!("{} won: {} has no pieces left", name(w), name(l))
        }
        (Outcome::Won(w), End::NoFreePiece(l)) => format!(
            "{} won: every {} piece is locked in a stalemate",
            name(w),
            name(l)
        ),
        (Outcome::Won(w), _) => format!("{} won", name(w)),
        (Outcome::Draw, _) => "draw: neither side has a free piece".into(),
        (Outcome::TeamWon(_), _) => "over".into(),
        (Outcome::Ongoing, _) => ongoing(s),
    }
}

fn ongoing(s: &State) -> String {
    let me = name(s.to_move);
    let mut text = match s.roll {
        Some(r) => format!("{me} to move: rolled {r}"),
        None => format!("{me} to move"),
    };
    if let Some(b) = s.battle {
        let _ = write!(text, "; the battle on {} waits for {me}'s identity", b.at);
    }
    text
}
