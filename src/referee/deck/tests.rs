//! Tests of the hidden-hands protocol. The vectors are those of spec
//! section 3.9, recomputed by `tools/mental-poker/reference.py`, an
//! independent implementation in plain Python (ristretto255 from RFC
//! 9496, checked against its published values).

use std::collections::BTreeMap;

use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use sha2::{Digest, Sha256};

use super::schedule::{check_plan, first_draws, reshuffle_due, setup_steps, shares_due};
use super::schedule::{DeckStep, Draw};
use super::*;
use crate::fairness::{chain_id, game_id, slot_salt, Hash};

const TAGS: [(&str, &str); 5] = [
    ("Game", "battlegates"),
    ("South", "ann@example.org"),
    ("North", "bob@example.org"),
    ("Nonce", "000102030405060708090a0b0c0d0e0f"),
    ("Result", "*"),
];

fn game() -> Hash {
    game_id(TAGS)
}

fn chain() -> Hash {
    chain_id(TAGS)
}

/// The example's key-file secrets: South `00 01 .. 1f`, North `20 .. 3f`.
fn raw(side: &str) -> Hash {
    let first = if side == "South" { 0 } else { 32 };
    std::array::from_fn(|i| first + i as u8)
}

fn secret(side: &str) -> CardSecret {
    CardSecret::derive(&raw(side), &game(), side)
}

fn table_of(secrets: &[&CardSecret], cards: u32) -> Table {
    let sides: Vec<(&str, CardKey, KeyProof)> = secrets
        .iter()
        .map(|s| (s.side(), s.public(), s.prove()))
        .collect();
    Table::new(secrets[0].game(), cards, &sides).unwrap()
}

fn example_table() -> Table {
    table_of(&[&secret("South"), &secret("North")], 34)
}

fn point(bytes: [u8; 32]) -> RistrettoPoint {
    CompressedRistretto(bytes).decompress().unwrap()
}

/// The published pass of `side` over `input`, generation `g`, and the
/// opening it gives at the audit.
fn pass_of(
    table: &Table,
    side: &str,
    key_file: &Hash,
    g: u32,
    input: &Deck,
) -> (PublishedPass, SeedOpening) {
    let seed = ShuffleSeed::derive(key_file, table.game(), side, g);
    let salt = slot_salt(key_file, &chain(), side, &shuffle_slot(g));
    let pass = PublishedPass {
        side: side.into(),
        generation: g,
        commitment: seed.commitment(table.game(), side, g, &salt),
        output: shuffle(table, input, &seed),
    };
    let opening = SeedOpening {
        value: seed.value(),
        salt,
    };
    (pass, opening)
}

// ------------------------------------------------------------ vectors
//
// The values of the worked example (spec section 3.9) are kept once, in
// tests/data/vectors/mental-poker.json, which tests/mental_poker.rs and
// the independent Python reference both check; here, the proof items'
// form.

/// The deck of the example after both passes.
fn example_deck(table: &Table) -> Deck {
    let first = Deck::unmasked(table, 0, &(0..34).collect::<Vec<_>>()).unwrap();
    let (south, _) = pass_of(table, "South", &raw("South"), 0, &first);
    pass_of(table, "North", &raw("North"), 0, &south.output)
        .0
        .output
}

#[test]
fn the_proof_items_are_written_as_the_spec_says() {
    let table = example_table();
    let deck = example_deck(&table);
    let south = secret("South");
    let key = cardkey_item(&south.public(), &south.prove());
    assert_eq!(
        key,
        "cardkey 46f53918d475cb5bbabc4a0692fef4e3b6112a4d86c402e8ddae7a41994b6904 \
         2f33d24f53794f47520b9325064e1a0bb0c47c1785507ef6641314262d790e06\
         4ce8cb68ddc3404151b87863283b59314b8a75367d8d8e01c214b24dcd518800"
    );
    assert_eq!(
        deck_item(0, &deck.cards()[0]),
        "deck 0 e0ad5ae68d1ea2c0ac3659a14aa6bcfd9b7e1562ca7f9a9d220121887940c26d\
         663a52a63df7456306bd4b673fc4fd80648637ff1a27ef213d17f7303f72342b"
    );
    let north = secret("North").share(&deck, 33).unwrap();
    assert_eq!(
        share_item(&north),
        "share 33 96547b1fd2b4717025a21103fcb35e73e5d56084ad1d6c9c75a96feef62ee450 \
         f4f8fc90ca18e586387fd92f1f822739baed409a1d7c856a7c40c0f21e52f40a\
         9002eacf81996e95c2de4aa9af542156aef4d1114637fe8a08c3c854fa47df7e\
         457c9383313c474df9c43fe71474ca4c1fe7620119834fd2ce6825e4a34e8501"
    );
    assert_eq!(
        cardsecret_item(&south),
        "cardsecret ba7defc9eaab87094c39b2ab971f1bafe5cc14c369f9b8ea459f33c53db54d0d"
    );
}

// ------------------------------------------------------- card keys

#[test]
fn a_card_key_proof_verifies_for_its_own_side_and_game_only() {
    let south = secret("South");
    let (key, proof) = (south.public(), south.prove());
    assert_eq!(key.verify(&game(), "South", &proof), Ok(()));
    let bad = Err(DeckError::BadKeyProof("North".into()));
    assert_eq!(key.verify(&game(), "North", &proof), bad);
    let other_game = [7u8; 32];
    assert!(key.verify(&other_game, "South", &proof).is_err());
    // North's key with South's proof, and a proof with a flipped bit.
    assert!(secret("North")
        .public()
        .verify(&game(), "South", &proof)
        .is_err());
    let mut bytes = proof.to_bytes();
    bytes[40] ^= 1;
    let flipped = KeyProof::from_bytes(bytes);
    assert_eq!(
        key.verify(&game(), "South", &flipped),
        Err(DeckError::BadKeyProof("South".into()))
    );
}

/// Add the group order `l` to a 32-byte little-endian scalar below it.
fn plus_order(bytes: &mut [u8]) {
    let order: [u8; 32] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde,
        0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
    ];
    let mut carry = 0u16;
    for (b, o) in bytes.iter_mut().zip(order) {
        let sum = u16::from(*b) + u16::from(o) + carry;
        *b = sum as u8;
        carry = sum >> 8;
    }
}

