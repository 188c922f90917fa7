//! The runtime: executes compiled layouts on a live Vulkan device through ash.
//!
//! Why a separate feature: engines embed this part without the compiler (no RON, pest or
//! codespan); it reads layouts as `ir::Manifest` JSON or generated Rust and checks them against
//! the live device with the same rule codes as `dgcc check`.

pub mod ext_dgc;
