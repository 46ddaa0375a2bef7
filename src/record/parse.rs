//! The record grammar (see `docs/record.md`), parsed with nom over the
//! clean text of a [`Source`], keeping byte offsets for every piece.

use std::borrow::Cow;

use nom::bytes::complete::take_while1;
use nom::character::complete::char;
use nom::{IResult, Parser};

use super::source::{trim, trim_end, trim_start};
use super::{
    hex_digits, DrawItem, Item, ItemKind, LineKind, ParseError, Proof, ProofKind, Record, Source,
    Span, Tag, Turn,
};

/// Most turns a record may hold (each player's chain has 10,000 links).
pub const MAX_TURNS: usize = 50_000;

/// The most items (actions, facts, `pass`, `resign`) on one turn line: far
/// more than any game's turn, few enough to keep memory small.
pub const MAX_ITEMS: usize = 200;

/// The most tags a header may hold: far more than any record needs
/// (sides, keys, commitments, options and a few more), few enough that
/// a header of hostile size is refused at its first tag past them.
pub const MAX_TAGS: usize = 1000;

/// The longest action, in bytes (a Castle Danger path of 32 steps takes
/// under 100).
pub const MAX_ACTION_LEN: usize = 300;

fn is_space(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\n'
}

fn offset(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

/// `Name` of a tag: a letter, then letters, digits, `_`.
fn tag_name(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_').parse(i)
}

/// Parse one tag starting at `[`; returns the rest, the tag.
fn header_tag<'a>(text: &'a str, i: &'a str) -> Result<(&'a str, Tag), ParseError> {
    let start = offset(text, i);
    let err = |at: &str, len: usize, msg: &str| {
        let s = offset(text, at);
        ParseError::new(Span::new(s, s + len.max(1)), msg)
    };
    let (i, _) = char::<_, ()>('[')
        .parse(i)
        .map_err(|_| err(i, 1, "expected `[`"))?;
    let i = i.trim_start_matches(is_space);
    let (i, name) = tag_name(i).map_err(|_| {
        err(
            i,
            1,
            "expected a tag name after `[`, as in [Game \"castle-danger\"]",
        )
    })?;
    if !name.as_bytes()[0].is_ascii_alphabetic() {
        return Err(err(name, name.len(), "a tag name starts with a letter"));
    }
    let i = i.trim_start_matches(is_space);
    let Some(body) = i.strip_prefix('"') else {
        return Err(err(
            i,
            1,
            &format!("expected the quoted value of tag {name}, as in [{name} \"...\"]"),
        ));
    };
    let mut value = String::new();
    let mut chars = body.char_indices();
    let end = loop {
        match chars.next() {
            None => {
                return Err(err(
                    &text[start..],
                    1,
                    &format!("the value of tag {name} has no closing `\"`"),
                ))
            }
            Some((k, '"')) => break k,
            Some((k, '\\')) => match chars.next() {
                Some((_, c @ ('"' | '\\'))) => value.push(c),
                _ => {
                    return Err(err(
                        &body[k..],
                        2,
                        "only \\\" and \\\\ are escapes in a tag value",
                    ))
                }
            },
            Some((_, '\n')) => {
                return Err(err(
                    &text[start..],
                    1,
                    &format!("the value of tag {name} has no closing `\"` on its line"),
                ))
            }
            Some((_, c)) => value.push(c),
        }
    };
    let value_start = offset(text, body);
    let rest = body[end + 1..].trim_start_matches(is_space);
    let Some(rest) = rest.strip_prefix(']') else {
        return Err(err(rest, 1, &format!("expected `]` to close tag {name}")));
    };
    let span = Span::new(start, offset(text, rest));
    Ok((
        rest,
        Tag {
            name: name.to_owned(),
            value,
            span,
            value_span: Span::new(value_start, value_start + end),
        },
    ))
}

/// `N. Side:` at the start of a turn line; returns (rest, number, side).
/// Read byte by byte (this runs once a line).
fn turn_head(i: &str) -> Option<(&str, (&str, &str))> {
    let digits = i.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let rest = i[digits..].strip_prefix('.')?;
    let (rest, side) = side_head(skip_blanks(rest))?;
    Some((rest, (&i[..digits], side)))
}

/// `Side:`; returns (rest, side). The side is letters and digits (of
/// any script), `-` and `_`; spaces and tabs may stand before the colon.
fn side_head(i: &str) -> Option<(&str, &str)> {
    let bytes = i.as_bytes();
    let mut len = 0;
    while let Some(&b) = bytes.get(len) {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            len += 1;
        } else if b.is_ascii() {
            break;
        } else {
            // A character of another script starts here: every byte
            // before it was a whole character.
            match i[len..].chars().next() {
                Some(c) if c.is_alphanumeric() => len += c.len_utf8(),
                _ => break,
            }
        }
    }
    if len == 0 {
        return None;
    }
    let rest = skip_blanks(&i[len..]).strip_prefix(':')?;
    Some((rest, &i[..len]))
}

/// The end of the line of `text` that holds byte `from`: its line feed,
/// or the end of the text.
fn end_of_line(text: &str, from: usize) -> usize {
    find_any(&text.as_bytes()[from..], [b'\n']).map_or(text.len(), |k| from + k)
}

/// `0x01` in every byte of a word.
const ONES: u64 = u64::from_le_bytes([1; 8]);

/// `0x80` in every byte of a word.
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// Where the first byte of `bytes` that is one of `targets` stands: eight
/// bytes are passed over at once (a line of proofs is long), the last
/// few a byte at a time.
fn find_any<const N: usize>(bytes: &[u8], targets: [u8; N]) -> Option<usize> {
    let mut k = 0;
    for chunk in bytes.chunks_exact(8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let found = targets.iter().fold(0, |f, &t| f | equal_in(word, t));
        if found != 0 {
            return Some(k + found.trailing_zeros() as usize / 8);
        }
        k += 8;
    }
    bytes[k..]
        .iter()
        .position(|b| targets.contains(b))
        .map(|p| k + p)
}

/// The high bit of each byte of `word` that is not printable ASCII (a
/// space to `~`): the lowest one set is the first such byte. (A byte
/// under 0x20 borrows into its high bit, one of 0x80 or more has it,
/// 0x7f reaches it when one is added; a borrow or a carry comes only
/// from a byte set itself.)
fn unprintable_in(word: u64) -> u64 {
    (word.wrapping_sub(ONES * 0x20) | word | word.wrapping_add(ONES)) & HIGHS
}

/// The high bit of each byte of `word` that is `byte`, and perhaps of
/// bytes above such a one: the lowest one set is the first. (`x -
/// 0x01..` borrows into the high bit of a byte of `x` that is zero, and
/// of no byte above it but when a lower one is, where `x` is nonzero
/// only at bytes other than `byte`.)
fn equal_in(word: u64, byte: u8) -> u64 {
    let x = word ^ ONES.wrapping_mul(u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// Where the line of `text` that holds byte `from` ends (its line feed,
/// or the end of the text), and whether it is plain from `from` on:
/// printable ASCII (spaces, no tab) without `{` or `;`. Eight bytes are
/// looked at at once, past the line's end where the text goes on.
fn scan_line(text: &str, from: usize) -> (usize, Plain) {
    let bytes = text.as_bytes();
    let mut at = from;
    loop {
        let word = match bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
            Some(chunk) => u64::from_le_bytes(*chunk),
            None => {
                // The text's last bytes, spaces after them.
                let mut last = [b' '; 8];
                let tail = bytes.get(at..).unwrap_or_default();
                last[..tail.len()].copy_from_slice(tail);
                u64::from_le_bytes(last)
            }
        };
        let odd = unprintable_in(word) | equal_in(word, b'{') | equal_in(word, b';');
        if odd != 0 {
            let k = at + odd.trailing_zeros() as usize / 8;
            return match bytes.get(k) {
                Some(b'\n') => (k, Plain::Yes),
                Some(_) => (end_of_line(text, k), Plain::No),
                None => (bytes.len(), Plain::Yes),
            };
        }
        if at + 8 >= bytes.len() {
            return (bytes.len(), Plain::Yes);
        }
        at += 8;
    }
}

/// Where the first `byte` of `bytes` at `span` stands: eight bytes are
/// looked at at once, past the span's end where `bytes` go on (most
/// items are shorter than a word).
fn find_in(bytes: &[u8], span: Span, byte: u8) -> Option<usize> {
    let mut at = span.start;
    while at < span.end {
        let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) else {
            let k = bytes[at..span.end].iter().position(|&b| b == byte)?;
            return Some(at + k);
        };
        let found = equal_in(u64::from_le_bytes(*chunk), byte);
        if found != 0 {
            let k = at + found.trailing_zeros() as usize / 8;
            return (k < span.end).then_some(k);
        }
        at += 8;
    }
    None
}

/// Whether a line is plain ([`scan_line`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
enum Plain {
    /// Printable ASCII without `{` or `;`.
    Yes,
    /// Anything else.
    #[default]
    No,
}

/// `i` after its leading spaces and tabs.
fn skip_blanks(i: &str) -> &str {
    let n = i.bytes().take_while(|b| *b == b' ' || *b == b'\t').count();
    &i[n..]
}

/// The head of a turn as a player may type it in front of the actions,
/// `12. Blue:` or `Blue:`: (the number as written, if any, the side as
/// written, the text after the colon). `None` when the text starts with
/// neither.
pub fn turn_prefix(text: &str) -> Option<(Option<&str>, &str, &str)> {
    let text = text.trim_start();
    if let Some((rest, (number, side))) = turn_head(text) {
        return Some((Some(number), side, rest));
    }
    side_head(text).map(|(rest, side)| (None, side, rest))
}

/// Pieces of a turn's body between comments, as spans of the clean text,
/// and the items they split into: kept from turn to turn, so that a turn
/// allocates none of them.
#[derive(Default, Clone)]
struct BodyScan {
    pieces: Vec<Span>,
    /// The items' parts in order: an item may run over comments and
    /// lines, so it may have several.
    parts: Vec<Span>,
    /// Each item's parts, as a range of `parts`.
    items: Vec<(usize, usize)>,
    /// [`Plain::Yes`] when the first piece, if any, is the rest of a
    /// plain turn line ([`scan_line`]): printable ASCII.
    first: Plain,
}

/// Read the record in `source`.
pub fn parse(source: &Source) -> Result<Record<'_>, ParseError> {
    let text = source.text();
    let (tags, header_end) = parse_header(text)?;
    let turns = parse_log(text, header_end)?;
    Ok(Record {
        tags,
        turns,
        header_end,
    })
}