#[test]
fn a_key_proof_with_a_non_canonical_scalar_is_refused() {
    let south = secret("South");
    let mut bytes = south.prove().to_bytes();
    // s + l: the same number modulo the order, but not canonical.
    plus_order(&mut bytes[32..]);
    let proof = KeyProof::from_bytes(bytes);
    assert_eq!(
        south.public().verify(&game(), "South", &proof),
        Err(DeckError::BadKeyProof("South".into()))
    );
}

#[test]
fn a_card_key_must_be_a_point_other_than_the_identity() {
    assert_eq!(CardKey::from_bytes(&[0; 32]), Err(DeckError::IdentityKey));
    // 2^255 - 19 + 1 is not canonical; 1 is a negative field element.
    assert_eq!(
        CardKey::from_bytes(&[0xff; 32]),
        Err(DeckError::BadPoint("card key"))
    );
    let mut one = [0u8; 32];
    one[0] = 1;
    assert_eq!(
        CardKey::from_bytes(&one),
        Err(DeckError::BadPoint("card key"))
    );
    let south = secret("South").public();
    assert_eq!(CardKey::from_bytes(&south.to_bytes()), Ok(south));
}

#[test]
fn the_table_refuses_a_bad_proof_and_a_copied_key() {
    let (south, north) = (secret("South"), secret("North"));
    let bad = Table::new(
        &game(),
        34,
        &[
            ("South", south.public(), south.prove()),
            ("North", north.public(), south.prove()),
        ],
    );
    assert_eq!(bad.err(), Some(DeckError::BadKeyProof("North".into())));
    let copied = Table::new(
        &game(),
        34,
        &[
            ("South", south.public(), south.prove()),
            ("South", south.public(), south.prove()),
        ],
    );
    assert_eq!(copied.err(), Some(DeckError::SharedKey("South".into())));
    let table = example_table();
    assert_eq!((table.players(), table.cards()), (2, 34));
    assert_eq!(table.index("North"), Some(1));
    let joint = point(south.public().to_bytes()) + point(north.public().to_bytes());
    assert_eq!(table.joint_key(), joint.compress().to_bytes());
}

#[test]
fn card_points_are_distinct_and_bound_to_the_game() {
    let table = example_table();
    for i in 0..34 {
        for j in 0..i {
            assert_ne!(card_point(&game(), i), card_point(&game(), j));
        }
        assert_eq!(table.card_index(&card_point(&game(), i)), Some(i));
        assert_eq!(table.card_index(&card_point(&[1; 32], i)), None);
    }
}

#[test]
fn a_card_is_found_among_the_likely_cards_first_and_among_all_when_not_there() {
    // An opening compares its card with the cards it is likely to be
    // first (`Table::card_index_among`): whatever they are, the card
    // found is the one `card_index` finds comparing every card, and a
    // point of no card is none.
    let table = example_table();
    for i in 0..34 {
        let point = card_point(&game(), i);
        let other = (i + 1) % 34;
        for likely in [
            vec![],
            vec![i],
            vec![other, i],
            vec![other],
            (0..34).rev().collect(),
            vec![99],
        ] {
            assert_eq!(
                table.card_index_among(&point, &likely),
                Some(i),
                "card {i} among {likely:?}"
            );
        }
        assert_eq!(
            table.card_index_among(&card_point(&[1; 32], i), &[i, other]),
            None
        );
    }
}

// ------------------------------------------------------ ciphertexts

#[test]
fn a_ciphertext_round_trips_through_its_64_bytes() {
    let table = example_table();
    let deck = example_deck(&table);
    for card in deck.cards() {
        assert_eq!(Ciphertext::from_bytes(&card.to_bytes()), Ok(*card));
    }
    let mut bad = deck.cards()[0].to_bytes();
    bad[63] = 0xff;
    assert_eq!(
        Ciphertext::from_bytes(&bad),
        Err(DeckError::BadPoint("card"))
    );
    assert_eq!(deck.get(34), Err(DeckError::NoPosition(34)));
    assert_eq!((deck.base(), deck.end(), deck.len()), (0, 34, 34));
    assert!(!deck.is_empty());
    assert!(Deck::unmasked(&table, 0, &[34]).is_none());
}

#[test]
fn a_vouched_deck_decodes_to_the_cards_it_was_read_from() {
    let table = example_table();
    let deck = example_deck(&table);
    let bytes: Vec<[u8; 64]> = deck.cards().iter().map(Ciphertext::to_bytes).collect();
    let vouched = Deck::vouched(deck.base(), bytes);
    // Its size is known before anything is decoded.
    assert_eq!((vouched.base(), vouched.end(), vouched.len()), (0, 34, 34));
    assert_eq!(vouched.get(5), Ok(&deck.cards()[5]));
    assert_eq!(vouched.cards(), deck.cards());
    assert_eq!(vouched, deck);
    assert_eq!(vouched.get(34), Err(DeckError::NoPosition(34)));
}

#[test]
fn a_vouched_deck_that_does_not_decode_names_the_card_encoding() {
    let table = example_table();
    let deck = example_deck(&table);
    let mut bytes: Vec<[u8; 64]> = deck.cards().iter().map(Ciphertext::to_bytes).collect();
    bytes[7][63] = 0xff;
    let vouched = Deck::vouched(deck.base(), bytes);
    assert_eq!(vouched.get(3), Err(DeckError::BadPoint("card")));
    assert_eq!(vouched.checked_cards(), Err(DeckError::BadPoint("card")));
    // No panic where the cards are read without a result: none.
    assert!(vouched.cards().is_empty());
    assert_eq!(vouched.len(), 34);
}

#[test]
fn a_vouched_deck_gives_a_cards_c2_alone_and_names_the_card_encoding() {
    // An opening whose shares are vouched for needs only the card's C2:
    // decoded alone, the same point the whole deck gives.
    let table = example_table();
    let deck = example_deck(&table);
    let mut bytes: Vec<[u8; 64]> = deck.cards().iter().map(Ciphertext::to_bytes).collect();
    bytes[7][63] = 0xff;
    let vouched = Deck::vouched(deck.base(), bytes);
    assert_eq!(vouched.c2(3), Ok(*deck.get(3).unwrap().c2()));
    assert_eq!(vouched.c2(7), Err(DeckError::BadPoint("card")));
    assert_eq!(vouched.c2(99), Err(DeckError::NoPosition(99)));
    assert_eq!(deck.c2(3), Ok(*deck.get(3).unwrap().c2()));
}

