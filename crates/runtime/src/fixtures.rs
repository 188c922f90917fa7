//! Manifest fixtures for the unit tests: the runtime is tested on manifests, as an engine
//! loads them, not on the demo scene that `dgcc-cli` builds around one.

use dgcc_core::ir::{CompiledLayout, Manifest};

/// A push constant (two `u32` ids), an index buffer and an indexed draw per sequence; stride 48.
const PUSH_INDEX_DRAW: &str = include_str!("../fixtures/push_index_draw.dgc.json");

pub(crate) fn push_index_draw_manifest() -> Manifest {
    Manifest::from_json(PUSH_INDEX_DRAW).expect("the fixture manifest parses")
}

/// The one layout of `push_index_draw_manifest`.
pub(crate) fn push_index_draw() -> CompiledLayout {
    push_index_draw_manifest().layouts.remove(0)
}
