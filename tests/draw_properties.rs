//! Properties of draws by agreement over random legal games (made by
//! `herald::selfplay`, without commitments so that lines can be edited by
//! hand): a game cut after any turn, that turn's line given `offer draw`
//! and the other side's next line `accept draw`, checks clean as a draw by
//! agreement; with the acceptance stripped the Result tag is caught, and
//! with the offer stripped the acceptance is refused at its turn.
//!
//! Every game of the registry (`herald::for_each_game!`) that self-play
//! can play without commitments for two sides gets them ([`editable`]).

use herald::game::{Game, Setup, Side};
use herald::games::castle_danger::CastleDanger;
use herald::record::{self, Source};
use herald::referee;
use herald::selfplay;
use proptest::prelude::*;

/// The turn at fault, `u32::MAX` for a Result tag the replay disagrees
/// with, `None` for a valid record.
fn first_error<G: Game>(text: &str) -> Option<u32> {
    let source = Source::new(text.as_bytes()).unwrap();
    let rec = match record::parse(&source) {
        Ok(r) => r,
        Err(e) => panic!("does not parse: {}\n{text}", e.message),
    };
    match referee::replay::<G>(&rec, |_, _| {}) {
        Ok(referee) => referee.check_result().err().map(|_| u32::MAX),
        Err(e) => Some(e.turn.unwrap_or(0)),
    }
}

/// The record's turn lines, each with its continuation lines, and the
/// header (everything before the first turn).
fn split(text: &str) -> (String, Vec<String>) {
    let mut header = String::new();
    let mut turns: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        let starts_turn = line.chars().next().is_some_and(|c| c.is_ascii_digit());
        match (starts_turn, turns.last_mut()) {
            (true, _) => turns.push(line.to_owned()),
            (false, Some(last)) if line.starts_with(' ') => last.push_str(line),
            (false, Some(_)) => {}
            (false, None) => header.push_str(line),
        }
    }
    (header, turns)
}

/// Whether draws by agreement are tried on `G` here, and with which
/// option tags: a game self-play can play without commitments (so that
/// its lines can be edited by hand), for two sides (the offer on one
/// line, the acceptance on the next). Not one with hidden choices (they
/// need key files); one that deals hidden hands at its defaults plays
/// them open (Battlegates' `Hands "open"`), as the engine properties do.
fn editable<G: Game>() -> Option<Vec<(String, String)>> {
    if !G::SETUP_CHOICES.is_empty() || !(G::MIN_SIDES..=G::MAX_SIDES).contains(&2) {
        return None;
    }
    let starts = |tags: &[(String, String)]| {
        let sides = [Side(0), Side(1)];
        G::new_game(&Setup {
            sides: &sides,
            tags,
        })
        .ok()
    };
    let defaults = selfplay::Options::new::<G>(0, 2).tags;
    let state = starts(&defaults)?;
    if G::hidden_deck(&state).is_none() {
        return Some(defaults);
    }
    let mut open = defaults;
    for option in G::OPTIONS.iter().filter(|o| o.default == "hidden") {
        open.retain(|(name, _)| name != option.name);
        open.push((option.name.to_owned(), "open".to_owned()));
    }
    starts(&open)
        .filter(|s| G::hidden_deck(s).is_none())
        .map(|_| open)
}

