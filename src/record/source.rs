//! Reading a record out of whatever text it arrived in: an email with text
//! before the header, `> ` quoting, CRLF line ends, a signature after the
//! log. The result is the record's own text ("clean" text) plus a map back
//! to line and column of the original, for error messages.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

/// Largest input accepted, in bytes. A record of 10,000 turns is well under
/// a megabyte; anything this large is not a game record.
pub const MAX_INPUT: usize = 8 * 1024 * 1024;

/// Longest line of input accepted, in bytes, its line end not counted.
/// herald wraps a record's turn lines at 76 columns, and a turn joined
/// into one line, every proof item on it, is a few KiB (the longest in
/// an 844-turn Battlegates game, a set-up line with its deck pass and
/// proofs, 6,844 bytes); a longer line is no
/// record's text, and refusing it keeps a reader from holding it
/// (docs/record.md, section 1.2).
pub const MAX_LINE: usize = 64 * 1024;

/// A [`Source`]'s line map keeps an entry for a line only when the line
/// cannot be told from the one before it, or every this many lines...
const RUN_LINES: usize = 256;

/// ... or when the line starts more than this many bytes of the
/// original past the last entry kept: so finding a line costs at most
/// this many lines or bytes read again, and the map of a text of
/// millions of short lines (blank lines, comment lines) stays small.
const RUN_BYTES: usize = 4096;

/// A byte range in a [`Source`]'s clean text.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The span as a range.
    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

/// A line and column in the original input, both counted from 1; the
/// column counts characters.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    /// Line number from 1.
    pub line: usize,
    /// Column (in characters) from 1.
    pub column: usize,
}

/// Why the input is not text that a record can be read from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InputError {
    /// Where the problem is (1-based).
    pub position: Position,
    /// What is wrong.
    pub message: String,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct LineMap {
    /// Start of this line in the clean text.
    pub(crate) clean_start: usize,
    /// Start of the line in the original input.
    pub(crate) orig_start: usize,
    /// Bytes of quoting stripped from the front of the original line.
    pub(crate) stripped: usize,
    /// 1-based line number in the original input.
    pub(crate) line: usize,
    /// Quote marks in front of the original line.
    pub(crate) marks: usize,
}

/// A line map kept short: an entry for a line only where the line
/// cannot be told from the one before it. A line between two entries
/// (or after the last) is told from the line before it: it starts just
/// past that line's line feed, in the clean text and in the original,
/// one line number on, quoted the same. (A table with an entry for
/// every line is one too.)
#[derive(Clone, Debug, Default)]
pub(crate) struct LineTable {
    entries: Vec<LineMap>,
    /// What the next line added would be, were it told from the last:
    /// its starts and number, quoted the same.
    next: Option<LineMap>,
    /// Lines added since the last entry, that one included.
    run: usize,
}

impl LineTable {
    /// A table with an entry for each of `lines`.
    pub(crate) fn every(lines: Vec<LineMap>) -> Self {
        LineTable {
            entries: lines,
            next: None,
            run: 0,
        }
    }

    /// The entries kept.
    pub(crate) fn entries(&self) -> &[LineMap] {
        &self.entries
    }

    /// Add the next line, its map `map`: its line feed ends the clean
    /// text at `clean_end` and the original at `orig_end` (both one past
    /// it). An entry is kept only when the line cannot be told from the
    /// one before, or [`RUN_LINES`] lines or [`RUN_BYTES`] bytes have
    /// passed since the last entry.
    fn push(&mut self, map: LineMap, clean_end: usize, orig_end: usize) {
        let told = self.next.is_some_and(|n| {
            (n.clean_start, n.orig_start, n.stripped, n.line, n.marks)
                == (
                    map.clean_start,
                    map.orig_start,
                    map.stripped,
                    map.line,
                    map.marks,
                )
        }) && self.run < RUN_LINES
            && self
                .entries
                .last()
                .is_some_and(|e| map.orig_start - e.orig_start <= RUN_BYTES);
        #[cfg(test)]
        let told = told && !EVERY_LINE.with(std::cell::Cell::get);
        if told {
            self.run += 1;
        } else {
            self.entries.push(map);
            self.run = 1;
        }
        self.next = Some(LineMap {
            clean_start: clean_end,
            orig_start: orig_end,
            line: map.line + 1,
            ..map
        });
    }
}

#[cfg(test)]
thread_local! {
    /// In tests: keep an entry for every line, the map to check the
    /// short one against.
    static EVERY_LINE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// In tests: take every empty line through the whole per-line path,
    /// no run of them at once, the reading to check the runs against.
    static NO_RUNS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The record's text, unquoted, with `\n` line ends, and its map back to the
/// original input.
#[derive(Debug, Clone)]
pub struct Source {
    /// The text the record was found in (shared by every record found in
    /// it): the input as given, or a decoded mail part.
    original: Arc<str>,
    clean: String,
    /// The line map, an entry for some of the lines.
    lines: LineTable,
    /// Quote marks in front of the record's first header line.
    header_marks: usize,
    /// Which decoded mail part `original` is, if it is not the input as
    /// given (e.g. `part 1.2, text/plain, quoted-printable, decoded`).
    part: Option<String>,
    /// Lines of the input before `original` (the headers of a message
    /// whose body is read as it stands).
    line_offset: usize,
}

/// Whether an ASCII byte is white space as [`char::is_whitespace`] has
/// it (tab, line feed, vertical tab, form feed, carriage return, space).
fn ascii_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

/// `s.trim_start()`, passing over ASCII white space a byte at a time:
/// where a character of another script follows it, `str::trim_start`
/// reads on, so the result is always `str::trim_start`'s.
pub(crate) fn trim_start(s: &str) -> &str {
    let bytes = s.as_bytes();
    let mut n = 0;
    while n < bytes.len() && ascii_space(bytes[n]) {
        n += 1;
    }
    let rest = &s[n..];
    match rest.as_bytes().first() {
        Some(b) if !b.is_ascii() => rest.trim_start(),
        _ => rest,
    }
}

/// `s.trim_end()`, as [`trim_start`] does it.
pub(crate) fn trim_end(s: &str) -> &str {
    let bytes = s.as_bytes();
    let mut n = bytes.len();
    while n > 0 && ascii_space(bytes[n - 1]) {
        n -= 1;
    }
    let rest = &s[..n];
    match rest.as_bytes().last() {
        Some(b) if !b.is_ascii() => rest.trim_end(),
        _ => rest,
    }
}

/// `s.trim()`, as [`trim_start`] does it.
pub(crate) fn trim(s: &str) -> &str {
    trim_end(trim_start(s))
}

/// Count the quote marks (`>`, optionally separated by spaces) that open a
/// line; returns (marks, bytes of the prefix including one space after the
/// last mark).
fn quote_prefix(line: &str) -> (usize, usize) {
    let bytes = line.as_bytes();
    let mut marks = 0;
    let mut i = 0;
    let mut consumed = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'>' => {
                marks += 1;
                i += 1;
                consumed = i;
                if bytes.get(i) == Some(&b' ') {
                    i += 1;
                    consumed = i;
                }
            }
            b' ' | b'\t'
                if marks > 0 && bytes[i..].iter().find(|b| !b" \t".contains(b)) == Some(&b'>') =>
            {
                i += 1;
            }
            _ => break,
        }
    }
    (marks, consumed)
}

