//! A player's pass over a deck: a permutation and a new mask for every
//! card, both derived from a seed the player commits to on the pass
//! line and opens at the audit, which recomputes the pass (spec section
//! 3.9, "Passes" and "The audit").

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use sha2::{Digest, Sha256};

use super::cipher::{Ciphertext, Deck};
use super::keys::Table;
use super::{Wide, DOMAIN_SHUFFLE_MASK, DOMAIN_SHUFFLE_SEED};
use crate::fairness::{slot_commitment, Hash, Sampler};

/// The slot under which a side commits to its pass seed of deck
/// `generation` (0 for the first deck, 1 for the first reshuffle, ...):
/// `shuffle-0`, `shuffle-1`, ... (spec section 3.7's commitments).
pub fn shuffle_slot(generation: u32) -> String {
    format!("shuffle-{generation}")
}

/// The 32-byte seed of one pass. A player's own is derived from its key
/// file: `SHA-256("herald/shuffle-seed/v1" || game_id || secret ||
/// lp(side) || u32be(generation))`; at the audit it is read from its
/// opening.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ShuffleSeed {
    bytes: Hash,
}

impl std::fmt::Debug for ShuffleSeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Secret until the audit.
        f.write_str("ShuffleSeed(..)")
    }
}

impl ShuffleSeed {
    /// The seed of `side`'s pass over deck `generation` of game `game`,
    /// from the key file's `secret`.
    pub fn derive(secret: &Hash, game: &Hash, side: &str, generation: u32) -> ShuffleSeed {
        let mut h = Sha256::new();
        h.update(DOMAIN_SHUFFLE_SEED);
        h.update(game);
        h.update(secret);
        h.update((side.len() as u32).to_be_bytes());
        h.update(side.as_bytes());
        h.update(generation.to_be_bytes());
        ShuffleSeed {
            bytes: h.finalize().into(),
        }
    }

    /// The seed of `side`'s pass over deck `generation` of game `game`
    /// (spec section 3.9), derived from the secret of its key file
    /// `wallet`.
    pub fn of(
        wallet: &crate::wallet::Wallet,
        game: &Hash,
        side: &str,
        generation: u32,
    ) -> ShuffleSeed {
        ShuffleSeed::derive(wallet.secret(), game, side, generation)
    }

    /// The seed an opening gives: its value, 64 lower-case hex digits.
    pub fn from_value(value: &str) -> Option<ShuffleSeed> {
        if value.len() != 64 || value.bytes().any(|b| b.is_ascii_uppercase()) {
            return None;
        }
        let mut bytes = [0u8; 32];
        hex::decode_to_slice(value, &mut bytes).ok()?;
        Some(ShuffleSeed { bytes })
    }

    /// The seed as the value of its opening: 64 lower-case hex digits.
    pub fn value(&self) -> String {
        hex::encode(self.bytes)
    }

    /// The commitment to the seed, as in spec section 3.7: slot
    /// [`shuffle_slot`], value [`ShuffleSeed::value`], and the side's
    /// salt for that slot (`fairness::slot_salt`).
    pub fn commitment(&self, game: &Hash, side: &str, generation: u32, salt: &Hash) -> Hash {
        slot_commitment(game, side, &shuffle_slot(generation), salt, &self.value())
    }

    /// The permutation of a pass over `n` cards: the card at position
    /// `j` after the pass is the one at `perm[j]` before it. Spec 3.5's
    /// shuffle of `n` from this seed.
    pub fn permutation(&self, n: u32) -> Vec<u32> {
        Sampler::new(&self.bytes).shuffle(n)
    }

    /// The new mask of the card put at offset `j` of the deck:
    /// `wide(SHA-512("herald/shuffle-mask/v1" || seed || u32be(j)))`.
    pub fn mask(&self, j: u32) -> Scalar {
        Wide::new(DOMAIN_SHUFFLE_MASK)
            .put(&self.bytes)
            .put_u32(j)
            .scalar()
    }
}

/// A pass over `input`: the card at offset `j` of the result is the card
/// at offset `perm[j]` of the input, masked once more with `mask(j)`
/// under the joint key. The result keeps the input's positions.
pub fn shuffle(table: &Table, input: &Deck, seed: &ShuffleSeed) -> Deck {
    let perm = seed.permutation(input.len() as u32);
    let input_cards = input.cards();
    let cards = perm
        .iter()
        .enumerate()
        .filter_map(|(j, &from)| {
            let card = input_cards.get(from as usize)?;
            Some(card.remask(&seed.mask(j as u32), table.joint()))
        })
        .collect();
    Deck::from_cards(input.base(), cards)
}

/// A pass as it was published: the side, the deck generation, the
/// commitment on its line and the deck it wrote.
#[derive(Clone, Debug)]
pub struct PublishedPass {
    /// The side that wrote the pass.
    pub side: String,
    /// The deck generation (0: the first deck).
    pub generation: u32,
    /// Its `commit shuffle-<generation>` value.
    pub commitment: Hash,
    /// The deck it published.
    pub output: Deck,
}

/// The opening of a pass seed at the audit: `open shuffle-<g> <value>
/// <salt>`.
#[derive(Clone, Debug)]
pub struct SeedOpening {
    /// The value as written (64 lower-case hex digits).
    pub value: String,
    /// The salt.
    pub salt: Hash,
}

