//! No player answers their own mail (spec section 3.7, "One player,
//! several sides"), read through the referee's steps over self-played
//! games of every game and set-up in the registry, each with the players
//! it is played by: a side its own player's, but in Battlegates'
//! `four-castles`, where one player holds Castle1 and Castle3, the other
//! Castle2 and Castle4. After every line, when every side whose line may
//! come next is the writer's player's, the message would go to nobody
//! but its writer: herald must write those lines in the writer's message.
//! It does so for the set-up's last line and the first turn (`setup
//! --then`, `--then-key`), for a line of play or an audit and the next
//! side's (`move --then`, `--then-key`), and for the line that ends the
//! game and its own writer's audit (`move` writes both); the message
//! before says so, from the referee's [`Referee::own_after_due`], which
//! these games check against the step that really comes.

use herald::game::{Game, Phase, Side};
use herald::games::battle_of_the_dale::BattleOfTheDale;
use herald::games::battlegates::layouts::Layout;
use herald::games::battlegates::selfplay::{hidden_options, played as self_played, Play};
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
/// herald does not write with it in one message, and the length of the
/// longest run of lines it does write in one (1: none chained). Lines
/// go together in one message where the message before foresaw the one
/// after ([`Referee::own_after_due`]: `setup --then`, `move --then`), and
/// where a line ends the game with its own writer's audit due (`move`
/// writes both).
fn own_mail<G: Game>(text: &str, player: fn(Side) -> u8) -> (Vec<OwnMail>, usize) {
    let source = Source::new(text.as_bytes()).unwrap();
    let parsed = record::parse(&source).unwrap();
    let mut referee = Referee::<G>::start(&parsed).unwrap();
    let mut unchained = Vec::new();
    let (mut run, mut longest) = (1, 1);
    for turn in &parsed.turns {
        let predicted = referee.step_after_due();
        let foreseen = referee.own_after_due();
        let was_play = referee.phase() == Phase::Play;
        let taking = |r: &Referee<G>| -> Vec<bool> {
            r.header()
                .sides()
                .iter()
                .map(|&s| G::takes_turns(r.state(), s))
                .collect()
        };
        let took = taking(&referee);
        let played = referee.play(turn).unwrap();
        let writer = played.side;
        let due = referee.sides_due();
        // The set-up's prediction holds whenever play goes on from the
        // line.
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
            run = 1;
            continue;
        }
        let next = referee.step_due().unwrap();
        // The line that ended the game, its writer's audit due next:
        // `move` writes both.
        let own_audit = was_play && next.side == writer && next.step == Step::Audit;
        // The writer's own first turn after the set-up's last line
        // (`setup --then`, told once its line is written), or a line the
        // message before foresaw, another side's of the same player.
        let own_first = played.kind == LineKind::Setup && next.side == writer;
        if own_audit || own_first {
            continue;
        }
        // A line that put a side out can make another of its player's
        // sides due at once (its farewell line), which no message could
        // foresee: `move --reply` refuses to write it alone, naming the
        // `--then` that writes both.
        let put_out = was_play
            && took
                .iter()
                .zip(taking(&referee))
                .any(|(&before, after)| before && !after);
        if put_out || foreseen_after(foreseen, &referee, (next.side, next.step)) {
            run += 1;
            longest = longest.max(run);
            continue;
        }
        run = 1;
        unchained.push((
            (played.kind, played.number, writer.name::<G>().to_owned()),
            (
                next.step.as_str().to_owned(),
                next.side.name::<G>().to_owned(),
            ),
        ));
    }
    (unchained, longest)
}

/// Whether the line `next` (its side and step) after a line was foreseen
/// before it (`foreseen`), so the message before printed the command
/// that writes both: the very line, or, in the audit, any audit of the
/// same player (audits come in any order).
fn foreseen_after<G: Game>(
    foreseen: Option<(Side, Step)>,
    referee: &Referee<G>,
    next: (Side, Step),
) -> bool {
    match foreseen {
        Some((side, Step::Audit)) => next.1 == Step::Audit && referee.same_player(side, next.0),
        Some(f) => f == next,
        None => false,
    }
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

/// A Battlegates game on `layout` with hidden hands, self-played under
/// the current protocol (`[Protocol "3"]`, every line signed) by `play`
/// up to `turns` turns, each side's contact its player's: in
/// `four-castles`, `ann@example.org` on Castle1 and Castle3,
/// `bob@example.org` on Castle2 and Castle4.
fn current(layout: Layout, seed: u64, play: Play, turns: u32) -> String {
    let mut options = hidden_options(layout, seed, turns);
    options.tags.push(("Protocol".into(), "3".into()));
    options.signatures = true;
    if layout == Layout::FourCastles {
        options.contacts = ["ann", "bob", "ann", "bob"]
            .iter()
            .map(|p| format!("{p}@example.org"))
            .collect();
    }
    self_played(&options, play).unwrap_or_else(|e| panic!("{layout:?} seed {seed}: {e}"))
}

/// Battlegates, every set-up with its players, self-played with hidden
/// hands under the current protocol, at random and by the greedy policy
/// (it kills where it can): one board and Misery Run (two players), four
/// castles alone and with allies (four players), and `four-castles` (two
/// players of two castles each), through the set-up, play, farewell lines
/// and the audit. Every line after which only its writer's player's lines
/// may come is written with the next in one message, as the message
/// before foresaw. In `four-castles` that is the set-up's last line and
/// turn 1, and in play a castle's line and its ally's when a castle of
/// the other player is skipped (no characters) or a farewell line comes
/// between; never three lines in a row: a third would need both of the
/// other player's castles skipped, and then that player has no
/// characters and play is over, and in the audit each player has one
/// hand, so one audit at most. Greedy games of `four-castles` are played
/// to the end (their farewell lines and audits), the others cut at 40
/// turns: the suite's time (each signed line of a hidden hand costs).
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
        let whole = if layout == Layout::FourCastles {
            400
        } else {
            40
        };
        for seed in 0..1 {
            for text in [
                current(layout, seed, Play::Uniform, 40),
                current(layout, seed, Play::Greedy, whole),
            ] {
                let (bad, longest) = own_mail::<Battlegates>(&text, player);
                assert!(bad.is_empty(), "{layout:?}, seed {seed}: {bad:?}");
                if layout == Layout::FourCastles {
                    // Castle3's opening (S7), the set-up's last line, and
                    // Castle1's turn 1: one message.
                    assert_eq!(longest, 2, "seed {seed}:\n{text}");
                    four += 1;
                } else {
                    assert_eq!(longest, 1, "{layout:?}, seed {seed}");
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
