//! What a key file saw, by email (issue 28, spec section 3.8): Blue and
//! Red of Castle Danger each in their own directory with their own key
//! file, by .eml messages. A copy that parts from the record a player's
//! key file checked (an opponent's take-back, written with a key file
//! restored from before its turn) is refused by every command that reads
//! it with that key file, with the same words: never looked at as if it
//! were the game.

mod common;
use common::{castle_danger_keyed, fails, mail, run};

use std::path::Path;

/// `herald move ON TURN --key my.key --reply -o OUT` in `dir`.
fn answer(dir: &Path, on: &str, turn: &str, out: &str) {
    run(
        dir,
        &["move", on, turn, "--key", "my.key", "--reply", "-o", out],
    );
}

/// Review round 6, 07: Red plays turn 4 (c6.eml), which Blue checks with
/// its key file; Red restores its key file from before turn 4 and mails
/// another turn 4 (c6b.eml). Blue's `check --key`, `legal --key`, `show
/// --key` and `move` all refuse it as the fork it is, exit 1, with the
/// same words naming both turn 4s; nothing is written.
#[test]
fn every_reader_with_a_key_file_refuses_a_copy_that_parts_from_what_it_saw() {
    let p = castle_danger_keyed();
    let (blue, red) = (&p.blue, &p.red);
    answer(blue, "c2.eml", "+C, Kc1-b1", "c3.eml");
    mail(blue, red, "c3.eml");
    answer(red, "c3.eml", "Kc9-b9", "c4.eml");
    mail(red, blue, "c4.eml");
    answer(blue, "c4.eml", "Cd1-d2-d3", "c5.eml");
    mail(blue, red, "c5.eml");
    std::fs::copy(red.join("my.key"), red.join("before.key")).unwrap();
    answer(red, "c5.eml", "Kb9-b8", "c6.eml");
    mail(red, blue, "c6.eml");
    run(blue, &["check", "c6.eml", "--key", "my.key"]);
    // The take-back: Red's key file from before turn 4, another turn 4.
    std::fs::copy(red.join("before.key"), red.join("my.key")).unwrap();
    answer(red, "c5.eml", "Kb9-a9", "c6b.eml");
    mail(red, blue, "c6b.eml");
    let key = std::fs::read(blue.join("my.key")).unwrap();
    let words = "this record is a fork: Red wrote two lines that answer the same record, `4. Red: Kb9-b8` in the record your key file checked and `4. Red: Kb9-a9` here: a side answers a record once, so do not accept this copy (nor answer it)";
    let checked = fails(blue, &["check", "c6b.eml", "--key", "my.key"], 1);
    assert!(checked.contains(words), "{checked}");
    for args in [
        &["legal", "c6b.eml", "--key", "my.key"][..],
        &["show", "c6b.eml", "--key", "my.key"],
        &[
            "move", "c6b.eml", "Kb1-a1", "--key", "my.key", "--reply", "-o", "c7.eml",
        ],
    ] {
        let err = fails(blue, args, 1);
        assert!(err.contains(words), "{args:?}: {err}");
    }
    // JSON says it in its error object, on standard output.
    let out = common::herald(blue)
        .args(["show", "c6b.eml", "--key", "my.key", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shown["ok"], false, "{shown}");
    assert!(shown["error"].to_string().contains(words), "{shown}");
    assert!(!blue.join("c7.eml").exists(), "nothing written");
    assert_eq!(std::fs::read(blue.join("my.key")).unwrap(), key);
    // Without the key file, the copy reads as a game (nothing tells it
    // from the one Blue saw); with it, the copy Blue saw is answered.
    run(blue, &["show", "c6b.eml"]);
    run(blue, &["legal", "c6.eml", "--key", "my.key"]);
    answer(blue, "c6.eml", "Kb1-a1", "c7.eml");
}

/// Review round 6, 01: Blue plays turn 1 on Red's key message (c3.eml),
/// then runs `move` on its own first message, c1.eml, which lacks Red's
/// key (the wrong mail, or a lost reply resent from the wrong one). The
/// record digest is the same before turn 1 in both, but the line would go
/// out without Red's key, on a game Red can no longer join: refused, exit
/// 1, naming the message to resend; nothing written. On c2.eml the same
/// turn is the lost reply, written again.
#[test]
fn a_resend_on_an_older_copy_without_a_sides_key_is_refused_naming_the_newer_message() {
    let p = castle_danger_keyed();
    let blue = &p.blue;
    answer(blue, "c2.eml", "+C, Kc1-b1", "c3.eml");
    let key = std::fs::read(blue.join("my.key")).unwrap();
    let err = fails(
        blue,
        &[
            "move",
            "c1.eml",
            "+C, Kc1-b1",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "x.eml",
        ],
        1,
    );
    let words = err.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("you answered a newer copy of this game already: your turn 1 was written on a copy that holds Red's key, and this one lacks it (an older message, your own first one perhaps): resend c3.eml, the message your turn 1 went out in; nothing was written"),
        "{words}"
    );
    assert!(!blue.join("x.eml").exists(), "nothing written");
    assert_eq!(std::fs::read(blue.join("my.key")).unwrap(), key);
    // On the message it answered, the same turn is the lost reply again,
    // Red's key in it.
    answer(blue, "c2.eml", "+C, Kc1-b1", "again.eml");
    let again = std::fs::read_to_string(blue.join("again.eml")).unwrap();
    assert!(again.contains("[RedKey "), "{again}");
}
