//! Tests, named after the rules they check. Expected values are worked out
//! by hand from docs/games/battle-of-the-dale.md section 8 (its rules and rulings).

use super::board::*;
use super::state::*;
use super::*;
use crate::game::Undrawn;
use crate::game::{action_text, side_by_name, DiagramStyle, Game, Outcome, Side};
use crate::selfplay::SplitMix;

type G = BattleOfTheDale;

fn side(name: &str) -> Side {
    side_by_name::<G>(name).expect("army")
}

fn h(label: &str) -> Hex {
    notation::hex_of(label).expect("hex")
}

fn try_new(sides: &[&str], options: &str) -> Result<State, crate::game::SetupError> {
    let sides: Vec<Side> = sides.iter().map(|n| side(n)).collect();
    let tags = vec![("Options".to_string(), options.to_string())];
    G::new_game(&crate::game::Setup {
        sides: &sides,
        tags: &tags,
    })
}

fn new(sides: &[&str], options: &str) -> State {
    try_new(sides, options).expect("setup")
}

/// Put a unit on the map directly, taking it from the Reserve.
fn put(s: &mut State, hex: &str, army: &str, kind: char) {
    let a = side(army);
    let k = match kind {
        'R' => Kind::R,
        'M' => Kind::M,
        _ => Kind::H,
    };
    let r = &mut s.reserve[usize::from(a)][k.idx()];
    assert!(*r > 0, "no {army} {kind} left in Reserve");
    *r -= 1;
    s.put(h(hex), a, k);
}

/// A position from its notation (`position.rs`).
fn from_position(text: &str) -> State {
    G::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn set_mover(s: &mut State, army: &str) {
    s.mover = side(army);
}

type Kit = crate::games::testkit::Kit<G>;

fn begin(s: &mut State) {
    Kit::begin(s);
}

fn ok(s: &mut State, text: &str) {
    Kit::ok(s, text);
}

fn reason(s: &mut State, text: &str) -> String {
    Kit::refused(s, text)
}

fn end(s: &mut State) {
    Kit::end(s);
}

fn at(s: &State, hex: &str) -> Option<(&'static str, char)> {
    s.unit(h(hex))
        .map(|(a, k)| (ARMY[usize::from(a)], k.letter()))
}

fn pile(s: &State, capturer: &str, owner: &str, kind: Kind) -> u8 {
    s.pile[usize::from(side(capturer))][usize::from(side(owner))][kind.idx()]
}

fn reserve(s: &State, army: &str, kind: Kind) -> u8 {
    s.reserve[usize::from(side(army))][kind.idx()]
}

fn nb(label: &str) -> Vec<String> {
    hexes(NEIGH[h(label).idx()])
        .map(|x| x.to_string())
        .collect()
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\u{1b}' {
            for d in it.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The map.

#[test]
fn map_has_nineteen_hexes_in_rows_of_3_4_5_4_3() {
    let labels: Vec<String> = hexes(ALL).map(|x| x.to_string()).collect();
    assert_eq!(
        labels.join(" "),
        "A1 A2 A3 B1 B2 B3 B4 C1 C2 C3 C4 C5 D1 D2 D3 D4 E1 E2 E3"
    );
}

#[test]
fn neighbours_follow_the_row_rule() {
    assert_eq!(nb("A1"), ["A2", "B1", "B2"]);
    assert_eq!(nb("A3"), ["A2", "B3", "B4"]);
    assert_eq!(nb("B1"), ["A1", "B2", "C1", "C2"]);
    assert_eq!(nb("B4"), ["A3", "B3", "C4", "C5"]);
    assert_eq!(nb("C1"), ["B1", "C2", "D1"]);
    assert_eq!(nb("C3"), ["B2", "B3", "C2", "C4", "D2", "D3"]);
    assert_eq!(nb("C5"), ["B4", "C4", "D4"]);
    assert_eq!(nb("D1"), ["C1", "C2", "D2", "E1"]);
    assert_eq!(nb("D4"), ["C4", "C5", "D3", "E3"]);
    assert_eq!(nb("E2"), ["D2", "D3", "E1", "E3"]);
    let edges: u32 = NEIGH.iter().map(|m| m.count_ones()).sum();
    assert_eq!(edges, 84, "42 neighbour pairs");
}

#[test]
fn edge_hexes_are_rows_a_and_e_and_the_row_ends() {
    let labels: Vec<String> = hexes(EDGE).map(|x| x.to_string()).collect();
    assert_eq!(labels.join(" "), "A1 A2 A3 B1 B4 C1 C5 D1 D4 E1 E2 E3");
}

#[test]
fn named_spaces_accept_their_short_names_and_print_as_hexes() {
    let s = new(&["Human", "Elf"], "");
    for (name, hex) in [
        ("Chip", "C3"),
        ("fog", "B2"),
        ("POST", "C4"),
        ("Tree", "D2"),
    ] {
        let a = G::parse_action(&s, &format!("R@{name}")).unwrap();
        assert_eq!(action_text::<G>(&a), format!("R@{hex}"));
    }
    let a = G::parse_action(&s, "chip - tree").unwrap();
    assert_eq!(action_text::<G>(&a), "C3-D2");
    let a = G::parse_action(&s, "rally @fog").unwrap();
    assert_eq!(action_text::<G>(&a), "rally @B2");
}

// ---------------------------------------------------------------------------
// Setup.

#[test]
fn armies_start_in_reserve_with_four_regulars_one_mounted_one_hero() {
    let s = new(&["Human", "Elf", "Dwarf", "Goblin"], "");
    for a in ["Human", "Elf", "Dwarf", "Goblin"] {
        assert_eq!(s.reserve[usize::from(side(a))], [4, 1, 1], "{a}");
    }
    assert_eq!(s.occupied(), 0);
}

#[test]
fn falcon_army_has_five_regulars_and_a_hero() {
    let s = new(&["Falcon", "Elf"], "");
    assert_eq!(s.reserve[usize::from(FALCON)], [5, 0, 1]);
}

#[test]
fn turn_order_is_the_order_of_the_side_tags() {
    let mut s = new(&["Dwarf", "Human", "Elf"], "");
    assert_eq!(G::to_move(&s), DWARF);
    for next in [HUMAN, ELF, DWARF] {
        begin(&mut s);
        ok(&mut s, "R@A1");
        let a = s.find(s.mover, Kind::R).unwrap();
        // Take the unit off again so every army can use A1.
        s.clear(a);
        end(&mut s);
        assert_eq!(G::to_move(&s), next);
    }
}

#[test]
fn setup_needs_two_to_five_distinct_armies() {
    let e = try_new(&["Human"], "").unwrap_err();
    assert_eq!(e.reason, "Battle of the Dale needs 2 to 5 armies, got 1");
    let e = try_new(&["Human", "Elf", "Human"], "").unwrap_err();
    assert_eq!(e.reason, "Human is listed twice");
    assert!(try_new(&["Human", "Elf", "Dwarf", "Goblin", "Falcon"], "").is_ok());
}

#[test]
fn unknown_option_is_a_setup_error_naming_the_options_tag() {
    let e = try_new(&["Human", "Elf"], "arms-race fast-play").unwrap_err();
    assert_eq!(e.tag.as_deref(), Some("Options"));
    assert!(
        e.reason
            .starts_with("unknown option `fast-play` in Options"),
        "{}",
        e.reason
    );
    let e = try_new(&["Human", "Elf"], "arms-race no-arms-race").unwrap_err();
    assert_eq!(e.reason, "Options turns arms-race both on and off");
}

#[test]
fn optional_rules_default_on_except_prisoner_exchange() {
    let s = new(&["Human", "Elf"], "");
    assert_eq!(
        s.opts,
        Opts {
            prisoner_exchange: false,
            max5: true,
            arms_race: true,
            hero_or_mounted: true
        }
    );
    let s = new(
        &["Human", "Elf"],
        "Prisoner-Exchange no-max-5-units  no-arms-race\tno-hero-or-mounted",
    );
    assert_eq!(
        s.opts,
        Opts {
            prisoner_exchange: true,
            max5: false,
            arms_race: false,
            hero_or_mounted: false
        }
    );
}

// ---------------------------------------------------------------------------
// Placement.

#[test]
fn placement_on_any_vacant_edge_hex() {
    for hex in ["A1", "B4", "C5", "D1", "E3"] {
        let mut s = new(&["Human", "Elf"], "");
        ok(&mut s, &format!("R@{hex}"));
        assert_eq!(at(&s, hex), Some(("Human", 'R')));
        assert_eq!(reserve(&s, "Human", Kind::R), 3);
    }
}

#[test]
fn placement_next_to_a_chain_of_own_units_reaching_the_edge() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "B1", "Human", 'R');
    put(&mut s, "C2", "Human", 'R');
    put(&mut s, "C3", "Human", 'R');
    let mut t = s;
    ok(&mut t, "R@B3"); // next to C3, chained C3-C2-B1 to the edge
    let mut t = s;
    ok(&mut t, "R@D2");
}

#[test]
fn placement_away_from_edge_and_chains_is_rejected() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "B1", "Human", 'R');
    put(&mut s, "C2", "Human", 'R');
    assert_eq!(
        reason(&mut s, "R@B3"),
        "B3 is not on the map edge nor next to a chain of your units reaching it"
    );
    // A chain that does not reach the edge gives no placement.
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "D3", "Human", 'R');
    assert_eq!(
        reason(&mut s, "R@D2"),
        "D2 is not on the map edge nor next to a chain of your units reaching it"
    );
    // Another army's units are no chain.
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "B1", "Elf", 'R');
    assert!(reason(&mut s, "R@B2").starts_with("B2 is not on the map edge"));
}

#[test]
fn no_new_unit_is_placed_in_chip() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "B2", "Human", 'R');
    put(&mut s, "A1", "Human", 'R');
    assert_eq!(
        reason(&mut s, "R@C3"),
        "C3 is Chip: a new unit cannot be placed there"
    );
}

#[test]
fn placement_needs_a_vacant_hex() {
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "B1", "Elf", 'R');
    assert_eq!(reason(&mut s, "R@B1"), "B1 is occupied");
}

#[test]
fn placement_needs_the_unit_in_reserve() {
    let mut s = new(&["Human", "Elf"], "no-hero-or-mounted");
    put(&mut s, "A1", "Human", 'M');
    assert_eq!(
        reason(&mut s, "M@A2"),
        "the Human army has no Reserve Mounted unit"
    );
    let mut s = new(&["Falcon", "Elf"], "");
    assert_eq!(
        reason(&mut s, "M@A2"),
        "the Falcon army has no Mounted unit"
    );
}