/// The header of the record in `text`: its tags, and where the log
/// starts (after white space and `;` comments).
pub(crate) fn parse_header(text: &str) -> Result<(Vec<Tag>, usize), ParseError> {
    let mut tags = Vec::new();
    let mut i = text.trim_start_matches(is_space);
    // Header: tags separated by white space; `;` comments allowed between.
    while i.starts_with('[') {
        let (rest, tag) = header_tag(text, i)?;
        if tags.len() == MAX_TAGS {
            return Err(ParseError::new(
                tag.span,
                format!("a header holds at most {MAX_TAGS} tags"),
            ));
        }
        tags.push(tag);
        i = skip_blank_and_line_comments(rest);
    }
    Ok((tags, offset(text, i)))
}

/// Read log lines without a header, as a player types a turn for `move`
/// (`12. Blue: Kc1-b1`): the turns read, and the text after the last one
/// (empty when the text holds only turns).
pub fn parse_lines(source: &Source) -> Result<(Vec<Turn<'_>>, &str), ParseError> {
    let text = source.text();
    let turns = parse_log(text, 0)?;
    let end = turns.last().map_or(0, |t| t.lines_end.min(text.len()));
    Ok((turns, &text[end..]))
}

fn skip_blank_and_line_comments(mut i: &str) -> &str {
    loop {
        i = i.trim_start_matches(is_space);
        if i.starts_with(';') {
            i = i.find('\n').map_or("", |n| &i[n..]);
        } else {
            return i;
        }
    }
}

/// Find the end of a `{...}` comment starting at `at` (on `{`); `None`
/// when the text holds no `}` after it.
fn comment_end(text: &str, at: usize) -> Option<usize> {
    text[at..].find('}').map(|k| at + k + 1)
}

/// The error for a `{` comment that is never closed.
fn unclosed_comment(at: usize) -> ParseError {
    ParseError::new(
        Span::new(at, at + 1),
        "this comment `{` is never closed with `}`",
    )
}

/// Whether the text given to [`read_turns`] is the whole log, or a part
/// of it that more text follows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Rest {
    /// The text ends where the input does.
    None,
    /// More lines follow: a turn still open at the end of the text may
    /// go on in them.
    Follows,
}

/// Where [`read_turns`] stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum LogEnd {
    /// The log is over: the text ended, or the log did (a signature, text
    /// after it).
    Over,
    /// The text ended inside a turn, which may go on in the text that
    /// follows: read again from this line start, with more.
    From(usize),
    /// The text ended inside the `{` comment at byte `open`, which may
    /// be closed in the text that follows: read again from the line
    /// start `from`, with more. The text after the line of `open` is all
    /// inside the comment (it holds no `}`), and need not be read again.
    Comment { from: usize, open: usize },
}

/// What [`read_turns`] keeps track of for one line.
struct LogState<'a> {
    /// The turn being read (while `open`), built in place: its lists are
    /// kept from turn to turn.
    turn: Turn<'a>,
    /// Where the line of the turn being read starts, while one is.
    open: Option<usize>,
    /// The body pieces of the turn being read.
    scan: BodyScan,
    /// Turns finished so far (in this text and before it).
    count: usize,
    after_blank: bool,
}

/// The most turns [`parse_log`] reserves room for before it reads any.
const FIRST_ROOM: usize = 4096;

fn parse_log(text: &str, start: usize) -> Result<Vec<Turn<'_>>, ParseError> {
    // Room for a turn a line, once: no more than a record may hold, and
    // no more than `FIRST_ROOM` turns at first, so that a short record
    // with many comment lines does not reserve room for thousands of
    // turns it does not have (past it, the list grows as lists do).
    let lines = text.as_bytes()[start.min(text.len())..]
        .chunks(255)
        .map(|c| usize::from(c.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'))))
        .sum::<usize>();
    let mut turns = Vec::with_capacity(lines.min(MAX_TURNS).min(FIRST_ROOM) + 1);
    read_turns(text, start, Rest::None, 0, &mut |turn| {
        turns.push(take_turn(turn))
    })?;
    Ok(turns)
}

/// The turn read into `turn`, its lists taken along (`turn` keeps empty
/// ones).
fn take_turn<'a>(turn: &mut Turn<'a>) -> Turn<'a> {
    Turn {
        items: std::mem::take(&mut turn.items),
        proofs: std::mem::take(&mut turn.proofs),
        ..*turn
    }
}

/// Read the log lines of `text` from `start`, giving each turn to `each`
/// as it is finished; `before` turns were read before this text (the most
/// a record holds counts them). With [`Rest::Follows`], a turn (or a
/// comment) still open at the end of the text is not finished: where its
/// line starts is returned, to be read again with the text that follows.
/// Each turn is read into the same `Turn` and handed to `each` to look
/// at or take from: a turn whose lists `each` leaves in place reuses them
/// (cleared), so that it allocates nothing.
pub(crate) fn read_turns<'a>(
    text: &'a str,
    start: usize,
    rest: Rest,
    before: usize,
    each: &mut dyn FnMut(&mut Turn<'a>),
) -> Result<LogEnd, ParseError> {
    let mut state = LogState {
        turn: empty_turn(),
        open: None,
        scan: BodyScan::default(),
        count: before,
        after_blank: true,
    };
    let mut pos = start;
    let bytes = text.as_bytes();
    while pos < text.len() {
        if bytes[pos] == b'\n' {
            // Empty lines, as many as stand here: each only marks that a
            // blank line came ([`log_line`]).
            while bytes.get(pos) == Some(&b'\n') {
                pos += 1;
            }
            state.after_blank = true;
            continue;
        }
        let (line_end, plain) = scan_line(text, pos);
        match log_line(text, (pos, line_end, plain), &mut state, each)? {
            Next::Line(next) => pos = next,
            Next::LogOver => break,
            Next::Unclosed(open) if rest == Rest::Follows => {
                return Ok(LogEnd::Comment {
                    from: state.open.unwrap_or(pos),
                    open,
                });
            }
            Next::Unclosed(open) => return Err(unclosed_comment(open)),
        }
    }
    match state.open {
        Some(from) if rest == Rest::Follows && pos >= text.len() => Ok(LogEnd::From(from)),
        Some(_) => {
            finish_in_turn(text, &mut state.turn, &mut state.scan)?;
            each(&mut state.turn);
            Ok(LogEnd::Over)
        }
        None if rest == Rest::Follows && pos >= text.len() => Ok(LogEnd::From(text.len())),
        None => Ok(LogEnd::Over),
    }
}

/// Where [`log_line`] leaves the reading of a log.
enum Next {
    /// Go on at this byte.
    Line(usize),
    /// The log ended before the line.
    LogOver,
    /// A `{` comment at this byte is not closed in the text.
    Unclosed(usize),
}

/// Before a new turn line (at `line`): finish the turn read so far, if
/// one is open, and hand it on; refuse the new line past the most turns
/// a record may hold.
#[inline]
fn close_turn<'a>(
    text: &'a str,
    state: &mut LogState<'a>,
    each: &mut dyn FnMut(&mut Turn<'a>),
    line: Span,
) -> Result<(), ParseError> {
    if state.open.take().is_some() {
        finish_in_turn(text, &mut state.turn, &mut state.scan)?;
        each(&mut state.turn);
        state.count += 1;
    }
    if state.count >= MAX_TURNS {
        return Err(ParseError::new(
            line,
            format!("a record holds at most {MAX_TURNS} turns"),
        ));
    }
    Ok(())
}

/// Read the log line at `pos..line_end`, `plain` as [`scan_line`] says.
fn log_line<'a>(
    text: &'a str,
    (pos, line_end, plain): (usize, usize, Plain),
    state: &mut LogState<'a>,
    each: &mut dyn FnMut(&mut Turn<'a>),
) -> Result<Next, ParseError> {
    if plain == Plain::Yes {
        if let Some(head) = lean_head(text.as_bytes(), pos) {
            return lean_turn_line(text, (pos, line_end), head, state, each);
        }
    }
    let line = &text[pos..line_end];
    let trimmed = skip_blanks(line);
    let content = pos + (line.len() - trimmed.len());
    if trimmed.is_empty() {
        state.after_blank = true;
        return Ok(Next::Line(line_end + 1));
    }
    if trimmed == "--" || trimmed.starts_with("-- ") {
        return Ok(Next::LogOver); // a signature
    }
    // A line that begins with a digit is a turn line, so that a mangled
    // one is an error, never dropped; but inside a turn, a line of
    // digits not followed by `.` continues it (a long proof value
    // broken over lines, or by a mail client, may start with a digit).
    let setup_line = setup_numbered(trimmed);
    let starts_turn = setup_line
        || trimmed.as_bytes()[0].is_ascii_digit()
            && (state.open.is_none() || state.after_blank || numbered(trimmed));
    let body_from;
    if starts_turn {
        close_turn(text, state, each, Span::new(content, line_end))?;
        let kind = if setup_line {
            LineKind::Setup
        } else {
            LineKind::Turn
        };
        body_from = line_head(text, trimmed, kind, line_end, &mut state.turn)?;
        state.open = Some(pos);
        state.scan.pieces.clear();
        state.scan.first = Plain::No;
    } else if trimmed.starts_with('{') || trimmed.starts_with(';') {
        body_from = content;
    } else if state.open.is_some() && !state.after_blank {
        body_from = content; // a continuation line
    } else {
        return Ok(Next::LogOver); // text after the log: a signature, a reply
    }
    state.after_blank = false;
    let scan = state.open.is_some().then_some(&mut state.scan);
    let next = match plain {
        // No comment: the rest of the line is one piece.
        Plain::Yes => {
            if let Some(scan) = scan {
                plain_piece(text, body_from, line_end, &mut scan.pieces);
            }
            line_end + 1
        }
        Plain::No => match scan_body(text, body_from, line_end, scan) {
            Ok(next) => next,
            Err(open) => return Ok(Next::Unclosed(open)),
        },
    };
    if state.open.is_some() {
        state.turn.lines_end = next.saturating_sub(1).min(text.len());
    }
    Ok(Next::Line(next))
}

/// The head of a plain turn line ([`scan_line`]) in its common shape,
/// read by [`lean_head`]: `12. Blue:` at the line's first byte.
#[derive(Clone, Copy)]
struct LeanHead {
    number: u32,
    /// Where the number ends.
    digits_end: usize,
    /// Where the side name stands.
    side: Span,
    /// Where the body starts, after the colon.
    body: usize,
}

/// Whether a byte may stand in a side's name as [`lean_head`] reads it:
/// an ASCII letter or digit, `-` or `_` (one look-up a byte).
const NAME_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'-' || c == b'_';
        b += 1;
    }
    table
};

