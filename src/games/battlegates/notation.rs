//! Reading and writing actions.
//!
//! ```text
//! action  = "discard" card
//!         | ("scale" | "climb") loc "-" loc
//!         | "move-wall" wall wall | "move-gate" gate gate
//!         | ("rotate90" | "rotate180") gate ("cw" | "ccw")
//!         | "shoot" square dir | "shoot" "K" square
//!         | loc "-" loc { "-" loc }          (a run: 1 to 4 steps)
//! loc     = square | "K"                     (K: the Keep joined to the
//!                                             entrance square beside it)
//! wall    = "W" edge        gate = ("G" | "L") edge end
//! edge    = square ("n" | "e" | "s" | "w")   end = "n" | "e" | "s" | "w"
//! ```
//! Words, letters and squares in any case; white space around `-`.

use super::action::{Action, Path, Shot, MAX_PATH};
use super::board::{read_sq, Dir, Geometry, Loc, Sense, Sq};
use super::cards::Card;
use super::dice::loc_word;
use super::maze::{read_piece, Gate, Piece};
use super::state::State;
use crate::game::ActionParseError;
use crate::games::reader::{did_you_mean, keyword, word_len_until, ws, Reader};

fn word(rest: &str) -> usize {
    word_len_until(rest, |c| c.is_whitespace() || c == '-' || c == ',')
}

/// Read one action; a rotation is named by the first gate on its post.
pub fn parse(state: &State, text: &str) -> Result<Action, ActionParseError> {
    let r = Reader::with_words(text, word);
    let rest = ws(text);
    let (action, rest) = read(state.board.geo(), &r, rest)?;
    let rest = ws(rest);
    if !rest.is_empty() {
        return Err(r.err(rest, "unexpected text after the action"));
    }
    Ok(match action {
        Action::Rotate {
            quarters,
            gate,
            sense,
        } if state.board.maze.gates().any(|(_, g)| g == gate) => Action::Rotate {
            quarters,
            gate: state.board.maze.first_on(gate.hinge).unwrap_or(gate),
            sense,
        },
        other => other,
    })
}

fn read<'a>(
    g: &Geometry,
    r: &Reader<'_>,
    rest: &'a str,
) -> Result<(Action, &'a str), ActionParseError> {
    if let Some(found) = card_action(g, r, rest)? {
        return Ok(found);
    }
    if let Some(after) = keyword(rest, "shoot") {
        return shot(g, r, ws(after));
    }
    let (locs, after) = locs(g, r, rest)
        .map_err(|e| misspelt(r, rest, &[ACTION_WORDS, CARD_WORDS], "action").unwrap_or(e))?;
    if locs.len() < 2 {
        return Err(r.err(
            rest,
            "expected an action: a run such as c1-c2-c3, shoot, discard, scale, climb, \
             move-wall, move-gate, rotate90 or rotate180",
        ));
    }
    let path = Path::new(&locs).ok_or_else(|| {
        r.err_between(
            rest,
            after,
            "a run takes 1 to 4 steps (the die shows 1 to 4)",
        )
    })?;
    Ok((Action::Run(path), after))
}

/// A card action at the start of `rest`, if one starts there.
fn card_action<'a>(
    g: &Geometry,
    r: &Reader<'_>,
    rest: &'a str,
) -> Result<Option<(Action, &'a str)>, ActionParseError> {
    if let Some(after) = keyword(rest, "discard") {
        let at = ws(after);
        let n = word_len_until(at, |c| c.is_whitespace() || c == ',');
        let card = Card::from_word(&at[..n]).ok_or_else(|| {
            misspelt(r, at, &[CARD_WORDS], "card").unwrap_or_else(|| r.err(at, CARDS))
        })?;
        return Ok(Some((Action::Discard(card), &at[n..])));
    }
    for (name, scale) in [("scale", true), ("climb", false)] {
        if let Some(after) = keyword(rest, name) {
            let (locs, after) = locs(g, r, ws(after))?;
            let [from, to] = locs[..] else {
                return Err(r.err_between(
                    rest,
                    after,
                    format!("{name} names two places: {name} c4-c5"),
                ));
            };
            let action = if scale {
                Action::Scale(from, to)
            } else {
                Action::Climb(from, to)
            };
            return Ok(Some((action, after)));
        }
    }
    if let Some(after) = keyword(rest, "move-wall") {
        let (a, after) = piece(g, r, ws(after))?;
        let (b, after) = piece(g, r, ws(after))?;
        return match (a, b) {
            (Piece::Wall(x), Piece::Wall(y)) => Ok(Some((Action::MoveWall(x, y), after))),
            _ => Err(r.err_between(
                rest,
                after,
                "move-wall names two walls: move-wall Wd4n Wf6e",
            )),
        };
    }
    if let Some(after) = keyword(rest, "move-gate") {
        let (a, after) = piece(g, r, ws(after))?;
        let (b, after) = piece(g, r, ws(after))?;
        return match (a, b) {
            (Piece::Gate(x), Piece::Gate(y)) => Ok(Some((Action::MoveGate(x, y), after))),
            _ => Err(r.err_between(
                rest,
                after,
                "move-gate names a gate and its new place: move-gate Gd4nw Gf6en",
            )),
        };
    }
    rotation(g, r, rest)
}

