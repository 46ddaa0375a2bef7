//! The referee: owns every rule of the line protocol. It replays a record
//! through a game engine, checks the header, turn order, reveals and
//! recorded chance, and derives every chance value from the players'
//! commitments (spec section 3). Generic over [`Game`]; no I/O.
//!
//! - [`header`]: the header read and checked, written back canonically;
//! - [`line`]: a line as the referee plays it, and a played turn;
//! - [`ledger`]: each side's hash chain, what it has revealed;
//! - [`hidden`]: each side's hidden values: commitments, set-up steps,
//!   the openings the rules demand, the audit;
//! - [`chance`]: turn-start chance, settled events, recorded facts;
//! - [`deck`]: hidden hands from a shared deck (mental poker): card keys,
//!   passes, decryption shares, the audit of the passes;
//! - [`compose`]: a player's next line made from their choice and wallet,
//!   the one way `move`, `legal` and self-play write or preview a line;
//! - [`typed`]: a line from what a player typed (`move`);
//! - [`error`]: problems placed in a line or in the record.

pub mod answer;
mod cards;
pub mod chance;
pub mod command;
pub mod compose;
pub mod deck;
mod draw;
pub mod error;
mod farewell;
pub mod header;
mod hidden;
mod hints;
pub mod key_file;
mod ledger;
pub mod line;
pub mod look;
mod plain;
mod players;
mod seal;
mod table;
pub mod typed;
pub mod writer;

/// The side the set-up is due from before `S1` is written: the first; under
/// protocol 3 the first side with its key (the creator's), which begins it.
fn setup_start(header: &Header) -> Seat {
    if !header.protocol().keys_join_late() {
        return header.first_seat();
    }
    header
        .seated()
        .find(|&(_, side)| header.commit(side).is_some())
        .map_or(header.first_seat(), |(seat, _)| seat)
}

#[cfg(test)]
mod cards_tests;
#[cfg(test)]
mod hidden_tests;

pub use crate::record::stream::Reread;
pub use chance::{ChanceEvent, ChanceLog, PendingEvent};
pub use command::{Command, Said, Writing};
pub use compose::{
    ComposeError, FirstLineAsked, HandKey, Keys, Preview, RefusalDue, UnevenFirstLine,
};
pub use draw::{Agreement, Offer};
pub use error::{ErrorKind, LineError, Place, RefereeError};
pub use header::{contact_fault, game_tag, result_text, Header, Seat};
pub use hidden::SetupStep;
use line::LineRoom;
pub use line::{Ending, Entry, Line, PlayedTurn, Shown};
pub use look::{HandCard, KeyTags, KeylessCopy, KeylessWhen, ListedAfter, Look, Stage};
pub use seal::Forfeit;
pub use typed::{TypedAs, TypedError};
pub use writer::Writes;

use crate::fairness::{Hash, CHAIN_LENGTH};
use crate::game::{Demand, Game, Illegal, Outcome, Phase, Side, Team};
use crate::record::{self, LineKind, ProofKind, Record, Turn};
use chance::{check_facts, no_commitments, Lookahead, TurnChance};
use hidden::Hidden;
use ledger::{Ledger, RevealFault};
use seal::{Seal, SealCheck};

/// A game being refereed: the position after the lines played so far and
/// everything needed to check the next one.
#[derive(Debug)]
pub struct Referee<G: Game> {
    header: Header,
    /// The position (boxed: a turn is played in a copy, `spare`, which
    /// then takes its place, so the position is copied once a turn).
    state: Box<G::State>,
    /// The box of the position before the last turn, to play the next
    /// one in.
    spare: Option<Box<G::State>>,
    turns: u32,
    ledger: Ledger,
    hidden: Hidden,
    /// Set-up lines played.
    setup_lines: u32,
    chance: Vec<ChanceEvent>,
    /// An empty list of chance events with room, kept from turn to turn:
    /// a replay's turn played takes it for its events and gives back the
    /// list of the turn before ([`Referee::play_checked`]).
    chance_room: Vec<ChanceEvent>,
    /// The turn and side that declared the pending event, if one is pending.
    declared: Option<(u32, Side)>,
    /// The digest of the record so far (spec section 3.8).
    digest: Hash,
    /// The forfeits recorded, in order.
    forfeits: Vec<Forfeit>,
    /// Signatures waiting to be verified at once at the end of a replay
    /// (`None`: each is verified as its line is played).
    deferred: Option<Vec<seal::DeferredSeal>>,
    /// The record digest after the last line already checked by whoever
    /// replays the record (the one its key file remembers, spec section
    /// 3.8), until the record's digest reaches it: the signatures and
    /// share proofs of the lines before are not verified
    /// ([`replay_from_checked`]).
    checked_to: Option<Hash>,
    /// The shares of the line being played whose proofs wait for a batch
    /// (by proof item), when checks are deferred: moved into `deferred`
    /// as the line ends, played or not.
    share_checks: Vec<(usize, deck::ShareCheck)>,
    /// Room kept from line to line for a line's canonical text and the
    /// bytes its seal and the record digest cover
    /// ([`Referee::check_seal`]): a replay makes neither anew a line.
    seal_room: seal::SealRoom,
    /// The cards: the shared deck of hidden hands in a game that has
    /// one, the hands and their holders ([`Game::hand_holder`]), the
    /// turn the deck broke, the farewell lines owed (spec section 3.9).
    table: table::Table,
    /// In a game with a set-up, the first side without a Commit tag: its
    /// key is due before any line, and no line can come (tags are never
    /// added after one).
    keyless: Option<Seat>,
    /// What is kept for the reader beyond what the rules need.
    keep: Keep,
    /// The side that walked away during the set-up, by a forfeit another
    /// player claimed: the game is over.
    walked_away: Option<Seat>,
    /// The forfeit that decided the game, where one did.
    decided_by: Option<Forfeit>,
    /// The result a forfeit claimed in play gave at once, where play
    /// could not go on without the claimed side (its hand's deck shares,
    /// which no other side can write): the sides still in win together
    /// (spec section 3.8, "A forfeit with a shared deck").
    stranded: Option<Outcome>,
    /// The last line, if it was a claim: the game as it stood before it,
    /// for the claimed side's own next line, which voids it.
    claim: Option<Box<Claim<G>>>,
    /// The claims voided by their target's own next line, in order.
    voided: Vec<Forfeit>,
    /// The date of the last dated line (spec section 3.8).
    last_date: Option<record::Day>,
    /// The day a line composed now is dated, given by the caller (the
    /// CLI reads the clock; the referee never does).
    today: Option<record::Day>,
    /// The draw offered and not yet accepted by all, if one stands.
    offer: Option<draw::Offer>,
    /// The draw agreed, once the game ended in one.
    agreed: Option<draw::Agreement>,
    /// The offer the last line let lapse (its side and turn), if it did.
    lapsed: Option<(Seat, u32)>,
}

/// A claim that its target may still answer ([`Referee::void_claim`]).
#[derive(Debug)]
struct Claim<G: Game> {
    /// The claimed side.
    target: Seat,
    /// The phase the claim was made in.
    phase: Phase,
    /// The claim itself.
    forfeit: Forfeit,
    /// The game before the claim.
    before: Referee<G>,
}

impl<G: Game> Clone for Claim<G> {
    fn clone(&self) -> Self {
        Claim {
            target: self.target,
            phase: self.phase,
            forfeit: self.forfeit,
            before: self.before.clone(),
        }
    }
}

/// The step due in a game ([`Referee::step_due`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepDue {
    /// Whose step it is.
    pub side: Side,
    /// The line it writes: `S2`, `turn 14`.
    pub line: String,
    /// What the step writes.
    pub step: Step,
    /// The step in words, with the command that takes it.
    pub text: Said,
}

/// What a step due writes: a key, a set-up line, a turn, a farewell line
/// or an audit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    /// A side's key (`herald keygen`), before the set-up or turn 1.
    Keygen,
    /// A set-up line: commitments, openings or shares.
    Setup(SetupStep),
    /// A turn.
    Turn,
    /// A farewell line (spec section 3.9).
    Farewell,
    /// A closing line of openings.
    Audit,
}

impl Step {
    /// The step's name in JSON: `keygen`, `commit`, `open`, `shares`,
    /// `turn`, `farewell` or `audit`.
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Keygen => "keygen",
            Step::Setup(step) => step.as_str(),
            Step::Turn => "turn",
            Step::Farewell => "farewell",
            Step::Audit => "audit",
        }
    }
}

/// What a referee keeps for its reader beyond what the rules need: a
/// reader that does not print the digest or compare positions skips the
/// work (two SHA-256 blocks a line, a copy of the position a turn).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Keep {
    /// The record digest (spec section 3.8), [`Referee::digest`]: `check`
    /// prints it, a key file remembers it. Kept whatever this says when a
    /// side has a Key tag: its seals are over it.
    pub digest: bool,
    /// Each played turn's position before its first action,
    /// [`PlayedTurn::before`].
    pub before: bool,
    /// Every chance value derived, [`Referee::chance`] (`fate` lists
    /// them): a list as long as the game, which `check` does without.
    pub chance: bool,
    /// The reader's today (the CLI reads its clock; the referee never
    /// does): a claim, or a line that lets an open claim stand, dated
    /// more than a day after it is refused as a line from the future
    /// (spec section 3.8). `None`: no clock, no such check.
    pub today: Option<record::Day>,
}

impl Keep {
    /// Everything: the digest, each turn's position before it and the
    /// chance values.
    pub const ALL: Keep = Keep {
        digest: true,
        before: true,
        chance: true,
        today: None,
    };
    /// Only what the rules need (and the digest when a side signs).
    pub const RULES: Keep = Keep {
        digest: false,
        before: false,
        chance: false,
        today: None,
    };

    /// This, read on `today` (the reader's clock, if it has one).
    pub fn on(self, today: Option<record::Day>) -> Keep {
        Keep { today, ..self }
    }
}

impl<G: Game> Clone for Referee<G> {
    /// A copy of the game, which verifies every line it plays (it has
    /// no record digest checked before), with empty rooms to play in.
    fn clone(&self) -> Self {
        Referee {
            header: self.header.clone(),
            state: self.state.clone(),
            spare: None,
            turns: self.turns,
            ledger: self.ledger.clone(),
            hidden: self.hidden.clone(),
            setup_lines: self.setup_lines,
            chance: self.chance.clone(),
            chance_room: Vec::new(),
            declared: self.declared,
            digest: self.digest,
            forfeits: self.forfeits.clone(),
            deferred: self.deferred.clone(),
            checked_to: None,
            share_checks: Vec::new(),
            seal_room: seal::SealRoom::default(),
            keep: self.keep,
            table: self.table.clone(),
            keyless: self.keyless,
            walked_away: self.walked_away,
            decided_by: self.decided_by,
            stranded: self.stranded,
            claim: self.claim.clone(),
            voided: self.voided.clone(),
            last_date: self.last_date,
            today: self.today,
            offer: self.offer.clone(),
            agreed: self.agreed.clone(),
            lapsed: self.lapsed,
        }
    }
}

/// What a line may change in the game, saved before the line is tried
/// on the game itself ([`Referee::try_line`]): an undo log that
/// [`Referee::drop_tried`] puts back and [`Referee::keep_tried`] lets
/// go. A line never changes the header, what is kept for the reader or
/// the day; the lists a line only adds to (the chance values, the seals
/// and share proofs waiting) are cut back to their length. A claim
/// standing is saved whole (its target's line puts back the game before
/// it, [`Referee::void_claim`]); there is none on most lines.
struct Undo<G: Game> {
    state: Box<G::State>,
    turns: u32,
    ledger: Ledger,
    hidden: Hidden,
    setup_lines: u32,
    chance: usize,
    declared: Option<(u32, Side)>,
    digest: Hash,
    forfeits: Vec<Forfeit>,
    deferred: Option<usize>,
    checked_to: Option<Hash>,
    share_checks: usize,
    table: table::Table,
    keyless: Option<Seat>,
    walked_away: Option<Seat>,
    decided_by: Option<Forfeit>,
    claim: Option<Box<Claim<G>>>,
    voided: Vec<Forfeit>,
    last_date: Option<record::Day>,
    offer: Option<draw::Offer>,
    agreed: Option<draw::Agreement>,
    lapsed: Option<(Seat, u32)>,
}

impl<G: Game> Referee<G> {
    /// Try `line` on the game itself (checked as `check` says): played,
    /// it stands until the caller keeps it ([`Referee::keep_tried`]) or
    /// drops it ([`Referee::drop_tried`]) with the undo log returned;
    /// refused, the game is put back at once. A line tried is verified
    /// whole, whatever record digest was checked before.
    fn try_line(
        &mut self,
        line: &Line<'_>,
        check: SealCheck,
    ) -> Result<(PlayedTurn<G>, Undo<G>), LineError> {
        let undo = Undo {
            state: self.state.clone(),
            turns: self.turns,
            ledger: self.ledger.clone(),
            hidden: self.hidden.clone(),
            setup_lines: self.setup_lines,
            chance: self.chance.len(),
            declared: self.declared,
            digest: self.digest,
            forfeits: self.forfeits.clone(),
            deferred: self.deferred.as_ref().map(Vec::len),
            checked_to: self.checked_to.take(),
            share_checks: self.share_checks.len(),
            table: self.table.clone(),
            keyless: self.keyless,
            walked_away: self.walked_away,
            decided_by: self.decided_by,
            claim: self.claim.clone(),
            voided: self.voided.clone(),
            last_date: self.last_date,
            offer: self.offer.clone(),
            agreed: self.agreed.clone(),
            lapsed: self.lapsed,
        };
        match self.play_sealed(line, check) {
            Ok(played) => Ok((played, undo)),
            Err(e) => {
                self.drop_tried(undo);
                Err(e)
            }
        }
    }

    /// Keep the line tried ([`Referee::try_line`]) as part of the game.
    fn keep_tried(&mut self, undo: Undo<G>) {
        self.checked_to = undo.checked_to.filter(|&c| c != self.digest);
    }

    /// Drop the line tried ([`Referee::try_line`]): the game as it was
    /// before it, from the undo log.
    fn drop_tried(&mut self, undo: Undo<G>) {
        self.state = undo.state;
        self.turns = undo.turns;
        self.ledger = undo.ledger;
        self.hidden = undo.hidden;
        self.setup_lines = undo.setup_lines;
        self.chance.truncate(undo.chance);
        self.declared = undo.declared;
        self.digest = undo.digest;
        self.forfeits = undo.forfeits;
        if let (Some(deferred), Some(len)) = (self.deferred.as_mut(), undo.deferred) {
            deferred.truncate(len);
        }
        self.checked_to = undo.checked_to;
        self.share_checks.truncate(undo.share_checks);
        self.table = undo.table;
        self.keyless = undo.keyless;
        self.walked_away = undo.walked_away;
        self.decided_by = undo.decided_by;
        self.claim = undo.claim;
        self.voided = undo.voided;
        self.last_date = undo.last_date;
        self.offer = undo.offer;
        self.agreed = undo.agreed;
        self.lapsed = undo.lapsed;
    }
}

/// The line (a set-up line or a turn, and its number) and side a line
/// is judged as, for placing its problems.
#[derive(Clone, Copy)]
struct At<'a> {
    line: LineKind,
    turn: u32,
    side: &'a str,
}

impl At<'_> {
    /// A problem of this line (cold: a replay meets one at most once).
    #[cold]
    fn error(
        self,
        kind: ErrorKind,
        place: Place,
        action: Option<&str>,
        message: String,
    ) -> LineError {
        LineError {
            kind,
            place,
            turn: self.turn,
            line: self.line,
            side: self.side.into(),
            message: match action {
                Some(a) => format!("{a}: {message}"),
                None => message,
            },
            action: action.map(str::to_owned),
        }
    }

    fn illegal(self, place: Place, action: Option<&str>, message: String) -> LineError {
        self.error(ErrorKind::Illegal, place, action, message)
    }

    fn record(self, place: Place, message: String) -> LineError {
        self.error(ErrorKind::Record, place, None, message)
    }
}

impl<G: Game> Referee<G> {
    /// Tell the deck, if the game has one, whether the lines given from
    /// now on are vouched for by a record digest checked before
    /// ([`deck::DeckLedger::vouch`]): set through a change kept at once, as
    /// every change to the deck is.
    fn vouch_deck(&mut self, vouched: bool) {
        if let Some(mut pending) = self.table.pending() {
            pending.deck_mut().vouch(vouched);
            self.table.keep(pending);
        }
    }

    /// Check a record's header and set up the starting position.
    pub fn start(record: &Record<'_>) -> Result<Self, RefereeError> {
        Self::start_keeping(record, Keep::ALL)
    }

    /// [`Referee::start`], then [`Referee::keeping`] `keep`: a record
    /// digest not kept is not begun (the digest before the first line is
    /// a hash over the game id, which is then not worked out either).
    fn start_keeping(record: &Record<'_>, keep: Keep) -> Result<Self, RefereeError> {
        let (header, state) = Header::read::<G>(record)?;
        let keep = Keep {
            digest: keep.digest || header.any_key(),
            ..keep
        };
        // A digest not kept is never read: it stays zero.
        let digest = if keep.digest {
            crate::fairness::record_start(header.game_id())
        } else {
            [0; 32]
        };
        let table = cards::table_of::<G>(&state, &header)?;
        let protocol = header.protocol();
        // Under protocol 3 the set-up begins with the first side that has
        // its key (the game's creator), and the keys need not come first.
        let hidden = Hidden::new::<G>(&state, header.seated(), setup_start(&header), protocol);
        let keyless = if protocol.keys_join_late() {
            None
        } else if hidden.any() || table.has_deck() {
            header
                .seated()
                .find(|&(_, s)| header.commit(s).is_none())
                .map(|(seat, _)| seat)
        } else {
            None
        };
        let mut referee = Referee {
            keyless,
            walked_away: None,
            decided_by: None,
            stranded: None,
            claim: None,
            voided: Vec::new(),
            last_date: None,
            today: None,
            offer: None,
            agreed: None,
            lapsed: None,
            table,
            digest,
            forfeits: Vec::new(),
            deferred: None,
            checked_to: None,
            share_checks: Vec::new(),
            seal_room: seal::SealRoom::default(),
            keep,
            ledger: Ledger::new(header.commits()),
            hidden,
            setup_lines: 0,
            header,
            state: Box::new(state),
            spare: None,
            turns: 0,
            chance: Vec::new(),
            chance_room: Vec::new(),
            declared: None,
        };
        referee.order_first_passes();
        Ok(referee)
    }

