//! herald driven through its binary as a player would drive it: every test
//! runs the real `herald` in a temporary directory and asserts on what a
//! player sees (standard output and error, exit codes) and on the files it
//! leaves behind. Castle Danger throughout (it needs no chance, so every
//! position below is worked out by hand from spec section 6), but for
//! the tests that start from a fixture of another game, whose `.expect`
//! file explains it.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;
use tempfile::TempDir;

mod common;

const BLUE: &str = "Blue=ann@example.org";
const RED: &str = "Red=bob@example.org";

const HEADER: &str = "[Game \"castle-danger\"]\n\
                      [Blue \"ann@example.org\"]\n\
                      [Red \"bob@example.org\"]\n\
                      [Result \"*\"]\n";

/// The header `herald new` writes (its Nonce taken out): the Deadline
/// tag with its default of 14 days.
const NEW_HEADER: &str = "[Game \"castle-danger\"]\n\
                          [Blue \"ann@example.org\"]\n\
                          [Red \"bob@example.org\"]\n\
                          [Deadline \"14\"]\n\
                          [Protocol \"3\"]\n\
                          [Result \"*\"]\n";

/// The header of [`new_game`]'s record (its Nonce taken out, undated):
/// `[Protocol "2"]` binds each side's hash chain to its key (spec 3.1).
const NEW_GAME_HEADER: &str = "[Game \"castle-danger\"]\n\
                               [Blue \"ann@example.org\"]\n\
                               [Red \"bob@example.org\"]\n\
                               [Protocol \"3\"]\n\
                               [Result \"*\"]\n";

/// Blue wins on turn 3: +C (2 moves, 2 pieces against 2) and the Cannon
/// walks d1-d2-d3-c3-b3 (4); Red adds a free Builder and walks its King
/// into column b; Cb3*b9 flies six squares with Blue's 6 moves.
const BLUE_WINS: [&str; 3] = ["+C, Cd1-d2-d3-c3-b3", "+B, Bd9-d8, Kc9-b9", "Cb3*b9"];

/// `herald` with colour settings from the environment cleared, so that a
/// CI runner's NO_COLOR or CLICOLOR_FORCE cannot change what is tested.
fn herald() -> Command {
    let mut cmd = Command::cargo_bin("herald").unwrap();
    cmd.env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    cmd
}

fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

fn json_of(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            stdout_of(output),
            stderr_of(output)
        )
    })
}

const ESC: char = '\u{1b}';

/// A fresh Castle Danger record `game.pbem` in `dir`.
fn new_game(dir: &Path) -> PathBuf {
    let path = dir.join("game.pbem");
    herald()
        .args(["new", "castle-danger", "--side", BLUE, "--side", RED, "-o"])
        .arg(&path)
        .assert()
        .success();
    // Undated, as records made before the Deadline tag (spec section
    // 3.8): lines as they read without dates, forfeits claimed at once.
    common::undated(&path);
    path
}

/// Play `turns` one after another with `herald move` (no keys).
fn play(record: &Path, turns: &[&str]) {
    for turn in turns {
        herald()
            .arg("move")
            .arg(record)
            .arg(turn)
            .assert()
            .success();
    }
}

/// A record in `dir` with `turns` already played.
fn game_with(dir: &Path, turns: &[&str]) -> PathBuf {
    let path = new_game(dir);
    play(&path, turns);
    path
}

/// `herald move <record> <turn>`, asserted on by the caller.
/// `text` without its `[Nonce "..."]` line (every record `new` writes has
/// a fresh one).
fn without_nonce(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("[Nonce "))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn move_turn(record: &Path, turn: &str) -> assert_cmd::assert::Assert {
    herald().arg("move").arg(record).arg(turn).assert()
}

fn check_json(record: &Path) -> Value {
    let output = herald()
        .args(["check", "--format", "json"])
        .arg(record)
        .output()
        .unwrap();
    json_of(&output)
}

fn keygen(record: &Path, side: &str, key: &Path) {
    herald()
        .args(["keygen", "--side", side])
        .arg(record)
        .arg("-o")
        .arg(key)
        .assert()
        .success();
}

/// The `secret:` value of a key file.
fn secret_of(key: &Path) -> String {
    let text = fs::read_to_string(key).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("secret: "))
        .expect("a secret line")
        .trim()
        .to_owned()
}

// ---------------------------------------------------------------- new

#[test]
fn new_writes_the_header_and_nothing_else() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("game.pbem");
    herald()
        .args(["new", "castle-danger", "--side", BLUE, "--side", RED, "-o"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("Castle Danger"))
        .stdout(predicate::str::contains("game.pbem"));
    let written = fs::read_to_string(&path).unwrap();
    assert_eq!(without_nonce(&written), NEW_HEADER);

    let json = check_json(&path);
    assert_eq!(json["ok"], true);
    assert_eq!(json["turns"], 0);
    assert_eq!(json["to_move"], "Blue");
}

#[test]
fn new_without_output_prints_the_header() {
    let out = herald()
        .args(["new", "castle-danger", "--side", BLUE, "--side", RED])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        without_nonce(&String::from_utf8(out.stdout).unwrap()),
        NEW_HEADER
    );
}

/// Two records started alike differ in their nonce: a rematch shares no
/// game id, chain, key or reveal with the game before (spec section 3.2).
#[test]
fn new_writes_a_fresh_nonce_into_every_record() {
    let header = || {
        let out = herald()
            .args(["new", "castle-danger", "--side", BLUE, "--side", RED])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let (a, b) = (header(), header());
    let nonce = |h: &str| {
        h.lines()
            .find_map(|l| l.strip_prefix("[Nonce \""))
            .map(|v| v.trim_end_matches("\"]").to_owned())
            .expect("a Nonce tag")
    };
    assert_eq!(nonce(&a).len(), 32);
    assert_ne!(nonce(&a), nonce(&b));
    assert_eq!(without_nonce(&a), without_nonce(&b));
}

#[test]
fn new_keeps_blue_first_whatever_the_order_of_the_side_tags() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("game.pbem");
    herald()
        .args(["new", "castle-danger", "--side", RED, "--side", BLUE, "-o"])
        .arg(&path)
        .assert()
        .success();
    assert_eq!(check_json(&path)["to_move"], "Blue");
}

#[test]
fn new_refuses_to_overwrite_an_existing_file() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("game.pbem");
    fs::write(&path, "my notes, not a record\n").unwrap();
    herald()
        .args(["new", "castle-danger", "--side", BLUE, "--side", RED, "-o"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("exists already"));
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "my notes, not a record\n"
    );
}

#[test]
fn new_with_an_unknown_side_exits_2_naming_the_sides() {
    herald()
        .args([
            "new",
            "castle-danger",
            "--side",
            BLUE,
            "--side",
            "Green=c@x",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "`Green` is not a side of castle-danger",
        ))
        .stderr(predicate::str::contains("Blue, Red"));
}

#[test]
fn new_with_an_unknown_game_exits_2_naming_it() {
    herald()
        .args(["new", "chess", "--side", BLUE, "--side", RED])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("invalid value 'chess'"))
        .stderr(predicate::str::contains("battlegates"));
    // A misspelt game gets the one it is likely to be; the shells'
    // completions offer the same list.
    herald()
        .args(["new", "battlegate", "--side", BLUE, "--side", RED])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a similar value exists: 'battlegates'",
        ));
    herald()
        .args(["completions", "bash"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "castle-danger battle-of-the-dale breach-the-keep playground-battles battlegates",
        ));
}

#[test]
fn new_with_an_unknown_option_exits_2_naming_it() {
    herald()
        .args(["new", "castle-danger", "--side", BLUE, "--side", RED])
        .args(["--option", "WhiteKeep=3"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("no option `WhiteKeep`"));
}

#[test]
fn new_with_a_repeated_option_exits_2_instead_of_keeping_the_last() {
    herald()
        .args([
            "new",
            "breach-the-keep",
            "--side",
            "White=a@x",
            "--side",
            "Black=b@x",
        ])
        .args(["--option", "WhiteKeep=3", "--option", "whitekeep=5"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "--option WhiteKeep is given twice",
        ));
}

#[test]
fn new_with_a_missing_or_repeated_side_exits_2() {
    herald()
        .args(["new", "castle-danger", "--side", BLUE])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("needs 2 side tags"));
    herald()
        .args(["new", "castle-danger", "--side", BLUE, "--side", "Blue=x@y"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("given twice"));
}

// ---------------------------------------------------------------- a game by email

/// Bob (Red, committed) stops answering: Ann claims his forfeit with
/// `move --forfeit`, signed with her key (spec 3.8), and the record
/// checks as won by Blue, saying who claimed it. A bare `resign` without
/// Red's reveal is refused, by `move` and by `check`.
#[test]
fn a_forfeit_is_claimed_and_signed_by_another_player() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    let (blue_key, red_key) = (dir.path().join("blue.key"), dir.path().join("red.key"));
    keygen(&path, "Blue", &blue_key);
    keygen(&path, "Red", &red_key);
    let with_key = |turn: &[&str], key: &Path| {
        herald()
            .arg("move")
            .arg(&path)
            .args(turn)
            .arg("--key")
            .arg(key)
            .assert()
    };
    with_key(&["Kc1-b1"], &blue_key).success();
    move_turn(&path, "resign")
        .code(2)
        .stderr(predicate::str::contains(
            "Red has a Commit tag, so a resignation needs Red's reveal",
        ));
    with_key(&["--forfeit"], &red_key)
        .code(1)
        .stderr(predicate::str::contains("Red cannot claim its own forfeit"));
    let before = fs::read_to_string(&path).unwrap();
    with_key(&["--forfeit"], &blue_key).success();
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("\n2. Red: forfeit claimed by Blue\n    sig "),
        "{text}"
    );
    assert!(text.contains("[Result \"Blue\"]"), "{text}");
    let json = check_json(&path);
    assert_eq!(json["ok"], true, "{json}");
    assert_eq!(json["result"], "Blue");
    assert_eq!(
        json["forfeits"],
        serde_json::json!([{"turn": 2, "side": "Red", "claimed_by": "Blue", "line": "turn 2", "audit": false}])
    );
    herald()
        .arg("check")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Red forfeited (claimed by Blue on turn 2)",
        ));
    // A bare resign written in Red's place is refused.
    fs::write(
        &path,
        before.replace("[Result \"*\"]", "[Result \"Blue\"]") + "2. Red: resign\n",
    )
    .unwrap();
    let json = check_json(&path);
    assert_eq!(json["error"]["turn"], 2);
    assert!(json["error"]["message"]
        .as_str()
        .unwrap()
        .contains("every Red line carries a reveal, a resignation too"));
}

