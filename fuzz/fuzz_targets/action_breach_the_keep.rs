//! Breach The Keep's action parser, with the write/parse round-trip oracle.
#![no_main]

herald_fuzz::action_target!(herald::games::breach_the_keep::BreachTheKeep);
