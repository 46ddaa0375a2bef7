//! Fair chance and proof of authorship without a trusted server
//! (RULINGS 1): hash chains, the game id, seeds and the sampler. Every
//! derivation is stated byte for byte in `notation-spec.md`; the test
//! vectors below are the ones printed there.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};

/// Links in every hash chain: the most turns one player can take.
pub const CHAIN_LENGTH: u32 = 10_000;

const DOMAIN_CHAIN: &[u8] = b"herald/chain/v1";
const DOMAIN_CHAIN_SEED: &[u8] = b"herald/chain-seed/v1";
const DOMAIN_GAME_ID: &[u8] = b"herald/game-id/v1";
const DOMAIN_TURN_CHANCE: &[u8] = b"herald/turn-chance/v1";
const DOMAIN_SETTLE_CHANCE: &[u8] = b"herald/settle-chance/v1";

/// 32 bytes: a hash, a chain value, a seed.
pub type Hash = [u8; 32];

fn put_len(h: &mut Sha256, bytes: &[u8]) {
    h.update((bytes.len() as u32).to_be_bytes());
    h.update(bytes);
}

/// One link down the chain: `s_{k-1} = SHA-256("herald/chain/v1" || s_k)`.
pub fn chain_step(value: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_CHAIN);
    h.update(value);
    h.finalize().into()
}

/// The chain value `s_j` of a private key: `s_N` is
/// `SHA-256("herald/chain-seed/v1" || secret)` with `N` = [`CHAIN_LENGTH`],
/// and each lower value is one [`chain_step`] of the one above.
/// `s_0` is the public commitment, `s_j` the reveal on the player's j-th line.
pub fn chain_value(secret: &Hash, j: u32) -> Option<Hash> {
    if j > CHAIN_LENGTH {
        return None;
    }
    let mut h = Sha256::new();
    h.update(DOMAIN_CHAIN_SEED);
    h.update(secret);
    let mut value: Hash = h.finalize().into();
    for _ in j..CHAIN_LENGTH {
        value = chain_step(&value);
    }
    Some(value)
}

/// The chain values `s_0 ..= s_upto` of a private key, computing the
/// chain once (for writing many turns).
pub fn chain_prefix(secret: &Hash, upto: u32) -> Vec<Hash> {
    let upto = upto.min(CHAIN_LENGTH);
    let mut value = chain_value(secret, upto).expect("upto <= N");
    let mut values = vec![value; upto as usize + 1];
    for j in (0..upto as usize).rev() {
        value = chain_step(&value);
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

/// Seed of a turn-start chance event (RULINGS 1.4): SHA-256 over the domain,
/// the game id, the turn number (4 bytes big-endian), the label (length and
/// bytes), the mover's reveal on this line, then the latest reveal (or the
/// commitment, before their first line) of every other player in side order.
pub fn turn_seed(game: &Hash, turn: u32, label: &str, mover: &Hash, others: &[Hash]) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_TURN_CHANCE);
    h.update(game);
    h.update(turn.to_be_bytes());
    put_len(&mut h, label.as_bytes());
    h.update(mover);
    for other in others {
        h.update(other);
    }
    h.finalize().into()
}

/// Seed of a chance event declared on turn `declared` and settled on turn
/// `settling` by that line's reveal (RULINGS 1.5): SHA-256 over the domain,
/// the game id, both turn numbers (4 bytes big-endian each), the label
/// (length and bytes) and the settling reveal.
pub fn settle_seed(game: &Hash, declared: u32, settling: u32, label: &str, reveal: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update(DOMAIN_SETTLE_CHANCE);
    h.update(game);
    h.update(declared.to_be_bytes());
    h.update(settling.to_be_bytes());
    put_len(&mut h, label.as_bytes());
    h.update(reveal);
    h.finalize().into()
}

