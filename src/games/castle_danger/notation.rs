//! Reading and writing actions.
//!
//! Canonical forms (spec section 6): `+W` `+B` `+C`, `Kc1-c2` (ends) or
//! `Kc1-b1-b2` (full path, kept as given), `Bc2+c3`, `Bc2xc3`, `Cd3*d7`.
//! Input is case-insensitive, the piece letter in front of the origin is
//! optional, and whitespace may stand between any two parts.

use std::fmt::Write;

use nom::character::complete::anychar;
use nom::combinator::map_opt;
use nom::{IResult, Parser};

use crate::game::ActionParseError;
use crate::games::reader::{word_len_until, ws, Reader};

use super::action::{Action, Route, MAX_PATH_STEPS};
use super::board::{portal, Sq, COLS};
use super::state::{Kind, State};

type Res<'a, T> = IResult<&'a str, T>;

const EXPECTED_ACTION: &str = "expected an action such as Kc1-c2, Bc2+c3, Bc2xc3, Cd3*d7 or +W";

/// A column letter `a`-`g` (either case) and a row digit `1`-`9`, read
/// as two bytes (the board's squares are all ASCII).
fn square(i: &str) -> Res<'_, Sq> {
    match i.as_bytes() {
        [c @ (b'a'..=b'g' | b'A'..=b'G'), r @ b'1'..=b'9', ..] => {
            Ok((&i[2..], Sq::new(c.to_ascii_lowercase() - b'a', r - b'1')))
        }
        _ => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::OneOf,
        ))),
    }
}

fn piece_letter(i: &str) -> Res<'_, Kind> {
    map_opt(anychar, Kind::from_letter).parse(i)
}

/// Byte length of the word an error underlines at the start of `rest`:
/// here a word is a run of ASCII letters and digits (a piece letter and a
/// square run together, `Kc1`), not the shared
/// [`crate::games::reader::word_len`], which runs on through any letter and
/// stops at punctuation only: that is how this game has always underlined,
/// and its errors stay as they are.
fn word_len(rest: &str) -> usize {
    word_len_until(rest, |c| !c.is_ascii_alphanumeric())
}

/// What this game's notation reads beside the shared [`Reader`].
trait Read {
    fn square<'a>(&self, rest: &'a str, after: char) -> Result<(&'a str, Sq), ActionParseError>;
}

impl Read for Reader<'_> {
    /// A square at `rest`, which comes after `after`.
    fn square<'a>(&self, rest: &'a str, after: char) -> Result<(&'a str, Sq), ActionParseError> {
        match square(rest) {
            Ok((r, sq)) if !r.starts_with(|c: char| c.is_ascii_digit()) => Ok((r, sq)),
            _ => Err(self.err(rest, bad_square(rest, after))),
        }
    }
}

/// Why `rest` does not start with a square.
fn bad_square(rest: &str, after: char) -> String {
    no_such_square(rest).unwrap_or_else(|| format!("expected a square such as c3 after `{after}`"))
}

/// When `rest` starts with a word shaped like a square that is not on the
/// board (`h3`, `c10`), says so.
fn no_such_square(rest: &str) -> Option<String> {
    let word: String = rest
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    let mut chars = word.chars();
    let (c, d) = (chars.next()?, chars.next()?);
    if !(c.is_ascii_alphabetic() && d.is_ascii_digit() && chars.all(|x| x.is_ascii_digit())) {
        return None;
    }
    let col = c.to_ascii_lowercase();
    Some(if (b'a'..b'a' + COLS).contains(&(col as u8)) {
        format!(
            "there is no square {}: rows go from 1 to 9",
            word.to_ascii_lowercase()
        )
    } else {
        format!("there is no column {col}: columns go from a to g")
    })
}

/// Why `rest` does not start with an origin such as `Kc1` or `c1`.
fn bad_origin(t: &Reader<'_>, rest: &str) -> ActionParseError {
    if let Some(reason) = no_such_square(rest) {
        return t.err(rest, reason);
    }
    match piece_letter(rest) {
        Ok((r, k)) => {
            let r = ws(r);
            t.err(r, bad_square(r, k.letter()))
        }
        Err(_) => t.err(rest, EXPECTED_ACTION),
    }
}

/// Builds the [`Route`] of a written path square by square.
struct RouteBuilder {
    last: Sq,
    seen: u64,
    dirs: u64,
    len: u8,
    fault: Option<Route>,
}

