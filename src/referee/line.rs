//! A line of the log as the referee plays it, and a line once played.
//!
//! A [`Line`] holds what a turn line says (its number, side, facts and
//! actions as text, how it ends, its proof items) and nothing about where
//! it stands in a text: the record replay makes one from a parsed
//! [`Turn`], self-play and `move` from a player's choice.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::ChanceEvent;
use crate::fairness::Hash;
use crate::game::{action_text, Game, Side};
use crate::record::{
    hex_digits, write_proof, write_turn, DrawItem, ItemKind, LineKind, ProofKind, Turn, TurnText,
};

/// One item of a line: an action in the game's notation, or a recorded
/// chance fact.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Entry<'a> {
    /// An action, for the game's parser.
    Action(Cow<'a, str>),
    /// A recorded chance value, `label=value`.
    Fact {
        /// The event label.
        label: &'a str,
        /// The value as written.
        value: &'a str,
    },
}

/// How a line ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    /// After its actions: the turn ends as the game's rules say.
    Actions,
    /// `pass`: a turn with no action.
    Pass,
    /// `resign` after the actions (or alone).
    Resign,
    /// `offer draw` after the actions (or alone): the turn ends as the
    /// game's rules say, and the side offers the others a draw.
    Offer,
    /// `accept draw` (alone, or after the actions when others are still
    /// to accept): the side accepts the draw offered.
    Accept,
    /// `audit`: a closing line of openings once the rules ended the game.
    Audit,
    /// `forfeit claimed by <side>`: the side lost by forfeit, as another
    /// player claims and signs (spec section 3.8).
    Forfeit,
}

/// A proof item of a played line that herald writes back: a commitment
/// or an opening (the reveal is kept apart).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Shown {
    /// A hidden value's commitment, on a set-up line.
    Commit {
        /// The slot.
        slot: &'static str,
        /// The commitment.
        digest: Hash,
    },
    /// A hidden value opened.
    Open {
        /// The slot.
        slot: &'static str,
        /// The value.
        value: String,
        /// Its salt.
        salt: Hash,
    },
}

impl Shown {
    /// The proof item as herald writes it.
    pub fn write(&self, out: &mut String) {
        let kind = match self {
            Shown::Commit { slot, digest } => ProofKind::Commit {
                slot,
                digest: *digest,
            },
            Shown::Open { slot, value, salt } => ProofKind::Open {
                slot,
                value,
                salt: *salt,
            },
        };
        write_proof(&kind, out);
    }
}

/// One line of the log.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Line<'a> {
    /// A set-up line or a turn.
    pub kind: LineKind,
    /// The turn (or set-up step) number as written.
    pub number: u32,
    /// The side as written.
    pub side: &'a str,
    /// Facts and actions, in order.
    pub entries: Vec<Entry<'a>>,
    /// How the line ends.
    pub ending: Ending,
    /// The proof items (reveal, openings, signature, shares), in order.
    pub proofs: Vec<ProofKind<'a>>,
    /// The claimant of a forfeit, as written ([`Ending::Forfeit`]).
    pub claimant: Option<&'a str>,
}

/// The lists of a [`Line`] kept from line to line by a replay, empty,
/// so that reading a turn into a line allocates nothing once they have
/// grown ([`Line::from_turn_in`], [`LineRoom::keep`]).
#[derive(Debug, Default)]
pub(super) struct LineRoom {
    entries: Vec<Entry<'static>>,
    proofs: Vec<ProofKind<'static>>,
}

impl LineRoom {
    /// Keep the lists of `line`, once it is played, for the next line.
    #[inline]
    pub(super) fn keep(&mut self, line: Line<'_>) {
        self.entries = emptied(line.entries);
        // A plain line's proofs never had room.
        if line.proofs.capacity() > 0 {
            self.proofs = emptied(line.proofs);
        }
    }
}

/// `list` emptied, as a list of another lifetime: collecting an empty
/// list's iterator into a list of the same layout takes over its
/// allocation (the standard library collects in place), so the room
/// stays.
fn emptied<T, U>(mut list: Vec<T>) -> Vec<U> {
    list.clear();
    list.into_iter().filter_map(|_| None).collect()
}

