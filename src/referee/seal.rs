//! Sealed lines (spec section 3.8): each line of a side
//! with a `<Side>Key` tag carries that player's Ed25519 signature over the
//! game id, the line's kind, number, side and canonical text, and the
//! digest of the record before it. A forfeit is the claimant's line,
//! signed by the claimant.

use super::header::Seat;
use ed25519_dalek::VerifyingKey;

use super::deck::{first_bad, verify_batch, ShareCheck};
use super::{At, Ending, Line, LineError, Place, Referee, RefereeError};
use crate::fairness::{self, Hash, SealedKind};
use crate::game::Phase;
use crate::game::{Game, Side};
use crate::record::{LineKind, ProofKind, Span, Turn};

/// How a line is checked: a reader's line, or a line being composed
/// (its seal is added once its text is known).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum SealCheck {
    /// Check the signature the line carries, or that it needs none.
    Verify,
    /// The line composed, tried once before it is kept: no signature
    /// yet, everything else checked.
    Trial,
    /// A draft of a line being composed, to learn what it owes: no
    /// signature yet, and the shares it owes and its hand's leaving
    /// items not required (they are worked out from the draft).
    Draft,
}

impl SealCheck {
    /// Whether the line is a draft ([`SealCheck::Draft`]).
    pub(super) fn draft(self) -> bool {
        self == SealCheck::Draft
    }
}

/// A line's seal, checked: the bytes the record digest takes, the
/// signature, and the claimant of a forfeit.
pub(super) struct Seal {
    bytes: Vec<u8>,
    pub(super) sig: Option<[u8; 64]>,
    pub(super) claimant: Option<Side>,
}

/// A signature or a share's proof whose verification waits for the end
/// of a replay (or of the part of it read), where all are verified at
/// once; with the error to give if it fails.
#[derive(Clone, Debug)]
pub(super) struct DeferredSeal {
    check: Deferred,
    error: LineError,
    /// Where the error stands in the record's text, once the line played
    /// is known as a turn of it ([`Referee::place_deferred`]).
    span: Option<Span>,
}

/// What a deferred check verifies. Signatures, the common entry, stay
/// inline (as they did before shares joined them); a share's check is
/// boxed.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
enum Deferred {
    /// A line's signature by `key` over `message`.
    Seal {
        key: VerifyingKey,
        message: Vec<u8>,
        sig: [u8; 64],
    },
    /// A share's proof.
    Share(Box<ShareCheck>),
}

/// The checks deferred at once in a replay before they are verified: a
/// window, so that those waiting stay few however long the record.
const DEFERRED_WINDOW: usize = 256;

/// The most shares whose proofs one multiscalar multiplication checks
/// ([`verify_batch`]) when fewer than [`SHARES_LEAN`] wait: 4 points a
/// share, the base point and a key a side, at most 64 points for up to
/// 7 sides. Below 190 points curve25519-dalek multiplies by Straus's
/// method, which keeps a table of 1.5 KB for each point and grows their
/// list by doubling (the old list and the new held at once), so that
/// the shares of a whole window in one such batch held some 0.5 MB (the
/// peak of a long Battlegates `check`); batches of 14 hold at most 120
/// KB, under the size glibc's malloc maps on its own (128 KiB), and cost
/// 2.5% more instructions in `check` of a 300-turn Battlegates game
/// (issue 30, benches/RESULTS.md). `check` verifies the checks of each
/// part read (16 KiB, some 30 shares of a Battlegates game), so its
/// batches are these.
const SHARE_BATCH: usize = 14;

/// The lists a line's seal is made in, kept from line to line
/// ([`Referee::check_seal`] takes them, [`SealRoom::give_back`] returns
/// them): a line's canonical text and the bytes its seal and the record
/// digest cover. Nothing of a line stays in them.
#[derive(Debug, Default)]
pub(super) struct SealRoom {
    text: String,
    bytes: Vec<u8>,
}

impl Clone for SealRoom {
    /// An empty room: what a line left in it is never read again.
    fn clone(&self) -> Self {
        SealRoom::default()
    }
}

impl SealRoom {
    /// The bytes of a seal, once the record digest has taken them, kept
    /// for the next line.
    pub(super) fn give_back(&mut self, seal: Seal) {
        if seal.bytes.capacity() > self.bytes.capacity() {
            self.bytes = seal.bytes;
        }
    }
}

