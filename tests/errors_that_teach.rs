//! Errors that teach (issue 29), a test per message, each checking its
//! words: a record cut short says so and where; a command an error
//! suggests works in the phase the game is in; a reply quoted twice
//! whose turn line was re-wrapped after a comma reads as one turn; a
//! misspelt word gets "did you mean" in every game.

mod common;
use common::{herald, run};

use herald::game::Game;
use herald::games::playground_battles::PlaygroundBattles;

/// `herald ARGS` in `dir` must fail with `code`: its standard error.
fn fails(dir: &std::path::Path, args: &[&str], code: i32) -> String {
    let out = herald(dir).args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "herald {args:?}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stderr).unwrap()
}

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