#[test]
fn a_vouched_share_opens_the_card_the_verified_share_opens() {
    let table = example_table();
    let deck = example_deck(&table);
    let south = secret("South").share(&deck, 3).unwrap();
    let north = secret("North").share(&deck, 3).unwrap();
    let vouched = Share::vouched(3, &north.point_bytes(), north.proof_bytes());
    // Equal as read: the same position, point and proof.
    assert_eq!(vouched, north);
    let expected = Share::open(&table, &deck, 3, &[("South", &south), ("North", &north)]);
    assert!(expected.is_ok());
    let opened = Share::open(&table, &deck, 3, &[("South", &south), ("North", &vouched)]);
    assert_eq!(opened, expected);
    // Its point is decoded when needed: one that is no point is named so
    // (the digest that vouches for it rules this out).
    let junk = Share::vouched(3, &[0xff; 32], north.proof_bytes());
    assert_eq!(
        Share::open(&table, &deck, 3, &[("South", &south), ("North", &junk)]),
        Err(DeckError::BadPoint("share"))
    );
}

#[test]
fn a_vouched_share_check_never_verifies() {
    let table = example_table();
    let deck = example_deck(&table);
    let north = secret("North").share(&deck, 3).unwrap();
    let south = secret("South").share(&deck, 4).unwrap();
    let good = north.check(&table, "North", &deck).unwrap();
    let other = south.check(&table, "South", &deck).unwrap();
    assert!(
        good.verify(table.game()) && verify_batch(table.game(), &[good.clone(), other.clone()])
    );
    // Left undone for a share the digest vouches for: verified all the
    // same, alone or in a batch, it fails as a bad share, never passes.
    let vouched = ShareCheck::vouched("North", 3, north.proof_bytes());
    assert!(!vouched.verify(table.game()));
    assert!(!verify_batch(table.game(), &[other, vouched.clone()]));
    assert_eq!(
        vouched.error(),
        DeckError::BadShare {
            side: "North".into(),
            position: 3
        }
    );
}

#[test]
fn a_pass_keeps_every_card_and_changes_every_ciphertext() {
    let table = example_table();
    let first = Deck::unmasked(&table, 0, &(0..34).collect::<Vec<_>>()).unwrap();
    let deck = example_deck(&table);
    let (south, north) = (secret("South"), secret("North"));
    let mut cards: Vec<u32> = (0..34)
        .map(|p| {
            let a = south.share(&deck, p).unwrap();
            let b = north.share(&deck, p).unwrap();
            Share::open(&table, &deck, p, &[("South", &a), ("North", &b)]).unwrap()
        })
        .collect();
    assert_ne!(cards, (0..34).collect::<Vec<_>>(), "the deck is shuffled");
    cards.sort_unstable();
    assert_eq!(cards, (0..34).collect::<Vec<_>>());
    for card in deck.cards() {
        assert!(!first.cards().contains(card));
    }
}

// ------------------------------------------------------------ shares

#[test]
fn a_share_verifies_for_its_side_position_and_card_only() {
    let table = example_table();
    let deck = example_deck(&table);
    let north = secret("North").share(&deck, 3).unwrap();
    assert_eq!(north.position(), 3);
    assert_eq!(north.verify(&table, "North", &deck), Ok(()));
    let bad = |side: &str, position| {
        Err(DeckError::BadShare {
            side: side.into(),
            position,
        })
    };
    assert_eq!(north.verify(&table, "South", &deck), bad("South", 3));
    // The same point and proof read as another position's share.
    let moved = Share::from_bytes(4, &north.point_bytes(), north.proof_bytes()).unwrap();
    assert_eq!(moved.verify(&table, "North", &deck), bad("North", 4));
    // Against another deck (another card at position 3).
    let other = example_deck(&table_of(&[&secret("South"), &secret("North")], 34));
    let reshuffled = Deck::from_cards(0, other.cards().iter().rev().copied().collect());
    assert_eq!(north.verify(&table, "North", &reshuffled), bad("North", 3));
}

#[test]
fn a_share_whose_proof_fails_is_refused() {
    let table = example_table();
    let deck = example_deck(&table);
    let north = secret("North").share(&deck, 3).unwrap();
    let bad = Err(DeckError::BadShare {
        side: "North".into(),
        position: 3,
    });
    // A wrong share point with the honest proof: a lie about the card.
    let wrong = secret("South").share(&deck, 3).unwrap();
    let lie = Share::from_bytes(3, &wrong.point_bytes(), north.proof_bytes()).unwrap();
    assert_eq!(lie.verify(&table, "North", &deck), bad);
    // A proof with a flipped bit, and one with a non-canonical scalar.
    let mut proof = north.proof_bytes();
    proof[5] ^= 0x10;
    let flipped = Share::from_bytes(3, &north.point_bytes(), proof).unwrap();
    assert_eq!(flipped.verify(&table, "North", &deck), bad);
    let mut proof = north.proof_bytes();
    plus_order(&mut proof[64..]);
    let huge = Share::from_bytes(3, &north.point_bytes(), proof).unwrap();
    assert_eq!(huge.verify(&table, "North", &deck), bad);
    // A commitment `A1` or `A2` that is no canonical point encoding.
    for at in [0, 32] {
        let mut proof = north.proof_bytes();
        proof[at..at + 32].copy_from_slice(&[0xff; 32]);
        let garbled = Share::from_bytes(3, &north.point_bytes(), proof).unwrap();
        assert_eq!(garbled.verify(&table, "North", &deck), bad);
    }
    // And the lie, used to open, is caught before it can change the card.
    let south = secret("South").share(&deck, 3).unwrap();
    assert_eq!(
        Share::open(&table, &deck, 3, &[("South", &south), ("North", &lie)]),
        Err(DeckError::BadShare {
            side: "North".into(),
            position: 3,
        })
    );
    assert_eq!(
        Share::from_bytes(3, &[0xff; 32], north.proof_bytes()),
        Err(DeckError::BadPoint("share"))
    );
}

