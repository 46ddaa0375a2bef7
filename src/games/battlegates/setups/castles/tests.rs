//! Tests of the four-castle games on Battle Alley (docs/games/battlegates.md
//! section 10, "Four castles on Battle Alley"), one per rule and per
//! refusal. Positions are written in the position notation: the set-up
//! word, each castle's five characters (Castle1's to Castle4's), the
//! maze, the castle to move, the hands (one per holder) and the discard
//! pile, the points, the result. Castle1's portals are b1 d1 e1 f1 h1,
//! Castle2's b12.., Castle3's l1 n1 o1 p1 r1, Castle4's l12...

use crate::game::{DiagramStyle, Game, Outcome, Setup, Team};
use crate::games::battlegates::geometry::board::Loc;
use crate::games::battlegates::geometry::layouts::{Layout, CASTLES};
use crate::games::battlegates::one_board::state::Id;
use crate::games::battlegates::setups::castles::{self, TEAMS};
use crate::games::battlegates::*;
use crate::games::testkit::{self, Fixed};

type G = Battlegates;
type Kit = testkit::Kit<G>;

const C1: crate::game::Side = CASTLES[0];
const C2: crate::game::Side = CASTLES[1];
const C3: crate::game::Side = CASTLES[2];
const C4: crate::game::Side = CASTLES[3];

/// The position notation of `s`.
fn text_of(s: &State) -> String {
    crate::game::position_text::<G>(s)
}

/// A position of `setup` with `to_move` to move.
fn pos(setup: &str, chars: &str, maze: &str, to_move: &str, cards: &str) -> State {
    let mut pieces: Vec<&str> = maze.split(',').collect();
    pieces.sort();
    let maze = pieces.join(",");
    let text = format!("{setup} {chars} {maze} {to_move} {cards} 0/0/0/0 *");
    match G::parse_position(&text) {
        Ok(s) => s,
        Err(e) => panic!("{text}: {e}"),
    }
}

/// Begin the turn: the draw takes the deck's first card (a scale), the
/// die shows 1.
fn begin(s: &mut State) {
    G::begin_turn(s, &mut Fixed(vec![0, 0])).expect("begin_turn");
}

/// Only Castle1's Crusader on b1 and Castle2's on b12, and the others'
/// as given.
const FAR: &str = "x,x,x,x,x";

fn sq_of(s: &State, text: &str) -> Option<Id> {
    let (sq, _) = board::read_sq(s.board.geo(), text).expect("a square");
    s.board.on(sq)
}

fn setup_error(tags: &[(&str, &str)], sides: &[crate::game::Side]) -> String {
    let tags: Vec<(String, String)> = tags
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    match G::new_game(&Setup { sides, tags: &tags }) {
        Ok(_) => panic!("{tags:?} was accepted"),
        Err(e) => e.reason,
    }
}

// ---------------------------------------------------------------------
// Sides, turns and teams

#[test]
fn the_castles_take_turns_1_2_3_4_skipping_a_castle_without_characters() {
    let s = pos(
        "four-castles-solo",
        &format!("b1,x,x,x,x/{FAR}/l1,x,x,x,x/l12,x,x,x,x"),
        "-",
        "Castle1",
        "-/-/-/-/-",
    );
    assert_eq!(castles::next_to_move(&s, C1), C3);
    assert_eq!(castles::next_to_move(&s, C3), C4);
    assert_eq!(castles::next_to_move(&s, C4), C1);
    // A whole turn: Castle1 discards and walks; Castle3 is next.
    let mut s = pos(
        "four-castles-solo",
        &format!("b1,x,x,x,x/{FAR}/l1,x,x,x,x/l12,x,x,x,x"),
        "-",
        "Castle1",
        "r/-/-/-/-",
    );
    begin(&mut s);
    Kit::ok(&mut s, "discard rotate90");
    Kit::ok(&mut s, "b1-b2");
    G::end_turn(&mut s).unwrap();
    assert_eq!(G::to_move(&s), C3);
}

