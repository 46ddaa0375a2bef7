//! The hidden-hands protocol (spec section 3.9) against its independent
//! reference, `tools/mental-poker/reference.py` (plain Python 3, its own
//! ristretto255): the vectors are kept once, in
//! tests/data/vectors/mental-poker.json; herald's library recomputes
//! every one of them here, and the reference checks the same file
//! (`--check`), byte for byte.

use std::path::{Path, PathBuf};

use herald::fairness::{chain_id, game_id, slot_salt, Hash};
use herald::referee::deck::{
    batch_seed, batch_weight, card_point, shuffle, shuffle_slot, verify_batch, CardKey, CardSecret,
    Deck, KeyProof, Share, ShuffleSeed, Table,
};
use sha2::{Digest, Sha256};

mod common;
use common::python_reference;

/// What the Python reference checks here.
const VECTORS: &str = "the hidden-hands vectors";

const TAGS: [(&str, &str); 5] = [
    ("Game", "battlegates"),
    ("South", "ann@example.org"),
    ("North", "bob@example.org"),
    ("Nonce", "000102030405060708090a0b0c0d0e0f"),
    ("Result", "*"),
];

const SIDES: [&str; 2] = ["South", "North"];

fn key_file(side: &str) -> Hash {
    let first = if side == "South" { 0 } else { 32 };
    std::array::from_fn(|i| first + i as u8)
}

/// The reference's vectors as herald computes them, `name: value` lines
/// (all but the card secrets, which the library never shows).
fn herald_vectors() -> Vec<String> {
    let mut out = Vec::new();
    let mut put = |name: &str, value: String| out.push(format!("{name}: {value}"));
    let (game, chain) = (game_id(TAGS), chain_id(TAGS));
    put("game id", hex::encode(game));
    put("chain id", hex::encode(chain));
    for i in [0, 33] {
        let point = card_point(&game, i).compress().to_bytes();
        put(&format!("card point {i}"), hex::encode(point));
    }
    let secrets: Vec<CardSecret> = SIDES
        .iter()
        .map(|side| CardSecret::derive(&key_file(side), &game, side))
        .collect();
    for s in &secrets {
        put(
            &format!("{} card key", s.side()),
            hex::encode(s.public().to_bytes()),
        );
        put(
            &format!("{} key proof", s.side()),
            hex::encode(s.prove().to_bytes()),
        );
    }
    let sides: Vec<(&str, CardKey, KeyProof)> = secrets
        .iter()
        .map(|s| (s.side(), s.public(), s.prove()))
        .collect();
    let table = Table::new(&game, 34, &sides).unwrap();
    put("joint key", hex::encode(table.joint_key()));
    let mut deck = Deck::unmasked(&table, 0, &(0..34).collect::<Vec<_>>()).unwrap();
    for side in SIDES {
        let seed = ShuffleSeed::derive(&key_file(side), &game, side, 0);
        let salt = slot_salt(&key_file(side), &chain, side, &shuffle_slot(0));
        put(&format!("{side} seed 0"), seed.value());
        put(&format!("{side} salt of shuffle-0"), hex::encode(salt));
        put(
            &format!("{side} commit shuffle-0"),
            hex::encode(seed.commitment(&game, side, 0, &salt)),
        );
        let perm: Vec<String> = seed.permutation(34).iter().map(u32::to_string).collect();
        put(&format!("{side} permutation"), perm.join(" "));
        put(
            &format!("{side} mask 0"),
            hex::encode(seed.mask(0).to_bytes()),
        );
        put(
            &format!("{side} mask 33"),
            hex::encode(seed.mask(33).to_bytes()),
        );
        let next = ShuffleSeed::derive(&key_file(side), &game, side, 1);
        put(&format!("{side} seed 1"), next.value());
        deck = shuffle(&table, &deck, &seed);
        let first = deck.cards()[0].to_bytes();
        put(&format!("deck 0 after {side}'s pass"), hex::encode(first));
        let mut h = Sha256::new();
        for card in deck.cards() {
            h.update(card.to_bytes());
        }
        let digest = hex::encode(h.finalize());
        put(&format!("SHA-256 of the deck after {side}'s pass"), digest);
    }
    let north = secrets[1].share(&deck, 0).unwrap();
    put("North share 0", hex::encode(north.point_bytes()));
    put("North share 0 proof", hex::encode(north.proof_bytes()));
    let last = secrets[1].share(&deck, 33).unwrap();
    assert_eq!(last.verify(&table, "North", &deck), Ok(()));
    put("North share 33", hex::encode(last.point_bytes()));
    put("North share 33 proof", hex::encode(last.proof_bytes()));
    let drawn = secrets[0]
        .draw(&table, &deck, 0, &[("North", &north)])
        .unwrap();
    put("South draws at 0", drawn.to_string());
    let south = secrets[0].share(&deck, 0).unwrap();
    put("South share 0", hex::encode(south.point_bytes()));
    put("South share 0 proof", hex::encode(south.proof_bytes()));
    let opened = Share::open(&table, &deck, 0, &[("South", &south), ("North", &north)]);
    assert_eq!(opened, Ok(drawn));
    let batch = [
        north.check(&table, "North", &deck).unwrap(),
        last.check(&table, "North", &deck).unwrap(),
    ];
    assert!(verify_batch(&game, &batch));
    let h = batch_seed(&game, &batch);
    put("batch of North's shares 0 and 33: h", hex::encode(h));
    put("its weight z_0", hex::encode(batch_weight(&h, 0, 0)));
    put("its weight w_1", hex::encode(batch_weight(&h, 1, 1)));
    out.extend(table_vectors(3, 34));
    out.extend(table_vectors(4, 68));
    out
}

