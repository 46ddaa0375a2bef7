//! A record read by the player about to answer it, against what the
//! player's key file remembers of it (spec section 3.8): the last line
//! the player wrote and the record digest up to it. A record that does
//! not extend that line is refused, so a relayed copy whose earlier
//! lines were changed is caught by the player it wrongs, at once; the
//! very record the player answered already is known for what it is (a
//! second answer would fork the game).

use super::{
    replay_from_checked, replay_keeping, Checked, Keep, PlayedTurn, Referee, RefereeError, Said,
};
use crate::fairness::Hash;
use crate::game::{Game, Phase};
use crate::record::Record;
use crate::wallet::{Sent, Wallet};

/// A record replayed for a player about to answer it.
#[derive(Debug)]
pub struct Answering<G: Game> {
    /// The referee after the record's last line.
    pub referee: Referee<G>,
    /// The player's last line, when the record is exactly the one it
    /// answered (its digest is the one the line was written after): the
    /// player answered this record already.
    pub answered: Option<Sent>,
    /// The record digest when play ended (the audits due from there), if
    /// the rules ended the game in this record.
    pub ended: Option<Hash>,
    /// The player's last line was written once play ended in this very
    /// game (an audit, a claim in the audit): it may write another
    /// closing line here, never a turn (that would answer the game a
    /// second way).
    pub closing_only: Option<Sent>,
    /// The player's last line and a forfeit claim crossed in the mail:
    /// both answer the same record (spec section 3.8).
    pub crossed: Option<Crossed>,
}

/// A player's line and a forfeit claim written on the same record at
/// once, each by one side: neither sticks the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Crossed {
    /// The player's line (kept in the key file) crossed another side's
    /// claim of the player's forfeit, which this record holds instead
    /// (the claim is line `claim` of this record, right after the record
    /// the player answered). The player's line answers the record the
    /// claim was written on, so the claim never stood: the player writes
    /// nothing new here (a second answer, even the same turn after the
    /// claim, would fork the game), but sends its line again.
    ByClaim {
        /// The player's line.
        sent: Sent,
        /// The claim's kind and number, the first line this record holds
        /// after the record the player answered.
        claim: (crate::record::LineKind, u32),
    },
    /// The player's claim crossed its target's own answer, which this
    /// record holds instead: the claim never stood, and the game goes on
    /// from the answer.
    Answered(Sent),
    /// The player's claim crossed another side's claim of the same
    /// forfeit (three sides or more), which this record holds instead:
    /// that claim stands for both, and the game goes on from it.
    ClaimedAlready(Sent),
}

impl Sent {
    /// The side a claim line claims, if this line is a forfeit claim
    /// (`12. Blue: forfeit claimed by Red` claims Blue).
    fn claimed_side(&self) -> Option<&str> {
        let first = self.text.as_deref()?.lines().next()?;
        let (head, rest) = first.split_once(": ")?;
        rest.trim_start()
            .starts_with("forfeit claimed by ")
            .then(|| head.split_once(". ").map_or(head, |(_, side)| side))
    }
}

/// Why a record cannot be answered by the player whose key file
/// remembers `sent`.
#[derive(Debug)]
pub enum AnswerError {
    /// The record breaks a rule of the game or of the protocol.
    Record(RefereeError),
    /// The record does not extend the player's last line: the line, or
    /// one before it, was changed (`present`: the record holds a line of
    /// that number), or it was dropped.
    NotExtended {
        /// The player's last line (boxed: an error is passed around
        /// more often than made).
        sent: Box<Sent>,
        /// Whether the record holds a line of that kind and number.
        present: bool,
        /// The player's line this record asks for, when the player wrote
        /// it already (its number is not past `sent`'s): answering would
        /// write that line a second time, a fork.
        twice: Option<Twice>,
    },
}

/// A line the player wrote already, asked for again by a record that is
/// not the one the player answered with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Twice {
    /// The record asks for the very line the key file remembers, yet is
    /// another copy than the one it answered: the two copies differ in
    /// their last line (`last`, `turn 3 (Blue)`) or one before it, a side
    /// having written two different lines where the player answered one.
    Same {
        /// The record's last line, as a player names it.
        last: String,
    },
    /// The record asks for an earlier line of the player's (`due`,
    /// `turn 1`), which the player answered before its last line: an
    /// older copy.
    Earlier {
        /// The line due, as a player names it.
        due: String,
    },
}

impl From<RefereeError> for AnswerError {
    fn from(e: RefereeError) -> Self {
        AnswerError::Record(e)
    }
}

