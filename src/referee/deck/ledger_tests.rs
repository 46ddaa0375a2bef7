//! Tests of [`DeckLedger`]: whole games line by line as the referee
//! plays them, and the faults it names (a pass that duplicates a card,
//! a card opened that was never drawn, a share whose proof fails, a
//! reshuffle pass that drops a card, a draw without its shares).

use std::collections::HashMap;
use std::sync::Arc;

use super::*;
use crate::fairness::{game_id, Hash};

const SIDES: [&str; 2] = ["South", "North"];

fn game() -> Hash {
    game_id([("Game", "battlegates"), ("Nonce", "ledger-tests")])
}

/// The hand a test numbers `side` (0 South, 1 North).
fn h(side: usize) -> Hand {
    Hand::at(side)
}

fn raw(side: usize) -> Hash {
    [side as u8 + 1; 32]
}

fn salt(side: usize, generation: u32) -> Hash {
    [(side as u8) << 4 | generation as u8; 32]
}

fn secret(side: usize) -> CardSecret {
    CardSecret::derive(&raw(side), &game(), SIDES[side])
}

fn seed(side: usize, generation: u32) -> ShuffleSeed {
    ShuffleSeed::derive(&raw(side), &game(), SIDES[side], generation)
}

/// A pass as a line would carry it, made honestly or altered by `edit`.
type Edit<'a> = &'a dyn Fn(&mut Vec<(u32, [u8; 64])>);

fn pass(ledger: &mut DeckLedger, side: usize, edit: Edit<'_>) -> Result<(), String> {
    pass_with(ledger, side, None, edit)
}

/// A pass whose card at offset `at` is the card the seed puts at `at -
/// 1`, masked as the seed masks offset `at`: a duplicated card that
/// only the audit's recomputation can tell.
fn duplicating_pass(ledger: &mut DeckLedger, side: usize, at: usize) -> Result<(), String> {
    pass_with(ledger, side, Some(at), &honest)
}

fn pass_with(
    ledger: &mut DeckLedger,
    side: usize,
    duplicate: Option<usize>,
    edit: Edit<'_>,
) -> Result<(), String> {
    let (g, input) = ledger.pass_input(h(side)).expect("a pass is due");
    let input = input.clone();
    let s = seed(side, g);
    let table = ledger.table().unwrap();
    let mut out = shuffle(table, &input, &s);
    if let Some(at) = duplicate {
        let perm = s.permutation(input.len() as u32);
        let mut cards = out.cards().to_vec();
        cards[at] = input.cards()[perm[at - 1] as usize].remask(&s.mask(at as u32), table.joint());
        out = Deck::from_cards(input.base(), cards);
    }
    let mut cards: Vec<(u32, [u8; 64])> = out
        .cards()
        .iter()
        .enumerate()
        .map(|(j, c)| (out.base() + j as u32, c.to_bytes()))
        .collect();
    edit(&mut cards);
    PUBLISHED.with(|p| {
        let line = pass_line(side, g);
        let cards = cards.iter().map(|(_, c)| *c).collect();
        p.borrow_mut().insert((line, g), cards);
    });
    let commitment = s.commitment(&game(), SIDES[side], g, &salt(side, g));
    // The line each pass comes in, as a game would number it: the
    // first deck's on set-up lines S3 and S4, a reshuffle's on turns.
    ledger.give_pass(h(side), g, commitment, &cards, &pass_line(side, g))
}

/// The line `side`'s pass over deck `g` comes in, as a game would number
/// it: the first deck's on set-up lines S3 and S4, a reshuffle's on
/// turns.
fn pass_line(side: usize, g: u32) -> String {
    if g == 0 {
        format!("line S{}", 3 + side)
    } else {
        format!("turn {}", 10 + side)
    }
}

/// Passes' cards by line and generation.
type Passes = HashMap<(String, u32), Vec<[u8; 64]>>;

thread_local! {
    /// Every pass made on this thread, as published: by its line and
    /// generation (what a record read again gives).
    static PUBLISHED: std::cell::RefCell<Passes> = std::cell::RefCell::new(HashMap::new());
}

/// The passes as published ([`PUBLISHED`]) read again: the record the
/// ledger read, or, `changed`, one whose every pass's first card is
/// another. Counts the reads.
#[derive(Debug, Default)]
struct ReadAgain {
    changed: bool,
    reads: std::sync::atomic::AtomicUsize,
}

impl PassSource for ReadAgain {
    fn passes(&self, wanted: &[(String, u32)]) -> Result<Vec<Option<Vec<[u8; 64]>>>, String> {
        self.reads.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(PUBLISHED.with(|p| {
            let p = p.borrow();
            wanted
                .iter()
                .map(|w| {
                    let mut cards = p.get(w).cloned()?;
                    if self.changed {
                        cards.swap(0, 1);
                    }
                    Some(cards)
                })
                .collect()
        }))
    }
}

