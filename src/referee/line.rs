//! A line of the log as the referee plays it, and a line once played.
//!
//! A [`Line`] holds what a turn line says (its number, side, facts and
//! actions as text, how it ends, its proof items) and nothing about where
//! it stands in a text: the record replay makes one from a parsed
//! [`Turn`], self-play and `move` from a player's choice.

use std::borrow::Cow;

use super::ChanceEvent;
use crate::fairness::Hash;
use crate::game::{action_text, Game, Side};
use crate::record::{write_proof, ItemKind, LineKind, ProofKind, Turn, TurnText};

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
    /// `audit`: a closing line of openings once the rules ended the game.
    Audit,
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
}

impl<'a> Line<'a> {
    /// The line a parsed turn says. Entry `k` is the turn's item `k`.
    pub fn from_turn(turn: &'a Turn<'_>) -> Self {
        Line {
            kind: turn.kind,
            number: turn.number,
            side: turn.side,
            entries: turn
                .items
                .iter()
                .map(|item| match item.kind {
                    ItemKind::Action => Entry::Action(Cow::Borrowed(item.text.as_ref())),
                    ItemKind::Fact { label, value } => Entry::Fact { label, value },
                })
                .collect(),
            ending: if turn.pass.is_some() {
                Ending::Pass
            } else if turn.resign.is_some() {
                Ending::Resign
            } else if turn.audit.is_some() {
                Ending::Audit
            } else {
                Ending::Actions
            },
            proofs: turn.proofs.iter().map(|p| p.kind).collect(),
        }
    }

    /// The line's reveal and its index among the proofs, if it carries one.
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

    /// `resign` alone, without actions, facts or a reveal: the form of a
    /// forfeit (spec section 3.1), written by another player for a side
    /// that stopped answering.
    pub fn is_bare_resign(&self) -> bool {
        self.ending == Ending::Resign && self.entries.is_empty() && self.proofs.is_empty()
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
    /// action.
    pub before: G::State,
    /// The actions made, in order.
    pub actions: Vec<G::Action>,
    /// The line ended with `resign`.
    pub resign: bool,
    /// Chance values derived on this turn (settled events first).
    pub chance: Vec<ChanceEvent>,
    /// The reveal the line carried.
    pub reveal: Option<Hash>,
    /// A set-up line or a turn.
    pub kind: LineKind,
    /// The line was a closing line of openings.
    pub audit: bool,
    /// The commitments and openings the line carried.
    pub shown: Vec<Shown>,
}

impl<G: Game> PlayedTurn<G> {
    /// A turn of `side` numbered `number` from `before` that has done
    /// nothing yet.
    pub(super) fn blank(number: u32, side: Side, before: G::State) -> Self {
        PlayedTurn {
            number,
            side,
            before,
            actions: Vec::new(),
            resign: false,
            chance: Vec::new(),
            reveal: None,
            kind: LineKind::Turn,
            audit: false,
            shown: Vec::new(),
        }
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
            audit: self.audit,
            reveal: self.reveal,
            proofs: self
                .shown
                .iter()
                .map(|p| {
                    let mut text = String::new();
                    p.write(&mut text);
                    text
                })
                .collect(),
            comment: None,
        }
    }

    /// The line's items as one text (`rally=heads, B1-B2` or `pass`), as
    /// `replay` and `annotate` show it.
    pub fn body(&self) -> String {
        self.text().body()
    }
}
