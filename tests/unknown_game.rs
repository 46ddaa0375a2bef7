//! A game herald does not play, through the real binary: every command
//! that reads a record gives the one error of `games::UnknownGame`, as a
//! record error at the `Game` tag's value (line:column, exit 1), and
//! changes no file; a game named on the command line (`new GAME`) is a
//! usage error (exit 2) listing the games.

use std::fs;
use std::path::Path;

use serde_json::Value;
use tempfile::TempDir;

mod common;
use common::{herald, run};

/// The reason every command gives for `[Game "chess"]`: the id, and the
/// games of the registry in its order (`herald::games::GAME_IDS`).
const REASON: &str = "unknown game `chess`: herald plays castle-danger, battle-of-the-dale, \
                      breach-the-keep, playground-battles, battlegates";

/// A Castle Danger record but for its Game tag: the value `chess` starts
/// at line 1, column 8 (after `[Game "`).
const RECORD: &str = "[Game \"chess\"]\n\
                      [Blue \"ann@example.org\"]\n\
                      [Red \"bob@example.org\"]\n\
                      [Result \"*\"]\n\
                      \n\
                      1. Blue: pass\n";

/// A directory holding `chess.pbem` (the record above), `chess.eml`
/// (the record in a message, its Game tag on line 5) and `chess.mbox`
/// (that message in a mailbox: line 6 of message 1).
fn games_dir() -> TempDir {
    let dir = TempDir::new().unwrap();
    let message =
        format!("From: ann@example.org\nTo: bob@example.org\nSubject: our game\n\n{RECORD}");
    fs::write(dir.path().join("chess.pbem"), RECORD).unwrap();
    fs::write(dir.path().join("chess.eml"), &message).unwrap();
    fs::write(
        dir.path().join("chess.mbox"),
        format!("From ann@example.org Sat Nov 28 10:00:00 2026\n{message}"),
    )
    .unwrap();
    dir
}

/// `herald ARGS` in `dir`: it must exit 1 with the reason, placed at
/// `place` (`chess.pbem:1:8`) and underlined, and leave every file as it
/// was.
fn refused_at_the_game_tag(dir: &Path, args: &[&str], place: &str) {
    let before = files(dir);
    let out = herald(dir).args(args).output().unwrap();
    // `check --all` prints each record's verdict on standard output, the
    // others their error on standard error.
    let err = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1), "herald {args:?}: {err}");
    assert!(
        err.contains(&format!("error[record]: {REASON}")),
        "herald {args:?}: {err}"
    );
    assert!(
        err.contains(&format!("--> {place}\n")),
        "herald {args:?}: {err}"
    );
    assert!(
        err.contains("[Game \"chess\"]\n  |        ^^^^^"),
        "herald {args:?}: {err}"
    );
    assert_eq!(files(dir), before, "herald {args:?} changed a file");
}

