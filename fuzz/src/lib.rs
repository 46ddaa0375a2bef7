//! What the fuzz targets run, shared so that each target file stays one
//! line. Every function here must not panic on any input: a panic is a bug
//! in herald (or a broken oracle below), which libFuzzer reports as a crash.
//!
//! - [`record`]: bytes -> `Source::new` -> `record::parse`, and every span
//!   of the result (or of the error) located and rendered as the CLI does.
//! - [`stream`]: bytes read a part at a time (`record::stream::Reader`,
//!   parts of 1 to 256 bytes) against the whole read: the same turns, or
//!   the same error at the same line and column.
//! - [`check`]: bytes -> what `herald check` does, for whichever game the
//!   `Game` tag names (`games::dispatch` + `referee::replay` +
//!   `check_result`), errors rendered as the CLI renders them.
//! - [`action_round_trip`]: one game's action parser on a few positions,
//!   with a round-trip oracle; [`action_target!`] makes a target of it.
//! - [`position_round_trip`]: one game's position parser, with a
//!   round-trip oracle; [`position_target!`] makes a target of it.
//! - [`maze_round_trip`]: Battlegates' maze set-up text, with a
//!   round-trip oracle and the set-up rules run on what it reads.
//! - [`action_every_game`] and [`position_every_game`]: the two
//!   round trips above for every game of the registry
//!   (`herald::for_each_game!`), the first byte of the input choosing
//!   the game, or `HERALD_FUZZ_GAME` keeping a run to one game: a new
//!   game is fuzzed with no edit here, and has no target of its own.

use herald::game::{action_text, position_text, DiagramStyle, Game, Undrawn};
use herald::games::{self, GameVisitor};
use herald::record::{self, Source, Span};
use herald::referee::{self, result_text, Referee, RefereeError};
use herald::selfplay;
use herald::Problem;

pub use herald;
pub use libfuzzer_sys;

/// `HERALD_FUZZ_SKIP_KNOWN=1` fuzzes past the known crash (README.md,
/// "Found"): an error whose underline cuts a multi-byte character makes
/// annotate-snippets panic in `Problem::render`. With it set, such an
/// error is not rendered (its JSON form still is); nothing else changes.
fn skip_known() -> bool {
    static SKIP: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SKIP.get_or_init(|| std::env::var_os("HERALD_FUZZ_SKIP_KNOWN").is_some_and(|v| v == "1"))
}

/// Locate a span as an error message does (`Problem::locate`): its line
/// and column, and the range of its line to underline. Returns whether
/// that range falls on character boundaries (else rendering panics).
fn locate(source: &Source, span: Span) -> bool {
    // An error at the end of the text covers the one byte past it (the
    // parser's convention; `line_of` clamps it), so allow `len + 1`.
    assert!(
        span.start <= span.end && span.end <= source.text().len() + 1,
        "span {span:?} outside the clean text ({} bytes)",
        source.text().len()
    );
    let _ = source.position(span.start);
    let _ = source.original_offset(span.start);
    let _ = source.original_line_end(span.start);
    let (_, line, range) = source.line_of(span);
    range.start <= range.end
        && range.end <= line.len()
        && line.is_char_boundary(range.start)
        && line.is_char_boundary(range.end)
}

/// What the CLI prints for a problem: the rendered text and the JSON.
fn show(problem: &Problem, renderable: bool) {
    if renderable || !skip_known() {
        let _ = problem.render("fuzz");
    }
    let _ = problem.json();
}

/// The `record` target: the record layer alone.
pub fn record(data: &[u8]) {
    let source = match Source::new(data) {
        Ok(source) => source,
        Err(e) => return show(&Problem::from_input(&e), true),
    };
    match record::parse(&source) {
        Ok(parsed) => {
            for tag in &parsed.tags {
                locate(&source, tag.span);
                locate(&source, tag.value_span);
            }
            for turn in &parsed.turns {
                locate(&source, turn.span);
                locate(&source, turn.number_span);
                locate(&source, turn.side_span);
                for item in &turn.items {
                    locate(&source, item.span);
                }
                for span in [turn.pass, turn.resign, turn.reveal().map(|r| r.span)]
                    .into_iter()
                    .flatten()
                {
                    locate(&source, span);
                }
            }
        }
        Err(e) => {
            let renderable = locate(&source, e.span);
            show(&Problem::from_parse(&e, &source), renderable);
        }
    }
}

