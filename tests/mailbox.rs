//! Playing from the mailbox (docs/mailbox.md): `herald config check`,
//! `move --reply --send`, `herald send`, `herald inbox` and `move
//! GAME-ID`, through the real binary, one directory, one key file, one
//! configuration and one state folder per player.
//!
//! `a_game_is_played_through_real_mail_servers` uses Debian's postfix
//! and dovecot on loopback, set up by `tools/mail-servers.sh` (as
//! `.ci/run` does). When they are not running it starts them if it can;
//! if they still do not answer it FAILS when the environment variable CI
//! is set, and otherwise prints why and returns without checking
//! anything. The other tests need no server: they read a Maildir folder
//! made here and send with a sendmail program written here.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{herald, run};
use serde_json::Value;

/// One player: a folder, a key file, a configuration, a state folder.
struct Player {
    dir: PathBuf,
}

impl Player {
    fn new(root: &Path, name: &str, config: &str) -> Player {
        let dir = root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), config).unwrap();
        Player { dir }
    }

    /// `herald ARGS` as this player: its configuration and state folder.
    fn herald(&self, args: &[&str]) -> std::process::Output {
        herald(&self.dir)
            .env("HERALD_CONFIG", self.dir.join("config.toml"))
            .env("HERALD_STATE_DIR", self.dir.join("state"))
            .args(args)
            .output()
            .unwrap()
    }

    /// `herald ARGS`, which must succeed: its standard output.
    fn ok(&self, args: &[&str]) -> String {
        let out = self.herald(args);
        assert!(
            out.status.success(),
            "herald {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// `herald inbox --format json`, its exit code and JSON.
    fn inbox(&self) -> (i32, Value) {
        let out = self.herald(&["inbox", "--format", "json"]);
        let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            panic!(
                "inbox: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (out.status.code().unwrap(), json)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

/// A castle-danger game between ann@herald.test (Blue) and
/// bob@herald.test (Red), both keys added: `game.pbem` and `blue.key`
/// in Ann's folder, `game.pbem` and `red.key` in Bob's.
fn start_game(ann: &Player, bob: &Player) {
    run(
        &ann.dir,
        &[
            "new",
            "castle-danger",
            "--side",
            "Blue=ann@herald.test",
            "--side",
            "Red=Bob <bob@herald.test>",
            "-o",
            "game.pbem",
        ],
    );
    run(
        &ann.dir,
        &["keygen", "--side", "Blue", "game.pbem", "-o", "blue.key"],
    );
    std::fs::copy(ann.path("game.pbem"), bob.path("game.pbem")).unwrap();
    run(
        &bob.dir,
        &["keygen", "--side", "Red", "game.pbem", "-o", "red.key"],
    );
    std::fs::copy(bob.path("game.pbem"), ann.path("game.pbem")).unwrap();
}

/// The one game in an inbox's JSON.
fn only_game(json: &Value) -> &Value {
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{json:#}");
    &games[0]
}

// ---------------------------------------------------------------- no server

/// A sendmail program that files each message it is given into a
/// Maildir's new/ (the envelope arguments kept beside it).
fn fake_sendmail(dir: &Path, maildir: &Path) -> PathBuf {
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    let script = dir.join("sendmail");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nn=$(date +%s%N)\necho \"$@\" > {m}/args.$n\ncat > {m}/tmp/$n.herald && mv {m}/tmp/$n.herald {m}/new/$n.herald\n",
            m = maildir.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[test]
fn a_password_in_the_configuration_is_refused_by_config_check() {
    let root = tempfile::TempDir::new().unwrap();
    let ann = Player::new(
        root.path(),
        "ann",
        "maildir = \"m\"\n[account]\naddress = \"ann@x.org\"\n[smtp]\nhost = \"localhost\"\nuser = \"ann\"\npassword = \"hunter2\"\n",
    );
    let out = ann.herald(&["config", "check"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a password is never kept in the configuration"),
        "{err}"
    );
    assert!(err.contains("password-command"), "{err}");
    assert!(!err.contains("hunter2"), "{err}");
}

#[test]
fn send_without_a_configuration_says_where_it_looked() {
    let root = tempfile::TempDir::new().unwrap();
    let ann = Player::new(root.path(), "ann", "");
    std::fs::write(ann.path("t.eml"), "To: bob@x.org\n\nhi\n").unwrap();
    let out = herald(&ann.dir)
        .env("HERALD_CONFIG", ann.path("missing.toml"))
        .args(["send", "t.eml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing.toml"), "{err}");
    assert!(err.contains("docs/mailbox.md"), "{err}");
}

#[test]
fn a_game_is_played_from_maildirs_with_a_sendmail_program() {
    let root = tempfile::TempDir::new().unwrap();
    let r = root.path();
    let (ann_box, bob_box) = (r.join("ann-mail"), r.join("bob-mail"));
    // One sendmail for both, filing every message in both Maildirs:
    // each player's inbox sees the whole thread, as with a Cc to self.
    let both = r.join("both-mail");
    let sendmail = fake_sendmail(r, &both);
    let config = |m: &Path, who: &str| {
        format!(
            "sendmail = \"{}\"\nmaildir = \"{}\"\n[account]\naddress = \"{who}@herald.test\"\n",
            sendmail.display(),
            m.display()
        )
    };
    for m in [&ann_box, &bob_box] {
        for sub in ["cur", "new", "tmp"] {
            std::fs::create_dir_all(m.join(sub)).unwrap();
        }
    }
    let ann = Player::new(r, "ann", &config(&ann_box, "ann"));
    let bob = Player::new(r, "bob", &config(&bob_box, "bob"));
    start_game(&ann, &bob);
    assert!(ann.ok(&["config", "check"]).contains("ok: Maildir"));
    let out = ann.ok(&[
        "move",
        "game.pbem",
        "+C, Cd1-d2-d3",
        "--key",
        "blue.key",
        "--reply",
        "-o",
        "t1.eml",
        "--send",
    ]);
    assert!(out.contains("sent t1.eml to bob@herald.test"), "{out}");
    // The envelope: from the account, to the record's contact of Red.
    let args: Vec<String> = std::fs::read_dir(&both)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("args."))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert_eq!(args.len(), 1);
    assert!(args[0].contains("-f ann@herald.test"), "{}", args[0]);
    assert!(
        args[0].trim_end().ends_with("bob@herald.test"),
        "{}",
        args[0]
    );
    // Bob's mailbox receives it (here: copied from the sendmail's).
    let deliver = |to: &Path| {
        for sub in ["cur", "new", "tmp"] {
            std::fs::create_dir_all(to.join(sub)).unwrap();
        }
        for e in std::fs::read_dir(both.join("new")).unwrap().flatten() {
            let target = to.join("new").join(e.file_name());
            if !target.exists() && !to.join("cur").join(e.file_name()).exists() {
                std::fs::copy(e.path(), target).unwrap();
            }
        }
    };
    deliver(&bob_box);
    let (code, json) = bob.inbox();
    assert_eq!(code, 0, "{json:#}");
    assert_eq!(json["new_messages"], 1);
    let game = only_game(&json);
    assert_eq!(game["yours"], true, "{json:#}");
    assert_eq!(game["due"], "Red");
    assert_eq!(game["turns"], 1);
    // Since when Red's step is due (the day turn 1 is dated) and the
    // first day a forfeit may be claimed: 14 days (new's default
    // Deadline) after, and one more.
    let since = herald::record::Day::parse(game["since"].as_str().unwrap()).unwrap();
    let from = herald::record::Day::parse(game["claimable_from"].as_str().unwrap()).unwrap();
    assert_eq!(from.0 - since.0, 15, "{game:#}");
    let id = game["id"].as_str().unwrap().to_owned();
    // Read once: a second look reads no new message, and moves none.
    let (_, again) = bob.inbox();
    assert_eq!(again["new_messages"], 0);
    assert_eq!(only_game(&again)["turns"], 1);
    assert_eq!(std::fs::read_dir(bob_box.join("new")).unwrap().count(), 1);
    // Bob plays on the game by its id: the inbox's newest message.
    let out = bob.ok(&[
        "move",
        &id,
        "+B, Bd9-d8, Bd8+d7",
        "--key",
        "red.key",
        "--reply",
        "-o",
        "t2.eml",
        "--send",
    ]);
    assert!(out.contains("sent t2.eml to ann@herald.test"), "{out}");
    let t2 = std::fs::read_to_string(bob.path("t2.eml")).unwrap();
    assert!(t2.contains("2. Red:"), "{t2}");
    deliver(&ann_box);
    let (_, json) = ann.inbox();
    let game = only_game(&json);
    assert_eq!(
        (game["turns"].clone(), game["yours"].clone()),
        (2.into(), true.into())
    );
    // Bob's own inbox sees his message too: waiting on Ann now.
    deliver(&bob_box);
    let (_, json) = bob.inbox();
    let game = only_game(&json);
    assert_eq!(
        (game["turns"].clone(), game["yours"].clone()),
        (2.into(), false.into())
    );
}

#[test]
fn a_stale_copy_in_the_mailbox_is_listed_and_not_taken() {
    let root = tempfile::TempDir::new().unwrap();
    let r = root.path();
    let mbox = r.join("bob.mbox");
    let bob_config = format!(
        "sendmail = \"/usr/sbin/sendmail\"\nmbox = \"{}\"\n[account]\naddress = \"bob@herald.test\"\n",
        mbox.display()
    );
    let ann = Player::new(r, "ann", "");
    let bob = Player::new(r, "bob", &bob_config);
    start_game(&ann, &bob);
    run(
        &ann.dir,
        &[
            "move",
            "game.pbem",
            "+C, Cd1-d2-d3",
            "--key",
            "blue.key",
            "--reply",
            "-o",
            "t1.eml",
        ],
    );
    run(
        &bob.dir,
        &[
            "move",
            "../ann/t1.eml",
            "+B, Bd9-d8, Bd8+d7",
            "--key",
            "red.key",
            "--reply",
            "-o",
            "t2.eml",
        ],
    );
    run(
        &ann.dir,
        &[
            "move",
            "../bob/t2.eml",
            "Cd3*d7, Kc1-b1",
            "--key",
            "blue.key",
            "--reply",
            "-o",
            "t3.eml",
        ],
    );
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap();
    // The newest message first, then the first one again (a stale copy).
    let mbox_text = format!(
        "From ann@herald.test Sat Nov 28 10:00:00 2026\n{}\nFrom ann@herald.test Sat Nov 28 10:05:00 2026\n{}",
        read(ann.path("t3.eml")),
        read(ann.path("t1.eml"))
    );
    std::fs::write(&mbox, mbox_text).unwrap();
    let (code, json) = bob.inbox();
    assert_eq!(code, 1, "{json:#}");
    assert_eq!(only_game(&json)["turns"], 3);
    let rejected = json["rejected"].as_array().unwrap();
    assert_eq!(rejected.len(), 1, "{json:#}");
    let verdict = rejected[0]["verdict"].as_str().unwrap();
    assert!(
        verdict.starts_with("stale: this copy is at line 1, the game's newest message at line 3"),
        "{verdict}"
    );
}

// ---------------------------------------------------------------- real servers

const SMTP: u16 = 2525;
const IMAP: u16 = 1143;
/// Where postfix delivers the test accounts' mail (tools/mail-servers.sh).
const MAIL_BASE: &str = "/var/lib/herald-mail";

fn listening(port: u16) -> bool {
    std::net::TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        Duration::from_secs(1),
    )
    .is_ok()
}

/// Whether the servers answer, starting them with the shared script if
/// they do not. Fails under CI when they cannot be had.
fn servers() -> bool {
    if listening(SMTP) && listening(IMAP) {
        return true;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/mail-servers.sh");
    let started = std::process::Command::new("bash")
        .arg(&script)
        .arg("start")
        .output();
    if listening(SMTP) && listening(IMAP) {
        return true;
    }
    let why = match started {
        Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
        Err(e) => e.to_string(),
    };
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set and the mail servers are not running on 127.0.0.1:{SMTP} and :{IMAP} (bash tools/mail-servers.sh install && bash tools/mail-servers.sh start): {why}"
    );
    eprintln!("skipped: no mail servers on 127.0.0.1:{SMTP}/{IMAP} ({why}); run tools/mail-servers.sh install and start as root");
    false
}

/// Empty a test account's Maildir: each run starts with no mail.
fn empty_mailbox(user: &str) {
    for sub in ["cur", "new"] {
        if let Ok(entries) =
            std::fs::read_dir(Path::new(MAIL_BASE).join(user).join("Maildir").join(sub))
        {
            for e in entries.flatten() {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// The messages in a test account's Maildir (as postfix delivered them).
fn delivered(user: &str) -> Vec<String> {
    let mut all = Vec::new();
    for sub in ["cur", "new"] {
        if let Ok(entries) =
            std::fs::read_dir(Path::new(MAIL_BASE).join(user).join("Maildir").join(sub))
        {
            all.extend(
                entries
                    .flatten()
                    .filter_map(|e| std::fs::read_to_string(e.path()).ok()),
            );
        }
    }
    all
}

/// Wait (10 s at most) until `user`'s Maildir holds `n` messages.
fn wait_for(user: &str, n: usize) -> Vec<String> {
    let start = Instant::now();
    loop {
        let all = delivered(user);
        if all.len() >= n || start.elapsed() > Duration::from_secs(10) {
            assert_eq!(all.len(), n, "{user}'s mailbox");
            return all;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn server_config(user: &str, smtp_port: u16) -> String {
    format!(
        r#"[account]
address = "{user}@herald.test"

[smtp]
host = "127.0.0.1"
port = {smtp_port}
encryption = "none"

[imap]
host = "127.0.0.1"
port = {IMAP}
encryption = "none"
user = "{user}@herald.test"
password-command = "echo secret"
folder = "INBOX"
"#
    )
}

#[test]
fn a_game_is_played_through_real_mail_servers() {
    if !servers() {
        return;
    }
    empty_mailbox("ann");
    empty_mailbox("bob");
    let root = tempfile::TempDir::new().unwrap();
    let r = root.path();
    let ann = Player::new(r, "ann", &server_config("ann", SMTP));
    let bob = Player::new(r, "bob", &server_config("bob", SMTP));
    start_game(&ann, &bob);
    let check = ann.ok(&["config", "check"]);
    assert!(check.contains("ok: SMTP 127.0.0.1:2525"), "{check}");
    assert!(
        check.contains("ok: IMAP 127.0.0.1:1143 folder INBOX"),
        "{check}"
    );

    // Turn 1: Ann sends; postfix delivers it into Bob's Maildir.
    ann.ok(&[
        "move",
        "game.pbem",
        "+C, Cd1-d2-d3",
        "--key",
        "blue.key",
        "--reply",
        "-o",
        "t1.eml",
        "--send",
    ]);
    let bobs = wait_for("bob", 1);
    assert!(bobs[0].contains("1. Blue: +C, Cd1-d2-d3"), "{}", bobs[0]);
    assert!(bobs[0].contains("Subject: Castle Danger: turn 1 (Blue) played, Red to move"));

    // Bob's inbox, over IMAP: the game waits on him.
    let (code, json) = bob.inbox();
    assert_eq!(code, 0, "{json:#}");
    let game = only_game(&json);
    assert_eq!(
        (game["yours"].clone(), game["due"].clone()),
        (true.into(), "Red".into())
    );
    let id = game["id"].as_str().unwrap().to_owned();
    // The inbox never moves nor deletes mail: still one message.
    assert_eq!(delivered("bob").len(), 1);

    // Turn 2: Bob plays on the game by its id.
    bob.ok(&[
        "move",
        &id,
        "+B, Bd9-d8, Bd8+d7",
        "--key",
        "red.key",
        "--reply",
        "-o",
        "t2.eml",
        "--send",
    ]);
    wait_for("ann", 1);
    let (_, json) = ann.inbox();
    let game = only_game(&json);
    assert_eq!(
        (game["turns"].clone(), game["yours"].clone()),
        (2.into(), true.into())
    );
    assert_eq!(game["id"], id.as_str());

    // Turn 3 cannot go (no server on that port): the line is written,
    // the message kept, and the error says how to send it again.
    std::fs::write(ann.path("down.toml"), server_config("ann", 9)).unwrap();
    let out = ann.herald(&[
        "move",
        &id,
        "Cd3*d7, Kc1-b1",
        "--key",
        "blue.key",
        "--reply",
        "-o",
        "t3.eml",
        "--send",
        "--config",
        "down.toml",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("herald send t3.eml"), "{err}");
    assert!(err.contains("never play the turn a second time"), "{err}");
    assert!(ann.path("t3.eml").is_file());
    // The lost message resent as it is.
    let out = ann.ok(&["send", "t3.eml"]);
    assert!(out.contains("sent t3.eml to bob@herald.test"), "{out}");
    wait_for("bob", 2);
    let (_, json) = bob.inbox();
    let game = only_game(&json);
    assert_eq!(
        (game["turns"].clone(), game["yours"].clone()),
        (3.into(), true.into())
    );

    // A tampered copy (Ann's capture turned into another move) is
    // listed with its verdict and never taken.
    let t3 = std::fs::read_to_string(ann.path("t3.eml")).unwrap();
    let forged = t3
        .replace("Cd3*d7, Kc1-b1", "Cd3*d7, Kc1-c2")
        .replace("Message-ID: <", "Message-ID: <forged.");
    assert_ne!(forged, t3);
    std::fs::write(ann.path("forged.eml"), &forged).unwrap();
    ann.ok(&["send", "forged.eml"]);
    wait_for("bob", 3);
    let (code, json) = bob.inbox();
    assert_eq!(code, 1, "{json:#}");
    assert_eq!(only_game(&json)["turns"], 3);
    let rejected = json["rejected"].as_array().unwrap();
    assert_eq!(rejected.len(), 1, "{json:#}");
    assert_eq!(rejected[0]["id"], id.as_str());
    let verdict = rejected[0]["verdict"].as_str().unwrap();
    assert!(verdict.contains("signature"), "{verdict}");

    // Bob's Maildir read as a local mailbox gives the same game.
    let local = Player::new(
        r,
        "bob-local",
        &format!(
            "sendmail = \"/usr/sbin/sendmail\"\nmaildir = \"{MAIL_BASE}/bob/Maildir\"\n[account]\naddress = \"bob@herald.test\"\n"
        ),
    );
    let (_, json) = local.inbox();
    let game = json["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .cloned()
        .unwrap();
    assert_eq!(game["turns"], 3);

    // Then a whole Battlegates game with hidden hands through the same
    // servers, every step one command on the inbox's copy of the last
    // message, sent: the game with South's key and maze, North's key,
    // maze and openings in one message, South's openings, the deck's
    // shares, a turn (its card drawn), the resignation with its writer's
    // audit, the last audit.
    empty_mailbox("ann");
    empty_mailbox("bob");
    let south = Player::new(r, "south", &server_config("ann", SMTP));
    let north = Player::new(r, "north", &server_config("bob", SMTP));
    south.ok(&[
        "new",
        "battlegates",
        "--side",
        "South=ann@herald.test",
        "--side",
        "North=bob@herald.test",
        "--key",
        "my.key",
        "--maze",
        "Wd1n Wa2n Wh3n Wi3n Gh1nw Gd3nw Gf3ne Le1nw Lb1ne Lg4nw",
        "--reply",
        "-o",
        "m1.eml",
        "--send",
    ]);
    wait_for("bob", 1);
    let mut n = 1;
    let mut turns_played = 0;
    let mut over = false;
    for _ in 0..16 {
        // The message went to the side due: its inbox says the game waits
        // on it.
        let (mine, player, side) = [(&north, "North"), (&south, "South")]
            .into_iter()
            .find_map(|(p, side)| {
                let (_, json) = p.inbox();
                let game = json["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|g| g["game"] == "Battlegates")
                    .cloned()?;
                if game["due"].is_null() {
                    over = true;
                }
                (game["yours"] == true).then_some((game, p, side))
            })
            .map_or((None, &south, "South"), |(g, p, s)| (Some(g), p, s));
        // Nobody's step: the game is over.
        let Some(game) = mine else { break };
        let copy = format!("state/games/{}.eml", game["id"].as_str().unwrap());
        let status: Value =
            serde_json::from_str(&player.ok(&["check", &copy, "--format", "json"])).unwrap();
        let step = status["step"]["step"].as_str().unwrap().to_owned();
        n += 1;
        let out = format!("m{n}.eml");
        let maze = if side == "South" {
            "Wd1n Wa2n Wh3n Wi3n Gh1nw Gd3nw Gf3ne Le1nw Lb1ne Lg4nw"
        } else {
            "Wa9n Wb9n Wh9n Wi9n Ge11nw Gb10ne Gh10nw Lc8nw Lf8nw Lb11nw"
        };
        let mut args: Vec<&str> = match step.as_str() {
            "keygen" => vec!["keygen", "--side", side, &copy],
            // North's key joins with its first set-up line (protocol 3).
            "commit" => vec!["setup", &copy, "--side", side, "--maze", maze],
            "open" | "shares" => vec!["setup", &copy],
            // Turn 1 (its card drawn from the shared deck) resigns.
            "turn" => vec!["move", &copy, "resign"],
            "audit" => vec!["move", &copy, "audit"],
            other => panic!("unexpected step {other}: {status:#}"),
        };
        if step == "turn" {
            turns_played += 1;
        }
        args.extend_from_slice(&["--key", "my.key", "--reply", "-o", &out, "--send"]);
        player.ok(&args);
        // Delivered: one more message in the two Maildirs.
        let start = Instant::now();
        while delivered("ann").len() + delivered("bob").len() < n {
            assert!(start.elapsed() < Duration::from_secs(10), "message {n}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    assert_eq!(turns_played, 1, "turn 1 was played");
    // Both inboxes read the game as over, the same result.
    let results: Vec<Value> = [&south, &north]
        .iter()
        .map(|p| {
            let (_, json) = p.inbox();
            json["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["game"] == "Battlegates")
                .unwrap()["result"]
                .clone()
        })
        .collect();
    assert!(over || results[0] != "*", "{results:?}");
    assert_eq!(results[0], results[1]);
    assert_ne!(results[0], "*");
}
