//! Tests of Misery Run (docs/games/battlegates.md section 10, "Misery Run"), one
//! per rule and per refusal reason. Positions are written in the
//! position notation with the word `misery-run` in front: each side
//! lists its ten characters, the army at its castle first (South: `b1`
//! Crusader, `d1` Archer, `e1` Gatekeeper, `f1` Archer, `h1` Crusader,
//! then the same from `b12`; North from `b25`, then from `b14`). Squares
//! and posts are worked out by hand: a post is `(x, y)` with `x` the
//! column line (0 = a's west side) and `y` the row line (0 = row 1's
//! south side); the Run is row 13, between the post rows 12 and 13.

use crate::game::{DiagramStyle, Game, Outcome, Side};
use crate::games::battlegates::geometry::board::{Loc, Sq, NORTH, SOUTH};
use crate::games::battlegates::geometry::layouts::{Layout, MISERY_RUN};
use crate::games::battlegates::mazes::maze::parse_piece;
use crate::games::battlegates::one_board::state::Id;
use crate::games::battlegates::*;
use crate::games::testkit::{self, Fixed};

type G = Battlegates;
type Kit = testkit::Kit<G>;

/// A Misery Run position: characters, maze (`-` for none, in any
/// order), the side to move and the cards (`r/-/-`).
fn run_pos(chars: &str, maze: &str, to_move: &str, cards: &str) -> State {
    let mut pieces: Vec<&str> = maze.split(',').collect();
    pieces.sort();
    let text = format!(
        "misery-run {chars} {} {to_move} {cards} 0/0 *",
        pieces.join(",")
    );
    match G::parse_position(&text) {
        Ok(s) => s,
        Err(e) => panic!("{text}: {}", e.reason),
    }
}

/// Begin the turn with the die showing 1 (the card drawn: a scale, the
/// first of the deck).
fn begin_1(s: &mut State) {
    G::begin_turn(s, &mut Fixed(vec![0, 0])).expect("begin_turn");
}

fn position_text(s: &State) -> String {
    crate::game::position_text::<G>(s)
}

fn sq(text: &str) -> Sq {
    board::read_sq(&MISERY_RUN, text).expect("a square").0
}

fn who(s: &State, square: &str) -> Option<String> {
    s.board.on(sq(square)).map(Id::name)
}

fn check(side: Side, pieces: &str) -> Result<(), String> {
    let pieces: Vec<_> = pieces
        .split(' ')
        .map(|t| parse_piece(&MISERY_RUN, t).expect("a piece"))
        .collect();
    setup::check_maze(&MISERY_RUN, side, &pieces)
}

/// A South maze of twenty pieces, every post on rows 1 to 12 and off
/// the line between rows 12 and 13.
const SOUTH_20: &str = "Wa2n Wb3n Wc4n Wd5n We6n Wf7n Wg8n Wh9n \
                        Gb5nw Gd2nw Gf3nw Gh4nw Gb8nw Gd9nw \
                        Lb10nw Le10nw Lb11nw Le11nw Lg2nw Lg5nw";

/// Its mirror on North's board (row r to row 26 - r, each edge `n` on
/// row r becoming `n` on row 25 - r).
const NORTH_20: &str = "Wa23n Wb22n Wc21n Wd20n We19n Wf18n Wg17n Wh16n \
                        Gb20nw Gd23nw Gf22nw Gh21nw Gb17nw Gd16nw \
                        Lb15nw Le15nw Lb14nw Le14nw Lg23nw Lg20nw";

// ---------------------------------------------------------------------
// The set-up

