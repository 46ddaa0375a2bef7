//! The deck of 34 battle cards, the hands and the discard pile, kept as
//! counts of each card. A draw names the card drawn
//! ([`Cards::take_from_deck`]): how it was learnt (a uniform draw from
//! the remaining deck by turn-start chance, with open hands) is not the
//! card model's business. With hidden hands (spec section 3.9) a draw
//! is an unseen card ([`Cards::draw_unseen`]), known once it is opened
//! ([`Cards::open_unseen`]); the deck then holds the cards nobody has
//! seen, the unseen cards in hands among them.

use std::fmt;

use crate::game::Side;

use crate::games::battlegates::pieces::characters::MAX_SIDES;

/// A battle card.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Card {
    /// Scale a Brick wall.
    Scale,
    /// Climb a gate.
    Climb,
    /// Move a Brick wall.
    MoveWall,
    /// Move a gate.
    MoveGate,
    /// Rotate 90 degrees.
    Rotate90,
    /// Rotate 180 degrees.
    Rotate180,
}

impl Card {
    /// Every card, in canonical order.
    pub const ALL: [Card; 6] = [
        Card::Scale,
        Card::Climb,
        Card::MoveWall,
        Card::MoveGate,
        Card::Rotate90,
        Card::Rotate180,
    ];

    /// How many of it the deck holds.
    pub const fn copies(self) -> u8 {
        match self {
            Card::Scale | Card::Climb => 6,
            Card::MoveWall | Card::MoveGate | Card::Rotate180 => 5,
            Card::Rotate90 => 7,
        }
    }

    /// Its word in the record: `scale`, `climb`, `move-wall`,
    /// `move-gate`, `rotate90`, `rotate180`.
    pub fn word(self) -> &'static str {
        match self {
            Card::Scale => "scale",
            Card::Climb => "climb",
            Card::MoveWall => "move-wall",
            Card::MoveGate => "move-gate",
            Card::Rotate90 => "rotate90",
            Card::Rotate180 => "rotate180",
        }
    }

    /// The card of a word (any case).
    pub fn from_word(w: &str) -> Option<Card> {
        Card::ALL
            .into_iter()
            .find(|c| c.word().eq_ignore_ascii_case(w))
    }

    /// Its letter in the position notation: `s c w g r t`.
    pub fn letter(self) -> char {
        match self {
            Card::Scale => 's',
            Card::Climb => 'c',
            Card::MoveWall => 'w',
            Card::MoveGate => 'g',
            Card::Rotate90 => 'r',
            Card::Rotate180 => 't',
        }
    }

    /// The card of a position letter.
    pub fn from_letter(c: char) -> Option<Card> {
        Card::ALL.into_iter().find(|k| k.letter() == c)
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Cards as counts of each kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Pile([u8; 6]);

impl Pile {
    /// The whole deck of 34.
    pub fn full() -> Pile {
        Pile(Card::ALL.map(Card::copies))
    }

    /// `decks` whole decks shuffled together (two: 68 cards).
    pub fn decks(decks: u8) -> Pile {
        Pile(Card::ALL.map(|c| c.copies() * decks))
    }

    /// How many cards.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// How many of `card`.
    pub fn count(&self, card: Card) -> u8 {
        self.0[card.index()]
    }

    /// Whether it holds `card`.
    pub fn holds(&self, card: Card) -> bool {
        self.count(card) > 0
    }

    /// Add one `card`.
    pub fn add(&mut self, card: Card) {
        self.0[card.index()] += 1;
    }

    /// Take one `card`; false when there is none.
    pub fn take(&mut self, card: Card) -> bool {
        let n = &mut self.0[card.index()];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        true
    }

    /// The card at position `i` when the pile is laid out in canonical
    /// order (every scale, then every climb, ...).
    pub fn nth(&self, i: u32) -> Option<Card> {
        let mut left = i;
        for card in Card::ALL {
            let n = u32::from(self.count(card));
            if left < n {
                return Some(card);
            }
            left -= n;
        }
        None
    }

    /// The cards, one entry per card, in canonical order.
    pub fn list(&self) -> Vec<Card> {
        Card::ALL
            .into_iter()
            .flat_map(|c| std::iter::repeat_n(c, usize::from(self.count(c))))
            .collect()
    }

    /// The distinct cards held, in canonical order.
    pub fn kinds(&self) -> impl Iterator<Item = Card> + '_ {
        Card::ALL.into_iter().filter(|c| self.holds(*c))
    }
}

/// Where every card is: the deck, the discard pile and each hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Cards {
    /// The deck to draw from.
    pub(in crate::games::battlegates) deck: Pile,
    /// The discard pile.
    pub(in crate::games::battlegates) discard: Pile,
    /// Each holder's hand, by side index (see `holders`).
    pub(in crate::games::battlegates) hands: [Pile; MAX_SIDES],
    /// With hidden hands, the cards of each hand not seen yet (still
    /// counted in the deck).
    unseen: [u8; MAX_SIDES],
    /// Whose hand each side plays from, by side index: itself, or the
    /// castle whose hand it shares (a four-castle team).
    holders: [u8; MAX_SIDES],
    /// How many whole decks the cards are (one, or two for four
    /// players).
    decks: u8,
    /// Hidden hands: the cards come from the shared deck of spec
    /// section 3.9, not from chance.
    hidden: bool,
}

