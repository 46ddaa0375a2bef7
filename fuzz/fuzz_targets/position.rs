//! Every game's position parser, with the write/parse round-trip oracle:
//! the first byte of the input chooses the game of the registry.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| herald_fuzz::position_every_game(data));
