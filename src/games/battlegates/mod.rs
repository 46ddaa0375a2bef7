//! Battlegates (`battlegates`): South and North on one 9 x 12
//! battle-board, each behind a hidden maze of Brick walls, Gates and
//! Long gates; cards turn and move the gates, a die moves the
//! characters. Rules: `docs/games/battlegates.md` section 10.
//!
//! The maze is the hidden set-up (spec section 3.7): each side commits to
//! its ten pieces (slots `w1`-`w4`, `g1`-`g3`, `l1`-`l3`) and opens them
//! all once both have committed, so the maze is public when play starts.
//! Then [`Game::begin_play`] draws the opening roll and the deal, and each
//! turn draws a card and rolls the die at its start.

//! The code is in layers, each importing only the layers before it
//! (checked by `tests/layers.rs`):
//!
//! 1. [`geometry`]: the boards, squares, edges, the set-ups' boards.
//! 2. [`mazes`]: walls and gates, the hidden maze set-up.
//! 3. [`pieces`]: the characters on the board, the cards.
//! 4. [`moves`]: gate turns, the Alley, actions, the dice phase.
//! 5. [`one_board`]: the one-board game (position, notation, turn),
//!    with a hook ([`one_board::variant::Variant`]) for all a set-up
//!    changes.
//! 6. `views`: the diagram and the picture.
//! 7. [`setups`]: each set-up in its folder, a layer over the one-board
//!    game, and the table of which plays which layout.
//! 8. This file: the [`Game`] impl composing them.
//!
//! The old flat paths (`battlegates::board`, `battlegates::state`, ...)
//! are re-exported below.

pub mod geometry;
pub mod mazes;
pub mod moves;
pub mod one_board;
pub mod pieces;
pub mod selfplay;
pub mod setups;
mod views;

pub use geometry::{board, layouts};
pub use mazes::{maze, setup};
pub use moves::{action, alley, dice, gates};
pub use one_board::{notation, rules, state};
pub use pieces::cards;

/// The position text ([`one_board::position`]), read with the set-ups'
/// table of rules.
pub mod position {
    pub use super::one_board::position::*;
    use super::{setups, PositionParseError, State};

    /// Read a position written by [`write`], of any set-up, played by
    /// its set-up's rules ([`setups::rules`]).
    pub fn parse(text: &str) -> Result<State, PositionParseError> {
        parse_with(text, setups::rules)
    }
}
use views::{diagram, picture};

#[cfg(test)]
mod tests;

use crate::game::{
    ActionParseError, CardKind, Chance, ChoiceDefault, DiagramStyle, Game, HiddenDeck, Illegal,
    OptionTag, Outcome, PositionParseError, Setup, SetupChoice, SetupError, Side,
};
use crate::illegal;

pub use action::Action;
pub use state::State;

use board::side_name;
use cards::{Card, Pile};
use layouts::{Layout, ANY_BOARD};
use setup::slots;

/// The Battlegates engine.
pub struct Battlegates;

fn check_options(setup: &Setup<'_>) -> Result<(), SetupError> {
    if let Some(v) = setup.tag("Hands") {
        if !v.eq_ignore_ascii_case("open") && !v.eq_ignore_ascii_case("hidden") {
            return Err(SetupError {
                tag: Some("Hands".into()),
                reason: format!(
                    "Hands \"{v}\": the hands are \"open\" (every card held and drawn is \
                     public) or \"hidden\" (a shared deck without a dealer)"
                ),
            });
        }
    }
    let layout = layout(setup)?;
    check_decks(setup, layout)
}

/// The number the `Decks` tag gives, if any (checked by [`check_decks`]).
fn decks_tag(setup: &Setup<'_>) -> Option<u8> {
    setup.tag("Decks").and_then(|v| v.trim().parse().ok())
}

