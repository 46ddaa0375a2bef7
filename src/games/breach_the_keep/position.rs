//! The position notation (`docs/games/breach-the-keep.md` 7, "Position notation"):
//! `<board> <side> <zones> <keeps> <result>`, e.g. the start position
//! `10/9/10/9/10/9/10 White 14/14 3/3 *`.
//!
//! - board: the columns a to g, separated by `/`, each from row 1 up; `w`
//!   a White single, `W` a White double, `b`/`B` the same for Black, a
//!   Keep holding stacks in brackets, doubles first (`[Ww]`), and a number
//!   for that many empty cells (an empty Keep is an empty cell);
//! - side: the side to move, `White` or `Black`;
//! - zones: the pieces in White's and in Black's end zone, `14/14`;
//! - keeps: the values of White's and Black's home Keeps, `3/3`;
//! - result: `*` while the game goes on, else the winner and how:
//!   `White:home-breach`, `White:points` (Black's points in play fell short
//!   of breaching White's home Keep) or `White:resignation`.
//!
//! Gates are not written: whether one is open follows from its flanking
//! Keeps. Points in play are counted from the pieces. Taken between turns,
//! a position has no movement points used and no locked pieces.

use nom::branch::alt;
use nom::character::complete::{char, digit1, one_of};
use nom::combinator::map;
use nom::multi::many0;
use nom::sequence::delimited;
use nom::{IResult, Parser};

use crate::game::{position_fields, Parts, PositionField, PositionParseError, Side};

use super::board::{cell, is_keep, Name, COL_LEN, NCOLS};
use super::rules::{side_name, SIDE_NAMES};
use super::state::{Cell, Pos, State, WinReason, BLACK, WHITE};

type Res<'a, T> = IResult<&'a str, T>;

const FIELDS: [&str; 5] = ["board", "side", "zones", "keeps", "result"];

/// Pieces of each side at the start.
const PIECES: u32 = 14;

const TOKENS: &str = "expected w W (a White single or double), b B (Black), [..] (a Keep's \
                      stacks) or a number (empty cells)";

fn push_stacks(out: &mut String, c: &Cell) {
    let (single, double) = c.stack_letters();
    for _ in 0..c.d {
        out.push(double);
    }
    for _ in 0..c.s {
        out.push(single);
    }
}

