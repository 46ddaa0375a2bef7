//! Decryption shares with their Chaum-Pedersen proofs: how a drawn card
//! is shown to its drawer alone, and how a played card is opened to all
//! (spec section 3.9, "Draws" and "Openings").

use std::borrow::Borrow;

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT;
use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::{IsIdentity, VartimeMultiscalarMul};

use super::cipher::Deck;
use super::keys::{CardSecret, Table};
use super::{
    decode_point, decode_scalar, DeckError, Wide, DOMAIN_SHARE, DOMAIN_SHARE_BATCH,
    DOMAIN_SHARE_NONCE,
};
use crate::fairness::Hash;

/// A player's decryption share of the card at one deck position,
/// `D = x * C1`, with the proof that it used its card secret
/// (`log_B X = log_C1 D`): the proof item
/// `share <position> <D: 64 hex> <A1 || A2 || s: 192 hex>`.
#[derive(Clone, Copy, Debug)]
pub struct Share {
    position: u32,
    /// `D`, decoded: `None` for a [vouched](Share::vouched) share until
    /// it is needed.
    point: Option<RistrettoPoint>,
    /// `enc(D)`, as read or made.
    bytes: [u8; 32],
    proof: [u8; PROOF_LEN],
    /// The key `X` and the card's `C1` that the proof was verified
    /// against by [`Share::verified`] (or will be, in a batch, by
    /// [`Share::claimed`]), if it was, by their encodings: opening or
    /// drawing with the same key and card, it is not verified again.
    /// (An encoding is canonical, one a point, so the same bytes are
    /// the same point; comparing them needs no point decoded and no
    /// constant-time arithmetic, and both are public.)
    checked: Option<([u8; 32], [u8; 32])>,
    /// Whether a record digest the reader checked before vouches for it
    /// ([`Share::vouched`]): it was verified then, against the key and
    /// card it is for.
    vouched: bool,
}

/// The length of a share's proof, `enc(A1) || enc(A2) || s`.
pub const PROOF_LEN: usize = 96;

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
    fn challenge(&self, a1: &[u8; 32], a2: &[u8; 32]) -> Scalar {
        Wide::new(DOMAIN_SHARE)
            .put(self.game)
            .put_lp(self.side.as_bytes())
            .put_u32(self.position)
            .put(self.key)
            .put(self.c1)
            .put(self.share)
            .put(a1)
            .put(a2)
            .scalar()
    }
}

/// One share's proof to check, with everything it is about: the side,
/// the position, the side's key `X`, the card's `C1` and the share `D`.
/// A batch of them is checked at once by [`verify_batch`].
#[derive(Clone, Debug)]
pub struct ShareCheck {
    side: String,
    position: u32,
    key: (RistrettoPoint, [u8; 32]),
    c1: (RistrettoPoint, [u8; 32]),
    share: (RistrettoPoint, [u8; 32]),
    proof: [u8; PROOF_LEN],
    /// A share's check left undone, for a share a record digest vouches
    /// for ([`ShareCheck::vouched`]): it holds none of the points, and
    /// never verifies.
    vouched: bool,
}

/// A proof read: `A1`, `A2` (canonical encodings, decoded) and `s`
/// (canonical).
struct Opened {
    a1: RistrettoPoint,
    a2: RistrettoPoint,
    s: Scalar,
    c: Scalar,
}

impl ShareCheck {
    /// The check of `side`'s share of `position`, left undone: the share
    /// is on a line a record digest the reader checked before vouches
    /// for, so its proof was verified then. Its points are not decoded;
    /// should it be verified all the same, it fails (as a bad share).
    pub fn vouched(side: &str, position: u32, proof: [u8; PROOF_LEN]) -> ShareCheck {
        let none = (RistrettoPoint::default(), [0; 32]);
        ShareCheck {
            side: side.into(),
            position,
            key: none,
            c1: none,
            share: none,
            proof,
            vouched: true,
        }
    }

    /// The side whose share it is.
    pub fn side(&self) -> &str {
        &self.side
    }

    /// The deck position.
    pub fn position(&self) -> u32 {
        self.position
    }

    /// The error a failing proof gives: the side's share for the
    /// position does not verify against its card key.
    pub fn error(&self) -> DeckError {
        DeckError::BadShare {
            side: self.side.clone(),
            position: self.position,
        }
    }

    fn statement<'a>(&'a self, game: &'a Hash) -> Statement<'a> {
        Statement {
            game,
            side: &self.side,
            position: self.position,
            key: &self.key.1,
            c1: &self.c1.1,
            share: &self.share.1,
        }
    }