#[test]
fn castle1_moves_first_and_deals_without_an_opening_roll() {
    // Solo: four hands of three, dealt one at a time from Castle2 on,
    // Castle1 last; two decks (68 cards).
    let mut s = State::new(Layout::FourCastlesSolo);
    G::begin_play(&mut s, &mut Fixed(vec![67, 12, 0, 24])).unwrap();
    assert_eq!(G::to_move(&s), C1);
    assert_eq!(s.opening, None);
    let text = text_of(&s);
    assert!(
        text.contains(" Castle1 ssw/sst/ssc/sss/- 0/0/0/0 *"),
        "{text}"
    );
    assert_eq!(s.cards.deck.total(), 68 - 12);
    // Teams: two hands of four, Castle2's team first; one deck.
    let mut s = State::new(Layout::FourCastles);
    G::begin_play(&mut s, &mut Fixed(vec![33])).unwrap();
    let text = text_of(&s);
    // Card 33 (a rotate180) to Castle2, then the first card each time:
    // six scales, then a climb (the eighth card, Castle1's).
    assert!(text.contains(" Castle1 sssc/ssst/- 0/0/0/0 *"), "{text}");
    assert_eq!(s.cards.deck.total(), 34 - 8);
}

#[test]
fn a_team_shares_one_hand_of_four_between_its_castles() {
    let mut s = pos(
        "four-castles",
        &format!("b1,x,x,x,x/b12,x,x,x,x/l1,x,x,x,x/{FAR}"),
        "-",
        "Castle3",
        "rrr/-/-",
    );
    assert_eq!(s.cards.holder(C3), C1);
    assert_eq!(s.cards.holder(C4), C2);
    begin(&mut s);
    // Castle3 drew into the hand it shares with Castle1 and plays from it.
    assert_eq!(s.cards.held(C1), 4);
    Kit::ok(&mut s, "discard rotate90");
    assert_eq!(s.cards.held(C3), 3);
    assert_eq!(s.cards.held(C1), 3);
}

#[test]
fn allies_may_not_attack_each_other() {
    // Castle1's Crusader on b1, its ally Castle3's Crusader on b2.
    let chars = format!("b1,x,x,x,x/b12,x,x,x,x/b2,x,x,x,x/{FAR}");
    let mut s = pos("four-castles-allies", &chars, "-", "Castle1", "r/-/-");
    begin(&mut s);
    Kit::ok(&mut s, "discard rotate90");
    assert_eq!(
        Kit::refused(&mut s, "b1-b2"),
        "b2 holds Castle3's Crusader, an ally: allies never attack each other"
    );
    // A Scale onto an ally is refused the same way.
    let mut s = pos("four-castles-allies", &chars, "Wb1n", "Castle1", "s/-/-");
    begin(&mut s);
    assert_eq!(
        Kit::refused(&mut s, "scale b1-b2"),
        "b2 holds Castle3's Crusader, an ally: allies never attack each other"
    );
    // Two players' castles are allies too (four-castles).
    let mut s = pos("four-castles", &chars, "-", "Castle1", "r/-/-");
    begin(&mut s);
    Kit::ok(&mut s, "discard rotate90");
    assert!(Kit::refused(&mut s, "b1-b2").contains("an ally"));
}

#[test]
fn a_shot_whose_first_hit_is_an_ally_is_illegal() {
    // Castle1's Archer on d1 shoots north: Castle3's Crusader on d2, an
    // ally, would be hit first. The shot is refused, as a move onto an
    // ally is (the arrow does not stop there harmlessly), and it is not
    // among the legal actions; Castle2's Crusader on d3 behind it is safe.
    // In `four-castles` one player's two castles are allies the same way.
    let chars = "x,d1,x,x,x/d3,x,x,x,x/d2,x,x,x,x/x,x,x,x,x";
    let refusal = "the arrow would first hit Castle3's Crusader on d2, an ally: allies never \
                   attack each other";
    for (setup, hands) in [("four-castles-allies", "r/-/-"), ("four-castles", "r/-/-")] {
        let mut s = pos(setup, chars, "-", "Castle1", hands);
        G::begin_turn(&mut s, &mut Fixed(vec![0, 5])).unwrap();
        Kit::ok(&mut s, "discard rotate90");
        assert!(!Kit::legal(&s).iter().any(|a| a == "shoot d1 n"), "{setup}");
        assert_eq!(Kit::refused(&mut s, "shoot d1 n"), refusal, "{setup}");
        assert!(sq_of(&s, "d2").is_some() && sq_of(&s, "d3").is_some());
    }
    // Shot out of the Keep: the entrance square is the arrow's first, and
    // an ally standing there is its first hit.
    let from_keep = "x,K1,x,x,x/d3,x,x,x,x/c1,x,x,x,x/x,x,x,x,x";
    let mut s = pos("four-castles-allies", from_keep, "-", "Castle1", "r/-/-");
    G::begin_turn(&mut s, &mut Fixed(vec![0, 5])).unwrap();
    Kit::ok(&mut s, "discard rotate90");
    assert_eq!(
        Kit::refused(&mut s, "shoot K c1"),
        "the arrow would first hit Castle3's Crusader on c1, an ally: allies never attack each \
         other"
    );
    // Alone (solo), the same arrow kills the Crusader it hits first.
    let mut s = pos("four-castles-solo", chars, "-", "Castle1", "r/-/-/-/-");
    G::begin_turn(&mut s, &mut Fixed(vec![0, 5])).unwrap();
    Kit::ok(&mut s, "discard rotate90");
    Kit::ok(&mut s, "shoot d1 n");
    assert_eq!(sq_of(&s, "d2"), None);
}