    /// Under protocol 3, the passes over the first deck go in the order
    /// the sides open what the set-up opens, each hand's by its holder
    /// (spec section 3.9): the last side to commit passes first, on its
    /// commitments' line.
    fn order_first_passes(&mut self) {
        if !self.header.protocol().keys_join_late() {
            return;
        }
        let order = self.hidden.open_order().to_vec();
        self.table.set_first_passers(order);
    }

    /// Under protocol 3, a side with a key other than side `seat`, when
    /// side `seat` has none and writes `line` (not a forfeit claimed on
    /// it): such a line is refused.
    fn signs_alone(&self, seat: Seat, line: &Line<'_>) -> Option<&'static str> {
        if !self.header.protocol().keys_join_late()
            || line.ending == Ending::Forfeit
            || self.header.key_at(seat).is_some()
        {
            return None;
        }
        self.header
            .seats()
            .find(|&s| self.header.key_at(s).is_some())
            .map(|s| self.header.name::<G>(s))
    }

    /// The side named `name` (a key file's side), when it may write `S1`
    /// although the set-up is due from another side (protocol 3: any
    /// side with its key may begin the set-up).
    pub fn side_beginning_setup(&self, name: &str) -> Option<Side> {
        let (side, seat) = self.header.side_seat_named::<G>(name)?;
        (self.phase() == Phase::Setup && self.may_begin_setup(seat)).then_some(side)
    }

    /// Whether side `seat` may write the next line in `phase` although
    /// another side is due: under protocol 3 a side with its key may
    /// begin the set-up; in the audit any side whose audit is due writes
    /// its closing line (or has its refusal claimed), in any order.
    fn may_write_out_of_turn(&self, seat: Seat, phase: Phase) -> bool {
        match phase {
            Phase::Setup => self.may_begin_setup(seat),
            Phase::Audit => self.audit_pending(seat),
            Phase::Play | Phase::Over => false,
        }
    }

    /// Whether side `seat` may write `S1` although the set-up is due
    /// from another side: under protocol 3 any side with its key may
    /// begin the set-up.
    fn may_begin_setup(&self, seat: Seat) -> bool {
        self.header.protocol().keys_join_late()
            && self.setup_lines == 0
            && self.header.commits()[seat.index()].is_some()
    }

    /// The checked header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The position now.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// Turns played.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Every chance value derived so far, in order (none when the
    /// referee was told not to keep them, [`Keep`]).
    pub fn chance(&self) -> &[ChanceEvent] {
        &self.chance
    }

    /// The digest of the record up to the last line played (spec section
    /// 3.8): two copies of a game with the same digest hold the same lines.
    /// `None` when the referee was told not to keep it ([`Keep`]) and no
    /// side signs.
    pub fn digest(&self) -> Option<&Hash> {
        self.keep.digest.then_some(&self.digest)
    }

    /// Keep from now on what `keep` says (the digest anyway when a side
    /// has a Key tag); a referee starts keeping everything. Set before
    /// the first line: a digest not kept from the start is never kept.
    pub fn keeping(mut self, keep: Keep) -> Self {
        let digest = self.keep.digest && (keep.digest || self.header.any_key());
        self.keep = Keep {
            digest,
            before: keep.before,
            chance: self.keep.chance && keep.chance,
            today: keep.today,
        };
        self
    }

    /// A copy of `state` for [`PlayedTurn::before`], if it is kept (boxed:
    /// a played turn is passed along by value several times).
    fn before(&self, state: &G::State) -> Option<Box<G::State>> {
        self.keep.before.then(|| Box::new(state.clone()))
    }

    /// The forfeits recorded so far, in order.
    pub fn forfeits(&self) -> &[Forfeit] {
        &self.forfeits
    }

    /// Where the game stands in its life (spec section 3.7).
    #[inline]
    pub fn phase(&self) -> Phase {
        if self.walked_away.is_some() {
            Phase::Over
        } else if self.setup_side_due().is_some() {
            Phase::Setup
        } else if !G::outcome(&self.state).is_over()
            && self.deck_broken().is_none()
            && self.agreed.is_none()
            && self.stranded.is_none()
        {
            Phase::Play
        } else if self.audit_side_due().is_some() {
            Phase::Audit
        } else {
            Phase::Over
        }
    }

    /// How the game stands: ongoing until it is over, audit included; then
    /// the result, after the audit's verdict where there was one.
    pub fn outcome(&self) -> Outcome {
        match self.phase() {
            Phase::Over if self.walked_away.is_some() => {
                let gone = self.walked_away;
                let others: Vec<Side> = self
                    .header
                    .seated()
                    .filter(|&(s, _)| Some(s) != gone)
                    .map(|(_, side)| side)
                    .collect();
                match others.as_slice() {
                    [] => Outcome::Draw,
                    [one] => Outcome::Won(*one),
                    many => Outcome::TeamWon(Team::of(many)),
                }
            }
            Phase::Over if self.deck_broken().is_some() => self.broken_verdict(),
            Phase::Over if self.hidden.any() => self.hidden.verdict(
                self.board_outcome(),
                self.header.sides(),
                self.stranded.is_some(),
            ),
            Phase::Over => self.board_outcome(),
            _ => Outcome::Ongoing,
        }
    }

    /// The value for the record's Result tag once the game is over
    /// ([`result_text`] of its outcome); `None` while it runs.
    pub fn final_result(&self) -> Option<String> {
        let outcome = self.outcome();
        if outcome == Outcome::Draw && self.agreed.is_some() {
            return Some(header::DRAW_BY_AGREEMENT.into());
        }
        outcome.is_over().then(|| result_text::<G>(outcome))
    }

    /// The result as the Result tag and the readers' JSON write it:
    /// [`Referee::final_result`], `*` while the game runs.
    pub fn result(&self) -> String {
        self.final_result().unwrap_or_else(|| "*".into())
    }

    /// The result the game ended with before any audit: a draw agreed,
    /// else the rules' (`Ongoing` while it runs).
    fn board_outcome(&self) -> Outcome {
        if let Some(stranded) = self.stranded {
            stranded
        } else if self.agreed.is_some() {
            Outcome::Draw
        } else {
            G::outcome(&self.state)
        }
    }

    /// One line on how the game stands: the engine's summary, and where
    /// the audit overturned the result the board gave, that first
    /// (`Red won after the audit (on the board: Blue won: ...)`).
    pub fn summary(&self) -> Said {
        // Keys before turn 1 (protocol 3): the side to move cannot move
        // until they are in.
        if let Some(due) = self.keys_step_due() {
            return due.text;
        }
        if self.phase() == Phase::Setup {
            if let Some(due) = self.step_due() {
                let text = due.text.strip_prefix("the set-up: ").unwrap_or(due.text);
                return text.after("Set-up, before turn 1: ");
            }
        }
        let mut board = Said::words(self.board_words());
        if let Some(claim) = &self.claim {
            board = match self.claim_answer_due() {
                // The game goes on for the others (three sides or more):
                // what is due is the claim's answer, never the next
                // side's turn the board names.
                Some(due) if self.phase() == Phase::Play && !self.board_outcome().is_over() => {
                    due.text.capital()
                }
                _ => board.and(&format!(
                    "; until {} answers, its own next line voids the claim",
                    claim.forfeit.side.name::<G>()
                )),
            };
        }
        if let Some((position, turn)) = self.deck_broken() {
            board = Said::words(format!(
                "play stopped on turn {turn} for the audit: deck position {position} opened to \
                 no card of the game"
            ));
        }
        if let Some(agreed) = &self.agreed {
            board = Said::words(format!("a draw by agreement ({})", agreed.words::<G>()));
        }
        let outcome = self.outcome();
        if !outcome.is_over() || outcome == self.board_outcome() || self.walked_away.is_some() {
            return board;
        }
        let mut verdict = match outcome.winners::<G>() {
            Some(w) => format!("{w} won after the audit"),
            None => "a draw after the audit".into(),
        };
        if let Some(f) = self.decided_by.filter(|f| f.audit) {
            verdict = format!("{verdict}: {}", f.words::<G>());
        }
        board.after(&format!("{verdict} (on the board: ")).and(")")
    }

    /// The board's words on the game (the engine's summary), a forfeit
    /// that decided it said as a forfeit (`Blue won: Red forfeited
    /// (claimed by Blue on turn 6)`), never as the resignation the
    /// engine was given for it.
    pub fn board_words(&self) -> String {
        // The turn due's draw counted once its shares are all in, as the
        // drawer's key file shows it (look.rs).
        let board = G::summary(&self.public_state());
        let Some(f) = self.decided_by.filter(|f| !f.audit) else {
            return board;
        };
        let provisional = match self.walked_away {
            Some(_) => self.outcome(),
            None => self.board_outcome(),
        };
        let why = if self.stranded.is_some() {
            ", and play cannot go on without its hand's deck shares"
        } else {
            ""
        };
        match provisional.winners::<G>() {
            Some(w) => format!("{w} won: {}{why}", f.words::<G>()),
            None => format!("a draw: {}{why}", f.words::<G>()),
        }
    }

    /// The forfeit that decided the game on the board (its claim open or
    /// standing), if one did: the engine holds it as the claimed side's
    /// resignation (its position's result reads `Red:resignation`), the
    /// game as a forfeit ([`Referee::board_words`]).
    pub fn decided_by(&self) -> Option<Forfeit> {
        self.decided_by.filter(|f| !f.audit)
    }

    /// Whether a forfeit decided the game, or a claim of one is open:
    /// the engine's words on the board (a resignation) are not the
    /// game's then ([`Referee::board_words`]).
    pub fn forfeit_decides(&self) -> bool {
        self.decided_by.is_some() || self.claim.is_some()
    }

    /// The result the rules gave, while the audit may still change it
    /// (spec section 3.7); `None` outside the audit.
    pub fn provisional(&self) -> Option<Outcome> {
        (self.phase() == Phase::Audit).then(|| self.board_outcome())
    }

    /// The audits that failed so far: the side and why.
    pub fn failed_audits(&self) -> Vec<(Side, String)> {
        let mut failed: Vec<(Side, String)> = self
            .hidden
            .failures()
            .map(|(seat, why)| (self.header.side(seat), why.to_owned()))
            .collect();
        if let (Some(blamed), Phase::Over) = (self.broken_blame(), self.phase()) {
            failed.push(blamed);
        }
        failed
    }

    /// The side whose line is due (a set-up step, a turn, an audit), or
    /// `None` once the game is over.
    pub fn to_move(&self) -> Option<Side> {
        self.to_move_in(self.phase())
    }

    /// [`Referee::to_move`] in `phase`, the phase now.
    #[inline]
    fn to_move_in(&self, phase: Phase) -> Option<Side> {
        match phase {
            Phase::Setup => self.setup_side_due().map(|(s, _)| self.header.side(s)),
            Phase::Play => Some(
                self.farewell_due()
                    .map_or_else(|| G::to_move(&self.state), |s| self.header.side(s)),
            ),
            Phase::Audit => self.audit_side_due().map(|s| self.header.side(s)),
            Phase::Over => None,
        }
    }

    /// The openings the rules demand and nobody has made yet (a battle
    /// waiting for the defender's identity), during play.
    pub fn openings_due(&self) -> Vec<Demand> {
        if self.phase() == Phase::Play {
            G::demands(&self.state)
        } else {
            Vec::new()
        }
    }

    /// The set-up step due, if the set-up is not finished.
    pub fn setup_due(&self) -> Option<SetupStep> {
        self.setup_side_due().map(|(_, step)| step)
    }

    /// The side whose set-up line is due and its step: section 3.7's
    /// steps, then the deck's shares lines.
    fn setup_side_due(&self) -> Option<(Seat, SetupStep)> {
        if let Some(seat) = self.keyless {
            return Some((seat, SetupStep::Key));
        }
        self.hidden
            .setup_due()
            .or_else(|| Some((self.deck_shares_due()?, SetupStep::Shares)))
    }

    /// The side whose closing line is due once the rules ended the game:
    /// one with hidden values still to open, then one whose passes over
    /// the deck are still to audit.
    fn audit_side_due(&self) -> Option<Seat> {
        self.hidden.audit_due().or_else(|| {
            let hand = self.table.deck().and_then(deck::DeckLedger::audit_due)?;
            self.table.holder(hand)
        })
    }

    /// Whether side `seat`'s closing line is still to come once the
    /// rules ended the game: it holds hidden values not opened yet, or
    /// holds a hand whose passes over the deck are not audited yet.
    fn audit_pending(&self, seat: Seat) -> bool {
        self.hidden.audit_pending(seat)
            || self.holds_hand(seat).is_some_and(|hand| {
                self.table
                    .deck()
                    .is_some_and(|deck| deck.audit_pending(hand))
            })
    }

    /// The sides whose audit (closing line) is due, in header order, once
    /// the rules ended the game; empty in any other phase. They write
    /// them in any order, each on the record as it finds it (spec section
    /// 3.7): an audit opens what its side committed to, so it has nothing
    /// to choose, and no order of the audits changes the result.
    pub fn audits_due(&self) -> Vec<Side> {
        if self.phase() != Phase::Audit {
            return Vec::new();
        }
        self.header
            .seated()
            .filter(|&(s, _)| self.audit_pending(s))
            .map(|(_, side)| side)
            .collect()
    }

    /// The side whose line is due: the target of an open forfeit claim
    /// (its own line voids the claim, whichever side the board says moves
    /// next), else the side to move ([`Referee::to_move`]); `None` once
    /// the game is over and no claim waits. What readers print as the
    /// side to move (`to_move` in JSON, `legal`'s list, `check` of many
    /// records).
    pub fn side_due(&self) -> Option<Side> {
        match self.open_claim() {
            Some((target, _)) => Some(target),
            None => self.to_move(),
        }
    }

    /// Every side whose line may come next, in header order: the target
    /// of an open claim (its own line voids it), else every side whose
    /// audit is due, else every side whose key is due before turn 1
    /// (those come in any order), else the side due. Empty once the game
    /// is over. Readers address a message, list `due` and find a
    /// player's games by it.
    pub fn sides_due(&self) -> Vec<Side> {
        if let Some((target, _)) = self.open_claim() {
            return vec![target];
        }
        let audits = self.audits_due();
        if !audits.is_empty() {
            return audits;
        }
        let keys = self.keys_due();
        if !keys.is_empty() {
            return keys;
        }
        self.to_move().into_iter().collect()
    }

    /// Whether `side`'s audit is due now (it may write its closing line
    /// whatever other audit is due too).
    pub fn audit_due_of(&self, side: Side) -> bool {
        self.phase() == Phase::Audit
            && self
                .header
                .seat_of(side)
                .is_some_and(|i| self.audit_pending(i))
    }

    /// While the set-up is not finished: what is due, for a player who
    /// asked for a turn (`the set-up is not finished: S1 is Blue's set-up
    /// step, its commitments (herald setup)`).
    pub fn setup_note(&self) -> Option<Said> {
        let step = self.setup_due()?;
        let side = self.to_move()?;
        let (_, number) = self.next_line();
        let name = side.name::<G>();
        if step == SetupStep::Key {
            return Some(
                Said::words(format!(
                    "the set-up has not begun: {name} has no Commit tag yet, and every side's key comes before S1 ({name} runs "
                ))
                .command(
                    Command::keygen(name)
                        .on_record()
                        .makes_key(&format!("{}.key", name.to_ascii_lowercase())),
                )
                .and(")"),
            );
        }
        Some(
            Said::words(format!(
                "the set-up is not finished: S{number} is {name}'s set-up step, {} (",
                step.what()
            ))
            .command(Command::setup())
            .and(")"),
        )
    }

    /// The step due and whose it is, in every phase (spec section 3.7):
    /// a key, a set-up line, a turn, a farewell line or an audit; `None`
    /// once the game is over.
    pub fn step_due(&self) -> Option<StepDue> {
        if let Some(due) = self.claim_answer_due().or_else(|| self.keys_step_due()) {
            return Some(due);
        }
        let phase = self.phase();
        let side = self.to_move_in(phase)?;
        let name = side.name::<G>();
        let (kind, number) = self.next_line_in(phase);
        let line = kind.named(number).to_string();
        let (step, text) = match phase {
            Phase::Setup => {
                let step = self.setup_due().unwrap_or(SetupStep::Commit);
                let text = match step {
                    SetupStep::Key => Said::words(format!(
                        "{name}'s key is due before S1: every side adds its key before the set-up begins ("
                    ))
                    .command(Command::keygen(name))
                    .and(")"),
                    // Protocol 3: the side's key joins with this line.
                    _ if self.header.commit(side).is_none() => Said::words(format!(
                        "the set-up: {line} is {name}'s, its key with {} (",
                        step.what()
                    ))
                    .command(
                        Command::setup()
                            .side(name)
                            .key_file(&format!("{}.key", name.to_ascii_lowercase()))
                            .hand_key(self.hand_key_file(side)),
                    )
                    .and(" makes the key)"),
                    _ => Said::words(format!("the set-up: {line} is {name}'s, {} (", step.what()))
                        .command(Command::setup().key().hand_key(self.hand_key_file(side)))
                        .and(")"),
                };
                let step = match step {
                    SetupStep::Key => Step::Keygen,
                    other => Step::Setup(other),
                };
                (step, text)
            }
            Phase::Audit => {
                let due = self.audits_due();
                let head = if due.len() > 1 {
                    format!(
                        "the audit: {} closing lines are due, in any order, each the openings of what its side still holds (",
                        possessives::<G>(&due)
                    )
                } else {
                    format!(
                        "the audit: {line} is {name}'s closing line, the openings of what it still holds ("
                    )
                };
                let text = Said::words(head)
                    .command(Command::moves().action("audit").key())
                    .and("); the result stands once every audit is in");
                (Step::Audit, text)
            }
            _ if self.farewell_due().is_some() => (
                Step::Farewell,
                Said::words(format!("{line} is {name}'s farewell line ("))
                    .command(Command::moves().action("pass").key())
                    .and(")"),
            ),
            _ => (Step::Turn, self.turn_text(side, &line)),
        };
        Some(StepDue {
            side,
            line,
            step,
            text,
        })
    }

    /// The words of side `side`'s turn due, `line`: its command, and
    /// both answers to a draw offered to it.
    fn turn_text(&self, side: Side, line: &str) -> Said {
        let name = side.name::<G>();
        let Some((by, turn)) = self.draw_offered_to(side) else {
            return Said::words(format!("{line} is {name}'s ("))
                .command(Command::moves())
                .and(")");
        };
        let accept = if self.accepts_last(side) {
            "accept draw"
        } else {
            "<actions>, accept draw"
        };
        Said::words(format!(
            "{line} is {name}'s, and {} offered a draw on turn {turn}: accept it (",
            by.name::<G>()
        ))
        .command(Command::moves().action(accept).key())
        .and(") or decline it by playing on (")
        .command(Command::moves())
        .and(")")
    }

    /// The sides whose keys are due before turn 1 (protocol 3, a game
    /// without a set-up, some side signed already): each adds its own, in
    /// any order, with `keygen`; turn 1 needs every side's commitment.
    pub fn keys_due(&self) -> Vec<Side> {
        let header = &self.header;
        let keyless: Vec<Side> = header
            .sides()
            .iter()
            .copied()
            .filter(|&s| header.commit(s).is_none())
            .collect();
        let due = header.protocol().keys_join_late()
            && self.turns == 0
            && self.setup_lines == 0
            && !self.hidden.any()
            && keyless.len() < header.sides().len();
        if due {
            keyless
        } else {
            Vec::new()
        }
    }

    /// [`Referee::keys_due`] as the step due.
    fn keys_step_due(&self) -> Option<StepDue> {
        let due = self.keys_due();
        let side = *due.first()?;
        let name = side.name::<G>();
        let text = if due.len() > 1 {
            Said::words(format!(
                "{} keys are due before turn 1, in any order: each side adds its own (",
                possessives::<G>(&due)
            ))
            .command(Command::keygen("SIDE").on_record().key_file("SIDE.key"))
            .and("); a copy that lacks another side's key takes it the same way from that side's key file")
        } else {
            Said::words(format!("{name}'s key is due before turn 1 ("))
                .command(
                    Command::keygen(name)
                        .on_record()
                        .key_file(&format!("{}.key", name.to_ascii_lowercase())),
                )
                .and(")")
        };
        Some(StepDue {
            side,
            line: "turn 1".into(),
            step: Step::Keygen,
            text,
        })
    }

    /// While a forfeit claim is the record's last line: its target's own
    /// line of the step the claim was made on, which voids it (spec
    /// section 3.8). A claim never decides a game its target is still
    /// answering, so that is the step due, whatever the claim made of the
    /// game (an audit due, or the game over).
    fn claim_answer_due(&self) -> Option<StepDue> {
        let claim = self.claim.as_ref()?;
        let side = self.header.side(claim.target);
        let name = side.name::<G>();
        let (kind, number) = self.next_line_in(claim.phase);
        let line = kind.named(number).to_string();
        let step = claim.before.step_due().map_or(Step::Turn, |d| d.step);
        let (what, command) = match claim.phase {
            Phase::Setup => ("set-up step", Command::setup().key()),
            Phase::Audit => ("audit", Command::moves().action("audit").key()),
            Phase::Play | Phase::Over => ("turn", Command::moves().key()),
        };
        let claimed = format!(
            "{} claimed {name}'s forfeit on {}",
            claim.forfeit.claimant.name::<G>(),
            claim.forfeit.line_name()
        );
        let text = if self.phase() == Phase::Over {
            // The claim ended the game: nothing but the answer follows.
            Said::words(format!(
                "{claimed}, which ended the game: only {name}'s own {what} ({line}) may follow it, and it voids the claim ("
            ))
            .command(command)
            .and(")")
        } else {
            // No other line may follow the claim until its deadline
            // passed again (check_date).
            let until = match (self.header.deadline(), self.last_date) {
                (Some(deadline), Some(on)) => format!(
                    "; no other line may follow the claim before {}, and from then on the next line lets it stand",
                    record::Day(on.0 + deadline + 1)
                ),
                _ => "; any other line lets it stand".into(),
            };
            Said::words(format!(
                "{claimed}: {name}'s own {what} ({line}) voids the claim ("
            ))
            .command(command)
            .and(&format!("){until}"))
        };
        Some(StepDue {
            side,
            line,
            step,
            text,
        })
    }

    /// The number the next turn must carry.
    pub fn next_turn(&self) -> u32 {
        self.turns + 1
    }

    /// The kind and number of the next line: `S3` during the set-up, else
    /// the next turn's number.
    pub fn next_line(&self) -> (LineKind, u32) {
        self.next_line_in(self.phase())
    }

    /// [`Referee::next_line`] in `phase`, the phase now.
    fn next_line_in(&self, phase: Phase) -> (LineKind, u32) {
        match phase {
            Phase::Setup => (LineKind::Setup, self.setup_lines + 1),
            _ => (LineKind::Turn, self.turns + 1),
        }
    }

    /// The hidden values of `side` opened so far, by slot (`None` for one
    /// still hidden), in slot order.
    pub fn opened(&self, side: Side) -> Vec<(&'static str, Option<String>)> {
        self.header.seat_of(side).map_or_else(Vec::new, |i| {
            self.hidden
                .values(i)
                .map(|(slot, v)| (slot, v.map(str::to_owned)))
                .collect()
        })
    }

    /// How many lines `side` has played.
    pub fn lines_of(&self, side: Side) -> u32 {
        self.header
            .seat_of(side)
            .map_or(0, |i| self.ledger.lines(i))
    }

    /// The value `side`'s next reveal must hash to (its latest reveal or its
    /// commitment), if it has a commitment.
    pub fn latest_reveal(&self, side: Side) -> Option<Hash> {
        self.header
            .seat_of(side)
            .and_then(|i| self.ledger.latest(i))
    }

    /// Whether `side`'s next line can settle chance declared now (spec
    /// section 3.4): it carries a reveal, so the side has a Commit tag and
    /// links of its hash chain left.
    #[inline]
    pub fn can_settle(&self, side: Side) -> bool {
        // Without commitments (a plain record) no side can: that is known
        // without looking the side up.
        !self.ledger.is_empty()
            && self
                .header
                .seat_of(side)
                .is_some_and(|i| self.ledger.is_committed(i) && self.ledger.lines(i) < CHAIN_LENGTH)
    }

    /// The chance event waiting to be settled, if any.
    pub fn pending(&self) -> Option<PendingEvent> {
        let request = G::pending(&self.state)?;
        let (declared, declarer) = self.declared?;
        Some(PendingEvent {
            declared,
            side: declarer.name::<G>().into(),
            label: request.label,
            settled_by: G::to_move(&self.state).name::<G>().into(),
        })
    }

    /// Replay one turn of the record, checking everything; problems are
    /// placed in the turn's text.
    pub fn play(&mut self, turn: &Turn<'_>) -> Result<PlayedTurn<G>, RefereeError> {
        let mut played = PlayedTurn::blank(turn.number, Side(0), None);
        self.play_into(turn, &mut played, &mut LineRoom::default())?;
        Ok(played)
    }

    /// [`Referee::play`] into `played`, a played turn kept from line to
    /// line by a replay (its lists are used again), the line read into
    /// the lists of `room`: on success `played` holds the turn played.
    fn play_into(
        &mut self,
        turn: &Turn<'_>,
        played: &mut PlayedTurn<G>,
        room: &mut LineRoom,
    ) -> Result<(), RefereeError> {
        // The fast branch: a plain turn that plays (`plain.rs`); any
        // other line, or one the rules refuse, is played in full.
        if self.play_plain(turn, played) {
            return Ok(());
        }
        if self.deferred_full() {
            self.verify_deferred_so_far()?;
        }
        let line = Line::from_turn_in(turn, room);
        let result = self.sealed_into(&line, SealCheck::Verify, played);
        room.keep(line);
        self.place_deferred(turn);
        result.map_err(|e| e.in_turn(turn))?;
        Ok(())
    }

    /// Play one line, checking everything: its number and side, the game
    /// not over, its reveal, the chance it settles and draws, its actions,
    /// the end of the turn and its recorded facts.
    pub fn play_line(&mut self, line: &Line<'_>) -> Result<PlayedTurn<G>, LineError> {
        self.play_sealed(line, SealCheck::Verify)
    }

    /// Play `line`; its seal (spec section 3.8) verified, or, for a line
    /// being composed, only its bytes worked out.
    fn play_sealed(
        &mut self,
        line: &Line<'_>,
        check: SealCheck,
    ) -> Result<PlayedTurn<G>, LineError> {
        let mut played = PlayedTurn::blank(line.number, Side(0), None);
        self.sealed_into(line, check, &mut played)?;
        Ok(played)
    }

    /// [`Referee::play_sealed`] into `played`. The phase is worked out
    /// once: nothing the checks before the play change moves it.
    fn sealed_into(
        &mut self,
        line: &Line<'_>,
        check: SealCheck,
        played: &mut PlayedTurn<G>,
    ) -> Result<(), LineError> {
        if self.answers_claim(line) {
            self.void_claim();
        }
        let phase = self.phase();
        let (kind, number) = self.next_line_in(phase);
        let (side, seat) = self.check_head(line, phase, kind, number)?;
        // A claim keeps the game as it stood, for its target's answer
        // (boxed: any other line moves only a pointer, not a referee).
        let before = (line.ending == Ending::Forfeit).then(|| {
            let mut copy = Box::new(self.clone());
            copy.claim = None;
            copy
        });
        let at = At {
            line: kind,
            turn: number,
            side: side.name::<G>(),
        };
        let seal = if self.is_bare(line, seat) {
            Seal::BARE
        } else if self.reveals_only(line, seat) {
            self.check_reveal(line, seat, at)?;
            Seal::BARE
        } else {
            self.check_proofs(line, at)?;
            self.check_reveal(line, seat, at)?;
            self.check_seal(line, side, at, check)?
        };
        let date = self.check_date(line, seal.claimant, at)?;
        self.play_checked(line, seat, seal.claimant, phase, at, check, played)?;
        played.date = date;
        if date.is_some() {
            self.last_date = date;
        }
        self.claim = match (before, self.forfeits.last()) {
            (Some(before), Some(&forfeit)) if seal.claimant.is_some() => Some(Box::new(Claim {
                target: seat,
                phase,
                forfeit,
                before: *before,
            })),
            _ => None,
        };
        if self.table.has_deck() {
            cards::deck_texts_into(line, &mut played.deck);
        }
        if self.keep.digest {
            self.digest = seal.digest_after(&self.digest);
            if self.checked_to == Some(self.digest) {
                self.checked_to = None;
                self.vouch_deck(false);
            }
        }
        // Every way of playing a line left the turn without a signature.
        if seal.sig.is_some() {
            played.sig = seal.sig;
        }
        self.seal_room.give_back(seal);
        Ok(())
    }

    /// Play `line` of side `seat` once its head, proofs, reveal and seal
    /// are checked, in `phase`: a set-up step, a closing line, a forfeit
    /// (claimed by `claimant`) or a turn; into `played`. The proofs of its
    /// shares join the checks deferred, if checks are, whether the line
    /// plays or not (a bad share before a line's other problem is named
    /// first).
    #[allow(clippy::too_many_arguments)]
    fn play_checked(
        &mut self,
        line: &Line<'_>,
        seat: Seat,
        claimant: Option<Side>,
        phase: Phase,
        at: At<'_>,
        check: SealCheck,
        played: &mut PlayedTurn<G>,
    ) -> Result<(), LineError> {
        let played = self.play_checked_now(line, seat, claimant, phase, at, check, played);
        self.defer_share_checks(at);
        played
    }

    #[allow(clippy::too_many_arguments)]
    fn play_checked_now(
        &mut self,
        line: &Line<'_>,
        seat: Seat,
        claimant: Option<Side>,
        phase: Phase,
        at: At<'_>,
        check: SealCheck,
        played: &mut PlayedTurn<G>,
    ) -> Result<(), LineError> {
        let side = self.header.side(seat);
        let number = at.turn;
        let farewell =
            phase == Phase::Play && claimant.is_none() && self.farewell_due() == Some(seat);
        let answer = self.check_draw(line, seat, phase, farewell, at)?;
        self.lapsed = None;
        match phase {
            Phase::Setup => {
                if let Some(claimant) = claimant {
                    *played = self.walk_away(seat, claimant, at);
                    return Ok(());
                }
                *played = self.play_setup_line(line, seat, at, check)?;
                return Ok(());
            }
            Phase::Audit => {
                *played = self.play_closing(line, seat, claimant, at)?;
                return Ok(());
            }
            Phase::Play | Phase::Over => {}
        }
        if let Some(claimant) = claimant {
            // A forfeit answers no draw: an offer standing lapses.
            self.lapsed = self.offer.take().map(|o| (o.by, o.turn));
            self.table.settle_farewell(seat);
            *played = self.forfeit(seat, side, claimant, number);
            return Ok(());
        }
        if farewell {
            *played = self.play_farewell(line, seat, at)?;
            return Ok(());
        }
        self.play_turn_line(line, seat, at, check, answer, played)
    }

    /// A turn of side `seat` in play (not a claim, not a farewell line),
    /// played: the chance its start derives, its deck's items, its
    /// actions (or only its passes once the chance settled the game or
    /// put the side out), its draw's answer (`answer`, checked), and the
    /// farewells it makes owed.
    fn play_turn_line(
        &mut self,
        line: &Line<'_>,
        seat: Seat,
        at: At<'_>,
        check: SealCheck,
        answer: draw::Answer,
        played: &mut PlayedTurn<G>,
    ) -> Result<(), LineError> {
        let side = self.header.side(seat);
        let number = at.turn;
        let mut state = self.spare_copy();
        self.start_turn_chance(line, seat, &mut state, at, played)?;
        let mut pending = self.table.pending();
        if line_only_passes::<G>(&state, side) {
            let derived = std::mem::take(&mut played.chance);
            *played = self.settled_out(line, &state, derived, at)?;
        } else {
            let mut openings = match pending.as_mut() {
                Some(pending) => {
                    let mut checks = std::mem::take(&mut self.share_checks);
                    let deck = pending.deck_mut();
                    let opened = self.deck_turn(line, seat, &mut state, deck, at, &mut checks);
                    self.share_checks = checks;
                    Some(opened?)
                }
                None => None,
            };
            if let Some(position) = openings.as_ref().and_then(cards::Openings::broken) {
                let derived = std::mem::take(&mut played.chance);
                *played = self.broken_out(line, &state, derived, position, at)?;
                self.table.broke_on(number);
            } else {
                let opened = openings.as_mut();
                self.play_turn(line, seat, &mut state, opened, at, played)?;
                if let Some(deck) = pending.as_mut().map(table::Pending::deck_mut) {
                    // A draw agreed by this line: no turn comes after it
                    // to owe shares for.
                    if answer != draw::Answer::Agrees
                        && !self.check_leaving(line, seat, &state, deck, at, check)?
                    {
                        self.deck_turn_end(&state, seat, deck, at, check)?;
                    }
                }
            }
        }
        self.after_draw_line(line, seat, number, answer, &state, at)?;
        if self.table.has_deck() {
            self.owe_farewells(seat, number, &state);
        }
        // The box played in takes the position's place: a turn copies
        // the position once, to play in.
        self.spare = Some(std::mem::replace(&mut self.state, state));
        self.commit_played(seat, played);
        if let Some(pending) = pending {
            self.table.keep(pending);
        }
        Ok(())
    }

    /// The start of `seat`'s turn in `state` ([`Referee::start_turn_in`]),
    /// its reveal given: the chance derived goes straight into the turn
    /// played, written over the events of the turn played before, if it
    /// had any (in games without chance, nothing is swapped).
    fn start_turn_chance(
        &mut self,
        line: &Line<'_>,
        seat: Seat,
        state: &mut G::State,
        at: At<'_>,
        played: &mut PlayedTurn<G>,
    ) -> Result<(), LineError> {
        let mut spent = Vec::new();
        if !played.chance.is_empty() {
            spent = std::mem::replace(&mut played.chance, std::mem::take(&mut self.chance_room));
        }
        let reveal = line.reveal().map(|(_, h)| h);
        self.start_turn_in(state, seat, reveal, &mut played.chance, &mut spent)
            .map_err(|e| at.illegal(Place::Line, None, e.reason))?;
        if spent.capacity() > 0 {
            spent.clear();
            self.chance_room = spent;
        }
        Ok(())
    }

    /// A set-up line of side `seat` (the step due), played: its
    /// commitments or openings, the deck's items, and once it completes
    /// the set-up, the chance drawn before turn 1.
    fn play_setup_line(
        &mut self,
        line: &Line<'_>,
        seat: Seat,
        at: At<'_>,
        check: SealCheck,
    ) -> Result<PlayedTurn<G>, LineError> {
        let begins = self.may_begin_setup(seat);
        if begins {
            self.hidden.begin_at(seat);
            self.order_first_passes();
        }
        let played = self.play_setup_line_begun(line, seat, at, check);
        if begins && played.is_err() {
            // Refused: the set-up is due from where it was.
            self.hidden.begin_at(setup_start(&self.header));
            self.order_first_passes();
        }
        played
    }

    /// [`Referee::play_setup_line`], once the side of `S1` is known.
    fn play_setup_line_begun(
        &mut self,
        line: &Line<'_>,
        seat: Seat,
        at: At<'_>,
        check: SealCheck,
    ) -> Result<PlayedTurn<G>, LineError> {
        let step = self.setup_due().expect("a set-up step is due");
        let (played, mut state) = self.play_setup(line, seat, step, at)?;
        let mut pending = self.table.pending();
        if let Some(deck) = pending.as_mut().map(table::Pending::deck_mut) {
            let mut checks = std::mem::take(&mut self.share_checks);
            let given = self.deck_setup_line(line, seat, deck, at, &mut checks);
            self.share_checks = checks;
            given?;
        }
        // Whether this line completes the set-up of hidden values.
        let mut hidden = self.hidden.clone();
        hidden.record(seat, &played.shown);
        let completes = hidden.setup_due().is_none();
        let opening = if step == SetupStep::Shares || !completes {
            Vec::new()
        } else {
            self.begin_play(seat, &played, &mut state)
                .map_err(|e| at.illegal(Place::Line, None, e.reason))?
        };
        if let (Some(pending), true) = (pending.as_mut(), completes) {
            self.deck_begin_play(&state, seat, pending.deck_mut(), at, check)?;
            self.owe_setup_farewells(&state);
        }
        self.commit_turn(seat, state, &played);
        if let Some(pending) = pending {
            self.table.keep(pending);
        }
        if self.keep.chance {
            self.chance.extend(opening);
        }
        Ok(played)
    }

    /// The set-up line `played` of side `seat` completing the set-up:
    /// the chance the rules draw before turn 1 ([`Game::begin_play`]),
    /// made in `state`, seeded with every side's latest reveal (this
    /// line's for its side). Returns the values drawn.
    fn begin_play(
        &self,
        seat: Seat,
        played: &PlayedTurn<G>,
        state: &mut G::State,
    ) -> Result<Vec<ChanceEvent>, Illegal> {
        let reveals = self
            .header
            .seats()
            .map(|s| {
                if s == seat {
                    played.reveal.or(self.ledger.latest(s))
                } else {
                    self.ledger.latest(s)
                }
            })
            .collect();
        let mut chance = chance::OpeningChance {
            referee: self,
            reveals,
            samplers: Vec::new(),
            events: Vec::new(),
        };
        G::begin_play(state, &mut chance)?;
        Ok(chance.events)
    }

    /// Whether `line` is the kind of line `phase` takes (a set-up line or a
    /// turn), numbered as the next one.
    fn check_numbering(line: &Line<'_>, phase: Phase, written: At<'_>) -> Result<(), LineError> {
        let number = written.turn;
        let message = match (phase, line.kind) {
            (Phase::Setup, LineKind::Turn) => {
                format!("the set-up is not finished: the next line is S{number}, a set-up line")
            }
            (Phase::Play | Phase::Audit | Phase::Over, LineKind::Setup) => {
                "the set-up is over: set-up lines come before turn 1".into()
            }
            _ if line.number == number => return Ok(()),
            (_, LineKind::Setup) => format!(
                "set-up line S{number} is numbered S{}: set-up lines count up from S1 without gaps",
                line.number
            ),
            (_, LineKind::Turn) => format!(
                "turn {number} is numbered {}: turns count up from 1 without gaps",
                line.number
            ),
        };
        Err(written.record(Place::Number, message))
    }

    /// A closing line of side `seat` in the audit: its openings, or a
    /// refusal (a forfeit claimed by another player), which fails the
    /// audit.
    fn play_closing(
        &mut self,
        line: &Line<'_>,
        seat: Seat,
        claimant: Option<Side>,
        at: At<'_>,
    ) -> Result<PlayedTurn<G>, LineError> {
        let side = self.header.side(seat);
        let (played, state, verdict) = if let Some(claimant) = claimant {
            let mut played = PlayedTurn::blank(at.turn, side, self.before(&self.state));
            played.claimant = Some(claimant);
            let forfeit = Forfeit {
                turn: at.turn,
                side,
                claimant,
                line: LineKind::Turn,
                audit: true,
            };
            self.forfeits.push(forfeit);
            let provisional = self.board_outcome();
            let winner = match provisional {
                Outcome::Won(w) => w == side,
                Outcome::TeamWon(team) => team.sides().any(|s| s == side),
                _ => false,
            };
            if winner {
                self.decided_by = Some(forfeit);
            }
            let refused = Err(format!("{} refused to open its hidden values", at.side));
            (played, G::State::clone(&self.state), refused)
        } else {
            self.play_audit(line, seat, at)?
        };
        let mut pending = self.table.pending();
        let verdict = match pending.as_mut().map(table::Pending::deck_mut) {
            Some(deck) if claimant.is_none() => {
                let earlier = self.hidden.verdict_of(seat).cloned().unwrap_or(Ok(()));
                // The passes are audited whatever came before, so that the
                // side's audit is done (a failed maze does not leave it due).
                // A hand's passes are its holder's to open.
                // A hand that left was audited as it left.
                let passes = match self.holds_hand(seat) {
                    Some(hand) if deck.has_left(hand) => {
                        deck.left_verdict(hand).cloned().unwrap_or(Ok(()))
                    }
                    Some(hand) => deck.audit(hand, &cards::seed_openings(line)),
                    None => Ok(()),
                };
                verdict.and(earlier).and(passes)
            }
            _ => verdict,
        };
        if let (Some(pending), Some(_), Some(hand)) =
            (pending.as_mut(), claimant, self.holds_hand(seat))
        {
            // A refusal is the failed audit of its passes too.
            let _ = pending.deck_mut().audit(hand, &[]);
        }
        // Passes of other sides checked now that this side's seeds are
        // open (past decks kept as digests, deck::DeckLedger::audit).
        let late = pending
            .as_mut()
            .map_or_else(Vec::new, |p| p.deck_mut().late_faults());
        self.commit_turn(seat, state, &played);
        if let Some(pending) = pending {
            self.table.keep(pending);
        }
        match claimant {
            Some(_) => self.hidden.refused(seat, verdict.err().unwrap_or_default()),
            None => self.hidden.audited(seat, verdict),
        }
        self.fail_late(late);
        Ok(played)
    }

    /// Audits of hands' passes found failed after their closing lines
    /// ([`deck::DeckLedger::late_faults`]): each fails its holder's audit,
    /// unless that failed already.
    fn fail_late(&mut self, late: Vec<(deck::Hand, String)>) {
        for (hand, why) in late {
            if let Some(seat) = self.table.holder(hand) {
                if matches!(self.hidden.verdict_of(seat), Some(Ok(()))) {
                    self.hidden.audited(seat, Err(why));
                }
            }
        }
    }

    /// Read the record again from `source` where the deck's audit needs
    /// the cards of past passes, so that they are kept as digests
    /// ([`deck::DeckLedger::read_again`]): `check` of a file.
    pub fn read_again(&mut self, source: std::sync::Arc<dyn Reread>) {
        if let Some(mut pending) = self.table.pending() {
            pending
                .deck_mut()
                .read_again(std::sync::Arc::new(cards::PassesAgain(source)));
            self.table.keep(pending);
        }
    }

    /// The record is over: the deck's passes still waiting are checked
    /// ([`deck::DeckLedger::finish_audit`]), their faults failing their
    /// holders' audits; refused if the record read again was not the one
    /// read before.
    fn finish_deck_audit(&mut self) -> Result<(), RefereeError> {
        let Some(mut pending) = self.table.pending() else {
            return Ok(());
        };
        let deck = pending.deck_mut();
        deck.finish_audit();
        let late = deck.late_faults();
        let error = deck.take_reread_error();
        self.table.keep(pending);
        self.fail_late(late);
        match error {
            Some(e) => Err(RefereeError::record(None, e)),
            None => Ok(()),
        }
    }

    /// The side of `line` and its seat in the header if the line may
    /// come now, in `phase`: numbered as the next line (`kind` `number`),
    /// by a side of the game, the one to move, the game not over.
    fn check_head(
        &self,
        line: &Line<'_>,
        phase: Phase,
        kind: LineKind,
        number: u32,
    ) -> Result<(Side, Seat), LineError> {
        let written = At {
            line: kind,
            turn: number,
            side: line.side,
        };
        Self::check_numbering(line, phase, written)?;
        let Some((side, seat)) = self.header.side_seat_named::<G>(line.side) else {
            return Err(written.record(
                Place::Side,
                format!(
                    "unknown side `{}`: the sides of this game are {}",
                    line.side,
                    self.header.side_list::<G>()
                ),
            ));
        };
        let at = At {
            line: kind,
            turn: number,
            side: side.name::<G>(),
        };
        if phase == Phase::Over {
            return Err(self.over_refusal(line, at));
        }
        self.check_head_keys(line, phase, seat, at)?;
        self.check_head_due(line, phase, side, seat, at)?;
        Ok((side, seat))
    }

    /// The refusal of a line after the game is over.
    #[cold]
    fn over_refusal(&self, line: &Line<'_>, at: At<'_>) -> LineError {
        let outcome = self.outcome();
        let draw_word = match line.ending {
            Ending::Offer => "; a draw can be offered only while the game runs",
            Ending::Accept => "; a draw can be accepted only while the game runs",
            _ => "",
        };
        at.illegal(
            Place::Line,
            None,
            format!(
                "the game is already over ({}): no turn may follow{draw_word} ({} shows the result)",
                match (outcome.winners::<G>(), &self.agreed) {
                    (Some(w), _) => format!("{w} won"),
                    (None, Some(_)) => "a draw by agreement".into(),
                    (None, None) => "a draw".into(),
                },
                Command::check(),
            ),
        )
    }

    /// The sides' keys a line of `seat` needs: every side's before the
    /// first set-up line (before protocol 3); under protocol 3 a side's
    /// Key tag where another side signs, and its Commit tag with its
    /// first set-up line.
    fn check_head_keys(
        &self,
        line: &Line<'_>,
        phase: Phase,
        seat: Seat,
        at: At<'_>,
    ) -> Result<(), LineError> {
        if let Some(keyless) = self.keyless {
            let name = self.header.name::<G>(keyless);
            return Err(at.illegal(
                Place::Line,
                None,
                format!(
                    "{name} has no Commit tag: every side adds its key before the first set-up line, since tags are never added after a line ({name} runs {}, then the set-up begins)",
                    Command::keygen(name),
                ),
            ));
        }
        let name = at.side;
        if let Some(other) = self.signs_alone(seat, line) {
            // Protocol 3: once a side has a key, every line is signed, so
            // a side's tags cannot be stripped with its signatures.
            return Err(at.illegal(
                Place::Line,
                None,
                format!(
                    "{name} has no Key tag, and {other} has one: under [Protocol \"3\"] every line is signed once a side has a key, and {name}'s key joins the header with {name}'s first line ({}, or {} in a game with a set-up); if {name}'s tags were there, they were removed from this copy",
                    Command::keygen(name).on_record().makes_key(&format!("{}.key", name.to_ascii_lowercase())),
                    Command::setup().side(name),
                ),
            ));
        }
        if phase == Phase::Setup
            && line.ending != Ending::Forfeit
            && self.header.commits()[seat.index()].is_none()
        {
            // Protocol 3: a side's key joins the header with its first line.
            return Err(at.illegal(
                Place::Line,
                None,
                format!(
                    "{name} has no Commit tag: {name}'s key joins the header with its first set-up line ({} makes the key and writes the line)",
                    Command::setup().side(name).on_record().key_file(&format!("{}.key", name.to_ascii_lowercase())),
                ),
            ));
        }
        Ok(())
    }

    /// A line of `side` (`seat`) when its step is due, or when it may
    /// write out of turn: no draw accepted by the side that offered it,
    /// no audit of a side with none due, no turn of another side.
    fn check_head_due(
        &self,
        line: &Line<'_>,
        phase: Phase,
        side: Side,
        seat: Seat,
        at: At<'_>,
    ) -> Result<(), LineError> {
        let due = self
            .to_move_in(phase)
            .unwrap_or_else(|| G::to_move(&self.state));
        if side == due || self.may_write_out_of_turn(seat, phase) {
            return Ok(());
        }
        if let Some(offer) = self
            .offer
            .as_ref()
            .filter(|o| line.ending == Ending::Accept && o.by == seat)
        {
            return Err(at.illegal(
                Place::End,
                Some("accept draw"),
                format!(
                    "{} offered this draw itself on turn {}: the other sides accept it, not \
                     the side that offered ({} answers next: {}, or plays on)",
                    at.side,
                    offer.turn,
                    due.name::<G>(),
                    Command::moves().action("accept draw").key(),
                ),
            ));
        }
        if phase == Phase::Audit {
            return Err(at.illegal(
                Place::Side,
                None,
                format!(
                    "{} has no audit due (it opened everything, or was audited already): the audits due are {}",
                    at.side,
                    possessives::<G>(&self.audits_due())
                ),
            ));
        }
        let what = match phase {
            Phase::Setup => "set-up step",
            _ => "turn",
        };
        Err(at.illegal(
            Place::Side,
            None,
            format!("it is {}'s {what}, not {}'s", due.name::<G>(), at.side),
        ))
    }

    /// Check the proof items of `line` that this game has no use for: a
    /// second reveal, openings, signatures and shares.
    fn check_proofs(&self, line: &Line<'_>, at: At<'_>) -> Result<(), LineError> {
        let mut reveals = 0;
        let mut sigs = 0;
        let mut dates = 0;
        for (k, proof) in line.proofs.iter().enumerate() {
            let reason = match proof {
                ProofKind::Date(_) => {
                    dates += 1;
                    if dates == 1 {
                        continue;
                    }
                    "a line carries one date: this is a second".to_owned()
                }
                ProofKind::Reveal(_) => {
                    reveals += 1;
                    if reveals == 1 {
                        continue;
                    }
                    "a line carries one reveal: this is a second".to_owned()
                }
                _ if self.table.has_deck() && cards::is_deck_item(proof) => continue,
                ProofKind::Open { .. } | ProofKind::Commit { .. } if self.hidden.any() => {
                    if matches!(proof, ProofKind::Commit { .. }) && line.kind != LineKind::Setup {
                        "commitments stand on set-up lines only".to_owned()
                    } else {
                        continue;
                    }
                }
                ProofKind::Open { slot, .. } | ProofKind::Commit { slot, .. } => format!(
                    "{slot}: {} has no hidden values, so there is nothing to commit to or open",
                    G::TITLE
                ),
                ProofKind::Sign(_) => {
                    // Whose key it needs is the seal's to say.
                    sigs += 1;
                    if sigs == 1 {
                        continue;
                    }
                    "a line carries one signature: this is a second".to_owned()
                }
                ProofKind::Share { .. } => format!(
                    "{} deals no hidden cards, so its lines carry no decryption shares",
                    G::TITLE
                ),
                ProofKind::CardKey { .. } => format!(
                    "{} deals no hidden cards, so its lines carry no card keys",
                    G::TITLE
                ),
                ProofKind::Deck { .. } => format!(
                    "{} deals no hidden cards, so its lines carry no deck",
                    G::TITLE
                ),
                ProofKind::CardSecret(_) => format!(
                    "{} deals no hidden cards, so its lines carry no card secret",
                    G::TITLE
                ),
            };
            return Err(at.record(Place::Proof(k), reason));
        }
        Ok(())
    }

    /// Check the reveal `line` carries for side `seat` (spec section 3.1).
    fn check_reveal(&self, line: &Line<'_>, seat: Seat, at: At<'_>) -> Result<(), LineError> {
        let name = at.side;
        let (k, reveal) = line.reveal().map_or((0, None), |(k, h)| (k, Some(h)));
        if line.ending == Ending::Forfeit {
            // Written by the claimant: the forfeiting side reveals nothing.
            return match reveal {
                None => Ok(()),
                Some(_) => Err(at.record(
                    Place::Proof(k),
                    "a forfeit line carries no reveal: only the claimant's signature".into(),
                )),
            };
        }
        let fault = match self
            .ledger
            .check(self.header.side_chain(seat), seat, reveal)
        {
            Ok(()) => return Ok(()),
            Err(fault) => fault,
        };
        Err(match fault {
            RevealFault::Uncommitted => at.record(
                Place::Proof(k),
                format!("{name} has no Commit tag, so its lines carry no reveal"),
            ),
            RevealFault::Missing if line.is_bare_resign() => at.record(
                Place::Line,
                format!(
                    "{name} has a Commit tag, so every {name} line carries a reveal, a resignation too (herald move resign --key); a player who stopped answering loses by a forfeit, claimed and signed by another (herald move --forfeit --key)"
                ),
            ),
            RevealFault::Missing => at.record(
                Place::Line,
                format!(
                    "{name} has a Commit tag, so every {name} line carries a reveal (herald move --key)"
                ),
            ),
            RevealFault::Broken { first } => {
                // Every chain is bound to the header: a header edited
                // after the keys were made fails at the first reveal.
                let (what, header) = match (first, self.header.protocol().binds_keys()) {
                    (true, true) => (
                        format!("{name}'s commitment"),
                        format!(
                            " (or the header was changed after the Commit tags were made: under [Protocol \"{}\"] {name}'s chain is bound to its {name}Key tag too, so a swapped key breaks it)",
                            self.header.protocol().tag_value().unwrap_or("2")
                        ),
                    ),
                    (true, false) => (
                        format!("{name}'s commitment"),
                        " (or the header was changed after the Commit tags were made)".into(),
                    ),
                    (false, _) => (format!("{name}'s previous reveal"), String::new()),
                };
                at.record(
                    Place::Proof(k),
                    format!(
                        "this reveal does not hash to {what}: the line was not written with {name}'s key, or was altered{header}"
                    ),
                )
            }
        })
    }

    /// A forfeit (spec section 3.8), claimed and signed by `claimant` for
    /// a side that stopped answering: it settles nothing and draws
    /// nothing; a pending event stays pending (declared where it was) for
    /// the next player's reveal.
    fn forfeit(&mut self, seat: Seat, side: Side, claimant: Side, number: u32) -> PlayedTurn<G> {
        let before = self.before(&self.state);
        let mut state = G::State::clone(&self.state);
        G::resign(&mut state, side);
        let declared = self.declared;
        let mut played = PlayedTurn::blank(number, side, before);
        played.claimant = Some(claimant);
        self.commit_turn(seat, state, &played);
        self.declared = declared.filter(|_| G::pending(&self.state).is_some());
        let forfeit = Forfeit {
            turn: number,
            side,
            claimant,
            line: LineKind::Turn,
            audit: false,
        };
        self.forfeits.push(forfeit);
        self.stranded = self.stranded_by(seat);
        if G::outcome(&self.state).is_over() || self.stranded.is_some() {
            self.decided_by = Some(forfeit);
        }
        played
    }

    /// The result a forfeit of side `seat` claimed in play gives at once
    /// when play cannot go on without it (spec section 3.8): in a game
    /// with a shared deck, every later draw needs a share of each hand,
    /// and a hand with no side left in the game publishes none (a
    /// resigning side's line carries its hand's leaving items; a claimed
    /// side writes nothing). The sides still in then win together.
    fn stranded_by(&self, seat: Seat) -> Option<Outcome> {
        if G::outcome(&self.state).is_over()
            || self.table.deck().is_none()
            || self.hand_in(&self.state, self.deck_index(seat))
        {
            return None;
        }
        let still: Vec<Side> = self
            .header
            .sides()
            .iter()
            .copied()
            .filter(|&s| G::takes_turns(&self.state, s))
            .collect();
        Some(match still.as_slice() {
            [] => Outcome::Draw,
            [one] => Outcome::Won(*one),
            many => Outcome::TeamWon(Team::of(many)),
        })
    }

    /// A forfeit claimed during the set-up (spec section 3.8): the side
    /// walked away before play, and loses; the game is over, with no
    /// audit (no play came of anyone's hidden values).
    fn walk_away(&mut self, seat: Seat, claimant: Side, at: At<'_>) -> PlayedTurn<G> {
        let side = self.header.side(seat);
        let mut played = PlayedTurn::blank(at.turn, side, self.before(&self.state));
        played.kind = LineKind::Setup;
        played.claimant = Some(claimant);
        self.commit_played(seat, &played);
        let forfeit = Forfeit {
            turn: at.turn,
            side,
            claimant,
            line: LineKind::Setup,
            audit: false,
        };
        self.forfeits.push(forfeit);
        self.walked_away = Some(seat);
        self.decided_by = Some(forfeit);
        played
    }

    /// Check the date of `line` (spec section 3.8): one on every line of
    /// a game with a `Deadline` tag, never before the last line's, and on
    /// a claim (by `claimant`), more days after the line before it than
    /// the deadline. Returns the line's date.
    fn check_date(
        &self,
        line: &Line<'_>,
        claimant: Option<Side>,
        at: At<'_>,
    ) -> Result<Option<record::Day>, LineError> {
        let date = line.date();
        let deadline = self.header.deadline();
        if deadline.is_some() && date.is_none() {
            return Err(at.record(
                Place::Line,
                "this game has a Deadline tag, so every line carries the day it was written (`date 2026-11-28`, which herald move and herald setup add)".into(),
            ));
        }
        if let (Some((k, day)), Some(last)) = (date, self.last_date) {
            if day < last {
                return Err(at.record(
                    Place::Proof(k),
                    format!("this line is dated {day}, before the line before it ({last}): lines are dated in order"),
                ));
            }
        }
        let writer = claimant.map_or(at.side, |c| c.name::<G>());
        self.refuse_from_the_future(date, claimant, writer, at)?;
        if let (Some(deadline), Some((_, day))) = (deadline, date) {
            self.refuse_before_claim_answered(writer, deadline, day, at)?;
        }
        let (Some(deadline), Some(claimant), Some((_, day))) = (deadline, claimant, date) else {
            return Ok(date.map(|(_, d)| d));
        };
        self.refuse_early_claim(claimant, deadline, day, at)?;
        Ok(Some(day))
    }

    /// An open claim (its target's own answer voided it before this
    /// check): its target has the whole deadline again to answer it, and
    /// no other line (`writer`'s, dated `day`) may follow it before then,
    /// the claimant's own included; so a claim never stands while its
    /// target may still be answering it, and no quick line forks the
    /// game. The target's own lines (conceding with its audit) need no
    /// wait.
    fn refuse_before_claim_answered(
        &self,
        writer: &str,
        deadline: i64,
        day: record::Day,
        at: At<'_>,
    ) -> Result<(), LineError> {
        let (Some(claim), Some(claimed_on)) = (&self.claim, self.last_date) else {
            return Ok(());
        };
        let target = self.header.side(claim.target).name::<G>();
        if writer == target || day.0 - claimed_on.0 > deadline {
            return Ok(());
        }
        let from = record::Day(claimed_on.0 + deadline + 1);
        Err(at.illegal(
            Place::Line,
            None,
            format!(
                "{target} may still answer the forfeit claimed on {} (dated {claimed_on}): {target}'s own next line voids the claim, and no other line may follow it before {from} (the game's Deadline, {deadline} day{}, after the claim); from {from} on, the claim stands with the next line",
                claim.forfeit.line_name(),
                if deadline == 1 { "" } else { "s" }
            ),
        ))
    }

    /// A forfeit claimed by `claimant` on a line dated `day`: only once
    /// the claimed side's step has been due longer than the game's
    /// Deadline (`deadline` days) since the line before it was dated.
    fn refuse_early_claim(
        &self,
        claimant: Side,
        deadline: i64,
        day: record::Day,
        at: At<'_>,
    ) -> Result<(), LineError> {
        let claimant = claimant.name::<G>();
        let Some(since) = self.last_date else {
            return Err(at.illegal(
                Place::End,
                Some("forfeit"),
                format!(
                    "no line of this game is dated yet, so nothing shows how long {}'s step has been due: {claimant} may claim only after a dated line",
                    at.side
                ),
            ));
        };
        // After an open claim, a step of a side other than its target
        // became due only when the claim stood (no line but the target's
        // could follow it before): its whole Deadline runs from then, so
        // a claimant's own closing line is never claimable the day it
        // first may be written.
        let (since, from_what) = match &self.claim {
            Some(claim) if self.header.side(claim.target).name::<G>() != at.side => (
                record::Day(since.0 + deadline + 1),
                format!("the day the claim on {} stood", claim.forfeit.line_name()),
            ),
            _ => (since, "the line before".to_string()),
        };
        let waited = day.0 - since.0;
        if waited > deadline {
            return Ok(());
        }
        let from = record::Day(since.0 + deadline + 1);
        Err(at.illegal(
            Place::End,
            Some("forfeit"),
            format!(
                "{}'s step has been due since {since} ({from_what}), {waited} day{} by this claim's date {day}, and the game's Deadline is {deadline} day{}: {claimant} may claim from {from} on, if {} has not answered by then",
                at.side,
                if waited == 1 { "" } else { "s" },
                if deadline == 1 { "" } else { "s" },
                at.side
            ),
        ))
    }

    /// Refuse a line dated more than a day after the reader's today
    /// ([`Keep::today`]) where its date would let a claim stand: a claim
    /// (by `claimant`), or a line of a side other than an open claim's
    /// target (`writer`), which lets that claim stand. A deadline counts
    /// by the signed dates, which their writer chooses: a claim dated
    /// ahead would claim time that has not passed (spec section 3.8).
    /// A day ahead is someone's today somewhere.
    fn refuse_from_the_future(
        &self,
        date: Option<(usize, record::Day)>,
        claimant: Option<Side>,
        writer: &str,
        at: At<'_>,
    ) -> Result<(), LineError> {
        let (Some(today), Some((k, day))) = (self.keep.today, date) else {
            return Ok(());
        };
        if day.0 <= today.0 + 1 {
            return Ok(());
        }
        let open = self
            .claim
            .as_ref()
            .filter(|c| self.header.side(c.target).name::<G>() != writer);
        let from = record::Day(day.0 - 1);
        let message = if claimant.is_some() {
            format!(
                "this claim is dated {day}, more than a day after today ({today}) by this computer's clock: a line from the future cannot show that {target}'s step has been due longer than the game's Deadline; the claimant's clock or this computer's is wrong: if this computer's date is right (date -u), the claim is read from {from} on, and {target} may answer the record before it meanwhile, which voids it",
                target = at.side
            )
        } else if let Some(claim) = open {
            format!(
                "this line is dated {day}, more than a day after today ({today}) by this computer's clock: a line from the future cannot let {}'s claim on {} stand before the game's Deadline has passed; its writer's clock or this computer's is wrong: if this computer's date is right (date -u), the line is read from {from} on",
                claim.forfeit.claimant.name::<G>(),
                claim.forfeit.line_name()
            )
        } else {
            return Ok(());
        };
        Err(at.record(Place::Proof(k), message))
    }

    /// Give the day a line composed now is dated (the CLI's clock, or a
    /// date the player gave): herald adds it to every line of a game with
    /// a `Deadline` tag.
    pub fn set_today(&mut self, day: record::Day) {
        self.today = Some(day);
    }

    /// The date of the last dated line, if any.
    pub fn last_date(&self) -> Option<record::Day> {
        self.last_date
    }

    /// The claim the last line made, if its target may still answer it
    /// with its own next line: the claimed side and the phase it was
    /// claimed in.
    pub fn open_claim(&self) -> Option<(Side, Phase)> {
        self.claim
            .as_ref()
            .map(|c| (self.header.side(c.target), c.phase))
    }

    /// Whether `line` (not a claim) is the claimed side's own answer to
    /// the open claim: its line of the step the claim was made on.
    fn answers_claim(&self, line: &Line<'_>) -> bool {
        let Some(claim) = &self.claim else {
            return false;
        };
        let ours = self
            .header
            .side_seat_named::<G>(line.side)
            .is_some_and(|(_, i)| i == claim.target);
        ours && line.ending != Ending::Forfeit
            && match claim.phase {
                Phase::Setup => line.kind == LineKind::Setup,
                Phase::Audit => line.ending == Ending::Audit,
                Phase::Play | Phase::Over => {
                    line.kind == LineKind::Turn && line.ending != Ending::Audit
                }
            }
    }

    /// Void the open claim (spec section 3.8): the game as it stood
    /// before it, the claim line still counted (its number, the record
    /// digest over it), for the claimed side's own line that answers it.
    /// `move` and `setup` call it before composing that line; a reader
    /// does the same as it meets the line.
    pub fn void_claim(&mut self) {
        let Some(claim) = self.claim.take() else {
            return;
        };
        let mut before = claim.before;
        // What the reader already checked is where the replay is now, not
        // where it was before the claim: the answer's signature and share
        // proofs are verified unless the digest checked is still ahead.
        let vouched = self.table.deck().is_some_and(|d| d.is_vouched());
        before.checked_to = self.checked_to;
        before.digest = self.digest;
        before.deferred = self.deferred.take();
        before.turns = self.turns;
        before.setup_lines = self.setup_lines;
        before.keep = self.keep;
        before.chance = std::mem::take(&mut self.chance);
        before.voided = std::mem::take(&mut self.voided);
        before.voided.push(claim.forfeit);
        before.claim = None;
        before.last_date = self.last_date;
        before.today = self.today;
        *self = before;
        self.vouch_deck(vouched);
    }

    /// The claims voided by their target's own next line, in order.
    pub fn voided_claims(&self) -> &[Forfeit] {
        &self.voided
    }

    /// The line of a side that the event settled at the start of its turn
    /// ended the game for, or put out: it may carry nothing but its reveal
    /// (and the settled facts).
    fn settled_out(
        &self,
        line: &Line<'_>,
        state: &G::State,
        derived: Vec<ChanceEvent>,
        at: At<'_>,
    ) -> Result<PlayedTurn<G>, LineError> {
        if let Some((k, text)) = line.actions().next() {
            return Err(at.illegal(
                Place::Item(k),
                Some(text),
                format!(
                    "{} is out since {} settled at the start of this turn: the line may only pass",
                    at.side,
                    derived.first().map_or("the pending event", |e| e.label)
                ),
            ));
        }
        if let Some(&(k, slot, ..)) = Self::openings(line).first() {
            return Err(at.record(
                Place::Proof(k),
                format!("open {slot}: the rules do not open {slot} now"),
            ));
        }
        let mut played = PlayedTurn::blank(at.turn, G::to_move(&self.state), self.before(state));
        played.chance = derived;
        played.reveal = line.reveal().map(|(_, h)| h);
        check_facts(line, &played.chance, at)?;
        Ok(played)
    }

    /// Play the actions of `line`, of side `seat` (the side to move in
    /// `state`), from `state` (the turn begun, the chance it derived in
    /// `played.chance`), then end the turn as the line says; the turn
    /// played goes into `played`. In a game with a
    /// shared deck, the cards the line opened (`opened`) must be the
    /// cards its actions spend.
    #[allow(clippy::too_many_arguments)]
    fn play_turn(
        &self,
        line: &Line<'_>,
        seat: Seat,
        state: &mut G::State,
        mut opened: Option<&mut cards::Openings>,
        at: At<'_>,
        played: &mut PlayedTurn<G>,
    ) -> Result<(), LineError> {
        let side = self.header.side(seat);
        // The facts are the turn-start chance, known before any action:
        // a false one is the line's first defect, whatever its actions.
        check_facts(line, &played.chance, at)?;
        played.begin(at.turn, side);
        let shown = &mut played.shown;
        // Openings the rules demanded before this line: made before the
        // actions (a defender's identity).
        let openings = if self.hidden.any() {
            let before_actions = G::demands(state);
            let rest = self.answer(
                state,
                seat,
                Self::openings(line),
                &before_actions,
                at,
                shown,
            )?;
            self.check_answered(state, seat, at)?;
            rest
        } else {
            Vec::new()
        };
        played.before = self.before(state);
        let actions = &mut played.actions;
        let declaring = Self::play_actions(line, state, opened.as_deref_mut(), at, actions)?;
        if let Some((k, reason)) = opened.and_then(|o| o.unspent::<G>()) {
            return Err(at.illegal(Place::Proof(k), None, reason));
        }
        if self.hidden.any() {
            // Openings the mover's own actions demanded (an attacker's).
            let after_actions = G::demands(state);
            let rest = self.answer(state, seat, openings, &after_actions, at, &mut played.shown)?;
            if let Some(&(k, slot, ..)) = rest.first() {
                return Err(at.record(
                    Place::Proof(k),
                    format!("open {slot}: the rules do not open {slot} now"),
                ));
            }
            self.check_answered(state, seat, at)?;
        }
        self.end_turn(line, state, side, at)?;
        if let Some(request) = G::pending(state) {
            self.check_settleable(request.label, state, declaring, at)?;
        }
        played.resign = line.ending == Ending::Resign;
        played.draw = match line.ending {
            Ending::Offer => Some(record::DrawItem::Offer),
            Ending::Accept => Some(record::DrawItem::Accept),
            _ => None,
        };
        played.reveal = line.reveal().map(|(_, h)| h);
        Ok(())
    }

    /// Read and apply the actions of `line` in `state`, each action that
    /// spends a card taking it from the cards the line opened, if it
    /// opened any (`openings`), and add them to `actions` (empty before).
    /// Returns the action after which a chance event became pending (its
    /// declaration), if one did.
    fn play_actions<'l>(
        line: &'l Line<'_>,
        state: &mut G::State,
        mut openings: Option<&mut cards::Openings>,
        at: At<'_>,
        actions: &mut Vec<G::Action>,
    ) -> Result<Option<(usize, &'l str)>, LineError> {
        let mut declaring = None;
        for (k, text) in line.actions() {
            if G::outcome(state).is_over() {
                let when = if actions.is_empty() {
                    "at the start of this line"
                } else {
                    "with the action before"
                };
                return Err(at.illegal(
                    Place::Item(k),
                    Some(text),
                    format!("the game ended {when} ({})", G::summary(state)),
                ));
            }
            let action = G::parse_action(state, text).map_err(|e| {
                at.error(
                    ErrorKind::Parse,
                    Place::ItemPart {
                        index: k,
                        offset: e.offset,
                        len: e.len,
                    },
                    Some(text),
                    e.reason,
                )
            })?;
            if let (Some(opened), Some(card)) =
                (openings.as_deref_mut(), G::card_spent(state, &action))
            {
                opened
                    .spend::<G>(card)
                    .map_err(|e| at.illegal(Place::Item(k), Some(text), e))?;
            }
            G::apply(state, action)
                .map_err(|e| at.illegal(Place::Item(k), Some(text), e.reason))?;
            actions.push(action);
            if declaring.is_none() && G::pending(state).is_some() {
                declaring = Some((k, text));
            }
        }
        Ok(declaring)
    }