#[test]
fn an_opening_needs_every_sides_share_exactly_once() {
    let table = example_table();
    let deck = example_deck(&table);
    let south = secret("South").share(&deck, 2).unwrap();
    let north = secret("North").share(&deck, 2).unwrap();
    let north_other = secret("North").share(&deck, 1).unwrap();
    let reason = |r: &str| {
        Err(DeckError::Shares {
            position: 2,
            reason: r.into(),
        })
    };
    assert_eq!(
        Share::open(&table, &deck, 2, &[("South", &south)]),
        reason("North's share is missing")
    );
    assert_eq!(
        Share::open(&table, &deck, 2, &[("South", &south), ("South", &south)]),
        reason("South gave more than one share")
    );
    assert_eq!(
        Share::open(
            &table,
            &deck,
            2,
            &[("South", &south), ("North", &north_other)]
        ),
        reason("North's share is for position 1")
    );
    assert_eq!(
        Share::open(&table, &deck, 2, &[("South", &south), ("West", &north)]),
        reason("West is not a player of this deck")
    );
    assert_eq!(
        secret("South").draw(&table, &deck, 2, &[("South", &south)]),
        reason("South draws it, so its share stays private")
    );
    assert!(Share::open(&table, &deck, 2, &[("North", &north), ("South", &south)]).is_ok());
}

#[test]
fn a_deck_that_opens_to_no_card_is_named() {
    let table = example_table();
    let deck = example_deck(&table);
    // A card masked under a key nobody holds whole: C2 shifted.
    let mut bytes = deck.cards()[0].to_bytes();
    bytes[32..].copy_from_slice(&card_point(&[9; 32], 0).compress().to_bytes());
    let forged = Deck::from_cards(0, vec![Ciphertext::from_bytes(&bytes).unwrap()]);
    let south = secret("South").share(&forged, 0).unwrap();
    let north = secret("North").share(&forged, 0).unwrap();
    assert_eq!(
        Share::open(&table, &forged, 0, &[("South", &south), ("North", &north)]),
        Err(DeckError::NoCard(0))
    );
}

#[test]
fn a_verified_share_is_not_verified_again_but_only_for_its_key_and_card() {
    let table = example_table();
    let deck = example_deck(&table);
    let south = secret("South").share(&deck, 3).unwrap();
    let north = secret("North").share(&deck, 3).unwrap();
    let bad = |side: &str| DeckError::BadShare {
        side: side.into(),
        position: 3,
    };
    // A lie cannot be marked verified.
    let wrong = secret("South").share(&deck, 3).unwrap();
    let lie = Share::from_bytes(3, &wrong.point_bytes(), north.proof_bytes()).unwrap();
    assert_eq!(lie.verified(&table, "North", &deck), Err(bad("North")));
    // An honest share is, and stays the same share, opening the same card.
    let checked = north.verified(&table, "North", &deck).unwrap();
    assert_eq!(checked, north);
    let card = Share::open(&table, &deck, 3, &[("South", &south), ("North", &north)]);
    assert!(card.is_ok());
    assert_eq!(
        Share::open(&table, &deck, 3, &[("South", &south), ("North", &checked)]),
        card
    );
    // Given as another side's share, it is verified again, and fails.
    assert_eq!(
        Share::open(&table, &deck, 3, &[("South", &checked), ("North", &south)]),
        Err(bad("South"))
    );
    // Against another card at its position, too.
    let reshuffled = Deck::from_cards(0, deck.cards().iter().rev().copied().collect());
    let south = secret("South").share(&reshuffled, 3).unwrap();
    assert_eq!(
        Share::open(
            &table,
            &reshuffled,
            3,
            &[("South", &south), ("North", &checked)]
        ),
        Err(bad("North"))
    );
}

// --------------------------------------------------------- the audit

/// The example's first deck, South's pass over it and North's input.
fn audited() -> (Table, Deck, PublishedPass, SeedOpening) {
    let table = example_table();
    let first = Deck::unmasked(&table, 0, &(0..34).collect::<Vec<_>>()).unwrap();
    let (pass, opening) = pass_of(&table, "South", &raw("South"), 0, &first);
    (table, first, pass, opening)
}

#[test]
fn an_honest_pass_recomputes_at_the_audit() {
    let (table, first, pass, opening) = audited();
    assert_eq!(audit_pass(&table, &first, &pass, &opening), Ok(()));
}

#[test]
fn the_audit_refuses_a_seed_that_does_not_open_its_commitment() {
    let (table, first, pass, opening) = audited();
    let mut other = opening.clone();
    other.value = ShuffleSeed::derive(&[1; 32], table.game(), "South", 0).value();
    assert_eq!(
        audit_pass(&table, &first, &pass, &other),
        Err(AuditFault::Commitment)
    );
    let mut salted = opening.clone();
    salted.salt[0] ^= 1;
    assert_eq!(
        audit_pass(&table, &first, &pass, &salted),
        Err(AuditFault::Commitment)
    );
    let mut upper = opening;
    upper.value = upper.value.to_uppercase();
    assert_eq!(
        audit_pass(&table, &first, &pass, &upper),
        Err(AuditFault::Commitment)
    );
}

#[test]
fn the_audit_catches_a_pass_that_duplicates_a_card() {
    let (table, first, mut pass, opening) = audited();
    // The cheater knows its seed: position 5 gets position 4's card with
    // position 5's mask, so only the audit's recomputation can tell.
    let seed = ShuffleSeed::from_value(&opening.value).unwrap();
    let perm = seed.permutation(34);
    let mut cards = pass.output.cards().to_vec();
    cards[5] = first.cards()[perm[4] as usize].remask(&seed.mask(5), table.joint());
    pass.output = Deck::from_cards(0, cards);
    assert_eq!(
        audit_pass(&table, &first, &pass, &opening),
        Err(AuditFault::Duplicated {
            position: 5,
            first: 4
        })
    );
}

#[test]
fn the_audit_catches_a_pass_that_drops_a_card_for_another() {
    let (table, first, mut pass, opening) = audited();
    let mut cards = pass.output.cards().to_vec();
    // A card from outside the deck (another game's card 0) at position 9.
    let seed = ShuffleSeed::from_value(&opening.value).unwrap();
    cards[9] = Ciphertext::open(card_point(&[3; 32], 0)).remask(&seed.mask(9), table.joint());
    pass.output = Deck::from_cards(0, cards);
    assert_eq!(
        audit_pass(&table, &first, &pass, &opening),
        Err(AuditFault::Foreign { position: 9 })
    );
}

