//! Forfeits in games of more than two sides, by email through the real
//! binary (issue 28, review round 5): one directory and one key file a
//! player, every line mailed as a message (`--reply -o N.eml`, the file
//! copied into every other player's directory), each player answering
//! the newest message. A claimed forfeit never sticks a game, and a side
//! out of the game claims nothing.

mod common;
use common::herald;

use std::path::{Path, PathBuf};

use serde_json::Value;

const CASTLES: [&str; 4] = ["Castle1", "Castle2", "Castle3", "Castle4"];

/// Each castle's maze (as in battlegates_four_by_email.rs).
const MAZES: [&str; 4] = [
    "Wd1n Wa2n Wh3n Wi3n Gh1nw Gd3nw Gf3ne Le1nw Lb1ne Lg4nw",
    "Wa9n Wb9n Wh9n Wi9n Ge11nw Gb10ne Gh10nw Lc8nw Lf8nw Lb11nw",
    "Wn1n Wk2n Wr3n Ws3n Gr1nw Gn3nw Gp3ne Lo1nw Ll1ne Lq4nw",
    "Wk9n Wl9n Wr9n Ws9n Go11nw Gl10ne Gr10nw Lm8nw Lp8nw Ll11nw",
];

/// Each castle's first Archer shooting where, within a roll of 4, the
/// arrow reaches neither another character nor a Keep.
const SHOTS: [&str; 4] = ["shoot d1 n", "shoot d12 s", "shoot n1 n", "shoot n12 s"];

/// One board (`Setup "one-board"`): the two sides and their mazes.
const SIDES: [&str; 2] = ["South", "North"];
const SOUTH_NORTH_MAZES: [&str; 2] = [
    "Wb2n Wd3e Wf2n Wh3n Gc1sw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw",
    "Wb10n Wd9e Wf10n Wh8n Gc12nw Gc9nw Ge8ne Ld10nw Lg9en Lb8nw",
];

/// The sides of a game with the `Setup` tag `setup`, and their mazes.
fn sides_of(setup: &str) -> (&'static [&'static str], &'static [&'static str]) {
    if setup == "one-board" {
        (&SIDES, &SOUTH_NORTH_MAZES)
    } else {
        (&CASTLES, &MAZES)
    }
}

/// The day every line of play is written.
const PLAY_DAY: &str = "2026-11-01";
/// 15 days on: past the default Deadline of 14 days.
const CLAIM_DAY: &str = "2026-11-16";
/// 15 days after the claim: the claim's own deadline passed.
const STANDS_DAY: &str = "2026-12-01";
/// 15 days after that.
const LATE_DAY: &str = "2026-12-16";

/// Four players, one folder each (named after its castle, holding
/// `my.key` and the messages), and the newest message's name.
struct Castles {
    _root: tempfile::TempDir,
    dirs: Vec<PathBuf>,
    last: std::cell::RefCell<String>,
    count: std::cell::Cell<usize>,
    /// The `Setup` tag: `four-castles-solo` or `four-castles-allies`.
    setup: &'static str,
}

impl Castles {
    fn dir(&self, castle: usize) -> &Path {
        &self.dirs[castle - 1]
    }

    /// `--hand-key` and the key file of the hand castle `castle` plays
    /// from, if another castle holds it (allies: Castle3 plays from
    /// Castle1's hand, Castle4 from Castle2's).
    fn hand_key(&self, castle: usize) -> Vec<String> {
        if self.setup == "four-castles-allies" && castle >= 3 {
            let holder = self.dir(castle - 2).join("my.key");
            vec!["--hand-key".into(), holder.to_str().unwrap().to_owned()]
        } else {
            Vec::new()
        }
    }

    /// Castle `castle`'s `move` of `what` (`resign`, `audit`, a turn)
    /// with its key, and the hand's key where another castle holds it.
    fn play(&self, castle: usize, day: &str, what: &str) -> String {
        let hand = self.hand_key(castle);
        let mut args = vec!["move", what, "--key", "my.key"];
        args.extend(hand.iter().map(String::as_str));
        self.answer(castle, day, &args)
    }

