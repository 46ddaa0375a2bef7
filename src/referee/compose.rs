//! Composing a player's next line: the one way `move`, `legal` and
//! self-play turn a player's choice and their wallet into a line (or a
//! look at the turn ahead). The referee adds what the protocol demands
//! (the reveal, the chance facts); the player chooses only the actions.

use super::header::Seat;
use super::look::KeylessCopy;
use super::{
    line_only_passes, ChanceEvent, Ending, Entry, ErrorKind, Line, LineError, Place, PlayedTurn,
    Referee, SealCheck, SetupStep,
};
use super::{Command, Said};
use crate::fairness::{self, Hash};
use crate::game::{Game, Phase, Side};
use crate::record::{self, LineKind, ProofKind, Source, MAX_TURNS};
use crate::wallet::Wallet;

/// Why a line cannot be composed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ComposeError {
    /// The wallet given is not the one for this line; the message follows
    /// the wallet's name (`is a key for Red in castle-danger, ...`).
    Wallet(String),
    /// The keys given (or their absence) do not fit the side to move: a
    /// mistake in how the command was called.
    Keys(String),
    /// The wallet is another side's of this very game: that side's step
    /// is not due now (the message follows the wallet's name, as for
    /// [`ComposeError::Wallet`]).
    NotDue(String),
    /// The game cannot take another line (it is over, or the record is
    /// full), or not yet (its first line while the sides' tags are
    /// uneven, [`Referee::uneven_first_line`]): a problem of this
    /// kind.
    Closed(ErrorKind, String),
    /// The line is not allowed, placed in it.
    Line(LineError),
    /// The record lacks the key file's own Commit and Key tags, though
    /// the key file was made for this very game under a protocol that
    /// binds keys: a copy stripped of them (or one from before they were
    /// added), which the key file refuses (a record problem, exit 1),
    /// in the words of [`Stripped::message`].
    Stripped(Stripped),
    /// The hand's key file given (`--hand-key`) does not fit the hand the
    /// side plays from; the message follows the file's name, as for
    /// [`ComposeError::Wallet`] (`is Castle2's key in this game, ...`),
    /// and names the side it was made for and the key that works.
    HandKey(String),
}

/// A copy stripped of side `side`'s keys, refused for the key file made
/// for that side in this very game ([`ComposeError::Stripped`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Stripped {
    side: String,
    /// Whether the record has no line yet: then it may be a copy from
    /// before the side's key was added.
    first: bool,
}

/// What `move` writes, as [`Referee::uneven_first_line`] asks it.
#[derive(Clone, Copy, Debug)]
pub struct FirstLineAsked<'a> {
    /// The record came in an email message, so the missing key may have
    /// come in another one, answered at once with it (then both
    /// messages, in one mailbox file, read as one game).
    pub from_message: bool,
    /// `--no-commit`: the player writes without a reveal.
    pub no_commit: bool,
    /// A turn was typed (not a forfeit claimed).
    pub typed: bool,
    /// The key file given, if any.
    pub key_file: Option<&'a Wallet>,
}

/// When a refusal is said: before the line is composed, or after it (a
/// mistake in the line named first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalDue {
    /// Before the line is composed.
    BeforeTheLine,
    /// Once the line is composed.
    AfterTheLine,
}

/// The first line refused while the sides' tags are uneven
/// ([`Referee::uneven_first_line`]), and when that is said.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnevenFirstLine {
    /// The refusal.
    pub refusal: ComposeError,
    /// When it is said.
    pub due: RefusalDue,
}

impl UnevenFirstLine {
    /// The refusal in `uneven`, if it is said at `now` (then taken out).
    pub fn refuse_at(uneven: &mut Option<Self>, now: RefusalDue) -> Result<(), ComposeError> {
        match uneven.take_if(|u| u.due == now) {
            Some(u) => Err(u.refusal),
            None => Ok(()),
        }
    }
}

impl Stripped {
    /// The side whose keys the copy lacks.
    pub fn side(&self) -> &str {
        &self.side
    }

    /// The refusal, the key file named `key` (as the player names it),
    /// with the commands that work: the words every command given the
    /// key file uses.
    pub fn message(&self, key: &str) -> Said {
        let name = &self.side;
        let before = if self.first {
            Said::words(format!(
                ", or it is a copy from before {name}'s key was added (then add it again, the same key: "
            ))
            .command(Command::keygen(name).on_record().key_file(key))
            .and(")")
        } else {
            Said::default()
        };
        Said::words(format!(
            "this copy holds no {name}Commit or {name}Key tag, yet {key} was made for {name} in this very game, whose protocol binds every side's key: the copy was stripped of {name}'s keys (its Commit and Key tags, and the signatures they require)"
        ))
        .then(before)
        .and("; it is not the game you are playing, and a line written on it would go out unsigned, so it is refused: ask for the record as it was sent, and check that copy with ")
        .command(Command::check().on_record().key_file(key))
        .and("; nothing was written")
    }
}

/// The key material a caller holds for the side it composes or views
/// for: its own key file, if any, and what shows the side's hand (spec
/// section 3.9, "Shared hands"). One value for every entry point that
/// composes a line or shows a turn ([`Referee::compose`],
/// [`Referee::compose_typed`], [`Referee::preview_for`],
/// [`Referee::view`], [`Referee::look`]); the CLI makes it from `--key`
/// and `--hand-key` ([`Keys::given`]).
#[derive(Clone, Copy, Debug)]
pub struct Keys<'w> {
    own: Option<&'w Wallet>,
    hand: HandKey<'w>,
}

/// What shows the hand of the side a key file is given for.
#[derive(Clone, Copy, Debug)]
pub enum HandKey<'w> {
    /// No hand key was asked for: the side's hand is what its own key
    /// file shows, so a side that plays from another side's hand sees
    /// none of that hand (a look from a side's key file alone).
    AsOwnShows,
    /// No hand key was given, and the side's own key file must show its
    /// hand: a side that plays from another side's hand is refused and
    /// told to give the hand's key (what a player gives, `--key` without
    /// `--hand-key`).
    Own,
    /// The key file of the side holding the hand (`--hand-key`), checked
    /// to be that side's in this game; refused for a side that holds its
    /// own hand, and in a game without hidden hands.
    Holder(&'w Wallet),
}

impl<'w> Keys<'w> {
    /// No key file: the game as anyone can know it.
    pub const NONE: Keys<'static> = Keys {
        own: None,
        hand: HandKey::Own,
    };

    /// A side's own key file, which must show its hand
    /// ([`HandKey::Own`]).
    pub fn own(own: &'w Wallet) -> Self {
        Keys {
            own: Some(own),
            hand: HandKey::Own,
        }
    }

    /// A side's own key file, its hand as that file shows it
    /// ([`HandKey::AsOwnShows`]).
    pub fn as_shown(own: &'w Wallet) -> Self {
        Keys {
            own: Some(own),
            hand: HandKey::AsOwnShows,
        }
    }

    /// The key files a player gave: `own` (`--key`) and `hand`
    /// (`--hand-key`, [`HandKey::Holder`]); without a hand key, the
    /// side's own key file must show its hand ([`HandKey::Own`]).
    pub fn given(own: Option<&'w Wallet>, hand: Option<&'w Wallet>) -> Self {
        Keys {
            own,
            hand: hand.map_or(HandKey::Own, HandKey::Holder),
        }
    }

    /// The side's own key file, if one was given.
    pub fn own_file(&self) -> Option<&'w Wallet> {
        self.own
    }

    /// What shows the side's hand.
    pub fn hand(&self) -> HandKey<'w> {
        self.hand
    }

    /// The hand holder's key file, if one was given.
    fn holder(&self) -> Option<&'w Wallet> {
        match self.hand {
            HandKey::Holder(hand) => Some(hand),
            HandKey::AsOwnShows | HandKey::Own => None,
        }
    }
}

