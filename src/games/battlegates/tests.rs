//! Tests, one per rule of the game (docs/games/battlegates.md section 10) and per
//! rejection reason. Expected values are worked out by hand from the
//! rules. Positions are written in the position notation: South's five
//! characters then North's (Crusader, Archer, Gatekeeper, Archer,
//! Crusader; `x` killed, `KS`/`KN` in a Keep), the maze, the side to move,
//! the hands and discard pile, points, result.

use super::board::{Dir, Edge, Post, Sq};
use super::cards::Card;
use super::layouts::ONE_BOARD;
use super::state::Id;
use super::*;
use crate::game::{Chance, DiagramStyle, Game, Outcome, Setup, TEXT_WIDTH};
use crate::games::testkit;

type G = Battlegates;
type Kit = testkit::Kit<G>;

use testkit::Fixed;

/// The value drawn for a die face.
fn face(f: u8) -> u32 {
    match f {
        1 => 0,
        2 => 1,
        3 => 3,
        _ => 5,
    }
}

/// A position with South to move: characters, maze (`-` for none), the
/// hands and discard pile (`sr/-/-`).
fn pos(chars: &str, maze: &str, cards: &str) -> State {
    let mut pieces: Vec<&str> = maze.split(',').collect();
    pieces.sort();
    let maze = pieces.join(",");
    let text = format!("{chars} {maze} South {cards} 0/0 *");
    match G::parse_position(&text) {
        Ok(s) => s,
        Err(e) => panic!("{text}: {e}"),
    }
}

/// Begin the turn with the die showing `f` (the draw takes the first
/// card of the deck: a scale while one is left).
fn begin(s: &mut State, f: u8) {
    G::begin_turn(s, &mut Fixed(vec![0, face(f)])).expect("begin_turn");
}

/// A position with South to move, its turn begun with roll `f`, and
/// its card phase done (a discard).
fn dice_phase(chars: &str, maze: &str, f: u8) -> State {
    let mut s = pos(chars, maze, "r/-/-");
    begin(&mut s, f);
    Kit::ok(&mut s, "discard rotate90");
    s
}

fn at(s: &State, sq: &str) -> Option<String> {
    let (square, _) = board::read_sq(&ONE_BOARD, sq).unwrap();
    s.board.on(square).map(Id::name)
}

// ---------------------------------------------------------------------
// Coordinates and notation

#[test]
fn an_edge_is_written_from_the_square_to_its_south_or_west() {
    let (e, _) = board::read_edge(&ONE_BOARD, "d5s").unwrap();
    assert_eq!(e.to_string(), "d4n");
    let (e, _) = board::read_edge(&ONE_BOARD, "d4w").unwrap();
    assert_eq!(e.to_string(), "c4e");
    assert_eq!(Edge::h(2, 0).to_string(), "c1s");
    assert_eq!(Edge::v(0, 3).to_string(), "a4w");
    assert_eq!(Edge::h(2, 12).to_string(), "c12n");
}

#[test]
fn a_misspelt_action_word_card_or_sense_gets_did_you_mean() {
    let s = pos("x,x,x,x,c1/x,x,x,x,c12", "Gd4nw", "-/-/-");
    let reason = |text: &str| G::parse_action(&s, text).unwrap_err().reason;
    assert_eq!(
        reason("disacrd scale"),
        "`disacrd` is no action: did you mean `discard`?"
    );
    assert_eq!(
        reason("discard scael"),
        "`scael` is no card: did you mean `scale`?"
    );
    assert_eq!(
        reason("rotate90 Gd4nw ccww"),
        "`ccww` is no sense of a turn: did you mean `ccw`?"
    );
    assert_eq!(
        reason("shot c1 n"),
        "`shot` is no action: did you mean `shoot`?"
    );
    // Nothing close: the plain error.
    assert!(reason("banana").starts_with("expected a square"));
}

#[test]
fn a_post_is_named_by_the_square_to_its_south_west_where_one_exists() {
    assert_eq!(Post { x: 4, y: 4 }.to_string(), "d4ne");
    assert_eq!(Post { x: 0, y: 4 }.to_string(), "a4nw");
    assert_eq!(Post { x: 3, y: 0 }.to_string(), "c1se");
    assert_eq!(Post { x: 0, y: 0 }.to_string(), "a1sw");
}

#[test]
fn a_gate_is_its_edge_at_the_hinge_and_the_hinge_end() {
    let p = maze::parse_piece(&ONE_BOARD, "Gd4nw").unwrap();
    let maze::Piece::Gate(g) = p else { panic!() };
    assert_eq!(
        (g.hinge, g.dir, g.long),
        (Post { x: 3, y: 4 }, Dir::E, false)
    );
    // The same gate written from the square above.
    let (q, _) = maze::read_piece(&ONE_BOARD, "gd5sw").unwrap();
    assert_eq!(q.to_string(), "Gd4nw");
    let (l, _) = maze::read_piece(&ONE_BOARD, "Le4ne").unwrap();
    let maze::Piece::Gate(l) = l else { panic!() };
    // Hinged at e4n's east end, lying west over e4n and d4n.
    assert_eq!((l.hinge, l.dir), (Post { x: 5, y: 4 }, Dir::W));
    assert_eq!(
        l.edge_list().map(|e| e.to_string()).collect::<Vec<_>>(),
        ["e4n", "d4n"]
    );
    assert!(maze::parse_piece(&ONE_BOARD, "Gd4ns")
        .unwrap_err()
        .contains("w or e"));
    assert!(maze::parse_piece(&ONE_BOARD, "Li4nw")
        .unwrap_err()
        .contains("off the board"));
}

#[test]
fn every_action_form_reads_and_writes_canonically() {
    let s = pos("c1,d1,e1,f1,h1/b12,d12,e12,f12,h12", "Gd4nw,Wd3n", "-/-/-");
    for (text, canonical) in [
        ("discard Rotate90", "discard rotate90"),
        ("discard move-wall", "discard move-wall"),
        ("scale c4 - c5", "scale c4-c5"),
        ("climb c1-k", "climb c1-K"),
        ("move-wall Wd4s Wf6e", "move-wall Wd3n Wf6e"),
        ("move-gate Gd5sw Gf6en", "move-gate Gd4nw Gf6en"),
        ("rotate90 Gd4nw cw", "rotate90 Gd4nw cw"),
        ("rotate180 Gd4nw CCW", "rotate180 Gd4nw ccw"),
        ("c1-K-g1", "c1-K-g1"),
        ("K-c1-c2", "K-c1-c2"),
        ("shoot c4 n", "shoot c4 n"),
        ("shoot K c1", "shoot K c1"),
    ] {
        let a = G::parse_action(&s, text).unwrap_or_else(|e| panic!("{text}: {}", e.reason));
        assert_eq!(crate::game::action_text::<G>(&a), canonical);
    }
    assert!(G::parse_action(&s, "c1-c2-c3-c4-c5-c6").is_err());
    assert!(G::parse_action(&s, "discard joker").is_err());
    assert!(G::parse_action(&s, "d4-K").is_err(), "d4 is no entrance");
}

#[test]
fn a_rotation_is_named_by_the_first_gate_on_its_post() {
    // Gd4nw and Gc5es are both hinged on c4ne; Gc5es comes first.
    let s = pos("x,x,x,x,c1/x,x,x,x,c12", "Gc5es,Gd4nw", "-/-/-");
    let a = G::parse_action(&s, "rotate90 Gd4nw cw").unwrap();
    assert_eq!(crate::game::action_text::<G>(&a), "rotate90 Gc5es cw");
}

// ---------------------------------------------------------------------
// Set-up

fn maze_of(text: &str) -> Result<(), String> {
    let values = setup::read_maze(&ONE_BOARD, &setup::SLOTS, text)?;
    let pieces: Vec<_> = values
        .iter()
        .map(|(_, v)| maze::parse_piece(&ONE_BOARD, v).unwrap())
        .collect();
    setup::check_maze(&ONE_BOARD, board::SOUTH, &pieces)
}

const SOUTH_MAZE: &str = "Wb2n Wd3e Wf2n Wh3n Gc1sw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw";

#[test]
fn a_maze_is_four_walls_three_gates_three_long_gates_sorted_into_slots() {
    let values = setup::read_maze(
        &ONE_BOARD,
        &setup::SLOTS,
        "Wd3e, Wb2n\nWf2n Wh3n # four walls\nGc3nw Gc1sw Ge4ne Lg4es Ld2nw Lb4nw",
    )
    .unwrap();
    assert_eq!(values[0], ("w1", "Wb2n".to_string()));
    assert_eq!(values[4], ("g1", "Gc1sw".to_string()));
    assert_eq!(values[9], ("l3", "Lg4es".to_string()));
    assert_eq!(maze_of(SOUTH_MAZE), Ok(()));
    let e = setup::read_maze(
        &ONE_BOARD,
        &setup::SLOTS,
        "Wb2n Wd3e Wf2n Gc1sw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw",
    )
    .unwrap_err();
    assert!(e.contains("this has 3 Brick walls"), "{e}");
}

#[test]
fn a_wall_or_long_gate_may_never_close_a_castle_entrance() {
    let e = maze_of("Wc1s Wd3e Wf2n Wh3n Gb2nw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw").unwrap_err();
    assert_eq!(
        e,
        "the Brick wall Wc1s: a Brick wall may never close a castle entrance"
    );
    let e = maze_of("Wb2n Wd3e Wf2n Wh3n Gb2nw Gc3nw Ge4ne Lc1sw Lg4es Lb4nw").unwrap_err();
    assert_eq!(
        e,
        "the Long gate Lc1sw: a Long gate may never close a castle entrance"
    );
}

#[test]
fn nothing_may_touch_the_middle_line_in_the_set_up() {
    let e = maze_of("Wb6e Wd3e Wf2n Wh3n Gc1sw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw").unwrap_err();
    assert!(
        e.starts_with("the Brick wall Wb6e touches b6ne on the middle line between rows 6 and 7"),
        "{e}"
    );
}

#[test]
fn a_piece_stays_in_its_own_half() {
    let e = maze_of("Wb8n Wd3e Wf2n Wh3n Gc1sw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw").unwrap_err();
    assert!(
        e.starts_with("the Brick wall Wb8n touches a8ne, outside South's half"),
        "{e}"
    );
}

#[test]
fn two_pieces_may_not_share_an_edge() {
    let e = maze_of("Wb2n Wd3e Wf2n Wh3n Gc1sw Gc3nw Gb2nw Ld2nw Lg4es Lb4nw").unwrap_err();
    assert_eq!(
        e,
        "the Brick wall Wb2n and the Gate Gb2nw both lie on b2n: one piece an edge"
    );
}

#[test]
fn only_a_gate_across_its_own_entrance_stands_on_the_perimeter() {
    let e = maze_of("Wa3w Wd3e Wf2n Wh3n Gc1sw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw").unwrap_err();
    assert!(
        e.starts_with("the Brick wall Wa3w: a3w is on the stone perimeter"),
        "{e}"
    );
}

#[test]
fn nothing_touches_the_hinge_post_of_an_entrance_gate() {
    // Gc1sw is hinged at b1se; Wb1e touches that post.
    let e = maze_of("Wb1e Wd3e Wf2n Wh3n Gc1sw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw").unwrap_err();
    assert!(
        e.starts_with("the Brick wall Wb1e touches b1se, the hinge post of the Gate Gc1sw"),
        "{e}"
    );
}

#[test]
fn a_set_up_value_is_canonical_and_of_its_slot_kind() {
    assert!(G::check_hidden("w1", "Wd4n").is_ok());
    assert!(G::check_hidden("w1", "Gd4nw")
        .unwrap_err()
        .reason
        .contains("Brick wall"));
    assert!(G::check_hidden("w1", "Wd5s")
        .unwrap_err()
        .reason
        .contains("Wd4n"));
}

