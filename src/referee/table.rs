//! The cards on the table in a game with a shared deck of hidden hands
//! (spec section 3.9): the deck's ledger, which hand each side draws
//! into and who holds it, the turn a card opened to no card of the game,
//! and the farewell lines owed. The referee holds one [`Table`] and
//! keeps the line protocol; the table keeps its own invariants:
//!
//! - every side (a [`Seat`]) draws into one hand (a [`Hand`], the
//!   deck's side), and every hand is held by one of the sides that draw
//!   into it (its first in header order); hands are numbered in the
//!   header order of their holders, as the deck numbers its players;
//! - a side owes at most one farewell line at a time;
//! - a line changes the deck through a [`Pending`] change, tried on a
//!   copy of the ledger alone and then kept ([`Table::keep`]) or dropped:
//!   a line refused leaves the table as it was.

use super::deck::{DeckLedger, Hand};
use super::farewell::Farewell;
use super::header::Seat;

/// The card state of a game: none in a game without a shared deck.
#[derive(Clone, Debug, Default)]
pub(super) struct Table {
    /// The shared deck of hidden hands, in a game that has one.
    deck: Option<DeckLedger>,
    /// The deck's hands' holders, by [`Hand::index`] (so in header
    /// order).
    hands: Vec<Seat>,
    /// Each side's hand, by [`Seat::index`].
    holders: Vec<Hand>,
    /// The turn whose line opened a card of the shared deck to no card of
    /// the game, once one did: play stopped there for the audit.
    broken_on: Option<u32>,
    /// The farewell lines owed by sides put out on another hand's line,
    /// in the turn order before they were put out.
    farewells: Vec<Farewell>,
}

/// A line's change to the deck, tried before it is kept: a copy of the
/// ledger alone (not of the referee), which the line's items go into.
/// Dropped when the line is refused; [`Table::keep`] makes it the deck.
/// The copy shares the ledger's lists and copies one only when the line
/// changes it ([`DeckLedger`]): a copy a line costs the same however
/// long the game, and the table's ledger is never touched by the line.
#[derive(Debug)]
pub(super) struct Pending {
    deck: DeckLedger,
}

impl Pending {
    /// The deck, for the line's items to go into.
    pub(super) fn deck_mut(&mut self) -> &mut DeckLedger {
        &mut self.deck
    }
}

impl Table {
    /// The table of a game whose sides (by [`Seat::index`]) draw into
    /// the hands `holders` names, each hand held by the side `hands`
    /// names (by [`Hand::index`]), dealt from `deck` if the game has one.
    /// Refused, with the reason, when a side draws into no hand, or a
    /// hand's holder does not draw into it.
    pub(super) fn new(
        deck: Option<DeckLedger>,
        hands: Vec<Seat>,
        holders: Vec<Hand>,
    ) -> Result<Table, String> {
        if let Some(i) = holders.iter().position(|h| h.index() >= hands.len()) {
            return Err(format!(
                "side {i} draws into hand {}, but there are {} hands",
                holders[i].index(),
                hands.len()
            ));
        }
        for (h, holder) in Hand::all(hands.len()).zip(hands.iter().map(|s| s.index())) {
            let i = h.index();
            if holders.get(holder) != Some(&h) {
                return Err(format!(
                    "hand {i} is held by side {holder}, which does not draw into it"
                ));
            }
            if holders.iter().position(|&x| x == h) != Some(holder) {
                return Err(format!(
                    "hand {i} is held by side {holder}, not by the first side that draws into it"
                ));
            }
        }
        Ok(Table {
            deck,
            hands,
            holders,
            broken_on: None,
            farewells: Vec::new(),
        })
    }

    /// Whether the game deals hidden hands from a shared deck.
    pub(super) fn has_deck(&self) -> bool {
        self.deck.is_some()
    }

    /// The shared deck, if the game has one.
    pub(super) fn deck(&self) -> Option<&DeckLedger> {
        self.deck.as_ref()
    }

    /// The deck's hand that side `seat` draws into and plays from (its
    /// own, unless it shares its holder's).
    pub(super) fn hand_of(&self, seat: Seat) -> Hand {
        self.holders
            .get(seat.index())
            .copied()
            .unwrap_or(Hand::at(seat.index()))
    }

    /// The hand side `seat` holds, if it is a hand's holder.
    pub(super) fn holds_hand(&self, seat: Seat) -> Option<Hand> {
        let hand = self.hand_of(seat);
        (self.holder(hand) == Some(seat)).then_some(hand)
    }

