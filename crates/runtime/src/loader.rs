//! The process's Vulkan loader, loaded once, and the one lock under which the runtime creates
//! and destroys instances and devices.
//!
//! Why: NVIDIA's driver (580.159.04, on an H100) is not safe when several threads of one process
//! create and destroy instances and devices at the same time. A runtime test binary run on four
//! threads, each test with a context of its own as `cargo test` runs them, hung with every
//! thread in a futex wait, or aborted in glibc ("corrupted size vs. prev_size in fastbins"),
//! where the same tests one at a time all passed (`examples/concurrent_instances.rs` reduces it
//! to ash calls; book: robustness.md). Others have met the same driver: wgpu serialises
//! instance creation for it. Vulkan lets an application do this from any thread, so the runtime
//! takes the burden: every `vkCreateInstance`, `vkCreateDevice`, `vkDestroyDevice` and
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

#[cfg(feature = "headless")]
/// Hold the returned guard around each call that creates or destroys an instance or a device.
/// A panic while it was held (in a validation callback, say) leaves nothing half-done that the
/// lock guards, so a poisoned lock is taken as it is.
pub(crate) fn lifecycle() -> MutexGuard<'static, ()> {
    LIFECYCLE.lock().unwrap_or_else(|e| e.into_inner())
}
