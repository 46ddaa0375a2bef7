//! Battlegates with hidden hands (spec section 3.9) through the real
//! binary: two players, each with its key file in its own directory,
//! set up the maze and the shared deck with `setup --key`, see their own
//! hands with `herald hand`, and play with `move --key`; `check` replays
//! it all. A self-played game goes on through a reshuffle and, once it
//! ends, through the audit of every pass. Games with a cheat in them
//! (self-played with a line altered, the game played on over it) are
//! caught by `check`, naming the side and the turn or line.

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
            "--protocol",
            "2",
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

/// The standard error of a herald run that must fail.
fn refusal(d: &std::path::Path, args: &[&str]) -> String {
    let out = herald(d).args(args).output().unwrap();
    assert!(!out.status.success(), "{args:?} was not refused");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_hand_key_is_refused_for_a_side_that_holds_its_own_hand() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_up(d);
    let shown = json(d, &["show", "g.pbem", "--format", "json"]);
    let mover = shown["to_move"].as_str().unwrap().to_owned();
    let other = if mover == "South" { "North" } else { "South" };
    let reason = format!(
        "{mover} holds its own hand, drawn and shown with its own key file: drop --hand-key"
    );
    let with_hand_key = |command: &str, extra: &[&str]| {
        let mut args = vec![command, "g.pbem"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--key", key_of(&mover), "--hand-key", key_of(other)]);
        refusal(d, &args)
    };
    for (command, extra) in [
        ("move", &["pass"][..]),
        ("hand", &[][..]),
        ("legal", &[][..]),
        ("show", &[][..]),
    ] {
        let err = with_hand_key(command, extra);
        assert!(err.contains(&reason), "{command}: {err}");
    }
    // Nothing was written.
    let checked = run(d, &["check", "g.pbem"]);
    assert!(checked.contains("OK: Battlegates, 0 turns,"), "{checked}");
    // A hand key names the hand of the side --key names: without --key
    // it is refused before anything is read.
    let err = refusal(d, &["hand", "g.pbem", "--hand-key", key_of(other)]);
    assert!(err.contains("--key"), "{err}");
}

#[test]
fn a_hand_key_is_refused_in_a_game_of_open_hands() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
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
    run(d, &["keygen", "--side", "South", "g.pbem", "-o", "s.key"]);
    run(d, &["keygen", "--side", "North", "g.pbem", "-o", "n.key"]);
    let err = refusal(
        d,
        &[
            "setup",
            "g.pbem",
            "--key",
            "s.key",
            "--hand-key",
            "n.key",
            "--maze",
            SOUTH_MAZE,
        ],
    );
    assert!(
        err.contains("Battlegates deals no hidden cards, so there is no hand key: drop --hand-key"),
        "{err}"
    );
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
    self_played_altered(d, signatures, None)
}

/// [`self_played`], its lines altered by `alter` as they are played
/// (a cheat: the lines after are composed on the game it left).
fn self_played_altered(
    d: &std::path::Path,
    signatures: bool,
    alter: Option<selfplay::Alter>,
) -> String {
    self_played_turns(d, 40, signatures, alter)
}

/// A self-played game of `turns` turns with hidden hands (seed 11),
/// signed or not, altered by `alter`, written to `d` with both players'
/// key files (`south.key`, `north.key`).
fn self_played_turns(
    d: &std::path::Path,
    turns: u32,
    signatures: bool,
    alter: Option<selfplay::Alter>,
) -> String {
    let mut options = selfplay::Options::new::<Battlegates>(11, 2);
    options.tags = vec![("Hands".into(), "hidden".into())];
    options.signatures = signatures;
    options.max_turns = turns;
    options.alter = alter;
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
    // The resignation carries its writer's audit; the other side audits
    // on the record it receives.
    let resigned = run(
        d,
        &["move", "g.pbem", "--key", &format!("{mover}.key"), "resign"],
    );
    let mover_name = shown["to_move"].as_str().unwrap();
    assert!(
        resigned.contains(&format!("{mover_name}'s audit")),
        "{resigned}"
    );
    let record = std::fs::read_to_string(d.join("g.pbem")).unwrap();
    assert!(
        record.contains(&format!(". {mover_name}: audit\n")),
        "{record}"
    );
    run(
        d,
        &["move", "g.pbem", "--key", &format!("{other}.key"), "audit"],
    );
    let record = std::fs::read_to_string(d.join("g.pbem")).unwrap();
    assert!(record.contains("\n    open shuffle-0\n"), "{record}");
    assert!(record.contains("\n    open shuffle-1\n"), "{record}");
    let checked = json(d, &["check", "g.pbem", "--format", "json"]);
    assert_eq!(checked["failed_audits"], serde_json::json!([]), "{checked}");
    let winner = if other == "south" { "South" } else { "North" };
    assert_eq!(checked["result"].as_str(), Some(winner), "{checked}");
}

