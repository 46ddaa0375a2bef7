//! What the flow tests share: the real binary run in a player's
//! directory, its output read as text or JSON. Not every test file uses
//! every helper, hence the allowance.
#![allow(dead_code)]

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

/// `herald` in `dir`, without colour.
pub fn herald(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("herald").unwrap();
    cmd.current_dir(dir).env("NO_COLOR", "1");
    cmd
}

/// A command whose `args` date a line (`--date DAY`) runs on that day by
/// the clock (`HERALD_TODAY`): a player writes a line the day it is
/// dated, and `herald` refuses a date ahead of its clock.
pub fn on_its_day(cmd: &mut Command, args: &[&str]) {
    if let Some(k) = args.iter().position(|a| *a == "--date") {
        if let Some(day) = args.get(k + 1) {
            cmd.env("HERALD_TODAY", day);
        }
    }
}

/// Run `herald ARGS` in `dir`; it must succeed. Its standard output.
pub fn run(dir: &Path, args: &[&str]) -> String {
    let mut cmd = herald(dir);
    on_its_day(&mut cmd, args);
    let out = cmd.args(args).output().unwrap();
    assert!(
        out.status.success(),
        "herald {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Run `herald ARGS` in `dir`, which must fail with `code`: its standard
/// error.
pub fn fails(dir: &Path, args: &[&str], code: i32) -> String {
    let mut cmd = herald(dir);
    on_its_day(&mut cmd, args);
    let out = cmd.args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "herald {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr).unwrap()
}

/// Run `herald ARGS` in `dir` (it must succeed) and read its JSON.
pub fn json(dir: &Path, args: &[&str]) -> Value {
    serde_json::from_str(&run(dir, args)).unwrap()
}

/// The error `check --format json` gives in `dir` for its `game.pbem`,
/// which must be refused (exit 1). Not every flow test tampers with a
/// record, hence the allowance.
pub fn refused(dir: &Path) -> Value {
    let out = herald(dir)
        .args(["check", "game.pbem", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], false);
    v["error"].clone()
}

/// Take the `Deadline` tag out of the record at `path`, before its first
/// line: a game as records made before the tag read (spec section 3.8),
/// its lines undated and a forfeit claimable at once, for tests about
/// other things. Not every flow test needs it, hence the allowance.
pub fn undated(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let without: String = text
        .lines()
        .filter(|l| !l.starts_with("[Deadline "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(without, text, "{} has no Deadline tag", path.display());
    std::fs::write(path, without).unwrap();
}

/// The value of header `name` in the message at `message`, unfolded (a
/// long header goes on over lines that begin with a space).
pub fn field(message: &Path, name: &str) -> String {
    let text = std::fs::read_to_string(message).unwrap();
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with(&format!("{name}: ")));
    let mut value = lines
        .next()
        .unwrap_or_else(|| panic!("no {name} in {}", message.display()))[name.len() + 2..]
        .to_owned();
    for more in lines.take_while(|l| l.starts_with([' ', '\t'])) {
        value.push_str(more);
    }
    value
}

/// `herald move MESSAGE TURN --key my.key --reply -o OUT` in `dir`, which
/// must be refused as illegal (exit 1), writing nothing and leaving the
/// key file as it was: its standard error.
pub fn refused_answer(dir: &Path, message: &str, turn: &str, out: &str) -> String {
    let key = std::fs::read(dir.join("my.key")).unwrap();
    let o = herald(dir)
        .args([
            "move", message, turn, "--key", "my.key", "--reply", "-o", out,
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(!dir.join(out).exists(), "nothing written");
    assert_eq!(std::fs::read(dir.join("my.key")).unwrap(), key);
    String::from_utf8(o.stderr).unwrap()
}

/// One run at a time on the shared test mail accounts (ann, bob, cara,
/// dave, kay @herald.test): every test that empties or reads them holds
/// this inter-process lock, so that two runs (CI, another worktree) do
/// not break each other. Held until the guard is dropped.
pub fn shared_accounts() -> fd_lock::RwLockWriteGuard<'static, std::fs::File> {
    let file =
        std::fs::File::create(std::env::temp_dir().join("herald-mail-accounts.lock")).unwrap();
    Box::leak(Box::new(fd_lock::RwLock::new(file)))
        .write()
        .unwrap()
}

/// `python3 SCRIPT ARGS`, for the tests that check herald against an
/// independent Python reference (`what` names what it checks). Its
/// output; or, where python3 cannot run, `None` and a warning that `what`
/// was NOT checked (a failure on CI, which installs python3).
pub fn python_reference(script: &Path, args: &[&Path], what: &str) -> Option<std::process::Output> {
    match std::process::Command::new("python3")
        .arg(script)
        .args(args)
        .output()
    {
        Ok(output) => Some(output),
        Err(e) => {
            let message = format!(
                "{what} were NOT checked against {}: python3 could not be run ({e}) \
                 (Debian package `python3`: apt-get install -y python3)",
                script.display()
            );
            if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false") {
                panic!("{message}");
            }
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "\nwarning: {message}\n");
            None
        }
    }
}

/// Mail `name` from the player directory `from` to `to`.
pub fn mail(from: &Path, to: &Path, name: &str) {
    std::fs::copy(from.join(name), to.join(name)).unwrap();
}

/// Two players of Castle Danger, Blue (Ann) and Red (Bob), each in a
/// directory of their own with their key file `my.key`.
pub struct Players {
    _root: tempfile::TempDir,
    pub blue: std::path::PathBuf,
    pub red: std::path::PathBuf,
}

/// Castle Danger by email up to both keys: Blue's first message
/// (`new --key --reply`, `c1.eml`) and Red's key (`keygen --reply`,
/// `c2.eml`), each mailed to the other: `c2.eml` in both directories.
pub fn castle_danger_keyed() -> Players {
    let root = tempfile::tempdir().unwrap();
    let (blue, red) = (root.path().join("ann"), root.path().join("bob"));
    std::fs::create_dir(&blue).unwrap();
    std::fs::create_dir(&red).unwrap();
    run(
        &blue,
        &[
            "new",
            "castle-danger",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=bob@example.org",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "c1.eml",
        ],
    );
    mail(&blue, &red, "c1.eml");
    run(
        &red,
        &[
            "keygen", "--side", "Red", "c1.eml", "--key", "my.key", "--reply", "-o", "c2.eml",
        ],
    );
    mail(&red, &blue, "c2.eml");
    Players {
        _root: root,
        blue,
        red,
    }
}

/// Castle Danger by email up to Blue's turn 1, received by Red as
/// `c3.eml` (in both directories): Blue's first message (`new --key
/// --reply`), Red's key (`keygen --reply`), Blue's turn 1 (`move
/// --reply`).
pub fn castle_danger_turn_one() -> Players {
    let players = castle_danger_keyed();
    run(
        &players.blue,
        &[
            "move",
            "c2.eml",
            "+C, Kc1-b1",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "c3.eml",
        ],
    );
    mail(&players.blue, &players.red, "c3.eml");
    players
}

/// `herald move MESSAGE WHAT... --key my.key --date DAY --reply -o OUT`
/// in `dir` (`WHAT` a turn, or `--forfeit`), on `day` by the clock; it
/// must succeed. Its standard output.
pub fn dated_answer(dir: &Path, message: &str, what: &[&str], day: &str, out: &str) -> String {
    let mut args = vec!["move", message];
    args.extend_from_slice(what);
    args.extend(["--key", "my.key", "--date", day, "--reply", "-o", out]);
    run(dir, &args)
}

/// Castle Danger by email ([`castle_danger_keyed`]) on to a claim of a
/// forfeit (spec section 3.8): `turns` turns dated `play_day`, each
/// answering the message before it and mailed to the other player
/// (Blue's `+C, Kc1-b1` in `c3.eml`, then Red's `Kc9-b9` in `c4.eml`),
/// then the writer of the last one claims the other side's forfeit on
/// its own message, dated `claim_day`, in `claim`, left in the
/// claimant's directory (the caller mails it, or not).
pub fn castle_danger_claimed(
    turns: usize,
    play_day: &str,
    claim_day: &str,
    claim: &str,
) -> Players {
    let players = castle_danger_keyed();
    let plays = [
        (
            &players.blue,
            &players.red,
            "c2.eml",
            "+C, Kc1-b1",
            "c3.eml",
        ),
        (&players.red, &players.blue, "c3.eml", "Kc9-b9", "c4.eml"),
    ];
    assert!((1..=plays.len()).contains(&turns), "{turns} turns");
    for (from, to, on, turn, out) in &plays[..turns] {
        dated_answer(from, on, &[turn], play_day, out);
        mail(from, to, out);
    }
    let (claimant, _, _, _, last) = plays[turns - 1];
    dated_answer(claimant, last, &["--forfeit"], claim_day, claim);
    players
}

/// The seal (hex) that key file `key` makes of line `number` of `side`
/// (`kind`, its `text` as the seal covers it: each item's words after
/// the line's head) in `record` (its header's tags give the game), with
/// `before` the record digest before the line as `check` prints it
/// (spec section 3.8): what a player who edits its own line and signs it
/// again would write.
pub fn seal_hex(
    record: &str,
    kind: herald::fairness::SealedKind,
    number: u32,
    side: &str,
    text: &str,
    before: &str,
    key: &Path,
) -> String {
    // The header's tags, some written over two lines.
    let header = record[..record.find("\n\n").unwrap()].replace('\n', " ");
    let tags: Vec<(&str, &str)> = header
        .split(']')
        .filter_map(|t| t.trim().strip_prefix('['))
        .map(|t| {
            let (name, value) = t.split_once(' ').unwrap();
            (name, value.trim().trim_matches('"'))
        })
        .collect();
    let game = herald::fairness::chain_id(tags);
    let bytes = herald::fairness::line_bytes(kind, number, side, text);
    let mut digest = [0u8; 32];
    for (k, byte) in digest.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&before[2 * k..2 * k + 2], 16).unwrap();
    }
    let message = herald::fairness::seal_message(&game, &bytes, &digest);
    let wallet = herald::wallet::Wallet::parse(&std::fs::read_to_string(key).unwrap()).unwrap();
    wallet
        .sign(&message)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Three players of Battle of the Dale, one folder each (`ann` the
/// Human, `eve` the Elf, `gus` the Goblin, addresses at `domain`) under
/// a new temporary root: the Human's `new` with key file `key` and
/// reply `out`, mailed to the other two. The root and the three folders.
pub fn dale_three_started(
    domain: &str,
    key: &str,
    out: &str,
) -> (tempfile::TempDir, [std::path::PathBuf; 3]) {
    let root = tempfile::tempdir().unwrap();
    let dir = |who: &str| {
        let d = root.path().join(who);
        std::fs::create_dir(&d).unwrap();
        d
    };
    let (human, elf, goblin) = (dir("ann"), dir("eve"), dir("gus"));
    let side = |s: &str, who: &str| format!("{s}={who}@{domain}");
    let (h, e, g) = (
        side("Human", "ann"),
        side("Elf", "eve"),
        side("Goblin", "gus"),
    );
    run(
        &human,
        &[
            "new",
            "battle-of-the-dale",
            "--side",
            &h,
            "--side",
            &e,
            "--side",
            &g,
            "--key",
            key,
            "--reply",
            "-o",
            out,
        ],
    );
    mail(&human, &elf, out);
    mail(&human, &goblin, out);
    (root, [human, elf, goblin])
}

/// A signed Castle Danger self-play record of more than 40,000 bytes
/// (some ten parts of a record read a part at a time).
pub fn signed_castle_danger() -> String {
    use herald::games::castle_danger::CastleDanger;
    use herald::selfplay::{self, Options};
    (0..)
        .map(|seed| {
            let mut options = Options::new::<CastleDanger>(seed, 2);
            options.max_turns = 300;
            options.signatures = true;
            selfplay::record::<CastleDanger>(&options).unwrap()
        })
        .find(|text| text.len() > 40_000)
        .unwrap()
}

/// `text` with the `n`-th line that starts with `start` changed by `f`.
pub fn change_line(text: &str, start: &str, n: usize, f: impl Fn(&str) -> String) -> String {
    let mut seen = 0;
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with(start) {
            seen += 1;
            if seen == n {
                out.push_str(&f(line));
                continue;
            }
        }
        out.push_str(line);
    }
    assert_eq!(seen.min(n), n, "no line {n} starting {start}");
    out
}

/// A Castle Danger record of `turns` passing turns.
pub fn passes(turns: usize) -> String {
    let mut text = String::from(
        "[Game \"castle-danger\"]\n[Blue \"a@example.org\"]\n[Red \"b@example.org\"]\n[Result \"*\"]\n\n",
    );
    for n in 1..=turns {
        let side = if n % 2 == 1 { "Blue" } else { "Red" };
        text.push_str(&format!("{n}. {side}: pass\n"));
    }
    text
}
