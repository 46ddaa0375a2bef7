//! Contacts and the mail herald writes from them (issue 28), through the
//! real binary: each player in their own directory with their own key
//! file, messages carried from one to the next by copying the .eml.
//! Names that are not ASCII or hold a dot stand in the headers as mail
//! needs them (RFC 2047-encoded, quoted) and read back as written; an
//! address mail cannot use is refused by `new` and `check`; a side with
//! a name alone is left out of Cc with a warning.

mod common;
use common::{fails, herald, run};

use std::path::{Path, PathBuf};

/// The players' directories under one root, the record in each, after
/// `new` (by the first) and every side's key (`my.key`, in turn order).
struct Table {
    _root: tempfile::TempDir,
    dirs: Vec<PathBuf>,
}

impl Table {
    fn new(game: &str, sides: &[(&str, &str)]) -> Table {
        let root = tempfile::tempdir().unwrap();
        let dirs: Vec<PathBuf> = (0..sides.len())
            .map(|k| {
                let d = root.path().join(format!("player{k}"));
                std::fs::create_dir(&d).unwrap();
                d
            })
            .collect();
        let mut args = vec!["new".to_string(), game.to_string()];
        for (side, contact) in sides {
            args.push("--side".into());
            args.push(format!("{side}={contact}"));
        }
        args.extend(["-o".into(), "game.pbem".into()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&dirs[0], &args);
        let t = Table { _root: root, dirs };
        for (k, (side, _)) in sides.iter().enumerate() {
            if k > 0 {
                t.copy(k - 1, k, "game.pbem");
            }
            run(
                &t.dirs[k],
                &["keygen", "--side", side, "game.pbem", "-o", "my.key"],
            );
        }
        for k in 0..sides.len() - 1 {
            t.copy(sides.len() - 1, k, "game.pbem");
        }
        t
    }

    /// Player `from`'s file `name` copied to player `to`'s directory.
    fn copy(&self, from: usize, to: usize, name: &str) {
        std::fs::copy(self.dirs[from].join(name), self.dirs[to].join(name)).unwrap();
    }

    /// The first legal action of player `k` on `input`.
    fn first_legal(&self, k: usize, input: &str) -> String {
        let legal: serde_json::Value = serde_json::from_str(&run(
            &self.dirs[k],
            &["legal", "--format", "json", input, "--key", "my.key"],
        ))
        .unwrap();
        legal["actions"][0]["action"].as_str().unwrap().to_owned()
    }

    /// Player `k` plays `turn` on `input` and writes the reply `out`;
    /// what herald says on standard error.
    fn reply(&self, k: usize, input: &str, turn: &str, out: &str) -> String {
        let done = herald(&self.dirs[k])
            .args(["move", input, turn, "--key", "my.key", "--reply", "-o", out])
            .output()
            .unwrap();
        assert!(done.status.success(), "{done:?}");
        String::from_utf8(done.stderr).unwrap()
    }
}

/// The (display name, address) pairs of the header `name` of the message
/// at `path`, as mailparse reads them; `None` when it has no such header.
fn addresses(path: &Path, name: &str) -> Option<Vec<(Option<String>, String)>> {
    let bytes = std::fs::read(path).unwrap();
    let (headers, _) = mailparse::parse_headers(&bytes).unwrap();
    let header = headers.iter().find(|h| h.get_key_ref() == name)?;
    let list = mailparse::addrparse_header(header).unwrap();
    Some(
        list.iter()
            .map(|a| match a {
                mailparse::MailAddr::Single(s) => (s.display_name.clone(), s.addr.clone()),
                mailparse::MailAddr::Group(g) => panic!("{name} holds a group: {g}"),
            })
            .collect(),
    )
}

fn one(name: &str, address: &str) -> Vec<(Option<String>, String)> {
    vec![(Some(name.to_owned()), address.to_owned())]
}

/// The raw header lines of the message at `path` (before the blank line).
fn head(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.split("\n\n").next().unwrap().to_owned()
}

#[test]
fn names_with_umlauts_and_a_dot_go_through_a_reply_and_read_back() {
    let t = Table::new(
        "castle-danger",
        &[("Blue", "Zoë Ünal <z@x.org>"), ("Red", "Bob.B <b@x.org>")],
    );
    t.reply(0, "game.pbem", "Kc1-b1", "1.eml");
    t.copy(0, 1, "1.eml");
    let red = &t.dirs[1];
    let first = red.join("1.eml");
    // The headers are ASCII: the name with umlauts encoded, the one with
    // a dot quoted (a dot is no atom character, RFC 5322 3.2.3).
    let h = head(&first);
    assert!(h.is_ascii(), "{h}");
    assert!(h.contains("\nTo: \"Bob.B\" <b@x.org>\n"), "{h}");
    assert!(h.contains("Content-Transfer-Encoding: 8bit"), "{h}");
    assert_eq!(addresses(&first, "From"), Some(one("Zoë Ünal", "z@x.org")));
    assert_eq!(addresses(&first, "To"), Some(one("Bob.B", "b@x.org")));
    assert_eq!(addresses(&first, "Cc"), None);
    // The record stands readable in the raw message, byte for byte as
    // `extract` reads it back; that is the record Blue's file holds, but
    // for the Commit tag broken at its space to fit 78 columns.
    let raw = std::fs::read_to_string(&first).unwrap();
    assert!(raw.contains("[Blue \"Zoë Ünal <z@x.org>\"]\n"), "{raw}");
    let extracted = run(red, &["extract", "1.eml"]);
    assert!(raw.contains(&extracted), "{raw}");
    assert_eq!(
        extracted.replace("[BlueCommit\n\"", "[BlueCommit \""),
        run(&t.dirs[0], &["extract", "game.pbem"])
    );
    // Red answers the message; its headers turn the other way round.
    let turn = t.first_legal(1, "1.eml");
    t.reply(1, "1.eml", &turn, "2.eml");
    let second = red.join("2.eml");
    assert_eq!(addresses(&second, "From"), Some(one("Bob.B", "b@x.org")));
    assert_eq!(addresses(&second, "To"), Some(one("Zoë Ünal", "z@x.org")));
    let json: serde_json::Value =
        serde_json::from_str(&run(red, &["check", "--format", "json", "2.eml"])).unwrap();
    assert_eq!(
        (json["ok"].clone(), json["turns"].clone()),
        (true.into(), 2.into())
    );
    run(red, &["extract", "2.eml", "-o", "again.pbem"]);
    let again = std::fs::read_to_string(red.join("again.pbem")).unwrap();
    assert!(again.contains("[Red \"Bob.B <b@x.org>\"]"), "{again}");
}

#[test]
fn a_cjk_name_in_from_and_cc_goes_through_a_reply_and_reads_back() {
    let t = Table::new(
        "battle-of-the-dale",
        &[
            ("Human", "山田 太郎 <t@x.org>"),
            ("Elf", "Bob.B <b@x.org>"),
            ("Goblin", "Zoë Ünal <z@x.org>"),
        ],
    );
    let turn = t.first_legal(0, "game.pbem");
    t.reply(0, "game.pbem", &turn, "1.eml");
    let first = t.dirs[0].join("1.eml");
    assert!(head(&first).is_ascii(), "{}", head(&first));
    assert_eq!(addresses(&first, "From"), Some(one("山田 太郎", "t@x.org")));
    assert_eq!(addresses(&first, "To"), Some(one("Bob.B", "b@x.org")));
    assert_eq!(addresses(&first, "Cc"), Some(one("Zoë Ünal", "z@x.org")));
    t.copy(0, 1, "1.eml");
    let turn = t.first_legal(1, "1.eml");
    t.reply(1, "1.eml", &turn, "2.eml");
    let second = t.dirs[1].join("2.eml");
    assert_eq!(addresses(&second, "To"), Some(one("Zoë Ünal", "z@x.org")));
    assert_eq!(addresses(&second, "Cc"), Some(one("山田 太郎", "t@x.org")));
    t.copy(1, 2, "2.eml");
    let json: serde_json::Value =
        serde_json::from_str(&run(&t.dirs[2], &["check", "--format", "json", "2.eml"])).unwrap();
    assert_eq!(
        (json["ok"].clone(), json["turns"].clone()),
        (true.into(), 2.into())
    );
    let record = run(&t.dirs[2], &["extract", "2.eml"]);
    assert!(
        record.contains("[Human \"山田 太郎 <t@x.org>\"]"),
        "{record}"
    );
}

#[test]
fn a_side_with_a_name_alone_is_left_out_of_cc_with_a_warning_naming_it() {
    let t = Table::new(
        "battle-of-the-dale",
        &[("Human", "h@x.org"), ("Elf", "e@x.org"), ("Goblin", "Cara")],
    );
    let turn = t.first_legal(0, "game.pbem");
    let warned = t.reply(0, "game.pbem", &turn, "1.eml");
    let first = t.dirs[0].join("1.eml");
    assert_eq!(
        addresses(&first, "To"),
        Some(vec![(None, "e@x.org".into())])
    );
    assert_eq!(addresses(&first, "Cc"), None, "{}", head(&first));
    assert!(
        warned.contains(
            "Goblin's contact `Cara` has no address in this record: send them the message yourself"
        ),
        "{warned}"
    );
    assert!(warned.contains("herald extract"), "{warned}");
    // The message itself is whole: Elf reads the game from it.
    t.copy(0, 1, "1.eml");
    let json: serde_json::Value =
        serde_json::from_str(&run(&t.dirs[1], &["check", "--format", "json", "1.eml"])).unwrap();
    assert_eq!(
        (
            json["ok"].clone(),
            json["turns"].clone(),
            json["to_move"].clone()
        ),
        (true.into(), 1.into(), "Elf".into())
    );
}

#[test]
fn a_reply_to_a_next_player_with_a_name_alone_is_refused_and_nothing_is_written() {
    let t = Table::new(
        "battle-of-the-dale",
        &[("Human", "h@x.org"), ("Elf", "Cara"), ("Goblin", "g@x.org")],
    );
    let turn = t.first_legal(0, "game.pbem");
    let before = std::fs::read(t.dirs[0].join("game.pbem")).unwrap();
    let err = fails(
        &t.dirs[0],
        &[
            "move",
            "game.pbem",
            &turn,
            "--key",
            "my.key",
            "--reply",
            "-o",
            "1.eml",
        ],
        2,
    );
    assert!(
        err.contains("Elf's contact `Cara` is no mail address, so no message can go to it"),
        "{err}"
    );
    assert!(err.contains("--side Elf=ADDRESS"), "{err}");
    assert!(!t.dirs[0].join("1.eml").exists(), "no message");
    assert_eq!(
        std::fs::read(t.dirs[0].join("game.pbem")).unwrap(),
        before,
        "the record as it was"
    );
}

/// `new` refuses `contact` for Blue (exit 2, nothing written) and `check`
/// refuses a record whose Blue tag holds it (exit 1, at the tag's value),
/// each saying the contact `fault` and teaching with `example`.
fn refused_at_new_and_by_check(contact: &str, fault: &str, example: &str) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let err = fails(
        d,
        &[
            "new",
            "castle-danger",
            "--side",
            &format!("Blue={contact}"),
            "--side",
            "Red=bob@example.org",
            "-o",
            "game.pbem",
        ],
        2,
    );
    let said = format!("--side Blue: the contact `{contact}` {fault}");
    assert!(err.contains(&said), "{err}");
    assert!(err.contains(example), "{err}");
    assert!(!d.join("game.pbem").exists(), "nothing written");
    std::fs::write(
        d.join("bad.pbem"),
        format!(
            "[Game \"castle-danger\"]\n[Blue \"{contact}\"]\n\
             [Red \"bob@example.org\"]\n[Result \"*\"]\n\n"
        ),
    )
    .unwrap();
    let err = fails(d, &["check", "bad.pbem"], 1);
    let said = format!("Blue's contact `{contact}` {fault}");
    assert!(err.contains(&said), "{err}");
    assert!(err.contains("bad.pbem:2:8"), "{err}");
}

