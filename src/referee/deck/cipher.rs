//! Cards as points, ElGamal ciphertexts and decks (spec section 3.9,
//! "Cards and the deck").

use std::sync::{Arc, OnceLock};

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;

use super::keys::{JointKey, Table};
use super::{decode_point, DeckError, Wide, DOMAIN_CARD};
use crate::fairness::Hash;

/// The point of physical card `index` in game `game`: Ristretto255's
/// one-way map (RFC 9496, `from_uniform_bytes`) of
/// `SHA-512("herald/card/v1" || game_id || u32be(index))`.
pub fn card_point(game: &Hash, index: u32) -> RistrettoPoint {
    RistrettoPoint::from_uniform_bytes(&Wide::new(DOMAIN_CARD).put(game).put_u32(index).bytes())
}

/// An ElGamal ciphertext `(C1, C2)` under the joint key `Y`: a card `M`
/// masked with `r` is `(r * B, M + r * Y)`. 64 bytes: the two points'
/// encodings, `C1` first.
#[derive(Clone, Copy, Debug)]
pub struct Ciphertext {
    c1: RistrettoPoint,
    c2: RistrettoPoint,
    /// `enc(C1)` when the ciphertext was read from its bytes: every
    /// share's proof of the card hashes it, and encoding a point costs
    /// about as much as a share's other hashing and arithmetic together.
    c1_bytes: Option<[u8; 32]>,
}

impl PartialEq for Ciphertext {
    fn eq(&self, other: &Ciphertext) -> bool {
        self.c1 == other.c1 && self.c2 == other.c2
    }
}

impl Eq for Ciphertext {}

impl Ciphertext {
    /// The card `point` masked with nothing: `(identity, M)`, as it
    /// stands in a deck before the first pass.
    pub fn open(point: RistrettoPoint) -> Ciphertext {
        Ciphertext {
            c1: RistrettoPoint::identity(),
            c2: point,
            // The identity's encoding: 32 zero bytes.
            c1_bytes: Some([0; 32]),
        }
    }

    /// The ciphertext masked once more with `r` under `joint`:
    /// `(C1 + r * B, C2 + r * Y)`.
    pub(super) fn remask(&self, r: &Scalar, joint: &JointKey) -> Ciphertext {
        Ciphertext {
            c1: self.c1 + RistrettoPoint::mul_base(r),
            c2: self.c2 + joint.times(r),
            c1_bytes: None,
        }
    }

    /// The ciphertext from its 64 bytes (both halves canonical
    /// encodings).
    pub fn from_bytes(bytes: &[u8; 64]) -> Result<Ciphertext, DeckError> {
        let c1_bytes = Half::C1.of(bytes);
        Ok(Ciphertext {
            c1: decode_point(&c1_bytes, "card")?,
            c2: decode_point(&Half::C2.of(bytes), "card")?,
            c1_bytes: Some(c1_bytes),
        })
    }

    /// Its 64 bytes: `C1 || C2`.
    pub fn to_bytes(&self) -> [u8; 64] {
        let mut out = [0u8; 64];
        out[..32].copy_from_slice(&self.c1_bytes());
        out[32..].copy_from_slice(self.c2.compress().as_bytes());
        out
    }

    pub(super) fn c1(&self) -> &RistrettoPoint {
        &self.c1
    }

    pub(super) fn c2(&self) -> &RistrettoPoint {
        &self.c2
    }

    /// `enc(C1)`.
    pub(super) fn c1_bytes(&self) -> [u8; 32] {
        self.c1_bytes
            .unwrap_or_else(|| self.c1.compress().to_bytes())
    }
}

/// A half of a ciphertext's 64 bytes: `enc(C1)`, the first 32, or
/// `enc(C2)`.
#[derive(Clone, Copy)]
enum Half {
    C1,
    C2,
}

impl Half {
    /// This half of `bytes`.
    fn of(self, bytes: &[u8; 64]) -> [u8; 32] {
        let from = match self {
            Half::C1 => 0,
            Half::C2 => 32,
        };
        let mut half = [0u8; 32];
        half.copy_from_slice(&bytes[from..from + 32]);
        half
    }
}

