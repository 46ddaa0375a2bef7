//! Battlegates' five set-ups through the real binary: `herald new
//! battlegates --option Setup=...` with each set-up's sides (and the
//! wrong sides refused), every set-up's diagram within 80 columns through
//! `show`, and `legal`, `annotate` and `fate` on a Misery Run record and a
//! four-castle record (docs/games/battlegates.md section 10).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

fn herald() -> Command {
    let mut cmd = Command::cargo_bin("herald").unwrap();
    cmd.env("NO_COLOR", "1");
    cmd
}

fn run(d: &Path, args: &[&str]) -> std::process::Output {
    herald().current_dir(d).args(args).output().unwrap()
}

fn ok(d: &Path, args: &[&str]) -> String {
    let out = run(d, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(d: &Path, args: &[&str]) -> Value {
    serde_json::from_str(&ok(d, args)).unwrap()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/battlegates")
        .join(name)
}

/// Each set-up, its sides with their addresses (the two-player
/// four-castles game gives one player two castles), its `Hands` default.
const SET_UPS: [(&str, &[&str], &str); 5] = [
    ("one-board", &["South=a@x", "North=b@x"], "hidden"),
    ("misery-run", &["South=a@x", "North=b@x"], "hidden"),
    (
        "four-castles",
        &["Castle1=a@x", "Castle2=b@x", "Castle3=a@x", "Castle4=b@x"],
        "open",
    ),
    (
        "four-castles-allies",
        &["Castle1=a@x", "Castle2=b@x", "Castle3=c@x", "Castle4=d@x"],
        "open",
    ),
    (
        "four-castles-solo",
        &["Castle1=a@x", "Castle2=b@x", "Castle3=c@x", "Castle4=d@x"],
        "open",
    ),
];

/// `herald new battlegates` with `sides` and `Setup=setup`, into
/// `file` in `d`.
fn new(d: &Path, setup: &str, sides: &[&str], file: &str) -> std::process::Output {
    let option = format!("Setup={setup}");
    let mut args = vec!["new", "battlegates"];
    for side in sides {
        args.extend(["--side", side]);
    }
    args.extend(["--option", &option, "-o", file]);
    run(d, &args)
}

#[test]
fn herald_new_writes_each_set_up_for_its_sides_and_refuses_the_wrong_ones() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for (setup, sides, hands) in SET_UPS {
        let file = format!("{setup}.pbem");
        let out = new(d, setup, sides, &file);
        assert!(out.status.success(), "{setup}: {out:?}");
        let record = std::fs::read_to_string(d.join(&file)).unwrap();
        assert!(record.contains(&format!("[Setup \"{setup}\"]")), "{record}");
        assert!(record.contains(&format!("[Hands \"{hands}\"]")), "{record}");
        let checked = json(d, &["check", &file, "--format", "json"]);
        assert_eq!(checked["ok"], true, "{checked}");
        assert_eq!(checked["phase"], "setup", "{checked}");
        let first = sides[0].split('=').next().unwrap();
        assert_eq!(checked["to_move"], first, "{checked}");
        // The position names its set-up first, but on one board.
        let position = checked["position"].as_str().unwrap();
        assert_eq!(position.starts_with(setup), setup != "one-board");
    }
    // South and North do not play on Battle Alley, nor the castles on
    // Misery Run; an unknown word is refused naming the five.
    let four = SET_UPS[3].1;
    let two = SET_UPS[0].1;
    for (setup, sides, reason) in [
        (
            "four-castles-allies",
            two,
            "Setup \"four-castles-allies\" is played by Castle1, Castle2, Castle3 and \
             Castle4, not South",
        ),
        (
            "misery-run",
            four,
            "Battlegates on Misery Run is played by South and North: South is missing",
        ),
        (
            "two-boards",
            two,
            "Setup \"two-boards\": this herald plays Setup \"one-board\", \"misery-run\", \
             \"four-castles\", \"four-castles-allies\", \"four-castles-solo\"",
        ),
    ] {
        let out = new(d, setup, sides, "refused.pbem");
        assert_eq!(out.status.code(), Some(2), "{setup}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(reason), "{setup}: {err}");
        assert!(!d.join("refused.pbem").exists());
    }
}

/// The widest line of `text`, in characters.
fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn every_set_up_diagram_fits_80_columns_through_show() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let mut files: Vec<PathBuf> = Vec::new();
    for (setup, sides, _) in SET_UPS {
        let file = format!("{setup}.pbem");
        assert!(new(d, setup, sides, &file).status.success());
        files.push(d.join(file));
    }
    // Games played to their ends, mazes and all.
    for name in [
        "misery-game-to-the-end-with-a-gate-carry-kill-and-run-deaths.pbem",
        "game-four-castles-two-players-to-the-end.pbem",
        "game-four-castles-allies-to-the-end.pbem",
        "game-four-castles-solo-to-the-end.pbem",
        "game-won-by-a-keep-kill.pbem",
    ] {
        files.push(fixture(name));
    }
    for file in &files {
        let file = file.to_str().unwrap();
        for style in [None, Some("--unicode")] {
            let mut args = vec!["show", file];
            args.extend(style);
            let text = ok(d, &args);
            assert!(text.lines().count() > 20, "{text}");
            assert!(widest(&text) <= 80, "{file} {style:?}:\n{text}");
        }
    }
}

/// Copy `name` from the fixtures into `d` as `file`, cut before the turn
/// `turn` (its result back to `*`), with its key files, if any, as
/// `south.key` and `north.key`.
fn cut(d: &Path, name: &str, turn: u32, file: &str) {
    let text = std::fs::read_to_string(fixture(&format!("{name}.pbem"))).unwrap();
    let at = text.find(&format!("\n{turn}. ")).unwrap() + 1;
    let result = text.lines().find(|l| l.starts_with("[Result ")).unwrap();
    std::fs::write(d.join(file), text[..at].replace(result, "[Result \"*\"]")).unwrap();
    for side in ["south", "north"] {
        if let Ok(key) = std::fs::read_to_string(fixture(&format!("{name}.{side}.key"))) {
            std::fs::write(d.join(format!("{side}.key")), key).unwrap();
        }
    }
}

#[test]
fn legal_annotate_and_fate_read_a_misery_run_record() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let name = "misery-game-to-the-end-with-a-gate-carry-kill-and-run-deaths";
    cut(d, name, 12, "mr.pbem");
    // North to move on turn 12 with hidden hands: its key lists its
    // actions, the die already known; without it, a note says why none.
    let legal = ok(d, &["legal", "mr.pbem", "--key", "north.key"]);
    assert!(legal.starts_with("Turn 12, North: "), "{legal}");
    assert!(legal.contains("Chance: die 3"), "{legal}");
    let listed = json(
        d,
        &["legal", "mr.pbem", "--key", "north.key", "--format", "json"],
    );
    let actions = listed["actions"].as_array().unwrap();
    assert!(actions.len() > 100, "{listed}");
    let bare = ok(d, &["legal", "mr.pbem"]);
    assert!(
        bare.contains("North's cards are hidden: give --key"),
        "{bare}"
    );
    // annotate tells the Run's deaths: the gate-carry kill of turn 2 and
    // the deaths of turns 6 and 11 when the turns ended.
    let notes = ok(d, &["annotate", "mr.pbem"]).replace("\n     ", " ");
    for said in [
        "carrying South's Archer f12 to h13; carried into the Misery Run, South's Archer on \
         h13 died (the dice phase is forfeited)",
        "the turn ended with North's Archer on d13 in the Misery Run: it died",
        "the turn ended with South's Crusader on b13 and South's Gatekeeper on d13 in the \
         Misery Run: they died",
    ] {
        assert!(notes.contains(said), "{said}:\n{notes}");
    }
    // fate: the opening rolls, then a die a turn, each from both reveals.
    let fate = ok(d, &["fate", "mr.pbem"]);
    assert!(fate.starts_with("turn 0: opening="), "{fate}");
    assert!(
        fate.contains("turn 2: die=1, from the reveals of North, South"),
        "{fate}"
    );
    assert_eq!(fate.lines().filter(|l| l.contains(": die=")).count(), 11);
}

#[test]
fn legal_annotate_and_fate_read_a_four_castle_record() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    cut(d, "game-four-castles-allies-to-the-end", 9, "fc.pbem");
    // Castle1 moves on turn 9; its card and die come from its reveal.
    let legal = ok(d, &["legal", "fc.pbem"]);
    assert!(legal.starts_with("Turn 9, Castle1: "), "{legal}");
    assert!(
        legal.contains("this turn's card is not drawn yet"),
        "{legal}"
    );
    let notes = ok(d, &["annotate", "fc.pbem"]);
    assert!(
        notes.contains("{drew scale; rolled 1; discarded rotate180; Castle2's Archer ran"),
        "{notes}"
    );
    // fate: Castle1's deal of four cards to each team, then a card and a
    // die a turn, from the four castles' reveals.
    let fate = ok(d, &["fate", "fc.pbem"]);
    assert_eq!(fate.lines().filter(|l| l.contains(": deal=")).count(), 8);
    assert_eq!(fate.lines().filter(|l| l.contains(": card=")).count(), 8);
    assert_eq!(fate.lines().filter(|l| l.contains(": die=")).count(), 8);
    assert!(
        fate.contains("from the reveals of Castle1, Castle2, Castle3, Castle4"),
        "{fate}"
    );
}