/// The vectors of a table of `n` players (three or four: sides Castle1
/// .. Castle<n>) and `cards` cards (68: two decks), as the reference's
/// `table_vectors` prints them, each prefixed with the table.
fn table_vectors(n: usize, cards: u32) -> Vec<String> {
    let sides: Vec<String> = (1..=n).map(|i| format!("Castle{i}")).collect();
    let contacts: Vec<String> = (1..=n).map(|i| format!("castle{i}@example.org")).collect();
    let mut tags = vec![("Game", "battlegates")];
    tags.extend(
        sides
            .iter()
            .zip(&contacts)
            .map(|(s, c)| (s.as_str(), c.as_str())),
    );
    tags.push(("Nonce", "0f0e0d0c0b0a09080706050403020100"));
    tags.push(("Result", "*"));
    let (game, chain) = (
        game_id(tags.iter().copied()),
        chain_id(tags.iter().copied()),
    );
    let key = |i: usize| -> Hash { std::array::from_fn(|b| (32 * i + b) as u8) };
    let mut out = Vec::new();
    let mut put = |name: &str, value: String| out.push(format!("{n} players: {name}: {value}"));
    put("game id", hex::encode(game));
    let last = card_point(&game, cards - 1).compress().to_bytes();
    put(&format!("card point {}", cards - 1), hex::encode(last));
    let secrets: Vec<CardSecret> = sides
        .iter()
        .enumerate()
        .map(|(i, side)| CardSecret::derive(&key(i), &game, side))
        .collect();
    for s in &secrets {
        put(
            &format!("{} card key", s.side()),
            hex::encode(s.public().to_bytes()),
        );
        put(
            &format!("{} key proof", s.side()),
            hex::encode(s.prove().to_bytes()),
        );
    }
    let keys: Vec<(&str, CardKey, KeyProof)> = secrets
        .iter()
        .map(|s| (s.side(), s.public(), s.prove()))
        .collect();
    let table = Table::new(&game, cards, &keys).unwrap();
    put("joint key", hex::encode(table.joint_key()));
    let all: Vec<u32> = (0..cards).collect();
    let mut deck = Deck::unmasked(&table, 0, &all).unwrap();
    for (i, side) in sides.iter().enumerate() {
        let seed = ShuffleSeed::derive(&key(i), &game, side, 0);
        let salt = slot_salt(&key(i), &chain, side, &shuffle_slot(0));
        put(
            &format!("{side} commit shuffle-0"),
            hex::encode(seed.commitment(&game, side, 0, &salt)),
        );
        deck = shuffle(&table, &deck, &seed);
        let mut h = Sha256::new();
        for card in deck.cards() {
            h.update(card.to_bytes());
        }
        let digest = hex::encode(h.finalize());
        put(&format!("SHA-256 of the deck after {side}'s pass"), digest);
    }
    // Castle2 draws position 1 with every other side's share, then opens
    // it with its own.
    let shares: Vec<Share> = secrets.iter().map(|s| s.share(&deck, 1).unwrap()).collect();
    for (s, share) in secrets.iter().zip(&shares) {
        assert_eq!(share.verify(&table, s.side(), &deck), Ok(()));
        put(
            &format!("{} share 1", s.side()),
            hex::encode(share.point_bytes()),
        );
        put(
            &format!("{} share 1 proof", s.side()),
            hex::encode(share.proof_bytes()),
        );
    }
    let named: Vec<(&str, &Share)> = sides.iter().map(String::as_str).zip(&shares).collect();
    let others: Vec<(&str, &Share)> = named
        .iter()
        .copied()
        .filter(|(s, _)| *s != "Castle2")
        .collect();
    let drawn = secrets[1].draw(&table, &deck, 1, &others).unwrap();
    put("Castle2 draws at 1", drawn.to_string());
    assert_eq!(Share::open(&table, &deck, 1, &named), Ok(drawn));
    out
}

