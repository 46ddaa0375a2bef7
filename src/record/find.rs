//! Finding the record to read in what a player has: a text, a raw email
//! message or a mailbox may hold several records of a game (a reply
//! quoting the last message, a whole thread). The newest one is read:
//! the record that every other one is a beginning of. Records that do
//! not fit together are reported, never silently chosen between.

use std::sync::Arc;

use super::mail::{self, Body};
use super::source::{input_str, long_line, long_line_error, InputError, MAX_INPUT};
use super::{parse, Source};

/// A record found in the input, and where.
#[derive(Clone, Debug)]
pub struct Found {
    /// The record's text and its map back to the input.
    pub source: Source,
    /// The message of a mailbox it stands in, from 1.
    pub message: Option<usize>,
}

impl Found {
    /// Where the record stands, for messages: `message 3, part 1.1,
    /// text/plain, base64, decoded, line 12`.
    pub fn place(&self) -> String {
        let mut parts = Vec::new();
        if let Some(m) = self.message {
            parts.push(format!("message {m}"));
        }
        if let Some(p) = self.source.part() {
            parts.push(p.to_owned());
        }
        parts.push(format!("line {}", self.source.position(0).line));
        parts.join(", ")
    }
}

/// Every record in `input` (a text, a raw message or an mbox file), in
/// the order they stand. An error when the input is not text, has a line
/// longer than [`super::source::MAX_LINE`] (a message's or a mailbox's
/// too: as `check` reads a plain record, which stops at such a line
/// whatever the input turns out to be), or holds no record.
pub fn records(input: &[u8]) -> Result<Vec<Found>, InputError> {
    // Too large is said first, as a plain text's read says it (and a
    // plain text's read, `input_str`, looks for a long line itself: the
    // input is not walked twice for it).
    let in_mail = mail::is_mbox(input) || mail::is_message(input);
    if in_mail && input.len() <= MAX_INPUT {
        if let Some(line) = long_line(input) {
            return Err(long_line_error(line));
        }
    }
    let found = found_in(input)?;
    if !found.is_empty() {
        return Ok(found);
    }
    if mail::is_mbox(input) {
        return none_is_an_error(found, "this mailbox");
    }
    if mail::is_message(input) {
        return none_is_an_error(found, "this email");
    }
    // The same errors as ever for plain text.
    Source::new(input).map(|source| {
        vec![Found {
            source,
            message: None,
        }]
    })
}

/// The records found in `input`, none if it holds none; an error only
/// when it cannot be read at all (no text, a message that does not read).
fn found_in(input: &[u8]) -> Result<Vec<Found>, InputError> {
    if mail::is_mbox(input) {
        let messages = mail::split_mbox(input);
        let mut found = Vec::new();
        for (k, (offset, bytes)) in messages.iter().enumerate() {
            // A message that cannot be read holds no record to read.
            if let Ok(records) = in_message(bytes, *offset, Some(k + 1)) {
                found.extend(records);
            }
        }
        return Ok(found);
    }
    if mail::is_message(input) {
        return in_message(input, 0, None);
    }
    // The text copied once, where it is shared (not first into a
    // `String` of its own).
    let text: Arc<str> = Arc::from(input_str(input)?.as_ref());
    Ok(Source::all_in(&text)
        .into_iter()
        .map(|source| Found {
            source,
            message: None,
        })
        .collect())
}

/// Every record in the messages of a mailbox folder (Maildir), each a
/// raw message (or a plain text), numbered from 1 in the order given.
pub fn records_in_messages(messages: &[Vec<u8>]) -> Result<Vec<Found>, InputError> {
    let mut found = Vec::new();
    for (k, bytes) in messages.iter().enumerate() {
        let records = if mail::is_message(bytes) {
            in_message(bytes, 0, Some(k + 1))
        } else {
            in_text(bytes, None, 0, Some(k + 1))
        };
        if let Ok(records) = records {
            found.extend(records);
        }
    }
    none_is_an_error(found, "this mailbox")
}

fn none_is_an_error(found: Vec<Found>, what: &str) -> Result<Vec<Found>, InputError> {
    if found.is_empty() {
        return Err(InputError::at_start(format!(
            "no record found in {what}: a record starts with header tags such as [Game \"castle-danger\"]"
        )));
    }
    Ok(found)
}