#[test]
fn an_address_whose_name_part_begins_with_a_dot_is_refused_at_new_and_by_check() {
    refused_at_new_and_by_check(
        ".a@x.org",
        "has a dot at the start of its address's name part `.a`",
        "ann.smith@mail.example.org",
    );
}

#[test]
fn an_address_whose_name_part_ends_with_a_dot_is_refused_at_new_and_by_check() {
    refused_at_new_and_by_check(
        "a.@x.org",
        "has a dot at the end of its address's name part `a.`",
        "ann.smith@mail.example.org",
    );
}

#[test]
fn an_address_with_two_dots_in_a_row_in_its_name_part_is_refused_at_new_and_by_check() {
    refused_at_new_and_by_check(
        "a..b@x.org",
        "has two dots in a row in its address's name part `a..b`",
        "ann.smith@mail.example.org",
    );
}

#[test]
fn an_address_whose_domain_begins_with_a_dot_is_refused_at_new_and_by_check() {
    refused_at_new_and_by_check(
        "a@.x.org",
        "has a dot at the start of its address's domain `.x.org`",
        "ann.smith@mail.example.org",
    );
}

#[test]
fn an_address_whose_domain_ends_with_a_dot_is_refused_at_new_and_by_check() {
    refused_at_new_and_by_check(
        "a@x.org.",
        "has a dot at the end of its address's domain `x.org.`",
        "ann.smith@mail.example.org",
    );
}

