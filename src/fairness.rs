//! Fair chance and proof of authorship without a trusted server
//! (docs/protocol.md section 3): hash chains, the game id, seeds and the sampler. Every
//! derivation is stated byte for byte in `docs/protocol.md`; the test
//! vectors below are the ones printed there.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};

/// Links in every hash chain: the most turns one player can take.
pub const CHAIN_LENGTH: u32 = 10_000;

const DOMAIN_CHAIN: &[u8] = b"herald/chain/v1";
const DOMAIN_CHAIN_SEED: &[u8] = b"herald/chain-seed/v1";
const DOMAIN_BOUND_CHAIN: &[u8] = b"herald/bound-chain/v2";
const DOMAIN_GAME_ID: &[u8] = b"herald/game-id/v1";
const DOMAIN_CHAIN_ID: &[u8] = b"herald/chain-id/v1";
const DOMAIN_TURN_CHANCE: &[u8] = b"herald/turn-chance/v1";
const DOMAIN_SETTLE_CHANCE: &[u8] = b"herald/settle-chance/v2";
const DOMAIN_SLOT_SALT: &[u8] = b"herald/slot-salt/v1";
const DOMAIN_SLOT: &[u8] = b"herald/slot/v1";
const DOMAIN_SIGNING_KEY: &[u8] = b"herald/signing-key/v1";
const DOMAIN_SEAL_BATCH: &[u8] = b"herald/seal-batch/v1";
const DOMAIN_RECORD: &[u8] = b"herald/record/v1";
const DOMAIN_LINE_SIG: &[u8] = b"herald/line-sig/v1";

/// 32 bytes: a hash, a chain value, a seed.
pub type Hash = [u8; 32];

fn put_len(h: &mut Sha256, bytes: &[u8]) {
    h.update((bytes.len() as u32).to_be_bytes());
    h.update(bytes);
}

/// One link down the chain of game `chain`:
/// `s_{k-1} = SHA-256("herald/chain/v1" || chain_id || s_k)`. Binding every
/// link to the game's [`chain_id`] makes a chain (and its reveals) useless
/// in any other game, even if a player reuses a key.
pub fn chain_step(chain: &Hash, value: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_CHAIN);
    h.update(chain);
    h.update(value);
    h.finalize().into()
}

/// Which version of the protocol a record follows (spec section 3.1): the
/// `[Protocol "2"]` tag `herald new` writes, or none for a record made
/// before it. The tag is part of the chain id, so it cannot be removed or
/// added once a side committed without breaking every reveal.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Protocol {
    /// No `Protocol` tag: a side's chain is bound to the chain id alone.
    #[default]
    One,
    /// `[Protocol "2"]`: a side's chain is bound to the chain id and its
    /// signing key ([`bound_chain`]), and its Commit and Key tags come
    /// together.
    Two,
    /// `[Protocol "3"]`: as protocol 2, and a side's Commit and Key tags
    /// may join the header after lines, before the side's own first line:
    /// the game id leaves them out (it is the chain id), so the creator
    /// commits in the game's first message and each other side adds its
    /// key with its first line (spec sections 3.2 and 3.7).
    Three,
}

impl Protocol {
    /// The tag's name.
    pub const TAG: &'static str = "Protocol";

    /// The protocol a `Protocol` tag's value names, if any.
    pub fn from_tag(value: &str) -> Option<Protocol> {
        match value.trim() {
            "2" => Some(Protocol::Two),
            "3" => Some(Protocol::Three),
            _ => None,
        }
    }

