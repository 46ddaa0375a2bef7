//! The replay page: one self-contained HTML file holding the SVG of every
//! position of a game, step controls (buttons, the arrow keys, Home and
//! End, a click on a turn) and the list of turns with each turn's
//! annotation, the current one highlighted. Inline CSS and JavaScript
//! only: nothing is fetched when the page is viewed.
//!
//! Each position is a `<section class="frame" data-index data-turn
//! data-id>`; the list item of the same index is `li.current` while it is
//! shown; the script exposes `window.herald.show(i)` and
//! `window.herald.current()`. The pictures are kept as data, drawn once:
//! every line of every position's SVG is stored once in a table
//! (`<script type="application/json" id="positions">`: `parts`, and for
//! each position the list of its lines, `frames`), and a position's
//! picture is put together when it is first shown (the first position's
//! is in the page as it stands, for a reader without scripts). So the
//! page grows by what changes from one position to the next, not by a
//! whole board a position. The address names the position shown
//! (`game.html#t12`: after turn 12; `#t0` the start; a second position
//! of the same turn `#t0-2`), and opening the page at such an address
//! shows that position.

use std::collections::HashMap;
use std::fmt::Write;
use std::io::{self, Read};

use super::escape;

/// One position of the page: the line that led to it and its picture.
#[derive(Clone, PartialEq, Debug)]
pub struct Frame {
    /// The turn number after which the position stands (0: the start).
    pub turn: u32,
    /// How the list names the line: `Start`, `S1. Blue`, `6. Red`.
    pub label: String,
    /// The line's actions and chance, as `replay` prints them.
    pub line: String,
    /// The turn's annotation, as `annotate` writes it (may be empty).
    pub comment: String,
    /// The SVG of the position after the line.
    pub svg: String,
}

const STYLE: &str = "
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 16px; color: #111; background: #fff; }
h1 { font-size: 1.3em; margin: 0 0 4px 0; }
p.view { margin: 0 0 10px 0; color: #333; }
#controls { margin: 8px 0; display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
#controls button { font-size: 1em; padding: 4px 12px; }
#status { margin-left: 8px; font-weight: bold; }
#main { display: flex; gap: 20px; align-items: flex-start; flex-wrap: wrap; }
#board svg { max-width: 100%; height: auto; }
#moves { list-style: none; padding: 0; margin: 0; max-height: 80vh; overflow-y: auto; min-width: 260px; max-width: 520px; }
#moves li { padding: 4px 8px; border-left: 4px solid transparent; cursor: pointer; }
#moves li.current { background: #FFF3C4; border-left-color: #E69F00; }
#moves .label { font-weight: bold; }
#moves .line { font-family: DejaVu Sans Mono, Menlo, Consolas, monospace; }
#moves .comment { display: block; color: #444; font-size: 0.9em; }
";

const SCRIPT: &str = "
(function () {
  'use strict';
  var frames = document.querySelectorAll('section.frame');
  var items = document.querySelectorAll('#moves li');
  var status = document.getElementById('status');
  var data = JSON.parse(document.getElementById('positions').textContent);
  var current = 0;
  function draw(i) {
    if (frames[i].firstElementChild) { return; }
    frames[i].innerHTML = data.frames[i].map(function (k) { return data.parts[k]; }).join('');
  }
  function fromAddress() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    for (var k = 0; k < frames.length; k++) {
      if (frames[k].getAttribute('data-id') === id) { return k; }
    }
    return -1;
  }
  function show(i) {
    if (frames.length === 0) { return; }
    current = Math.max(0, Math.min(frames.length - 1, i));
    draw(current);
    try {
      window.history.replaceState(null, '', '#' + frames[current].getAttribute('data-id'));
    } catch (e) { /* an address that cannot change: the page still steps */ }
    for (var k = 0; k < frames.length; k++) {
      var on = k === current;
      frames[k].hidden = !on;
      items[k].classList.toggle('current', on);
      items[k].setAttribute('aria-current', on ? 'step' : 'false');
    }
    status.textContent = frames[current].getAttribute('data-label') +
      ' (' + (current + 1) + ' of ' + frames.length + ')';
    if (items[current].scrollIntoView) { items[current].scrollIntoView({ block: 'nearest' }); }
  }
  document.getElementById('first').addEventListener('click', function () { show(0); });
  document.getElementById('prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('next').addEventListener('click', function () { show(current + 1); });
  document.getElementById('last').addEventListener('click', function () { show(frames.length - 1); });
  for (var k = 0; k < items.length; k++) {
    items[k].addEventListener('click', (function (i) { return function () { show(i); }; })(k));
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { show(current - 1); }
    else if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { show(current + 1); }
    else if (e.key === 'Home') { show(0); }
    else if (e.key === 'End') { show(frames.length - 1); }
    else { return; }
    e.preventDefault();
  });
  window.addEventListener('hashchange', function () {
    var k = fromAddress();
    if (k >= 0 && k !== current) { show(k); }
  });
  window.herald = { show: show, current: function () { return current; }, count: frames.length };
  show(Math.max(0, fromAddress()));
})();
";

