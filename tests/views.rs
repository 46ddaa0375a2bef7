//! What each reader shows a player of a game with hidden values, through
//! the real binary: without a key only what everyone knows, with a key
//! the holder's own hidden values too (`show`, `replay`, `fate`), and the
//! closing line of openings written by `move` with nothing typed.

mod common;
use common::{herald, json, run, undated};

const BLUE_ARMY: &str = "RPSRPSRPSR";
const RED_ARMY: &str = "SPRSPRSPRP";

/// A new Playground Battles record `g.pbem` in `d` with both sides' key
/// files (`blue.key`, `red.key`); what `new` printed.
fn keyed_record(d: &std::path::Path) -> String {
    let made = run(
        d,
        &[
            "new",
            "--protocol",
            "2",
            "playground-battles",
            "--side",
            "Blue=a@x",
            "--side",
            "Red=b@x",
            "-o",
            "g.pbem",
        ],
    );
    // Undated: a forfeit below is claimed at once.
    undated(&d.join("g.pbem"));
    for side in ["Blue", "Red"] {
        let key = format!("{}.key", side.to_lowercase());
        run(d, &["keygen", "--side", side, "g.pbem", "-o", &key]);
    }
    made
}

/// A Playground Battles game with both keys, its set-up done (armies
/// above, throws Blue all Paper, Red all Rock: Blue moves first).
fn game() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    keyed_record(d);
    let blue = ["--army", BLUE_ARMY, "--throws", "PPPPPPPPPPPP"];
    let red = ["--army", RED_ARMY, "--throws", "RRRRRRRRRRRR"];
    run(
        d,
        &[&["setup", "g.pbem", "--key", "blue.key"][..], &blue].concat(),
    );
    run(
        d,
        &[&["setup", "g.pbem", "--key", "red.key"][..], &red].concat(),
    );
    run(d, &["setup", "g.pbem", "--key", "blue.key"]);
    run(d, &["setup", "g.pbem", "--key", "red.key"]);
    dir
}