/// Numbers from a seed (RULINGS 1.6): ChaCha20 (rand_chacha, pinned) seeded
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
    //! Vectors from `tools/fairness_reference.py`, an independent Python
    //! implementation written from the spec (hashlib and a textbook
    //! ChaCha20 checked against the RFC 7539 all-zero key stream).
    use super::*;

    fn h(s: &str) -> Hash {
        let mut out = [0u8; 32];
        hex::decode_to_slice(s, &mut out).unwrap();
        out
    }

    fn example_game() -> Hash {
        game_id([
            ("Game", "battle-of-the-dale"),
            ("Human", "ann@example.org"),
            ("Elf", "eve@example.org"),
            ("Result", "*"),
        ])
    }

    fn example_seed() -> Hash {
        turn_seed(&example_game(), 7, "die", &[0x11; 32], &[[0x22; 32]])
    }

    #[test]
    fn chain_values_match_the_reference() {
        assert_eq!(
            chain_step(&[0; 32]),
            h("a578b79951d1a731aa9e7fcc5856066e398a6a6c55dd8a3f3a3394683ac0aee6")
        );
        let secret: Hash = std::array::from_fn(|i| i as u8);
        assert_eq!(
            chain_value(&secret, 0).unwrap(),
            h("459f86985c3cbb3a97191793d000be2255faf52f61fa1c641501577319ec231f")
        );
        assert_eq!(
            chain_value(&secret, 1).unwrap(),
            h("a0ec0cef7e413160649882cbe35f7c8c1292f3cfb650c7ca1f17c0139377d992")
        );
    }

    #[test]
    fn chain_prefix_agrees_with_chain_value() {
        let secret = [3u8; 32];
        let prefix = chain_prefix(&secret, 5);
        assert_eq!(prefix.len(), 6);
        for (j, v) in prefix.iter().enumerate() {
            assert_eq!(Some(*v), chain_value(&secret, j as u32));
        }
    }

    #[test]
    fn each_chain_value_steps_down_to_the_one_before() {
        let secret = [7u8; 32];
        let s1 = chain_value(&secret, 1).unwrap();
        assert_eq!(chain_step(&s1), chain_value(&secret, 0).unwrap());
        assert_eq!(chain_step(&chain_value(&secret, 2).unwrap()), s1);
        assert!(chain_value(&secret, CHAIN_LENGTH + 1).is_none());
    }

    #[test]
    fn game_id_and_seeds_match_the_reference() {
        assert_eq!(
            example_game(),
            h("80157dc7933531e5a0688724a773b191901067c8d63158ccd26e6d7c027a726d")
        );
        assert_eq!(
            example_seed(),
            h("846f2284a8d4aa244dfdd93a06b55d91f34928feec02fabe5891dd4aa103608f")
        );
        assert_eq!(
            settle_seed(&example_game(), 7, 8, "rally", &[0x33; 32]),
            h("d33a30c9f009f35d832e5df0bfe08927f7089d6aae30214740aa9fc715704a94")
        );
    }

    #[test]
    fn the_game_id_ignores_the_result_tag_only() {
        let a = game_id([("Game", "x"), ("Result", "*")]);
        assert_eq!(a, game_id([("Game", "x"), ("Result", "Blue")]));
        assert_ne!(a, game_id([("Game", "y"), ("Result", "*")]));
    }

    #[test]
    fn chacha_words_match_the_rfc_zero_key_stream() {
        let mut s = Sampler::new(&[0; 32]);
        let words: Vec<u32> = (0..4).map(|_| s.word()).collect();
        assert_eq!(words, [2917185654, 2419978656, 3848953152, 683509331]);
    }

    #[test]
    fn dice_and_coins_match_the_reference() {
        let draw = |n: u32| {
            let mut s = Sampler::new(&example_seed());
            (0..12).map(|_| s.below(n)).collect::<Vec<_>>()
        };
        assert_eq!(draw(2), [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
        assert_eq!(draw(4), [3, 0, 1, 2, 0, 2, 0, 2, 0, 2, 3, 2]);
        assert_eq!(draw(6), [5, 4, 1, 4, 0, 2, 0, 2, 0, 4, 5, 0]);
        let faces = [1, 2, 2, 3, 3, 4];
        let die: Vec<u32> = draw(6).iter().map(|&k| faces[k as usize]).collect();
        assert_eq!(die, [4, 3, 2, 3, 1, 2, 1, 2, 1, 3, 4, 1]);
    }

    #[test]
    fn shuffle_of_34_matches_the_reference() {
        let mut s = Sampler::new(&example_seed());
        assert_eq!(
            s.shuffle(34),
            [
                10, 13, 6, 21, 18, 9, 26, 3, 28, 32, 1, 33, 29, 23, 7, 15, 8, 12, 25, 2, 14, 24,
                27, 11, 19, 30, 31, 4, 20, 0, 16, 5, 22, 17
            ]
        );
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
}