#[test]
fn an_address_with_two_dots_in_a_row_in_its_domain_is_refused_at_new_and_by_check() {
    refused_at_new_and_by_check(
        "a@x..org",
        "has two dots in a row in its address's domain `x..org`",
        "ann.smith@mail.example.org",
    );
}

#[test]
fn a_reply_that_ends_the_game_with_no_other_address_is_refused_and_nothing_is_written() {
    let t = Table::new("castle-danger", &[("Blue", "ann@x.org"), ("Red", "Bob")]);
    let before = std::fs::read(t.dirs[0].join("game.pbem")).unwrap();
    let err = fails(
        &t.dirs[0],
        &[
            "move",
            "game.pbem",
            "resign",
            "--key",
            "my.key",
            "--reply",
            "-o",
            "end.eml",
        ],
        2,
    );
    assert!(
        err.contains("no other side's contact in this record is a mail address (Red: `Bob`)"),
        "{err}"
    );
    assert!(err.contains("drop --reply"), "{err}");
    assert!(!t.dirs[0].join("end.eml").exists(), "no message");
    assert_eq!(
        std::fs::read(t.dirs[0].join("game.pbem")).unwrap(),
        before,
        "the record as it was"
    );
}

#[test]
fn an_address_outside_ascii_is_refused_at_new_and_by_check() {
    refused_at_new_and_by_check(
        "ann@bücher.de",
        "has a letter outside ASCII in its address `ann@bücher.de`",
        "write the domain in its ASCII form (`xn--...`",
    );
}

