//! Game records: header tag pairs, then the log, one turn a line.
//!
//! This layer knows nothing of any game: it reads tags, turn numbers, side
//! names, the comma-separated action texts, recorded chance facts
//! (`label=value`) and reveals, each with its [`Span`] for error messages.
//! The grammar is in `docs/record.md`.

mod contact;
mod day;
mod find;
pub(crate) mod hex_digits;
pub mod mail;
mod parse;
mod source;
mod splice;
pub mod stream;
mod typed;
mod write;

use std::borrow::Cow;

pub use contact::Contact;
pub use day::Day;
pub use find::{newest, read, read_if_any, records, records_in_messages, Found};
pub use parse::{parse, parse_lines, turn_prefix, MAX_TAGS, MAX_TURNS};
pub use source::{
    input_text, plain_spaces_and_quotes, InputError, Position, Source, Span, MAX_INPUT, MAX_LINE,
};
pub use splice::{Splice, RESULT_TAG};
pub use typed::TypedLine;
pub use write::{write_header, write_proof, write_tags, write_turn, TurnText};

/// One `[Name "value"]` pair.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tag {
    /// The tag's name as written.
    pub name: String,
    /// The value, escapes resolved.
    pub value: String,
    /// The whole tag.
    pub span: Span,
    /// The value between the quotes.
    pub value_span: Span,
}

/// What one comma-separated item of a turn line is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ItemKind<'a> {
    /// A game action, for the game's own parser.
    Action,
    /// A recorded chance outcome, `label=value` (e.g. `rally=heads`).
    Fact {
        /// The event label.
        label: &'a str,
        /// The recorded value.
        value: &'a str,
    },
}

/// One comma-separated item of a turn line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Item<'a> {
    /// The item's text, trimmed; comments inside it are replaced by a space.
    pub text: Cow<'a, str>,
    /// Where the item stands.
    pub span: Span,
    /// Action or fact.
    pub kind: ItemKind<'a>,
}

/// A player's reveal on a turn line: the next value of their hash chain.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Reveal {
    /// The 32 bytes.
    pub value: [u8; 32],
    /// Where `reveal <hex>` stands.
    pub span: Span,
}

/// What a proof item says. Proofs follow a line's items (herald writes
/// each on continuation lines of its own); the referee checks them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProofKind<'a> {
    /// `reveal <64 hex>`: the player's next hash-chain value (section 3.1).
    Reveal([u8; 32]),
    /// `commit <slot> <64 hex>`: the salted commitment to a hidden value,
    /// on a set-up line.
    Commit {
        /// The slot, as the game names it.
        slot: &'a str,
        /// The commitment.
        digest: [u8; 32],
    },
    /// `open <slot> <value> <64 hex salt>`: a hidden value opened against
    /// its salted commitment.
    Open {
        /// The slot, as the game names it (`a1`, `throw.3`).
        slot: &'a str,
        /// The value, in the game's notation.
        value: &'a str,
        /// The slot's salt.
        salt: [u8; 32],
    },
    /// `sig <128 hex>`: an Ed25519 signature over the line.
    Sign([u8; 64]),
    /// `share <n> <64 hex> <192 hex>`: a decryption share for deck
    /// position `n`, with its proof.
    Share {
        /// The deck position the share is for.
        position: u32,
        /// The share, a compressed group element.
        share: [u8; 32],
        /// The proof that the share is honest, `A1 || A2 || s`.
        proof: [u8; 96],
    },
    /// `cardkey <64 hex> <128 hex>`: a side's public card key with its
    /// proof that the side knows its secret (spec section 3.9).
    CardKey {
        /// The key, a compressed group element.
        key: [u8; 32],
        /// The Schnorr proof `c || s`.
        proof: [u8; 64],
    },
    /// `deck <n> <128 hex>`: the masked card at deck position `n` after
    /// the line's pass over a deck.
    Deck {
        /// The deck position.
        position: u32,
        /// The ciphertext, two compressed group elements.
        card: [u8; 64],
    },
    /// `cardsecret <64 hex>`: a leaving side's card secret, published.
    CardSecret([u8; 32]),
    /// `date 2026-11-28`: the day (UTC) the line was written, covered by
    /// its signature (spec section 3.8).
    Date(Day),
}

/// A proof item of a turn line, with its place.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Proof<'a> {
    /// What it says.
    pub kind: ProofKind<'a>,
    /// From its word to its last digit.
    pub span: Span,
}

/// Which kind of line of the log.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LineKind {
    /// `S1. Blue: ...`: a set-up step before turn 1.
    Setup,
    /// `1. Blue: ...`: a turn (or, once the rules ended the game, an
    /// audit line).
    Turn,
}

impl LineKind {
    /// Line `number` of this kind, named as herald names a line
    /// ([`LineName`]).
    pub fn named(self, number: u32) -> LineName {
        LineName { kind: self, number }
    }
}

/// A line's name, the one way every message names a line: `turn 12`, a
/// set-up line `S3`, or in full (`{:#}`) `set-up line S3`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LineName {
    /// Its kind.
    pub kind: LineKind,
    /// Its number.
    pub number: u32,
}

impl std::fmt::Display for LineName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.kind, f.alternate()) {
            (LineKind::Setup, false) => write!(f, "S{}", self.number),
            (LineKind::Setup, true) => write!(f, "set-up line S{}", self.number),
            (LineKind::Turn, _) => write!(f, "turn {}", self.number),
        }
    }
}

