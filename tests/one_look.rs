//! One look a turn (`herald show GAME --key K`) through the real binary,
//! each player in its own directory with its own key file: the board
//! from the key's side, the hand with this turn's draw marked, the roll,
//! the step due and the legal actions stage by stage, in text, JSON and
//! SVG, agreeing with `hand`, `legal --key`, `legal --after` and `check`
//! from the first message on.

mod common;
use common::{herald, json, run};

use serde_json::Value;

const SOUTH_MAZE: &str = "Wb2n Wd3e Wf2n Wh3n Gc1sw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw";
const NORTH_MAZE: &str = "Wb10n Wd9e Wf10n Wh8n Gc12nw Gc9nw Ge8ne Ld10nw Lg9en Lb8nw";

/// A Battlegates record with hidden hands (the default), set up by both
/// players, each key file in its own directory; the set-up's last step
/// (the shares of the first draw) taken by whoever it is due to.
fn set_up(d: &std::path::Path) {
    std::fs::create_dir_all(d.join("south")).unwrap();
    std::fs::create_dir_all(d.join("north")).unwrap();
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
            "-o",
            "g.pbem",
        ],
    );
    for (side, key) in [("South", "south/s.key"), ("North", "north/n.key")] {
        run(d, &["keygen", "--side", side, "g.pbem", "-o", key]);
    }
    run(
        d,
        &[
            "setup",
            "g.pbem",
            "--key",
            "south/s.key",
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
            "north/n.key",
            "--maze",
            NORTH_MAZE,
        ],
    );
    run(d, &["setup", "g.pbem", "--key", "south/s.key"]);
    run(d, &["setup", "g.pbem", "--key", "north/n.key"]);
    // The shares of the first mover's draw, by the other side.
    let due = json(d, &["check", "g.pbem", "--format", "json"]);
    if due["phase"] == "setup" {
        let side = due["step"]["side"].as_str().unwrap().to_owned();
        run(d, &["setup", "g.pbem", "--key", key_of(&side)]);
    }
    let due = json(d, &["check", "g.pbem", "--format", "json"]);
    assert_eq!(due["step"]["step"], "turn", "{due}");
}

fn key_of(side: &str) -> &'static str {
    if side == "South" {
        "south/s.key"
    } else {
        "north/n.key"
    }
}

fn other(side: &str) -> &'static str {
    if side == "South" {
        "North"
    } else {
        "South"
    }
}

/// The side whose turn 1 is due.
fn mover(d: &std::path::Path) -> String {
    let shown = json(d, &["show", "g.pbem", "--format", "json"]);
    shown["to_move"].as_str().unwrap().to_owned()
}

/// `text`'s words, one space between them: wrapped lines joined.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn texts(list: &Value, field: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|a| a[field].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn before_turn_one_show_hand_and_check_count_the_same_cards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_up(d);
    let mover = mover(d);
    // `hand` lists the four cards of the mover's first draw...
    let hand = json(
        d,
        &[
            "hand",
            "g.pbem",
            "--key",
            key_of(&mover),
            "--format",
            "json",
        ],
    );
    let cards = texts(&hand["cards"], "card");
    assert_eq!(cards.len(), 4, "{hand}");
    // ...each drawn at the start of the turn due, and says so.
    assert!(
        hand["cards"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["drawn"] == true),
        "{hand}"
    );
    let listed = run(d, &["hand", "g.pbem", "--key", key_of(&mover)]);
    assert_eq!(
        listed.matches("  (drawn this turn)\n").count(),
        4,
        "{listed}"
    );
    // ...`show --key` the same four, every one marked as drawn this turn...
    let look = json(
        d,
        &[
            "show",
            "g.pbem",
            "--key",
            key_of(&mover),
            "--format",
            "json",
        ],
    )["look"]
        .clone();
    assert_eq!(texts(&look["hand"], "card"), cards, "{look}");
    assert!(
        look["hand"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["drawn"] == true),
        "{look}"
    );
    // Long lines wrap: their words read as one text.
    let text = run(d, &["show", "g.pbem", "--key", key_of(&mover)]);
    let text = flat(&text);
    assert!(
        text.contains(&format!("{mover}'s hand: 4 cards: ")),
        "{text}"
    );
    assert!(text.contains("(* drawn this turn)"), "{text}");
    assert!(!text.contains(&format!("{mover}'s hand: none")), "{text}");
    // ...and `check` and `show` without a key count them: 4, not 0, the
    // deck 34 - 4.
    let check = run(d, &["check", "g.pbem"]);
    assert!(
        check.contains(&format!("{mover} 4")) && check.contains("deck 30"),
        "{check}"
    );
    let public = run(d, &["show", "g.pbem"]);
    assert!(
        public.contains(&format!("{mover}'s hand: 4 unseen")),
        "{public}"
    );
    // The other side holds none yet, everywhere.
    let theirs = json(
        d,
        &[
            "hand",
            "g.pbem",
            "--key",
            key_of(other(&mover)),
            "--format",
            "json",
        ],
    );
    assert_eq!(theirs["cards"].as_array().unwrap().len(), 0);
    assert!(check.contains(&format!("{} 0", other(&mover))), "{check}");
}