#[test]
fn the_maze_opens_whole_and_is_checked_at_its_last_opening() {
    let mut s = State::start();
    let values = setup::read_maze(&ONE_BOARD, &setup::SLOTS, SOUTH_MAZE).unwrap();
    for (slot, v) in &values {
        G::open(&mut s, board::SOUTH, slot, v).unwrap();
    }
    assert_eq!(s.board.pieces().len(), 10);
    assert!(s.bad_mazes().is_empty());
    let bad = opened(board::SOUTH, BAD_SOUTH_MAZE);
    // Opening is no refusal: the maze stays off the board, its side
    // marked as breaking the set-up rules.
    assert!(bad.board.pieces().is_empty());
    assert_eq!(bad.bad_mazes(), vec![board::SOUTH]);
    let values = setup::read_maze(&ONE_BOARD, &setup::SLOTS, BAD_SOUTH_MAZE).unwrap();
    let v: Vec<(&str, &str)> = values.iter().map(|(s, v)| (*s, v.as_str())).collect();
    let e = G::audit(&bad, board::SOUTH, &v).unwrap_err();
    assert_eq!(
        e.reason,
        "the Brick wall Wc1s: a Brick wall may never close a castle entrance"
    );
}

/// A South maze with a Brick wall closing South's entrance at c1.
const BAD_SOUTH_MAZE: &str = "Wc1s Wd3e Wf2n Wh3n Gb2nw Gc3nw Ge4ne Ld2nw Lg4es Lb4nw";

/// The start position with `side`'s maze `text` opened.
fn opened(side: Side, text: &str) -> State {
    let mut s = State::start();
    for (slot, v) in &setup::read_maze(&ONE_BOARD, &setup::SLOTS, text).unwrap() {
        G::open(&mut s, side, slot, v).unwrap();
    }
    s
}

#[test]
fn a_bad_maze_loses_before_turn_1_without_an_opening_roll() {
    let mut s = opened(board::SOUTH, BAD_SOUTH_MAZE);
    for (slot, v) in &setup::read_maze(
        &ONE_BOARD,
        &setup::SLOTS,
        "Wa9n Wb9n Wh9n Wi9n Gb10ne Ge11nw Gh10nw Lb11nw Lc8nw Lf8nw",
    )
    .unwrap()
    {
        G::open(&mut s, board::NORTH, slot, v).unwrap();
    }
    G::begin_play(&mut s, &mut Fixed(vec![face(4), face(1)])).unwrap();
    assert_eq!(s.outcome, Outcome::Won(board::NORTH));
    assert!(!s.started);
    assert_eq!(s.opening, None);
    assert_eq!(s.cards.deck.total(), 34);
    assert_eq!(
        G::summary(&s),
        "North won: South's maze broke the set-up rules"
    );
    let text = {
        let mut t = String::new();
        G::write_position(&s, &mut t);
        t
    };
    assert!(text.ends_with(" - -/-/- 0/0 North:bad-maze"), "{text}");
    let back = G::parse_position(&text).unwrap();
    assert_eq!(back.outcome, Outcome::Won(board::NORTH));
}

#[test]
fn two_bad_mazes_draw_before_turn_1() {
    let mut s = opened(board::SOUTH, BAD_SOUTH_MAZE);
    // North's maze has a Brick wall on the middle line's post d6ne.
    let north = "Wd6e Wb9n Wh9n Wi9n Gb10ne Ge11nw Gh10nw Lb11nw Lc8nw Lf8nw";
    for (slot, v) in &setup::read_maze(&ONE_BOARD, &setup::SLOTS, north).unwrap() {
        G::open(&mut s, board::NORTH, slot, v).unwrap();
    }
    assert_eq!(s.bad_mazes(), vec![board::SOUTH, board::NORTH]);
    G::begin_play(&mut s, &mut Fixed(vec![])).unwrap();
    assert_eq!(s.outcome, Outcome::Draw);
    assert_eq!(G::summary(&s), "draw: both mazes broke the set-up rules");
    let text = {
        let mut t = String::new();
        G::write_position(&s, &mut t);
        t
    };
    assert!(text.ends_with(" draw:bad-maze"), "{text}");
}

#[test]
fn a_random_maze_obeys_the_set_up_rules() {
    let mut x = 7usize;
    let mut pick = |n: usize| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % n
    };
    for side in [board::SOUTH, board::NORTH] {
        let values = setup::random_maze(&ONE_BOARD, side, &setup::SLOTS, &mut pick);
        let v: Vec<(&str, &str)> = values.iter().map(|(s, v)| (*s, v.as_str())).collect();
        G::audit(&State::start(), side, &v).unwrap();
    }
}

#[test]
fn hands_are_open_or_hidden_and_the_setup_tag_names_the_set_up() {
    let sides = [Side(0), Side(1)];
    let tags = vec![("Hands".to_string(), "shown".to_string())];
    let e = G::new_game(&Setup {
        sides: &sides,
        tags: &tags,
    })
    .unwrap_err();
    assert_eq!(
        e.reason,
        "Hands \"shown\": the hands are \"open\" (every card held and drawn is public) or \
         \"hidden\" (a shared deck without a dealer)"
    );
    let tags = vec![("Hands".to_string(), "Hidden".to_string())];
    let hidden = G::new_game(&Setup {
        sides: &sides,
        tags: &tags,
    })
    .unwrap();
    assert_eq!(
        G::hidden_deck(&hidden),
        Some(crate::game::HiddenDeck { cards: 34, hand: 3 })
    );
    assert_eq!(G::hidden_deck(&State::start()), None);
    let tags = vec![("Setup".to_string(), "misery-run".to_string())];
    let run = G::new_game(&Setup {
        sides: &sides,
        tags: &tags,
    })
    .unwrap();
    assert_eq!(run.layout, super::layouts::Layout::MiseryRun);
}

#[test]
fn a_setup_word_that_names_no_set_up_is_refused_naming_the_five() {
    let sides = [Side(0), Side(1)];
    let five = "this herald plays Setup \"one-board\", \"misery-run\", \"four-castles\", \
                \"four-castles-allies\", \"four-castles-solo\"";
    for word in ["two-boards", "", "one board"] {
        let tags = vec![("Setup".to_string(), word.to_string())];
        let e = G::new_game(&Setup {
            sides: &sides,
            tags: &tags,
        })
        .unwrap_err();
        assert_eq!(
            (e.tag.as_deref(), e.reason),
            (Some("Setup"), format!("Setup \"{word}\": {five}"))
        );
    }
    // Every set-up's word is taken, in any case.
    for layout in Layout::ALL {
        let tags = vec![("Setup".to_string(), layout.tag().to_ascii_uppercase())];
        let sides: Vec<Side> = layout.geometry().side_list();
        let s = G::new_game(&Setup {
            sides: &sides,
            tags: &tags,
        })
        .unwrap_or_else(|e| panic!("{}: {}", layout.tag(), e.reason));
        assert_eq!(s.layout, layout);
    }
    // A position whose first word is no characters field and names no
    // set-up is refused with the same reason, the word marked.
    let text = " two-boards b1,d1,e1,f1,h1/b12,d12,e12,f12,h12 - - -/-/- 0/0 *";
    let e = G::parse_position(text).unwrap_err();
    assert_eq!(
        (&text[e.offset..e.offset + e.len], e.reason),
        ("two-boards", format!("Setup \"two-boards\": {five}"))
    );
}

// ---------------------------------------------------------------------
// The opening roll, the deal, the draw

#[test]
fn the_higher_opening_roll_moves_first_and_deals_three_each() {
    let mut s = State::start();
    // South 1, North 4.
    G::begin_play(&mut s, &mut Fixed(vec![face(1), face(4)])).unwrap();
    assert!(s.started);
    assert_eq!(s.to_move, board::NORTH);
    assert_eq!(s.opening, Some([1, 4]));
    assert_eq!(s.cards.hand(board::SOUTH).total(), 3);
    assert_eq!(s.cards.hand(board::NORTH).total(), 3);
    assert_eq!(s.cards.deck.total(), 28);
}

#[test]
fn a_tied_opening_roll_is_rolled_again() {
    let mut s = State::start();
    // 3 and 3, then South 4, North 2.
    G::begin_play(&mut s, &mut Fixed(vec![3, 4, 5, 1])).unwrap();
    assert_eq!(s.to_move, board::SOUTH);
    assert_eq!(s.opening, Some([4, 2]));
}

#[test]
fn a_turn_draws_a_card_and_rolls_the_die_with_faces_1_2_2_3_3_4() {
    let faces: Vec<String> = (0..6).map(|v| G::chance_text("die", v)).collect();
    assert_eq!(faces, ["1", "2", "2", "3", "3", "4"]);
    let mut s = pos("b1,d1,e1,f1,h1/b12,d12,e12,f12,h12", "-", "r/-/-");
    // Value 6 of the deck in card order: 6 scales, then the climbs.
    G::begin_turn(&mut s, &mut Fixed(vec![6, 2])).unwrap();
    assert_eq!(s.drawn, Some(Card::Climb));
    assert_eq!(s.dice.roll, Some(2));
    assert_eq!(s.cards.hand(board::SOUTH).total(), 2);
}

#[test]
fn an_empty_deck_takes_the_discard_pile_before_a_draw() {
    let mut s = pos(
        "b1,d1,e1,f1,h1/b12,d12,e12,f12,h12",
        "-",
        "sss/ccc/ssscccwwwwwgggggrrrrrrrttttt",
    );
    assert_eq!(s.cards.deck.total(), 0);
    begin(&mut s, 1);
    assert_eq!(s.drawn, Some(Card::Scale));
    assert_eq!(s.cards.hand(board::SOUTH).count(Card::Scale), 4);
    assert_eq!(s.cards.deck.total(), 27);
    assert_eq!(s.cards.discard.total(), 0);
}

// ---------------------------------------------------------------------
// The card phase

#[test]
fn the_card_phase_comes_first() {
    let mut s = pos("b1,d1,e1,f1,h1/b12,d12,e12,f12,h12", "-", "r/-/-");
    begin(&mut s, 1);
    assert!(Kit::refused(&mut s, "b1-b2").starts_with("the card phase comes first"));
    assert!(G::end_turn(&mut s.clone())
        .unwrap_err()
        .reason
        .starts_with("a turn plays or discards a card first"));
    Kit::ok(&mut s, "discard rotate90");
    assert_eq!(
        Kit::refused(&mut s, "discard scale"),
        "the card phase is over: one card is played or discarded a turn"
    );
}

#[test]
fn a_card_not_held_cannot_be_played() {
    let mut s = pos("b1,d1,e1,f1,h1/b12,d12,e12,f12,h12", "Gd4nw", "r/-/-");
    begin(&mut s, 1);
    assert_eq!(
        Kit::refused(&mut s, "move-gate Gd4nw Gf4nw"),
        "South holds no move-gate card (its hand: scale, rotate90)"
    );
}

#[test]
fn scale_crosses_a_brick_wall_and_the_dice_phase_follows() {
    let mut s = pos("c4,x,x,x,x/h12,x,x,x,x", "Wc4n", "-/-/-");
    begin(&mut s, 1);
    Kit::ok(&mut s, "scale c4-c5");
    assert_eq!(at(&s, "c5").as_deref(), Some("South's Crusader"));
    assert_eq!(s.board.pieces().len(), 1, "the wall stays");
    // The dice phase follows; c4 was occupied this turn.
    assert!(Kit::refused(&mut s, "c5-c4").contains("the Brick wall on c4n blocks"));
    Kit::ok(&mut s, "c5-c6");
    Kit::end(&mut s);
}