/// True for a line that starts a header tag: `[Name "`.
fn starts_header(text: &str) -> bool {
    let t = trim_start(text);
    let Some(rest) = t.strip_prefix('[') else {
        return false;
    };
    let rest = trim_start(rest);
    let name_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    name_len > 0
        && rest.as_bytes()[0].is_ascii_alphabetic()
        && trim_start(&rest[name_len..]).starts_with('"')
}

fn position_of_byte(text: &str, byte: usize) -> Position {
    let before = &text[..byte];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Position {
        line,
        column: before[line_start..].chars().count() + 1,
    }
}

/// The bytes of `word` that are line feeds: the top bit of each such
/// byte set, every other bit clear. (Each byte `x` of the word with the
/// line feed's bits flipped is zero where a line feed was; `(x & 0x7f) +
/// 0x7f` has its top bit set when any other bit of `x` is, and never
/// carries into the next byte.)
fn line_feeds_in(word: u64) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = word ^ 0x0a0a_0a0a_0a0a_0a0a;
    !(((x & LOW) + LOW) | x | LOW)
}

/// How many empty lines stand at `from`: line feeds alone, and with
/// `crlf` also a carriage return followed by a line feed.
fn blank_run(bytes: &[u8], from: usize, crlf: bool) -> usize {
    #[cfg(test)]
    if NO_RUNS.with(std::cell::Cell::get) {
        return 0;
    }
    let mut at = from;
    let mut run = 0;
    loop {
        match bytes.get(at..).unwrap_or_default() {
            [b'\n', ..] => at += 1,
            [b'\r', b'\n', ..] if crlf => at += 2,
            _ => return run,
        }
        run += 1;
    }
}

/// Where the first line feed of `bytes` at or after `from` stands (the
/// length of `bytes` when there is none), looked for eight bytes at a
/// time.
pub(crate) fn next_line_feed(bytes: &[u8], from: usize) -> usize {
    let mut at = from;
    while let Some(word) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let found = line_feeds_in(u64::from_le_bytes(*word));
        if found != 0 {
            return at + found.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    let rest = bytes.get(at..).unwrap_or_default();
    rest.iter()
        .position(|b| *b == b'\n')
        .map_or(bytes.len().max(from), |n| at + n)
}

/// Whether every byte of `bytes` is ASCII other than NUL and carriage
/// return, looked at eight bytes at a time: text that [`input_text`]
/// takes as it stands. (In a word without a byte of 0x80 or more, a
/// byte `x` is zero when `x + 0x7f` leaves its top bit clear; a
/// carriage return is a zero once the word is flipped by `0x0d` in
/// each byte; neither sum carries into the next byte.)
fn ascii_lines(bytes: &[u8]) -> bool {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const CR: u64 = 0x0d0d_0d0d_0d0d_0d0d;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        if x & HIGH != 0 || (x + LOW) & ((x ^ CR) + LOW) & HIGH != HIGH {
            return false;
        }
    }
    words
        .remainder()
        .iter()
        .all(|&b| (1..0x80).contains(&b) && b != b'\r')
}

/// Make input bytes into text to look for records in: at most
/// [`MAX_INPUT`] bytes of UTF-8 without NUL, no line longer than
/// [`MAX_LINE`]; old Mac line ends become line
/// feeds; spaces and quotes that mail clients substitute are made plain
/// ([`plain_spaces_and_quotes`]).
pub fn input_text(input: &[u8]) -> Result<String, InputError> {
    input_str(input).map(Cow::into_owned)
}

/// [`input_text`], borrowing the input where it stands as it is (plain
/// ASCII text with line feeds).
pub(crate) fn input_str(input: &[u8]) -> Result<Cow<'_, str>, InputError> {
    if input.len() > MAX_INPUT {
        return Err(InputError::at_start(format!(
            "the input is larger than {} MiB: not a game record",
            MAX_INPUT / (1024 * 1024)
        )));
    }
    if let Some(line) = long_line(input) {
        return Err(long_line_error(line));
    }
    if ascii_lines(input) {
        // Nothing to change or refuse: the UTF-8 check cannot fail.
        if let Ok(text) = std::str::from_utf8(input) {
            return Ok(Cow::Borrowed(text));
        }
    }
    let text = match std::str::from_utf8(input) {
        // Old Mac line ends (CR alone): the same bytes with LF.
        Ok(s) if s.as_bytes().contains(&b'\r') && !s.as_bytes().contains(&b'\n') => {
            Cow::Owned(s.replace('\r', "\n"))
        }
        Ok(s) => Cow::Borrowed(s),
        Err(e) => {
            let good = e.valid_up_to();
            let text = std::str::from_utf8(&input[..good]).unwrap_or_default();
            return Err(InputError {
                position: position_of_byte(text, good),
                message:
                    "the input is not UTF-8 text (a binary file, or a mail part still encoded?)"
                        .into(),
            });
        }
    };
    if let Some(nul) = text.find('\0') {
        return Err(InputError {
            position: position_of_byte(&text, nul),
            message: "the input holds a NUL byte: it is binary data, not a game record".into(),
        });
    }
    Ok(match text {
        Cow::Borrowed(s) if s.is_ascii() => Cow::Borrowed(s),
        text => Cow::Owned(plain_spaces_and_quotes(text.into_owned())),
    })
}

/// The first line of `input` (numbered from 1) longer than
/// [`MAX_LINE`] bytes, its line end (`\n` or `\r\n`) not counted; lines
/// end at line feeds, or at carriage returns in a text without line
/// feeds (old Mac line ends, as [`input_text`] reads them).
pub(crate) fn long_line(input: &[u8]) -> Option<usize> {
    let lf = input.contains(&b'\n');
    let mut start = 0;
    let mut line = 1;
    while start < input.len() {
        let end = match lf {
            true => next_line_feed(input, start),
            false => input[start..]
                .iter()
                .position(|b| *b == b'\r')
                .map_or(input.len(), |n| start + n),
        };
        if line_too_long(&input[start..end]) {
            return Some(line);
        }
        start = end + 1;
        line += 1;
    }
    None
}

/// Whether `line`, without its line feed, is longer than [`MAX_LINE`]
/// bytes once a carriage return that ends it is taken off.
pub(crate) fn line_too_long(line: &[u8]) -> bool {
    line.strip_suffix(b"\r").unwrap_or(line).len() > MAX_LINE
}

/// [`Source::new`]'s error for input whose line `line` (from 1) is
/// longer than [`MAX_LINE`].
pub(crate) fn long_line_error(line: usize) -> InputError {
    InputError {
        position: Position { line, column: 1 },
        message: format!(
            "this line is longer than {} KiB, which no line of a game record comes near \
             (herald wraps turn lines at 76 columns, and a whole turn with its proofs \
             joined into one line is a few KiB): this is not a record's text. A comment \
             may go on over several lines, and a turn over continuation lines",
            MAX_LINE / 1024
        ),
    }
}

