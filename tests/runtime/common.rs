//! Shared by the runtime test binaries: getting a device or saying loudly why not, and holding
//! every test to zero validation errors when it runs under the layer.
//!
//! No test passes silently without a GPU: with no Vulkan device a test prints a `SKIP` line
//! straight to the terminal (past the test harness's capture) and returns; with
//! `DGCC_REQUIRE_VULKAN=1` (CI) it fails instead.
//!
//! Under `DGCC_VALIDATION=1` (set by `.ci/with-validation.sh`) every context runs with
//! `VK_LAYER_KHRONOS_validation` and a `LayerLog`; the `Gpu` guard destroys its context first and
//! then fails the test if the layer reported any error, so leaks reported at `vkDestroyDevice`
//! count too. A missing layer is then a failure, not a skip.

#![allow(dead_code)]

use dgcc::runtime::{ContextOptions, GpuContext, LayerLog, RuntimeError};
use std::io::Write;
use std::ops::Deref;
use std::sync::Arc;

pub fn require_vulkan() -> bool {
    std::env::var("DGCC_REQUIRE_VULKAN").is_ok_and(|v| v == "1")
}

/// True under `.ci/with-validation.sh`: the layer must be there and must stay silent.
pub fn validation_required() -> bool {
    std::env::var("DGCC_VALIDATION").is_ok_and(|v| v == "1")
}

/// Whether the device is lavapipe; says loudly why a lavapipe-only test skips otherwise. A
/// device that cannot even be probed fails the test where Vulkan is required.
pub fn is_lavapipe(test: &str) -> bool {
    let p = match dgcc::runtime::probe() {
        Ok(p) => p,
        Err(e) => {
            assert!(!(require_vulkan() || validation_required()), "{test}: probing the device failed: {e}");
            loud(&format!("SKIP {test}: needs lavapipe, and no device could be probed: {e}"));
            return false;
        }
    };
    if p.profile.name == "lavapipe" {
        return true;
    }
    loud(&format!("SKIP {test}: needs lavapipe, the device is {}", p.device_name));
    false
}

/// The environment of a lavapipe child process that runs at `LP_NATIVE_VECTOR_WIDTH=width`
/// bits (subgroup size width / 32). Why more than the width: on a host with AVX-512 (seen on a
/// Sapphire Rapids Xeon), lavapipe's LLVM 15 JIT at 128 bits stores 32-byte AVX registers with
/// aligned moves to memory it aligned to 16 bytes, a general protection fault in the
/// depth-pyramid kernel (`dgcc run --culling occlusion` crashes at every size there).
/// `GALLIUM_OVERRIDE_CPU_CAPS=avx` caps the JIT at AVX, which leaves the width, and so the
/// subgroup size, as asked.
pub fn lavapipe_width_env(width: &str) -> Vec<(&'static str, String)> {
    let mut env = vec![("LP_NATIVE_VECTOR_WIDTH", width.to_string())];
    let avx512 = std::fs::read_to_string("/proc/cpuinfo").is_ok_and(|c| c.split_whitespace().any(|f| f == "avx512f"));
    if avx512 && width == "128" {
        env.push(("GALLIUM_OVERRIDE_CPU_CAPS", "avx".to_string()));
    }
    env
}

/// Run the ignored test `name` of this test binary alone, in a child process with `envs` added
/// to its environment: how it ended, and all it printed. A filter that matches no test
/// succeeds too, so the caller also looks for the line the child prints when it ran.
pub fn run_child(name: &str, envs: &[(&str, String)]) -> (std::process::ExitStatus, String) {
    let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", name, "--ignored", "--nocapture", "--test-threads=1"])
        .envs(envs.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("the test binary runs again");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status, text)
}

/// Print a line the harness does not capture.
pub fn loud(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Whether `ctx` has `VK_EXT_shader_object`; says loudly why the shader-object checks skip
/// otherwise. lavapipe, CI's device, has it, so there a missing extension fails under
/// `DGCC_REQUIRE_VULKAN=1` instead of skipping unnoticed.
pub fn has_shader_objects(test: &str, ctx: &GpuContext) -> bool {
    if ctx.caps().shader_object {
        return true;
    }
    assert!(
        !((require_vulkan() || validation_required()) && ctx.device_name().contains("llvmpipe")),
        "{test}: lavapipe without VK_EXT_shader_object (shaderObject)"
    );
    loud(&format!("SKIP {test} (shader objects): {} has no VK_EXT_shader_object", ctx.device_name()));
    false
}

/// A context that, when dropped, destroys itself and then checks the validation log.
pub struct Gpu {
    test: String,
    ctx: Option<GpuContext>,
    log: Option<Arc<LayerLog>>,
}

impl Deref for Gpu {
    type Target = GpuContext;
    fn deref(&self) -> &GpuContext {
        self.ctx.as_ref().expect("present until drop")
    }
}

/// Buffers allocate through the context (`Buffer::new(&gpu, …)`).
// SAFETY: the context's device and its physical device's memory types; each buffer holds the
// context's share in the device's life, as one made through the context itself does.
unsafe impl dgcc::runtime::memory::Allocator for Gpu {
    fn device(&self) -> &ash::Device {
        GpuContext::device(self)
    }
    fn memory_properties(&self) -> &ash::vk::PhysicalDeviceMemoryProperties {
        GpuContext::memory(self)
    }
    fn lifetime(&self) -> Option<dgcc::runtime::memory::DeviceLifetime> {
        dgcc::runtime::memory::Allocator::lifetime(&**self)
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        drop(self.ctx.take());
        if let Some(log) = &self.log {
            if !std::thread::panicking() {
                assert_no_layer_errors(&self.test, log);
            }
        }
    }
}

/// Fail `test` if the layer reported any error into `log`.
pub fn assert_no_layer_errors(test: &str, log: &LayerLog) {
    let n = log.error_count();
    assert!(n == 0, "{test}: VK_LAYER_KHRONOS_validation reported {n} error(s):{}", log.describe_errors());
}

/// A context with DGC enabled, or `None` after a visible SKIP (a panic under DGCC_REQUIRE_VULKAN=1
/// or DGCC_VALIDATION=1).
pub fn gpu(test: &str) -> Option<Gpu> {
    gpu_with(test, &ContextOptions { enable_dgc: true, require_dgc: true, ..ContextOptions::default() })
}

pub fn gpu_with(test: &str, options: &ContextOptions) -> Option<Gpu> {
    let mut options = options.clone();
    if validation_required() && options.validation.is_none() {
        options.validation = Some(LayerLog::new());
    }
    match GpuContext::new(&options) {
        Ok(ctx) => Some(Gpu { test: test.into(), ctx: Some(ctx), log: options.validation }),
        Err(e @ (RuntimeError::NoVulkan(_) | RuntimeError::NoDevice(_) | RuntimeError::MissingFeature { .. })) => {
            if require_vulkan() || validation_required() {
                panic!("{test}: DGCC_REQUIRE_VULKAN=1 or DGCC_VALIDATION=1, but no usable Vulkan device: {e}");
            }
            loud(&format!("SKIP {test}: {e} (set DGCC_REQUIRE_VULKAN=1 to make this a failure)"));
            None
        }
        Err(e) => panic!("{test}: creating the Vulkan context failed: {e}"),
    }
}
