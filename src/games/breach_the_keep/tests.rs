//! Tests named after the rules they check (docs/games/breach-the-keep.md section 7).

use super::board::{
    adjacent, cell_at, gate_between, is_entry, is_keep, neighbours, GATES, HOME, KEEPS, NCELLS,
};
use super::state::{Cell, Pos};
use super::*;
use crate::game::Undrawn;
use crate::game::{action_text, DiagramStyle, Game, Outcome, Setup, Side};
use crate::selfplay::SplitMix;

type G = BreachTheKeep;

const W: Side = state::WHITE;
const B: Side = state::BLACK;

/// A cell by name, e.g. `c(\"d3\")`.
fn c(name: &str) -> u8 {
    let col = name.as_bytes()[0] - b'a';
    let row: u32 = name[1..].parse().unwrap();
    cell_at(col, row).unwrap()
}

fn new_game_with(tags: &[(&str, &str)]) -> Result<State, crate::game::SetupError> {
    let tags: Vec<(String, String)> = tags
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let sides = [Side(0), Side(1)];
    G::new_game(&Setup {
        sides: &sides,
        tags: &tags,
    })
}

fn new() -> State {
    new_game_with(&[]).unwrap()
}

/// A position from a spec like `"d3:w d4:W c3:Ww b5:b"` (w/W White
/// single/double, b/B Black), end zones, home Keep values, side to move.
fn setup(spec: &str, zone: [u8; 2], keep: [u8; 2], side: Side) -> State {
    let mut pos = Pos::start(keep);
    pos.zone = zone;
    pos.side = side;
    for item in spec.split_whitespace() {
        let (name, stacks) = item.split_once(':').unwrap();
        let cell = &mut pos.cells[c(name) as usize];
        for ch in stacks.chars() {
            cell.set_owner(if ch.eq_ignore_ascii_case(&'w') { W } else { B });
            match ch {
                'w' | 'b' => cell.s += 1,
                'W' | 'B' => cell.d += 1,
                _ => panic!("bad stack {ch}"),
            }
        }
    }
    pos.recount();
    assert!(pos.invariants_hold());
    State::from_pos(pos)
}

type Kit = crate::games::testkit::Kit<G>;

/// A position from its notation (`position.rs`), with its turn begun.
fn at(text: &str) -> State {
    let mut s = G::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    assert!(s.pos.invariants_hold());
    s
}

/// Parse and apply one action, checking the position's invariants after.
fn act(s: &mut State, text: &str) -> Result<(), String> {
    Kit::play(s, text)?;
    assert!(s.pos.invariants_hold());
    Ok(())
}

fn ok(s: &mut State, text: &str) {
    if let Err(e) = act(s, text) {
        panic!("{text}: {e}");
    }
}

fn err(s: &mut State, text: &str) -> String {
    let before = s.pos;
    match act(s, text) {
        Ok(()) => panic!("{text} was accepted"),
        Err(e) => {
            assert_eq!(s.pos, before, "a refused action changed the position");
            e
        }
    }
}

/// Play a whole turn.
fn turn(s: &mut State, actions: &[&str]) -> Result<(), String> {
    G::begin_turn(s, &mut Undrawn).unwrap();
    for a in actions {
        act(s, a)?;
    }
    G::end_turn(s).map_err(|e| e.reason)
}

fn legal(s: &State) -> Vec<String> {
    Kit::legal(s)
}

fn cell_of(s: &State, name: &str) -> Cell {
    s.pos.cells[c(name) as usize]
}

// ---------------------------------------------------------------- board

#[test]
fn board_has_67_cells_of_which_11_are_keeps_and_56_hexes() {
    assert_eq!(NCELLS, 67);
    assert_eq!(KEEPS.len(), 11);
    let keeps: Vec<u8> = [
        "a3", "a8", "c3", "c8", "e3", "e8", "g3", "g8", "b5", "d5", "f5",
    ]
    .iter()
    .map(|n| c(n))
    .collect();
    let marked = (0..NCELLS as u8).filter(|&x| is_keep(x)).count();
    assert_eq!(marked, 11);
    for k in keeps {
        assert!(is_keep(k));
    }
    assert_eq!(NCELLS - marked, 56);
    // Long columns run 1-10, short ones 1-9.
    assert!(cell_at(0, 10).is_some() && cell_at(1, 10).is_none() && cell_at(1, 9).is_some());
    assert!(cell_at(6, 10).is_some() && cell_at(5, 10).is_none() && cell_at(0, 0).is_none());
}

#[test]
fn long_cell_n_touches_short_cells_n_minus_1_and_n() {
    let names = |x: &str| -> Vec<u8> {
        let mut v: Vec<u8> = neighbours(c(x)).to_vec();
        v.sort();
        v
    };
    let set = |xs: &[&str]| -> Vec<u8> {
        let mut v: Vec<u8> = xs.iter().map(|n| c(n)).collect();
        v.sort();
        v
    };
    assert_eq!(names("c3"), set(&["b2", "b3", "c2", "c4", "d2", "d3"]));
    assert_eq!(names("b5"), set(&["a5", "a6", "b4", "b6", "c5", "c6"]));
    assert_eq!(names("a1"), set(&["a2", "b1"]));
    assert_eq!(names("a10"), set(&["a9", "b9"]));
    assert_eq!(names("d9"), set(&["c9", "c10", "d8", "e9", "e10"]));
    assert_eq!(names("d1"), set(&["c1", "c2", "d2", "e1", "e2"]));
    // Adjacency is symmetric everywhere.
    for p in 0..NCELLS as u8 {
        for &q in neighbours(p) {
            assert!(adjacent(q, p));
        }
    }
}

#[test]
fn ten_gates_join_the_listed_pairs_with_their_flanking_keeps() {
    let expect = [
        ("a5", "a6", ["b5", ""]),
        ("c5", "c6", ["b5", "d5"]),
        ("e5", "e6", ["d5", "f5"]),
        ("g5", "g6", ["f5", ""]),
        ("b2", "b3", ["a3", "c3"]),
        ("d2", "d3", ["c3", "e3"]),
        ("f2", "f3", ["e3", "g3"]),
        ("b7", "b8", ["a8", "c8"]),
        ("d7", "d8", ["c8", "e8"]),
        ("f7", "f8", ["e8", "g8"]),
    ];
    assert_eq!(GATES.len(), 10);
    for (lo, hi, flanks) in expect {
        let g = gate_between(c(hi), c(lo)).expect("a gate");
        let gate = GATES[g as usize];
        for (i, f) in flanks.iter().enumerate() {
            let want = if f.is_empty() { 255 } else { c(f) };
            assert_eq!(gate.flanks[i], want, "{lo}|{hi}");
        }
    }
    assert!(gate_between(c("c4"), c("c5")).is_none());
    assert!(gate_between(c("c5"), c("d5")).is_none());
}

#[test]
fn entry_cells_are_the_end_rows_and_home_keeps_touch_three_cells() {
    for n in ["a1", "b1", "c1", "d1", "e1", "f1", "g1"] {
        assert!(is_entry(W, c(n)) && !is_entry(B, c(n)));
    }
    for n in ["a10", "b9", "c10", "d9", "e10", "f9", "g10"] {
        assert!(is_entry(B, c(n)) && !is_entry(W, c(n)));
    }
    assert_eq!(board::HOME_TOUCH[0], [c("c1"), c("d1"), c("e1")]);
    assert_eq!(board::HOME_TOUCH[1], [c("c10"), c("d9"), c("e10")]);
}

// ---------------------------------------------------------------- setup

#[test]
fn game_has_two_sides_and_white_moves_first() {
    assert_eq!(G::SIDES, &["White", "Black"]);
    assert_eq!(G::ID, "breach-the-keep");
    let s = new();
    assert_eq!(G::to_move(&s), Side(0));
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
    let one = [Side(0)];
    let e = G::new_game(&Setup {
        sides: &one,
        tags: &[],
    })
    .unwrap_err();
    assert_eq!(
        e.reason,
        "Breach The Keep is played by two sides, White and Black"
    );
}

#[test]
fn each_side_starts_with_14_pieces_in_its_end_zone() {
    let s = new();
    assert_eq!(s.pos.zone, [14, 14]);
    assert_eq!(s.pos.points, [28, 28]);
    assert!(s.pos.cells.iter().all(|c| c.is_empty()));
}

