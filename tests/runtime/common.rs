//! Shared by the runtime test binaries: getting a device or saying loudly why not.
//!
//! No test passes silently without a GPU: with no Vulkan device a test prints a `SKIP` line
//! straight to the terminal (past the test harness's capture) and returns; with
//! `DGCC_REQUIRE_VULKAN=1` (CI) it fails instead.

#![allow(dead_code)]

use dgcc::runtime::{ContextOptions, GpuContext, RuntimeError};
use std::io::Write;

pub fn require_vulkan() -> bool {
    std::env::var("DGCC_REQUIRE_VULKAN").is_ok_and(|v| v == "1")
}

/// Print a line the harness does not capture.
pub fn loud(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// A context with DGC enabled, or `None` after a visible SKIP (a panic under DGCC_REQUIRE_VULKAN=1).
pub fn gpu(test: &str) -> Option<GpuContext> {
    gpu_with(test, &ContextOptions { enable_dgc: true, require_dgc: true })
}

pub fn gpu_with(test: &str, options: &ContextOptions) -> Option<GpuContext> {
    match GpuContext::new(options) {
        Ok(ctx) => Some(ctx),
        Err(e @ (RuntimeError::NoVulkan(_) | RuntimeError::NoDevice(_) | RuntimeError::MissingFeature { .. })) => {
            if require_vulkan() {
                panic!("{test}: DGCC_REQUIRE_VULKAN=1 but no usable Vulkan device: {e}");
            }
            loud(&format!("SKIP {test}: {e} (set DGCC_REQUIRE_VULKAN=1 to make this a failure)"));
            None
        }
        Err(e) => panic!("{test}: creating the Vulkan context failed: {e}"),
    }
}
