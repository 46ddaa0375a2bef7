//! A copy stripped of its keys, by email (issue 28, spec section 3.8):
//! Blue and Red of Castle Danger, each in their own directory with their
//! own key file, by `.eml` messages only. Red has written no line yet
//! (only its key went out, with `keygen --reply`), so its key file
//! remembers no line; what it knows (the game, Red's side, a protocol
//! that binds every side's key) is enough: a copy of Blue's message
//! whose Commit and Key tags and signatures were taken out is refused by
//! Red's `check --key` and `move --key`, exit 1, and never with the
//! advice to drop `--key`.

mod common;
use common::{castle_danger_keyed, castle_danger_turn_one, fails, mail, run};

use std::path::Path;

/// The message `text` stripped of every Commit and Key tag (a long tag
/// is folded over two lines in a message), every `reveal` and every `sig`
/// item (a signature goes on over a second line), and of the tags named
/// in `also`.
fn stripped(text: &str, also: &[&str]) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let keys = t.starts_with('[')
            && t[1..]
                .split([' ', ']'])
                .next()
                .is_some_and(|n| n.ends_with("Commit") || n.ends_with("Key"));
        if keys {
            if !t.ends_with(']') {
                lines.next();
            }
            continue;
        }
        if t.starts_with("sig ") {
            lines.next();
            continue;
        }
        if t.starts_with("reveal ") || also.iter().any(|a| t.starts_with(&format!("[{a} "))) {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Red's answers to the stripped copy `name` (in Red's directory):
/// `check --key` and `move --key --reply` both refused, exit 1, saying the
/// record lost the keys its protocol requires, never to drop `--key`;
/// no reply written and the key file as it was.
fn refused_by_red(red: &Path, name: &str) {
    let key = std::fs::read(red.join("my.key")).unwrap();
    let checked = fails(red, &["check", name, "--key", "my.key"], 1);
    let moved = fails(
        red,
        &[
            "move", name, "Kc9-b9", "--key", "my.key", "--reply", "-o", "c4.eml",
        ],
        1,
    );
    for err in [&checked, &moved] {
        assert!(
            err.contains("this record holds no RedKey tag, yet your key file was made for Red"),
            "{err}"
        );
        assert!(
            err.contains("the record was stripped of the Commit and Key tags and the signatures its protocol requires"),
            "{err}"
        );
        assert!(!err.contains("drop --key"), "{err}");
    }
    assert!(!red.join("c4.eml").exists());
    assert_eq!(std::fs::read(red.join("my.key")).unwrap(), key);
}

#[test]
fn a_copy_stripped_of_its_keys_is_refused_by_a_player_who_has_written_no_line() {
    let p = castle_danger_turn_one();
    let text = std::fs::read_to_string(p.red.join("c3.eml")).unwrap();
    let copy = stripped(&text, &[]);
    assert!(copy.contains("[Protocol \"3\"]"), "{copy}");
    assert!(!copy.contains("Key \"") && !copy.contains("sig "), "{copy}");
    std::fs::write(p.red.join("stripped.eml"), &copy).unwrap();
    // Read without a key, the copy is a game played without keys.
    run(&p.red, &["check", "stripped.eml"]);
    refused_by_red(&p.red, "stripped.eml");
    // The message as it was sent is answered as ever.
    run(&p.red, &["check", "c3.eml", "--key", "my.key"]);
    run(
        &p.red,
        &[
            "move", "c3.eml", "Kc9-b9", "--key", "my.key", "--reply", "-o", "c4.eml",
        ],
    );
    mail(&p.red, &p.blue, "c4.eml");
    run(&p.blue, &["check", "c4.eml", "--key", "my.key"]);
}

#[test]
fn a_copy_stripped_of_its_keys_and_protocol_tag_is_refused_never_told_to_drop_the_key() {
    let p = castle_danger_turn_one();
    let text = std::fs::read_to_string(p.red.join("c3.eml")).unwrap();
    let copy = stripped(&text, &["Protocol"]);
    assert!(!copy.contains("[Protocol "), "{copy}");
    std::fs::write(p.red.join("bare.eml"), &copy).unwrap();
    run(&p.red, &["check", "bare.eml"]);
    refused_by_red(&p.red, "bare.eml");
    // Blue's key file, which wrote turn 1, refuses the copy by what it
    // remembers of it.
    std::fs::write(p.blue.join("bare.eml"), &copy).unwrap();
    let err = fails(&p.blue, &["check", "bare.eml", "--key", "my.key"], 1);
    assert!(
        err.contains(
            "this key file has played Blue in a game whose header this record does not have"
        ),
        "{err}"
    );
    assert!(!err.contains("drop --key"), "{err}");
}

