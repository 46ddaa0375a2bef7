//! The five games, each a module folder of the same shape:
//! `board` (geometry), `state`, `action` (the move type), `notation`
//! (parse and print), `rules` (apply and legal-move generation) and
//! `diagram`, with `mod.rs` implementing [`crate::game::Game`].

use crate::game::Game;

pub mod battle_of_the_dale;

/// Something to do with one game type, chosen at run time by its id.
/// (The referee and CLI are generic over [`Game`]; this picks the type.)
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Do the work for game `G`.
    fn visit<G: Game>(self) -> Self::Output;
}

/// Every game id this build knows, in the order `herald --help` lists them.
pub const GAME_IDS: &[&str] = &["battle-of-the-dale"];

/// Run `visitor` for the game whose `Game` tag is `id` (case-insensitive);
/// `None` for an unknown game.
pub fn dispatch<V: GameVisitor>(id: &str, visitor: V) -> Option<V::Output> {
    match id.to_ascii_lowercase().as_str() {
        "battle-of-the-dale" => Some(visitor.visit::<battle_of_the_dale::BattleOfTheDale>()),
        _ => None,
    }
}
