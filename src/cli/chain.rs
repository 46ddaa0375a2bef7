//! Several lines in one message, each by its own side's key file (spec
//! section 3.7, "One player, several sides"): `setup --then` (the
//! set-up's last line and the first turn) and `move --then` (a turn,
//! farewell line or audit, then the next line of another side of the
//! same player). The line after another is composed and refused here
//! alike for both commands, and the key files, the record and the
//! message are written in one order, each put back as it was when a
//! later one cannot be written.

use std::path::{Path, PathBuf};

use super::context::Ctx;
use super::files;
use super::report::{Failure, Problem};
use super::sent::Answered;
use crate::fairness::Hash;
use crate::game::{Game, Phase, Side};
use crate::referee::writer::written_as_audit;
use crate::referee::{ErrorKind, Keys, PlayedTurn, Referee};
use crate::wallet::Wallet;

/// A key file given for a line after the first (`--then-key`), read.
pub(super) struct ThenKey<'a> {
    pub(super) path: &'a Path,
    pub(super) wallet: Wallet,
    pub(super) stamp: files::Stamp,
}

impl<'a> ThenKey<'a> {
    /// Read the key file at `path` and refuse a copy it cannot answer,
    /// as every key file does.
    pub(super) fn read<G: Game>(
        path: &'a Path,
        referee: &Referee<G>,
        ctx: &Ctx<'_>,
    ) -> Result<ThenKey<'a>, Failure> {
        let (wallet, stamp) = super::context::read_wallet_stamped(path)?;
        super::sent::refuse_for_key_file(referee, &wallet, Some(path), ctx)?;
        Ok(ThenKey {
            path,
            wallet,
            stamp,
        })
    }
}

/// Compose `typed` (`--then`) on `referee` as the line due right after
/// `writer`'s, which must be another side's of the same player (every
/// line due after `writer`'s is that player's; in the audit, an audit of
/// one of its sides), by that side's key file `then_key`. `writer_key`:
/// the key file of the line before, which holds the hand of a side that
/// plays from it unless `hand` (`--hand-key`) is given. Refused, writing
/// nothing, naming the side or key file: after a line that ends the game
/// or whose next line is another player's, without `--then-key`, or with
/// the key file of another side.
pub(super) fn then_line<G: Game>(
    referee: &mut Referee<G>,
    writer: Side,
    typed: &str,
    then_key: Option<(&Path, &Wallet)>,
    (writer_key, hand): (&Wallet, Option<&Wallet>),
    ctx: &Ctx<'_>,
) -> Result<PlayedTurn<G>, Failure> {
    let name = writer.name::<G>();
    let refuse = |message: String| {
        Failure::invalid(Problem::plain(ErrorKind::Illegal, message), &ctx.origin)
    };
    let wanted = then_key.and_then(|(_, w)| referee.header().side_named::<G>(w.side()));
    let Some(next) = referee.own_line_after(writer, wanted) else {
        return Err(refuse(match referee.step_due() {
            Some(due) => format!(
                "--then \"{typed}\": after {name}'s line, {} is {}'s, another player's, and the message goes to them: write {name}'s line alone, without --then",
                due.line,
                due.side.name::<G>()
            ),
            None => format!(
                "--then \"{typed}\": {name}'s line ends the game, and no line of yours is due after it: write it alone, without --then"
            ),
        }));
    };
    let next_name = next.name::<G>();
    let due = referee
        .step_due()
        .filter(|d| d.side == next)
        .map_or_else(|| "its audit".to_owned(), |d| d.line);
    let key = next_name.to_ascii_lowercase();
    let Some((path, wallet)) = then_key else {
        return Err(refuse(format!(
            "--then \"{typed}\": after {name}'s line, {due} is {next_name}'s, another side of yours: it is written with {next_name}'s key file, in the same message: add --then-key {key}.key ({next_name}'s key file)"
        )));
    };
    if !wallet.side().eq_ignore_ascii_case(next_name) {
        return Err(Failure::usage(format!(
            "--then-key {} is {}'s key file, but {due}, after {name}'s line, is {next_name}'s: give {next_name}'s key file ({key}.key)",
            path.display(),
            wallet.side()
        )));
    }
    if referee.phase() == Phase::Audit && !written_as_audit(typed, Phase::Audit) {
        return Err(refuse(format!(
            "--then \"{typed}\": after {name}'s line the game is over but for its audits: {next_name}'s line is its audit (--then audit)"
        )));
    }
    let hand = referee
        .hand_key_file(next)
        .and_then(|_| hand.or(Some(writer_key)));
    referee
        .compose_typed(typed, Keys::given(Some(wallet), hand))
        .map_err(|e| super::commands::typed_failure(e, Some(path), ctx))
}

/// A key file that writes lines of a message, as read (or made now).
#[derive(Clone, Copy)]
pub(super) struct Writer<'a> {
    pub(super) path: &'a Path,
    /// The stamp of the bytes read (the key file is refused if another
    /// command changed it since); `None` for a key file made now.
    pub(super) read: Option<&'a files::Stamp>,
    /// A key file made by this command (written new, readable by its
    /// owner alone; taken away again on a later failure).
    pub(super) fresh: bool,
    pub(super) wallet: &'a Wallet,
}

