//! The shared deck of hidden hands on the lines (spec section 3.9): the
//! referee reads a line's `cardkey`, `commit shuffle-<g>`, `deck` and
//! `share` items into the game's [`DeckLedger`], draws the mover's cards
//! once every other side's share is in, opens the cards the mover plays,
//! checks that each line gives the shares it owes, and audits the
//! passes on the closing lines. The engine learns of a draw only once it
//! is verified ([`Game::receive_cards`]) and of a card only once it is
//! opened ([`Game::open_card`]).

use super::deck::{first_bad, CardSecret, DeckLedger, Hand, SeedOpening, ShareCheck, ShuffleSeed};
use super::header::Seat;
use super::line::Line;
use super::seal::SealCheck;
use super::table::Table;
use super::{At, ChanceEvent, Header, LineError, Place, PlayedTurn, Referee, RefereeError};
use crate::fairness::Hash;
use crate::game::{CardKind, Game, Outcome, Side};
use crate::record::ProofKind;

/// The deck generation a slot `shuffle-<g>` names (`g` written without
/// leading zeros), if it is one.
pub(super) fn shuffle_generation(slot: &str) -> Option<u32> {
    let digits = slot.strip_prefix("shuffle-")?;
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    canonical.then(|| digits.parse().ok()).flatten()
}

/// Whether a proof item is the deck's rather than section 3.7's.
pub(super) fn is_deck_item(proof: &ProofKind<'_>) -> bool {
    match proof {
        ProofKind::CardKey { .. }
        | ProofKind::Deck { .. }
        | ProofKind::Share { .. }
        | ProofKind::CardSecret(_) => true,
        ProofKind::Date(_) => false,
        ProofKind::Commit { slot, .. } | ProofKind::Open { slot, .. } => {
            shuffle_generation(slot).is_some()
        }
        ProofKind::Reveal(_) | ProofKind::Sign(_) => false,
    }
}

/// The deck's proof items of `line`, in the order written (their text
/// written when asked for), written over `items` (its room kept: a
/// replay's turn played keeps its list from line to line).
pub(super) fn deck_texts_into(line: &Line<'_>, items: &mut Vec<super::line::DeckItem>) {
    items.clear();
    items.extend(
        line.proofs
            .iter()
            .filter(|p| is_deck_item(p))
            .map(super::line::DeckItem::new),
    );
}

/// The seeds a closing line opens, by generation.
pub(super) fn seed_openings(line: &Line<'_>) -> Vec<(u32, SeedOpening)> {
    line.proofs
        .iter()
        .filter_map(|p| match *p {
            ProofKind::Open { slot, value, salt } => shuffle_generation(slot).map(|g| {
                let opening = SeedOpening {
                    value: value.to_owned(),
                    salt,
                };
                (g, opening)
            }),
            _ => None,
        })
        .collect()
}

/// The cards of a game with this header in its starting position
/// `state`: its shared deck, if it deals hidden hands, and the hands
/// ([`hands_of`]). Refused when the game's hand holders do not make a
/// table ([`Table::new`]).
pub(super) fn table_of<G: Game>(state: &G::State, header: &Header) -> Result<Table, RefereeError> {
    let (hands, holders) = hands_of::<G>(state, header);
    let deck = G::hidden_deck(state).map(|d| {
        let names: Vec<&str> = hands.iter().map(|&h| header.name::<G>(h)).collect();
        DeckLedger::new(*header.game_id(), d.cards, d.hand, &names)
    });
    Table::new(deck, hands, holders)
        .map_err(|e| RefereeError::record(None, format!("{}'s hands of cards: {e}", G::TITLE)))
}

/// The deck's hands of a game with this header in `state`
/// ([`Game::hand_holder`]): each hand's holder, in header order (a
/// hand's [`Hand::index`] is its place in this list), and each side's
/// hand, by [`Seat::index`].
fn hands_of<G: Game>(state: &G::State, header: &Header) -> (Vec<Seat>, Vec<Hand>) {
    let holder_of: Vec<Seat> = header
        .seated()
        .map(|(seat, side)| header.seat_of(G::hand_holder(state, side)).unwrap_or(seat))
        .collect();
    let mut hands = holder_of.clone();
    hands.sort_unstable();
    hands.dedup();
    let holders = holder_of
        .iter()
        .map(|h| Hand::at(hands.iter().position(|x| x == h).unwrap_or(0)))
        .collect();
    (hands, holders)
}

/// How the audit names the line a pass came in: `line S4` for a set-up
/// line, `turn 12` for a turn.
fn line_label(line: &Line<'_>) -> String {
    match line.kind {
        crate::record::LineKind::Setup => format!("line S{}", line.number),
        crate::record::LineKind::Turn => format!("turn {}", line.number),
    }
}

/// Cards of a pass, by position.
type PassCards = Vec<(u32, [u8; 64])>;

/// The ledger's [`super::deck::PassSource`] over a record read again:
/// the cards of each pass asked for, by its line's label and generation.
#[derive(Debug)]
pub(super) struct PassesAgain(pub(super) std::sync::Arc<dyn super::Reread>);

