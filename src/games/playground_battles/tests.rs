//! Tests, one per rule of the game (docs/games/playground-battles.md section 9) and per
//! rejection reason. Expected values are worked out by hand from the
//! rules; positions are written piece by piece (`c3 bc`: Blue's piece that
//! started on c1 stands on c3, identity hidden; `bcR`: opened as a Rock;
//! `bcr`: a Rock only its owner knows, as in `show --key`).

use super::board::{Spot, ALL_SLOTS, ARMY_SLOTS, THROW_SLOTS};
use super::state::{End, Kind, PieceId};
use super::*;
use crate::game::{action_text, Chance, DiagramStyle, Game, Outcome, Setup};
use crate::games::testkit;

type G = PlaygroundBattles;
type Kit = testkit::Kit<G>;

/// A die that shows `face` (1 to 6).
struct Die(u32);

impl Chance for Die {
    fn draw(&mut self, label: &'static str, n: u32) -> Result<u32, Illegal> {
        assert_eq!((label, n), ("die", 6));
        Ok(self.0 - 1)
    }
}

fn sq(name: &str) -> Sq {
    let b = name.as_bytes();
    Sq::new(b[0] - b'a', b[1] - b'1')
}

fn id(token: &str) -> PieceId {
    let b = token.as_bytes();
    let side = if b[0] == b'b' { BLUE } else { RED };
    PieceId::new(side, b[1] - b'a')
}

/// A position from `square token` pairs separated by commas (`c3 bc, c5
/// rdR, d4 bcR rdR`: two tokens on a square make a stalemate), `to_move`
/// to move, its turn begun with the die showing `roll`.
fn position(to_move: Side, roll: u32, spec: &str) -> State {
    let mut s = State::empty();
    for entry in spec.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let mut words = entry.split_whitespace();
        let at = sq(words.next().unwrap());
        for token in words {
            let piece = id(token);
            s.put(piece, at);
            if let Some(c) = token.chars().nth(2) {
                let kind = Kind::from_letter(c).unwrap();
                s.learn(piece, kind, c.is_ascii_uppercase());
            }
        }
    }
    s.to_move = to_move;
    G::begin_turn(&mut s, &mut Die(roll)).unwrap();
    s
}

fn open(s: &mut State, token: &str, kind: &str) -> Result<(), String> {
    let piece = id(token);
    G::open(s, piece.side(), piece.slot(), kind).map_err(|e| e.reason)
}

fn new_game() -> State {
    G::new_game(&Setup {
        sides: &[BLUE, RED],
        tags: &[],
    })
    .unwrap()
}

/// Open every throw of both sides: Blue's then Red's.
fn throw(s: &mut State, blue: &str, red: &str) {
    for (side, text) in [(BLUE, blue), (RED, red)] {
        for (i, c) in text.chars().enumerate() {
            G::open(s, side, board::THROW_SLOTS[i], &c.to_string()).unwrap();
        }
    }
}

// ---------------------------------------------------------------------
// Board and set-up

#[test]
fn each_side_starts_with_ten_pieces_on_its_back_row_identities_hidden() {
    let s = new_game();
    let text = crate::game::position_text::<G>(&s);
    assert_eq!(
        text,
        "rarbrcrdrerfrgrhrirj/10/10/10/10/10/10/babbbcbdbebfbgbhbibj Blue - *"
    );
    assert_eq!(s.piece(id("bc")).at, Some(sq("c1")));
    assert_eq!(s.piece(id("rj")).at, Some(sq("j8")));
    assert!(PieceId::all().all(|p| s.piece(p).kind.is_none()));
}

#[test]
fn each_side_hides_an_army_slot_per_back_row_square_and_twelve_throws() {
    let s = new_game();
    let blue = G::hidden_slots(&s, BLUE);
    assert_eq!(blue.len(), 22);
    assert_eq!(&blue[..10], &ARMY_SLOTS[0]);
    assert_eq!(&blue[10..], &board::THROW_SLOTS);
    assert_eq!(G::hidden_slots(&s, RED)[0], "a8");
    assert_eq!(G::opened_after_setup(&s, RED), &board::THROW_SLOTS);
}

#[test]
fn an_army_is_ten_letters_r_p_or_s() {
    let s = new_game();
    let army = G::read_choice(&s, RED, "army", "rpsRPSrpsR").unwrap();
    assert_eq!(army[0], ("a8", "R".to_string()));
    assert_eq!(army[9], ("j8", "R".to_string()));
    let short = G::read_choice(&s, BLUE, "army", "RPSRPSRPS").unwrap_err();
    assert_eq!(
        short.reason,
        "an army (one letter per back-row square, a to j) is 10 letters R, P or S: this is 9"
    );
    let bad = G::read_choice(&s, BLUE, "army", "RPSRPXRPSR").unwrap_err();
    assert_eq!(
        bad.reason,
        "`X` (letter 6 of 10, f1) is not R (Rock), P (Paper) or S (Scissors)"
    );
    let throws = G::read_choice(&s, BLUE, "throws", "RPS").unwrap_err();
    assert_eq!(
        throws.reason,
        "a set of opening throws is 12 letters R, P or S: this is 3"
    );
}