#[test]
fn falcon_units_are_placed_on_any_vacant_hex_even_chip() {
    let mut s = new(&["Falcon", "Elf"], "");
    let mut t = s;
    ok(&mut t, "R@C3");
    assert_eq!(at(&t, "C3"), Some(("Falcon", 'R')));
    ok(&mut s, "H@D3");
    assert_eq!(at(&s, "D3"), Some(("Falcon", 'H')));
}

// ---------------------------------------------------------------------------
// Optional rules.

#[test]
fn arms_race_limits_a_placement_to_one_more_than_the_weakest_player() {
    let mut s = new(&["Human", "Elf", "Dwarf"], "");
    put(&mut s, "A1", "Human", 'R');
    put(&mut s, "A3", "Human", 'R');
    put(&mut s, "E1", "Elf", 'R');
    put(&mut s, "E3", "Elf", 'R');
    put(&mut s, "C5", "Dwarf", 'R');
    assert_eq!(
        reason(&mut s, "R@C1"),
        "arms race: Human would have 3 units on the map, the weakest other player has 1"
    );
    put(&mut s, "D4", "Dwarf", 'R');
    ok(&mut s, "R@C1");
    // Off: no limit.
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "A1", "Human", 'R');
    ok(&mut s, "R@A3");
}

#[test]
fn arms_race_counts_only_players_still_in() {
    let mut s = new(&["Human", "Elf", "Dwarf"], "");
    put(&mut s, "A1", "Human", 'R');
    put(&mut s, "E1", "Elf", 'R');
    s.out |= bit(DWARF); // the Dwarf, with nothing on the map, is out
    s.reserve[usize::from(DWARF)] = [0; 3];
    ok(&mut s, "R@A3");
}

#[test]
fn max_5_units_on_the_map() {
    let five = |options: &str| {
        let mut s = new(&["Human", "Elf"], options);
        for hex in ["A1", "A2", "A3", "E1"] {
            put(&mut s, hex, "Human", 'R');
        }
        put(&mut s, "E2", "Human", 'H');
        s
    };
    let mut s = five("no-arms-race no-hero-or-mounted");
    assert_eq!(
        reason(&mut s, "M@E3"),
        "max 5 units: Human already has 5 units on the map"
    );
    let mut s = five("no-arms-race no-hero-or-mounted no-max-5-units");
    ok(&mut s, "M@E3");
}

#[test]
fn hero_or_mounted_on_the_map_not_both() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "A1", "Human", 'M');
    assert_eq!(
        reason(&mut s, "H@A3"),
        "hero or mounted: Human has its Mounted unit on the map, so not its Hero too"
    );
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "A1", "Human", 'H');
    assert_eq!(
        reason(&mut s, "M@A3"),
        "hero or mounted: Human has its Hero unit on the map, so not its Mounted too"
    );
    let mut s = new(&["Human", "Elf"], "no-arms-race no-hero-or-mounted");
    put(&mut s, "A1", "Human", 'H');
    ok(&mut s, "M@A3");
}

// ---------------------------------------------------------------------------
// Movement.

#[test]
fn a_unit_moves_to_an_adjacent_vacant_hex() {
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "A1", "Human", 'R');
    ok(&mut s, "A1-B2");
    assert_eq!(at(&s, "B2"), Some(("Human", 'R')));
    assert_eq!(at(&s, "A1"), None);
}

#[test]
fn a_unit_moves_along_a_chain_of_its_army() {
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "A1", "Human", 'R');
    put(&mut s, "B2", "Human", 'R');
    put(&mut s, "C3", "Human", 'R');
    put(&mut s, "E3", "Human", 'R'); // not part of the chain
    let mut t = s;
    ok(&mut t, "A1-D3"); // D3 is next to C3
    assert_eq!(at(&t, "D3"), Some(("Human", 'R')));
    assert_eq!(
        reason(&mut s, "A1-D4"),
        "D4 is not next to A1 nor to a chain of your units joined to it"
    );
}

#[test]
fn a_move_needs_own_unit_and_vacant_destination() {
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "A1", "Human", 'R');
    put(&mut s, "A2", "Elf", 'R');
    assert_eq!(reason(&mut s, "A2-A3"), "A2 holds no unit of yours");
    assert_eq!(reason(&mut s, "B3-A3"), "B3 holds no unit of yours");
    assert_eq!(reason(&mut s, "A1-A2"), "A2 is occupied");
    assert_eq!(reason(&mut s, "A1-A1"), "a move needs two different hexes");
}

#[test]
fn falcon_moves_up_to_two_spaces_and_jumps_units() {
    let mut s = new(&["Falcon", "Human"], "");
    put(&mut s, "B1", "Falcon", 'R');
    put(&mut s, "B2", "Human", 'R');
    let mut t = s;
    ok(&mut t, "B1-B3"); // over the Human unit on B2
    assert_eq!(at(&t, "B3"), Some(("Falcon", 'R')));
    assert_eq!(
        reason(&mut s, "B1-C4"),
        "C4 is more than 2 spaces from B1 (a Falcon unit moves at most 2)"
    );
}

#[test]
fn falcon_units_do_not_move_along_chains() {
    let mut s = new(&["Falcon", "Human"], "");
    put(&mut s, "A1", "Falcon", 'R');
    put(&mut s, "B2", "Falcon", 'R');
    put(&mut s, "C3", "Falcon", 'H');
    assert_eq!(
        reason(&mut s, "A1-D3"),
        "D3 is more than 2 spaces from A1 (a Falcon unit moves at most 2)"
    );
    ok(&mut s, "C3-E3"); // the Falcon Hero moves two spaces like its Regulars
}

#[test]
fn human_hero_charges_two_spaces() {
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "A1", "Human", 'H');
    let before = s;
    ok(&mut s, "A1-C2");
    assert_eq!(at(&s, "C2"), Some(("Human", 'H')));
    end(&mut s);
    assert_eq!(G::turn_comment(&before, &s), "Charge: moved Human H A1-C2");
    // A Regular cannot.
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "A1", "Human", 'R');
    assert_eq!(
        reason(&mut s, "A1-C2"),
        "C2 is not next to A1 nor to a chain of your units joined to it"
    );
}

#[test]
fn charge_never_passes_through_an_enemy_unit() {
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "A1", "Human", 'H');
    put(&mut s, "B1", "Elf", 'R');
    put(&mut s, "B2", "Elf", 'R');
    assert_eq!(
        reason(&mut s, "A1-C2"),
        "a Charge from A1 to C2 would pass through an enemy unit"
    );
    // With one way free it is fine.
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "A1", "Human", 'H');
    put(&mut s, "B1", "Elf", 'R');
    ok(&mut s, "A1-C2");
}

#[test]
fn charge_is_not_combined_with_chain_movement() {
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "A1", "Human", 'H');
    put(&mut s, "A2", "Human", 'R');
    // C4 is two spaces beyond A2, a chain member: not a Charge.
    assert_eq!(
        reason(&mut s, "A1-C4"),
        "C4 is not next to A1 nor to a chain of your units joined to it, \
         nor two spaces away for a Charge"
    );
}

// ---------------------------------------------------------------------------
// Captures.

#[test]
fn two_units_next_to_an_enemy_unit_capture_it() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "B1", "Elf", 'R');
    put(&mut s, "A1", "Human", 'R');
    let before = s;
    ok(&mut s, "R@C1");
    assert_eq!(at(&s, "B1"), None);
    assert_eq!(pile(&s, "Human", "Elf", Kind::R), 1);
    end(&mut s);
    assert_eq!(
        G::turn_comment(&before, &s),
        "placed Human R on C1; captured Elf R on B1 (Human)"
    );
}

#[test]
fn one_unit_next_to_an_enemy_captures_nothing() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "B1", "Elf", 'R');
    ok(&mut s, "R@C1");
    assert_eq!(at(&s, "B1"), Some(("Elf", 'R')));
}

#[test]
fn captures_are_simultaneous() {
    // The placed unit is captured and captures at the same time.
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "A1", "Elf", 'R');
    put(&mut s, "C1", "Elf", 'R');
    put(&mut s, "A2", "Human", 'R');
    ok(&mut s, "R@B1");
    assert_eq!(at(&s, "A1"), None);
    assert_eq!(at(&s, "B1"), None);
    assert_eq!(pile(&s, "Human", "Elf", Kind::R), 1);
    assert_eq!(pile(&s, "Elf", "Human", Kind::R), 1);
}

#[test]
fn equal_claims_go_to_the_first_claimant_after_the_owner() {
    // Turn order Elf, Dwarf, Human: after the Dwarf comes the Human.
    let mut s = new(&["Elf", "Dwarf", "Human"], "");
    put(&mut s, "B2", "Elf", 'R');
    put(&mut s, "B3", "Elf", 'R');
    put(&mut s, "D2", "Human", 'R');
    put(&mut s, "D3", "Human", 'R');
    put(&mut s, "C4", "Dwarf", 'R');
    set_mover(&mut s, "Dwarf");
    ok(&mut s, "C4-C3");
    assert_eq!(at(&s, "C3"), None);
    assert_eq!(pile(&s, "Human", "Dwarf", Kind::R), 1);
    assert_eq!(pile(&s, "Elf", "Dwarf", Kind::R), 0);
}

#[test]
fn the_larger_claim_takes_the_capture() {
    let mut s = new(&["Elf", "Dwarf", "Human"], "");
    put(&mut s, "B2", "Elf", 'R');
    put(&mut s, "B3", "Elf", 'R');
    put(&mut s, "C2", "Elf", 'R');
    put(&mut s, "D2", "Human", 'R');
    put(&mut s, "D3", "Human", 'R');
    put(&mut s, "C4", "Dwarf", 'R');
    set_mover(&mut s, "Dwarf");
    ok(&mut s, "C4-C3");
    assert_eq!(pile(&s, "Elf", "Dwarf", Kind::R), 1);
    assert_eq!(pile(&s, "Human", "Dwarf", Kind::R), 0);
}

fn first_strike_position(falcon: bool) -> State {
    let sides: &[&str] = if falcon {
        &["Human", "Elf", "Falcon"]
    } else {
        &["Human", "Elf"]
    };
    let mut s = new(sides, "");
    put(&mut s, "C1", "Human", 'R');
    put(&mut s, "D3", "Human", 'M');
    put(&mut s, "C2", "Elf", 'R');
    put(&mut s, "E1", "Elf", 'R');
    if falcon {
        put(&mut s, "E2", "Falcon", 'H');
    }
    s
}

