//! Tests, one per rule of spec section 6 and per rejection reason. Expected
//! values are worked out by hand from the rules.

use super::board::{Dir, Terrain, BLUE, RED};
use super::state::Piece;
use super::*;
use crate::game::Undrawn;
use crate::game::{action_text, DiagramStyle, Game, Outcome, Setup, Side};
use crate::selfplay::SplitMix;

type G = CastleDanger;

fn sq(name: &str) -> Sq {
    let b = name.as_bytes();
    Sq::new(b[0] - b'a', b[1] - b'1')
}

/// A new game through the trait, Blue's first turn begun.
fn new_game() -> State {
    let mut s = G::new_game(&Setup {
        sides: &[BLUE, RED],
        tags: &[],
    })
    .unwrap();
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    s
}

/// A position from tokens such as `Kc1 wd9 #c2 Fd7 fa3 Cd3!`: upper case
/// Blue, lower case Red, `#` a Wall, `F`/`f` Blue/Red Fire, `!` a fired
/// Cannon. `to_move`'s turn is begun (its own Fire goes, its Cannons reset).
fn position(to_move: Side, spec: &str) -> State {
    let mut s = State::empty();
    for tok in spec.split_whitespace() {
        let (c, rest) = tok.split_at(1);
        let c = c.chars().next().unwrap();
        let fired = rest.ends_with('!');
        let at = sq(rest.trim_end_matches('!'));
        let cell = match c {
            '#' => Cell::Wall,
            'F' => Cell::Fire(BLUE),
            'f' => Cell::Fire(RED),
            _ => Cell::Piece(Piece {
                side: if c.is_ascii_uppercase() { BLUE } else { RED },
                kind: Kind::from_letter(c).unwrap(),
                fired,
            }),
        };
        s.set(at, cell);
    }
    s.to_move = to_move;
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    s
}

/// A position from its notation (`position.rs`), with its turn begun.
fn at(text: &str) -> State {
    let mut s = G::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    s
}