#[test]
fn an_army_needs_at_least_one_rock_one_paper_and_one_scissors() {
    let s = new_game();
    let values = |army: &str| -> Vec<(&'static str, String)> {
        G::read_choice(&s, BLUE, "army", army).unwrap()
    };
    let audit = |army: &str| {
        let v = values(army);
        let refs: Vec<(&str, &str)> = v.iter().map(|(a, b)| (*a, b.as_str())).collect();
        G::audit(&s, BLUE, &refs).map_err(|e| e.reason)
    };
    assert_eq!(audit("RPSRRRRRRR"), Ok(()));
    assert_eq!(
        audit("RRRRRRRRRR"),
        Err("needs at least one Paper and one Scissors".into())
    );
    assert_eq!(
        audit("RRRRRRRRRP"),
        Err("needs at least one Scissors".into())
    );
    // The opening throws are not part of the army.
    let mut v = values("RRRRRRRRRR");
    v.push(("t1", "P".into()));
    v.push(("t2", "S".into()));
    let refs: Vec<(&str, &str)> = v.iter().map(|(a, b)| (*a, b.as_str())).collect();
    assert!(G::audit(&s, BLUE, &refs).is_err());
}

#[test]
fn a_hidden_value_is_exactly_r_p_or_s() {
    assert!(G::check_hidden("a1", "R").is_ok());
    assert!(G::check_hidden("t3", "S").is_ok());
    assert_eq!(
        G::check_hidden("a1", "r").unwrap_err().reason,
        "`r` is not R (Rock), P (Paper) or S (Scissors)"
    );
    assert!(G::check_hidden("a1", "Rock").is_err());
}

// ---------------------------------------------------------------------
// The opening throws

#[test]
fn the_first_pair_of_throws_that_differs_decides_who_moves_first() {
    let mut s = new_game();
    // t1 and t2 tie; t3: Blue's Scissors beat Red's Paper.
    throw(&mut s, "RPSRRRRRRRRR", "RPPSSSSSSSSS");
    assert_eq!(G::to_move(&s), BLUE);
    let mut s = new_game();
    // t1: Red's Paper beats Blue's Rock.
    throw(&mut s, "RSSSSSSSSSSS", "PRRRRRRRRRRR");
    assert_eq!(G::to_move(&s), RED);
}

#[test]
fn when_every_pair_of_throws_ties_blue_moves_first() {
    let mut s = new_game();
    s.to_move = RED;
    throw(&mut s, "RPSRPSRPSRPS", "RPSRPSRPSRPS");
    assert_eq!(G::to_move(&s), BLUE);
}

// ---------------------------------------------------------------------
// The die and the moves

#[test]
fn the_die_is_rolled_at_the_start_of_each_turn() {
    let mut s = new_game();
    G::begin_turn(&mut s, &mut Die(5)).unwrap();
    assert_eq!(s.roll, Some(5));
    assert_eq!(G::summary(&s), "Blue to move: rolled 5");
    let refused = G::begin_turn(&mut new_game(), &mut crate::game::Undrawn).unwrap_err();
    assert!(refused.reason.contains("die is not drawn yet"));
}

#[test]
fn a_move_takes_exactly_the_rolled_number_of_steps() {
    let mut s = position(BLUE, 3, "c1 bc");
    assert_eq!(
        Kit::refused(&mut s.clone(), "c1-c2-c3-c4-c5"),
        "the roll is 3: a move takes exactly 3 steps, and this one takes 4"
    );
    Kit::ok(&mut s, "c1-c2-c3-c4");
    assert_eq!(s.piece(id("bc")).at, Some(sq("c4")));
}

#[test]
fn a_move_goes_one_square_at_a_time_never_diagonally() {
    let mut s = position(BLUE, 2, "c1 bc");
    assert_eq!(
        Kit::refused(&mut s, "c1-d2-d3"),
        "d2 is not next to c1: a move goes one square at a time, never diagonally"
    );
}

#[test]
fn a_move_never_visits_a_square_twice() {
    let mut s = position(BLUE, 4, "c3 bc");
    assert_eq!(
        Kit::refused(&mut s.clone(), "c3-c4-d4-d3-c3"),
        "the path comes back to c3: a move never visits a square twice"
    );
    assert_eq!(
        Kit::refused(&mut s, "c3-c4-c5-c4-c3"),
        "the path comes back to c4: a move never visits a square twice"
    );
}

