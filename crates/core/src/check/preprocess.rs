//! How much preprocess memory a target will ask for, from sizes measured on real drivers.
//!
//! Why a table of measurements and not a formula from the spec: the spec leaves the preprocess
//! buffer to the implementation, and drivers differ by orders of magnitude. Measured with a
//! push-constant + `DrawIndexed` layout and a push-constant + `Dispatch` layout
//! (`vkGetGeneratedCommandsMemoryRequirementsEXT` for several `maxSequenceCount`s):
//!
//! - lavapipe (Mesa 25.0.7): draw layouts need exactly `144·n² + 320·n` bytes, quadratic, and the
//!   driver reports that size modulo 2^32, so past 5,460 sequences the reported size *wraps*
//!   (10,000 → "1.5 GB", 65,536 → "21 MB") and using it corrupts memory; dispatch layouts need
//!   `168·n`.
//! - NVIDIA H200 (580.159): about 80 bytes per draw sequence, 6,688 bytes per dispatch sequence.
//!
//! Only the built-in `lavapipe` and `nvidia` profiles carry these figures; other layouts of the
//! same kind are assumed to scale the same way, which is why the finding is a warning that
//! states its basis. Ray-tracing layouts have no measurement and get no estimate.

use super::finding::{Finding, Location};
use super::layout_rules::{action_index, COMPUTE, GRAPHICS};
use crate::device::Profile;
use crate::ir::CompiledLayout;

/// Warn when a layout's preprocess buffer would pass this many bytes.
pub const BUDGET_BYTES: u64 = 256 << 20;

/// What a target is expected to ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    pub bytes: u64,
    /// The driver reports the size modulo 2^32, so the reported number is wrong.
    pub wraps: bool,
    /// The measured model, for messages.
    pub basis: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Draw,
    Dispatch,
}

/// The expected preprocess size of `sequences` sequences on a built-in profile, if measured.
fn estimate(profile: &str, action: Action, sequences: u64) -> Option<Estimate> {
    let n = sequences;
    Some(match (profile, action) {
        ("lavapipe", Action::Draw) => {
            let bytes = 144u64.saturating_mul(n).saturating_mul(n).saturating_add(320 * n);
            Estimate { bytes, wraps: bytes >= 1 << 32, basis: "144 B × n² + 320 B × n for draw layouts" }
        }
        ("lavapipe", Action::Dispatch) => {
            Estimate { bytes: 168 * n, wraps: false, basis: "168 B per dispatch sequence" }
        }
        ("nvidia", Action::Draw) => Estimate { bytes: 80 * n, wraps: false, basis: "about 80 B per draw sequence" },
        ("nvidia", Action::Dispatch) => {
            Estimate { bytes: 6688 * n, wraps: false, basis: "about 6.7 KB per dispatch sequence" }
        }
        _ => return None,
    })
}

/// The estimate for a compiled layout on a profile, if the profile and action are measured.
pub fn layout_estimate(layout: &CompiledLayout, profile: &Profile) -> Option<Estimate> {
    let a = action_index(layout)?;
    let tt = layout.tokens[a].token_type;
    let action = if tt.is_vertex_draw() || tt.is_mesh() {
        if layout.shader_stages & GRAPHICS == 0 {
            return None;
        }
        Action::Draw
    } else if tt == crate::ir::TokenType::Dispatch && layout.shader_stages == COMPUTE {
        Action::Dispatch
    } else {
        return None;
    };
    estimate(&profile.name, action, layout.max_sequences as u64)
}

/// `1.5 GB`, `144.3 MB`, `20.7 KB`: decimal units, as the measurements are written.
pub fn human_bytes(b: u64) -> String {
    match b {
        b if b >= 1_000_000_000 => format!("{:.1} GB", b as f64 / 1e9),
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b if b >= 1_000 => format!("{:.1} KB", b as f64 / 1e3),
        b => format!("{b} B"),
    }
}

/// W0005 when the expected preprocess buffer is over budget or its reported size wraps.
pub fn preprocess_finding(layout: &CompiledLayout, profile: &Profile) -> Option<Finding> {
    let e = layout_estimate(layout, profile)?;
    if e.bytes < BUDGET_BYTES && !e.wraps {
        return None;
    }
    let n = layout.max_sequences;
    let target = &profile.name;
    let mut f = Finding::new_by("W0005", Location::MaxSequences, |dgc| {
        format!(
            "on {target}, `{}` needs a preprocess buffer of about {}",
            crate::spell::setting("max_sequences", n, dgc),
            human_bytes(e.bytes)
        )
    })
    .label(format!("~{} of preprocess memory on {target}", human_bytes(e.bytes)))
    .note(format!("measured on {target}: {}", e.basis))
    .target(target.clone());
    if e.wraps {
        f = f.note(format!(
            "{target} reports this size modulo 2^32: past 5460 sequences the size it returns is wrong (it would claim {}), and a buffer of that size is overrun",
            human_bytes(e.bytes % (1 << 32))
        ));
    }
    Some(f.help(format!(
        "the dgcc runtime executes large streams in chunks that fit its preprocess budget ({}); lower `max_sequences` if one execution must hold them all",
        human_bytes(BUDGET_BYTES)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lavapipe_draw_model_reproduces_the_measurements_including_the_wrap() {
        // Values read from the driver (measured/lavapipe-preprocess-sizes.txt).
        for (n, reported) in [
            (100u64, 1_472_000u64),
            (1000, 144_320_000),
            (4000, 2_305_280_000),
            (10_000, 1_518_298_112),
            (65_536, 20_971_520),
        ] {
            let e = estimate("lavapipe", Action::Draw, n).unwrap();
            assert_eq!(e.bytes % (1 << 32), reported, "n = {n}");
            assert_eq!(e.wraps, e.bytes != reported, "n = {n}");
        }
        assert!(!estimate("lavapipe", Action::Draw, 5460).unwrap().wraps);
        assert!(estimate("lavapipe", Action::Draw, 5461).unwrap().wraps);
    }

    #[test]
    fn nvidia_models_are_within_a_few_percent_of_the_measurements() {
        for (action, n, measured) in [
            (Action::Draw, 65_536u64, 5_243_136u64),
            (Action::Draw, 10_000, 819_456),
            (Action::Dispatch, 65_536, 438_312_704),
            (Action::Dispatch, 10_000, 66_887_936),
        ] {
            let e = estimate("nvidia", action, n).unwrap().bytes as f64;
            assert!((e / measured as f64 - 1.0).abs() < 0.03, "{action:?} {n}: {e} vs {measured}");
        }
    }

    #[test]
    fn human_bytes_uses_decimal_units() {
        assert_eq!(human_bytes(2_305_280_000), "2.3 GB");
        assert_eq!(human_bytes(144_320_000), "144.3 MB");
        assert_eq!(human_bytes(999), "999 B");
    }
}
