//! The formatter keeps every comment and is idempotent (see `dgcc_fuzz::fmt`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dgcc_fuzz::fmt(data));
