//! Playground Battles by email, through the real binary: Blue and Red each
//! in their own directory with their own key file and copy of the record,
//! mailing it back and forth (here: copying the file). A whole game (set-up,
//! openings, an attack, a stalemate, a rescue, a win and the audit) with
//! `check --format json` looked at after every line; a twin game that
//! differs only in identities never opened, to show that nothing printed
//! without a key depends on them; `show --key`; and tampering with
//! openings and commitments.
//!
//! The dice come from the players' fresh keys, so both players follow a
//! policy that knows both armies and steers towards each milestone in
//! turn (same-kind pieces meet, a piece that beats the locked kind rescues,
//! then everyone races to the other base), whatever the rolls.

mod common;
use common::{herald, json, refused, run};

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Armies with at least three of each kind, so that any stalemate has
/// rescuers on both sides.
const BLUE_ARMY: &str = "RRRRPPPSSS";
const RED_ARMY: &str = "SSSPPPRRRR";
/// The throws tie on t1 and t2; t3, Blue's Paper against Red's Rock,
/// decides: Blue moves first.
const BLUE_THROWS: &str = "RSPRPSRPSRPS";
const RED_THROWS: &str = "RSRRPSRPSRPS";

/// `check --format json` on the player's copy.
fn status(dir: &Path) -> Value {
    json(dir, &["check", "game.pbem", "--format", "json"])
}

/// Mail the record from one player to the other.
fn mail(from: &Path, to: &Path) {
    std::fs::copy(from.join("game.pbem"), to.join("game.pbem")).unwrap();
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

/// Two players' directories, `new` and `keygen` done.
struct Table {
    _root: tempfile::TempDir,
    blue: PathBuf,
    red: PathBuf,
}

impl Table {
    /// The first `setup` call in `dir`: the army and throws chosen and
    /// committed to.
    fn commit_choices(&self, dir: &Path, army: &str, throws: &str) {
        run(
            dir,
            &[
                "setup",
                "game.pbem",
                "--key",
                "my.key",
                "--army",
                army,
                "--throws",
                throws,
            ],
        );
    }

    fn new() -> Table {
        let root = tempfile::tempdir().unwrap();
        let (blue, red) = (root.path().join("ann"), root.path().join("bob"));
        std::fs::create_dir(&blue).unwrap();
        std::fs::create_dir(&red).unwrap();
        run(
            &blue,
            &[
                "new",
                "--protocol",
                "2",
                "playground-battles",
                "--side",
                "Blue=ann@example.org",
                "--side",
                "Red=bob@example.org",
                "-o",
                "game.pbem",
            ],
        );
        run(
            &blue,
            &["keygen", "--side", "Blue", "game.pbem", "-o", "my.key"],
        );
        mail(&blue, &red);
        run(
            &red,
            &["keygen", "--side", "Red", "game.pbem", "-o", "my.key"],
        );
        mail(&red, &blue);
        Table {
            _root: root,
            blue,
            red,
        }
    }

    fn dir(&self, side: &str) -> &Path {
        match side {
            "Blue" => &self.blue,
            _ => &self.red,
        }
    }

    /// The same table in another place: the record and both key files as
    /// they are now.
    fn twin(&self) -> Table {
        let root = tempfile::tempdir().unwrap();
        let (blue, red) = (root.path().join("ann"), root.path().join("bob"));
        for (from, to) in [(&self.blue, &blue), (&self.red, &red)] {
            std::fs::create_dir(to).unwrap();
            for file in ["game.pbem", "my.key"] {
                std::fs::copy(from.join(file), to.join(file)).unwrap();
            }
        }
        Table {
            _root: root,
            blue,
            red,
        }
    }

    /// Both set-up steps of both players, mailing after each.
    fn setup(&self, armies: [&str; 2], throws: [&str; 2]) {
        run(
            &self.blue,
            &[
                "setup",
                "game.pbem",
                "--key",
                "my.key",
                "--army",
                armies[0],
                "--throws",
                throws[0],
            ],
        );
        mail(&self.blue, &self.red);
        run(
            &self.red,
            &[
                "setup",
                "game.pbem",
                "--key",
                "my.key",
                "--army",
                armies[1],
                "--throws",
                throws[1],
            ],
        );
        mail(&self.red, &self.blue);
        run(&self.blue, &["setup", "game.pbem", "--key", "my.key"]);
        mail(&self.blue, &self.red);
        run(&self.red, &["setup", "game.pbem", "--key", "my.key"]);
        mail(&self.red, &self.blue);
    }

    fn record(&self) -> String {
        std::fs::read_to_string(self.blue.join("game.pbem")).unwrap()
    }
}

// ---------------------------------------------------------------------
// The players' policy: both armies known, steering to the milestones.

type Sq = (i32, i32);

fn square(name: &str) -> Sq {
    let b = name.as_bytes();
    (
        i32::from(b[0] - b'a'),
        name[1..].parse::<i32>().unwrap() - 1,
    )
}

fn beats(a: u8, b: u8) -> bool {
    matches!((a, b), (b'R', b'S') | (b'S', b'P') | (b'P', b'R'))
}

fn distance(a: Sq, b: Sq) -> i32 {
    (a.0 - b.0).abs() + (a.1 - b.1).abs()
}

/// A piece as `show --format json` lists it, with the identity its owner
/// chose.
#[derive(Clone, Debug)]
struct Piece {
    side: String,
    at: Sq,
    slot: String,
    kind: u8,
}

fn kind_of(side: &str, slot: &str, armies: [&str; 2]) -> u8 {
    let army = if side == "Blue" { armies[0] } else { armies[1] };
    army.as_bytes()[usize::from(slot.as_bytes()[0] - b'a')]
}

/// The pieces on the board, a battle waiting for its opening decided as
/// its identities will decide it.
fn pieces(dir: &Path, armies: [&str; 2]) -> Vec<Piece> {
    let shown = json(dir, &["show", "game.pbem", "--format", "json"]);
    let mut all: Vec<Piece> = shown["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let side = p["side"].as_str().unwrap().to_owned();
            let slot = p["slot"].as_str().unwrap().to_owned();
            Piece {
                kind: kind_of(&side, &slot, armies),
                at: square(p["square"].as_str().unwrap()),
                side,
                slot,
            }
        })
        .collect();
    let position = shown["position"].as_str().unwrap().to_owned();
    let battle = position.split(' ').nth(2).unwrap();
    if battle != "-" {
        let at = square(battle);
        let two: Vec<Piece> = all.iter().filter(|p| p.at == at).cloned().collect();
        if two[0].kind != two[1].kind {
            let loser = if beats(two[0].kind, two[1].kind) {
                &two[1]
            } else {
                &two[0]
            };
            all.retain(|p| p.slot != loser.slot || p.side != loser.side);
        }
    }
    all
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Stalemate,
    Rescue,
    Race,
}