/// The records of one raw message, `offset` lines into the input.
fn in_message(
    bytes: &[u8],
    offset: usize,
    message: Option<usize>,
) -> Result<Vec<Found>, InputError> {
    let bodies = mail::bodies(bytes)?;
    let mut found = Vec::new();
    for fallback in [false, true] {
        for body in bodies.iter().filter(|b| b.fallback == fallback) {
            let Body {
                text,
                part,
                line_offset,
                ..
            } = body;
            // A part that is no text (NUL bytes) holds no record.
            let offset = line_offset + if part.is_none() { offset } else { 0 };
            if let Ok(records) = in_text(text.as_bytes(), part.clone(), offset, message) {
                found.extend(records);
            }
        }
        if !found.is_empty() {
            break;
        }
    }
    Ok(found)
}

/// The records of one text.
fn in_text(
    bytes: &[u8],
    part: Option<String>,
    line_offset: usize,
    message: Option<usize>,
) -> Result<Vec<Found>, InputError> {
    let text: Arc<str> = Arc::from(input_str(bytes)?.as_ref());
    Ok(Source::all_in(&text)
        .into_iter()
        .map(|source| Found {
            source: source.within(part.clone(), line_offset),
            message,
        })
        .collect())
}

/// A record as far as telling records apart goes: its tags (but
/// `Result`, which changes as the game ends) and its lines.
struct Key {
    tags: Vec<(String, String)>,
    /// Each line as shown (`4. Red: Kc9-b9`) and its proof items.
    lines: Vec<(String, String)>,
}

fn key(source: &Source) -> Option<Key> {
    let record = parse(source).ok()?;
    let tags = record
        .tags
        .iter()
        .filter(|t| !t.name.eq_ignore_ascii_case("Result"))
        .map(|t| (t.name.to_ascii_lowercase(), t.value.clone()))
        .collect();
    let lines = record
        .turns
        .iter()
        .map(|t| {
            let items: Vec<&str> = t.items.iter().map(|i| i.text.as_ref()).collect();
            let proofs: Vec<String> = t.proofs.iter().map(|p| format!("{:?}", p.kind)).collect();
            let shown = format!(
                "{}{}. {}: {}",
                if t.kind == super::LineKind::Setup {
                    "S"
                } else {
                    ""
                },
                t.number,
                t.side,
                items.join(", "),
            );
            (shown, proofs.join(" "))
        })
        .collect();
    Some(Key { tags, lines })
}

/// Whether `b` is `a` or goes on from it: every tag of `a` in `b`, the
/// lines of `a` the first lines of `b`.
fn goes_on_from(a: &Key, b: &Key) -> bool {
    a.tags.iter().all(|t| b.tags.contains(t))
        && a.lines.len() <= b.lines.len()
        && a.lines.iter().zip(&b.lines).all(|(x, y)| x == y)
}

/// The record to read among `found`: those of message `message` if one is
/// named, and of those the newest, the one all the others are beginnings
/// of. A record that does not read at all is the one returned (so that
/// its error is reported); records that disagree are an error.
pub fn newest(found: Vec<Found>, message: Option<usize>) -> Result<Found, InputError> {
    let mut found = found;
    if let Some(n) = message {
        let messages = found.iter().filter_map(|f| f.message).max().unwrap_or(1);
        found.retain(|f| f.message.unwrap_or(1) == n);
        if found.is_empty() {
            return Err(InputError::at_start(if n == 0 || n > messages {
                format!("there is no message {n}: messages are numbered 1 to {messages}")
            } else {
                format!("message {n} holds no record")
            }));
        }
    }
    if found.len() == 1 {
        return Ok(found.swap_remove(0));
    }
    let mut keys = Vec::new();
    for (k, f) in found.iter().enumerate() {
        match key(&f.source) {
            Some(key) => keys.push(key),
            None => return Ok(found.swap_remove(k)),
        }
    }
    let best = (0..keys.len())
        .max_by_key(|&k| (keys[k].lines.len(), keys[k].tags.len(), usize::MAX - k))
        .unwrap_or(0);
    if let Some(merged) = merged_keys(&found, &keys, best)? {
        return Ok(merged);
    }
    for k in 0..keys.len() {
        if !goes_on_from(&keys[k], &keys[best]) {
            return Err(disagreement(&found, &keys, k, best));
        }
    }
    Ok(found.swap_remove(best))
}