#[test]
fn home_keep_values_default_to_3_and_must_be_1_to_6() {
    assert_eq!(new().pos.keep_value, [3, 3]);
    let s = new_game_with(&[("WhiteKeep", "1"), ("blackkeep", " 6 ")]).unwrap();
    assert_eq!(s.pos.keep_value, [1, 6]);
    for bad in ["0", "7", "x", "", "-1"] {
        let e = new_game_with(&[("WhiteKeep", bad)]).unwrap_err();
        assert_eq!(e.reason, "WhiteKeep must be a number from 1 to 6");
        assert_eq!(e.tag.as_deref(), Some("WhiteKeep"));
    }
    let e = new_game_with(&[("BlackKeep", "9")]).unwrap_err();
    assert_eq!(e.reason, "BlackKeep must be a number from 1 to 6");
}

// ---------------------------------------------------------------- entering

#[test]
fn entering_from_the_end_zone_is_the_first_of_the_two_steps() {
    let mut s = new();
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    ok(&mut s, "Z-d1-d2");
    assert_eq!(s.pos.zone[0], 13);
    assert_eq!(cell_of(&s, "d2").owner(), Some(W));
    assert!(cell_of(&s, "d1").is_empty());
    assert_eq!(s.pos.used, 2);
    // One step only onto an empty entry cell is not a whole move (`Z-c1`
    // is read as the ends of a two-step path).
    let one = Action::Move(Move::new(board::ZONE, Kind::Single, &[c("c1")]));
    assert_eq!(
        G::apply(&mut s, one).unwrap_err().reason,
        "a single moves exactly 2 steps unless it takes, makes a double or enters a Keep"
    );
    let a = G::parse_action(&s, "Z-c1").unwrap();
    assert_eq!(action_text::<G>(&a), "Z-b1-c1");
    assert_eq!(err(&mut s, "Z-c1-c2-c3"), "a single moves at most 2 steps");
}

#[test]
fn the_first_step_from_the_end_zone_must_be_an_own_entry_cell() {
    let mut s = new();
    assert_eq!(
        err(&mut s, "Z-d2-d3"),
        "d2 is not an entry cell of White (a1 b1 c1 d1 e1 f1 g1)"
    );
    assert_eq!(
        err(&mut s, "Z-d9-d8"),
        "d9 is not an entry cell of White (a1 b1 c1 d1 e1 f1 g1)"
    );
}

#[test]
fn the_entry_cell_must_be_empty() {
    // A Black single on d1, White to move with 14 pieces in its end zone.
    let mut s = at("10/9/10/b8/10/9/10 White 14/13 3/3 *");
    assert_eq!(err(&mut s, "Z-d1-d2"), "the entry cell d1 is occupied");
}

#[test]
fn pieces_cannot_double_before_they_are_on_the_board() {
    // Stepping from the end zone onto an own piece is not allowed.
    let mut s = setup("d1:w", [13, 14], [3, 3], W);
    assert_eq!(err(&mut s, "Z-d1-d2"), "the entry cell d1 is occupied");
}

#[test]
fn an_entering_piece_may_double_or_take_on_its_second_step() {
    let mut s = at("10/9/10/1w7/1b8/9/10 White 12/13 3/3 *");
    ok(&mut s, "Z-d1-d2");
    assert_eq!(cell_of(&s, "d2").d, 1);
    ok(&mut s, "Z-e1-e2");
    assert_eq!(cell_of(&s, "e2").owner(), Some(W));
    assert_eq!(s.pos.points[1], 26);
}

#[test]
fn the_end_zone_may_run_empty() {
    let mut s = setup("g9:b", [0, 1], [1, 1], W);
    assert_eq!(
        err(&mut s, "Z-d1-d2"),
        "White has no pieces left in the end zone"
    );
}

// ---------------------------------------------------------------- movement

#[test]
fn a_single_moves_exactly_two_steps() {
    let mut s = setup("d6:w a10:b", [0, 0], [1, 1], W);
    let one = Action::Move(Move::new(c("d6"), Kind::Single, &[c("d7")]));
    assert_eq!(
        G::apply(&mut s, one).unwrap_err().reason,
        "a single moves exactly 2 steps unless it takes, makes a double or enters a Keep"
    );
    assert_eq!(err(&mut s, "d6-d7-d8-c9"), "a single moves at most 2 steps");
    ok(&mut s, "d6-d7-d8");
    assert_eq!(s.pos.used, 2);
}

#[test]
fn a_double_moves_exactly_four_steps() {
    let mut s = setup("d6:W a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "d6-d7-c8x"),
        "parse error: expected `-` and the next cell of the path"
    );
    assert_eq!(
        err(&mut s, "d6-e7-e8x"),
        "parse error: expected `-` and the next cell of the path"
    );
    let three = Action::Move(Move::new(
        c("d6"),
        Kind::Double,
        &[c("d7"), c("c7"), c("c6")],
    ));
    assert_eq!(
        G::apply(&mut s, three).unwrap_err().reason,
        "a double moves exactly 4 steps unless it takes or enters a Keep"
    );
    ok(&mut s, "d6-d7-c7-c6-b6");
    assert_eq!(s.pos.used, 4);
    assert_eq!(cell_of(&s, "b6").d, 1);
}