#[test]
fn allies_use_each_others_keeps_as_their_own() {
    // Castle3's Crusader on c1 steps into its ally Castle1's Keep; in
    // `four-castles` one player's two castles are allies the same way.
    let chars = format!("x,x,x,x,h1/{FAR}/c1,x,x,x,x/l12,x,x,x,x");
    for setup in ["four-castles-allies", "four-castles"] {
        let mut s = pos(setup, &chars, "-", "Castle3", "r/-/-");
        begin(&mut s);
        Kit::ok(&mut s, "discard rotate90");
        Kit::ok(&mut s, "c1-K");
        assert_eq!(
            s.board.at(Loc::Keep(C1)).map(|i| i.side()),
            Some(C3),
            "{setup}"
        );
    }
    // Alone, the empty Keep of another castle is closed to it.
    let mut s = pos("four-castles-solo", &chars, "-", "Castle3", "-/-/r/-/-");
    begin(&mut s);
    Kit::ok(&mut s, "discard rotate90");
    assert_eq!(
        Kit::refused(&mut s, "c1-K"),
        "Castle1's Keep is empty: an enemy Keep may be entered only to kill the character in it"
    );
}

#[test]
fn an_allied_gate_turn_may_carry_a_gatekeeper_and_an_opponents_may_not() {
    // The Gate Gd3nw (on d3n, hinged at c3ne) turns clockwise onto c3e,
    // sweeping d3: a Gatekeeper there is carried to c3.
    let allied = "x,x,x,x,h1/x,x,x,x,h12/x,x,d3,x,x/l12,x,x,x,x";
    let mut s = pos("four-castles-allies", allied, "Gd3nw", "Castle1", "r/-/-");
    begin(&mut s);
    Kit::ok(&mut s, "rotate90 Gd3nw cw");
    assert_eq!(sq_of(&s, "c3").map(|i| i.side()), Some(C3));
    let hostile = "x,x,x,x,h1/x,x,d3,x,h12/l1,x,x,x,x/l12,x,x,x,x";
    let mut s = pos("four-castles-allies", hostile, "Gd3nw", "Castle1", "r/-/-");
    begin(&mut s);
    assert_eq!(
        Kit::refused(&mut s, "rotate90 Gd3nw cw"),
        "the gates on c3ne cannot carry Castle2's Gatekeeper on d3: a Gatekeeper is immune \
         to its opponent's gate turns"
    );
}

// ---------------------------------------------------------------------
// Battle Alley

#[test]
fn a_brick_wall_never_moves_across_the_alley() {
    let chars = format!("b1,x,x,x,x/b12,x,x,x,x/{FAR}/{FAR}");
    let mut s = pos("four-castles", &chars, "Wb3n", "Castle1", "w/-/-");
    begin(&mut s);
    assert_eq!(
        Kit::refused(&mut s, "move-wall Wb3n Wj6n"),
        "the Brick wall Wj6n would lie across the Alley: a Brick wall never lies across it"
    );
    // Along the Alley (its sides) a wall may go.
    Kit::ok(&mut s, "move-wall Wb3n Wi6e");
}

#[test]
fn no_piece_lies_across_the_alley_in_the_set_up() {
    let g = Layout::FourCastles.geometry();
    let piece = maze::parse_piece(g, "Gj4nw").unwrap();
    assert_eq!(
        setup::check_maze(g, C1, &[piece]),
        Err(
            "the Gate Gj4nw lies across the Alley on j4n: no piece may lie across it in the set-up"
                .into()
        )
    );
}

