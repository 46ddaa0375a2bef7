//! Records read out of email as mail clients really send it: a test per
//! quoting rule of docs/record.md section 2, each through the real
//! binary, named after the rule and asserting the verdict and its reason.
//! The corpus of whole messages is in `fixtures/mail/` (tests/fixtures.rs).

use assert_cmd::Command;
use serde_json::Value;

fn herald() -> Command {
    Command::cargo_bin("herald").unwrap()
}

/// The bundled sample game (with Commit tags and reveals) cut after `n`
/// turns, its comments left out, its result `*` while it runs.
fn record(n: usize) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/castle-danger.pbem");
    let text = std::fs::read_to_string(path).unwrap();
    let (head, log) = text.split_once("\n\n").unwrap();
    let head = if n < 5 {
        head.replace("[Result \"Blue\"]", "[Result \"*\"]")
    } else {
        head.to_owned()
    };
    let mut out = format!("{head}\n\n");
    let mut turns = 0;
    for line in log.lines() {
        if line.starts_with(|c: char| c.is_ascii_digit()) {
            turns += 1;
        }
        if turns > n || turns == 0 || line.trim_start().starts_with('{') {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Every line of `text` quoted with `prefix`.
fn quoted(text: &str, prefix: &str) -> String {
    text.lines()
        .map(|l| format!("{prefix}{l}").trim_end().to_owned() + "\n")
        .collect()
}

/// `herald check --format json -` on `input`: exit code and JSON.
fn check(input: impl Into<Vec<u8>>) -> (i32, Value) {
    let output = herald()
        .args(["check", "--format", "json", "-"])
        .write_stdin(input.into())
        .output()
        .unwrap();
    let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap_or(-1), json)
}

/// The input reads as a valid game of `turns` turns.
fn reads_as(input: impl Into<Vec<u8>>, turns: u64) {
    let (code, json) = check(input);
    assert_eq!(code, 0, "{json:#}");
    assert_eq!(json["turns"], turns, "{json:#}");
}

/// The message of the error the input gets.
fn error_of(input: impl Into<Vec<u8>>) -> Value {
    let (code, json) = check(input);
    assert_eq!(code, 1, "{json:#}");
    json["error"].clone()
}

#[test]
fn mixed_quote_depths_within_one_record_are_one_record() {
    // Turn 2 came out one level deeper than the rest, right under turn 1.
    let r = record(3);
    let (head, log) = r.split_once("\n\n").unwrap();
    let mut text = quoted(head, "> ") + ">\n";
    for line in log.lines() {
        let depth = if line.contains("2. Red") || line.contains("2e2dbabf") {
            ">> "
        } else {
            "> "
        };
        text.push_str(&format!("{depth}{line}\n"));
    }
    reads_as(format!("Ann wrote:\n{text}\nYour move.\n"), 3);
}

#[test]
fn a_header_quoted_deeper_than_the_turns_is_read_with_them() {
    // The header and turn 1 from two messages back, turn 2 added under
    // them in the last one: the header is one level deeper.
    let r = record(2);
    let (head, log) = r.split_once("\n\n").unwrap();
    let (one, two) = log.split_at(log.find("2. Red").unwrap());
    let text = format!(
        "Bob wrote:\n{}>>\n{}{}\nThanks!\n",
        quoted(head, ">> "),
        quoted(one, ">> "),
        quoted(two, "> ")
    );
    reads_as(text, 2);
}

#[test]
fn turns_added_unquoted_under_a_quoted_record_are_part_of_it() {
    let r = record(3);
    let (before, turn3) = r.split_at(r.find("3. Blue").unwrap());
    let text = format!(
        "On Friday Bob wrote:\n{}\n{turn3}\nYour move!\n",
        quoted(before, "> ")
    );
    reads_as(text, 3);
}

#[test]
fn outlooks_unquoted_original_message_ends_the_record_above_it() {
    // No blank line between the new record and Outlook's separator.
    let text = format!(
        "{}-----Original Message-----\nFrom: Ann <ann@example.org>\nSent: Friday\nSubject: game\n\n{}",
        record(3),
        record(2)
    );
    reads_as(text, 3);
}

#[test]
fn top_posting_reads_the_new_record_above_the_quoted_old_one() {
    let text = format!(
        "My move:\n\n{}\nOn Friday Ann wrote:\n{}",
        record(4),
        quoted(&record(3), "> ")
    );
    reads_as(text, 4);
}

#[test]
fn bottom_posting_reads_the_new_record_below_the_quoted_old_one() {
    let text = format!(
        "On Friday Ann wrote:\n{}\nMy move:\n\n{}-- \nBob\n",
        quoted(&record(3), "> "),
        record(4)
    );
    reads_as(text, 4);
}

#[test]
fn a_reveal_rewrapped_at_72_columns_reads_whatever_its_first_digit() {
    // Quoted twice, the reveal lines are 79 columns: a client re-wraps
    // them at 72, keeping the quote marks on the rest or losing them.
    let r = quoted(&record(3), "> > ");
    for lost_marks in [false, true] {
        let mut text = String::new();
        for line in r.lines() {
            if line.len() > 72 && line.contains("reveal") {
                let (a, b) = line.split_at(72);
                let rest = if lost_marks { "" } else { "> > " };
                text.push_str(&format!("{a}\n{rest}{b}\n"));
            } else {
                text.push_str(line);
                text.push('\n');
            }
        }
        reads_as(format!("Ann wrote:\n{text}\n"), 3);
    }
    // Broken at every place in the value (the rest starting with a digit
    // or a letter), and between the word and the value.
    let r = record(2);
    let reveal = "d3fb856116ea19bbfbe695ee4825e9bea7ef6102ca007feb60a81350a2e50b97";
    for k in 0..64 {
        let text = r.replace(
            &format!("reveal {reveal}"),
            &format!("reveal {}\n{}", &reveal[..k], &reveal[k..]),
        );
        reads_as(quoted(&text, "> "), 2);
    }
}

#[test]
fn a_commit_tag_rewrapped_at_its_space_reads_with_or_without_quote_marks() {
    let r = quoted(&record(1), "> ");
    for rest in ["> ", ""] {
        let text = r
            .replace("> [BlueCommit \"", &format!("> [BlueCommit\n{rest}\""))
            .replace("> [RedCommit \"", &format!("> [RedCommit\n{rest}\""));
        reads_as(text, 1);
    }
}

#[test]
fn no_break_spaces_read_as_spaces() {
    // HTML mail turns indentation and the space after `>` into U+00A0.
    let text =
        quoted(&record(2), ">\u{a0}").replace("    reveal", "\u{a0}\u{a0}\u{a0}\u{a0}reveal");
    reads_as(text, 2);
}

#[test]
fn curly_quotes_in_header_tags_read_as_straight_quotes() {
    let r = record(2).replace("[Result \"*\"]", "[Result \u{201c}*\u{201d}]");
    let r = r.replace(
        "[Blue \"ann@example.org\"]",
        "[Blue \u{201c}ann@example.org\u{201d}]",
    );
    reads_as(r, 2);
}

#[test]
fn two_records_that_disagree_are_an_error_naming_both() {
    let changed = record(3).replace("3. Blue: Cd3*d7, Kc1-b1", "3. Blue: Cd3*d7, Kc1-c2");
    let text = format!(
        "{changed}\nOn Friday Ann wrote:\n{}",
        quoted(&record(3), "> ")
    );
    let error = error_of(text);
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("two records of the game here disagree"),
        "{message}"
    );
    assert!(message.contains("Kc1-c2") && message.contains("Kc1-b1"));
    assert!(!message.contains("altered"), "{message}");
}