/// Ann (Blue) and Bob (Red) each keep their own copy and their own key and
/// mail the record back and forth; every copy that arrives checks.
#[test]
fn two_players_play_by_email_with_keys_and_every_copy_checks() {
    let ann = TempDir::new().unwrap();
    let bob = TempDir::new().unwrap();
    let mail = |from: &Path, to: &Path| {
        fs::copy(from.join("game.pbem"), to.join("game.pbem")).unwrap();
    };
    let checks_with = |dir: &Path, turns: u64, to_move: &str| {
        let json = check_json(&dir.join("game.pbem"));
        assert_eq!(json["ok"], true, "{json}");
        assert_eq!(json["turns"], turns);
        assert_eq!(json["to_move"], to_move);
    };

    // Ann starts the game and commits; Bob commits on the copy she sends.
    new_game(ann.path());
    keygen(
        &ann.path().join("game.pbem"),
        "Blue",
        &ann.path().join("blue.key"),
    );
    mail(ann.path(), bob.path());
    keygen(
        &bob.path().join("game.pbem"),
        "Red",
        &bob.path().join("red.key"),
    );
    checks_with(bob.path(), 0, "Blue");
    mail(bob.path(), ann.path());

    let turns = [
        ("+B, Bd1-d2, Bd2+d3, Kc1-b1", "Blue"),
        ("+C, Cd9-d8, Cd8*d3", "Red"),
        ("+C, Cd1-c1, Bd2xe2, Cc1*c2", "Blue"),
        ("Kc9-b9, Cd8-d7", "Red"),
    ];
    for (n, (turn, side)) in turns.iter().enumerate() {
        let (me, other, key) = if *side == "Blue" {
            (ann.path(), bob.path(), "blue.key")
        } else {
            (bob.path(), ann.path(), "red.key")
        };
        herald()
            .arg("move")
            .arg(me.join("game.pbem"))
            .arg(turn)
            .arg("--key")
            .arg(me.join(key))
            .args(["--expect-turn", &(n + 1).to_string()])
            .assert()
            .success()
            .stdout(predicate::str::contains(format!(
                "{}. {side}: {turn}",
                n + 1
            )))
            .stdout(predicate::str::contains("reveal "));
        mail(me, other);
        let next = if *side == "Blue" { "Red" } else { "Blue" };
        checks_with(other, n as u64 + 1, next);
    }

    let record = fs::read_to_string(ann.path().join("game.pbem")).unwrap();
    assert!(record.contains("[BlueCommit \""));
    assert!(record.contains("[RedCommit \""));
    assert_eq!(record.matches("\n    reveal ").count(), 4, "{record}");
    for line in record.lines() {
        assert!(line.len() < 82, "a line too long for mail: {line}");
    }
    // Both sides sign (keygen added their Key tags), so check reports the
    // record digest: the one Red's key file kept after writing turn 4, the
    // last line, and the same in both copies.
    let sent = fs::read_to_string(bob.path().join("red.key")).unwrap();
    let kept = sent
        .lines()
        .find_map(|l| l.strip_prefix("sent: 4 "))
        .expect("Red's key file keeps turn 4")
        .trim()
        .to_owned();
    assert_eq!(check_json(&ann.path().join("game.pbem"))["digest"], kept);
    assert_eq!(check_json(&bob.path().join("game.pbem"))["digest"], kept);
    herald()
        .arg("check")
        .arg(ann.path().join("game.pbem"))
        .assert()
        .success()
        .stdout(predicate::str::contains("OK"))
        .stdout(predicate::str::contains("4 turns"))
        .stdout(predicate::str::contains(format!("\nDigest: {kept}\n")));
}

// ---------------------------------------------------------------- move

#[test]
fn illegal_move_exits_1_says_why_and_leaves_the_file_unchanged() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1", "Kc9-b9"]);
    let before = fs::read(&path).unwrap();

    let output = herald()
        .arg("move")
        .arg(&path)
        .arg("Kb1-a1, We1-e2")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let err = stderr_of(&output);
    assert!(err.contains("turn 3 (Blue)"), "{err}");
    assert!(err.contains("We1-e2: e2 holds a Wall"), "{err}");
    // The offending action is underlined, exactly under it.
    let lines: Vec<&str> = err.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("3. Blue: Kb1-a1, We1-e2"))
        .unwrap_or_else(|| panic!("the turn is quoted: {err}"));
    let column = lines[at].find("We1-e2").unwrap();
    let marks = lines[at + 1];
    assert_eq!(marks.find('^'), Some(column), "{err}");
    assert_eq!(marks.matches('^').count(), "We1-e2".len(), "{err}");
    assert!(!err.contains(ESC), "no colour into a pipe: {err:?}");

    assert_eq!(fs::read(&path).unwrap(), before, "the record was touched");
}

#[test]
fn illegal_move_in_json_names_kind_turn_side_and_action() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1", "Kc9-b9"]);
    let before = fs::read(&path).unwrap();
    let output = herald()
        .args(["move", "--format", "json"])
        .arg(&path)
        .arg("Kb1-a1-a2-a3-a4, Kb1-b2")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let json = json_of(&output);
    assert_eq!(json["ok"], false);
    assert_eq!(json["error"]["kind"], "illegal");
    assert_eq!(json["error"]["turn"], 3);
    assert_eq!(json["error"]["side"], "Blue");
    // The King went to a4 (4 moves): b1 is empty now.
    assert_eq!(json["error"]["action"], "Kb1-b2");
    assert!(json["error"]["message"]
        .as_str()
        .unwrap()
        .contains("no Blue King on b1"));
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn move_appends_the_canonical_line_and_reports_who_is_next() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    move_turn(&path, "+b d1, b d1 - d2, BD2+D3, c1-b1")
        .success()
        .stdout(predicate::str::contains(
            "1. Blue: +B, Bd1-d2, Bd2+d3, Kc1-b1",
        ))
        .stdout(predicate::str::contains("Red to move: 6 moves"));
    assert_eq!(
        without_nonce(&fs::read_to_string(&path).unwrap()),
        format!("{NEW_GAME_HEADER}\n1. Blue: +B, Bd1-d2, Bd2+d3, Kc1-b1\n")
    );
}

#[test]
fn move_json_reports_the_written_line() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    let output = herald()
        .args(["move", "--format", "json"])
        .arg(&path)
        .arg("Kc1-b1")
        .output()
        .unwrap();
    assert!(output.status.success());
    let json = json_of(&output);
    assert_eq!(json["schema"], 1);
    assert_eq!(json["ok"], true);
    assert_eq!(json["turn"], 1);
    assert_eq!(json["side"], "Blue");
    assert_eq!(json["line"], "1. Blue: Kc1-b1");
    assert_eq!(json["result"], "*");
    assert_eq!(json["to_move"], "Red");
    assert_eq!(json["written"], true);
}

#[test]
fn move_dry_run_prints_the_line_and_writes_nothing() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1"]);
    let before = fs::read(&path).unwrap();
    herald()
        .arg("move")
        .arg(&path)
        .arg("Kc9-b9")
        .arg("--dry-run")
        .assert()
        .success()
        .stdout(predicate::str::contains("2. Red: Kc9-b9"))
        .stdout(predicate::str::contains("nothing written"));
    assert_eq!(fs::read(&path).unwrap(), before);
    let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file is left behind");

    let output = herald()
        .args(["move", "--dry-run", "--format", "json"])
        .arg(&path)
        .arg("Kc9-b9")
        .output()
        .unwrap();
    assert_eq!(json_of(&output)["written"], false);
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn move_expect_turn_refuses_a_stale_record_and_accepts_the_right_number() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1", "Kc9-b9"]);
    let before = fs::read(&path).unwrap();
    // The player believes the game is at turn 2 (an old copy): refused.
    herald()
        .arg("move")
        .arg(&path)
        .arg("Kb1-a1")
        .args(["--expect-turn", "2"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("at turn 3, not 2"));
    assert_eq!(fs::read(&path).unwrap(), before);
    herald()
        .arg("move")
        .arg(&path)
        .arg("Kb1-a1")
        .args(["--expect-turn", "3"])
        .assert()
        .success();
    assert!(fs::read_to_string(&path)
        .unwrap()
        .ends_with("\n3. Blue: Kb1-a1\n"));
}

#[test]
fn move_refuses_text_after_a_blank_line_instead_of_dropping_it() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    let before = fs::read(&path).unwrap();
    herald()
        .arg("move")
        .arg(&path)
        .arg("-")
        .write_stdin("Kc1-b1\n\nKb1-a1\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("text after the turn"));
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn move_accepts_the_turn_as_it_reads_in_the_record_when_number_and_side_match() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1"]);
    move_turn(&path, "2. Red: Kc9-b9").success();
    move_turn(&path, "blue: Kb1-a1").success();
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.ends_with("\n2. Red: Kc9-b9\n3. Blue: Kb1-a1\n"),
        "{text}"
    );
}

#[test]
fn move_written_for_another_turn_or_side_is_refused_as_a_stale_record() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1"]);
    let before = fs::read(&path).unwrap();
    for (text, says) in [
        (
            "3. Red: Kc9-b9",
            "written as `3. Red:`, but the record is at turn 2, Red's",
        ),
        (
            "Blue: Kb1-a1",
            "written as `Blue:`, but the record is at turn 2, Red's",
        ),
    ] {
        move_turn(&path, text)
            .code(1)
            .stderr(predicate::str::contains(says));
    }
    move_turn(&path, "2. Green: Kc9-b9")
        .code(2)
        .stderr(predicate::str::contains(
            "`Green` is not a side of castle-danger",
        ));
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn move_refuses_to_write_a_turn_beyond_the_most_a_record_may_hold() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("long.pbem");
    let mut text = String::from(HEADER);
    text.push('\n');
    for n in 1..=50_000 {
        let side = if n % 2 == 1 { "Blue" } else { "Red" };
        text.push_str(&format!("{n}. {side}: pass\n"));
    }
    fs::write(&path, &text).unwrap();
    herald().arg("check").arg(&path).assert().success();
    move_turn(&path, "pass")
        .code(1)
        .stderr(predicate::str::contains(
            "the record already holds 50000 turns",
        ));
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn move_reads_the_turn_from_standard_input() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    herald()
        .arg("move")
        .arg(&path)
        .arg("-")
        .write_stdin("Kc1-b1,\nWe1-f1\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("1. Blue: Kc1-b1, We1-f1"));
    // With no turn argument at all, standard input too.
    herald()
        .arg("move")
        .arg(&path)
        .write_stdin("Kc9-b9\n")
        .assert()
        .success();
    assert!(fs::read_to_string(&path)
        .unwrap()
        .ends_with("\n1. Blue: Kc1-b1, We1-f1\n2. Red: Kc9-b9\n"));
}