/// The head of the plain line at `pos` in its common shape: at most
/// nine digits (no overflow) from its first byte, `.`, spaces, a side
/// name of ASCII letters, digits, `-` and `_`, spaces, `:`. `None` for
/// any other line, which [`log_line`] reads in full (to the same turn,
/// or its error).
fn lean_head(bytes: &[u8], pos: usize) -> Option<LeanHead> {
    let mut at = pos;
    let mut number = 0u32;
    while let Some(&b) = bytes.get(at).filter(|b| b.is_ascii_digit()) {
        // Past nine digits the number is not used.
        number = number.wrapping_mul(10).wrapping_add(u32::from(b - b'0'));
        at += 1;
    }
    if at == pos || at - pos > 9 || bytes.get(at) != Some(&b'.') {
        return None;
    }
    let digits_end = at;
    at += 1;
    while bytes.get(at) == Some(&b' ') {
        at += 1;
    }
    let side_start = at;
    while bytes.get(at).is_some_and(|&b| NAME_BYTE[usize::from(b)]) {
        at += 1;
    }
    let side = Span::new(side_start, at);
    while bytes.get(at) == Some(&b' ') {
        at += 1;
    }
    if side.start == side.end || bytes.get(at) != Some(&b':') {
        return None;
    }
    Some(LeanHead {
        number,
        digits_end,
        side,
        body: at + 1,
    })
}

/// Read the plain turn line at `pos..line_end` ([`scan_line`]) whose
/// head is `head`, as [`log_line`] reads it.
fn lean_turn_line<'a>(
    text: &'a str,
    (pos, line_end): (usize, usize),
    head: LeanHead,
    state: &mut LogState<'a>,
    each: &mut dyn FnMut(&mut Turn<'a>),
) -> Result<Next, ParseError> {
    close_turn(text, state, each, Span::new(pos, line_end))?;
    let turn = &mut state.turn;
    begin_turn(
        turn,
        (head.number, Span::new(pos, head.digits_end)),
        (&text[head.side.range()], head.side),
        LineKind::Turn,
        Span::new(pos, line_end),
    );
    state.open = Some(pos);
    state.after_blank = false;
    let scan = &mut state.scan;
    scan.pieces.clear();
    plain_piece(text, head.body, line_end, &mut scan.pieces);
    // A piece of a later line may be the first.
    scan.first = match scan.pieces.is_empty() {
        true => Plain::No,
        false => Plain::Yes,
    };
    Ok(Next::Line(line_end + 1))
}

/// The piece `from..to` of a plain line ([`scan_line`]) onto `pieces`,
/// as [`scan_body`] puts it there: unless it is all spaces.
fn plain_piece(text: &str, from: usize, to: usize, pieces: &mut Vec<Span>) {
    if text.as_bytes()[from..to].iter().any(|&b| b != b' ') {
        pieces.push(Span::new(from, to));
    }
}

/// Whether `line` starts like a set-up line: `S`, digits, then `.`.
fn setup_numbered(line: &str) -> bool {
    line.as_bytes()
        .first()
        .is_some_and(|c| c.eq_ignore_ascii_case(&b'S'))
        && line.as_bytes().get(1).is_some_and(u8::is_ascii_digit)
        && numbered(&line[1..])
}

/// Whether `line` starts like a turn line: digits, then `.`.
fn numbered(line: &str) -> bool {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    line.as_bytes().get(digits) == Some(&b'.')
}

/// A turn with nothing in it, to be filled by [`line_head`].
fn empty_turn<'a>() -> Turn<'a> {
    Turn {
        number: 0,
        number_span: Span::new(0, 0),
        side: "",
        side_span: Span::new(0, 0),
        items: Vec::new(),
        kind: LineKind::Turn,
        pass: None,
        resign: None,
        draw: None,
        audit: None,
        forfeit: None,
        proofs: Vec::new(),
        span: Span::new(0, 0),
        lines_end: 0,
    }
}

/// The head of a turn line (`12. Blue:`, or `S2. Red:` for a set-up
/// line), `line` running from its first character to `line_end`, read
/// into `turn` (left with nothing else in it): where the rest of the
/// line starts.
fn line_head<'a>(
    text: &'a str,
    line: &'a str,
    kind: LineKind,
    line_end: usize,
    turn: &mut Turn<'a>,
) -> Result<usize, ParseError> {
    let content = offset(text, line);
    let head = match kind {
        LineKind::Setup => &line[1..],
        LineKind::Turn => line,
    };
    let (rest, (number, side)) = turn_head(head).ok_or_else(|| {
        let bad = line.find(':').unwrap_or(line.len()).max(1);
        ParseError::new(
            Span::new(content, content + bad),
            "expected a turn line such as `12. Blue: Kc1-b1`",
        )
    })?;
    let number_span = Span::new(content, offset(text, number) + number.len());
    let n: u32 = number
        .parse()
        .map_err(|_| ParseError::new(number_span, "this turn number is too large"))?;
    let side_start = offset(text, side);
    begin_turn(
        turn,
        (n, number_span),
        (side, Span::new(side_start, side_start + side.len())),
        kind,
        Span::new(content, line_end),
    );
    Ok(offset(text, rest))
}

/// Make `turn`, kept from the turn before, the turn of a new line: its
/// number and side (each as written, with where it stands), its kind,
/// and the line's span (the turn's span and lines so far); its lists
/// emptied and nothing after the head read yet.
#[inline]
fn begin_turn<'a>(
    turn: &mut Turn<'a>,
    (number, number_span): (u32, Span),
    (side, side_span): (&'a str, Span),
    kind: LineKind,
    line: Span,
) {
    turn.number = number;
    turn.number_span = number_span;
    turn.side = side;
    turn.side_span = side_span;
    turn.items.clear();
    turn.kind = kind;
    turn.pass = None;
    turn.resign = None;
    turn.draw = None;
    turn.audit = None;
    turn.forfeit = None;
    turn.proofs.clear();
    turn.span = line;
    turn.lines_end = line.end;
}

/// [`finish_turn`], naming the turn in its errors.
fn finish_in_turn<'a>(
    text: &'a str,
    turn: &mut Turn<'a>,
    scan: &mut BodyScan,
) -> Result<(), ParseError> {
    finish_turn(text, turn, scan).map_err(|e| e.in_line(turn.kind, turn.number, turn.side))
}

/// Collect body pieces from `from` to the end of the line, skipping
/// comments (a `{` comment may run over lines). Returns where to go on,
/// or where a `{` comment starts that the text never closes.
fn scan_body(
    text: &str,
    from: usize,
    line_end: usize,
    mut scan: Option<&mut BodyScan>,
) -> Result<usize, usize> {
    let mut piece_start = from;
    let mut k = from;
    let bytes = text.as_bytes();
    let push = |scan: &mut Option<&mut BodyScan>, a: usize, b: usize| {
        if let Some(s) = scan.as_deref_mut() {
            if !trim(&text[a..b]).is_empty() {
                s.pieces.push(Span::new(a, b));
            }
        }
    };
    while let Some(at) = find_any(&bytes[k..line_end], [b'{', b';']) {
        k += at;
        push(&mut scan, piece_start, k);
        if bytes[k] == b';' {
            return Ok(line_end + 1);
        }
        let end = comment_end(text, k).ok_or(k)?;
        if end > line_end {
            // The comment runs over lines; the rest of its last line is
            // read as part of this turn.
            let next_end = end_of_line(text, end);
            return scan_body(text, end, next_end, scan);
        }
        k = end;
        piece_start = k;
    }
    push(&mut scan, piece_start, line_end);
    Ok(line_end + 1)
}

/// Split a turn's body pieces into items at commas, find `pass`, `resign`
/// and the reveal: the common shape of a body read by [`finish_common`],
/// any other by [`finish_general`].
fn finish_turn<'a>(
    text: &'a str,
    turn: &mut Turn<'a>,
    scan: &mut BodyScan,
) -> Result<(), ParseError> {
    match finish_common(text, turn, scan) {
        Some(done) => done,
        None => finish_general(text, turn, scan),
    }
}

/// The body of a turn in its common shape, read with a few checks and
/// no lists but the items' spans: one piece on the turn's line, of
/// printable ASCII (no tab), its items split at commas, none of them
/// empty or longer than an action may be, the last holding no proof
/// word; then perhaps a second piece, on the next line, with no comma,
/// that starts with a proof word. `None`, with `turn` and `scan.pieces`
/// as they were, for any other body: [`finish_general`] reads it, to the
/// same turn or the same error.
fn finish_common<'a>(
    text: &'a str,
    turn: &mut Turn<'a>,
    scan: &mut BodyScan,
) -> Option<Result<(), ParseError>> {
    let (line, proofs) = match scan.pieces[..] {
        [line] => (line, None),
        [line, next] => (line, Some(proof_piece(text, line, next)?)),
        _ => return None,
    };
    common_items(text, line, scan.first, &mut scan.parts)?;
    Some(add_common(text, turn, &scan.parts, proofs))
}

/// Add the items at `items` to `turn`, and the proof items at `proofs`,
/// as [`finish_general`] adds them, errors in the same order.
fn add_common<'a>(
    text: &'a str,
    turn: &mut Turn<'a>,
    items: &[Span],
    proofs: Option<Span>,
) -> Result<(), ParseError> {
    let count = items.len();
    for (index, &span) in items.iter().enumerate() {
        if let (true, Some(proofs)) = (index + 1 == count, proofs) {
            read_proofs(text, proofs, &mut turn.proofs)?;
        }
        turn.span.end = turn.span.end.max(span.end);
        let item = Cow::Borrowed(&text[span.range()]);
        add_item(text, turn, item, span, count - index)?;
    }
    if let Some(last) = turn.proofs.last() {
        turn.span.end = turn.span.end.max(last.span.end);
    }
    Ok(())
}

/// The items of the body piece `line`, in the common shape
/// ([`finish_common`]), as their trimmed spans on `items`; `None` when
/// the piece is not of that shape.
fn common_items(text: &str, line: Span, plain: Plain, items: &mut Vec<Span>) -> Option<()> {
    items.clear();
    let piece = &text.as_bytes()[line.range()];
    if plain == Plain::No && !printable(piece) {
        return None;
    }
    let mut from = 0;
    loop {
        let rest = Span::new(line.start + from, line.end);
        let cut = find_in(text.as_bytes(), rest, b',').map_or(piece.len(), |k| k - line.start);
        let item = &piece[from..cut];
        let lead = item.iter().take_while(|&&b| b == b' ').count();
        let trail = item[lead..]
            .iter()
            .rev()
            .take_while(|&&b| b == b' ')
            .count();
        let len = item.len() - lead - trail;
        if len == 0 || len > MAX_ACTION_LEN || items.len() + 1 >= MAX_ITEMS {
            return None;
        }
        let start = line.start + from + lead;
        items.push(Span::new(start, start + len));
        if cut == piece.len() {
            break;
        }
        from = cut + 1;
    }
    // The last item holds no proof word (most are one word).
    let last = &text[items.last()?.range()];
    let proof = if last.bytes().any(|b| b == b' ') {
        first_proof_word(last).is_some()
    } else {
        proof_word(last.as_bytes()).is_some()
    };
    (!proof).then_some(())
}

