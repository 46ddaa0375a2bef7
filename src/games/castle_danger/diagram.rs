//! The text diagram and the turn comment.

use std::fmt::Write;

use anstyle::{AnsiColor, Style};

use crate::game::{DiagramStyle, Outcome, Side};

use super::board::{side_name as name, Sq, Terrain, BLUE, COLS, ROWS};
use super::picture;
use super::state::{Cell, End, Event, Kind, State};
use crate::picture::{self as model, Form, Ground, Picture};

/// `text` in the side's colour (stripped by the CLI when colour is off).
fn paint(out: &mut String, side: Side, text: &str) {
    let colour = if side == BLUE {
        AnsiColor::Blue
    } else {
        AnsiColor::Red
    };
    let st = Style::new().fg_color(Some(colour.into())).bold();
    let _ = write!(out, "{}{}{}", st.render(), text, st.render_reset());
}

/// How one cell is drawn: filler left and right, the content, and the
/// mark after it (`!` for a fired Cannon), with the side whose colour the
/// content takes.
struct CellView {
    fill: char,
    content: char,
    fired: bool,
    side: Option<Side>,
}

/// How the picture's cell is drawn in text.
fn cell_view(cell: &model::Cell, unicode: bool) -> CellView {
    let portal = cell.ground == Ground::Special;
    let terrain = match cell.ground {
        Ground::Sand => Terrain::Sand,
        Ground::Water => Terrain::River,
        _ => Terrain::Grass,
    };
    let fill = match (terrain, unicode) {
        (Terrain::Sand, true) => '░',
        (Terrain::River, true) => '≈',
        (Terrain::River, false) => '~',
        _ => ' ',
    };
    let empty = match (terrain, unicode) {
        _ if portal => {
            if unicode {
                '◇'
            } else {
                '.'
            }
        }
        (Terrain::Grass, true) => '·',
        (Terrain::Grass, false) => '.',
        (Terrain::Sand, false) => ':',
        _ => fill,
    };
    let token = cell.tokens.first();
    let side = token.and_then(|t| t.side).map(|i| Side(i as u8));
    let (content, fired) = match token {
        None => (empty, false),
        Some(t) if t.form == Form::Block => (if unicode { '█' } else { '#' }, false),
        Some(t) => {
            let c = t.text.chars().next().unwrap_or('?');
            let c = if side == Some(BLUE) {
                c
            } else {
                c.to_ascii_lowercase()
            };
            (c, t.badge.is_some())
        }
    };
    let wall = token.is_some_and(|t| t.form == Form::Block);
    let fill = if unicode && wall { '█' } else { fill };
    CellView {
        fill,
        content,
        fired,
        side,
    }
}

/// Append `left`, the content and its mark (coloured), and `right`.
fn push_cell(out: &mut String, v: &CellView, left: char, right: Option<char>) {
    out.push(left);
    let mut body = [0u8; 8];
    let mut len = v.content.encode_utf8(&mut body).len();
    if v.fired {
        body[len] = b'!';
        len += 1;
    }
    let body = std::str::from_utf8(&body[..len]).unwrap_or("?");
    match v.side {
        Some(s) => paint(out, s, body),
        None => out.push_str(body),
    }
    if !v.fired {
        out.push(v.fill);
    }
    if let Some(r) = right {
        out.push(r);
    }
}