#[test]
fn move_refuses_standard_input_as_the_record() {
    herald()
        .args(["move", "-", "Kc1-b1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("name the file"));
}

#[test]
fn move_without_key_when_the_side_has_a_commit_tag_exits_2() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    keygen(&path, "Blue", &dir.path().join("blue.key"));
    let before = fs::read(&path).unwrap();
    move_turn(&path, "Kc1-b1")
        .code(2)
        .stderr(predicate::str::contains("--key"));
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn move_with_the_other_sides_key_exits_1() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    keygen(&path, "Blue", &dir.path().join("blue.key"));
    keygen(&path, "Red", &dir.path().join("red.key"));
    let before = fs::read(&path).unwrap();
    herald()
        .arg("move")
        .arg(&path)
        .arg("Kc1-b1")
        .arg("--key")
        .arg(dir.path().join("red.key"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is Red's key in this game"))
        .stderr(predicate::str::contains("Blue's turn"));
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn move_with_a_key_whose_tags_were_never_added_is_refused_before_any_line_naming_keygen() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    let key = dir.path().join("blue.key");
    // --print: the tag is never added to the record.
    herald()
        .args(["keygen", "--side", "Blue", "--print"])
        .arg(&path)
        .arg("-o")
        .arg(&key)
        .assert()
        .success();
    let before = fs::read(&path).unwrap();
    herald()
        .arg("move")
        .arg(&path)
        .arg("Kc1-b1")
        .arg("--key")
        .arg(&key)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "this copy holds no BlueCommit or BlueKey tag, yet",
        ))
        .stderr(predicate::str::contains(
            "or it is a copy from before Blue's key was added (then add it again, the same \
             key: herald keygen --side Blue RECORD --key",
        ))
        .stderr(predicate::str::contains("drop --key").not());
    assert_eq!(fs::read(&path).unwrap(), before);
    // The command it names works: the same key's tags join the record
    // (and, Red's key added too, the turn is written signed).
    herald()
        .args(["keygen", "--side", "Blue"])
        .arg(&path)
        .arg("--key")
        .arg(&key)
        .assert()
        .success();
    keygen(&path, "Red", &dir.path().join("red.key"));
    herald()
        .arg("move")
        .arg(&path)
        .arg("Kc1-b1")
        .arg("--key")
        .arg(&key)
        .assert()
        .success();
}

/// Two games with the same header in two directories, each with Blue's
/// key (`blue.key`) beside it: the first game's directory, the other's,
/// and the first game's record.
fn a_game_and_a_rematch_with_blue_keys() -> (TempDir, TempDir, PathBuf) {
    let dir = TempDir::new().unwrap();
    let other = TempDir::new().unwrap();
    let path = new_game(dir.path());
    keygen(&path, "Blue", &dir.path().join("blue.key"));
    let elsewhere = new_game(other.path());
    keygen(&elsewhere, "Blue", &other.path().join("blue.key"));
    (dir, other, path)
}

#[test]
fn move_with_a_key_of_another_game_exits_2() {
    let (_dir, other, path) = a_game_and_a_rematch_with_blue_keys();
    let before = fs::read(&path).unwrap();
    herald()
        .arg("move")
        .arg(&path)
        .arg("Kc1-b1")
        .arg("--key")
        .arg(other.path().join("blue.key"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("made for another game"));
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn a_winning_move_writes_the_result_tag_and_ends_the_game() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &BLUE_WINS[..2]);
    move_turn(&path, BLUE_WINS[2])
        .success()
        .stdout(predicate::str::contains("Blue won"));
    let record = fs::read_to_string(&path).unwrap();
    assert!(record.contains("\n[Result \"Blue\"]\n"), "{record}");
    assert!(!record.contains("[Result \"*\"]"), "{record}");

    let json = check_json(&path);
    assert_eq!(json["ok"], true);
    assert_eq!(json["result"], "Blue");
    assert_eq!(json["to_move"], Value::Null);
    assert_eq!(json["phase"], "over");
    assert_eq!(json["due"], serde_json::json!([]));

    // Nothing may follow.
    let before = fs::read(&path).unwrap();
    move_turn(&path, "pass")
        .code(1)
        .stderr(predicate::str::contains("the game is over"));
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn a_resignation_writes_the_winner_into_the_result_tag() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1"]);
    move_turn(&path, "Kc9-b9, resign")
        .success()
        .stdout(predicate::str::contains("Blue"));
    assert!(fs::read_to_string(&path)
        .unwrap()
        .contains("[Result \"Blue\"]"));
    assert_eq!(check_json(&path)["result"], "Blue");
}

#[test]
fn move_into_a_quoted_crlf_email_keeps_its_quoting_and_line_ends() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &BLUE_WINS[..2]);
    let record = fs::read_to_string(&path).unwrap();
    let email = format!(
        "Ann wrote:\r\n{}\r\n-- \r\nAnn\r\n",
        record
            .lines()
            .map(|l| format!("> {l}").trim_end().to_owned())
            .collect::<Vec<_>>()
            .join("\r\n")
    );
    fs::write(&path, &email).unwrap();
    move_turn(&path, BLUE_WINS[2]).success();
    let after = fs::read_to_string(&path).unwrap();
    let want = email
        .replace("> [Result \"*\"]", "> [Result \"Blue\"]")
        .replace(
            "> 2. Red: +B, Bd9-d8, Kc9-b9\r\n",
            "> 2. Red: +B, Bd9-d8, Kc9-b9\r\n> 3. Blue: Cb3*b9\r\n",
        );
    assert_eq!(after, want);
    assert_eq!(check_json(&path)["result"], "Blue");
}

// ---------------------------------------------------------------- check

#[test]
fn check_reads_a_record_pasted_in_an_email_from_standard_input() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["+B, Bd1-d2, Bd2+d3, Kc1-b1", "Kc9-b9"]);
    let record = fs::read_to_string(&path).unwrap();
    let quoted: String = record.lines().map(|l| format!("> {l}  \r\n")).collect();
    let email = format!(
        "From: bob@example.org\r\nSubject: Re: game\r\n\r\nYour move, Ann.\r\n\r\n\
         On Monday Ann wrote:\r\n{quoted}\r\nBob\r\n-- \r\nsent from my phone\r\n"
    );
    herald()
        .args(["check", "-"])
        .write_stdin(email.clone())
        .assert()
        .success()
        .stdout(predicate::str::contains("<stdin>: OK"))
        .stdout(predicate::str::contains("2 turns"))
        .stdout(predicate::str::contains("Blue to move"));
    let output = herald()
        .args(["check", "--format", "json", "-"])
        .write_stdin(email)
        .output()
        .unwrap();
    let json = json_of(&output);
    assert_eq!(json["turns"], 2);
    assert_eq!(json["to_move"], "Blue");
}

#[test]
fn check_json_on_success_has_ok_game_turns_result_and_to_move() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1", "Kc9-b9", "We1-f1"]);
    let output = herald()
        .args(["check", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(output.status.success());
    let json = json_of(&output);
    assert_eq!(json["schema"], 1);
    assert_eq!(json["ok"], true);
    assert_eq!(json["game"], "castle-danger");
    assert_eq!(json["turns"], 3);
    assert_eq!(json["result"], "*");
    assert_eq!(json["to_move"], "Red");
    assert!(json["summary"].as_str().unwrap().contains("Red to move"));
    assert_eq!(json["pending"], serde_json::json!([]));
    // A game without hidden values is in play until it ends, with no
    // audit to wait for.
    assert_eq!(json["phase"], "play");
    assert_eq!(json["provisional"], Value::Null);
    assert_eq!(json["failed_audits"], serde_json::json!([]));
    assert_eq!(json["due"], serde_json::json!(["Red"]));
    assert_eq!(json["openings_due"], serde_json::json!([]));
    // No side signs (no Key tag), so there is no record digest to report.
    assert_eq!(json["digest"], Value::Null);
}

#[test]
fn check_of_a_record_where_no_side_signs_prints_no_digest() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1", "Kc9-b9"]);
    let output = herald().arg("check").arg(&path).output().unwrap();
    assert!(output.status.success());
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(
        out.contains(": OK: Castle Danger, 2 turns, result *"),
        "{out}"
    );
    assert!(!out.contains("Digest"), "{out}");
}

#[test]
fn check_json_on_failure_has_kind_turn_side_line_column_and_message() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1", "Kc9-b9"]);
    // Line 8; the Wizard walks 4 squares, then the King's 3 are one too
    // many (6 moves: 1 Wizard). The King's walk starts at column 27.
    let mut text = fs::read_to_string(&path).unwrap();
    text.push_str("3. Blue: We1-f1-f2-f3-f4, Kb1-b2-b3-b4\n");
    fs::write(&path, &text).unwrap();
    let output = herald()
        .args(["check", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let json = json_of(&output);
    assert_eq!(json["schema"], 1);
    assert_eq!(json["ok"], false);
    let error = &json["error"];
    assert_eq!(error["kind"], "illegal");
    assert_eq!(error["turn"], 3);
    assert_eq!(
        error["setup_line"],
        Value::Null,
        "a turn line, not a set-up line"
    );
    assert_eq!(error["side"], "Blue");
    assert_eq!(error["action"], "Kb1-b2-b3-b4");
    assert_eq!(error["line"], 10);
    assert_eq!(error["column"], 27);
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("only 2 moves left, this move costs 3"),
        "{message}"
    );
}

#[test]
fn check_text_failure_names_the_file_line_and_column() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1"]);
    let mut text = fs::read_to_string(&path).unwrap();
    text.push_str("2. Red: Kc9-c8\n");
    fs::write(&path, &text).unwrap();
    herald()
        .arg("check")
        .arg(&path)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("error[illegal]: turn 2 (Red)"))
        .stderr(predicate::str::contains("Kc9-c8: c8 holds a Wall"))
        .stderr(predicate::str::contains("game.pbem:9:9"));
}

#[test]
fn a_missing_file_exits_2_for_every_reader() {
    let dir = TempDir::new().unwrap();
    let missing = dir.path().join("nothere.pbem");
    for command in ["check", "show", "replay", "annotate", "legal", "fate"] {
        herald()
            .arg(command)
            .arg(&missing)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("cannot read"))
            .stderr(predicate::str::contains("nothere.pbem"));
    }
    herald()
        .arg("move")
        .arg(&missing)
        .arg("Kc1-b1")
        .assert()
        .code(2);
    assert!(!missing.exists(), "move must not create the record");
}

#[test]
fn a_missing_file_with_format_json_still_prints_a_json_error() {
    let dir = TempDir::new().unwrap();
    let missing = dir.path().join("nothere.pbem");
    for command in ["check", "show", "replay", "annotate", "legal", "fate"] {
        let output = herald()
            .arg(command)
            .arg(&missing)
            .args(["--format", "json"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{command}");
        let json = json_of(&output);
        assert_eq!(json["schema"], 1, "{command}");
        assert_eq!(json["ok"], false, "{command}");
        assert_eq!(json["error"]["kind"], "usage", "{command}");
        assert_eq!(json["error"]["turn"], Value::Null, "{command}");
        let message = json["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("cannot read") && message.contains("nothere.pbem"),
            "{command}: {message}"
        );
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("cannot read"),
            "{command}: the message goes to standard error too"
        );
    }
}

#[test]
fn every_reader_exits_1_on_an_illegal_record() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("bad.pbem");
    fs::write(
        &path,
        format!("{HEADER}\n1. Blue: Kc1-b1\n2. Red: Kc9-c8\n"),
    )
    .unwrap();
    for command in ["check", "show", "replay", "annotate", "legal", "fate"] {
        herald()
            .arg(command)
            .arg(&path)
            .assert()
            .code(1)
            .stderr(predicate::str::contains("c8 holds a Wall"));
        let output = herald()
            .args([command, "--format", "json"])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{command}");
        let json = json_of(&output);
        assert_eq!(json["ok"], false, "{command}");
        assert_eq!(json["error"]["turn"], 2, "{command}");
        assert_eq!(json["error"]["side"], "Red", "{command}");
    }
}

#[test]
fn empty_binary_and_non_utf8_files_exit_1_with_a_clear_message() {
    let dir = TempDir::new().unwrap();
    let cases: [(&str, &[u8], &str); 4] = [
        ("empty.pbem", b"", "the input is empty"),
        ("blank.pbem", b"  \n\r\n\t\n", "the input is empty"),
        (
            "binary.pbem",
            b"[Game \"castle-danger\"]\n\0\0\0\x01\x02",
            "NUL byte",
        ),
        (
            "latin1.pbem",
            b"[Game \"castle-danger\"]\n[Blue \"Ren\xe9\"]\n",
            "not UTF-8",
        ),
    ];
    for (name, bytes, message) in cases {
        let path = dir.path().join(name);
        fs::write(&path, bytes).unwrap();
        let output = herald().arg("check").arg(&path).output().unwrap();
        let err = stderr_of(&output);
        assert_eq!(output.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(message), "{name}: {err}");
        assert!(err.contains("error[parse]"), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");

        let output = herald()
            .args(["check", "--format", "json"])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{name}");
        assert_eq!(json_of(&output)["error"]["kind"], "parse", "{name}");
    }
}

#[test]
fn an_error_on_a_long_line_shows_a_window_of_it_and_the_true_column() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("commas.pbem");
    // 60,000 commas (a line may be 64 KiB): refused at the 201st
    // action, and the error does not echo the whole line.
    fs::write(
        &path,
        format!("{HEADER}\n1. Blue: {}\n", ",".repeat(60_000)),
    )
    .unwrap();
    let output = herald().arg("check").arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = stderr_of(&output);
    assert!(
        stderr.contains("a turn holds at most 200 actions"),
        "{stderr}"
    );
    // "1. Blue: " is 9 characters; the 200th comma ends the 200th action.
    assert!(stderr.contains("commas.pbem:6:209"), "{stderr}");
    assert!(stderr.len() < 1000, "{} bytes of error", stderr.len());
    assert!(stderr.contains("...,,,"), "{stderr}");
}