impl super::deck::PassSource for PassesAgain {
    fn passes(&self, wanted: &[(String, u32)]) -> Result<Vec<Option<Vec<[u8; 64]>>>, String> {
        let mut found: Vec<Option<Vec<[u8; 64]>>> = vec![None; wanted.len()];
        let mut left = wanted.len();
        self.0.reread(&mut |turn| {
            let label = match turn.kind {
                crate::record::LineKind::Setup => format!("line S{}", turn.number),
                crate::record::LineKind::Turn => format!("turn {}", turn.number),
            };
            let pass = turn.proofs.iter().find_map(|p| match p.kind {
                ProofKind::Commit { slot, .. } => shuffle_generation(slot),
                _ => None,
            });
            for (i, (line, g)) in wanted.iter().enumerate() {
                if found[i].is_none() && *line == label && pass == Some(*g) {
                    let cards = turn
                        .proofs
                        .iter()
                        .filter_map(|p| match p.kind {
                            ProofKind::Deck { card, .. } => Some(card),
                            _ => None,
                        })
                        .collect();
                    found[i] = Some(cards);
                    left -= 1;
                }
            }
            left > 0
        })?;
        Ok(found)
    }
}

/// The shares of a line whose proofs are still to verify, each with its
/// proof item's index in the line.
pub(super) type ShareChecks = Vec<(usize, ShareCheck)>;

/// A line's pass: the proof index of its commitment, the generation,
/// the commitment, and its cards.
type Pass = (usize, u32, Hash, PassCards);

/// A pass composed: its generation, slot, commitment and cards.
type ComposedPass = (u32, String, Hash, PassCards);

/// The cards a line opens from its writer's hand, each to be spent by
/// one of the line's actions (spec section 3.9, "Openings"): a card of
/// a hidden hand is opened only as it leaves the hand, by the action
/// that plays or discards it.
#[derive(Clone, Default, Debug)]
pub(super) struct Openings {
    cards: Vec<Opened>,
    /// The deck position the line opened to no card of the game, if it
    /// did: the deck is broken, and the line ends play.
    broken: Option<u32>,
    /// The line publishes its card secret: its hand leaves the game on
    /// it, every card it holds opened, played or not (checked once the
    /// line is played).
    leaving: bool,
}

/// A card opened on a line: the share's proof index, its deck position,
/// the card, and whether an action spent it yet.
#[derive(Clone, Debug)]
struct Opened {
    proof: usize,
    position: u32,
    card: u32,
    spent: bool,
}

impl Openings {
    /// An action of the line spends a card of kind `kind`
    /// ([`Game::card_spent`]): it takes the first card of that kind the
    /// line opened and no action spent yet. Without one, the mismatch:
    /// the card the line opens instead, or that it opens none.
    pub(super) fn spend<G: Game>(&mut self, kind: CardKind) -> Result<(), String> {
        if let Some(o) = self
            .cards
            .iter_mut()
            .find(|o| !o.spent && G::card_kind(o.card) == kind)
        {
            o.spent = true;
            return Ok(());
        }
        let name = G::kind_text(kind);
        Err(match self.cards.iter().find(|o| !o.spent) {
            Some(o) => {
                let found = G::card_text(o.card);
                format!(
                    "the line plays {name} but opens {found}: deck position {} holds {found}, \
                     not {name}",
                    o.position
                )
            }
            None => format!(
                "the line plays {name} but opens no card for it: a card of a hidden hand is \
                 played with the share that opens it (herald move --key adds it)"
            ),
        })
    }

    /// The deck position the line opened to no card of the game, if it
    /// did.
    pub(super) fn broken(&self) -> Option<u32> {
        self.broken
    }

    /// The first card opened that no action spent: its share's proof
    /// index and the refusal.
    pub(super) fn unspent<G: Game>(&self) -> Option<(usize, String)> {
        if self.leaving {
            return None;
        }
        let o = self.cards.iter().find(|o| !o.spent)?;
        Some((
            o.proof,
            format!(
                "the line opens {} (deck position {}) but no action plays or discards it: a \
                 card of a hidden hand is opened only as it leaves the hand",
                G::card_text(o.card),
                o.position
            ),
        ))
    }
}

impl<G: Game> Referee<G> {
    /// The deck's hand that header side `seat` draws into and plays from
    /// (its own, unless it shares its holder's).
    pub(super) fn deck_index(&self, seat: Seat) -> Hand {
        self.table.hand_of(seat)
    }

    /// The hand side `seat` holds, if it is a hand's holder.
    pub(super) fn holds_hand(&self, seat: Seat) -> Option<Hand> {
        self.table.holds_hand(seat)
    }

