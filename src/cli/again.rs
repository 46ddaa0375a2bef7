//! A line the player wrote once, written again: the same bytes from the
//! key file's copy (spec section 3.8, "What the key file remembers"), on
//! the record it answered, into the record file or a reply (a lost
//! message), or in place of a claim it crossed in the mail. Shared by
//! `move` and `setup`.

use std::path::Path;

use super::args::Format;
use super::commands::{same_file, send_if_asked};
use super::context::{append_line, refuse_message, Ctx};
use super::files;
use super::out;
use super::report::{Exit, Failure};
use crate::game::{self, Game};
use crate::record::{self, LineKind};
use crate::referee::key_file::{self, claimant_of};
use crate::referee::{PlayedTurn, Referee};
use crate::wallet::{Sent, Wallet};

/// A line the player sent already goes out again in `reply`: the key
/// file (`key`, `wallet`) names that message first, and so does each
/// other key file given (`others`, the `--then-key` files) that remembers
/// a line of that very message (the same record after it); then `write`
/// writes it. The key files are put back as they were if the message
/// cannot be written.
pub(super) fn resend_with_key(
    (key, wallet): (&Path, &Wallet),
    others: &[(&Path, Wallet)],
    sent: &Sent,
    reply: &super::mail::Reply,
    write: impl FnOnce() -> Result<(), Failure>,
) -> Result<(), Failure> {
    files::refuse_existing(&reply.output)?;
    let named = Some(reply.output.display().to_string());
    let mut renamed = vec![(key, wallet, sent.clone())];
    for (path, other) in others {
        let same = other.sent().filter(|s| s.digest == sent.digest);
        if let Some(own) = same.filter(|_| !renamed.iter().any(|r| same_file(r.0, path))) {
            renamed.push((path, other, own.clone()));
        }
    }
    let mut was: Vec<(&Path, Vec<u8>)> = Vec::new();
    let undo = |was: &[(&Path, Vec<u8>)]| {
        for (path, bytes) in was.iter().rev() {
            let _ = files::rewrite(path, None, bytes);
        }
    };
    for (path, wallet, own) in renamed {
        let bytes = files::read_bytes(path).inspect_err(|_| undo(&was))?;
        let mut wallet = wallet.clone();
        wallet.set_sent(Sent {
            reply: named.clone(),
            ..own
        });
        files::rewrite(path, None, wallet.to_text().as_bytes()).inspect_err(|_| undo(&was))?;
        was.push((path, bytes));
    }
    write().inspect_err(|_| undo(&was))
}

/// How a line kept in the key file goes out again: the line, the reply
/// message to write it into (else the record file), and the key file.
pub(super) struct Again<'a> {
    pub(super) line: &'a str,
    pub(super) reply: Option<&'a super::mail::Reply>,
    pub(super) key: Option<&'a Path>,
    pub(super) wallet: Option<&'a Wallet>,
    /// The `--then-key` files given: each learns the new message's name
    /// when it remembers a line of it ([`resend_with_key`]).
    pub(super) others: &'a [(&'a Path, Wallet)],
    pub(super) format: Format,
    /// Where the line goes in a record file.
    pub(super) place: Place,
}

/// Where a line written again goes in a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// After the record it answered, as the key file keeps it (or into
    /// a reply message).
    AsKept,
    /// In place of a claim it crossed in the mail: the record is read up
    /// to the claim (the record the line answered), and the file is
    /// rewritten as that record with the line after it, the claim and
    /// what followed it gone.
    PastClaim,
}

impl Place {
    /// A line answering a claim it crossed: in place of the claim when
    /// written into the record file (no reply), as kept into a reply.
    pub(super) fn past_claim_unless_replying<T>(reply: Option<&T>) -> Place {
        match reply {
            None => Place::PastClaim,
            Some(_) => Place::AsKept,
        }
    }
}

/// What the writer of the set-up's last line is told when that line made
/// it the first to move and went into the message `reply`: the message is
/// not for the others yet; its first turn goes out with it.
/// `key`: the key file the writer gave, named in that command.
pub(super) fn first_mover_hint<G: Game>(
    referee: &Referee<G>,
    side: game::Side,
    reply: &Path,
    key: Option<&Path>,
) -> Option<String> {
    referee.moves_first(side).then(|| {
        let out = reply.display().to_string();
        let turn = crate::referee::Command::moves()
            .on(&out)
            .typed("YOUR TURN")
            .key_file(&super::sent::key_arg(key))
            .reply_to("NEXT.eml");
        format!(
            "{} moves first: keep {out} to yourself (it is not sent) and answer it with your first turn, one message that carries both lines: {turn}\n",
            side.name::<G>(),
        )
    })
}

/// Write the player's last line, `sent` (kept in its key file), again on
/// the very record it answered (`referee`): a lost reply (or record file)
/// gets the same line, byte for byte, and the player is told so.
pub(super) fn write_line_again<G: Game>(
    ctx: &Ctx<'_>,
    referee: Referee<G>,
    sent: &Sent,
    again: Again<'_>,
) -> Result<Exit, Failure> {
    if let Some(refused) = key_file::older_copy(&referee, ctx.record, sent) {
        return Err(super::sent::refused(refused, ctx));
    }
    let mut referee = referee;
    let Some(played) = key_file::play_sent_again(&mut referee, sent, again.line) else {
        return Err(Failure::usage(format!(
            "the key file's copy of your {} does not follow this record: it was edited; nothing was written",
            sent.name()
        )));
    };
    // A record file answered gets the line as the first time (updated as
    // usual, with the reply too); a message answered stays as received.
    // (A record made in memory, a message read with tags joined, is not
    // read from a file: no file of it is written.)
    let record_file = again.place != Place::PastClaim && ctx.record_file();
    write_again_files(ctx, &referee, &played, sent, &again, record_file)?;
    out(&written_again(ctx, sent, &again, record_file))?;
    // The set-up's last line again, its writer the first to move: the
    // message waits for the first turn, as it did the first time.
    let first_mover =
        (again.reply).and_then(|r| first_mover_hint(&referee, played.side, &r.output, again.key));
    if let Some(hint) = first_mover {
        if again.format != Format::Json {
            out(&hint)?;
        }
        return Ok(Exit::Ok);
    }
    send_if_asked(again.reply, again.format)?;
    Ok(Exit::Ok)
}