#[test]
fn a_move_never_jumps_over_a_piece() {
    let s = position(BLUE, 3, "c1 bc, c2 bd, d1 be");
    assert_eq!(
        Kit::refused(&mut s.clone(), "c1-c2-c3-c4"),
        "c2 holds the Blue piece on c2: a move never jumps over a piece"
    );
    let mut s = position(BLUE, 3, "c1 bc, c3 raS");
    assert_eq!(
        Kit::refused(&mut s, "c1-c2-c3-c4"),
        "c3 holds Red's Scissors on c3: a move never jumps over a piece"
    );
}

#[test]
fn a_piece_never_moves_onto_its_own_side() {
    let mut s = position(BLUE, 1, "c1 bc, c2 bd");
    assert_eq!(
        Kit::refused(&mut s, "c1-c2"),
        "c2 holds the Blue piece on c2: a piece never moves onto its own side"
    );
}

#[test]
fn only_the_movers_own_free_piece_moves() {
    let mut s = position(BLUE, 1, "c3 ra, d4 bcR rdR");
    assert_eq!(
        Kit::refused(&mut s.clone(), "e5-e6"),
        "no piece stands on e5"
    );
    assert_eq!(
        Kit::refused(&mut s.clone(), "c3-c4"),
        "c3 holds a Red piece, not a Blue one"
    );
    assert_eq!(
        Kit::refused(&mut s, "d4-d5"),
        "d4 is a stalemate: its pieces are locked until a rescue frees them"
    );
}

#[test]
fn a_turn_is_one_move() {
    let mut s = position(BLUE, 1, "c1 bc, e1 be");
    Kit::ok(&mut s, "c1-c2");
    assert_eq!(
        Kit::refused(&mut s, "e1-e2"),
        "Blue has moved already: a turn is one move"
    );
}

#[test]
fn a_move_written_by_its_ends_takes_a_path_of_the_roll() {
    // Roll 4 from c1 to c5: straight up.
    let s = position(BLUE, 4, "c1 bc");
    let mv = G::parse_action(&s, "c1-c5").unwrap();
    assert_eq!(action_text::<G>(&mv), "c1-c2-c3-c4-c5");
    // Roll 4 from c1 to c3 round a piece on c2.
    let s = position(BLUE, 4, "c1 bc, c2 bd");
    let mv = G::parse_action(&s, "c1-c3").unwrap();
    let text = action_text::<G>(&mv);
    assert!(text.starts_with("c1-") && text.ends_with("-c3"), "{text}");
    assert_eq!(mv.steps().len(), 4);
    // Into the base by its ends: d6 to the base is three steps.
    let s = position(BLUE, 3, "d6 bd");
    let mv = G::parse_action(&s, "d6-base").unwrap();
    assert_eq!(action_text::<G>(&mv), "d6-d7-d8-base");
}

#[test]
fn a_move_by_its_ends_with_no_path_of_the_roll_says_so() {
    // c1 to c4 is three squares apart: no path of 2 (or of 4) steps.
    let mut s = position(BLUE, 2, "c1 bc");
    assert_eq!(
        Kit::refused(&mut s, "c1-c4"),
        "no path of exactly 2 steps leads from c1 to c4 through empty squares"
    );
}

#[test]
fn legal_lists_one_path_to_each_place_the_roll_reaches() {
    // A lone piece on a1 with a roll of 2: b2, a3 and c1 (three places).
    let s = position(BLUE, 2, "a1 ba");
    let legal = Kit::legal(&s);
    assert_eq!(legal, ["a1-a2-a3", "a1-a2-b2", "a1-b1-c1"]);
    for text in &legal {
        let mut t = s.clone();
        Kit::ok(&mut t, text);
        Kit::end(&mut t);
    }
}

// ---------------------------------------------------------------------
// Attacks and battles

#[test]
fn an_attack_ends_on_an_enemy_piece_and_waits_for_both_identities() {
    let mut s = position(BLUE, 2, "c1 bc, c3 rd");
    Kit::ok(&mut s, "c1-c2-c3");
    assert_eq!(
        G::demands(&s),
        [
            Demand {
                side: BLUE,
                slot: "c1"
            },
            Demand {
                side: RED,
                slot: "d8"
            }
        ]
    );
    assert_eq!(
        crate::game::position_text::<G>(&s)
            .split(' ')
            .next()
            .unwrap(),
        "10/10/10/10/10/2(rdbc)7/10/10"
    );
}

#[test]
fn the_defender_opens_on_its_next_line_and_the_battle_resolves_then() {
    let mut s = position(BLUE, 2, "c1 bc, c3 rd, h8 rh");
    Kit::ok(&mut s, "c1-c2-c3");
    open(&mut s, "bc", "R").unwrap();
    // Blue's Rock is opened; the battle waits for Red's identity.
    assert_eq!(
        G::demands(&s),
        [Demand {
            side: RED,
            slot: "d8"
        }]
    );
    Kit::end(&mut s);
    let text = crate::game::position_text::<G>(&s);
    assert!(text.ends_with(" Red c3 *"), "{text}");
    G::begin_turn(&mut s, &mut Die(1)).unwrap();
    open(&mut s, "rd", "S").unwrap();
    // Rock beats Scissors: the attacker stands on c3.
    assert_eq!(s.at(sq("c3")), [Some(id("bc")), None]);
    assert_eq!(s.piece(id("rd")).at, None);
    assert!(G::demands(&s).is_empty());
}

