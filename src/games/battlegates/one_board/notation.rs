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
//! Read by one nom parser ([`parse`]), its productions named after the
//! lines above.

use crate::games::battlegates::geometry::board::{read_sq, Dir, Geometry, Loc, Sense, Sq};
use crate::games::battlegates::mazes::maze::{read_piece, Gate, Piece};
use crate::games::battlegates::moves::action::{Action, Path, Shot, MAX_PATH};
use crate::games::battlegates::moves::dice::write_loc;
use crate::games::battlegates::one_board::state::State;
use crate::games::battlegates::pieces::cards::Card;
use nom::branch::alt;
use nom::character::complete::{char, multispace0};
use nom::combinator::{map, opt, value};
use nom::multi::separated_list1;
use nom::sequence::{delimited, preceded, separated_pair, terminated};
use nom::Parser;

use crate::game::ActionParseError;
use crate::games::reader::{did_you_mean, kw, word_len_until, Fault, Reader, Res};

fn word(rest: &str) -> usize {
    word_len_until(rest, |c| c.is_whitespace() || c == '-' || c == ',')
}

const EXPECTED_ACTION: &str = "expected an action: a run such as c1-c2-c3, shoot, discard, \
                               scale, climb, move-wall, move-gate, rotate90 or rotate180";

/// Read one action; a rotation is named by the first gate on its post.
///
/// One nom parser ([`action`]) reads every form and makes every error.
pub fn parse(state: &State, text: &str) -> Result<Action, ActionParseError> {
    let r = Reader::with_words(text, word);
    let mut whole = delimited(
        multispace0,
        |i| action(state.board.geo(), &r, i),
        multispace0,
    );
    let read = match whole.parse(text) {
        Ok((rest, _)) if !rest.is_empty() => Err(r.fail(rest, "unexpected text after the action")),
        read => read,
    };
    Ok(match r.finish(read, EXPECTED_ACTION)? {
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

/// `action`, the grammar above: each form starts with its own word, and
/// a run is what is left.
fn action<'t>(g: &Geometry, r: &Reader<'t>, i: &'t str) -> Res<'t, Action> {
    alt((
        |i| discard(r, i),
        |i| scale_or_climb(g, r, i),
        |i| move_piece(g, r, i),
        |i| rotation(g, r, i),
        |i| shot(g, r, i),
        |i| run(g, r, i),
    ))
    .parse(i)
}

/// `"discard" card`.
fn discard<'t>(r: &Reader<'t>, i: &'t str) -> Res<'t, Action> {
    let (at, _) = preceded(kw("discard"), multispace0).parse(i)?;
    let n = word_len_until(at, |c| c.is_whitespace() || c == ',');
    match Card::from_word(&at[..n]) {
        Some(card) => Ok((&at[n..], Action::Discard(card))),
        None => {
            let e = misspelt(r, at, &[CARD_WORDS], "card").unwrap_or_else(|| r.err(at, CARDS));
            Err(r.fail_with(e))
        }
    }
}

/// `("scale" | "climb") loc "-" loc`.
fn scale_or_climb<'t>(g: &Geometry, r: &Reader<'t>, i: &'t str) -> Res<'t, Action> {
    let card = alt((value("scale", kw("scale")), value("climb", kw("climb"))));
    let (at, name) = terminated(card, multispace0).parse(i)?;
    let (after, locs) = locs(g, r, at)?;
    let [from, to] = locs[..] else {
        let e = format!("{name} names two places: {name} c4-c5");
        return Err(r.fail_with(r.err_between(i, after, e)));
    };
    let action = if name == "scale" {
        Action::Scale(from, to)
    } else {
        Action::Climb(from, to)
    };
    Ok((after, action))
}

/// `"move-wall" wall wall | "move-gate" gate gate`.
fn move_piece<'t>(g: &Geometry, r: &Reader<'t>, i: &'t str) -> Res<'t, Action> {
    let card = alt((value(true, kw("move-wall")), value(false, kw("move-gate"))));
    let (at, wall) = terminated(card, multispace0).parse(i)?;
    let (after, (a, b)) =
        separated_pair(|i| piece(g, r, i), multispace0, |i| piece(g, r, i)).parse(at)?;
    match (wall, a, b) {
        (true, Piece::Wall(x), Piece::Wall(y)) => Ok((after, Action::MoveWall(x, y))),
        (false, Piece::Gate(x), Piece::Gate(y)) => Ok((after, Action::MoveGate(x, y))),
        (true, ..) => {
            let e = "move-wall names two walls: move-wall Wd4n Wf6e";
            Err(r.fail_with(r.err_between(i, after, e)))
        }
        (false, ..) => {
            let e = "move-gate names a gate and its new place: move-gate Gd4nw Gf6en";
            Err(r.fail_with(r.err_between(i, after, e)))
        }
    }
}

/// `("rotate90" | "rotate180") gate ("cw" | "ccw")`.
fn rotation<'t>(g: &Geometry, r: &Reader<'t>, i: &'t str) -> Res<'t, Action> {
    let card = alt((
        value(("rotate90", 1), kw("rotate90")),
        value(("rotate180", 2), kw("rotate180")),
    ));
    let (at, (name, quarters)) = terminated(card, multispace0).parse(i)?;
    let (after, p) = piece(g, r, at)?;
    let Piece::Gate(gate) = p else {
        let e = format!("{name} names a gate on the post: {name} Gd4nw cw");
        return Err(r.fail(at, e));
    };
    let (at, _) = multispace0(after)?;
    let mut sense = alt((value(Sense::Cw, kw("cw")), value(Sense::Ccw, kw("ccw"))));
    let (after, sense) = sense.parse(at).map_err(|_| {
        let e = misspelt(r, at, &[&["cw", "ccw"]], "sense of a turn")
            .unwrap_or_else(|| r.err(at, "expected the sense of the turn: cw or ccw"));
        r.fail_with(e)
    })?;
    let action = Action::Rotate {
        quarters,
        gate,
        sense,
    };
    Ok((after, action))
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

/// A wall or a gate ([`read_piece`]), or the failure that says what is
/// wrong with it.
fn piece<'t>(g: &Geometry, r: &Reader<'t>, i: &'t str) -> Res<'t, Piece> {
    match read_piece(g, i) {
        Ok((p, n)) => Ok((&i[n..], p)),
        Err(e) => Err(r.fail(i, e)),
    }
}

/// A square of board `g` ([`read_sq`]); nom's recoverable error where
/// none starts.
fn square<'t>(g: &Geometry, i: &'t str) -> Res<'t, Sq> {
    match read_sq(g, i) {
        Some((sq, n)) => Ok((&i[n..], sq)),
        None => Err(nom::Err::Error(Fault::NoMatch)),
    }
}

/// The castle entrance squares of board `g`, for messages: `c1, g1,
/// c12, g12` on one board.
fn entrance_list(g: &Geometry) -> String {
    let squares: Vec<String> = g.entrances().map(|e| e.square.to_string()).collect();
    squares.join(", ")
}

/// `"shoot" square dir | "shoot" "K" square`.
fn shot<'t>(g: &Geometry, r: &Reader<'t>, i: &'t str) -> Res<'t, Action> {
    let (rest, _) = preceded(kw("shoot"), multispace0).parse(i)?;
    if let (after, Some(_)) = opt(kw("k")).parse(rest)? {
        let (at, _) = multispace0(after)?;
        let e = "expected the entrance square the arrow flies out through: shoot K c1";
        let (after, sq) = r.expect(square(g, at), at, e)?;
        let Some((keep, _)) = g.keep_next_to(sq) else {
            let e = format!("{sq} is no castle entrance ({})", entrance_list(g));
            return Err(r.fail(at, e));
        };
        return Ok((after, Action::Shoot(Shot::Keep(keep, sq))));
    }
    let e = "expected the Archer's square and a direction: shoot c4 n";
    let (after, sq) = r.expect(square(g, rest), rest, e)?;
    let (at, _) = multispace0(after)?;
    let dir = at
        .chars()
        .next()
        .and_then(Dir::from_letter)
        .filter(|_| !at[1..].starts_with(|c: char| c.is_alphanumeric()))
        .ok_or_else(|| r.fail(at, "expected the arrow's direction: n, e, s or w"))?;
    Ok((&at[1..], Action::Shoot(Shot::From(sq, dir))))
}

/// `loc "-" loc { "-" loc }`, 1 to 4 steps: a run, where no other
/// action's word starts (a word close to one of them is taken for it).
fn run<'t>(g: &Geometry, r: &Reader<'t>, i: &'t str) -> Res<'t, Action> {
    let (after, locs) = locs(g, r, i).map_err(|e| match e {
        nom::Err::Failure(Fault::Placed(e)) => {
            r.fail_with(misspelt(r, i, &[ACTION_WORDS, CARD_WORDS], "action").unwrap_or(e))
        }
        other => other,
    })?;
    if locs.len() < 2 {
        return Err(r.fail(i, EXPECTED_ACTION));
    }
    let path = Path::new(&locs).ok_or_else(|| {
        let e = "a run takes 1 to 4 steps (the die shows 1 to 4)";
        r.fail_with(r.err_between(i, after, e))
    })?;
    Ok((after, Action::Run(path)))
}

/// A token of a path: a square, or `K` (resolved by its neighbours).
#[derive(Clone, Copy)]
enum Token {
    Sq(Sq),
    K,
}

/// `loc { "-" loc }` (up to [`MAX_PATH`] and more, for the error), white
/// space around `-`, each `K` resolved to the Keep joined to the square
/// beside it.
fn locs<'t>(g: &Geometry, r: &Reader<'t>, i: &'t str) -> Res<'t, Vec<Loc>> {
    let token = |at: &'t str| {
        let k = value(Token::K, kw("k"));
        let sq = map(|i| square(g, i), Token::Sq);
        alt((k, sq)).parse(at).map_err(|_| {
            let last = g.last_sq();
            r.fail(
                at,
                format!("expected a square a1 to {last} (or K for a Keep beside an entrance)"),
            )
        })
    };
    let dash = delimited(multispace0, char('-'), multispace0);
    let (at, tokens) = separated_list1(dash, token).parse(i)?;
    let mut out = Vec::new();
    for (n, t) in tokens.iter().enumerate() {
        out.push(match *t {
            Token::Sq(sq) => Loc::Sq(sq),
            Token::K => {
                let beside = [n.checked_sub(1), Some(n + 1)]
                    .into_iter()
                    .flatten()
                    .filter_map(|j| match tokens.get(j) {
                        Some(Token::Sq(sq)) => g.keep_next_to(*sq).map(|(k, _)| k),
                        _ => None,
                    })
                    .next();
                let keep = beside.ok_or_else(|| {
                    let e = format!(
                        "K is the Keep beside an entrance square ({}) next to it in the path",
                        entrance_list(g)
                    );
                    r.fail_with(r.err_between(i, at, e))
                })?;
                Loc::Keep(keep)
            }
        });
    }
    if out.len() > MAX_PATH {
        let e = "a run takes 1 to 4 steps (the die shows 1 to 4)";
        return Err(r.fail_with(r.err_between(i, at, e)));
    }
    Ok((at, out))
}

/// Append the canonical text of `action`, written straight into `out`
/// (no text of its own made: the referee writes every action of every
/// line it reads, for the line's canonical text).
pub fn write(action: &Action, out: &mut String) {
    use std::fmt::Write as _;
    let path = |locs: &[Loc], out: &mut String| {
        for (k, l) in locs.iter().enumerate() {
            if k > 0 {
                out.push('-');
            }
            write_loc(*l, out);
        }
    };
    // Writing into a `String` never fails.
    let _ = match action {
        Action::Discard(c) => write!(out, "discard {c}"),
        Action::Scale(a, b) => {
            out.push_str("scale ");
            path(&[*a, *b], out);
            Ok(())
        }
        Action::Climb(a, b) => {
            out.push_str("climb ");
            path(&[*a, *b], out);
            Ok(())
        }
        Action::MoveWall(a, b) => write!(out, "move-wall W{a} W{b}"),
        Action::MoveGate(a, b) => write!(out, "move-gate {a} {b}"),
        Action::Rotate {
            quarters,
            gate,
            sense,
        } => write!(
            out,
            "rotate{} {gate} {}",
            if *quarters == 2 { 180 } else { 90 },
            sense.word()
        ),
        Action::Run(p) => {
            path(p.locs(), out);
            Ok(())
        }
        Action::Shoot(Shot::From(sq, d)) => write!(out, "shoot {sq} {}", d.letter()),
        Action::Shoot(Shot::Keep(_, sq)) => write!(out, "shoot K {sq}"),
    };
}

/// The text of a gate, for messages.
pub fn gate_text(g: Gate) -> String {
    g.to_string()
}