#[test]
fn first_strike_resolves_mounted_captures_first() {
    // The Human M moving to D2 captures C2 (with C1) before the Elves'
    // claim on D2 (C2, E1) is looked at; without C2 that claim is gone.
    let mut s = first_strike_position(false);
    ok(&mut s, "D3-D2");
    assert_eq!(at(&s, "C2"), None);
    assert_eq!(at(&s, "D2"), Some(("Human", 'M')));
    assert_eq!(pile(&s, "Human", "Elf", Kind::R), 1);
    end(&mut s);
    assert_eq!(at(&s, "D2"), Some(("Human", 'M')));
    assert_eq!(pile(&s, "Elf", "Human", Kind::M), 0);
}

#[test]
fn awe_cancels_first_strike() {
    // The Falcon Hero on E2 is next to D2: both captures are simultaneous.
    let mut s = first_strike_position(true);
    ok(&mut s, "D3-D2");
    end(&mut s);
    assert_eq!(at(&s, "C2"), None);
    assert_eq!(at(&s, "D2"), None);
    assert_eq!(pile(&s, "Human", "Elf", Kind::R), 1);
    assert_eq!(pile(&s, "Elf", "Human", Kind::M), 1);
}

fn first_strike_then_others() -> State {
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "C1", "Human", 'R');
    put(&mut s, "D3", "Human", 'M');
    put(&mut s, "C2", "Elf", 'R');
    put(&mut s, "E1", "Elf", 'R');
    put(&mut s, "E2", "Elf", 'R');
    s
}

#[test]
fn after_first_strike_the_map_is_checked_again() {
    let mut s = first_strike_then_others();
    ok(&mut s, "D3-D2");
    // Round 1 (first strike): C2 is captured; the advance may come now.
    assert_eq!(at(&s, "C2"), None);
    assert_eq!(at(&s, "D2"), Some(("Human", 'M')));
    end(&mut s);
    // Round 2: E1 and E2 still hold D2.
    assert_eq!(at(&s, "D2"), None);
    assert_eq!(pile(&s, "Elf", "Human", Kind::M), 1);
}

#[test]
fn advance_after_first_strike_comes_before_the_next_check() {
    let mut s = first_strike_then_others();
    ok(&mut s, "D3-D2");
    ok(&mut s, "D2-C2"); // the advance: out of the Elves' reach
    end(&mut s);
    assert_eq!(at(&s, "C2"), Some(("Human", 'M')));
    assert_eq!(pile(&s, "Elf", "Human", Kind::M), 0);
}

fn advance_chain_position() -> State {
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "B1", "Human", 'R');
    put(&mut s, "D3", "Human", 'R');
    put(&mut s, "C2", "Elf", 'R');
    put(&mut s, "C3", "Elf", 'R');
    s
}

#[test]
fn advance_after_capture_repeats_with_captures_checked_after_each() {
    let mut s = advance_chain_position();
    let before = s;
    ok(&mut s, "R@D1"); // captures C2 (B1, D1)
    assert_eq!(at(&s, "C2"), None);
    ok(&mut s, "D1-C2"); // advance: now C2 and D3 capture C3
    assert_eq!(at(&s, "C3"), None);
    ok(&mut s, "D3-C3"); // a second advance
    end(&mut s);
    assert_eq!(at(&s, "C3"), Some(("Human", 'R')));
    assert_eq!(at(&s, "C2"), Some(("Human", 'R')));
    assert_eq!(pile(&s, "Human", "Elf", Kind::R), 2);
    assert_eq!(
        G::turn_comment(&before, &s),
        "placed Human R on D1; captured Elf R on C2 (Human); advanced Human R D1-C2; \
         captured Elf R on C3 (Human); advanced Human R D3-C3"
    );
}

#[test]
fn a_further_movement_that_is_not_a_legal_advance_declines_it() {
    let mut s = advance_chain_position();
    ok(&mut s, "R@D1");
    // D3 did not cause the capture of C2: this is a second move.
    assert_eq!(
        reason(&mut s, "D3-D2"),
        "the turn's action was already made"
    );
    assert_eq!(
        reason(&mut s, "D3-C2"),
        "the turn's action was already made"
    );
    end(&mut s);
    assert_eq!(at(&s, "C3"), Some(("Elf", 'R')));
}

#[test]
fn offer_exchange_between_capture_and_advance_keeps_the_advance() {
    let mut s = advance_chain_position();
    s.opts.prisoner_exchange = true;
    ok(&mut s, "R@D1");
    ok(&mut s, "offer-exchange Elf");
    ok(&mut s, "D1-C2"); // still the advance
    assert_eq!(at(&s, "C3"), None, "the advance captured C3");
}

#[test]
fn dwarf_hero_moving_into_the_vacated_hex_is_the_advance() {
    let mut s = new(&["Dwarf", "Elf"], "no-arms-race");
    put(&mut s, "C1", "Dwarf", 'H');
    put(&mut s, "B1", "Elf", 'R');
    ok(&mut s, "R@A1"); // captures B1 (A1, C1)
    ok(&mut s, "C1-B1"); // the advance, not the Berserk move
    ok(&mut s, "B1-B2"); // the Berserk move is still there
    assert_eq!(
        reason(&mut s, "B2-C3"),
        "the Dwarf Hero has already moved this turn"
    );
    end(&mut s);
    assert_eq!(at(&s, "B2"), Some(("Dwarf", 'H')));
}

// ---------------------------------------------------------------------------
// Retreat.

#[test]
fn mounted_unit_retreats_on_an_opponents_turn_to_the_smallest_legal_hex() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "C2", "Elf", 'M');
    put(&mut s, "B1", "Human", 'R');
    let before = s;
    ok(&mut s, "R@C1");
    // Legal: C3 and D2 (B2 is next to B1, D1 next to C1); C3 < D2.
    assert_eq!(at(&s, "C2"), None);
    assert_eq!(at(&s, "C3"), Some(("Elf", 'M')));
    assert_eq!(pile(&s, "Human", "Elf", Kind::M), 0);
    assert_eq!(s.force_mask, 0, "a Mounted retreat gives no forced advance");
    end(&mut s);
    assert_eq!(
        G::turn_comment(&before, &s),
        "placed Human R on C1; Elf M retreated C2-C3"
    );
}

#[test]
fn mounted_unit_does_not_retreat_on_its_own_turn() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "C3", "Elf", 'M');
    put(&mut s, "B1", "Human", 'R');
    put(&mut s, "C1", "Human", 'R');
    set_mover(&mut s, "Elf");
    ok(&mut s, "C3-C2");
    assert_eq!(at(&s, "C2"), None);
    assert_eq!(pile(&s, "Human", "Elf", Kind::M), 1);
}

#[test]
fn mounted_unit_without_a_legal_retreat_hex_is_captured() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "C1", "Elf", 'M');
    put(&mut s, "B1", "Human", 'R');
    ok(&mut s, "R@D1"); // C2, the only free neighbour, is next to B1 and D1
    assert_eq!(at(&s, "C1"), None);
    assert_eq!(pile(&s, "Human", "Elf", Kind::M), 1);
}

#[test]
fn awe_cancels_the_retreat_of_a_mounted_unit() {
    let mut s = new(&["Human", "Elf", "Falcon"], "no-arms-race");
    put(&mut s, "C2", "Elf", 'M');
    put(&mut s, "B1", "Human", 'R');
    put(&mut s, "D1", "Falcon", 'H'); // next to C2, not next to C3
    let mut t = s;
    ok(&mut t, "R@C1");
    assert_eq!(at(&t, "C2"), None);
    assert_eq!(at(&t, "C3"), None);
    assert_eq!(pile(&t, "Human", "Elf", Kind::M), 1);
    // Without the Falcon Hero there, the unit retreats to C3.
    s.clear(h("D1"));
    ok(&mut s, "R@C1");
    assert_eq!(at(&s, "C3"), Some(("Elf", 'M')));
}

#[test]
fn elf_regular_next_to_the_elf_hero_retreats() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "C2", "Elf", 'R');
    put(&mut s, "C3", "Elf", 'H');
    put(&mut s, "B1", "Human", 'R');
    ok(&mut s, "R@C1");
    // C3 is taken by the Hero; B2 and D1 are next to Humans: D2.
    assert_eq!(at(&s, "D2"), Some(("Elf", 'R')));
    assert_eq!(s.force_mask, h("C2").bit());
    // Away from the Hero, the Regular is captured.
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "C2", "Elf", 'R');
    put(&mut s, "E3", "Elf", 'H');
    put(&mut s, "B1", "Human", 'R');
    ok(&mut s, "R@C1");
    assert_eq!(pile(&s, "Human", "Elf", Kind::R), 1);
}

#[test]
fn elf_hero_retreats_too() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "C2", "Elf", 'H');
    put(&mut s, "B1", "Human", 'R');
    ok(&mut s, "R@C1");
    assert_eq!(at(&s, "C3"), Some(("Elf", 'H')));
    assert_eq!(s.force_mask, h("C2").bit());
}

#[test]
fn awe_does_not_stop_an_elf_hero_retreat() {
    let mut s = new(&["Human", "Elf", "Falcon"], "no-arms-race");
    put(&mut s, "C2", "Elf", 'H');
    put(&mut s, "B1", "Human", 'R');
    put(&mut s, "D1", "Falcon", 'H');
    ok(&mut s, "R@C1");
    assert_eq!(at(&s, "C3"), Some(("Elf", 'H')));
}

#[test]
fn retreats_go_one_at_a_time_in_label_order() {
    // Human places B2: the Elf Hero on C2 (B1, B2, C1) and the Elf Regular
    // next to it on C3 (B2, B3) are victims, and the Elves capture B2 (C2,
    // C3) at the same time. B2 is removed first; then C2 retreats to D2,
    // its only legal hex, which leaves C3 none: it is captured.
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "C2", "Elf", 'H');
    put(&mut s, "C3", "Elf", 'R');
    for hex in ["B1", "B3", "C1"] {
        put(&mut s, hex, "Human", 'R');
    }
    put(&mut s, "D4", "Human", 'H');
    ok(&mut s, "R@B2");
    assert_eq!(at(&s, "D2"), Some(("Elf", 'H')));
    assert_eq!(at(&s, "C2"), None);
    assert_eq!(at(&s, "C3"), None);
    assert_eq!(at(&s, "B2"), None);
    assert_eq!(pile(&s, "Human", "Elf", Kind::R), 1);
    assert_eq!(pile(&s, "Elf", "Human", Kind::R), 1);
    assert_eq!(s.force_mask, h("C2").bit());
}