/// The turn ahead as far as the one asking can know it.
#[derive(Clone, Debug)]
pub enum Preview<G: Game> {
    /// The position the mover's actions start from (what the rules
    /// demanded be opened at the start of the line opened), the actions
    /// legal there, the chance the mover gets at its start (none without
    /// the mover's key), and a note on what is still unknown, if anything.
    Actions {
        /// The position.
        state: G::State,
        /// The actions legal first ([`Game::legal_actions`]).
        actions: Vec<G::Action>,
        /// The chance values the mover's reveal settles or draws.
        chance: Vec<ChanceEvent>,
        /// What is still unknown.
        note: Option<Said>,
    },
    /// The event settled by this line's reveal ended the game or put the
    /// mover out: the line may only pass. Says why.
    OnlyPass(Said),
    /// Nothing can be listed: the game is over, the set-up is not
    /// finished, or the turn's start depends on chance the asker cannot
    /// know. Says why (with the command that takes the step due).
    Unknown(Said),
}

/// A turn partly made ([`Referee::preview_after`]).
pub struct AfterActions<G: Game> {
    /// The position after the actions.
    pub state: G::State,
    /// The actions made, in order.
    pub actions: Vec<G::Action>,
    /// Whether the turn may end here, or why not.
    pub can_end: Result<(), String>,
}

impl<G: Game> Preview<G> {
    /// The turn ahead from `state`, its legal actions listed.
    fn actions(state: G::State, chance: Vec<ChanceEvent>, note: Option<Said>) -> Self {
        let mut actions = Vec::new();
        G::legal_actions(&state, &mut actions);
        Preview::Actions {
            state,
            actions,
            chance,
            note,
        }
    }

    /// The legal actions listed, if there is a position to list them from.
    pub fn legal_actions(&self) -> &[G::Action] {
        match self {
            Preview::Actions { actions, .. } => actions,
            _ => &[],
        }
    }

    /// The position to list actions from, if there is one.
    pub fn state(&self) -> Option<&G::State> {
        match self {
            Preview::Actions { state, .. } => Some(state),
            _ => None,
        }
    }

    /// What the asker should be told beside the actions.
    pub fn note(&self) -> Option<&Said> {
        match self {
            Preview::Actions { note, .. } => note.as_ref(),
            Preview::OnlyPass(note) | Preview::Unknown(note) => Some(note),
        }
    }

    /// What a player listing the actions should be told beside them: the
    /// [`note`](Preview::note), or, with no action legal, that the turn
    /// passes (with nothing listed, a pass is legal: the engines'
    /// contract, [`Game::legal_actions`]).
    pub fn legal_note(&self) -> Option<Said> {
        match self {
            Preview::Actions {
                actions,
                note: None,
                ..
            } if actions.is_empty() => {
                Some("no action is possible: the turn passes (write `pass`)".into())
            }
            _ => self.note().cloned(),
        }
    }
}

impl<G: Game> Referee<G> {
    /// Check that `wallet` is `side`'s key in this very game (`why`: what
    /// makes it the key wanted, e.g. `it is Blue's turn`).
    pub(super) fn wallet_in_game(
        &self,
        side: Side,
        wallet: &Wallet,
        why: &str,
    ) -> Result<(), ComposeError> {
        let name = side.name::<G>();
        // Another side's key of this very game.
        let theirs = self
            .wallet_side(wallet)
            .ok()
            .filter(|&s| s != side && wallet.chain() == self.header.chain_id());
        if let Some(theirs) = theirs {
            // While a claim waits for its answer, that answer is the
            // step due, whoever the board says moves next.
            let due = match self.claim_answer_due() {
                Some(d) => d.text.to_string(),
                None => why.to_owned(),
            };
            return Err(ComposeError::NotDue(format!(
                "is {}'s key in this game, but {due}",
                theirs.name::<G>()
            )));
        }
        if !wallet.game().eq_ignore_ascii_case(G::ID) || !wallet.side().eq_ignore_ascii_case(name) {
            return Err(ComposeError::Wallet(format!(
                "is a key for {} in {}, but {why} in {}",
                wallet.side(),
                wallet.game(),
                G::ID
            )));
        }
        if wallet.chain() != self.header.chain_id() {
            return Err(ComposeError::Wallet(
                "was made for another game (or the header changed since): a key serves one game only"
                    .into(),
            ));
        }
        // The key file knows its side's public key: a record whose Key
        // tag for that side is another is not the game this player is
        // playing. (Under protocol 2 the swap already breaks the side's
        // first reveal, and a Key tag cannot go without its Commit tag.)
        if let Some(key) = self.header.key(side) {
            if key.as_bytes() != &wallet.public_key() {
                return Err(ComposeError::Wallet(format!(
                    "holds {name}'s signing key, but this record's {name}Key tag is another key: the tag was swapped since {name}'s keygen, so this copy is not the game you are playing (nothing was written; ask for the record as it was sent, or compare copies with herald check)"
                )));
            }
        }
        Ok(())
    }

