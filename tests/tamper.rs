//! Tampering with a committed record is caught by `herald check`, naming
//! the turn and a reason (spec 3.1, 3.2). Records are made fresh with
//! `herald new`, `keygen` and `move --key`, then altered by hand.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn herald() -> Command {
    Command::cargo_bin("herald").unwrap()
}

fn run(dir: &Path, args: &[&str]) {
    herald().current_dir(dir).args(args).assert().success();
}

/// A Castle Danger game of four turns with both sides committed.
fn committed_game(dir: &Path, blue: &str) -> PathBuf {
    run(
        dir,
        &[
            "new",
            "castle-danger",
            "--side",
            &format!("Blue={blue}"),
            "--side",
            "Red=bob@example.org",
            "-o",
            "game.pbem",
        ],
    );
    run(
        dir,
        &["keygen", "--side", "Blue", "game.pbem", "-o", "blue.key"],
    );
    run(
        dir,
        &["keygen", "--side", "Red", "game.pbem", "-o", "red.key"],
    );
    for (turn, key) in [
        ("+C, Kc1-b1", "blue.key"),
        ("Kc9-b9", "red.key"),
        ("Cd1-d2", "blue.key"),
        ("Kb9-a9", "red.key"),
    ] {
        run(dir, &["move", "game.pbem", turn, "--key", key]);
    }
    dir.join("game.pbem")
}

fn check(text: &str) -> Value {
    let out = herald()
        .args(["check", "--format", "json", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

fn reveal_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("reveal "))
        .map(|(i, _)| i)
        .collect()
}

fn assert_rejected(json: &Value, turn: u64, side: &str, fragment: &str) {
    assert_eq!(json["ok"], false, "{json}");
    assert_eq!(json["error"]["turn"], turn, "{json}");
    assert_eq!(json["error"]["side"], side, "{json}");
    let message = json["error"]["message"].as_str().unwrap();
    assert!(message.contains(fragment), "{message}");
}

#[test]
fn an_untouched_committed_game_checks_clean() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    assert_eq!(check(&text)["ok"], true);
}

#[test]
fn a_changed_reveal_is_rejected_at_its_turn() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let third = reveal_lines(&text)[2];
    let last = lines[third].pop().unwrap();
    lines[third].push(if last == '0' { '1' } else { '0' });
    assert_rejected(
        &check(&(lines.join("\n") + "\n")),
        3,
        "Blue",
        "does not hash to Blue's previous reveal",
    );
}

#[test]
fn a_reveal_from_the_other_players_chain_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let r = reveal_lines(&text);
    // Blue's turn 3 carries Red's turn-2 reveal.
    lines[r[2]] = lines[r[1]].clone();
    assert_rejected(
        &check(&(lines.join("\n") + "\n")),
        3,
        "Blue",
        "does not hash to Blue's previous reveal",
    );
}

#[test]
fn reveals_and_commitment_copied_from_another_game_are_rejected() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let game_a = std::fs::read_to_string(committed_game(a.path(), "ann@example.org")).unwrap();
    let game_b = std::fs::read_to_string(committed_game(b.path(), "ann@other.example")).unwrap();
    // Game B with game A's commitments and reveals (the same key in two
    // games): the chains are bound to their game, so B rejects them.
    let header_b: Vec<&str> = game_b.lines().take_while(|l| !l.is_empty()).collect();
    let mut forged = String::new();
    for line in &header_b {
        let copied = if line.contains("Commit") {
            game_a.lines().find(|l| l.starts_with(&line[..8])).unwrap()
        } else {
            line
        };
        forged.push_str(copied);
        forged.push('\n');
    }
    let log_a = game_a.split_once("\n\n").unwrap().1;
    forged.push('\n');
    forged.push_str(log_a);
    assert_rejected(
        &check(&forged),
        1,
        "Blue",
        "does not hash to Blue's commitment",
    );
}

#[test]
fn a_key_from_another_game_is_refused_by_move() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    committed_game(a.path(), "ann@example.org");
    committed_game(b.path(), "ann@other.example");
    let before = std::fs::read(b.path().join("game.pbem")).unwrap();
    herald()
        .current_dir(b.path())
        .args(["move", "game.pbem", "Cd2-d3", "--key"])
        .arg(a.path().join("blue.key"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("made for another game"));
    assert_eq!(std::fs::read(b.path().join("game.pbem")).unwrap(), before);
}

