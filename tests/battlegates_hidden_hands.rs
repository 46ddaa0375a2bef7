//! Battlegates with hidden hands (spec section 3.9) through the real
//! binary: two players, each with its key file in its own directory,
//! set up the maze and the shared deck with `setup --key`, see their own
//! hands with `herald hand`, and play with `move --key`; `check` replays
//! it all. A self-played game goes on through a reshuffle and, once it
//! ends, through the audit of every pass.

mod common;
use common::{herald, json, run};

use herald::games::battlegates::Battlegates;
use herald::selfplay;

const SOUTH_MAZE: &str = "Wb2n Wd3e Wf2n Wh3n Gc1sw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw";
const NORTH_MAZE: &str = "Wb10n Wd9e Wf10n Wh8n Gc12nw Gc9nw Ge8ne Ld10nw Lg9en Lb8nw";

/// A record with hidden hands, set up by both players, each key file in
/// its own directory (`south/`, `north/`).
fn set_up(d: &std::path::Path) {
    std::fs::create_dir_all(d.join("south")).unwrap();
    std::fs::create_dir_all(d.join("north")).unwrap();
    run(
        d,
        &[
            "new",
            "battlegates",
            "--side",
            "South=a@x",
            "--side",
            "North=b@x",
            "--option",
            "Hands=hidden",
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
    // A shares line when North moves first (South's shares of North's
    // first draw): the step due is South's then.
    let out = herald(d)
        .args(["setup", "g.pbem", "--key", "south/s.key"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() || err.contains("the set-up is over"),
        "{err}"
    );
}

fn key_of(side: &str) -> &'static str {
    if side == "South" {
        "south/s.key"
    } else {
        "north/n.key"
    }
}

/// The cards of `side`'s hand, as `herald hand` lists them.
fn hand(d: &std::path::Path, side: &str) -> Vec<(u64, String)> {
    let h = json(
        d,
        &["hand", "g.pbem", "--key", key_of(side), "--format", "json"],
    );
    assert_eq!(h["side"].as_str(), Some(side), "{h}");
    h["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["position"].as_u64().unwrap(),
                c["card"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn two_players_set_up_see_only_their_own_hands_and_play_by_their_keys() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_up(d);
    let shown = json(d, &["show", "g.pbem", "--format", "json"]);
    let mover = shown["to_move"].as_str().unwrap().to_owned();
    let other = if mover == "South" { "North" } else { "South" };
    // The mover's first turn draws its hand of three and its card.
    let mine = hand(d, &mover);
    assert_eq!(mine.len(), 4, "{mine:?}");
    let positions: Vec<u64> = mine.iter().map(|c| c.0).collect();
    assert_eq!(positions, vec![0, 2, 4, 6]);
    assert!(hand(d, other).is_empty(), "nothing drawn yet");
    // Without a key, nothing of a hand is shown.
    let text = run(d, &["show", "g.pbem"]);
    assert_no_card_shown(&text);
    let record = std::fs::read_to_string(d.join("g.pbem")).unwrap();
    assert!(!record.contains("card="), "no card fact: {record}");
    // Without the mover's key, its actions cannot be listed.
    let legal = run(d, &["legal", "g.pbem"]);
    assert!(
        legal.contains(&format!("{mover}'s cards are hidden: give --key")),
        "{legal}"
    );
    // The mover discards its first card and shoots with an Archer.
    let card = &mine[0].1;
    let shot = if mover == "South" {
        "shoot d1 n"
    } else {
        "shoot d12 s"
    };
    run(
        d,
        &[
            "move",
            "g.pbem",
            "--key",
            key_of(&mover),
            &format!("discard {card}, {shot}"),
        ],
    );
    let after = hand(d, &mover);
    assert_eq!(after.len(), 3, "{after:?}");
    assert!(!after.iter().any(|c| c.0 == mine[0].0));
    let checked = run(d, &["check", "g.pbem"]);
    assert!(checked.contains("OK: Battlegates, 1 turn,"), "{checked}");
    // The record opened the discarded card and no other: the other side
    // now draws 1, 3, 5 and 7, which it alone sees.
    let theirs = hand(d, other);
    let positions: Vec<u64> = theirs.iter().map(|c| c.0).collect();
    assert_eq!(positions, vec![1, 3, 5, 7]);
    let text = run(d, &["show", "g.pbem"]);
    assert!(text.contains("discard pile: 1"), "{text}");
    assert!(
        text.contains(&format!("{mover}'s hand: 3 unseen")),
        "{text}"
    );
    assert_no_card_shown(&text);
    // A key file shows its own hand only.
    let out = herald(d)
        .args(["hand", "g.pbem", "--key", "south/missing.key"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn a_self_played_game_with_hidden_hands_checks_through_a_reshuffle() {
    let mut options = selfplay::Options::new::<Battlegates>(7, 2);
    options.tags = vec![("Hands".into(), "hidden".into())];
    options.signatures = true;
    options.max_turns = 40;
    let text = selfplay::record::<Battlegates>(&options).unwrap();
    assert!(
        text.contains("\n    commit shuffle-1\n"),
        "a reshuffle: {text}"
    );
    assert!(!text.contains("card="), "no card fact");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.pbem"), &text).unwrap();
    let checked = run(dir.path(), &["check", "g.pbem"]);
    assert!(checked.contains("OK: Battlegates"), "{checked}");
    // Without a key, no card of either hand is shown: every card the
    // record opened was played.
    let shown = run(dir.path(), &["show", "g.pbem"]);
    assert_no_card_shown(&shown);
}

/// `show`'s lines of the hands name no card: `none`, or a count of
/// unseen cards.
fn assert_no_card_shown(text: &str) {
    let hands: Vec<&str> = text.lines().filter(|l| l.contains("'s hand: ")).collect();
    assert_eq!(hands.len(), 2, "{text}");
    for line in hands {
        let rest = line.split("'s hand: ").nth(1).unwrap();
        let unseen = rest
            .strip_suffix(" unseen")
            .is_some_and(|n| n.parse::<u32>().is_ok());
        assert!(rest == "none" || unseen, "{line}");
    }
}

/// A self-played game of 40 turns with hidden hands, written to `d`
/// with both players' key files (`south.key`, `north.key`).
fn self_played(d: &std::path::Path, signatures: bool) -> String {
    let mut options = selfplay::Options::new::<Battlegates>(11, 2);
    options.tags = vec![("Hands".into(), "hidden".into())];
    options.signatures = signatures;
    options.max_turns = 40;
    let text = selfplay::record::<Battlegates>(&options).unwrap();
    std::fs::write(d.join("g.pbem"), &text).unwrap();
    let chain = herald::fairness::chain_id([
        ("Game", "battlegates"),
        ("South", "south@example.org"),
        ("North", "north@example.org"),
        ("Hands", "hidden"),
    ]);
    for (i, side) in ["South", "North"].into_iter().enumerate() {
        let secret = selfplay::secret(11, herald::game::Side(i as u8));
        let wallet = herald::wallet::Wallet::from_secret("battlegates", side, chain, secret);
        let key = d.join(format!("{}.key", side.to_lowercase()));
        std::fs::write(key, wallet.to_text()).unwrap();
    }
    text
}

#[test]
fn a_resignation_ends_the_game_and_the_closing_lines_audit_every_pass() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    self_played(d, true);
    let shown = json(d, &["show", "g.pbem", "--format", "json"]);
    let mover = shown["to_move"].as_str().unwrap().to_lowercase();
    let other = if mover == "south" { "north" } else { "south" };
    run(
        d,
        &["move", "g.pbem", "--key", &format!("{mover}.key"), "resign"],
    );
    for side in ["south", "north"] {
        run(
            d,
            &["move", "g.pbem", "--key", &format!("{side}.key"), "audit"],
        );
    }
    let record = std::fs::read_to_string(d.join("g.pbem")).unwrap();
    assert!(record.contains("\n    open shuffle-0 "), "{record}");
    assert!(record.contains("\n    open shuffle-1 "), "{record}");
    let checked = json(d, &["check", "g.pbem", "--format", "json"]);
    assert_eq!(checked["failed_audits"], serde_json::json!([]), "{checked}");
    let winner = if other == "south" { "South" } else { "North" };
    assert_eq!(checked["result"].as_str(), Some(winner), "{checked}");
}

/// `check`'s error on `text`.
fn check_error(d: &std::path::Path, text: &str) -> String {
    std::fs::write(d.join("t.pbem"), text).unwrap();
    let out = herald(d).args(["check", "t.pbem"]).output().unwrap();
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_share_whose_proof_fails_is_caught_naming_the_side_and_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played(d, false);
    // Turn 3's first share: the first digit of its proof changed.
    let at = text.find("\n3. ").unwrap();
    let share = at + text[at..].find("\n    share ").unwrap() + 1;
    let proof = share + text[share..].find('\n').unwrap() + 5;
    let digit = &text[proof..proof + 1];
    let flipped = if digit == "0" { "1" } else { "0" };
    let forged = format!("{}{flipped}{}", &text[..proof], &text[proof + 1..]);
    let writer = &text[at + 4..at + 4 + text[at + 4..].find(':').unwrap()];
    let err = check_error(d, &forged);
    assert!(err.contains("turn 3"), "{err}");
    assert!(
        err.contains(&format!("{writer}'s share for deck position "))
            && err.contains(&format!("does not verify against {writer}'s card key")),
        "{err}"
    );
}

#[test]
fn a_card_played_that_its_line_does_not_open_is_caught_naming_the_side() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played(d, false);
    // Turn 1's card action (after its die fact) becomes a discard of
    // another card than the one its share opens.
    let line = text.find("\n1. ").unwrap();
    let head = line + text[line..].find(": ").unwrap() + 2;
    let end = head + text[head..].find('\n').unwrap();
    let entries: Vec<&str> = text[head..end].split(", ").collect();
    let (k, action) = entries
        .iter()
        .enumerate()
        .find(|(_, e)| !e.contains('=') && !e.starts_with("run") && !e.starts_with("shoot"))
        .unwrap();
    let words: Vec<&str> = action.split_whitespace().collect();
    let card = if words[0] == "discard" {
        words[1]
    } else {
        words[0]
    };
    let other = if card == "scale" { "climb" } else { "scale" };
    let mut forged_entries = entries.clone();
    let discard = format!("discard {other}");
    forged_entries[k] = &discard;
    let forged = format!(
        "{}{}{}",
        &text[..head],
        forged_entries.join(", "),
        &text[end..]
    );
    let err = check_error(d, &forged);
    let side = &text[line + 4..line + 4 + text[line + 4..].find(':').unwrap()];
    assert!(
        err.contains(&format!(
            "turn 1 ({side}): discard {other}: the line plays {other} but opens {card}: deck \
             position "
        )) && err.contains(&format!(" holds {card}, not {other}")),
        "{err}"
    );
}