/// `check`'s error on `text`: the record is refused (exit code 1).
fn check_error(d: &std::path::Path, text: &str) -> String {
    std::fs::write(d.join("t.pbem"), text).unwrap();
    let out = herald(d).args(["check", "t.pbem"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `line` with the card at deck position `to` replaced by the card at
/// `from` (a `deck` item: the word, then 128 digits over two lines).
fn copy_deck_item(line: &str, from: u32, to: u32) -> Option<String> {
    let digits = |p: u32| -> Option<(usize, usize)> {
        let head = format!("\n    deck {p} ");
        let at = line.find(&head)? + head.len();
        let end = at + line[at..].find('\n')? + 1;
        let end = end + line[end..].find('\n')?;
        Some((at, end))
    };
    let (a, b) = digits(from)?;
    let (c, d) = digits(to)?;
    Some(format!("{}{}{}", &line[..c], &line[a..b], &line[d..]))
}

/// North's pass over the first deck (S4) with position 4's card at
/// position 5 as well: a card duplicated, another dropped.
fn duplicate_on_s4(line: &str) -> Option<String> {
    line.starts_with("S4. North:")
        .then(|| copy_deck_item(line, 4, 5))
        .flatten()
}

/// Whether [`drop_on_reshuffle`] has cheated yet (one test uses it).
static DROPPED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The first pass over the reshuffled deck with its second card dropped
/// for a copy of its first (the second pass over it is honest).
fn drop_on_reshuffle(line: &str) -> Option<String> {
    let at = line.find("\n    commit shuffle-1\n")?;
    if DROPPED.swap(true, std::sync::atomic::Ordering::SeqCst) {
        return None;
    }
    let first: u32 = line[at..]
        .split("\n    deck ")
        .nth(1)?
        .split(' ')
        .next()?
        .parse()
        .ok()?;
    copy_deck_item(line, first, first + 1)
}

/// The game in `d` resigned by the side to move if it is not over, then
/// audited by both: `check`'s output and exit code.
fn resigned_and_audited(d: &std::path::Path) -> (String, Option<i32>) {
    loop {
        let shown = json(d, &["check", "g.pbem", "--format", "json"]);
        let what = match shown["phase"].as_str() {
            Some("play") => "resign",
            Some("audit") => "audit",
            _ => break,
        };
        let side = shown["to_move"].as_str().unwrap().to_lowercase();
        run(
            d,
            &["move", "g.pbem", "--key", &format!("{side}.key"), what],
        );
    }
    let out = herald(d).args(["check", "g.pbem"]).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (text, out.status.code())
}

#[test]
fn a_pass_that_duplicates_a_card_fails_its_makers_audit_naming_the_side_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    self_played_altered(d, false, Some(duplicate_on_s4));
    let (out, code) = resigned_and_audited(d);
    // The record is a game whose cheat lost: valid (exit 0), the audit
    // naming the side, the deck and the line of the pass.
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("North failed the audit: "), "{out}");
    let checked = json(d, &["check", "g.pbem", "--format", "json"]);
    assert_eq!(
        checked["failed_audits"],
        serde_json::json!([{
            "side": "North",
            "reason": "North's pass over deck 0 (line S4): deck position 5 holds a card that \
                       the seed does not put there and that is no card of the deck before the \
                       pass"
        }]),
        "{checked}"
    );
    assert_eq!(checked["result"].as_str(), Some("South"), "{checked}");
}

#[test]
fn a_reshuffle_pass_that_drops_a_card_fails_its_makers_audit_naming_the_side_and_turn() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played_altered(d, false, Some(drop_on_reshuffle));
    // The cheat is the writer of the first pass over deck 1, on a turn.
    let at = text.find("\n    commit shuffle-1\n").expect("a reshuffle");
    let head = text[..at]
        .lines()
        .rev()
        .find(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .unwrap();
    let (turn, rest) = head.split_once(". ").unwrap();
    let cheat = rest.split(':').next().unwrap();
    let honest = if cheat == "South" { "North" } else { "South" };
    let (out, code) = resigned_and_audited(d);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains(&format!("{cheat} failed the audit: ")),
        "{out}"
    );
    let checked = json(d, &["check", "g.pbem", "--format", "json"]);
    let failed = checked["failed_audits"].as_array().unwrap();
    assert_eq!(failed.len(), 1, "{checked}");
    assert_eq!(failed[0]["side"].as_str(), Some(cheat));
    let reason = failed[0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with(&format!(
            "{cheat}'s pass over deck 1 (turn {turn}): deck position "
        )),
        "{reason}"
    );
    let checked = json(d, &["check", "g.pbem", "--format", "json"]);
    assert_eq!(checked["result"].as_str(), Some(honest), "{checked}");
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

#[test]
fn an_unsigned_game_is_resigned_and_audited_by_the_players_key_files() {
    // Without Key tags the key file still remembers each line it wrote
    // by the record's digest: the digest must be that of the written
    // line, deck items and all, for the player's next line to be taken.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    self_played(d, false);
    let (out, code) = resigned_and_audited(d);
    assert_eq!(code, Some(0), "{out}");
    let checked = json(d, &["check", "g.pbem", "--format", "json"]);
    assert_eq!(checked["phase"].as_str(), Some("over"), "{checked}");
    assert_eq!(checked["failed_audits"], serde_json::json!([]), "{checked}");
}

#[test]
fn a_card_played_without_its_opening_is_caught_naming_the_side_and_turn() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played(d, false);
    // Turn 1's mover drew positions 0, 2, 4 and 6: the share of one of
    // them opens the card it plays. Take that share out.
    let line = text.find("\n1. ").unwrap();
    let end = line + 1 + text[line + 1..].find("\n2. ").unwrap();
    let turn = &text[line..end];
    let (at, p) = [0, 2, 4, 6]
        .into_iter()
        .find_map(|p| turn.find(&format!("\n    share {p} ")).map(|at| (at, p)))
        .unwrap_or_else(|| panic!("{turn}"));
    let mut close = at + 1 + turn[at + 1..].find('\n').unwrap();
    while let Some(next) = turn[close + 1..].find('\n') {
        let body = turn[close + 1..close + 1 + next].trim_start();
        if body.len() != 64 || !body.bytes().all(|b| b.is_ascii_hexdigit()) {
            break;
        }
        close += 1 + next;
    }
    let forged = format!("{}{}{}", &text[..line + at], &turn[close..], &text[end..]);
    let side = &text[line + 4..line + 4 + text[line + 4..].find(':').unwrap()];
    let err = check_error(d, &forged);
    assert!(
        err.contains(&format!("turn 1 ({side}): "))
            && err.contains(
                "but opens no card for it: a card of a hidden hand is played with the share that \
             opens it (herald move --key adds it)"
            ),
        "position {p}: {err}"
    );
}

