//! The start of a game by email, in the orders players really take its
//! steps, through the real binary (one directory and one key file a
//! player, the record mailed by copying the file): a side that runs
//! `setup` before the other side has added its key is refused, naming who
//! must act first and the command, and the game goes on from there; no
//! order leaves a game stuck. `check`, `check --format json` and `legal`
//! name the step due and whose it is at every point (spec section 3.7).

mod common;
use common::{fails, json, refused, run};

use std::path::{Path, PathBuf};

use serde_json::Value;

const BLUE_ARMY: &str = "RRRRPPPSSS";
const RED_ARMY: &str = "SSSPPPRRRR";
const BLUE_THROWS: &str = "RSPRPSRPSRPS";
const RED_THROWS: &str = "RSRRPSRPSRPS";
const SOUTH_MAZE: &str = "Wd1n Wa2n Wh3n Wi3n Gh1nw Gd3nw Gf3ne Le1nw Lb1ne Lg4nw";
const NORTH_MAZE: &str = "Wa9n Wb9n Wh9n Wi9n Ge11nw Gb10ne Gh10nw Lc8nw Lf8nw Lb11nw";

fn mail(from: &Path, to: &Path) {
    std::fs::copy(from.join("game.pbem"), to.join("game.pbem")).unwrap();
}

fn status(dir: &Path) -> Value {
    json(dir, &["check", "game.pbem", "--format", "json"])
}

/// The step due, as `check --format json` names it: (side, line, step).
fn step(dir: &Path) -> (String, String, String) {
    let s = status(dir);
    let step = &s["step"];
    (
        step["side"].as_str().unwrap().to_owned(),
        step["line"].as_str().unwrap().to_owned(),
        step["step"].as_str().unwrap().to_owned(),
    )
}

/// Two players' directories; the first has made the game and its key.
struct Two {
    _root: tempfile::TempDir,
    first: PathBuf,
    second: PathBuf,
}

fn two(game: &str, sides: [&str; 2], options: &[&str]) -> Two {
    let root = tempfile::tempdir().unwrap();
    let (first, second) = (root.path().join("ann"), root.path().join("bob"));
    std::fs::create_dir(&first).unwrap();
    std::fs::create_dir(&second).unwrap();
    let a = format!("{}=ann@example.org", sides[0]);
    let b = format!("{}=bob@example.org", sides[1]);
    let mut args = vec!["new", "--protocol", "2", game, "--side", &a, "--side", &b];
    args.extend_from_slice(options);
    args.extend_from_slice(&["-o", "game.pbem"]);
    run(&first, &args);
    run(
        &first,
        &["keygen", "--side", sides[0], "game.pbem", "-o", "my.key"],
    );
    Two {
        _root: root,
        first,
        second,
    }
}

#[test]
fn setup_before_the_other_sides_keygen_is_refused_naming_who_acts_first() {
    let t = two("playground-battles", ["Blue", "Red"], &[]);
    // Red's key is the step due, and every reader says so.
    assert_eq!(step(&t.first), ("Red".into(), "S1".into(), "keygen".into()));
    let s = status(&t.first);
    assert_eq!(s["phase"], "setup");
    assert_eq!(s["due"], serde_json::json!(["Red"]));
    let summary = s["summary"].as_str().unwrap();
    assert!(summary.contains("Red's key is due"), "{summary}");
    assert!(!summary.contains("to move"), "{summary}");
    let legal = run(&t.first, &["legal", "game.pbem"]);
    assert!(legal.starts_with("S1, Red: Red's key is due"), "{legal}");
    assert!(legal.contains("herald keygen --side Red"), "{legal}");
    // Blue's set-up now is refused: usage, naming Red and keygen, and
    // nothing is written.
    let before = std::fs::read_to_string(t.first.join("game.pbem")).unwrap();
    let err = fails(
        &t.first,
        &[
            "setup",
            "game.pbem",
            "--key",
            "my.key",
            "--army",
            BLUE_ARMY,
            "--throws",
            BLUE_THROWS,
        ],
        2,
    );
    assert!(err.contains("S1 cannot be written yet"), "{err}");
    assert!(err.contains("Red has no Commit tag"), "{err}");
    assert!(err.contains("herald keygen --side Red game.pbem"), "{err}");
    assert_eq!(
        std::fs::read_to_string(t.first.join("game.pbem")).unwrap(),
        before
    );
    // Red adds its key (the game has not started), then the set-up runs.
    mail(&t.first, &t.second);
    run(
        &t.second,
        &["keygen", "--side", "Red", "game.pbem", "-o", "my.key"],
    );
    assert_eq!(
        step(&t.second),
        ("Blue".into(), "S1".into(), "commit".into())
    );
    // Red's set-up before Blue's is refused, naming Blue's step: a step
    // the game does not take now (exit 1).
    let err = fails(
        &t.second,
        &[
            "setup",
            "game.pbem",
            "--key",
            "my.key",
            "--army",
            RED_ARMY,
            "--throws",
            RED_THROWS,
        ],
        1,
    );
    assert!(err.contains("S1 is Blue's, its commitments"), "{err}");
    assert!(err.contains("Blue runs herald setup first"), "{err}");
    mail(&t.second, &t.first);
    run(
        &t.first,
        &[
            "setup",
            "game.pbem",
            "--key",
            "my.key",
            "--army",
            BLUE_ARMY,
            "--throws",
            BLUE_THROWS,
        ],
    );
    mail(&t.first, &t.second);
    assert_eq!(
        step(&t.second),
        ("Red".into(), "S2".into(), "commit".into())
    );
    let check = run(&t.second, &["check", "game.pbem"]);
    assert!(check.contains("S2 is Red's, its commitments"), "{check}");
    assert!(!check.contains("Blue to move"), "{check}");
    run(
        &t.second,
        &[
            "setup",
            "game.pbem",
            "--key",
            "my.key",
            "--army",
            RED_ARMY,
            "--throws",
            RED_THROWS,
        ],
    );
    mail(&t.second, &t.first);
    assert_eq!(step(&t.first), ("Blue".into(), "S3".into(), "open".into()));
    run(&t.first, &["setup", "game.pbem", "--key", "my.key"]);
    mail(&t.first, &t.second);
    run(&t.second, &["setup", "game.pbem", "--key", "my.key"]);
    let s = status(&t.second);
    assert_eq!(s["phase"], "play");
    // The throws' t3 gives Blue the first turn.
    assert_eq!(s["step"]["step"], "turn");
    assert_eq!(s["step"]["line"], "turn 1");
    assert_eq!(s["step"]["side"], "Blue");
}