/// Every file of `dir`, name and bytes, sorted.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            (
                e.file_name().into_string().unwrap(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

#[test]
fn every_reader_refuses_an_unknown_game_at_its_game_tag() {
    let dir = games_dir();
    for args in [
        &["check", "chess.pbem"][..],
        &["show", "chess.pbem"],
        &["show", "chess.pbem", "--turn", "1"],
        &["legal", "chess.pbem"],
        &["annotate", "chess.pbem"],
        &["replay", "chess.pbem"],
        &["fate", "chess.pbem"],
        &["extract", "chess.pbem"],
    ] {
        refused_at_the_game_tag(dir.path(), args, "chess.pbem:1:8");
    }
}

#[test]
fn check_all_refuses_an_unknown_game_at_its_game_tag() {
    let dir = games_dir();
    refused_at_the_game_tag(
        dir.path(),
        &["check", "--all", "chess.pbem"],
        "chess.pbem:1:8",
    );
    refused_at_the_game_tag(
        dir.path(),
        &["check", "--all", "chess.mbox"],
        "chess.mbox, message 1:6:8",
    );
}

#[test]
fn a_message_or_mailbox_with_an_unknown_game_is_refused_at_its_game_tag() {
    let dir = games_dir();
    refused_at_the_game_tag(dir.path(), &["check", "chess.eml"], "chess.eml:5:8");
    refused_at_the_game_tag(dir.path(), &["show", "chess.eml"], "chess.eml:5:8");
    refused_at_the_game_tag(
        dir.path(),
        &["check", "chess.mbox"],
        "chess.mbox, message 1:6:8",
    );
}

#[test]
fn writers_refuse_an_unknown_game_at_its_game_tag_and_write_nothing() {
    let dir = games_dir();
    // A key file of a real game, for the commands that need one.
    run(
        dir.path(),
        &[
            "new",
            "castle-danger",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "--key",
            "blue.key",
            "-o",
            "castle.pbem",
        ],
    );
    for args in [
        &["move", "chess.pbem", "pass"][..],
        &["move", "chess.pbem", "pass", "--key", "blue.key"],
        &["keygen", "--side", "Blue", "chess.pbem", "-o", "new.key"],
        &["setup", "chess.pbem", "--key", "blue.key"],
        &["hand", "chess.pbem", "--key", "blue.key"],
    ] {
        refused_at_the_game_tag(dir.path(), args, "chess.pbem:1:8");
    }
}

#[test]
fn an_unknown_game_read_from_standard_input_is_refused_at_its_game_tag() {
    let dir = games_dir();
    let out = herald(dir.path())
        .args(["check", "-"])
        .write_stdin(RECORD)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("error[record]: {REASON}")), "{err}");
    assert!(err.contains(":1:8\n"), "{err}");
}

#[test]
fn an_unknown_game_in_json_is_a_record_error_at_the_game_tag() {
    let dir = games_dir();
    let out = herald(dir.path())
        .args(["check", "chess.pbem", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = &json["error"];
    assert_eq!(error["kind"], "record");
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(1), Some(8))
    );
    assert_eq!(error["message"], REASON);
    // check --all gives the same error for the record in the mailbox.
    let out = herald(dir.path())
        .args(["check", "--all", "chess.mbox", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = &json["records"][0]["error"];
    assert_eq!(error["kind"], "record");
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(6), Some(8))
    );
    assert_eq!(error["message"], REASON);
}

#[test]
fn an_unknown_game_on_the_command_line_is_a_usage_error_listing_the_games() {
    let dir = TempDir::new().unwrap();
    let out = herald(dir.path())
        .args([
            "new", "chess", "--side", "Blue=a@x", "--side", "Red=b@x", "-o", "g.pbem",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("invalid value 'chess' for '<GAME>'"), "{err}");
    assert!(
        err.contains(
            "[possible values: castle-danger, battle-of-the-dale, breach-the-keep, \
             playground-battles, battlegates]"
        ),
        "{err}"
    );
    assert!(files(dir.path()).is_empty(), "nothing written");
}

#[test]
fn the_inbox_lists_a_message_of_an_unknown_game_as_rejected_at_its_game_tag() {
    let dir = games_dir();
    let d = dir.path();
    let config = format!(
        "sendmail = \"/usr/sbin/sendmail\"\nmbox = \"{}\"\n[account]\naddress = \"bob@example.org\"\n",
        d.join("chess.mbox").display()
    );
    fs::write(d.join("config.toml"), config).unwrap();
    let out = herald(d)
        .env("HERALD_CONFIG", d.join("config.toml"))
        .env("HERALD_STATE_DIR", d.join("state"))
        .args(["inbox", "--format", "json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{json:#}");
    assert_eq!(json["games"].as_array().map(Vec::len), Some(0), "{json:#}");
    let rejected = &json["rejected"][0];
    assert_eq!(rejected["game"], "chess", "{json:#}");
    let verdict = rejected["verdict"].as_str().unwrap();
    assert!(verdict.contains(REASON), "{verdict}");
    // Placed in the message itself, whose Game tag is on its line 5.
    assert!(verdict.contains("):5:8\n"), "{verdict}");
}
