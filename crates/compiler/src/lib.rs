//! dgcc-compiler: a description (RON or `.dgc`) in, checked layouts and every output out.
//!
//! Stages in folders around one IR (`dgcc_core::ir`): the front ends ([`syntax`]) build one
//! AST ([`ast`]) with byte spans; the layout engine ([`layout`]) decides every offset and
//! stride; [`check`] applies the light rules of `dgcc_core::check` and the source rules;
//! [`emit`] prints the manifest as Rust, C, C++, GLSL, HLSL, Slang, JSON and SVG, spelling names as
//! [`names`] (the one table of reserved words, which the check reads too) says; [`shader`]
//! compiles and lints the kernels (feature `shaderc`); [`driver`] runs them all and [`build`]
//! does it from a build script. Diagnostics stay data until [`render`] turns them into text at
//! the edge.
//!
//! No Vulkan and no `unsafe`: a build script that names this crate gets neither.

#![forbid(unsafe_code)]
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

pub mod ast;
pub mod build;
pub mod check;
pub mod driver;
pub mod emit;
pub mod layout;
pub mod names;
pub mod output;
pub mod render;
pub mod shader;
pub mod syntax;
#[cfg(test)]
mod token_table_tests;