/// A legal action read: where it starts, where it ends (`None`: the
/// base), and the rescue choice's square if it has one (`Some(None)`:
/// `out`).
struct Read {
    from: Sq,
    to: Option<Sq>,
    choice: Option<Option<Sq>>,
}

fn read(action: &str) -> Read {
    let (path, choice) = match action.split_once(' ') {
        Some((path, choice)) => {
            let to = choice.split_once('>').unwrap().1;
            (path, Some((to != "out").then(|| square(to))))
        }
        None => (action, None),
    };
    let spots: Vec<&str> = path.split('-').collect();
    let last = spots[spots.len() - 1];
    Read {
        from: square(spots[0]),
        to: (last != "base").then(|| square(last)),
        choice,
    }
}

/// The action the mover's policy picks from `legal` (never empty).
fn choose(me: &str, legal: &[String], board: &[Piece], stage: Stage, noise: &mut u64) -> String {
    let here = |at: Sq| -> Vec<&Piece> { board.iter().filter(|p| p.at == at).collect() };
    let stalemates: Vec<Sq> = board
        .iter()
        .map(|p| p.at)
        .filter(|&at| here(at).len() == 2)
        .collect();
    let score = |action: &String| -> i64 {
        let r = read(action);
        let mover = here(r.from)[0];
        let Some(to) = r.to else {
            return if stage == Stage::Race {
                10_000
            } else {
                -10_000
            };
        };
        let there = here(to);
        if there.len() == 2 {
            let rescue = beats(mover.kind, there[0].kind) && matches!(r.choice, Some(Some(_)));
            return if stage == Stage::Rescue && rescue {
                5_000
            } else {
                -5_000
            };
        }
        let mut score = 0;
        if let [enemy] = there[..] {
            score += match (enemy.kind == mover.kind, stage) {
                (true, Stage::Stalemate) => 4_000,
                (true, _) => -3_000,
                (false, Stage::Stalemate) => 100,
                (false, _) => 0,
            };
        }
        score -= match stage {
            Stage::Stalemate => board
                .iter()
                .filter(|p| p.side != me && p.kind == mover.kind && here(p.at).len() == 1)
                .map(|p| i64::from(distance(to, p.at)))
                .min()
                .unwrap_or(20),
            Stage::Rescue => stalemates
                .iter()
                .filter(|&&at| beats(mover.kind, here(at)[0].kind))
                .map(|&at| i64::from(distance(to, at)))
                .min()
                .unwrap_or(20),
            Stage::Race => {
                let row = if me == "Blue" { 7 } else { 0 };
                3 * i64::from((to.1 - row).abs())
            }
        };
        score
    };
    let best = legal.iter().map(score).max().unwrap();
    let ties: Vec<&String> = legal.iter().filter(|a| score(a) == best).collect();
    *noise ^= *noise << 13;
    *noise ^= *noise >> 7;
    *noise ^= *noise << 17;
    ties[(*noise % ties.len() as u64) as usize].clone()
}

