//! Arbitrary bytes through what `herald check` does, any game: never panics.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| herald_fuzz::check(data));