#[test]
fn a_victim_without_a_retreat_hex_when_found_is_removed_first() {
    // Elf M on C3 has no legal hex when the victims are found (D3 is next
    // to the Goblin on D2); that the Goblin is removed in the same round
    // does not save it.
    let mut s = new(&["Human", "Elf", "Goblin"], "no-arms-race");
    put(&mut s, "C3", "Elf", 'M');
    put(&mut s, "C4", "Elf", 'R');
    put(&mut s, "D2", "Goblin", 'R');
    put(&mut s, "D1", "Human", 'R');
    put(&mut s, "B2", "Human", 'R');
    ok(&mut s, "R@C2");
    assert_eq!(at(&s, "C3"), None);
    assert_eq!(at(&s, "D2"), None);
    assert_eq!(at(&s, "D3"), None);
    assert_eq!(pile(&s, "Human", "Elf", Kind::M), 1);
    assert_eq!(pile(&s, "Human", "Goblin", Kind::R), 1);
}

// ---------------------------------------------------------------------------
// The Elf Hero's forced advance.

fn forced_advance_position() -> State {
    // Human's turn: R@C1 makes the Elf Hero on C2 retreat to C3.
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "C2", "Elf", 'H');
    put(&mut s, "D2", "Elf", 'R');
    put(&mut s, "B1", "Human", 'R');
    begin(&mut s);
    ok(&mut s, "R@C1");
    assert_eq!(at(&s, "C3"), Some(("Elf", 'H')));
    end(&mut s);
    begin(&mut s);
    s
}

#[test]
fn elf_hero_retreat_lets_the_elf_force_an_enemy_forward() {
    let mut s = forced_advance_position();
    let before = s;
    ok(&mut s, "force B1-C2");
    // The Human unit on C2 is next to C3 and D2: captured on the Elf turn.
    assert_eq!(at(&s, "C2"), None);
    assert_eq!(pile(&s, "Elf", "Human", Kind::R), 1);
    assert_eq!(s.t.adv_to, h("C2").bit(), "the Elf may advance");
    ok(&mut s, "R@E3"); // the turn's action still follows
    end(&mut s);
    assert_eq!(
        G::turn_comment(&before, &s),
        "forced forward Human R B1-C2; captured Human R on C2 (Elf); placed Elf R on E3"
    );
}

#[test]
fn forced_advance_must_be_the_turns_first_action() {
    let mut s = forced_advance_position();
    ok(&mut s, "R@E3");
    assert_eq!(
        reason(&mut s, "force B1-C2"),
        "a forced advance must be the turn's first action"
    );
}

#[test]
fn forced_advance_lapses_after_the_elfs_next_turn() {
    let mut s = forced_advance_position();
    ok(&mut s, "R@E3");
    end(&mut s);
    begin(&mut s);
    ok(&mut s, "R@A3"); // Human
    end(&mut s);
    begin(&mut s);
    assert_eq!(
        reason(&mut s, "force B1-C2"),
        "no Elf unit left C2 in a retreat the Elf Hero gave since your last turn"
    );
}

#[test]
fn forced_advance_reasons() {
    let mut s = forced_advance_position();
    assert_eq!(reason(&mut s, "force D2-C2"), "D2 holds no enemy unit");
    assert_eq!(reason(&mut s, "force E2-C2"), "E2 holds no enemy unit");
    put(&mut s, "E1", "Human", 'R');
    assert_eq!(reason(&mut s, "force E1-C2"), "E1 is not next to C2");
    assert_eq!(
        reason(&mut s, "force B1-A1"),
        "no Elf unit left A1 in a retreat the Elf Hero gave since your last turn"
    );
    s.put(h("C2"), HUMAN, Kind::H);
    assert_eq!(reason(&mut s, "force B1-C2"), "C2 is occupied");
    let mut s = new(&["Human", "Elf"], "");
    assert_eq!(
        reason(&mut s, "force B1-C2"),
        "only the Elf army can force an advance"
    );
}

// ---------------------------------------------------------------------------
// Dwarf Hero: Berserk.

fn dwarf() -> State {
    let mut s = new(&["Dwarf", "Elf"], "no-arms-race");
    put(&mut s, "E1", "Dwarf", 'H');
    put(&mut s, "A1", "Dwarf", 'R');
    s
}

#[test]
fn dwarf_hero_berserk_move_after_the_main_action() {
    let mut s = dwarf();
    let before = s;
    ok(&mut s, "R@C5");
    ok(&mut s, "E1-E2");
    end(&mut s);
    assert_eq!(
        G::turn_comment(&before, &s),
        "placed Dwarf R on C5; Berserk: moved Dwarf H E1-E2"
    );
}

#[test]
fn dwarf_hero_berserk_move_before_the_main_action() {
    let mut s = dwarf();
    let before = s;
    ok(&mut s, "E1-E2");
    ok(&mut s, "A1-A2");
    end(&mut s);
    assert_eq!(at(&s, "E2"), Some(("Dwarf", 'H')));
    assert_eq!(at(&s, "A2"), Some(("Dwarf", 'R')));
    assert_eq!(
        G::turn_comment(&before, &s),
        "Berserk: moved Dwarf H E1-E2; moved Dwarf R A1-A2"
    );
}

#[test]
fn dwarf_hero_move_alone_is_the_turns_action() {
    let mut s = dwarf();
    let before = s;
    ok(&mut s, "E1-E2");
    end(&mut s);
    assert_eq!(G::to_move(&s), ELF);
    assert_eq!(G::turn_comment(&before, &s), "moved Dwarf H E1-E2");
}

#[test]
fn dwarf_hero_moves_at_most_twice_and_only_once_as_berserk() {
    let mut s = dwarf();
    ok(&mut s, "E1-E2");
    assert_eq!(
        reason(&mut s, "E2-E3"),
        "the Dwarf Hero has already moved this turn"
    );
    let mut s = dwarf();
    ok(&mut s, "R@C5");
    ok(&mut s, "E1-E2");
    assert_eq!(
        reason(&mut s, "E2-E3"),
        "the Dwarf Hero has already moved this turn"
    );
    assert_eq!(
        reason(&mut s, "A1-A2"),
        "the turn's action was already made"
    );
}

#[test]
fn berserk_accompanies_only_a_placement_or_a_move() {
    let mut s = new(&["Dwarf", "Elf"], "no-hero-or-mounted");
    put(&mut s, "E1", "Dwarf", 'H');
    put(&mut s, "A1", "Dwarf", 'M');
    ok(&mut s, "withdraw");
    assert_eq!(
        reason(&mut s, "E1-E2"),
        "the turn's action was already made"
    );
    let mut s = new(&["Dwarf", "Elf"], "no-hero-or-mounted");
    put(&mut s, "E1", "Dwarf", 'H');
    put(&mut s, "A1", "Dwarf", 'M');
    ok(&mut s, "E1-E2");
    assert_eq!(
        reason(&mut s, "withdraw"),
        "the turn's action was already made"
    );
}

#[test]
fn other_armies_make_one_action_a_turn() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    ok(&mut s, "R@A1");
    assert_eq!(
        reason(&mut s, "A1-A2"),
        "the turn's action was already made"
    );
    assert_eq!(reason(&mut s, "R@A3"), "the turn's action was already made");
}

// ---------------------------------------------------------------------------
// Withdraw.

#[test]
fn withdraw_returns_the_mounted_unit_to_reserve() {
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "C2", "Human", 'M');
    let before = s;
    ok(&mut s, "withdraw");
    assert_eq!(at(&s, "C2"), None);
    assert_eq!(reserve(&s, "Human", Kind::M), 1);
    end(&mut s);
    assert_eq!(G::turn_comment(&before, &s), "withdrew Human M from C2");
}

#[test]
fn withdraw_reasons() {
    let mut s = new(&["Human", "Elf"], "");
    assert_eq!(
        reason(&mut s, "withdraw"),
        "the Human Mounted unit is not on the map"
    );
    let mut s = new(&["Falcon", "Elf"], "");
    assert_eq!(
        reason(&mut s, "withdraw"),
        "the Falcon army has no Mounted unit"
    );
}

#[test]
fn awe_cancels_withdraw() {
    let mut s = new(&["Human", "Falcon"], "");
    put(&mut s, "C2", "Human", 'M');
    put(&mut s, "C3", "Falcon", 'H');
    assert_eq!(
        reason(&mut s, "withdraw"),
        "the Human Mounted unit on C2 is next to the Falcon Hero (Awe) and cannot withdraw"
    );
}

// ---------------------------------------------------------------------------
// Rally.

/// Turn order Elf, Human, Dwarf; the Human has a Regular in the Elf's and
/// in the Dwarf's pile and holds an Elf Regular.
fn rally_position() -> State {
    from_position("3/4/5/4/3 Human 1 Elf:R3M1H1:HR1,Human:R2M1H1:ER1,Dwarf:R4M1H1:HR1 - - - - *")
}

#[test]
fn rally_is_a_chance_settled_at_the_next_players_turn() {
    let mut s = rally_position();
    begin(&mut s);
    ok(&mut s, "rally");
    assert_eq!(G::pending(&s), None, "pending only once the turn ends");
    end(&mut s);
    assert_eq!(
        G::pending(&s),
        Some(crate::game::ChanceRequest {
            label: "rally",
            n: 2,
            count: 1
        })
    );
    assert_eq!(
        G::summary(&s),
        "Dwarf to move (3 players in); pending rally by Human"
    );
    assert_eq!(
        position_of(&s),
        "3/4/5/4/3 Dwarf 2 Elf:R3M1H1:HR1,Human:R2M1H1:ER1,Dwarf:R4M1H1:HR1 - - - Human:1 *"
    );
    assert_eq!(
        G::begin_turn(&mut s, &mut Undrawn).unwrap_err().reason,
        "the rally by Human must be settled first"
    );
    let before = s;
    G::settle(&mut s, &[1]).unwrap();
    assert_eq!(G::pending(&s), None);
    assert_eq!(reserve(&s, "Human", Kind::R), 3);
    // The first opponent in turn order holding one: the Elf.
    assert_eq!(pile(&s, "Elf", "Human", Kind::R), 0);
    assert_eq!(pile(&s, "Dwarf", "Human", Kind::R), 1);
    begin(&mut s);
    ok(&mut s, "R@A1");
    end(&mut s);
    assert_eq!(
        G::turn_comment(&before, &s),
        "rally by Human: heads, Human R from Elf's pile back to Reserve; placed Dwarf R on A1"
    );
}

