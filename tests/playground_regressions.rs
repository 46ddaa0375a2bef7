//! Regressions found while writing the Playground Battles fixtures, each
//! on a record that showed it: a rescue on the rescuer's own back row
//! (the stalemate square is no empty square for the piece not kept), and
//! an army opened in full during play, audited all the same.

use std::path::Path;

use assert_cmd::Command;

fn copy(name: &str, to: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/playground");
    std::fs::copy(root.join(format!("{name}.pbem")), to.join("g.pbem")).unwrap();
    let key = root.join(format!("{name}.red.key"));
    if key.exists() {
        std::fs::copy(key, to.join("red.key")).unwrap();
    }
}

fn herald(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("herald").unwrap();
    c.current_dir(dir).env("NO_COLOR", "1");
    c
}

/// Red's back row: c8 is a stalemate of Rocks (Red's c8, Blue's a1),
/// d8, e8 and h8 hold Blue pieces, the other six Red ones. Red's Paper (f8) on e5 rolls 5 and rescues
/// on c8: every other back-row square is taken, so the piece not kept
/// must leave the game, and legal lists only `out` choices.
#[test]
fn a_rescue_on_its_own_back_row_with_the_rest_of_the_row_full_sends_the_other_out() {
    let dir = tempfile::tempdir().unwrap();
    copy("rescue-on-own-back-row", dir.path());
    let legal = herald(dir.path())
        .args(["legal", "g.pbem", "--key", "red.key"])
        .output()
        .unwrap();
    let legal = String::from_utf8(legal.stdout).unwrap();
    assert!(legal.contains("e5-e6-e7-d7-c7-c8 P>out"), "{legal}");
    herald(dir.path())
        .args([
            "move",
            "g.pbem",
            "e5-e6-e7-d7-c7-c8 P>out",
            "--key",
            "red.key",
        ])
        .assert()
        .success();
}

/// The same rescue choosing the stalemate square itself (c8) for the
/// piece not kept: c8 is where the kept piece stays, not an empty square.
#[test]
fn a_rescue_never_sends_the_other_piece_onto_the_rescued_square() {
    let dir = tempfile::tempdir().unwrap();
    copy("rescue-on-own-back-row", dir.path());
    herald(dir.path())
        .args([
            "move",
            "g.pbem",
            "e5-e6-e7-d7-c7-c8 R>c8",
            "--key",
            "red.key",
        ])
        .assert()
        .code(1);
}

/// Blue's army is RRRRRRRRPP (no Scissors), written with the library;
/// every Blue piece is opened in play (battles, stalemates, entries), the
/// game ends drawn on the board with nothing left to open, so no audit
/// line is due; the army is audited all the same (spec 3.7: a side whose
/// openings break the rules loses), and Red wins.
#[test]
fn an_army_opened_in_full_during_play_is_still_audited() {
    let dir = tempfile::tempdir().unwrap();
    copy("army-opened-in-play", dir.path());
    let out = herald(dir.path())
        .args(["check", "g.pbem", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"], "Red", "{v}");
    assert_eq!(v["failed_audits"][0]["side"], "Blue", "{v}");
    assert_eq!(
        v["failed_audits"][0]["reason"], "needs at least one Scissors",
        "{v}"
    );
}
