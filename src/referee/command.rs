//! The commands the referee's words suggest, as values: a step due says
//! `herald move audit --key`, a set-up note `herald keygen --side Red
//! RECORD -o red.key`. A [`Command`] holds the command's parts (what it
//! runs, the record, the side, the action, the key file, the hand key
//! file, the set-up choices) and [`Command::write`] is the one place
//! they become text, for the reader at hand ([`Writing`]): the record
//! named as the file read, and a command on an email message written as
//! the reply that answers it (`--reply -o reply.eml`, a key file to make
//! named by `--key`, as `-o` is the message's then). [`Said`] is words
//! with commands among them, written the same way.

use std::fmt;

/// What a command runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    Keygen,
    Move,
    Setup,
}

/// The key file a command names.
#[derive(Clone, Debug, PartialEq, Eq)]
enum KeyFile {
    /// None.
    None,
    /// `--key FILE`, or `--key` alone: the player's own, named by them.
    Given(Option<String>),
    /// `-o FILE`: a key file `keygen` makes (`--key FILE` when the
    /// command answers a message by a reply, `-o` naming the reply).
    Made(String),
}

/// A herald command that takes a step: `herald keygen`, `herald move` or
/// `herald setup`, with the options it needs ([`Command::write`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    verb: Verb,
    side: Option<String>,
    record: bool,
    action: Option<String>,
    key: KeyFile,
    hand_key: Option<String>,
    choices: Vec<&'static str>,
    /// `--then TURN --then-key FILE`: another side's first turn, by its
    /// key file, in the same message (one player's two sides).
    then: Option<(String, String)>,
}

/// How commands are written for their reader: the record they name,
/// and whether one on that record answers it by a reply (the record is
/// an email message, which herald never rewrites).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Writing<'a> {
    /// The record as a shell word: `RECORD` where no file is known.
    pub record: &'a str,
    /// Whether a command on the record answers it with a reply.
    pub reply: bool,
    /// Whether that reply is sent as well (`--send`: the player answers
    /// by mail, as the inbox's does).
    pub send: bool,
}

impl Writing<'static> {
    /// `RECORD`, answered in place: how the referee's words read on
    /// their own (their `Display`), in JSON and in errors.
    pub const AS_IS: Writing<'static> = Writing {
        record: "RECORD",
        reply: false,
        send: false,
    };
}

impl Command {
    fn new(verb: Verb) -> Self {
        Command {
            verb,
            side: None,
            record: false,
            action: None,
            key: KeyFile::None,
            hand_key: None,
            choices: Vec::new(),
            then: None,
        }
    }

    /// `herald keygen --side SIDE`.
    pub fn keygen(side: &str) -> Self {
        Command::new(Verb::Keygen).side(side)
    }

    /// `herald move`.
    pub fn moves() -> Self {
        Command::new(Verb::Move)
    }

    /// `herald setup`.
    pub fn setup() -> Self {
        Command::new(Verb::Setup)
    }

    /// The side it writes for (`--side SIDE`).
    pub fn side(mut self, side: &str) -> Self {
        self.side = Some(side.to_owned());
        self
    }

    /// It names the record (`RECORD`, or the file read).
    pub fn on_record(mut self) -> Self {
        self.record = true;
        self
    }

    /// What the player types, quoted when it is more than one word
    /// (`audit`, `"accept draw"`).
    pub fn action(mut self, action: &str) -> Self {
        self.action = Some(if action.contains(' ') {
            format!("\"{action}\"")
        } else {
            action.to_owned()
        });
        self
    }

    /// `--key`: the player's own key file, named by them.
    pub fn key(mut self) -> Self {
        self.key = KeyFile::Given(None);
        self
    }

    /// `--key FILE`.
    pub fn key_file(mut self, file: &str) -> Self {
        self.key = KeyFile::Given(Some(file.to_owned()));
        self
    }

    /// `-o FILE`: the key file `keygen` makes.
    pub fn makes_key(mut self, file: &str) -> Self {
        self.key = KeyFile::Made(file.to_owned());
        self
    }

    /// `--hand-key FILE`, if the side plays from another side's hand.
    pub fn hand_key(mut self, file: Option<String>) -> Self {
        self.hand_key = file;
        self
    }

    /// `--CHOICE CHOICE` for each set-up choice named (`--army ARMY`).
    pub fn choices(mut self, choices: impl IntoIterator<Item = &'static str>) -> Self {
        self.choices.extend(choices);
        self
    }

    /// `--then "TURN" --then-key FILE`: the first turn of another side of
    /// the same player, written right after this set-up line by that
    /// side's key file `key`, one message (spec section 3.7).
    pub fn then(mut self, turn: &str, key: &str) -> Self {
        self.then = Some((format!("\"{turn}\""), key.to_owned()));
        self
    }

