//! Reading (nom) and writing actions.
//!
//! Canonical forms: `R@B1`, `B1-B2`, `rally`, `rally Elf`, `rally @C2`,
//! `rally Elf @C2`, `withdraw`, `exchange Elf`, `offer-exchange Elf`,
//! `force D3-C2`. Input is case-insensitive, whitespace may surround `@`
//! and `-`, and the named spaces Chip, Fog, Post and Tree stand for C3, B2,
//! C4 and D2.

use nom::bytes::complete::{tag, take_while, take_while1};
use nom::{IResult, Parser};

use super::action::Action;
use super::board::{Hex, NAMED, ROW_LEN, ROW_LETTER};
use super::state::{Kind, ARMY};
use crate::game::{ActionParseError, Side};
use crate::games::reader::{ws, Reader};

type Res<'a, T> = IResult<&'a str, T>;

const HEX_HINT: &str = "a hex such as C3 or a named space (Chip, Fog, Post, Tree)";
const ARMY_HINT: &str = "an army: Human, Elf, Dwarf, Goblin or Falcon";

fn word(i: &str) -> Res<'_, &str> {
    take_while1(|c: char| c.is_ascii_alphanumeric() || c == '-').parse(i)
}

fn alnum(i: &str) -> Res<'_, &str> {
    take_while(|c: char| c.is_ascii_alphanumeric()).parse(i)
}

fn alpha(i: &str) -> Res<'_, &str> {
    take_while(|c: char| c.is_ascii_alphabetic()).parse(i)
}

fn sym<'a>(c: &'static str, i: &'a str) -> Option<&'a str> {
    let r: Res<&str> = tag(c).parse(i);
    r.ok().map(|(rest, _)| rest)
}

/// What this game's notation reads beside the shared [`Reader`] (its
/// errors cover a token's length, as [`Reader::err_over`] places them).
trait Read {
    fn hex<'a>(&self, i: &'a str, after: &str) -> Result<(&'a str, Hex), ActionParseError>;
    fn army<'a>(&self, i: &'a str, after: &str) -> Result<(&'a str, Side), ActionParseError>;
    fn end(&self, i: &str) -> Result<(), ActionParseError>;
}

impl Read for Reader<'_> {
    fn hex<'a>(&self, i: &'a str, after: &str) -> Result<(&'a str, Hex), ActionParseError> {
        let i = ws(i);
        let (rest, tok) = alnum(i).unwrap_or((i, ""));
        if tok.is_empty() {
            return Err(self.err_over(i, 0, format!("expected {HEX_HINT} {after}")));
        }
        match hex_of(tok) {
            Ok(h) => Ok((rest, h)),
            Err(Some(reason)) => Err(self.err_over(i, tok.len(), reason)),
            Err(None) => Err(self.err_over(i, tok.len(), format!("expected {HEX_HINT} {after}"))),
        }
    }

    fn army<'a>(&self, i: &'a str, after: &str) -> Result<(&'a str, Side), ActionParseError> {
        let i = ws(i);
        let (rest, tok) = alpha(i).unwrap_or((i, ""));
        match army_of(tok) {
            Some(a) => Ok((rest, a)),
            None => {
                let len = alnum(i).map_or(0, |(_, t)| t.len());
                Err(self.err_over(i, len, format!("expected {ARMY_HINT} {after}")))
            }
        }
    }

    /// Nothing but white space may follow a complete action.
    fn end(&self, i: &str) -> Result<(), ActionParseError> {
        let i = ws(i);
        if i.is_empty() {
            Ok(())
        } else {
            let len = word(i).map_or(0, |(_, t)| t.len());
            Err(self.err_over(i, len, "unexpected text after the action"))
        }
    }
}

