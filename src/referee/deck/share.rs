//! Decryption shares with their Chaum-Pedersen proofs: how a drawn card
//! is shown to its drawer alone, and how a played card is opened to all
//! (spec section 3.9, "Draws" and "Openings").

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::VartimeMultiscalarMul;

use super::cipher::Deck;
use super::keys::{CardSecret, Table};
use super::{
    decode_point, proof_bytes, proof_scalars, DeckError, Wide, DOMAIN_SHARE, DOMAIN_SHARE_NONCE,
};
use crate::fairness::Hash;

/// A player's decryption share of the card at one deck position,
/// `D = x * C1`, with the proof that it used its card secret
/// (`log_B X = log_C1 D`): the proof item
/// `share <position> <D: 64 hex> <c || s: 128 hex>`.
#[derive(Clone, Copy, Debug)]
pub struct Share {
    position: u32,
    point: RistrettoPoint,
    /// `enc(D)`, as read or made.
    bytes: [u8; 32],
    proof: [u8; 64],
    /// The key `X` and the card's `C1` that the proof was verified
    /// against by [`Share::verified`], if it was: opening or drawing
    /// with the same key and card, it is not verified again.
    checked: Option<(RistrettoPoint, RistrettoPoint)>,
}

/// Shares are equal when their positions, points and proofs are: not
/// whether they were verified yet.
impl PartialEq for Share {
    fn eq(&self, other: &Share) -> bool {
        (self.position, self.bytes, self.proof) == (other.position, other.bytes, other.proof)
    }
}

impl Eq for Share {}

/// The values a share's proof is about, the points by their encodings
/// (the challenge hashes them, and a point kept with its encoding need
/// not be encoded again).
struct Statement<'a> {
    game: &'a Hash,
    side: &'a str,
    position: u32,
    key: &'a [u8; 32],
    c1: &'a [u8; 32],
    share: &'a [u8; 32],
}

impl Statement<'_> {
    /// `c = wide(SHA-512("herald/card-share/v1" || game_id || lp(side) ||
    /// u32be(position) || X || C1 || D || A1 || A2))`.
    fn challenge(&self, a1: &RistrettoPoint, a2: &RistrettoPoint) -> Scalar {
        Wide::new(DOMAIN_SHARE)
            .put(self.game)
            .put_lp(self.side.as_bytes())
            .put_u32(self.position)
            .put(self.key)
            .put(self.c1)
            .put(self.share)
            .put_point(a1)
            .put_point(a2)
            .scalar()
    }
}

impl CardSecret {
    /// This player's share of the card at `position` of `deck`, with its
    /// proof (deterministic): `k = wide(SHA-512("herald/card-share-nonce/v1"
    /// || x || game_id || lp(side) || u32be(position) || C1))`, `A1 = k *
    /// B`, `A2 = k * C1`, `s = k + c * x`.
    pub fn share(&self, deck: &Deck, position: u32) -> Result<Share, DeckError> {
        let card = deck.get(position)?;
        let (c1, c1_bytes) = (card.c1(), card.c1_bytes());
        let x = self.scalar();
        let point = x * c1;
        let bytes = point.compress().to_bytes();
        let k = Wide::new(DOMAIN_SHARE_NONCE)
            .put(x.as_bytes())
            .put(self.game())
            .put_lp(self.side().as_bytes())
            .put_u32(position)
            .put(&c1_bytes)
            .scalar();
        let key = self.public();
        let statement = Statement {
            game: self.game(),
            side: self.side(),
            position,
            key: key.bytes(),
            c1: &c1_bytes,
            share: &bytes,
        };
        let c = statement.challenge(&RistrettoPoint::mul_base(&k), &(k * c1));
        Ok(Share {
            position,
            point,
            bytes,
            proof: proof_bytes(&c, &(k + c * x)),
            checked: None,
        })
    }

    /// The card a player drew at `position`: the other players' shares
    /// (each verified, every other side exactly once) taken off with its
    /// own. Only this player learns it.
    pub fn draw(
        &self,
        table: &Table,
        deck: &Deck,
        position: u32,
        others: &[(&str, &Share)],
    ) -> Result<u32, DeckError> {
        let mine = table.index(self.side()).ok_or_else(|| DeckError::Shares {
            position,
            reason: format!("{} is not a player of this deck", self.side()),
        })?;
        let points = checked_shares(table, deck, position, others, Some(mine))?;
        let point = self.unmask(deck.get(position)?, &points);
        table.card_index(&point).ok_or(DeckError::NoCard(position))
    }
}

impl Share {
    /// A share as read from its item: the position, the 32 bytes of `D`
    /// (a canonical point encoding) and the 64 bytes of the proof.
    pub fn from_bytes(
        position: u32,
        point: &[u8; 32],
        proof: [u8; 64],
    ) -> Result<Share, DeckError> {
        Ok(Share {
            position,
            point: decode_point(point, "share")?,
            bytes: *point,
            proof,
            checked: None,
        })
    }