    /// The name of the holder of the hand side `seat` plays from: the
    /// name its hand's secrets are derived under.
    pub(super) fn hand_name(&self, seat: Seat) -> &'static str {
        self.header.name::<G>(self.table.holder_of(seat))
    }

    /// The side whose hand `side` plays from, when it is another side's
    /// (an ally's, in Battlegates' four castles): that side's key file is
    /// `side`'s hand key (`--hand-key`). `None` when `side` holds its own
    /// hand, or the game deals no hidden hands.
    pub fn hand_holder_of(&self, side: Side) -> Option<Side> {
        if !self.table.has_deck() {
            return None;
        }
        let seat = self.header.seat_of(side)?;
        if self.holds_hand(seat).is_some() {
            return None;
        }
        Some(self.header.side(self.table.holder_of(seat)))
    }

    /// The `--hand-key` file of `side`'s commands (`Command::hand_key`):
    /// `castle1.key` (the holder's key file, named after it) when `side`
    /// plays from another side's hand, else none.
    pub fn hand_key_file(&self, side: Side) -> Option<String> {
        self.hand_holder_of(side)
            .map(|holder| format!("{}.key", holder.name::<G>().to_ascii_lowercase()))
    }

    /// The deck this game deals hidden hands from, if any.
    pub fn deck(&self) -> Option<&DeckLedger> {
        self.table.deck()
    }

    /// The pass `line` carries, if any; deck items without the
    /// commitment of their pass are an error.
    fn line_pass(line: &Line<'_>, at: At<'_>) -> Result<Option<Pass>, LineError> {
        let mut pass: Option<Pass> = None;
        let mut first_card = None;
        let mut cards = Vec::new();
        for (k, proof) in line.proofs.iter().enumerate() {
            match *proof {
                ProofKind::Commit { slot, digest } => {
                    let Some(g) = shuffle_generation(slot) else {
                        continue;
                    };
                    if pass.is_some() {
                        return Err(at.record(
                            Place::Proof(k),
                            format!("commit {slot}: a line makes one pass"),
                        ));
                    }
                    pass = Some((k, g, digest, Vec::new()));
                }
                ProofKind::Deck { position, card } => {
                    first_card.get_or_insert(k);
                    cards.push((position, card));
                }
                _ => {}
            }
        }
        match (pass, first_card) {
            (Some((k, g, digest, _)), _) => Ok(Some((k, g, digest, cards))),
            (None, Some(k)) => Err(at.record(
                Place::Proof(k),
                "deck items stand on a pass line, after the commitment to the pass's seed \
                 (commit shuffle-<g>)"
                    .into(),
            )),
            (None, None) => Ok(None),
        }
    }

    /// Give the deck the items of `line`, written by side `seat` for
    /// its hand: its card key, its pass (which must be there when one is
    /// due from it), then its shares, whatever order they are written in.
    /// The shares' proofs are verified in one batch, the first that fails
    /// named; or, when checks are deferred, left in `checks` (by proof
    /// item) for a batch at the end of the replay.
    pub(super) fn give_deck_items(
        &self,
        line: &Line<'_>,
        seat: Seat,
        deck: &mut DeckLedger,
        at: At<'_>,
        checks: &mut ShareChecks,
    ) -> Result<(), LineError> {
        let hand = self.deck_index(seat);
        for (k, proof) in line.proofs.iter().enumerate() {
            match *proof {
                ProofKind::CardKey { key, proof } => deck
                    .give_key(hand, &key, proof)
                    .map_err(|e| at.record(Place::Proof(k), e))?,
                ProofKind::CardSecret(_) if line.kind == crate::record::LineKind::Setup => {
                    return Err(at.record(
                        Place::Proof(k),
                        format!(
                            "cardsecret: {} publishes its card secret only when it leaves a game \
                             that goes on drawing without it",
                            at.side
                        ),
                    ))
                }
                _ => {}
            }
        }
        let due = deck.pass_due(hand);
        match Self::line_pass(line, at)? {
            Some((k, g, digest, cards)) => deck
                .give_pass(hand, g, digest, &cards, &line_label(line))
                .map_err(|e| at.record(Place::Proof(k), e))?,
            None => {
                if let Some(g) = due {
                    return Err(at.record(
                        Place::Line,
                        format!(
                            "{} passes over deck {g} on this line: its commit shuffle-{g} and \
                             deck items are missing (herald move --key adds them)",
                            at.side
                        ),
                    ));
                }
            }
        }
        for (k, proof) in line.proofs.iter().enumerate() {
            if let ProofKind::Share {
                position,
                share,
                proof,
            } = *proof
            {
                match deck.give_share_unverified(hand, position, &share, proof) {
                    Ok(check) => checks.push((k, check)),
                    Err(e) => {
                        // A bad share before it is the line's first problem.
                        self.verify_line_shares(checks, at)?;
                        return Err(at.record(Place::Proof(k), e));
                    }
                }
            }
        }
        self.verify_line_shares(checks, at)
    }

    /// Verify the proofs of the line's shares in `checks` in one batch,
    /// naming the first that fails, unless checks are deferred to the
    /// end of the replay.
    fn verify_line_shares(&self, checks: &mut ShareChecks, at: At<'_>) -> Result<(), LineError> {
        if self.deferred.is_some() || checks.is_empty() {
            return Ok(());
        }
        let (items, line): (Vec<usize>, Vec<ShareCheck>) = checks.drain(..).unzip();
        match first_bad(self.header.game_id(), &line) {
            None => Ok(()),
            Some(bad) => Err(at.record(Place::Proof(items[bad]), line[bad].error().to_string())),
        }
    }

    /// The deck items of a set-up line of side `seat`: its card key on
    /// its first, its pass over the first deck when due, and its shares.
    /// Once the set-up is complete (`playing`: the turn order of
    /// `state`), the line must have given every share owed before its
    /// writer's first turn.
    pub(super) fn deck_setup_line(
        &self,
        line: &Line<'_>,
        seat: Seat,
        deck: &mut DeckLedger,
        at: At<'_>,
        checks: &mut ShareChecks,
    ) -> Result<(), LineError> {
        self.give_deck_items(line, seat, deck, at, checks)?;
        let missing = self.holds_hand(seat).filter(|&hand| !deck.has_key(hand));
        if missing.is_some() {
            return Err(at.record(
                Place::Line,
                format!(
                    "{} gives its card key on its first set-up line (herald setup --key adds it)",
                    at.side
                ),
            ));
        }
        Ok(())
    }

    /// Play begins in `state`: the deck learns the turn order, and the
    /// line just played by side `seat` must have given the shares it
    /// owes before its first turn.
    pub(super) fn deck_begin_play(
        &self,
        state: &G::State,
        seat: Seat,
        deck: &mut DeckLedger,
        at: At<'_>,
        check: SealCheck,
    ) -> Result<(), LineError> {
        if deck.order().is_empty() {
            deck.begin_play(&self.hand_order(self.mover_seat(state)));
        }
        if check.draft() {
            // Composing: the shares owed are worked out from this draft.
            return Ok(());
        }
        Self::check_owed(deck.owed_before_play(self.deck_index(seat)), at)
    }

    /// The hands in the turn order of their sides from side `first`,
    /// each once: the deck's turn order.
    fn hand_order(&self, first: Seat) -> Vec<Hand> {
        let mut order: Vec<Hand> = Vec::new();
        for seat in self.header.seats_from(first) {
            let hand = self.deck_index(seat);
            if !order.contains(&hand) {
                order.push(hand);
            }
        }
        order
    }

    /// During the set-up, the shares `hand` owes before its first turn
    /// as play will begin, when the game knows who moves first before
    /// the set-up ends ([`Game::first_mover_before_play`]); `None` when
    /// it does not, or the deck has no table yet. A set-up line of the
    /// hand written once the deck is final carries them (spec section
    /// 3.9, the schedule's rule 3), so that no line of shares is due
    /// after the set-up.
    pub(super) fn owed_before_known_play(&self, hand: Hand) -> Option<Vec<u32>> {
        let deck = self.table.deck()?;
        if !deck.order().is_empty() {
            return Some(deck.owed_before_play(hand));
        }
        let first = self
            .header
            .seat_of(G::first_mover_before_play(&self.state)?)?;
        let mut planned = deck.clone();
        planned.begin_play(&self.hand_order(first));
        Some(planned.owed_before_play(hand))
    }

    /// A line that leaves out a share it owes.
    pub(super) fn check_owed(owed: Vec<u32>, at: At<'_>) -> Result<(), LineError> {
        match owed.first() {
            Some(p) => Err(at.record(
                Place::Line,
                format!(
                    "{} shares every card the others draw before its next line: its share of \
                     deck position {p} is missing (herald move --key adds it)",
                    at.side
                ),
            )),
            None => Ok(()),
        }
    }

    /// The side whose shares line is due once the set-up proper is over
    /// (spec section 3.9, the schedule's rule 3): in turn order, the
    /// first that owes shares of the draws before its first turn.
    pub(super) fn deck_shares_due(&self) -> Option<Seat> {
        let deck = self.table.deck()?;
        if self.turns > 0 || self.hidden.setup_due().is_some() {
            return None;
        }
        let hand = deck
            .order()
            .iter()
            .copied()
            .find(|&s| !deck.owed_before_play(s).is_empty())?;
        self.table.holder(hand)
    }

    /// The start of the turn of side `seat` in `state`: a reshuffle if
    /// one is due, the side's draw (every other side's share in), its
    /// pass and shares, and the cards it opens to play, told to the
    /// engine. Returns those cards, for the actions to spend.
    pub(super) fn deck_turn(
        &self,
        line: &Line<'_>,
        seat: Seat,
        state: &mut G::State,
        deck: &mut DeckLedger,
        at: At<'_>,
        checks: &mut ShareChecks,
    ) -> Result<Openings, LineError> {
        let side = self.header.side(seat);
        let hand = self.deck_index(seat);
        if deck.reshuffle_if_due(hand).is_some() {
            G::cards_reshuffled(state);
        }
        let drawn = deck
            .draw(hand)
            .map_err(|e| at.illegal(Place::Line, None, e))?;
        G::receive_cards(state, side, &vec![None; drawn.len()])
            .map_err(|e| at.illegal(Place::Line, None, e.reason))?;
        self.give_deck_items(line, seat, deck, at, checks)?;
        self.open_played(line, side, hand, state, deck, at)
    }

    /// Open the card at deck position `position` of hand `hand`, whose
    /// opening share is the line's proof `k`, and tell the engine that
    /// `side` opened it: the card, or `None` when the position holds no
    /// card of the game (the deck is broken).
    pub(super) fn open_share(
        k: usize,
        position: u32,
        hand: Hand,
        side: Side,
        state: &mut G::State,
        deck: &mut DeckLedger,
        at: At<'_>,
    ) -> Result<Option<u32>, LineError> {
        let card = deck
            .open(hand, position)
            .map_err(|e| at.illegal(Place::Proof(k), None, e))?;
        if let Some(card) = card {
            Self::tell_opened(k, position, side, card, state, at)?;
        }
        Ok(card)
    }

    /// Tell the engine that `side` opened card `card` at deck position
    /// `position`, by the line's proof `k`.
    fn tell_opened(
        k: usize,
        position: u32,
        side: Side,
        card: u32,
        state: &mut G::State,
        at: At<'_>,
    ) -> Result<(), LineError> {
        G::open_card(state, side, card).map_err(|e| {
            at.illegal(
                Place::Proof(k),
                None,
                format!("deck position {position}: {e}"),
            )
        })
    }

    /// On a line a record digest the reader checked before vouches for
    /// (`move --key`, `legal --key` up to the digest the key file
    /// remembers), the cards the line opens from hand `hand`, taken
    /// from its actions rather than decrypted: the line was checked then,
    /// each card it opened spent by an action that names the card's kind
    /// ([`Game::card_spent`]), so its actions name the kinds of the cards
    /// it opens. Each opening share's proof index and position, with a
    /// card of the kind (the engine is told the kind; which physical card
    /// it is stays sealed in the discard pile until a reshuffled deck
    /// needs it, [`DeckLedger::open_vouched`]). Kinds are matched to
    /// openings in order: the engine is told every card before any
    /// action, as when they are decrypted, and the actions spend them as
    /// then.
    ///
    /// `None`, for the cards to be decrypted, unless every opening share
    /// and its deck are vouched for, the line does not leave the game
    /// (a leaving line opens cards no action spends), and its actions,
    /// read in the position before them, spend exactly as many cards as
    /// it opens. Read on a record that is not the one checked (its digest
    /// never reaches the remembered one), a kind may be wrong: an action
    /// then finds no card of its kind to spend, or the engine no such
    /// card unseen, and the replay falls back to every check
    /// ([`super::replay_from_checked`] stops at the first problem).
    fn vouched_openings(
        line: &Line<'_>,
        hand: Hand,
        state: &G::State,
        deck: &DeckLedger,
        leaving: bool,
    ) -> Option<Vec<(usize, u32, u32)>> {
        if leaving {
            return None;
        }
        let mut opens = Vec::new();
        for (k, proof) in line.proofs.iter().enumerate() {
            let ProofKind::Share { position, .. } = *proof else {
                continue;
            };
            if deck.drawer(position) != Some(hand) {
                continue;
            }
            if !deck.opens_vouched(hand, position) {
                return None;
            }
            opens.push((k, position));
        }
        if opens.is_empty() {
            return None;
        }
        let cards = deck.table()?.cards();
        let mut kinds = Vec::with_capacity(opens.len());
        for (_, text) in line.actions() {
            let action = G::parse_action(state, text).ok()?;
            if let Some(kind) = G::card_spent(state, &action) {
                kinds.push((0..cards).find(|&c| G::card_kind(c) == kind)?);
            }
        }
        (kinds.len() == opens.len()).then(|| {
            opens
                .into_iter()
                .zip(kinds)
                .map(|((k, position), card)| (k, position, card))
                .collect()
        })
    }

    /// Open the cards of `side`'s hand (the deck's hand `hand`) that its
    /// line shares (to play or discard them), and tell the engine.
    fn open_played(
        &self,
        line: &Line<'_>,
        side: Side,
        hand: Hand,
        state: &mut G::State,
        deck: &mut DeckLedger,
        at: At<'_>,
    ) -> Result<Openings, LineError> {
        let mut opened = Openings {
            leaving: line
                .proofs
                .iter()
                .any(|p| matches!(p, ProofKind::CardSecret(_))),
            ..Openings::default()
        };
        if let Some(vouched) = Self::vouched_openings(line, hand, state, deck, opened.leaving) {
            for (k, position, card) in vouched {
                deck.open_vouched(hand, position)
                    .map_err(|e| at.illegal(Place::Proof(k), None, e))?;
                Self::tell_opened(k, position, side, card, state, at)?;
                opened.cards.push(Opened {
                    proof: k,
                    position,
                    card,
                    spent: false,
                });
            }
            return Ok(opened);
        }
        for (k, proof) in line.proofs.iter().enumerate() {
            let ProofKind::Share { position, .. } = *proof else {
                continue;
            };
            if deck.drawer(position) != Some(hand) {
                continue;
            }
            let Some(card) = Self::open_share(k, position, hand, side, state, deck, at)? else {
                // The deck is broken: play stops for the audit.
                opened.broken = Some(position);
                return Ok(opened);
            };
            opened.cards.push(Opened {
                proof: k,
                position,
                card,
                spent: false,
            });
        }
        Ok(opened)
    }

    /// After the actions of a turn of side `seat`: unless the game is
    /// over, its line must have shared every card the others draw before
    /// its next line.
    pub(super) fn deck_turn_end(
        &self,
        state: &G::State,
        seat: Seat,
        deck: &DeckLedger,
        at: At<'_>,
        check: SealCheck,
    ) -> Result<(), LineError> {
        if G::outcome(state).is_over() || check.draft() {
            // Composing: the shares owed are worked out from this draft.
            return Ok(());
        }
        let round = self.round(state);
        Self::check_owed(deck.owed_on_turn(self.deck_index(seat), &round), at)
    }

    /// The hands of one round of turns from the side to move in `state`,
    /// as the game has them: the sides in header order from the mover,
    /// each that takes turns ([`Game::takes_turns`]), by the hand it
    /// draws into.
    pub(super) fn round(&self, state: &G::State) -> Vec<Hand> {
        let first = self.mover_seat(state);
        self.header
            .seats_from(first)
            .filter(|&seat| seat == first || G::takes_turns(state, self.header.side(seat)))
            .map(|seat| self.deck_index(seat))
            .collect()
    }

    /// The seat of the side to move in `state` (the first seat if the
    /// engine names a side that does not play, which it never does).
    pub(super) fn mover_seat(&self, state: &G::State) -> Seat {
        self.header
            .seat_of(G::to_move(state))
            .unwrap_or(self.header.first_seat())
    }
}

