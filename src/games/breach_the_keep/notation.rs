//! Reading and writing actions.
//!
//! ```text
//! action  = breach | move
//! move    = origin { "-" cell } [ "apart" ]   (1 to 4 steps)
//! origin  = "Z" | cell [ ":" ("1" | "2") ]
//! breach  = "breach" ( "home" | cell ) { "+" cell } [ "apart" ]   (at most 3 "+")
//! cell    = a letter a-g and a row, e.g. d3 (any case)
//! ```
//! Whitespace is allowed around `-`, `:` and `+`, and needed after
//! `breach` and before `apart` (a single entering a Keep stays apart from
//! the single there instead of combining). Read by one nom parser
//! ([`parse`]), its productions named after the lines above.

use super::action::{Action, Breach, Kind, Move};
use super::board::{cell_at, is_keep, push_name, COL_LEN, HOME, ZONE};
use super::rules::resolve;
use super::state::Pos;
use nom::branch::alt;
use nom::character::complete::{char, digit1, multispace0, one_of, satisfy};
use nom::combinator::{map, opt, value};
use nom::sequence::preceded;
use nom::Parser;

use crate::game::ActionParseError;
use crate::games::reader::{ascii_no_case, kw, word_len_until, Fault, Reader, Res};

const EXPECTED_ACTION: &str =
    "expected an action: a path such as d1-d2-d3 or Z-d1-d2, or a breach such as breach c3";

/// Byte length of the word an error underlines at the start of `rest`.
/// Here a word ends only at white space or at the separators of this
/// notation (`-`, `+`, `:`, `,`), not at any punctuation as the shared
/// [`crate::games::reader::word_len`] has it: that is how this game has
/// always underlined, and its errors stay as they are.
fn word_len(rest: &str) -> usize {
    word_len_until(rest, |c| {
        c.is_whitespace() || matches!(c, '-' | '+' | ':' | ',')
    })
}

/// `cell`: a column letter `a`-`g` (any case) and the ASCII digits after
/// it, naming a cell of the board; where no such word starts, the failure
/// `expected`, and where it names no cell, why not.
fn cell<'t>(r: &Reader<'t>, expected: &str, i: &'t str) -> Res<'t, u8> {
    let letter = satisfy(|c| matches!(c, 'a'..='g' | 'A'..='G'));
    let (after, (letter, digits)) = r.expect((letter, digit1).parse(i), i, expected)?;
    let col = letter.to_ascii_lowercase() as u8 - b'a';
    let row: u32 = digits.parse().unwrap_or(u32::MAX);
    match cell_at(col, row) {
        Some(c) => Ok((after, c)),
        None => {
            let cols = if col % 2 == 0 {
                "a, c, e and g"
            } else {
                "b, d and f"
            };
            Err(r.fail_with(ActionParseError::new(
                r.off(i),
                1 + digits.len(),
                format!(
                    "{}{} is not a cell: columns {cols} have cells 1 to {}",
                    letter.to_ascii_lowercase(),
                    digits,
                    COL_LEN[col as usize]
                ),
            )))
        }
    }
}

/// `"apart"`, which ends the action: only white space may follow it.
fn apart<'t>(r: &Reader<'t>, i: &'t str) -> Res<'t, bool> {
    let (after, _) = kw("apart")(i)?;
    let (rest, _) = multispace0(after)?;
    if rest.is_empty() {
        Ok((rest, true))
    } else {
        Err(r.fail(rest, "`apart` ends the action: nothing may follow it"))
    }
}

/// The raw shape of a move before it is resolved against the position.
struct RawMove {
    from: u8,
    suffix: Option<char>,
    steps: [u8; 4],
    len: u8,
    apart: bool,
}

