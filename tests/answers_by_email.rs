//! A player's key file remembers the last line its player wrote, what it
//! answered and the message it went out in (spec section 3.8), through
//! the real binary: Blue and Red of Castle Danger each in their own
//! directory with their own key file, by .eml messages. A reply that was
//! lost is written again, byte for byte, by the same command; a second,
//! different answer to the same message is refused ("you already answered
//! this turn: resend ..."), so no player forks the game by mistake.

mod common;
use common::{herald, run};

use std::path::{Path, PathBuf};

struct Table {
    _root: tempfile::TempDir,
    blue: PathBuf,
    red: PathBuf,
}

/// A message without the lines that differ each time it is written.
fn body(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("Date: ") && !l.starts_with("Message-ID: "))
        .map(|l| format!("{l}\n"))
        .collect()
}

impl Table {
    /// `new` and both keys; Blue's turn 1 mailed to Red as `1.eml`.
    fn after_blues_first_turn() -> Table {
        let root = tempfile::tempdir().unwrap();
        let (blue, red) = (root.path().join("ann"), root.path().join("bob"));
        std::fs::create_dir(&blue).unwrap();
        std::fs::create_dir(&red).unwrap();
        run(
            &blue,
            &[
                "new",
                "castle-danger",
                "--side",
                "Blue=ann@example.org",
                "--side",
                "Red=bob@example.org",
                "-o",
                "game.pbem",
            ],
        );
        run(
            &blue,
            &["keygen", "--side", "Blue", "game.pbem", "-o", "my.key"],
        );
        std::fs::copy(blue.join("game.pbem"), red.join("game.pbem")).unwrap();
        run(
            &red,
            &["keygen", "--side", "Red", "game.pbem", "-o", "my.key"],
        );
        std::fs::copy(red.join("game.pbem"), blue.join("game.pbem")).unwrap();
        run(
            &blue,
            &[
                "move",
                "game.pbem",
                "Kc1-b1",
                "--key",
                "my.key",
                "--reply",
                "-o",
                "1.eml",
            ],
        );
        std::fs::copy(blue.join("1.eml"), red.join("1.eml")).unwrap();
        Table {
            _root: root,
            blue,
            red,
        }
    }

    /// Red answers `1.eml` with `turn`, writing `out`.
    fn red_answers(&self, turn: &str, out: &str) -> std::process::Output {
        herald(&self.red)
            .args([
                "move", "1.eml", turn, "--key", "my.key", "--reply", "-o", out,
            ])
            .output()
            .unwrap()
    }
}

#[test]
fn a_lost_reply_is_written_again_by_the_same_command() {
    let t = Table::after_blues_first_turn();
    let first = t.red_answers("Kc9-b9", "2.eml");
    assert!(first.status.success(), "{first:?}");
    let sent = body(&t.red.join("2.eml"));
    std::fs::remove_file(t.red.join("2.eml")).unwrap();
    let again = t.red_answers("Kc9-b9", "2-again.eml");
    assert!(again.status.success(), "{again:?}");
    let said = String::from_utf8(again.stdout).unwrap();
    assert!(
        said.contains("you answered this record already: this is your turn 2 again, the same line (first sent in 2.eml)"),
        "{said}"
    );
    // The same message: the same signed line, the same record, to the
    // same player.
    assert_eq!(body(&t.red.join("2-again.eml")), sent);
    // And Blue plays on from it.
    std::fs::copy(t.red.join("2-again.eml"), t.blue.join("2.eml")).unwrap();
    run(
        &t.blue,
        &[
            "move", "2.eml", "Kb1-a1", "--key", "my.key", "--reply", "-o", "3.eml",
        ],
    );
}

/// Written again a day later, and with another `--date` than the first
/// time, or the same turn typed with other spacing, the lost reply is
/// still the same message: the key file's line, its own date kept (a date
/// before the last line's would refuse a new line, never this one).
#[test]
fn a_lost_reply_written_again_keeps_its_own_date() {
    let t = Table::after_blues_first_turn();
    // Dated today, as Blue's turn 1 is.
    let first = t.red_answers("Kc9-b9", "2.eml");
    assert!(first.status.success(), "{first:?}");
    for (date, typed, out) in [
        ("2099-01-02", "Kc9-b9", "2-later.eml"),
        ("2020-01-01", "  Kc9-b9 ", "2-early.eml"),
    ] {
        let again = herald(&t.red)
            .args([
                "move", "1.eml", typed, "--key", "my.key", "--date", date, "--reply", "-o", out,
            ])
            .env("HERALD_TODAY", "2099-01-02")
            .output()
            .unwrap();
        assert!(again.status.success(), "{date}: {again:?}");
        assert_eq!(body(&t.red.join(out)), body(&t.red.join("2.eml")), "{date}");
    }
    let sent = body(&t.red.join("2.eml"));
    assert!(sent.contains("2. Red: Kc9-b9\n"), "{sent}");
    // The dates of its lines (a signature's hex digits may hold "2099").
    assert!(
        !sent.contains("date 2099") && !sent.contains("date 2020-01-01"),
        "{sent}"
    );
}