    /// End the turn as `line` ends: resign, or the game's end of turn.
    fn end_turn(
        &self,
        line: &Line<'_>,
        state: &mut G::State,
        side: Side,
        at: At<'_>,
    ) -> Result<(), LineError> {
        if line.ending == Ending::Resign {
            if G::outcome(state).is_over() {
                return Err(at.illegal(
                    Place::End,
                    Some("resign"),
                    "the game is already over".into(),
                ));
            }
            G::resign(state, side);
        } else if line.ending == Ending::Accept && self.accepts_last(side) {
            // The draw is agreed with this line: the turn does not end, the
            // game does.
        } else if !G::outcome(state).is_over() {
            G::end_turn(state).map_err(|e| {
                let (what, hint) = match line.ending {
                    Ending::Pass => ("pass", ""),
                    Ending::Accept => (
                        "accept draw",
                        " (others are still to accept after this side, so its turn goes on: \
                         herald move \"<actions>, accept draw\" --key)",
                    ),
                    _ => ("end of turn", ""),
                };
                at.illegal(Place::End, Some(what), format!("{}{hint}", e.reason))
            })?;
        }
        Ok(())
    }

    /// Chance after a decision is settled by the next player's reveal:
    /// without that player's commitment, or once its hash chain is used
    /// up, it never can be, so the declaring action is the error (spec
    /// section 3.4).
    fn check_settleable(
        &self,
        label: &str,
        state: &G::State,
        declaring: Option<(usize, &str)>,
        at: At<'_>,
    ) -> Result<(), LineError> {
        let settler = G::to_move(state);
        if self.can_settle(settler) {
            return Ok(());
        }
        let name = settler.name::<G>();
        let reason = if self.ledger.is_empty() {
            no_commitments(label)
        } else if self.latest_reveal(settler).is_none() {
            format!(
                "{name} has no Commit tag: {label} is settled by {name}'s next reveal ({})",
                self.keygen_hint(settler)
            )
        } else {
            format!("{name}'s hash chain is used up: {label} could never be settled")
        };
        Err(match declaring {
            Some((k, text)) => at.illegal(Place::Item(k), Some(text), reason),
            None => at.illegal(Place::Line, None, reason),
        })
    }