/// One deck: ciphertexts at consecutive positions `base .. base + len`,
/// the top card at `base`. Positions count across the game: the first
/// deck starts at 0, a reshuffled discard pile right after the last
/// position of the deck before it.
///
/// A deck read from a pass line the reader checked before (its record
/// digest vouches for it, [`Deck::vouched`]) is kept as its 64 bytes a
/// card and decoded only when a card of it is first needed (a share, an
/// opening, a pass over it, the audit): most passes are never needed
/// again in a replay from the remembered digest, and an opening whose
/// shares are vouched for too decodes only its card's `C2` ([`Deck::c2`]).
///
/// A deck of a past generation is [compacted](Deck::compact) the same
/// way: kept as its 64 bytes a card (a fifth of its decoded size), which
/// is what keeps a long game's memory flat (the closing audit needs
/// every pass of the game).
#[derive(Clone, Debug)]
pub struct Deck {
    base: u32,
    /// The cards as published, for a vouched deck, a pass read and
    /// checked ([`Deck::checked`]) or a deck compacted (empty for a deck
    /// made from its points and not compacted).
    packed: Vec<[u8; 64]>,
    /// Whether the deck was read from a line a record digest vouches for
    /// ([`Deck::vouched`]): only then is [`Deck::published_c2`] given.
    vouched: bool,
    /// The cards decoded (at once for a deck made from points or read
    /// and checked; on first use for a vouched one): or why they cannot
    /// be.
    cards: OnceLock<Result<Vec<Ciphertext>, DeckError>>,
    /// A reshuffled discard pile holding cards opened on vouched lines
    /// and not decrypted ([`Deck::from_discards`]): the table and the
    /// pile, which give the cards when first needed.
    discards: Option<Arc<(Table, Vec<Discard>)>>,
}

/// A card in the discard pile: the physical card, or, for a card opened
/// on a line a record digest the reader checked before vouches for, what
/// opening it takes ([`Sealed`]): not decrypted until a reshuffled deck
/// made from it is needed (a pass composed over it, the audit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Discard {
    Card(u32),
    Sealed(Arc<Sealed>),
}

/// A card opened on a vouched line and not decrypted: its deck position,
/// `enc(C2)` of its final ciphertext, and every side's share `enc(D)`.
/// It was opened, each share verified, when the reader checked the line
/// before; decrypting it gives that card again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sealed {
    pub position: u32,
    pub c2: [u8; 32],
    pub shares: Vec<[u8; 32]>,
}

impl Sealed {
    /// The physical card: `C2` minus the shares, found among the table's
    /// cards.
    pub fn card(&self, table: &Table) -> Result<u32, DeckError> {
        let mut point = decode_point(&self.c2, "card")?;
        for share in &self.shares {
            point -= decode_point(share, "share")?;
        }
        table
            .card_index(&point)
            .ok_or(DeckError::NoCard(self.position))
    }
}

impl PartialEq for Deck {
    fn eq(&self, other: &Deck) -> bool {
        self.base == other.base && self.try_cards() == other.try_cards()
    }
}

impl Eq for Deck {}

impl Deck {
    /// The deck before its first pass: the physical cards `cards` (all
    /// `0 .. n` for the first deck, the discard pile in the order its
    /// cards were discarded for a reshuffle), unmasked, from position
    /// `base` on. `None` if an index is not a card of the table.
    ///
    /// Its bytes are kept with it (the identity's encoding, 32 zero
    /// bytes, and the card's, which the table makes once a game), so
    /// that [compacting](Deck::compact) it encodes no point.
    pub fn unmasked(table: &Table, base: u32, cards: &[u32]) -> Option<Deck> {
        let mut points = Vec::with_capacity(cards.len());
        let mut bytes = Vec::with_capacity(cards.len());
        for &i in cards {
            points.push(Ciphertext::open(*table.card(i)?));
            let mut card = [0u8; 64];
            card[32..].copy_from_slice(&table.card_bytes(i)?);
            bytes.push(card);
        }
        Some(Deck::checked(base, points, bytes))
    }

    /// The deck before the first pass over a reshuffled discard pile
    /// `pile`, as [`Deck::unmasked`] makes it: a pile holding a card
    /// opened on a vouched line and not decrypted ([`Discard::Sealed`])
    /// is decrypted when the deck's cards are first needed. `None` if an
    /// index is not a card of the table.
    pub fn from_discards(table: &Table, base: u32, pile: &[Discard]) -> Option<Deck> {
        let cards: Option<Vec<u32>> = pile
            .iter()
            .map(|d| match d {
                Discard::Card(i) => Some(*i),
                Discard::Sealed(_) => None,
            })
            .collect();
        if let Some(cards) = cards {
            return Deck::unmasked(table, base, &cards);
        }
        if pile
            .iter()
            .any(|d| matches!(d, Discard::Card(i) if table.card(*i).is_none()))
        {
            return None;
        }
        Some(Deck {
            base,
            packed: Vec::new(),
            vouched: false,
            cards: OnceLock::new(),
            discards: Some(Arc::new((table.clone(), pile.to_vec()))),
        })
    }