/// The pieces of a page that grow with its positions, each written in
/// order as the frames come ([`Page::push`]) and read back once, in this
/// order, when the page is written ([`Page::into_page`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Piece {
    /// A `<section class="frame">` a position.
    Sections,
    /// A list item a position.
    Items,
    /// Each position's list of lines, as JSON arrays of numbers.
    Frames,
    /// Every distinct line of the pictures once, as JSON strings.
    Parts,
}

/// Where a page's pieces wait until the page is written: in memory for
/// [`page`], in temporary files for a replay read a part at a time.
pub trait Store {
    /// A piece as written, read back.
    type Reader: Read;
    /// Append `bytes` to `piece`.
    fn write(&mut self, piece: Piece, bytes: &[u8]) -> io::Result<()>;
    /// Fill `buf` from [`Piece::Parts`] as written, from byte `at` (to
    /// tell a line seen before from one whose hash is the same).
    fn read_parts(&mut self, at: u64, buf: &mut [u8]) -> io::Result<()>;
    /// The pieces as written, in the order of [`Piece`].
    fn into_pieces(self) -> io::Result<[Self::Reader; 4]>;
}

/// A [`Store`] in memory.
#[derive(Default)]
pub struct InMemory([Vec<u8>; 4]);

impl Store for InMemory {
    type Reader = io::Cursor<Vec<u8>>;

    fn write(&mut self, piece: Piece, bytes: &[u8]) -> io::Result<()> {
        self.0[piece as usize].extend_from_slice(bytes);
        Ok(())
    }

    fn read_parts(&mut self, at: u64, buf: &mut [u8]) -> io::Result<()> {
        let parts = &self.0[Piece::Parts as usize];
        let at = usize::try_from(at).unwrap_or(usize::MAX);
        match parts.get(at..at.saturating_add(buf.len())) {
            Some(bytes) => {
                buf.copy_from_slice(bytes);
                Ok(())
            }
            None => Err(io::ErrorKind::UnexpectedEof.into()),
        }
    }

    fn into_pieces(self) -> io::Result<[Self::Reader; 4]> {
        Ok(self.0.map(io::Cursor::new))
    }
}

/// The distinct lines of the pictures so far, by a hash of each: an
/// open-addressed table of 8 bytes a slot (the hash's upper half and the
/// line's number), and where each line's JSON string starts in
/// [`Piece::Parts`]. A line whose hash is found is compared with the
/// line written, read back, so that two lines are one part only when
/// they are the same.
#[derive(Default)]
struct Parts {
    /// `hash << 32 | number + 1`; 0 is empty.
    slots: Vec<u64>,
    /// Where each part's JSON string starts (grown by a few thousand at
    /// a time, not doubled).
    starts: Vec<u32>,
    /// Bytes of [`Piece::Parts`] written.
    written: u32,
}

