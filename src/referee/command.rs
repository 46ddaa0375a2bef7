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
    Check,
    Keygen,
    Legal,
    Move,
    Setup,
    Show,
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

/// The record a command names.
#[derive(Clone, Debug, PartialEq, Eq)]
enum On {
    /// None.
    None,
    /// The record read (`RECORD`, or the file read: [`Writing::record`]).
    Read,
    /// Another file, named as it is (`BEFORE.pbem`, the reply message a
    /// line went out in, `RECORD` for a copy the reader does not have).
    Named(String),
}

/// How a command answers a message.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Reply {
    /// As [`Writing::reply`] says, for a command on the record read.
    AsWritten,
    /// `--reply` alone.
    Bare,
    /// `--reply -o FILE`.
    To(String),
}

/// A herald command that takes a step or looks: `herald keygen`, `herald
/// move`, `herald setup`, `herald check`, `herald legal` or `herald
/// show`, with the options it needs ([`Command::write`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    verb: Verb,
    side: Option<String>,
    record: On,
    action: Option<String>,
    then: Option<String>,
    forfeit: bool,
    key: KeyFile,
    hand_key: Option<String>,
    choices: Vec<&'static str>,
    /// `[CHOICES]`: the set-up choices, left to the player.
    any_choices: bool,
    reply: Reply,
    /// `--then-key FILE` after `--then`: the turn is another side's, by
    /// its key file, in the same message (one player's two sides).
    then_key: Option<String>,
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
            record: On::None,
            action: None,
            then: None,
            forfeit: false,
            key: KeyFile::None,
            hand_key: None,
            choices: Vec::new(),
            any_choices: false,
            reply: Reply::AsWritten,
            then_key: None,
        }
    }

    /// `herald check`.
    pub fn check() -> Self {
        Command::new(Verb::Check)
    }

    /// `herald legal`.
    pub fn legal() -> Self {
        Command::new(Verb::Legal)
    }

    /// `herald show`.
    pub fn show() -> Self {
        Command::new(Verb::Show)
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
        self.record = On::Read;
        self
    }

    /// It names `file` (a shell word), whoever reads it: another copy
    /// than the record read (`BEFORE.pbem`, `RECORD` for one the reader
    /// does not have), or the message a line went out in. Never answered
    /// by [`Writing::reply`].
    pub fn on(mut self, file: &str) -> Self {
        self.record = On::Named(file.to_owned());
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

    /// What the player typed, in double quotes even when it is one word
    /// (`"Kc9-b9"`, `"YOUR TURN"`): a turn written again or to write.
    pub fn typed(mut self, typed: &str) -> Self {
        self.action = Some(format!("\"{typed}\""));
        self
    }

    /// `--then "TURN"`: `setup`'s first turn, written with the set-up's
    /// last line.
    pub fn then(mut self, turn: &str) -> Self {
        self.then = Some(turn.to_owned());
        self
    }

    /// `--forfeit`: a claim of the forfeit of the side due.
    pub fn forfeit(mut self) -> Self {
        self.forfeit = true;
        self
    }

    /// `--reply -o FILE`: it answers the message it names by a reply
    /// written to `file`, whoever reads it.
    pub fn reply_to(mut self, file: &str) -> Self {
        self.reply = Reply::To(file.to_owned());
        self
    }

    /// `--reply` alone (`keygen`, whose key file is `--key`).
    pub fn reply(mut self) -> Self {
        self.reply = Reply::Bare;
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

    /// `[CHOICES]` after the choices named: the set-up choices, left to
    /// the player (`herald setup --help` lists them).
    pub fn any_choices(mut self) -> Self {
        self.any_choices = true;
        self
    }

    /// `--then "TURN" --then-key FILE`: the first turn of another side of
    /// the same player, written right after this set-up line by that
    /// side's key file `key`, one message (spec section 3.7).
    pub fn then_by(mut self, turn: &str, key: &str) -> Self {
        self.then = Some(turn.to_owned());
        self.then_key = Some(key.to_owned());
        self
    }

    /// The command as `how` writes it: `herald VERB`, the side before the
    /// record for `keygen` (after it otherwise), the record, the action
    /// (`--then` its turn, `--forfeit`), the key file, the hand key, the
    /// choices, and, for a command on a record answered by a reply,
    /// `--reply -o reply.eml` (and `--send` when it is sent), or the
    /// reply it names itself ([`Command::reply_to`], [`Command::reply`]).
    pub fn write(&self, how: &Writing<'_>) -> String {
        let mut out = String::from(match self.verb {
            Verb::Check => "herald check",
            Verb::Keygen => "herald keygen",
            Verb::Legal => "herald legal",
            Verb::Move => "herald move",
            Verb::Setup => "herald setup",
            Verb::Show => "herald show",
        });
        let side = self.side.as_deref().map(|s| format!(" --side {s}"));
        if self.verb == Verb::Keygen {
            out.extend(side.as_deref());
        }
        match &self.record {
            On::None => {}
            On::Read => {
                out.push(' ');
                out.push_str(how.record);
            }
            On::Named(file) => {
                out.push(' ');
                out.push_str(file);
            }
        }
        if self.verb != Verb::Keygen {
            out.extend(side.as_deref());
        }
        if let Some(action) = &self.action {
            out.push(' ');
            out.push_str(action);
        }
        if let Some(turn) = &self.then {
            out.push_str(&format!(" --then \"{turn}\""));
            if let Some(key) = &self.then_key {
                out.push_str(&format!(" --then-key {key}"));
            }
        }
        if self.forfeit {
            out.push_str(" --forfeit");
        }
        let reply = match &self.reply {
            Reply::AsWritten => self.record == On::Read && how.reply,
            Reply::Bare | Reply::To(_) => true,
        };
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
        if self.any_choices {
            out.push_str(" [CHOICES]");
        }
        match &self.reply {
            Reply::AsWritten if reply => {
                out.push_str(" --reply -o reply.eml");
                if how.send {
                    out.push_str(" --send");
                }
            }
            Reply::AsWritten => {}
            Reply::Bare => out.push_str(" --reply"),
            Reply::To(file) => out.push_str(&format!(" --reply -o {file}")),
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
    Command(Box<Command>),
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
        self.0.push(Part::Command(Box::new(command)));
        self
    }

    /// The words so far, then `more`.
    pub fn then(mut self, more: Said) -> Said {
        for part in more.0 {
            self = match part {
                Part::Words(w) => self.and(&w),
                Part::Command(c) => self.command(*c),
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
    fn a_command_on_another_file_or_with_its_own_reply_is_written_so_for_every_reader() {
        // Another copy than the record read: named as it is.
        let keygen = Command::keygen("Red")
            .on("BEFORE.pbem")
            .key_file("red.key")
            .reply();
        assert_eq!(
            keygen.write(&REPLY),
            "herald keygen --side Red BEFORE.pbem --key red.key --reply"
        );
        // A reply of its own: never a second one.
        let again = Command::setup()
            .on_record()
            .then("Kc9-b9")
            .key_file("my.key")
            .reply_to("NEW.eml");
        assert_eq!(
            again.write(&REPLY),
            "herald setup 'my game.eml' --then \"Kc9-b9\" --key my.key --reply -o NEW.eml"
        );
        assert_eq!(
            again.to_string(),
            "herald setup RECORD --then \"Kc9-b9\" --key my.key --reply -o NEW.eml"
        );
        // A turn typed is quoted even when it is one word.
        let turn = Command::moves()
            .on("4.eml")
            .typed("pass")
            .key_file("my.key");
        assert_eq!(
            turn.write(&REPLY),
            "herald move 4.eml \"pass\" --key my.key"
        );
        let claim = Command::moves().on_record().forfeit().key_file("KEY");
        assert_eq!(claim.to_string(), "herald move RECORD --forfeit --key KEY");
        let readers = [Command::check(), Command::legal(), Command::show()]
            .map(|c| c.on_record().key_file("KEYFILE").write(&Writing::AS_IS));
        assert_eq!(
            readers,
            [
                "herald check RECORD --key KEYFILE",
                "herald legal RECORD --key KEYFILE",
                "herald show RECORD --key KEYFILE",
            ]
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
