//! Reading a record a part at a time, as niklasf's pgn-reader reads a
//! chess game: each turn is parsed, handed to a [`Visitor`] (the referee
//! plays it) and dropped, so that memory stays flat however long the
//! record. Only a part of the text is held: the header's lines, and
//! about [`PART`] bytes of lines at a time (more when one turn is longer).
//!
//! It reads plain text holding one record, and looks at the input as
//! it reads it: anything else (a mail message, an mbox file, several
//! records such as quoted replies, text that is not UTF-8 or too large)
//! is found out, at the latest at the end of the input, before any
//! verdict, and is to be read whole ([`ReadError::Whole`]), as
//! [`super::read`] does, which gives the same verdicts and errors.

use std::borrow::Cow;
use std::convert::Infallible;
use std::io::{self, BufRead};
use std::sync::Arc;

use super::parse::{parse_header, read_turns, LogEnd, Rest, MAX_TAGS};
use super::source::{
    input_line, line_too_long, long_line_error, next_line_feed, plain_spaces_and_quotes, trim_end,
    trim_start, Finder, InputError, LineMap, Seen, MAX_INPUT, MAX_LINE,
};
use super::{mail, ParseError, Record, Source, Turn};

/// The clean text read at a time, in bytes: a few hundred turns.
pub const PART: usize = 16 * 1024;

#[cfg(test)]
thread_local! {
    /// The work of the reads of this thread, for tests: the bytes of
    /// clean text given to [`read_turns`], and the most held in a part.
    static WORK: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

/// The look at an input, line by line as it is read and holding none
/// of it: whether it is plain text (UTF-8, no NUL byte, line feeds, at
/// most [`MAX_INPUT`] bytes) that is neither a mail message nor an mbox
/// file and holds exactly one record.
#[derive(Default)]
struct Look {
    head: MessageHead,
    /// Bytes read.
    read: usize,
    /// Records that started.
    records: usize,
    lf: bool,
    cr: bool,
}

impl Look {
    /// Line `index` (from 0) of the input, `raw` with its line end, as
    /// text ([`text_line`]); `None` when the line shows that the input
    /// is to be read whole.
    fn line<'a>(&mut self, raw: &'a [u8], index: usize) -> Option<Cow<'a, str>> {
        match self.counted(raw, index) {
            true => text_line(raw),
            false => None,
        }
    }

    /// [`Look::line`] but for its text: false when the line shows that
    /// the input is to be read whole.
    #[inline]
    fn counted(&mut self, raw: &[u8], index: usize) -> bool {
        self.read += raw.len();
        if self.read > MAX_INPUT || (index == 0 && raw.starts_with(b"From ")) {
            return false;
        }
        if !self.head.decided && self.head.add(raw, index) {
            return false;
        }
        self.lf |= raw.ends_with(b"\n");
        // Only a text without line feeds is read for carriage returns.
        self.cr |= !self.lf && raw.contains(&b'\r');
        true
    }

    /// What the scan for records saw on the line; false when a second
    /// record starts.
    fn seen(&mut self, seen: Seen) -> bool {
        self.records += usize::from(seen.starts);
        self.records <= 1
    }

    /// At the end of the input: whether it is plain text of one record.
    fn plain(&self) -> bool {
        // Old Mac line ends (CR alone) are made line feeds by a whole read.
        let old_mac = self.cr && !self.lf;
        self.records == 1 && !old_mac && !self.head.is_message()
    }
}

/// The first lines of an input, as far as [`mail::is_message`] reads
/// them to tell a message: up to the line that decides it.
#[derive(Default)]
struct MessageHead {
    bytes: Vec<u8>,
    decided: bool,
}

impl MessageHead {
    /// Line `index` (from 0), with its line end; true when it is the
    /// line that decides, and the input is a message.
    fn add(&mut self, raw: &[u8], index: usize) -> bool {
        if self.decided || index >= 1000 {
            self.decided = true;
            return false;
        }
        self.bytes.extend_from_slice(raw);
        let line = raw.strip_suffix(b"\n").unwrap_or(raw);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let folded = line.first().is_some_and(|b| *b == b' ' || *b == b'\t');
        let field = line
            .iter()
            .position(|b| *b == b':')
            .is_some_and(|colon| colon > 0 && line[..colon].iter().all(u8::is_ascii_graphic));
        self.decided = line.is_empty() || if folded { index == 0 } else { !field };
        self.decided && self.is_message()
    }

    fn is_message(&self) -> bool {
        mail::is_message(&self.bytes)
    }
}

/// Read line `index` (from 0) of `input` into `raw`, its line end
/// kept, and give it as text, looked at by `look`; `None` at the end,
/// [`ReadError::Whole`] when the input is to be read whole.
fn next_text<'a>(
    input: &mut impl BufRead,
    raw: &'a mut Vec<u8>,
    look: &mut Look,
    index: usize,
) -> Result<Option<Cow<'a, str>>, ReadError> {
    if !read_line(input, raw).map_err(ReadError::Io)? {
        return Ok(None);
    }
    let line = raw.strip_suffix(b"\n").unwrap_or(raw);
    if line.len() > MAX_LINE && line_too_long(line) {
        return Err(long_line(input, raw, look, index));
    }
    look.line(raw, index).map(Some).ok_or(ReadError::Whole)
}

/// Line `index` (from 0) is longer than [`MAX_LINE`] (`raw` holds its
/// first bytes, the rest is still to read): refused as [`super::read`]
/// refuses it, without the line held, unless the whole read says
/// something else first: when the input is larger than [`MAX_INPUT`],
/// or when it may be an old Mac text (no line feed read yet, a carriage
/// return in the line), whose lines end at carriage returns.
fn long_line(input: &mut impl BufRead, raw: &[u8], look: &Look, index: usize) -> ReadError {
    if !look.lf && !raw.ends_with(b"\n") && raw.contains(&b'\r') {
        return ReadError::Whole;
    }
    // The rest of the input is counted, not kept.
    let mut read = look.read + raw.len();
    while read <= MAX_INPUT {
        let used = match input.fill_buf() {
            Ok([]) => break,
            Ok(buffer) => buffer.len(),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return ReadError::Io(e),
        };
        input.consume(used);
        read += used;
    }
    match read > MAX_INPUT {
        true => ReadError::Whole,
        false => ReadError::Input(long_line_error(index + 1)),
    }
}

/// A line of input as text, as [`super::input_text`] makes it, or
/// `None` when it is not UTF-8 or holds a NUL byte.
fn text_line(raw: &[u8]) -> Option<Cow<'_, str>> {
    if plain_ascii(raw) {
        // Every byte is ASCII, so this cannot fail; the crate forbids
        // `unsafe`, so the 81 instructions a line of the check stay.
        return std::str::from_utf8(raw).ok().map(Cow::Borrowed);
    }
    let text = std::str::from_utf8(raw).ok()?;
    if raw.contains(&0) {
        return None;
    }
    Some(match text.is_ascii() {
        true => Cow::Borrowed(text),
        false => Cow::Owned(plain_spaces_and_quotes(text.to_owned())),
    })
}

/// The most of an input's buffer looked at for plain lines at once
/// ([`plain_lines`]): a buffer held whole (a text in memory) is not
/// looked at whole for each part.
const PLAIN_WINDOW: usize = 64 * 1024;

/// The whole lines at the start of `buffer` (of its first
/// [`PLAIN_WINDOW`] bytes) up to its first byte that is not ASCII or is
/// NUL, as text: lines that [`text_line`] gives as they stand, found
/// UTF-8 once for all of them rather than line by line. `None` when
/// there is no such line.
fn plain_lines(buffer: &[u8]) -> Option<&str> {
    let window = &buffer[..buffer.len().min(PLAIN_WINDOW)];
    let plain = &window[..plain_prefix(window)];
    let end = plain.iter().rposition(|b| *b == b'\n')? + 1;
    std::str::from_utf8(&plain[..end]).ok()
}