/// Whether a tag (lower-cased name) is a side's `<Side>Key` or
/// `<Side>Commit` tag.
fn is_key_tag(name: &str) -> bool {
    (name.ends_with("key") && name.len() > 3) || (name.ends_with("commit") && name.len() > 6)
}

/// Copies of a game with no lines yet that differ only in which sides'
/// Key and Commit tags they carry (sides that ran `keygen` at once, each
/// on the first message) are one game: the record read is the union of
/// their tags. `Ok(None)` when they do not differ that way (then the
/// usual comparison decides); an error naming the side when two copies
/// carry two different Key or Commit tags for one side: a real fork.
fn merged_keys(found: &[Found], keys: &[Key], best: usize) -> Result<Option<Found>, InputError> {
    if keys.iter().any(|k| !k.lines.is_empty()) {
        return Ok(None);
    }
    let plain = |k: &Key| -> Vec<(String, String)> {
        let mut t: Vec<_> = k
            .tags
            .iter()
            .filter(|(n, _)| !is_key_tag(n))
            .cloned()
            .collect();
        t.sort();
        t
    };
    let base = plain(&keys[best]);
    if keys.iter().any(|k| plain(k) != base) {
        return Ok(None);
    }
    // The key tags of every copy, by name: one value each, or a fork.
    let mut union: Vec<(String, String, usize)> = Vec::new();
    for (k, key) in keys.iter().enumerate() {
        for (name, value) in key.tags.iter().filter(|(n, _)| is_key_tag(n)) {
            match union.iter().find(|(n, _, _)| n == name) {
                Some((_, v, other)) if v != value => {
                    let side = name.trim_end_matches("key").trim_end_matches("commit");
                    let (first, second) = (&found[*other.min(&k)], &found[*other.max(&k)]);
                    let shown = tag_name(&found[k].source, name).unwrap_or_else(|| name.clone());
                    return Err(InputError {
                        position: second.source.position(0),
                        message: format!(
                            "two records of the game here disagree, the one at {} and the one at {}: their header tag {shown} is \"{v}\" in one and \"{value}\" in the other: two different keys for one side ({}), a fork that herald will not choose between (keep the copy whose key the side's player made, and ask for it again)",
                            first.place(),
                            second.place(),
                            side_named(&found[k].source, side),
                        ),
                    });
                }
                Some(_) => {}
                None => union.push((name.clone(), value.clone(), k)),
            }
        }
    }
    let missing: Vec<&(String, String, usize)> = union
        .iter()
        .filter(|(n, v, _)| !keys[best].tags.contains(&(n.clone(), v.clone())))
        .collect();
    if missing.is_empty() {
        return Ok(None);
    }
    if missing
        .iter()
        .any(|(_, v, _)| v.contains(['"', '\\', '\n']))
    {
        return Ok(None);
    }
    // The newest copy's text, with the tags it lacks where keygen puts a
    // side's key tags: among the other Key and Commit tags in seat order.
    let Ok(record) = parse(&found[best].source) else {
        return Ok(None);
    };
    let mut missing: Vec<(String, &str)> = missing
        .iter()
        .map(|(name, value, k)| {
            let shown = tag_name(&found[*k].source, name).unwrap_or_else(|| name.clone());
            (shown, value.as_str())
        })
        .collect();
    missing.sort_by_key(|(name, _)| key_tag_place(&record.tags, name));
    let Some(merged) = with_key_tags(found[best].source.text(), &record.tags, &missing) else {
        return Ok(None);
    };
    match Source::new(merged.as_bytes()) {
        Ok(source) => Ok(Some(Found {
            source,
            message: found[best].message,
        })),
        Err(_) => Ok(None),
    }
}

