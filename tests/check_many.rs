//! `herald check` of many records at once (spec section 4): several
//! files, or a folder of `.pbem` files, each read and replayed on its
//! own, one verdict line each in the order given, the exit code of the
//! worst. The records are two hand-written Castle Danger games: one
//! legal turn (Blue adds a Cannon and walks it to b3, spec section 6),
//! and one whose first line is Red's although Blue begins.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

const HEADER: &str = "[Game \"castle-danger\"]\n\
                      [Blue \"ann@example.org\"]\n\
                      [Red \"bob@example.org\"]\n\
                      [Result \"*\"]\n\n";

fn herald(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("herald").unwrap();
    cmd.current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    cmd
}

/// A folder with `good.pbem` (valid), `red-first.pbem` (invalid at line
/// 6, column 4: the side) and a file that is no record, `notes.txt`.
fn folder() -> TempDir {
    let dir = TempDir::new().unwrap();
    let path = |name: &str| dir.path().join(name);
    fs::write(
        path("good.pbem"),
        format!("{HEADER}1. Blue: +C, Cd1-d2-d3-c3-b3\n"),
    )
    .unwrap();
    fs::write(path("red-first.pbem"), format!("{HEADER}1. Red: pass\n")).unwrap();
    fs::write(path("notes.txt"), "not a record\n").unwrap();
    dir
}

fn run(dir: &Path, args: &[&str]) -> (String, i32) {
    let output = herald(dir).arg("check").args(args).output().unwrap();
    (
        String::from_utf8(output.stdout).unwrap(),
        output.status.code().unwrap(),
    )
}

#[test]
fn check_of_several_files_prints_one_verdict_line_each_in_the_order_given() {
    let dir = folder();
    let (out, code) = run(dir.path(), &["red-first.pbem", "good.pbem"]);
    assert_eq!(
        out,
        "red-first.pbem:6:4: invalid: turn 1, Red: it is Blue's turn, not Red's\n\
         good.pbem: OK: Castle Danger, 1 turn, result *\n"
    );
    assert_eq!(code, 1, "the worst verdict is an invalid record");
    let (out, code) = run(dir.path(), &["good.pbem", "good.pbem"]);
    assert_eq!(out.lines().count(), 2);
    assert_eq!(code, 0);
}

#[test]
fn check_of_a_folder_reads_its_pbem_files_in_name_order() {
    let dir = folder();
    let (out, code) = run(dir.path(), &["."]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "notes.txt is no .pbem file: {out}");
    assert!(lines[0].starts_with("./good.pbem: OK"), "{out}");
    assert!(
        lines[1].starts_with("./red-first.pbem:6:4: invalid"),
        "{out}"
    );
    assert_eq!(code, 1);
}

#[test]
fn an_unreadable_input_among_many_is_a_line_of_its_own_and_exit_2() {
    let dir = folder();
    let (out, code) = run(dir.path(), &["good.pbem", "missing.pbem", "red-first.pbem"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[1].starts_with("missing.pbem: error: cannot read missing.pbem"),
        "{out}"
    );
    assert_eq!(code, 2, "unreadable is worse than invalid");
}

#[test]
fn check_of_many_in_json_prints_one_object_a_line() {
    let dir = folder();
    let (out, _) = run(
        dir.path(),
        &["good.pbem", "red-first.pbem", "--format", "json"],
    );
    let objects: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["file"], "good.pbem");
    assert_eq!(objects[0]["ok"], true);
    assert_eq!(objects[0]["turns"], 1);
    assert_eq!(objects[0]["to_move"], "Red");
    assert_eq!(objects[1]["ok"], false);
    assert_eq!(objects[1]["error"]["kind"], "illegal");
    assert_eq!(objects[1]["error"]["line"], 6);
    assert_eq!(objects[1]["error"]["column"], 4);
}

#[test]
fn many_records_take_neither_all_nor_message() {
    let dir = folder();
    for extra in [["--all", ""], ["--message", "1"]] {
        let mut args = vec!["good.pbem", "red-first.pbem"];
        args.extend(extra.iter().filter(|a| !a.is_empty()));
        let output = herald(dir.path())
            .arg("check")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(err.contains("--all and --message read one input"), "{err}");
    }
}

#[test]
fn a_folder_without_records_is_refused() {
    let dir = TempDir::new().unwrap();
    let output = herald(dir.path()).args(["check", "."]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("holds no .pbem file"), "{err}");
}
