//! Tampering with a committed, sealed record is caught by `herald check`,
//! naming the turn and a reason (spec 3.1, 3.2, 3.8). Records are
//! made fresh with `herald new`, `keygen` and `move --key`, then altered
//! by hand, as a player who relays the record could.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn herald() -> Command {
    Command::cargo_bin("herald").unwrap()
}

mod common;
use common::{json as json_of, on_its_day, undated};

fn run(dir: &Path, args: &[&str]) {
    let mut cmd = herald();
    on_its_day(&mut cmd, args);
    cmd.current_dir(dir).args(args).assert().success();
}

/// A Castle Danger game of four turns with both sides committed.
fn committed_game(dir: &Path, blue: &str) -> PathBuf {
    run(
        dir,
        &[
            "new",
            "castle-danger",
            "--side",
            &format!("Blue={blue}"),
            "--side",
            "Red=bob@example.org",
            "-o",
            "game.pbem",
        ],
    );
    run(
        dir,
        &["keygen", "--side", "Blue", "game.pbem", "-o", "blue.key"],
    );
    run(
        dir,
        &["keygen", "--side", "Red", "game.pbem", "-o", "red.key"],
    );
    for (turn, key) in [
        ("+C, Kc1-b1", "blue.key"),
        ("Kc9-b9", "red.key"),
        ("Cd1-d2", "blue.key"),
        ("Kb9-a9", "red.key"),
    ] {
        run(dir, &["move", "game.pbem", turn, "--key", key]);
    }
    dir.join("game.pbem")
}

fn check(text: &str) -> Value {
    let out = herald()
        .args(["check", "--format", "json", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

fn reveal_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("reveal "))
        .map(|(i, _)| i)
        .collect()
}

fn assert_rejected(json: &Value, turn: u64, side: &str, fragment: &str) {
    assert_eq!(json["ok"], false, "{json}");
    assert_eq!(json["error"]["turn"], turn, "{json}");
    assert_eq!(json["error"]["side"], side, "{json}");
    let message = json["error"]["message"].as_str().unwrap();
    assert!(message.contains(fragment), "{message}");
}

#[test]
fn an_untouched_committed_game_checks_clean() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    assert_eq!(check(&text)["ok"], true);
}

#[test]
fn a_changed_reveal_is_rejected_at_its_turn() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let third = reveal_lines(&text)[2];
    let last = lines[third].pop().unwrap();
    lines[third].push(if last == '0' { '1' } else { '0' });
    assert_rejected(
        &check(&(lines.join("\n") + "\n")),
        3,
        "Blue",
        "does not hash to Blue's previous reveal",
    );
}

#[test]
fn a_reveal_from_the_other_players_chain_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let r = reveal_lines(&text);
    // Blue's turn 3 carries Red's turn-2 reveal.
    lines[r[2]] = lines[r[1]].clone();
    assert_rejected(
        &check(&(lines.join("\n") + "\n")),
        3,
        "Blue",
        "does not hash to Blue's previous reveal",
    );
}

#[test]
fn reveals_and_commitment_copied_from_another_game_are_rejected() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let game_a = std::fs::read_to_string(committed_game(a.path(), "ann@example.org")).unwrap();
    let game_b = std::fs::read_to_string(committed_game(b.path(), "ann@other.example")).unwrap();
    // Game B with game A's commitments and reveals (the same key in two
    // games): the chains are bound to their game, so B rejects them.
    let header_b: Vec<&str> = game_b.lines().take_while(|l| !l.is_empty()).collect();
    let mut forged = String::new();
    for line in &header_b {
        let copied = if line.contains("Commit") {
            game_a.lines().find(|l| l.starts_with(&line[..8])).unwrap()
        } else {
            line
        };
        forged.push_str(copied);
        forged.push('\n');
    }
    let log_a = game_a.split_once("\n\n").unwrap().1;
    forged.push('\n');
    forged.push_str(log_a);
    assert_rejected(
        &check(&forged),
        1,
        "Blue",
        "does not hash to Blue's commitment",
    );
}

#[test]
fn a_key_from_another_game_is_refused_by_move() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    committed_game(a.path(), "ann@example.org");
    committed_game(b.path(), "ann@other.example");
    let before = std::fs::read(b.path().join("game.pbem")).unwrap();
    herald()
        .current_dir(b.path())
        .args(["move", "game.pbem", "Cd2-d3", "--key"])
        .arg(a.path().join("blue.key"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("made for another game"));
    assert_eq!(std::fs::read(b.path().join("game.pbem")).unwrap(), before);
}

#[test]
fn reordered_turns_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    // Swap the bodies of turns 1 and 3 (both Blue's), keeping the numbers.
    let lines: Vec<&str> = text.lines().collect();
    let t1 = lines.iter().position(|l| l.starts_with("1. ")).unwrap();
    let t3 = lines.iter().position(|l| l.starts_with("3. ")).unwrap();
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out.swap(t1, t3);
    out.swap(t1 + 1, t3 + 1);
    out[t1] = out[t1].replacen("3. ", "1. ", 1);
    out[t3] = out[t3].replacen("1. ", "3. ", 1);
    let json = check(&(out.join("\n") + "\n"));
    assert_eq!(json["ok"], false);
    assert_eq!(json["error"]["turn"], 1, "{json}");
}

/// The header and the lines of a record, each line with its
/// continuation lines.
fn split_lines(text: &str) -> (String, Vec<String>) {
    let (header, log) = text.split_once("\n\n").unwrap();
    let mut lines: Vec<String> = Vec::new();
    for l in log.lines() {
        if l.starts_with(' ') {
            let last = lines.last_mut().unwrap();
            last.push_str(l);
            last.push('\n');
        } else {
            lines.push(format!("{l}\n"));
        }
    }
    (format!("{header}\n\n"), lines)
}

#[test]
fn a_removed_line_is_rejected_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let (header, mut lines) = split_lines(&text);
    lines.remove(1);
    assert_rejected(&check(&(header + &lines.concat())), 2, "Blue", "numbered 3");
}