/// A rotation at the start of `rest`, if one starts there.
fn rotation<'a>(
    g: &Geometry,
    r: &Reader<'_>,
    rest: &'a str,
) -> Result<Option<(Action, &'a str)>, ActionParseError> {
    for (name, quarters) in [("rotate90", 1), ("rotate180", 2)] {
        if let Some(after) = keyword(rest, name) {
            let at = ws(after);
            let (p, after) = piece(g, r, at)?;
            let Piece::Gate(gate) = p else {
                return Err(r.err(
                    at,
                    format!("{name} names a gate on the post: {name} Gd4nw cw"),
                ));
            };
            let at = ws(after);
            let (sense, after) = if let Some(a) = keyword(at, "cw") {
                (Sense::Cw, a)
            } else if let Some(a) = keyword(at, "ccw") {
                (Sense::Ccw, a)
            } else {
                return Err(misspelt(r, at, &[&["cw", "ccw"]], "sense of a turn")
                    .unwrap_or_else(|| r.err(at, "expected the sense of the turn: cw or ccw")));
            };
            return Ok(Some((
                Action::Rotate {
                    quarters,
                    gate,
                    sense,
                },
                after,
            )));
        }
    }
    Ok(None)
}

const CARDS: &str = "expected a card: scale, climb, move-wall, move-gate, rotate90 or rotate180";

/// The words an action starts with besides the cards' own.
const ACTION_WORDS: &[&str] = &["shoot", "discard"];

/// The cards, as `discard` names them.
const CARD_WORDS: &[&str] = &[
    "scale",
    "climb",
    "move-wall",
    "move-gate",
    "rotate90",
    "rotate180",
];

/// When the word at the start of `rest` is a misspelling of one of
/// `words` (one or more lists): the error that says which it is likely
/// to be.
fn misspelt(r: &Reader<'_>, rest: &str, words: &[&[&str]], what: &str) -> Option<ActionParseError> {
    let n = word_len_until(rest, |c| c.is_whitespace() || c == ',');
    let typed = &rest[..n];
    let all: Vec<&str> = words.iter().flat_map(|w| w.iter().copied()).collect();
    let meant = did_you_mean(typed, &all)?;
    Some(r.err(
        rest,
        format!("`{typed}` is no {what}: did you mean `{meant}`?"),
    ))
}

fn piece<'a>(
    g: &Geometry,
    r: &Reader<'_>,
    rest: &'a str,
) -> Result<(Piece, &'a str), ActionParseError> {
    match read_piece(g, rest) {
        Ok((p, n)) => Ok((p, &rest[n..])),
        Err(e) => Err(r.err(rest, e)),
    }
}

/// The castle entrance squares of board `g`, for messages: `c1, g1,
/// c12, g12` on one board.
fn entrance_list(g: &Geometry) -> String {
    let squares: Vec<String> = g.entrances().map(|e| e.square.to_string()).collect();
    squares.join(", ")
}