/// The mover of the set-up game, its key file and the cards its key file
/// shows in its hand.
fn mover_and_hand(d: &std::path::Path) -> (String, &'static str, Vec<String>) {
    let side = json(d, &["check", "g.pbem", "--format", "json"])["to_move"]
        .as_str()
        .unwrap()
        .to_string();
    let key = key_of(&side);
    let hand = json(d, &["hand", "g.pbem", "--key", key, "--format", "json"]);
    let cards = hand["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["card"].as_str().unwrap().to_string())
        .collect();
    (side, key, cards)
}

#[test]
fn an_illegal_card_play_with_hidden_hands_is_refused_for_its_own_fault() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_up(d);
    let before = std::fs::read(d.join("g.pbem")).unwrap();
    let (side, key, cards) = mover_and_hand(d);
    let refusal = |action: &str| {
        let out = herald(d)
            .args(["move", "g.pbem", action, "--key", key])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{action}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // A card the hand does not hold, played or discarded: the hand is
    // named, as with open hands, not "opens no card for it".
    let words = [
        "scale",
        "climb",
        "move-wall",
        "move-gate",
        "rotate90",
        "rotate180",
    ];
    let missing = words.iter().find(|w| !cards.iter().any(|c| c == *w));
    // Four cards of six kinds: at least two kinds are missing.
    let card = missing.expect("a kind of card the hand does not hold");
    let err = refusal(&format!("discard {card}"));
    let named = format!("{side} holds no {card} card (its hand: ");
    let listed = err.split(&named).nth(1).and_then(|r| r.split(')').next());
    let mut listed: Vec<&str> = listed.expect(&err).split(", ").collect();
    let mut held: Vec<&str> = cards.iter().map(String::as_str).collect();
    listed.sort_unstable();
    held.sort_unstable();
    assert_eq!(listed, held, "{err}");
    // A card it holds, played on a piece that is not there: the action's
    // own fault (no maze holds a5n or a6n).
    for (card, action, reason) in [
        (
            "move-wall",
            "move-wall Wa5n Wa6n",
            "the Brick wall Wa5n is not on the board",
        ),
        (
            "move-gate",
            "move-gate Ga5nw Ga6nw",
            "the Gate Ga5nw is not on the board",
        ),
        (
            "rotate90",
            "rotate90 Ga5nw cw",
            "the Gate Ga5nw is not on the board",
        ),
        (
            "rotate180",
            "rotate180 Ga5nw cw",
            "the Gate Ga5nw is not on the board",
        ),
    ] {
        if cards.iter().any(|c| c == card) {
            let err = refusal(action);
            assert!(err.contains(reason), "{action}: {err}");
            assert!(!err.contains("opens no card"), "{action}: {err}");
        }
    }
    assert_eq!(std::fs::read(d.join("g.pbem")).unwrap(), before);
}

/// The record `text`'s digest before and after its turn `turn`, and the
/// side that wrote it: what the writer's key file remembers once it sent
/// that turn (spec section 3.8).
fn sent_at(text: &str, turn: u32) -> (String, herald::wallet::Sent) {
    let source = herald::record::Source::new(text.as_bytes()).unwrap();
    let parsed = herald::record::parse(&source).unwrap();
    let mut before = None;
    let mut sent = None;
    let keep = herald::referee::Keep::ALL;
    let _ = herald::referee::replay_keeping::<Battlegates>(&parsed, keep, |played, referee| {
        let after = *referee.digest().unwrap();
        if played.kind == herald::record::LineKind::Turn && played.number == turn {
            let name = played.side.name::<Battlegates>().to_owned();
            sent = Some((
                name,
                herald::wallet::Sent {
                    kind: played.kind,
                    number: turn,
                    digest: after,
                    after: before,
                    ended: None,
                    text: None,
                    reply: None,
                },
            ));
        }
        before = Some(after);
    });
    sent.expect("the record holds the turn")
}

/// The key file of the writer of turn `turn` of `text` in `d`, as it
/// stands once that turn was sent; its name.
fn remember_turn(d: &std::path::Path, text: &str, turn: u32) -> String {
    let (side, sent) = sent_at(text, turn);
    let key = format!("{}.key", side.to_lowercase());
    let wallet = std::fs::read_to_string(d.join(&key)).unwrap();
    let mut wallet = herald::wallet::Wallet::parse(&wallet).unwrap();
    wallet.set_sent(sent);
    std::fs::write(d.join(&key), wallet.to_text()).unwrap();
    key
}

/// `text` with the first digit of the proof of the first share of turn
/// `turn` changed, and the side that wrote the turn.
fn share_proof_altered(text: &str, turn: u32) -> (String, String) {
    let at = text.find(&format!("\n{turn}. ")).unwrap();
    let share = at + text[at..].find("\n    share ").unwrap() + 1;
    // The item's words (after its indent): `share`, the position, `D`,
    // then the proof (a line of its own, as `D` is once the position is
    // long).
    let proof = share
        + text[share..]
            .char_indices()
            .filter(|&(i, c)| {
                !c.is_whitespace() && text[share..][..i].ends_with(char::is_whitespace)
            })
            .nth(3)
            .unwrap()
            .0;
    let digit = &text[proof..proof + 1];
    let flipped = if digit == "0" { "1" } else { "0" };
    let forged = format!("{}{flipped}{}", &text[..proof], &text[proof + 1..]);
    let start = at + 2 + turn.to_string().len() + 1;
    let writer = text[start..start + text[start..].find(':').unwrap()].to_owned();
    (forged, writer)
}

/// A record read whole is replayed with the shares of a window (256
/// checks, shares alone in this unsigned game) in a few large batches
/// (here the last window's, some 140 shares, in one), and `check` reads
/// it a part at a time, its shares in batches of 14: either way, of two
/// shares whose proofs fail deep in a long game, the first is named, at
/// its line, with the same reason.
#[test]
fn a_share_whose_proof_fails_in_a_large_batch_is_named_as_in_a_small_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played_long(d, 200, None);
    let (forged, writer) = share_proof_altered(&text, 150);
    let (forged, _) = share_proof_altered(&forged, 170);
    let source = herald::record::Source::new(forged.as_bytes()).unwrap();
    let record = herald::record::parse(&source).unwrap();
    let e = herald::referee::replay::<Battlegates>(&record, |_, _| {})
        .map(|_| ())
        .unwrap_err();
    assert_eq!(e.turn, Some(150), "{e:?}");
    assert!(
        e.message
            .starts_with(&format!("{writer}'s share for deck position "))
            && e.message
                .ends_with(&format!("does not verify against {writer}'s card key")),
        "{}",
        e.message
    );
    let err = check_error(d, &forged);
    assert!(err.contains("turn 150"), "{err}");
    assert!(err.contains(&e.message), "{err}");
}