impl<'a> Line<'a> {
    /// The line a parsed turn says. Entry `k` is the turn's item `k`.
    pub fn from_turn(turn: &'a Turn<'_>) -> Self {
        Self::from_turn_in(turn, &mut LineRoom::default())
    }

    /// [`Line::from_turn`], its lists taken from `room` (see
    /// [`LineRoom::keep`] to give them back).
    pub(super) fn from_turn_in(turn: &'a Turn<'_>, room: &mut LineRoom) -> Self {
        let mut entries: Vec<Entry<'a>> = std::mem::take(&mut room.entries);
        entries.extend(turn.items.iter().map(|item| match item.kind {
            ItemKind::Action => Entry::Action(Cow::Borrowed(item.text.as_ref())),
            ItemKind::Fact { label, value } => Entry::Fact { label, value },
        }));
        let mut proofs: Vec<ProofKind<'a>> = std::mem::take(&mut room.proofs);
        proofs.extend(turn.proofs.iter().map(|p| p.kind));
        Line {
            kind: turn.kind,
            number: turn.number,
            side: turn.side,
            entries,
            ending: if turn.forfeit.is_some() {
                Ending::Forfeit
            } else if turn.pass.is_some() {
                Ending::Pass
            } else if turn.resign.is_some() {
                Ending::Resign
            } else if let Some((draw, _)) = turn.draw {
                match draw {
                    DrawItem::Offer => Ending::Offer,
                    DrawItem::Accept => Ending::Accept,
                }
            } else if turn.audit.is_some() {
                Ending::Audit
            } else {
                Ending::Actions
            },
            proofs,
            claimant: turn.forfeit.map(|(_, side)| side),
        }
    }

    /// A line of `side` with these actions, ending as they say (`pass`
    /// when there are none), for a player's choice.
    pub fn of_actions(kind: LineKind, number: u32, side: &'a str, actions: &'a [String]) -> Self {
        Line {
            kind,
            number,
            side,
            entries: actions
                .iter()
                .map(|a| Entry::Action(Cow::Borrowed(a.as_str())))
                .collect(),
            ending: if actions.is_empty() && kind == LineKind::Turn {
                Ending::Pass
            } else {
                Ending::Actions
            },
            proofs: Vec::new(),
            claimant: None,
        }
    }

    /// The line's signature and its index among the proofs, if it
    /// carries one.
    #[inline]
    pub fn sig(&self) -> Option<(usize, [u8; 64])> {
        self.proofs.iter().enumerate().find_map(|(k, p)| match p {
            ProofKind::Sign(s) => Some((k, *s)),
            _ => None,
        })
    }

    /// The line's canonical text, as its seal covers it (spec section
    /// 3.8): its items in order, each with its runs of white space made
    /// one space, `pass`, `resign`, `audit` or `forfeit claimed by
    /// <claimant>` where they stand, joined by `, `; then each proof item
    /// but the signature on a line of its own (`\n` before it), its
    /// words separated by one space, hex in lower case. `claimant` is the
    /// claimant's name in canonical case.
    pub fn sealed_text(&self, claimant: Option<&str>) -> String {
        let mut out = String::new();
        self.sealed_text_into(claimant, &mut out);
        out
    }

    /// [`Line::sealed_text`], written at the end of `out`.
    pub fn sealed_text_into(&self, claimant: Option<&str>, out: &mut String) {
        // A share's item is some 270 bytes, a card of a pass some 140.
        out.reserve(64 + 280 * self.proofs.len());
        let start = out.len();
        let item = |out: &mut String, words: &mut dyn Iterator<Item = &str>| {
            if out.len() > start {
                out.push_str(", ");
            }
            let mut first = true;
            for w in words {
                if !first {
                    out.push(' ');
                }
                out.push_str(w);
                first = false;
            }
        };
        for entry in &self.entries {
            match entry {
                Entry::Action(text) => item(out, &mut text.split_whitespace()),
                Entry::Fact { label, value } => {
                    item(out, &mut [*label].into_iter());
                    out.push('=');
                    out.push_str(value);
                }
            }
        }
        let claim;
        let ending: &[&str] = match self.ending {
            Ending::Actions => &[],
            Ending::Pass => &["pass"],
            Ending::Resign => &["resign"],
            Ending::Offer => &["offer", "draw"],
            Ending::Accept => &["accept", "draw"],
            Ending::Audit => &["audit"],
            Ending::Forfeit => {
                claim = ["forfeit", "claimed", "by", claimant.unwrap_or_default()];
                &claim
            }
        };
        if !ending.is_empty() {
            item(out, &mut ending.iter().copied());
        }
        for proof in &self.proofs {
            sealed_proof(proof, out);
        }
    }

