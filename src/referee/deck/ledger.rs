//! The state of one game's deck as the record builds it, line by line
//! (spec section 3.9): the card keys given, each deck generation with
//! its passes, the shares published, who drew which position, the
//! cards opened and waiting in the discard pile, and the audit.
//!
//! The deck's sides are its hands ([`Hand`]: its players, numbered in
//! the header order of their holders, the order of the names given to
//! [`DeckLedger::new`]); the deal and the draws follow the turn order
//! fixed once play begins. Every fault names the hand by its name (and
//! the referee adds the line it came in).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::fairness::Hash;

use super::cipher::{Discard, Sealed};
use super::hands::{Hand, Hands, PlayFault};
use super::shuffle::{audit_pass, shuffle, AuditFault, PublishedPass, SeedOpening};
use super::{
    CardKey, Ciphertext, Deck, DeckError, KeyProof, Share, ShareCheck, Table, SHARE_PROOF_LEN,
};

/// One deck: the cards before its first pass, and the passes over it.
#[derive(Clone, Debug)]
struct Generation {
    input: Deck,
    /// The hands that pass over it, in the order they pass.
    passers: Vec<Hand>,
    passes: Vec<PublishedPass>,
    /// The line each pass came in (`line S4`, `turn 12`), as the audit
    /// names it.
    lines: Vec<String>,
    /// Whether its decks are kept as their bytes alone ([`Deck::compact`]):
    /// a past generation, which only the closing audit (and an opening of
    /// a card still held from it) reads again.
    compact: bool,
    /// The cards before its first pass by number, when they are known
    /// (the first deck; a discard pile of cards decrypted): what a
    /// generation kept as digests ([`Flat`]) keeps of its input.
    numbers: Option<Vec<u32>>,
}

/// A deck generation as the ledger keeps it: its decks, or, past, its
/// digests alone.
#[derive(Clone, Debug)]
enum Gen {
    /// Its decks are kept (decoded, or as their bytes when compacted).
    /// Shared with the ledger's copies (a line is played on a copy): it
    /// is copied only when a pass is added to it.
    Whole(Arc<Generation>),
    /// A past generation kept as digests, when the ledger can read its
    /// passes again ([`DeckLedger::read_again`]).
    Flat(Arc<Flat>),
}

impl Gen {
    fn whole(&self) -> Option<&Generation> {
        match self {
            Gen::Whole(g) => Some(g),
            Gen::Flat(_) => None,
        }
    }

    fn flat(&self) -> Option<&Flat> {
        match self {
            Gen::Flat(f) => Some(f),
            Gen::Whole(_) => None,
        }
    }

    /// Whether hand `side` passed over it.
    fn passed_by(&self, side: Hand, name: &str) -> bool {
        match self {
            Gen::Whole(g) => g.passes.iter().any(|p| p.side == name),
            Gen::Flat(f) => (0..f.passes()).any(|k| f.side(k) == side),
        }
    }
}

/// What a past generation keeps when its decks are not kept (spec
/// section 3.9's closing audit needs every pass of the game): its input
/// as card numbers, and for each pass its side, its line, its
/// commitment, a digest of the deck it published and its check at the
/// audit. Its decks are rebuilt at the audit from the input and the
/// seeds opened, each checked against its digest; where a deck cannot be
/// rebuilt (a pass that fails, or whose seed is not opened, and a pass
/// over it to check) its cards are read again from the record.
///
/// Packed, since a game keeps one for each of its reshuffles: the
/// numbers and the passes in one allocation ([`Flat::packed`]), the
/// checks only once a side audits. Some 230 bytes for a generation of
/// two-player Battlegates, with the allocator's overhead. The cards of
/// it still held in a hand are the ledger's ([`DeckLedger::past_held`]).
#[derive(Clone, Debug)]
struct Flat {
    base: u32,
    /// Cards in its input.
    cards: u32,
    /// Bytes a card number takes in [`Flat::packed`]: 1, 2 or 4.
    width: u8,
    /// The input's card numbers (`width` bytes each, little-endian), then
    /// each pass in the order made, [`FLAT_PASS`] bytes: its side's hand,
    /// its line (`u32` little-endian, the number, the top bit set for a
    /// set-up line), its commitment and its published deck's digest
    /// ([`Deck::digest`]).
    packed: Box<[u8]>,
    /// Each pass's check, once a side of the generation audited: until
    /// then every one is [`Check::Unaudited`].
    checks: Option<Box<[Check]>>,
}

/// Bytes of a pass in [`Flat::packed`].
const FLAT_PASS: usize = 1 + 4 + 32 + 32;

/// The top bit of a line in [`Flat::packed`]: a set-up line.
const SETUP_LINE: u32 = 1 << 31;

/// The check of every pass of a generation no side of has audited.
static UNAUDITED: Check = Check::Unaudited;

impl Flat {
    /// Pack a generation: `None` if a line is not one the audit names
    /// (`line S4`, `turn 12`) or a card number does not fit.
    fn pack(
        base: u32,
        numbers: &[u32],
        passes: &[(Hand, &str, Hash, Hash)],
        cards_in_game: u32,
    ) -> Option<Flat> {
        let width: u8 = match cards_in_game {
            0..=0x100 => 1,
            0x101..=0x1_0000 => 2,
            _ => 4,
        };
        let mut packed =
            Vec::with_capacity(numbers.len() * usize::from(width) + passes.len() * FLAT_PASS);
        for &n in numbers {
            packed.extend_from_slice(&n.to_le_bytes()[..usize::from(width)]);
        }
        for (side, line, commitment, digest) in passes {
            let line = if let Some(n) = line.strip_prefix("line S") {
                n.parse::<u32>().ok().filter(|n| n & SETUP_LINE == 0)? | SETUP_LINE
            } else {
                let n = line.strip_prefix("turn ")?.parse::<u32>().ok()?;
                (n & SETUP_LINE == 0).then_some(n)?
            };
            packed.push(u8::try_from(side.index()).ok()?);
            packed.extend_from_slice(&line.to_le_bytes());
            packed.extend_from_slice(commitment);
            packed.extend_from_slice(digest);
        }
        Some(Flat {
            base,
            cards: u32::try_from(numbers.len()).ok()?,
            width,
            packed: packed.into_boxed_slice(),
            checks: None,
        })
    }

    /// The input's card numbers.
    fn numbers(&self) -> Vec<u32> {
        let w = usize::from(self.width);
        self.packed[..self.cards as usize * w]
            .chunks_exact(w)
            .map(|c| {
                let mut n = [0u8; 4];
                n[..w].copy_from_slice(c);
                u32::from_le_bytes(n)
            })
            .collect()
    }

    /// The passes made over it.
    fn passes(&self) -> usize {
        (self.packed.len() - self.cards as usize * usize::from(self.width)) / FLAT_PASS
    }

    /// Pass `k`'s bytes in [`Flat::packed`].
    fn pass_bytes(&self, k: usize) -> &[u8] {
        let at = self.cards as usize * usize::from(self.width) + k * FLAT_PASS;
        &self.packed[at..at + FLAT_PASS]
    }

    fn side(&self, k: usize) -> Hand {
        Hand::at(usize::from(self.pass_bytes(k)[0]))
    }

    /// The line pass `k` came in, as the audit names it.
    fn line(&self, k: usize) -> String {
        let mut n = [0u8; 4];
        n.copy_from_slice(&self.pass_bytes(k)[1..5]);
        let n = u32::from_le_bytes(n);
        if n & SETUP_LINE != 0 {
            format!("line S{}", n & !SETUP_LINE)
        } else {
            format!("turn {n}")
        }
    }

    fn commitment(&self, k: usize) -> Hash {
        let mut h = [0u8; 32];
        h.copy_from_slice(&self.pass_bytes(k)[5..37]);
        h
    }

    fn digest(&self, k: usize) -> Hash {
        let mut h = [0u8; 32];
        h.copy_from_slice(&self.pass_bytes(k)[37..69]);
        h
    }