    /// The proof's `A1`, `A2`, `s` and its challenge `c`, if `A1` and
    /// `A2` are canonical point encodings and `s` a canonical scalar.
    fn open(&self, game: &Hash) -> Option<Opened> {
        if self.vouched {
            return None;
        }
        let mut a1_bytes = [0u8; 32];
        let mut a2_bytes = [0u8; 32];
        a1_bytes.copy_from_slice(&self.proof[..32]);
        a2_bytes.copy_from_slice(&self.proof[32..64]);
        let a1 = decode_point(&a1_bytes, "proof").ok()?;
        let a2 = decode_point(&a2_bytes, "proof").ok()?;
        let s = decode_scalar(&self.proof[64..])?;
        let c = self.statement(game).challenge(&a1_bytes, &a2_bytes);
        Some(Opened { a1, a2, s, c })
    }

    /// Check this proof alone: `s * B = A1 + c * X` and `s * C1 = A2 +
    /// c * D`.
    pub fn verify(&self, game: &Hash) -> bool {
        let Some(o) = self.open(game) else {
            return false;
        };
        // Everything here is public: variable-time arithmetic is safe.
        RistrettoPoint::vartime_double_scalar_mul_basepoint(&-o.c, &self.key.0, &o.s) == o.a1
            && RistrettoPoint::vartime_multiscalar_mul([o.s, -o.c], [self.c1.0, self.share.0])
                == o.a2
    }
}

/// Whether every proof of `checks` (shares of the game `game`) verifies,
/// checked at once by one random linear combination of their equations
/// (the small-exponent batch test of Bellare, Garay and Rabin, 1998), one
/// multiscalar multiplication: with weights `z_i`, `w_i` for proof `i`,
/// `(sum z_i s_i) * B - sum (z_i A1_i + z_i c_i X_i) + sum (w_i s_i C1_i -
/// w_i A2_i - w_i c_i D_i)` must be the identity. The referee has no
/// random source, so the weights are derived from everything the batch
/// holds (spec section 3.9, "Checking shares in batches"): `h =
/// SHA-512("herald/card-share-batch/v1" || game_id || u32be(n) || for
/// each proof: lp(side) || u32be(position) || X || C1 || D || A1 || A2
/// || s)`, `z_i = wide(SHA-512(h || u32be(i) || 0x00))`, `w_i =
/// wide(SHA-512(h || u32be(i) || 0x01))`. The group has prime order, so
/// a batch that verifies holds only proofs that verify one by one
/// (but with a chance near `n / l`). An empty batch verifies.
pub fn verify_batch<C: Borrow<ShareCheck>>(game: &Hash, checks: &[C]) -> bool {
    match checks {
        [] => return true,
        [one] => return one.borrow().verify(game),
        _ => {}
    }
    let mut opened = Vec::with_capacity(checks.len());
    for check in checks {
        let Some(o) = check.borrow().open(game) else {
            return false;
        };
        opened.push(o);
    }
    let seed = batch_seed(game, checks);
    let weight = |i: usize, j: u8| weight_scalar(&seed, i, j);
    let mut base = Scalar::ZERO;
    // The keys repeat (one a side): each is one term.
    let mut keys: Vec<(Scalar, RistrettoPoint, [u8; 32])> = Vec::new();
    let mut scalars = Vec::with_capacity(4 * checks.len() + 4);
    for (i, (check, o)) in checks.iter().zip(&opened).enumerate() {
        let check = check.borrow();
        let (z, w) = (weight(i, 0), weight(i, 1));
        base += z * o.s;
        let zc = -(z * o.c);
        match keys.iter_mut().find(|k| k.2 == check.key.1) {
            Some(k) => k.0 += zc,
            None => keys.push((zc, check.key.0, check.key.1)),
        }
        scalars.extend([-z, w * o.s, -w, -(w * o.c)]);
    }
    scalars.push(base);
    scalars.extend(keys.iter().map(|k| k.0));
    // The points in the scalars' order, each taken where it is kept
    // (not copied into a list of their own: 160 bytes a point).
    let n = 4 * checks.len();
    let points = (0..scalars.len()).map(|j| match j.checked_sub(n) {
        None => {
            let (check, o) = (checks[j / 4].borrow(), &opened[j / 4]);
            match j % 4 {
                0 => o.a1,
                1 => check.c1.0,
                2 => o.a2,
                _ => check.share.0,
            }
        }
        Some(0) => RISTRETTO_BASEPOINT_POINT,
        Some(k) => keys[k - 1].1,
    });
    RistrettoPoint::vartime_multiscalar_mul(&scalars, points).is_identity()
}