/// The hex a token names: `Err(Some(reason))` for a row/number that is off
/// the map, `Err(None)` for anything else.
pub fn hex_of(tok: &str) -> Result<Hex, Option<String>> {
    for (h, short, _) in NAMED {
        if tok.eq_ignore_ascii_case(short) {
            return Ok(h);
        }
    }
    let b = tok.as_bytes();
    if b.len() == 2 && b[0].is_ascii_alphabetic() && b[1].is_ascii_digit() {
        let row = b[0].to_ascii_uppercase();
        if (b'A'..=b'E').contains(&row) {
            let r = usize::from(row - b'A');
            let num = usize::from(b[1] - b'0');
            return Hex::at(r, num).ok_or_else(|| {
                Some(format!(
                    "{}{} is not on the map: row {} has hexes {}1 to {}{}",
                    ROW_LETTER[r], num, ROW_LETTER[r], ROW_LETTER[r], ROW_LETTER[r], ROW_LEN[r]
                ))
            });
        }
    }
    Err(None)
}

/// The army a word names, case-insensitively.
pub fn army_of(tok: &str) -> Option<Side> {
    ARMY.iter()
        .position(|a| a.eq_ignore_ascii_case(tok))
        .map(|i| Side(i as u8))
}

fn kind_of(c: u8) -> Option<Kind> {
    match c.to_ascii_uppercase() {
        b'R' => Some(Kind::R),
        b'M' => Some(Kind::M),
        b'H' => Some(Kind::H),
        _ => None,
    }
}

/// The words that begin an action, or stand alone on a line.
const KEYWORDS: [&str; 7] = [
    "rally",
    "withdraw",
    "exchange",
    "offer-exchange",
    "force",
    "pass",
    "resign",
];

/// Read one action.
pub fn parse(text: &str) -> Result<Action, ActionParseError> {
    if let Some(action) = quick(text.as_bytes()) {
        return Ok(action);
    }
    read(text)
}

/// A placement or a move as [`write`] writes them (`R@B1`, `B1-B2`),
/// read byte by byte; `None` for any other text, which [`read`] reads
/// (and every error is its to report).
fn quick(text: &[u8]) -> Option<Action> {
    match *text {
        [unit @ (b'R' | b'M' | b'H'), b'@', row, num] => Some(Action::Place {
            kind: kind_of(unit)?,
            hex: quick_hex(row, num)?,
        }),
        [row, num, b'-', to_row, to_num] => Some(Action::Move {
            from: quick_hex(row, num)?,
            to: quick_hex(to_row, to_num)?,
        }),
        _ => None,
    }
}

/// The hex a row letter (upper case) and a number name, if it is on the
/// map.
fn quick_hex(row: u8, num: u8) -> Option<Hex> {
    if !(b'A'..=b'E').contains(&row) || !num.is_ascii_digit() {
        return None;
    }
    Hex::at(usize::from(row - b'A'), usize::from(num - b'0'))
}

/// Read one action, in any of the forms the notation allows.
fn read(text: &str) -> Result<Action, ActionParseError> {
    let cx = Reader::new(text);
    let i = ws(text);
    if i.is_empty() {
        return Err(ActionParseError::new(
            0,
            text.len().min(1),
            "expected an action such as R@B1, B1-B2 or rally",
        ));
    }
    let (after_word, w) = word(i).unwrap_or((i, ""));
    if let Some(action) = keyword_action(&cx, i, w, after_word) {
        return action;
    }
    if let Some(action) = placement(&cx, i)? {
        return Ok(action);
    }
    movement(&cx, i, w)
}

