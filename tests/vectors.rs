//! The test vectors of the fairness derivations (docs/protocol.md
//! sections 3.3, 3.6, 3.7 and 3.8), kept once in
//! tests/data/vectors/fairness.json: herald's library recomputes every
//! one of them here, and the independent Python reference
//! (tools/fairness_reference.py --check) checks the same file.

use std::path::{Path, PathBuf};

use ed25519_dalek::Signer;
use herald::fairness::{
    bound_chain, chain_id, chain_step, chain_value, game_id, line_bytes, record_start, record_step,
    seal_message, settle_seed, signing_key, signing_seed, slot_commitment, slot_salt, turn_seed,
    Hash, Sampler, SealedKind,
};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

mod common;
use common::python_reference;

/// What the Python reference checks here.
const VECTORS: &str = "the fairness vectors";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn data() -> Value {
    let text = std::fs::read_to_string(root().join("tests/data/vectors/fairness.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The file's vector `name`.
fn vector<'a>(data: &'a Value, name: &str) -> &'a Value {
    data["vectors"]
        .get(name)
        .unwrap_or_else(|| panic!("no vector {name:?} in tests/data/vectors/fairness.json"))
}

/// A list of (tag, value) pairs of the file's inputs.
fn tags(data: &Value, name: &str) -> Vec<(String, String)> {
    data["inputs"][name]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_owned(),
                p[1].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn pairs(tags: &[(String, String)]) -> impl Iterator<Item = (&str, &str)> {
    tags.iter().map(|(n, v)| (n.as_str(), v.as_str()))
}

fn hash_of(text: &str) -> Hash {
    hex::decode(text).unwrap().try_into().unwrap()
}

/// Every vector herald computes, by the file's names.
fn computed(data: &Value) -> Vec<(&'static str, Value)> {
    let mut out: Vec<(&'static str, Value)> = Vec::new();
    let mut put = |name: &'static str, value: Value| out.push((name, value));
    let hx = |h: &[u8]| Value::from(hex::encode(h));
    let example = tags(data, "example tags");
    let secret = hash_of(data["inputs"]["secret"].as_str().unwrap());
    let cid = chain_id(pairs(&example));
    put("chain id", hx(&cid));
    put(
        "chain_step(chain id, 00*32)",
        hx(&chain_step(&cid, &[0; 32])),
    );
    put("s_0", hx(&chain_value(&secret, &cid, 0).unwrap()));
    put("s_1", hx(&chain_value(&secret, &cid, 1).unwrap()));
    let bound = bound_chain(&cid, &[0x11; 32]);
    put("bound chain id", hx(&bound));
    put("bound s_0", hx(&chain_value(&secret, &bound, 0).unwrap()));
    let gid = game_id(pairs(&example));
    put("game id", hx(&gid));
    let seed = turn_seed(&gid, 7, "die", &[0x11; 32], &[[0x22; 32]]);
    put("turn seed", hx(&seed));
    let sseed = settle_seed(&gid, 7, 8, "rally", &[0x33; 32], &[[0x44; 32]]);
    put("settle seed", hx(&sseed));
    let mut s = Sampler::new(&[0; 32]);
    put(
        "chacha20 words of 00*32",
        json!((0..4).map(|_| s.word()).collect::<Vec<_>>()),
    );
    let twelve = |seed: &Hash, n: u32| {
        let mut s = Sampler::new(seed);
        json!((0..12).map(|_| s.below(n)).collect::<Vec<_>>())
    };
    put("turn seed below(2)", twelve(&seed, 2));
    put("turn seed below(4)", twelve(&seed, 4));
    put("turn seed below(6)", twelve(&seed, 6));
    let faces = [1, 2, 2, 3, 3, 4];
    let mut s = Sampler::new(&seed);
    put(
        "turn seed die 1 2 2 3 3 4",
        json!((0..12)
            .map(|_| faces[s.below(6) as usize])
            .collect::<Vec<_>>()),
    );
    put(
        "turn seed shuffle(34)",
        json!(Sampler::new(&seed).shuffle(34)),
    );
    put("settle seed below(2)", twelve(&sseed, 2));
    let salt = slot_salt(&secret, &cid, "Human", "a1");
    put("salt Human a1", hx(&salt));
    put(
        "commitment Human a1 R",
        hx(&slot_commitment(&gid, "Human", "a1", &salt, "R")),
    );
    let mut keyed = example.clone();
    keyed.insert(4, ("HumanKey".into(), "11".repeat(32)));
    put("chain id with HumanKey", hx(&chain_id(pairs(&keyed))));
    let signing = signing_seed(&secret, &cid);
    put("signing-key seed", hx(&signing));
    put(
        "Ed25519 public key",
        hx(signing_key(&signing).verifying_key().as_bytes()),
    );
    let d0 = record_start(&gid);
    put("d_0", hx(&d0));
    let text = format!(
        "rally=heads, B1-B2, rally Dwarf @C1\nreveal {}",
        "11".repeat(32)
    );
    let line = line_bytes(SealedKind::Turn, 7, "Human", &text);
    put("line bytes", hx(&line));
    put("d_1 unsigned", hx(&record_step(&d0, &line, None)));
    put(
        "d_1 signed 22*64",
        hx(&record_step(&d0, &line, Some(&[0x22; 64]))),
    );
    let message = seal_message(&gid, &line, &d0);
    put("seal message length", json!(message.len()));
    put("SHA-256 of the seal message", hx(&Sha256::digest(&message)));
    put(
        "Ed25519 signature of the seal message",
        hx(&signing_key(&signing).sign(&message).to_bytes()),
    );
    // Chance before turn 1 in Battlegates (section 3.3): seeded as turn
    // 0's, South's latest reveal in the mover's place.
    let bg = tags(data, "battlegates tags");
    let bgid = game_id(pairs(&bg));
    put("battlegates game id", hx(&bgid));
    let (south, north) = ([0x11; 32], [0x26; 32]);
    let opening = turn_seed(&bgid, 0, "opening", &south, &[north]);
    let deal = turn_seed(&bgid, 0, "deal", &south, &[north]);
    put("battlegates opening seed", hx(&opening));
    put("battlegates deal seed", hx(&deal));
    // The opening roll: South's die then North's, again as a pair on a
    // tie; the higher moves first.
    let mut s = Sampler::new(&opening);
    let mut rolls = Vec::new();
    let (a, b) = loop {
        let (a, b) = (faces[s.below(6) as usize], faces[s.below(6) as usize]);
        rolls.push(json!([a, b]));
        if a != b {
            break (a, b);
        }
    };
    put("battlegates opening rolls", json!(rolls));
    let (first, second) = if a > b {
        ("South", "North")
    } else {
        ("North", "South")
    };
    put("battlegates first", json!(first));
    // The deal: six draws by position in the deck listed in card order
    // (section 10), the side that moves second first, then alternately.
    let counts = [
        ("scale", 6),
        ("climb", 6),
        ("move-wall", 5),
        ("move-gate", 5),
        ("rotate90", 7),
        ("rotate180", 5),
    ];
    let mut deck: Vec<&str> = counts
        .iter()
        .flat_map(|&(card, n)| std::iter::repeat_n(card, n))
        .collect();
    let mut s = Sampler::new(&deal);
    let mut hands = serde_json::Map::new();
    hands.insert("South".into(), json!([]));
    hands.insert("North".into(), json!([]));
    for k in 0..6 {
        let to = if k % 2 == 0 { second } else { first };
        let card = deck.remove(s.below(deck.len() as u32) as usize);
        hands[to].as_array_mut().unwrap().push(json!(card));
    }
    put("battlegates deal", Value::Object(hands));
    out
}

#[test]
fn the_library_computes_every_vector_of_the_data_file() {
    let data = data();
    let ours = computed(&data);
    for (name, value) in &ours {
        assert_eq!(vector(&data, name), value, "{name}");
    }
    // And the file holds no vector the library does not check.
    let names: Vec<&str> = ours.iter().map(|(n, _)| *n).collect();
    for name in data["vectors"].as_object().unwrap().keys() {
        assert!(names.contains(&name.as_str()), "{name} is not checked");
    }
}

#[test]
fn the_python_reference_computes_every_vector_of_the_data_file() {
    let script = root().join("tools/fairness_reference.py");
    let file = root().join("tests/data/vectors/fairness.json");
    let Some(output) = python_reference(&script, &[Path::new("--check"), &file], VECTORS) else {
        return;
    };
    assert!(
        output.status.success(),
        "the reference disagrees with the data file:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    // Every vector but the Ed25519 ones, which Python's standard library
    // cannot compute.
    let data = data();
    let total = data["vectors"].as_object().unwrap().len();
    let ed25519 = data["ed25519"].as_array().unwrap().len();
    assert_eq!(ed25519, 2);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!("{} vectors agree with {}", total - ed25519, file.display())
    );
}

#[test]
fn the_python_reference_refuses_a_data_file_with_a_wrong_vector() {
    let mut data = data();
    data["vectors"]["s_0"] = json!("00".repeat(32));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fairness.json");
    std::fs::write(&file, data.to_string()).unwrap();
    let script = root().join("tools/fairness_reference.py");
    if let Some(output) = python_reference(&script, &[Path::new("--check"), &file], VECTORS) {
        assert_eq!(output.status.code(), Some(1));
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.starts_with("s_0: computed 93f024f4"), "{text}");
    }
}

/// The docs show the vectors' table of section 3.6 no more: they point to
/// the data file, and the one example value they show is the file's.
#[test]
fn the_protocol_docs_point_to_the_data_file_and_show_its_values() {
    let docs = std::fs::read_to_string(root().join("docs/protocol.md")).unwrap();
    assert!(docs.contains("tests/data/vectors/fairness.json"));
    assert!(docs.contains("tests/data/vectors/mental-poker.json"));
    let data = data();
    for name in ["chain id", "s_0", "game id"] {
        let value = vector(&data, name).as_str().unwrap();
        assert!(docs.contains(value), "{name} {value} in docs/protocol.md");
    }
}
