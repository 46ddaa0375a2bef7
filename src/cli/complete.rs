//! What the shell completions offer beyond the commands and their
//! options: the side names of every game for an argument that is a side
//! (`keygen --side`), and each game's header options as `Name=value`
//! (`new --option`). The values are hints for `herald completions`
//! (clap_complete reads a parser's possible values); any text is still
//! taken, and checked against the game where the game is known.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};

use crate::game::Game;
use crate::games::{self, GameVisitor, GAME_IDS};

/// A string argument whose completions are `values`, any text accepted.
#[derive(Clone)]
pub struct Hinted(fn() -> Vec<String>);

impl TypedValueParser for Hinted {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.0)().into_iter().map(PossibleValue::new)))
    }
}

/// `keygen --side`: the side names of every game.
pub fn sides() -> Hinted {
    Hinted(side_names)
}

/// `new --option`: every game's options as `Name=default`.
pub fn options() -> Hinted {
    Hinted(option_values)
}

/// Every game's sides, each name once, in the games' order.
pub fn side_names() -> Vec<String> {
    struct Sides;
    impl GameVisitor for Sides {
        type Output = &'static [&'static str];
        fn visit<G: Game>(self) -> Self::Output {
            G::SIDES
        }
    }
    let mut names: Vec<String> = Vec::new();
    for id in GAME_IDS {
        for name in games::dispatch(id, Sides).unwrap_or_default() {
            if !names.iter().any(|n| n == name) {
                names.push((*name).to_owned());
            }
        }
    }
    names
}

/// Every game's header options as `Name=default`, each once.
pub fn option_values() -> Vec<String> {
    struct Options;
    impl GameVisitor for Options {
        type Output = Vec<String>;
        fn visit<G: Game>(self) -> Self::Output {
            G::OPTIONS
                .iter()
                .map(|o| format!("{}={}", o.name, o.default))
                .collect()
        }
    }
    let mut values: Vec<String> = Vec::new();
    for id in GAME_IDS {
        for v in games::dispatch(id, Options).unwrap_or_default() {
            if !values.contains(&v) {
                values.push(v);
            }
        }
    }
    values
}
