//! The short way of a plain turn (`Referee::play_plain`, issue 30) is
//! the fast branch of the one play path: every game's self-play
//! records, whole and with a late turn line changed in many ways, must
//! give, turn by turn, the turn played and the referee (turns, result,
//! side to move, phase, each side's lines, the position) or the error
//! that the full play gives (`Referee::play_line`, which composing a
//! line uses and which never takes the short way); and `check`, which
//! reads the record a part at a time, the same.

use herald::game::{Game, Setup, Side};
use herald::record::{self, stream, Record, Source};
use herald::referee::{Keep, Line, PlayedTurn, Referee, RefereeError, Replay};
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

/// What a reader sees of a turn played: everything it holds, the
/// position before its first action (when kept) as text.
fn played<G: Game>(p: &PlayedTurn<G>) -> String {
    let before = p.before.as_ref().map(|state| {
        let mut text = String::new();
        G::write_position(state, &mut text);
        text
    });
    format!(
        "{} {:?} {before:?} {:?} {} {:?} {:?} {:?} {:?} {} {} {:?} {:?} {:?} {} {:?}",
        p.number,
        p.side,
        p.actions,
        p.resign,
        p.draw,
        p.chance,
        p.reveal,
        p.kind,
        p.audit,
        p.farewell,
        p.shown,
        p.claimant,
        p.sig.map(|s| s.to_vec()),
        p.deck.len(),
        p.date,
    )
}

/// What the one play path keeps for a reader that keeps each turn's
/// position and the chance values, but no digest (which a turn taken
/// the short way never has to work out).
const KEPT: Keep = Keep {
    digest: false,
    before: true,
    chance: true,
    today: None,
};

/// `record` played turn by turn two ways, in lockstep: by
/// [`Referee::play`] (the play path, the short way where it applies)
/// and by [`Referee::play_line`] (the full play); each turn played
/// and each referee after it the same, or the same error. Gives the
/// referee after the last turn, its `Result` tag checked, or the error.
fn fast_and_full<G: Game>(record: &Record<'_>, keep: Keep) -> Result<String, String> {
    let start = || Referee::<G>::start(record).map(|r| r.keeping(keep));
    let (mut fast, mut full) = match (start(), start()) {
        (Ok(fast), Ok(full)) => (fast, full),
        (Err(e), Err(_)) => return Err(format!("{:?}", e.message)),
        _ => unreachable!("one header read two ways"),
    };
    for turn in &record.turns {
        let line = Line::from_turn(turn);
        let fast_played = fast.play(turn).map(|p| played::<G>(&p));
        let full_played = full
            .play_line(&line)
            .map(|p| played::<G>(&p))
            .map_err(|e| e.in_turn(turn));
        match (fast_played, full_played) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "turn {}", turn.number);
                assert_eq!(seen(&fast), seen(&full), "turn {}", turn.number);
                assert_eq!(fast.chance(), full.chance(), "turn {}", turn.number);
            }
            (Err(a), Err(b)) => {
                assert_eq!(same_error(&a), same_error(&b));
                return Err(format!("{:?}", a.message));
            }
            (a, b) => panic!("turn {}: play {a:?}, full play {b:?}", turn.number),
        }
    }
    fast.check_result()
        .map_err(|e| format!("{:?}", e.message))?;
    Ok(seen(&fast))
}

/// An error as a reader sees it: its message and where it stands.
fn same_error(e: &RefereeError) -> String {
    format!("{:?} {:?} {:?}", e.message, e.span, e.kind)
}

/// `text` checked as `check` reads it (a part at a time, on the play
/// path), and played whole both ways ([`fast_and_full`], keeping only
/// what the rules need and keeping more): the same referee, or the
/// same error.
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
    let whole = fast_and_full::<G>(&parsed, Keep::RULES);
    assert_eq!(whole, fast_and_full::<G>(&parsed, KEPT), "{text}");
    match (&streamed, whole) {
        (Ok(a), Ok(b)) => assert_eq!(*a, b, "{text}"),
        (Err(stop), Err(e)) => assert!(stop.contains(&e), "{stop}"),
        (a, b) => panic!("streamed {a:?}, whole {b:?}"),
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
            // A committed line's reveal, one digit changed: the chain
            // breaks (a plain record is left as it is).
            tampered(&text, &lines, at, "reveal ", |rest| {
                let digit = if rest.starts_with('0') { "1" } else { "0" };
                format!("{digit}{}", &rest[1..])
            }),
            // A chance fact written with another value (a line without
            // one is left as it is).
            tampered(&text, &lines, at, "=", |rest| format!("x{rest}")),
        ] {
            refused += usize::from(same_both_ways::<G>(&text).is_err());
        }
    }
    refused
}

/// `text` with the first `word` at or after its line `at` (of `lines`)
/// followed by what `change` makes of the rest of that line.
fn tampered(
    text: &str,
    lines: &[&str],
    at: usize,
    word: &str,
    change: impl Fn(&str) -> String,
) -> String {
    let from: usize = lines[..at].iter().map(|l| l.len() + 1).sum();
    let Some(found) = text[from..].find(word) else {
        return text.to_string();
    };
    let start = from + found + word.len();
    let end = start + text[start..].find('\n').unwrap_or(text.len() - start);
    format!(
        "{}{}{}",
        &text[..start],
        change(&text[start..end]),
        &text[end..]
    )
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
    // (their lines carry a reveal, and chance facts in the games with
    // chance): most changes are refused,
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
