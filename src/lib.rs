//! dgcc — the device-generated-commands compiler.
//!
//! One description of a GPU-driven pipeline (RON or the `.dgc` language) becomes
//! `VK_EXT_device_generated_commands` indirect-commands layouts, validated against device
//! profiles, and every artifact that must agree with them byte for byte.
//!
//! Features: `compiler` (front ends, validation, layout, emitters; no Vulkan), `runtime` (the
//! ash executor; no compiler dependencies), `shaderc` (shader checks), `cli` (the binary).

pub mod ir;
pub mod stages;

#[cfg(feature = "compiler")]
pub mod ast;
#[cfg(feature = "compiler")]
pub mod device;
#[cfg(feature = "compiler")]
pub mod diag;
#[cfg(feature = "compiler")]
pub mod layout;
#[cfg(feature = "compiler")]
pub mod rules;