    /// Castle `castle`'s claim on `day` of a forfeit on the newest
    /// message, refused: exit 1, no message written; its standard error,
    /// its words joined by single spaces.
    fn refused_claim(&self, castle: usize, day: &str) -> String {
        let last = self.last.borrow().clone();
        let args = [
            "move",
            last.as_str(),
            "--forfeit",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "refused.eml",
        ];
        let (_, err, code) = self.herald(castle, day, &args);
        assert_eq!(code, 1, "{err}");
        assert!(
            !self.dir(castle).join("refused.eml").exists(),
            "nothing written"
        );
        err.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// `herald ARGS` in castle `castle`'s folder on `day`: its output,
    /// its standard error and its exit code.
    fn herald(&self, castle: usize, day: &str, args: &[&str]) -> (String, String, i32) {
        let out = herald(self.dir(castle))
            .env("HERALD_TODAY", day)
            .args(args)
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code().unwrap_or(-1),
        )
    }

    /// Castle `castle` answers the newest message with `herald ARGS`
    /// (the message's name first, `--reply -o N.eml` added), which must
    /// succeed; its reply is mailed to the three others and becomes the
    /// newest message. What herald said.
    fn answer(&self, castle: usize, day: &str, args: &[&str]) -> String {
        let n = self.count.get() + 1;
        let out_name = format!("{n}.eml");
        let last = self.last.borrow().clone();
        let mut all = vec![args[0], last.as_str()];
        all.extend_from_slice(&args[1..]);
        all.extend(["--reply", "-o", out_name.as_str()]);
        let (out, err, code) = self.herald(castle, day, &all);
        assert_eq!(code, 0, "Castle{castle}: herald {all:?}: {out}{err}");
        self.mail(castle, &out_name);
        out
    }

    /// Copy message `name` from castle `from`'s folder into the others;
    /// it becomes the newest message.
    fn mail(&self, from: usize, name: &str) {
        for (i, d) in self.dirs.iter().enumerate() {
            if i + 1 != from {
                std::fs::copy(self.dir(from).join(name), d.join(name)).unwrap();
            }
        }
        *self.last.borrow_mut() = name.to_owned();
        self.count.set(self.count.get() + 1);
    }

    /// `check --format json` of the newest message, read by castle
    /// `castle`.
    fn status(&self, castle: usize) -> Value {
        let last = self.last.borrow().clone();
        let (out, err, code) = self.herald(
            castle,
            LATE_DAY,
            &["check", last.as_str(), "--format", "json"],
        );
        assert_eq!(code, 0, "{out}{err}");
        serde_json::from_str(&out).unwrap()
    }

    /// Four castles alone (`four-castles-solo`) with hidden hands, set up
    /// by email: Castle1 begins with `new --reply`, every other step is
    /// taken by the castle `check` names, with `setup`.
    fn set_up(setup: &'static str) -> Castles {
        Castles::set_up_to(setup, usize::MAX)
    }

    /// [`Castles::set_up`], stopped once `lines` set-up lines are written.
    fn set_up_to(setup: &'static str, lines: usize) -> Castles {
        let root = tempfile::tempdir().unwrap();
        let (names, mazes) = sides_of(setup);
        let dirs: Vec<PathBuf> = names
            .iter()
            .map(|c| {
                let d = root.path().join(c);
                std::fs::create_dir(&d).unwrap();
                d
            })
            .collect();
        let t = Castles {
            _root: root,
            dirs,
            last: std::cell::RefCell::new(String::new()),
            count: std::cell::Cell::new(0),
            setup,
        };
        let sides: Vec<String> = names
            .iter()
            .map(|c| format!("{c}={}@example.org", c.to_lowercase()))
            .collect();
        let mut args = vec!["new", "battlegates"];
        for s in &sides {
            args.extend(["--side", s.as_str()]);
        }
        let option = format!("Setup={setup}");
        args.extend(["--option", option.as_str(), "--option", "Hands=hidden"]);
        args.extend([
            "--key", "my.key", "--maze", mazes[0], "--reply", "-o", "1.eml",
        ]);
        let (out, err, code) = t.herald(1, PLAY_DAY, &args);
        assert_eq!(code, 0, "{out}{err}");
        t.mail(1, "1.eml");
        for _ in 0..12 {
            if t.count.get() >= lines {
                return t;
            }
            let s = t.status(1);
            assert_eq!(s["ok"], true, "{s}");
            if s["phase"] != "setup" {
                assert_eq!(s["phase"], "play", "{s}");
                return t;
            }
            let castle = s["step"]["side"].as_str().unwrap();
            let i = names.iter().position(|c| *c == castle).unwrap();
            let hand = t.hand_key(i + 1);
            let mut step = vec!["setup", "--key", "my.key"];
            step.extend(hand.iter().map(String::as_str));
            if !t.dirs[i].join("my.key").exists() {
                step.extend(["--side", castle, "--maze", mazes[i]]);
            }
            t.answer(i + 1, PLAY_DAY, &step);
        }
        panic!("the set-up did not end");
    }

