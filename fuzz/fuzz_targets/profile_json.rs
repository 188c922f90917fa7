//! Device profile files: any bytes through `device::json::parse` (see `dgcc_fuzz::profile_json`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dgcc_fuzz::profile_json(data));
