//! The proof items the deck adds to a line, in their canonical text
//! (spec sections 3.8 and 3.9): the word, then each field after one
//! space, hex digits in lower case. Reading them back is the record
//! parser's; these are what a line carries.

use super::cipher::Ciphertext;
use super::keys::{CardKey, CardSecret, KeyProof};
use super::share::Share;

/// `cardkey <enc(X): 64 hex> <c || s: 128 hex>`.
pub fn cardkey_item(key: &CardKey, proof: &KeyProof) -> String {
    format!(
        "cardkey {} {}",
        hex::encode(key.to_bytes()),
        hex::encode(proof.to_bytes())
    )
}

/// `deck <position> <enc(C1) || enc(C2): 128 hex>`.
pub fn deck_item(position: u32, card: &Ciphertext) -> String {
    format!("deck {position} {}", hex::encode(card.to_bytes()))
}

/// `share <position> <enc(D): 64 hex> <enc(A1) || enc(A2) || s: 192 hex>`.
pub fn share_item(share: &Share) -> String {
    format!(
        "share {} {} {}",
        share.position(),
        hex::encode(share.point_bytes()),
        hex::encode(share.proof_bytes())
    )
}

/// `cardsecret <x: 64 hex>`: a leaving side's card secret, published.
pub fn cardsecret_item(secret: &CardSecret) -> String {
    format!("cardsecret {}", hex::encode(secret.revealed()))
}
