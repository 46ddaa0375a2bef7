//! `herald move`: the player's next line on the record (a turn, a
//! farewell line, an audit, a forfeit claim), the audit it carries when
//! it ends the game, and the `--then` lines of the player's other sides
//! after it (spec sections 3.7 and 3.8). The protocol's questions are the
//! referee's (which claim the line answers, what it carries, whose line
//! comes next, what the key file remembers); this file reads the files,
//! asks, writes in the one order of [`super::chain::Message::write`] and
//! prints, each step a function.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::again::{resend_with_key, write_line_again, write_past_claim, Again, Place};
use super::args::Format;
use super::chain::{Message, Part, ThenKey, Writer};
use super::commands::{dry_run_line, send_if_asked, typed_failure};
use super::context::{
    append_line, compose_failure, fit, pending_text, print_json, read_hand_key, read_wallet,
    read_wallet_stamped, refuse_message, Ctx, RecordCommand, SCHEMA_VERSION,
};
use super::out;
use super::report::{Exit, Failure, Problem};
use crate::fairness::Hash;
use crate::game::{Game, Phase, Side};
use crate::record::{self, LineKind};
use crate::referee::answer::Crossed;
use crate::referee::key_file::{self, claimant_of};
use crate::referee::writer::typed_audit;
use crate::referee::{
    Command, ErrorKind, FirstLineAsked, Keys, PlayedTurn, Referee, RefusalDue, TypedAs,
    UnevenFirstLine, Writes,
};
use crate::wallet::{Sent, Wallet};

/// `herald move`, its arguments read.
pub(super) struct Move {
    /// The turn typed, or `None` for a forfeit claimed with the key.
    pub(super) text: Option<String>,
    pub(super) key: Option<PathBuf>,
    /// `--hand-key`: the key file of the side holding the hand.
    pub(super) hand_key: Option<PathBuf>,
    /// `--then LINE`: the lines after the player's, each another side's
    /// of the same player, written in the same message.
    pub(super) then: Vec<String>,
    /// `--then-key FILE`: the key file of each `--then` line's side.
    pub(super) then_key: Vec<PathBuf>,
    pub(super) dry_run: bool,
    pub(super) expect_turn: Option<u32>,
    pub(super) no_commit: bool,
    /// The day the line is dated (in a game with a Deadline tag).
    pub(super) date: super::context::LineDate,
    pub(super) format: Format,
    /// `--reply -o FILE`: write the next email message too.
    pub(super) reply: Option<super::mail::Reply>,
}

#[derive(Serialize)]
struct JsonMove {
    schema: u32,
    ok: bool,
    turn: u32,
    side: String,
    line: String,
    result: String,
    to_move: Option<String>,
    summary: String,
    written: bool,
}

impl Move {
    /// Refuse a record that is not at the turn the player expects.
    fn check_expected<G: Game>(&self, referee: &Referee<G>, ctx: &Ctx<'_>) -> Result<(), Failure> {
        let number = referee.next_turn();
        match self.expect_turn {
            Some(expected) if expected != number => {
                let problem = Problem::plain(
                    ErrorKind::Record,
                    format!(
                        "the record is at turn {number}, not {expected}: is this the latest copy of the game?"
                    ),
                );
                Err(Failure::invalid(problem, &ctx.origin))
            }
            _ => Ok(()),
        }
    }

    /// The player answers a record it answered already, with `sent`: the
    /// same turn typed again writes the same line again (the record or
    /// the reply message that was lost), byte for byte, and says so;
    /// anything else would fork the game and is refused.
    fn answer_again<G: Game>(
        &self,
        ctx: &Ctx<'_>,
        referee: Referee<G>,
        sent: &crate::wallet::Sent,
        wallet: Option<&Wallet>,
    ) -> Result<Exit, Failure> {
        let refuse = |typed: Option<&str>| {
            super::sent::answered_already(sent, typed, self.key.as_deref(), ctx)
        };
        let (Some(text), Some(line)) = (self.text.as_deref(), sent.text.as_deref()) else {
            return Err(refuse(None));
        };
        if self.dry_run {
            return Err(refuse(None));
        }
        if !self.same_turn(&referee, sent, wallet, ctx) {
            // The set-up's last line, which made its writer the first to
            // move: the turn typed goes on the message that holds it.
            let mut after = referee.clone();
            let first_mover =
                key_file::play_own_line(&mut after, line).filter(|p| after.moves_first(p.side));
            if let (Some(_), crate::record::LineKind::Setup) = (first_mover, sent.kind) {
                return Err(super::sent::first_turn_elsewhere(
                    sent,
                    text,
                    self.key.as_deref(),
                    ctx,
                ));
            }
            return Err(refuse(Some(text)));
        }
        let others = self.then_key_files()?;
        write_line_again(
            ctx,
            referee,
            sent,
            self.again(line, wallet, &others, Place::AsKept),
        )
    }