/// What the audit of a pass found wrong: the first check that failed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AuditFault {
    /// The opening does not match the commitment on the pass line (or
    /// its value is not a seed).
    Commitment,
    /// The pass has another number of cards than the deck it was over.
    Size {
        /// Cards in the deck before the pass.
        expected: usize,
        /// Cards the pass published.
        found: usize,
    },
    /// The pass starts at another position than the deck it was over.
    Misnumbered {
        /// The deck's first position.
        expected: u32,
        /// The pass's first position.
        found: u32,
    },
    /// The card at `position` is no card of the deck before the pass,
    /// masked as the seed says: a card was swapped for another.
    Foreign {
        /// The deck position.
        position: u32,
    },
    /// The card at `position` is the same card as at `first`: a card
    /// duplicated (and so another dropped).
    Duplicated {
        /// The deck position.
        position: u32,
        /// The earlier position holding the same card.
        first: u32,
    },
    /// The card at `position` is a card of the deck, but not the one the
    /// seed's permutation puts there: a stacked deck.
    Moved {
        /// The deck position.
        position: u32,
    },
}

impl std::fmt::Display for AuditFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AuditFault::Commitment => {
                write!(f, "the opened shuffle seed does not match its commitment")
            }
            AuditFault::Size { expected, found } => write!(
                f,
                "the pass has {found} cards but the deck before it had {expected}"
            ),
            AuditFault::Misnumbered { expected, found } => write!(
                f,
                "the pass starts at deck position {found} but the deck before it at {expected}"
            ),
            AuditFault::Foreign { position } => write!(
                f,
                "deck position {position} holds a card that the seed does not put there \
                 and that is no card of the deck before the pass"
            ),
            AuditFault::Duplicated { position, first } => write!(
                f,
                "deck position {position} holds the same card as position {first}: \
                 a card was duplicated and another dropped"
            ),
            AuditFault::Moved { position } => write!(
                f,
                "deck position {position} holds another card than the seed puts there: \
                 the deck was stacked"
            ),
        }
    }
}

/// The seed `opening` gives for `pass`, if it opens the pass's
/// commitment ([`audit_pass`]'s first check).
pub(super) fn opened_seed(
    table: &Table,
    pass: &PublishedPass,
    opening: &SeedOpening,
) -> Result<ShuffleSeed, AuditFault> {
    let slot = shuffle_slot(pass.generation);
    let opens = slot_commitment(
        table.game(),
        &pass.side,
        &slot,
        &opening.salt,
        &opening.value,
    ) == pass.commitment;
    ShuffleSeed::from_value(&opening.value)
        .filter(|_| opens)
        .ok_or(AuditFault::Commitment)
}

/// Recompute a published pass over `input` from its opened seed: the
/// seed must open the commitment on the pass line, and the deck the
/// pass published must be exactly [`shuffle`] of `input` with it.
/// Where it is not, the fault names the first position that differs
/// and what it holds.
pub fn audit_pass(
    table: &Table,
    input: &Deck,
    pass: &PublishedPass,
    opening: &SeedOpening,
) -> Result<(), AuditFault> {
    let seed = opened_seed(table, pass, opening)?;
    if pass.output.len() != input.len() {
        return Err(AuditFault::Size {
            expected: input.len(),
            found: pass.output.len(),
        });
    }
    if pass.output.base() != input.base() {
        return Err(AuditFault::Misnumbered {
            expected: input.base(),
            found: pass.output.base(),
        });
    }
    // The audit recomputes every pass of the game: the table of
    // multiples of the joint key pays for itself.
    table.joint().prepare();
    // A pass kept as its bytes ([`Deck::vouched`]) is decoded here; its
    // record digest was checked with it, so it decodes (were it not to,
    // its first card is named as foreign).
    let foreign = AuditFault::Foreign {
        position: input.base(),
    };
    let (Ok(inputs), Ok(outputs)) = (input.checked_cards(), pass.output.checked_cards()) else {
        return Err(foreign);
    };
    let expected = shuffle(table, input, &seed);
    let Some(j) = (0..inputs.len()).find(|&j| expected.cards().get(j) != outputs.get(j)) else {
        return Ok(());
    };
    let position = input.base() + j as u32;
    // Which card of the input each published card is, its mask taken off.
    let sources: Vec<Option<usize>> = outputs
        .iter()
        .enumerate()
        .map(|(k, card)| source(table, input, card, &seed.mask(k as u32)))
        .collect();
    let Some(from) = sources[j] else {
        return Err(AuditFault::Foreign { position });
    };
    match (0..input.len()).find(|&k| k != j && sources[k] == Some(from)) {
        Some(k) => Err(AuditFault::Duplicated {
            position: input.base() + j.max(k) as u32,
            first: input.base() + j.min(k) as u32,
        }),
        None => Err(AuditFault::Moved { position }),
    }
}

/// The offset of the card of `input` that `card` is, masked with `r`.
fn source(table: &Table, input: &Deck, card: &Ciphertext, r: &Scalar) -> Option<usize> {
    let c1 = card.c1() - RistrettoPoint::mul_base(r);
    let c2 = card.c2() - table.joint().times(r);
    input
        .cards()
        .iter()
        .position(|c| c.c1() == &c1 && c.c2() == &c2)
}