#[test]
fn a_gate_moved_across_the_alley_that_cannot_swing_is_taken_out() {
    // Walls on i6e and i7e: a Gate on j6n hinged at i6ne can turn
    // neither way.
    let chars = format!("b1,x,x,x,x/b12,x,x,x,x/{FAR}/{FAR}");
    let mut s = pos(
        "four-castles",
        &chars,
        "Wi6e,Wi7e,Gb3nw",
        "Castle1",
        "g/-/-",
    );
    begin(&mut s);
    Kit::ok(&mut s, "move-gate Gb3nw Gj6nw");
    assert_eq!(text_of(&s).split(' ').nth(2), Some("Wi6e,Wi7e"));
    assert!(
        s.log
            .iter()
            .any(|l| l
                == "Gj6nw lay across the Alley and could not swing away: taken out of the game")
    );
    // With one way free it stays.
    let mut s = pos("four-castles", &chars, "Wi6e,Gb3nw", "Castle1", "g/-/-");
    begin(&mut s);
    Kit::ok(&mut s, "move-gate Gb3nw Gj6nw");
    assert_eq!(text_of(&s).split(' ').nth(2), Some("Gj6nw,Wi6e"));
}

#[test]
fn a_gate_stuck_across_the_alley_is_judged_on_the_maze_alone() {
    // Only characters stand in the Gate's way: a turn either way would
    // carry the one on j6 onto i6, or the one on j7 onto i7. It is not
    // stuck, and stays.
    let chars = "b1,x,x,x,x/b12,x,x,x,x/j6,i6,x,x,x/j7,i7,x,x,x";
    let mut s = pos("four-castles", chars, "Gb3nw", "Castle1", "g/-/-");
    begin(&mut s);
    Kit::ok(&mut s, "move-gate Gb3nw Gj6nw");
    assert!(text_of(&s).contains(" Gj6nw "));
}

#[test]
fn a_wall_fixing_a_long_gate_across_the_alley_takes_it_out() {
    // The Long gate on j6n and k6n, hinged at i6ne, turns while no wall
    // touches its hinge post; a wall moved onto i6n fixes it, and fixed
    // across the Alley it leaves the game.
    let chars = format!("b1,x,x,x,x/b12,x,x,x,x/{FAR}/{FAR}");
    let mut s = pos("four-castles", &chars, "Lj6nw,Wb3n", "Castle1", "w/-/-");
    begin(&mut s);
    Kit::ok(&mut s, "move-wall Wb3n Wi6n");
    assert_eq!(text_of(&s).split(' ').nth(2), Some("Wi6n"));
}

#[test]
fn a_gate_swung_across_the_alley_by_a_turn_stays_while_it_can_swing_back() {
    // Gi6en (on i6e, hinged at i6ne) turns counter-clockwise onto j6n,
    // across the Alley; it could turn back, so it stays.
    let chars = format!("b1,x,x,x,x/b12,x,x,x,x/{FAR}/{FAR}");
    let mut s = pos("four-castles", &chars, "Gi6en,Wi7e", "Castle1", "r/-/-");
    begin(&mut s);
    Kit::ok(&mut s, "rotate90 Gi6en ccw");
    assert!(text_of(&s).contains(" Gj6nw,Wi7e "));
}

// ---------------------------------------------------------------------
// The end

/// The position of set-up `setup` with characters `chars` and hands
/// `hands`, Castle1 to move, after Castle1 discards and its character on
/// b1 kills Castle2's on b2.
fn castle1_kills_on_b2(setup: &str, chars: &str, hands: &str) -> State {
    let mut s = pos(setup, chars, "-", "Castle1", hands);
    begin(&mut s);
    Kit::ok(&mut s, "discard rotate90");
    Kit::ok(&mut s, "b1-b2");
    s
}

#[test]
fn a_team_without_characters_loses() {
    // Castle1 kills Castle2's last character; Castle4 has none: the team
    // of Castle1 and Castle3 wins.
    let chars = format!("b1,x,x,x,x/b2,x,x,x,x/l1,x,x,x,x/{FAR}");
    let s = castle1_kills_on_b2("four-castles-allies", &chars, "r/-/-");
    assert_eq!(G::outcome(&s), Outcome::TeamWon(Team::of(&TEAMS[0])));
    let text = text_of(&s);
    assert!(text.ends_with(" Castle1+Castle3:no-characters"), "{text}");
    assert_eq!(
        G::summary(&s),
        "Castle1+Castle3 won: nobody else has characters left"
    );
    assert_eq!(text_of(&G::parse_position(&text).unwrap()), text);
}