    /// The line `line` kept in the key file `wallet`, going out again
    /// (`others`: the `--then-key` files read) to `place`.
    fn again<'a>(
        &'a self,
        line: &'a str,
        wallet: Option<&'a Wallet>,
        others: &'a [(&'a Path, Wallet)],
        place: Place,
    ) -> Again<'a> {
        Again {
            line,
            reply: self.reply.as_ref(),
            key: self.key.as_deref(),
            wallet,
            others,
            format: self.format,
            place,
        }
    }

    /// The `--then-key` files given, read: on a line written again, each
    /// learns the name of the new message that carries its line.
    fn then_key_files(&self) -> Result<Vec<(&Path, Wallet)>, Failure> {
        self.then_key
            .iter()
            .map(|path| Ok((path.as_path(), read_wallet(path)?)))
            .collect()
    }

    /// Whether the turn typed is `audit`.
    fn audit(&self) -> bool {
        self.text.as_deref().is_some_and(typed_audit)
    }

    /// The claimed side's own line answers the claim made on it, and
    /// voids it (spec section 3.8): void it in `referee` when the turn
    /// typed, by the key file `wallet`'s side, is that line.
    fn void_claim_answered<G: Game>(&self, referee: &mut Referee<G>, wallet: Option<&Wallet>) {
        if let (Some(w), Some(text)) = (wallet, self.text.as_deref()) {
            referee.void_claim_answered(w.side(), Writes::Typed(text));
        }
    }

    /// The player's last line, `sent`, crossed a claim of its forfeit in
    /// the mail (this copy holds the claim, line `claim`, instead): the
    /// same turn typed again with `--reply` writes its message again, on
    /// the record it answered; anything else is refused (a second answer
    /// after the claim would fork the game).
    fn answer_past_claim<G: Game>(
        &self,
        ctx: &Ctx<'_>,
        sent: &crate::wallet::Sent,
        claim: (LineKind, u32),
        wallet: Option<&Wallet>,
    ) -> Result<Exit, Failure> {
        let claimant = claimant_of(ctx.record, claim);
        let refuse = |typed: Option<&str>| {
            super::sent::crossed_claim(sent, claimant, typed, self.key.as_deref(), ctx)
        };
        // With --reply, its message again; on a record file, the file
        // rewritten to hold the line in place of the claim.
        let (Some(text), Some(line), true, false) = (
            self.text.as_deref(),
            sent.text.as_deref(),
            self.reply.is_some() || !ctx.source.from_message(),
            self.dry_run,
        ) else {
            return Err(refuse(None));
        };
        let others = self.then_key_files()?;
        let place = Place::past_claim_unless_replying(self.reply.as_ref());
        let again = self.again(line, wallet, &others, place);
        write_past_claim::<G>(ctx, sent, claim, again, |referee, answered| {
            let mut referee = referee.clone();
            referee.set_today(self.date.after(referee.last_date()));
            if self.same_turn(&referee, sent, wallet, answered) {
                Ok(())
            } else {
                Err(refuse(Some(text)))
            }
        })
    }

    /// Whether the turn typed is the player's last line `sent` again, on
    /// `referee`, the record it answered: the same actions as written, or
    /// composed on a copy, the same first physical line (the line is
    /// written again from the key file, its own date kept).
    fn same_turn<G: Game>(
        &self,
        referee: &Referee<G>,
        sent: &crate::wallet::Sent,
        wallet: Option<&Wallet>,
        ctx: &Ctx<'_>,
    ) -> bool {
        let Some(text) = self.text.as_deref() else {
            return false;
        };
        key_file::typed_again(referee, sent, text, |trial| {
            self.void_claim_answered(trial, wallet);
            self.compose_typed(trial, text, wallet, ctx).ok()
        })
    }

    /// The record file ends with the player's last line, `sent`, typed
    /// again: `move --reply` writes its message again (the one that
    /// carried it was lost), the record as it stands.
    fn resend_from_record<G: Game>(
        &self,
        ctx: &Ctx<'_>,
        referee: &Referee<G>,
        sent: &crate::wallet::Sent,
        wallet: Option<&Wallet>,
    ) -> Result<Exit, Failure> {
        let (Some(reply), Some(key), Some(wallet), Some(line)) = (
            self.reply.as_ref(),
            self.key.as_deref(),
            wallet,
            sent.text.as_deref(),
        ) else {
            return Err(super::sent::answered_already(
                sent,
                None,
                self.key.as_deref(),
                ctx,
            ));
        };
        let writer = referee
            .header()
            .side_named::<G>(wallet.side())
            .ok_or_else(|| {
                Failure::usage(format!("{} is not a side of this game", wallet.side()))
            })?;
        let record = record::Splice::new().extracted(ctx.source, ctx.record);
        let others = self.then_key_files()?;
        resend_with_key((key, wallet), &others, sent, reply, || {
            super::mail::write_message(ctx, reply, referee, writer, line, &record)
        })?;
        out(&format!(
            "{line}your {} is this record's last line already: this is its message again, the same line{}\n{} is left as it was\n",
            sent.name(),
            sent.reply
                .as_deref()
                .map(|r| format!(" (first sent in {r})"))
                .unwrap_or_default(),
            ctx.origin
        ))?;
        send_if_asked(self.reply.as_ref(), self.format)?;
        Ok(Exit::Ok)
    }

    /// Why a message cannot end with `writer`'s line when `next`, another
    /// side of the same player, is due right after it
    /// ([`Referee::own_line_refused`]), with this command as typed and the
    /// `--then` to add, when it has none yet.
    fn own_line_refused<G: Game>(
        &self,
        referee: &Referee<G>,
        writer: Side,
        next: Side,
        ctx: &Ctx<'_>,
    ) -> String {
        let command = match (&self.text, self.then.is_empty()) {
            (Some(text), true) => {
                let hand = self
                    .hand_key
                    .as_deref()
                    .map(|p| super::sent::key_arg(Some(p)));
                let reply = self
                    .reply
                    .as_ref()
                    .map_or("OUT.eml".to_owned(), |r| r.output.display().to_string());
                Some(
                    Command::moves()
                        .on(&super::sent::shell_word(&ctx.origin))
                        .typed(text)
                        .key_file(&super::sent::key_arg(self.key.as_deref()))
                        .hand_key(hand)
                        .reply_to(&reply),
                )
            }
            _ => None,
        };
        referee.own_line_refused(writer, next, command)
    }

    /// Compose the typed turn `text` for the side to move.
    fn compose_typed<G: Game>(
        &self,
        referee: &mut Referee<G>,
        text: &str,
        wallet: Option<&Wallet>,
        ctx: &Ctx<'_>,
    ) -> Result<PlayedTurn<G>, Failure> {
        let hand = read_hand_key(self.hand_key.as_deref())?;
        referee
            .compose_typed(text, Keys::given(wallet, hand.as_ref()))
            .map_err(|e| typed_failure(e, self.key.as_deref(), ctx))
    }
}
/// The lines `move` composed, in order: the player's line, the audit it
/// carries, the `--then` lines after it, and what is said of them.
struct Composed<'k, G: Game> {
    /// The number of the player's line.
    number: u32,
    /// What the referee writes the typed line as, when not as typed.
    typed_as: Option<TypedAs>,
    played: PlayedTurn<G>,
    /// The audit the line carries (a line that ended the game with its
    /// own writer's audit due next).
    closing: Option<PlayedTurn<G>>,
    chained: Vec<Chained<'k, G>>,
    /// The record digest when play ended, if it has.
    ended: Option<Hash>,
    /// The claim the line voided, in words.
    voided: Option<String>,
}