#[test]
fn a_turn_is_two_singles_or_one_double() {
    let mut s = setup("d6:W f7:w b2:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "f7-f6-g6");
    assert_eq!(
        err(&mut s, "d6-d7-c7-c6-b6"),
        "White has only 2 movement points left, a double needs 4"
    );
    ok(&mut s, "b2-b1-a1");
    assert_eq!(
        err(&mut s, "d6:1-d7-d8"),
        "White has used all 4 movement points"
    );
    G::end_turn(&mut s).unwrap();

    let mut s = setup("d6:W f7:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d6-d7-c7-c6-b6");
    assert_eq!(
        err(&mut s, "f7-f6-g6"),
        "White has used all 4 movement points"
    );
}

#[test]
fn a_single_moving_onto_an_own_single_makes_a_double_for_the_full_two_points() {
    let mut s = setup("d6:w d7:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d6-d7");
    assert_eq!(cell_of(&s, "d7"), Cell::locked(W, 0, 1));
    assert_eq!(s.pos.used, 2);
    assert_eq!(s.pos.points[0], 4);
}

#[test]
fn a_double_made_this_turn_neither_moves_nor_splits() {
    let mut s = setup("d6:w d7:w g1:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d6-d7");
    let msg = "the double on d7 was made this turn: it can neither move nor split";
    assert_eq!(err(&mut s, "d7:1-d8-d9"), msg);
    assert_eq!(err(&mut s, "d7-d8-c9-c10-b9"), msg);
    ok(&mut s, "g1-g2-f2");
    // Next turn it may move.
    G::end_turn(&mut s).unwrap();
    turn(&mut s, &["a10-a9-a8"]).unwrap();
    ok(&mut s, "d7-d8-c9-c10-b9");
}

#[test]
fn splitting_a_double_moves_one_piece_its_two_from_the_doubles_cell() {
    let mut s = setup("d6:W a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d6:1-d7-d8");
    assert_eq!(cell_of(&s, "d6").s, 1);
    assert_eq!(cell_of(&s, "d6").d, 0);
    assert_eq!(cell_of(&s, "d8").s, 1);
    // The other half may move too.
    ok(&mut s, "d6-e7-f7");
    assert!(cell_of(&s, "d6").is_empty());
    G::end_turn(&mut s).unwrap();
}

#[test]
fn each_half_of_a_split_double_moves_at_most_once() {
    let mut s = setup("d6:W a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d6:1-d7-d8");
    assert_eq!(
        err(&mut s, "d8-c8"),
        "the piece on d8 has already moved this turn"
    );
}

#[test]
fn a_piece_moves_at_most_once_a_turn() {
    let mut s = setup("d6:w g1:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d6-d7-d8");
    assert_eq!(
        err(&mut s, "d8-d7-d6"),
        "the piece on d8 has already moved this turn"
    );
}

#[test]
fn a_double_must_split_when_two_points_remain_and_the_rest_are_doubles() {
    let mut s = setup("f7:w b7:W a10:b", [0, 0], [1, 1], W);
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    ok(&mut s, "f7-f6-g6");
    assert_eq!(
        G::end_turn(&mut s.clone()).unwrap_err().reason,
        "White must use all 4 movement points (a legal way to use them exists)"
    );
    assert!(legal(&s).iter().all(|a| a.starts_with("b7:1-")));
    ok(&mut s, "b7:1-b6-a6");
    G::end_turn(&mut s).unwrap();
}

#[test]
fn a_piece_never_returns_to_a_cell_it_has_been_on() {
    let mut s = setup("d6:W a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "d6-d7-e7-d6"),
        "the path comes back to d6: a piece may not return to a cell it has been on this turn"
    );
    assert_eq!(
        err(&mut s, "d6-d7-e7-e6-e7"),
        "the path comes back to e7: a piece may not return to a cell it has been on this turn"
    );
}

#[test]
fn a_piece_never_moves_through_another_piece() {
    let mut s = setup("d6:w d7:w e7:b a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "d6-d7-d8"),
        "d7 is occupied by a White piece: a piece cannot move through other pieces"
    );
    assert_eq!(
        err(&mut s, "d6-e7-f7"),
        "e7 is occupied by a Black piece: a piece cannot move through other pieces"
    );
}

#[test]
fn each_step_goes_to_a_touching_cell() {
    let mut s = setup("d6:w a10:b", [0, 0], [1, 1], W);
    assert_eq!(err(&mut s, "d6-d8-d9"), "d6 does not touch d8");
}

#[test]
fn moving_needs_an_own_piece_on_the_origin() {
    let mut s = setup("d6:w d2:W e2:b a10:b", [0, 0], [1, 1], W);
    assert_eq!(err(&mut s, "c6-c7-c8"), "there is no piece on c6");
    assert_eq!(err(&mut s, "e2-e1"), "the piece on e2 is Black's");
    assert_eq!(
        err(&mut s, "d6:1-d7-d8"),
        "there is no double on d6 to split"
    );
}

// ---------------------------------------------------------------- taking

#[test]
fn a_single_takes_a_single_and_stops_there() {
    let mut s = setup("d6:w d7:b a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d6-d7");
    assert_eq!(cell_of(&s, "d7").owner(), Some(W));
    assert_eq!(s.pos.points[1], 2);
    assert_eq!(s.pos.used, 2);
}

#[test]
fn a_single_cannot_take_a_double() {
    let mut s = setup("d6:w d7:B a10:b", [0, 0], [1, 1], W);
    assert_eq!(err(&mut s, "d6-d7"), "a single cannot take a double");
}

#[test]
fn a_double_takes_singles_and_doubles() {
    let mut s = setup("d6:W d7:B a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d6-d7");
    assert_eq!(cell_of(&s, "d7").owner(), Some(W));
    assert_eq!(cell_of(&s, "d7").d, 1);
    assert_eq!(s.pos.points[1], 2);
    let mut s = setup("d6:W e7:b a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d6-d7-e7");
    assert_eq!(s.pos.points[1], 2);
}

#[test]
fn the_taker_forfeits_its_remaining_steps() {
    let mut s = setup("d6:W d7:b f7:w a10:b", [0, 0], [1, 1], W);
    // It cannot go on after taking ...
    assert_eq!(
        err(&mut s, "d6-d7-d8"),
        "d7 is occupied by a Black piece: a piece cannot move through other pieces"
    );
    // ... and the steps it did not use are lost, not passed on.
    ok(&mut s, "d6-d7");
    assert_eq!(s.pos.used, 4);
    assert_eq!(
        err(&mut s, "f7-f6-g6"),
        "White has used all 4 movement points"
    );
}

#[test]
fn nothing_in_a_keep_can_be_taken() {
    let mut s = setup("d4:W d5:b a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "d4-d5"),
        "d5 is a Keep held by Black: breach it first"
    );
}

#[test]
fn a_stack_is_at_most_two_pieces_on_an_ordinary_cell() {
    let mut s = setup("d6:w d7:W e7:w a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "d6-d7"),
        "d7 holds a White double: a stack is at most two pieces"
    );
    let mut s = setup("d6:W e7:w a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "d6-e7"),
        "e7 holds a White piece: a double cannot join another piece"
    );
}

// ---------------------------------------------------------------- keeps

#[test]
fn entering_a_keep_ends_the_move_and_costs_the_full_allowance() {
    let mut s = setup("d4:W c7:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d4-d5");
    assert_eq!(cell_of(&s, "d5").d, 1);
    assert_eq!(s.pos.used, 4);
    let mut s = setup("c7:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "c7-c8");
    assert_eq!(s.pos.used, 2);
}

#[test]
fn no_piece_moves_through_a_keep_in_one_turn() {
    let mut s = setup("d4:W a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "d4-d5-d6-d7-d8"),
        "the path goes through the Keep d5: entering a Keep ends a piece's move"
    );
}

#[test]
fn a_piece_that_entered_a_keep_stays_there_this_turn() {
    let mut s = setup("d4:w d7:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d4-d5");
    assert_eq!(
        err(&mut s, "d5-d6-e7"),
        "the White single in d5 entered the Keep this turn and stays there"
    );
    ok(&mut s, "d7-d8-d9");
    G::end_turn(&mut s).unwrap();
    turn(&mut s, &["a10-a9-b8"]).unwrap();
    ok(&mut s, "d5-d6-e7");
}

#[test]
fn a_keep_holds_at_most_three_stacks() {
    let mut s = setup("d5:WWW d4:W c5:w a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "d4-d5"),
        "the Keep d5 already holds three stacks"
    );
    assert_eq!(
        err(&mut s, "c5-d5"),
        "the Keep d5 already holds three stacks"
    );
}

#[test]
fn a_single_entering_a_keep_combines_with_a_single_inside_unless_written_apart() {
    // Three stacks inside, one a single: a single may still come in, and
    // must combine.
    let mut s = setup("d5:WWw c5:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "c5-d5");
    assert_eq!(cell_of(&s, "d5").d, 3);
    assert_eq!(cell_of(&s, "d5").s, 0);
    assert_eq!(s.pos.points[0], 12);
    // With room, a plain path combines (the reading of every older
    // record) ...
    let mut s = setup("d5:w c5:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "c5-d5");
    assert_eq!((cell_of(&s, "d5").s, cell_of(&s, "d5").d), (0, 1));
    // ... and `apart` keeps the two singles side by side.
    let mut s = setup("d5:w c5:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "c5-d5 apart");
    assert_eq!((cell_of(&s, "d5").s, cell_of(&s, "d5").d), (2, 0));
    assert_eq!(s.pos.points[0], 4);
    assert_eq!(s.pos.used, 2);
    // A split half enters apart as well; by its ends too.
    let mut s = setup("d5:w d7:W a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d7:1-d5 apart");
    assert_eq!((cell_of(&s, "d5").s, cell_of(&s, "d7").s), (2, 1));
}

#[test]
fn a_single_entering_apart_leaves_the_single_inside_free_to_move() {
    // The single in d5 has not moved this turn. Combining would lock it in
    // a double made this turn; entering apart leaves it free, so the turn
    // can use all 4 points.
    let mut s = setup("d5:w c5:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "c5-d5");
    assert_eq!(
        err(&mut s, "d5-d6-d7"),
        "the double on d5 was made this turn: it can neither move nor split"
    );
    // So with nothing else to move, a plain entry is not a legal start of
    // the turn: 4 points can be used.
    assert!(!legal(&setup("d5:w c5:w a10:b", [0, 0], [1, 1], W)).contains(&"c5-d5".into()));
    let mut s = setup("d5:w c5:w a10:b", [0, 0], [1, 1], W);
    let before = s.clone();
    turn(&mut s, &["c5-d5 apart", "d5-d6-d7"]).unwrap();
    assert_eq!((cell_of(&s, "d5").s, cell_of(&s, "d7").s), (1, 1));
    assert_eq!(
        G::turn_comment(&before, &s),
        "c5-d5 apart enters the Keep d5 beside the single there; d5-d6-d7; 4 of 4 movement \
         points"
    );
}

#[test]
fn legal_lists_a_single_entering_a_keep_both_combining_and_apart() {
    let s = setup("d5:w c5:w c1:w a10:b", [0, 0], [1, 1], W);
    let l = legal(&s);
    let at = l.iter().position(|a| a == "c5-d5").expect("c5-d5 listed");
    assert_eq!(l[at + 1], "c5-d5 apart", "{l:?}");
    // Not where the Keep is full (the single must combine), holds no
    // single, or for a double.
    let l = legal(&setup("d5:WWw c5:w a10:b", [0, 0], [1, 1], W));
    assert!(l.contains(&"c5-d5".to_string()), "{l:?}");
    assert!(!l.iter().any(|a| a.ends_with("apart")), "{l:?}");
    let l = legal(&setup("d5:W c5:w c4:W a10:b", [0, 0], [1, 1], W));
    assert!(l.contains(&"c5-d5".to_string()), "{l:?}");
    assert!(!l.iter().any(|a| a.ends_with("apart")), "{l:?}");
}

#[test]
fn apart_is_refused_where_no_single_would_combine() {
    let mut s = setup("d5:W c5:w c4:W a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "c5-d5 apart"),
        "d5 holds no White single to combine with: write the path without `apart`"
    );
    assert_eq!(
        err(&mut s, "c4-d4-d5 apart"),
        "a double entering a Keep never combines: write the path without `apart`"
    );
    assert_eq!(
        err(&mut s, "c5-c6-c7 apart"),
        "`apart` is for a single entering a Keep, and c7 is not a Keep"
    );
    let mut s = setup("d5:WWw c5:w a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "c5-d5 apart"),
        "the Keep d5 already holds three stacks: a single entering it combines with the \
         single inside"
    );
}

#[test]
fn singles_moving_in_after_a_breach_combine_unless_the_breach_says_apart() {
    let mut s = setup("c3:b c2:w d2:w b3:W g1:W a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "breach c3 +c2 +d2 +b3");
    let k = cell_of(&s, "c3");
    assert_eq!((k.owner(), k.s, k.d), (Some(W), 0, 2));
    let mut s = setup("c3:b c2:w d2:w b3:W g1:W a10:b", [0, 0], [1, 1], W);
    let before = s.clone();
    ok(&mut s, "breach c3 +c2 +d2 +b3 apart");
    let k = cell_of(&s, "c3");
    assert_eq!((k.owner(), k.s, k.d), (Some(W), 2, 1));
    // `legal` lists the stacks moving in in cell order, both ways.
    let l = legal(&before);
    let at = l
        .iter()
        .position(|a| a == "breach c3 +b3 +c2 +d2")
        .expect("listed");
    assert_eq!(l[at + 1], "breach c3 +b3 +c2 +d2 apart", "{l:?}");
    let mut s = before.clone();
    assert_eq!(
        err(&mut s, "breach c3 +c2 +b3 apart"),
        "`apart` keeps the singles moving in from combining, and fewer than two singles move \
         in"
    );
    assert!(!legal(&before).contains(&"breach c3 +c2 +b3 apart".to_string()));
}

#[test]
fn apart_reads_in_any_case_and_ends_the_action() {
    let s = setup("d5:w c5:w c3:b c2:w d2:w a10:b", [0, 0], [1, 1], W);
    for (text, canon) in [
        ("c5-d5 APART", "c5-d5 apart"),
        ("c5 - d5\n apart", "c5-d5 apart"),
        ("breach c3 +c2 +d2 Apart", "breach c3 +c2 +d2 apart"),
    ] {
        let a = G::parse_action(&s, text).unwrap();
        assert_eq!(action_text::<G>(&a), canon);
    }
    let e = G::parse_action(&s, "c5-d5 apart-d6").unwrap_err();
    assert_eq!(e.reason, "`apart` ends the action: nothing may follow it");
    assert_eq!((e.offset, e.len), (11, 1));
    let e = G::parse_action(&s, "c5-d5 aprt").unwrap_err();
    assert_eq!(e.reason, "expected `-` and the next cell of the path");
}

#[test]
fn a_keep_with_two_singles_is_written_and_drawn() {
    let mut s = setup("d5:w c5:w c1:w a10:b", [0, 0], [1, 1], W);
    turn(&mut s, &["c5-d5 apart", "c1-c2-b2"]).unwrap();
    let text = "9b/1w7/10/4[ww]4/10/9/10 Black 0/0 1/1 *";
    assert_eq!(position_of(&s), text);
    assert_eq!(at(text).pos, s.pos);
    let d = G::diagram(&s, DiagramStyle::default());
    assert!(d.contains("[ww ]"), "{d}");
    assert!(d.contains("d5 White 4 (ww)"), "{d}");
}

#[test]
fn a_keep_held_by_the_opponent_cannot_be_entered() {
    let mut s = setup("c5:w d5:b a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "c5-d5"),
        "d5 is a Keep held by Black: breach it first"
    );
}

#[test]
fn moving_out_of_a_keep_with_a_single_and_a_double_names_the_stack() {
    let mut s = setup("d5:Ww a10:b", [0, 0], [1, 1], W);
    let a = G::parse_action(&s, "d5-d6-d7").unwrap();
    assert_eq!(action_text::<G>(&a), "d5-d6-d7");
    let a = G::parse_action(&s, "d5:2-d6-d7-d8-d9").unwrap();
    assert_eq!(action_text::<G>(&a), "d5:2-d6-d7-d8-d9");
    let a = G::parse_action(&s, "d5:1-d6-d7").unwrap();
    assert_eq!(action_text::<G>(&a), "d5:1-d6-d7");
    ok(&mut s, "d5:1-d6-d7");
    // The Keep now holds two singles.
    assert_eq!((cell_of(&s, "d5").s, cell_of(&s, "d5").d), (2, 0));
    ok(&mut s, "d5-c5-b4");
    assert_eq!((cell_of(&s, "d5").s, cell_of(&s, "d5").d), (1, 0));
    // A Keep holding only a double: `d5-...` moves the double.
    let s = setup("d5:W a10:b", [0, 0], [1, 1], W);
    let a = G::parse_action(&s, "d5-d6-d7-d8-d9").unwrap();
    assert_eq!(action_text::<G>(&a), "d5:2-d6-d7-d8-d9");
}

// ---------------------------------------------------------------- gates

#[test]
fn a_gate_is_closed_to_a_side_whose_opponent_holds_both_its_keeps() {
    let mut s = setup("c5:w b5:b d5:b a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "c5-c6-c7"),
        "the gate c5|c6 is closed to White (b5 and d5 are held by Black)"
    );
    // Black may pass it.
    let mut s = setup("c6:b b5:b d5:b a1:w", [0, 0], [1, 1], B);
    ok(&mut s, "c6-c5-c4");
}

#[test]
fn a_gate_is_closed_to_both_when_each_side_holds_one_of_its_keeps() {
    let msg = "the gate c5|c6 is closed to both sides (b5 is held by White, d5 by Black)";
    let mut s = setup("c5:w b5:w d5:b a10:b", [0, 0], [1, 1], W);
    assert_eq!(err(&mut s, "c5-c6-c7"), msg);
    let mut s = setup("c6:b b5:w d5:b a1:w", [0, 0], [1, 1], B);
    assert_eq!(err(&mut s, "c6-c5-c4"), msg);
}

#[test]
fn a_gate_is_open_when_a_flanking_keep_is_unoccupied() {
    let mut s = setup("c5:w b5:b a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "c5-c6-c7");
    let mut s = setup("c5:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "c5-c6-c7");
}

#[test]
fn a_board_edge_counts_as_an_unoccupied_keep_so_edge_gates_stay_open() {
    let mut s = setup("a5:w b5:b a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "a5-a6-a7");
    let mut s = setup("g5:w f5:b a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "g5-g6-g7");
}

#[test]
fn gate_control_is_judged_when_the_step_is_made() {
    // White leaves d5 empty on its first step, so at the gate only b5 is held.
    let mut s = setup("d5:w b5:b a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d5-c5-c6");
    // With a second stack left in d5 the gate stays closed to both.
    let mut s = setup("d5:ww b5:b a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "d5-c5-c6"),
        "the gate c5|c6 is closed to both sides (b5 is held by Black, d5 by White)"
    );
    // A breach earlier in the turn opens it.
    let mut s = setup("c5:w b5:b d5:b d4:W a10:b", [0, 0], [1, 1], W);
    assert!(act(&mut s, "c5-c6-c7").is_err());
    ok(&mut s, "breach d5");
    ok(&mut s, "c5-c6-c7");
}

// ---------------------------------------------------------------- breaching

#[test]
fn breaching_a_keep_needs_its_points_plus_four_around_it() {
    // 2 -> 6, 4 -> 8, ... 12 -> 16, as the table.
    for (inside, need) in [
        ("b", 6),
        ("B", 8),
        ("Bb", 10),
        ("BB", 12),
        ("BBb", 14),
        ("BBB", 16),
    ] {
        let mut s = setup(&format!("c3:{inside} c2:w a10:b"), [0, 0], [1, 1], W);
        assert_eq!(
            err(&mut s, "breach c3"),
            format!("breaching c3 needs {need} points on the cells around it, White has 2")
        );
    }
    let mut s = setup("c3:b c2:w d2:W a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "breach c3");
    let mut s = setup("c3:B c2:w d2:W a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "breach c3"),
        "breaching c3 needs 8 points on the cells around it, White has 6"
    );
}

#[test]
fn a_breach_removes_the_defenders_permanently() {
    let mut s = setup("c3:Bb c2:W d2:W b3:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "breach c3");
    assert!(cell_of(&s, "c3").is_empty());
    assert_eq!(s.pos.points[1], 2);
    assert_eq!(s.pos.zone[1], 0);
}

#[test]
fn a_breach_costs_no_movement_and_may_come_at_any_point_of_the_turn() {
    let mut s = setup("c3:b c2:w d2:W f7:w g1:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "f7-f6-g6");
    ok(&mut s, "breach c3");
    assert_eq!(s.pos.used, 2);
    ok(&mut s, "g1-g2-f2");
    G::end_turn(&mut s).unwrap();
    // Pieces may move next to the Keep first and then breach.
    let mut s = setup("c3:b c1:w e1:w d2:W a10:b", [0, 0], [1, 1], W);
    assert!(act(&mut s.clone(), "breach c3").is_err());
    ok(&mut s, "c1-b1-b2");
    ok(&mut s, "breach c3 +b2 +d2");
    ok(&mut s, "e1-f1-f2");
    G::end_turn(&mut s).unwrap();
}

#[test]
fn after_a_breach_up_to_three_stacks_from_touching_cells_move_in() {
    let mut s = setup("c3:B c2:W d2:W b3:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "breach c3 +c2 +d2 +b3");
    let k = cell_of(&s, "c3");
    assert_eq!((k.owner(), k.d, k.s), (Some(W), 2, 1));
    assert!(cell_of(&s, "c2").is_empty() && cell_of(&s, "b3").is_empty());
    // Moving in counts as entering the Keep: they stay there this turn.
    assert_eq!(
        err(&mut s, "c3-c4-c5"),
        "the White single in c3 entered the Keep this turn and stays there"
    );
    assert_eq!(s.pos.used, 0);
    // At most three stacks move in.
    let s = setup("c3:b c2:w d2:w b3:w b2:w a10:b", [0, 0], [1, 1], W);
    let e = G::parse_action(&s, "breach c3 +c2 +d2 +b3 +b2").unwrap_err();
    assert_eq!(e.reason, "a breach moves in at most three stacks");
    assert_eq!((e.offset, e.len), (22, 3));
}

#[test]
fn only_stacks_on_cells_touching_the_keep_move_in() {
    let mut s = setup("c3:b c2:w d2:W d4:w a10:b", [0, 0], [1, 1], W);
    assert_eq!(err(&mut s, "breach c3 +d4"), "d4 does not touch c3");
    assert_eq!(
        err(&mut s, "breach c3 +c4"),
        "there is no White piece on c4 to move in"
    );
    assert_eq!(err(&mut s, "breach c3 +c2 +c2"), "c2 is listed twice");
}

#[test]
fn only_a_keep_held_by_the_opponent_can_be_breached() {
    let mut s = setup("c3:w c2:w d2:W d5:b a10:b", [0, 0], [1, 1], W);
    assert_eq!(err(&mut s, "breach c3"), "c3 is held by White itself");
    assert_eq!(
        err(&mut s, "breach e3"),
        "e3 is empty: there is nothing to breach (a piece may simply move in)"
    );
    assert_eq!(err(&mut s, "breach d4"), "d4 is not a Keep");
}

#[test]
fn breaching_the_opponents_home_keep_needs_twice_its_value_and_wins() {
    // BlackKeep 2: White needs 4 points on c10 d9 e10.
    let mut s = setup("d9:w c10:w a1:b", [0, 1], [3, 2], W);
    ok(&mut s, "breach home");
    assert_eq!(G::outcome(&s), Outcome::Won(Side(0)));
    assert_eq!(
        G::summary(&s),
        "White won: breached Black's home Keep; White 4 points in play, Black 4"
    );
    let mut s = setup("d9:w a1:b", [0, 1], [3, 2], W);
    assert_eq!(
        err(&mut s, "breach home"),
        "breaching Black's home Keep needs 4 points on c10 d9 e10, White has 2"
    );
    // Black breaching White's home Keep (value 3) needs 6 on c1 d1 e1.
    let mut s = setup("c1:B e1:b a10:w", [1, 0], [3, 2], B);
    ok(&mut s, "breach home");
    assert_eq!(G::outcome(&s), Outcome::Won(Side(1)));
}

#[test]
fn no_piece_ever_enters_a_home_keep() {
    let mut s = setup("d9:W c10:w a1:b", [0, 1], [3, 2], W);
    assert_eq!(
        err(&mut s, "breach home +d9"),
        "no piece ever enters a home Keep"
    );
}

// ---------------------------------------------------------------- winning

#[test]
fn a_side_with_fewer_points_than_breaching_the_other_home_keep_needs_loses() {
    // WhiteKeep 3: Black needs 6 points to breach it.
    let mut s = setup("d6:w d7:b a10:b", [0, 2], [3, 1], W);
    // Black has 8 points; after losing 2 it still has 6.
    ok(&mut s, "d6-d7");
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
    let mut s = setup("d6:w d7:b a10:b", [0, 1], [3, 1], W);
    ok(&mut s, "d6-d7");
    assert_eq!(G::outcome(&s), Outcome::Won(Side(0)));
    assert_eq!(
        G::summary(&s),
        "White won: Black has 4 points in play, needs 6 to breach White's home Keep"
    );
    // A winning turn needs not use all its movement points.
    G::end_turn(&mut s).unwrap();
}

#[test]
fn a_breach_that_leaves_the_opponent_too_few_points_wins() {
    let mut s = setup("c3:BB c2:W d2:W b2:W a10:b", [0, 0], [3, 1], W);
    ok(&mut s, "breach c3");
    assert_eq!(G::outcome(&s), Outcome::Won(Side(0)));
}

#[test]
fn no_action_after_the_game_is_over() {
    let mut s = setup("d9:w c10:w a1:b", [0, 1], [3, 2], W);
    ok(&mut s, "breach home");
    assert_eq!(err(&mut s, "c10-c9-b8"), "the game is over");
    assert!(legal(&s).is_empty());
}

#[test]
fn resigning_loses() {
    let mut s = new();
    G::resign(&mut s, Side(0));
    assert_eq!(G::outcome(&s), Outcome::Won(Side(1)));
    assert_eq!(
        G::summary(&s),
        "Black won: White resigned; White 28 points in play, Black 28"
    );
}

// ---------------------------------------------------------------- using the points

#[test]
fn a_turn_must_use_all_4_movement_points_when_a_legal_way_exists() {
    let mut s = new();
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    ok(&mut s, "Z-d1-d2");
    assert_eq!(
        G::end_turn(&mut s.clone()).unwrap_err().reason,
        "White must use all 4 movement points (a legal way to use them exists)"
    );
    assert_eq!(
        G::end_turn(&mut new()).unwrap_err().reason,
        "White must use all 4 movement points (a legal way to use them exists)"
    );
    ok(&mut s, "Z-e1-e2");
    G::end_turn(&mut s).unwrap();
    assert_eq!(G::to_move(&s), Side(1));
}

#[test]
fn otherwise_a_turn_uses_the_most_points_a_legal_turn_can() {
    let mut s = setup("d6:w a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        G::end_turn(&mut s.clone()).unwrap_err().reason,
        "White must use 2 movement points, the most a legal turn can use here"
    );
    ok(&mut s, "d6-d7-d8");
    G::end_turn(&mut s).unwrap();
}

#[test]
fn a_player_passes_only_when_no_movement_is_possible() {
    // The single on a1 is boxed in by doubles it cannot take.
    let mut s = setup("a1:w a2:B b1:B", [0, 1], [1, 1], W);
    assert!(legal(&s).is_empty());
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    G::end_turn(&mut s).unwrap();
    assert_eq!(G::to_move(&s), Side(1));
    assert_eq!(G::turn_comment(&s.clone(), &s), "White passed");
}

/// White's three singles around d5 are boxed in by Black doubles, Keeps and
/// closed Gates; only breaching d5 frees them.
const BOXED: &str = "c5:w d6:w e5:w b5:b d5:b f5:b b4:B c4:B d4:B c6:B c7:B d7:B e6:B e7:B \
                     e4:B f4:B";

#[test]
fn the_most_points_counts_moves_that_a_breach_makes_possible() {
    let mut s = setup(BOXED, [0, 0], [1, 1], W);
    assert_eq!(
        G::end_turn(&mut s.clone()).unwrap_err().reason,
        "White must use all 4 movement points (a legal way to use them exists)"
    );
    let l = legal(&s);
    assert!(
        !l.is_empty() && l.iter().all(|a| a.starts_with("breach d5")),
        "{l:?}"
    );
    ok(&mut s, "breach d5");
    ok(&mut s, "c5-d5");
    ok(&mut s, "e5-d5");
    G::end_turn(&mut s).unwrap();
    // Without the third single there is no breach and nothing can move.
    let mut s = setup(&BOXED.replace("d6:w ", ""), [0, 0], [1, 1], W);
    assert!(legal(&s).is_empty());
    G::end_turn(&mut s).unwrap();
}

#[test]
fn listed_actions_always_leave_a_way_to_finish_the_turn() {
    // After the breach with every stack moving in, nothing could move.
    let s = setup(BOXED, [0, 0], [1, 1], W);
    let l = legal(&s);
    assert!(!l.contains(&"breach d5 +c5 +d6 +e5".to_string()));
    assert!(l.contains(&"breach d5".to_string()));
}

// ---------------------------------------------------------------- notation

#[test]
fn a_path_given_by_its_ends_is_resolved_to_a_full_path() {
    let s = new();
    let a = G::parse_action(&s, "Z-d2").unwrap();
    assert_eq!(action_text::<G>(&a), "Z-d1-d2");
    let s = setup("d6:W d7:b a10:b", [0, 0], [1, 1], W);
    // A take one step away stays one step.
    let a = G::parse_action(&s, "d6-d7").unwrap();
    assert_eq!(action_text::<G>(&a), "d6-d7");
    let s = setup("d6:w a10:b", [0, 0], [1, 1], W);
    let a = G::parse_action(&s, "d6-d8").unwrap();
    assert_eq!(action_text::<G>(&a), "d6-d7-d8");
    // No legal path: kept as written, and refused by apply.
    let mut s = setup("d6:w d7:B c7:B e7:B a10:b", [0, 0], [1, 1], W);
    let a = G::parse_action(&s, "d6-d8").unwrap();
    assert_eq!(action_text::<G>(&a), "d6-d8");
    assert!(err(&mut s, "d6-d8").starts_with("no legal path leads from d6 to d8"));
}

#[test]
fn a_move_by_its_ends_without_a_legal_path_says_so() {
    // A single two rows on and one column over (three steps) is out of reach.
    let mut s = setup("d2:w a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "d2-d5"),
        "no legal path leads from d2 to d5: a single moves up to two cells and a double four, \
         around pieces, closed Gates and Keeps"
    );
    // A full path with a gap still names the gap.
    assert_eq!(err(&mut s, "d2-d3-d5"), "d3 does not touch d5");
    // From a Keep, the hint for a double.
    let mut s = setup("c3:w a10:b", [0, 0], [1, 1], W);
    assert!(err(&mut s, "c3-c7").ends_with("(a double leaves a Keep as `c3:2-...`)"));
}

#[test]
fn a_double_on_an_open_cell_takes_no_mark() {
    let s = setup("d2:W a10:b", [0, 0], [1, 1], W);
    let e = G::parse_action(&s, "d2:2-d3").unwrap_err();
    assert_eq!(
        e.reason,
        "`:2` marks a double leaving a Keep; on an open cell the double moves as `d2-...`"
    );
}

#[test]
fn a_step_to_the_same_cell_goes_nowhere() {
    let mut s = setup("d6:w a10:b", [0, 0], [1, 1], W);
    assert_eq!(
        err(&mut s, "d6-d6"),
        "d6-d6 goes nowhere: each step of a path moves to a touching cell"
    );
    assert_eq!(
        err(&mut s, "d6-d7-d7"),
        "d7-d7 goes nowhere: each step of a path moves to a touching cell"
    );
}

#[test]
fn notation_is_case_insensitive_and_allows_spaces() {
    let s = setup("d6:W c3:b c2:w d2:W a10:b", [0, 0], [1, 1], W);
    for (text, canon) in [
        ("D6:1-D7-D8", "d6:1-d7-d8"),
        ("d6 : 1 - d7 -\n d8", "d6:1-d7-d8"),
        ("BREACH C3 +C2 + D2", "breach c3 +c2 +d2"),
        ("Breach\tc3\n+c2", "breach c3 +c2"),
        ("breach HOME", "breach home"),
    ] {
        let a = G::parse_action(&s, text).unwrap();
        assert_eq!(action_text::<G>(&a), canon);
    }
    let s = new();
    let a = G::parse_action(&s, "z-D1-d2").unwrap();
    assert_eq!(action_text::<G>(&a), "Z-d1-d2");
}

#[test]
fn parse_errors_point_at_the_offending_text() {
    let s = new();
    let cases: &[(&str, usize, usize, &str)] = &[
        (
            "",
            0,
            0,
            "expected an action: a path such as d1-d2-d3 or Z-d1-d2, or a breach such as \
             breach c3",
        ),
        (
            "x1-d2",
            0,
            2,
            "expected an action: a path such as d1-d2-d3 or Z-d1-d2, or a breach such as \
             breach c3",
        ),
        (
            "d1-b10",
            3,
            3,
            "b10 is not a cell: columns b, d and f have cells 1 to 9",
        ),
        (
            "a11-a10",
            0,
            3,
            "a11 is not a cell: columns a, c, e and g have cells 1 to 10",
        ),
        ("d1 d2", 3, 2, "expected `-` and the next cell of the path"),
        ("d1-", 2, 1, "expected a cell such as d3 after `-`"),
        ("d1", 1, 1, "expected `-` and the cell the piece moves to"),
        (
            "d1-d2-d3-d4-d5-d6",
            14,
            3,
            "a path has at most four steps (a double moves four)",
        ),
        (
            "Z:1-d1-d2",
            1,
            1,
            "the pieces in the end zone are singles: write Z-d1-d2 without `:`",
        ),
        (
            "d3:3-d4",
            3,
            1,
            "expected 1 (one piece of the double) or 2 (the whole double) after `:`",
        ),
        ("breachc3", 6, 2, "expected a space after `breach`"),
        (
            "breach",
            5,
            1,
            "expected a Keep such as c3, or `home`, after `breach`",
        ),
        (
            "breach c3 d2",
            10,
            2,
            "expected `+` and a cell such as d2 (a stack moving in)",
        ),
        ("breach c3 +", 10, 1, "expected a cell such as d2 after `+`"),
    ];
    for &(text, offset, len, reason) in cases {
        let e = G::parse_action(&s, text).unwrap_err();
        assert_eq!(
            (e.offset, e.len, e.reason.as_str()),
            (offset, len, reason),
            "{text:?}"
        );
    }
}

fn check_round_trip(s: &State) -> usize {
    let mut v = Vec::new();
    G::legal_actions(s, &mut v);
    for a in &v {
        let text = action_text::<G>(a);
        let back = G::parse_action(s, &text).unwrap_or_else(|e| panic!("{text}: {}", e.reason));
        assert_eq!(&back, a, "{text}");
        let upper = G::parse_action(s, &text.to_uppercase()).unwrap();
        assert_eq!(&upper, a, "{text}");
    }
    v.len()
}

#[test]
fn written_actions_read_back_the_same() {
    assert!(check_round_trip(&new()) > 0);
    assert!(check_round_trip(&setup(BOXED, [0, 0], [1, 1], W)) > 0);
    let s = setup(
        "d5:Ww c5:w c3:b c2:W d2:w b6:B f7:w a10:b d9:w",
        [3, 2],
        [1, 1],
        W,
    );
    assert!(check_round_trip(&s) > 10);
    let mut s2 = s.clone();
    ok(&mut s2, "d5:1-d6-d7");
    assert!(check_round_trip(&s2) > 0);
    // Mid-game positions from a seeded random game.
    let mut rng = SplitMix::new(7);
    let mut s = new();
    for _ in 0..60 {
        if G::outcome(&s).is_over() {
            break;
        }
        check_round_trip(&s);
        random_turn(&mut s, &mut rng);
    }
}

#[test]
fn action_cost_is_the_pieces_allowance() {
    let s = setup("d6:W a10:b", [0, 0], [1, 1], W);
    let a = G::parse_action(&s, "d6-d7-d8-d9-c10").unwrap();
    assert_eq!(G::action_cost(&s, &a), Some(4));
    let a = G::parse_action(&s, "d6:1-d7-d8").unwrap();
    assert_eq!(G::action_cost(&s, &a), Some(2));
    let a = G::parse_action(&s, "breach c3").unwrap();
    assert_eq!(G::action_cost(&s, &a), Some(0));
}

// ---------------------------------------------------------------- text

#[test]
fn summary_and_turn_comment_describe_the_turn() {
    let mut s = new();
    assert_eq!(
        G::summary(&s),
        "White to move: 4 movement points; White 28 points in play, Black 28"
    );
    let before = s.clone();
    turn(&mut s, &["Z-d1-d2", "Z-e1-e2"]).unwrap();
    assert_eq!(
        G::turn_comment(&before, &s),
        "Z-d1-d2; Z-e1-e2; 4 of 4 movement points"
    );
    assert_eq!(
        G::summary(&s),
        "Black to move: 4 movement points; White 28 points in play, Black 28"
    );
    let mut s = setup("c3:b c2:w d2:W d6:w d7:b a10:b", [0, 1], [1, 1], W);
    let before = s.clone();
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    ok(&mut s, "d6-d7");
    assert_eq!(
        G::summary(&s),
        "White to move: 2 of 4 movement points left; White 8 points in play, Black 6"
    );
    ok(&mut s, "breach c3 +d2");
    ok(&mut s, "c2-b2-a2");
    G::end_turn(&mut s).unwrap();
    assert_eq!(
        G::turn_comment(&before, &s),
        "d6-d7 takes a Black single; c2-b2-a2; breached c3 (2 points removed, 1 stack moved \
         in); 4 of 4 movement points"
    );
}

#[test]
fn diagram_shows_board_keeps_gates_zones_and_points() {
    let s = setup("c3:Ww d5:Bb b5:b c6:w e2:B d9:W", [12, 9], [3, 4], W);
    let d = G::diagram(&s, DiagramStyle::default());
    assert!(d.lines().all(|l| l.chars().count() < 78), "{d}");
    assert!(d.contains("[Ww ]"), "{d}");
    assert!(d.contains("[Bb ]"), "{d}");
    // c5|c6 between b5 and d5 (both Black) is closed to White.
    assert!(d.contains("xW"), "{d}");
    assert!(d.contains("Black end zone (Z): 9 pieces"), "{d}");
    assert!(d.contains("White end zone (Z): 12 pieces"), "{d}");
    assert!(
        d.contains("Keeps held: b5 Black 2 (b), c3 White 6 (Ww), d5 Black 6 (Bb)"),
        "{d}"
    );
    assert!(d.contains("Points in play: White 36, Black 30"), "{d}");
    assert!(d.contains("White to move"), "{d}");
    assert!(d.contains("{ 4 }") && d.contains("{ 3 }"), "{d}");
    let u = G::diagram(&s, DiagramStyle { unicode: true });
    assert!(u.contains("⟦Ww ⟧") && u.contains("╳W"), "{u}");
    assert!(u.lines().all(|l| l.chars().count() < 78), "{u}");
}

#[test]
fn diagram_lines_fit_in_78_columns_with_every_keep_held() {
    // All eleven Keeps held: the list wraps between Keeps.
    let spec = "a3:WWw a8:w c3:w c8:w e3:w e8:w g3:BBb g8:b b5:b d5:b f5:b";
    let s = setup(spec, [4, 5], [6, 6], W);
    for style in [DiagramStyle::default(), DiagramStyle { unicode: true }] {
        let d = G::diagram(&s, style);
        assert!(d.lines().all(|l| l.chars().count() <= 78), "{d}");
        let lines: Vec<&str> = d.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("Keeps held:"))
            .unwrap();
        assert_eq!(
            lines[at..at + 3],
            [
                "Keeps held: a3 White 10 (WWw), a8 White 2 (w), b5 Black 2 (b), c3 White 2 (w),",
                "  c8 White 2 (w), d5 Black 2 (b), e3 White 2 (w), e8 White 2 (w),",
                "  f5 Black 2 (b), g3 Black 10 (BBb), g8 Black 2 (b)",
            ]
        );
        assert!(lines[at + 3].starts_with("Points in play"), "{d}");
    }
    // A win on points names the loser's points and what it lacks.
    let s = G::parse_position("10/9/10/9/10/9/10 White 1/4 6/2 White:points").unwrap();
    let summary = G::summary(&s);
    assert_eq!(
        summary,
        "White won: Black has 8 points in play, needs 12 to breach White's home Keep"
    );
    assert!(summary.len() <= 78);
}

// ---------------------------------------------------------------- self-play

/// Play one random turn through the trait; panics if the contract breaks.
fn random_turn(s: &mut State, rng: &mut SplitMix) {
    G::begin_turn(s, &mut Undrawn).unwrap();
    let mut v = Vec::new();
    loop {
        if G::outcome(s).is_over() {
            G::end_turn(s).unwrap();
            return;
        }
        v.clear();
        G::legal_actions(s, &mut v);
        let can_end = G::end_turn(&mut s.clone()).is_ok();
        if v.is_empty() {
            assert!(
                can_end,
                "no legal action but end_turn fails:\n{}",
                G::diagram(s, DiagramStyle::default())
            );
            break;
        }
        if can_end && rng.below(4) == 0 {
            break;
        }
        let a = v[rng.below(v.len())];
        let text = action_text::<G>(&a);
        assert_eq!(G::parse_action(s, &text).unwrap(), a, "{text}");
        G::apply(s, a).unwrap_or_else(|e| panic!("{text}: {}", e.reason));
        assert!(s.pos.invariants_hold());
    }
    G::end_turn(s).unwrap();
}

#[test]
fn random_self_play_never_breaks_the_contract() {
    let mut rng = SplitMix::new(0x9E37_79B9_7F4A_7C15);
    let mut finished = 0;
    for game in 0..200 {
        let mut s = new_game_with(&[
            ("WhiteKeep", &format!("{}", 1 + game % 6)),
            ("BlackKeep", &format!("{}", 1 + (game / 6) % 6)),
        ])
        .unwrap();
        for _ in 0..200 {
            if G::outcome(&s).is_over() {
                finished += 1;
                break;
            }
            random_turn(&mut s, &mut rng);
        }
    }
    assert!(finished > 0);
}

#[test]
fn home_constant_is_not_a_cell() {
    assert!((HOME as usize) >= NCELLS);
}

#[test]
fn constructed_actions_that_notation_never_produces_are_refused() {
    let mut s = setup("d5:W d6:W d4:w a10:b", [1, 0], [1, 1], W);
    let z = Action::Move(Move::new(board::ZONE, Kind::Double, &[c("d1"), c("d2")]));
    assert_eq!(
        G::apply(&mut s, z).unwrap_err().reason,
        "the pieces in the end zone are singles: write Z-d1-d2"
    );
    let single = Action::Move(Move::new(c("d5"), Kind::Single, &[c("d6"), c("d7")]));
    assert_eq!(
        G::apply(&mut s, single).unwrap_err().reason,
        "there is no White single on d5"
    );
    let long = Action::Move(Move::new(
        c("d4"),
        Kind::Single,
        &[c("c4"), c("c3"), c("c2")],
    ));
    assert_eq!(
        G::apply(&mut s, long).unwrap_err().reason,
        "a single moves at most 2 steps"
    );
}

#[test]
fn moving_from_a_keep_held_by_the_opponent_is_refused() {
    let mut s = setup("d5:b a1:w", [0, 0], [1, 1], W);
    assert_eq!(err(&mut s, "d5-d6-d7"), "d5 is held by Black");
}

#[test]
fn a_stack_that_moved_this_turn_may_still_move_in_after_a_breach() {
    // The double on d2 was made this turn, the single on b2 moved there.
    let mut s = setup("c3:b c1:w d1:w d2:w a10:b", [0, 0], [1, 1], W);
    ok(&mut s, "d1-d2");
    ok(&mut s, "c1-b1-b2");
    ok(&mut s, "breach c3 +b2 +d2");
    let k = cell_of(&s, "c3");
    assert_eq!((k.owner(), k.s, k.d), (Some(W), 1, 1));
    G::end_turn(&mut s).unwrap();
}

/// The example game of docs/games/breach-the-keep.md, section 7.
const EXAMPLE: &[&str] = &[
    "Z-d1-d2, Z-e1-e2",
    "Z-a10-a9, Z-g10-g9",
    "e2-d2, Z-c1-c2",
    "a9-b8-b7, g9-f8-f7",
    "d2-d3-d4-e5-e6",
    "b7-b6-a6, f7-f6-g6",
    "e6-d6-d7-d8-d9, breach home",
];

#[test]
fn the_documented_example_game_is_legal() {
    let mut s = new_game_with(&[("WhiteKeep", "3"), ("BlackKeep", "2")]).unwrap();
    for line in EXAMPLE {
        let acts: Vec<&str> = line.split(", ").collect();
        turn(&mut s, &acts).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    assert_eq!(G::outcome(&s), Outcome::Won(Side(0)));
    assert_eq!(
        G::summary(&s),
        "White won: breached Black's home Keep; White 28 points in play, Black 28"
    );
}

#[test]
fn a_double_mark_is_only_for_a_keep() {
    // `:2` on an open cell would not read back as itself (found by fuzzing).
    let s = new();
    let e = G::parse_action(&s, "d3:2-d4-d5").unwrap_err();
    assert_eq!(e.offset, 2);
    assert!(e.reason.contains("`:2` marks a double leaving a Keep"));
}

// ---------------------------------------------------------------- position notation

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
    // Seven empty columns (10, 9, 10, ... cells), White to move, 14 pieces
    // in each end zone, home Keeps of value 3.
    let text = "10/9/10/9/10/9/10 White 14/14 3/3 *";
    assert_eq!(position_of(&new()), text);
    let s = at(text);
    assert_eq!(s.pos, new().pos);
    let keeps = new_game_with(&[("WhiteKeep", "2"), ("BlackKeep", "5")]).unwrap();
    assert_eq!(position_of(&keeps), "10/9/10/9/10/9/10 White 14/14 2/5 *");
}

#[test]
fn position_writes_keeps_in_brackets_doubles_first() {
    // a10 a Black single; the Keep c3 a White double and single; d6 a
    // White double. Column a from row 1: 9 empty, then b.
    let s = setup("d6:W a10:b c3:wW", [0, 2], [1, 4], B);
    let text = "9b/9/2[Ww]7/5W3/10/9/10 Black 0/2 1/4 *";
    assert_eq!(position_of(&s), text);
    let back = at(text);
    assert_eq!(back.pos, s.pos);
    assert_eq!(legal(&back), legal(&s));
}

#[test]
fn finished_games_state_the_winner_and_how() {
    let mut s = new();
    G::resign(&mut s, Side(1));
    let text = "10/9/10/9/10/9/10 White 14/14 3/3 White:resignation";
    assert_eq!(position_of(&s), text);
    assert_eq!(G::summary(&at(text)), G::summary(&s));
    let s = G::parse_position("10/9/10/9/10/9/10 Black 2/0 1/3 Black:points").unwrap();
    assert_eq!(
        G::summary(&s),
        "Black won: White has 4 points in play, needs 6 to breach Black's home Keep"
    );
}

/// One table of cases (text, reason, the part shown): long, but one case a
/// row, read top to bottom; split up, the cases would be harder to compare.
#[test]
fn malformed_positions_are_refused_with_a_reason() {
    let cases = [
        (
            "10/9/10/9/10/9/10 White 14/14 3/3",
            "the result field is missing: a position has 5 fields: board, side, zones, keeps, \
             result",
            "3",
        ),
        (
            "2w7/9/10/9/10/9/10 White 13/14 3/3 *",
            "a3 is a Keep: write its stacks in brackets, e.g. [w]",
            "w",
        ),
        (
            "1[w]8/9/10/9/10/9/10 White 13/14 3/3 *",
            "a2 is not a Keep: brackets hold a Keep's stacks",
            "[w]",
        ),
        (
            "2[wb]7/9/10/9/10/9/10 White 13/13 3/3 *",
            "a Keep holds the stacks of one side only",
            "[wb]",
        ),
        (
            "2[wwww]7/9/10/9/10/9/10 White 10/14 3/3 *",
            "the Keep a3 holds at most three stacks",
            "[wwww]",
        ),
        (
            "2[wW]7/9/10/9/10/9/10 White 11/14 3/3 *",
            "in a Keep, write the doubles first, e.g. [Ww]",
            "[wW]",
        ),
        (
            "2[]7/9/10/9/10/9/10 White 14/14 3/3 *",
            "the Keep a3 is empty: count it among the empty cells",
            "[]",
        ),
        (
            "10/10/10/9/10/9/10 White 14/14 3/3 *",
            "column b has more than its 9 cells",
            "10",
        ),
        (
            "10/8/10/9/10/9/10 White 14/14 3/3 *",
            "column b has 8 cells, expected 9",
            "8",
        ),
        (
            "10/9/10/9/10/9 White 14/14 3/3 *",
            "the board has 6 columns, expected 7 (a to g, separated by `/`)",
            "10/9/10/9/10/9",
        ),
        (
            "10/9/10/9/10/9/55 White 14/14 3/3 *",
            "column g has more than its 10 cells",
            "55",
        ),
        (
            "10/9/10/9/10/9/10 White 14/15 3/3 *",
            "expected the pieces in White's and Black's end zones, e.g. 14/14",
            "14/15",
        ),
        (
            "10/9/10/9/10/9/10 White 14/14 3/7 *",
            "expected the values of White's and Black's home Keeps, 1 to 6, e.g. 3/3",
            "3/7",
        ),
        (
            "W9/9/10/9/10/9/10 White 13/14 3/3 *",
            "White has 15 pieces on the board and in its end zone: a side has 14",
            "W9/9/10/9/10/9/10",
        ),
        (
            "10/9/10/9/10/9/10 Red 14/14 3/3 *",
            "expected the side to move, White or Black, not `Red`",
            "Red",
        ),
        (
            "10/9/10/9/10/9/10 White 14/14 3/3 White:stalemate",
            "expected how the game was won: home-breach, points or resignation",
            "stalemate",
        ),
        (
            "10/9/1x8/9/10/9/10 White 14/14 3/3 *",
            "`x` is not a cell's content: expected w W (a White single or double), b B (Black), \
             [..] (a Keep's stacks) or a number (empty cells)",
            "x",
        ),
    ];
    for (text, reason, shown) in cases {
        assert_eq!(
            refused_position(text),
            (reason.to_string(), shown.to_string()),
            "{text}"
        );
    }
}

/// The turn's start, copied only as its first action changes the
/// position, is the position the turn began at, as the copy made at
/// every turn's start and end was: along random games whose turns try
/// random legal actions, some refused ones, fewer points than they could
/// use, and resignations.
#[test]
fn the_turn_start_kept_lazily_is_where_the_turn_began() {
    let mut rng = SplitMix::new(21);
    let (mut judged_uncopied, mut copied, mut refused) = (0, 0, 0);
    for _ in 0..40 {
        let mut s = new();
        for _ in 0..200 {
            if s.pos.over() {
                break;
            }
            G::begin_turn(&mut s, &mut Undrawn).unwrap();
            let began = s.pos;
            let mut actions = Vec::new();
            for _ in 0..rng.below(4) {
                actions.clear();
                G::legal_actions(&s, &mut actions);
                let Some(&a) = actions.get(rng.below(actions.len().max(1))) else {
                    break;
                };
                // A move back along its own path is mostly refused.
                if let Action::Move(mv) = a {
                    let back = Move {
                        from: mv.dest(),
                        ..mv
                    };
                    refused += usize::from(G::apply(&mut s, Action::Move(back)).is_err());
                }
                assert_eq!(s.turn_start(), &began);
                G::apply(&mut s, a).unwrap();
                assert_eq!(s.turn_start(), &began);
                if rng.below(3) == 0 {
                    break;
                }
            }
            let changed = s.pos != began;
            judged_uncopied += usize::from(!changed);
            if rng.below(50) == 0 {
                let side = s.pos.side;
                G::resign(&mut s, side);
                break;
            }
            let mut ended = s.clone();
            match G::end_turn(&mut ended) {
                Ok(()) => {
                    // A finished game's turn does not pass on.
                    let next = if ended.pos.over() { &began } else { &ended.pos };
                    assert_eq!(ended.turn_start(), next);
                    copied += usize::from(changed);
                    s = ended;
                }
                Err(_) => {
                    assert_eq!(s.turn_start(), &began);
                    // Finish the turn with legal actions.
                    while G::end_turn(&mut s).is_err() {
                        actions.clear();
                        G::legal_actions(&s, &mut actions);
                        G::apply(&mut s, actions[rng.below(actions.len())]).unwrap();
                        assert_eq!(s.turn_start(), &began);
                    }
                }
            }
        }
    }
    assert!(copied > 500, "{copied} turns that moved");
    assert!(
        judged_uncopied > 500,
        "{judged_uncopied} ends judged uncopied"
    );
    assert!(refused > 100, "{refused} refused moves");
}