#[test]
fn a_100_mb_file_is_refused_at_once_with_the_size_message() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("huge.pbem");
    {
        use std::io::Write;
        let mut file = std::io::BufWriter::new(fs::File::create(&path).unwrap());
        file.write_all(HEADER.as_bytes()).unwrap();
        file.write_all(b"\n").unwrap();
        let block = "1. Blue: pass {a long comment that goes on and on}\n".repeat(1 << 14);
        while file.get_ref().metadata().unwrap().len() < 100 << 20 {
            file.write_all(block.as_bytes()).unwrap();
        }
        file.flush().unwrap();
    }
    assert!(fs::metadata(&path).unwrap().len() >= 100 << 20);

    herald()
        .arg("check")
        .arg(&path)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("larger than 8 MiB"));
    // The same through a pipe.
    let output = herald()
        .args(["check", "--format", "json", "-"])
        .pipe_stdin(&path)
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(json_of(&output)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("8 MiB"));
}

// ---------------------------------------------------------------- show, replay

#[test]
fn show_draws_the_last_position_by_default() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["+B, Bd1-d2, Bd2+d3, Kc1-b1", "Kc9-b9"]);
    let output = herald().arg("show").arg(&path).output().unwrap();
    assert!(output.status.success());
    let text = stdout_of(&output);
    assert!(text.contains("after turn 2"), "{text}");
    // Row 3: the new Wall on d3; row 1: King b1, empty Portal, Wizard e1.
    assert!(
        text.contains("  3  .   .   .   #   .   .   .   3"),
        "{text}"
    );
    assert!(
        text.contains("  1  .   K   .  [. ] W   .   .   1"),
        "{text}"
    );
    assert!(
        text.contains("  9  .   k   .  [. ] w   .   .   9"),
        "{text}"
    );
    assert!(text.contains("Blue to move"), "{text}");
}

#[test]
fn show_with_a_key_draws_what_that_player_knows_and_refuses_another_games_key() {
    let (dir, other, path) = a_game_and_a_rematch_with_blue_keys();
    let plain = herald().arg("show").arg(&path).output().unwrap();
    // Castle Danger hides nothing: Blue sees what everyone sees.
    let seen = herald()
        .arg("show")
        .arg(&path)
        .arg("--key")
        .arg(dir.path().join("blue.key"))
        .output()
        .unwrap();
    assert!(seen.status.success(), "{}", stderr_of(&seen));
    // The same diagram, then the key holder's look at its turn.
    let (seen, plain) = (stdout_of(&seen), stdout_of(&plain));
    let look = seen.strip_prefix(plain.as_str()).expect(&seen);
    // Only Blue has a key (protocol 3): Red's is due before turn 1.
    assert!(
        look.starts_with("Due: Red's key is due before turn 1"),
        "{look}"
    );
    herald()
        .arg("show")
        .arg(&path)
        .arg("--key")
        .arg(other.path().join("blue.key"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "was made for another game (or the header changed since)",
        ));
}

#[test]
fn show_turn_0_draws_the_start() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1"]);
    let output = herald()
        .arg("show")
        .arg(&path)
        .args(["--turn", "0"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = stdout_of(&output);
    assert!(text.contains("after turn 0"), "{text}");
    assert!(
        text.contains("  9  .   .   k  [. ] w   .   .   9"),
        "{text}"
    );
    assert!(
        text.contains("  8  .   .   #   .   #   .   .   8"),
        "{text}"
    );
    assert!(text.contains("  5 ~~~~"), "{text}");
    assert!(
        text.contains("  2  .   .   #   .   #   .   .   2"),
        "{text}"
    );
    assert!(
        text.contains("  1  .   .   K  [. ] W   .   .   1"),
        "{text}"
    );
}

#[test]
fn show_a_turn_beyond_the_end_exits_2() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1", "Kc9-b9"]);
    herald()
        .arg("show")
        .arg(&path)
        .args(["--turn", "3"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("no turn 3"));
}

#[test]
fn show_unicode_draws_a_box_grid() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1"]);
    let output = herald()
        .args(["show", "--unicode"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = stdout_of(&output);
    for piece in ["┌", "┘", "███", "░", "≈", "║"] {
        assert!(text.contains(piece), "no {piece} in\n{text}");
    }
}

#[test]
fn show_json_has_the_position_and_a_plain_diagram() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1"]);
    // Even with colour forced on, JSON carries no escapes.
    let output = herald()
        .args(["--color", "always", "show", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(output.status.success());
    let raw = stdout_of(&output);
    assert!(!raw.contains(ESC) && !raw.contains("\\u001b"), "{raw}");
    let json = json_of(&output);
    assert_eq!(json["schema"], 1);
    assert_eq!(json["game"], "castle-danger");
    assert_eq!(json["turn"], 1);
    assert_eq!(json["result"], "*");
    assert_eq!(json["to_move"], "Red");
    // The start position with Blue's King moved from c1 to b1, Red to move.
    assert_eq!(json["position"], "2k1w2/2#1#2/7/7/7/7/7/2#1#2/1K2W2 Red *");
    let diagram = json["diagram"].as_str().unwrap();
    assert!(
        diagram.contains("  1  .   K   .  [. ] W   .   .   1"),
        "{diagram}"
    );
    assert!(!diagram.contains(ESC));
}

#[test]
fn replay_prints_every_position_under_its_turn() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &BLUE_WINS);
    let output = herald().arg("replay").arg(&path).output().unwrap();
    assert!(output.status.success());
    let text = stdout_of(&output);
    assert_eq!(
        text.matches("     a   b   c   d   e   f   g\n").count(),
        2 * 4
    );
    assert!(text.contains("== Start"), "{text}");
    for (n, (turn, side)) in BLUE_WINS.iter().zip(["Blue", "Red", "Blue"]).enumerate() {
        assert!(
            text.contains(&format!("== {}. {side}: {turn}", n + 1)),
            "{text}"
        );
    }
    assert!(text.contains("Blue won"), "{text}");

    let output = herald()
        .args(["replay", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    let json = json_of(&output);
    let positions = json["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 4);
    for (n, position) in positions.iter().enumerate() {
        assert_eq!(position["turn"], n as u64);
        assert!(!position["diagram"].as_str().unwrap().is_empty());
    }
    assert_eq!(positions[3]["actions"], serde_json::json!(["Cb3*b9"]));
    assert_eq!(json["result"], "Blue");
}

// ---------------------------------------------------------------- annotate

#[test]
fn annotate_prints_a_record_that_checks_with_a_comment_on_every_turn() {
    let dir = TempDir::new().unwrap();
    let path = game_with(
        dir.path(),
        &[
            "+B, Bd1-d2, Bd2+d3, Kc1-b1, Bd2xc2",
            "+C, Cd9-d8, Cd8*d3",
            "pass",
        ],
    );
    let output = herald().arg("annotate").arg(&path).output().unwrap();
    assert!(output.status.success());
    let text = stdout_of(&output);
    assert_eq!(text.matches("\n    {").count(), 3, "{text}");
    assert!(text.contains("{6 of 6 moves; added Builder d1; built Wall d3; removed Wall c2}"));
    assert!(text.contains("{6 of 6 moves; added Cannon d9; shot down Wall d3; Fire on d3}"));
    assert!(text.contains("{0 of 6 moves}"));

    let annotated = dir.path().join("annotated.pbem");
    fs::write(&annotated, &text).unwrap();
    let json = check_json(&annotated);
    assert_eq!(json["ok"], true, "{json}");
    assert_eq!(json["turns"], 3);

    // -o writes the same text to a new file.
    let written = dir.path().join("written.pbem");
    herald()
        .arg("annotate")
        .arg(&path)
        .arg("-o")
        .arg(&written)
        .assert()
        .success();
    assert_eq!(fs::read_to_string(&written).unwrap(), text);
}

#[test]
fn annotate_refuses_to_write_over_its_input() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1"]);
    let before = fs::read(&path).unwrap();
    // The same file under another spelling too.
    let other_spelling = dir.path().join(".").join("game.pbem");
    for target in [&path, &other_spelling] {
        herald()
            .arg("annotate")
            .arg(&path)
            .arg("-o")
            .arg(target)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("never rewrites its input"));
    }
    assert_eq!(fs::read(&path).unwrap(), before);
}

// ---------------------------------------------------------------- legal, fate

#[test]
fn legal_lists_every_action_with_its_cost() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    let output = herald().arg("legal").arg(&path).output().unwrap();
    assert!(output.status.success());
    let text = stdout_of(&output);
    // 3 adds, 20 King moves, 20 Wizard moves (6 moves, 2 pieces each).
    assert!(text.contains("Turn 1, Blue: 43 legal actions"), "{text}");
    for (action, cost) in [("+W", 2), ("Kc1-b1", 1), ("Kc1-f2", 6), ("We1-b2", 6)] {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(action))
            .unwrap_or_else(|| panic!("{action} missing:\n{text}"));
        assert!(line.ends_with(&format!("cost {cost}")), "{line}");
    }
    // c2 is a Wall, e1 holds the Wizard: no King move there.
    assert!(!text.contains("Kc1-c2"), "{text}");
    assert!(!text.contains("Kc1-e1 "), "{text}");
}

