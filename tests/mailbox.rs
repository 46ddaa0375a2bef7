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
    start_game_between(ann, "ann@herald.test", bob, "Bob <bob@herald.test>");
}

/// A castle-danger game between `blue` (contact `blue_contact`) and `red`,
/// both keys added: `game.pbem` and `blue.key` in Blue's folder,
/// `game.pbem` and `red.key` in Red's.
fn start_game_between(blue: &Player, blue_contact: &str, red: &Player, red_contact: &str) {
    run(
        &blue.dir,
        &[
            "new",
            "castle-danger",
            "--side",
            &format!("Blue={blue_contact}"),
            "--side",
            &format!("Red={red_contact}"),
            "-o",
            "game.pbem",
        ],
    );
    run(
        &blue.dir,
        &["keygen", "--side", "Blue", "game.pbem", "-o", "blue.key"],
    );
    std::fs::copy(blue.path("game.pbem"), red.path("game.pbem")).unwrap();
    run(
        &red.dir,
        &["keygen", "--side", "Red", "game.pbem", "-o", "red.key"],
    );
    std::fs::copy(red.path("game.pbem"), blue.path("game.pbem")).unwrap();
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
    let _accounts = common::shared_accounts();
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

// ------------------------------------------------ TLS, STARTTLS, keyring

/// Submission with STARTTLS and with TLS, IMAP over TLS
/// (tools/mail-servers.sh), and the CA that signed their certificate.
const SUBMISSION: u16 = 2587;
const SUBMISSIONS: u16 = 2465;
const IMAPS: u16 = 1993;
const CA_FILE: &str = "/etc/herald-mail/tls/ca.pem";

/// Whether every server port answers (see `servers`).
fn tls_servers() -> bool {
    if !servers() {
        return false;
    }
    if [SUBMISSION, SUBMISSIONS, IMAPS]
        .iter()
        .all(|&p| listening(p))
    {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set and the TLS ports 127.0.0.1:{SUBMISSION}, :{SUBMISSIONS}, :{IMAPS} do not answer: run bash tools/mail-servers.sh install && bash tools/mail-servers.sh start"
    );
    eprintln!("skipped: the TLS mail ports do not answer; run tools/mail-servers.sh start as root");
    false
}

/// A configuration for `user`@herald.test with both connections
/// encrypted as `encryption` says (`starttls`: SMTP 2587, IMAP 1143;
/// `tls`: SMTP 2465, IMAP 1993), logging in with `password` (a
/// `password-command` or `password-keyring` line) and trusting
/// `ca_file`, if given.
fn tls_config(user: &str, encryption: &str, password: &str, ca_file: Option<&str>) -> String {
    let (smtp, imap) = match encryption {
        "tls" => (SUBMISSIONS, IMAPS),
        _ => (SUBMISSION, IMAP),
    };
    let ca = ca_file
        .map(|f| format!("ca-file = \"{f}\"\n"))
        .unwrap_or_default();
    format!(
        r#"[account]
address = "{user}@herald.test"

[smtp]
host = "127.0.0.1"
port = {smtp}
encryption = "{encryption}"
user = "{user}@herald.test"
{password}
{ca}
[imap]
host = "127.0.0.1"
port = {imap}
encryption = "{encryption}"
user = "{user}@herald.test"
{password}
{ca}"#
    )
}

/// `config check`, then a turn sent by `from` to `to` and read by `to`'s
/// inbox, both through `encryption` with the CA file.
fn a_round_through(encryption: &str, from: &str, to: &str) {
    if !tls_servers() {
        return;
    }
    let _accounts = common::shared_accounts();
    empty_mailbox(to);
    let root = tempfile::TempDir::new().unwrap();
    let password = "password-command = \"echo secret\"";
    let a = Player::new(
        root.path(),
        from,
        &tls_config(from, encryption, password, Some(CA_FILE)),
    );
    let b = Player::new(
        root.path(),
        to,
        &tls_config(to, encryption, password, Some(CA_FILE)),
    );
    let (smtp, imap) = match encryption {
        "tls" => (SUBMISSIONS, IMAPS),
        _ => (SUBMISSION, IMAP),
    };
    let check = a.ok(&["config", "check"]);
    assert!(
        check.contains(&format!("ok: SMTP 127.0.0.1:{smtp}")),
        "{check}"
    );
    assert!(
        check.contains(&format!("ok: IMAP 127.0.0.1:{imap} folder INBOX")),
        "{check}"
    );
    start_game_between(
        &a,
        &format!("{from}@herald.test"),
        &b,
        &format!("{to}@herald.test"),
    );
    a.ok(&[
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
    let got = wait_for(to, 1);
    assert!(got[0].contains("1. Blue: +C, Cd1-d2-d3"), "{}", got[0]);
    let (code, json) = b.inbox();
    assert_eq!(code, 0, "{json:#}");
    let game = only_game(&json);
    assert_eq!(
        (
            game["yours"].clone(),
            game["due"].clone(),
            game["turns"].clone()
        ),
        (true.into(), "Red".into(), 1.into())
    );
}

#[test]
fn a_turn_is_sent_and_read_through_starttls_with_a_ca_file() {
    a_round_through("starttls", "cara", "dave");
}

#[test]
fn a_turn_is_sent_and_read_through_tls_with_a_ca_file() {
    a_round_through("tls", "dave", "cara");
}

#[test]
fn a_server_certificate_not_trusted_names_ca_file() {
    if !tls_servers() {
        return;
    }
    let root = tempfile::TempDir::new().unwrap();
    for encryption in ["starttls", "tls"] {
        let p = Player::new(
            root.path(),
            encryption,
            &tls_config(
                "cara",
                encryption,
                "password-command = \"echo secret\"",
                None,
            ),
        );
        let out = p.herald(&["config", "check"]);
        assert_eq!(out.status.code(), Some(2));
        let text = String::from_utf8_lossy(&out.stdout);
        for what in ["smtp", "imap"] {
            assert!(
                text.contains(&format!(
                    "the server's certificate is not trusted: no CA this computer trusts signed it. If the server's certificate is signed by a CA of its own, give that CA's certificate (PEM) as ca-file = \"/path/to/ca.pem\" in [{what}]"
                )),
                "{encryption} {what}: {text}"
            );
        }
        // Sending says it too, and keeps the message.
        std::fs::write(
            p.path("m.eml"),
            "From: cara@herald.test\r\nTo: dave@herald.test\r\nSubject: t\r\nMessage-ID: <t@herald.test>\r\n\r\nhello\r\n",
        )
        .unwrap();
        let out = p.herald(&["send", "m.eml"]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("m.eml could not be sent"), "{err}");
        assert!(
            err.contains("ca-file = \"/path/to/ca.pem\" in [smtp]"),
            "{err}"
        );
    }
}

/// `herald ARGS` as `player`, in a session keyring of its own
/// (`keyctl session -`, as a login through pam_keyinit gives one), with
/// `input` on standard input. None when keyctl is missing (outside CI).
fn in_keyring_session(player: &Player, args: &[&str], input: &str) -> Option<std::process::Output> {
    use std::io::Write;
    if std::process::Command::new("keyctl")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set and keyctl is missing (apt-get install keyutils)"
        );
        eprintln!("skipped: keyctl is missing (apt-get install keyutils)");
        return None;
    }
    let mut child = std::process::Command::new("keyctl")
        .args(["session", "-"])
        .arg(assert_cmd::cargo::cargo_bin("herald"))
        .args(args)
        .current_dir(&player.dir)
        .env("HERALD_CONFIG", player.dir.join("config.toml"))
        .env("HERALD_STATE_DIR", player.dir.join("state"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    Some(child.wait_with_output().unwrap())
}

/// `herald ARGS` as `player` on a terminal (`script`), in a session
/// keyring of its own: `typed` is typed once herald asks for it. All the
/// terminal showed.
fn typed_on_a_terminal(player: &Player, args: &str, typed: &str) -> String {
    use std::io::{Read, Write};
    let command = format!(
        "keyctl session - {} {args}",
        assert_cmd::cargo::cargo_bin("herald").display()
    );
    let mut child = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(&player.dir)
        .env("HERALD_CONFIG", player.dir.join("config.toml"))
        .env("HERALD_STATE_DIR", player.dir.join("state"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut shown = Vec::new();
    // Typed only once the prompt is there, so that echo is off by then.
    while !String::from_utf8_lossy(&shown).contains("): ") {
        let mut byte = [0u8];
        assert_eq!(
            stdout.read(&mut byte).unwrap(),
            1,
            "no prompt: {}",
            String::from_utf8_lossy(&shown)
        );
        shown.push(byte[0]);
    }
    // The prompt is written just before the terminal's echo is turned
    // off: on a loaded machine a password typed at once can still meet
    // the echo on, which is the terminal's doing, not herald's. Give it
    // the time a person takes to type.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("{typed}\n").as_bytes()).unwrap();
    stdout.read_to_end(&mut shown).unwrap();
    drop(stdin);
    assert!(
        child.wait().unwrap().success(),
        "{}",
        String::from_utf8_lossy(&shown)
    );
    String::from_utf8_lossy(&shown).into_owned()
}

#[test]
fn config_check_says_when_the_keyring_has_no_password() {
    let root = tempfile::TempDir::new().unwrap();
    // A login no run has stored a password for.
    let nobody = format!(
        "nobody-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    let p = Player::new(
        root.path(),
        "nobody",
        &format!(
            "maildir = \"{}\"\n[account]\naddress = \"{nobody}@herald.test\"\n[smtp]\nhost = \"127.0.0.1\"\nport = 9\nuser = \"{nobody}@herald.test\"\npassword-keyring = true\n",
            root.path().join("nobody").display()
        ),
    );
    let Some(out) = in_keyring_session(&p, &["config", "check"], "") else {
        return;
    };
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "FAILED: SMTP 127.0.0.1:9: no password for {nobody}@herald.test in the OS keyring: store one with herald config password --smtp"
        )),
        "{text}"
    );
}

#[test]
fn config_password_refuses_a_password_given_as_an_argument_without_repeating_it() {
    let root = tempfile::TempDir::new().unwrap();
    let p = Player::new(
        root.path(),
        "ann",
        &tls_config("ann", "starttls", "password-keyring = true", None),
    );
    let out = p.herald(&["config", "password", "--smtp", "hunter2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("herald config password takes no password as an argument"),
        "{err}"
    );
    assert!(!err.contains("hunter2"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn config_password_is_refused_for_a_server_without_password_keyring() {
    let root = tempfile::TempDir::new().unwrap();
    let p = Player::new(
        root.path(),
        "ann",
        &tls_config(
            "ann",
            "starttls",
            "password-command = \"echo secret\"",
            None,
        ),
    );
    let out = p.herald(&["config", "password", "--imap", "-"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "[imap] does not read its password from the keyring: add password-keyring = true"
        ),
        "{err}"
    );
}

#[test]
fn a_password_stored_in_the_keyring_logs_in_and_sends() {
    if !tls_servers() {
        return;
    }
    let _accounts = common::shared_accounts();
    // The kernel's persistent keyring is shared by every run of this
    // test as this user: one at a time.
    let lock =
        std::fs::File::create(std::env::temp_dir().join("herald-keyring-test.lock")).unwrap();
    let mut lock = fd_lock::RwLock::new(lock);
    let _held = lock.write().unwrap();
    empty_mailbox("kay");
    let root = tempfile::TempDir::new().unwrap();
    let kay = Player::new(
        root.path(),
        "kay",
        &tls_config("kay", "starttls", "password-keyring = true", Some(CA_FILE)),
    );
    let config = std::fs::read_to_string(kay.path("config.toml")).unwrap();
    assert!(!config.contains("secret"));
    // A wrong password stored: the servers refuse it, so the login reads
    // what the keyring holds.
    let Some(out) = in_keyring_session(&kay, &["config", "password", "--smtp", "-"], "wrong\n")
    else {
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = in_keyring_session(&kay, &["config", "check"], "").unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("FAILED: SMTP 127.0.0.1:2587"), "{text}");
    assert!(
        text.contains("refused the login of kay@herald.test"),
        "{text}"
    );
    // The right one, typed on a terminal (util-linux's `script` gives
    // herald one): asked for, never echoed. Both logins then work (one
    // entry for the one login).
    let text = typed_on_a_terminal(&kay, "config password --smtp", "secret");
    assert!(
        text.contains("password of kay@herald.test ([smtp] 127.0.0.1): "),
        "{text}"
    );
    assert!(
        text.contains(
            "stored the password of kay@herald.test ([smtp] 127.0.0.1) in the OS keyring"
        ),
        "{text}"
    );
    assert!(!text.contains("secret"), "echoed: {text}");
    let out = in_keyring_session(&kay, &["config", "check"], "").unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("ok: SMTP 127.0.0.1:2587"), "{text}");
    assert!(
        text.contains("ok: IMAP 127.0.0.1:1143 folder INBOX"),
        "{text}"
    );
    // Sent through the submission port with that login.
    std::fs::write(
        kay.path("m.eml"),
        "From: kay@herald.test\r\nTo: kay@herald.test\r\nSubject: keyring\r\nMessage-ID: <keyring.test@herald.test>\r\n\r\nhello\r\n",
    )
    .unwrap();
    let out = in_keyring_session(&kay, &["send", "m.eml"], "").unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("sent m.eml to kay@herald.test"),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = wait_for("kay", 1);
    assert!(got[0].contains("Subject: keyring"), "{}", got[0]);
}

// ------------------------------------------------ readers take a GAME-ID

#[test]
fn every_reader_takes_a_game_id_the_inbox_knows() {
    let root = tempfile::TempDir::new().unwrap();
    let r = root.path();
    let bob_box = r.join("bob-mail");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(bob_box.join(sub)).unwrap();
    }
    let config = |who: &str| {
        format!(
            "sendmail = \"/usr/sbin/sendmail\"\nmaildir = \"{}\"\n[account]\naddress = \"{who}@herald.test\"\n",
            bob_box.display()
        )
    };
    let ann = Player::new(r, "ann", &config("ann"));
    let bob = Player::new(r, "bob", &config("bob"));
    start_game(&ann, &bob);
    ann.ok(&[
        "move",
        "game.pbem",
        "+C, Cd1-d2-d3",
        "--key",
        "blue.key",
        "--reply",
        "-o",
        "t1.eml",
    ]);
    // The message arrives in Bob's Maildir.
    std::fs::copy(ann.path("t1.eml"), bob_box.join("new/1.herald")).unwrap();
    let (code, json) = bob.inbox();
    assert_eq!(code, 0, "{json:#}");
    let id = only_game(&json)["id"].as_str().unwrap().to_owned();
    let copy = format!("state/games/{id}.eml");
    // Each reader given the id reads what it reads in the inbox's copy.
    for args in [
        vec!["show", "ID"],
        vec!["show", "ID", "--format", "json"],
        vec!["legal", "ID"],
        vec!["check", "ID", "--format", "json"],
        vec!["replay", "ID"],
        vec!["annotate", "ID"],
        vec!["extract", "ID"],
    ] {
        let by_id: Vec<&str> = args
            .iter()
            .map(|a| if *a == "ID" { &id } else { *a })
            .collect();
        let by_file: Vec<&str> = args
            .iter()
            .map(|a| if *a == "ID" { copy.as_str() } else { *a })
            .collect();
        let (a, b) = (bob.ok(&by_id), bob.ok(&by_file));
        assert!(!a.is_empty(), "{args:?}");
        assert_eq!(a, b, "{args:?}");
    }
    // The same game, seen through the id: turn 1 played, Red due.
    let status: Value = serde_json::from_str(&bob.ok(&["check", &id, "--format", "json"])).unwrap();
    assert_eq!(status["ok"], true, "{status:#}");
    let extracted = bob.ok(&["extract", &id]);
    assert!(extracted.contains("1. Blue: +C, Cd1-d2-d3"), "{extracted}");
    // check --all reads every record of the inbox's copy, named by the id.
    let all = bob.ok(&["check", &id, "--all"]);
    assert!(
        all.starts_with(&format!("{id}, line 35: OK: Castle Danger, 1 turn")),
        "{all}"
    );
    // Part of the id is enough when it names one game.
    assert_eq!(bob.ok(&["legal", &id[..6]]), bob.ok(&["legal", &id]));
}

#[test]
fn a_game_id_that_is_no_file_nor_a_known_game_says_both() {
    let root = tempfile::TempDir::new().unwrap();
    let p = Player::new(
        root.path(),
        "ann",
        "sendmail = \"sendmail\"\nmaildir = \"/tmp/none\"\n[account]\naddress = \"ann@herald.test\"\n",
    );
    for args in [
        &["show", "0123abcd"][..],
        &["legal", "0123abcd"],
        &["check", "0123abcd"],
        &["check", "0123abcd", "--all"],
        &["extract", "0123abcd"],
        &["move", "0123abcd"],
        &["keygen", "--side", "Blue", "0123abcd", "-o", "blue.key"],
        &["setup", "0123abcd", "--key", "blue.key"],
    ] {
        let command = args.join(" ");
        let out = p.herald(args);
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("0123abcd is no file, nor a game your inbox knows: run herald inbox"),
            "{command}: {err}"
        );
    }
}