impl<G: Game> Composed<'_, G> {
    /// The message's last line.
    fn last(&self) -> &PlayedTurn<G> {
        self.chained
            .last()
            .map(|c| c.closing.as_ref().unwrap_or(&c.played))
            .unwrap_or(self.closing.as_ref().unwrap_or(&self.played))
    }

    /// The side of the message's last line (a forfeit claim is its
    /// claimant's line).
    fn last_side(&self) -> Side {
        self.chained
            .last()
            .map_or(self.played.claimant.unwrap_or(self.played.side), |c| {
                c.played.side
            })
    }

    /// Each line with the audit it carries, as written (`written`), or as
    /// a dry run shows it, without its signatures (herald signs only the
    /// lines it writes, and the key file remembers).
    fn shown(&self, written: bool) -> Vec<String> {
        let one = |p: &PlayedTurn<G>| if written { p.line() } else { dry_run_line(p) };
        let with = |p: &PlayedTurn<G>, c: &Option<PlayedTurn<G>>| {
            one(p) + &c.as_ref().map(one).unwrap_or_default()
        };
        let mut parts = vec![with(&self.played, &self.closing)];
        parts.extend(self.chained.iter().map(|c| with(&c.played, &c.closing)));
        parts
    }
}

/// A `--then` line of `move` composed: its key file, the record digest
/// before it, the line and the audit it carries (a line that ends the
/// game with its own writer's audit due).
struct Chained<'a, G: Game> {
    key: ThenKey<'a>,
    between: Option<Hash>,
    /// What the referee wrote the typed line as, when not as typed
    /// (`--then pass` when the ally's audit is due).
    typed_as: Option<TypedAs>,
    played: PlayedTurn<G>,
    closing: Option<PlayedTurn<G>>,
}

