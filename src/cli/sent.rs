//! The key file's I/O (spec section 3.8): the record replayed for it and
//! its refusals placed in the record's text and printed, the key file
//! named in commands, and written after a line. What the key file
//! remembers and refuses, and in which words, is the library's
//! (`referee::answer`, `referee::key_file`); nothing here decides.

use std::path::Path;

use super::context::Ctx;
use super::files;
use super::report::{Failure, Problem};
use crate::fairness::Hash;
use crate::game::Game;
use crate::referee::answer::{self, AnswerError, Answering, Crossed};
use crate::referee::{key_file, ErrorKind, Keep, PlayedTurn, Referee, Writing};
use crate::wallet::{Sent, Wallet};

/// Replay the record as [`referee::answer::replay_for_answer`] does, its
/// problems placed in the record's text.
/// `key` is the key file as the player gave it, named in the command
/// that sends the player's last line again.
pub(super) fn replay_for_answer<G: Game>(
    ctx: &Ctx<'_>,
    wallet: Option<&Wallet>,
    key: Option<&Path>,
) -> Result<Answering<G>, Failure> {
    let today = super::context::reader_today();
    let replayed = answer::replay_for_answer(ctx.record, wallet, today).map_err(|e| match e {
        AnswerError::Record(e) => ctx.problem(&e),
        AnswerError::NotExtended { ref sent, .. } => {
            let resend = key_file::resend_last(sent, &key_arg(key));
            Failure::invalid(
                Problem::plain(ErrorKind::Record, e.message(resend).write(&as_read(ctx))),
                &ctx.origin,
            )
        }
    })?;
    if let Some(wallet) = wallet {
        refuse_for_key_file(&replayed.referee, wallet, key, ctx)?;
    }
    Ok(replayed)
}

/// Remember in `wallet` the record `replayed` (the record of `ctx`) as
/// the newest the player checked ([`key_file::note_seen`]): whether it
/// changed.
pub(super) fn note_seen<G: Game>(
    replayed: &Answering<G>,
    wallet: &mut Wallet,
    ctx: &Ctx<'_>,
) -> Result<bool, Failure> {
    key_file::note_seen(replayed, ctx.record, ctx.source.text(), wallet)
        .map_err(|e| ctx.problem(&e))
}

/// Refuse a record its key file refuses
/// ([`crate::referee::key_file::refuse_for_key_file`]: stripped of its
/// keys, another key for the key file's side, a fork of the newest record
/// the key file checked), placed in the record's text: every command
/// given `--key` (writers and readers alike) refuses such a copy with the
/// same words (spec section 3.8).
pub(super) fn refuse_for_key_file<G: Game>(
    referee: &Referee<G>,
    wallet: &Wallet,
    key: Option<&Path>,
    ctx: &Ctx<'_>,
) -> Result<(), Failure> {
    key_file::refuse_for_key_file(
        referee,
        ctx.record,
        ctx.source.text(),
        wallet,
        &key_arg(key),
    )
    .map_err(|e| refused(e, ctx))
}

/// A key file's refusal as a failure (exit 1), its commands naming the
/// record as the file read.
pub(super) fn refused(e: key_file::Refused, ctx: &Ctx<'_>) -> Failure {
    match e {
        key_file::Refused::Record(e) => ctx.problem(&e),
        key_file::Refused::Copy(kind, said) => {
            Failure::invalid(Problem::plain(kind, said.write(&as_read(ctx))), &ctx.origin)
        }
    }
}

/// How a command on the record read is written in an error: the record
/// named as read (`ctx`'s origin), answered in place (a command that
/// answers a message names its reply itself).
pub(super) fn as_read<'a>(ctx: &'a Ctx<'_>) -> Writing<'a> {
    Writing {
        record: &ctx.origin,
        reply: false,
        send: false,
    }
}

/// Replay the record as [`referee::answer::replay_from_sent`] does, its
/// problems placed in the record's text.
pub(super) fn replay_from_sent<G: Game>(
    ctx: &Ctx<'_>,
    keep: Keep,
    sent: Option<&Sent>,
    each: impl FnMut(&PlayedTurn<G>, &Referee<G>),
) -> Result<Referee<G>, Failure> {
    let keep = keep.on(super::context::reader_today());
    answer::replay_from_sent(ctx.record, keep, sent, each).map_err(|e| ctx.problem(&e))
}

