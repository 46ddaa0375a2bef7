//! A record's text changed where it stands: a line added after its last
//! line, tags added to its header, its Result tag set. The text around
//! the record (a mail's quoting, its line ends, what was written before
//! and after it) is kept as it was; or, for a new message or a clean
//! file, the record's own text alone is given with the same changes.

use super::write::write_tags;
use super::{Record, Source, Span};

/// The name of the tag that holds a game's result.
pub const RESULT_TAG: &str = "Result";

/// Changes to make to a record's text: made with [`Splice::new`] and the
/// changes wanted, then applied with [`Splice::in_place`] (the text as
/// read, for rewriting a file) or [`Splice::extracted`] (the record
/// alone).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Splice<'c> {
    line: Option<&'c str>,
    tags: Vec<(&'c str, &'c str)>,
    result: Option<&'c str>,
}

/// One change, in the clean text's offsets.
enum Edit {
    /// Tag lines (each ended) to put after the line holding `anchor`.
    Tags { anchor: usize, lines: String },
    /// A line of the log (its lines each ended) to put after the
    /// record's last line, the one holding `anchor`.
    Line {
        anchor: usize,
        lines: String,
        blank: Blank,
    },
    /// Text to put in place of a span.
    Replace { span: Span, text: String },
}

/// Whether an insertion starts with a blank line (the log's first line
/// stands apart from the header).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Blank {
    Before,
    None,
}

impl<'c> Splice<'c> {
    /// No change yet.
    pub fn new() -> Self {
        Splice::default()
    }

    /// Add `line`, a line as [`write_turn`](super::write_turn) writes it
    /// (each of its lines ended), after the record's last line; after its
    /// header, a blank line between, when the log is empty.
    pub fn line(mut self, line: &'c str) -> Self {
        self.line = Some(line);
        self
    }

    /// Add these tags to the header, after its last tag but the Result
    /// tag (which stays last).
    pub fn tags(mut self, tags: &[(&'c str, &'c str)]) -> Self {
        self.tags.extend_from_slice(tags);
        self
    }

    /// Set the Result tag's value to `result`, if given (the game's
    /// result once it is over); `None` leaves the tag as it is.
    pub fn result(mut self, result: Option<&'c str>) -> Self {
        self.result = result;
        self
    }

    /// The changes as edits of `record`'s clean text.
    fn edits(&self, record: &Record<'_>) -> Vec<Edit> {
        let mut edits = Vec::new();
        if !self.tags.is_empty() {
            let anchor = record
                .tags
                .iter()
                .rev()
                .find(|t| !t.name.eq_ignore_ascii_case(RESULT_TAG))
                .or(record.tags.last())
                .map_or(0, |t| t.span.end - 1);
            let mut lines = String::new();
            write_tags(self.tags.iter().copied(), &mut lines);
            edits.push(Edit::Tags { anchor, lines });
        }
        if let Some(line) = self.line {
            let (anchor, blank) = match record.turns.last() {
                Some(last) => (last.lines_end, Blank::None),
                None => (
                    record.tags.last().map_or(0, |t| t.span.end - 1),
                    Blank::Before,
                ),
            };
            edits.push(Edit::Line {
                anchor,
                lines: line.to_owned(),
                blank,
            });
        }
        if let (Some(result), Some(tag)) = (self.result, record.tag(RESULT_TAG)) {
            edits.push(Edit::Replace {
                span: tag.value_span,
                text: result.to_owned(),
            });
        }
        edits
    }

    /// The text `source` was read from, with the changes made to
    /// `record` (read from it) where it stands: added lines take the
    /// quoting of the line they follow and the text's line ends (CRLF if
    /// it has any); everything else is kept byte for byte. The text ends
    /// with a line end.
    pub fn in_place(&self, source: &Source, record: &Record<'_>) -> String {
        let original = source.original();
        let nl = if original.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        let after = |anchor: usize, lines: &str, blank: Blank| {
            let (at, prefix) = source.original_line_end(anchor);
            (at, at, insertion(lines, blank, nl, prefix))
        };
        let mut changes: Vec<(usize, usize, String)> = self
            .edits(record)
            .into_iter()
            .map(|edit| match edit {
                Edit::Tags { anchor, lines } => after(anchor, &lines, Blank::None),
                Edit::Line {
                    anchor,
                    lines,
                    blank,
                } => after(anchor, &lines, blank),
                Edit::Replace { span, text } => (
                    source.original_offset(span.start),
                    source.original_offset(span.end),
                    text,
                ),
            })
            .collect();
        let mut text = original.to_owned();
        apply(&mut text, &mut changes);
        if !text.ends_with('\n') {
            text.push_str(nl);
        }
        text
    }

