//! A player's wallet: the key material of one side in one game (spec
//! sections 3.1 and 3.8). It holds the secret from which the side's hash
//! chain and signing key are derived, the hidden values chosen, and the
//! digest of the record as the player last sent it; it is the one place
//! the library keeps what a player must never send. The library reads
//! and writes its text; only the command line touches files.

use ed25519_dalek::{Signer, SigningKey};

use crate::fairness::{
    chain_prefix, chain_value, signing_key, signing_seed, slot_salt, Hash, CHAIN_LENGTH,
};
use crate::record::LineKind;
use crate::referee::deck::{CardSecret, ShuffleSeed};

const MAGIC: &str = "herald-key: 1";

/// The key material of one side in one game.
#[derive(Clone)]
pub struct Wallet {
    game: String,
    side: String,
    chain: Hash,
    commit: Hash,
    secret: Hash,
    /// The hidden values the player chose, by slot, in the order chosen.
    hidden: Vec<(String, String)>,
    /// Chain values `s_0 ..= s_k` worked out ahead, for players that write
    /// many lines in one run (self-play); empty otherwise.
    ahead: Vec<Hash>,
    /// The Ed25519 key that signs the side's lines, derived from the
    /// secret and the chain id.
    signing: SigningKey,
    /// The last line the player wrote and the record digest after it.
    sent: Option<Sent>,
}

/// The last line a player wrote into a record, and the digest of the
/// record up to it (spec section 3.8).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sent {
    /// A set-up line or a turn.
    pub kind: LineKind,
    /// Its number.
    pub number: u32,
    /// The record digest after it.
    pub digest: Hash,
}

impl Sent {
    /// The line as a player names it: `turn 12`, `set-up line S2`.
    pub fn name(&self) -> String {
        match self.kind {
            LineKind::Setup => format!("set-up line S{}", self.number),
            LineKind::Turn => format!("turn {}", self.number),
        }
    }
}

impl std::fmt::Debug for Wallet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the secret.
        f.debug_struct("Wallet")
            .field("game", &self.game)
            .field("side", &self.side)
            .finish_non_exhaustive()
    }
}

/// Why a text is not a wallet.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WalletError(pub String);

impl Wallet {
    /// The wallet of `side` in `game` (chain id `chain`) for this secret.
    pub fn from_secret(game: &str, side: &str, chain: Hash, secret: Hash) -> Wallet {
        let commit = chain_value(&secret, &chain, 0).expect("s0 exists");
        Wallet {
            game: game.into(),
            side: side.into(),
            chain,
            commit,
            signing: signing_key(&signing_seed(&secret, &chain)),
            secret,
            hidden: Vec::new(),
            ahead: Vec::new(),
            sent: None,
        }
    }