#[test]
fn a_changed_action_with_its_reveal_kept_breaks_the_players_seal() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    // Turn 3 was Cd1-d2; Kb1-a1 is as legal, and the reveal is Blue's.
    let forged = text.replacen("3. Blue: Cd1-d2", "3. Blue: Kb1-a1", 1);
    assert_ne!(forged, text);
    assert_rejected(
        &check(&forged),
        3,
        "Blue",
        "Blue's signature does not match this line here",
    );
}

#[test]
fn two_dropped_lines_with_the_rest_renumbered_are_rejected_at_the_first_moved() {
    let dir = tempfile::tempdir().unwrap();
    let path = committed_game(dir.path(), "ann@example.org");
    run(
        dir.path(),
        &["move", "game.pbem", "Cd2-d3", "--key", "blue.key"],
    );
    let text = std::fs::read_to_string(path).unwrap();
    // Drop Blue's turn 3 and Red's turn 4; turn 5 (Blue's) becomes 3: its
    // reveal still follows Blue's chain, but not its seal.
    let (header, lines) = split_lines(&text);
    let renumbered = lines[4].replacen("5. Blue", "3. Blue", 1);
    let forged = header + &lines[0] + &lines[1] + &renumbered;
    let json = check(&forged);
    assert_eq!(json["error"]["turn"], 3, "{json}");
    assert!(json["error"]["message"]
        .as_str()
        .unwrap()
        .contains("does not hash"));
}

#[test]
fn two_swapped_lines_are_rejected_at_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let (header, mut lines) = split_lines(&text);
    lines.swap(2, 3);
    let json = check(&(header + &lines.concat()));
    assert_eq!(json["ok"], false, "{json}");
    assert_eq!(json["error"]["turn"], 3, "{json}");
}

#[test]
fn a_line_from_another_game_is_rejected_at_its_place() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let game_a = std::fs::read_to_string(committed_game(a.path(), "ann@example.org")).unwrap();
    let game_b = std::fs::read_to_string(committed_game(b.path(), "ann@example.org")).unwrap();
    let (header, mut lines) = split_lines(&game_a);
    lines[2] = split_lines(&game_b).1[2].clone();
    assert_rejected(
        &check(&(header + &lines.concat())),
        3,
        "Blue",
        "does not hash to Blue's previous reveal",
    );
}

/// Under `[Protocol "2"]` (what `herald new` writes) a side's hash chain
/// is bound to its signing key (spec 3.1): a Key tag replaced by another
/// breaks that side's first reveal, whatever signatures the lines carry
/// (the reveal is checked before the seal, and only the chain's owner can
/// make reveals for a commitment).
#[test]
fn a_key_tag_swapped_in_the_header_breaks_the_sides_first_reveal() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let red_key = text.lines().find(|l| l.starts_with("[RedKey ")).unwrap();
    let blue_key = text.lines().find(|l| l.starts_with("[BlueKey ")).unwrap();
    let forged = text.replacen(blue_key, &red_key.replacen("Red", "Blue", 1), 1);
    assert_rejected(
        &check(&forged),
        1,
        "Blue",
        "this reveal does not hash to Blue's commitment",
    );
    assert_rejected(&check(&forged), 1, "Blue", "bound to its BlueKey tag too");
}

/// The swap attack with a key of the forger's own: a fresh Blue key made
/// by `keygen` on a copy of the header, put in Blue's Key tag. `check`
/// fails at Blue's first reveal, and so does Blue's own `move --key`,
/// which writes nothing.
#[test]
fn a_key_swapped_for_the_forgers_own_is_caught_by_check_and_by_its_owner() {
    let dir = tempfile::tempdir().unwrap();
    let path = committed_game(dir.path(), "ann@example.org");
    let text = std::fs::read_to_string(&path).unwrap();
    // The forger's key: keygen on the header without Blue's tags.
    let scratch = dir.path().join("scratch");
    std::fs::create_dir(&scratch).unwrap();
    let header: String = text
        .lines()
        .take_while(|l| l.starts_with('['))
        .filter(|l| !l.starts_with("[Blue") || l.starts_with("[Blue \""))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(scratch.join("game.pbem"), header).unwrap();
    run(
        &scratch,
        &["keygen", "--side", "Blue", "game.pbem", "-o", "forger.key"],
    );
    let forged_header = std::fs::read_to_string(scratch.join("game.pbem")).unwrap();
    let forger_key = forged_header
        .lines()
        .find(|l| l.starts_with("[BlueKey "))
        .unwrap();
    let blue_key = text.lines().find(|l| l.starts_with("[BlueKey ")).unwrap();
    assert_ne!(forger_key, blue_key);
    let forged = text.replacen(blue_key, forger_key, 1);
    assert_rejected(
        &check(&forged),
        1,
        "Blue",
        "this reveal does not hash to Blue's commitment",
    );
    std::fs::write(&path, &forged).unwrap();
    herald()
        .current_dir(dir.path())
        .args(["move", "game.pbem", "Cd2-d3", "--key", "blue.key"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "this reveal does not hash to Blue's commitment",
        ));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), forged);
}

/// A new Castle Danger game in `dir` with both keys added and no line
/// yet: `game.pbem`, `blue.key`, `red.key`.
fn keyed_before_turn_one(dir: &Path) -> PathBuf {
    run(
        dir,
        &[
            "new",
            "castle-danger",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "-o",
            "game.pbem",
        ],
    );
    for side in ["Blue", "Red"] {
        let key = format!("{}.key", side.to_lowercase());
        run(dir, &["keygen", "--side", side, "game.pbem", "-o", &key]);
    }
    dir.join("game.pbem")
}

