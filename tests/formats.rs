//! Each command offers only the `--format` values it writes, and
//! `--color` is one global option: through the real binary's help, its
//! refusals and its completions.

mod common;
use common::herald;

/// The `--format` values `herald COMMAND --help` lists, in order.
fn offered(command: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let out = herald(dir.path())
        .args([command, "--help"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{command} --help");
    let help = String::from_utf8(out.stdout).unwrap();
    let Some(at) = help.find("--format <FORMAT>") else {
        return Vec::new();
    };
    let rest = &help[at..];
    let list = &rest[rest.find("Possible values:").expect("values listed")..];
    let list = &list[..list.find("[default: text]").expect("the default")];
    list.lines()
        .filter_map(|l| l.trim().strip_prefix("- "))
        .map(|l| l.split(':').next().unwrap().to_owned())
        .collect()
}

#[test]
fn each_command_offers_only_the_formats_it_writes() {
    for reader in [
        "check", "replay", "annotate", "legal", "hand", "fate", "move", "setup", "inbox",
    ] {
        assert_eq!(offered(reader), ["text", "json"], "{reader}");
    }
    assert_eq!(offered("show"), ["text", "json", "svg"]);
    // extract writes a record, keygen and new a record or a key: no --format.
    for writer in ["extract", "keygen", "new", "send", "rules"] {
        assert!(offered(writer).is_empty(), "{writer}");
    }
}

#[test]
fn a_format_a_command_does_not_write_is_refused_by_the_parser_with_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    // The record need not exist: the value is refused before anything is read.
    for (command, value) in [("check", "svg"), ("legal", "svg"), ("show", "png")] {
        let out = herald(dir.path())
            .args([command, "nothing.pbem", "--format", value])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command} --format {value}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("invalid value '{value}' for '--format <FORMAT>'")),
            "{err}"
        );
        assert!(!err.contains("cannot read"), "nothing is read: {err}");
    }
    let out = herald(dir.path())
        .args(["check", "nothing.pbem", "--format", "svg"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("herald check writes text or json"), "{err}");
    assert!(err.contains("herald show --format svg"), "{err}");
    assert!(err.contains("[possible values: text, json]"), "{err}");
}

#[test]
fn completions_offer_each_commands_own_formats() {
    let dir = tempfile::tempdir().unwrap();
    let out = herald(dir.path())
        .args(["completions", "fish"])
        .output()
        .unwrap();
    let fish = String::from_utf8(out.stdout).unwrap();
    // Fish lists the values one a line after `-a "`, up to the next
    // `complete` line.
    let format_values = |command: &str| {
        let at = fish
            .find(&format!(
                "__fish_herald_using_subcommand {command}\" -l format"
            ))
            .unwrap_or_else(|| panic!("{command} --format in fish"));
        let block = &fish[at..];
        let end = block.find("\ncomplete ").unwrap_or(block.len());
        block[..end].to_owned()
    };
    let check = format_values("check");
    assert!(
        check.contains("text\\t") && check.contains("json\\t"),
        "{check}"
    );
    assert!(!check.contains("svg\\t"), "{check}");
    assert!(format_values("show").contains("svg\\t"));
}

#[test]
fn color_is_one_global_option_under_its_own_heading() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["check", "move", "show"] {
        let out = herald(dir.path())
            .args([command, "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        assert_eq!(help.matches("--color").count(), 1, "{command}: {help}");
        let global = help.find("Global options:").expect("the heading");
        assert!(help[global..].contains("--color <COLOR>"), "{command}");
    }
    // Given before or after the command, it is the same option.
    for args in [["--color", "never", "rules"], ["rules", "--color", "never"]] {
        let out = herald(dir.path()).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
    }
}