impl<G: Game> Referee<G> {
    /// The deck position that opened to no card of the game and the turn
    /// that opened it, once one did: play stopped there for the audit
    /// (spec section 3.9, "Openings").
    pub fn deck_broken(&self) -> Option<(u32, u32)> {
        let (position, _) = self.table.deck()?.broken()?;
        Some((position, self.table.broken_on()?))
    }

    /// The line of side `seat` that opened deck position `position` to
    /// no card: it may carry no action (nor resign), since play stops for
    /// the audit; its facts are checked as any turn's.
    pub(super) fn broken_out(
        &self,
        line: &Line<'_>,
        state: &G::State,
        derived: Vec<ChanceEvent>,
        position: u32,
        at: At<'_>,
    ) -> Result<PlayedTurn<G>, LineError> {
        let reason = format!(
            "deck position {position}, which this line opens, holds no card of the game: the \
             deck is broken, play stops for the audit of the passes, and the line carries no \
             actions"
        );
        if let Some((k, text)) = line.actions().next() {
            return Err(at.illegal(Place::Item(k), Some(text), reason));
        }
        if line.ending == super::Ending::Resign {
            return Err(at.illegal(Place::End, Some("resign"), reason));
        }
        let mut played = PlayedTurn::blank(at.turn, G::to_move(&self.state), self.before(state));
        played.chance = derived;
        played.reveal = line.reveal().map(|(_, h)| h);
        super::check_facts(line, &played.chance, at)?;
        Ok(played)
    }