/// Where a side's Key or Commit tag `name` stands among a header's
/// `tags`, as keygen and `new` write them: by the seat of its side (the
/// place of the side's own tag, `[Elf "eve@example.org"]`), its Commit
/// tag before its Key tag.
fn key_tag_place(tags: &[super::Tag], name: &str) -> (usize, bool) {
    let lower = name.to_ascii_lowercase();
    let (side, is_key) = match lower.strip_suffix("commit") {
        Some(side) => (side, false),
        None => (lower.strip_suffix("key").unwrap_or(&lower), true),
    };
    let seat = tags
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(side))
        .unwrap_or(usize::MAX);
    (seat, is_key)
}

/// `text`, whose header's tags are `tags`, with the key tags `adding`
/// (name as written, value; in seat order) put where they belong: each
/// before the first Key or Commit tag of a later place
/// ([`key_tag_place`]), or else after the header's last tag but the
/// Result tag (which stays last), as keygen adds a side's tags. `None`
/// when the header has no tag to put them by.
fn with_key_tags(text: &str, tags: &[super::Tag], adding: &[(String, &str)]) -> Option<String> {
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |k| k + 1);
    let line_end = |at: usize| text[at..].find('\n').map(|k| at + k + 1);
    let last = tags
        .iter()
        .rev()
        .find(|t| !t.name.eq_ignore_ascii_case(super::splice::RESULT_TAG))
        .or(tags.last())?;
    let mut inserts: Vec<(usize, String)> = Vec::new();
    for (name, value) in adding {
        let place = key_tag_place(tags, name);
        let before = tags
            .iter()
            .filter(|t| is_key_tag(&t.name.to_ascii_lowercase()))
            .find(|t| key_tag_place(tags, &t.name) > place);
        let mut line = String::new();
        super::write::write_tags([(name.as_str(), *value)], &mut line);
        let at = match before {
            // Before that tag's line, when the tag starts it.
            Some(t)
                if text[line_start(t.span.start)..t.span.start]
                    .trim()
                    .is_empty() =>
            {
                line_start(t.span.start)
            }
            Some(t) => t.span.start,
            None => match line_end(last.span.end.saturating_sub(1)) {
                Some(at) => at,
                None => {
                    line.insert(0, '\n');
                    text.len()
                }
            },
        };
        inserts.push((at, line));
    }
    // In place order; of two at one place, the one given first first.
    inserts.sort_by_key(|(at, _)| *at);
    let mut merged = String::with_capacity(text.len() + 200);
    let mut from = 0;
    for (at, line) in inserts {
        merged.push_str(&text[from..at]);
        merged.push_str(&line);
        from = at;
    }
    merged.push_str(&text[from..]);
    Some(merged)
}

/// A tag's name as written in `source`, from its lower-cased `name`.
fn tag_name(source: &Source, name: &str) -> Option<String> {
    let record = parse(source).ok()?;
    record
        .tags
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name))
        .map(|t| t.name.clone())
}

/// A side's name as written in a tag of `source`, from its lower-cased one.
fn side_named(source: &Source, side: &str) -> String {
    parse(source)
        .ok()
        .and_then(|r| {
            r.tags.iter().find_map(|t| {
                let n = t.name.to_ascii_lowercase();
                (is_key_tag(&n) && n.starts_with(side) && t.name.len() > side.len())
                    .then(|| t.name[..side.len()].to_owned())
            })
        })
        .unwrap_or_else(|| side.to_owned())
}

