//! Hidden hands from a shared deck (spec section 3.9): mental poker
//! without a dealer, for two to four players, in the style of
//! Barnett and Smart. ElGamal on Ristretto255 (curve25519-dalek).
//!
//! - [`CardSecret`], [`CardKey`], [`KeyProof`]: a player's card key
//!   pair, derived from its key file, and the Schnorr proof that it
//!   knows the secret (the `cardkey` proof item);
//! - [`Table`]: the game id, the players' keys, their sum (the joint
//!   key) and the card points;
//! - [`Ciphertext`], [`Deck`]: the masked cards at their positions;
//! - [`ShuffleSeed`], [`shuffle`], [`audit_pass`]: a player's pass over
//!   a deck (a permutation and a new mask for every card, both derived
//!   from a committed seed) and its recomputation at the audit;
//! - [`Share`]: a decryption share with its Chaum-Pedersen proof (the
//!   `share` proof item), which also opens a played card;
//! - [`Hand`]: one of the deck's players, a hand (numbered by its
//!   holder's place in header order among the holders); [`Hands`]: which
//!   hand drew which position, and what was opened;
//! - [`schedule`]: which lines carry keys, passes and shares;
//! - [`DeckLedger`]: a game's deck as its record builds it, line by
//!   line, with the audit;
//! - [`cardkey_item`], [`deck_item`], [`share_item`],
//!   [`cardsecret_item`]: the proof items' canonical text.
//!
//! Every secret is derived from the key file's secret with SHA-512 and
//! reduced modulo the group order: the protocol itself uses no random
//! source, so a key file is all a player needs to write its lines and to
//! open its seeds at the audit.

mod cipher;
mod hands;
mod items;
mod keys;
mod ledger;
pub mod schedule;
mod share;
mod shuffle;

#[cfg(test)]
mod ledger_tests;
#[cfg(test)]
mod tests;

pub use cipher::{card_point, Ciphertext, Deck};
pub use hands::{Hand, Hands, Play, PlayFault};
pub use items::{cardkey_item, cardsecret_item, deck_item, share_item};
pub use keys::{CardKey, CardSecret, KeyProof, Table};
pub use ledger::{DeckLedger, PassSource};
pub use share::{
    batch_seed, batch_weight, first_bad, verify_batch, Share, ShareCheck,
    PROOF_LEN as SHARE_PROOF_LEN,
};
pub use shuffle::{
    audit_pass, shuffle, shuffle_slot, AuditFault, PublishedPass, SeedOpening, ShuffleSeed,
};

use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use sha2::{Digest, Sha512};

const DOMAIN_CARD_KEY: &[u8] = b"herald/card-key/v1";
const DOMAIN_CARD_KEY_NONCE: &[u8] = b"herald/card-key-nonce/v1";
const DOMAIN_CARD_KEY_PROOF: &[u8] = b"herald/card-key-proof/v1";
const DOMAIN_CARD: &[u8] = b"herald/card/v1";
const DOMAIN_SHUFFLE_SEED: &[u8] = b"herald/shuffle-seed/v1";
const DOMAIN_SHUFFLE_MASK: &[u8] = b"herald/shuffle-mask/v1";
const DOMAIN_SHARE_NONCE: &[u8] = b"herald/card-share-nonce/v1";
const DOMAIN_SHARE: &[u8] = b"herald/card-share/v1";
const DOMAIN_SHARE_BATCH: &[u8] = b"herald/card-share-batch/v1";

/// Why a deck item does not verify, or cannot be used where it stands.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DeckError {
    /// 32 bytes that are not the canonical encoding of a Ristretto255
    /// point (what: `card key`, `share`, `card`).
    BadPoint(&'static str),
    /// A card key that is the group's identity (it would hide nothing).
    IdentityKey,
    /// A Schnorr proof that does not show knowledge of the side's card
    /// secret.
    BadKeyProof(String),
    /// A share whose Chaum-Pedersen proof fails: not the side's share
    /// of that card.
    BadShare {
        /// The side that published it.
        side: String,
        /// The deck position.
        position: u32,
    },
    /// A published card secret that is not the secret of the side's
    /// card key.
    WrongSecret(String),
    /// Two players gave the same card key.
    SharedKey(String),
    /// A deck position that does not exist (yet).
    NoPosition(u32),
    /// A share for one position given twice, or a side's share missing.
    Shares {
        /// The deck position.
        position: u32,
        /// What is wrong with its shares.
        reason: String,
    },
    /// The shares open the position to no card of this game.
    NoCard(u32),
}