    /// The line's reveal and its index among the proofs, if it carries one.
    #[inline]
    pub fn reveal(&self) -> Option<(usize, Hash)> {
        self.proofs.iter().enumerate().find_map(|(k, p)| match p {
            ProofKind::Reveal(h) => Some((k, *h)),
            _ => None,
        })
    }

    /// The actions of the line with their entry indices (facts left out).
    pub fn actions(&self) -> impl Iterator<Item = (usize, &str)> {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(k, e)| match e {
                Entry::Action(text) => Some((k, text.as_ref())),
                Entry::Fact { .. } => None,
            })
    }

    /// The line's `date` item and its index among the proofs, if it has
    /// one.
    pub fn date(&self) -> Option<(usize, crate::record::Day)> {
        self.proofs.iter().enumerate().find_map(|(k, p)| match p {
            ProofKind::Date(day) => Some((k, *day)),
            _ => None,
        })
    }

    /// `resign` alone, without actions, facts or proofs.
    pub fn is_bare_resign(&self) -> bool {
        self.ending == Ending::Resign && self.entries.is_empty() && self.proofs.is_empty()
    }
}

/// A proof item as the canonical text holds it: `\n`, then its words.
fn sealed_proof(proof: &ProofKind<'_>, out: &mut String) {
    let words: (&str, &[&str], &[&[u8]]) = match proof {
        ProofKind::Sign(_) => return,
        ProofKind::Date(day) => {
            let _ = write!(out, "\ndate {day}");
            return;
        }
        ProofKind::Reveal(h) => ("reveal", &[], &[h]),
        ProofKind::Commit { slot, digest } => ("commit", &[slot], &[digest]),
        ProofKind::Open { slot, value, salt } => ("open", &[slot, value], &[salt]),
        ProofKind::Share {
            position,
            share,
            proof,
        } => {
            let _ = write!(out, "\nshare {position}");
            for value in [&share[..], &proof[..]] {
                out.push(' ');
                hex_digits::push(out, value);
            }
            return;
        }
        ProofKind::CardKey { key, proof } => ("cardkey", &[], &[key, proof]),
        ProofKind::Deck { position, card } => {
            let _ = write!(out, "\ndeck {position} ");
            hex_digits::push(out, card);
            return;
        }
        ProofKind::CardSecret(x) => ("cardsecret", &[], &[x]),
    };
    let (word, names, values) = words;
    out.push('\n');
    out.push_str(word);
    for name in names {
        out.push(' ');
        out.push_str(name);
    }
    for value in values {
        out.push(' ');
        hex_digits::push(out, value);
    }
}

/// A proof item of the shared deck that a played line carried: kept as
/// read, written as text only when asked for ([`DeckItem::text`]); a
/// replay plays many lines whose text nobody asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeckItem {
    /// An item that holds no text of the record: a share, a card of a
    /// pass, a card key or a card secret.
    Item(ProofKind<'static>),
    /// Any other (a pass's commitment or seed opening), as written.
    Text(String),
}

impl DeckItem {
    /// The deck item `proof`.
    pub fn new(proof: &ProofKind<'_>) -> DeckItem {
        match *proof {
            ProofKind::Share {
                position,
                share,
                proof,
            } => DeckItem::Item(ProofKind::Share {
                position,
                share,
                proof,
            }),
            ProofKind::Deck { position, card } => {
                DeckItem::Item(ProofKind::Deck { position, card })
            }
            ProofKind::CardKey { key, proof } => DeckItem::Item(ProofKind::CardKey { key, proof }),
            ProofKind::CardSecret(x) => DeckItem::Item(ProofKind::CardSecret(x)),
            _ => {
                let mut text = String::new();
                write_proof(proof, &mut text);
                DeckItem::Text(text)
            }
        }
    }

    /// The item as [`write_proof`] writes it.
    pub fn text(&self) -> String {
        match self {
            DeckItem::Item(proof) => {
                let mut text = String::new();
                write_proof(proof, &mut text);
                text
            }
            DeckItem::Text(text) => text.clone(),
        }
    }
}