#[test]
fn alone_a_castle_without_characters_discards_its_hand_and_the_last_one_wins() {
    let chars = format!("b1,x,x,x,x/b2,x,x,x,x/l1,x,x,x,x/{FAR}");
    let s = castle1_kills_on_b2("four-castles-solo", &chars, "r/cc/s/t/-");
    // Castle2 is out: its two climbs on the discard pile; Castle4's
    // rotate180 went there when it was left without characters.
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
    assert!(text_of(&s).contains(" Castle1 s/-/s/-/ccrt "));
    let mut s = pos(
        "four-castles-solo",
        &format!("b1,x,x,x,x/{FAR}/b2,x,x,x,x/{FAR}"),
        "-",
        "Castle1",
        "r/-/-/-/-",
    );
    begin(&mut s);
    Kit::ok(&mut s, "discard rotate90");
    Kit::ok(&mut s, "b1-b2");
    assert_eq!(G::outcome(&s), Outcome::Won(C1));
    assert!(text_of(&s).ends_with(" Castle1:no-characters"));
}

#[test]
fn alone_a_resigning_castle_drops_out_and_the_game_goes_on() {
    let chars = format!("b1,x,x,x,x/b12,x,x,x,x/l1,x,x,x,x/{FAR}");
    let mut s = pos("four-castles-solo", &chars, "-", "Castle1", "r/-/-/-/-");
    begin(&mut s);
    G::resign(&mut s, C1);
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
    assert_eq!(G::to_move(&s), C2);
    // With a team, the resigner's team loses.
    let mut s = pos("four-castles", &chars, "-", "Castle3", "r/-/-");
    G::resign(&mut s, C3);
    assert_eq!(G::outcome(&s), Outcome::TeamWon(Team::of(&TEAMS[1])));
    assert!(text_of(&s).ends_with(" Castle2+Castle4:resignation"));
    assert_eq!(G::summary(&s), "Castle2+Castle4 won: Castle3 resigned");
}

// ---------------------------------------------------------------------
// Header

#[test]
fn the_four_castle_games_are_played_by_castle1_to_castle4() {
    assert_eq!(
        setup_error(&[("Setup", "four-castles")], &[C1, C2, C3]),
        "Setup \"four-castles\" is played by Castle1, Castle2, Castle3 and Castle4: Castle4 is \
         missing; one player holds Castle1 and Castle3, the other Castle2 and Castle4 (each \
         castle a side tag of its own, the player's address on both)"
    );
    assert_eq!(
        setup_error(
            &[("Setup", "four-castles-solo")],
            &[C1, C2, C3, board::SOUTH]
        ),
        "Setup \"four-castles-solo\" is played by Castle1, Castle2, Castle3 and Castle4, not \
         South"
    );
    assert_eq!(
        setup_error(&[], &[C1, C2]),
        "Battlegates on one board is played by South and North: South is missing"
    );
    // Misery Run names its own board.
    assert_eq!(
        setup_error(&[("Setup", "misery-run")], &[board::SOUTH, C2]),
        "Battlegates on Misery Run is played by South and North: North is missing"
    );
}

#[test]
fn four_players_play_with_two_decks_unless_the_decks_tag_says_one() {
    let tags = |setup: &str, decks: Option<&str>| {
        let mut t = vec![("Setup".to_string(), setup.to_string())];
        if let Some(d) = decks {
            t.push(("Decks".into(), d.into()));
        }
        t
    };
    let new = |t: Vec<(String, String)>| {
        G::new_game(&Setup {
            sides: &CASTLES,
            tags: &t,
        })
    };
    let total = |t| new(t).map(|s| s.cards.deck.total());
    assert_eq!(total(tags("four-castles", None)), Ok(34));
    assert_eq!(total(tags("four-castles-allies", None)), Ok(68));
    assert_eq!(total(tags("four-castles-solo", None)), Ok(68));
    assert_eq!(total(tags("four-castles-solo", Some("1"))), Ok(34));
    assert_eq!(
        new(tags("four-castles", Some("2"))).unwrap_err().reason,
        "Decks \"2\": two players play with one deck of 34 cards (Decks \"1\"); two decks are \
         for four players"
    );
    assert_eq!(
        new(tags("four-castles-solo", Some("3")))
            .unwrap_err()
            .reason,
        "Decks \"3\": the cards are one deck of 34 (\"1\") or, for four players, two decks of \
         68 (\"2\", their default)"
    );
    // One deck among four players is named in the position.
    let s = new(tags("four-castles-solo", Some("1"))).unwrap();
    let text = text_of(&s);
    assert!(text.starts_with("four-castles-solo one-deck b1,"), "{text}");
    let again = G::parse_position(&text).unwrap();
    assert_eq!(again.cards.deck.total(), 34);
}