    /// The `Protocol` tag's value (and the key file's `protocol:` line),
    /// `None` for protocol 1, which has neither.
    pub fn tag_value(self) -> Option<&'static str> {
        match self {
            Protocol::One => None,
            Protocol::Two => Some("2"),
            Protocol::Three => Some("3"),
        }
    }

    /// Whether a side's chain is bound to its signing key, its Commit and
    /// Key tags coming together (protocols 2 and 3).
    pub fn binds_keys(self) -> bool {
        self != Protocol::One
    }

    /// Whether a side's Commit and Key tags may join the header after
    /// lines, before the side's own first line (protocol 3): the game id
    /// then leaves them out.
    pub fn keys_join_late(self) -> bool {
        self == Protocol::Three
    }

    /// What a side's reveals are hashed under in game `chain`: the chain
    /// id, or in protocol 2 the chain id bound to the side's public key
    /// (`None` for a side without a Key tag, whose chain then cannot be
    /// bound, so is the chain id's).
    pub fn side_chain(self, chain: &Hash, public_key: Option<&[u8; 32]>) -> Hash {
        match public_key {
            Some(key) if self.binds_keys() => bound_chain(chain, key),
            _ => *chain,
        }
    }
}

/// The id a side's hash chain is bound to in a protocol-2 record (spec
/// section 3.1): `SHA-256("herald/bound-chain/v2" || chain_id ||
/// public_key)`, used in place of the chain id in [`chain_step`] and
/// [`chain_value`]. A side's reveals then hold for its own signing key
/// alone: a `<Side>Key` tag removed, swapped or added after the side
/// committed makes its first reveal fail, for anyone who checks.
pub fn bound_chain(chain: &Hash, public_key: &[u8; 32]) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_BOUND_CHAIN);
    h.update(chain);
    h.update(public_key);
    h.finalize().into()
}

/// The chain value `s_j` of a private key in game `chain`: `s_N` is
/// `SHA-256("herald/chain-seed/v1" || chain_id || secret)` with `N` =
/// [`CHAIN_LENGTH`], and each lower value is one [`chain_step`] of the one
/// above. `s_0` is the public commitment, `s_j` the reveal on the player's
/// j-th line.
pub fn chain_value(secret: &Hash, chain: &Hash, j: u32) -> Option<Hash> {
    if j > CHAIN_LENGTH {
        return None;
    }
    let mut h = Sha256::new();
    h.update(DOMAIN_CHAIN_SEED);
    h.update(chain);
    h.update(secret);
    let mut value: Hash = h.finalize().into();
    for _ in j..CHAIN_LENGTH {
        value = chain_step(chain, &value);
    }
    Some(value)
}

/// The chain values `s_0 ..= s_upto` of a private key, computing the
/// chain once (for writing many turns).
pub fn chain_prefix(secret: &Hash, chain: &Hash, upto: u32) -> Vec<Hash> {
    let upto = upto.min(CHAIN_LENGTH);
    let mut value = chain_value(secret, chain, upto).expect("upto <= N");
    let mut values = vec![value; upto as usize + 1];
    for j in (0..upto as usize).rev() {
        value = chain_step(chain, &value);
        values[j] = value;
    }
    values
}

/// The game id: SHA-256 over `"herald/game-id/v1"`, then for each header
/// tag but `Result`, in file order, the name and the value, each as a
/// 4-byte big-endian length and the UTF-8 bytes. Tag names are in canonical
/// case (see the spec).
pub fn game_id<'a>(tags: impl IntoIterator<Item = (&'a str, &'a str)>) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_GAME_ID);
    for (name, value) in tags {
        if name == "Result" {
            continue;
        }
        put_len(&mut h, name.as_bytes());
        put_len(&mut h, value.as_bytes());
    }
    h.finalize().into()
}

/// Whether `name` ends in `suffix` after at least one character.
fn suffixed(name: &str, suffix: &str) -> bool {
    name.len() > suffix.len() && name.ends_with(suffix)
}

/// The chain id: like [`game_id`] but over the tags other than `Result`,
/// the `<Side>Commit` and the `<Side>Key` tags (domain
/// `"herald/chain-id/v1"`), so that it is known before the commitments and
/// keys are made. Every hash chain and signing key is bound to it.
pub fn chain_id<'a>(tags: impl IntoIterator<Item = (&'a str, &'a str)>) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_CHAIN_ID);
    for (name, value) in tags {
        if name == "Result" || suffixed(name, "Commit") || suffixed(name, "Key") {
            continue;
        }
        put_len(&mut h, name.as_bytes());
        put_len(&mut h, value.as_bytes());
    }
    h.finalize().into()
}