impl RecordCommand for Move {
    /// A dry run rewrites nothing: the bytes read are not stamped.
    fn stamping(&self) -> super::files::Stamping {
        match self.dry_run {
            true => super::files::Stamping::Skip,
            false => super::files::Stamping::Stamp,
        }
    }

    fn run<G: Game>(self, ctx: &Ctx<'_>) -> Result<Exit, Failure> {
        self.refuse_unanswered_message(ctx)?;
        let key = self.key.as_deref();
        let (wallet, key_read) = match key.map(read_wallet_stamped).transpose()? {
            Some((wallet, stamp)) => (Some(wallet), Some(stamp)),
            None => (None, None),
        };
        let replayed = super::sent::replay_for_answer::<G>(ctx, wallet.as_ref(), key)?;
        match &replayed.crossed {
            Some(Crossed::ByClaim { sent, claim }) => {
                return self.answer_past_claim::<G>(ctx, sent, *claim, wallet.as_ref());
            }
            Some(crossed) => super::sent::note_crossed(crossed),
            None => {}
        }
        let mut referee = replayed.referee;
        referee.set_today(self.date.after(referee.last_date()));
        if let Some(sent) = replayed.answered {
            return self.answer_again(ctx, referee, &sent, wallet.as_ref());
        }
        let then_keys = self.read_then_keys(&referee, ctx)?;
        let closing_only = replayed.closing_only.as_ref();
        if let Some(sent) = self.lost_message(&referee, wallet.as_ref(), closing_only, ctx) {
            return self.resend_from_record(ctx, &referee, &sent.clone(), wallet.as_ref());
        }
        if let Some(sent) = closing_only.filter(|_| self.text.is_some() && !self.audit()) {
            // The player's closing line is written: from them only a
            // closing line may follow, or, while another side's claim
            // waits for its answer, what is due once it is answered.
            let own = wallet.as_ref().map(Wallet::side);
            let key = super::sent::key_arg(key);
            let refused = key_file::closing_written(&referee, sent, own, &key);
            return Err(super::sent::refused(refused, ctx));
        }
        let before = referee.digest().copied();
        let composed = self.compose(
            &mut referee,
            wallet.as_ref(),
            then_keys,
            replayed.ended,
            ctx,
        )?;
        let notes = self.notes(&referee, &composed, ctx)?;
        let written = !self.dry_run;
        let lines = composed.shown(written);
        if written {
            let writer = key.zip(wallet.as_ref()).map(|(path, wallet)| Writer {
                path,
                read: key_read.as_ref(),
                fresh: false,
                wallet,
            });
            self.write(ctx, &referee, &composed, lines.clone(), (writer, before))?;
        }
        self.print(ctx, &referee, &composed, &lines.concat(), notes)?;
        if written {
            send_if_asked(self.reply.as_ref(), self.format)?;
        }
        Ok(Exit::Ok)
    }
}