#[test]
fn the_four_castle_games_have_open_hands_by_default_and_may_hide_them() {
    // Hidden: the shared deck deals 34 cards to two players, 68 to four
    // (two decks), in hands of four (a team's) or three (alone).
    for (setup, cards, hand) in [
        ("four-castles", 34, 4),
        ("four-castles-allies", 68, 4),
        ("four-castles-solo", 68, 3),
    ] {
        let t = vec![
            ("Setup".to_string(), setup.to_string()),
            ("Hands".to_string(), "hidden".to_string()),
        ];
        let s = G::new_game(&Setup {
            sides: &CASTLES,
            tags: &t,
        })
        .unwrap();
        assert_eq!(
            G::hidden_deck(&s),
            Some(crate::game::HiddenDeck { cards, hand }),
            "{setup}"
        );
    }
    // Without a Hands tag a four-castle game has open hands, and `herald
    // new` writes Hands "open" for it; one board keeps hidden hands.
    let t = vec![("Setup".to_string(), "four-castles-solo".to_string())];
    let s = G::new_game(&Setup {
        sides: &CASTLES,
        tags: &t,
    })
    .unwrap();
    assert!(G::hidden_deck(&s).is_none());
    let hands = G::OPTIONS.iter().find(|o| o.name == "Hands").unwrap();
    let given = [("Setup", "four-castles-allies".to_string())];
    assert_eq!(G::option_default(hands, &given), "open");
    assert_eq!(G::option_default(hands, &[]), "hidden");
}

// ---------------------------------------------------------------------
// Notation and pictures

#[test]
fn a_four_castle_position_round_trips() {
    for (layout, cards) in [
        (Layout::FourCastles, "-/-/-"),
        (Layout::FourCastlesAllies, "-/-/-"),
        (Layout::FourCastlesSolo, "-/-/-/-/-"),
    ] {
        let s = State::new(layout);
        let text = text_of(&s);
        assert_eq!(
            text,
            format!(
                "{} b1,d1,e1,f1,h1/b12,d12,e12,f12,h12/l1,n1,o1,p1,r1/l12,n12,o12,p12,r12 - - \
                 {cards} 0/0/0/0 *",
                layout.tag()
            )
        );
        assert_eq!(text_of(&G::parse_position(&text).unwrap()), text);
    }
    // Keeps are K1 to K4.
    let s = pos(
        "four-castles",
        "K1,x,x,x,x/K2,x,x,x,x/K4,x,x,x,x/K3,x,x,x,x",
        "-",
        "Castle2",
        "-/-/-",
    );
    assert_eq!(s.board.at(Loc::Keep(C4)).map(|i| i.side()), Some(C3));
    let e = G::parse_position(
        "four-castles KS,x,x,x,x/K2,x,x,x,x/K4,x,x,x,x/K3,x,x,x,x - Castle1 -/-/- 0/0/0/0 *",
    )
    .unwrap_err();
    assert_eq!(
        e.reason,
        "a character stands on a square (a1 to s12), K1, K2, K3 or K4 (a Keep), or is x \
         (killed)"
    );
    let e = G::parse_position(
        "four-castles b1,x,x,x,x/b12,x,x,x,x/l1,x,x,x,x/l12,x,x,x,x - Castle1 -/-/- 0/0 *",
    )
    .unwrap_err();
    assert_eq!(
        e.reason,
        "the points are Castle1's, Castle2's, Castle3's, Castle4's, each in turn order: \
         0/0/0/0"
    );
}

#[test]
fn the_battle_alley_diagram_is_compact_and_fits_78_columns() {
    let s = pos(
        "four-castles",
        "b1,x,x,x,x/b12,x,x,x,x/l1,x,x,x,x/K4,x,x,x,x",
        "Gj6nw,Wi6e",
        "Castle1",
        "-/-/-",
    );
    for unicode in [false, true] {
        let d = G::diagram(&s, DiagramStyle { unicode });
        assert!(
            d.lines()
                .all(|l| l.chars().count() <= crate::game::TEXT_WIDTH),
            "{d}"
        );
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[0], "Setup: four-castles (19 x 12)");
        // Each Keep named over its west entrance square (c12, m12).
        assert_eq!(
            lines[1],
            "          Castle2's Keep: -             Castle4's Keep: C4"
        );
        assert_eq!(
            lines[2],
            "    a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p  q  r  s"
        );
        if !unicode {
            // Row 12: Castle2's Crusader on b12, the other portals empty.
            assert_eq!(
                lines[4],
                "12 |   C2    *  *  *     *           *     *  *  *     *    | 12"
            );
            // Between rows 6 and 7: the Gate on j6n, hinged at i6ne; the
            // wall on i6e below it.
            assert_eq!(
                lines[15],
                "   +  .  .  .  .  .  .  .  .  o==.  .  .  .  .  .  .  .  .  +"
            );
            assert_eq!(&lines[16][..31], " 6 |                          #");
        }
    }
}