#[test]
fn the_audit_catches_a_stacked_deck() {
    let (table, first, mut pass, opening) = audited();
    // Two cards swapped, each re-masked for its new place: every card is
    // there once, but not where the seed puts it.
    let seed = ShuffleSeed::from_value(&opening.value).unwrap();
    let perm = seed.permutation(34);
    let mut cards = pass.output.cards().to_vec();
    cards[0] = first.cards()[perm[7] as usize].remask(&seed.mask(0), table.joint());
    cards[7] = first.cards()[perm[0] as usize].remask(&seed.mask(7), table.joint());
    pass.output = Deck::from_cards(0, cards);
    assert_eq!(
        audit_pass(&table, &first, &pass, &opening),
        Err(AuditFault::Moved { position: 0 })
    );
}

#[test]
fn the_audit_catches_a_pass_of_the_wrong_size() {
    let (table, first, mut pass, opening) = audited();
    let mut cards = pass.output.cards().to_vec();
    cards.pop();
    pass.output = Deck::from_cards(0, cards);
    assert_eq!(
        audit_pass(&table, &first, &pass, &opening),
        Err(AuditFault::Size {
            expected: 34,
            found: 33
        })
    );
}

#[test]
fn a_drawer_outside_the_table_is_named() {
    let table = example_table();
    let deck = example_deck(&table);
    let east = CardSecret::derive(&[5; 32], &game(), "East");
    assert_eq!(
        east.draw(&table, &deck, 0, &[]),
        Err(DeckError::Shares {
            position: 0,
            reason: "East is not a player of this deck".into()
        })
    );
}

#[test]
fn the_reasons_read_as_the_spec_quotes_them() {
    let texts = [
        (
            DeckError::SharedKey("North".into()).to_string(),
            "North's card key is another player's card key",
        ),
        (
            DeckError::BadKeyProof("North".into()).to_string(),
            "North's card key proof does not verify: North did not show it knows the secret",
        ),
        (
            DeckError::BadShare {
                side: "North".into(),
                position: 7,
            }
            .to_string(),
            "North's share for deck position 7 does not verify against North's card key",
        ),
        (
            DeckError::WrongSecret("East".into()).to_string(),
            "East's card secret does not match its card key",
        ),
        (
            DeckError::NoCard(12).to_string(),
            "deck position 12 opens to no card of this game",
        ),
        (
            PlayFault::NotYours {
                position: 12,
                drawer: "North".into(),
            }
            .to_string(),
            "deck position 12 is in North's hand",
        ),
        (
            PlayFault::NotDrawn(12).to_string(),
            "deck position 12 was never drawn",
        ),
        (
            PlayFault::AlreadyOpened(12).to_string(),
            "the card at deck position 12 was opened before",
        ),
        (
            PlayFault::WrongCard {
                position: 12,
                claimed: 6,
                found: 5,
            }
            .to_string(),
            "deck position 12 holds card 5, not card 6",
        ),
        (
            AuditFault::Commitment.to_string(),
            "the opened shuffle seed does not match its commitment",
        ),
        (
            AuditFault::Size {
                expected: 34,
                found: 33,
            }
            .to_string(),
            "the pass has 33 cards but the deck before it had 34",
        ),
        (
            AuditFault::Duplicated {
                position: 5,
                first: 4,
            }
            .to_string(),
            "deck position 5 holds the same card as position 4: \
             a card was duplicated and another dropped",
        ),
        (
            AuditFault::Moved { position: 0 }.to_string(),
            "deck position 0 holds another card than the seed puts there: \
             the deck was stacked",
        ),
        (
            AuditFault::Foreign { position: 9 }.to_string(),
            "deck position 9 holds a card that the seed does not put there \
             and that is no card of the deck before the pass",
        ),
    ];
    for (ours, spec) in texts {
        assert_eq!(ours, spec);
    }
}

#[test]
fn a_side_that_leaves_publishes_its_secret_and_the_others_hands_stay_hidden() {
    // Three sides; East leaves and publishes its card secret.
    let game = game();
    let names = ["South", "North", "East"];
    let secrets: Vec<CardSecret> = names
        .iter()
        .enumerate()
        .map(|(i, side)| CardSecret::derive(&[i as u8 + 1; 32], &game, side))
        .collect();
    let table = table_of(&secrets.iter().collect::<Vec<_>>(), 34);
    let mut deck = Deck::unmasked(&table, 0, &(0..34).collect::<Vec<_>>()).unwrap();
    for (i, side) in names.iter().enumerate() {
        deck = shuffle(
            &table,
            &deck,
            &ShuffleSeed::derive(&[i as u8 + 1; 32], &game, side, 0),
        );
    }
    let east =
        CardSecret::from_revealed(&secrets[2].revealed(), &game, "East", &secrets[2].public())
            .unwrap();
    // Anybody now makes East's share, and it verifies as East's.
    let east_share = east.share(&deck, 4).unwrap();
    assert_eq!(east_share.verify(&table, "East", &deck), Ok(()));
    assert_eq!(east_share, secrets[2].share(&deck, 4).unwrap());
    let north = secrets[1].share(&deck, 4).unwrap();
    let card = secrets[0]
        .draw(
            &table,
            &deck,
            4,
            &[("North", &north), ("East", &east_share)],
        )
        .unwrap();
    assert!(card < 34);
    // North, knowing East's secret too, still cannot see South's card.
    let guess = secrets[1].unmask(deck.get(4).unwrap(), &[point(east_share.point_bytes())]);
    assert_eq!(table.card_index(&guess), None);
    // A published secret must be the key's.
    let wrong = Some(DeckError::WrongSecret("East".into()));
    let key = secrets[2].public();
    assert_eq!(
        CardSecret::from_revealed(&secrets[1].revealed(), &game, "East", &key).err(),
        wrong.clone()
    );
    let mut huge = secrets[2].revealed();
    plus_order(&mut huge);
    assert_eq!(
        CardSecret::from_revealed(&huge, &game, "East", &key).err(),
        wrong
    );
}

#[test]
fn the_audit_catches_a_pass_at_other_positions() {
    let (table, first, mut pass, opening) = audited();
    pass.output = Deck::from_cards(1, pass.output.cards().to_vec());
    let fault = audit_pass(&table, &first, &pass, &opening);
    assert_eq!(
        fault,
        Err(AuditFault::Misnumbered {
            expected: 0,
            found: 1
        })
    );
    assert_eq!(
        fault.unwrap_err().to_string(),
        "the pass starts at deck position 1 but the deck before it at 0"
    );
}

