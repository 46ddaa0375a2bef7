//! What a player's key file remembers of a record and refuses in one it
//! reads (spec section 3.8): a copy stripped of the keys its protocol
//! requires, a copy whose Key tag for the key file's side is another
//! key, a copy that parts from the newest record the key file checked (a
//! fork, [`refuse_for_key_file`]), and a second answer to the record the
//! player answered already ([`answered_already`], [`crossed_claim`],
//! [`first_turn_elsewhere`]), each refusal with the commands that send
//! the player's last line again ([`write_again`], [`resend_last`]). The
//! key file's memory of the newest record checked is [`note_seen`]. The
//! referee decides from the replayed record, its text and the key file's
//! facts; the CLI only reads the files and prints the refusal (its
//! commands written by [`Said::write`], the record named as the file
//! read).

use super::answer::{replay_from_sent, Answering, Crossed};
use super::{Command, ErrorKind, Keep, PlayedTurn, Referee, RefereeError, Said};
use crate::fairness::Hash;
use crate::game::Game;
use crate::record::{LineKind, Record, Source, Turn};
use crate::wallet::{Seen, Sent, Wallet};

/// Why a key file refuses a record, or a line on it.
#[derive(Debug)]
pub enum Refused {
    /// The record could not be replayed up to a line the check needs.
    Record(RefereeError),
    /// The refusal, in the player's words, with the commands that work
    /// (on the record read: [`Command::on_record`]); `kind` is
    /// [`ErrorKind::Record`] for a copy refused, [`ErrorKind::Illegal`]
    /// for a line the player may not write on it. Exit 1 either way.
    Copy(ErrorKind, Said),
}

impl Refused {
    /// A copy refused, in these words.
    fn copy(said: impl Into<Said>) -> Refused {
        Refused::Copy(ErrorKind::Record, said.into())
    }
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
    Err(Refused::copy(message))
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
    Err(Refused::copy(
        Said::words(format!(
            "this record holds no {name}Key tag, yet your key file was made for {name} in a {} game whose protocol binds every side's key, and the record has {lines} line{} already, so {name}'s key can no longer join it: the record was stripped of the Commit and Key tags and the signatures its protocol requires (a record herald made with keys lost them), or it is not the game your key file was made for; ask for the record as it was sent (",
            G::ID,
            if lines == 1 { "" } else { "s" },
        ))
        // The copy as it was sent, which the reader is yet to get.
        .command(Command::check().on("RECORD").key_file(key))
        .and(" on that copy says whether it is your game); nothing was written"),
    ))
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
    Err(Refused::copy(
        Said::words(format!(
            "this copy's {name}Key tag is not your key: another key was written for {name}, your side, by someone who does not hold your key file (a key message From {name}'s address that you did not send); this copy must not be played, and nothing was written: tell the other players that {name}'s key in it is not yours, and send your own key again from the copy you had before it ("
        ))
        .command(
            Command::keygen(name)
                .on("BEFORE.pbem")
                .key_file(key)
                .reply(),
        )
        .and(&format!(", BEFORE.pbem the copy without {name}Key)")),
    ))
}