/// One line of a message as written (with the audit it carries): its
/// key file (`None` in a game without keys) and the record digest
/// before it, which the line answers.
pub(super) struct Part<'a> {
    pub(super) by: Option<Writer<'a>>,
    pub(super) after: Option<Hash>,
    pub(super) text: String,
}

/// The lines of one message, in order, and what the key files remember
/// of them (spec section 3.8, "What the key file remembers").
pub(super) struct Message<'a, G: Game> {
    pub(super) parts: Vec<Part<'a>>,
    /// The message's last line: each key file remembers the record up to
    /// it.
    pub(super) last: &'a PlayedTurn<G>,
    /// The reply message the lines go out in, if any.
    pub(super) reply: Option<&'a Path>,
    /// For lines written once play ended: the record digest when it
    /// ended.
    pub(super) ended: Option<Hash>,
}

impl<G: Game> Message<'_, G> {
    /// The lines as the record and the message carry them.
    pub(super) fn text(&self) -> String {
        self.parts.iter().map(|p| p.text.as_str()).collect()
    }

    /// Write the message's files in one order, each put back as it was
    /// when a later one cannot be written: the reply refused if it exists
    /// already, then each key file once (it remembers the message from its
    /// own first line on, whatever lines it writes; `referee`: the game
    /// after the last line), then the record file (`record`: its path and
    /// the write, if it is written), then the reply (`message`).
    pub(super) fn write(
        &self,
        referee: &Referee<G>,
        record: Option<(&Path, impl FnOnce() -> Result<(), Failure>)>,
        message: Option<impl FnOnce() -> Result<(), Failure>>,
    ) -> Result<(), Failure> {
        if let Some(reply) = self.reply {
            files::refuse_existing(reply)?;
        }
        let tails: Vec<String> = (0..self.parts.len())
            .map(|k| self.parts[k..].iter().map(|p| p.text.as_str()).collect())
            .collect();
        let mut keys: Vec<KeyLines<'_, G>> = Vec::new();
        for (part, tail) in self.parts.iter().zip(&tails) {
            let Some(by) = &part.by else {
                continue;
            };
            if keys
                .iter()
                .any(|k| super::commands::same_file(k.path, by.path))
            {
                continue;
            }
            keys.push(KeyLines {
                path: by.path,
                read: by.read,
                fresh: by.fresh,
                wallet: by.wallet.clone(),
                last: self.last,
                answered: Answered {
                    after: part.after,
                    text: tail,
                    reply: self.reply,
                    ended: self.ended,
                },
            });
        }
        Written::keys(keys, referee)?.then(record, message)
    }
}

/// A key file to rewrite once the lines are composed: what it remembers
/// of them (spec section 3.8, "What the key file remembers").
struct KeyLines<'a, G: Game> {
    path: &'a Path,
    read: Option<&'a files::Stamp>,
    fresh: bool,
    wallet: Wallet,
    last: &'a PlayedTurn<G>,
    answered: Answered<'a>,
}

/// The files written so far, as they were before: put back by
/// [`Written::undo`] when a later write fails.
#[derive(Default)]
struct Written(Vec<(PathBuf, Option<Vec<u8>>)>);

impl Written {
    /// Put every file written back as it was (a new one taken away), the
    /// last written first.
    fn undo(&self) {
        for (path, was) in self.0.iter().rev() {
            match was {
                Some(bytes) => {
                    let _ = files::rewrite(path, None, bytes);
                }
                None => {
                    let _ = std::fs::remove_file(path);
                }
            }
        }
    }

    /// Rewrite each key file of `keys`, in order, with what it remembers
    /// (`referee`: the game after the last line); on a failure the ones
    /// written are put back, and nothing is left changed.
    fn keys<G: Game>(keys: Vec<KeyLines<'_, G>>, referee: &Referee<G>) -> Result<Written, Failure> {
        let mut written = Written::default();
        for mut k in keys {
            let was = if k.fresh {
                files::write_new_private(k.path, k.wallet.to_text().as_bytes())
                    .inspect_err(|_| written.undo())?;
                None
            } else {
                Some(files::read_bytes(k.path).inspect_err(|_| written.undo())?)
            };
            // A key file that could not be rewritten (another command
            // changed it meanwhile) is not this command's to put back:
            // only the ones written before it are (and a new one made
            // here goes).
            let remembered = super::sent::remember_sent(
                k.path,
                k.read,
                &mut k.wallet,
                k.last,
                referee,
                k.answered,
            );
            if let Err(e) = remembered {
                if k.fresh {
                    let _ = std::fs::remove_file(k.path);
                }
                written.undo();
                return Err(e);
            }
            written.0.push((k.path.to_owned(), was));
        }
        Ok(written)
    }

    /// After the key files: the record file (`record`: its path, if it is
    /// written, and the write), then the message (`message`), each put
    /// back with everything before it when a later one fails.
    fn then(
        mut self,
        record: Option<(&Path, impl FnOnce() -> Result<(), Failure>)>,
        message: Option<impl FnOnce() -> Result<(), Failure>>,
    ) -> Result<(), Failure> {
        if let Some((path, write)) = record {
            let bytes = files::read_bytes(path).inspect_err(|_| self.undo())?;
            write().inspect_err(|_| self.undo())?;
            self.0.push((path.to_owned(), Some(bytes)));
        }
        if let Some(write) = message {
            write().inspect_err(|_| self.undo())?;
        }
        Ok(())
    }
}
