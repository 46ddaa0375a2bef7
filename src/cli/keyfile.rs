//! The private key file (RULINGS 1.1): 32 random bytes from the operating
//! system, kept on the player's machine. herald never prints it and never
//! writes it into a game file.

use std::path::Path;

use super::files;
use super::report::Failure;
use crate::fairness::{chain_value, Hash};

/// A player's key for one side of one game.
pub struct KeyFile {
    /// The game id tag value (`castle-danger`).
    pub game: String,
    /// The side, canonical case.
    pub side: String,
    /// The chain id of the game the key was made for.
    pub chain: Hash,
    /// The public commitment `s0`, to match against the record.
    pub commit: Hash,
    secret: Hash,
}

const MAGIC: &str = "herald-key: 1";

impl KeyFile {
    /// A fresh key from the operating system's random source.
    pub fn generate(game: &str, side: &str, chain: Hash) -> Result<KeyFile, Failure> {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret).map_err(|e| {
            Failure::usage(format!("the operating system gave no random bytes: {e}"))
        })?;
        let commit = chain_value(&secret, &chain, 0).expect("s0 exists");
        Ok(KeyFile {
            game: game.into(),
            side: side.into(),
            chain,
            commit,
            secret,
        })
    }

    /// The reveal for the player's `j`-th line (`s_j`).
    pub fn reveal(&self, j: u32) -> Option<Hash> {
        chain_value(&self.secret, &self.chain, j)
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        format!(
            "# herald private key. Keep this file on your machine: never send it,\n\
             # never paste it anywhere. It writes {side}'s reveals in this game.\n\
             {MAGIC}\ngame: {game}\nside: {side}\nchain: {chain}\ncommit: {commit}\nsecret: {secret}\n",
            side = self.side,
            game = self.game,
            chain = hex::encode(self.chain),
            commit = hex::encode(self.commit),
            secret = hex::encode(self.secret),
        )
    }

    /// Read a key file.
    pub fn read(path: &Path) -> Result<KeyFile, Failure> {
        let bytes = files::read_bytes(path)?;
        let bad = |why: &str| {
            Failure::usage(format!(
                "{} is not a herald key file ({why})",
                path.display()
            ))
        };
        let text = std::str::from_utf8(&bytes).map_err(|_| bad("not text"))?;
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
        let hash = |name: &str| -> Result<Hash, Failure> {
            let mut h = [0u8; 32];
            hex::decode_to_slice(field(name)?, &mut h)
                .map_err(|_| bad(&format!("`{name}` is not 64 hexadecimal digits")))?;
            Ok(h)
        };
        let key = KeyFile {
            game: field("game")?,
            side: field("side")?,
            chain: hash("chain")?,
            commit: hash("commit")?,
            secret: hash("secret")?,
        };
        if chain_value(&key.secret, &key.chain, 0) != Some(key.commit) {
            return Err(bad("its commit does not follow from its secret"));
        }
        Ok(key)
    }
}