    /// Pass `k` of generation `g` by side `name`, for the audit's checks
    /// of its commitment: its deck is not kept (empty).
    fn pass(&self, k: usize, g: usize, name: &str) -> PublishedPass {
        PublishedPass {
            side: name.to_owned(),
            generation: g as u32,
            commitment: self.commitment(k),
            output: Deck::from_cards(self.base, Vec::new()),
        }
    }

    fn check(&self, k: usize) -> &Check {
        self.checks
            .as_ref()
            .and_then(|c| c.get(k))
            .unwrap_or(&UNAUDITED)
    }

    fn checks(&self) -> impl Iterator<Item = &Check> {
        (0..self.passes()).map(|k| self.check(k))
    }

    fn set_check(&mut self, k: usize, check: Check) {
        let n = self.passes();
        let checks = self
            .checks
            .get_or_insert_with(|| vec![Check::Unaudited; n].into_boxed_slice());
        if let Some(c) = checks.get_mut(k) {
            *c = check;
        }
    }

    /// The bytes it keeps, with the allocator's headers (16 bytes an
    /// allocation).
    fn held_bytes(&self) -> usize {
        let checks = self.checks.as_ref().map_or(0, |c| {
            16 + c.len() * std::mem::size_of::<Check>()
                + c.iter()
                    .map(|c| match c {
                        Check::Waiting(o) | Check::Good(Some(o)) => o.value.capacity(),
                        Check::Bad(why) => why.capacity(),
                        _ => 0,
                    })
                    .sum::<usize>()
        });
        16 + std::mem::size_of::<Flat>() + 16 + self.packed.len() + checks
    }
}

/// Where the audit of one pass of a generation kept as digests stands.
#[derive(Clone, Debug)]
enum Check {
    /// Its side has not audited.
    Unaudited,
    /// Its seed is opened; it is checked once every side that passed over
    /// the same deck has audited (so that its input can be rebuilt), or
    /// once a failed pass or the record's end makes the ledger read the
    /// decks again.
    Waiting(SeedOpening),
    /// Rebuilt and equal to the deck it published; its opening is kept
    /// while a later pass of the generation waits (to rebuild its input).
    Good(Option<SeedOpening>),
    /// It failed (or its seed was not opened): why, as the audit says it.
    Bad(String),
}

impl Check {
    fn waiting(&self) -> bool {
        matches!(self, Check::Waiting(_))
    }
}

/// Where a ledger that keeps past passes as digests gets their cards
/// back: the reader of the record, which reads it again (the referee
/// does no I/O).
pub trait PassSource: std::fmt::Debug + Send + Sync {
    /// The cards that each pass of `wanted` published (its line's label,
    /// `turn 12` or `line S4`, and the deck generation), read from the
    /// record again, in the order asked: `None` for a line that is not
    /// in the record or makes no pass over that generation. `Err`: why
    /// the record could not be read again.
    fn passes(&self, wanted: &[(String, u32)]) -> Result<Vec<Option<Vec<[u8; 64]>>>, String>;
}

impl Generation {
    /// The deck once every side has passed over it.
    fn final_deck(&self) -> Option<&Deck> {
        (self.passes.len() == self.passers.len())
            .then(|| self.passes.last().map(|p| &p.output))
            .flatten()
    }

    /// The deck the next pass is over.
    fn current(&self) -> &Deck {
        self.passes.last().map_or(&self.input, |p| &p.output)
    }
}

/// A game's deck, as far as the record has built it.
///
/// A line is played on a copy of the ledger (the referee's
/// `table::Pending`), kept once the line is played or dropped with it, so
/// a copy is cheap: every list is shared with the copies (an [`Arc`]) and
/// copied only when a line changes it ([`Arc::make_mut`]), and each
/// position's shares are shared one position at a time. A copy costs
/// the same however long the game (the lists that grow with it, such as
/// [`DeckLedger::retired`] and the generations, are not copied for a
/// line that leaves them as they are). The cards of past generations
/// still held (at most the hands' cards) are the copy's own: a deck
/// decodes its cards once and keeps them (a cache inside it), and a line
/// that decodes one and is refused leaves the ledger's as it was. (A
/// generation's decks are shared, their cache too: decoding gives the
/// same cards whoever decodes them.)
#[derive(Clone, Debug)]
pub struct DeckLedger {
    game: Hash,
    cards: u32,
    hand: u32,
    sides: Arc<[String]>,
    keys: Arc<Vec<Option<(CardKey, KeyProof)>>>,
    table: Option<Table>,
    /// Each deck generation, the first deck first.
    generations: Arc<Vec<Gen>>,
    /// The cards of generations kept as digests ([`Flat`]) still held in
    /// a hand, one deck of one card each: at most the hands' cards.
    past_held: Vec<Deck>,
    /// Each position's shares, by side, until the position is opened:
    /// nothing later needs them then.
    shares: BTreeMap<u32, Arc<Vec<Option<Share>>>>,
    /// For each position opened (by position), the sides that had
    /// shared it, one bit a side: a share given again is still refused.
    retired: Arc<Vec<u8>>,
    hands: Hands,
    /// The sides in turn order, once play has begun.
    order: Arc<Vec<Hand>>,
    /// Whether each side has drawn its hand yet.
    dealt: Arc<Vec<bool>>,
    /// The next position a turn draws (the deal's positions aside).
    next: u32,
    /// The cards opened since the last reshuffle, in the order opened
    /// (one opened on a vouched line, not decrypted: what opening it
    /// takes, [`DeckLedger::open_vouched`]).
    pile: Arc<Vec<Discard>>,
    /// Whether each side's passes were audited.
    audited: Arc<Vec<bool>>,
    /// The deck position that opened to no card and the side that
    /// opened it, once one did: the deck is broken.
    broken: Option<(u32, Hand)>,
    /// The card secret each side published when it left the game (spec
    /// section 3.9, "Leaving"): from then on the ledger makes its shares.
    left: Arc<Vec<Option<super::CardSecret>>>,
    /// The audit of each leaving side's passes, made as it left.
    left_verdicts: Arc<Vec<Option<Result<(), String>>>>,
    /// The order of the passes over the first deck: header order, or
    /// the set-up's order of openings under protocol 3
    /// ([`DeckLedger::set_first_passers`]).
    first_passers: Arc<Vec<Hand>>,
    /// Whether the lines given now are vouched for by a record digest
    /// the reader checked before ([`DeckLedger::vouch`]).
    vouched: bool,
    /// Where past passes kept as digests are read again from, if the
    /// reader can ([`DeckLedger::read_again`]).
    source: Option<Arc<dyn PassSource>>,
    /// For each side, whether a failed audit of its passes was given.
    reported: Arc<Vec<bool>>,
    /// Why the record could not be read again, or was not the same, once
    /// that happened ([`DeckLedger::take_reread_error`]).
    reread_error: Option<String>,
}

impl DeckLedger {
    /// The deck of game `game`: `cards` physical cards, hands of `hand`,
    /// these sides in header order (which is also the order of the
    /// passes over the first deck).
    pub fn new(game: Hash, cards: u32, hand: u32, sides: &[&str]) -> DeckLedger {
        DeckLedger {
            game,
            cards,
            hand,
            sides: sides.iter().map(|s| (*s).to_owned()).collect(),
            keys: Arc::new(vec![None; sides.len()]),
            table: None,
            generations: Arc::default(),
            past_held: Vec::new(),
            shares: BTreeMap::new(),
            retired: Arc::default(),
            hands: Hands::new(),
            order: Arc::default(),
            dealt: Arc::new(vec![false; sides.len()]),
            next: 0,
            pile: Arc::default(),
            audited: Arc::new(vec![false; sides.len()]),
            broken: None,
            left: Arc::new(vec![None; sides.len()]),
            left_verdicts: Arc::new(vec![None; sides.len()]),
            first_passers: Arc::new(Hand::all(sides.len()).collect()),
            vouched: false,
            source: None,
            reported: Arc::new(vec![false; sides.len()]),
            reread_error: None,
        }
    }