fn shot<'a>(
    g: &Geometry,
    r: &Reader<'_>,
    rest: &'a str,
) -> Result<(Action, &'a str), ActionParseError> {
    if let Some(after) = keyword(rest, "k") {
        let at = ws(after);
        let (sq, n) = read_sq(g, at).ok_or_else(|| {
            r.err(
                at,
                "expected the entrance square the arrow flies out through: shoot K c1",
            )
        })?;
        let Some((keep, _)) = g.keep_next_to(sq) else {
            return Err(r.err(
                at,
                format!("{sq} is no castle entrance ({})", entrance_list(g)),
            ));
        };
        return Ok((Action::Shoot(Shot::Keep(keep, sq)), &at[n..]));
    }
    let (sq, n) = read_sq(g, rest).ok_or_else(|| {
        r.err(
            rest,
            "expected the Archer's square and a direction: shoot c4 n",
        )
    })?;
    let at = ws(&rest[n..]);
    let dir = at
        .chars()
        .next()
        .and_then(Dir::from_letter)
        .filter(|_| !at[1..].starts_with(|c: char| c.is_alphanumeric()))
        .ok_or_else(|| r.err(at, "expected the arrow's direction: n, e, s or w"))?;
    Ok((Action::Shoot(Shot::From(sq, dir)), &at[1..]))
}

/// A token of a path: a square, or `K` (resolved by its neighbours).
#[derive(Clone, Copy)]
enum Token {
    Sq(Sq),
    K,
}

/// Read `loc { "-" loc }` (up to [`MAX_PATH`] and more, for the error),
/// resolving each `K` to the Keep joined to the square beside it.
fn locs<'a>(
    g: &Geometry,
    r: &Reader<'_>,
    rest: &'a str,
) -> Result<(Vec<Loc>, &'a str), ActionParseError> {
    let start = rest;
    let mut tokens = Vec::new();
    let mut at = rest;
    loop {
        let n = if at.starts_with(['K', 'k']) && !at[1..].starts_with(|c: char| c.is_alphanumeric())
        {
            tokens.push(Token::K);
            1
        } else {
            let (sq, used) = read_sq(g, at).ok_or_else(|| {
                r.err(
                    at,
                    format!(
                        "expected a square a1 to {} (or K for a Keep beside an entrance)",
                        g.last_sq()
                    ),
                )
            })?;
            tokens.push(Token::Sq(sq));
            used
        };
        at = &at[n..];
        match ws(at).strip_prefix('-') {
            Some(after) => at = ws(after),
            None => break,
        }
    }
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        out.push(match *t {
            Token::Sq(sq) => Loc::Sq(sq),
            Token::K => {
                let beside = [i.checked_sub(1), Some(i + 1)]
                    .into_iter()
                    .flatten()
                    .filter_map(|j| match tokens.get(j) {
                        Some(Token::Sq(sq)) => g.keep_next_to(*sq).map(|(k, _)| k),
                        _ => None,
                    })
                    .next();
                let keep = beside.ok_or_else(|| {
                    r.err_between(
                        start,
                        at,
                        format!(
                            "K is the Keep beside an entrance square ({}) next to it in the path",
                            entrance_list(g)
                        ),
                    )
                })?;
                Loc::Keep(keep)
            }
        });
    }
    if out.len() > MAX_PATH {
        return Err(r.err_between(start, at, "a run takes 1 to 4 steps (the die shows 1 to 4)"));
    }
    Ok((out, at))
}

/// Append the canonical text of `action`.
pub fn write(action: &Action, out: &mut String) {
    let path = |locs: &[Loc]| {
        locs.iter()
            .map(|l| loc_word(*l))
            .collect::<Vec<_>>()
            .join("-")
    };
    let text = match action {
        Action::Discard(c) => format!("discard {c}"),
        Action::Scale(a, b) => format!("scale {}", path(&[*a, *b])),
        Action::Climb(a, b) => format!("climb {}", path(&[*a, *b])),
        Action::MoveWall(a, b) => format!("move-wall W{a} W{b}"),
        Action::MoveGate(a, b) => format!("move-gate {a} {b}"),
        Action::Rotate {
            quarters,
            gate,
            sense,
        } => format!(
            "rotate{} {gate} {}",
            if *quarters == 2 { 180 } else { 90 },
            sense.word()
        ),
        Action::Run(p) => path(p.locs()),
        Action::Shoot(Shot::From(sq, d)) => format!("shoot {sq} {}", d.letter()),
        Action::Shoot(Shot::Keep(_, sq)) => format!("shoot K {sq}"),
    };
    out.push_str(&text);
}

/// The text of a gate, for messages.
pub fn gate_text(g: Gate) -> String {
    g.to_string()
}