#[test]
fn misery_run_sets_up_twenty_pieces_in_twenty_slots() {
    let slots = setup::slots(Layout::MiseryRun);
    assert_eq!(slots.len(), 20);
    let values = setup::read_maze(&MISERY_RUN, slots, SOUTH_20).unwrap();
    // Each kind in maze order: walls w1-w8, Gates g1-g6, Long gates
    // l1-l6.
    assert_eq!(values[0], ("w1", "Wa2n".to_string()));
    assert_eq!(values[7], ("w8", "Wh9n".to_string()));
    assert_eq!(values[8], ("g1", "Gb5nw".to_string()));
    assert_eq!(values[13], ("g6", "Gh4nw".to_string()));
    assert_eq!(values[14], ("l1", "Lb10nw".to_string()));
    assert_eq!(values[19], ("l6", "Lg5nw".to_string()));
    assert_eq!(check(SOUTH, SOUTH_20), Ok(()));
    assert_eq!(check(NORTH, NORTH_20), Ok(()));
    // The one-board maze of ten is refused, naming the counts.
    let e = setup::read_maze(
        &MISERY_RUN,
        slots,
        "Wa2n Wb3n Wc4n Wd5n Gb5nw Gd2nw Gf3nw Lb10nw Le10nw Lb11nw",
    )
    .unwrap_err();
    assert_eq!(
        e,
        "a maze is 8 Brick walls (W), 6 Gates (G) and 6 Long gates (L): this has 4 Brick walls"
    );
    // A random maze has twenty pieces that keep the set-up rules.
    let mut x = 7usize;
    let mut pick = |n: usize| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % n
    };
    for side in [SOUTH, NORTH] {
        let values = setup::random_maze(&MISERY_RUN, side, slots, &mut pick);
        assert_eq!(values.len(), 20);
        let text: Vec<&str> = values.iter().map(|(_, v)| v.as_str()).collect();
        assert_eq!(check(side, &text.join(" ")), Ok(()));
    }
}

#[test]
fn no_set_up_piece_touches_a_post_on_either_long_edge_of_the_run() {
    // Wd12n lies between d12 and d13: its posts (3, 12) and (4, 12) are
    // on the line between rows 12 and 13.
    assert_eq!(
        check(SOUTH, "Wd12n"),
        Err(
            "the Brick wall Wd12n touches c12ne on the edge of the Misery Run between rows 12 and 13: nothing may touch it in the set-up"
                .into()
        )
    );
    // Gd12en lies between d12 and e12, hinged at its north end (4, 12).
    assert_eq!(
        check(SOUTH, "Gd12en"),
        Err(
            "the Gate Gd12en touches d12ne on the edge of the Misery Run between rows 12 and 13: nothing may touch it in the set-up"
                .into()
        )
    );
    // Wd14e lies between d14 and e14: its south post (4, 13) is on the
    // line between rows 13 and 14.
    assert_eq!(
        check(NORTH, "Wd14e"),
        Err(
            "the Brick wall Wd14e touches d13ne on the edge of the Misery Run between rows 13 and 14: nothing may touch it in the set-up"
                .into()
        )
    );
    // Off those lines, a piece may stand next to them, on either board.
    assert_eq!(check(SOUTH, "Wd11n Gd11ws"), Ok(()));
    assert_eq!(check(NORTH, "Wd14n Ld15ws"), Ok(()));
}

#[test]
fn the_one_board_middle_line_rule_does_not_hold_in_misery_run() {
    // Wd6n touches the posts between rows 6 and 7: the one-board middle
    // line, an ordinary line of South's board here.
    assert_eq!(check(SOUTH, "Wd6n Ge7nw"), Ok(()));
    let one = [parse_piece(&layouts::ONE_BOARD, "Wd6n").unwrap()];
    assert!(setup::check_maze(&layouts::ONE_BOARD, SOUTH, &one)
        .unwrap_err()
        .contains("on the middle line between rows 6 and 7"));
    // Each side keeps to its own board.
    assert_eq!(
        check(SOUTH, "Wd14n"),
        Err("the Brick wall Wd14n touches c14ne, outside South's board (rows 1 to 12)".into())
    );
    assert_eq!(
        check(NORTH, "Wd11n"),
        Err("the Brick wall Wd11n touches c11ne, outside North's board (rows 14 to 25)".into())
    );
}

#[test]
fn a_misery_run_maze_opens_twenty_pieces_a_side_and_play_begins() {
    let mut s = State::new(Layout::MiseryRun);
    assert_eq!(G::hidden_slots(&s, SOUTH).len(), 20);
    let slots = setup::slots(Layout::MiseryRun);
    for (side, text) in [(SOUTH, SOUTH_20), (NORTH, NORTH_20)] {
        let values = G::read_choice(&s, side, "maze", text).unwrap();
        for (slot, v) in &values {
            G::open(&mut s, side, slot, v).unwrap();
        }
        assert_eq!(values.len(), slots.len());
    }
    assert_eq!(s.board.pieces().len(), 40);
    // South rolls 4, North 1: South moves first and deals.
    G::begin_play(&mut s, &mut Fixed(vec![5, 0])).unwrap();
    assert!(s.started);
    assert_eq!(s.to_move, SOUTH);
    assert_eq!((s.cards.held(SOUTH), s.cards.held(NORTH)), (3, 3));
    // Both armies of each side stand on their portals.
    assert_eq!(who(&s, "h12").as_deref(), Some("South's Crusader"));
    assert_eq!(who(&s, "e14").as_deref(), Some("North's Gatekeeper"));
    assert_eq!(s.board.alive(NORTH).count(), 10);
}

