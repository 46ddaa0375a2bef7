//! What a player's key file refuses in a record it reads (spec section
//! 3.8): a copy stripped of the keys its protocol requires, a copy whose
//! Key tag for the key file's side is another key, and a copy that parts
//! from the newest record the key file checked (a fork). The referee
//! decides from the replayed record, its text and the key file's facts;
//! the CLI only reads the files and prints the refusal (a record
//! problem, exit 1).

use super::answer::replay_from_sent;
use super::{Keep, Referee, RefereeError};
use crate::fairness::Hash;
use crate::game::Game;
use crate::record::{Record, Turn};
use crate::wallet::Wallet;

/// Why a key file refuses a record.
#[derive(Debug)]
pub enum Refused {
    /// The record could not be replayed up to a line the check needs.
    Record(RefereeError),
    /// The refusal, in the player's words.
    Copy(String),
}

impl From<RefereeError> for Refused {
    fn from(e: RefereeError) -> Self {
        Refused::Record(e)
    }
}

/// Refuse `record` (replayed by `referee`; `text` the text its spans
/// point into) for the holder of `wallet` (named `key` in the commands
/// the refusal gives) where it was stripped of the keys, holds another
/// key for the key file's side, or parts from the newest record the key
/// file checked. In that order; `Ok` when none holds.
pub fn refuse_for_key_file<G: Game>(
    referee: &Referee<G>,
    record: &Record<'_>,
    text: &str,
    wallet: &Wallet,
    key: &str,
) -> Result<(), Refused> {
    refuse_stripped(referee, record, wallet, key)?;
    refuse_other_key(referee, wallet, key)?;
    refuse_fork_of_seen(referee, record, text, wallet)
}

/// The record digests after line `n` of `record` and before it (the
/// record cut after its line `n`, replayed; `start`: the digest before
/// its first line). The cut record's Result tag is not the game's after
/// line `n` (a claim there ends it): only the digests are read.
pub fn digests_at<G: Game>(
    record: &Record<'_>,
    n: usize,
    start: Hash,
) -> Result<(Hash, Hash), RefereeError> {
    let cut = Record {
        tags: record.tags.clone(),
        turns: record.turns[..n].to_vec(),
        header_end: record.header_end,
    };
    let keep = Keep {
        digest: true,
        ..Keep::RULES
    };
    let (mut before, mut last, mut played) = (start, start, 0);
    let replayed = replay_from_sent::<G>(&cut, keep, None, |_, referee| {
        before = last;
        last = referee.digest().copied().unwrap_or_default();
        played += 1;
    });
    match replayed {
        Err(e) if played < n => Err(e),
        _ => Ok((last, before)),
    }
}