/// Spaces that mail clients put in (U+00A0 no-break space, U+2007,
/// U+202F) become plain spaces, and on a line that starts a header tag
/// without a straight `"`, curly quotes (“ ” „ ″) become `"`. Each
/// replaced character is one character again, so line and column
/// numbers stay those of the input.
pub fn plain_spaces_and_quotes(text: String) -> String {
    if text.is_ascii() {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (_, prefix) = quote_prefix(line);
        let content = line[prefix..].trim_start_matches([' ', '\t', '\u{a0}']);
        let tag_line = content.starts_with('[') && !content.contains('"');
        for c in line.chars() {
            out.push(match c {
                '\u{a0}' | '\u{2007}' | '\u{202f}' => ' ',
                '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' | '\u{2033}' if tag_line => '"',
                c => c,
            });
        }
    }
    out
}

/// The error for input that holds no record.
fn no_record_error(input: &[u8]) -> InputError {
    InputError::at_start(if input.trim_ascii().is_empty() {
        "the input is empty: a record starts with header tags such as [Game \"castle-danger\"]"
            .into()
    } else {
        "no record found: a record starts with header tags such as [Game \"castle-danger\"]".into()
    })
}

impl InputError {
    /// An error about the input as a whole (line 1, column 1).
    pub fn at_start(message: String) -> Self {
        InputError {
            position: Position { line: 1, column: 1 },
            message,
        }
    }
}

/// Whether a line (after its quote marks) starts a turn or set-up line:
/// `12.` or `S3.`.
fn starts_turn(content: &str) -> bool {
    let t = trim_start(content);
    let t = match t.as_bytes().first() {
        Some(b'S' | b's') => &t[1..],
        _ => t,
    };
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && t.as_bytes().get(digits) == Some(&b'.')
}

/// A piece of a hexadecimal value alone on a line: the rest of a proof
/// item that a mail client re-wrapped without its quote marks.
fn hex_fragment(content: &str) -> bool {
    let t = trim(content);
    !t.is_empty() && t.len() <= 128 && t.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A line with which a mail client starts the message it quotes without
/// quote marks (Outlook, forwards): a record never runs past it.
fn quoted_message_separator(content: &str) -> bool {
    let t = trim(content);
    // Each kind of separator starts with one of these: most lines are
    // passed over by their first byte alone.
    if !matches!(t.as_bytes().first(), Some(b'-' | b'_' | b'B' | b'b')) {
        return false;
    }
    let dashes = |s: &str| s.len() >= 3 && s.bytes().all(|b| b == b'-');
    let framed = t
        .strip_prefix("---")
        .and_then(|r| r.strip_suffix("---"))
        .map(|mid| mid.trim_matches('-').trim());
    matches!(framed, Some(m) if m.eq_ignore_ascii_case("Original Message")
        || m.eq_ignore_ascii_case("Forwarded message")
        || m.eq_ignore_ascii_case("Forwarded Message"))
        || (t.len() >= 10 && t.bytes().all(|b| b == b'_'))
        || t.eq_ignore_ascii_case("Begin forwarded message:")
        || dashes(t) && t.len() >= 10
}

/// What the line before was, as far as the scan for records cares.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Last {
    Blank,
    /// A header tag line, and whether its last tag is closed with `]`.
    Tag {
        closed: bool,
    },
    /// A turn line or a line continuing it.
    Turn,
}

/// What to do with a line while a record is being read.
enum Step {
    /// Part of the record: strip this many bytes of quoting.
    Take(usize),
    /// The record ended before this line.
    End,
}

/// A record being read out of a text: what the lines taken so far say
/// of the next.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Block {
    /// The quote marks of the record's lines as it stands now (a turn
    /// typed under a quoted record lowers it).
    marks: usize,
    last: Last,
    turns: bool,
    game: bool,
    /// The last line taken ends with a comma: its turn goes on on the
    /// next line (which a mail client may have re-wrapped without its
    /// quote marks).
    comma: bool,
}

impl Block {
    fn new(marks: usize) -> Self {
        Block {
            marks,
            last: Last::Blank,
            turns: false,
            game: false,
            comma: false,
        }
    }

    /// Whether the line (with `marks` quote marks, `prefix` bytes of
    /// quoting and `content` after it) belongs to this record.
    fn step(&mut self, marks: usize, prefix: usize, content: &str) -> Step {
        // Each test below reads the line as trimmed: trim it once.
        let content = trim(content);
        if content.is_empty() {
            return Step::Take(prefix);
        }
        if quoted_message_separator(content) {
            return Step::End;
        }
        if starts_header(content) {
            let game = is_game_tag(content);
            // A second record starts: after turns, or with a second Game tag.
            if self.turns || (game && self.game) {
                return Step::End;
            }
            self.marks = marks;
            return Step::Take(prefix);
        }
        let after_line = self.last != Last::Blank;
        let take = match marks.cmp(&self.marks) {
            std::cmp::Ordering::Equal => true,
            // Quoted deeper than the record, directly under its lines.
            std::cmp::Ordering::Greater => after_line,
            // A turn typed under a quoted record; the rest of a line that
            // a mail client re-wrapped without its quote marks.
            std::cmp::Ordering::Less => {
                if starts_turn(content) {
                    self.marks = marks;
                    true
                } else {
                    // A turn's piece ending with a comma goes on on the
                    // next line: re-wrapped at 72 columns one reply
                    // earlier, that line is quoted once less.
                    (self.last == Last::Turn && (hex_fragment(content) || self.comma))
                        || self.last == (Last::Tag { closed: false })
                }
            }
        };
        if take {
            Step::Take(prefix)
        } else {
            Step::End
        }
    }

    /// Note what the line taken was, for the next one.
    fn took(&mut self, content: &str) {
        let t = trim(content);
        self.comma = t.ends_with(',');
        self.last = if t.is_empty() {
            Last::Blank
        } else if t.starts_with('[') || self.last == (Last::Tag { closed: false }) {
            self.game |= is_game_tag(t);
            Last::Tag {
                closed: t.ends_with(']'),
            }
        } else if matches!(self.last, Last::Tag { .. }) && !starts_turn(t) {
            // Comments between tags.
            self.last
        } else {
            self.turns |= starts_turn(t);
            Last::Turn
        };
    }
}

/// Whether a header line starts with the `Game` tag.
fn is_game_tag(content: &str) -> bool {
    let t = trim_start(trim_start(content).trim_start_matches('['));
    let b = t.as_bytes();
    b.len() >= 4
        && b[..4].eq_ignore_ascii_case(b"game")
        && !b
            .get(4)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// Line `index` (from 0) of an input, `raw` with its line end, starting
/// at byte `start`: where its text starts and the text, line end
/// removed (and, on the first line, a byte-order mark: Windows Notepad
/// writes one, and it is no part of the text).
pub(crate) fn input_line(index: usize, start: usize, raw: &str) -> (usize, &str) {
    let bytes = raw.as_bytes();
    let mut len = bytes.len();
    while len > 0 && matches!(bytes[len - 1], b'\n' | b'\r') {
        len -= 1;
    }
    let line = &raw[..len];
    match line.strip_prefix('\u{feff}') {
        Some(rest) if index == 0 => (start + '\u{feff}'.len_utf8(), rest),
        _ => (start, line),
    }
}

/// The scan for records in a text, a line at a time (the lines as
/// [`input_line`] gives them): which lines belong to a record, and
/// where one ends and the next starts.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub(crate) struct Finder {
    block: Option<Block>,
}

