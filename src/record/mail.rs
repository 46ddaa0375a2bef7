//! Email as players receive it: a raw RFC 5322 message (an `.eml` file, or
//! a message piped from a mail client) decoded with `mailparse` into the
//! texts a record may stand in, and mailboxes (mbox) split into messages.
//! Pure: bytes in, texts out; the command line reads the files.
//!
//! What is decoded (docs/record.md, section 2): quoted-printable and
//! base64 bodies, every charset `mailparse` knows (bytes that do not fit
//! the charset become U+FFFD rather than refusing the message),
//! multipart messages (text/plain parts and attachments first, HTML read
//! through its text only when no other part holds a record), and
//! `format=flowed` (RFC 3676: soft line breaks joined, space-stuffing
//! removed).

use mailparse::{MailHeaderMap, ParsedMail};

use super::source::{InputError, MAX_INPUT};

/// Header names that mark the start of a raw message (one of them must be
/// in the header block).
const KNOWN_HEADERS: [&str; 12] = [
    "from",
    "to",
    "cc",
    "subject",
    "date",
    "message-id",
    "mime-version",
    "content-type",
    "received",
    "return-path",
    "delivered-to",
    "in-reply-to",
];

/// Most parts of a message looked into.
const MAX_PARTS: usize = 200;

/// A text of a message that a record may stand in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Body {
    /// The text, decoded.
    pub text: String,
    /// How the text was got from the message, when it is not a stretch
    /// of the message as given (e.g. `part 1.1, text/plain,
    /// quoted-printable, decoded`); positions are then in this text.
    pub part: Option<String>,
    /// Lines of the input before the text, when the text stands in the
    /// input as given (its positions are the input's).
    pub line_offset: usize,
    /// Read only if no other body holds a record (an HTML part).
    pub fallback: bool,
}

/// What a reply needs of the message it answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Envelope {
    /// `From:`.
    pub from: Option<String>,
    /// `Subject:`.
    pub subject: Option<String>,
    /// `Message-ID:`, with its angle brackets.
    pub message_id: Option<String>,
    /// `References:` as given.
    pub references: Option<String>,
    /// `Date:` as given.
    pub date: Option<String>,
}

/// Whether `input` starts with the header block of a message: lines
/// `Name: value` (folded lines allowed), one of them a header every
/// message has (From, To, Subject, Date, ...), then a blank line.
pub fn is_message(input: &[u8]) -> bool {
    let mut known = false;
    for (i, line) in input.split(|b| *b == b'\n').enumerate().take(1000) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            return known;
        }
        if line[0] == b' ' || line[0] == b'\t' {
            if i == 0 {
                return false;
            }
            continue;
        }
        let Some(colon) = line.iter().position(|b| *b == b':') else {
            return false;
        };
        let name = &line[..colon];
        if name.is_empty() || !name.iter().all(|b| b.is_ascii_graphic()) {
            return false;
        }
        known |= KNOWN_HEADERS
            .iter()
            .any(|k| k.as_bytes().eq_ignore_ascii_case(name));
    }
    false
}

/// Whether `input` is an mbox file: it starts with a `From ` line.
pub fn is_mbox(input: &[u8]) -> bool {
    input.starts_with(b"From ") && input.contains(&b'\n')
}

/// The messages of an mbox file, each with the number of lines before it
/// (its `From ` line skipped). A message starts at a `From ` line that
/// follows a blank line (or starts the file).
pub fn split_mbox(input: &[u8]) -> Vec<(usize, &[u8])> {
    let mut messages = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut at = 0;
    let mut blank_before = true;
    for (index, line) in input.split_inclusive(|b| *b == b'\n').enumerate() {
        let content = line.trim_ascii_end();
        if blank_before && line.starts_with(b"From ") {
            if let Some((line_no, from)) = start.take() {
                messages.push((line_no, &input[from..at]));
            }
            start = Some((index + 1, at + line.len()));
        }
        blank_before = content.is_empty();
        at += line.len();
    }
    if let Some((line_no, from)) = start {
        messages.push((line_no, &input[from..]));
    }
    messages
}

