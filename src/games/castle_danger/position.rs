//! The position notation (`docs/games/castle-danger.md` 6, "Position notation"):
//! `<board> <side> <result>`, e.g. the start position
//! `2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 Blue *`.
//!
//! - board: the rows from 9 down to 1, separated by `/`; in a row, from
//!   column a to g, `K W B C` Blue pieces, `k w b c` Red pieces, `!` right
//!   after a Cannon that has fired, `#` a Wall, `F`/`f` Blue/Red Fire, and a
//!   digit for that many empty squares (the river, row 5, is always `7`);
//! - side: the side to move, `Blue` or `Red`;
//! - result: `*` while the game goes on, else the winner and how:
//!   `Blue:King-hit-d7` (Red's King was hit on d7) or `Blue:resignation`.
//!
//! Taken between turns, a position has no turn bookkeeping: the moves of
//! the next turn are counted when it begins.

use nom::branch::alt;
use nom::character::complete::{char, one_of, satisfy};
use nom::combinator::{map, opt};
use nom::{IResult, Parser};

use crate::game::{position_fields, Outcome, Parts, PositionField, PositionParseError, Side};

use super::board::{opponent, side_name, Sq, Terrain, BLUE, COLS, RED, ROWS};
use super::state::{Cell, End, Kind, Piece, State};

type Res<'a, T> = IResult<&'a str, T>;

const FIELDS: [&str; 3] = ["board", "side", "result"];

const TOKENS: &str = "expected K W B C (Blue), k w b c (Red), # (a Wall), F or f (Blue or Red \
                      Fire) or a digit 1-7 (empty squares)";

/// The letter of a piece: upper case for Blue, lower case for Red.
fn letter(p: Piece) -> char {
    if p.side == BLUE {
        p.kind.letter()
    } else {
        p.kind.letter().to_ascii_lowercase()
    }
}

