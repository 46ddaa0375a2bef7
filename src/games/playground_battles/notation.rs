//! Reading and writing moves.
//!
//! ```text
//! move    = square { "-" step } [ ws choice ]   (1 to 6 steps)
//! step    = square | "base"
//! choice  = kind ">" ( square | "out" )         (a rescue: who leaves, where to)
//! kind    = "R" | "P" | "S"
//! square  = a letter a-j and a row 1-8, e.g. d3 (any case)
//! ```
//! White space is allowed around `-` and `>`. A move written by its ends
//! alone (`c1-c5`) takes a path of exactly the roll's length between
//! them when one exists.

use super::action::{Choice, Move, MAX_STEPS};
use super::board::{opponent, Spot, Sq};
use super::rules::find_path;
use super::state::{Kind, State};
use crate::game::ActionParseError;
use crate::games::reader::{keyword, ws, Reader};

/// A column letter `a`-`j` (any case) and the ASCII digits after it, at
/// the start of `rest`, read byte by byte: the letter, the digits and the
/// rest after them.
fn square_token(rest: &str) -> Option<(char, &str, &str)> {
    let col = match rest.as_bytes().first() {
        Some(&c @ (b'a'..=b'j' | b'A'..=b'J')) => char::from(c),
        _ => return None,
    };
    let digits = rest.as_bytes()[1..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    // The letter and the digits are ASCII: both ends are boundaries.
    (digits > 0).then(|| (col, &rest[1..1 + digits], &rest[1 + digits..]))
}

/// What this game's notation reads beside the shared [`Reader`].
trait Read<'t> {
    fn square<'a>(&self, rest: &'a str, expected: &str) -> Result<(Sq, &'a str), ActionParseError>;
    fn choice(&self, rest: &'t str) -> Result<(Choice, &'t str), ActionParseError>;
}

impl<'t> Read<'t> for Reader<'t> {
    fn square<'a>(&self, rest: &'a str, expected: &str) -> Result<(Sq, &'a str), ActionParseError> {
        let Some((col, digits, after)) = square_token(rest) else {
            return Err(self.err(rest, expected));
        };
        let row = digits.bytes().try_fold(0u32, |n, d| {
            n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
        });
        let row = row.unwrap_or(u32::MAX);
        Sq::from_name(col, row)
            .map(|sq| (sq, after))
            .ok_or_else(|| {
                ActionParseError::new(
                    self.off(rest),
                    1 + digits.len(),
                    format!(
                        "{}{digits} is not a square: rows run from 1 to 8",
                        col.to_ascii_lowercase()
                    ),
                )
            })
    }

    fn choice(&self, rest: &'t str) -> Result<(Choice, &'t str), ActionParseError> {
        let kind = rest.chars().next().and_then(Kind::from_letter);
        let Some(leaves) = kind else {
            return Err(self.err(
                rest,
                "expected a rescue choice such as S>f1: the identity of the piece that leaves \
                 the square (R, P or S), `>`, and its back-row square (or `out`)",
            ));
        };
        let after = ws(&rest[1..]);
        let Some(after) = after.strip_prefix('>') else {
            return Err(self.err(
                after,
                "expected `>` and the back-row square (or `out`) for the piece that leaves",
            ));
        };
        let after = ws(after);
        if let Some(rest) = keyword(after, "out") {
            return Ok((Choice { leaves, to: None }, rest));
        }
        let (to, rest) = self.square(
            after,
            "expected a back-row square such as f1, or `out` when that row is full",
        )?;
        Ok((
            Choice {
                leaves,
                to: Some(to),
            },
            rest,
        ))
    }
}

/// Read one move in the position `state` (whose roll resolves a move
/// written by its ends).
pub fn parse(state: &State, text: &str) -> Result<Move, ActionParseError> {
    match canonical(state, text) {
        Some(mv) => Ok(by_ends(state, mv)),
        None => parse_full(state, text),
    }
}

/// The square written at `at` in its canonical form: a lower-case
/// column letter `a`-`j` and one row digit `1`-`8`.
fn canonical_square(bytes: &[u8], at: usize) -> Option<Sq> {
    match (bytes.get(at), bytes.get(at + 1)) {
        (Some(&col @ b'a'..=b'j'), Some(&row @ b'1'..=b'8')) => {
            Some(Sq::new(col - b'a', row - b'1'))
        }
        _ => None,
    }
}

