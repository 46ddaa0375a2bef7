//! The picture of a position ([`crate::picture`]): the 19 hexes in their
//! five rows, the four named spaces, the units (their army's colour and
//! initial and their kind, `ER` an Elf Regular, as the position notation
//! writes them), the row letters on the margins, and the status lines of
//! the text diagram (the armies' table, options, a pending rally). The text
//! diagram draws its hexes' units from this picture.
//!
//! The status lines and the title line are written here and the text
//! diagram uses them, with the army names and colours: the diagram uses
//! the picture, never the other way.

use crate::picture::{
    Cell, Colour, Ground, HexOrient, Label, Picture, Point, Shape, SideKey, Token,
};

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};

use super::board::{hexes, short_name, Hex, NAMED_MASK, ROW_LEN, ROW_LETTER};
use super::state::*;
use crate::game::{wrap_words, Marked, Outcome, Side, TEXT_WIDTH};

/// From a hex's centre to a corner.
const R: f32 = 1.0;
/// The width of a hex (flat side to flat side).
const W: f32 = R * 1.732_050_8;
/// The margin for the row letters, left and right.
const SIDE_MARGIN: f32 = 0.7;
/// The margin above and below.
const TOP: f32 = 0.3;

/// The colour of each army, in army order.
const COLOURS: [Colour; 5] = [
    Colour::Blue,
    Colour::BluishGreen,
    Colour::Vermillion,
    Colour::Orange,
    Colour::ReddishPurple,
];

/// The army's initial, as the position notation writes it.
fn initial(side: Side) -> char {
    ARMY[usize::from(side)].chars().next().unwrap_or('?')
}

/// The centre of hex `num` (from 1) of row `row` (0 = A), in a row of `len`.
fn centre(row: usize, num: usize, len: usize) -> Point {
    let x = SIDE_MARGIN + (5 - len) as f32 * W / 2.0 + (num - 1) as f32 * W + W / 2.0;
    let y = TOP + R + row as f32 * 1.5 * R;
    Point::new(x, y)
}

/// The picture of `state`. Its cells are the hexes in label order
/// (`cells[h.idx()]` is `h`); its sides are the armies in play, in turn
/// order.
pub fn picture(state: &State) -> Picture {
    let sides: Vec<SideKey> = state
        .sides()
        .iter()
        .map(|&a| SideKey {
            name: ARMY[usize::from(a)],
            colour: COLOURS[usize::from(a)],
        })
        .collect();
    let mut pic = Picture::new(
        "Battle of the Dale",
        2.0 * SIDE_MARGIN + 5.0 * W,
        2.0 * TOP + 2.0 * R + 6.0 * R,
        sides,
    );
    for (row, &len) in ROW_LEN.iter().enumerate() {
        let len = usize::from(len);
        for num in 1..=len {
            if let Some(h) = Hex::at(row, num) {
                pic.cells.push(hex(state, h, centre(row, num, len)));
            }
        }
        let y = centre(row, 1, len).y;
        let letter = ROW_LETTER[row].to_string();
        let left = centre(row, 1, len).x - W / 2.0 - SIDE_MARGIN / 2.0;
        let right = centre(row, len, len).x + W / 2.0 + SIDE_MARGIN / 2.0;
        pic.labels
            .push(Label::coordinate(Point::new(left, y), letter.clone()));
        pic.labels
            .push(Label::coordinate(Point::new(right, y), letter));
    }
    pic.caption = vec![title_line(state)];
    let status = status(state, Marked::Mover);
    let plain = anstream::adapter::strip_str(&status).to_string();
    pic.caption.extend(plain.lines().map(str::to_string));
    pic.legend = vec![
        "a unit: its army's initial and kind (ER: an Elf Regular;".into(),
        "  R Regular, M Mounted, H Hero); grey, thick outline: a named space".into(),
    ];
    pic
}

fn hex(state: &State, h: Hex, centre: Point) -> Cell {
    let shape = Shape::Hex {
        centre,
        radius: R,
        orient: HexOrient::PointyTop,
    };
    let named = NAMED_MASK & h.bit() != 0;
    let ground = if named {
        Ground::Special
    } else {
        Ground::Plain
    };
    let mut cell = Cell::new(h.to_string(), shape, ground);
    cell.tag = Some(match short_name(h) {
        Some(n) => format!("{h} {n}"),
        None => h.to_string(),
    });
    if let Some((side, kind)) = state.unit(h) {
        let index = state.sides().iter().position(|&a| a == side);
        let text = format!("{}{}", initial(side), kind.letter());
        let title = format!("{} {}", ARMY[usize::from(side)], kind.name());
        cell.tokens.push(Token {
            side: index,
            ..Token::piece(0, text, title)
        });
    }
    cell
}

pub(super) fn army(s: Side) -> &'static str {
    ARMY[usize::from(s)]
}

fn colour(side: Side) -> Style {
    let c = match side {
        HUMAN => AnsiColor::Blue,
        ELF => AnsiColor::Green,
        DWARF => AnsiColor::Red,
        GOBLIN => AnsiColor::Yellow,
        _ => AnsiColor::Magenta,
    };
    Style::new().fg_color(Some(c.into()))
}