    /// A deck as published: these ciphertexts from position `base` on.
    pub fn from_cards(base: u32, cards: Vec<Ciphertext>) -> Deck {
        Deck {
            base,
            packed: Vec::new(),
            vouched: false,
            cards: OnceLock::from(Ok(cards)),
            discards: None,
        }
    }

    /// A deck as published and read: its cards decoded (`cards`) and
    /// the bytes they were read from (`bytes`, the same cards), kept for
    /// when the deck is [compacted](Deck::compact).
    pub fn checked(base: u32, cards: Vec<Ciphertext>, bytes: Vec<[u8; 64]>) -> Deck {
        debug_assert_eq!(cards.len(), bytes.len());
        Deck {
            base,
            packed: bytes,
            vouched: false,
            cards: OnceLock::from(Ok(cards)),
            discards: None,
        }
    }

    /// The deck kept in its smallest form: its cards as their 64 bytes
    /// (encoded now if the deck was made from points), decoded again
    /// only when a card of it is needed (an opening decodes its card's
    /// `C2` alone, [`Deck::c2`]). A deck of cards that do not decode, or
    /// a reshuffled pile not decrypted yet (already small: the cards'
    /// numbers), stays as it is.
    pub fn compact(&mut self) {
        if self.packed.is_empty() {
            let Some(Ok(cards)) = self.cards.get() else {
                return;
            };
            self.packed = cards.iter().map(Ciphertext::to_bytes).collect();
        }
        self.discards = None;
        self.cards = OnceLock::new();
    }

    /// The deck's digest: SHA-256 of its first position and its cards'
    /// 64 bytes in order (encoded now if the deck was made from points):
    /// what a ledger keeps of a past pass ([`super::DeckLedger::read_again`]),
    /// to know the deck again when it is rebuilt or read again. `None`
    /// for a deck whose cards do not decode.
    pub fn digest(&self) -> Option<Hash> {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(b"herald/deck-digest/v1");
        h.update(self.base.to_be_bytes());
        if !self.packed.is_empty() {
            for card in &self.packed {
                h.update(card);
            }
        } else {
            for card in self.try_cards().ok()? {
                h.update(card.to_bytes());
            }
        }
        Some(h.finalize().into())
    }

    /// The card at `position` alone, as its 64 bytes (decoded when first
    /// needed): what a ledger keeps of a past deck's card still held in
    /// a hand.
    pub fn single(position: u32, bytes: [u8; 64]) -> Deck {
        Deck {
            base: position,
            packed: vec![bytes],
            vouched: false,
            cards: OnceLock::new(),
            discards: None,
        }
    }

    /// The card at `position` as its 64 bytes, if the deck holds it and
    /// its cards decode.
    pub fn card_bytes(&self, position: u32) -> Option<[u8; 64]> {
        let i = self.index(position).ok()?;
        if self.cards.get().is_none() {
            if let Some(bytes) = self.packed.get(i) {
                return Some(*bytes);
            }
        }
        self.try_cards().ok()?.get(i).map(Ciphertext::to_bytes)
    }

