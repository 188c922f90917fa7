//! Rules of the validator (E01xx–E03xx, E05xx–E07xx, W0xxx), one file per area under
//! `validation/`.
//!
//! Why several files joined here: each rule carries a long explanation with an example and
//! its fix, so one table would run to well over a thousand lines. The registry wants one slice
//! per source (`rules::all` chains them), so this module joins the area tables once, on first
//! use, into `RULES`; every entry keeps its `'static` texts.

use super::Rule;
use std::sync::LazyLock;

mod kernels;
mod limits;
mod names;
mod push;
mod sets;
mod tokens;
mod warnings;

/// Every validator rule, in area order (`rules::all` sorts by code).
pub static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    [tokens::RULES, limits::RULES, push::RULES, kernels::RULES, sets::RULES, names::RULES, warnings::RULES]
        .iter()
        .flat_map(|area| area.iter())
        .map(|r| Rule { code: r.code, vuid: r.vuid, severity: r.severity, title: r.title, explanation: r.explanation })
        .collect()
});
