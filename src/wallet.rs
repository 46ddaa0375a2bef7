//! A player's wallet: the key material of one side in one game (spec
//! sections 3.1 and 3.8). It holds the secret from which the side's hash
//! chain and signing key are derived, the hidden values chosen, and the
//! digest of the record as the player last sent it; it is the one place
//! the library keeps what a player must never send. The library reads
//! and writes its text; only the command line touches files.

use std::sync::Arc;

use ed25519_dalek::{Signer, SigningKey};

use crate::fairness::{
    chain_prefix, chain_step, chain_value, signing_key, signing_seed, slot_salt, Hash, Protocol,
    CHAIN_LENGTH,
};
use crate::record::LineKind;

const MAGIC: &str = "herald-key: 1";

/// Every how many links of the hash chain a key file keeps one (spec
/// section 3.1): `link: 100 <s_100>` to `link: 9900 <s_9900>`. A reveal
/// is then at most this many hashes from a link, not a walk of the chain.
pub const LINK_STEP: u32 = 100;

/// The key material of one side in one game.
#[derive(Clone)]
pub struct Wallet {
    game: String,
    side: String,
    chain: Hash,
    /// The protocol of the record the key was made for (spec 3.1).
    protocol: Protocol,
    /// What the side's chain is hashed under: the chain id, or in
    /// protocol 2 the chain id bound to the side's public key.
    hashing: Hash,
    commit: Hash,
    secret: Hash,
    /// The hidden values the player chose, by slot, in the order chosen.
    hidden: Vec<(String, String)>,
    /// Links of the chain, `links[i] = s_(i * step)` for `i` from 0 (the
    /// commitment) to `N / step` (`s_N`, from the secret). `step` is
    /// [`LINK_STEP`] for a key file that keeps its links (they are written
    /// back), 1 for an older one without them: its whole chain, walked once
    /// when it is read. Shared by the wallet's copies.
    links: Arc<[Hash]>,
    /// How far apart the links are: [`LINK_STEP`] or 1.
    step: u32,
    /// The Ed25519 key that signs the side's lines, derived from the
    /// secret and the chain id.
    signing: SigningKey,
    /// The last line the player wrote and the record digest after it.
    sent: Option<Sent>,
    /// The newest record the player checked (`check --key`) since.
    seen: Option<Seen>,
    /// The key file's name as the player gave it, where an error about
    /// the file is to name it (never written into the file).
    file: Option<String>,
}

/// The newest record a player checked with its key file (`check --key`)
/// since its last line (spec section 3.8): how many lines it had, the
/// digest after its last line and before it, and that last line (its
/// side, as written, and its first physical line). A record that parts
/// from it (two lines of one side that answer the same record) is a
/// fork, refused by the player's `move --key` and `check --key`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Seen {
    /// How many lines (set-up lines and turns) the record had.
    pub lines: u32,
    /// The record digest after its last line.
    pub digest: Hash,
    /// The record digest before its last line.
    pub before: Hash,
    /// The side of its last line, as written.
    pub side: String,
    /// Whether its last line was a forfeit claim.
    pub claim: bool,
    /// The first physical line of its last line (`3. Blue: Cd1-d2`).
    pub head: String,
}

/// The last line a player wrote into a record, and the digest of the
/// record up to it (spec section 3.8): with the digest before it, its
/// text and the reply message it went out in, so that a lost reply can be
/// written again and a second, different answer to the same record is
/// refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Sent {
    /// A set-up line or a turn.
    pub kind: LineKind,
    /// Its number.
    pub number: u32,
    /// The record digest after it.
    pub digest: Hash,
    /// What the player answered: the record digest before the line
    /// (`None` in a key file written before it was kept).
    pub after: Option<Hash>,
    /// For a line written once play ended (an audit, or a forfeit claimed
    /// in the audit): the record digest when play ended, the line that
    /// ended it included. The audits come in any order, so a record that
    /// passes through this digest is the game the player audited,
    /// whatever closing lines of others came before or after its own.
    pub ended: Option<Hash>,
    /// The line as written, every physical line of it, signature
    /// included (public: it went into the record).
    pub text: Option<String>,
    /// The reply message it went out in (`move --reply -o FILE`), as
    /// given.
    pub reply: Option<String>,
}