/// `Decks` is 1 or 2, and 2 only for four players.
fn check_decks(setup: &Setup<'_>, layout: Layout) -> Result<(), SetupError> {
    if let Some(v) = setup.tag("Decks") {
        let n = decks_tag(setup);
        let ok = match n {
            Some(1) => true,
            Some(2) => layout.players() == 4,
            _ => false,
        };
        if !ok {
            let reason = if n == Some(2) {
                format!(
                    "Decks \"{v}\": two players play with one deck of 34 cards (Decks \"1\"); \
                     two decks are for four players"
                )
            } else {
                format!(
                    "Decks \"{v}\": the cards are one deck of 34 (\"1\") or, for four players, \
                     two decks of 68 (\"2\", their default)"
                )
            };
            return Err(SetupError {
                tag: Some("Decks".into()),
                reason,
            });
        }
    }
    Ok(())
}

/// Whether the hands are hidden: as the `Hands` tag says, or by the
/// set-up's default when it is absent ([`Layout::default_hands`]).
fn hands_hidden(setup: &Setup<'_>, layout: Layout) -> bool {
    setup
        .tag("Hands")
        .unwrap_or(layout.default_hands())
        .eq_ignore_ascii_case("hidden")
}

use layouts::unknown_setup;

/// The set-up the `Setup` tag names (one board by default).
fn layout(setup: &Setup<'_>) -> Result<Layout, SetupError> {
    let Some(v) = setup.tag("Setup") else {
        return Ok(Layout::OneBoard);
    };
    Layout::from_tag(v)
        .filter(|l| setups::played(*l))
        .ok_or_else(|| SetupError {
            tag: Some("Setup".into()),
            reason: unknown_setup(v),
        })
}

/// This game's rules and rulings (`docs/games/battlegates.md`), built into the
/// binary for `herald rules battlegates`.
pub const RULES_TEXT: &str = include_str!("../../../docs/games/battlegates.md");

impl Game for Battlegates {
    type State = State;
    type Action = Action;