/// Replay a parsed record as `herald check` does, for game `G`.
struct Check<'a> {
    source: &'a Source,
    record: &'a record::Record<'a>,
}

impl GameVisitor for Check<'_> {
    type Output = ();
    fn visit<G: Game>(self) -> Self::Output {
        let replayed =
            referee::replay::<G>(self.record, |_, _| {}).and_then(|r| r.check_result().map(|()| r));
        match replayed {
            Ok(referee) => {
                let _ = result_text::<G>(referee.outcome());
                let _ = G::summary(referee.state());
                let _ = referee.pending();
            }
            Err(e) => report(&e, self.source),
        }
    }
}

fn report(e: &RefereeError, source: &Source) {
    let renderable = e.span.is_none_or(|span| locate(source, span));
    show(&Problem::from_referee(e, source), renderable);
}

/// The `check` target: `herald check` on arbitrary bytes, any game.
pub fn check(data: &[u8]) {
    let source = match Source::new(data) {
        Ok(source) => source,
        Err(e) => return show(&Problem::from_input(&e), true),
    };
    let parsed = match record::parse(&source) {
        Ok(parsed) => parsed,
        Err(e) => {
            let renderable = locate(&source, e.span);
            return show(&Problem::from_parse(&e, &source), renderable);
        }
    };
    let id = match referee::game_tag(&parsed) {
        Ok(id) => id,
        Err(e) => return report(&e, &source),
    };
    let visited = games::dispatch(
        id,
        Check {
            source: &source,
            record: &parsed,
        },
    );
    if let Err(unknown) = visited {
        let tag = parsed.tag("Game").map(|t| t.value_span);
        report(&RefereeError::record(tag, unknown.to_string()), &source);
    }
}

/// A few positions of game `G` to parse actions on: the start position,
/// then positions reached by self-play (fewest and most sides), at the
/// start of a turn and after each of its first actions (mid-turn too).
pub fn positions<G: Game>() -> Vec<G::State> {
    let mut out = Vec::new();
    for (seed, commitments, sides) in [
        (11, true, G::MIN_SIDES),
        (12, false, G::MIN_SIDES),
        (13, true, G::MAX_SIDES),
    ] {
        let mut options = selfplay::Options::new::<G>(seed, sides);
        options.max_turns = 40;
        options.commitments = commitments;
        // A game that needs commitments fails without them: skip that one.
        let Ok(text) = selfplay::record::<G>(&options) else {
            continue;
        };
        let source = Source::new(text.as_bytes()).expect("self-play text is a record");
        let parsed = record::parse(&source).expect("self-play record parses");
        if out.is_empty() {
            let start = Referee::<G>::start(&parsed).expect("self-play header");
            out.push(start.state().clone());
        }
        let every = 7 + seed as u32;
        referee::replay::<G>(&parsed, |played, _| {
            if played.number % every != 2 {
                return;
            }
            // `replay` keeps each played turn's position before it (a
            // closing line, which plays nothing, has none).
            let Some(before) = played.before.clone() else {
                return;
            };
            let mut state = *before;
            out.push(state.clone());
            for &action in played.actions.iter().take(3) {
                if G::apply(&mut state, action).is_err() {
                    break;
                }
                out.push(state.clone());
            }
        })
        .expect("self-play record replays");
    }
    assert!(!out.is_empty(), "no self-play game of {}", G::ID);
    out
}

/// The action-parser target of game `G`: `text` through
/// [`Game::parse_action`] on each position; whenever it parses, its
/// canonical text ([`Game::write_action`]) must parse to the same action
/// and print the same text again. A parse error must point inside the
/// text. A parsed action is also applied (it may be refused, not panic).
pub fn action_round_trip<G: Game>(positions: &[G::State], data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for state in positions {
        match G::parse_action(state, text) {
            Ok(action) => {
                let _ = G::action_cost(state, &action);
                if G::apply(&mut state.clone(), action).is_err() {
                    // An action that is not legal here is refused by the
                    // referee before anything is written, so only legal
                    // actions must print and read back as themselves
                    // (e.g. a Castle Danger path with a gap keeps its
                    // fault for the reason but prints by its ends).
                    continue;
                }
                let written = action_text::<G>(&action);
                let again = match G::parse_action(state, &written) {
                    Ok(again) => again,
                    Err(e) => panic!(
                        "{text:?} parsed as {action:?}, but its canonical text {written:?} \
                         does not parse: {e:?}"
                    ),
                };
                assert_eq!(
                    again, action,
                    "{text:?} parsed as {action:?}, its canonical text {written:?} as {again:?}"
                );
                assert_eq!(
                    action_text::<G>(&again),
                    written,
                    "canonical text of {text:?} is not stable"
                );
            }
            Err(e) => {
                let end = e.offset.checked_add(e.len);
                assert!(
                    end.is_some_and(|end| end <= text.len()
                        && text.is_char_boundary(e.offset)
                        && text.is_char_boundary(end))
                        && (text.is_empty() || e.len >= 1),
                    "parse error {e:?} does not point inside {text:?}"
                );
            }
        }
    }
}