#[test]
fn a_misery_run_maze_that_breaks_the_run_rule_loses_before_turn_1() {
    let mut s = State::new(Layout::MiseryRun);
    let bad = SOUTH_20.replace("Wh9n", "Wh12n");
    for (side, text) in [(SOUTH, bad.as_str()), (NORTH, NORTH_20)] {
        for (slot, v) in &G::read_choice(&s, side, "maze", text).unwrap() {
            G::open(&mut s, side, slot, v).unwrap();
        }
    }
    let values = G::read_choice(&s, SOUTH, "maze", &bad).unwrap();
    let v: Vec<(&str, &str)> = values.iter().map(|(a, b)| (*a, b.as_str())).collect();
    assert_eq!(
        G::audit(&s, SOUTH, &v).unwrap_err().reason,
        "the Brick wall Wh12n touches g12ne on the edge of the Misery Run between rows 12 and 13: nothing may touch it in the set-up"
    );
    G::begin_play(&mut s, &mut Fixed(vec![])).unwrap();
    assert_eq!(G::outcome(&s), Outcome::Won(NORTH));
    assert_eq!(s.board.pieces().len(), 20, "South's maze stays off");
}

// ---------------------------------------------------------------------
// Cards

#[test]
fn no_card_moves_a_wall_or_gate_to_touch_a_post_of_the_run() {
    let mut s = run_pos(
        "b1,x,x,x,x,x,x,x,x,x/b25,x,x,x,x,x,x,x,x,x",
        "Wd4n,Gb4nw",
        "South",
        "wg/-/-",
    );
    begin_1(&mut s);
    let mut t = s.clone();
    // d12n is between d12 and d13: its west post (3, 12) is c12ne.
    assert_eq!(
        Kit::refused(&mut t, "move-wall Wd4n Wd12n"),
        "Wd12n would touch c12ne on the edge of the Misery Run: in Misery Run no card moves \
         a wall or gate there"
    );
    // d13n: the line between rows 13 and 14.
    assert_eq!(
        Kit::refused(&mut t, "move-wall Wd4n Wd13n"),
        "Wd13n would touch c13ne on the edge of the Misery Run: in Misery Run no card moves \
         a wall or gate there"
    );
    // d12e, between d12 and e12, reaches up to (4, 12), d12ne.
    assert_eq!(
        Kit::refused(&mut t, "move-wall Wd4n Wd12e"),
        "Wd12e would touch d12ne on the edge of the Misery Run: in Misery Run no card moves \
         a wall or gate there"
    );
    // A Gate hinged at (1, 13), a13ne, lying east on b13n.
    assert_eq!(
        Kit::refused(&mut t, "move-gate Gb4nw Gb13nw"),
        "Gb13nw would touch a13ne on the edge of the Misery Run: in Misery Run no card moves \
         a wall or gate there"
    );
    // A Gate hinged at (2, 11), lying north on c12w up to (2, 12).
    assert_eq!(
        Kit::refused(&mut t, "move-gate Gb4nw Gb12es"),
        "Gb12es would touch b12ne on the edge of the Misery Run: in Misery Run no card moves \
         a wall or gate there"
    );
    // Next to the Run, off its posts, a card may place them.
    let mut w = s.clone();
    Kit::ok(&mut w, "move-wall Wd4n Wd11n");
    Kit::ok(&mut s, "move-gate Gb4nw Gb14nw");
    assert!(position_text(&s).contains("Gb14nw"));
}