#[test]
fn scale_onto_an_enemy_kills_scores_a_point_and_forfeits_the_dice_phase() {
    let mut s = pos("c4,x,x,x,x/c5,x,x,x,h12", "Wc4n", "-/-/-");
    begin(&mut s, 3);
    Kit::ok(&mut s, "scale c4-c5");
    assert_eq!(at(&s, "c5").as_deref(), Some("South's Crusader"));
    assert_eq!(s.points[..2], [1, 0]);
    assert_eq!(
        Kit::refused(&mut s, "c5-c6"),
        "the dice phase is forfeited: the card's kill ended it"
    );
    assert!(Kit::legal(&s).is_empty());
    Kit::end(&mut s);
}

#[test]
fn scale_needs_a_brick_wall_and_no_own_piece_beyond() {
    let mut s = pos("c4,d4,x,x,x/h12,x,x,x,x", "Wc4n", "-/-/-");
    begin(&mut s, 1);
    assert_eq!(
        Kit::refused(&mut s, "scale c4-d4"),
        "no Brick wall lies on c4e: Scale crosses a Brick wall"
    );
    let mut t = pos("c4,x,x,x,x/h12,x,x,x,x", "Wc4n", "-/-/-");
    t.board.set(Id(1), Some(board::Loc::Sq(Sq::new(2, 4))));
    begin(&mut t, 1);
    assert_eq!(
        Kit::refused(&mut t, "scale c4-c5"),
        "c5 holds South's Archer"
    );
}

#[test]
fn climb_crosses_a_gate_without_moving_it_even_a_fixed_one() {
    // Ld4nw is fixed: the wall on c4e touches its hinge post.
    let mut s = pos("d4,x,x,x,x/h12,x,x,x,x", "Ld4nw,Wc4e", "c/-/-");
    begin(&mut s, 1);
    Kit::ok(&mut s, "climb d4-d5");
    assert_eq!(at(&s, "d5").as_deref(), Some("South's Crusader"));
    assert_eq!(
        G::write_position_text(&s).split(' ').nth(1),
        Some("Ld4nw,Wc4e")
    );
    assert_eq!(
        Kit::refused(
            &mut pos_begun("d4,x,x,x,x/h12,x,x,x,x", "Wd4n"),
            "climb d4-d5"
        ),
        "no gate lies on d4n: Climb crosses a gate"
    );
}

fn pos_begun(chars: &str, maze: &str) -> State {
    let mut s = pos(chars, maze, "c/-/-");
    begin(&mut s, 1);
    s
}

#[test]
fn climb_reaches_a_keep_across_an_entrance_gate() {
    // Own empty Keep: the climb enters it.
    let mut s = pos_begun("c1,x,x,x,x/h12,x,x,x,x", "Gc1sw");
    Kit::ok(&mut s, "climb c1-K");
    assert_eq!(s.board.loc(Id(0)), Some(board::Loc::Keep(board::SOUTH)));
    // A Keep holding an enemy: the climb kills it and forfeits the dice.
    let mut s = pos_begun("c1,x,x,x,x/KS,x,x,x,h12", "Gc1sw");
    Kit::ok(&mut s, "climb c1-K");
    assert_eq!(s.points[..2], [1, 0]);
    assert!(s.dice.forfeited);
    // A hostile empty Keep may not be entered.
    let mut s = pos_begun("c12,x,x,x,x/h12,x,x,x,x", "Gc12nw");
    assert_eq!(
        Kit::refused(&mut s, "climb c12-K"),
        "North's Keep is empty: an enemy Keep may be entered only to kill the character in it"
    );
}

/// RULINGS 6, rule 7: Scale and Climb reach a Keep only across a Gate
/// over an entrance; a Brick wall never stands there, so a Scale card
/// never enters a Keep, not even across the gate Climb would take.
#[test]
fn scale_never_reaches_a_keep() {
    let mut s = pos("c1,x,x,x,x/KS,x,x,x,h12", "Gc1sw", "s/-/-");
    begin(&mut s, 1);
    assert_eq!(
        Kit::refused(&mut s, "scale c1-K"),
        "no Brick wall lies on c1s: Scale crosses a Brick wall"
    );
    assert_eq!(at(&s, "c1").as_deref(), Some("South's Crusader"));
}

#[test]
fn move_wall_moves_a_wall_to_an_empty_interior_edge() {
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Wd4n,Gf6nw", "w/-/-");
    begin(&mut s, 1);
    let mut t = s.clone();
    assert_eq!(
        Kit::refused(&mut t, "move-wall Wd4n Wa3w"),
        "a3w is on the board's outer line: a card never places a piece there"
    );
    assert_eq!(
        Kit::refused(&mut t, "move-wall Wd4n Wd4n"),
        "Wd4n must move to another edge"
    );
    assert_eq!(
        Kit::refused(&mut t, "move-wall Wd4n Wf6n"),
        "the Gate Gf6nw is in the way"
    );
    assert_eq!(
        Kit::refused(&mut t, "move-wall Wc4n Wf5n"),
        "the Brick wall Wc4n is not on the board"
    );
    Kit::ok(&mut s, "move-wall Wd4n Wf7e");
    assert_eq!(s.board.pieces()[1].to_string(), "Wf7e");
}

#[test]
fn move_wall_may_not_touch_an_entrance_gates_hinge_post() {
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Wd4n,Gc1sw", "w/-/-");
    begin(&mut s, 1);
    assert!(Kit::refused(&mut s, "move-wall Wd4n Wb1e")
        .starts_with("the Brick wall Wb1e would touch b1se, the hinge post of the Gate Gc1sw"));
}

#[test]
fn move_gate_lifts_one_gate_and_places_it_again_of_the_same_kind() {
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Gd4nw,Gc5es,Ld7nw", "g/-/-");
    begin(&mut s, 1);
    let mut t = s.clone();
    assert!(Kit::refused(&mut t, "move-gate Ld7nw Gf4nw").contains("placed again as a Long gate"));
    assert_eq!(
        Kit::refused(&mut t, "move-gate Ld7nw Ld7nw"),
        "Ld7nw must be placed somewhere else"
    );
    assert_eq!(
        Kit::refused(&mut t, "move-gate Ld7nw Lc4nw"),
        "the Gate Gd4nw is in the way"
    );
    // The new place may overlap the old one: hinged at the other end.
    Kit::ok(&mut s, "move-gate Ld7nw Le7ne");
    assert!(G::write_position_text(&s).contains("Le7ne"));
    // The other gate on d4nw's post stayed.
    assert!(G::write_position_text(&s).contains("Gd4nw"));
}

#[test]
fn rotate90_turns_every_gate_on_the_post_and_carries_what_it_sweeps() {
    // Gd4nw lies east of c4ne; clockwise it comes to lie south, along
    // c4e, sweeping d4 and carrying its character into c4.
    let mut s = pos("d4,x,x,x,x/h12,x,x,x,x", "Gd4nw", "r/-/-");
    begin(&mut s, 1);
    Kit::ok(&mut s, "rotate90 Gd4nw cw");
    assert_eq!(G::write_position_text(&s).split(' ').nth(1), Some("Gc4en"));
    assert_eq!(at(&s, "c4").as_deref(), Some("South's Crusader"));
    assert!(
        s.log
            .iter()
            .any(|l| l.contains("South's Crusader d4 to c4")),
        "{:?}",
        s.log
    );
}

#[test]
fn rotate180_is_two_quarter_turns_each_checked() {
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Gd4nw", "t/-/-");
    begin(&mut s, 1);
    let mut t = s.clone();
    Kit::ok(&mut t, "rotate180 Gd4nw cw");
    assert_eq!(G::write_position_text(&t).split(' ').nth(1), Some("Gc4ne"));
    // The second quarter's new place (c4n) holds a wall: refused.
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Gd4nw,Wc4n", "t/-/-");
    begin(&mut s, 1);
    assert_eq!(
        Kit::refused(&mut s, "rotate180 Gd4nw cw"),
        "the Gate Gd4nw turns once cw, but not a second time: the Gate Gc4en cannot turn cw: the Brick wall Wc4n lies on its new place"
    );
}

// ---------------------------------------------------------------------
// Gate turns: every blocking case

#[test]
fn a_refused_turn_names_every_gate_on_the_post_and_the_one_that_cannot_turn() {
    // Gc5es and Gd4nw are both hinged on c4ne and turn together. Turned
    // clockwise, Gd4nw would come onto c4e, where a Brick wall lies.
    // Whichever of the two the player names, the refusal names both and
    // says which one cannot turn, and why.
    let want = "the gates hinged on c4ne turn together (the Gate Gc5es and the Gate Gd4nw), \
                and the Gate Gd4nw cannot turn cw: the Brick wall Wc4e lies on its new place";
    for named in ["Gd4nw", "Gc5es"] {
        let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Gc5es,Gd4nw,Wc4e", "r/-/-");
        begin(&mut s, 1);
        assert_eq!(Kit::refused(&mut s, &format!("rotate90 {named} cw")), want);
    }
    // Alone on its post, a gate is named once.
    assert_eq!(
        rotate_refused("Gd4nw,Wc4e", "b1,x,x,x,x/h12,x,x,x,x", "rotate90 Gd4nw cw"),
        "the Gate Gd4nw cannot turn cw: the Brick wall Wc4e lies on its new place"
    );
}

fn rotate_refused(maze: &str, chars: &str, action: &str) -> String {
    let mut s = pos(chars, maze, "r/-/-");
    begin(&mut s, 1);
    Kit::refused(&mut s, action)
}

const NOBODY: &str = "b1,x,x,x,x/h12,x,x,x,x";

#[test]
fn a_turn_is_blocked_by_a_wall_on_the_new_place() {
    assert_eq!(
        rotate_refused("Gd4nw,Wc4e", NOBODY, "rotate90 Gd4nw cw"),
        "the Gate Gd4nw cannot turn cw: the Brick wall Wc4e lies on its new place"
    );
}

#[test]
fn a_turn_is_blocked_by_another_posts_gate_on_the_new_place() {
    // Ld4nw turning cw lies along c4e and c3e; Gc3en (hinged at c3ne)
    // lies on c3e.
    assert_eq!(
        rotate_refused("Ld4nw,Gc3en", NOBODY, "rotate90 Ld4nw cw"),
        "the Long gate Ld4nw cannot turn cw: the Gate Gc3en lies on its new place"
    );
}

#[test]
fn a_long_gates_sweep_is_blocked_by_a_wall_touching_its_centre_post() {
    // Ld4nw cw sweeps d3, e3, d4, e4; the centre post is d3ne, which
    // d3n touches.
    assert_eq!(
        rotate_refused("Ld4nw,Wd3n", NOBODY, "rotate90 Ld4nw cw"),
        "the Long gate Ld4nw cannot turn cw: the sweep is blocked by the Brick wall Wd3n"
    );
}

#[test]
fn a_turn_may_not_leave_the_board() {
    // La5es lies north of a4ne along a5e; counter-clockwise it would lie
    // west, off the board.
    assert_eq!(
        rotate_refused("La5es", NOBODY, "rotate90 La5es ccw"),
        "the Long gate La5es cannot turn ccw: it would leave the board"
    );
}

#[test]
fn a_turn_may_not_place_a_gate_on_the_stone_perimeter() {
    // The entrance Gate hinged at b1se lying along b1e, turned ccw,
    // would lie along b1s: stone.
    assert_eq!(
        rotate_refused("Gb1es", NOBODY, "rotate90 Gb1es ccw"),
        "the Gate Gb1es cannot turn ccw: the stone perimeter on b1s lies on its new place"
    );
}

#[test]
fn a_carried_character_may_not_land_off_the_board() {
    // Lb4nw turning ccw sweeps b5, c5, b6, c6; c6 would go two columns
    // west of b5: off the board.
    assert_eq!(
        rotate_refused("Lb4nw", "c6,x,x,x,x/h12,x,x,x,x", "rotate90 Lb4nw ccw"),
        "the gates on a4ne would carry South's Crusader on c6 off the board"
    );
}

