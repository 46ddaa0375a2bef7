//! `herald check` of a plain record reads it a part at a time (about 16
//! KiB of text, `record::stream`); every verdict and every error must be
//! the one the whole read gives. `check --message 1` of a plain file reads
//! it whole, as the other readers do, so each case here runs both ways
//! and compares exit code, standard output and standard error. The
//! records are longer than a part, with their problems in later parts.

mod common;

use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

fn herald() -> Command {
    Command::cargo_bin("herald").unwrap()
}

/// `check` of `text` read a part at a time and read whole, from a file
/// and from standard input, with `args`: the same; the first output.
fn same(text: &str, args: &[&str]) -> (i32, String, String) {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("game.pbem");
    std::fs::write(&path, text).unwrap();
    let run = |whole: &[&str], input: Option<&str>| {
        let mut cmd = herald();
        cmd.current_dir(dir.path())
            .arg("check")
            .args(whole)
            .args(args);
        let out = match input {
            Some(text) => cmd.arg("-").write_stdin(text).output().unwrap(),
            None => cmd.arg(Path::new("game.pbem")).output().unwrap(),
        };
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let streamed = run(&[], None);
    assert_eq!(streamed, run(&["--message", "1"], None), "{args:?}");
    let piped = run(&[], Some(text));
    assert_eq!(piped, run(&["--message", "1"], Some(text)), "{args:?} -");
    streamed
}

/// A signature's last hex digit changed.
fn flip_sig(line: &str) -> String {
    let body = line.trim_end();
    let last = if body.ends_with('0') { '1' } else { '0' };
    format!("{}{last}\n", &body[..body.len() - 1])
}

#[test]
fn a_long_signed_record_checks_the_same_read_in_parts() {
    let text = common::signed_castle_danger();
    let (code, out, _) = same(&text, &[]);
    assert_eq!(code, 0);
    assert!(out.contains("Digest: "), "{out}");
    same(&text, &["--format", "json"]);
}

#[test]
fn a_broken_signature_in_a_later_part_is_named_as_when_read_whole() {
    let text = common::signed_castle_danger();
    let lines = text.matches("sig ").count();
    for n in [3, lines / 2, lines - 1] {
        let broken = common::change_line(&text, "sig ", n, flip_sig);
        let (code, _, err) = same(&broken, &[]);
        assert_eq!(code, 1);
        assert!(err.contains("signature does not match"), "{err}");
        same(&broken, &["--format", "json"]);
    }
}

/// A signed Castle Danger record of some 1,500 turns (365 KB: the first
/// part of 16 KiB, then parts of 64 KiB, the streamed reader's parts for
/// signed records, and several windows of 256 signatures).
fn long_signed_castle_danger() -> String {
    use herald::games::castle_danger::CastleDanger;
    use herald::selfplay::{self, Options};
    let mut options = Options::new::<CastleDanger>(0, 2);
    options.max_turns = 3000;
    options.stop_percent = 50;
    options.signatures = true;
    let text = selfplay::record::<CastleDanger>(&options).unwrap();
    assert!(text.len() > 16 * 1024 + 2 * 128 * 1024, "{}", text.len());
    text
}

#[test]
fn a_broken_signature_in_any_part_of_a_long_signed_record_is_named_as_when_read_whole() {
    let text = long_signed_castle_danger();
    assert_eq!(same(&text, &[]).0, 0);
    let lines = text.matches("sig ").count();
    // The first part (16 KiB, read with the header), a window's last
    // and the next window's first signature, the parts of 64 KiB after
    // it, the last line.
    for n in [2, 256, 257, 700, lines / 2, lines * 5 / 6, lines] {
        let broken = common::change_line(&text, "sig ", n, flip_sig);
        let (code, _, err) = same(&broken, &[]);
        assert_eq!(code, 1, "{n}");
        assert!(err.contains("signature does not match"), "{n}: {err}");
    }
}

#[test]
fn a_signed_record_without_a_shared_deck_is_read_in_parts_that_hold_a_window_of_signatures() {
    use herald::games::castle_danger::CastleDanger;
    use herald::record::stream::{Visitor, PART};
    use herald::referee::{Keep, Replay};
    let part = |text: &str| {
        let source = herald::record::Source::new(text.as_bytes()).unwrap();
        let record = herald::record::parse(&source).unwrap();
        Replay::<CastleDanger>::start(&record, Keep::RULES)
            .unwrap()
            .part_bytes()
    };
    // Some 240 bytes a signed line: 256 of them in a part of 64 KiB.
    let signed = part(&common::signed_castle_danger());
    assert_eq!(signed, 4 * PART);
    assert!(signed >= 256 * 240, "{signed}");
    // Unsigned, the reader's own parts.
    assert_eq!(part(&common::passes(10)), 0);
}

#[test]
fn an_early_broken_signature_comes_before_a_later_illegal_line() {
    let text = common::signed_castle_danger();
    let broken = common::change_line(&text, "sig ", 5, flip_sig);
    let late = text.matches("Blue: ").count() - 3;
    let broken = common::change_line(&broken, &format!("{}. Blue:", 2 * late - 1), 1, |l| match l
        .contains("Blue: pass")
    {
        true => l.replacen("Blue: pass", "Blue: Kc1-c9", 1),
        false => l.replacen("Blue:", "Blue: Kc1-c9,", 1),
    });
    let (code, _, err) = same(&broken, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("signature does not match"), "{err}");
}

#[test]
fn a_later_parse_error_comes_before_an_earlier_illegal_turn() {
    let text = common::change_line(&common::passes(3000), "10. Red", 1, |_| {
        "10. Red: Kc9-c1\n".into()
    });
    let (code, _, err) = same(&text, &[]);
    assert_eq!((code, err.contains("error[illegal]")), (1, true), "{err}");
    let text = common::change_line(&text, "2899. Blue", 1, |_| "2899. Blue: pass,\n".into());
    let (code, _, err) = same(&text, &[]);
    assert_eq!((code, err.contains("error[parse]")), (1, true), "{err}");
    assert!(err.contains(":2904:"), "{err}");
}

#[test]
fn header_problems_wait_for_the_rest_to_parse() {
    let long = common::passes(3000);
    for (from, to) in [
        ("castle-danger", "no-such-game"),
        ("[Result \"*\"]", "[Result \"1-0\"]"),
        ("[Red \"b@example.org\"]\n", ""),
    ] {
        let text = long.replacen(from, to, 1);
        let (code, _, err) = same(&text, &[]);
        assert_eq!((code, err.contains("error[record]")), (1, true), "{err}");
        same(&text, &["--format", "json"]);
        let text = common::change_line(&text, "2999. Blue", 1, |_| "2999. Blue: pass,\n".into());
        let (_, _, err) = same(&text, &[]);
        assert!(err.contains("error[parse]"), "{err}");
    }
}

#[test]
fn comments_and_quoting_across_part_ends_read_the_same() {
    let long = common::passes(3000);
    let text = common::change_line(&long, "1000. Red", 1, |l| {
        format!("{} {{{}}}\n", l.trim_end(), "a long comment\n".repeat(2000))
    });
    assert_eq!(same(&text, &[]).0, 0);
    let quoted: String = long.lines().map(|l| format!("> {l}\r\n")).collect();
    let text = format!("Hi,\r\n\r\nmy move:\r\n\r\n{quoted}\r\n> 3001. Blue: Kc1-c9\r\n");
    let (code, _, err) = same(&text, &[]);
    assert_eq!(code, 1);
    assert!(err.contains(":3011:"), "{err}");
    let unclosed = format!("{long}3001. Blue: pass {{a comment never closed\n");
    let (code, _, err) = same(&unclosed, &[]);
    assert_eq!((code, err.contains("never closed")), (1, true), "{err}");
}

#[test]
fn a_header_longer_than_a_part_before_an_indented_first_turn_checks_as_when_read_whole() {
    // The first part ends on the first turn's line; the header's white
    // space ends after that line's spaces (or on the last tag's line),
    // and the turn was dropped: "turn 1 is numbered 2" (fuzz finding 6).
    let notes: String = (0..400)
        .map(|k| format!("[Note{k} \"a tag long enough to fill a part of 16 KiB\"]\n"))
        .collect();
    let long = common::passes(20).replacen("[Result", &format!("{notes}[Result"), 1);
    for text in [
        long.replacen("\n1. Blue", "\n 1. Blue", 1),
        long.replacen("\n\n1. Blue", "\t  1. Blue", 1),
    ] {
        let (code, out, err) = same(&text, &[]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("OK: Castle Danger, 20 turns"), "{out}");
    }
}

#[test]
fn many_long_records_are_each_read_in_parts() {
    let dir = TempDir::new().unwrap();
    let long = common::passes(3000);
    let illegal = common::change_line(&long, "2000. Red", 1, |_| "2000. Red: Kc9-c1\n".into());
    let bad = common::change_line(&long, "2999. Blue", 1, |_| "2999. Blue: pass,\n".into());
    for (name, text) in [("a.pbem", &long), ("b.pbem", &illegal), ("c.pbem", &bad)] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let out = herald()
        .current_dir(dir.path())
        .args(["check", "a.pbem", "b.pbem", "c.pbem"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "a.pbem: OK: Castle Danger, 3000 turns, result *");
    assert!(
        lines[1].starts_with("b.pbem:2005:12: invalid: turn 2000, Red: Kc9-c1: "),
        "{}",
        lines[1]
    );
    assert!(lines[2].starts_with("c.pbem:3004:"), "{}", lines[2]);
    assert_eq!(lines.len(), 3);
}

#[test]
fn a_pipe_named_as_a_file_is_read_as_standard_input_is() {
    let dir = TempDir::new().unwrap();
    let fifo = dir.path().join("game.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success(), "mkfifo");
    let text = common::passes(3000);
    let writer = {
        let (fifo, text) = (fifo.clone(), text.clone());
        std::thread::spawn(move || std::fs::write(fifo, text).unwrap())
    };
    let out = herald().arg("check").arg(&fifo).output().unwrap();
    writer.join().unwrap();
    let said = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains(": OK: Castle Danger, 3000 turns"), "{said}");
}

#[test]
fn a_line_longer_than_a_record_line_may_be_is_refused_at_its_line_by_every_reader() {
    let long = common::passes(3000);
    let comment = format!("{{{}}}\n", "a".repeat(70_000));
    let spaces = format!("{}\n", " ".repeat(100_000));
    for line in [&comment, &spaces] {
        let text = common::change_line(&long, "2000. Red", 1, |l| format!("{line}{l}"));
        let (code, out, err) = same(&text, &[]);
        assert_eq!((code, out.as_str()), (1, ""), "{err}");
        assert!(
            err.contains(
                "error[parse]: this line is longer than 64 KiB, which no line of a game record \
                 comes near"
            ),
            "{err}"
        );
        // Line 2005 of the file: 5 lines of header, 1999 turns before it.
        assert!(err.contains("game.pbem:2005:1\n"), "{err}");
        same(&text, &["--format", "json"]);
        // `show` reads it whole and refuses it so too.
        let dir = TempDir::new().unwrap();
        std::fs::write(dir.path().join("game.pbem"), &text).unwrap();
        let out = herald()
            .current_dir(dir.path())
            .args(["show", "game.pbem"])
            .output()
            .unwrap();
        let shown = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{shown}");
        assert!(shown.contains("this line is longer than 64 KiB"), "{shown}");
        assert!(shown.contains("game.pbem:2005:1\n"), "{shown}");
    }
    // In a mail message, read whole: refused so too.
    let mail = format!("From: a@example.org\nSubject: move\n\n{long}{comment}");
    let (code, _, err) = same(&mail, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("this line is longer than 64 KiB"), "{err}");
    assert!(
        err.contains(&format!("game.pbem:{}:1\n", 3 + 5 + 3000 + 1)),
        "{err}"
    );
}
