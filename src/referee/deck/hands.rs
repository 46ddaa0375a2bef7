//! Who drew which deck position, and which drawn cards were opened: the
//! checks on a played or discarded card (spec section 3.9, "Openings").

use std::collections::BTreeMap;

use super::cipher::Deck;
use super::keys::Table;
use super::share::Share;
use super::DeckError;

/// The positions drawn so far, each with its drawer (a side's index in
/// turn order) and, once opened, its card.
#[derive(Clone, Default, Debug)]
pub struct Hands {
    /// The positions drawn and not opened, with their drawers.
    held: BTreeMap<u32, usize>,
    /// By position, the drawer of each opened (plus one; 0 for a
    /// position not opened): one byte a position, however long the game.
    opened: Vec<u8>,
}

/// Why a played or discarded card is refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayFault {
    /// The position was never drawn.
    NotDrawn(u32),
    /// The position was drawn before.
    AlreadyDrawn(u32),
    /// The position was drawn by another side.
    NotYours {
        /// The position.
        position: u32,
        /// The side that drew it.
        drawer: String,
    },
    /// The card at the position was opened before (played or discarded).
    AlreadyOpened(u32),
    /// The position opens to another card than the one played.
    WrongCard {
        /// The position.
        position: u32,
        /// The card the line says was played.
        claimed: u32,
        /// The card the shares open.
        found: u32,
    },
    /// A share or the deck does not verify.
    Deck(DeckError),
}

impl std::fmt::Display for PlayFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayFault::NotDrawn(p) => write!(f, "deck position {p} was never drawn"),
            PlayFault::AlreadyDrawn(p) => write!(f, "deck position {p} was drawn before"),
            PlayFault::NotYours { position, drawer } => {
                write!(f, "deck position {position} is in {drawer}'s hand")
            }
            PlayFault::AlreadyOpened(p) => {
                write!(f, "the card at deck position {p} was opened before")
            }
            PlayFault::WrongCard {
                position,
                claimed,
                found,
            } => write!(
                f,
                "deck position {position} holds card {found}, not card {claimed}"
            ),
            PlayFault::Deck(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayFault {}

impl From<DeckError> for PlayFault {
    fn from(e: DeckError) -> Self {
        PlayFault::Deck(e)
    }
}

impl Hands {
    /// No draws yet.
    pub fn new() -> Hands {
        Hands::default()
    }

    /// Side `drawer` drew `position`. A position is drawn once.
    pub fn draw(&mut self, position: u32, drawer: usize) -> Result<(), PlayFault> {
        if self.drawer(position).is_some() {
            return Err(PlayFault::AlreadyDrawn(position));
        }
        self.held.insert(position, drawer);
        Ok(())
    }

    /// The drawer of `position`, if it was drawn.
    pub fn drawer(&self, position: u32) -> Option<usize> {
        self.held
            .get(&position)
            .copied()
            .or_else(|| self.opened_by(position))
    }

    /// The positions `side` holds: drawn and not opened.
    pub fn held(&self, side: usize) -> Vec<u32> {
        self.held
            .iter()
            .filter(|(_, d)| **d == side)
            .map(|(p, _)| *p)
            .collect()
    }

    /// Side `side` opens the card it holds at `position` (to play or
    /// discard it) with every side's share of it: the position must be
    /// in its hand. Returns the card the shares open; it is open from
    /// then on. Which card the line's actions spend is the referee's to
    /// match against it.
    pub fn open(
        &mut self,
        table: &Table,
        deck: &Deck,
        side: usize,
        position: u32,
        shares: &[(&str, &Share)],
    ) -> Result<u32, PlayFault> {
        self.holding(table, side, position)?;
        let found = Share::open(table, deck, position, shares)?;
        self.mark_opened(side, position);
        Ok(found)
    }

    /// Side `side` opens `position` on a line a record digest the reader
    /// checked before vouches for, without decrypting it
    /// ([`super::DeckLedger::open_vouched`]): the position must be in its
    /// hand, as for [`Hands::open`].
    pub fn open_vouched(
        &mut self,
        table: &Table,
        side: usize,
        position: u32,
    ) -> Result<(), PlayFault> {
        self.holding(table, side, position)?;
        self.mark_opened(side, position);
        Ok(())
    }

    /// Whether `side` holds `position`: drawn by it and not opened.
    /// The drawer of `position`, if it was opened.
    fn opened_by(&self, position: u32) -> Option<usize> {
        match self.opened.get(position as usize) {
            Some(&d) if d > 0 => Some(usize::from(d) - 1),
            _ => None,
        }
    }

    /// `position`, drawn by `side`, is opened.
    fn mark_opened(&mut self, side: usize, position: u32) {
        self.held.remove(&position);
        let at = position as usize;
        if self.opened.len() <= at {
            self.opened.resize(at + 1, 0);
        }
        self.opened[at] = u8::try_from(side + 1).unwrap_or(u8::MAX);
    }

    fn holding(&self, table: &Table, side: usize, position: u32) -> Result<(), PlayFault> {
        let opened = self.opened_by(position).is_some();
        let drawer = self.drawer(position).ok_or(PlayFault::NotDrawn(position))?;
        if drawer != side {
            let name = table.side(drawer).map_or("another side", |(s, _)| s);
            return Err(PlayFault::NotYours {
                position,
                drawer: name.into(),
            });
        }
        if opened {
            return Err(PlayFault::AlreadyOpened(position));
        }
        Ok(())
    }

    /// Side `side` plays (or discards) card `claimed` from `position`,
    /// opened by every side's share of it: the position must be in its
    /// hand and open to that card. On success the card is open.
    pub fn play(
        &mut self,
        table: &Table,
        deck: &Deck,
        play: Play,
        shares: &[(&str, &Share)],
    ) -> Result<(), PlayFault> {
        let Play {
            side,
            position,
            claimed,
        } = play;
        self.holding(table, side, position)?;
        let found = Share::open(table, deck, position, shares)?;
        if found != claimed {
            return Err(PlayFault::WrongCard {
                position,
                claimed,
                found,
            });
        }
        self.mark_opened(side, position);
        Ok(())
    }
}

/// A card played (or discarded): by which side (its index in turn
/// order), from which deck position, and which card the line says it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Play {
    /// The side's index in turn order.
    pub side: usize,
    /// The deck position the card was drawn from.
    pub position: u32,
    /// The physical card the line names.
    pub claimed: u32,
}
