//! The compact text diagram, for a board too wide for the full one in
//! 80 columns (Battle Alley's 19 columns):
//!
//! ```text
//!           Castle2's Keep: -             Castle4's Keep: -
//!     a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p  q  r  s
//!    +--+--+  +--+--+--+  +--+--+--+--+--+  +--+--+--+  +--+--+
//! 12 |   C2    A2 G2 A2    C2          C4    A4 G4 A4    C4    | 12
//! ```
//!
//! A square is two characters: a character's letter (`C A G`) and its
//! castle's number, `* ` an empty portal; posts and edges are one
//! character wide (`#` a Brick wall, `=` or `H` a gate, `o` its hinge
//! post, `-` or `|` stone).

use std::fmt::Write;

use crate::game::DiagramStyle;

use crate::games::battlegates::geometry::board::{side_name, Dir, Edge, Loc, Post, Sq};
use crate::games::battlegates::mazes::maze::OnEdge;
use crate::games::battlegates::one_board::state::State;

/// The characters of the drawing, by style.
struct Ink {
    wall_h: char,
    wall_v: char,
    gate_h: char,
    gate_v: char,
    stone_h: char,
    stone_v: char,
    post: char,
    corner: char,
    hinge: char,
    portal: char,
}

const ASCII: Ink = Ink {
    wall_h: '#',
    wall_v: '#',
    gate_h: '=',
    gate_v: 'H',
    stone_h: '-',
    stone_v: '|',
    post: '.',
    corner: '+',
    hinge: 'o',
    portal: '*',
};

const UNICODE: Ink = Ink {
    wall_h: '━',
    wall_v: '┃',
    gate_h: '═',
    gate_v: '║',
    stone_h: '─',
    stone_v: '│',
    post: '·',
    corner: '┼',
    hinge: '●',
    portal: '∗',
};

/// The digit of a side's name (`Castle3`: `3`), or its first letter.
pub fn side_mark(side: crate::game::Side) -> char {
    let name = side_name(side);
    name.chars()
        .last()
        .filter(char::is_ascii_digit)
        .unwrap_or('?')
}

/// `C3`: Castle3's Crusader on `loc`.
fn who(state: &State, loc: Loc) -> Option<String> {
    let id = state.board.at(loc)?;
    Some(format!("{}{}", id.kind().letter(), side_mark(id.side())))
}

fn post_char(state: &State, p: Post, ink: &Ink) -> char {
    if state.board.maze.gates().any(|(_, g)| g.hinge == p) {
        ink.hinge
    } else if state.board.geo().post_on_perimeter(p) {
        ink.corner
    } else {
        ink.post
    }
}

fn post_line(state: &State, y: u8, ink: &Ink, out: &mut String) {
    let cols = state.board.geo().cols;
    out.push_str("   ");
    for x in 0..=cols {
        out.push(post_char(state, Post { x, y }, ink));
        if x < cols {
            let c = match state.board.on_edge(Edge::h(x, y)) {
                Some(OnEdge::Stone) => ink.stone_h,
                Some(OnEdge::Wall) => ink.wall_h,
                Some(OnEdge::Gate(_)) => ink.gate_h,
                None => ' ',
            };
            out.push(c);
            out.push(c);
        }
    }
    out.push('\n');
}

fn columns(state: &State, out: &mut String) {
    out.push_str("    ");
    for c in 0..state.board.geo().cols {
        out.push(char::from(b'a' + c));
        out.push_str("  ");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
}

fn keep_line(state: &State, end: Dir, out: &mut String) {
    let g = state.board.geo();
    let mut line = String::new();
    for c in g.castles.iter().filter(|c| c.entrances[0].inward == end) {
        let w = who(state, Loc::Keep(c.side)).unwrap_or_else(|| "-".into());
        // Above (or below) its west entrance square.
        let at = 4 + 3 * usize::from(c.entrances[0].square.col);
        let pad = at.saturating_sub(line.chars().count()).max(1);
        let _ = write!(line, "{:pad$}{}'s Keep: {w}", "", side_name(c.side));
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{line}");
    }
}

/// Draw the board of `state` compactly (the lines under it are the
/// caller's).
pub fn draw(state: &State, style: DiagramStyle, out: &mut String) {
    let ink = if style.unicode { &UNICODE } else { &ASCII };
    let g = state.board.geo();
    keep_line(state, Dir::N, out);
    columns(state, out);
    for row in (0..g.rows).rev() {
        post_line(state, row + 1, ink, out);
        let _ = write!(out, "{:>2} ", row + 1);
        for col in 0..=g.cols {
            let c = match state.board.on_edge(Edge::v(col, row)) {
                Some(OnEdge::Stone) => ink.stone_v,
                Some(OnEdge::Wall) => ink.wall_v,
                Some(OnEdge::Gate(_)) => ink.gate_v,
                None => ' ',
            };
            out.push(c);
            if col == g.cols {
                break;
            }
            let sq = Sq::new(col, row);
            match who(state, Loc::Sq(sq)) {
                Some(w) => out.push_str(&w),
                None if g.is_portal(sq) => {
                    out.push(ink.portal);
                    out.push(' ');
                }
                None => out.push_str("  "),
            }
        }
        let _ = writeln!(out, " {}", row + 1);
    }
    post_line(state, 0, ink, out);
    columns(state, out);
    keep_line(state, Dir::S, out);
    let _ = writeln!(
        out,
        "C A G: Crusader, Archer, Gatekeeper, and the castle's number (C3: Castle3's)."
    );
    let _ = writeln!(
        out,
        "Walls {} {}, gates {} {} with {} the hinge post, stone {} {}, {} an empty portal.",
        ink.wall_h,
        ink.wall_v,
        ink.gate_h,
        ink.gate_v,
        ink.hinge,
        ink.stone_h,
        ink.stone_v,
        ink.portal
    );
}

/// Whether the full diagram of a board of `cols` columns fits 80
/// columns (a square and its edge take four).
pub fn full_fits(cols: u8) -> bool {
    4 + 4 * usize::from(cols) + 4 <= 80
}
