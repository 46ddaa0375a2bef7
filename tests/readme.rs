//! The README's commands, run: every line of its `sh` blocks that runs
//! `herald` (or `mkdir`, which those lines need), in order, through the
//! real binary in one temporary directory (also `HOME`, so nothing is
//! installed for real), each checked for its exit status: success, or
//! failure in a block marked `sh fails`. A block marked `sh when
//! FILE=STEP` runs only if the step due in FILE (`check --format json`:
//! `step.step`) is STEP: where a roll decides what comes next, the README
//! shows each way, and exactly one of them runs. Lines that run anything else
//! (`cargo`, `sendmail`) are left out: the quick start's two commands
//! are what `cargo test` itself runs.

use std::path::Path;
use std::process::Command;

/// One shell block of the README.
#[derive(Debug, PartialEq)]
struct Block {
    /// Marked `sh fails`: every command is to fail.
    fails: bool,
    /// Marked `sh when FILE=STEP`: the file and the step due in it for
    /// which the block runs.
    when: Option<(String, String)>,
    lines: Vec<String>,
}

/// The README's shell blocks.
fn shell_blocks(readme: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut current: Option<Option<Block>> = None;
    for line in readme.lines() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) => {
                let words: Vec<&str> = info.split_whitespace().collect();
                let when = match words.as_slice() {
                    ["sh", "when", cond] => cond
                        .split_once('=')
                        .map(|(f, s)| (f.to_owned(), s.to_owned())),
                    _ => None,
                };
                // Another kind of block: skipped to its end.
                current = Some((words.first() == Some(&"sh")).then(|| Block {
                    fails: words.get(1) == Some(&"fails"),
                    when,
                    lines: Vec::new(),
                }));
            }
            (Some(_), Some(_)) => blocks.extend(current.take().unwrap()),
            (Some(Some(block)), None) => block.lines.push(line.to_owned()),
            (Some(None), None) | (None, None) => {}
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
    // Of the blocks for each FILE of `when FILE=STEP`, how many ran.
    let mut chosen: std::collections::BTreeMap<&str, u32> = Default::default();
    for block in &blocks {
        if let Some((file, step)) = &block.when {
            let out = Command::new(&bin)
                .args(["check", file, "--format", "json"])
                .current_dir(d)
                .output()
                .unwrap();
            let checked: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let runs_now = checked["step"]["step"].as_str() == Some(step.as_str());
            *chosen.entry(file).or_default() += u32::from(runs_now);
            if !runs_now {
                continue;
            }
        }
        let fails = &block.fails;
        for line in block.lines.iter().filter(|l| runs(l)) {
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
    // Where the README shows each way a roll may go, one way ran.
    assert!(!chosen.is_empty());
    for (file, ran) in &chosen {
        assert_eq!(*ran, 1, "{file}: {ran} of its `when` blocks ran");
    }
    for made in [
        "game.pbem",
        "pg.pbem",
        "bg-3.eml",
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
    let text = "a\n```sh\nherald check x\nls\n```\n```text\nherald nope\n```\n```sh fails\nherald bad\n```\n```sh when x.eml=turn\nherald move x.eml\n```\n";
    let blocks = shell_blocks(text);
    let block = |fails, when: Option<(&str, &str)>, lines: &[&str]| Block {
        fails,
        when: when.map(|(f, s)| (f.to_owned(), s.to_owned())),
        lines: lines.iter().map(|l| l.to_string()).collect(),
    };
    assert_eq!(
        blocks,
        vec![
            block(false, None, &["herald check x", "ls"]),
            block(true, None, &["herald bad"]),
            block(false, Some(("x.eml", "turn")), &["herald move x.eml"]),
        ]
    );
    assert!(runs("herald check x") && runs("  mkdir -p y") && !runs("ls"));
}