    /// The holder of hand `hand`, if there is one.
    pub(super) fn holder(&self, hand: Hand) -> Option<Seat> {
        self.hands.get(hand.index()).copied()
    }

    /// The holder of the hand side `seat` plays from.
    pub(super) fn holder_of(&self, seat: Seat) -> Seat {
        self.holder(self.hand_of(seat)).unwrap_or(seat)
    }

    /// Under protocol 3, the order the hands pass over the first deck:
    /// their holders' order in `seats`.
    pub(super) fn set_first_passers(&mut self, seats: impl IntoIterator<Item = Seat>) {
        let order: Vec<Hand> = seats
            .into_iter()
            .filter_map(|seat| self.holds_hand(seat))
            .collect();
        if let Some(deck) = self.deck.as_mut() {
            deck.set_first_passers(order);
        }
    }

    /// The change a line makes to the deck, begun: `None` in a game
    /// without one.
    pub(super) fn pending(&self) -> Option<Pending> {
        self.deck.clone().map(|deck| Pending { deck })
    }

    /// Keep the change a line made to the deck, once the line is played.
    pub(super) fn keep(&mut self, pending: Pending) {
        self.deck = Some(pending.deck);
    }

    /// The turn whose line opened a card to no card of the game, once
    /// one did.
    pub(super) fn broken_on(&self) -> Option<u32> {
        self.broken_on
    }

    /// Turn `turn` opened a card to no card of the game: play stops for
    /// the audit. The first such turn is the one kept.
    pub(super) fn broke_on(&mut self, turn: u32) {
        self.broken_on.get_or_insert(turn);
    }

    /// The farewell lines owed, in the order they come.
    pub(super) fn farewells(&self) -> &[Farewell] {
        &self.farewells
    }

    /// Whether side `seat` owes a farewell line.
    pub(super) fn owes_farewell(&self, seat: Seat) -> bool {
        self.farewells.iter().any(|f| f.side() == seat)
    }

    /// Side `farewell.side()` owes a farewell line, unless it owes one
    /// already (a side owes one at a time): whether it was added.
    pub(super) fn owe_farewell(&mut self, farewell: Farewell) -> bool {
        if self.owes_farewell(farewell.side()) {
            return false;
        }
        self.farewells.push(farewell);
        true
    }

    /// Side `seat` owes no farewell line any more (it wrote it, or its
    /// forfeit was claimed).
    pub(super) fn settle_farewell(&mut self, seat: Seat) {
        self.farewells.retain(|f| f.side() != seat);
    }

