//! Writing records exactly as `docs/record.md` says, so that everything
//! written reads back as the same game, and no line is long enough for a
//! mail client to re-wrap it (protocol values stand on lines of their own).

use std::fmt::Write as _;

use super::splice::RESULT_TAG;
use super::ProofKind;

/// Longest line the writer makes (where the items allow).
pub const WRAP: usize = 76;

/// Indentation of continuation lines.
const INDENT: &str = "    ";

/// Write a header: the `[Name "value"]` lines of `tags`, the Result tag
/// with the value `result` (where `tags` have it, else last). The one
/// place a header is written.
pub fn write_header<'a>(
    tags: impl IntoIterator<Item = (&'a str, &'a str)>,
    result: &str,
    out: &mut String,
) {
    let mut written = false;
    let tags = tags.into_iter().map(|(name, value)| {
        if name.eq_ignore_ascii_case(RESULT_TAG) {
            written = true;
            (name, result)
        } else {
            (name, value)
        }
    });
    write_tags(tags, out);
    if !written {
        write_tags([(RESULT_TAG, result)], out);
    }
}

/// Write `[Name "value"]` lines, quotes and backslashes escaped.
pub fn write_tags<'a>(tags: impl IntoIterator<Item = (&'a str, &'a str)>, out: &mut String) {
    for (name, value) in tags {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        for c in value.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]\n");
    }
}

/// One turn, ready to be written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnText {
    /// Turn number.
    pub number: u32,
    /// Side name, canonical case.
    pub side: String,
    /// Recorded chance outcomes, `label=value`, written first.
    pub facts: Vec<(String, String)>,
    /// Canonical action texts.
    pub actions: Vec<String>,
    /// A set-up line (`S1. Blue:`) rather than a turn.
    pub setup: bool,
    /// The line ends with `resign`.
    pub resign: bool,
    /// The line ends with `offer draw` or `accept draw`.
    pub draw: Option<super::DrawItem>,
    /// The line is a closing line of openings (`audit`).
    pub audit: bool,
    /// The line records the side's forfeit, claimed by this side.
    pub forfeit: Option<String>,
    /// The player's reveal.
    pub reveal: Option<[u8; 32]>,
    /// Further proof items (commitments, openings, the signature last),
    /// written after the reveal, each as [`write_proof`] writes it.
    pub proofs: Vec<String>,
    /// A comment for the end of the turn (annotate).
    pub comment: Option<String>,
}

impl TurnText {
    /// The line's items in order: facts, actions, `resign`; `pass` when
    /// there is nothing else.
    pub fn items(&self) -> Vec<String> {
        let mut items: Vec<String> = self
            .facts
            .iter()
            .map(|(l, v)| format!("{l}={v}"))
            .chain(self.actions.iter().cloned())
            .collect();
        if self.resign {
            items.push("resign".into());
        }
        if let Some(draw) = self.draw {
            items.push(draw.words().into());
        }
        if self.audit {
            items.push("audit".into());
        }
        if let Some(claimant) = &self.forfeit {
            items.push(format!("forfeit claimed by {claimant}"));
        }
        if items.is_empty() && !self.setup {
            items.push("pass".into());
        }
        items
    }

    /// The items as one text, as `replay` shows a turn: `rally=heads, B1-B2`.
    pub fn body(&self) -> String {
        self.items().join(", ")
    }
}

/// Append the lines of one turn to `out`.
pub fn write_turn(turn: &TurnText, out: &mut String) {
    let mut line = if turn.setup {
        format!("S{}. {}:", turn.number, turn.side)
    } else {
        format!("{}. {}:", turn.number, turn.side)
    };
    let items = turn.items();
    let last = items.len().saturating_sub(1);
    for (k, item) in items.iter().enumerate() {
        let piece = if k == last {
            item.clone()
        } else {
            format!("{item},")
        };
        if line.len() + 1 + piece.len() > WRAP && line.len() > INDENT.len() {
            out.push_str(&line);
            out.push('\n');
            line = INDENT[1..].to_owned();
        }
        line.push(' ');
        line.push_str(&piece);
    }
    out.push_str(&line);
    out.push('\n');
    if let Some(reveal) = &turn.reveal {
        write_proof(&ProofKind::Reveal(*reveal), out);
    }
    for proof in &turn.proofs {
        out.push_str(proof);
    }
    if let Some(comment) = &turn.comment {
        write_comment(comment, out);
    }
}

/// Hex digits of a proof value on one continuation line: a reveal's 64
/// fit beside its word; longer values go on lines of their own.
const HEX_PER_LINE: usize = 64;

