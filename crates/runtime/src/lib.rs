//! dgcc-runtime: executes compiled layouts on a live Vulkan device through ash.
//!
//! Why a crate of its own: engines embed this part without the compiler (no RON, pest or
//! codespan); it reads layouts as `ir::Manifest` JSON or generated Rust and checks them against
//! the live device with the same rule codes as `dgcc check`.
//!
//! Map: `ext_dgc` (the extension's FFI for ash 0.38), `context` (a headless device for `dgcc
//! run`/`probe`/tests), `memory` (buffers), `probe` (live device → `Profile` + Profiles JSON),
//! `preprocess` (budgeted chunk planning that distrusts implausible driver sizes), `dgc`
//! (`DgcDevice`, `DgcLayout`: layouts on an engine's device, refused with `dgcc check`'s codes),
//! `execute` (chunked preprocess + execute with barriers), `refuse` (findings → diagnostics),
//! `push` (the stages a host push must name), `layer_log` (validation-layer messages counted),
//! `features` (the optional features an engine enabled),
//! `shaders` (embedded SPIR-V → pipelines). The demo scene of `dgcc run` lives in `dgcc-cli`.
//!
//! An engine's path through it (its own device, created with the extension and
//! `deviceGeneratedCommands` enabled):
//!
//! ```ignore
//! let manifest = dgcc_core::ir::Manifest::from_json(&std::fs::read_to_string("scene.dgc.json")?)?;
//! let enabled = EnabledFeatures { mesh_shader: true, task_shader: true, ..Default::default() };
//! let dev = DgcDevice::new(&instance, physical, &device, enabled)?; // reads the live limits
//! let layout = manifest.layout("SceneDraw").unwrap();
//! let dgc = dev.create_layout(layout, &manifest.push_constants, pipeline_layout)?; // or Refused
//! let exec = Execution::new(&dev, &dgc, Bound::Pipeline(pipeline), max_objects, 0, 64 << 20)?;
//! // each frame, after the culling kernel wrote `stream` and its count, with the pipeline,
//! // descriptor sets and dynamic state bound:
//! unsafe { exec.record(&dev, &dgc, cmd, &stream, &mut my_render_pass)? };
//! // then re-bind what `dgc.invalidated_state()` lists (push constants, index buffer), e.g.
//! // with `dgc.restore(&device, cmd, &RestoreState { .. })`.
//! ```
//!
//! Without the extension, `Fallback::new(layout, caps)?.record(...)` replays the same stream
//! with multi-draw-indirect (draws) or a dispatch loop, and refuses what it cannot express.

#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::panic,
        clippy::print_stdout,
        clippy::print_stderr,
        clippy::dbg_macro,
        clippy::todo
    )
)]

#[cfg(test)]
mod fixtures;

pub mod context;
pub mod descriptors;
pub mod dgc;
pub mod error;
pub mod execute;
pub mod ext_dgc;
pub mod fallback;
pub mod features;
pub mod layer_log;
pub mod memory;
pub mod preprocess;
pub mod probe;
pub mod push;
pub mod refuse;
pub mod shaders;
pub mod validate;

pub use context::{Capabilities, ContextOptions, GpuContext};
pub use dgc::{DgcDevice, DgcLayout, ExecutionSet, InvalidatedState, RestoreState};
pub use error::RuntimeError;
pub use execute::{Bound, Count, Execution, NoPass, Pass, Phase, Stream};
pub use fallback::{Fallback, FallbackCaps};
pub use features::EnabledFeatures;
pub use layer_log::{LayerLog, LayerMessage, LayerSeverity};
pub use probe::{probe, Probe};

/// The ash version the runtime and the generated Rust (`--emit rust`) are built on, so that a
/// crate using generated code needs no ash dependency of its own.
pub use ash;