impl Parts {
    fn len(&self) -> usize {
        self.starts.len()
    }

    /// The slots a hash `h` is looked for in, in order.
    fn probe(&self, h: u32) -> impl Iterator<Item = usize> + '_ {
        let mask = self.slots.len().wrapping_sub(1);
        (0..self.slots.len()).map(move |k| (h as usize).wrapping_add(k) & mask)
    }

    /// Room for one more line: the table at most three quarters full.
    fn grow(&mut self) {
        if (self.len() + 1) * 4 <= self.slots.len() * 3 {
            return;
        }
        let size = (self.slots.len() * 2).max(64);
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        for slot in old.into_iter().filter(|s| *s != 0) {
            let free = self
                .probe((slot >> 32) as u32)
                .find(|&k| self.slots[k] == 0);
            if let Some(k) = free {
                self.slots[k] = slot;
            }
        }
    }

    /// The number of a line whose hash is `h` and whose JSON string is
    /// `json`: the one written before, or a new one written to `store`
    /// now.
    fn number<S: Store>(&mut self, h: u32, json: &str, store: &mut S) -> io::Result<u32> {
        let mut free = None;
        let mut back = Vec::new();
        for k in self.probe(h) {
            let slot = self.slots[k];
            if slot == 0 {
                free = Some(k);
                break;
            }
            if (slot >> 32) as u32 == h {
                let n = (slot & 0xFFFF_FFFF) as usize - 1;
                // Its JSON string ends before the next one's comma.
                let end = self.starts.get(n + 1).map_or(self.written, |next| next - 1);
                if (end - self.starts[n]) as usize != json.len() {
                    continue;
                }
                back.resize(json.len(), 0);
                store.read_parts(u64::from(self.starts[n]), &mut back)?;
                if back == json.as_bytes() {
                    return u32::try_from(n).map_err(io::Error::other);
                }
            }
        }
        if free.is_none() || (self.len() + 1) * 4 > self.slots.len() * 3 {
            self.grow();
            free = self.probe(h).find(|&k| self.slots[k] == 0);
        }
        let n = u32::try_from(self.len()).map_err(io::Error::other)?;
        let comma = u32::from(n > 0);
        // A page's distinct lines come to some megabytes at most.
        let start = self.written + comma;
        let written = u32::try_from(json.len())
            .ok()
            .and_then(|len| start.checked_add(len))
            .ok_or_else(|| io::Error::other("the page's pictures are over 4 GiB"))?;
        if comma == 1 {
            store.write(Piece::Parts, b",")?;
        }
        if self.starts.len() == self.starts.capacity() {
            self.starts.reserve_exact(4096);
        }
        self.starts.push(start);
        store.write(Piece::Parts, json.as_bytes())?;
        self.written = written;
        if let Some(k) = free {
            self.slots[k] = u64::from(h) << 32 | (u64::from(n) + 1);
        }
        Ok(n)
    }
}

/// A hash of `line` for [`Parts`].
fn hash32(line: &str) -> u32 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    line.hash(&mut hasher);
    (hasher.finish() >> 32) as u32
}

/// `line` as a JSON string that can stand inside a `<script>` element
/// (`</` would end it early).
fn json_string(line: &str) -> String {
    let json = serde_json::to_string(line).unwrap_or_default();
    json.replace("</", "<\\/")
}

/// A page written a position at a time ([`Page::push`]), its pieces
/// kept in a [`Store`] and only one position's picture held at a time,
/// then put together ([`Page::into_page`]). The pictures are kept as
/// data: every distinct line of every position's SVG once (`parts`),
/// each position as the list of its lines (`frames`).
pub struct Page<S: Store> {
    store: S,
    /// Positions pushed.
    count: usize,
    /// The turn of the last position pushed, and how many stand at it
    /// (for the addresses: `t12`, then `t12-2`).
    turn: Option<(u32, usize)>,
    parts: Parts,
    /// The lines of the last position pushed, with their numbers and
    /// the position they were last seen in: most lines of a position
    /// are the last one's.
    recent: HashMap<Box<str>, (u32, usize)>,
}

