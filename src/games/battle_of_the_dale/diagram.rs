//! Summary line, turn comments and the text diagram.

use std::fmt::Write as _;

use super::board::{short_name, Hex, NAMED_MASK, ROW_LEN};
use super::picture::{army, coloured, hex_list, status, title_line};
use super::state::*;
use crate::game::{DiagramStyle, Marked, Outcome, Side};
use crate::picture::Picture;

/// One line on the position.
pub fn summary(s: &State) -> String {
    match s.result {
        Outcome::Ongoing => {}
        Outcome::Won(w) => return format!("{} won", army(w)),
        _ => return "draw".to_string(),
    }
    let mut out = format!("{} to move ({} players in)", army(s.mover), s.players_in());
    if let Some(r) = s.pending {
        let _ = write!(out, "; pending rally by {}", army(r.side));
    }
    if s.force_mask != 0 && s.in_game(ELF) {
        let _ = write!(
            out,
            "; Elf may force an advance into {}",
            hex_list(s.force_mask)
        );
    }
    if s.t.adv_to != 0 {
        let _ = write!(out, "; advance possible into {}", hex_list(s.t.adv_to));
    }
    out
}

fn unit_text(side: Side, kind: Kind) -> String {
    format!("{} {}", army(side), kind.letter())
}

fn event_text(e: &Event) -> String {
    match *e {
        Event::Place { side, kind, hex } => format!("placed {} on {hex}", unit_text(side, kind)),
        Event::Move {
            side,
            kind,
            from,
            to,
            how,
        } => {
            let what = match how {
                How::Main => "moved",
                How::Berserk => "Berserk: moved",
                How::Charge => "Charge: moved",
                How::Advance => "advanced",
                How::Forced => "forced forward",
            };
            format!("{what} {} {from}-{to}", unit_text(side, kind))
        }
        Event::Capture {
            owner,
            kind,
            hex,
            by,
        } => format!(
            "captured {} on {hex} ({})",
            unit_text(owner, kind),
            army(by)
        ),
        Event::Retreat {
            owner,
            kind,
            from,
            to,
        } => format!("{} retreated {from}-{to}", unit_text(owner, kind)),
        Event::Out { side } => format!("{} is out", army(side)),
        Event::RallyDeclared { side, pile, at } => {
            let mut t = format!("{} rallies", army(side));
            if let Some(p) = pile {
                let _ = write!(t, " from {}'s pile", army(p));
            }
            if let Some(h) = at {
                let _ = write!(t, " to place on {h}");
            }
            t
        }
        Event::RallySettled {
            side,
            heads,
            from_pile,
            placed,
        } => {
            if !heads {
                format!("rally by {}: tails, no effect", army(side))
            } else {
                match (from_pile, placed) {
                    (Some(p), Some(h)) => format!(
                        "rally by {}: heads, {} R from {}'s pile placed on {h}",
                        army(side),
                        army(side),
                        army(p)
                    ),
                    (Some(p), None) => format!(
                        "rally by {}: heads, {} R from {}'s pile back to Reserve",
                        army(side),
                        army(side),
                        army(p)
                    ),
                    _ => format!("rally by {}: heads, nothing to rally", army(side)),
                }
            }
        }
        Event::Withdraw { side, from } => format!("withdrew {} M from {from}", army(side)),
        Event::Exchange { side, with } => {
            format!("{} and {} exchanged prisoners", army(side), army(with))
        }
        Event::Offer { side, to } => {
            format!("{} offers a prisoner exchange to {}", army(side), army(to))
        }
        Event::Resign { side } => format!("{} resigned", army(side)),
    }
}

/// A comment on the turn just played, from the events recorded.
pub fn turn_comment(before: &State, after: &State) -> String {
    let mut parts: Vec<String> = after.log.events().iter().map(event_text).collect();
    if after.log.overflow {
        parts.push("...".to_string());
    }
    if parts.is_empty() {
        parts.push("pass".to_string());
    }
    if !before.over() && after.over() {
        parts.push(match after.result {
            Outcome::Won(w) => format!("{} won", army(w)),
            _ => "draw".to_string(),
        });
    }
    parts.join("; ")
}

const STEP: usize = 8;
const MARGIN: usize = 2;

/// The position as text, the army `marked` marked `>` in the armies'
/// table.
pub fn diagram(s: &State, style: DiagramStyle, marked: Marked) -> String {
    let pic = super::picture::picture(s);
    let mut out = String::new();
    let _ = writeln!(out, "{}", title_line(s));
    for (row, &row_len) in ROW_LEN.iter().enumerate() {
        hex_row(&pic, row, usize::from(row_len), style, &mut out);
    }
    let (l, r) = if style.unicode {
        ("\u{27ea}", "\u{27eb}")
    } else {
        ("{", "}")
    };
    let _ = writeln!(
        out,
        "Legend: Hu Human, El Elf, Dw Dwarf, Go Goblin, Fa Falcon; R Regular,"
    );
    let _ = writeln!(
        out,
        "  M Mounted, H Hero; {l}  {r} named space (3 of 4 win while no Falcon is in)"
    );
    out.push_str(&status(s, marked));
    out
}

/// One row of hexes: the labels' line, then the cells' line, each cell
/// from the picture.
fn hex_row(pic: &Picture, row: usize, len: usize, style: DiagramStyle, out: &mut String) {
    let indent = MARGIN + (5 - len) * STEP / 2;
    // Label line, each label over the inside of its cell.
    let mut line = " ".repeat(indent + 1);
    for num in 1..=len {
        let Some(h) = Hex::at(row, num) else { continue };
        let mut label = h.to_string();
        if let Some(n) = short_name(h) {
            label.push(' ');
            label.push_str(n);
        }
        if num < len {
            line.push_str(&format!("{label:<STEP$}"));
        } else {
            line.push_str(&label);
        }
    }
    out.push_str(line.trim_end());
    out.push('\n');
    // Cell line.
    let mut line = " ".repeat(indent);
    for num in 1..=len {
        let Some(h) = Hex::at(row, num) else { continue };
        let named = NAMED_MASK & h.bit() != 0;
        let (l, r) = match (style.unicode, named) {
            (false, false) => ("[", "]"),
            (false, true) => ("{", "}"),
            (true, false) => ("\u{27e8}", "\u{27e9}"),
            (true, true) => ("\u{27ea}", "\u{27eb}"),
        };
        line.push_str(l);
        match unit_of(pic, h) {
            Some((side, kind)) => {
                let sep = if style.unicode { '\u{b7}' } else { ':' };
                let code = format!("{}{sep}{kind}", CODE[usize::from(side)]);
                line.push_str(&coloured(side, &code));
            }
            None => line.push_str(if style.unicode {
                " \u{b7}\u{b7} "
            } else {
                "    "
            }),
        }
        line.push_str(r);
        if num < len {
            line.push_str("  ");
        }
    }
    out.push_str(&line);
    out.push('\n');
}

/// The unit on hex `h` of the picture: its army and its kind's letter.
fn unit_of(pic: &Picture, h: Hex) -> Option<(Side, char)> {
    let token = pic.cells.get(h.idx())?.tokens.first()?;
    let name = pic.sides.get(token.side?)?.name;
    let side = ARMY.iter().position(|a| *a == name)?;
    Some((Side(side as u8), token.text.chars().last()?))
}