/// Blue's `move game.pbem Kc1-b1 --key blue.key` on `game` (in `dir`), holding
/// `forged`, is refused with exit `code`, saying `why`, and leaves it as it was.
fn blues_move_refused(dir: &Path, game: &Path, forged: &str, why: &str, code: i32) {
    herald()
        .current_dir(dir)
        .args(["move", "game.pbem", "Kc1-b1", "--key", "blue.key"])
        .assert()
        .code(code)
        .stderr(predicates::str::contains(why));
    assert_eq!(std::fs::read_to_string(game).unwrap(), forged);
}

/// Before its first line a side's swapped key breaks nothing yet in the
/// record; its owner's `move --key` compares the tag with the key file.
#[test]
fn a_key_swapped_before_its_sides_first_line_is_refused_by_its_owner() {
    let dir = tempfile::tempdir().unwrap();
    let game = keyed_before_turn_one(dir.path());
    let text = std::fs::read_to_string(&game).unwrap();
    let red_key = text.lines().find(|l| l.starts_with("[RedKey ")).unwrap();
    let blue_key = text.lines().find(|l| l.starts_with("[BlueKey ")).unwrap();
    let forged = text.replacen(blue_key, &red_key.replacen("Red", "Blue", 1), 1);
    std::fs::write(&game, &forged).unwrap();
    blues_move_refused(
        dir.path(),
        &game,
        &forged,
        // A game's reason (this copy is not the player's game): exit 1.
        "this copy's BlueKey tag is not your key: another key was written for Blue",
        1,
    );
}

/// The strip attack: every Key tag and every `sig` item deleted, so that
/// earlier lines could be altered without a seal to break. Under
/// `[Protocol "2"]` a Commit tag without its Key is a changed header.
#[test]
fn a_record_stripped_of_its_keys_and_signatures_is_refused_at_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let stripped: String = text
        .lines()
        .filter(|l| !l.contains("Key \"") && !l.trim_start().starts_with("sig "))
        .filter(|l| !l.trim_start().chars().all(|c| c.is_ascii_hexdigit()) || l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(!stripped.contains("sig "), "{stripped}");
    // An earlier line altered, as the strip allows.
    let altered = stripped.replacen("2. Red: Kc9-b9", "2. Red: Kc9-c8", 1);
    let json = check(&altered);
    assert_eq!(json["ok"], false, "{json}");
    let message = json["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("BlueCommit has no BlueKey beside it"),
        "{message}"
    );
    assert_eq!(json["error"]["turn"], Value::Null, "{json}");
}

/// Stripped whole (Commit and Key tags, reveals and signatures), a record
/// reads as a game played without keys: nothing in it is sealed. The
/// players it wrongs find out at once: a key file remembers its player's
/// last line (section 3.8), and one made for the game refuses a
/// protocol-2 copy without its side's tags even before that.
#[test]
fn a_record_stripped_whole_is_refused_by_its_players_keys() {
    let dir = tempfile::tempdir().unwrap();
    let path = committed_game(dir.path(), "ann@example.org");
    let text = std::fs::read_to_string(&path).unwrap();
    let (header, lines) = split_lines(&text);
    let header: String = header
        .lines()
        .filter(|l| !l.contains("Commit \"") && !l.contains("Key \""))
        .map(|l| format!("{l}\n"))
        .collect();
    // Each line's actions and its date (a Deadline game dates every line).
    let plain: String = lines
        .iter()
        .flat_map(|l| {
            l.lines()
                .enumerate()
                .filter(|(i, p)| *i == 0 || p.trim_start().starts_with("date "))
                .map(|(_, p)| format!("{p}\n"))
        })
        .collect();
    let stripped = format!("{header}{plain}");
    assert_eq!(check(&stripped)["ok"], true, "{stripped}");
    std::fs::write(&path, &stripped).unwrap();
    herald()
        .current_dir(dir.path())
        .args(["move", "game.pbem", "Cd2-d3", "--key", "blue.key"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "your turn 3 was changed since you sent it",
        ));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), stripped);
    // Stripped further, of every tag the game's id is made of and of the
    // dates, it is another game to the key file: told so, exit 1, and not
    // to drop --key.
    let bare: String = stripped
        .lines()
        .filter(|l| {
            !["[Protocol ", "[Deadline ", "[Nonce "]
                .iter()
                .any(|t| l.starts_with(t))
                && !l.trim_start().starts_with("date ")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(check(&bare)["ok"], true, "{bare}");
    std::fs::write(&path, &bare).unwrap();
    let out = herald()
        .current_dir(dir.path())
        .args(["move", "game.pbem", "Cd2-d3", "--key", "blue.key"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "this key file has played Blue in a game whose header this record does not have"
        ),
        "{err}"
    );
    assert!(!err.contains("drop --key"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bare);
    // Before any line, the key file alone tells.
    let fresh = dir.path().join("fresh");
    std::fs::create_dir(&fresh).unwrap();
    let game = keyed_before_turn_one(&fresh);
    let header = std::fs::read_to_string(&game).unwrap();
    let stripped: String = header
        .lines()
        .filter(|l| !l.starts_with("[BlueCommit ") && !l.starts_with("[BlueKey "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&game, &stripped).unwrap();
    blues_move_refused(
        &fresh,
        &game,
        &stripped,
        "this copy holds no BlueCommit or BlueKey tag, yet blue.key was made for Blue in this very game, whose protocol binds every side's key: the copy was stripped of Blue's keys",
        1,
    );
}

#[test]
fn a_forfeit_without_the_claimants_signature_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let forged = text.clone() + "5. Blue: forfeit claimed by Red\n";
    assert_rejected(
        &check(&forged),
        5,
        "Blue",
        "Red has a RedKey tag, so every Red line carries Red's signature",
    );
    // Red's real signature from another line does not fit this one.
    let (_, lines) = split_lines(&text);
    let red_sig = &lines[3][lines[3].find("    sig ").unwrap()..];
    let forged = text + "5. Blue: forfeit claimed by Red\n" + red_sig;
    assert_rejected(
        &check(&forged),
        5,
        "Blue",
        "Red's signature does not match this line here",
    );
}

#[test]
fn a_bare_resign_written_for_a_committed_side_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    assert_rejected(
        &check(&(text + "5. Blue: resign\n")),
        5,
        "Blue",
        "every Blue line carries a reveal, a resignation too",
    );
}

#[test]
fn an_old_game_passed_off_as_its_rematch_is_rejected() {
    // The same players and tags; `new` gives the rematch a fresh nonce.
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let old = std::fs::read_to_string(committed_game(a.path(), "ann@example.org")).unwrap();
    let rematch = std::fs::read_to_string(committed_game(b.path(), "ann@example.org")).unwrap();
    let nonce = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("[Nonce "))
            .unwrap()
            .to_owned()
    };
    assert_ne!(nonce(&old), nonce(&rematch));
    // The old keys, commitments and lines under the rematch's nonce.
    let forged = old.replacen(&nonce(&old), &nonce(&rematch), 1);
    assert_rejected(
        &check(&forged),
        1,
        "Blue",
        "does not hash to Blue's commitment",
    );
    // And the old key file is refused in the rematch.
    herald()
        .current_dir(b.path())
        .args(["move", "game.pbem", "Cd2-d3", "--key"])
        .arg(a.path().join("blue.key"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("made for another game"));
}