/// The vectors of tests/data/vectors/mental-poker.json, `name: value`
/// lines in order, with or without those only the reference computes.
fn data_file_vectors(with_python_only: bool) -> Vec<String> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/vectors/mental-poker.json");
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let python_only = data["python_only"].as_array().unwrap();
    data["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|pair| with_python_only || !python_only.contains(&pair[0]))
        .map(|pair| {
            format!(
                "{}: {}",
                pair[0].as_str().unwrap(),
                pair[1].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn the_library_computes_every_vector_of_the_data_file() {
    let theirs = data_file_vectors(false);
    // 37 lines for two players (the batch's three among them), 22 for
    // three, 28 for four.
    assert_eq!(theirs.len(), 37 + 22 + 28);
    assert_eq!(herald_vectors(), theirs);
}

#[test]
fn the_python_reference_computes_every_vector_of_the_data_file() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("tools/mental-poker/reference.py");
    let file = root.join("tests/data/vectors/mental-poker.json");
    let Some(output) = python_reference(&script, &[Path::new("--check"), &file], VECTORS) else {
        return;
    };
    assert!(
        output.status.success(),
        "the reference disagrees with the data file:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!(
            "{} vectors agree with {}",
            data_file_vectors(true).len(),
            file.display()
        )
    );
}

#[test]
fn the_python_reference_passes_its_own_ristretto255_self_test() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/mental-poker/reference.py");
    if let Some(output) = python_reference(&script, &[Path::new("--self-test")], VECTORS) {
        assert!(output.status.success());
        assert_eq!(
            String::from_utf8_lossy(&output.stdout).trim(),
            "ristretto255, the sampler: self-test passed"
        );
    }
}

/// The cards docs/protocol.md section 3.9 names in prose (South draws
/// card 5; Castle2 card 18 with three players, 55 with four) are the data
/// file's, and the section points to the file.
#[test]
fn the_protocol_docs_name_the_data_files_cards() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("docs/protocol.md")).unwrap();
    assert!(docs.contains("tests/data/vectors/mental-poker.json"));
    let vectors = data_file_vectors(false);
    for (name, prose) in [
        ("South draws at 0", "the card South draws at position 0 (5:"),
        (
            "3 players: Castle2 draws at 1",
            "Castle2 draws card\n18 with three",
        ),
        (
            "4 players: Castle2 draws at 1",
            "card 55 (card 21 of the second deck)",
        ),
    ] {
        let value = vectors
            .iter()
            .find_map(|line| line.strip_prefix(&format!("{name}: ")))
            .unwrap_or_else(|| panic!("{name} in the data file"));
        assert!(prose.contains(value), "{name}: {value} is not in {prose:?}");
        assert!(docs.contains(prose), "docs/protocol.md says {prose:?}");
    }
}
