//! The whole compiler: parse → targets → layout → check → manifest → render (see `dgcc_fuzz::pipeline`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dgcc_fuzz::pipeline(data));
