//! Castle Danger (`castle-danger`): two sides, Blue and Red, on a 7 x 9
//! board split by a river; hit the enemy King with a cannonball.
//! Rules: `docs/games/castle-danger.md` section 6.

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

use crate::game::{
    ActionParseError, Chance, DiagramStyle, Game, Illegal, OptionTag, Outcome, PositionParseError,
    Setup, SetupError, Side,
};

pub use action::{Action, Route};
pub use board::Sq;
pub use state::{Cell, End, Event, Kind, State};

use board::side_name as name;

/// The Castle Danger engine.
pub struct CastleDanger;

/// "no Wizards", "1 Wizard", "2 Wizards".
fn wizards(n: u8) -> String {
    match n {
        0 => "no Wizards".to_string(),
        1 => "1 Wizard".to_string(),
        n => format!("{n} Wizards"),
    }
}

/// This game's rules and rulings (`docs/games/castle-danger.md`), built into the
/// binary for `herald rules castle-danger`.
pub const RULES_TEXT: &str = include_str!("../../../docs/games/castle-danger.md");

impl Game for CastleDanger {
    type State = State;
    type Action = Action;

    const ID: &'static str = "castle-danger";
    const TITLE: &'static str = "Castle Danger";
    const SIDES: &'static [&'static str] = &["Blue", "Red"];
    const MIN_SIDES: usize = 2;
    const MAX_SIDES: usize = 2;
    const OPTIONS: &'static [OptionTag] = &[];

    fn new_game(setup: &Setup<'_>) -> Result<State, SetupError> {
        crate::games::two_sides::check_sides::<Self>(setup)?;
        Ok(State::start())
    }

    fn to_move(state: &State) -> Side {
        state.to_move
    }

    fn outcome(state: &State) -> Outcome {
        state.outcome
    }

    fn begin_turn(state: &mut State, _chance: &mut dyn Chance) -> Result<(), Illegal> {
        if !state.outcome.is_over() {
            rules::start_turn(state);
        }
        Ok(())
    }

    fn parse_action(state: &State, text: &str) -> Result<Action, ActionParseError> {
        notation::parse(state, text).map_err(|e| crate::games::reader::suggest_word(text, e, &[]))
    }

    fn apply(state: &mut State, action: Action) -> Result<(), Illegal> {
        rules::apply(state, action)
    }

    fn end_turn(state: &mut State) -> Result<(), Illegal> {
        rules::end_turn(state);
        Ok(())
    }

    fn resign(state: &mut State, side: Side) {
        rules::resign(state, side);
    }

    fn write_action(action: &Action, out: &mut String) {
        notation::write(action, out);
    }

    fn legal_actions(state: &State, out: &mut Vec<Action>) {
        rules::legal_actions(state, out);
    }

    fn action_cost(state: &State, action: &Action) -> Option<u32> {
        rules::cost(state, action).map(u32::from)
    }

    fn summary(state: &State) -> String {
        match (state.outcome, state.end) {
            (Outcome::Won(w), End::KingHit { side, at }) => {
                format!("{} won: {}'s King was hit on {at}", name(w), name(side))
            }
            (Outcome::Won(w), End::Resigned(side)) => {
                format!("{} won: {} resigned", name(w), name(side))
            }
            (Outcome::Won(_) | Outcome::TeamWon(_), _) => format!(
                "{} won",
                state.outcome.winners::<CastleDanger>().unwrap_or_default()
            ),
            (Outcome::Draw, _) => "draw".to_string(),
            (Outcome::Ongoing, _) => {
                let me = name(state.to_move);
                let t = &state.turn;
                if state.active && t.acted {
                    format!(
                        "{me} to move: {} of {} moves left ({})",
                        t.moves_left,
                        t.moves_total,
                        wizards(t.wizards)
                    )
                } else {
                    let w = state.count(state.to_move, Kind::Wizard);
                    format!(
                        "{me} to move: {} moves ({})",
                        3 + 3 * u32::from(w),
                        wizards(w)
                    )
                }
            }
        }
    }

    fn turn_comment(_before: &State, after: &State) -> String {
        diagram::comment(after)
    }

    fn picture(state: &State) -> Option<crate::picture::Picture> {
        Some(picture::picture(state))
    }

    fn diagram(state: &State, style: DiagramStyle) -> String {
        diagram::draw(state, style)
    }

    fn write_position(state: &State, out: &mut String) {
        position::write(state, out);
    }

    fn parse_position(text: &str) -> Result<State, PositionParseError> {
        position::parse(text)
    }
}