    /// The key file that draws, shows and opens the cards of `side`'s
    /// hand (spec section 3.9, "Shared hands"): `own`, the side's, when
    /// it holds its hand; `hand`, the holder's, when it plays from
    /// another side's hand. A player of two sides keeps a key file for
    /// each; the hand's key is the one of the side holding the hand.
    /// Refused: a hand key missing, of another side than the holder, or
    /// given for a side that holds its own hand (or in a game without
    /// hidden hands).
    pub fn hand_wallet<'w>(
        &self,
        side: Side,
        own: &'w Wallet,
        hand: Option<&'w Wallet>,
    ) -> Result<&'w Wallet, ComposeError> {
        let name = side.name::<G>();
        let seat = self
            .header
            .seat_of(side)
            .ok_or_else(|| ComposeError::Keys(format!("{name} is not in the header")))?;
        // The hand key given, by its name, and what it was made for: its
        // side and game.
        let made_for = |w: &Wallet| {
            format!(
                "{}(made for {} in {})",
                w.file().map(|f| format!("{f} ")).unwrap_or_default(),
                w.side(),
                w.game()
            )
        };
        if !self.table.has_deck() {
            return match hand {
                Some(hand) => Err(ComposeError::HandKey(format!(
                    "{}: {} deals no hidden cards, so there is no hand key: drop --hand-key (--key alone writes and shows {name}'s lines)",
                    made_for(hand),
                    G::TITLE
                ))),
                None => Ok(own),
            };
        }
        let holder = self.hand_name(seat);
        let works = format!(
            "give {holder}'s key file of this game as the hand's key: --key {}.key --hand-key {}.key (your names for those key files)",
            name.to_ascii_lowercase(),
            holder.to_ascii_lowercase()
        );
        match (self.holds_hand(seat), hand) {
            (Some(_), None) => Ok(own),
            (Some(_), Some(hand)) => Err(ComposeError::HandKey(format!(
                "{}: {name} holds its own hand, drawn and shown with its own key file: drop \
                 --hand-key (it is for a side that plays from another side's hand)",
                made_for(hand)
            ))),
            (None, None) => Err(ComposeError::Keys(format!(
                "{name} plays from {holder}'s hand: its cards are drawn and shown with \
                 {holder}'s key file, given as the hand's key (herald --hand-key): {works}"
            ))),
            (None, Some(hand)) => {
                let holder_side = self.header.side_named::<G>(holder).unwrap_or(side);
                self.wallet_in_game(holder_side, hand, &format!("{name}'s hand is {holder}'s"))
                    .map_err(|e| match e {
                        ComposeError::Wallet(m) | ComposeError::NotDue(m) => {
                            ComposeError::HandKey(format!("{} {m}: {works}", made_for(hand)))
                        }
                        other => other,
                    })?;
                Ok(hand)
            }
        }
    }

    /// The key file that shows `side`'s hand, as `hand` says
    /// ([`HandKey`]): with [`HandKey::AsOwnShows`], `own` whenever
    /// [`Referee::hand_wallet`] would refuse; else what it says.
    pub(super) fn hand_shown_by<'w>(
        &self,
        side: Side,
        own: &'w Wallet,
        hand: HandKey<'w>,
    ) -> Result<&'w Wallet, ComposeError> {
        match hand {
            HandKey::AsOwnShows => Ok(self.hand_wallet(side, own, None).unwrap_or(own)),
            HandKey::Own => self.hand_wallet(side, own, None),
            HandKey::Holder(holder) => self.hand_wallet(side, own, Some(holder)),
        }
    }

    /// The reveal for `side`'s next line from `wallet`, after checking that
    /// the wallet is that side's in this very game.
    pub fn wallet_reveal(&self, side: Side, wallet: &Wallet) -> Result<Hash, ComposeError> {
        let side_name = side.name::<G>();
        self.wallet_in_game(side, wallet, &format!("it is {side_name}'s turn"))?;
        if self.header.commit(side) != Some(*wallet.commit()) {
            return Err(ComposeError::Wallet(format!(
                "does not belong to this game: its commitment is not {side_name}Commit"
            )));
        }
        let j = self.lines_of(side) + 1;
        let reveal = wallet
            .reveal(j)
            .map_err(|e| ComposeError::Wallet(e.0))?
            .ok_or_else(|| {
                ComposeError::Keys(format!(
                    "{side_name}'s hash chain is used up after {} turns",
                    j - 1
                ))
            })?;
        // The one known link below: the side's previous reveal (or its
        // commitment), which the record has shown. A key file's altered
        // links could give a value that does not follow it: never written.
        let chain = self
            .header
            .seat_of(side)
            .map(|seat| *self.header.side_chain(seat));
        if chain.is_none_or(|chain| {
            self.latest_reveal(side) != Some(crate::fairness::chain_step(&chain, &reveal))
        }) {
            return Err(ComposeError::Wallet(format!(
                "was altered: the reveal it gives for {side_name}'s line {j} does not follow {side_name}'s previous one"
            )));
        }
        Ok(reveal)
    }

    /// The side of `wallet`, when its audit is due: the audits come in
    /// any order, and each side writes its own (spec section 3.7).
    /// A side of the game whose audit is done (or that had nothing to
    /// open) has nothing to write in the audit: refused, naming the
    /// audits still due.
    pub(super) fn closing_side(
        &self,
        wallet: Option<&Wallet>,
    ) -> Result<Option<Side>, ComposeError> {
        let Some(side) = wallet.and_then(|w| self.header.side_named::<G>(w.side())) else {
            return Ok(None);
        };
        if self.phase() != Phase::Audit {
            return Ok(None);
        }
        if self.audit_due_of(side) {
            return Ok(Some(side));
        }
        Err(ComposeError::Closed(
            ErrorKind::Illegal,
            format!(
                "{} has no audit due: its closing line is in this record already, or it had nothing left to open; the audits still due are {} (each side writes its own: herald move audit --key)",
                side.name::<G>(),
                super::possessives::<G>(&self.audits_due())
            ),
        ))
    }

    /// The side whose line is due, if the game can take another line at
    /// all (it is not over and the record not full).
    pub fn open_side(&self) -> Result<Side, ComposeError> {
        let Some(side) = self.to_move() else {
            // A claim that ended the game waits for its target's answer.
            let answer = self
                .claim_answer_due()
                .map_or_else(String::new, |d| format!("; {}", d.text));
            return Err(ComposeError::Closed(
                ErrorKind::Illegal,
                format!("the game is over: {}{answer}", self.over_summary()),
            ));
        };
        if self.next_turn() as usize > MAX_TURNS {
            // herald could not read the record back.
            return Err(ComposeError::Closed(
                ErrorKind::Record,
                format!(
                    "the record already holds {MAX_TURNS} turns, the most a record may hold: the game cannot go on in this record"
                ),
            ));
        }
        Ok(side)
    }

    /// The reveal the mover's line carries: the wallet's next chain value
    /// for a committed side, none for a side without a commitment.
    fn line_reveal(
        &self,
        side: Side,
        wallet: Option<&Wallet>,
        line: &Line<'_>,
    ) -> Result<Option<Hash>, ComposeError> {
        let name = side.name::<G>();
        match (wallet, self.latest_reveal(side)) {
            (Some(wallet), Some(_)) => self.wallet_reveal(side, wallet).map(Some),
            (None, Some(_)) if line.is_bare_resign() => Err(ComposeError::Keys(format!(
                "{name} has a Commit tag, so a resignation needs {name}'s reveal: add --key with {name}'s key file (a player who stopped answering loses by a forfeit another player claims: herald move --forfeit --key)"
            ))),
            (None, Some(_)) => Err(ComposeError::Keys(format!(
                "{name} has a Commit tag, so each {name} line needs a reveal: add --key with {name}'s key file"
            ))),
            // A key file that played this side already, in a game whose
            // header this record does not have: a copy stripped of its
            // tags (Commit, Key, Nonce, ...) is not that game.
            (Some(wallet), None)
                if wallet.sent().is_some()
                    && wallet.game().eq_ignore_ascii_case(G::ID)
                    && wallet.side().eq_ignore_ascii_case(name) =>
            {
                Err(ComposeError::Closed(
                    ErrorKind::Record,
                    header_changed(
                        name,
                        &format!("{name} has no Commit tag here, and the key file's game had one"),
                    ) + "; nothing was written",
                ))
            }
            // The key file was made for this very game, whose protocol
            // binds its key: the line would go out unsigned, so the copy
            // is refused, never answered without the key.
            // (Under protocol 2, once lines were written, a key made and
            // never added is no stripped copy: the side plays unsigned.)
            // (The key file's own side named: another side's key file
            // on the turn of a side stripped too is told of its own.)
            (Some(wallet), None)
                if wallet.protocol().binds_keys()
                    && wallet.chain() == self.header.chain_id()
                    && (self.setup_lines + self.turns == 0
                        || self.header.protocol().keys_join_late()) =>
            {
                let own = self
                    .wallet_side(wallet)
                    .ok()
                    .filter(|&s| self.header.commit(s).is_none())
                    .map_or(name, |s| s.name::<G>());
                Err(self.stripped_of(own))
            }
            (Some(_), None) => Err(ComposeError::Keys(format!(
                "{name} has no Commit tag, so its lines carry no reveal: drop --key ({})",
                self.keygen_hint(side)
            ))),
            (None, None) => Ok(None),
        }
    }

    /// The refusal of a copy stripped of side `name`'s keys, for the key
    /// file made for `name` in this very game, whose protocol binds its
    /// key ([`Stripped`]): `move` and `setup` refuse it as the readers
    /// (`show`, `legal`, `fate`, `hand`) do.
    fn stripped_of(&self, name: &str) -> ComposeError {
        ComposeError::Stripped(Stripped {
            side: name.to_owned(),
            first: self.setup_lines + self.turns == 0,
        })
    }

    /// The refusal of the game's first line while some sides have Commit
    /// (or Key) tags and others not ([`super::Header::uneven_tags`]), as
    /// `move` writes it (`asked`), and when it is said
    /// ([`UnevenFirstLine`]): those sides' tags can never be added later.
    /// `None` once the record has a line, when the tags are even, or when
    /// `--no-commit` lets the line go (never under protocol 3, where the
    /// game would stick at the first line of a side without a key).
    ///
    /// Said before the typed line is composed when another side's key is
    /// missing from this copy: that stops any first line, legal or not,
    /// so it comes first, with the command that adds it. Said after the
    /// line otherwise, so that a mistake in the line is named first: the
    /// key file's own side's missing key is said by the composing, as a
    /// stripped copy; a forfeit claim's own refusal names the key due
    /// first; a key file that is no key of this game (or none given where
    /// one is needed) is a usage error, said first by the composing.
    pub fn uneven_first_line(&self, asked: &FirstLineAsked<'_>) -> Option<UnevenFirstLine> {
        if self.setup_lines + self.turns > 0
            || (asked.no_commit && !self.header.protocol().keys_join_late())
        {
            return None;
        }
        let why = self.header.uneven_tags::<G>()?;
        let refusal = ComposeError::Closed(
            ErrorKind::Illegal,
            format!(
                "turn 1 cannot be written yet: {why}{}",
                if asked.from_message {
                    " (if that key came in another message, answered at once with this one, give both messages in one mailbox file: they read as one game)"
                } else {
                    ""
                }
            ),
        );
        let another_sides_key = asked.typed
            && asked.key_file.is_some_and(|w| {
                self.key_file_side(w).is_ok()
                    && self.copy_without_key_of(w, KeylessCopy::CHECKED).is_none()
            });
        let due = if another_sides_key {
            RefusalDue::BeforeTheLine
        } else {
            RefusalDue::AfterTheLine
        };
        Some(UnevenFirstLine { refusal, due })
    }

    /// For a reader given `wallet` (`show`, `legal`, `fate`, `hand` with
    /// `--key`): the refusal of this copy when it lacks the Commit tag of
    /// the key file's side, the key file being that side's in this very
    /// game (its chain), as `move --key` refuses it: a key file that
    /// wrote a line of a game whose header this copy does not have, or
    /// one whose protocol binds its key, before any line or once play
    /// began under protocol 3 (during its set-up a key may still join
    /// with its side's first line). `None` otherwise.
    pub(super) fn stripped_for(&self, wallet: &Wallet) -> Option<ComposeError> {
        if wallet.sent().is_some() {
            let side = self.copy_without_key_of(wallet, KeylessCopy::AFTER_ITS_LINE)?;
            let name = side.name::<G>();
            return Some(ComposeError::Closed(
                ErrorKind::Record,
                header_changed(
                    name,
                    &format!("{name} has no Commit tag here, and the key file's game had one"),
                ) + "; nothing was written",
            ));
        }
        self.copy_without_key_of(wallet, KeylessCopy::STRIPPED)
            .map(|side| self.stripped_of(side.name::<G>()))
    }

    /// Compose the next line from the mover's choice (`line`: its actions
    /// and ending; number and side as the player wrote them, if at all)
    /// and their key files (`keys`), and play it. The played turn's
    /// [`PlayedTurn::text`] is the line to write.
    ///
    /// During the set-up the line is the side's set-up step (its
    /// commitments, or its openings) and the player's choice must be
    /// empty; once the rules ended a game with hidden values, it is the
    /// side's closing line of openings. In play, the openings the rules
    /// demand of the mover are added from the wallet. For a side that
    /// plays from a hand it shares with its holder ([`Game::hand_holder`]),
    /// the line's deck items (the hand's pass, shares and openings) are
    /// made from the holder's key file ([`HandKey::Holder`]), its reveal
    /// and signature from the side's own; a line is always written with
    /// the hand's key file ([`HandKey::AsOwnShows`] is taken as
    /// [`HandKey::Own`]).
    pub fn compose<'a>(
        &mut self,
        mut line: Line<'a>,
        keys: Keys<'a>,
    ) -> Result<PlayedTurn<G>, ComposeError> {
        let wallet = keys.own_file();
        let hand = keys.holder();
        // Under protocol 3 the wallet's side may begin the set-up.
        let closing = self.closing_side(wallet)?;
        let side = match wallet.and_then(|w| self.side_beginning_setup(w.side())) {
            Some(side) => side,
            None => match closing {
                Some(side) => {
                    line.side = side.name::<G>();
                    side
                }
                None => self.open_side()?,
            },
        };
        if hand.is_some() && !self.table.has_deck() {
            return Err(ComposeError::Keys(format!(
                "{} deals no hidden cards, so there is no hand key: drop --hand-key",
                G::TITLE
            )));
        }
        let (kind, number) = self.next_line();
        line.kind = kind;
        if kind == LineKind::Setup {
            line.number = number;
        }
        // A draw word where none may stand, refused before the phase's
        // proofs make the line something else (an audit line).
        self.check_draw_now(&line).map_err(ComposeError::Line)?;
        // The protocol's proofs are the referee's to add, never the player's.
        line.proofs.clear();
        let reveal = self.line_reveal(side, wallet, &line)?;
        if let Some(reveal) = reveal {
            line.proofs.push(ProofKind::Reveal(reveal));
        }
        if let Some(day) = self.line_day()? {
            line.proofs.push(ProofKind::Date(day));
        }
        if self.hidden.any() {
            let wallet = self.hidden_wallet(side, wallet)?;
            let proofs = match self.phase() {
                Phase::Setup => {
                    if line.ending == Ending::Pass {
                        // A set-up line has no actions to pass.
                        line.ending = Ending::Actions;
                    }
                    self.setup_proofs(side, wallet)?
                }
                Phase::Audit => {
                    line.ending = Ending::Audit;
                    self.closing_proofs(side, wallet)
                }
                _ => self.demanded_proofs(&line, reveal, side, wallet)?,
            };
            line.proofs.extend(proofs);
        }
        if self.table.has_deck() {
            return self.compose_with_deck(&line, side, wallet, hand);
        }
        if self.header.key(side).is_some() {
            return self.compose_sealed(&line, side, wallet);
        }
        self.play_line(&line).map_err(ComposeError::Line)
    }

    /// Compose `line` of `side` in a game with a shared deck (spec
    /// section 3.9): the deck's items from `wallet` added (its key, its
    /// pass, the shares it owes, the share that opens the card its
    /// actions play, the seeds it opens at the audit), then played.
    fn compose_with_deck(
        &mut self,
        line: &Line<'_>,
        side: Side,
        wallet: Option<&Wallet>,
        hand: Option<&Wallet>,
    ) -> Result<PlayedTurn<G>, ComposeError> {
        let name = side.name::<G>();
        let own = wallet.ok_or_else(|| {
            ComposeError::Keys(format!(
                "{name}'s cards are drawn and shown with {name}'s key file: add --key with it"
            ))
        })?;
        let seat = self
            .header
            .seat_of(side)
            .ok_or_else(|| ComposeError::Keys(format!("{name} is not in the header")))?;
        // A side that shares its holder's hand writes the hand's items
        // with the holder's key file.
        let wallet = self.hand_wallet(side, own, hand)?;
        self.refuse_as_the_hand_shows(line, own, hand)?;
        let (mut items, drawn) = self.compose_deck(seat, wallet);
        if self.phase() == Phase::Setup && self.setup_due() != Some(SetupStep::Shares) {
            // The line that completes the set-up (the last pass, or with
            // shared hands a later set-up line): the turn order, and so
            // the shares it owes, are known once the line is tried. A
            // line written once the deck is final, in a game that knows
            // who moves first before play, gives them as well: no line
            // of shares is then due after the set-up.
            let hand = self.deck_index(seat);
            let shares = self.draft(&with_items(line, &items), |draft| {
                let owed = draft.owed_before_known_play(hand)?;
                let deck = draft.deck()?;
                Some(draft.compose_shares(deck, seat, wallet, &owed))
            });
            if let Some(Some(shares)) = shares {
                items.add_shares(shares);
            }
        }
        let mut line = line.clone();
        if let Some(deck) = drawn {
            let secret =
                super::deck::CardSecret::of(wallet, self.header.game_id(), self.hand_name(seat));
            match deck.unreadable(&secret, self.deck_index(seat)) {
                // A card that opens to no card of the game: the line opens
                // it to show that the deck is broken, and plays nothing.
                Some(p) => {
                    items.add_shares(self.compose_shares(&deck, seat, wallet, &[p]));
                    line.entries.retain(|e| !matches!(e, Entry::Action(_)));
                    line.ending = Ending::Pass;
                }
                None => {
                    items = self.opening_share(&line, seat, wallet, &deck, items);
                    // One draft of the line tells what it owes: a line
                    // that changes the turns after it (a side skipped from
                    // now on) owes the shares of the turns as they are
                    // after it; a line that takes its hand's last side out
                    // of the game (a resignation) is the hand's leaving
                    // line.
                    let (owed, left) = self
                        .draft(&with_items(&line, &items), |d| {
                            (d.owed_after(seat), d.hand_left(seat))
                        })
                        .unwrap_or_default();
                    let missing = items.without_shares(owed);
                    items.add_shares(self.compose_shares(&deck, seat, wallet, &missing));
                    if left {
                        self.leaving_items(seat, wallet, &deck, &mut items);
                    }
                }
            }
        }
        let full = with_items(&line, &items);
        if self.header.key(side).is_some() {
            return self.compose_sealed(&full, side, Some(own));
        }
        // The line as it will be written (its items in the order of the
        // spec), so that the record digest is that of the written text.
        self.play_composed(&full, None)
    }

    /// Refuse the actions of `line`, a turn of the side to move, as the
    /// engine refuses them in the position its key file shows: the hand
    /// and this line's draw known. An action the hand cannot play (a
    /// card not held, a move the card cannot make) is refused for its
    /// own fault, in the same words as with open hands, rather than as a
    /// line that opens no card for it.
    fn refuse_as_the_hand_shows(
        &self,
        line: &Line<'_>,
        own: &Wallet,
        hand: Option<&Wallet>,
    ) -> Result<(), ComposeError> {
        if self.phase() != Phase::Play || line.ending != Ending::Actions {
            return Ok(());
        }
        let Ok(preview) = self.preview_for(Keys::given(Some(own), hand)) else {
            return Ok(());
        };
        match preview.state() {
            Some(state) => self
                .preview_after(state, line)
                .map(|_| ())
                .map_err(ComposeError::Line),
            None => Ok(()),
        }
    }

    /// `items` with the share that opens the card `line` plays from the
    /// hand (in `deck`, after the draw): of none or a held card's, the
    /// first with which the line plays, else the one with which it goes
    /// furthest (so that a line refused is refused for its own fault).
    fn opening_share(
        &mut self,
        line: &Line<'_>,
        seat: Seat,
        wallet: &Wallet,
        deck: &super::deck::DeckLedger,
        items: super::cards::DeckItems,
    ) -> super::cards::DeckItems {
        let held = deck.held(self.deck_index(seat));
        let candidates = std::iter::once(None).chain(held.iter().map(|&p| Some(p)));
        let mut best: Option<(usize, super::cards::DeckItems)> = None;
        for candidate in candidates {
            let mut tried = items.clone();
            if let Some(p) = candidate {
                tried.add_shares(self.compose_shares(deck, seat, wallet, &[p]));
            }
            let reached = match self.draft_played(&with_items(line, &tried)) {
                Ok(_) => return tried,
                Err(e) => match e.place {
                    Place::Item(k) | Place::ItemPart { index: k, .. } => k + 1,
                    Place::End => usize::MAX,
                    _ => 0,
                },
            };
            if best.as_ref().is_none_or(|(r, _)| reached > *r) {
                best = Some((reached, tried));
            }
        }
        best.map_or(items, |(_, tried)| tried)
    }

    /// Compose a forfeit (spec section 3.8): the side to move stopped
    /// answering, and the holder of `wallet`, another player with a
    /// signing key, claims its forfeit and signs the line.
    pub fn compose_forfeit(&mut self, wallet: &Wallet) -> Result<PlayedTurn<G>, ComposeError> {
        let side = self.open_side()?;
        let Some(claimant) = self
            .header
            .side_named::<G>(wallet.side())
            .filter(|_| wallet.game().eq_ignore_ascii_case(G::ID))
        else {
            return Err(ComposeError::Wallet(format!(
                "is a key for {} in {}, not for a player of this {} game: only a player claims a forfeit",
                wallet.side(),
                wallet.game(),
                G::ID
            )));
        };
        let (name, claimant_name) = (side.name::<G>(), claimant.name::<G>());
        // Keys before turn 1 (protocol 3): nothing is due of anyone that
        // a claim could take, until every side is in.
        if let Some(why) = self.no_claim_before_keys() {
            return Err(ComposeError::Closed(ErrorKind::Illegal, why));
        }
        if claimant == side {
            // An illegal choice in the game's terms, not a usage error.
            return Err(ComposeError::Closed(
                ErrorKind::Illegal,
                format!(
                    "it is {name}'s turn: {name} cannot claim its own forfeit (to give up, herald move resign --key)"
                ),
            ));
        }
        if self.header.key(claimant).is_none() {
            return Err(ComposeError::Keys(format!(
                "{claimant_name} has no {claimant_name}Key tag: a forfeit is claimed with the claimant's signature ({})",
                self.keygen_hint(claimant)
            )));
        }
        let (kind, number) = self.next_line();
        let line = Line {
            kind,
            number,
            side: name,
            entries: Vec::new(),
            ending: Ending::Forfeit,
            proofs: self.line_day()?.map(ProofKind::Date).into_iter().collect(),
            claimant: Some(claimant_name),
        };
        self.compose_sealed(&line, claimant, Some(wallet))
    }

    /// The date a line composed now carries: the day given
    /// ([`Referee::set_today`]) in a game with a `Deadline` tag, none in
    /// one without.
    fn line_day(&self) -> Result<Option<crate::record::Day>, ComposeError> {
        if self.header.deadline().is_none() {
            return Ok(None);
        }
        let Some(today) = self.today else {
            return Err(ComposeError::Keys(
                "this game has a Deadline tag, so every line is dated, and no date was given"
                    .into(),
            ));
        };
        match self.last_date {
            Some(last) if today < last => Err(ComposeError::Keys(format!(
                "the line would be dated {today}, before the last line's date {last}: lines are dated in order (without --date it is dated {last})"
            ))),
            _ => Ok(Some(today)),
        }
    }

    /// Check that `wallet` holds the signing key of `signer`'s
    /// `<Side>Key` tag in this game.
    fn check_signing_wallet(&self, signer: Side, wallet: &Wallet) -> Result<(), ComposeError> {
        let name = signer.name::<G>();
        self.wallet_in_game(signer, wallet, &format!("this line is signed by {name}"))?;
        if self.header.key(signer).map(|k| k.to_bytes()) != Some(wallet.public_key()) {
            return Err(ComposeError::Wallet(format!(
                "does not belong to this game: its public key is not {name}Key"
            )));
        }
        Ok(())
    }

    /// Play `line` sealed by `signer` (spec section 3.8): played once on
    /// a copy of the game to learn the text herald writes (canonical
    /// actions, chance facts), that text read back as any reader will,
    /// signed with `wallet`, and played.
    fn compose_sealed(
        &mut self,
        line: &Line<'_>,
        signer: Side,
        wallet: Option<&Wallet>,
    ) -> Result<PlayedTurn<G>, ComposeError> {
        let name = signer.name::<G>();
        let wallet = wallet.ok_or_else(|| {
            ComposeError::Keys(format!(
                "{name} has a {name}Key tag, so each {name} line is signed: add --key with {name}'s key file"
            ))
        })?;
        self.check_signing_wallet(signer, wallet)?;
        self.play_composed(line, Some((signer, wallet)))
    }

    /// Play `line`, composed, once: tried on the game itself
    /// ([`SealCheck::Trial`]: every check but its signature), its text
    /// rendered and read back as any reader will (a check, and the bytes
    /// the record digest takes), signed once over those bytes by
    /// `signer`'s `wallet` when it is sealed, and kept. A line refused
    /// leaves the game as it was (dropped, [`Referee::drop_tried`]).
    fn play_composed(
        &mut self,
        line: &Line<'_>,
        signer: Option<(Side, &Wallet)>,
    ) -> Result<PlayedTurn<G>, ComposeError> {
        // What the line's seal and the record digest are over: the line as
        // the next of the record as it stands before it.
        let (kind, number) = self.next_line();
        let due = self.open_side();
        let (mut played, undo) = self
            .try_line(line, SealCheck::Trial)
            .map_err(ComposeError::Line)?;
        let sealed = self.seal_tried(&mut played, signer, (kind, number), due, undo.digest);
        match sealed {
            Ok(()) => {
                self.keep_tried(undo);
                Ok(played)
            }
            Err(e) => {
                self.drop_tried(undo);
                Err(e)
            }
        }
    }

    /// The line `played` just tried, as the line `(kind, number)` of the
    /// record whose digest was `digest` before it: rendered and read back,
    /// signed by `signer`, and the record digest moved on over its bytes.
    /// `due` is the side due before it (the line's own side when its text
    /// names none of the header).
    fn seal_tried(
        &mut self,
        played: &mut PlayedTurn<G>,
        signer: Option<(Side, &Wallet)>,
        (kind, number): (LineKind, u32),
        due: Result<Side, ComposeError>,
        digest: Hash,
    ) -> Result<(), ComposeError> {
        let source = Source::typed(&played.line());
        let (turns, _) = record::parse_lines(&source).map_err(|e| {
            ComposeError::Closed(
                ErrorKind::Parse,
                format!("herald cannot read back the line it wrote: {}", e.message),
            )
        })?;
        let written = Line::from_turn(&turns[0]);
        let claimant = match (written.ending, signer) {
            (Ending::Forfeit, Some((signer, _))) => Some(signer),
            _ => None,
        };
        // The line's own side (under protocol 3 a side beginning the
        // set-up is not the one due before it).
        let side = match self.header.side_named::<G>(written.side) {
            Some(side) => side,
            None => due?,
        };
        // The bytes and message a reader makes of the line, as the next
        // line of the record before this one.
        let bytes = Self::sealed_bytes_as(&written, side, claimant, (kind, number));
        let sig = signer.map(|(_, wallet)| wallet.sign(&self.seal_message_after(&bytes, &digest)));
        if self.keep.digest {
            self.digest = fairness::record_step(&digest, &bytes, sig.as_ref());
        }
        played.sig = sig;
        Ok(())
    }

    /// Draft `line` ([`SealCheck::Draft`]) on the game itself to learn
    /// what it owes: `learn` reads the game as the line leaves it, and the
    /// line is dropped. `None` when the line cannot be played.
    fn draft<R>(&mut self, line: &Line<'_>, learn: impl FnOnce(&Self) -> R) -> Option<R> {
        let (_, undo) = self.try_line(line, SealCheck::Draft).ok()?;
        let learned = learn(self);
        self.drop_tried(undo);
        Some(learned)
    }

    /// Draft `line` ([`Referee::draft`]), for whether it plays and where
    /// it is refused.
    fn draft_played(&mut self, line: &Line<'_>) -> Result<PlayedTurn<G>, LineError> {
        let (played, undo) = self.try_line(line, SealCheck::Draft)?;
        self.drop_tried(undo);
        Ok(played)
    }

    /// In the game a draft of side `seat`'s line left: the shares the
    /// side's hand owes from here, none when the game is over or the hand
    /// left it (its shares are made from its published secret from now
    /// on).
    fn owed_after(&self, seat: Seat) -> Vec<u32> {
        let hand = self.deck_index(seat);
        match self.table.deck() {
            Some(deck) if !self.board_outcome().is_over() && self.hand_in(&self.state, hand) => {
                deck.owed_on_turn(hand, &self.round(&self.state))
            }
            _ => Vec::new(),
        }
    }

    /// In the game a draft of side `seat`'s line left: whether the line
    /// took the last side of its hand out of a game that goes on, so that
    /// it carries the hand's leaving items.
    fn hand_left(&self, seat: Seat) -> bool {
        !G::outcome(&self.state).is_over() && !self.hand_in(&self.state, self.deck_index(seat))
    }

    /// The wallet of `side`, needed for its hidden values.
    fn hidden_wallet<'w>(
        &self,
        side: Side,
        wallet: Option<&'w Wallet>,
    ) -> Result<&'w Wallet, ComposeError> {
        let name = side.name::<G>();
        wallet.ok_or_else(|| {
            ComposeError::Keys(format!(
                "{name}'s hidden values are in {name}'s key file: add --key with it"
            ))
        })
    }

    /// The value the player chose for `slot`, kept in `wallet`.
    fn chosen<'w>(slot: &str, wallet: &'w Wallet) -> Result<&'w str, ComposeError> {
        wallet.chosen(slot).ok_or_else(|| {
            ComposeError::Keys(format!(
                "{}'s key file holds no value for {slot}: choose the hidden values first",
                wallet.side()
            ))
        })
    }

    /// The opening of `slot` from `wallet`.
    fn opening<'w>(
        &self,
        slot: &'static str,
        wallet: &'w Wallet,
    ) -> Result<ProofKind<'w>, ComposeError> {
        let value = Self::chosen(slot, wallet)?;
        Ok(ProofKind::Open {
            slot,
            value,
            salt: wallet.salt(slot),
        })
    }

    /// The commitments (or openings) of `side`'s set-up step.
    fn setup_proofs<'w>(
        &self,
        side: Side,
        wallet: &'w Wallet,
    ) -> Result<Vec<ProofKind<'w>>, ComposeError> {
        let step = self.setup_due();
        let commits = match step {
            Some(SetupStep::Commit | SetupStep::CommitOpen) => G::hidden_slots(&self.state, side),
            _ => &[],
        };
        let commits = commits.iter().map(|&slot| {
            let value = Self::chosen(slot, wallet)?;
            let salt = wallet.salt(slot);
            G::check_hidden(slot, value).map_err(|e| ComposeError::Keys(format!("{slot}: {e}")))?;
            let digest = fairness::slot_commitment(
                self.header.game_id(),
                side.name::<G>(),
                slot,
                &salt,
                value,
            );
            Ok(ProofKind::Commit { slot, digest })
        });
        let opens = match step {
            Some(SetupStep::Commit | SetupStep::Shares) => &[],
            _ => G::opened_after_setup(&self.state, side),
        };
        commits
            .chain(opens.iter().map(|&slot| self.opening(slot, wallet)))
            .collect()
    }

    /// The openings of every value `side` still holds, for its audit.
    fn closing_proofs<'w>(&self, side: Side, wallet: &'w Wallet) -> Vec<ProofKind<'w>> {
        self.opened(side)
            .into_iter()
            .filter(|(_, v)| v.is_none())
            .filter_map(|(slot, _)| self.opening(slot, wallet).ok())
            .collect()
    }

    /// The openings the rules demand of `side` on `line`: those standing
    /// when its turn begins, and those its own actions make (found by
    /// trying the actions on a copy; a line that fails is refused by the
    /// referee when played, with the reason).
    fn demanded_proofs<'w>(
        &self,
        line: &Line<'_>,
        reveal: Option<Hash>,
        side: Side,
        wallet: &'w Wallet,
    ) -> Result<Vec<ProofKind<'w>>, ComposeError> {
        if self.farewell_due().is_some() {
            // A farewell line plays nothing: the rules demand nothing of it.
            return Ok(Vec::new());
        }
        let Ok((mut state, _)) = self.start_turn(reveal) else {
            return Ok(Vec::new());
        };
        let mut proofs = Vec::new();
        self.answer_demands(&mut state, side, wallet, &mut proofs)?;
        for (_, text) in line.actions() {
            let Ok(action) = G::parse_action(&state, text) else {
                break;
            };
            if G::apply(&mut state, action).is_err() {
                break;
            }
        }
        self.answer_demands(&mut state, side, wallet, &mut proofs)?;
        Ok(proofs)
    }

    /// Open from `wallet` what the rules demand of `side` in `state` now,
    /// adding the openings to `proofs`; the engine learns each value, as
    /// it will when the line is played.
    fn answer_demands<'w>(
        &self,
        state: &mut G::State,
        side: Side,
        wallet: &'w Wallet,
        proofs: &mut Vec<ProofKind<'w>>,
    ) -> Result<(), ComposeError> {
        for demand in G::demands(state).into_iter().filter(|d| d.side == side) {
            let proof = self.opening(demand.slot, wallet)?;
            if let ProofKind::Open { slot, value, .. } = proof {
                let _ = G::open(state, side, slot, value);
            }
            proofs.push(proof);
        }
        Ok(())
    }

    /// The turn ahead for the side to move: with that side's key file
    /// (`keys`), the position its actions start from (pending chance
    /// settled, turn-start chance drawn), its hand shown as `keys` says
    /// ([`HandKey`]); without, as far as anyone can know it.
    pub fn preview_for(&self, keys: Keys<'_>) -> Result<Preview<G>, ComposeError> {
        self.preview_of(keys.own_file(), |side, w| {
            self.hand_shown_by(side, w, keys.hand())
        })
    }

    /// The preview, the side's hand shown with the key file `cards`
    /// picks for the side and its own key file.
    fn preview_of<'w>(
        &self,
        wallet: Option<&'w Wallet>,
        cards: impl Fn(Side, &'w Wallet) -> Result<&'w Wallet, ComposeError>,
    ) -> Result<Preview<G>, ComposeError> {
        if let Some(stripped) = wallet.and_then(|w| self.stripped_for(w)) {
            return Err(stripped);
        }
        let Some(side) = self.to_move() else {
            return Ok(self.preview_over());
        };
        if let Some(unknown) = self.preview_not_a_turn() {
            return Ok(unknown);
        }
        let Some(wallet) = wallet else {
            return Ok(self.preview_without_key(side));
        };
        let reveal = self.wallet_reveal(side, wallet)?;
        Ok(match self.start_turn(Some(reveal)) {
            Ok((state, events)) if line_only_passes::<G>(&state, side) => Preview::OnlyPass(
                format!(
                    "{} settles with this turn's reveal and {}: {} may only pass",
                    events.first().map_or("the pending event", |e| e.label),
                    if G::outcome(&state).is_over() {
                        format!("ends the game ({})", G::summary(&state))
                    } else {
                        format!("puts {} out", side.name::<G>())
                    },
                    side.name::<G>()
                )
                .into(),
            ),
            Ok((mut state, chance)) => {
                self.answer_demands(&mut state, side, wallet, &mut Vec::new())?;
                let cards = cards(side, wallet)?;
                self.hand_into(&mut state, side, cards, super::cards::Draw::Turn)?;
                if G::outcome(&state).is_over() {
                    return Ok(Preview::OnlyPass(format!(
                        "the openings due at the start of this line end the game ({}): {} may only pass",
                        G::summary(&state),
                        side.name::<G>()
                    )
                    .into()));
                }
                Preview::actions(Self::seen_by(&state, side, wallet), chance, None)
            }
            Err(e) => Preview::Unknown(e.reason.into()),
        })
    }

    /// The preview once no side is to move: the game is over (a claim
    /// that ended it waits for its target's answer: the result stands
    /// only if none comes).
    fn preview_over(&self) -> Preview<G> {
        if let Some(due) = self.claim_answer_due() {
            return Preview::Unknown(
                format!(
                    "the result is provisional: {}, unless {}'s own next line voids the claim",
                    self.over_summary(),
                    due.side.name::<G>()
                )
                .into(),
            );
        }
        Preview::Unknown(format!("the game is over: {}", self.over_summary()).into())
    }

    /// The preview when the step due is no turn of the side to move: a
    /// set-up step, the audit, a farewell line (a pass only). `None` when
    /// a turn is due.
    fn preview_not_a_turn(&self) -> Option<Preview<G>> {
        if let Some(note) = self.setup_note() {
            return Some(Preview::Unknown(note));
        }
        if self.phase() == Phase::Audit {
            let text = self.step_due().map_or_else(Said::default, |d| d.text);
            return Some(Preview::Unknown(text.after(&format!(
                "the game is over on the board ({}), provisional until the audit: ",
                self.board_words()
            ))));
        }
        self.farewell_note()
            .map(|note| Preview::OnlyPass(note.into()))
    }

    /// The turn of `side` as anyone sees it, without its key file: its
    /// hidden cards or the chance its reveal settles say what the key
    /// would list; else the actions from the record's position.
    fn preview_without_key(&self, side: Side) -> Preview<G> {
        if self.table.has_deck() {
            let name = side.name::<G>();
            return Preview::Unknown(
                format!(
                    "{name}'s cards are hidden: give --key with {name}'s key file to list its actions"
                )
                .into(),
            );
        }
        let note = self.pending().map(|p| {
            Said::from(format!(
                "{} by {} settles with this turn's reveal, before the actions: give --key with {}'s key to list them",
                p.label, p.side, p.settled_by
            ))
        });
        match self.preview() {
            Ok(state) => Preview::actions(state, Vec::new(), note),
            Err(e) => Preview::Unknown(note.unwrap_or_else(|| e.reason.into())),
        }
    }

    /// The rest of the turn after its first actions: `line`'s actions
    /// (a partial turn of the side to move, as the player typed it) made
    /// in `state`, a position [`Referee::preview_for`] gave. Returns the
    /// position reached and the actions made; an action that cannot be
    /// read, or is illegal there, is refused as the line itself would be.
    pub fn preview_after(
        &self,
        state: &G::State,
        line: &Line<'_>,
    ) -> Result<AfterActions<G>, LineError> {
        let side = self.to_move().map_or("", |s| s.name::<G>());
        let at = super::At {
            line: LineKind::Turn,
            turn: self.next_turn(),
            side,
        };
        if line.ending != Ending::Actions {
            return Err(at.illegal(
                super::Place::End,
                None,
                "actions only: the rest of a turn is listed after actions, not after pass or \
                 resign"
                    .into(),
            ));
        }
        let mut state = state.clone();
        let mut actions = Vec::new();
        Self::play_actions(line, &mut state, None, at, &mut actions)?;
        let mut ended = state.clone();
        let can_end = G::end_turn(&mut ended).map_err(|e| e.reason);
        Ok(AfterActions {
            state,
            actions,
            can_end,
        })
    }

    /// `state` as `side` sees it, knowing the hidden values in its wallet.
    fn seen_by(state: &G::State, side: Side, wallet: &Wallet) -> G::State {
        let values: Vec<(&str, &str)> = wallet.choices().collect();
        G::view(state, side, &values)
    }

    /// The position now as the holder of `keys`' own key file sees it
    /// (its own hidden values known, its hand shown as `keys` says,
    /// [`HandKey`]), after checking that the key file is one of this
    /// game's.
    pub fn view(&self, keys: Keys<'_>) -> Result<G::State, ComposeError> {
        let wallet = keys.own_file().ok_or_else(|| {
            ComposeError::Keys("a side's view needs its key file: add --key with it".into())
        })?;
        self.view_of(wallet, |side| self.hand_shown_by(side, wallet, keys.hand()))
    }

    /// The side `wallet` is a key file of, if it is one of this game's
    /// (its game and side; not yet whether it was made for this very
    /// game, which its chain says).
    pub fn wallet_side(&self, wallet: &Wallet) -> Result<Side, ComposeError> {
        self.header
            .side_named::<G>(wallet.side())
            .filter(|_| wallet.game().eq_ignore_ascii_case(G::ID))
            .ok_or_else(|| {
                ComposeError::Wallet(format!(
                    "is a key for {} in {}, not for a side of this {} game",
                    wallet.side(),
                    wallet.game(),
                    G::ID
                ))
            })
    }

    /// The side `wallet` is the key file of in this very game: its game
    /// and side, as [`Referee::wallet_side`] says, and its chain, this
    /// record's. A key file that played here and reads another chain was
    /// given a copy whose header changed (its tags stripped or swapped),
    /// and is told so, never that it is a key of another game.
    pub fn key_file_side(&self, wallet: &Wallet) -> Result<Side, ComposeError> {
        let side = self.wallet_side(wallet)?;
        if wallet.chain() == self.header.chain_id() {
            return Ok(side);
        }
        Err(match wallet.sent() {
            Some(sent) => ComposeError::Closed(
                ErrorKind::Record,
                header_changed(
                    side.name::<G>(),
                    &format!("the key file's {} is in that game", sent.name()),
                ),
            ),
            None => ComposeError::Wallet(
                "was made for another game than this record (or the header changed since): a key serves one game only".into(),
            ),
        })
    }

    /// The view of `wallet`'s side, its hand shown with the key file
    /// `cards` picks for the side.
    fn view_of<'w>(
        &self,
        wallet: &'w Wallet,
        cards: impl Fn(Side) -> Result<&'w Wallet, ComposeError>,
    ) -> Result<G::State, ComposeError> {
        let side = self.wallet_side(wallet)?;
        if let Some(stripped) = self.stripped_for(wallet) {
            return Err(stripped);
        }
        if wallet.chain() != self.header.chain_id()
            || self.header.commit(side) != Some(*wallet.commit())
        {
            return Err(ComposeError::Wallet(
                "was made for another game (or the header changed since): a key serves one game only"
                    .into(),
            ));
        }
        let cards = cards(side)?;
        let mut state = Self::seen_by(&self.state, side, wallet);
        self.hand_into(&mut state, side, cards, super::cards::Draw::Held)?;
        Ok(state)
    }
}