/// Append the position notation of `state`.
pub fn write(state: &State, out: &mut String) {
    let pos = &state.pos;
    for col in 0..NCOLS as u8 {
        if col > 0 {
            out.push('/');
        }
        let mut empty = 0u8;
        for row in 1..=COL_LEN[usize::from(col)] {
            let c = cell(col, row);
            let content = pos.cells[usize::from(c)];
            if content.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            if is_keep(c) {
                out.push('[');
                push_stacks(out, &content);
                out.push(']');
            } else {
                push_stacks(out, &content);
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out.push(' ');
    out.push_str(side_name(pos.side));
    out.push_str(&format!(
        " {}/{} {}/{} ",
        pos.zone[0], pos.zone[1], pos.keep_value[0], pos.keep_value[1]
    ));
    if let Some(winner) = pos.winner {
        out.push_str(side_name(winner));
        out.push_str(match pos.reason {
            WinReason::HomeBreach => ":home-breach",
            WinReason::Points => ":points",
            WinReason::Resigned => ":resignation",
        });
    } else {
        out.push('*');
    }
}

/// One token of a column: a run of empty cells, one stack, or a Keep's
/// stacks (side, singles, doubles, written in canonical order).
enum Token<'a> {
    Empty(&'a str),
    Stack(char),
    Keep(Vec<char>),
}

fn stack(i: &str) -> Res<'_, char> {
    one_of("wWbB").parse(i)
}

fn token(i: &str) -> Res<'_, Token<'_>> {
    alt((
        map(digit1, Token::Empty),
        map(stack, Token::Stack),
        map(delimited(char('['), many0(stack), char(']')), Token::Keep),
    ))
    .parse(i)
}

/// Add the stacks `letters` to `c`, all of one side.
fn fill(c: &mut Cell, letters: &[char]) -> Result<(), String> {
    for &l in letters {
        let owner = if l.eq_ignore_ascii_case(&'w') {
            WHITE
        } else {
            BLACK
        };
        if c.owner().is_some_and(|o| o != owner) {
            return Err("a Keep holds the stacks of one side only".to_string());
        }
        c.set_owner(owner);
        if l.is_ascii_uppercase() {
            c.d += 1;
        } else {
            c.s += 1;
        }
    }
    Ok(())
}

/// The token at the start of `here`, and the rest after it.
fn read_token<'a>(
    f: &PositionField<'_>,
    here: &'a str,
) -> Result<(&'a str, Token<'a>), PositionParseError> {
    token(here).map_err(|_| {
        let bad = here.chars().next().unwrap_or(' ');
        if bad == '[' {
            f.err(
                here,
                here.len().min(5),
                "a Keep's stacks are w W b B between [ and ], e.g. [Ww]",
            )
        } else {
            f.err(
                here,
                1,
                format!("`{bad}` is not a cell's content: {TOKENS}"),
            )
        }
    })
}

/// How many cells `tok` (the `used` bytes at `here`) covers: a run of
/// empty cells is written as one number, after anything but another run.
fn cells_covered(
    f: &PositionField<'_>,
    tok: &Token<'_>,
    here: &str,
    used: usize,
    last_empty: bool,
) -> Result<u8, PositionParseError> {
    match tok {
        Token::Empty(_) if last_empty => Err(f.err(
            here,
            used,
            "write a run of empty cells as one number (e.g. 10, not 55)",
        )),
        Token::Empty(d) => match d.parse::<u8>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(f.err(here, used, "an empty run is 1 to 10 cells")),
        },
        _ => Ok(1),
    }
}

/// Put the stacks of `tok` (the `used` bytes at `here`) on cell `c`,
/// whose content is `content`: one stack on an ordinary cell, a Keep's
/// stacks in brackets, doubles first.
fn place(
    f: &PositionField<'_>,
    tok: Token<'_>,
    c: u8,
    content: &mut Cell,
    here: &str,
    used: usize,
) -> Result<(), PositionParseError> {
    let at = Name(c);
    match tok {
        Token::Empty(_) => Ok(()),
        Token::Stack(l) if is_keep(c) => Err(format!(
            "{at} is a Keep: write its stacks in brackets, e.g. [{l}]"
        )),
        Token::Stack(l) => fill(content, &[l]),
        Token::Keep(_) if !is_keep(c) => {
            Err(format!("{at} is not a Keep: brackets hold a Keep's stacks"))
        }
        Token::Keep(letters) => check_keep(&letters, at).and_then(|()| fill(content, &letters)),
    }
    .map_err(|why| f.err(here, used, why))
}

/// A Keep's stacks as written: one to three, doubles first.
fn check_keep(letters: &[char], at: Name) -> Result<(), String> {
    if letters.is_empty() {
        return Err(format!(
            "the Keep {at} is empty: count it among the empty cells"
        ));
    }
    if letters.len() > 3 {
        return Err(format!("the Keep {at} holds at most three stacks"));
    }
    if letters
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
    {
        return Err("in a Keep, write the doubles first, e.g. [Ww]".to_string());
    }
    Ok(())
}