/// What one played turn did.
#[derive(Clone, Debug)]
pub struct PlayedTurn<G: Game> {
    /// Turn number.
    pub number: u32,
    /// Who played it.
    pub side: Side,
    /// The position after settlement and the turn's start, before its first
    /// action; `None` when the referee was told not to keep it
    /// ([`super::Keep`]).
    pub before: Option<Box<G::State>>,
    /// The actions made, in order.
    pub actions: Vec<G::Action>,
    /// The line ended with `resign`.
    pub resign: bool,
    /// The line ended with `offer draw` or `accept draw`.
    pub draw: Option<DrawItem>,
    /// Chance values derived on this turn (settled events first).
    pub chance: Vec<ChanceEvent>,
    /// The reveal the line carried.
    pub reveal: Option<Hash>,
    /// A set-up line or a turn.
    pub kind: LineKind,
    /// The line was a closing line of openings.
    pub audit: bool,
    /// The line was a farewell line (spec section 3.9): no actions, the
    /// position unchanged.
    pub farewell: bool,
    /// The commitments and openings the line carried.
    pub shown: Vec<Shown>,
    /// The side that claimed this side's forfeit, for a forfeit line.
    pub claimant: Option<Side>,
    /// The line's signature, if it carried one (written last).
    pub sig: Option<[u8; 64]>,
    /// The shared deck's proof items the line carried (spec section
    /// 3.9), in the order written ([`DeckItem::text`]: as
    /// [`write_proof`] writes it).
    pub deck: Vec<DeckItem>,
    /// The day the line was written, if it carried a date (spec section
    /// 3.8).
    pub date: Option<crate::record::Day>,
}

impl<G: Game> PlayedTurn<G> {
    /// Whether the game played this line: not a closing line of openings
    /// nor a farewell line, which leave the position as it was and have
    /// no comment.
    pub fn is_played(&self) -> bool {
        !self.audit && !self.farewell
    }

    /// A turn of `side` numbered `number` from `before` that has done
    /// nothing yet.
    pub(super) fn blank(number: u32, side: Side, before: Option<Box<G::State>>) -> Self {
        PlayedTurn {
            number,
            side,
            before,
            actions: Vec::new(),
            resign: false,
            draw: None,
            chance: Vec::new(),
            reveal: None,
            kind: LineKind::Turn,
            audit: false,
            farewell: false,
            shown: Vec::new(),
            claimant: None,
            sig: None,
            deck: Vec::new(),
            date: None,
        }
    }

    /// Make this a turn of `side` numbered `number` that has done nothing
    /// yet but derive the chance it holds, as [`PlayedTurn::blank`]
    /// without a position before, keeping the room its lists have (a
    /// replay plays every line into one).
    #[inline]
    pub(super) fn begin(&mut self, number: u32, side: Side) {
        self.number = number;
        self.side = side;
        self.before = None;
        self.actions.clear();
        self.resign = false;
        self.draw = None;
        self.reveal = None;
        self.kind = LineKind::Turn;
        self.audit = false;
        self.farewell = false;
        self.shown.clear();
        self.claimant = None;
        self.sig = None;
        self.deck.clear();
        self.date = None;
    }

    /// The turn as herald writes it: chance facts, canonical actions,
    /// `resign`, and the reveal if the line carried one. The one place a
    /// played line is rendered.
    pub fn text(&self) -> TurnText {
        TurnText {
            number: self.number,
            side: self.side.name::<G>().into(),
            facts: self
                .chance
                .iter()
                .map(|c| (c.label.to_owned(), c.text.clone()))
                .collect(),
            actions: self.actions.iter().map(action_text::<G>).collect(),
            setup: self.kind == LineKind::Setup,
            resign: self.resign,
            draw: self.draw,
            audit: self.audit,
            forfeit: self.claimant.map(|c| c.name::<G>().to_owned()),
            reveal: self.reveal,
            proofs: self
                .date
                .map(|day| {
                    let mut text = String::new();
                    write_proof(&ProofKind::Date(day), &mut text);
                    text
                })
                .into_iter()
                .chain(self.proof_texts())
                .chain(self.sig.map(|s| {
                    let mut text = String::new();
                    write_proof(&ProofKind::Sign(s), &mut text);
                    text
                }))
                .collect(),
            comment: None,
        }
    }

