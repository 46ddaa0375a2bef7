//! Battle of the Dale's position parser, with the write/parse round-trip oracle.
#![no_main]

herald_fuzz::position_target!(herald::games::battle_of_the_dale::BattleOfTheDale);