    /// Make the passes over the first deck go in `order` (every side
    /// once), rather than header order; ignored once the last key is in
    /// (the first deck's passers are fixed then) or if `order` is not
    /// every side once.
    pub fn set_first_passers(&mut self, order: Vec<Hand>) {
        let mut sorted = order.clone();
        sorted.sort_unstable();
        let every_side_once = sorted.iter().copied().eq(self.hands());
        if self.generations.is_empty() && every_side_once {
            self.first_passers = Arc::new(order);
        }
    }

    /// Whether the lines given from now on are vouched for by a record
    /// digest that the reader checked before (`move --key` and `legal
    /// --key` up to the digest the key file remembers): a pass's cards
    /// are then kept as their bytes, not decoded (nor checked to be
    /// points) until a card is needed. The digest covers every byte, so
    /// they are the cards checked before.
    pub fn vouch(&mut self, vouched: bool) {
        self.vouched = vouched;
    }

    /// Whether the lines given now are vouched for ([`DeckLedger::vouch`]).
    pub fn is_vouched(&self) -> bool {
        self.vouched
    }

    /// Each of the deck's hands once, in header order of their holders.
    pub fn hands(&self) -> impl DoubleEndedIterator<Item = Hand> + Clone {
        Hand::all(self.sides.len())
    }

    fn name(&self, side: Hand) -> &str {
        self.sides.get(side.index()).map_or("?", String::as_str)
    }

    /// Whether side `side` has given its card key.
    pub fn has_key(&self, side: Hand) -> bool {
        self.keys.get(side.index()).is_some_and(Option::is_some)
    }

    /// The hands in turn order, once play has begun; empty before.
    pub fn order(&self) -> &[Hand] {
        &self.order
    }

    /// The first side (in header order) whose passes are not audited
    /// yet.
    pub fn audit_due(&self) -> Option<Hand> {
        self.hands().find(|&s| self.audit_pending(s))
    }

    /// Whether side `side`'s passes are still to audit (its seeds to
    /// open): it passed over a deck and was not audited yet.
    pub fn audit_pending(&self, side: Hand) -> bool {
        self.audited.get(side.index()).is_some_and(|done| !done) && !self.passed(side).is_empty()
    }

    /// The table, once every side has given its key.
    pub fn table(&self) -> Option<&Table> {
        self.table.as_ref()
    }

    /// Side `side` gives its card key with its proof. Once every side
    /// has, the first deck is laid out, unmasked.
    pub fn give_key(&mut self, side: Hand, key: &[u8; 32], proof: [u8; 64]) -> Result<(), String> {
        let name = self.name(side).to_owned();
        if self.keys.get(side.index()).is_none_or(Option::is_some) {
            return Err(format!("{name} gave its card key before"));
        }
        let key = CardKey::from_bytes(key).map_err(|e| format!("{name}'s card key: {e}"))?;
        let proof = KeyProof::from_bytes(proof);
        key.verify(&self.game, &name, &proof)
            .map_err(|e| e.to_string())?;
        Arc::make_mut(&mut self.keys)[side.index()] = Some((key, proof));
        if self.keys.iter().all(Option::is_some) {
            let sides: Vec<(&str, CardKey, KeyProof)> = self
                .sides
                .iter()
                .zip(self.keys.iter())
                .filter_map(|(s, k)| k.map(|(key, proof)| (s.as_str(), key, proof)))
                .collect();
            let table = Table::new(&self.game, self.cards, &sides).map_err(|e| e.to_string())?;
            let all: Vec<u32> = (0..self.cards).collect();
            let input = Deck::unmasked(&table, 0, &all).ok_or("the first deck has no cards")?;
            Arc::make_mut(&mut self.generations).push(Gen::Whole(Arc::new(Generation {
                input,
                passers: self.first_passers.to_vec(),
                passes: Vec::new(),
                lines: Vec::new(),
                compact: false,
                numbers: Some(all),
            })));
            self.table = Some(table);
        }
        Ok(())
    }

    /// The generation `side` passes over next, if a pass is due from it.
    pub fn pass_due(&self, side: Hand) -> Option<u32> {
        self.generations.iter().enumerate().find_map(|(g, gen)| {
            let gen = gen.whole()?;
            (gen.passers.get(gen.passes.len()) == Some(&side)).then_some(g as u32)
        })
    }

    /// The deck `side`'s next pass is over, if one is due: its
    /// generation and cards.
    pub fn pass_input(&self, side: Hand) -> Option<(u32, &Deck)> {
        let g = self.pass_due(side)?;
        Some((g, self.generations[g as usize].whole()?.current()))
    }

    /// Side `side` passes over deck `generation` on line `line` (`line
    /// S4`, `turn 12`: the audit names it), with the commitment to its
    /// seed and the cards it published, by position.
    pub fn give_pass(
        &mut self,
        side: Hand,
        generation: u32,
        commitment: Hash,
        cards: &[(u32, [u8; 64])],
        line: &str,
    ) -> Result<(), String> {
        let name = self.name(side).to_owned();
        if self.pass_due(side) != Some(generation) {
            return Err(format!(
                "{name} has no pass over deck {generation} to make on this line"
            ));
        }
        let Some(gen) = self.generations[generation as usize].whole() else {
            return Err(format!(
                "{name} has no pass over deck {generation} to make on this line"
            ));
        };
        let base = gen.input.base();
        let mut out = Vec::with_capacity(if self.vouched { 0 } else { cards.len() });
        let bytes: Vec<[u8; 64]> = cards.iter().map(|(_, bytes)| *bytes).collect();
        for (k, (position, bytes)) in cards.iter().enumerate() {
            let expected = base + k as u32;
            if *position != expected {
                return Err(format!(
                    "{name}'s pass over deck {generation} lists deck position {position} \
                     where position {expected} is due"
                ));
            }
            if !self.vouched {
                out.push(Ciphertext::from_bytes(bytes).map_err(|e| format!("{name}'s pass: {e}"))?);
            }
        }
        if cards.len() != gen.input.len() {
            return Err(format!(
                "{name}'s pass over deck {generation} has {} cards, but the deck has {}",
                cards.len(),
                gen.input.len()
            ));
        }
        let output = if self.vouched {
            Deck::vouched(base, bytes)
        } else {
            Deck::checked(base, out, bytes)
        };
        let Gen::Whole(gen) = &mut Arc::make_mut(&mut self.generations)[generation as usize] else {
            return Ok(());
        };
        let gen = Arc::make_mut(gen);
        gen.passes.push(PublishedPass {
            side: name,
            generation,
            commitment,
            output,
        });
        gen.lines.push(line.to_owned());
        Ok(())
    }

    /// The final deck holding `position`, if it is final.
    pub fn deck_of(&self, position: u32) -> Option<&Deck> {
        final_deck(&self.generations, &self.past_held, position)
    }

    /// Side `side` publishes its share of `position`; it is verified at
    /// once.
    pub fn give_share(
        &mut self,
        side: Hand,
        position: u32,
        point: &[u8; 32],
        proof: [u8; SHARE_PROOF_LEN],
    ) -> Result<(), String> {
        self.take_share(side, position, point, proof, true)
            .map(|_| ())
    }

    /// Side `side` publishes its share of `position`, kept as if verified:
    /// its check is given back, for the caller to verify in a batch with
    /// others ([`super::verify_batch`]) before anything that depends on
    /// it counts. Everything else about it is checked at once.
    pub fn give_share_unverified(
        &mut self,
        side: Hand,
        position: u32,
        point: &[u8; 32],
        proof: [u8; SHARE_PROOF_LEN],
    ) -> Result<ShareCheck, String> {
        self.take_share(side, position, point, proof, false)
    }

