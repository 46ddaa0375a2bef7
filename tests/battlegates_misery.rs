//! Misery Run through the real binary: `herald new battlegates --option
//! Setup=misery-run`, the keys, the twenty-piece mazes (a bad one and a
//! short one refused with their reasons), a turn, and every view of the
//! position (docs/games/battlegates.md section 10, "Misery Run").

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

fn herald() -> Command {
    let mut cmd = Command::cargo_bin("herald").unwrap();
    cmd.env("NO_COLOR", "1");
    cmd
}

fn run(d: &std::path::Path, args: &[&str]) -> std::process::Output {
    herald().current_dir(d).args(args).output().unwrap()
}

fn ok(d: &std::path::Path, args: &[&str]) -> String {
    let out = run(d, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(d: &std::path::Path, args: &[&str]) -> Value {
    serde_json::from_str(&ok(d, args)).unwrap()
}

/// South's twenty pieces on rows 1 to 12, off the line between rows 12
/// and 13.
const SOUTH_20: &str = "Wa2n Wb3n Wc4n Wd5n We6n Wf7n Wg8n Wh9n Gb5nw Gd2nw Gf3nw Gh4nw \
                        Gb8nw Gd9nw Lb10nw Le10nw Lb11nw Le11nw Lg2nw Lg5nw";

/// North's, its mirror on rows 14 to 25.
const NORTH_20: &str = "Wa23n Wb22n Wc21n Wd20n We19n Wf18n Wg17n Wh16n Gb20nw Gd23nw Gf22nw \
                        Gh21nw Gb17nw Gd16nw Lb15nw Le15nw Lb14nw Le14nw Lg23nw Lg20nw";

#[test]
fn misery_run_is_played_from_herald_new_to_a_turn() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    ok(
        d,
        &[
            "new",
            "--protocol",
            "2",
            "battlegates",
            "--side",
            "South=a@x",
            "--side",
            "North=b@x",
            "--option",
            "Setup=misery-run",
            "-o",
            "game.pbem",
        ],
    );
    let record = std::fs::read_to_string(d.join("game.pbem")).unwrap();
    assert!(record.contains("[Setup \"misery-run\"]"), "{record}");
    for side in ["South", "North"] {
        let key = format!("{}.key", side.to_lowercase());
        ok(d, &["keygen", "--side", side, "game.pbem", "-o", &key]);
    }
    let record = std::fs::read_to_string(d.join("game.pbem")).unwrap();
    // A maze touching the Run's edge, and a one-board maze of ten, are
    // refused with their reasons as illegal choices (exit 1), and
    // nothing is written.
    let bad = SOUTH_20.replace("Wh9n", "Wh12n");
    let out = run(
        d,
        &["setup", "game.pbem", "--key", "south.key", "--maze", &bad],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "the Brick wall Wh12n touches g12ne on the edge of the Misery Run between rows 12 and 13: \
             nothing may touch it in the set-up"
        ),
        "{err}"
    );
    let ten = "Wa2n Wb3n Wc4n Wd5n Gb5nw Gd2nw Gf3nw Lb10nw Le10nw Lb11nw";
    let out = run(
        d,
        &["setup", "game.pbem", "--key", "south.key", "--maze", ten],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "a maze is 8 Brick walls (W), 6 Gates (G) and 6 Long gates (L): this has 4 Brick \
             walls"
        ),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("game.pbem")).unwrap(),
        record
    );
    // The twenty-piece mazes: committed, then opened.
    for (key, maze) in [("south.key", SOUTH_20), ("north.key", NORTH_20)] {
        ok(d, &["setup", "game.pbem", "--key", key, "--maze", maze]);
    }
    for key in ["south.key", "north.key"] {
        ok(d, &["setup", "game.pbem", "--key", key]);
    }
    // With hidden hands the first drawer may owe one more set-up step
    // (its shares): whoever the note names writes it.
    for _ in 0..2 {
        let due = json(d, &["legal", "game.pbem", "--format", "json"]);
        let Some(note) = due["note"].as_str() else {
            break;
        };
        let key = if note.contains("South's set-up step") {
            "south.key"
        } else if note.contains("North's set-up step") {
            "north.key"
        } else {
            break;
        };
        ok(d, &["setup", "game.pbem", "--key", key]);
    }
    let shown = json(d, &["show", "game.pbem", "--format", "json"]);
    let position = shown["position"].as_str().unwrap();
    assert!(
        position.starts_with(
            "misery-run b1,d1,e1,f1,h1,b12,d12,e12,f12,h12/b25,d25,e25,f25,h25,b14,d14,e14,f14,\
             h14 "
        ),
        "{shown}"
    );
    assert!(position.contains("Wh16n") && position.contains("Wh9n"));
    // A turn: the first card discarded, then the mover's Archer on its
    // back row shoots up the board.
    let mover = shown["to_move"].as_str().unwrap().to_lowercase();
    let key = format!("{mover}.key");
    let legal = json(
        d,
        &["legal", "game.pbem", "--key", &key, "--format", "json"],
    );
    let discard = legal["actions"][0]["action"]
        .as_str()
        .unwrap_or_else(|| panic!("{legal}"))
        .to_string();
    assert!(discard.starts_with("discard "), "{legal}");
    let shot = if mover == "south" {
        "shoot d1 n"
    } else {
        "shoot d25 s"
    };
    let turn = format!("{discard}, {shot}");
    ok(d, &["move", "game.pbem", "--key", &key, &turn]);
    let checked = json(d, &["check", "game.pbem", "--format", "json"]);
    assert_eq!(checked["ok"], true, "{checked}");
    assert_eq!(checked["turns"], 1, "{checked}");
    // The diagram: 80 columns, the Run marked, in both styles.
    for extra in [None, Some("--unicode")] {
        let mut args = vec!["show", "game.pbem"];
        args.extend(extra);
        let text = ok(d, &args);
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        let mark = if extra.is_some() { "≈" } else { "~" };
        let run = text.lines().find(|l| l.starts_with("13 ")).unwrap();
        assert_eq!(run.matches(mark).count(), 9, "{text}");
        assert!(text.contains("Setup: misery-run (9 x 25)"), "{text}");
    }
    let svg = ok(d, &["show", "game.pbem", "--format", "svg"]);
    assert!(svg.starts_with("<svg") || svg.contains("<svg"), "{svg}");
    assert!(svg.contains("i25") && svg.contains("Misery Run"), "{svg}");
    let notes = ok(d, &["annotate", "game.pbem"]);
    assert!(notes.contains("an arrow"), "{notes}");
    let fate = ok(d, &["fate", "game.pbem"]);
    assert!(fate.contains("opening"), "{fate}");
}