    /// Once the deck broke, the side blamed when every pass checks out at
    /// the audit: the one that opened the position, and why.
    pub(super) fn broken_blame(&self) -> Option<(Side, String)> {
        let (position, drawer) = self.table.deck()?.broken()?;
        if self.hidden.failures().next().is_some() {
            return None;
        }
        let side = self.header.side(self.table.holder(drawer)?);
        Some((
            side,
            format!(
                "{} opened deck position {position} to no card of the game, and every pass \
                 over the deck checks out",
                side.name::<G>()
            ),
        ))
    }

    /// The result of a game whose deck broke, once the audit is over:
    /// every side whose audit failed loses (the one that opened the
    /// position when none failed); the others win together (one: it
    /// wins; none: a draw).
    pub(super) fn broken_verdict(&self) -> Outcome {
        let failed: Vec<Seat> = self.hidden.failures().map(|(s, _)| s).collect();
        let opener = self
            .table
            .deck()
            .and_then(DeckLedger::broken)
            .and_then(|b| self.table.holder(b.1));
        broken_deck_outcome(&self.header, &failed, opener)
    }
}

/// The result of a game with `header` whose deck broke: the sides whose
/// audit failed (`failed`) lose, or, when none did, the holder of the
/// hand that opened the position (`opener`); the others win together
/// (one: it wins; none: a draw).
pub(super) fn broken_deck_outcome(
    header: &Header,
    failed: &[Seat],
    opener: Option<Seat>,
) -> Outcome {
    let blamed: Vec<Seat> = if failed.is_empty() {
        opener.into_iter().collect()
    } else {
        failed.to_vec()
    };
    let standing: Vec<Side> = header
        .seated()
        .filter(|(seat, _)| !blamed.contains(seat))
        .map(|(_, side)| side)
        .collect();
    match standing.as_slice() {
        [] => Outcome::Draw,
        [one] => Outcome::Won(*one),
        many => Outcome::TeamWon(crate::game::Team::of(many)),
    }
}

