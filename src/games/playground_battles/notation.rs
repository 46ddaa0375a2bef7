//! Reading (nom 8) and writing moves.
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

use nom::character::complete::{digit1, one_of};
use nom::{IResult, Parser};

use super::action::{Choice, Move, MAX_STEPS};
use super::board::{opponent, Spot, Sq};
use super::rules::find_path;
use super::state::{Kind, State};
use crate::game::ActionParseError;
use crate::games::reader::{keyword, ws, Reader};

type Res<'a, T> = IResult<&'a str, T>;

/// What this game's notation reads beside the shared [`Reader`].
trait Read<'t> {
    fn square<'a>(&self, rest: &'a str, expected: &str) -> Result<(Sq, &'a str), ActionParseError>;
    fn choice(&self, rest: &'t str) -> Result<(Choice, &'t str), ActionParseError>;
}

impl<'t> Read<'t> for Reader<'t> {
    fn square<'a>(&self, rest: &'a str, expected: &str) -> Result<(Sq, &'a str), ActionParseError> {
        let token: Res<'_, (char, &str)> = (one_of("abcdefghijABCDEFGHIJ"), digit1).parse(rest);
        let Ok((after, (col, digits))) = token else {
            return Err(self.err(rest, expected));
        };
        let row: u32 = digits.parse().unwrap_or(u32::MAX);
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
    let r = Reader::new(text);
    let (from, mut rest) = r.square(
        text,
        "expected a move: a path of squares such as c1-c2-c3, ending in `base` to enter the \
         opponent's base",
    )?;
    let mut steps: Vec<Spot> = Vec::with_capacity(MAX_STEPS);
    let mut choice = None;
    loop {
        let at = ws(rest);
        if at.is_empty() {
            break;
        }
        let Some(after) = at.strip_prefix('-') else {
            if steps.is_empty() || at.len() == rest.len() {
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
        if steps.last().is_some_and(|s| matches!(s, Spot::Base(_))) {
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
        if steps.len() == MAX_STEPS {
            return Err(r.err_between(
                at,
                next,
                "a move has at most 6 steps, the die's highest face",
            ));
        }
        steps.push(spot);
        rest = next;
    }
    if steps.is_empty() {
        return Err(r.err("", "expected `-` and the next square of the path"));
    }
    Ok(by_ends(state, Move::new(from, &steps, choice)))
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