impl RouteBuilder {
    fn new(from: Sq) -> RouteBuilder {
        RouteBuilder {
            last: from,
            seen: 1 << from.0,
            dirs: 0,
            len: 0,
            fault: None,
        }
    }

    fn push(&mut self, sq: Sq) {
        if self.fault.is_none() {
            if self.seen & (1 << sq.0) != 0 {
                self.fault = Some(Route::Revisit(sq));
            } else if let Some(dir) = self.last.dir_to(sq) {
                if self.len == MAX_PATH_STEPS {
                    self.fault = Some(Route::TooLong);
                } else {
                    self.dirs |= (dir as u64) << (2 * u32::from(self.len));
                    self.len += 1;
                    self.seen |= 1 << sq.0;
                }
            } else {
                self.fault = Some(Route::Gap {
                    from: self.last,
                    to: sq,
                });
            }
        }
        self.last = sq;
    }

    /// The route of a path of `squares` squares in all.
    fn finish(self, squares: usize) -> Route {
        if squares <= 2 {
            Route::Ends
        } else if let Some(f) = self.fault {
            f
        } else {
            Route::Path {
                dirs: self.dirs,
                len: self.len,
            }
        }
    }
}

/// Read one action. The state is consulted only to fill in an omitted
/// piece letter and to recognise the mover's own Portal after `+W`.
///
/// An action written in a canonical form without white space (what
/// records hold) is read byte by byte by [`quick`]; anything else, and
/// every error, by [`read`], which reads every form and says what is
/// wrong. The two agree wherever [`quick`] reads an action.
pub fn parse(state: &State, text: &str) -> Result<Action, ActionParseError> {
    match quick(state, text.as_bytes()) {
        Some(action) => Ok(action),
        None => read(state, text),
    }
}

/// The piece type of a letter byte (either case).
fn kind_of(b: u8) -> Option<Kind> {
    match b {
        b'K' | b'k' => Some(Kind::King),
        b'W' | b'w' => Some(Kind::Wizard),
        b'B' | b'b' => Some(Kind::Builder),
        b'C' | b'c' => Some(Kind::Cannon),
        _ => None,
    }
}

/// A square (two bytes, as [`square`] reads one) at the start of `text`,
/// with the bytes after it, when no digit follows it.
fn square_at(text: &[u8]) -> Option<(Sq, &[u8])> {
    match text {
        [c @ (b'a'..=b'g' | b'A'..=b'G'), r @ b'1'..=b'9', rest @ ..]
            if !rest.first().is_some_and(u8::is_ascii_digit) =>
        {
            Some((Sq::new(c.to_ascii_lowercase() - b'a', r - b'1'), rest))
        }
        _ => None,
    }
}

/// The action `text` holds when it is written with no white space in one
/// of the forms `+W`, `+Wd1`, `Kc1-c2`, `c1-b1-b2`, `Bc2+c3`, `Bc2xc3`,
/// `Cd3*d7` (any case), read as [`read`] reads it; `None` for any other
/// text, which [`read`] then reads.
fn quick(state: &State, text: &[u8]) -> Option<Action> {
    if let [b'+', letter, rest @ ..] = text {
        let kind = kind_of(*letter)?;
        let at = match rest {
            [] => None,
            _ => match square_at(rest)? {
                (sq, []) => Some(sq),
                _ => return None,
            },
        };
        let at = at.filter(|&sq| sq != portal(state.to_move()));
        return Some(Action::Add { kind, at });
    }
    let with_letter = text
        .split_first()
        .and_then(|(&l, rest)| Some((kind_of(l)?, square_at(rest)?)));
    let (letter, (from, rest)) = match with_letter {
        Some((k, found)) => (Some(k), found),
        None => (None, square_at(text)?),
    };
    let piece = letter.or_else(|| state.own_piece(from).map(|p| p.kind));
    let (&op, rest) = rest.split_first()?;
    let (to, mut rest) = square_at(rest)?;
    let action = match op {
        b'+' => Action::Build { piece, from, to },
        b'x' | b'X' => Action::Remove { piece, from, to },
        b'*' => Action::Fire { piece, from, to },
        b'-' => {
            let mut route = RouteBuilder::new(from);
            route.push(to);
            let (mut last, mut squares) = (to, 2);
            while let [b'-', after @ ..] = rest {
                let (sq, r) = square_at(after)?;
                route.push(sq);
                (last, squares, rest) = (sq, squares + 1, r);
            }
            Action::Move {
                piece,
                from,
                to: last,
                route: route.finish(squares),
            }
        }
        _ => return None,
    };
    rest.is_empty().then_some(action)
}