    /// The record's own text, as clean as it reads (from its first tag to
    /// the end of its last line; quoting, text around it and mail
    /// decoding gone, trailing white space dropped, `\n` line ends), with
    /// the changes made: an added line ends it.
    pub fn extracted(&self, source: &Source, record: &Record<'_>) -> String {
        let clean = source.text();
        let start = record.tags.first().map_or(0, |t| t.span.start);
        let end = record
            .turns
            .last()
            .map_or(record.header_end, |t| t.lines_end)
            .min(clean.len())
            .max(start);
        let mut text = clean
            .get(start..end)
            .unwrap_or_default()
            .trim_end()
            .to_owned();
        let mut changes: Vec<(usize, usize, String)> = Vec::new();
        for edit in self.edits(record) {
            match edit {
                Edit::Tags { anchor, lines } => {
                    let from = anchor.saturating_sub(start).min(text.len());
                    let at = text[from..].find('\n').map_or(text.len(), |k| from + k);
                    changes.push((at, at, insertion(&lines, Blank::None, "\n", "")));
                }
                Edit::Line { lines, blank, .. } => {
                    let at = text.len();
                    changes.push((at, at, insertion(&lines, blank, "\n", "")));
                }
                Edit::Replace { span, text: value } => {
                    let a = span.start.saturating_sub(start);
                    let b = span.end.saturating_sub(start);
                    if b <= text.len() && text.is_char_boundary(a) && text.is_char_boundary(b) {
                        changes.push((a, b, value));
                    }
                }
            }
        }
        apply(&mut text, &mut changes);
        let mut out = String::with_capacity(text.len() + 1);
        for line in text.lines() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// `lines` as inserted at the end of a line: each after a line end `nl`
/// and the quoting `prefix`; a blank line (quoted) before them when asked.
fn insertion(lines: &str, blank: Blank, nl: &str, prefix: &str) -> String {
    let mut insert = String::with_capacity(lines.len() + 8);
    if blank == Blank::Before {
        insert.push_str(nl);
        insert.push_str(prefix.trim_end());
    }
    for line in lines.lines() {
        insert.push_str(nl);
        insert.push_str(prefix);
        insert.push_str(line);
    }
    insert
}

/// Make `changes` (`from..to` replaced by the text) to `text`, the last
/// in the text first so that the offsets of the others stay true; of two
/// insertions at one place, the one given first comes first.
fn apply(text: &mut String, changes: &mut [(usize, usize, String)]) {
    let mut order: Vec<usize> = (0..changes.len()).collect();
    order.sort_by(|&a, &b| {
        let (a_at, b_at) = ((changes[a].0, changes[a].1), (changes[b].0, changes[b].1));
        b_at.cmp(&a_at).then(b.cmp(&a))
    });
    for k in order {
        let (from, to, insert) = &changes[k];
        text.replace_range(*from..*to, insert);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse;

    /// `changes` made to the record in `text` in place, and extracted.
    fn spliced(text: &str, changes: &Splice<'_>) -> (String, String) {
        let source = Source::new(text.as_bytes()).unwrap();
        let record = parse(&source).unwrap();
        (
            changes.in_place(&source, &record),
            changes.extracted(&source, &record),
        )
    }

    const HEADER: &str = "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n[Red \"bob@example.org\"]\n[Result \"*\"]\n";

    #[test]
    fn a_line_goes_after_the_last_line_in_the_texts_crlf_line_ends() {
        let text = "[Game \"castle-danger\"]\r\n[Result \"*\"]\r\n\r\n1. Blue: Kc1-b1\r\n";
        let line = "2. Red: Kc9-b9\n    reveal 00\n";
        let (in_place, extracted) = spliced(text, &Splice::new().line(line));
        assert_eq!(
            in_place,
            "[Game \"castle-danger\"]\r\n[Result \"*\"]\r\n\r\n1. Blue: Kc1-b1\r\n2. Red: Kc9-b9\r\n    reveal 00\r\n"
        );
        // The record alone has `\n` line ends.
        assert_eq!(
            extracted,
            "[Game \"castle-danger\"]\n[Result \"*\"]\n\n1. Blue: Kc1-b1\n2. Red: Kc9-b9\n    reveal 00\n"
        );
    }

    #[test]
    fn a_line_goes_after_a_last_line_without_a_line_end() {
        let text = format!("{HEADER}\n1. Blue: Kc1-b1");
        let (in_place, _) = spliced(&text, &Splice::new().line("2. Red: Kc9-b9\n"));
        assert_eq!(
            in_place,
            format!("{HEADER}\n1. Blue: Kc1-b1\n2. Red: Kc9-b9\n")
        );
    }

    #[test]
    fn the_mail_around_a_quoted_record_stays_and_the_line_is_quoted_as_its_last() {
        let text = "Hi Bob,\n\n> [Game \"castle-danger\"]\n> [Result \"*\"]\n>\n> 1. Blue: Kc1-b1\n> {a comment}\n\nYour move.\n-- \nAnn\n";
        let changes = Splice::new().line("2. Red: resign\n").result(Some("Blue"));
        let (in_place, extracted) = spliced(text, &changes);
        assert_eq!(
            in_place,
            "Hi Bob,\n\n> [Game \"castle-danger\"]\n> [Result \"Blue\"]\n>\n> 1. Blue: Kc1-b1\n> {a comment}\n> 2. Red: resign\n\nYour move.\n-- \nAnn\n"
        );
        assert_eq!(
            extracted,
            "[Game \"castle-danger\"]\n[Result \"Blue\"]\n\n1. Blue: Kc1-b1\n{a comment}\n2. Red: resign\n"
        );
    }

    #[test]
    fn the_first_line_stands_after_the_header_and_a_blank_line() {
        let text = "> [Game \"castle-danger\"]\n> [Result \"*\"]\n\nthanks\n";
        let (in_place, extracted) = spliced(text, &Splice::new().line("1. Blue: Kc1-b1\n"));
        assert_eq!(
            in_place,
            "> [Game \"castle-danger\"]\n> [Result \"*\"]\n>\n> 1. Blue: Kc1-b1\n\nthanks\n"
        );
        assert_eq!(
            extracted,
            "[Game \"castle-danger\"]\n[Result \"*\"]\n\n1. Blue: Kc1-b1\n"
        );
    }

    #[test]
    fn the_result_tag_is_set_once_the_game_ends_and_left_while_it_runs() {
        let text = format!("{HEADER}\n1. Blue: Kc1-b1\n");
        let (running, _) = spliced(&text, &Splice::new().line("2. Red: Kc9-b9\n").result(None));
        assert_eq!(running, format!("{text}2. Red: Kc9-b9\n"));
        let (over, _) = spliced(
            &text,
            &Splice::new().line("2. Red: resign\n").result(Some("Blue")),
        );
        assert_eq!(
            over,
            "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n[Red \"bob@example.org\"]\n[Result \"Blue\"]\n\n1. Blue: Kc1-b1\n2. Red: resign\n"
        );
    }

    #[test]
    fn tags_go_after_the_last_tag_but_result_quoted_as_it_is() {
        let text = "Re: our game\n\n> [Game \"castle-danger\"]\r\n> [Blue \"ann@example.org\"]\r\n> [Result \"*\"]\r\n";
        let changes = Splice::new().tags(&[("BlueCommit", "ab"), ("BlueKey", "cd")]);
        let (in_place, extracted) = spliced(text, &changes);
        assert_eq!(
            in_place,
            "Re: our game\n\n> [Game \"castle-danger\"]\r\n> [Blue \"ann@example.org\"]\r\n> [BlueCommit \"ab\"]\r\n> [BlueKey \"cd\"]\r\n> [Result \"*\"]\r\n"
        );
        assert_eq!(
            extracted,
            "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n[BlueCommit \"ab\"]\n[BlueKey \"cd\"]\n[Result \"*\"]\n"
        );
    }

    #[test]
    fn tags_and_a_first_line_at_one_place_stay_in_order() {
        // No Result tag: the tags and the first line both follow [Game].
        let text = "[Game \"castle-danger\"]\n";
        let changes = Splice::new()
            .tags(&[("Blue", "ann@example.org")])
            .line("1. Blue: Kc1-b1\n");
        let (in_place, extracted) = spliced(text, &changes);
        let want = "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n\n1. Blue: Kc1-b1\n";
        assert_eq!(in_place, want);
        assert_eq!(extracted, want);
    }

    #[test]
    fn nothing_asked_extracts_the_record_alone() {
        let text = format!("Hi,\n\n{HEADER}\n1. Blue: Kc1-b1   \n\nbye\n");
        let (_, extracted) = spliced(&text, &Splice::new());
        assert_eq!(extracted, format!("{HEADER}\n1. Blue: Kc1-b1\n"));
    }
}
