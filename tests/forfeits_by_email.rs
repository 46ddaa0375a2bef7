//! Forfeits by email, through the real binary (spec section 3.8): Blue and
//! Red of Playground Battles each in their own directory with their own
//! key file, the record mailed by copying it, forfeits claimed with
//! `move --forfeit --key ... --reply -o OUT.eml`. A claim can never give
//! the game to the side that lost on the board, never decides a game its
//! target is still answering (the target's own next line voids it), reads
//! "forfeited (claimed by ...)" and never "resigned", and its message goes
//! from the claimant. Walking away during the set-up is a forfeit too.

mod common;
use common::{herald, json, run};

use std::cell::Cell;
use std::path::{Path, PathBuf};

use serde_json::Value;

const BLUE_ARMY: &str = "RRRRPPPSSS";
const RED_ARMY: &str = "SSSPPPRRRR";
/// Paper beats Rock on t1: Blue moves first.
const BLUE_THROWS: &str = "PPPPPPPPPPPP";
const RED_THROWS: &str = "RRRRRRRRRRRR";
/// The day the lines before a claim are dated (`--date`).
const PLAY_DAY: &str = "2026-11-01";
/// The day of a claim: 15 days on, past the default Deadline of 14.
const CLAIM_DAY: &str = "2026-11-16";

struct Table {
    _root: tempfile::TempDir,
    blue: PathBuf,
    red: PathBuf,
    /// The day lines are dated now.
    day: Cell<&'static str>,
}

fn mail(from: &Path, to: &Path) {
    std::fs::copy(from.join("game.pbem"), to.join("game.pbem")).unwrap();
}

/// The day the players read on (`HERALD_TODAY`): after every day these
/// tests date a line, as a reader refuses a claim from its future.
const READ_DAY: &str = "2026-12-31";

/// `herald ARGS` in `dir` on `READ_DAY`, which must succeed: its output.
fn read(dir: &Path, args: &[&str]) -> String {
    let out = herald(dir)
        .env("HERALD_TODAY", READ_DAY)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "herald {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn status(dir: &Path) -> Value {
    serde_json::from_str(&read(dir, &["check", "game.pbem", "--format", "json"])).unwrap()
}

fn text(dir: &Path) -> String {
    read(dir, &["check", "game.pbem"])
}

impl Table {
    /// `new` and both keys, the record with both players.
    fn keyed() -> Table {
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
            day: Cell::new(PLAY_DAY),
        }
    }

    /// Both commitments and Blue's openings: S4, Red's openings, due.
    fn to_s4() -> Table {
        let t = Table::keyed();
        t.setup(&t.blue, &["--army", BLUE_ARMY, "--throws", BLUE_THROWS]);
        mail(&t.blue, &t.red);
        t.setup(&t.red, &["--army", RED_ARMY, "--throws", RED_THROWS]);
        mail(&t.red, &t.blue);
        t.setup(&t.blue, &[]);
        mail(&t.blue, &t.red);
        t
    }

    /// The whole set-up: turn 1, Blue's, due.
    fn set_up() -> Table {
        let t = Table::to_s4();
        t.setup(&t.red, &[]);
        mail(&t.red, &t.blue);
        assert_eq!(status(&t.blue)["step"]["line"], "turn 1");
        t
    }

    fn setup(&self, dir: &Path, choices: &[&str]) {
        let mut args = vec![
            "setup",
            "game.pbem",
            "--key",
            "my.key",
            "--date",
            self.day.get(),
        ];
        args.extend_from_slice(choices);
        run(dir, &args);
    }

    /// `move` in `dir` with `args`, then the record mailed to the other.
    fn play(&self, dir: &Path, args: &[&str]) -> String {
        let mut all = vec!["move", "game.pbem"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--key", "my.key", "--date", self.day.get()]);
        let out = run(dir, &all);
        let other = if dir == self.blue {
            &self.red
        } else {
            &self.blue
        };
        mail(dir, other);
        out
    }

    /// A claim by the player in `dir`, with its reply message `name`:
    /// the message's text.
    fn claim(&self, dir: &Path, name: &str) -> String {
        self.day.set(CLAIM_DAY);
        run(
            dir,
            &[
                "move",
                "game.pbem",
                "--forfeit",
                "--key",
                "my.key",
                "--date",
                CLAIM_DAY,
                "--reply",
                "-o",
                name,
            ],
        );
        let other = if dir == self.blue {
            &self.red
        } else {
            &self.blue
        };
        mail(dir, other);
        std::fs::read_to_string(dir.join(name)).unwrap()
    }

    /// A legal first action for the side to move, listed by `legal`.
    fn some_action(&self, dir: &Path) -> String {
        let legal: Value = serde_json::from_str(&read(
            dir,
            &["legal", "game.pbem", "--key", "my.key", "--format", "json"],
        ))
        .unwrap();
        legal["actions"][0]["action"].as_str().unwrap().to_owned()
    }
}

