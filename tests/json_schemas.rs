//! Every `--format json` output against its JSON Schema in
//! docs/schemas/ (draft 2020-12, validated by `boon`): the real binary on
//! the fixtures of every game, in every phase (set-up, play, a claim,
//! the audit, ended) and on invalid records; and wrong documents refused,
//! so that the schemas are seen to catch a renamed or a missing field.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use boon::{Compiler, SchemaIndex, Schemas};
use common::herald;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The schemas of docs/schemas/, one per output.
const OUTPUTS: [&str; 12] = [
    "check",
    "check-all",
    "check-many",
    "show",
    "replay",
    "annotate",
    "legal",
    "hand",
    "fate",
    "move",
    "setup",
    "inbox",
];

struct Checker {
    schemas: Schemas,
    index: Vec<(&'static str, SchemaIndex)>,
}

impl Checker {
    /// Every schema compiled (each checked against the draft 2020-12
    /// meta-schema by the compiler; `common.json` loaded by its `$ref`s).
    fn new() -> Checker {
        let mut schemas = Schemas::new();
        let mut compiler = Compiler::new();
        let index = OUTPUTS
            .iter()
            .map(|name| {
                let path = root().join(format!("docs/schemas/{name}.json"));
                let i = compiler
                    .compile(path.to_str().unwrap(), &mut schemas)
                    .unwrap_or_else(|e| panic!("docs/schemas/{name}.json: {e:#}"));
                (*name, i)
            })
            .collect();
        Checker { schemas, index }
    }

    fn check(&self, name: &str, value: &Value) -> Result<(), String> {
        let (_, i) = self
            .index
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no schema {name}"));
        self.schemas
            .validate(value, *i)
            .map_err(|e| format!("{e:#}"))
    }