/// Whether every byte of `bytes` is printable ASCII or a space (no tab,
/// no line feed, no byte of a character of another script): eight bytes
/// are checked at once, the last few a byte at a time.
fn printable(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        // The lowest byte under 0x20 borrows into its high bit; a byte of
        // 0x80 or more has it; 0x7f reaches it when one is added (a
        // carry comes only from a byte of 0xff, below).
        let out = word.wrapping_sub(ONES * 0x20) | word | word.wrapping_add(ONES);
        if out & HIGHS != 0 {
            return false;
        }
    }
    chunks.remainder().iter().all(|b| (b' '..=b'~').contains(b))
}

/// The proof items of a body in the common shape ([`finish_common`]),
/// its pieces being `line` and `next`: `None` unless `next`
/// stands on the line after `line`, holds no comma and starts with a
/// proof word.
fn proof_piece(text: &str, line: Span, next: Span) -> Option<Span> {
    let bytes = text.as_bytes();
    let gap = bytes.get(line.end..next.start)?;
    if gap.first() != Some(&b'\n') || !gap[1..].iter().all(|&b| b == b' ' || b == b'\t') {
        return None;
    }
    let piece = &bytes[next.range()];
    let word = piece.iter().position(u8::is_ascii_whitespace);
    if word == Some(0) || proof_word(&piece[..word.unwrap_or(piece.len())]).is_none() {
        return None;
    }
    if find_any(piece, [b',']).is_some() {
        return None;
    }
    Some(Span::new(
        next.start,
        next.start + trim_end(&text[next.range()]).len(),
    ))
}

/// Split a turn's body pieces into items at commas, find `pass`, `resign`
/// and the reveal, whatever the body's shape.
fn finish_general<'a>(
    text: &'a str,
    turn: &mut Turn<'a>,
    scan: &mut BodyScan,
) -> Result<(), ParseError> {
    split_items(text, &scan.pieces, &mut scan.parts, &mut scan.items)?;
    let head_end = turn.side_span.end;
    let count = scan.items.len();
    for (index, &(from, to)) in scan.items.iter().enumerate() {
        let parts = &scan.parts[from..to];
        let mut span = item_span(text, parts);
        if span.start == span.end {
            let at = parts.first().map_or(head_end, |p| p.start);
            let msg = if count == 1 {
                "a turn line needs its actions, `pass` or `resign` after the side"
            } else {
                "an empty action between commas"
            };
            return Err(ParseError::new(Span::new(at, at + 1), msg));
        }
        let mut item_text = None;
        if index + 1 == count {
            if let Some(before) = split_proofs(text, parts, span, &mut turn.proofs)? {
                let first = turn.proofs.first().map_or(span, |p| p.span);
                match before {
                    Some((t, s)) => {
                        item_text = Some(t);
                        span = s;
                    }
                    None if count == 1 && turn.kind == LineKind::Setup => {
                        turn.span.end = turn.span.end.max(span.end);
                        continue;
                    }
                    None if count == 1 => {
                        return Err(ParseError::new(
                            first,
                            "a turn line needs its actions, `pass` or `resign` before the reveal",
                        ))
                    }
                    None => {
                        return Err(ParseError::new(
                            first,
                            "the reveal follows the last action without a comma",
                        ))
                    }
                }
            }
        }
        let item_text = item_text.unwrap_or_else(|| match parts {
            [_] => Cow::Borrowed(&text[span.range()]),
            _ => join_parts(text, parts, span.end),
        });
        if item_text.len() > MAX_ACTION_LEN {
            return Err(ParseError::new(
                Span::new(span.start, span.start + 1),
                format!("an action is at most {MAX_ACTION_LEN} characters long"),
            ));
        }
        turn.span.end = turn.span.end.max(span.end);
        add_item(text, turn, item_text, span, count - index)?;
    }
    if let Some(last) = turn.proofs.last() {
        turn.span.end = turn.span.end.max(last.span.end);
    }
    Ok(())
}

/// The items of a turn's body, split at commas: each item's parts (an
/// item may run over comments and lines) pushed on `parts` in order, and
/// the range of `parts` it holds on `items`.
fn split_items(
    text: &str,
    pieces: &[Span],
    parts: &mut Vec<Span>,
    items: &mut Vec<(usize, usize)>,
) -> Result<(), ParseError> {
    parts.clear();
    items.clear();
    // The first part of the item being read.
    let mut first = 0;
    for piece in pieces {
        let mut a = piece.start;
        let bytes = &text.as_bytes()[..piece.end];
        while let Some(k) = find_any(&bytes[a..], [b',']) {
            let cut = a + k;
            // The items read, and the one this comma ends.
            if items.len() + 1 >= MAX_ITEMS {
                return Err(ParseError::new(
                    Span::new(cut, cut + 1),
                    format!("a turn holds at most {MAX_ITEMS} actions"),
                ));
            }
            parts.push(Span::new(a, cut));
            items.push((first, parts.len()));
            first = parts.len();
            a = cut + 1;
        }
        parts.push(Span::new(a, piece.end));
    }
    items.push((first, parts.len()));
    Ok(())
}

/// Add one item to `turn`: `pass`, `audit` or `resign` (each where it may
/// stand), else a fact or an action. `left` counts the items from this
/// one to the line's last (1 for the last).
fn add_item<'a>(
    text: &'a str,
    turn: &mut Turn<'a>,
    item_text: Cow<'a, str>,
    span: Span,
    left: usize,
) -> Result<(), ParseError> {
    let word = item_text.as_ref();
    // The item is trimmed: `forfeit`, `pass`, `audit` and `resign` start
    // with its first byte, which most actions pass over at once.
    // Each of those words (and `offer draw`, `accept draw`) is at least
    // four letters: an item whose second byte is no letter (`R@B1`,
    // `a1-b2`) is none of them.
    let first = word.as_bytes().first().map(u8::to_ascii_lowercase);
    let second_letter = word.as_bytes().get(1).is_some_and(u8::is_ascii_alphabetic);
    if !second_letter || !matches!(first, Some(b'f' | b'p' | b'a' | b'r' | b'o')) {
        push_item(text, turn, item_text, span, left);
        return Ok(());
    }
    let alone = left == 1 && turn.items.is_empty() && turn.resign.is_none() && turn.draw.is_none();
    // A forfeit is at least its word long.
    if word.len() >= 7 && is_forfeit(word) {
        if !alone {
            return Err(ParseError::new(
                span,
                "`forfeit claimed by <side>` stands alone on its line",
            ));
        }
        turn.forfeit = Some((span, forfeit_claimant(text, span)?));
    } else if word.eq_ignore_ascii_case("pass") || word.eq_ignore_ascii_case("audit") {
        if !alone {
            let word = word.to_ascii_lowercase();
            return Err(ParseError::new(
                span,
                format!("`{word}` stands alone on its line"),
            ));
        }
        if word.eq_ignore_ascii_case("pass") {
            turn.pass = Some(span);
        } else {
            turn.audit = Some(span);
        }
    } else if word.eq_ignore_ascii_case("resign") {
        if left != 1 {
            return Err(ParseError::new(
                span,
                "`resign` must be the line's last action",
            ));
        }
        turn.resign = Some(span);
    } else if let Some(draw) = DrawItem::read(word) {
        if left != 1 || turn.resign.is_some() {
            return Err(ParseError::new(
                span,
                format!(
                    "`{}` ends the line: it comes after the line's actions, alone after them",
                    draw.words()
                ),
            ));
        }
        turn.draw = Some((draw, span));
    } else {
        push_item(text, turn, item_text, span, left);
    }
    Ok(())
}

/// Add a fact or an action to `turn`, `left` items from the line's end.
fn push_item<'a>(
    text: &'a str,
    turn: &mut Turn<'a>,
    item_text: Cow<'a, str>,
    span: Span,
    left: usize,
) {
    let kind = fact(text, span).unwrap_or(ItemKind::Action);
    // Room for this item and those after it, once (a line of `pass`
    // keeps no room at all: a record holds up to 50,000 lines).
    if turn.items.capacity() == 0 {
        turn.items = Vec::with_capacity(left);
    }
    turn.items.push(Item {
        text: item_text,
        span,
        kind,
    });
}

/// Whether an item is a forfeit: its first word is `forfeit`.
fn is_forfeit(item: &str) -> bool {
    let item = trim_start(item);
    let word = item.as_bytes().get(..7);
    // Seven ASCII letters: byte 7 starts the next character, if any.
    word.is_some_and(|w| w.eq_ignore_ascii_case(b"forfeit"))
        && item[7..].chars().next().is_none_or(char::is_whitespace)
}

/// The claimant of the forfeit item at `span`: `forfeit claimed by Red`.
fn forfeit_claimant(text: &str, span: Span) -> Result<&str, ParseError> {
    let words: Vec<&str> = text[span.range()].split_whitespace().collect();
    match words.as_slice() {
        [_, claimed, by, side]
            if claimed.eq_ignore_ascii_case("claimed")
                && by.eq_ignore_ascii_case("by")
                && side
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_') =>
        {
            Ok(side)
        }
        _ => Err(ParseError::new(
            span,
            "a forfeit reads `forfeit claimed by <side>`, naming the player who claims it",
        )),
    }
}

/// Where the item made of `parts` stands: from the first character of its
/// first part with text to the last of its last (empty, at its first
/// part, when it holds only white space).
fn item_span(text: &str, parts: &[Span]) -> Span {
    if let [only] = parts {
        // The common case: no comment or line break inside the item.
        let raw = &text[only.range()];
        let start = only.start + (raw.len() - trim_start(raw).len());
        let len = trim_end(&text[start..only.end]).len();
        return if len == 0 {
            Span::new(only.start, only.start)
        } else {
            Span::new(start, start + len)
        };
    }
    let has_text = |p: &&Span| !trim(&text[p.range()]).is_empty();
    let (Some(first), Some(last)) = (
        parts.iter().find(has_text),
        parts.iter().rev().find(has_text),
    ) else {
        let at = parts.first().map_or(0, |p| p.start);
        return Span::new(at, at);
    };
    let lead = text[first.range()].len() - trim_start(&text[first.range()]).len();
    let trail = text[last.range()].len() - trim_end(&text[last.range()]).len();
    Span::new(first.start + lead, last.end - trail)
}

/// The text of the item made of `parts`, up to byte `end` of the clean
/// text: its parts trimmed and joined by a space (where a comment or a
/// line break was cut out). Borrowed when one part holds text.
fn join_parts<'a>(text: &'a str, parts: &[Span], end: usize) -> Cow<'a, str> {
    let mut pieces = parts
        .iter()
        .take_while(|p| p.start < end)
        .map(|p| trim(&text[p.start..p.end.min(end)]))
        .filter(|t| !t.is_empty());
    let Some(first) = pieces.next() else {
        return Cow::Borrowed("");
    };
    let Some(second) = pieces.next() else {
        return Cow::Borrowed(first);
    };
    let mut joined = [first, second].join(" ");
    for piece in pieces {
        joined.push(' ');
        joined.push_str(piece);
    }
    Cow::Owned(joined)
}