/// [`set_up`], past generations kept as digests, read again from
/// `source`.
fn set_up_reading(first: usize, source: &Arc<ReadAgain>) -> DeckLedger {
    let mut ledger = DeckLedger::new(game(), 34, 3, &SIDES);
    ledger.read_again(source.clone());
    set_up_on(ledger, first, share)
}

fn honest(_: &mut Vec<(u32, [u8; 64])>) {}

fn share(ledger: &mut DeckLedger, side: usize, position: u32) -> Result<(), String> {
    let deck = ledger.deck_of(position).expect("a final deck").clone();
    let sh = secret(side).share(&deck, position).unwrap();
    ledger.give_share(h(side), position, &sh.point_bytes(), sh.proof_bytes())
}

/// A share given as a replay gives it: unverified, its check kept for
/// a batch (dropped here, for a line the digest vouches for).
fn share_unverified(ledger: &mut DeckLedger, side: usize, position: u32) -> Result<(), String> {
    let deck = ledger.deck_of(position).expect("a final deck").clone();
    let sh = secret(side).share(&deck, position).unwrap();
    ledger
        .give_share_unverified(h(side), position, &sh.point_bytes(), sh.proof_bytes())
        .map(|_| ())
}

type Give = fn(&mut DeckLedger, usize, u32) -> Result<(), String>;

fn give_owed_with(ledger: &mut DeckLedger, side: usize, owed: Vec<u32>, give: Give) {
    for p in owed {
        give(ledger, side, p).unwrap();
    }
}

/// Keys, both passes over the first deck, play begun with `first` to
/// move, and the shares owed before turn 1.
fn set_up(first: usize) -> DeckLedger {
    set_up_with(first, false, share)
}

/// [`set_up`], every line vouched for by a record digest or not, the
/// shares given by `give`.
fn set_up_with(first: usize, vouched: bool, give: Give) -> DeckLedger {
    let mut ledger = DeckLedger::new(game(), 34, 3, &SIDES);
    ledger.vouch(vouched);
    set_up_on(ledger, first, give)
}

/// `ledger` set up as [`set_up`] says: keys, both passes over the first
/// deck, play begun with `first` to move, the shares owed given by `give`.
fn set_up_on(mut ledger: DeckLedger, first: usize, give: Give) -> DeckLedger {
    for side in 0..2 {
        let s = secret(side);
        let key = s.public().to_bytes();
        ledger
            .give_key(h(side), &key, s.prove().to_bytes())
            .unwrap();
    }
    for side in 0..2 {
        pass(&mut ledger, side, &honest).unwrap();
    }
    ledger.begin_play(&[h(first), h(1 - first)]);
    for side in 0..2 {
        let owed = ledger.owed_before_play(h(side));
        give_owed_with(&mut ledger, side, owed, give);
    }
    ledger
}

/// One turn of `side`: a reshuffle if due, the draw, a pass if due, a
/// card opened (the lowest position held), the shares owed.
fn turn(ledger: &mut DeckLedger, side: usize) -> u32 {
    turn_with(ledger, side, share)
}

/// [`turn`], the shares given by `give`.
fn turn_with(ledger: &mut DeckLedger, side: usize, give: Give) -> u32 {
    ledger.reshuffle_if_due(h(side));
    let drawn = ledger.draw(h(side)).unwrap();
    for p in &drawn {
        ledger.peek(&secret(side), *p).unwrap();
    }
    if ledger.pass_due(h(side)).is_some() {
        pass(ledger, side, &honest).unwrap();
    }
    let played = ledger.held(h(side))[0];
    give(ledger, side, played).unwrap();
    let card = ledger.open(h(side), played).unwrap().unwrap();
    // The sides take turns strictly in order: the round after `side`.
    let order = ledger.order().to_vec();
    let i = order.iter().position(|&s| s == h(side)).unwrap();
    let round: Vec<Hand> = (1..=order.len())
        .map(|k| order[(i + k) % order.len()])
        .collect();
    let owed = ledger.owed_on_turn(h(side), &round);
    give_owed_with(ledger, side, owed, give);
    card
}

/// Both sides' audits of `ledger`, each with its own openings, pass.
fn both_audits_pass(ledger: &mut DeckLedger) {
    for side in 0..2 {
        let o = openings(ledger, side);
        assert_eq!(ledger.audit(h(side), &o), Ok(()), "side {side}");
    }
}

fn openings(ledger: &DeckLedger, side: usize) -> Vec<(u32, SeedOpening)> {
    ledger
        .passed(h(side))
        .into_iter()
        .map(|g| {
            let opening = SeedOpening {
                value: seed(side, g).value(),
                salt: salt(side, g),
            };
            (g, opening)
        })
        .collect()
}

