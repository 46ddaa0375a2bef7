//! Battlegates through the real binary: the hidden maze set up with
//! `--maze` (as text and from a file), refused at once when it breaks a
//! set-up rule, the opening roll and the deal once both mazes are open,
//! and a first turn played.

mod common;
use common::{herald, json, run};

const SOUTH_MAZE: &str = "Wb2n Wd3e Wf2n Wh3n Gc1sw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw";
const NORTH_MAZE: &str =
    "# North's maze\nWb10n, Wd9e, Wf10n, Wh8n\nGc12nw Gc9nw Ge8ne\nLd10nw Lg9en Lb8nw\n";

fn keyed_record(d: &std::path::Path) {
    run(
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
            "Hands=open",
            "-o",
            "g.pbem",
        ],
    );
    for side in ["South", "North"] {
        let key = format!("{}.key", side.to_lowercase());
        run(d, &["keygen", "--side", side, "g.pbem", "-o", &key]);
    }
}

#[test]
fn a_maze_breaking_a_set_up_rule_is_refused_at_once_with_the_piece_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keyed_record(d);
    let bad = "Wc1s Wd3e Wf2n Wh3n Gb2nw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw";
    let record = std::fs::read(d.join("g.pbem")).unwrap();
    let key = std::fs::read(d.join("south.key")).unwrap();
    // A maze that breaks a set-up rule is an illegal choice (exit 1,
    // error[illegal], as `move` says of an illegal action), not a usage
    // error; the record and the key file are left as they were.
    let out = herald(d)
        .args(["setup", "g.pbem", "--key", "south.key", "--maze", bad])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error[illegal]: set-up line S1 (South): --maze "),
        "{err}"
    );
    assert!(
        err.contains("the Brick wall Wc1s: a Brick wall may never close a castle entrance"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("g.pbem")).unwrap(), record);
    assert_eq!(std::fs::read(d.join("south.key")).unwrap(), key);
    // So is a maze of the wrong pieces, and one that does not read.
    for (maze, reason) in [
        (
            "Wa1n Wb1n",
            "a maze is 4 Brick walls (W), 3 Gates (G) and 3 Long gates (L)",
        ),
        ("Wz1n Wb1n", "`Wz1n`: expected an edge after W"),
    ] {
        let out = herald(d)
            .args(["setup", "g.pbem", "--key", "south.key", "--maze", maze])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{maze}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error[illegal]") && err.contains(reason),
            "{err}"
        );
    }
    // No maze at all is a usage error: the option is missing.
    let out = herald(d)
        .args(["setup", "g.pbem", "--key", "south.key"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "the maze is required");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--maze"));
}

#[test]
fn mazes_set_up_by_text_and_by_file_open_and_the_opening_roll_deals() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keyed_record(d);
    std::fs::write(d.join("north-maze.txt"), NORTH_MAZE).unwrap();
    run(
        d,
        &[
            "setup",
            "g.pbem",
            "--key",
            "south.key",
            "--maze",
            SOUTH_MAZE,
        ],
    );
    run(
        d,
        &[
            "setup",
            "g.pbem",
            "--key",
            "north.key",
            "--maze",
            "@north-maze.txt",
        ],
    );
    run(d, &["setup", "g.pbem", "--key", "south.key"]);
    let last = run(d, &["setup", "g.pbem", "--key", "north.key"]);
    assert!(last.contains("the set-up is complete"), "{last}");
    let shown = json(d, &["show", "g.pbem", "--format", "json"]);
    let position = shown["position"].as_str().unwrap();
    // Both mazes are open: 20 pieces; each hand holds 3 cards.
    let maze = position.split(' ').nth(1).unwrap();
    assert_eq!(maze.split(',').count(), 20, "{position}");
    let cards = position.split(' ').nth(3).unwrap();
    let hands: Vec<&str> = cards.split('/').collect();
    assert_eq!((hands[0].len(), hands[1].len()), (3, 3), "{position}");
    // The opening rolls and the deal are chance of turn 0.
    let fate = run(d, &["fate", "g.pbem"]);
    assert!(fate.contains("turn 0: opening="), "{fate}");
    assert_eq!(fate.matches("turn 0: deal=").count(), 6, "{fate}");
    // The mover discards and spends its roll: any Archer's shot does.
    let mover = shown["to_move"].as_str().unwrap().to_lowercase();
    let key = format!("{mover}.key");
    let legal = json(d, &["legal", "g.pbem", "--key", &key, "--format", "json"]);
    let first = legal["actions"][0]["action"].as_str().unwrap().to_string();
    assert!(first.starts_with("discard "), "{legal}");
    let shot = if mover == "south" {
        "shoot d1 n"
    } else {
        "shoot d12 s"
    };
    run(
        d,
        &["move", "g.pbem", "--key", &key, &format!("{first}, {shot}")],
    );
    let checked = run(d, &["check", "g.pbem"]);
    assert!(checked.contains("OK: Battlegates, 1 turn,"), "{checked}");
}

/// `annotate --format json` of the fixture `name`: each line's turn
/// number, whether it is a closing line, and its comment.
fn annotated(name: &str) -> Vec<(u64, bool, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("fixtures/battlegates").join(name);
    let v = json(
        root,
        &["annotate", path.to_str().unwrap(), "--format", "json"],
    );
    v["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["turn"].as_u64().unwrap(),
                t["line"].as_str().unwrap() == "audit",
                t["comment"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn annotate_comments_on_turns_played_and_not_on_closing_lines() {
    // Misery Run, hidden hands: South wins on turn 47; lines 48 and 49
    // are the closing lines of openings, which play nothing.
    let turns = annotated("misery-game-to-the-end-with-a-gate-carry-kill-and-run-deaths.pbem");
    let closing: Vec<&(u64, bool, String)> = turns.iter().filter(|t| t.1).collect();
    assert_eq!(
        closing.iter().map(|t| t.0).collect::<Vec<_>>(),
        [48, 49],
        "{turns:?}"
    );
    assert!(closing.iter().all(|t| t.2.is_empty()), "{closing:?}");
    let last = turns.iter().find(|t| t.0 == 47).unwrap();
    assert!(last.2.contains("killing North's Crusader"), "{last:?}");
}