    /// A copy of the position in a box of its own, to play a turn in:
    /// the box of the position before the last turn, if there is one.
    fn spare_copy(&mut self) -> Box<G::State> {
        match self.spare.take() {
            Some(mut spare) => {
                spare.as_mut().clone_from(&self.state);
                spare
            }
            None => self.state.clone(),
        }
    }

    /// Make `played` (which left the game in `state`) part of the game.
    fn commit_turn(&mut self, seat: Seat, state: G::State, played: &PlayedTurn<G>) {
        *self.state = state;
        self.commit_played(seat, played);
    }

    /// Make `played` part of the game, the position it left already in
    /// `self.state`.
    #[inline]
    fn commit_played(&mut self, seat: Seat, played: &PlayedTurn<G>) {
        if played.claimant.is_none() {
            // A forfeit is the claimant's line: the side's chain stays.
            self.ledger.record(seat, played.reveal);
        }
        if !played.shown.is_empty() {
            self.hidden.record(seat, &played.shown);
        }
        match played.kind {
            LineKind::Setup => self.setup_lines = played.number,
            LineKind::Turn => self.turns = played.number,
        }
        // An event pending now was declared by this turn (any earlier one
        // was settled at its start).
        self.declared = G::pending(&self.state).map(|_| (played.number, played.side));
        if self.keep.chance {
            self.chance.extend(played.chance.iter().cloned());
        }
        if self.hidden.any() && (self.board_outcome().is_over() || self.table.broken_on().is_some())
        {
            self.audit_opened_sides();
        }
    }