/// What happened in the game so far, read from the turns' comments.
#[derive(Default, Debug)]
struct Seen {
    attack: bool,
    stalemate: bool,
    rescue: bool,
    base: bool,
    /// Attacks that waited for the defender's opening.
    waited: usize,
    /// The side that played the last turn.
    last: String,
}

/// Play turns with the policy until the game ends (or `stop` says so
/// after a turn), checking both copies after every line. Returns what
/// was seen.
fn play(t: &Table, armies: [&str; 2], stop: &dyn Fn(&Seen) -> bool) -> Seen {
    let mut seen = Seen::default();
    let mut noise = 0x2545_F491_4F6C_DD1Du64;
    for turn in 1..=300u32 {
        let before = status(&t.blue);
        assert_eq!(before, status(&t.red), "both copies agree");
        if before["phase"] != "play" || stop(&seen) {
            return seen;
        }
        let me = before["to_move"].as_str().unwrap().to_owned();
        let other = if me == "Blue" { "Red" } else { "Blue" };
        assert_eq!(strings(&before["due"]), [me.as_str()]);
        assert_eq!(before["turns"], turn - 1);
        let dir = t.dir(&me);
        let board = pieces(dir, armies);
        let legal = json(
            dir,
            &["legal", "game.pbem", "--key", "my.key", "--format", "json"],
        );
        let actions: Vec<String> = legal["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["action"].as_str().unwrap().to_owned())
            .collect();
        let stage = if !seen.stalemate {
            Stage::Stalemate
        } else if !seen.rescue {
            Stage::Rescue
        } else {
            Stage::Race
        };
        let action = if actions.is_empty() {
            "pass".to_owned()
        } else {
            choose(&me, &actions, &board, stage, &mut noise)
        };
        let target = (action != "pass").then(|| read(&action).to).flatten();
        let defender = target.and_then(|to| {
            let there: Vec<&Piece> = board.iter().filter(|p| p.at == to).collect();
            match there[..] {
                [one] if one.side != me => Some(one.slot.clone()),
                _ => None,
            }
        });
        run(
            dir,
            &[
                "move",
                "game.pbem",
                &action,
                "--key",
                "my.key",
                "--expect-turn",
                &turn.to_string(),
            ],
        );
        mail(dir, t.dir(other));
        seen.last = me.clone();
        let notes = json(&t.blue, &["annotate", "game.pbem", "--format", "json"]);
        // The move's line, and the mover's audit when the move ended the
        // game with that audit due next (it goes with the line).
        let comment: String = notes["turns"]
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .take(2)
            .filter_map(|t| t["comment"].as_str())
            .collect::<Vec<_>>()
            .join("\n");
        seen.attack |= comment.contains(" attacks on ");
        seen.stalemate |= comment.contains("stalemate on") && comment.contains("locked");
        seen.rescue |= comment.contains("rescue on");
        seen.base |= comment.contains("base");
        let after = status(&t.red);
        // An attack on a piece nobody has opened waits for the defender's
        // opening, due from the defender on its next line.
        let opened_before = opened(&t.red, other, turn - 1);
        match defender {
            Some(slot) if after["phase"] == "play" && !opened_before.contains(&slot) => {
                assert_eq!(
                    after["openings_due"],
                    serde_json::json!([{ "side": other, "slot": slot }]),
                    "turn {turn}: {action}"
                );
                assert_eq!(strings(&after["due"]), [other.to_owned()]);
                seen.waited += 1;
            }
            _ => assert_eq!(after["openings_due"], serde_json::json!([]), "turn {turn}"),
        }
    }
    panic!("the game did not reach its milestones in 300 turns: {seen:?}");
}

/// The slots of `side` opened in the record up to turn `upto` (set-up
/// lines included).
fn opened(dir: &Path, side: &str, upto: u32) -> BTreeSet<String> {
    let text = std::fs::read_to_string(dir.join("game.pbem")).unwrap();
    let mut set = BTreeSet::new();
    let mut mine = false;
    for line in text.lines() {
        if let Some((head, _)) = line.split_once(':') {
            if let Some((number, who)) = head.split_once(". ") {
                let turn: u32 = number.trim_start_matches('S').parse().unwrap_or(0);
                let setup = number.starts_with('S');
                mine = who == side && (setup || turn <= upto);
                continue;
            }
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if mine && words.first() == Some(&"open") {
            set.insert(words[1].to_owned());
        }
    }
    set
}

// ---------------------------------------------------------------------

#[test]
fn two_players_play_a_whole_game_by_email_set_up_attack_stalemate_rescue_win_and_audit() {
    let t = Table::new();
    let armies = [BLUE_ARMY, RED_ARMY];
    // The set-up, step by step: whose step is due, and nothing to open.
    let s = status(&t.blue);
    assert_eq!(
        (&s["phase"], &s["to_move"]),
        (&"setup".into(), &"Blue".into())
    );
    assert_eq!(strings(&s["due"]), ["Blue"]);
    t.commit_choices(&t.blue, BLUE_ARMY, BLUE_THROWS);
    mail(&t.blue, &t.red);
    let s = status(&t.red);
    assert_eq!(
        (&s["phase"], strings(&s["due"])),
        (&"setup".into(), vec!["Red".to_owned()])
    );
    t.commit_choices(&t.red, RED_ARMY, RED_THROWS);
    mail(&t.red, &t.blue);
    // Both committed: Blue opens its throws first, then Red.
    assert_eq!(strings(&status(&t.blue)["due"]), ["Blue"]);
    assert_eq!(status(&t.blue)["phase"], "setup");
    run(&t.blue, &["setup", "game.pbem", "--key", "my.key"]);
    mail(&t.blue, &t.red);
    assert_eq!(strings(&status(&t.red)["due"]), ["Red"]);
    run(&t.red, &["setup", "game.pbem", "--key", "my.key"]);
    mail(&t.red, &t.blue);
    // t1 and t2 tie, t3 is Paper against Rock: Blue moves first.
    let s = status(&t.blue);
    assert_eq!(s["phase"], "play");
    assert_eq!(strings(&s["due"]), ["Blue"]);
    assert_eq!(s["turns"], 0);
    assert_eq!(s["openings_due"], serde_json::json!([]));
    assert_eq!(s["provisional"], Value::Null);
    assert_eq!(s["result"], "*");

    let seen = play(&t, armies, &|_| false);
    assert!(
        seen.attack && seen.stalemate && seen.rescue && seen.base,
        "{seen:?}"
    );
    assert!(
        seen.waited > 0,
        "an attack waited for the defender: {seen:?}"
    );

    // A piece entered the base: the result waits for the audit, Blue's
    // closing line first; when Blue's own move ended the game, that line
    // went with the move, and Red's is due.
    let s = status(&t.blue);
    let winner = s["provisional"].as_str().unwrap().to_owned();
    assert_eq!((&s["phase"], &s["result"]), (&"audit".into(), &"*".into()));
    assert!(s["position"]
        .as_str()
        .unwrap()
        .ends_with(&format!("{winner}:base")));
    if seen.last == "Blue" {
        assert_eq!(strings(&s["due"]), ["Red"]);
    } else {
        assert_eq!(strings(&s["due"]), ["Blue"]);
        run(&t.blue, &["move", "game.pbem", "--key", "my.key"]);
        mail(&t.blue, &t.red);
    }
    let s = status(&t.red);
    if s["phase"] == "audit" {
        assert_eq!(strings(&s["due"]), ["Red"]);
        assert_eq!(s["provisional"], winner.as_str());
        run(&t.red, &["move", "game.pbem", "--key", "my.key"]);
        mail(&t.red, &t.blue);
    }
    // Both armies hold a Rock, a Paper and a Scissors: the win stands.
    let s = status(&t.blue);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["result"], winner.as_str());
    assert_eq!(s["provisional"], Value::Null);
    assert_eq!(strings(&s["due"]), Vec::<String>::new());
    assert_eq!(s["failed_audits"], serde_json::json!([]));
    assert_eq!(s, status(&t.red));
    // After the audit every identity on the board is public.
    let shown = json(&t.blue, &["show", "game.pbem", "--format", "json"]);
    for p in shown["pieces"].as_array().unwrap() {
        let (side, slot) = (p["side"].as_str().unwrap(), p["slot"].as_str().unwrap());
        let name = match kind_of(side, slot, armies) {
            b'R' => "Rock",
            b'P' => "Paper",
            _ => "Scissors",
        };
        assert_eq!(p["identity"], name, "{p}");
    }
}

/// Everything printed without a key, with 64-digit hexadecimal values
/// (commitments) masked: they differ between the twins by design.
fn keyless_outputs(dir: &Path, turns: u32) -> Vec<String> {
    let mut out = vec![std::fs::read_to_string(dir.join("game.pbem")).unwrap()];
    for args in [
        &["check", "game.pbem"][..],
        &["check", "game.pbem", "--format", "json"],
        &["replay", "game.pbem"],
        &["replay", "game.pbem", "--format", "json"],
        &["annotate", "game.pbem"],
        &["annotate", "game.pbem", "--format", "json"],
        &["fate", "game.pbem", "--format", "json"],
    ] {
        out.push(run(dir, args));
    }
    for turn in 0..=turns {
        let n = turn.to_string();
        out.push(run(dir, &["show", "game.pbem", "--turn", &n]));
        out.push(run(
            dir,
            &["show", "game.pbem", "--turn", &n, "--format", "json"],
        ));
    }
    out.iter().map(|text| mask_hex(text)).collect()
}

fn mask_hex(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_hexdigit() {
            run.push(c);
            continue;
        }
        if run.len() >= 64 {
            out.push('#');
        } else {
            out.push_str(&run);
        }
        run.clear();
        out.push(c);
    }
    out.pop();
    out
}

