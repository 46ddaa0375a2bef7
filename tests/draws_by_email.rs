//! Draws by agreement by email, through the real binary (spec section
//! 3.10): each player in their own directory with their own key file,
//! every step answered with `--reply -o` on the message received. A draw
//! offered on a line (`offer draw` after its actions) is accepted by the
//! other side's next line (`accept draw`), or declined by playing on; with
//! three sides every other side accepts in turn order. The words are under
//! the players' seals, the result is `draw:agreement`, and in a game with
//! hidden values the audit follows as after any other end.

mod common;
use common::{field, herald, json, refused_answer, run};

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The message's closing lines, from its `Next, ...` line on.
fn next(message: &Path) -> String {
    let text = std::fs::read_to_string(message).unwrap();
    let at = text
        .find("\nNext, ")
        .unwrap_or_else(|| panic!("no Next line in {text}"));
    text[at + 1..].trim_end().to_owned()
}

/// Mail `name` from `from` to `to`.
fn mail(from: &Path, to: &Path, name: &str) {
    std::fs::copy(from.join(name), to.join(name)).unwrap();
}

/// `herald check MESSAGE --format json` in `dir`.
fn status(dir: &Path, message: &str) -> Value {
    json(dir, &["check", message, "--format", "json"])
}

/// `herald move MESSAGE TURN --key my.key --reply -o OUT` in `dir`, which
/// must succeed: its standard output.
fn answer(dir: &Path, message: &str, turn: &str, out: &str) -> String {
    run(
        dir,
        &[
            "move", message, turn, "--key", "my.key", "--reply", "-o", out,
        ],
    )
}

/// The first legal action of the side of `dir`'s key in `message`.
fn first_legal(dir: &Path, message: &str) -> String {
    let legal = json(
        dir,
        &["legal", message, "--key", "my.key", "--format", "json"],
    );
    legal["actions"][0]["action"]
        .as_str()
        .unwrap_or_else(|| panic!("no legal action: {legal}"))
        .to_owned()
}

/// One directory a player, under a temporary root.
struct Players {
    _root: tempfile::TempDir,
    dirs: Vec<PathBuf>,
}

fn players(names: &[&str]) -> Players {
    let root = tempfile::tempdir().unwrap();
    let dirs = names
        .iter()
        .map(|n| {
            let d = root.path().join(n);
            std::fs::create_dir(&d).unwrap();
            d
        })
        .collect();
    Players { _root: root, dirs }
}