/// `breach = "breach" ( "home" | cell ) { "+" cell } [ "apart" ]`, at
/// most three `+`, white space after `breach`.
fn breach<'t>(r: &Reader<'t>, i: &'t str) -> Res<'t, Breach> {
    let (i, _) = ascii_no_case("breach")(i)?;
    if !(i.is_empty() || i.starts_with(char::is_whitespace)) {
        return Err(r.fail(i, "expected a space after `breach`"));
    }
    let target = |i| {
        let keep = |i| {
            cell(
                r,
                "expected a Keep such as c3, or `home`, after `breach`",
                i,
            )
        };
        alt((value(HOME, kw("home")), keep)).parse(i)
    };
    let (mut rest, target) = preceded(multispace0, target).parse(i)?;
    let moving_in = |i| {
        let plus = |i| {
            let reason = "expected `+` and a cell such as d2 (a stack moving in)";
            r.expect(char('+').parse(i), i, reason)
        };
        let stack = |i| cell(r, "expected a cell such as d2 after `+`", i);
        preceded(plus, preceded(multispace0, stack)).parse(i)
    };
    let mut ins = [0u8; 3];
    let mut n = 0usize;
    loop {
        let (at, _) = multispace0(rest)?;
        if at.is_empty() {
            return Ok((at, Breach::new(target, &ins[..n])));
        }
        if let (end, Some(_)) = opt(|i| apart(r, i)).parse(at)? {
            return Ok((end, Breach::new(target, &ins[..n]).apart()));
        }
        let (after, c) = moving_in(at)?;
        if n == 3 {
            let e = "a breach moves in at most three stacks";
            return Err(r.fail_with(r.err_between(at, after, e)));
        }
        ins[n] = c;
        n += 1;
        rest = after;
    }
}

/// `move = origin [ ":" ("1" | "2") ] { "-" cell } [ "apart" ]`, one to
/// four steps, `origin = "Z" | cell`, no mark after `Z`.
fn raw_move<'t>(r: &Reader<'t>, i: &'t str) -> Res<'t, RawMove> {
    let mut origin = alt((value(ZONE, one_of("zZ")), |i| cell(r, EXPECTED_ACTION, i)));
    let (after_origin, from) = origin.parse(i)?;
    let (at, _) = multispace0(after_origin)?;
    let (mut rest, suffix) = match char::<_, Fault>(':').parse(at) {
        Err(_) => (after_origin, None),
        Ok(_) if from == ZONE => {
            let e = "the pieces in the end zone are singles: write Z-d1-d2 without `:`";
            return Err(r.fail(at, e));
        }
        Ok((after_colon, _)) => {
            let (at, _) = multispace0(after_colon)?;
            let e = "expected 1 (one piece of the double) or 2 (the whole double) after `:`";
            let (rest, mark) = r.expect(one_of("12").parse(at), at, e)?;
            (rest, Some(mark))
        }
    };
    let step = |i| {
        let dash = |i| {
            r.expect(
                char('-').parse(i),
                i,
                "expected `-` and the next cell of the path",
            )
        };
        let to = |i| cell(r, "expected a cell such as d3 after `-`", i);
        preceded(dash, preceded(multispace0, to)).parse(i)
    };
    let mut steps = [0u8; 4];
    let mut len = 0usize;
    let mut apart_ends = false;
    loop {
        let (at, _) = multispace0(rest)?;
        if at.is_empty() {
            break;
        }
        if len > 0 {
            if let (end, Some(_)) = opt(|i| apart(r, i)).parse(at)? {
                (rest, apart_ends) = (end, true);
                break;
            }
        }
        let (after, c) = step(at)?;
        if len == 4 {
            let e = "a path has at most four steps (a double moves four)";
            return Err(r.fail_with(r.err_between(at, after, e)));
        }
        steps[len] = c;
        len += 1;
        rest = after;
    }
    if len == 0 {
        return Err(r.fail(rest, "expected `-` and the cell the piece moves to"));
    }
    let raw = RawMove {
        from,
        suffix,
        steps,
        len: len as u8,
        apart: apart_ends,
    };
    Ok((rest, raw))
}

/// An action as written: a breach, or a move not yet resolved.
enum Written {
    Breach(Breach),
    Move(RawMove),
}

