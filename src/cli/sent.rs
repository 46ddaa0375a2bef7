//! What a player's key file remembers of the record (spec section 3.8):
//! the last line the player wrote and the digest of the record up to it.
//! `move --key` and `setup --key` refuse a record that does not extend
//! it, so a relayed copy whose earlier lines were changed is caught by
//! the player it wrongs, at once.

use std::path::Path;

use super::context::Ctx;
use super::files;
use super::report::{Failure, Problem};
use crate::fairness::Hash;
use crate::game::Game;
use crate::referee::answer::{self, AnswerError, Answering};
use crate::referee::{key_file, ErrorKind, Keep, PlayedTurn, Referee};
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
            let resend = resend_last(sent, key);
            Failure::invalid(
                Problem::plain(ErrorKind::Record, e.message(&resend)),
                &ctx.origin,
            )
        }
    })?;
    if let Some(wallet) = wallet {
        refuse_for_key_file(&replayed.referee, wallet, key, ctx)?;
    }
    Ok(replayed)
}

/// Remember in `wallet` the record `referee` replayed (the record of
/// `ctx`) as the newest the player checked, when it is newer than what
/// the key file remembers: whether it changed.
pub(super) fn note_seen<G: Game>(
    referee: &Referee<G>,
    wallet: &mut Wallet,
    ctx: &Ctx<'_>,
) -> Result<bool, Failure> {
    let turns = &ctx.record.turns;
    let n = turns.len();
    let (Some(last), Some(&digest)) = (turns.last(), referee.digest()) else {
        return Ok(false);
    };
    // Nothing newer than what the key file remembers: a record it
    // checked already, or whose last line is the player's own.
    if wallet.seen().is_some_and(|s| s.lines as usize >= n)
        || wallet.sent().is_some_and(|s| s.digest == digest)
    {
        return Ok(false);
    }
    let start = crate::fairness::record_start(referee.header().game_id());
    let (_, before) =
        key_file::digests_at::<G>(ctx.record, n, start).map_err(|e| ctx.problem(&e))?;
    let head = key_file::turn_head(last, ctx.source.text());
    wallet.set_seen(crate::wallet::Seen {
        lines: n as u32,
        digest,
        before,
        side: last.side.to_owned(),
        claim: last.forfeit.is_some(),
        head,
    });
    Ok(true)
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

/// A key file's refusal as a failure: a record problem (exit 1).
fn refused(e: key_file::Refused, ctx: &Ctx<'_>) -> Failure {
    match e {
        key_file::Refused::Record(e) => ctx.problem(&e),
        key_file::Refused::Copy(message) => {
            Failure::invalid(Problem::plain(ErrorKind::Record, message), &ctx.origin)
        }
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

/// The player's last line `sent` as a player quotes it (its first
/// physical line: `` (`2. Red: Kc9-b9`)``), and the command that writes it
/// again on `origin` (a set-up line by `setup` with no choices).
fn line_again(sent: &Sent, origin: &str) -> (String, String) {
    let head = turn_head(sent);
    let first = head.map(|l| format!(" (`{l}`)")).unwrap_or_default();
    let actions = head
        .and_then(|l| l.split_once(": "))
        .map_or("YOUR TURN", |(_, a)| a);
    let command = match sent.kind {
        crate::record::LineKind::Setup => format!("herald setup {origin}"),
        // The set-up's last line and the first turn, written together.
        crate::record::LineKind::Turn if !before_turn(sent).is_empty() => {
            format!("herald setup {origin} --then \"{actions}\"")
        }
        crate::record::LineKind::Turn => format!("herald move {origin} \"{actions}\""),
    };
    (first, command)
}

/// Where the first turn line of `text` (lines of a record) begins:
/// `5. Red: Ka9-b9`, after the set-up line `setup --then` wrote with it.
fn turn_start(text: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with(|c: char| c.is_ascii_digit()) {
            return Some(at);
        }
        at += line.len();
    }
    None
}

/// The first physical line of the turn `text` (lines of a record) holds,
/// after a set-up line written with it; else its first line (a set-up
/// line).
pub(super) fn head_line(text: &str) -> Option<&str> {
    text[turn_start(text).unwrap_or(0)..].lines().next()
}

/// The first physical line of the turn the player's last line(s) `sent`
/// hold (`5. Red: Ka9-b9`; after the set-up line `setup --then` wrote
/// with it), else of its first line (a set-up line).
pub(super) fn turn_head(sent: &Sent) -> Option<&str> {
    head_line(sent.text.as_deref()?)
}

/// The lines `sent` holds before its turn: the set-up's last line that
/// `setup --then` wrote with it (empty when there is none).
pub(super) fn before_turn(sent: &Sent) -> &str {
    let text = sent.text.as_deref().unwrap_or_default();
    &text[..turn_start(text).unwrap_or(0)]
}

/// `; `TYPED` is another answer, and a second answer would fork the game`.
fn another_answer(typed: Option<&str>) -> String {
    typed
        .map(|t| format!("; `{t}` is another answer, and a second answer would fork the game"))
        .unwrap_or_default()
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

/// How the player's last line `sent` goes out again, from a record that
/// is not the one it answered (whose name the key file does not keep):
/// the message it went out in resent, or the line written again on that
/// record (`RECORD`) by the command that first wrote it.
fn resend_last(sent: &Sent, key: Option<&Path>) -> String {
    let (_, command) = line_again(sent, "RECORD");
    let key = key_arg(key);
    match &sent.reply {
        Some(reply) => format!(
            "resend {reply}, or write that message again with {command} --key {key} --reply -o NEW.eml, RECORD the message you answered with it"
        ),
        None => format!(
            "send the record that holds it again, or write it again with {command} --key {key} on the record you answered with it"
        ),
    }
}

/// The refusal of a second answer to the record the player answered
/// already with `sent` (`typed`: what the player typed now, if it is not
/// the same line): resend the message, or write it again.
pub(super) fn answered_already(
    sent: &Sent,
    typed: Option<&str>,
    key: Option<&std::path::Path>,
    ctx: &Ctx<'_>,
) -> Failure {
    let (first, command) = line_again(sent, &ctx.origin);
    let key = key_arg(key);
    let resend = match &sent.reply {
        Some(reply) => format!(
            "resend {reply}, or write the same message again with {command} --key {key} --reply -o NEW.eml"
        ),
        None => format!(
            "send the record that holds it again, or write it again with {command} --key {key}"
        ),
    };
    let message = format!(
        "you already answered this turn: your {}{first} answers this very record{}: {resend}; nothing was written",
        sent.name(),
        another_answer(typed),
    );
    Failure::invalid(Problem::plain(ErrorKind::Record, message), &ctx.origin)
}

/// Say that the player's claim `sent` crossed its target's own line in
/// the mail, which this copy holds instead: the game goes on from it.
pub(super) fn note_claim_answered(sent: &Sent) {
    super::report::eprint_note(&format!(
        "your {} crossed its target's own line in the mail: this copy holds that line instead, which answers the claim, so the claim never stood and the game goes on from it",
        sent.name()
    ));
}

/// Say that the player's claim `sent` crossed another side's claim of
/// the same forfeit, which this copy holds instead: it stands for both.
pub(super) fn note_claimed_already(sent: &Sent) {
    super::report::eprint_note(&format!(
        "your {} crossed another player's claim of the same forfeit in the mail: this copy holds that claim instead, which stands for both, and the game goes on from it",
        sent.name()
    ));
}

/// The refusal of an answer to `claimant`'s claim of the player's
/// forfeit, which crossed the player's own line `sent` in the mail (this
/// copy holds the claim instead): that line answers the record the claim
/// was written on, so the claim never stood; the line goes out again (the
/// same message), never a second answer after the claim, which would fork
/// the game.
pub(super) fn crossed_claim(
    sent: &Sent,
    claimant: &str,
    typed: Option<&str>,
    key: Option<&std::path::Path>,
    ctx: &Ctx<'_>,
) -> Failure {
    let (first, command) = line_again(sent, &ctx.origin);
    let key = key_arg(key);
    let again = format!("write that message again with {command} --key {key} --reply -o NEW.eml");
    let resend = match &sent.reply {
        Some(reply) => format!("resend {reply}, or {again}"),
        None => again,
    };
    let line = sent.name();
    let message = format!(
        "you already answered this turn: your {line}{first} crossed {claimant}'s claim of your forfeit in the mail; it answers the record the claim was written on, so the claim never stood, and {claimant} goes on from your {line}{}: {resend}; nothing was written",
        another_answer(typed),
    );
    Failure::invalid(Problem::plain(ErrorKind::Record, message), &ctx.origin)
}

/// The refusal of a turn typed on the record the player answered with
/// `sent`, the set-up's last line, which made the player the first to
/// move: the turn goes on the message (or record) that holds that line.
pub(super) fn first_turn_elsewhere(
    sent: &Sent,
    typed: &str,
    key: Option<&std::path::Path>,
    ctx: &Ctx<'_>,
) -> Failure {
    let key = key_arg(key);
    let (on, command) = match &sent.reply {
        Some(reply) => (
            reply.clone(),
            format!("herald move {reply} \"{typed}\" --key {key} --reply -o NEXT.eml"),
        ),
        None => (
            "the record that holds it".to_owned(),
            format!("herald move RECORD \"{typed}\" --key {key}"),
        ),
    };
    let message = format!(
        "your {} answers this very record, and it made you the first to move: answer {on} with your first turn, one message that carries both lines: {command}; nothing was written",
        sent.name()
    );
    Failure::invalid(Problem::plain(ErrorKind::Illegal, message), &ctx.origin)
}

/// Refuse the game's first line when some sides have Commit (or Key)
/// tags and others not ([`crate::referee::Header::uneven_tags`]).
pub(super) fn check_commitments_alike<G: Game>(
    referee: &Referee<G>,
    ctx: &Ctx<'_>,
) -> Result<(), Failure> {
    match referee.header().uneven_tags::<G>() {
        Some(why) if ctx.record.turns.is_empty() => Err(Failure::invalid(
            Problem::plain(
                ErrorKind::Illegal,
                format!(
                    "turn 1 cannot be written yet: {why}{}",
                    if ctx.source.from_message() {
                        " (if that key came in another message, answered at once with this one, give both messages in one mailbox file: they read as one game)"
                    } else {
                        ""
                    }
                ),
            ),
            &ctx.origin,
        )),
        _ => Ok(()),
    }
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
