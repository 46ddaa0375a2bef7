//! Errors that teach (issue 29), a test per message, each checking its
//! words: a record cut short says so and where; a command an error
//! suggests works in the phase the game is in; a reply quoted twice
//! whose turn line was re-wrapped after a comma reads as one turn; a
//! misspelt word gets "did you mean" in every game.

mod common;
use common::{fails, run};

use herald::game::Game;
use herald::games::playground_battles::PlaygroundBattles;

/// A Castle Danger record with both sides' keys and Blue's first turn.
fn keyed_game(d: &std::path::Path) {
    run(
        d,
        &[
            "new",
            "--protocol",
            "2",
            "castle-danger",
            "--side",
            "Blue=a@x",
            "--side",
            "Red=b@x",
            "-o",
            "game.pbem",
        ],
    );
    run(
        d,
        &["keygen", "--side", "Blue", "game.pbem", "-o", "blue.key"],
    );
    run(
        d,
        &["keygen", "--side", "Red", "game.pbem", "-o", "red.key"],
    );
    run(d, &["move", "game.pbem", "Kc1-b1", "--key", "blue.key"]);
}

#[test]
fn a_record_cut_short_in_a_signature_says_so_and_where() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keyed_game(d);
    // The record's last line is the second half of turn 1's signature:
    // cut it after 20 of its 64 digits, as a mail cut off would.
    let text = std::fs::read_to_string(d.join("game.pbem")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.len();
    assert!(lines[last - 2].trim_start().starts_with("sig "), "{text}");
    let cut_line = &lines[last - 1][..4 + 20];
    let mut cut = lines[..last - 1].join("\n");
    cut.push('\n');
    cut.push_str(cut_line);
    std::fs::write(d.join("cut.pbem"), &cut).unwrap();
    let err = fails(d, &["check", "cut.pbem"], 1);
    assert!(
        err.contains(
            "a signature is 128 hexadecimal digits, but the record stops after 84 of them: it \
             is cut short here (the message or the copy stopped early: ask for the whole record \
             again, or as an attachment)"
        ),
        "{err}"
    );
    // Where: the line it stops on, at the value's first digit (line
    // `last - 1`, as the sig word stands there, column 9).
    assert!(
        err.contains(&format!("--> cut.pbem:{}:9", last - 1)),
        "{err}"
    );
}

#[test]
fn a_value_too_short_inside_the_record_is_not_called_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keyed_game(d);
    let text = std::fs::read_to_string(d.join("game.pbem")).unwrap();
    // A reveal two digits short, with the rest of the record after it.
    let at = text.find("reveal ").unwrap() + "reveal ".len();
    let short = format!("{}{}", &text[..at], &text[at + 2..]);
    std::fs::write(d.join("short.pbem"), short).unwrap();
    let err = fails(d, &["check", "short.pbem"], 1);
    assert!(err.contains("a reveal is 64 hexadecimal digits"), "{err}");
    assert!(!err.contains("cut short"), "{err}");
}

#[test]
fn a_key_of_a_side_without_tags_after_the_first_line_is_not_sent_to_keygen() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run(
        d,
        &[
            "new",
            "--protocol",
            "2",
            "castle-danger",
            "--side",
            "Blue=a@x",
            "--side",
            "Red=b@x",
            "-o",
            "game.pbem",
        ],
    );
    run(
        d,
        &["keygen", "--side", "Blue", "game.pbem", "-o", "blue.key"],
    );
    // Red's key made, its tags printed and never added.
    run(
        d,
        &[
            "keygen",
            "--side",
            "Red",
            "game.pbem",
            "-o",
            "red.key",
            "--print",
        ],
    );
    run(
        d,
        &[
            "move",
            "game.pbem",
            "Kc1-b1",
            "--key",
            "blue.key",
            "--no-commit",
        ],
    );
    let err = fails(d, &["move", "game.pbem", "Kc9-b9", "--key", "red.key"], 2);
    assert!(
        err.contains(
            "Red has no Commit tag, so its lines carry no reveal: drop --key (too late in this \
             game: tags are added before the first line only, and the record has 1 line"
        ),
        "{err}"
    );
    assert!(!err.contains("add the tag with herald keygen"), "{err}");
    // What it suggests works: the same turn without --key.
    run(d, &["move", "game.pbem", "Kc9-b9"]);
    // A forfeit claimed by Red, which has no Key tag, is not sent to
    // keygen either.
    let err = fails(
        d,
        &["move", "game.pbem", "--forfeit", "--key", "red.key"],
        2,
    );
    assert!(
        err.contains(
            "Red has no RedKey tag: a forfeit is claimed with the claimant's signature (too \
             late in this game: tags are added before the first line only, and the record has \
             2 lines"
        ),
        "{err}"
    );
}