/// What moves when the origin is written without `:1`/`:2`: the stack
/// there (in a Keep: a single if one may still move, else a double).
fn default_kind(pos: &Pos, from: u8) -> Kind {
    if from == ZONE {
        return Kind::Single;
    }
    let c = pos.cells[from as usize];
    if is_keep(from) {
        if c.free_singles() > 0 {
            Kind::Single
        } else if c.free_doubles() > 0 || (c.s == 0 && c.d > 0) {
            Kind::Double
        } else {
            Kind::Single
        }
    } else if c.d > 0 {
        Kind::Double
    } else {
        Kind::Single
    }
}

/// Read one action; a path given by its two ends is resolved to the full
/// path when a legal one exists.
///
/// One nom parser reads every form and makes every error; on a move as
/// records write it (`d1-d2-d3`, `c3:1-d3 apart`) it allocates nothing.
pub fn parse(pos: &Pos, text: &str) -> Result<Action, ActionParseError> {
    if text.is_empty() {
        return Err(ActionParseError::new(0, 0, EXPECTED_ACTION));
    }
    let r = Reader::with_words(text, word_len);
    let written = alt((
        map(|i| breach(&r, i), Written::Breach),
        map(|i| raw_move(&r, i), Written::Move),
    ))
    .parse(text);
    let raw = match r.finish(written, EXPECTED_ACTION)? {
        Written::Breach(b) => return Ok(Action::Breach(b)),
        Written::Move(raw) => raw,
    };
    if raw.suffix == Some('2') && raw.from != ZONE && !is_keep(raw.from) {
        // Only a Keep can hold singles beside a double; elsewhere the stack
        // is one piece or one double, written without a mark. (Found by
        // fuzzing: `d3:2-...` did not read back as itself.)
        let at = text.find(':').unwrap_or(0);
        let cell = text[..at].trim().to_ascii_lowercase();
        return Err(ActionParseError::new(
            at,
            2,
            format!(
                "`:2` marks a double leaving a Keep; on an open cell the double moves as `{cell}-...`"
            ),
        ));
    }
    Ok(resolve_raw(pos, raw))
}

/// The move `raw` writes: its kind told by its mark or by what stands on
/// its origin, and a path given by its two ends resolved to the full path
/// when a legal one exists.
fn resolve_raw(pos: &Pos, raw: RawMove) -> Action {
    let kind = match raw.suffix {
        Some('1') => Kind::Half,
        Some(_) => Kind::Double,
        None => default_kind(pos, raw.from),
    };
    if raw.len == 1 {
        if let Some(mv) = resolve(pos, raw.from, kind, raw.steps[0]) {
            return Action::Move(Move {
                apart: raw.apart,
                ..mv
            });
        }
    }
    Action::Move(Move {
        from: raw.from,
        kind,
        len: raw.len,
        steps: raw.steps,
        apart: raw.apart,
    })
}

