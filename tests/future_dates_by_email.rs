//! Lines from the future (spec section 3.8, "Deadlines and dates"): a
//! forfeit claim is accepted only when the claimed side's step has been
//! due longer than the game's Deadline by the signed dates, and those
//! dates are the claimant's to write. A claim dated more than a day after
//! the reader's today (its computer's clock, `HERALD_TODAY` in tests) is
//! refused by every reader as a line from the future, naming the turn,
//! its date and the reader's; the same claim is read once the reader's
//! today reaches it. Castle Danger by .eml messages, one directory and
//! one key file a player.

mod common;
use common::{herald, mail, run};

use std::path::Path;

use serde_json::Value;

/// The day of Blue's turn 1.
const PLAY_DAY: &str = "2026-11-01";
/// Blue's claim of Red's forfeit: 15 days on, past the Deadline of 14.
const CLAIM_DAY: &str = "2026-11-16";
/// Red's today when the claim comes: a day after turn 1, two weeks
/// before the claim's date.
const EARLY: &str = "2026-11-02";
/// The day before the claim's date: a day ahead is someone's today.
const EVE: &str = "2026-11-15";

/// Castle Danger by email up to Blue's claim of Red's forfeit on turn 2,
/// dated `CLAIM_DAY` by Blue's clock (`claim.eml`, in both directories;
/// Red never answered turn 1, `c3.eml`).
fn claimed() -> common::Players {
    let players = common::castle_danger_claimed(1, PLAY_DAY, CLAIM_DAY, "claim.eml");
    mail(&players.blue, &players.red, "claim.eml");
    players
}