#[test]
fn the_picture_keys_the_four_castles() {
    let s = State::new(Layout::FourCastlesSolo);
    let pic = G::picture(&s).unwrap();
    let keys: Vec<&str> = pic.sides.iter().map(|k| k.name).collect();
    assert_eq!(keys, ["Castle1", "Castle2", "Castle3", "Castle4"]);
    assert_eq!(pic.piece_count(), 20);
    // Four hands of the solo game in the legend.
    assert!(pic.legend.iter().any(|l| l == "Castle4's hand: none"));
    let svg = crate::picture::svg::document(&pic, "Battle Alley");
    assert!(svg.contains("Castle4"));
}

#[test]
fn a_bad_maze_puts_its_castle_out_alone_and_its_team_out_with_allies() {
    // Castle2's maze (a Brick wall closing its entrance) is bad.
    let open_all = |layout: Layout| {
        let mut s = State::new(layout);
        let g = s.board.geo();
        let mut x = 7usize;
        let mut pick = |n: usize| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            (x >> 33) % n
        };
        for c in CASTLES {
            for (slot, value) in setup::random_maze(g, c, &setup::SLOTS, &mut pick) {
                let value = if c == C2 && slot == "w1" {
                    "Wc12n".to_string()
                } else {
                    value
                };
                G::open(&mut s, c, slot, &value).unwrap();
            }
        }
        G::begin_play(&mut s, &mut Fixed(vec![])).unwrap();
        s
    };
    let s = open_all(Layout::FourCastlesAllies);
    assert_eq!(G::outcome(&s), Outcome::TeamWon(Team::of(&TEAMS[0])));
    assert!(text_of(&s).ends_with(" Castle1+Castle3:bad-maze"));
    // Alone, Castle2 is out before turn 1 and the other three play on:
    // Castle1 deals three cards to each of them.
    let s = open_all(Layout::FourCastlesSolo);
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
    assert_eq!(G::to_move(&s), C1);
    assert_eq!(s.board.alive(C2).count(), 0);
    assert_eq!(castles::next_to_move(&s, C1), C3);
    assert!(text_of(&s).contains(" Castle1 sss/-/sss/sss/- "));
}

#[test]
fn in_four_castles_a_player_without_characters_in_either_castle_loses() {
    // Two players: Castle1 kills Castle2's last character; the same
    // player's Castle4 has none: the player of Castle1 and Castle3 wins.
    let chars = format!("b1,x,x,x,x/b2,x,x,x,x/l1,x,x,x,x/{FAR}");
    let s = castle1_kills_on_b2("four-castles", &chars, "r/-/-");
    assert_eq!(G::outcome(&s), Outcome::TeamWon(Team::of(&TEAMS[0])));
    assert!(text_of(&s).ends_with(" Castle1+Castle3:no-characters"));
    // While one of a player's castles has a character, play goes on.
    let chars = "b1,x,x,x,x/b2,x,x,x,x/l1,x,x,x,x/l12,x,x,x,x";
    let s = castle1_kills_on_b2("four-castles", chars, "r/-/-");
    assert_eq!(G::outcome(&s), Outcome::Ongoing);
}

#[test]
fn a_castle_plays_from_its_teams_hand_and_takes_no_turns_without_characters() {
    let t = vec![
        ("Setup".to_string(), "four-castles".to_string()),
        ("Hands".to_string(), "hidden".to_string()),
    ];
    let mut s = G::new_game(&Setup {
        sides: &CASTLES,
        tags: &t,
    })
    .unwrap();
    assert_eq!(G::hand_holder(&s, CASTLES[2]), CASTLES[0]);
    assert_eq!(G::hand_holder(&s, CASTLES[3]), CASTLES[1]);
    assert_eq!(G::hand_holder(&s, CASTLES[1]), CASTLES[1]);
    assert!(G::takes_turns(&s, CASTLES[2]));
    for id in s.board.ids(CASTLES[2]).collect::<Vec<_>>() {
        s.board.set(id, None);
    }
    assert!(!G::takes_turns(&s, CASTLES[2]));
    assert!(G::takes_turns(&s, CASTLES[0]));
}