    fn take_share(
        &mut self,
        side: Hand,
        position: u32,
        point: &[u8; 32],
        proof: [u8; SHARE_PROOF_LEN],
        verify: bool,
    ) -> Result<ShareCheck, String> {
        let name = self.name(side).to_owned();
        let players = self.sides.len();
        let (Some(table), Some(deck)) = (self.table.as_ref(), self.deck_of(position)) else {
            return Err(format!(
                "{name}'s share for deck position {position}: that position is in no final deck"
            ));
        };
        let (share, check) = if self.vouched && !verify {
            // Read, decoded and verified before, as the digest shows:
            // nothing of it is decoded until it opens or shows a card.
            let share = Share::vouched(position, point, proof);
            (share, ShareCheck::vouched(&name, position, proof))
        } else {
            let share = Share::from_bytes(position, point, proof)
                .map_err(|e| format!("{name}'s share for deck position {position}: {e}"))?;
            share
                .claimed(table, &name, deck)
                .map_err(|e| e.to_string())?
        };
        if verify && !check.verify(table.game()) {
            return Err(check.error().to_string());
        }
        let given = self
            .shares
            .get(&position)
            .is_some_and(|s| s[side.index()].is_some());
        if given || retired(&self.retired, side, position) {
            return Err(format!(
                "{name} gave its share for deck position {position} before"
            ));
        }
        let slots = self
            .shares
            .entry(position)
            .or_insert_with(|| Arc::new(vec![None; players]));
        Arc::make_mut(slots)[side.index()] = Some(share);
        Ok(check)
    }

    /// Whether side `side` has published its share of `position`.
    pub fn has_share(&self, side: Hand, position: u32) -> bool {
        self.shares
            .get(&position)
            .and_then(|s| s.get(side.index()))
            .is_some_and(Option::is_some)
            || retired(&self.retired, side, position)
    }

    /// Play begins with the hands in this turn order.
    pub fn begin_play(&mut self, order: &[Hand]) {
        self.order = Arc::new(order.to_vec());
        self.next = self.hand.saturating_mul(order.len() as u32);
    }

    /// The positions `side` draws at the start of its next turn: on its
    /// first, its hand (dealt round from the top in turn order) and
    /// then the turn's card; later, the turn's card.
    pub fn next_draws(&self, side: Hand) -> Vec<u32> {
        self.draws_after(side, self.next, 0).0
    }

    /// The draws of `side` when the next turn card is at `next` and
    /// `later` turn cards are drawn before it; and the next after.
    fn draws_after(&self, side: Hand, next: u32, later: u32) -> (Vec<u32>, u32) {
        let first = !self.dealt.get(side.index()).copied().unwrap_or(true);
        let at = next + later;
        (self.draws_at(side, first, at), at + 1)
    }

    /// The positions the other sides draw on the turns after `side`'s
    /// line up to `side`'s next turn, in order: the shares `side` owes on
    /// its turn line. `round` is the coming turns as the game has them
    /// (the drawing side of each turn, from the side to move next, one
    /// round of the sides that take turns: a side's hand may come up
    /// twice, or a side be skipped).
    pub fn owed_on_turn(&self, side: Hand, round: &[Hand]) -> Vec<u32> {
        let mut dealt = self.dealt.to_vec();
        let mut out = Vec::new();
        let mut next = self.next;
        for &other in round.iter().take_while(|&&o| o != side) {
            let first = !dealt.get(other.index()).copied().unwrap_or(true);
            let draws = self.draws_at(other, first, next);
            next = draws.last().map_or(next, |p| p + 1);
            out.extend(draws);
            if let Some(d) = dealt.get_mut(other.index()) {
                *d = true;
            }
        }
        // A position of a deck not final yet cannot be shared: the
        // reshuffle's passes come first (the schedule's rule 6).
        out.retain(|&p| !self.has_share(side, p) && self.deck_of(p).is_some());
        out.sort_unstable();
        out
    }

    /// The positions `side` draws on a turn whose card is at `at`: with
    /// its hand before, on its `first` turn.
    fn draws_at(&self, side: Hand, first: bool, at: u32) -> Vec<u32> {
        let n = self.order.len() as u32;
        let mut out = Vec::new();
        if first {
            if let Some(i) = self.order.iter().position(|&s| s == side) {
                out.extend((0..self.hand).map(|k| i as u32 + k * n));
            }
        }
        out.push(self.turn_card(side, at));
        out
    }

    /// The position a turn of `side` draws when the next is `at`: the
    /// first from there that `side` has not shared. A side shares the
    /// cards it expects the others to draw; when a side is put out of
    /// the game the turns after it draw earlier than planned, and a card
    /// whose share its drawer gave is passed over (it stays out of play),
    /// so that no hand ever holds a card the others could open (spec
    /// section 3.9, "Farewell lines").
    fn turn_card(&self, side: Hand, at: u32) -> u32 {
        let mut p = at;
        while self.has_share(side, p) {
            p += 1;
        }
        p
    }

    /// The positions drawn on the turns before `side`'s first turn (none
    /// if it moves first), not yet shared by it: the shares its last
    /// set-up line owes.
    pub fn owed_before_play(&self, side: Hand) -> Vec<u32> {
        let Some(i) = self.order.iter().position(|&s| s == side) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (k, &other) in self.order[..i].iter().enumerate() {
            let (draws, _) = self.draws_after(other, self.next, k as u32);
            out.extend(draws);
        }
        out.retain(|&p| !self.has_share(side, p));
        out.sort_unstable();
        out
    }

    /// Side `side` draws its turn's cards at the start of its line: every
    /// other side's share of each must be published. Returns the
    /// positions drawn.
    pub fn draw(&mut self, side: Hand) -> Result<Vec<u32>, String> {
        let positions = self.next_draws(side);
        for &p in &positions {
            self.share_for_the_left(p);
            if self.deck_of(p).is_none() {
                return Err(format!(
                    "{} draws deck position {p}, but no final deck holds it",
                    self.name(side)
                ));
            }
            let missing = self.hands().find(|&s| s != side && !self.has_share(s, p));
            if let Some(s) = missing {
                return Err(format!(
                    "{} draws deck position {p}, but {}'s share of it is missing",
                    self.name(side),
                    self.name(s)
                ));
            }
        }
        for &p in &positions {
            self.hands.draw(p, side).map_err(|e| e.to_string())?;
        }
        if self.dealt.get(side.index()) == Some(&false) {
            Arc::make_mut(&mut self.dealt)[side.index()] = true;
        }
        self.next = positions.last().map_or(self.next, |p| p + 1);
        Ok(positions)
    }

    /// The card `side` drew at `position`, with its own card secret: for
    /// its eyes only.
    pub fn peek(&self, secret: &super::CardSecret, position: u32) -> Result<u32, String> {
        let (Some(table), Some(deck)) = (self.table.as_ref(), self.deck_of(position)) else {
            return Err(format!("deck position {position} is in no final deck"));
        };
        let side = table.index(secret.side()).unwrap_or(usize::MAX);
        let mut others = shares_of(&self.shares, &self.sides, position);
        others.retain(|(s, _)| table.index(s) != Some(side));
        secret
            .draw(table, deck, position, &others)
            .map_err(|e| e.to_string())
    }

    /// The side that drew `position`, if it was drawn.
    pub fn drawer(&self, position: u32) -> Option<Hand> {
        self.hands.drawer(position)
    }

    /// The positions `side` holds: drawn and not opened.
    pub fn held(&self, side: Hand) -> Vec<u32> {
        self.hands.held(side)
    }