/// How many bytes at the start of `bytes` are ASCII and not NUL, looked
/// at eight at a time. (A byte `x` below 0x80 is NUL when `x + 0x7f`
/// leaves its top bit clear; the sum never carries into the next byte.)
fn plain_prefix(bytes: &[u8]) -> usize {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    while let Some(word) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*word);
        if x & HIGH != 0 || (x + LOW) & HIGH != HIGH {
            break;
        }
        at += 8;
    }
    at + bytes[at..]
        .iter()
        .position(|b| !(1..0x80).contains(b))
        .unwrap_or(bytes.len() - at)
}

/// Whether every byte of `bytes` is ASCII and none is NUL
/// ([`plain_prefix`] of all of it).
fn plain_ascii(bytes: &[u8]) -> bool {
    plain_prefix(bytes) == bytes.len()
}

/// Read the next line of `input` into `raw`, its line end kept, or of a
/// line longer than [`MAX_LINE`] its first `MAX_LINE + 3` bytes or so
/// (never the whole of it); false at the end. (`BufRead::read_until`,
/// the line feed looked for eight bytes at a time.)
fn read_line(input: &mut impl BufRead, raw: &mut Vec<u8>) -> io::Result<bool> {
    raw.clear();
    while raw.len() <= MAX_LINE + 2 {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(!raw.is_empty());
        }
        let end = next_line_feed(buffer, 0);
        let used = (end + 1).min(buffer.len());
        raw.extend_from_slice(&buffer[..used]);
        input.consume(used);
        if end < used {
            return Ok(true);
        }
    }
    Ok(true)
}

/// The lines of a record read so far and not yet read as turns: their
/// clean text, their map, and their original text.
#[derive(Default)]
struct Part {
    original: String,
    clean: String,
    lines: Vec<LineMap>,
    /// A line that starts with a digit was taken: the header cannot go
    /// on past it.
    digit_line: bool,
    /// Lines taken that start with `[`: past [`MAX_TAGS`] of them, the
    /// header ends, or is refused, before the last.
    tag_lines: usize,
    /// The lines at the end of the part that say nothing ([`inert`]), at
    /// most three: (their index in `lines`, the length of `clean` and
    /// of `original` before them, their kind).
    run: Vec<(usize, usize, usize, Inert)>,
}

impl Part {
    /// The part as a [`Source`], its positions those of the input; the
    /// record's header is quoted with `marks` quote marks.
    fn into_source(self, marks: usize) -> Source {
        Source::from_part(Arc::from(self.original), self.clean, self.lines, marks)
    }

    /// Room for about `bytes` more of clean text, with their original
    /// text and map, so that the part is not copied as it grows.
    fn reserve(&mut self, bytes: usize) {
        self.clean.reserve(bytes);
        self.original.reserve(bytes + bytes / 4);
        self.lines.reserve(bytes / 32);
    }

    /// The lines of `source` from the line that holds byte `from` of its
    /// clean text on, as a part to read on from, and where `from` stands
    /// in it.
    fn rest_of(source: &Source, from: usize) -> (Part, usize) {
        Part::rest_between(source, from, source.text().len())
    }

    /// The lines of `source` from the line that holds byte `from` of its
    /// clean text to the line that holds byte `to`, as a part to read on
    /// from, and where `from` stands in it. `from` is a line's start but
    /// for the first turn read after the header, which starts where the
    /// header's white space ends: after spaces at its line's start (` 1.
    /// Blue: ...`), or on the last tag's line; its whole line is carried
    /// on, and read from where it was read.
    fn rest_between(source: &Source, from: usize, to: usize) -> (Part, usize) {
        let line_start = source.line_start_at(from);
        let (original, clean, lines) = source.lines_between(line_start, to);
        let part = Part {
            original,
            clean,
            lines,
            digit_line: true,
            tag_lines: 0,
            run: Vec::new(),
        };
        (part, from - line_start)
    }

    /// Drop the lines of the run of inert lines at the part's end that
    /// an inert line of kind `kind`, about to be added, makes needless.
    /// After a run of them the log is read on as after its last line
    /// (blank: a turn line may follow; a comment: the turn goes on), the
    /// turn read so far ending at its last comment line, and a `{`
    /// comment open before the run closed by its first `{...}` line, if
    /// any. So a `{...}` line stands for every inert line before it; a
    /// `;` line for those after the last `{...}` line; a blank line for
    /// the blank line just before it. But the run's first line that is
    /// not blank is kept, with the lines before it: a header's parse
    /// error after an unclosed tag (`[White` and a comment line) is
    /// placed at it, the first text after the tag. A run is kept as at
    /// most five lines (those, then `{...}`, `;`, blank, in this
    /// order), however long it is, and a part is never read again for it.
    fn shorten_run(&mut self, kind: Inert) {
        let kept = self
            .run
            .iter()
            .position(|r| r.3 != Inert::Blank)
            .map_or(0, |first| first + 1);
        let rest = &self.run[kept..];
        let drop_from = match kind {
            Inert::Brace => rest.first(),
            Inert::Semicolon => rest.iter().find(|r| r.3 != Inert::Brace),
            Inert::Blank => rest.last().filter(|r| r.3 == Inert::Blank),
        };
        let Some(&(line, clean, original, _)) = drop_from else {
            return;
        };
        self.lines.truncate(line);
        self.clean.truncate(clean);
        self.original.truncate(original);
        self.run.retain(|r| r.0 < line);
    }
}

/// A line read by [`Reader::fill`]: what became of it.
enum Taken {
    /// There was none: the input is over.
    End,
    /// It is the record's, added to the part; `empty` gives its width
    /// when it is an empty line (`\n` or `\r\n`).
    Line { empty: Option<usize> },
    /// It is not the record's (a line before it).
    Left,
    /// The record ended before it.
    Ended,
}

/// The record's lines as they are read: which are the record's, and
/// the quote marks in front of its first.
#[derive(Default)]
struct Lines {
    finder: Finder,
    /// The quote marks in front of the record's first line.
    marks: Option<usize>,
}

impl Lines {
    /// Line `index` (from 0) of the input, `text` with its line end,
    /// looked at by `look`: added to `part` if it is the record's.
    fn take(
        &mut self,
        part: &mut Part,
        text: &str,
        index: usize,
        look: &mut Look,
    ) -> Result<Taken, ReadError> {
        let (start, line) = input_line(index, part.original.len(), text);
        let seen = self.finder.line(line);
        if !look.seen(seen) {
            return Err(ReadError::Whole);
        }
        if seen.ended {
            return Ok(Taken::Ended);
        }
        let Some(stripped) = seen.take else {
            return Ok(Taken::Left);
        };
        self.marks.get_or_insert(seen.marks);
        let kept = trim_end(&line[stripped..]);
        part.digit_line |= starts_with_digit(kept);
        part.tag_lines += usize::from(kept.trim_start_matches([' ', '\t']).starts_with('['));
        let len_before = part.original.len();
        match inert(kept) {
            Some(kind) => {
                part.shorten_run(kind);
                let before = (part.lines.len(), part.clean.len(), part.original.len());
                part.run.push((before.0, before.1, before.2, kind));
            }
            None => part.run.clear(),
        }
        // Where the line starts in the part, once the run is shortened.
        let start = start - (len_before - part.original.len());
        part.lines.push(LineMap {
            clean_start: part.clean.len(),
            orig_start: start,
            stripped,
            line: index + 1,
            marks: seen.marks,
        });
        part.original.push_str(text);
        part.clean.push_str(kept);
        part.clean.push('\n');
        let empty = matches!(text.as_bytes(), b"\n" | b"\r\n").then_some(text.len());
        Ok(Taken::Line { empty })
    }
}

/// The length of the first line of `buffer`, its line feed included,
/// when the buffer holds it whole and it is no longer than
/// [`MAX_LINE`] (so never refused as too long).
fn buffered_line(buffer: &[u8]) -> Option<usize> {
    let end = next_line_feed(buffer, 0);
    (end < buffer.len() && end <= MAX_LINE).then_some(end + 1)
}

/// A line that says nothing to the log but that it is there.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Inert {
    /// Spaces and tabs alone.
    Blank,
    /// A `;` comment holding no `}` (which could close a `{` comment
    /// open before it).
    Semicolon,
    /// One `{...}` comment, with nothing after it.
    Brace,
}