#[test]
fn a_line_quoted_deeper_than_the_record_is_named_as_quoting_when_at_fault() {
    // Red's reveal, one level deeper, has lost a digit to the quoting.
    let r = record(2);
    let reveal = "2e2dbabf8f91090eecad9f2efa19050295ffc480302f7d076d3fa4451a10d081";
    let text: String = r
        .lines()
        .map(|l| match l.contains(reveal) {
            true => format!(">> {}\n", l.replace(reveal, &reveal[1..])),
            false => format!("> {l}\n"),
        })
        .collect();
    let error = error_of(text);
    let note = error["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("this line is quoted one level deeper than the record"),
        "{error:#}"
    );
    assert_eq!(error["line"], 11);
}

#[test]
fn a_stray_latin1_byte_outside_the_record_is_no_reason_to_refuse() {
    let mut message = b"From: bob@example.org\nTo: ann@example.org\nSubject: game\n\
        Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
        .to_vec();
    message.extend(record(2).as_bytes());
    message.extend(b"\n-- \nBob M\xfcller\n");
    reads_as(message, 2);
}

#[test]
fn positions_in_a_message_as_given_count_its_header_lines() {
    let message = format!(
        "From: bob@example.org\nTo: ann@example.org\nSubject: game\n\n{}",
        record(2).replace("Bd8+d7", "Bd8+d1")
    );
    let error = error_of(message);
    // Six tags, a blank line, turn 1 and its reveal: turn 2 is line 10 of
    // the body, line 14 of the message.
    assert_eq!(error["line"], 14, "{error:#}");
    assert_eq!(error["turn"], 2);
}

