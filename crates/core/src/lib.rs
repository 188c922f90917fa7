//! dgcc-core: what the compiler and the runtime share, and nothing either one alone needs.
//!
//! Why a crate of its own: an engine embeds the runtime without the compiler's parsers, and a
//! build script embeds the compiler without Vulkan, yet both must agree on every byte of a
//! layout and on every rule that decides whether a device can run it. So the shared part —
//! the compiled IR with its one token table and one type table ([`ir`], [`tokens`],
//! [`types`]), diagnostics as data ([`diag`]), the code registry ([`rules`]) and the
//! [`severity`] both share, device profiles ([`device`]) and the rules that need only a
//! compiled layout and a profile ([`check`]) — lives here, on serde alone and without `unsafe`.
//!
//! A rule's path says who applies it: everything under [`check`] runs in `dgcc check` and
//! again in the runtime, against the live device; the compiler's own checks (names, typed
//! fields, kernels and their sources) live in `dgcc-compiler`.

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

pub mod check;
pub mod device;
pub mod diag;
pub mod files;
pub mod ir;
pub mod levels;
pub mod requirements;
pub mod rules;
pub mod severity;
pub mod span;
pub mod spell;
pub mod stages;
pub mod tokens;
pub mod types;