#[test]
fn a_twice_quoted_reply_rewrapped_after_a_comma_reads_as_one_turn() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mail = "fixtures/mail/twice-quoted-rewrapped-turn.eml";
    let out = run(root, &["annotate", mail]);
    // Turn 1's rest (`Wf1-g1`, quoted once less) is part of turn 1; the
    // comment is dropped by annotate, every action kept.
    assert!(
        out.contains("1. Blue: Kc1-b1, Kb1-a1, Ka1-a2, We1-f1, Wf1-g1\n"),
        "{out}"
    );
    assert!(out.contains("2. Red: Kc9-b9\n"), "{out}");
    assert!(out.contains("3. Blue: Ka2-a3\n"), "{out}");
    let check = run(root, &["check", mail]);
    assert!(check.contains("OK: Castle Danger, 3 turns"), "{check}");
}

#[test]
fn a_misspelt_line_word_gets_did_you_mean_in_castle_danger() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keyed_game(d);
    let err = fails(
        d,
        &["move", "game.pbem", "pas", "--key", "red.key", "--dry-run"],
        1,
    );
    assert!(
        err.contains("`pas` is no action: did you mean `pass`?"),
        "{err}"
    );
    let err = fails(
        d,
        &[
            "move",
            "game.pbem",
            "Kc9-b9, resing",
            "--key",
            "red.key",
            "--dry-run",
        ],
        1,
    );
    assert!(
        err.contains("`resing` is no action: did you mean `resign`?"),
        "{err}"
    );
}

#[test]
fn a_misspelt_action_word_gets_did_you_mean_in_battle_of_the_dale_and_breach_the_keep() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (game, a, b, typed, meant) in [
        ("battle-of-the-dale", "Human", "Elf", "rallly", "rally"),
        ("battle-of-the-dale", "Human", "Elf", "withdarw", "withdraw"),
        ("breach-the-keep", "White", "Black", "braech c3", "breach"),
    ] {
        let file = format!("{game}.pbem");
        if !d.join(&file).exists() {
            run(
                d,
                &[
                    "new",
                    "--protocol",
                    "2",
                    game,
                    "--side",
                    &format!("{a}=a@x"),
                    "--side",
                    &format!("{b}=b@x"),
                    "-o",
                    &file,
                ],
            );
        }
        let err = fails(d, &["move", &file, typed, "--dry-run"], 1);
        let word = typed.split(' ').next().unwrap();
        assert!(
            err.contains(&format!("`{word}` is no action: did you mean `{meant}`?")),
            "{game}: {err}"
        );
    }
}

#[test]
fn a_misspelt_action_word_gets_did_you_mean_in_playground_battles() {
    // The position of the bundled sample, Blue to move.
    let state = PlaygroundBattles::parse_position(
        "1(rbSbeS)1rdPreRrfP1rjS2/raP3rhR2riP2/10/1rcP1bcSbfS5/10/10/7bgS2/baP1bdP4bhSbiRbjS \
         Blue - Blue:base",
    )
    .unwrap();
    let e = PlaygroundBattles::parse_action(&state, "pass").unwrap_err();
    assert!(!e.reason.contains("did you mean"), "{}", e.reason);
    let e = PlaygroundBattles::parse_action(&state, "psas").unwrap_err();
    assert_eq!(e.reason, "`psas` is no action: did you mean `pass`?");
    assert_eq!((e.offset, e.len), (0, 4));
    // A square is no misspelt word.
    let e = PlaygroundBattles::parse_action(&state, "c4").unwrap_err();
    assert!(!e.reason.contains("did you mean"), "{}", e.reason);
}

/// A new Castle Danger game (protocol 3) where only Blue has added its
/// key so far.
fn blue_keyed_only(d: &std::path::Path) {
    run(
        d,
        &[
            "new",
            "castle-danger",
            "--side",
            "Blue=a@x",
            "--side",
            "Red=b@x",
            "-o",
            "game.pbem",
        ],
    );
    run(
        d,
        &["keygen", "--side", "Blue", "game.pbem", "-o", "blue.key"],
    );
}