    /// Once the rules ended the game, audit every side whose hidden values
    /// are all open already (spec section 3.7): it writes no closing line,
    /// but its values must obey the set-up rules all the same.
    fn audit_opened_sides(&mut self) {
        for (seat, side) in self.header.seated() {
            if let Some(values) = self.hidden.opened_unaudited(seat) {
                let values: Vec<(&str, &str)> =
                    values.iter().map(|(s, v)| (*s, v.as_str())).collect();
                let verdict = G::audit(&self.state, side, &values).map_err(|e| e.reason);
                // A hand's passes audited as it left count too.
                let left = self
                    .holds_hand(seat)
                    .and_then(|hand| self.table.deck()?.left_verdict(hand).cloned());
                self.hidden
                    .audited(seat, verdict.and(left.unwrap_or(Ok(()))));
            }
        }
    }

    /// The position at the start of the next turn, for a mover whose line
    /// carries `reveal`: a pending event settled, turn-start bookkeeping and
    /// chance done. Returns the chance values derived.
    pub fn start_turn(
        &self,
        reveal: Option<Hash>,
    ) -> Result<(G::State, Vec<ChanceEvent>), Illegal> {
        let seat = self
            .header
            .seat_of(G::to_move(&self.state))
            .ok_or_else(|| Illegal::new("the side to move is not in the header"))?;
        let mut state = G::State::clone(&self.state);
        let mut derived = Vec::new();
        self.start_turn_in(&mut state, seat, reveal, &mut derived, &mut Vec::new())?;
        Ok((state, derived))
    }