/// The seed `h` of a batch's weights (see [`verify_batch`]).
pub fn batch_seed<C: Borrow<ShareCheck>>(game: &Hash, checks: &[C]) -> [u8; 64] {
    let mut seed = Wide::new(DOMAIN_SHARE_BATCH)
        .put(game)
        .put_u32(checks.len() as u32);
    for check in checks {
        let check = check.borrow();
        seed = seed
            .put_lp(check.side.as_bytes())
            .put_u32(check.position)
            .put(&check.key.1)
            .put(&check.c1.1)
            .put(&check.share.1)
            .put(&check.proof);
    }
    seed.bytes()
}

/// The weight of proof `i` of a batch whose seed is `seed`, for its
/// first equation (`j = 0`, `z_i`) or its second (`j = 1`, `w_i`), as
/// 32 bytes little-endian (see [`verify_batch`]).
pub fn batch_weight(seed: &[u8; 64], i: usize, j: u8) -> [u8; 32] {
    weight_scalar(seed, i, j).to_bytes()
}

fn weight_scalar(seed: &[u8; 64], i: usize, j: u8) -> Scalar {
    Wide::new(seed).put_u32(i as u32).put(&[j]).scalar()
}

/// The index of the first proof of `checks` that does not verify, if
/// one does not: the batch is halved, the first half that fails searched
/// further, down to the one proof.
pub fn first_bad<C: Borrow<ShareCheck>>(game: &Hash, checks: &[C]) -> Option<usize> {
    if verify_batch(game, checks) {
        return None;
    }
    let (mut from, mut to) = (0, checks.len());
    // Invariant: checks[from..to] fails as a batch.
    while to - from > 1 {
        let mid = from + (to - from) / 2;
        if verify_batch(game, &checks[from..mid]) {
            from = mid;
        } else {
            to = mid;
        }
    }
    // A batch that fails holds a proof that fails alone; should the
    // halves say otherwise, the proofs are checked one by one.
    if checks[from].borrow().verify(game) {
        return checks.iter().position(|c| !c.borrow().verify(game));
    }
    Some(from)
}