/// The deck items herald adds to a player's line, made from its key
/// file (spec section 3.9), kept here until the line is built.
#[derive(Clone, Default, Debug)]
pub(super) struct DeckItems {
    key: Option<([u8; 32], [u8; 64])>,
    /// The pass: its slot, its commitment, its cards by position.
    pass: Option<(String, Hash, PassCards)>,
    shares: Vec<(u32, [u8; 32], [u8; 96])>,
    /// The seeds opened at the audit, or as the hand leaves: slot,
    /// value, salt.
    seeds: Vec<(String, String, Hash)>,
    /// The hand's card secret, published as it leaves the game.
    secret: Option<[u8; 32]>,
}

impl DeckItems {
    /// `proofs` (the reveal first, then section 3.7's items) with the
    /// deck's items in the order of spec section 3.9: the card key,
    /// the commitments, the pass's cards, the shares by position, the
    /// openings, then the reveal.
    pub(super) fn arrange<'a>(&'a self, proofs: &[ProofKind<'a>]) -> Vec<ProofKind<'a>> {
        let mut out = Vec::with_capacity(proofs.len() + 40);
        if let Some((key, proof)) = self.key {
            out.push(ProofKind::CardKey { key, proof });
        }
        out.extend(
            proofs
                .iter()
                .filter(|p| matches!(p, ProofKind::Commit { .. })),
        );
        if let Some((slot, digest, cards)) = &self.pass {
            out.push(ProofKind::Commit {
                slot,
                digest: *digest,
            });
            out.extend(
                cards
                    .iter()
                    .map(|&(position, card)| ProofKind::Deck { position, card }),
            );
        }
        let mut shares = self.shares.clone();
        shares.sort_unstable_by_key(|s| s.0);
        out.extend(
            shares
                .into_iter()
                .map(|(position, share, proof)| ProofKind::Share {
                    position,
                    share,
                    proof,
                }),
        );
        out.extend(
            proofs
                .iter()
                .filter(|p| matches!(p, ProofKind::Open { .. })),
        );
        out.extend(
            self.seeds
                .iter()
                .map(|(slot, value, salt)| ProofKind::Open {
                    slot,
                    value,
                    salt: *salt,
                }),
        );
        out.extend(self.secret.map(ProofKind::CardSecret));
        out.extend(
            proofs
                .iter()
                .filter(|p| !matches!(p, ProofKind::Commit { .. } | ProofKind::Open { .. })),
        );
        out
    }
}

impl<G: Game> Referee<G> {
    /// The pass of side `seat`'s hand over deck `generation` as `deck`
    /// stands, made with the seed from `wallet` (the hand holder's).
    fn compose_pass(
        &self,
        deck: &DeckLedger,
        seat: Seat,
        wallet: &crate::wallet::Wallet,
    ) -> Option<ComposedPass> {
        let name = self.hand_name(seat);
        let (g, input) = deck.pass_input(self.deck_index(seat))?;
        let table = deck.table()?;
        let game = self.header.game_id();
        let seed = ShuffleSeed::of(wallet, game, name, g);
        let out = super::deck::shuffle(table, input, &seed);
        let slot = super::deck::shuffle_slot(g);
        let commitment = seed.commitment(game, name, g, &wallet.salt(&slot));
        let cards = out
            .cards()
            .iter()
            .enumerate()
            .map(|(j, c)| (out.base() + j as u32, c.to_bytes()))
            .collect();
        Some((g, slot, commitment, cards))
    }

