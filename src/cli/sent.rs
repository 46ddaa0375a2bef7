//! What a player's key file remembers of the record (spec section 3.8):
//! the last line the player wrote and the digest of the record up to it.
//! `move --key` and `setup --key` refuse a record that does not extend
//! it, so a relayed copy whose earlier lines were changed is caught by
//! the player it wrongs, at once.

use std::path::Path;

use super::context::{replay_all, Ctx};
use super::files;
use super::report::{Failure, Problem};
use crate::game::Game;
use crate::referee::{ErrorKind, Keep, PlayedTurn, Referee};
use crate::wallet::{Sent, Wallet};

/// Replay the record, checking that it extends the last line `wallet`'s
/// player wrote (when the wallet is one of this game's).
pub(super) fn replay_checking_sent<G: Game>(
    ctx: &Ctx<'_>,
    wallet: Option<&Wallet>,
) -> Result<Referee<G>, Failure> {
    let sent = wallet.and_then(Wallet::sent);
    let mut found = None;
    let keep = Keep {
        digest: true,
        ..Keep::RULES
    };
    let referee = replay_all::<G>(ctx, keep, |played, referee| {
        if let Some(sent) = sent {
            if played.kind == sent.kind && played.number == sent.number {
                found = referee.digest().copied();
            }
        }
    })?;
    // A key from another game is refused by the referee, saying so.
    let ours = wallet.is_some_and(|w| w.chain() == referee.header().chain_id());
    match sent.filter(|_| ours) {
        Some(sent) if found != Some(sent.digest) => Err(changed(sent, found.is_some(), ctx)),
        _ => Ok(referee),
    }
}

/// The refusal of a record that does not extend what the player sent.
fn changed(sent: Sent, present: bool, ctx: &Ctx<'_>) -> Failure {
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
            return Err(Failure::usage(format!(
                "{a} has a {a}{what} tag and {b} has none: Commit and Key tags are added before the first line and never after, so {b}'s lines could never carry a reveal or a signature (and chance needs them); add {b}'s with herald keygen --side {b}, or pass --no-commit to play so"
            )));
        }
    }
    Ok(())
}

/// Remember in the key file at `path` that its player wrote `played`,
/// the last line of `referee`'s record.
pub(super) fn remember_sent<G: Game>(
    path: &Path,
    wallet: &mut Wallet,
    played: &PlayedTurn<G>,
    referee: &Referee<G>,
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
