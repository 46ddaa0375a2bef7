//! Reading a record out of whatever text it arrived in: an email with text
//! before the header, `> ` quoting, CRLF line ends, a signature after the
//! log. The result is the record's own text ("clean" text) plus a map back
//! to line and column of the original, for error messages.

use std::ops::Range;

/// Largest input accepted, in bytes. A record of 10,000 turns is well under
/// a megabyte; anything this large is not a game record.
pub const MAX_INPUT: usize = 8 * 1024 * 1024;

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
struct LineMap {
    /// Start of this line in the clean text.
    clean_start: usize,
    /// Start of the line in the original input.
    orig_start: usize,
    /// Bytes of quoting stripped from the front of the original line.
    stripped: usize,
    /// 1-based line number in the original input.
    line: usize,
}

/// The record's text, unquoted, with `\n` line ends, and its map back to the
/// original input.
#[derive(Debug)]
pub struct Source {
    original: String,
    clean: String,
    lines: Vec<LineMap>,
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

/// Strip up to `depth` quote marks from the front of `line`; returns the
/// bytes stripped, or `None` if the line carries fewer marks (it is outside
/// the quoted block).
fn strip_quotes(line: &str, depth: usize) -> Option<usize> {
    if depth == 0 {
        return Some(0);
    }
    let bytes = line.as_bytes();
    let mut marks = 0;
    let mut i = 0;
    while i < bytes.len() && marks < depth {
        match bytes[i] {
            b'>' => {
                marks += 1;
                i += 1;
                if bytes.get(i) == Some(&b' ') {
                    i += 1;
                }
            }
            b' ' | b'\t' => i += 1,
            _ => break,
        }
    }
    (marks == depth).then_some(i)
}

/// True for a line that starts a header tag: `[Name "`.
fn starts_header(text: &str) -> bool {
    let t = text.trim_start();
    let Some(rest) = t.strip_prefix('[') else {
        return false;
    };
    let rest = rest.trim_start();
    let name_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    name_len > 0
        && rest.as_bytes()[0].is_ascii_alphabetic()
        && rest[name_len..].trim_start().starts_with('"')
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

impl Source {
    /// Read a record's text out of `input`. Fails on input that is not
    /// text (not UTF-8, NUL bytes), too large, or holds no header.
    pub fn new(input: &[u8]) -> Result<Source, InputError> {
        if input.len() > MAX_INPUT {
            return Err(InputError {
                position: Position { line: 1, column: 1 },
                message: format!(
                    "the input is larger than {} MiB: not a game record",
                    MAX_INPUT / (1024 * 1024)
                ),
            });
        }
        let original = match std::str::from_utf8(input) {
            // Old Mac line ends (CR alone): the same bytes with LF.
            Ok(s) if s.contains('\r') && !s.contains('\n') => s.replace('\r', "\n"),
            Ok(s) => s.to_owned(),
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
        if let Some(nul) = original.find('\0') {
            return Err(InputError {
                position: position_of_byte(&original, nul),
                message: "the input holds a NUL byte: it is binary data, not a game record".into(),
            });
        }
        let mut source = Source {
            clean: String::with_capacity(original.len()),
            lines: Vec::new(),
            original,
        };
        source.unquote()?;
        Ok(source)
    }

    /// Text typed as it stands (a turn given to `move`), not looked for
    /// inside an email: every line is taken whole, no header needed.
    pub fn typed(text: &str) -> Source {
        let mut source = Source {
            clean: String::with_capacity(text.len() + 1),
            lines: Vec::new(),
            original: String::new(),
        };
        let mut orig_start = 0;
        for (index, raw) in text.split_inclusive('\n').enumerate() {
            let line = raw.trim_end_matches(['\n', '\r']).trim_end();
            source.push_line(orig_start, 0, index + 1, line);
            orig_start += raw.len();
        }
        source.original = text.to_owned();
        source
    }

    fn unquote(&mut self) -> Result<(), InputError> {
        let original = std::mem::take(&mut self.original);
        let mut depth = None;
        let mut orig_start = 0;
        for (index, raw) in original.split_inclusive('\n').enumerate() {
            let mut start = orig_start;
            orig_start += raw.len();
            let mut line = raw.trim_end_matches(['\n', '\r']);
            if index == 0 {
                // A byte-order mark (Windows Notepad) is not part of the text.
                if let Some(rest) = line.strip_prefix('\u{feff}') {
                    start += '\u{feff}'.len_utf8();
                    line = rest;
                }
            }
            let depth = match depth {
                Some(d) => d,
                None => {
                    let (marks, prefix) = quote_prefix(line);
                    if !starts_header(&line[prefix..]) {
                        continue;
                    }
                    depth = Some(marks);
                    marks
                }
            };
            let Some(stripped) = strip_quotes(line, depth) else {
                if line.trim().is_empty() {
                    // A blank line inside a quoted block.
                    self.push_line(start, line.len(), index + 1, "");
                    continue;
                }
                break; // the quoted block ends
            };
            let text = line[stripped..].trim_end();
            self.push_line(start, stripped, index + 1, text);
        }
        self.original = original;
        if depth.is_none() {
            return Err(InputError {
                position: Position { line: 1, column: 1 },
                message: if self.original.trim().is_empty() {
                    "the input is empty: a record starts with header tags such as [Game \"castle-danger\"]".into()
                } else {
                    "no record found: a record starts with header tags such as [Game \"castle-danger\"]".into()
                },
            });
        }
        Ok(())
    }

    fn push_line(&mut self, orig_start: usize, stripped: usize, line: usize, text: &str) {
        self.lines.push(LineMap {
            clean_start: self.clean.len(),
            orig_start,
            stripped,
            line,
        });
        self.clean.push_str(text);
        self.clean.push('\n');
    }

    /// The record's own text: unquoted lines joined by `\n`.
    pub fn text(&self) -> &str {
        &self.clean
    }

    /// The input exactly as given.
    pub fn original(&self) -> &str {
        &self.original
    }

    fn line_index(&self, offset: usize) -> usize {
        match self.lines.binary_search_by(|l| l.clean_start.cmp(&offset)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// Line and column in the original input of a byte of the clean text.
    pub fn position(&self, offset: usize) -> Position {
        let Some(map) = self.lines.get(self.line_index(offset)) else {
            return Position { line: 1, column: 1 };
        };
        let within = offset.saturating_sub(map.clean_start);
        let clean_line = &self.clean[map.clean_start..];
        let within = within.min(clean_line.find('\n').unwrap_or(clean_line.len()));
        let prefix = &self.original[map.orig_start..map.orig_start + map.stripped];
        Position {
            line: map.line,
            column: prefix.chars().count() + clean_line[..within].chars().count() + 1,
        }
    }

    /// The byte of the original input that a byte of the clean text came from.
    pub fn original_offset(&self, offset: usize) -> usize {
        match self.lines.get(self.line_index(offset)) {
            Some(map) => map.orig_start + map.stripped + offset.saturating_sub(map.clean_start),
            None => self.original.len(),
        }
    }

    /// The end of the original line (before its line break) that holds a
    /// byte of the clean text, and the quoting in front of that line.
    pub fn original_line_end(&self, offset: usize) -> (usize, &str) {
        let Some(map) = self.lines.get(self.line_index(offset)) else {
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
        let Some(map) = self.lines.get(self.line_index(span.start)) else {
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
        (map.line, line, start..end)
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
    fn nul_bytes_are_binary() {
        let err = Source::new(b"[Game \"x\"]\0").unwrap_err();
        assert!(err.message.contains("binary"));
    }
}