#[test]
fn a_defender_that_wins_stays_and_the_attacker_leaves() {
    let mut s = position(BLUE, 1, "c2 bcR, c3 rd, h8 rh");
    Kit::ok(&mut s, "c2-c3");
    Kit::end(&mut s);
    G::begin_turn(&mut s, &mut Die(1)).unwrap();
    open(&mut s, "rd", "P").unwrap();
    assert_eq!(s.at(sq("c3")), [Some(id("rd")), None]);
    assert_eq!(s.piece(id("bc")).at, None);
    assert_eq!(
        G::turn_comment(&s, &s),
        "battle on c3: Red's Paper beats Blue's Rock"
    );
}

#[test]
fn a_battle_between_opened_pieces_resolves_at_once() {
    let mut s = position(BLUE, 1, "c2 bcS, c3 rdP");
    Kit::ok(&mut s, "c2-c3");
    assert!(G::demands(&s).is_empty());
    assert_eq!(s.at(sq("c3")), [Some(id("bc")), None]);
}

#[test]
fn alike_pieces_lock_in_a_stalemate_both_opened() {
    let mut s = position(BLUE, 1, "c2 bcR, c3 rd, h8 rh, h1 bh");
    Kit::ok(&mut s, "c2-c3");
    Kit::end(&mut s);
    G::begin_turn(&mut s, &mut Die(1)).unwrap();
    open(&mut s, "rd", "R").unwrap();
    assert!(s.is_stalemate(sq("c3")));
    assert!(!s.is_free(id("bc")) && !s.is_free(id("rd")));
    assert_eq!(G::turn_comment(&s, &s), "stalemate on c3: two Rocks locked");
    let text = crate::game::position_text::<G>(&s);
    assert!(text.contains("(rdRbcR)"), "{text}");
}

#[test]
fn a_piece_on_its_own_back_row_can_be_attacked() {
    let mut s = position(RED, 1, "c2 rc, c1 bc");
    Kit::ok(&mut s, "c2-c1");
    assert_eq!(s.battle.map(|b| b.at), Some(sq("c1")));
}

// ---------------------------------------------------------------------
// Stalemates and rescues

#[test]
fn a_stalemate_square_may_only_be_a_moves_last_step() {
    let mut s = position(BLUE, 2, "c2 bcP, c3 baR raR");
    assert_eq!(
        Kit::refused(&mut s, "c2-c3-c4"),
        "c3 is a stalemate: a move may only end there, never pass through"
    );
}

#[test]
fn the_winning_piece_rescues_and_the_rescuer_may_stay() {
    let mut s = position(BLUE, 1, "c2 bc, c3 baR raR, h8 rh");
    Kit::ok(&mut s, "c2-c3 R>a1");
    // The rescuer's identity is opened on the same line.
    assert_eq!(
        G::demands(&s),
        [Demand {
            side: BLUE,
            slot: "c1"
        }]
    );
    open(&mut s, "bc", "P").unwrap();
    assert_eq!(s.at(sq("c3")), [Some(id("bc")), None]);
    assert_eq!(s.piece(id("ba")).at, Some(sq("a1")));
    assert_eq!(s.piece(id("ra")).at, None);
    assert!(s.is_free(id("ba")) && s.is_free(id("bc")));
    assert_eq!(
        G::turn_comment(&s, &s),
        "rescue on c3: Blue's Paper stays, the other goes back to a1"
    );
}

#[test]
fn the_freed_piece_may_stay_and_the_rescuer_go_back() {
    let mut s = position(BLUE, 1, "c2 bc, c3 baR raR, h8 rh");
    Kit::ok(&mut s, "c2-c3 P>c1");
    open(&mut s, "bc", "P").unwrap();
    assert_eq!(s.at(sq("c3")), [Some(id("ba")), None]);
    assert_eq!(s.piece(id("bc")).at, Some(sq("c1")));
}

#[test]
fn either_side_may_break_a_stalemate() {
    let mut s = position(RED, 1, "c4 rcS, c3 baP raP, h1 bh");
    Kit::ok(&mut s, "c4-c3 P>h8");
    assert_eq!(s.at(sq("c3")), [Some(id("rc")), None]);
    assert_eq!(s.piece(id("ra")).at, Some(sq("h8")));
    assert_eq!(s.piece(id("ba")).at, None);
}

