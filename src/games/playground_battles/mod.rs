//! Playground Battles (`playground-battles`): two sides, Blue and Red, on
//! a 10 x 8 board; hidden Rock, Paper and Scissors armies race a die to
//! the opponent's base. Rules: `docs/games/playground-battles.md` section 9.
//!
//! Every identity is a hidden value (spec section 3.7): each side commits
//! to its army (one slot per back-row square, `a1`..`j1` for Blue,
//! `a8`..`j8` for Red) and to twelve opening throws (`t1`..`t12`) on its
//! set-up line. The throws are opened once both have committed and decide
//! who moves first; an identity is opened when a battle or a stalemate
//! calls for it, and the engine learns it only then ([`Game::open`]).

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
    ActionParseError, Chance, ChoiceDefault, Demand, DiagramStyle, Game, Illegal, OptionTag,
    Outcome, PieceView, PositionParseError, Setup, SetupChoice, SetupError, Side,
};
use crate::illegal;

pub use action::{Choice, Move};
pub use board::{Sq, BLUE, RED};
pub use state::{Kind, PieceId, State};

use board::{side_name as name, ALL_SLOTS, ARMY_SLOTS, COLS, THROWS, THROW_SLOTS};

/// The Playground Battles engine.
pub struct PlaygroundBattles;

/// The piece whose identity `slot` holds for `side` (`c1` for Blue's
/// piece that started on c1): a slot of [`ARMY_SLOTS`], read byte by
/// byte.
fn piece_of(side: Side, slot: &str) -> Option<PieceId> {
    let row = match side {
        BLUE => b'1',
        RED => b'8',
        _ => return None,
    };
    match *slot.as_bytes() {
        [col @ b'a'..=b'j', r] if r == row => Some(PieceId::new(side, col - b'a')),
        _ => None,
    }
}

/// The index of the opening throw `slot` names (`t1` is 0): a slot of
/// [`THROW_SLOTS`], read byte by byte.
fn throw_of(slot: &str) -> Option<usize> {
    let n = match *slot.as_bytes() {
        [b't', d @ b'1'..=b'9'] => d - b'0',
        [b't', b'1', d @ b'0'..=b'2'] => 10 + d - b'0',
        _ => return None,
    };
    Some(usize::from(n) - 1)
}

/// Read `text` as `n` letters R, P or S (any case), one per slot.
fn letters(
    text: &str,
    slots: &'static [&'static str],
    what: &str,
) -> Result<Vec<(&'static str, String)>, Illegal> {
    let text = text.trim();
    let count = text.chars().count();
    if count != slots.len() {
        return illegal!(
            "{what} is {} letters R, P or S: this is {count}",
            slots.len()
        );
    }
    text.chars()
        .zip(slots)
        .enumerate()
        .map(|(i, (c, &slot))| match Kind::from_letter(c) {
            Some(k) => Ok((slot, k.letter().to_string())),
            None => illegal!(
                "`{c}` (letter {} of {}, {slot}) is not R (Rock), P (Paper) or S (Scissors)",
                i + 1,
                slots.len()
            ),
        })
        .collect()
}

/// The openings a waiting battle or stalemate entry demands: the
/// identities of its pieces not opened yet.
fn waiting_demands(state: &State) -> Vec<Demand> {
    let mut out = Vec::new();
    let mut need = |id: PieceId| {
        if state.public_kind(id).is_none() {
            out.push(Demand {
                side: id.side(),
                slot: id.slot(),
            });
        }
    };
    if let Some(b) = state.battle {
        need(b.attacker);
        need(b.defender);
    }
    if let Some(e) = state.entry {
        need(e.piece);
    }
    out
}

/// This game's rules and rulings (`docs/games/playground-battles.md`), built into the
/// binary for `herald rules playground-battles`.
pub const RULES_TEXT: &str = include_str!("../../../docs/games/playground-battles.md");

impl Game for PlaygroundBattles {
    type State = State;
    type Action = Move;

    const ID: &'static str = "playground-battles";
    const TITLE: &'static str = "Playground Battles";
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

    fn begin_turn(state: &mut State, chance: &mut dyn Chance) -> Result<(), Illegal> {
        if state.outcome.is_over() {
            return Ok(());
        }
        state.log = [None; 4];
        state.moved = false;
        state.roll = Some(chance.draw("die", 6)? as u8 + 1);
        Ok(())
    }

    fn parse_action(state: &State, text: &str) -> Result<Move, ActionParseError> {
        notation::parse(state, text)
            .map_err(|e| crate::games::reader::suggest_word(text, e, &["out", "base"]))
    }

    fn apply(state: &mut State, action: Move) -> Result<(), Illegal> {
        rules::apply(state, action)
    }

    fn end_turn(state: &mut State) -> Result<(), Illegal> {
        rules::end_turn(state)
    }

    fn resign(state: &mut State, side: Side) {
        rules::resign(state, side);
    }

