//! Hidden values (spec section 3.7): what each side committed to in the
//! set-up, what it has opened since, the openings the rules demand, and
//! the end-of-game audit. The referee verifies every opening against its
//! commitment before the engine sees the value ([`Game::open`]).

use super::header::Seat;
use super::line::{Ending, Line, Shown};
use super::{At, LineError, Place, PlayedTurn, Referee};
use crate::fairness::{self, Hash, Protocol};
use crate::game::{Demand, Game, Outcome, Side, Team};
use crate::record::{LineKind, ProofKind};

/// One hidden value of one side.
#[derive(Clone, Debug)]
struct Slot {
    name: &'static str,
    /// Its commitment, once the side's set-up line is played.
    digest: Option<Hash>,
    /// Its value, once opened.
    opened: Option<String>,
}

/// Every side's hidden values, in turn order.
#[derive(Clone, Debug)]
pub(super) struct Hidden {
    /// The header's seats, in turn order: a side is named by its seat,
    /// and numbered in the lists below by [`Seat::index`].
    seats: Vec<Seat>,
    slots: Vec<Vec<Slot>>,
    /// The set-up step due ([`Hidden::setup_due`]), worked out again only
    /// when a line changes the slots (it is asked for many times a line).
    due: Option<(usize, SetupStep)>,
    /// Whether any side has a slot (fixed at the start: read on every
    /// line, so kept rather than recounted).
    any: bool,
    /// Whether no two slots of a side have names that differ only in
    /// case: a slot's own name then finds the slot a look in any case
    /// finds ([`Hidden::find`]).
    exact: bool,
    /// Per side, the slots the rules open once every side has committed.
    after_setup: Vec<&'static [&'static str]>,
    /// The same, each as the index of the side's slot of that name
    /// (`None`: the side has no such slot, so it is never opened).
    after_setup_at: Vec<Vec<Option<usize>>>,
    /// Per side, the audit's verdict once its closing line is played:
    /// the reason when it failed (or refused to open).
    audited: Vec<Option<Result<(), String>>>,
    /// Per side, whether its audit was refused by a forfeit another
    /// player claimed (rather than failed by its openings).
    refused: Vec<bool>,
    /// The side that wrote (or is due to write) `S1`: the set-up goes on
    /// in turn order from it. The first side, but under protocol 3, where
    /// whichever side begins the set-up writes `S1`.
    start: usize,
    /// The record's protocol: under protocol 3 the last side to commit
    /// opens on the same line ([`SetupStep::CommitOpen`]).
    protocol: Protocol,
}

/// Whether no two slots of a side have names that differ only in case.
fn distinct(slots: &[Vec<Slot>]) -> bool {
    slots.iter().all(|own| {
        (0..own.len()).all(|i| (0..i).all(|j| !own[i].name.eq_ignore_ascii_case(own[j].name)))
    })
}

/// What a set-up line does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SetupStep {
    /// The side adds its key (its Commit and Key tags, `herald keygen`):
    /// every side's comes before the first set-up line, since tags are
    /// never added after a line (spec section 3.7).
    Key,
    /// The side commits to every hidden value.
    Commit,
    /// The last side to commit, under protocol 3: it commits to every
    /// hidden value and opens, on the same line, what the rules open once
    /// every side has committed (every other commitment is in, so none
    /// can change any more: spec section 3.7).
    CommitOpen,
    /// The side opens what the rules open once all have committed.
    Open,
    /// The side gives the shares of the cards drawn before its first
    /// turn (spec section 3.9, hidden hands).
    Shares,
}

impl SetupStep {
    /// What the step writes, for a player: `its commitments`.
    pub fn what(self) -> &'static str {
        match self {
            SetupStep::Key => "its key (herald keygen)",
            SetupStep::Commit => "its commitments",
            SetupStep::CommitOpen => "its commitments and its openings",
            SetupStep::Open => "its openings",
            SetupStep::Shares => "its shares",
        }
    }

    /// The step's name in JSON: `keygen`, `commit`, `open`, `shares`.
    pub fn as_str(self) -> &'static str {
        match self {
            SetupStep::Key => "keygen",
            SetupStep::Commit | SetupStep::CommitOpen => "commit",
            SetupStep::Open => "open",
            SetupStep::Shares => "shares",
        }
    }
}