/// The reveals that close every chance seed: the reveal on the line that
/// draws (or settles), then the latest reveal (or commitment) of each other
/// player, in header order. No player can know or steer a seed until every
/// other player's contribution is published.
fn put_reveals(h: &mut Sha256, mover: &Hash, others: impl IntoIterator<Item = Hash>) {
    h.update(mover);
    for other in others {
        h.update(other);
    }
}

/// Seed of a turn-start chance event (spec 3.3): SHA-256 over the domain,
/// the game id, the turn number (4 bytes big-endian), the label (length and
/// bytes), the mover's reveal on this line, then the latest reveal (or the
/// commitment, before their first line) of every other player in side order.
pub fn turn_seed(game: &Hash, turn: u32, label: &str, mover: &Hash, others: &[Hash]) -> Hash {
    turn_seed_of(game, turn, label, mover, others.iter().copied())
}

/// [`turn_seed`] with the other players' reveals as they come, for a
/// caller that holds them in no list.
pub(crate) fn turn_seed_of(
    game: &Hash,
    turn: u32,
    label: &str,
    mover: &Hash,
    others: impl IntoIterator<Item = Hash>,
) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_TURN_CHANCE);
    h.update(game);
    h.update(turn.to_be_bytes());
    put_len(&mut h, label.as_bytes());
    put_reveals(&mut h, mover, others);
    h.finalize().into()
}

/// Seed of a chance event declared on turn `declared` and settled on turn
/// `settling` (spec 3.4): SHA-256 over the domain
/// (`"herald/settle-chance/v2"`), the game id, both turn numbers (4 bytes
/// big-endian each), the label (length and bytes), the settling reveal on
/// line `settling`, then the latest reveal (or commitment) of every other
/// player with a Commit tag, in side order, as they stand at settlement
/// (the declarer's is the one on line `declared`). With the others'
/// reveals in, the settler cannot know the value before the declaring line
/// is published, nor grind a key to steer it.
pub fn settle_seed(
    game: &Hash,
    declared: u32,
    settling: u32,
    label: &str,
    settler: &Hash,
    others: &[Hash],
) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_SETTLE_CHANCE);
    h.update(game);
    h.update(declared.to_be_bytes());
    h.update(settling.to_be_bytes());
    put_len(&mut h, label.as_bytes());
    put_reveals(&mut h, settler, others.iter().copied());
    h.finalize().into()
}

/// The salt of a hidden value (spec section 3.7), derived from the
/// player's key so that the key file is all a player needs to open it
/// later: SHA-256 over `"herald/slot-salt/v1"`, the chain id, the secret,
/// then the side's name and the slot's name (each as a 4-byte big-endian
/// length and the bytes).
pub fn slot_salt(secret: &Hash, chain: &Hash, side: &str, slot: &str) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_SLOT_SALT);
    h.update(chain);
    h.update(secret);
    put_len(&mut h, side.as_bytes());
    put_len(&mut h, slot.as_bytes());
    h.finalize().into()
}

/// The salted commitment to a hidden value (spec section 3.7): SHA-256
/// over `"herald/slot/v1"`, the game id, the side's name and the slot's
/// name (each with its 4-byte length), the 32-byte salt, and the value
/// (with its length). Published before play; opened with value and salt.
pub fn slot_commitment(game: &Hash, side: &str, slot: &str, salt: &Hash, value: &str) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_SLOT);
    h.update(game);
    put_len(&mut h, side.as_bytes());
    put_len(&mut h, slot.as_bytes());
    h.update(salt);
    put_len(&mut h, value.as_bytes());
    h.finalize().into()
}

/// The seed of a side's Ed25519 signing key (spec section 3.8):
/// `SHA-256("herald/signing-key/v1" || chain_id || secret)`. Derived from
/// the key file's one secret, bound to the game like the hash chain.
pub fn signing_seed(secret: &Hash, chain: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_SIGNING_KEY);
    h.update(chain);
    h.update(secret);
    h.finalize().into()
}

/// The kind of a line as the seal covers it: `S` (0x53) for a set-up
/// line, `T` (0x54) for a turn (an audit or forfeit line included).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SealedKind {
    /// `S1. Blue:`.
    Setup,
    /// `1. Blue:`.
    Turn,
}