#[test]
fn gates_may_swing_across_the_run() {
    // Ld11ne: hinged at (4, 11), lying west over d11n and c11n. A
    // quarter turn clockwise brings it north over d12e and d13e, across
    // the Run up to the post (4, 13).
    let mut s = run_pos(
        "b1,x,x,x,x,x,x,x,x,x/b25,x,x,x,x,x,x,x,x,x",
        "Ld11ne",
        "South",
        "r/-/-",
    );
    begin_1(&mut s);
    Kit::ok(&mut s, "rotate90 Ld11ne cw");
    assert_eq!(position_text(&s).split(' ').nth(2), Some("Ld12es"));
}

#[test]
fn an_opponents_card_turn_carrying_a_character_onto_the_run_kills_it_and_forfeits_the_dice_phase() {
    // North turns Ld11ne clockwise: its sweep is c12 d12 c13 d13, and
    // c12 goes to e13 (the north-west quarter turns into the
    // north-east one). South's Crusader on c12 lands on the Run.
    let mut s = run_pos(
        "b1,x,x,x,x,c12,x,x,x,x/b25,x,x,x,x,x,x,x,x,x",
        "Ld11ne",
        "North",
        "-/r/-",
    );
    begin_1(&mut s);
    Kit::ok(&mut s, "rotate90 Ld11ne cw");
    assert_eq!(s.board.loc(Id::new(SOUTH, 5)), None);
    assert_eq!(who(&s, "e13"), None);
    assert!(
        s.log.iter().any(|l| l
            == "carried into the Misery Run, South's Crusader on e13 died (the dice phase is \
                forfeited)"),
        "{:?}",
        s.log
    );
    assert_eq!(s.points, [0; 6], "no point: not a Scale or a Climb");
    // The dice phase is forfeited: no run, nothing legal, the turn ends.
    assert_eq!(
        Kit::refused(&mut s, "b25-b24"),
        "the dice phase is forfeited: the card's kill ended it"
    );
    assert!(Kit::legal(&s).is_empty());
    Kit::end(&mut s);
    assert_eq!(s.to_move, SOUTH);
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
}

#[test]
fn an_own_card_turn_carrying_onto_the_run_kills_only_at_the_turn_end() {
    // The same turn, made by South: its Crusader is carried to e13 and
    // lives on; the dice phase is South's.
    let start = run_pos(
        "b1,x,x,x,x,c12,x,x,x,x/b25,x,x,x,x,x,x,x,x,x",
        "Ld11ne",
        "South",
        "r/-/-",
    );
    let mut s = start.clone();
    begin_1(&mut s);
    Kit::ok(&mut s, "rotate90 Ld11ne cw");
    assert_eq!(who(&s, "e13").as_deref(), Some("South's Crusader"));
    assert!(!s.dice.forfeited);
    // It steps off the Run (across e12n, open) and lives.
    let mut off = s.clone();
    Kit::ok(&mut off, "e13-e12");
    Kit::end(&mut off);
    assert_eq!(who(&off, "e12").as_deref(), Some("South's Crusader"));
    // The roll spent elsewhere, it is still on the Run when the turn
    // ends, and dies.
    Kit::ok(&mut s, "b1-b2");
    Kit::end(&mut s);
    assert_eq!(s.board.loc(Id::new(SOUTH, 5)), None);
    assert!(
        s.log
            .iter()
            .any(|l| l == "the turn ended with South's Crusader on e13 in the Misery Run: it died"),
        "{:?}",
        s.log
    );
}

#[test]
fn a_half_turn_is_judged_once_after_the_whole_action() {
    // North turns Ld11ne twice clockwise. The first quarter carries
    // South's Crusader from c12 to e13, on the Run; the second (the
    // gate from north to east, sweeping e12 f12 e13 f13) carries it on
    // from e13 to f11. It ends off the Run: it lives, and North keeps
    // its dice phase.
    let mut s = run_pos(
        "b1,x,x,x,x,c12,x,x,x,x/b25,x,x,x,x,x,x,x,x,x",
        "Ld11ne",
        "North",
        "-/t/-",
    );
    begin_1(&mut s);
    Kit::ok(&mut s, "rotate180 Ld11ne cw");
    assert_eq!(position_text(&s).split(' ').nth(2), Some("Le11nw"));
    assert_eq!(who(&s, "f11").as_deref(), Some("South's Crusader"));
    assert!(!s.dice.forfeited);
    Kit::ok(&mut s, "b25-b24");
}