/// The files a line written again goes into: with a reply and the key
/// file, the key file names the new message first, then the record file
/// (`record_file`) gets the line, then the reply carries it, each put back
/// if a later one fails; in place of a claim it crossed, the record file
/// rewritten as the record the line answered, then the line; else the
/// record file gets the line.
fn write_again_files<G: Game>(
    ctx: &Ctx<'_>,
    referee: &Referee<G>,
    played: &PlayedTurn<G>,
    sent: &Sent,
    again: &Again<'_>,
    record_file: bool,
) -> Result<(), Failure> {
    let line = again.line;
    let over = Some(referee.final_result().unwrap_or_else(|| "*".into()));
    match (again.reply, again.key, again.wallet) {
        (Some(reply), Some(key), Some(wallet)) => {
            let writer = played.claimant.unwrap_or(played.side);
            let record_was = match record_file {
                true => Some(files::read_bytes(ctx.path)?),
                false => None,
            };
            resend_with_key((key, wallet), again.others, sent, reply, || {
                if record_was.is_some() {
                    append_line(ctx, line, over.as_deref())?;
                }
                super::mail::write_reply(ctx, reply, referee, writer, line, over.as_deref())
                    .inspect_err(|_| {
                        if let Some(bytes) = &record_was {
                            let _ = files::rewrite(ctx.path, None, bytes);
                        }
                    })
            })
        }
        _ if again.place == Place::PastClaim => {
            // `ctx.record` is the record up to the claim: the file holds
            // it, then the line.
            refuse_message(ctx, super::context::move_answer())?;
            let text = record::Splice::new()
                .line(line)
                .result(over.as_deref())
                .extracted(ctx.source, ctx.record);
            files::rewrite(ctx.path, ctx.stamp.as_ref(), text.as_bytes())
        }
        _ => append_line(ctx, line, over.as_deref()),
    }
}

/// What the player is told of a line written again: the line, that it
/// is the same, and where it went.
fn written_again(ctx: &Ctx<'_>, sent: &Sent, again: &Again<'_>, record_file: bool) -> String {
    let was = sent
        .reply
        .as_deref()
        .map(|r| format!(" (first sent in {r})"))
        .unwrap_or_default();
    let name = sent.name();
    let origin = &ctx.origin;
    let wrote = match again.reply {
        Some(_) if record_file => format!("wrote {name} to {origin}\n"),
        Some(_) => format!("{origin} is left as it was received\n"),
        None if again.place == Place::PastClaim => {
            format!("wrote {name} to {origin} in place of the claim it crossed\n")
        }
        None => format!("wrote {name} to {origin}\n"),
    };
    format!(
        "{}you answered this record already: this is your {name} again, the same line{was}\n{wrote}",
        again.line
    )
}

/// The player's last line, `sent`, crossed a claim of its forfeit in the
/// mail (this copy holds the claim, line `claim`, instead): the line
/// answers the record the claim was written on (this copy without the
/// claim), so the claim never stood, and its message goes out again,
/// written on that record, once `same` (given the game and the record
/// answered) accepts what the player asked for as that very line.
pub(super) fn write_past_claim<G: Game>(
    ctx: &Ctx<'_>,
    sent: &Sent,
    claim: (LineKind, u32),
    again: Again<'_>,
    same: impl FnOnce(&Referee<G>, &Ctx<'_>) -> Result<(), Failure>,
) -> Result<Exit, Failure> {
    let claimant = claimant_of(ctx.record, claim);
    let record = ctx.record.before_line(claim.0, claim.1);
    // A record file is rewritten (the claim replaced), so it keeps the
    // stamp of the bytes read; a reply leaves it as it was.
    let rewritten = again.place == Place::PastClaim;
    let answered = Ctx {
        origin: ctx.origin.clone(),
        path: ctx.path,
        source: ctx.source,
        record: &record,
        stamp: ctx.stamp.filter(|_| rewritten),
        read: ctx.read && rewritten,
    };
    let replayed = super::sent::replay_for_answer::<G>(&answered, again.wallet, again.key)
        .ok()
        .filter(|r| r.answered.is_some());
    let Some(replayed) = replayed else {
        return Err(super::sent::crossed_claim(
            sent, claimant, None, again.key, ctx,
        ));
    };
    same(&replayed.referee, &answered)?;
    let what = if again.place == Place::PastClaim {
        format!(
            "{} now holds it in place of the claim: send that record to {claimant}, to go on from",
            ctx.origin
        )
    } else {
        format!("this is that message again, for {claimant} to go on from")
    };
    super::report::eprint_note(&format!(
        "your {} crossed {claimant}'s claim of your forfeit in the mail: it answers the record the claim was written on, so the claim never stood; {what}",
        sent.name()
    ));
    write_line_again(&answered, replayed.referee, sent, again)
}