/// `herald ARGS` in `d` refuses the record (exit 1); its error.
fn refused_by(d: &std::path::Path, args: &[&str]) -> String {
    let out = herald(d).args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A key file that remembers turn 2 spares `move --key` and `legal --key`
/// the share proofs up to it (spec section 3.8), not those after: a
/// share of turn 3 whose proof fails is still caught, naming its side,
/// and `move` writes nothing.
#[test]
fn a_share_after_the_remembered_line_whose_proof_fails_is_still_caught() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played(d, false);
    let key = remember_turn(d, &text, 2);
    let (forged, writer) = share_proof_altered(&text, 3);
    std::fs::write(d.join("g.pbem"), &forged).unwrap();
    for args in [
        &["move", "g.pbem", "resign", "--key", &key, "--dry-run"][..],
        &["legal", "g.pbem", "--key", &key][..],
    ] {
        let err = refused_by(d, args);
        assert!(err.contains("turn 3"), "{err}");
        assert!(
            err.contains(&format!("{writer}'s share for deck position "))
                && err.contains(&format!("does not verify against {writer}'s card key")),
            "{err}"
        );
    }
    assert_eq!(std::fs::read_to_string(d.join("g.pbem")).unwrap(), forged);
}

/// A share proof altered before the line the key file remembers changes
/// the record's digest there: what was checked before is not the record
/// now, and `move --key` refuses it as `check` does, naming the share.
#[test]
fn a_share_altered_before_the_remembered_line_is_still_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played(d, false);
    let key = remember_turn(d, &text, 6);
    let (forged, writer) = share_proof_altered(&text, 3);
    std::fs::write(d.join("g.pbem"), &forged).unwrap();
    let err = refused_by(d, &["move", "g.pbem", "resign", "--key", &key, "--dry-run"]);
    assert!(err.contains("turn 3"), "{err}");
    assert!(
        err.contains(&format!("{writer}'s share for deck position ")),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(d.join("g.pbem")).unwrap(), forged);
}

