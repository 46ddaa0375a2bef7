//! Battle of the Dale by .eml messages, three players each in their own
//! directory with their own key file: the Human starts the game (`new
//! --key --reply`, d1.eml to both others), and the Elf and the Goblin
//! each add their key on d1.eml at the same time (`keygen --reply`).
//! Neither reply holds the other's key; a mailbox holding both is one
//! game, the union of their Key and Commit tags (docs/protocol.md 3.7,
//! "Keys added at once"), and play goes on from it. Two different keys
//! for one side are a real fork, refused with the side named.

mod common;
use common::{fails, json, mail, run};

use std::path::{Path, PathBuf};

struct Table {
    _root: tempfile::TempDir,
    human: PathBuf,
    elf: PathBuf,
    goblin: PathBuf,
}

/// The Human's d1.eml, answered at once by the Elf (d2e.eml) and the
/// Goblin (d2g.eml), both replies mailed to every player.
fn keys_added_at_once() -> Table {
    let (root, [human, elf, goblin]) =
        common::dale_three_started("example.org", "my.key", "d1.eml");
    for (d, side, out) in [(&elf, "Elf", "d2e.eml"), (&goblin, "Goblin", "d2g.eml")] {
        run(
            d,
            &[
                "keygen", "--side", side, "d1.eml", "--key", "my.key", "--reply", "-o", out,
            ],
        );
    }
    for to in [&human, &goblin] {
        mail(&elf, to, "d2e.eml");
    }
    for to in [&human, &elf] {
        mail(&goblin, to, "d2g.eml");
    }
    Table {
        _root: root,
        human,
        elf,
        goblin,
    }
}

/// An mbox file in `dir` holding the messages `names`, in that order.
fn mailbox(dir: &Path, names: &[&str], out: &str) {
    let mut text = String::new();
    for name in names {
        let message = std::fs::read_to_string(dir.join(name)).unwrap();
        text.push_str("From herald@example.org Sat Nov 28 10:00:00 2026\n");
        text.push_str(&message.replace("\r\n", "\n"));
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
    }
    std::fs::write(dir.join(out), text).unwrap();
}

#[test]
fn keys_added_at_once_by_two_sides_are_one_game_in_a_mailbox() {
    let t = keys_added_at_once();
    for dir in [&t.human, &t.elf, &t.goblin] {
        // In either order: the union of both copies' keys.
        mailbox(dir, &["d2e.eml", "d2g.eml"], "eg.mbox");
        mailbox(dir, &["d2g.eml", "d2e.eml"], "ge.mbox");
        for input in ["eg.mbox", "ge.mbox"] {
            let status = json(dir, &["check", "--format", "json", input]);
            assert_eq!(status["ok"], true, "{status}");
            assert_eq!(status["to_move"], "Human", "{status}");
        }
    }
    // The Human plays turn 1 from the mailbox, and the Elf and the Goblin
    // read it with all three keys, from the message alone.
    let legal = json(
        &t.human,
        &["legal", "--format", "json", "eg.mbox", "--key", "my.key"],
    );
    let first = legal["actions"][0]["action"]
        .as_str()
        .unwrap_or("pass")
        .to_owned();
    run(
        &t.human,
        &[
            "move", "eg.mbox", &first, "--key", "my.key", "--reply", "-o", "d3.eml",
        ],
    );
    let record = run(&t.human, &["extract", "d3.eml"]);
    for tag in [
        "HumanKey",
        "ElfKey",
        "GoblinKey",
        "ElfCommit",
        "GoblinCommit",
    ] {
        assert!(
            record.contains(&format!("[{tag}\n")) || record.contains(&format!("[{tag} ")),
            "{tag} in {record}"
        );
    }
    for dir in [&t.elf, &t.goblin] {
        mail(&t.human, dir, "d3.eml");
        run(dir, &["check", "d3.eml", "--key", "my.key"]);
    }
}

#[test]
fn turn_one_on_one_of_two_key_messages_says_to_give_both_in_a_mailbox() {
    let t = keys_added_at_once();
    // d2e.eml alone lacks the Goblin's key, which is in d2g.eml.
    let err = fails(
        &t.human,
        &[
            "move", "d2e.eml", "R@A1", "--key", "my.key", "--reply", "-o", "d3.eml",
        ],
        1,
    );
    assert!(
        err.contains("Human has a HumanCommit tag and Goblin has none"),
        "{err}"
    );
    assert!(
        err.contains("give both messages in one mailbox file: they read as one game"),
        "{err}"
    );
    assert!(!t.human.join("d3.eml").exists());
    // Given both, as the message says, it goes on.
    mailbox(&t.human, &["d2e.eml", "d2g.eml"], "both.mbox");
    run(
        &t.human,
        &[
            "move",
            "both.mbox",
            "R@A1",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "d3.eml",
        ],
    );
    for dir in [&t.elf, &t.goblin] {
        mail(&t.human, dir, "d3.eml");
        run(dir, &["check", "d3.eml", "--key", "my.key"]);
    }
}

/// A pass (or any line) typed on one of the two key messages: the key
/// missing there is the first thing said, whose and how to add it (and
/// that both messages in one mailbox read as one game), never the pass's
/// own illegality first.
#[test]
fn a_pass_on_one_of_two_key_messages_names_the_missing_key_first() {
    let t = keys_added_at_once();
    for typed in ["pass", "R@A1"] {
        let err = fails(
            &t.human,
            &[
                "move", "d2e.eml", typed, "--key", "my.key", "--reply", "-o", "d3.eml",
            ],
            1,
        );
        assert!(
            err.starts_with("error[illegal]: turn 1 cannot be written yet: Human has a HumanCommit tag and Goblin has none"),
            "{typed}: {err}"
        );
        assert!(
            err.contains("add Goblin's with herald keygen --side Goblin first"),
            "{typed}: {err}"
        );
        assert!(
            err.contains("give both messages in one mailbox file"),
            "{typed}: {err}"
        );
        assert!(!err.contains("a pass is legal only"), "{typed}: {err}");
        assert!(!t.human.join("d3.eml").exists());
    }
}

#[test]
fn two_different_keys_for_one_side_added_at_once_are_refused_naming_the_side() {
    let t = keys_added_at_once();
    // A second Goblin key on d1.eml (another key file): a real fork.
    run(
        &t.goblin,
        &[
            "keygen",
            "--side",
            "Goblin",
            "d1.eml",
            "--key",
            "other.key",
            "--reply",
            "-o",
            "d2x.eml",
        ],
    );
    mail(&t.goblin, &t.human, "d2x.eml");
    mailbox(&t.human, &["d2e.eml", "d2g.eml", "d2x.eml"], "all.mbox");
    let err = fails(&t.human, &["check", "all.mbox"], 1);
    assert!(
        err.contains("two records of the game here disagree"),
        "{err}"
    );
    assert!(
        err.contains("two different keys for one side (Goblin)"),
        "{err}"
    );
    assert!(
        err.contains("GoblinCommit") || err.contains("GoblinKey"),
        "{err}"
    );
}