impl AnswerError {
    /// What is wrong, in the player's words (for `NotExtended`), `resend`
    /// saying how the player's last line goes out again (`resend 4.eml, or
    /// write it again with ...`): a line asked for twice is refused as
    /// the fork it would make.
    pub fn message(&self, resend: Said) -> Said {
        match self {
            AnswerError::Record(e) => Said::words(e.message.clone()),
            AnswerError::NotExtended {
                sent,
                twice: Some(Twice::Same { last }),
                ..
            } => {
                Said::words(format!(
                    "you already answered this turn: your {} answers another copy of this record, one that differs from this copy in its last line, {last}, or in one before it: a side wrote two different lines where you answered one (a fork, for instance a line written again with a key file restored from an older copy); a side answers a record once, so do not answer this copy: ",
                    sent.name()
                ))
                .then(resend)
                .and(", and tell the other players; nothing was written")
            }
            AnswerError::NotExtended {
                sent,
                twice: Some(Twice::Earlier { due }),
                ..
            } => {
                Said::words(format!(
                    "you already answered this turn: this copy asks for your {due}, which you answered already (your key file's last line is your {}, written after it): this copy is older than the record you answered, and another {due} would fork the game: ",
                    sent.name()
                ))
                .then(resend)
                .and("; nothing was written")
            }
            AnswerError::NotExtended {
                sent,
                present: true,
                ..
            } => Said::words(format!(
                "your {} was changed since you sent it: this copy differs from the record you wrote, in that line or one before it (compare the copies: herald check prints the digest of a signed one); nothing was written",
                sent.name()
            )),
            AnswerError::NotExtended {
                sent,
                present: false,
                ..
            } => Said::words(format!(
                "your {} is not in this record: it was dropped since you sent it, or this copy is older than the one you sent; nothing was written",
                sent.name()
            )),
        }
    }
}

/// Replay `record`, checking it against the last line `wallet`'s player
/// wrote (when the wallet is one of this game's): a record that holds
/// that line must hold it unchanged, and one that does not must be the
/// record it answered (then [`Answering::answered`]) or a later one
/// holding it. After a line written once play ended (an audit, a claim
/// in the audit), any record that passes through the digest at the end
/// of play is that game: the closing lines come in any order. `today`:
/// the reader's ([`Keep::today`]).
pub fn replay_for_answer<G: Game>(
    record: &Record<'_>,
    wallet: Option<&Wallet>,
    today: Option<crate::record::Day>,
) -> Result<Answering<G>, AnswerError> {
    let sent = wallet.and_then(Wallet::sent);
    let mut walk = Walk::default();
    let keep = Keep {
        digest: true,
        ..Keep::RULES
    }
    .on(today);
    let referee = replay_from_sent::<G>(record, keep, sent, |played, referee| {
        walk.note(played, referee, sent);
    })?;
    let ended = walk.ended;
    // The game whose play ended where the player's closing line says it
    // did, and is still ended.
    let audited_game = sent.is_some_and(|s| s.ended.is_some() && s.ended == ended);
    // A key from another game is refused by the referee, saying so.
    let ours = wallet.is_some_and(|w| w.chain() == referee.header().chain_id());
    let mut closing_only = None;
    let mut crossed = None;
    let answered = match sent.filter(|_| ours) {
        Some(sent)
            if walk.found.is_none()
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
        Some(sent) if audited_game => {
            closing_only = Some(sent.clone());
            None
        }
        Some(sent) if walk.found != Some(sent.digest) => {
            crossed = Some(walk.crossed(&referee, wallet, sent)?);
            None
        }
        _ => None,
    };
    Ok(Answering {
        referee,
        answered,
        ended,
        closing_only,
        crossed,
    })
}

/// What [`replay_for_answer`] notes of the record as it is replayed.
#[derive(Default)]
struct Walk {
    /// The record digest after the player's last line, if the record
    /// holds a line of its kind and number.
    found: Option<Hash>,
    /// The record digest when play ended (still ended).
    ended: Option<Hash>,
    /// Whether the record the player answered was passed.
    after_answered: bool,
    /// The line written right after the record the player answered: its
    /// side, whether it is a claim, its kind and number.
    next_line: Option<(crate::game::Side, bool, (crate::record::LineKind, u32))>,
    /// The record's last line: its kind, number and side.
    last: Option<(crate::record::LineKind, u32, crate::game::Side)>,
}