    /// The shares of side `seat`'s hand of `positions` as `deck`
    /// stands, from `wallet` (the hand holder's).
    pub(super) fn compose_shares(
        &self,
        deck: &DeckLedger,
        seat: Seat,
        wallet: &crate::wallet::Wallet,
        positions: &[u32],
    ) -> Vec<(u32, [u8; 32], [u8; 96])> {
        let name = self.hand_name(seat);
        let secret = CardSecret::of(wallet, self.header.game_id(), name);
        positions
            .iter()
            .filter_map(|&p| {
                let share = secret.share(deck.deck_of(p)?, p).ok()?;
                Some((p, share.point_bytes(), share.proof_bytes()))
            })
            .collect()
    }

    /// The deck items of side `seat`'s next line from its `wallet`, as
    /// far as they can be known before the line is tried: its key, its
    /// pass, the shares it owes, the seeds it opens at the audit. (The
    /// share that opens a played card, and a last passer's shares, need
    /// the line tried: see [`Referee::compose`].)
    pub(super) fn compose_deck(
        &self,
        seat: Seat,
        wallet: &crate::wallet::Wallet,
    ) -> (DeckItems, Option<DeckLedger>) {
        let mut items = DeckItems::default();
        let Some(deck) = self.table.deck() else {
            return (items, None);
        };
        let name = self.hand_name(seat);
        let hand = self.deck_index(seat);
        match self.phase() {
            crate::game::Phase::Setup => {
                let mut keyed = None;
                if self.holds_hand(seat).is_some() && !deck.has_key(hand) {
                    let secret = CardSecret::of(wallet, self.header.game_id(), name);
                    let key = secret.public().to_bytes();
                    let proof = secret.prove().to_bytes();
                    items.key = Some((key, proof));
                    // The last key in makes the first deck: under protocol 3
                    // its giver passes over it on the same line.
                    let mut with_key = deck.clone();
                    if with_key.give_key(hand, &key, proof).is_ok() {
                        keyed = Some(with_key);
                    }
                }
                let passing = keyed.as_ref().unwrap_or(deck);
                if let Some((_, slot, digest, cards)) = self.compose_pass(passing, seat, wallet) {
                    items.pass = Some((slot, digest, cards));
                }
                if self.setup_due() == Some(super::SetupStep::Shares) {
                    let owed = deck.owed_before_play(hand);
                    items.shares = self.compose_shares(deck, seat, wallet, &owed);
                }
                (items, None)
            }
            crate::game::Phase::Audit | crate::game::Phase::Over => {
                let passed = match self.holds_hand(seat) {
                    Some(hand) => deck.passed(hand),
                    None => Vec::new(),
                };
                for g in passed {
                    let slot = super::deck::shuffle_slot(g);
                    let value = ShuffleSeed::of(wallet, self.header.game_id(), name, g).value();
                    let salt = wallet.salt(&slot);
                    items.seeds.push((slot, value, salt));
                }
                (items, None)
            }
            crate::game::Phase::Play if self.farewell_due() == Some(seat) => {
                self.farewell_items(seat, wallet, deck, &mut items);
                (items, None)
            }
            crate::game::Phase::Play => {
                let mut d = deck.clone();
                d.reshuffle_if_due(hand);
                if d.draw(hand).is_err() {
                    // The line is refused when played, with the reason.
                    return (items, Some(d));
                }
                if let Some((g, slot, digest, cards)) = self.compose_pass(&d, seat, wallet) {
                    let line = format!("turn {}", self.next_turn());
                    let _ = d.give_pass(hand, g, digest, &cards, &line);
                    items.pass = Some((slot, digest, cards));
                }
                // The turns after this one as they stand before it (a
                // line that changes them is topped up once tried: see
                // [`Referee::compose`]).
                let mut round = self.round(&self.state);
                let turns = round.len();
                round.rotate_left(1.min(turns));
                let owed = d.owed_on_turn(hand, &round);
                items.shares = self.compose_shares(&d, seat, wallet, &owed);
                (items, Some(d))
            }
        }
    }

    /// The items of the farewell line of side `seat` from `wallet` (its
    /// hand holder's), added to `items`: its hand's pass if one is due,
    /// and the shares it owes from here; or, when its hand has no side
    /// left, the hand's leaving items ([`Referee::leaving_items`]).
    fn farewell_items(
        &self,
        seat: Seat,
        wallet: &crate::wallet::Wallet,
        deck: &DeckLedger,
        items: &mut DeckItems,
    ) {
        let hand = self.deck_index(seat);
        let mut d = deck.clone();
        if let Some((g, slot, digest, cards)) = self.compose_pass(&d, seat, wallet) {
            let line = format!("turn {}", self.next_turn());
            let _ = d.give_pass(hand, g, digest, &cards, &line);
            items.pass = Some((slot, digest, cards));
        }
        if self.hand_in(&self.state, hand) {
            let owed = d.owed_on_turn(hand, &self.round(&self.state));
            items.shares = self.compose_shares(&d, seat, wallet, &owed);
        } else {
            self.leaving_items(seat, wallet, &d, items);
        }
    }