#[test]
fn a_domain_word_that_starts_or_ends_with_a_hyphen_is_refused_at_new_and_by_check() {
    refused_at_new_and_by_check(
        "ann@-example.org",
        "has `-example` in its address's domain `-example.org`",
        "starting and ending with a letter or digit",
    );
    refused_at_new_and_by_check(
        "Ann <ann@example-.org>",
        "has `example-` in its address's domain `example-.org`",
        "as in mail.example.org",
    );
}

#[test]
fn an_address_name_part_over_64_characters_is_refused_at_new_and_by_check() {
    let contact = format!("{}@example.org", "a".repeat(70));
    refused_at_new_and_by_check(
        &contact,
        "has a name part of 70 characters in its address",
        "mail carries at most 64",
    );
}

#[test]
fn a_name_that_reads_as_an_encoded_word_is_refused_at_new_and_by_check() {
    refused_at_new_and_by_check(
        "Bob =?utf-8?q?=0D=0ABcc=3A_x=40evil.org?= <bob@example.org>",
        "has `=?` in its name",
        "herald encodes it where a header needs it",
    );
}

#[test]
fn a_name_over_64_characters_is_refused_at_new_and_by_check() {
    let contact = format!("{} <ann@example.org>", "Annabelle".repeat(12));
    refused_at_new_and_by_check(&contact, "has a name of 108 characters", "at most 64");
}