/// Whether a line of clean text, `kept`, is inert, and how.
fn inert(kept: &str) -> Option<Inert> {
    let line = kept.trim_start_matches([' ', '\t']);
    let bytes = line.as_bytes();
    match bytes.first() {
        None => Some(Inert::Blank),
        Some(b';') if !bytes.contains(&b'}') => Some(Inert::Semicolon),
        Some(b'{')
            if bytes.len() > 1
                && bytes.last() == Some(&b'}')
                && !bytes[1..bytes.len() - 1].contains(&b'{')
                && !bytes[1..bytes.len() - 1].contains(&b'}') =>
        {
            Some(Inert::Brace)
        }
        _ => None,
    }
}

/// Why a record could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The input is not a plain text of one record (a message, an mbox
    /// file, several records, not UTF-8, old Mac line ends, too large):
    /// read it whole ([`super::read`]), which gives its verdict.
    Whole,
    /// The input could not be read.
    Io(io::Error),
    /// Input that is no record's text, refused as [`super::read`]
    /// refuses it: a line longer than [`MAX_LINE`].
    Input(InputError),
    /// Text that is not a record: the error, placed in the part of the
    /// record it was found in.
    Parse(Box<(ParseError, Source)>),
}

/// Why [`Reader::visit`] stopped before the end of the record.
#[derive(Debug)]
pub enum Stop<E> {
    /// The record could not be read (this comes first: a record that
    /// does not parse is reported so, whatever its turns).
    Read(ReadError),
    /// The visitor's error, placed in the part of the record that holds
    /// the turn it came from.
    Visit(E, Box<Source>),
}

