//! The runtime's error type.
//!
//! Why one enum with a message for each case rather than `vk::Result` alone: the people who
//! see these errors run `dgcc run` on a machine without a GPU, or with a driver that lacks the
//! extension, and need a sentence that says what is missing — not `ERROR_INITIALIZATION_FAILED`.
//! A refused layout carries the same diagnostics (`E02xx` codes) that `dgcc check` prints.

use ash::vk;
use dgcc_core::diag::Diagnostic;
use std::fmt;

#[derive(Debug)]
pub enum RuntimeError {
    /// No Vulkan loader, or the loader found no usable driver.
    NoVulkan(String),
    /// Vulkan works but no physical device qualifies.
    NoDevice(String),
    /// The device lacks an extension or feature the requested work needs.
    MissingFeature { device: String, feature: String, needed_for: String },
    /// A Vulkan call failed.
    Vulkan { call: &'static str, result: vk::Result },
    /// The live device cannot run this layout: the diagnostics say why, with `dgcc check`'s codes.
    Refused { layout: String, diagnostics: Vec<Diagnostic> },
    /// The request itself is invalid (bad option, unknown layout, a layout the fallback cannot express).
    Invalid(String),
}

impl RuntimeError {
    /// The error of a failed Vulkan `call`, for `map_err`.
    pub fn vk(call: &'static str) -> impl FnOnce(vk::Result) -> RuntimeError {
        move |result| RuntimeError::Vulkan { call, result }
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuntimeError::NoVulkan(why) => write!(f, "no Vulkan available: {why}"),
            RuntimeError::NoDevice(why) => write!(f, "no usable Vulkan device: {why}"),
            RuntimeError::MissingFeature { device, feature, needed_for } => {
                write!(f, "device `{device}` lacks {feature}, needed for {needed_for}")
            }
            RuntimeError::Vulkan { call, result } => write!(f, "{call} failed: {result}"),
            RuntimeError::Refused { layout, diagnostics } => {
                write!(f, "the live device cannot run layout `{layout}`")?;
                for d in diagnostics {
                    write!(f, "\n  {}[{}]: {}", d.severity.name(), d.code, d.message)?;
                    for n in &d.notes {
                        write!(f, "\n    = {n}")?;
                    }
                }
                Ok(())
            }
            RuntimeError::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for RuntimeError {}

pub type Result<T, E = RuntimeError> = std::result::Result<T, E>;
