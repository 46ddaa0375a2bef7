//! `check` plays a plain turn the short way (`Referee::play_plain`,
//! issue 30): every game's self-play records, whole and with a late
//! turn line changed in many ways, must give the referee (turns,
//! result, side to move, phase, each side's lines, the position) or the
//! error that the full play gives.

use herald::game::{Game, Setup, Side};
use herald::record::{self, stream, Source};
use herald::referee::{replay_keeping, Keep, Referee, Replay};
use herald::selfplay::{self, Options};

/// What a reader of a referee sees of it: turns, result, side to
/// move, phase, each side's lines and the position.
fn seen<G: Game>(referee: &Referee<G>) -> String {
    let mut position = String::new();
    G::write_position(referee.state(), &mut position);
    let lines: Vec<u32> = referee
        .header()
        .sides()
        .iter()
        .map(|&s| referee.lines_of(s))
        .collect();
    format!(
        "{} {} {:?} {:?} {lines:?} {position}",
        referee.turns(),
        referee.result(),
        referee.to_move(),
        referee.phase(),
    )
}

/// `text` checked as `check` reads it (the short way for plain
/// turns) and replayed in full: the same referee, or the same error.
fn same_both_ways<G: Game>(text: &str) -> Result<String, String> {
    let reader = stream::Reader::new(text.as_bytes()).expect("a plain record");
    let streamed = Replay::<G>::check(reader, None)
        .map(|r| seen(&r))
        .map_err(|stop| format!("{stop:?}"));
    let source = Source::new(text.as_bytes()).unwrap();
    let parsed = match record::parse(&source) {
        Ok(parsed) => parsed,
        Err(e) => {
            let stop = streamed.expect_err(text);
            assert!(stop.contains(&format!("{:?}", e.message)), "{stop}");
            return Err(stop);
        }
    };
    let whole = replay_keeping::<G>(&parsed, Keep::RULES, |_, _| {})
        .and_then(|r| r.check_result().map(|()| r));
    match (&streamed, whole) {
        (Ok(a), Ok(b)) => assert_eq!(*a, seen(&b), "{text}"),
        (Err(stop), Err(e)) => assert!(stop.contains(&format!("{:?}", e.message)), "{stop}"),
        (a, b) => panic!("streamed {a:?}, whole {:?}", b.map(|r| seen(&r))),
    }
    streamed
}

/// Plain and committed self-play records of `G`, each checked both
/// ways whole, and with one of its late turn lines changed.
fn every_record_the_same<G: Game>(plain: bool) -> usize {
    let mut refused = 0;
    for seed in 0..12 {
        let mut options = Options::new::<G>(seed, G::MIN_SIDES);
        options.max_turns = 60;
        options.commitments = !plain;
        let Ok(text) = selfplay::record::<G>(&options) else {
            continue;
        };
        assert!(same_both_ways::<G>(&text).is_ok(), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        // The turn lines (`12. Blue: ...`); the one three quarters in.
        let turns: Vec<usize> = (0..lines.len())
            .filter(|&k| {
                let l = lines[k];
                l.starts_with(|c: char| c.is_ascii_digit()) && l.contains(". ") && l.contains(": ")
            })
            .collect();
        let Some(&last) = turns.last() else {
            continue;
        };
        let at = turns[turns.len() * 3 / 4];
        let changed = |with: &dyn Fn(&str) -> String| {
            let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            out[at] = with(lines[at]);
            out.join("\n") + "\n"
        };
        let (head, body) = lines[at].split_once(": ").unwrap();
        let (number, side) = head.split_once(". ").unwrap();
        let other = if side == G::SIDES[0] {
            G::SIDES[1]
        } else {
            G::SIDES[0]
        };
        for text in [
            changed(&|_| format!("{number}. {other}: {body}")),
            changed(&|_| format!("{}. {side}: {body}", number.parse::<u32>().unwrap() + 1)),
            changed(&|_| format!("{number}. {side}: no-such-action")),
            changed(&|_| format!("{number}. {side}: pass")),
            changed(&|_| format!("{number}. {side}: {body}, {body}")),
            changed(&|_| format!("{number}. {side}: {body}, resign")),
            changed(&|_| format!("{number}. {side}: {body}, offer draw")),
            changed(&|_| format!("{number}. {}: {body}", side.to_uppercase())),
            format!("{text}{}. {side}: pass\n", last + 1000),
        ] {
            refused += usize::from(same_both_ways::<G>(&text).is_err());
        }
    }
    refused
}

/// Whether `G` deals hidden hands at its defaults (Battlegates): none
/// of its lines takes the short way (a game with a deck), and its
/// self-play pays the deck's cryptography on every draw.
fn deals_hidden_hands<G: Game>() -> bool {
    let sides: Vec<Side> = (0..G::MIN_SIDES).map(|i| Side(i as u8)).collect();
    let tags = Options::new::<G>(0, G::MIN_SIDES).tags;
    G::new_game(&Setup {
        sides: &sides,
        tags: &tags,
    })
    .is_ok_and(|state| G::hidden_deck(&state).is_some())
}

#[test]
fn a_plain_turn_played_the_short_way_leaves_the_referee_as_the_full_play() {
    // Each game's records, whole and with lines changed, plain (a game
    // without hidden choices, which need key files) and committed
    // (where no turn takes the short way): most changes are refused,
    // each with the error of the full play. Every game of the registry
    // but one dealing hidden hands.
    fn each_way<G: Game>() -> Vec<(&'static str, bool)> {
        if deals_hidden_hands::<G>() {
            return Vec::new();
        }
        let mut ways = vec![false];
        if G::SETUP_CHOICES.is_empty() {
            ways.insert(0, true);
        }
        for &plain in &ways {
            let refused = every_record_the_same::<G>(plain);
            assert!(refused > 30, "{} plain {plain}: {refused} refused", G::ID);
        }
        ways.into_iter().map(|plain| (G::ID, plain)).collect()
    }
    macro_rules! each {
        ($($module:ident: $game:ty),*) => {
            vec![$(each_way::<$game>()),*]
        };
    }
    let tried: Vec<(&str, bool)> = herald::for_each_game!(each).concat();
    assert_eq!(
        tried,
        [
            ("castle-danger", true),
            ("castle-danger", false),
            ("battle-of-the-dale", true),
            ("battle-of-the-dale", false),
            ("breach-the-keep", true),
            ("breach-the-keep", false),
            ("playground-battles", false),
        ]
    );
}
