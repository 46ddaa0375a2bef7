//! Claims that cross in the mail with three players, through the real
//! binary, one directory and key file a player, messages only: two
//! players claim the same forfeit at once, and neither is stuck.

mod common;
use common::{herald, json, run};

use std::path::{Path, PathBuf};

/// Turn 1's day, the claims' day (15 days on, past the default Deadline
/// of 14) and the day the claim stands (15 days after the claims).
const PLAY_DAY: &str = "2026-11-01";
const CLAIM_DAY: &str = "2026-11-16";
const STAND_DAY: &str = "2026-12-01";

fn copy(from: &Path, to: &Path, name: &str) {
    std::fs::copy(from.join(name), to.join(name)).unwrap();
}

/// A legal action of the side due on `message`, with `key`.
fn some_action(dir: &Path, message: &str, key: &str) -> String {
    // On the day the lines are written at the latest: a reader refuses
    // a line from the future that lets a claim stand.
    let out = herald(dir)
        .env("HERALD_TODAY", STAND_DAY)
        .args(["legal", message, "--key", key, "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let legal: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    legal["actions"][0]["action"]
        .as_str()
        .unwrap_or("pass")
        .to_owned()
}

/// Elf stops answering after Human's turn 1; Human and Goblin both claim
/// Elf's forfeit on the same record at once. Goblin's claim reaches the
/// others first and, its deadline past, Goblin plays on. Human's key file
/// remembers its own claim, which crossed Goblin's: Human is told so and
/// plays on from Goblin's copy, never refused as if its line were changed.
#[test]
fn two_claims_of_the_same_forfeit_that_cross_stick_nobody() {
    let root = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = ["ann", "eve", "gus"]
        .iter()
        .map(|n| root.path().join(n))
        .collect();
    for d in &dirs {
        std::fs::create_dir(d).unwrap();
    }
    let (human, elf, goblin) = (&dirs[0], &dirs[1], &dirs[2]);
    run(
        human,
        &[
            "new",
            "battle-of-the-dale",
            "--side",
            "Human=ann@example.org",
            "--side",
            "Elf=eve@example.org",
            "--side",
            "Goblin=gus@example.org",
            "-o",
            "game.pbem",
        ],
    );
    for (dir, side) in [(human, "Human"), (elf, "Elf"), (goblin, "Goblin")] {
        if dir != human {
            copy(human, dir, "game.pbem");
        }
        run(
            dir,
            &["keygen", "--side", side, "game.pbem", "-o", "my.key"],
        );
        for other in &dirs {
            if other != dir {
                copy(dir, other, "game.pbem");
            }
        }
    }
    let first = some_action(human, "game.pbem", "my.key");
    run(
        human,
        &[
            "move",
            "game.pbem",
            &first,
            "--key",
            "my.key",
            "--date",
            PLAY_DAY,
            "--reply",
            "-o",
            "1.eml",
        ],
    );
    for dir in [elf, goblin] {
        copy(human, dir, "1.eml");
    }
    // Both claim Elf's turn 2 at once, each on the message it holds.
    for (dir, out) in [(human, "2h.eml"), (goblin, "2g.eml")] {
        run(
            dir,
            &[
                "move",
                "1.eml",
                "--forfeit",
                "--key",
                "my.key",
                "--date",
                CLAIM_DAY,
                "--reply",
                "-o",
                out,
            ],
        );
    }
    copy(goblin, human, "2g.eml");
    // While the claim is open, the game says whose answer is due, never
    // the next side's turn the board would name.
    let open = json(human, &["check", "2g.eml", "--format", "json"]);
    let summary = open["summary"].as_str().unwrap();
    assert!(
        summary.starts_with(
            "Goblin claimed Elf's forfeit on turn 2: Elf's own turn (turn 3) voids the claim"
        ),
        "{open}"
    );
    // Nobody answers: Goblin's claim stands with Goblin's next line.
    let turn = some_action(goblin, "2g.eml", "my.key");
    run(
        goblin,
        &[
            "move", "2g.eml", &turn, "--key", "my.key", "--date", STAND_DAY, "--reply", "-o",
            "3g.eml",
        ],
    );
    copy(goblin, human, "3g.eml");
    // Human's key file remembers its own claim: it says where it stands
    // and plays on from Goblin's copy.
    // Read on the day of Goblin's line (a reader refuses a line from
    // the future that lets a claim stand).
    let out = herald(human)
        .env("HERALD_TODAY", STAND_DAY)
        .args(["check", "3g.eml", "--key", "my.key"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let standing = String::from_utf8_lossy(&out.stdout).replace("\n  ", " ");
    assert!(
        standing.contains("Your key file (Human, my.key): your forfeit claim on turn 2 crossed another player's claim of the same forfeit in the mail: this copy holds that claim instead, which stands for both"),
        "{standing}"
    );
    let turn = some_action(human, "3g.eml", "my.key");
    let out = herald(human)
        .env("HERALD_TODAY", STAND_DAY)
        .args([
            "move", "3g.eml", &turn, "--key", "my.key", "--date", STAND_DAY, "--reply", "-o",
            "4h.eml",
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("your forfeit claim on turn 2 crossed another player's claim of the same forfeit in the mail"),
        "{said}"
    );
    let out = herald(human)
        .env("HERALD_TODAY", STAND_DAY)
        .args(["check", "4h.eml", "--format", "json"])
        .output()
        .unwrap();
    let after: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(after["ok"], true, "{after}");
    assert_eq!(after["forfeits"][0]["claimed_by"], "Goblin", "{after}");
}