// ------------------------------------------------------------- hands

#[test]
fn a_played_card_must_be_in_the_players_hand_and_open_to_the_card_named() {
    let table = example_table();
    let deck = example_deck(&table);
    let (south, north) = (secret("South"), secret("North"));
    let mut hands = Hands::new();
    let (south_hand, north_hand) = (Hand::at(0), Hand::at(1));
    hands.draw(0, south_hand).unwrap();
    hands.draw(1, north_hand).unwrap();
    assert_eq!(hands.draw(1, south_hand), Err(PlayFault::AlreadyDrawn(1)));
    assert_eq!(
        (hands.drawer(0), hands.drawer(1), hands.drawer(2)),
        (Some(south_hand), Some(north_hand), None)
    );
    let shares = |p| {
        (
            south.share(&deck, p).unwrap(),
            north.share(&deck, p).unwrap(),
        )
    };
    let (s0, n0) = shares(0);
    let both = [("South", &s0), ("North", &n0)];
    let play = |position, claimed| Play {
        hand: south_hand,
        position,
        claimed,
    };
    // Position 0 holds card 5 (the vectors).
    assert_eq!(
        hands.play(&table, &deck, play(0, 6), &both),
        Err(PlayFault::WrongCard {
            position: 0,
            claimed: 6,
            found: 5
        })
    );
    let (s2, n2) = shares(2);
    assert_eq!(
        hands.play(&table, &deck, play(2, 5), &[("South", &s2), ("North", &n2)]),
        Err(PlayFault::NotDrawn(2))
    );
    let (s1, n1) = shares(1);
    assert_eq!(
        hands.play(&table, &deck, play(1, 5), &[("South", &s1), ("North", &n1)]),
        Err(PlayFault::NotYours {
            position: 1,
            drawer: "North".into()
        })
    );
    assert_eq!(hands.held(south_hand), [0]);
    assert_eq!(hands.play(&table, &deck, play(0, 5), &both), Ok(()));
    assert!(hands.held(south_hand).is_empty());
    // Opened, the position keeps its drawer.
    assert_eq!(hands.drawer(0), Some(south_hand));
    assert_eq!(
        hands.play(&table, &deck, play(0, 5), &both),
        Err(PlayFault::AlreadyOpened(0))
    );
    assert_eq!(
        hands.play(&table, &deck, play(1, 5), &[("South", &s1)]),
        Err(PlayFault::NotYours {
            position: 1,
            drawer: "North".into()
        })
    );
}

#[test]
fn a_card_opened_at_another_position_than_its_share_is_refused() {
    let table = example_table();
    let deck = example_deck(&table);
    let (south, north) = (secret("South"), secret("North"));
    let mut hands = Hands::new();
    hands.draw(0, Hand::at(0)).unwrap();
    hands.draw(2, Hand::at(0)).unwrap();
    // South plays from position 2 but hands over position 0's shares.
    let (s0, n0) = (
        south.share(&deck, 0).unwrap(),
        north.share(&deck, 0).unwrap(),
    );
    let play = Play {
        hand: Hand::at(0),
        position: 2,
        claimed: 5,
    };
    assert_eq!(
        hands.play(&table, &deck, play, &[("South", &s0), ("North", &n0)]),
        Err(PlayFault::Deck(DeckError::Shares {
            position: 2,
            reason: "South's share is for position 0".into()
        }))
    );
}

// ---------------------------------------------------------- schedule

#[test]
fn the_set_up_lines_are_keys_then_passes_then_shares() {
    use DeckStep::{Key, Pass, Shares};
    assert_eq!(setup_steps(2), [(0, Key), (1, Key), (0, Pass), (1, Pass)]);
    assert_eq!(
        setup_steps(3),
        [
            (0, Key),
            (1, Key),
            (2, Key),
            (0, Pass),
            (1, Pass),
            (2, Pass),
            (1, Shares)
        ]
    );
    assert_eq!(setup_steps(4).len(), 10);
    assert_eq!(setup_steps(4)[8..], [(1, Shares), (2, Shares)]);
}

#[test]
fn hands_are_dealt_round_and_drawn_on_the_first_turn() {
    assert_eq!(first_draws(2, 3, 1), [0, 2, 4, 6]);
    assert_eq!(first_draws(2, 3, 2), [1, 3, 5, 7]);
    assert_eq!(first_draws(2, 3, 3), [8]);
    assert_eq!(first_draws(4, 3, 4), [3, 7, 11, 15]);
    assert_eq!(first_draws(4, 3, 5), [16]);
    assert!(first_draws(0, 3, 1).is_empty());
}

/// The writers and draws of the standard plan: the set-up lines, then
/// `turns` turns, one draw each (hands on the first).
fn standard_plan(players: usize, turns: u32) -> (Vec<usize>, Vec<Draw>, usize) {
    let setup: Vec<usize> = setup_steps(players).iter().map(|(w, _)| *w).collect();
    let at = setup.len();
    let mut writers = setup;
    let mut draws = Vec::new();
    for t in 1..=turns {
        let line = writers.len();
        let drawer = (t as usize - 1) % players;
        writers.push(drawer);
        for position in first_draws(players as u32, 3, t) {
            draws.push(Draw {
                drawer,
                position,
                line,
            });
        }
    }
    (writers, draws, at)
}

#[test]
fn each_line_shares_the_draws_the_others_make_before_its_writer_writes_again() {
    let (writers, draws, at) = standard_plan(2, 6);
    // S4 (North's pass) shares South's hand and turn-1 card; turn 1
    // (South) shares North's hand and turn-2 card; turn 2 shares turn 3's.
    assert_eq!(shares_due(&writers, &draws, at - 1), [0, 2, 4, 6]);
    assert_eq!(shares_due(&writers, &draws, at), [1, 3, 5, 7]);
    assert_eq!(shares_due(&writers, &draws, at + 1), [8]);
    assert!(shares_due(&writers, &draws, 0).is_empty());
    let (writers, draws, at) = standard_plan(3, 6);
    // B's shares line (S7) covers turn 1 (A's draws).
    assert_eq!(shares_due(&writers, &draws, at - 1), [0, 3, 6, 9]);
    // C's pass line (S6) covers turns 1 and 2.
    assert_eq!(
        shares_due(&writers, &draws, at - 2),
        [0, 1, 3, 4, 6, 7, 9, 10]
    );
    // A's turn 1 covers turns 2 and 3 (B's and C's first draws).
    assert_eq!(shares_due(&writers, &draws, at), [1, 2, 4, 5, 7, 8, 10, 11]);
    assert!(shares_due(&writers, &draws, writers.len()).is_empty());
}

