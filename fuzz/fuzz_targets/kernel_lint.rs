//! GLSL kernel sources: the subgroup lints on any text (see `dgcc_fuzz::kernel_lint`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dgcc_fuzz::kernel_lint(data));