/// From this many shares waiting on (4 points a share and more: 190
/// points or more), curve25519-dalek multiplies by Pippenger's method,
/// which keeps some 224 bytes a point, not Straus's 1.5 KB, and costs
/// less a point the more points there are: the shares are then checked
/// in as few batches as [`SHARE_BATCH_MOST`] allows (a whole window's
/// shares of a replay read whole, as the batched floor of issue 30
/// does: 9% fewer instructions in a replay of 300 turns of Battlegates
/// than batches of 14, benches/RESULTS.md).
const SHARES_LEAN: usize = 48;

/// The most shares in one batch of [`SHARES_LEAN`] or more: at most
/// 1,024 points, so that curve25519-dalek's list of them (224 bytes a
/// point, grown by doubling) stays within 1,024 of them (229 KB).
const SHARE_BATCH_MOST: usize = 250;

/// The batches the proofs of `shares`, waiting, are verified in: batches
/// of [`SHARE_BATCH`] when fewer than [`SHARES_LEAN`] wait, else as few
/// batches of even size as [`SHARE_BATCH_MOST`] allows (each of 125
/// shares or more, when more than one).
fn share_batches<T>(shares: &[T]) -> std::slice::Chunks<'_, T> {
    let n = shares.len();
    let size = if n < SHARES_LEAN {
        SHARE_BATCH
    } else {
        n.div_ceil(n.div_ceil(SHARE_BATCH_MOST))
    };
    shares.chunks(size)
}

impl Seal {
    /// The seal of a bare line ([`Referee::is_bare`]): no bytes, no
    /// signature, no claimant.
    pub(super) const BARE: Seal = Seal {
        bytes: Vec::new(),
        sig: None,
        claimant: None,
    };

    /// The bytes the record digest takes.
    #[cfg(test)]
    pub(super) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The record digest once this line is added to a record whose
    /// digest is `before`.
    pub(super) fn digest_after(&self, before: &Hash) -> Hash {
        fairness::record_step(before, &self.bytes, self.sig.as_ref())
    }
}

/// A forfeit recorded in the game: `side` lost by forfeit on `turn`, as
/// `claimant` claimed and signed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Forfeit {
    /// The turn of the forfeit line.
    pub turn: u32,
    /// The side that forfeited.
    pub side: Side,
    /// The side that claimed it.
    pub claimant: Side,
    /// The kind of the forfeit line: a set-up line (`S3`) or a turn.
    pub line: LineKind,
    /// Whether the claim was made during the audit: the side's refusal
    /// to open its values.
    pub audit: bool,
}

impl Forfeit {
    /// The line of the claim: `turn 12`, `S3`.
    pub fn line_name(&self) -> String {
        self.line.named(self.turn).to_string()
    }

    /// In words: `North forfeited (claimed by South on turn 12)`.
    pub fn words<G: Game>(&self) -> String {
        format!(
            "{} forfeited{} (claimed by {} on {})",
            self.side.name::<G>(),
            if self.audit { " its audit" } else { "" },
            self.claimant.name::<G>(),
            self.line_name()
        )
    }
}

impl From<LineKind> for SealedKind {
    fn from(kind: LineKind) -> Self {
        match kind {
            LineKind::Setup => SealedKind::Setup,
            LineKind::Turn => SealedKind::Turn,
        }
    }
}

impl<G: Game> Referee<G> {
    /// The bytes of `line`, of `side`, that its seal and the record
    /// digest cover, as line `(kind, number)` of the record: the one
    /// making of them, for a line read ([`Referee::check_seal`], in the
    /// referee's room) and a line composed (`seal_tried`, after the line
    /// was tried).
    pub(super) fn sealed_bytes_as(
        line: &Line<'_>,
        side: Side,
        claimant: Option<Side>,
        (kind, number): (LineKind, u32),
    ) -> Vec<u8> {
        let mut room = SealRoom::default();
        Self::sealed_bytes_in(line, side, claimant, (kind, number), &mut room)
    }

    /// [`Referee::sealed_bytes_as`], made in the lists of `room` (its
    /// list of bytes taken, its text's kept for the next line).
    fn sealed_bytes_in(
        line: &Line<'_>,
        side: Side,
        claimant: Option<Side>,
        (kind, number): (LineKind, u32),
        room: &mut SealRoom,
    ) -> Vec<u8> {
        room.text.clear();
        line.sealed_text_into(claimant.map(|c| c.name::<G>()), &mut room.text);
        let mut bytes = std::mem::take(&mut room.bytes);
        fairness::line_bytes_into(
            kind.into(),
            number,
            side.name::<G>(),
            &room.text,
            &mut bytes,
        );
        bytes
    }