#[test]
fn the_standard_plan_gives_every_share_in_time_and_not_without_its_share_lines() {
    for players in 2..=4 {
        let (writers, draws, at) = standard_plan(players, 12);
        // The first deck is final after the last pass, line at - 1 or the
        // last pass before the shares lines.
        let final_pass = 2 * players - 1;
        assert_eq!(
            check_plan(players, &writers, &draws, |_| final_pass),
            Ok(())
        );
        if players > 2 {
            // Without the shares lines, B cannot share A's first cards.
            let mut cut = writers[..2 * players].to_vec();
            cut.extend_from_slice(&writers[at..]);
            let shift = at - 2 * players;
            let draws: Vec<Draw> = draws
                .iter()
                .map(|d| Draw {
                    line: d.line - shift,
                    ..*d
                })
                .collect();
            let failed = check_plan(players, &cut, &draws, |_| final_pass);
            assert_eq!(failed.map_err(|(d, side)| (d.position, side)), Err((0, 1)));
        }
    }
}

#[test]
fn a_reshuffle_starts_when_the_deck_holds_two_cards_per_player_less_two() {
    assert!(reshuffle_due(2, 2));
    assert!(!reshuffle_due(2, 3));
    assert!(reshuffle_due(4, 6));
    assert!(!reshuffle_due(4, 7));
    assert!(reshuffle_due(3, 0));
}

// ------------------------------------------------------- full games

/// One player of a simulated game.
struct Player {
    side: String,
    key_file: Hash,
    secret: CardSecret,
    /// Cards seen in its own hand, by position.
    seen: BTreeMap<u32, u32>,
}

/// A whole game played in-process: every line's shares, passes and
/// openings, with each player keeping only what it may know.
struct Simulation {
    players: Vec<Player>,
    table: Table,
    /// Every deck: the unmasked one and the passes over it.
    decks: Vec<(Deck, Vec<(PublishedPass, SeedOpening)>)>,
    shares: BTreeMap<(u32, usize), Share>,
    hands: Hands,
    pile: Vec<u32>,
    writers: Vec<usize>,
    next: u32,
}

impl Simulation {
    fn new(players: usize) -> Simulation {
        let names = ["South", "North", "East", "West"];
        let game: Hash = Sha256::digest(format!("game of {players}")).into();
        let players: Vec<Player> = names[..players]
            .iter()
            .enumerate()
            .map(|(i, side)| {
                let key_file = [i as u8 * 17 + 1; 32];
                Player {
                    side: (*side).into(),
                    key_file,
                    secret: CardSecret::derive(&key_file, &game, side),
                    seen: BTreeMap::new(),
                }
            })
            .collect();
        let secrets: Vec<&CardSecret> = players.iter().map(|p| &p.secret).collect();
        let table = table_of(&secrets, 34);
        Simulation {
            players,
            table,
            decks: Vec::new(),
            shares: BTreeMap::new(),
            hands: Hands::new(),
            pile: Vec::new(),
            writers: Vec::new(),
            next: 0,
        }
    }

    /// The deck holding `position` as it stands (after the passes made).
    fn deck_of(&self, position: u32) -> &Deck {
        self.decks
            .iter()
            .map(|(first, passes)| passes.last().map_or(first, |(p, _)| &p.output))
            .find(|d| d.base() <= position && position < d.end())
            .expect("a deck holds the position")
    }

    fn pass(&mut self, writer: usize) {
        let (first, passes) = self.decks.last().unwrap();
        let input = passes.last().map_or(first, |(p, _)| &p.output).clone();
        let g = self.decks.len() as u32 - 1;
        let player = &self.players[writer];
        let published = pass_of(&self.table, &player.side, &player.key_file, g, &input);
        self.decks.last_mut().unwrap().1.push(published);
    }

    /// The writer's shares for the positions due, each verified by all.
    fn give_shares(&mut self, writer: usize, due: &[u32]) {
        for &position in due {
            let deck = self.deck_of(position);
            let (last, passes) = self.decks.last().unwrap();
            assert!(
                passes.len() == self.players.len() || deck.end() <= last.base(),
                "a share is owed only once its deck is final"
            );
            let share = self.players[writer].secret.share(deck, position).unwrap();
            let side = &self.players[writer].side;
            share.verify(&self.table, side, deck).unwrap();
            assert!(self.shares.insert((position, writer), share).is_none());
        }
    }

    /// `drawer` draws `position` with the others' published shares; no
    /// other player can tell the card from what it holds.
    fn draw(&mut self, drawer: usize, position: u32) {
        let deck = self.deck_of(position).clone();
        let others: Vec<(&str, &Share)> = (0..self.players.len())
            .filter(|&i| i != drawer)
            .map(|i| {
                let share = self.shares.get(&(position, i)).expect("share in time");
                (self.players[i].side.as_str(), share)
            })
            .collect();
        let card = self.players[drawer]
            .secret
            .draw(&self.table, &deck, position, &others)
            .unwrap();
        for (q, player) in self
            .players
            .iter()
            .enumerate()
            .filter(|(q, _)| *q != drawer)
        {
            // Everything q knows: every share but the drawer's, and its own
            // secret used in the drawer's place.
            let points: Vec<RistrettoPoint> = others
                .iter()
                .filter(|(side, _)| *side != player.side)
                .map(|(_, s)| point(s.point_bytes()))
                .collect();
            let guess = player.secret.unmask(deck.get(position).unwrap(), &points);
            assert_eq!(self.table.card_index(&guess), None, "player {q} saw a card");
        }
        self.hands.draw(position, Hand::at(drawer)).unwrap();
        self.players[drawer].seen.insert(position, card);
    }