/// Turn 1 before every key is in is a step the game does not take yet
/// (exit 1, not a usage error), and `check`, `legal` and `show` name
/// the key due with a command that works on this very file.
#[test]
fn a_turn_before_every_key_is_in_exits_1_and_the_readers_name_the_key_due() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    blue_keyed_only(d);
    let before = std::fs::read(d.join("game.pbem")).unwrap();
    let err = fails(d, &["move", "game.pbem", "+W", "--key", "blue.key"], 1);
    assert!(
        err.contains("turn 1 cannot be written yet: Blue has a BlueCommit tag and Red has none"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("game.pbem")).unwrap(), before);
    let key_due =
        "Red's key is due before turn 1 (herald keygen --side Red game.pbem --key red.key)";
    // Read as words: the readers wrap their lines.
    let flat = |text: String| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let check = flat(run(d, &["check", "game.pbem"]));
    assert!(check.contains(key_due), "{check}");
    assert!(!check.contains("Blue to move"), "{check}");
    let legal = flat(run(d, &["legal", "game.pbem"]));
    assert!(legal.starts_with(key_due), "{legal}");
    assert!(
        legal.contains("Turn 1, Blue, once every key is in: 43 legal actions"),
        "{legal}"
    );
    let show = flat(run(d, &["show", "game.pbem"]));
    assert!(show.contains(key_due), "{show}");
}

/// A key file of the other side, in this very game, when it is not that
/// side's turn: the game does not take that side's line now (exit 1),
/// and the error says whose turn it is.
#[test]
fn a_turn_written_with_the_other_sides_key_exits_1_naming_whose_turn_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    blue_keyed_only(d);
    run(
        d,
        &["keygen", "--side", "Red", "game.pbem", "-o", "red.key"],
    );
    let err = fails(d, &["move", "game.pbem", "+W", "--key", "red.key"], 1);
    assert!(
        err.contains("red.key is Red's key in this game, but it is Blue's turn"),
        "{err}"
    );
    // A key of another game is still a usage error (the wrong file).
    let other = tempfile::tempdir().unwrap();
    blue_keyed_only(other.path());
    let blue_elsewhere = other.path().join("blue.key");
    let err = fails(
        d,
        &[
            "move",
            "game.pbem",
            "+W",
            "--key",
            blue_elsewhere.to_str().unwrap(),
        ],
        2,
    );
    assert!(err.contains("was made for another game"), "{err}");
}

/// During a set-up, the side whose step is not due is refused with exit
/// 1 and the step due; `show` names that step, never "Blue to move".
#[test]
fn a_set_up_step_out_of_turn_exits_1_and_show_names_the_set_up_step_due() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run(
        d,
        &[
            "new",
            "playground-battles",
            "--side",
            "Blue=a@x",
            "--side",
            "Red=b@x",
            "--key",
            "blue.key",
            "--army",
            "RPSRRPSPRS",
            "--throws",
            "RRRRRRRRRRRR",
            "-o",
            "pg.pbem",
        ],
    );
    let show = run(d, &["show", "pg.pbem"])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(!show.contains("Blue to move"), "{show}");
    assert!(
        show.contains("Set-up, before turn 1: S2 is Red's, its key with its commitments"),
        "{show}"
    );
    run(
        d,
        &[
            "setup",
            "pg.pbem",
            "--side",
            "Red",
            "--key",
            "red.key",
            "--army",
            "SSPRRPRSPS",
        ],
    );
    // S3 is Blue's opening; Red writing again is out of turn.
    let before = std::fs::read(d.join("pg.pbem")).unwrap();
    let err = fails(d, &["setup", "pg.pbem", "--key", "red.key"], 1);
    assert!(
        err.contains("the set-up step due is Blue's, and red.key is Red's key file: S3 is Blue's"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("pg.pbem")).unwrap(), before);
}

/// A reply lost after `move --reply` on a record file (which now ends
/// with the player's line): the same command again writes the same
/// message again, the record left as it is; another turn typed instead
/// is refused as a second answer.
#[test]
fn a_lost_reply_is_written_again_from_the_record_file_that_holds_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keyed_game(d);
    let answer = [
        "move",
        "game.pbem",
        "Kc9-b9",
        "--key",
        "red.key",
        "--reply",
        "-o",
        "a.eml",
    ];
    run(d, &answer);
    let first = std::fs::read_to_string(d.join("a.eml")).unwrap();
    let record = std::fs::read_to_string(d.join("game.pbem")).unwrap();
    std::fs::remove_file(d.join("a.eml")).unwrap();
    let said = run(d, &answer);
    assert!(
        said.contains("your turn 2 is this record's last line already: this is its message again, the same line (first sent in a.eml)"),
        "{said}"
    );
    let again = std::fs::read_to_string(d.join("a.eml")).unwrap();
    let line = |m: &str| {
        m.lines()
            .find(|l| l.starts_with("2. Red: Kc9-b9"))
            .map(str::to_owned)
    };
    assert!(line(&first).is_some(), "{first}");
    assert_eq!(line(&again), line(&first));
    // The record in both messages is the file's, unchanged.
    assert_eq!(
        std::fs::read_to_string(d.join("game.pbem")).unwrap(),
        record
    );
    let sig = |m: &str| {
        m.lines()
            .skip_while(|l| !l.starts_with("2. Red:"))
            .find(|l| l.trim_start().starts_with("sig "))
            .map(str::to_owned)
    };
    assert!(sig(&again).is_some() && sig(&again) == sig(&first));
    // Another turn instead is a second answer: refused, nothing written.
    let err = fails(
        d,
        &[
            "move",
            "game.pbem",
            "Kc9-d9",
            "--key",
            "red.key",
            "--reply",
            "-o",
            "b.eml",
        ],
        1,
    );
    assert!(err.contains("it is Blue's turn"), "{err}");
    assert!(!d.join("b.eml").exists());
}