/// `label=value`, where label is lower-case letters, digits and `-`.
fn fact(text: &str, span: Span) -> Option<ItemKind<'_>> {
    let s = &text[span.range()];
    let equals = find_in(text.as_bytes(), span, b'=')? - span.start;
    let (label, value) = (&s[..equals], &s[equals + 1..]);
    let (label, value) = (trim_end(label), trim_start(value));
    let ok_label = !label.is_empty()
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let ok_value = !value.is_empty()
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    (ok_label && ok_value).then_some(ItemKind::Fact { label, value })
}

type Before<'a> = Option<(Cow<'a, str>, Span)>;

/// The words that begin a proof item.
#[derive(Clone, Copy)]
enum ProofWord {
    Reveal,
    Commit,
    Open,
    Sig,
    Share,
    CardKey,
    Deck,
    CardSecret,
    Date,
}

/// The words that begin a proof item, as written (in any case).
const PROOF_WORDS: [(&str, ProofWord); 9] = [
    ("reveal", ProofWord::Reveal),
    ("commit", ProofWord::Commit),
    ("open", ProofWord::Open),
    ("sig", ProofWord::Sig),
    ("share", ProofWord::Share),
    ("cardkey", ProofWord::CardKey),
    ("deck", ProofWord::Deck),
    ("cardsecret", ProofWord::CardSecret),
    ("date", ProofWord::Date),
];

/// The proof word `word` is (in any case), if it is one.
fn proof_word(word: &[u8]) -> Option<ProofWord> {
    // Proof words are 3 to 10 letters: most words are passed over by
    // their length alone.
    if !(3..=10).contains(&word.len()) {
        return None;
    }
    PROOF_WORDS
        .iter()
        .find(|(w, _)| w.as_bytes().eq_ignore_ascii_case(word))
        .map(|&(_, kind)| kind)
}

/// Split the proof items (`reveal <hex>`, `open <slot> <value> <hex>`,
/// `sig <hex>`, `share <n> <hex> <hex>`, `cardkey <hex> <hex>`, `deck <n>
/// <hex>`, `cardsecret <hex>`) off the end of the last item, made of
/// `parts` at `span`, onto `proofs`: `None` when it holds none, else the
/// item before them, if there is one.
fn split_proofs<'a>(
    text: &'a str,
    parts: &[Span],
    span: Span,
    proofs: &mut Vec<Proof<'a>>,
) -> Result<Option<Before<'a>>, ParseError> {
    // Work on the source text of the span (a proof never holds comments).
    let s = &text[span.range()];
    let Some(k) = first_proof_word(s) else {
        return Ok(None);
    };
    read_proofs(text, Span::new(span.start + k, span.end), proofs)?;
    let before_text = trim_end(&s[..k]);
    if before_text.is_empty() {
        return Ok(Some(None));
    }
    let before_span = Span::new(span.start, span.start + before_text.len());
    // Where the text before the first proof word holds no comment and no
    // white space but spaces, tabs and line feeds, the words of the item's
    // parts joined are those of its source text, the first proof word
    // among them: the parts before it make the item.
    let before = if s.as_bytes()[..k].iter().all(|&b| plain_byte(b)) {
        join_parts(text, parts, span.start + k)
    } else {
        joined_before(text, parts, span, before_span)
    };
    Ok(Some(Some((before, before_span))))
}

/// Read the proof items at `span` of the clean text onto `proofs`.
fn read_proofs<'a>(
    text: &'a str,
    span: Span,
    proofs: &mut Vec<Proof<'a>>,
) -> Result<(), ParseError> {
    let mut cursor = ProofCursor {
        text,
        at: span.start,
        end: span.end,
    };
    if proofs.capacity() == 0 {
        // Room for the proofs the span holds, once: each is at least 71
        // bytes (`reveal` and 64 digits) and a space.
        *proofs = Vec::with_capacity((span.end - span.start + 1) / 72 + 1);
    }
    while cursor.skip_space() {
        proofs.push(cursor.proof()?);
    }
    Ok(())
}

/// `N` bytes from exactly `2N` hexadecimal digits, as
/// [`hex_digits::decode`] reads them, eight digits at a time when `2N`
/// is a multiple of eight: each byte's digit range tested and its value
/// made in one word, pairs of values then packed.
fn decode_hex<const N: usize>(digits: &[u8]) -> Option<[u8; N]> {
    if digits.len() != 2 * N || N % 4 != 0 {
        return hex_digits::decode(digits);
    }
    let mut out = [0u8; N];
    for (four, eight) in out.chunks_exact_mut(4).zip(digits.chunks_exact(8)) {
        let word = u64::from_le_bytes(eight.try_into().ok()?);
        four.copy_from_slice(&hex_word(word)?);
    }
    Some(out)
}

/// The four bytes of eight hexadecimal digits (the first digit in the
/// lowest byte of `word`), or `None` unless each is one. Each byte is
/// ASCII; with `0x80 - lo` added, its high bit says whether it is at
/// least `lo` (no byte carries into the next).
fn hex_word(word: u64) -> Option<[u8; 4]> {
    if word & HIGHS != 0 {
        return None;
    }
    let at_least = |w: u64, lo: u8| w.wrapping_add(ONES * u64::from(0x80 - lo)) & HIGHS;
    let digit = at_least(word, b'0') & !at_least(word, b'9' + 1);
    let lower = word | (ONES * 0x20);
    let letter = at_least(lower, b'a') & !at_least(lower, b'f' + 1);
    if digit | letter != HIGHS {
        return None;
    }
    // A digit's value is its low four bits; a letter's, those and 9.
    let values = (word & (ONES * 0x0f)) + (letter >> 7) * 9;
    let pairs = ((values << 4) | (values >> 8)).to_le_bytes();
    Some([pairs[0], pairs[2], pairs[4], pairs[6]])
}

/// Whether `b` is a byte of printable ASCII but a comment's start, or a
/// space, a tab or a line feed.
fn plain_byte(b: u8) -> bool {
    matches!(b, b' '..=b'~' | b'\t' | b'\n') && b != b'{' && b != b';'
}

/// The item at `span`, made of `parts`, before its proof items: the
/// words of its parts joined, up to the first proof word among them.
fn joined_before<'a>(text: &'a str, parts: &[Span], span: Span, before: Span) -> Cow<'a, str> {
    match join_parts(text, parts, span.end) {
        Cow::Borrowed(_) => Cow::Borrowed(&text[before.range()]),
        Cow::Owned(o) => {
            let cut = first_proof_word(&o).unwrap_or(o.len());
            Cow::Owned(o[..cut].trim_end().to_owned())
        }
    }
}

/// Reads proof items from `at` to `end` of the clean text.
struct ProofCursor<'a> {
    text: &'a str,
    at: usize,
    end: usize,
}

impl<'a> ProofCursor<'a> {
    /// Skip white space (line breaks included); whether anything is left.
    fn skip_space(&mut self) -> bool {
        // ASCII white space a byte at a time, as `trim_start` passes it.
        let bytes = &self.text.as_bytes()[..self.end];
        while bytes
            .get(self.at)
            .is_some_and(|b| matches!(b, b'\t'..=b'\r' | b' '))
        {
            self.at += 1;
        }
        if bytes.get(self.at).is_some_and(|b| !b.is_ascii()) {
            let rest = &self.text[self.at..self.end];
            self.at += rest.len() - trim_start(rest).len();
        }
        self.at < self.end
    }

    /// The next word (up to white space), and its span.
    fn word(&mut self) -> (&'a str, Span) {
        self.skip_space();
        let len = word_len(&self.text[self.at..self.end]);
        let span = Span::new(self.at, self.at + len);
        self.at += len;
        (&self.text[span.range()], span)
    }

