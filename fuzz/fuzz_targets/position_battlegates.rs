//! Battlegates' position parser, with the write/parse round-trip oracle.
#![no_main]

herald_fuzz::position_target!(herald::games::battlegates::Battlegates);
