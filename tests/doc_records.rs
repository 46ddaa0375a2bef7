//! Every example record in the documents is run. A record is fenced
//! ```` ```pbem VERDICT ````, and the verdict says what `herald check`
//! must make of it:
//!
//! - `ok`: a valid record (exit 0; `check` also holds its Result tag to
//!   the game's result);
//! - `invalid`: a record herald refuses (exit 1), such as an example with
//!   its proof items left out;
//! - `abridged FILE`: turn lines of the valid record FILE with their proof
//!   items and the header left out and comments added: FILE must check,
//!   and its turns, without their proof items, must be the block's turns
//!   without their comments.
//!
//! A block with no info string that reads as a record (a `[Game` tag or a
//! numbered turn first) must be marked, so no example escapes the run.

mod common;
use common::herald;

use std::path::{Path, PathBuf};

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// A fenced block: its info string, its first line number and its text.
struct Block {
    info: String,
    line: usize,
    text: String,
}

fn blocks(name: &str, markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (n, line) in markdown.lines().enumerate() {
        match (open.take(), line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim().to_owned(),
                    line: n + 1,
                    text: String::new(),
                })
            }
            (Some(block), Some(_)) => out.push(block),
            (Some(mut block), None) => {
                block.text.push_str(line);
                block.text.push('\n');
                open = Some(block);
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "{name}: a block is never closed");
    out
}

/// Whether `line` starts a turn: `12. Side:` or `S3. Side:`.
fn is_turn(line: &str) -> bool {
    let Some((number, rest)) = line.split_once(". ") else {
        return false;
    };
    let digits = number.strip_prefix('S').unwrap_or(number);
    !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && rest.split_once(':').is_some_and(|(side, _)| {
            !side.is_empty() && side.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

/// The turn lines of a record, each without its comments and spacing:
/// the proof items, on the lines that follow a turn's first, are left out.
fn turns(record: &str) -> Vec<String> {
    record
        .lines()
        .filter(|line| is_turn(line))
        .map(|line| {
            let mut text = String::new();
            let mut depth = 0;
            for c in line.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ if depth == 0 => text.push(c),
                    _ => {}
                }
            }
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect()
}

/// `herald check FILE`: its exit code and what it said.
fn check(dir: &Path, file: &Path) -> (Option<i32>, String) {
    let out = herald(dir).arg("check").arg(file).output().unwrap();
    (
        out.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn every_example_record_in_the_docs_checks_as_its_fence_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut documents = vec![root.join("README.md"), root.join("notation-spec.md")];
    markdown_files(&root.join("docs"), &mut documents);
    let dir = tempfile::tempdir().unwrap();
    let mut ran = 0;
    let mut failures = Vec::new();
    for document in &documents {
        let name = document.strip_prefix(root).unwrap().display().to_string();
        let text = std::fs::read_to_string(document).unwrap();
        for block in blocks(&name, &text) {
            let at = format!("{name}:{}", block.line);
            let mut words = block.info.split_whitespace();
            if words.next() != Some("pbem") {
                let first = block.text.lines().next().unwrap_or_default();
                if block.info.is_empty() && (first.starts_with("[Game ") || is_turn(first)) {
                    failures.push(format!("{at}: a record not marked ```pbem VERDICT"));
                }
                continue;
            }
            ran += 1;
            let file = dir.path().join(format!("example-{ran}.pbem"));
            std::fs::write(&file, &block.text).unwrap();
            match (words.next(), words.next()) {
                (Some("ok"), None) => {
                    let (code, said) = check(dir.path(), &file);
                    if code != Some(0) {
                        failures.push(format!("{at}: expected ok, got {code:?}:\n{said}"));
                    }
                }
                (Some("invalid"), None) => {
                    let (code, said) = check(dir.path(), &file);
                    if code != Some(1) {
                        failures.push(format!("{at}: expected invalid, got {code:?}:\n{said}"));
                    }
                }
                (Some("abridged"), Some(full)) => {
                    let full = root.join(full);
                    let (code, said) = check(dir.path(), &full);
                    if code != Some(0) {
                        failures.push(format!("{at}: {} does not check:\n{said}", full.display()));
                    }
                    let whole = std::fs::read_to_string(&full).unwrap();
                    if turns(&whole) != turns(&block.text) {
                        failures.push(format!(
                            "{at}: the turns are not those of {}:\n{:#?}\n{:#?}",
                            full.display(),
                            turns(&block.text),
                            turns(&whole)
                        ));
                    }
                }
                other => failures.push(format!("{at}: unknown verdict {other:?}")),
            }
        }
    }
    // The record format, Castle Danger, the Dale, Breach The Keep,
    // Playground Battles and Battlegates each show one at least.
    assert!(ran >= 6, "only {ran} example records found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_turn_line_is_a_number_a_side_and_a_colon() {
    assert!(is_turn("12. Blue: Cd1-d2"));
    assert!(is_turn("S3. South:"));
    assert!(!is_turn("[Game \"castle-danger\"]"));
    assert!(!is_turn("    reveal 1111"));
    assert!(!is_turn("1. a rule, not a turn"));
    assert_eq!(
        turns("S1. Blue:   {commits}\n    commit w1\n1. Blue: die=4,  e1-e2 {a comment}\n"),
        vec!["S1. Blue:".to_owned(), "1. Blue: die=4, e1-e2".to_owned()]
    );
}
