//! Validation of a description: the light rules of `dgcc_core::check` (re-exported here, the
//! same ones the runtime applies to a live device) and the source rules that need the AST.
//!
//! The source rules: names ([`names`](self)), typed push-constant fields and portability
//! across the target list, and ordered layouts that parallel kernels write (`source_rules`),
//! each kernel's subgroup decision per target (`pipeline`; the kernel rules themselves are
//! `dgcc_core::check::kernel_rules`), the stages of the pipeline's named shaders (`shaders`).
//! [`check`] runs every rule, light and source, resolves each finding's location to the span
//! written in the description (`spans`), and collects every diagnostic: it never stops at the
//! first.

pub use dgcc_core::check::*;

mod generated;
pub mod lints;
mod names;
mod pipeline;
mod shaders;
mod source_rules;
mod spans;

pub use generated::diagnostics as generated_names;
pub use pipeline::{check, kernel_target};