/// Append the position notation of `state`.
pub fn write(state: &State, out: &mut String) {
    for row in (0..ROWS).rev() {
        let mut empty = 0u8;
        for col in 0..COLS {
            let cell = state.cell(Sq::new(col, row));
            if cell == Cell::Empty {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
                empty = 0;
            }
            match cell {
                Cell::Empty => {}
                Cell::Wall => out.push('#'),
                Cell::Fire(s) => out.push(if s == BLUE { 'F' } else { 'f' }),
                Cell::Piece(p) => {
                    out.push(letter(p));
                    if p.fired {
                        out.push('!');
                    }
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if row > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push_str(side_name(state.to_move));
    out.push(' ');
    match (state.outcome, state.end) {
        (Outcome::Won(w), End::KingHit { at, .. }) => {
            out.push_str(side_name(w));
            out.push_str(":King-hit-");
            out.push_str(&at.to_string());
        }
        (Outcome::Won(w), _) => {
            out.push_str(side_name(w));
            out.push_str(":resignation");
        }
        _ => out.push('*'),
    }
}

/// One token of a row: a run of empty squares or one square's content.
#[derive(Clone, Copy)]
enum Token {
    Empty(u8),
    Cell(Cell),
}

fn piece(i: &str) -> Res<'_, Cell> {
    map(
        (one_of("KWBCkwbc"), opt(char('!'))),
        |(c, fired): (char, Option<char>)| {
            Cell::Piece(Piece {
                side: if c.is_ascii_uppercase() { BLUE } else { RED },
                kind: Kind::from_letter(c).unwrap_or(Kind::Cannon),
                fired: fired.is_some(),
            })
        },
    )
    .parse(i)
}

fn token(i: &str) -> Res<'_, Token> {
    alt((
        map(satisfy(|c| c.is_ascii_digit()), |d| {
            Token::Empty(d as u8 - b'0')
        }),
        map(piece, Token::Cell),
        map(char('#'), |_| Token::Cell(Cell::Wall)),
        map(char('F'), |_| Token::Cell(Cell::Fire(BLUE))),
        map(char('f'), |_| Token::Cell(Cell::Fire(RED))),
    ))
    .parse(i)
}

/// The token at the start of `rest`, and the rest after it; a `!` goes
/// only after a Cannon.
fn read_token<'a>(
    f: &PositionField<'_>,
    rest: &'a str,
) -> Result<(&'a str, Token), PositionParseError> {
    let (r, tok) = token(rest).map_err(|_| {
        let bad = rest.chars().next().unwrap_or(' ');
        if bad == '!' {
            f.err(rest, 1, "`!` marks a fired Cannon: it follows C or c")
        } else {
            f.err(
                rest,
                1,
                format!("`{bad}` is not a square's content: {TOKENS}"),
            )
        }
    })?;
    if r.starts_with('!') {
        return Err(f.err(r, 1, "`!` marks a fired Cannon: it follows C or c"));
    }
    if let Token::Cell(Cell::Piece(p)) = tok {
        if p.fired && p.kind != Kind::Cannon {
            return Err(f.err(&rest[1..], 1, "`!` marks a fired Cannon: it follows C or c"));
        }
    }
    Ok((r, tok))
}

/// How many squares `tok`, at the start of `rest`, covers: a run of empty
/// squares is one digit, after anything but another run.
fn squares_covered(
    f: &PositionField<'_>,
    tok: Token,
    rest: &str,
    last_empty: bool,
) -> Result<u8, PositionParseError> {
    match tok {
        Token::Empty(0) => Err(f.err(rest, 1, "an empty run is 1 to 7 squares")),
        Token::Empty(_) if last_empty => Err(f.err(
            rest,
            1,
            "write a run of empty squares as one digit (e.g. 7, not 43)",
        )),
        Token::Empty(n) => Ok(n),
        Token::Cell(_) => Ok(1),
    }
}

/// Read board row `row` from the start of `rest` into `state`, leaving
/// `rest` at its end.
fn board_row(
    f: &PositionField<'_>,
    row: u8,
    rest: &mut &str,
    state: &mut State,
) -> Result<(), PositionParseError> {
    let row_start = *rest;
    let mut col = 0u8;
    let mut last_empty = false;
    while !rest.is_empty() && !rest.starts_with('/') {
        let here = *rest;
        let (r, tok) = read_token(f, here)?;
        let n = squares_covered(f, tok, here, last_empty)?;
        if col + n > COLS {
            return Err(f.err(
                row_start,
                row_start.len() - r.len(),
                format!("row {} has more than 7 squares", row + 1),
            ));
        }
        if let Token::Cell(cell) = tok {
            let sq = Sq::new(col, row);
            check_square(sq, cell).map_err(|why| f.err(here, here.len() - r.len(), why))?;
            state.set(sq, cell);
        }
        last_empty = matches!(tok, Token::Empty(_));
        col += n;
        *rest = r;
    }
    if col < COLS {
        return Err(f.err(
            row_start,
            row_start.len() - rest.len(),
            format!("row {} has {col} squares, expected 7", row + 1),
        ));
    }
    Ok(())
}

fn board(f: &PositionField<'_>, state: &mut State) -> Result<(), PositionParseError> {
    let rows = Parts {
        whole: "the board",
        name: "rows",
        count: usize::from(ROWS),
        order: "row 9 first",
    };
    f.parts(rows, |i, rest| {
        board_row(f, ROWS - 1 - i as u8, rest, state)
    })
}

/// What may stand on `sq`.
fn check_square(sq: Sq, cell: Cell) -> Result<(), String> {
    match (sq.terrain(), cell) {
        (Terrain::River, _) => Err(format!(
            "{sq} is in the river: nothing stands in row 5, write it 7"
        )),
        (Terrain::Sand, Cell::Wall) => Err(format!("{sq} is sand: no Wall stands there")),
        (_, Cell::Fire(_)) if sq.is_portal() => {
            Err(format!("{sq} is a Portal: no Fire stays there"))
        }
        _ => Ok(()),
    }
}

fn side(f: &PositionField<'_>, text: &str) -> Result<Side, PositionParseError> {
    match text {
        "Blue" => Ok(BLUE),
        "Red" => Ok(RED),
        _ => Err(f.whole(format!(
            "expected the side to move, Blue or Red, not `{text}`"
        ))),
    }
}

/// Read a position.
pub fn parse(text: &str) -> Result<State, PositionParseError> {
    let [b, s, f] = position_fields(text, FIELDS)?;
    let mut state = State::empty();
    board(&b, &mut state)?;
    state.to_move = side(&s, s.value)?;
    let r = f.value;
    if r != "*" {
        let (winner, how) = r.split_once(':').ok_or_else(|| {
            f.whole("expected the result: * while the game goes on, else e.g. Blue:King-hit-d7 or Blue:resignation")
        })?;
        let winner = side(&f, winner).map_err(|_| {
            f.err(
                r,
                winner.len(),
                format!("expected the winner, Blue or Red, not `{winner}`"),
            )
        })?;
        let loser = opponent(winner);
        state.end = if how == "resignation" {
            End::Resigned(loser)
        } else if let Some(at) = how.strip_prefix("King-hit-") {
            let sq = square(at).ok_or_else(|| {
                f.err(
                    at,
                    at.len(),
                    "expected the square where the King was hit, e.g. d7",
                )
            })?;
            End::KingHit {
                side: loser,
                at: sq,
            }
        } else {
            return Err(f.err(
                how,
                how.len(),
                "expected how the game was won: King-hit-<square> or resignation",
            ));
        };
        state.outcome = Outcome::Won(winner);
    }
    check_kings(&state).map_err(|why| b.whole(why))?;
    Ok(state)
}

fn square(t: &str) -> Option<Sq> {
    let b = t.as_bytes();
    match b {
        [c @ b'a'..=b'g', r @ b'1'..=b'9'] => Some(Sq::new(c - b'a', r - b'1')),
        _ => None,
    }
}

/// Each side has one King while the game goes on; a side whose King was
/// hit has none.
fn check_kings(state: &State) -> Result<(), String> {
    for side in [BLUE, RED] {
        let kings = state.count(side, Kind::King);
        let hit = matches!(state.end, End::KingHit { side: s, .. } if s == side);
        let name = side_name(side);
        if kings > 1 {
            return Err(format!("{name} has {kings} Kings: a side has one"));
        }
        if hit && kings == 1 {
            return Err(format!(
                "{name}'s King was hit, so it is no longer on the board"
            ));
        }
        if !hit && kings == 0 {
            return Err(format!("{name} has no King on the board"));
        }
    }
    Ok(())
}