    const ID: &'static str = "battlegates";
    const TITLE: &'static str = "Battlegates";
    const SIDES: &'static [&'static str] = &board::SIDE_NAMES;
    const MIN_SIDES: usize = 2;
    const MAX_SIDES: usize = 4;
    const OPTIONS: &'static [OptionTag] = &[
        OptionTag {
            name: "Hands",
            default: "hidden",
            help: "hidden: each hand is seen by its player only, from a shared deck without a \
                   dealer; open: every hand and draw is public",
        },
        OptionTag {
            name: "Setup",
            default: "one-board",
            help: "one-board: South and North on one battle-board; misery-run: two players, \
                   two armies each, on two boards end to end with the Misery Run between; \
                   four-castles: Castle1 to Castle4 on Battle Alley, one player holding \
                   castles 1 and 3, the other 2 and 4; four-castles-allies: four players, \
                   teams 1+3 and 2+4; four-castles-solo: four players, each alone",
        },
        OptionTag {
            name: "Decks",
            default: "",
            help: "for four players: 2 (the default: 68 cards) or 1 (34 cards)",
        },
    ];

    fn new_game(setup: &Setup<'_>) -> Result<State, SetupError> {
        let layout = layout(setup)?;
        setups::rules(layout).check_sides(setup, layout)?;
        check_options(setup)?;
        let mut state = State::new(layout);
        if let Some(decks) = decks_tag(setup) {
            state.set_decks(decks);
        }
        if hands_hidden(setup, layout) {
            state.cards = state.cards.into_hidden();
        }
        Ok(state)
    }

    fn option_default(option: &OptionTag, given: &[(&str, String)]) -> &'static str {
        let setup = given
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("Setup"))
            .and_then(|(_, v)| Layout::from_tag(v));
        match setup {
            Some(layout) if option.name == "Hands" => layout.default_hands(),
            _ => option.default,
        }
    }

    fn to_move(state: &State) -> Side {
        state.to_move
    }

    fn outcome(state: &State) -> Outcome {
        state.outcome
    }

    fn chance_text(label: &str, value: u32) -> String {
        match label {
            "die" | "opening" => rules::FACES[value as usize % 6].to_string(),
            _ => (value + 1).to_string(),
        }
    }

    fn begin_play(state: &mut State, chance: &mut dyn Chance) -> Result<(), Illegal> {
        rules::begin_play(state, chance)
    }

    fn first_mover_before_play(state: &State) -> Option<Side> {
        state.rules.first_mover_before_play(state)
    }

    fn begin_turn(state: &mut State, chance: &mut dyn Chance) -> Result<(), Illegal> {
        rules::begin_turn(state, chance)
    }

    fn parse_action(state: &State, text: &str) -> Result<Action, ActionParseError> {
        notation::parse(state, text)
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

    fn action_cost(state: &State, action: &Action) -> Option<u32> {
        match action {
            Action::Run(p) => Some(u32::from(p.steps())),
            Action::Shoot(_) => state.dice.roll.map(u32::from),
            _ => None,
        }
    }

    fn summary(state: &State) -> String {
        diagram::summary(state)
    }

    fn turn_comment(before: &State, after: &State) -> String {
        diagram::comment(before, after)
    }

    fn diagram(state: &State, style: DiagramStyle) -> String {
        diagram::draw(state, style)
    }

    fn picture(state: &State) -> Option<crate::picture::Picture> {
        Some(picture::picture(state))
    }

    fn hidden_slots(state: &State, _side: Side) -> &'static [&'static str] {
        slots(state.layout)
    }

    fn opened_after_setup(state: &State, _side: Side) -> &'static [&'static str] {
        slots(state.layout)
    }

    fn check_hidden(slot: &str, value: &str) -> Result<(), Illegal> {
        // Squares of any set-up's board: the game's own board judges the
        // piece when it is opened (Game::open, Game::audit).
        setup::check_value(&ANY_BOARD, slot, value)
            .map(|_| ())
            .map_err(Illegal::new)
    }

    fn hidden_deck(state: &State) -> Option<HiddenDeck> {
        // Two decks for four players: 68 cards, card `34 + i` card `i`
        // of the second deck.
        state.cards.is_hidden().then_some(HiddenDeck {
            cards: state.cards.all().total(),
            hand: state.layout.hand_size(),
        })
    }

    fn hand_holder(state: &State, side: Side) -> Side {
        state.cards.holder(side)
    }

    fn takes_turns(state: &State, side: Side) -> bool {
        state.rules.takes_turns(state, side)
    }

    fn receive_cards(state: &mut State, side: Side, cards: &[Option<u32>]) -> Result<(), Illegal> {
        let cards = cards
            .iter()
            .map(|c| match c {
                Some(i) => card_of(*i).map(Some),
                None => Ok(None),
            })
            .collect::<Result<Vec<_>, _>>()?;
        rules::receive_cards(state, side, &cards)
    }

    fn open_card(state: &mut State, side: Side, card: u32) -> Result<(), Illegal> {
        let card = card_of(card)?;
        if !state.cards.open_unseen(side, card) {
            return illegal!("{} holds no unseen card to open as {card}", side_name(side));
        }
        // A side out of the game whose hand is discarded: a card of it
        // opened on its leaving line goes to the pile.
        if state.rules.hand_discarded(state, side) {
            state.cards.spend(side, card);
        }
        Ok(())
    }

    fn card_text(card: u32) -> String {
        card_of(card).map_or_else(|_| card.to_string(), |c| c.word().to_owned())
    }

    fn card_kind(card: u32) -> CardKind {
        // Past the cards of the game: a kind of no card.
        CardKind(card_of(card).map_or(u32::MAX, |c| c as u32))
    }

    fn kind_text(kind: CardKind) -> String {
        Card::ALL
            .get(kind.0 as usize)
            .map_or_else(|| kind.0.to_string(), |c| c.word().to_owned())
    }

    fn card_spent(_state: &State, action: &Action) -> Option<CardKind> {
        action.card().map(|c| CardKind(c as u32))
    }

    fn cards_reshuffled(state: &mut State) {
        state.cards.reshuffle();
    }

    fn open(state: &mut State, side: Side, slot: &str, value: &str) -> Result<(), Illegal> {
        let g = state.board.geo();
        let piece = setup::check_value(g, slot, value).map_err(Illegal::new)?;
        let slots = slots(state.layout);
        let Some(i) = slots.iter().position(|s| *s == slot) else {
            return illegal!("{slot} is no maze slot");
        };
        let mine = &mut state.setup[usize::from(side) % state::MAX_SIDES];
        mine[i] = Some(piece);
        let complete: Option<Vec<_>> = mine[..slots.len()].iter().copied().collect();
        // A maze that breaks the set-up rules stays off the board: its
        // side loses before turn 1 (rules::begin_play), and the audit
        // names the piece at fault.
        if let Some(pieces) = complete {
            if setup::check_maze(g, side, &pieces).is_ok() {
                for p in pieces {
                    state.board.maze.add(p);
                }
            }
        }
        Ok(())
    }

    fn audit(state: &State, side: Side, values: &[(&str, &str)]) -> Result<(), Illegal> {
        let g = state.board.geo();
        let mut pieces = Vec::new();
        for (slot, value) in values {
            pieces.push(setup::check_value(g, slot, value).map_err(Illegal::new)?);
        }
        setup::check_maze(g, side, &pieces).map_err(Illegal::new)
    }

    fn view(state: &State, viewer: Side, values: &[(&str, &str)]) -> State {
        let mut seen = state.clone();
        let mine = usize::from(viewer) % state::MAX_SIDES;
        let count = slots(state.layout).len();
        if seen.setup[mine][..count].iter().all(Option::is_some) {
            return seen;
        }
        // Before the maze opens, its owner sees its own pieces.
        for (slot, value) in values {
            if let Ok(piece) = setup::check_value(state.board.geo(), slot, value) {
                if !seen.board.pieces().contains(&piece) {
                    seen.board.maze.add(piece);
                }
            }
        }
        seen
    }

    const SETUP_CHOICES: &'static [SetupChoice] = &[SetupChoice {
        name: "maze",
        help: "the maze pieces of your half, separated by spaces or commas: 4 Brick walls \
               (Wd4n), 3 Gates (Gd4nw) and 3 Long gates (Ld4nw); in Misery Run twice as many, \
               on your board; or @FILE, a file of them (# starts a comment)",
        letters: "",
        default: ChoiceDefault::Required,
    }];

    fn choice_slots(state: &State, _side: Side, name: &str) -> &'static [&'static str] {
        match name {
            "maze" => slots(state.layout),
            _ => &[],
        }
    }

    fn read_choice(
        state: &State,
        _side: Side,
        name: &str,
        text: &str,
    ) -> Result<Vec<(&'static str, String)>, Illegal> {
        if name != "maze" {
            return illegal!("Battlegates has no {name} to choose");
        }
        setup::read_maze(state.board.geo(), slots(state.layout), text).map_err(Illegal::new)
    }

    fn sample_choice(
        state: &State,
        side: Side,
        name: &str,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Vec<(&'static str, String)> {
        match name {
            "maze" => setup::random_maze(state.board.geo(), side, slots(state.layout), pick),
            _ => Vec::new(),
        }
    }

    fn write_position(state: &State, out: &mut String) {
        position::write(state, out);
    }

    fn parse_position(text: &str) -> Result<State, PositionParseError> {
        position::parse(text)
    }
}

/// The card with index `i` of the shared deck (spec section 3.9): the
/// deck listed in card order, every scale first.
fn card_of(i: u32) -> Result<Card, Illegal> {
    let deck = Pile::full().total();
    if i >= 2 * deck {
        return illegal!("the deck has no card {i}");
    }
    // Card `34 + i` is card `i` of the second deck.
    Pile::full()
        .nth(i % deck)
        .ok_or_else(|| Illegal::new(format!("the deck has no card {i}")))
}
