//! Summary line, turn comments and the text diagram.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};

use super::board::{hexes, short_name, Hex, NAMED_MASK, ROW_LEN};
use super::state::*;
use crate::game::{wrap_words, DiagramStyle, Outcome, Side, TEXT_WIDTH};
use crate::picture::Picture;

fn army(s: Side) -> &'static str {
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

fn coloured(side: Side, text: &str) -> String {
    let st = colour(side);
    format!("{}{}{}", st.render(), text, st.render_reset())
}

fn hex_list(mask: u32) -> String {
    let v: Vec<String> = hexes(mask).map(|h| h.to_string()).collect();
    v.join(", ")
}

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

/// The position as text.
pub fn diagram(s: &State, style: DiagramStyle) -> String {
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
    out.push_str(&status(s));
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

/// Everything under the legend: the armies' table, the optional rules,
/// offers, a pending rally, an Elf's forced advance, an advance after
/// capture (with colour; the picture's caption is this without it).
pub(super) fn status(s: &State) -> String {
    let mut out = String::new();
    armies(s, &mut out);
    notes(s, &mut out);
    out
}

/// The armies' table: map, Reserve and Captured pile of each, the army
/// to move marked `>`.
fn armies(s: &State, out: &mut String) {
    let _ = writeln!(out, "  Army     Map  Reserve   Captured pile");
    for &side in s.sides() {
        let mark = if !s.over() && side == s.mover {
            ">"
        } else {
            " "
        };
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