/// What a line is to the scan for records ([`Finder::line`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Seen {
    /// A record ended before this line.
    pub(crate) ended: bool,
    /// A record starts with this line.
    pub(crate) starts: bool,
    /// The line is one of a record's (the first, or one going on):
    /// this many bytes of quoting in front of it are stripped.
    pub(crate) take: Option<usize>,
    /// The quote marks in front of the line.
    pub(crate) marks: usize,
}

impl Finder {
    /// What `line` (without its line end) is to the records: the next
    /// line of the text.
    pub(crate) fn line(&mut self, line: &str) -> Seen {
        match self.going_on(line) {
            Some(seen) => seen,
            None => self.line_in_full(line),
        }
    }

    /// Whether an empty line, next, is taken as it stands and leaves the
    /// finder as it is: the last line was a blank line of a record of
    /// unquoted lines whose turns have started ([`Finder::going_on`]).
    pub(crate) fn blank_goes_on(&self) -> bool {
        self.block
            .as_ref()
            .is_some_and(|b| b.marks == 0 && b.turns && matches!(b.last, Last::Blank))
    }

    /// [`Finder::line`] in short for most lines of a log: in a record
    /// of unquoted lines whose turns have started, after a turn line or
    /// a blank one, a line whose first character (after spaces) cannot
    /// start quoting, a header tag or a mail client's separator is
    /// taken as it stands. `None` for any other line, which
    /// [`Finder::line_in_full`] reads; it says the same of these.
    fn going_on(&mut self, line: &str) -> Option<Seen> {
        let block = self.block.as_mut()?;
        if block.marks != 0 || !block.turns || !matches!(block.last, Last::Turn | Last::Blank) {
            return None;
        }
        let first = line.bytes().find(|b| !ascii_space(*b));
        match first {
            Some(b'[' | b'>' | b'-' | b'_' | b'B' | b'b') => return None,
            Some(b) if !b.is_ascii() => return None,
            _ => {}
        }
        block.last = match first {
            None => Last::Blank,
            Some(_) => Last::Turn,
        };
        Some(Seen {
            ended: false,
            starts: false,
            take: Some(0),
            marks: 0,
        })
    }

    /// [`Finder::line`], every test made.
    fn line_in_full(&mut self, line: &str) -> Seen {
        let (marks, prefix) = quote_prefix(line);
        let content = &line[prefix..];
        let mut seen = Seen {
            ended: false,
            starts: false,
            take: None,
            marks,
        };
        if let Some(b) = self.block.as_mut() {
            if let Step::Take(stripped) = b.step(marks, prefix, content) {
                b.took(trim_end(&line[stripped..]));
                seen.take = Some(stripped);
                return seen;
            }
            self.block = None;
            seen.ended = true;
        }
        if starts_header(content) {
            let mut b = Block::new(marks);
            b.took(content);
            self.block = Some(b);
            seen.take = Some(prefix);
            seen.starts = true;
        }
        seen
    }
}

/// Whether `line` (without its line feed), line `index` (from 0) of a
/// text, is not the first and ends in a printable character (no line end or white space to
/// take off) and is taken as it stands by `finder` in short
/// ([`Finder::going_on`]): a line that [`Source::first_plain`] keeps
/// as it stands, no further look needed. False, `finder` as it was, for
/// the first line and any other.
fn going_on(finder: &mut Finder, line: &str, index: usize) -> bool {
    let last = line.as_bytes().last();
    index > 0 && last.is_some_and(u8::is_ascii_graphic) && finder.going_on(line).is_some()
}

impl Source {
    /// Read a record's text out of `input`: the first record in it. Fails
    /// on input that is not text (not UTF-8, NUL bytes), too large, or
    /// holds no header.
    pub fn new(input: &[u8]) -> Result<Source, InputError> {
        let text: Arc<str> = Arc::from(input_str(input)?.as_ref());
        if let Some(source) = Source::first_plain(&text) {
            return Ok(source);
        }
        let mut all = Source::all_in(&text);
        match all.is_empty() {
            true => Err(no_record_error(input)),
            false => Ok(all.swap_remove(0)),
        }
    }

    /// The first record in `text` (prepared by [`input_text`]), as
    /// [`Source::all_in`] finds it, when it is plainly there: it starts
    /// on the text's first line, and none of its lines is quoted or
    /// ends in white space (a carriage return among it), so that its
    /// clean text is the text's own. `None` for any other text.
    fn first_plain(text: &Arc<str>) -> Option<Source> {
        let bytes = text.as_bytes();
        let mut lines = LineTable::default();
        let mut finder = Finder::default();
        let mut start = 0;
        let mut count = 0;
        while start < bytes.len() {
            let run = match count > 0 && finder.blank_goes_on() {
                true => blank_run(bytes, start, false),
                false => 0,
            };
            if run > 0 {
                // A run of empty lines, each taken as it stands and the
                // finder left as it is: mapped without another look.
                for k in 0..run {
                    let at = start + k;
                    let map = LineMap {
                        clean_start: at,
                        orig_start: at,
                        stripped: 0,
                        line: count + k + 1,
                        marks: 0,
                    };
                    lines.push(map, at + 1, at + 1);
                }
                count += run;
                start += run;
                continue;
            }
            let end = next_line_feed(bytes, start);
            let next = (end + 1).min(bytes.len());
            if !going_on(&mut finder, &text[start..end], count) {
                let (at, line) = input_line(count, start, &text[start..next]);
                let seen = finder.line(line);
                if seen.ended {
                    break;
                }
                if seen.take != Some(0) || at != start || trim_end(line).len() != end - start {
                    return None;
                }
            }
            count += 1;
            let map = LineMap {
                clean_start: start,
                orig_start: start,
                stripped: 0,
                line: count,
                marks: 0,
            };
            lines.push(map, end + 1, end + 1);
            start = next;
        }
        if count == 0 {
            return None;
        }
        let mut clean = String::with_capacity(start + 1);
        clean.push_str(&text[..start]);
        if !clean.ends_with('\n') {
            clean.push('\n');
        }
        Some(Source {
            original: Arc::clone(text),
            clean,
            lines,
            header_marks: 0,
            part: None,
            line_offset: 0,
        })
    }

    /// Every record in `text` (prepared by [`input_text`]), in the order
    /// they stand; none when it holds no header.
    pub fn all_in(text: &Arc<str>) -> Vec<Source> {
        let mut found = Vec::new();
        let mut finder = Finder::default();
        let mut current: Option<Source> = None;
        let mut orig_start = 0;
        let bytes = text.as_bytes();
        let mut index = 0;
        while orig_start < bytes.len() {
            if let Some(source) = current
                .as_mut()
                .filter(|_| index > 0 && finder.blank_goes_on())
            {
                // A run of empty lines (`\n` or `\r\n`), each taken as
                // it stands and the finder left as it is.
                let run = blank_run(bytes, orig_start, true);
                if run > 0 {
                    orig_start = source.push_blank_lines(bytes, orig_start, index + 1, run);
                    index += run;
                    continue;
                }
            }
            let next = (next_line_feed(bytes, orig_start) + 1).min(bytes.len());
            let raw = &text[orig_start..next];
            let (start, line) = input_line(index, orig_start, raw);
            orig_start += raw.len();
            let seen = finder.line(line);
            if seen.ended {
                found.extend(current.take());
            }
            if let Some(stripped) = seen.take {
                let source =
                    current.get_or_insert_with(|| Source::empty(Arc::clone(text), seen.marks));
                let kept = trim_end(&line[stripped..]);
                let orig_end = orig_start;
                source.push_line(start, orig_end, stripped, index + 1, seen.marks, kept);
            }
            index += 1;
        }
        found.extend(current);
        found
    }

