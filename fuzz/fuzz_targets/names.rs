//! Names in case and separator variants: check and every emitter agree (see `dgcc_fuzz::names`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dgcc_fuzz::names(data));