/// The action a keyword `w` (at `i`, followed by `after`) begins, if `w`
/// is one.
fn keyword_action(
    cx: &Reader<'_>,
    i: &str,
    w: &str,
    after: &str,
) -> Option<Result<Action, ActionParseError>> {
    let kw = KEYWORDS
        .iter()
        .copied()
        .find(|k| k.eq_ignore_ascii_case(w))?;
    Some(match kw {
        "rally" => rally(cx, after),
        "withdraw" => cx.end(after).map(|()| Action::Withdraw),
        "exchange" => cx.army(after, "after `exchange`").and_then(|(r, a)| {
            cx.end(r)?;
            Ok(Action::Exchange(a))
        }),
        "offer-exchange" => cx.army(after, "after `offer-exchange`").and_then(|(r, a)| {
            cx.end(r)?;
            Ok(Action::OfferExchange(a))
        }),
        "force" => force(cx, after),
        "pass" | "resign" => {
            Err(cx.err_over(i, w.len(), format!("`{kw}` stands alone on its line")))
        }
        _ => return None,
    })
}

/// A rally after its keyword: the Captured pile named, if any, and the
/// Goblin Horde's placement after `@`, if any.
fn rally(cx: &Reader<'_>, after: &str) -> Result<Action, ActionParseError> {
    let mut r = ws(after);
    let mut pile = None;
    let mut at = None;
    if !r.is_empty() && !r.starts_with('@') {
        let (r2, a) = cx.army(r, "or @ and a hex after `rally`")?;
        pile = Some(a);
        r = ws(r2);
    }
    if let Some(r2) = sym("@", r) {
        let (r3, h) = cx.hex(r2, "after `@`")?;
        at = Some(h);
        r = r3;
    }
    cx.end(r)?;
    Ok(Action::Rally { pile, at })
}

/// A forced advance after its keyword: two hexes joined by `-`.
fn force(cx: &Reader<'_>, after: &str) -> Result<Action, ActionParseError> {
    let (r, from) = cx.hex(after, "after `force`")?;
    let r = ws(r);
    let Some(r) = sym("-", r) else {
        return Err(cx.err_over(
            r,
            0,
            format!("expected `-` and the hex to enter after `force {from}`"),
        ));
    };
    let (r, to) = cx.hex(r, "after `-`")?;
    cx.end(r)?;
    Ok(Action::Force { from, to })
}

/// A placement (a unit letter, `@` and a hex) at `i`, if one is written
/// there; an `@` without a unit letter before it is refused.
fn placement(cx: &Reader<'_>, i: &str) -> Result<Option<Action>, ActionParseError> {
    if let Some(k) = kind_of(i.as_bytes()[0]) {
        let r = ws(&i[1..]);
        if let Some(r) = sym("@", r) {
            let (r, hex) = cx.hex(r, "after `@`")?;
            cx.end(r)?;
            return Ok(Some(Action::Place { kind: k, hex }));
        }
    }
    if sym("@", i).is_some() {
        return Err(cx.err_over(i, 1, "expected a unit letter R, M or H before `@`"));
    }
    Ok(None)
}

/// A move at `i` (whose first word is `w`): a hex, `-`, a hex.
fn movement(cx: &Reader<'_>, i: &str, w: &str) -> Result<Action, ActionParseError> {
    let (r, tok) = alnum(i).unwrap_or((i, ""));
    let ws_r = ws(r);
    if ws_r.starts_with('@') && !tok.is_empty() {
        return Err(cx.err_over(i, tok.len(), "expected a unit letter R, M or H before `@`"));
    }
    let from = match hex_of(tok) {
        Ok(h) => h,
        Err(Some(reason)) => return Err(cx.err_over(i, tok.len(), reason)),
        Err(None) => {
            return Err(cx.err_over(
                i,
                w.len().max(tok.len()),
                "expected an action: a placement such as R@B1, a move such as B1-B2, \
                 rally, withdraw, exchange, offer-exchange or force",
            ))
        }
    };
    let Some(r) = sym("-", ws_r) else {
        if ws_r.is_empty() {
            return Err(cx.err_over(
                i,
                tok.len(),
                format!("a hex alone is not an action: write a move such as {from}-C3"),
            ));
        }
        return Err(cx.err_over(ws_r, 0, format!("expected `-` and a hex after {from}")));
    };
    let (r, to) = cx.hex(r, "after `-`")?;
    cx.end(r)?;
    Ok(Action::Move { from, to })
}