/// The bytes of one line as the seal and the record digest cover it
/// (spec section 3.8): `kind || u32be(number) || lp(side) || lp(text)`,
/// `text` the line's canonical text.
pub fn line_bytes(kind: SealedKind, number: u32, side: &str, text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + side.len() + text.len());
    line_bytes_into(kind, number, side, text, &mut out);
    out
}

/// [`line_bytes`], written into `out` (cleared first; its room kept).
pub fn line_bytes_into(kind: SealedKind, number: u32, side: &str, text: &str, out: &mut Vec<u8>) {
    out.clear();
    out.reserve(16 + side.len() + text.len());
    out.push(match kind {
        SealedKind::Setup => b'S',
        SealedKind::Turn => b'T',
    });
    out.extend_from_slice(&number.to_be_bytes());
    for part in [side.as_bytes(), text.as_bytes()] {
        out.extend_from_slice(&(part.len() as u32).to_be_bytes());
        out.extend_from_slice(part);
    }
}

/// The digest of a record before its first line:
/// `d_0 = SHA-256("herald/record/v1" || game_id)`.
pub fn record_start(game: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_RECORD);
    h.update(game);
    h.finalize().into()
}

/// The digest of a record one line longer:
/// `d_n = SHA-256("herald/record/v1" || d_(n-1) || line || lp(sig))`, with
/// `line` from [`line_bytes`] and `sig` the line's 64-byte signature, or
/// nothing for an unsigned line. A running digest: each line is hashed
/// once, as the record streams by.
pub fn record_step(previous: &Hash, line: &[u8], sig: Option<&[u8; 64]>) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_RECORD);
    h.update(previous);
    h.update(line);
    put_len(&mut h, sig.map_or(&[][..], |s| &s[..]));
    h.finalize().into()
}

/// The message a line's Ed25519 signature is over (spec section 3.8):
/// `"herald/line-sig/v1" || game_id || line || d_(n-1)`, `line` from
/// [`line_bytes`] and `d_(n-1)` the digest of the record before it.
pub fn seal_message(game: &Hash, line: &[u8], before: &Hash) -> Vec<u8> {
    let mut out = Vec::with_capacity(DOMAIN_LINE_SIG.len() + 64 + line.len());
    out.extend_from_slice(DOMAIN_LINE_SIG);
    out.extend_from_slice(game);
    out.extend_from_slice(line);
    out.extend_from_slice(before);
    out
}

/// An Ed25519 signing key (ed25519-dalek) from its 32-byte seed.
pub fn signing_key(seed: &Hash) -> ed25519_dalek::SigningKey {
    ed25519_dalek::SigningKey::from_bytes(seed)
}

/// Whether `sig` is `key`'s signature of `message`, by ed25519-dalek's
/// `verify_strict` (weak keys, small-order and non-canonical parts are
/// refused).
pub fn seal_verifies(key: &ed25519_dalek::VerifyingKey, message: &[u8], sig: &[u8; 64]) -> bool {
    let sig = ed25519_dalek::Signature::from_bytes(sig);
    key.verify_strict(message, &sig).is_ok()
}

