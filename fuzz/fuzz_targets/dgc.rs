//! The `.dgc` front end: any bytes, parsed as a `.dgc` description (see `dgcc_fuzz::front_end`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dgcc_fuzz::front_end(data, dgcc_fuzz::Syntax::Dsl));