#[test]
fn rally_tails_has_no_effect() {
    let mut s = rally_position();
    ok(&mut s, "rally");
    end(&mut s);
    G::settle(&mut s, &[0]).unwrap();
    assert_eq!(reserve(&s, "Human", Kind::R), 2);
    assert_eq!(s.captured_of(HUMAN), 2);
    assert_eq!(G::pending(&s), None);
}

#[test]
fn rally_takes_from_the_pile_named() {
    let mut s = rally_position();
    ok(&mut s, "rally Dwarf");
    end(&mut s);
    G::settle(&mut s, &[1]).unwrap();
    assert_eq!(pile(&s, "Dwarf", "Human", Kind::R), 0);
    assert_eq!(pile(&s, "Elf", "Human", Kind::R), 1);
}

#[test]
fn rally_needs_two_units_captured_and_a_prisoner() {
    let mut s = rally_position();
    s.pile[usize::from(DWARF)][usize::from(HUMAN)][0] = 0;
    assert_eq!(
        reason(&mut s, "rally"),
        "rally needs at least two of your units captured"
    );
    let mut s = rally_position();
    s.pile[usize::from(HUMAN)][usize::from(ELF)][0] = 0;
    assert_eq!(
        reason(&mut s, "rally"),
        "rally needs at least one opposing unit in your Captured pile"
    );
}

#[test]
fn mounted_units_are_never_rallied() {
    let mut s = rally_position();
    s.pile[usize::from(ELF)][usize::from(HUMAN)] = [0, 1, 0];
    s.pile[usize::from(DWARF)][usize::from(HUMAN)] = [0, 0, 1];
    assert_eq!(
        reason(&mut s, "rally"),
        "no Regular unit of yours is captured (only Regulars can be rallied)"
    );
    // With a Regular and the Mounted unit captured, the Regular comes back.
    let mut s = rally_position();
    s.pile[usize::from(ELF)][usize::from(HUMAN)] = [0, 1, 0];
    ok(&mut s, "rally");
    end(&mut s);
    G::settle(&mut s, &[1]).unwrap();
    assert_eq!(pile(&s, "Elf", "Human", Kind::M), 1);
    assert_eq!(pile(&s, "Dwarf", "Human", Kind::R), 0);
}

#[test]
fn rally_pile_reasons() {
    let mut s = rally_position();
    assert_eq!(reason(&mut s, "rally Goblin"), "Goblin is not in this game");
    assert_eq!(
        reason(&mut s, "rally Human"),
        "you cannot rally from your own Captured pile"
    );
    s.pile[usize::from(DWARF)][usize::from(HUMAN)] = [0, 1, 0];
    assert_eq!(
        reason(&mut s, "rally Dwarf"),
        "Dwarf's Captured pile holds no Regular of yours"
    );
    assert_eq!(
        reason(&mut s, "rally @C2"),
        "only the Goblin Horde places a rallied unit"
    );
}

#[test]
fn settle_checks_its_values() {
    let mut s = rally_position();
    assert_eq!(
        G::settle(&mut s, &[1]).unwrap_err().reason,
        "no chance event is pending"
    );
    ok(&mut s, "rally");
    end(&mut s);
    assert_eq!(
        G::settle(&mut s, &[1, 0]).unwrap_err().reason,
        "the rally needs 1 coin value, got 2"
    );
    assert_eq!(
        G::settle(&mut s, &[5]).unwrap_err().reason,
        "a coin value must be 0 or 1, got 5"
    );
}

/// Goblin to move, Hero on C1, two Goblin Regulars in the Human pile and a
/// Human Regular in the Goblin pile; a Human Regular on B1.
fn horde_position() -> State {
    let mut s = new(&["Goblin", "Human"], "");
    put(&mut s, "C1", "Goblin", 'H');
    put(&mut s, "B1", "Human", 'R');
    s.reserve[usize::from(GOBLIN)][0] -= 2;
    s.pile[usize::from(HUMAN)][usize::from(GOBLIN)][0] = 2;
    s.reserve[usize::from(HUMAN)][0] -= 1;
    s.pile[usize::from(GOBLIN)][usize::from(HUMAN)][0] = 1;
    s
}

#[test]
fn goblin_horde_flips_twice_with_the_hero_on_the_map() {
    let mut s = horde_position();
    ok(&mut s, "rally");
    end(&mut s);
    assert_eq!(G::pending(&s).map(|r| r.count), Some(2));
    let mut t = s;
    G::settle(&mut t, &[0, 1]).unwrap();
    assert_eq!(reserve(&t, "Goblin", Kind::R), 3);
    G::settle(&mut s, &[0, 0]).unwrap();
    assert_eq!(reserve(&s, "Goblin", Kind::R), 2);
    // Without the Hero on the map, one flip.
    let mut s = horde_position();
    s.clear(h("C1"));
    s.reserve[usize::from(GOBLIN)][2] = 1;
    ok(&mut s, "rally");
    end(&mut s);
    assert_eq!(G::pending(&s).map(|r| r.count), Some(1));
}

#[test]
fn goblin_horde_places_the_rallied_unit_next_to_the_hero_at_settlement() {
    let mut s = horde_position();
    ok(&mut s, "rally @C2");
    end(&mut s);
    let d = strip_ansi(&G::diagram(&s, DiagramStyle::default()));
    assert!(
        d.contains("Pending rally by Goblin (2 flips, to place on C2)"),
        "{d}"
    );
    assert!(d.lines().all(|l| l.chars().count() < 78), "{d}");
    G::settle(&mut s, &[1, 1]).unwrap();
    assert_eq!(at(&s, "C2"), Some(("Goblin", 'R')));
    // Captures are checked then: B1 is between C1 and C2. No advance.
    assert_eq!(at(&s, "B1"), None);
    assert_eq!(pile(&s, "Goblin", "Human", Kind::R), 2);
    assert_eq!(s.t.adv_to, 0);
    assert_eq!(G::to_move(&s), HUMAN);
}

#[test]
fn horde_placement_reasons() {
    let mut s = horde_position();
    assert_eq!(
        reason(&mut s, "rally @D4"),
        "D4 is not next to the Goblin Hero"
    );
    assert_eq!(reason(&mut s, "rally @B1"), "B1 is occupied");
    s.clear(h("C1"));
    assert_eq!(
        reason(&mut s, "rally @C2"),
        "the Goblin Hero is not on the map"
    );
    let mut s = horde_position();
    s.clear(h("C1"));
    s.put(h("C2"), GOBLIN, Kind::H);
    assert_eq!(
        reason(&mut s, "rally @C3"),
        "C3 is Chip: a new unit cannot be placed there"
    );
}

// ---------------------------------------------------------------------------
// Prisoner exchange.

fn exchange_position(options: &str) -> State {
    let mut s = new(&["Elf", "Human"], options);
    s.reserve[usize::from(HUMAN)][0] -= 2;
    s.pile[usize::from(ELF)][usize::from(HUMAN)][0] = 2;
    s.reserve[usize::from(ELF)][0] -= 1;
    s.pile[usize::from(HUMAN)][usize::from(ELF)][0] = 1;
    s
}

#[test]
fn prisoner_exchange_with_standing_consent() {
    let mut s = exchange_position("prisoner-exchange");
    begin(&mut s);
    ok(&mut s, "offer-exchange Human");
    ok(&mut s, "R@A1");
    end(&mut s);
    begin(&mut s);
    ok(&mut s, "R@E3");
    end(&mut s);
    begin(&mut s);
    ok(&mut s, "R@A3");
    end(&mut s);
    // Two turns later the Elf's consent still stands.
    begin(&mut s);
    let before = s;
    ok(&mut s, "exchange Elf");
    end(&mut s);
    assert_eq!(pile(&s, "Elf", "Human", Kind::R), 1);
    assert_eq!(pile(&s, "Human", "Elf", Kind::R), 0);
    assert_eq!(reserve(&s, "Human", Kind::R), 2);
    assert_eq!(reserve(&s, "Elf", Kind::R), 2);
    assert_eq!(
        G::turn_comment(&before, &s),
        "Human and Elf exchanged prisoners"
    );
}

#[test]
fn prisoner_exchange_needs_the_partners_offer() {
    let mut s = exchange_position("prisoner-exchange");
    set_mover(&mut s, "Human");
    assert_eq!(
        reason(&mut s, "exchange Elf"),
        "Elf has not offered an exchange to Human"
    );
    // The Human's own offer is no consent from the Elf.
    ok(&mut s, "offer-exchange Elf");
    assert_eq!(
        reason(&mut s, "exchange Elf"),
        "Elf has not offered an exchange to Human"
    );
}

#[test]
fn prisoner_exchange_is_an_optional_rule() {
    let mut s = exchange_position("");
    assert_eq!(
        reason(&mut s, "offer-exchange Human"),
        "prisoner exchange is not in play (see the Options tag)"
    );
    set_mover(&mut s, "Human");
    assert_eq!(
        reason(&mut s, "exchange Elf"),
        "prisoner exchange is not in play (see the Options tag)"
    );
}

#[test]
fn prisoner_exchange_reasons() {
    let mut s = exchange_position("prisoner-exchange");
    s.offers[usize::from(ELF)] = bit(HUMAN);
    set_mover(&mut s, "Human");
    assert_eq!(
        reason(&mut s, "exchange Human"),
        "you cannot exchange with yourself"
    );
    assert_eq!(
        reason(&mut s, "exchange Dwarf"),
        "Dwarf is not in this game"
    );
    let mut t = s;
    t.pile[usize::from(ELF)][usize::from(HUMAN)][0] = 1;
    assert_eq!(
        reason(&mut t, "exchange Elf"),
        "an exchange needs at least two of your units captured"
    );
    let mut t = s;
    t.pile[usize::from(HUMAN)][usize::from(ELF)] = [0, 1, 0];
    assert_eq!(
        reason(&mut t, "exchange Elf"),
        "an exchange with Elf needs one of its Regulars in your Captured pile"
    );
    let mut t = s;
    t.pile[usize::from(ELF)][usize::from(HUMAN)] = [0, 1, 1];
    assert_eq!(
        reason(&mut t, "exchange Elf"),
        "Elf's Captured pile holds no Regular of yours"
    );
    ok(&mut s, "exchange Elf");
    assert_eq!(
        reason(&mut s, "offer-exchange Human"),
        "you cannot offer an exchange to yourself"
    );
    ok(&mut s, "offer-exchange Elf");
    assert_eq!(
        reason(&mut s, "offer-exchange Elf"),
        "you have already offered an exchange to Elf"
    );
}