    /// Castle `castle`'s turn on `day`, any side of any setup: it throws
    /// away a card and then takes the first dice action that spends the
    /// most of its roll (`legal --after`).
    fn any_turn(&self, castle: usize, day: &str) {
        let last = self.last.borrow().clone();
        let hand = self.hand_key(castle);
        let listed = |after: Option<&str>| -> Vec<(String, i64)> {
            let mut args = vec!["legal", last.as_str(), "--key", "my.key"];
            args.extend(["--format", "json"]);
            args.extend(hand.iter().map(String::as_str));
            if let Some(a) = after {
                args.extend(["--after", a]);
            }
            let (out, err, code) = self.herald(castle, day, &args);
            assert_eq!(code, 0, "{out}{err}");
            let legal: Value = serde_json::from_str(&out).unwrap();
            legal["actions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| {
                    let cost = a["cost"].as_i64().unwrap_or(0);
                    (a["action"].as_str().unwrap().to_owned(), cost)
                })
                .collect()
        };
        let discard = listed(None)
            .into_iter()
            .map(|(a, _)| a)
            .find(|a| a.starts_with("discard "))
            .unwrap();
        let dice = listed(Some(&discard));
        let most = dice.iter().map(|(_, c)| *c).max().unwrap();
        let action = &dice.iter().find(|(_, c)| *c == most).unwrap().0;
        self.play(castle, day, &format!("{discard}, {action}"));
    }

    /// Every castle's `check --key` of the newest message on `day`, with
    /// the hand's key where another castle holds it, succeeds: the copy
    /// is one its key file can read on (no share fails to verify).
    fn every_key_reads(&self, day: &str) {
        let last = self.last.borrow().clone();
        for castle in 1..=self.dirs.len() {
            let (out, err, code) =
                self.herald(castle, day, &["check", last.as_str(), "--key", "my.key"]);
            assert_eq!(code, 0, "castle {castle}: {out}{err}");
            assert!(!err.contains("does not verify"), "castle {castle}: {err}");
        }
    }

    /// `check` of the newest message read by castle `castle`: what it
    /// says, its words joined by single spaces.
    fn says(&self, castle: usize) -> String {
        let last = self.last.borrow().clone();
        let (out, err, code) = self.herald(castle, LATE_DAY, &["check", last.as_str()]);
        assert_eq!(code, 0, "{out}{err}");
        out.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The header index (from 1) of the side `check` names as due.
    fn due_castle(&self) -> usize {
        let (names, _) = sides_of(self.setup);
        let s = self.status(1);
        let side = s["step"]["side"].as_str().unwrap();
        names.iter().position(|c| *c == side).unwrap() + 1
    }

    /// Castle `castle`'s turn: it throws away a card (the one drawn, or
    /// another) and shoots an arrow that hits nothing.
    fn turn(&self, castle: usize) {
        let last = self.last.borrow().clone();
        let hand = self.hand_key(castle);
        let mut args = vec![
            "legal",
            last.as_str(),
            "--key",
            "my.key",
            "--format",
            "json",
        ];
        args.extend(hand.iter().map(String::as_str));
        let (out, err, code) = self.herald(castle, PLAY_DAY, &args);
        assert_eq!(code, 0, "{out}{err}");
        let legal: Value = serde_json::from_str(&out).unwrap();
        let discard = legal["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| a["action"].as_str())
            .find(|a| a.starts_with("discard "))
            .unwrap()
            .to_owned();
        let turn = format!("{discard}, {}", SHOTS[castle - 1]);
        self.play(castle, PLAY_DAY, &turn);
    }
}

fn due(s: &Value) -> Vec<&str> {
    s["due"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect()
}

/// Review round 5, fs4: in four-castles-solo with hidden hands, every
/// draw needs a share of every hand, and a castle whose forfeit is
/// claimed can write none. So the claim ends play at once: the castles
/// still in win together (provisionally, until the audit), nobody is left
/// unable to move, and what is due is the claimed castle's answer, then
/// the audits. The claimed castle claims nothing back, and once the
/// claim stands the audits close the game.
#[test]
fn a_forfeit_claimed_with_a_shared_deck_ends_play_for_the_castles_still_in() {
    let t = Castles::set_up("four-castles-solo");
    t.turn(1);
    t.turn(2);
    // Castle3 stops answering; Castle4 claims its forfeit past the deadline.
    t.answer(4, CLAIM_DAY, &["move", "--forfeit", "--key", "my.key"]);
    let s = t.status(1);
    assert_eq!(s["ok"], true, "{s}");
    assert_eq!(s["phase"], "audit", "{s}");
    assert_eq!(s["provisional"], "Castle1+Castle2+Castle4", "{s}");
    // Until its answer is due and absent, the claimed castle's own line
    // voids the claim: that is what is due, nobody's turn.
    assert_eq!(due(&s), ["Castle3"], "{s}");
    let words = t.status(2)["summary"].as_str().unwrap().to_owned();
    assert!(
        words.contains("Castle1+Castle2+Castle4 won: Castle3 forfeited (claimed by Castle4 on turn 3), and play cannot go on without its hand's deck shares"),
        "{words}"
    );
    assert!(!words.contains("resigned"), "{words}");
    // Once the claim's deadline passed, Castle1's audit lets it stand;
    // the claimed castle may not claim anyone's audit back.
    t.answer(1, STANDS_DAY, &["move", "audit", "--key", "my.key"]);
    let err = t.refused_claim(3, LATE_DAY);
    assert!(err.contains("Castle3 is out of the game: Castle3 forfeited (claimed by Castle4 on turn 3); a side that lost by forfeit claims nothing"), "{err}");
    // The others audit; Castle3's audit never comes, and its forfeit of
    // it is claimed: the game is over, the castles still in won.
    t.answer(2, STANDS_DAY, &["move", "audit", "--key", "my.key"]);
    t.answer(4, STANDS_DAY, &["move", "audit", "--key", "my.key"]);
    let s = t.status(2);
    assert_eq!(due(&s), ["Castle3"], "{s}");
    t.answer(2, LATE_DAY, &["move", "--forfeit", "--key", "my.key"]);
    let s = t.status(3);
    assert_eq!(s["phase"], "over", "{s}");
    assert_eq!(s["result"], "Castle1+Castle2+Castle4", "{s}");
}

/// Review round 5, fa2: in four-castles-allies a castle that forfeits
/// loses with its team. Castle4 resigns (its team, 2+4, loses on the
/// board); Castle1's audit never comes, and Castle4 claims its forfeit of
/// it: Castle1's refusal takes the win from Castle1 and Castle3 as one
/// team (never leaving Castle3 the winner alone), and gives it to nobody
/// the board did not: a draw.
#[test]
fn a_castle_that_forfeits_in_allies_loses_with_its_team() {
    let t = Castles::set_up("four-castles-allies");
    for castle in 1..=3 {
        t.turn(castle);
    }
    t.play(4, PLAY_DAY, "resign");
    let s = t.status(1);
    assert_eq!(s["phase"], "audit", "{s}");
    assert_eq!(s["provisional"], "Castle1+Castle3", "{s}");
    // Every castle but Castle1 audits.
    for _ in 0..4 {
        let s = t.status(1);
        let Some(castle) = due(&s)
            .into_iter()
            .find(|c| *c != "Castle1")
            .map(|c| CASTLES.iter().position(|x| *x == c).unwrap() + 1)
        else {
            break;
        };
        t.play(castle, PLAY_DAY, "audit");
    }
    let s = t.status(1);
    assert_eq!(due(&s), ["Castle1"], "{s}");
    t.answer(4, CLAIM_DAY, &["move", "--forfeit", "--key", "my.key"]);
    let s = t.status(3);
    assert_eq!(s["result"], "draw", "{s}");
    let summary = s["summary"].as_str().unwrap();
    assert!(
        summary.starts_with(
            "a draw after the audit: Castle1 forfeited its audit (claimed by Castle4 on turn "
        ),
        "{summary}"
    );
}

/// Review round 5, fs5: walking away during the set-up of four castles
/// alone ends the game before turn 1 (the set-up cannot finish without
/// the castle's maze and its pass over the deck); the three others win
/// together, and the summary says "forfeited", never "resigned".
#[test]
fn a_castle_that_walks_away_at_set_up_ends_the_game_and_the_others_win_together() {
    let t = Castles::set_up_to("four-castles-solo", 5);
    let s = t.status(1);
    assert_eq!(s["phase"], "setup", "{s}");
    assert_eq!(s["step"]["line"], "S6", "{s}");
    let gone = s["step"]["side"].as_str().unwrap().to_owned();
    let claimant = if gone == "Castle1" { 2 } else { 1 };
    t.answer(
        claimant,
        CLAIM_DAY,
        &["move", "--forfeit", "--key", "my.key"],
    );
    let s = t.status(3);
    let others: Vec<&str> = CASTLES.iter().copied().filter(|c| *c != gone).collect();
    let result = others.join("+");
    assert_eq!(
        s["provisional"].as_str().or(s["result"].as_str()),
        Some(result.as_str()),
        "{s}"
    );
    let summary = s["summary"].as_str().unwrap();
    assert!(
        summary.starts_with(&format!(
            "{result} won: {gone} forfeited (claimed by Castle{claimant} on S6)"
        )),
        "{summary}"
    );
    assert!(!summary.contains("resigned"), "{summary}");
}

/// Review round 5, d4: a side out of the game claims nothing in play.
/// Castle1 resigns on turn 1 (its line publishes its hand's leaving
/// items) and the three others play on; when Castle2 stops answering,
/// Castle1's claim of its forfeit is refused with the reason and nothing
/// is written, and Castle3's claim stands for the castles still in.
#[test]
fn a_side_that_resigned_claims_nothing() {
    let t = Castles::set_up("four-castles-solo");
    t.play(1, PLAY_DAY, "resign");
    let s = t.status(2);
    assert_eq!(
        (s["phase"].as_str(), due(&s)),
        (Some("play"), vec!["Castle2"]),
        "{s}"
    );
    let err = t.refused_claim(1, CLAIM_DAY);
    assert!(err.contains("Castle1 is out of the game (it resigned or was eliminated): only a side still playing claims a forfeit in play"), "{err}");
    t.answer(3, CLAIM_DAY, &["move", "--forfeit", "--key", "my.key"]);
    let s = t.status(4);
    assert_eq!(s["provisional"], "Castle3+Castle4", "{s}");
    assert_eq!(s["forfeits"][0]["claimed_by"], "Castle3", "{s}");
}

/// Review round 5, d4: while a claim waits for its target's answer,
/// every reader names that answer as the step due and whose it is: JSON
/// `to_move`, `due` and `step` say the claimed castle, and `check` says
/// the forfeit is provisional until then.
#[test]
fn while_a_claim_waits_every_reader_names_its_answer_as_due() {
    let t = Castles::set_up("four-castles-solo");
    t.turn(1);
    t.answer(3, CLAIM_DAY, &["move", "--forfeit", "--key", "my.key"]);
    let s = t.status(4);
    assert_eq!(s["to_move"], "Castle2", "{s}");
    assert_eq!(due(&s), ["Castle2"], "{s}");
    assert_eq!(s["step"]["side"], "Castle2", "{s}");
    let last = t.last.borrow().clone();
    let (out, err, code) = t.herald(4, LATE_DAY, &["check", last.as_str()]);
    assert_eq!(code, 0, "{out}{err}");
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("Castle2 forfeited (claimed by Castle3 on turn 2), provisional: Castle2's own next line voids it"),
        "{words}"
    );
}

/// Review round 5, bg2: Battlegates for two with hidden hands. The side
/// to move stops answering and the other claims its forfeit: the summary
/// says "forfeited", never "resigned"; the claimed side claims nothing
/// back (not the winner's audit), and its own audit never turns its loss
/// into a draw: once the winner audits, the winner has won.
#[test]
fn a_claimed_side_never_draws_or_wins_by_claiming_back() {
    let t = Castles::set_up("one-board");
    let s = t.status(1);
    let gone = s["step"]["side"].as_str().unwrap().to_owned();
    let (out, winner) = if gone == "South" { (1, 2) } else { (2, 1) };
    let winner_name = SIDES[winner - 1];
    t.answer(winner, CLAIM_DAY, &["move", "--forfeit", "--key", "my.key"]);
    let s = t.status(out);
    let summary = s["summary"].as_str().unwrap();
    assert!(
        summary.starts_with(&format!(
            "{winner_name} won: {gone} forfeited (claimed by {winner_name} on turn 1)"
        )),
        "{summary}"
    );
    assert!(!summary.contains("resigned"), "{summary}");
    // The claimed side writes its audit once the claim's deadline
    // passed (the claim stands), then may not claim the winner's audit.
    t.answer(out, STANDS_DAY, &["move", "audit", "--key", "my.key"]);
    let err = t.refused_claim(out, LATE_DAY);
    assert!(err.contains(&format!("{gone} is out of the game: {gone} forfeited (claimed by {winner_name} on turn 1); a side that lost by forfeit claims nothing")), "{err}");
    // The winner's audit ends the game: the winner has won.
    t.answer(winner, LATE_DAY, &["move", "audit", "--key", "my.key"]);
    let s = t.status(winner);
    assert_eq!(s["phase"], "over", "{s}");
    assert_eq!(s["result"], winner_name, "{s}");
}

/// Review round 5, bg2: no audit could be written before the claim
/// that ended play stood (no line but its target's may follow a claim
/// before then), so each audit became due only then: its whole Deadline
/// runs from the day the claim stood, and another castle may not claim
/// it that day (four castles each alone, hidden hands: the claim ends
/// play, the audits are due, Castle1's first).
#[test]
fn an_audit_due_after_a_claim_has_its_whole_deadline_from_the_day_the_claim_stood() {
    let t = Castles::set_up("four-castles-solo");
    t.turn(1);
    t.answer(3, CLAIM_DAY, &["move", "--forfeit", "--key", "my.key"]);
    // 2026-12-01: the claim on turn 2 stands, and Castle1's audit is due
    // from that day, not from the claim's date.
    let words = t.refused_claim(4, STANDS_DAY);
    assert!(
        words.contains("Castle1's step has been due since 2026-12-01 (the day the claim on turn 2 stood), 0 days by this claim's date 2026-12-01, and the game's Deadline is 14 days: Castle4 may claim from 2026-12-16 on"),
        "{words}"
    );
    // 15 days after the claim stood, Castle1's silence may be claimed.
    t.answer(4, LATE_DAY, &["move", "--forfeit", "--key", "my.key"]);
    let s = t.status(2);
    assert_eq!(s["forfeits"][1]["side"], "Castle1", "{s}");
    assert_eq!(s["forfeits"][1]["claimed_by"], "Castle4", "{s}");
    assert_eq!(s["forfeits"][1]["audit"], true, "{s}");
}

/// Review round 7, 06: a line dated more than a day after a reader's
/// today never lets a claim stand before its time. Castle3 claims
/// Castle2's forfeit, which ends play (four castles each alone, hidden
/// hands), and Castle1 writes its audit dated the day the claim stands
/// (by its clock): Castle4, reading on the claim's day, refuses
/// that line as one from the future (exit 1), naming the claim it would
/// let stand, its date and Castle4's today; on the eve of its date
/// Castle4 reads it.
#[test]
fn a_line_from_the_future_never_lets_an_open_claim_stand() {
    let t = Castles::set_up("four-castles-solo");
    t.turn(1);
    t.answer(3, CLAIM_DAY, &["move", "--forfeit", "--key", "my.key"]);
    t.play(1, STANDS_DAY, "audit");
    let last = t.last.borrow().clone();
    let (out, err, code) = t.herald(4, CLAIM_DAY, &["check", last.as_str()]);
    assert_eq!(code, 1, "{out}{err}");
    let words = err.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("turn 3 (Castle1): this line is dated 2026-12-01, more than a day after today (2026-11-16) by this computer's clock: a line from the future cannot let Castle3's claim on turn 2 stand before the game's Deadline has passed; its writer's clock or this computer's is wrong"),
        "{words}"
    );
    let (out, err, code) = t.herald(4, "2026-11-30", &["check", last.as_str()]);
    assert_eq!(code, 0, "{out}{err}");
}