#[test]
fn show_key_of_the_mover_gives_roll_due_and_card_then_dice_phase_as_legal_lists_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_up(d);
    let mover = mover(d);
    let key = key_of(&mover);
    let look = json(d, &["show", "g.pbem", "--key", key, "--format", "json"])["look"].clone();
    assert_eq!(look["side"], mover.as_str());
    assert_eq!(look["to_move"], true);
    assert_eq!(look["due"]["side"], mover.as_str());
    assert_eq!(look["due"]["line"], "turn 1");
    assert_eq!(look["due"]["step"], "turn");
    // The roll is the one `legal --key` gives.
    let legal = json(d, &["legal", "g.pbem", "--key", key, "--format", "json"]);
    assert_eq!(look["chance"], legal["chance"], "{look}");
    assert_eq!(look["chance"][0]["label"], "die");
    // The card phase is what `legal --key` lists: every discard and
    // every play of a card held.
    let stages = look["stages"].as_array().unwrap();
    assert_eq!(stages.len(), 2, "{look}");
    assert_eq!(stages[0]["name"], "card phase");
    assert_eq!(
        texts(&stages[0]["actions"], "action"),
        texts(&legal["actions"], "action")
    );
    // The dice phase is what `legal --after` lists after a discard.
    assert_eq!(stages[1]["name"], "dice phase");
    let first = stages[1]["after"][0].as_str().unwrap().to_owned();
    assert!(first.starts_with("discard "), "{first}");
    let dice = json(
        d,
        &[
            "legal", "g.pbem", "--key", key, "--after", &first, "--format", "json",
        ],
    );
    assert_eq!(
        texts(&stages[1]["actions"], "action"),
        texts(&dice["actions"], "action")
    );
    assert!(!dice["actions"].as_array().unwrap().is_empty());
    // The text says the same, the roll and the phases named.
    // Long lines wrap: their words read as one text.
    let text = run(d, &["show", "g.pbem", "--key", key]);
    let text = flat(&text);
    let roll = look["chance"][0]["value"].as_str().unwrap();
    assert!(
        text.contains(&format!("Chance this turn: die {roll}")),
        "{text}"
    );
    assert!(
        text.contains(&format!("Due: turn 1 is {mover}'s (herald move)")),
        "{text}"
    );
    let n = stages[0]["actions"].as_array().unwrap().len();
    assert!(
        text.contains(&format!("Card phase: {n} legal actions")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Dice phase: {} legal actions, after `{first}`",
            stages[1]["actions"].as_array().unwrap().len()
        )),
        "{text}"
    );
    // The commands the look names work as written: the rest after
    // another card action, and (a list too long for a look) all of it.
    assert!(
        text.contains(&format!(
            "(or any card action that leaves the board as it is; herald legal g.pbem --key {key} \
             --after ACTIONS lists them after another)"
        )),
        "{text}"
    );
    let more = text.contains(" more (");
    assert_eq!(
        more,
        text.contains(&format!("herald legal g.pbem --key {key} lists them all"))
            || text.contains(&format!(
                "herald legal g.pbem --key {key} --after \"{first}\" lists them all"
            )),
        "{text}"
    );
}