    /// Side `side` opens the card it drew at `position` (to play or
    /// discard it): every side's share, its own among them, must be
    /// published. Returns the card the shares open (the referee matches
    /// it to the action that spends it); it goes to the discard pile.
    /// `None` when the shares open the position to no card of the game:
    /// the deck is broken from then on ([`DeckLedger::broken`]), and only
    /// the audit of the passes can say by whom.
    pub fn open(&mut self, side: Hand, position: u32) -> Result<Option<u32>, String> {
        let fault = match self.hands.drawer(position) {
            None => Some(PlayFault::NotDrawn(position)),
            Some(d) if d != side => Some(PlayFault::NotYours {
                position,
                drawer: self.name(d).to_owned(),
            }),
            Some(_) if !self.hands.held(side).contains(&position) => {
                Some(PlayFault::AlreadyOpened(position))
            }
            Some(_) => None,
        };
        if let Some(fault) = fault {
            return Err(fault.to_string());
        }
        let (Some(table), Some(deck)) = (
            self.table.as_ref(),
            final_deck(&self.generations, &self.past_held, position),
        ) else {
            return Err(PlayFault::NotDrawn(position).to_string());
        };
        let shares = shares_of(&self.shares, &self.sides, position);
        let likely = self.likely_cards(position);
        let found = match self
            .hands
            .open(table, deck, side, position, &shares, &likely)
        {
            Ok(found) => found,
            Err(PlayFault::Deck(DeckError::NoCard(_))) => {
                self.broken = Some((position, side));
                return Ok(None);
            }
            Err(e) => return Err(e.to_string()),
        };
        Arc::make_mut(&mut self.pile).push(Discard::Card(found));
        self.retire(position);
        self.drop_held(position);
        Ok(Some(found))
    }

    /// The cards the card at `position` is likely to be, for its opening
    /// to compare first ([`super::Table::card_index_among`]): the cards
    /// of its generation's deck before its passes, by number when they
    /// are known, but for those opened since it started (the discard
    /// pile, and the decks before the passes of the generations after
    /// it, the piles of before). An honest deck's card is among them;
    /// any card is found all the same, compared after them.
    pub(super) fn likely_cards(&self, position: u32) -> Vec<u32> {
        let Some(g) = self.generations.iter().rposition(|gen| {
            gen.whole()
                .is_some_and(|w| (w.input.base()..w.input.end()).contains(&position))
        }) else {
            return Vec::new();
        };
        let Some(numbers) = self.generations[g].whole().and_then(|w| w.numbers.as_ref()) else {
            return Vec::new();
        };
        // The cards opened since, one bit a card (a game has at most a
        // few hundred cards; one that does not fit is not left out).
        let mut opened = [0u64; 8];
        let mut mark = |c: u32| {
            if let Some(word) = opened.get_mut(c as usize / 64) {
                *word |= 1 << (c % 64);
            }
        };
        for d in self.pile.iter() {
            if let Discard::Card(c) = d {
                mark(*c);
            }
        }
        for later in &self.generations[g + 1..] {
            for &c in later
                .whole()
                .and_then(|w| w.numbers.as_ref())
                .into_iter()
                .flatten()
            {
                mark(c);
            }
        }
        let out = |c: u32| {
            opened
                .get(c as usize / 64)
                .is_some_and(|word| word & (1 << (c % 64)) != 0)
        };
        numbers.iter().copied().filter(|&c| !out(c)).collect()
    }

    /// Whether side `side` can open `position` on this line without
    /// decrypting it ([`DeckLedger::open_vouched`]): the line is vouched
    /// for by a record digest the reader checked before, as is the deck
    /// holding the position and every side's share of it, one a side.
    pub fn opens_vouched(&self, side: Hand, position: u32) -> bool {
        self.vouched
            && self.hands.drawer(position) == Some(side)
            && final_deck(&self.generations, &self.past_held, position)
                .is_some_and(|deck| deck.published_c2(position).is_some())
            && self.shares.get(&position).is_some_and(|shares| {
                shares.len() == self.sides.len()
                    && shares.iter().all(|s| s.is_some_and(|s| s.is_vouched()))
            })
    }

    /// Side `side` opens `position`, held in its hand, on a line a record
    /// digest the reader checked before vouches for
    /// ([`DeckLedger::opens_vouched`]), to play the card its action names:
    /// that line opened it to that card when it was checked, so it is
    /// not decrypted now. It goes to the discard pile as what opening it
    /// takes (decrypted if a reshuffled deck made from it is needed: a
    /// pass composed over it, the audit). Faults as [`DeckLedger::open`].
    pub fn open_vouched(&mut self, side: Hand, position: u32) -> Result<(), String> {
        if !self.opens_vouched(side, position) {
            return Err(format!(
                "deck position {position} cannot be opened without its shares checked"
            ));
        }
        let (Some(table), Some(deck)) = (
            self.table.as_ref(),
            final_deck(&self.generations, &self.past_held, position),
        ) else {
            return Err(PlayFault::NotDrawn(position).to_string());
        };
        let c2 = deck.published_c2(position).unwrap_or_default();
        let shares = self.shares.get(&position).map_or_else(Vec::new, |shares| {
            shares.iter().flatten().map(Share::point_bytes).collect()
        });
        self.hands
            .open_vouched(table, side, position)
            .map_err(|e| e.to_string())?;
        Arc::make_mut(&mut self.pile).push(Discard::Sealed(Arc::new(Sealed {
            position,
            c2,
            shares,
        })));
        self.retire(position);
        Ok(())
    }

    /// The deck position that opened to no card of the game, and the
    /// side that opened it, once one did: the deck is broken, play stops
    /// and the audit of the passes names the side at fault.
    pub fn broken(&self) -> Option<(u32, Hand)> {
        self.broken
    }

    /// The first position `side` holds that its own `secret` opens to no
    /// card of the game: a card it cannot play, which it opens to show
    /// that the deck is broken.
    pub fn unreadable(&self, secret: &super::CardSecret, side: Hand) -> Option<u32> {
        let table = self.table.as_ref()?;
        self.held(side).into_iter().find(|&p| {
            let Some(deck) = self.deck_of(p) else {
                return false;
            };
            let mut others = shares_of(&self.shares, &self.sides, p);
            others.retain(|(s, _)| table.index(s) != Some(side.index()));
            matches!(
                secret.draw(table, deck, p, &others),
                Err(DeckError::NoCard(_))
            )
        })
    }

    /// At the start of a line: when the deck holds at most `2n - 2`
    /// undrawn cards, no reshuffle is under way and the discard pile is
    /// not empty, the pile becomes the next deck, passed over by the
    /// line's writer `writer` and the next sides in turn order. Returns
    /// its generation when one starts.
    pub fn reshuffle_if_due(&mut self, writer: Hand) -> Option<u32> {
        let table = self.table.as_ref()?;
        let last = self.generations.last()?.whole()?;
        last.final_deck()?;
        // The hands still in pass over it (spec section 3.9, "Leaving").
        let n = self.order.iter().filter(|&&s| !self.has_left(s)).count() as u32;
        let left = last.input.end().saturating_sub(self.next);
        if !super::schedule::reshuffle_due(n, left) || self.pile.is_empty() {
            return None;
        }
        let i = self.order.iter().position(|&s| s == writer)?;
        let passers = (0..self.order.len())
            .map(|k| self.order[(i + k) % self.order.len()])
            .filter(|&s| !self.has_left(s))
            .collect();
        let input = Deck::from_discards(table, last.input.end(), &self.pile)?;
        let numbers = self
            .pile
            .iter()
            .map(|d| match d {
                Discard::Card(i) => Some(*i),
                Discard::Sealed(_) => None,
            })
            .collect();
        self.pile = Arc::default();
        Arc::make_mut(&mut self.generations).push(Gen::Whole(Arc::new(Generation {
            input,
            passers,
            passes: Vec::new(),
            lines: Vec::new(),
            compact: false,
            numbers,
        })));
        self.compact_past();
        Some(self.generations.len() as u32 - 1)
    }