// ---------------------------------------------------------------- mailboxes

fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/mail")
        .join(name)
}

fn json_of(args: &[&str], path: &std::path::Path) -> (i32, Value) {
    let output = herald()
        .args(args)
        .args(["--format", "json"])
        .arg(path)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&output.stdout).unwrap();
    (output.status.code().unwrap_or(-1), json)
}

#[test]
fn a_mailbox_gives_the_newest_record_or_the_message_named() {
    let mbox = fixture("thread-whole-game.mbox");
    let (code, json) = json_of(&["check"], &mbox);
    assert_eq!((code, json["turns"].clone()), (0, 5.into()));
    let (code, json) = json_of(&["check", "--message", "3"], &mbox);
    assert_eq!((code, json["turns"].clone()), (0, 2.into()));
    let (code, json) = json_of(&["show", "--message", "2"], &mbox);
    assert_eq!((code, json["turn"].clone()), (0, 1.into()));
    let (code, json) = json_of(&["check", "--message", "9"], &mbox);
    assert_eq!(code, 1);
    assert!(json["error"]["message"]
        .as_str()
        .unwrap()
        .contains("there is no message 9: messages are numbered 1 to 6"));
}

#[test]
fn a_maildir_folder_is_read_as_a_mailbox() {
    let mbox = std::fs::read(fixture("thread-whole-game.mbox")).unwrap();
    let dir = tempfile::TempDir::new().unwrap();
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
    }
    // Split at the `From ` lines; Maildir names start with the time.
    let text = String::from_utf8(mbox).unwrap();
    for (k, message) in text.split("\nFrom ").enumerate() {
        let body = message.split_once('\n').unwrap().1;
        let sub = if k < 4 { "cur" } else { "new" };
        let name = format!("17638{k}0000.M{k}P1.host:2,S");
        std::fs::write(dir.path().join(sub).join(name), body).unwrap();
    }
    let (code, json) = json_of(&["check"], dir.path());
    assert_eq!((code, json["turns"].clone()), (0, 5.into()), "{json:#}");
    let (code, json) = json_of(&["check", "--message", "2"], dir.path());
    assert_eq!((code, json["turns"].clone()), (0, 1.into()), "{json:#}");
}

#[test]
fn check_all_lists_every_record_found_with_its_verdict() {
    let (code, json) = json_of(&["check", "--all"], &fixture("thread-whole-game.mbox"));
    assert_eq!(code, 0);
    let records = json["records"].as_array().unwrap();
    // Each message quotes all the ones before it.
    assert_eq!(records.len(), 21);
    assert!(records.iter().all(|r| r["ok"] == true));
    let newest = json["newest"].as_u64().unwrap() as usize;
    assert_eq!(records[newest - 1]["message"], 6);
    assert_eq!(records[newest - 1]["turns"], 5);

    let (code, json) = json_of(&["check", "--all"], &fixture("disagreeing-records.eml"));
    assert_eq!(code, 1);
    assert_eq!(json["records"][0]["error"]["kind"], "illegal");
    assert_eq!(json["records"][1]["ok"], true);
    assert_eq!(json["newest"], Value::Null);
    assert!(json["newest_error"].as_str().unwrap().contains("disagree"));
}

// ---------------------------------------------------------------- writing