impl Cards {
    /// A whole deck, empty hands.
    pub fn new() -> Cards {
        Cards::with_decks(1)
    }

    /// `decks` whole decks together, empty hands, each side holding its
    /// own.
    pub fn with_decks(decks: u8) -> Cards {
        Cards {
            deck: Pile::decks(decks),
            discard: Pile::default(),
            hands: [Pile::default(); MAX_SIDES],
            unseen: [0; MAX_SIDES],
            holders: [0, 1, 2, 3, 4, 5],
            decks,
            hidden: false,
        }
    }

    /// How many whole decks the cards are.
    pub fn decks(&self) -> u8 {
        self.decks
    }

    /// Every card of the game: the decks it was made of.
    pub fn all(&self) -> Pile {
        Pile::decks(self.decks)
    }

    /// `side` plays from `holder`'s hand from now on.
    pub fn share(&mut self, side: Side, holder: Side) {
        self.holders[usize::from(side) % MAX_SIDES] = holder.0;
    }

    /// The side whose hand `side` plays from.
    pub fn holder(&self, side: Side) -> Side {
        Side(self.holders[usize::from(side) % MAX_SIDES])
    }

    fn slot(&self, side: Side) -> usize {
        usize::from(self.holder(side).0) % MAX_SIDES
    }

    /// The hand of `side` goes on the discard pile (a castle of the
    /// solo game left without characters).
    pub fn give_up(&mut self, side: Side) {
        let i = self.slot(side);
        for card in self.hands[i].list() {
            self.discard.add(card);
        }
        self.hands[i] = Pile::default();
    }

    /// A whole deck, empty hands, with hidden hands: the draws come from
    /// the shared deck (spec section 3.9).
    pub fn hidden() -> Cards {
        Cards {
            hidden: true,
            ..Cards::new()
        }
    }

    /// These cards with hidden hands.
    pub fn into_hidden(self) -> Cards {
        Cards {
            hidden: true,
            ..self
        }
    }

    /// Whether the hands are hidden.
    pub fn is_hidden(&self) -> bool {
        self.hidden
    }

    /// How many unseen cards `side` holds (hidden hands).
    pub fn unseen(&self, side: Side) -> u8 {
        self.unseen[self.slot(side)]
    }

    /// How many cards are in `side`'s hand, seen or not.
    pub fn held(&self, side: Side) -> u32 {
        self.hand(side).total() + u32::from(self.unseen(side))
    }

    /// How many cards are left to draw: the deck less the unseen cards
    /// in hands.
    pub fn deck_count(&self) -> u32 {
        self.deck
            .total()
            .saturating_sub(self.unseen.iter().map(|&n| u32::from(n)).sum())
    }

    /// With hidden hands: `side` draws a card it alone sees. False when
    /// no card is left to draw.
    pub fn draw_unseen(&mut self, side: Side) -> bool {
        if self.deck_count() == 0 {
            return false;
        }
        let i = self.slot(side);
        self.unseen[i] += 1;
        true
    }

    /// With hidden hands: an unseen card of `side`'s hand turns out to be
    /// `card`. False when the hand holds no unseen card or the deck no
    /// such card.
    pub fn open_unseen(&mut self, side: Side, card: Card) -> bool {
        let i = self.slot(side);
        if self.unseen[i] == 0 || !self.take_from_deck(side, card) {
            return false;
        }
        self.unseen[i] -= 1;
        true
    }

    /// With hidden hands: the discard pile is shuffled into the deck
    /// (when the shared deck is reshuffled).
    pub fn reshuffle(&mut self) {
        for card in self.discard.list() {
            self.deck.add(card);
        }
        self.discard = Pile::default();
    }

    /// The hand of `side`.
    pub fn hand(&self, side: Side) -> &Pile {
        &self.hands[self.slot(side)]
    }

    /// Before a draw: an empty deck takes the discard pile as a new deck
    /// (drawing uniformly from it is shuffling it). False when there is
    /// no card to draw at all.
    pub fn ready_to_draw(&mut self) -> bool {
        if self.deck.total() == 0 {
            self.deck = self.discard;
            self.discard = Pile::default();
        }
        self.deck.total() > 0
    }

    /// Move `card` from the deck into `side`'s hand; false when the deck
    /// holds none.
    pub fn take_from_deck(&mut self, side: Side, card: Card) -> bool {
        if !self.deck.take(card) {
            return false;
        }
        let i = self.slot(side);
        self.hands[i].add(card);
        true
    }

    /// Move `card` from `side`'s hand to the discard pile (played or
    /// discarded); false when the hand holds none.
    pub fn spend(&mut self, side: Side, card: Card) -> bool {
        let i = self.slot(side);
        if !self.hands[i].take(card) {
            return false;
        }
        self.discard.add(card);
        true
    }
}

impl Default for Cards {
    fn default() -> Self {
        Cards::new()
    }
}
