//! The games herald referees, each a module folder of the same shape:
//! `board` (geometry), `state`, `action` (the move type), `notation`
//! (parse and print), `position` (the one-line position notation), `rules`
//! (apply and legal-move generation) and `diagram`, with `mod.rs` implementing [`crate::game::Game`].
//!
//! Every game is listed once, in the registry [`for_each_game!`](crate::for_each_game):
//! the ids, the dispatch by id ([`dispatch`]), the CLI's game list and
//! the lists of the property tests, fuzz targets, benches and picture
//! tests are all made from it. Adding a game is its module folder (with
//! its `pub mod` line below, which the registry's line makes the compiler
//! ask for) and one line in the registry.

use std::fmt;

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

/// The registry of games: every game herald plays, once, as
/// `module::Type`, in the order `herald --help` lists them. Adding a game
/// is its module folder and one line here.
///
/// `for_each_game!(callback)` calls the macro `callback!` once with the
/// whole list, as `module: path::to::Type` pairs separated by commas
/// (the path is absolute, so the callback may be in another crate): the
/// property tests make a test module per game with it, the benches a run
/// per game. For instance the ids:
///
/// ```
/// macro_rules! ids {
///     ($($module:ident: $game:ty),*) => {
///         [$(<$game as herald::game::Game>::ID),*]
///     };
/// }
/// let ids = herald::for_each_game!(ids);
/// assert_eq!(ids, herald::games::GAME_IDS);
/// ```
#[macro_export]
macro_rules! for_each_game {
    ($callback:ident) => {
        $crate::for_each_game! { @table $callback
            castle_danger::CastleDanger,
            battle_of_the_dale::BattleOfTheDale,
            breach_the_keep::BreachTheKeep,
            playground_battles::PlaygroundBattles,
            battlegates::Battlegates,
        }
    };
    (@table $callback:ident $($module:ident :: $game:ident),* $(,)?) => {
        $callback! { $($module: $crate::games::$module::$game),* }
    };
}

/// Something to do with one game type, chosen at run time by its id.
/// (The referee and CLI are generic over [`Game`]; this picks the type.)
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Do the work for game `G`.
    fn visit<G: Game>(self) -> Self::Output;
}

/// What the registry says of one game, without its type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameInfo {
    /// The `Game` tag value, e.g. `castle-danger`.
    pub id: &'static str,
    /// The title, e.g. `Castle Danger`.
    pub title: &'static str,
    /// The game's module folder under `src/games/`, e.g. `castle_danger`.
    pub module: &'static str,
    /// Fewest sides in one game.
    pub min_sides: usize,
    /// Most sides in one game.
    pub max_sides: usize,
    /// Its rules and rulings, `docs/games/<id>.md` (the module's
    /// `RULES_TEXT`): what `herald rules` prints.
    pub rules: &'static str,
}

impl GameInfo {
    const fn of<G: Game>(module: &'static str, rules: &'static str) -> GameInfo {
        GameInfo {
            id: G::ID,
            title: G::TITLE,
            module,
            min_sides: G::MIN_SIDES,
            max_sides: G::MAX_SIDES,
            rules,
        }
    }
}

/// A game id that no game in the registry has: the one error every
/// command gives for it (a record's `Game` tag or a command-line
/// argument; the caller says where).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownGame {
    /// The id given.
    pub id: String,
}

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game `{}`: herald plays {}",
            self.id,
            GAME_IDS.join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

/// Whether `id` names a game of the registry (case-insensitive).
pub fn is_known(id: &str) -> bool {
    GAME_IDS.iter().any(|known| known.eq_ignore_ascii_case(id))
}

macro_rules! registry {
    ($($module:ident: $game:ty),*) => {
        /// Every game id this build knows, in the order `herald --help` lists them.
        pub const GAME_IDS: &[&str] = &[$(<$game as Game>::ID),*];

        /// Every game this build knows, in the order of [`GAME_IDS`].
        pub const GAMES: &[GameInfo] =
            &[$(GameInfo::of::<$game>(stringify!($module), $module::RULES_TEXT)),*];

        /// Run `visitor` for the game whose `Game` tag is `id`
        /// (case-insensitive); [`UnknownGame`] for an id no game has.
        pub fn dispatch<V: GameVisitor>(id: &str, visitor: V) -> Result<V::Output, UnknownGame> {
            $(
                if id.eq_ignore_ascii_case(<$game as Game>::ID) {
                    return Ok(visitor.visit::<$game>());
                }
            )*
            Err(UnknownGame { id: id.to_owned() })
        }
    };
}

crate::for_each_game!(registry);

#[cfg(test)]
mod tests {
    use super::*;

    /// The `Game` tag of each game dispatched to.
    struct Id;

    impl GameVisitor for Id {
        type Output = &'static str;
        fn visit<G: Game>(self) -> &'static str {
            G::ID
        }
    }

    #[test]
    fn every_registered_id_dispatches_to_its_own_game_in_any_case() {
        for info in GAMES {
            assert_eq!(dispatch(info.id, Id), Ok(info.id));
            assert_eq!(dispatch(&info.id.to_uppercase(), Id), Ok(info.id));
        }
        assert_eq!(GAMES.iter().map(|g| g.id).collect::<Vec<_>>(), GAME_IDS);
    }

    #[test]
    fn an_unknown_game_is_refused_naming_every_game() {
        let e = dispatch("chess", Id).unwrap_err();
        assert_eq!(e.id, "chess");
        assert_eq!(
            e.to_string(),
            "unknown game `chess`: herald plays castle-danger, battle-of-the-dale, \
             breach-the-keep, playground-battles, battlegates"
        );
        assert!(!is_known("chess"));
        assert!(is_known("Castle-Danger"));
    }

    #[test]
    fn ids_titles_and_modules_are_each_unique() {
        for (i, a) in GAMES.iter().enumerate() {
            for b in &GAMES[i + 1..] {
                assert_ne!(a.id, b.id);
                assert_ne!(a.title, b.title);
                assert_ne!(a.module, b.module);
            }
            assert!(a.min_sides >= 1 && a.min_sides <= a.max_sides, "{a:?}");
        }
    }

    /// Adding a game is its module folder and one registry line: a folder
    /// under `src/games/` that the registry does not list is caught here
    /// (a line without its module does not compile).
    #[test]
    fn every_game_folder_is_in_the_registry() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/games");
        let mut folders: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().unwrap().is_dir())
            .map(|e| e.file_name().into_string().unwrap())
            .collect();
        folders.sort();
        let mut listed: Vec<&str> = GAMES.iter().map(|g| g.module).collect();
        listed.sort_unstable();
        assert_eq!(folders, listed);
    }
}