/// `army` with every slot not in `opened` changed (R to P to S to R), if
/// the result still holds one of each kind; else the other way round.
fn changed_army(army: &str, side_row: char, opened: &BTreeSet<String>) -> String {
    for step in [[b'P', b'S', b'R'], [b'S', b'R', b'P']] {
        let new: String = army
            .bytes()
            .enumerate()
            .map(|(i, k)| {
                let slot = format!("{}{side_row}", char::from(b'a' + i as u8));
                if opened.contains(&slot) {
                    char::from(k)
                } else {
                    char::from(step[b"RPS".iter().position(|&x| x == k).unwrap()])
                }
            })
            .collect();
        if "RPS".chars().all(|k| new.contains(k)) {
            return new;
        }
    }
    panic!("no valid changed army for {army}");
}

#[test]
fn no_record_or_keyless_output_depends_on_an_unopened_identity() {
    // Game A is played until the stalemate is rescued (the game goes on);
    // its twin B has the same header and keys, the same throws and the
    // same moves, but every identity A never opened is different. Every
    // record and keyless output of the two must then be the same, bar
    // the commitments.
    let a = Table::new();
    let b = a.twin();
    let armies = [BLUE_ARMY, RED_ARMY];
    a.setup(armies, [BLUE_THROWS, RED_THROWS]);
    play(&a, armies, &|seen| seen.rescue);
    let s = status(&a.blue);
    assert_eq!(s["phase"], "play", "the game goes on");
    let turns = u32::try_from(s["turns"].as_u64().unwrap()).unwrap();
    let opened_blue = opened(&a.blue, "Blue", turns);
    let opened_red = opened(&a.blue, "Red", turns);
    let twin_armies = [
        changed_army(BLUE_ARMY, '1', &opened_blue),
        changed_army(RED_ARMY, '8', &opened_red),
    ];
    assert_ne!(twin_armies[0], BLUE_ARMY);
    assert_ne!(twin_armies[1], RED_ARMY);
    b.setup(
        [&twin_armies[0], &twin_armies[1]],
        [BLUE_THROWS, RED_THROWS],
    );
    // Replay A's turns in B, each written by its player with its own key.
    let record = a.record();
    for line in record.lines() {
        let Some((head, body)) = line.split_once(": ") else {
            continue;
        };
        let Some((number, side)) = head.split_once(". ") else {
            continue;
        };
        if number.starts_with('S') {
            continue;
        }
        let action = body.split_once(", ").map_or("pass", |(_, action)| action);
        let dir = b.dir(side);
        run(
            dir,
            &[
                "move",
                "game.pbem",
                action,
                "--key",
                "my.key",
                "--expect-turn",
                number,
            ],
        );
        mail(dir, if side == "Blue" { &b.red } else { &b.blue });
    }
    let (ours, theirs) = (
        keyless_outputs(&a.blue, turns),
        keyless_outputs(&b.blue, turns),
    );
    assert_eq!(ours.len(), theirs.len());
    for (x, y) in ours.iter().zip(&theirs) {
        assert_eq!(x, y, "a keyless output differs between the twins");
    }
    // With a key the holder's own hidden identities are drawn, so there
    // the twins differ: the comparison does see such a difference.
    let with_key = |t: &Table| run(&t.blue, &["show", "game.pbem", "--key", "my.key"]);
    assert_ne!(with_key(&a), with_key(&b));
    // And directly: show lists an identity exactly for the opened pieces,
    // the one its owner chose; the position writes those letters only.
    let shown = json(&a.blue, &["show", "game.pbem", "--format", "json"]);
    for p in shown["pieces"].as_array().unwrap() {
        let (side, slot) = (p["side"].as_str().unwrap(), p["slot"].as_str().unwrap());
        let open = if side == "Blue" {
            &opened_blue
        } else {
            &opened_red
        };
        if open.contains(slot) {
            assert_eq!(p["opened"], true);
            let letter = kind_of(side, slot, armies);
            assert_eq!(p["identity"].as_str().unwrap().as_bytes()[0], letter, "{p}");
        } else {
            assert_eq!(
                (&p["opened"], &p["identity"]),
                (&false.into(), &Value::Null),
                "{p}"
            );
        }
    }
    let position = shown["position"]
        .as_str()
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let letters = position.chars().filter(|c| "RPS".contains(*c)).count();
    let on_board_opened = shown["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["opened"] == true)
        .count();
    assert_eq!(letters, on_board_opened);
    // The record carries no salt of a value still hidden (the salts of
    // opened values are in it, which shows the search works).
    let text = a.record();
    for side in ["Blue", "Red"] {
        let key = std::fs::read_to_string(a.dir(side).join("my.key")).unwrap();
        let wallet = herald::wallet::Wallet::parse(&key).unwrap();
        let open = if side == "Blue" {
            &opened_blue
        } else {
            &opened_red
        };
        let row = if side == "Blue" { '1' } else { '8' };
        for c in 'a'..='j' {
            let slot = format!("{c}{row}");
            let salt = hex::encode(wallet.salt(&slot));
            assert_eq!(text.contains(&salt), open.contains(&slot), "{side} {slot}");
        }
    }
}

#[test]
fn show_with_a_key_adds_the_holders_own_identities_and_nothing_else() {
    let t = Table::new();
    let armies = [BLUE_ARMY, RED_ARMY];
    t.setup(armies, [BLUE_THROWS, RED_THROWS]);
    play(&t, armies, &|seen| seen.stalemate);
    let turns = u32::try_from(status(&t.blue)["turns"].as_u64().unwrap()).unwrap();
    for (me, dir) in [("Blue", &t.blue), ("Red", &t.red)] {
        let mine_opened = opened(dir, me, turns);
        let other = if me == "Blue" { "Red" } else { "Blue" };
        let theirs_opened = opened(dir, other, turns);
        let shown = json(
            dir,
            &["show", "game.pbem", "--key", "my.key", "--format", "json"],
        );
        let mut own_hidden = 0;
        for p in shown["pieces"].as_array().unwrap() {
            let (side, slot) = (p["side"].as_str().unwrap(), p["slot"].as_str().unwrap());
            if side == me {
                // Every own identity, opened or not.
                let letter = kind_of(side, slot, armies);
                assert_eq!(p["identity"].as_str().unwrap().as_bytes()[0], letter, "{p}");
                assert_eq!(p["opened"], mine_opened.contains(slot), "{p}");
                own_hidden += usize::from(!mine_opened.contains(slot));
            } else if theirs_opened.contains(slot) {
                assert_eq!(p["opened"], true, "{p}");
            } else {
                assert_eq!(
                    (&p["identity"], &p["opened"]),
                    (&Value::Null, &false.into()),
                    "{p}"
                );
            }
        }
        assert!(own_hidden > 0);
        // The diagram marks what only the holder knows in lower case: as
        // many of its own pieces as are still hidden, none of the other's;
        // without the key, none at all.
        let letter = me.as_bytes()[0] as char;
        let lower = |text: &str, side: char| -> usize {
            text.lines()
                .filter(|l| {
                    l.starts_with("  ") && l.trim_start().starts_with(|c: char| c.is_ascii_digit())
                })
                .map(|l| {
                    ["r", "p", "s"]
                        .iter()
                        .map(|k| l.matches(&format!("{side}{k}")).count())
                        .sum::<usize>()
                })
                .sum()
        };
        let with_key = run(dir, &["show", "game.pbem", "--key", "my.key"]);
        assert_eq!(lower(&with_key, letter), own_hidden);
        let other_letter = other.as_bytes()[0] as char;
        assert_eq!(lower(&with_key, other_letter), 0);
        let without = run(dir, &["show", "game.pbem"]);
        assert_eq!(lower(&without, letter) + lower(&without, other_letter), 0);
        // The key holder's view is never part of the position.
        assert_eq!(shown["position"], status(dir)["position"]);
    }
}

// ---------------------------------------------------------------------
// Tampering, through the binary, on copies of the fixtures' records.

fn fixture(dir: &Path, name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/playground-battles");
    std::fs::copy(root.join(format!("{name}.pbem")), dir.join("game.pbem")).unwrap();
    for side in ["blue", "red"] {
        std::fs::copy(
            root.join(format!("{name}.{side}.key")),
            dir.join(format!("{side}.key")),
        )
        .unwrap();
    }
}

/// Replace the opening of `slot` (the item and its salt on the next line)
/// by `value` and `salt`.
fn reopen(text: &str, slot: &str, value: &str, salt: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(&format!("open {slot} ")))
        .unwrap();
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    out[at] = format!("    open {slot} {value}");
    out[at + 1] = format!("    {salt}");
    out.join("\n") + "\n"
}