/// The error for two records that do not fit together: where they part.
fn disagreement(found: &[Found], keys: &[Key], a: usize, b: usize) -> InputError {
    let (a, b) = (a.min(b), a.max(b));
    let (ka, kb) = (&keys[a], &keys[b]);
    let what = match ka.tags.iter().find(|t| !kb.tags.contains(t)) {
        Some((name, value)) => {
            let other = kb
                .tags
                .iter()
                .find(|(n, _)| n == name)
                .map_or("no such tag".to_owned(), |(_, v)| format!("\"{v}\""));
            format!("their header tag {name} is \"{value}\" in one and {other} in the other")
        }
        None => {
            let k = ka
                .lines
                .iter()
                .zip(&kb.lines)
                .take_while(|(x, y)| x == y)
                .count();
            let line = |key: &Key| {
                key.lines
                    .get(k)
                    .map_or("nothing".to_owned(), |(l, _)| format!("`{}`", l.trim_end()))
            };
            let (x, y) = (line(ka), line(kb));
            if x == y {
                format!("their line {} is {x} in both, with other proof items (a line written twice, with different keys?)", k + 1)
            } else {
                format!("their line {} is {x} in one and {y} in the other", k + 1)
            }
        }
    };
    let (first, second) = (&found[a], &found[b]);
    let hint = match (first.message, second.message) {
        (Some(x), Some(y)) if x != y => "name the message to read with --message N",
        _ => "cut the record you mean out of the message, or ask for it again",
    };
    InputError {
        position: second.source.position(0),
        message: format!(
            "two records of the game here disagree, the one at {} and the one at {}: {what}; herald will not choose between them ({hint})",
            first.place(),
            second.place()
        ),
    }
}

/// The record to read in `input`: [`records`], then [`newest`].
pub fn read(input: &[u8], message: Option<usize>) -> Result<Found, InputError> {
    newest(records(input)?, message)
}