/// The header `name` of `message`, unfolded (a long header goes on over
/// lines that begin with a space).
fn header(message: &str, name: &str) -> String {
    let mut lines = message
        .lines()
        .skip_while(|l| !l.starts_with(&format!("{name}: ")));
    let mut value = lines
        .next()
        .unwrap_or_else(|| panic!("no {name} header in {message}"))[name.len() + 2..]
        .to_owned();
    for more in lines.take_while(|l| l.starts_with([' ', '\t'])) {
        value.push_str(more);
    }
    value
}

/// The abuse of issue 28: the side that resigned audits, then claims the
/// winner's forfeit of its audit at once. The claim can take the win
/// from a side that will not open (a draw while it stands), never give it
/// to the side that lost on the board; and the winner's own audit voids
/// it.
#[test]
fn a_claim_never_makes_the_side_that_lost_on_the_board_the_winner() {
    let t = Table::set_up();
    // Blue's resignation carries Blue's audit: Red's is due next.
    t.play(&t.blue, &["resign"]);
    let s = status(&t.red);
    assert_eq!(
        (s["phase"].as_str(), s["provisional"].as_str()),
        (Some("audit"), Some("Red"))
    );
    // Red's audit is due: `legal` says so, never "may only pass".
    let legal = run(&t.red, &["legal", "game.pbem"]);
    assert!(legal.contains("Red's closing line"), "{legal}");
    assert!(!legal.contains("may only pass"), "{legal}");
    assert_eq!(status(&t.blue)["step"]["step"], "audit");
    // Blue claims it at once.
    assert_eq!(status(&t.blue)["step"]["side"], "Red");
    t.claim(&t.blue, "claim.eml");
    let s = status(&t.red);
    assert_eq!(s["result"], "draw", "{s}");
    assert_ne!(s["result"], "Blue");
    let summary = s["summary"].as_str().unwrap();
    assert!(
        summary.contains("Red forfeited its audit (claimed by Blue on turn 3)"),
        "{summary}"
    );
    assert!(summary.contains("until Red answers"), "{summary}");
    // Red answers with its audit: the claim is void, Red's win stands.
    let out = t.play(&t.red, &["audit"]);
    assert!(
        out.contains("answers Blue's claim on turn 3, which it voids"),
        "{out}"
    );
    let s = status(&t.blue);
    assert_eq!(
        (s["phase"].as_str(), s["result"].as_str()),
        (Some("over"), Some("Red"))
    );
    assert_eq!(s["forfeits"], serde_json::json!([]));
    assert!(text(&t.blue).contains("Blue's claim on turn 3 was voided by Red's own next line"));
}

/// A claim in play reads as a forfeit, never a resignation, in `check`'s
/// text and JSON; its message goes from the claimant to the claimed
/// player.
#[test]
fn a_forfeit_reads_forfeited_and_its_message_goes_from_the_claimant() {
    let t = Table::set_up();
    let message = t.claim(&t.red, "claim.eml");
    assert_eq!(header(&message, "From"), "bob@example.org");
    assert_eq!(header(&message, "To"), "ann@example.org");
    let subject = header(&message, "Subject");
    assert!(
        subject.contains("Blue's forfeit claimed on turn 1"),
        "{subject}"
    );
    let s = status(&t.blue);
    let summary = s["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("Red won: Blue forfeited (claimed by Red on turn 1)"),
        "{summary}"
    );
    assert!(!summary.contains("resigned"), "{summary}");
    assert_eq!(s["forfeits"][0]["claimed_by"], "Red");
    assert_eq!(s["forfeits"][0]["line"], "turn 1");
    let check = text(&t.blue);
    assert!(
        check.contains("Blue forfeited (claimed by Red on turn 1)"),
        "{check}"
    );
    assert!(!check.contains("resigned"), "{check}");
}