/// The value and salt of the opening of `slot` in `text`.
fn opening(text: &str, slot: &str) -> (String, String) {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(&format!("open {slot} ")))
        .unwrap();
    let value = lines[at].split_whitespace().nth(2).unwrap().to_owned();
    (value, lines[at + 1].trim().to_owned())
}

#[test]
fn an_opening_that_does_not_match_its_commitment_is_refused_and_move_leaves_the_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fixture(d, "game-attack-waits-for-the-defenders-opening");
    let text = std::fs::read_to_string(d.join("game.pbem")).unwrap();
    // Red's Paper from b8 attacked on turn 2 and opened P; in transit the
    // value becomes S (which would beat the Rock it attacked).
    let (value, salt) = opening(&text, "b8");
    assert_eq!(value, "P");
    let tampered = reopen(&text, "b8", "S", &salt);
    std::fs::write(d.join("game.pbem"), &tampered).unwrap();
    let e = refused(d);
    assert_eq!(
        (&e["kind"], &e["turn"], &e["side"]),
        (&"record".into(), &2.into(), &"Red".into())
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("open b8 S: this does not match Red's commitment to b8"),
        "{e}"
    );
    // Blue cannot play on from the tampered copy; the file stays as it was.
    let out = herald(d)
        .args(["move", "game.pbem", "b1-b2", "--key", "blue.key"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not match Red's commitment to b8"));
    assert_eq!(
        std::fs::read_to_string(d.join("game.pbem")).unwrap(),
        tampered
    );
    // A changed salt with the right value is refused the same way.
    let mut bad_salt = salt.clone().into_bytes();
    bad_salt[10] = if bad_salt[10] == b'0' { b'1' } else { b'0' };
    std::fs::write(
        d.join("game.pbem"),
        reopen(&text, "b8", "P", std::str::from_utf8(&bad_salt).unwrap()),
    )
    .unwrap();
    assert!(refused(d)["message"]
        .as_str()
        .unwrap()
        .contains("open b8 P: this does not match Red's commitment to b8"));
}

#[test]
fn identities_swapped_between_two_slots_do_not_match_their_commitments() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fixture(d, "game-won-base-audited");
    let text = std::fs::read_to_string(d.join("game.pbem")).unwrap();
    // Red's audit (turn 10) opens a8 as S and b8 as P; exchange the two
    // openings (value and salt) between the slots.
    let (a8, b8) = (opening(&text, "a8"), opening(&text, "b8"));
    assert_eq!((a8.0.as_str(), b8.0.as_str()), ("S", "P"));
    let swapped = reopen(&reopen(&text, "a8", &b8.0, &b8.1), "b8", &a8.0, &a8.1);
    std::fs::write(d.join("game.pbem"), swapped).unwrap();
    let e = refused(d);
    assert_eq!(
        (&e["kind"], &e["turn"], &e["side"]),
        (&"record".into(), &10.into(), &"Red".into())
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("open a8 P: this does not match Red's commitment to a8"),
        "{e}"
    );
    // Exchanging the values alone (each slot keeps its salt) is caught too.
    let values = reopen(&reopen(&text, "a8", &b8.0, &a8.1), "b8", &a8.0, &b8.1);
    std::fs::write(d.join("game.pbem"), values).unwrap();
    assert!(refused(d)["message"]
        .as_str()
        .unwrap()
        .contains("open a8 P: this does not match Red's commitment to a8"));
}

