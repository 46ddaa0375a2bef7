//! Every record under `fixtures/<game>/` (and every email message and
//! mailbox under `fixtures/mail/`) is checked through the real
//! binary (`herald check --format json`) against its expected verdict in
//! the `.expect` file beside it:
//!
//! ```text
//! exit: 1            # 0 valid, 1 invalid
//! kind: illegal      # parse | illegal | record (invalid records)
//! turn: 7            # the turn at fault (invalid records, if any)
//! setup_line: 3      # or the set-up line at fault (`S3`)
//! side: Blue         # its side
//! result: Blue       # * | a side | draw (valid records)
//! turns: 12          # number of turns (valid records)
//! phase: audit       # setup | play | audit | over (valid records)
//! provisional: Blue  # the result while the audit is due, else null
//! failed_audits: Blue # the sides whose audit failed, joined by `, `
//! audit_reasons: Blue: needs at least one Scissors
//!                    # a part of `side: reason` per failed audit, by `; `
//! position: 2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 Blue *
//!                    # final position (valid records; no comment on its line)
//! message: c2 holds a Wall    # a part of the message
//! ```

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut found = Vec::new();
    for game in std::fs::read_dir(&root).expect("fixtures/") {
        let dir = game.expect("entry").path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).expect("game dir") {
            let path = file.expect("entry").path();
            // Records, and email messages and mailboxes holding them.
            if path
                .extension()
                .is_some_and(|e| e == "pbem" || e == "eml" || e == "mbox")
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn expectations(path: &Path) -> Vec<(String, String)> {
    let expect = path.with_extension("expect");
    let text = std::fs::read_to_string(&expect)
        .unwrap_or_else(|_| panic!("{} has no .expect file beside it", path.display()));
    text.lines()
        // A position may hold ` #` (a Castle Danger Wall): no comment there.
        .map(|l| match l.starts_with("position:") {
            true => l.trim(),
            false => l.split(" #").next().unwrap_or(l).trim(),
        })
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l.split_once(':').expect("key: value");
            (k.trim().to_owned(), v.trim().to_owned())
        })
        .collect()
}

fn as_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "null".into(),
        other => other.to_string(),
    }
}

#[test]
fn every_fixture_gets_its_expected_verdict() {
    let all = fixtures();
    assert!(!all.is_empty(), "no fixtures found");
    let mut failures = Vec::new();
    for path in &all {
        let output = Command::cargo_bin("herald")
            .unwrap()
            .args(["check", "--format", "json"])
            .arg(path)
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!(
                "{}: not JSON ({e}): {}",
                path.display(),
                String::from_utf8_lossy(&output.stdout)
            )
        });
        let code = output.status.code().unwrap_or(-1);
        for (key, want) in expectations(path) {
            let got = match key.as_str() {
                "exit" => code.to_string(),
                "kind" | "turn" | "setup_line" | "side" | "message" => {
                    as_text(&json["error"][&key])
                }
                "result" | "turns" | "to_move" | "position" | "phase" | "provisional" => {
                    as_text(&json[&key])
                }
                "failed_audits" => json["failed_audits"]
                    .as_array()
                    .map(|all| {
                        let sides: Vec<String> = all.iter().map(|f| as_text(&f["side"])).collect();
                        sides.join(", ")
                    })
                    .unwrap_or_else(|| as_text(&json["failed_audits"])),
                "audit_reasons" => json["failed_audits"]
                    .as_array()
                    .map(|all| {
                        let why: Vec<String> = all
                            .iter()
                            .map(|f| format!("{}: {}", as_text(&f["side"]), as_text(&f["reason"])))
                            .collect();
                        why.join("; ")
                    })
                    .unwrap_or_else(|| as_text(&json["failed_audits"])),
                other => panic!("{}: unknown expectation `{other}`", path.display()),
            };
            let ok = if key == "message" || key == "audit_reasons" {
                got.contains(&want)
            } else if key == "position" {
                got == want
            } else {
                got.eq_ignore_ascii_case(&want)
            };
            if !ok {
                failures.push(format!(
                    "{}: {key}: expected `{want}`, got `{got}`",
                    path.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