/// Whether every `sigs[i]` is `keys[i]`'s signature of `messages[i]`, as
/// [`seal_verifies`] would say of each, in one go (spec 3.6): Ed25519's
/// batch equation, `[-Σ z_i s_i] B + Σ z_i R_i + Σ_A [Σ_{i: A_i = A}
/// z_i k_i] A = 0`, one multiscalar multiplication (curve25519-dalek) in
/// which each signer's key appears once, whatever the number of its
/// signatures (a record has one key a side), and each `R` is
/// decompressed once. `k_i` is SHA-512(`R_i || A_i || M_i`) as in
/// Ed25519 itself; the weights `z_i` (128 bits) are derived from a
/// SHA-512 over every signature's key, `R`, `s` and `k`, so that no
/// signature can be made to fit weights known in advance. As `verify_strict` does, each signature is
/// refused whose `s` is not reduced, whose `R` is not canonically encoded
/// or is of small order (keys are refused weak when the header is read).
#[allow(non_snake_case)]
pub fn seals_verify(
    keys: &[ed25519_dalek::VerifyingKey],
    messages: &[&[u8]],
    sigs: &[[u8; 64]],
) -> bool {
    use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
    use curve25519_dalek::scalar::Scalar;
    use curve25519_dalek::traits::{IsIdentity, VartimeMultiscalarMul};
    use sha2::Sha512;

    if keys.len() != sigs.len() || messages.len() != sigs.len() {
        return false;
    }
    let mut seed = Sha512::new();
    seed.update(DOMAIN_SEAL_BATCH);
    seed.update((sigs.len() as u32).to_be_bytes());
    let mut Rs = Vec::with_capacity(sigs.len());
    let mut ss = Vec::with_capacity(sigs.len());
    let mut ks = Vec::with_capacity(sigs.len());
    for ((key, message), sig) in keys.iter().zip(messages).zip(sigs) {
        let mut r = [0u8; 32];
        r.copy_from_slice(&sig[..32]);
        let mut s = [0u8; 32];
        s.copy_from_slice(&sig[32..]);
        let Some(s) = Option::<Scalar>::from(Scalar::from_canonical_bytes(s)) else {
            return false;
        };
        if !canonical_y(&r) {
            return false;
        }
        let Some(R) = CompressedEdwardsY(r).decompress() else {
            return false;
        };
        if R.is_small_order() {
            return false;
        }
        let mut h = Sha512::new();
        h.update(r);
        h.update(key.as_bytes());
        h.update(message);
        let k = Scalar::from_bytes_mod_order_wide(&h.finalize().into());
        seed.update(key.as_bytes());
        seed.update(sig);
        seed.update(k.as_bytes());
        Rs.push(R);
        ss.push(s);
        ks.push(k);
    }
    let seed = seed.finalize();
    let mut b = Scalar::ZERO;
    let mut scalars: Vec<Scalar> = Vec::with_capacity(sigs.len() + 3);
    let mut points: Vec<EdwardsPoint> = Vec::with_capacity(sigs.len() + 3);
    // Each distinct key once, with the sum of its signatures' `z_i k_i`.
    let mut signers: Vec<(&ed25519_dalek::VerifyingKey, Scalar)> = Vec::new();
    for (i, R) in Rs.into_iter().enumerate() {
        let z = seal_weight(&seed, i);
        b -= z * ss[i];
        scalars.push(z);
        points.push(R);
        let zk = z * ks[i];
        match signers.iter_mut().find(|(key, _)| *key == &keys[i]) {
            Some((_, sum)) => *sum += zk,
            None => signers.push((&keys[i], zk)),
        }
    }
    for (key, sum) in signers {
        scalars.push(sum);
        points.push(key.to_edwards());
    }
    scalars.push(b);
    points.push(curve25519_dalek::constants::ED25519_BASEPOINT_POINT);
    EdwardsPoint::vartime_multiscalar_mul(scalars, points).is_identity()
}

/// Whether a point's 32 bytes encode its `y` below the field's prime
/// 2^255 - 19 (the sign bit aside): curve25519-dalek reduces a larger
/// `y` without a word, and `verify_strict` refuses such an `R` (it
/// compares `R`'s bytes with a canonical encoding). The other
/// non-canonical encoding, `x = 0` with the sign bit set, is of small
/// order and refused as such.
fn canonical_y(bytes: &[u8; 32]) -> bool {
    !(bytes[31] & 0x7f == 0x7f && bytes[1..31].iter().all(|&b| b == 0xff) && bytes[0] >= 0xed)
}

/// The weight `z_i` of signature `i` in a batch whose seed is `h` (see
/// [`seals_verify`]): the first 16 bytes of SHA-512(`h || u32be(i)`),
/// little-endian.
fn seal_weight(h: &[u8], i: usize) -> curve25519_dalek::scalar::Scalar {
    let mut z = [0u8; 32];
    z[..16].copy_from_slice(
        &sha2::Sha512::new_with_prefix(h)
            .chain_update((i as u32).to_be_bytes())
            .finalize()[..16],
    );
    curve25519_dalek::scalar::Scalar::from_bytes_mod_order(z)
}

