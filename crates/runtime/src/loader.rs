//! The process's Vulkan loader, loaded once, and the one lock under which the runtime creates
//! and destroys instances and devices.
//!
//! Why: on NVIDIA's driver (580.159.04, an H100) the runtime test binaries run on four threads,
//! as `cargo test` runs them, hung with every test thread waiting on the driver's locks, or
//! aborted in glibc ("corrupted size vs. prev_size in fastbins"), where one test at a time all
//! passed. What those tests share is that each makes an instance and a device while the others
//! do (book: robustness.md; `examples/concurrent_instances.rs` makes the same calls with ash
//! alone), and this driver is reported to crash when threads create instances at once (wgpu
//! issue 5930). Vulkan lets an application do this from any thread, so the
//! runtime takes the burden: every `vkCreateInstance`, `vkCreateDevice`, `vkDestroyDevice` and
//! `vkDestroyInstance` it makes runs under [`lifecycle`], and the loader library is loaded once
//! and never unloaded ([`entry`]), so that no thread's context unloads the library, and the
//! driver with it, under another's. An engine's own instance and device are the engine's to
//! create; the runtime only uses them.

use crate::error::{Result, RuntimeError};
use std::sync::OnceLock;
#[cfg(feature = "headless")]
use std::sync::{Mutex, MutexGuard};

static ENTRY: OnceLock<std::result::Result<ash::Entry, String>> = OnceLock::new();
#[cfg(feature = "headless")]
static LIFECYCLE: Mutex<()> = Mutex::new(());

/// The Vulkan loader, loaded the first time it is asked for and kept for the life of the process
/// (the static is never dropped, so the library is never closed).
pub(crate) fn entry() -> Result<ash::Entry> {
    ENTRY
        .get_or_init(|| {
            // SAFETY: loading the system's Vulkan loader library; the handle lives in a static
            // that is never dropped, so every entry point taken from it stays valid.
            unsafe { ash::Entry::load() }.map_err(|e| format!("cannot load the Vulkan loader: {e}"))
        })
        .clone()
        .map_err(RuntimeError::NoVulkan)
}

/// Hold the returned guard around each call that creates or destroys an instance or a device.
/// A panic while it was held (in a validation callback, say) leaves nothing half-done that the
/// lock guards, so a poisoned lock is taken as it is.
#[cfg(feature = "headless")]
pub(crate) fn lifecycle() -> MutexGuard<'static, ()> {
    LIFECYCLE.lock().unwrap_or_else(|e| e.into_inner())
}
