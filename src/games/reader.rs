//! What the engines' action parsers share: skipping white space, the word
//! an error underlines, keywords, and a reader that turns a rest of the
//! text into an [`ActionParseError`] placed in the whole action.

use nom::error::{ErrorKind, ParseError};
use nom::IResult;

use crate::game::ActionParseError;

/// The error of the engines' nom parsers. [`Fault::NoMatch`] is nom's
/// recoverable error (`nom::Err::Error`): the parser tried does not
/// match here, and an `alt` goes on to the next. [`Fault::Placed`] comes
/// as `nom::Err::Failure`, which stops the parse: what is wrong, placed
/// in the action and said in the game's terms. Neither allocates until a
/// teaching error is made, so a canonical action is read without one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Not this form: try the next.
    NoMatch,
    /// What is wrong, placed in the action.
    Placed(ActionParseError),
}

impl<I> ParseError<I> for Fault {
    fn from_error_kind(_: I, _: ErrorKind) -> Self {
        Fault::NoMatch
    }

    fn append(_: I, _: ErrorKind, other: Self) -> Self {
        other
    }
}

/// What an engine's nom parser returns.
pub type Res<'t, T> = IResult<&'t str, T, Fault>;

/// A nom parser of `word` (ASCII, any case) standing as a whole word at
/// the start of the input ([`keyword`]); the rest after it.
pub fn kw<'t>(word: &'static str) -> impl Fn(&'t str) -> Res<'t, &'t str> {
    move |i| match keyword(i, word) {
        Some(after) => Ok((after, &i[..i.len() - after.len()])),
        None => Err(nom::Err::Error(Fault::NoMatch)),
    }
}

/// A nom parser of `word` (ASCII, any case) at the start of the input,
/// whatever follows it.
pub fn ascii_no_case<'t>(word: &'static str) -> impl Fn(&'t str) -> Res<'t, &'t str> {
    move |i| match i.get(..word.len()) {
        Some(head) if head.eq_ignore_ascii_case(word) => Ok((&i[word.len()..], head)),
        _ => Err(nom::Err::Error(Fault::NoMatch)),
    }
}

/// `i` without its leading white space: spaces, tabs, carriage returns
/// and line feeds (what nom's `multispace0` skips).
pub fn ws(i: &str) -> &str {
    let n = i
        .bytes()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        .count();
    // Only ASCII bytes were skipped: `n` is a character boundary.
    i.get(n..).unwrap_or(i)
}

/// Byte length of the word starting `rest`: up to white space or
/// punctuation, and at least one character when `rest` is not empty.
pub fn word_len(rest: &str) -> usize {
    word_len_until(rest, |c| c.is_whitespace() || c.is_ascii_punctuation())
}

/// Byte length of the word starting `rest`: up to the first character
/// `ends` says ends a word, and at least one character when `rest` is not
/// empty. (Games whose words end elsewhere than [`word_len`] says build
/// theirs on this.)
pub fn word_len_until(rest: &str, ends: impl Fn(char) -> bool) -> usize {
    let n: usize = rest
        .chars()
        .take_while(|&c| !ends(c))
        .map(char::len_utf8)
        .sum();
    if n == 0 {
        rest.chars().next().map_or(0, char::len_utf8)
    } else {
        n
    }
}

/// The rest after `word` (ASCII, any case) at the start of `rest`, when
/// it stands there as a whole word (no letter or digit follows).
pub fn keyword<'a>(rest: &'a str, word: &str) -> Option<&'a str> {
    let head = rest.as_bytes().get(..word.len())?;
    if !head.eq_ignore_ascii_case(word.as_bytes()) {
        return None;
    }
    // `word` is ASCII and matched byte for byte: its end is a boundary.
    let after = rest.get(word.len()..)?;
    (!after.starts_with(|c: char| c.is_alphanumeric())).then_some(after)
}

/// One action's text, for placing errors in it.
#[derive(Clone, Copy, Debug)]
pub struct Reader<'t> {
    text: &'t str,
    /// The byte length of the word at the start of a rest, which
    /// [`Reader::err`] underlines.
    word: fn(&str) -> usize,
}

impl<'t> Reader<'t> {
    /// A reader of `text` whose errors underline words as [`word_len`]
    /// finds them.
    pub fn new(text: &'t str) -> Self {
        Self::with_words(text, word_len)
    }

