//! Pathological descriptions: huge, deep, or with values at the edge of `u32`. Each must be
//! refused with a registered diagnostic code, in bounded time and memory — the input limits
//! (`syntax::limits`) and the checks, seen from the outside through `driver::compile_source`.
//!
//! Why these shapes: they are what a generator bug or a hostile file produces, and what a
//! recursive-descent parser or a layout engine with `u32` offsets gets wrong first (stack
//! overflow, quadratic work, silent wrap-around). Bounds are generous (10 s, 2 GiB peak for
//! the whole test process); the exact codes belong to the front ends and the checks.

use std::path::Path;
use std::time::{Duration, Instant};

use dgcc::driver::{compile_source, Options};

const TIME_BOUND: Duration = Duration::from_secs(10);
const PEAK_MEMORY_BOUND_KIB: u64 = 2 << 20;

/// A valid description with `layout` as its only layout.
fn with_layout(layout: &str) -> String {
    format!("Pipeline(name: \"p\", targets: [\"lavapipe\", \"nvidia\"], layouts: [{layout}])")
}

fn layout(extra: &str, tokens: &str) -> String {
    format!("(name: \"L\", stages: [Compute], max_sequences: 64, {extra} tokens: [{tokens}])")
}

/// Compile on an 8 MiB-stack thread (libFuzzer's and a CLI's main-thread stack) and return
/// the error codes; panics if it does not error, takes too long, or panics itself.
fn refused(what: &str, file: &str, text: String) -> Vec<&'static str> {
    let (tx, rx) = std::sync::mpsc::channel();
    let name = file.to_owned();
    let started = Instant::now();
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let c = compile_source(Path::new(&name), &text, &Options::default());
            let _ = tx.send((c.has_errors(), c.diagnostics));
        })
        .unwrap();
    let (has_errors, diagnostics) = match rx.recv_timeout(TIME_BOUND) {
        Ok(result) => result,
        Err(_) => panic!("{what}: no answer within {TIME_BOUND:?} (or the compiler panicked, see above)"),
    };
    let elapsed = started.elapsed();
    assert!(has_errors, "{what}: accepted, in {elapsed:?}");
    let codes: Vec<&'static str> = diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
    for d in diagnostics.iter().filter(|d| d.is_error()) {
        assert!(dgcc::rules::lookup(d.code).is_some(), "{what}: unregistered code {}", d.code);
        assert!(!d.message.is_empty(), "{what}: {} without a message", d.code);
    }
    assert!(diagnostics.len() <= 1000, "{what}: {} diagnostics; one cause should give a few", diagnostics.len());
    if let Some(peak) = peak_memory_kib() {
        assert!(peak < PEAK_MEMORY_BOUND_KIB, "{what}: the test process peaked at {peak} KiB");
    }
    codes
}

/// The process's peak resident memory, where the OS says (Linux).
fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn ten_megabytes_of_nesting() {
    let half = 5 << 20;
    let text = format!("Pipeline(name: \"p\", layouts: {}{})", "[".repeat(half), "]".repeat(half));
    refused("10 MB of [ ] nesting (.ron)", "deep.ron", text);
    refused("10 MB of ( nesting (.dgc)", "deep.dgc", "(".repeat(10 << 20));
}

#[test]
fn nesting_just_past_any_sane_depth_in_a_small_file() {
    // Small enough for every size limit, deep enough for a recursive parser to need a limit.
    let depth = 100_000;
    let text = format!("Pipeline(name: \"p\", layouts: {}{})", "[".repeat(depth), "]".repeat(depth));
    refused("100,000 levels of nesting", "deep.ron", text);
}

#[test]
fn a_hundred_thousand_tokens() {
    let tokens = "Draw, ".repeat(100_000);
    refused("100,000 tokens in one layout", "many.ron", with_layout(&layout("", &tokens)));
}

#[test]
fn four_gibibyte_max_sequences_offset_and_stride() {
    let four_gib = 1u64 << 32;
    let cases = [
        (
            "max_sequences 2^32",
            layout("", "Dispatch").replace("max_sequences: 64", &format!("max_sequences: {four_gib}")),
        ),
        ("token offset 2^32", layout("", &format!("Dispatch(at: Some({four_gib}))"))),
        ("stride 2^32", layout(&format!("stride: Some({four_gib}),"), "Dispatch")),
        // Strides above 0xFFFFFFF0: saved inputs in fuzz_regressions/pipeline/ (open.txt).
        ("stride 0xFFFFFFF0", layout("stride: Some(0xFFFFFFF0),", "Dispatch")),
        // Offsets above 0xFFFFFFF0 are saved inputs in fuzz_regressions/pipeline/ (open.txt).
        ("offset 0x7FFFFFFC", layout("", "Dispatch(at: Some(0x7FFFFFFC))")),
        (
            "push constant offset 2^32",
            layout(
                "",
                &format!("PushConstant(stages: [Compute], offset: {four_gib}, size: 4), Dispatch"),
            ),
        ),
        (
            "array of 2^32 elements",
            layout(
                "",
                &format!("PushConstant(stages: [Compute], offset: 0, fields: [(name: \"a\", ty: Array(U32, {four_gib}))]), Dispatch"),
            ),
        ),
        (
            "array of u32::MAX Mat4",
            layout(
                "",
                &format!(
                    "PushConstant(stages: [Compute], offset: 0, fields: [(name: \"a\", ty: Array(Mat4, {}))]), Dispatch",
                    u32::MAX
                ),
            ),
        ),
    ];
    for (what, l) in cases {
        refused(what, "big.ron", with_layout(&l));
    }
}

#[test]
fn deeply_nested_array_field_types() {
    for depth in [9, 1_000, 200_000] {
        let ty = format!("{}U32{}", "Array(".repeat(depth), ", 2)".repeat(depth));
        let l = layout(
            "",
            &format!("PushConstant(stages: [Compute], offset: 0, fields: [(name: \"a\", ty: {ty})]), Dispatch"),
        );
        refused(&format!("field type nested {depth} arrays deep"), "types.ron", with_layout(&l));
    }
}