    /// The line without its signature, for a line that has one (a dry
    /// run shows it: herald signs only a line it writes); None for an
    /// unsigned line.
    pub fn unsigned_line(&self) -> Option<String> {
        self.sig?;
        let mut text = self.text();
        // The signature is the last proof item.
        text.proofs.pop();
        let mut out = String::new();
        write_turn(&text, &mut out);
        Some(out)
    }

    /// The line as herald writes it into a record: [`PlayedTurn::text`]
    /// written by [`write_turn`], each of its lines ended.
    pub fn line(&self) -> String {
        let mut out = String::new();
        write_turn(&self.text(), &mut out);
        out
    }

    /// The commitments, openings and deck items, in the order of spec
    /// section 3.9: card key, commitments, deck, shares, openings, card
    /// secret.
    fn proof_texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self
            .shown
            .iter()
            .map(|p| {
                let mut text = String::new();
                p.write(&mut text);
                text
            })
            .chain(self.deck.iter().map(DeckItem::text))
            .collect();
        if !self.deck.is_empty() {
            let rank = |text: &String| {
                let word = text.split_whitespace().next().unwrap_or("");
                ["cardkey", "commit", "deck", "share", "open", "cardsecret"]
                    .iter()
                    .position(|w| *w == word)
                    .unwrap_or(6)
            };
            texts.sort_by_key(rank);
        }
        texts
    }

    /// The line's items as one text (`rally=heads, B1-B2` or `pass`), as
    /// `replay` and `annotate` show it.
    pub fn body(&self) -> String {
        self.text().body()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{parse_lines, Source};

    fn sealed(text: &str, claimant: Option<&str>) -> String {
        let source = Source::typed(text);
        let (turns, _) = parse_lines(&source).unwrap();
        Line::from_turn(&turns[0]).sealed_text(claimant)
    }

    #[test]
    fn a_line_read_into_the_room_of_another_is_the_line_read_alone() {
        let reveal = "22".repeat(32);
        let texts = [
            format!("1. Blue: a1-a2, rally=heads, b2-b3\n    reveal {reveal}\n"),
            "2. Red: pass\n".to_owned(),
            format!("3. Blue: c3-c4, resign\n    reveal {reveal}\n    commit x {reveal}\n"),
        ];
        let mut room = LineRoom::default();
        for text in &texts {
            let source = Source::typed(text);
            let (turns, _) = parse_lines(&source).unwrap();
            let line = Line::from_turn_in(&turns[0], &mut room);
            assert_eq!(line, Line::from_turn(&turns[0]));
            room.keep(line);
            assert!(room.entries.is_empty() && room.proofs.is_empty());
        }
        // The lists keep their room: the next line allocates nothing.
        assert!(room.entries.capacity() >= 3 && room.proofs.capacity() >= 2);
    }

    #[test]
    fn the_canonical_text_reads_through_wrapping_comments_and_spacing() {
        // The example of spec section 3.8, re-wrapped by a mail client.
        let ones = "11".repeat(32);
        let text = format!(
            "7. Human: rally=heads ,  B1-B2, rally {{a comment}} Dwarf\n    @C1\n    reveal {}\n    {}\n",
            &ones[..20],
            &ones[20..]
        );
        assert_eq!(
            sealed(&text, None),
            format!("rally=heads, B1-B2, rally Dwarf @C1\nreveal {ones}")
        );
    }

    #[test]
    fn the_canonical_text_leaves_out_the_signature_and_names_the_claimant() {
        let sig = "ab".repeat(64);
        let text = format!("3. Blue: forfeit claimed by red\n    sig {sig}\n");
        assert_eq!(sealed(&text, Some("Red")), "forfeit claimed by Red");
        let text = format!("4. Red: Kc9-b9, RESIGN\n    sig {sig}\n");
        assert_eq!(sealed(&text, None), "Kc9-b9, resign");
        let text = "S1. A:\n    commit x 0000000000000000000000000000000000000000000000000000000000000000\n";
        assert_eq!(
            sealed(text, None),
            format!("\ncommit x {}", "00".repeat(32))
        );
    }
}