/// Remember in `wallet` the record `replayed` (`record`, `text` the text
/// its spans point into) as the newest the player checked, when it is
/// newer than what the key file remembers (spec section 3.8,
/// [`Wallet::seen`]): whether it changed, so that the caller writes the
/// key file again. A copy that later parts from it (two lines of one
/// side that answer the same record) is a fork, which
/// [`refuse_for_key_file`] refuses. Never a record the player's own line
/// does not stand in: the very record the player answered already, or
/// one whose claim of the player's forfeit crossed that answer in the
/// mail; nor one that holds nothing newer (a record the key file
/// checked already, or whose last line is the player's own).
pub fn note_seen<G: Game>(
    replayed: &Answering<G>,
    record: &Record<'_>,
    text: &str,
    wallet: &mut Wallet,
) -> Result<bool, RefereeError> {
    if replayed.answered.is_some() || matches!(replayed.crossed, Some(Crossed::ByClaim { .. })) {
        return Ok(false);
    }
    let referee = &replayed.referee;
    let turns = &record.turns;
    let n = turns.len();
    let (Some(last), Some(&digest)) = (turns.last(), referee.digest()) else {
        return Ok(false);
    };
    if wallet.seen().is_some_and(|s| s.lines as usize >= n)
        || wallet.sent().is_some_and(|s| s.digest == digest)
    {
        return Ok(false);
    }
    let start = crate::fairness::record_start(referee.header().game_id());
    let (_, before) = digests_at::<G>(record, n, start)?;
    wallet.set_seen(Seen {
        lines: n as u32,
        digest,
        before,
        side: last.side.to_owned(),
        claim: last.forfeit.is_some(),
        head: turn_head(last, text),
    });
    Ok(true)
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
pub fn head_line(text: &str) -> Option<&str> {
    text[turn_start(text).unwrap_or(0)..].lines().next()
}

/// The first physical line of the turn the player's last line(s) `sent`
/// hold (`5. Red: Ka9-b9`; after the set-up line `setup --then` wrote
/// with it), else of its first line (a set-up line).
pub fn sent_head(sent: &Sent) -> Option<&str> {
    head_line(sent.text.as_deref()?)
}

/// The lines `sent` holds before its turn: the set-up's last line that
/// `setup --then` wrote with it (empty when there is none).
pub fn before_turn(sent: &Sent) -> &str {
    let text = sent.text.as_deref().unwrap_or_default();
    &text[..turn_start(text).unwrap_or(0)]
}

/// The command that writes the player's last line `sent` again as it was
/// first written, with the key file `key` (a shell word): a set-up line
/// by `herald setup` with no choices (the key file keeps them), the
/// set-up's last line and the first turn by `setup --then "TURN"`, a turn
/// by `herald move "TURN"`. The caller names the record
/// ([`Command::on_record`], [`Command::on`]).
pub fn write_again(sent: &Sent, key: &str) -> Command {
    let actions = sent_head(sent)
        .and_then(|l| l.split_once(": "))
        .map_or("YOUR TURN", |(_, a)| a);
    let command = match sent.kind {
        LineKind::Setup => Command::setup(),
        // The set-up's last line and the first turn, written together.
        LineKind::Turn if !before_turn(sent).is_empty() => Command::setup().then(actions),
        LineKind::Turn => Command::moves().typed(actions),
    };
    command.key_file(key)
}

/// How the player's last line `sent` goes out again, from a record that
/// is not the one it answered (whose name the key file does not keep,
/// `RECORD` in the command): the message it went out in resent, or the
/// line written again on that record by the command that first wrote it
/// ([`write_again`], with the key file `key`). The words that end
/// [`super::answer::AnswerError::message`].
pub fn resend_last(sent: &Sent, key: &str) -> Said {
    let again = write_again(sent, key).on("RECORD");
    match &sent.reply {
        Some(reply) => Said::words(format!("resend {reply}, or write that message again with "))
            .command(again.reply_to("NEW.eml"))
            .and(", RECORD the message you answered with it"),
        None => Said::words("send the record that holds it again, or write it again with ")
            .command(again)
            .and(" on the record you answered with it"),
    }
}

/// The player's last line `sent` as a player quotes it (its first
/// physical line: `` (`2. Red: Kc9-b9`)``), after its name.
fn quoted(sent: &Sent) -> String {
    sent_head(sent)
        .map(|l| format!(" (`{l}`)"))
        .unwrap_or_default()
}

/// `; `TYPED` is another answer, and a second answer would fork the game`.
fn another_answer(typed: Option<&str>) -> String {
    typed
        .map(|t| format!("; `{t}` is another answer, and a second answer would fork the game"))
        .unwrap_or_default()
}

/// The refusal of a second answer to the record the player answered
/// already with `sent` (`typed`: what the player typed now, if it is not
/// the same line; `key`: the key file as the player names it): resend
/// the message, or write the same line again on the record read.
pub fn answered_already(sent: &Sent, typed: Option<&str>, key: &str) -> Refused {
    let again = write_again(sent, key).on_record();
    let resend = match &sent.reply {
        Some(reply) => Said::words(format!(
            "resend {reply}, or write the same message again with "
        ))
        .command(again.reply_to("NEW.eml")),
        None => Said::words("send the record that holds it again, or write it again with ")
            .command(again),
    };
    Refused::copy(
        resend
            .after(&format!(
                "you already answered this turn: your {}{} answers this very record{}: ",
                sent.name(),
                quoted(sent),
                another_answer(typed),
            ))
            .and("; nothing was written"),
    )
}

/// The refusal of an answer to `claimant`'s claim of the player's
/// forfeit, which crossed the player's own line `sent` in the mail (the
/// record read holds the claim instead): that line answers the record
/// the claim was written on, so the claim never stood; the line goes out
/// again (the same message), never a second answer after the claim,
/// which would fork the game. `typed` and `key` as for
/// [`answered_already`].
pub fn crossed_claim(sent: &Sent, claimant: &str, typed: Option<&str>, key: &str) -> Refused {
    let again = Said::words("write that message again with ")
        .command(write_again(sent, key).on_record().reply_to("NEW.eml"));
    let resend = match &sent.reply {
        Some(reply) => again.after(&format!("resend {reply}, or ")),
        None => again,
    };
    let line = sent.name();
    Refused::copy(
        resend
            .after(&format!(
                "you already answered this turn: your {line}{} crossed {claimant}'s claim of your forfeit in the mail; it answers the record the claim was written on, so the claim never stood, and {claimant} goes on from your {line}{}: ",
                quoted(sent),
                another_answer(typed),
            ))
            .and("; nothing was written"),
    )
}

/// The refusal of a turn `typed` on the record the player answered with
/// `sent`, the set-up's last line, which made the player the first to
/// move: the turn goes on the message (or record) that holds that line,
/// one message carrying both (an illegal choice, not a copy refused).
pub fn first_turn_elsewhere(sent: &Sent, typed: &str, key: &str) -> Refused {
    let turn = Command::moves().typed(typed).key_file(key);
    let (on, command) = match &sent.reply {
        Some(reply) => (reply.clone(), turn.on(reply).reply_to("NEXT.eml")),
        None => ("the record that holds it".to_owned(), turn.on("RECORD")),
    };
    Refused::Copy(
        ErrorKind::Illegal,
        Said::words(format!(
            "your {} answers this very record, and it made you the first to move: answer {on} with your first turn, one message that carries both lines: ",
            sent.name()
        ))
        .command(command)
        .and("; nothing was written"),
    )
}

/// The refusal of a turn from the player whose closing line (an audit or
/// a claim once play was over), `sent`, is written already: from them only
/// a closing line may follow, `audit` (by the key file `key`), or, while
/// another side's claim waits for its answer, what is due once it is
/// answered or stands. `own`: the key file's side.
pub fn closing_written<G: Game>(
    referee: &Referee<G>,
    sent: &Sent,
    own: Option<&str>,
    key: &str,
) -> Refused {
    let closing = match (referee.open_claim(), referee.step_due()) {
        (Some((target, _)), Some(due))
            if own.is_none_or(|s| !s.eq_ignore_ascii_case(target.name::<G>())) =>
        {
            Said::words(format!(
                "once the claim is answered or stands: {}",
                due.text
            ))
        }
        _ => Said::default().command(Command::moves().on_record().action("audit").key_file(key)),
    };
    Refused::Copy(
        ErrorKind::Illegal,
        closing
            .after(&format!(
                "you already wrote your {} once this game's play was over (an audit or a claim): from you only a closing line may follow on it (",
                sent.name(),
            ))
            .and("), not a turn; nothing was written"),
    )
}

/// Play `line`, a line the player wrote (its key file's copy: a game's
/// last line and its writer's audit go together), on `referee`: the first
/// line played, or none if it does not follow.
pub fn play_own_line<G: Game>(referee: &mut Referee<G>, line: &str) -> Option<PlayedTurn<G>> {
    let source = Source::typed(line);
    let (turns, _) = crate::record::parse_lines(&source).ok()?;
    let mut first = None;
    for turn in &turns {
        let played = referee.play(turn).ok()?;
        first.get_or_insert(played);
    }
    first
}

/// The refusal to write the player's last line `sent` again on `record`
/// (replayed by `referee`), a copy older than the one the line answered,
/// which the record digest cannot tell apart (the Key tags that joined
/// before turn 1 are not in it): the line would go out without them, on a
/// game that cannot take it. The newer copy's message is the one to
/// resend. `None` when the copy is not such a one.
pub fn older_copy<G: Game>(
    referee: &Referee<G>,
    record: &Record<'_>,
    sent: &Sent,
) -> Option<Refused> {
    let side = *referee.keys_due().first()?;
    if !record.turns.is_empty() {
        return None;
    }
    let name = side.name::<G>();
    let line = sent.name();
    let resend = match &sent.reply {
        Some(r) => format!("resend {r}, the message your {line} went out in"),
        None => format!("resend the record your {line} went out in"),
    };
    Some(Refused::Copy(
        ErrorKind::Illegal,
        Said::words(format!(
            "you answered a newer copy of this game already: your {line} was written on a copy that holds {name}'s key, and this one lacks it (an older message, your own first one perhaps): {resend}; nothing was written"
        )),
    ))
}

/// Play the player's last line `sent` again from the key file's copy of
/// it, `line`, on `referee`, the record it answered: the first line
/// played, when it follows and leads to the record digest the key file
/// remembers (else the copy was edited).
pub fn play_sent_again<G: Game>(
    referee: &mut Referee<G>,
    sent: &Sent,
    line: &str,
) -> Option<PlayedTurn<G>> {
    play_own_line(referee, line).filter(|_| referee.digest() == Some(&sent.digest))
}

/// Whether `typed` is the actions of the turn `sent` (its first turn
/// line, `5. Red: Ka9-b9`: a set-up line's first turn written with it by
/// `setup --then`; else its first line), spaces aside.
pub fn same_actions(sent: &Sent, typed: &str) -> bool {
    let words = |text: &str| text.split_whitespace().collect::<String>();
    sent_head(sent)
        .and_then(|l| l.split_once(": "))
        .is_some_and(|(_, actions)| words(actions) == words(typed))
}

/// Whether `typed` is the turn of `sent`, the player's last line(s),
/// again on `referee`, the record it answered: the same actions as
/// written (spaces aside), or, composed by `compose` on a copy after the
/// lines `sent` holds before its turn (the set-up line `setup --then`
/// wrote with it), the same first physical line (facts the referee adds,
/// such as a die, included).
pub fn typed_again<G: Game>(
    referee: &Referee<G>,
    sent: &Sent,
    typed: &str,
    compose: impl FnOnce(&mut Referee<G>) -> Option<PlayedTurn<G>>,
) -> bool {
    if same_actions(sent, typed) {
        return true;
    }
    let mut trial = referee.clone();
    let before = before_turn(sent);
    if !before.is_empty() && play_own_line(&mut trial, before).is_none() {
        return false;
    }
    compose(&mut trial).is_some_and(|played| played.line().lines().next() == sent_head(sent))
}

/// Whether the record `referee` replayed ends with the player's last
/// line `sent` and `typed` is that line's turn again: its message was
/// lost, and `move --reply` writes it again from the record as it stands
/// (a record whose closing line alone may follow from the player,
/// `closing_only`, is not one).
pub fn ends_with_sent<G: Game>(
    referee: &Referee<G>,
    sent: &Sent,
    typed: &str,
    closing_only: bool,
) -> bool {
    !closing_only && Some(&sent.digest) == referee.digest() && same_actions(sent, typed)
}

/// What the player whose claim crossed another line in the mail is told
/// as the game goes on ([`Crossed::Answered`], [`Crossed::ClaimedAlready`]);
/// `None` for a line of the player's that a claim crossed
/// ([`Crossed::ByClaim`]: that is refused, [`crossed_claim`]).
pub fn crossed_note(crossed: &Crossed) -> Option<String> {
    match crossed {
        Crossed::Answered(sent) => Some(format!(
            "your {} crossed its target's own line in the mail: this copy holds that line instead, which answers the claim, so the claim never stood and the game goes on from it",
            sent.name()
        )),
        Crossed::ClaimedAlready(sent) => Some(format!(
            "your {} crossed another player's claim of the same forfeit in the mail: this copy holds that claim instead, which stands for both, and the game goes on from it",
            sent.name()
        )),
        Crossed::ByClaim { .. } => None,
    }
}

/// Where the player whose key file is `wallet` stands in `record`
/// (replayed as `replayed`), in the player's words (what `check --key`
/// says of the key file): the record answered already (send that answer,
/// not another), a line crossed by a claim in the mail, or crossing one,
/// the player's last line in it as written, or no line of the game yet.
pub fn standing<G: Game>(replayed: &Answering<G>, record: &Record<'_>, wallet: &Wallet) -> String {
    let resend = |s: &Sent| {
        s.reply
            .as_deref()
            .map(|r| format!(" (in {r})"))
            .unwrap_or_default()
    };
    match (&replayed.answered, &replayed.crossed, wallet.sent()) {
        (_, Some(Crossed::ByClaim { sent: s, claim }), _) => format!(
            "your {}{} crossed {}'s claim of your forfeit in the mail: it answers the record the claim was written on, so the claim never stood: send that answer, not another",
            s.name(),
            resend(s),
            claimant_of(record, *claim)
        ),
        (_, Some(Crossed::Answered(s)), _) => format!(
            "your {} crossed its target's own line in the mail: this copy holds that line instead, so the claim never stood, and the game goes on from it",
            s.name()
        ),
        (_, Some(Crossed::ClaimedAlready(s)), _) => format!(
            "your {} crossed another player's claim of the same forfeit in the mail: this copy holds that claim instead, which stands for both, and the game goes on from it",
            s.name()
        ),
        (Some(s), _, _) => format!(
            "you answered this very record with your {}{}: send that answer, not another",
            s.name(),
            resend(s)
        ),
        (None, None, Some(s)) => format!("your {} is in this record as you wrote it", s.name()),
        (None, None, None) => "you have written no line of this game yet".to_owned(),
    }
}

/// The claimant of the claim line `claim` of `record`, as written
/// (`the claimant` when the record holds no such claim).
pub fn claimant_of<'r>(record: &'r Record<'_>, claim: (LineKind, u32)) -> &'r str {
    record
        .turns
        .iter()
        .find(|t| (t.kind, t.number) == claim)
        .and_then(|t| t.forfeit)
        .map_or("the claimant", |(_, claimant)| claimant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::castle_danger::CastleDanger;
    use crate::record::{self, Source, Splice};
    use crate::referee::answer::replay_for_answer;
    use crate::referee::Keys;
    use crate::selfplay::{self, Options};

    /// `game.pbem`, answered in place: how the refusals below are
    /// written for the file read.
    const IN_GAME_PBEM: crate::referee::Writing<'static> = crate::referee::Writing {
        record: "game.pbem",
        reply: false,
        send: false,
    };

    type G = CastleDanger;
    const SEED: u64 = 27;

    /// A signed Castle Danger game of four turns (Blue, Red, Blue, Red).
    fn game() -> Source {
        let options = Options {
            signatures: true,
            max_turns: 4,
            stop_percent: 100,
            ..Options::new::<G>(SEED, 2)
        };
        let text = selfplay::record::<G>(&options).expect("self-play");
        Source::new(text.as_bytes()).expect("a record")
    }

    /// The key file of side `index` of the game.
    fn wallet(record: &Record<'_>, index: u8) -> Wallet {
        let referee = Referee::<G>::start(record).expect("a header");
        let side = crate::game::Side(index);
        Wallet::from_secret(
            G::ID,
            side.name::<G>(),
            *referee.header().chain_id(),
            selfplay::secret(SEED, side),
        )
    }

    /// `record` with its last line replaced by a resignation of the same
    /// side: a second answer to the record before it.
    fn fork(source: &Source) -> Source {
        let whole = record::parse(source).expect("parsed");
        let n = whole.turns.len();
        let cut = Record {
            tags: whole.tags.clone(),
            turns: whole.turns[..n - 1].to_vec(),
            header_end: whole.header_end,
        };
        let last = &whole.turns[n - 1];
        let mut referee = replay_from_sent::<G>(&cut, Keep::RULES, None, |_, _| {}).expect("ok");
        let writer = wallet(&whole, if last.side == "Blue" { 0 } else { 1 });
        let line = referee
            .compose_typed("resign", Keys::own(&writer))
            .expect("a resignation")
            .line();
        let result = referee.final_result();
        let text = Splice::new()
            .line(&line)
            .result(result.as_deref())
            .extracted(source, &cut);
        Source::new(text.as_bytes()).expect("a record")
    }

    fn checked<'s>(source: &'s Source, wallet: &Wallet) -> (Answering<G>, Record<'s>) {
        let record = record::parse(source).expect("parsed");
        let replayed = replay_for_answer::<G>(&record, Some(wallet), None).expect("replayed");
        (replayed, record)
    }

    #[test]
    fn a_key_file_remembers_the_newest_record_it_checked_once() {
        let source = game();
        let record = record::parse(&source).expect("parsed");
        let mut blue = wallet(&record, 0);
        let (replayed, record) = checked(&source, &blue);
        assert!(note_seen(&replayed, &record, source.text(), &mut blue).expect("noted"));
        let seen = blue.seen().expect("remembered").clone();
        assert_eq!(seen.lines, 4);
        assert_eq!(Some(&seen.digest), replayed.referee.digest());
        assert_eq!(seen.side, "Red");
        assert!(!seen.claim);
        assert!(seen.head.starts_with("4. Red: "), "{}", seen.head);
        // The same record again: nothing newer to remember.
        assert!(!note_seen(&replayed, &record, source.text(), &mut blue).expect("noted"));
        assert_eq!(blue.seen(), Some(&seen));
    }

    #[test]
    fn a_copy_with_another_line_where_the_key_file_saw_one_is_refused_as_a_fork() {
        let source = game();
        let record = record::parse(&source).expect("parsed");
        let mut blue = wallet(&record, 0);
        let (replayed, record) = checked(&source, &blue);
        note_seen(&replayed, &record, source.text(), &mut blue).expect("noted");
        let head = blue.seen().expect("remembered").head.clone();
        // The record it checked passes.
        refuse_for_key_file(&replayed.referee, &record, source.text(), &blue, "blue.key")
            .expect("the record checked");
        // Red answered turn 3 a second time, by resigning.
        let forked = fork(&source);
        let (replayed, record) = checked(&forked, &blue);
        let Err(Refused::Copy(kind, said)) =
            refuse_for_key_file(&replayed.referee, &record, forked.text(), &blue, "blue.key")
        else {
            panic!("a fork passes");
        };
        assert_eq!(kind, ErrorKind::Record);
        assert_eq!(
            said.to_string(),
            format!(
                "this record is a fork: Red wrote two lines that answer the same record, `{head}` in the record your key file checked and `4. Red: resign` here: a side answers a record once, so do not accept this copy (nor answer it); go on from the record you checked, and tell the other players; nothing was written"
            )
        );
        // Red's own key file, which checked nothing, refuses neither.
        let red = wallet(&record, 1);
        refuse_for_key_file(&replayed.referee, &record, forked.text(), &red, "red.key")
            .expect("no record checked");
    }

    #[test]
    fn a_line_written_again_is_the_command_that_first_wrote_it() {
        let sent = |kind, text: &str, reply: Option<&str>| Sent {
            kind,
            number: 2,
            digest: [0; 32],
            after: None,
            ended: None,
            text: Some(text.to_owned()),
            reply: reply.map(str::to_owned),
        };
        let turn = sent(
            LineKind::Turn,
            "2. Red: Kc9-b9\n  {reveal 00}\n",
            Some("4.eml"),
        );
        assert_eq!(
            write_again(&turn, "my.key").on_record().to_string(),
            "herald move RECORD \"Kc9-b9\" --key my.key"
        );
        assert_eq!(
            resend_last(&turn, "my.key").to_string(),
            "resend 4.eml, or write that message again with herald move RECORD \"Kc9-b9\" --key my.key --reply -o NEW.eml, RECORD the message you answered with it"
        );
        let both = sent(
            LineKind::Turn,
            "S2. Red: commit army 00\n1. Red: Kc9-b9\n",
            None,
        );
        let Refused::Copy(kind, said) = answered_already(&both, Some("Kc9-c8"), "'my key'") else {
            panic!("not a refusal");
        };
        assert_eq!(kind, ErrorKind::Record);
        assert_eq!(
            said.write(&IN_GAME_PBEM),
            "you already answered this turn: your turn 2 (`1. Red: Kc9-b9`) answers this very record; `Kc9-c8` is another answer, and a second answer would fork the game: send the record that holds it again, or write it again with herald setup game.pbem --then \"Kc9-b9\" --key 'my key'; nothing was written"
        );
        let setup = sent(LineKind::Setup, "S2. Red: commit army 00\n", Some("r.eml"));
        let Refused::Copy(kind, said) = first_turn_elsewhere(&setup, "Kc9-b9", "my.key") else {
            panic!("not a refusal");
        };
        assert_eq!(kind, ErrorKind::Illegal);
        assert_eq!(
            said.write(&IN_GAME_PBEM),
            "your set-up line S2 answers this very record, and it made you the first to move: answer r.eml with your first turn, one message that carries both lines: herald move r.eml \"Kc9-b9\" --key my.key --reply -o NEXT.eml; nothing was written"
        );
    }

    #[test]
    fn a_record_that_ends_with_the_players_line_typed_again_is_its_lost_message() {
        let source = game();
        let record = record::parse(&source).expect("parsed");
        let red = wallet(&record, 1);
        let (replayed, _) = checked(&source, &red);
        let last = record.turns.last().expect("four turns");
        let text = format!(
            "{}\n",
            source.text()[last.span.start..last.lines_end].trim_end()
        );
        let (_, actions) = head_line(&text)
            .and_then(|l| l.split_once(": "))
            .expect("a turn line");
        let sent = Sent {
            kind: LineKind::Turn,
            number: 4,
            digest: *replayed.referee.digest().expect("signed"),
            after: None,
            ended: None,
            text: Some(text.clone()),
            reply: None,
        };
        let referee = &replayed.referee;
        // The same actions, spaces aside: its message again.
        assert!(ends_with_sent(
            referee,
            &sent,
            &format!(" {actions} "),
            false
        ));
        assert!(!ends_with_sent(referee, &sent, "resign", false));
        // Not where only the player's closing line may follow.
        assert!(!ends_with_sent(referee, &sent, actions, true));
        // Nor on a record it does not end.
        let other = Sent {
            digest: [0; 32],
            ..sent.clone()
        };
        assert!(!ends_with_sent(referee, &other, actions, false));
        // The line played again on the record before it is that line.
        let mut before = replay_from_sent::<G>(
            &Record {
                tags: record.tags.clone(),
                turns: record.turns[..3].to_vec(),
                header_end: record.header_end,
            },
            Keep::RULES,
            None,
            |_, _| {},
        )
        .expect("replayed");
        let played = play_own_line(&mut before, &text).expect("it follows");
        assert_eq!((played.number, played.side), (4, crate::game::Side(1)));
        assert_eq!(before.digest(), referee.digest());
        // A turn after the record's closing line: the audit, by the key file.
        let Refused::Copy(kind, said) = closing_written(referee, &sent, Some("Red"), "red.key")
        else {
            panic!("not a refusal");
        };
        assert_eq!(kind, ErrorKind::Illegal);
        assert_eq!(
            said.write(&IN_GAME_PBEM),
            "you already wrote your turn 4 once this game's play was over (an audit or a claim): from you only a closing line may follow on it (herald move game.pbem audit --key red.key), not a turn; nothing was written"
        );
    }
}
