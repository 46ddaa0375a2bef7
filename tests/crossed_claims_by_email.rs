//! A late answer and a forfeit claim that cross in the mail, by email
//! (issue 28, spec section 3.8): Blue and Red of Castle Danger, each in
//! their own directory with their own key file, by `.eml` messages (and a
//! record file a player keeps). Blue answers turn 3 late while Red claims
//! Blue's forfeit on the same message.

mod common;
use common::{castle_danger_claimed, dated_answer, fails, herald, json, mail, run, Players};

use std::path::Path;

/// Turns 1 and 2 are played on this day; the late answer and the claim
/// come 15 days on, past the default Deadline of 14.
const PLAY_DAY: &str = "2026-11-01";
const LATE_DAY: &str = "2026-11-16";

/// `move MESSAGE TURN --key my.key --date DAY --reply -o OUT` in `dir`,
/// which must succeed.
fn answer(dir: &Path, message: &str, turn: &str, day: &str, out: &str) -> String {
    dated_answer(dir, message, &[turn], day, out)
}

/// Castle Danger by email to Blue's late turn 3 and Red's claim of it,
/// written on the same message (`c4.eml`) at once: Blue's answer in
/// `answer.eml` (turn 3, `Cd1-d2`), Red's claim in `claim.eml`, each
/// still in its writer's directory.
fn crossed() -> Players {
    let players = castle_danger_claimed(2, PLAY_DAY, LATE_DAY, "claim.eml");
    let blue = &players.blue;
    // Blue's key file as it was before the late answer, for a test that
    // restores it.
    std::fs::copy(blue.join("my.key"), blue.join("before-answer.key")).unwrap();
    answer(blue, "c4.eml", "Cd1-d2", LATE_DAY, "answer.eml");
    players
}