/// `herald ARGS` in `dir` on `day` (`HERALD_TODAY`): exit code, standard
/// output and standard error.
fn on(dir: &Path, day: &str, args: &[&str]) -> (i32, String, String) {
    let out = herald(dir)
        .env("HERALD_TODAY", day)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// What a reader on `EARLY` is told of the claim.
fn from_the_future(err: &str) {
    assert!(
        err.contains(&format!(
            "turn 2 (Red): this claim is dated {CLAIM_DAY}, more than a day after today ({EARLY}) by this computer's clock"
        )),
        "{err}"
    );
    assert!(
        err.contains("a line from the future")
            && err.contains("the claimant's clock or this computer's is wrong: if this computer's date is right (date -u), the claim is read from 2026-11-15 on, and Red may answer the record before it meanwhile, which voids it"),
        "{err}"
    );
}

/// `check` on the day after turn 1 refuses the claim dated two weeks
/// ahead (exit 1), and reads it on the eve of its date.
#[test]
fn a_claim_dated_in_the_future_is_refused_by_check_until_the_readers_today_reaches_it() {
    let p = claimed();
    let (code, _, err) = on(&p.red, EARLY, &["check", "claim.eml"]);
    assert_eq!(code, 1, "{err}");
    from_the_future(&err);
    let (code, out, err) = on(&p.red, EARLY, &["check", "claim.eml", "--format", "json"]);
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ok"], false);
    let (code, out, err) = on(&p.red, EVE, &["check", "claim.eml"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Red forfeited (claimed by Blue on turn 2), provisional"),
        "{out}"
    );
}

/// Red's `move` on the claim, the day after turn 1, is refused (exit 1),
/// nothing written, its key file as it was; on the eve of the claim's
/// date Red's turn is taken and voids the claim.
#[test]
fn a_claim_dated_in_the_future_is_refused_by_move_until_the_readers_today_reaches_it() {
    let p = claimed();
    let key = std::fs::read(p.red.join("my.key")).unwrap();
    let answer = [
        "move",
        "claim.eml",
        "Kc9-b9",
        "--key",
        "my.key",
        "--reply",
        "-o",
        "c4.eml",
    ];
    let (code, _, err) = on(&p.red, EARLY, &answer);
    assert_eq!(code, 1, "{err}");
    from_the_future(&err);
    assert!(!p.red.join("c4.eml").exists());
    assert_eq!(std::fs::read(p.red.join("my.key")).unwrap(), key);
    let (code, out, err) = on(&p.red, EVE, &answer);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("answers Blue's claim on turn 2, which it voids"),
        "{out}"
    );
}

/// Red's `inbox` the day after turn 1 lists the claim's message among
/// those not taken (exit 1) with the reason; on the eve of its date it
/// takes it, Red's answer due.
#[test]
fn a_claim_dated_in_the_future_is_refused_by_inbox_until_the_readers_today_reaches_it() {
    let p = claimed();
    let inbox = |day: &str, state: &str| {
        let maildir = p.red.join(format!("mail-{state}"));
        for sub in ["cur", "new", "tmp"] {
            std::fs::create_dir_all(maildir.join(sub)).unwrap();
        }
        std::fs::copy(p.red.join("claim.eml"), maildir.join("new").join("1.eml")).unwrap();
        let config = p.red.join(format!("config-{state}.toml"));
        std::fs::write(
            &config,
            format!(
                "sendmail = \"/bin/true\"\nmaildir = \"{}\"\n[account]\naddress = \"bob@example.org\"\n",
                maildir.display()
            ),
        )
        .unwrap();
        let out = herald(&p.red)
            .env("HERALD_TODAY", day)
            .env("HERALD_CONFIG", &config)
            .env("HERALD_STATE_DIR", p.red.join(format!("state-{state}")))
            .args(["inbox", "--format", "json"])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code().unwrap(), v)
    };
    let (code, v) = inbox(EARLY, "early");
    assert_eq!(code, 1, "{v:#}");
    let rejected = v["rejected"].as_array().unwrap();
    assert_eq!(rejected.len(), 1, "{v:#}");
    from_the_future(rejected[0]["verdict"].as_str().unwrap());
    let (code, v) = inbox(EVE, "eve");
    assert_eq!(code, 0, "{v:#}");
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{v:#}");
    assert_eq!(games[0]["due"], serde_json::json!(["Red"]), "{v:#}");
}

/// `record` with its claim line `3. Blue: forfeit claimed by Red` dated
/// `day` and signed again with the claimant's key file `key` over the
/// line as it then stands (spec section 3.8), `before` the record digest
/// before the line (as `check` prints it): what a claimant who re-dated
/// its own claim would send.
fn claim_redated(record: &str, day: &str, key: &Path, before: &str) -> String {
    let head = "\n3. Blue: forfeit claimed by Red\n";
    let at = record.find(head).unwrap() + head.len();
    let rest = &record[at..];
    let old_date = rest.lines().next().unwrap();
    assert!(old_date.trim_start().starts_with("date "), "{rest}");
    let sig_lines: Vec<&str> = rest.lines().skip(1).take(2).collect();
    assert!(sig_lines[0].trim_start().starts_with("sig "), "{rest}");
    // Under [Protocol "3"] the game id leaves the Commit and Key tags out.
    assert!(record.contains("[Protocol \"3\"]"), "{record}");
    // The claim's text as the seal covers it: its ending, then its date.
    let text = format!("forfeit claimed by Red\ndate {day}");
    let sig = common::seal_hex(
        record,
        herald::fairness::SealedKind::Turn,
        3,
        "Blue",
        &text,
        before,
        key,
    );
    format!(
        "{}    date {day}\n    sig {}\n    {}\n",
        &record[..at],
        &sig[..64],
        &sig[64..]
    )
}

/// Dates go forward: a claim dated before the line before it is refused
/// by every reader, even signed again by its own claimant (whose seal
/// then holds): at its date, naming the line and both dates. Red's
/// claim of Blue's turn 3 (turns 1 and 2 dated 2026-11-01) re-dated
/// 2026-10-31.
#[test]
fn a_signed_claim_dated_before_the_line_before_it_is_refused_by_every_reader() {
    let p = common::castle_danger_claimed(2, PLAY_DAY, CLAIM_DAY, "f.eml");
    let red = &p.red;
    let record = run(red, &["extract", "f.eml"]);
    let checked = run(red, &["check", "c4.eml"]);
    let before = checked
        .lines()
        .find_map(|l| l.strip_prefix("Digest: "))
        .unwrap()
        .trim();
    let forged = claim_redated(&record, "2026-10-31", &red.join("my.key"), before);
    assert!(forged.contains("    date 2026-10-31\n"), "{forged}");
    // The same claim signed again at its own date reads: the seal is
    // made as herald makes it.
    let resigned = claim_redated(&record, CLAIM_DAY, &red.join("my.key"), before);
    std::fs::write(p.blue.join("resigned.pbem"), &resigned).unwrap();
    let (code, out, err) = on(&p.blue, CLAIM_DAY, &["check", "resigned.pbem"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Blue forfeited (claimed by Red on turn 3)"),
        "{out}"
    );
    std::fs::write(p.blue.join("forged.pbem"), &forged).unwrap();
    for args in [
        vec!["check", "forged.pbem"],
        vec!["show", "forged.pbem"],
        vec!["legal", "forged.pbem", "--key", "my.key"],
    ] {
        let (code, _, err) = on(&p.blue, CLAIM_DAY, &args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("turn 3 (Blue): this line is dated 2026-10-31, before the line before it (2026-11-01): lines are dated in order"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("signature"), "{args:?}: {err}");
    }
}