#[test]
fn an_honest_decks_opened_card_is_among_the_cards_its_opening_compares_first() {
    // An opening looks for its card among the cards of its deck not
    // opened yet first (`Table::card_index_among`), then among every
    // card: through reshuffles, an honest deck's card is always among
    // the first, which are fewer than the deck's cards once some are
    // opened.
    let mut ledger = set_up(0);
    let mut shorter = 0;
    for t in 0..150 {
        let side = t % 2;
        ledger.reshuffle_if_due(h(side));
        ledger.draw(h(side)).unwrap();
        if ledger.pass_due(h(side)).is_some() {
            pass(&mut ledger, side, &honest).unwrap();
        }
        let played = ledger.held(h(side))[0];
        share(&mut ledger, side, played).unwrap();
        let likely = ledger.likely_cards(played);
        let card = ledger.open(h(side), played).unwrap().unwrap();
        assert!(likely.contains(&card), "turn {t}: {card} not in {likely:?}");
        if likely.len() < 20 {
            shorter += 1;
        }
        let order = ledger.order().to_vec();
        let i = order.iter().position(|&s| s == h(side)).unwrap();
        let round: Vec<Hand> = (1..=order.len())
            .map(|k| order[(i + k) % order.len()])
            .collect();
        let owed = ledger.owed_on_turn(h(side), &round);
        give_owed_with(&mut ledger, side, owed, share);
    }
    assert!(ledger.compacted().iter().filter(|&&c| c).count() >= 3);
    assert!(
        shorter > 75,
        "{shorter} openings compared fewer than 20 cards first"
    );
    both_audits_pass(&mut ledger);
}

#[test]
fn a_ledger_plays_a_forty_turn_game_through_a_reshuffle_and_audits_it() {
    for first in 0..2 {
        let mut ledger = set_up(first);
        let mut seen = Vec::new();
        for t in 0..40 {
            seen.push(turn(&mut ledger, (first + t) % 2));
        }
        assert!(ledger.passed(h(0)).contains(&1), "the game reshuffled");
        // The first 34 cards opened are distinct cards of the deck.
        let mut first_deck: Vec<u32> = seen[..34.min(seen.len())].to_vec();
        first_deck.sort_unstable();
        first_deck.dedup();
        assert!(first_deck.len() >= 30);
        both_audits_pass(&mut ledger);
    }
}

#[test]
fn a_vouched_stretch_opens_the_same_cards_and_audits_the_same() {
    // The first 25 turns as `move --key` replays the lines its key
    // file's digest vouches for: passes kept as bytes, shares neither
    // decoded nor verified; then 15 turns checked as always.
    let mut plain = set_up(0);
    let mut vouched = set_up(0);
    vouched.vouch(true);
    let mut seen = (Vec::new(), Vec::new());
    for t in 0..40 {
        if t == 25 {
            vouched.vouch(false);
        }
        seen.0.push(turn(&mut plain, t % 2));
        seen.1
            .push(turn_with(&mut vouched, t % 2, share_unverified));
    }
    assert!(vouched.passed(h(0)).contains(&1), "the game reshuffled");
    assert_eq!(seen.0, seen.1);
    both_audits_pass(&mut vouched);
}

#[test]
fn the_first_mover_draws_its_hand_dealt_round_and_a_card_after_the_hands() {
    let mut ledger = set_up(1);
    // North moves first: positions 0, 2, 4 and the first after the
    // hands, 6; South then 1, 3, 5 and 7; then 8.
    assert_eq!(ledger.next_draws(h(1)), vec![0, 2, 4, 6]);
    assert_eq!(ledger.owed_before_play(h(0)), Vec::<u32>::new());
    turn(&mut ledger, 1);
    assert_eq!(ledger.next_draws(h(0)), vec![1, 3, 5, 7]);
    turn(&mut ledger, 0);
    assert_eq!(ledger.next_draws(h(1)), vec![8]);
}

#[test]
fn a_player_cannot_see_the_card_another_drew() {
    let mut ledger = set_up(0);
    turn(&mut ledger, 0);
    let held = ledger.held(h(0))[0];
    assert!(ledger.peek(&secret(1), held).is_err());
}

#[test]
fn the_audit_names_the_side_whose_pass_duplicates_a_card() {
    let mut ledger = DeckLedger::new(game(), 34, 3, &SIDES);
    for side in 0..2 {
        let s = secret(side);
        let key = s.public().to_bytes();
        ledger
            .give_key(h(side), &key, s.prove().to_bytes())
            .unwrap();
    }
    pass(&mut ledger, 0, &honest).unwrap();
    duplicating_pass(&mut ledger, 1, 5).unwrap();
    let o = openings(&ledger, 0);
    ledger.audit(h(0), &o).unwrap();
    assert_eq!(
        {
            let o = openings(&ledger, 1);
            ledger.audit(h(1), &o).unwrap_err()
        },
        "North's pass over deck 0 (line S4): deck position 5 holds the same card as position 4: \
         a card was duplicated and another dropped"
    );
}