/// What is done with a record's turns as they are read.
pub trait Visitor {
    /// What stops the visit.
    type Error;
    /// The next turn of the log; its spans are in the current part.
    fn turn(&mut self, turn: &Turn<'_>) -> Result<(), Self::Error>;
    /// The turns of a part are over: its text is about to be dropped.
    fn part_end(&mut self) -> Result<(), Self::Error>;
    /// A turn read after the visitor's error, only parsed: for a
    /// visitor that counts the record's turns whatever stopped it
    /// (`show --turn` past the last is told so before any problem of
    /// the rules).
    fn skipped(&mut self, _turn: &Turn<'_>) {}
    /// The least clean text the visitor would be given a part at a time,
    /// in bytes, if the reader reads less ([`PART`]): a visitor that
    /// checks a part's turns together at its end (the referee's batch of
    /// signatures) asks for parts that hold a whole batch. Asked once,
    /// as the log's first part is given.
    fn part_bytes(&self) -> usize {
        0
    }
}

/// A record its reader can read again (a file, a text held): where the
/// deck's audit gets back the cards of past passes it kept as digests
/// (`referee::deck::DeckLedger::read_again`). The referee does no I/O:
/// the reader supplies this.
pub trait Reread: std::fmt::Debug + Send + Sync {
    /// Read the record again from its start, giving each of its turns
    /// (set-up lines too) to `each` in order, until `each` returns
    /// false. `Err`: why it could not be read again (no longer one
    /// record's text, an I/O error), in words for the player.
    fn reread(&self, each: &mut dyn FnMut(&Turn<'_>) -> bool) -> Result<(), String>;
}

/// Give each turn of the record `input` holds to `each`, in order, until
/// `each` returns false (the rest is only parsed): a record read again,
/// for a [`Reread`]. `Err`: why it could not be read ([`ReadError::Whole`]
/// for an input that is no longer a plain text of one record).
pub fn each_turn<R: BufRead>(
    input: R,
    each: &mut dyn FnMut(&Turn<'_>) -> bool,
) -> Result<(), ReadError> {
    /// Gives each turn to `each`, and stops when it says so.
    struct Each<'a>(&'a mut dyn FnMut(&Turn<'_>) -> bool);
    impl Visitor for Each<'_> {
        type Error = ();
        fn turn(&mut self, turn: &Turn<'_>) -> Result<(), ()> {
            if (self.0)(turn) {
                Ok(())
            } else {
                Err(())
            }
        }
        fn part_end(&mut self) -> Result<(), ()> {
            Ok(())
        }
    }
    match Reader::new(input)?.visit(&mut Each(each)) {
        Ok(_) | Err(Stop::Visit((), _)) => Ok(()),
        Err(Stop::Read(e)) => Err(e),
    }
}

/// A record held as its text, read again from it ([`Reread`]): for a
/// reader that holds the text anyway, or a test.
#[derive(Clone, Debug)]
pub struct TextAgain(Arc<[u8]>);

impl TextAgain {
    /// The record whose text is `text`.
    pub fn new(text: impl Into<Arc<[u8]>>) -> TextAgain {
        TextAgain(text.into())
    }
}

impl Reread for TextAgain {
    fn reread(&self, each: &mut dyn FnMut(&Turn<'_>) -> bool) -> Result<(), String> {
        each_turn(&self.0[..], each).map_err(|_| {
            "the record changed while it was read: it is no longer the record read before"
                .to_owned()
        })
    }
}

/// A visitor that only lets the record be parsed.
struct Parsed;

impl Visitor for Parsed {
    type Error = Infallible;

    fn turn(&mut self, _: &Turn<'_>) -> Result<(), Infallible> {
        Ok(())
    }

    fn part_end(&mut self) -> Result<(), Infallible> {
        Ok(())
    }
}

/// A record being read a part at a time from an input, as long as the
/// input is a plain text of one record.
pub struct Reader<R> {
    input: R,
    /// The line being read, and its number from 0.
    raw: Vec<u8>,
    index: usize,
    look: Look,
    lines: Lines,
    /// The record is over: no line after this is one of its.
    done: bool,
    /// The clean text read at a time, in bytes.
    part: usize,
    /// The header's lines: where a problem with the header is placed.
    head: Source,
    /// The first part, header included, until the log is read.
    first: Option<Source>,
    header: Record<'static>,
}

impl<R: BufRead> Reader<R> {
    /// Read the record's header (and the first part of its log) from
    /// `input`.
    pub fn new(input: R) -> Result<Self, ReadError> {
        Reader::with_part(input, PART)
    }

    /// [`Reader::new`], reading about `bytes` of clean text at a time
    /// (tests read with small parts, to cross many part ends).
    pub fn with_part(input: R, bytes: usize) -> Result<Self, ReadError> {
        let mut reader = Reader {
            part: bytes,
            input,
            raw: Vec::new(),
            index: 0,
            look: Look::default(),
            lines: Lines::default(),
            done: false,
            head: Source::typed(""),
            first: None,
            header: Record {
                tags: Vec::new(),
                turns: Vec::new(),
                header_end: 0,
            },
        };
        let mut part = Part::default();
        // Room for the part, or for the whole input when the first read
        // shows it smaller (most records are a few KB: a part's room for
        // each would cost more than reading it); a longer input grows it.
        let first_read = match reader.input.fill_buf() {
            Ok(buffer) if buffer.len() < bytes => buffer.len() + buffer.len() / 8 + 64,
            _ => bytes,
        };
        part.reserve(first_read);
        let bytes = reader.part;
        // The header is read whole into the first part, but for a header
        // of more tags than a record may hold, which is refused at the
        // first past them.
        reader.fill(&mut part, |part| {
            part.clean.len() >= bytes && part.digit_line || part.tag_lines > MAX_TAGS
        })?;
        let first = part.into_source(reader.lines.marks.unwrap_or(0));
        let (tags, header_end) = match parse_header(first.text()) {
            Ok(header) => header,
            Err(e) => {
                reader.look_to_end()?;
                return Err(ReadError::Parse(Box::new((e, first))));
            }
        };
        reader.head = first.lines_before(header_end);
        reader.first = Some(first);
        reader.header = Record {
            tags,
            turns: Vec::new(),
            header_end,
        };
        Ok(reader)
    }

    /// The header: its tags and where it ends (no turns).
    pub fn header(&self) -> &Record<'static> {
        &self.header
    }

    /// The lines of the record's header: where a problem with the header
    /// is placed.
    pub fn head(&self) -> &Source {
        &self.head
    }

    /// Add the record's next lines to `part` until `enough` says so or
    /// the record ends.
    fn fill(&mut self, part: &mut Part, enough: impl Fn(&Part) -> bool) -> Result<(), ReadError> {
        while !self.done && !enough(part) {
            if self.fill_plain(part, &enough)? {
                continue;
            }
            let index = self.index;
            // A line whole in the input's buffer is read where it is
            // (most lines); one that is not is copied together first.
            let (taken, used) = match self.input.fill_buf() {
                Ok(buffer) => match buffered_line(buffer) {
                    Some(used) => {
                        let line = self.look.line(&buffer[..used], index);
                        let taken = line.map_or(Err(ReadError::Whole), |text| {
                            self.lines.take(part, &text, index, &mut self.look)
                        });
                        (taken, used)
                    }
                    None => (self.take_copied(part, index), 0),
                },
                Err(_) => (self.take_copied(part, index), 0),
            };
            self.input.consume(used);
            match taken? {
                Taken::End => self.done = true,
                Taken::Line { empty } => {
                    self.index += 1;
                    if let Some(width) = empty.filter(|_| self.lines.finder.blank_goes_on()) {
                        self.skip_empty_lines(part, width)?;
                    }
                }
                Taken::Left => self.index += 1,
                Taken::Ended => {
                    self.index += 1;
                    self.done = true;
                }
            }
        }
        Ok(())
    }

    /// [`Reader::fill`] for the lines whole in the input's buffer that
    /// are plain ASCII ([`plain_lines`]), most lines of most records:
    /// found text once for all of them, each read where it is. False
    /// when the next line is not one of them (none taken), for
    /// `fill` to read it on its own.
    fn fill_plain(
        &mut self,
        part: &mut Part,
        enough: &impl Fn(&Part) -> bool,
    ) -> Result<bool, ReadError> {
        let Ok(buffer) = self.input.fill_buf() else {
            return Ok(false);
        };
        let Some(text) = plain_lines(buffer) else {
            return Ok(false);
        };
        let (mut used, mut took, mut run) = (0, false, None);
        let mut result = Ok(());
        while used < text.len() && !self.done && !enough(part) {
            let end = next_line_feed(text.as_bytes(), used) + 1;
            if end - used > MAX_LINE + 1 {
                // Refused as too long, or read whole: by `fill`.
                break;
            }
            let index = self.index;
            let raw = &text[used..end];
            if !self.look.counted(raw.as_bytes(), index) {
                result = Err(ReadError::Whole);
                break;
            }
            used = end;
            took = true;
            match self.lines.take(part, raw, index, &mut self.look) {
                Err(e) => {
                    result = Err(e);
                    break;
                }
                Ok(Taken::Line { empty }) => {
                    self.index += 1;
                    let Some(width) = empty.filter(|_| self.lines.finder.blank_goes_on()) else {
                        continue;
                    };
                    // The empty lines of the same width that follow, as
                    // `skip_empty_lines` takes them.
                    let line = &raw[raw.len() - width..];
                    let lines = text.as_bytes()[used..]
                        .chunks_exact(width)
                        .take_while(|chunk| *chunk == line.as_bytes())
                        .count();
                    self.look.read += lines * width;
                    if self.look.read > MAX_INPUT {
                        result = Err(ReadError::Whole);
                        break;
                    }
                    used += lines * width;
                    self.index += lines;
                    if let Some(last) = part.lines.last_mut() {
                        last.line = self.index;
                    }
                    if used == text.len() {
                        // The run may go on in the input's next buffer.
                        run = Some(width);
                    }
                }
                Ok(Taken::Left) => self.index += 1,
                Ok(Taken::Ended | Taken::End) => {
                    self.index += 1;
                    self.done = true;
                }
            }
        }
        self.input.consume(used);
        result?;
        if let Some(width) = run {
            self.skip_empty_lines(part, width)?;
        }
        Ok(took)
    }

    /// [`Reader::fill`]'s next line, `index`, copied from the input
    /// first ([`next_text`]): a line longer than the input's buffer
    /// holds, or one whose read fails (a failure of this read is the
    /// one reported).
    fn take_copied(&mut self, part: &mut Part, index: usize) -> Result<Taken, ReadError> {
        match next_text(&mut self.input, &mut self.raw, &mut self.look, index)? {
            Some(text) => self.lines.take(part, &text, index, &mut self.look),
            None => Ok(Taken::End),
        }
    }

    /// After an empty line (`width` bytes: `\n` or `\r\n`) that the
    /// finder took as it stands, the empty lines of the same width that
    /// follow in the input's buffer, taken at once: the finder and the
    /// look would say of each what they said of the first, and the run
    /// of them is kept as its last line ([`Part::shorten_run`]).
    fn skip_empty_lines(&mut self, part: &mut Part, width: usize) -> Result<(), ReadError> {
        let line: &[u8] = if width == 1 { b"\n" } else { b"\r\n" };
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(ReadError::Io(e)),
            };
            let lines = buffer
                .chunks_exact(width)
                .take_while(|chunk| *chunk == line)
                .count();
            if lines == 0 {
                return Ok(());
            }
            self.look.read += lines * width;
            if self.look.read > MAX_INPUT {
                return Err(ReadError::Whole);
            }
            self.input.consume(lines * width);
            self.index += lines;
            if let Some(last) = part.lines.last_mut() {
                last.line = self.index;
            }
        }
    }

    /// Read the rest of the input, past the record, for the look at it:
    /// [`ReadError::Whole`] when it is no plain text of one record.
    fn look_to_end(&mut self) -> Result<(), ReadError> {
        self.done = true;
        loop {
            let index = self.index;
            let Some(text) = next_text(&mut self.input, &mut self.raw, &mut self.look, index)?
            else {
                break;
            };
            self.index += 1;
            let (_, line) = input_line(index, 0, &text);
            if !self.look.seen(self.lines.finder.line(line)) {
                return Err(ReadError::Whole);
            }
        }
        match self.look.plain() {
            true => Ok(()),
            false => Err(ReadError::Whole),
        }
    }

    /// Check the record as `herald check` does: `start` a visitor from
    /// the header, give it every turn as it is read ([`Reader::visit`]),
    /// and `finish` it after the last. A problem that `start` or
    /// `finish` finds is placed in the header's lines, and comes after
    /// a parse error anywhere in the record, as when the record is read
    /// whole.
    pub fn check<V: Visitor, T>(
        self,
        start: impl FnOnce(&Record<'_>) -> Result<V, V::Error>,
        finish: impl FnOnce(V) -> Result<T, V::Error>,
    ) -> Result<T, Stop<V::Error>> {
        let mut visitor = match start(self.header()) {
            Ok(visitor) => visitor,
            Err(e) => return Err(self.refuse(e)),
        };
        let head = self.visit(&mut visitor)?;
        finish(visitor).map_err(|e| Stop::Visit(e, Box::new(head)))
    }

    /// A problem with the header, `e`, placed in the header's lines, once
    /// the rest of the record is known to parse: a parse error comes
    /// first, as when the record is read whole.
    pub fn refuse<E>(self, e: E) -> Stop<E> {
        let head = self.head.clone();
        match self.visit(&mut Parsed) {
            Ok(_) => Stop::Visit(e, Box::new(head)),
            Err(Stop::Read(read)) => Stop::Read(read),
            Err(Stop::Visit(never, _)) => match never {},
        }
    }

    /// Read the log, giving each turn to `visitor` as it is read. A
    /// parse error anywhere in the record is the one reported, as when
    /// the record is read whole; after the visitor's error, the rest is
    /// only parsed. An input found not to be a plain text of one record
    /// is [`ReadError::Whole`] whatever else. Returns the header's lines
    /// ([`Reader::head`]).
    pub fn visit<V: Visitor>(mut self, visitor: &mut V) -> Result<Source, Stop<V::Error>> {
        let mut failed: Option<(V::Error, Box<Source>)> = None;
        self.part = self.part.max(visitor.part_bytes());
        let mut source = self.first.take().unwrap_or_else(|| self.head.clone());
        let mut start = self.header.header_end;
        let mut before = 0;
        loop {
            let rest = if self.done { Rest::None } else { Rest::Follows };
            let mut error = None;
            #[cfg(test)]
            WORK.with(|work| {
                let (read, held) = work.get();
                let text = source.text().len();
                work.set((read + text.saturating_sub(start), held.max(text)));
            });
            // Each turn is read into the same `Turn`, its lists kept.
            let end = read_turns(source.text(), start, rest, before, &mut |turn| {
                before += 1;
                if failed.is_none() && error.is_none() {
                    error = visitor.turn(turn).err();
                } else {
                    visitor.skipped(turn);
                }
            });
            let end = match end {
                Ok(end) => end,
                Err(e) => {
                    self.look_to_end().map_err(Stop::Read)?;
                    return Err(Stop::Read(ReadError::Parse(Box::new((e, source)))));
                }
            };
            if failed.is_none() {
                if let Some(e) = error.map_or_else(|| visitor.part_end().err(), Some) {
                    failed = Some((e, Box::new(source.clone())));
                }
            }
            let (mut part, from) = match end {
                LogEnd::Over => break,
                LogEnd::From(from) => Part::rest_of(&source, from),
                // The lines inside the comment are not carried on.
                LogEnd::Comment { from, open } => Part::rest_between(&source, from, open),
            };
            // What is carried on is read again with what follows: with
            // at least as much again, so that a turn that outgrows parts
            // (a long one, or many lines of one comment) is read again
            // as many times as it doubles, not once a part.
            let more = self.part.max(part.clean.len());
            part.reserve(more);
            let enough = part.clean.len() + more;
            self.fill(&mut part, |p| p.clean.len() >= enough)
                .map_err(Stop::Read)?;
            source = part.into_source(self.lines.marks.unwrap_or(0));
            start = from;
        }
        self.look_to_end().map_err(Stop::Read)?;
        match failed {
            Some((e, source)) => Err(Stop::Visit(e, source)),
            None => Ok(self.head),
        }
    }
}

/// Whether a line of clean text starts (after spaces) with a digit: the
/// header cannot go on past it, so the first part may end after it.
fn starts_with_digit(line: &str) -> bool {
    trim_start(line)
        .as_bytes()
        .first()
        .is_some_and(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{parse, Position};

    /// A turn as read, its spans left out (they count from its part).
    fn shown(t: &Turn<'_>) -> String {
        let items: Vec<&str> = t.items.iter().map(|i| i.text.as_ref()).collect();
        let proofs: Vec<String> = t.proofs.iter().map(|p| format!("{:?}", p.kind)).collect();
        format!(
            "{:?} {} {} [{}] [{}] {} {} {} {:?}",
            t.kind,
            t.number,
            t.side,
            items.join("|"),
            proofs.join("|"),
            t.pass.is_some(),
            t.resign.is_some(),
            t.audit.is_some(),
            t.forfeit.map(|(_, c)| c),
        )
    }

    /// The tags and turns read, or the parse error with its place.
    type Read = Result<(Vec<String>, Vec<String>), (String, Position, Option<u32>)>;

    fn tags(record: &Record<'_>) -> Vec<String> {
        record
            .tags
            .iter()
            .map(|t| format!("{}={}", t.name, t.value))
            .collect()
    }

    fn whole(text: &str) -> Read {
        let source = Source::new(text.as_bytes()).map_err(|e| (e.message, e.position, None))?;
        match parse(&source) {
            Ok(r) => Ok((tags(&r), r.turns.iter().map(shown).collect())),
            Err(e) => Err((e.message, source.position(e.span.start), e.turn)),
        }
    }

    /// The turns shown, and the parts ended.
    struct Collect(Vec<String>, usize);

    impl Visitor for Collect {
        type Error = usize;
        fn turn(&mut self, turn: &Turn<'_>) -> Result<(), usize> {
            self.0.push(shown(turn));
            Ok(())
        }
        fn part_end(&mut self) -> Result<(), usize> {
            self.1 += 1;
            Ok(())
        }
    }

    /// The text of an input of the `stream` fuzz target (the fuzz
    /// crate's `stream`): its first byte chooses the part size, the rest
    /// is the text.
    fn artifact(input: &[u8]) -> String {
        String::from_utf8(input[1..].to_vec()).unwrap()
    }

    fn in_parts(text: &str, bytes: usize) -> Read {
        in_parts_from(text.as_bytes(), bytes)
    }

    /// [`in_parts`] from `input`.
    fn in_parts_from(input: impl BufRead, bytes: usize) -> Read {
        let placed = |placed: Box<(ParseError, Source)>| {
            let (e, source) = *placed;
            (e.message, source.position(e.span.start), e.turn)
        };
        let reader = match Reader::with_part(input, bytes) {
            Ok(reader) => reader,
            Err(ReadError::Parse(p)) => return Err(placed(p)),
            Err(ReadError::Input(e)) => return Err((e.message, e.position, None)),
            Err(e) => panic!("{e:?}"),
        };
        let tags = tags(reader.header());
        let mut seen = Collect(Vec::new(), 0);
        match reader.visit(&mut seen) {
            Ok(_) => Ok((tags, seen.0)),
            Err(Stop::Read(ReadError::Parse(p))) => Err(placed(p)),
            Err(Stop::Read(ReadError::Input(e))) => Err((e.message, e.position, None)),
            Err(e) => panic!("{e:?}"),
        }
    }

    const LOG: &str = "[Game \"castle-danger\"]\n[Blue \"a@b\"] ; a comment\n\
        [Red \"c@d\"]\n[Result \"*\"]\n\n\
        1. Blue: +C, Kc1-b1 {a comment\nover three\nlines} , Cd1-d2\n\
        2. Red: Kc9-b9 ; a comment\n\
        {between turns}\n\
        3. Blue: Cd2-d3,\n   Kb1-a1\n\
        \n\
        4. Red: pass\n\
        5. Blue: resign\n\
        -- \nA signature\n6. Blue: not read\n";

    /// A record's header and two turns, then `filler` as many times as
    /// makes `bytes` bytes, then a last turn: a hostile shape.
    fn hostile(filler: &str, bytes: usize) -> String {
        let head = "[Game \"castle-danger\"]\n[Blue \"a@b\"]\n[Red \"c@d\"]\n\
            [Result \"*\"]\n\n1. Blue: +C, Kc1-b1\n2. Red: Kc9-b9\n";
        let mut text = String::from(head);
        while text.len() < bytes {
            text.push_str(filler);
        }
        text + "3. Blue: pass\n"
    }

    /// Half a megabyte: a part read again for each part of it (as a
    /// turn followed by blank lines once was) would read it some 16
    /// times over, and a read that keeps every line would hold it all.
    const HOSTILE: usize = 512 * 1024;

    /// `text` read in parts as `check` reads it: the same as a whole
    /// read, and the work it took: it reads each byte of clean text at
    /// most about twice (a turn still open at a part's end is read again
    /// with the next), and holds a few parts at most (`long` bytes more
    /// when one line is that long).
    fn read_in_linear_time(text: &str, long: usize) -> Read {
        WORK.with(|work| work.set((0, 0)));
        let read = in_parts(text, PART);
        let (bytes, held) = WORK.with(|work| work.get());
        assert_eq!(read, whole(text));
        assert!(
            bytes <= 2 * text.len() + 4 * PART,
            "{bytes} bytes read of {}",
            text.len()
        );
        assert!(
            held <= 4 * PART + long,
            "{held} bytes held of {}",
            text.len()
        );
        read
    }

    /// The turns of [`hostile`] read, as they are shown.
    fn three_turns(read: Read) -> Vec<String> {
        let turns = read.unwrap().1;
        assert_eq!(turns.len(), 3, "{turns:?}");
        turns
    }

    #[test]
    fn blank_lines_are_never_read_again_nor_held() {
        three_turns(read_in_linear_time(&hostile("\n", HOSTILE), 0));
        three_turns(read_in_linear_time(&hostile("  \t \n", HOSTILE), 0));
    }

    #[test]
    fn an_error_after_a_run_of_blank_lines_is_placed_at_its_line() {
        for filler in ["\n", "\r\n", " \n"] {
            let text = hostile(filler, HOSTILE / 8).replace("3. Blue: pass", "3. Blue pass");
            let (_, at, _) = read_in_linear_time(&text, 0).unwrap_err();
            assert_eq!(at.line, text.lines().count(), "{filler:?}");
        }
    }

    #[test]
    fn carriage_return_line_ends_alone_are_blank_lines_never_read_again() {
        let text = hostile("\r\n", HOSTILE)
            .replace("\n", "\r\n")
            .replace("\r\r", "\r");
        three_turns(read_in_linear_time(&text, 0));
    }

    #[test]
    fn comment_lines_are_never_read_again_nor_held() {
        three_turns(read_in_linear_time(
            &hostile("; a comment line\n", HOSTILE),
            0,
        ));
        three_turns(read_in_linear_time(&hostile("{ a comment }\n", HOSTILE), 0));
        // Mixed, with blank lines between.
        let mixed = "; one\n\n{ two }\n  \n; three {\n";
        three_turns(read_in_linear_time(&hostile(mixed, HOSTILE), 0));
    }

    #[test]
    fn a_comment_line_closing_a_comment_open_before_a_run_of_them_still_closes_it() {
        // `{ b }` closes the comment that the turn line opened; the `;`
        // lines after it are comments; turn 2 is read.
        let run = "; x\n".repeat(PART / 2);
        let text = format!(
            "[Game \"castle-danger\"]\n[Blue \"a@b\"]\n[Red \"c@d\"]\n[Result \"*\"]\n\n\
             1. Blue: +C {{ open\n{run}{{ b }}\n{run}\n{run}2. Red: pass\n"
        );
        let turns = read_in_linear_time(&text, 0).unwrap().1;
        assert_eq!(turns.len(), 2, "{turns:?}");
    }

    #[test]
    fn a_giant_comment_over_many_lines_is_read_once() {
        let text = hostile("", 0).replace(
            "3. Blue",
            &format!("{{{}}}\n3. Blue", "a comment line\n".repeat(HOSTILE / 15)),
        );
        three_turns(read_in_linear_time(&text, 0));
        // In a turn, after its actions.
        let text = hostile("", 0).replace(
            "Kc9-b9\n",
            &format!("Kc9-b9 {{{}}}\n", "a comment line\n".repeat(HOSTILE / 15)),
        );
        three_turns(read_in_linear_time(&text, 0));
    }

    #[test]
    fn a_comment_never_closed_is_refused_at_its_brace_in_linear_time() {
        for filler in ["{\n", "a comment line\n", "{ {\n"] {
            let text = hostile("", 0).replace(
                "3. Blue",
                &format!("{{ open\n{}3. Blue", filler.repeat(HOSTILE / filler.len())),
            );
            let (message, at, _) = read_in_linear_time(&text, 0).unwrap_err();
            assert_eq!(message, "this comment `{` is never closed with `}`");
            assert_eq!((at.line, at.column), (8, 1));
        }
    }

    #[test]
    fn a_giant_comment_on_one_line_and_a_long_line_of_spaces_are_read_once() {
        // As long as a line may be: its line end not counted.
        let line = format!("{{{}}}\r\n", "a".repeat(MAX_LINE - 2));
        three_turns(read_in_linear_time(&hostile(&line, 1), MAX_LINE));
        let line = format!("{}\n", " ".repeat(MAX_LINE));
        three_turns(read_in_linear_time(&hostile(&line, 1), 0));
        let line = format!("{}\n", "{c} ".repeat(MAX_LINE / 4));
        three_turns(read_in_linear_time(&hostile(&line, 1), MAX_LINE));
    }

    #[test]
    fn a_line_longer_than_a_record_line_may_be_is_refused_at_its_start_and_never_held() {
        let head = hostile("", 0);
        let turn = "3. Blue: pass";
        for line in [
            format!("{{{}}}\n", "a".repeat(MAX_LINE - 1)),
            format!("{}\r\n", " ".repeat(MAX_LINE + 1)),
            format!("{}\n", " ".repeat(HOSTILE)),
            "{c} ".repeat(HOSTILE),
            format!("3. Blue: {}\n", "Kc1-b1, ".repeat(HOSTILE / 8)),
        ] {
            let text = head.replace(turn, &format!("{line}{turn}"));
            let (message, at, turn) = read_in_linear_time(&text, 0).unwrap_err();
            assert!(
                message.starts_with(
                    "this line is longer than 64 KiB, which no line of a game record comes near"
                ),
                "{message}"
            );
            assert_eq!((at.line, at.column, turn), (8, 1, None), "{message}");
            // Before the header, and in the header.
            for text in [
                format!("{line}{head}"),
                head.replace("[Red", &format!("{line}[Red")),
            ] {
                let (_, at, _) = read_in_linear_time(&text, 0).unwrap_err();
                let want = text[..text.find(&line).unwrap()].lines().count() + 1;
                assert_eq!((at.line, at.column), (want, 1));
            }
        }
    }

    #[test]
    fn an_input_too_large_or_of_old_mac_line_ends_is_read_whole_even_with_a_long_line() {
        // Too large is said first, as the whole read says it.
        let large = format!("{LOG}{}\n", "a".repeat(MAX_INPUT));
        let streamed = |text: &str| match Reader::new(text.as_bytes()) {
            Err(e) => e,
            Ok(reader) => match reader.visit(&mut Parsed) {
                Err(Stop::Read(e)) => e,
                other => panic!("{other:?}"),
            },
        };
        assert!(matches!(streamed(&large), ReadError::Whole));
        // So too in the record's log, past the first part.
        let log = hostile("; a comment\n", 2 * PART);
        let large = format!("{log}{}\n", "a".repeat(MAX_INPUT));
        assert!(matches!(streamed(&large), ReadError::Whole));
        let error = Source::new(large.as_bytes()).unwrap_err();
        assert!(
            error.message.contains("larger than 8 MiB"),
            "{}",
            error.message
        );
        // Carriage returns alone end the lines of a text without line
        // feeds: no line of this one is long.
        let old_mac = format!("{LOG}{}", "; a comment\n".repeat(MAX_LINE / 8)).replace('\n', "\r");
        assert!(matches!(streamed(&old_mac), ReadError::Whole));
        assert!(parse(&Source::new(old_mac.as_bytes()).unwrap()).is_ok());
    }

    #[test]
    fn a_deeply_quoted_record_with_many_quoted_blank_lines_is_read_in_linear_time() {
        let quoted: String = hostile(">\n", HOSTILE / 4)
            .lines()
            .map(|line| format!("> > > > {line}\n"))
            .collect();
        three_turns(read_in_linear_time(&quoted, 0));
    }

    #[test]
    fn a_header_of_more_tags_than_a_record_holds_is_refused_at_the_first_past_them() {
        let tags: String = (0..20 * MAX_TAGS)
            .map(|k| format!("[Tag{k} \"v\"]\n"))
            .collect();
        let text = hostile("", 0).replace("[Result", &format!("{tags}[Result"));
        let (message, at, _) = in_parts(&text, PART).unwrap_err();
        assert_eq!(message, format!("a header holds at most {MAX_TAGS} tags"));
        assert_eq!((at.line, at.column), (MAX_TAGS + 1, 1));
        assert_eq!(whole(&text), in_parts(&text, PART));
    }

    #[test]
    fn a_record_read_in_parts_of_any_size_gives_the_turns_of_a_whole_read() {
        let quoted: String = LOG.lines().map(|l| format!("> {l}\r\n")).collect();
        let texts = [
            LOG.to_owned(),
            format!("\u{feff}{LOG}"),
            format!("Hello Bob,\n\n{quoted}\nCheers\n"),
            LOG.replace("5. Blue: resign\n", "5. Blue: Kc1-c4 {never closed\n"),
            LOG.replace("4. Red: pass", "4. Red pass"),
            LOG.replace("[Red \"c@d\"]", "[Red \"c@d]"),
            LOG.replace("3. Blue: Cd2-d3,", "3. Blue: Cd2-d3,,"),
            LOG.replace("\n-- \n", "\n"),
        ];
        for text in &texts {
            let want = whole(text);
            for bytes in [1, 2, 5, 17, 40, 100, 10_000] {
                assert_eq!(in_parts(text, bytes), want, "{bytes}-byte parts of\n{text}");
            }
        }
        assert!(whole(&texts[0]).is_ok_and(|(_, turns)| turns.len() == 5));
        assert!(whole(&texts[3]).is_err(), "the comment never closed");
        assert!(whole(&texts[4]).is_err(), "a turn line without its colon");
    }

    #[test]
    fn a_first_turn_after_spaces_or_on_the_last_tags_line_is_carried_whole_to_the_next_part() {
        // The header's white space ends inside the first turn's line:
        // a part that ends in that turn carries its whole line on, and
        // reads it on from where it read it (fuzz finding 6: the turn
        // was dropped, and its continuation lines taken for text after
        // the log).
        let spaced = LOG.replace("\n1. Blue", "\n 1. Blue");
        let texts = [
            spaced.clone(),
            LOG.replace("\n\n1. Blue", "\t 1. Blue"),
            LOG.replace("[Result \"*\"]\n\n1. Blue", "[Result \"*\"] 1. Blue"),
            spaced.replace(", Cd1-d2\n", ",\n  Cd1-d2\n  Kb1-a1\n"),
            spaced.replace("{a comment", "{a comment\n"),
            artifact(include_bytes!(
                "../../fuzz/artifacts-found/stream/quoted-record-read-in-small-parts"
            )),
        ];
        for text in &texts {
            let want = whole(text);
            for bytes in 1..=text.len() + 1 {
                assert_eq!(in_parts(text, bytes), want, "{bytes}-byte parts of\n{text}");
            }
        }
        assert!(whole(&texts[0]).is_ok_and(|(_, turns)| turns.len() == 5));
        assert!(whole(&texts[2]).is_ok_and(|(_, turns)| turns.len() == 5));
        // The finding: refused where the reveal is followed by a move.
        let (message, at, turn) = whole(&texts[5]).unwrap_err();
        assert!(message.starts_with("only proof items"), "{message}");
        assert_eq!((at.line, at.column, turn), (13, 1, Some(13)));
    }

    #[test]
    fn lines_read_together_from_the_inputs_buffer_are_as_read_one_at_a_time() {
        // Plain lines whole in the buffer are read together (found text
        // once); a line that is not plain, or not whole in the buffer,
        // alone: every mix of the two, across buffers of every size.
        let quoted: String = LOG.lines().map(|l| format!("> {l}\r\n")).collect();
        let texts = [
            LOG.to_owned(),
            LOG.replace("\n\n", "\n\n\n\n\n"),
            LOG.replace("\n", "\r\n")
                .replace("\r\n\r\n", "\r\n\r\n\r\n\r\n\n\n"),
            LOG.replace("a comment", "a commént"),
            LOG.replace("4. Red: pass", "4. Red: pass {é}\n\n\n"),
            format!("\u{feff}{LOG}"),
            format!("Hello Bob,\n\n{quoted}\nCheers\n"),
            LOG.replace("3. Blue: Cd2-d3,", "3. Blue: Cd2-d3,,"),
            LOG.trim_end().to_owned(),
        ];
        for text in &texts {
            let want = whole(text);
            for buffer in [1, 2, 7, 16, 64, 10_000] {
                for bytes in [1, 17, 100, 10_000] {
                    let input = io::BufReader::with_capacity(buffer, text.as_bytes());
                    assert_eq!(
                        in_parts_from(input, bytes),
                        want,
                        "{bytes}-byte parts, a buffer of {buffer}, of\n{text}"
                    );
                }
            }
        }
        assert!(whole(&texts[2]).is_ok_and(|(_, turns)| turns.len() == 5));
        assert!(whole(&texts[3]).is_ok_and(|(_, turns)| turns.len() == 5));
        // The input is told to be read whole the same way.
        let two = format!("{LOG}\n> {LOG}");
        for buffer in [1, 7, 10_000] {
            let input = io::BufReader::with_capacity(buffer, two.as_bytes());
            let mut seen = Collect(Vec::new(), 0);
            let read = Reader::with_part(input, 30).map(|r| r.visit(&mut seen));
            assert!(matches!(read, Ok(Err(Stop::Read(ReadError::Whole)))));
        }
    }

    #[test]
    fn a_headers_parse_error_after_a_run_of_comment_lines_is_placed_at_its_first() {
        // Fuzz finding 7: the run of blank and `;` lines after an
        // unclosed tag was kept as its last lines only, and the error
        // ("expected the quoted value") placed at its last `;` line.
        let unclosed = "[Game \"breach-the-keep\"]\n[White \"a@b\"]\n[Black\n\n;\n\n\n;\n\n; c\n\n";
        let texts = [
            format!("{unclosed}1. White: pass\n"),
            format!("{unclosed}{{c}}\n;\n\n1. White: pass\n"),
            unclosed.replace("\n;\n\n\n;", "\n{c}\n\n\n{d}\n;"),
            artifact(include_bytes!(
                "../../fuzz/artifacts-found/stream/header-error-after-a-run-of-comment-lines"
            )),
        ];
        for text in &texts {
            let want = whole(text);
            let (message, at, _) = want.clone().unwrap_err();
            assert!(
                message.starts_with("expected the quoted value of tag"),
                "{message}"
            );
            assert_eq!(at.line, 5, "{text}");
            for bytes in [1, 30, 92, 10_000] {
                assert_eq!(in_parts(text, bytes), want, "{bytes}-byte parts of\n{text}");
            }
        }
    }

    #[test]
    fn a_record_is_read_a_part_at_a_time() {
        let mut text = LOG[..LOG.find("1. Blue").unwrap()].to_owned();
        for n in 1..=2000 {
            let side = if n % 2 == 1 { "Blue" } else { "Red" };
            text.push_str(&format!("{n}. {side}: pass\n"));
        }
        let mut seen = Collect(Vec::new(), 0);
        let reader = Reader::with_part(text.as_bytes(), 1000).unwrap();
        assert!(reader.visit(&mut seen).is_ok());
        assert_eq!(seen.0.len(), 2000);
        // Parts of 1,000 bytes or a little more (the turn carried on).
        let most = text.len() / 1000 + 1;
        assert!((most - 3..=most).contains(&seen.1), "{} parts", seen.1);
    }

    /// Refuses turn 3, and says where its number stands in its part.
    struct RefuseThird;

    impl Visitor for RefuseThird {
        type Error = usize;
        fn turn(&mut self, turn: &Turn<'_>) -> Result<(), usize> {
            match turn.number {
                3 => Err(turn.number_span.start),
                _ => Ok(()),
            }
        }
        fn part_end(&mut self) -> Result<(), usize> {
            Ok(())
        }
    }

    #[test]
    fn a_visitors_error_is_placed_in_its_part_and_a_later_parse_error_comes_first() {
        for bytes in [1, 30, 10_000] {
            let reader = Reader::with_part(LOG.as_bytes(), bytes).unwrap();
            let Err(Stop::Visit(at, part)) = reader.visit(&mut RefuseThird) else {
                panic!("turn 3 refused");
            };
            assert_eq!(
                part.position(at),
                Position {
                    line: 11,
                    column: 1
                }
            );
            let bad = LOG.replace("4. Red: pass", "4. Red pass");
            let reader = Reader::with_part(bad.as_bytes(), bytes).unwrap();
            let Err(Stop::Read(ReadError::Parse(e))) = reader.visit(&mut RefuseThird) else {
                panic!("turn 4 does not parse");
            };
            assert_eq!(e.1.position(e.0.span.start).line, 14);
        }
    }

    /// Refuses turn 3, and counts the turns only parsed after it.
    #[derive(Default)]
    struct RefuseThirdCounting {
        played: Vec<u32>,
        skipped: Vec<u32>,
    }

    impl Visitor for RefuseThirdCounting {
        type Error = ();
        fn turn(&mut self, turn: &Turn<'_>) -> Result<(), ()> {
            self.played.push(turn.number);
            match turn.number {
                3 => Err(()),
                _ => Ok(()),
            }
        }
        fn part_end(&mut self) -> Result<(), ()> {
            Ok(())
        }
        fn skipped(&mut self, turn: &Turn<'_>) {
            self.skipped.push(turn.number);
        }
    }

    #[test]
    fn the_turns_after_a_visitors_error_are_shown_to_it_as_skipped_in_every_part() {
        let mut text = LOG[..LOG.find("1. Blue").unwrap()].to_owned();
        for n in 1..=300 {
            let side = if n % 2 == 1 { "Blue" } else { "Red" };
            text.push_str(&format!("{n}. {side}: pass\n"));
        }
        for bytes in [1, 30, 1000, 100_000] {
            let mut seen = RefuseThirdCounting::default();
            let reader = Reader::with_part(text.as_bytes(), bytes).unwrap();
            assert!(matches!(reader.visit(&mut seen), Err(Stop::Visit((), _))));
            assert_eq!(seen.played, [1, 2, 3], "{bytes}");
            assert_eq!(seen.skipped, (4..=300).collect::<Vec<u32>>(), "{bytes}");
        }
    }

    #[test]
    fn the_most_turns_a_record_holds_are_counted_across_parts() {
        let mut text = LOG[..LOG.find("1. Blue").unwrap()].to_owned();
        for n in 1..=crate::record::MAX_TURNS + 1 {
            text.push_str(&format!("{n}. Blue: pass\n"));
        }
        let want = whole(&text);
        assert!(want
            .as_ref()
            .is_err_and(|e| e.0.contains("at most 50000 turns")));
        assert_eq!(in_parts(&text, PART), want);
    }

    /// Whether the reader, reading `text` in parts of `bytes`, with
    /// `visitor`, says to read it whole.
    fn read_whole(text: &[u8], bytes: usize, visitor: &mut impl Visitor) -> bool {
        match Reader::with_part(text, bytes) {
            Err(e) => matches!(e, ReadError::Whole),
            Ok(reader) => matches!(reader.visit(visitor), Err(Stop::Read(ReadError::Whole))),
        }
    }

    #[test]
    fn an_input_to_read_whole_is_told_so_before_any_verdict() {
        let bad = LOG.replace("4. Red: pass", "4. Red pass");
        let tails: [&[u8]; 3] = [b"\n> [Game \"x\"]\n", b"\0", b"\xff\n"];
        for text in [LOG, &bad] {
            assert!(!read_whole(text.as_bytes(), 30, &mut RefuseThird));
            for tail in tails {
                let input = [text.as_bytes(), tail].concat();
                for bytes in [1, 30, 10_000] {
                    assert!(read_whole(&input, bytes, &mut Collect(Vec::new(), 0)));
                    assert!(read_whole(&input, bytes, &mut RefuseThird), "{tail:?}");
                }
            }
        }
        // A header that does not parse, in a message.
        let mail = format!("From: a@b\nSubject: x\n\n[Game \"x\"\n{LOG}");
        assert!(matches!(
            Reader::new(mail.as_bytes()),
            Err(ReadError::Whole)
        ));
        let header = format!("[Game \"x\"\n{LOG}\0");
        assert!(matches!(
            Reader::new(header.as_bytes()),
            Err(ReadError::Whole)
        ));
    }

    #[test]
    fn lines_read_and_bytes_looked_at_eight_at_a_time_are_as_read_one_at_a_time() {
        let mut texts: Vec<Vec<u8>> = vec![LOG.as_bytes().to_vec(), Vec::new(), b"\n\n".to_vec()];
        for n in 0..300u32 {
            // Bytes of every kind, lines of every length.
            let bytes = (0..n).map(|k| (k.wrapping_mul(2_654_435_761) >> (k % 23)) as u8);
            texts.push(bytes.map(|b| if b % 7 == 0 { b'\n' } else { b }).collect());
        }
        for at in 0..40 {
            for odd in ["\0", "é", "\u{80}"] {
                texts.push(format!("{}{odd}{}", &LOG[..at], &LOG[at..]).into_bytes());
            }
        }
        for text in &texts {
            for buffer in [1, 3, 8, 64] {
                let (mut ours, mut std) = (
                    io::BufReader::with_capacity(buffer, text.as_slice()),
                    text.as_slice(),
                );
                let (mut a, mut b) = (Vec::new(), Vec::new());
                loop {
                    let read = read_line(&mut ours, &mut a).unwrap();
                    b.clear();
                    assert_eq!(read, std.read_until(b'\n', &mut b).unwrap() > 0);
                    assert_eq!(a, b);
                    if !read {
                        break;
                    }
                }
            }
            for from in 0..text.len() {
                let part = &text[from..];
                let want = part.iter().all(|b| *b != 0 && b.is_ascii());
                assert_eq!(plain_ascii(part), want, "{part:?}");
            }
        }
    }

    #[test]
    fn a_check_places_a_problem_of_its_start_or_finish_in_the_header_after_a_parse_error() {
        let blue_tag = |header: &Record<'_>| Err::<Collect, _>(header.tags[1].span.start);
        let reader = Reader::with_part(LOG.as_bytes(), 30).unwrap();
        let Err(Stop::Visit(at, head)) = reader.check(blue_tag, |_| Ok(())) else {
            panic!("the start refused");
        };
        assert_eq!(head.position(at), Position { line: 2, column: 1 });
        let reader = Reader::with_part(LOG.as_bytes(), 30).unwrap();
        let start = |_: &Record<'_>| Ok(Collect(Vec::new(), 0));
        let Err(Stop::Visit(at, head)) = reader.check(start, |_| Err::<(), _>(4)) else {
            panic!("the finish refused");
        };
        assert_eq!(head.position(at), Position { line: 1, column: 5 });
        let bad = LOG.replace("4. Red: pass", "4. Red pass");
        let reader = Reader::with_part(bad.as_bytes(), 30).unwrap();
        let Err(Stop::Read(ReadError::Parse(e))) = reader.check(blue_tag, |_| Ok(())) else {
            panic!("turn 4 does not parse");
        };
        assert_eq!(e.1.position(e.0.span.start).line, 14);
    }

    #[test]
    fn a_record_that_must_be_read_whole_is_checked_by_nobody() {
        let input = format!("{LOG}\n> {LOG}");
        let reader = Reader::with_part(input.as_bytes(), 30).unwrap();
        let checked = reader.check(|_| Ok(Collect(Vec::new(), 0)), |_| Ok(()));
        assert!(matches!(checked, Err(Stop::Read(ReadError::Whole))));
    }

    #[test]
    fn only_a_plain_text_of_one_record_is_read_in_parts() {
        let whole_read = |text: &[u8]| read_whole(text, PART, &mut Collect(Vec::new(), 0));
        assert!(!whole_read(LOG.as_bytes()));
        assert!(
            whole_read(format!("{LOG}\n> {LOG}").as_bytes()),
            "two records"
        );
        assert!(whole_read(b"no record here\n"));
        assert!(whole_read(b""));
        assert!(whole_read(
            format!("From: a@b\nSubject: x\n\n{LOG}").as_bytes()
        ));
        let mbox = format!("From a@b Sat Jan  1 00:00:00 2000\n{LOG}");
        assert!(whole_read(mbox.as_bytes()));
        assert!(
            whole_read(LOG.replace('\n', "\r").as_bytes()),
            "old Mac line ends"
        );
        assert!(whole_read(format!("{LOG}\0").as_bytes()));
        assert!(whole_read(&[LOG.as_bytes(), b"\xff\n"].concat()));
        let large = format!("{LOG}{}", " ".repeat(MAX_INPUT));
        assert!(whole_read(large.as_bytes()));
        // Windows line ends and a byte-order mark are plain text.
        let windows = format!("\u{feff}{}", LOG.replace('\n', "\r\n"));
        assert!(!whole_read(windows.as_bytes()));
    }
}
