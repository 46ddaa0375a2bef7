//! Battlegates' maze set-up text (`herald setup --maze`), with the
//! read/write round-trip oracle and the set-up rules run on what it reads.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| herald_fuzz::maze_round_trip(data));