/// While keys are due before turn 1, nothing is owed that a claim could
/// take: a forfeit claimed then is refused (exit 1), naming the key due,
/// never "cannot claim its own forfeit".
#[test]
fn no_forfeit_is_claimed_while_keys_are_due_before_turn_1() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    blue_keyed_only(d);
    let before = std::fs::read(d.join("game.pbem")).unwrap();
    let err = fails(
        d,
        &["move", "game.pbem", "--forfeit", "--key", "blue.key"],
        1,
    );
    assert!(
        err.contains(
            "no forfeit can be claimed before every key is in: Red's key is due before turn 1"
        ),
        "{err}"
    );
    assert!(!err.contains("its own forfeit"), "{err}");
    assert_eq!(std::fs::read(d.join("game.pbem")).unwrap(), before);
}

/// The same rule on replay, not only when `move` writes a claim: in a
/// three-player game whose third key is still due, a claim line written
/// by hand (here Elf's of Human's turn 1) is refused by `check` for
/// what it is, before its signature is even looked at.
#[test]
fn a_claim_written_while_keys_are_due_is_refused_on_replay() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run(
        d,
        &[
            "new",
            "battle-of-the-dale",
            "--side",
            "Human=a@x",
            "--side",
            "Elf=b@x",
            "--side",
            "Dwarf=c@x",
            "-o",
            "game.pbem",
        ],
    );
    for side in ["Human", "Elf"] {
        run(
            d,
            &[
                "keygen",
                "--side",
                side,
                "game.pbem",
                "-o",
                &format!("{side}.key"),
            ],
        );
    }
    let mut text = std::fs::read_to_string(d.join("game.pbem")).unwrap();
    text.push_str(&format!(
        "\n1. Human: forfeit claimed by Elf\n    date 2026-11-29\n    sig {}\n",
        "00".repeat(64)
    ));
    std::fs::write(d.join("claim.pbem"), text).unwrap();
    let err = fails(d, &["check", "claim.pbem"], 1);
    assert!(
        err.contains(
            "turn 1 (Human): forfeit: no forfeit can be claimed before every key is in: Dwarf's key is due before turn 1"
        ),
        "{err}"
    );
}

/// The command a reader prints, its continuation lines (`fit`'s two
/// spaces) joined: the text between `(herald ` and the `)` closing it.
fn printed_command(text: &str) -> String {
    let joined = text.replace("\n  ", " ");
    let start = joined.find("(herald ").expect("a command in parentheses") + 1;
    let end = start + joined[start..].find(')').unwrap();
    joined[start..end].to_owned()
}

/// Bob, given Ann's first message, asks `check`, `legal` and `show` what
/// is due: each names Red's key with the command that answers a message
/// (herald never rewrites one), and that command, run as printed, works.
#[test]
fn a_command_printed_for_a_message_answers_it_with_a_reply() {
    let root = tempfile::tempdir().unwrap();
    let (ann, bob) = (root.path().join("ann"), root.path().join("bob"));
    std::fs::create_dir(&ann).unwrap();
    std::fs::create_dir(&bob).unwrap();
    common::run(
        &ann,
        &[
            "new",
            "castle-danger",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "--key",
            "blue.key",
            "--reply",
            "-o",
            "1.eml",
        ],
    );
    common::mail(&ann, &bob, "1.eml");
    let expected = "herald keygen --side Red 1.eml --key red.key --reply -o reply.eml";
    for reader in ["check", "legal", "show"] {
        let said = common::run(&bob, &[reader, "1.eml"]);
        assert_eq!(printed_command(&said), expected, "{reader}: {said}");
    }
    // A record file is written on in place: no reply there.
    common::run(&ann, &["extract", "1.eml", "-o", "game.pbem"]);
    let said = common::run(&ann, &["check", "game.pbem"]);
    assert_eq!(
        printed_command(&said),
        "herald keygen --side Red game.pbem --key red.key"
    );
    // As printed, word for word, the command answers the message.
    let words: Vec<&str> = expected.split(' ').skip(1).collect();
    common::run(&bob, &words);
    let said = common::run(&bob, &["check", "reply.eml"]);
    assert!(said.contains(": OK: Castle Danger"), "{said}");
    assert!(bob.join("red.key").exists());
}