    /// [`Referee::start_turn`] in `state`, a copy of the position now,
    /// for the side to move, `seat` in the header: the turn is begun in
    /// place (the state is not moved about), the chance values derived
    /// added to `derived` (empty before), the turn-start ones written
    /// over events of `spent` while it has some.
    fn start_turn_in(
        &self,
        state: &mut G::State,
        seat: Seat,
        reveal: Option<Hash>,
        derived: &mut Vec<ChanceEvent>,
        spent: &mut Vec<ChanceEvent>,
    ) -> Result<(), Illegal> {
        let number = self.next_turn();
        let side = self.header.side(seat);
        if let Some(request) = G::pending(state) {
            let declared = self.declared.map_or(number - 1, |d| d.0);
            let Some(reveal) = reveal else {
                return Err(Illegal::new(no_commitments(request.label)));
            };
            self.settle_values(request, declared, seat, &reveal, derived);
            let values: Vec<u32> = derived.iter().map(|e| e.value).collect();
            G::settle(state, &values)
                .map_err(|e| Illegal::new(format!("{}: {e}", request.label)))?;
        }
        if line_only_passes::<G>(state, side) {
            // The settlement ended the game, or put the settling player out
            // (their line then carries nothing but its reveal).
            return Ok(());
        }
        let from = derived.len();
        let mut chance = TurnChance {
            referee: self,
            seat,
            turn: number,
            mover: reveal,
            samplers: chance::Samplers::default(),
            events: derived,
            spent,
            from,
        };
        G::begin_turn(state, &mut chance)
    }

    /// The position at the start of the next turn, as far as it can be known
    /// before the mover writes the line: a pending event is not settled, and
    /// turn-start chance makes this fail with a reason.
    pub fn preview(&self) -> Result<G::State, Illegal> {
        let mut state = G::State::clone(&self.state);
        G::begin_turn(&mut state, &mut Lookahead { referee: self })?;
        Ok(state)
    }

    /// Check the `Result` tag against the game (after the last turn).
    pub fn check_result(&self) -> Result<(), RefereeError> {
        let computed = self.final_result().unwrap_or_else(|| "*".into());
        if computed.eq_ignore_ascii_case(self.header.result_tag()) {
            Ok(())
        } else {
            Err(RefereeError::record(
                Some(self.header.result_span()),
                format!(
                    "the Result tag says `{}` but the game's result is `{computed}`",
                    self.header.result_tag()
                ),
            ))
        }
    }
}

/// Whether `side`'s line may carry nothing but its reveal (and the settled
/// facts) in `state`, its position after [`Referee::start_turn`]: the
/// event settled there ended the game or put `side` out.
pub fn line_only_passes<G: Game>(state: &G::State, side: Side) -> bool {
    G::outcome(state).is_over() || G::to_move(state) != side
}

/// Replay a whole record, calling `each` after every turn with the turn and
/// the referee after it. Stops at the first problem. Signatures are
/// verified all at once at the end (or where another problem stops the
/// replay); a line whose seal breaks is the problem named when it comes
/// before the one that stopped the replay, so the first bad line is
/// named as if each were verified in turn.
pub fn replay<G: Game>(
    record: &Record<'_>,
    each: impl FnMut(&PlayedTurn<G>, &Referee<G>),
) -> Result<Referee<G>, RefereeError> {
    replay_keeping(record, Keep::ALL, each)
}

/// [`replay`], keeping only what `keep` says for the reader.
pub fn replay_keeping<G: Game>(
    record: &Record<'_>,
    keep: Keep,
    mut each: impl FnMut(&PlayedTurn<G>, &Referee<G>),
) -> Result<Referee<G>, RefereeError> {
    let mut replay = Replay::<G>::start(record, keep)?;
    for turn in &record.turns {
        replay.play_kept(turn)?;
        each(&replay.played, &replay.referee);
    }
    replay.finish()
}

/// The turns `record` holds: set-up lines come before turn 1 and are
/// not counted as turns (`show --turn`'s last turn).
pub fn turn_count(record: &Record<'_>) -> u32 {
    record
        .turns
        .iter()
        .filter(|t| t.kind == LineKind::Turn)
        .count() as u32
}

/// A record replayed to one of its turns ([`replay_to_turn`]).
#[derive(Debug)]
pub struct AtTurn<'r, 'a, G: Game> {
    /// The referee after that turn.
    pub referee: Referee<G>,
    /// The position that turn started from, and its line (`None` at
    /// turn 0): what a picture or diagram marks as changed by it.
    pub before: Option<(Referee<G>, &'r Turn<'a>)>,
}

/// Replay `record` to its turn `upto` (`show --turn`), keeping what
/// `keep` says: the set-up lines come before turn 1 and are played
/// whatever turn is asked for; at the record's last turn its Result
/// tag is checked too. A turn past the last is taken as the last
/// ([`turn_count`] says how many there are).
pub fn replay_to_turn<'r, 'a, G: Game>(
    record: &'r Record<'a>,
    upto: u32,
    keep: Keep,
) -> Result<AtTurn<'r, 'a, G>, RefereeError> {
    let mut referee = Referee::<G>::start(record)?.keeping(keep);
    let mut turns = 0;
    let mut before = None;
    for turn in &record.turns {
        if turn.kind == LineKind::Turn {
            if turns == upto {
                break;
            }
            turns += 1;
            if turns == upto {
                before = Some((referee.clone(), turn));
            }
        }
        referee.play(turn)?;
    }
    if upto >= turn_count(record) {
        referee.check_result()?;
    }
    Ok(AtTurn { referee, before })
}

/// A record replayed by a reader who already checked it up to a record
/// digest ([`replay_from_checked`]).
#[derive(Debug)]
pub enum Checked<G: Game> {
    /// The record replayed: every signature and share proof verified, but
    /// those of the lines up to the digest already checked (the digest,
    /// worked out over every line, shows that they are the lines checked
    /// before). Boxed: a referee is large.
    Replayed(Box<Referee<G>>),
    /// The record's digest never was the one already checked (nor the
    /// digest it was to end at): it is not the record checked before, or
    /// a line of it breaks a rule before that digest would be reached.
    /// Nothing of it can be taken as checked: replay it whole
    /// ([`replay_keeping`]) to learn what is wrong.
    Unproven,
}

/// [`replay_keeping`] for a reader who already checked this record up to
/// the line after which its digest (spec section 3.8) is `checked` (a
/// player's key file remembers it for the player's last line): the
/// signatures and share proofs of the lines up to that one are not
/// verified again, those of every later line are, and everything else of
/// every line is checked as always. A record whose digest is never
/// `checked` is [`Checked::Unproven`] unless its digest at the end is
/// `ends` (the record the player answered with that line, checked
/// before too). A problem met before the digest reaches `checked` is
/// not reported: the record is then `Unproven`. The record digest is
/// kept whatever `keep` says; in a record where nobody signs and no deck
/// is shared, nothing is skipped.
pub fn replay_from_checked<G: Game>(
    record: &Record<'_>,
    keep: Keep,
    checked: Hash,
    ends: Option<Hash>,
    mut each: impl FnMut(&PlayedTurn<G>, &Referee<G>),
) -> Result<Checked<G>, RefereeError> {
    let with_digest = Keep {
        digest: true,
        ..keep
    };
    let mut replay = Replay::<G>::start(record, with_digest)?;
    let referee = &mut replay.referee;
    if referee.header.any_key() || referee.table.has_deck() {
        if referee.digest != checked {
            referee.checked_to = Some(checked);
            referee.vouch_deck(true);
        }
    } else {
        // Nothing to skip: the digest only when asked for.
        referee.keep.digest = keep.digest;
    }
    for turn in &record.turns {
        let unproven = replay.referee.checked_to.is_some();
        match replay.play_kept(turn) {
            Ok(()) => each(&replay.played, &replay.referee),
            Err(_) if unproven => return Ok(Checked::Unproven),
            Err(e) => return Err(e),
        }
    }
    if replay.referee.checked_to.is_some() && Some(replay.referee.digest) != ends {
        return Ok(Checked::Unproven);
    }
    replay.referee.checked_to = None;
    replay.referee.vouch_deck(false);
    replay.finish().map(|r| Checked::Replayed(Box::new(r)))
}

/// A record replayed a turn at a time, as [`replay_keeping`] does, for a
/// reader that hands the turns on as it reads them
/// ([`record::stream::Visitor`]: `check` holds no more of a long record
/// than a part of it). Signatures wait to be verified together, at the
/// end of each part.
#[derive(Debug)]
pub struct Replay<G: Game> {
    referee: Referee<G>,
    /// The turn played last: each turn is played into it, its lists
    /// used again.
    played: PlayedTurn<G>,
    /// The lists each turn is read into, used again.
    room: LineRoom,
}

impl<G: Game> Replay<G> {
    /// Check the header of `record` (its turns are not played) and start
    /// the replay, keeping what `keep` says.
    pub fn start(record: &Record<'_>, keep: Keep) -> Result<Self, RefereeError> {
        let mut referee = Referee::<G>::start_keeping(record, keep)?;
        referee.defer_seals();
        Ok(Replay {
            referee,
            played: PlayedTurn::blank(0, Side(0), None),
            room: LineRoom::default(),
        })
    }

    /// The referee after the turns played so far (their signatures
    /// may still wait to be verified, at the end of their part).
    pub fn referee(&self) -> &Referee<G> {
        &self.referee
    }

    /// [`Replay::start`], the record read again from `again` (if any)
    /// where the deck's audit needs it ([`Replay::read_again`]).
    pub fn start_again(
        record: &Record<'_>,
        keep: Keep,
        again: Option<std::sync::Arc<dyn Reread>>,
    ) -> Result<Self, RefereeError> {
        let mut replay = Replay::<G>::start(record, keep)?;
        if let Some(again) = again {
            replay.read_again(again);
        }
        Ok(replay)
    }

    /// Read the record again from `again` where the deck's audit needs
    /// the cards of past passes, keeping them as digests meanwhile
    /// ([`Referee::read_again`]).
    pub fn read_again(&mut self, again: std::sync::Arc<dyn Reread>) {
        self.referee.read_again(again);
    }

    /// Play the record's next turn; a problem is placed in its text, or
    /// in an earlier turn's whose signature does not verify.
    pub fn play(&mut self, turn: &Turn<'_>) -> Result<PlayedTurn<G>, RefereeError> {
        self.referee
            .play(turn)
            .map_err(|e| self.referee.first_broken_seal().unwrap_or(e))
    }

    /// [`Replay::play`], the turn played kept in `self.played`.
    fn play_kept(&mut self, turn: &Turn<'_>) -> Result<(), RefereeError> {
        self.referee
            .play_into(turn, &mut self.played, &mut self.room)
            .map_err(|e| self.referee.first_broken_seal().unwrap_or(e))
    }

    /// The referee after the last turn played, once every signature
    /// waiting is verified.
    pub fn finish(mut self) -> Result<Referee<G>, RefereeError> {
        self.referee.verify_deferred()?;
        self.referee.finish_deck_audit()?;
        Ok(self.referee)
    }

    /// Check the record `reader` reads as `herald check` does: the
    /// header, every turn as it is read (keeping only what the rules
    /// need, [`Keep::RULES`], read on `today`, [`Keep::today`]), every
    /// signature, and the `Result` tag against the game. Gives the
    /// referee after the last turn, or why the check stopped (boxed: it
    /// is large and comes once a record).
    pub fn check<R: std::io::BufRead>(
        reader: record::stream::Reader<R>,
        today: Option<record::Day>,
    ) -> Result<Referee<G>, Box<record::stream::Stop<RefereeError>>> {
        Replay::<G>::check_again(reader, today, None)
    }

    /// [`Replay::check`], the record read again from `again` where the
    /// deck's audit needs the cards of past passes
    /// ([`Referee::read_again`]): its memory then stays flat however
    /// many times the deck is reshuffled.
    pub fn check_again<R: std::io::BufRead>(
        reader: record::stream::Reader<R>,
        today: Option<record::Day>,
        again: Option<std::sync::Arc<dyn Reread>>,
    ) -> Result<Referee<G>, Box<record::stream::Stop<RefereeError>>> {
        Replay::<G>::check_keeping(reader, Keep::RULES.on(today), again)
    }

    /// [`Replay::check_again`], keeping what `keep` says (`fate` keeps
    /// the chance values).
    pub fn check_keeping<R: std::io::BufRead>(
        reader: record::stream::Reader<R>,
        keep: Keep,
        again: Option<std::sync::Arc<dyn Reread>>,
    ) -> Result<Referee<G>, Box<record::stream::Stop<RefereeError>>> {
        reader
            .check(
                |header| Replay::<G>::start_again(header, keep, again),
                |replay| {
                    let referee = replay.finish()?;
                    referee.check_result().map(|()| referee)
                },
            )
            .map_err(Box::new)
    }