    /// One proof item.
    fn proof(&mut self) -> Result<Proof<'a>, ParseError> {
        let start = self.at;
        let (word, word_span) = self.word();
        let kind =
            match proof_word(word.as_bytes()) {
                Some(ProofWord::Reveal) => ProofKind::Reveal(self.hex("a reveal is 64 hexadecimal digits")?),
                Some(ProofWord::Open) => {
                    let slot = self.token("a slot name, as in `open a1 R <salt>`")?;
                    let value = self.token("the slot's value, as in `open a1 R <salt>`")?;
                    let salt = self.hex("an opening's salt is 64 hexadecimal digits")?;
                    ProofKind::Open { slot, value, salt }
                }
                Some(ProofWord::Commit) => {
                let slot = self.token("a slot name, as in `commit a1 <digest>`")?;
                let digest = self.hex("a commitment is 64 hexadecimal digits")?;
                ProofKind::Commit { slot, digest }
            }
            Some(ProofWord::Sig) => ProofKind::Sign(self.hex("a signature is 128 hexadecimal digits")?),
                Some(ProofWord::Share) => {
                    let (n, n_span) = self.word();
                    let position = n.parse().map_err(|_| {
                        ParseError::new(n_span, "a share names a deck position (a number)")
                    })?;
                    let share = self.hex("a share's point is 64 hexadecimal digits")?;
                    let proof = self.hex("a share's proof is 192 hexadecimal digits")?;
                    ProofKind::Share {
                        position,
                        share,
                        proof,
                    }
                }
                Some(ProofWord::CardKey) => {
                    let key = self.hex("a card key is 64 hexadecimal digits")?;
                    let proof = self.hex("a card key's proof is 128 hexadecimal digits")?;
                    ProofKind::CardKey { key, proof }
                }
                Some(ProofWord::Deck) => {
                    let (n, n_span) = self.word();
                    let position = n.parse().map_err(|_| {
                        ParseError::new(n_span, "a deck item names a deck position (a number)")
                    })?;
                    let card = self.hex("a deck item's card is 128 hexadecimal digits")?;
                    ProofKind::Deck { position, card }
                }
                Some(ProofWord::CardSecret) => {
                    ProofKind::CardSecret(self.hex("a card secret is 64 hexadecimal digits")?)
                }
                Some(ProofWord::Date) => {
                    let (day, day_span) = self.word();
                    ProofKind::Date(super::Day::parse(day).ok_or_else(|| {
                        ParseError::new(
                            day_span,
                            "a date is a day that exists, written YYYY-MM-DD (as in `date 2026-11-28`)",
                        )
                    })?)
                }
                None => return Err(ParseError::new(
                    Span::new(word_span.start, self.end),
                    "only proof items (reveal, commit, open, sig, share, cardkey, deck, cardsecret, date) may follow \
                     the reveal on a turn",
                )),
            };
        Ok(Proof {
            kind,
            span: Span::new(start, self.at),
        })
    }

    /// A word naming something (a slot, a value): letters, digits, `-`,
    /// `.` and `_`.
    fn token(&mut self, expected: &str) -> Result<&'a str, ParseError> {
        let (word, span) = self.word();
        let ok = !word.is_empty()
            && word
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'));
        if !ok {
            let at = Span::new(span.start, span.end.max(span.start + 1));
            return Err(ParseError::new(at, format!("expected {expected}")));
        }
        Ok(word)
    }

    /// `N` bytes as `2N` hexadecimal digits, which a mail client may have
    /// broken over lines or spaces.
    fn hex<const N: usize>(&mut self, wrong: &str) -> Result<[u8; N], ParseError> {
        self.skip_space();
        let start = self.at;
        let bytes = &self.text.as_bytes()[..self.end];
        let mut value = [0u8; N];
        // The common case: the digits in one piece, then white space.
        let rest = &bytes[start..];
        if rest.len() >= 2 * N && rest.get(2 * N).is_none_or(u8::is_ascii_whitespace) {
            if let Some(value) = decode_hex(&rest[..2 * N]) {
                self.at += 2 * N;
                return Ok(value);
            }
        }
        // Nibbles read so far; white space between digits is skipped.
        // Digits are taken two at a time where a byte's two stand side
        // by side (herald writes long values as pieces of 64 digits, one
        // piece a line), else one at a time.
        let mut nibbles = 0;
        while nibbles < 2 * N && self.at < self.end {
            let b = bytes[self.at];
            if nibbles % 2 == 0 && self.at + 1 < self.end {
                let pair = (hex_digits::value(b), hex_digits::value(bytes[self.at + 1]));
                if let (Some(high), Some(low)) = pair {
                    value[nibbles / 2] = high << 4 | low;
                    nibbles += 2;
                    self.at += 2;
                    continue;
                }
            }
            if let Some(v) = hex_digits::value(b) {
                value[nibbles / 2] = value[nibbles / 2] << 4 | v;
                nibbles += 1;
            } else if !b.is_ascii_whitespace() {
                break;
            }
            self.at += 1;
        }
        let glued = bytes.get(self.at).is_some_and(|b| !b.is_ascii_whitespace());
        if nibbles != 2 * N || glued {
            let rest = &self.text[self.at..self.end];
            let end = self.at + rest.find(char::is_whitespace).unwrap_or(rest.len());
            // The digits stop where the whole text stops: the record was
            // cut short (a message cut off, a copy that stopped early).
            let cut = !glued && self.at >= self.end && self.text[self.end..].trim().is_empty();
            if cut {
                return Err(ParseError::new(
                    Span::new(start, end.max(start + 1)),
                    format!(
                        "{wrong}, but the record stops after {nibbles} of them: it is cut short \
                         here (the message or the copy stopped early: ask for the whole record \
                         again, or as an attachment)"
                    ),
                ));
            }
            return Err(ParseError::new(Span::new(start, end.max(start + 1)), wrong));
        }
        Ok(value)
    }
}

/// How long `s` is up to its first white space character (all of it when
/// it holds none), read a byte at a time up to a character of another
/// script.
fn word_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut n = 0;
    while n < bytes.len() && bytes[n].is_ascii() && !matches!(bytes[n], b'\t'..=b'\r' | b' ') {
        n += 1;
    }
    match bytes.get(n) {
        Some(b) if !b.is_ascii() => n + s[n..].find(char::is_whitespace).unwrap_or(bytes.len() - n),
        _ => n,
    }
}