/// The claimed side's own next line voids the claim: the turn it was
/// claimed on is played after all, and the game goes on.
#[test]
fn the_claimed_sides_own_next_line_voids_the_claim() {
    let t = Table::set_up();
    t.claim(&t.red, "claim.eml");
    let action = t.some_action(&t.blue);
    let out = t.play(&t.blue, &[&action]);
    assert!(
        out.contains("answers Red's claim on turn 1, which it voids"),
        "{out}"
    );
    let s = status(&t.red);
    assert_eq!(s["phase"], "play");
    assert_eq!(s["result"], "*");
    assert_eq!(s["turns"], 2);
    assert_eq!(s["forfeits"], serde_json::json!([]));
    assert_eq!(s["step"]["side"], "Red");
    // Red plays on from there; Blue's next turn voids nothing and says
    // nothing of the claim.
    let action = t.some_action(&t.red);
    t.play(&t.red, &[&action]);
    assert_eq!(status(&t.blue)["turns"], 3);
    let action = t.some_action(&t.blue);
    let out = t.play(&t.blue, &[&action]);
    assert!(!out.contains("claim"), "{out}");
    assert_eq!(status(&t.red)["turns"], 4);
}

/// A claim's target has the game's Deadline again to answer it: no other
/// line may follow the claim before then, the claimant's own included,
/// so a quick line of the claimant's never makes a claim stand while its
/// target may still be answering it (nor forks the game: the target's
/// late answer is still the only line that fits). Claim dated 2026-11-16,
/// Deadline 14 days: the first day another line may come is 2026-12-01.
#[test]
fn no_line_but_the_targets_answer_may_follow_a_claim_before_its_deadline() {
    let t = Table::set_up();
    t.claim(&t.red, "claim.eml");
    let before = std::fs::read_to_string(t.red.join("game.pbem")).unwrap();
    for day in [CLAIM_DAY, "2026-11-30"] {
        let out = herald(&t.red)
            .env("HERALD_TODAY", day)
            .args([
                "move",
                "game.pbem",
                "audit",
                "--key",
                "my.key",
                "--date",
                day,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{day}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("Blue may still answer the forfeit claimed on turn 1 (dated 2026-11-16): Blue's own next line voids the claim, and no other line may follow it before 2026-12-01"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(t.red.join("game.pbem")).unwrap(),
            before
        );
    }
    // Blue answers on the last day of its window: the claim is void.
    t.day.set("2026-11-30");
    let action = t.some_action(&t.blue);
    let out = t.play(&t.blue, &[&action]);
    assert!(
        out.contains("answers Red's claim on turn 1, which it voids"),
        "{out}"
    );
    let s = status(&t.red);
    assert_eq!(s["forfeits"], serde_json::json!([]), "{s}");
    assert_eq!(s["step"]["side"], "Red", "{s}");
}

/// After a claim, the readers say "forfeited (claimed by ...)", never
/// the resignation the board was given for it: `show`, `replay` and
/// `legal` of the claim's record.
#[test]
fn the_readers_say_a_forfeit_claim_is_a_forfeit_never_a_resignation() {
    let t = Table::set_up();
    t.claim(&t.red, "claim.eml");
    for args in [
        &["show", "game.pbem"][..],
        &["replay", "game.pbem"][..],
        &["legal", "game.pbem"][..],
        &["check", "game.pbem"][..],
    ] {
        let out = run(&t.red, args)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(!out.contains("resigned"), "{args:?}: {out}");
        if args[0] == "legal" {
            // The step due is the target's answer, and legal says so.
            assert!(
                out.starts_with("Turn 2, Blue: Red claimed Blue's forfeit on turn 1: Blue's own turn (turn 2) voids the claim"),
                "{out}"
            );
        } else {
            assert!(
                out.contains("Blue forfeited (claimed by Red"),
                "{args:?}: {out}"
            );
        }
    }
}

/// Walking away during the set-up is a forfeit like any other: Red, the
/// last to open, could see who moves first and stop answering; Blue
/// claims S4, and wins, until Red's own set-up line voids the claim.
#[test]
fn walking_away_at_setup_is_a_forfeit() {
    let t = Table::to_s4();
    assert_eq!(status(&t.blue)["step"]["line"], "S4");
    let message = t.claim(&t.blue, "claim.eml");
    assert_eq!(header(&message, "From"), "ann@example.org");
    let s = status(&t.red);
    assert_eq!(
        (s["phase"].as_str(), s["result"].as_str()),
        (Some("over"), Some("Blue"))
    );
    assert_eq!(s["forfeits"][0]["line"], "S4");
    let summary = s["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("Blue won: Red forfeited (claimed by Blue on S4)"),
        "{summary}"
    );
    // The claim ended the game: the claimant has nothing to write, and is
    // told that only Red's answer may follow.
    let out = herald(&t.blue)
        .args(["setup", "game.pbem", "--key", "my.key", "--date", CLAIM_DAY])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "Blue claimed Red's forfeit on S4, which ended the game: only Red's own set-up step (S5) may follow it, and it voids the claim (herald setup --key)"
        ),
        "{err}"
    );
    // Red answers after all with its openings, as S5.
    let out = run(
        &t.red,
        &["setup", "game.pbem", "--key", "my.key", "--date", CLAIM_DAY],
    );
    assert!(out.contains("S5. Red:"), "{out}");
    let s = status(&t.red);
    assert_eq!(
        (s["phase"].as_str(), s["result"].as_str()),
        (Some("play"), Some("*"))
    );
    assert_eq!(s["step"]["line"], "turn 1");
}