#[test]
fn show_json_lists_pieces_with_identity_null_unless_the_viewer_knows_it() {
    let dir = game();
    let d = dir.path();
    let public = json(d, &["show", "g.pbem", "--format", "json"]);
    let pieces = public["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 20);
    assert!(pieces.iter().all(|p| p["identity"].is_null()));
    assert_eq!(pieces[0]["square"], "a1");
    assert_eq!(pieces[0]["slot"], "a1");
    let blue = json(
        d,
        &["show", "g.pbem", "--key", "blue.key", "--format", "json"],
    );
    let pieces = blue["pieces"].as_array().unwrap();
    // Blue's own ten in army order (a1 Rock, b1 Paper, c1 Scissors, ...),
    // none of them opened; Red's still unknown to Blue.
    let names = ["Rock", "Paper", "Scissors"];
    for (i, letter) in BLUE_ARMY.chars().enumerate() {
        let want = names["RPS".find(letter).unwrap()];
        assert_eq!(pieces[i]["identity"], want, "{}", pieces[i]);
        assert_eq!(pieces[i]["opened"], false);
    }
    assert!(pieces[10..].iter().all(|p| p["identity"].is_null()));
    assert_eq!(blue["position"], public["position"]);
}

#[test]
fn replay_with_a_key_draws_the_holders_own_pieces_and_without_none() {
    let dir = game();
    let d = dir.path();
    let public = run(d, &["replay", "g.pbem"]);
    assert!(public.contains("  1  B?    B?    B?"), "{public}");
    let red = run(d, &["replay", "g.pbem", "--key", "red.key"]);
    // Red's army S P R ... in lower case: known to Red only.
    assert!(red.contains("  8  Rs    Rp    Rr    Rs"), "{red}");
    assert!(red.contains("  1  B?    B?    B?"), "{red}");
}

#[test]
fn fate_with_the_movers_key_names_its_next_roll() {
    let dir = game();
    let d = dir.path();
    // Blue moves first; its roll is what legal --key names.
    let legal = json(
        d,
        &["legal", "g.pbem", "--key", "blue.key", "--format", "json"],
    );
    let roll = legal["chance"][0]["value"].as_str().unwrap().to_owned();
    let fate = json(
        d,
        &["fate", "g.pbem", "--key", "blue.key", "--format", "json"],
    );
    assert_eq!(fate["next"][0]["label"], "die");
    assert_eq!(fate["next"][0]["value"], roll.as_str());
    let text = run(d, &["fate", "g.pbem", "--key", "blue.key"]);
    assert!(text.contains(&format!("Next: Blue's next line (turn 1) gets die={roll}")));
    // Red's next roll depends on Blue's reveal, not written yet.
    let red = json(
        d,
        &["fate", "g.pbem", "--key", "red.key", "--format", "json"],
    );
    assert_eq!(red["next"], serde_json::json!([]));
    let public = json(d, &["fate", "g.pbem", "--format", "json"]);
    assert!(public.get("next").is_none());
}

/// The line that ends the game carries its writer's audit (nobody
/// answers their own mail), and the other side's `move` with nothing
/// typed writes its audit line.
#[test]
fn move_with_nothing_typed_on_an_ended_game_writes_the_audit_line() {
    let dir = game();
    let d = dir.path();
    let said = run(d, &["move", "g.pbem", "resign", "--key", "blue.key"]);
    assert!(said.contains("\n2. Blue: audit\n"), "{said}");
    // Every one of Blue's ten identities is opened on it, as chosen.
    for (slot, letter) in ["a1", "b1", "c1", "j1"].iter().zip(['R', 'P', 'S', 'R']) {
        assert!(said.contains(&format!("open {slot} {letter}\n")), "{said}");
    }
    let check = json(d, &["check", "g.pbem", "--format", "json"]);
    assert_eq!(check["phase"], "audit");
    assert_eq!(check["provisional"], "Red");
    assert_eq!(check["to_move"], "Red");
    let out = herald(d)
        .args(["move", "g.pbem", "--key", "red.key"])
        .write_stdin("")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(line.starts_with("3. Red: audit\n"), "{line}");
    let check = json(d, &["check", "g.pbem", "--format", "json"]);
    assert_eq!(
        (check["phase"].as_str(), check["result"].as_str()),
        (Some("over"), Some("Red"))
    );
}

#[test]
fn show_counts_turns_without_the_set_up_lines() {
    let dir = game();
    let d = dir.path();
    let shown = json(d, &["show", "g.pbem", "--format", "json"]);
    assert_eq!(shown["turn"], 0);
    let err = herald(d)
        .args(["show", "g.pbem", "--turn", "1"])
        .output()
        .unwrap();
    assert_eq!(err.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&err.stderr).contains("has 0 turns: there is no turn 1"));
}

#[test]
fn during_the_set_up_legal_and_move_name_the_set_up_step_due() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let made = keyed_record(d);
    assert!(made.contains("next: each player runs herald keygen, then herald setup"));
    let note =
        "the set-up is not finished: S1 is Blue's set-up step, its commitments (herald setup)";
    let legal = json(d, &["legal", "g.pbem", "--format", "json"]);
    assert_eq!(legal["note"], note);
    assert_eq!(legal["actions"], serde_json::json!([]));
    let before = std::fs::read(d.join("g.pbem")).unwrap();
    let out = herald(d)
        .args(["move", "g.pbem", "a1-a2", "--key", "blue.key"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(note));
    assert_eq!(std::fs::read(d.join("g.pbem")).unwrap(), before);
}

#[test]
fn after_a_claimed_forfeit_the_forfeiting_side_still_writes_its_audit() {
    let dir = game();
    let d = dir.path();
    // Blue, to move, stops answering: Red claims the forfeit.
    run(d, &["move", "g.pbem", "--forfeit", "--key", "red.key"]);
    let check = json(d, &["check", "g.pbem", "--format", "json"]);
    assert_eq!(check["phase"], "audit");
    assert_eq!(check["provisional"], "Red");
    // The forfeit line carries no reveal of Blue's: Blue's audit takes
    // the next link of its chain, and checks clean.
    run(d, &["move", "g.pbem", "audit", "--key", "blue.key"]);
    run(d, &["move", "g.pbem", "audit", "--key", "red.key"]);
    let check = json(d, &["check", "g.pbem", "--format", "json"]);
    assert_eq!(
        (check["phase"].as_str(), check["result"].as_str()),
        (Some("over"), Some("Red"))
    );
}