impl<S: Store> Page<S> {
    /// A page with no position yet, its pieces kept in `store`.
    pub fn new(store: S) -> Self {
        Page {
            store,
            count: 0,
            turn: None,
            parts: Parts::default(),
            recent: HashMap::new(),
        }
    }

    /// The positions pushed.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether no position was pushed.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Add the position `f`. Frames come in the order played: their
    /// turn numbers never go down (set-up lines all stand at turn 0).
    pub fn push(&mut self, f: &Frame) -> io::Result<()> {
        let i = self.count;
        // Its address: `t12` after turn 12, `t12-2` for a second frame of
        // the same turn.
        let n = match self.turn {
            Some((turn, n)) if turn == f.turn => n + 1,
            _ => 1,
        };
        self.turn = Some((f.turn, n));
        let id = match n {
            1 => format!("t{}", f.turn),
            k => format!("t{}-{k}", f.turn),
        };
        // The first picture stands in the page; the others are drawn
        // from the data when first shown.
        let mut text = String::with_capacity(256);
        let _ = writeln!(
            text,
            "<section class=\"frame\" data-index=\"{i}\" data-turn=\"{}\" data-id=\"{id}\" data-label=\"{}\"{}>{}</section>",
            f.turn,
            escape(&f.label),
            if i == 0 { "" } else { " hidden" },
            if i == 0 { f.svg.as_str() } else { "" }
        );
        self.store.write(Piece::Sections, text.as_bytes())?;
        text.clear();
        let _ = write!(
            text,
            "<li data-index=\"{i}\" data-turn=\"{}\"><span class=\"label\">{}</span> <span class=\"line\">{}</span>",
            f.turn,
            escape(&f.label),
            escape(&f.line)
        );
        if !f.comment.is_empty() {
            let _ = write!(
                text,
                "<span class=\"comment\">{}</span>",
                escape(&f.comment)
            );
        }
        text.push_str("</li>\n");
        self.store.write(Piece::Items, text.as_bytes())?;
        text.clear();
        text.push_str(if i == 0 { "[" } else { ",[" });
        for (k, line) in f.svg.split_inclusive('\n').enumerate() {
            let number = match self.recent.get_mut(line) {
                Some((number, seen)) => {
                    *seen = i;
                    *number
                }
                None => {
                    let number =
                        self.parts
                            .number(hash32(line), &json_string(line), &mut self.store)?;
                    self.recent.insert(line.into(), (number, i));
                    number
                }
            };
            if k > 0 {
                text.push(',');
            }
            let _ = write!(text, "{number}");
        }
        text.push(']');
        self.store.write(Piece::Frames, text.as_bytes())?;
        self.recent.retain(|_, (_, seen)| *seen == i);
        self.count += 1;
        Ok(())
    }

    /// The whole page, read from the pieces kept: `title` as its heading,
    /// `view` saying whose view it is (public, or a key holder's).
    pub fn into_page(self, title: &str, view: &str) -> io::Result<impl Read> {
        let mut head = String::with_capacity(4096);
        let _ = write!(
            head,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
             <h1>{t}</h1>\n<p class=\"view\">{v}</p>\n",
            t = escape(title),
            v = escape(view)
        );
        head.push_str(
            "<div id=\"controls\">\
             <button id=\"first\" type=\"button\" title=\"The start (Home)\">&#x25C0;&#x25C0; Start</button>\
             <button id=\"prev\" type=\"button\" title=\"Back a turn (left arrow)\">&#x25C0; Back</button>\
             <button id=\"next\" type=\"button\" title=\"On a turn (right arrow)\">On &#x25B6;</button>\
             <button id=\"last\" type=\"button\" title=\"The end (End)\">End &#x25B6;&#x25B6;</button>\
             <span id=\"status\" aria-live=\"polite\"></span></div>\n<div id=\"main\">\n<div id=\"board\">\n",
        );
        let [sections, items, frames, parts] = self.store.into_pieces()?;
        let tail = format!("]}}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n");
        Ok(io::Cursor::new(head)
            .chain(sections)
            .chain(&b"</div>\n<ol id=\"moves\">\n"[..])
            .chain(items)
            .chain(
                &b"</ol>\n</div>\n<script type=\"application/json\" id=\"positions\">{\"frames\":["
                    [..],
            )
            .chain(frames)
            .chain(&b"],\"parts\":["[..])
            .chain(parts)
            .chain(io::Cursor::new(tail)))
    }
}