    /// A deck as published, from its cards' bytes, read again (decoded
    /// now): an error if a card is not a point.
    pub fn read(base: u32, bytes: Vec<[u8; 64]>) -> Result<Deck, DeckError> {
        let cards = bytes
            .iter()
            .map(Ciphertext::from_bytes)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Deck::checked(base, cards, bytes))
    }

    /// The bytes of card data the deck holds: 64 a card kept as bytes,
    /// and the size of a decoded card for each decoded one.
    pub fn held_bytes(&self) -> usize {
        let decoded = match self.cards.get() {
            Some(Ok(cards)) => cards.len() * std::mem::size_of::<Ciphertext>(),
            _ => 0,
        };
        self.packed.len() * 64 + decoded
    }

    /// Whether the deck is kept as its bytes alone, not decoded (or is a
    /// reshuffled pile not decrypted yet: its cards' numbers).
    pub fn is_compact(&self) -> bool {
        self.cards.get().is_none() && (!self.packed.is_empty() || self.discards.is_some())
    }

    /// A deck as published, from its cards' bytes, which a record digest
    /// the reader checked before vouches for: kept as they are, decoded
    /// when first needed.
    pub fn vouched(base: u32, cards: Vec<[u8; 64]>) -> Deck {
        Deck {
            base,
            packed: cards,
            vouched: true,
            cards: OnceLock::new(),
            discards: None,
        }
    }

    /// The cards decoded, decoding them if this is their first use.
    fn try_cards(&self) -> Result<&[Ciphertext], &DeckError> {
        self.cards
            .get_or_init(|| match &self.discards {
                Some(discards) => {
                    let (table, pile) = &**discards;
                    pile.iter()
                        .map(|d| {
                            let i = match d {
                                Discard::Card(i) => *i,
                                Discard::Sealed(sealed) => sealed.card(table)?,
                            };
                            let point = table.card(i).ok_or(DeckError::NoCard(self.base))?;
                            Ok(Ciphertext::open(*point))
                        })
                        .collect()
                }
                None => self.packed.iter().map(Ciphertext::from_bytes).collect(),
            })
            .as_deref()
    }

    /// `enc(C2)` of the card at `position`, as published, for a
    /// [vouched](Deck::vouched) deck (`None` for another).
    pub fn published_c2(&self, position: u32) -> Option<[u8; 32]> {
        if !self.vouched {
            return None;
        }
        let i = self.index(position).ok()?;
        Some(Half::C2.of(self.packed.get(i)?))
    }

    /// The first position.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        match (self.cards.get(), &self.discards) {
            (Some(Ok(cards)), _) => cards.len(),
            (_, Some(discards)) => discards.1.len(),
            _ => self.packed.len(),
        }
    }

    /// Whether the deck has no cards.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position after the last card.
    pub fn end(&self) -> u32 {
        self.base.saturating_add(self.len() as u32)
    }

    /// The ciphertext at `position` (a vouched deck that does not decode
    /// gives the card encoding's error).
    pub fn get(&self, position: u32) -> Result<&Ciphertext, DeckError> {
        let i = self.index(position)?;
        self.try_cards()
            .map_err(Clone::clone)?
            .get(i)
            .ok_or(DeckError::NoPosition(position))
    }

    /// `C1` of the ciphertext at `position` and its encoding, all a
    /// share's check needs of the card: of a deck kept as its bytes and
    /// not decoded (a past generation [compacted](Deck::compact), a
    /// [vouched](Deck::vouched) deck), only that half is decoded, not the
    /// whole deck (it does not decode: the card encoding's error).
    pub fn c1(&self, position: u32) -> Result<(RistrettoPoint, [u8; 32]), DeckError> {
        self.half(
            position,
            Half::C1,
            |card| (card.c1, card.c1_bytes()),
            |point, bytes| (point, bytes),
        )
    }

    /// `enc(C1)` of the ciphertext at `position`, what a share verified
    /// before is known by ([`super::Share`]'s `checked_against`): of a
    /// deck kept as its bytes and not decoded, those bytes, nothing
    /// decoded (a share verified against them had them decoded then).
    pub(super) fn c1_bytes(&self, position: u32) -> Result<[u8; 32], DeckError> {
        let i = self.index(position)?;
        if self.cards.get().is_some() || self.packed.is_empty() {
            return self.get(position).map(Ciphertext::c1_bytes);
        }
        Ok(Half::C1.of(&self.packed[i]))
    }

    /// `C2` of the ciphertext at `position`, all an opening whose shares
    /// a record digest vouches for needs of it: of a vouched deck not
    /// decoded yet, only that half is decoded (it does not decode: the
    /// card encoding's error).
    pub fn c2(&self, position: u32) -> Result<RistrettoPoint, DeckError> {
        self.half(position, Half::C2, |card| card.c2, |point, _| point)
    }

    /// A half of the ciphertext at `position`: `decoded` of the card of
    /// a deck whose cards are decoded (or that keeps no bytes); of a
    /// deck kept as its bytes, that half alone decoded, given to `read`
    /// with its encoding.
    fn half<T>(
        &self,
        position: u32,
        half: Half,
        decoded: impl FnOnce(&Ciphertext) -> T,
        read: impl FnOnce(RistrettoPoint, [u8; 32]) -> T,
    ) -> Result<T, DeckError> {
        let i = self.index(position)?;
        if self.cards.get().is_some() || self.packed.is_empty() {
            return self.get(position).map(decoded);
        }
        let bytes = half.of(&self.packed[i]);
        Ok(read(decode_point(&bytes, "card")?, bytes))
    }

    /// The index in the deck of `position`, if the deck holds it.
    fn index(&self, position: u32) -> Result<usize, DeckError> {
        position
            .checked_sub(self.base)
            .map(|i| i as usize)
            .filter(|&i| i < self.len())
            .ok_or(DeckError::NoPosition(position))
    }

    /// The ciphertexts, top first, or why they do not decode (only a
    /// [vouched](Deck::vouched) deck can fail to).
    pub fn checked_cards(&self) -> Result<&[Ciphertext], DeckError> {
        self.try_cards().map_err(Clone::clone)
    }

    /// The ciphertexts, top first: none for a [vouched](Deck::vouched)
    /// deck that does not decode (which its digest rules out: the reader
    /// checked it before).
    pub fn cards(&self) -> &[Ciphertext] {
        self.try_cards().unwrap_or(&[])
    }
}
