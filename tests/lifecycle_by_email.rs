//! A whole game by email, one command a message (spec sections 3.7 and
//! 3.8): Blue and Red of Playground Battles, each in their own directory
//! with their own key file, every step answered with `--reply -o` on the
//! message received: the keys (`keygen --reply`), the set-up (`setup
//! --reply`), the turns, the end and the audit. No step needs `extract`
//! or a hand-made message, each message says what is due next and the
//! command that does it, and no player answers their own mail: the line
//! that ends the game carries its writer's audit.

mod common;
use common::{field, herald, json, run};

use std::path::{Path, PathBuf};

struct Players {
    _root: tempfile::TempDir,
    blue: PathBuf,
    red: PathBuf,
}

/// What tells the receiver what to do next: the `Next, ...` line and the
/// command on the line below it, joined by a space.
fn next(message: &Path) -> String {
    let text = std::fs::read_to_string(message).unwrap();
    let mut lines = text.lines().skip_while(|l| !l.starts_with("Next, "));
    match (lines.next(), lines.next()) {
        (Some(next), Some(command)) => format!("{next} {command}"),
        _ => panic!("no Next line in {text}"),
    }
}

/// Mail `name` from `from` to `to`.
fn mail(from: &Path, to: &Path, name: &str) {
    std::fs::copy(from.join(name), to.join(name)).unwrap();
}

/// `herald new GAME -o game.pbem` in `dir`: Blue (ann) and Red (bob).
fn new_game(dir: &Path, game: &str) {
    run(
        dir,
        &[
            "new",
            "--protocol",
            "2",
            game,
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "-o",
            "game.pbem",
        ],
    );
}

/// `herald keygen --side SIDE INPUT --key my.key --reply -o OUT` in
/// `dir`, which must succeed: its standard output.
fn keygen_reply(dir: &Path, side: &str, input: &str, out: &str) -> String {
    run(
        dir,
        &[
            "keygen", "--side", side, input, "--key", "my.key", "--reply", "-o", out,
        ],
    )
}

fn players() -> Players {
    let root = tempfile::tempdir().unwrap();
    let (blue, red) = (root.path().join("ann"), root.path().join("bob"));
    std::fs::create_dir(&blue).unwrap();
    std::fs::create_dir(&red).unwrap();
    Players {
        _root: root,
        blue,
        red,
    }
}

#[test]
fn a_playground_game_by_email_one_command_a_message_from_new_to_the_audit() {
    let p = players();
    new_game(&p.blue, "playground-battles");
    // 1: Blue's key, from the record file.
    let said = keygen_reply(&p.blue, "Blue", "game.pbem", "1.eml");
    assert!(said.contains("added to game.pbem and the reply"), "{said}");
    assert_eq!(field(&p.blue.join("1.eml"), "To"), "bob@example.org");
    assert_eq!(
        next(&p.blue.join("1.eml")),
        "Next, Red (its key, before S1), answering with: herald keygen --side Red MESSAGE.eml --key red.key --reply -o reply.eml"
    );
    mail(&p.blue, &p.red, "1.eml");
    // 2: Red's key, answering the message; the message stays as received.
    let received = std::fs::read(p.red.join("1.eml")).unwrap();
    let said = keygen_reply(&p.red, "Red", "1.eml", "2.eml");
    assert!(said.contains("1.eml is left as it was received"), "{said}");
    assert_eq!(std::fs::read(p.red.join("1.eml")).unwrap(), received);
    let two = p.red.join("2.eml");
    assert_eq!(field(&two, "From"), "bob@example.org");
    assert_eq!(field(&two, "To"), "ann@example.org");
    assert_eq!(
        field(&two, "Subject"),
        "Playground Battles: Red added its key (RedCommit and RedKey), Blue's set-up step due"
    );
    assert!(next(&two)
        .starts_with("Next, Blue (S1), answering with: herald setup MESSAGE.eml --key YOUR.key"));
    mail(&p.red, &p.blue, "2.eml");
    // 3-6: the set-up, each answering the last message (Paper beats Rock
    // on the first throw: Blue moves first).
    run(
        &p.blue,
        &[
            "setup",
            "2.eml",
            "--key",
            "my.key",
            "--army",
            "RRRRPPPSSS",
            "--throws",
            "PPPPPPPPPPPP",
            "--reply",
            "-o",
            "3.eml",
        ],
    );
    mail(&p.blue, &p.red, "3.eml");
    run(
        &p.red,
        &[
            "setup",
            "3.eml",
            "--key",
            "my.key",
            "--army",
            "SSSPPPRRRR",
            "--throws",
            "RRRRRRRRRRRR",
            "--reply",
            "-o",
            "4.eml",
        ],
    );
    mail(&p.red, &p.blue, "4.eml");
    run(
        &p.blue,
        &[
            "setup", "4.eml", "--key", "my.key", "--reply", "-o", "5.eml",
        ],
    );
    mail(&p.blue, &p.red, "5.eml");
    run(
        &p.red,
        &[
            "setup", "5.eml", "--key", "my.key", "--reply", "-o", "6.eml",
        ],
    );
    let six = p.red.join("6.eml");
    assert_eq!(field(&six, "To"), "ann@example.org");
    assert!(
        field(&six, "Subject").ends_with("Blue to move"),
        "{}",
        field(&six, "Subject")
    );
    assert_eq!(
        next(&six),
        "Next, Blue (turn 1), answering with: herald move MESSAGE.eml \"YOUR TURN\" --key YOUR.key --reply -o reply.eml"
    );
    mail(&p.red, &p.blue, "6.eml");
    // 7: Blue resigns; its own audit goes with the line, so the message
    // is Red's to answer, not Blue's.
    let said = run(
        &p.blue,
        &[
            "move", "6.eml", "resign", "--key", "my.key", "--reply", "-o", "7.eml",
        ],
    );
    assert!(
        said.contains("the game ended on Blue's own line, so Blue's audit (turn 2) goes with it"),
        "{said}"
    );
    let seven = p.blue.join("7.eml");
    assert_eq!(field(&seven, "To"), "bob@example.org");
    assert_eq!(
        field(&seven, "Subject"),
        "Playground Battles: turns 1-2 (Blue) played, Red's audit due, the result provisional"
    );
    assert_eq!(
        next(&seven),
        "Next, Red (turn 3), answering with: herald move MESSAGE.eml audit --key YOUR.key --reply -o reply.eml"
    );
    mail(&p.blue, &p.red, "7.eml");
    let status = json(&p.red, &["check", "7.eml", "--format", "json"]);
    assert_eq!(status["step"]["side"], "Red", "{status}");
    assert_eq!(status["step"]["step"], "audit", "{status}");
    // 8: Red's audit ends it.
    run(
        &p.red,
        &[
            "move", "7.eml", "audit", "--key", "my.key", "--reply", "-o", "8.eml",
        ],
    );
    let eight = p.red.join("8.eml");
    assert_eq!(
        field(&eight, "Subject"),
        "Playground Battles: turn 3 (Red) played, Red won: Blue resigned"
    );
    assert!(std::fs::read_to_string(&eight)
        .unwrap()
        .contains("The game is over: herald check MESSAGE.eml gives the result."));
    mail(&p.red, &p.blue, "8.eml");
    let status = json(&p.blue, &["check", "8.eml", "--format", "json"]);
    assert_eq!(status["ok"], true, "{status}");
    assert_eq!(status["result"], "Red", "{status}");
}