/// An action-parser fuzz target for one game type:
/// `herald_fuzz::action_target!(herald::games::castle_danger::CastleDanger);`
/// (positions are made once per process).
#[macro_export]
macro_rules! action_target {
    ($game:ty) => {
        ::std::thread_local! {
            static POSITIONS: ::std::vec::Vec<<$game as $crate::herald::game::Game>::State> =
                $crate::positions::<$game>();
        }
        $crate::libfuzzer_sys::fuzz_target!(|data: &[u8]| {
            POSITIONS.with(|positions| $crate::action_round_trip::<$game>(positions, data));
        });
    };
}

/// The position-parser target of game `G`: `data` through
/// [`Game::parse_position`]; whenever it parses, its canonical text
/// ([`Game::write_position`]) must read back as a state that writes the
/// same text, and the state is drawn, summed up and played on (its turn
/// begun, its legal actions listed): nothing may panic. A parse error
/// must point inside the text.
pub fn position_round_trip<G: Game>(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match G::parse_position(text) {
        Ok(state) => {
            let written = position_text::<G>(&state);
            let again = match G::parse_position(&written) {
                Ok(again) => again,
                Err(e) => {
                    panic!("{text:?} read, but its canonical text {written:?} does not: {e:?}")
                }
            };
            assert_eq!(
                position_text::<G>(&again),
                written,
                "canonical text of {text:?} is not stable"
            );
            let _ = G::diagram(&state, DiagramStyle { unicode: true });
            let _ = G::summary(&state);
            let mut state = state;
            if let Some(p) = G::pending(&state) {
                let values = vec![0; p.count as usize];
                let _ = G::settle(&mut state, &values);
            }
            if G::begin_turn(&mut state, &mut Undrawn).is_ok() {
                let mut legal = Vec::new();
                G::legal_actions(&state, &mut legal);
                if let Some(&action) = legal.first() {
                    let _ = G::apply(&mut state, action);
                }
                let _ = G::end_turn(&mut state);
            }
        }
        Err(e) => {
            let end = e.offset.checked_add(e.len);
            assert!(
                end.is_some_and(|end| end <= text.len()
                    && text.is_char_boundary(e.offset)
                    && text.is_char_boundary(end))
                    && (text.is_empty() || e.len >= 1),
                "position error {e:?} does not point inside {text:?}"
            );
        }
    }
}

/// The game of the registry that `pick` chooses: its index in
/// `games::GAMES`, modulo their number.
pub fn picked_game(pick: u8) -> &'static str {
    games::GAMES[usize::from(pick) % games::GAMES.len()].id
}

/// The first byte of a target's input chooses the game of the registry
/// (an index into `games::GAMES`, modulo their number) that
/// [`position_round_trip`] or [`action_round_trip`] gets the rest of.
struct Picked<'a> {
    text: &'a [u8],
    actions: bool,
}

impl GameVisitor for Picked<'_> {
    type Output = ();
    fn visit<G: Game>(self) {
        if !self.actions {
            return position_round_trip::<G>(self.text);
        }
        thread_local! {
            /// Each game's positions, made once per process.
            static POSITIONS: std::cell::RefCell<std::collections::HashMap<&'static str, Box<dyn std::any::Any>>> =
                Default::default();
        }
        POSITIONS.with(|all| {
            let mut all = all.borrow_mut();
            let made = all
                .entry(G::ID)
                .or_insert_with(|| Box::new(positions::<G>()));
            let positions = made
                .downcast_ref::<Vec<G::State>>()
                .expect("the positions kept under a game's id are its own");
            action_round_trip::<G>(positions, self.text);
        });
    }
}