/// The newest record in `input` (mail, say), `Ok(None)` when it holds
/// no record at all: mail that is no game's. An error when the input
/// cannot be read, or holds records that disagree.
pub fn read_if_any(input: &[u8]) -> Result<Option<Found>, InputError> {
    let found = found_in(input)?;
    if found.is_empty() {
        return Ok(None);
    }
    newest(found, None).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mail_that_holds_no_record_reads_as_none_not_as_an_error() {
        let mail = b"From: ann@example.org\r\nTo: bob@example.org\r\nSubject: lunch?\r\n\r\nShall we meet at noon?\r\n";
        assert!(read_if_any(mail).unwrap().is_none());
        // `read` says why in words, as ever.
        let e = read(mail, None).unwrap_err();
        assert!(
            e.message.starts_with("no record found in this email"),
            "{}",
            e.message
        );
    }

    /// A three-player copy of Battle of the Dale before turn 1 with the
    /// key tags `keys` (written in that order) and then `lines`, as it
    /// stands in message `message`.
    fn dale_copy(keys: &[(&str, &str)], lines: &str, message: usize) -> Found {
        let mut text = String::from(
            "[Game \"battle-of-the-dale\"]\n[Human \"ann@example.org\"]\n[Elf \"eve@example.org\"]\n[Goblin \"gus@example.org\"]\n[Protocol \"3\"]\n",
        );
        crate::record::write_tags(keys.iter().copied(), &mut text);
        text.push_str("[Result \"*\"]\n");
        if !lines.is_empty() {
            text.push('\n');
            text.push_str(lines);
        }
        Found {
            source: Source::new(text.as_bytes()).unwrap(),
            message: Some(message),
        }
    }

    const HUMAN: [(&str, &str); 2] = [("HumanCommit", "a1"), ("HumanKey", "a2")];
    const ELF: [(&str, &str); 2] = [("ElfCommit", "e1"), ("ElfKey", "e2")];
    const GOBLIN: [(&str, &str); 2] = [("GoblinCommit", "g1"), ("GoblinKey", "g2")];

    fn tags(sides: &[[(&'static str, &'static str); 2]]) -> Vec<(&'static str, &'static str)> {
        sides.iter().flatten().copied().collect()
    }

    /// What `merged_keys` makes of `copies` (the newest as `newest`
    /// picks it).
    fn merged(copies: &[Found]) -> Result<Option<Found>, InputError> {
        let keys: Vec<Key> = copies.iter().map(|f| key(&f.source).unwrap()).collect();
        let best = (0..keys.len())
            .max_by_key(|&k| (keys[k].lines.len(), keys[k].tags.len(), usize::MAX - k))
            .unwrap();
        merged_keys(copies, &keys, best)
    }

    /// The Elf's key on one copy and the Goblin's on another (added at
    /// once): one record, every key tag of both, in seat order where
    /// keygen puts them (before the Result tag), whichever copy came first.
    #[test]
    fn key_copies_without_lines_are_read_as_their_union_in_seat_order() {
        let elf = dale_copy(&tags(&[HUMAN, ELF]), "", 1);
        let goblin = dale_copy(&tags(&[HUMAN, GOBLIN]), "", 2);
        let whole = dale_copy(&tags(&[HUMAN, ELF, GOBLIN]), "", 3);
        for copies in [[elf.clone(), goblin.clone()], [goblin, elf]] {
            let read = newest(copies.to_vec(), None).unwrap();
            assert_eq!(read.source.text(), whole.source.text());
            assert_eq!(
                merged(&copies).unwrap().unwrap().source.text(),
                whole.source.text()
            );
        }
    }

    /// A key both copies hold (the creator's, and the Elf's in both) is
    /// written once; a missing tag of a side seated before others' goes
    /// before theirs.
    #[test]
    fn a_key_in_both_copies_is_written_once_and_a_side_seated_first_goes_first() {
        // The Human's key came last on one copy: the merge puts it first.
        let late_human = dale_copy(&tags(&[ELF, GOBLIN]), "", 1);
        let with_elf = dale_copy(&tags(&[HUMAN, ELF]), "", 2);
        let read = merged(&[late_human, with_elf]).unwrap().unwrap();
        let text = read.source.text();
        assert_eq!(text.matches("[ElfKey \"e2\"]").count(), 1, "{text}");
        assert_eq!(text.matches("[ElfCommit \"e1\"]").count(), 1, "{text}");
        let order: Vec<usize> = [
            "HumanCommit",
            "HumanKey",
            "ElfCommit",
            "GoblinKey",
            "Result",
        ]
        .iter()
        .map(|t| text.find(&format!("[{t} ")).unwrap())
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
        // Copies that hold the same keys are the same record: no merge.
        let a = dale_copy(&tags(&[HUMAN, ELF]), "", 1);
        assert!(merged(&[a.clone(), a]).unwrap().is_none());
    }

    /// Two different keys for one side, one in each copy: a fork that
    /// names the side and both copies, never a union.
    #[test]
    fn two_keys_for_one_side_in_two_copies_are_a_fork_naming_the_side() {
        let one = dale_copy(&tags(&[HUMAN, ELF]), "", 1);
        let other = dale_copy(
            &tags(&[HUMAN, [("ElfCommit", "f1"), ("ElfKey", "f2")], GOBLIN]),
            "",
            2,
        );
        for copies in [[one.clone(), other.clone()], [other.clone(), one.clone()]] {
            let e = merged(&copies).unwrap_err();
            // The copies in the order given, by their messages.
            let (first, second) = (copies[0].message.unwrap(), copies[1].message.unwrap());
            assert!(
                e.message.starts_with(&format!("two records of the game here disagree, the one at message {first}, line 1 and the one at message {second}, line 1: their header tag ElfCommit is")),
                "{}",
                e.message
            );
            assert!(
                e.message.contains("two different keys for one side (Elf), a fork that herald will not choose between"),
                "{}",
                e.message
            );
            assert_eq!(
                newest(copies.to_vec(), None).unwrap_err().message,
                e.message
            );
        }
    }

    /// A copy with a line is a game under way: its keys are final, and a
    /// copy with other keys is no part of it (the usual comparison says
    /// where they part), never merged into it.
    #[test]
    fn a_copy_with_lines_is_never_merged() {
        let played = dale_copy(&tags(&[HUMAN, ELF]), "1. Human: R@A1\n", 1);
        let goblin = dale_copy(&tags(&[HUMAN, GOBLIN]), "", 2);
        let copies = [played, goblin];
        assert!(merged(&copies).unwrap().is_none());
        let e = newest(copies.to_vec(), None).unwrap_err();
        assert!(
            e.message.contains(
                "their header tag elfcommit is \"e1\" in one and no such tag in the other"
            ),
            "{}",
            e.message
        );
    }

    #[test]
    fn mail_that_holds_a_record_reads_it_with_read_if_any() {
        let mail = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/mail/thunderbird-qp-reply.eml"
        ))
        .unwrap();
        let found = read_if_any(&mail).unwrap().expect("a record");
        assert_eq!(
            found.source.text(),
            read(&mail, None).unwrap().source.text()
        );
        assert!(found.source.text().contains("[Game \""));
    }
}