/// One turn of the log: `N. Side: actions`, with continuation lines.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Turn<'a> {
    /// The turn number as written.
    pub number: u32,
    /// Where the number stands.
    pub number_span: Span,
    /// The side name as written.
    pub side: &'a str,
    /// Where the side name stands.
    pub side_span: Span,
    /// Actions and facts in order.
    pub items: Vec<Item<'a>>,
    /// A set-up line or a turn.
    pub kind: LineKind,
    /// `pass`, if the turn is one.
    pub pass: Option<Span>,
    /// `resign`, if the line ends with it.
    pub resign: Option<Span>,
    /// `offer draw` or `accept draw`, if the line ends with one.
    pub draw: Option<(DrawItem, Span)>,
    /// `audit`, if the line is a closing line of openings.
    pub audit: Option<Span>,
    /// `forfeit claimed by <side>`, if the line records a forfeit: where
    /// it stands and the claimant as written (spec section 3.8).
    pub forfeit: Option<(Span, &'a str)>,
    /// The proof items after the items, in order.
    pub proofs: Vec<Proof<'a>>,
    /// From the number to the end of the last item.
    pub span: Span,
    /// The end of the turn's last line (comment lines after it included).
    pub lines_end: usize,
}

impl Turn<'_> {
    /// The actions of the turn (facts left out).
    pub fn actions(&self) -> impl Iterator<Item = &Item<'_>> {
        self.items
            .iter()
            .filter(|i| matches!(i.kind, ItemKind::Action))
    }

    /// The line's first reveal, if it carries one.
    pub fn reveal(&self) -> Option<Reveal> {
        self.proofs.iter().find_map(|p| match p.kind {
            ProofKind::Reveal(value) => Some(Reveal {
                value,
                span: p.span,
            }),
            _ => None,
        })
    }

    /// `resign` alone, without actions, facts or proofs.
    pub fn is_bare_resign(&self) -> bool {
        self.resign.is_some() && self.items.is_empty() && self.proofs.is_empty()
    }
}

/// A line's word on a draw by agreement: it ends the line, after its
/// actions (or alone).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawItem {
    /// `offer draw`: the side offers the others a draw.
    Offer,
    /// `accept draw`: the side accepts the draw offered.
    Accept,
}

impl DrawItem {
    /// The item as herald writes it: `offer draw`, `accept draw`.
    pub fn words(self) -> &'static str {
        match self {
            DrawItem::Offer => "offer draw",
            DrawItem::Accept => "accept draw",
        }
    }

    /// The item `text` says, if it says one: two words, any case, any
    /// white space between them (a re-wrapped line).
    pub fn read(text: &str) -> Option<DrawItem> {
        let mut words = text.split_whitespace();
        let (Some(verb), Some(noun), None) = (words.next(), words.next(), words.next()) else {
            return None;
        };
        if !noun.eq_ignore_ascii_case("draw") {
            return None;
        }
        if verb.eq_ignore_ascii_case("offer") {
            Some(DrawItem::Offer)
        } else if verb.eq_ignore_ascii_case("accept") {
            Some(DrawItem::Accept)
        } else {
            None
        }
    }
}

/// A parsed record: header and log.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record<'a> {
    /// Header tags in file order.
    pub tags: Vec<Tag>,
    /// The turns in file order.
    pub turns: Vec<Turn<'a>>,
    /// Where the header ends (the log's first byte).
    pub header_end: usize,
}

impl<'a> Record<'a> {
    /// The tag named `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// The record as it stood before its line `kind` `number` was
    /// written, a game still in play: that line and every line after it
    /// gone, the Result tag `*` (its span kept, for [`Splice`]).
    pub fn before_line(&self, kind: LineKind, number: u32) -> Record<'a> {
        let kept = self
            .turns
            .iter()
            .position(|t| t.kind == kind && t.number == number)
            .unwrap_or(self.turns.len());
        let mut tags = self.tags.clone();
        for tag in &mut tags {
            if tag.name.eq_ignore_ascii_case(RESULT_TAG) {
                tag.value = "*".to_owned();
            }
        }
        Record {
            tags,
            turns: self.turns[..kept].to_vec(),
            header_end: self.header_end,
        }
    }
}

/// Text that cannot be read as a record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    /// The offending text.
    pub span: Span,
    /// What is wrong, for a player.
    pub message: String,
    /// The turn, when the error is inside a turn line whose head was
    /// read.
    pub turn: Option<u32>,
    /// The set-up line's number (`S2`: 2), when the error is inside a
    /// set-up line whose head was read.
    pub setup_line: Option<u32>,
    /// That turn's side, as written.
    pub side: Option<String>,
}

impl ParseError {
    pub(crate) fn new(span: Span, message: impl Into<String>) -> Self {
        ParseError {
            span,
            message: message.into(),
            turn: None,
            setup_line: None,
            side: None,
        }
    }

    /// This error placed in the line `number` (a set-up line or a turn,
    /// as `kind` says) of `side`.
    pub(crate) fn in_line(mut self, kind: LineKind, number: u32, side: &str) -> Self {
        match kind {
            LineKind::Setup => self.setup_line = Some(number),
            LineKind::Turn => self.turn = Some(number),
        }
        self.side = Some(side.to_owned());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::LineKind;

    #[test]
    fn a_line_is_named_s3_or_turn_12_and_a_set_up_line_in_full_set_up_line_s3() {
        assert_eq!(LineKind::Setup.named(3).to_string(), "S3");
        assert_eq!(format!("{:#}", LineKind::Setup.named(3)), "set-up line S3");
        assert_eq!(LineKind::Turn.named(12).to_string(), "turn 12");
        assert_eq!(format!("{:#}", LineKind::Turn.named(12)), "turn 12");
    }
}