/// A move in the shape [`write`] gives it, read byte by byte: canonical
/// squares joined by `-` (1 to 6 steps), perhaps ending in `base`, with
/// no white space and no rescue choice. `None` for any other text,
/// which [`parse_full`] reads (and every error with it). Not yet
/// resolved by its ends.
fn canonical(state: &State, text: &str) -> Option<Move> {
    let bytes = text.as_bytes();
    let from = canonical_square(bytes, 0)?;
    let mut steps = Steps::new(from);
    let mut at = 2;
    while at < bytes.len() {
        if bytes[at] != b'-' || steps.len == MAX_STEPS {
            return None;
        }
        if &bytes[at + 1..] == b"base" {
            steps.push(Spot::Base(opponent(state.to_move)));
            break;
        }
        steps.push(Spot::Sq(canonical_square(bytes, at + 1)?));
        at += 3;
    }
    (steps.len > 0).then(|| Move::new(from, steps.all(), None))
}

/// [`parse`] by the full reader: white space, any case, rescue choices,
/// and every error.
fn parse_full(state: &State, text: &str) -> Result<Move, ActionParseError> {
    let r = Reader::new(text);
    let (from, mut rest) = r.square(
        text,
        "expected a move: a path of squares such as c1-c2-c3, ending in `base` to enter the \
         opponent's base",
    )?;
    let mut steps = Steps::new(from);
    let mut choice = None;
    loop {
        let at = ws(rest);
        if at.is_empty() {
            break;
        }
        let Some(after) = at.strip_prefix('-') else {
            if steps.len == 0 || at.len() == rest.len() {
                return Err(r.err(at, "expected `-` and the next square of the path"));
            }
            let (c, after) = r.choice(at)?;
            let tail = ws(after);
            if !tail.is_empty() {
                return Err(r.err(tail, "nothing follows the rescue choice"));
            }
            choice = Some(c);
            break;
        };
        let after = ws(after);
        if steps
            .all()
            .last()
            .is_some_and(|s| matches!(s, Spot::Base(_)))
        {
            return Err(r.err(at, "a move ends in the base: nothing follows `base`"));
        }
        let (spot, next) = match keyword(after, "base") {
            Some(next) => (Spot::Base(opponent(state.to_move)), next),
            None => {
                let (sq, next) =
                    r.square(after, "expected a square such as d3, or `base`, after `-`")?;
                (Spot::Sq(sq), next)
            }
        };
        if steps.len == MAX_STEPS {
            return Err(r.err_between(
                at,
                next,
                "a move has at most 6 steps, the die's highest face",
            ));
        }
        steps.push(spot);
        rest = next;
    }
    if steps.len == 0 {
        return Err(r.err("", "expected `-` and the next square of the path"));
    }
    Ok(by_ends(state, Move::new(from, steps.all(), choice)))
}

/// The steps of a path read so far (at most [`MAX_STEPS`]), kept without
/// allocating.
struct Steps {
    spots: [Spot; MAX_STEPS],
    len: usize,
}

impl Steps {
    /// No steps yet (`from` only fills the unused places).
    fn new(from: Sq) -> Steps {
        Steps {
            spots: [Spot::Sq(from); MAX_STEPS],
            len: 0,
        }
    }

    /// The steps read.
    fn all(&self) -> &[Spot] {
        &self.spots[..self.len]
    }

    /// Add a step; there is room for it (the caller checked the length).
    fn push(&mut self, spot: Spot) {
        if let Some(place) = self.spots.get_mut(self.len) {
            *place = spot;
            self.len += 1;
        }
    }
}

/// A move written by its ends (two squares not a path of the roll's
/// length) takes a path of exactly the roll's length between them.
fn by_ends(state: &State, mv: Move) -> Move {
    let Some(roll) = state.roll else { return mv };
    if mv.steps().len() != 1 || roll == 1 {
        return mv;
    }
    match find_path(state, mv.from, mv.to(), roll) {
        Some(found) => Move::new(mv.from, found.steps(), mv.choice),
        None => {
            let mut mv = mv;
            mv.unresolved = true;
            mv
        }
    }
}

/// Append the canonical text of `mv`: the full path, then the choice.
pub fn write(mv: &Move, out: &mut String) {
    out.push_str(&mv.from.to_string());
    for spot in mv.steps() {
        out.push('-');
        out.push_str(&super::rules::spot_text(*spot));
    }
    if let Some(c) = mv.choice {
        out.push(' ');
        write_choice(c, out);
    }
}