/// Castle Danger between ann (Blue) and bob (Red), both keys added by
/// message: `2.eml`, Blue's turn 1 due, in ann's directory.
fn castle_danger() -> Players {
    let p = players(&["ann", "bob"]);
    let (ann, bob) = (&p.dirs[0], &p.dirs[1]);
    run(
        ann,
        &[
            "new",
            "--protocol",
            "2",
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
        ann,
        &[
            "keygen",
            "--side",
            "Blue",
            "game.pbem",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "1.eml",
        ],
    );
    mail(ann, bob, "1.eml");
    run(
        bob,
        &[
            "keygen", "--side", "Red", "1.eml", "--key", "my.key", "--reply", "-o", "2.eml",
        ],
    );
    mail(bob, ann, "2.eml");
    p
}

#[test]
fn a_draw_offered_and_accepted_by_email_ends_castle_danger_as_a_draw_by_agreement() {
    let p = castle_danger();
    let (ann, bob) = (&p.dirs[0], &p.dirs[1]);
    // 3: Blue moves and offers a draw.
    answer(ann, "2.eml", "Kc1-b1, offer draw", "3.eml");
    let three = ann.join("3.eml");
    assert_eq!(
        field(&three, "Subject"),
        "Castle Danger: turn 1 (Blue) played, Blue offers a draw, Red to answer"
    );
    assert_eq!(
        next(&three),
        "Next, Red (turn 2): Blue offered a draw on turn 1. Accept it with:\n\
         herald move MESSAGE.eml \"accept draw\" --key YOUR.key --reply -o reply.eml\n\
         or decline it by playing on:\n\
         herald move MESSAGE.eml \"YOUR TURN\" --key YOUR.key --reply -o reply.eml"
    );
    assert!(std::fs::read_to_string(&three)
        .unwrap()
        .contains("1. Blue: Kc1-b1, offer draw\n"));
    mail(ann, bob, "3.eml");
    // Red's one look and its list of actions say so, in JSON too.
    let look = json(
        bob,
        &["show", "3.eml", "--key", "my.key", "--format", "json"],
    );
    assert_eq!(
        look["look"]["due"]["text"],
        "turn 2 is Red's, and Blue offered a draw on turn 1: accept it (herald move \"accept \
         draw\" --key) or decline it by playing on (herald move)"
    );
    let legal = json(
        bob,
        &["legal", "3.eml", "--key", "my.key", "--format", "json"],
    );
    assert_eq!(
        legal["note"],
        "Blue offered a draw on turn 1: accept it with herald move \"accept draw\" --key, or \
         decline it by playing on"
    );
    let offered = status(bob, "3.eml");
    assert_eq!(offered["result"], "*");
    assert_eq!(offered["draw"]["state"], "offered");
    assert_eq!(offered["draw"]["waiting"], serde_json::json!(["Red"]));
    // 4: Red accepts: the game is over.
    answer(bob, "3.eml", "accept draw", "4.eml");
    let four = bob.join("4.eml");
    assert_eq!(
        field(&four, "Subject"),
        "Castle Danger: turn 2 (Red) played, drawn by agreement"
    );
    assert!(std::fs::read_to_string(&four)
        .unwrap()
        .contains("The game is over: herald check MESSAGE.eml gives the result."));
    mail(bob, ann, "4.eml");
    let over = status(ann, "4.eml");
    assert_eq!(over["result"], "draw:agreement", "{over}");
    assert_eq!(over["phase"], "over");
    assert_eq!(
        over["summary"],
        "a draw by agreement (Blue offered on turn 1, Red accepted on turn 2)"
    );
    assert_eq!(
        over["draw"],
        serde_json::json!({
            "state": "agreed",
            "offered_by": "Blue",
            "offered_on": 1,
            "accepted": [{"side": "Red", "turn": 2}],
            "waiting": []
        })
    );
    let text = run(ann, &["check", "4.eml"]);
    assert!(
        text.contains("OK: Castle Danger, 2 turns, result draw:agreement\na draw by agreement (Blue offered on turn 1, Red accepted on turn 2)\n"),
        "{text}"
    );
    // annotate says what each line did.
    let notes = json(ann, &["annotate", "4.eml", "--format", "json"]);
    let comment = |k: usize| notes["turns"][k]["comment"].as_str().unwrap().to_owned();
    assert!(comment(0).ends_with("Blue offers a draw"), "{notes}");
    assert_eq!(comment(1), "Red accepts: drawn by agreement", "{notes}");
    assert_eq!(notes["turns"][1]["line"], "accept draw");
    // Nobody plays on after it.
    let error = refused_answer(ann, "4.eml", "Kb1-c1", "5.eml");
    assert!(
        error.contains(
            "the game is over: a draw by agreement (Blue offered on turn 1, Red accepted on turn 2)"
        ),
        "{error}"
    );
}

/// The record of a message, the text between its first `[Game` and its
/// signature.
fn record_of(message: &Path) -> String {
    let text = std::fs::read_to_string(message).unwrap();
    let start = text.find("[Game ").unwrap();
    let end = text[start..]
        .find("\n-- \n")
        .map_or(text.len(), |e| start + e);
    text[start..end].to_owned()
}

fn check_text(dir: &Path, text: &str) -> Value {
    let out = herald(dir)
        .args(["check", "--format", "json", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_stripped_or_added_offer_or_acceptance_breaks_the_players_seal() {
    let p = castle_danger();
    let (ann, bob) = (&p.dirs[0], &p.dirs[1]);
    answer(ann, "2.eml", "Kc1-b1, offer draw", "3.eml");
    mail(ann, bob, "3.eml");
    answer(bob, "3.eml", "accept draw", "4.eml");
    let record = record_of(&bob.join("4.eml"));
    // The offer stripped: Blue's seal breaks (and nothing was offered).
    let stripped = record.replace("1. Blue: Kc1-b1, offer draw\n", "1. Blue: Kc1-b1\n");
    assert_ne!(stripped, record);
    let error = &check_text(ann, &stripped)["error"];
    assert_eq!(error["turn"], 1, "{error}");
    assert_eq!(error["side"], "Blue", "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("Blue's signature does not match this line here"),
        "{error}"
    );
    // The acceptance turned into a pass: Red's seal breaks.
    let declined = record.replace("2. Red: accept draw\n", "2. Red: pass\n");
    assert_ne!(declined, record);
    let error = &check_text(ann, &declined)["error"];
    assert_eq!(error["turn"], 2, "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("Red's signature does not match this line here"),
        "{error}"
    );
    // An offer added to a line that made none: that side's seal breaks.
    let added = record.replace(
        "1. Blue: Kc1-b1, offer draw\n",
        "1. Blue: Kc1-b1, offer draw, offer draw\n",
    );
    assert!(!check_text(ann, &added)["ok"].as_bool().unwrap());
}

#[test]
fn a_draw_declined_by_playing_on_lapses_and_cannot_be_accepted_later() {
    let p = castle_danger();
    let (ann, bob) = (&p.dirs[0], &p.dirs[1]);
    answer(ann, "2.eml", "Kc1-b1, offer draw", "3.eml");
    mail(ann, bob, "3.eml");
    // 4: Red plays on.
    answer(bob, "3.eml", "Kc9-b9", "4.eml");
    let four = bob.join("4.eml");
    assert_eq!(
        field(&four, "Subject"),
        "Castle Danger: turn 2 (Red) played, Blue to move"
    );
    mail(bob, ann, "4.eml");
    let lapsed = status(ann, "4.eml");
    assert_eq!(lapsed["draw"], Value::Null, "{lapsed}");
    assert_eq!(lapsed["result"], "*");
    // Blue cannot accept its own offer, which lapsed anyway.
    let error = refused_answer(ann, "4.eml", "accept draw", "5.eml");
    assert!(
        error.contains("accept draw: no draw is offered: Blue can accept a draw only on its line right after another side offers one"),
        "{error}"
    );
    assert!(
        error.contains("herald move \"<actions>, offer draw\" --key"),
        "{error}"
    );
}

/// Playground Battles between ann (Blue) and bob (Red), set up by
/// message as in `lifecycle_by_email.rs` (Blue moves first): `6.eml`,
/// Blue's turn 1 due, in ann's directory.
fn playground(before_s3: impl Fn(&Path)) -> Players {
    let p = players(&["ann", "bob"]);
    let (ann, bob) = (&p.dirs[0], &p.dirs[1]);
    run(
        ann,
        &[
            "new",
            "--protocol",
            "2",
            "playground-battles",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "-o",
            "game.pbem",
        ],
    );
    run(
        ann,
        &[
            "keygen",
            "--side",
            "Blue",
            "game.pbem",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "1.eml",
        ],
    );
    mail(ann, bob, "1.eml");
    run(
        bob,
        &[
            "keygen", "--side", "Red", "1.eml", "--key", "my.key", "--reply", "-o", "2.eml",
        ],
    );
    mail(bob, ann, "2.eml");
    let steps: [(&Path, &Path, &str, &str, &[&str]); 4] = [
        (
            ann,
            bob,
            "2.eml",
            "3.eml",
            &["--army", "RRRRPPPSSS", "--throws", "PPPPPPPPPPPP"],
        ),
        (
            bob,
            ann,
            "3.eml",
            "4.eml",
            &["--army", "SSSPPPRRRR", "--throws", "RRRRRRRRRRRR"],
        ),
        (ann, bob, "4.eml", "5.eml", &[]),
        (bob, ann, "5.eml", "6.eml", &[]),
    ];
    for (dir, to, input, out, choices) in steps {
        if out == "5.eml" {
            before_s3(ann);
        }
        let mut args = vec!["setup", input, "--key", "my.key", "--reply", "-o", out];
        args.extend_from_slice(choices);
        run(dir, &args);
        mail(dir, to, out);
    }
    assert_eq!(status(ann, "6.eml")["step"]["line"], "turn 1");
    p
}

#[test]
fn a_draw_by_agreement_in_playground_battles_is_provisional_until_the_audit() {
    // An offer during the set-up is refused: ann's S3 is due on 4.eml.
    let p = playground(|ann| {
        let key = std::fs::read(ann.join("my.key")).unwrap();
        let o = herald(ann)
            .args([
                "move",
                "4.eml",
                "Kc1-b1, offer draw",
                "--key",
                "my.key",
                "--reply",
                "-o",
                "x.eml",
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        assert!(!ann.join("x.eml").exists());
        assert_eq!(std::fs::read(ann.join("my.key")).unwrap(), key);
        let error = String::from_utf8(o.stderr).unwrap();
        assert!(
        error.contains("no draw can be offered or accepted during the set-up: the set-up is not finished: S3 is Blue's set-up step"),
        "{error}"
    );
    });
    let (ann, bob) = (&p.dirs[0], &p.dirs[1]);
    let action = first_legal(ann, "6.eml");
    answer(ann, "6.eml", &format!("{action}, offer draw"), "7.eml");
    assert_eq!(
        field(&ann.join("7.eml"), "Subject"),
        "Playground Battles: turn 1 (Blue) played, Blue offers a draw, Red to answer"
    );
    mail(ann, bob, "7.eml");
    // Red accepts; the game ended on Red's own line, so Red's audit goes
    // with it, and Blue's is due.
    answer(bob, "7.eml", "accept draw", "8.eml");
    let eight = bob.join("8.eml");
    assert_eq!(
        field(&eight, "Subject"),
        "Playground Battles: turns 2-3 (Red) played, drawn by agreement, Blue's audit due, the result provisional"
    );
    mail(bob, ann, "8.eml");
    let audit = status(ann, "8.eml");
    assert_eq!(audit["phase"], "audit", "{audit}");
    assert_eq!(audit["result"], "*");
    assert_eq!(audit["provisional"], "draw");
    assert_eq!(audit["draw"]["state"], "agreed");
    assert_eq!(audit["step"]["side"], "Blue");
    // No offer in the audit.
    let error = refused_answer(ann, "8.eml", "offer draw", "x.eml");
    assert!(error.contains("in its audit"), "{error}");
    // Red's own audit went with its acceptance: Blue's audit ends it,
    // both armies keeping the set-up rules.
    let record = std::fs::read_to_string(ann.join("8.eml")).unwrap();
    assert!(record.contains("3. Red: audit"), "{record}");
    answer(ann, "8.eml", "audit", "9.eml");
    assert_eq!(
        field(&ann.join("9.eml"), "Subject"),
        "Playground Battles: turn 4 (Blue) played, drawn by agreement"
    );
    mail(ann, bob, "9.eml");
    let over = status(bob, "9.eml");
    assert_eq!(over["phase"], "over", "{over}");
    assert_eq!(over["result"], "draw:agreement");
    assert_eq!(over["failed_audits"], serde_json::json!([]));
}

const DALE: [(&str, &str); 3] = [("Human", "ann"), ("Elf", "eve"), ("Goblin", "gus")];

/// Battle of the Dale for three, every key added by message: `3.eml`,
/// Human's turn 1 due, in every directory.
fn dale() -> Players {
    let p = players(&["ann", "eve", "gus"]);
    let mut args: Vec<String> = vec!["new".into(), "battle-of-the-dale".into()];
    for (side, who) in DALE {
        args.extend(["--side".into(), format!("{side}={who}@example.org")]);
    }
    args.extend(["-o".into(), "game.pbem".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&p.dirs[0], &args);
    let mut input = "game.pbem".to_owned();
    for (i, (side, _)) in DALE.iter().enumerate() {
        let out = format!("{}.eml", i + 1);
        run(
            &p.dirs[i],
            &[
                "keygen", "--side", side, &input, "--key", "my.key", "--reply", "-o", &out,
            ],
        );
        for d in &p.dirs {
            if *d != p.dirs[i] {
                mail(&p.dirs[i], d, &out);
            }
        }
        input = out;
    }
    assert_eq!(status(&p.dirs[0], "3.eml")["to_move"], "Human");
    p
}

/// Mail `name` from `from` to every other directory.
fn mail_all(p: &Players, from: usize, name: &str) {
    for (i, d) in p.dirs.iter().enumerate() {
        if i != from {
            mail(&p.dirs[from], d, name);
        }
    }
}

#[test]
fn with_three_armies_every_other_army_accepts_in_turn_order() {
    let p = dale();
    let (ann, eve, gus) = (&p.dirs[0], &p.dirs[1], &p.dirs[2]);
    let action = first_legal(ann, "3.eml");
    answer(ann, "3.eml", &format!("{action}, offer draw"), "4.eml");
    assert_eq!(
        field(&ann.join("4.eml"), "Subject"),
        "Battle of the Dale: turn 1 (Human) played, Human offers a draw, Elf to answer"
    );
    mail_all(&p, 0, "4.eml");
    // Elf is not the last to accept: its turn goes on, so it accepts
    // after its action (the Dale allows no pass while an action is
    // possible), and the hint says so.
    assert!(
        next(&eve.join("4.eml")).contains("herald move MESSAGE.eml \"YOUR TURN, accept draw\""),
        "{}",
        next(&eve.join("4.eml"))
    );
    let action = first_legal(eve, "4.eml");
    answer(eve, "4.eml", &format!("{action}, accept draw"), "5.eml");
    assert_eq!(
        field(&eve.join("5.eml"), "Subject"),
        "Battle of the Dale: turn 2 (Elf) played, Human offers a draw, Goblin to answer"
    );
    mail_all(&p, 1, "5.eml");
    let waiting = status(gus, "5.eml");
    assert_eq!(waiting["draw"]["waiting"], serde_json::json!(["Goblin"]));
    assert_eq!(
        waiting["draw"]["accepted"],
        serde_json::json!([{"side": "Elf", "turn": 2}])
    );
    answer(gus, "5.eml", "accept draw", "6.eml");
    assert_eq!(
        field(&gus.join("6.eml"), "Subject"),
        "Battle of the Dale: turn 3 (Goblin) played, drawn by agreement"
    );
    mail_all(&p, 2, "6.eml");
    let over = status(ann, "6.eml");
    assert_eq!(over["result"], "draw:agreement", "{over}");
    assert_eq!(
        over["summary"],
        "a draw by agreement (Human offered on turn 1, Elf accepted on turn 2, Goblin accepted on turn 3)"
    );
}

#[test]
fn with_three_armies_one_playing_on_declines_the_offer_for_all() {
    let p = dale();
    let (ann, eve, gus) = (&p.dirs[0], &p.dirs[1], &p.dirs[2]);
    let action = first_legal(ann, "3.eml");
    answer(ann, "3.eml", &format!("{action}, offer draw"), "4.eml");
    mail_all(&p, 0, "4.eml");
    let action = first_legal(eve, "4.eml");
    answer(eve, "4.eml", &format!("{action}, accept draw"), "5.eml");
    mail_all(&p, 1, "5.eml");
    // Goblin plays on: the offer lapses, and Human's turn comes.
    let action = first_legal(gus, "5.eml");
    answer(gus, "5.eml", &action, "6.eml");
    assert_eq!(
        field(&gus.join("6.eml"), "Subject"),
        "Battle of the Dale: turn 3 (Goblin) played, Human to move"
    );
    mail_all(&p, 2, "6.eml");
    let lapsed = status(ann, "6.eml");
    assert_eq!(lapsed["result"], "*", "{lapsed}");
    assert_eq!(lapsed["draw"], Value::Null);
    assert_eq!(lapsed["to_move"], "Human");
}