    /// `writer` discards the card it drew first, opened by its share.
    fn discard(&mut self, writer: usize) {
        let position = self.hands.held(Hand::at(writer))[0];
        let card = self.players[writer].seen[&position];
        let deck = self.deck_of(position).clone();
        let own = self.players[writer].secret.share(&deck, position).unwrap();
        let all: Vec<(&str, &Share)> = (0..self.players.len())
            .map(|i| {
                let share = if i == writer {
                    &own
                } else {
                    &self.shares[&(position, i)]
                };
                (self.players[i].side.as_str(), share)
            })
            .collect();
        let play = Play {
            hand: Hand::at(writer),
            position,
            claimed: card,
        };
        self.hands.play(&self.table, &deck, play, &all).unwrap();
        self.pile.push(card);
    }
}

/// A whole game: the set-up lines, then `turns` turns of draw one,
/// discard one, reshuffling by the schedule; the audit at the end.
fn play_game(players: usize, turns: u32) -> Simulation {
    let mut sim = Simulation::new(players);
    let n = players as u32;
    let first = Deck::unmasked(&sim.table, 0, &(0..34).collect::<Vec<_>>()).unwrap();
    sim.decks.push((first, Vec::new()));
    let steps = setup_steps(players);
    sim.writers = steps.iter().map(|(w, _)| *w).collect();
    let at = sim.writers.len();
    let mut draws = Vec::new();
    for t in 1..=turns {
        sim.writers.push((t as usize - 1) % players);
        for position in first_draws(n, 3, t) {
            draws.push(Draw {
                drawer: (t as usize - 1) % players,
                position,
                line: at + t as usize - 1,
            });
        }
    }
    for (line, (writer, step)) in steps.iter().enumerate() {
        if *step == DeckStep::Pass {
            sim.pass(*writer);
        }
        let due = shares_due(&sim.writers, &draws, line);
        sim.give_shares(*writer, &due);
    }
    let mut reshuffle: Option<usize> = None;
    for t in 1..=turns {
        let line = at + t as usize - 1;
        let writer = sim.writers[line];
        for position in first_draws(n, 3, t) {
            sim.draw(writer, position);
            sim.next = position + 1;
        }
        let end = sim.decks.last().unwrap().0.end();
        if reshuffle.is_none() && reshuffle_due(n, end - sim.next + 1) && !sim.pile.is_empty() {
            let pile = std::mem::take(&mut sim.pile);
            let deck = Deck::unmasked(&sim.table, end, &pile).unwrap();
            sim.decks.push((deck, Vec::new()));
            reshuffle = Some(line);
        }
        if let Some(start) = reshuffle {
            if line < start + players {
                sim.pass(writer);
            } else {
                reshuffle = None;
            }
        }
        let due = shares_due(&sim.writers, &draws, line);
        sim.give_shares(writer, &due);
        sim.discard(writer);
    }
    sim
}

/// Every pass of the game recomputes from its opened seed.
fn audit_all(sim: &Simulation) {
    for (first, passes) in &sim.decks {
        let mut input = first;
        for (pass, opening) in passes {
            assert_eq!(audit_pass(&sim.table, input, pass, opening), Ok(()));
            input = &pass.output;
        }
    }
}

fn full_game_where_no_player_learns_another_players_card(players: usize) {
    let sim = play_game(players, 40);
    assert!(sim.decks.len() >= 2, "the game reshuffled");
    audit_all(&sim);
    // Each player saw exactly its own draws; the physical cards drawn
    // from each deck are that deck's cards, each once.
    let mut drawn: Vec<u32> = sim
        .players
        .iter()
        .flat_map(|p| p.seen.values().copied())
        .collect();
    let first: Vec<u32> = sim
        .players
        .iter()
        .flat_map(|p| p.seen.range(..34))
        .map(|(_, c)| *c)
        .collect();
    let mut first_sorted = first.clone();
    first_sorted.sort_unstable();
    first_sorted.dedup();
    assert_eq!(
        first_sorted.len(),
        first.len(),
        "no card twice from one deck"
    );
    drawn.sort_unstable();
    assert_eq!(drawn.len() as u32, sim.next);
    for (i, p) in sim.players.iter().enumerate() {
        for position in p.seen.keys() {
            assert_eq!(sim.hands.drawer(*position), Some(Hand::at(i)));
        }
    }
}

#[test]
fn a_full_two_player_deal_hides_each_hand_from_the_other() {
    full_game_where_no_player_learns_another_players_card(2);
}

#[test]
fn a_full_three_player_deal_hides_each_hand_from_the_others() {
    full_game_where_no_player_learns_another_players_card(3);
}

#[test]
fn a_full_four_player_deal_hides_each_hand_from_the_others() {
    full_game_where_no_player_learns_another_players_card(4);
}

#[test]
fn a_batch_of_shares_verifies_when_every_proof_does_and_names_the_first_that_does_not() {
    let table = example_table();
    let deck = example_deck(&table);
    let game = *table.game();
    let checks: Vec<ShareCheck> = (0..6)
        .map(|p| {
            let side = if p % 2 == 0 { "North" } else { "South" };
            let share = secret(side).share(&deck, p).unwrap();
            share.check(&table, side, &deck).unwrap()
        })
        .collect();
    assert!(verify_batch(&game, &checks));
    assert!(verify_batch::<ShareCheck>(&game, &[]));
    assert_eq!(first_bad(&game, &checks), None);
    // Positions 2 and 4 given South's share as North's: both fail alone,
    // the batch fails, and the search names position 2.
    let mut forged = checks.clone();
    for p in [2, 4] {
        let lie = secret("South").share(&deck, p).unwrap();
        let lie = Share::from_bytes(p, &lie.point_bytes(), lie.proof_bytes()).unwrap();
        forged[p as usize] = lie.check(&table, "North", &deck).unwrap();
        assert!(!forged[p as usize].verify(&game));
    }
    assert!(!verify_batch(&game, &forged));
    assert_eq!(first_bad(&game, &forged), Some(2));
    assert_eq!(
        forged[2].error(),
        DeckError::BadShare {
            side: "North".into(),
            position: 2
        }
    );
    // The last one alone bad, and a batch of one.
    let mut last = checks.clone();
    last[5] = forged[4].clone();
    assert_eq!(first_bad(&game, &last), Some(5));
    assert_eq!(first_bad(&game, &forged[4..5]), Some(0));
    // The same proofs checked for another game fail.
    assert!(!verify_batch(&[7; 32], &checks));
}