/// Append a rescue choice, `S>f1` or `S>out`.
pub fn write_choice(c: Choice, out: &mut String) {
    out.push(c.leaves.letter());
    out.push('>');
    match c.to {
        Some(sq) => out.push_str(&sq.to_string()),
        None => out.push_str("out"),
    }
}

#[cfg(test)]
mod tests {
    use nom::character::complete::{digit1, one_of};
    use nom::{IResult, Parser};
    use proptest::prelude::*;

    use super::*;

    /// A square's letter and digits as nom read them before.
    fn token_by_nom(rest: &str) -> Option<(char, &str, &str)> {
        let token: IResult<&str, (char, &str)> =
            (one_of("abcdefghijABCDEFGHIJ"), digit1).parse(rest);
        token
            .ok()
            .map(|(after, (col, digits))| (col, digits, after))
    }

    /// Pieces of text, right and wrong, to be strung together.
    const TOKENS: &[&str] = &[
        "a",
        "J",
        "d",
        "k",
        "K",
        "é",
        "1",
        "0",
        "8",
        "9",
        "99999999999",
        "4294967296",
        "-",
        " ",
        "base",
        "S>",
        "",
    ];

    /// Pieces of a move's text: canonical squares and steps, and the
    /// near misses the full reader alone takes or refuses.
    const MOVE_TOKENS: &[&str] = &[
        "c1", "d1", "c2", "j8", "a8", "e4", "-", "-", "-", "base", "Base", "C3", " ", "k1", "c9",
        "c0", "c12", "S>f1", " S>out", "--", "é", "",
    ];

    /// A position to read moves in: the start, `to_move` to move with
    /// `roll` rolled.
    fn rolled(to_move: u8, roll: u8) -> State {
        let mut state = State::start();
        state.to_move = crate::game::Side(to_move);
        state.roll = Some(roll);
        state
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 20_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// A move read by the canonical short way is the move the full
        /// reader reads; every other text goes to the full reader.
        #[test]
        fn a_canonical_move_is_read_as_the_full_reader_reads_it(
            parts in prop::collection::vec(prop::sample::select(MOVE_TOKENS), 0..14),
            to_move in 0u8..2,
            roll in 1u8..=6,
        ) {
            let text = parts.concat();
            let state = rolled(to_move, roll);
            let full = parse_full(&state, &text);
            prop_assert_eq!(parse(&state, &text), full.clone());
            if let Some(mv) = canonical(&state, &text) {
                prop_assert_eq!(Ok(by_ends(&state, mv)), full);
            }
        }

        /// Every move as [`write`] writes it takes the short way, and
        /// reads back as the full reader reads it.
        #[test]
        fn a_written_move_takes_the_canonical_short_way(
            from in 0u8..80,
            path in prop::collection::vec(0u8..81, 1..=MAX_STEPS),
            to_move in 0u8..2,
            roll in 1u8..=6,
        ) {
            let state = rolled(to_move, roll);
            let base = Spot::Base(opponent(state.to_move));
            let spots: Vec<Spot> = path
                .iter()
                .map(|&i| if i == 80 { base } else { Spot::Sq(Sq(i)) })
                .collect();
            let mut text = String::new();
            write(&Move::new(Sq(from), &spots, None), &mut text);
            let base_inside = spots[..spots.len() - 1].contains(&base);
            prop_assert_eq!(canonical(&state, &text).is_some(), !base_inside, "{}", text);
            prop_assert_eq!(parse(&state, &text), parse_full(&state, &text));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 20_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// The square's letter and digits are read as nom read them, and
        /// so is the square: the same square, rest or error.
        #[test]
        fn a_square_is_read_as_nom_read_it(
            parts in prop::collection::vec(prop::sample::select(TOKENS), 0..6)
        ) {
            let text = parts.concat();
            prop_assert_eq!(square_token(&text), token_by_nom(&text));
            let by_parse = token_by_nom(&text).map(|(col, digits, after)| {
                let row: u32 = digits.parse().unwrap_or(u32::MAX);
                (Sq::from_name(col, row), after)
            });
            let r = Reader::new(&text);
            let read = r.square(&text, "expected").map(|(sq, after)| (Some(sq), after));
            match (by_parse, read) {
                (Some((Some(sq), after)), Ok(found)) => prop_assert_eq!((Some(sq), after), found),
                (Some((None, _)), Err(e)) => prop_assert!(e.reason.contains("is not a square")),
                (None, Err(e)) => prop_assert_eq!(e.reason, "expected"),
                (old, new) => prop_assert!(false, "{:?} against {:?}", old, new),
            }
        }
    }
}