    /// Side `side` leaves the game and publishes its card secret `x`
    /// (spec section 3.9, "Leaving"): `x * B` must be its card key. From
    /// then on the ledger makes its share of every position drawn, and a
    /// pass it still owes over a reshuffle under way is dropped (the
    /// sides still in pass over it). Its passes are audited at once with
    /// the seeds it opens (`seeds`, by generation): the verdict is kept
    /// for the end of the game ([`DeckLedger::left_verdict`]).
    pub fn leave(
        &mut self,
        side: Hand,
        secret: &[u8; 32],
        seeds: &[(u32, SeedOpening)],
    ) -> Result<(), String> {
        let name = self.name(side).to_owned();
        if self.has_left(side) {
            return Err(format!("{name} published its card secret before"));
        }
        let Some(Some((key, _))) = self.keys.get(side.index()) else {
            return Err(format!(
                "{name} has given no card key to match a card secret"
            ));
        };
        let secret = super::CardSecret::from_revealed(secret, &self.game, &name, key)
            .map_err(|e| e.to_string())?;
        Arc::make_mut(&mut self.left)[side.index()] = Some(secret);
        // Its verdict is kept now: a pass of it kept as a digest is
        // checked at once, the decks it needs read again.
        let verdict = self.audit_with(side, seeds, true);
        Arc::make_mut(&mut self.left_verdicts)[side.index()] = Some(verdict);
        for gen in Arc::make_mut(&mut self.generations) {
            let Gen::Whole(gen) = gen else {
                continue;
            };
            let owed = gen.passers.get(gen.passes.len()..).unwrap_or_default();
            if !owed.contains(&side) {
                continue;
            }
            let gen = Arc::make_mut(gen);
            let done = gen.passes.len();
            let mut k = done;
            while k < gen.passers.len() {
                if gen.passers[k] == side {
                    gen.passers.remove(k);
                } else {
                    k += 1;
                }
            }
        }
        Ok(())
    }

    /// The audit of the passes of side `side`, made when it left the
    /// game, if it did.
    pub fn left_verdict(&self, side: Hand) -> Option<&Result<(), String>> {
        self.left_verdicts
            .get(side.index())
            .and_then(Option::as_ref)
    }

    /// Whether side `side` left the game, its card secret published.
    pub fn has_left(&self, side: Hand) -> bool {
        self.left.get(side.index()).is_some_and(Option::is_some)
    }

    /// Every side that left makes its share of `position` from its
    /// published secret, if the position's deck is final.
    fn share_for_the_left(&mut self, position: u32) {
        let players = self.sides.len();
        let made: Vec<(usize, Share)> = self
            .left
            .iter()
            .enumerate()
            .filter(|(s, _)| !self.has_share(Hand::at(*s), position))
            .filter_map(|(s, secret)| {
                let deck = self.deck_of(position)?;
                Some((s, secret.as_ref()?.share(deck, position).ok()?))
            })
            .collect();
        for (s, share) in made {
            let slots = self
                .shares
                .entry(position)
                .or_insert_with(|| Arc::new(vec![None; players]));
            Arc::make_mut(slots)[s] = Some(share);
        }
    }

    /// The generations `side` passed over.
    pub fn passed(&self, side: Hand) -> Vec<u32> {
        let name = self.name(side);
        (0..self.generations.len() as u32)
            .filter(|&g| self.generations[g as usize].passed_by(side, name))
            .collect()
    }

    /// The audit of `side`'s passes: each recomputed from the deck before
    /// it and the seed opened for it (`openings`: by generation). The
    /// first fault, naming the deck generation.
    ///
    /// A pass of a generation kept as digests ([`DeckLedger::read_again`])
    /// is checked once every side that passed over the same deck has
    /// audited (its input is rebuilt then): until then it counts as
    /// passed here, and a fault found later is given by
    /// [`DeckLedger::late_faults`]. A fault found now makes the ledger
    /// check every pass waiting at once (the decks it needs read again),
    /// so that the first fault in the game's order is the one named.
    pub fn audit(&mut self, side: Hand, openings: &[(u32, SeedOpening)]) -> Result<(), String> {
        self.audit_with(side, openings, false)
    }

    fn audit_with(
        &mut self,
        side: Hand,
        openings: &[(u32, SeedOpening)],
        force: bool,
    ) -> Result<(), String> {
        if let Some(done) = Arc::make_mut(&mut self.audited).get_mut(side.index()) {
            *done = true;
        }
        let Some(table) = self.table.as_ref() else {
            return Ok(());
        };
        let name = self.name(side).to_owned();
        let opening = |g: usize| {
            openings
                .iter()
                .find(|(og, _)| *og == g as u32)
                .map(|(_, o)| o)
        };
        let mut whole_fault = None;
        for (g, gen) in Arc::make_mut(&mut self.generations).iter_mut().enumerate() {
            let gen = match gen {
                Gen::Flat(flat) => {
                    if !(0..flat.passes()).any(|k| flat.side(k) == side) {
                        continue;
                    }
                    let flat = Arc::make_mut(flat);
                    for k in 0..flat.passes() {
                        if flat.side(k) == side {
                            let check = match opening(g) {
                                Some(o) => Check::Waiting(o.clone()),
                                None => Check::Bad(not_opened(&name, g)),
                            };
                            flat.set_check(k, check);
                        }
                    }
                    continue;
                }
                Gen::Whole(gen) => gen,
            };
            if whole_fault.is_some() {
                continue;
            }
            // A compacted generation is decoded in a copy, dropped once
            // audited: the audit holds one past generation decoded at a
            // time, not the whole game's.
            let copy;
            let gen: &Generation = if gen.compact {
                copy = Generation::clone(gen);
                &copy
            } else {
                gen
            };
            let mut input = &gen.input;
            for (pass, line) in gen.passes.iter().zip(&gen.lines) {
                if pass.side == name {
                    let fault = match opening(g) {
                        None => Some(not_opened(&name, g)),
                        Some(o) => audit_pass(table, input, pass, o)
                            .err()
                            .map(|e| format!("{name}'s pass over deck {g} ({line}): {e}")),
                    };
                    if fault.is_some() {
                        whole_fault = fault;
                        break;
                    }
                }
                input = &pass.output;
            }
        }
        self.settle(force || whole_fault.is_some());
        let verdict = match self.flat_verdict(side) {
            Some(Err(why)) => Err(why),
            _ => whole_fault.map_or(Ok(()), Err),
        };
        if verdict.is_err() {
            if let Some(r) = Arc::make_mut(&mut self.reported).get_mut(side.index()) {
                *r = true;
            }
        }
        verdict
    }

    /// The verdict on `name`'s passes kept as digests, in the game's
    /// order: its first fault, `Ok` when every one passed, `None` while
    /// one before any fault is still to check.
    fn flat_verdict(&self, side: Hand) -> Option<Result<(), String>> {
        for flat in self.generations.iter().filter_map(Gen::flat) {
            for k in 0..flat.passes() {
                if flat.side(k) != side {
                    continue;
                }
                match flat.check(k) {
                    Check::Good(_) => {}
                    Check::Bad(why) => return Some(Err(why.clone())),
                    Check::Waiting(_) | Check::Unaudited => return None,
                }
            }
        }
        Some(Ok(()))
    }

    /// The failed audits found since the sides audited, for sides whose
    /// audit was given as passed ([`DeckLedger::audit`]): a pass of a
    /// generation kept as digests checked once the sides after it opened
    /// their seeds. Each is given once.
    pub fn late_faults(&mut self) -> Vec<(Hand, String)> {
        let mut out = Vec::new();
        for side in self.hands() {
            let i = side.index();
            if !self.audited[i] || self.reported[i] || self.has_left(side) {
                continue;
            }
            if let Some(Err(why)) = self.flat_verdict(side) {
                Arc::make_mut(&mut self.reported)[i] = true;
                out.push((side, why));
            }
        }
        out
    }

    /// The record is over: every pass still waiting is checked, the
    /// decks it needs read again (a side that never audited, a pass that
    /// failed). Then [`DeckLedger::late_faults`] gives what was found.
    pub fn finish_audit(&mut self) {
        self.settle(true);
    }

    /// Keep past generations as digests from now on, and read their
    /// passes again from `source` where the audit needs their cards
    /// (otherwise they are kept as bytes, [`Deck::compact`]).
    pub fn read_again(&mut self, source: Arc<dyn PassSource>) {
        self.source = Some(source);
    }