/// The byte offset of the first proof word ([`PROOF_WORDS`], any case)
/// standing as a whole word in `s`: one pass over its words.
fn first_proof_word(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut k = 0;
    while k < b.len() {
        if b[k].is_ascii_whitespace() {
            k += 1;
            continue;
        }
        let len = b[k..]
            .iter()
            .position(u8::is_ascii_whitespace)
            .unwrap_or(b.len() - k);
        let word = &b[k..k + len];
        if proof_word(word).is_some() {
            return Some(k);
        }
        k += len;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    type Read = (Vec<(String, String)>, Vec<String>);

    fn read(text: &str) -> Result<Read, ParseError> {
        let source = Source::new(text.as_bytes()).expect("source");
        let record = parse(&source)?;
        let tags = record
            .tags
            .iter()
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect();
        let turns = record
            .turns
            .iter()
            .map(|t| {
                let items: Vec<String> = t.items.iter().map(|i| i.text.to_string()).collect();
                format!(
                    "{}|{}|{}|{}|{}|{}",
                    t.number,
                    t.side,
                    items.join(";"),
                    t.pass.is_some(),
                    t.resign.is_some(),
                    t.reveal().is_some()
                )
            })
            .collect();
        Ok((tags, turns))
    }

    const REVEAL: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    #[test]
    fn a_date_item_reads_as_a_day_and_a_day_that_does_not_exist_cannot_parse() {
        let source = Source::new(b"[Game \"x\"]\n1. Blue: pass\n    date 2026-11-28\n").unwrap();
        let record = parse(&source).unwrap();
        assert_eq!(
            record.turns[0].proofs[0].kind,
            ProofKind::Date(super::super::Day::parse("2026-11-28").unwrap())
        );
        let err = read("[Game \"x\"]\n1. Blue: pass date 2026-02-30\n").unwrap_err();
        assert!(
            err.message.contains("a date is a day that exists"),
            "{}",
            err.message
        );
    }

    #[test]
    fn a_header_holds_at_most_max_tags_tags_the_next_refused_at_its_line() {
        let header = |n: usize| {
            let mut text = String::from("[Game \"castle-danger\"]\n");
            for k in 1..n {
                text.push_str(&format!("[Tag{k} \"v\"]\n"));
            }
            text + "\n1. Blue: +C\n"
        };
        let (tags, _) = read(&header(MAX_TAGS)).unwrap();
        assert_eq!(tags.len(), MAX_TAGS);
        // Far more tags than the cap: refused at the first one past it.
        let text = header(20 * MAX_TAGS);
        let source = Source::new(text.as_bytes()).unwrap();
        let e = parse(&source).unwrap_err();
        assert_eq!(e.message, format!("a header holds at most {MAX_TAGS} tags"));
        let at = source.position(e.span.start);
        assert_eq!((at.line, at.column), (MAX_TAGS + 1, 1));
        assert_eq!(&text[e.span.range()], format!("[Tag{MAX_TAGS} \"v\"]"));
    }

    #[test]
    fn header_tags_and_turns_are_read() {
        let (tags, turns) = read(
            "[Game \"castle-danger\"]\n[Blue \"a@b\"] [Red \"c \\\"d\\\"\"]\n\n1. Blue: +C, Kc1-b1\n2. Red: pass\n3. Blue: Cd1*d5, resign\n",
        )
        .unwrap();
        assert_eq!(tags[2], ("Red".into(), "c \"d\"".into()));
        assert_eq!(
            turns,
            vec![
                "1|Blue|+C;Kc1-b1|false|false|false",
                "2|Red||true|false|false",
                "3|Blue|Cd1*d5|false|true|false"
            ]
        );
    }

    #[test]
    fn reveal_continuation_lines_and_comments_belong_to_their_turn() {
        let text = format!(
            "[Game \"x\"]\n1. Blue: +C, {{a comment}} Kc1-b1 ; rest\n   Kb1-b2\n   reveal {REVEAL}\n2. Red: pass reveal {REVEAL}\n"
        );
        let (_, turns) = read(&text).unwrap();
        assert_eq!(
            turns,
            vec![
                "1|Blue|+C;Kc1-b1 Kb1-b2|false|false|true",
                "2|Red||true|false|true"
            ]
        );
    }

    #[test]
    fn facts_are_items_of_their_own_kind() {
        let source = Source::new(b"[Game \"x\"]\n1. Elf: rally=heads, B1-B2\n").unwrap();
        let record = parse(&source).unwrap();
        assert_eq!(
            record.turns[0].items[0].kind,
            ItemKind::Fact {
                label: "rally",
                value: "heads"
            }
        );
        assert_eq!(record.turns[0].actions().count(), 1);
    }

    #[test]
    fn text_after_a_blank_line_ends_the_log() {
        let (_, turns) =
            read("[Game \"x\"]\n1. Blue: pass\n\nThanks, your move!\n-- \nBob\n").unwrap();
        assert_eq!(turns.len(), 1);
    }

    #[test]
    fn pass_must_stand_alone() {
        let err = read("[Game \"x\"]\n1. Blue: pass, Kc1-b1\n").unwrap_err();
        assert_eq!(err.message, "`pass` stands alone on its line");
    }

    #[test]
    fn resign_must_end_the_line() {
        let err = read("[Game \"x\"]\n1. Blue: resign, Kc1-b1\n").unwrap_err();
        assert_eq!(err.message, "`resign` must be the line's last action");
    }

    #[test]
    fn a_bad_reveal_is_pointed_at() {
        let err = read("[Game \"x\"]\n1. Blue: pass reveal 12zz\n").unwrap_err();
        assert_eq!(err.message, "a reveal is 64 hexadecimal digits");
        assert_eq!(err.span, Span::new(32, 36));
    }

    #[test]
    fn card_keys_deck_items_and_card_secrets_are_proof_items() {
        let key = "ab".repeat(32);
        let proof = "cd".repeat(64);
        let card = "ef".repeat(64);
        let text = format!(
            "[Game \"x\"]\nS1. Blue: pass\n   cardkey {key} {proof}\n   deck 33 {card}\n   \
             CARDSECRET {key}\n"
        );
        let source = Source::new(text.as_bytes()).unwrap();
        let record = parse(&source).unwrap();
        let kinds: Vec<ProofKind<'_>> = record.turns[0].proofs.iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            vec![
                ProofKind::CardKey {
                    key: [0xab; 32],
                    proof: [0xcd; 64]
                },
                ProofKind::Deck {
                    position: 33,
                    card: [0xef; 64]
                },
                ProofKind::CardSecret([0xab; 32]),
            ]
        );
    }

    #[test]
    fn a_bad_card_key_deck_item_or_card_secret_is_pointed_at() {
        let err = read("[Game \"x\"]\n1. Blue: pass cardkey 12zz\n").unwrap_err();
        assert_eq!(err.message, "a card key is 64 hexadecimal digits");
        let err = read("[Game \"x\"]\n1. Blue: pass deck top 12\n").unwrap_err();
        assert_eq!(err.message, "a deck item names a deck position (a number)");
        assert_eq!(err.span, Span::new(30, 33));
        // A value the record ends in is said to be cut short, too.
        let err = read("[Game \"x\"]\n1. Blue: pass deck 3 12\n").unwrap_err();
        assert!(err
            .message
            .starts_with("a deck item's card is 128 hexadecimal digits, but the record stops"));
        let err = read("[Game \"x\"]\n1. Blue: pass cardsecret 1\n").unwrap_err();
        assert!(err
            .message
            .starts_with("a card secret is 64 hexadecimal digits, but the record stops"));
    }

    #[test]
    fn a_parse_error_in_a_set_up_line_names_the_set_up_line() {
        let text = "[Game \"playground-battles\"]\n\nS1. Blue:\n    reveal 12zz\n";
        let e = read(text).unwrap_err();
        assert_eq!((e.setup_line, e.turn), (Some(1), None), "{}", e.message);
        assert_eq!(e.side.as_deref(), Some("Blue"));
        let text = "[Game \"castle-danger\"]\n\n1. Blue:\n    reveal 12zz\n";
        let e = read(text).unwrap_err();
        assert_eq!((e.setup_line, e.turn), (None, Some(1)), "{}", e.message);
    }

    #[test]
    fn a_malformed_turn_line_is_a_parse_error() {
        let err = read("[Game \"x\"]\n12 Blue: pass\n").unwrap_err();
        assert!(err.message.starts_with("expected a turn line"));
        let err = read("[Game \"x\"]\n1. Blue:\n").unwrap_err();
        assert!(err.message.contains("needs its actions"));
        let err = read("[Game \"x\"]\n1. Blue: a,,b\n").unwrap_err();
        assert_eq!(err.message, "an empty action between commas");
        // Pointed at where the empty item stands (byte 22, after the first
        // comma), also when a comment is all it holds.
        assert_eq!(err.span, Span::new(22, 23));
        let err = read("[Game \"x\"]\n1. Blue: a,{c},b\n").unwrap_err();
        assert_eq!(
            (err.message.as_str(), err.span),
            ("an empty action between commas", Span::new(22, 23))
        );
    }

    #[test]
    fn a_turn_prefix_is_read_with_or_without_its_number() {
        assert_eq!(
            turn_prefix(" 12. Blue: Kc1-b1"),
            Some((Some("12"), "Blue", " Kc1-b1"))
        );
        assert_eq!(turn_prefix("red : pass"), Some((None, "red", " pass")));
        // Actions that hold a colon but start with no side name.
        assert_eq!(turn_prefix("Kc1-b1 {note: x}"), None);
        assert_eq!(turn_prefix("d6:1-d7"), Some((None, "d6", "1-d7")));
    }

    #[test]
    fn a_turn_of_more_than_200_actions_is_refused_at_the_201st() {
        let line = format!("[Game \"x\"]\n1. Blue: {}\n", vec!["a"; 201].join(", "));
        let err = read(&line).unwrap_err();
        assert_eq!(err.message, "a turn holds at most 200 actions");
        // The comma that starts the 201st action.
        let comma = line.match_indices(',').nth(199).unwrap().0;
        assert_eq!(err.span, Span::new(comma, comma + 1));
        let ok = format!("[Game \"x\"]\n1. Blue: {}\n", vec!["a"; 200].join(", "));
        let (_, turns) = read(&ok).unwrap();
        assert_eq!(turns[0].matches(';').count(), 199, "200 actions");
    }

    #[test]
    fn an_action_longer_than_300_characters_is_refused() {
        let long = "b".repeat(301);
        let text = format!("[Game \"x\"]\n1. Blue: a, {long}\n");
        let err = read(&text).unwrap_err();
        assert_eq!(err.message, "an action is at most 300 characters long");
        let at = text.find(&long).unwrap();
        assert_eq!(err.span, Span::new(at, at + 1));
        let fits = format!("[Game \"x\"]\n1. Blue: {}\n", "b".repeat(300));
        let (_, turns) = read(&fits).unwrap();
        assert_eq!(
            turns[0],
            format!("1|Blue|{}|false|false|false", "b".repeat(300))
        );
    }

    #[test]
    fn unterminated_tags_and_comments_are_parse_errors() {
        assert!(read("[Game \"x]\n")
            .unwrap_err()
            .message
            .contains("no closing"));
        assert!(read("[Game \"x\"\n")
            .unwrap_err()
            .message
            .contains("expected `]`"));
        assert!(read("[Game \"x\"]\n1. Blue: {oops\n")
            .unwrap_err()
            .message
            .contains("never closed"));
    }

    #[test]
    fn a_forfeit_is_an_item_whose_first_word_is_forfeit() {
        for item in [
            "forfeit",
            "FORFEIT claimed by Red",
            " forfeit\tclaimed",
            "forfeit\u{a0}by",
            "\u{2003}Forfeit",
        ] {
            assert!(is_forfeit(item), "{item:?}");
        }
        for item in [
            "forfeits",
            "forfei",
            "forfeité",
            "a forfeit",
            "",
            "forfeit-x",
        ] {
            assert!(!is_forfeit(item), "{item:?}");
        }
        for item in [
            "forfeit",
            "forfeits x",
            "forfeit\u{a0}by",
            "é forfeit",
            "for feit",
        ] {
            let words = item.split_whitespace().next();
            let want = words.is_some_and(|w| w.eq_ignore_ascii_case("forfeit"));
            assert_eq!(is_forfeit(item), want, "{item:?}");
        }
    }

    /// The words and separators of the turn bodies
    /// [`a_plain_body_reads_as_it_does_with_a_comment`] puts together.
    const WORDS: [&str; 22] = [
        "Kc1-b1", "a", "pass", "resign", "audit", "x=1", "reveal", "REVEAL", "commit", "open",
        "sig", "deck", REVEAL, "a1", "R", "3", "forfeit", "claimed", "by", "Red", "Sig", "b",
    ];
    const BETWEEN: [&str; 7] = [" ", "  ", "\t", "\n  ", "\n\t", ", ", " ,"];
    /// Proof items to end a body with, `#` standing for 64 digits.
    const TAILS: [&str; 7] = [
        "",
        " reveal #",
        "\n    reveal #",
        "\n\tREVEAL\n #",
        "\n  reveal #\n  commit a1\n  #",
        "\n  open a1 R\n  #",
        " sig #",
    ];

    proptest::proptest! {
        /// Before the proofs of a plain item, the parts up to the first
        /// proof word are what the words of all its parts joined hold up
        /// to the first proof word among them (as the item was found
        /// before the parts were cut at the proof word).
        #[test]
        fn the_parts_before_the_first_proof_word_are_the_joined_words_before_it(
            words in proptest::collection::vec((0..WORDS.len(), 0..BETWEEN.len()), 1..12),
            tail in 0..TAILS.len(),
        ) {
            let mut body = String::new();
            for (word, between) in words {
                body.push_str(WORDS[word]);
                body.push_str(BETWEEN[between]);
            }
            let body = body.trim_end_matches([' ', '\t', ',', '\n']).to_owned()
                + &TAILS[tail].replace('#', REVEAL);
            let text = format!("1. Blue: {body}\n");
            // The body's pieces, every line after the head continuing it.
            let mut scan = BodyScan::default();
            let mut from = "1. Blue:".len();
            while from < text.len() {
                let line_end = end_of_line(&text, from);
                let blanks = line_end - from - skip_blanks(&text[from..line_end]).len();
                from = scan_body(&text, from + blanks, line_end, Some(&mut scan)).unwrap();
            }
            split_items(&text, &scan.pieces, &mut scan.parts, &mut scan.items).unwrap();
            let &(first, last) = scan.items.last().unwrap();
            let parts = &scan.parts[first..last];
            let span = item_span(&text, parts);
            let s = &text[span.range()];
            let Some(k) = first_proof_word(s) else {
                return Ok(());
            };
            let before_text = trim_end(&s[..k]);
            if !before_text.is_empty() {
                proptest::prop_assert!(s.as_bytes()[..k].iter().all(|&b| plain_byte(b)));
                let before = Span::new(span.start, span.start + before_text.len());
                proptest::prop_assert_eq!(
                    join_parts(&text, parts, span.start + k),
                    joined_before(&text, parts, span, before),
                    "{:?}", body
                );
            }
        }
    }

    proptest::proptest! {
        /// Eight bytes at a time find what a byte at a time finds, at
        /// every place in a word and in the bytes after the last word.
        #[test]
        fn finding_bytes_eight_at_a_time_finds_the_first(
            bytes in proptest::collection::vec(
                proptest::sample::select(vec![b'a', b',', b'{', b';', b'\n', 0, 0x80, 0xff]),
                0..40,
            )
        ) {
            let first = |targets: &[u8]| bytes.iter().position(|b| targets.contains(b));
            proptest::prop_assert_eq!(find_any(&bytes, [b',']), first(b","));
            proptest::prop_assert_eq!(find_any(&bytes, [b'\n']), first(b"\n"));
            proptest::prop_assert_eq!(find_any(&bytes, [b'{', b';']), first(b"{;"));
        }

        /// A proof's word ends where `str::find` finds white space.
        #[test]
        fn a_word_ends_at_the_first_white_space_as_str_find_has_it(
            chars in proptest::collection::vec(
                proptest::sample::select(vec![
                    'a', '1', ' ', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1}', '\u{1f}',
                    '\u{7f}', '\u{85}', '\u{a0}', 'é', '\u{2003}', '\u{3000}', '}',
                ]),
                0..12,
            )
        ) {
            let s: String = chars.into_iter().collect();
            let want = s.find(char::is_whitespace).unwrap_or(s.len());
            proptest::prop_assert_eq!(word_len(&s), want, "{:?}", s);
        }
    }

    #[test]
    fn an_item_before_proofs_on_its_next_line_joins_its_lines_words() {
        for body in [
            format!("Kc1-b1\n  a  b reveal {REVEAL}"),
            format!("Kc1-b1 {{c}}\n  a  b reveal {REVEAL}"),
            format!("Kc1-b1\n  a é\n  reveal {REVEAL}"),
        ] {
            let text = format!("[Game \"x\"]\n1. Blue: {body}\n");
            let source = Source::new(text.as_bytes()).unwrap();
            let turn = &parse(&source).unwrap().turns[0];
            let want = if body.contains('é') {
                "Kc1-b1 a é"
            } else {
                "Kc1-b1 a  b"
            };
            assert_eq!(turn.items[0].text, want, "{body:?}");
            assert_eq!(turn.proofs.len(), 1);
        }
    }

    /// The turn of `text` (a turn line, perhaps continuation lines), its
    /// head and body read but not finished.
    fn unfinished(text: &str) -> Option<(Turn<'_>, BodyScan)> {
        let mut state = LogState {
            turn: empty_turn(),
            open: None,
            scan: BodyScan::default(),
            count: 0,
            after_blank: true,
        };
        let mut pos = 0;
        while pos < text.len() {
            let (line_end, plain) = scan_line(text, pos);
            match log_line(text, (pos, line_end, plain), &mut state, &mut |_| {}) {
                Ok(Next::Line(next)) => pos = next,
                _ => return None,
            }
        }
        state.open.map(|_| (state.turn, state.scan))
    }

    /// Pieces of generated bodies: real items, items the common shape
    /// leaves to the general reading, and bytes that break it.
    const BODY_PIECES: [&str; 34] = [
        "Cb1-a1",
        "Kc9-c8",
        "+C",
        "Cd3*d7",
        "x=3",
        "card=rotate90",
        "die=4",
        "move-gate Ld2nw La2en",
        "rally Dwarf @C1",
        "pass",
        "PASS",
        "audit",
        "resign",
        "forfeit",
        "forfeit claimed by Red",
        "forfeit by",
        "reveal",
        "Sig",
        "deck",
        "",
        " ",
        "  ",
        ",",
        ", ",
        " ,",
        "\t",
        "é",
        "\u{a0}",
        "{c}",
        "}",
        ";x",
        "a=",
        "\x0c",
        "\n",
    ];

    /// Continuation lines of generated turns.
    const CONTINUATIONS: [&str; 14] = [
        "\n    reveal 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
        "\n reveal 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff  ",
        "\n\tREVEAL 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
        "\n  reveal 0011223344",
        "\n  reveal 00112233445566778899aabbccddeeff00112233445566778899aabbccddeefg",
        "\n  reveal 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff, x",
        "\n  reveal 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff sig 00",
        "\n  commit a1 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
        "\n  open a1 R",
        "\n  Cb1-a1",
        "\n  {c} reveal 00",
        "\n  reveal{c}",
        "\n  revealed 00",
        "\n\x0creveal 00",
    ];

    #[test]
    fn the_common_shape_is_read_as_the_general_reading_reads_it() {
        use proptest::prelude::*;
        let lines = (
            proptest::collection::vec(0..BODY_PIECES.len(), 0..8),
            proptest::collection::vec(0..CONTINUATIONS.len(), 0..3),
            proptest::collection::vec(
                proptest::sample::select(vec![b'a', b' ', b',', b'-', b'=', b'\n', b'{', b'}']),
                0..4,
            ),
        );
        let common = std::cell::Cell::new(0);
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(4000));
        let result = runner.run(&lines, |(body, continuations, noise)| {
            let mut text = String::from("12. Blue: ");
            for &k in &body {
                text.push_str(BODY_PIECES[k]);
            }
            text.extend(noise.iter().map(|&b| char::from(b)));
            for &k in &continuations {
                text.push_str(CONTINUATIONS[k]);
            }
            let Some((turn, scan)) = unfinished(&text) else {
                return Ok(());
            };
            let (mut general, mut general_scan) = (turn.clone(), scan.clone());
            let want = finish_general(&text, &mut general, &mut general_scan);
            let (mut fast, mut fast_scan) = (turn, scan);
            let Some(got) = finish_common(&text, &mut fast, &mut fast_scan) else {
                return Ok(());
            };
            common.set(common.get() + 1);
            prop_assert_eq!(&got, &want, "{:?}", text);
            if got.is_ok() {
                prop_assert_eq!(&fast, &general, "{:?}", text);
            }
            Ok(())
        });
        result.unwrap();
        // The common shape was read often enough to be tried.
        assert!(
            common.get() > 500,
            "the common shape read {} times",
            common.get()
        );
    }

    proptest::proptest! {
        #[test]
        fn printable_bytes_are_found_eight_at_a_time_as_one_at_a_time(
            bytes in proptest::collection::vec(
                proptest::sample::select(vec![
                    b'a', b' ', b'~', b'z', b'a', b'!', b'a', b'0', b'a', b'a', b'a', b'a', 0x1f, 0x7f, 0x80, 0xff, 0, b'\t',
                ]),
                0..40,
            )
        ) {
            let want = bytes.iter().all(|b| (b' '..=b'~').contains(b));
            proptest::prop_assert_eq!(printable(&bytes), want);
        }
    }

    proptest::proptest! {
        /// A line's end and plainness found eight bytes at a time are
        /// those found a byte at a time, wherever the line starts.
        #[test]
        fn a_line_is_scanned_eight_bytes_at_a_time_as_one_at_a_time(
            bytes in proptest::collection::vec(
                proptest::sample::select(vec![
                    b'a', b' ', b'~', b'a', b',', b'\n', b'{', b';', b'\t', 0x1f, 0x7f, 0x20,
                ]),
                0..40,
            ),
            wide in proptest::option::of(0..40usize),
        ) {
            let mut text = String::from_utf8(bytes).unwrap();
            if let Some(at) = wide {
                text.insert(at.min(text.len()), 'é');
            }
            for from in 0..text.len() {
                if !text.is_char_boundary(from) {
                    continue;
                }
                let end = text[from..].find('\n').map_or(text.len(), |k| from + k);
                let plain = text.as_bytes()[from..end]
                    .iter()
                    .all(|&b| (b' '..=b'~').contains(&b) && b != b'{' && b != b';');
                let plain = if plain { Plain::Yes } else { Plain::No };
                proptest::prop_assert_eq!(scan_line(&text, from), (end, plain), "{:?}", text);
            }
        }
    }

    proptest::proptest! {
        /// A byte found in a span eight bytes at a time is the first
        /// found a byte at a time, wherever the span stands.
        #[test]
        fn a_byte_in_a_span_is_found_eight_at_a_time_as_one_at_a_time(
            bytes in proptest::collection::vec(
                proptest::sample::select(vec![b'a', b'=', b'=', b'<', b'>', 0xbd, 0x3c]),
                0..30,
            ),
            start in 0..30usize,
            len in 0..30usize,
        ) {
            let start = start.min(bytes.len());
            let end = (start + len).min(bytes.len());
            let want = bytes[start..end].iter().position(|&b| b == b'=').map(|k| start + k);
            proptest::prop_assert_eq!(find_in(&bytes, Span::new(start, end), b'='), want);
        }
    }

    proptest::proptest! {
        /// Hexadecimal digits read eight at a time are read as the table
        /// reads them one at a time.
        #[test]
        fn hex_digits_read_eight_at_a_time_are_read_as_one_at_a_time(
            digits in proptest::collection::vec(
                proptest::sample::select(
                    b"0123456789abcdefABCDEF/:@G`gxX \x7f\x80\xff".to_vec(),
                ),
                64,
            ),
            bad in proptest::option::of((0..64usize, 0..=255u8)),
        ) {
            let mut digits = digits;
            // Mostly digits, at most one byte of any kind.
            for b in digits.iter_mut() {
                if !b.is_ascii_hexdigit() && bad.is_none() {
                    *b = b'7';
                }
            }
            if let Some((at, byte)) = bad {
                digits[at] = byte;
            }
            let want: Option<[u8; 32]> = hex_digits::decode(&digits);
            proptest::prop_assert_eq!(decode_hex::<32>(&digits), want);
            let want: Option<[u8; 16]> = hex_digits::decode(&digits[..32]);
            proptest::prop_assert_eq!(decode_hex::<16>(&digits[..32]), want);
            let want: Option<[u8; 3]> = hex_digits::decode(&digits[..6]);
            proptest::prop_assert_eq!(decode_hex::<3>(&digits[..6]), want);
        }
    }

    #[test]
    fn every_byte_is_a_hex_digit_eight_at_a_time_as_one_at_a_time() {
        for byte in 0..=255u8 {
            for at in 0..8 {
                let mut digits = *b"0123abcd";
                digits[at] = byte;
                let want: Option<[u8; 4]> = hex_digits::decode(&digits);
                assert_eq!(decode_hex::<4>(&digits), want, "{byte:#x} at {at}");
            }
        }
    }

    /// The turns read from `text` as [`read_turns`] reads them, or its
    /// error; with `Plain::No`, every line read in full, as if none
    /// were plain.
    fn read_lines<'a>(text: &'a str, lean: Plain) -> Result<Vec<Turn<'a>>, ParseError> {
        let mut state = LogState {
            turn: empty_turn(),
            open: None,
            scan: BodyScan::default(),
            count: 0,
            after_blank: true,
        };
        let mut turns = Vec::new();
        let mut each = |turn: &mut Turn<'a>| turns.push(turn.clone());
        let mut pos = 0;
        while pos < text.len() {
            let (line_end, plain) = scan_line(text, pos);
            let plain = if lean == Plain::Yes { plain } else { Plain::No };
            match log_line(text, (pos, line_end, plain), &mut state, &mut each)? {
                Next::Line(next) => pos = next,
                Next::LogOver => break,
                Next::Unclosed(open) => return Err(unclosed_comment(open)),
            }
        }
        if state.open.is_some() {
            finish_in_turn(text, &mut state.turn, &mut state.scan)?;
            each(&mut state.turn);
        }
        Ok(turns)
    }

    /// Heads of generated turn lines: the common shape and others.
    const HEADS: [&str; 16] = [
        "12. Blue: ",
        "1.Red:",
        "7. Blue :",
        "007. B-_1:",
        "999999999. Red: ",
        "1234567890. Red: ",
        "99999999999. Red: ",
        "12 Blue: ",
        "12. : ",
        "12. Blué: ",
        " 3. Red: ",
        "S1. Blue: ",
        "4.\tRed: ",
        "5. Blue; x",
        "6. Blue:{c}",
        "8. Red",
    ];

    #[test]
    fn a_plain_turn_line_is_read_as_the_full_reading_reads_it() {
        use proptest::prelude::*;
        let lines = proptest::collection::vec(
            (
                0..HEADS.len(),
                proptest::collection::vec(0..BODY_PIECES.len(), 0..6),
                proptest::collection::vec(0..CONTINUATIONS.len(), 0..2),
            ),
            1..4,
        );
        let lean = std::cell::Cell::new(0);
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(4000));
        let result = runner.run(&lines, |lines| {
            let mut text = String::new();
            let mut starts = Vec::new();
            for (head, body, continuations) in lines {
                starts.push(text.len());
                text.push_str(HEADS[head]);
                for &k in &body {
                    text.push_str(BODY_PIECES[k]);
                }
                for &k in &continuations {
                    text.push_str(CONTINUATIONS[k]);
                }
                text.push('\n');
            }
            for at in starts {
                let (_, plain) = scan_line(&text, at);
                let head = lean_head(text.as_bytes(), at);
                lean.set(lean.get() + usize::from(plain == Plain::Yes && head.is_some()));
            }
            let want = read_lines(&text, Plain::No);
            let got = read_lines(&text, Plain::Yes);
            prop_assert_eq!(got, want, "{:?}", text);
            Ok(())
        });
        result.unwrap();
        // The lean reading was tried often enough.
        assert!(lean.get() > 1000, "{} plain turn lines", lean.get());
    }

    #[test]
    fn multi_line_comments_are_skipped() {
        let (_, turns) = read("[Game \"x\"]\n1. Blue: a {one\ntwo} , b\n2. Red: pass\n").unwrap();
        assert_eq!(turns[0], "1|Blue|a;b|false|false|false");
    }
}
