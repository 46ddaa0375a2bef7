//! `herald show`, `herald legal`, `herald fate`, `herald replay` (`--html`
//! too) and `herald annotate` of a plain record (a
//! file or standard input, without `--key`) read it a part at a time, as
//! `check` does (about 16 KiB of text, `record::stream`): they keep the
//! position and what they print, never the record. `--message 1` of a plain file
//! reads it whole, as before, so each case here runs both ways and
//! compares exit code, standard output and standard error, from a file
//! and from standard input: every fixture, and records longer than a
//! part with the turn asked for and their problems in later parts.

mod common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use herald::games::battle_of_the_dale::BattleOfTheDale;
use herald::selfplay::{self, Options};
use tempfile::TempDir;

fn herald() -> Command {
    Command::cargo_bin("herald").unwrap()
}

/// Exit code, standard output and standard error.
type Ran = (i32, String, String);

/// `show` with `args` of the record in `dir`/`name` (`-`: `text` on
/// standard input), read a part at a time and read whole (`--message
/// 1`): the same; the first output.
fn same_in(dir: &Path, name: &str, text: Option<&str>, args: &[&str]) -> Ran {
    same_by("show", dir, name, text, args)
}

/// [`same_in`] for the reader `command`.
fn same_by(command: &str, dir: &Path, name: &str, text: Option<&str>, args: &[&str]) -> Ran {
    let run = |whole: &[&str]| {
        let mut cmd = herald();
        cmd.current_dir(dir).arg(command).args(whole).args(args);
        let out = match text {
            Some(text) => cmd.arg("-").write_stdin(text).output().unwrap(),
            None => cmd.arg(name).output().unwrap(),
        };
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let streamed = run(&[]);
    assert_eq!(
        streamed,
        run(&["--message", "1"]),
        "{command} {name} {args:?}"
    );
    streamed
}

/// [`same_in`] of `text` from a file and from standard input; the
/// file's output.
fn same(text: &str, args: &[&str]) -> Ran {
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join("game.pbem"), text).unwrap();
    let file = same_in(dir.path(), "game.pbem", None, args);
    let piped = same_in(dir.path(), "-", Some(text), args);
    assert_eq!(
        (file.0, file.1.replace("game.pbem", "<stdin>")),
        (piped.0, piped.1),
        "{args:?}"
    );
    file
}

/// Every record file of the fixtures and examples.
fn records() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let mut dirs = vec![root.join("fixtures"), root.join("examples")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pbem") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn show_of_a_record_holds_a_part_of_it_at_a_time() {
    let files = records();
    assert!(files.len() > 300, "{}", files.len());
    let (mut shown, mut refused) = (0, 0);
    for (i, path) in files.iter().enumerate() {
        let dir = path.parent().unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        for args in [
            &[][..],
            &["--format", "json"],
            &["--turn", "1"],
            &["--turn", "0", "--format", "svg"],
            &["--turn", "99999"],
        ] {
            match same_in(dir, name, None, args).0 {
                0 => shown += 1,
                _ => refused += 1,
            }
        }
        // Standard input, for every fifth record.
        if i % 5 == 0 {
            let text = std::fs::read_to_string(path).unwrap();
            same_in(dir, "-", Some(&text), &[]);
            same_in(dir, "-", Some(&text), &["--format", "json", "--unicode"]);
        }
    }
    // Both records shown and records refused were compared.
    assert!(shown > 500 && refused > 300, "{shown} {refused}");
}

