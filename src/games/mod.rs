//! The games herald referees, each a module folder of the same shape:
//! `board` (geometry), `state`, `action` (the move type), `notation`
//! (parse and print), `position` (the one-line position notation), `rules`
//! (apply and legal-move generation) and `diagram`, with `mod.rs` implementing [`crate::game::Game`].

use crate::game::Game;

pub mod battle_of_the_dale;
pub mod battlegates;
pub mod breach_the_keep;
pub mod castle_danger;
pub mod playground_battles;
pub mod reader;
#[cfg(test)]
pub(crate) mod testkit;
pub mod two_sides;

use battle_of_the_dale::BattleOfTheDale;
use battlegates::Battlegates;
use breach_the_keep::BreachTheKeep;
use castle_danger::CastleDanger;
use playground_battles::PlaygroundBattles;

/// Something to do with one game type, chosen at run time by its id.
/// (The referee and CLI are generic over [`Game`]; this picks the type.)
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Do the work for game `G`.
    fn visit<G: Game>(self) -> Self::Output;
}

/// Every game id this build knows, in the order `herald --help` lists them.
pub const GAME_IDS: &[&str] = &[
    CastleDanger::ID,
    BattleOfTheDale::ID,
    BreachTheKeep::ID,
    PlaygroundBattles::ID,
    Battlegates::ID,
];

/// Run `visitor` for the game whose `Game` tag is `id` (case-insensitive);
/// `None` for an unknown game.
pub fn dispatch<V: GameVisitor>(id: &str, visitor: V) -> Option<V::Output> {
    if id.eq_ignore_ascii_case(CastleDanger::ID) {
        Some(visitor.visit::<CastleDanger>())
    } else if id.eq_ignore_ascii_case(BattleOfTheDale::ID) {
        Some(visitor.visit::<BattleOfTheDale>())
    } else if id.eq_ignore_ascii_case(BreachTheKeep::ID) {
        Some(visitor.visit::<BreachTheKeep>())
    } else if id.eq_ignore_ascii_case(PlaygroundBattles::ID) {
        Some(visitor.visit::<PlaygroundBattles>())
    } else if id.eq_ignore_ascii_case(Battlegates::ID) {
        Some(visitor.visit::<Battlegates>())
    } else {
        None
    }
}