#[test]
fn a_header_changed_after_the_commitments_breaks_every_reveal() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let edited = text.replace("[Red \"bob@example.org\"]", "[Red \"mallory@example.org\"]");
    assert_rejected(
        &check(&edited),
        1,
        "Blue",
        "does not hash to Blue's commitment",
    );
}

/// A Battle of the Dale self-play record with at least one settled rally.
fn game_with_a_rally() -> String {
    type G = herald::games::battle_of_the_dale::BattleOfTheDale;
    (0..200u64)
        .map(|seed| {
            let options = herald::selfplay::Options::new::<G>(seed, 3);
            herald::selfplay::record::<G>(&options).unwrap()
        })
        .find(|text| text.contains("rally=heads") || text.contains("rally=tails"))
        .expect("some self-play game has a rally")
}

#[test]
fn a_settled_value_edited_by_hand_is_rejected() {
    let text = game_with_a_rally();
    assert_eq!(check(&text)["ok"], true);
    let line = text
        .lines()
        .find(|l| l.contains("rally=heads") || l.contains("rally=tails"))
        .unwrap();
    let turn: u64 = line.split('.').next().unwrap().parse().unwrap();
    let edited_line = if line.contains("rally=heads") {
        line.replacen("rally=heads", "rally=tails", 1)
    } else {
        line.replacen("rally=tails", "rally=heads", 1)
    };
    let json = check(&text.replacen(line, &edited_line, 1));
    assert_eq!(json["error"]["kind"], "record", "{json}");
    assert_eq!(json["error"]["turn"], turn, "{json}");
    assert!(json["error"]["message"]
        .as_str()
        .unwrap()
        .contains("the commitments give rally="));
}

#[test]
fn a_rally_declared_without_commitments_is_rejected_at_its_own_turn() {
    let text = game_with_a_rally();
    let line = text.lines().find(|l| l.contains("rally=")).unwrap();
    // The rally was declared on the line before the one that settled it.
    let turn: u64 = line.split('.').next().unwrap().parse::<u64>().unwrap() - 1;
    // Strip every commitment, reveal and fact, keeping the moves.
    let stripped: String = text
        .lines()
        .filter(|l| !l.contains("Commit \"") && !l.trim_start().starts_with("reveal "))
        .map(|l| {
            let l = l.replace("rally=heads, ", "").replace("rally=tails, ", "");
            let l = l
                .replace(": rally=heads", ": pass")
                .replace(": rally=tails", ": pass");
            l + "\n"
        })
        .collect();
    let json = check(&stripped);
    assert_eq!(json["ok"], false, "{json}");
    assert_eq!(json["error"]["turn"], turn, "{json}");
    assert!(json["error"]["message"]
        .as_str()
        .unwrap()
        .contains("no commitments: rally needs them"));
}