#[test]
fn battlegates_setup_before_the_other_sides_keygen_is_refused_and_the_game_goes_on() {
    let t = two(
        "battlegates",
        ["South", "North"],
        &["--option", "Hands=open"],
    );
    assert_eq!(
        step(&t.first),
        ("North".into(), "S1".into(), "keygen".into())
    );
    let err = fails(
        &t.first,
        &[
            "setup",
            "game.pbem",
            "--key",
            "my.key",
            "--maze",
            SOUTH_MAZE,
        ],
        2,
    );
    assert!(err.contains("North has no Commit tag"), "{err}");
    assert!(err.contains("herald keygen --side North"), "{err}");
    mail(&t.first, &t.second);
    run(
        &t.second,
        &["keygen", "--side", "North", "game.pbem", "-o", "my.key"],
    );
    mail(&t.second, &t.first);
    run(
        &t.first,
        &[
            "setup",
            "game.pbem",
            "--key",
            "my.key",
            "--maze",
            SOUTH_MAZE,
        ],
    );
    mail(&t.first, &t.second);
    run(
        &t.second,
        &[
            "setup",
            "game.pbem",
            "--key",
            "my.key",
            "--maze",
            NORTH_MAZE,
        ],
    );
    mail(&t.second, &t.first);
    run(&t.first, &["setup", "game.pbem", "--key", "my.key"]);
    mail(&t.first, &t.second);
    run(&t.second, &["setup", "game.pbem", "--key", "my.key"]);
    let s = status(&t.second);
    assert_eq!(s["phase"], "play");
    assert_eq!(s["step"]["step"], "turn");
}

/// A set-up line written before every side's Commit tag (as herald let
/// happen before): `check` refuses it, naming the side without a key,
/// instead of saying OK to a game nobody can go on with.
#[test]
fn a_setup_line_before_every_sides_key_is_refused_by_check() {
    let t = two("playground-battles", ["Blue", "Red"], &[]);
    mail(&t.first, &t.second);
    run(
        &t.second,
        &["keygen", "--side", "Red", "game.pbem", "-o", "my.key"],
    );
    mail(&t.second, &t.first);
    run(
        &t.first,
        &[
            "setup",
            "game.pbem",
            "--key",
            "my.key",
            "--army",
            BLUE_ARMY,
            "--throws",
            BLUE_THROWS,
        ],
    );
    // Red's tags taken out of the header again: the stuck shape.
    let record = std::fs::read_to_string(t.first.join("game.pbem")).unwrap();
    let stuck: String = record
        .lines()
        .filter(|l| !l.starts_with("[RedCommit ") && !l.starts_with("[RedKey "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(stuck, record);
    std::fs::write(t.first.join("game.pbem"), stuck).unwrap();
    let error = refused(&t.first);
    assert_eq!(error["kind"], "illegal");
    assert_eq!(error["setup_line"], 1);
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("Red has no Commit tag"), "{message}");
    assert!(message.contains("herald keygen --side Red"), "{message}");
}