#[test]
fn card_34_plus_i_is_card_i_of_the_second_deck() {
    assert_eq!(G::card_text(34), G::card_text(0));
    assert_eq!(G::card_text(67), G::card_text(33));
    assert_eq!(G::card_text(40), "climb");
}

#[test]
fn a_castle_out_of_the_game_discards_a_card_opened_on_its_leaving_line() {
    // Alone, a castle without characters discards its hand: an unseen
    // card of it opened on its leaving line goes to the discard pile.
    let t = vec![
        ("Setup".to_string(), "four-castles-solo".to_string()),
        ("Hands".to_string(), "hidden".to_string()),
    ];
    let mut s = G::new_game(&Setup {
        sides: &CASTLES,
        tags: &t,
    })
    .unwrap();
    let c3 = CASTLES[2];
    G::receive_cards(&mut s, c3, &[None, None]).unwrap();
    for id in s.board.ids(c3).collect::<Vec<_>>() {
        s.board.set(id, None);
    }
    G::open_card(&mut s, c3, 40).unwrap();
    assert_eq!(s.cards.unseen(c3), 1);
    assert_eq!(s.cards.hand(c3).total(), 0);
    assert_eq!(
        s.cards
            .discard
            .count(crate::games::battlegates::pieces::cards::Card::Climb),
        1
    );
}

/// A hidden four-castle self-play game (greedy, seed 0), replayed:
/// every audit passes. Returns its record and its farewell lines, each
/// its turn and side: lines of a side other than the one the position
/// had to move.
fn hidden_game_of(layout: Layout) -> (String, Vec<(u32, Side)>) {
    use crate::games::battlegates::selfplay::{hidden_game, Play};
    let text = hidden_game(layout, 0, Play::Greedy, 400).unwrap();
    let source = crate::record::Source::new(text.as_bytes()).unwrap();
    let rec = crate::record::parse(&source).unwrap();
    let mut farewells = Vec::new();
    let referee = crate::referee::replay::<G>(&rec, |played, _| {
        if let Some(before) = &played.before {
            let turn = played.kind == crate::record::LineKind::Turn && !played.audit;
            if turn && G::to_move(before) != played.side {
                assert!(played.actions.is_empty() && played.chance.is_empty());
                assert!(played.farewell && !played.is_played());
                farewells.push((played.number, played.side));
            } else {
                assert!(!played.farewell);
            }
        }
    })
    .unwrap();
    assert!(referee.failed_audits().is_empty(), "{text}");
    assert!(referee.outcome().is_over(), "{text}");
    (text, farewells)
}

#[test]
fn a_castle_killed_on_the_other_players_line_writes_a_farewell_line() {
    // Two players, hands 1+3 and 2+4, hidden: Castle1 kills Castle2's
    // last character on turn 49, and Castle2 writes its farewell line
    // (no actions, no draw) before Castle3 moves; Castle4 kills
    // Castle3's last on turn 55, and Castle3's farewell line comes at its
    // place in the order before, after Castle1's turn 56. No card secret:
    // each hand keeps a castle in play until its team is out.
    let (text, farewells) = hidden_game_of(Layout::FourCastles);
    assert_eq!(farewells, [(50, CASTLES[1]), (57, CASTLES[2])], "{text}");
    assert!(!text.contains("cardsecret"), "{text}");
}

#[test]
fn alone_a_castle_put_out_publishes_its_card_secret_and_the_others_play_on() {
    let (text, farewells) = hidden_game_of(Layout::FourCastlesSolo);
    // Each castle put out by another leaves on its farewell line.
    assert!(!farewells.is_empty(), "{text}");
    assert_eq!(text.matches("\n    cardsecret\n").count(), 2, "{text}");
}

#[test]
fn with_teams_castle1_is_known_to_move_first_before_the_mazes_open_and_alone_no_castle_is() {
    // With teams, a bad maze ends the game before turn 1 (its team
    // loses), so if play begins Castle1 moves first, known from the
    // start of the set-up: the hands give their shares of the first
    // draws on set-up lines.
    for layout in [Layout::FourCastles, Layout::FourCastlesAllies] {
        let s = State::new(layout);
        assert_eq!(G::first_mover_before_play(&s), Some(C1), "{layout:?}");
    }
    // Alone, a castle whose maze is bad is skipped and the others play
    // on: who moves first and the turns after it wait for the mazes.
    let s = State::new(Layout::FourCastlesSolo);
    assert_eq!(G::first_mover_before_play(&s), None);
    // On one board the opening roll decides.
    let s = State::new(Layout::OneBoard);
    assert_eq!(G::first_mover_before_play(&s), None);
}