#[test]
fn no_exchange_with_a_player_who_is_out() {
    let mut s = new(&["Human", "Elf", "Dwarf"], "prisoner-exchange");
    s.out |= bit(DWARF);
    assert_eq!(
        reason(&mut s, "offer-exchange Dwarf"),
        "Dwarf is out of the game"
    );
}

// ---------------------------------------------------------------------------
// Elimination and victory.

#[test]
fn a_player_reduced_to_one_unit_is_out_at_once() {
    let mut s = new(&["Human", "Elf", "Dwarf"], "no-arms-race");
    put(&mut s, "B1", "Elf", 'R');
    put(&mut s, "E3", "Elf", 'R');
    s.reserve[usize::from(ELF)] = [0; 3];
    put(&mut s, "A1", "Human", 'R');
    begin(&mut s);
    let before = s;
    ok(&mut s, "R@C1");
    // The Elf's last unit leaves the game.
    assert_eq!(at(&s, "E3"), None);
    assert!(!s.in_game(ELF));
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
    end(&mut s);
    assert_eq!(G::to_move(&s), DWARF, "the Elf is skipped");
    assert_eq!(
        G::turn_comment(&before, &s),
        "placed Human R on C1; captured Elf R on B1 (Human); Elf is out"
    );
    assert_eq!(G::summary(&s), "Dwarf to move (2 players in)");
}

#[test]
fn the_last_player_in_wins() {
    let mut s = new(&["Human", "Elf"], "no-arms-race");
    put(&mut s, "B1", "Elf", 'R');
    put(&mut s, "E3", "Elf", 'R');
    s.reserve[usize::from(ELF)] = [0; 3];
    put(&mut s, "A1", "Human", 'R');
    ok(&mut s, "R@C1");
    assert_eq!(G::outcome(&s), Outcome::Won(HUMAN));
    assert_eq!(G::summary(&s), "Human won");
    assert_eq!(reason(&mut s, "A1-A2"), "the game is over (Human won)");
    end(&mut s);
    assert_eq!(
        G::begin_turn(&mut s, &mut Undrawn).unwrap_err().reason,
        "the game is over (Human won)"
    );
}

#[test]
fn a_draw_when_nobody_is_left() {
    let mut s = new(&["Human", "Elf"], "");
    put(&mut s, "A2", "Human", 'R');
    put(&mut s, "C2", "Human", 'R');
    put(&mut s, "A1", "Elf", 'R');
    put(&mut s, "C1", "Elf", 'R');
    s.reserve = [[0; 3]; 5];
    ok(&mut s, "C2-B1");
    assert_eq!(G::outcome(&s), Outcome::Draw);
    assert_eq!(G::summary(&s), "draw");
}

#[test]
fn a_player_out_on_its_own_turn_makes_no_more_actions() {
    let mut s = new(&["Human", "Elf", "Dwarf"], "");
    put(&mut s, "A2", "Human", 'R');
    put(&mut s, "C2", "Human", 'R');
    s.reserve[usize::from(HUMAN)] = [0; 3];
    put(&mut s, "A1", "Elf", 'R');
    put(&mut s, "C1", "Elf", 'R');
    ok(&mut s, "C2-B1");
    assert!(!s.in_game(HUMAN));
    assert_eq!(reason(&mut s, "R@A3"), "Human is out of the game");
    end(&mut s);
    assert_eq!(G::to_move(&s), ELF);
}

fn named_position(sides: &[&str]) -> State {
    let mut s = new(sides, "");
    put(&mut s, "B2", "Human", 'R');
    put(&mut s, "C4", "Human", 'R');
    put(&mut s, "D1", "Human", 'R');
    s
}

#[test]
fn three_named_spaces_win_when_no_falcon_is_in() {
    let mut s = named_position(&["Human", "Elf"]);
    ok(&mut s, "D1-D2");
    assert_eq!(G::outcome(&s), Outcome::Won(HUMAN));
}

#[test]
fn named_spaces_win_nothing_while_the_falcon_is_in() {
    let mut s = named_position(&["Human", "Falcon"]);
    ok(&mut s, "D1-D2");
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
    // Once the Falcon army leaves, the spaces win when the map settles.
    G::resign(&mut s, FALCON);
    assert_eq!(G::outcome(&s), Outcome::Won(HUMAN));
    let mut s = named_position(&["Human", "Falcon", "Elf"]);
    ok(&mut s, "D1-D2");
    G::resign(&mut s, FALCON);
    assert_eq!(G::outcome(&s), Outcome::Won(HUMAN));
}

#[test]
fn resigning_in_a_two_player_game_hands_the_other_the_win() {
    let mut s = new(&["Human", "Elf"], "");
    G::resign(&mut s, HUMAN);
    assert_eq!(G::outcome(&s), Outcome::Won(ELF));
}

#[test]
fn resigning_in_a_game_of_three_leaves_like_an_elimination() {
    let mut s = new(&["Human", "Elf", "Dwarf"], "");
    put(&mut s, "A1", "Human", 'R');
    begin(&mut s);
    G::resign(&mut s, HUMAN);
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
    assert_eq!(at(&s, "A1"), None);
    assert_eq!(G::to_move(&s), ELF);
    assert_eq!(s.players_in(), 2);
}

// ---------------------------------------------------------------------------
// Turns.

#[test]
fn a_turn_needs_its_action() {
    let mut s = new(&["Human", "Elf"], "");
    begin(&mut s);
    assert_eq!(
        G::end_turn(&mut s).unwrap_err().reason,
        "the turn needs its action (a placement, a move, a rally or a withdrawal); \
         a pass is legal only when none is possible"
    );
}

#[test]
fn pass_is_legal_only_when_no_action_is_possible() {
    // The Human unit on A1 is boxed in by three armies; arms race forbids a
    // placement (the Falcon has nothing on the map); nothing is captured.
    let mut s = new(&["Human", "Elf", "Dwarf", "Goblin", "Falcon"], "");
    put(&mut s, "A1", "Human", 'R');
    put(&mut s, "A2", "Elf", 'R');
    put(&mut s, "B1", "Goblin", 'R');
    put(&mut s, "B2", "Dwarf", 'R');
    s.reserve[usize::from(HUMAN)] = [1, 0, 0];
    let mut v = Vec::new();
    G::legal_actions(&s, &mut v);
    assert!(v.is_empty(), "{v:?}");
    begin(&mut s);
    let before = s;
    end(&mut s);
    assert_eq!(G::to_move(&s), ELF);
    assert_eq!(G::turn_comment(&before, &s), "pass");
}

#[test]
fn diagram_lines_fit_in_78_columns_with_long_lists() {
    // Five armies, the Goblin holding prisoners of all four others, every
    // exchange offered, a Goblin Horde rally pending and six hexes the Elf
    // may force an advance into.
    let text = "HR2/4/ER4/4/DRGHFR Falcon 57 Human:R1M0H0:GR2,Elf:R1M0H1,Dwarf:R1M1H1,\
                Goblin:R2M1H0:HR2HM1HH1ER2EM1DR2FR2,Falcon:R2M0H1 prisoner-exchange \
                Goblin>Human,Goblin>Elf,Goblin>Dwarf,Goblin>Falcon A2,A3,B1,B2,B3,B4 \
                Goblin:2@D2 *";
    let s = from_position(text);
    for unicode in [false, true] {
        let d = G::diagram(&s, DiagramStyle { unicode });
        let plain = anstream::adapter::strip_str(&d).to_string();
        assert!(plain.lines().all(|l| l.chars().count() <= 78), "{plain}");
        assert!(
            plain.contains(
                "Elf may force an advance into A2, A3, B1, B2, B3, B4 (first action of its \
                 next\n  turn)"
            ),
            "{plain}"
        );
        assert!(
            plain.contains("Hu R2 M1 H1, El R2 M1, Dw R2, Fa R2"),
            "{plain}"
        );
    }
}

/// Turn 21 of fixture `game-4p-only-a-rally-so-the-turn-passes-without-
/// commitments`: Dwarf, Goblin and Elf hold all 12 edge hexes and Human has
/// nothing on the map (no placement, no move); Human has three Regulars in
/// the Dwarf's pile and an Elf Regular in its own: a rally is its only
/// action.
const ONLY_A_RALLY: &str = "DHDRDR/DR2DR/GR3ER/EH2ER/ERGRGR Human 21 \
    Human:R1M1H1:ER1,Elf:R0M1H0,Dwarf:R0M1H0:HR3,Goblin:R1M1H1 no-arms-race - - - *";

#[test]
fn a_rally_the_next_player_cannot_settle_is_no_action_so_the_turn_may_pass() {
    // The next player, the Elf, can settle a rally: it is the one action,
    // and the turn may not pass.
    let mut s = from_position(ONLY_A_RALLY);
    Kit::begin_settled_by(&mut s, &[ELF]);
    assert_eq!(Kit::legal(&s), ["rally"]);
    assert_eq!(
        G::end_turn(&mut s.clone()).unwrap_err().reason,
        "the turn needs its action (a placement, a move, a rally or a withdrawal); a pass is \
         legal only when none is possible"
    );
    // In a game without commitments nobody can: nothing is listed and the
    // turn passes.
    let mut s = from_position(ONLY_A_RALLY);
    Kit::begin_settled_by(&mut s, &[]);
    assert!(Kit::legal(&s).is_empty());
    let before = s;
    end(&mut s);
    assert_eq!(G::to_move(&s), ELF);
    assert_eq!(G::turn_comment(&before, &s), "pass");
    // Only the next player's line settles it: the others' do not help.
    let mut s = from_position(ONLY_A_RALLY);
    Kit::begin_settled_by(&mut s, &[HUMAN, DWARF, GOBLIN]);
    assert!(Kit::legal(&s).is_empty());
    end(&mut s);
}

// ---------------------------------------------------------------------------
// Notation.

fn round_trip(s: &State) -> usize {
    let mut v = Vec::new();
    G::legal_actions(s, &mut v);
    for a in &v {
        let text = action_text::<G>(a);
        let back = G::parse_action(s, &text).unwrap_or_else(|e| panic!("{text}: {}", e.reason));
        assert_eq!(&back, a, "{text}");
        let lower = text.to_ascii_lowercase();
        assert_eq!(&G::parse_action(s, &lower).unwrap(), a, "{lower}");
        let mut t = *s;
        G::apply(&mut t, *a).unwrap_or_else(|e| panic!("{text}: {}", e.reason));
    }
    v.len()
}