fn parse(s: &State, text: &str) -> Action {
    G::parse_action(s, text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

type Kit = crate::games::testkit::Kit<G>;

fn ok(s: &mut State, text: &str) {
    Kit::ok(s, text);
}

/// The reason `text` is refused, checking that it changed nothing.
fn refused(s: &State, text: &str) -> String {
    let mut c = s.clone();
    let r = Kit::refused(&mut c, text);
    assert_eq!(
        c.cells(),
        s.cells(),
        "{text}: a refused action changed the board"
    );
    assert_eq!(c.turn, s.turn, "{text}: a refused action changed the turn");
    r
}

/// End the turn and begin the next one.
fn next_turn(s: &mut State) {
    Kit::next_turn(s);
}

fn left(s: &State) -> u8 {
    s.turn().moves_left
}

fn is_piece(s: &State, at: &str, side: Side, kind: Kind) -> bool {
    matches!(s.cell(sq(at)), Cell::Piece(p) if p.side == side && p.kind == kind)
}

fn legal_texts(s: &State) -> Vec<String> {
    Kit::legal(s)
}

// ---- Board and setup ----

#[test]
fn board_is_columns_a_to_g_and_rows_1_to_9() {
    let s = new_game();
    assert!(G::parse_action(&s, "Cg1*g9").is_ok());
    assert!(G::parse_action(&s, "Ca1*a9").is_ok());
    assert!(G::parse_action(&s, "Ch1*h2").is_err());
    assert!(G::parse_action(&s, "Ca1*a10").is_err());
    assert!(G::parse_action(&s, "Ca0*a2").is_err());
}

#[test]
fn start_position_matches_the_rulings() {
    let s = new_game();
    assert!(is_piece(&s, "c1", BLUE, Kind::King));
    assert!(is_piece(&s, "e1", BLUE, Kind::Wizard));
    assert!(is_piece(&s, "c9", RED, Kind::King));
    assert!(is_piece(&s, "e9", RED, Kind::Wizard));
    for w in ["c2", "e2", "c8", "e8"] {
        assert_eq!(s.cell(sq(w)), Cell::Wall, "{w}");
    }
    let filled = Sq::all().filter(|&q| s.cell(q) != Cell::Empty).count();
    assert_eq!(filled, 8);
    assert_eq!(G::to_move(&s), BLUE);
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
}

#[test]
fn blue_moves_first_whatever_the_header_order() {
    let s = G::new_game(&Setup {
        sides: &[RED, BLUE],
        tags: &[],
    })
    .unwrap();
    assert_eq!(G::to_move(&s), BLUE);
}

#[test]
fn setup_needs_both_blue_and_red() {
    let e = G::new_game(&Setup {
        sides: &[BLUE],
        tags: &[],
    })
    .unwrap_err();
    assert_eq!(
        e.reason,
        "Castle Danger is played by Blue and Red: Red is missing"
    );
    let e = G::new_game(&Setup {
        sides: &[RED],
        tags: &[],
    })
    .unwrap_err();
    assert_eq!(
        e.reason,
        "Castle Danger is played by Blue and Red: Blue is missing"
    );
    let e = G::new_game(&Setup {
        sides: &[BLUE, RED, RED],
        tags: &[],
    })
    .unwrap_err();
    assert_eq!(
        e.reason,
        "Castle Danger is played by exactly two sides, Blue and Red"
    );
}

#[test]
fn river_square_never_holds_a_piece() {
    let s = position(BLUE, "Kc4 kg9");
    assert_eq!(refused(&s, "Kc4-c5"), "c5 is in the river");
    assert_eq!(refused(&s, "Kc4-c5-c6"), "the path c4-c5 crosses the river");
    assert_eq!(refused(&s, "Kc4-c6"), "c6 is across the river");
}

#[test]
fn sand_rows_4_and_6_take_no_wall() {
    let s = position(BLUE, "Ka1 Bc3 kg9");
    assert_eq!(refused(&s, "Bc3+c4"), "sand: no Wall may be built on c4");
    let s = position(RED, "Kg1 kg9 bc7");
    assert_eq!(refused(&s, "bc7+c6"), "sand: no Wall may be built on c6");
    // Pieces treat sand like grass.
    let mut s = position(BLUE, "Ka1 Bc3 kg9");
    ok(&mut s, "Bc3-c4");
}

#[test]
fn no_wall_may_be_built_in_the_river() {
    let s = position(BLUE, "Ka1 Bc4 kg9");
    assert_eq!(
        refused(&s, "Bc4+c5"),
        "c5 is in the river: no Wall may be built there"
    );
}

#[test]
fn portals_are_d1_for_blue_and_d9_for_red() {
    let mut s = new_game();
    ok(&mut s, "+B");
    assert!(is_piece(&s, "d1", BLUE, Kind::Builder));
    next_turn(&mut s);
    ok(&mut s, "+C");
    assert!(is_piece(&s, "d9", RED, Kind::Cannon));
}

// ---- Turn order ----

#[test]
fn own_fire_is_removed_at_the_start_of_own_turn_only() {
    let mut s = position(BLUE, "Kc1 Wg1 Ca3 kg9 ba7 wb7");
    ok(&mut s, "Ca3*a7");
    assert_eq!(s.cell(sq("a7")), Cell::Fire(BLUE));
    next_turn(&mut s);
    // Through Red's turn the Fire stays and blocks.
    assert_eq!(s.cell(sq("a7")), Cell::Fire(BLUE));
    assert_eq!(refused(&s, "wb7-a7"), "a7 holds Blue Fire");
    next_turn(&mut s);
    assert_eq!(s.cell(sq("a7")), Cell::Empty);
}

#[test]
fn own_cannons_are_reset_at_the_start_of_own_turn() {
    let mut s = position(BLUE, "Kc1 Wg1 Ca3 kg9");
    ok(&mut s, "Ca3*a4");
    assert_eq!(
        refused(&s, "Ca3*a4"),
        "the Cannon on a3 has already fired this turn"
    );
    next_turn(&mut s);
    // Still shown as fired through Red's turn.
    assert!(matches!(s.cell(sq("a3")), Cell::Piece(p) if p.fired));
    next_turn(&mut s);
    assert!(matches!(s.cell(sq("a3")), Cell::Piece(p) if !p.fired));
    ok(&mut s, "Ca3*a4");
}

#[test]
fn moves_are_three_plus_three_per_wizard_on_the_board_at_turn_start() {
    assert_eq!(left(&position(BLUE, "Kc1 kg9")), 3);
    assert_eq!(left(&new_game()), 6);
    assert_eq!(left(&position(BLUE, "Kc1 Wa1 Wb1 kg9")), 9);
    // The opponent's Wizards do not count.
    assert_eq!(left(&position(BLUE, "Kc1 kg9 wa9 wb9")), 3);
}

#[test]
fn wizard_added_this_turn_gives_no_moves_until_next_turn() {
    let mut s = position(BLUE, "Kc1 kg9 wa9");
    ok(&mut s, "+W");
    assert_eq!(left(&s), 3);
    next_turn(&mut s);
    next_turn(&mut s);
    assert_eq!(left(&s), 6);
}

#[test]
fn add_costs_two_moves_with_at_least_as_many_movable_pieces() {
    let mut s = new_game(); // 2 against 2
    assert_eq!(G::action_cost(&s, &parse(&s, "+C")), Some(2));
    ok(&mut s, "+C");
    assert_eq!(left(&s), 4);
    let mut s = position(BLUE, "Kc1 Wa1 Ba2 kg9 wa9"); // 3 against 2
    ok(&mut s, "+W");
    assert_eq!(left(&s), 4);
}

#[test]
fn add_is_free_with_fewer_movable_pieces() {
    let mut s = position(BLUE, "Kc1 We1 kc9 we9 cd7");
    assert_eq!(G::action_cost(&s, &parse(&s, "+C")), Some(0));
    ok(&mut s, "+C");
    assert_eq!(left(&s), 6);
    // Walls and Fire are not movable pieces.
    let mut s = at("##4k/7/7/7/7/7/f6/7/2K4 Blue *");
    ok(&mut s, "+W");
    assert_eq!(left(&s), 1);
}

#[test]
fn add_must_be_the_turns_first_action() {
    let mut s = new_game();
    ok(&mut s, "Kc1-b1");
    assert_eq!(
        refused(&s, "+W"),
        "a piece may only be added as the turn's first action"
    );
    // Only one add per turn.
    let mut s = new_game();
    ok(&mut s, "+W");
    ok(&mut s, "Wd1-d2");
    assert_eq!(
        refused(&s, "+W"),
        "a piece may only be added as the turn's first action"
    );
}

#[test]
fn add_needs_the_portal_empty_at_the_start_of_the_turn() {
    let s = position(BLUE, "Kd1 kg9");
    assert_eq!(
        refused(&s, "+W"),
        "the Portal d1 was not empty at the start of the turn"
    );
    // Emptying it during the turn does not help: the add comes first.
    let mut s = position(BLUE, "Kd1 kg9");
    ok(&mut s, "Kd1-c1");
    assert_eq!(
        refused(&s, "+W"),
        "a piece may only be added as the turn's first action"
    );
}

#[test]
fn walled_portal_is_not_empty() {
    let mut s = position(BLUE, "Ka1 Bd2 kg9");
    ok(&mut s, "Bd2+d1");
    assert_eq!(s.cell(sq("d1")), Cell::Wall);
    next_turn(&mut s);
    next_turn(&mut s);
    assert_eq!(
        refused(&s, "+B"),
        "the Portal d1 was not empty at the start of the turn"
    );
    // The Builder may take the Wall down, but the add is lost this turn.
    ok(&mut s, "Bd2xd1");
    assert_eq!(
        refused(&s, "+B"),
        "a piece may only be added as the turn's first action"
    );
}

#[test]
fn king_cannot_be_added() {
    let s = new_game();
    assert_eq!(
        refused(&s, "+K"),
        "a King cannot be added, only a Wizard, Builder or Cannon"
    );
}

#[test]
fn add_names_only_the_own_portal() {
    let s = new_game();
    assert_eq!(refused(&s, "+Cd9"), "Blue's Portal is d1, not d9");
    assert_eq!(parse(&s, "+Cd1"), parse(&s, "+C"));
    assert_eq!(parse(&s, "+c D1"), parse(&s, "+C"));
}

#[test]
fn added_piece_may_act_at_once() {
    let mut s = new_game();
    ok(&mut s, "+B");
    ok(&mut s, "Bd1+d2");
    assert_eq!(s.cell(sq("d2")), Cell::Wall);
    let mut s = new_game();
    ok(&mut s, "+C");
    ok(&mut s, "Cd1*d4");
    assert_eq!(s.cell(sq("d4")), Cell::Fire(BLUE));
}

#[test]
fn unspent_moves_are_lost() {
    let mut s = new_game();
    ok(&mut s, "Kc1-b1");
    assert_eq!(left(&s), 5);
    next_turn(&mut s);
    next_turn(&mut s);
    assert_eq!(left(&s), 6);
}

#[test]
fn an_empty_turn_is_legal() {
    let mut s = new_game();
    G::end_turn(&mut s).unwrap();
    assert_eq!(G::to_move(&s), RED);
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    G::end_turn(&mut s).unwrap();
    assert_eq!(G::to_move(&s), BLUE);
}

// ---- Movement ----

#[test]
fn moving_costs_one_per_square() {
    let mut s = new_game();
    ok(&mut s, "Kc1-b1");
    assert_eq!(left(&s), 5);
    ok(&mut s, "Kb1-a1-a2");
    assert_eq!(left(&s), 3);
    assert!(is_piece(&s, "a2", BLUE, Kind::King));
    assert_eq!(s.cell(sq("c1")), Cell::Empty);
}

#[test]
fn ends_only_move_costs_the_shortest_legal_path() {
    let mut s = new_game();
    // c2 is walled: c1-b1-b2-b3-c3 or c1-d1-d2-d3-c3, 4 moves.
    let a = parse(&s, "Kc1-c3");
    assert_eq!(G::action_cost(&s, &a), Some(4));
    ok(&mut s, "Kc1-c3");
    assert_eq!(left(&s), 2);
    assert!(is_piece(&s, "c3", BLUE, Kind::King));
}

#[test]
fn full_path_costs_its_length_even_when_longer_than_shortest() {
    let mut s = new_game();
    ok(&mut s, "Kc1-b1-a1-a2-b2");
    assert_eq!(left(&s), 2);
}

#[test]
fn ends_only_move_needs_a_path_within_the_moves_left() {
    let s = position(BLUE, "Kc1 #c2 kg9");
    assert_eq!(
        refused(&s, "Kc1-c3"),
        "only 3 moves left, this move costs 4"
    );
}

#[test]
fn ends_only_move_needs_an_open_path() {
    let s = position(BLUE, "Ka1 #a2 #b1 Wg1 kg9");
    assert_eq!(refused(&s, "Ka1-a3"), "there is no open path from a1 to a3");
}

#[test]
fn moves_go_orthogonally_one_square_at_a_time() {
    let s = new_game();
    assert_eq!(refused(&s, "Kc1-b2-b3"), "the path c1-b2 steps diagonally");
    assert_eq!(refused(&s, "Kc1-a1-a2"), "the path c1-a1 skips squares");
    assert_eq!(refused(&s, "Kc1-a2-a3"), "the path c1-a2 jumps");
    // By its ends, b2 is reached orthogonally in 2.
    assert_eq!(G::action_cost(&s, &parse(&s, "Kc1-b2")), Some(2));
}

#[test]
fn pieces_move_only_into_empty_squares() {
    let s = position(BLUE, "Kc3 We3 #b3 fd3 kg9");
    assert_eq!(refused(&s, "Kc3-b3"), "b3 holds a Wall");
    assert_eq!(refused(&s, "Kc3-d3"), "d3 holds Red Fire");
    assert_eq!(refused(&s, "Kc3-c2-d2-d3"), "d3 holds Red Fire");
    assert_eq!(refused(&s, "Kc3-d3-e3"), "d3 holds Red Fire");
    let s = new_game();
    assert_eq!(refused(&s, "Kc1-c2"), "c2 holds a Wall");
    assert_eq!(refused(&s, "Kc1-d1-e1"), "e1 holds a Blue Wizard");
    assert_eq!(refused(&s, "Kc1-e1"), "e1 holds a Blue Wizard");
}

#[test]
fn a_move_of_zero_squares_is_illegal() {
    let s = new_game();
    assert_eq!(refused(&s, "Kc1-c1"), "a move must go at least one square");
}

#[test]
fn a_path_may_not_visit_a_square_twice() {
    let s = new_game();
    assert_eq!(refused(&s, "Kc1-b1-c1"), "the path visits c1 twice");
    assert_eq!(refused(&s, "Kc1-b1-b2-b1"), "the path visits b1 twice");
    assert_eq!(refused(&s, "Kc1-b1-b1"), "the path visits b1 twice");
}

#[test]
fn a_path_of_more_than_32_steps_is_refused() {
    // A snake through all 28 squares of Blue's half, then on over the river.
    let mut text = String::from("K");
    let mut squares = Vec::new();
    for row in 1..=4u8 {
        let cols: Vec<u8> = if row % 2 == 1 {
            (0..7).collect()
        } else {
            (0..7).rev().collect()
        };
        for c in cols {
            squares.push(format!("{}{row}", char::from(b'a' + c)));
        }
    }
    squares.extend(["a5", "a6", "a7", "b7", "c7", "d7"].map(String::from));
    assert_eq!(squares.len(), 34);
    text.push_str(&squares.join("-"));
    let s = position(BLUE, "Ka1 kg9");
    assert_eq!(
        refused(&s, &text),
        "the path is too long: no legal path has more than 27 steps"
    );
}

#[test]
fn a_path_that_leaves_the_board_is_refused() {
    // Cannot be written, only built: a step left from a1.
    let mut s = position(BLUE, "Ka1 kg9");
    let a = Action::Move {
        piece: Some(Kind::King),
        from: sq("a1"),
        to: sq("a1"),
        route: Route::Path {
            dirs: 0b1111,
            len: 2,
        },
    };
    assert_eq!(
        G::apply(&mut s, a).unwrap_err().reason,
        "the path leaves the board at a1"
    );
}

#[test]
fn piece_letter_is_optional_and_must_match() {
    let mut s = new_game();
    assert_eq!(parse(&s, "c1-b1"), parse(&s, "Kc1-b1"));
    assert_eq!(refused(&s, "Wc1-b1"), "no Blue Wizard on c1");
    assert_eq!(refused(&s, "a1-a2"), "no Blue piece on a1");
    assert_eq!(refused(&s, "Ka1-a2"), "no Blue King on a1");
    ok(&mut s, "c1-b1");
    assert!(is_piece(&s, "b1", BLUE, Kind::King));
}

#[test]
fn only_own_pieces_act() {
    let s = new_game();
    assert_eq!(refused(&s, "Kc9-b9"), "no Blue King on c9");
    assert_eq!(refused(&s, "c9-b9"), "no Blue piece on c9");
}

// ---- Walls ----

#[test]
fn builder_builds_a_wall_on_empty_grass_next_to_it_for_one_move() {
    let mut s = position(BLUE, "Ka1 Bc3 kg9");
    ok(&mut s, "Bc3+b3");
    assert_eq!(s.cell(sq("b3")), Cell::Wall);
    assert_eq!(left(&s), 2);
    ok(&mut s, "Bc3+c2");
    assert_eq!(left(&s), 1);
}

#[test]
fn wall_may_not_be_built_on_anything() {
    let s = position(BLUE, "Ka1 Bc3 Wd3 #b3 fc2 kg9");
    assert_eq!(refused(&s, "Bc3+b3"), "b3 holds a Wall");
    assert_eq!(refused(&s, "Bc3+c2"), "c2 holds Red Fire");
    assert_eq!(refused(&s, "Bc3+d3"), "d3 holds a Blue Wizard");
}

#[test]
fn wall_is_built_next_to_the_builder_only() {
    let s = position(BLUE, "Ka1 Bc3 kg9");
    assert_eq!(refused(&s, "Bc3+c1"), "c1 is not next to the Builder on c3");
    assert_eq!(refused(&s, "Bc3+d2"), "d2 is not next to the Builder on c3");
    assert_eq!(refused(&s, "Bc3xa1"), "a1 is not next to the Builder on c3");
}

#[test]
fn wall_may_stand_on_a_portal() {
    let mut s = position(BLUE, "Ka1 Bd2 kg9");
    ok(&mut s, "Bd2+d1");
    assert_eq!(s.cell(sq("d1")), Cell::Wall);
}

#[test]
fn builder_removes_any_wall_next_to_it_for_one_move() {
    let mut s = position(BLUE, "Ka1 Bc3 #b3 #c2 kg9");
    ok(&mut s, "Bc3xb3");
    assert_eq!(s.cell(sq("b3")), Cell::Empty);
    assert_eq!(left(&s), 2);
    assert_eq!(refused(&s, "Bc3xd3"), "there is no Wall on d3");
    // Walls are neutral: a Red Builder removes any Wall too.
    let mut s = position(RED, "Kg1 kg9 ba7 #a8");
    ok(&mut s, "ba7xa8");
    assert_eq!(s.cell(sq("a8")), Cell::Empty);
}

#[test]
fn only_a_builder_builds_or_removes_walls() {
    let s = new_game();
    assert_eq!(
        refused(&s, "Kc1+b1"),
        "a King cannot build Walls, only a Builder can"
    );
    assert_eq!(
        refused(&s, "Kc1xc2"),
        "a King cannot remove Walls, only a Builder can"
    );
    assert_eq!(refused(&s, "Bc1+b1"), "no Blue Builder on c1");
}

#[test]
fn nothing_costing_moves_is_allowed_beyond_the_moves_left() {
    let mut s = position(BLUE, "Kc1 Ba3 Cg2 kg9");
    ok(&mut s, "Kc1-b1");
    ok(&mut s, "Kb1-b2");
    assert_eq!(
        refused(&s, "Kb2-c2-d2"),
        "only 1 move left, this move costs 2"
    );
    assert_eq!(refused(&s, "Cg2*g4"), "only 1 move left, this shot costs 2");
    ok(&mut s, "Kb2-c2");
    assert_eq!(refused(&s, "Kc2-d2"), "no moves left, this move costs 1");
    assert_eq!(
        refused(&s, "Ba3+a2"),
        "no moves left, building a Wall costs 1"
    );
    assert_eq!(refused(&s, "Cg2*g3"), "no moves left, this shot costs 1");
    let mut s = position(BLUE, "Kc1 Ba3 #a2 kg9");
    ok(&mut s, "Kc1-d1-e1");
    ok(&mut s, "Ke1-f1");
    assert_eq!(
        refused(&s, "Ba3xa2"),
        "no moves left, removing a Wall costs 1"
    );
}

#[test]
fn adding_needs_its_cost_in_moves() {
    // Not reachable in play (an add comes first, with at least 3 moves);
    // the state is built by hand to reach the check.
    let mut s = new_game();
    s.turn.moves_left = 1;
    assert_eq!(
        refused(&s, "+W"),
        "only 1 move left, adding a piece costs 2"
    );
}

// ---- Cannons ----

#[test]
fn blue_cannon_fires_to_higher_rows_red_cannon_to_lower_rows() {
    let s = position(BLUE, "Kg1 Cc2 kg9");
    assert_eq!(
        refused(&s, "Cc2*c1"),
        "a Blue Cannon fires toward Red, to higher rows"
    );
    let s = position(RED, "Kg1 kg9 cc8");
    assert_eq!(
        refused(&s, "cc8*c9"),
        "a Red Cannon fires toward Blue, to lower rows"
    );
    let mut s = position(RED, "Kg1 kg9 cc8");
    ok(&mut s, "cc8*c7");
    assert_eq!(s.cell(sq("c7")), Cell::Fire(RED));
}

#[test]
fn cannon_fires_straight_along_its_column() {
    let s = position(BLUE, "Kg1 Cc2 kg9");
    assert_eq!(
        refused(&s, "Cc2*d3"),
        "a cannonball flies straight along its column: d3 is not in line with c2"
    );
    assert_eq!(
        refused(&s, "Cc2*c2"),
        "a Cannon cannot fire at its own square"
    );
}

#[test]
fn only_a_cannon_fires() {
    let s = position(BLUE, "Kg1 Cc2 kg9");
    assert_eq!(
        refused(&s, "Kg1*g2"),
        "a King cannot fire, only a Cannon can"
    );
    assert_eq!(refused(&s, "Cg1*g2"), "no Blue Cannon on g1");
}

#[test]
fn shot_costs_its_distance_and_is_limited_by_moves_left() {
    let mut s = position(BLUE, "Kg1 Cc2 kg9");
    assert_eq!(
        refused(&s, "Cc2*c6"),
        "only 3 moves left, this shot costs 4"
    );
    assert_eq!(G::action_cost(&s, &parse(&s, "Cc2*c5")), Some(3));
    ok(&mut s, "Cc2*c5");
    assert_eq!(left(&s), 0);
}

#[test]
fn cannon_shot_stops_at_first_wall() {
    let s = position(BLUE, "Ka1 Wg1 Cb1 #b3 #b4 kg9");
    let mut t = s.clone();
    ok(&mut t, "Cb1*b3");
    assert_eq!(t.cell(sq("b3")), Cell::Fire(BLUE));
    assert_eq!(t.cell(sq("b4")), Cell::Wall);
    assert_eq!(
        refused(&s, "Cb1*b4"),
        "a cannonball cannot pass the Wall on b3"
    );
    assert_eq!(
        refused(&s, "Cb1*b6"),
        "a cannonball cannot pass the Wall on b3"
    );
}

#[test]
fn cannonball_flies_over_pieces_and_the_river() {
    let mut s = position(BLUE, "Kg1 Wg2 Ca2 Wa3 kg9 wa6");
    ok(&mut s, "Ca2*a7");
    assert!(is_piece(&s, "a3", BLUE, Kind::Wizard));
    assert!(is_piece(&s, "a6", RED, Kind::Wizard));
    assert_eq!(s.cell(sq("a7")), Cell::Fire(BLUE));
}

#[test]
fn shot_removes_what_stands_on_the_landing_square_and_leaves_fire() {
    let mut s = position(BLUE, "Kc1 Wg1 Ca3 kg9 ba7");
    ok(&mut s, "Ca3*a7");
    assert_eq!(s.cell(sq("a7")), Cell::Fire(BLUE));
    assert_eq!(left(&s), 2);
    // A Wall, and even one's own piece.
    let mut s = position(BLUE, "Kc1 Wg1 Ca2 Ba3 #a4 kg9");
    ok(&mut s, "Ca2*a3");
    assert_eq!(s.cell(sq("a3")), Cell::Fire(BLUE));
    let mut s = position(BLUE, "Kc1 Wg1 Ca3 #a4 kg9");
    ok(&mut s, "Ca3*a4");
    assert_eq!(s.cell(sq("a4")), Cell::Fire(BLUE));
}

#[test]
fn shot_onto_a_portal_removes_but_leaves_no_fire() {
    let mut s = position(BLUE, "Kc1 Wg1 Cd3 kg9 wd9");
    ok(&mut s, "Cd3*d9");
    assert_eq!(s.cell(sq("d9")), Cell::Empty);
    // A walled Portal loses its Wall.
    let mut s = position(RED, "Kg1 kg9 wa9 cd2 #d1");
    ok(&mut s, "cd2*d1");
    assert_eq!(s.cell(sq("d1")), Cell::Empty);
}

#[test]
fn shot_into_the_river_has_no_effect_but_costs_and_uses_the_shot() {
    let mut s = position(BLUE, "Kc1 Wg1 Cd3 kg9");
    ok(&mut s, "Cd3*d5");
    assert_eq!(s.cell(sq("d5")), Cell::Empty);
    assert_eq!(left(&s), 4);
    assert_eq!(
        refused(&s, "Cd3*d4"),
        "the Cannon on d3 has already fired this turn"
    );
}

#[test]
fn cannon_fires_at_most_once_per_turn_but_may_move_before_and_after() {
    let mut s = position(BLUE, "Kg1 Wf1 Wf2 Cb2 kg9");
    ok(&mut s, "Cb2-a2");
    ok(&mut s, "Ca2*a3");
    ok(&mut s, "Ca2-b2-c2");
    assert_eq!(
        refused(&s, "Cc2*c3"),
        "the Cannon on c2 has already fired this turn"
    );
    // Another Cannon may still fire.
    let mut s = position(BLUE, "Kg1 Wf1 Ca2 Cb2 kg9");
    ok(&mut s, "Ca2*a3");
    ok(&mut s, "Cb2*b3");
}

#[test]
fn shot_onto_the_opponents_fire_replaces_it() {
    let mut s = position(BLUE, "Kg1 Ca2 fa3 kg9");
    assert_eq!(s.cell(sq("a3")), Cell::Fire(RED));
    ok(&mut s, "Ca2*a3");
    assert_eq!(s.cell(sq("a3")), Cell::Fire(BLUE));
    // A second Cannon's shot onto one's own Fire keeps it.
    let mut s = position(BLUE, "Kg1 Ca1 Ca2 kg9");
    ok(&mut s, "Ca2*a3");
    ok(&mut s, "Ca1*a3");
    assert_eq!(s.cell(sq("a3")), Cell::Fire(BLUE));
}

#[test]
fn a_cannon_moving_onto_a_piece_does_not_fire() {
    // The rule text's note 4 describes a screen's clicks; here `-` always
    // moves and `*` always fires.
    let s = position(BLUE, "Kg1 Cd2 Bd3 kg9");
    assert_eq!(refused(&s, "Cd2-d3"), "d3 holds a Blue Builder");
}

#[test]
fn king_hit_by_a_cannonball_loses_at_once() {
    let mut s = position(BLUE, "Kg1 Wg2 Wg3 Ca2 ka8");
    ok(&mut s, "Ca2*a8");
    assert_eq!(G::outcome(&s), Outcome::Won(BLUE));
    assert_eq!(G::summary(&s), "Blue won: Red's King was hit on a8");
    assert_eq!(refused(&s, "Kg1-f1"), "the game is over");
    let mut v = Vec::new();
    G::legal_actions(&s, &mut v);
    assert!(v.is_empty());
}

#[test]
fn own_king_hit_loses_too() {
    let mut s = position(BLUE, "Kb3 Cb2 kg9");
    ok(&mut s, "Cb2*b3");
    assert_eq!(G::outcome(&s), Outcome::Won(RED));
    assert_eq!(G::summary(&s), "Red won: Blue's King was hit on b3");
}

#[test]
fn resign_gives_the_other_side_the_win() {
    let mut s = new_game();
    G::resign(&mut s, BLUE);
    assert_eq!(G::outcome(&s), Outcome::Won(RED));
    assert_eq!(G::summary(&s), "Red won: Blue resigned");
}

// ---- Legal actions ----

#[test]
fn legal_actions_list_adds_and_one_move_per_reachable_square() {
    let s = position(BLUE, "Ka1 kg9");
    assert_eq!(
        legal_texts(&s),
        [
            "+W", "+B", "+C", "Ka1-b1", "Ka1-c1", "Ka1-d1", "Ka1-a2", "Ka1-b2", "Ka1-c2", "Ka1-a3",
            "Ka1-b3", "Ka1-a4"
        ]
    );
}

#[test]
fn legal_actions_list_builds_removes_and_shots() {
    let s = position(BLUE, "Kg1 Bb2 Cd2 #b3 Fd3 kg9 Cf3! #f4");
    let mut texts = legal_texts(&s);
    texts.retain(|t| !t.contains('-'));
    // Blue's own Fire is gone at turn start; the Cannon on f3 is reset.
    // b2: up b3 Wall, down b1, right c2, left a2. d2: d3 d4 d5 (3 moves).
    // f3: f4 holds a Wall, the shot stops there.
    assert_eq!(
        texts,
        [
            "+W", "+B", "+C", "Bb2xb3", "Bb2+b1", "Bb2+c2", "Bb2+a2", "Cd2*d3", "Cd2*d4", "Cd2*d5",
            "Cf3*f4"
        ]
    );
}

#[test]
fn legal_actions_are_all_accepted_and_stop_when_over() {
    for s in [
        new_game(),
        position(BLUE, "Kg1 Bb2 Cd2 #b3 kg9 wd9"),
        position(RED, "Kg1 kc9 cc8 bd8 wa9"),
    ] {
        let mut v = Vec::new();
        G::legal_actions(&s, &mut v);
        assert!(!v.is_empty());
        for a in v {
            let mut t = s.clone();
            G::apply(&mut t, a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
            let cost = G::action_cost(&s, &a).unwrap();
            assert_eq!(u32::from(left(&s) - left(&t)), cost, "{a:?}");
            G::end_turn(&mut t).unwrap();
        }
    }
}

#[test]
fn no_moves_left_lists_only_free_actions() {
    let mut s = position(BLUE, "Kc1 kg9");
    ok(&mut s, "Kc1-b1-a1-a2");
    assert!(legal_texts(&s).is_empty());
    G::end_turn(&mut s).unwrap();
}

// ---- Notation ----

fn round_trip(s: &State) {
    let mut v = Vec::new();
    G::legal_actions(s, &mut v);
    for a in v {
        let text = action_text::<G>(&a);
        assert_eq!(G::parse_action(s, &text), Ok(a), "{text}");
    }
}

#[test]
fn notation_round_trips_over_legal_actions() {
    round_trip(&new_game());
    round_trip(&position(BLUE, "Kg1 Bb2 Cd2 #b3 kg9 wd9"));
    round_trip(&position(RED, "Kg1 kc9 cc8 bd8 wa9 wb9"));
    let mut s = new_game();
    ok(&mut s, "+C");
    round_trip(&s);
}

#[test]
fn canonical_forms_keep_the_form_given() {
    let s = new_game();
    for text in [
        "+W",
        "+B",
        "+C",
        "Kc1-b2",
        "Kc1-b1-b2",
        "Bc2+c3",
        "Bc2xc3",
        "Cd3*d7",
    ] {
        assert_eq!(action_text::<G>(&parse(&s, text)), text);
    }
    assert_eq!(action_text::<G>(&parse(&s, "c1-b1")), "Kc1-b1");
    assert_eq!(action_text::<G>(&parse(&s, " kC1 - B1 -b2 ")), "Kc1-b1-b2");
    assert_eq!(action_text::<G>(&parse(&s, "+cd1")), "+C");
}

#[test]
fn input_is_case_insensitive() {
    let s = new_game();
    assert_eq!(parse(&s, "kc1-B1"), parse(&s, "Kc1-b1"));
    assert_eq!(parse(&s, "bC2XC3"), parse(&s, "Bc2xc3"));
    assert_eq!(parse(&s, "cD3*D7"), parse(&s, "Cd3*d7"));
    assert_eq!(parse(&s, "+w"), parse(&s, "+W"));
}

#[test]
fn whitespace_may_stand_between_parts() {
    let s = new_game();
    assert_eq!(parse(&s, "K c1 -\n  b1 - b2"), parse(&s, "Kc1-b1-b2"));
    assert_eq!(parse(&s, "+ W"), parse(&s, "+W"));
    assert_eq!(parse(&s, "C d3 *\r\n d7"), parse(&s, "Cd3*d7"));
    assert_eq!(parse(&s, "B c2 x c3"), parse(&s, "Bc2xc3"));
}

fn parse_err(text: &str) -> (usize, usize, String) {
    let e = G::parse_action(&new_game(), text).unwrap_err();
    (e.offset, e.len, e.reason)
}

#[test]
fn parse_errors_point_at_the_offending_bytes() {
    let expected = "expected an action such as Kc1-c2, Bc2+c3, Bc2xc3, Cd3*d7 or +W".to_string();
    assert_eq!(parse_err("pass"), (0, 4, expected.clone()));
    assert_eq!(parse_err("?"), (0, 1, expected));
    assert_eq!(
        parse_err("Kz1-c2"),
        (1, 2, "there is no column z: columns go from a to g".into())
    );
    assert_eq!(
        parse_err("c10-c2"),
        (0, 3, "there is no square c10: rows go from 1 to 9".into())
    );
    assert_eq!(
        parse_err("Kc1-c0"),
        (4, 2, "there is no square c0: rows go from 1 to 9".into())
    );
    assert_eq!(
        parse_err("Kc1-"),
        (3, 1, "expected a square such as c3 after `-`".into())
    );
    assert_eq!(
        parse_err("Kc1-c2-"),
        (6, 1, "expected a square such as c3 after `-`".into())
    );
    assert_eq!(
        parse_err("K"),
        (0, 1, "expected a square such as c3 after `K`".into())
    );
    assert_eq!(
        parse_err("Kc1?c2"),
        (
            3,
            1,
            "expected `-` (move), `+` (build), `x` (remove) or `*` (fire) after c1".into()
        )
    );
    assert_eq!(
        parse_err("+Q"),
        (1, 1, "expected W, B or C after `+`".into())
    );
    assert_eq!(
        parse_err("Kc1-c2 zz"),
        (7, 2, "unexpected `zz` after the action".into())
    );
    assert_eq!(
        parse_err("Bc2+"),
        (3, 1, "expected a square such as c3 after `+`".into())
    );
}

// ---- Summary, comment, diagram ----

#[test]
fn summary_tells_side_moves_and_wizards() {
    let mut s = new_game();
    assert_eq!(G::summary(&s), "Blue to move: 6 moves (1 Wizard)");
    ok(&mut s, "Kc1-b1-b2");
    assert_eq!(G::summary(&s), "Blue to move: 4 of 6 moves left (1 Wizard)");
    G::end_turn(&mut s).unwrap();
    assert_eq!(G::summary(&s), "Red to move: 6 moves (1 Wizard)");
    assert_eq!(
        G::summary(&position(BLUE, "Kc1 kg9")),
        "Blue to move: 3 moves (no Wizards)"
    );
    assert_eq!(
        G::summary(&position(BLUE, "Kc1 Wa1 Wb1 kg9")),
        "Blue to move: 9 moves (2 Wizards)"
    );
}

#[test]
fn turn_comment_counts_moves_and_tells_adds_and_hits() {
    let mut s = position(BLUE, "Kc1 We1 kc9 we9 cd7");
    let before = s.clone();
    ok(&mut s, "+C");
    ok(&mut s, "Cd1*d7");
    G::end_turn(&mut s).unwrap();
    assert_eq!(
        G::turn_comment(&before, &s),
        "6 of 6 moves; added Cannon d1; removed Red Cannon d7; Fire on d7"
    );

    let mut s = position(BLUE, "Kc1 Wg1 Wg2 Ba2 Cb3 Cd2 #b4 kg9 wd9");
    let before = s.clone();
    ok(&mut s, "Ba2+a3");
    ok(&mut s, "Ba2xa3");
    ok(&mut s, "Cb3*b4");
    ok(&mut s, "Cd2*d5");
    assert_eq!(
        G::turn_comment(&before, &s),
        "6 of 9 moves; built Wall a3; removed Wall a3; shot down Wall b4; \
         Fire on b4; shot into the river at d5"
    );

    let mut s = position(BLUE, "Kc1 Wg1 Cd3 kg9 wd9");
    let before = s.clone();
    ok(&mut s, "Cd3*d9");
    assert_eq!(
        G::turn_comment(&before, &s),
        "6 of 6 moves; removed Red Wizard d9; no Fire on Portal d9"
    );

    let mut s = position(BLUE, "Kg1 Wg2 Wg3 Ca2 ka8");
    let before = s.clone();
    ok(&mut s, "Ca2*a8");
    assert_eq!(
        G::turn_comment(&before, &s),
        "6 of 9 moves; Red's King hit: Blue wins"
    );

    let mut s = new_game();
    let before = s.clone();
    G::end_turn(&mut s).unwrap();
    assert_eq!(G::turn_comment(&before, &s), "0 of 6 moves");

    let mut s = new_game();
    let before = s.clone();
    ok(&mut s, "Kc1-b1");
    G::resign(&mut s, BLUE);
    assert_eq!(
        G::turn_comment(&before, &s),
        "1 of 6 moves; Blue resigned: Red wins"
    );
}

#[test]
fn example_game_from_the_docs() {
    let lines = [
        (
            "Blue",
            "+C, Cd1-d2-d3, Kc1-b1",
            "5 of 6 moves; added Cannon d1",
        ),
        (
            "Red",
            "+B, Bd9-d8, Bd8+d7, Kc9-b9",
            "3 of 6 moves; added Builder d9; built Wall d7",
        ),
        (
            "Blue",
            "Cd3*d7, Cd3-c3-b3",
            "6 of 6 moves; shot down Wall d7; Fire on d7",
        ),
        (
            "Red",
            "+C, Cd9*d6",
            "5 of 6 moves; added Cannon d9; Fire on d6",
        ),
        ("Blue", "Cb3*b9", "6 of 6 moves; Red's King hit: Blue wins"),
    ];
    let mut s = G::new_game(&Setup {
        sides: &[BLUE, RED],
        tags: &[],
    })
    .unwrap();
    for (side, line, comment) in lines {
        assert_eq!(G::SIDES[usize::from(G::to_move(&s).0)], side);
        G::begin_turn(&mut s, &mut Undrawn).unwrap();
        let before = s.clone();
        for text in line.split(", ") {
            ok(&mut s, text);
        }
        if !G::outcome(&s).is_over() {
            G::end_turn(&mut s).unwrap();
        }
        assert_eq!(G::turn_comment(&before, &s), comment, "{line}");
    }
    assert_eq!(G::outcome(&s), Outcome::Won(BLUE));
    assert_eq!(G::summary(&s), "Blue won: Red's King was hit on b9");
}

/// The diagram with ANSI colour sequences removed.
fn plain(s: &State, unicode: bool) -> String {
    let d = G::diagram(s, DiagramStyle { unicode });
    let mut out = String::new();
    let mut chars = d.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn diagram_shows_board_legend_and_status() {
    let mut s = position(BLUE, "Kc1 Wg1 Cd2 Bb2 kc9 fa3 #b3");
    ok(&mut s, "Cd2*d7");
    let d = plain(&s, false);
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines[0], "     a   b   c   d   e   f   g");
    assert_eq!(lines[1], "  9  .   .   k  [. ] .   .   .   9");
    assert_eq!(lines[3], "  7  .   .   .   F   .   .   .   7");
    assert_eq!(lines[4], "  6  :   :   :   :   :   :   :   6");
    assert_eq!(lines[5], "  5 ~~~~~~~~~~~~~~~~~~~~~~~~~~~~ 5");
    assert_eq!(lines[7], "  3  f   #   .   .   .   .   .   3");
    assert_eq!(lines[8], "  2  .   B   .   C!  .   .   .   2");
    assert_eq!(lines[9], "  1  .   .   K  [. ] .   .   W   1");
    assert!(d.contains("Blue to move: 1 of 6 moves left (1 Wizard)"));
    assert!(d.contains("[ ]  Portal: d1 Blue, d9 Red"));
    assert!(d.contains("C! c!"));
    assert!(lines.iter().all(|l| l.chars().count() < 78));

    let u = plain(&s, true);
    assert!(u.contains(" 2 │ · │ B │ · │ C!│ · │ · │ · │ 2"), "{u}");
    assert!(u.contains(" 1 │ · │ · │ K ║ ◇ ║ · │ · │ W │ 1"), "{u}");
    assert!(u.contains(" 6 │░░░│░░░│░░░│░░░│░░░│░░░│░░░│ 6"), "{u}");
    assert!(u.lines().all(|l| l.chars().count() < 78));

    let mut s = position(BLUE, "Kg1 Wg2 Wg3 Ca2 ka8");
    ok(&mut s, "Ca2*a8");
    assert!(plain(&s, false).contains("Blue won: Red's King was hit on a8"));
}

// ---- Self-play ----

#[test]
fn random_self_play_keeps_the_contract() {
    let mut rng = SplitMix::new(0x9e37_79b9_7f4a_7c15);
    let mut actions = Vec::new();
    let mut finished = 0;
    for _ in 0..200 {
        let mut s = new_game();
        for _turn in 0..200 {
            G::begin_turn(&mut s, &mut Undrawn).unwrap();
            loop {
                actions.clear();
                G::legal_actions(&s, &mut actions);
                if actions.is_empty() || rng.below(5) == 0 {
                    break;
                }
                let a = actions[rng.below(actions.len())];
                let text = action_text::<G>(&a);
                assert_eq!(G::parse_action(&s, &text), Ok(a), "{text}");
                G::apply(&mut s, a).unwrap_or_else(|e| panic!("{text}: {e}"));
                if G::outcome(&s).is_over() {
                    break;
                }
            }
            if G::outcome(&s).is_over() {
                finished += 1;
                break;
            }
            G::end_turn(&mut s).expect("end_turn after listed actions");
        }
    }
    eprintln!("{finished} of 200 random games ended");
    assert!(finished > 0, "no random game ended");
}

/// The state's square sets and counts, worked out again from its squares
/// alone: `(occupied, Blue's Fire, Red's Fire, fired, Wizards, movable)`.
fn tallies_from_squares(s: &State) -> (u64, u64, u64, u64, [u8; 2], [u8; 2]) {
    let (mut occupied, mut fire, mut fired) = (0u64, [0u64; 2], 0u64);
    let (mut wizards, mut movable) = ([0u8; 2], [0u8; 2]);
    for (i, cell) in s.cells().iter().enumerate() {
        let bit = 1u64 << i;
        match *cell {
            Cell::Empty => continue,
            Cell::Wall => {}
            Cell::Fire(side) => fire[usize::from(side)] |= bit,
            Cell::Piece(p) => {
                movable[usize::from(p.side)] += 1;
                if p.kind == Kind::Wizard {
                    wizards[usize::from(p.side)] += 1;
                }
                if p.fired {
                    fired |= bit;
                }
            }
        }
        occupied |= bit;
    }
    (occupied, fire[0], fire[1], fired, wizards, movable)
}

/// The tallies the state keeps.
fn tallies_kept(s: &State) -> (u64, u64, u64, u64, [u8; 2], [u8; 2]) {
    (
        s.occupied(),
        s.fire(BLUE),
        s.fire(RED),
        s.fired(),
        [s.wizards(BLUE), s.wizards(RED)],
        [s.movable(BLUE), s.movable(RED)],
    )
}

/// The length of a shortest open path, square by square over the cells
/// (the rule as spec section 6 states it, without square sets).
fn shortest_by_squares(s: &State, from: Sq, to: Sq) -> Option<u8> {
    let mut dist = [u8::MAX; 63];
    dist[from.idx()] = 0;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if at == to {
            return Some(dist[at.idx()]);
        }
        for dir in Dir::ALL {
            let Some(n) = at.step(dir) else { continue };
            let open = n.terrain() != Terrain::River && s.cell(n) == Cell::Empty;
            if open && dist[n.idx()] == u8::MAX {
                dist[n.idx()] = dist[at.idx()] + 1;
                queue.push_back(n);
            }
        }
    }
    None
}

#[test]
fn square_sets_and_counts_follow_every_change() {
    let mut rng = SplitMix::new(15);
    let mut actions = Vec::new();
    for _ in 0..40 {
        let mut s = new_game();
        for _turn in 0..150 {
            G::begin_turn(&mut s, &mut Undrawn).unwrap();
            assert_eq!(tallies_kept(&s), tallies_from_squares(&s));
            actions.clear();
            G::legal_actions(&s, &mut actions);
            while let Some(&a) = actions.get(rng.below(actions.len().max(1))) {
                G::apply(&mut s, a).unwrap();
                assert_eq!(tallies_kept(&s), tallies_from_squares(&s));
                if G::outcome(&s).is_over() || rng.below(4) == 0 {
                    break;
                }
                actions.clear();
                G::legal_actions(&s, &mut actions);
            }
            if G::outcome(&s).is_over() {
                break;
            }
            G::end_turn(&mut s).unwrap();
        }
        let text = position_of(&s);
        let back = G::parse_position(&text).unwrap();
        assert_eq!(tallies_kept(&back), tallies_from_squares(&back), "{text}");
    }
}

#[test]
fn shifting_a_square_is_emptying_it_and_setting_the_other() {
    let mut s = position(BLUE, "Kg1 Cb2 Wd2 #e3 kg9 wd9 cd7");
    ok(&mut s, "Cb2*b6");
    ok(&mut s, "Cb2-a2");
    for from in Sq::all() {
        for to in Sq::all() {
            let mut shifted = s.clone();
            shifted.shift(from, to);
            let mut set = s.clone();
            let cell = set.cell(from);
            set.set(from, Cell::Empty);
            set.set(to, cell);
            assert_eq!(shifted.cells(), set.cells(), "{from} to {to}");
            assert_eq!(tallies_kept(&shifted), tallies_kept(&set), "{from} to {to}");
        }
    }
}

#[test]
fn a_step_between_squares_is_one_of_the_four_steps() {
    for a in 0..70 {
        for b in 0..70 {
            let (a, b) = (Sq(a), Sq(b));
            let by_steps = Dir::ALL.into_iter().find(|&d| a.step(d) == Some(b));
            assert_eq!(a.dir_to(b), by_steps, "{a:?} to {b:?}");
        }
    }
}

#[test]
fn shortest_path_is_the_square_by_square_search() {
    let mut rng = SplitMix::new(16);
    let mut actions = Vec::new();
    let mut s = new_game();
    let mut compared = 0;
    for _turn in 0..300 {
        G::begin_turn(&mut s, &mut Undrawn).unwrap();
        for from in Sq::all() {
            for to in Sq::all() {
                assert_eq!(
                    rules::shortest(&s, from, to),
                    shortest_by_squares(&s, from, to),
                    "{from} to {to} in {}",
                    position_of(&s)
                );
                compared += 1;
            }
        }
        actions.clear();
        G::legal_actions(&s, &mut actions);
        for _ in 0..3 {
            let Some(&a) = actions.get(rng.below(actions.len().max(1))) else {
                break;
            };
            if G::apply(&mut s, a).is_err() || G::outcome(&s).is_over() {
                break;
            }
            actions.clear();
            G::legal_actions(&s, &mut actions);
        }
        if G::outcome(&s).is_over() {
            s = new_game();
        } else {
            G::end_turn(&mut s).unwrap();
        }
    }
    assert_eq!(compared, 300 * 63 * 63);
}

// ---- Position notation ----

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
    // Rows 9 to 1: Red King c9 and Wizard e9, Walls c8 e8, five empty rows
    // (7, 6, the river 5, 4, 3), Walls c2 e2, Blue King c1 and Wizard e1.
    let text = "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 Blue *";
    assert_eq!(position_of(&new_game()), text);
    let s = at(text);
    assert_eq!(s.cells(), new_game().cells());
    assert_eq!(legal_texts(&s), legal_texts(&new_game()));
}

#[test]
fn position_shows_fire_walls_and_fired_cannons() {
    // Red to move: Blue's Fire on c9 and Blue's fired Cannon on c4 stay
    // until Blue's turn begins.
    let s = position(RED, "Kc2 Wc1 We1 #e2 #b3 Cc4! kb8 bd8 #e8 #d7 Fc9 we9");
    let text = "2F1w2/1k1b#2/3#3/7/7/2C!4/1#5/2K1#2/2W1W2 Red *";
    assert_eq!(position_of(&s), text);
    let back = at(text);
    assert_eq!(back.cells(), s.cells());
    assert_eq!(back.to_move(), RED);
}

#[test]
fn a_fired_cannon_keeps_its_mark_until_its_owner_moves_again() {
    let mut s = at("6k/7/7/7/7/7/7/2C4/6K Blue *");
    ok(&mut s, "Cc2*c4");
    G::end_turn(&mut s).unwrap();
    assert_eq!(position_of(&s), "6k/7/7/7/7/2F4/7/2C!4/6K Red *");
    // Red's turn begins and ends: Blue's Fire and mark stay.
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    G::end_turn(&mut s).unwrap();
    assert_eq!(position_of(&s), "6k/7/7/7/7/2F4/7/2C!4/6K Blue *");
    G::begin_turn(&mut s, &mut Undrawn).unwrap();
    assert_eq!(position_of(&s), "6k/7/7/7/7/7/7/2C4/6K Blue *");
}

#[test]
fn finished_games_state_the_winner_and_how() {
    let mut s = at("6k/7/7/7/7/7/7/6C/WWK4 Blue *");
    ok(&mut s, "Cg2*g9");
    assert_eq!(
        position_of(&s),
        "6F/7/7/7/7/7/7/6C!/WWK4 Blue Blue:King-hit-g9"
    );
    let back = at(&position_of(&s));
    assert_eq!(G::summary(&back), "Blue won: Red's King was hit on g9");
    let mut s = new_game();
    G::resign(&mut s, RED);
    let text = "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 Blue Blue:resignation";
    assert_eq!(position_of(&s), text);
    assert_eq!(G::summary(&at(text)), "Blue won: Red resigned");
}

/// One table of cases (text, reason, the part shown): long, but one case a
/// row, read top to bottom; split up, the cases would be harder to compare.
#[test]
fn malformed_positions_are_refused_with_a_reason() {
    let cases = [
        (
            "",
            "empty position: a position has 3 fields: board, side, result",
            "",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 Blue",
            "the result field is missing: a position has 3 fields: board, side, result",
            "e",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2  Blue *",
            "fields are separated by single spaces",
            " ",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 Blue * x",
            "unexpected text after the result field: a position has 3 fields: board, side, result",
            "x",
        ),
        (
            "2k1w2/2#1#2/7/7/1K5/7/7/2#1#2/3W2 Blue *",
            "b5 is in the river: nothing stands in row 5, write it 7",
            "K",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W3 Blue *",
            "row 1 has more than 7 squares",
            "2K1W3",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W1 Blue *",
            "row 1 has 6 squares, expected 7",
            "2K1W1",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/2#1#2/2K1W2 Blue *",
            "the board has 8 rows, expected 9 (row 9 first, separated by `/`)",
            "2k1w2/2#1#2/7/7/7/7/2#1#2/2K1W2",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W!2 Blue *",
            "`!` marks a fired Cannon: it follows C or c",
            "!",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1X2 Blue *",
            "`X` is not a square's content: expected K W B C (Blue), k w b c (Red), # (a \
             Wall), F or f (Blue or Red Fire) or a digit 1-7 (empty squares)",
            "X",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W11 Blue *",
            "write a run of empty squares as one digit (e.g. 7, not 43)",
            "1",
        ),
        (
            "2k1w2/2#1#2/7/7/7/#6/7/2#1#2/2K1W2 Blue *",
            "a4 is sand: no Wall stands there",
            "#",
        ),
        (
            "2kFw2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 Blue *",
            "d9 is a Portal: no Fire stays there",
            "F",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1WK1 Blue *",
            "Blue has 2 Kings: a side has one",
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1WK1",
        ),
        (
            "4w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 Blue *",
            "Red has no King on the board",
            "4w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 blue *",
            "expected the side to move, Blue or Red, not `blue`",
            "blue",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 Blue Blue:checkmate",
            "expected how the game was won: King-hit-<square> or resignation",
            "checkmate",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 Blue Blue:King-hit-h9",
            "expected the square where the King was hit, e.g. d7",
            "h9",
        ),
        (
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2 Blue Blue:King-hit-c9",
            "Red's King was hit, so it is no longer on the board",
            "2k1w2/2#1#2/7/7/7/7/7/2#1#2/2K1W2",
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
