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
    assert!(text.contains("South's hand: none"), "{text}");
    assert!(text.contains("North's hand: none"), "{text}");
    let record = std::fs::read_to_string(d.join("g.pbem")).unwrap();
    assert!(!record.contains("card="), "no card fact: {record}");
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
    assert!(shown.contains("South's hand: none"), "{shown}");
    assert!(shown.contains("North's hand: none"), "{shown}");
}
