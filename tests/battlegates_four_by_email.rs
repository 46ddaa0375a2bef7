//! Battlegates with four castles by email, through the real binary: four
//! players (Setup "four-castles-solo"), each in their own directory with
//! their own key file and copy of the record, mailing it to the other
//! three after every line (here: copying the file). The hidden mazes are
//! committed and opened castle by castle; Castle1 deals with no opening
//! roll; two rounds of turns are written with `move --key` in the order
//! Castle1, Castle2, Castle3, Castle4, each discarding the card it drew
//! and shooting an arrow that can hit nothing, and read back with
//! `legal`, `show`, `annotate` and `fate`.

mod common;
use common::{field, herald, json, refused_answer, run};

use std::path::{Path, PathBuf};

use serde_json::Value;

const CASTLES: [&str; 4] = ["Castle1", "Castle2", "Castle3", "Castle4"];

/// Each castle's maze: Castle1's on the west board's rows 1-6, Castle2's
/// on its rows 7-12, Castle3's and Castle4's the same ten columns east.
const MAZES: [&str; 4] = [
    "Wd1n Wa2n Wh3n Wi3n Gh1nw Gd3nw Gf3ne Le1nw Lb1ne Lg4nw",
    "Wa9n Wb9n Wh9n Wi9n Ge11nw Gb10ne Gh10nw Lc8nw Lf8nw Lb11nw",
    "Wn1n Wk2n Wr3n Ws3n Gr1nw Gn3nw Gp3ne Lo1nw Ll1ne Lq4nw",
    "Wk9n Wl9n Wr9n Ws9n Go11nw Gl10ne Gr10nw Lm8nw Lp8nw Ll11nw",
];

/// Each castle's first Archer and the way it shoots: up the board from
/// row 1, down it from row 12. Within a roll of 4 the arrow reaches
/// neither another character nor a Keep.
const SHOTS: [&str; 4] = ["shoot d1 n", "shoot d12 s", "shoot n1 n", "shoot n12 s"];

struct Table {
    _root: tempfile::TempDir,
    dirs: Vec<PathBuf>,
}

impl Table {
    fn dir(&self, castle: &str) -> &Path {
        let i = CASTLES.iter().position(|c| *c == castle).unwrap();
        &self.dirs[i]
    }

    /// Mail the record from `from` to the three others.
    fn mail(&self, from: &Path) {
        for d in &self.dirs {
            if d != from {
                std::fs::copy(from.join("game.pbem"), d.join("game.pbem")).unwrap();
            }
        }
    }

    fn new() -> Table {
        let root = tempfile::tempdir().unwrap();
        let dirs: Vec<PathBuf> = ["ann", "bob", "cid", "dee"]
            .iter()
            .map(|n| root.path().join(n))
            .collect();
        for d in &dirs {
            std::fs::create_dir(d).unwrap();
        }
        let t = Table { _root: root, dirs };
        let mut args = vec!["new", "--protocol", "2", "battlegates"];
        let sides: Vec<String> = CASTLES
            .iter()
            .zip(["ann", "bob", "cid", "dee"])
            .map(|(c, n)| format!("{c}={n}@example.org"))
            .collect();
        for s in &sides {
            args.extend(["--side", s.as_str()]);
        }
        args.extend(["--option", "Setup=four-castles-solo", "-o", "game.pbem"]);
        run(&t.dirs[0], &args);
        // Each player in turn adds its commitment and mails the record on.
        for (i, castle) in CASTLES.iter().enumerate() {
            if i > 0 {
                std::fs::copy(t.dirs[i - 1].join("game.pbem"), t.dirs[i].join("game.pbem"))
                    .unwrap();
            }
            run(
                &t.dirs[i],
                &["keygen", "--side", castle, "game.pbem", "-o", "my.key"],
            );
        }
        t.mail(&t.dirs[3]);
        t
    }
}

fn status(dir: &Path) -> Value {
    json(dir, &["check", "game.pbem", "--format", "json"])
}