#[test]
fn a_card_never_drawn_or_in_another_hand_or_opened_before_cannot_be_opened() {
    let mut ledger = set_up(0);
    turn(&mut ledger, 0);
    assert_eq!(
        ledger.open(h(0), 30).unwrap_err(),
        "deck position 30 was never drawn"
    );
    // North's card, claimed by South; South's card opened twice.
    turn(&mut ledger, 1);
    let south = ledger.held(h(0))[0];
    share(&mut ledger, 0, south).unwrap();
    ledger.open(h(0), south).unwrap();
    assert_eq!(
        ledger.open(h(0), south).unwrap_err(),
        format!("the card at deck position {south} was opened before")
    );
    let north = ledger.held(h(1))[0];
    assert_eq!(
        ledger.open(h(0), north).unwrap_err(),
        format!("deck position {north} is in North's hand")
    );
}

#[test]
fn a_share_whose_proof_fails_is_refused_naming_its_side() {
    let mut ledger = set_up(0);
    let deck = ledger.deck_of(7).unwrap().clone();
    let sh = secret(1).share(&deck, 7).unwrap();
    let mut proof = sh.proof_bytes();
    proof[40] ^= 1;
    assert_eq!(
        ledger
            .give_share(h(1), 7, &sh.point_bytes(), proof)
            .unwrap_err(),
        "North's share for deck position 7 does not verify against North's card key"
    );
    // South's share given as North's.
    let south = secret(0).share(&deck, 7).unwrap();
    assert_eq!(
        ledger
            .give_share(h(1), 7, &south.point_bytes(), south.proof_bytes())
            .unwrap_err(),
        "North's share for deck position 7 does not verify against North's card key"
    );
}

#[test]
fn a_draw_without_every_other_sides_share_is_refused() {
    let mut ledger = set_up(0);
    turn(&mut ledger, 0);
    // North's draw of 1, 3, 5, 7 has South's shares; 9 is two turns on.
    let mut bare = set_up(0);
    bare.draw(h(0)).unwrap();
    assert_eq!(
        bare.draw(h(1)).unwrap_err(),
        "North draws deck position 1, but South's share of it is missing"
    );
    ledger.draw(h(1)).unwrap();
}

#[test]
fn the_audit_names_the_side_whose_reshuffle_pass_drops_a_card() {
    let mut ledger = set_up(0);
    let mut t = 0;
    // Play up to the reshuffle's first pass, made by the writer whose
    // line begins with at most two undrawn cards.
    let cheat = loop {
        let side = t % 2;
        if let Some(g) = ledger.reshuffle_if_due(h(side)) {
            assert_eq!(g, 1);
            break side;
        }
        turn(&mut ledger, side);
        t += 1;
    };
    ledger.draw(h(cheat)).unwrap();
    duplicating_pass(&mut ledger, cheat, 1).unwrap();
    let other = 1 - cheat;
    let o = openings(&ledger, other);
    ledger.audit(h(other), &o).unwrap();
    let o = openings(&ledger, cheat);
    let err = ledger.audit(h(cheat), &o).unwrap_err();
    assert!(
        err.starts_with(&format!(
            "{}'s pass over deck 1 (turn {}): deck position ",
            SIDES[cheat],
            10 + cheat
        )) && err.ends_with("a card was duplicated and another dropped"),
        "{err}"
    );
}

#[test]
fn a_pass_at_the_wrong_positions_or_out_of_turn_is_refused() {
    let mut ledger = DeckLedger::new(game(), 34, 3, &SIDES);
    for side in 0..2 {
        let s = secret(side);
        let key = s.public().to_bytes();
        ledger
            .give_key(h(side), &key, s.prove().to_bytes())
            .unwrap();
    }
    assert_eq!(
        pass(&mut ledger, 0, &|cards| cards[3].0 = 9).unwrap_err(),
        "South's pass over deck 0 lists deck position 9 where position 3 is due"
    );
    assert_eq!(
        pass(&mut ledger, 0, &|cards| {
            cards.pop();
        })
        .unwrap_err(),
        "South's pass over deck 0 has 33 cards, but the deck has 34"
    );
    assert!(ledger.pass_due(h(1)).is_none());
    pass(&mut ledger, 0, &honest).unwrap();
    assert_eq!(ledger.pass_due(h(1)), Some(0));
}

#[test]
fn a_key_whose_proof_fails_or_given_twice_is_refused() {
    let mut ledger = DeckLedger::new(game(), 34, 3, &SIDES);
    let s = secret(0);
    let key = s.public().to_bytes();
    let proof = secret(1).prove().to_bytes();
    assert_eq!(
        ledger.give_key(h(0), &key, proof).unwrap_err(),
        "South's card key proof does not verify: South did not show it knows the secret"
    );
    ledger.give_key(h(0), &key, s.prove().to_bytes()).unwrap();
    assert_eq!(
        ledger
            .give_key(h(0), &key, s.prove().to_bytes())
            .unwrap_err(),
        "South gave its card key before"
    );
}

