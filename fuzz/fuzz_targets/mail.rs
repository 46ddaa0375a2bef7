//! Arbitrary bytes through the mail decoder and the record finder
//! (`record::records`, `record::newest`): never panics.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| herald_fuzz::mail(data));