#[test]
fn a_carried_character_may_not_land_on_one_that_stays() {
    assert_eq!(
        rotate_refused("Gd4nw", "d4,c4,x,x,x/h12,x,x,x,x", "rotate90 Gd4nw cw"),
        "the gates on c4ne would carry South's Crusader from d4 onto c4, where South's \
         Archer stands"
    );
}

#[test]
fn a_gatekeeper_is_immune_to_its_opponents_gate_turns_only() {
    assert_eq!(
        rotate_refused("Gd4nw", "b1,x,x,x,x/x,x,d4,x,h12", "rotate90 Gd4nw cw"),
        "the gates on c4ne cannot carry North's Gatekeeper on d4: a Gatekeeper is immune to \
         its opponent's gate turns"
    );
    // South's own Gatekeeper is carried.
    let mut s = pos("b1,x,d4,x,x/h12,x,x,x,x", "Gd4nw", "r/-/-");
    begin(&mut s, 1);
    Kit::ok(&mut s, "rotate90 Gd4nw cw");
    assert_eq!(at(&s, "c4").as_deref(), Some("South's Gatekeeper"));
}

#[test]
fn gates_on_one_post_turn_together_each_sweeping_its_own_block() {
    // Gd4nw (east of c4ne) and Gc5es (north of it) turn cw together:
    // the first sweeps d4, the second d5; d5's character goes to d4 as
    // d4's goes to c4.
    let mut s = pos("d4,x,x,x,x/d5,x,x,x,h12", "Gc5es,Gd4nw", "r/-/-");
    begin(&mut s, 1);
    Kit::ok(&mut s, "rotate90 Gd4nw cw");
    assert_eq!(at(&s, "c4").as_deref(), Some("South's Crusader"));
    assert_eq!(at(&s, "d4").as_deref(), Some("North's Crusader"));
    assert_eq!(
        G::write_position_text(&s).split(' ').nth(1),
        Some("Gc4en,Gd4nw")
    );
}

#[test]
fn a_long_gate_and_its_post_are_fixed_while_a_wall_touches_the_hinge_post() {
    assert_eq!(
        rotate_refused("Ld4nw,Wc4e,Gc5es", NOBODY, "rotate90 Gc5es ccw"),
        "the gates on c4ne are fixed: the Brick wall Wc4e touches the hinge post of the \
         Long gate Ld4nw"
    );
}

#[test]
fn a_gate_hinged_on_the_perimeter_never_swings() {
    assert!(rotate_refused("Ga3nw", NOBODY, "rotate90 Ga3nw ccw")
        .starts_with("the gates on a3nw are fixed: a gate hinged on the board's outer line"));
}

#[test]
fn an_entrance_gate_swings_between_the_entrance_and_the_inward_edge() {
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Gc1sw", "r/-/-");
    begin(&mut s, 1);
    Kit::ok(&mut s, "rotate90 Gc1sw ccw");
    assert_eq!(G::write_position_text(&s).split(' ').nth(1), Some("Gb1es"));
    // Not alone on its post: fixed.
    assert!(rotate_refused("Gc1sw,Gb1es", NOBODY, "rotate90 Gb1es cw").contains("fixed"));
}

// ---------------------------------------------------------------------
// Steps, pushes, Keeps

#[test]
fn a_step_never_crosses_a_brick_wall() {
    let mut s = dice_phase("d4,x,x,x,x/h12,x,x,x,x", "Wd4n", 1);
    assert_eq!(
        Kit::refused(&mut s, "d4-d5"),
        "the Brick wall on d4n blocks the step d4-d5 (a Scale card crosses it)"
    );
}

#[test]
fn a_step_across_a_gate_pushes_it_the_way_of_the_step() {
    // Gc5es lies north of c4ne along c5e; d5-c5 pushes its free end
    // west: it turns ccw to lie west of the post, along c4n (hinged at
    // its east end), sweeping c5, the square stepped into.
    let mut s = dice_phase("d5,x,x,x,x/h12,x,x,x,x", "Gc5es", 1);
    Kit::ok(&mut s, "d5-c5");
    assert_eq!(G::write_position_text(&s).split(' ').nth(1), Some("Gc4ne"));
    assert_eq!(at(&s, "c5").as_deref(), Some("South's Crusader"));
    assert_eq!(
        s.log.last().map(String::as_str),
        Some("South's Crusader ran d5-c5, pushing Gc5es to Gc4ne")
    );
}

#[test]
fn a_push_of_a_fixed_gate_is_refused() {
    let mut s = dice_phase("d5,x,x,x,x/h12,x,x,x,x", "Ld4nw,Wc4e", 1);
    assert_eq!(
        Kit::refused(&mut s, "d5-d4"),
        "the step d5-d4 pushes the Long gate Ld4nw: the gates on c4ne are fixed: the Brick wall Wc4e touches the hinge post of the Long gate Ld4nw"
    );
}

#[test]
fn a_push_that_would_carry_the_pusher_is_refused() {
    // Pushing Gc5es from d5 to c5 turns Gd4nw too (same post), which
    // sweeps d5, where the pusher stands.
    let mut s = dice_phase("d5,x,x,x,x/h12,x,x,x,x", "Gc5es,Gd4nw", 1);
    assert_eq!(
        Kit::refused(&mut s, "d5-c5"),
        "the step d5-c5 pushes the Gate Gc5es: the turn of the gates on c4ne would carry the pusher on d5"
    );
}

#[test]
fn a_push_blocked_by_a_wall_names_the_wall() {
    // Pushing Gc5es from c5 to d5 turns it cw to lie along d4n, where a
    // wall stands.
    let mut s = dice_phase("c5,x,x,x,x/h12,x,x,x,x", "Gc5es,Wd4n", 1);
    assert_eq!(
        Kit::refused(&mut s, "c5-d5"),
        "the step c5-d5 pushes the Gate Gc5es, which cannot turn cw: the Brick wall Wd4n lies on its new place"
    );
}

#[test]
fn a_push_carrying_the_enemy_gatekeeper_is_refused() {
    // Ld4nw pushed from d5 down to d4 turns cw: it sweeps d3, e3, d4,
    // e4, where North's Gatekeeper stands on e4.
    let mut s = dice_phase("d5,x,x,x,x/x,x,e4,x,h12", "Ld4nw", 1);
    assert!(Kit::refused(&mut s, "d5-d4").contains("cannot carry North's Gatekeeper on e4"));
}

#[test]
fn no_character_enters_a_square_twice_in_a_turn() {
    let mut s = dice_phase("d4,x,x,x,x/h12,x,x,x,x", "-", 2);
    assert_eq!(
        Kit::refused(&mut s, "d4-d5-d4"),
        "South's Crusader would come back to d4, where its run starts: no character enters a square twice in a turn, the square its run starts from included"
    );
}

#[test]
fn each_character_moves_in_a_single_run() {
    let mut s = dice_phase("d4,x,x,x,x/h12,x,x,x,x", "-", 2);
    let mut s2 = dice_phase("d4,f4,x,x,x/h12,x,x,x,x", "-", 2);
    Kit::ok(&mut s2, "d4-d5");
    assert!(Kit::refused(&mut s2, "d5-d6").contains("has made its run this turn"));
    Kit::ok(&mut s, "d4-d5-d6");
    Kit::end(&mut s);
}

#[test]
fn a_ground_attack_spends_the_whole_roll_in_one_run() {
    let mut s = dice_phase("d4,x,x,x,x/d6,x,x,x,h12", "-", 2);
    Kit::ok(&mut s, "d4-d5-d6");
    assert_eq!(at(&s, "d6").as_deref(), Some("South's Crusader"));
    let mut s = dice_phase("d4,x,x,x,x/d6,x,x,x,h12", "-", 3);
    assert!(
        Kit::refused(&mut s, "d4-d5-d6").starts_with("d6 holds North's Crusader: a ground attack")
    );
    // Not after another run.
    let mut s = dice_phase("d4,a1,x,x,x/d6,x,x,x,h12", "-", 3);
    Kit::ok(&mut s, "a1-a2");
    assert!(Kit::refused(&mut s, "d4-d5-d6").starts_with("d6 holds North's Crusader"));
}

#[test]
fn the_own_keep_is_a_shortcut_holding_one_character() {
    let mut s = dice_phase("c1,x,x,x,x/h12,x,x,x,x", "-", 2);
    Kit::ok(&mut s, "c1-K-g1");
    assert_eq!(at(&s, "g1").as_deref(), Some("South's Crusader"));
    let mut s = dice_phase("c1,KS,x,x,x/h12,x,x,x,x", "-", 1);
    assert_eq!(
        Kit::refused(&mut s, "c1-K"),
        "South's Keep holds South's Archer already: a Keep holds one character"
    );
}

#[test]
fn entering_a_keep_with_an_enemy_kills_it_without_exact_roll_and_stops() {
    // South re-enters its own Keep, held by North's Crusader: 2 of the
    // roll of 4, and South's Archer spends the other 2.
    let mut s = dice_phase("c2,a5,x,x,x/KS,x,x,x,h12", "-", 4);
    assert_eq!(
        Kit::refused(&mut s.clone(), "c2-c1-K-g1"),
        "the run stops on K with the kill of North's Crusader"
    );
    Kit::ok(&mut s, "c2-c1-K");
    assert_eq!(s.board.loc(Id(0)), Some(board::Loc::Keep(board::SOUTH)));
    assert_eq!(s.board.loc(Id::new(board::NORTH, 0)), None);
    Kit::ok(&mut s, "a5-a6-a7");
    Kit::end(&mut s);
    // Alone, the kill spending 2 of 4 would not spend the most, unless
    // it wins the game.
    let mut s = dice_phase("c2,x,x,x,x/KS,x,x,x,h12", "-", 4);
    assert!(Kit::refused(&mut s, "c2-c1-K").starts_with("after this run at most 2"));
    let mut s = dice_phase("c2,x,x,x,x/KS,x,x,x,x", "-", 4);
    Kit::ok(&mut s, "c2-c1-K");
    assert_eq!(s.outcome, Outcome::Won(board::SOUTH));
    // The enemy Keep is entered only to kill.
    let mut s = dice_phase("c12,x,x,x,x/h12,x,x,x,x", "-", 1);
    assert!(Kit::refused(&mut s, "c12-K").starts_with("North's Keep is empty"));
}

#[test]
fn no_step_crosses_an_entrance_gate_into_the_keep_but_one_from_the_keep_opens_it() {
    let mut s = dice_phase("c1,x,x,x,x/h12,x,x,x,x", "Gc1sw", 1);
    assert_eq!(
        Kit::refused(&mut s, "c1-K"),
        "the Gate Gc1sw lies across the entrance c1s: no step crosses it into the Keep (a \
         Climb card does)"
    );
    let mut s = dice_phase("KS,x,x,x,x/h12,x,x,x,x", "Gc1sw", 1);
    Kit::ok(&mut s, "K-c1");
    assert_eq!(G::write_position_text(&s).split(' ').nth(1), Some("Gb1es"));
}

// ---------------------------------------------------------------------
// Arrows

#[test]
fn an_arrow_kills_the_first_enemy_within_the_roll() {
    let mut s = dice_phase("x,d4,x,x,x/d7,x,x,x,h12", "-", 3);
    Kit::ok(&mut s, "shoot d4 n");
    assert_eq!(at(&s, "d7"), None);
    Kit::end(&mut s);
    let mut s = dice_phase("x,d4,x,x,x/d7,x,x,x,h12", "-", 2);
    Kit::ok(&mut s, "shoot d4 n");
    assert_eq!(at(&s, "d7").as_deref(), Some("North's Crusader"));
}

#[test]
fn an_arrow_stops_at_the_first_wall_gate_or_character_across_its_path() {
    let mut s = dice_phase("x,d4,x,x,x/d7,x,x,x,h12", "Wd5n", 4);
    Kit::ok(&mut s, "shoot d4 n");
    assert_eq!(at(&s, "d7").as_deref(), Some("North's Crusader"));
    // An own character first: harmless.
    let mut s = dice_phase("d5,d4,x,x,x/d7,x,x,x,h12", "-", 4);
    Kit::ok(&mut s, "shoot d4 n");
    assert_eq!(at(&s, "d7").as_deref(), Some("North's Crusader"));
    assert_eq!(at(&s, "d5").as_deref(), Some("South's Crusader"));
}