    /// The message the signature of a line with these bytes is over, as
    /// the next line of this record.
    pub(super) fn seal_message(&self, bytes: &[u8]) -> Vec<u8> {
        self.seal_message_after(bytes, &self.digest)
    }

    /// The message the signature of a line with these bytes is over, as
    /// the line after a record whose digest is `digest`.
    pub(super) fn seal_message_after(&self, bytes: &[u8], digest: &Hash) -> Vec<u8> {
        fairness::seal_message(self.header.game_id(), bytes, digest)
    }

    /// The claimant of a forfeit line: a side of the game, not the side
    /// that forfeits, with a signing key to claim it with.
    fn claimant(&self, line: &Line<'_>, side: Side, at: At<'_>) -> Result<Option<Side>, LineError> {
        if line.ending != Ending::Forfeit {
            return Ok(None);
        }
        let name = line.claimant.unwrap_or_default();
        let Some(claimant) = self.header.side_named::<G>(name) else {
            return Err(at.record(
                Place::End,
                format!(
                    "unknown side `{name}` claims this forfeit: the sides of this game are {}",
                    self.header.side_list::<G>()
                ),
            ));
        };
        // Keys before turn 1 (protocol 3): nothing is due of anyone that
        // a claim could take, until every side is in.
        if let Some(why) = self.no_claim_before_keys() {
            return Err(at.illegal(Place::End, Some("forfeit"), why));
        }
        let claimant_name = claimant.name::<G>();
        if claimant == side {
            return Err(at.illegal(
                Place::End,
                Some("forfeit"),
                format!("{claimant_name} cannot claim its own forfeit: a player who gives up resigns, with its reveal"),
            ));
        }
        if let Some(why) = self.claimant_out(claimant) {
            return Err(at.illegal(Place::End, Some("forfeit"), why));
        }
        if self.header.key(claimant).is_none() {
            return Err(at.record(
                Place::End,
                format!("a forfeit is claimed with the claimant's signature, and {claimant_name} has no {claimant_name}Key tag ({})", self.keygen_hint(claimant)),
            ));
        }
        // A side whose key is not in the game has not joined it: it owes
        // nothing it could forfeit (the game waits for its key, or is
        // started again with another player).
        if self.header.key(side).is_none() {
            let name = side.name::<G>();
            return Err(at.illegal(
                Place::End,
                Some("forfeit"),
                format!("{name} has not joined this game (no {name}Key tag): a forfeit is claimed only of a side whose key is in the game; until {name}'s key comes, the game has not begun for {name} (start a new game with another player if it never comes)"),
            ));
        }
        Ok(Some(claimant))
    }

    /// Why `claimant` may claim nothing, if it is out of the game (spec
    /// section 3.8): a side that lost by forfeit claims nothing, ever (a
    /// walker-away never turns its loss into a draw or a win by claiming
    /// back); in play, neither does a side the rules put out (it resigned
    /// or was eliminated): the game goes on among those still in. In the
    /// audit a side that lost on the board or by its own resignation may
    /// still claim a missing audit (which never makes it the winner).
    pub(super) fn claimant_out(&self, claimant: Side) -> Option<String> {
        let name = claimant.name::<G>();
        if let Some(f) = self.forfeits.iter().find(|f| f.side == claimant) {
            return Some(format!(
                "{name} is out of the game: {}; a side that lost by forfeit claims nothing (its own audit, if due, is all it may still write: herald move --key)",
                f.words::<G>()
            ));
        }
        if self.phase() == Phase::Play && !G::takes_turns(&self.state, claimant) {
            return Some(format!(
                "{name} is out of the game (it resigned or was eliminated): only a side still playing claims a forfeit in play; the others go on without {name} (herald check RECORD names who is due)"
            ));
        }
        None
    }

    /// Why no forfeit can be claimed now, if keys are due before turn 1
    /// (protocol 3): nothing is owed then that a claim could take.
    pub(super) fn no_claim_before_keys(&self) -> Option<String> {
        if self.keys_due().is_empty() {
            return None;
        }
        Some(format!(
            "no forfeit can be claimed before every key is in: {} (a side that never adds its key never began the game)",
            self.step_due().map_or_else(String::new, |d| d.text.to_string())
        ))
    }

    /// Whether `line` of side `seat` is bare: no proof items, not a
    /// forfeit, its side with neither a commitment nor a signing key, and
    /// no record digest kept. Its proofs, reveal and seal then pass their
    /// checks ([`Referee::check_proofs`], [`Referee::check_reveal`],
    /// [`Referee::check_seal`]) with [`Seal::BARE`], so these are skipped.
    pub(super) fn is_bare(&self, line: &Line<'_>, seat: Seat) -> bool {
        line.proofs.is_empty()
            && line.ending != Ending::Forfeit
            && !self.keep.digest
            && !self.ledger.is_committed(seat)
            && self.header.key_at(seat).is_none()
    }

