//! The record grammar (see `notation-spec.md`), parsed with nom over the
//! clean text of a [`Source`], keeping byte offsets for every piece.

use std::borrow::Cow;

use nom::bytes::complete::take_while1;
use nom::character::complete::char;
use nom::{IResult, Parser};

use super::source::{trim, trim_end, trim_start};
use super::{
    hex_digits, Item, ItemKind, LineKind, ParseError, Proof, ProofKind, Record, Source, Span, Tag,
    Turn,
};

/// Most turns a record may hold (each player's chain has 10,000 links).
pub const MAX_TURNS: usize = 50_000;

/// The most items (actions, facts, `pass`, `resign`) on one turn line: far
/// more than any game's turn, few enough to keep memory small.
pub const MAX_ITEMS: usize = 200;

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
    text.as_bytes()[from..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(text.len(), |k| from + k)
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
/// allocates neither.
#[derive(Default)]
struct BodyScan {
    pieces: Vec<Span>,
    items: Vec<Parts>,
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

/// Whether the text given to [`read_log`] is the whole log, or a part
/// of it that more text follows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Rest {
    /// The text ends where the input does.
    None,
    /// More lines follow: a turn still open at the end of the text may
    /// go on in them.
    Follows,
}

/// Where [`read_log`] stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum LogEnd {
    /// The log is over: the text ended, or the log did (a signature, text
    /// after it).
    Over,
    /// The text ended inside a turn or a `{` comment, which may go on in
    /// the text that follows: read again from this line start, with more.
    From(usize),
}

/// What [`read_log`] keeps track of for one line.
struct LogState<'a> {
    /// The turn being read, and where its line starts.
    current: Option<(Turn<'a>, usize)>,
    /// The body pieces of the turn being read.
    scan: BodyScan,
    /// Turns finished so far (in this text and before it).
    count: usize,
    after_blank: bool,
}

fn parse_log(text: &str, start: usize) -> Result<Vec<Turn<'_>>, ParseError> {
    let mut turns = Vec::new();
    read_log(text, start, Rest::None, 0, &mut |turn| turns.push(turn))?;
    Ok(turns)
}