/// The game a run of the `action` and `position` targets is kept to,
/// `HERALD_FUZZ_GAME` (a game's id or module, `castle-danger` or
/// `castle_danger`), if set: every input is then that game's text whole,
/// a run on one game for any game of the registry, with no target of its
/// own. A name the registry does not know stops the run at once.
fn one_game() -> Option<&'static str> {
    static GAME: std::sync::OnceLock<Option<&'static str>> = std::sync::OnceLock::new();
    *GAME.get_or_init(|| {
        let name = std::env::var("HERALD_FUZZ_GAME").ok()?;
        Some(game_named(&name).unwrap_or_else(|| {
            let ids: Vec<&str> = games::GAMES.iter().map(|g| g.id).collect();
            panic!(
                "HERALD_FUZZ_GAME={name}: no such game; the games: {}",
                ids.join(", ")
            )
        }))
    })
}

/// The id of the game of the registry named `name` (its id or module).
fn game_named(name: &str) -> Option<&'static str> {
    games::GAMES
        .iter()
        .find(|g| g.id == name || g.module == name)
        .map(|g| g.id)
}

/// The game an input is for and its text: `one`'s and the whole input
/// when a run is kept to one game, else the game the first byte picks
/// ([`picked_game`]) and the rest.
fn split_input<'a>(data: &'a [u8], one: Option<&'static str>) -> Option<(&'static str, &'a [u8])> {
    match one {
        Some(id) => Some((id, data)),
        None => data
            .split_first()
            .map(|(&pick, text)| (picked_game(pick), text)),
    }
}

/// The `action` target: [`action_round_trip`] for the game of the
/// registry that the first byte of `data` chooses, on the rest (or, with
/// `HERALD_FUZZ_GAME`, for that game on all of it).
pub fn action_every_game(data: &[u8]) {
    if let Some((id, text)) = split_input(data, one_game()) {
        let picked = Picked {
            text,
            actions: true,
        };
        games::dispatch(id, picked).expect("a registered game");
    }
}

/// The `position` target: [`position_round_trip`] for the game of the
/// registry that the first byte of `data` chooses, on the rest (or, with
/// `HERALD_FUZZ_GAME`, for that game on all of it).
pub fn position_every_game(data: &[u8]) {
    if let Some((id, text)) = split_input(data, one_game()) {
        let picked = Picked {
            text,
            actions: false,
        };
        games::dispatch(id, picked).expect("a registered game");
    }
}

/// A position-parser fuzz target for one game type:
/// `herald_fuzz::position_target!(herald::games::castle_danger::CastleDanger);`
#[macro_export]
macro_rules! position_target {
    ($game:ty) => {
        $crate::libfuzzer_sys::fuzz_target!(|data: &[u8]| {
            $crate::position_round_trip::<$game>(data);
        });
    };
}

/// The `mail` target: the mail decoder and the record finder on any
/// bytes, as every reader runs them (`record::records`: an mbox file, a
/// raw message or a text; `record::newest`), every record found located
/// and parsed, errors rendered; and, on UTF-8 text, the format=flowed and
/// HTML readers alone. Every body the decoder gives is text a record is
/// looked for in.
pub fn mail(data: &[u8]) {
    if let Ok(bodies) = record::mail::bodies(data) {
        for body in &bodies {
            assert!(body.part.is_some() || body.line_offset <= data.len());
        }
    }
    let _ = record::mail::envelope(data);
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = record::mail::unflow(text, false);
        let _ = record::mail::unflow(text, true);
        let _ = record::mail::html_text(text);
    }
    let found = match record::records(data) {
        Ok(found) => found,
        Err(e) => return show(&Problem::from_input(&e), true),
    };
    for f in &found {
        let _ = f.place();
        let _ = f.source.quote_note(0);
        match record::parse(&f.source) {
            Ok(parsed) => {
                for turn in &parsed.turns {
                    locate(&f.source, turn.span);
                    let _ = f.source.quote_note(turn.span.start);
                }
            }
            Err(e) => {
                let renderable = locate(&f.source, e.span);
                show(&Problem::from_parse(&e, &f.source), renderable);
            }
        }
    }
    if let Err(e) = record::newest(found, None) {
        show(&Problem::from_input(&e), true);
    }
}

/// The `maze_battlegates` target: `herald setup --maze` text through
/// Battlegates' reader ([`Game::read_choice`]); whenever it reads, every
/// value must be its slot's canonical piece ([`Game::check_hidden`]), the
/// values written out again must read back as the same slots and values,
/// and the set-up rules ([`Game::audit`]) are run on them for both sides
/// (a refusal is fine, a panic is not); on every set-up.
pub fn maze_round_trip(data: &[u8]) {
    use herald::games::battlegates::layouts::Layout;
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for layout in Layout::ALL {
        maze_round_trip_on(layout, text);
    }
}