impl Move {
    /// A message is left as it was received: without `--reply` (or a dry
    /// run), the command that answers it, as typed (a turn, `audit`, a
    /// forfeit claim), with the reply.
    fn refuse_unanswered_message(&self, ctx: &Ctx<'_>) -> Result<(), Failure> {
        if self.reply.is_some() || self.dry_run {
            return Ok(());
        }
        let key = super::sent::key_arg(self.key.as_deref());
        let answer = match &self.text {
            Some(text) => Command::moves().typed(text),
            None => Command::moves().forfeit(),
        };
        refuse_message(ctx, answer.key_file(&key))
    }

    /// The key file of each `--then` line, one for each, read and refused
    /// as every key file refuses a copy it cannot answer; `None` for a
    /// `--then` without its `--then-key`, refused once its line is known,
    /// naming the key file it needs.
    fn read_then_keys<'a, G: Game>(
        &'a self,
        referee: &Referee<G>,
        ctx: &Ctx<'_>,
    ) -> Result<Vec<Option<ThenKey<'a>>>, Failure> {
        if self.then_key.len() > self.then.len() {
            return Err(Failure::usage(format!(
                "{} --then and {} --then-key: each --then line is written by the key file of its side, given as the --then-key after it (--then \"TURN\" --then-key castle3.key)",
                self.then.len(),
                self.then_key.len()
            )));
        }
        let mut then_keys = self
            .then_key
            .iter()
            .map(|path| ThenKey::read(path, referee, ctx).map(Some))
            .collect::<Result<Vec<_>, _>>()?;
        then_keys.resize_with(self.then.len(), || None);
        Ok(then_keys)
    }

    /// A record file that ends with the player's last line, the same
    /// line typed again with `--reply`: its message was lost, and is
    /// written again from the file ([`key_file::ends_with_sent`]).
    fn lost_message<'w, G: Game>(
        &self,
        referee: &Referee<G>,
        wallet: Option<&'w Wallet>,
        closing_only: Option<&Sent>,
        ctx: &Ctx<'_>,
    ) -> Option<&'w Sent> {
        let typed = self.text.as_deref()?;
        let asked = !ctx.source.from_message() && self.reply.is_some() && !self.dry_run;
        wallet.and_then(Wallet::sent).filter(|s| {
            asked && key_file::ends_with_sent(referee, s, typed, closing_only.is_some())
        })
    }

    /// Compose the player's line on `referee` (the claim it answers
    /// voided first, the record refused if it is not at the turn
    /// expected, or where its first line is uneven), the audit it carries,
    /// and the `--then` lines after it.
    fn compose<'k, G: Game>(
        &self,
        referee: &mut Referee<G>,
        wallet: Option<&Wallet>,
        then_keys: Vec<Option<ThenKey<'k>>>,
        ended: Option<Hash>,
        ctx: &Ctx<'_>,
    ) -> Result<Composed<'k, G>, Failure> {
        let key = self.key.as_deref();
        let voided_before = referee.voided_claims().len();
        // What the referee writes the typed line as, when not as typed
        // (`pass` when the audit is due): said so.
        let typed_as = self.text.as_deref().and_then(|t| referee.typed_as(t));
        self.void_claim_answered(referee, wallet);
        self.check_expected(referee, ctx)?;
        let mut uneven = referee.uneven_first_line(&FirstLineAsked {
            from_message: ctx.source.from_message(),
            no_commit: self.no_commit,
            typed: self.text.is_some(),
            key_file: wallet,
        });
        UnevenFirstLine::refuse_at(&mut uneven, RefusalDue::BeforeTheLine)
            .map_err(|e| compose_failure(e, key, ctx))?;
        let number = referee.next_turn();
        let played = match (&self.text, wallet) {
            (Some(text), _) => self.compose_typed(referee, text, wallet, ctx)?,
            (None, Some(wallet)) => referee
                .compose_forfeit(wallet)
                .map_err(|e| compose_failure(e, key, ctx))?,
            (None, None) => {
                return Err(Failure::usage(
                    "--forfeit: give --key, the claimant's key file",
                ))
            }
        };
        UnevenFirstLine::refuse_at(&mut uneven, RefusalDue::AfterTheLine)
            .map_err(|e| compose_failure(e, key, ctx))?;
        let ended = match ended {
            // This line ended the game.
            None if referee.phase() == Phase::Audit => referee.digest().copied(),
            ended => ended,
        };
        let mut composed = Composed {
            number,
            typed_as,
            closing: match wallet {
                Some(w) if referee.carries_audit(&played) => {
                    Some(self.compose_typed(referee, "audit", Some(w), ctx)?)
                }
                _ => None,
            },
            voided: referee.voided_note(voided_before, &played),
            played,
            chained: Vec::new(),
            ended,
        };
        self.compose_then(referee, wallet, then_keys, &mut composed, ctx)?;
        Ok(composed)
    }

    /// `--then`: the lines after the player's, each another side's of
    /// this player, by its own key file, in the same message (spec 3.7,
    /// "One player, several sides"), each with the audit it carries.
    fn compose_then<'k, G: Game>(
        &self,
        referee: &mut Referee<G>,
        wallet: Option<&Wallet>,
        then_keys: Vec<Option<ThenKey<'k>>>,
        composed: &mut Composed<'k, G>,
        ctx: &Ctx<'_>,
    ) -> Result<(), Failure> {
        let hand = read_hand_key(self.hand_key.as_deref())?;
        for (typed, then_key) in self.then.iter().zip(then_keys) {
            let (writer, writer_key) = match (composed.chained.last(), wallet) {
                (Some(c), _) => (c.played.side, &c.key.wallet),
                (None, Some(wallet)) => (composed.played.side, wallet),
                (None, None) => {
                    return Err(Failure::usage(
                        "--then: give --key, the key file of the first line",
                    ))
                }
            };
            let between = referee.digest().copied();
            let typed_as = referee.typed_as(typed);
            let p = super::chain::then_line(
                referee,
                writer,
                typed,
                then_key.as_ref().map(|k| (k.path, &k.wallet)),
                (writer_key, hand.as_ref()),
                ctx,
            )?;
            let Some(key) = then_key else {
                return Err(Failure::usage(
                    "--then: every --then line needs its --then-key",
                ));
            };
            if composed.ended.is_none() && referee.phase() == Phase::Audit {
                // This line ended the game.
                composed.ended = referee.digest().copied();
            }
            let closing = if referee.carries_audit(&p) {
                // Its hand's, if it plays from another side's: the
                // --hand-key given, else the key file of the line before.
                let own_hand = referee
                    .hand_key_file(p.side)
                    .and_then(|_| hand.as_ref().or(Some(writer_key)));
                Some(
                    referee
                        .compose_typed("audit", Keys::given(Some(&key.wallet), own_hand))
                        .map_err(|e| typed_failure(e, Some(key.path), ctx))?,
                )
            } else {
                None
            };
            composed.chained.push(Chained {
                key,
                between,
                typed_as,
                played: p,
                closing,
            });
        }
        Ok(())
    }

    /// What is said after the lines: the audit the player's line carries,
    /// each `--then` line, and, when another side of this player is due
    /// next with no `--then` to write it (the message would go to its
    /// writer alone: a line that put a castle out can make its ally's
    /// farewell line due, which the message before could not foresee),
    /// the `--then` to add; refused, writing nothing, with `--reply`
    /// (spec 3.7, "One player, several sides").
    fn notes<G: Game>(
        &self,
        referee: &Referee<G>,
        composed: &Composed<'_, G>,
        ctx: &Ctx<'_>,
    ) -> Result<String, Failure> {
        let side_name = composed.played.side.name::<G>();
        let mut notes = composed
            .closing
            .as_ref()
            .map(|c| {
                format!(
                    "the game ended on {side_name}'s own line, so {side_name}'s audit (turn {}) goes with it: the openings of what {side_name} still held\n",
                    c.number
                )
            })
            .unwrap_or_default();
        for c in &composed.chained {
            notes.push_str(&format!(
                "then {}'s {} {}, written with {}, in the same message\n",
                c.played.side.name::<G>(),
                if c.played.audit { "audit," } else { "line," },
                c.played.kind.named(c.played.number),
                c.key.path.display()
            ));
            if let Some(t) = c.typed_as {
                notes.push_str(&format!("{}\n", t.note()));
            }
        }
        let last_side = composed.last_side();
        if let Some(next) = referee.own_next(last_side) {
            let refusal = self.own_line_refused(referee, last_side, next, ctx);
            if self.reply.is_some() {
                return Err(Failure::invalid(
                    Problem::plain(
                        ErrorKind::Illegal,
                        format!("{refusal}; nothing was written"),
                    ),
                    &ctx.origin,
                ));
            }
            if self.format != Format::Json {
                notes.push_str(&format!("note: {refusal}\n"));
            }
        }
        Ok(notes)
    }

    /// Write the lines (`lines`, as [`Composed::shown`] gives them): the
    /// key files remember them (the player's, `writer`, with the record
    /// digest before the first line, and each `--then-key` file from its
    /// own first line on), then the record holds them (a message answered
    /// stays as it was received), then the reply carries them, from the
    /// writer (a forfeit is the claimant's message), each put back if a
    /// later one fails ([`Message::write`]).
    fn write<G: Game>(
        &self,
        ctx: &Ctx<'_>,
        referee: &Referee<G>,
        composed: &Composed<'_, G>,
        lines: Vec<String>,
        (writer, before): (Option<Writer<'_>>, Option<Hash>),
    ) -> Result<(), Failure> {
        let mut lines = lines.into_iter();
        let mut parts = vec![Part {
            by: writer,
            after: before,
            text: lines.next().unwrap_or_default(),
        }];
        parts.extend(composed.chained.iter().zip(lines).map(|(c, text)| Part {
            by: Some(Writer {
                path: c.key.path,
                read: Some(&c.key.stamp),
                fresh: false,
                wallet: &c.key.wallet,
            }),
            after: c.between,
            text,
        }));
        let message = Message {
            parts,
            last: composed.last(),
            reply: self.reply.as_ref().map(|r| r.output.as_path()),
            ended: composed.ended,
        };
        let text = message.text();
        // "*" while the game runs: a claim voided by this line takes back
        // the result it gave.
        let over = Some(referee.final_result().unwrap_or_else(|| "*".into()));
        let record = (self.reply.is_none() || !ctx.source.from_message())
            .then_some((ctx.path, || append_line(ctx, &text, over.as_deref())));
        let from = composed.played.claimant.unwrap_or(composed.played.side);
        let reply = self.reply.as_ref().map(|reply| {
            || super::mail::write_reply(ctx, reply, referee, from, &text, over.as_deref())
        });
        message.write(referee, record, reply)
    }

    /// Print the lines `line` and what is said of them (`notes`), as text
    /// or JSON.
    fn print<G: Game>(
        &self,
        ctx: &Ctx<'_>,
        referee: &Referee<G>,
        composed: &Composed<'_, G>,
        line: &str,
        notes: String,
    ) -> Result<(), Failure> {
        let written = !self.dry_run;
        let played = &composed.played;
        let summary = referee.summary().to_string();
        if self.format == Format::Json {
            return print_json(&JsonMove {
                schema: SCHEMA_VERSION,
                ok: true,
                turn: composed.number,
                side: played.side.name::<G>().into(),
                line: line.trim_end().into(),
                result: referee.result(),
                to_move: referee.side_due().map(|s| s.name::<G>().to_owned()),
                summary,
                written,
            });
        }
        let wrote = if written && self.reply.is_some() && ctx.source.from_message() {
            format!("{} is left as it was received\n", ctx.origin)
        } else if written {
            // A forfeit claimed during the set-up is a set-up line.
            let what = played.kind.named(played.number);
            format!("wrote {what} to {}\n", ctx.origin)
        } else {
            "dry run: nothing written\n".into()
        };
        out(&format!(
            "{line}{}{notes}{}{}{}{wrote}",
            composed
                .typed_as
                .as_ref()
                .map_or(String::new(), |t| format!("{}\n", t.note())),
            composed.voided.as_deref().unwrap_or_default(),
            fit(&summary, "  "),
            pending_text(referee),
        ))
    }
}