#[test]
fn a_gate_along_the_arrows_line_does_not_stop_it() {
    // Gd5es lies along d5e, beside the line d5-d6-d7.
    let mut s = dice_phase("x,d4,x,x,x/d7,x,x,x,h12", "Gd5es", 3);
    Kit::ok(&mut s, "shoot d4 n");
    assert_eq!(at(&s, "d7"), None);
}

#[test]
fn no_arrow_enters_a_keep() {
    // The rule text: "An archer may not shoot into an opponent's castle".
    let mut s = dice_phase("x,c11,x,x,x/h12,x,x,x,h11", "-", 3);
    assert_eq!(
        Kit::refused(&mut s, "shoot c11 n"),
        "the arrow would fly through c12n into North's Keep: no arrow enters a Keep"
    );
    assert!(!Kit::legal(&s).iter().any(|a| a == "shoot c11 n"));
}

#[test]
fn no_arrow_enters_its_own_sides_keep_either() {
    // No arrow enters any Keep, its own side's included: South's Archer
    // on c2 may not shoot south through c1s into South's own (empty)
    // Keep with a roll of 2. With a roll of 1 the arrow's flight ends on
    // c1, short of the entrance, and the shot stands.
    let mut s = dice_phase("x,c2,x,x,x/h12,x,x,x,x", "-", 2);
    assert_eq!(
        Kit::refused(&mut s, "shoot c2 s"),
        "the arrow would fly through c1s into South's Keep: no arrow enters a Keep"
    );
    assert!(!Kit::legal(&s).iter().any(|a| a == "shoot c2 s"));
    let mut short = dice_phase("x,c2,x,x,x/h12,x,x,x,x", "-", 1);
    Kit::ok(&mut short, "shoot c2 s");
}

#[test]
fn an_archer_in_its_keep_shoots_out_through_an_ungated_entrance() {
    let mut s = dice_phase("x,KS,x,x,x/c3,x,x,x,h12", "-", 3);
    Kit::ok(&mut s, "shoot K c1");
    assert_eq!(at(&s, "c3"), None);
    let mut s = dice_phase("x,KS,x,x,x/c3,x,x,x,h12", "Gc1sw", 3);
    assert_eq!(
        Kit::refused(&mut s, "shoot K c1"),
        "the Gate Gc1sw lies across the entrance c1s: no arrow flies through it"
    );
}

#[test]
fn a_shot_spends_the_whole_roll_instead_of_moving() {
    let mut s = dice_phase("b1,d4,x,x,x/h12,x,x,x,x", "-", 3);
    let mut t = s.clone();
    Kit::ok(&mut t, "shoot d4 e");
    Kit::end(&mut t);
    Kit::ok(&mut s, "b1-b2");
    assert!(Kit::refused(&mut s, "shoot d4 e").starts_with("the roll is split among runs"));
}

// ---------------------------------------------------------------------
// The most that can be spent

/// South's Crusader on a1 can take one step (to a2); its other
/// Crusader on i1 two (i2, i3).
const CORRIDORS: &str = "Wa1e,Wa2e,Wa2n,Wh1e,Wh2e,Wh3e,Wi3n";

#[test]
fn a_split_roll_spends_the_most_it_can() {
    let mut s = dice_phase("a1,x,x,x,i1/h12,x,x,x,x", CORRIDORS, 3);
    assert_eq!(s.dice.target, Some(3));
    assert_eq!(
        Kit::refused(&mut s.clone(), "i1-i2"),
        "after this run at most 2 of the roll of 3 could be spent, and 3 can be: a split roll \
         spends the most it can"
    );
    Kit::ok(&mut s, "a1-a2");
    Kit::ok(&mut s, "i1-i2-i3");
    Kit::end(&mut s);
}

#[test]
fn a_turn_may_not_end_with_less_spent_than_could_be() {
    let mut s = dice_phase("d4,x,x,x,x/h12,x,x,x,x", "-", 3);
    assert_eq!(
        G::end_turn(&mut s).unwrap_err().reason,
        "the roll of 3 is not spent: 0 of it spent, and 3 can be (a split roll spends the most \
         it can; or an Archer shoots)"
    );
}

#[test]
fn when_the_whole_roll_cannot_be_spent_the_most_that_can_be_is() {
    let mut s = dice_phase("a1,x,x,x,i1/h12,x,x,x,x", CORRIDORS, 4);
    assert_eq!(s.dice.target, Some(3));
    assert_eq!(Kit::legal(&s), ["a1-a2", "i1-i2-i3"]);
    Kit::ok(&mut s, "i1-i2-i3");
    Kit::ok(&mut s, "a1-a2");
    Kit::end(&mut s);
}

#[test]
fn a_void_dice_phase_only_when_nothing_can_move() {
    let mut s = dice_phase("a1,x,x,x,x/h12,x,x,x,x", "Wa1e,Wa1n", 2);
    assert_eq!(s.dice.target, Some(0));
    assert!(Kit::legal(&s).is_empty());
    Kit::end(&mut s);
}

/// Ruling 12: a void dice phase is legal when no movement can spend
/// anything, even if an Archer could shoot. The Archer on a1 and the
/// Crusader on a2 are walled in (each blocks the other), yet the Archer
/// may shoot north: its first hit is its own piece, legal and harmless.
#[test]
fn a_void_dice_phase_stands_even_when_an_archer_could_shoot() {
    let s = dice_phase("a2,a1,x,x,x/h12,x,x,x,x", "Wa1e,Wa2e,Wa2n", 2);
    assert_eq!(s.dice.target, Some(0));
    let mut shot = s.clone();
    Kit::ok(&mut shot, "shoot a1 n");
    assert_eq!(at(&shot, "a2").as_deref(), Some("South's Crusader"));
    let mut void = s;
    Kit::end(&mut void);
}

#[test]
fn the_most_is_found_over_every_order_of_runs() {
    // Walls leave c5 one way out, east to d5, and d4 one way, north to
    // d5; from d5 the way goes on only to d6, a dead end. Roll 3: c5-d5
    // -d6 then d4-d5 spends 3, but d4-d5 first leaves c5 shut in (1).
    let maze = "Wb5e,Wc5n,Wc4n,Wc4e,Wd4e,Wd3n,Wd5e,Wc6e,Wd6e,Wd6n";
    let mut s = dice_phase("c5,d4,x,x,x/h12,x,x,x,x", maze, 3);
    assert_eq!(s.dice.target, Some(3));
    assert!(Kit::refused(&mut s.clone(), "d4-d5").starts_with("after this run at most 1"));
    Kit::ok(&mut s, "c5-d5-d6");
    Kit::ok(&mut s, "d4-d5");
    Kit::end(&mut s);
}

// ---------------------------------------------------------------------
// The end, the contract, the notation

#[test]
fn a_side_without_characters_loses() {
    let mut s = dice_phase("d4,x,x,x,x/d6,x,x,x,x", "-", 2);
    Kit::ok(&mut s, "d4-d5-d6");
    assert_eq!(s.outcome, Outcome::Won(board::SOUTH));
    assert_eq!(G::summary(&s), "South won: North has no characters left");
    assert!(G::write_position_text(&s).ends_with("South:no-characters"));
}

#[test]
fn every_listed_action_can_be_followed_by_a_turn_that_ends() {
    // Random play from the start with random mazes: each listed action
    // is accepted and the turn can then end (self-play checks the whole
    // record, through the referee).
    for seed in 0..6 {
        let mut options = crate::selfplay::Options::new::<G>(seed, 2);
        options.max_turns = 30;
        let text = crate::selfplay::record::<G>(&options).unwrap_or_else(|e| panic!("{e}"));
        let source = crate::record::Source::new(text.as_bytes()).unwrap();
        let parsed = crate::record::parse(&source).unwrap();
        crate::referee::replay::<G>(&parsed, |_, _| {}).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    }
}

#[test]
fn a_crowded_position_lists_its_actions_quickly() {
    let chars = "d5,e5,f5,e4,e6/d7,e7,f7,e8,d8";
    let maze = "Gc5es,Gd4nw,Ld6nw,Lf4en,Ge6en,Wd5e,Wf5n,Gc7ne,Lg6nw,Gf8es,Wc8e,Ld9ne,Gh4nw";
    let mut s = pos(chars, maze, "wrt/-/-");
    begin(&mut s, 4);
    let start = std::time::Instant::now();
    let legal = Kit::legal(&s);
    assert!(legal.len() > 100);
    Kit::ok(&mut s, "discard scale");
    let listed = Kit::legal(&s);
    let took = start.elapsed();
    assert!(!listed.is_empty());
    // Generous for a debug build; a release build lists in well under 10 ms.
    assert!(took.as_millis() < 400, "{took:?}");
}

#[test]
fn a_resignation_is_a_turn_its_draw_made_and_the_resigner_moved_last() {
    let mut s = pos("c4,x,x,x,x/h12,x,x,x,x", "-", "sr/-/-");
    // The turn begins as any turn does: South draws its third card.
    begin(&mut s, 2);
    assert_eq!(s.cards.hand(board::SOUTH).total(), 3);
    G::resign(&mut s, board::SOUTH);
    G::end_turn(&mut s).unwrap();
    assert_eq!(s.outcome, Outcome::Won(board::NORTH));
    assert_eq!(G::summary(&s), "North won: South resigned");
    // As in every herald game, a finished position names the side that
    // wrote the last line (the turn is not passed on).
    assert_eq!(
        G::write_position_text(&s),
        "c4,x,x,x,x/h12,x,x,x,x - South ssr/-/- 0/0 North:resignation"
    );
}