/// The whole page: `title` as its heading, `view` saying whose view it
/// is (public, or a key holder's), one frame per position, in the order
/// played.
pub fn page(title: &str, view: &str, frames: &[Frame]) -> String {
    let mut page = Page::new(InMemory::default());
    let mut text = Vec::new();
    let written = frames
        .iter()
        .try_for_each(|f| page.push(f))
        .and_then(|()| page.into_page(title, view))
        .and_then(|mut read| read.read_to_end(&mut text));
    // Memory neither fails to write nor to read back.
    debug_assert!(written.is_ok());
    String::from_utf8(text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page as it was written before it was written a position at a
    /// time: every frame held, the lines in a map of the text.
    fn page_at_once(title: &str, view: &str, frames: &[Frame]) -> String {
        let mut seen: HashMap<u32, usize> = HashMap::new();
        let ids: Vec<String> = frames
            .iter()
            .map(|f| {
                let n = seen.entry(f.turn).or_insert(0);
                *n += 1;
                match *n {
                    1 => format!("t{}", f.turn),
                    k => format!("t{}-{k}", f.turn),
                }
            })
            .collect();
        let mut parts: Vec<&str> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        let lists: Vec<Vec<usize>> = frames
            .iter()
            .map(|f| {
                f.svg
                    .split_inclusive('\n')
                    .map(|line| {
                        *index.entry(line).or_insert_with(|| {
                            parts.push(line);
                            parts.len() - 1
                        })
                    })
                    .collect()
            })
            .collect();
        let data = serde_json::json!({ "parts": parts, "frames": lists })
            .to_string()
            .replace("</", "<\\/");
        let mut out = String::new();
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
             <h1>{t}</h1>\n<p class=\"view\">{v}</p>\n",
            t = escape(title),
            v = escape(view)
        );
        out.push_str(
            "<div id=\"controls\">\
             <button id=\"first\" type=\"button\" title=\"The start (Home)\">&#x25C0;&#x25C0; Start</button>\
             <button id=\"prev\" type=\"button\" title=\"Back a turn (left arrow)\">&#x25C0; Back</button>\
             <button id=\"next\" type=\"button\" title=\"On a turn (right arrow)\">On &#x25B6;</button>\
             <button id=\"last\" type=\"button\" title=\"The end (End)\">End &#x25B6;&#x25B6;</button>\
             <span id=\"status\" aria-live=\"polite\"></span></div>\n<div id=\"main\">\n<div id=\"board\">\n",
        );
        for (i, f) in frames.iter().enumerate() {
            let _ = writeln!(
                out,
                "<section class=\"frame\" data-index=\"{i}\" data-turn=\"{}\" data-id=\"{}\" data-label=\"{}\"{}>{}</section>",
                f.turn,
                ids[i],
                escape(&f.label),
                if i == 0 { "" } else { " hidden" },
                if i == 0 { f.svg.as_str() } else { "" }
            );
        }
        out.push_str("</div>\n<ol id=\"moves\">\n");
        for (i, f) in frames.iter().enumerate() {
            let _ = write!(
                out,
                "<li data-index=\"{i}\" data-turn=\"{}\"><span class=\"label\">{}</span> <span class=\"line\">{}</span>",
                f.turn,
                escape(&f.label),
                escape(&f.line)
            );
            if !f.comment.is_empty() {
                let _ = write!(out, "<span class=\"comment\">{}</span>", escape(&f.comment));
            }
            out.push_str("</li>\n");
        }
        let _ = write!(
            out,
            "</ol>\n</div>\n<script type=\"application/json\" id=\"positions\">{data}</script>\n\
             <script>{SCRIPT}</script>\n</body>\n</html>\n"
        );
        out
    }

    /// Frames whose pictures share most lines, some lines coming back
    /// after positions without them, with quotes, `</`, control
    /// characters and non-ASCII text, set-up lines at turn 0.
    fn frames(count: u32) -> Vec<Frame> {
        (0..count)
            .map(|i| {
                let mut svg = String::from("<svg xmlns=\"http://www.w3.org/2000/svg\">\n");
                for k in 0..30 {
                    let _ = writeln!(svg, "<rect x=\"{k}\" class=\"sq\"/>");
                }
                let _ = writeln!(svg, "<text>after turn {i}</text>");
                let _ = writeln!(svg, "<g class=\"piece\" at=\"{}\"/>", i % 7);
                let _ = writeln!(svg, "<desc>\"Blue\" \\ \u{1}\t ü {}</desc>", i % 3);
                svg.push_str("</svg>");
                if i % 11 == 5 {
                    svg.clear();
                }
                Frame {
                    turn: i.saturating_sub(3),
                    label: format!("{i}. Blue & <Red>"),
                    line: format!("a{i}-b{i}"),
                    comment: if i % 4 == 1 {
                        format!("'{i}'")
                    } else {
                        String::new()
                    },
                    svg,
                }
            })
            .collect()
    }

    #[test]
    fn the_page_written_a_position_at_a_time_is_the_page_written_at_once() {
        for count in [0, 1, 2, 5, 40, 300] {
            let frames = frames(count);
            assert_eq!(
                page("T </script> & co", "view", &frames),
                page_at_once("T </script> & co", "view", &frames),
                "{count} frames"
            );
        }
        let page = page("T", "v", &frames(300));
        // Each distinct line once: 30 squares, 300 turns, 7 places, 3
        // descriptions, the head and the end.
        let data = page.split("id=\"positions\">").nth(1).unwrap();
        assert_eq!(data.matches("class=\\\"sq\\\"").count(), 30, "{data:.300}");
        assert!(data.contains("<\\/svg>"), "{data:.300}");
    }

    #[test]
    fn lines_whose_hash_is_the_same_are_two_parts_unless_they_are_the_same_line() {
        let mut store = InMemory::default();
        let mut parts = Parts::default();
        let (a, b) = (json_string("a\n"), json_string("b\n"));
        // Every line with the same hash: told apart by their text alone.
        assert_eq!(parts.number(7, &a, &mut store).unwrap(), 0);
        assert_eq!(parts.number(7, &b, &mut store).unwrap(), 1);
        assert_eq!(parts.number(7, &a, &mut store).unwrap(), 0);
        assert_eq!(parts.number(7, &b, &mut store).unwrap(), 1);
        // A line that is the start of another is not that other.
        let ab = json_string("a\nb");
        assert_eq!(parts.number(7, &ab, &mut store).unwrap(), 2);
        // Many lines: the table grows and still finds each.
        for k in 0..1000u32 {
            let line = json_string(&format!("line {k}"));
            assert_eq!(parts.number(k % 5, &line, &mut store).unwrap(), 3 + k);
        }
        for k in (0..1000u32).rev() {
            let line = json_string(&format!("line {k}"));
            assert_eq!(parts.number(k % 5, &line, &mut store).unwrap(), 3 + k);
        }
        let [_, _, _, written] = store.into_pieces().unwrap();
        let written = String::from_utf8(written.into_inner()).unwrap();
        assert!(
            written.starts_with("\"a\\n\",\"b\\n\",\"a\\nb\",\"line 0\""),
            "{written:.60}"
        );
    }
}