    /// [`Replay::check_again`], the chance values kept in a
    /// [`ChanceLog`] (`fate` read a part at a time): each turn's are
    /// moved into it once the turn is played, so that a record's whole
    /// list costs a few bytes an event. Gives the referee after the last
    /// turn and the log, or why the check stopped.
    pub fn check_logging_chance<R: std::io::BufRead>(
        reader: record::stream::Reader<R>,
        today: Option<record::Day>,
        again: Option<std::sync::Arc<dyn Reread>>,
    ) -> Result<(Referee<G>, ChanceLog), Box<record::stream::Stop<RefereeError>>> {
        let keep = Keep {
            chance: true,
            ..Keep::RULES
        };
        reader
            .check(
                |header| {
                    let replay = Replay::<G>::start_again(header, keep.on(today), again)?;
                    Ok(LoggingChance {
                        replay,
                        log: ChanceLog::default(),
                    })
                },
                |logging| {
                    let LoggingChance { replay, mut log } = logging;
                    let mut referee = replay.finish()?;
                    referee.check_result()?;
                    referee.chance.drain(..).for_each(|e| log.push(&e));
                    Ok((referee, log))
                },
            )
            .map_err(Box::new)
    }
    /// [`Replay::check_keeping`] as [`replay_keeping`] plays a record
    /// read whole: `each` gets the referee before the first turn (with
    /// no turn), then each turn played and the referee after it, as they
    /// are read (`replay` read a part at a time). What it was given is
    /// the record's only once this returns the referee: a signature or
    /// the `Result` tag may still refuse it.
    pub fn check_each<R: std::io::BufRead>(
        reader: record::stream::Reader<R>,
        keep: Keep,
        again: Option<std::sync::Arc<dyn Reread>>,
        mut each: impl FnMut(Option<&PlayedTurn<G>>, &Referee<G>),
    ) -> Result<Referee<G>, Box<record::stream::Stop<RefereeError>>> {
        reader
            .check(
                |header| {
                    let replay = Replay::<G>::start_again(header, keep, again)?;
                    each(None, &replay.referee);
                    Ok(EachTurn { replay, each })
                },
                |each| {
                    let referee = each.replay.finish()?;
                    referee.check_result().map(|()| referee)
                },
            )
            .map_err(Box::new)
    }
}

/// A [`Replay`] that hands each turn played and the referee after it to
/// `each` ([`Replay::check_each`]).
struct EachTurn<G: Game, F> {
    replay: Replay<G>,
    each: F,
}

impl<G: Game, F: FnMut(Option<&PlayedTurn<G>>, &Referee<G>)> record::stream::Visitor
    for EachTurn<G, F>
{
    type Error = RefereeError;

    fn turn(&mut self, turn: &Turn<'_>) -> Result<(), RefereeError> {
        self.replay.play_kept(turn)?;
        (self.each)(Some(&self.replay.played), &self.replay.referee);
        Ok(())
    }

    fn part_end(&mut self) -> Result<(), RefereeError> {
        record::stream::Visitor::part_end(&mut self.replay)
    }

    fn part_bytes(&self) -> usize {
        record::stream::Visitor::part_bytes(&self.replay)
    }
}

/// A [`Replay`] whose chance values are moved into `log` after each turn
/// ([`Replay::check_logging_chance`]).
struct LoggingChance<G: Game> {
    replay: Replay<G>,
    log: ChanceLog,
}

impl<G: Game> record::stream::Visitor for LoggingChance<G> {
    type Error = RefereeError;

    fn turn(&mut self, turn: &Turn<'_>) -> Result<(), RefereeError> {
        self.replay.play_kept(turn)?;
        let log = &mut self.log;
        self.replay
            .referee
            .chance
            .drain(..)
            .for_each(|e| log.push(&e));
        Ok(())
    }

    fn part_end(&mut self) -> Result<(), RefereeError> {
        record::stream::Visitor::part_end(&mut self.replay)
    }

    fn part_bytes(&self) -> usize {
        record::stream::Visitor::part_bytes(&self.replay)
    }
}

impl<G: Game> record::stream::Visitor for Replay<G> {
    type Error = RefereeError;

    fn turn(&mut self, turn: &Turn<'_>) -> Result<(), RefereeError> {
        self.play_kept(turn)
    }

    /// The signatures of the part's turns are verified while their
    /// text is at hand, to place a problem in it.
    fn part_end(&mut self) -> Result<(), RefereeError> {
        self.referee.verify_deferred_so_far()
    }

    /// Parts of [`SIGNED_PART`] where the lines' signatures are all
    /// that waits to be verified (a side signs, no deck is shared), so
    /// that a part's end verifies a window of them at once.
    fn part_bytes(&self) -> usize {
        let referee = &self.referee;
        match referee.header.any_key() && !referee.table.has_deck() {
            true => SIGNED_PART,
            false => 0,
        }
    }
}

/// The clean text a record read a part at a time is given in where only
/// signatures wait to be verified ([`Replay::part_bytes`]): a part of
/// [`record::stream::PART`] holds some 70 signed lines of a two-sided
/// game, whose signatures its end would verify in a batch of 70, each
/// more slowly than in a batch of the replay's window (256); parts of
/// 64 KiB hold some 270 such lines, a window's, for some 0.2 MB more at
/// the peak (parts of 128 KiB held 1 MB more).
/// Not where a deck is shared: its lines are long and hold the shares
/// whose batches are kept small for memory.
const SIGNED_PART: usize = 4 * record::stream::PART;

/// The sides' names as owners, for a sentence: `Red's`, `Red's and
/// Blue's`, `Red's, Blue's and Green's`.
pub fn possessives<G: Game>(sides: &[Side]) -> String {
    let names: Vec<String> = sides
        .iter()
        .map(|s| format!("{}'s", s.name::<G>()))
        .collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// What `sides` owe, for a sentence: `Red's audit`, `Red's and Blue's
/// audits` (`noun`: `audit`, `key`).
pub fn owed<G: Game>(sides: &[Side], noun: &str) -> String {
    let plural = if sides.len() > 1 { "s" } else { "" };
    format!("{} {noun}{plural}", possessives::<G>(sides))
}

/// `text` with its first letter a capital: `Turn 14`.
pub(crate) fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().collect::<String>() + chars.as_str()
    })
}

#[cfg(test)]
mod tests {
    //! Turn-start chance (spec 3.3) through a minimal dice game: no
    //! engine of today draws at turn start, so the derivation is pinned
    //! here.
    use super::*;
    use crate::fairness::Sampler;
    use crate::fairness::{chain_id, chain_prefix, turn_seed};
    use crate::game::{ActionParseError, Chance, DiagramStyle, OptionTag, Setup, SetupError};
    use crate::record::{self, Source};

    /// Three sides take turns; each turn rolls one six-sided `die`.
    #[derive(Debug)]
    struct Dice;

    #[derive(Clone, Debug)]
    struct Rolls {
        order: Vec<Side>,
        next: usize,
        rolls: Vec<u32>,
    }

    impl Game for Dice {
        type State = Rolls;
        type Action = ();
        const ID: &'static str = "dice";
        const TITLE: &'static str = "Dice";
        const SIDES: &'static [&'static str] = &["A", "B", "C"];
        const MIN_SIDES: usize = 2;
        const MAX_SIDES: usize = 3;
        const OPTIONS: &'static [OptionTag] = &[];