#[test]
fn notation_round_trips_over_legal_actions() {
    let s = new(&["Human", "Elf"], "");
    assert_eq!(round_trip(&s), 12 * 3);
    let mut s = rally_position();
    s.opts.prisoner_exchange = true;
    s.offers[usize::from(ELF)] = bit(HUMAN);
    put(&mut s, "C2", "Human", 'M');
    assert!(round_trip(&s) > 10);
    let mut s = horde_position();
    s.opts.prisoner_exchange = true;
    assert!(round_trip(&s) > 10);
    let s = forced_advance_position();
    round_trip(&s);
    let mut s = advance_chain_position();
    ok(&mut s, "R@D1");
    round_trip(&s);
    let mut s = dwarf();
    ok(&mut s, "R@C5");
    round_trip(&s);
}

#[test]
fn notation_is_case_insensitive_and_allows_spaces() {
    let s = new(&["Human", "Elf"], "");
    let cases = [
        ("r@b1", "R@B1"),
        ("h @ e2", "H@E2"),
        ("b1 -\n c2", "B1-C2"),
        ("RALLY", "rally"),
        ("Rally ELF", "rally Elf"),
        ("rally goblin  @ c2", "rally Goblin @C2"),
        ("rally@d1", "rally @D1"),
        ("WITHDRAW", "withdraw"),
        ("exchange dwarf", "exchange Dwarf"),
        ("Offer-Exchange  FALCON", "offer-exchange Falcon"),
        ("force d3 - c2", "force D3-C2"),
        ("Force Post-Tree", "force C4-D2"),
    ];
    for (input, canon) in cases {
        let a = G::parse_action(&s, input).unwrap_or_else(|e| panic!("{input}: {}", e.reason));
        assert_eq!(action_text::<G>(&a), canon);
    }
}

#[test]
fn parse_errors_point_at_the_offending_text() {
    let s = new(&["Human", "Elf"], "");
    let check = |text: &str, offset: usize, len: usize, reason: &str| {
        let e = G::parse_action(&s, text).unwrap_err();
        assert_eq!((e.offset, e.len), (offset, len), "{text}: {}", e.reason);
        assert_eq!(e.reason, reason, "{text}");
    };
    check(
        "R@Z9",
        2,
        2,
        "expected a hex such as C3 or a named space (Chip, Fog, Post, Tree) after `@`",
    );
    check(
        "A4-B1",
        0,
        2,
        "A4 is not on the map: row A has hexes A1 to A3",
    );
    check(
        "B1-C6",
        3,
        2,
        "C6 is not on the map: row C has hexes C1 to C5",
    );
    check(
        "B1-",
        2,
        1,
        "expected a hex such as C3 or a named space (Chip, Fog, Post, Tree) after `-`",
    );
    check(
        "jump B1",
        0,
        4,
        "expected an action: a placement such as R@B1, a move such as B1-B2, \
         rally, withdraw, exchange, offer-exchange or force",
    );
    check(
        "rally Orc",
        6,
        3,
        "expected an army: Human, Elf, Dwarf, Goblin or Falcon or @ and a hex after `rally`",
    );
    check("B1-B2 x", 6, 1, "unexpected text after the action");
    check("X@B1", 0, 1, "expected a unit letter R, M or H before `@`");
    check(
        "B1",
        0,
        2,
        "a hex alone is not an action: write a move such as B1-C3",
    );
    check("B1 B2", 3, 1, "expected `-` and a hex after B1");
    check("pass", 0, 4, "`pass` stands alone on its line");
    check(
        "exchange",
        7,
        1,
        "expected an army: Human, Elf, Dwarf, Goblin or Falcon after `exchange`",
    );
}

// ---------------------------------------------------------------------------
// Summary and diagram.

#[test]
fn summary_names_the_mover_and_players_in() {
    let s = new(&["Goblin", "Human", "Elf"], "");
    assert_eq!(G::summary(&s), "Goblin to move (3 players in)");
}