/// Append a proof item on continuation lines of its own, no line over
/// [`WRAP`] characters: its words on the first, then its values, each
/// long value broken into lines of [`HEX_PER_LINE`] digits (reading joins
/// them again).
pub fn write_proof(proof: &ProofKind<'_>, out: &mut String) {
    let (head, values): (String, Vec<&[u8]>) = match proof {
        ProofKind::Reveal(h) => ("reveal".into(), vec![h]),
        ProofKind::Commit { slot, digest } => (format!("commit {slot}"), vec![digest]),
        ProofKind::Open { slot, salt, .. } => (format!("open {slot}"), vec![salt]),
        ProofKind::Sign(s) => ("sig".into(), vec![s]),
        ProofKind::Share {
            position,
            share,
            proof,
        } => (format!("share {position}"), vec![share, proof]),
        ProofKind::CardKey { key, proof } => ("cardkey".into(), vec![key, proof]),
        ProofKind::Deck { position, card } => (format!("deck {position}"), vec![card]),
        ProofKind::CardSecret(x) => ("cardsecret".into(), vec![x]),
        ProofKind::Date(day) => (format!("date {day}"), vec![]),
    };
    let mut line = format!("{INDENT}{head}");
    // An opening's value is one word, on the first line when it fits (a
    // shuffle seed's 64 digits go on a line of their own).
    if let ProofKind::Open { value, .. } = proof {
        if line.len() + 1 + value.len() > WRAP {
            let _ = writeln!(out, "{line}");
            line = INDENT.to_owned();
        } else {
            line.push(' ');
        }
        line.push_str(value);
    }
    for value in values {
        let digits = hex::encode(value);
        for chunk in digits.as_bytes().chunks(HEX_PER_LINE) {
            let chunk = std::str::from_utf8(chunk).expect("hex is ASCII");
            if line.len() + 1 + chunk.len() > WRAP {
                let _ = writeln!(out, "{line}");
                line = INDENT.to_owned();
            } else {
                line.push(' ');
            }
            line.push_str(chunk);
        }
    }
    let _ = writeln!(out, "{line}");
}

/// A `{...}` comment on continuation lines, wrapped at words.
fn write_comment(comment: &str, out: &mut String) {
    let clean: String = comment
        .chars()
        .map(|c| if c == '{' || c == '}' { '(' } else { c })
        .collect();
    let mut line = format!("{INDENT}{{");
    let mut first = true;
    for word in clean.split_whitespace() {
        if !first && line.len() + 1 + word.len() + 1 > WRAP {
            out.push_str(&line);
            out.push('\n');
            line = format!("{INDENT} ");
            first = true;
        }
        if !first {
            line.push(' ');
        }
        line.push_str(word);
        first = false;
    }
    line.push('}');
    out.push_str(&line);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_escape_quotes_and_backslashes() {
        let mut out = String::new();
        write_tags([("Event", "a \"b\" \\c")], &mut out);
        assert_eq!(out, "[Event \"a \\\"b\\\" \\\\c\"]\n");
    }

    #[test]
    fn the_header_carries_the_result_where_its_tag_stands_or_last() {
        let mut out = String::new();
        write_header(
            [("Game", "x"), ("Result", "*"), ("Blue", "a")],
            "Blue",
            &mut out,
        );
        assert_eq!(out, "[Game \"x\"]\n[Result \"Blue\"]\n[Blue \"a\"]\n");
        let mut out = String::new();
        write_header([("Game", "x"), ("Blue", "a")], "*", &mut out);
        assert_eq!(out, "[Game \"x\"]\n[Blue \"a\"]\n[Result \"*\"]\n");
    }

    #[test]
    fn long_turns_wrap_with_indented_continuations() {
        let turn = TurnText {
            number: 12,
            side: "Blue".into(),
            actions: (0..12).map(|_| "Kc1-b1-b2".to_string()).collect(),
            reveal: Some([0xab; 32]),
            comment: Some("spent 9 of 9 moves".into()),
            ..TurnText::default()
        };
        let mut out = String::new();
        write_turn(&turn, &mut out);
        for line in out.lines() {
            assert!(line.len() <= WRAP, "{line:?}");
        }
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("12. Blue: Kc1-b1-b2, "));
        assert!(lines[1].starts_with("    Kc1-b1-b2"));
        assert_eq!(
            lines[lines.len() - 2],
            format!("    reveal {}", "ab".repeat(32))
        );
        assert_eq!(lines[lines.len() - 1], "    {spent 9 of 9 moves}");
    }

    #[test]
    fn every_proof_item_is_written_within_the_wrap_and_reads_back() {
        let proofs = [
            ProofKind::Reveal([0x1a; 32]),
            ProofKind::Open {
                slot: "a1",
                value: "R",
                salt: [0x2b; 32],
            },
            // A reshuffle seed's opening: 64 digits too long to stand
            // beside the slot.
            ProofKind::Open {
                slot: "shuffle-1",
                value: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                salt: [0x2c; 32],
            },
            ProofKind::Sign([0x3c; 64]),
            ProofKind::Share {
                position: 17,
                share: [0x4d; 32],
                proof: [0x5e; 96],
            },
            ProofKind::CardKey {
                key: [0x6f; 32],
                proof: [0x70; 64],
            },
            ProofKind::Deck {
                position: 33,
                card: [0x81; 64],
            },
            ProofKind::CardSecret([0x92; 32]),
        ];
        let mut text = String::from("[Game \"x\"]\n\n1. Blue: pass\n");
        for proof in &proofs {
            write_proof(proof, &mut text);
        }
        for line in text.lines() {
            assert!(line.len() <= WRAP, "{line:?}");
        }
        let source = crate::record::Source::new(text.as_bytes()).unwrap();
        let record = crate::record::parse(&source).unwrap();
        let read: Vec<ProofKind<'_>> = record.turns[0].proofs.iter().map(|p| p.kind).collect();
        assert_eq!(read, proofs);
    }

    #[test]
    fn an_empty_turn_is_written_as_pass() {
        let mut out = String::new();
        write_turn(
            &TurnText {
                number: 3,
                side: "Red".into(),
                ..TurnText::default()
            },
            &mut out,
        );
        assert_eq!(out, "3. Red: pass\n");
    }
}
