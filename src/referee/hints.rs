//! Commands an error suggests, as they work in the phase the game is in
//! (issue 29): `herald keygen` adds a side's tags before the record's
//! first line only, so once a line is written an error does not send
//! the player to it.

use crate::game::{Game, Side};
use crate::record::{LineKind, Record};

use super::{Command, Referee, Said};

impl<G: Game> Referee<G> {
    /// How `side` gets a Commit and Key tag now: `herald keygen --side
    /// Blue` before the record's first line; after it, that it is too
    /// late in this game (tags are never added after a line).
    pub(super) fn keygen_hint(&self, side: Side) -> String {
        let name = side.name::<G>();
        let lines = self.setup_lines + self.turns;
        if lines == 0 {
            let key = format!("{}.key", name.to_ascii_lowercase());
            let keygen = Command::keygen(name).on_record().makes_key(&key);
            format!("{keygen} adds it before the first line")
        } else {
            format!(
                "too late in this game: tags are added before the first line only, and the \
                 record has {lines} line{}; a new game (herald new) can give every side a key",
                if lines == 1 { "" } else { "s" }
            )
        }
    }

    /// Why `side`'s key cannot be added to `record` (this referee's
    /// record) now, as `herald keygen` would add it; `None` when it can.
    /// One key per side and game; keys come before turn 1, and under
    /// protocol 3 a side's key may still join the set-up late, before
    /// the side's own first line. Under protocol 3, once the set-up has
    /// begun, a key alone would leave its side's set-up step for its own
    /// next message (the player would answer its own mail): it joins
    /// with the side's first set-up line, `herald setup`, one message.
    /// A mistake in how herald was asked (a usage error).
    pub fn key_refused(&self, record: &Record<'_>, side: Side) -> Option<Said> {
        let name = side.name::<G>();
        let has = match (self.latest_reveal(side), self.header.key(side)) {
            (Some(_), _) => Some("Commit"),
            (None, Some(_)) => Some("Key"),
            (None, None) => None,
        };
        if let Some(tag) = has {
            return Some(Said::words(format!(
                "{name} has a {tag} tag already: one key per side and game"
            )));
        }
        let late = self.header.protocol().keys_join_late();
        let started = if late {
            record
                .turns
                .iter()
                .any(|t| t.kind == LineKind::Turn || t.side.eq_ignore_ascii_case(name))
        } else {
            !record.turns.is_empty()
        };
        if started {
            return Some("commitments are added before turn 1: this game has started".into());
        }
        (late && self.setup_due().is_some() && !record.turns.is_empty()).then(|| {
            let setup = Command::setup()
                .on_record()
                .side(name)
                .key_file(&format!("{}.key", name.to_ascii_lowercase()))
                .any_choices()
                .reply_to("reply.eml");
            Said::words(format!(
                "under [Protocol \"3\"] {name}'s key joins the header with its first set-up line, in one message: "
            ))
            .command(setup)
            .and(" makes the key and writes the line")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::castle_danger::CastleDanger;
    use crate::record::{self, Source};

    type G = CastleDanger;

    /// The refusal `keygen --side side` meets on `text`, as written on
    /// `game.pbem`.
    fn refused(text: &str, side: u8) -> Option<String> {
        let source = Source::new(text.as_bytes()).expect("a record");
        let record = record::parse(&source).expect("parsed");
        let referee = Referee::<G>::start(&record).expect("a header");
        let writing = super::super::Writing {
            record: "game.pbem",
            reply: false,
            send: false,
        };
        referee
            .key_refused(&record, Side(side))
            .map(|said| said.write(&writing))
    }

    const HEAD: &str =
        "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n[Red \"bob@example.org\"]\n";

    #[test]
    fn a_key_is_refused_to_a_side_that_has_one_or_once_the_game_started() {
        let committed = format!(
            "{HEAD}[BlueCommit \"a158cbac327301938a246ae6e7704962f4bbb483bb598bfb4bebe7db82cb8346\"]\n[Result \"*\"]\n\n"
        );
        assert_eq!(
            refused(&committed, 0).as_deref(),
            Some("Blue has a Commit tag already: one key per side and game")
        );
        // Red has no tag, and no line is written: its key may come.
        assert_eq!(refused(&committed, 1), None);
        let started = format!("{HEAD}[Result \"*\"]\n\n1. Blue: Kc1-b1\n");
        assert_eq!(
            refused(&started, 1).as_deref(),
            Some("commitments are added before turn 1: this game has started")
        );
    }
}