fn run(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let output = herald().current_dir(dir).args(args).output().unwrap();
    assert!(
        output.status.success(),
        "herald {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn header_of<'a>(message: &'a str, name: &str) -> Option<&'a str> {
    let head = message.split("\n\n").next().unwrap();
    head.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
}

/// A Castle Danger game in `d` (`game.pbem`: Blue ann@example.org, Red
/// Bob <bob@example.org>) and both key files (`blue.key`, `red.key`).
fn castle_danger_keyed_in(d: &std::path::Path) {
    run(
        d,
        &[
            "new",
            "castle-danger",
            "--side",
            "Blue=ann@example.org",
            "--side",
            "Red=Bob <bob@example.org>",
            "-o",
            "game.pbem",
        ],
    );
    for side in ["Blue", "Red"] {
        let key = format!("{}.key", side.to_lowercase());
        run(d, &["keygen", "--side", side, "game.pbem", "-o", &key]);
    }
}

#[test]
fn a_game_played_through_eml_files_threads_its_replies() {
    let dir = tempfile::TempDir::new().unwrap();
    let d = dir.path();
    castle_danger_keyed_in(d);
    // Ann plays from her record file and writes the message to Bob.
    run(
        d,
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
    // Bob answers the message itself; Ann answers Bob's.
    run(
        d,
        &[
            "move",
            "t1.eml",
            "+B, Bd9-d8, Bd8+d7",
            "--key",
            "red.key",
            "--reply",
            "-o",
            "t2.eml",
        ],
    );
    run(
        d,
        &[
            "move",
            "t2.eml",
            "Cd3*d7, Kc1-b1",
            "--key",
            "blue.key",
            "--reply",
            "-o",
            "t3.eml",
        ],
    );
    let read = |name: &str| std::fs::read_to_string(d.join(name)).unwrap();
    let (t1, t2, t3) = (read("t1.eml"), read("t2.eml"), read("t3.eml"));
    assert_eq!(header_of(&t1, "From"), Some("ann@example.org"));
    assert_eq!(header_of(&t1, "To"), Some("Bob <bob@example.org>"));
    assert_eq!(
        header_of(&t1, "Subject"),
        Some("Castle Danger: turn 1 (Blue) played, Red to move")
    );
    assert_eq!(header_of(&t2, "To"), Some("ann@example.org"));
    assert_eq!(header_of(&t2, "In-Reply-To"), header_of(&t1, "Message-ID"));
    // References is folded over lines in a long thread.
    let refs = t3
        .split("\n\n")
        .next()
        .unwrap()
        .split("References:")
        .nth(1)
        .unwrap();
    assert!(refs.contains(header_of(&t1, "Message-ID").unwrap()));
    assert!(refs.contains(header_of(&t2, "Message-ID").unwrap()));
    for message in [&t1, &t2, &t3] {
        assert!(
            message.lines().all(|l| l.chars().count() <= 78),
            "{message}"
        );
        assert!(message.contains("to move"), "{message}");
    }
    // Each message reads as the game so far; the messages answered and
    // Bob's copy were left alone.
    let (code, json) = json_of(&["check"], &d.join("t3.eml"));
    assert_eq!((code, json["turns"].clone()), (0, 3.into()), "{json:#}");
    assert_eq!(read("t1.eml"), t1);
    let (_, json) = json_of(&["check"], &d.join("game.pbem"));
    assert_eq!(json["turns"], 1);
}

#[test]
fn a_reply_lists_the_next_player_as_to_and_the_others_as_cc() {
    let dir = tempfile::TempDir::new().unwrap();
    let d = dir.path();
    run(
        d,
        &[
            "new",
            "battle-of-the-dale",
            "--side",
            "Human=h@x.org",
            "--side",
            "Elf=e@x.org",
            "--side",
            "Goblin=g@x.org",
            "-o",
            "dale.pbem",
        ],
    );
    run(d, &["move", "dale.pbem", "R@A1", "--reply", "-o", "t1.eml"]);
    let t1 = std::fs::read_to_string(d.join("t1.eml")).unwrap();
    assert_eq!(header_of(&t1, "From"), Some("h@x.org"));
    assert_eq!(header_of(&t1, "To"), Some("e@x.org"));
    assert_eq!(header_of(&t1, "Cc"), Some("g@x.org"));
}

#[test]
fn writers_never_rewrite_a_message_nor_overwrite_a_file() {
    let dir = tempfile::TempDir::new().unwrap();
    let d = dir.path();
    let message = fixture("gmail-qp-soft-breaks.eml");
    std::fs::copy(&message, d.join("in.eml")).unwrap();
    let before = std::fs::read(d.join("in.eml")).unwrap();
    let output = herald()
        .current_dir(d)
        .args(["move", "in.eml", "+W"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("is an email message"), "{err}");
    // The answer it names is the one typed, with --reply.
    assert!(
        err.contains("(herald move in.eml \"+W\" --key YOUR.key --reply -o reply.eml)"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("in.eml")).unwrap(), before);
    // extract writes a clean record, and never over a file.
    run(d, &["extract", "in.eml", "-o", "game.pbem"]);
    let record = std::fs::read_to_string(d.join("game.pbem")).unwrap();
    assert!(record.starts_with("[Game \"castle-danger\"]\n"));
    assert!(!record.contains('>') && !record.contains("=\n"));
    let (code, json) = json_of(&["check"], &d.join("game.pbem"));
    assert_eq!((code, json["turns"].clone()), (0, 3.into()));
    let output = herald()
        .current_dir(d)
        .args(["extract", "in.eml", "-o", "game.pbem"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("exists already"));
}

#[test]
fn every_readers_json_says_ok_on_success() {
    let record = fixture("thread-whole-game.mbox");
    for command in ["check", "show", "replay", "annotate", "legal", "fate"] {
        let (code, json) = json_of(&[command, "--message", "5"], &record);
        assert_eq!(code, 0, "{command}");
        assert_eq!(json["ok"], true, "{command}: {json:#}");
    }
}

/// A quick stand-in for the `mail` fuzz target in every test run: each
/// message of the corpus cut short anywhere, and with bytes changed, is
/// read without a panic.
#[test]
fn cut_and_altered_messages_never_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mail");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "expect") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        for cut in (0..bytes.len()).step_by(13) {
            let _ = herald::record::read(&bytes[..cut], None);
            let mut altered = bytes.clone();
            altered[cut] = [b'>', b'\n', b'=', b'[', 0xc3, b' '][cut % 6];
            let _ = herald::record::read(&altered, None);
        }
    }
}

#[test]
fn a_reply_on_a_mailbox_answers_the_message_its_record_stands_in() {
    // Ann's turn 1 (t1.eml) and Bob's answer (t2.eml) filed in one mbox
    // file, Bob's first (a mailbox in another order than the game's):
    // Ann's reply on the mailbox answers Bob's message, the one the
    // newest record stands in, in the thread of both.
    let dir = tempfile::TempDir::new().unwrap();
    let d = dir.path();
    castle_danger_keyed_in(d);
    let answer = |on: &str, turn: &str, key: &str, out: &str| {
        run(d, &["move", on, turn, "--key", key, "--reply", "-o", out]);
    };
    answer("game.pbem", "+C, Cd1-d2-d3", "blue.key", "t1.eml");
    answer("t1.eml", "+B, Bd9-d8, Bd8+d7", "red.key", "t2.eml");
    let read = |name: &str| std::fs::read_to_string(d.join(name)).unwrap();
    let (t1, t2) = (read("t1.eml"), read("t2.eml"));
    let mbox = format!(
        "From bob@example.org Sun Nov 29 10:00:00 2026\n{}\n\nFrom ann@example.org Sun Nov 29 09:00:00 2026\n{}\n",
        t2.replace("\r\n", "\n"),
        t1.replace("\r\n", "\n")
    );
    std::fs::write(d.join("game.mbox"), mbox).unwrap();
    answer("game.mbox", "Cd3*d7, Kc1-b1", "blue.key", "t3.eml");
    let t3 = read("t3.eml");
    let (id1, id2) = (
        header_of(&t1, "Message-ID").unwrap(),
        header_of(&t2, "Message-ID").unwrap(),
    );
    assert_ne!(id1, id2);
    assert_eq!(header_of(&t3, "In-Reply-To"), Some(id2), "{t3}");
    let head = t3.split("\n\n").next().unwrap();
    let refs = head.split("References:").nth(1).unwrap();
    assert!(refs.contains(id1) && refs.contains(id2), "{head}");
}