/// The first physical line of `turn` in `text` (`3. Blue: Cd1-d2`).
pub fn turn_head(turn: &Turn<'_>, text: &str) -> String {
    text.get(turn.span.start..turn.lines_end.max(turn.span.end))
        .and_then(|l| l.lines().next())
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// Refuse a record that parts from the newest one the player checked
/// with `wallet` since its last line ([`Wallet::seen`], spec section
/// 3.8): where the checked record had its last line, this one holds
/// another. Two lines of one side that answer the same record (one in
/// each copy: the side answered a message twice, or once more after a
/// claim of its forfeit that crossed its first answer) are a fork, which
/// the player it wrongs refuses, naming the side and the turn. Only a
/// claimed side's own line in place of a claim the player checked (the
/// claim crossed it in the mail, and never stood) may take the place of
/// what it saw. An older copy (fewer lines) is left to the other checks.
fn refuse_fork_of_seen<G: Game>(
    referee: &Referee<G>,
    record: &Record<'_>,
    text: &str,
    wallet: &Wallet,
) -> Result<(), Refused> {
    let Some(seen) = wallet.seen() else {
        return Ok(());
    };
    let n = seen.lines as usize;
    let turns = &record.turns;
    if n == 0 || turns.len() < n || referee.header().chain_id() != wallet.chain() {
        return Ok(());
    }
    let here = &turns[n - 1];
    // The same line where the player saw it: the record goes on from it.
    if turns.len() == n && !seen.claim && referee.digest() == Some(&seen.digest) {
        return Ok(());
    }
    let start = crate::fairness::record_start(referee.header().game_id());
    let (at, before) = digests_at::<G>(record, n, start)?;
    if at == seen.digest {
        return Ok(());
    }
    let same_place = before == seen.before;
    if same_place
        && seen.claim
        && here.forfeit.is_none()
        && here.side.eq_ignore_ascii_case(&seen.side)
    {
        return Ok(());
    }
    let head = |t: &Turn<'_>| turn_head(t, text);
    let name = |t: &Turn<'_>| format!("{:#}", t.kind.named(t.number));
    let side = &seen.side;
    let twice = if !same_place {
        None
    } else if !seen.claim && here.forfeit.is_none() && here.side.eq_ignore_ascii_case(side) {
        // Two lines of the side in one place.
        Some(format!("`{}` here", head(here)))
    } else if !seen.claim && here.forfeit.is_some() && here.side.eq_ignore_ascii_case(side) {
        // A claim of the side's forfeit here, then the side's own line
        // after it: the side answered the same record once more.
        turns
            .get(n)
            .filter(|next| next.forfeit.is_none() && next.side.eq_ignore_ascii_case(side))
            .map(|next| {
                format!(
                    "`{}` here, after `{}`, which it voids",
                    head(next),
                    head(here)
                )
            })
    } else {
        None
    };
    let message = match twice {
        Some(other) => format!(
            "this record is a fork: {side} wrote two lines that answer the same record, `{}` in the record your key file checked and {other}: a side answers a record once, so do not accept this copy (nor answer it); go on from the record you checked, and tell the other players; nothing was written",
            seen.head
        ),
        None => format!(
            "this record parts from the one your key file checked: its {} is `{}`, where the record you checked holds `{}` (its line {n}): the two copies cannot both be the game, so this one is refused; go on from the record you checked, or ask the other players which copy they hold; nothing was written",
            name(here),
            head(here),
            seen.head
        ),
    };
    Err(Refused::Copy(message))
}

/// Refuse a record that holds no key at all (or, under protocol 3 once
/// play began, not `wallet`'s side's), when `wallet`'s key can no
/// longer join it: the key file was made for a game of this kind under a
/// protocol that binds keys, for a side of this record, and its player
/// has written no line yet (a player who has is told by what its key
/// file remembers). The record has lines, and no side's Key tag: so the
/// record was stripped of the Commit and Key tags and the signatures its
/// protocol requires, or it is not the game the key file was made for.
/// Never "drop --key": the key file is right.
fn refuse_stripped<G: Game>(
    referee: &Referee<G>,
    record: &Record<'_>,
    wallet: &Wallet,
    key: &str,
) -> Result<(), Refused> {
    let header = referee.header();
    let Ok(side) = referee.wallet_side(wallet) else {
        return Ok(());
    };
    let lines = record.turns.len();
    // Another side's key in the header: this side's key may join with
    // its first set-up line (protocol 3), or was made and never added (a
    // protocol-2 game its other sides sign alone, whose `move` says to
    // drop --key). Under protocol 3 once play began, a game is signed by
    // every side or by none: a side's key missing beside another's was
    // taken out.
    let missing_beside_others = header.protocol().keys_join_late()
        && referee.phase() != crate::game::Phase::Setup
        && header.key(side).is_none();
    if wallet.sent().is_some()
        || !wallet.protocol().binds_keys()
        || (header.any_key() && !missing_beside_others)
        || lines == 0
    {
        return Ok(());
    }
    let name = side.name::<G>();
    Err(Refused::Copy(format!(
        "this record holds no {name}Key tag, yet your key file was made for {name} in a {} game whose protocol binds every side's key, and the record has {lines} line{} already, so {name}'s key can no longer join it: the record was stripped of the Commit and Key tags and the signatures its protocol requires (a record herald made with keys lost them), or it is not the game your key file was made for; ask for the record as it was sent (herald check RECORD --key {key} on that copy says whether it is your game); nothing was written",
        G::ID,
        if lines == 1 { "" } else { "s" },
    )))
}

/// Refuse a copy whose Key tag for `wallet`'s side is not `wallet`'s key,
/// the key file being this game's (its chain id is the header's: the
/// Key tags aside, the same game). Only the holder of a key file can
/// write a key message for its side, and the holder of `wallet` did not
/// write that one: another player wrote a key for this side (to play its
/// turns From its address), so this copy is not the player's game and
/// must not be played (spec section 3.7). Exit 1, in every command that
/// reads the record with the key file.
pub fn refuse_other_key<G: Game>(
    referee: &Referee<G>,
    wallet: &Wallet,
    key: &str,
) -> Result<(), Refused> {
    let header = referee.header();
    let Some(side) = referee
        .wallet_side(wallet)
        .ok()
        .filter(|_| wallet.chain() == header.chain_id())
    else {
        return Ok(());
    };
    let Some(tag) = header.key(side) else {
        return Ok(());
    };
    if tag.to_bytes() == wallet.public_key() {
        return Ok(());
    }
    let name = side.name::<G>();
    Err(Refused::Copy(format!(
        "this copy's {name}Key tag is not your key: another key was written for {name}, your side, by someone who does not hold your key file (a key message From {name}'s address that you did not send); this copy must not be played, and nothing was written: tell the other players that {name}'s key in it is not yours, and send your own key again from the copy you had before it (herald keygen --side {name} BEFORE.pbem --key {key} --reply, BEFORE.pbem the copy without {name}Key)"
    )))
}