/// The game of `seed` cut after turn `k` (of those that leave it
/// running), with the offer on turn k and the acceptance on turn k+1:
/// the agreed record, and those with the acceptance or the offer
/// stripped. `None` when turn k is a pass (a pass stands alone).
fn agreed<G: Game>(seed: u64, pick: usize) -> Option<(u32, String, String, String)> {
    let mut options = selfplay::Options::new::<G>(seed, 2);
    options.tags = editable::<G>()?;
    options.max_turns = 30;
    options.commitments = false;
    let text = selfplay::record::<G>(&options).unwrap();
    let (header, turns) = split(&text);
    if turns.len() < 2 {
        return None;
    }
    // A turn followed by another: the game still ran after it.
    let k = pick % (turns.len() - 1);
    let line = turns[k].trim_end();
    if line.ends_with(": pass") {
        return None;
    }
    let number = (k + 1) as u32;
    let next_side = turns[k + 1]
        .split_once(". ")
        .and_then(|(_, rest)| rest.split_once(':'))
        .map(|(side, _)| side.to_owned())
        .unwrap();
    let head = header.replace(
        &header[header.find("[Result ").unwrap()..][..header[header.find("[Result ").unwrap()..]
            .find('\n')
            .unwrap()],
        "[Result \"draw:agreement\"]",
    );
    let before: String = turns[..k].concat();
    let offer = format!("{line}, offer draw\n");
    let accept = format!("{}. {next_side}: accept draw\n", number + 1);
    Some((
        number,
        format!("{head}{before}{offer}{accept}"),
        format!("{head}{before}{offer}"),
        format!("{head}{before}{line}\n{accept}"),
    ))
}

fn draw_properties<G: Game>(seed: u64, pick: usize) -> Result<(), TestCaseError> {
    let Some((k, agreed, no_acceptance, no_offer)) = agreed::<G>(seed, pick) else {
        return Ok(());
    };
    prop_assert_eq!(first_error::<G>(&agreed), None, "{}", agreed);
    prop_assert_eq!(
        first_error::<G>(&no_acceptance),
        Some(u32::MAX),
        "{}",
        no_acceptance
    );
    prop_assert_eq!(first_error::<G>(&no_offer), Some(k + 1), "{}", no_offer);
    Ok(())
}

/// Every game of the registry, each a module of its own named after the
/// game's, the properties tried where [`editable`] says so.
macro_rules! draw_properties {
    ($($module:ident: $game:ty),*) => {
        $(
            mod $module {
                use super::*;

                proptest! {
                    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

                    #[test]
                    fn an_agreed_draw_checks_and_a_stripped_word_is_caught(
                        seed in any::<u64>(), pick in any::<usize>()
                    ) {
                        draw_properties::<$game>(seed, pick)?;
                    }
                }
            }
        )*
    };
}

herald::for_each_game!(draw_properties);

/// The properties are not vacuous: many random games give a record to
/// edit (the rest pass on the turn picked, and a pass stands alone).
#[test]
fn many_games_give_an_offer_to_make() {
    let made = (0..20u64)
        .filter(|&seed| agreed::<CastleDanger>(seed, seed as usize * 7).is_some())
        .count();
    assert!(made >= 8, "only {made} of 20");
    let (_, agreed, _, _) = (0..20u64)
        .find_map(|seed| agreed::<CastleDanger>(seed, seed as usize * 7))
        .unwrap();
    assert!(agreed.contains(", offer draw\n"), "{agreed}");
    assert!(agreed.contains(": accept draw\n"), "{agreed}");
}

/// Which games the properties are tried on, from the registry: every
/// game [`editable`] takes, each giving records to edit. Castle Danger,
/// Breach The Keep and Battle of the Dale (no hidden choices) are among
/// them; Playground Battles' armies and Battlegates' mazes are hidden
/// choices, so their records always carry commitments.
#[test]
fn the_editable_games_of_the_registry_each_give_offers_to_make() {
    fn made<G: Game>() -> Option<(&'static str, usize)> {
        editable::<G>()?;
        let made = (0..20u64)
            .filter(|&seed| agreed::<G>(seed, seed as usize * 7).is_some())
            .count();
        Some((G::ID, made))
    }
    macro_rules! each {
        ($($module:ident: $game:ty),*) => {
            vec![$(made::<$game>()),*]
        };
    }
    let tried: Vec<(&str, usize)> = herald::for_each_game!(each).into_iter().flatten().collect();
    let ids: Vec<&str> = tried.iter().map(|(id, _)| *id).collect();
    assert_eq!(
        ids,
        ["castle-danger", "battle-of-the-dale", "breach-the-keep"]
    );
    for (id, made) in tried {
        assert!(made >= 8, "{id}: only {made} of 20");
    }
}
