//! What a player's key file remembers of the record (spec section 3.8):
//! the last line the player wrote and the digest of the record up to it.
//! `move --key` and `setup --key` refuse a record that does not extend
//! it, so a relayed copy whose earlier lines were changed is caught by
//! the player it wrongs, at once.

use std::path::Path;

use super::context::{replay_all, Ctx};
use super::files;
use super::report::{Failure, Problem};
use crate::fairness::Hash;
use crate::game::Game;
use crate::game::Phase;
use crate::referee::{self, Checked, ErrorKind, Keep, PlayedTurn, Referee};
use crate::wallet::{Sent, Wallet};

/// Replay the record, checking that it extends the last line `wallet`'s
/// player wrote (when the wallet is one of this game's). A record that is
/// the very one the player answered with that line is refused too,
/// saying so: a second answer would fork the game.
pub(super) fn replay_checking_sent<G: Game>(
    ctx: &Ctx<'_>,
    wallet: Option<&Wallet>,
) -> Result<Referee<G>, Failure> {
    let replayed = replay_for_answer(ctx, wallet)?;
    match replayed.answered {
        Some(sent) => Err(answered_already(&sent, None, ctx)),
        None => Ok(replayed.referee),
    }
}

/// A record replayed against a player's key file.
pub(super) struct Replayed<G: Game> {
    /// The referee after the record's last line.
    pub(super) referee: Referee<G>,
    /// The player's last line, when the record is exactly the one it
    /// answered (its digest is the one the line was written after): the
    /// player answered this record already.
    pub(super) answered: Option<Sent>,
    /// The record digest when play ended (the audits due from there),
    /// if the rules ended the game in this record.
    pub(super) ended: Option<Hash>,
}

/// Replay the record, checking it against the last line `wallet`'s
/// player wrote: a record that holds that line must hold it unchanged,
/// and one that does not must be the record it answered (then
/// [`Replayed::answered`]) or a later one holding it.
pub(super) fn replay_for_answer<G: Game>(
    ctx: &Ctx<'_>,
    wallet: Option<&Wallet>,
) -> Result<Replayed<G>, Failure> {
    let sent = wallet.and_then(Wallet::sent);
    let mut found = None;
    let mut ended = None;
    let mut audited_game = false;
    let keep = Keep {
        digest: true,
        ..Keep::RULES
    };
    let referee = replay_from_sent::<G>(ctx, keep, sent, |played, referee| {
        let digest = referee.digest().copied();
        if let Some(sent) = sent {
            if played.kind == sent.kind && played.number == sent.number {
                found = digest;
            }
            audited_game |= sent.ended.is_some() && sent.ended == digest;
        }
        if ended.is_none() && referee.phase() == Phase::Audit {
            ended = digest;
        }
    })?;
    // A key from another game is refused by the referee, saying so.
    let ours = wallet.is_some_and(|w| w.chain() == referee.header().chain_id());
    let answered = match sent.filter(|_| ours) {
        Some(sent)
            if found.is_none()
                && sent.after.is_some()
                && sent.after == referee.digest().copied() =>
        {
            Some(sent.clone())
        }
        // The player's last line was written once play ended (its audit,
        // or a claim in the audit), and this record is that game: the
        // closing lines come in any order, so other sides' may stand
        // before its own, or its own may be missing from this copy
        // (written on another copy at the same time: it writes it again
        // here, the same openings).
        Some(_) if audited_game => None,
        Some(sent) if found != Some(sent.digest) => {
            return Err(changed(sent, found.is_some(), ctx))
        }
        _ => None,
    };
    Ok(Replayed {
        referee,
        answered,
        ended,
    })
}

/// Replay the record as [`replay_all`] does; with `sent`, the last line
/// the player wrote, the signatures and share proofs of the lines up to
/// it are not verified again (the player checked them before writing
/// it: spec section 3.8) when the record's digest after it is the one
/// the key file remembers, or when the record is the one it answered.
/// Any other record is replayed whole, every check made: `each` is then
/// called again from its first line.
pub(super) fn replay_from_sent<G: Game>(
    ctx: &Ctx<'_>,
    keep: Keep,
    sent: Option<&Sent>,
    mut each: impl FnMut(&PlayedTurn<G>, &Referee<G>),
) -> Result<Referee<G>, Failure> {
    if let Some(sent) = sent {
        // After an audit, the game it audited was checked up to its end,
        // whatever audits came after.
        let checked = sent.ended.unwrap_or(sent.digest);
        let checked =
            referee::replay_from_checked::<G>(ctx.record, keep, checked, sent.after, &mut each)
                .map_err(|e| ctx.problem(&e))?;
        if let Checked::Replayed(referee) = checked {
            referee.check_result().map_err(|e| ctx.problem(&e))?;
            return Ok(*referee);
        }
    }
    replay_all::<G>(ctx, keep, each)
}

