//! No player answers their own mail (spec section 3.7, "One player,
//! several sides"), read through the referee's steps over self-played
//! games of every game and set-up in the registry, each with the players
//! it is played by: a side its own player's, but in Battlegates'
//! `four-castles`, where one player holds Castle1 and Castle3, the other
//! Castle2 and Castle4. After every line, when every side whose line may
//! come next is the writer's player's, the message would go to nobody
//! but its writer: herald must write those lines in the writer's message.
//! It does so for the set-up's last line and the first turn (`setup
//! --then`, `--then-key`), and the message before says so, from the
//! referee's [`Referee::step_after_due`], which these games check against
//! the step that really comes.

use herald::game::{Game, Phase, Side};
use herald::games::battle_of_the_dale::BattleOfTheDale;
use herald::games::battlegates::layouts::Layout;
use herald::games::battlegates::selfplay::{hidden_game, Play};
use herald::games::battlegates::Battlegates;
use herald::games::breach_the_keep::BreachTheKeep;
use herald::games::castle_danger::CastleDanger;
use herald::games::playground_battles::PlaygroundBattles;
use herald::record::{self, LineKind, Source};
use herald::referee::{Referee, SetupStep, Step};
use herald::selfplay;

/// A line after which only its writer's player's lines may come: the
/// line (its kind, number and side), and the step due after it and its
/// side.
type OwnMail = ((LineKind, u32, String), (String, String));