/// The proofs up to the digest a key file remembers are taken as checked:
/// a record whose share proof of turn 3 fails, remembered after turn 6
/// (as if its player had checked it), replays from that digest without
/// that proof verified; a replay of every check refuses it. The digest
/// carries that trust, so the record is the one remembered or nothing is
/// taken as checked.
#[test]
fn the_proofs_up_to_the_remembered_digest_are_not_verified_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played(d, false);
    let (forged, _) = share_proof_altered(&text, 3);
    let (_, sent) = sent_at(&forged, 6);
    let source = herald::record::Source::new(forged.as_bytes()).unwrap();
    let parsed = herald::record::parse(&source).unwrap();
    let keep = herald::referee::Keep::RULES;
    let whole = herald::referee::replay_keeping::<Battlegates>(&parsed, keep, |_, _| {});
    let Err(error) = whole else {
        panic!("a share proof of turn 3 fails")
    };
    assert!(
        error.message.contains("share for deck position"),
        "{}",
        error.message
    );
    let from = |digest, ends| {
        herald::referee::replay_from_checked::<Battlegates>(&parsed, keep, digest, ends, |_, _| {})
            .unwrap()
    };
    assert!(matches!(
        from(sent.digest, None),
        herald::referee::Checked::Replayed(_)
    ));
    // A digest the record never reaches proves nothing.
    assert!(matches!(
        from([7; 32], None),
        herald::referee::Checked::Unproven
    ));
}

/// `text` with the card its first turn that plays `rotate90` or
/// `rotate180` names swapped for the other (the line still opens the
/// card it opened), that turn's number and writer.
fn card_swapped(text: &str) -> (String, u32, String) {
    for turn in 1..=30u32 {
        let Some(at) = text.find(&format!("\n{turn}. ")) else {
            continue;
        };
        let head = &text[at + 1..at + 1 + text[at + 1..].find('\n').unwrap()];
        let (from, to) = if head.contains(" rotate90 ") {
            (" rotate90 ", " rotate180 ")
        } else if head.contains(" rotate180 ") {
            (" rotate180 ", " rotate90 ")
        } else {
            continue;
        };
        let word = at + 1 + head.find(from).unwrap();
        let forged = format!("{}{to}{}", &text[..word], &text[word + from.len()..]);
        let start = turn.to_string().len() + 2;
        let writer = head[start..start + head[start..].find(':').unwrap()].to_owned();
        return (forged, turn, writer);
    }
    panic!("no turn plays a rotation card");
}

