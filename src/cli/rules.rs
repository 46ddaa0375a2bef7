//! `herald rules [GAME]`: a game's rules and rulings, the text of
//! `docs/games/<game-id>.md` built into the binary, printed plain into a
//! pipe or a file and through the user's pager on a terminal.

use std::io::{IsTerminal, Write};
use std::process::{Command, Stdio};

use super::context::unknown_game_argument;
use super::report::{Exit, Failure};
use crate::games::{GAMES, GAME_IDS};

/// The rules text of game `id` (its exact id, as `herald new` takes it):
/// the registry's, `docs/games/<id>.md`.
pub(super) fn rules_text(id: &str) -> Option<&'static str> {
    GAMES.iter().find(|g| g.id == id).map(|g| g.rules)
}

/// A game's one-line summary: the first sentence of its "Rules"
/// ("Castle Danger is a game for two players, Blue and Red.").
fn summary(text: &str) -> String {
    let rules = text.split("### Rules").nth(1).unwrap_or(text);
    let paragraph = rules.trim_start().split("\n\n").next().unwrap_or_default();
    let words = paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
    let sentence = match words.find(". ") {
        Some(end) => &words[..=end],
        None => &words,
    };
    sentence.to_owned()
}

/// The list of games `herald rules` prints without a game.
fn game_list() -> String {
    let width = GAME_IDS.iter().map(|id| id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for id in GAME_IDS {
        let summary = rules_text(id).map(summary).unwrap_or_default();
        out.push_str(&format!("{id:width$}  {summary}\n"));
    }
    out.push_str("\nThe rules of one game: herald rules castle-danger\n");
    out
}

/// What pages the text on a terminal: `$PAGER` (a shell command, as git
/// and man run it: `sh -c "$PAGER"`), else `less -R` when `less` is
/// found, else nothing (plain).
fn pager_command(pager_env: Option<&str>, less_found: bool) -> Option<Vec<String>> {
    match pager_env.map(str::trim) {
        Some(pager) if !pager.is_empty() => Some(if cfg!(unix) {
            vec!["sh".to_owned(), "-c".to_owned(), pager.to_owned()]
        } else {
            pager.split_whitespace().map(str::to_owned).collect()
        }),
        _ if less_found => Some(vec!["less".to_owned(), "-R".to_owned()]),
        _ => None,
    }
}

/// Whether `program` is an executable file in one of the `PATH` folders.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// Give `text` to the pager `command` on its standard input and wait for
/// it; `Err` when it cannot be started (the caller prints plain instead).
fn page_through(command: &[String], text: &str) -> std::io::Result<()> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| std::io::Error::other("no pager"))?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        // A pager quit before the end closes its input: not an error.
        let _ = stdin.write_all(text.as_bytes());
    }
    child.wait()?;
    Ok(())
}

/// `herald rules [GAME]`.
pub(super) fn rules(game: Option<&str>) -> Result<Exit, Failure> {
    let Some(id) = game else {
        super::out(&game_list())?;
        return Ok(Exit::Ok);
    };
    let text = rules_text(id)
        .ok_or_else(|| unknown_game_argument(&crate::games::UnknownGame { id: id.to_owned() }))?;
    if std::io::stdout().is_terminal() {
        let pager = std::env::var("PAGER").ok();
        if let Some(command) = pager_command(pager.as_deref(), on_path("less")) {
            if page_through(&command, text).is_ok() {
                return Ok(Exit::Ok);
            }
        }
    }
    super::out(text)?;
    Ok(Exit::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_rules_built_in() {
        for id in GAME_IDS {
            let text = rules_text(id).unwrap_or_else(|| panic!("{id} has no rules"));
            assert!(text.contains(&format!("(`{id}`)")), "{id}: its own section");
            assert!(text.contains("### Rules") && text.contains("### Rulings"));
        }
    }

    #[test]
    fn a_games_summary_is_the_first_sentence_of_its_rules() {
        let text = "## 6. Castle Danger (`castle-danger`)\n\n### Rules\n\n\
                    Castle Danger is a game for two players, Blue and Red. Each\n\
                    builds walls.\n\nMore.";
        assert_eq!(
            summary(text),
            "Castle Danger is a game for two players, Blue and Red."
        );
        assert_eq!(
            summary(rules_text("breach-the-keep").unwrap()),
            "Breach The Keep is a game for two players, White and Black."
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_pager_is_pager_then_less_then_none() {
        let v = |s: &[&str]| Some(s.iter().map(|w| w.to_string()).collect::<Vec<_>>());
        assert_eq!(
            pager_command(Some("most -s"), true),
            v(&["sh", "-c", "most -s"])
        );
        assert_eq!(pager_command(Some("more"), false), v(&["sh", "-c", "more"]));
        assert_eq!(pager_command(None, true), v(&["less", "-R"]));
        // An empty PAGER counts as unset.
        assert_eq!(pager_command(Some("  "), true), v(&["less", "-R"]));
        assert_eq!(pager_command(None, false), None);
        assert_eq!(pager_command(Some(""), false), None);
    }

    #[cfg(unix)]
    #[test]
    fn the_pager_is_given_the_whole_text_on_its_input() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("paged.txt");
        let command = vec![
            "sh".to_owned(),
            "-c".to_owned(),
            format!("cat > '{}'", file.display()),
        ];
        page_through(&command, "the rules\nin full\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "the rules\nin full\n"
        );
    }

    #[test]
    fn a_pager_that_cannot_start_is_an_error_so_the_text_goes_out_plain() {
        let command = vec!["herald-no-such-pager-anywhere".to_owned()];
        assert!(page_through(&command, "x").is_err());
        assert!(page_through(&[], "x").is_err());
    }
}