/// Read column `col` from the start of `rest` into `pos`, leaving `rest`
/// at its end.
fn column(
    f: &PositionField<'_>,
    col: u8,
    rest: &mut &str,
    pos: &mut Pos,
) -> Result<(), PositionParseError> {
    let len = COL_LEN[usize::from(col)];
    let name = char::from(b'a' + col);
    let col_start = *rest;
    let mut row = 1u8;
    let mut last_empty = false;
    while !rest.is_empty() && !rest.starts_with('/') {
        let here = *rest;
        let (r, tok) = read_token(f, here)?;
        let used = here.len() - r.len();
        let is_empty = matches!(tok, Token::Empty(_));
        let n = cells_covered(f, &tok, here, used, last_empty)?;
        if u32::from(row) + u32::from(n) > u32::from(len) + 1 {
            return Err(f.err(
                col_start,
                col_start.len() - r.len(),
                format!("column {name} has more than its {len} cells"),
            ));
        }
        let c = cell(col, row);
        place(f, tok, c, &mut pos.cells[usize::from(c)], here, used)?;
        last_empty = is_empty;
        row += n;
        *rest = r;
    }
    if row <= len {
        return Err(f.err(
            col_start,
            col_start.len() - rest.len(),
            format!("column {name} has {} cells, expected {len}", row - 1),
        ));
    }
    Ok(())
}

fn board(f: &PositionField<'_>, pos: &mut Pos) -> Result<(), PositionParseError> {
    let columns = Parts {
        whole: "the board",
        name: "columns",
        count: NCOLS,
        order: "a to g",
    };
    f.parts(columns, |col, rest| column(f, col as u8, rest, pos))
}

fn side(f: &PositionField<'_>, text: &str, what: &str) -> Result<Side, PositionParseError> {
    match text {
        "White" => Ok(WHITE),
        "Black" => Ok(BLACK),
        _ => Err(f.err(
            f.value,
            text.len(),
            format!("expected {what}, White or Black, not `{text}`"),
        )),
    }
}

/// Two numbers `a/b`, each within `range`.
fn pair(
    f: &PositionField<'_>,
    range: std::ops::RangeInclusive<u8>,
    what: &str,
) -> Result<[u8; 2], PositionParseError> {
    let bad = || f.whole(format!("expected {what}"));
    let (a, b) = f.value.split_once('/').ok_or_else(bad)?;
    let num = |t: &str| -> Result<u8, PositionParseError> {
        let parsed: Res<'_, &str> = digit1.parse(t);
        match parsed {
            Ok(("", d)) => d
                .parse::<u8>()
                .ok()
                .filter(|n| range.contains(n))
                .ok_or_else(bad),
            _ => Err(bad()),
        }
    };
    Ok([num(a)?, num(b)?])
}

/// Read a position.
pub fn parse(text: &str) -> Result<State, PositionParseError> {
    let [b, s, z, k, r] = position_fields(text, FIELDS)?;
    let mut pos = Pos::start([3, 3]);
    board(&b, &mut pos)?;
    pos.side = side(&s, s.value, "the side to move")?;
    pos.zone = pair(
        &z,
        0..=14,
        "the pieces in White's and Black's end zones, e.g. 14/14",
    )?;
    pos.keep_value = pair(
        &k,
        1..=6,
        "the values of White's and Black's home Keeps, 1 to 6, e.g. 3/3",
    )?;
    if r.value != "*" {
        let hint = "expected the result: * while the game goes on, else e.g. White:home-breach, \
                    White:points or White:resignation";
        let (winner, how) = r.value.split_once(':').ok_or_else(|| r.whole(hint))?;
        pos.winner = Some(side(&r, winner, "the winner")?);
        pos.reason = match how {
            "home-breach" => WinReason::HomeBreach,
            "points" => WinReason::Points,
            "resignation" => WinReason::Resigned,
            _ => {
                return Err(r.err(
                    how,
                    how.len(),
                    "expected how the game was won: home-breach, points or resignation",
                ))
            }
        };
    }
    for (i, name) in SIDE_NAMES.iter().enumerate() {
        let on_board: u32 = pos
            .cells
            .iter()
            .filter(|c| c.owner().is_some_and(|o| usize::from(o) == i))
            .map(|c| u32::from(c.s) + 2 * u32::from(c.d))
            .sum();
        let all = on_board + u32::from(pos.zone[i]);
        if all > PIECES {
            return Err(b.whole(format!(
                "{name} has {all} pieces on the board and in its end zone: a side has 14"
            )));
        }
    }
    pos.recount();
    Ok(State::from_pos(pos))
}