#[test]
fn reordered_turns_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    // Swap the bodies of turns 1 and 3 (both Blue's), keeping the numbers.
    let lines: Vec<&str> = text.lines().collect();
    let t1 = lines.iter().position(|l| l.starts_with("1. ")).unwrap();
    let t3 = lines.iter().position(|l| l.starts_with("3. ")).unwrap();
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out.swap(t1, t3);
    out.swap(t1 + 1, t3 + 1);
    out[t1] = out[t1].replacen("3. ", "1. ", 1);
    out[t3] = out[t3].replacen("1. ", "3. ", 1);
    let json = check(&(out.join("\n") + "\n"));
    assert_eq!(json["ok"], false);
    assert_eq!(json["error"]["turn"], 1, "{json}");
}

#[test]
fn a_removed_line_is_rejected_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let t2 = lines.iter().position(|l| l.starts_with("2. ")).unwrap();
    let mut out: Vec<&str> = lines.clone();
    out.drain(t2..t2 + 2);
    assert_rejected(&check(&(out.join("\n") + "\n")), 2, "Blue", "numbered 3");
}

#[test]
fn a_header_changed_after_the_commitments_breaks_every_reveal() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let edited = text.replace("[Red \"bob@example.org\"]", "[Red \"mallory@example.org\"]");
    assert_rejected(
        &check(&edited),
        1,
        "Blue",
        "does not hash to Blue's commitment",
    );
}

/// A Battle of the Dale self-play record with at least one settled rally.
fn game_with_a_rally() -> String {
    type G = herald::games::battle_of_the_dale::BattleOfTheDale;
    (0..200u64)
        .map(|seed| {
            let options = herald::selfplay::Options::new::<G>(seed, 3);
            herald::selfplay::record::<G>(&options).unwrap()
        })
        .find(|text| text.contains("rally=heads") || text.contains("rally=tails"))
        .expect("some self-play game has a rally")
}

#[test]
fn a_settled_value_edited_by_hand_is_rejected() {
    let text = game_with_a_rally();
    assert_eq!(check(&text)["ok"], true);
    let line = text
        .lines()
        .find(|l| l.contains("rally=heads") || l.contains("rally=tails"))
        .unwrap();
    let turn: u64 = line.split('.').next().unwrap().parse().unwrap();
    let edited_line = if line.contains("rally=heads") {
        line.replacen("rally=heads", "rally=tails", 1)
    } else {
        line.replacen("rally=tails", "rally=heads", 1)
    };
    let json = check(&text.replacen(line, &edited_line, 1));
    assert_eq!(json["error"]["kind"], "record", "{json}");
    assert_eq!(json["error"]["turn"], turn, "{json}");
    assert!(json["error"]["message"]
        .as_str()
        .unwrap()
        .contains("the commitments give rally="));
}

#[test]
fn a_rally_declared_without_commitments_is_rejected_at_its_own_turn() {
    let text = game_with_a_rally();
    let line = text.lines().find(|l| l.contains("rally=")).unwrap();
    // The rally was declared on the line before the one that settled it.
    let turn: u64 = line.split('.').next().unwrap().parse::<u64>().unwrap() - 1;
    // Strip every commitment, reveal and fact, keeping the moves.
    let stripped: String = text
        .lines()
        .filter(|l| !l.contains("Commit \"") && !l.trim_start().starts_with("reveal "))
        .map(|l| {
            let l = l.replace("rally=heads, ", "").replace("rally=tails, ", "");
            let l = l
                .replace(": rally=heads", ": pass")
                .replace(": rally=tails", ": pass");
            l + "\n"
        })
        .collect();
    let json = check(&stripped);
    assert_eq!(json["ok"], false, "{json}");
    assert_eq!(json["error"]["turn"], turn, "{json}");
    assert!(json["error"]["message"]
        .as_str()
        .unwrap()
        .contains("no commitments: rally needs them"));
}
