//! Every game's action parser, with the round-trip oracle: the first
//! byte of the input chooses the game of the registry.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| herald_fuzz::action_every_game(data));
