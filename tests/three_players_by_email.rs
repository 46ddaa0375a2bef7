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
    assert_ne!(event["reveals_of"][0], declarer.as_str());
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