#[test]
fn an_opened_card_keeps_its_drawer_and_its_shares_given_are_still_refused_again() {
    // Once opened, a position's shares are dropped from the ledger (no
    // later line needs them): what they were still answers.
    let mut ledger = set_up(0);
    turn(&mut ledger, 0);
    turn(&mut ledger, 1);
    let south = ledger.held(h(0))[0];
    share(&mut ledger, 0, south).unwrap();
    ledger.open(h(0), south).unwrap();
    assert_eq!(ledger.drawer(south), Some(h(0)));
    assert!(!ledger.held(h(0)).contains(&south));
    assert!(ledger.has_share(h(0), south) && ledger.has_share(h(1), south));
    assert_eq!(
        share(&mut ledger, 1, south).unwrap_err(),
        format!("North gave its share for deck position {south} before")
    );
    assert_eq!(
        ledger.open(h(1), south).unwrap_err(),
        format!("deck position {south} is in South's hand")
    );
    assert_eq!(
        ledger.open(h(0), south).unwrap_err(),
        format!("the card at deck position {south} was opened before")
    );
}

/// [`turn_with`], the card opened as a line a record digest vouches for
/// opens it ([`DeckLedger::open_vouched`]) where the ledger allows it:
/// `None` for a card not decrypted.
fn turn_vouched(ledger: &mut DeckLedger, side: usize, give: Give) -> Option<u32> {
    ledger.reshuffle_if_due(h(side));
    let drawn = ledger.draw(h(side)).unwrap();
    for p in &drawn {
        ledger.peek(&secret(side), *p).unwrap();
    }
    if ledger.pass_due(h(side)).is_some() {
        pass(ledger, side, &honest).unwrap();
    }
    let played = ledger.held(h(side))[0];
    give(ledger, side, played).unwrap();
    let card = if ledger.opens_vouched(h(side), played) {
        ledger.open_vouched(h(side), played).unwrap();
        None
    } else {
        Some(ledger.open(h(side), played).unwrap().unwrap())
    };
    let order = ledger.order().to_vec();
    let i = order.iter().position(|&s| s == h(side)).unwrap();
    let round: Vec<Hand> = (1..=order.len())
        .map(|k| order[(i + k) % order.len()])
        .collect();
    let owed = ledger.owed_on_turn(h(side), &round);
    give_owed_with(ledger, side, owed, give);
    card
}

#[test]
fn a_card_opened_on_a_vouched_line_is_decrypted_only_when_the_reshuffle_needs_it() {
    // The first 25 turns open their cards as `move --key` does on lines
    // its key file's digest vouches for: not decrypted, the discard
    // pile keeping what opening each takes. The deck reshuffled from
    // that pile must be the one the decrypted cards make: the cards
    // opened from it, and the audit of every pass over it, the same.
    let mut plain = set_up(0);
    let mut vouched = set_up_with(0, true, share_unverified);
    let mut sealed = 0;
    for t in 0..40 {
        if t == 25 {
            vouched.vouch(false);
        }
        let card = turn(&mut plain, t % 2);
        match turn_vouched(&mut vouched, t % 2, share_unverified) {
            Some(opened) => assert_eq!(opened, card, "turn {t}"),
            None => {
                assert!(t < 25, "turn {t} is not vouched for");
                sealed += 1;
            }
        }
    }
    assert_eq!(sealed, 25);
    assert!(vouched.passed(h(0)).contains(&1), "the game reshuffled");
    for position in 34..40 {
        assert_eq!(vouched.deck_of(position), plain.deck_of(position));
    }
    both_audits_pass(&mut vouched);
}

#[test]
fn a_card_whose_share_is_not_vouched_for_is_never_opened_undecrypted() {
    // A share verified as it came (not on a vouched line): the card it
    // opens is decrypted, even while the ledger is told lines are vouched.
    let mut ledger = set_up(0);
    ledger.vouch(true);
    ledger.reshuffle_if_due(h(0));
    ledger.draw(h(0)).unwrap();
    let played = ledger.held(h(0))[0];
    share(&mut ledger, 0, played).unwrap();
    assert!(!ledger.opens_vouched(h(0), played));
    let err = ledger.open_vouched(h(0), played).unwrap_err();
    assert!(err.contains("without its shares checked"), "{err}");
    // Nor a position nobody drew.
    assert!(!ledger.opens_vouched(h(0), 33));
}