/// Write the canonical form of an action.
pub fn write(a: &Action, out: &mut String) {
    match *a {
        Action::Place { kind, hex } => {
            out.push(kind.letter());
            out.push('@');
            hex.write(out);
        }
        Action::Move { from, to } => {
            from.write(out);
            out.push('-');
            to.write(out);
        }
        Action::Rally { pile, at } => {
            out.push_str("rally");
            if let Some(p) = pile {
                out.push(' ');
                out.push_str(ARMY[usize::from(p)]);
            }
            if let Some(h) = at {
                out.push_str(" @");
                h.write(out);
            }
        }
        Action::Withdraw => out.push_str("withdraw"),
        Action::Exchange(s) => {
            out.push_str("exchange ");
            out.push_str(ARMY[usize::from(s)]);
        }
        Action::OfferExchange(s) => {
            out.push_str("offer-exchange ");
            out.push_str(ARMY[usize::from(s)]);
        }
        Action::Force { from, to } => {
            out.push_str("force ");
            from.write(out);
            out.push('-');
            to.write(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Pieces of actions, right and a little wrong.
    const TOKENS: &[&str] = &[
        "R", "M", "H", "r", "X", "@", "-", " ", "A1", "B4", "C5", "E3", "E4", "A0", "F1", "c3",
        "D", "1", "9", "Chip", "é", "",
    ];

    /// Any string of tokens, or one shaped like a placement or a move.
    fn text() -> impl Strategy<Value = String> {
        let pick = |t: &'static [&'static str]| prop::sample::select(t);
        let hex = || {
            pick(&[
                "A1", "A3", "B4", "C5", "D4", "E3", "E4", "A0", "F1", "b2", "Fog",
            ])
        };
        prop_oneof![
            prop::collection::vec(pick(TOKENS), 0..7).prop_map(|t| t.concat()),
            (
                pick(&["R", "M", "H", "h", "X", ""]),
                pick(&["@", " @", "-"]),
                hex()
            )
                .prop_map(|(k, at, h)| format!("{k}{at}{h}")),
            (hex(), pick(&["-", " -", "@", "--"]), hex())
                .prop_map(|(a, d, b)| format!("{a}{d}{b}")),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 5_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// Whatever the byte-by-byte reader reads, the full reader reads
        /// alike.
        #[test]
        fn the_quick_reader_agrees_with_the_full_one(text in text()) {
            if let Some(action) = quick(text.as_bytes()) {
                prop_assert_eq!(read(&text), Ok(action));
            }
        }
    }

    /// The quick reader reads every placement and move on the map as
    /// written, as the full reader does, and leaves other texts to it.
    #[test]
    fn the_quick_reader_reads_the_written_placements_and_moves() {
        let mut read_quickly = 0;
        for from in 0..19 {
            for to in 0..19 {
                let mv = Action::Move {
                    from: Hex(from),
                    to: Hex(to),
                };
                let mut text = String::new();
                write(&mv, &mut text);
                assert_eq!(quick(text.as_bytes()), Some(mv), "{text}");
                assert_eq!(read(&text), Ok(mv), "{text}");
                read_quickly += 1;
            }
            for kind in Kind::ALL {
                let place = Action::Place {
                    kind,
                    hex: Hex(from),
                };
                let mut text = String::new();
                write(&place, &mut text);
                assert_eq!(quick(text.as_bytes()), Some(place), "{text}");
                assert_eq!(read(&text), Ok(place), "{text}");
                read_quickly += 1;
            }
        }
        assert_eq!(read_quickly, 19 * 19 + 19 * 3);
        for text in [
            "r@B1", "R@A4", "R @B1", "b1-B2", "B1-E4", "B1 -B2", "rally", "B1-B2 ",
        ] {
            assert_eq!(quick(text.as_bytes()), None, "{text}");
        }
    }
}
