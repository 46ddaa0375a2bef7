//! A seat taken before turn 1, by email (issue 28, spec section 3.7):
//! Battle of the Dale for three, each player in their own directory with
//! their own key file, by `.eml` messages only. Elf's player writes its
//! own key, then a second key file for Goblin and a key message for
//! Goblin with it (From Goblin's address). Goblin's own key went out in
//! its own message. Goblin's key file refuses the impostor's copy in
//! every command (exit 1, saying another key was written for Goblin and
//! that copy must not be played); Goblin's own copy is its game.

mod common;
use common::{fails, run};

use std::path::{Path, PathBuf};

/// Mail `name` from `from` to `to`.
fn mail(from: &Path, to: &Path, name: &str) {
    std::fs::copy(from.join(name), to.join(name)).unwrap();
}

struct Table {
    _root: tempfile::TempDir,
    elf: PathBuf,
    goblin: PathBuf,
}

/// Human's first message `m1.eml`; Elf's key (`e1.eml`), then Elf's
/// second key message, for Goblin with `fake-goblin.key` (`e2.eml`);
/// Goblin's own key message (`g.eml`). Everything mailed to Goblin.
fn seat_taken() -> Table {
    let root = tempfile::tempdir().unwrap();
    let dir = |who: &str| {
        let d = root.path().join(who);
        std::fs::create_dir(&d).unwrap();
        d
    };
    let (human, elf, goblin) = (dir("ann"), dir("eve"), dir("gus"));
    run(
        &human,
        &[
            "new",
            "battle-of-the-dale",
            "--side",
            "Human=ann@herald.test",
            "--side",
            "Elf=eve@herald.test",
            "--side",
            "Goblin=gus@herald.test",
            "--key",
            "human.key",
            "--reply",
            "-o",
            "m1.eml",
        ],
    );
    mail(&human, &elf, "m1.eml");
    mail(&human, &goblin, "m1.eml");
    run(
        &goblin,
        &[
            "keygen",
            "--side",
            "Goblin",
            "m1.eml",
            "--key",
            "goblin.key",
            "--reply",
            "-o",
            "g.eml",
        ],
    );
    run(
        &elf,
        &[
            "keygen", "--side", "Elf", "m1.eml", "--key", "elf.key", "--reply", "-o", "e1.eml",
        ],
    );
    run(
        &elf,
        &[
            "keygen",
            "--side",
            "Goblin",
            "e1.eml",
            "--key",
            "fake-goblin.key",
            "--reply",
            "-o",
            "e2.eml",
        ],
    );
    mail(&elf, &goblin, "e2.eml");
    Table {
        _root: root,
        elf,
        goblin,
    }
}

/// `err` says Goblin's key in the copy is not Goblin's, that another key
/// was written for Goblin and the copy must not be played.
fn says_another_key(err: &str) {
    assert!(
        err.contains("this copy's GoblinKey tag is not your key"),
        "{err}"
    );
    assert!(err.contains("another key was written for Goblin"), "{err}");
    assert!(err.contains("this copy must not be played"), "{err}");
    assert!(!err.contains("drop --key"), "{err}");
}

#[test]
fn a_copy_with_another_key_for_your_side_is_refused_by_check_with_your_key() {
    let t = seat_taken();
    let err = fails(&t.goblin, &["check", "e2.eml", "--key", "goblin.key"], 1);
    says_another_key(&err);
    // Goblin's own copy is the game its key file was made for.
    let ok = run(&t.goblin, &["check", "g.eml", "--key", "goblin.key"]);
    assert!(ok.contains("OK"), "{ok}");
    // The impostor's own key file reads its copy as its own.
    run(&t.elf, &["check", "e2.eml", "--key", "fake-goblin.key"]);
}

#[test]
fn a_copy_with_another_key_for_your_side_is_refused_by_legal_and_move() {
    let t = seat_taken();
    let key = std::fs::read(t.goblin.join("goblin.key")).unwrap();
    let err = fails(&t.goblin, &["legal", "e2.eml", "--key", "goblin.key"], 1);
    says_another_key(&err);
    let err = fails(
        &t.goblin,
        &[
            "move",
            "e2.eml",
            "pass",
            "--key",
            "goblin.key",
            "--reply",
            "-o",
            "t.eml",
        ],
        1,
    );
    says_another_key(&err);
    assert!(!t.goblin.join("t.eml").exists());
    assert_eq!(std::fs::read(t.goblin.join("goblin.key")).unwrap(), key);
}