#[test]
fn legal_json_lists_actions_and_costs() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["+C, Cd1-d2"]);
    let output = herald()
        .args(["legal", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(output.status.success());
    let json = json_of(&output);
    assert_eq!(json["schema"], 1);
    assert_eq!(json["game"], "castle-danger");
    assert_eq!(json["turn"], 2);
    assert_eq!(json["to_move"], "Red");
    let actions = json["actions"].as_array().unwrap();
    let cost = |a: &str| {
        actions
            .iter()
            .find(|x| x["action"] == a)
            .map(|x| x["cost"].clone())
    };
    // Red has 2 movable pieces against Blue's 3: adding is free.
    assert_eq!(cost("+C"), Some(Value::from(0)));
    assert_eq!(cost("Kc9-b9"), Some(Value::from(1)));
    assert_eq!(cost("Kc9-c8"), None, "c8 is a Wall");
    assert!(actions.iter().all(|a| a["cost"].is_u64()));
}

#[test]
fn legal_after_the_end_lists_nothing_and_says_why() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &BLUE_WINS);
    let output = herald()
        .args(["legal", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    let json = json_of(&output);
    assert_eq!(json["actions"], serde_json::json!([]));
    assert_eq!(json["to_move"], Value::Null);
    assert!(json["note"].as_str().unwrap().contains("over"));
}

/// The record of `fixtures/<game>/<name>.pbem` without its last `drop`
/// turns, written to `dir` as game.pbem.
fn fixture_copy(dir: &Path, game: &str, name: &str, drop: usize) -> PathBuf {
    let text = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(game)
            .join(format!("{name}.pbem")),
    )
    .unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.truncate(lines.len() - drop);
    let path = dir.join("game.pbem");
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// Turn 21 of that fixture: Human's one action would be a rally, which
/// nothing could settle in a game without commitments.
#[test]
fn legal_and_move_agree_that_a_rally_nobody_can_settle_leaves_only_a_pass() {
    let dir = TempDir::new().unwrap();
    let name = "game-4p-only-a-rally-so-the-turn-passes-without-commitments";
    let path = fixture_copy(dir.path(), "battle-of-the-dale", name, 1);
    let output = herald().arg("legal").arg(&path).output().unwrap();
    assert!(output.status.success());
    assert_eq!(
        stdout_of(&output),
        "Turn 21, Human: 0 legal actions\n\
         Note: no action is possible: the turn passes (write `pass`)\n"
    );
    move_turn(&path, "rally")
        .failure()
        .code(1)
        .stderr(predicate::str::contains(
            "this game has no commitments: rally needs them",
        ));
    move_turn(&path, "pass").success();
    let json = check_json(&path);
    assert_eq!(
        (json["turns"].clone(), json["to_move"].clone()),
        (21.into(), "Elf".into())
    );
}

/// A side's hash chain has 10,000 links (spec 3.1): its 10,001st line
/// cannot be written, and `move` says so instead of failing some other way.
#[test]
fn move_refuses_cleanly_once_a_sides_hash_chain_is_used_up() {
    use herald::fairness::{chain_id, CHAIN_LENGTH};
    use herald::games::castle_danger::CastleDanger;
    let dir = TempDir::new().unwrap();
    let mut options = herald::selfplay::Options::new::<CastleDanger>(5, 2);
    options.max_turns = 2 * CHAIN_LENGTH + 10;
    options.stop_percent = 100;
    let record = herald::selfplay::record::<CastleDanger>(&options).unwrap();
    let path = dir.path().join("game.pbem");
    fs::write(&path, &record).unwrap();
    let chain = chain_id([
        ("Game", "castle-danger"),
        ("Blue", "blue@example.org"),
        ("Red", "red@example.org"),
    ]);
    let secret = herald::selfplay::secret(5, herald::game::Side(0));
    let wallet = herald::wallet::Wallet::from_secret("castle-danger", "Blue", chain, secret);
    let key = dir.path().join("blue.key");
    fs::write(&key, wallet.to_text()).unwrap();
    let json = check_json(&path);
    assert_eq!(json["turns"], 2 * CHAIN_LENGTH);
    assert_eq!(json["to_move"], "Blue");
    herald()
        .arg("move")
        .arg(&path)
        .arg("pass")
        .arg("--key")
        .arg(&key)
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains(
            "Blue's hash chain is used up after 10000 turns",
        ));
}

/// A self-play Castle Danger record of 500 turns (seed 5, Blue to move
/// with its 251st line) and Blue's key file text.
fn blue_at_line_251(dir: &Path) -> (PathBuf, String) {
    use herald::fairness::chain_id;
    use herald::games::castle_danger::CastleDanger;
    let mut options = herald::selfplay::Options::new::<CastleDanger>(5, 2);
    options.max_turns = 500;
    options.stop_percent = 100;
    let record = herald::selfplay::record::<CastleDanger>(&options).unwrap();
    let path = dir.join("game.pbem");
    fs::write(&path, &record).unwrap();
    let chain = chain_id([
        ("Game", "castle-danger"),
        ("Blue", "blue@example.org"),
        ("Red", "red@example.org"),
    ]);
    let secret = herald::selfplay::secret(5, herald::game::Side(0));
    let wallet = herald::wallet::Wallet::from_secret("castle-danger", "Blue", chain, secret);
    (path, wallet.to_text())
}

/// A key file keeps every 100th link of its chain (spec 3.1); one
/// without them (written before they were kept) gives the same reveals.
#[test]
fn legal_with_a_key_file_with_or_without_links_lists_the_same() {
    let dir = TempDir::new().unwrap();
    let (path, text) = blue_at_line_251(dir.path());
    assert_eq!(check_json(&path)["to_move"], "Blue");
    let old: String = text
        .lines()
        .filter(|l| !l.starts_with("link: "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(text.lines().count(), old.lines().count() + 99);
    let mut listed = Vec::new();
    for (name, key_text) in [("new.key", &text), ("old.key", &old)] {
        let key = dir.path().join(name);
        fs::write(&key, key_text).unwrap();
        let output = herald()
            .args(["legal", "--format", "json", "--key"])
            .arg(&key)
            .arg(&path)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", stderr_of(&output));
        listed.push(stdout_of(&output));
    }
    assert_eq!(listed[0], listed[1]);
}

/// Links 300 and 200 of Blue's key file replaced so that they agree with
/// each other: the key file's own check passes, but the reveal for Blue's
/// 251st line (taken from link 300) does not follow Blue's 250th, which
/// the record shows: refused, nothing written.
#[test]
fn a_key_file_whose_links_lie_is_refused_and_no_reveal_is_written() {
    use herald::fairness::{chain_id, chain_step};
    let dir = TempDir::new().unwrap();
    let (path, text) = blue_at_line_251(dir.path());
    let chain = chain_id([
        ("Game", "castle-danger"),
        ("Blue", "blue@example.org"),
        ("Red", "red@example.org"),
    ]);
    let fake = [0x11; 32];
    let below = (0..100).fold(fake, |v, _| chain_step(&chain, &v));
    let lied: String = text
        .lines()
        .map(|l| {
            if l.starts_with("link: 300 ") {
                format!("link: 300 {}\n", hex::encode(fake))
            } else if l.starts_with("link: 200 ") {
                format!("link: 200 {}\n", hex::encode(below))
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let key = dir.path().join("blue.key");
    fs::write(&key, &lied).unwrap();
    let before = fs::read(&path).unwrap();
    let reason =
        "was altered: the reveal it gives for Blue's line 251 does not follow Blue's previous one";
    herald()
        .arg("legal")
        .arg(&path)
        .arg("--key")
        .arg(&key)
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains(reason));
    herald()
        .arg("move")
        .arg(&path)
        .arg("pass")
        .arg("--key")
        .arg(&key)
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains(reason));
    assert_eq!(fs::read(&path).unwrap(), before);

    // Link 300 alone replaced: the key file's own check refuses it.
    let one: String = text
        .lines()
        .map(|l| match l.starts_with("link: 300 ") {
            true => format!("link: 300 {}\n", hex::encode(fake)),
            false => format!("{l}\n"),
        })
        .collect();
    fs::write(&key, &one).unwrap();
    herald()
        .arg("move")
        .arg(&path)
        .arg("pass")
        .arg("--key")
        .arg(&key)
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains(
            "was altered: its link 300 does not lead to its link 200, so no reveal is taken from it",
        ));
    assert_eq!(fs::read(&path).unwrap(), before);
}

/// What herald prints for people stays within 78 columns, the widest a
/// mail client keeps (spec section 1.1): every reader's text output on
/// every valid fixture of every game, diagrams in both styles. Commit tag
/// lines are the documented exception (79 to 81 characters).
#[test]
fn text_output_lines_fit_in_78_columns() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("g.pbem");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut records: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap()
        .flat_map(|game| fs::read_dir(game.unwrap().path()).unwrap())
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pbem"))
        .filter(|p| {
            fs::read_to_string(p.with_extension("expect")).is_ok_and(|e| e.contains("exit: 0"))
        })
        .collect();
    records.sort();
    assert!(records.len() > 50, "{records:?}");
    let mut wide = Vec::new();
    for record in &records {
        fs::copy(record, &path).unwrap();
        for args in [
            &["check"][..],
            &["replay"],
            &["replay", "--unicode"],
            &["annotate"],
            &["legal"],
            &["fate"],
        ] {
            let output = herald().args(args).arg(&path).output().unwrap();
            assert!(output.status.success(), "{args:?} {}", record.display());
            for line in stdout_of(&output).lines() {
                // Left alone: a header's Commit or Key tag (64 hex digits).
                let tag = line.contains("Commit \"") || line.contains("Key \"");
                if line.chars().count() > 78 && !tag {
                    wide.push(format!("{} {args:?}: {line}", record.display()));
                }
            }
        }
    }
    assert!(wide.is_empty(), "{}", wide.join("\n"));
}

#[test]
fn fate_says_a_castle_danger_game_has_no_chance_events() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    keygen(&path, "Blue", &dir.path().join("blue.key"));
    keygen(&path, "Red", &dir.path().join("red.key"));
    herald()
        .arg("move")
        .arg(&path)
        .arg("Kc1-b1")
        .arg("--key")
        .arg(dir.path().join("blue.key"))
        .assert()
        .success();
    herald()
        .arg("fate")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("No chance events"));
    let output = herald()
        .args(["fate", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    let json = json_of(&output);
    assert_eq!(json["game"], "castle-danger");
    assert_eq!(json["events"], serde_json::json!([]));
    assert_eq!(json["pending"], serde_json::json!([]));
}

// ---------------------------------------------------------------- keygen

#[test]
fn keygen_adds_the_commit_tag_and_writes_a_private_key() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    let key = dir.path().join("blue.key");
    keygen(&path, "Blue", &key);
    let text = fs::read_to_string(&key).unwrap();
    assert!(text.contains("herald-key: 1"));
    assert!(text.contains("side: Blue"));
    let commit = text
        .lines()
        .find_map(|l| l.strip_prefix("commit: "))
        .unwrap();
    assert_eq!(commit.len(), 64);
    let record = fs::read_to_string(&path).unwrap();
    assert!(
        record.contains(&format!("[BlueCommit \"{commit}\"]\n")),
        "{record}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[test]
fn keygen_print_leaves_the_record_alone() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    let before = fs::read(&path).unwrap();
    herald()
        .args(["keygen", "--side", "Red", "--print"])
        .arg(&path)
        .arg("-o")
        .arg(dir.path().join("red.key"))
        .assert()
        .success()
        .stdout(predicate::str::contains("[RedCommit \""));
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn keygen_refuses_to_overwrite_a_key_file() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    let key = dir.path().join("red.key");
    fs::write(&key, "an older key\n").unwrap();
    let before = fs::read(&path).unwrap();
    herald()
        .args(["keygen", "--side", "Red"])
        .arg(&path)
        .arg("-o")
        .arg(&key)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("never overwrites a key file"));
    assert_eq!(fs::read_to_string(&key).unwrap(), "an older key\n");
    assert_eq!(fs::read(&path).unwrap(), before, "no Commit tag added");
}