    /// A fresh wallet from the operating system's random source.
    pub fn generate(game: &str, side: &str, chain: Hash) -> Result<Wallet, WalletError> {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret)
            .map_err(|e| WalletError(format!("the operating system gave no random bytes: {e}")))?;
        Ok(Wallet::from_secret(game, side, chain, secret))
    }

    /// Work out the first `lines` reveals ahead of time (one walk of the
    /// chain instead of one a line).
    pub fn prepare(&mut self, lines: u32) {
        self.ahead = chain_prefix(&self.secret, &self.chain, lines.min(CHAIN_LENGTH));
    }

    /// The game id tag value (`castle-danger`).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The side, canonical case.
    pub fn side(&self) -> &str {
        &self.side
    }

    /// The chain id of the game the wallet was made for.
    pub fn chain(&self) -> &Hash {
        &self.chain
    }

    /// The public commitment `s_0`.
    pub fn commit(&self) -> &Hash {
        &self.commit
    }

    /// The side's Ed25519 public key, for its `<Side>Key` tag.
    pub fn public_key(&self) -> [u8; 32] {
        self.signing.verifying_key().to_bytes()
    }

    /// The player's signature of `message` (a line's seal).
    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        self.signing.sign(message).to_bytes()
    }

    /// The last line the player wrote, with the record digest after it.
    pub fn sent(&self) -> Option<Sent> {
        self.sent
    }

    /// Remember that the player wrote `sent`.
    pub fn set_sent(&mut self, sent: Sent) {
        self.sent = Some(sent);
    }

    /// The reveal for the player's `j`-th line (`s_j`), if the chain is
    /// that long.
    pub fn reveal(&self, j: u32) -> Option<Hash> {
        match self.ahead.get(j as usize) {
            Some(h) => Some(*h),
            None => chain_value(&self.secret, &self.chain, j),
        }
    }

    /// The salt of the hidden value in `slot` (spec section 3.7): derived
    /// from the secret, so the key file is all the player needs to open it.
    pub fn salt(&self, slot: &str) -> Hash {
        slot_salt(&self.secret, &self.chain, &self.side, slot)
    }

    /// The side's card secret in game `game` (spec section 3.9), derived
    /// from the secret: never printed, never written into a record.
    pub fn card_secret(&self, game: &Hash, side: &str) -> CardSecret {
        CardSecret::derive(&self.secret, game, side)
    }

    /// The seed of the side's pass over deck `generation` of game `game`
    /// (spec section 3.9), derived from the secret.
    pub fn shuffle_seed(&self, game: &Hash, side: &str, generation: u32) -> ShuffleSeed {
        ShuffleSeed::derive(&self.secret, game, side, generation)
    }

    /// Keep `value` as the player's choice for `slot` (replacing an earlier
    /// choice). The caller checks that the game allows it.
    pub fn choose(&mut self, slot: &str, value: &str) {
        match self.hidden.iter_mut().find(|(s, _)| s == slot) {
            Some(entry) => entry.1 = value.to_owned(),
            None => self.hidden.push((slot.to_owned(), value.to_owned())),
        }
    }

    /// The player's choice for `slot`, if made.
    pub fn chosen(&self, slot: &str) -> Option<&str> {
        self.hidden
            .iter()
            .find(|(s, _)| s.eq_ignore_ascii_case(slot))
            .map(|(_, v)| v.as_str())
    }

    /// Every choice, by slot, in the order chosen.
    pub fn choices(&self) -> impl Iterator<Item = (&str, &str)> {
        self.hidden.iter().map(|(s, v)| (s.as_str(), v.as_str()))
    }

    /// The wallet as the text of a key file.
    pub fn to_text(&self) -> String {
        let mut text = format!(
            "# herald private key. Keep this file on your machine: never send it,\n\
             # never paste it anywhere. It writes {side}'s reveals in this game.\n\
             {MAGIC}\ngame: {game}\nside: {side}\nchain: {chain}\ncommit: {commit}\nsecret: {secret}\n",
            side = self.side,
            game = self.game,
            chain = hex::encode(self.chain),
            commit = hex::encode(self.commit),
            secret = hex::encode(self.secret),
        );
        for (slot, value) in &self.hidden {
            text.push_str(&format!("hidden: {slot} {value}\n"));
        }
        if let Some(sent) = &self.sent {
            let kind = match sent.kind {
                LineKind::Setup => "S",
                LineKind::Turn => "",
            };
            text.push_str(&format!(
                "sent: {kind}{} {}\n",
                sent.number,
                hex::encode(sent.digest)
            ));
        }
        text
    }

    /// Read the text of a key file.
    pub fn parse(text: &str) -> Result<Wallet, WalletError> {
        let bad = |why: &str| WalletError(why.to_owned());
        if !text.lines().any(|l| l.trim() == MAGIC) {
            return Err(bad("no `herald-key: 1` line"));
        }
        let field = |name: &str| {
            text.lines()
                .filter_map(|l| l.split_once(':'))
                .find(|(k, _)| k.trim() == name)
                .map(|(_, v)| v.trim().to_owned())
                .ok_or_else(|| bad(&format!("no `{name}:` line")))
        };
        let hash = |name: &str| -> Result<Hash, WalletError> {
            let mut h = [0u8; 32];
            hex::decode_to_slice(field(name)?, &mut h)
                .map_err(|_| bad(&format!("`{name}` is not 64 hexadecimal digits")))?;
            Ok(h)
        };
        let mut wallet = Wallet::from_secret(
            &field("game")?,
            &field("side")?,
            hash("chain")?,
            hash("secret")?,
        );
        if hash("commit")? != wallet.commit {
            return Err(bad("its commit does not follow from its secret"));
        }
        for line in text.lines() {
            let Some(("hidden", choice)) = line.split_once(':').map(|(k, v)| (k.trim(), v)) else {
                continue;
            };
            let mut words = choice.split_whitespace();
            match (words.next(), words.next(), words.next()) {
                (Some(slot), Some(value), None) => wallet.choose(slot, value),
                _ => return Err(bad("a `hidden:` line holds a slot and its value")),
            }
        }
        if let Ok(sent) = field("sent") {
            wallet.sent = Some(read_sent(&sent).ok_or_else(|| {
                bad("a `sent:` line holds a line (`12` or `S2`) and 64 hexadecimal digits")
            })?);
        }
        Ok(wallet)
    }
}

