//! Three players of Battle of the Dale, each with their own directory, key
//! file and copy of the record, pass the record around by email (here: by
//! copying the file) using `herald move --key`. Every copy is checked after
//! every turn. The game goes on until a rally has been declared by one
//! player and settled by the next player's reveal.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

const PLAYERS: [(&str, &str); 3] = [("Human", "ann"), ("Elf", "eve"), ("Goblin", "gus")];

fn herald(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("herald").unwrap();
    c.current_dir(dir);
    c
}

fn json(dir: &Path, args: &[&str]) -> Value {
    let out = herald(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// "Mail" the record from one player's directory to everybody else's.
fn mail(from: &Path, all: &[PathBuf]) {
    let text = std::fs::read(from.join("game.pbem")).unwrap();
    for dir in all {
        std::fs::write(dir.join("game.pbem"), &text).unwrap();
    }
}

#[test]
fn three_players_play_by_email_through_a_settled_rally() {
    let root = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = PLAYERS
        .iter()
        .map(|(_, who)| {
            let d = root.path().join(who);
            std::fs::create_dir(&d).unwrap();
            d
        })
        .collect();
    // Ann starts the game; each player adds a commitment in turn.
    herald(&dirs[0])
        .args(["new", "battle-of-the-dale", "-o", "game.pbem"])
        .args(
            PLAYERS.iter().flat_map(|(side, who)| {
                ["--side".to_string(), format!("{side}={who}@example.org")]
            }),
        )
        .assert()
        .success();
    for (i, (side, _)) in PLAYERS.iter().enumerate() {
        if i > 0 {
            mail(&dirs[i - 1], &dirs[i..=i]);
        }
        herald(&dirs[i])
            .args(["keygen", "--side", side, "game.pbem", "-o", "my.key"])
            .assert()
            .success();
    }
    mail(&dirs[2], &dirs);

    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut declared = None;
    let mut settled = false;
    for turn in 1..=400u32 {
        let status = json(&dirs[0], &["check", "--format", "json", "game.pbem"]);
        assert_eq!(status["ok"], true);
        if status["result"] != "*" {
            break;
        }
        let side = status["to_move"].as_str().unwrap().to_owned();
        let me = PLAYERS.iter().position(|(s, _)| *s == side).unwrap();
        let legal = json(
            &dirs[me],
            &["legal", "--format", "json", "game.pbem", "--key", "my.key"],
        );
        let actions: Vec<&str> = legal["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["action"].as_str().unwrap())
            .collect();
        let choice = if let Some(r) = actions
            .iter()
            .find(|a| a.starts_with("rally"))
            .filter(|_| declared.is_none())
        {
            declared = Some((turn, side.clone()));
            r.to_string()
        } else if actions.is_empty() {
            "pass".to_string()
        } else {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            actions[(rng % actions.len() as u64) as usize].to_string()
        };
        herald(&dirs[me])
            .args([
                "move",
                "game.pbem",
                &choice,
                "--key",
                "my.key",
                "--expect-turn",
                &turn.to_string(),
            ])
            .assert()
            .success();
        mail(&dirs[me], &dirs);
        for dir in &dirs {
            herald(dir).args(["check", "game.pbem"]).assert().success();
        }
        if let Some((d, _)) = &declared {
            if turn == d + 1 {
                settled = true;
                break;
            }
            // The declared rally is pending until the next line.
            let pending = json(&dirs[0], &["check", "--format", "json", "game.pbem"]);
            assert_eq!(pending["pending"][0]["label"], "rally", "{pending}");
        }
    }
    let (d, declarer) = declared.expect("a rally came up");
    assert!(settled, "the rally was settled");
    let record = std::fs::read_to_string(dirs[0].join("game.pbem")).unwrap();
    let settling_line = record
        .lines()
        .find(|l| l.starts_with(&format!("{}. ", d + 1)))
        .unwrap();
    assert!(
        settling_line.contains("rally=heads") || settling_line.contains("rally=tails"),
        "{settling_line}"
    );
    let fate = json(&dirs[1], &["fate", "--format", "json", "game.pbem"]);
    let event = fate["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["declared"] == d)
        .expect("fate lists the rally");
    assert_eq!(event["turn"], d + 1);
    // The settler's reveal first, then every other player's latest (the
    // declarer's among them), in header order.
    let reveals_of: Vec<&str> = event["reveals_of"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let settler = reveals_of[0];
    assert_ne!(settler, declarer.as_str());
    let others: Vec<&str> = PLAYERS
        .iter()
        .map(|(s, _)| *s)
        .filter(|s| *s != settler)
        .collect();
    assert_eq!(reveals_of[1..], others[..]);
    // No private key ever reached the record.
    for dir in &dirs {
        let key = std::fs::read_to_string(dir.join("my.key")).unwrap();
        let secret = key
            .lines()
            .find_map(|l| l.strip_prefix("secret: "))
            .unwrap();
        assert!(!record.contains(secret));
    }
}

/// The self-play seed of tests/data/dale-4p-before-a-rally-puts-the-settler-out.pbem.
const SEED: u64 = 661;

/// Copy that record into `dir` as game.pbem; its text.
fn four_player_record(dir: &Path) -> String {
    let record = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/dale-4p-before-a-rally-puts-the-settler-out.pbem"),
    )
    .unwrap();
    std::fs::write(dir.join("game.pbem"), &record).unwrap();
    record
}

/// Write `<side>.key` (lower case) in `dir`: the self-play key of the
/// `index`-th side of that record, checked against its Commit tag.
fn write_self_play_key(dir: &Path, record: &str, index: u8, side: &str) {
    use herald::fairness::{chain_id, chain_value};
    let secret = herald::selfplay::secret(SEED, herald::game::Side(index));
    let chain = chain_id([
        ("Game", "battle-of-the-dale"),
        ("Human", "human@example.org"),
        ("Elf", "elf@example.org"),
        ("Dwarf", "dwarf@example.org"),
        ("Goblin", "goblin@example.org"),
    ]);
    let commit = hex::encode(chain_value(&secret, &chain, 0).unwrap());
    assert!(
        record.contains(&format!("[{side}Commit \"{commit}\"]")),
        "the self-play key must match the record's {side}Commit"
    );
    std::fs::write(
        dir.join(format!("{}.key", side.to_ascii_lowercase())),
        format!(
            "herald-key: 1\ngame: battle-of-the-dale\nside: {side}\nchain: {}\ncommit: {commit}\nsecret: {}\n",
            hex::encode(chain),
            hex::encode(secret)
        ),
    )
    .unwrap();
}

/// A signed four-player self-play record cut just before a line that
/// settles a rally: (its seed, its text, the settling turn, the settler).
fn signed_record_before_a_settlement() -> (u64, String, u64, String) {
    type G = herald::games::battle_of_the_dale::BattleOfTheDale;
    for seed in 0..300u64 {
        let mut options = herald::selfplay::Options::new::<G>(seed, 4);
        options.signatures = true;
        options.max_turns = 80;
        let text = herald::selfplay::record::<G>(&options).unwrap();
        let Some(at) = text.find(": rally=") else {
            continue;
        };
        let start = text[..at].rfind('\n').unwrap() + 1;
        let (number, side) = text[start..at].split_once(". ").unwrap();
        let turns_after: usize = text[start..].matches("\n    reveal").count();
        if turns_after < 3 {
            continue; // the game must go on after the settler drops out
        }
        let result = text.lines().find(|l| l.starts_with("[Result ")).unwrap();
        let cut = text[..start].replace(result, "[Result \"*\"]");
        return (seed, cut, number.parse().unwrap(), side.to_owned());
    }
    panic!("no signed self-play game settles a rally");
}

/// Write `<side>.key` in `dir`: the self-play key of side `index` of a
/// four-player game with `seed`.
fn write_key(dir: &Path, seed: u64, index: u8) -> String {
    type G = herald::games::battle_of_the_dale::BattleOfTheDale;
    let side = herald::game::Side(index).name::<G>();
    let chain = herald::fairness::chain_id([
        ("Game", "battle-of-the-dale"),
        ("Human", "human@example.org"),
        ("Elf", "elf@example.org"),
        ("Dwarf", "dwarf@example.org"),
        ("Goblin", "goblin@example.org"),
    ]);
    let secret = herald::selfplay::secret(seed, herald::game::Side(index));
    let wallet = herald::wallet::Wallet::from_secret("battle-of-the-dale", side, chain, secret);
    let path = format!("{}.key", side.to_ascii_lowercase());
    std::fs::write(dir.join(&path), wallet.to_text()).unwrap();
    path
}

/// The player who would settle a rally stops answering: the next player
/// claims the forfeit (spec 3.8), signing `N. Side: forfeit claimed
/// by Next` without the settler's reveal. The rally stays pending, still
/// declared on the turn before, and the claimant's own reveal on the turn
/// after settles it.
#[test]
fn a_forfeit_leaves_a_pending_rally_for_the_next_player() {
    let dir = tempfile::tempdir().unwrap();
    let (seed, record, settling, settler) = signed_record_before_a_settlement();
    std::fs::write(dir.path().join("game.pbem"), &record).unwrap();
    let before = json(dir.path(), &["fate", "game.pbem", "--format", "json"]);
    let declared = before["pending"][0]["declared"].clone();
    assert_eq!(declared, settling - 1, "{before}");
    assert_eq!(before["pending"][0]["settled_by"], settler.as_str());
    let order = ["Human", "Elf", "Dwarf", "Goblin"];
    let i = order.iter().position(|s| *s == settler).unwrap();
    let check = json(dir.path(), &["check", "game.pbem", "--format", "json"]);
    assert_eq!(check["ok"], true);
    // The next player still in the game claims it.
    let mut next = (i + 1) % 4;
    let claimant = loop {
        let name = order[next];
        let key = write_key(dir.path(), seed, next as u8);
        let out = herald(dir.path())
            .args(["move", "game.pbem", "--forfeit", "--key", &key])
            .output()
            .unwrap();
        if out.status.success() {
            break name;
        }
        next = (next + 1) % 4;
        assert_ne!(next, i, "nobody could claim the forfeit");
    };
    let text = std::fs::read_to_string(dir.path().join("game.pbem")).unwrap();
    assert!(
        text.contains(&format!(
            "{settling}. {settler}: forfeit claimed by {claimant}\n    sig "
        )),
        "{text}"
    );
    let fate = json(dir.path(), &["fate", "game.pbem", "--format", "json"]);
    let pending = &fate["pending"][0];
    assert_eq!(pending["declared"], declared, "{fate}");
    let mover = pending["settled_by"].as_str().unwrap().to_owned();
    assert_ne!(mover, settler);
    let key = write_key(
        dir.path(),
        seed,
        order.iter().position(|s| *s == mover).unwrap() as u8,
    );
    let legal = json(
        dir.path(),
        &["legal", "game.pbem", "--key", &key, "--format", "json"],
    );
    let action = legal["actions"][0]["action"].as_str().unwrap_or("pass");
    herald(dir.path())
        .args(["move", "game.pbem", "--key", &key, action])
        .assert()
        .success();
    let fate = json(dir.path(), &["fate", "game.pbem", "--format", "json"]);
    assert_eq!(fate["pending"], serde_json::json!([]));
    let settled: Vec<&Value> = fate["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["turn"] == settling + 1)
        .collect();
    assert!(!settled.is_empty(), "{fate}");
    for event in settled {
        assert_eq!(event["declared"], declared);
        assert_eq!(event["label"], "rally");
        assert_eq!(event["reveals_of"][0], mover.as_str());
    }
}

/// A self-play record of four players (seed 661) stops after turn 56, where
/// Goblin declared `rally Dwarf @C1`. Human's reveal (with the others'
/// latest) settles it (heads, tails: the Horde succeeds, the Regular placed
/// on C1 captures the Human Regular on B1, and Human, down to one unit, is
/// out; worked out in
/// fixtures/battle-of-the-dale/game-4p-rally-puts-the-settler-out.expect).
/// With Human's key, `legal` says so instead of listing the next player's
/// actions, `move` refuses an action, and `move pass` writes the line.
#[test]
fn a_player_the_settled_rally_puts_out_may_only_pass() {
    let dir = tempfile::tempdir().unwrap();
    let record = four_player_record(dir.path());
    write_self_play_key(dir.path(), &record, 0, "Human");

    let legal = json(
        dir.path(),
        &[
            "legal",
            "game.pbem",
            "--key",
            "human.key",
            "--format",
            "json",
        ],
    );
    assert_eq!(legal["to_move"], "Human");
    assert_eq!(legal["actions"], serde_json::json!([]));
    assert_eq!(
        legal["note"],
        "rally settles with this turn's reveal and puts Human out: Human may only pass"
    );

    let refused = herald(dir.path())
        .args(["move", "game.pbem", "--key", "human.key", "B4-B3"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("Human is out since rally settled at the start of this turn"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("game.pbem")).unwrap(),
        record,
        "a refused move leaves the record as it was"
    );

    herald(dir.path())
        .args(["move", "game.pbem", "--key", "human.key", "pass"])
        .assert()
        .success();
    let written = std::fs::read_to_string(dir.path().join("game.pbem")).unwrap();
    assert!(
        written.contains("\n57. Human: rally=heads, rally=tails\n"),
        "{written}"
    );
    let check = json(dir.path(), &["check", "game.pbem", "--format", "json"]);
    assert_eq!(check["ok"], true);
    assert_eq!(check["to_move"], "Dwarf");
}

/// The settlement of turn 57 in the four-player fixture hashes Human's
/// reveal on that line, then the latest reveals of Elf (turn 42: out, but
/// committed), Dwarf (turn 55) and Goblin (turn 56, the declaring line), in
/// header order (docs/protocol.md 3.4), so no single player decides the flips.
#[test]
fn a_settled_rally_hashes_the_settlers_reveal_and_every_others_latest() {
    use herald::fairness::{settle_seed, Sampler};
    use herald::games::battle_of_the_dale::BattleOfTheDale;
    use herald::record::{self, Source};

    let text = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/battle-of-the-dale/game-4p-rally-puts-the-settler-out.pbem"),
    )
    .unwrap();
    let source = Source::new(&text).unwrap();
    let rec = record::parse(&source).unwrap();
    let referee = herald::referee::replay::<BattleOfTheDale>(&rec, |_, _| {}).unwrap();
    let reveal = |n: u32| {
        let turn = rec.turns.iter().find(|t| t.number == n).unwrap();
        turn.reveal().unwrap().value
    };
    let events: Vec<_> = referee
        .chance()
        .iter()
        .filter(|e| e.declared == Some(56))
        .collect();
    assert_eq!(events.len(), 2, "a Goblin Horde flips twice");
    let seed = settle_seed(
        referee.header().game_id(),
        56,
        57,
        "rally",
        &reveal(57),
        &[reveal(42), reveal(55), reveal(56)],
    );
    let mut coins = Sampler::new(&seed);
    for e in &events {
        assert_eq!((e.turn, e.value), (57, coins.below(2)));
        assert_eq!(e.reveals_of, ["Human", "Elf", "Dwarf", "Goblin"]);
    }
    assert_eq!(
        events.iter().map(|e| e.text.as_str()).collect::<Vec<_>>(),
        ["heads", "tails"]
    );
}