#[test]
fn show_key_of_the_side_not_to_move_says_whose_turn_and_lists_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_up(d);
    let mover = mover(d);
    let waiting = other(&mover);
    let look = json(
        d,
        &[
            "show",
            "g.pbem",
            "--key",
            key_of(waiting),
            "--format",
            "json",
        ],
    )["look"]
        .clone();
    assert_eq!(look["side"], waiting);
    assert_eq!(look["to_move"], false);
    assert_eq!(look["due"]["side"], mover.as_str());
    assert_eq!(look["stages"].as_array().unwrap().len(), 0);
    assert_eq!(look["chance"].as_array().unwrap().len(), 0);
    assert_eq!(look["hand"].as_array().unwrap().len(), 0);
    // Long lines wrap: their words read as one text.
    let text = run(d, &["show", "g.pbem", "--key", key_of(waiting)]);
    let text = flat(&text);
    assert!(
        text.contains(&format!("Note: not {waiting}'s turn: turn 1 is {mover}'s")),
        "{text}"
    );
    // The mover's cards are counted, never named.
    assert!(
        text.contains(&format!("{mover}'s hand: 4 unseen")),
        "{text}"
    );
}

#[test]
fn show_key_svg_has_the_hand_and_the_roll_under_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_up(d);
    let mover = mover(d);
    let key = key_of(&mover);
    let svg = run(d, &["show", "g.pbem", "--key", key, "--format", "svg"]);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let lines: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(str::to_owned))
        .collect();
    let look = json(d, &["show", "g.pbem", "--key", key, "--format", "json"])["look"].clone();
    let roll = look["chance"][0]["value"].as_str().unwrap();
    assert!(
        lines.contains(&format!("Chance this turn: die {roll}")),
        "{lines:?}"
    );
    // The caption's lines as the text's, a long one wrapped: joined.
    let caption = lines.join("\n").replace("\n  ", " ");
    assert!(flat(&caption).contains(&format!("{mover}'s hand: 4 cards: ")));
    let hand = caption
        .lines()
        .find(|l| l.starts_with(&format!("{mover}'s hand: 4 cards: ")))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(hand.ends_with("(* drawn this turn)"), "{hand}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Legal actions: card phase ")),
        "{lines:?}"
    );
}

#[test]
fn legal_without_a_key_in_a_game_of_hidden_hands_asks_for_the_key_not_zero_actions() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_up(d);
    let mover = mover(d);
    let text = run(d, &["legal", "g.pbem"]);
    assert!(!text.contains("0 legal actions"), "{text}");
    assert!(
        text.contains(&format!(
            "Turn 1, {mover}: no actions listed: {mover}'s cards are hidden: give --key"
        )),
        "{text}"
    );
    assert!(text.contains("herald legal g.pbem --key KEYFILE"), "{text}");
}

#[test]
fn show_key_in_castle_danger_lists_one_stage_and_no_hand() {
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
            "g.pbem",
        ],
    );
    run(d, &["keygen", "--side", "Blue", "g.pbem", "-o", "blue.key"]);
    run(d, &["keygen", "--side", "Red", "g.pbem", "-o", "red.key"]);
    let look = json(
        d,
        &["show", "g.pbem", "--key", "blue.key", "--format", "json"],
    )["look"]
        .clone();
    assert_eq!(look["hand"], Value::Null);
    let stages = look["stages"].as_array().unwrap();
    assert_eq!(stages.len(), 1, "{look}");
    assert_eq!(stages[0]["name"], "actions");
    let legal = json(
        d,
        &["legal", "g.pbem", "--key", "blue.key", "--format", "json"],
    );
    assert_eq!(
        texts(&stages[0]["actions"], "action"),
        texts(&legal["actions"], "action")
    );
    let out = herald(d)
        .args(["show", "g.pbem", "--key", "blue.key"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Due: turn 1 is Blue's (herald move)"),
        "{text}"
    );
}

#[test]
fn a_record_read_from_standard_input_is_named_record_in_the_commands_suggested() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_up(d);
    let mover = mover(d);
    let record = std::fs::read(d.join("g.pbem")).unwrap();
    let out = herald(d)
        .args(["legal", "-"])
        .write_stdin(record.clone())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = flat(&String::from_utf8(out.stdout).unwrap());
    assert!(
        text.contains("(herald legal RECORD --key KEYFILE, or herald show RECORD --key KEYFILE"),
        "{text}"
    );
    assert!(!text.contains("<stdin>"), "{text}");
    let out = herald(d)
        .args(["show", "-", "--key", key_of(&mover)])
        .write_stdin(record)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = flat(&String::from_utf8(out.stdout).unwrap());
    assert!(
        text.contains(&format!(
            "herald legal RECORD --key {} --after ACTIONS lists them after another",
            key_of(&mover)
        )),
        "{text}"
    );
}
