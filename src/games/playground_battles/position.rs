//! The position notation (`docs/games/playground-battles.md` 9, "Position notation"):
//! `<board> <side> <battle> <result>`, e.g. the start position
//! `rarbrcrdrerfrgrhrirj/10/10/10/10/10/10/babbbcbdbebfbgbhbibj Blue - *`.
//!
//! - board: the rows from 8 down to 1, separated by `/`; in a row, from
//!   column a to j, a piece as its side (`b` Blue, `r` Red), the column
//!   of the back-row square it started on (its slot), and its identity
//!   `R`, `P` or `S` once opened; two pieces on one square in brackets,
//!   `(brRrcR)` (a stalemate, or a battle's defender then attacker); a
//!   number 1 to 10 for that many empty squares;
//! - side: the side to move, `Blue` or `Red`;
//! - battle: `-`, or the square of a battle waiting for the defender's
//!   opening;
//! - result: `*`, or the winner and how (`Blue:base`, `Blue:resignation`,
//!   `Blue:no-free-piece`), or `draw:no-free-piece`.

use crate::game::{position_fields, Outcome, PositionField, PositionParseError, Side};

use super::board::{opponent, side_name, Sq, BLUE, COLS, RED, ROWS};
use super::state::{Battle, End, Kind, PieceId, State};

const FIELDS: [&str; 4] = ["board", "side", "battle", "result"];

fn piece(state: &State, id: PieceId, out: &mut String) {
    out.push(if id.side() == BLUE { 'b' } else { 'r' });
    out.push(char::from(b'a' + id.origin()));
    if let Some(k) = state.public_kind(id) {
        out.push(k.letter());
    }
}