#[test]
fn past_generations_are_kept_as_their_bytes_and_the_audit_still_passes() {
    // 150 turns, several reshuffles: every generation before the last
    // two is kept as its 64 bytes a card (the memory of a long game);
    // the audit decodes each in a copy, passes, and leaves it so.
    let mut ledger = set_up(0);
    for t in 0..150 {
        turn(&mut ledger, t % 2);
    }
    let kept = ledger.compacted();
    let past = kept.len() - 2;
    assert!(past >= 3, "{kept:?}");
    assert!(kept[..past].iter().all(|&c| c), "{kept:?}");
    assert!(kept[past..].iter().all(|&c| !c), "{kept:?}");
    both_audits_pass(&mut ledger);
    assert_eq!(ledger.compacted(), kept);
    assert!(
        ledger.decoded_past().is_empty(),
        "{:?}",
        ledger.decoded_past()
    );
}

#[test]
fn a_past_deck_decoded_again_for_a_share_is_compacted_again_at_the_next_reshuffle() {
    let mut ledger = set_up(0);
    let mut t = 0;
    while ledger.compacted().iter().filter(|&&c| c).count() < 1 {
        turn(&mut ledger, t % 2);
        t += 1;
    }
    // A card of deck 0 read whole again (as a share's check reads it).
    ledger.deck_of(3).expect("deck 0 is final").get(3).unwrap();
    assert_eq!(ledger.decoded_past(), vec![0]);
    let generations = ledger.compacted().len();
    while ledger.compacted().len() == generations {
        turn(&mut ledger, t % 2);
        t += 1;
    }
    assert!(
        ledger.decoded_past().is_empty(),
        "{:?}",
        ledger.decoded_past()
    );
    both_audits_pass(&mut ledger);
}

#[test]
fn a_line_played_on_a_copy_of_the_ledger_leaves_the_ledger_as_it_was() {
    // The referee plays a line on a copy of the ledger (`table::Pending`)
    // and drops the copy when the line is refused. The copy shares the
    // ledger's lists until it changes them: whatever a line does to it
    // (a draw, shares, an opening, a reshuffle and its passes) and
    // whatever it refuses, the ledger stays exactly as it was. Every turn
    // of a game through several reshuffles is played first on a copy,
    // then on the ledger itself, which gives the same card.
    let mut ledger = set_up(0);
    for t in 0..150 {
        let side = t % 2;
        let before = format!("{ledger:?}");
        let mut copy = ledger.clone();
        let card = turn(&mut copy, side);
        let opened = (0..)
            .find(|&p| copy.drawer(p) == Some(h(side)) && !copy.held(h(side)).contains(&p))
            .expect("a card opened");
        assert!(copy.open(h(side), opened).is_err(), "opened twice");
        let shared = (0..)
            .find(|&p| copy.has_share(h(side), p) && copy.deck_of(p).is_some())
            .expect("a position shared");
        assert!(share(&mut copy, side, shared).is_err(), "shared twice");
        drop(copy);
        assert_eq!(format!("{ledger:?}"), before, "turn {t}");
        assert_eq!(turn(&mut ledger, side), card, "turn {t}");
    }
    assert!(ledger.compacted().iter().filter(|&&c| c).count() >= 3);
    both_audits_pass(&mut ledger);
}

#[test]
fn a_share_of_a_compacted_deck_decodes_its_cards_c1_alone() {
    // A share's check needs the card's C1 alone: of a past deck kept as
    // its bytes, only that half is decoded, not the whole deck (which
    // was decoded again, and compacted again at the next reshuffle).
    let mut ledger = set_up(0);
    let mut t = 0;
    while ledger.compacted().iter().filter(|&&c| c).count() < 1 {
        turn(&mut ledger, t % 2);
        t += 1;
    }
    let compact = ledger.deck_of(3).expect("deck 0 is final").clone();
    assert!(compact.is_compact());
    let whole = compact.clone();
    whole.get(3).unwrap();
    assert!(!whole.is_compact());
    let c1 = compact.c1(3).unwrap();
    assert_eq!(c1, whole.c1(3).unwrap());
    assert_eq!(c1.1[..], whole.get(3).unwrap().to_bytes()[..32]);
    assert_eq!(compact.c1(99), Err(DeckError::NoPosition(99)));
    // A share made and checked against it: the same share, the same
    // check as against the deck decoded whole, and the deck still kept
    // as its bytes.
    let table = ledger.table().unwrap().clone();
    let sh = secret(1).share(&compact, 3).unwrap();
    assert_eq!(
        sh.proof_bytes(),
        secret(1).share(&whole, 3).unwrap().proof_bytes()
    );
    let check = sh.check(&table, SIDES[1], &compact).unwrap();
    assert!(check.verify(&game()));
    assert!(sh.verify(&table, SIDES[1], &compact).is_ok());
    assert!(compact.is_compact(), "decoded whole for a share");
    assert!(
        ledger.decoded_past().is_empty(),
        "{:?}",
        ledger.decoded_past()
    );
}

