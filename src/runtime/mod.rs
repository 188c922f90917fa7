//! The runtime: executes compiled layouts on a live Vulkan device through ash.
//!
//! Why a separate feature: engines embed this part without the compiler (no RON, pest or
//! codespan); it reads layouts as `ir::Manifest` JSON or generated Rust and checks them against
//! the live device with the same rule codes as `dgcc check`.
//!
//! Map: `ext_dgc` (the extension's FFI for ash 0.38), `context` (a headless device for `dgcc
//! run`/`probe`/tests), `memory` (buffers), `probe` (live device → `Profile` + Profiles JSON),
//! `preprocess` (budgeted chunk planning that distrusts implausible driver sizes).

pub mod context;
pub mod error;
pub mod ext_dgc;
pub mod memory;
pub mod preprocess;
pub mod probe;

pub use context::{Capabilities, ContextOptions, GpuContext};
pub use error::RuntimeError;
pub use probe::{probe, Probe};