pub(super) fn coloured(side: Side, text: &str) -> String {
    let st = colour(side);
    format!("{}{}{}", st.render(), text, st.render_reset())
}

pub(super) fn hex_list(mask: u32) -> String {
    let v: Vec<String> = hexes(mask).map(|h| h.to_string()).collect();
    v.join(", ")
}

/// `Turn 10: Elf to move`: the diagram's first line (the readers name the
/// game above it).
pub(super) fn title_line(s: &State) -> String {
    let status = match s.result {
        Outcome::Ongoing => format!("{} to move", army(s.mover)),
        Outcome::Won(w) => format!("{} won", army(w)),
        _ => "draw".to_string(),
    };
    format!("Turn {}: {status}", s.turn_no)
}

/// Everything under the legend: the armies' table (the army `marked`
/// marked), the optional rules, offers, a pending rally, an Elf's forced
/// advance, an advance after capture (with colour; the picture's caption
/// is this without it).
pub(super) fn status(s: &State, marked: Marked) -> String {
    let mut out = String::new();
    armies(s, &mut out, marked);
    notes(s, &mut out);
    out
}

/// The armies' table: map, Reserve and Captured pile of each, the army
/// `marked` says marked `>` (by default the army to move).
fn armies(s: &State, out: &mut String, marked: Marked) {
    let _ = writeln!(out, "  Army     Map  Reserve   Captured pile");
    for &side in s.sides() {
        let due = match marked {
            Marked::Mover => !s.over() && side == s.mover,
            Marked::Side(due) => side == due,
            Marked::Nobody => false,
        };
        let mark = if due { ">" } else { " " };
        let name = coloured(side, &format!("{:<8}", army(side)));
        if !s.in_game(side) {
            let _ = write!(out, "{mark} {name} out");
        } else {
            let rv = s.reserve[usize::from(side)];
            let _ = write!(
                out,
                "{mark} {name} {:>3}  R{} M{} H{}  ",
                s.map_count(side),
                rv[0],
                rv[1],
                rv[2]
            );
        }
        let mut held = Vec::new();
        for &o in s.sides() {
            let p = s.pile[usize::from(side)][usize::from(o)];
            if o != side && p.iter().any(|&x| x > 0) {
                let mut t = CODE[usize::from(o)].to_string();
                for k in Kind::ALL {
                    if p[k.idx()] > 0 {
                        let _ = write!(t, " {}{}", k.letter(), p[k.idx()]);
                    }
                }
                held.push(t);
            }
        }
        if held.is_empty() {
            if s.in_game(side) {
                out.push('-');
            }
        } else {
            if !s.in_game(side) {
                out.push_str(", holds ");
            }
            out.push_str(&held.join(", "));
        }
        out.push('\n');
    }
}

/// The lines after the armies' table: the optional rules, the standing
/// offers, a pending rally, the Elf's forced advance, an advance after
/// capture.
fn notes(s: &State, out: &mut String) {
    let on: Vec<&str> = [
        (s.opts.prisoner_exchange, "prisoner-exchange"),
        (s.opts.max5, "max-5-units"),
        (s.opts.arms_race, "arms-race"),
        (s.opts.hero_or_mounted, "hero-or-mounted"),
    ]
    .iter()
    .filter(|x| x.0)
    .map(|x| x.1)
    .collect();
    let _ = writeln!(
        out,
        "Optional rules: {}",
        if on.is_empty() {
            "none".to_string()
        } else {
            on.join(", ")
        }
    );
    if s.opts.prisoner_exchange {
        for &side in s.sides() {
            let o = s.offers[usize::from(side)];
            if o != 0 && s.in_game(side) {
                let v: Vec<&str> = ARMIES
                    .into_iter()
                    .filter(|&x| o & bit(x) != 0)
                    .map(army)
                    .collect();
                let _ = writeln!(out, "{} offers exchanges to: {}", army(side), v.join(", "));
            }
        }
    }
    if let Some(r) = s.pending {
        let _ = write!(
            out,
            "Pending rally by {} ({} flip{}",
            army(r.side),
            r.flips,
            if r.flips == 1 { "" } else { "s" }
        );
        if let Some(p) = r.pile {
            let _ = write!(out, ", from {}'s pile", army(p));
        }
        if let Some(h) = r.at {
            let _ = write!(out, ", to place on {h}");
        }
        out.push_str(")\n  (settled by the next player's reveal, before their turn)\n");
    }
    if s.force_mask != 0 && s.in_game(ELF) {
        push_wrapped(
            out,
            &format!(
                "Elf may force an advance into {} (first action of its next turn)",
                hex_list(s.force_mask)
            ),
        );
    }
    if s.t.adv_to != 0 {
        push_wrapped(
            out,
            &format!(
                "{} may advance after capture into {}",
                army(s.mover),
                hex_list(s.t.adv_to)
            ),
        );
    }
}

/// Append `text` as lines of at most 78 columns.
fn push_wrapped(out: &mut String, text: &str) {
    for line in wrap_words(text, TEXT_WIDTH, "  ") {
        out.push_str(&line);
        out.push('\n');
    }
}