/// Read one action in any form [`parse`] takes, saying what is wrong with
/// one it cannot read.
fn read(state: &State, text: &str) -> Result<Action, ActionParseError> {
    let t = Reader::with_words(text, word_len);
    let rest = ws(text);
    if rest.is_empty() {
        return Err(ActionParseError::new(0, text.len(), EXPECTED_ACTION));
    }
    if let Some(r) = rest.strip_prefix('+') {
        return parse_add(&t, state, r);
    }
    let (r, letter, from) = origin(&t, rest)?;
    let piece = letter.or_else(|| state.own_piece(from).map(|p| p.kind));
    let r = ws(r);
    let (r, op) = match r.as_bytes().first() {
        Some(&op @ (b'-' | b'+' | b'x' | b'X' | b'*')) => (&r[1..], char::from(op)),
        _ => {
            return Err(t.err(
                r,
                format!(
                    "expected `-` (move), `+` (build), `x` (remove) or `*` (fire) after {from}"
                ),
            ))
        }
    };
    let (r, to) = t.square(ws(r), op)?;
    let (r, action) = match op {
        '+' => (r, Action::Build { piece, from, to }),
        'x' | 'X' => (r, Action::Remove { piece, from, to }),
        '*' => (r, Action::Fire { piece, from, to }),
        _ => {
            let (r, to, route) = path(&t, r, from, to)?;
            (
                r,
                Action::Move {
                    piece,
                    from,
                    to,
                    route,
                },
            )
        }
    };
    end(&t, r)?;
    Ok(action)
}

/// An addition after its `+`: the piece letter and the Portal, if written
/// (the mover's own Portal is not kept: it is where a piece is added).
fn parse_add(t: &Reader<'_>, state: &State, rest: &str) -> Result<Action, ActionParseError> {
    let r = ws(rest);
    let (r, kind) = piece_letter(r).map_err(|_| t.err(r, "expected W, B or C after `+`"))?;
    let r = ws(r);
    let (r, at) = if r.is_empty() {
        (r, None)
    } else {
        let (r, sq) = t.square(r, kind.letter())?;
        (r, Some(sq))
    };
    end(t, r)?;
    let at = at.filter(|&sq| sq != portal(state.to_move()));
    Ok(Action::Add { kind, at })
}

/// The origin: a piece letter and a square, or the square alone.
fn origin<'a>(
    t: &Reader<'_>,
    rest: &'a str,
) -> Result<(&'a str, Option<Kind>, Sq), ActionParseError> {
    let with_letter = piece_letter(rest).and_then(|(r, k)| Ok((square(ws(r))?, k)));
    match with_letter {
        Ok(((r, sq), k)) if !r.starts_with(|c: char| c.is_ascii_digit()) => Ok((r, Some(k), sq)),
        _ => match square(rest) {
            Ok((r, sq)) if !r.starts_with(|c: char| c.is_ascii_digit()) => Ok((r, None, sq)),
            _ => Err(bad_origin(t, rest)),
        },
    }
}

/// The rest of a move's path after its first step to `to`: more squares
/// after `-`, if any. Returns the rest of the text, the last square and
/// the route.
fn path<'a>(
    t: &Reader<'_>,
    rest: &'a str,
    from: Sq,
    to: Sq,
) -> Result<(&'a str, Sq, Route), ActionParseError> {
    let mut route = RouteBuilder::new(from);
    route.push(to);
    let mut last = to;
    let mut squares = 2usize;
    let mut r = rest;
    while let Some(r2) = ws(r).strip_prefix('-') {
        let (r3, sq) = t.square(ws(r2), '-')?;
        route.push(sq);
        last = sq;
        squares += 1;
        r = r3;
    }
    Ok((r, last, route.finish(squares)))
}

/// Nothing but whitespace may follow a complete action.
fn end(t: &Reader<'_>, rest: &str) -> Result<(), ActionParseError> {
    let r = ws(rest);
    if r.is_empty() {
        Ok(())
    } else {
        let shown: String = r.chars().take(12).collect();
        Err(t.err(r, format!("unexpected `{shown}` after the action")))
    }
}