#[test]
fn a_second_different_answer_to_the_same_message_is_refused() {
    let t = Table::after_blues_first_turn();
    assert!(t.red_answers("Kc9-b9", "2.eml").status.success());
    let key_before = std::fs::read(t.red.join("my.key")).unwrap();
    let fork = t.red_answers("Kc9-d9", "2-fork.eml");
    assert_eq!(fork.status.code(), Some(1), "{fork:?}");
    let error = String::from_utf8(fork.stderr).unwrap();
    assert!(
        error.contains("you already answered this turn: your turn 2 (`2. Red: Kc9-b9`) answers this very record"),
        "{error}"
    );
    assert!(error.contains("`Kc9-d9` is another answer"), "{error}");
    assert!(error.contains("resend 2.eml"), "{error}");
    assert!(!t.red.join("2-fork.eml").exists());
    assert_eq!(std::fs::read(t.red.join("my.key")).unwrap(), key_before);
}

#[test]
fn the_message_written_again_is_the_one_a_refusal_names_next() {
    let t = Table::after_blues_first_turn();
    assert!(t.red_answers("Kc9-b9", "2.eml").status.success());
    std::fs::remove_file(t.red.join("2.eml")).unwrap();
    assert!(t.red_answers("Kc9-b9", "2b.eml").status.success());
    let fork = t.red_answers("Kc9-d9", "2c.eml");
    assert_eq!(fork.status.code(), Some(1));
    let error = String::from_utf8(fork.stderr).unwrap();
    assert!(error.contains("resend 2b.eml"), "{error}");
}

#[test]
fn a_record_file_that_lost_the_players_line_gets_the_same_line_again() {
    let t = Table::after_blues_first_turn();
    // Red keeps the game in a record file this time.
    std::fs::copy(t.blue.join("game.pbem"), t.red.join("game.pbem")).unwrap();
    let before = std::fs::read_to_string(t.red.join("game.pbem")).unwrap();
    run(&t.red, &["move", "game.pbem", "Kc9-b9", "--key", "my.key"]);
    let written = std::fs::read_to_string(t.red.join("game.pbem")).unwrap();
    // The file put back as it was before the answer (a backup restored).
    std::fs::write(t.red.join("game.pbem"), &before).unwrap();
    let fork = herald(&t.red)
        .args(["move", "game.pbem", "Kc9-d9", "--key", "my.key"])
        .output()
        .unwrap();
    assert_eq!(fork.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(t.red.join("game.pbem")).unwrap(),
        before
    );
    let said = run(&t.red, &["move", "game.pbem", "Kc9-b9", "--key", "my.key"]);
    assert!(said.contains("this is your turn 2 again"), "{said}");
    assert_eq!(
        std::fs::read_to_string(t.red.join("game.pbem")).unwrap(),
        written
    );
}

/// The player in `dir` answers `message` with `turn`, writing the reply
/// `out` (`move --key my.key --reply -o OUT`).
fn answer(dir: &Path, message: &str, turn: &str, out: &str) {
    run(
        dir,
        &[
            "move", message, turn, "--key", "my.key", "--reply", "-o", out,
        ],
    );
}

/// Blue's key file copied before Blue answers `c2.eml`, Blue's turn 1
/// mailed (`3.eml`) and answered by Red (`4.eml`); then the copy restored
/// and Blue's turn 1 written again, another way (`3b.eml`): the restored
/// key file cannot know the line it never saw written, so Red is the one
/// it wrongs.
fn forked_by_a_restored_key_file() -> common::Players {
    let p = common::castle_danger_keyed();
    std::fs::copy(p.blue.join("my.key"), p.blue.join("copy.key")).unwrap();
    answer(&p.blue, "c2.eml", "Kc1-b1", "3.eml");
    common::mail(&p.blue, &p.red, "3.eml");
    answer(&p.red, "3.eml", "Kc9-b9", "4.eml");
    std::fs::copy(p.blue.join("copy.key"), p.blue.join("my.key")).unwrap();
    answer(&p.blue, "c2.eml", "Kc1-d1", "3b.eml");
    common::mail(&p.blue, &p.red, "3b.eml");
    p
}

#[test]
fn an_answer_to_a_fork_made_with_a_restored_key_file_names_the_turn_answered_twice() {
    let p = forked_by_a_restored_key_file();
    let why = common::refused_answer(&p.red, "3b.eml", "Kc9-a9", "4b.eml");
    assert!(
        why.contains(
            "you already answered this turn: your turn 2 answers another copy of this record, one that differs from this copy in its last line, turn 1 (Blue), or in one before it"
        ),
        "{why}"
    );
    assert!(
        why.contains(
            "resend 4.eml, or write that message again with herald move RECORD \"Kc9-b9\" --key my.key --reply -o NEW.eml, RECORD the message you answered with it"
        ),
        "{why}"
    );
    // The command named writes that very message again.
    answer(&p.red, "3.eml", "Kc9-b9", "NEW.eml");
    assert_eq!(body(&p.red.join("NEW.eml")), body(&p.red.join("4.eml")));
}

#[test]
fn an_older_message_answered_already_is_refused_naming_the_turn_and_the_message_to_resend() {
    let p = common::castle_danger_keyed();
    answer(&p.blue, "c2.eml", "Kc1-b1", "3.eml");
    common::mail(&p.blue, &p.red, "3.eml");
    answer(&p.red, "3.eml", "Kc9-b9", "4.eml");
    common::mail(&p.red, &p.blue, "4.eml");
    answer(&p.blue, "4.eml", "Kb1-c1", "5.eml");
    // c2.eml, answered with turn 1 two turns ago, comes again.
    let why = common::refused_answer(&p.blue, "c2.eml", "Kc1-d1", "3b.eml");
    assert!(
        why.contains(
            "you already answered this turn: this copy asks for your turn 1, which you answered already (your key file's last line is your turn 3, written after it): this copy is older than the record you answered, and another turn 1 would fork the game: resend 5.eml"
        ),
        "{why}"
    );
}