/// Review round 6, 08: Battlegates for two with hidden hands. North joins
/// and South's set-up line never comes; North claims its forfeit at the
/// set-up, and South answers with its set-up line, which voids the claim.
/// When that line ends the set-up it carries South's shares of North's
/// first draw: they verify for every key (North's key file remembers the
/// claim it wrote), and North plays turn 1. The claim never sticks the
/// game.
#[test]
fn a_set_up_claim_voided_by_its_targets_line_leaves_shares_every_key_verifies() {
    // The roll decides who moves first: try until South's answer is the
    // set-up's last line (North first), the case whose shares it carries.
    for _ in 0..24 {
        let t = Castles::set_up_to("one-board", 2);
        assert_eq!(t.due_castle(), 1);
        t.answer(2, CLAIM_DAY, &["move", "--forfeit", "--key", "my.key"]);
        let s = t.status(1);
        assert_eq!(due(&s), ["South"], "{s}");
        t.answer(1, CLAIM_DAY, &["setup", "--key", "my.key"]);
        let words = t.says(2);
        assert!(
            words.contains("was voided by South's own next line"),
            "{words}"
        );
        t.every_key_reads(CLAIM_DAY);
        let s = t.status(2);
        if s["phase"] != "play" {
            continue;
        }
        let record = std::fs::read_to_string(t.dir(2).join(t.last.borrow().as_str())).unwrap();
        assert!(
            record.contains("share 0 "),
            "South's answer deals North's draw"
        );
        assert_eq!(t.due_castle(), 2);
        t.any_turn(2, CLAIM_DAY);
        t.every_key_reads(CLAIM_DAY);
        return;
    }
    panic!("North never moved first in 24 set-ups");
}