#[test]
fn a_push_carrying_onto_the_run_kills_only_at_the_turn_end() {
    // Two Gates on the post (4, 12), d12ne: Ge12nw lies east on e12n,
    // Gd12en south on d12e. South's Crusader on e13 steps south across
    // e12n, pushing both clockwise: Ge12nw sweeps e12 (empty) and
    // Gd12en sweeps d12, carrying North's Crusader to d13, on the Run.
    let mut s = run_pos(
        "b1,x,x,x,x,x,x,x,x,e13/b25,x,x,x,x,d12,x,x,x,x",
        "Ge12nw,Gd12en",
        "South",
        "r/-/-",
    );
    begin_1(&mut s);
    Kit::ok(&mut s, "discard rotate90");
    Kit::ok(&mut s, "e13-e12");
    assert_eq!(who(&s, "d13").as_deref(), Some("North's Crusader"));
    assert_eq!(who(&s, "e12").as_deref(), Some("South's Crusader"));
    Kit::end(&mut s);
    assert_eq!(who(&s, "d13"), None);
    assert_eq!(s.board.loc(Id::new(NORTH, 5)), None);
    assert_eq!(who(&s, "e12").as_deref(), Some("South's Crusader"));
}

// ---------------------------------------------------------------------
// The end of a turn, the end of the game

#[test]
fn a_character_on_the_run_when_any_turn_ends_dies() {
    // South's Crusader on c13 and North's on e13 when South's turn
    // ends: both die, North's too, though the turn is South's.
    let start = run_pos(
        "b1,x,x,x,x,x,x,x,x,c13/b25,x,x,x,x,e13,x,x,x,x",
        "-",
        "South",
        "r/-/-",
    );
    let mut s = start.clone();
    begin_1(&mut s);
    Kit::ok(&mut s, "discard rotate90");
    Kit::ok(&mut s, "b1-b2");
    Kit::end(&mut s);
    assert_eq!((who(&s, "c13"), who(&s, "e13")), (None, None));
    assert!(
        s.log.iter().any(|l| l
            == "the turn ended with South's Crusader on c13 and North's Crusader on e13 in \
                the Misery Run: they died"),
        "{:?}",
        s.log
    );
    assert_eq!((s.to_move, G::outcome(&s)), (NORTH, Outcome::Ongoing));
    assert_eq!(
        position_text(&s),
        "misery-run b2,x,x,x,x,x,x,x,x,x/b25,x,x,x,x,x,x,x,x,x - North s/-/r 0/0 *"
    );
    // Off the Run when the turn ends, a character lives.
    let mut s = start;
    begin_1(&mut s);
    Kit::ok(&mut s, "discard rotate90");
    Kit::ok(&mut s, "c13-c12");
    Kit::end(&mut s);
    assert_eq!(who(&s, "c12").as_deref(), Some("South's Crusader"));
    assert_eq!(who(&s, "e13"), None);
}

#[test]
fn a_side_whose_last_character_dies_in_the_run_loses() {
    let mut s = run_pos(
        "b1,x,x,x,x,x,x,x,x,x/x,x,x,x,x,e13,x,x,x,x",
        "-",
        "South",
        "r/-/-",
    );
    begin_1(&mut s);
    Kit::ok(&mut s, "discard rotate90");
    Kit::ok(&mut s, "b1-b2");
    Kit::end(&mut s);
    assert_eq!(G::outcome(&s), Outcome::Won(SOUTH));
    assert_eq!(G::summary(&s), "South won: North has no characters left");
    assert!(position_text(&s).ends_with(" South:no-characters"));
}

#[test]
fn both_sides_losing_their_last_characters_at_once_is_a_draw() {
    // South's last character, walled in on e13, cannot leave the Run
    // (the dice phase is void); North's last stands on c13.
    let mut s = run_pos(
        "x,x,x,x,x,e13,x,x,x,x/x,x,x,x,x,c13,x,x,x,x",
        "We13n,We12n,Wd13e,We13e",
        "South",
        "r/-/-",
    );
    begin_1(&mut s);
    Kit::ok(&mut s, "discard rotate90");
    assert_eq!(s.dice.target, Some(0));
    Kit::end(&mut s);
    assert_eq!(G::outcome(&s), Outcome::Draw);
    assert_eq!(G::summary(&s), "draw: neither side has characters left");
    assert!(position_text(&s).ends_with(" draw:no-characters"));
}

