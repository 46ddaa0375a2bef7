//! Battlegates' action parser, with the write/parse round-trip oracle.
#![no_main]

herald_fuzz::action_target!(herald::games::battlegates::Battlegates);