impl std::fmt::Display for DeckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeckError::BadPoint(what) => {
                write!(f, "the {what} is not a valid Ristretto255 point")
            }
            DeckError::IdentityKey => write!(f, "the card key is the identity, which hides nothing"),
            DeckError::BadKeyProof(side) => write!(
                f,
                "{side}'s card key proof does not verify: {side} did not show it knows the secret"
            ),
            DeckError::BadShare { side, position } => write!(
                f,
                "{side}'s share for deck position {position} does not verify against {side}'s card key"
            ),
            DeckError::WrongSecret(side) => {
                write!(f, "{side}'s card secret does not match its card key")
            }
            DeckError::SharedKey(side) => {
                write!(f, "{side}'s card key is another player's card key")
            }
            DeckError::NoPosition(p) => write!(f, "deck position {p} is not in the deck"),
            DeckError::Shares { position, reason } => {
                write!(f, "deck position {position}: {reason}")
            }
            DeckError::NoCard(p) => {
                write!(f, "deck position {p} opens to no card of this game")
            }
        }
    }
}

impl std::error::Error for DeckError {}

/// A running SHA-512 of the parts given: a scalar from it, or its bytes.
struct Wide(Sha512);

impl Wide {
    fn new(domain: &[u8]) -> Wide {
        let mut h = Sha512::new();
        h.update(domain);
        Wide(h)
    }

    fn put(mut self, bytes: &[u8]) -> Wide {
        self.0.update(bytes);
        self
    }

    /// `u32be(len(bytes)) || bytes`.
    fn put_lp(self, bytes: &[u8]) -> Wide {
        self.put(&(bytes.len() as u32).to_be_bytes()).put(bytes)
    }

    fn put_u32(self, n: u32) -> Wide {
        self.put(&n.to_be_bytes())
    }

    fn put_point(self, p: &RistrettoPoint) -> Wide {
        self.put(p.compress().as_bytes())
    }

    fn bytes(self) -> [u8; 64] {
        let mut out = [0u8; 64];
        out.copy_from_slice(&self.0.finalize());
        out
    }

    /// The 64-byte digest read as a little-endian number modulo the
    /// group order.
    fn scalar(self) -> Scalar {
        Scalar::from_bytes_mod_order_wide(&self.bytes())
    }
}

/// The point these 32 bytes encode, if they are a canonical encoding.
fn decode_point(bytes: &[u8; 32], what: &'static str) -> Result<RistrettoPoint, DeckError> {
    CompressedRistretto(*bytes)
        .decompress()
        .ok_or(DeckError::BadPoint(what))
}

/// The scalar these 32 bytes encode, if canonical (below the order).
fn decode_scalar(bytes: &[u8]) -> Option<Scalar> {
    let mut b = [0u8; 32];
    b.copy_from_slice(bytes);
    Option::from(Scalar::from_canonical_bytes(b))
}

/// A proof `c || s` (two canonical scalars) as its 64 bytes.
fn proof_bytes(c: &Scalar, s: &Scalar) -> [u8; 64] {
    let mut out = [0u8; 64];
    out[..32].copy_from_slice(c.as_bytes());
    out[32..].copy_from_slice(s.as_bytes());
    out
}

/// The two scalars of a proof `c || s`, if both are canonical.
fn proof_scalars(bytes: &[u8; 64]) -> Option<(Scalar, Scalar)> {
    Some((decode_scalar(&bytes[..32])?, decode_scalar(&bytes[32..])?))
}