/// Run herald in `dir`, returning its JSON output.
fn json_in(dir: &Path, args: &[&str]) -> Value {
    let out = herald().current_dir(dir).args(args).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Copy the record from one player's directory to another's.
fn mail(from: &Path, to: &Path) {
    std::fs::copy(from.join("game.pbem"), to.join("game.pbem")).unwrap();
}

/// Three players of Battle of the Dale, each with a directory, key and
/// copy: the record before any turn, in every directory.
fn three_player_relay() -> [tempfile::TempDir; 3] {
    let dirs = [(); 3].map(|_| tempfile::tempdir().unwrap());
    run(
        dirs[0].path(),
        &[
            "new",
            "battle-of-the-dale",
            "--side",
            "Human=ann@x",
            "--side",
            "Elf=eve@x",
            "--side",
            "Goblin=gus@x",
            "-o",
            "game.pbem",
        ],
    );
    // An undated game: the fork below claims a forfeit at once.
    undated(&dirs[0].path().join("game.pbem"));
    for (i, side) in ["Human", "Elf", "Goblin"].iter().enumerate() {
        if i > 0 {
            mail(dirs[i - 1].path(), dirs[i].path());
        }
        run(
            dirs[i].path(),
            &["keygen", "--side", side, "game.pbem", "-o", "my.key"],
        );
    }
    mail(dirs[2].path(), dirs[0].path());
    mail(dirs[2].path(), dirs[1].path());
    dirs
}

/// The legal actions of the side to move in `dir`'s copy.
fn legal_actions(dir: &Path) -> Vec<String> {
    json_in(dir, &["legal", "game.pbem", "--format", "json"])["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap().to_owned())
        .collect()
}

/// Human sends turn 1 to Elf, who alters it (keeping Human's reveal and
/// seal) and relays it to Goblin after writing turn 2 on the true copy:
/// Goblin's `check` refuses the record at turn 1, naming Human's seal,
/// and so does Human's own `move` when the altered copy comes back.
#[test]
fn a_line_altered_by_the_player_who_relays_it_is_refused_downstream_and_by_its_author() {
    let [human, elf, goblin] = three_player_relay();
    let actions = legal_actions(human.path());
    run(
        human.path(),
        &["move", "game.pbem", &actions[0], "--key", "my.key"],
    );
    mail(human.path(), elf.path());
    let elf_turn = legal_actions(elf.path());
    run(
        elf.path(),
        &["move", "game.pbem", &elf_turn[0], "--key", "my.key"],
    );
    let true_copy = std::fs::read_to_string(elf.path().join("game.pbem")).unwrap();
    let forged = true_copy.replacen(
        &format!("1. Human: {}", actions[0]),
        &format!("1. Human: {}", actions[1]),
        1,
    );
    assert_ne!(forged, true_copy);
    std::fs::write(goblin.path().join("game.pbem"), &forged).unwrap();
    let json = json_in(goblin.path(), &["check", "--format", "json", "game.pbem"]);
    assert_rejected(
        &json,
        1,
        "Human",
        "Human's signature does not match this line here",
    );
    std::fs::write(human.path().join("game.pbem"), &forged).unwrap();
    herald()
        .current_dir(human.path())
        .args(["move", "game.pbem", &actions[0], "--key", "my.key"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "Human's signature does not match",
        ));
    assert_eq!(
        std::fs::read_to_string(human.path().join("game.pbem")).unwrap(),
        forged
    );
}

/// Elf, relaying Human's turn 1, forks the game instead: on the copy
/// from before that turn it claims Human's forfeit (validly signed, by
/// Elf) and plays on. Goblin cannot tell, and its `check` passes; but
/// Human's key file remembers the turn Human sent, so Human's own `move`
/// refuses the fork at once, naming the turn.
#[test]
fn a_validly_signed_fork_is_refused_by_the_move_of_the_player_it_wrongs() {
    let [human, elf, goblin] = three_player_relay();
    let actions = legal_actions(human.path());
    run(
        human.path(),
        &["move", "game.pbem", &actions[0], "--key", "my.key"],
    );
    // Elf's copy is still the one from before turn 1.
    run(
        elf.path(),
        &["move", "game.pbem", "--forfeit", "--key", "my.key"],
    );
    let elf_turn = legal_actions(elf.path());
    run(
        elf.path(),
        &["move", "game.pbem", &elf_turn[0], "--key", "my.key"],
    );
    mail(elf.path(), goblin.path());
    let json = json_in(goblin.path(), &["check", "--format", "json", "game.pbem"]);
    assert_eq!(json["ok"], true, "{json}");
    assert_eq!(json["forfeits"][0]["claimed_by"], "Elf");
    mail(elf.path(), human.path());
    let before = std::fs::read(human.path().join("game.pbem")).unwrap();
    herald()
        .current_dir(human.path())
        .args(["move", "game.pbem", "pass", "--key", "my.key"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "your turn 1 was changed since you sent it",
        ));
    assert_eq!(
        std::fs::read(human.path().join("game.pbem")).unwrap(),
        before
    );
}

// ---------------------------------------------------------------- nothing lost

/// A Castle Danger record without keys, after `new` in `dir`.
fn plain_game(dir: &Path) -> PathBuf {
    run(
        dir,
        &[
            "new",
            "castle-danger",
            "--side",
            "Blue=a@x",
            "--side",
            "Red=b@x",
            "-o",
            "game.pbem",
        ],
    );
    dir.join("game.pbem")
}

/// Two `move`s started at once on one record, twenty times over: each
/// pair writes one turn, the other is refused (as stale, or as not its
/// turn any more), and no turn that was reported written is lost.
#[test]
fn concurrent_moves_on_one_record_lose_no_turn() {
    let dir = tempfile::tempdir().unwrap();
    let path = plain_game(dir.path());
    let moves = [["Kc1-b1", "Kc9-b9"], ["Kb1-c1", "Kb9-c9"]];
    let mut written = 0;
    for pair in 0..20 {
        let turn = written;
        let action = moves[(turn / 2) % 2][turn % 2];
        let spawn = || {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("herald"))
                .current_dir(dir.path())
                .args(["move", "game.pbem", action])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (spawn(), spawn());
        let outcomes = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
        let won = outcomes.iter().filter(|o| o.status.success()).count();
        assert_eq!(won, 1, "pair {pair}: exactly one move is written");
        let lost = outcomes.iter().find(|o| !o.status.success()).unwrap();
        let why = String::from_utf8_lossy(&lost.stderr);
        assert_eq!(lost.status.code(), Some(1), "{why}");
        assert!(
            why.contains("changed while herald was writing it")
                || why.contains("no Red King")
                || why.contains("no Blue King"),
            "pair {pair}: {why}"
        );
        written += won;
    }
    let json = check(&std::fs::read_to_string(path).unwrap());
    assert_eq!(json["ok"], true, "{json}");
    assert_eq!(json["turns"], written as u64);
}

#[test]
fn annotate_never_overwrites_a_key_file() {
    let dir = tempfile::tempdir().unwrap();
    committed_game(dir.path(), "ann@example.org");
    let key = std::fs::read(dir.path().join("blue.key")).unwrap();
    herald()
        .current_dir(dir.path())
        .args(["annotate", "game.pbem", "-o", "blue.key"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("blue.key exists already"));
    assert_eq!(std::fs::read(dir.path().join("blue.key")).unwrap(), key);
}

#[test]
fn no_writer_makes_a_file_named_dash() {
    let dir = tempfile::tempdir().unwrap();
    plain_game(dir.path());
    herald()
        .current_dir(dir.path())
        .args(["keygen", "--side", "Blue", "game.pbem", "-o", "-"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("never writes a file named `-`"));
    // For annotate, `-o -` is standard output.
    herald()
        .current_dir(dir.path())
        .args(["annotate", "game.pbem", "-o", "-"])
        .assert()
        .success()
        .stdout(predicates::str::contains("[Game \"castle-danger\"]"));
    // So it is for the other readers that write a file: extract, replay.
    herald()
        .current_dir(dir.path())
        .args(["extract", "game.pbem", "-o", "-"])
        .assert()
        .success()
        .stdout(predicates::str::starts_with("[Game \"castle-danger\"]"));
    herald()
        .current_dir(dir.path())
        .args(["replay", "game.pbem", "--html", "-o", "-"])
        .assert()
        .success()
        .stdout(predicates::str::contains("<html"));
    assert!(!dir.path().join("-").exists());
}

#[test]
#[cfg(unix)]
fn move_never_writes_through_a_symbolic_link() {
    let dir = tempfile::tempdir().unwrap();
    let path = plain_game(dir.path());
    let before = std::fs::read(&path).unwrap();
    std::os::unix::fs::symlink(&path, dir.path().join("link.pbem")).unwrap();
    herald()
        .current_dir(dir.path())
        .args(["move", "link.pbem", "Kc1-b1"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("is a symbolic link"));
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
#[cfg(unix)]
fn move_keeps_a_hard_linked_record_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = plain_game(dir.path());
    let other = dir.path().join("also.pbem");
    std::fs::hard_link(&path, &other).unwrap();
    run(dir.path(), &["move", "game.pbem", "Kc1-b1"]);
    let text = std::fs::read_to_string(&other).unwrap();
    assert!(text.contains("\n1. Blue: Kc1-b1\n"), "{text}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

/// Commitments can never be added after the first line: with one side
/// committed and the other not, `move` refuses turn 1 and says why,
/// unless `--no-commit` says the players mean it (spec 3.1; protocol 2).
#[test]
fn an_uneven_first_line_is_refused_unless_no_commit() {
    let dir = tempfile::tempdir().unwrap();
    run(
        dir.path(),
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
            "game.pbem",
        ],
    );
    run(
        dir.path(),
        &["keygen", "--side", "Blue", "game.pbem", "-o", "blue.key"],
    );
    let before = std::fs::read(dir.path().join("game.pbem")).unwrap();
    herald()
        .current_dir(dir.path())
        .args(["move", "game.pbem", "Kc1-b1", "--key", "blue.key"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "Blue has a BlueCommit tag and Red has none",
        ))
        .stderr(predicates::str::contains("--no-commit"));
    assert_eq!(std::fs::read(dir.path().join("game.pbem")).unwrap(), before);
    run(
        dir.path(),
        &[
            "move",
            "game.pbem",
            "Kc1-b1",
            "--key",
            "blue.key",
            "--no-commit",
        ],
    );
    run(dir.path(), &["move", "game.pbem", "Kc9-b9"]);
}

/// Signatures are verified all at once at the end of a replay; the line
/// named is still the first whose seal breaks, even when a later line is
/// illegal, and a seal is checked before the line's actions are played.
#[test]
fn the_first_broken_seal_is_named_before_any_later_problem() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    let forged = text.replacen("2. Red: Kc9-b9", "2. Red: Kc9-c8", 1) + "5. Blue: Kz1-z2\n";
    assert_rejected(
        &check(&forged),
        2,
        "Red",
        "Red's signature does not match this line here",
    );
    let illegal = text.replacen("3. Blue: Cd1-d2", "3. Blue: Cd1-d9", 1);
    assert_rejected(
        &check(&illegal),
        3,
        "Blue",
        "Blue's signature does not match this line here",
    );
}

/// Protocol 3 leaves the Commit and Key tags out of the game id, so that
/// a side's key may join late; a side's tags stripped with its reveals and
/// signatures would then break no seal of the other side's where that
/// side wrote last. So once any side has a key, a line of a side without
/// one is refused, at the stripped side's first line.
#[test]
fn a_line_of_a_side_without_a_key_is_refused_once_another_side_has_one() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(committed_game(dir.path(), "ann@example.org")).unwrap();
    assert!(text.contains("[Protocol \"3\"]"), "{text}");
    let (header, lines) = split_lines(&text);
    let header: String = header
        .lines()
        .filter(|l| !l.starts_with("[RedCommit ") && !l.starts_with("[RedKey "))
        .map(|l| format!("{l}\n"))
        .collect();
    // Red's lines without their proofs, the last one altered.
    let lines: Vec<String> = lines
        .into_iter()
        .map(|l| {
            if l.contains(". Red: ") {
                l.lines().next().unwrap().to_owned()
            } else {
                l
            }
        })
        .collect();
    let forged =
        format!("{header}\n{}\n", lines.join("\n")).replacen("4. Red: Kb9-a9", "4. Red: Kb9-b8", 1);
    assert_rejected(
        &check(&forged),
        2,
        "Red",
        "Red has no Key tag, and Blue has one: under [Protocol \"3\"] every line is signed",
    );
}

/// Under protocol 3 a game is signed by every side or by none: a first
/// line with one side keyed and the other not is refused even with
/// `--no-commit`, since the other side's first line could never be
/// written (it would be refused for signing nothing while Blue signs).
#[test]
fn an_uneven_first_line_is_refused_under_protocol_3_even_with_no_commit() {
    let dir = tempfile::tempdir().unwrap();
    plain_game(dir.path());
    run(
        dir.path(),
        &["keygen", "--side", "Blue", "game.pbem", "-o", "blue.key"],
    );
    let before = std::fs::read(dir.path().join("game.pbem")).unwrap();
    herald()
        .current_dir(dir.path())
        .args([
            "move",
            "game.pbem",
            "Kc1-b1",
            "--key",
            "blue.key",
            "--no-commit",
        ])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "turn 1 cannot be written yet: Blue has a BlueCommit tag and Red has none: under [Protocol \"3\"] a game is signed by every side or by none",
        ));
    assert_eq!(std::fs::read(dir.path().join("game.pbem")).unwrap(), before);
}

/// Two `move --key --reply` of the same turn started at once on one
/// record, by the player due (a double click), twenty times over: the
/// record gains that one line, never two; a run that succeeds wrote a
/// message carrying exactly that line (the second, if any, writes the
/// same line again, as for a lost reply: spec 3.8), and a run that is
/// refused leaves no message behind.
#[test]
fn concurrent_replies_on_one_record_add_one_line_and_leave_no_stray_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = committed_game(dir.path(), "ann@example.org");
    let moves = [
        ("Kb1-c1", "blue.key"),
        ("Ka9-b9", "red.key"),
        ("Kc1-b1", "blue.key"),
        ("Kb9-a9", "red.key"),
    ];
    for pair in 0..20 {
        let (action, key) = moves[pair % 4];
        let spawn = |out: &str| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("herald"))
                .current_dir(dir.path())
                .args([
                    "move",
                    "game.pbem",
                    action,
                    "--key",
                    key,
                    "--reply",
                    "-o",
                    out,
                ])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let outs = [format!("{pair}-a.eml"), format!("{pair}-b.eml")];
        let (a, b) = (spawn(&outs[0]), spawn(&outs[1]));
        let outcomes = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
        let record = std::fs::read_to_string(&path).unwrap();
        let json = check(&record);
        assert_eq!(json["ok"], true, "pair {pair}: {json}");
        assert_eq!(
            json["turns"],
            5 + pair as u64,
            "pair {pair}: one line added"
        );
        let line = record
            .lines()
            .find(|l| l.starts_with(&format!("{}. ", 5 + pair)))
            .unwrap();
        assert!(line.contains(action), "{line}");
        assert!(outcomes.iter().any(|o| o.status.success()), "pair {pair}");
        for (out, outcome) in outs.iter().zip(&outcomes) {
            let why = String::from_utf8_lossy(&outcome.stderr);
            assert!(!why.contains("panicked"), "pair {pair}: {why}");
            let message = dir.path().join(out);
            if outcome.status.success() {
                let text = std::fs::read_to_string(&message).unwrap();
                assert!(text.contains(line.trim()), "pair {pair}: {text}");
            } else {
                assert!(!message.exists(), "pair {pair}: {out} left behind: {why}");
            }
        }
    }
}