#[test]
fn a_deck_compacted_holds_the_same_cards_and_opens_the_same() {
    let mut ledger = set_up(0);
    let deck = ledger.deck_of(0).expect("the first deck is final").clone();
    let mut compact = deck.clone();
    compact.compact();
    assert!(compact.is_compact() && !deck.is_compact());
    assert_eq!(compact.c2(5), deck.c2(5));
    assert_eq!(compact.published_c2(5), None, "not vouched for");
    assert_eq!(compact, deck);
    // Decoded again when a card of it is needed, whole.
    assert_eq!(
        compact.get(7).map(Ciphertext::to_bytes),
        deck.get(7).map(Ciphertext::to_bytes)
    );
    assert!(!compact.is_compact());
    let seen: Vec<u32> = (0..4).map(|t| turn(&mut ledger, t % 2)).collect();
    assert_eq!(seen.len(), 4);
}

#[test]
fn the_audit_names_a_bad_pass_of_a_generation_kept_as_bytes() {
    let mut ledger = set_up(0);
    let cheat = cheat_on_deck_1(&mut ledger);
    // Play on until deck 1 is kept as bytes.
    let mut side = 1 - cheat;
    while !ledger.compacted()[1] {
        turn(&mut ledger, side);
        side = 1 - side;
    }
    let other = 1 - cheat;
    let o = openings(&ledger, other);
    ledger.audit(h(other), &o).unwrap();
    let o = openings(&ledger, cheat);
    let err = ledger.audit(h(cheat), &o).unwrap_err();
    assert!(
        err.starts_with(&format!("{}'s pass over deck 1 (turn ", SIDES[cheat]))
            && err.ends_with("a card was duplicated and another dropped"),
        "{err}"
    );
}

/// The bytes a ledger keeps of its past generations, and of their cards,
/// after `turns` turns of a game whose past decks are kept as digests.
fn kept_after(turns: usize) -> (usize, usize, usize) {
    let source = Arc::new(ReadAgain::default());
    let mut ledger = set_up_reading(0, &source);
    for t in 0..turns {
        turn(&mut ledger, t % 2);
    }
    let flat = ledger.flattened();
    assert!(
        flat[..flat.len() - 2].iter().all(|&f| f),
        "every past generation kept as digests: {flat:?}"
    );
    let generations = ledger.compacted().len();
    (generations, ledger.past_bytes(), ledger.past_card_bytes())
}

#[test]
fn past_decks_kept_as_digests_keep_no_cards_however_many_reshuffles() {
    // Kept as bytes, a past generation keeps 64 bytes a card of each of
    // its three decks; kept as digests, only what the audit cannot read
    // again: the input's card numbers, a digest a pass, and the cards
    // still held in a hand (a hand is bounded, the game is not).
    let (short, short_bytes, short_cards) = kept_after(150);
    let (long, long_bytes, long_cards) = kept_after(450);
    assert!(long >= short + 10, "{short} -> {long} generations");
    let bound = 2 * 4 * (64 + 2 * std::mem::size_of::<Ciphertext>());
    assert!(
        short_cards <= bound && long_cards <= bound,
        "cards kept: {short_cards} after {short} generations, {long_cards} after {long}"
    );
    // What is left grows by a generation packed, all it keeps counted
    // with the allocator's headers: a byte a card number (34 cards), 69
    // bytes a pass (its side, line, commitment and digest), and 96 of
    // structure; not 64 bytes a card of each deck.
    let per_generation =
        (long_bytes - long_cards).saturating_sub(short_bytes - short_cards) / (long - short);
    assert!(
        per_generation <= 34 + SIDES.len() * 69 + 96,
        "{per_generation} bytes a generation"
    );
    let mut bytes = set_up(0);
    for t in 0..450 {
        turn(&mut bytes, t % 2);
    }
    assert!(
        bytes.past_card_bytes() > 10 * long_bytes,
        "kept as bytes: {} against {long_bytes}",
        bytes.past_card_bytes()
    );
}

#[test]
fn an_honest_game_kept_as_digests_audits_without_reading_the_record_again() {
    for first in 0..2 {
        let source = Arc::new(ReadAgain::default());
        let mut ledger = set_up_reading(first, &source);
        for t in 0..150 {
            turn(&mut ledger, (first + t) % 2);
        }
        let kept = ledger.compacted();
        assert!(kept.len() >= 5 && kept[..kept.len() - 2].iter().all(|&c| c));
        both_audits_pass(&mut ledger);
        ledger.finish_audit();
        assert_eq!(ledger.late_faults(), Vec::new());
        assert_eq!(ledger.take_reread_error(), None);
        assert_eq!(source.reads.load(std::sync::atomic::Ordering::SeqCst), 0);
    }
}