/// The record a message (or file) at `path` holds, as `extract` gives it.
fn extracted(dir: &Path, path: &str) -> String {
    let out = herald(dir).args(["extract", path]).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Blue keeps one record file: it takes Red's claim into `game.pbem`
/// and answers it with the turn it already sent. The file then holds
/// that answer in place of the claim (as `move --reply` writes the
/// message again), the same record Blue's answer carried; another turn
/// is refused as a fork and leaves the file as it was. Red, given the
/// file, plays on from it.
#[test]
fn a_record_file_holding_a_claim_that_crossed_the_players_answer_ends_up_holding_the_answer() {
    let p = crossed();
    mail(&p.red, &p.blue, "claim.eml");
    run(&p.blue, &["extract", "claim.eml", "-o", "game.pbem"]);
    let claim = std::fs::read_to_string(p.blue.join("game.pbem")).unwrap();
    assert!(claim.contains("3. Blue: forfeit claimed by Red"), "{claim}");
    // Another turn is a second answer to turn 3.
    let key = std::fs::read(p.blue.join("my.key")).unwrap();
    let why = fails(
        &p.blue,
        &[
            "move",
            "game.pbem",
            "Cd1-d3",
            "--key",
            "my.key",
            "--date",
            LATE_DAY,
        ],
        1,
    );
    assert!(
        why.contains("you already answered this turn: your turn 3 (`3. Blue: Cd1-d2`) crossed Red's claim of your forfeit in the mail")
            && why.contains("`Cd1-d3` is another answer, and a second answer would fork the game"),
        "{why}"
    );
    assert_eq!(
        std::fs::read_to_string(p.blue.join("game.pbem")).unwrap(),
        claim
    );
    assert_eq!(std::fs::read(p.blue.join("my.key")).unwrap(), key);
    // The same turn: the file holds it in place of the claim.
    let out = herald(&p.blue)
        .env("HERALD_TODAY", LATE_DAY)
        .args([
            "move",
            "game.pbem",
            "Cd1-d2",
            "--key",
            "my.key",
            "--date",
            LATE_DAY,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("your turn 3 crossed Red's claim of your forfeit in the mail: it answers the record the claim was written on, so the claim never stood; game.pbem now holds it in place of the claim"),
        "{said}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("wrote turn 3 to game.pbem in place of the claim it crossed"),
        "{out:?}"
    );
    let file = std::fs::read_to_string(p.blue.join("game.pbem")).unwrap();
    assert!(!file.contains("forfeit claimed"), "{file}");
    assert_eq!(file, extracted(&p.blue, "answer.eml"));
    let status = json(&p.blue, &["check", "game.pbem", "--format", "json"]);
    assert_eq!(status["ok"], true, "{status}");
    assert_eq!(status["turns"], 3, "{status}");
    assert_eq!(status["result"], "*", "{status}");
    assert_eq!(status["to_move"], "Red", "{status}");
    assert_eq!(status["forfeits"], serde_json::json!([]), "{status}");
    // Red, given the file, plays on from Blue's answer.
    mail(&p.blue, &p.red, "game.pbem");
    run(
        &p.red,
        &[
            "move",
            "game.pbem",
            "Kb9-a9",
            "--key",
            "my.key",
            "--date",
            LATE_DAY,
        ],
    );
    let status = json(&p.red, &["check", "game.pbem", "--format", "json"]);
    assert_eq!(status["turns"], 4, "{status}");
    assert_eq!(status["to_move"], "Blue", "{status}");
}

/// Blue answers turn 3 late; Red's claim of it crosses that answer.
/// Red checks Blue's answer with its key file, which remembers it. Blue
/// then restores its key file from before the answer and answers Red's
/// claim with another turn: two lines of Blue that answer one record, a
/// fork. Red's `check --key` and `move --key` refuse it, naming Blue and
/// both lines; Red goes on from the answer it checked.
#[test]
fn a_second_answer_written_with_a_restored_key_file_after_a_crossing_claim_is_refused_as_a_fork() {
    let p = crossed();
    mail(&p.blue, &p.red, "answer.eml");
    let said = run(&p.red, &["check", "answer.eml", "--key", "my.key"]);
    assert!(said.contains("answer.eml: OK"), "{said}");
    // Blue, given the claim, with its old key file.
    mail(&p.red, &p.blue, "claim.eml");
    std::fs::copy(p.blue.join("before-answer.key"), p.blue.join("my.key")).unwrap();
    answer(&p.blue, "claim.eml", "Cd1-d3", LATE_DAY, "fork.eml");
    mail(&p.blue, &p.red, "fork.eml");
    // Read without a key, the fork is a game like any other.
    run(&p.red, &["check", "fork.eml"]);
    let key = std::fs::read(p.red.join("my.key")).unwrap();
    let checked = fails(&p.red, &["check", "fork.eml", "--key", "my.key"], 1);
    let moved = fails(
        &p.red,
        &[
            "move", "fork.eml", "Kb9-a9", "--key", "my.key", "--date", LATE_DAY, "--reply", "-o",
            "r4.eml",
        ],
        1,
    );
    for err in [&checked, &moved] {
        let err = err.replace("\n  ", " ");
        assert!(
            err.contains("this record is a fork: Blue wrote two lines that answer the same record, `3. Blue: Cd1-d2` in the record your key file checked and `4. Blue: Cd1-d3` here, after `3. Blue: forfeit claimed by Red`, which it voids"),
            "{err}"
        );
        assert!(err.contains("do not accept this copy"), "{err}");
    }
    assert!(!p.red.join("r4.eml").exists());
    assert_eq!(std::fs::read(p.red.join("my.key")).unwrap(), key);
    // Red goes on from the answer it checked.
    answer(&p.red, "answer.eml", "Kb9-a9", LATE_DAY, "r4.eml");
    let status = json(&p.red, &["check", "r4.eml", "--format", "json"]);
    assert_eq!(status["turns"], 4, "{status}");
    assert_eq!(status["to_move"], "Blue", "{status}");
}