    /// Why the record could not be read again for the audit, or was not
    /// the record read before (a pass's cards are not the ones whose
    /// digest was kept): once, then `None`.
    pub fn take_reread_error(&mut self) -> Option<String> {
        self.reread_error.take()
    }

    /// Check the passes waiting in generations kept as digests: those of
    /// generations every side of has audited, or all of them when
    /// `force`d (or once one failed), reading again the decks that
    /// cannot be rebuilt.
    fn settle(&mut self, force: bool) {
        let Some(table) = self.table.as_ref() else {
            return;
        };
        let any_bad = |gens: &[Gen]| {
            gens.iter()
                .filter_map(Gen::flat)
                .any(|f| f.checks().any(|c| matches!(c, Check::Bad(_))))
        };
        let mut force = force;
        let mut fetched: HashMap<PassAt, Deck> = HashMap::new();
        // Each round reads again what the one before found it needs: a
        // generation's chain of passes is at most its sides long.
        for _ in 0..=2 * self.sides.len() + 2 {
            force |= any_bad(&self.generations);
            let mut wanted = Vec::new();
            for (g, gen) in Arc::make_mut(&mut self.generations).iter_mut().enumerate() {
                let Gen::Flat(flat) = gen else {
                    continue;
                };
                let waits = flat.checks().any(Check::waiting);
                let complete = !flat.checks().any(|c| matches!(c, Check::Unaudited));
                if !waits || !(complete || force) {
                    continue;
                }
                walk(
                    table,
                    &self.sides,
                    Arc::make_mut(flat),
                    g,
                    force,
                    &fetched,
                    &mut wanted,
                );
            }
            wanted.retain(|w| !fetched.contains_key(w));
            wanted.sort_unstable();
            wanted.dedup();
            if wanted.is_empty() {
                if !force && any_bad(&self.generations) {
                    continue;
                }
                break;
            }
            let Some(source) = self.source.as_ref() else {
                break;
            };
            match read_passes(source.as_ref(), &self.sides, &self.generations, &wanted) {
                Ok(decks) => fetched.extend(decks),
                Err(e) => {
                    self.reread_error.get_or_insert(e);
                    break;
                }
            }
        }
        // A generation whose passes are all checked keeps no opening.
        for gen in Arc::make_mut(&mut self.generations) {
            let Gen::Flat(flat) = gen else {
                continue;
            };
            let done = flat
                .checks()
                .all(|c| matches!(c, Check::Good(_) | Check::Bad(_)))
                && flat.checks().any(|c| matches!(c, Check::Good(Some(_))));
            if done {
                let flat = Arc::make_mut(flat);
                for k in 0..flat.passes() {
                    if let Check::Good(Some(_)) = flat.check(k) {
                        flat.set_check(k, Check::Good(None));
                    }
                }
            }
        }
    }
}

/// A pass of a generation: the generation and the pass's place in it.
type PassAt = (usize, usize);

/// `name`'s pass over deck `g` has no seed opened: the audit's words.
fn not_opened(name: &str, g: usize) -> String {
    format!("{name}'s pass over deck {g} is not opened")
}

/// Check the passes waiting in generation `g`, kept as digests, from its
/// input on: each rebuilt from the deck before it (itself rebuilt, or
/// read again: `fetched`, by generation and pass) and its opening, and
/// compared with its digest. A pass that does not match is audited
/// against its deck read again, to name the fault as the audit names it.
/// The decks still to read again are added to `wanted`; `force`: read
/// again the deck of a pass whose side has not audited, when a pass
/// over it waits. `sides`: the hands' names.
fn walk(
    table: &super::Table,
    sides: &[String],
    flat: &mut Flat,
    g: usize,
    force: bool,
    fetched: &HashMap<PassAt, Deck>,
    wanted: &mut Vec<PassAt>,
) {
    let mut input = Deck::unmasked(table, flat.base, &flat.numbers());
    for k in 0..flat.passes() {
        let published = fetched.get(&(g, k));
        let later_waits = (k + 1..flat.passes()).any(|j| flat.check(j).waiting());
        let name = sides.get(flat.side(k).index()).map_or("?", String::as_str);
        let pass = flat.pass(k, g, name);
        let line = flat.line(k);
        let state = flat.check(k).clone();
        let next = match state {
            Check::Waiting(opening) | Check::Good(Some(opening)) => {
                let was_good = matches!(flat.check(k), Check::Good(_));
                match input.as_ref() {
                    None => {
                        if force && k > 0 {
                            wanted.push((g, k - 1));
                        }
                        None
                    }
                    Some(before) => match rebuild(table, before, &pass, &opening) {
                        Ok(deck) if deck.digest() == Some(flat.digest(k)) => {
                            flat.set_check(k, Check::Good(Some(opening)));
                            Some(deck)
                        }
                        Err(fault) => {
                            let why =
                                format!("{}'s pass over deck {g} ({line}): {fault}", pass.side);
                            flat.set_check(k, Check::Bad(why));
                            if published.is_none() && later_waits {
                                wanted.push((g, k));
                            }
                            published.cloned()
                        }
                        Ok(_) if was_good => None,
                        Ok(_) => match published {
                            Some(deck) => {
                                let read = PublishedPass {
                                    output: deck.clone(),
                                    ..pass.clone()
                                };
                                let fault = audit_pass(table, before, &read, &opening)
                                    .err()
                                    .unwrap_or(AuditFault::Foreign {
                                        position: before.base(),
                                    });
                                flat.set_check(
                                    k,
                                    Check::Bad(format!(
                                        "{}'s pass over deck {g} ({line}): {fault}",
                                        pass.side
                                    )),
                                );
                                Some(deck.clone())
                            }
                            None => {
                                wanted.push((g, k));
                                None
                            }
                        },
                    },
                }
            }
            Check::Good(None) | Check::Unaudited | Check::Bad(_) => {
                if published.is_none()
                    && later_waits
                    && (force || !matches!(flat.check(k), Check::Unaudited))
                {
                    wanted.push((g, k));
                }
                published.cloned()
            }
        };
        input = next;
    }
}

/// The deck a pass publishes over `before` with the seed `opening`
/// opens, if it opens the pass's commitment ([`audit_pass`]'s first
/// check).
fn rebuild(
    table: &super::Table,
    before: &Deck,
    pass: &PublishedPass,
    opening: &SeedOpening,
) -> Result<Deck, AuditFault> {
    let seed = super::shuffle::opened_seed(table, pass, opening)?;
    table.joint().prepare();
    Ok(shuffle(table, before, &seed))
}

/// The decks of the passes `wanted` (by generation and pass), read again
/// from `source`, each checked against the digest kept of it: a record
/// that changed since it was read is refused, not trusted. `sides`: the
/// hands' names.
fn read_passes(
    source: &dyn PassSource,
    sides: &[String],
    generations: &[Gen],
    wanted: &[PassAt],
) -> Result<Vec<(PassAt, Deck)>, String> {
    let asked: Vec<(String, u32)> = wanted
        .iter()
        .map(|&(g, k)| {
            let line = generations[g]
                .flat()
                .filter(|f| k < f.passes())
                .map(|f| f.line(k))
                .unwrap_or_default();
            (line, g as u32)
        })
        .collect();
    let got = source.passes(&asked)?;
    let mut out = Vec::with_capacity(wanted.len());
    for (&(g, k), ((line, _), cards)) in wanted.iter().zip(asked.iter().zip(got)) {
        let Some(flat) = generations[g].flat().filter(|f| k < f.passes()) else {
            continue;
        };
        let side = sides.get(flat.side(k).index()).map_or("?", String::as_str);
        let changed = || {
            format!(
                "the record changed while it was read: {side}'s pass over deck {g} on {line} \
                 is not the one read before (the audit reads past decks again)"
            )
        };
        let cards = cards.ok_or_else(changed)?;
        let deck = Deck::read(flat.base, cards).map_err(|_| changed())?;
        if deck.digest() != Some(flat.digest(k)) {
            return Err(changed());
        }
        out.push(((g, k), deck));
    }
    Ok(out)
}