    fn assert_valid(&self, name: &str, value: &Value, what: &str) {
        if let Err(e) = self.check(name, value) {
            panic!("{what}: not valid against docs/schemas/{name}.json:\n{e}\n{value:#}");
        }
    }
}

/// `herald ARGS` in `dir` with the environment `env`: its exit code and
/// the JSON values on its standard output (one, or one a line).
fn outputs(dir: &Path, env: &[(&str, &Path)], args: &[&str]) -> (i32, Vec<Value>) {
    let mut cmd = herald(dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.args(args).output().unwrap();
    let values: Result<Vec<Value>, _> = serde_json::Deserializer::from_slice(&out.stdout)
        .into_iter()
        .collect();
    let values = values.unwrap_or_else(|e| {
        panic!(
            "herald {args:?}: not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(
        !values.is_empty(),
        "herald {args:?} printed no JSON: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap(), values)
}

/// The one JSON document of `herald ARGS`, valid against `schema`; exit
/// 0 with `ok` true, else exit 1 or 2 with the error object.
fn one(checker: &Checker, schema: &str, dir: &Path, args: &[&str]) -> Value {
    let (code, values) = outputs(dir, &[], args);
    assert_eq!(values.len(), 1, "herald {args:?}: one document");
    let v = values.into_iter().next().unwrap();
    checker.assert_valid(schema, &v, &format!("herald {}", args.join(" ")));
    match code {
        0 => assert_eq!(v["ok"], true, "herald {args:?}"),
        1 | 2 => assert_eq!(v["ok"], false, "herald {args:?}"),
        other => panic!("herald {args:?}: exit {other}"),
    }
    v
}

/// What the documents seen cover, so that the test is seen to reach
/// every phase and the optional parts of the shapes.
#[derive(Default)]
struct Seen {
    phases: BTreeSet<String>,
    games: BTreeSet<String>,
    kinds: BTreeSet<String>,
    forfeits: bool,
    draw: bool,
    pieces: bool,
    look_hand: bool,
    stages: bool,
    chance: bool,
    /// The kinds of step due seen (`keygen`, `commit`, `turn`, ...).
    steps: BTreeSet<String>,
    /// A forfeit claim as the last line (its target's answer due).
    claim: bool,
    /// Several sides due at once (keys or audits in any order).
    several_due: bool,
}

impl Seen {
    fn check(&mut self, v: &Value) {
        if v["ok"] == true {
            self.phases.insert(v["phase"].as_str().unwrap().to_owned());
            self.games.insert(v["game"].as_str().unwrap().to_owned());
            self.forfeits |= v["forfeits"].as_array().is_some_and(|f| !f.is_empty());
            self.draw |= !v["draw"].is_null();
            if let Some(step) = v["step"].as_object() {
                self.steps.insert(step["step"].as_str().unwrap().to_owned());
                self.claim |= step["text"].as_str().unwrap().contains(" claimed ");
            }
            self.several_due |= v["due"].as_array().is_some_and(|d| d.len() > 1);
        } else {
            self.kinds
                .insert(v["error"]["kind"].as_str().unwrap().to_owned());
        }
    }
}

/// The fixtures of one game: (record, its key files).
fn fixtures(game: &str) -> Vec<(PathBuf, Vec<PathBuf>)> {
    let dir = root().join("fixtures").join(game);
    let mut list: Vec<(PathBuf, Vec<PathBuf>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pbem"))
        .map(|p| {
            let stem = p.file_stem().unwrap().to_str().unwrap().to_owned();
            let mut keys: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|k| {
                    let name = k.file_name().unwrap().to_str().unwrap();
                    name.starts_with(&format!("{stem}."))
                        && name.ends_with(".key")
                        && name.matches('.').count() == stem.matches('.').count() + 2
                })
                .collect();
            keys.sort();
            (p, keys)
        })
        .collect();
    list.sort();
    list
}

const GAMES: [&str; 5] = [
    "castle-danger",
    "battle-of-the-dale",
    "breach-the-keep",
    "playground-battles",
    "battlegates",
];

/// `check` of every fixture, each output valid against the check
/// schema; the fixtures the readers run on are returned: for each game,
/// the first valid one of each phase, those with a forfeit or a draw, a
/// few more with key files, and the first invalid one.
fn check_every_fixture(checker: &Checker) -> Vec<(PathBuf, Vec<PathBuf>)> {
    let d = root();
    let mut seen = Seen::default();
    let mut chosen = Vec::new();
    for game in GAMES {
        let mut phases = BTreeSet::new();
        let mut keyed = 0;
        let mut invalid = false;
        for (record, keys) in fixtures(game) {
            let r = record.to_str().unwrap();
            let v = one(checker, "check", &d, &["check", r, "--format", "json"]);
            seen.check(&v);
            let take = if v["ok"] == true {
                // A phase, or a kind of step due in it, new for this game.
                let new_phase = phases.insert(format!(
                    "{} {}",
                    v["phase"].as_str().unwrap(),
                    v["step"]["step"].as_str().unwrap_or("-")
                ));
                let forfeit = v["forfeits"].as_array().is_some_and(|f| !f.is_empty());
                let with_keys = !keys.is_empty() && keyed < 3;
                keyed += usize::from(with_keys);
                new_phase || forfeit || !v["draw"].is_null() || with_keys
            } else {
                !std::mem::replace(&mut invalid, true)
            };
            if take {
                chosen.push((record, keys));
            }
        }
    }
    assert_eq!(seen.games.len(), GAMES.len(), "{:?}", seen.games);
    for phase in ["play", "audit", "over"] {
        assert!(seen.phases.contains(phase), "{phase}: {:?}", seen.phases);
    }
    for kind in ["parse", "illegal", "record"] {
        assert!(seen.kinds.contains(kind), "{kind}: {:?}", seen.kinds);
    }
    assert!(seen.forfeits, "a claimed forfeit");
    assert!(seen.draw, "a draw by agreement");
    // The set-up steps and a key due come from records made in
    // move_setup_and_a_set_up_in_progress_match_their_schemas.
    for step in ["turn", "audit"] {
        assert!(seen.steps.contains(step), "{step}: {:?}", seen.steps);
    }
    assert!(seen.claim, "a forfeit claim as the last line");
    assert!(seen.several_due, "several sides due at once");
    chosen
}

#[test]
fn every_reader_of_every_game_and_phase_matches_its_schema() {
    let checker = Checker::new();
    let d = root();
    let mut seen = Seen::default();
    let mut hands = 0;
    for (record, keys) in check_every_fixture(&checker) {
        let r = record.to_str().unwrap();
        for (schema, command) in [
            ("show", "show"),
            ("replay", "replay"),
            ("annotate", "annotate"),
            ("legal", "legal"),
            ("fate", "fate"),
        ] {
            let v = one(&checker, schema, &d, &[command, r, "--format", "json"]);
            seen.pieces |= schema == "show" && v["pieces"].is_array();
            seen.chance |=
                schema == "fate" && v["events"].as_array().is_some_and(|e| !e.is_empty());
        }
        // Earlier in the game too: the start, turn 1.
        one(
            &checker,
            "show",
            &d,
            &["show", r, "--turn", "0", "--format", "json"],
        );
        for key in &keys {
            let k = key.to_str().unwrap();
            let v = one(
                &checker,
                "show",
                &d,
                &["show", r, "--key", k, "--format", "json"],
            );
            if v["look"].is_object() {
                seen.look_hand |= v["look"]["hand"].is_array();
                seen.stages |= v["look"]["stages"]
                    .as_array()
                    .is_some_and(|s| !s.is_empty());
            }
            one(
                &checker,
                "legal",
                &d,
                &["legal", r, "--key", k, "--format", "json"],
            );
            one(
                &checker,
                "fate",
                &d,
                &["fate", r, "--key", k, "--format", "json"],
            );
            if record.to_str().unwrap().contains("/battlegates/") {
                let v = one(
                    &checker,
                    "hand",
                    &d,
                    &["hand", r, "--key", k, "--format", "json"],
                );
                hands += v["cards"].as_array().map_or(0, Vec::len);
            }
        }
    }
    assert!(seen.pieces, "Playground Battles' pieces");
    assert!(seen.chance, "a chance event");
    assert!(seen.look_hand, "a look with a hand");
    assert!(seen.stages, "a look with stages");
    assert!(hands > 0, "a hand of cards");
}

#[test]
fn check_of_a_mailbox_and_of_many_records_match_their_schemas() {
    let checker = Checker::new();
    let d = root();
    for mail in ["thread-whole-game.mbox", "disagreeing-records.eml"] {
        let path = format!("fixtures/mail/{mail}");
        let v = one(
            &checker,
            "check-all",
            &d,
            &["check", &path, "--all", "--format", "json"],
        );
        assert!(!v["records"].as_array().unwrap().is_empty(), "{mail}");
    }
    // JSON Lines: one document a record, an unreadable file among them.
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.pbem");
    let (code, lines) = outputs(
        &d,
        &[],
        &[
            "check",
            "examples/castle-danger.pbem",
            "fixtures/castle-danger/game-draw-by-agreement.pbem",
            missing.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 2, "the worst verdict: an unreadable file");
    assert_eq!(lines.len(), 3);
    for v in &lines {
        checker.assert_valid("check-many", v, "check A B C");
    }
    assert_eq!(lines[2]["error"]["kind"], "usage");
}

#[test]
fn move_setup_and_a_set_up_in_progress_match_their_schemas() {
    let checker = Checker::new();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ok = |args: &[&str]| common::run(d, args);
    // Playground Battles: Blue's set-up line written with the record.
    ok(&[
        "new",
        "playground-battles",
        "--side",
        "Blue=a@x",
        "--side",
        "Red=b@x",
        "--key",
        "blue.key",
        "--army",
        "RPSRRPSPRS",
        "--throws",
        "RRRRRRRRRRRR",
        "-o",
        "pg.pbem",
    ]);
    let v = one(
        &checker,
        "check",
        d,
        &["check", "pg.pbem", "--format", "json"],
    );
    assert_eq!(v["phase"], "setup");
    assert_eq!(v["step"]["step"], "commit");
    let v = one(
        &checker,
        "show",
        d,
        &["show", "pg.pbem", "--key", "blue.key", "--format", "json"],
    );
    assert!(v["pieces"].is_array());
    let v = one(
        &checker,
        "setup",
        d,
        &[
            "setup",
            "pg.pbem",
            "--side",
            "Red",
            "--key",
            "red.key",
            "--army",
            "SSPRRPRSPS",
            "--throws",
            "PPPPPPPPPPPP",
            "--format",
            "json",
        ],
    );
    assert_eq!(
        (&v["side"], &v["action"], &v["written"]),
        (&"Red".into(), &"commit".into(), &true.into())
    );
    // S3, Blue's openings, due: every reader on the set-up in progress.
    let v = one(
        &checker,
        "check",
        d,
        &["check", "pg.pbem", "--format", "json"],
    );
    assert_eq!(
        (&v["phase"], &v["step"]["step"]),
        (&"setup".into(), &"open".into())
    );
    the_readers_match_their_schemas(&checker, d, "pg.pbem", &["blue.key", "red.key"]);
    one(
        &checker,
        "setup",
        d,
        &[
            "setup",
            "pg.pbem",
            "--key",
            "blue.key",
            "--dry-run",
            "--format",
            "json",
        ],
    );
    // A refusal, as JSON: the set-up step is not Red's now... or the
    // key file is missing (exit 2).
    let v = one(
        &checker,
        "setup",
        d,
        &[
            "setup",
            "pg.pbem",
            "--key",
            "nobody.key",
            "--format",
            "json",
        ],
    );
    assert_eq!(v["error"]["kind"], "usage");
    // Castle Danger, Blue's key in and Red's due before turn 1.
    ok(&[
        "new",
        "castle-danger",
        "--side",
        "Blue=a@x",
        "--side",
        "Red=b@x",
        "-o",
        "keys.pbem",
    ]);
    ok(&["keygen", "--side", "Blue", "keys.pbem", "-o", "kblue.key"]);
    let v = one(
        &checker,
        "check",
        d,
        &["check", "keys.pbem", "--format", "json"],
    );
    assert_eq!(
        (&v["step"]["step"], &v["due"]),
        (&"keygen".into(), &serde_json::json!(["Red"]))
    );
    the_readers_match_their_schemas(&checker, d, "keys.pbem", &["kblue.key"]);
    // Castle Danger: a move, dry and written.
    ok(&[
        "new",
        "castle-danger",
        "--side",
        "Blue=a@x",
        "--side",
        "Red=b@x",
        "-o",
        "cd.pbem",
    ]);
    // Blue's turn 1 of examples/castle-danger.pbem.
    let first = "+C, Cd1-d2-d3";
    let v = one(
        &checker,
        "move",
        d,
        &["move", "cd.pbem", first, "--dry-run", "--format", "json"],
    );
    assert_eq!(v["written"], false);
    let v = one(
        &checker,
        "move",
        d,
        &["move", "cd.pbem", first, "--format", "json"],
    );
    assert_eq!((&v["turn"], &v["written"]), (&1.into(), &true.into()));
    // An illegal move: the error object (exit 1).
    let v = one(
        &checker,
        "move",
        d,
        &["move", "cd.pbem", "Zz9-z9", "--format", "json"],
    );
    assert_eq!(v["ok"], false);
}

/// `show`, `replay`, `annotate`, `legal` and `fate` of `record` in
/// `dir`, and `show`, `legal` and `fate` with each key file: each
/// output valid against its schema.
fn the_readers_match_their_schemas(checker: &Checker, dir: &Path, record: &str, keys: &[&str]) {
    for command in ["show", "replay", "annotate", "legal", "fate"] {
        one(
            checker,
            command,
            dir,
            &[command, record, "--format", "json"],
        );
    }
    for key in keys {
        for command in ["show", "legal", "fate"] {
            one(
                checker,
                command,
                dir,
                &[command, record, "--key", key, "--format", "json"],
            );
        }
    }
}

#[test]
fn inbox_matches_its_schema() {
    let checker = Checker::new();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mbox = root().join("fixtures/mail/thread-whole-game.mbox");
    let config = d.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "sendmail = \"/usr/sbin/sendmail\"\nmbox = \"{}\"\n[account]\naddress = \"bob@example.org\"\n",
            mbox.display()
        ),
    )
    .unwrap();
    let state = d.join("state");
    let (code, values) = outputs(
        d,
        &[("HERALD_CONFIG", &config), ("HERALD_STATE_DIR", &state)],
        &["inbox", "--format", "json"],
    );
    assert_eq!(code, 0, "{values:?}");
    checker.assert_valid("inbox", &values[0], "herald inbox");
    assert!(
        !values[0]["games"].as_array().unwrap().is_empty(),
        "{:#}",
        values[0]
    );
}

/// A document `check` really printed, then spoiled.
fn a_check_document() -> Value {
    let (code, values) = outputs(
        &root(),
        &[],
        &[
            "check",
            "fixtures/castle-danger/game-draw-by-agreement.pbem",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0);
    values.into_iter().next().unwrap()
}

#[test]
fn a_renamed_missing_or_unknown_field_is_refused_by_the_schema() {
    let checker = Checker::new();
    let good = a_check_document();
    checker.assert_valid("check", &good, "the document as printed");

    let mut renamed = good.clone();
    let to_move = renamed.as_object_mut().unwrap().remove("to_move").unwrap();
    renamed["side_to_move"] = to_move;
    let why = checker.check("check", &renamed).unwrap_err();
    assert!(
        why.contains("to_move") && why.contains("side_to_move"),
        "to_move renamed: {why}"
    );

    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("digest");
    let why = checker.check("check", &missing).unwrap_err();
    assert!(why.contains("digest"), "digest missing: {why}");

    let mut nested = good.clone();
    nested["draw"]["offered_by"] = Value::from(3);
    let why = checker.check("check", &nested).unwrap_err();
    assert!(
        why.contains("/draw/offered_by"),
        "offered_by a number: {why}"
    );

    let mut extra = good.clone();
    extra["draw"]["accepted"][0]["when"] = Value::from("today");
    let why = checker.check("check", &extra).unwrap_err();
    assert!(why.contains("when"), "an unknown field, nested: {why}");

    let mut phase = good.clone();
    phase["phase"] = Value::from("setup-phase");
    let why = checker.check("check", &phase).unwrap_err();
    assert!(why.contains("/phase"), "a phase no reader knows: {why}");

    // A failure's error object is strict too.
    let failure = serde_json::json!({"schema": 1, "ok": false, "error": {
        "kind": "illegal", "turn": 3, "setup_line": null, "side": "Red",
        "action": "Kc9-c4", "line": 12, "column": 9, "message": "no"}});
    checker.assert_valid("check", &failure, "a failure");
    let mut kind = failure.clone();
    kind["error"]["kind"] = Value::from("bad");
    assert!(
        checker.check("check", &kind).is_err(),
        "an unknown error kind"
    );
    // And a success document is no failure: ok true with an error is refused.
    let mut both = good;
    both["error"] = failure["error"].clone();
    assert!(checker.check("check", &both).is_err(), "ok with an error");
}

#[test]
fn every_schema_is_named_in_the_cli_docs() {
    let docs = std::fs::read_to_string(root().join("docs/cli.md")).unwrap();
    let mut files: Vec<String> = std::fs::read_dir(root().join("docs/schemas"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    for file in &files {
        assert!(
            docs.contains(&format!("schemas/{file}")),
            "{file} in docs/cli.md"
        );
    }
    let mut expected: Vec<String> = OUTPUTS.iter().map(|n| format!("{n}.json")).collect();
    expected.push("common.json".into());
    expected.sort();
    assert_eq!(
        files, expected,
        "one schema per output, and the shared definitions"
    );
}