/// `line` with the deck's `items` among its proofs, in their order.
fn with_items<'b>(line: &Line<'b>, items: &'b super::cards::DeckItems) -> Line<'b> {
    Line {
        proofs: items.arrange(&line.proofs),
        ..line.clone()
    }
}

/// Why a record is not the game a key file that played `name` knows
/// (`why`: what shows it): its header's tags were changed or removed.
fn header_changed(name: &str, why: &str) -> String {
    format!(
        "this key file has played {name} in a game whose header this record does not have ({why}): its tags were changed or removed in this copy (a record stripped of its keys and signatures is not the game you are playing): ask for the record as it was sent"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fairness::Protocol;
    use crate::games::castle_danger::CastleDanger;

    type G = CastleDanger;

    /// Blue has a Commit tag, Red none (protocol 1, the fixture
    /// `game-one-side-committed.pbem` before its lines), then `lines`.
    fn uneven(lines: &str) -> Source {
        let text = format!(
            "[Game \"castle-danger\"]\n[Blue \"ann@example.org\"]\n[Red \"bob@example.org\"]\n[BlueCommit \"a158cbac327301938a246ae6e7704962f4bbb483bb598bfb4bebe7db82cb8346\"]\n[Result \"*\"]\n\n{lines}"
        );
        Source::new(text.as_bytes()).expect("a record")
    }

    const WHY: &str = "turn 1 cannot be written yet: Blue has a BlueCommit tag and Red has none: Commit and Key tags are added before the first line and never after, so Red's lines could never carry a reveal or a signature (and chance needs them); add Red's with herald keygen --side Red, or pass --no-commit to play so";

    #[test]
    fn an_uneven_first_line_is_refused_before_the_line_only_for_another_sides_missing_key() {
        let source = uneven("");
        let record = record::parse(&source).expect("parsed");
        let referee = Referee::<G>::start(&record).expect("a header");
        let red = Wallet::for_protocol(
            G::ID,
            "Red",
            *referee.header().chain_id(),
            [7; 32],
            Protocol::One,
        );
        let asked = FirstLineAsked {
            from_message: false,
            no_commit: false,
            typed: true,
            key_file: None,
        };
        let refused = |asked: &FirstLineAsked<'_>| referee.uneven_first_line(asked);
        // No key file: said once the line is composed (its own mistakes
        // first).
        let after = refused(&asked).expect("refused");
        assert_eq!(
            after.refusal,
            ComposeError::Closed(ErrorKind::Illegal, WHY.into())
        );
        assert_eq!(after.due, RefusalDue::AfterTheLine);
        // Red's key file, Red's tags missing from this copy: said first.
        let with_red = FirstLineAsked {
            key_file: Some(&red),
            ..asked
        };
        let mut before = refused(&with_red);
        assert_eq!(
            before.as_ref().map(|u| u.due),
            Some(RefusalDue::BeforeTheLine)
        );
        assert!(UnevenFirstLine::refuse_at(&mut before, RefusalDue::BeforeTheLine).is_err());
        assert!(before.is_none(), "said once");
        // A forfeit claimed names its own key due first.
        let claim = refused(&FirstLineAsked {
            typed: false,
            ..with_red
        });
        let mut claim = claim;
        assert!(UnevenFirstLine::refuse_at(&mut claim, RefusalDue::BeforeTheLine).is_ok());
        assert!(UnevenFirstLine::refuse_at(&mut claim, RefusalDue::AfterTheLine).is_err());
        // From a message, the other message is named.
        let from_message = refused(&FirstLineAsked {
            from_message: true,
            ..asked
        })
        .expect("refused");
        let ComposeError::Closed(_, why) = from_message.refusal else {
            panic!("not a closed game: {:?}", from_message.refusal);
        };
        assert_eq!(
            why,
            format!("{WHY} (if that key came in another message, answered at once with this one, give both messages in one mailbox file: they read as one game)")
        );
        // --no-commit lets the line go (before protocol 3).
        assert!(refused(&FirstLineAsked {
            no_commit: true,
            ..asked
        })
        .is_none());
        // Once the record has a line: nothing to refuse.
        let played = uneven("1. Blue: Kc1-b1\n    reveal e55be5ec55a1eaef86385660e3c49ab5196b9f126c54fe0ef575b571be22990d\n");
        let record = record::parse(&played).expect("parsed");
        let referee = crate::referee::replay::<G>(&record, |_, _| {}).expect("replayed");
        assert!(referee.uneven_first_line(&asked).is_none());
    }
}