#[test]
fn diagram_shows_map_reserves_piles_and_legend() {
    let mut s = rally_position();
    put(&mut s, "C3", "Human", 'M');
    put(&mut s, "B2", "Elf", 'H');
    let d = strip_ansi(&G::diagram(&s, DiagramStyle::default()));
    for line in d.lines() {
        assert!(line.chars().count() < 78, "{line}");
    }
    assert!(d.contains("Turn 1: Human to move"), "{d}");
    assert!(
        !d.contains("Battle of the Dale"),
        "the readers name the game: {d}"
    );
    assert!(d.contains("C3 Chip"), "{d}");
    assert!(d.contains("B2 Fog"), "{d}");
    assert!(d.contains("C4 Post"), "{d}");
    assert!(d.contains("D2 Tree"), "{d}");
    assert!(d.contains("{Hu:M}"), "{d}");
    assert!(d.contains("{El:H}"), "{d}");
    assert!(d.contains("[    ]"), "{d}");
    assert!(d.contains("Legend: Hu Human"), "{d}");
    assert!(d.contains("> Human      1  R2 M0 H1  El R1"), "{d}");
    assert!(d.contains("  Elf        1  R3 M1 H0  Hu R1"), "{d}");
    let u = strip_ansi(&G::diagram(&s, DiagramStyle { unicode: true }));
    assert!(u.contains("\u{27ea}Hu\u{b7}M\u{27eb}"), "{u}");
    // Row C is the widest and starts at the margin; row A is centred.
    let lines: Vec<&str> = d.lines().collect();
    assert!(
        lines[1].starts_with("           A1      A2"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("          [    ]  [    ]"),
        "{}",
        lines[2]
    );
    assert!(lines[5].starts_with("   C1"), "{}", lines[5]);
    assert!(lines[6].starts_with("  [    ]"), "{}", lines[6]);
}

#[test]
fn diagram_shows_eliminated_players_and_forced_advance() {
    let s = forced_advance_position();
    let d = strip_ansi(&G::diagram(&s, DiagramStyle::default()));
    assert!(
        d.contains("Elf may force an advance into C2 (first action of its next turn)"),
        "{d}"
    );
    let mut s = new(&["Human", "Elf", "Dwarf"], "");
    s.out |= bit(ELF);
    s.reserve[usize::from(ELF)] = [0; 3];
    let d = strip_ansi(&G::diagram(&s, DiagramStyle::default()));
    assert!(d.contains("  Elf      out"), "{d}");
}

// ---------------------------------------------------------------------------
// Random self-play.

#[test]
fn random_self_play_keeps_the_contract() {
    let mut rng = SplitMix::new(0x9e37_79b9_7f4a_7c15);
    let mut finished = 0;
    for game in 0..200 {
        let mut armies: Vec<&str> = G::SIDES.to_vec();
        for i in (1..armies.len()).rev() {
            let j = rng.below(i + 1);
            armies.swap(i, j);
        }
        let n = 2 + rng.below(4);
        let opts = match game % 4 {
            0 => "",
            1 => "prisoner-exchange",
            2 => "no-arms-race no-max-5-units",
            _ => "prisoner-exchange no-hero-or-mounted",
        };
        let mut s = new(&armies[..n], opts);
        for _turn in 0..200 {
            if G::outcome(&s).is_over() {
                break;
            }
            if let Some(req) = G::pending(&s) {
                let vals: Vec<u32> = (0..req.count)
                    .map(|_| rng.below(req.n as usize) as u32)
                    .collect();
                G::settle(&mut s, &vals).unwrap();
                if G::outcome(&s).is_over() {
                    break;
                }
            }
            random_turn(&mut s, &mut rng);
            every_unit_is_somewhere(&s);
        }
        if G::outcome(&s).is_over() {
            finished += 1;
        }
    }
    assert!(finished > 20, "only {finished} games finished");
}

/// Play one turn of random legal actions, each read back from its text,
/// and end it (with more actions when the rules want them); then draw the
/// summary, diagram and turn comment.
fn random_turn(s: &mut State, rng: &mut SplitMix) {
    let mut v = Vec::new();
    begin(s);
    for _ in 0..20 {
        v.clear();
        G::legal_actions(s, &mut v);
        if v.is_empty() {
            break;
        }
        let can_end = G::end_turn(&mut s.clone()).is_ok();
        if can_end && rng.below(3) == 0 {
            break;
        }
        let a = v[rng.below(v.len())];
        let text = action_text::<G>(&a);
        assert_eq!(G::parse_action(s, &text).unwrap(), a, "{text}");
        G::apply(s, a).unwrap_or_else(|e| panic!("{text}: {}", e.reason));
        if G::outcome(s).is_over() {
            break;
        }
    }
    let before_end = *s;
    if let Err(e) = G::end_turn(s) {
        // Only possible when actions remained: make one and retry.
        v.clear();
        G::legal_actions(&before_end, &mut v);
        assert!(
            !v.is_empty(),
            "end_turn failed with no legal action: {}",
            e.reason
        );
        let mut tries = 0;
        while G::end_turn(s).is_err() {
            v.clear();
            G::legal_actions(s, &mut v);
            assert!(!v.is_empty(), "stuck: {}", G::summary(s));
            let a = v[rng.below(v.len())];
            G::apply(s, a).unwrap();
            tries += 1;
            assert!(tries < 10, "end_turn never succeeds");
        }
    }
    let _ = G::summary(s);
    let _ = G::diagram(s, DiagramStyle::default());
    let _ = G::turn_comment(&before_end, s);
}

/// Every unit of an army still in is somewhere: on the map, in its
/// Reserve or in a Captured pile; and the army has two units at least.
fn every_unit_is_somewhere(s: &State) {
    for &a in s.sides() {
        if s.in_game(a) {
            let total = s.strength(a) + s.captured_of(a);
            let start: u32 = starting_army(a).iter().map(|&x| u32::from(x)).sum();
            assert_eq!(total, start, "{} units", ARMY[usize::from(a)]);
            assert!(s.strength(a) >= 2);
        }
    }
}

#[test]
fn piles_of_an_eliminated_army_stay_and_can_be_rallied_from() {
    let mut s = rally_position();
    // The Elf is out; its pile (with a Human Regular) stays, and the Elf
    // Regular in the Human pile still counts as a prisoner.
    s.out |= bit(ELF);
    s.reserve[usize::from(ELF)] = [0; 3];
    s.pile[usize::from(DWARF)][usize::from(HUMAN)][0] = 0;
    s.pile[usize::from(ELF)][usize::from(HUMAN)][0] = 2;
    ok(&mut s, "rally Elf");
    end(&mut s);
    G::settle(&mut s, &[1]).unwrap();
    assert_eq!(pile(&s, "Elf", "Human", Kind::R), 1);
    assert_eq!(reserve(&s, "Human", Kind::R), 3);
}

#[test]
fn horde_placement_no_longer_legal_at_settlement_goes_to_reserve() {
    let mut s = horde_position();
    ok(&mut s, "rally @C2");
    end(&mut s);
    s.put(h("C2"), HUMAN, Kind::H);
    G::settle(&mut s, &[1, 0]).unwrap();
    assert_eq!(at(&s, "C2"), Some(("Human", 'H')));
    assert_eq!(reserve(&s, "Goblin", Kind::R), 3);
}

#[test]
fn settlement_captures_happen_on_the_rallying_players_turn() {
    // The Human Mounted unit caught by the Horde placement retreats (it is
    // not the Human's turn that is being played out but the Goblin's).
    let mut s = new(&["Goblin", "Human"], "");
    put(&mut s, "C1", "Goblin", 'H');
    put(&mut s, "B1", "Human", 'M');
    s.reserve[usize::from(GOBLIN)][0] -= 2;
    s.pile[usize::from(HUMAN)][usize::from(GOBLIN)][0] = 2;
    s.reserve[usize::from(HUMAN)][0] -= 1;
    s.pile[usize::from(GOBLIN)][usize::from(HUMAN)][0] = 1;
    ok(&mut s, "rally @C2");
    end(&mut s);
    G::settle(&mut s, &[1, 1]).unwrap();
    // B1's free neighbours: A1 (next to nothing Goblin) and B2 (next to
    // C2): A1.
    assert_eq!(at(&s, "A1"), Some(("Human", 'M')));
}

#[test]
fn options_accept_no_prisoner_exchange() {
    let s = new(&["Human", "Elf"], "no-prisoner-exchange");
    assert!(!s.opts.prisoner_exchange);
}

const EXAMPLE: &str = "\
1. Human: R@B1
2. Elf: R@E3
3. Human: R@Fog
4. Elf: R@D4
5. Human: R@C2
6. Elf: M@Post
7. Human: C2-C3
8. Elf: R@D3, D3-C3
9. Human: R@C2, C2-C3
10. Elf: R@C5
11. Human: H@Tree";

#[test]
fn example_game_from_the_notation_spec_replays() {
    let mut s = new(&["Human", "Elf"], "");
    let mut comments = Vec::new();
    for line in EXAMPLE.lines() {
        let (_, rest) = line.split_once(". ").unwrap();
        let (side_name, actions) = rest.split_once(": ").unwrap();
        assert_eq!(G::to_move(&s), side(side_name), "{line}");
        begin(&mut s);
        let before = s;
        for a in actions.split(',') {
            ok(&mut s, a.trim());
        }
        end(&mut s);
        comments.push(G::turn_comment(&before, &s));
    }
    assert_eq!(
        comments[7],
        "placed Elf R on D3; captured Human R on C3 (Elf); advanced Elf R D3-C3"
    );
    assert_eq!(
        comments[8],
        "placed Human R on C2; captured Elf R on C3 (Human); advanced Human R C2-C3"
    );
    assert_eq!(comments[10], "placed Human H on D2; Human won");
    assert_eq!(G::outcome(&s), Outcome::Won(HUMAN));
}

// ---------------------------------------------------------------------------
// Position notation.

fn position_of(s: &State) -> String {
    crate::game::position_text::<G>(s)
}

/// The reason a position text is refused, and the text it points at.
fn refused_position(text: &str) -> (String, String) {
    let e = G::parse_position(text).expect_err(text);
    (e.reason, text[e.offset..e.offset + e.len].to_string())
}

#[test]
fn start_position_notation() {
    // An empty map (rows of 3, 4, 5, 4, 3 hexes), the first army to move on
    // turn 1, every army's starting army in Reserve, nothing captured, the
    // default options, no offers, no forced advance, no rally.
    let s = new(&["Human", "Elf"], "");
    let text = "3/4/5/4/3 Human 1 Human:R4M1H1,Elf:R4M1H1 - - - - *";
    assert_eq!(position_of(&s), text);
    assert_eq!(from_position(text).reserve, s.reserve);
    let s = new(
        &["Goblin", "Falcon", "Human", "Elf", "Dwarf"],
        "no-arms-race prisoner-exchange",
    );
    let text = "3/4/5/4/3 Goblin 1 \
                Goblin:R4M1H1,Falcon:R5M0H1,Human:R4M1H1,Elf:R4M1H1,Dwarf:R4M1H1 \
                prisoner-exchange,no-arms-race - - - *";
    assert_eq!(position_of(&s), text);
    let back = from_position(text);
    assert_eq!(back.opts, s.opts);
    assert_eq!(back.sides(), s.sides());
}

#[test]
fn position_states_offers_and_the_forced_advance() {
    let mut s = new(&["Human", "Elf"], "prisoner-exchange");
    put(&mut s, "B1", "Human", 'R');
    put(&mut s, "C3", "Elf", 'H');
    s.offers[usize::from(HUMAN)] = bit(ELF);
    s.force_mask = h("C2").bit() | h("D1").bit();
    s.turn_no = 7;
    let text = "3/HR3/2EH2/4/3 Human 7 Human:R3M1H1,Elf:R4M1H0 prisoner-exchange Human>Elf \
                C2,D1 - *";
    assert_eq!(position_of(&s), text);
    let back = from_position(text);
    assert_eq!(back.board(), s.board());
    assert_eq!(back.offers, s.offers);
    assert_eq!(G::summary(&back), G::summary(&s));
}

#[test]
fn position_states_armies_that_are_out_and_what_they_hold() {
    let s =
        from_position("3/4/GR4/4/3 Goblin 9 Human:out:GR2,Goblin:R1M1H1:HR4HM1HH1 - - - - Goblin");
    assert_eq!(G::outcome(&s), Outcome::Won(GOBLIN));
    assert!(!s.in_game(HUMAN));
    assert_eq!(pile(&s, "Human", "Goblin", Kind::R), 2);
    assert_eq!(pile(&s, "Goblin", "Human", Kind::M), 1);
}

/// One table of cases (text, reason, the part shown): long, but one case a
/// row, read top to bottom; split up, the cases would be harder to compare.
#[test]
fn malformed_positions_are_refused_with_a_reason() {
    let start = "Human:R4M1H1,Elf:R4M1H1";
    let cases = [
        (
            format!("3/4/5/4/3 Human 1 {start} - - - -"),
            "the result field is missing: a position has 9 fields: map, mover, turn, armies, \
             options, offers, force, rally, result",
            "-",
        ),
        (
            format!("3/4/5/4/4 Human 1 {start} - - - - *"),
            "row E has more than its 3 hexes",
            "4",
        ),
        (
            format!("3/4/5/4/XR2 Human 1 {start} - - - - *"),
            "expected a unit (army initial H E D G F and kind R M H, e.g. ER) or a digit \
             (empty hexes)",
            "XR",
        ),
        (
            format!("3/4/5/4/3 Orc 1 {start} - - - - *"),
            "expected the army to move: Human, Elf, Dwarf, Goblin or Falcon, not `Orc`",
            "Orc",
        ),
        (
            format!("3/4/5/4/3 Dwarf 1 {start} - - - - *"),
            "Dwarf does not play in this game",
            "Dwarf",
        ),
        (
            format!("3/4/5/4/3 Human 0 {start} - - - - *"),
            "expected the turn number, from 1",
            "0",
        ),
        (
            "3/4/5/4/3 Human 1 Human:R4M1H1 - - - - *".to_string(),
            "expected 2 to 5 armies in turn order, separated by `,`, got 1",
            "Human:R4M1H1",
        ),
        (
            "3/4/5/4/3 Human 1 Human:R4M1H1,Human:R4M1H1 - - - - *".to_string(),
            "Human is listed twice",
            "Human",
        ),
        (
            "3/4/5/4/3 Human 1 Human:R4M1,Elf:R4M1H1 - - - - *".to_string(),
            "expected a Reserve such as R4M1H1 (Regulars, Mounted, Heroes), or out",
            "R4M1",
        ),
        (
            "3/4/5/4/3 Human 1 Human:R5M1H1,Elf:R4M1H1 - - - - *".to_string(),
            "Human has 5 Regular units on the map, in Reserve and captured: it starts with 4",
            "3/4/5/4/3",
        ),
        (
            "3/4/5/4/3 Human 1 Human:R4M1H1:HR1,Elf:R3M1H1 - - - - *".to_string(),
            "Human's Captured pile holds other armies' units, at least one",
            "HR1",
        ),
        (
            "3/4/5/4/3 Human 1 Human:R4M1H1:DR1,Elf:R3M1H1 - - - - *".to_string(),
            "Dwarf does not play in this game: it has no units",
            "3/4/5/4/3",
        ),
        (
            format!("3/4/5/4/3 Human 1 {start} max-5-units - - - *"),
            "expected - or optional rules that differ from the defaults: prisoner-exchange, \
             no-max-5-units, no-arms-race, no-hero-or-mounted",
            "max-5-units",
        ),
        (
            format!("3/4/5/4/3 Human 1 {start} - Human>Human - - *"),
            "an army makes no offer to itself",
            "Human>Human",
        ),
        (
            format!("3/4/5/4/3 Human 1 {start} - - C6 - *"),
            "C6 is not on the map: row C has hexes C1 to C5",
            "C6",
        ),
        (
            format!("3/4/5/4/3 Human 1 {start} - - - Elf:3 *"),
            "expected the number of coin flips, 1 or 2, after the rallying army, e.g. Elf:1",
            "3",
        ),
        (
            format!("3/4/5/4/3 Human 1 {start} - - - - Dwarf"),
            "Dwarf does not play in this game",
            "Dwarf",
        ),
    ];
    for (text, reason, shown) in cases {
        assert_eq!(
            refused_position(&text),
            (reason.to_string(), shown.to_string()),
            "{text}"
        );
    }
}

#[test]
fn kind_masks_are_every_side_and_kind_at_once() {
    let mut s = new(&["Human", "Elf", "Falcon"], "");
    put(&mut s, "C2", "Human", 'R');
    put(&mut s, "C3", "Human", 'M');
    put(&mut s, "B1", "Elf", 'H');
    put(&mut s, "D4", "Falcon", 'H');
    put(&mut s, "E1", "Falcon", 'R');
    let masks = s.kind_masks();
    for side in ARMIES {
        for kind in [Kind::R, Kind::M, Kind::H] {
            let k = usize::from(unit_code(side, kind) - 1);
            assert_eq!(masks[k], s.own_kind(side, kind), "{side:?} {kind:?}");
        }
    }
    assert_eq!(
        masks[usize::from(unit_code(HUMAN, Kind::M) - 1)],
        h("C3").bit()
    );
    assert_eq!(masks.iter().fold(0, |m, k| m | k), s.occupied());
}