/// Play `ledger` until deck 1 is dealt, then the turn of the side that
/// reshuffled (returned), as [`turn`] plays one, with a pass over deck 1
/// that duplicates a card.
fn cheat_on_deck_1(ledger: &mut DeckLedger) -> usize {
    let mut t = 0;
    let cheat = loop {
        let side = t % 2;
        if let Some(g) = ledger.reshuffle_if_due(h(side)) {
            assert_eq!(g, 1);
            break side;
        }
        turn(ledger, side);
        t += 1;
    };
    for p in ledger.draw(h(cheat)).unwrap() {
        ledger.peek(&secret(cheat), p).unwrap();
    }
    duplicating_pass(ledger, cheat, 1).unwrap();
    let played = ledger.held(h(cheat))[0];
    share(ledger, cheat, played).unwrap();
    ledger.open(h(cheat), played).unwrap();
    let owed = ledger.owed_on_turn(h(cheat), &[h(1 - cheat), h(cheat)]);
    give_owed_with(ledger, cheat, owed, share);
    cheat
}

/// A game whose first pass over deck 1 (by the side it returns) holds
/// a duplicated card, played until deck 1 is a past generation, its
/// decks kept as digests read again from `source`.
fn cheat_in_a_past_deck(source: &Arc<ReadAgain>) -> (DeckLedger, usize) {
    let mut ledger = set_up_reading(0, source);
    let cheat = cheat_on_deck_1(&mut ledger);
    let mut side = 1 - cheat;
    while ledger.compacted().len() < 4 {
        turn(&mut ledger, side);
        side = 1 - side;
    }
    (ledger, cheat)
}

fn is_the_duplicate(err: &str, cheat: usize) -> bool {
    err.starts_with(&format!("{}'s pass over deck 1 (turn 1", SIDES[cheat]))
        && err.ends_with("a card was duplicated and another dropped")
}

#[test]
fn a_bad_pass_of_a_deck_kept_as_a_digest_is_named_as_today_whichever_side_audits_first() {
    for cheat_first in [false, true] {
        let source = Arc::new(ReadAgain::default());
        let (mut ledger, cheat) = cheat_in_a_past_deck(&source);
        let other = 1 - cheat;
        if cheat_first {
            // Its pass over deck 1 waits for the other side's seed: the
            // fault comes with the other side's audit.
            let o = openings(&ledger, cheat);
            assert_eq!(ledger.audit(h(cheat), &o), Ok(()));
            assert_eq!(ledger.late_faults(), Vec::new());
            let o = openings(&ledger, other);
            assert_eq!(ledger.audit(h(other), &o), Ok(()));
            let late = ledger.late_faults();
            assert_eq!(late.len(), 1, "{late:?}");
            assert_eq!(late[0].0, h(cheat));
            assert!(is_the_duplicate(&late[0].1, cheat), "{}", late[0].1);
        } else {
            let o = openings(&ledger, other);
            assert_eq!(ledger.audit(h(other), &o), Ok(()));
            let o = openings(&ledger, cheat);
            let err = ledger.audit(h(cheat), &o).unwrap_err();
            assert!(is_the_duplicate(&err, cheat), "{err}");
            assert_eq!(ledger.late_faults(), Vec::new());
        }
        // The fault is named from the deck read again; the other side's
        // pass over it is audited over the deck as published, and passes.
        assert!(source.reads.load(std::sync::atomic::Ordering::SeqCst) >= 1);
        assert_eq!(ledger.take_reread_error(), None);
    }
}

#[test]
fn a_side_that_never_audits_leaves_the_passes_over_its_deck_checked_at_the_records_end() {
    let source = Arc::new(ReadAgain::default());
    let (mut ledger, cheat) = cheat_in_a_past_deck(&source);
    let other = 1 - cheat;
    // The other side audits; the cheat never does (the record ends):
    // the other's pass over the cheat's deck is checked over the deck
    // read again, and passes.
    let o = openings(&ledger, other);
    assert_eq!(ledger.audit(h(other), &o), Ok(()));
    ledger.finish_audit();
    assert_eq!(ledger.late_faults(), Vec::new());
    assert_eq!(ledger.take_reread_error(), None);
    assert!(source.reads.load(std::sync::atomic::Ordering::SeqCst) >= 1);
}

#[test]
fn a_past_deck_read_again_that_is_not_the_one_read_before_is_refused() {
    let source = Arc::new(ReadAgain {
        changed: true,
        ..ReadAgain::default()
    });
    let (mut ledger, cheat) = cheat_in_a_past_deck(&source);
    let other = 1 - cheat;
    let o = openings(&ledger, other);
    assert_eq!(ledger.audit(h(other), &o), Ok(()));
    let o = openings(&ledger, cheat);
    let _ = ledger.audit(h(cheat), &o);
    let err = ledger.take_reread_error().expect("refused");
    assert!(
        err.starts_with(&format!(
            "the record changed while it was read: {}'s pass over deck 1 on turn 1",
            SIDES[cheat]
        )) && err.contains("is not the one read before"),
        "{err}"
    );
}