/// Read the log lines of `text` from `start`, giving each turn to `each`
/// as it is finished; `before` turns were read before this text (the most
/// a record holds counts them). With [`Rest::Follows`], a turn (or a
/// comment) still open at the end of the text is not finished: where its
/// line starts is returned, to be read again with the text that follows.
pub(crate) fn read_log<'a>(
    text: &'a str,
    start: usize,
    rest: Rest,
    before: usize,
    each: &mut dyn FnMut(Turn<'a>),
) -> Result<LogEnd, ParseError> {
    let mut state = LogState {
        current: None,
        scan: BodyScan::default(),
        count: before,
        after_blank: true,
    };
    let mut pos = start;
    while pos < text.len() {
        let line_end = end_of_line(text, pos);
        match log_line(text, pos, line_end, &mut state, each)? {
            Next::Line(next) => pos = next,
            Next::LogOver => break,
            Next::Unclosed(_) if rest == Rest::Follows => {
                let from = state.current.as_ref().map_or(pos, |c| c.1);
                return Ok(LogEnd::From(from));
            }
            Next::Unclosed(open) => return Err(unclosed_comment(open)),
        }
    }
    match state.current.take() {
        Some((_, from)) if rest == Rest::Follows && pos >= text.len() => Ok(LogEnd::From(from)),
        Some((turn, _)) => {
            each(finish_in_turn(text, turn, &mut state.scan)?);
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

/// Read the log line at `pos..line_end`.
fn log_line<'a>(
    text: &'a str,
    pos: usize,
    line_end: usize,
    state: &mut LogState<'a>,
    each: &mut dyn FnMut(Turn<'a>),
) -> Result<Next, ParseError> {
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
            && (state.current.is_none() || state.after_blank || numbered(trimmed));
    let body_from;
    if starts_turn {
        if let Some((turn, _)) = state.current.take() {
            each(finish_in_turn(text, turn, &mut state.scan)?);
            state.count += 1;
        }
        if state.count >= MAX_TURNS {
            return Err(ParseError::new(
                Span::new(content, line_end),
                format!("a record holds at most {MAX_TURNS} turns"),
            ));
        }
        let kind = if setup_line {
            LineKind::Setup
        } else {
            LineKind::Turn
        };
        let (turn, rest) = line_head(text, trimmed, kind, line_end)?;
        state.current = Some((turn, pos));
        state.scan.pieces.clear();
        body_from = offset(text, rest);
    } else if trimmed.starts_with('{') || trimmed.starts_with(';') {
        body_from = content;
    } else if state.current.is_some() && !state.after_blank {
        body_from = content; // a continuation line
    } else {
        return Ok(Next::LogOver); // text after the log: a signature, a reply
    }
    state.after_blank = false;
    let scan = state.current.is_some().then_some(&mut state.scan);
    let next = match scan_body(text, body_from, line_end, scan) {
        Ok(next) => next,
        Err(open) => return Ok(Next::Unclosed(open)),
    };
    if let Some((turn, _)) = state.current.as_mut() {
        turn.lines_end = next.saturating_sub(1).min(text.len());
    }
    Ok(Next::Line(next))
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

/// The head of a turn line (`12. Blue:`, or `S2. Red:` for a set-up
/// line), `line` running from its first character to `line_end`: the turn
/// with nothing in it yet, and the rest of the line.
fn line_head<'a>(
    text: &'a str,
    line: &'a str,
    kind: LineKind,
    line_end: usize,
) -> Result<(Turn<'a>, &'a str), ParseError> {
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
    let turn = Turn {
        number: n,
        number_span,
        side,
        side_span: Span::new(side_start, side_start + side.len()),
        items: Vec::new(),
        kind,
        pass: None,
        resign: None,
        audit: None,
        forfeit: None,
        proofs: Vec::new(),
        span: Span::new(content, line_end),
        lines_end: line_end,
    };
    Ok((turn, rest))
}

/// [`finish_turn`], naming the turn in its errors.
fn finish_in_turn<'a>(
    text: &'a str,
    turn: Turn<'a>,
    scan: &mut BodyScan,
) -> Result<Turn<'a>, ParseError> {
    let (kind, number, side) = (turn.kind, turn.number, turn.side);
    finish_turn(text, turn, scan).map_err(|e| e.in_line(kind, number, side))
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
    while k < line_end {
        match bytes[k] {
            b'{' => {
                push(&mut scan, piece_start, k);
                let end = comment_end(text, k).ok_or(k)?;
                if end > line_end {
                    // The comment runs over lines; the rest of its last line
                    // is read as part of this turn.
                    let next_end = end_of_line(text, end);
                    return scan_body(text, end, next_end, scan);
                }
                k = end;
                piece_start = k;
            }
            b';' => {
                push(&mut scan, piece_start, k);
                return Ok(line_end + 1);
            }
            _ => k += 1,
        }
    }
    push(&mut scan, piece_start, line_end);
    Ok(line_end + 1)
}

/// Split a turn's body pieces into items at commas, find `pass`, `resign`
/// and the reveal.
fn finish_turn<'a>(
    text: &'a str,
    mut turn: Turn<'a>,
    scan: &mut BodyScan,
) -> Result<Turn<'a>, ParseError> {
    split_items(text, &scan.pieces, &mut scan.items)?;
    let items = &scan.items;
    let head_end = turn.side_span.end;
    let count = items.len();
    for (index, parts) in items.iter().enumerate() {
        let parts = parts.as_slice();
        let (mut item_text, mut span) = join_parts(text, parts);
        if span.start == span.end {
            let at = parts.first().map_or(head_end, |p| p.start);
            let msg = if count == 1 {
                "a turn line needs its actions, `pass` or `resign` after the side"
            } else {
                "an empty action between commas"
            };
            return Err(ParseError::new(Span::new(at, at + 1), msg));
        }
        if index + 1 == count {
            if let Some((before, proofs)) = split_proofs(text, &item_text, span)? {
                let first = proofs.first().map_or(span, |p| p.span);
                turn.proofs = proofs;
                match before {
                    Some((t, s)) => {
                        item_text = t;
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
        if item_text.len() > MAX_ACTION_LEN {
            return Err(ParseError::new(
                Span::new(span.start, span.start + 1),
                format!("an action is at most {MAX_ACTION_LEN} characters long"),
            ));
        }
        turn.span.end = turn.span.end.max(span.end);
        add_item(text, &mut turn, item_text, span, count - index)?;
    }
    if let Some(last) = turn.proofs.last() {
        turn.span.end = turn.span.end.max(last.span.end);
    }
    Ok(turn)
}

/// The parts of one item: most items are one piece of text, some run
/// over comments.
enum Parts {
    None,
    One(Span),
    Many(Vec<Span>),
}

impl Parts {
    fn push(&mut self, span: Span) {
        *self = match std::mem::replace(self, Parts::None) {
            Parts::None => Parts::One(span),
            Parts::One(first) => Parts::Many(vec![first, span]),
            Parts::Many(mut list) => {
                list.push(span);
                Parts::Many(list)
            }
        };
    }

    fn as_slice(&self) -> &[Span] {
        match self {
            Parts::None => &[],
            Parts::One(span) => std::slice::from_ref(span),
            Parts::Many(list) => list,
        }
    }
}

/// The items of a turn's body, split at commas, each as the spans of its
/// parts (an item may run over comments).
fn split_items(text: &str, pieces: &[Span], items: &mut Vec<Parts>) -> Result<(), ParseError> {
    items.clear();
    items.push(Parts::None);
    for piece in pieces {
        let mut a = piece.start;
        let bytes = &text.as_bytes()[piece.range()];
        for (k, _) in bytes.iter().enumerate().filter(|(_, &b)| b == b',') {
            let cut = piece.start + k;
            if items.len() >= MAX_ITEMS {
                return Err(ParseError::new(
                    Span::new(cut, cut + 1),
                    format!("a turn holds at most {MAX_ITEMS} actions"),
                ));
            }
            if let Some(last) = items.last_mut() {
                last.push(Span::new(a, cut));
            }
            items.push(Parts::None);
            a = cut + 1;
        }
        if let Some(last) = items.last_mut() {
            last.push(Span::new(a, piece.end));
        }
    }
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
    let alone = left == 1 && turn.items.is_empty() && turn.resign.is_none();
    let word = item_text.as_ref();
    if is_forfeit(word) {
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
    } else {
        let kind = fact(text, span).unwrap_or(ItemKind::Action);
        // Room for this item and those after it, once (a line of `pass`
        // keeps no room at all: a record holds up to 50,000 lines).
        if turn.items.capacity() == 0 {
            turn.items.reserve_exact(left);
        }
        turn.items.push(Item {
            text: item_text,
            span,
            kind,
        });
    }
    Ok(())
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

/// The text of an item made of `parts` (joined by a space where a comment
/// was cut out), trimmed, and its span.
fn join_parts<'a>(text: &'a str, parts: &[Span]) -> (Cow<'a, str>, Span) {
    if let [only] = parts {
        // The common case: no comment inside the item.
        let raw = &text[only.range()];
        let trimmed = trim(raw);
        if trimmed.is_empty() {
            return (Cow::Borrowed(""), Span::new(only.start, only.start));
        }
        let start = only.start + (raw.len() - trim_start(raw).len());
        return (
            Cow::Borrowed(trimmed),
            Span::new(start, start + trimmed.len()),
        );
    }
    let nonempty: Vec<Span> = parts
        .iter()
        .copied()
        .filter(|p| !trim(&text[p.range()]).is_empty())
        .collect();
    let (Some(first), Some(last)) = (nonempty.first(), nonempty.last()) else {
        let at = parts.first().map_or(0, |p| p.start);
        return (Cow::Borrowed(""), Span::new(at, at));
    };
    let lead = text[first.range()].len() - trim_start(&text[first.range()]).len();
    let trail = text[last.range()].len() - trim_end(&text[last.range()]).len();
    let span = Span::new(first.start + lead, last.end - trail);
    if nonempty.len() == 1 {
        return (Cow::Borrowed(&text[span.range()]), span);
    }
    let joined = nonempty
        .iter()
        .map(|p| trim(&text[p.range()]))
        .collect::<Vec<_>>()
        .join(" ");
    (Cow::Owned(joined), span)
}

/// `label=value`, where label is lower-case letters, digits and `-`.
fn fact(text: &str, span: Span) -> Option<ItemKind<'_>> {
    let s = &text[span.range()];
    let equals = s.bytes().position(|b| b == b'=')?;
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
const PROOF_WORDS: [&str; 8] = [
    "reveal",
    "commit",
    "open",
    "sig",
    "share",
    "cardkey",
    "deck",
    "cardsecret",
];

/// Split the proof items (`reveal <hex>`, `open <slot> <value> <hex>`,
/// `sig <hex>`, `share <n> <hex> <hex>`, `cardkey <hex> <hex>`, `deck <n>
/// <hex>`, `cardsecret <hex>`) off the end of the last item.
fn split_proofs<'a>(
    text: &'a str,
    item: &Cow<'a, str>,
    span: Span,
) -> Result<Option<(Before<'a>, Vec<Proof<'a>>)>, ParseError> {
    // Work on the source text of the span (a proof never holds comments).
    let s = &text[span.range()];
    let Some(k) = first_proof_word(s) else {
        return Ok(None);
    };
    let mut cursor = ProofCursor {
        text,
        at: span.start + k,
        end: span.end,
    };
    let mut proofs = Vec::new();
    while cursor.skip_space() {
        proofs.push(cursor.proof()?);
    }
    let before_text = trim_end(&s[..k]);
    if before_text.is_empty() {
        return Ok(Some((None, proofs)));
    }
    let before_span = Span::new(span.start, span.start + before_text.len());
    let before = match item {
        Cow::Borrowed(_) => Cow::Borrowed(&text[before_span.range()]),
        Cow::Owned(o) => {
            let cut = first_proof_word(o).unwrap_or(o.len());
            Cow::Owned(o[..cut].trim_end().to_owned())
        }
    };
    Ok(Some((Some((before, before_span)), proofs)))
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
        let rest = &self.text[self.at..self.end];
        self.at += rest.len() - trim_start(rest).len();
        self.at < self.end
    }

    /// The next word (up to white space), and its span.
    fn word(&mut self) -> (&'a str, Span) {
        self.skip_space();
        let rest = &self.text[self.at..self.end];
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let span = Span::new(self.at, self.at + len);
        self.at += len;
        (&self.text[span.range()], span)
    }

    /// One proof item.
    fn proof(&mut self) -> Result<Proof<'a>, ParseError> {
        let start = self.at;
        let (word, word_span) = self.word();
        let kind =
            match word.to_ascii_lowercase().as_str() {
                "reveal" => ProofKind::Reveal(self.hex("a reveal is 64 hexadecimal digits")?),
                "open" => {
                    let slot = self.token("a slot name, as in `open a1 R <salt>`")?;
                    let value = self.token("the slot's value, as in `open a1 R <salt>`")?;
                    let salt = self.hex("an opening's salt is 64 hexadecimal digits")?;
                    ProofKind::Open { slot, value, salt }
                }
                "commit" => {
                let slot = self.token("a slot name, as in `commit a1 <digest>`")?;
                let digest = self.hex("a commitment is 64 hexadecimal digits")?;
                ProofKind::Commit { slot, digest }
            }
            "sig" => ProofKind::Sign(self.hex("a signature is 128 hexadecimal digits")?),
                "share" => {
                    let (n, n_span) = self.word();
                    let position = n.parse().map_err(|_| {
                        ParseError::new(n_span, "a share names a deck position (a number)")
                    })?;
                    let share = self.hex("a share's point is 64 hexadecimal digits")?;
                    let proof = self.hex("a share's proof is 128 hexadecimal digits")?;
                    ProofKind::Share {
                        position,
                        share,
                        proof,
                    }
                }
                "cardkey" => {
                    let key = self.hex("a card key is 64 hexadecimal digits")?;
                    let proof = self.hex("a card key's proof is 128 hexadecimal digits")?;
                    ProofKind::CardKey { key, proof }
                }
                "deck" => {
                    let (n, n_span) = self.word();
                    let position = n.parse().map_err(|_| {
                        ParseError::new(n_span, "a deck item names a deck position (a number)")
                    })?;
                    let card = self.hex("a deck item's card is 128 hexadecimal digits")?;
                    ProofKind::Deck { position, card }
                }
                "cardsecret" => {
                    ProofKind::CardSecret(self.hex("a card secret is 64 hexadecimal digits")?)
                }
                _ => return Err(ParseError::new(
                    Span::new(word_span.start, self.end),
                    "only proof items (reveal, commit, open, sig, share, cardkey, deck, cardsecret) may follow \
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
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'));
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
            if let Some(value) = hex_digits::decode(&rest[..2 * N]) {
                self.at += 2 * N;
                return Ok(value);
            }
        }
        // Nibbles read so far; white space between digits is skipped.
        let mut nibbles = 0;
        while nibbles < 2 * N && self.at < self.end {
            let b = bytes[self.at];
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
            return Err(ParseError::new(Span::new(start, end.max(start + 1)), wrong));
        }
        Ok(value)
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
        // Proof words are 3 to 10 letters: most words are passed over by
        // their length alone.
        if (3..=10).contains(&len)
            && PROOF_WORDS
                .iter()
                .any(|w| w.as_bytes().eq_ignore_ascii_case(word))
        {
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
        let err = read("[Game \"x\"]\n1. Blue: pass deck 3 12\n").unwrap_err();
        assert_eq!(err.message, "a deck item's card is 128 hexadecimal digits");
        let err = read("[Game \"x\"]\n1. Blue: pass cardsecret 1\n").unwrap_err();
        assert_eq!(err.message, "a card secret is 64 hexadecimal digits");
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

    #[test]
    fn multi_line_comments_are_skipped() {
        let (_, turns) = read("[Game \"x\"]\n1. Blue: a {one\ntwo} , b\n2. Red: pass\n").unwrap();
        assert_eq!(turns[0], "1|Blue|a;b|false|false|false");
    }
}
