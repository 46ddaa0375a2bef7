//! Card keys: a player's secret scalar, its public key, the Schnorr
//! proof that the player knows the secret, and the table of a game's
//! keys (spec section 3.9, "Card keys").

use std::sync::{Arc, OnceLock};

use curve25519_dalek::ristretto::{RistrettoBasepointTable, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;

use super::cipher::{card_point, Ciphertext};
use super::{
    decode_point, decode_scalar, proof_bytes, proof_scalars, DeckError, Wide, DOMAIN_CARD_KEY,
    DOMAIN_CARD_KEY_NONCE, DOMAIN_CARD_KEY_PROOF,
};
use crate::fairness::Hash;

/// A player's card secret `x` in one game, derived from its key file:
/// `x = wide(SHA-512("herald/card-key/v1" || game_id || secret ||
/// lp(side)))`. Never printed, never sent.
#[derive(Clone)]
pub struct CardSecret {
    scalar: Scalar,
    public: CardKey,
    game: Hash,
    side: String,
}

impl std::fmt::Debug for CardSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the secret.
        f.debug_struct("CardSecret")
            .field("side", &self.side)
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

/// A player's public card key `X = x * B`: a Ristretto255 point other
/// than the identity.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CardKey {
    point: RistrettoPoint,
    /// `enc(X)`, which every proof by this key hashes.
    bytes: [u8; 32],
}

/// A Schnorr proof of knowledge of a card secret, `c || s` (64 bytes):
/// the second half of the `cardkey <64 hex> <128 hex>` proof item.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct KeyProof([u8; 64]);

impl CardSecret {
    /// The card secret of `side` in the game `game`, from the key file's
    /// 32-byte `secret`.
    pub fn derive(secret: &Hash, game: &Hash, side: &str) -> CardSecret {
        let scalar = Wide::new(DOMAIN_CARD_KEY)
            .put(game)
            .put(secret)
            .put_lp(side.as_bytes())
            .scalar();
        let point = RistrettoPoint::mul_base(&scalar);
        CardSecret {
            scalar,
            public: CardKey {
                point,
                bytes: point.compress().to_bytes(),
            },
            game: *game,
            side: side.into(),
        }
    }

    /// The card secret of `side` in game `game` (spec section 3.9),
    /// derived from the secret of its key file `wallet`: never printed,
    /// never written into a record.
    pub fn of(wallet: &crate::wallet::Wallet, game: &Hash, side: &str) -> CardSecret {
        CardSecret::derive(wallet.secret(), game, side)
    }

    /// The secret as a side that leaves the game publishes it (the
    /// proof item `cardsecret <64 hex>`): `x`, 32 bytes little-endian.
    /// Once it is public anybody makes that side's shares, and the
    /// others' hands stay hidden by their own secrets.
    pub fn revealed(&self) -> [u8; 32] {
        self.scalar.to_bytes()
    }

    /// The secret a side published on leaving: `x` must be below the
    /// group order and `x * B` its card key. With it, any reader makes
    /// that side's shares (with their proofs) with [`CardSecret::share`].
    pub fn from_revealed(
        bytes: &[u8; 32],
        game: &Hash,
        side: &str,
        key: &CardKey,
    ) -> Result<CardSecret, DeckError> {
        let scalar = decode_scalar(bytes)
            .filter(|x| RistrettoPoint::mul_base(x) == key.point)
            .ok_or_else(|| DeckError::WrongSecret(side.into()))?;
        Ok(CardSecret {
            scalar,
            public: *key,
            game: *game,
            side: side.into(),
        })
    }

    /// The public card key.
    pub fn public(&self) -> CardKey {
        self.public
    }

    /// The side whose secret this is.
    pub fn side(&self) -> &str {
        &self.side
    }

    /// The game id it was derived for.
    pub fn game(&self) -> &Hash {
        &self.game
    }

    pub(super) fn scalar(&self) -> &Scalar {
        &self.scalar
    }

