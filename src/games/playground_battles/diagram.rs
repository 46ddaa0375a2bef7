//! The text diagram and the turn comments.
//!
//! ```text
//!                           Red's base
//!      a     b     c     d     e     f     g     h     i     j
//!  8   R?    R?    R?    R?    .     R?    R?    R?    R?    R?    8
//!  ...
//!  3   .     .     .     BR=RR .     .     .     .     .     .     3
//!  1   B?    Bp    BS    .     B?    B?    B?    B?    B?    B?    1
//!      a     b     c     d     e     f     g     h     i     j
//!                          Blue's base
//! ```
//!
//! A piece is its side's letter and its identity: `?` while hidden, the
//! letter (`R`, `P`, `S`) once opened, in lower case where only the
//! viewer knows it (its own pieces, in `show --key`). Two pieces on a
//! square: `BR=RR` a stalemate, `RS>B?` a battle (attacker first) waiting
//! for the defender's opening.

use std::fmt::Write;

use crate::game::DiagramStyle;
use crate::picture::{self as model, Known};

use super::board::{side_name as name, Sq, COLS, ROWS};
use super::rules::describe;
use super::state::{Event, PieceId, State};

/// One line on the position (drawn under the picture too).
pub use super::picture::summary;

const CELL: usize = 6;

/// `B?`, `BR`, `Br`: a piece of the picture.
fn token(t: &model::Token) -> String {
    let side = if t.side == Some(0) { 'B' } else { 'R' };
    let letter = t.text.chars().next().unwrap_or('?');
    let kind = match t.known {
        Known::Own => letter.to_ascii_lowercase(),
        Known::Public | Known::Hidden => letter,
    };
    format!("{side}{kind}")
}

/// A square of the picture: `.`, `B?`, `BR=RR` (a stalemate), `RS>B?`
/// (a battle, the attacker first).
fn cell(c: &model::Cell, style: DiagramStyle) -> String {
    match c.tokens.as_slice() {
        [] => if style.unicode { "·" } else { "." }.to_string(),
        [a] => token(a),
        [a, b, ..] => format!("{}{}{}", token(a), c.link.unwrap_or("="), token(b)),
    }
}

fn columns(out: &mut String) {
    out.push_str("     ");
    for c in 0..COLS {
        let _ = write!(out, "{:<CELL$}", char::from(b'a' + c));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
}

fn centred(out: &mut String, text: &str) {
    let width = 5 + CELL * usize::from(COLS);
    let pad = width.saturating_sub(text.len()) / 2;
    let _ = writeln!(out, "{:pad$}{text}", "");
}

/// Draw the position.
pub fn draw(s: &State, style: DiagramStyle) -> String {
    let pic = super::picture::picture(s);
    let mut out = String::new();
    centred(&mut out, "Red's base");
    columns(&mut out);
    for row in (0..ROWS).rev() {
        let _ = write!(out, "  {}  ", row + 1);
        for col in 0..COLS {
            let text = cell(&pic.cells[Sq::new(col, row).idx()], style);
            // The last column is as wide as its widest content (`BR=RR`),
            // so that the row numbers on the right line up.
            let width = if col + 1 == COLS { CELL - 1 } else { CELL };
            let pad = width.saturating_sub(text.chars().count());
            let _ = write!(out, "{text}{:pad$}", "");
        }
        let _ = writeln!(out, "  {}", row + 1);
    }
    columns(&mut out);
    centred(&mut out, "Blue's base");
    out.push_str(
        "B/R: Blue/Red piece; ? hidden, R P S opened (lower case: known to you);\n\
         BR=RR: a stalemate; RS>B?: a battle waiting for the defender's opening\n",
    );
    out.push_str(&summary(s));
    out.push('\n');
    out
}

/// The comment on a finished turn: what happened in it. A line played
/// once the game was over (an audit, a forfeit) changes nothing here.
pub fn comment(before: &State, after: &State) -> String {
    if before.outcome.is_over() {
        return String::new();
    }
    let parts: Vec<String> = after
        .log
        .iter()
        .flatten()
        .map(|e| event_text(after, *e))
        .collect();
    parts.join("; ")
}

fn event_text(s: &State, e: Event) -> String {
    match e {
        Event::Attack { at, attacker } => {
            format!("{} attacks on {at}", describe_kind(s, attacker))
        }
        Event::Won { at, winner, loser } => format!(
            "battle on {at}: {} beats {}",
            describe_kind(s, winner),
            describe_kind(s, loser)
        ),
        Event::Stalemate { at, kind } => {
            format!("stalemate on {at}: two {} locked", kind.plural())
        }
        Event::Rescue { at, kept, sent } => format!(
            "rescue on {at}: {} stays, the other {}",
            describe_kind(s, kept),
            match sent {
                Some(sq) => format!("goes back to {sq}"),
                None => "leaves the game (the back row is full)".into(),
            }
        ),
        Event::LostEntering { at, piece } => format!(
            "{} entered the stalemate on {at} and is lost",
            describe_kind(s, piece)
        ),
        Event::Base { piece, from } => format!(
            "{} enters {}'s base from {from}: {} wins",
            describe_kind(s, piece),
            name(State::other(piece.side())),
            name(piece.side())
        ),
        Event::Passed => "no piece could use the roll".into(),
    }
}

/// "Blue's Rock" (or "a Blue piece" while hidden), without a square.
fn describe_kind(s: &State, id: PieceId) -> String {
    match s.public_kind(id) {
        Some(k) => format!("{}'s {}", name(id.side()), k.name()),
        None => describe(s, id).replacen("the ", "a ", 1),
    }
}