/// Human's key file remembers turn 1, so Human's `move` does not verify
/// the signatures up to it again (spec section 3.8); Elf's turn 2, after
/// it, is verified as always: altered with Elf's seal kept, it is
/// refused, naming Elf's signature, and nothing is written.
#[test]
fn a_bad_signature_after_the_remembered_line_is_still_caught_by_move() {
    let [human, elf, _goblin] = three_player_relay();
    let actions = legal_actions(human.path());
    run(
        human.path(),
        &["move", "game.pbem", &actions[0], "--key", "my.key"],
    );
    mail(human.path(), elf.path());
    let elf_turn = legal_actions(elf.path());
    run(
        elf.path(),
        &["move", "game.pbem", &elf_turn[0], "--key", "my.key"],
    );
    let true_copy = std::fs::read_to_string(elf.path().join("game.pbem")).unwrap();
    let forged = true_copy.replacen(
        &format!("2. Elf: {}", elf_turn[0]),
        &format!("2. Elf: {}", elf_turn[1]),
        1,
    );
    assert_ne!(forged, true_copy);
    std::fs::write(human.path().join("game.pbem"), &forged).unwrap();
    for args in [
        &[
            "move",
            "game.pbem",
            "--dry-run",
            &actions[0],
            "--key",
            "my.key",
        ][..],
        &["legal", "game.pbem", "--key", "my.key"][..],
    ] {
        herald()
            .current_dir(human.path())
            .args(args)
            .assert()
            .code(1)
            .stderr(predicates::str::contains(
                "Elf's signature does not match this line here",
            ));
    }
    assert_eq!(
        std::fs::read_to_string(human.path().join("game.pbem")).unwrap(),
        forged
    );
}