fn header(out: &mut String) {
    out.push_str("    ");
    for c in 0..COLS {
        let _ = write!(out, " {}  ", char::from(b'a' + c));
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out.push('\n');
}

fn board_ascii(pic: &Picture, out: &mut String) {
    header(out);
    for row in (0..ROWS).rev() {
        let _ = write!(out, "  {} ", row + 1);
        for col in 0..COLS {
            let sq = Sq::new(col, row);
            let v = cell_view(&pic.cells[sq.idx()], false);
            let (l, r) = if sq.is_portal() {
                ('[', ']')
            } else {
                (v.fill, v.fill)
            };
            push_cell(out, &v, l, Some(r));
        }
        let _ = writeln!(out, " {}", row + 1);
    }
    header(out);
}

fn board_unicode(pic: &Picture, out: &mut String) {
    header(out);
    let rule = |out: &mut String, l: char, m: char, r: char| {
        out.push_str("   ");
        out.push(l);
        for c in 0..COLS {
            out.push_str("───");
            out.push(if c + 1 == COLS { r } else { m });
        }
        out.push('\n');
    };
    rule(out, '┌', '┬', '┐');
    for row in (0..ROWS).rev() {
        let _ = write!(out, " {} ", row + 1);
        for col in 0..COLS {
            let sq = Sq::new(col, row);
            let left_portal = sq.is_portal() || (col > 0 && Sq::new(col - 1, row).is_portal());
            let v = cell_view(&pic.cells[sq.idx()], true);
            let sep = if left_portal { '║' } else { '│' };
            out.push(sep);
            push_cell(out, &v, v.fill, None);
        }
        let _ = writeln!(out, "│ {}", row + 1);
        if row > 0 {
            rule(out, '├', '┼', '┤');
        }
    }
    rule(out, '└', '┴', '┘');
    header(out);
}

/// The whole diagram: board, legend, status.
pub fn draw(state: &State, style: DiagramStyle) -> String {
    let pic = picture::picture(state);
    let mut out = String::with_capacity(2048);
    if style.unicode {
        board_unicode(&pic, &mut out);
    } else {
        board_ascii(&pic, &mut out);
    }
    out.push('\n');
    out.push_str("  K W B C  Blue King, Wizard, Builder, Cannon\n");
    out.push_str("  k w b c  Red King, Wizard, Builder, Cannon\n");
    out.push_str("  C! c!    a Cannon that has fired (marked until its side's next turn)\n");
    if style.unicode {
        out.push_str("  F f  Blue / Red Fire    ███  Wall\n");
        out.push_str("  ·  grass    ░  sand (no Walls)    ≈  river\n");
        out.push_str("  ║ ◇ ║  Portal: d1 Blue, d9 Red\n");
    } else {
        out.push_str("  F f  Blue / Red Fire    #  Wall\n");
        out.push_str("  .  grass    :  sand (no Walls)    ~  river\n");
        out.push_str("  [ ]  Portal: d1 Blue, d9 Red\n");
    }
    out.push('\n');
    for line in &pic.caption {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The comment on the turn just played, from the turn log kept in `after`.
pub fn comment(after: &State) -> String {
    let t = after.turn();
    let mut parts: Vec<String> = Vec::new();
    parts.push(format!(
        "{} of {} moves",
        t.moves_total - t.moves_left,
        t.moves_total
    ));
    for e in t.log.events() {
        match *e {
            Event::Added(kind, at) => parts.push(format!("added {} {at}", kind.name())),
            Event::Built(at) => parts.push(format!("built Wall {at}")),
            Event::Removed(at) => parts.push(format!("removed Wall {at}")),
            Event::Shot { at, hit } => {
                let fire = if at.is_portal() {
                    format!("no Fire on Portal {at}")
                } else {
                    format!("Fire on {at}")
                };
                match hit {
                    _ if at.terrain() == Terrain::River => {
                        parts.push(format!("shot into the river at {at}"))
                    }
                    Cell::Piece(p) if p.kind == Kind::King => {}
                    Cell::Piece(p) => {
                        parts.push(format!("removed {} {} {at}", name(p.side), p.kind.name()));
                        parts.push(fire);
                    }
                    Cell::Wall => {
                        parts.push(format!("shot down Wall {at}"));
                        parts.push(fire);
                    }
                    Cell::Fire(_) | Cell::Empty => parts.push(fire),
                }
            }
        }
    }
    if t.log.more() > 0 {
        parts.push(format!("and {} more", t.log.more()));
    }
    match (after.end(), after.outcome) {
        (End::KingHit { side, .. }, Outcome::Won(w)) => {
            parts.push(format!("{}'s King hit: {} wins", name(side), name(w)))
        }
        (End::Resigned(side), Outcome::Won(w)) => {
            parts.push(format!("{} resigned: {} wins", name(side), name(w)))
        }
        _ => {}
    }
    parts.join("; ")
}