/// [`maze_round_trip`] on the set-up `layout`: a maze read has as many
/// pieces as the set-up has slots (ten on one board, twenty in Misery
/// Run).
fn maze_round_trip_on(layout: herald::games::battlegates::layouts::Layout, text: &str) {
    use herald::game::Side;
    use herald::games::battlegates::{Battlegates, State};
    let start = State::new(layout);
    let Ok(values) = Battlegates::read_choice(&start, Side(0), "maze", text) else {
        return;
    };
    let slots = Battlegates::hidden_slots(&start, Side(0));
    assert_eq!(
        values.len(),
        slots.len(),
        "{layout:?}: {text:?} read as {values:?}: not one piece a slot"
    );
    for (slot, value) in &values {
        if let Err(e) = Battlegates::check_hidden(slot, value) {
            panic!("{text:?} read as {values:?}: {slot}={value} is refused: {e:?}");
        }
    }
    let written: Vec<&str> = values.iter().map(|(_, v)| v.as_str()).collect();
    let written = written.join(" ");
    let again = Battlegates::read_choice(&start, Side(0), "maze", &written)
        .unwrap_or_else(|e| panic!("{text:?} read, but {written:?} does not: {e:?}"));
    assert_eq!(again, values, "{text:?} and its canonical text {written:?}");
    let pairs: Vec<(&str, &str)> = values.iter().map(|(s, v)| (*s, v.as_str())).collect();
    for side in [Side(0), Side(1)] {
        let _ = Battlegates::audit(&start, side, &pairs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every seed of the `action` and `position` targets through them:
    /// their round-trip oracles hold, and each game of the registry has
    /// seeds there (the first byte picking it).
    #[test]
    fn every_game_seed_of_the_action_and_position_targets_runs_clean() {
        for (target, run) in [
            ("action", action_every_game as fn(&[u8])),
            ("position", position_every_game),
        ] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("seeds")
                .join(target);
            let mut seen = std::collections::BTreeSet::new();
            for entry in std::fs::read_dir(&dir).unwrap() {
                let data = std::fs::read(entry.unwrap().path()).unwrap();
                seen.insert(picked_game(data[0]));
                run(&data);
            }
            let every: std::collections::BTreeSet<&str> =
                games::GAMES.iter().map(|g| g.id).collect();
            assert_eq!(seen, every, "{target}");
        }
    }

    #[test]
    fn the_first_byte_picks_a_game_by_its_place_in_the_registry() {
        assert_eq!(picked_game(0), "castle-danger");
        assert_eq!(picked_game(1), "battle-of-the-dale");
        // Modulo the number of games: one past the last is the first.
        let past = u8::try_from(games::GAMES.len()).unwrap();
        assert_eq!(picked_game(past), "castle-danger");
    }

    /// `HERALD_FUZZ_GAME` keeps a run to one game by its id or module,
    /// every input that game's text whole; without it the first byte
    /// picks the game.
    #[test]
    fn a_run_kept_to_one_game_takes_each_input_whole_as_its_text() {
        assert_eq!(game_named("castle_danger"), Some("castle-danger"));
        assert_eq!(game_named("battlegates"), Some("battlegates"));
        assert_eq!(game_named("chess"), None);
        let one = game_named("breach-the-keep");
        assert_eq!(
            split_input(b"\x00Kc9", one),
            Some(("breach-the-keep", &b"\x00Kc9"[..]))
        );
        assert_eq!(
            split_input(b"\x00Kc9", None),
            Some(("castle-danger", &b"Kc9"[..]))
        );
        assert_eq!(split_input(b"", None), None);
        // Every game's own seeds (`seeds/action_<module>`) run through
        // the `action` target kept to that game.
        for game in games::GAMES {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("seeds")
                .join(format!("action_{}", game.module));
            let mut ran = 0;
            for entry in std::fs::read_dir(&dir).unwrap() {
                let data = std::fs::read(entry.unwrap().path()).unwrap();
                let (id, text) = split_input(&data, Some(game.id)).unwrap();
                let picked = Picked {
                    text,
                    actions: true,
                };
                games::dispatch(id, picked).unwrap();
                ran += 1;
            }
            assert!(ran > 0, "no seeds in {}", dir.display());
        }
    }
}

/// The `contact` target: a side tag's value read as a contact
/// (`record::Contact::parse`) never panics; a contact read has a name or
/// an address, an address is one `local@domain` with no space, and the
/// contact written back (`Name <address>`, `address` or `Name`) reads as
/// the same contact.
pub fn contact(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(c) = record::Contact::parse(text) else {
        return;
    };
    assert!(c.name().is_some() || c.address().is_some());
    if let Some(a) = c.address() {
        assert_eq!(a.matches('@').count(), 1, "{a:?}");
        assert!(!a.contains(char::is_whitespace), "{a:?}");
        // Both parts are dot-atoms (RFC 5322 3.2.3): no dot at the start
        // or end of either, no two in a row.
        for part in a.split('@') {
            assert!(
                !part.starts_with('.') && !part.ends_with('.') && !part.contains(".."),
                "{a:?}"
            );
        }
    }
    let again = match (c.name(), c.address()) {
        (Some(n), Some(a)) => format!("{n} <{a}>"),
        (None, Some(a)) => a.to_owned(),
        (Some(n), None) => n.to_owned(),
        (None, None) => unreachable!(),
    };
    assert_eq!(
        record::Contact::parse(&again),
        Ok(c),
        "{text:?} -> {again:?}"
    );
}

/// A turn as the `stream` target compares it: its kind, number, side and
/// how many items and proofs it carries, and its ending words.
fn turn_shape(turn: &record::Turn<'_>) -> String {
    format!(
        "{:?} {} {} {} {} {} {} {} {:?}",
        turn.kind,
        turn.number,
        turn.side,
        turn.items.len(),
        turn.proofs.len(),
        turn.pass.is_some(),
        turn.resign.is_some(),
        turn.audit.is_some(),
        turn.forfeit.map(|(_, by)| by),
    )
}

/// The `stream` target: the record read a part at a time
/// (`record::stream::Reader`, parts of 1 to 256 bytes, the first input
/// byte choosing), with an oracle: what it reads is what the whole read
/// (`Source::new` + `record::parse`) reads, the same turns, or the same
/// error at the same line and column; an input it hands back to be read
/// whole (a message, several records) is not compared.
pub fn stream(data: &[u8]) {
    use herald::record::stream::{ReadError, Reader, Stop, Visitor};
    let Some((&first, data)) = data.split_first() else {
        return;
    };
    struct Shapes(Vec<String>);
    impl Visitor for Shapes {
        type Error = std::convert::Infallible;
        fn turn(&mut self, turn: &record::Turn<'_>) -> Result<(), Self::Error> {
            self.0.push(turn_shape(turn));
            Ok(())
        }
        fn part_end(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }
    type Read = Result<Vec<String>, (String, usize, usize)>;
    let placed = |e: Box<(record::ParseError, Source)>| -> (String, usize, usize) {
        let (e, source) = *e;
        let at = source.position(e.span.start);
        (e.message, at.line, at.column)
    };
    let streamed: Read = match Reader::with_part(data, usize::from(first) + 1) {
        Err(ReadError::Whole | ReadError::Io(_)) => return,
        Err(ReadError::Parse(p)) => Err(placed(p)),
        Err(ReadError::Input(e)) => Err((e.message, e.position.line, e.position.column)),
        Ok(reader) => {
            let mut shapes = Shapes(Vec::new());
            match reader.visit(&mut shapes) {
                Ok(_) => Ok(shapes.0),
                Err(Stop::Read(ReadError::Whole | ReadError::Io(_))) => return,
                Err(Stop::Read(ReadError::Parse(p))) => Err(placed(p)),
                Err(Stop::Read(ReadError::Input(e))) => {
                    Err((e.message, e.position.line, e.position.column))
                }
                Err(Stop::Visit(never, _)) => match never {},
            }
        }
    };
    let whole: Read = match Source::new(data) {
        Err(e) => Err((e.message, e.position.line, e.position.column)),
        Ok(source) => match record::parse(&source) {
            Ok(parsed) => Ok(parsed.turns.iter().map(turn_shape).collect()),
            Err(e) => {
                let at = source.position(e.span.start);
                Err((e.message, at.line, at.column))
            }
        },
    };
    assert_eq!(
        streamed,
        whole,
        "read in parts of {} bytes",
        usize::from(first) + 1
    );
}