    /// The Schnorr proof that the player knows `x` (deterministic):
    /// `k = wide(SHA-512("herald/card-key-nonce/v1" || x || game_id ||
    /// lp(side)))`, `R = k * B`, `c = key_challenge(R)`, `s = k + c * x`.
    pub fn prove(&self) -> KeyProof {
        let k = Wide::new(DOMAIN_CARD_KEY_NONCE)
            .put(self.scalar.as_bytes())
            .put(&self.game)
            .put_lp(self.side.as_bytes())
            .scalar();
        let r = RistrettoPoint::mul_base(&k);
        let c = key_challenge(&self.game, &self.side, &self.public.bytes, &r);
        KeyProof(proof_bytes(&c, &(k + c * self.scalar)))
    }

    /// The plaintext point under a ciphertext, given the other players'
    /// verified shares of it: `C2 - (sum of their shares) - x * C1`. Only
    /// the player to whom the missing share belongs can compute it.
    pub fn unmask(&self, card: &Ciphertext, others: &[RistrettoPoint]) -> RistrettoPoint {
        let theirs: RistrettoPoint = others.iter().sum();
        card.c2() - theirs - self.scalar * card.c1()
    }
}

/// `c = wide(SHA-512("herald/card-key-proof/v1" || game_id || lp(side)
/// || X || R))`.
fn key_challenge(game: &Hash, side: &str, key: &[u8; 32], r: &RistrettoPoint) -> Scalar {
    Wide::new(DOMAIN_CARD_KEY_PROOF)
        .put(game)
        .put_lp(side.as_bytes())
        .put(key)
        .put_point(r)
        .scalar()
}

impl CardKey {
    /// The key from its 32-byte encoding: a canonical Ristretto255
    /// encoding of a point other than the identity.
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<CardKey, DeckError> {
        let point = decode_point(bytes, "card key")?;
        if point == RistrettoPoint::identity() {
            return Err(DeckError::IdentityKey);
        }
        Ok(CardKey {
            point,
            bytes: *bytes,
        })
    }

    /// The key's 32-byte encoding.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.bytes
    }

    pub(super) fn point(&self) -> &RistrettoPoint {
        &self.point
    }

    /// `enc(X)`.
    pub(super) fn bytes(&self) -> &[u8; 32] {
        &self.bytes
    }

    /// Whether `proof` shows that `side` knows this key's secret in game
    /// `game`: `c` and `s` canonical and `c = key_challenge(s * B - c *
    /// X)`.
    pub fn verify(&self, game: &Hash, side: &str, proof: &KeyProof) -> Result<(), DeckError> {
        let bad = || DeckError::BadKeyProof(side.into());
        let (c, s) = proof_scalars(&proof.0).ok_or_else(bad)?;
        let r = RistrettoPoint::vartime_double_scalar_mul_basepoint(&-c, &self.point, &s);
        if key_challenge(game, side, &self.bytes, &r) == c {
            Ok(())
        } else {
            Err(bad())
        }
    }
}

impl KeyProof {
    /// The proof from its 64 bytes (checked when verified).
    pub fn from_bytes(bytes: [u8; 64]) -> KeyProof {
        KeyProof(bytes)
    }

    /// Its 64 bytes, `c || s`.
    pub fn to_bytes(&self) -> [u8; 64] {
        self.0
    }
}

/// What every player knows of a game's deck: the game id, the sides in
/// turn order with their verified card keys, the joint key (their sum)
/// and the points of the physical cards.
///
/// The sides and the card points are shared by the table's clones: the
/// ledger is copied for every line played (the copy kept once the line
/// is good), and the table never changes once made.
#[derive(Clone, Debug)]
pub struct Table {
    game: Hash,
    sides: Arc<[(String, CardKey)]>,
    joint: JointKey,
    cards: Arc<[RistrettoPoint]>,
    /// The card points' encodings, each made when first needed (an
    /// unmasked deck's bytes, [`Table::card_bytes`]): once a game, not
    /// once a reshuffle.
    card_bytes: Arc<[OnceLock<[u8; 32]>]>,
}

/// The joint key `Y`, and for the audit a table of its multiples
/// (shared by the table's clones): every pass multiplies `Y` by a new
/// mask for every card. With the table a multiplication costs about
/// half as much, but making the table costs about as much as thirty of
/// them: worth it for the audit, which recomputes every pass of the
/// game, not for the one pass a player makes at a time.
#[derive(Clone)]
pub(super) struct JointKey {
    point: RistrettoPoint,
    table: Arc<OnceLock<RistrettoBasepointTable>>,
}