/// Append the canonical text of `action`.
pub fn write(action: &Action, out: &mut String) {
    match action {
        Action::Move(mv) => {
            if mv.from == ZONE {
                out.push('Z');
            } else {
                push_name(out, mv.from);
                match mv.kind {
                    Kind::Half => out.push_str(":1"),
                    Kind::Double if is_keep(mv.from) => out.push_str(":2"),
                    _ => {}
                }
            }
            for &c in mv.path() {
                out.push('-');
                push_name(out, c);
            }
            if mv.apart {
                out.push_str(" apart");
            }
        }
        Action::Breach(b) => {
            out.push_str("breach ");
            if b.target == HOME {
                out.push_str("home");
            } else {
                push_name(out, b.target);
            }
            for &c in b.ins() {
                out.push_str(" +");
                push_name(out, c);
            }
            if b.apart {
                out.push_str(" apart");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::game::{Game, Undrawn};
    use crate::games::breach_the_keep::{BreachTheKeep, State};
    use crate::selfplay::SplitMix;

    type G = BreachTheKeep;

    /// Positions of a random game, a few turns apart: stacks of both
    /// sides in Keeps and on open cells, end zones emptying.
    fn positions() -> &'static [Pos] {
        static POSITIONS: std::sync::OnceLock<Vec<Pos>> = std::sync::OnceLock::new();
        POSITIONS.get_or_init(random_game)
    }

    fn random_game() -> Vec<Pos> {
        let sides = [crate::game::Side(0), crate::game::Side(1)];
        let setup = crate::game::Setup {
            sides: &sides,
            tags: &[],
        };
        let mut s = G::new_game(&setup).unwrap();
        let mut rng = SplitMix::new(7);
        let mut actions = Vec::new();
        let mut out = Vec::new();
        for turn in 0..60 {
            if G::outcome(&s).is_over() {
                break;
            }
            G::begin_turn(&mut s, &mut Undrawn).unwrap();
            loop {
                actions.clear();
                G::legal_actions(&s, &mut actions);
                let Some(&a) = actions.get(rng.below(actions.len().max(1))) else {
                    break;
                };
                G::apply(&mut s, a).unwrap();
                if turn % 6 == 0 {
                    out.push(s.pos);
                }
            }
            if !G::outcome(&s).is_over() {
                G::end_turn(&mut s).unwrap();
            }
        }
        out
    }

    /// Pieces of action text, right and wrong, to be strung together.
    const TOKENS: &[&str] = &[
        "Z",
        "z",
        "d1",
        "d2",
        "D3",
        "c3",
        "e3",
        "e4",
        "a1",
        "b2",
        "c2",
        "g9",
        "h1",
        "d10",
        "d99999999999",
        "-",
        "-",
        "-",
        ":1",
        ":2",
        ":3",
        ":",
        " ",
        " apart",
        "apart",
        "APART",
        "breach",
        "home",
        "+",
        "x",
        "é",
        "",
    ];

    /// Any string of tokens, or one shaped like a move with each of its
    /// parts right or a little wrong.
    fn text() -> impl Strategy<Value = String> {
        let pick = |t: &'static [&'static str]| prop::sample::select(t);
        let shaped = (
            pick(&["Z", "z", "d1", "c3", "e3", "b2", "D3", "h1", "d10", ""]),
            pick(&["", "", "", ":1", ":2", ":3", " :1", ":"]),
            prop::collection::vec(
                pick(&[
                    "-d1", "-d2", "-d3", "-c3", "-e3", "-e4", "-b2", "- d2", "-h1", "-",
                ]),
                0..6,
            ),
            pick(&[
                "", "", "", " apart", " APART", "apart", "  apart", " ", " apartx",
            ]),
        )
            .prop_map(|(from, mark, path, tail)| format!("{from}{mark}{}{tail}", path.concat()));
        prop_oneof![
            prop::collection::vec(pick(TOKENS), 0..9).prop_map(|t| t.concat()),
            shaped,
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 5_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// Whatever the one parser reads, its canonical text reads back
        /// as the same action; whatever it refuses, its error lies in the
        /// text, on character boundaries.
        #[test]
        fn a_read_action_reads_back_and_an_error_lies_in_the_text(text in text()) {
            for pos in positions() {
                match parse(pos, &text) {
                    Ok(a) => {
                        let mut out = String::new();
                        write(&a, &mut out);
                        prop_assert_eq!(parse(pos, &out), Ok(a), "{:?} wrote {:?}", text, out);
                    }
                    Err(e) => {
                        prop_assert!(e.offset + e.len <= text.len(), "{:?}: {:?}", text, e);
                        prop_assert!(text.is_char_boundary(e.offset), "{:?}", text);
                        prop_assert!(text.is_char_boundary(e.offset + e.len), "{:?}", text);
                    }
                }
            }
        }
    }

    /// Every legal action, written as records write it, reads back as
    /// itself.
    #[test]
    fn every_written_action_reads_back_as_itself() {
        let mut read = 0;
        for pos in positions() {
            let s = State::from_pos(*pos);
            let mut actions = Vec::new();
            G::legal_actions(&s, &mut actions);
            for a in actions {
                let text = crate::game::action_text::<G>(&a);
                assert_eq!(parse(pos, &text), Ok(a), "{text}");
                read += 1;
            }
        }
        assert!(read > 100, "only {read} actions read");
    }
}