    /// A reader of `text` whose errors underline words as `word` finds
    /// them.
    pub fn with_words(text: &'t str, word: fn(&str) -> usize) -> Self {
        Reader { text, word }
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
            self.err_at_end(reason)
        } else {
            ActionParseError::new(self.off(rest), (self.word)(rest), reason)
        }
    }

    /// An error over the `len` bytes at the start of `rest` (its first
    /// character when `len` is 0; the last character of the text when
    /// `rest` is empty).
    pub fn err_over(&self, rest: &str, len: usize, reason: impl Into<String>) -> ActionParseError {
        if rest.is_empty() {
            self.err_at_end(reason)
        } else if len == 0 {
            let first = rest.chars().next().map_or(0, char::len_utf8);
            ActionParseError::new(self.off(rest), first, reason)
        } else {
            ActionParseError::new(self.off(rest), len, reason)
        }
    }

    /// An error from the start of `from` to the start of `to` (both
    /// suffixes of the text, `to` the shorter).
    pub fn err_between(&self, from: &str, to: &str, reason: impl Into<String>) -> ActionParseError {
        ActionParseError::new(self.off(from), self.off(to) - self.off(from), reason)
    }

    /// `e` as nom's failure, which stops the parse.
    pub fn fail_with(&self, e: ActionParseError) -> nom::Err<Fault> {
        nom::Err::Failure(Fault::Placed(e))
    }

    /// nom's failure over the word at the start of `rest` ([`Reader::err`]).
    pub fn fail(&self, rest: &str, reason: impl Into<String>) -> nom::Err<Fault> {
        self.fail_with(self.err(rest, reason))
    }

    /// `res`, where it does not match (nom's recoverable error), turned
    /// into the failure `reason` over the word at `rest`, where the parser
    /// started: what the grammar expected there.
    pub fn expect<T>(&self, res: Res<'t, T>, rest: &str, reason: &str) -> Res<'t, T> {
        res.map_err(|e| match e {
            nom::Err::Error(Fault::NoMatch) => self.fail(rest, reason),
            other => other,
        })
    }

    /// The value a whole parse read, or its error; `reason` when nothing
    /// matched at all.
    pub fn finish<T>(&self, res: Res<'t, T>, reason: &str) -> Result<T, ActionParseError> {
        match res {
            Ok((_, v)) => Ok(v),
            Err(nom::Err::Error(Fault::Placed(e)) | nom::Err::Failure(Fault::Placed(e))) => Err(e),
            Err(_) => Err(self.err(self.text, reason)),
        }
    }

    /// An error over the last character of the text: something is missing
    /// at its end.
    fn err_at_end(&self, reason: impl Into<String>) -> ActionParseError {
        let last = self.text.chars().next_back().map_or(0, char::len_utf8);
        ActionParseError::new(self.text.len() - last, last, reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(e: &ActionParseError) -> (usize, usize) {
        (e.offset, e.len)
    }

    #[test]
    fn an_error_underlines_the_word_its_reader_finds() {
        let text = "d3.x-d4";
        let plain = Reader::new(text);
        assert_eq!(span(&plain.err(text, "")), (0, 2));
        let dashes = Reader::with_words(text, |r| word_len_until(r, |c| c == '-'));
        assert_eq!(span(&dashes.err(text, "")), (0, 4));
        assert_eq!(span(&plain.err("", "")), (6, 1), "missing at the end");
    }

    #[test]
    fn an_error_over_a_length_covers_one_character_at_least() {
        let text = "R @ é2";
        let r = Reader::new(text);
        assert_eq!(span(&r.err_over(&text[4..], 0, "")), (4, 2));
        assert_eq!(span(&r.err_over(&text[4..], 3, "")), (4, 3));
        assert_eq!(span(&r.err_over("", 3, "")), (6, 1));
    }

    #[test]
    fn a_keyword_stands_as_a_whole_word_in_any_case() {
        assert_eq!(keyword("APART+c3", "apart"), Some("+c3"));
        assert_eq!(keyword("apart", "apart"), Some(""));
        assert_eq!(keyword("apartment", "apart"), None);
        assert_eq!(keyword("homé", "hom"), None);
        assert_eq!(keyword("ap", "apart"), None, "too short");
    }

    #[test]
    fn a_keyword_is_matched_in_ascii_only() {
        // The Kelvin sign lower-cases to `k` but is three bytes long: it
        // is not the keyword `k`, and reading it must not split it.
        assert_eq!(keyword("\u{212A}3", "k"), None);
        assert_eq!(keyword("K3", "k"), None, "a digit follows");
        assert_eq!(keyword("K 3", "k"), Some(" 3"));
    }

    #[test]
    fn the_nom_leaf_parsers_match_ascii_words_only() {
        assert_eq!(kw("apart")("APART+c3"), Ok(("+c3", "APART")));
        assert_eq!(
            kw("apart")("apartment"),
            Err(nom::Err::Error(Fault::NoMatch))
        );
        assert_eq!(kw("k")("\u{212A}3"), Err(nom::Err::Error(Fault::NoMatch)));
        assert_eq!(ascii_no_case("breach")("BREACHx"), Ok(("x", "BREACH")));
        assert_eq!(
            ascii_no_case("breach")("bre"),
            Err(nom::Err::Error(Fault::NoMatch))
        );
        // Six bytes, but the sixth is inside `é`: no match, no panic.
        assert_eq!(
            ascii_no_case("breach")("breacé"),
            Err(nom::Err::Error(Fault::NoMatch))
        );
    }

    #[test]
    fn a_form_that_does_not_match_becomes_what_was_expected_there() {
        let text = "d3 x";
        let r = Reader::new(text);
        let no_match: Res<'_, ()> = Err(nom::Err::Error(Fault::NoMatch));
        let want = ActionParseError::new(3, 1, "expected `-`");
        assert_eq!(
            r.expect(no_match, &text[3..], "expected `-`"),
            Err(nom::Err::Failure(Fault::Placed(want.clone())))
        );
        let placed: Res<'_, ()> = Err(r.fail(&text[3..], "expected `-`"));
        assert_eq!(r.finish(placed, "other"), Err(want));
        let earlier = r.fail(text, "first");
        let kept = r.expect::<()>(Err(earlier.clone()), &text[3..], "second");
        assert_eq!(kept, Err(earlier), "a failure is kept as it is");
        let nothing: Res<'_, ()> = Err(nom::Err::Error(Fault::NoMatch));
        assert_eq!(
            r.finish(nothing, "not an action"),
            Err(ActionParseError::new(0, 2, "not an action"))
        );
    }

    #[test]
    fn white_space_is_spaces_tabs_and_line_ends() {
        assert_eq!(ws(" \t\r\n d3"), "d3");
        assert_eq!(ws("\u{a0}d3"), "\u{a0}d3", "no other space is skipped");
        assert_eq!(ws(""), "");
    }
}

/// The words a line may hold in place of its actions, in every game
/// (`docs/protocol.md` section 3): `pass`, `resign`, `audit`.
pub const LINE_WORDS: &[&str] = &["pass", "resign", "audit"];

/// `e`, the error reading the action `text`, with "did you mean" when
/// the action is one word (letters and `-`, as typed) that is a
/// misspelling of one of the game's `words` or of [`LINE_WORDS`]:
/// `pas` is no action: did you mean `pass`?`, the word underlined. An
/// error that already suggests a word is left as it is.
pub fn suggest_word(
    text: &str,
    e: crate::game::ActionParseError,
    words: &[&str],
) -> crate::game::ActionParseError {
    if e.reason.contains("did you mean") {
        return e;
    }
    let start = text.len() - ws(text).len();
    let rest = &text[start..];
    let len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphabetic() || *b == b'-')
        .count();
    let word = &rest[..len];
    let whole = rest[len..]
        .bytes()
        .next()
        .is_none_or(|b| b.is_ascii_whitespace());
    if len < 2 || !whole {
        return e;
    }
    let all: Vec<&str> = words.iter().chain(LINE_WORDS).copied().collect();
    match did_you_mean(word, &all) {
        Some(meant) => crate::game::ActionParseError::new(
            start,
            len,
            format!("`{word}` is no action: did you mean `{meant}`?"),
        ),
        None => e,
    }
}

/// The word of `words` that `typed` is most likely a misspelling of:
/// within one edit (a letter added, dropped, changed, or two letters
/// swapped) for a word of up to four letters, two for a longer one, any
/// case. None when `typed` is one of them or none is that close.
pub fn did_you_mean<'w>(typed: &str, words: &[&'w str]) -> Option<&'w str> {
    let typed = typed.to_ascii_lowercase();
    let mut best: Option<(usize, &'w str)> = None;
    for &word in words {
        let d = edit_distance(&typed, word);
        if d == 0 {
            return None;
        }
        let allowed = if word.len() <= 4 { 1 } else { 2 };
        if d <= allowed && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, word));
        }
    }
    best.map(|(_, w)| w)
}