#[test]
fn with_a_full_back_row_the_piece_not_kept_leaves_the_game() {
    // Red's Rock (from e8) breaks a stalemate of Scissors on c3; of Red's
    // back row only c8 and e8 (the two pieces' own squares) are empty.
    let mut s = position(
        RED,
        1,
        "c3 bdS rcS, c4 reR, a8 ra, b8 rb, d8 rd, f8 rf, g8 rg, h8 rh, i8 ri, j8 rj",
    );
    assert_eq!(
        Kit::refused(&mut s.clone(), "c4-c3 S>out"),
        "Red's back row has room (c8 is empty): `out` is only for a full back row"
    );
    s.put(id("ba"), sq("c8"));
    s.put(id("bb"), sq("e8"));
    Kit::ok(&mut s, "c4-c3 S>out");
    assert_eq!(s.at(sq("c3")), [Some(id("re")), None]);
    assert_eq!(s.piece(id("rc")).at, None);
    assert_eq!(s.piece(id("bd")).at, None);
}

#[test]
fn the_piece_not_kept_goes_to_an_empty_square_of_its_own_back_row() {
    let mut s = position(BLUE, 1, "c2 bcP, c3 baR raR, b1 bb");
    assert_eq!(
        Kit::refused(&mut s.clone(), "c2-c3 R>b1"),
        "b1 is taken: the piece not kept goes to an empty square of Blue's back row"
    );
    assert_eq!(
        Kit::refused(&mut s, "c2-c3 R>b2"),
        "b2 is not on Blue's back row (row 1): the piece not kept goes back there"
    );
}

#[test]
fn a_rescue_choice_names_one_of_the_two_pieces() {
    let mut s = position(BLUE, 1, "c2 bcP, c3 baR raR");
    assert_eq!(
        Kit::refused(&mut s, "c2-c3 S>a1"),
        "neither of Blue's pieces on c3 is a Scissors: name the Paper (the rescuer) or the Rock (the piece freed)"
    );
}

#[test]
fn a_rescue_without_its_choice_is_refused() {
    let mut s = position(BLUE, 1, "c2 bcP, c3 baR raR");
    assert_eq!(
        Kit::refused(&mut s, "c2-c3"),
        "this move frees Blue's Rock on c3: say which of the two stays and where the other goes, e.g. `P>a1`"
    );
}

#[test]
fn any_other_piece_entering_a_stalemate_is_lost() {
    let mut s = position(BLUE, 1, "c2 bc, c3 baR raR, h8 rh");
    Kit::ok(&mut s, "c2-c3");
    open(&mut s, "bc", "S").unwrap();
    assert_eq!(s.piece(id("bc")).at, None);
    assert!(s.is_stalemate(sq("c3")));
    assert_eq!(
        G::turn_comment(&s, &s),
        "Blue's Scissors entered the stalemate on c3 and is lost"
    );
    // An alike piece is lost too.
    let mut s = position(BLUE, 1, "c2 bcR, c3 baR raR, h8 rh");
    Kit::ok(&mut s, "c2-c3");
    assert_eq!(s.piece(id("bc")).at, None);
}

#[test]
fn a_rescue_choice_on_a_move_that_is_no_rescue_is_refused() {
    let mut s = position(BLUE, 1, "c2 bc, c3 baR raR");
    Kit::ok(&mut s, "c2-c3 R>c1");
    assert_eq!(
        open(&mut s, "bc", "S").unwrap_err(),
        "R>c1: this move is no rescue: only a Paper frees a Rock from a stalemate of Rocks, and the piece that entered is a Scissors"
    );
    let mut s = position(BLUE, 1, "c2 bc, c4 rd");
    assert_eq!(
        Kit::refused(&mut s, "c2-c3 R>c1"),
        "a rescue choice (R>c1) goes with a move that ends on a stalemate"
    );
}

// ---------------------------------------------------------------------
// The base

#[test]
fn a_piece_enters_the_opponents_base_from_its_back_row_with_the_exact_roll() {
    let mut s = position(BLUE, 2, "d7 bd, h8 rh");
    assert_eq!(
        Kit::refused(&mut s.clone(), "d7-d8"),
        "no path of exactly 2 steps leads from d7 to d8 through empty squares"
    );
    let start = s.clone();
    Kit::ok(&mut s, "d7-d8-base");
    assert_eq!(G::outcome(&s), Outcome::Won(BLUE));
    assert_eq!(G::summary(&s), "Blue won: a Blue piece entered Red's base");
    assert_eq!(
        G::turn_comment(&start, &s),
        "a Blue piece enters Red's base from d8: Blue wins"
    );
    // A line after the end (an audit) says nothing of the last turn.
    let mut audit = s.clone();
    G::open(&mut audit, BLUE, "d1", "R").unwrap();
    assert_eq!(G::turn_comment(&s, &audit), "");
    assert!(crate::game::position_text::<G>(&s).ends_with(" Blue:base"));
}

#[test]
fn only_a_piece_on_the_opponents_back_row_steps_into_its_base() {
    let mut s = position(BLUE, 2, "d6 bd");
    assert_eq!(
        Kit::refused(&mut s, "d6-d7-base"),
        "only a piece on Red's back row can step into its base, and d7 is not on it"
    );
}

