//! dgcc-cli: what the `dgcc` binary runs beyond the libraries: the GPU-driven demo scene of
//! `dgcc run` ([`scene`]), the checked run of any layout of `dgcc run --layout`
//! ([`layout_check`]) and the side-by-side measurements of `dgcc bench` ([`bench`](mod@bench)).
//!
//! Why they are not in the runtime: they are a demo and a measuring tool, with their own
//! shaders, plots and about forty `unsafe` blocks of raw Vulkan; an engine that embeds the
//! runtime should not compile them or find them in its API.

pub mod bench;
pub mod layout_check;
pub mod scene;