/// Numbers from a seed (spec 3.5): ChaCha20 (rand_chacha, pinned) seeded
/// with the 32 bytes, read as `u32` words.
pub struct Sampler {
    rng: ChaCha20Rng,
}

impl Sampler {
    /// A sampler for this seed.
    pub fn new(seed: &Hash) -> Self {
        Sampler {
            rng: ChaCha20Rng::from_seed(*seed),
        }
    }

    /// The next raw word.
    pub fn word(&mut self) -> u32 {
        self.rng.next_u32()
    }

    /// A uniform integer in `0..n` (`n` > 0): `x % n` for the first word `x`
    /// below `n * floor(2^32 / n)`.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0)");
        let limit = u64::from(n) * ((1u64 << 32) / u64::from(n));
        loop {
            let x = self.word();
            if u64::from(x) < limit {
                return x % n;
            }
        }
    }

    /// A uniform permutation of `0..n`: Fisher-Yates from the last index
    /// down, swapping index `i` with `below(i + 1)`.
    pub fn shuffle(&mut self, n: u32) -> Vec<u32> {
        let mut v: Vec<u32> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.below(i + 1);
            v.swap(i as usize, j as usize);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    //! What the derivations must do beyond their values: the values
    //! themselves are kept once, in tests/data/vectors/fairness.json,
    //! which tests/vectors.rs and the independent Python reference
    //! (`tools/fairness_reference.py`) both check.
    use super::*;

    const ZEROS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

    fn example_tags() -> [(&'static str, &'static str); 5] {
        [
            ("Game", "battle-of-the-dale"),
            ("Human", "ann@example.org"),
            ("Elf", "eve@example.org"),
            ("HumanCommit", ZEROS),
            ("Result", "*"),
        ]
    }

    fn example_game() -> Hash {
        game_id(example_tags())
    }

    fn example_chain() -> Hash {
        chain_id(example_tags())
    }

    /// A chain bound to another signing key is another chain: the same
    /// secret's reveals do not follow the commitment made under the first
    /// (the values themselves: tests/data/vectors/fairness.json, checked
    /// by tests/vectors.rs).
    #[test]
    fn a_chain_bound_to_another_key_does_not_follow_the_first() {
        let chain = example_chain();
        let bound = bound_chain(&chain, &[0x11; 32]);
        let secret: Hash = std::array::from_fn(|i| i as u8);
        let other = bound_chain(&chain, &[0x12; 32]);
        assert_ne!(other, bound);
        let s1 = chain_value(&secret, &bound, 1).unwrap();
        assert_eq!(
            chain_step(&bound, &s1),
            chain_value(&secret, &bound, 0).unwrap()
        );
        assert_ne!(
            chain_step(&other, &s1),
            chain_value(&secret, &bound, 0).unwrap()
        );
    }

    #[test]
    fn a_chain_from_another_game_does_not_verify() {
        let secret = [5u8; 32];
        let a = chain_id([("Game", "castle-danger"), ("Blue", "a")]);
        let b = chain_id([("Game", "castle-danger"), ("Blue", "b")]);
        let s1 = chain_value(&secret, &a, 1).unwrap();
        assert_eq!(chain_step(&a, &s1), chain_value(&secret, &a, 0).unwrap());
        assert_ne!(chain_step(&b, &s1), chain_value(&secret, &a, 0).unwrap());
        assert_ne!(chain_value(&secret, &b, 0), chain_value(&secret, &a, 0));
    }

    #[test]
    fn the_chain_id_leaves_out_result_and_commitments() {
        let plain = chain_id([("Game", "x"), ("Blue", "a")]);
        assert_eq!(
            plain,
            chain_id([
                ("Game", "x"),
                ("BlueCommit", ZEROS),
                ("Blue", "a"),
                ("Result", "Blue")
            ])
        );
        assert_ne!(plain, chain_id([("Game", "x"), ("Blue", "b")]));
    }

    #[test]
    fn chain_prefix_agrees_with_chain_value() {
        let secret = [3u8; 32];
        let c = example_chain();
        let prefix = chain_prefix(&secret, &c, 5);
        assert_eq!(prefix.len(), 6);
        for (j, v) in prefix.iter().enumerate() {
            assert_eq!(Some(*v), chain_value(&secret, &c, j as u32));
        }
    }

    #[test]
    fn each_chain_value_steps_down_to_the_one_before() {
        let secret = [7u8; 32];
        let c = example_chain();
        let s1 = chain_value(&secret, &c, 1).unwrap();
        assert_eq!(chain_step(&c, &s1), chain_value(&secret, &c, 0).unwrap());
        assert_eq!(chain_step(&c, &chain_value(&secret, &c, 2).unwrap()), s1);
        assert!(chain_value(&secret, &c, CHAIN_LENGTH + 1).is_none());
    }

    fn example_settle_seed() -> Hash {
        settle_seed(&example_game(), 7, 8, "rally", &[0x33; 32], &[[0x44; 32]])
    }

    #[test]
    fn the_settle_seed_depends_on_every_other_reveal() {
        // The settler alone cannot fix the value: another player's reveal
        // (the declarer's on the declaring line) changes it.
        let game = example_game();
        let base = example_settle_seed();
        assert_ne!(
            base,
            settle_seed(&game, 7, 8, "rally", &[0x33; 32], &[[0x45; 32]])
        );
        assert_ne!(base, settle_seed(&game, 7, 8, "rally", &[0x33; 32], &[]));
    }

    #[test]
    fn the_game_id_ignores_the_result_tag_only() {
        let a = game_id([("Game", "x"), ("Result", "*")]);
        assert_eq!(a, game_id([("Game", "x"), ("Result", "Blue")]));
        assert_ne!(a, game_id([("Game", "y"), ("Result", "*")]));
    }

    #[test]
    fn below_rejects_words_at_or_above_the_last_whole_multiple() {
        // n = 3: limit = 3 * 1431655765 = 4294967295, so only u32::MAX is
        // rejected; below() must equal the rule applied to the raw words.
        let mut raw = Sampler::new(&[1u8; 32]);
        let mut s = Sampler::new(&[1u8; 32]);
        for _ in 0..1000 {
            let expect = loop {
                let x = raw.word();
                if x != u32::MAX {
                    break x % 3;
                }
            };
            assert_eq!(s.below(3), expect);
        }
    }

    /// The example line of spec section 3.8: turn 7 of Human, its text.
    const SEALED_TEXT: &str = "rally=heads, B1-B2, rally Dwarf @C1\nreveal \
        1111111111111111111111111111111111111111111111111111111111111111";

    /// The example seal of spec section 3.8 (its values:
    /// tests/data/vectors/fairness.json) verifies, alone and in a batch,
    /// and no other line, place or record digest does.
    #[test]
    fn the_example_seal_verifies_and_nothing_else_does() {
        let secret: Hash = std::array::from_fn(|i| i as u8);
        let key = signing_key(&signing_seed(&secret, &example_chain()));
        let public = key.verifying_key();
        let d0 = record_start(&example_game());
        let line = line_bytes(SealedKind::Turn, 7, "Human", SEALED_TEXT);
        let message = seal_message(&example_game(), &line, &d0);
        let sig = ed25519_dalek::Signer::sign(&key, &message).to_bytes();
        assert!(seal_verifies(&public, &message, &sig));
        let moved = line_bytes(SealedKind::Turn, 8, "Human", SEALED_TEXT);
        let moved = seal_message(&example_game(), &moved, &d0);
        assert!(!seal_verifies(&public, &moved, &sig));
        let later = seal_message(&example_game(), &line, &record_step(&d0, &line, None));
        assert!(!seal_verifies(&public, &later, &sig));
        // In a batch, the same verdicts.
        let messages: [&[u8]; 2] = [&message, &message];
        assert!(seals_verify(&[public, public], &messages, &[sig, sig]));
        let messages: [&[u8]; 2] = [&message, &later];
        assert!(!seals_verify(&[public, public], &messages, &[sig, sig]));
        let mut bad_r = sig;
        bad_r[..32].copy_from_slice(&[0; 32]);
        assert!(!seals_verify(&[public], &[&message], &[bad_r]));
    }

    /// The merged-key batch says of a set of seals what `verify_strict`
    /// says of each: every one true, or some false, whichever byte of
    /// which signature is altered, with two keys taking turns (as two
    /// sides' lines do) and with a signature claimed by the other key.
    #[test]
    fn a_batch_of_seals_says_what_verify_strict_says_of_each() {
        let keys = [signing_key(&[1; 32]), signing_key(&[2; 32])];
        let publics: Vec<_> = (0..8).map(|i| keys[i % 2].verifying_key()).collect();
        let messages: Vec<Vec<u8>> = (0..8u8).map(|i| vec![i; 40 + usize::from(i)]).collect();
        let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
        let sigs: Vec<[u8; 64]> = (0..8)
            .map(|i| ed25519_dalek::Signer::sign(&keys[i % 2], &messages[i]).to_bytes())
            .collect();
        let each = |publics: &[ed25519_dalek::VerifyingKey], sigs: &[[u8; 64]]| {
            (0..sigs.len()).all(|i| seal_verifies(&publics[i], refs[i], &sigs[i]))
        };
        assert!(each(&publics, &sigs));
        assert!(seals_verify(&publics, &refs, &sigs));
        for at in [0, 5, 31, 32, 40, 63] {
            for victim in [0, 3, 7] {
                let mut bad = sigs.clone();
                bad[victim][at] ^= 0x10;
                assert!(!each(&publics, &bad), "byte {at} of {victim}");
                assert!(
                    !seals_verify(&publics, &refs, &bad),
                    "byte {at} of {victim}"
                );
            }
        }
        let mut claimed = publics.clone();
        claimed[2] = keys[1].verifying_key();
        assert!(!each(&claimed, &sigs));
        assert!(!seals_verify(&claimed, &refs, &sigs));
        // `s` not reduced (s + l): refused by both, though the equation holds.
        // l = 2^252 + 27742317777372353535851937790883648493, little-endian.
        let l: [u8; 32] = [
            0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9,
            0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
        ];
        let mut unreduced = sigs.clone();
        let mut carry = 0u16;
        for k in 0..32 {
            let sum = u16::from(unreduced[4][32 + k]) + u16::from(l[k]) + carry;
            unreduced[4][32 + k] = sum as u8;
            carry = sum >> 8;
        }
        assert!(!each(&publics, &unreduced));
        assert!(!seals_verify(&publics, &refs, &unreduced));
        // Lengths that disagree are no batch.
        assert!(!seals_verify(&publics[..7], &refs, &sigs));
        assert!(seals_verify(&[], &[], &[]));
    }

    /// A point's `y` is canonical below 2^255 - 19 whatever its sign bit.
    #[test]
    fn a_point_encoding_is_canonical_below_the_prime() {
        let mut p_minus_1 = [0xff; 32];
        p_minus_1[0] = 0xec;
        p_minus_1[31] = 0x7f;
        assert!(canonical_y(&p_minus_1));
        let mut signed = p_minus_1;
        signed[31] |= 0x80;
        assert!(canonical_y(&signed));
        let mut p = p_minus_1;
        p[0] = 0xed;
        assert!(!canonical_y(&p));
        assert!(!canonical_y(&[0xff; 32]));
        assert!(canonical_y(&[0; 32]));
    }

    #[test]
    fn a_commitment_binds_side_slot_salt_and_value() {
        let game = example_game();
        let salt = [9u8; 32];
        let base = slot_commitment(&game, "Human", "a1", &salt, "R");
        assert_ne!(base, slot_commitment(&game, "Elf", "a1", &salt, "R"));
        assert_ne!(base, slot_commitment(&game, "Human", "b1", &salt, "R"));
        assert_ne!(base, slot_commitment(&game, "Human", "a1", &[8; 32], "R"));
        assert_ne!(base, slot_commitment(&game, "Human", "a1", &salt, "P"));
    }
}
