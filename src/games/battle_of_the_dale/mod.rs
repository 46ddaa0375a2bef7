//! Battle of the Dale (`battle-of-the-dale`): two to five armies fight over
//! a map of 19 hexes around the Riverport of Chip. Rules:
//! `docs/games/battle-of-the-dale.md` section 8.

pub mod action;
pub mod board;
mod diagram;
pub mod notation;
mod picture;
pub mod position;
pub mod rules;
pub mod state;

#[cfg(test)]
mod tests;

pub use action::Action;
pub use board::Hex;
pub use state::{Kind, State};

use crate::game::{
    ActionParseError, Chance, ChanceRequest, DiagramStyle, Game, Illegal, Marked, OptionTag,
    Outcome, PositionParseError, Setup, SetupError, Side,
};
use state::{bit, starting_army, Opts, ARMIES};

/// The game engine.
pub struct BattleOfTheDale;

const OPTION_NAMES: &str = "prisoner-exchange, no-max-5-units, no-arms-race, no-hero-or-mounted";

fn parse_options(value: &str) -> Result<Opts, SetupError> {
    const KEYS: [&str; 4] = [
        "prisoner-exchange",
        "max-5-units",
        "arms-race",
        "hero-or-mounted",
    ];
    let err = |reason: String| SetupError {
        tag: Some("Options".to_string()),
        reason,
    };
    let mut set: [Option<bool>; 4] = [None; 4];
    for name in value.split_whitespace() {
        let lower = name.to_ascii_lowercase();
        let (base, on) = match lower.strip_prefix("no-") {
            Some(b) => (b, false),
            None => (lower.as_str(), true),
        };
        let Some(k) = KEYS.iter().position(|&key| key == base) else {
            return Err(err(format!(
                "unknown option `{name}` in Options (known: {OPTION_NAMES})"
            )));
        };
        if set[k] == Some(!on) {
            return Err(err(format!("Options turns {} both on and off", KEYS[k])));
        }
        set[k] = Some(on);
    }
    let d = Opts::default();
    Ok(Opts {
        prisoner_exchange: set[0].unwrap_or(d.prisoner_exchange),
        max5: set[1].unwrap_or(d.max5),
        arms_race: set[2].unwrap_or(d.arms_race),
        hero_or_mounted: set[3].unwrap_or(d.hero_or_mounted),
    })
}

/// This game's rules and rulings (`docs/games/battle-of-the-dale.md`), built into the
/// binary for `herald rules battle-of-the-dale`.
pub const RULES_TEXT: &str = include_str!("../../../docs/games/battle-of-the-dale.md");

impl Game for BattleOfTheDale {
    type State = State;
    type Action = Action;

    const ID: &'static str = "battle-of-the-dale";
    const TITLE: &'static str = "Battle of the Dale";
    const SIDES: &'static [&'static str] = &state::ARMY;
    const MIN_SIDES: usize = 2;
    const MAX_SIDES: usize = 5;
    const OPTIONS: &'static [OptionTag] = &[OptionTag {
        name: "Options",
        default: "",
        help: "optional rules, space-separated: prisoner-exchange (off unless named); \
               max-5-units, arms-race, hero-or-mounted are on unless turned off with \
               no-max-5-units, no-arms-race, no-hero-or-mounted",
    }];

    fn new_game(setup: &Setup<'_>) -> Result<State, SetupError> {
        let n = setup.sides.len();
        if !(Self::MIN_SIDES..=Self::MAX_SIDES).contains(&n) {
            return Err(SetupError {
                tag: None,
                reason: format!("Battle of the Dale needs 2 to 5 armies, got {n}"),
            });
        }
        let mut state = State::empty();
        for &s in setup.sides {
            if usize::from(s) >= 5 {
                return Err(SetupError {
                    tag: None,
                    reason: format!("side {} is not an army of Battle of the Dale", s.0),
                });
            }
            if state.plays(s) {
                return Err(SetupError {
                    tag: Some(state::ARMY[usize::from(s)].to_string()),
                    reason: format!("{} is listed twice", state::ARMY[usize::from(s)]),
                });
            }
            state.seat(s);
            state.reserve[usize::from(s)] = starting_army(s);
        }
        state.opts = parse_options(setup.tag("Options").unwrap_or(""))?;
        state.mover = state.order[0];
        Ok(state)
    }

    fn to_move(state: &State) -> Side {
        state.mover
    }

    fn outcome(state: &State) -> Outcome {
        state.result
    }

    fn pending(state: &State) -> Option<ChanceRequest> {
        state.pending.map(|r| ChanceRequest {
            label: "rally",
            n: 2,
            count: u32::from(r.flips),
        })
    }

    /// The rally coin reads `heads` (1) or `tails` (0).
    fn chance_text(_label: &str, value: u32) -> String {
        if value == 1 { "heads" } else { "tails" }.into()
    }

    fn settle(state: &mut State, values: &[u32]) -> Result<(), Illegal> {
        rules::settle(state, values)
    }

    fn begin_turn(state: &mut State, chance: &mut dyn Chance) -> Result<(), Illegal> {
        // Who could settle a rally declared on this turn (the next player
        // does): the referee knows, the rules only ask, and only about the
        // armies that play (the next player is always one of them).
        let settlers = ARMIES
            .into_iter()
            .filter(|&army| state.plays(army) && chance.can_settle(army))
            .fold(0, |mask, army| mask | bit(army));
        rules::begin_turn(state, settlers)
    }

    fn parse_action(_state: &State, text: &str) -> Result<Action, ActionParseError> {
        notation::parse(text).map_err(|e| {
            crate::games::reader::suggest_word(
                text,
                e,
                &["rally", "withdraw", "exchange", "offer-exchange", "force"],
            )
        })
    }

    fn apply(state: &mut State, action: Action) -> Result<(), Illegal> {
        rules::apply(state, action)
    }

    fn end_turn(state: &mut State) -> Result<(), Illegal> {
        rules::end_turn(state)
    }

    fn resign(state: &mut State, side: Side) {
        rules::resign(state, side)
    }

    /// A side that resigned or was eliminated takes no more turns (the
    /// others play on): it claims nothing, and no draw offer waits for it.
    fn takes_turns(state: &State, side: Side) -> bool {
        state.in_game(side)
    }

    fn write_action(action: &Action, out: &mut String) {
        notation::write(action, out)
    }

    fn legal_actions(state: &State, out: &mut Vec<Action>) {
        rules::legal_actions(state, out)
    }

    fn summary(state: &State) -> String {
        diagram::summary(state)
    }

    fn turn_comment(before: &State, after: &State) -> String {
        diagram::turn_comment(before, after)
    }

    fn picture(state: &State) -> Option<crate::picture::Picture> {
        Some(picture::picture(state))
    }

    fn diagram(state: &State, style: DiagramStyle) -> String {
        diagram::diagram(state, style, Marked::Mover)
    }

    fn diagram_marking(state: &State, style: DiagramStyle, marked: Marked) -> String {
        diagram::diagram(state, style, marked)
    }

    fn write_position(state: &State, out: &mut String) {
        position::write(state, out)
    }

    fn parse_position(text: &str) -> Result<State, PositionParseError> {
        position::parse(text)
    }
}
