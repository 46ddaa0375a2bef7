//! A seat taken before turn 1, by email (issue 28, spec section 3.7):
//! Battle of the Dale for three, each player in their own directory with
//! their own key file, by `.eml` messages only. Elf's player writes its
//! own key, then a second key file for Goblin and a key message for
//! Goblin with it (From Goblin's address). Goblin's own key went out in
//! its own message. Goblin's key file refuses the impostor's copy in
//! every command (exit 1, saying another key was written for Goblin and
//! that copy must not be played); Goblin's own copy is its game.

mod common;
use common::{fails, mail, run};

use std::path::{Path, PathBuf};

struct Table {
    _root: tempfile::TempDir,
    elf: PathBuf,
    goblin: PathBuf,
}

/// Human's first message `m1.eml`; Elf's key (`e1.eml`), then Elf's
/// second key message, for Goblin with `fake-goblin.key` (`e2.eml`);
/// Goblin's own key message (`g.eml`). Everything mailed to Goblin.
fn seat_taken() -> Table {
    let (root, [_human, elf, goblin]) =
        common::dale_three_started("herald.test", "human.key", "m1.eml");
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

/// `herald inbox --format json` for the player in `dir`, whose Maildir
/// (`Maildir/`) receives `messages` first, in that order; exit code and
/// JSON.
fn inbox_of(dir: &Path, address: &str, messages: &[&str]) -> (i32, serde_json::Value) {
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(dir.join("Maildir").join(sub)).unwrap();
    }
    std::fs::write(
        dir.join("config.toml"),
        format!(
            "sendmail = \"/bin/false\"\nmaildir = \"{}\"\n[account]\naddress = \"{address}\"\n",
            dir.join("Maildir").display()
        ),
    )
    .unwrap();
    for (k, name) in messages.iter().enumerate() {
        std::fs::copy(
            dir.join(name),
            dir.join("Maildir/new").join(format!("{k}.{name}")),
        )
        .unwrap();
    }
    let out = common::herald(dir)
        .env("HERALD_CONFIG", dir.join("config.toml"))
        .env("HERALD_STATE_DIR", dir.join("state"))
        .args(["inbox", "--format", "json"])
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "inbox: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), json)
}

#[test]
fn two_keys_for_one_side_are_a_conflict_in_every_inbox_never_a_tie_break() {
    let t = seat_taken();
    // Goblin's inbox, its own key first, then the impostor's copy (which
    // has more keys): neither is taken, both listed with the conflict,
    // and Goblin told to send its own key again.
    let (code, json) = inbox_of(&t.goblin, "gus@herald.test", &["g.eml", "e2.eml"]);
    // A copy not taken: exit 1, as for any copy the inbox refuses.
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["games"].as_array().unwrap().len(), 0, "{json}");
    let rejected = json["rejected"].as_array().unwrap();
    assert_eq!(rejected.len(), 2, "{json}");
    for r in rejected {
        let verdict = r["verdict"].as_str().unwrap();
        assert!(
            verdict
                .contains("key conflict: two copies of this game give Goblin two different keys"),
            "{verdict}"
        );
        assert!(
            verdict.contains("never the one with more keys"),
            "{verdict}"
        );
        assert!(
            verdict.contains("Goblin is yours")
                && verdict.contains("send your own key message again"),
            "{verdict}"
        );
    }
    // Elf's inbox the other way round (the impostor's copy first): the
    // same conflict, Goblin's player named as the one to answer.
    mail(&t.goblin, &t.elf, "g.eml");
    let (_, json) = inbox_of(&t.elf, "eve@herald.test", &["e2.eml", "g.eml"]);
    assert_eq!(json["games"].as_array().unwrap().len(), 0, "{json}");
    let rejected = json["rejected"].as_array().unwrap();
    assert_eq!(rejected.len(), 2, "{json}");
    let verdict = rejected[1]["verdict"].as_str().unwrap();
    assert!(
        verdict.contains("give Goblin two different keys"),
        "{verdict}"
    );
    assert!(
        verdict.contains("Goblin's player (gus@herald.test) must say which key is theirs"),
        "{verdict}"
    );
    // A later copy with a GoblinKey is not taken either.
    std::fs::copy(t.elf.join("e2.eml"), t.elf.join("again.eml")).unwrap();
    let (_, json) = inbox_of(&t.elf, "eve@herald.test", &["again.eml"]);
    assert_eq!(json["games"].as_array().unwrap().len(), 0, "{json}");
    let verdict = json["rejected"][0]["verdict"].as_str().unwrap();
    assert!(verdict.contains("key conflict"), "{verdict}");
}