/// The refusal of a second answer to the record the player answered
/// already with `sent` (`typed`: what the player typed now, if it is not
/// the same line): resend the message, or write it again.
pub(super) fn answered_already(sent: &Sent, typed: Option<&str>, ctx: &Ctx<'_>) -> Failure {
    let line = sent.name();
    // The line's first physical line: `2. Red: Kc9-b9`.
    let head = sent.text.as_deref().and_then(|t| t.lines().next());
    let first = head.map(|l| format!(" (`{l}`)")).unwrap_or_default();
    let actions = head
        .and_then(|l| l.split_once(": "))
        .map_or("YOUR TURN", |(_, a)| a);
    let resend = match &sent.reply {
        Some(reply) => format!(
            "resend {reply}, or write the same message again with herald move {} \"{actions}\" --key KEY --reply -o NEW.eml",
            ctx.origin
        ),
        None => format!(
            "send the record that holds it again, or write it again with herald move {} \"{actions}\" --key KEY",
            ctx.origin
        ),
    };
    let typed = typed
        .map(|t| format!("; `{t}` is another answer, and a second answer would fork the game"))
        .unwrap_or_default();
    let message = format!(
        "you already answered this turn: your {line}{first} answers this very record{typed}: {resend}; nothing was written"
    );
    Failure::invalid(Problem::plain(ErrorKind::Record, message), &ctx.origin)
}

/// The refusal of a record that does not extend what the player sent.
fn changed(sent: &Sent, present: bool, ctx: &Ctx<'_>) -> Failure {
    let line = sent.name();
    let message = if present {
        format!(
            "your {line} was changed since you sent it: this copy differs from the record you wrote, in that line or one before it (compare the copies: herald check prints the digest of a signed one); nothing was written"
        )
    } else {
        format!(
            "your {line} is not in this record: it was dropped since you sent it, or this copy is older than the one you sent; nothing was written"
        )
    };
    Failure::invalid(Problem::plain(ErrorKind::Record, message), &ctx.origin)
}

/// Refuse the game's first line when some sides have Commit (or Key)
/// tags and others not: they can never be added later, so those sides
/// could never reveal (or sign), and chance would need them.
pub(super) fn check_commitments_alike<G: Game>(
    referee: &Referee<G>,
    ctx: &Ctx<'_>,
) -> Result<(), Failure> {
    if !ctx.record.turns.is_empty() {
        return Ok(());
    }
    let header = referee.header();
    let sides = header.sides();
    let commits: Vec<bool> = sides.iter().map(|&s| header.commit(s).is_some()).collect();
    let keys: Vec<bool> = sides.iter().map(|&s| header.key(s).is_some()).collect();
    for (what, has) in [("Commit", commits), ("Key", keys)] {
        let with = sides.iter().zip(&has).find(|(_, &h)| h).map(|(s, _)| s);
        let without = sides.iter().zip(&has).find(|(_, &h)| !h).map(|(s, _)| s);
        if let (Some(a), Some(b)) = (with, without) {
            let (a, b) = (a.name::<G>(), b.name::<G>());
            if header.protocol().keys_join_late() {
                return Err(Failure::usage(format!(
                    "{a} has a {a}{what} tag and {b} has none: under [Protocol \"3\"] a game is signed by every side or by none, and chance needs every side's commitment before turn 1; add {b}'s with herald keygen --side {b} first"
                )));
            }
            return Err(Failure::usage(format!(
                "{a} has a {a}{what} tag and {b} has none: Commit and Key tags are added before the first line and never after, so {b}'s lines could never carry a reveal or a signature (and chance needs them); add {b}'s with herald keygen --side {b}, or pass --no-commit to play so"
            )));
        }
    }
    Ok(())
}

/// What a line answered and how it went out, for the key file.
pub(super) struct Answered<'a> {
    /// The record digest before the line.
    pub(super) after: Option<crate::fairness::Hash>,
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
    files::rewrite(path, None, wallet.to_text().as_bytes()).map_err(|e| {
        Failure::usage(format!(
            "{} could not be updated ({}): nothing was written (the key file remembers a line \
             before the record holds it, never after)",
            path.display(),
            match e {
                Failure::Usage(m) => m,
                Failure::Invalid(p, _) => p.message,
            }
        ))
    })?;
    Ok(())
}