/// A reply that cannot be written (its folder does not exist) is named
/// in the system's words, never with the hidden temporary file's name,
/// and says nothing was written: the key file and the record are as they
/// were.
#[test]
fn a_file_that_cannot_be_written_is_named_and_nothing_was_written() {
    let players = common::castle_danger_keyed();
    let ann = &players.blue;
    common::run(ann, &["extract", "c2.eml", "-o", "game.pbem"]);
    let key = std::fs::read(ann.join("my.key")).unwrap();
    let record = std::fs::read(ann.join("game.pbem")).unwrap();
    let said = common::fails(
        ann,
        &[
            "move",
            "game.pbem",
            "+C, Kc1-b1",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "no-such-folder/3.eml",
        ],
        2,
    );
    assert!(
        said.contains("cannot write no-such-folder/3.eml: No such file or directory"),
        "{said}"
    );
    assert!(said.contains("nothing was written"), "{said}");
    assert!(
        !said.contains(".herald-") && !said.contains("at path"),
        "{said}"
    );
    assert_eq!(std::fs::read(ann.join("my.key")).unwrap(), key);
    assert_eq!(std::fs::read(ann.join("game.pbem")).unwrap(), record);
    assert!(!ann.join("no-such-folder").exists());
}

/// `--key` naming a folder is called a folder where a key file belongs,
/// not "not a game record".
#[test]
fn a_key_argument_that_is_a_folder_is_named_as_the_key_file() {
    let players = common::castle_danger_keyed();
    std::fs::create_dir(players.blue.join("keys")).unwrap();
    for reader in ["legal", "check", "show"] {
        let said = common::fails(&players.blue, &[reader, "c2.eml", "--key", "keys"], 2);
        assert!(
            said.contains("keys is a directory, not a key file"),
            "{reader}: {said}"
        );
        assert!(!said.contains("game record"), "{reader}: {said}");
    }
}

/// A header edited after the keys were made (here Red's contact) breaks
/// the first reveal, and the error names the record's own protocol.
#[test]
fn a_header_edited_after_the_keys_names_the_records_own_protocol() {
    let players = common::castle_danger_turn_one();
    let ann = &players.blue;
    common::run(ann, &["extract", "c3.eml", "-o", "game.pbem"]);
    let text = std::fs::read_to_string(ann.join("game.pbem")).unwrap();
    assert!(text.contains("[Protocol \"3\"]"), "{text}");
    let edited = text.replace("[Red \"bob@example.org\"]", "[Red \"eve@example.org\"]");
    assert_ne!(edited, text);
    std::fs::write(ann.join("edited.pbem"), edited).unwrap();
    let said = common::fails(ann, &["check", "edited.pbem"], 1);
    assert!(
        said.contains("under [Protocol \"3\"] Blue's chain is bound"),
        "{said}"
    );
}

/// While a claim that ended the game waits for its target's answer,
/// `legal` (with any key file, or none) names that answer as the step
/// due and calls the result provisional, never "the game is over".
#[test]
fn legal_calls_a_claimed_result_provisional_while_its_target_may_answer() {
    let players = common::castle_danger_claimed(2, "2026-11-01", "2026-11-20", "f.eml");
    let (ann, bob) = (&players.blue, &players.red);
    common::mail(bob, ann, "f.eml");
    for (dir, key) in [(ann, None), (bob, Some("my.key"))] {
        let mut args = vec!["legal", "f.eml"];
        args.extend(key.iter().flat_map(|k| ["--key", k]));
        let said = common::run(dir, &args).replace("\n  ", " ");
        assert!(
            said.contains("Turn 4, Blue: Red claimed Blue's forfeit on turn 3, which ended the game: only Blue's own turn (turn 4) may follow it, and it voids the claim"),
            "{said}"
        );
        assert!(
            said.contains("Note: the result is provisional: Red won: Blue forfeited (claimed by Red on turn 3), unless Blue's own next line voids the claim"),
            "{said}"
        );
        assert!(!said.contains("the game is over"), "{said}");
    }
}
