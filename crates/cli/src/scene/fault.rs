//! A fault on purpose: one invalid Vulkan call, made only when `DGCC_INJECT_VALIDATION_ERROR=1`.
//!
//! Why it exists: `dgcc run` and `dgcc bench` must fail a run that the validation layer
//! complained about, and under `DGCC_VALIDATION=1` the layer stops printing once the runtime's
//! messenger is installed, so only the CLI's own report says so. A correct runtime gives the
//! layer nothing to say, so the end-to-end test of that report (`tests/vvl_wrapper.rs`) needs a
//! call that is invalid and still harmless to the driver: a buffer created with no usage flags
//! (`VUID-VkBufferCreateInfo-None-09500`), destroyed at once. Drivers accept it; the layer does
//! not. Nothing else reads the variable.

use ash::vk;
use dgcc::runtime::GpuContext;

/// The variable that asks for the fault.
pub const INJECT_VARIABLE: &str = "DGCC_INJECT_VALIDATION_ERROR";

/// Make the invalid call on `ctx` when the variable is `1`; otherwise do nothing.
pub fn inject_validation_error_if_asked(ctx: &GpuContext) {
    if std::env::var(INJECT_VARIABLE).as_deref() != Ok("1") {
        return;
    }
    let info = vk::BufferCreateInfo::default().size(256).usage(vk::BufferUsageFlags::empty());
    // SAFETY: `ctx.device()` is a live device; the buffer has no memory bound and is destroyed
    // before the function returns, so nothing can use it.
    unsafe {
        if let Ok(buffer) = ctx.device().create_buffer(&info, None) {
            ctx.device().destroy_buffer(buffer, None);
        }
    }
}
