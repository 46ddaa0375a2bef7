//! Arbitrary bytes read a part at a time (`record::stream`), against the whole read: never panics, and reads what the whole read reads.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| herald_fuzz::stream(data));
