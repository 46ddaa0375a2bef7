//! Arbitrary bytes through `Source::new` and `record::parse`: never panics.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| herald_fuzz::record(data));
