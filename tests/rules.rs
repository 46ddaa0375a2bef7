//! `herald rules [GAME]` through the real binary: a game's rules are the
//! text of its `docs/games/<id>.md`, printed plain when standard output
//! is not a terminal (as here: the pager is for a terminal only).

mod common;
use common::{herald, run};

/// Every game of the registry: a new game is tested with no edit here.
const GAMES: &[&str] = herald::games::GAME_IDS;

#[test]
fn rules_of_a_game_print_its_docs_file_plain_into_a_pipe() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    for game in GAMES {
        let file = std::fs::read_to_string(root.join(format!("docs/games/{game}.md"))).unwrap();
        // A PAGER that would fail is not run: the output is not a terminal.
        let out = herald(dir.path())
            .args(["rules", game])
            .env("PAGER", "false")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{game}");
        assert_eq!(String::from_utf8(out.stdout).unwrap(), file, "{game}");
        assert!(file.contains("### Rulings"), "{game}: its rulings too");
    }
}

#[test]
fn rules_without_a_game_list_each_game_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &["rules"]);
    let lines: Vec<&str> = out.lines().collect();
    // The first sentence of each game's rules, checked against the docs.
    let expected = [
        (
            "castle-danger",
            "Castle Danger is a game for two players, Blue and Red.",
        ),
        (
            "battle-of-the-dale",
            "Battle of the Dale is a game for two to five players, each leading one army: \
             Human, Elf, Dwarf, Goblin or Falcon.",
        ),
        (
            "breach-the-keep",
            "Breach The Keep is a game for two players, White and Black.",
        ),
        (
            "playground-battles",
            "Playground Battles is a game for two players, Blue and Red.",
        ),
        (
            "battlegates",
            "Battlegates is a game for two players, South and North.",
        ),
    ];
    for (line, (id, summary)) in lines.iter().zip(expected) {
        let (first, rest) = line.split_once(' ').unwrap();
        assert_eq!(first, id);
        assert_eq!(rest.trim_start(), summary);
    }
    assert_eq!(lines[5], "");
    assert_eq!(
        lines[6],
        "The rules of one game: herald rules castle-danger"
    );
    assert_eq!(lines.len(), 7);
}

#[test]
fn rules_of_an_unknown_game_is_a_usage_error_listing_the_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = herald(dir.path())
        .args(["rules", "chess"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("invalid value 'chess'"), "{err}");
    assert!(
        err.contains(&format!("[possible values: {}]", GAMES.join(", "))),
        "{err}"
    );
    // The same words as `herald new` gives for an unknown game.
    let new = herald(dir.path())
        .args(["new", "chess", "--side", "A=a@x"])
        .output()
        .unwrap();
    assert_eq!(new.status.code(), Some(2));
    let new_err = String::from_utf8(new.stderr).unwrap();
    let games_line = |e: &str| {
        e.lines()
            .find(|l| l.contains("possible values"))
            .unwrap()
            .to_owned()
    };
    assert_eq!(games_line(&err), games_line(&new_err));
}

#[test]
fn rules_help_shows_examples() {
    let dir = tempfile::tempdir().unwrap();
    let help = run(dir.path(), &["rules", "--help"]);
    assert!(help.contains("Examples:\n  herald rules "), "{help}");
    assert!(help.contains("herald rules castle-danger"), "{help}");
    assert!(help.contains("$PAGER, else less -R"), "{help}");
}

#[test]
fn rules_has_a_man_page_and_completes_the_game_names() {
    let dir = tempfile::tempdir().unwrap();
    let page = run(dir.path(), &["man", "rules"]);
    assert!(page.contains("herald\\-rules"), "{page}");
    let zsh = run(dir.path(), &["completions", "zsh"]);
    let at = zsh.find("(rules)").expect("rules in zsh completions");
    assert!(
        zsh[at..].contains(&format!(":({})'", GAMES.join(" "))),
        "game names for rules"
    );
}

/// On a terminal the text goes through `$PAGER`, run as a shell command.
/// The terminal is util-linux's `script` (Debian's bsdutils, essential),
/// whose pseudo-terminal is herald's standard output.
#[cfg(target_os = "linux")]
#[test]
fn rules_on_a_terminal_go_through_the_users_pager() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let paged = dir.path().join("paged.md");
    let bin = assert_cmd::cargo::cargo_bin("herald");
    let out = std::process::Command::new("script")
        .args(["-qec", &format!("'{}' rules battlegates", bin.display())])
        .arg("/dev/null")
        .env("PAGER", format!("cat > '{}'", paged.display()))
        .current_dir(dir.path())
        .output()
        .expect("util-linux script");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(&paged).expect("the pager ran"),
        std::fs::read_to_string(root.join("docs/games/battlegates.md")).unwrap()
    );
}