/// Under protocol 3 a game is signed by every side or by none once play
/// began: a copy with Blue's tags kept and Red's taken out is refused by
/// Red's key file the same way, never with the advice to drop `--key`.
#[test]
fn a_copy_stripped_of_one_sides_keys_is_refused_by_that_sides_key_file() {
    let p = castle_danger_turn_one();
    let text = std::fs::read_to_string(p.red.join("c3.eml")).unwrap();
    let copy: String = text
        .lines()
        .filter(|l| !l.starts_with("[RedCommit ") && !l.starts_with("[RedKey "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        copy.contains("[BlueKey ") && !copy.contains("[RedKey "),
        "{copy}"
    );
    std::fs::write(p.red.join("red-stripped.eml"), &copy).unwrap();
    refused_by_red(&p.red, "red-stripped.eml");
}

/// Before any line (the keys' phase), a copy of the last key message
/// stripped of every Commit and Key tag reads as a game without keys; the
/// key file that made Blue's key for this very game, which has written no
/// line yet, refuses it (exit 1): the line would go out unsigned. It says
/// the copy was stripped of Blue's keys and what works instead, never to
/// drop `--key`.
#[test]
fn a_copy_stripped_of_its_keys_before_any_line_is_refused_by_a_key_file_that_wrote_none() {
    let p = castle_danger_keyed();
    let text = std::fs::read_to_string(p.blue.join("c2.eml")).unwrap();
    let copy = stripped(&text, &[]);
    assert!(
        !copy.contains("[BlueCommit") && !copy.contains("[BlueKey") && !copy.contains("[RedKey"),
        "{copy}"
    );
    std::fs::write(p.blue.join("stripped.eml"), &copy).unwrap();
    run(&p.blue, &["check", "stripped.eml"]);
    let key = std::fs::read(p.blue.join("my.key")).unwrap();
    let err = fails(
        &p.blue,
        &[
            "move",
            "stripped.eml",
            "Kc1-b1",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "c3.eml",
        ],
        1,
    );
    let err = err.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        err.contains("this copy holds no BlueCommit or BlueKey tag, yet my.key was made for Blue in this very game, whose protocol binds every side's key: the copy was stripped of Blue's keys"),
        "{err}"
    );
    assert!(
        err.contains("ask for the record as it was sent, and check that copy with herald check RECORD --key my.key; nothing was written"),
        "{err}"
    );
    assert!(!err.contains("drop --key"), "{err}");
    assert!(!p.blue.join("c3.eml").exists());
    assert_eq!(std::fs::read(p.blue.join("my.key")).unwrap(), key);
    // The copy as it was sent is answered as ever.
    run(&p.blue, &["check", "c2.eml", "--key", "my.key"]);
    run(
        &p.blue,
        &[
            "move", "c2.eml", "Kc1-b1", "--key", "my.key", "--reply", "-o", "c3.eml",
        ],
    );
}

/// Review round 6, 15: a copy of Blue's message with `GreenCommit` and
/// `GreenKey` tags added (Green is no side of Castle Danger) is refused
/// at the header by `check` (exit 1, at the first of them, line and
/// column), as a Key tag of a side missing from the header is, and by
/// Red's `move`: nothing rides along unchecked.
#[test]
fn key_tags_of_a_name_that_is_no_side_of_the_game_are_refused_at_the_header() {
    let p = castle_danger_turn_one();
    let text = std::fs::read_to_string(p.red.join("c3.eml")).unwrap();
    let hex = "3e850b6d3cd53c0211e65350397dda7bf8f83dfd73ed706a79f8f9b7cfdd8e4c";
    let copy = text.replacen(
        "[Result \"*\"]",
        &format!("[GreenCommit \"{hex}\"]\n[GreenKey \"{hex}\"]\n[Result \"*\"]"),
        1,
    );
    assert_ne!(copy, text);
    let line = copy
        .lines()
        .position(|l| l.starts_with("[GreenCommit "))
        .unwrap()
        + 1;
    std::fs::write(p.red.join("green.eml"), &copy).unwrap();
    let err = fails(&p.red, &["check", "green.eml"], 1);
    assert!(err.contains(&format!("green.eml:{line}:1")), "{err}");
    assert!(
        err.contains("Green is not a side of Castle Danger: GreenCommit is a side's key tag (herald keygen writes it), and the sides are Blue, Red"),
        "{err}"
    );
    let moved = fails(
        &p.red,
        &[
            "move",
            "green.eml",
            "Kc9-b9",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "c4.eml",
        ],
        1,
    );
    assert!(
        moved.contains("Green is not a side of Castle Danger"),
        "{moved}"
    );
    assert!(!p.red.join("c4.eml").exists());
}