impl CardSecret {
    /// This player's share of the card at `position` of `deck`, with its
    /// proof (deterministic): `k = wide(SHA-512("herald/card-share-nonce/v1"
    /// || x || game_id || lp(side) || u32be(position) || C1))`, `A1 = k *
    /// B`, `A2 = k * C1`, `s = k + c * x`.
    pub fn share(&self, deck: &Deck, position: u32) -> Result<Share, DeckError> {
        let (c1, c1_bytes) = deck.c1(position)?;
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
        let a1 = RistrettoPoint::mul_base(&k).compress().to_bytes();
        let a2 = (k * c1).compress().to_bytes();
        let c = statement.challenge(&a1, &a2);
        let mut proof = [0u8; PROOF_LEN];
        proof[..32].copy_from_slice(&a1);
        proof[32..64].copy_from_slice(&a2);
        proof[64..].copy_from_slice((k + c * x).as_bytes());
        Ok(Share {
            position,
            point: Some(point),
            bytes,
            proof,
            checked: None,
            vouched: false,
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
    /// (a canonical point encoding) and the 96 bytes of the proof.
    pub fn from_bytes(
        position: u32,
        point: &[u8; 32],
        proof: [u8; PROOF_LEN],
    ) -> Result<Share, DeckError> {
        Ok(Share {
            position,
            point: Some(decode_point(point, "share")?),
            bytes: *point,
            proof,
            checked: None,
            vouched: false,
        })
    }

    /// A share as read from its item on a line that a record digest the
    /// reader checked before vouches for (`move --key`, `legal --key` up
    /// to the digest the key file remembers): it was read, decoded and
    /// verified then as its side's share of the card at `position`, so
    /// it is kept as its bytes, `D` decoded when first needed, and an
    /// opening or draw with it does not verify it again.
    pub fn vouched(position: u32, point: &[u8; 32], proof: [u8; PROOF_LEN]) -> Share {
        Share {
            position,
            point: None,
            bytes: *point,
            proof,
            checked: None,
            vouched: true,
        }
    }

    /// `D`, decoded now if it was not yet (a [vouched](Share::vouched)
    /// share's, which its digest shows is a point).
    fn point(&self) -> Result<RistrettoPoint, DeckError> {
        match self.point {
            Some(point) => Ok(point),
            None => decode_point(&self.bytes, "share"),
        }
    }

    /// The deck position.
    pub fn position(&self) -> u32 {
        self.position
    }

    /// Whether a record digest the reader checked before vouches for it
    /// ([`Share::vouched`]).
    pub fn is_vouched(&self) -> bool {
        self.vouched
    }

    /// `D`'s 32 bytes.
    pub fn point_bytes(&self) -> [u8; 32] {
        self.bytes
    }

    /// The proof's 96 bytes, `enc(A1) || enc(A2) || s`.
    pub fn proof_bytes(&self) -> [u8; PROOF_LEN] {
        self.proof
    }

    /// What checking this as `side`'s share of the card at its position
    /// of `deck` takes: the side's key, the card's `C1`, the share and
    /// its proof.
    pub fn check(&self, table: &Table, side: &str, deck: &Deck) -> Result<ShareCheck, DeckError> {
        let key = table
            .index(side)
            .and_then(|i| table.side(i))
            .ok_or_else(|| DeckError::BadShare {
                side: side.into(),
                position: self.position,
            })?
            .1;
        let c1 = deck.c1(self.position)?;
        Ok(ShareCheck {
            side: side.into(),
            position: self.position,
            key: (*key.point(), *key.bytes()),
            c1,
            share: (self.point()?, self.bytes),
            proof: self.proof,
            vouched: false,
        })
    }

    /// Check that this is `side`'s share of the card at its position of
    /// `deck`: `A1` and `A2` canonical point encodings, `s` a canonical
    /// scalar, and with the challenge `c` over them, `s * B = A1 + c *
    /// X` and `s * C1 = A2 + c * D`.
    pub fn verify(&self, table: &Table, side: &str, deck: &Deck) -> Result<(), DeckError> {
        let check = self.check(table, side, deck)?;
        if check.verify(table.game()) {
            Ok(())
        } else {
            Err(check.error())
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
        self.claimed(table, side, deck).map(|(share, _)| share)
    }

    /// The share marked as [verified](Share::verified) before it is: its
    /// check is given back, for the caller to verify in a batch
    /// ([`verify_batch`]) before anything that depends on the share
    /// counts (a verdict, a line written).
    pub fn claimed(
        self,
        table: &Table,
        side: &str,
        deck: &Deck,
    ) -> Result<(Share, ShareCheck), DeckError> {
        let check = self.check(table, side, deck)?;
        let share = Share {
            checked: Some((check.key.1, check.c1.1)),
            ..self
        };
        Ok((share, check))
    }

    /// Whether this share was [verified](Share::verified) against the key
    /// encoded as `key` and a card whose `C1` is encoded as `c1`.
    fn checked_against(&self, key: &[u8; 32], c1: &[u8; 32]) -> bool {
        self.vouched || self.checked.is_some_and(|(k, c)| &k == key && &c == c1)
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
        Share::open_among(table, deck, position, shares, &[])
    }

    /// [`Share::open`], the card looked for among the cards `likely`
    /// first ([`Table::card_index_among`]: the same card, found sooner).
    pub fn open_among(
        table: &Table,
        deck: &Deck,
        position: u32,
        shares: &[(&str, &Share)],
        likely: &[u32],
    ) -> Result<u32, DeckError> {
        let points = checked_shares(table, deck, position, shares, None)?;
        let sum: RistrettoPoint = points.iter().sum();
        let point = deck.c2(position)? - sum;
        table
            .card_index_among(&point, likely)
            .ok_or(DeckError::NoCard(position))
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
        // A vouched share was verified when its line was first read:
        // its card's `C1` is not needed (nor decoded). A share verified
        // before is known by the encodings it was verified against: the
        // card's `C1` is not decoded again for it.
        if !share.vouched {
            let key = table.side(i).map(|(_, k)| *k.bytes());
            let c1 = deck.c1_bytes(position)?;
            if !key.is_some_and(|key| share.checked_against(&key, &c1)) {
                share.verify(table, side, deck)?;
            }
        }
        points.push(share.point()?);
    }
    let absent = (0..table.players()).find(|&i| !seen[i] && Some(i) != missing);
    if let Some((side, _)) = absent.and_then(|i| table.side(i)) {
        return Err(problem(format!("{side}'s share is missing")));
    }
    Ok(points)
}