/// The value of a `sent:` line: `12 <64 hex>` or `S2 <64 hex>`.
fn read_sent(value: &str) -> Option<Sent> {
    let (line, digest) = value.split_once(' ')?;
    let (kind, number) = match line.strip_prefix('S') {
        Some(n) => (LineKind::Setup, n),
        None => (LineKind::Turn, line),
    };
    let mut h = [0u8; 32];
    hex::decode_to_slice(digest.trim(), &mut h).ok()?;
    Some(Sent {
        kind,
        number: number.parse().ok()?,
        digest: h,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wallet_reads_back_from_its_text() {
        let w = Wallet::from_secret("castle-danger", "Blue", [7; 32], [9; 32]);
        let back = Wallet::parse(&w.to_text()).unwrap();
        assert_eq!(back.commit(), w.commit());
        assert_eq!(back.reveal(3), w.reveal(3));
        assert_eq!((back.game(), back.side()), ("castle-danger", "Blue"));
    }

    #[test]
    fn hidden_choices_are_kept_in_the_key_file() {
        let mut w = Wallet::from_secret("playground-battles", "Blue", [7; 32], [9; 32]);
        w.choose("a1", "R");
        w.choose("b1", "P");
        w.choose("a1", "S");
        let back = Wallet::parse(&w.to_text()).unwrap();
        let choices: Vec<_> = back.choices().collect();
        assert_eq!(choices, [("a1", "S"), ("b1", "P")]);
        assert_eq!(back.salt("a1"), w.salt("a1"));
        assert_ne!(w.salt("a1"), w.salt("b1"));
    }

    #[test]
    fn a_wallet_whose_commit_does_not_follow_from_its_secret_is_refused() {
        let w = Wallet::from_secret("castle-danger", "Blue", [7; 32], [9; 32]);
        let text = w
            .to_text()
            .replace(&hex::encode(w.commit()), &"00".repeat(32));
        assert_eq!(
            Wallet::parse(&text).unwrap_err().0,
            "its commit does not follow from its secret"
        );
    }

    #[test]
    fn reveals_worked_out_ahead_are_the_chain_values() {
        let mut w = Wallet::from_secret("x", "A", [1; 32], [2; 32]);
        let slow: Vec<_> = (0..5).map(|j| w.reveal(j)).collect();
        w.prepare(4);
        let fast: Vec<_> = (0..5).map(|j| w.reveal(j)).collect();
        assert_eq!(slow, fast);
    }

    #[test]
    fn the_last_line_sent_is_kept_in_the_key_file() {
        let mut w = Wallet::from_secret("castle-danger", "Blue", [7; 32], [9; 32]);
        assert_eq!(Wallet::parse(&w.to_text()).unwrap().sent(), None);
        for kind in [LineKind::Turn, LineKind::Setup] {
            let sent = Sent {
                kind,
                number: 12,
                digest: [0xcd; 32],
            };
            w.set_sent(sent);
            assert_eq!(Wallet::parse(&w.to_text()).unwrap().sent(), Some(sent));
        }
        assert!(w
            .to_text()
            .contains(&format!("sent: S12 {}", "cd".repeat(32))));
    }

    #[test]
    fn the_signing_key_follows_from_the_secret_and_the_game() {
        let a = Wallet::from_secret("x", "A", [1; 32], [2; 32]);
        let back = Wallet::parse(&a.to_text()).unwrap();
        assert_eq!(back.public_key(), a.public_key());
        let other_game = Wallet::from_secret("x", "A", [3; 32], [2; 32]);
        assert_ne!(other_game.public_key(), a.public_key());
        let key = ed25519_dalek::VerifyingKey::from_bytes(&a.public_key()).unwrap();
        let sig = a.sign(b"a line");
        assert!(crate::fairness::seal_verifies(&key, b"a line", &sig));
        assert!(!crate::fairness::seal_verifies(&key, b"a line!", &sig));
    }

    #[test]
    fn a_wallet_never_prints_its_secret_in_debug() {
        let w = Wallet::from_secret("x", "A", [1; 32], [0xab; 32]);
        assert!(!format!("{w:?}").contains("abab"));
    }
}