/// Two different answers to one message, made at once with the same key
/// file (two terminals, a mail client's macro run twice): never both are
/// written, or the game would fork with two signed turns. The key file
/// is rewritten only if no other answer changed it since it was read; the
/// run refused leaves no message behind, and the key file remembers the
/// answer that went out.
#[test]
fn two_different_answers_to_one_message_at_once_are_never_both_written() {
    let dir = tempfile::tempdir().unwrap();
    committed_game(dir.path(), "ann@example.org");
    run(
        dir.path(),
        &[
            "move",
            "game.pbem",
            "Kb1-c1",
            "--key",
            "blue.key",
            "--reply",
            "-o",
            "m.eml",
        ],
    );
    let legal = json_of(
        dir.path(),
        &["legal", "m.eml", "--key", "red.key", "--format", "json"],
    );
    let actions: Vec<&str> = legal["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["action"].as_str())
        .take(2)
        .collect();
    assert_eq!(actions.len(), 2, "{legal}");
    let key = dir.path().join("red.key");
    let fresh = std::fs::read(&key).unwrap();
    for pair in 0..12 {
        std::fs::write(&key, &fresh).unwrap();
        let spawn = |action: &str, out: &str| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("herald"))
                .current_dir(dir.path())
                .args([
                    "move", "m.eml", action, "--key", "red.key", "--reply", "-o", out,
                ])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let outs = [format!("{pair}-a.eml"), format!("{pair}-b.eml")];
        let (a, b) = (spawn(actions[0], &outs[0]), spawn(actions[1], &outs[1]));
        let outcomes = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
        let ok: Vec<bool> = outcomes.iter().map(|o| o.status.success()).collect();
        assert!(ok.contains(&true), "pair {pair}: {outcomes:?}");
        assert!(
            ok.contains(&false),
            "pair {pair}: both answers were written"
        );
        let remembered = std::fs::read_to_string(&key).unwrap();
        for ((out, outcome), action) in outs.iter().zip(&outcomes).zip(&actions) {
            let why = String::from_utf8_lossy(&outcome.stderr);
            assert!(!why.contains("panicked"), "pair {pair}: {why}");
            let message = dir.path().join(out);
            if outcome.status.success() {
                assert!(
                    remembered.contains(&format!("sent-line: 6. Red: {action}")),
                    "pair {pair}: {remembered}"
                );
                assert!(remembered.contains(&format!("sent-reply: {out}")));
            } else {
                assert!(!message.exists(), "pair {pair}: {out} left behind: {why}");
                // Refused as the game refuses a second answer (exit 1),
                // said once: the key file changed meanwhile, or this
                // message was answered already.
                assert_eq!(outcome.status.code(), Some(1), "pair {pair}: {why}");
                assert!(
                    why.contains("red.key changed while herald was writing it (another herald command at the same time?): nothing was written; run your command again")
                        || why.contains("you already answered this turn"),
                    "pair {pair}: {why}"
                );
                assert_eq!(why.matches("nothing was written").count(), 1, "{why}");
            }
        }
    }
}

