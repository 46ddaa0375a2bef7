//! The diagram's heading names the step due and whose it is (issue 28),
//! through the real binary: three players of Battle of the Dale, one
//! directory and one key file each, by .eml messages. The engine's own
//! heading (`Turn 1: Human to move`) names the side the board moves even
//! while the other sides' keys or a forfeit claim's answer are due;
//! `show`, `replay` and the message `--reply` writes say the step due
//! instead, as `check` does, and the armies' table marks the side whose
//! turn is due (none while no side's turn is).

mod common;
use common::{herald, run};

use std::path::{Path, PathBuf};

/// The day of every line of play, and one past the default Deadline.
const PLAY_DAY: &str = "2026-11-01";
const CLAIM_DAY: &str = "2026-11-16";

/// Ann (Human), Eve (Elf) and Dan (Dwarf), each in their own directory.
struct Dale {
    _root: tempfile::TempDir,
    dirs: Vec<PathBuf>,
}

impl Dale {
    /// Ann's first message, `1.eml`, mailed to the others: the Elf's and
    /// the Dwarf's keys are due.
    fn begun() -> Dale {
        let root = tempfile::tempdir().unwrap();
        let dirs: Vec<PathBuf> = ["ann", "eve", "dan"]
            .iter()
            .map(|who| {
                let d = root.path().join(who);
                std::fs::create_dir(&d).unwrap();
                d
            })
            .collect();
        let dale = Dale { _root: root, dirs };
        dale.answer(
            0,
            PLAY_DAY,
            &[
                "new",
                "battle-of-the-dale",
                "--side",
                "Human=ann@example.org",
                "--side",
                "Elf=eve@example.org",
                "--side",
                "Dwarf=dan@example.org",
                "--key",
                "my.key",
                "--reply",
                "-o",
                "1.eml",
            ],
        );
        dale
    }

    fn dir(&self, who: usize) -> &Path {
        &self.dirs[who]
    }

    /// `herald ARGS` by player `who` on `day` (it must succeed); the
    /// message it wrote (the last argument) mailed to the others.
    fn answer(&self, who: usize, day: &str, args: &[&str]) {
        let out = herald(self.dir(who))
            .env("HERALD_TODAY", day)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        let name = args.last().unwrap();
        for (i, d) in self.dirs.iter().enumerate() {
            if i != who {
                std::fs::copy(self.dir(who).join(name), d.join(name)).unwrap();
            }
        }
    }

    /// The keys in (`2.eml`, `3.eml`), Human's turn 1 (`4.eml`), and the
    /// Dwarf's claim of the Elf's forfeit past the Deadline (`5.eml`).
    fn claimed() -> Dale {
        let dale = Dale::begun();
        let key = |side: &'static str, on: &'static str, out: &'static str| {
            [
                "keygen", "--side", side, on, "--key", "my.key", "--reply", "-o", out,
            ]
        };
        dale.answer(1, PLAY_DAY, &key("Elf", "1.eml", "2.eml"));
        dale.answer(2, PLAY_DAY, &key("Dwarf", "2.eml", "3.eml"));
        dale.answer(
            0,
            PLAY_DAY,
            &[
                "move", "3.eml", "R@A1", "--key", "my.key", "--reply", "-o", "4.eml",
            ],
        );
        dale.answer(
            2,
            CLAIM_DAY,
            &[
                "move",
                "4.eml",
                "--forfeit",
                "--key",
                "my.key",
                "--reply",
                "-o",
                "5.eml",
            ],
        );
        dale
    }
}

/// The message's body from its first blank line on: the line played, the
/// diagram, the record.
fn body(message: &Path) -> String {
    let text = std::fs::read_to_string(message).unwrap();
    text.split_once("\n\n").unwrap().1.to_owned()
}

/// The first line after `show`'s title and blank line: the diagram's
/// heading.
fn heading(show: &str) -> &str {
    show.lines().nth(2).unwrap()
}

#[test]
fn while_keys_are_due_the_diagram_heading_names_them_not_the_side_the_board_moves() {
    let dale = Dale::begun();
    let eve = dale.dir(1);
    let show = run(eve, &["show", "1.eml"]);
    assert_eq!(
        heading(&show),
        "Elf's and Dwarf's keys are due before turn 1, in any order: each side adds its",
        "{show}"
    );
    assert!(!show.contains("Human to move"), "{show}");
    let replay = run(eve, &["replay", "1.eml"]);
    assert!(
        replay.contains("Elf's and Dwarf's keys are due"),
        "{replay}"
    );
    assert!(!replay.contains("Human to move"), "{replay}");
    // The message Ann's `new --reply` wrote: the line said, then the
    // diagram headed by the keys due.
    let body = body(&eve.join("1.eml"));
    let mut lines = body.lines();
    assert_eq!(
        lines.next(),
        Some("Human began the game with its key (HumanCommit and HumanKey)")
    );
    assert_eq!(lines.next(), Some(""));
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("Elf's and Dwarf's keys are due before turn 1"),
        "{body}"
    );
    assert!(!body.contains("Human to move"), "{body}");
}

#[test]
fn while_a_claim_waits_for_its_answer_the_diagram_heading_names_the_claimed_side() {
    let dale = Dale::claimed();
    // The board moves the Dwarf next (the Elf is out until it answers);
    // what is due is the Elf's answer.
    for who in 0..3 {
        let show = run(dale.dir(who), &["show", "5.eml"]);
        assert_eq!(
            heading(&show),
            "Dwarf claimed Elf's forfeit on turn 2: Elf's own turn (turn 3) voids the claim",
            "{show}"
        );
        assert!(!show.contains("Dwarf to move"), "{show}");
    }
    let body = body(&dale.dir(1).join("5.eml"));
    assert!(
        body.contains(
            "2. Elf: forfeit claimed by Dwarf\n\nDwarf claimed Elf's forfeit on turn 2: Elf's own turn (turn 3) voids the claim\n"
        ),
        "{body}"
    );
    assert!(!body.contains("Dwarf to move"), "{body}");
    let check = run(dale.dir(1), &["check", "5.eml"]);
    assert!(
        check.contains(
            "Dwarf claimed Elf's forfeit on turn 2: Elf's own turn (turn 3) voids the claim"
        ),
        "{check}"
    );
}

/// The armies marked `>` in the armies' table of a text diagram.
fn marked(diagram: &str) -> Vec<String> {
    diagram
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("Army "))
        .skip(1)
        .take_while(|l| l.starts_with("> ") || l.starts_with("  "))
        .filter_map(|l| l.strip_prefix("> "))
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect()
}

/// Battle of the Dale's armies' table marks the army whose turn the
/// referee says is due, as the heading names it: none while keys are
/// due (nobody's turn), Human once turn 1 is, and the Elf, whose own
/// turn answers the claim of its forfeit, while that claim waits,
/// though the board has the Dwarf move next.
#[test]
fn the_armies_table_marks_the_side_whose_turn_is_due_never_the_boards_mover_alone() {
    let dale = Dale::begun();
    let show = run(dale.dir(1), &["show", "1.eml"]);
    assert_eq!(marked(&show), Vec::<String>::new(), "{show}");
    let dale = Dale::claimed();
    let show = run(dale.dir(1), &["show", "3.eml"]);
    assert_eq!(marked(&show), ["Human"], "{show}");
    let show = run(dale.dir(1), &["show", "5.eml"]);
    assert!(show.contains("Elf      out"), "{show}");
    assert_eq!(marked(&show), ["Elf"], "{show}");
}