    /// Whether `line` of side `seat` carries a reveal and no other proof,
    /// is not a forfeit, its side has no signing key and no record digest
    /// is kept: as a committed side's line most often is. Its proofs and
    /// seal then pass their checks ([`Referee::check_proofs`],
    /// [`Referee::check_seal`]) with [`Seal::BARE`], so these are skipped;
    /// its reveal is checked.
    pub(super) fn reveals_only(&self, line: &Line<'_>, seat: Seat) -> bool {
        matches!(line.proofs[..], [ProofKind::Reveal(_)])
            && line.ending != Ending::Forfeit
            && !self.keep.digest
            && self.header.key_at(seat).is_none()
    }

    /// Check the seal of `line` (spec section 3.8): the signature of its
    /// signer (the side, or the claimant of a forfeit) when the signer has
    /// a key, none otherwise. A signature whose verification is deferred
    /// to the end of the replay joins those waiting.
    pub(super) fn check_seal(
        &mut self,
        line: &Line<'_>,
        side: Side,
        at: At<'_>,
        check: SealCheck,
    ) -> Result<Seal, LineError> {
        let claimant = self.claimant(line, side, at)?;
        // The bytes feed the digest and the signature, which a side with
        // a Key tag needs (the digest is then always kept).
        let bytes = if self.keep.digest {
            let next = self.next_line();
            Self::sealed_bytes_in(line, side, claimant, next, &mut self.seal_room)
        } else {
            Vec::new()
        };
        let signer = claimant.unwrap_or(side);
        let name = signer.name::<G>();
        let sig = line.sig();
        let seal = Seal {
            bytes,
            sig: sig.map(|(_, s)| s),
            claimant,
        };
        match (self.header.key(signer), sig) {
            _ if check != SealCheck::Verify => Ok(seal),
            (None, None) => Ok(seal),
            (None, Some((k, _))) => Err(at.record(
                Place::Proof(k),
                format!("{name} has no signing key in the header, so its lines carry no signature"),
            )),
            (Some(_), None) => Err(at.record(
                Place::Line,
                format!("{name} has a {name}Key tag, so every {name} line carries {name}'s signature (herald move --key)"),
            )),
            // Verified by this reader before: the digest shows it (no
            // message made, no error written for nobody).
            (Some(_), Some(_)) if self.checked_to.is_some() => Ok(seal),
            (Some(key), Some((k, s))) => {
                let message = self.seal_message(&seal.bytes);
                let error = at.record(
                    Place::Proof(k),
                    format!("{name}'s signature does not match this line here: the line, or a line before it, was altered, dropped, inserted or moved since {name} signed it"),
                );
                if let Some(deferred) = self.deferred.as_mut() {
                    deferred.push(DeferredSeal {
                        check: Deferred::Seal {
                            key: *key,
                            message,
                            sig: s,
                        },
                        error,
                        span: None,
                    });
                    Ok(seal)
                } else if fairness::seal_verifies(key, &message, &s) {
                    Ok(seal)
                } else {
                    Err(error)
                }
            }
        }
    }

    /// The shares of the line just played (or refused) whose proofs wait:
    /// they join the checks deferred, after the line's seal, each with
    /// the error it gives should it fail.
    pub(super) fn defer_share_checks(&mut self, at: At<'_>) {
        let checks = std::mem::take(&mut self.share_checks);
        let Some(deferred) = self.deferred.as_mut() else {
            return;
        };
        if self.checked_to.is_some() {
            // Verified by this reader before: the digest shows it.
            return;
        }
        for (k, check) in checks {
            deferred.push(DeferredSeal {
                error: at.record(Place::Proof(k), check.error().to_string()),
                check: Deferred::Share(Box::new(check)),
                span: None,
            });
        }
    }

    /// From now on, verify signatures at the end of the replay, all at
    /// once ([`Referee::verify_deferred`]), instead of line by line.
    pub(super) fn defer_seals(&mut self) {
        self.deferred = Some(Vec::new());
    }

    /// Note where the checks of the line just played (or refused),
    /// `turn` of the record, stand, for their errors should they fail.
    pub(super) fn place_deferred(&mut self, turn: &Turn<'_>) {
        for check in self.deferred.iter_mut().flatten().rev() {
            if check.span.is_some() {
                break;
            }
            check.span = Some(check.error.span_in(turn));
        }
    }