/// The headers of a reply: who sent the message, its subject and its
/// thread. `None` when `input` is no message.
pub fn envelope(input: &[u8]) -> Option<Envelope> {
    if !is_message(input) {
        return None;
    }
    let (headers, _) = mailparse::parse_headers(input).ok()?;
    let get = |name: &str| {
        headers
            .get_first_value(name)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    Some(Envelope {
        from: get("Reply-To").or_else(|| get("From")),
        subject: get("Subject"),
        message_id: get("Message-ID"),
        references: get("References"),
        date: get("Date"),
    })
}

/// The headers of the message a record was read from ([`envelope`]):
/// the input's own when it is a message, the `message`-th (from 1) of an
/// mbox file ([`split_mbox`]; `None` there: no message named, none).
pub fn envelope_of(input: &[u8], message: Option<usize>) -> Option<Envelope> {
    if is_mbox(input) {
        let messages = split_mbox(input);
        let (_, bytes) = messages.get(message?.checked_sub(1)?)?;
        return envelope(bytes);
    }
    envelope(input)
}

/// The texts of a raw message that a record may stand in, in the order
/// they are read: text parts and attachments, then HTML parts (marked
/// `fallback`). An error when the message cannot be read at all.
pub fn bodies(input: &[u8]) -> Result<Vec<Body>, InputError> {
    if input.len() > MAX_INPUT {
        return Err(InputError::at_start(format!(
            "the input is larger than {} MiB: not a game record",
            MAX_INPUT / (1024 * 1024)
        )));
    }
    let mail = mailparse::parse_mail(input).map_err(|e| {
        InputError::at_start(format!(
            "this looks like an email message, but it cannot be read: {e}"
        ))
    })?;
    let mut found = Vec::new();
    let mut seen = 0;
    collect(input, &mail, &mut Vec::new(), &mut found, &mut seen);
    found.sort_by_key(|b| b.fallback);
    Ok(found)
}

/// Walk the parts of `mail` depth first, adding their texts to `found`.
fn collect(
    input: &[u8],
    mail: &ParsedMail<'_>,
    path: &mut Vec<usize>,
    found: &mut Vec<Body>,
    seen: &mut usize,
) {
    *seen += 1;
    if *seen > MAX_PARTS {
        return;
    }
    if mail.ctype.mimetype.starts_with("multipart/") {
        let alternative = mail.ctype.mimetype == "multipart/alternative";
        let has_plain = mail
            .subparts
            .iter()
            .any(|p| p.ctype.mimetype == "text/plain");
        for (k, part) in mail.subparts.iter().enumerate() {
            // Of alternatives, the plain text is read, not its HTML twin.
            if alternative && has_plain && part.ctype.mimetype == "text/html" {
                continue;
            }
            path.push(k + 1);
            collect(input, part, path, found, seen);
            path.pop();
        }
        return;
    }
    if let Some(body) = part_body(input, mail, path) {
        found.push(body);
    }
}

/// How a part is named in messages: `part 1.2, text/plain, base64`.
fn part_name(mail: &ParsedMail<'_>, path: &[usize], encoding: &str) -> String {
    let number = if path.is_empty() {
        "the body".to_owned()
    } else {
        let n: Vec<String> = path.iter().map(usize::to_string).collect();
        format!("part {}", n.join("."))
    };
    let file = mail
        .get_content_disposition()
        .params
        .get("filename")
        .or_else(|| mail.ctype.params.get("name"))
        .map(|f| format!(", {f}"))
        .unwrap_or_default();
    format!("{number}{file}, {}, {encoding}", mail.ctype.mimetype)
}

/// The text of one leaf part, if it may hold a record.
fn part_body(input: &[u8], mail: &ParsedMail<'_>, path: &[usize]) -> Option<Body> {
    let mime = mail.ctype.mimetype.as_str();
    let attachment = mail
        .get_content_disposition()
        .params
        .contains_key("filename")
        || mail.ctype.params.contains_key("name");
    let html = mime == "text/html";
    let readable = mime.starts_with("text/") || (attachment && !mime.starts_with("image/"));
    if !readable {
        return None;
    }
    let encoding = mail
        .headers
        .get_first_value("Content-Transfer-Encoding")
        .map(|e| e.trim().to_ascii_lowercase())
        .unwrap_or_else(|| "7bit".into());
    let name = part_name(mail, path, &encoding);
    let (mut text, mut part, line_offset) = match encoding.as_str() {
        "base64" | "quoted-printable" => {
            (mail.get_body().ok()?, Some(format!("{name}, decoded")), 0)
        }
        _ => as_given(input, mail, &name)?,
    };
    let flowed = mail
        .ctype
        .params
        .get("format")
        .is_some_and(|f| f.eq_ignore_ascii_case("flowed"));
    if flowed {
        let delsp = mail
            .ctype
            .params
            .get("delsp")
            .is_some_and(|d| d.eq_ignore_ascii_case("yes"));
        let joined = unflow(&text, delsp);
        if joined != text {
            text = joined;
            part = Some(format!("{name}, format=flowed joined"));
        }
    }
    if html {
        text = html_text(&text);
        part = Some(format!("{name}, HTML read as text"));
    }
    Some(Body {
        text,
        line_offset: if part.is_none() { line_offset } else { 0 },
        part,
        fallback: html,
    })
}

/// A 7bit, 8bit or binary part: its text as it stands in the input (UTF-8
/// kept as it is; another charset decoded, which keeps every line and
/// column), and the lines of the input before it.
fn as_given(
    input: &[u8],
    mail: &ParsedMail<'_>,
    name: &str,
) -> Option<(String, Option<String>, usize)> {
    let raw = match mail.get_body_encoded() {
        mailparse::body::Body::SevenBit(b) | mailparse::body::Body::EightBit(b) => b.get_raw(),
        mailparse::body::Body::Binary(b) => b.get_raw(),
        _ => return None,
    };
    let text = match std::str::from_utf8(raw) {
        Ok(s) => s.to_owned(),
        Err(_) => mail.get_body().ok()?,
    };
    let start = (raw.as_ptr() as usize).checked_sub(input.as_ptr() as usize);
    match start.filter(|s| s + raw.len() <= input.len()) {
        Some(start) => {
            let lines = input[..start].iter().filter(|b| **b == b'\n').count();
            Some((text, None, lines))
        }
        None => Some((text, Some(name.to_owned()), 0)),
    }
}

/// RFC 3676 `format=flowed`: a line ending in a space continues on the
/// next (the space dropped too with `DelSp=yes`); a space in front of a
/// line (space-stuffing) is removed; quote marks stay in front of the
/// joined line.
pub fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open: Option<usize> = None; // quote depth of a flowed line
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let depth = line.bytes().take_while(|b| *b == b'>').count();
        let mut content = &line[depth..];
        if let Some(rest) = content.strip_prefix(' ') {
            content = rest; // space-stuffing
        }
        let continues = open == Some(depth);
        if !continues {
            if open.is_some() {
                out.push('\n');
            }
            if depth > 0 {
                out.push_str(&"> ".repeat(depth));
            }
        }
        let soft = content.ends_with(' ') && content != "-- ";
        if soft {
            out.push_str(if delsp {
                &content[..content.len() - 1]
            } else {
                content
            });
            open = Some(depth);
        } else {
            out.push_str(content);
            out.push('\n');
            open = None;
        }
    }
    if open.is_some() {
        out.push('\n');
    }
    if out.ends_with('\n') && !text.ends_with('\n') {
        out.pop();
    }
    out
}

