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
    assert_eq!(game["due"], serde_json::json!(["Red"]));
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

/// Once Red has claimed Blue's forfeit, Ann's inbox names Blue's answer
/// as the step due and until when it may come, and offers no second
/// claim: `claimable_from` is `null` and no "a forfeit may be claimed"
/// line is printed.
#[test]
fn a_claim_made_is_not_offered_again_in_the_inbox() {
    let players = common::castle_danger_keyed();
    let (ann_dir, bob) = (&players.blue, &players.red);
    let moved = |dir: &Path, args: &[&str], out: &str| {
        let mut all = args.to_vec();
        all.extend(["--key", "my.key", "--reply", "-o", out]);
        run(dir, &all);
    };
    moved(
        ann_dir,
        &["move", "c2.eml", "+C, Kc1-b1", "--date", "2026-11-01"],
        "c3.eml",
    );
    common::mail(ann_dir, bob, "c3.eml");
    moved(
        bob,
        &["move", "c3.eml", "Kc9-b9", "--date", "2026-11-01"],
        "c4.eml",
    );
    moved(
        bob,
        &["move", "c4.eml", "--forfeit", "--date", "2026-11-20"],
        "f.eml",
    );
    let maildir = ann_dir.join("mail");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    std::fs::copy(bob.join("f.eml"), maildir.join("new").join("1.eml")).unwrap();
    let ann = Player::new(
        ann_dir,
        "inbox",
        &format!(
            "sendmail = \"/bin/true\"\nmaildir = \"{}\"\n[account]\naddress = \"ann@example.org\"\n",
            maildir.display()
        ),
    );
    let (code, json) = ann.inbox();
    assert_eq!(code, 0, "{json:#}");
    let game = only_game(&json);
    assert_eq!(game["due"], serde_json::json!(["Blue"]), "{game:#}");
    assert_eq!(game["yours"], true, "{game:#}");
    assert_eq!(game["claimable_from"], Value::Null, "{game:#}");
    let due = game["due_text"].as_str().unwrap();
    assert!(
        due.starts_with("Red claimed Blue's forfeit on turn 3, which ended the game: only Blue's own turn (turn 4) may follow it"),
        "{due}"
    );
    let text = ann.ok(&["inbox"]);
    assert!(!text.contains("a forfeit may be claimed"), "{text}");
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
    // The daemons the script starts inherit its stdout and stderr: with
    // pipes (`.output()`) the test would wait for them to close, that is
    // forever. A file and null are never waited on.
    let log = std::env::temp_dir().join(format!("herald-mail-servers-{}.log", std::process::id()));
    let started = std::fs::File::create(&log).and_then(|file| {
        std::process::Command::new("bash")
            .arg(&script)
            .arg("start")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(file)
            .status()
    });
    if listening(SMTP) && listening(IMAP) {
        return true;
    }
    let why = match started {
        Ok(status) => format!(
            "{status}: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        ),
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
        (true.into(), serde_json::json!(["Red"]))
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
                if game["due"] == serde_json::json!([]) {
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
        (true.into(), serde_json::json!(["Red"]), 1.into())
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

// ------------------------------------------- copies of one game (issue 28)

/// Run `line`, a command herald printed, as printed (through `sh`, with
/// this `herald` first on the PATH) in `player`'s folder, the
/// placeholders a player fills in (`YOUR.key`, `"YOUR TURN"`, `ARMY`)
/// replaced by `fill`: its standard output. It must succeed.
fn run_printed(player: &Player, line: &str, fill: &[(&str, &str)]) -> String {
    let mut line = line.trim().to_owned();
    assert!(line.starts_with("herald "), "{line}");
    for (from, to) in fill {
        line = line.replace(from, to);
    }
    let bin = assert_cmd::cargo::cargo_bin("herald");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(&line)
        .current_dir(&player.dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env("HERALD_CONFIG", player.dir.join("config.toml"))
        .env("HERALD_STATE_DIR", player.dir.join("state"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{line}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The commands in `text` (its lines that start with `herald `).
fn commands_in(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("herald "))
        .map(str::to_owned)
        .collect()
}

/// The reply a printed command wrote (`-o reply.eml`), kept as `name`
/// so that the next printed command can write its own.
fn keep_reply(player: &Player, name: &str) -> PathBuf {
    let to = player.path(name);
    std::fs::rename(player.path("reply.eml"), &to).unwrap();
    to
}

/// An mbox file of `messages`, in that order.
fn write_mbox(path: &Path, messages: &[&Path]) {
    let mut text = String::new();
    for (k, m) in messages.iter().enumerate() {
        text.push_str(&format!(
            "From herald@herald.test Sat Nov 28 10:{k:02}:00 2026\n"
        ));
        text.push_str(&std::fs::read_to_string(m).unwrap());
        // A blank line before the next `From ` line.
        text.push_str("\n\n");
    }
    std::fs::write(path, text).unwrap();
}

/// A player of the mbox tests: reads `NAME.mbox` in the root, sends with
/// a sendmail that files the mail away (the test delivers it).
fn mbox_player(r: &Path, name: &str, address: &str, sendmail: &Path) -> Player {
    let config = format!(
        "sendmail = \"{}\"\nmbox = \"{}\"\n[account]\naddress = \"{address}\"\n",
        sendmail.display(),
        r.join(format!("{name}.mbox")).display()
    );
    Player::new(r, name, &config)
}

/// The game's id in an inbox's JSON, when it knows one game.
fn id_of(json: &Value) -> String {
    only_game(json)["id"].as_str().unwrap().to_owned()
}

/// Three players of Battle of the Dale by mail: the Elf and the Goblin
/// add their keys at once, each on the Human's first message, each
/// running the command its inbox printed. Every inbox, whichever key
/// message it reads first, takes both as one game, the union of their
/// keys (the record `check` and `move` read in a mailbox holding both):
/// turn 1 due, nothing under "Not taken", the same record everywhere; the
/// Human plays turn 1 on the game's id by the command printed.
#[test]
fn keys_added_at_once_are_one_game_in_every_inbox_whichever_comes_first() {
    let root = tempfile::TempDir::new().unwrap();
    let r = root.path();
    let sendmail = fake_sendmail(r, &r.join("sent"));
    let ann = mbox_player(r, "ann", "ann@herald.test", &sendmail);
    // Ann again, her mail read in the other order.
    let ann2 = mbox_player(r, "ann2", "ann@herald.test", &sendmail);
    let bob = mbox_player(r, "bob", "bob@herald.test", &sendmail);
    let cara = mbox_player(r, "cara", "cara@herald.test", &sendmail);
    ann.ok(&[
        "new",
        "battle-of-the-dale",
        "--side",
        "Human=ann@herald.test",
        "--side",
        "Elf=bob@herald.test",
        "--side",
        "Goblin=cara@herald.test",
        "--key",
        "human.key",
        "--reply",
        "-o",
        "m1.eml",
        "--send",
    ]);
    let m1 = ann.path("m1.eml");
    write_mbox(&r.join("bob.mbox"), &[&m1]);
    write_mbox(&r.join("cara.mbox"), &[&m1]);
    // Both keys are due at once: the JSON lists both sides; each player's
    // "to play" is its own key's command, which run as printed works.
    let mut copies = Vec::new();
    for (p, side, file) in [(&bob, "Elf", "a.eml"), (&cara, "Goblin", "b.eml")] {
        let (code, json) = p.inbox();
        assert_eq!(code, 0, "{json:#}");
        let game = only_game(&json);
        assert_eq!(
            game["due"],
            serde_json::json!(["Elf", "Goblin"]),
            "{json:#}"
        );
        assert_eq!(game["yours"], true);
        let to_play = game["to_play"].as_str().unwrap();
        let id = id_of(&json);
        let commands = commands_in(to_play);
        assert_eq!(
            commands,
            [format!(
                "herald keygen --side {side} {id} --key {}.key --reply -o reply.eml --send",
                side.to_ascii_lowercase()
            )],
            "{to_play}"
        );
        run_printed(p, &commands[0], &[]);
        copies.push(keep_reply(p, file));
    }
    let (a, b) = (&copies[0], &copies[1]);
    write_mbox(&r.join("ann.mbox"), &[&m1, a, b]);
    write_mbox(&r.join("ann2.mbox"), &[&m1, b, a]);
    // Each key's player has its own message already (sent): the other's
    // comes.
    write_mbox(&r.join("bob.mbox"), &[&m1, b]);
    write_mbox(&r.join("cara.mbox"), &[&m1, a]);
    let mut records = Vec::new();
    let mut ids = Vec::new();
    for (p, yours) in [(&ann, true), (&ann2, true), (&bob, false), (&cara, false)] {
        let (code, json) = p.inbox();
        assert_eq!(code, 0, "{json:#}");
        assert_eq!(json["rejected"], serde_json::json!([]), "{json:#}");
        let game = only_game(&json);
        assert_eq!(
            (
                &game["keys"],
                &game["due"],
                &game["due_line"],
                &game["yours"]
            ),
            (
                &3.into(),
                &serde_json::json!(["Human"]),
                &"turn 1".into(),
                &yours.into()
            ),
            "{json:#}"
        );
        let id = id_of(&json);
        // Word by word: a long tag is folded over two lines as the
        // message it came in wrapped it.
        let record = p.ok(&["extract", &id]);
        records.push(record.split_whitespace().collect::<Vec<_>>().join(" "));
        ids.push(id);
    }
    let id = ids[0].clone();
    assert!(ids.iter().all(|i| *i == id), "{ids:?}");
    // The same record in every inbox, whichever copy came first: every
    // key tag once, in seat order, before the Result tag, as keygen
    // writes a side's key.
    assert!(records.iter().all(|r| *r == records[0]), "{records:#?}");
    let at = |tag: &str| {
        assert_eq!(
            records[0].matches(&format!("[{tag} ")).count(),
            1,
            "{tag}: {}",
            records[0]
        );
        records[0].find(&format!("[{tag} ")).unwrap()
    };
    let order: Vec<usize> = [
        "HumanCommit",
        "HumanKey",
        "ElfCommit",
        "ElfKey",
        "GoblinCommit",
        "GoblinKey",
        "Result",
    ]
    .iter()
    .map(|t| at(t))
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{}", records[0]);
    // In words: no copy is listed as not taken; Ann's "to play" is her
    // turn's command on the game's id.
    let out = ann.herald(&["inbox"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("Not taken"), "{text}");
    let (_, json) = ann.inbox();
    let to_play = only_game(&json)["to_play"].as_str().unwrap().to_owned();
    let commands = commands_in(&to_play);
    assert_eq!(
        commands,
        [format!(
            "herald move {id} \"YOUR TURN\" --key YOUR.key --reply -o reply.eml --send"
        )],
        "{to_play}"
    );
    // A copy with fewer keys read after the union: older.
    let late = mbox_player(r, "late", "dave@herald.test", &sendmail);
    write_mbox(&r.join("late.mbox"), &[a, b, &m1]);
    let (code, json) = late.inbox();
    assert_eq!(code, 1, "{json:#}");
    assert_eq!(only_game(&json)["keys"], 3);
    assert_eq!(
        json["rejected"][0]["verdict"],
        "stale: this copy has the keys of Human, the game's newest message those of Human, Elf, Goblin: an older copy, not taken"
    );
    let legal: Value =
        serde_json::from_str(&ann.ok(&["legal", &id, "--key", "human.key", "--format", "json"]))
            .unwrap();
    let action = legal["actions"][0]["action"].as_str().unwrap().to_owned();
    run_printed(
        &ann,
        &commands[0],
        &[("YOUR TURN", &action), ("YOUR.key", "human.key")],
    );
    let t1 = keep_reply(&ann, "t1.eml");
    // Turn 1 goes to the Elf, due next, and the Goblin, and is read on
    // the union.
    let (to, cc) = (common::field(&t1, "To"), common::field(&t1, "Cc"));
    assert!(
        to.contains("bob@herald.test") && cc.contains("cara@herald.test"),
        "{to}; {cc}"
    );
    for (p, mbox, mail) in [
        (&ann2, "ann2.mbox", vec![&m1, b, a]),
        (&bob, "bob.mbox", vec![&m1, b]),
        (&cara, "cara.mbox", vec![&m1, a]),
    ] {
        let mut mail: Vec<&Path> = mail.into_iter().map(PathBuf::as_path).collect();
        mail.push(&t1);
        write_mbox(&r.join(mbox), &mail);
        let (code, json) = p.inbox();
        assert_eq!(code, 0, "{json:#}");
        assert_eq!(
            (&only_game(&json)["turns"], &only_game(&json)["due"]),
            (&1.into(), &serde_json::json!(["Elf"]))
        );
    }
}

#[test]
fn an_equal_length_fork_is_listed_and_every_inbox_keeps_the_same_copy_in_either_order() {
    let root = tempfile::TempDir::new().unwrap();
    let r = root.path();
    let sendmail = fake_sendmail(r, &r.join("sent"));
    let ann = mbox_player(r, "ann", "ann@herald.test", &sendmail);
    let bob = mbox_player(r, "bob", "bob@herald.test", &sendmail);
    start_game(&ann, &bob);
    // Ann's key file copied before turn 1: she answers twice, two ways.
    let twice = mbox_player(r, "ann-again", "ann@herald.test", &sendmail);
    for file in ["game.pbem", "blue.key"] {
        std::fs::copy(ann.path(file), twice.path(file)).unwrap();
    }
    let reply = |p: &Player, turn: &str| {
        p.ok(&[
            "move",
            "game.pbem",
            turn,
            "--key",
            "blue.key",
            "--reply",
            "-o",
            "t1.eml",
        ]);
        p.path("t1.eml")
    };
    let (a, b) = (reply(&ann, "+C, Cd1-d2-d3"), reply(&twice, "Kc1-b1"));
    let readers: Vec<Player> = ["bob1", "bob2"]
        .iter()
        .map(|name| {
            let p = mbox_player(r, name, "bob@herald.test", &sendmail);
            std::fs::copy(bob.path("red.key"), p.path("red.key")).unwrap();
            p
        })
        .collect();
    write_mbox(&r.join("bob1.mbox"), &[&a, &b]);
    write_mbox(&r.join("bob2.mbox"), &[&b, &a]);
    let mut kept = Vec::new();
    for p in &readers {
        let (code, json) = p.inbox();
        assert_eq!(code, 1, "{json:#}");
        assert_eq!(only_game(&json)["lines"], 1);
        let rejected = json["rejected"].as_array().unwrap();
        assert_eq!(rejected.len(), 1, "{json:#}");
        assert_eq!(rejected[0]["id"], only_game(&json)["id"]);
        let verdict = rejected[0]["verdict"].as_str().unwrap();
        assert!(
            verdict.starts_with("fork: another copy of this game is kept"),
            "{verdict}"
        );
        assert!(
            verdict.contains("its line 1 is not the kept copy's line 1 (both are at line 1)"),
            "{verdict}"
        );
        kept.push(p.ok(&["extract", &id_of(&json)]));
    }
    // The same copy, whichever came first.
    assert_eq!(kept[0], kept[1]);
    // A shorter copy that is no beginning of the kept one is a fork too:
    // Bob plays turn 2 on the kept copy; the other turn 1 read after it.
    let id = id_of(&readers[0].inbox().1);
    readers[0].ok(&[
        "move",
        &id,
        "+B, Bd9-d8, Bd8+d7",
        "--key",
        "red.key",
        "--reply",
        "-o",
        "t2.eml",
    ]);
    let t2 = readers[0].path("t2.eml");
    let (winner, loser) = if kept[0].contains("+C, Cd1-d2-d3") {
        (&a, &b)
    } else {
        (&b, &a)
    };
    let late = mbox_player(r, "bob3", "bob@herald.test", &sendmail);
    write_mbox(&r.join("bob3.mbox"), &[winner, &t2, loser]);
    let (code, json) = late.inbox();
    assert_eq!(code, 1, "{json:#}");
    assert_eq!(only_game(&json)["lines"], 2);
    let verdict = json["rejected"][0]["verdict"].as_str().unwrap();
    assert!(
        verdict.contains(
            "its line 1 is not the kept copy's line 1 (this copy is at line 1, the kept one at line 2)"
        ),
        "{verdict}"
    );
    // A fork sent goes, and the sender is told its inbox keeps another
    // copy (the message sent is never taken in silence either).
    let out = late.herald(&["send", loser.to_str().unwrap()]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("your inbox does not take the game in the message sent: fork:"),
        "{err}"
    );
    assert_eq!(only_game(&late.inbox().1)["lines"], 2);
}

/// `player`'s "to play" on the game in its inbox's JSON, when the step due
/// is its own.
fn to_play(json: &Value) -> Option<String> {
    only_game(json)["to_play"].as_str().map(str::to_owned)
}

#[test]
fn keys_added_at_once_through_real_mail_servers_end_with_every_key_in_and_turn_1_due() {
    if !servers() {
        return;
    }
    let _accounts = common::shared_accounts();
    for user in ["ann", "bob", "cara"] {
        empty_mailbox(user);
    }
    let root = tempfile::TempDir::new().unwrap();
    let r = root.path();
    let ann = Player::new(r, "ann", &server_config("ann", SMTP));
    let bob = Player::new(r, "bob", &server_config("bob", SMTP));
    let cara = Player::new(r, "cara", &server_config("cara", SMTP));
    ann.ok(&[
        "new",
        "battle-of-the-dale",
        "--side",
        "Human=ann@herald.test",
        "--side",
        "Elf=bob@herald.test",
        "--side",
        "Goblin=cara@herald.test",
        "--key",
        "human.key",
        "--reply",
        "-o",
        "m1.eml",
        "--send",
    ]);
    wait_for("bob", 1);
    wait_for("cara", 1);
    // Both read Ann's message, both keys due at once (a list in the
    // JSON); then both answer before either reads the other's.
    let mut commands = Vec::new();
    for (p, side) in [(&bob, "Elf"), (&cara, "Goblin")] {
        let (code, json) = p.inbox();
        assert_eq!(code, 0, "{json:#}");
        assert_eq!(
            only_game(&json)["due"],
            serde_json::json!(["Elf", "Goblin"]),
            "{json:#}"
        );
        let play = to_play(&json).unwrap();
        let command = commands_in(&play);
        assert_eq!(command.len(), 1, "{play}");
        assert!(command[0].starts_with(&format!("herald keygen --side {side} ")));
        commands.push(command[0].clone());
    }
    run_printed(&bob, &commands[0], &[]);
    run_printed(&cara, &commands[1], &[]);
    // Each key message goes to the two other players; every inbox takes
    // both as one game, the union of their keys: turn 1 due.
    wait_for("ann", 2);
    wait_for("bob", 2);
    wait_for("cara", 2);
    for (p, yours) in [(&ann, true), (&bob, false), (&cara, false)] {
        let (code, json) = p.inbox();
        assert_eq!(code, 0, "{json:#}");
        assert_eq!(json["rejected"], serde_json::json!([]), "{json:#}");
        let game = only_game(&json);
        assert_eq!(
            (
                &game["keys"],
                &game["due"],
                &game["due_line"],
                &game["yours"]
            ),
            (
                &3.into(),
                &serde_json::json!(["Human"]),
                &"turn 1".into(),
                &yours.into()
            ),
            "{json:#}"
        );
    }
}

#[test]
fn each_step_s_to_play_line_run_as_printed_works_through_real_mail_servers() {
    if !servers() {
        return;
    }
    let _accounts = common::shared_accounts();
    empty_mailbox("ann");
    empty_mailbox("bob");
    let root = tempfile::TempDir::new().unwrap();
    let r = root.path();
    let blue = Player::new(r, "blue", &server_config("ann", SMTP));
    let red = Player::new(r, "red", &server_config("bob", SMTP));
    blue.ok(&[
        "new",
        "playground-battles",
        "--side",
        "Blue=ann@herald.test",
        "--side",
        "Red=bob@herald.test",
        "--key",
        "blue.key",
        "--army",
        "RPSRRPSPRS",
        "--reply",
        "-o",
        "m1.eml",
        "--send",
    ]);
    let mut steps = Vec::new();
    // Messages sent: the first, then one a step.
    for sent in 1..13 {
        let start = Instant::now();
        while delivered("ann").len() + delivered("bob").len() < sent {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "message {sent} after {steps:?}: {} and {} delivered",
                delivered("ann").len(),
                delivered("bob").len()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let mine = [(&blue, "blue"), (&red, "red")]
            .into_iter()
            .find_map(|(p, side)| {
                let (_, json) = p.inbox();
                to_play(&json).map(|play| (p, side, play, json))
            });
        // Nobody's step: the game is over.
        let Some((player, side, play, json)) = mine else {
            break;
        };
        let game = only_game(&json);
        let status: Value = serde_json::from_str(&player.ok(&[
            "check",
            game["id"].as_str().unwrap(),
            "--format",
            "json",
        ]))
        .unwrap();
        let step = status["step"]["step"].as_str().unwrap().to_owned();
        let command = commands_in(&play);
        assert_eq!(command.len(), 1, "{play}");
        // The turn resigns; its writer's audit goes with it.
        let key = format!("{side}.key");
        let _ = std::fs::remove_file(player.path("reply.eml"));
        let out = run_printed(
            player,
            &command[0],
            &[
                ("YOUR TURN", "resign"),
                ("YOUR.key", &key),
                ("ARMY", "PSRPPSRSPR"),
            ],
        );
        steps.push(step);
        // The set-up's last line when its writer moves first is not sent:
        // the writer answers it with turn 1, as it says, and sends that.
        if let Some(k) = out.find("herald move reply.eml") {
            let then = out[k..].lines().next().unwrap();
            run_printed(
                player,
                then,
                &[
                    ("YOUR TURN", "resign"),
                    ("YOUR.key", &key),
                    ("NEXT.eml", "next.eml"),
                ],
            );
            player.ok(&["send", "next.eml"]);
            steps.push("turn".into());
        }
    }
    // The set-up line that brings Red's key, the openings, the turn and
    // the last audit: each one command as the inbox printed it.
    for step in ["commit", "open", "turn", "audit"] {
        assert!(steps.iter().any(|s| s == step), "{step}: {steps:?}");
    }
    for p in [&blue, &red] {
        let (_, json) = p.inbox();
        let game = only_game(&json);
        assert_eq!(game["due"], serde_json::json!([]), "{json:#}");
        assert_ne!(game["result"], "*");
    }
}

/// `move MESSAGE TURN --key my.key --date DAY --reply -o OUT` in `dir`
/// on `day` by the clock, which must succeed.
fn answer_on(dir: &Path, message: &str, turn: &str, day: &str, out: &str) {
    common::run(
        dir,
        &[
            "move", message, turn, "--key", "my.key", "--date", day, "--reply", "-o", out,
        ],
    );
}

/// Blue answers turn 3 late while Red claims its forfeit on the same
/// message; Blue, given the claim, restores its key file from before its
/// answer and answers the claim with another turn. Both of Blue's
/// answers reach Red's mailbox, in either order: the inbox keeps the
/// answer and lists the other copy as not taken, naming Blue's fork
/// (two lines of Blue that answer one record), which Red should not
/// accept.
#[test]
fn a_second_answer_after_a_crossing_claim_is_named_a_fork_by_its_side_in_the_inbox() {
    let root = tempfile::TempDir::new().unwrap();
    let r = root.path();
    let (play, late) = ("2026-11-01", "2026-11-16");
    let (blue, red) = (r.join("ann"), r.join("bob"));
    std::fs::create_dir(&blue).unwrap();
    std::fs::create_dir(&red).unwrap();
    let mail = |from: &Path, to: &Path, name: &str| {
        std::fs::copy(from.join(name), to.join(name)).unwrap();
    };
    common::run(
        &blue,
        &[
            "new",
            "castle-danger",
            "--side",
            "Blue=ann@herald.test",
            "--side",
            "Red=bob@herald.test",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "c1.eml",
        ],
    );
    mail(&blue, &red, "c1.eml");
    common::run(
        &red,
        &[
            "keygen", "--side", "Red", "c1.eml", "--key", "my.key", "--reply", "-o", "c2.eml",
        ],
    );
    mail(&red, &blue, "c2.eml");
    answer_on(&blue, "c2.eml", "+C, Kc1-b1", play, "c3.eml");
    mail(&blue, &red, "c3.eml");
    answer_on(&red, "c3.eml", "Kc9-b9", play, "c4.eml");
    mail(&red, &blue, "c4.eml");
    std::fs::copy(blue.join("my.key"), blue.join("old.key")).unwrap();
    answer_on(&blue, "c4.eml", "Cd1-d2", late, "answer.eml");
    common::run(
        &red,
        &[
            "move",
            "c4.eml",
            "--forfeit",
            "--key",
            "my.key",
            "--date",
            late,
            "--reply",
            "-o",
            "claim.eml",
        ],
    );
    mail(&red, &blue, "claim.eml");
    std::fs::copy(blue.join("old.key"), blue.join("my.key")).unwrap();
    answer_on(&blue, "claim.eml", "Cd1-d3", late, "fork.eml");
    let sendmail = fake_sendmail(r, &r.join("sent"));
    let (answer, fork) = (blue.join("answer.eml"), blue.join("fork.eml"));
    let (answer, fork) = (answer.as_path(), fork.as_path());
    for (name, order) in [("bob1", [answer, fork]), ("bob2", [fork, answer])] {
        let reader = mbox_player(r, name, "bob@herald.test", &sendmail);
        write_mbox(&r.join(format!("{name}.mbox")), &order);
        let (code, json) = reader.inbox();
        assert_eq!(code, 1, "{json:#}");
        assert_eq!(only_game(&json)["lines"], 3, "{json:#}");
        let rejected = json["rejected"].as_array().unwrap();
        assert_eq!(rejected.len(), 1, "{json:#}");
        let verdict = rejected[0]["verdict"].as_str().unwrap();
        assert!(
            verdict.starts_with("fork: another copy of this game is kept"),
            "{verdict}"
        );
        assert!(
            verdict.contains("Blue wrote two lines that answer the same record: its turn 3 in one copy and its turn 4 after the claim of its forfeit on turn 3 in the other. A side answers a record once: this is a fork by Blue, which the other players should not accept"),
            "{verdict}"
        );
        // The copy kept holds Blue's first answer, not the claim.
        let kept = reader.ok(&["extract", &id_of(&json)]);
        assert!(kept.contains("\n3. Blue: Cd1-d2\n"), "{kept}");
        assert!(!kept.contains("forfeit claimed"), "{kept}");
    }
    // In words, under "Not taken".
    let reader = mbox_player(r, "bob3", "bob@herald.test", &sendmail);
    write_mbox(&r.join("bob3.mbox"), &[answer, fork]);
    let text = String::from_utf8(reader.herald(&["inbox"]).stdout).unwrap();
    let listed = text.split("Not taken").nth(1).unwrap_or_default();
    assert!(listed.contains("a fork by Blue"), "{text}");
}