impl std::fmt::Debug for JointKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("JointKey").field(&self.point).finish()
    }
}

impl JointKey {
    fn new(point: RistrettoPoint) -> JointKey {
        JointKey {
            point,
            table: Arc::new(OnceLock::new()),
        }
    }

    /// `r * Y`, by the table once it is made (in constant time either
    /// way: a player's masks are secret until the audit).
    pub(super) fn times(&self, r: &Scalar) -> RistrettoPoint {
        match self.table.get() {
            Some(table) => r * table,
            None => r * self.point,
        }
    }

    /// Make the table of multiples of `Y`, if it is not made yet.
    pub(super) fn prepare(&self) {
        self.table
            .get_or_init(|| RistrettoBasepointTable::create(&self.point));
    }
}

impl Table {
    /// The table of game `game` with `cards` physical cards (indices `0
    /// .. cards`) and these sides, in turn order, each with its card key
    /// and proof. Every proof is verified; a key given twice is refused
    /// (a player copying another's key could open nothing, but nor could
    /// anybody else).
    pub fn new(
        game: &Hash,
        cards: u32,
        sides: &[(&str, CardKey, KeyProof)],
    ) -> Result<Table, DeckError> {
        let mut verified: Vec<(String, CardKey)> = Vec::with_capacity(sides.len());
        for (side, key, proof) in sides {
            key.verify(game, side, proof)?;
            if verified.iter().any(|(_, k)| k == key) {
                return Err(DeckError::SharedKey((*side).into()));
            }
            verified.push(((*side).into(), *key));
        }
        Ok(Table {
            game: *game,
            joint: JointKey::new(verified.iter().map(|(_, k)| k.point).sum()),
            sides: verified.into(),
            cards: (0..cards).map(|i| card_point(game, i)).collect(),
            card_bytes: (0..cards).map(|_| OnceLock::new()).collect(),
        })
    }

    /// The game id.
    pub fn game(&self) -> &Hash {
        &self.game
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.sides.len()
    }

    /// The `i`-th side in turn order and its card key.
    pub fn side(&self, i: usize) -> Option<(&str, &CardKey)> {
        self.sides.get(i).map(|(s, k)| (s.as_str(), k))
    }

    /// The index of `side` in turn order.
    pub fn index(&self, side: &str) -> Option<usize> {
        self.sides.iter().position(|(s, _)| s == side)
    }

    /// The joint key's 32-byte encoding.
    pub fn joint_key(&self) -> [u8; 32] {
        self.joint.point.compress().to_bytes()
    }

    pub(super) fn joint(&self) -> &JointKey {
        &self.joint
    }

    /// The number of physical cards.
    pub fn cards(&self) -> u32 {
        self.cards.len() as u32
    }

    pub(super) fn card(&self, index: u32) -> Option<&RistrettoPoint> {
        self.cards.get(index as usize)
    }

    /// The encoding of the point of physical card `index`, made once.
    pub(super) fn card_bytes(&self, index: u32) -> Option<[u8; 32]> {
        let point = self.cards.get(index as usize)?;
        let bytes = self.card_bytes.get(index as usize)?;
        Some(*bytes.get_or_init(|| point.compress().to_bytes()))
    }

    /// The index of the physical card whose point is `point`, if any.
    pub fn card_index(&self, point: &RistrettoPoint) -> Option<u32> {
        self.cards.iter().position(|c| c == point).map(|i| i as u32)
    }

    /// [`Table::card_index`], the cards `likely` compared first (an
    /// opened card: those of its deck not opened yet), then every card:
    /// the same answer, since the card points are distinct (each the
    /// one-way map of a different SHA-512 digest), in fewer comparisons
    /// when the card is among `likely`. The order of the comparisons,
    /// which the time taken shows, is safe to choose by the card: an
    /// opened card is public, and an early stop already showed where it
    /// was found. (Each comparison costs about a twentieth of encoding
    /// the point to look it up by its bytes, so a short list is the
    /// cheaper way.)
    pub fn card_index_among(&self, point: &RistrettoPoint, likely: &[u32]) -> Option<u32> {
        likely
            .iter()
            .copied()
            .find(|&i| self.card(i) == Some(point))
            .or_else(|| self.card_index(point))
    }
}