/// The text an HTML part shows: tags dropped, line breaks where blocks
/// and `<br>` end lines, `<blockquote>` as `> ` quoting, entities
/// resolved, white space collapsed as a browser does (but in `<pre>`).
pub fn html_text(html: &str) -> String {
    let mut out = Html {
        line_empty: true,
        ..Html::default()
    };
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.text(&rest[..lt]);
        let after = &rest[lt + 1..];
        let Some(gt) = after.find('>') else {
            rest = "";
            break;
        };
        let tag = &after[..gt];
        rest = &after[gt + 1..];
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if name == "style" || name == "script" || name == "head" {
            if !tag.starts_with('/') && !tag.ends_with('/') {
                rest = closing_tag(rest, &name).map_or("", |k| &rest[k..]);
            }
            continue;
        }
        out.tag(&name, tag.starts_with('/'));
    }
    out.text(rest);
    out.out
}

/// Where `</name` starts in `html` (any case), scanning once.
fn closing_tag(html: &str, name: &str) -> Option<usize> {
    html.match_indices("</").map(|(k, _)| k).find(|&k| {
        html.as_bytes()
            .get(k + 2..k + 2 + name.len())
            .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
    })
}

/// The text of an HTML part as it is built.
#[derive(Default)]
struct Html {
    out: String,
    quote: usize,
    pre: usize,
    /// Nothing written on the current line yet.
    line_empty: bool,
    space: bool,
}