    /// The deck position.
    pub fn position(&self) -> u32 {
        self.position
    }

    /// `D`'s 32 bytes.
    pub fn point_bytes(&self) -> [u8; 32] {
        self.bytes
    }

    /// The proof's 64 bytes, `c || s`.
    pub fn proof_bytes(&self) -> [u8; 64] {
        self.proof
    }

    /// Check that this is `side`'s share of the card at its position of
    /// `deck`: `c` and `s` canonical, and `c` equal to the challenge over
    /// `A1 = s * B - c * X` and `A2 = s * C1 - c * D`.
    pub fn verify(&self, table: &Table, side: &str, deck: &Deck) -> Result<(), DeckError> {
        let bad = || DeckError::BadShare {
            side: side.into(),
            position: self.position,
        };
        let key = table
            .index(side)
            .and_then(|i| table.side(i))
            .ok_or_else(bad)?
            .1;
        let card = deck.get(self.position)?;
        let c1 = card.c1();
        let (c, s) = proof_scalars(&self.proof).ok_or_else(bad)?;
        // Everything here is public: variable-time arithmetic is safe.
        let a1 = RistrettoPoint::vartime_double_scalar_mul_basepoint(&-c, key.point(), &s);
        let a2 = RistrettoPoint::vartime_multiscalar_mul([s, -c], [c1, &self.point]);
        let statement = Statement {
            game: table.game(),
            side,
            position: self.position,
            key: key.bytes(),
            c1: &card.c1_bytes(),
            share: &self.bytes,
        };
        if statement.challenge(&a1, &a2) == c {
            Ok(())
        } else {
            Err(bad())
        }
    }

    /// The share, [verified](Share::verify) as `side`'s share of the card
    /// at its position of `deck`, and marked so: an opening or a draw
    /// with it does not verify its proof again as long as `side`'s key
    /// and the card's `C1` are the ones it was verified against (which
    /// is all its proof shows: that `D` and `X` have the same discrete
    /// logarithm to the bases `C1` and `B`).
    pub fn verified(self, table: &Table, side: &str, deck: &Deck) -> Result<Share, DeckError> {
        self.verify(table, side, deck)?;
        let key = table.index(side).and_then(|i| table.side(i));
        let checked = key.zip(deck.get(self.position).ok());
        Ok(Share {
            checked: checked.map(|((_, key), card)| (*key.point(), *card.c1())),
            ..self
        })
    }

    /// Whether this share was [verified](Share::verified) against the key
    /// `key` and a card whose `C1` is `c1`.
    fn checked_against(&self, key: &RistrettoPoint, c1: &RistrettoPoint) -> bool {
        self.checked.is_some_and(|(k, c)| &k == key && &c == c1)
    }

    /// The card at `position` of `deck`, opened to everyone by every
    /// side's share of it (the drawer's among them): `C2` minus their
    /// sum. Each share is verified (but for one [verified](Share::verified)
    /// already against the same key and card); each side must give
    /// exactly one.
    pub fn open(
        table: &Table,
        deck: &Deck,
        position: u32,
        shares: &[(&str, &Share)],
    ) -> Result<u32, DeckError> {
        let points = checked_shares(table, deck, position, shares, None)?;
        let sum: RistrettoPoint = points.iter().sum();
        let point = deck.get(position)?.c2() - sum;
        table.card_index(&point).ok_or(DeckError::NoCard(position))
    }
}

/// The points of `shares` for `position`, each verified (unless it was
/// already, against the same key and card), with exactly one share from
/// every side but `missing`.
fn checked_shares(
    table: &Table,
    deck: &Deck,
    position: u32,
    shares: &[(&str, &Share)],
    missing: Option<usize>,
) -> Result<Vec<RistrettoPoint>, DeckError> {
    let problem = |reason: String| DeckError::Shares { position, reason };
    let mut seen = vec![false; table.players()];
    let mut points = Vec::with_capacity(shares.len());
    for (side, share) in shares {
        let i = table
            .index(side)
            .ok_or_else(|| problem(format!("{side} is not a player of this deck")))?;
        if share.position != position {
            return Err(problem(format!(
                "{side}'s share is for position {}",
                share.position
            )));
        }
        if Some(i) == missing {
            return Err(problem(format!(
                "{side} draws it, so its share stays private"
            )));
        }
        if seen[i] {
            return Err(problem(format!("{side} gave more than one share")));
        }
        seen[i] = true;
        let key = table.side(i).map(|(_, k)| k.point());
        let c1 = deck.get(position)?.c1();
        if !key.is_some_and(|key| share.checked_against(key, c1)) {
            share.verify(table, side, deck)?;
        }
        points.push(share.point);
    }
    let absent = (0..table.players()).find(|&i| !seen[i] && Some(i) != missing);
    if let Some((side, _)) = absent.and_then(|i| table.side(i)) {
        return Err(problem(format!("{side}'s share is missing")));
    }
    Ok(points)
}