impl Hidden {
    /// The hidden values of these sides (the header's, with their
    /// seats, in turn order) in the starting position. Under protocol 3
    /// the set-up is due from `start` (the first side with a key) until a
    /// side writes `S1` ([`Hidden::begin_at`]).
    pub(super) fn new<G: Game>(
        state: &G::State,
        seated: impl Iterator<Item = (Seat, Side)>,
        start: Seat,
        protocol: Protocol,
    ) -> Self {
        let (seats, sides): (Vec<Seat>, Vec<Side>) = seated.unzip();
        let slots: Vec<Vec<Slot>> = sides
            .iter()
            .map(|&side| {
                G::hidden_slots(state, side)
                    .iter()
                    .map(|&name| Slot {
                        name,
                        digest: None,
                        opened: None,
                    })
                    .collect()
            })
            .collect();
        let after_setup: Vec<&'static [&'static str]> = sides
            .iter()
            .map(|&side| G::opened_after_setup(state, side))
            .collect();
        let after_setup_at = after_setup
            .iter()
            .zip(&slots)
            .map(|(names, own)| {
                let at = |name: &&str| own.iter().position(|s| s.name == *name);
                names.iter().map(at).collect()
            })
            .collect();
        let mut hidden = Hidden {
            seats,
            due: None,
            any: slots.iter().any(|s| !s.is_empty()),
            exact: distinct(&slots),
            slots,
            after_setup,
            after_setup_at,
            audited: vec![None; sides.len()],
            refused: vec![false; sides.len()],
            start: start.index(),
            protocol,
        };
        hidden.due = hidden.find_setup_due();
        hidden
    }

    /// The side whose set-up line is due and what it does: every side
    /// commits, in turn order from the side of `S1`; then every side opens
    /// what the rules open after the set-up, in the same order (under
    /// protocol 3 the last to commit opens on its commitments' line).
    pub(super) fn setup_due(&self) -> Option<(Seat, SetupStep)> {
        self.due.map(|(i, step)| (self.seats[i], step))
    }

    /// The set-up step due after the one due now, in the set-up order
    /// alone (before that line is written, so none of its values known):
    /// `None` when no hidden step is due now or the step due is not a
    /// commitment or an opening; `Some(None)` when the step due is the
    /// last of the hidden values' set-up (spec section 3.7).
    pub(super) fn due_after_due(&self) -> Option<Option<(Seat, SetupStep)>> {
        let (i, step) = self.due?;
        let mut next = self.clone();
        let opened = |next: &mut Hidden| {
            for k in next.after_setup_at[i].clone().into_iter().flatten() {
                next.slots[i][k].opened = Some(String::new());
            }
        };
        match step {
            SetupStep::Commit | SetupStep::CommitOpen => {
                for slot in &mut next.slots[i] {
                    slot.digest = Some(Hash::default());
                }
                if step == SetupStep::CommitOpen {
                    opened(&mut next);
                }
            }
            SetupStep::Open => opened(&mut next),
            SetupStep::Key | SetupStep::Shares => return None,
        }
        Some(next.find_setup_due().map(|(j, s)| (next.seats[j], s)))
    }

    /// The sides in set-up order: turn order from the side of `S1`.
    fn setup_order(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.slots.len();
        (0..n).map(move |k| (self.start + k) % n)
    }

    /// `S1` is side `seat`'s (protocol 3): the set-up goes on from it.
    pub(super) fn begin_at(&mut self, seat: Seat) {
        let index = seat.index();
        if self.start != index {
            self.start = index;
            self.due = self.find_setup_due();
        }
    }

    /// The sides in the order they open what the rules open after the
    /// set-up: the set-up order, but under protocol 3 the last side to
    /// commit first (it opens on its commitments' line).
    pub(super) fn open_order(&self) -> Vec<Seat> {
        self.open_indices()
            .into_iter()
            .map(|i| self.seats[i])
            .collect()
    }

    /// [`Hidden::open_order`], each side by its index.
    fn open_indices(&self) -> Vec<usize> {
        let mut order: Vec<usize> = self.setup_order().collect();
        if self.protocol.keys_join_late() {
            let turn = 1.min(order.len());
            order.rotate_right(turn);
        }
        order
    }

    fn find_setup_due(&self) -> Option<(usize, SetupStep)> {
        if !self.any {
            return None;
        }
        let committed = |i: usize| self.slots[i].iter().all(|s| s.digest.is_some());
        let mut uncommitted = self.setup_order().filter(|&i| !committed(i));
        if let Some(i) = uncommitted.next() {
            let last = uncommitted.next().is_none();
            let opens = !self.after_setup_at[i].iter().all(Option::is_none);
            if last && opens && self.protocol.keys_join_late() {
                return Some((i, SetupStep::CommitOpen));
            }
            return Some((i, SetupStep::Commit));
        }
        // Each slot opened after the set-up is its side's first slot of
        // that name, found once, at the start.
        let unopened =
            |i: usize, at: &Option<usize>| at.is_none_or(|k| self.slots[i][k].opened.is_none());
        self.open_indices()
            .into_iter()
            .find(|&i| self.after_setup_at[i].iter().any(|at| unopened(i, at)))
            .map(|i| (i, SetupStep::Open))
    }

    /// The side whose closing line of openings is due once the rules ended
    /// the game: the first in turn order that still holds hidden values.
    pub(super) fn audit_due(&self) -> Option<Seat> {
        self.seats.iter().copied().find(|&s| self.audit_pending(s))
    }

    /// Whether side `seat`'s closing line of openings is still to come:
    /// it holds a value not opened yet, and has not been audited. Each
    /// side writes its own in any order (spec section 3.7).
    pub(super) fn audit_pending(&self, seat: Seat) -> bool {
        let index = seat.index();
        self.any
            && self.audited.get(index).is_some_and(Option::is_none)
            && self.slots[index].iter().any(|s| s.opened.is_none())
    }

    /// Whether any side has hidden values at all.
    pub(super) fn any(&self) -> bool {
        self.any
    }

    /// The index of side `index`'s first slot named `slot` (any case), if
    /// it has one. A played line's [`Shown`] items name their slot by the
    /// slot's own name, the very text: that is looked for first.
    fn find(&self, index: usize, slot: &str) -> Option<usize> {
        let own = &self.slots[index];
        let itself = || own.iter().position(|s| std::ptr::eq(s.name, slot));
        self.exact
            .then(itself)
            .flatten()
            .or_else(|| own.iter().position(|s| s.name.eq_ignore_ascii_case(slot)))
    }

    /// Side `index`'s slot named `slot` (any case), if it has one.
    fn slot_mut(&mut self, index: usize, slot: &str) -> Option<&mut Slot> {
        let k = self.find(index, slot)?;
        Some(&mut self.slots[index][k])
    }

    /// The outcome once every audit is in (spec section 3.7): a side that
    /// failed (or refused) loses; the winners are the provisional ones if
    /// none of them failed, else every side that did not fail (one side:
    /// it wins; none: a draw).
    ///
    /// A team the rules made the winners (`TeamWon`, allies or one
    /// player's castles) stands or falls as one: one of its sides that
    /// failed or refused takes the whole team's win. Sides that won
    /// together only because a forfeit ended play (`joint`, each alone)
    /// keep their own wins.
    pub(super) fn verdict(&self, provisional: Outcome, sides: &[Side], joint: bool) -> Outcome {
        let index = |side: Side| sides.iter().position(|&s| s == side);
        let failed = |side: Side| {
            index(side).is_some_and(|i| matches!(self.audited[i], Some(Err(_))) && !self.refused[i])
        };
        let refused = |side: Side| index(side).is_some_and(|i| self.refused[i]);
        let winners: Vec<Side> = match provisional {
            Outcome::Won(w) => vec![w],
            Outcome::TeamWon(team) => team.sides().collect(),
            Outcome::Draw => sides.to_vec(),
            Outcome::Ongoing => Vec::new(),
        };
        if !winners.iter().any(|&w| failed(w) || refused(w)) {
            return provisional;
        }
        let of = |many: &[Side]| match many {
            [] => Outcome::Draw,
            [one] => Outcome::Won(*one),
            many => Outcome::TeamWon(Team::of(many)),
        };
        if matches!(provisional, Outcome::TeamWon(_)) && !joint {
            if !winners.iter().any(|&w| failed(w)) {
                // A team member's refusal, claimed by another: the team
                // loses its win, which goes to nobody the board did not
                // make the winner.
                return Outcome::Draw;
            }
            let standing: Vec<Side> = sides
                .iter()
                .copied()
                .filter(|&s| !winners.contains(&s) && !failed(s) && !refused(s))
                .collect();
            return of(&standing);
        }
        if winners.iter().any(|&w| failed(w)) {
            // Openings that break the rules: the sides that neither
            // failed nor refused win.
            let standing: Vec<Side> = sides
                .iter()
                .copied()
                .filter(|&s| !failed(s) && !refused(s))
                .collect();
            return of(&standing);
        }
        // Only refusals, claimed by others: a claim takes the win from a
        // side that would not open, and gives it to nobody the board did
        // not (spec section 3.8).
        if provisional == Outcome::Draw {
            return Outcome::Draw;
        }
        let kept: Vec<Side> = winners.into_iter().filter(|&w| !refused(w)).collect();
        of(&kept)
    }

    /// Make the commitments and openings of a played line of side `index`
    /// part of the game.
    pub(super) fn record(&mut self, seat: Seat, shown: &[Shown]) {
        let index = seat.index();
        for proof in shown {
            match proof {
                Shown::Commit { slot, digest } => {
                    if let Some(entry) = self.slot_mut(index, slot) {
                        entry.digest = Some(*digest);
                    }
                }
                Shown::Open { slot, value, .. } => {
                    if let Some(entry) = self.slot_mut(index, slot) {
                        entry.opened = Some(value.clone());
                    }
                }
            }
        }
        // A finished set-up stays finished (a line only adds commitments
        // and openings): openings in play need not look again.
        if !shown.is_empty() && self.due.is_some() {
            self.due = self.find_setup_due();
        }
    }

    /// Side `index`'s values, when every one is open and its audit is not
    /// made yet.
    pub(super) fn opened_unaudited(&self, seat: Seat) -> Option<Vec<(&'static str, String)>> {
        let index = seat.index();
        if self.audited[index].is_some() || self.slots[index].is_empty() {
            return None;
        }
        self.slots[index]
            .iter()
            .map(|s| s.opened.clone().map(|v| (s.name, v)))
            .collect()
    }

    /// Side `index`'s audit verdict, once made.
    pub(super) fn verdict_of(&self, seat: Seat) -> Option<&Result<(), String>> {
        self.audited[seat.index()].as_ref()
    }

    /// Record side `index`'s audit: passed, or failed (or refused) and why.
    pub(super) fn audited(&mut self, seat: Seat, verdict: Result<(), String>) {
        self.audited[seat.index()] = Some(verdict);
    }

    /// Record that side `index` refused its audit: a forfeit another
    /// player claimed in its place.
    pub(super) fn refused(&mut self, seat: Seat, why: String) {
        self.audited[seat.index()] = Some(Err(why));
        self.refused[seat.index()] = true;
    }

    /// Every audit that failed, in turn order: (side index, reason).
    pub(super) fn failures(&self) -> impl Iterator<Item = (Seat, &str)> {
        self.audited
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Some(Err(why)) => Some((self.seats[i], why.as_str())),
                _ => None,
            })
    }

    /// Side `index`'s hidden values, opened ones with their value, in
    /// slot order; `None` for one still hidden.
    pub(super) fn values(&self, seat: Seat) -> impl Iterator<Item = (&'static str, Option<&str>)> {
        self.slots[seat.index()]
            .iter()
            .map(|s| (s.name, s.opened.as_deref()))
    }
}