impl Html {
    fn newline(&mut self) {
        self.out.push('\n');
        self.line_empty = true;
        self.space = false;
    }

    fn tag(&mut self, name: &str, closing: bool) {
        match name {
            "br" => self.newline(),
            "blockquote" => {
                if !self.line_empty || !self.out.is_empty() {
                    self.newline();
                }
                self.quote = if closing {
                    self.quote.saturating_sub(1)
                } else {
                    self.quote + 1
                };
            }
            "pre" => {
                self.pre = if closing {
                    self.pre.saturating_sub(1)
                } else {
                    self.pre + 1
                }
            }
            "p" | "div" | "tr" | "li" | "h1" | "h2" | "h3" | "h4" | "table" if !self.line_empty => {
                self.newline()
            }
            _ => {}
        }
    }

    fn text(&mut self, raw: &str) {
        let text = entities(raw);
        for c in text.chars() {
            match c {
                '\n' if self.pre > 0 => self.newline(),
                '\r' => {}
                ' ' | '\t' | '\n' if self.pre == 0 => self.space = !self.line_empty,
                c => {
                    if self.line_empty {
                        self.out.push_str(&"> ".repeat(self.quote));
                        self.line_empty = false;
                    } else if self.space {
                        self.out.push(' ');
                    }
                    self.space = false;
                    self.out.push(c);
                }
            }
        }
    }
}

/// HTML character references resolved (`&amp;`, `&nbsp;`, `&#160;`, ...).
fn entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest[1..].find(';').map(|k| k + 1).filter(|k| *k <= 10);
        let Some(end) = end else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let name = &rest[1..end];
        let c = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some('\u{a0}'),
            _ => name.strip_prefix('#').and_then(|n| {
                let code = match n.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => n.parse().ok(),
                };
                code.and_then(char::from_u32)
            }),
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_told_from_a_record_and_from_a_pasted_body() {
        assert!(is_message(b"From: a@b\r\nSubject: x\r\n\r\nbody"));
        assert!(is_message(
            b"Received: by x\n\tfolded\nTo: a@b\n\n[Game \"x\"]\n"
        ));
        assert!(!is_message(b"[Game \"castle-danger\"]\n"));
        assert!(!is_message(b"Hi Bob,\n\n> [Game \"x\"]\n"));
        assert!(!is_message(b"Note: my move\n\n[Game \"x\"]\n"));
    }

    #[test]
    fn flowed_lines_are_joined_and_unstuffed() {
        let text = "> 1. Blue: +C, \r\n> Kc1-b1\r\n  reveal ab\r\n-- \r\nAnn\r\n";
        assert_eq!(
            unflow(text, false),
            "> 1. Blue: +C, Kc1-b1\n reveal ab\n-- \nAnn\n"
        );
        assert_eq!(unflow("a \nb\n", true), "ab\n");
    }

    #[test]
    fn html_is_read_as_its_text_with_blockquotes_as_quoting() {
        let html = "<head><style>div { margin: 0 }</STYLE></head><div>Hi&nbsp;Bob<br></div><blockquote><div>[Game &quot;x&quot;]</div><div>1. Blue: pass</div></blockquote><p>Bye</p>";
        assert_eq!(
            html_text(html),
            "Hi\u{a0}Bob\n\n> [Game \"x\"]\n> 1. Blue: pass\n\nBye\n"
        );
    }

    #[test]
    fn an_mbox_splits_at_from_lines_after_blank_lines() {
        let mbox =
            b"From a@b Mon\nSubject: 1\n\n>From me, hi\n\nFrom c@d Tue\nSubject: 2\n\nbody\n";
        let parts = split_mbox(mbox);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].0, 1);
        assert!(parts[0].1.starts_with(b"Subject: 1"));
        assert_eq!(parts[1].0, 6);
        assert_eq!(parts[1].1, b"Subject: 2\n\nbody\n");
    }
}