/// Self-play `G` with `sides` sides and option tags `tags` (seed `seed`,
/// up to `turns` turns): the record.
fn self_play<G: Game>(seed: u64, sides: usize, tags: &[(&str, &str)], turns: u32) -> String {
    let mut options = selfplay::Options::new::<G>(seed, sides);
    options.tags = tags
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect();
    options.max_turns = turns;
    selfplay::record::<G>(&options).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// Replay the record `text` of `G`, `player` saying whose each side is:
/// every line after which only its writer's player's lines may come that
/// herald does not write with it in one message, and how many it does
/// (the set-up's last line, then the first turn: `setup --then`),
/// foreseen before the line where the first turn is another side's.
fn own_mail<G: Game>(text: &str, player: fn(Side) -> u8) -> (Vec<OwnMail>, usize) {
    let source = Source::new(text.as_bytes()).unwrap();
    let parsed = record::parse(&source).unwrap();
    let mut referee = Referee::<G>::start(&parsed).unwrap();
    let mut unchained = Vec::new();
    let mut chained = 0;
    for turn in &parsed.turns {
        let predicted = referee.step_after_due();
        let played = referee.play(turn).unwrap();
        let writer = played.side;
        let due = referee.sides_due();
        // The prediction holds whenever play goes on from the line.
        if let (Some((side, step)), Some(now)) = (predicted, referee.step_due()) {
            if referee.phase() != Phase::Over {
                assert_eq!(
                    (side, step),
                    (now.side, now.step),
                    "after {:?} {}",
                    played.kind,
                    played.number
                );
            }
        }
        if due.is_empty() || !due.iter().all(|&s| player(s) == player(writer)) {
            continue;
        }
        let next = referee.step_due().unwrap();
        // `setup --then`: the writer's own first turn (told once its
        // line is written), or another side's of its player, foreseen
        // by the message before, which prints the command for both.
        let set_up_then_turn = played.kind == LineKind::Setup
            && next.step == Step::Turn
            && (next.side == writer || predicted == Some((next.side, Step::Turn)));
        if set_up_then_turn {
            chained += 1;
        } else {
            unchained.push((
                (played.kind, played.number, writer.name::<G>().to_owned()),
                (
                    next.step.as_str().to_owned(),
                    next.side.name::<G>().to_owned(),
                ),
            ));
        }
    }
    (unchained, chained)
}

/// Each side its own player's.
fn alone(side: Side) -> u8 {
    side.0
}

/// `four-castles`: Castle1 and Castle3 one player's, Castle2 and
/// Castle4 the other's (the castles are sides 2 to 5).
fn two_castles_each(side: Side) -> u8 {
    side.0 % 2
}

/// Every game but Battlegates, each with every number of sides it takes,
/// each side its own player: a side is never due again right after its
/// own line except where herald writes both in one message (Playground
/// Battles' set-up's last line and its writer's first turn: `setup
/// --then`).
#[test]
fn in_every_game_a_message_is_never_for_its_own_writer_alone() {
    fn check<G: Game>(seed: u64) {
        for sides in G::MIN_SIDES..=G::MAX_SIDES {
            let text = self_play::<G>(seed, sides, &[], 150);
            let (bad, _) = own_mail::<G>(&text, alone);
            assert!(
                bad.is_empty(),
                "{}, {sides} sides, seed {seed}: {bad:?}",
                G::ID
            );
        }
    }
    for seed in 0..6 {
        check::<CastleDanger>(seed);
        check::<BattleOfTheDale>(seed);
        check::<BreachTheKeep>(seed);
        check::<PlaygroundBattles>(seed);
    }
}

/// Battlegates, every set-up with its players, self-played with hidden
/// hands (a record without a Protocol "3" tag) at random and by the
/// greedy policy (it kills where it can): one board and Misery
/// Run (two players), four castles alone and with allies (four players),
/// and `four-castles` (two players of two castles each). Every set-up
/// line's successor is the one the referee foresaw.
#[test]
fn in_every_battlegates_set_up_a_message_is_never_for_its_own_writer_alone() {
    let mut four = 0;
    for layout in [
        Layout::OneBoard,
        Layout::MiseryRun,
        Layout::FourCastlesSolo,
        Layout::FourCastlesAllies,
        Layout::FourCastles,
    ] {
        let player = if layout == Layout::FourCastles {
            two_castles_each
        } else {
            alone
        };
        for seed in 0..1 {
            for text in [
                hidden_game(layout, seed, Play::Uniform, 40),
                hidden_game(layout, seed, Play::Greedy, 40),
            ] {
                let text = text.unwrap_or_else(|e| panic!("{layout:?} seed {seed}: {e}"));
                let (bad, chained) = own_mail::<Battlegates>(&text, player);
                assert!(bad.is_empty(), "{layout:?}, seed {seed}: {bad:?}");
                // Self-play writes the older protocols' set-up: every castle
                // commits, then every castle opens, Castle4's opening
                // last, so no line is chained there (under protocol 3,
                // Castle3's opening is last: the flow test
                // `two_players_of_four_castles_never_answer_their_own_mail`).
                if layout == Layout::FourCastles {
                    assert_eq!(chained, 0, "seed {seed}:\n{text}");
                    four += 1;
                }
            }
        }
    }
    assert_eq!(four, 2);
}

/// On a header of `four-castles` with one address on two side tags (in
/// any case, with a name or without), a player's two castles are one
/// player's and the other's are not; at the start, Castle1's `S1` is
/// due, Castle2's `S2` comes after it, and a line of Castle3's player
/// after which Castle1's step is due would be a message to itself.
#[test]
fn one_address_on_two_side_tags_is_one_player() {
    let mut options = selfplay::Options::new::<Battlegates>(1, 4);
    options.sides = Layout::FourCastles.geometry().side_list();
    options.tags = vec![("Setup".into(), "four-castles".into())];
    options.max_turns = 0;
    let text = selfplay::record::<Battlegates>(&options).unwrap();
    assert!(!text.contains("\nS1."), "{text}");
    let text = text
        .replace("castle3@example.org", "Ann <Castle1@EXAMPLE.org>")
        .replace("castle4@example.org", "castle2@example.org");
    let source = Source::new(text.as_bytes()).unwrap();
    let parsed = record::parse(&source).unwrap();
    let referee = Referee::<Battlegates>::start(&parsed).unwrap();
    let castle = |n: u8| Side(n + 1);
    assert!(referee.same_player(castle(1), castle(3)));
    assert!(referee.same_player(castle(2), castle(4)));
    assert!(!referee.same_player(castle(1), castle(2)));
    assert!(!referee.same_player(castle(3), castle(4)));
    assert_eq!(referee.step_due().unwrap().side, castle(1));
    assert_eq!(
        referee.step_after_due(),
        Some((castle(2), Step::Setup(SetupStep::Commit)))
    );
    assert_eq!(referee.own_next(castle(3)), Some(castle(1)));
    assert_eq!(referee.own_next(castle(2)), None);
}
