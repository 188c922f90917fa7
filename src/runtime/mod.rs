//! The runtime: executes compiled layouts on a live Vulkan device through ash.
//!
//! Why a separate feature: engines embed this part without the compiler (no RON, pest or
//! codespan); it reads layouts as `ir::Manifest` JSON or generated Rust and checks them against
//! the live device with the same rule codes as `dgcc check`.
//!
//! Map: `ext_dgc` (the extension's FFI for ash 0.38), `context` (a headless device for `dgcc
//! run`/`probe`/tests), `memory` (buffers), `probe` (live device → `Profile` + Profiles JSON),
//! `preprocess` (budgeted chunk planning that distrusts implausible driver sizes), `dgc`
//! (`DgcDevice`, `DgcLayout`: layouts on an engine's device, refused with `dgcc check`'s codes),
//! `execute` (chunked preprocess + execute with barriers), `refuse` (findings → diagnostics),
//! `shaders` (embedded SPIR-V → pipelines), `scene` (`dgcc run`: the headless GPU-driven scene
//! in dgc, mdi and cpu modes).

pub mod context;
pub mod descriptors;
pub mod dgc;
pub mod error;
pub mod execute;
pub mod fallback;
pub mod ext_dgc;
pub mod memory;
pub mod preprocess;
pub mod probe;
pub mod refuse;
pub mod scene;
pub mod shaders;

pub use context::{Capabilities, ContextOptions, GpuContext};
pub use dgc::{DgcDevice, DgcLayout, ExecutionSet, InvalidatedState, RestoreState};
pub use error::RuntimeError;
pub use execute::{Bound, Count, Execution, NoPass, Pass, Phase, Stream};
pub use fallback::{Fallback, FallbackCaps};
pub use probe::{probe, Probe};