    /// Whether so many checks wait that they are verified before the next
    /// line.
    pub(super) fn deferred_full(&self) -> bool {
        self.deferred
            .as_ref()
            .is_some_and(|d| d.len() >= DEFERRED_WINDOW)
    }

    /// The first deferred check that does not verify, placed in the
    /// record: the signatures checked one by one in order
    /// (`verify_strict`), the shares' proofs by halving their batch.
    pub(super) fn first_broken_seal(&self) -> Option<RefereeError> {
        let deferred = self.deferred.as_ref()?;
        let seal = deferred.iter().position(|d| match &d.check {
            Deferred::Seal { key, message, sig } => !fairness::seal_verifies(key, message, sig),
            Deferred::Share(_) => false,
        });
        let (at, shares): (Vec<usize>, Vec<&ShareCheck>) = deferred
            .iter()
            .enumerate()
            .filter_map(|(i, d)| match &d.check {
                Deferred::Share(c) => Some((i, &**c)),
                Deferred::Seal { .. } => None,
            })
            .unzip();
        let share = if shares.is_empty() {
            None
        } else {
            first_bad(self.header.game_id(), &shares).map(|k| at[k])
        };
        let first = match (seal, share) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        let broken = &deferred[first];
        let error = broken.error.clone();
        Some(match broken.span {
            Some(span) => error.at(span),
            None => RefereeError {
                span: None,
                ..error.at(Span::default())
            },
        })
    }

    /// Verify every deferred check at once (a batch); if any fails,
    /// name the first that does. Lines are verified one by one again
    /// from then on.
    pub(super) fn verify_deferred(&mut self) -> Result<(), RefereeError> {
        let verified = self.verify_deferred_so_far();
        self.deferred = None;
        verified
    }

    /// Verify the checks deferred so far at once (a batch of signatures,
    /// a batch of shares' proofs), and go on deferring: a record read
    /// part by part is verified a part at a time, so that the checks
    /// waiting stay few. If any fails, the first that does is named.
    pub(super) fn verify_deferred_so_far(&mut self) -> Result<(), RefereeError> {
        let Some(deferred) = self.deferred.as_ref() else {
            return Ok(());
        };
        let mut keys: Vec<VerifyingKey> = Vec::new();
        let mut messages: Vec<&[u8]> = Vec::new();
        let mut sigs: Vec<[u8; 64]> = Vec::new();
        let mut shares: Vec<&ShareCheck> = Vec::new();
        for d in deferred {
            match &d.check {
                Deferred::Seal { key, message, sig } => {
                    keys.push(*key);
                    messages.push(message);
                    sigs.push(*sig);
                }
                Deferred::Share(c) => shares.push(c),
            }
        }
        let seals_ok = keys.is_empty() || fairness::seals_verify(&keys, &messages, &sigs);
        // A record without shares never works out its game id here.
        let shares_ok = shares.is_empty()
            || share_batches(&shares).all(|batch| verify_batch(self.header.game_id(), batch));
        let broken = if seals_ok && shares_ok {
            None
        } else {
            self.first_broken_seal()
        };
        if let Some(deferred) = self.deferred.as_mut() {
            deferred.clear();
        }
        broken.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The batch sizes a number of shares waiting is verified in.
    fn sizes(n: usize) -> Vec<usize> {
        share_batches(&vec![(); n]).map(<[()]>::len).collect()
    }

    #[test]
    fn shares_are_batched_by_14_under_48_and_in_as_few_batches_as_250_allow_from_48_on() {
        assert_eq!(sizes(0), Vec::<usize>::new());
        assert_eq!(sizes(1), [1]);
        assert_eq!(sizes(29), [14, 14, 1]);
        assert_eq!(sizes(47), [14, 14, 14, 5]);
        assert_eq!(sizes(48), [48]);
        assert_eq!(sizes(170), [170]);
        assert_eq!(sizes(250), [250]);
        assert_eq!(sizes(251), [126, 125]);
        assert_eq!(sizes(258), [129, 129]);
        assert_eq!(sizes(1000), [250; 4]);
        // Every share is in one batch, in order; a large batch is at
        // most 1,024 points with up to 7 sides' keys and the base point.
        for n in 0..2000 {
            let all = sizes(n);
            assert_eq!(all.iter().sum::<usize>(), n);
            assert!(all.iter().all(|&k| 4 * k + 8 <= 1024), "{n}: {all:?}");
            assert!(
                n < SHARES_LEAN || all.iter().all(|&k| k >= SHARES_LEAN),
                "{n}: {all:?}"
            );
        }
    }
}