    /// A record with no line yet, read out of `original`, its header
    /// quoted with `marks` quote marks.
    fn empty(original: Arc<str>, marks: usize) -> Source {
        Source {
            original,
            clean: String::new(),
            lines: LineTable::default(),
            header_marks: marks,
            part: None,
            line_offset: 0,
        }
    }

    /// A part of a record read line by line (`record::stream`): the
    /// original text of its lines, their clean text and map (offsets in
    /// those texts, line numbers of the input), the quote marks of the
    /// record's header.
    pub(crate) fn from_part(
        original: Arc<str>,
        clean: String,
        lines: Vec<LineMap>,
        header_marks: usize,
    ) -> Source {
        Source {
            original,
            clean,
            lines: LineTable::every(lines),
            header_marks,
            part: None,
            line_offset: 0,
        }
    }

    /// The lines of entry `i` of the line map: its own, then those told
    /// from it, up to the next entry (or the end of the text).
    fn lines_of(&self, i: usize) -> impl Iterator<Item = LineMap> + '_ {
        let entries = self.lines.entries();
        let bound = entries
            .get(i + 1)
            .map_or(self.clean.len(), |e| e.clean_start);
        std::iter::successors(entries.get(i).copied(), move |l| {
            let clean_end = l.clean_start + self.clean[l.clean_start..].find('\n')? + 1;
            if clean_end >= bound {
                return None;
            }
            let orig_end = l.orig_start + self.original.get(l.orig_start..)?.find('\n')? + 1;
            Some(LineMap {
                clean_start: clean_end,
                orig_start: orig_end,
                line: l.line + 1,
                ..*l
            })
        })
    }

    /// The map of the line that holds byte `offset` of the clean text
    /// (the last line for an offset past the end), if there are lines.
    fn map_at(&self, offset: usize) -> Option<LineMap> {
        let i = match self
            .lines
            .entries()
            .binary_search_by(|l| l.clean_start.cmp(&offset))
        {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        self.lines_of(i)
            .take_while(|l| l.clean_start <= offset)
            .last()
            .or_else(|| self.lines.entries().get(i).copied())
    }

    /// The map of the first line that starts at or after byte `offset`
    /// of the clean text, if one does.
    fn map_from(&self, offset: usize) -> Option<LineMap> {
        let entries = self.lines.entries();
        let i = entries.partition_point(|l| l.clean_start < offset);
        i.checked_sub(1)
            .and_then(|before| self.lines_of(before).find(|l| l.clean_start >= offset))
            .or_else(|| entries.get(i).copied())
    }

    /// The lines that start before byte `end` of the clean text, as a
    /// source of their own (a record's header, kept while the rest is
    /// read a part at a time).
    pub(crate) fn lines_before(&self, end: usize) -> Source {
        let entries = self.lines.entries();
        let n = entries.partition_point(|l| l.clean_start < end);
        let (orig_end, clean_end) = self
            .map_from(end)
            .map_or((self.original.len(), self.clean.len()), |l| {
                (l.orig_start, l.clean_start)
            });
        Source {
            original: Arc::from(&self.original[..orig_end]),
            clean: self.clean[..clean_end].to_owned(),
            lines: LineTable::every(entries[..n].to_vec()),
            header_marks: self.header_marks,
            part: self.part.clone(),
            line_offset: self.line_offset,
        }
    }

    /// Where the line that holds byte `offset` of the clean text starts
    /// (`offset` itself at or past the end).
    pub(crate) fn line_start_at(&self, offset: usize) -> usize {
        match self.map_at(offset) {
            Some(map) if offset < self.clean.len() => map.clean_start,
            _ => offset,
        }
    }

    /// The lines from the one that starts at byte `from` of the clean
    /// text (none when `from` is its end) to the one that holds byte
    /// `to` (the lines after it left out): their original text, clean
    /// text and map (entries for some of them, as [`LineTable`] keeps
    /// them), the offsets counted from the first of them. (The original
    /// text of a part read by `stream` holds its lines alone.)
    pub(crate) fn lines_between(&self, from: usize, to: usize) -> (String, String, Vec<LineMap>) {
        let Some(head) = self.map_from(from) else {
            return (String::new(), String::new(), Vec::new());
        };
        let (clean_end, orig_end) = self
            .map_from(to.max(head.clean_start) + 1)
            .map_or((self.clean.len(), self.original.len()), |l| {
                (l.clean_start, l.orig_start)
            });
        let entries = self.lines.entries();
        let after = entries.partition_point(|l| l.clean_start <= head.clean_start);
        let before = entries.partition_point(|l| l.clean_start < clean_end);
        let lines = std::iter::once(head)
            .chain(entries[after..before.max(after)].iter().copied())
            .map(|l| LineMap {
                clean_start: l.clean_start - head.clean_start,
                orig_start: l.orig_start - head.orig_start,
                ..l
            })
            .collect();
        (
            self.original[head.orig_start..orig_end].to_owned(),
            self.clean[head.clean_start..clean_end].to_owned(),
            lines,
        )
    }

    /// The same record, read from a decoded mail part (`part` names it),
    /// or from a body that starts `line_offset` lines into the input.
    pub fn within(mut self, part: Option<String>, line_offset: usize) -> Source {
        self.part = part;
        self.line_offset = line_offset;
        self
    }

    /// Whether the record was read out of an email message (its body, or
    /// a decoded part): the text is not the file as it stands.
    pub fn from_message(&self) -> bool {
        self.part.is_some() || self.line_offset > 0
    }

    /// Which decoded mail part the record was read from, if positions are
    /// not in the input as given.
    pub fn part(&self) -> Option<&str> {
        self.part.as_deref()
    }

    /// How the quoting of the line holding a byte of the clean text
    /// differs from that of the record's first header line, if it does.
    pub fn quote_note(&self, offset: usize) -> Option<String> {
        let map = self.map_at(offset)?;
        let levels = |n: usize| {
            if n == 1 {
                "one level".to_owned()
            } else {
                format!("{n} levels")
            }
        };
        match map.marks.cmp(&self.header_marks) {
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(format!(
                "this line is quoted {} deeper than the record: it may come from an older message quoted in this one (a mail client's quoting, not a change to the game)",
                levels(map.marks - self.header_marks)
            )),
            std::cmp::Ordering::Less => Some(format!(
                "this line is quoted {} less than the record: typed under the quoted record or re-wrapped by a mail client, and read as part of it",
                levels(self.header_marks - map.marks)
            )),
        }
    }

    /// Text typed as it stands (a turn given to `move`), not looked for
    /// inside an email: every line is taken whole, no header needed.
    pub fn typed(text: &str) -> Source {
        let mut source = Source {
            clean: String::with_capacity(text.len() + 1),
            lines: LineTable::default(),
            original: Arc::from(text),
            header_marks: 0,
            part: None,
            line_offset: 0,
        };
        let mut orig_start = 0;
        for (index, raw) in text.split_inclusive('\n').enumerate() {
            let line = raw.trim_end_matches(['\n', '\r']).trim_end();
            source.push_line(orig_start, orig_start + raw.len(), 0, index + 1, 0, line);
            orig_start += raw.len();
        }
        source
    }

    /// Add a line of the original, from `orig_start` to `orig_end` (past
    /// its line feed), `stripped` bytes of quoting taken off its front,
    /// `text` what is kept of it.
    fn push_line(
        &mut self,
        orig_start: usize,
        orig_end: usize,
        stripped: usize,
        line: usize,
        marks: usize,
        text: &str,
    ) {
        let map = LineMap {
            clean_start: self.clean.len(),
            orig_start,
            stripped,
            line,
            marks,
        };
        self.clean.push_str(text);
        self.clean.push('\n');
        self.lines.push(map, self.clean.len(), orig_end);
    }

    /// Add `run` empty lines of the original from `orig_start` on (line
    /// `line` the first), each `\n` or `\r\n` ([`blank_run`]) and kept
    /// as an empty line, as [`Source::push_line`] adds them one by one.
    /// Returns where the original goes on after them.
    fn push_blank_lines(
        &mut self,
        bytes: &[u8],
        orig_start: usize,
        line: usize,
        run: usize,
    ) -> usize {
        let mut at = orig_start;
        let clean_start = self.clean.len();
        for k in 0..run {
            let end = at + if bytes[at] == b'\r' { 2 } else { 1 };
            let map = LineMap {
                clean_start: clean_start + k,
                orig_start: at,
                stripped: 0,
                line: line + k,
                marks: 0,
            };
            self.lines.push(map, clean_start + k + 1, end);
            at = end;
        }
        self.clean.extend(std::iter::repeat_n('\n', run));
        at
    }

    /// The record's own text: unquoted lines joined by `\n`.
    pub fn text(&self) -> &str {
        &self.clean
    }

    /// The input exactly as given.
    pub fn original(&self) -> &str {
        &self.original
    }

    /// Line and column in the original input of a byte of the clean text.
    pub fn position(&self, offset: usize) -> Position {
        let Some(map) = self.map_at(offset) else {
            return Position { line: 1, column: 1 };
        };
        let within = offset.saturating_sub(map.clean_start);
        let clean_line = &self.clean[map.clean_start..];
        let within = within.min(clean_line.find('\n').unwrap_or(clean_line.len()));
        let prefix = &self.original[map.orig_start..map.orig_start + map.stripped];
        Position {
            line: map.line + self.line_offset,
            column: prefix.chars().count() + clean_line[..within].chars().count() + 1,
        }
    }

    /// The byte of the original input that a byte of the clean text came from.
    pub fn original_offset(&self, offset: usize) -> usize {
        match self.map_at(offset) {
            Some(map) => map.orig_start + map.stripped + offset.saturating_sub(map.clean_start),
            None => self.original.len(),
        }
    }

    /// The end of the original line (before its line break) that holds a
    /// byte of the clean text, and the quoting in front of that line.
    pub fn original_line_end(&self, offset: usize) -> (usize, &str) {
        let Some(map) = self.map_at(offset) else {
            return (self.original.len(), "");
        };
        let rest = &self.original[map.orig_start..];
        let len = rest.find('\n').unwrap_or(rest.len());
        let len = rest[..len].trim_end_matches('\r').len();
        (
            map.orig_start + len,
            &self.original[map.orig_start..map.orig_start + map.stripped],
        )
    }

    /// The original line holding a byte of the clean text, and the byte
    /// range within that line that `span` covers (clamped to the line, at
    /// least one byte wide where the line allows).
    pub fn line_of(&self, span: Span) -> (usize, &str, Range<usize>) {
        let Some(map) = self.map_at(span.start) else {
            return (1, "", 0..0);
        };
        let rest = &self.original[map.orig_start..];
        let line = rest.split(['\n', '\r']).next().unwrap_or("");
        let mut start = (map.stripped + span.start.saturating_sub(map.clean_start)).min(line.len());
        while !line.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (map.stripped + span.end.saturating_sub(map.clean_start)).min(line.len());
        if end <= start {
            end = (start + 1).min(line.len());
        }
        while !line.is_char_boundary(end) {
            end += 1;
        }
        (map.line + self.line_offset, line, start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_record_is_unquoted_and_positions_point_into_the_original() {
        let input = "Hi Bob,\r\nmy move:\r\n\r\n> [Game \"castle-danger\"]\r\n> \r\n> 1. Blue: pass\r\n\r\nCheers\r\n";
        let src = Source::new(input.as_bytes()).unwrap();
        assert_eq!(src.text(), "[Game \"castle-danger\"]\n\n1. Blue: pass\n\n");
        let off = src.text().find("pass").unwrap();
        assert_eq!(
            src.position(off),
            Position {
                line: 6,
                column: 12
            }
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_kept_in_the_original() {
        let input = "\u{feff}[Game \"x\"]\n1. Blue: pass\n";
        let src = Source::new(input.as_bytes()).unwrap();
        assert_eq!(src.text(), "[Game \"x\"]\n1. Blue: pass\n");
        assert_eq!(src.original(), input);
        // Columns count from the first visible character.
        assert_eq!(src.position(1), Position { line: 1, column: 2 });
    }

    #[test]
    fn lines_ended_by_carriage_returns_alone_are_lines() {
        let input = "[Game \"x\"]\r1. Blue: pass\r";
        let src = Source::new(input.as_bytes()).unwrap();
        assert_eq!(src.text(), "[Game \"x\"]\n1. Blue: pass\n");
        let off = src.text().find("pass").unwrap();
        assert_eq!(
            src.position(off),
            Position {
                line: 2,
                column: 10
            }
        );
    }

    #[test]
    fn doubly_quoted_lines_keep_their_depth() {
        let input = ">> [Game \"x\"]\n> > 1. Blue: pass\n> not the record\n";
        let src = Source::new(input.as_bytes()).unwrap();
        assert_eq!(src.text(), "[Game \"x\"]\n1. Blue: pass\n");
    }

    #[test]
    fn non_utf8_input_is_rejected_with_its_position() {
        let err = Source::new(b"[Game \"x\"]\n1. \xff").unwrap_err();
        assert_eq!(err.position, Position { line: 2, column: 4 });
        assert!(err.message.contains("not UTF-8"));
    }

    #[test]
    fn empty_input_and_text_without_header_are_told_apart() {
        assert!(Source::new(b"").unwrap_err().message.contains("empty"));
        assert!(Source::new(b"hello\n")
            .unwrap_err()
            .message
            .contains("no record"));
    }

    #[test]
    fn underlines_never_cut_a_character() {
        // Found by fuzzing: a span ending inside "é" made the renderer panic.
        let src = Source::new("[Game \"x\"]\n1. Blue: é".as_bytes()).unwrap();
        let at = src.text().find('é').unwrap();
        let (_, line, range) = src.line_of(Span::new(at, at + 1));
        assert_eq!(&line[range], "é");
        let (_, line, range) = src.line_of(Span::new(at + 1, at + 1));
        assert!(line.is_char_boundary(range.start) && line.is_char_boundary(range.end));
    }

    #[test]
    fn trimming_byte_by_byte_trims_as_str_trim_does() {
        let spaces = [
            "",
            " ",
            "\t",
            "\n",
            "\r",
            "\u{b}",
            "\u{c}",
            "\u{a0}",
            "\u{2003}",
            "\u{3000}",
            "\u{85}",
            " \u{2028}\t",
        ];
        let words = ["", "a", "é", "a b", "\u{1f600}", "x\u{a0}y", "\u{1c}"];
        for before in spaces {
            for word in words {
                for after in spaces {
                    let s = format!("{before}{word}{after}");
                    assert_eq!(trim(&s), s.trim(), "{s:?}");
                    assert_eq!(trim_start(&s), s.trim_start(), "{s:?}");
                    assert_eq!(trim_end(&s), s.trim_end(), "{s:?}");
                }
            }
        }
    }

    /// Lines of every kind the scan for records tells apart.
    const LINES: [&str; 34] = [
        "[Game \"castle-danger\"]",
        "[Blue \"a@b\"] ; a comment",
        "[Result \"*\"]",
        "[Red \"c@d",
        "  [game \"x\"]",
        "[Gamer \"y\"]",
        "",
        "   ",
        "\t",
        "1. Blue: Kc1-b1, Cd1-d2",
        "2. Red: pass",
        "S1. Blue: commit a1 ff",
        "    reveal 0123456789abcdef",
        "{a comment}",
        "Blue wins",
        "bye",
        "-- ",
        "-----Original Message-----",
        "__________",
        "Begin forwarded message:",
        "----------",
        "3.",
        "12.x",
        "ab12ef",
        " > 4. Red: pass",
        "\u{a0}5. Blue: pass",
        "\u{3000}[Game \"x\"]",
        "é",
        "1. Blue: pass\u{2003}",
        "\u{feff}[Game \"x\"]",
        "_",
        "- a",
        "B",
        "   b",
    ];

    /// Texts made of `LINES`, quoted, indented, with trailing white
    /// space, CRLF or no last line end: `count` of them, the same each
    /// run.
    fn texts(count: usize) -> Vec<String> {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let head = "[Game \"castle-danger\"]\n[Result \"*\"]\n\n1. Blue: pass\n";
        (0..count)
            .map(|_| {
                let mut text = String::new();
                if next(2) == 0 {
                    text.push_str(head);
                }
                let crlf = next(8) == 0;
                for k in 0..next(12) {
                    text.push_str(["", "", "", "", "", "> ", ">> ", "> > "][next(8)]);
                    text.push_str(LINES[next(LINES.len())]);
                    text.push_str(["", "", "", "", "", " ", "\t", "\r"][next(8)]);
                    if k + 1 < 12 || next(2) == 0 {
                        text.push_str(if crlf { "\r\n" } else { "\n" });
                    }
                }
                text
            })
            .collect()
    }

    #[test]
    fn line_feeds_found_eight_bytes_at_a_time_are_those_found_one_at_a_time() {
        let mut texts = texts(500);
        texts.push("\n".repeat(40));
        texts.push("\u{b}\n\u{b}\u{b}\n\n\u{8a}\u{10a}".into());
        for text in &texts {
            let bytes = text.as_bytes();
            for from in 0..=bytes.len() {
                let want = bytes[from..]
                    .iter()
                    .position(|b| *b == b'\n')
                    .map_or(bytes.len(), |n| from + n);
                assert_eq!(next_line_feed(bytes, from), want, "{text:?} from {from}");
            }
        }
    }

    #[test]
    fn the_scan_in_short_says_what_the_scan_in_full_says() {
        let mut short = 0;
        for text in texts(20_000) {
            let (mut quick, mut full) = (Finder::default(), Finder::default());
            let mut start = 0;
            for (index, raw) in text.split_inclusive('\n').enumerate() {
                let (_, line) = input_line(index, start, raw);
                start += raw.len();
                short += usize::from(quick.clone().going_on(line).is_some());
                assert_eq!(
                    quick.line(line),
                    full.line_in_full(line),
                    "{line:?} in {text:?}"
                );
                assert_eq!(quick, full, "after {line:?} in {text:?}");
            }
        }
        assert!(short > 5_000, "the short way taken {short} times");
    }

    #[test]
    fn a_plain_record_read_in_short_is_the_first_record_read_in_full() {
        let (mut plain, mut short) = (0, 0);
        for text in texts(20_000) {
            let Ok(text) = input_text(text.as_bytes()) else {
                continue;
            };
            let text: Arc<str> = text.into();
            let full = Source::all_in(&text).into_iter().next();
            let quick = Source::first_plain(&text);
            if quick.is_some() {
                plain += 1;
                // Lines the short way takes.
                let mut finder = Finder::default();
                for (index, line) in text.split('\n').enumerate() {
                    short += usize::from(going_on(&mut finder.clone(), line, index));
                    finder.line(line);
                }
                assert_eq!(format!("{quick:?}"), format!("{full:?}"), "{text:?}");
            }
        }
        assert!(plain > 1_000, "{plain} plain records");
        assert!(short > 300, "{short} lines taken in short");
    }

    proptest::proptest! {
        /// Bytes looked at eight at a time are ASCII lines as they are
        /// looked at one at a time.
        #[test]
        fn ascii_lines_are_told_eight_bytes_at_a_time_as_one_at_a_time(
            bytes in proptest::collection::vec(
                proptest::sample::select(vec![b'a', b'\n', b' ', b'~', 0x7f, 0x0c, 0x0e, 0x01]),
                0..40,
            ),
            odd in proptest::option::of((
                0..40usize,
                proptest::sample::select(vec![b'\r', 0, 0x80, 0xff, 0x8d, 0x8a, b'a']),
            )),
        ) {
            let mut bytes = bytes;
            if let Some((at, byte)) = odd {
                bytes.insert(at.min(bytes.len()), byte);
            }
            let want = bytes.iter().all(|&b| b != 0 && b != b'\r' && b.is_ascii());
            proptest::prop_assert_eq!(ascii_lines(&bytes), want, "{:?}", bytes);
        }
    }

    #[test]
    fn nul_bytes_are_binary() {
        let err = Source::new(b"[Game \"x\"]\0").unwrap_err();
        assert!(err.message.contains("binary"));
    }

    /// Every record in `text`, read with the short line map and with an
    /// entry for every line.
    fn short_and_full(text: &str) -> Vec<(Source, Source)> {
        let text: Arc<str> = Arc::from(input_text(text.as_bytes()).unwrap());
        let short = Source::all_in(&text);
        EVERY_LINE.with(|e| e.set(true));
        let full = Source::all_in(&text);
        EVERY_LINE.with(|e| e.set(false));
        assert_eq!(short.len(), full.len());
        short.into_iter().zip(full).collect()
    }

    /// Hostile and ordinary texts of many lines: runs of blank lines,
    /// CRLF lines, comment lines, quote marks alone, lines of spaces,
    /// quoting that changes, long lines, a byte-order mark.
    fn long_texts() -> Vec<String> {
        let head = "[Game \"castle-danger\"]\n[Result \"*\"]\n\n1. Blue: pass\n";
        let last = "2. Red: pass\n";
        let mut texts = vec![
            format!("{head}{}{last}", "\n".repeat(3000)),
            format!("{head}{}{last}", "\n".repeat(3000)).replace('\n', "\r\n"),
            format!("{head}{}{last}", "; a comment line\n".repeat(700)),
            format!("{head}{}{last}", "{ x }\n".repeat(900)),
            format!("{head}{}{last}", "{ a comment line\n".repeat(500)),
            format!("\u{feff}{head}{}{last}", "\n".repeat(700)),
            format!("{head}{}\n{last}", " ".repeat(9000)),
            format!("{head}{}\n{last}", "a".repeat(9000)),
            format!(
                "{head}{}{last}",
                format!("{}\n", " ".repeat(100)).repeat(300)
            ),
            format!("Hi,\n\n{head}{}{last}", ">\n".repeat(900))
                .replace("\n[", "\n> [")
                .replace("\n1.", "\n> 1.")
                .replace("\n2.", "\n> 2."),
            format!("{head}{}{last}", "\r".repeat(2000)).replace('\n', ""),
        ];
        let quotes = ["", "", "", "> ", ">> ", "> > "];
        for (k, text) in texts_long(6, 1500).into_iter().enumerate() {
            let q = quotes[k % quotes.len()];
            texts.push(format!("{q}{}", text.replace('\n', &format!("\n{q}"))));
        }
        texts
    }

    /// `count` texts of the random lines of [`texts`], about `lines`
    /// lines each after a header.
    fn texts_long(count: usize, lines: usize) -> Vec<String> {
        let all = texts(lines);
        (0..count)
            .map(|k| {
                let body: String = all.iter().skip(k).step_by(count).cloned().collect();
                format!("[Game \"castle-danger\"]\n\n1. Blue: pass\n{body}")
            })
            .collect()
    }

    #[test]
    fn the_short_line_map_gives_every_position_the_full_one_gives() {
        let mut shorter = 0;
        for text in long_texts() {
            for (short, full) in short_and_full(&text) {
                assert_eq!(short.text(), full.text());
                let entries = (short.lines.entries().len(), full.lines.entries().len());
                shorter += usize::from(entries.0 * 4 < entries.1);
                let len = short.text().len();
                let step = if len > 20_000 { 7 } else { 1 };
                for o in (0..=len + 1).step_by(step) {
                    if o <= len && !short.text().is_char_boundary(o) {
                        continue;
                    }
                    let what = format!("offset {o} of {:?}", &text[..text.len().min(60)]);
                    assert_eq!(short.position(o), full.position(o), "{what}");
                    assert_eq!(short.original_offset(o), full.original_offset(o), "{what}");
                    assert_eq!(
                        short.original_line_end(o),
                        full.original_line_end(o),
                        "{what}"
                    );
                    let span = Span::new(o, o + 3);
                    assert_eq!(short.line_of(span), full.line_of(span), "{what}");
                    assert_eq!(short.quote_note(o), full.quote_note(o), "{what}");
                }
                for o in (0..=len).step_by(step * 97) {
                    let (a, b) = (short.lines_before(o), full.lines_before(o));
                    assert_eq!((a.text(), a.original()), (b.text(), b.original()));
                    for p in (0..a.text().len())
                        .step_by(31)
                        .filter(|&p| a.text().is_char_boundary(p))
                    {
                        assert_eq!(a.position(p), b.position(p), "before {o}, at {p}");
                    }
                    for to in [o, o + 1, o + 500, o + 5000, len] {
                        let (a, b) = (short.lines_between(o, to), full.lines_between(o, to));
                        assert_eq!((&a.0, &a.1), (&b.0, &b.1), "between {o} and {to}");
                        let a = Source::from_part(Arc::from(a.0), a.1, a.2, 0);
                        let b = Source::from_part(Arc::from(b.0), b.1, b.2, 0);
                        for p in (0..a.text().len())
                            .step_by(31)
                            .filter(|&p| a.text().is_char_boundary(p))
                        {
                            assert_eq!(a.position(p), b.position(p), "between {o} and {to}");
                        }
                    }
                }
            }
        }
        // The texts of many short lines are mapped with far fewer entries.
        assert!(shorter >= 10, "{shorter}");
    }

    #[test]
    fn a_run_of_empty_lines_is_read_as_its_lines_one_by_one() {
        let head = "[Game \"castle-danger\"]\n[Result \"*\"]\n\n1. Blue: pass\n";
        let mut texts = long_texts();
        texts.extend([
            format!("{head}\n\n\n2. Red: pass\n\n\n\nsigned, ann\n\n\n{head}\n\n"),
            format!("\n\n\n{head}\r\n\r\n\n\r\n2. Red: pass\r\n\r\n"),
            format!("> {head}\n\n\n> 2. Red: pass\n"),
            format!("{head}\n\n\n\n"),
        ]);
        let read = |text: &Arc<str>, runs: bool| {
            NO_RUNS.with(|n| n.set(!runs));
            let all = Source::all_in(text);
            let first = Source::new(text.as_bytes()).ok();
            NO_RUNS.with(|n| n.set(false));
            all.into_iter()
                .chain(first)
                .map(|s| {
                    let map = format!("{:?}", s.lines.entries());
                    (s.text().to_owned(), s.original().len(), s.header_marks, map)
                })
                .collect::<Vec<_>>()
        };
        for text in texts {
            let text: Arc<str> = Arc::from(input_text(text.as_bytes()).unwrap());
            let (runs, one_by_one) = (read(&text, true), read(&text, false));
            assert!(!runs.is_empty());
            assert_eq!(runs, one_by_one, "{:?}", &text[..text.len().min(80)]);
        }
    }

    #[test]
    fn the_line_map_keeps_no_entry_a_skipped_line() {
        // 100,000 lines of each shape between a header and two turns: the
        // map keeps an entry for a few lines of the header and every
        // 256th line of the run (or every 4,096 bytes), not one a line.
        let head = "[Game \"castle-danger\"]\n[Result \"*\"]\n\n1. Blue: pass\n";
        for (shape, filler) in [
            ("blank", "\n"),
            ("crlf", "\r\n"),
            ("comment", "; x\n"),
            ("brace", "{ x }\n"),
            ("quote marks", ">\n"),
        ] {
            let text = format!("{head}{}2. Red: pass\n", filler.repeat(100_000));
            let source = Source::new(text.as_bytes()).unwrap();
            let entries = source.lines.entries().len();
            let most = 100_000 / RUN_LINES + text.len() / RUN_BYTES + 8;
            assert!(
                entries <= most,
                "{shape}: {entries} entries, at most {most}"
            );
            // And positions are still exact: the last turn stands on line
            // 4 + 100,000 + 1 of the input.
            let at = source.text().rfind("Red").unwrap();
            assert_eq!(
                source.position(at),
                Position {
                    line: 100_005,
                    column: 4
                },
                "{shape}"
            );
        }
    }
}