/// `move --key` and `legal --key` take the card a line opens from its
/// action on the lines the key file's digest vouches for (they were
/// checked before), without decrypting it: a record whose line before
/// the remembered one names another card than the one it opens has
/// another digest there, so nothing is taken as checked and it is
/// refused as `check` refuses it, naming the line and both cards.
#[test]
fn a_card_changed_before_the_remembered_line_is_still_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played(d, false);
    let (forged, turn, _) = card_swapped(&text);
    let key = remember_turn(d, &text, turn + 3);
    std::fs::write(d.join("g.pbem"), &forged).unwrap();
    let check = refused_by(d, &["check", "g.pbem"]);
    for args in [
        &["move", "g.pbem", "resign", "--key", &key, "--dry-run"][..],
        &["legal", "g.pbem", "--key", &key][..],
    ] {
        let err = refused_by(d, args);
        assert!(err.contains(&format!("turn {turn}")), "{err}");
        assert!(err.contains("the line plays rotate"), "{err}");
        assert!(err.contains(" but opens rotate"), "{err}");
        let error = |out: &str| {
            out.lines()
                .find(|l| l.starts_with("error"))
                .map(str::to_owned)
        };
        assert_eq!(error(&err), error(&check));
    }
    assert_eq!(std::fs::read_to_string(d.join("g.pbem")).unwrap(), forged);
    // In the library: the digest the key file remembers is never reached.
    let (_, sent) = sent_at(&text, turn + 3);
    let source = herald::record::Source::new(forged.as_bytes()).unwrap();
    let parsed = herald::record::parse(&source).unwrap();
    let keep = herald::referee::Keep::RULES;
    let from = herald::referee::replay_from_checked::<Battlegates>(
        &parsed,
        keep,
        sent.digest,
        None,
        |_, _| {},
    );
    assert!(matches!(from, Ok(herald::referee::Checked::Unproven)));
}

/// `text` with the first digit of turn `turn`'s reveal changed.
fn reveal_altered(text: &str, turn: u32) -> String {
    let at = text.find(&format!("\n{turn}. ")).unwrap();
    let digit = at + text[at..].find("\n    reveal ").unwrap() + "\n    reveal ".len();
    let flipped = if &text[digit..digit + 1] == "0" {
        "1"
    } else {
        "0"
    };
    format!("{}{flipped}{}", &text[..digit], &text[digit + 1..])
}

/// The reveals of the lines the remembered digest vouches for are still
/// checked along their chain (spec section 3.8; under a protocol that
/// binds keys a chain depends on the header's Key tags, which the record
/// digest does not cover: tests/tamper.rs's swapped key is caught there):
/// a reveal changed before the remembered line is refused by `move
/// --key` and `legal --key` as `check` refuses it, naming the turn.
#[test]
fn a_reveal_changed_before_the_remembered_line_is_still_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played(d, false);
    let key = remember_turn(d, &text, 8);
    let forged = reveal_altered(&text, 5);
    std::fs::write(d.join("g.pbem"), &forged).unwrap();
    let check = refused_by(d, &["check", "g.pbem"]);
    assert!(check.contains("turn 5"), "{check}");
    assert!(check.contains("reveal"), "{check}");
    let error = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("error"))
            .map(str::to_owned)
    };
    for args in [
        &["move", "g.pbem", "resign", "--key", &key, "--dry-run"][..],
        &["legal", "g.pbem", "--key", &key][..],
    ] {
        let err = refused_by(d, args);
        assert!(err.contains("turn 5"), "{err}");
        assert_eq!(error(&err), error(&check));
    }
    assert_eq!(std::fs::read_to_string(d.join("g.pbem")).unwrap(), forged);
}

/// [`self_played_altered`] for `turns` turns (seed 11): a longer game,
/// through many reshuffles, its lines not signed.
fn self_played_long(d: &std::path::Path, turns: u32, alter: Option<selfplay::Alter>) -> String {
    self_played_turns(d, turns, false, alter)
}