/// A claim answered by nobody stands once another line follows it: the
/// claimant's own audit after claiming the winner's makes the claim
/// final, and its result a draw, not a win for the claimant.
#[test]
fn a_claim_followed_by_another_line_stands_but_gives_the_claimant_no_win() {
    let t = Table::set_up();
    // Blue stops answering: Red claims its turn 1 past the deadline, and
    // then its audit (a claimant's line carries no audit of the side it
    // claims), then audits itself.
    let message = t.claim(&t.red, "claim.eml");
    let s = status(&t.red);
    assert_eq!(s["provisional"], "Red", "{s}");
    // What is due is Blue's answer, which voids the claim: its turn.
    assert_eq!(s["step"]["side"], "Blue", "{s}");
    assert_eq!(s["step"]["step"], "turn", "{s}");
    assert_eq!(
        s["step"]["text"],
        "Red claimed Blue's forfeit on turn 1: Blue's own turn (turn 2) voids the claim (herald move --key); no other line may follow the claim before 2026-12-01, and from then on the next line lets it stand"
    );
    assert_eq!(s["due"], serde_json::json!(["Blue"]), "{s}");
    let subject = header(&message, "Subject");
    assert!(subject.ends_with("Blue's own line voids it"), "{subject}");
    // The audit has its own deadline, from the claim's day.
    let later = "2026-12-01";
    // The claim's own deadline passed (Blue had until 2026-12-15 to
    // answer it): Red's audit then makes it stand.
    let last = "2026-12-16";
    for (args, day) in [
        (
            &["--forfeit", "--reply", "-o", "claim-audit.eml"][..],
            later,
        ),
        (&["audit"][..], last),
    ] {
        let mut all = vec!["move", "game.pbem"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--key", "my.key", "--date", day]);
        run(&t.red, &all);
    }
    mail(&t.red, &t.blue);
    let s = status(&t.blue);
    assert_eq!(
        (s["phase"].as_str(), s["result"].as_str()),
        (Some("over"), Some("Red"))
    );
    assert_eq!(s["forfeits"][1]["audit"], true, "{s}");
    // Blue's audit can no longer void a claim another line followed.
    let out = herald(&t.blue)
        .env("HERALD_TODAY", last)
        .args([
            "move",
            "game.pbem",
            "audit",
            "--key",
            "my.key",
            "--date",
            last,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the game is over"), "{err}");
}

/// A claim before the claimed side's step has been due longer than the
/// Deadline, by the signed dates, is refused, naming the day it may come;
/// nothing is written.
#[test]
fn a_claim_before_the_deadline_is_refused_naming_the_day_it_may_come() {
    let t = Table::set_up();
    let before = std::fs::read_to_string(t.red.join("game.pbem")).unwrap();
    for day in ["2026-11-01", "2026-11-15"] {
        let out = herald(&t.red)
            .args([
                "move",
                "game.pbem",
                "--forfeit",
                "--key",
                "my.key",
                "--date",
                day,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{day}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("Blue's step has been due since 2026-11-01"),
            "{err}"
        );
        assert!(err.contains("the game's Deadline is 14 days"), "{err}");
        assert!(err.contains("Red may claim from 2026-11-16 on"), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(t.red.join("game.pbem")).unwrap(),
        before
    );
    // On the day it may come, it is accepted.
    t.claim(&t.red, "claim.eml");
    assert_eq!(status(&t.blue)["forfeits"][0]["claimed_by"], "Red");
}

/// `new` writes the Deadline tag (`--deadline DAYS`, 14 by default) and
/// every line of such a game carries its date, covered by its signature:
/// a date changed in transit breaks the seal, and a date earlier than the
/// line before is refused.
#[test]
fn every_line_carries_a_signed_date_in_order() {
    let t = Table::set_up();
    let record = std::fs::read_to_string(t.blue.join("game.pbem")).unwrap();
    assert!(record.contains("[Deadline \"14\"]"), "{record}");
    assert_eq!(
        record.matches("\n    date 2026-11-01\n").count(),
        4,
        "{record}"
    );
    // A date moved back in transit: the signature no longer matches.
    let moved = record.replacen("date 2026-11-01", "date 2026-10-01", 1);
    std::fs::write(t.blue.join("game.pbem"), moved).unwrap();
    let error = common::refused(&t.blue);
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("signature"), "{message}");
    std::fs::write(t.blue.join("game.pbem"), &record).unwrap();
    // A line dated before the line before it is refused as it is written.
    let action = t.some_action(&t.blue);
    let out = herald(&t.blue)
        .args([
            "move",
            "game.pbem",
            &action,
            "--key",
            "my.key",
            "--date",
            "2026-10-31",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("before the last line's date 2026-11-01"),
        "{err}"
    );
    let root = tempfile::tempdir().unwrap();
    run(
        root.path(),
        &[
            "new",
            "--protocol",
            "2",
            "castle-danger",
            "--side",
            "Blue=a@x",
            "--side",
            "Red=b@x",
            "--deadline",
            "3",
            "-o",
            "g.pbem",
        ],
    );
    let text = std::fs::read_to_string(root.path().join("g.pbem")).unwrap();
    assert!(text.contains("[Deadline \"3\"]"), "{text}");
}

/// Before any dated line nothing shows how long a step has been due: a
/// claim on the first line is refused, naming why.
#[test]
fn a_claim_before_any_dated_line_is_refused() {
    let t = Table::keyed();
    let out = herald(&t.red)
        .env("HERALD_TODAY", "2030-01-01")
        .args([
            "move",
            "game.pbem",
            "--forfeit",
            "--key",
            "my.key",
            "--date",
            "2030-01-01",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no line of this game is dated yet"), "{err}");
    assert!(
        err.contains("Red may claim only after a dated line"),
        "{err}"
    );
}

/// A player that conceded a claim by auditing on it cannot then answer
/// the same claim with a turn, voiding it: that would answer the game a
/// second way. Its audit again, on the same claim, is no second answer.
#[test]
fn a_side_that_audited_on_a_claim_cannot_then_void_it_with_a_turn() {
    let t = Table::set_up();
    let legal = json(
        &t.blue,
        &["legal", "game.pbem", "--key", "my.key", "--format", "json"],
    );
    let turn = legal["actions"][0]["action"].as_str().unwrap().to_owned();
    t.claim(&t.red, "claim.eml");
    std::fs::copy(t.red.join("claim.eml"), t.blue.join("claim.eml")).unwrap();
    run(
        &t.blue,
        &[
            "move",
            "claim.eml",
            "audit",
            "--key",
            "my.key",
            "--date",
            CLAIM_DAY,
            "--reply",
            "-o",
            "audit.eml",
        ],
    );
    // Red audits on its copy of the claim, once Blue's time to answer
    // it has passed (the claim's Deadline again); Blue writes its audit
    // again on that copy, which lacks it.
    t.day.set("2026-12-01");
    t.play(&t.red, &["audit"]);
    run(
        &t.blue,
        &[
            "move",
            "game.pbem",
            "audit",
            "--key",
            "my.key",
            "--date",
            "2026-12-01",
        ],
    );
    // Then the claim message once more, answered with a turn.
    let key = std::fs::read(t.blue.join("my.key")).unwrap();
    let out = herald(&t.blue)
        .args([
            "move",
            "claim.eml",
            &turn,
            "--key",
            "my.key",
            "--date",
            CLAIM_DAY,
            "--reply",
            "-o",
            "void.eml",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("you already wrote your turn 3 once this game's play was over (an audit or a claim): from you only a closing line may follow on it"),
        "{err}"
    );
    assert!(!t.blue.join("void.eml").exists());
    assert_eq!(std::fs::read(t.blue.join("my.key")).unwrap(), key);
}

/// The deadline counts by the signed dates, which the claimant writes: a
/// claim dated more than a day ahead of the reader's clock is refused
/// (exit 1) as a line from the future, naming its date and today; a
/// line dated ahead that lets no claim stand (Blue's turn) is read, and
/// `check` warns that the last line is dated after today, with what that
/// means.
#[test]
fn a_claim_dated_ahead_of_the_clock_is_refused_and_a_turn_gets_a_warning_from_check() {
    let t = Table::set_up();
    let record = std::fs::read(t.red.join("game.pbem")).unwrap();
    run(
        &t.red,
        &[
            "move",
            "game.pbem",
            "--forfeit",
            "--key",
            "my.key",
            "--date",
            "2999-01-01",
        ],
    );
    let out = herald(&t.red)
        .env("HERALD_TODAY", "2026-11-02")
        .args(["check", "game.pbem"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("this claim is dated 2999-01-01, more than a day after today (2026-11-02) by this computer's clock: a line from the future"),
        "{err}"
    );
    // Blue's turn dated ahead lets no claim stand: read, with a warning.
    std::fs::write(t.blue.join("game.pbem"), &record).unwrap();
    let action = t.some_action(&t.blue);
    run(
        &t.blue,
        &[
            "move",
            "game.pbem",
            &action,
            "--key",
            "my.key",
            "--date",
            "2999-01-01",
        ],
    );
    let out = herald(&t.blue)
        .env("HERALD_TODAY", "2026-11-02")
        .args(["check", "game.pbem"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the last line is dated 2999-01-01, after today (2026-11-02)")
            && err.contains("by this computer's clock")
            && err.contains(
                "a forfeit claimed by a line dated ahead claims time that has not passed"
            ),
        "{err}"
    );
    // A record dated up to today gets no such warning.
    std::fs::write(t.blue.join("game.pbem"), &record).unwrap();
    let out = herald(&t.blue)
        .env("HERALD_TODAY", "2026-11-02")
        .args(["check", "game.pbem"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("after today"), "{err}");
}

/// A line is dated the day it is written: `--date` ahead of the clock by
/// more than a day is refused (exit 2), nothing written, the key file as
/// it was; a day ahead is taken (the players' time zones).
#[test]
fn a_line_dated_ahead_of_the_clock_is_refused_and_nothing_is_written() {
    let t = Table::set_up();
    let action = t.some_action(&t.blue);
    let (record, key) = (
        std::fs::read(t.blue.join("game.pbem")).unwrap(),
        std::fs::read(t.blue.join("my.key")).unwrap(),
    );
    let out = herald(&t.blue)
        .env("HERALD_TODAY", "2026-11-02")
        .args(["move", "game.pbem", &action, "--key", "my.key"])
        .args(["--date", "2026-11-04"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--date 2026-11-04 is after today (2026-11-02) by this computer's clock: a line is dated the day it is written, never ahead"),
        "{err}"
    );
    assert_eq!(std::fs::read(t.blue.join("game.pbem")).unwrap(), record);
    assert_eq!(std::fs::read(t.blue.join("my.key")).unwrap(), key);
    // One day ahead is someone's today somewhere.
    herald(&t.blue)
        .env("HERALD_TODAY", "2026-11-02")
        .args(["move", "game.pbem", &action, "--key", "my.key"])
        .args(["--date", "2026-11-03"])
        .assert()
        .success();
}

/// A claim dated a day ahead of the target's clock (someone's today,
/// somewhere) never sticks the game: the target's answer, written
/// without `--date`, is dated the claim's day (a line never goes before
/// the one it follows) and voids the claim.
#[test]
fn a_claim_dated_ahead_of_the_targets_clock_is_answered_on_its_own_day() {
    let t = Table::set_up();
    t.claim(&t.red, "claim.eml");
    let action = t.some_action(&t.blue);
    let out = herald(&t.blue)
        .env("HERALD_TODAY", "2026-11-15")
        .args(["move", "game.pbem", &action, "--key", "my.key"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains(&format!("    date {CLAIM_DAY}\n")), "{said}");
    assert!(
        said.contains("answers Red's claim on turn 1, which it voids"),
        "{said}"
    );
    let s = status(&t.blue);
    assert_eq!(
        (s["phase"].as_str(), s["turns"].as_u64()),
        (Some("play"), Some(2))
    );
}

/// A `HERALD_TODAY` that is no day is never dropped in silence: `check`
/// still gives its verdict and warns that the dates were not compared
/// with today; a writer refuses it (exit 2).
#[test]
fn a_herald_today_that_is_no_day_is_named_by_readers_and_refused_by_writers() {
    let t = Table::set_up();
    let out = herald(&t.blue)
        .env("HERALD_TODAY", "2026-13-01")
        .args(["check", "game.pbem"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("HERALD_TODAY=2026-13-01: a date is a day that exists")
            && err.contains("the dates were not compared with today"),
        "{err}"
    );
    let action = t.some_action(&t.blue);
    let out = herald(&t.blue)
        .env("HERALD_TODAY", "2026-13-01")
        .args(["move", "game.pbem", &action, "--key", "my.key"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Red commits (S2) late, and Blue, past the deadline, claims Red's
/// forfeit of S2 on the same record at the same time: the messages cross.
/// Red's S2 answers the record the claim was written on, so the claim
/// never stood: Red, given the claim, cannot commit again with other
/// choices (two signed commitments would let Blue open against the one it
/// likes), and `setup --reply` on the claim writes Red's S2 message again,
/// the claim left out. Blue, given Red's S2, goes on from it.
#[test]
fn a_setup_line_and_a_claim_that_cross_in_the_mail_fork_nothing() {
    let t = Table::keyed();
    t.setup(&t.blue, &["--army", BLUE_ARMY, "--throws", BLUE_THROWS]);
    mail(&t.blue, &t.red);
    // Red's S2, late, in a message; at the same time Blue's claim of it.
    t.day.set(CLAIM_DAY);
    let red_s2 = [
        "setup",
        "game.pbem",
        "--key",
        "my.key",
        "--date",
        CLAIM_DAY,
        "--army",
        RED_ARMY,
        "--throws",
        RED_THROWS,
        "--reply",
        "-o",
        "s2.eml",
    ];
    run(&t.red, &red_s2);
    let before = std::fs::read_to_string(t.blue.join("game.pbem")).unwrap();
    assert!(!before.contains("forfeit claimed"));
    t.claim(&t.blue, "claim.eml");
    std::fs::copy(t.blue.join("claim.eml"), t.red.join("claim.eml")).unwrap();
    // Red, given the claim: other choices are a second answer.
    let fork = herald(&t.red)
        .args([
            "setup",
            "claim.eml",
            "--key",
            "my.key",
            "--date",
            CLAIM_DAY,
            "--army",
            BLUE_ARMY,
            "--throws",
            BLUE_THROWS,
            "--reply",
            "-o",
            "fork.eml",
        ])
        .output()
        .unwrap();
    assert_eq!(fork.status.code(), Some(1));
    let why = String::from_utf8_lossy(&fork.stderr);
    assert!(
        why.contains("your set-up line S2 (`S2. Red:`)")
            && why.contains("crossed Blue's claim of your forfeit in the mail")
            && why.contains("so the claim never stood, and Blue goes on from your set-up line S2")
            && why.contains(
                "resend s2.eml, or write that message again with herald setup claim.eml --key my.key --reply -o NEW.eml"
            ),
        "{why}"
    );
    assert!(!t.red.join("fork.eml").exists());
    // As the refusal says: S2's message again, the same record.
    let again = run(
        &t.red,
        &[
            "setup",
            "claim.eml",
            "--key",
            "my.key",
            "--date",
            CLAIM_DAY,
            "--reply",
            "-o",
            "again.eml",
        ],
    );
    assert!(
        again.contains("this is your set-up line S2 again"),
        "{again}"
    );
    let extract = |name: &str| run(&t.red, &["extract", name]);
    let first = extract("s2.eml");
    assert!(first.contains("\nS2. Red:\n"), "{first}");
    assert!(!first.contains("forfeit claimed"), "{first}");
    assert_eq!(extract("again.eml"), first);
    // Blue, given Red's S2, goes on from it: its openings, S3.
    std::fs::copy(t.red.join("s2.eml"), t.blue.join("s2.eml")).unwrap();
    let out = herald(&t.blue)
        .args([
            "setup", "s2.eml", "--key", "my.key", "--date", CLAIM_DAY, "--reply", "-o", "s3.eml",
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    // Blue's last line is its claim, S2 of its copy.
    assert!(
        said.contains(
            "your forfeit claim on set-up line S2 crossed its target's own line in the mail"
        ),
        "{said}"
    );
    let s3 = run(&t.blue, &["extract", "s3.eml"]);
    assert!(s3.contains("\nS3. Blue:"), "{s3}");
    assert!(!s3.contains("forfeit claimed"), "{s3}");
}

/// The claimant, whose claim waits for its target's answer, types a turn:
/// refused, and told what is due now (the target's answer, and when the
/// claim stands), never pointed at an audit that is refused too before
/// the claim's deadline.
#[test]
fn a_claimant_typing_a_turn_is_told_the_claims_answer_is_due() {
    let t = Table::set_up();
    t.claim(&t.red, "claim.eml");
    let out = herald(&t.red)
        .env("HERALD_TODAY", CLAIM_DAY)
        .args([
            "move",
            "game.pbem",
            "pass",
            "--key",
            "my.key",
            "--date",
            CLAIM_DAY,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr).replace("\n  ", " ");
    assert!(
        err.contains("from you only a closing line may follow on it (once the claim is answered or stands: Red claimed Blue's forfeit on turn 1: Blue's own turn (turn 2) voids the claim"),
        "{err}"
    );
    assert!(!err.contains("audit --key"), "{err}");
}

/// `pass` typed when the line due from the player is its audit (the
/// game is over) is written as that audit, and the player is told so
/// (review round 5).
#[test]
fn pass_typed_when_the_audit_is_due_is_written_as_the_audit_and_said_so() {
    let t = Table::set_up();
    // Blue's resignation carries Blue's audit: Red's is due next.
    t.play(&t.blue, &["resign"]);
    let out = t.play(&t.red, &["pass"]);
    assert!(
        out.contains("the game is over, so the line due from you is your audit: `pass` was written as `audit`"),
        "{out}"
    );
    let s = status(&t.blue);
    assert_eq!(
        (s["phase"].as_str(), s["result"].as_str()),
        (Some("over"), Some("Red")),
        "{s}"
    );
}

/// Review round 6, 02: Castle Danger by email; Blue stops answering and
/// Red claims its forfeit past the Deadline. `annotate` comments the
/// claim line as the forfeit it is, never "Blue resigned" nor as moves
/// left unspent, and `show --format json` says it in its summary and,
/// beside `position` (the engine's notation, whose result still reads
/// `Red:resignation`), in `ended_by`: a forfeit of Blue's claimed by Red
/// on turn 3 (null before the claim).
#[test]
fn annotate_and_show_say_a_forfeit_claim_is_a_forfeit_never_a_resignation() {
    let p = common::castle_danger_claimed(2, PLAY_DAY, CLAIM_DAY, "f.eml");
    let red = &p.red;
    let words = |text: String| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let annotated = words(run(red, &["annotate", "f.eml", "-o", "-"]));
    assert!(!annotated.contains("resigned"), "{annotated}");
    assert!(
        annotated.contains("{Red won: Blue forfeited (claimed by Red on turn 3)"),
        "{annotated}"
    );
    let shown = json(red, &["show", "f.eml", "--format", "json"]);
    let summary = shown["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("Red won: Blue forfeited (claimed by Red on turn 3)"),
        "{summary}"
    );
    let position = shown["position"].as_str().unwrap();
    assert!(position.ends_with(" Red:resignation"), "{position}");
    assert_eq!(
        shown["ended_by"],
        serde_json::json!({"kind": "forfeit", "side": "Blue", "claimed_by": "Red", "line": "turn 3"}),
        "{shown}"
    );
    let before = json(red, &["show", "c4.eml", "--format", "json"]);
    assert_eq!(before["ended_by"], Value::Null, "{before}");
}

/// Review round 6, 14: a Deadline is at least a day, so a claim never
/// comes the day its step became due nor on the claimant's own message:
/// `new --deadline 0` is refused (exit 2), a record whose Deadline tag
/// says 0 is refused by `check` at the tag's value (exit 1), and `check`
/// tells every player, the one who joins first, what the Deadline is.
#[test]
fn a_deadline_is_at_least_a_day_and_check_tells_every_player() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path();
    let new = |days: &str| {
        vec![
            "new",
            "castle-danger",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "--deadline",
            days,
            "-o",
            "g.pbem",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>()
    };
    let zero = new("0");
    let zero: Vec<&str> = zero.iter().map(String::as_str).collect();
    let err = common::fails(dir, &zero, 2);
    assert!(err.contains("0 is not in 1..=3650"), "{err}");
    assert!(!dir.join("g.pbem").exists());
    let one = new("1");
    let one: Vec<&str> = one.iter().map(String::as_str).collect();
    run(dir, &one);
    let said = run(dir, &["check", "g.pbem"]);
    assert!(said.lines().all(|l| l.chars().count() <= 78), "{said}");
    let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        said.contains("Deadline: 1 day: a side whose step is due longer may be claimed to have forfeited (herald move RECORD --forfeit --key KEY)"),
        "{said}"
    );
    let text = std::fs::read_to_string(dir.join("g.pbem")).unwrap();
    let edited = text.replace("[Deadline \"1\"]", "[Deadline \"0\"]");
    assert_ne!(edited, text);
    std::fs::write(dir.join("g.pbem"), edited).unwrap();
    let err = common::fails(dir, &["check", "g.pbem"], 1);
    assert!(
        err.contains("Deadline is a number of days from 1 to 3650 (herald new --deadline DAYS): a player has at least a day to answer before a forfeit may be claimed"),
        "{err}"
    );
}