fn due(s: &Value) -> Vec<String> {
    s["due"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn four_players_set_up_and_play_two_rounds_by_email() {
    let t = Table::new();
    let record = std::fs::read_to_string(t.dirs[0].join("game.pbem")).unwrap();
    for c in CASTLES {
        assert!(record.contains(&format!("[{c}Commit ")), "{c}");
    }
    assert!(record.contains("[Setup \"four-castles-solo\"]"));
    // The set-up: every castle commits, then every castle opens.
    for round in 0..2 {
        for (castle, maze) in CASTLES.iter().zip(MAZES) {
            assert_eq!(due(&status(t.dir(castle))), [*castle], "round {round}");
            let mut args = vec!["setup", "game.pbem", "--key", "my.key"];
            if round == 0 {
                args.extend(["--maze", maze]);
            }
            run(t.dir(castle), &args);
            t.mail(t.dir(castle));
        }
    }
    let s = status(&t.dirs[0]);
    let position = s["position"].as_str().unwrap().to_owned();
    // Forty pieces on the board, Castle1 to move, three cards each.
    let fields: Vec<&str> = position.split(' ').collect();
    assert_eq!(fields[0], "four-castles-solo");
    assert_eq!(fields[2].split(',').count(), 40);
    assert_eq!(fields[3], "Castle1");
    let hands: Vec<&str> = fields[4].split('/').collect();
    assert_eq!(hands.len(), 5);
    assert!(hands[..4].iter().all(|h| h.len() == 3), "{hands:?}");
    // fate: the deal, twelve cards, and no opening roll.
    let fate = json(&t.dirs[1], &["fate", "game.pbem", "--format", "json"]);
    let labels: Vec<&str> = fate["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels.iter().filter(|l| **l == "deal").count(), 12);
    assert!(!labels.contains(&"opening"));
    // Two rounds: 1, 2, 3, 4, 1, 2, 3, 4.
    for number in 1..=8u32 {
        let castle = CASTLES[(number as usize - 1) % 4];
        let dir = t.dir(castle);
        let before = status(dir);
        assert_eq!(before["to_move"], castle, "turn {number}");
        let legal = json(
            dir,
            &["legal", "game.pbem", "--key", "my.key", "--format", "json"],
        );
        let card = legal["chance"][0]["value"].as_str().unwrap().to_owned();
        let turn = format!("discard {card}, {}", SHOTS[(number as usize - 1) % 4]);
        run(dir, &["move", "game.pbem", &turn, "--key", "my.key"]);
        t.mail(dir);
        // Another castle's player may not write this castle's turn.
        if number == 1 {
            let next = t.dir("Castle3");
            let out = herald(next)
                .args(["move", "game.pbem", "discard scale", "--key", "my.key"])
                .output()
                .unwrap();
            assert!(!out.status.success());
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("Castle2"), "{err}");
        }
    }
    // Every copy agrees; each turn's annotation tells of its shot.
    let last = status(&t.dirs[2]);
    for d in &t.dirs {
        assert_eq!(status(d)["position"], last["position"]);
    }
    assert_eq!(last["turns"], 8);
    assert_eq!(last["to_move"], "Castle1");
    let notes = json(&t.dirs[3], &["annotate", "game.pbem", "--format", "json"]);
    // Eight set-up lines (each castle commits, then opens), eight turns.
    let lines = notes["turns"].as_array().unwrap();
    assert_eq!(lines.len(), 16);
    for (i, turn) in lines[8..].iter().enumerate() {
        assert_eq!(turn["side"], CASTLES[i % 4]);
        assert!(
            turn["comment"]
                .as_str()
                .unwrap()
                .contains("an arrow hit nothing"),
            "{turn}"
        );
    }
    // show draws Battle Alley compactly, every line within 78 columns.
    let shown = run(&t.dirs[0], &["show", "game.pbem"]);
    assert!(shown.contains("Castle4's Keep: -"), "{shown}");
    assert!(shown.lines().all(|l| l.chars().count() <= 78), "{shown}");
}

/// `herald new battlegates` in `dir` for the four castles (each
/// `castleN@example.org`), set-up `setup` with hidden hands, Castle1's
/// key file `key` and the first maze, then `out` (`-o FILE`, or `--reply
/// -o FILE`).
fn new_four_castles(dir: &Path, setup: &str, key: &str, out: &[&str]) {
    let option = format!("Setup={setup}");
    let sides: Vec<String> = CASTLES
        .iter()
        .map(|c| format!("{c}={}@example.org", c.to_lowercase()))
        .collect();
    let mut args = vec!["new", "battlegates"];
    for s in &sides {
        args.extend(["--side", s.as_str()]);
    }
    args.extend(["--option", &option, "--option", "Hands=hidden"]);
    args.extend(["--key", key, "--maze", MAZES[0]]);
    args.extend(out);
    run(dir, &args);
}

/// Four castles under protocol 3 (what `new` writes) with hidden hands
/// (Setup `setup`), set up by email: Castle1 begins with its key and
/// maze, each other castle joins with `setup --side`, and every step is
/// taken by the castle `check` names, the record mailed (copied) to the
/// three others after each. The folders (one a castle, with `game.pbem`
/// and `my.key`) and the number of set-up lines.
fn set_up_under_protocol_3(setup: &str) -> (tempfile::TempDir, Vec<PathBuf>, usize) {
    let root = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = CASTLES
        .iter()
        .map(|c| {
            let d = root.path().join(c);
            std::fs::create_dir(&d).unwrap();
            d
        })
        .collect();
    let mail = |from: &Path| {
        for d in &dirs {
            if d != from {
                std::fs::copy(from.join("game.pbem"), d.join("game.pbem")).unwrap();
            }
        }
    };
    new_four_castles(&dirs[0], setup, "my.key", &["-o", "game.pbem"]);
    mail(&dirs[0]);
    let mut lines = 1;
    loop {
        let s = json(&dirs[0], &["check", "game.pbem", "--format", "json"]);
        assert_eq!(s["ok"], true, "{setup}: {s}");
        if s["phase"] != "setup" {
            assert_eq!(s["phase"], "play", "{setup}: {s}");
            break;
        }
        let castle = s["step"]["side"].as_str().unwrap();
        let i = CASTLES.iter().position(|c| *c == castle).unwrap();
        let dir = &dirs[i];
        let mut step = vec!["setup", "game.pbem", "--key", "my.key"];
        // Teams: Castle3 plays from Castle1's hand, Castle4 from
        // Castle2's, with the holder's key file.
        let holder = dirs[i - 2.min(i)].join("my.key");
        let holder = holder.to_str().unwrap();
        if setup != "four-castles-solo" && i >= 2 {
            step.extend(["--hand-key", holder]);
        }
        if !dir.join("my.key").exists() {
            assert_eq!(s["step"]["step"], "commit", "{setup}: {s}");
            step.extend(["--side", castle, "--maze", MAZES[i]]);
        }
        run(dir, &step);
        mail(dir);
        lines += 1;
        assert!(lines <= 10, "{setup}: the set-up did not end: {s}");
    }
    (root, dirs, lines)
}

/// Under protocol 3 (what `new` writes) four castles with hidden hands are
/// set up with each castle's key joining on its first set-up line: Castle1
/// begins with its key and maze, each other castle joins with `setup
/// --side`, the last to commit (Castle4) also opens its maze, then the
/// others open in turn order from Castle1; each hand passes over the deck
/// on the first line of one of its castles once every card key is in, and
/// the shares due before turn 1 follow: alone, on lines of their own
/// after the set-up (nine set-up lines); with teams, on the last pass
/// (seven, one a castle's commitments and three more openings). Every
/// step is taken by the castle `check` names, and play begins.
#[test]
fn four_castles_under_protocol_3_join_with_their_first_set_up_lines() {
    for setup in ["four-castles-solo", "four-castles-allies", "four-castles"] {
        let (_root, dirs, lines) = set_up_under_protocol_3(setup);
        // Four commitments (the last with its openings and pass) and
        // three more lines of openings. Alone, each castle's hand passes
        // on its opening line, the last pass (Castle3's, S7) with its
        // shares, and the two hands that passed before the deck was final
        // and do not move first give theirs on a line each (Castle2's,
        // Castle4's). With teams, Castle1's pass on S5 makes the deck
        // final and Castle2's S6 gives its team's shares.
        let expected = if setup == "four-castles-solo" { 9 } else { 7 };
        assert_eq!(lines, expected, "{setup}: {lines} set-up lines");
        let s = json(&dirs[1], &["check", "game.pbem", "--format", "json"]);
        assert_eq!(s["step"]["step"], "turn", "{setup}: {s}");
    }
}

/// `herald move MESSAGE audit --key my.key --reply -o OUT` in `dir`: it
/// must succeed; what herald said.
fn audit(dir: &Path, message: &str, out: &str) -> String {
    run(
        dir,
        &[
            "move", message, "audit", "--key", "my.key", "--reply", "-o", out,
        ],
    )
}

/// The first `discard` action `legal --key my.key` lists in `dir`: the
/// card drawn this turn, or another, thrown away; read on `day` when one
/// is given (`HERALD_TODAY`: a reader refuses a claim from its future).
fn first_discard(dir: &Path, day: Option<&str>) -> String {
    let mut cmd = herald(dir);
    if let Some(day) = day {
        cmd.env("HERALD_TODAY", day);
    }
    let out = cmd
        .args(["legal", "game.pbem", "--key", "my.key", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    discard_listed(&serde_json::from_slice(&out.stdout).unwrap())
}

/// The first `discard` action of `legal --format json`'s `listed`.
fn discard_listed(listed: &Value) -> String {
    listed["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["action"].as_str())
        .find(|a| a.starts_with("discard "))
        .unwrap_or_else(|| panic!("{listed}"))
        .to_owned()
}

/// Copy the message `name` from `from` into every other folder.
fn mail_all(dirs: &[PathBuf], from: &Path, name: &str) {
    for d in dirs {
        if d != from {
            std::fs::copy(from.join(name), d.join(name)).unwrap();
        }
    }
}

/// A draw agreed by all four castles ends a game in which every castle
/// still holds a hidden hand. Castle4's acceptance carries its own audit,
/// and its message goes to the three castles whose audits are due. They
/// audit in any order, by message: Castle2 and Castle3 at once on the
/// same message; each then finds the other's audit without its own, and
/// writes its own there again (the same openings); Castle1 audits last.
/// No order sticks the game: both copies end in the draw, every pass
/// audited clean.
#[test]
fn four_castles_audit_in_any_order_and_at_once_after_a_draw_by_agreement() {
    let (_root, dirs, _) = set_up_under_protocol_3("four-castles-solo");
    let dir = |castle: usize| dirs[castle - 1].as_path();
    // Turns 1-3: each castle discards its first card and shoots an arrow
    // that hits nothing; Castle1 offers a draw, Castle2 and Castle3
    // accept.
    for (i, word) in ["offer draw", "accept draw", "accept draw"]
        .iter()
        .enumerate()
    {
        let d = &dirs[i];
        let discard = first_discard(d, None);
        let turn = format!("{discard}, {}, {word}", SHOTS[i]);
        run(d, &["move", "game.pbem", &turn, "--key", "my.key"]);
        mail_all(&dirs, d, "game.pbem");
    }
    // Castle4 accepts last: the game ends on its own line, its audit goes
    // with it, and the three others' audits are due.
    let said = run(
        dir(4),
        &[
            "move",
            "game.pbem",
            "accept draw",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "end.eml",
        ],
    );
    assert!(
        said.contains("Castle4's audit (turn 5) goes with it"),
        "{said}"
    );
    let end = dir(4).join("end.eml");
    assert_eq!(
        field(&end, "To"),
        "castle1@example.org, castle2@example.org, castle3@example.org"
    );
    assert_eq!(
        field(&end, "Subject"),
        "Battlegates: turns 4-5 (Castle4) played, drawn by agreement, Castle1's, Castle2's and Castle3's audits due, the result provisional"
    );
    let text = std::fs::read_to_string(&end).unwrap();
    assert!(
        text.contains(
            "Next, Castle1's, Castle2's and Castle3's audits, in any order, each answering with:\nherald move MESSAGE.eml audit --key YOUR.key --reply -o reply.eml"
        ),
        "{text}"
    );
    mail_all(&dirs, dir(4), "end.eml");
    let s = json(dir(1), &["check", "end.eml", "--format", "json"]);
    assert_eq!(s["phase"], "audit", "{s}");
    assert_eq!(s["provisional"], "draw", "{s}");
    assert_eq!(
        s["due"],
        serde_json::json!(["Castle1", "Castle2", "Castle3"]),
        "{s}"
    );
    // Castle2 and Castle3 audit the same message at once.
    audit(dir(2), "end.eml", "a2.eml");
    audit(dir(3), "end.eml", "a3.eml");
    let a2 = dir(2).join("a2.eml");
    assert_eq!(
        field(&a2, "Subject"),
        "Battlegates: turn 6 (Castle2) played, drawn by agreement, Castle1's and Castle3's audits due, the result provisional"
    );
    assert_eq!(field(&a2, "To"), "castle1@example.org, castle3@example.org");
    assert_eq!(field(&a2, "Cc"), "castle4@example.org");
    mail_all(&dirs, dir(2), "a2.eml");
    mail_all(&dirs, dir(3), "a3.eml");
    // Castle2 finds Castle3's audit without its own: it writes its own
    // again on that copy.
    audit(dir(2), "a3.eml", "a2-again.eml");
    let again = dir(2).join("a2-again.eml");
    let record = std::fs::read_to_string(&again).unwrap();
    assert!(record.contains("\n6. Castle3: audit\n"), "{record}");
    assert!(record.contains("\n7. Castle2: audit\n"), "{record}");
    assert_eq!(
        field(&again, "Subject"),
        "Battlegates: turn 7 (Castle2) played, drawn by agreement, Castle1's audit due, the result provisional"
    );
    // Its audit stands there: Castle2 has nothing more to write.
    let error = refused_answer(dir(2), "a2-again.eml", "audit", "x.eml");
    assert!(
        error.contains("Castle2 has no audit due: its closing line is in this record already, or it had nothing left to open; the audits still due are Castle1's"),
        "{error}"
    );
    // Castle3 does the same on Castle2's first audit.
    audit(dir(3), "a2.eml", "a3-again.eml");
    mail_all(&dirs, dir(2), "a2-again.eml");
    mail_all(&dirs, dir(3), "a3-again.eml");
    // Castle4 claims Castle1's forfeit of its audit, past the Deadline, on
    // either copy: the claim is a closing line as well, so a copy of the
    // same game without Castle4's first claim takes it again.
    for (message, out) in [("a2-again.eml", "c4.eml"), ("a3-again.eml", "c4-again.eml")] {
        run(
            dir(4),
            &[
                "move",
                message,
                "--forfeit",
                "--key",
                "my.key",
                "--date",
                "2099-01-01",
                "--reply",
                "-o",
                out,
            ],
        );
        let record = std::fs::read_to_string(dir(4).join(out)).unwrap();
        assert!(
            record.contains("\n8. Castle1: forfeit claimed by Castle4"),
            "{record}"
        );
    }
    // Castle1 audits last, on either copy: the draw stands on both.
    for (message, out) in [
        ("a2-again.eml", "final.eml"),
        ("a3-again.eml", "final-2.eml"),
    ] {
        audit(dir(1), message, out);
        let s = json(dir(1), &["check", out, "--format", "json"]);
        assert_eq!(s["ok"], true, "{s}");
        assert_eq!(s["phase"], "over", "{s}");
        assert_eq!(s["result"], "draw:agreement", "{s}");
        assert_eq!(s["failed_audits"], serde_json::json!([]), "{s}");
        assert_eq!(
            field(&dir(1).join(out), "Subject"),
            "Battlegates: turn 8 (Castle1) played, drawn by agreement"
        );
    }
}

/// Four castles for two players (Setup "four-castles"): ann plays Castle1
/// and Castle3, bob Castle2 and Castle4, each castle with its own key
/// file. A message goes to the other player and is never copied to its
/// writer, though the writer's other castle is a side of the game; one
/// address is named once.
#[test]
fn a_player_of_two_castles_is_never_copied_on_its_own_message() {
    let root = tempfile::tempdir().unwrap();
    let (ann, bob) = (root.path().join("ann"), root.path().join("bob"));
    std::fs::create_dir(&ann).unwrap();
    std::fs::create_dir(&bob).unwrap();
    run(
        &ann,
        &[
            "new",
            "battlegates",
            "--side",
            "Castle1=ann@x.org",
            "--side",
            "Castle2=bob@x.org",
            "--side",
            "Castle3=Ann <ann@x.org>",
            "--side",
            "Castle4=bob@x.org",
            "--option",
            "Setup=four-castles",
            "--key",
            "c1.key",
            "--maze",
            MAZES[0],
            "--reply",
            "-o",
            "1.eml",
        ],
    );
    let first = ann.join("1.eml");
    assert_eq!(field(&first, "From"), "ann@x.org");
    assert_eq!(field(&first, "To"), "bob@x.org");
    let text = std::fs::read_to_string(&first).unwrap();
    assert!(!text.lines().any(|l| l.starts_with("Cc:")), "{text}");
    std::fs::copy(&first, bob.join("1.eml")).unwrap();
    run(
        &bob,
        &[
            "setup", "1.eml", "--side", "Castle2", "--key", "c2.key", "--maze", MAZES[1],
            "--reply", "-o", "2.eml",
        ],
    );
    let second = bob.join("2.eml");
    assert_eq!(field(&second, "From"), "bob@x.org");
    // Castle3 (ann, with a name) is due: To ann once, no Cc.
    assert_eq!(field(&second, "To"), "Ann <ann@x.org>");
    let text = std::fs::read_to_string(&second).unwrap();
    assert!(!text.lines().any(|l| l.starts_with("Cc:")), "{text}");
}

/// A claim in four castles waits for its target first: once Castle2
/// claims Castle1's forfeit, Castle3's key is told that Castle1's answer
/// may still come (no other line before the claim's deadline), and
/// Castle1's own turn voids the claim.
#[test]
fn a_claim_in_four_castles_waits_for_its_targets_answer_and_says_so() {
    let (_root, dirs, _) = set_up_under_protocol_3("four-castles-solo");
    let record = std::fs::read_to_string(dirs[0].join("game.pbem")).unwrap();
    let last = record
        .lines()
        .filter_map(|l| l.trim().strip_prefix("date "))
        .next_back()
        .expect("dated lines");
    let day = |n: i64| herald::record::Day(herald::record::Day::parse(last).unwrap().0 + n);
    let claim_day = day(15).to_string();
    run(
        &dirs[1],
        &[
            "move",
            "game.pbem",
            "--forfeit",
            "--key",
            "my.key",
            "--date",
            &claim_day,
        ],
    );
    mail_all(&dirs, &dirs[1], "game.pbem");
    let out = herald(&dirs[2])
        .env("HERALD_TODAY", &claim_day)
        .args(["move", "game.pbem", "pass", "--key", "my.key"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    // With hidden hands the claim ended play (no draw can come without
    // Castle1's shares): Castle3's audit is due, but only after Castle1's
    // answer had its time.
    assert!(
        err.contains(&format!("Castle1 may still answer the forfeit claimed on turn 1 (dated {claim_day}): Castle1's own next line voids the claim")),
        "{err}"
    );
    // Castle1 answers with its turn: the claim is void, play goes on.
    let discard = first_discard(&dirs[0], Some(&claim_day));
    let turn = format!("{discard}, {}", SHOTS[0]);
    let said = herald(&dirs[0])
        .env("HERALD_TODAY", &claim_day)
        .args(["move", "game.pbem", &turn, "--key", "my.key"])
        .assert()
        .success();
    let said = String::from_utf8_lossy(&said.get_output().stdout).into_owned();
    assert!(said.contains("which it voids"), "{said}");
}

/// `herald hand game.pbem --key my.key --hand-key HAND` in `dir`, which
/// must be refused with exit 2: its standard error, its words joined by
/// single spaces.
fn hand_key_refused(dir: &Path, hand: &str) -> String {
    let out = herald(dir)
        .args(["hand", "game.pbem", "--key", "my.key", "--hand-key", hand])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    String::from_utf8_lossy(&out.stderr)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Allies: Castle3 plays from Castle1's hand, with Castle1's key file as
/// the hand's key. Every hand key that does not fit is refused naming the
/// file given, the side (and game) it was made for, and the key that
/// works: another castle's key of this game, a key of another game, a
/// file that is missing, one that is no key file, and a hand key for a
/// castle that holds its own hand.
#[test]
fn every_hand_key_that_does_not_fit_names_the_file_its_side_and_the_key_that_works() {
    let (_root, dirs, _) = set_up_under_protocol_3("four-castles-allies");
    let castle3 = &dirs[2];
    let key_of = |i: usize| dirs[i].join("my.key").to_str().unwrap().to_owned();
    std::fs::copy(key_of(1), castle3.join("castle2.key")).unwrap();
    std::fs::copy(key_of(0), castle3.join("castle1.key")).unwrap();
    // The key that works.
    run(
        castle3,
        &[
            "hand",
            "game.pbem",
            "--key",
            "my.key",
            "--hand-key",
            "castle1.key",
        ],
    );
    let works = "give Castle1's key file of this game as the hand's key: --key castle3.key --hand-key castle1.key";
    // Another castle's key of this very game.
    let err = hand_key_refused(castle3, "castle2.key");
    assert!(
        err.contains("--hand-key castle2.key (made for Castle2 in battlegates) is Castle2's key in this game, but Castle3's hand is Castle1's"),
        "{err}"
    );
    assert!(err.contains(works), "{err}");
    // Castle1's key of another game.
    let other = castle3.join("other");
    std::fs::create_dir(&other).unwrap();
    new_four_castles(
        &other,
        "four-castles-allies",
        "castle1.key",
        &["-o", "game.pbem"],
    );
    std::fs::copy(other.join("castle1.key"), castle3.join("other1.key")).unwrap();
    let err = hand_key_refused(castle3, "other1.key");
    assert!(
        err.contains("--hand-key other1.key (made for Castle1 in battlegates) was made for another game (or the header changed since): a key serves one game only"),
        "{err}"
    );
    assert!(err.contains(works), "{err}");
    // A file that is not there, and one that is no key file.
    let err = hand_key_refused(castle3, "missing.key");
    assert!(err.starts_with("error: --hand-key missing.key: "), "{err}");
    assert!(
        err.contains("the hand's key is the key file of the side whose hand yours plays from"),
        "{err}"
    );
    std::fs::write(castle3.join("notes.txt"), "not a key\n").unwrap();
    let err = hand_key_refused(castle3, "notes.txt");
    assert!(
        err.contains("--hand-key notes.txt: notes.txt is not a herald key file"),
        "{err}"
    );
    // Castle1 holds its own hand: no hand key.
    std::fs::copy(key_of(2), dirs[0].join("castle3.key")).unwrap();
    let err = hand_key_refused(&dirs[0], "castle3.key");
    assert!(
        err.contains("--hand-key castle3.key (made for Castle3 in battlegates): Castle1 holds its own hand, drawn and shown with its own key file: drop --hand-key"),
        "{err}"
    );
}

/// The arguments of a command a message prints, after `herald`, filled
/// in for castle `i` answering `message` with message `n + 1`: MESSAGE
/// the message, MAZE the castle's maze, YOUR.key its key file,
/// `reply.eml` the next message's name (YOUR TURN is left to the caller).
fn printed_args(command: &str, message: &str, i: usize, n: usize) -> Vec<String> {
    let mut words = shell_words(command);
    assert_eq!(words[0], "herald", "{command}");
    words.remove(0);
    for w in words.iter_mut() {
        match w.as_str() {
            "MESSAGE.eml" => *w = message.to_owned(),
            "MAZE" => *w = MAZES[i].to_owned(),
            "YOUR.key" => *w = format!("castle{}.key", i + 1),
            "reply.eml" => *w = format!("m{}.eml", n + 1),
            _ => {}
        }
    }
    words
}

/// The words of a command as a shell splits them (double quotes only).
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Four castles with allies and hidden hands by email, every step taken
/// by running, word for word, the command the "Next" line of the message
/// received prints (its MESSAGE the message, MAZE the castle's maze,
/// YOUR.key the castle's key file, YOUR TURN a legal turn, `reply.eml`
/// the next message's name), one folder a player: Castle3 and Castle4
/// play from their allies' hands, so their commands carry the ally's key
/// file (`--hand-key castle1.key`, `castle2.key`), a copy of which each
/// keeps. From `new` until `turns` turns are written: the folders (one a
/// castle) and the castle that wrote each message, `m1.eml` first (each
/// in its writer's folder).
fn allies_by_their_commands(turns: u32) -> (tempfile::TempDir, Vec<PathBuf>, Vec<usize>) {
    let root = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = CASTLES
        .iter()
        .map(|c| {
            let d = root.path().join(c.to_lowercase());
            std::fs::create_dir(&d).unwrap();
            d
        })
        .collect();
    new_four_castles(
        &dirs[0],
        "four-castles-allies",
        "castle1.key",
        &["--reply", "-o", "m1.eml"],
    );
    let mut writers = vec![0];
    let mut written = 0;
    for n in 1..=20 {
        // Allies keep a copy of the hand holder's key file.
        for (holder, ally) in [(0, 2), (1, 3)] {
            let key = format!("castle{}.key", holder + 1);
            if dirs[holder].join(&key).exists() && !dirs[ally].join(&key).exists() {
                std::fs::copy(dirs[holder].join(&key), dirs[ally].join(&key)).unwrap();
            }
        }
        let from = writers[n - 1];
        let message = format!("m{n}.eml");
        let text = std::fs::read_to_string(dirs[from].join(&message)).unwrap();
        let mut lines = text.lines().skip_while(|l| !l.starts_with("Next, "));
        let (next, command) = (lines.next().unwrap(), lines.next().unwrap());
        let castle = next["Next, ".len()..].split(' ').next().unwrap();
        let i = CASTLES.iter().position(|c| *c == castle).unwrap();
        if i >= 2 {
            let holder = format!("--hand-key castle{}.key", i - 1);
            assert!(
                command.contains(&holder),
                "{castle} plays from an ally's hand: {command}"
            );
        } else {
            assert!(!command.contains("--hand-key"), "{castle}: {command}");
        }
        std::fs::copy(dirs[from].join(&message), dirs[i].join(&message)).unwrap();
        let mut words = printed_args(command, &message, i, n);
        if let Some(turn) = words.iter().position(|w| w == "YOUR TURN") {
            // The discard and the shot of the castle, listed by `legal`
            // with the same key files the command names.
            let mut legal = vec![
                "legal".to_owned(),
                message.clone(),
                "--format".into(),
                "json".into(),
            ];
            for option in ["--key", "--hand-key"] {
                if let Some(k) = words.iter().position(|w| w == option) {
                    legal.extend([option.to_owned(), words[k + 1].clone()]);
                }
            }
            let legal: Vec<&str> = legal.iter().map(String::as_str).collect();
            let listed = json(&dirs[i], &legal);
            let discard = discard_listed(&listed);
            words[turn] = format!("{discard}, {}", SHOTS[i]);
            written += 1;
        }
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        run(&dirs[i], &words);
        writers.push(i);
        if written == turns {
            let s = json(
                &dirs[i],
                &["check", &format!("m{}.eml", n + 1), "--format", "json"],
            );
            assert_eq!(s["ok"], true, "{s}");
            assert_eq!(s["turns"], turns, "{s}");
            return (root, dirs, writers);
        }
    }
    panic!("{turns} turns were not reached in 20 messages");
}

/// Four castles with allies and hidden hands by email, every step taken
/// by running, word for word, the command the "Next" line of the message
/// received prints ([`allies_by_their_commands`]), from `new` through the
/// set-up to Castle4's first turn.
#[test]
fn allies_run_the_command_their_messages_print_word_for_word() {
    let (_root, _dirs, writers) = allies_by_their_commands(4);
    // Seven set-up messages, then one a turn.
    assert_eq!(writers, [0, 1, 2, 3, 0, 1, 2, 0, 1, 2, 3]);
}

/// The record a message carries, as `herald extract` gives it.
fn record_of(dir: &Path, message: &str) -> String {
    run(dir, &["extract", message])
}

/// The first lines (number, side and entries) of a record's set-up lines
/// and turns, in order.
fn line_heads(record: &str) -> Vec<String> {
    record
        .lines()
        .filter(|l| {
            let number = l.split('.').next().unwrap_or("");
            let digits = number.strip_prefix('S').unwrap_or(number);
            !l.starts_with(' ') && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        })
        .map(str::to_owned)
        .collect()
}

/// The deck positions whose shares the line beginning `head` carries
/// in `record` (its `share` items, on the indented lines under it).
fn shares_on(record: &str, head: &str) -> Vec<u32> {
    record
        .lines()
        .skip_while(|l| !l.starts_with(head))
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .filter_map(|l| l.trim().strip_prefix("share "))
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
        .collect()
}

/// Four castles with allies and hidden hands are set up in seven
/// messages, and Castle1's first turn is the eighth: every castle
/// commits to its maze on a line of its own (`S1`-`S4`), then Castle1,
/// Castle2 and Castle3 open theirs (`S5`-`S7`; Castle4 opened on `S4`).
/// The deck rides on those lines: the two hands' card keys on `S1` and
/// `S2`, Castle1's team's pass on Castle3's `S3` and Castle2's team's on
/// Castle4's `S4`, which makes the deck final, so `S4` also carries that
/// team's shares of the five cards Castle1 draws on turn 1 (its hand of
/// four, dealt round, and its turn's card): no line of shares is left
/// for after the set-up. Every message is written by the command the
/// message before it prints, one folder and key file a player.
#[test]
fn four_castles_with_allies_are_set_up_in_seven_messages() {
    let (_root, dirs, writers) = allies_by_their_commands(1);
    assert_eq!(writers.len(), 8, "{writers:?}");
    for (k, &writer) in writers.iter().enumerate() {
        let n = k + 1;
        let record = record_of(&dirs[writer], &format!("m{n}.eml"));
        let heads = line_heads(&record);
        assert_eq!(heads.len(), n, "m{n}.eml: {heads:?}");
        let last = heads.last().unwrap();
        let expected = if n <= 7 {
            format!("S{n}. {}:", CASTLES[(n - 1) % 4])
        } else {
            "1. Castle1:".to_owned()
        };
        assert!(last.starts_with(&expected), "m{n}.eml: {last}");
        assert_eq!(
            CASTLES[writer],
            CASTLES[if n <= 7 { (n - 1) % 4 } else { 0 }]
        );
    }
    let record = record_of(&dirs[0], "m8.eml");
    // Castle4's S4 carries its team's shares of the positions Castle1
    // draws on turn 1: two hands deal round, so Castle1's team's hand of
    // four is positions 0, 2, 4 and 6, and its turn's card the first
    // after the eight dealt, 8. No other set-up line carries a share.
    assert_eq!(shares_on(&record, "S4. Castle4:"), [0, 2, 4, 6, 8]);
    let passes = |head: &str| {
        record
            .lines()
            .skip_while(|l| !l.starts_with(head))
            .skip(1)
            .take_while(|l| l.starts_with(' '))
            .any(|l| l.trim() == "commit shuffle-0")
    };
    assert!(passes("S3. Castle3:") && passes("S4. Castle4:"));
    for head in ["S1. Castle1:", "S2. Castle2:", "S3. Castle3:"]
        .into_iter()
        .chain(["S5. Castle1:", "S6. Castle2:", "S7. Castle3:"])
    {
        assert_eq!(shares_on(&record, head), Vec::<u32>::new(), "{head}");
        assert!(
            head.starts_with("S3") || !passes(head),
            "{head} passes over the deck"
        );
    }
    let s = json(&dirs[0], &["check", "m8.eml", "--format", "json"]);
    assert_eq!(s["ok"], true, "{s}");
    assert_eq!(s["to_move"], "Castle2", "{s}");
}

/// `record` with the signature of its line `S{number}. {side}:` made
/// again with the key file `key` over the line as it now stands (spec
/// section 3.8), `before` the record digest before the line (as `check`
/// prints it): what a player who forged its own line would send.
fn sealed_again(record: &str, number: u32, side: &str, key: &Path, before: &str) -> String {
    let head = format!("S{number}. {side}:");
    let at = record.find(&format!("\n{head}")).unwrap() + 1;
    let body: Vec<&str> = record[at..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .collect();
    // The proof items as the seal covers them: each item's words, its
    // last value continued over the lines after it (a deck card's hex
    // begins on the item's line, the others' on the next).
    let mut items: Vec<Vec<String>> = Vec::new();
    let mut continued = false;
    for l in &body {
        let words: Vec<String> = l.split_whitespace().map(str::to_owned).collect();
        let item_word = !words[0].bytes().all(|b| b.is_ascii_hexdigit());
        if item_word {
            items.push(words);
            continued = false;
            continue;
        }
        let item = items.last_mut().unwrap();
        if continued || item[0] == "deck" {
            item.last_mut().unwrap().push_str(&words.concat());
        } else {
            item.push(words.concat());
        }
        continued = true;
    }
    let text: String = items
        .iter()
        .filter(|w| w[0] != "sig")
        .map(|w| format!("\n{}", w.join(" ")))
        .collect();
    let sig = common::seal_hex(
        record,
        herald::fairness::SealedKind::Setup,
        number,
        side,
        &text,
        before,
        key,
    );
    // The old signature's two lines of hex give way to the new one's.
    let sig_at = at + record[at..].find("\n    sig ").unwrap() + 1;
    let first = sig_at + record[sig_at..].find('\n').unwrap();
    let second = first + 1 + record[first + 1..].find('\n').unwrap();
    format!(
        "{}    sig {}\n    {}{}",
        &record[..sig_at],
        &sig[..64],
        &sig[64..],
        &record[second..]
    )
}

/// The shares Castle2's team gives on Castle4's set-up line `S4` (made
/// with Castle2's key file, the team's hand key) are checked like any
/// other: a share whose proof was changed is refused by `check` (exit
/// 1), naming the hand's holder, the deck position and the line, `S4`.
#[test]
fn a_set_up_line_carrying_its_teams_shares_is_verified_naming_the_line() {
    let (_root, dirs, _) = allies_by_their_commands(1);
    let dir = &dirs[3];
    let text = record_of(dir, "m4.eml");
    assert!(line_heads(&text)
        .last()
        .unwrap()
        .starts_with("S4. Castle4:"));
    // The first digit of the proof of S4's first share (of position 0),
    // which begins on the line after the share's point.
    let at = text.find("\nS4. Castle4:").unwrap();
    let share = at + text[at..].find("\n    share 0 ").unwrap() + 1;
    let proof = share + text[share..].find('\n').unwrap() + 5;
    let digit = &text[proof..proof + 1];
    let flipped = if digit == "0" { "1" } else { "0" };
    let forged = format!("{}{flipped}{}", &text[..proof], &text[proof + 1..]);
    // Castle4's player signs the forged line again with its key file:
    // the share's proof is what fails.
    let before = run(&dirs[2], &["check", "m3.eml"]);
    let before = before
        .lines()
        .find_map(|l| l.strip_prefix("Digest: "))
        .unwrap()
        .to_owned();
    let forged = sealed_again(&forged, 4, "Castle4", &dir.join("castle4.key"), &before);
    std::fs::write(dir.join("forged.pbem"), forged).unwrap();
    let out = herald(dir).args(["check", "forged.pbem"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("S4 (Castle4)"), "{err}");
    assert!(
        err.contains(
            "Castle2's share for deck position 0 does not verify against Castle2's card key"
        ),
        "{err}"
    );
    // The record as written checks.
    std::fs::write(dir.join("game.pbem"), &text).unwrap();
    run(dir, &["check", "game.pbem"]);
}

/// A set-up begun by an older herald, whose Castle4 made the deck final
/// on `S4` without its team's shares (the fixture
/// `game-four-castles-allies-hidden-five-set-up-lines-by-an-older-herald`,
/// with its castles' key files): Castle2's `S6`, the team's next line,
/// carries them, and Castle3's `S7` ends the set-up, seven lines still,
/// with no line of shares after it.
#[test]
fn an_older_heralds_set_up_gets_its_teams_shares_on_its_next_line() {
    let root = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/battlegates");
    let stem = "game-four-castles-allies-hidden-five-set-up-lines-by-an-older-herald";
    let record = fixtures.join(format!("{stem}.pbem"));
    let (castle2, castle3) = (root.path().join("castle2"), root.path().join("castle3"));
    for (dir, keys) in [
        (&castle2, &["castle2"][..]),
        (&castle3, &["castle3", "castle1"]),
    ] {
        std::fs::create_dir(dir).unwrap();
        for key in keys {
            let from = fixtures.join(format!("{stem}.{key}.key"));
            std::fs::copy(from, dir.join(format!("{key}.key"))).unwrap();
        }
    }
    std::fs::copy(&record, castle2.join("game.pbem")).unwrap();
    let before = std::fs::read_to_string(&record).unwrap();
    assert_eq!(shares_on(&before, "S4. Castle4:"), Vec::<u32>::new());
    run(&castle2, &["setup", "game.pbem", "--key", "castle2.key"]);
    let text = std::fs::read_to_string(castle2.join("game.pbem")).unwrap();
    assert_eq!(shares_on(&text, "S6. Castle2:"), [0, 2, 4, 6, 8]);
    std::fs::copy(castle2.join("game.pbem"), castle3.join("game.pbem")).unwrap();
    run(
        &castle3,
        &[
            "setup",
            "game.pbem",
            "--key",
            "castle3.key",
            "--hand-key",
            "castle1.key",
        ],
    );
    let s = json(&castle3, &["check", "game.pbem", "--format", "json"]);
    assert_eq!(s["ok"], true, "{s}");
    assert_eq!(s["phase"], "play", "{s}");
    assert_eq!(s["step"]["step"], "turn", "{s}");
    assert_eq!(s["to_move"], "Castle1", "{s}");
    let text = std::fs::read_to_string(castle3.join("game.pbem")).unwrap();
    assert_eq!(line_heads(&text).len(), 7);
}

/// The address of a message's header `name` (`From`, `To`), alone.
fn address_in(message: &Path, name: &str) -> String {
    let value = field(message, name);
    match value.split_once('<') {
        Some((_, rest)) => rest.trim_end_matches('>').to_owned(),
        None => value,
    }
}

/// Two players of four castles (Setup "four-castles", hidden hands): ann
/// holds Castle1 and Castle3, bob Castle2 and Castle4, one folder each,
/// one key file a castle (`castleN.key`). From `new` to Castle2's first
/// turn, every step is taken by running, word for word, the command the
/// "Next" line of the message received prints (MESSAGE the message, MAZE
/// the castle's maze, YOUR.key the key file of the castle named, YOUR
/// TURN a legal turn of the castle whose turn it is, `reply.eml` the
/// next message). Castle3's opening, the set-up's last line, makes
/// Castle1, also ann's, the first to move: the message before it prints
/// one command for both (`--then`, `--then-key castle1.key`), so ann
/// never answers her own mail: no message goes To its own From, and eight
/// messages take the game from `new` to Castle2's first turn.
#[test]
fn two_players_of_four_castles_never_answer_their_own_mail() {
    let root = tempfile::tempdir().unwrap();
    let players = [root.path().join("ann"), root.path().join("bob")];
    for d in &players {
        std::fs::create_dir(d).unwrap();
    }
    let address = |i: usize| ["ann@example.org", "bob@example.org"][i % 2];
    let mut args = vec!["new", "battlegates"];
    let sides: Vec<String> = CASTLES
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{c}={}", address(i)))
        .collect();
    for s in &sides {
        args.extend(["--side", s.as_str()]);
    }
    args.extend(["--option", "Setup=four-castles", "--option", "Hands=hidden"]);
    args.extend(["--key", "castle1.key", "--maze", MAZES[0]]);
    args.extend(["--reply", "-o", "m1.eml"]);
    run(&players[0], &args);
    // The player who wrote each message (0: ann, 1: bob).
    let mut writers = vec![0];
    let mut chained = 0;
    for n in 1..=12 {
        let from = writers[n - 1];
        let message = format!("m{n}.eml");
        let sent = players[from].join(&message);
        // Never To its own From.
        assert_ne!(
            address_in(&sent, "To"),
            address_in(&sent, "From"),
            "{message} goes back to its writer"
        );
        let text = std::fs::read_to_string(&sent).unwrap();
        let mut lines = text.lines().skip_while(|l| !l.starts_with("Next, "));
        let (next, command) = (lines.next().unwrap(), lines.next().unwrap());
        let castle = next["Next, ".len()..].split(' ').next().unwrap();
        let i = CASTLES.iter().position(|c| *c == castle).unwrap();
        let to = i % 2;
        assert_ne!(to, from, "{message}: {next}");
        assert_eq!(address_in(&sent, "To"), address(to), "{message}");
        let dir = &players[to];
        std::fs::copy(&sent, dir.join(&message)).unwrap();
        let mut words = printed_args(command, &message, i, n);
        if let Some(turn) = words.iter().position(|w| w == "YOUR TURN") {
            // The castle whose turn it is: the one named, or, with
            // --then-key, the other castle of the same player.
            let then_key = words.iter().position(|w| w == "--then-key");
            let mover = match then_key {
                Some(k) => {
                    chained += 1;
                    assert!(next.contains("both yours"), "{next}");
                    words[k + 1].clone()
                }
                None => format!("castle{}.key", i + 1),
            };
            // With --then, the turn comes after a line not written yet:
            // the legal turns are listed on a scratch copy of the folder
            // where that line is written alone.
            let (at, on) = if then_key.is_some() {
                let scratch = root.path().join(format!("scratch{n}"));
                std::fs::create_dir(&scratch).unwrap();
                for entry in std::fs::read_dir(dir).unwrap() {
                    let path = entry.unwrap().path();
                    std::fs::copy(&path, scratch.join(path.file_name().unwrap())).unwrap();
                }
                let k = words.iter().position(|w| w == "--then").unwrap();
                let mut alone = words.clone();
                alone.drain(k..k + 4);
                let alone: Vec<&str> = alone.iter().map(String::as_str).collect();
                run(&scratch, &alone);
                (scratch, format!("m{}.eml", n + 1))
            } else {
                (dir.clone(), message.clone())
            };
            let mut legal = vec!["legal", &on, "--format", "json", "--key", &mover];
            let holder = format!("castle{}.key", (i % 2) + 1);
            if mover.ends_with("3.key") || mover.ends_with("4.key") {
                legal.extend(["--hand-key", &holder]);
            }
            let listed = json(&at, &legal);
            let discard = discard_listed(&listed);
            let shooter = CASTLES
                .iter()
                .position(|c| mover == format!("{}.key", c.to_lowercase()))
                .unwrap();
            words[turn] = format!("{discard}, {}", SHOTS[shooter]);
        }
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        if words.contains(&"--then-key") {
            // A dry run shows both lines, the set-up line and the turn,
            // neither signed, and writes nothing.
            let mut dry: Vec<&str> = words[..words.len() - 3].to_vec();
            assert_eq!(words[words.len() - 3], "--reply", "{words:?}");
            dry.push("--dry-run");
            let shown = run(dir, &dry);
            assert!(shown.contains("S7. Castle3:"), "{shown}");
            assert!(shown.contains("\n1. Castle1: "), "{shown}");
            assert!(!shown.contains("sig "), "{shown}");
            assert!(!dir.join(format!("m{}.eml", n + 1)).exists());
        }
        run(dir, &words);
        writers.push(to);
        let s = json(
            dir,
            &["check", &format!("m{}.eml", n + 1), "--format", "json"],
        );
        assert_eq!(s["ok"], true, "{s}");
        if s["turns"] == 2 {
            break;
        }
    }
    // Castle2's first turn (turn 2) is the eighth message: the set-up's
    // seven lines in seven messages, Castle3's last with Castle1's turn.
    assert_eq!(writers, [0, 1, 0, 1, 0, 1, 0, 1]);
    assert_eq!(chained, 1);
    let last = players[1].join("m8.eml");
    assert_ne!(address_in(&last, "To"), address_in(&last, "From"));
}

/// The seeds of the self-played games the play-and-audit flow tests take
/// up (greedy, `four-castles`, hidden hands, the current protocol): in
/// seed 0, Castle3's turn 55 puts Castle4 out, and Castle1's farewell
/// line is due right after it (no message could foresee it), and
/// Castle4's farewell line is followed by Castle2's turn; in seed 1,
/// Castle2 is out, each of Castle3's turns is followed by Castle1's,
/// and Castle1's turn 62 ends the game with its own audit.
const PLAY_SEEDS: [u64; 2] = [0, 1];

/// [`two_player_game`] of each of [`PLAY_SEEDS`], played once for every
/// test here (a game to the end of signed lines of hidden hands costs).
fn two_player_games() -> &'static [String; 2] {
    static GAMES: std::sync::OnceLock<[String; 2]> = std::sync::OnceLock::new();
    GAMES.get_or_init(|| PLAY_SEEDS.map(two_player_game))
}

/// A two-player `four-castles` game with hidden hands self-played (greedy,
/// `seed`) to its end under the current protocol (`[Protocol "3"]`,
/// every line signed), ann@example.org holding Castle1 and Castle3,
/// bob@example.org Castle2 and Castle4: its record.
fn two_player_game(seed: u64) -> String {
    use herald::games::battlegates::layouts::Layout;
    use herald::games::battlegates::selfplay::{hidden_options, played, Play};
    let mut options = hidden_options(Layout::FourCastles, seed, 400);
    options.tags.push(("Protocol".into(), "3".into()));
    options.signatures = true;
    options.contacts = ["ann", "bob", "ann", "bob"]
        .iter()
        .map(|p| format!("{p}@example.org"))
        .collect();
    played(&options, Play::Greedy).unwrap()
}

/// `text` cut before line `turn`, its result `*`.
fn cut_before(text: &str, turn: u32) -> String {
    let at = text.find(&format!("\n{turn}. ")).unwrap();
    let head = &text[..at + 1];
    let end = head.find("[Result \"").unwrap();
    let close = end + head[end..].find("\"]").unwrap();
    format!("{}[Result \"*\"]{}", &head[..end], &head[close + 2..])
}

/// The actions of line `turn` of `text` as a player types them: its
/// first physical line after the side, the facts the referee adds
/// (`die=3`) left out.
fn typed_turn(text: &str, turn: u32) -> String {
    let head = format!("{turn}. ");
    let line = text.lines().find(|l| l.starts_with(&head)).unwrap();
    let (_, items) = line.split_once(": ").unwrap();
    let actions: Vec<&str> = items.split(", ").filter(|i| !i.contains('=')).collect();
    actions.join(", ")
}

/// The side of line `turn` of `text`.
fn side_of(text: &str, turn: u32) -> String {
    let head = format!("{turn}. ");
    let line = text.lines().find(|l| l.starts_with(&head)).unwrap();
    line[head.len()..].split(':').next().unwrap().to_owned()
}

/// Two folders (ann: Castle1 and Castle3, bob: Castle2 and Castle4), each
/// with its castles' key files of the game `text` self-played with
/// `seed`.
fn two_players_keyed(seed: u64, text: &str) -> (tempfile::TempDir, [PathBuf; 2]) {
    let root = tempfile::tempdir().unwrap();
    let dirs = [root.path().join("ann"), root.path().join("bob")];
    for d in &dirs {
        std::fs::create_dir(d).unwrap();
    }
    let source = herald::record::Source::new(text.as_bytes()).unwrap();
    let parsed = herald::record::parse(&source).unwrap();
    let referee =
        herald::referee::Referee::<herald::games::battlegates::Battlegates>::start(&parsed)
            .unwrap();
    let chain = *referee.header().chain_id();
    for (k, castle) in CASTLES.iter().enumerate() {
        let secret = herald::selfplay::secret(seed, herald::game::Side(2 + k as u8));
        let wallet = herald::wallet::Wallet::for_protocol(
            "battlegates",
            castle,
            chain,
            secret,
            herald::fairness::Protocol::Three,
        );
        let file = dirs[k % 2].join(format!("{}.key", castle.to_lowercase()));
        std::fs::write(&file, wallet.to_text()).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    (root, dirs)
}

/// The turn numbers a "Next" line names, in order (`Next, Castle4 (turn
/// 57), then Castle2 (turn 58), ...`).
fn turns_named(next: &str) -> Vec<u32> {
    next.split("(turn ")
        .skip(1)
        .map(|rest| rest.split(')').next().unwrap().parse().unwrap())
        .collect()
}

/// Run `words` in `dir`: its standard output, or, refused (exit 1), its
/// standard error.
fn outcome(dir: &Path, words: &[String]) -> Result<String, String> {
    let out = herald(dir).args(words).output().unwrap();
    match out.status.code() {
        Some(0) => Ok(String::from_utf8(out.stdout).unwrap()),
        Some(1) => Err(String::from_utf8(out.stderr).unwrap()),
        code => panic!("herald {words:?}: exit {code:?}: {out:?}"),
    }
}

/// Two players of four castles in play and at the end, by .eml messages
/// only, one folder a player (a self-played game, `PLAY_SEED`, taken up
/// a few turns before Castle2 loses its last character): every message
/// is answered by running, word for word, the command its "Next" line
/// prints (MESSAGE the message, YOUR.key the key file of the castle
/// named, YOUR TURN the self-played game's actions for that turn,
/// `reply.eml` the next message), or, where a turn put a castle out and
/// so made its writer's other castle's farewell line due right after it
/// (which no message could foresee), the command the refusal of that
/// line alone prints. A castle's turn followed by its ally's, a farewell
/// line followed by its ally's turn and a turn followed by its ally's
/// farewell line each go in one message (`--then`, `--then-key`); no
/// message is addressed To its own From, the player due next is always
/// the other one, and the game ends as the self-played one did, its
/// every audit in.
#[test]
fn two_players_of_four_castles_never_answer_their_own_mail_in_play_and_at_the_end() {
    let mut together = Vec::new();
    let mut refused = 0;
    for (seed, text) in PLAY_SEEDS.iter().zip(two_player_games()) {
        let (t, r) = answered_to_the_end(*seed, text);
        together.extend(t);
        refused += r;
    }
    // A turn and its ally's, a farewell line and its ally's turn: each
    // one message, the message before printing the command for both.
    let nexts = together.join("\n");
    assert!(
        nexts.contains("Next, Castle3 (turn 55), then Castle1 (turn 56)"),
        "{nexts}"
    );
    assert!(
        nexts.contains("Next, Castle4 (turn 57), then Castle2 (turn 58)"),
        "{nexts}"
    );
    // A turn that put a castle out, its ally's farewell line due next:
    // refused alone, and written with it.
    assert_eq!(refused, 1);
}

/// The game `text` (self-played with `seed`) taken up two lines before
/// the first line whose next is its own player's, and answered message
/// by message to its end as
/// [`two_players_of_four_castles_never_answer_their_own_mail_in_play_and_at_the_end`]
/// says: the "Next" lines whose commands carry `--then`, and how many
/// lines alone were refused.
fn answered_to_the_end(seed: u64, text: &str) -> (Vec<String>, usize) {
    let start = first_own_line(text) - 2;
    let (_root, dirs) = two_players_keyed(seed, text);
    let text = text.to_owned();
    let player_of = |castle: &str| (CASTLES.iter().position(|c| *c == castle).unwrap()) % 2;
    let first = side_of(&text, start);
    let p = player_of(&first);
    std::fs::write(dirs[p].join("game.pbem"), cut_before(&text, start)).unwrap();
    let key = format!("{}.key", first.to_lowercase());
    let mut words = vec![
        "move".to_owned(),
        "game.pbem".into(),
        typed_turn(&text, start),
    ];
    words.extend(["--key".into(), key]);
    if first == "Castle3" || first == "Castle4" {
        words.extend(["--hand-key".into(), format!("castle{}.key", p + 1)]);
    }
    words.extend(["--reply", "-o", "m1.eml"].map(String::from));
    run(
        &dirs[p],
        &words.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let address = |i: usize| ["ann@example.org", "bob@example.org"][i];
    let mut from = p;
    let (mut together, mut refused) = (Vec::new(), 0);
    for n in 1..200 {
        let message = format!("m{n}.eml");
        let sent = dirs[from].join(&message);
        assert_eq!(address_in(&sent, "From"), address(from), "{message}");
        let to = 1 - from;
        assert_eq!(
            address_in(&sent, "To"),
            address(to),
            "{message} goes back to its writer"
        );
        let body = std::fs::read_to_string(&sent).unwrap();
        std::fs::copy(&sent, dirs[to].join(&message)).unwrap();
        if body.contains("The game is over") {
            let s = json(&dirs[to], &["check", &message, "--format", "json"]);
            let over = json_of_record(&text);
            assert_eq!(s["result"], over["result"], "{s}");
            assert_eq!(s["turns"], over["turns"], "{s}");
            break;
        }
        let mut lines = body.lines().skip_while(|l| !l.starts_with("Next, "));
        let (next, command) = (lines.next().unwrap(), lines.next().unwrap());
        // The castle named first that is the receiver's (audits in any
        // order name both players' castles).
        let named: Vec<usize> = next["Next, ".len()..]
            .split([' ', '\''])
            .filter_map(|w| CASTLES.iter().position(|c| *c == w))
            .collect();
        let i = *named.iter().find(|&&c| c % 2 == to).unwrap();
        let mut words = printed_args(command, &message, i, n);
        // The turn typed first is the line due's, the one after --then
        // the next line's.
        let turns = turns_named(next);
        for k in 0..words.len() {
            if words[k] == "YOUR TURN" {
                let then = k > 0 && words[k - 1] == "--then";
                words[k] = typed_turn(&text, turns[usize::from(then)]);
            }
        }
        if words.iter().any(|w| w == "--then") {
            together.push(next.to_owned());
        }
        match outcome(&dirs[to], &words) {
            Ok(_) => {}
            Err(why) => {
                // The line alone would make a message for its writer
                // alone: refused, naming the --then to add, and the
                // command it prints writes both.
                assert!(why.contains("another side of yours"), "{why}");
                assert!(why.contains("nothing was written"), "{why}");
                assert!(!dirs[to].join(format!("m{}.eml", n + 1)).exists());
                let command = why
                    .lines()
                    .find_map(|l| l.split(": herald ").nth(1))
                    .unwrap_or_else(|| panic!("{why}"));
                let command = command.split("; nothing was written").next().unwrap();
                let words = shell_words(&format!("herald {command}"))[1..].to_vec();
                assert!(words.iter().any(|w| w == "--then"), "{why}");
                run(
                    &dirs[to],
                    &words.iter().map(String::as_str).collect::<Vec<_>>(),
                );
                refused += 1;
            }
        }
        from = to;
    }
    (together, refused)
}

/// The number of the first turn of `text` after which every line due is
/// its own player's.
fn first_own_line(text: &str) -> u32 {
    use herald::games::battlegates::Battlegates;
    let source = herald::record::Source::new(text.as_bytes()).unwrap();
    let parsed = herald::record::parse(&source).unwrap();
    let mut referee = herald::referee::Referee::<Battlegates>::start(&parsed).unwrap();
    for turn in &parsed.turns {
        let played = referee.play(turn).unwrap();
        let due = referee.sides_due();
        let own = !due.is_empty()
            && due
                .iter()
                .all(|&s| s != played.side && referee.same_player(s, played.side));
        if played.kind == herald::record::LineKind::Turn && own {
            return played.number;
        }
    }
    panic!("no line followed by its own player's")
}

/// `check --format json` of the record `text`.
fn json_of_record(text: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.pbem"), text).unwrap();
    json(dir.path(), &["check", "game.pbem", "--format", "json"])
}

/// In the game `text`, the first line whose next line is foreseeably
/// another castle's of the same player (the message before it prints
/// `--then`), and the first line after those two whose next line is the
/// other player's: their turn numbers.
fn then_points(text: &str) -> (u32, u32) {
    use herald::games::battlegates::Battlegates;
    let source = herald::record::Source::new(text.as_bytes()).unwrap();
    let parsed = herald::record::parse(&source).unwrap();
    let mut referee = herald::referee::Referee::<Battlegates>::start(&parsed).unwrap();
    let (mut own, mut other) = (None, None);
    for turn in &parsed.turns {
        let foreseen = referee.own_after_due().is_some();
        let played = referee.play(turn).unwrap();
        if played.kind != herald::record::LineKind::Turn || played.number < 3 {
            continue;
        }
        if foreseen {
            own.get_or_insert(played.number);
        } else if own.is_some_and(|o| played.number > o + 1)
            && referee
                .sides_due()
                .iter()
                .all(|&s| !referee.same_player(s, played.side))
        {
            other.get_or_insert(played.number);
        }
    }
    (own.unwrap(), other.unwrap())
}

/// `move` with `--then` on a two-player `four-castles` game (a record
/// file in the folder of the player due): where the line after the
/// writer's is another castle's of the same player, the line alone with
/// `--reply` is refused naming the `--then` and key file to add, a
/// `--then` without its `--then-key` is refused naming that key file,
/// and a `--then-key` of another castle naming the castle whose line it
/// is; where the next line is the other player's, `--then` is refused
/// naming it. Nothing is written by any of them. `--dry-run` shows both
/// lines, unsigned, and writes nothing; the command the refusal prints
/// writes both lines, and each key file remembers its own; that message
/// lost, the same command writes it again, and each key file names the
/// new one.
#[test]
fn move_then_is_refused_naming_the_side_or_key_file_and_dry_run_shows_both_lines() {
    let text = &two_player_games()[1];
    let (own, other) = then_points(text);
    let (_root, dirs) = two_players_keyed(PLAY_SEEDS[1], text);
    let castle = |turn: u32| side_of(text, turn);
    let key_of = |c: &str| format!("{}.key", c.to_lowercase());
    let (first, next) = (castle(own), castle(own + 1));
    let dir = &dirs[CASTLES.iter().position(|c| *c == first).unwrap() % 2];
    std::fs::write(dir.join("game.pbem"), cut_before(text, own)).unwrap();
    let holder = |c: &str| {
        let k = CASTLES.iter().position(|x| *x == c).unwrap();
        (k >= 2).then(|| format!("castle{}.key", k % 2 + 1))
    };
    let mut base: Vec<String> = vec![
        "move".into(),
        "game.pbem".into(),
        typed_turn(text, own),
        "--key".into(),
        key_of(&first),
    ];
    if let Some(h) = holder(&first) {
        base.extend(["--hand-key".into(), h]);
    }
    let then = typed_turn(text, own + 1);
    let unchanged = |dir: &Path| {
        (
            std::fs::read(dir.join("game.pbem")).unwrap(),
            std::fs::read(dir.join(key_of(&first))).unwrap(),
            std::fs::read(dir.join(key_of(&next))).unwrap(),
        )
    };
    let before = unchanged(dir);
    let refused = |extra: &[&str], code: i32| {
        let mut words = base.clone();
        words.extend(extra.iter().map(|w| (*w).to_owned()));
        let out = herald(dir).args(&words).output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{words:?}: {out:?}");
        assert_eq!(unchanged(dir), before, "{words:?} wrote something");
        assert!(!dir.join("out.eml").exists());
        String::from_utf8(out.stderr).unwrap()
    };
    let reply = ["--reply", "-o", "out.eml"];
    // The line alone, by reply: its message would go to its writer alone.
    let why = refused(&reply, 1);
    let add = format!("--then-key {}", key_of(&next));
    assert!(
        why.contains(&format!("{next}'s, another side of yours")),
        "{why}"
    );
    assert!(why.contains(&add), "{why}");
    assert!(why.contains("nothing was written"), "{why}");
    // --then without its --then-key: the key file to add.
    let why = refused(&[&["--then", then.as_str()][..], &reply].concat(), 1);
    assert!(
        why.contains(&format!("add {add} ({next}'s key file)")),
        "{why}"
    );
    // A --then-key of another castle: the castle whose line it is.
    let wrong = key_of(&first);
    let why = refused(
        &[
            &["--then", then.as_str(), "--then-key", wrong.as_str()][..],
            &reply,
        ]
        .concat(),
        2,
    );
    assert!(
        why.contains(&format!("--then-key {wrong} is {first}'s key file")),
        "{why}"
    );
    assert!(
        why.contains(&format!("is {next}'s: give {next}'s key file")),
        "{why}"
    );
    // --dry-run: both lines, unsigned.
    let mut words = base.clone();
    words.extend([
        "--then".into(),
        then.clone(),
        "--then-key".into(),
        key_of(&next),
    ]);
    words.push("--dry-run".into());
    let shown = run(dir, &words.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        shown.contains(&format!("\n{own}. {first}: "))
            || shown.starts_with(&format!("{own}. {first}: ")),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("\n{}. {next}: ", own + 1)),
        "{shown}"
    );
    assert!(!shown.contains("sig "), "{shown}");
    assert_eq!(unchanged(dir), before);
    // The command the refusal names writes both, one message To the
    // other player; each key file remembers its own line.
    let why = refused(&reply, 1);
    let command = why.split(": herald ").nth(1).unwrap();
    let command = command.split("; nothing was written").next().unwrap();
    let words = shell_words(command);
    let words: Vec<String> = words
        .into_iter()
        .map(|w| if w == "YOUR TURN" { then.clone() } else { w })
        .collect();
    run(dir, &words.iter().map(String::as_str).collect::<Vec<_>>());
    let to = address_in(&dir.join("out.eml"), "To");
    assert_ne!(to, address_in(&dir.join("out.eml"), "From"));
    let record = record_of(dir, "out.eml");
    assert!(record.contains(&format!("\n{own}. {first}: ")), "{record}");
    assert!(
        record.contains(&format!("\n{}. {next}: ", own + 1)),
        "{record}"
    );
    for c in [&first, &next] {
        let kept = std::fs::read_to_string(dir.join(key_of(c))).unwrap();
        assert!(kept.contains(&format!("sent: {}", own + 1)), "{c}: {kept}");
    }
    // The message lost: the same command on the record it answered, to
    // another file, writes the same lines again, and each key file, the
    // --then-key one too, names the new message.
    std::fs::write(dir.join("game.pbem"), cut_before(text, own)).unwrap();
    let again: Vec<&str> = words
        .iter()
        .map(|w| {
            if w == "out.eml" {
                "again.eml"
            } else {
                w.as_str()
            }
        })
        .collect();
    let said = run(dir, &again);
    assert!(
        said.contains("you answered this record already")
            && said.contains("the same line (first sent in out.eml)"),
        "{said}"
    );
    assert_eq!(record_of(dir, "again.eml"), record);
    for c in [&first, &next] {
        let kept = std::fs::read_to_string(dir.join(key_of(c))).unwrap();
        assert!(kept.contains("sent-reply: again.eml"), "{c}: {kept}");
    }
    // Where the next line is the other player's, --then is refused.
    let (first, next) = (castle(other), castle(other + 1));
    let dir = &dirs[CASTLES.iter().position(|c| *c == first).unwrap() % 2];
    std::fs::write(dir.join("game.pbem"), cut_before(text, other)).unwrap();
    let mut words: Vec<String> = vec![
        "move".into(),
        "game.pbem".into(),
        typed_turn(text, other),
        "--key".into(),
        key_of(&first),
    ];
    if let Some(h) = holder(&first) {
        words.extend(["--hand-key".into(), h]);
    }
    let ally = key_of(CASTLES[(CASTLES.iter().position(|c| *c == first).unwrap() + 2) % 4]);
    words.extend(["--then".into(), "pass".into(), "--then-key".into(), ally]);
    let out = herald(dir).args(&words).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let why = String::from_utf8(out.stderr).unwrap();
    assert!(
        why.contains(&format!("is {next}'s, another player's")),
        "{why}"
    );
    assert!(why.contains("without --then"), "{why}");
}

/// A two-player `four-castles` game whose last turn, by an allied castle
/// (Castle3 or Castle4, playing from its ally's hand), ends it: the
/// castle holding that hand audits next, and its player writes both lines
/// in one message (`--then`, `--then-key`). The line after `--then` is
/// that castle's audit, typed as `audit`, or as `pass` or nothing as
/// `move` writes them in the audit; an action is refused, naming `--then
/// audit`, and nothing is written.
#[test]
fn move_then_after_the_last_turn_is_the_allys_audit_or_refused_naming_it() {
    let text = &two_player_games()[0];
    let audit = text
        .lines()
        .find_map(|l| {
            let (head, items) = l.split_once(": ")?;
            let (number, _) = head.split_once(". ")?;
            (items == "audit" || items.starts_with("audit,"))
                .then(|| number.parse::<u32>().ok())
                .flatten()
        })
        .expect("an audit line");
    let (last, auditor) = (side_of(text, audit - 1), side_of(text, audit));
    let k = CASTLES.iter().position(|c| *c == last).unwrap();
    // The game's last turn is an allied castle's, its ally's audit next.
    assert_eq!(auditor, CASTLES[k - 2], "{last} ended the game");
    let (_root, dirs) = two_players_keyed(PLAY_SEEDS[0], text);
    let dir = &dirs[k % 2];
    std::fs::write(dir.join("game.pbem"), cut_before(text, audit - 1)).unwrap();
    let key_of = |c: &str| format!("{}.key", c.to_lowercase());
    let before = std::fs::read(dir.join("game.pbem")).unwrap();
    let words = |then: &str| -> Vec<String> {
        let mut w = vec!["move".to_owned(), "game.pbem".into()];
        w.push(typed_turn(text, audit - 1));
        w.extend(["--key".into(), key_of(&last), "--hand-key".into()]);
        w.extend([key_of(&auditor), "--then".into(), then.into()]);
        w.extend(["--then-key".into(), key_of(&auditor), "--dry-run".into()]);
        w
    };
    let why = outcome(dir, &words("b2-b3")).expect_err("an action after --then in the audit");
    assert!(
        why.contains(&format!(
            "after {last}'s line the game is over but for its audits: {auditor}'s line is its audit (--then audit)"
        )),
        "{why}"
    );
    for then in ["audit", "pass", ""] {
        let shown = outcome(dir, &words(then)).unwrap_or_else(|e| panic!("--then {then:?}: {e}"));
        assert!(
            shown.contains(&format!("{}. {last}: ", audit - 1)),
            "--then {then:?}: {shown}"
        );
        assert!(
            shown.contains(&format!("{audit}. {auditor}: audit")),
            "--then {then:?}: {shown}"
        );
        // `pass` is said to be written as the audit, as for a line alone.
        assert_eq!(
            shown.contains("the line due from you is your audit: `pass` was written as `audit`"),
            then == "pass",
            "--then {then:?}: {shown}"
        );
    }
    assert_eq!(std::fs::read(dir.join("game.pbem")).unwrap(), before);
}
