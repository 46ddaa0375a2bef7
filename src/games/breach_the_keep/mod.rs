//! Breach The Keep (`breach-the-keep`): rules in `docs/games/breach-the-keep.md`
//! section 7.
//!
//! An action is one piece's whole path (`d1-d2-d3`, `Z-d1-d2`,
//! `d3:1-d4-d5`, `c3:2-c4-c5-c6-c7`, `c4-c3 apart` for a single entering
//! a Keep beside the single there) or a breach (`breach c3 +d2 +b4`,
//! `breach home`). A turn uses exactly 4 movement points when any legal way
//! exists, else the most a legal turn can use; `rules::end_turn` checks
//! that lazily (only when fewer than 4 were used) against the position at
//! the start of the turn.

mod action;
mod board;
mod diagram;
mod notation;
mod picture;
mod position;
mod rules;
mod state;
#[cfg(test)]
mod tests;

pub use action::{Action, Breach, Kind, Move};
pub use state::State;

use crate::game::{
    ActionParseError, Chance, DiagramStyle, Game, Illegal, OptionTag, Outcome, PositionParseError,
    Setup, SetupError, Side,
};
use crate::games::two_sides::opponent;
use board::{Name, HOME};
use rules::{side_name, SIDE_NAMES};
use state::{Pos, WinReason, BLACK, WHITE};

/// The Breach The Keep engine.
pub struct BreachTheKeep;

fn keep_value(setup: &Setup<'_>, tag: &str) -> Result<u8, SetupError> {
    match setup.tag(tag) {
        None => Ok(3),
        Some(v) => match v.trim().parse::<u8>() {
            Ok(n) if (1..=6).contains(&n) => Ok(n),
            _ => Err(SetupError {
                tag: Some(tag.to_string()),
                reason: format!("{tag} must be a number from 1 to 6"),
            }),
        },
    }
}

/// How `winner` won.
fn win_text(pos: &Pos, winner: Side) -> String {
    let (w, l) = (usize::from(winner), usize::from(opponent(winner)));
    let (wn, ln) = (SIDE_NAMES[w], SIDE_NAMES[l]);
    match pos.reason {
        WinReason::HomeBreach => format!("{wn} won: breached {ln}'s home Keep"),
        WinReason::Resigned => format!("{wn} won: {ln} resigned"),
        WinReason::Points => format!(
            "{wn} won: {ln} has {} points in play, needs {} to breach {wn}'s home Keep",
            pos.points[l],
            2 * pos.keep_value[w]
        ),
    }
}

fn points_line(pos: &Pos) -> String {
    format!(
        "White {} points in play, Black {}",
        pos.points[0], pos.points[1]
    )
}

/// This game's rules and rulings (`docs/games/breach-the-keep.md`), built into the
/// binary for `herald rules breach-the-keep`.
pub const RULES_TEXT: &str = include_str!("../../../docs/games/breach-the-keep.md");

impl Game for BreachTheKeep {
    type State = State;
    type Action = Action;

