//! Shell completions (`herald completions SHELL`) through the real
//! binary: they offer the game names (`new`), the side names where a
//! side is an argument (`keygen --side`), each game's header options
//! (`new --option`) and the commands' options; the hints never narrow
//! what is accepted.

mod common;
use common::run;

/// Every game's side names, in the games' order (checked against each
/// game's `SIDES` in docs/games/: Castle Danger and Playground
/// Battles Blue, Red; the Dale's five armies; Breach The Keep White,
/// Black; Battlegates South, North and its four castles).
const SIDES: &str =
    "Blue Red Human Elf Dwarf Goblin Falcon White Black South North Castle1 Castle2 Castle3 Castle4";

#[test]
fn zsh_completions_offer_games_sides_and_options() {
    let dir = tempfile::tempdir().unwrap();
    let zsh = run(dir.path(), &["completions", "zsh"]);
    // Every game of the registry, in its order.
    let games = herald::games::GAME_IDS.join(" ");
    assert!(zsh.contains(&format!(":({games})'")), "game names for new");
    assert!(
        zsh.contains(&format!(
            "'--side=[The side the key is for]:SIDE:({SIDES})'"
        )),
        "side names for keygen --side"
    );
    // Breach The Keep's options with their defaults, Battlegates' too.
    for option in [
        "WhiteKeep=3",
        "BlackKeep=3",
        "Hands=hidden",
        "Setup=one-board",
    ] {
        assert!(zsh.contains(option), "{option}");
    }
    // The commands' own options.
    for flag in ["--key=", "--hand-key=", "--format=", "--expect-turn="] {
        assert!(zsh.contains(flag), "{flag}");
    }
}

#[test]
fn bash_and_fish_completions_offer_the_side_names_of_keygen() {
    let dir = tempfile::tempdir().unwrap();
    let bash = run(dir.path(), &["completions", "bash"]);
    assert!(bash.contains(SIDES), "bash");
    let fish = run(dir.path(), &["completions", "fish"]);
    // Fish lists the values one a line after `-a "`, each with its
    // (empty) description.
    let at = fish
        .find("__fish_herald_using_subcommand keygen\" -l side")
        .expect("keygen --side in fish");
    let values = &fish[at..];
    let values = &values[..values.find("\"\n").expect("the value list closes")];
    for side in SIDES.split(' ') {
        assert!(values.contains(&format!("{side}\\t''")), "{side}: {values}");
    }
}

#[test]
fn a_side_hint_does_not_narrow_what_keygen_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run(
        d,
        &[
            "new",
            "castle-danger",
            "--side",
            "Blue=a@x",
            "--side",
            "Red=b@x",
            "-o",
            "g.pbem",
        ],
    );
    // Any case, as before: the side is checked against the game.
    let out = run(d, &["keygen", "--side", "blue", "g.pbem", "-o", "b.key"]);
    assert!(out.contains("[BlueCommit "), "{out}");
    let help = run(d, &["keygen", "--help"]);
    assert!(!help.contains("possible values"), "{help}");
}