#[test]
fn no_piece_enters_its_own_base() {
    let mut s = position(BLUE, 2, "d2 bd");
    assert_eq!(
        Kit::refused(&mut s, "d2-d1-base"),
        "Blue may not enter its own base: only Red's, beyond row 8"
    );
    let legal = Kit::legal(&position(RED, 1, "d8 rd, h1 bh"));
    assert!(!legal.iter().any(|m| m.ends_with("base")), "{legal:?}");
}

#[test]
fn the_base_ends_a_move() {
    let s = position(BLUE, 3, "d8 bd");
    let err = G::parse_action(&s, "d8-base-d8").unwrap_err();
    assert_eq!(
        err.reason,
        "a move ends in the base: nothing follows `base`"
    );
}

#[test]
fn a_winning_attacker_enters_the_base_only_on_a_later_move() {
    // The attack ends the move on d8; the base would be a further step.
    let mut s = position(BLUE, 2, "d7 bdR, d8 rdS");
    assert_eq!(
        Kit::refused(&mut s, "d7-d8-base"),
        "d8 holds Red's Scissors on d8: a move never jumps over a piece"
    );
}

// ---------------------------------------------------------------------
// Compulsory moves, passing, the end

#[test]
fn a_move_is_compulsory_even_if_it_loses_the_piece() {
    // The only move for the roll of 1 enters a stalemate it cannot break.
    let mut s = position(BLUE, 1, "a1 baS, a2 bbR rbR, b1 bcR rcR, h8 rh");
    assert_eq!(Kit::legal(&s), ["a1-a2", "a1-b1"]);
    let err = G::end_turn(&mut s).unwrap_err();
    assert_eq!(
        err.reason,
        "Blue must move: a move is compulsory, and the roll of 1 can be used (e.g. a1-a2)"
    );
}

#[test]
fn a_turn_passes_when_no_piece_can_use_the_roll() {
    // Blue's one free piece on a1 touches two stalemates only: a roll of
    // 6 cannot pass through them.
    let mut s = position(BLUE, 6, "a1 ba, a2 bbR rbR, b1 rcP bcP, h8 rh");
    assert!(Kit::legal(&s).is_empty());
    Kit::end(&mut s);
    assert_eq!(G::to_move(&s), RED);
    assert_eq!(G::turn_comment(&s, &s), "no piece could use the roll");
}

#[test]
fn a_side_with_no_free_piece_loses_at_the_start_of_its_turn() {
    // Red's only piece is locked; after Blue's move Red has no free piece.
    let mut s = position(BLUE, 1, "e1 be, c3 baR raR");
    Kit::ok(&mut s, "e1-e2");
    Kit::end(&mut s);
    assert_eq!(G::outcome(&s), Outcome::Won(BLUE));
    assert_eq!(s.end, End::NoFreePiece(RED));
    assert_eq!(
        G::summary(&s),
        "Blue won: every Red piece is locked in a stalemate"
    );
}

#[test]
fn a_side_with_no_pieces_loses() {
    let mut s = position(BLUE, 1, "c2 bcS, c3 rdP");
    Kit::ok(&mut s, "c2-c3");
    Kit::end(&mut s);
    assert_eq!(G::outcome(&s), Outcome::Won(BLUE));
    assert_eq!(G::summary(&s), "Blue won: Red has no pieces left");
    assert!(crate::game::position_text::<G>(&s).ends_with(" Red - Blue:no-free-piece"));
}

#[test]
fn a_free_piece_can_always_make_a_one_step_move() {
    // A free piece is stopped only by its own free pieces and the edges
    // (an empty square, an enemy and a stalemate can all be stepped
    // onto), so the rules' "no free piece able to make a one-step move"
    // never arises: even a corner piece hemmed in by its own has a way.
    let s = position(
        BLUE,
        1,
        "a1 ba, a2 bb, b1 bc, a3 bdR rdR, b2 beP reP, c1 bfS rfS",
    );
    assert_eq!(Kit::legal(&s), ["b1-b2", "b1-c1", "a2-a3", "a2-b2"]);
}

#[test]
fn neither_side_with_a_free_piece_is_a_draw() {
    let mut s = position(BLUE, 1, "c2 bcR, c3 rd, e5 baP raP");
    Kit::ok(&mut s, "c2-c3");
    Kit::end(&mut s);
    G::begin_turn(&mut s, &mut Die(4)).unwrap();
    open(&mut s, "rd", "R").unwrap();
    assert_eq!(G::outcome(&s), Outcome::Draw);
    assert_eq!(G::summary(&s), "draw: neither side has a free piece");
}

#[test]
fn a_battle_decided_at_the_defenders_line_start_is_followed_by_its_start_check() {
    // Red's last free piece loses the battle on its own line: Red loses
    // before it moves.
    let mut s = position(BLUE, 1, "c2 bcR, c3 rd, f5 beS reS");
    Kit::ok(&mut s, "c2-c3");
    Kit::end(&mut s);
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
    G::begin_turn(&mut s, &mut Die(2)).unwrap();
    open(&mut s, "rd", "S").unwrap();
    assert_eq!(G::outcome(&s), Outcome::Won(BLUE));
    assert_eq!(s.end, End::NoFreePiece(RED));
}