impl Sent {
    /// The line as a player names it: `turn 12`, `set-up line S2`.
    pub fn name(&self) -> String {
        // A claim of another side's forfeit (`27. Blue: forfeit claimed
        // by Red`) is the player's claim, not its turn.
        if self.is_claim() {
            return match self.kind {
                LineKind::Setup => format!("forfeit claim on set-up line S{}", self.number),
                LineKind::Turn => format!("forfeit claim on turn {}", self.number),
            };
        }
        match self.kind {
            LineKind::Setup => format!("set-up line S{}", self.number),
            LineKind::Turn => format!("turn {}", self.number),
        }
    }

    /// Whether the line is a forfeit claim: its first physical line's
    /// item is `forfeit claimed by <side>`.
    pub fn is_claim(&self) -> bool {
        self.text
            .as_deref()
            .and_then(|t| t.lines().next())
            .and_then(|head| head.split_once(": "))
            .is_some_and(|(_, item)| {
                item.trim_start()
                    .get(..7)
                    .is_some_and(|w| w.eq_ignore_ascii_case("forfeit"))
            })
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
    /// The chain is walked once, and every [`LINK_STEP`]th link kept (and
    /// written into the key file).
    /// The record follows protocol 1 (no `Protocol` tag).
    pub fn from_secret(game: &str, side: &str, chain: Hash, secret: Hash) -> Wallet {
        Wallet::for_protocol(game, side, chain, secret, Protocol::One)
    }

    /// The wallet of `side` in `game` (chain id `chain`) for this secret,
    /// in a record of protocol `protocol`.
    pub fn for_protocol(
        game: &str,
        side: &str,
        chain: Hash,
        secret: Hash,
        protocol: Protocol,
    ) -> Wallet {
        let signing = signing_key(&signing_seed(&secret, &chain));
        let hashing = protocol.side_chain(&chain, Some(&signing.verifying_key().to_bytes()));
        let links = chain_prefix(&secret, &hashing, CHAIN_LENGTH)
            .into_iter()
            .step_by(LINK_STEP as usize)
            .collect();
        Wallet::with_links(game, side, (chain, protocol), secret, links, LINK_STEP)
    }

    /// The wallet whose chain has these links, `step` apart, `s_0` first.
    fn with_links(
        game: &str,
        side: &str,
        (chain, protocol): (Hash, Protocol),
        secret: Hash,
        links: Arc<[Hash]>,
        step: u32,
    ) -> Wallet {
        let signing = signing_key(&signing_seed(&secret, &chain));
        Wallet {
            game: game.into(),
            side: side.into(),
            chain,
            protocol,
            hashing: protocol.side_chain(&chain, Some(&signing.verifying_key().to_bytes())),
            commit: links[0],
            signing,
            secret,
            hidden: Vec::new(),
            links,
            step,
            sent: None,
            seen: None,
            file: None,
        }
    }

    /// A fresh wallet from the operating system's random source.
    pub fn generate(
        game: &str,
        side: &str,
        chain: Hash,
        protocol: Protocol,
    ) -> Result<Wallet, WalletError> {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret)
            .map_err(|e| WalletError(format!("the operating system gave no random bytes: {e}")))?;
        Ok(Wallet::for_protocol(game, side, chain, secret, protocol))
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

    /// The protocol of the record the key was made for.
    pub fn protocol(&self) -> Protocol {
        self.protocol
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

    /// This wallet, read from the key file named `file` as the player
    /// gave it ([`Wallet::file`]).
    pub fn named(mut self, file: &str) -> Wallet {
        self.file = Some(file.to_owned());
        self
    }

    /// The key file's name as the player gave it, if known: errors about
    /// the file name it (`--hand-key c2.key is Castle2's key ...`).
    pub fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }

    /// The last line the player wrote, with the record digest after it.
    pub fn sent(&self) -> Option<&Sent> {
        self.sent.as_ref()
    }

    /// Remember that the player wrote `sent`: a newer memory than any
    /// record checked before, which it replaces.
    pub fn set_sent(&mut self, sent: Sent) {
        self.sent = Some(sent);
        self.seen = None;
    }

    /// The newest record the player checked since its last line.
    pub fn seen(&self) -> Option<&Seen> {
        self.seen.as_ref()
    }

    /// Remember that the player checked the record `seen` describes.
    pub fn set_seen(&mut self, seen: Seen) {
        self.seen = Some(seen);
    }

    /// The reveal for the player's `j`-th line (`s_j`), `None` if the chain
    /// is not that long. It is worked out from the nearest link at or above
    /// `j`, and that link is checked on the way: hashed on down to the link
    /// below, it must give that link (at most [`LINK_STEP`] hashes in all).
    /// A key file whose links were altered is refused, not believed.
    pub fn reveal(&self, j: u32) -> Result<Option<Hash>, WalletError> {
        if j > CHAIN_LENGTH {
            return Ok(None);
        }
        let i = j.div_ceil(self.step);
        let (top, bottom) = (i * self.step, i.saturating_sub(1) * self.step);
        let mut value = self.links[i as usize];
        let mut reveal = value;
        for k in (bottom..top).rev() {
            value = chain_step(&self.hashing, &value);
            if k == j {
                reveal = value;
            }
        }
        if i > 0 && value != self.links[i as usize - 1] {
            return Err(WalletError(format!(
                "was altered: its link {top} does not lead to its {}, so no reveal is taken from it",
                link_name(bottom)
            )));
        }
        Ok(Some(reveal))
    }

    /// The salt of the hidden value in `slot` (spec section 3.7): derived
    /// from the secret, so the key file is all the player needs to open it.
    pub fn salt(&self, slot: &str) -> Hash {
        slot_salt(&self.secret, &self.chain, &self.side, slot)
    }

    /// The secret, for what the layers above derive from it (the deck's
    /// card secret and shuffle seeds: `referee::deck::CardSecret::of`,
    /// `ShuffleSeed::of`): private to the crate, never printed, never
    /// written into a record.
    pub(crate) fn secret(&self) -> &Hash {
        &self.secret
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
        if let Some(version) = self.protocol.tag_value() {
            text.push_str(&format!("protocol: {version}\n"));
        }
        if self.step == LINK_STEP {
            let inner = &self.links[1..self.links.len() - 1];
            for (i, link) in inner.iter().enumerate() {
                let k = (i as u32 + 1) * LINK_STEP;
                text.push_str(&format!("link: {k} {}\n", hex::encode(link)));
            }
        }
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
            if let Some(after) = &sent.after {
                text.push_str(&format!("sent-after: {}\n", hex::encode(after)));
            }
            if let Some(ended) = &sent.ended {
                text.push_str(&format!("sent-ended: {}\n", hex::encode(ended)));
            }
            if let Some(reply) = &sent.reply {
                text.push_str(&format!("sent-reply: {reply}\n"));
            }
            for line in sent.text.iter().flat_map(|t| t.lines()) {
                text.push_str(&format!("sent-line: {line}\n"));
            }
        }
        if let Some(seen) = &self.seen {
            text.push_str(&format!(
                "seen: {} {} {} {}{}\nseen-line: {}\n",
                seen.lines,
                seen.side,
                hex::encode(seen.digest),
                hex::encode(seen.before),
                if seen.claim { " claim" } else { "" },
                seen.head
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
        let (chain, secret, commit) = (hash("chain")?, hash("secret")?, hash("commit")?);
        let protocol = match field("protocol") {
            Ok(v) => {
                Protocol::from_tag(&v).ok_or_else(|| bad("its `protocol:` line is not 2 or 3"))?
            }
            Err(_) => Protocol::One,
        };
        let public = signing_key(&signing_seed(&secret, &chain))
            .verifying_key()
            .to_bytes();
        let hashing = protocol.side_chain(&chain, Some(&public));
        let links = read_links(text, &hashing, &secret, &commit)?;
        let ids = (chain, protocol);
        let mut wallet = match links {
            Some(links) => Wallet::with_links(
                &field("game")?,
                &field("side")?,
                ids,
                secret,
                links,
                LINK_STEP,
            ),
            None => {
                // An older key file without links: its whole chain.
                let links = chain_prefix(&secret, &hashing, CHAIN_LENGTH).into();
                Wallet::with_links(&field("game")?, &field("side")?, ids, secret, links, 1)
            }
        };
        if commit != wallet.commit {
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
            let mut sent = read_sent(&sent).ok_or_else(|| {
                bad("a `sent:` line holds a line (`12` or `S2`) and 64 hexadecimal digits")
            })?;
            if let Ok(after) = field("sent-after") {
                let mut h = [0u8; 32];
                hex::decode_to_slice(&after, &mut h)
                    .map_err(|_| bad("`sent-after` is not 64 hexadecimal digits"))?;
                sent.after = Some(h);
            }
            if let Ok(ended) = field("sent-ended") {
                let mut h = [0u8; 32];
                hex::decode_to_slice(&ended, &mut h)
                    .map_err(|_| bad("`sent-ended` is not 64 hexadecimal digits"))?;
                sent.ended = Some(h);
            }
            sent.reply = field("sent-reply").ok().filter(|r| !r.is_empty());
            // Each physical line as written (its indent kept).
            let lines: Vec<&str> = text
                .lines()
                .filter_map(|l| l.strip_prefix("sent-line:"))
                .map(|l| l.strip_prefix(' ').unwrap_or(l))
                .collect();
            if !lines.is_empty() {
                sent.text = Some(lines.iter().map(|l| format!("{l}\n")).collect());
            }
            wallet.sent = Some(sent);
        }
        if let Ok(seen) = field("seen") {
            let head = field("seen-line").unwrap_or_default();
            wallet.seen = Some(read_seen(&seen, head).ok_or_else(|| {
                bad("a `seen:` line holds a count of lines, a side, two times 64 hexadecimal digits and maybe `claim`")
            })?);
        }
        Ok(wallet)
    }
}

/// The name of link `k` in a reason: `commit` for `s_0`.
fn link_name(k: u32) -> String {
    match k {
        0 => "commit".into(),
        k => format!("link {k}"),
    }
}

/// The links of a key file's `link:` lines with `s_0` (`commit`) first and
/// `s_N` (from `secret`) last, `None` when it has none (an older key file).
/// They must be every [`LINK_STEP`]th link, each once. The top one is
/// checked against the secret and the commit against the bottom one here
/// ([`LINK_STEP`] hashes each); those between are checked when a reveal
/// is taken from them ([`Wallet::reveal`]).
fn read_links(
    text: &str,
    chain: &Hash,
    secret: &Hash,
    commit: &Hash,
) -> Result<Option<Arc<[Hash]>>, WalletError> {
    let count = (CHAIN_LENGTH / LINK_STEP) as usize;
    let mut inner: Vec<Option<Hash>> = vec![None; count - 1];
    let mut any = false;
    for line in text.lines() {
        let Some(("link", value)) = line.split_once(':').map(|(k, v)| (k.trim(), v)) else {
            continue;
        };
        any = true;
        let (k, h) = read_link(value).ok_or_else(|| {
            WalletError("a `link:` line holds a link number and 64 hexadecimal digits".into())
        })?;
        let slot = (k % LINK_STEP == 0 && k > 0 && k < CHAIN_LENGTH)
            .then(|| &mut inner[(k / LINK_STEP) as usize - 1])
            .filter(|slot| slot.is_none());
        match slot {
            Some(slot) => *slot = Some(h),
            None => return Err(links_not_every_step()),
        }
    }
    if !any {
        return Ok(None);
    }
    let mut links = Vec::with_capacity(count + 1);
    links.push(*commit);
    for link in inner {
        links.push(link.ok_or_else(links_not_every_step)?);
    }
    links.push(chain_value(secret, chain, CHAIN_LENGTH).expect("N <= N"));
    let down = |from: &Hash| (0..LINK_STEP).fold(*from, |v, _| chain_step(chain, &v));
    let top = CHAIN_LENGTH - LINK_STEP;
    if down(&links[count]) != links[count - 1] {
        return Err(WalletError(format!(
            "its link {top} does not follow from its secret"
        )));
    }
    if down(&links[1]) != *commit {
        return Err(WalletError(format!(
            "its commit does not follow from its link {LINK_STEP}"
        )));
    }
    Ok(Some(links.into()))
}

fn links_not_every_step() -> WalletError {
    WalletError(format!(
        "its `link:` lines are not every {LINK_STEP}th link of the chain ({LINK_STEP} to {}, once each)",
        CHAIN_LENGTH - LINK_STEP
    ))
}

/// The value of a `link:` line: `100 <64 hex>`.
fn read_link(value: &str) -> Option<(u32, Hash)> {
    let mut words = value.split_whitespace();
    let (k, hex_digits) = (words.next()?, words.next()?);
    if words.next().is_some() {
        return None;
    }
    let mut h = [0u8; 32];
    hex::decode_to_slice(hex_digits, &mut h).ok()?;
    Some((k.parse().ok()?, h))
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
        after: None,
        ended: None,
        text: None,
        reply: None,
    })
}

/// The value of a `seen:` line: `3 Blue <64 hex> <64 hex>`, then
/// `claim` for a claim line; `head` from its `seen-line:` line.
fn read_seen(value: &str, head: String) -> Option<Seen> {
    let mut words = value.split_whitespace();
    let lines = words.next()?.parse().ok()?;
    let side = words.next()?.to_owned();
    let mut digest = [0u8; 32];
    hex::decode_to_slice(words.next()?, &mut digest).ok()?;
    let mut before = [0u8; 32];
    hex::decode_to_slice(words.next()?, &mut before).ok()?;
    let claim = match words.next() {
        None => false,
        Some("claim") => true,
        Some(_) => return None,
    };
    Some(Seen {
        lines,
        digest,
        before,
        side,
        claim,
        head,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fairness::chain_value;

    #[test]
    fn a_wallet_reads_back_from_its_text() {
        let w = Wallet::from_secret("castle-danger", "Blue", [7; 32], [9; 32]);
        let back = Wallet::parse(&w.to_text()).unwrap();
        assert_eq!(back.commit(), w.commit());
        assert_eq!(back.reveal(3).unwrap(), w.reveal(3).unwrap());
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
            "its commit does not follow from its link 100"
        );
        // An older key file, without links, is checked by its whole chain.
        assert_eq!(
            Wallet::parse(&without_links(&text)).unwrap_err().0,
            "its commit does not follow from its secret"
        );
    }

    /// `text` without its `link:` lines: a key file as herald wrote them
    /// before they were kept.
    fn without_links(text: &str) -> String {
        text.lines()
            .filter(|l| !l.starts_with("link:"))
            .map(|l| format!("{l}\n"))
            .collect()
    }

    /// `text` with link `k` replaced by `value`.
    fn with_link(text: &str, k: u32, value: &Hash) -> String {
        text.lines()
            .map(|l| match l.strip_prefix(&format!("link: {k} ")) {
                Some(_) => format!("link: {k} {}\n", hex::encode(value)),
                None => format!("{l}\n"),
            })
            .collect()
    }

    /// `value` hashed `n` links down the chain `chain`.
    fn down(chain: &Hash, value: &Hash, n: u32) -> Hash {
        (0..n).fold(*value, |v, _| chain_step(chain, &v))
    }

    #[test]
    fn a_key_file_keeps_every_hundredth_link_and_a_rewrite_keeps_them() {
        let w = Wallet::from_secret("castle-danger", "Blue", [7; 32], [9; 32]);
        let text = w.to_text();
        let links: Vec<&str> = text.lines().filter(|l| l.starts_with("link: ")).collect();
        assert_eq!(links.len(), 99);
        for (i, k) in [(0, 100), (49, 5_000), (98, 9_900)] {
            let expected = chain_value(&[9; 32], &[7; 32], k).unwrap();
            assert_eq!(links[i], format!("link: {k} {}", hex::encode(expected)));
        }
        let mut back = Wallet::parse(&text).unwrap();
        back.set_sent(Sent {
            kind: LineKind::Turn,
            number: 3,
            digest: [1; 32],
            after: None,
            ended: None,
            text: None,
            reply: None,
        });
        let rewritten = back.to_text();
        assert_eq!(
            rewritten
                .lines()
                .filter(|l| l.starts_with("link: "))
                .count(),
            99
        );
        assert_eq!(
            Wallet::parse(&rewritten).unwrap().reveal(150),
            w.reveal(150)
        );
    }

    #[test]
    fn a_key_file_without_links_reads_and_reveals_as_before_and_stays_without() {
        let w = Wallet::from_secret("castle-danger", "Blue", [7; 32], [9; 32]);
        let old = without_links(&w.to_text());
        let back = Wallet::parse(&old).unwrap();
        for j in [0, 1, 99, 100, 101, 4_999, CHAIN_LENGTH] {
            assert_eq!(back.reveal(j), w.reveal(j), "s_{j}");
        }
        assert_eq!(back.to_text(), old);
    }

    #[test]
    fn a_link_that_does_not_lead_to_the_link_below_is_refused_when_used() {
        let w = Wallet::from_secret("castle-danger", "Blue", [7; 32], [9; 32]);
        let text = with_link(&w.to_text(), 5_000, &[0x11; 32]);
        // Read (only the top and the bottom are checked then), and the
        // reveals from other links are still given.
        let lied = Wallet::parse(&text).unwrap();
        assert_eq!(lied.reveal(4_900), w.reveal(4_900));
        assert_eq!(lied.reveal(5_101), w.reveal(5_101));
        for j in [4_901, 4_999, 5_000] {
            assert_eq!(
                lied.reveal(j).unwrap_err().0,
                "was altered: its link 5000 does not lead to its link 4900, so no reveal is taken from it",
                "s_{j}"
            );
        }
        // The link above leads to the altered one: refused as well.
        assert_eq!(
            lied.reveal(5_001).unwrap_err().0,
            "was altered: its link 5100 does not lead to its link 5000, so no reveal is taken from it",
        );
    }

    #[test]
    fn a_first_or_last_link_that_does_not_follow_is_refused_when_read() {
        let w = Wallet::from_secret("castle-danger", "Blue", [7; 32], [9; 32]);
        let text = w.to_text();
        assert_eq!(
            Wallet::parse(&with_link(&text, 9_900, &[0x11; 32]))
                .unwrap_err()
                .0,
            "its link 9900 does not follow from its secret"
        );
        assert_eq!(
            Wallet::parse(&with_link(&text, 100, &[0x11; 32]))
                .unwrap_err()
                .0,
            "its commit does not follow from its link 100"
        );
    }

    #[test]
    fn links_that_are_not_every_hundredth_once_each_are_refused() {
        let w = Wallet::from_secret("castle-danger", "Blue", [7; 32], [9; 32]);
        let text = w.to_text();
        let reason =
            "its `link:` lines are not every 100th link of the chain (100 to 9900, once each)";
        let missing: String = text
            .lines()
            .filter(|l| !l.starts_with("link: 300 "))
            .map(|l| format!("{l}\n"))
            .collect();
        let twice = format!("{text}link: 300 {}\n", "00".repeat(32));
        let off_step = format!("{text}link: 150 {}\n", "00".repeat(32));
        let the_top = format!("{text}link: 10000 {}\n", "00".repeat(32));
        for bad in [missing, twice, off_step, the_top] {
            assert_eq!(Wallet::parse(&bad).unwrap_err().0, reason, "{bad}");
        }
        let garbled = format!("{text}link: 300\n");
        assert_eq!(
            Wallet::parse(&garbled).unwrap_err().0,
            "a `link:` line holds a link number and 64 hexadecimal digits"
        );
    }

    #[test]
    fn two_altered_links_that_agree_give_a_reveal_only_the_record_can_refuse() {
        // Links 5000 and 4900 both replaced, the lower one hashed down from
        // the upper: the wallet's own check passes, and the value is not
        // the chain's. The referee compares it with the side's previous
        // reveal before it is used (`Referee::wallet_reveal`).
        let w = Wallet::from_secret("castle-danger", "Blue", [7; 32], [9; 32]);
        let fake = [0x11; 32];
        let text = with_link(&w.to_text(), 5_000, &fake);
        let text = with_link(&text, 4_900, &down(&[7; 32], &fake, 100));
        let lied = Wallet::parse(&text).unwrap();
        let given = lied.reveal(4_950).unwrap().unwrap();
        assert_ne!(Some(given), w.reveal(4_950).unwrap());
        assert_ne!(Some(chain_step(&[7; 32], &given)), w.reveal(4_949).unwrap());
    }

    #[test]
    fn reveals_worked_out_from_the_nearest_link_are_the_chain_values() {
        let w = Wallet::from_secret("x", "A", [1; 32], [2; 32]);
        for j in [0, 1, 2, 99, 100, 101, 4_999, CHAIN_LENGTH - 1, CHAIN_LENGTH] {
            let expected = chain_value(&[2; 32], &[1; 32], j);
            assert_eq!(w.reveal(j), Ok(expected), "s_{j}");
        }
        assert_eq!(w.reveal(CHAIN_LENGTH + 1), Ok(None));
        assert_eq!(w.commit(), &chain_value(&[2; 32], &[1; 32], 0).unwrap());
    }

    #[test]
    fn a_protocol_two_key_file_hashes_its_chain_under_its_own_key() {
        let w = Wallet::for_protocol("castle-danger", "Blue", [7; 32], [9; 32], Protocol::Two);
        let bound = crate::fairness::bound_chain(&[7; 32], &w.public_key());
        assert_eq!(w.commit(), &chain_value(&[9; 32], &bound, 0).unwrap());
        let text = w.to_text();
        assert!(text.contains("\nprotocol: 2\n"), "{text}");
        let back = Wallet::parse(&text).unwrap();
        assert_eq!(back.protocol(), Protocol::Two);
        assert_eq!(back.reveal(1), Ok(chain_value(&[9; 32], &bound, 1)));
        let one = Wallet::from_secret("castle-danger", "Blue", [7; 32], [9; 32]);
        assert_ne!(one.commit(), w.commit());
        assert_eq!(one.public_key(), w.public_key());
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
                after: None,
                ended: None,
                text: None,
                reply: None,
            };
            w.set_sent(sent.clone());
            assert_eq!(Wallet::parse(&w.to_text()).unwrap().sent(), Some(&sent));
        }
        assert!(w
            .to_text()
            .contains(&format!("sent: S12 {}", "cd".repeat(32))));
        // With what it answered, its text (indents kept) and its message.
        let sent = Sent {
            kind: LineKind::Turn,
            number: 13,
            digest: [0xcd; 32],
            after: Some([0xab; 32]),
            ended: Some([0xef; 32]),
            text: Some("13. Blue: Kc1-b1\n    reveal 00\n    sig 11\n".into()),
            reply: Some("out dir/reply.eml".into()),
        };
        w.set_sent(sent.clone());
        let text = w.to_text();
        assert!(text.contains("sent-line:     reveal 00\n"), "{text}");
        assert!(text.contains(&format!("sent-after: {}\n", "ab".repeat(32))));
        assert!(text.contains(&format!("sent-ended: {}\n", "ef".repeat(32))));
        assert_eq!(Wallet::parse(&text).unwrap().sent(), Some(&sent));
    }

    #[test]
    fn a_forfeit_claim_sent_is_named_the_players_forfeit_claim_not_its_turn() {
        let line = |kind, number, text: &str| Sent {
            kind,
            number,
            digest: [0; 32],
            after: None,
            ended: None,
            text: Some(text.into()),
            reply: None,
        };
        let claim = line(
            LineKind::Turn,
            27,
            "27. Blue: forfeit claimed by Red\n    sig 11\n",
        );
        assert!(claim.is_claim());
        assert_eq!(claim.name(), "forfeit claim on turn 27");
        let in_setup = line(LineKind::Setup, 3, "S3. Blue: Forfeit claimed by Red\n");
        assert_eq!(in_setup.name(), "forfeit claim on set-up line S3");
        // A turn that merely mentions the word later is a turn.
        let turn = line(LineKind::Turn, 27, "27. Red: Kc9-b9\n    note forfeit\n");
        assert!(!turn.is_claim());
        assert_eq!(turn.name(), "turn 27");
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
