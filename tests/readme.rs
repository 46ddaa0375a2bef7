//! The README's commands, run: every line of its `sh` blocks that runs
//! `herald` (or `mkdir`, which those lines need), in order, through the
//! real binary in one temporary directory (also `HOME`, so nothing is
//! installed for real), each checked for its exit status: success, or
//! failure in a block marked `sh fails`. Lines that run anything else
//! (`cargo`, `sendmail`) are left out: the quick start's two commands
//! are what `cargo test` itself runs.

use std::path::Path;
use std::process::Command;

/// The README's shell blocks: (expected to fail, lines).
fn shell_blocks(readme: &str) -> Vec<(bool, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut current: Option<(bool, Vec<String>)> = None;
    for line in readme.lines() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) => {
                let words: Vec<&str> = info.split_whitespace().collect();
                if words.first() == Some(&"sh") {
                    current = Some((words.get(1) == Some(&"fails"), Vec::new()));
                } else {
                    // Another kind of block: skipped to its end.
                    current = Some((false, vec!["\u{0}skip".into()]));
                }
            }
            (Some(_), Some(_)) => {
                let (fails, lines) = current.take().unwrap();
                if lines.first().map(String::as_str) != Some("\u{0}skip") {
                    blocks.push((fails, lines));
                }
            }
            (Some((_, lines)), None) => lines.push(line.to_owned()),
            (None, None) => {}
        }
    }
    assert!(current.is_none(), "a block of the README is never closed");
    blocks
}

/// Whether a README line is one this test runs.
fn runs(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("herald ") || t.starts_with("mkdir ")
}

#[test]
fn every_herald_command_of_the_readme_runs_as_it_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let blocks = shell_blocks(&readme);
    let bin = assert_cmd::cargo::cargo_bin("herald");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut ran = 0;
    for (fails, lines) in &blocks {
        for line in lines.iter().filter(|l| runs(l)) {
            let out = Command::new("sh")
                .arg("-c")
                .arg(line)
                .current_dir(d)
                .env("HOME", d)
                .env("PATH", &path)
                .env("NO_COLOR", "1")
                .output()
                .unwrap();
            assert_eq!(
                !out.status.success(),
                *fails,
                "README: `{line}` {} ({:?}):\n{}{}",
                if *fails { "was to fail" } else { "failed" },
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    // The walks of every kind of game are there, each command run.
    assert!(ran >= 20, "only {ran} commands found in the README");
    for made in [
        "game.pbem",
        "pg.pbem",
        "bg.pbem",
        "to-bob.eml",
        "to-ann.eml",
    ] {
        assert!(d.join(made).exists(), "{made}");
    }
    assert!(d.join(".local/share/man/man1/herald-move.1").exists());
    assert!(d
        .join(".local/share/bash-completion/completions/herald")
        .exists());
}

#[test]
fn the_readme_blocks_are_read_as_written() {
    let text = "a\n```sh\nherald check x\nls\n```\n```text\nherald nope\n```\n```sh fails\nherald bad\n```\n";
    let blocks = shell_blocks(text);
    assert_eq!(
        blocks,
        vec![
            (false, vec!["herald check x".to_owned(), "ls".to_owned()]),
            (true, vec!["herald bad".to_owned()]),
        ]
    );
    assert!(runs("herald check x") && runs("  mkdir -p y") && !runs("ls"));
}
