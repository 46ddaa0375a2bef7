//! Problems as players read them (rustc-style, with the offending text
//! underlined) and as programs read them (JSON), and the exit codes.

use std::process::ExitCode;

use annotate_snippets::{Level, Renderer, Snippet};
use serde::Serialize;

use crate::record::{InputError, ParseError, Position, Source, Span};
use crate::referee::{ErrorKind, RefereeError};

/// How herald ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Exit {
    /// All is well.
    Ok = 0,
    /// An illegal or invalid game (or turn).
    Invalid = 1,
    /// Bad usage or an I/O error.
    Usage = 2,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// A problem with a record, located.
#[derive(Clone, Debug)]
pub struct Problem {
    /// parse, illegal or record.
    pub kind: ErrorKind,
    /// The full message.
    pub message: String,
    /// Turn number, if a turn line is at fault.
    pub turn: Option<u32>,
    /// Set-up line number (`S2`: 2), if a set-up line is at fault.
    pub setup_line: Option<u32>,
    /// Side of that turn.
    pub side: Option<String>,
    /// Action text, if an action is at fault.
    pub action: Option<String>,
    /// Where in the original input.
    pub position: Option<Position>,
    /// The original line and the byte range to underline in it.
    pub underline: Option<(String, std::ops::Range<usize>)>,
    /// A note under the error (how the line at fault was quoted).
    pub note: Option<String>,
}

/// The JSON form of a problem (schema in docs/cli.md).
#[derive(Serialize, Debug)]
pub struct JsonError {
    kind: &'static str,
    turn: Option<u32>,
    setup_line: Option<u32>,
    side: Option<String>,
    action: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// The most of a line an error shows.
const MAX_SHOWN: usize = 160;

/// A long line cut to a window around the underline, marked `...` where it
/// was cut (a 6 MB line is not echoed whole).
fn window(shown: String, range: std::ops::Range<usize>) -> (String, std::ops::Range<usize>) {
    if shown.len() <= MAX_SHOWN {
        return (shown, range);
    }
    let mut from = range.start.min(shown.len()).saturating_sub(40);
    while !shown.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (from + MAX_SHOWN).min(shown.len());
    while !shown.is_char_boundary(to) {
        to += 1;
    }
    let prefix = if from > 0 { "..." } else { "" };
    let suffix = if to < shown.len() { "..." } else { "" };
    let cut = format!("{prefix}{}{suffix}", &shown[from..to]);
    let start = range.start.clamp(from, to) - from + prefix.len();
    let mut end = (range.end.clamp(from, to) - from + prefix.len()).max(start + 1);
    while end < cut.len() && !cut.is_char_boundary(end) {
        end += 1;
    }
    let end = end.min(cut.len());
    (cut, start..end)
}

impl JsonError {
    /// A usage or I/O error (kind `usage`): nothing about a game.
    pub fn usage(message: &str) -> Self {
        JsonError {
            kind: "usage",
            turn: None,
            setup_line: None,
            side: None,
            action: None,
            line: None,
            column: None,
            message: message.to_owned(),
            note: None,
        }
    }
}

impl Problem {
    /// Locate a referee error in its source.
    pub fn from_referee(e: &RefereeError, source: &Source) -> Self {
        let mut p = Problem {
            kind: e.kind,
            message: e.message.clone(),
            turn: e.turn,
            setup_line: e.setup_line,
            side: e.side.clone(),
            action: e.action.clone(),
            position: None,
            underline: None,
            note: None,
        };
        if let Some(span) = e.span {
            p.locate(span, source);
        }
        p
    }

    /// Locate a record parse error.
    pub fn from_parse(e: &ParseError, source: &Source) -> Self {
        let mut p = Problem::plain(ErrorKind::Parse, e.message.clone());
        p.turn = e.turn;
        p.setup_line = e.setup_line;
        p.side = e.side.clone();
        p.locate(e.span, source);
        p
    }

    /// Input that is not a record's text at all.
    pub fn from_input(e: &InputError) -> Self {
        let mut p = Problem::plain(ErrorKind::Parse, e.message.clone());
        p.position = Some(e.position);
        p
    }

    /// A problem without a place.
    pub fn plain(kind: ErrorKind, message: String) -> Self {
        Problem {
            kind,
            message,
            turn: None,
            setup_line: None,
            side: None,
            action: None,
            position: None,
            underline: None,
            note: None,
        }
    }

    fn locate(&mut self, span: Span, source: &Source) {
        self.position = Some(source.position(span.start));
        self.note = source.quote_note(span.start);
        let (_, line, range) = source.line_of(span);
        // Tabs and other control characters become spaces of the same
        // byte length, so that the underline stays in place (the renderer
        // widens tabs) and the renderer never sees them (form feeds made
        // it panic: found by fuzzing).
        let shown: String = line
            .chars()
            .map(|c| {
                if c.is_control() {
                    " ".repeat(c.len_utf8())
                } else {
                    c.to_string()
                }
            })
            .collect();
        // An underline that starts in the line's leading white space makes
        // the renderer's margin arithmetic overflow (found by fuzzing): show
        // the line from its first visible character then.
        let lead = shown.len() - shown.trim_start().len();
        let (shown, range) = if range.start < lead {
            let rest = shown[lead..].to_owned();
            let mut end = range.end.saturating_sub(lead).max(1).min(rest.len());
            while !rest.is_char_boundary(end) {
                end += 1;
            }
            (rest, 0..end)
        } else {
            (shown, range)
        };
        let (shown, range) = window(shown, range);
        self.underline = Some((shown, range));
    }