/// A played closing line, the position after it and the audit's verdict.
pub(super) type Closing<G> = (PlayedTurn<G>, <G as Game>::State, Result<(), String>);

/// An opening waiting in a line: (proof index, slot, value, salt).
type Opening<'l> = (usize, &'l str, &'l str, Hash);

impl<G: Game> Referee<G> {
    /// The openings a line carries, in order.
    pub(super) fn openings<'l>(line: &'l Line<'_>) -> Vec<Opening<'l>> {
        line.proofs
            .iter()
            .enumerate()
            .filter_map(|(k, p)| match *p {
                ProofKind::Open { slot, value, salt }
                    if super::cards::shuffle_generation(slot).is_none() =>
                {
                    Some((k, slot, value, salt))
                }
                _ => None,
            })
            .collect()
    }

    /// Side `seat`'s slot named as the proof item `(word, slot)` says, or
    /// the error that it has none.
    fn slot_named(
        &self,
        seat: Seat,
        (word, slot): (&str, &str),
        at: At<'_>,
        place: Place,
    ) -> Result<&Slot, LineError> {
        self.hidden.slots[seat.index()]
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(slot))
            .ok_or_else(|| {
                at.record(
                    place,
                    format!("{word} {slot}: {} has no hidden value {slot}", at.side),
                )
            })
    }

    /// Check one opening of side `seat` against its commitment, give the
    /// value to the engine in `state`, and note it in `shown`.
    pub(super) fn open_into(
        &self,
        state: &mut G::State,
        seat: Seat,
        (k, slot, value, salt): Opening<'_>,
        at: At<'_>,
        shown: &mut Vec<Shown>,
    ) -> Result<(), LineError> {
        let place = Place::Proof(k);
        let entry = self.slot_named(seat, ("open", slot), at, place)?;
        let twice = shown
            .iter()
            .any(|p| matches!(p, Shown::Open { slot, .. } if *slot == entry.name));
        if entry.opened.is_some() || twice {
            return Err(at.record(
                place,
                format!("open {slot}: {} opened {slot} already", at.side),
            ));
        }
        // On the last committer's line (protocol 3) the commitment stands
        // on the same line, just read.
        let this_line = || {
            shown.iter().find_map(|p| match p {
                Shown::Commit { slot, digest } if *slot == entry.name => Some(*digest),
                _ => None,
            })
        };
        let Some(digest) = entry.digest.or_else(this_line) else {
            return Err(at.record(
                place,
                format!("open {slot}: {} never committed to {slot}", at.side),
            ));
        };
        let side = self.header.side(seat);
        let made = fairness::slot_commitment(
            self.header.game_id(),
            side.name::<G>(),
            entry.name,
            &salt,
            value,
        );
        if made != digest {
            return Err(at.record(
                place,
                format!(
                    "open {slot} {value}: this does not match {}'s commitment to {slot}: the opening (value or salt) or the commitment was altered",
                    at.side
                ),
            ));
        }
        G::check_hidden(entry.name, value)
            .map_err(|e| at.illegal(place, None, format!("open {slot} {value}: {e}")))?;
        G::open(state, side, entry.name, value)
            .map_err(|e| at.illegal(place, None, format!("open {slot} {value}: {e}")))?;
        shown.push(Shown::Open {
            slot: entry.name,
            value: value.to_owned(),
            salt,
        });
        Ok(())
    }

    /// Play a set-up line of side `seat`: its commitments, or the
    /// openings the rules make once every side has committed.
    pub(super) fn play_setup(
        &self,
        line: &Line<'_>,
        seat: Seat,
        step: SetupStep,
        at: At<'_>,
    ) -> Result<(PlayedTurn<G>, G::State), LineError> {
        if let Some((k, text)) = line.actions().next() {
            return Err(at.record(
                Place::Item(k),
                format!("{text}: a set-up line carries only its commitments or openings"),
            ));
        }
        if line.ending != Ending::Actions {
            return Err(at.record(
                Place::End,
                "a set-up line carries only its commitments or openings".into(),
            ));
        }
        let side = self.header.side(seat);
        let mut state = G::State::clone(&self.state);
        let mut played = PlayedTurn::blank(line.number, side, self.before(&state));
        played.kind = LineKind::Setup;
        played.reveal = line.reveal().map(|(_, h)| h);
        match step {
            // Refused before: no line comes while a key is due.
            SetupStep::Key => {
                return Err(at.illegal(
                    Place::Line,
                    None,
                    "every side's key comes before the first set-up line".into(),
                ))
            }
            SetupStep::Commit => self.setup_commits(line, seat, step, at, &mut played)?,
            SetupStep::Open => {
                self.setup_openings(line, seat, step, at, &mut state, &mut played)?
            }
            SetupStep::CommitOpen => {
                self.setup_commits(line, seat, step, at, &mut played)?;
                self.setup_openings(line, seat, step, at, &mut state, &mut played)?
            }
            SetupStep::Shares => self.setup_shares(line, at)?,
        }
        Ok((played, state))
    }

    fn setup_commits(
        &self,
        line: &Line<'_>,
        seat: Seat,
        step: SetupStep,
        at: At<'_>,
        played: &mut PlayedTurn<G>,
    ) -> Result<(), LineError> {
        for (k, proof) in line.proofs.iter().enumerate() {
            let place = Place::Proof(k);
            match *proof {
                ProofKind::Reveal(_) | ProofKind::Sign(_) | ProofKind::Date(_) => {}
                ProofKind::CardKey { .. } if self.table.has_deck() => {}
                // A pass due from the line's hand (a shared hand's, once
                // its holder's and the others' keys are in), checked by
                // the deck.
                ProofKind::Commit { slot, .. }
                    if self.table.has_deck()
                        && super::cards::shuffle_generation(slot).is_some() => {}
                ProofKind::Deck { .. } | ProofKind::Share { .. } if self.table.has_deck() => {}
                // Read after the commitments (`setup_openings`).
                ProofKind::Open { .. } if step == SetupStep::CommitOpen => {}
                ProofKind::Commit { slot, digest } => {
                    let entry = self.slot_named(seat, ("commit", slot), at, place)?;
                    let twice = played
                        .shown
                        .iter()
                        .any(|p| matches!(p, Shown::Commit { slot, .. } if *slot == entry.name));
                    if twice {
                        return Err(
                            at.record(place, format!("commit {slot}: {slot} is committed twice"))
                        );
                    }
                    played.shown.push(Shown::Commit {
                        slot: entry.name,
                        digest,
                    });
                }
                _ => {
                    return Err(at.record(
                        place,
                        "this set-up line commits: it carries the commitments and the reveal only"
                            .into(),
                    ))
                }
            }
        }
        let missing = self.hidden.slots[seat.index()].iter().find(|s| {
            !played
                .shown
                .iter()
                .any(|p| matches!(p, Shown::Commit { slot, .. } if *slot == s.name))
        });
        if let Some(missing) = missing {
            return Err(at.record(
                Place::Line,
                format!(
                    "{} commits to every hidden value on its set-up line: {} is missing",
                    at.side, missing.name
                ),
            ));
        }
        Ok(())
    }

    fn setup_openings(
        &self,
        line: &Line<'_>,
        seat: Seat,
        step: SetupStep,
        at: At<'_>,
        state: &mut G::State,
        played: &mut PlayedTurn<G>,
    ) -> Result<(), LineError> {
        let due = self.hidden.after_setup[seat.index()];
        for (k, proof) in line.proofs.iter().enumerate() {
            match *proof {
                ProofKind::Reveal(_) | ProofKind::Sign(_) | ProofKind::Date(_) => {}
                ProofKind::Commit { slot, .. } | ProofKind::Open { slot, .. }
                    if self.table.has_deck()
                        && super::cards::shuffle_generation(slot).is_some() => {}
                ProofKind::Deck { .. } | ProofKind::Share { .. } if self.table.has_deck() => {}
                // Read before the openings (`setup_commits`).
                ProofKind::Commit { .. } | ProofKind::CardKey { .. }
                    if step == SetupStep::CommitOpen => {}
                ProofKind::Open { slot, value, salt } => {
                    if !due.iter().any(|d| d.eq_ignore_ascii_case(slot)) {
                        return Err(at.record(
                            Place::Proof(k),
                            format!("open {slot}: the set-up opens {} only", due.join(", ")),
                        ));
                    }
                    self.open_into(state, seat, (k, slot, value, salt), at, &mut played.shown)?;
                }
                _ => {
                    return Err(at.record(
                        Place::Proof(k),
                        "this set-up line opens: it carries the openings and the reveal only"
                            .into(),
                    ))
                }
            }
        }
        let opened = |d: &&str| {
            played
                .shown
                .iter()
                .any(|p| matches!(p, Shown::Open { slot, .. } if slot == d))
        };
        if let Some(missing) = due.iter().find(|d| !opened(d)) {
            return Err(at.record(
                Place::Line,
                format!(
                    "{} opens {} on this set-up line: {missing} is missing",
                    at.side,
                    due.join(", ")
                ),
            ));
        }
        Ok(())
    }

    /// A shares line (spec section 3.9): the shares and the reveal only.
    fn setup_shares(&self, line: &Line<'_>, at: At<'_>) -> Result<(), LineError> {
        for (k, proof) in line.proofs.iter().enumerate() {
            match *proof {
                ProofKind::Reveal(_)
                | ProofKind::Sign(_)
                | ProofKind::Date(_)
                | ProofKind::Share { .. } => {}
                _ => {
                    return Err(at.record(
                        Place::Proof(k),
                        "this set-up line gives shares: it carries the shares and the reveal only"
                            .into(),
                    ))
                }
            }
        }
        Ok(())
    }

    /// Apply the openings of `line` that answer `demands` on side `seat`
    /// (the mover), and refuse any other. Returns the openings not used.
    pub(super) fn answer<'l>(
        &self,
        state: &mut G::State,
        seat: Seat,
        openings: Vec<Opening<'l>>,
        demands: &[Demand],
        at: At<'_>,
        shown: &mut Vec<Shown>,
    ) -> Result<Vec<Opening<'l>>, LineError> {
        let side = self.header.side(seat);
        let mut rest = Vec::new();
        for opening in openings {
            let demanded = demands
                .iter()
                .any(|d| d.side == side && d.slot.eq_ignore_ascii_case(opening.1));
            if demanded {
                self.open_into(state, seat, opening, at, shown)?;
            } else {
                rest.push(opening);
            }
        }
        Ok(rest)
    }

    /// The openings the rules demand of side `seat` in `state` that the
    /// line has not made: an error naming the first.
    pub(super) fn check_answered(
        &self,
        state: &G::State,
        seat: Seat,
        at: At<'_>,
    ) -> Result<(), LineError> {
        let side = self.header.side(seat);
        match G::demands(state).into_iter().find(|d| d.side == side) {
            Some(d) => Err(at.record(
                Place::Line,
                format!(
                    "{} must open {} on this line (herald move --key adds it)",
                    at.side, d.slot
                ),
            )),
            None => Ok(()),
        }
    }

    /// Play a closing line of openings of side `seat`, once the rules
    /// ended the game: every value it still holds, opened and audited.
    /// Returns the played line, the position and the audit's verdict.
    pub(super) fn play_audit(
        &self,
        line: &Line<'_>,
        seat: Seat,
        at: At<'_>,
    ) -> Result<Closing<G>, LineError> {
        if line.ending != Ending::Audit || line.actions().next().is_some() {
            return Err(at.record(
                Place::Line,
                format!(
                    "the game has ended: {}'s line is its audit, `audit` and the openings of every value it still holds",
                    at.side
                ),
            ));
        }
        let side = self.header.side(seat);
        let mut state = G::State::clone(&self.state);
        let mut played = PlayedTurn::blank(line.number, side, self.before(&state));
        played.audit = true;
        played.reveal = line.reveal().map(|(_, h)| h);
        for opening in Self::openings(line) {
            self.open_into(&mut state, seat, opening, at, &mut played.shown)?;
        }
        let mut values: Vec<(&str, &str)> = Vec::new();
        for (slot, value) in self.hidden.values(seat) {
            let value = value.or_else(|| {
                played.shown.iter().find_map(|p| match p {
                    Shown::Open { slot: s, value, .. } if *s == slot => Some(value.as_str()),
                    _ => None,
                })
            });
            let Some(value) = value else {
                return Err(at.record(
                    Place::Line,
                    format!(
                        "{}'s audit opens every value it still holds: {slot} is missing",
                        at.side
                    ),
                ));
            };
            values.push((slot, value));
        }
        let verdict = G::audit(&state, side, &values).map_err(|e| e.reason);
        Ok((played, state, verdict))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A side with slots of these names, none committed or opened.
    fn side_with(names: &[&'static str]) -> Hidden {
        let own: Vec<Slot> = names
            .iter()
            .map(|&name| Slot {
                name,
                digest: None,
                opened: None,
            })
            .collect();
        let slots = vec![own];
        Hidden {
            seats: vec![Seat::test(0)],
            due: None,
            any: true,
            exact: distinct(&slots),
            slots,
            after_setup: vec![&[]],
            after_setup_at: vec![Vec::new()],
            audited: vec![None],
            refused: vec![false],
            start: 0,
            protocol: Protocol::Two,
        }
    }

    /// A slot's own name finds it by its text, a look that passes over
    /// the others at once; it finds what the look in any case finds, the
    /// first slot so named, also where two slots differ only in case.
    #[test]
    fn a_slot_found_by_its_own_name_is_the_slot_found_in_any_case() {
        use crate::games::playground_battles::PlaygroundBattles as Pb;
        let setup = crate::game::Setup {
            sides: &[Side(0), Side(1)],
            tags: &[],
        };
        let state = Pb::new_game(&setup).expect("a game");
        let lists: [&[&'static str]; 4] = [
            Pb::hidden_slots(&state, Side(0)),
            &["x", "X", "y"],
            &["ab", "cd", "AB", "Cd"],
            &[],
        ];
        let mut fast = 0;
        for names in lists {
            let hidden = side_with(names);
            assert_eq!(hidden.exact, names.len() != 3 && names.len() != 4);
            let mut asked: Vec<String> = Vec::new();
            for name in names {
                asked.extend([name.to_uppercase(), name.to_lowercase(), format!("{name}z")]);
            }
            asked.extend(["".to_owned(), "zz".to_owned()]);
            let typed = asked.iter().map(String::as_str);
            for slot in names.iter().copied().chain(typed) {
                let looked = names.iter().position(|n| n.eq_ignore_ascii_case(slot));
                assert_eq!(hidden.find(0, slot), looked, "{slot} in {names:?}");
                if hidden.exact && names.iter().any(|n| std::ptr::eq(*n, slot)) {
                    fast += 1;
                }
            }
        }
        assert_eq!(fast, 22, "each playground slot found by its own name");
    }
}
