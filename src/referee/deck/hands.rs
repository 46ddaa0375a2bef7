//! Who drew which deck position, and which drawn cards were opened: the
//! checks on a played or discarded card (spec section 3.9, "Openings").

use std::collections::BTreeMap;

use super::cipher::Deck;
use super::keys::Table;
use super::share::Share;
use super::DeckError;

/// One of the deck's hands: a player of its protocol (it gives a card
/// key, passes over decks, shares the cards the others draw, draws and
/// opens its own), numbered from 0 in the header order of the hands'
/// holders. The referee's table makes a side's [`Hand`] from its seat
/// (the hand it draws into: its own, or its ally's in Battlegates' four
/// castles), and the [`super::DeckLedger`] its own from the names it was
/// given; nothing else makes one, so a hand always names one of the
/// deck's players. Lists the deck keeps by player are indexed by
/// [`Hand::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hand(u8);

impl Hand {
    /// The hand's place among the deck's hands, from 0: its index into
    /// the lists kept by hand (and into the deck's [`super::Table`]).
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The hand at `index` among the deck's hands (at most 256: a hand
    /// is held by a side, and sides are `Side(u8)` values).
    #[inline]
    pub(in crate::referee) fn at(index: usize) -> Hand {
        Hand(u8::try_from(index).expect("a deck has at most 256 hands"))
    }

    /// Each of `n` hands, in order.
    pub(in crate::referee) fn all(n: usize) -> impl DoubleEndedIterator<Item = Hand> + Clone {
        (0..n).map(Hand::at)
    }
}

/// The positions drawn so far, each with its drawer and, once opened,
/// its card.
#[derive(Clone, Default, Debug)]
pub struct Hands {
    /// The positions drawn and not opened, with their drawers.
    held: BTreeMap<u32, Hand>,
    /// By position, the drawer of each opened (plus one; 0 for a
    /// position not opened): one byte a position, however long the game.
    /// Shared with the copies (a line is played on a copy of the
    /// ledger), copied only when a card is opened.
    opened: std::sync::Arc<Vec<u8>>,
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

    /// Hand `drawer` drew `position`. A position is drawn once.
    pub fn draw(&mut self, position: u32, drawer: Hand) -> Result<(), PlayFault> {
        if self.drawer(position).is_some() {
            return Err(PlayFault::AlreadyDrawn(position));
        }
        self.held.insert(position, drawer);
        Ok(())
    }

    /// The drawer of `position`, if it was drawn.
    pub fn drawer(&self, position: u32) -> Option<Hand> {
        self.held
            .get(&position)
            .copied()
            .or_else(|| self.opened_by(position))
    }

    /// The positions `hand` holds: drawn and not opened.
    pub fn held(&self, hand: Hand) -> Vec<u32> {
        self.held
            .iter()
            .filter(|(_, d)| **d == hand)
            .map(|(p, _)| *p)
            .collect()
    }

    /// Hand `hand` opens the card it holds at `position` (to play or
    /// discard it) with every hand's share of it: the position must be
    /// in it. Returns the card the shares open (looked for among the
    /// cards `likely` first, [`Share::open_among`]); it is open from
    /// then on. Which card the line's actions spend is the referee's to
    /// match against it.
    pub fn open(
        &mut self,
        table: &Table,
        deck: &Deck,
        hand: Hand,
        position: u32,
        shares: &[(&str, &Share)],
        likely: &[u32],
    ) -> Result<u32, PlayFault> {
        self.holding(table, hand, position)?;
        let found = Share::open_among(table, deck, position, shares, likely)?;
        self.mark_opened(hand, position);
        Ok(found)
    }

    /// Hand `hand` opens `position` on a line a record digest the reader
    /// checked before vouches for, without decrypting it
    /// ([`super::DeckLedger::open_vouched`]): the position must be in
    /// it, as for [`Hands::open`].
    pub fn open_vouched(
        &mut self,
        table: &Table,
        hand: Hand,
        position: u32,
    ) -> Result<(), PlayFault> {
        self.holding(table, hand, position)?;
        self.mark_opened(hand, position);
        Ok(())
    }

    /// The drawer of `position`, if it was opened.
    fn opened_by(&self, position: u32) -> Option<Hand> {
        match self.opened.get(position as usize) {
            Some(&d) if d > 0 => Some(Hand(d - 1)),
            _ => None,
        }
    }

    /// `position`, drawn by `hand`, is opened.
    fn mark_opened(&mut self, hand: Hand, position: u32) {
        self.held.remove(&position);
        let at = position as usize;
        let opened = std::sync::Arc::make_mut(&mut self.opened);
        if opened.len() <= at {
            opened.resize(at + 1, 0);
        }
        opened[at] = hand.0.saturating_add(1);
    }

    /// Whether `hand` holds `position`: drawn by it and not opened.
    fn holding(&self, table: &Table, hand: Hand, position: u32) -> Result<(), PlayFault> {
        let opened = self.opened_by(position).is_some();
        let drawer = self.drawer(position).ok_or(PlayFault::NotDrawn(position))?;
        if drawer != hand {
            let name = table
                .side(drawer.index())
                .map_or("another side", |(s, _)| s);
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

    /// Hand `hand` plays (or discards) card `claimed` from `position`,
    /// opened by every hand's share of it: the position must be in it
    /// and open to that card. On success the card is open.
    pub fn play(
        &mut self,
        table: &Table,
        deck: &Deck,
        play: Play,
        shares: &[(&str, &Share)],
    ) -> Result<(), PlayFault> {
        let Play {
            hand,
            position,
            claimed,
        } = play;
        self.holding(table, hand, position)?;
        let found = Share::open(table, deck, position, shares)?;
        if found != claimed {
            return Err(PlayFault::WrongCard {
                position,
                claimed,
                found,
            });
        }
        self.mark_opened(hand, position);
        Ok(())
    }
}

/// A card played (or discarded): from which hand, from which deck
/// position, and which card the line says it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Play {
    /// The hand it is played from.
    pub hand: Hand,
    /// The deck position the card was drawn from.
    pub position: u32,
    /// The physical card the line names.
    pub claimed: u32,
}
