//! The process's Vulkan loader, loaded once; a bare instance that keeps the drivers loaded; and
//! the one lock under which the runtime creates and destroys instances and devices.
//!
//! Why: on NVIDIA's driver (580.159.04, an H100) the runtime test binaries run on four threads,
//! as `cargo test` runs them, hung or crashed where one test at a time all passed (book:
//! robustness.md). A debugger showed where (`examples/concurrent_instances.rs` makes the same
//! calls with ash alone): each thread that called into the driver leaves per-thread state that
//! the driver frees when the thread exits, in a destructor that lives in its EGL libraries.
//! When the last instance is destroyed, the loader unloads the driver, and a thread that exits
//! after that jumps into unmapped code, or into a new copy of the library loaded for the next
//! instance (segfaults at thread exit); a thread exiting while another destroys a device
//! deadlocked with it. Vulkan lets an application do all this from any thread, so the
//! runtime takes the burden where it makes the instances (the `headless` feature):
//!
//! - the loader library is loaded once and never unloaded ([`entry`]);
//! - before its first instance, it makes a bare instance of its own that it never destroys
//!   ([`keep_drivers_loaded`]), so the loader never unloads the driver while the process lives;
//! - every `vkCreateInstance`, `vkCreateDevice`, `vkDestroyDevice` and `vkDestroyInstance` it
//!   makes runs under [`lifecycle`] (this driver is also reported to crash when threads create
//!   instances at once: wgpu issue 5930).
//!
//! One deadlock remains out of reach: a thread exiting while another destroys a device, the
//! thread's exit being its owner's. An engine's own instance and device are the engine's to
//! create; the runtime only uses them.

use crate::error::{Result, RuntimeError};
use std::sync::OnceLock;
#[cfg(feature = "headless")]
use std::sync::{Mutex, MutexGuard};

static ENTRY: OnceLock<std::result::Result<ash::Entry, String>> = OnceLock::new();
#[cfg(feature = "headless")]
static LIFECYCLE: Mutex<()> = Mutex::new(());
/// Whether the bare instance of [`keep_drivers_loaded`] was tried (it is never retried).
#[cfg(feature = "headless")]
static DRIVERS_KEPT: OnceLock<()> = OnceLock::new();

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

/// Make, once per process, a bare instance (no layers asked for, no extensions) that is never
/// destroyed: the loader unloads a driver only when its last instance is destroyed, so the
/// drivers stay loaded, and the per-thread destructors they registered stay valid, for the life
/// of the process. It costs one instance's memory. If it cannot be made, nothing is kept and the
/// caller's own `vkCreateInstance` reports why. `_held` is the [`lifecycle`] guard.
#[cfg(feature = "headless")]
pub(crate) fn keep_drivers_loaded(entry: &ash::Entry, _held: &MutexGuard<'static, ()>) {
    DRIVERS_KEPT.get_or_init(|| {
        let app = ash::vk::ApplicationInfo::default().application_name(c"dgcc: keeps the drivers loaded");
        let app = app.api_version(ash::vk::API_VERSION_1_3);
        let info = ash::vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: a valid create info; the instance is never destroyed, and `entry`'s library
        // is never unloaded (see `entry`), so the handle stays valid while the process lives.
        // `ash::Instance` has no destructor: dropping it keeps the instance.
        let _kept = unsafe { entry.create_instance(&info, None) };
    });
}