/// Whether [`swap_on_deck_5`] has cheated yet (one test uses it).
static STACKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The first pass over deck 5 with its first two cards swapped (the
/// second pass over it is honest): a bad pass deep in a long game
/// (play goes on as before: every card is still there once), whose deck
/// is a past generation by the audit.
fn swap_on_deck_5(line: &str) -> Option<String> {
    swap_on_deck_5_once(line, &STACKED)
}

/// The first two cards of `line`'s pass swapped if it is the first pass
/// over deck 5 and `done` says no cheat yet (it says so from then on).
fn swap_on_deck_5_once(line: &str, done: &std::sync::atomic::AtomicBool) -> Option<String> {
    if !line.contains("\n    commit shuffle-5\n")
        || done.swap(true, std::sync::atomic::Ordering::SeqCst)
    {
        return None;
    }
    let first = first_deck_position(line)?;
    swap_cards(line, first, first + 1)
}

/// The first deck position a pass line lists.
fn first_deck_position(line: &str) -> Option<u32> {
    line.split("\n    deck ")
        .nth(1)?
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// Where the 128 digits of the card at deck position `p` stand in
/// `line`, however the line wraps them (a position of three digits puts
/// them all on the lines after the word `deck`).
fn card_digits(line: &str, p: u32) -> Option<(usize, usize)> {
    let head = format!("\n    deck {p}");
    let at = line
        .find(&format!("{head} "))
        .or_else(|| line.find(&format!("{head}\n")))?
        + head.len();
    let mut seen = 0;
    for (i, c) in line[at..].char_indices() {
        if c.is_ascii_hexdigit() {
            seen += 1;
            if seen == 128 {
                return Some((at, at + i + 1));
            }
        }
    }
    None
}

/// `line` with the cards at deck positions `a` and `b` (`a < b`)
/// swapped.
fn swap_cards(line: &str, a: u32, b: u32) -> Option<String> {
    let (a0, a1) = card_digits(line, a)?;
    let (b0, b1) = card_digits(line, b)?;
    Some(format!(
        "{}{}{}{}{}",
        &line[..a0],
        &line[b0..b1],
        &line[a1..b0],
        &line[a0..a1],
        &line[b1..]
    ))
}

/// The side and turn of the first pass over deck `g` in `text`.
fn first_pass_over(text: &str, g: u32) -> (String, String) {
    let at = text
        .find(&format!("\n    commit shuffle-{g}\n"))
        .expect("a reshuffle");
    let head = text[..at]
        .lines()
        .rev()
        .find(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .unwrap();
    let (turn, rest) = head.split_once(". ").unwrap();
    (rest.split(':').next().unwrap().to_owned(), turn.to_owned())
}

/// `check` of `g.pbem` in `d` with `args` from the file (read a part at
/// a time, past decks kept as digests and read again) and from standard
/// input (past decks kept as bytes), each the same read whole (`--message
/// 1`): the exit code and output from the file, and from standard input.
type Out = (Option<i32>, String, String);
fn checked_both_ways(d: &std::path::Path, args: &[&str]) -> (Out, Out) {
    read_both_ways(d, "check", args)
}

/// [`checked_both_ways`] for the reader `command` (`show`, `legal`).
fn read_both_ways(d: &std::path::Path, command: &str, args: &[&str]) -> (Out, Out) {
    let text = std::fs::read_to_string(d.join("g.pbem")).unwrap();
    let run = |extra: &[&str], stdin: bool| {
        let mut cmd = herald(d);
        cmd.arg(command).args(extra).args(args);
        let out = if stdin {
            cmd.arg("-").write_stdin(text.clone()).output().unwrap()
        } else {
            cmd.arg("g.pbem").output().unwrap()
        };
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let file = run(&[], false);
    assert_eq!(
        file,
        run(&["--message", "1"], false),
        "{command} {args:?} whole"
    );
    let piped = run(&[], true);
    assert_eq!(
        piped,
        run(&["--message", "1"], true),
        "{command} {args:?} whole, standard input"
    );
    (file, piped)
}

#[test]
fn a_failed_pass_deep_in_a_long_game_is_named_by_check_streamed_and_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played_long(d, 200, Some(swap_on_deck_5));
    // Deck 5 is a past generation by the end: two reshuffles after it.
    assert!(text.contains("\n    commit shuffle-7\n"), "{text}");
    let (cheat, turn) = first_pass_over(&text, 5);
    let honest = if cheat == "South" { "North" } else { "South" };
    let (out, code) = resigned_and_audited(d);
    assert_eq!(code, Some(0), "{out}");
    let (file, piped) = checked_both_ways(d, &[]);
    for (code, stdout, _) in [file, piped] {
        assert_eq!(code, Some(0));
        assert!(
            stdout.contains(&format!("{cheat} failed the audit: ")),
            "{stdout}"
        );
    }
    let (file, piped) = checked_both_ways(d, &["--format", "json"]);
    for json_text in [file.1, piped.1] {
        let checked: serde_json::Value = serde_json::from_str(&json_text).unwrap();
        let failed = checked["failed_audits"].as_array().unwrap();
        assert_eq!(failed.len(), 1, "{checked}");
        assert_eq!(failed[0]["side"].as_str(), Some(cheat.as_str()));
        let reason = failed[0]["reason"].as_str().unwrap();
        assert!(
            reason.starts_with(&format!(
                "{cheat}'s pass over deck 5 (turn {turn}): deck position "
            )) && reason.ends_with("and that is no card of the deck before the pass"),
            "{reason}"
        );
        assert_eq!(checked["result"].as_str(), Some(honest), "{checked}");
    }
}

/// Whether [`swap_on_deck_5_for_show`] has cheated yet.
static STACKED_FOR_SHOW: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// [`swap_on_deck_5`], for the one test that shows the game.
fn swap_on_deck_5_for_show(line: &str) -> Option<String> {
    swap_on_deck_5_once(line, &STACKED_FOR_SHOW)
}

#[test]
fn show_and_legal_of_a_long_game_with_a_failed_pass_read_in_parts_are_the_whole_reads() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played_long(d, 200, Some(swap_on_deck_5_for_show));
    assert!(text.contains("\n    commit shuffle-7\n"), "{text}");
    let (_, turn) = first_pass_over(&text, 5);
    let turn: u32 = turn.parse().unwrap();
    // In play: past decks kept as digests, read again at the turn shown.
    for args in [&[][..], &["--format", "json"]] {
        let ((code, _, err), _) = read_both_ways(d, "show", args);
        assert_eq!(code, Some(0), "{err}");
        read_both_ways(d, "legal", args);
    }
    for at in [turn, turn + 1, turn + 40] {
        let at = at.to_string();
        let ((code, out, err), _) = read_both_ways(d, "show", &["--turn", &at]);
        assert_eq!(code, Some(0), "{err}");
        assert!(
            out.starts_with(&format!("Battlegates, after turn {at}\n")),
            "{out}"
        );
        read_both_ways(d, "show", &["--turn", &at, "--format", "json"]);
    }
    // Over, the cheat's audit failed on its pass over deck 5.
    resigned_and_audited(d);
    for args in [&[][..], &["--format", "json"]] {
        let ((code, _, err), _) = read_both_ways(d, "show", args);
        assert_eq!(code, Some(0), "{err}");
        read_both_ways(d, "legal", args);
    }
    read_both_ways(d, "show", &["--turn", &(turn + 1).to_string()]);
}

#[test]
fn a_record_changed_between_the_two_reads_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = self_played_long(d, 200, Some(swap_on_deck_5_again));
    let (cheat, turn) = first_pass_over(&text, 5);
    resigned_and_audited(d);
    let audited = std::fs::read_to_string(d.join("g.pbem")).unwrap();
    let replay = |again: &str| {
        let reader = herald::record::stream::Reader::new(audited.as_bytes()).unwrap();
        let again = std::sync::Arc::new(herald::record::stream::TextAgain::new(again.as_bytes()));
        herald::referee::Replay::<Battlegates>::check_again(reader, None, Some(again))
    };
    // Read again the same: the cheat's pass is named, as `check` names it.
    let referee = replay(&audited).map_err(|e| format!("{e:?}")).unwrap();
    let failed = referee.failed_audits();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(
        failed[0]
            .1
            .starts_with(&format!("{cheat}'s pass over deck 5 (turn {turn})")),
        "{failed:?}"
    );
    // Read again with that pass's cards changed: refused, not trusted.
    let n: u32 = turn.parse().unwrap();
    let start = audited.find(&format!("\n{n}. {cheat}:")).unwrap() + 1;
    let end = start + audited[start..].find(&format!("\n{}. ", n + 1)).unwrap();
    let pass_line = &audited[start..end];
    assert!(pass_line.contains("commit shuffle-5"), "{pass_line}");
    let first = first_deck_position(pass_line).unwrap();
    let changed_line = swap_cards(pass_line, first + 2, first + 3).unwrap();
    let changed = format!("{}{changed_line}{}", &audited[..start], &audited[end..]);
    assert_ne!(changed, audited);
    let stop = replay(&changed).map(|_| ()).unwrap_err();
    let herald::record::stream::Stop::Visit(e, _) = *stop else {
        panic!("{stop:?}");
    };
    assert!(
        e.message.starts_with(&format!(
            "the record changed while it was read: {cheat}'s pass over deck 5 on turn {turn} \
             is not the one read before"
        )),
        "{}",
        e.message
    );
}

/// Whether [`swap_on_deck_5_again`] has cheated yet.
static STACKED_AGAIN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// [`swap_on_deck_5`], for another test of the same binary.
fn swap_on_deck_5_again(line: &str) -> Option<String> {
    swap_on_deck_5_once(line, &STACKED_AGAIN)
}