/// The commitment to `value` in `slot` for the holder of `key`, in the
/// game of `record`.
fn commitment(record: &str, key: &Path, slot: &str, value: &str) -> String {
    use herald::games::playground_battles::PlaygroundBattles;
    let source = herald::record::Source::new(record.as_bytes()).unwrap();
    let parsed = herald::record::parse(&source).unwrap();
    let referee = herald::referee::Referee::<PlaygroundBattles>::start(&parsed).unwrap();
    let wallet = herald::wallet::Wallet::parse(&std::fs::read_to_string(key).unwrap()).unwrap();
    hex::encode(herald::fairness::slot_commitment(
        referee.header().game_id(),
        wallet.side(),
        slot,
        &wallet.salt(slot),
        value,
    ))
}

/// Replace `side`'s commitment to `slot` on its set-up line by `digest`.
fn recommit(text: &str, slot: &str, digest: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim() == format!("commit {slot}"))
        .unwrap();
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    out[at + 1] = format!("    {digest}");
    out.join("\n") + "\n"
}

#[test]
fn a_commitment_edited_after_the_opponent_committed_breaks_the_opponents_seal() {
    let t = Table::new();
    t.commit_choices(&t.blue, BLUE_ARMY, BLUE_THROWS);
    mail(&t.blue, &t.red);
    t.commit_choices(&t.red, RED_ARMY, RED_THROWS);
    // On its way back to Blue, Blue's commitment to its third throw (P,
    // the one that decides who starts) is replaced by one to S.
    let sent = std::fs::read_to_string(t.red.join("game.pbem")).unwrap();
    let forged = commitment(&sent, &t.blue.join("my.key"), "t3", "S");
    let received = recommit(&sent, "t3", &forged);
    assert_ne!(received, sent);
    std::fs::write(t.blue.join("game.pbem"), &received).unwrap();
    // Blue signed its set-up line, commitments included, and Red signed
    // its own over the record before it (spec 3.8): the edit breaks Blue's
    // seal, and check names that line at once.
    let out = herald(&t.blue)
        .args(["check", "game.pbem", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "record");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Blue's signature does not match this line here: the line, or a line before it, was altered"),
        "{v}"
    );
    // Blue's next set-up step refuses the record and writes nothing.
    let out = herald(&t.blue)
        .args(["setup", "game.pbem", "--key", "my.key"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(t.blue.join("game.pbem")).unwrap(),
        received
    );
}

#[test]
fn a_commitment_rewritten_with_its_owners_key_shows_only_when_the_copies_are_compared() {
    // Spec 3.1: a reveal shows who wrote a line, not what it said, so an
    // edit "shows when the copies are compared". Blue's a1 Rock is attacked
    // by Red's Paper (fixture game-attack-waits-for-the-defenders-opening);
    // before answering, Blue rewrites its own set-up commitment to a1 (and
    // its key file) to Scissors, and opens that.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fixture(d, "game-attack-waits-for-the-defenders-opening");
    let reds_copy = std::fs::read_to_string(d.join("game.pbem")).unwrap();
    let forged = commitment(&reds_copy, &d.join("blue.key"), "a1", "S");
    std::fs::write(d.join("game.pbem"), recommit(&reds_copy, "a1", &forged)).unwrap();
    let key = std::fs::read_to_string(d.join("blue.key")).unwrap();
    assert!(key.contains("hidden: a1 R"));
    std::fs::write(
        d.join("blue.key"),
        key.replace("hidden: a1 R", "hidden: a1 S"),
    )
    .unwrap();
    let legal = json(
        d,
        &[
            "legal",
            "game.pbem",
            "--key",
            "blue.key",
            "--format",
            "json",
        ],
    );
    let action = legal["actions"][0]["action"].as_str().unwrap().to_owned();
    run(d, &["move", "game.pbem", &action, "--key", "blue.key"]);
    // check finds nothing wrong: the Scissors beat the Paper.
    let s = status(d);
    assert_eq!(s["ok"], true);
    assert!(s["position"].as_str().unwrap().contains("baS"), "{s}");
    // Red's own copy of the set-up line differs from the one it receives,
    // in that commitment alone.
    let received = std::fs::read_to_string(d.join("game.pbem")).unwrap();
    let differ: Vec<(&str, &str)> = reds_copy
        .lines()
        .zip(received.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(differ.len(), 1, "{differ:?}");
    assert_eq!(differ[0].1.trim(), forged);
}