impl DeckLedger {
    /// Every generation before the last two is kept as its bytes alone
    /// ([`Deck::compact`]): every one of its positions was drawn before
    /// the one before the last began (a reshuffle starts when at most
    /// `2n - 2` cards are left). Only the closing audit reads its decks
    /// whole again, and an opening of a card still held from it reads
    /// that card's `C2` alone: so a game's memory grows by the 64 bytes
    /// a card of each pass, not by the 360 of a decoded card.
    ///
    /// A compacted deck decoded again since (a share of a card still
    /// held from it is checked against its whole ciphertext) is
    /// compacted again here, so that it does not stay decoded.
    fn compact_past(&mut self) {
        let past = self.generations.len().saturating_sub(2);
        if self.source.is_some() {
            for g in 0..past {
                let Some((flat, held)) = self.flatten(g) else {
                    continue;
                };
                Arc::make_mut(&mut self.generations)[g] = Gen::Flat(Arc::new(flat));
                self.past_held.extend(held);
            }
        }
        for gen in &mut Arc::make_mut(&mut self.generations)[..past] {
            let Gen::Whole(gen) = gen else {
                continue;
            };
            let decoded = |d: &Deck| !d.is_compact() && !d.is_empty();
            if gen.compact && !decoded(&gen.input) && !gen.passes.iter().any(|p| decoded(&p.output))
            {
                continue;
            }
            let gen = Arc::make_mut(gen);
            gen.input.compact();
            for pass in &mut gen.passes {
                pass.output.compact();
            }
            gen.compact = true;
        }
    }

    /// Generation `g` kept as digests ([`Flat`]), with the cards of it
    /// still held in a hand, if it can be: not kept so yet, its input's
    /// cards known by number, every pass made and none of its sides
    /// audited yet (a side that left), every deck's cards decoding.
    fn flatten(&self, g: usize) -> Option<(Flat, Vec<Deck>)> {
        let gen = self.generations[g].whole()?;
        let numbers = gen.numbers.as_ref()?;
        if gen.passes.len() != gen.passers.len()
            || gen
                .passers
                .iter()
                .any(|s| self.audited.get(s.index()).copied().unwrap_or(true))
        {
            return None;
        }
        let passes = gen
            .passes
            .iter()
            .zip(&gen.passers)
            .zip(&gen.lines)
            .map(|((p, &side), line)| Some((side, line.as_str(), p.commitment, p.output.digest()?)))
            .collect::<Option<Vec<_>>>()?;
        let last = gen.final_deck()?;
        let mut held = Vec::new();
        for p in gen.input.base()..gen.input.end() {
            let in_hand = self
                .hands
                .drawer(p)
                .is_some_and(|d| self.hands.held(d).contains(&p));
            if in_hand {
                held.push(Deck::single(p, last.card_bytes(p)?));
            }
        }
        let flat = Flat::pack(gen.input.base(), numbers, &passes, self.cards)?;
        Some((flat, held))
    }

    /// A card of a generation kept as digests, opened, is no longer held.
    fn drop_held(&mut self, position: u32) {
        if self.past_held.iter().any(|d| d.base() == position) {
            self.past_held.retain(|d| d.base() != position);
        }
    }

    /// What the ledger keeps of the generations before the last two, in
    /// bytes: their cards (64 bytes a card kept as bytes, more decoded),
    /// and of a generation kept as digests ([`DeckLedger::read_again`]),
    /// all it keeps ([`Flat::held_bytes`]), and the cards of them still
    /// held. What grows with the game's reshuffles.
    pub fn past_bytes(&self) -> usize {
        let past = self.generations.len().saturating_sub(2);
        let kept: usize = self.generations[..past]
            .iter()
            .map(|g| match g {
                Gen::Whole(g) => {
                    g.input.held_bytes()
                        + g.passes
                            .iter()
                            .map(|p| p.output.held_bytes())
                            .sum::<usize>()
                }
                Gen::Flat(f) => f.held_bytes(),
            })
            .sum();
        kept + self.past_held.iter().map(Deck::held_bytes).sum::<usize>()
    }

    /// The cards' bytes the ledger keeps of the generations before the
    /// last two (64 a card kept as bytes, more decoded): of generations
    /// kept as digests, only the cards still held in a hand.
    pub fn past_card_bytes(&self) -> usize {
        let past = self.generations.len().saturating_sub(2);
        let kept: usize = self.generations[..past]
            .iter()
            .filter_map(Gen::whole)
            .map(|g| {
                g.input.held_bytes()
                    + g.passes
                        .iter()
                        .map(|p| p.output.held_bytes())
                        .sum::<usize>()
            })
            .sum();
        kept + self.past_held.iter().map(Deck::held_bytes).sum::<usize>()
    }

    /// For each generation, whether it is kept as its bytes alone (or as
    /// digests).
    #[cfg(test)]
    pub(super) fn compacted(&self) -> Vec<bool> {
        self.generations
            .iter()
            .map(|g| g.whole().is_none_or(|g| g.compact))
            .collect()
    }

    /// For each generation, whether it is kept as digests.
    #[cfg(test)]
    pub(super) fn flattened(&self) -> Vec<bool> {
        self.generations
            .iter()
            .map(|g| g.flat().is_some())
            .collect()
    }

    /// The compacted generations with a deck decoded again since.
    #[cfg(test)]
    pub(super) fn decoded_past(&self) -> Vec<usize> {
        let decoded = |d: &Deck| !d.is_compact() && !d.is_empty();
        (0..self.generations.len())
            .filter(|&g| {
                self.generations[g].whole().is_some_and(|gen| {
                    gen.compact
                        && (decoded(&gen.input) || gen.passes.iter().any(|p| decoded(&p.output)))
                })
            })
            .collect()
    }

    /// The shares of `position`, opened, are dropped: only which sides
    /// gave one is kept.
    fn retire(&mut self, position: u32) {
        let Some(shares) = self.shares.remove(&position) else {
            return;
        };
        let bits = shares
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_some())
            .fold(0u8, |b, (side, _)| {
                b | 1u8.checked_shl(side as u32).unwrap_or(0)
            });
        let at = position as usize;
        let retired = Arc::make_mut(&mut self.retired);
        if retired.len() <= at {
            retired.resize(at + 1, 0);
        }
        retired[at] = bits;
    }
}

/// Whether hand `side` gave its share of `position`, opened since.
fn retired(retired: &[u8], side: Hand, position: u32) -> bool {
    let bit = 1u8.checked_shl(side.index() as u32).unwrap_or(0);
    retired.get(position as usize).is_some_and(|b| b & bit != 0)
}

/// The final deck of `generations` holding `position`, if it is final
/// (of a generation kept as digests, the card alone from `past_held`,
/// while it is held).
fn final_deck<'a>(
    generations: &'a [Gen],
    past_held: &'a [Deck],
    position: u32,
) -> Option<&'a Deck> {
    // The last generations first: the cards drawn and shared now.
    for g in generations.iter().rev() {
        if let Some(g) = g.whole() {
            if (g.input.base()..g.input.end()).contains(&position) {
                return g.final_deck();
            }
        }
    }
    past_held.iter().find(|d| d.base() == position)
}

/// Every share of `position`, with its side's name.
fn shares_of<'a>(
    shares: &'a BTreeMap<u32, Arc<Vec<Option<Share>>>>,
    sides: &'a [String],
    position: u32,
) -> Vec<(&'a str, &'a Share)> {
    shares
        .get(&position)
        .map(|v| {
            v.iter()
                .enumerate()
                .filter_map(|(s, sh)| sh.as_ref().map(|sh| (sides[s].as_str(), sh)))
                .collect()
        })
        .unwrap_or_default()
}