/// `keygen` and `setup` on a message without `--reply` write nothing and
/// name the command that answers it, their own (not `move`).
#[test]
fn keygen_and_setup_on_a_message_without_reply_say_how_to_answer_it() {
    let p = players();
    new_game(&p.blue, "playground-battles");
    keygen_reply(&p.blue, "Blue", "game.pbem", "1.eml");
    mail(&p.blue, &p.red, "1.eml");
    let out = herald(&p.red)
        .args(["keygen", "--side", "Red", "1.eml", "-o", "my.key"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let error = String::from_utf8(out.stderr).unwrap();
    assert!(
        error.contains("herald keygen --side Red 1.eml --key red.key --reply -o reply.eml"),
        "{error}"
    );
    assert!(!p.red.join("my.key").exists(), "no key file left behind");
    keygen_reply(&p.red, "Red", "1.eml", "2.eml");
    mail(&p.red, &p.blue, "2.eml");
    let key_before = std::fs::read(p.blue.join("my.key")).unwrap();
    let out = herald(&p.blue)
        .args(["setup", "2.eml", "--key", "my.key", "--army", "RRRRPPPSSS"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let error = String::from_utf8(out.stderr).unwrap();
    assert!(
        error.contains("herald setup 2.eml --key my.key --reply -o reply.eml"),
        "{error}"
    );
    assert_eq!(std::fs::read(p.blue.join("my.key")).unwrap(), key_before);
}

/// A reply path that exists already is refused before the key file is
/// written, and keygen leaves nothing behind.
#[test]
fn keygen_with_a_reply_that_exists_writes_no_key() {
    let p = players();
    new_game(&p.blue, "castle-danger");
    std::fs::write(p.blue.join("1.eml"), "mine").unwrap();
    let record = std::fs::read(p.blue.join("game.pbem")).unwrap();
    let out = herald(&p.blue)
        .args([
            "keygen",
            "--side",
            "Blue",
            "game.pbem",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "1.eml",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!p.blue.join("my.key").exists());
    assert_eq!(std::fs::read(p.blue.join("game.pbem")).unwrap(), record);
    assert_eq!(
        std::fs::read_to_string(p.blue.join("1.eml")).unwrap(),
        "mine"
    );
}

/// South's and North's mazes (as in `battlegates_by_email.rs`).
const SOUTH_MAZE: &str = "Wd1n Wa2n Wh3n Wi3n Gh1nw Gd3nw Gf3ne Le1nw Lb1ne Lg4nw";
const NORTH_MAZE: &str = "Wa9n Wb9n Wh9n Wi9n Ge11nw Gb10ne Gh10nw Lc8nw Lf8nw Lb11nw";

/// Battlegates with hidden hands by email: the game with South's key,
/// North's key, two commitments,
/// two openings with the deck's shares (and a shares line when North
/// moves first), then the side to move resigns with its audit in the same
/// message, the other audits, and the game is over; every message
/// answered with one command on the message received.
#[test]
fn a_battlegates_game_with_hidden_hands_by_email_one_command_a_message() {
    let p = players();
    let (south, north) = (p.blue.as_path(), p.red.as_path());
    let steps: [(&Path, &[&str], &str); 6] = [
        // The game, South's key and the first message, in one command.
        (
            south,
            &[
                "new",
                "--protocol",
                "2",
                "battlegates",
                "--side",
                "South=ann@example.org",
                "--side",
                "North=bob@example.org",
                "--key",
                "my.key",
            ],
            "Battlegates: South began the game with its key (SouthCommit and SouthKey), North's key due",
        ),
        (
            north,
            &["keygen", "--side", "North", "1.eml", "--key", "my.key"],
            "Battlegates: North added its key (NorthCommit and NorthKey), South's set-up step due",
        ),
        (
            south,
            &["setup", "2.eml", "--key", "my.key", "--maze", SOUTH_MAZE],
            "Battlegates: set-up line S1 (South) played, North's set-up step due",
        ),
        (
            north,
            &["setup", "3.eml", "--key", "my.key", "--maze", NORTH_MAZE],
            "Battlegates: set-up line S2 (North) played, South's set-up step due",
        ),
        (
            south,
            &["setup", "4.eml", "--key", "my.key"],
            "Battlegates: set-up line S3 (South) played, North's set-up step due",
        ),
        (north, &["setup", "5.eml", "--key", "my.key"], ""),
    ];
    let other = |dir: &Path| if dir == south { north } else { south };
    for (n, (from, args, subject)) in steps.iter().enumerate() {
        let out = format!("{}.eml", n + 1);
        let mut all = args.to_vec();
        all.extend_from_slice(&["--reply", "-o", &out]);
        run(from, &all);
        if !subject.is_empty() {
            assert_eq!(field(&from.join(&out), "Subject"), *subject);
        }
        mail(from, other(from), &out);
    }
    // Who moves first is rolled from both sides' reveals. The message is
    // always for the side whose step is due: it answers, until the side
    // to move has resigned (and audited with it) and the other audited.
    let (steps, last, at) = answer_to_the_end(south, north, 6);
    let mut resigned = None;
    for step in steps.iter().filter(|s| s.step == "turn") {
        let (due, said) = (&step.due, &step.said);
        // The resignation carries its writer's audit, whoever resigned
        // (the audits come in any order): the message goes to the other
        // side, whose audit is due.
        assert!(said.contains(&format!("{due}'s audit")), "{said}");
        assert!(said.contains("goes with it"), "{said}");
        let next = if due == "South" { "North" } else { "South" };
        assert_eq!(
            field(&step.message, "Subject"),
            format!(
                "Battlegates: turns 1-2 ({due}) played, {next}'s audit due, the result provisional"
            )
        );
        resigned = Some(due.clone());
    }
    let status = json(at, &["check", &format!("{last}.eml"), "--format", "json"]);
    let winner = match resigned.as_deref() {
        Some("South") => "North",
        Some(_) => "South",
        None => panic!("nobody resigned"),
    };
    assert_eq!(status["result"], winner, "{status}");
}

/// One step of a Battlegates game answered by email.
struct Answered {
    /// `shares`, `turn` or `audit`.
    step: String,
    /// The side whose step it was.
    due: String,
    /// What herald said.
    said: String,
    /// The message it wrote.
    message: PathBuf,
}

/// Answer `FIRST.eml` (in South's folder) and every message after it,
/// each by the side `check` names as due, mailed to it first: shares with
/// `setup`, a turn with `resign`, an audit with `audit`, until the game is
/// over. The steps answered, and the last message's number and folder.
fn answer_to_the_end<'a>(
    south: &'a Path,
    north: &'a Path,
    first: usize,
) -> (Vec<Answered>, usize, &'a Path) {
    let (mut last, mut at) = (first, south);
    let mut steps = Vec::new();
    loop {
        let message = format!("{last}.eml");
        let status = json(at, &["check", &message, "--format", "json"]);
        if status["phase"] == "over" {
            return (steps, last, at);
        }
        let due = status["step"]["side"].as_str().unwrap().to_owned();
        let dir = if due == "South" { south } else { north };
        if dir != at {
            mail(at, dir, &message);
        }
        let step = status["step"]["step"].as_str().unwrap().to_owned();
        let out = format!("{}.eml", last + 1);
        let what: &[&str] = match step.as_str() {
            "shares" => &["setup", &message],
            "turn" => &["move", &message, "resign"],
            "audit" => &["move", &message, "audit"],
            other => panic!("unexpected step {other}: {status}"),
        };
        let mut all = what.to_vec();
        all.extend_from_slice(&["--key", "my.key", "--reply", "-o", &out]);
        let said = run(dir, &all);
        steps.push(Answered {
            step,
            due,
            said,
            message: dir.join(&out),
        });
        assert!(last < first + 6, "the game did not end");
        last += 1;
        at = dir;
    }
}

/// `new --key` makes the creator's key with the record (the side `--as`
/// names, else the first); a side that is not the game's is refused and
/// nothing is written.
#[test]
fn new_with_a_key_writes_the_record_with_the_creators_tags() {
    let p = players();
    let said = run(
        &p.blue,
        &[
            "new",
            "--protocol",
            "2",
            "castle-danger",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "--key",
            "red.key",
            "--as",
            "Red",
            "-o",
            "game.pbem",
        ],
    );
    assert!(
        said.contains("wrote red.key (private: keep it, never send it), Red's key"),
        "{said}"
    );
    let record = std::fs::read_to_string(p.blue.join("game.pbem")).unwrap();
    assert!(record.contains("[RedCommit \""), "{record}");
    assert!(record.contains("[RedKey \""), "{record}");
    assert!(!record.contains("[BlueKey \""), "{record}");
    // The key file is Red's in this very game: Red's first move takes it.
    let out = herald(&p.blue)
        .args(["keygen", "--side", "Blue", "game.pbem", "-o", "blue.key"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    run(
        &p.blue,
        &["move", "game.pbem", "Kc1-b1", "--key", "blue.key"],
    );
    run(
        &p.blue,
        &["move", "game.pbem", "Kc9-b9", "--key", "red.key"],
    );
    let out = herald(&p.red)
        .args([
            "new",
            "--protocol",
            "2",
            "castle-danger",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "--key",
            "green.key",
            "--as",
            "Green",
            "-o",
            "game.pbem",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let error = String::from_utf8(out.stderr).unwrap();
    assert!(
        error.contains("--as Green: not a side of this game: the sides are Blue, Red"),
        "{error}"
    );
    assert!(!p.red.join("green.key").exists());
    assert!(!p.red.join("game.pbem").exists());
}

/// Under protocol 3 (what `herald new` writes) the creator commits in the
/// game's first message and the other side joins with its first set-up
/// line: Playground Battles is set up in three messages (spec section
/// 3.7): the creator's key and commitments (`S1`), the other's key,
/// commitments and openings (`S2`), the creator's openings (`S3`).
#[test]
fn a_playground_game_under_protocol_3_is_set_up_in_three_messages() {
    let p = players();
    let said = run(
        &p.blue,
        &[
            "new",
            "playground-battles",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "--key",
            "my.key",
            "--army",
            "RRRRPPPSSS",
            "--reply",
            "-o",
            "1.eml",
        ],
    );
    assert!(said.contains("S1. Blue:"), "{said}");
    assert_eq!(
        field(&p.blue.join("1.eml"), "Subject"),
        "Playground Battles: set-up line S1 (Blue) played, Red's set-up step due"
    );
    assert_eq!(
        next(&p.blue.join("1.eml")),
        "Next, Red (S2), answering with: herald setup MESSAGE.eml --side Red --key red.key --army ARMY --reply -o reply.eml"
    );
    mail(&p.blue, &p.red, "1.eml");
    // Red has no key file yet: --side makes it, and its tags join the
    // header with its line, which commits and opens at once.
    run(
        &p.red,
        &[
            "setup",
            "1.eml",
            "--side",
            "Red",
            "--key",
            "my.key",
            "--army",
            "SSSRRRPPPR",
            "--reply",
            "-o",
            "2.eml",
        ],
    );
    let text = std::fs::read_to_string(p.red.join("2.eml")).unwrap();
    assert!(text.contains("[RedCommit \"") && text.contains("[RedKey \""));
    let s2 = &text[text.find("S2. Red:").expect("S2")..];
    assert!(s2.contains("commit t12") && s2.contains("open t12"), "{s2}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(p.red.join("my.key"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "the new key file is its owner's alone");
    }
    mail(&p.red, &p.blue, "2.eml");
    run(
        &p.blue,
        &[
            "setup", "2.eml", "--key", "my.key", "--reply", "-o", "3.eml",
        ],
    );
    let status = json(&p.blue, &["check", "3.eml", "--format", "json"]);
    assert_eq!(status["phase"], "play", "{status}");
    assert_eq!(status["step"]["step"], "turn", "{status}");
    assert_eq!(status["step"]["line"], "turn 1", "{status}");
    // 3.eml is lost: the same command on 2.eml writes the same set-up
    // line again into a new message, and says so.
    let said = run(
        &p.blue,
        &[
            "setup",
            "2.eml",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "3-again.eml",
        ],
    );
    assert!(
        said.contains("you answered this record already: this is your set-up line S3 again, the same line (first sent in 3.eml)"),
        "{said}"
    );
    let s3 = |name: &str| {
        let text = std::fs::read_to_string(p.blue.join(name)).unwrap();
        let at = text.find("S3. Blue:").expect("S3");
        let end = text[at..].find("\n\n").map_or(text.len(), |e| at + e);
        text[at..end].to_owned()
    };
    assert_eq!(s3("3-again.eml"), s3("3.eml"));
    // With choices, it would be another answer: refused, naming the
    // command that writes the same line.
    let out = herald(&p.blue)
        .args([
            "setup",
            "2.eml",
            "--key",
            "my.key",
            "--army",
            "RRRRRPPSSS",
            "--reply",
            "-o",
            "x.eml",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("you already answered this turn: your set-up line S3")
            && err.contains("herald setup 2.eml --key my.key --reply -o NEW.eml"),
        "{err}"
    );
    assert!(!p.blue.join("x.eml").exists());
}

/// Battlegates with hidden hands under protocol 3: at most four set-up
/// messages (spec section 3.9, the schedule): `S1` South's key and maze,
/// `S2` North's key, maze, pass and openings, `S3` South's pass, openings
/// and shares, and a line of shares only when the side that did not pass
/// last must share before the first turn. Then turn 1 ends the game and
/// the audits follow, one command a message.
#[test]
fn a_battlegates_game_with_hidden_hands_under_protocol_3_is_set_up_in_four_messages_at_most() {
    let p = players();
    let (south, north) = (p.blue.as_path(), p.red.as_path());
    run(
        south,
        &[
            "new",
            "battlegates",
            "--side",
            "South=ann@example.org",
            "--side",
            "North=bob@example.org",
            "--key",
            "my.key",
            "--maze",
            SOUTH_MAZE,
            "--reply",
            "-o",
            "1.eml",
        ],
    );
    mail(south, north, "1.eml");
    run(
        north,
        &[
            "setup", "1.eml", "--side", "North", "--key", "my.key", "--maze", NORTH_MAZE,
            "--reply", "-o", "2.eml",
        ],
    );
    mail(north, south, "2.eml");
    run(
        south,
        &[
            "setup", "2.eml", "--key", "my.key", "--reply", "-o", "3.eml",
        ],
    );
    let (steps, last, at) = answer_to_the_end(south, north, 3);
    let count = |what: &str| steps.iter().filter(|s| s.step == what).count();
    let setup_messages = 3 + count("shares");
    assert!(setup_messages <= 4, "{setup_messages} set-up messages");
    assert_eq!(count("turn"), 1);
    let status = json(at, &["check", &format!("{last}.eml"), "--format", "json"]);
    assert_ne!(status["result"], "*", "{status}");
}

/// `new --key` of a game with a set-up writes the creator's set-up line:
/// without a choice the game requires, it writes nothing at all, neither
/// the key file nor the message.
#[test]
fn new_with_a_key_and_no_required_choice_writes_nothing() {
    let p = players();
    let out = herald(&p.blue)
        .args([
            "new",
            "playground-battles",
            "--side",
            "Blue=a@x",
            "--side",
            "Red=b@x",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "1.eml",
        ])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(
        error.contains("Blue has not chosen its army yet: add --army"),
        "{error}"
    );
    assert!(!p.blue.join("my.key").exists() && !p.blue.join("1.eml").exists());
}

/// Under protocol 3 a side that never joined (never sent its first set-up
/// line, which carries its key) never began the game: no forfeit is
/// claimed of it, however late (the creator starts a new game with
/// another player); and its late first line, its key made with it, still
/// joins the game whenever it comes: no order of steps leaves it stuck.
#[test]
fn a_side_that_never_joined_cannot_be_claimed_and_its_late_first_line_joins() {
    let p = players();
    run(
        &p.blue,
        &[
            "new",
            "playground-battles",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "--key",
            "blue.key",
            "--army",
            "RRRRPPPSSS",
            "-o",
            "game.pbem",
        ],
    );
    let record = std::fs::read_to_string(p.blue.join("game.pbem")).unwrap();
    let dated = record
        .lines()
        .find_map(|l| l.trim().strip_prefix("date "))
        .expect("S1 is dated");
    let day = |days: i64| herald::record::Day(herald::record::Day::parse(dated).unwrap().0 + days);
    let claim = day(20).to_string();
    let out = herald(&p.blue)
        .env("HERALD_TODAY", &claim)
        .args([
            "move",
            "game.pbem",
            "--forfeit",
            "--key",
            "blue.key",
            "--date",
            &claim,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Red has not joined this game (no RedKey tag): a forfeit is claimed only of a side whose key is in the game"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(p.blue.join("game.pbem")).unwrap(),
        record
    );
    // Red answers at last, joining with its first line.
    let late = day(21).to_string();
    run(
        &p.blue,
        &[
            "setup",
            "game.pbem",
            "--side",
            "Red",
            "--key",
            "red.key",
            "--army",
            "SSSRRRPPPR",
            "--date",
            &late,
        ],
    );
    let status = json(&p.blue, &["check", "game.pbem", "--format", "json"]);
    assert_eq!(status["result"], "*", "{status}");
    assert_eq!(status["step"]["side"], "Blue", "{status}");
    assert_eq!(status["step"]["step"], "open", "{status}");
}

/// Battle of the Dale for three under protocol 3: Human begins the game
/// with its key, and its message goes to Elf and Goblin, whose keys are
/// due before turn 1, in any order. Both answer the same message at once;
/// Goblin, given Elf's copy, adds the same key to it from its key file
/// (never a second key), and Human, given that copy, plays turn 1.
#[test]
fn keys_added_at_once_under_protocol_3_join_any_copy_with_the_same_key() {
    let root = tempfile::tempdir().unwrap();
    let dir = |name: &str| {
        let d = root.path().join(name);
        std::fs::create_dir_all(&d).unwrap();
        d
    };
    let (human, elf, goblin) = (dir("human"), dir("elf"), dir("goblin"));
    run(
        &human,
        &[
            "new",
            "battle-of-the-dale",
            "--side",
            "Human=h@example.org",
            "--side",
            "Elf=e@example.org",
            "--side",
            "Goblin=g@example.org",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "1.eml",
        ],
    );
    let first = human.join("1.eml");
    assert_eq!(field(&first, "To"), "e@example.org, g@example.org");
    assert_eq!(
        next(&first),
        "Next, Elf's and Goblin's keys, in any order, each answering with: herald keygen --side SIDE MESSAGE.eml --key SIDE.key --reply -o reply.eml"
    );
    let status = json(&human, &["check", "1.eml", "--format", "json"]);
    assert_eq!(
        status["due"],
        serde_json::json!(["Elf", "Goblin"]),
        "{status}"
    );
    assert_eq!(status["step"]["step"], "keygen", "{status}");
    mail(&human, &elf, "1.eml");
    mail(&human, &goblin, "1.eml");
    let keygen = |d: &Path, side: &str, message: &str, out: &str| {
        run(
            d,
            &[
                "keygen", "--side", side, message, "--key", "my.key", "--reply", "-o", out,
            ],
        )
    };
    keygen(&elf, "Elf", "1.eml", "2e.eml");
    keygen(&goblin, "Goblin", "1.eml", "2g.eml");
    let key = std::fs::read(goblin.join("my.key")).unwrap();
    mail(&elf, &goblin, "2e.eml");
    let said = keygen(&goblin, "Goblin", "2e.eml", "3.eml");
    assert!(
        said.contains("my.key holds Goblin's key already (made on another copy of this game): its tags join this copy too, the same key"),
        "{said}"
    );
    assert_eq!(std::fs::read(goblin.join("my.key")).unwrap(), key);
    let tag = |name: &str, tag: &str| {
        let text = std::fs::read_to_string(goblin.join(name)).unwrap();
        text.lines()
            .find(|l| l.starts_with(&format!("[{tag} ")))
            .map(str::to_owned)
    };
    assert_eq!(tag("3.eml", "GoblinKey"), tag("2g.eml", "GoblinKey"));
    assert_eq!(field(&goblin.join("3.eml"), "To"), "h@example.org");
    mail(&goblin, &human, "3.eml");
    let legal = json(
        &human,
        &["legal", "3.eml", "--key", "my.key", "--format", "json"],
    );
    let action = legal["actions"][0]["action"].as_str().unwrap().to_owned();
    run(
        &human,
        &[
            "move", "3.eml", &action, "--key", "my.key", "--reply", "-o", "4.eml",
        ],
    );
    let status = json(&human, &["check", "4.eml", "--format", "json"]);
    assert_eq!(status["ok"], true, "{status}");
    assert_eq!(status["turns"], 1, "{status}");
}

/// Under protocol 3, once the set-up has begun, `keygen` is refused: the
/// side's key joins with its first set-up line (`setup --side`), or the
/// player would answer its own mail. A key made before the set-up on
/// another copy of the record (Red's, before Blue's `S1` reached it)
/// joins the copy that lacks it with Red's first set-up line: the same
/// key, never a second.
#[test]
fn a_key_joins_with_the_first_set_up_line_and_keygen_after_s1_is_refused() {
    let p = players();
    run(
        &p.blue,
        &[
            "new",
            "playground-battles",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "-o",
            "game.pbem",
        ],
    );
    std::fs::copy(p.blue.join("game.pbem"), p.red.join("early.pbem")).unwrap();
    // Red makes its key on its early copy; Blue, not knowing, begins.
    run(
        &p.red,
        &["keygen", "--side", "Red", "early.pbem", "-o", "my.key"],
    );
    let key = std::fs::read(p.red.join("my.key")).unwrap();
    run(
        &p.blue,
        &["keygen", "--side", "Blue", "game.pbem", "-o", "my.key"],
    );
    run(
        &p.blue,
        &[
            "setup",
            "game.pbem",
            "--key",
            "my.key",
            "--army",
            "RRRRPPPSSS",
            "--reply",
            "-o",
            "1.eml",
        ],
    );
    mail(&p.blue, &p.red, "1.eml");
    // keygen on the set-up begun is refused, naming the command.
    let out = herald(&p.red)
        .args([
            "keygen", "--side", "Red", "1.eml", "--key", "new.key", "--reply", "-o", "k.eml",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Red's key joins the header with its first set-up line, in one message: herald setup 1.eml --side Red --key red.key [CHOICES] --reply -o reply.eml"),
        "{err}"
    );
    assert!(!p.red.join("new.key").exists() && !p.red.join("k.eml").exists());
    // Red's key from the early copy joins with its first set-up line.
    run(
        &p.red,
        &[
            "setup",
            "1.eml",
            "--key",
            "my.key",
            "--army",
            "SSSRRRPPPR",
            "--reply",
            "-o",
            "2.eml",
        ],
    );
    let tag = |path: &Path| {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .find(|l| l.starts_with("[RedKey "))
            .map(str::to_owned)
    };
    assert!(tag(&p.red.join("2.eml")).is_some());
    assert_eq!(tag(&p.red.join("2.eml")), tag(&p.red.join("early.pbem")));
    let status = json(&p.red, &["check", "2.eml", "--format", "json"]);
    assert_eq!(status["ok"], true, "{status}");
    assert_eq!(status["step"]["side"], "Blue", "{status}");
    // The same key file: the same secret, now remembering S2.
    let secret = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes)
            .lines()
            .find(|l| l.starts_with("secret: "))
            .map(str::to_owned)
    };
    let now = std::fs::read(p.red.join("my.key")).unwrap();
    assert!(secret(&key).is_some());
    assert_eq!(secret(&now), secret(&key));
}

/// Playground Battles by email to its second message: Blue's `new` with
/// its key and army (`1.eml`, mailed to Red), and Red's `setup --side
/// Red`, its key made with its army (`2.eml`, in Red's folder); `blue`
/// and `red`: more choices of each (the throws).
fn playground_to_s2(p: &Players, blue: &[&str], red: &[&str]) {
    let mut new = vec![
        "new",
        "playground-battles",
        "--side",
        "Blue=ann@example.org",
        "--side",
        "Red=bob@example.org",
        "--key",
        "my.key",
        "--army",
        "RRRRPPPSSS",
    ];
    new.extend_from_slice(blue);
    new.extend_from_slice(&["--reply", "-o", "1.eml"]);
    run(&p.blue, &new);
    mail(&p.blue, &p.red, "1.eml");
    let mut setup = vec![
        "setup",
        "1.eml",
        "--side",
        "Red",
        "--key",
        "my.key",
        "--army",
        "SSSRRRPPPR",
    ];
    setup.extend_from_slice(red);
    setup.extend_from_slice(&["--reply", "-o", "2.eml"]);
    run(&p.red, &setup);
}

/// The throws make Blue, who writes the set-up's last line (`S3`), the
/// first to move: Blue's `setup --reply` says so, the message it wrote is
/// Blue's own to answer (never sent), and Blue's first turn on it writes
/// the one message Red gets, with both lines: nobody answers mail it sent.
#[test]
fn the_last_set_up_lines_writer_who_moves_first_sends_its_first_turn_with_it() {
    let p = players();
    playground_to_s2(
        &p,
        &["--throws", "PPPPPPPPPPPP"],
        &["--throws", "RRRRRRRRRRRR"],
    );
    mail(&p.red, &p.blue, "2.eml");
    let said = run(
        &p.blue,
        &[
            "setup", "2.eml", "--key", "my.key", "--reply", "-o", "3.eml",
        ],
    );
    assert!(
        said.contains("Blue moves first: keep 3.eml to yourself (it is not sent) and answer it with your first turn, one message that carries both lines: herald move 3.eml \"YOUR TURN\" --key my.key --reply -o NEXT.eml"),
        "{said}"
    );
    let legal = json(
        &p.blue,
        &["legal", "3.eml", "--key", "my.key", "--format", "json"],
    );
    let action = legal["actions"][0]["action"].as_str().unwrap().to_owned();
    // Blue types its first turn on 2.eml, the message it answered with
    // S3: refused, naming the message that holds S3.
    let out = herald(&p.blue)
        .args([
            "move", "2.eml", &action, "--key", "my.key", "--reply", "-o", "x.eml",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "your set-up line S3 answers this very record, and it made you the first to move: answer 3.eml with your first turn, one message that carries both lines: herald move 3.eml \"{action}\" --key my.key --reply -o NEXT.eml; nothing was written"
        )),
        "{err}"
    );
    assert!(!p.blue.join("x.eml").exists());
    // 3.eml lost: S3 written again says the same as the first time.
    let said = run(
        &p.blue,
        &[
            "setup", "2.eml", "--key", "my.key", "--reply", "-o", "3b.eml",
        ],
    );
    assert!(
        said.contains("this is your set-up line S3 again")
            && said.contains("Blue moves first: keep 3b.eml to yourself (it is not sent)"),
        "{said}"
    );
    run(
        &p.blue,
        &[
            "move", "3.eml", &action, "--key", "my.key", "--reply", "-o", "4.eml",
        ],
    );
    let four = p.blue.join("4.eml");
    assert_eq!(field(&four, "To"), "bob@example.org");
    assert_eq!(
        field(&four, "Subject"),
        "Playground Battles: turn 1 (Blue) played, Red to move"
    );
    let text = std::fs::read_to_string(&four).unwrap();
    assert!(
        text.contains("S3. Blue:") && text.contains("1. Blue:"),
        "{text}"
    );
}

/// One command for the set-up's last line and the first turn: Blue, whom
/// S3 makes the first to move, writes both with `setup --then TURN`, one
/// message to Red, no message kept back. Written again (a lost reply), it
/// is the same message; another turn is a second answer, refused. When
/// S3 does not make its writer the first to move, `--then` is refused
/// with who moves first, and nothing is written.
#[test]
fn setup_then_sends_the_set_ups_last_line_and_the_first_turn_in_one_message() {
    let p = players();
    playground_to_s2(
        &p,
        &["--throws", "PPPPPPPPPPPP"],
        &["--throws", "RRRRRRRRRRRR"],
    );
    mail(&p.red, &p.blue, "2.eml");
    // A legal first turn, found on a scratch copy of Blue's folder.
    let scratch = p.blue.with_file_name("scratch");
    std::fs::create_dir(&scratch).unwrap();
    for name in ["2.eml", "my.key"] {
        std::fs::copy(p.blue.join(name), scratch.join(name)).unwrap();
    }
    run(
        &scratch,
        &[
            "setup", "2.eml", "--key", "my.key", "--reply", "-o", "s3.eml",
        ],
    );
    let legal = json(
        &scratch,
        &["legal", "s3.eml", "--key", "my.key", "--format", "json"],
    );
    let action = legal["actions"][0]["action"].as_str().unwrap().to_owned();
    let other = legal["actions"][1]["action"].as_str().unwrap().to_owned();
    let said = run(
        &p.blue,
        &[
            "setup", "2.eml", "--key", "my.key", "--then", &action, "--reply", "-o", "3.eml",
        ],
    );
    assert!(!said.contains("keep 3.eml to yourself"), "{said}");
    let three = p.blue.join("3.eml");
    assert_eq!(field(&three, "To"), "bob@example.org");
    assert_eq!(
        field(&three, "Subject"),
        "Playground Battles: set-up line S3 and turn 1 (Blue) played, Red to move"
    );
    let text = std::fs::read_to_string(&three).unwrap();
    assert!(
        text.contains("\nS3. Blue:") && text.contains("\n1. Blue: ") && text.contains(&action),
        "{text}"
    );
    // Lost: the same command writes the same message again.
    let body = |name: &str| -> String {
        std::fs::read_to_string(p.blue.join(name))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("Date: ") && !l.starts_with("Message-ID: "))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let said = run(
        &p.blue,
        &[
            "setup", "2.eml", "--key", "my.key", "--then", &action, "--reply", "-o", "3b.eml",
        ],
    );
    assert!(said.contains("you answered this record already"), "{said}");
    assert_eq!(body("3b.eml"), body("3.eml"));
    // Another first turn is a second answer.
    let out = herald(&p.blue)
        .args([
            "setup", "2.eml", "--key", "my.key", "--then", &other, "--reply", "-o", "3c.eml",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("you already answered this turn: your turn 1")
            && err.contains(&format!("`{other}` is another answer")),
        "{err}"
    );
    assert!(!p.blue.join("3c.eml").exists());
    // Red plays on from the one message.
    mail(&p.blue, &p.red, "3.eml");
    let legal = json(
        &p.red,
        &["legal", "3.eml", "--key", "my.key", "--format", "json"],
    );
    let reply = legal["actions"][0]["action"].as_str().unwrap().to_owned();
    run(
        &p.red,
        &[
            "move", "3.eml", &reply, "--key", "my.key", "--reply", "-o", "4.eml",
        ],
    );
}

/// Blue's `setup 2.eml --then pass` with `extra` arguments, Red and Blue
/// throwing `red` and `blue` at S2: refused with exit `code` and words
/// `said`, and nothing written (no message, the key file as it was).
fn setup_then_refused(red: &str, blue: &str, extra: &[&str], code: i32, said: &str) {
    let p = players();
    playground_to_s2(&p, &["--throws", red], &["--throws", blue]);
    mail(&p.red, &p.blue, "2.eml");
    let key = std::fs::read(p.blue.join("my.key")).unwrap();
    let out = herald(&p.blue)
        .args(["setup", "2.eml", "--key", "my.key", "--then", "pass"])
        .args(extra)
        .args(["--reply", "-o", "3.eml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(code), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(said), "{err}");
    assert!(!p.blue.join("3.eml").exists());
    assert_eq!(std::fs::read(p.blue.join("my.key")).unwrap(), key);
}

/// `--then-key` when S3 makes its writer itself the first to move: the
/// turn is written with `--key`, so the extra key file is refused as a
/// usage error naming it, and nothing is written.
#[test]
fn setup_then_key_is_refused_when_the_writer_itself_moves_first() {
    setup_then_refused(
        "PPPPPPPPPPPP",
        "RRRRRRRRRRRR",
        &["--then-key", "my.key"],
        2,
        "--then-key my.key: Blue's set-up line makes Blue itself the first to move, and --key writes its turn: drop --then-key",
    );
}

/// `--then` when S3 makes the other side the first to move: refused,
/// saying who moves first, and nothing written.
#[test]
fn setup_then_is_refused_when_the_line_does_not_make_its_writer_first() {
    setup_then_refused(
        "RRRRRRRRRRRR",
        "PPPPPPPPPPPP",
        &[],
        1,
        "--then: Blue's set-up line does not make you the first to move: Red moves first, so Blue's first turn cannot go with it; write the set-up line alone (without --then)",
    );
}

/// Red's key joins the game with its first set-up line (S2, protocol 3);
/// the message that carried both is lost, and the same `setup` on the
/// creator's message writes it again: the same record, Red's tags and
/// all, which Blue reads as before.
#[test]
fn a_lost_set_up_reply_that_carried_a_key_is_written_again_with_the_key() {
    let p = players();
    playground_to_s2(&p, &[], &[]);
    let said = run(
        &p.red,
        &[
            "setup",
            "1.eml",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "2again.eml",
        ],
    );
    assert!(said.contains("this is your set-up line S2 again"), "{said}");
    let record = |name: &str| {
        let text = std::fs::read_to_string(p.red.join(name)).unwrap();
        let at = text.find("\n[").expect("a record");
        let end = text[at..].find("\n-- \n").map_or(text.len(), |e| at + e);
        text[at..end].to_owned()
    };
    let again = record("2again.eml");
    assert!(again.contains("[RedKey "), "{again}");
    assert_eq!(again, record("2.eml"));
    mail(&p.red, &p.blue, "2again.eml");
    let s = json(&p.blue, &["check", "2again.eml", "--format", "json"]);
    assert_eq!(s["ok"], true, "{s}");
}

/// Before typing `setup --then TURN`, the writer of the set-up's last
/// line sees what that line will produce: `setup --dry-run` shows the
/// position as the writer will see it, the turns it will allow and the
/// command that writes both lines, printing no signature and writing
/// nothing (no message, the key file as it was). A turn it lists is
/// then taken by `setup --then`.
#[test]
fn setup_dry_run_shows_the_position_and_turns_the_last_set_up_line_will_produce() {
    let p = players();
    playground_to_s2(
        &p,
        &["--throws", "PPPPPPPPPPPP"],
        &["--throws", "RRRRRRRRRRRR"],
    );
    mail(&p.red, &p.blue, "2.eml");
    let key = std::fs::read(p.blue.join("my.key")).unwrap();
    let out = herald(&p.blue)
        .args(["setup", "2.eml", "--key", "my.key", "--dry-run"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(
        said.contains("This line makes Blue the first to move. The position it will produce, as Blue sees it:"),
        "{said}"
    );
    assert!(
        said.contains("Write it with your first turn, one message: herald setup 2.eml --key my.key --then \"YOUR TURN\" --reply -o OUT.eml"),
        "{said}"
    );
    assert!(!said.contains("sig "), "{said}");
    assert!(said.contains("dry run: nothing written"), "{said}");
    assert_eq!(std::fs::read(p.blue.join("my.key")).unwrap(), key);
    let files: Vec<_> = std::fs::read_dir(&p.blue)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(!files.iter().any(|f| f.starts_with('3')), "{files:?}");
    // The turns it allows are the ones `legal` lists once S3 is written.
    let legal = said
        .lines()
        .skip_while(|l| !l.contains("legal action"))
        .nth(1)
        .map(|l| l.trim().split(',').next().unwrap().trim().to_owned())
        .expect("a legal action listed");
    run(
        &p.blue,
        &[
            "setup", "2.eml", "--key", "my.key", "--then", &legal, "--reply", "-o", "3.eml",
        ],
    );
    // The roll shown is the roll the turn gets.
    let rolled = said
        .lines()
        .find_map(|l| l.strip_prefix("Blue to move: rolled "))
        .expect("the roll shown");
    let text = std::fs::read_to_string(p.blue.join("3.eml")).unwrap();
    assert!(
        text.contains("S3. Blue:") && text.contains(&format!("1. Blue: die={rolled}, {legal}")),
        "{text}"
    );
}

/// Where herald knows the key file of whoever runs the command it names
/// (a `--key` given for the writer's own next step), it names that file;
/// in a message to another player, whose key file it cannot know, it says
/// `YOUR.key` (docs/mailbox.md).
#[test]
fn a_command_for_the_writers_own_next_step_names_its_key_file_and_a_message_says_your_key() {
    let p = common::castle_danger_keyed();
    // A message answered without --reply: the answer named is the one
    // typed, with the key file given.
    let out = herald(&p.blue)
        .args(["move", "c2.eml", "Kc1-b1", "--key", "my.key"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("(herald move c2.eml \"Kc1-b1\" --key my.key --reply -o reply.eml)"),
        "{err}"
    );
    // The message Blue's turn goes out in tells Red what to do next with
    // Red's own key file, whose name Blue's herald cannot know.
    run(
        &p.blue,
        &[
            "move", "c2.eml", "Kc1-b1", "--key", "my.key", "--reply", "-o", "3.eml",
        ],
    );
    let text = std::fs::read_to_string(p.blue.join("3.eml")).unwrap();
    assert!(
        text.contains(
            "Next, Red (turn 2), answering with:\nherald move MESSAGE.eml \"YOUR TURN\" --key YOUR.key --reply -o reply.eml"
        ),
        "{text}"
    );
    assert!(!text.contains("--key KEY"), "{text}");
}