        fn new_game(setup: &Setup<'_>) -> Result<Rolls, SetupError> {
            Ok(Rolls {
                order: setup.sides.to_vec(),
                next: 0,
                rolls: Vec::new(),
            })
        }
        fn to_move(s: &Rolls) -> Side {
            s.order[s.next]
        }
        fn outcome(_: &Rolls) -> Outcome {
            Outcome::Ongoing
        }
        fn begin_turn(s: &mut Rolls, chance: &mut dyn Chance) -> Result<(), Illegal> {
            s.rolls.push(chance.draw("die", 6)?);
            Ok(())
        }
        fn parse_action(_: &Rolls, text: &str) -> Result<(), ActionParseError> {
            Err(ActionParseError::new(0, text.len(), "no actions"))
        }
        fn apply(_: &mut Rolls, _: ()) -> Result<(), Illegal> {
            Ok(())
        }
        fn end_turn(s: &mut Rolls) -> Result<(), Illegal> {
            s.next = (s.next + 1) % s.order.len();
            Ok(())
        }
        fn resign(_: &mut Rolls, _: Side) {}
        fn write_action(_: &(), _: &mut String) {}
        fn legal_actions(_: &Rolls, _: &mut Vec<()>) {}
        fn summary(_: &Rolls) -> String {
            String::new()
        }
        fn turn_comment(_: &Rolls, _: &Rolls) -> String {
            String::new()
        }
        fn diagram(_: &Rolls, _: DiagramStyle) -> String {
            String::new()
        }
        fn write_position(_: &Rolls, _: &mut String) {}
        fn parse_position(text: &str) -> Result<Rolls, crate::game::PositionParseError> {
            Err(crate::game::PositionParseError::within(
                text,
                0,
                text.len(),
                "a test game has no position notation",
            ))
        }
    }

    const HEADER: [(&str, &str); 4] = [("Game", "dice"), ("C", "c"), ("A", "a"), ("B", "b")];

    /// A record of `turns` passes by C, A, B (header order), committed with
    /// the secrets [1; 32], [2; 32], [3; 32].
    fn record_text(turns: usize) -> (String, Vec<Vec<Hash>>) {
        let chain = chain_id(HEADER);
        let chains: Vec<Vec<Hash>> = (1..=3u8)
            .map(|k| chain_prefix(&[k; 32], &chain, 10))
            .collect();
        let mut text = String::new();
        for (name, value) in HEADER {
            text.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        for (i, name) in ["C", "A", "B"].iter().enumerate() {
            text.push_str(&format!(
                "[{name}Commit \"{}\"]\n",
                hex::encode(chains[i][0])
            ));
        }
        text.push_str("[Result \"*\"]\n\n");
        for t in 0..turns {
            let side = t % 3;
            let line = t / 3 + 1;
            text.push_str(&format!(
                "{}. {}: pass reveal {}\n",
                t + 1,
                ["C", "A", "B"][side],
                hex::encode(chains[side][line])
            ));
        }
        (text, chains)
    }

    #[test]
    fn turn_start_chance_seeds_from_the_movers_reveal_and_the_others_latest_in_header_order() {
        let (text, chains) = record_text(4);
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let referee = replay::<Dice>(&rec, |_, _| {}).unwrap();
        let game = *referee.header.game_id();
        // Turn 4: C's second line; A and B have revealed once each.
        let seed = turn_seed(
            &game,
            4,
            "die",
            &chains[0][2],
            &[chains[1][1], chains[2][1]],
        );
        assert_eq!(referee.state.rolls[3], Sampler::new(&seed).below(6));
        // Turn 2: A's first line; C revealed once, B only committed.
        let seed = turn_seed(
            &game,
            2,
            "die",
            &chains[1][1],
            &[chains[0][1], chains[2][0]],
        );
        assert_eq!(referee.state.rolls[1], Sampler::new(&seed).below(6));
        let event = &referee.chance[1];
        assert_eq!((event.turn, event.label), (2, "die"));
        assert_eq!(event.reveals_of, ["A", "C", "B"]);
        assert_eq!(event.text, (referee.state.rolls[1] + 1).to_string());
    }

    /// One look for a side's name and index gives what the two looks it
    /// replaces gave (the header's order, C A B, is not the game's).
    #[test]
    fn a_side_is_looked_up_by_name_and_index_in_one_look() {
        let (text, _) = record_text(0);
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let header = replay::<Dice>(&rec, |_, _| {}).unwrap().header;
        for name in ["A", "a", "b", "C", "c", "D", "", "AA", " C", "C "] {
            let two_looks = header
                .side_named::<Dice>(name)
                .map(|s| (s, header.seat_of(s).unwrap()));
            assert_eq!(header.side_seat_named::<Dice>(name), two_looks, "{name}");
        }
        assert_eq!(
            header.side_seat_named::<Dice>("a"),
            Some((Side(0), header.seat_at(1).unwrap()))
        );
        // The two agree only while no two sides' names differ just in
        // case: so it is for every game.
        fn distinct<G: Game>() -> bool {
            let names = G::SIDES;
            (0..names.len()).all(|i| (0..i).all(|j| !names[i].eq_ignore_ascii_case(names[j])))
        }
        // Every game of the registry, a new one included.
        macro_rules! all_distinct {
            ($($module:ident: $game:ty),*) => {
                [$((<$game as Game>::ID, distinct::<$game>())),*]
            };
        }
        for (id, ok) in crate::for_each_game!(all_distinct) {
            assert!(ok, "two sides of {id} differ only in case");
        }
    }

    /// The game after the first `turns` lines of the dice record, and the
    /// record of `turns + 1` lines (its last line the one to try).
    fn tried_on(turns: usize) -> (Referee<Dice>, String) {
        let (text, _) = record_text(turns);
        let source = Source::new(text.as_bytes()).unwrap();
        let game = replay::<Dice>(&record::parse(&source).unwrap(), |_, _| {}).unwrap();
        (game, record_text(turns + 1).0)
    }

    #[test]
    fn a_line_tried_and_dropped_leaves_the_game_as_it_was() {
        let (mut game, next) = tried_on(3);
        let untouched = game.clone();
        let source = Source::new(next.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let line = Line::from_turn(&rec.turns[3]);
        // Tried, the line is played on the game itself: turn 4's roll.
        let (played, undo) = game.try_line(&line, SealCheck::Draft).unwrap();
        assert_eq!((played.number, game.next_turn()), (4, 5));
        assert_eq!(game.state.rolls.len(), 4);
        assert_eq!(game.chance().len(), 4);
        game.drop_tried(undo);
        // Dropped: the line due, the position, the chain, the chance
        // values and the digest are the game's before it.
        assert_eq!(game.next_turn(), 4);
        assert_eq!(game.state.rolls, untouched.state.rolls);
        assert_eq!(game.chance().len(), 3);
        assert_eq!(game.digest(), untouched.digest());
        assert_eq!(game.lines_of(Side(0)), untouched.lines_of(Side(0)));
        // A draft refused leaves it as it was too.
        let mut wrong = line.clone();
        wrong.number = 9;
        assert!(game.try_line(&wrong, SealCheck::Draft).is_err());
        assert_eq!(game.next_turn(), 4);
        // And the line played now is the one played on the game untouched.
        let (kept, undo) = game.try_line(&line, SealCheck::Verify).unwrap();
        game.keep_tried(undo);
        let (whole, _) = tried_on(4);
        assert_eq!(kept.line(), line_text(&next, 4));
        assert_eq!(game.state.rolls, whole.state.rolls);
        assert_eq!(game.chance().len(), whole.chance().len());
        assert_eq!(game.digest(), whole.digest());
    }

    /// The text of line `n` (from 1) of `record`'s log, as written.
    fn line_text(record: &str, n: usize) -> String {
        let source = Source::new(record.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let mut game = tried_on(n - 1).0;
        game.play(&rec.turns[n - 1]).unwrap().line()
    }

    #[test]
    fn chance_values_are_listed_only_when_kept() {
        let (text, _) = record_text(4);
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let all = replay::<Dice>(&rec, |_, _| {}).unwrap();
        assert_eq!(all.chance().len(), 4, "a die a turn");
        let lean = replay_keeping::<Dice>(&rec, Keep::RULES, |_, _| {}).unwrap();
        assert!(lean.chance().is_empty());
        // The rolls themselves are the same: only the list is not kept.
        assert_eq!(lean.state.rolls, all.state.rolls);
    }

    #[test]
    fn turn_start_chance_without_commitments_is_an_error_at_that_turn() {
        let text = "[Game \"dice\"]\n[A \"a\"]\n[B \"b\"]\n[Result \"*\"]\n\n1. A: pass\n";
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let err = replay::<Dice>(&rec, |_, _| {}).unwrap_err();
        assert_eq!((err.kind, err.turn), (ErrorKind::Illegal, Some(1)));
        assert!(err
            .message
            .contains("this game has no commitments: die needs them"));
    }

    /// The first line of a three-sided dice game with commitments, with
    /// `proofs` written after its reveal; the error replaying it gives.
    fn first_line_with(proofs: &[ProofKind<'_>]) -> RefereeError {
        let (text, _) = record_text(1);
        let mut text = text.trim_end().to_owned();
        text.push('\n');
        for proof in proofs {
            record::write_proof(proof, &mut text);
        }
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let err = replay::<Dice>(&rec, |_, _| {}).unwrap_err();
        let proof = rec.turns[0].proofs[1];
        assert_eq!(err.span, Some(proof.span), "{}", err.message);
        assert_eq!((err.kind, err.turn), (ErrorKind::Record, Some(1)));
        err
    }

    /// Two sides that pass; each turn's start notes whether the other
    /// side's next line could settle chance declared on the turn.
    #[derive(Debug)]
    struct Asks;

    impl Game for Asks {
        type State = Vec<bool>;
        type Action = ();
        const ID: &'static str = "asks";
        const TITLE: &'static str = "Asks";
        const SIDES: &'static [&'static str] = &["A", "B"];
        const MIN_SIDES: usize = 2;
        const MAX_SIDES: usize = 2;
        const OPTIONS: &'static [OptionTag] = &[];

        fn new_game(_: &Setup<'_>) -> Result<Vec<bool>, SetupError> {
            Ok(Vec::new())
        }
        fn to_move(s: &Vec<bool>) -> Side {
            Side((s.len() % 2) as u8)
        }
        fn outcome(_: &Vec<bool>) -> Outcome {
            Outcome::Ongoing
        }
        fn begin_turn(s: &mut Vec<bool>, chance: &mut dyn Chance) -> Result<(), Illegal> {
            let next = Side(((s.len() + 1) % 2) as u8);
            s.push(chance.can_settle(next));
            Ok(())
        }
        fn parse_action(_: &Vec<bool>, text: &str) -> Result<(), ActionParseError> {
            Err(ActionParseError::new(0, text.len(), "no actions"))
        }
        fn apply(_: &mut Vec<bool>, _: ()) -> Result<(), Illegal> {
            Ok(())
        }
        fn end_turn(_: &mut Vec<bool>) -> Result<(), Illegal> {
            Ok(())
        }
        fn resign(_: &mut Vec<bool>, _: Side) {}
        fn write_action(_: &(), _: &mut String) {}
        fn legal_actions(_: &Vec<bool>, _: &mut Vec<()>) {}
        fn summary(_: &Vec<bool>) -> String {
            String::new()
        }
        fn turn_comment(_: &Vec<bool>, _: &Vec<bool>) -> String {
            String::new()
        }
        fn diagram(_: &Vec<bool>, _: DiagramStyle) -> String {
            String::new()
        }
        fn write_position(_: &Vec<bool>, _: &mut String) {}
        fn parse_position(text: &str) -> Result<Vec<bool>, crate::game::PositionParseError> {
            Err(crate::game::PositionParseError::within(
                text,
                0,
                text.len(),
                "a test game has no position notation",
            ))
        }
    }

    /// A game of `turns` passes by A and B, B committed with the secret
    /// [2; 32] (and A too, with [1; 32], when `both`).
    fn asks(turns: usize, both: bool) -> Referee<Asks> {
        let header = [("Game", "asks"), ("A", "a"), ("B", "b")];
        let chain = chain_id(header);
        let chains: Vec<Vec<Hash>> = (1..=2u8)
            .map(|k| chain_prefix(&[k; 32], &chain, (turns / 2 + 1) as u32))
            .collect();
        let mut text = String::new();
        for (name, value) in header {
            text.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        if both {
            text.push_str(&format!("[ACommit \"{}\"]\n", hex::encode(chains[0][0])));
        }
        text.push_str(&format!("[BCommit \"{}\"]\n", hex::encode(chains[1][0])));
        text.push_str("[Result \"*\"]\n\n");
        for t in 0..turns {
            let (side, line) = (t % 2, t / 2 + 1);
            text.push_str(&format!("{}. {}: pass", t + 1, ["A", "B"][side]));
            if side == 1 || both {
                text.push_str(&format!(" reveal {}", hex::encode(chains[side][line])));
            }
            text.push('\n');
        }
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        replay::<Asks>(&rec, |_, _| {}).unwrap()
    }

    #[test]
    fn the_engine_learns_at_turn_start_whether_the_next_player_can_settle() {
        // Only B has a Commit tag: B's line can settle what A declares, A's
        // cannot settle what B declares.
        let referee = asks(3, false);
        assert_eq!(*referee.state, [true, false, true]);
        assert_eq!(referee.preview().unwrap().last(), Some(&false));
        // Without any Commit tag nobody can.
        let text = "[Game \"asks\"]\n[A \"a\"]\n[B \"b\"]\n[Result \"*\"]\n\n1. A: pass\n";
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let referee = replay::<Asks>(&rec, |_, _| {}).unwrap();
        assert_eq!(*referee.state, [false]);
        assert_eq!(referee.preview().unwrap().last(), Some(&false));
        // Once B's hash chain is used up, its line settles nothing: A and B
        // have written 10,000 lines each.
        let n = 2 * CHAIN_LENGTH as usize;
        let referee = asks(n, true);
        assert_eq!(referee.state[n - 3..], [true, true, false]);
        assert!(!referee.can_settle(Side(1)) && !referee.can_settle(Side(0)));
        assert_eq!(referee.preview().unwrap().last(), Some(&false));
    }

    /// A bare line skips its proof, reveal and seal checks: on every
    /// line where [`Referee::is_bare`] holds, those checks pass and give
    /// the bare seal, so skipping them changes nothing.
    #[test]
    fn a_bare_line_passes_the_proof_reveal_and_seal_checks_it_skips() {
        let reveal = [ProofKind::Reveal([7; 32])];
        let mut bare = Vec::new();
        for keep in [Keep::RULES, Keep::ALL] {
            // B has a Commit tag, A none.
            let mut referee = asks(0, false).keeping(keep);
            for (index, name) in [(0, "A"), (1, "B")] {
                let seat = referee.header.seat_at(index).unwrap();
                for (ending, proofs) in [
                    (Ending::Pass, &[][..]),
                    (Ending::Forfeit, &[]),
                    (Ending::Pass, &reveal),
                ] {
                    let mut line = Line::of_actions(LineKind::Turn, 1, name, &[]);
                    line.ending = ending;
                    line.proofs = proofs.to_vec();
                    if !referee.is_bare(&line, seat) {
                        continue;
                    }
                    bare.push((keep.digest, name, ending, proofs.len()));
                    let at = At {
                        line: LineKind::Turn,
                        turn: 1,
                        side: name,
                    };
                    assert!(referee.check_proofs(&line, at).is_ok());
                    assert!(referee.check_reveal(&line, seat, at).is_ok());
                    for check in [SealCheck::Verify, SealCheck::Trial] {
                        let seal = referee.check_seal(&line, Side(index as u8), at, check);
                        let seal = seal.unwrap();
                        assert!(seal.bytes().is_empty());
                        assert_eq!((seal.sig, seal.claimant), (None, None));
                    }
                }
            }
        }
        // Only A's pass without proofs, the digest not kept, is bare.
        assert_eq!(bare, [(false, "A", Ending::Pass, 0)]);
    }

    /// The seal of each line is made in the room the line before left
    /// ([`seal::SealRoom`]): a line's bytes are those it has made alone,
    /// nothing of a longer line before it left in them.
    #[test]
    fn a_seal_made_in_the_room_of_the_line_before_has_the_bytes_made_alone() {
        let mut referee = asks(0, false).keeping(Keep::ALL);
        let long = vec!["pass".to_owned(); 40];
        let reveal = [ProofKind::Reveal([7; 32]), ProofKind::Reveal([8; 32])];
        let short: Vec<String> = Vec::new();
        let mut made = Vec::new();
        for (name, actions, proofs) in [
            ("A", &long, &reveal[..]),
            ("B", &short, &reveal[..1]),
            ("A", &short, &[][..]),
            ("B", &long, &reveal[..]),
        ] {
            let index = usize::from(name == "B");
            let mut line = Line::of_actions(LineKind::Turn, 1, name, actions);
            line.proofs = proofs.to_vec();
            let at = At {
                line: LineKind::Turn,
                turn: 1,
                side: name,
            };
            let side = Side(index as u8);
            let alone = Referee::<Asks>::sealed_bytes_as(&line, side, None, referee.next_line());
            let seal = referee
                .check_seal(&line, side, at, SealCheck::Trial)
                .unwrap();
            assert_eq!(
                seal.bytes(),
                &alone[..],
                "{name}, {} actions",
                actions.len()
            );
            made.push(alone.len());
            referee.seal_room.give_back(seal);
        }
        // Long, short, shorter, long again: each as long as made alone.
        assert!(made[0] > made[1] && made[1] > made[2] && made[3] > made[1]);
    }

    #[test]
    fn the_names_of_a_seed_written_over_an_earlier_events_are_the_names_made_anew() {
        let olds: [&[&str]; 4] = [&[], &["B"], &["x", "yy", "zzz"], &["A", "B"]];
        let mut seen = Vec::new();
        for both in [false, true] {
            let referee = asks(0, both);
            for seat in referee.header.seats() {
                // `seat` first, then every other committed side.
                let made: Vec<String> = referee
                    .ledger
                    .seed_sides(seat, referee.header.seats())
                    .map(|s| referee.header.name::<Asks>(s).to_owned())
                    .collect();
                assert_eq!(referee.reveal_names(seat), made);
                for old in olds {
                    let mut names: Vec<String> = old.iter().map(|&n| n.to_owned()).collect();
                    referee.reveal_names_into(seat, &mut names);
                    assert_eq!(names, made, "over {old:?}");
                }
                seen.push(made);
            }
        }
        assert_eq!(
            seen,
            [vec!["A", "B"], vec!["B"], vec!["A", "B"], vec!["B", "A"]]
        );
    }

    #[test]
    fn a_line_with_a_reveal_alone_passes_the_proof_and_seal_checks_it_skips() {
        let (one, two) = (ProofKind::Reveal([7; 32]), ProofKind::Reveal([8; 32]));
        let sig = ProofKind::Sign([9; 64]);
        let lists: [&[ProofKind<'_>]; 5] = [&[], &[one], &[one, two], &[one, sig], &[sig]];
        let mut skipped = Vec::new();
        for keep in [Keep::RULES, Keep::ALL] {
            // B has a Commit tag, A none; neither has a Key tag.
            let mut referee = asks(0, false).keeping(keep);
            for (index, name) in [(0, "A"), (1, "B")] {
                let seat = referee.header.seat_at(index).unwrap();
                for ending in [Ending::Pass, Ending::Forfeit, Ending::Resign] {
                    for proofs in lists {
                        let mut line = Line::of_actions(LineKind::Turn, 1, name, &[]);
                        line.ending = ending;
                        line.claimant = Some("B").filter(|_| ending == Ending::Forfeit);
                        line.proofs = proofs.to_vec();
                        if !referee.reveals_only(&line, seat) {
                            continue;
                        }
                        skipped.push((keep.digest, name, ending, proofs.len()));
                        let at = At {
                            line: LineKind::Turn,
                            turn: 1,
                            side: name,
                        };
                        assert!(referee.check_proofs(&line, at).is_ok());
                        for check in [SealCheck::Verify, SealCheck::Trial] {
                            let seal = referee.check_seal(&line, Side(index as u8), at, check);
                            let seal = seal.unwrap();
                            assert!(seal.bytes().is_empty());
                            assert_eq!((seal.sig, seal.claimant), (None, None));
                        }
                    }
                }
            }
        }
        // A line of one reveal, not a forfeit, the digest not kept; the
        // reveal itself is checked on (A has no Commit tag for it).
        let ends = [Ending::Pass, Ending::Resign];
        let want: Vec<_> = ["A", "B"]
            .into_iter()
            .flat_map(|name| ends.map(|ending| (false, name, ending, 1)))
            .collect();
        assert_eq!(skipped, want);
    }

    #[test]
    fn with_no_action_legal_the_preview_says_the_turn_passes() {
        let text = "[Game \"asks\"]\n[A \"a\"]\n[B \"b\"]\n[Result \"*\"]\n\n1. A: pass\n";
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let referee = replay::<Asks>(&rec, |_, _| {}).unwrap();
        let preview = referee.preview_for(Keys::NONE).unwrap();
        assert!(preview.state().is_some() && preview.legal_actions().is_empty());
        assert_eq!(preview.note(), None);
        assert_eq!(
            preview.legal_note().map(|n| n.to_string()).as_deref(),
            Some("no action is possible: the turn passes (write `pass`)")
        );
    }

    #[test]
    fn a_line_carries_one_reveal() {
        let err = first_line_with(&[ProofKind::Reveal([1; 32])]);
        assert_eq!(err.message, "a line carries one reveal: this is a second");
    }

    #[test]
    fn an_opening_needs_a_game_with_hidden_values() {
        let err = first_line_with(&[ProofKind::Open {
            slot: "a1",
            value: "R",
            salt: [2; 32],
        }]);
        assert_eq!(
            err.message,
            "a1: Dice has no hidden values, so there is nothing to commit to or open"
        );
    }

    #[test]
    fn a_signature_needs_a_signing_key_in_the_header() {
        let err = first_line_with(&[ProofKind::Sign([3; 64])]);
        assert_eq!(
            err.message,
            "C has no signing key in the header, so its lines carry no signature"
        );
    }

    #[test]
    fn a_decryption_share_needs_a_game_with_hidden_cards() {
        let err = first_line_with(&[ProofKind::Share {
            position: 4,
            share: [5; 32],
            proof: [6; 96],
        }]);
        assert_eq!(
            err.message,
            "Dice deals no hidden cards, so its lines carry no decryption shares"
        );
    }

    #[test]
    fn card_keys_deck_items_and_card_secrets_need_a_game_with_hidden_cards() {
        let key = first_line_with(&[ProofKind::CardKey {
            key: [5; 32],
            proof: [6; 64],
        }]);
        assert_eq!(
            key.message,
            "Dice deals no hidden cards, so its lines carry no card keys"
        );
        let deck = first_line_with(&[ProofKind::Deck {
            position: 0,
            card: [7; 64],
        }]);
        assert_eq!(
            deck.message,
            "Dice deals no hidden cards, so its lines carry no deck"
        );
        let secret = first_line_with(&[ProofKind::CardSecret([8; 32])]);
        assert_eq!(
            secret.message,
            "Dice deals no hidden cards, so its lines carry no card secret"
        );
    }

    #[test]
    fn a_reveal_broken_over_lines_by_a_mail_client_reads_whatever_its_first_digit() {
        let (text, chains) = record_text(1);
        let hex = hex::encode(chains[0][1]);
        let (a, b) = hex.split_at(20);
        // Break before a digit, as a client re-wrapping at 72 columns may.
        let b = format!("9{}", &b[1..]);
        let text = text.replace(&hex, &format!("{a}\n{b}"));
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let read = rec.turns[0].reveal().unwrap().value;
        assert_eq!(hex::encode(read), format!("{a}{b}"));
    }

    /// A self-play record of Castle Danger: plain, or every line signed.
    fn castle_danger(signed: bool) -> String {
        use crate::games::castle_danger::CastleDanger;
        let mut options = crate::selfplay::Options::new::<CastleDanger>(3, 2);
        options.max_turns = 12;
        options.commitments = signed;
        options.signatures = signed;
        crate::selfplay::record::<CastleDanger>(&options).unwrap()
    }

    #[test]
    fn a_reader_that_keeps_only_what_the_rules_need_gets_no_digest_and_no_positions_before() {
        use crate::games::castle_danger::CastleDanger;
        let text = castle_danger(false);
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let mut befores = 0;
        let lean = replay_keeping::<CastleDanger>(&rec, Keep::RULES, |played, _| {
            befores += usize::from(played.before.is_some());
        })
        .unwrap();
        assert_eq!((lean.digest(), befores), (None, 0));
        let full = replay::<CastleDanger>(&rec, |played, _| {
            befores += usize::from(played.before.is_some());
        })
        .unwrap();
        assert_eq!(befores, rec.turns.len());
        assert!(full.digest().is_some());
        assert_eq!(
            crate::game::position_text::<CastleDanger>(lean.state()),
            crate::game::position_text::<CastleDanger>(full.state())
        );
    }

    /// Each line of a self-play record of `G` (seed `seed`, committed)
    /// as a replay hands it on and as a fresh [`Referee::play`] of the
    /// same turn gives it: the text written back, the position before it
    /// and whether the game played it.
    fn played_both_ways<G: Game>(seed: u64) -> (Vec<String>, Vec<String>) {
        let mut options = crate::selfplay::Options::new::<G>(seed, G::MIN_SIDES);
        options.max_turns = 60;
        let text = crate::selfplay::record::<G>(&options).unwrap();
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let show = |played: &PlayedTurn<G>| {
            let before = played
                .before
                .as_deref()
                .map(crate::game::position_text::<G>);
            format!("{}{before:?} {}", played.line(), played.is_played())
        };
        let mut kept = Vec::new();
        replay::<G>(&rec, |played, _| kept.push(show(played))).unwrap();
        let mut referee = Referee::<G>::start(&rec).unwrap();
        let fresh = rec.turns.iter().map(|t| show(&referee.play(t).unwrap()));
        (kept, fresh.collect())
    }

    #[test]
    fn a_replay_that_plays_every_line_into_one_turn_hands_on_each_as_played_alone() {
        use crate::games::castle_danger::CastleDanger;
        use crate::games::playground_battles::PlaygroundBattles;
        // Set-up lines, openings demanded by battles, the audit: every
        // list of a played turn filled on one line and empty on another.
        for seed in 0..3 {
            let (kept, fresh) = played_both_ways::<PlaygroundBattles>(seed);
            assert!(kept.len() > 10);
            assert_eq!(kept, fresh);
            let (kept, fresh) = played_both_ways::<CastleDanger>(seed);
            assert_eq!(kept, fresh);
        }
    }

    #[test]
    fn the_game_and_chain_ids_and_the_digest_are_worked_out_only_when_needed() {
        use crate::fairness::{game_id, record_start};
        use crate::games::castle_danger::CastleDanger;
        for committed in [false, true] {
            let text = castle_danger(committed);
            let source = Source::new(text.as_bytes()).unwrap();
            let rec = record::parse(&source).unwrap();
            let tags = || rec.tags.iter().map(|t| (t.name.as_str(), t.value.as_str()));
            let lean = replay_keeping::<CastleDanger>(&rec, Keep::RULES, |_, _| {}).unwrap();
            // A plain record asks for neither; a committed one checks its
            // reveals against the chain id, and its seals take the game id.
            let asked = lean.header().ids_worked_out();
            assert_eq!(asked, (committed, committed), "committed: {committed}");
            assert_eq!(lean.header().game_id(), &game_id(tags()));
            assert_eq!(lean.header().chain_id(), &chain_id(tags()));
            assert!(lean.digest().is_none() || committed);
            // The digest begins where it always did.
            let start = Referee::<CastleDanger>::start(&rec).unwrap();
            assert_eq!(start.digest(), Some(&record_start(&game_id(tags()))));
        }
    }

    #[test]
    fn the_digest_is_kept_whenever_a_side_signs_whatever_the_reader_asked() {
        use crate::games::castle_danger::CastleDanger;
        let text = castle_danger(true);
        let source = Source::new(text.as_bytes()).unwrap();
        let rec = record::parse(&source).unwrap();
        let lean = replay_keeping::<CastleDanger>(&rec, Keep::RULES, |_, _| {}).unwrap();
        let full = replay::<CastleDanger>(&rec, |_, _| {}).unwrap();
        assert!(full.digest().is_some());
        assert_eq!(lean.digest(), full.digest());
    }
}
