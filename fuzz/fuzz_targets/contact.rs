//! Any text as a side tag's contact (`record::Contact::parse`): never
//! panics, and what it reads writes back to the same contact.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| herald_fuzz::contact(data));