    /// The game is over: no farewell line is owed.
    pub(super) fn clear_farewells(&mut self) {
        self.farewells.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ledger(sides: &[&str]) -> DeckLedger {
        DeckLedger::new([7; 32], 34, 3, sides)
    }

    /// Seats by their indices, as a header would make them.
    fn seats(indices: &[u8]) -> Vec<Seat> {
        indices.iter().map(|&i| Seat::test(i)).collect()
    }

    /// Hands by their indices, as the table numbers them.
    fn hands(indices: &[usize]) -> Vec<Hand> {
        indices.iter().map(|&i| Hand::at(i)).collect()
    }

    /// Four sides, two hands: North holds its own and South's, East its
    /// own and West's.
    fn shared() -> Table {
        Table::new(
            Some(ledger(&["North", "East"])),
            seats(&[0, 1]),
            hands(&[0, 1, 0, 1]),
        )
        .unwrap()
    }

    #[test]
    fn table_hand_of_each_side_and_its_holder() {
        let table = shared();
        let [north, east, south, west] = [0, 1, 2, 3].map(Seat::test);
        let [norths, easts] = [0, 1].map(Hand::at);
        assert_eq!(
            [north, east, south, west].map(|s| table.hand_of(s)),
            [norths, easts, norths, easts]
        );
        assert_eq!(table.holds_hand(north), Some(norths));
        assert_eq!(table.holds_hand(east), Some(easts));
        // South plays from North's hand and holds none.
        assert_eq!(table.holds_hand(south), None);
        assert_eq!(table.holder_of(south), north);
        assert_eq!(table.holder_of(west), east);
        assert_eq!(table.holder(Hand::at(2)), None);
    }

    #[test]
    fn table_hand_of_every_seat_is_held_by_a_seat_that_draws_into_it() {
        // The invariant, for every table `new` takes among these: each
        // side's hand's holder draws into that hand, holds it, and comes
        // first in header order among the sides that draw into it.
        let tables = [
            (seats(&[0, 1]), hands(&[0, 1])),
            (seats(&[0, 1]), hands(&[0, 1, 0, 1])),
            (seats(&[0, 2]), hands(&[0, 0, 1, 1])),
            (seats(&[0]), hands(&[0, 0, 0])),
        ];
        for (holders_of_hands, hands_of_seats) in tables {
            let n = hands_of_seats.len();
            let table = Table::new(None, holders_of_hands, hands_of_seats).unwrap();
            for seat in (0..n as u8).map(Seat::test) {
                let holder = table.holder_of(seat);
                assert_eq!(table.hand_of(holder), table.hand_of(seat));
                assert_eq!(table.holds_hand(holder), Some(table.hand_of(seat)));
                assert!(holder <= seat, "{seat:?} is held by {holder:?}");
                assert_eq!(table.holds_hand(seat).is_some(), holder == seat, "{seat:?}");
            }
        }
    }

    #[test]
    fn table_refuses_a_side_drawing_into_no_hand() {
        let e = Table::new(None, seats(&[0]), hands(&[0, 1])).unwrap_err();
        assert_eq!(e, "side 1 draws into hand 1, but there are 1 hands");
    }

    #[test]
    fn table_refuses_a_holder_that_does_not_draw_into_its_hand() {
        let e = Table::new(None, seats(&[0, 0]), hands(&[0, 1])).unwrap_err();
        assert_eq!(e, "hand 1 is held by side 0, which does not draw into it");
    }

    #[test]
    fn table_refuses_a_holder_after_another_side_of_its_hand() {
        // Sides 0 and 1 draw into hand 0; side 1 holds it.
        let e = Table::new(None, seats(&[1]), hands(&[0, 0])).unwrap_err();
        assert_eq!(
            e,
            "hand 0 is held by side 1, not by the first side that draws into it"
        );
    }

    #[test]
    fn table_without_a_deck_has_no_pending_change() {
        let table = Table::new(None, seats(&[0, 1]), hands(&[0, 1])).unwrap();
        assert!(!table.has_deck());
        assert!(table.pending().is_none());
    }

    #[test]
    fn table_first_passers_are_the_holders_in_the_order_given() {
        // Protocol 3: West, South, East, North open in that order; the
        // hands pass as their holders come (East's, then North's), the
        // sides that hold none passed over.
        let mut table = shared();
        table.set_first_passers([3, 2, 1, 0].map(Seat::test));
        let mut deck = table.deck().unwrap().clone();
        for (hand, name) in [(1, "East"), (0, "North")] {
            let secret = super::super::deck::CardSecret::derive(&[hand as u8; 32], &[7; 32], name);
            let key = secret.public().to_bytes();
            deck.give_key(Hand::at(hand), &key, secret.prove().to_bytes())
                .unwrap();
        }
        assert_eq!(deck.pass_due(Hand::at(1)), Some(0));
        assert_eq!(deck.pass_due(Hand::at(0)), None);
    }

    #[test]
    fn table_pending_change_dropped_leaves_the_deck_as_it_was() {
        let table = shared();
        let mut pending = table.pending().unwrap();
        pending.deck_mut().begin_play(&hands(&[0, 1]));
        assert_eq!(pending.deck_mut().order(), hands(&[0, 1]));
        drop(pending);
        assert!(table.deck().unwrap().order().is_empty());
    }

    #[test]
    fn table_pending_change_kept_is_the_deck() {
        let mut table = shared();
        let mut pending = table.pending().unwrap();
        pending.deck_mut().begin_play(&hands(&[1, 0]));
        table.keep(pending);
        assert_eq!(table.deck().unwrap().order(), hands(&[1, 0]));
    }

    #[test]
    fn table_a_side_owes_one_farewell_at_a_time() {
        let mut table = shared();
        let (two, three) = (Seat::test(2), Seat::test(3));
        assert!(table.owe_farewell(Farewell::new(two, 5, vec![three], 0)));
        assert!(!table.owe_farewell(Farewell::new(two, 6, vec![], 0)));
        assert_eq!(table.farewells().len(), 1);
        assert_eq!(table.farewells()[0].on(), 5);
        assert!(table.owe_farewell(Farewell::new(three, 6, vec![], 0)));
        table.settle_farewell(two);
        assert!(!table.owes_farewell(two));
        assert!(table.owes_farewell(three));
        table.clear_farewells();
        assert!(table.farewells().is_empty());
    }

    #[test]
    fn table_broken_on_keeps_the_first_turn() {
        let mut table = shared();
        assert_eq!(table.broken_on(), None);
        table.broke_on(7);
        table.broke_on(9);
        assert_eq!(table.broken_on(), Some(7));
    }
}
