//! What the engines' action parsers share: skipping white space, the word
//! an error underlines, and a reader that turns a rest of the text into
//! an [`ActionParseError`] placed in the whole action.

use nom::character::complete::multispace0;
use nom::IResult;

use crate::game::ActionParseError;

/// `i` without its leading white space.
pub fn ws(i: &str) -> &str {
    let r: IResult<&str, &str> = multispace0(i);
    r.map_or(i, |(rest, _)| rest)
}

/// Byte length of the word starting `rest`: up to white space or
/// punctuation, and at least one character when `rest` is not empty.
pub fn word_len(rest: &str) -> usize {
    let n: usize = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && !c.is_ascii_punctuation())
        .map(char::len_utf8)
        .sum();
    if n == 0 {
        rest.chars().next().map_or(0, char::len_utf8)
    } else {
        n
    }
}

/// One action's text, for placing errors in it.
#[derive(Clone, Copy, Debug)]
pub struct Reader<'t> {
    text: &'t str,
}

impl<'t> Reader<'t> {
    /// A reader of `text`.
    pub fn new(text: &'t str) -> Self {
        Reader { text }
    }

    /// The whole text.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// The byte offset of `rest`, a suffix of the text.
    pub fn off(&self, rest: &str) -> usize {
        self.text.len() - rest.len()
    }

    /// An error over the word at the start of `rest` (or over the last
    /// character of the text when `rest` is empty: something is missing
    /// at the end).
    pub fn err(&self, rest: &str, reason: impl Into<String>) -> ActionParseError {
        if rest.is_empty() {
            let last = self.text.chars().next_back().map_or(0, char::len_utf8);
            ActionParseError::new(self.text.len() - last, last, reason)
        } else {
            ActionParseError::new(self.off(rest), word_len(rest), reason)
        }
    }

    /// An error from the start of `from` to the start of `to` (both
    /// suffixes of the text, `to` the shorter).
    pub fn err_between(&self, from: &str, to: &str, reason: impl Into<String>) -> ActionParseError {
        ActionParseError::new(self.off(from), self.off(to) - self.off(from), reason)
    }
}