    const ID: &'static str = "breach-the-keep";
    const TITLE: &'static str = "Breach The Keep";
    const SIDES: &'static [&'static str] = &["White", "Black"];
    const MIN_SIDES: usize = 2;
    const MAX_SIDES: usize = 2;
    const OPTIONS: &'static [OptionTag] = &[
        OptionTag {
            name: "WhiteKeep",
            default: "3",
            help: "value of White's home Keep, 1 to 6: Black needs twice that in points to \
                   breach it",
        },
        OptionTag {
            name: "BlackKeep",
            default: "3",
            help: "value of Black's home Keep, 1 to 6: White needs twice that in points to \
                   breach it",
        },
    ];

    fn new_game(setup: &Setup<'_>) -> Result<State, SetupError> {
        let sides = setup.sides;
        if sides.len() != 2 || !sides.contains(&WHITE) || !sides.contains(&BLACK) {
            return Err(SetupError {
                tag: None,
                reason: "Breach The Keep is played by two sides, White and Black".to_string(),
            });
        }
        let white = keep_value(setup, "WhiteKeep")?;
        let black = keep_value(setup, "BlackKeep")?;
        Ok(State::from_pos(Pos::start([white, black])))
    }

    fn to_move(state: &State) -> Side {
        state.pos.side
    }

    fn outcome(state: &State) -> Outcome {
        state.pos.winner.map_or(Outcome::Ongoing, Outcome::Won)
    }

    fn begin_turn(state: &mut State, _chance: &mut dyn Chance) -> Result<(), Illegal> {
        rules::begin_turn(state);
        Ok(())
    }

    fn parse_action(state: &State, text: &str) -> Result<Action, ActionParseError> {
        notation::parse(&state.pos, text)
            .map_err(|e| crate::games::reader::suggest_word(text, e, &["breach", "home", "apart"]))
    }

    fn apply(state: &mut State, action: Action) -> Result<(), Illegal> {
        rules::apply(state, action)
    }

    fn end_turn(state: &mut State) -> Result<(), Illegal> {
        rules::end_turn(state)
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

    fn action_cost(_state: &State, action: &Action) -> Option<u32> {
        Some(match action {
            Action::Move(mv) => u32::from(mv.kind.allowance()),
            Action::Breach(_) => 0,
        })
    }

    fn summary(state: &State) -> String {
        let pos = &state.pos;
        if let Some(winner) = pos.winner {
            // A win on points names the loser's points already; the line
            // stays within 78 columns.
            return match pos.reason {
                WinReason::Points => win_text(pos, winner),
                _ => format!("{}; {}", win_text(pos, winner), points_line(pos)),
            };
        }
        let me = side_name(pos.side);
        let left = if pos.used == 0 {
            "4 movement points".to_string()
        } else {
            format!("{} of 4 movement points left", 4 - pos.used)
        };
        format!("{me} to move: {left}; {}", points_line(pos))
    }

    fn turn_comment(_before: &State, after: &State) -> String {
        let log = &after.log;
        let me = side_name(log.side);
        let opp = side_name(opponent(log.side));
        let mut parts: Vec<String> = Vec::new();
        for m in log.moves.iter().flatten() {
            let mut s = String::new();
            notation::write(&Action::Move(m.mv), &mut s);
            let dest = Name(m.mv.dest());
            if m.took > 0 {
                let what = if m.took == 2 { "double" } else { "single" };
                s.push_str(&format!(" takes a {opp} {what}"));
            } else if m.keep && m.doubled {
                s.push_str(&format!(" enters the Keep {dest} and makes a double"));
            } else if m.keep && m.mv.apart {
                s.push_str(&format!(" enters the Keep {dest} beside the single there"));
            } else if m.keep {
                s.push_str(&format!(" enters the Keep {dest}"));
            } else if m.doubled {
                s.push_str(" makes a double");
            }
            parts.push(s);
        }
        for &(target, removed, n, apart) in &log.breaches[..usize::from(log.nbreach)] {
            if target == HOME {
                parts.push(format!("breached {opp}'s home Keep"));
            } else {
                let stacks = match (n, apart) {
                    (0, _) => "none moved in".to_string(),
                    (1, _) => "1 stack moved in".to_string(),
                    (_, false) => format!("{n} stacks moved in"),
                    (_, true) => format!("{n} stacks moved in, the singles apart"),
                };
                parts.push(format!(
                    "breached {} ({removed} points removed, {stacks})",
                    Name(target)
                ));
            }
        }
        if parts.is_empty() && !log.resigned {
            parts.push(format!("{me} passed"));
        } else if log.used > 0 {
            parts.push(format!("{} of 4 movement points", log.used));
        }
        if log.resigned {
            parts.push(format!("{me} resigned"));
        }
        if let (Some(winner), false) = (after.pos.winner, log.resigned) {
            parts.push(win_text(&after.pos, winner));
        }
        parts.join("; ")
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