#[test]
fn show_of_a_long_record_at_any_turn_is_the_whole_reads() {
    let text = common::passes(3000);
    for turn in ["0", "1", "1500", "2999", "3000"] {
        let (code, out, err) = same(&text, &["--turn", turn]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.starts_with(&format!("Castle Danger, after turn {turn}\n")),
            "{out}"
        );
        same(&text, &["--turn", turn, "--format", "json"]);
    }
    let (code, out, _) = same(&text, &[]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Castle Danger, after turn 3000\n"), "{out}");
    let signed = common::signed_castle_danger();
    let lines = signed.matches("sig ").count();
    for turn in [0, 3, lines / 2] {
        let (code, _, err) = same(&signed, &["--turn", &turn.to_string()]);
        assert_eq!(code, 0, "{err}");
    }
    let (code, out, _) = same(&signed, &["--format", "json"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"ok\": true"), "{out}");
}

#[test]
fn show_names_a_turn_past_the_last_after_a_parse_error_and_before_a_header_problem() {
    let text = common::passes(3000);
    let (code, out, err) = same(&text, &["--turn", "3001"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("game.pbem has 3000 turns: there is no turn 3001"),
        "{err}"
    );
    // An illegal turn and a wrong Result tag: the turn past the last first.
    let illegal = common::change_line(&text, "10. Red", 1, |_| "10. Red: Kc9-c1\n".into());
    let wrong = illegal.replacen("[Result \"*\"]", "[Result \"1-0\"]", 1);
    let (code, _, err) = same(&wrong, &["--turn", "3001"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("there is no turn 3001"), "{err}");
    // A parse error late in the record: before anything else.
    let bad = common::change_line(&wrong, "2999. Blue", 1, |_| "2999. Blue: pass,\n".into());
    let (code, _, err) = same(&bad, &["--turn", "3001"]);
    assert_eq!((code, err.contains("error[parse]")), (1, true), "{err}");
    assert!(err.contains(":3004:"), "{err}");
    same(&bad, &["--turn", "3001", "--format", "json"]);
}

#[test]
fn show_names_the_problems_of_the_turns_up_to_the_one_asked_for_as_when_read_whole() {
    let text = common::passes(3000);
    let illegal = common::change_line(&text, "2000. Red", 1, |_| "2000. Red: Kc9-c1\n".into());
    // The illegal turn is past the one shown: shown.
    let (code, out, _) = same(&illegal, &["--turn", "1999"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Castle Danger, after turn 1999\n"), "{out}");
    // Up to it, or to the end: refused at its line.
    for args in [&["--turn", "2000"][..], &[]] {
        let (code, _, err) = same(&illegal, args);
        assert_eq!((code, err.contains("error[illegal]")), (1, true), "{err}");
        assert!(err.contains("game.pbem:2005:"), "{err}");
        same(&illegal, &[args, &["--format", "json"]].concat());
    }
    // The Result tag is read at the last turn only.
    let wrong = text.replacen("[Result \"*\"]", "[Result \"Blue\"]", 1);
    assert_eq!(same(&wrong, &["--turn", "2999"]).0, 0);
    let (code, _, err) = same(&wrong, &[]);
    assert_eq!(
        (code, err.contains("the Result tag says")),
        (1, true),
        "{err}"
    );
    // A header problem, found once the record is known to parse.
    let unknown = text.replacen("castle-danger", "no-such-game", 1);
    let (code, _, err) = same(&unknown, &["--turn", "5"]);
    assert_eq!((code, err.contains("error[record]")), (1, true), "{err}");
    let without_red = text.replacen("[Red \"b@example.org\"]\n", "", 1);
    let (code, _, err) = same(&without_red, &["--turn", "5"]);
    assert_eq!((code, err.contains("error[record]")), (1, true), "{err}");
    // A broken signature in a later part, before the turn asked for.
    let signed = common::signed_castle_danger();
    let lines = signed.matches("sig ").count();
    let broken = common::change_line(&signed, "sig ", lines / 2, |line| {
        let body = line.trim_end();
        let last = if body.ends_with('0') { '1' } else { '0' };
        format!("{}{last}\n", &body[..body.len() - 1])
    });
    let (code, _, err) = same(&broken, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("signature does not match"), "{err}");
    assert_eq!(same(&broken, &["--turn", "3"]).0, 0);
}

#[test]
fn show_of_quoted_text_reads_as_when_read_whole() {
    let long = common::passes(3000);
    let quoted: String = long.lines().map(|l| format!("> {l}\r\n")).collect();
    let text = format!("Hi,\r\n\r\nmy move:\r\n\r\n{quoted}\r\n> 3001. Blue: Kc1-c9\r\n");
    let (code, _, err) = same(&text, &[]);
    assert_eq!(code, 1);
    assert!(err.contains(":3011:"), "{err}");
    let (code, out, _) = same(&text, &["--turn", "3000"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Castle Danger, after turn 3000\n"), "{out}");
}

#[test]
fn legal_of_a_record_reads_it_a_part_at_a_time() {
    let (mut listed, mut refused) = (0, 0);
    for (i, path) in records().iter().enumerate() {
        let dir = path.parent().unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        for args in [&[][..], &["--format", "json"], &["--after", "pass"]] {
            match same_by("legal", dir, name, None, args).0 {
                0 => listed += 1,
                _ => refused += 1,
            }
        }
        if i % 5 == 0 {
            let text = std::fs::read_to_string(path).unwrap();
            same_by("legal", dir, "-", Some(&text), &[]);
        }
    }
    assert!(listed > 250 && refused > 600, "{listed} {refused}");
    // A long record, its problems in later parts.
    let dir = TempDir::new().unwrap();
    let text = common::passes(3000);
    let illegal = common::change_line(&text, "2000. Red", 1, |_| "2000. Red: Kc9-c1\n".into());
    let bad = common::change_line(&text, "2999. Blue", 1, |_| "2999. Blue: pass,\n".into());
    for (name, text) in [("a.pbem", &text), ("b.pbem", &illegal), ("c.pbem", &bad)] {
        std::fs::write(dir.path().join(name), text).unwrap();
        for args in [&[][..], &["--format", "json"]] {
            same_by("legal", dir.path(), name, None, args);
            same_by("legal", dir.path(), "-", Some(text), args);
        }
    }
    let (code, out, _) = same_by("legal", dir.path(), "a.pbem", None, &[]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Turn 3001, Blue: "), "{out}");
    let (code, _, err) = same_by("legal", dir.path(), "b.pbem", None, &[]);
    assert_eq!((code, err.contains("b.pbem:2005:")), (1, true), "{err}");
    let (code, _, err) = same_by("legal", dir.path(), "c.pbem", None, &[]);
    assert_eq!((code, err.contains("error[parse]")), (1, true), "{err}");
}

#[test]
fn fate_of_a_record_reads_it_a_part_at_a_time() {
    let (mut listed, mut refused) = (0, 0);
    for (i, path) in records().iter().enumerate() {
        let dir = path.parent().unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        for args in [&[][..], &["--format", "json"]] {
            match same_by("fate", dir, name, None, args).0 {
                0 => listed += 1,
                _ => refused += 1,
            }
        }
        if i % 5 == 0 {
            let text = std::fs::read_to_string(path).unwrap();
            same_by("fate", dir, "-", Some(&text), &["--format", "json"]);
        }
    }
    assert!(listed > 250 && refused > 350, "{listed} {refused}");
    // A long record with chance, over many parts: every roll listed,
    // as when read whole.
    let dale = long_dale();
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join("dale.pbem"), &dale).unwrap();
    for args in [&[][..], &["--format", "json"]] {
        let (code, out, err) = same_by("fate", dir.path(), "dale.pbem", None, args);
        assert_eq!(code, 0, "{err}");
        assert!(out.matches("reveals").count() > 2, "{out}");
        same_by("fate", dir.path(), "-", Some(&dale), args);
    }
}

#[test]
fn replay_of_a_record_reads_it_a_part_at_a_time() {
    let (mut replayed, mut refused) = (0, 0);
    for (i, path) in records().iter().enumerate() {
        let dir = path.parent().unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        for args in [&[][..], &["--format", "json"], &["--unicode"]] {
            match same_by("replay", dir, name, None, args).0 {
                0 => replayed += 1,
                _ => refused += 1,
            }
        }
        if i % 5 == 0 {
            let text = std::fs::read_to_string(path).unwrap();
            same_by("replay", dir, "-", Some(&text), &["--format", "json"]);
        }
    }
    assert!(replayed > 350 && refused > 500, "{replayed} {refused}");
    // A long record over many parts: a diagram a turn, as when read
    // whole; the same record broken in a later part prints the error
    // alone.
    let dale = long_dale();
    let turns = dale
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .count();
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join("dale.pbem"), &dale).unwrap();
    for args in [&[][..], &["--format", "json"]] {
        let (code, out, err) = same_by("replay", dir.path(), "dale.pbem", None, args);
        assert_eq!(code, 0, "{err}");
        let positions = match args {
            [] => out.lines().filter(|l| l.starts_with("== ")).count(),
            _ => out.matches("\"diagram\":").count(),
        };
        assert_eq!(positions, turns + 1, "a diagram a turn and the start");
        same_by("replay", dir.path(), "-", Some(&dale), args);
    }
    let late = dale.len() * 3 / 4;
    let line_start = dale[late..].find("\n").unwrap() + late + 1;
    // The first turn's line again, out of its place.
    let first = dale.lines().find(|l| l.starts_with("1. ")).unwrap();
    let mut broken = dale.clone();
    broken.insert_str(line_start, &format!("{first}\n"));
    std::fs::write(dir.path().join("broken.pbem"), &broken).unwrap();
    let (code, out, err) = same_by("replay", dir.path(), "broken.pbem", None, &[]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("broken.pbem:"), "{err}");
}

/// The longest of twenty self-played Battle of the Dale games with dice
/// (commitments and signatures), over several parts of the reader.
fn long_dale() -> String {
    let dale = (0..20)
        .map(|seed| {
            let mut options = Options::new::<BattleOfTheDale>(seed, 2);
            options.max_turns = 300;
            options.commitments = true;
            options.signatures = true;
            selfplay::record::<BattleOfTheDale>(&options).unwrap()
        })
        .max_by_key(String::len)
        .unwrap();
    assert!(dale.len() > 16 * 1024, "{}", dale.len());
    dale
}

#[test]
fn annotate_of_a_record_reads_it_a_part_at_a_time() {
    let (mut annotated, mut refused) = (0, 0);
    for (i, path) in records().iter().enumerate() {
        let dir = path.parent().unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        for args in [&[][..], &["--format", "json"]] {
            match same_by("annotate", dir, name, None, args).0 {
                0 => annotated += 1,
                _ => refused += 1,
            }
        }
        if i % 5 == 0 {
            let text = std::fs::read_to_string(path).unwrap();
            same_by("annotate", dir, "-", Some(&text), &[]);
        }
    }
    assert!(annotated > 250 && refused > 350, "{annotated} {refused}");
    // A long record over many parts: every line annotated, as when read
    // whole, and `-o` writes the same text as standard output shows.
    let dale = long_dale();
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join("dale.pbem"), &dale).unwrap();
    let (code, shown, err) = same_by("annotate", dir.path(), "dale.pbem", None, &[]);
    assert_eq!(code, 0, "{err}");
    let turn_lines = |text: &str| {
        text.lines()
            .filter(|l| {
                l.split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
            })
            .count()
    };
    assert_eq!(turn_lines(&shown), turn_lines(&dale));
    same_by(
        "annotate",
        dir.path(),
        "-",
        Some(&dale),
        &["--format", "json"],
    );
    let mut written = Vec::new();
    for (whole, out) in [(&[][..], "a.pbem"), (&["--message", "1"][..], "b.pbem")] {
        let run = herald()
            .current_dir(dir.path())
            .arg("annotate")
            .args(whole)
            .args(["dale.pbem", "-o", out])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(0));
        written.push((
            String::from_utf8(run.stdout).unwrap(),
            std::fs::read_to_string(dir.path().join(out)).unwrap(),
        ));
    }
    assert_eq!(written[0].1, shown, "-o writes what standard output shows");
    assert_eq!(written[1].1, shown);
    assert_eq!(
        written[0].0,
        "wrote the annotated record of dale.pbem to a.pbem\n"
    );
    assert_eq!(
        written[1].0,
        "wrote the annotated record of dale.pbem to b.pbem\n"
    );
    // `-o` never overwrites: the file written stays as it was.
    let again = herald()
        .current_dir(dir.path())
        .args(["annotate", "dale.pbem", "-o", "a.pbem"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8(again.stderr)
        .unwrap()
        .contains("a.pbem exists already"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.pbem")).unwrap(),
        shown
    );
}

#[test]
fn replay_html_of_a_record_writes_its_page_a_position_at_a_time() {
    let (mut written, mut refused) = (0, 0);
    for (i, path) in records().iter().enumerate() {
        let dir = path.parent().unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        match same_by("replay", dir, name, None, &["--html"]).0 {
            0 => written += 1,
            _ => refused += 1,
        }
        if i % 5 == 0 {
            let text = std::fs::read_to_string(path).unwrap();
            same_by("replay", dir, "-", Some(&text), &["--html"]);
        }
    }
    assert!(written > 100 && refused > 150, "{written} {refused}");
    // Long records over many parts: a frame and a list item a position,
    // as when read whole.
    let dir = TempDir::new().unwrap();
    let dale = long_dale();
    let passes = common::passes(3000);
    for (name, text) in [("dale.pbem", &dale), ("passes.pbem", &passes)] {
        std::fs::write(dir.path().join(name), text).unwrap();
        let (code, page, err) = same_by("replay", dir.path(), name, None, &["--html"]);
        assert_eq!(code, 0, "{err}");
        let lines = text
            .lines()
            .filter(|l| {
                l.split_once(". ")
                    .is_some_and(|(n, _)| n.trim_start_matches('S').parse::<u32>().is_ok())
            })
            .count();
        assert_eq!(
            page.matches("<section class=\"frame\"").count(),
            lines + 1,
            "a frame a line and the start"
        );
        assert_eq!(page.matches("<li data-index=").count(), lines + 1);
        assert!(
            page.ends_with("</body>\n</html>\n"),
            "{}",
            &page[page.len() - 40..]
        );
        same_by("replay", dir.path(), "-", Some(text), &["--html"]);
    }
    // Broken in a later part: the error alone, nothing printed before it.
    let late = dale.len() * 3 / 4;
    let line_start = dale[late..].find('\n').unwrap() + late + 1;
    let first = dale.lines().find(|l| l.starts_with("1. ")).unwrap();
    let mut broken = dale.clone();
    broken.insert_str(line_start, &format!("{first}\n"));
    std::fs::write(dir.path().join("broken.pbem"), &broken).unwrap();
    let (code, out, err) = same_by("replay", dir.path(), "broken.pbem", None, &["--html"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("broken.pbem:"), "{err}");
    // `-o`: the page standard output shows, written both ways; never
    // over a file that exists, which stays as it was.
    let (_, shown, _) = same_by("replay", dir.path(), "dale.pbem", None, &["--html"]);
    for (whole, out) in [(&[][..], "a.html"), (&["--message", "1"][..], "b.html")] {
        let run = herald()
            .current_dir(dir.path())
            .args(["replay", "--html"])
            .args(whole)
            .args(["dale.pbem", "-o", out])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(0));
        assert_eq!(
            String::from_utf8(run.stdout).unwrap(),
            format!(
                "wrote the replay page of dale.pbem to {out} ({} positions)\n",
                shown.matches("<section class=\"frame\"").count()
            )
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join(out)).unwrap(),
            shown,
            "-o writes what standard output shows"
        );
    }
    for args in [&["dale.pbem"][..], &["broken.pbem"]] {
        let again = herald()
            .current_dir(dir.path())
            .args(["replay", "--html"])
            .args(args)
            .args(["-o", "a.html"])
            .output()
            .unwrap();
        assert_ne!(again.status.code(), Some(0));
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.html")).unwrap(),
            shown
        );
    }
    let again = herald()
        .current_dir(dir.path())
        .args(["replay", "--html", "dale.pbem", "-o", "a.html"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8(again.stderr)
        .unwrap()
        .contains("a.html exists already"));
}