#[test]
fn resigning_hands_the_game_to_the_other_side() {
    let mut s = position(BLUE, 1, "c1 bc");
    G::resign(&mut s, BLUE);
    assert_eq!(G::outcome(&s), Outcome::Won(RED));
    assert_eq!(G::summary(&s), "Red won: Blue resigned");
}

// ---------------------------------------------------------------------
// Views, diagrams, notation, positions

#[test]
fn a_players_view_adds_its_own_identities_and_nothing_else() {
    let s = new_game();
    let values = [("a1", "R"), ("b1", "P"), ("a8", "S"), ("t1", "S")];
    let seen = G::view(&s, BLUE, &values);
    assert_eq!(seen.piece(id("ba")).kind, Some(Kind::Rock));
    assert_eq!(seen.piece(id("bb")).kind, Some(Kind::Paper));
    assert!(!seen.piece(id("ba")).public);
    // Red's a8 is not Blue's to know, whatever the list says.
    assert_eq!(seen.piece(id("ra")).kind, None);
    let diagram = G::diagram(&seen, DiagramStyle::default());
    assert!(diagram.contains("  1  Br    Bp    B?"), "{diagram}");
    assert!(!G::diagram(&s, DiagramStyle::default()).contains("Br"));
    // The position stays the public one.
    assert_eq!(
        crate::game::position_text::<G>(&seen),
        crate::game::position_text::<G>(&s)
    );
}

#[test]
fn in_its_owners_view_a_rescue_is_listed_once_per_choice() {
    // Blue's Paper on c2 (known only to Blue) can rescue Blue's Rock on
    // c3; Blue's back row has room on a1..j1 except b1; after the move c1
    // stays empty too.
    let s = position(
        BLUE,
        1,
        "c2 bcp, c3 baR raR, b1 bb, d1 bd, e1 be, f1 bf, g1 bg, h1 bh, i1 bi, j1 bj",
    );
    let legal = Kit::legal(&s);
    let rescues: Vec<&String> = legal.iter().filter(|m| m.starts_with("c2-c3")).collect();
    assert_eq!(
        rescues,
        ["c2-c3 P>a1", "c2-c3 P>c1", "c2-c3 R>a1", "c2-c3 R>c1"]
    );
    // Without the view the move onto the stalemate is listed bare.
    let public = position(BLUE, 1, "c2 bc, c3 baR raR");
    assert!(Kit::legal(&public).contains(&"c2-c3".to_string()));
}

#[test]
fn the_diagram_marks_stalemates_and_waiting_battles_within_78_columns() {
    let mut s = position(BLUE, 1, "c2 bcR, c3 rd, e5 baP raP");
    Kit::ok(&mut s, "c2-c3");
    Kit::end(&mut s);
    let d = G::diagram(&s, DiagramStyle::default());
    assert!(d.contains("  3  .     .     BR>R? "), "{d}");
    assert!(d.contains("  5  .     .     .     .     BP=RP "), "{d}");
    assert!(d.lines().all(|l| l.chars().count() <= 78), "{d}");
    assert!(d.ends_with("Red to move; the battle on c3 waits for Red's identity\n"));
}

#[test]
fn moves_round_trip_through_their_canonical_text() {
    let s = position(BLUE, 3, "c1 bc, d6 bd");
    for text in [
        "c1-c2-c3-c4",
        "d6-d7-d8-base",
        "c1-c2-c3-d3 R>out",
        "c1-d1-e1-f1 S>a1",
    ] {
        let mv = G::parse_action(&s, text).unwrap();
        assert_eq!(action_text::<G>(&mv), text);
    }
    let mv = G::parse_action(&s, "C1 - c2 -C3-c4 ").unwrap();
    assert_eq!(action_text::<G>(&mv), "c1-c2-c3-c4");
    let mv = G::parse_action(&s, "d6-D7-d8-BASE").unwrap();
    assert_eq!(mv.to(), Spot::Base(RED));
}

#[test]
fn notation_errors_point_at_the_text_with_a_reason() {
    let s = position(BLUE, 3, "c1 bc");
    let err = |text: &str| {
        let e = G::parse_action(&s, text).unwrap_err();
        (e.offset, e.len, e.reason)
    };
    assert_eq!(
        err("c9-c8"),
        (0, 2, "c9 is not a square: rows run from 1 to 8".into())
    );
    assert_eq!(
        err("c1"),
        (1, 1, "expected `-` and the next square of the path".into())
    );
    assert_eq!(
        err("c1-c2-c3-c4-c5-c6-c7-c8"),
        (
            20,
            3,
            "a move has at most 6 steps, the die's highest face".into()
        )
    );
    assert_eq!(
        err("c1-c2 X>a1").2,
        "expected a rescue choice such as S>f1: the identity of the piece that leaves the square (R, P or S), `>`, and its back-row square (or `out`)"
    );
    assert_eq!(
        err("c1-c2 R-a1").2,
        "expected `>` and the back-row square (or `out`) for the piece that leaves"
    );
    assert_eq!(err("c1-c2 R>a1 x").2, "nothing follows the rescue choice");
    assert!(err("k1-k2").2.starts_with("expected a move"));
}