#[test]
fn the_position_notation_round_trips() {
    for text in [
        "b1,d1,e1,f1,h1/b12,d12,e12,f12,h12 - - -/-/- 0/0 *",
        "c5,KS,x,d4,h1/b12,x,e12,f12,x Gc1sw,Ld4nw,Wc4e North ssr/ct/gg 2/0 *",
        "x,x,x,x,x/b12,x,x,x,x Wd4n South r/-/- 0/1 North:no-characters",
        "b1,x,x,x,x/b12,x,x,x,x - North -/-/- 0/0 South:resignation",
        "b1,d1,e1,f1,h1/b12,d12,e12,f12,h12 Wa9n - -/-/- 0/0 North:bad-maze",
        "b1,d1,e1,f1,h1/b12,d12,e12,f12,h12 - - -/-/- 0/0 draw:bad-maze",
    ] {
        let s = G::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(G::write_position_text(&s), text);
    }
    for bad in [
        "b1,b1,x,x,x/b12,x,x,x,x - South -/-/- 0/0 *",
        "b1,x,x,x,x/b12,x,x,x,x Wd4n,Gd4nw South -/-/- 0/0 *",
        "b1,x,x,x,x/b12,x,x,x,x - South sssssss/-/- 0/0 *",
        "b1,x,x,x,x/x,x,x,x,x - South -/-/- 0/0 *",
        "b1,x,x,x,x/b12,x,x,x,x Gd5sw South -/-/- 0/0 *",
        "",
        "é",
    ] {
        assert!(G::parse_position(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_diagram_fits_the_text_width_in_both_styles() {
    let s = pos(
        "c5,KS,x,d4,h1/b12,x,e12,f12,x",
        "Gc1sw,Ld4nw,Wc4e",
        "ssr/ct/gg",
    );
    for unicode in [false, true] {
        let d = G::diagram(&s, DiagramStyle { unicode });
        for line in d.lines() {
            assert!(line.chars().count() <= TEXT_WIDTH, "{line}");
        }
        assert!(d.contains("South's Keep: A"));
        assert!(d.contains("South's hand: scale, scale, rotate90"));
    }
    let d = G::diagram(&s, DiagramStyle { unicode: false });
    // Row 4: c4e is a wall (#) between c4 and d4, d4 holds South's Archer.
    assert!(d.contains(" 4 |           # A "), "{d}");
}

trait PositionText {
    fn write_position_text(s: &State) -> String;
}

impl PositionText for G {
    fn write_position_text(s: &State) -> String {
        crate::game::position_text::<G>(s)
    }
}

#[test]
fn long_self_play_games_keep_the_contract() {
    for seed in 0..12 {
        let mut options = crate::selfplay::Options::new::<G>(seed, 2);
        options.max_turns = 120;
        if let Err(e) = crate::selfplay::record::<G>(&options) {
            panic!("seed {seed}: {e}");
        }
    }
}

#[test]
fn before_the_maze_opens_its_owner_sees_it_and_nobody_else() {
    let s = State::start();
    let values = setup::read_maze(&ONE_BOARD, &setup::SLOTS, SOUTH_MAZE).unwrap();
    let v: Vec<(&str, &str)> = values.iter().map(|(a, b)| (*a, b.as_str())).collect();
    let seen = G::view(&s, board::SOUTH, &v);
    assert_eq!(seen.board.pieces().len(), 10);
    assert!(s.board.pieces().is_empty());
}

#[test]
fn a_run_costs_its_steps_and_a_shot_the_whole_roll() {
    let s = dice_phase("b1,d4,x,x,x/h12,x,x,x,x", "-", 3);
    let run = G::parse_action(&s, "b1-b2").unwrap();
    let shot = G::parse_action(&s, "shoot d4 n").unwrap();
    assert_eq!(G::action_cost(&s, &run), Some(1));
    assert_eq!(G::action_cost(&s, &shot), Some(3));
}

// ---------------------------------------------------------------------
// More refusals, each with its reason

#[test]
fn no_action_before_the_opening_roll_before_the_turn_or_after_the_end() {
    let mut s = State::start();
    assert_eq!(
        Kit::refused(&mut s, "discard scale"),
        "the opening roll comes first: it is drawn once the set-up is over"
    );
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "-", "s/-/-");
    assert_eq!(
        Kit::refused(&mut s, "discard scale"),
        "the turn has not begun: its card and roll are not drawn yet"
    );
    let mut s = dice_phase("d4,x,x,x,x/d6,x,x,x,x", "-", 2);
    Kit::ok(&mut s, "d4-d5-d6");
    assert_eq!(Kit::refused(&mut s, "b1-b2"), "the game is over");
}

#[test]
fn a_card_crossing_needs_an_own_character_beside_the_edge() {
    let mut s = pos("c4,x,x,x,x/h12,x,x,x,x", "Wc4n", "-/-/-");
    begin(&mut s, 1);
    assert_eq!(
        Kit::refused(&mut s, "scale e4-e5"),
        "no character of South stands on e4"
    );
    assert_eq!(
        Kit::refused(&mut s, "scale c4-c6"),
        "c4 and c6 are not neighbours: the card crosses the edge between them"
    );
}

#[test]
fn a_card_names_a_piece_on_the_board_and_an_empty_edge() {
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Wd4n,Wf6n,Gd7nw", "wgr/-/-");
    begin(&mut s, 1);
    assert_eq!(
        Kit::refused(&mut s, "move-wall Wd4n Wf6n"),
        "the Brick wall Wf6n is in the way"
    );
    assert_eq!(
        Kit::refused(&mut s, "move-gate Gf4nw Gf5nw"),
        "the Gate Gf4nw is not on the board"
    );
    assert_eq!(
        Kit::refused(&mut s, "rotate90 Gf4nw cw"),
        "the Gate Gf4nw is not on the board"
    );
}

#[test]
fn a_turn_may_not_bring_a_piece_to_an_entrance_gates_hinge_post() {
    // Gc1nw, hinged at b1ne, turning cw comes to lie along b1e, which
    // touches b1se, the hinge post of Gc1sw across the entrance.
    assert_eq!(
        rotate_refused("Gc1nw,Gc1sw", NOBODY, "rotate90 Gc1nw cw"),
        "the turn would bring the Gate Gb1en to touch b1se, the hinge post of the Gate Gc1sw across a castle entrance"
    );
}

#[test]
fn a_run_starts_on_an_own_character_steps_to_neighbours_and_fits_the_roll() {
    let mut s = dice_phase("d4,d5,x,x,x/h12,x,x,x,x", "-", 2);
    assert_eq!(
        Kit::refused(&mut s, "e4-e5"),
        "no character of South stands on e4"
    );
    assert_eq!(
        Kit::refused(&mut s, "d4-d6"),
        "d4-d6: d4 and d6 are not neighbours (a step goes to the next square, or K between \
         an entrance square and its Keep)"
    );
    assert_eq!(Kit::refused(&mut s, "d4-d5"), "d5 holds South's Archer");
}

#[test]
fn a_run_longer_than_the_roll_left_is_refused() {
    let mut s = dice_phase("d4,x,x,x,x/h12,x,x,x,x", "-", 2);
    assert_eq!(
        Kit::refused(&mut s, "d4-d5-d6-d7"),
        "the roll is 2, 2 of it is left, and this run takes 3 steps"
    );
}

#[test]
fn only_an_archer_shoots_and_only_once() {
    let mut s = dice_phase("b1,d4,x,x,x/h12,x,x,x,x", "-", 2);
    assert_eq!(
        Kit::refused(&mut s, "shoot b1 n"),
        "b1 holds South's Crusader, not an Archer of South"
    );
    assert_eq!(
        Kit::refused(&mut s, "shoot e5 n"),
        "no Archer of South stands on e5"
    );
    assert_eq!(
        Kit::refused(&mut s, "shoot K c1"),
        "no Archer of South is in South's Keep"
    );
    Kit::ok(&mut s, "shoot d4 n");
    assert_eq!(
        Kit::refused(&mut s, "b1-b2"),
        "the Archer's shot spent the whole roll"
    );
}

#[test]
fn a_gate_across_the_other_sides_entrance_is_refused_in_the_set_up() {
    let pieces: Vec<_> = [
        "Wb10n", "Wd9e", "Wf10n", "Wh8n", "Gc1sw", "Gc9nw", "Ge8ne", "Ld10nw", "Lg9en", "Lb8nw",
    ]
    .iter()
    .map(|t| maze::parse_piece(&ONE_BOARD, t).unwrap())
    .collect();
    assert_eq!(
        setup::check_maze(&ONE_BOARD, board::NORTH, &pieces),
        Err("the Gate Gc1sw: a Gate may stand across its own side's castle entrance only".into())
    );
    let e = setup::read_maze(&ONE_BOARD, &setup::SLOTS, "Wz9n").unwrap_err();
    assert!(e.starts_with("`Wz9n`: expected an edge after W"), "{e}");
}

#[test]
fn one_board_is_played_by_south_and_north() {
    let sides = [Side(0)];
    let e = G::new_game(&Setup {
        sides: &sides,
        tags: &[],
    })
    .unwrap_err();
    assert_eq!(
        e.reason,
        "Battlegates on one board is played by South and North: North is missing"
    );
}

#[test]
fn no_text_makes_the_parsers_panic() {
    let s = pos("c1,d1,e1,f1,h1/b12,d12,e12,f12,h12", "Gc1sw,Wd4n", "-/-/-");
    let alphabet: Vec<char> = "abcdefghijKkWGLnesw0123456789-, éx/*:".chars().collect();
    let mut x = 12345u64;
    for _ in 0..20000 {
        let mut text = String::new();
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let len = (x >> 60) as usize;
        for _ in 0..len {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push(alphabet[(x >> 33) as usize % alphabet.len()]);
        }
        for prefix in [
            "",
            "discard ",
            "scale ",
            "move-gate ",
            "rotate90 ",
            "shoot ",
        ] {
            let t = format!("{prefix}{text}");
            if let Err(e) = G::parse_action(&s, &t) {
                assert!(
                    e.offset + e.len <= t.len() && t.is_char_boundary(e.offset),
                    "{t:?}"
                );
            }
        }
        let _ = G::parse_position(&text);
    }
}

// ---------------------------------------------------------------------
// The spec's examples and the engine's own rulings

/// A position with `side` to move (`South` or `North`), its turn begun
/// with `chance` (the card drawn, then the die).
fn begun_as(side: &str, chars: &str, maze: &str, cards: &str, chance: Vec<u32>) -> State {
    let text = format!("{chars} {maze} {side} {cards} 0/0 *");
    let mut s = G::parse_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    G::begin_turn(&mut s, &mut Fixed(chance)).expect("begin_turn");
    s
}

/// The after-set-up position of docs/games/battlegates.md section 10.
const SPEC_AFTER_SETUP: &str = "b1,d1,e1,f1,h1/b12,d12,e12,f12,h12 \
    Gb4nw,Gb8nw,Gc12nw,Gc1sw,Gf10es,Gf3en,Ld3nw,Ld9nw,Lf10nw,Lf2nw,Lg4en,Lg9es,\
    Wa11e,Wa12e,Wa1e,Wa2e,Wd4n,Wd8n,Wh10n,Wh2n South cgr/sst/- 0/0 *";

#[test]
fn the_spec_positions_read_and_write_back() {
    for text in [
        "b1,d1,e1,f1,h1/b12,d12,e12,f12,h12 - - -/-/- 0/0 *",
        SPEC_AFTER_SETUP,
    ] {
        let s = G::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(G::write_position_text(&s), text);
    }
    // Both mazes of the example obey the set-up rules.
    for (side, text) in [
        (
            board::SOUTH,
            "Wa1e Wa2e Wh2n Wd4n Gc1sw Gf3en Gb4nw Ld3nw Lf2nw Lg4en",
        ),
        (
            board::NORTH,
            "Wa12e Wa11e Wh10n Wd8n Gc12nw Gf10es Gb8nw Ld9nw Lf10nw Lg9es",
        ),
    ] {
        let pieces: Vec<_> = text
            .split(' ')
            .map(|t| maze::parse_piece(&ONE_BOARD, t).unwrap())
            .collect();
        assert_eq!(
            setup::check_maze(&ONE_BOARD, side, &pieces),
            Ok(()),
            "{text}"
        );
    }
}

#[test]
fn the_spec_example_turns_play_as_described() {
    let mut s = G::parse_position(SPEC_AFTER_SETUP).unwrap();
    // The deck holds 4 scales first: value 4 is its first climb.
    G::begin_turn(&mut s, &mut Fixed(vec![4, face(3)])).unwrap();
    assert_eq!(s.drawn, Some(Card::Climb));
    Kit::ok(&mut s, "discard move-gate");
    Kit::ok(&mut s, "b1-b2");
    Kit::ok(&mut s, "e1-e2-e3");
    Kit::end(&mut s);
    // 4 scales, 4 climbs, 5 move-walls, 4 move-gates: value 17 is the
    // first rotate90.
    G::begin_turn(&mut s, &mut Fixed(vec![17, face(4)])).unwrap();
    assert_eq!(s.drawn, Some(Card::Rotate90));
    Kit::ok(&mut s, "rotate90 Ld9nw ccw");
    Kit::ok(&mut s, "f12-g12-K-c12-c11");
    Kit::end(&mut s);
    assert_eq!(
        G::write_position_text(&s),
        "b2,d1,e3,f1,h1/b12,d12,e12,c11,h12 \
         Gb12en,Gb4nw,Gb8nw,Gc1sw,Gf10es,Gf3en,Lc10es,Ld3nw,Lf10nw,Lf2nw,Lg4en,Lg9es,\
         Wa11e,Wa12e,Wa1e,Wa2e,Wd4n,Wd8n,Wh10n,Wh2n South ccr/sst/gr 0/0 *"
    );
}

#[test]
fn the_spec_worked_examples_play_as_described() {
    // A quarter turn that carries characters, then a ground attack.
    let mut s = begun_as(
        "South",
        "e4,x,e1,x,x/x,d3,e12,x,x",
        "Ld4nw",
        "r/-/-",
        vec![0, face(2)],
    );
    Kit::ok(&mut s, "rotate90 Ld4nw cw");
    assert_eq!(at(&s, "c3").as_deref(), Some("South's Crusader"));
    assert_eq!(at(&s, "b4").as_deref(), Some("North's Archer"));
    Kit::ok(&mut s, "c3-b3-b4");
    Kit::end(&mut s);
    assert!(G::write_position_text(&s).starts_with("b4,x,e1,x,x/x,x,e12,x,x Lc4en "));
    // A push: both gates on e8ne turn clockwise, carrying e8 to e9.
    let mut s = begun_as(
        "North",
        "x,e8,e1,x,x/f10,x,e12,x,x",
        "Ge8en,Gf8nw",
        "-/s/-",
        vec![0, face(2)],
    );
    Kit::ok(&mut s, "discard scale");
    Kit::ok(&mut s, "f10-f9-f8");
    Kit::end(&mut s);
    assert!(G::write_position_text(&s).starts_with("x,e9,e1,x,x/f8,x,e12,x,x Ge8en,Ge8ne "));
    // A split roll with a kill in a Keep held by an enemy.
    let mut s = begun_as(
        "South",
        "g11,b2,e1,x,x/KN,x,e12,x,x",
        "-",
        "r/-/-",
        vec![0, face(3)],
    );
    Kit::ok(&mut s, "discard rotate90");
    Kit::ok(&mut s, "g11-g12-K");
    Kit::ok(&mut s, "b2-b3");
    Kit::end(&mut s);
    // The most that can be spent: 2 of a roll of 3.
    let mut s = begun_as(
        "South",
        "a1,a2,x,x,x/x,x,e12,x,x",
        "Wa1e,Wa2e,Wa3e,Wa3n",
        "t/-/-",
        vec![0, face(3)],
    );
    Kit::ok(&mut s, "discard rotate180");
    assert_eq!(s.dice.target, Some(2));
    let mut shot = s.clone();
    Kit::ok(&mut shot, "shoot a2 n");
    Kit::end(&mut shot);
    assert_eq!(
        Kit::refused(&mut s.clone(), "a1-a2"),
        "a2 holds South's Archer"
    );
    let mut alone = s.clone();
    Kit::ok(&mut alone, "a2-a3");
    assert_eq!(
        G::end_turn(&mut alone).unwrap_err().reason,
        "the roll of 3 is not spent: 1 of it spent, and 2 can be (a split roll spends the most \
         it can; or an Archer shoots)"
    );
    Kit::ok(&mut s, "a2-a3");
    Kit::ok(&mut s, "a1-a2");
    Kit::end(&mut s);
}

#[test]
fn the_deal_alternates_starting_with_the_side_that_moves_second() {
    let mut s = State::start();
    // South 4, North 1: South moves first, North is dealt first. Deal
    // values: 33 (the last card, a rotate180) to North, 0 (a scale) to
    // South, 6 of the 32 left (5 scales first: a climb) to North, then
    // scales.
    G::begin_play(
        &mut s,
        &mut Fixed(vec![face(4), face(1), 33, 0, 6, 0, 0, 0]),
    )
    .unwrap();
    assert_eq!(s.to_move, board::SOUTH);
    assert!(G::write_position_text(&s).contains(" South sss/sct/- "));
}

#[test]
fn move_gate_may_lift_a_fixed_gate() {
    // Wc4e fixes Ld4nw (it touches its hinge post c4ne); the card moves
    // it all the same.
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Ld4nw,Wc4e", "g/-/-");
    begin(&mut s, 1);
    Kit::ok(&mut s, "move-gate Ld4nw Lf6nw");
    assert_eq!(
        G::write_position_text(&s).split(' ').nth(1),
        Some("Lf6nw,Wc4e")
    );
}

#[test]
fn a_square_a_character_was_only_carried_through_does_not_block_it() {
    // rotate180 Gd4nw cw carries the Crusader d4 to c4, then c4 to c5,
    // and leaves the Gate on c4n (hinged at c4ne). Being carried through
    // c4 does not count: the Crusader may step back into c4 (pushing the
    // Gate onto c4e). Its start square d4 it may not enter again.
    let mut s = pos("d4,x,x,x,x/h12,x,x,x,x", "Gd4nw", "t/-/-");
    begin(&mut s, 2);
    Kit::ok(&mut s, "rotate180 Gd4nw cw");
    assert_eq!(at(&s, "c5").as_deref(), Some("South's Crusader"));
    let mut back = s.clone();
    Kit::ok(&mut back, "c5-c4-b4");
    Kit::end(&mut back);
    assert_eq!(at(&back, "b4").as_deref(), Some("South's Crusader"));
    assert_eq!(
        Kit::refused(&mut s, "c5-c4-d4"),
        "South's Crusader has been on d4 this turn: no character enters a square twice in a turn"
    );
}

#[test]
fn the_square_a_run_starts_from_counts_also_when_a_card_carried_the_piece_there() {
    // The rule text: a piece may never "occupy the same square more than
    // once during a single turn". rotate180 Gd4nw cw carries the Crusader
    // from d4 to c5, where its run starts: c5-c4-c5 comes back to it.
    let mut s = pos("d4,x,x,x,x/h12,x,x,x,x", "Gd4nw", "t/-/-");
    begin(&mut s, 2);
    Kit::ok(&mut s, "rotate180 Gd4nw cw");
    assert_eq!(
        Kit::refused(&mut s, "c5-c4-c5"),
        "South's Crusader would come back to c5, where its run starts: no character enters a \
         square twice in a turn, the square its run starts from included"
    );
    assert!(!Kit::legal(&s).iter().any(|a| a == "c5-c4-c5"));
}

#[test]
fn an_arrow_stops_at_a_gate_across_an_entrance() {
    // Toward an open entrance the shot is refused (no_arrow_enters_a_keep);
    // with a Gate across it, the arrow stops there and hits nothing.
    let mut s = dice_phase("x,c2,x,x,x/h12,x,x,x,x", "Gc1sw", 3);
    Kit::ok(&mut s, "shoot c2 s");
    Kit::end(&mut s);
    let mut s = dice_phase("x,c2,x,x,x/h12,x,x,x,x", "-", 3);
    assert_eq!(
        Kit::refused(&mut s, "shoot c2 s"),
        "the arrow would fly through c1s into South's Keep: no arrow enters a Keep"
    );
}

/// Chance before turn 1 as the referee seeds it (spec section 3.3): for
/// each label its own sampler, the turn seed of turn 0 with South's
/// latest reveal in the mover's place and North's after it.
struct Opening {
    game: crate::fairness::Hash,
    south: crate::fairness::Hash,
    north: crate::fairness::Hash,
    samplers: Vec<(&'static str, crate::fairness::Sampler)>,
}

impl Chance for Opening {
    fn draw(&mut self, label: &'static str, n: u32) -> Result<u32, Illegal> {
        let k = match self.samplers.iter().position(|(l, _)| *l == label) {
            Some(k) => k,
            None => {
                let seed =
                    crate::fairness::turn_seed(&self.game, 0, label, &self.south, &[self.north]);
                self.samplers
                    .push((label, crate::fairness::Sampler::new(&seed)));
                self.samplers.len() - 1
            }
        };
        Ok(self.samplers[k].1.below(n))
    }
}

/// The opening roll and the deal of the reference vector (spec section
/// 3.3), played by the engine: the values are read from
/// tests/data/vectors/fairness.json, the one copy the library's test and
/// the independent Python reference both check.
#[test]
fn the_opening_roll_and_deal_match_the_reference_vector() {
    let data: serde_json::Value =
        serde_json::from_str(include_str!("../../../tests/data/vectors/fairness.json")).unwrap();
    let vector = |name: &str| &data["vectors"][name];
    let tags: Vec<(&str, &str)> = data["inputs"]["battlegates tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap(), p[1].as_str().unwrap()))
        .collect();
    let game = crate::fairness::game_id(tags.iter().copied());
    assert_eq!(
        hex::encode(game),
        vector("battlegates game id").as_str().unwrap()
    );
    let (south, north) = ([0x11; 32], [0x26; 32]);
    let mut s = State::start();
    let mut chance = Opening {
        game,
        south,
        north,
        samplers: Vec::new(),
    };
    G::begin_play(&mut s, &mut chance).unwrap();
    // The last pair of the rolls (a tie is rolled again) decides.
    let rolls = vector("battlegates opening rolls").as_array().unwrap();
    let last = rolls.last().unwrap();
    let pair = [0, 1].map(|k| last[k].as_u64().unwrap() as u8);
    assert_eq!(s.opening, Some(pair));
    let first = match vector("battlegates first").as_str().unwrap() {
        "South" => board::SOUTH,
        _ => board::NORTH,
    };
    assert_eq!(s.to_move, first);
    // Each hand as the position writes it: its cards' letters in card
    // order.
    let hand = |side: &str| -> String {
        let mut cards: Vec<Card> = vector("battlegates deal")[side]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| Card::from_word(c.as_str().unwrap()).unwrap())
            .collect();
        cards.sort_by_key(|c| Card::ALL.iter().position(|a| a == c));
        cards.iter().map(|c| c.letter()).collect()
    };
    let text = G::write_position_text(&s);
    let hands = format!(
        " {} {}/{}/- ",
        vector("battlegates first").as_str().unwrap(),
        hand("South"),
        hand("North")
    );
    assert!(text.contains(&hands), "{text} lacks {hands}");
}

#[test]
fn the_army_starts_on_its_portals_in_army_order() {
    let s = State::start();
    assert_eq!(
        G::write_position_text(&s),
        "b1,d1,e1,f1,h1/b12,d12,e12,f12,h12 - - -/-/- 0/0 *"
    );
    let names: Vec<String> = ["b1", "d1", "e1", "f1", "h1", "b12", "e12"]
        .iter()
        .filter_map(|sq| at(&s, sq))
        .collect();
    assert_eq!(
        names,
        [
            "South's Crusader",
            "South's Archer",
            "South's Gatekeeper",
            "South's Archer",
            "South's Crusader",
            "North's Crusader",
            "North's Gatekeeper",
        ]
    );
}

#[test]
fn a_push_kills_the_attacked_enemy_before_the_gates_turn() {
    // Gc5es lies north of c4ne; d5-c5 pushes it west, sweeping c5. The
    // North Crusader on c5 dies first: had the gate turned first, it
    // would have carried it to c4.
    let mut s = dice_phase("d5,x,x,x,x/c5,x,e12,x,x", "Gc5es", 1);
    Kit::ok(&mut s, "d5-c5");
    assert_eq!(at(&s, "c5").as_deref(), Some("South's Crusader"));
    assert_eq!(at(&s, "c4"), None);
    assert_eq!(s.board.loc(Id(5)), None);
    assert_eq!(G::write_position_text(&s).split(' ').nth(1), Some("Gc4ne"));
}

#[test]
fn cards_may_place_pieces_on_the_middle_line_and_lift_a_gate_off_an_entrance() {
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Gc1sw,Wd4n", "w/-/-");
    begin(&mut s, 1);
    Kit::ok(&mut s, "move-wall Wd4n Wd6n");
    assert_eq!(
        G::write_position_text(&s).split(' ').nth(1),
        Some("Gc1sw,Wd6n")
    );
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Gc1sw,Wd4n", "g/-/-");
    begin(&mut s, 1);
    Kit::ok(&mut s, "move-gate Gc1sw Gd6nw");
    assert_eq!(
        G::write_position_text(&s).split(' ').nth(1),
        Some("Gd6nw,Wd4n")
    );
    // No card puts a gate across an entrance.
    let mut s = pos("b1,x,x,x,x/h12,x,x,x,x", "Gd4nw", "g/-/-");
    begin(&mut s, 1);
    assert_eq!(
        Kit::refused(&mut s, "move-gate Gd4nw Gc1sw"),
        "c1s is on the board's outer line: a card never places a piece there"
    );
}

#[test]
fn the_spec_case_examples_read_canonically() {
    let s = pos("c1,d1,e1,f1,h1/b12,d12,e12,f12,h12", "Gd4nw", "-/-/-");
    for (text, canonical) in [
        ("Rotate90 gD4NW CW", "rotate90 Gd4nw cw"),
        ("c1-k-g1", "c1-K-g1"),
    ] {
        let a = G::parse_action(&s, text).unwrap_or_else(|e| panic!("{text}: {}", e.reason));
        assert_eq!(crate::game::action_text::<G>(&a), canonical);
    }
}

#[test]
fn a_hidden_hand_draws_unseen_cards_and_knows_one_only_once_it_is_opened() {
    let mut cards = cards::Cards::hidden();
    let south = board::SOUTH;
    for _ in 0..4 {
        assert!(cards.draw_unseen(south));
    }
    assert_eq!(cards.unseen(south), 4);
    assert_eq!(cards.held(south), 4);
    assert_eq!(cards.deck_count(), 30);
    assert_eq!(cards.hand(south).total(), 0, "nothing is known yet");
    // Card 22 is the first rotate90 (6 scale, 6 climb, 5 move-wall, 5
    // move-gate come first).
    assert_eq!(cards::Pile::full().nth(22), Some(Card::Rotate90));
    assert!(cards.open_unseen(south, Card::Rotate90));
    assert_eq!(cards.unseen(south), 3);
    assert!(cards.hand(south).holds(Card::Rotate90));
    assert!(cards.spend(south, Card::Rotate90));
    assert_eq!(cards.deck_count(), 30);
    // The discard pile becomes part of the deck at a reshuffle.
    cards.reshuffle();
    assert_eq!(cards.deck_count(), 31);
    assert_eq!(cards.discard.total(), 0);
}

#[test]
fn with_hidden_hands_the_deal_and_the_draw_come_from_the_shared_deck() {
    let sides = [Side(0), Side(1)];
    let tags = vec![("Hands".to_string(), "hidden".to_string())];
    let mut state = G::new_game(&Setup {
        sides: &sides,
        tags: &tags,
    })
    .unwrap();
    state.started = true;
    G::begin_turn(&mut state, &mut Fixed(vec![0])).unwrap();
    let side = G::to_move(&state);
    assert_eq!(state.cards.held(side), 0, "no draw by chance");
    G::receive_cards(&mut state, side, &[None, None, None, Some(0)]).unwrap();
    assert_eq!(state.cards.unseen(side), 3);
    assert!(state.cards.hand(side).holds(Card::Scale));
    G::open_card(&mut state, side, 33).unwrap();
    assert!(state.cards.hand(side).holds(Card::Rotate180));
    let other = board::opponent(side);
    assert_eq!(
        G::open_card(&mut state, other, 33).unwrap_err().reason,
        format!(
            "{} holds no unseen card to open as rotate180",
            board::side_name(other)
        )
    );
}

#[test]
fn the_squares_entered_this_turn_are_a_set_of_256_locations() {
    use super::board::Loc;
    use super::state::Visited;
    // Square indexes run row by row, 9 a row: row 28's i square (index
    // 9 * 27 + 8 = 251) is beyond the 126 a 128-bit set held with the
    // Keeps after the squares.
    let far = Loc::Sq(Sq { col: 8, row: 27 });
    let near = Loc::Sq(Sq { col: 0, row: 0 });
    let mid = Loc::Sq(Sq { col: 1, row: 7 });
    let mut v = Visited::only(&ONE_BOARD, far);
    assert!(v.has(&ONE_BOARD, far));
    assert!(!v.has(&ONE_BOARD, near));
    assert!(!v.has(&ONE_BOARD, mid));
    v.add(&ONE_BOARD, mid);
    v.add(&ONE_BOARD, Loc::Keep(board::NORTH));
    assert!(v.has(&ONE_BOARD, mid));
    assert!(v.has(&ONE_BOARD, far));
    assert!(v.has(&ONE_BOARD, Loc::Keep(board::NORTH)));
    assert!(!v.has(&ONE_BOARD, Loc::Keep(board::SOUTH)));
    assert!(!v.has(&ONE_BOARD, near));
    // Beyond the capacity nothing is set, and nothing wraps onto index 0.
    let beyond = Loc::Sq(Sq { col: 4, row: 28 });
    v.add(&ONE_BOARD, beyond);
    assert!(!v.has(&ONE_BOARD, beyond));
    assert!(!v.has(&ONE_BOARD, near));
}

#[test]
fn a_side_has_room_for_two_armies_and_a_board_for_four_sides() {
    use super::state::{Kind, CHARACTERS};
    // Places 5-9 are a side's second army, in the same order as the first.
    let g = Id::new(board::NORTH, 7);
    assert_eq!(g.side(), board::NORTH);
    assert_eq!(g.kind(), Kind::Gatekeeper);
    assert_eq!(g.place(), 7);
    let c = Id::new(Side(3), 9);
    assert_eq!(c.side(), Side(3));
    assert_eq!(c.kind(), Kind::Crusader);
    assert!(usize::from(c.0) < CHARACTERS);
    // One board puts one army a side in play: five characters each.
    let b = State::start().board;
    let north: Vec<Id> = b.ids(board::NORTH).collect();
    assert_eq!(north.len(), 5);
    assert_eq!(north[0], Id::new(board::NORTH, 0));
    assert_eq!(b.alive(board::SOUTH).count(), 5);
    assert_eq!(b.on(Sq::new(4, 11)), Some(Id::new(board::NORTH, 2)));
}

#[test]
fn a_position_with_more_copies_of_a_card_than_the_deck_holds_is_refused() {
    // Found by fuzzing: 256 copies of one card in a pile overflowed its
    // count before the deck was checked. Six rotate180 already exceed
    // the five in the deck, and so do 256.
    for n in [6, 256] {
        let text = format!(
            "b1,c1,e1,f1,h1/c12,d12,e6,f12,i12 - South -/-/{} 0/0 *",
            "t".repeat(n)
        );
        let e = G::parse_position(&text).unwrap_err();
        assert_eq!(
            e.reason, "there are 5 rotate180 cards in the deck of 34, and this has more",
            "{n} copies"
        );
    }
}

#[test]
fn the_position_names_a_set_up_other_than_one_board() {
    use super::layouts::Layout;
    // Misery Run: each side lists both armies, the one at its castle
    // first (South b1.. then b12..; North b25.. then b14..).
    let s = State::new(Layout::MiseryRun);
    let text = G::write_position_text(&s);
    assert_eq!(
        text,
        "misery-run b1,d1,e1,f1,h1,b12,d12,e12,f12,h12/b25,d25,e25,f25,h25,b14,d14,e14,f14,h14 \
         - - -/-/- 0/0 *"
    );
    let again = position::parse(&text).unwrap();
    assert_eq!(again.layout, Layout::MiseryRun);
    assert_eq!(G::write_position_text(&again), text);
    // One board's positions have no such word.
    assert!(G::write_position_text(&State::start()).starts_with("b1,"));
    // Misery Run is played: its positions are read.
    assert_eq!(
        G::parse_position(&text)
            .map(|s| G::write_position_text(&s))
            .map_err(|e| e.reason),
        Ok(text.clone())
    );
    // A square of the larger board, read on Misery Run's: row 13 exists
    // there, and an error keeps its place in the original text.
    let moved = text.replacen("b12", "b13", 1);
    assert_eq!(
        position::parse(&moved).map(|s| s.board.on(Sq::new(1, 12)).is_some()),
        Ok(true)
    );
    let bad = text.replacen("b12", "b26", 1);
    let e = position::parse(&bad).unwrap_err();
    assert_eq!(&bad[e.offset..e.offset + e.len], "b26");
    assert_eq!(
        e.reason,
        "a character stands on a square (a1 to i25), KS or KN (a Keep), or is x (killed)"
    );
}

#[test]
fn the_diagram_names_a_set_up_other_than_one_board() {
    use super::layouts::Layout;
    let s = State::new(Layout::MiseryRun);
    let d = G::diagram(&s, DiagramStyle::default());
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines[0], "Setup: misery-run (9 x 25)");
    assert_eq!(lines[1].trim(), "North's Keep: -");
    assert_eq!(lines[2].trim(), "a   b   c   d   e   f   g   h   i");
    // Row 25 first, its portals taken by North's first army; row 13,
    // the Run, empty between stone and marked; row 12 holds South's
    // second army.
    assert_eq!(lines[4], "25 |     c       a   g   a       c     | 25");
    assert_eq!(lines[28], "13 | ~   ~   ~   ~   ~   ~   ~   ~   ~ | 13");
    assert_eq!(lines[30], "12 |     C       A   G   A       C     | 12");
    assert_eq!(lines[52], " 1 |     C       A   G   A       C     | 1");
    assert_eq!(lines[55].trim(), "South's Keep: -");
    assert_eq!(lines.len(), 56 + 6);
    assert_eq!(
        lines[61],
        "~ the Misery Run, row 13: a character there when a turn ends dies."
    );
    assert!(!G::diagram(&State::start(), DiagramStyle::default()).contains("Setup:"));
}

#[test]
fn a_square_written_straight_into_a_text_is_named_as_displayed() {
    // `Sq::write_to` writes every square of every run the referee reads
    // (the canonical text of a line): it must name it as `Display` does.
    for col in 0..26 {
        // Every row `Display` names (row 255 would be row 256).
        for row in 0..u8::MAX {
            let sq = Sq { col, row };
            let mut text = String::from("x");
            sq.write_to(&mut text);
            assert_eq!(text, format!("x{sq}"), "column {col}, row {row}");
        }
    }
}

#[test]
fn a_position_copied_over_another_is_the_position_copied() {
    // The referee plays each turn in a copy of the position made over the
    // box of the position before (`clone_from`, which keeps the turn
    // log's lists): the copy must be the position, log and all.
    let mut played = dice_phase("d5,x,x,x,x/h12,x,x,x,x", "Gc5es", 1);
    Kit::ok(&mut played, "d5-c5");
    let mut longer = dice_phase("d4,x,x,x,x/h12,x,x,x,x", "Gc5es", 2);
    longer.log = vec!["a".into(), "b".into(), "c".into()];
    let mut shorter = dice_phase("d4,x,x,x,x/h12,x,x,x,x", "Gc5es", 2);
    shorter.log.clear();
    for mut copy in [longer, shorter] {
        copy.clone_from(&played);
        assert_eq!(format!("{copy:?}"), format!("{played:?}"));
        assert_eq!(format!("{:?}", played.clone()), format!("{played:?}"));
        assert_eq!(
            G::write_position_text(&copy),
            G::write_position_text(&played)
        );
    }
}

#[test]
fn the_gates_a_run_turned_are_written_as_the_list_names_them() {
    let before = dice_phase("d5,x,x,x,x/h12,x,x,x,x", "Gc5es", 1);
    let mut after = before.clone();
    Kit::ok(&mut after, "d5-c5");
    let listed = after.board.maze.turned_since(&before.board.maze);
    assert_eq!(listed, ["Gc5es to Gc4ne"]);
    let mut text = String::from("ran");
    after
        .board
        .maze
        .write_turned_since(&before.board.maze, ", pushing ", &mut text);
    assert_eq!(text, format!("ran, pushing {}", listed.join(", ")));
    let mut none = String::from("ran");
    before
        .board
        .maze
        .write_turned_since(&before.board.maze, ", pushing ", &mut none);
    assert_eq!(none, "ran");
}