/// Blue answers late, and Red, past the deadline, claims Blue's forfeit
/// on the same record at the same time: the two messages cross. Neither
/// sticks the game, and Blue cannot answer twice. Red, given Blue's
/// answer, plays on from it (its claim never stood). Blue, given Red's
/// claim, writes nothing new: another turn after the claim is refused (it
/// would fork the game, and let Red pick the branch), and the same turn
/// with --reply writes Blue's first message again, the claim left out.
/// Each is told that the messages crossed.
#[test]
fn a_late_answer_and_a_claim_that_cross_in_the_mail_stick_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let game = committed_game(d, "ann@example.org");
    std::fs::copy(&game, d.join("blue.pbem")).unwrap();
    std::fs::copy(&game, d.join("red.pbem")).unwrap();
    let late = "2099-01-01";
    run(
        d,
        &[
            "move",
            "blue.pbem",
            "Kb1-c1",
            "--key",
            "blue.key",
            "--date",
            late,
            "--reply",
            "-o",
            "answer.eml",
        ],
    );
    run(
        d,
        &[
            "move",
            "red.pbem",
            "--forfeit",
            "--key",
            "red.key",
            "--date",
            late,
            "--reply",
            "-o",
            "claim.eml",
        ],
    );
    let claim = std::fs::read_to_string(d.join("claim.eml")).unwrap();
    assert!(claim.contains("5. Blue: forfeit claimed by Red"), "{claim}");
    let answer_cmd = |message: &str, turn: &str, key: &str, out: &str| {
        herald()
            .current_dir(d)
            .env("HERALD_TODAY", late)
            .args([
                "move", message, turn, "--key", key, "--date", late, "--reply", "-o", out,
            ])
            .assert()
    };
    // `move MESSAGE TURN --key KEY --date LATE --reply -o OUT`, which
    // must succeed: what it noted, and `check` of what it wrote.
    let answer = |message: &str, turn: &str, key: &str, out: &str| {
        let done = answer_cmd(message, turn, key, out).success();
        let said = String::from_utf8_lossy(&done.get_output().stderr).into_owned();
        (said, check(&std::fs::read_to_string(d.join(out)).unwrap()))
    };
    // Red receives Blue's answer and plays on from it.
    let (said, red6) = answer("answer.eml", "Ka9-b9", "red.key", "red6.eml");
    assert!(
        said.contains("your forfeit claim on turn 5 crossed its target's own line in the mail"),
        "{said}"
    );
    assert_eq!(red6["ok"], true, "{red6}");
    assert_eq!(red6["turns"], 6, "{red6}");
    assert_eq!(red6["forfeits"], serde_json::json!([]), "{red6}");
    // Blue receives Red's claim; its key file says where it stands.
    let standing = herald()
        .current_dir(d)
        .env("HERALD_TODAY", late)
        .args(["check", "claim.eml", "--key", "blue.key"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&standing.stdout).replace("\n  ", " ");
    assert!(
        said.contains("Your key file (Blue, blue.key): your turn 5 (in answer.eml) crossed Red's claim of your forfeit in the mail: it answers the record the claim was written on, so the claim never stood: send that answer, not another"),
        "{said}"
    );
    // Another turn is a second answer.
    let refused = answer_cmd("claim.eml", "Kb1-d1", "blue.key", "fork.eml").code(1);
    let why = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(
        why.contains("your turn 5 (`5. Blue: Kb1-c1`) crossed Red's claim of your forfeit in the mail")
            && why.contains("`Kb1-d1` is another answer, and a second answer would fork the game")
            && why.contains("resend answer.eml, or write that message again with herald move claim.eml \"Kb1-c1\" --key blue.key --reply -o NEW.eml"),
        "{why}"
    );
    assert!(!d.join("fork.eml").exists());
    // The same turn, as the refusal says: Blue's first message again.
    let (said, again) = answer("claim.eml", "Kb1-c1", "blue.key", "again.eml");
    assert!(
        said.contains("your turn 5 crossed Red's claim of your forfeit in the mail: it answers the record the claim was written on, so the claim never stood"),
        "{said}"
    );
    assert_eq!(again["ok"], true, "{again}");
    assert_eq!(again["turns"], 5, "{again}");
    assert_eq!(again["result"], "*", "{again}");
    assert_eq!(again["to_move"], "Red", "{again}");
    let record = |message: &str| {
        let out = herald()
            .current_dir(d)
            .args(["extract", message])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let first = record("answer.eml");
    assert!(first.contains("\n5. Blue: Kb1-c1\n"), "{first}");
    assert!(!first.contains("forfeit claimed"), "{first}");
    assert_eq!(record("again.eml"), first);
    // The game goes on on one branch: Blue answers Red's turn 6.
    let (_, blue7) = answer("red6.eml", "Kc1-d1", "blue.key", "blue7.eml");
    assert_eq!(blue7["ok"], true, "{blue7}");
    assert_eq!(blue7["turns"], 7, "{blue7}");
    assert_eq!(blue7["to_move"], "Red", "{blue7}");
}