impl Walk {
    /// Note `played`, `referee` after it, against the player's last line
    /// `sent`.
    fn note<G: Game>(&mut self, played: &PlayedTurn<G>, referee: &Referee<G>, sent: Option<&Sent>) {
        let digest = referee.digest().copied();
        self.last = Some((played.kind, played.number, played.side));
        if let Some(sent) = sent {
            if played.kind == sent.kind && played.number == sent.number {
                self.found = digest;
            }
            if self.after_answered && self.next_line.is_none() {
                self.next_line = Some((
                    played.side,
                    played.claimant.is_some(),
                    (played.kind, played.number),
                ));
            }
            self.after_answered |= sent.after.is_some() && sent.after == digest;
        }
        match referee.phase() {
            Phase::Audit if self.ended.is_none() => self.ended = digest,
            // A claim voided by its target's own turn: play goes on.
            Phase::Setup | Phase::Play => self.ended = None,
            Phase::Audit | Phase::Over => {}
        }
    }

    /// The record does not hold the player's last line `sent` as written
    /// (nor is it the record `sent` answered): how the line crossed
    /// another in the mail, or, when it did not, the refusal.
    fn crossed<G: Game>(
        &self,
        referee: &Referee<G>,
        wallet: Option<&Wallet>,
        sent: &Sent,
    ) -> Result<Crossed, AnswerError> {
        let header = referee.header();
        let own = wallet.and_then(|w| header.side_named::<G>(w.side()));
        let named = |name: &str| header.side_named::<G>(name);
        match (self.next_line, sent.claimed_side().and_then(named)) {
            // My claim met its target's own line.
            (Some((side, false, _)), Some(target)) if side == target => {
                Ok(Crossed::Answered(sent.clone()))
            }
            // My claim met another side's claim of the same forfeit.
            (Some((side, true, _)), Some(target)) if side == target => {
                Ok(Crossed::ClaimedAlready(sent.clone()))
            }
            // My line met a claim of my forfeit, still open.
            (Some((side, true, claim)), None)
                if Some(side) == own && referee.open_claim().map(|(target, _)| target) == own =>
            {
                Ok(Crossed::ByClaim {
                    sent: sent.clone(),
                    claim,
                })
            }
            _ => Err(AnswerError::NotExtended {
                sent: Box::new(sent.clone()),
                present: self.found.is_some(),
                twice: asked_twice(referee, own, sent, self.last),
            }),
        }
    }
}

/// The player's line `referee`'s record asks for when the player wrote
/// it already (its side `own` is due, on a line whose number is not past
/// the player's last line `sent`), and the record does not hold `sent`:
/// a second answer, a fork. `last` is the record's last line.
fn asked_twice<G: Game>(
    referee: &Referee<G>,
    own: Option<crate::game::Side>,
    sent: &Sent,
    last: Option<(crate::record::LineKind, u32, crate::game::Side)>,
) -> Option<Twice> {
    use crate::record::LineKind;
    let due = referee.step_due()?;
    if Some(due.side) != own || sent.is_claim() {
        return None;
    }
    let (kind, number) = referee.next_line();
    let name = |kind: LineKind, number: u32| format!("{:#}", kind.named(number));
    // Set-up lines come before turns.
    let order = |kind: LineKind, number: u32| (kind == LineKind::Turn, number);
    if (kind, number) == (sent.kind, sent.number) {
        let last = match last {
            Some((kind, number, side)) => format!("{} ({})", name(kind, number), side.name::<G>()),
            None => "its header".to_owned(),
        };
        return Some(Twice::Same { last });
    }
    (order(kind, number) < order(sent.kind, sent.number)).then(|| Twice::Earlier {
        due: name(kind, number),
    })
}

/// Replay `record` as [`replay_keeping`] does, its Result tag checked;
/// with `sent`, the last line the player wrote, the signatures and share
/// proofs of the lines up to it are not verified again (the player
/// checked them before writing it: spec section 3.8) when the record's
/// digest after it is the one the key file remembers, or when the record
/// is the one it answered. Any other record is replayed whole, every
/// check made: `each` is then called again from its first line.
pub fn replay_from_sent<G: Game>(
    record: &Record<'_>,
    keep: Keep,
    sent: Option<&Sent>,
    mut each: impl FnMut(&PlayedTurn<G>, &Referee<G>),
) -> Result<Referee<G>, RefereeError> {
    if let Some(sent) = sent {
        // After a closing line, the game it closed was checked up to its
        // end, whatever closing lines came after.
        let checked = sent.ended.unwrap_or(sent.digest);
        if let Checked::Replayed(referee) =
            replay_from_checked::<G>(record, keep, checked, sent.after, &mut each)?
        {
            referee.check_result()?;
            return Ok(*referee);
        }
    }
    let referee = replay_keeping::<G>(record, keep, each)?;
    referee.check_result()?;
    Ok(referee)
}