#[test]
fn positions_round_trip_and_bad_ones_say_why() {
    let text = "rarb8/10/10/3(rdRbcR)6/10/2(bdrc)7/10/ba9 Blue c3 *";
    // c3: Blue's d1 piece defends, Red's c8 piece attacked (not opened):
    // a battle waits between turns only for the defender, so this is bad.
    let err = G::parse_position(text).unwrap_err();
    assert!(
        err.reason.contains("waits only for the defender"),
        "{}",
        err.reason
    );
    // Once the game has ended (here a resignation) the audit may have
    // opened both pieces of a battle that was never decided.
    let ended = "rarb8/10/10/10/10/10/2(bdPrcP)7/ba9 Blue c2 Red:resignation";
    let s = G::parse_position(ended).unwrap();
    assert_eq!(crate::game::position_text::<G>(&s), ended);
    let err = G::parse_position("rarb8/10/10/10/10/10/2(bdPrcP)7/ba9 Blue c2 *").unwrap_err();
    assert_eq!(
        err.reason,
        "the defender on c2 is opened: the battle would have been decided then"
    );
    let good = "rarb8/10/10/3(rdRbcR)6/10/2(bdrcP)7/10/ba9 Blue c3 *";
    let s = G::parse_position(good).unwrap();
    assert_eq!(crate::game::position_text::<G>(&s), good);
    assert_eq!(
        s.battle.map(|b| (b.defender, b.attacker)),
        Some((id("bd"), id("rc")))
    );
    assert_eq!(
        G::parse_position("10/10/10/10/10/10/10 Blue - *")
            .unwrap_err()
            .reason,
        "the board has 8 rows separated by `/`, row 8 first: this has 7"
    );
    assert_eq!(
        G::parse_position("ba9/10/10/10/10/10/10/ba9 Blue - *")
            .unwrap_err()
            .reason,
        "the piece that started on a1 stands twice on the board"
    );
    assert_eq!(
        G::parse_position("10/10/10/10/10/10/10/(babbR)9 Blue - *")
            .unwrap_err()
            .reason,
        "a1 holds two Blue pieces"
    );
    assert!(G::parse_position("10/10/10/10/10/10/10/(bbRrbP)9 Blue - *")
        .unwrap_err()
        .reason
        .contains("a stalemate's are opened and alike"));
    assert_eq!(
        G::parse_position("10/10/10/10/10/10/10/11 Blue - *")
            .unwrap_err()
            .reason,
        "row 1 has 10 squares: this count runs past column j"
    );
    assert_eq!(
        G::parse_position("10/10/10/10/10/10/10/10 Blue - Blue:won").unwrap_err().reason,
        "the result is `*`, a winner and how (Blue:base, Blue:resignation, Blue:no-free-piece) or draw:no-free-piece"
    );
}

/// Every text of up to three characters from the slots' letters and
/// digits (and a few others).
fn slot_texts() -> Vec<String> {
    let chars: Vec<char> = "at1j80T2kA9é".chars().collect();
    let mut out = vec![String::new()];
    for len in 1..=3 {
        let mut counters = vec![0; len];
        loop {
            out.push(counters.iter().map(|&i| chars[i]).collect());
            let Some(k) = counters.iter().rposition(|&i| i + 1 < chars.len()) else {
                break;
            };
            counters[k] += 1;
            counters[k + 1..].fill(0);
        }
    }
    out
}

/// A slot names a piece or a throw, read byte by byte, exactly when
/// it is one of the slot names (the lookup in the lists it replaces).
#[test]
fn slots_are_read_as_the_slot_lists_name_them() {
    let (mut pieces, mut throws) = (0, 0);
    let mut all = slot_texts();
    all.extend(ALL_SLOTS.concat().iter().map(|s| s.to_string()));
    for text in &all {
        for side in [BLUE, RED] {
            let listed = ARMY_SLOTS[usize::from(side.0)]
                .iter()
                .position(|s| s == text)
                .map(|i| PieceId::new(side, i as u8));
            assert_eq!(piece_of(side, text), listed, "{text}");
            pieces += usize::from(listed.is_some());
        }
        let listed = THROW_SLOTS.iter().position(|s| s == text);
        assert_eq!(throw_of(text), listed, "{text}");
        throws += usize::from(listed.is_some());
    }
    assert!(pieces >= 2 * 10 && throws >= 12, "{pieces} {throws}");
    assert_eq!(piece_of(Side(2), "a1"), None);
}