/// Append the position notation of `state`.
pub fn write(state: &State, out: &mut String) {
    for row in (0..ROWS).rev() {
        let mut empty = 0u8;
        for col in 0..COLS {
            let cell = state.at(Sq::new(col, row));
            if cell[0].is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            match cell {
                [Some(a), Some(b)] => {
                    out.push('(');
                    piece(state, a, out);
                    piece(state, b, out);
                    out.push(')');
                }
                [Some(a), None] => piece(state, a, out),
                _ => {}
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if row > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push_str(side_name(state.to_move));
    out.push(' ');
    match state.battle {
        Some(b) => out.push_str(&b.at.to_string()),
        None => out.push('-'),
    }
    out.push(' ');
    out.push_str(&result_text(state));
}

fn result_text(state: &State) -> String {
    let won = |w: Side, how: &str| format!("{}:{how}", side_name(w));
    match (state.outcome, state.end) {
        (Outcome::Won(w), End::Base(_)) => won(w, "base"),
        (Outcome::Won(w), End::Resigned(_)) => won(w, "resignation"),
        (Outcome::Won(w), End::NoFreePiece(_)) => won(w, "no-free-piece"),
        (Outcome::Draw, _) => "draw:no-free-piece".into(),
        _ => "*".into(),
    }
}

/// Read a position written by [`write`].
pub fn parse(text: &str) -> Result<State, PositionParseError> {
    let [board, side, battle, result] = position_fields(text, FIELDS)?;
    let mut state = State::empty();
    read_board(&board, &mut state)?;
    state.to_move = match side.value {
        "Blue" => BLUE,
        "Red" => RED,
        _ => return Err(side.whole("the side to move is Blue or Red")),
    };
    read_result(&result, &mut state)?;
    read_battle(&battle, &mut state)?;
    check_pairs(&board, &state)?;
    Ok(state)
}

fn read_board(field: &PositionField<'_>, state: &mut State) -> Result<(), PositionParseError> {
    let rows: Vec<&str> = field.value.split('/').collect();
    if rows.len() != usize::from(ROWS) {
        return Err(field.whole(format!(
            "the board has 8 rows separated by `/`, row 8 first: this has {}",
            rows.len()
        )));
    }
    let mut seen = [false; 20];
    let mut row_start = field.start;
    for (i, row_text) in rows.iter().enumerate() {
        let row = ROWS - 1 - i as u8;
        let mut col = 0u8;
        let mut r = *row_text;
        while !r.is_empty() {
            let here = row_start + (row_text.len() - r.len());
            let err =
                |len: usize, why: String| PositionParseError::within(field.text, here, len, why);
            if let Some(n) = leading_number(r) {
                let digits = r.len() - r.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                if n == 0 || usize::from(col) + usize::from(n) > usize::from(COLS) {
                    return Err(err(
                        digits,
                        format!(
                            "row {} has 10 squares: this count runs past column j",
                            row + 1
                        ),
                    ));
                }
                col += n;
                r = &r[digits..];
                continue;
            }
            if col >= COLS {
                return Err(err(
                    1,
                    format!("row {} has 10 squares: this runs past column j", row + 1),
                ));
            }
            let (ids, used) = read_square(r).ok_or_else(|| err(1, TOKENS.into()))?;
            for (id, kind) in ids.into_iter().flatten() {
                let n = usize::from(id.side().0) * usize::from(COLS) + usize::from(id.origin());
                if std::mem::replace(&mut seen[n], true) {
                    return Err(err(
                        used,
                        format!(
                            "the piece that started on {} stands twice on the board",
                            id.slot()
                        ),
                    ));
                }
                state.put(id, Sq::new(col, row));
                if let Some(k) = kind {
                    state.learn(id, k, true);
                }
            }
            col += 1;
            r = &r[used..];
        }
        if col != COLS {
            return Err(PositionParseError::within(
                field.text,
                row_start,
                row_text.len(),
                format!("row {} has 10 squares: this one has {col}", row + 1),
            ));
        }
        row_start += row_text.len() + 1;
    }
    Ok(())
}

const TOKENS: &str = "expected a piece such as bc or bcR (side b or r, the column it started \
                      on, a to j, and its identity R, P or S once opened), two pieces in \
                      brackets, or a count of empty squares";

/// The count of empty squares at the start of `r`, if it starts with a
/// digit (`u8::MAX` for a number too long to be one).
fn leading_number(r: &str) -> Option<u8> {
    let digits = &r[..r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len())];
    match digits.len() {
        0 => None,
        1 | 2 => digits.parse().ok(),
        _ => Some(u8::MAX),
    }
}

type Token = (PieceId, Option<Kind>);

/// One piece token at the start of `r`, and its length.
fn read_piece(r: &str) -> Option<(Token, usize)> {
    let b = r.as_bytes();
    let side = match b.first()? {
        b'b' => BLUE,
        b'r' => RED,
        _ => return None,
    };
    let col = *b.get(1)?;
    if !(b'a'..b'a' + COLS).contains(&col) {
        return None;
    }
    let id = PieceId::new(side, col - b'a');
    match b
        .get(2)
        .and_then(|&c| Kind::from_letter(char::from(c)).filter(|_| c.is_ascii_uppercase()))
    {
        Some(k) => Some(((id, Some(k)), 3)),
        None => Some(((id, None), 2)),
    }
}

/// A square's content at the start of `r`: one piece, or two in brackets.
fn read_square(r: &str) -> Option<([Option<Token>; 2], usize)> {
    if let Some(inner) = r.strip_prefix('(') {
        let (a, la) = read_piece(inner)?;
        let (b, lb) = read_piece(&inner[la..])?;
        inner[la + lb..]
            .starts_with(')')
            .then_some(([Some(a), Some(b)], la + lb + 2))
    } else {
        let (a, la) = read_piece(r)?;
        Some(([Some(a), None], la))
    }
}

fn read_battle(field: &PositionField<'_>, state: &mut State) -> Result<(), PositionParseError> {
    if field.value == "-" {
        return Ok(());
    }
    let mut chars = field.value.chars();
    let sq = match (chars.next(), chars.as_str().parse::<u32>()) {
        (Some(c), Ok(row)) => Sq::from_name(c, row),
        _ => None,
    }
    .filter(|_| {
        field
            .value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() && !c.is_ascii_uppercase())
    })
    .ok_or_else(|| field.whole("the battle is `-` or a square such as e5"))?;
    let [Some(defender), Some(attacker)] = state.at(sq) else {
        return Err(field.whole(format!(
            "{sq} holds no two pieces: no battle can wait there"
        )));
    };
    if attacker.side() != opponent(state.to_move) {
        return Err(field.whole(format!(
            "the battle on {sq} waits for {}'s opening: the attacker (the second piece) is {}'s",
            side_name(state.to_move),
            side_name(opponent(state.to_move))
        )));
    }
    // While the game goes on, a battle waits between turns only for the
    // defender's identity; once it has ended (a resignation or a forfeit
    // before the battle was decided), the audit may have opened both.
    if !state.outcome.is_over() {
        if state.public_kind(attacker).is_none() {
            return Err(field.whole(format!(
                "the attacker on {sq} is not opened: it opens on its own line, so between turns a battle waits only for the defender"
            )));
        }
        if state.public_kind(defender).is_some() {
            return Err(field.whole(format!(
                "the defender on {sq} is opened: the battle would have been decided then"
            )));
        }
    }
    state.battle = Some(Battle {
        at: sq,
        attacker,
        defender,
    });
    Ok(())
}

fn read_result(field: &PositionField<'_>, state: &mut State) -> Result<(), PositionParseError> {
    let v = field.value;
    if v == "*" {
        return Ok(());
    }
    if v == "draw:no-free-piece" {
        state.finish(None, End::NoFreePieces);
        return Ok(());
    }
    let bad = || {
        field.whole(
            "the result is `*`, a winner and how (Blue:base, Blue:resignation, \
             Blue:no-free-piece) or draw:no-free-piece",
        )
    };
    let (who, how) = v.split_once(':').ok_or_else(bad)?;
    let w = match who {
        "Blue" => BLUE,
        "Red" => RED,
        _ => return Err(bad()),
    };
    let l = opponent(w);
    let end = match how {
        "base" => End::Base(w),
        "resignation" => End::Resigned(l),
        "no-free-piece" => End::NoFreePiece(l),
        _ => return Err(bad()),
    };
    state.finish(Some(w), end);
    Ok(())
}

/// Two pieces on a square are a Blue and a Red: a battle (the field says
/// where) or a stalemate of two opened, alike pieces.
fn check_pairs(field: &PositionField<'_>, state: &State) -> Result<(), PositionParseError> {
    for sq in Sq::all() {
        let [Some(a), Some(b)] = state.at(sq) else {
            continue;
        };
        if a.side() == b.side() {
            return Err(field.whole(format!("{sq} holds two {} pieces", side_name(a.side()))));
        }
        if state.battle.is_some_and(|x| x.at == sq) {
            continue;
        }
        match (state.public_kind(a), state.public_kind(b)) {
            (Some(x), Some(y)) if x == y => {}
            _ => {
                return Err(field.whole(format!(
                    "{sq} holds two pieces: a stalemate's are opened and alike (or the battle field names {sq})"
                )))
            }
        }
    }
    Ok(())
}
