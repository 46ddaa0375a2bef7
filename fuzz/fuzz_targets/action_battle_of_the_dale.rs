//! Battle of the Dale's action parser, with the write/parse round-trip oracle.
#![no_main]

herald_fuzz::action_target!(herald::games::battle_of_the_dale::BattleOfTheDale);