/// Append the canonical text of `action`.
pub fn write(action: &Action, out: &mut String) {
    let letter = |out: &mut String, piece: Option<Kind>| {
        if let Some(k) = piece {
            out.push(k.letter());
        }
    };
    // Writing into a String cannot fail.
    let _ = match *action {
        Action::Add { kind, at } => {
            out.push('+');
            out.push(kind.letter());
            match at {
                Some(sq) => write!(out, "{sq}"),
                None => Ok(()),
            }
        }
        Action::Move {
            piece,
            from,
            to,
            route,
        } => {
            letter(out, piece);
            let _ = write!(out, "{from}");
            if let Route::Path { .. } = route {
                let mut sq = from;
                for d in route.steps() {
                    sq = sq.step(d).unwrap_or(sq);
                    let _ = write!(out, "-{sq}");
                }
                Ok(())
            } else {
                write!(out, "-{to}")
            }
        }
        Action::Build { piece, from, to } => {
            letter(out, piece);
            write!(out, "{from}+{to}")
        }
        Action::Remove { piece, from, to } => {
            letter(out, piece);
            write!(out, "{from}x{to}")
        }
        Action::Fire { piece, from, to } => {
            letter(out, piece);
            write!(out, "{from}*{to}")
        }
    };
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::state::Kind;
    use super::*;
    use crate::game::{Game, Undrawn};
    use crate::games::castle_danger::CastleDanger;

    /// Pieces that fill in omitted letters: Blue's Builder on c2 and
    /// Cannon on d3, beside the Kings and Wizards of the start.
    fn board() -> State {
        let mut s = State::start();
        s.put(Sq::new(2, 1), crate::games::two_sides::BLUE, Kind::Builder);
        s.put(Sq::new(3, 2), crate::games::two_sides::BLUE, Kind::Cannon);
        CastleDanger::begin_turn(&mut s, &mut Undrawn).unwrap();
        s
    }

    /// Pieces of action text, right and wrong, to be strung together.
    const TOKENS: &[&str] = &[
        "K", "k", "W", "B", "b", "C", "c", "Q", "c1", "C2", "b1", "b2", "d1", "d3", "d7", "d9",
        "g9", "a5", "h3", "c10", "c0", "1", "-", "+", "x", "X", "*", "?", " ", "\t", "é", "",
    ];

    /// Any string of tokens, or one shaped like an action with each of
    /// its parts right or a little wrong.
    fn text() -> impl Strategy<Value = String> {
        let pick = |t: &'static [&'static str]| prop::sample::select(t);
        let shaped = (
            pick(&["", "", "K", "k", "B", "c", "W", "Q", "+", " "]),
            pick(&["c1", "C2", "d3", "b1", "b2", "d1", "h3", "c10", "c0", ""]),
            pick(&["-", "-", "-", "+", "x", "X", "*", "?", " -", ""]),
            pick(&["c2", "b1", "d7", "c3", "D1", "h3", "c10", "c1", "", " b1"]),
            prop::collection::vec(
                pick(&[
                    "-b1", "-b2", "-a1", "-c1", "-c2", "- b1", "-", "-h1", "-c10", " ",
                ]),
                0..5,
            ),
        )
            .prop_map(|(l, from, op, to, path)| format!("{l}{from}{op}{to}{}", path.concat()));
        prop_oneof![
            prop::collection::vec(pick(TOKENS), 0..9).prop_map(|t| t.concat()),
            shaped,
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 20_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// Whatever the byte-by-byte reader reads, the full reader reads
        /// alike.
        #[test]
        fn the_quick_reader_agrees_with_the_full_one(text in text()) {
            let s = board();
            if let Some(action) = quick(&s, text.as_bytes()) {
                prop_assert_eq!(read(&s, &text), Ok(action));
            }
        }
    }

    /// The quick reader takes every canonical form, and what it reads is
    /// what the full reader reads.
    #[test]
    fn the_quick_reader_reads_the_canonical_forms() {
        let s = board();
        for text in [
            "+W",
            "+b",
            "+Cd1",
            "+Cd9",
            "Kc1-c2",
            "c1-b1-b2",
            "Bc2+c3",
            "bC2Xc3",
            "Cd3*d7",
            "d3*d7",
            "Kc1-b1-a1-a2",
        ] {
            let action = quick(&s, text.as_bytes());
            assert!(action.is_some(), "{text}");
            assert_eq!(action.map(Ok), Some(read(&s, text)), "{text}");
        }
        for text in ["", "+", "Kc1 -c2", "Kc1-c2 ", "c1-c2-", "Kc1-c22", "+Wd1x"] {
            assert_eq!(quick(&s, text.as_bytes()), None, "{text}");
        }
    }
}