/// Playground Battles by email: Blue's first message with its set-up line
/// (`p1.eml`), in Blue's and Red's directories.
fn playground() -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let (blue, red) = (root.path().join("ann"), root.path().join("bob"));
    std::fs::create_dir(&blue).unwrap();
    std::fs::create_dir(&red).unwrap();
    run(
        &blue,
        &[
            "new",
            "playground-battles",
            "--side",
            "Blue=ann@herald.test",
            "--side",
            "Red=bob@herald.test",
            "--key",
            "blue.key",
            "--army",
            "RPSRRPSPRS",
            "--reply",
            "-o",
            "p1.eml",
        ],
    );
    mail(&blue, &red, "p1.eml");
    (root, red)
}

/// The record `extract` reads in `message`.
fn extracted(dir: &Path, message: &str) -> String {
    run(dir, &["extract", message])
}

#[test]
fn the_same_setup_command_run_again_writes_the_lost_reply_again() {
    let (_root, red) = playground();
    let setup = |out: &str, army: &str| {
        vec![
            "setup".to_owned(),
            "p1.eml".into(),
            "--side".into(),
            "Red".into(),
            "--key".into(),
            "red.key".into(),
            "--army".into(),
            army.into(),
            "--reply".into(),
            "-o".into(),
            out.into(),
        ]
    };
    let args = setup("p2.eml", "SSPRRPRSPS");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&red, &args);
    let first = extracted(&red, "p2.eml");
    assert!(first.contains("S2. Red:"), "{first}");
    let received = std::fs::read(red.join("p1.eml")).unwrap();
    // The reply is lost: exactly the same command writes it again.
    std::fs::remove_file(red.join("p2.eml")).unwrap();
    let out = common::herald(&red).args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("this is your set-up line S2 again, the same line"),
        "{said}"
    );
    assert_eq!(extracted(&red, "p2.eml"), first);
    // The message answered is left as it was received.
    assert_eq!(std::fs::read(red.join("p1.eml")).unwrap(), received);
    // Other choices are another answer: refused, naming the key file.
    let args = setup("p3.eml", "RRRRPPPSSS");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = fails(&red, &args, 1);
    assert!(err.contains("you already answered this turn"), "{err}");
    assert!(err.contains("--key red.key --reply -o NEW.eml"), "{err}");
    assert!(!red.join("p3.eml").exists());
}

#[test]
fn a_resend_on_a_record_file_with_reply_updates_the_record_file_too() {
    let players = common::castle_danger_turn_one();
    let red = &players.red;
    run(
        red,
        &[
            "move", "c3.eml", "Kc9-b9", "--key", "my.key", "--reply", "-o", "c4.eml",
        ],
    );
    // Red keeps the game in a record file from Blue's message, and writes
    // the lost reply again on it: the file gets the turn, as the first
    // time a move on a record file does.
    run(red, &["extract", "c3.eml", "-o", "real.pbem"]);
    let said = run(
        red,
        &[
            "move",
            "real.pbem",
            "Kc9-b9",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "c4-again.eml",
        ],
    );
    assert!(
        said.contains("this is your turn 2 again, the same line"),
        "{said}"
    );
    assert!(said.contains("wrote turn 2 to real.pbem"), "{said}");
    assert!(!said.contains("left as it was received"), "{said}");
    let record = std::fs::read_to_string(red.join("real.pbem")).unwrap();
    assert!(record.contains("2. Red: Kc9-b9"), "{record}");
    // The file and both messages hold the same record.
    assert_eq!(
        run(red, &["extract", "real.pbem"]),
        run(red, &["extract", "c4.eml"])
    );
    assert_eq!(
        run(red, &["extract", "c4-again.eml"]),
        run(red, &["extract", "c4.eml"])
    );
}

#[test]
fn a_command_suggested_on_a_quoted_printable_message_names_the_file_alone_quoted_for_the_shell() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path();
    run(
        dir,
        &[
            "new",
            "castle-danger",
            "--side",
            "Blue=ann@herald.test",
            "--side",
            "Red=bob@herald.test",
            "--key",
            "blue.key",
            "--reply",
            "-o",
            "c1.eml",
        ],
    );
    // The same message with its body quoted-printable (`=` as `=3D`), in
    // a file whose name has a space.
    let text = std::fs::read_to_string(dir.join("c1.eml")).unwrap();
    let (head, body) = text.split_once("\n\n").unwrap();
    assert!(head.contains("Content-Transfer-Encoding: 7bit"), "{head}");
    let head = head.replace(
        "Content-Transfer-Encoding: 7bit",
        "Content-Transfer-Encoding: quoted-printable",
    );
    std::fs::write(
        dir.join("my game.eml"),
        format!("{head}\n\n{}", body.replace('=', "=3D")),
    )
    .unwrap();
    let said = run(dir, &["check", "my game.eml"]);
    // The origin says where the record was found; the command names the
    // file alone, quoted as a shell needs it.
    assert!(said.contains("quoted-printable, decoded]: OK"), "{said}");
    let words = said.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(
            "(herald keygen --side Red 'my game.eml' --key red.key --reply -o reply.eml)"
        ),
        "{said}"
    );
    assert!(!words.contains("keygen --side Red my game.eml ["), "{said}");
}