/// `show --key`, `legal --key` and `fate --key` on a stripped copy say it
/// was stripped of the player's keys, in the words `move --key` uses
/// (exit 1), never that the key file was made for another game: before
/// any line (Blue's key file, which wrote none, on Red's key message
/// stripped; Red's key file on the same copy is told of Red's keys,
/// never Blue's), and after a line (Red's key file on Blue's turn 1
/// stripped, in the words `check --key` uses too).
#[test]
fn show_and_legal_with_the_key_say_a_stripped_copy_was_stripped_as_move_does() {
    let p = castle_danger_keyed();
    let text = std::fs::read_to_string(p.blue.join("c2.eml")).unwrap();
    let copy = stripped(&text, &[]);
    for dir in [&p.blue, &p.red] {
        std::fs::write(dir.join("stripped.eml"), &copy).unwrap();
    }
    let words = |err: &str| err.split_whitespace().collect::<Vec<_>>().join(" ");
    for (dir, side, turn) in [(&p.blue, "Blue", "Kc1-b1"), (&p.red, "Red", "Kc9-b9")] {
        let said = format!(
            "this copy holds no {side}Commit or {side}Key tag, yet my.key was made for {side} in this very game, whose protocol binds every side's key: the copy was stripped of {side}'s keys"
        );
        for args in [
            &[
                "move",
                "stripped.eml",
                turn,
                "--key",
                "my.key",
                "--reply",
                "-o",
                "x.eml",
            ][..],
            &["show", "stripped.eml", "--key", "my.key"],
            &["legal", "stripped.eml", "--key", "my.key"],
            &["fate", "stripped.eml", "--key", "my.key"],
        ] {
            let err = words(&fails(dir, args, 1));
            assert!(err.contains(&said), "{args:?}: {err}");
            assert!(!err.contains("another game"), "{args:?}: {err}");
        }
        assert!(!dir.join("x.eml").exists());
    }
    // After Blue's turn 1: Red's key file, which wrote no line, is told
    // as check --key and move --key tell it.
    let p = castle_danger_turn_one();
    let text = std::fs::read_to_string(p.red.join("c3.eml")).unwrap();
    std::fs::write(p.red.join("stripped.eml"), stripped(&text, &[])).unwrap();
    refused_by_red(&p.red, "stripped.eml");
    for command in ["show", "legal"] {
        let err = fails(&p.red, &[command, "stripped.eml", "--key", "my.key"], 1);
        assert!(
            err.contains("this record holds no RedKey tag, yet your key file was made for Red")
                && err.contains("the record was stripped of the Commit and Key tags and the signatures its protocol requires"),
            "{command}: {err}"
        );
    }
}

/// `check --key` on a copy with no line yet that carries no key of the
/// key file's side says OK (it is a true record: the player's own
/// message from before its key was added, checked again, is one), and
/// says what it saw: the copy carries no key of that side's, `move`,
/// `show` and `legal` with the key file refuse it, and the command that
/// adds the same key again, which works as printed (docs/protocol.md,
/// section 3.8, "A copy without the side's key").
#[test]
fn check_with_the_key_says_ok_of_a_copy_without_the_sides_key_and_names_what_to_do() {
    let p = castle_danger_keyed();
    let words = |text: String| text.split_whitespace().collect::<Vec<_>>().join(" ");
    // Blue's first message, from before Red's key: Red checks it.
    let said = words(run(&p.red, &["check", "c1.eml", "--key", "my.key"]));
    assert!(
        said.starts_with("c1.eml: OK: Castle Danger, 0 turns"),
        "{said}"
    );
    assert!(
        said.contains("Note: this copy carries no key of Red's (no RedCommit or RedKey tag): it is a copy from before Red's key was added, or one stripped of it, and move, show and legal with my.key refuse it; play on the copy that holds Red's key, or add it again, the same key: herald keygen --side Red c1.eml --key my.key --reply -o reply.eml"),
        "{said}"
    );
    // As printed, it adds the same key again.
    let out = run(
        &p.red,
        &[
            "keygen",
            "--side",
            "Red",
            "c1.eml",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "reply.eml",
        ],
    );
    assert!(out.contains("holds"), "the same key joins again: {out}");
    let again = run(&p.red, &["extract", "reply.eml"]);
    let sent = run(&p.red, &["extract", "c2.eml"]);
    assert_eq!(again, sent);
    // A copy stripped of Blue's keys, checked by Blue: the same note, and
    // `move` refuses it.
    let text = std::fs::read_to_string(p.blue.join("c2.eml")).unwrap();
    std::fs::write(p.blue.join("stripped.eml"), stripped(&text, &[])).unwrap();
    let said = words(run(&p.blue, &["check", "stripped.eml", "--key", "my.key"]));
    assert!(
        said.contains("Note: this copy carries no key of Blue's (no BlueCommit or BlueKey tag)"),
        "{said}"
    );
    fails(
        &p.blue,
        &[
            "move",
            "stripped.eml",
            "Kc1-b1",
            "--key",
            "my.key",
            "--dry-run",
        ],
        1,
    );
    // The copy that holds the side's key: no note.
    for (dir, message) in [(&p.red, "c2.eml"), (&p.blue, "c2.eml")] {
        let said = run(dir, &["check", message, "--key", "my.key"]);
        assert!(!said.contains("carries no key"), "{said}");
    }
}
