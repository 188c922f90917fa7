//! What the emitters print compiles under gcc, g++ and glslang (see `dgcc_fuzz::emit_compile`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dgcc_fuzz::emit_compile(data));