    /// The leaving items of side `seat`'s hand, from `wallet` (its
    /// holder's), added to `items`: the share that opens each card the
    /// hand holds in `deck` (not opened by `items` yet), the seed of each
    /// of its passes, its card secret.
    pub(super) fn leaving_items(
        &self,
        seat: Seat,
        wallet: &crate::wallet::Wallet,
        deck: &DeckLedger,
        items: &mut DeckItems,
    ) {
        let hand = self.deck_index(seat);
        let name = self.hand_name(seat);
        let held = items.without_shares(deck.held(hand));
        items.add_shares(self.compose_shares(deck, seat, wallet, &held));
        for g in deck.passed(hand) {
            let slot = super::deck::shuffle_slot(g);
            let value = ShuffleSeed::of(wallet, self.header.game_id(), name, g).value();
            let salt = wallet.salt(&slot);
            items.seeds.push((slot, value, salt));
        }
        let secret = CardSecret::of(wallet, self.header.game_id(), name);
        items.secret = Some(secret.revealed());
    }
}

impl<G: Game> Referee<G> {
    /// The cards `side` holds, as its key file `wallet` shows them:
    /// (deck position, card), in position order; when its turn is next,
    /// with the cards it draws at the start of that line. Only the
    /// drawer's own key opens a card in its hand.
    pub fn hand(
        &self,
        side: Side,
        wallet: &crate::wallet::Wallet,
    ) -> Result<Vec<(u32, u32)>, super::ComposeError> {
        let Some(deck) = self.table.deck() else {
            return Err(super::ComposeError::Keys(format!(
                "{} deals no hidden cards",
                G::TITLE
            )));
        };
        let seat = self.header.seat_of(side).ok_or_else(|| {
            super::ComposeError::Keys(format!("{} is not in the header", side.name::<G>()))
        })?;
        // A shared hand is shown with its holder's key file.
        let hand = self.deck_index(seat);
        let name = self.hand_name(seat);
        let holder = self.header.side(self.table.holder_of(seat));
        self.wallet_in_game(holder, wallet, &format!("the hand asked for is {name}'s"))?;
        let mut d = deck.clone();
        let mover = self.header.seat_of(G::to_move(&self.state));
        if self.phase() == crate::game::Phase::Play
            && mover.map(|m| self.deck_index(m)) == Some(hand)
        {
            d.reshuffle_if_due(hand);
            // A draw that cannot be made yet leaves the hand as it is.
            let _ = d.draw(hand);
        }
        let secret = CardSecret::of(wallet, self.header.game_id(), name);
        d.held(hand)
            .into_iter()
            .map(|p| d.peek(&secret, p).map(|c| (p, c)))
            .collect::<Result<_, _>>()
            .map_err(super::ComposeError::Keys)
    }
}

/// Which hand [`Referee::hand_into`] puts into a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Draw {
    /// The hand as it is held now.
    Held,
    /// The hand at the start of the side's line: with its draw.
    Turn,
}

impl<G: Game> Referee<G> {
    /// `state` with `side`'s hand as its key file shows it: every card
    /// it holds known to the engine and, for [`Draw::Turn`], its draw at
    /// the start of its line received, known too.
    pub(super) fn hand_into(
        &self,
        state: &mut G::State,
        side: Side,
        wallet: &crate::wallet::Wallet,
        draw: Draw,
    ) -> Result<(), super::ComposeError> {
        let Some(deck) = self.table.deck() else {
            return Ok(());
        };
        let Some(seat) = self.header.seat_of(side) else {
            return Ok(());
        };
        // A side of a shared hand without its holder's key file sees none
        // of it.
        if !wallet.side().eq_ignore_ascii_case(self.hand_name(seat)) {
            return Ok(());
        }
        let hand = self.deck_index(seat);
        let secret = CardSecret::of(wallet, self.header.game_id(), self.hand_name(seat));
        let mut d = deck.clone();
        let held = d.held(hand);
        let mut drawn = Vec::new();
        if draw == Draw::Turn && self.phase() == crate::game::Phase::Play {
            if d.reshuffle_if_due(hand).is_some() {
                G::cards_reshuffled(state);
            }
            drawn = d.draw(hand).map_err(super::ComposeError::Keys)?;
        }
        let failed = |e: String| super::ComposeError::Keys(e);
        for p in held {
            let card = d.peek(&secret, p).map_err(failed)?;
            G::open_card(state, side, card).map_err(|e| failed(e.reason))?;
        }
        let cards = drawn
            .iter()
            .map(|&p| d.peek(&secret, p).map(Some))
            .collect::<Result<Vec<_>, _>>()
            .map_err(failed)?;
        if !cards.is_empty() {
            G::receive_cards(state, side, &cards).map_err(|e| failed(e.reason))?;
        }
        Ok(())
    }
}

impl DeckItems {
    /// Add shares.
    pub(super) fn add_shares(&mut self, shares: Vec<(u32, [u8; 32], [u8; 96])>) {
        self.shares.extend(shares);
    }

    /// Of `positions`, those whose share is not among the items yet.
    pub(super) fn without_shares(&self, positions: Vec<u32>) -> Vec<u32> {
        positions
            .into_iter()
            .filter(|p| !self.shares.iter().any(|s| s.0 == *p))
            .collect()
    }
}