    fn write_action(action: &Move, out: &mut String) {
        notation::write(action, out);
    }

    fn legal_actions(state: &State, out: &mut Vec<Move>) {
        rules::legal_moves(state, out);
    }

    fn summary(state: &State) -> String {
        diagram::summary(state)
    }

    fn turn_comment(before: &State, after: &State) -> String {
        diagram::comment(before, after)
    }

    fn picture(state: &State) -> Option<crate::picture::Picture> {
        Some(picture::picture(state))
    }

    fn diagram(state: &State, style: DiagramStyle) -> String {
        diagram::draw(state, style)
    }

    fn hidden_slots(_state: &State, side: Side) -> &'static [&'static str] {
        &ALL_SLOTS[usize::from(side.0 & 1)]
    }

    fn opened_after_setup(_state: &State, _side: Side) -> &'static [&'static str] {
        &THROW_SLOTS
    }

    fn check_hidden(_slot: &str, value: &str) -> Result<(), Illegal> {
        match Kind::from_value(value) {
            Some(_) => Ok(()),
            None => illegal!("`{value}` is not R (Rock), P (Paper) or S (Scissors)"),
        }
    }

    #[inline]
    fn demands(state: &State) -> Vec<Demand> {
        if state.battle.is_none() && state.entry.is_none() {
            // Most lines: nothing waits for an opening (asked four times
            // a line, so answered here without a call).
            return Vec::new();
        }
        waiting_demands(state)
    }

    fn open(state: &mut State, side: Side, slot: &str, value: &str) -> Result<(), Illegal> {
        let Some(kind) = Kind::from_value(value) else {
            return illegal!("`{value}` is not R, P or S");
        };
        if let Some(i) = throw_of(slot) {
            rules::open_throw(state, side, i, kind);
            return Ok(());
        }
        match piece_of(side, slot) {
            Some(id) => rules::open_piece(state, id, kind),
            None => illegal!("{} has no piece {slot}", name(side)),
        }
    }

    fn audit(_state: &State, _side: Side, values: &[(&str, &str)]) -> Result<(), Illegal> {
        let has = |k: Kind| {
            values
                .iter()
                .any(|(slot, v)| !slot.starts_with('t') && Kind::from_value(v) == Some(k))
        };
        let missing: Vec<String> = Kind::ALL
            .into_iter()
            .filter(|&k| !has(k))
            .map(|k| format!("one {}", k.name()))
            .collect();
        match missing.as_slice() {
            [] => Ok(()),
            [one] => illegal!("needs at least {one}"),
            [init @ .., last] => illegal!("needs at least {} and {last}", init.join(", ")),
        }
    }

    fn view(state: &State, viewer: Side, values: &[(&str, &str)]) -> State {
        let mut seen = state.clone();
        for (slot, value) in values {
            if let (Some(id), Some(kind)) = (piece_of(viewer, slot), Kind::from_value(value)) {
                seen.learn(id, kind, false);
            }
        }
        seen
    }

    const SETUP_CHOICES: &'static [SetupChoice] = &[
        SetupChoice {
            name: "army",
            help: "one letter per back-row square, a to j: R (Rock), P (Paper) or S \
                   (Scissors), at least one of each",
            letters: "RPS",
            default: ChoiceDefault::Required,
        },
        SetupChoice {
            name: "throws",
            help: "the 12 opening throws that decide who moves first: R, P or S",
            letters: "RPS",
            default: ChoiceDefault::Random,
        },
    ];

    fn choice_slots(_state: &State, side: Side, name: &str) -> &'static [&'static str] {
        match name {
            "army" => &ARMY_SLOTS[usize::from(side.0 & 1)],
            "throws" => &THROW_SLOTS,
            _ => &[],
        }
    }

    fn read_choice(
        state: &State,
        side: Side,
        name: &str,
        text: &str,
    ) -> Result<Vec<(&'static str, String)>, Illegal> {
        let what = match name {
            "army" => "an army (one letter per back-row square, a to j)",
            "throws" => "a set of opening throws",
            _ => return illegal!("Playground Battles has no {name} to choose"),
        };
        letters(text, Self::choice_slots(state, side, name), what)
    }

    fn pieces(state: &State) -> Option<Vec<PieceView>> {
        let mut out = Vec::new();
        for sq in board::Sq::all() {
            for id in state.at(sq).into_iter().flatten() {
                let p = state.piece(id);
                out.push(PieceView {
                    side: id.side(),
                    square: sq.to_string(),
                    slot: Some(id.slot()),
                    identity: p.kind.map(Kind::name),
                    opened: p.public,
                });
            }
        }
        Some(out)
    }

    fn write_position(state: &State, out: &mut String) {
        position::write(state, out);
    }

    fn parse_position(text: &str) -> Result<State, PositionParseError> {
        position::parse(text)
    }
}

const _: () = assert!(THROWS == 12 && COLS == 10);