/// The first physical line of the turn `text` (lines of a record) holds
/// ([`key_file::head_line`]).
pub(super) fn head_line(text: &str) -> Option<&str> {
    key_file::head_line(text)
}

/// The key file as a command names it: the path the player gave (quoted
/// for the shell where it needs it), else `YOUR.key`.
pub(super) fn key_arg(key: Option<&std::path::Path>) -> String {
    key.map_or_else(
        || super::mail::YOUR_KEY.into(),
        |p| shell_word(&p.display().to_string()),
    )
}

/// `word` as a shell reads it back as one word: as it is when it holds
/// only safe characters, else in single quotes.
pub(super) fn shell_word(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@+=,%".contains(c));
    if safe {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The refusal of a second answer to the record the player answered
/// already ([`key_file::answered_already`]).
pub(super) fn answered_already(
    sent: &Sent,
    typed: Option<&str>,
    key: Option<&Path>,
    ctx: &Ctx<'_>,
) -> Failure {
    refused(key_file::answered_already(sent, typed, &key_arg(key)), ctx)
}

/// Say what the player whose claim crossed another line in the mail
/// must know ([`key_file::crossed_note`]).
pub(super) fn note_crossed(crossed: &Crossed) {
    if let Some(note) = key_file::crossed_note(crossed) {
        super::report::eprint_note(&note);
    }
}

/// The refusal of an answer to `claimant`'s claim of the player's
/// forfeit, which crossed the player's own line in the mail
/// ([`key_file::crossed_claim`]).
pub(super) fn crossed_claim(
    sent: &Sent,
    claimant: &str,
    typed: Option<&str>,
    key: Option<&Path>,
    ctx: &Ctx<'_>,
) -> Failure {
    refused(
        key_file::crossed_claim(sent, claimant, typed, &key_arg(key)),
        ctx,
    )
}

/// The refusal of a turn typed on the record the player answered with
/// the set-up's last line, which made the player the first to move
/// ([`key_file::first_turn_elsewhere`]).
pub(super) fn first_turn_elsewhere(
    sent: &Sent,
    typed: &str,
    key: Option<&Path>,
    ctx: &Ctx<'_>,
) -> Failure {
    refused(
        key_file::first_turn_elsewhere(sent, typed, &key_arg(key)),
        ctx,
    )
}

/// What a line answered and how it went out, for the key file.
pub(super) struct Answered<'a> {
    /// The record digest before the line.
    pub(super) after: Option<Hash>,
    /// The line as written.
    pub(super) text: &'a str,
    /// The reply message it goes out in, if any.
    pub(super) reply: Option<&'a Path>,
    /// For a line written once play ended (an audit, or a forfeit
    /// claimed in the audit): the record digest when play ended.
    pub(super) ended: Option<Hash>,
}

/// Remember in the key file at `path` that its player wrote `played`,
/// the last line of `referee`'s record.
pub(super) fn remember_sent<G: Game>(
    path: &Path,
    read: Option<&files::Stamp>,
    wallet: &mut Wallet,
    played: &PlayedTurn<G>,
    referee: &Referee<G>,
    answered: Answered<'_>,
) -> Result<(), Failure> {
    let Some(&digest) = referee.digest() else {
        return Err(Failure::usage(
            "the record's digest was not kept, so the key file cannot remember the line: nothing \
             was written",
        ));
    };
    wallet.set_sent(Sent {
        kind: played.kind,
        number: played.number,
        digest,
        after: answered.after,
        ended: answered.ended,
        text: Some(answered.text.to_owned()),
        reply: answered.reply.map(|p| p.display().to_string()),
    });
    files::rewrite(path, read, wallet.to_text().as_bytes()).map_err(|e| match e {
        // Another answer changed the key file since it was read: said
        // whole already (exit 1, nothing written).
        stale @ Failure::Invalid(..) => stale,
        Failure::Usage(m) => Failure::usage(format!(
            "{} could not be updated ({m}): nothing was written (the key file remembers a line \
             before the record holds it, never after)",
            path.display(),
        )),
    })?;
    Ok(())
}
