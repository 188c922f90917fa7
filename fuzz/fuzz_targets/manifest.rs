//! Manifest files: any bytes through `Manifest::from_json` and every emitter (see `dgcc_fuzz::manifest`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dgcc_fuzz::manifest(data));