    /// The line at fault as a player names it: `turn 12` or `set-up line
    /// S2`.
    pub fn line_label(&self) -> Option<String> {
        match (self.turn, self.setup_line) {
            (Some(t), _) => Some(format!("turn {t}")),
            (None, Some(s)) => Some(format!("set-up line S{s}")),
            (None, None) => None,
        }
    }

    /// The JSON form.
    pub fn json(&self) -> JsonError {
        JsonError {
            kind: self.kind.as_str(),
            turn: self.turn,
            setup_line: self.setup_line,
            side: self.side.clone(),
            action: self.action.clone(),
            line: self.position.map(|p| p.line),
            column: self.position.map(|p| p.column),
            message: self.message.clone(),
            note: self.note.clone(),
        }
    }

    /// rustc-style text, with the offending text underlined.
    pub fn render(&self, origin: &str) -> String {
        let title = match (self.line_label(), &self.side) {
            (Some(l), Some(s)) => format!("{l} ({s}): {}", self.message),
            _ => self.message.clone(),
        };
        let renderer = Renderer::styled();
        let label = self
            .action
            .as_deref()
            .and_then(|a| self.message.strip_prefix(a))
            .map(|r| r.trim_start_matches(':').trim())
            .unwrap_or("");
        match (&self.underline, self.position) {
            (Some((line, range)), Some(pos)) => {
                // The place is written here, not by the renderer: it would
                // count the column in the line as shown, which may be cut
                // (a long line) or shifted (email quoting, leading blanks).
                let snippet = Snippet::source(line)
                    .line_start(pos.line)
                    .annotation(Level::Error.span(range.clone()).label(label));
                let mut msg = Level::Error
                    .title(&title)
                    .id(self.kind.as_str())
                    .snippet(snippet);
                if let Some(note) = &self.note {
                    msg = msg.footer(Level::Note.title(note));
                }
                let rendered = renderer.render(msg).to_string();
                let pad = " ".repeat(pos.line.to_string().len());
                let place = format!("{pad}--> {origin}:{}:{}", pos.line, pos.column);
                match rendered.split_once('\n') {
                    Some((head, body)) => format!("{head}\n{place}\n{body}"),
                    None => format!("{rendered}\n{place}"),
                }
            }
            (_, Some(pos)) => {
                let msg = Level::Error.title(&title).id(self.kind.as_str());
                format!(
                    "{}\n  --> {origin}:{}:{}",
                    renderer.render(msg),
                    pos.line,
                    pos.column
                )
            }
            _ => {
                let msg = Level::Error.title(&title).id(self.kind.as_str());
                format!("{}\n  --> {origin}", renderer.render(msg))
            }
        }
    }
}

/// A failure of a command: what to say and how to exit.
#[derive(Debug)]
pub enum Failure {
    /// Usage or I/O: exit 2.
    Usage(String),
    /// A bad record or turn: exit 1.
    Invalid(Box<Problem>, String),
}

impl Failure {
    /// A usage or I/O failure.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure::Usage(message.into())
    }

    /// An invalid record at `origin`.
    pub fn invalid(problem: Problem, origin: &str) -> Self {
        Failure::Invalid(Box::new(problem), origin.to_owned())
    }

    /// The exit code.
    pub fn exit(&self) -> Exit {
        match self {
            Failure::Usage(_) => Exit::Usage,
            Failure::Invalid(..) => Exit::Invalid,
        }
    }

    /// What went wrong as plain text (no colour), to be said inside
    /// another message or listed: the usage message, or the problem as
    /// rendered for its origin.
    pub fn text(&self) -> String {
        match self {
            Failure::Usage(m) => m.clone(),
            Failure::Invalid(p, origin) => {
                anstream::adapter::strip_str(&p.render(origin)).to_string()
            }
        }
    }
}

/// Print a note to standard error, rustc-style (`note: ...`).
pub fn eprint_note(message: &str) {
    let renderer = Renderer::styled();
    let msg = Level::Note.title(message);
    let _ = anstream_write(&format!("{}\n", renderer.render(msg)));
}

/// Print a warning to standard error, rustc-style, with the command that
/// mends it (`= help: ...`).
pub fn eprint_warning(message: &str, help: &str) {
    let renderer = Renderer::styled();
    let msg = Level::Warning
        .title(message)
        .footer(Level::Help.title(help));
    let _ = anstream_write(&format!("{}\n", renderer.render(msg)));
}

/// Print an error to standard error, rustc-style.
pub fn eprint_usage(message: &str) {
    let renderer = Renderer::styled();
    let msg = Level::Error.title(message);
    let _ = anstream_write(&format!("{}\n", renderer.render(msg)));
}

fn anstream_write(s: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut err = anstream::stderr();
    err.write_all(s.as_bytes())
}

/// Print a rendered problem to standard error.
pub fn eprint_problem(problem: &Problem, origin: &str) {
    let _ = anstream_write(&format!("{}\n", problem.render(origin)));
}