    /// The command as `how` writes it: `herald VERB`, the side before the
    /// record for `keygen` (after it otherwise), the record, the action,
    /// the key file, the hand key, the choices, and, for a command on a
    /// record answered by a reply, `--reply -o reply.eml` (and `--send`
    /// when it is sent).
    pub fn write(&self, how: &Writing<'_>) -> String {
        let mut out = String::from(match self.verb {
            Verb::Keygen => "herald keygen",
            Verb::Move => "herald move",
            Verb::Setup => "herald setup",
        });
        let side = self.side.as_deref().map(|s| format!(" --side {s}"));
        if self.verb == Verb::Keygen {
            out.extend(side.as_deref());
        }
        if self.record {
            out.push(' ');
            out.push_str(how.record);
        }
        if self.verb != Verb::Keygen {
            out.extend(side.as_deref());
        }
        if let Some(action) = &self.action {
            out.push(' ');
            out.push_str(action);
        }
        let reply = self.record && how.reply;
        match &self.key {
            KeyFile::None => {}
            KeyFile::Given(None) => out.push_str(" --key"),
            KeyFile::Given(Some(file)) => out.push_str(&format!(" --key {file}")),
            KeyFile::Made(file) if reply => out.push_str(&format!(" --key {file}")),
            KeyFile::Made(file) => out.push_str(&format!(" -o {file}")),
        }
        if let Some(file) = &self.hand_key {
            out.push_str(&format!(" --hand-key {file}"));
        }
        for choice in &self.choices {
            out.push_str(&format!(" --{choice} {}", choice.to_ascii_uppercase()));
        }
        if let Some((turn, key)) = &self.then {
            out.push_str(&format!(" --then {turn} --then-key {key}"));
        }
        if reply {
            out.push_str(" --reply -o reply.eml");
            if how.send {
                out.push_str(" --send");
            }
        }
        out
    }
}

impl fmt::Display for Command {
    /// The command as [`Writing::AS_IS`] writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write(&Writing::AS_IS))
    }
}

/// A part of what is said.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Words(String),
    Command(Command),
}

/// Words with commands among them (a step due, a note), written for
/// their reader by [`Said::write`]; its `Display` is
/// [`Writing::AS_IS`]'s.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Said(Vec<Part>);

impl Said {
    /// These words, and more to follow.
    pub fn words(words: impl Into<String>) -> Said {
        Said(vec![Part::Words(words.into())])
    }

    /// The words so far, then `words`.
    pub fn and(mut self, words: &str) -> Said {
        match self.0.last_mut() {
            Some(Part::Words(last)) => last.push_str(words),
            _ => self.0.push(Part::Words(words.to_owned())),
        }
        self
    }

    /// The words so far, then `command`.
    pub fn command(mut self, command: Command) -> Said {
        self.0.push(Part::Command(command));
        self
    }

    /// The words so far, then `more`.
    pub fn then(mut self, more: Said) -> Said {
        for part in more.0 {
            self = match part {
                Part::Words(w) => self.and(&w),
                Part::Command(c) => self.command(c),
            };
        }
        self
    }

    /// `before`, then these words.
    pub fn after(self, before: &str) -> Said {
        Said::words(before).then(self)
    }

    /// These words without `prefix` in front, if they start with it.
    pub fn strip_prefix(&self, prefix: &str) -> Option<Said> {
        let mut parts = self.0.clone();
        match parts.first_mut() {
            Some(Part::Words(first)) => {
                *first = first.strip_prefix(prefix)?.to_owned();
                Some(Said(parts))
            }
            _ => None,
        }
    }

    /// These words, the first letter a capital.
    pub fn capital(mut self) -> Said {
        if let Some(Part::Words(first)) = self.0.first_mut() {
            *first = super::capital(first);
        }
        self
    }

    /// What is said, its commands as `how` writes them.
    pub fn write(&self, how: &Writing<'_>) -> String {
        self.0
            .iter()
            .map(|part| match part {
                Part::Words(words) => words.clone(),
                Part::Command(command) => command.write(how),
            })
            .collect()
    }
}

impl From<String> for Said {
    fn from(words: String) -> Said {
        Said::words(words)
    }
}

impl From<&str> for Said {
    fn from(words: &str) -> Said {
        Said::words(words)
    }
}

impl fmt::Display for Said {
    /// What is said as [`Writing::AS_IS`] writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write(&Writing::AS_IS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPLY: Writing<'static> = Writing {
        record: "'my game.eml'",
        reply: true,
        send: false,
    };

    #[test]
    fn a_command_on_the_record_answers_a_message_by_a_reply() {
        let keygen = Command::keygen("Red").on_record().makes_key("red.key");
        assert_eq!(
            keygen.to_string(),
            "herald keygen --side Red RECORD -o red.key"
        );
        // The key file is named by --key: -o names the reply.
        assert_eq!(
            keygen.write(&REPLY),
            "herald keygen --side Red 'my game.eml' --key red.key --reply -o reply.eml"
        );
        let setup = Command::setup()
            .on_record()
            .side("Red")
            .key_file("red.key")
            .hand_key(Some("blue.key".into()))
            .choices(["army"]);
        assert_eq!(
            setup.write(&REPLY),
            "herald setup 'my game.eml' --side Red --key red.key --hand-key blue.key --army ARMY --reply -o reply.eml"
        );
        let turn = Command::moves()
            .on_record()
            .action("YOUR TURN")
            .key_file("YOUR.key");
        assert_eq!(
            turn.write(&REPLY),
            "herald move 'my game.eml' \"YOUR TURN\" --key YOUR.key --reply -o reply.eml"
        );
        // The inbox's player sends the reply as well.
        let sent = Writing {
            record: "3f2a9c1b04de",
            send: true,
            ..REPLY
        };
        assert_eq!(
            turn.write(&sent),
            "herald move 3f2a9c1b04de \"YOUR TURN\" --key YOUR.key --reply -o reply.eml --send"
        );
        // Never without the reply it sends.
        assert_eq!(
            turn.write(&Writing {
                reply: false,
                ..sent
            }),
            "herald move 3f2a9c1b04de \"YOUR TURN\" --key YOUR.key"
        );
    }

    #[test]
    fn a_command_without_the_record_is_written_as_it_is_for_every_reader() {
        let audit = Command::moves().action("audit").key();
        assert_eq!(audit.write(&REPLY), "herald move audit --key");
        assert_eq!(audit.to_string(), "herald move audit --key");
        let said = Said::words("the audit (").command(audit).and(")").capital();
        assert_eq!(said.write(&REPLY), "The audit (herald move audit --key)");
    }
}