#[test]
fn keygen_refuses_a_second_key_for_a_side() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    keygen(&path, "Blue", &dir.path().join("blue.key"));
    let before = fs::read(&path).unwrap();
    herald()
        .args(["keygen", "--side", "Blue"])
        .arg(&path)
        .arg("-o")
        .arg(dir.path().join("blue2.key"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Commit tag already"));
    assert!(!dir.path().join("blue2.key").exists());
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn keygen_refuses_after_turn_1() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1"]);
    let before = fs::read(&path).unwrap();
    herald()
        .args(["keygen", "--side", "Red"])
        .arg(&path)
        .arg("-o")
        .arg(dir.path().join("red.key"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("before turn 1"));
    assert!(!dir.path().join("red.key").exists());
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn the_key_secret_never_appears_in_the_record_or_any_output() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    let blue = dir.path().join("blue.key");
    let red = dir.path().join("red.key");
    let mut seen = String::new();
    let mut run = |args: &[&str], key: Option<&Path>| {
        let mut cmd = herald();
        cmd.args(args);
        if let Some(key) = key {
            cmd.arg("--key").arg(key);
        }
        let output = cmd.output().unwrap();
        seen.push_str(&String::from_utf8_lossy(&output.stdout));
        seen.push_str(&String::from_utf8_lossy(&output.stderr));
    };
    let record = path.to_str().unwrap();
    run(
        &[
            "keygen",
            "--side",
            "Blue",
            record,
            "-o",
            blue.to_str().unwrap(),
        ],
        None,
    );
    run(
        &[
            "keygen",
            "--side",
            "Red",
            record,
            "-o",
            red.to_str().unwrap(),
        ],
        None,
    );
    for (n, turn) in BLUE_WINS.iter().enumerate() {
        let key = if n % 2 == 0 { &blue } else { &red };
        run(&["move", record, turn, "--dry-run"], Some(key));
        run(&["move", "--format", "json", record, turn], Some(key));
    }
    // A refused move with a key, and a wrong key.
    run(&["move", record, "pass"], Some(&red));
    for command in ["check", "show", "replay", "annotate", "legal", "fate"] {
        run(&[command, record], None);
        run(&[command, "--format", "json", record], None);
    }
    assert_eq!(check_json(&path)["result"], "Blue");
    let record_text = fs::read_to_string(&path).unwrap();
    for key in [&blue, &red] {
        let secret = secret_of(key);
        assert_eq!(secret.len(), 64);
        for text in [&seen, &record_text] {
            assert!(!text.contains(&secret));
            assert!(!text.to_uppercase().contains(&secret.to_uppercase()));
        }
    }
}

// ---------------------------------------------------------------- completions, man, help

#[test]
fn completions_print_a_script_for_bash_zsh_and_fish() {
    for (shell, marker) in [
        ("bash", "complete -F _herald"),
        ("zsh", "#compdef herald"),
        ("fish", "complete -c herald"),
    ] {
        let output = herald().args(["completions", shell]).output().unwrap();
        assert!(output.status.success(), "{shell}");
        let text = stdout_of(&output);
        assert!(text.contains(marker), "{shell}: no `{marker}`");
        for sub in ["keygen", "annotate", "legal"] {
            assert!(text.contains(sub), "{shell} script misses {sub}");
        }
    }
    herald().args(["completions", "tcsh"]).assert().code(2);
}

#[test]
fn man_prints_a_roff_page() {
    let output = herald().arg("man").output().unwrap();
    assert!(output.status.success());
    let text = stdout_of(&output);
    assert!(text.contains(".TH herald 1"), "{text}");
    assert!(text.contains(".SH NAME"));
    assert!(text.contains(".SH SYNOPSIS"));
    assert!(text.contains("keygen"));
    assert!(!text.contains(ESC));
}

#[test]
fn man_prints_the_page_of_every_command_the_main_page_names() {
    let main_page = stdout_of(&herald().arg("man").output().unwrap());
    for command in [
        "new", "move", "check", "show", "replay", "annotate", "legal", "fate", "keygen", "setup",
        "extract",
    ] {
        assert!(
            main_page.contains(&format!("herald\\-{command}(1)")),
            "herald(1) names herald-{command}(1)"
        );
        let output = herald().args(["man", command]).output().unwrap();
        assert!(output.status.success(), "man {command}");
        let page = stdout_of(&output);
        assert!(page.contains(&format!(".TH herald-{command} 1")), "{page}");
        assert!(page.contains(".SH OPTIONS"), "{page}");
        // Every page says what the exit codes mean.
        assert!(page.contains(".SH \"EXIT STATUS\""), "{page}");
        assert!(page.contains("A usage or I/O error"), "{page}");
    }
    assert!(main_page.contains(".SH \"EXIT STATUS\""), "{main_page}");
    let page = stdout_of(&herald().args(["man", "move"]).output().unwrap());
    assert!(page.contains("\\-\\-dry\\-run"), "{page}");
    assert!(page.contains("\\-\\-expect\\-turn"), "{page}");
    herald()
        .args(["man", "bogus"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("herald has no command `bogus`"));
}

#[test]
fn man_dir_writes_every_page_and_leaves_a_file_that_is_not_one_alone() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let folder = pages.to_str().unwrap();
    herald()
        .args(["man", "--dir", folder])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("wrote 21 man pages"));
    let main_page = std::fs::read_to_string(pages.join("herald.1")).unwrap();
    assert_eq!(main_page, stdout_of(&herald().arg("man").output().unwrap()));
    for command in [
        "new",
        "move",
        "setup",
        "check",
        "show",
        "replay",
        "annotate",
        "legal",
        "hand",
        "fate",
        "extract",
        "keygen",
        "config",
        "send",
        "inbox",
        "rules",
        "completions",
        "man",
        "config-check",
        "config-password",
    ] {
        let page = std::fs::read_to_string(pages.join(format!("herald-{command}.1"))).unwrap();
        assert_eq!(
            page,
            stdout_of(&herald().args(["man", command]).output().unwrap()),
            "{command}"
        );
    }
    // Run again, it replaces its own pages; a file of another's is left
    // alone, and then nothing is written at all.
    herald().args(["man", "--dir", folder]).assert().code(0);
    std::fs::write(pages.join("herald-move.1"), "mine").unwrap();
    std::fs::remove_file(pages.join("herald.1")).unwrap();
    herald()
        .args(["man", "--dir", folder])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a herald man page"));
    assert_eq!(
        std::fs::read_to_string(pages.join("herald-move.1")).unwrap(),
        "mine"
    );
    assert!(!pages.join("herald.1").exists(), "nothing written");
}

/// Subcommands whose `--help` shows examples today.
const WITH_EXAMPLES: [&str; 6] = ["new", "move", "check", "show", "annotate", "keygen"];

#[test]
fn help_shows_examples() {
    herald()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Examples:"));
    for command in WITH_EXAMPLES {
        let output = herald().args([command, "--help"]).output().unwrap();
        assert!(output.status.success(), "{command}");
        let text = stdout_of(&output);
        let examples = text
            .split("Examples:")
            .nth(1)
            .unwrap_or_else(|| panic!("herald {command} --help has no Examples"));
        assert!(
            examples.contains(&format!("herald {command}")),
            "herald {command} --help: examples of another command?\n{examples}"
        );
    }
}

#[test]
fn every_subcommand_help_shows_examples() {
    for command in ["replay", "legal", "fate", "completions", "man"] {
        herald()
            .args([command, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Examples:"));
    }
}

#[test]
fn usage_errors_exit_2() {
    herald().assert().code(2);
    herald().arg("frobnicate").assert().code(2);
    herald().args(["check"]).assert().code(2);
    herald()
        .args(["show", "--turn", "minus-one", "x.pbem"])
        .assert()
        .code(2);
}

// ---------------------------------------------------------------- colour

#[test]
fn output_into_a_pipe_or_with_no_color_carries_no_ansi_escapes() {
    let dir = TempDir::new().unwrap();
    let path = game_with(dir.path(), &["Kc1-b1"]);
    let bad = dir.path().join("bad.pbem");
    fs::write(&bad, format!("{HEADER}\n1. Blue: Kc1-c2\n")).unwrap();
    let (good, bad_path) = (path.to_str().unwrap(), bad.to_str().unwrap());
    let commands: [&[&str]; 9] = [
        &["check", good],
        &["check", bad_path],
        &["show", good],
        &["show", "--unicode", good],
        &["replay", good],
        &["legal", good],
        &["annotate", good],
        &["move", good, "Kc9-c8"],
        &["move", "--dry-run", good, "Kc9-b9"],
    ];
    for args in commands {
        // Not a terminal (assert_cmd pipes both streams), colour on auto.
        for no_color in [false, true] {
            let mut cmd = herald();
            if no_color {
                cmd.env("NO_COLOR", "1");
            }
            let output = cmd.args(args).output().unwrap();
            let all = format!("{}{}", stdout_of(&output), stderr_of(&output));
            assert!(!all.contains(ESC), "{args:?} NO_COLOR={no_color}: {all:?}");
            assert!(!all.is_empty(), "{args:?}");
        }
        let output = herald()
            .args(["--color", "never"])
            .args(args)
            .output()
            .unwrap();
        assert!(!stdout_of(&output).contains(ESC));
        assert!(!stderr_of(&output).contains(ESC));
    }
    // ...while --color always does colour, so the checks above mean something.
    let output = herald()
        .args(["--color", "always", "check"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(stderr_of(&output).contains(ESC));
}

// ---------------------------------------------------------------- known herald bugs
// Each test below states the right behaviour and fails today; they are

#[test]
fn underline_sits_under_the_action_when_the_line_holds_tabs() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("tabs.pbem");
    fs::write(&path, format!("{HEADER}\n1. Blue:\tKc1-c2\n")).unwrap();
    let output = herald().arg("check").arg(&path).output().unwrap();
    let err = stderr_of(&output);
    let lines: Vec<&str> = err.lines().collect();
    let at = lines.iter().position(|l| l.contains("Kc1-c2")).unwrap();
    let at = at
        + lines[at..]
            .iter()
            .position(|l| l.contains("1. Blue:"))
            .unwrap();
    let column = lines[at].find("Kc1-c2").unwrap();
    assert_eq!(lines[at + 1].find('^'), Some(column), "{err}");
}

#[test]
#[cfg(unix)]
fn new_and_annotate_create_records_with_the_umask_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new().unwrap();
    // Compare with a file created the ordinary way in the same process tree.
    let plain = dir.path().join("plain.txt");
    fs::write(&plain, "x").unwrap();
    let want = fs::metadata(&plain).unwrap().permissions().mode() & 0o777;
    let path = new_game(dir.path());
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        want
    );
    let annotated = dir.path().join("annotated.pbem");
    herald()
        .arg("annotate")
        .arg(&path)
        .arg("-o")
        .arg(&annotated)
        .assert()
        .success();
    assert_eq!(
        fs::metadata(&annotated).unwrap().permissions().mode() & 0o777,
        want
    );
}

/// Inputs the fuzzers found crashing the error renderer (form feeds in
/// leading white space, tabs, an underline inside a multi-byte character):
/// each is now a clean error, exit 1, in text and in JSON.
#[test]
fn fuzzer_found_inputs_are_clean_errors() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for name in [
        "fuzz-control-chars.pbem",
        "fuzz-tabs.pbem",
        "fuzz-underline-cuts-a-character.pbem",
        "fuzz-underline-cuts-a-character-2.pbem",
        "fuzz-leading-control-before-a-wide-character.pbem",
    ] {
        for format in ["text", "json"] {
            let output = herald()
                .args(["check", "--format", format])
                .arg(data.join(name))
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(1), "{name} ({format})");
            assert!(
                !stderr_of(&output).contains("panicked"),
                "{name} ({format})"
            );
        }
    }
}

// ---------------------------------------------------------------- setup

#[test]
fn setup_in_a_game_without_hidden_values_exits_2_and_writes_nothing() {
    let dir = TempDir::new().unwrap();
    let record = new_game(dir.path());
    let key = dir.path().join("blue.key");
    keygen(&record, "Blue", &key);
    let record_before = fs::read(&record).unwrap();
    let key_before = fs::read(&key).unwrap();
    let output = herald()
        .arg("setup")
        .arg(&record)
        .arg("--key")
        .arg(&key)
        .args(["--army", "RPSRRPSPRS"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = stderr_of(&output);
    assert!(
        err.contains("Castle Danger has no set-up: the game starts with turn 1 (herald move)"),
        "{err}"
    );
    assert_eq!(fs::read(&record).unwrap(), record_before);
    assert_eq!(fs::read(&key).unwrap(), key_before);
}

#[test]
fn setup_refuses_standard_input_as_the_record() {
    let dir = TempDir::new().unwrap();
    let key = dir.path().join("blue.key");
    let output = herald()
        .args(["setup", "-", "--key"])
        .arg(&key)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).contains("setup adds your set-up line to the record file"),
        "{}",
        stderr_of(&output)
    );
}