/// Review round 6, 09: Battlegates for two with hidden hands, in play.
/// The first mover plays turn 1 and claims the other side's forfeit of
/// turn 2; while the claim stands, `hand` shows the claimed side the hand
/// it answers with (as `legal` does, never "0 cards"). Its turn voids the
/// claim and carries its shares of the claimant's draw: they verify for
/// every key, and the claimant plays on.
#[test]
fn a_claim_in_play_voided_by_its_targets_turn_leaves_shares_every_key_verifies() {
    let t = Castles::set_up("one-board");
    let first = t.due_castle();
    let other = 3 - first;
    t.any_turn(first, PLAY_DAY);
    let last = t.last.borrow().clone();
    let (before, err, code) =
        t.herald(other, PLAY_DAY, &["hand", last.as_str(), "--key", "my.key"]);
    assert_eq!(code, 0, "{err}");
    t.answer(first, CLAIM_DAY, &["move", "--forfeit", "--key", "my.key"]);
    let last = t.last.borrow().clone();
    let (held, err, code) = t.herald(
        other,
        CLAIM_DAY,
        &["hand", last.as_str(), "--key", "my.key"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!held.contains(": 0 cards"), "{held}");
    assert_eq!(held, before, "the hand it answers the claim with");
    t.any_turn(other, CLAIM_DAY);
    let words = t.says(first);
    assert!(words.contains("claim on turn 2 was voided by"), "{words}");
    t.every_key_reads(CLAIM_DAY);
    assert_eq!(t.due_castle(), first);
    t.any_turn(first, CLAIM_DAY);
    t.every_key_reads(CLAIM_DAY);
}

/// Review round 6, 09: the same in four-castles-allies (Castle3 plays
/// from Castle1's hand, Castle4 from Castle2's): a claim on the castle
/// due, voided by its turn, leaves shares every castle's key verifies,
/// and play goes on.
#[test]
fn a_claim_voided_in_four_castles_allies_leaves_shares_every_key_verifies() {
    let t = Castles::set_up("four-castles-allies");
    let first = t.due_castle();
    t.any_turn(first, PLAY_DAY);
    let target = t.due_castle();
    let claimant = (1..=4).find(|c| *c != target && *c != first).unwrap();
    t.answer(
        claimant,
        CLAIM_DAY,
        &["move", "--forfeit", "--key", "my.key"],
    );
    t.any_turn(target, CLAIM_DAY);
    let words = t.says(claimant);
    assert!(words.contains("was voided by"), "{words}");
    t.every_key_reads(CLAIM_DAY);
    let next = t.due_castle();
    t.any_turn(next, CLAIM_DAY);
    t.every_key_reads(CLAIM_DAY);
}

/// `herald ARGS` in `dir` on `day` (the clock, `HERALD_TODAY`): its
/// output, its standard error and its exit code.
fn on_day(dir: &Path, day: &str, args: &[&str]) -> (String, String, i32) {
    let out = herald(dir)
        .env("HERALD_TODAY", day)
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Review round 6, 03: three players of Battle of the Dale by email.
/// Human resigns on turn 4 and is out; Elf and Goblin play on. When
/// Elf's turn is past the Deadline, Human's claim of its forfeit is
/// refused (exit 1, nothing written) naming that Human is out: a side
/// that resigned decides nothing; Goblin, still in, may claim.
#[test]
fn a_side_that_resigned_claims_nothing_in_battle_of_the_dale() {
    let root = tempfile::tempdir().unwrap();
    let names = ["Human", "Elf", "Goblin"];
    let dirs: Vec<PathBuf> = names
        .iter()
        .map(|n| {
            let d = root.path().join(n);
            std::fs::create_dir(&d).unwrap();
            d
        })
        .collect();
    let send = |from: usize, name: &str| {
        for (i, d) in dirs.iter().enumerate() {
            if i != from {
                std::fs::copy(dirs[from].join(name), d.join(name)).unwrap();
            }
        }
    };
    let step = |who: usize, day: &str, args: &[&str]| {
        let (out, err, code) = on_day(&dirs[who], day, args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
    };
    step(
        0,
        PLAY_DAY,
        &[
            "new",
            "battle-of-the-dale",
            "--side",
            "Human=ann@example.org",
            "--side",
            "Elf=bob@example.org",
            "--side",
            "Goblin=cat@example.org",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "1.eml",
        ],
    );
    send(0, "1.eml");
    step(
        1,
        PLAY_DAY,
        &[
            "keygen", "--side", "Elf", "1.eml", "--key", "my.key", "--reply", "-o", "2.eml",
        ],
    );
    send(1, "2.eml");
    step(
        2,
        PLAY_DAY,
        &[
            "keygen", "--side", "Goblin", "2.eml", "--key", "my.key", "--reply", "-o", "3.eml",
        ],
    );
    send(2, "3.eml");
    for (who, (on, turn, out)) in [
        ("3.eml", "R@A1", "4.eml"),
        ("4.eml", "R@E1", "5.eml"),
        ("5.eml", "R@C1", "6.eml"),
        ("6.eml", "resign", "7.eml"),
    ]
    .into_iter()
    .enumerate()
    {
        let who = who % 3;
        step(
            who,
            PLAY_DAY,
            &["move", on, turn, "--key", "my.key", "--reply", "-o", out],
        );
        send(who, out);
    }
    let claim = [
        "move",
        "7.eml",
        "--forfeit",
        "--key",
        "my.key",
        "--reply",
        "-o",
        "f.eml",
    ];
    let (_, err, code) = on_day(&dirs[0], CLAIM_DAY, &claim);
    assert_eq!(code, 1, "{err}");
    assert!(!dirs[0].join("f.eml").exists(), "nothing written");
    let words = err.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("Human is out of the game (it resigned or was eliminated): only a side still playing claims a forfeit in play"), "{words}");
    // Goblin, still in, may claim Elf's forfeit.
    let (out, err, code) = on_day(&dirs[2], CLAIM_DAY, &claim);
    assert_eq!(code, 0, "{out}{err}");
    let (out, err, code) = on_day(&dirs[2], CLAIM_DAY, &["check", "f.eml"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Elf forfeited (claimed by Goblin on turn 5)"),
        "{out}"
    );
}