// ---------------------------------------------------------------------
// Pictures and diagrams

#[test]
fn the_misery_run_diagram_fits_80_columns_and_marks_the_run() {
    let mut s = run_pos(
        "b1,d1,e1,f1,h1,b12,d12,e12,f12,h12/b25,d25,e25,f25,h25,b14,d14,e14,f14,c13",
        "Ld11ne,We13n",
        "South",
        "r/-/-",
    );
    begin_1(&mut s);
    for unicode in [false, true] {
        let d = G::diagram(&s, DiagramStyle { unicode });
        for line in d.lines() {
            assert!(line.chars().count() <= 80, "{line}");
        }
        let run = d.lines().find(|l| l.starts_with("13 ")).unwrap();
        let mark = if unicode { '≈' } else { '~' };
        // North's Crusader on c13, the Run's other squares marked.
        assert_eq!(run.matches(mark).count(), 8, "{run}");
        assert!(run.contains(" c "), "{run}");
    }
    let pic = G::picture(&s).unwrap();
    let water = pic
        .cells
        .iter()
        .filter(|c| c.ground == crate::picture::Ground::Water)
        .count();
    assert_eq!(water, 9);
    assert!(pic
        .legend
        .iter()
        .any(|l| l.contains("the Misery Run, row 13")));
}

// ---------------------------------------------------------------------
// The board and the armies

#[test]
fn misery_run_is_9_by_25_with_two_armies_a_side_on_its_boards_portals() {
    // Nine columns, twenty-five rows, the Run row 13 (row index 12).
    assert_eq!(
        (MISERY_RUN.cols, MISERY_RUN.rows, MISERY_RUN.run),
        (9, 25, Some(12))
    );
    // Each army, west to east: Crusader, Archer, Gatekeeper, Archer,
    // Crusader; South's at its castle (row 1) first, then on row 12;
    // North's at its castle (row 25) first, then on row 14.
    let s = State::new(Layout::MiseryRun);
    let army = ["Crusader", "Archer", "Gatekeeper", "Archer", "Crusader"];
    for (side, name, rows) in [(SOUTH, "South", [1, 12]), (NORTH, "North", [25, 14])] {
        assert_eq!(s.board.alive(side).count(), 10);
        for (a, row) in rows.into_iter().enumerate() {
            for (k, col) in ["b", "d", "e", "f", "h"].into_iter().enumerate() {
                let square = format!("{col}{row}");
                assert_eq!(
                    who(&s, &square),
                    Some(format!("{name}'s {}", army[k])),
                    "{square}"
                );
                assert_eq!(
                    s.board.loc(Id::new(side, 5 * a + k)),
                    Some(Loc::Sq(sq(&square)))
                );
            }
        }
    }
    // Nobody stands on the Run.
    for col in ["a", "b", "c", "d", "e", "f", "g", "h", "i"] {
        assert_eq!(who(&s, &format!("{col}13")), None);
    }
}

#[test]
fn a_gatekeepers_immunity_covers_both_of_its_sides_gatekeepers() {
    // South turns Ge14nw (hinged on d14ne) clockwise: its sweep is e14.
    // North's Gatekeeper there, of either army, cannot be carried.
    for north in ["x,x,e14,x,x,b25,x,x,x,x", "b25,x,x,x,x,x,x,e14,x,x"] {
        let mut s = run_pos(
            &format!("b1,x,x,x,x,x,x,x,x,x/{north}"),
            "Ge14nw",
            "South",
            "r/-/-",
        );
        begin_1(&mut s);
        assert_eq!(
            Kit::refused(&mut s, "rotate90 Ge14nw cw"),
            "the gates on d14ne cannot carry North's Gatekeeper on e14: a Gatekeeper is \
             immune to its opponent's gate turns",
            "{north}"
        );
    }
    // South's own second Gatekeeper is carried, to d14.
    let mut s = run_pos(
        "b1,x,x,x,x,x,x,e14,x,x/b25,x,x,x,x,x,x,x,x,x",
        "Ge14nw",
        "South",
        "r/-/-",
    );
    begin_1(&mut s);
    Kit::ok(&mut s, "rotate90 Ge14nw cw");
    assert_eq!(who(&s, "d14").as_deref(), Some("South's Gatekeeper"));
}