// ---------------------------------------------------------------- legal --after

/// `herald legal game.pbem ARGS...` in `dir`.
fn legal_in(dir: &Path, args: &[&str]) -> std::process::Output {
    herald()
        .current_dir(dir)
        .arg("legal")
        .arg("game.pbem")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn legal_after_lists_what_remains_of_a_castle_danger_turn() {
    let dir = TempDir::new().unwrap();
    let path = new_game(dir.path());
    let output = legal_in(dir.path(), &["--after", "+C"]);
    assert!(output.status.success(), "{}", stderr_of(&output));
    let text = stdout_of(&output);
    assert!(text.starts_with("Turn 1, Blue: "), "{text}");
    assert!(text.contains("After: +C\n"), "{text}");
    assert!(
        text.contains("Note: the turn may end after these actions"),
        "{text}"
    );
    // The Cannon just added on d1 may move (`+C, Cd1-d2` is a turn the
    // other tests play); each action listed is one `move` accepts after
    // the same start.
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(listed.contains(&"Cd1-d2"), "{text}");
    for action in [listed[0], listed[listed.len() - 1]] {
        herald()
            .arg("move")
            .arg(&path)
            .arg("--dry-run")
            .arg(format!("+C, {action}"))
            .assert()
            .success();
    }
    // Nothing is written.
    assert!(!fs::read_to_string(&path).unwrap().contains("1. Blue"));
}

#[test]
fn legal_after_in_json_names_the_actions_made() {
    let dir = TempDir::new().unwrap();
    new_game(dir.path());
    let output = legal_in(
        dir.path(),
        &["--after", "1. Blue: +C, Cd1-d2", "--format", "json"],
    );
    assert!(output.status.success(), "{}", stderr_of(&output));
    let json = json_of(&output);
    assert_eq!(json["turn"], 1);
    assert_eq!(json["to_move"], "Blue");
    assert_eq!(json["after"], serde_json::json!(["+C", "Cd1-d2"]));
    assert_eq!(json["note"], "the turn may end after these actions");
    assert!(json["actions"].is_array());
    // Without --after the list says so with an empty array.
    let output = legal_in(dir.path(), &["--format", "json"]);
    assert_eq!(json_of(&output)["after"], serde_json::json!([]));
}

#[test]
fn legal_after_refuses_an_illegal_action_where_it_stands() {
    let dir = TempDir::new().unwrap();
    new_game(dir.path());
    let output = legal_in(dir.path(), &["--after", "Kc1-c2"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr_of(&output);
    assert!(
        err.contains("error[illegal]: turn 1 (Blue): Kc1-c2: c2 holds a Wall"),
        "{err}"
    );
    assert!(err.contains("--> <turn>:1:10"), "{err}");
    assert!(stdout_of(&output).is_empty());
    // Text that is no action is a parse error at its bytes.
    let output = legal_in(dir.path(), &["--after", "+C, Cd1-zz"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr_of(&output);
    assert!(err.contains("error[parse]: turn 1 (Blue): Cd1-zz"), "{err}");
    assert!(err.contains("--> <turn>:1:18"), "{err}");
    // pass and resign end a turn: there is no rest to list.
    let output = legal_in(dir.path(), &["--after", "pass"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr_of(&output).contains("actions only: the rest of a turn is listed after actions"),
        "{}",
        stderr_of(&output)
    );
    // Written for another turn: the record is not the latest copy.
    let output = legal_in(dir.path(), &["--after", "2. Red: +C"]);
    assert!(!output.status.success());
    assert!(stderr_of(&output).contains("the record is at turn 1, Blue's"));
}

#[test]
fn legal_after_a_finished_game_says_why_nothing_can_follow() {
    let dir = TempDir::new().unwrap();
    game_with(dir.path(), &BLUE_WINS);
    let output = legal_in(dir.path(), &["--after", "+C"]);
    // The game allows nothing now: a game's reason, exit 1 (not usage).
    assert_eq!(output.status.code(), Some(1));
    let err = stderr_of(&output);
    assert!(
        err.contains("--after: no action can be listed now"),
        "{err}"
    );
    assert!(err.contains("over"), "{err}");
}

#[test]
fn legal_after_a_battlegates_card_lists_the_dice_phase() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let path = d.join("game.pbem");
    herald()
        .current_dir(d)
        .args(["new", "battlegates", "--side", "South=a@x"])
        .args([
            "--side",
            "North=b@x",
            "--option",
            "Hands=open",
            "-o",
            "game.pbem",
        ])
        .assert()
        .success();
    for side in ["South", "North"] {
        let key = format!("{}.key", side.to_lowercase());
        herald()
            .current_dir(d)
            .args(["keygen", "--side", side, "game.pbem", "-o", &key])
            .assert()
            .success();
    }
    let mazes = [
        (
            "south.key",
            "Wb2n Wd3e Wf2n Wh3n Gc1sw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw",
        ),
        (
            "north.key",
            "Wb10n Wd9e Wf10n Wh8n Gc12nw Gc9nw Ge8ne Ld10nw Lg9en Lb8nw",
        ),
    ];
    for (key, maze) in mazes {
        herald()
            .current_dir(d)
            .args(["setup", "game.pbem", "--key", key, "--maze", maze])
            .assert()
            .success();
    }
    // North, the last to commit, opened on the same line (protocol 3):
    // South's openings remain.
    herald()
        .current_dir(d)
        .args(["setup", "game.pbem", "--key", "south.key"])
        .assert()
        .success();
    let shown = json_of(
        &herald()
            .args(["show", "--format", "json"])
            .arg(&path)
            .output()
            .unwrap(),
    );
    let mover = shown["to_move"].as_str().unwrap().to_lowercase();
    let key = format!("{mover}.key");
    let all = json_of(&legal_in(d, &["--key", &key, "--format", "json"]));
    let discard = all["actions"][0]["action"].as_str().unwrap().to_string();
    assert!(discard.starts_with("discard "), "{all}");
    // After the card: the dice phase only, every Archer's shots among it.
    let rest = json_of(&legal_in(
        d,
        &["--key", &key, "--after", &discard, "--format", "json"],
    ));
    let actions: Vec<&str> = rest["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap())
        .collect();
    let shot = if mover == "south" {
        "shoot d1 n"
    } else {
        "shoot d12 s"
    };
    assert!(actions.contains(&shot), "{rest}");
    assert!(actions.iter().all(|a| !a.starts_with("discard ")), "{rest}");
    assert!(
        rest["note"]
            .as_str()
            .unwrap()
            .starts_with("the turn may not end after these actions: the roll of"),
        "{rest}"
    );
    // After the shot nothing remains, and the turn may end.
    let done = json_of(&legal_in(
        d,
        &[
            "--key",
            &key,
            "--after",
            &format!("{discard}, {shot}"),
            "--format",
            "json",
        ],
    ));
    assert_eq!(done["actions"], serde_json::json!([]), "{done}");
    assert_eq!(done["note"], "the turn may end after these actions");
    // A second card action is refused with the engine's reason.
    let output = legal_in(
        d,
        &["--key", &key, "--after", &format!("{discard}, {discard}")],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr_of(&output).contains("the card phase is over"),
        "{}",
        stderr_of(&output)
    );
}

/// A Playground Battles record whose first set-up line (Blue's, `S1`)
/// has its reveal altered, and a copy of it in a second file.
fn broken_setup_line(dir: &Path) -> PathBuf {
    let path = dir.join("g.pbem");
    let ok = |args: &[&str]| {
        let out = herald().current_dir(dir).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr_of(&out));
    };
    ok(&[
        "new",
        "playground-battles",
        "--side",
        BLUE,
        "--side",
        RED,
        "-o",
        "g.pbem",
    ]);
    ok(&["keygen", "g.pbem", "--side", "Blue", "-o", "blue.key"]);
    ok(&["keygen", "g.pbem", "--side", "Red", "-o", "red.key"]);
    ok(&[
        "setup",
        "g.pbem",
        "--key",
        "blue.key",
        "--army",
        "RRRRPPPSSS",
        "--throws",
        "RSPRPSRPSRPS",
    ]);
    let text = fs::read_to_string(&path).unwrap();
    let at = text.find("S1. Blue:").expect("Blue's set-up line");
    let reveal = at + text[at..].find("reveal ").unwrap() + "reveal ".len();
    let mut bytes = text.into_bytes();
    bytes[reveal] = if bytes[reveal] == b'0' { b'1' } else { b'0' };
    fs::write(&path, &bytes).unwrap();
    fs::write(dir.join("h.pbem"), &bytes).unwrap();
    path
}

#[test]
fn an_error_in_a_set_up_line_names_the_set_up_line_not_a_turn() {
    let dir = TempDir::new().unwrap();
    let path = broken_setup_line(dir.path());
    let text = herald().arg("check").arg(&path).output().unwrap();
    assert_eq!(text.status.code(), Some(1));
    let err = stderr_of(&text);
    assert!(
        err.contains("error[record]: set-up line S1 (Blue): this reveal does not hash"),
        "{err}"
    );
    assert!(!err.contains("turn 1"), "{err}");

    let json = herald()
        .args(["check", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    let error = &json_of(&json)["error"];
    assert_eq!(error["kind"], "record");
    assert_eq!(error["turn"], Value::Null);
    assert_eq!(error["setup_line"], 1);
    assert_eq!(error["side"], "Blue");

    // Several records at once: one verdict line each, naming the line.
    let many = herald()
        .current_dir(dir.path())
        .args(["check", "g.pbem", "h.pbem"])
        .output()
        .unwrap();
    let out = stdout_of(&many);
    assert!(
        out.contains("invalid: set-up line S1, Blue: this reveal"),
        "{out}"
    );
}

/// A keyed Castle Danger record in `dir`, with `blue.key` and `red.key`.
fn keyed_game(dir: &Path) -> PathBuf {
    let path = new_game(dir);
    for (side, key) in [("Blue", "blue.key"), ("Red", "red.key")] {
        herald()
            .args(["keygen", "--side", side])
            .arg(&path)
            .arg("-o")
            .arg(dir.join(key))
            .assert()
            .success();
    }
    path
}

#[test]
fn check_with_a_key_file_checks_the_record_against_what_it_remembers_and_keeps_the_key_file_for_a_record_it_knows(
) {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let record = keyed_game(d);
    let key = d.join("blue.key");
    fs::copy(&record, d.join("answered.pbem")).unwrap();
    fs::copy(&key, d.join("old.key")).unwrap();
    herald()
        .arg("move")
        .arg(&record)
        .arg("+C, Kc1-b1")
        .arg("--key")
        .arg(&key)
        .assert()
        .success();
    let key_bytes = fs::read(&key).unwrap();
    let check = |file: &str, key: &str| {
        herald()
            .current_dir(d)
            .args(["check", file, "--key", key])
            .output()
            .unwrap()
    };
    // The record holds Blue's turn as written.
    let out = check("game.pbem", "blue.key");
    assert!(out.status.success(), "{}", stderr_of(&out));
    let said = stdout_of(&out).replace("\n  ", " ");
    assert!(
        said.contains(
            "Your key file (Blue, blue.key): your turn 1 is in this record as you wrote it"
        ),
        "{said}"
    );
    // The record Blue answered: it says so, and which answer to send.
    let out = check("answered.pbem", "blue.key");
    assert!(out.status.success(), "{}", stderr_of(&out));
    let said = stdout_of(&out).replace("\n  ", " ");
    assert!(
        said.contains(
            "you answered this very record with your turn 1: send that answer, not another"
        ),
        "{said}"
    );
    // Red has written nothing yet.
    let said = stdout_of(&check("game.pbem", "red.key")).replace("\n  ", " ");
    assert!(
        said.contains("Your key file (Red, red.key): you have written no line of this game yet"),
        "{said}"
    );
    // Another turn 1 for Blue, written with the key file as it was
    // before: the key file that remembers the first refuses it (exit 1).
    fs::copy(d.join("answered.pbem"), d.join("fork.pbem")).unwrap();
    herald()
        .current_dir(d)
        .args(["move", "fork.pbem", "+W", "--key", "old.key"])
        .assert()
        .success();
    let out = check("fork.pbem", "blue.key");
    assert_eq!(out.status.code(), Some(1), "{}", stdout_of(&out));
    let err = stderr_of(&out);
    assert!(err.contains("your turn 1"), "{err}");
    // The record stripped of its keys, reveals, dates and signatures, its
    // Nonce changed: a plain game, but not the one whose turn 1 Blue's key
    // file played (exit 1), and said so, never "another game".
    let stripped: String = fs::read_to_string(&record)
        .unwrap()
        .lines()
        .filter(|l| {
            !l.starts_with("    ")
                && ![
                    "[BlueCommit",
                    "[BlueKey",
                    "[RedCommit",
                    "[RedKey",
                    "[Deadline",
                ]
                .iter()
                .any(|t| l.starts_with(t))
        })
        .map(|l| match l.strip_prefix("[Nonce \"") {
            Some(_) => format!("[Nonce \"{}\"]\n", "0".repeat(32)),
            None => format!("{l}\n"),
        })
        .collect();
    fs::write(d.join("stripped.pbem"), stripped).unwrap();
    let out = check("stripped.pbem", "blue.key");
    assert_eq!(out.status.code(), Some(1), "{}", stdout_of(&out));
    let err = stderr_of(&out);
    assert!(
        err.contains("this key file has played Blue in a game whose header this record does not have (the key file's turn 1 is in that game): its tags were changed or removed in this copy"),
        "{err}"
    );
    // A key file of another game: a usage error (exit 2).
    let other = TempDir::new().unwrap();
    let elsewhere = keyed_game(other.path());
    let _ = elsewhere;
    let out = herald()
        .current_dir(d)
        .arg("check")
        .arg("game.pbem")
        .arg("--key")
        .arg(other.path().join("blue.key"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("another game"),
        "{}",
        stderr_of(&out)
    );
    assert_eq!(fs::read(&key).unwrap(), key_bytes, "the key file as it was");
}

#[test]
fn a_dry_run_never_prints_a_signature_and_writes_nothing() {
    let dir = TempDir::new().unwrap();
    let record = keyed_game(dir.path());
    let key = dir.path().join("blue.key");
    let (before, key_before) = (fs::read(&record).unwrap(), fs::read(&key).unwrap());
    for format in ["text", "json"] {
        let out = herald()
            .args(["move", "--dry-run", "--format", format])
            .arg(&record)
            .arg("+C, Kc1-b1")
            .arg("--key")
            .arg(&key)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        let shown = stdout_of(&out);
        assert!(shown.contains("reveal "), "{shown}");
        assert!(
            !shown.contains("sig "),
            "a dry run printed a signature: {shown}"
        );
        assert!(
            stderr_of(&out).contains("note: a dry run shows the line without its signature"),
            "{}",
            stderr_of(&out)
        );
    }
    assert_eq!(fs::read(&record).unwrap(), before);
    assert_eq!(fs::read(&key).unwrap(), key_before);
    // The line written is signed, and it is the line shown, plus its sig.
    let out = herald()
        .arg("move")
        .arg(&record)
        .arg("+C, Kc1-b1")
        .arg("--key")
        .arg(&key)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(fs::read_to_string(&record).unwrap().contains("    sig "));
}

#[cfg(unix)]
#[test]
fn a_key_file_is_its_owners_alone_and_one_others_can_read_gets_a_warning() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new().unwrap();
    let record = keyed_game(dir.path());
    let key = dir.path().join("blue.key");
    let mode = fs::metadata(&key).unwrap().permissions().mode() & 0o777;
    assert_eq!(
        mode, 0o600,
        "keygen writes the key file for its owner alone"
    );
    let quiet = herald()
        .arg("legal")
        .arg(&record)
        .arg("--key")
        .arg(&key)
        .output()
        .unwrap();
    assert!(
        !stderr_of(&quiet).contains("warning"),
        "{}",
        stderr_of(&quiet)
    );
    fs::set_permissions(&key, fs::Permissions::from_mode(0o644)).unwrap();
    let out = herald()
        .arg("legal")
        .arg(&record)
        .arg("--key")
        .arg(&key)
        .output()
        .unwrap();
    assert!(out.status.success(), "it still works");
    let err = stderr_of(&out);
    assert!(
        err.contains("can be read by other users of this machine"),
        "{err}"
    );
    assert!(
        err.contains(&format!("chmod 600 {}", key.display())),
        "{err}"
    );
}

#[test]
fn a_contact_with_a_comma_line_break_or_bidi_mark_is_refused_at_new_and_by_check() {
    for (contact, what) in [
        ("ann@example.org, eve@example.org", "a comma"),
        ("ann@example.org\nBcc: eve@example.org", "a line break"),
        (
            "ann@example.org\u{202e}gro.elpmaxe",
            "a bidirectional mark (U+202E)",
        ),
        ("ann\u{7}@example.org", "a control character (U+0007)"),
        (
            "ann@example.org\u{2028}Bcc: eve@example.org",
            "a line break (U+2028)",
        ),
    ] {
        let out = herald()
            .args(["new", "castle-danger", "--side", &format!("Blue={contact}")])
            .args(["--side", RED])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{contact:?}");
        assert!(out.stdout.is_empty(), "nothing written");
        let err = stderr_of(&out);
        assert!(
            err.contains(&format!("--side Blue: the contact holds {what}")),
            "{err}"
        );
    }
    // In a record, `check` refuses it at the tag (exit 1).
    check_refuses_blue_contact(
        "ann@example.org, eve@example.org",
        "Blue's contact holds a comma",
    );
}

/// A record whose Blue tag holds `contact`: `check` refuses it at the
/// tag's value (exit 1, `bad.pbem:2:8`), saying `why`.
fn check_refuses_blue_contact(contact: &str, why: &str) {
    let dir = TempDir::new().unwrap();
    let record = dir.path().join("bad.pbem");
    fs::write(
        &record,
        format!(
            "[Game \"castle-danger\"]\n[Blue \"{contact}\"]\n\
             [Red \"bob@example.org\"]\n[Result \"*\"]\n\n"
        ),
    )
    .unwrap();
    let out = herald().arg("check").arg(&record).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr_of(&out);
    assert!(err.contains(why), "{err}");
    assert!(err.contains("bad.pbem:2:8"), "{err}");
}

#[test]
fn a_contact_that_reads_as_more_than_one_address_is_refused_at_new_and_by_check() {
    for (contact, why) in [
        (
            "team: ann@example.org; eve@example.org",
            "reads as a group of addresses",
        ),
        (
            "Bob <bob@example.org> <eve@evil.org>",
            "holds more than one <address>",
        ),
        (
            "Bob <bob@example.org> eve@evil.org",
            "has its <address> unclosed or followed by more",
        ),
        ("bob@example.org eve@evil.org", "holds more than one `@`"),
        ("bob@example.org (eve@evil.org)", "holds `(`"),
    ] {
        let out = herald()
            .args(["new", "castle-danger", "--side", &format!("Blue={contact}")])
            .args(["--side", RED])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{contact:?}");
        assert!(out.stdout.is_empty(), "nothing written");
        let err = stderr_of(&out);
        assert!(
            err.contains(&format!("--side Blue: the contact `{contact}` {why}")),
            "{err}"
        );
        assert!(
            err.contains("Ann <ann@example.org>"),
            "the shapes named: {err}"
        );
    }
    // In a record, `check` refuses it at the tag (exit 1).
    check_refuses_blue_contact(
        "Bob <b@x.org> <c@evil.org>",
        "Blue's contact `Bob <b@x.org> <c@evil.org>` holds more than one <address>",
    );
}

#[test]
fn a_reply_that_would_go_from_or_to_a_name_alone_is_refused_and_nothing_is_written() {
    let dir = TempDir::new().unwrap();
    let record = dir.path().join("named.pbem");
    let out = herald()
        .args(["new", "castle-danger", "--side", "Blue=Ann Smith"])
        .args(["--side", RED, "-o"])
        .arg(&record)
        .output()
        .unwrap();
    assert!(out.status.success(), "a name alone is a contact: {out:?}");
    let before = fs::read(&record).unwrap();
    let reply = dir.path().join("1.eml");
    let out = herald()
        .arg("move")
        .arg(&record)
        .arg("+C, Kc1-b1")
        .arg("--reply")
        .arg("-o")
        .arg(&reply)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(
        err.contains("Blue's contact `Ann Smith` is no mail address, so no message can go from it"),
        "{err}"
    );
    assert!(err.contains("drop --reply"), "{err}");
    assert!(!reply.exists(), "no message");
    assert_eq!(fs::read(&record).unwrap(), before, "the record as it was");
    // Without --reply the turn is played into the record.
    herald()
        .arg("move")
        .arg(&record)
        .arg("+C, Kc1-b1")
        .assert()
        .success();
}

#[test]
fn a_reply_that_cannot_be_written_leaves_the_record_and_the_key_file_as_they_were() {
    let dir = TempDir::new().unwrap();
    let record = keyed_game(dir.path());
    let key = dir.path().join("blue.key");
    let taken = dir.path().join("taken.eml");
    fs::write(&taken, "mine").unwrap();
    let (before, key_before) = (fs::read(&record).unwrap(), fs::read(&key).unwrap());
    let out = herald()
        .arg("move")
        .arg(&record)
        .arg("+C, Kc1-b1")
        .arg("--key")
        .arg(&key)
        .arg("--reply")
        .arg("-o")
        .arg(&taken)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("exists already"),
        "{}",
        stderr_of(&out)
    );
    assert_eq!(fs::read(&record).unwrap(), before, "the record as it was");
    assert_eq!(
        fs::read(&key).unwrap(),
        key_before,
        "the key file as it was"
    );
    assert_eq!(fs::read_to_string(&taken).unwrap(), "mine");
    // Written to a new file, all three are written and agree: the key
    // file remembers the line the record and the reply hold.
    let reply = dir.path().join("reply.eml");
    let out = herald()
        .arg("move")
        .arg(&record)
        .arg("+C, Kc1-b1")
        .arg("--key")
        .arg(&key)
        .arg("--reply")
        .arg("-o")
        .arg(&reply)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let written = fs::read_to_string(&record).unwrap();
    let line = written.split("1. Blue:").nth(1).unwrap();
    let sig = line
        .split("sig ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert!(fs::read_to_string(&reply).unwrap().contains(sig));
    assert_ne!(
        fs::read(&key).unwrap(),
        key_before,
        "the key file remembers it"
    );
}