/// The optimal string alignment distance between `a` and `b`, by bytes:
/// insertions, deletions, substitutions and swaps of two neighbours.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut v = (d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1)
                    .min(d[(i - 1) * w + j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(d[(i - 2) * w + j - 2] + 1);
                }
                v
            };
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod suggestion_tests {
    use super::did_you_mean;

    const WORDS: &[&str] = &["discard", "scale", "climb", "shoot", "rotate90", "pass"];

    #[test]
    fn a_misspelt_word_gets_the_word_it_is_closest_to() {
        assert_eq!(did_you_mean("disacrd", WORDS), Some("discard"));
        assert_eq!(did_you_mean("Scael", WORDS), Some("scale"));
        assert_eq!(did_you_mean("shot", WORDS), Some("shoot"));
        assert_eq!(did_you_mean("rotate9", WORDS), Some("rotate90"));
        assert_eq!(did_you_mean("pas", WORDS), Some("pass"));
    }

    #[test]
    fn a_word_far_from_every_word_or_one_of_them_gets_no_suggestion() {
        assert_eq!(did_you_mean("c4", WORDS), None);
        assert_eq!(did_you_mean("banana", WORDS), None);
        assert_eq!(did_you_mean("discard", WORDS), None);
        assert_eq!(did_you_mean("pxyz", WORDS), None);
    }
}
