//! `dgcc run FILE --layout NAME`: any layout of the user's description executed on the live
//! device with synthetic records, and each sequence's effect checked there.
//!
//! Why synthetic records and tally shaders rather than the user's own shaders: a layout alone
//! says where each token's bytes sit, not what the user's shaders do with them; what can be
//! proven on the device for any description is that the driver read every record where the
//! manifest says and did what it said. So the records are written member by member through
//! the manifest's record layout ([`rig::Records`]), with per-sequence data that differs in
//! everything a token carries (pushed values, index buffers at real addresses with 16- and
//! 32-bit indices, vertex buffers with their own strides and values, draw, count and dispatch
//! arguments, execution-set indices), and shaders that tally what ran per sequence
//! (`shaders/runtime/draw_tally.*`, `dispatch_tally.comp`) are read back against the tally
//! computed on the host. A token that was ignored or misread changes a number, and the report
//! names the sequence. A draw's tally slot is its first pushed word where the layout pushes one
//! 32-bit word at offset 0 (or two), as `scene.ron` does; any other draw layout takes it from
//! gl_InstanceIndex, which counts from firstInstance (`draw_instanced.vert`; [`indexed`] says
//! how the records place it), and where it pushes anything (any PUSH_CONSTANT and
//! SEQUENCE_INDEX tokens, at any offset) every pushed word is read back per sequence in the
//! stages it is pushed to, as the dispatch kernel reads its own ([`draw_words`]); the report
//! names a word that differs by its sequence, byte, token, field and stage (the tally pipeline
//! has the layout's tessellation and geometry stages where the device does, [`between`]; more
//! words than its shaders can carry at once are read over several executions of the same
//! records). What is not read (words for stages it has no shader for, and why) the `ran` line
//! says (`pushed words not read: …`), as the dispatch rig's does.
//!
//! Why here and not in the runtime: it is a diagnosis tool with its own shaders and rigs; the
//! runtime tests (`tests/runtime_examples.rs`) and `tests/run_layout.rs` use it too, so there
//! is one rig, not one per test.
//!
//! What each path runs: DGC where the device has the extension and the layout passes
//! `DgcDevice::check_layout` (refusals carry `dgcc check`'s codes); the runtime's [`Fallback`]
//! where it can express the layout (its refusal names the token that stops it). Execution sets
//! are real sets of two tally pipelines whose effects differ (sequence `k` picks entry `k % 2`)
//! where the device can bind them; a set of pipelines the device cannot bind (`fallback:
//! Binned`, N0001), a set of shader objects, a set of one entry and a set before a count token
//! alone run binned under DGC (without the EXECUTION_SET token, one tally pipeline bound). The
//! objects each execution makes are destroyed whatever step fails (`rig::Made`). The fallback
//! pushes nothing per draw, so under it the vertex shader reads the pushed words from the
//! record (`draw_stream.vert`, `draw_pushed_stream.vert`: `records[gl_DrawID]`, as the
//! generated GLSL reader does, a SEQUENCE_INDEX word being gl_DrawID), or for a layout that
//! pushes nothing takes its slot from firstInstance as under DGC, and the records name one
//! shared index buffer of 32-bit indices (the fallback binds one for every draw). The fallback
//! refuses VERTEX_BUFFER tokens, so vertex buffers (up to sixteen, within the device's vertex
//! input limits) are checked under DGC only.

pub mod between;
pub mod dispatch;
pub mod draw_words;
pub mod indexed;
pub mod mesh;
mod push_block;
pub mod pushed;
pub mod rig;

use dgcc::ir::{CompiledLayout, Manifest, TokenType};
use dgcc::runtime::{DgcDevice, Fallback, FallbackCaps, GpuContext, RuntimeError};
use rig::Tally;
use serde::Serialize;
use std::fmt;

/// What one execution path did with a layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum PathReport {
    /// Every sequence's effect is as written.
    Ok { ran: String },
    /// It ran, and these sequences' effects differ from what their records said.
    Differs { ran: String, differences: Vec<String> },
    /// Not run: the device or the fallback cannot run the layout, or there is no tally for it.
    NotRun { why: String, codes: Vec<String> },
    /// It failed while running.
    Failed { error: String },
}

impl PathReport {
    fn not_run(why: impl Into<String>) -> PathReport {
        PathReport::NotRun { why: why.into(), codes: vec![] }
    }

    /// The device's refusal, its messages spelled as the description is written (`dgc`).
    fn refused(e: RuntimeError, dgc: bool) -> PathReport {
        match e {
            RuntimeError::Refused { diagnostics, .. } => {
                let codes = diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code.to_string()).collect();
                let why = diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| format!("error[{}]: {}", d.code, d.message_for(dgc)))
                    .collect::<Vec<_>>()
                    .join("; ");
                PathReport::NotRun { why, codes }
            }
            other => PathReport::not_run(other.to_string()),
        }
    }

    pub fn is_ok(&self) -> bool {
        matches!(self, PathReport::Ok { .. })
    }

    /// Ran and found a difference, or failed.
    pub fn is_bad(&self) -> bool {
        matches!(self, PathReport::Differs { .. } | PathReport::Failed { .. })
    }
}

/// One layout on the live device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LayoutReport {
    pub layout: String,
    pub device: String,
    /// The action token (`DRAW_INDEXED`, `DISPATCH`, …).
    pub action: String,
    /// Sequences written.
    pub sequences: u32,
    pub dgc: PathReport,
    pub fallback: PathReport,
}

impl LayoutReport {
    /// Every path that ran checked out, and at least one ran.
    pub fn ok(&self) -> bool {
        !self.dgc.is_bad() && !self.fallback.is_bad() && (self.dgc.is_ok() || self.fallback.is_ok())
    }

    /// The `dgcc check` codes of the device's refusal, if it refused the layout.
    pub fn refusal_codes(&self) -> &[String] {
        match &self.dgc {
            PathReport::NotRun { codes, .. } => codes,
            _ => &[],
        }
    }
}

impl fmt::Display for LayoutReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "layout {} ({}, {} sequences) on {}", self.layout, self.action, self.sequences, self.device)?;
        for (name, p) in [("dgc", &self.dgc), ("fallback", &self.fallback)] {
            match p {
                PathReport::Ok { ran } => writeln!(f, "  {name:<9} {ran}: checked ok")?,
                PathReport::Differs { ran, differences } => {
                    writeln!(f, "  {name:<9} {ran}: DIFFERS")?;
                    for d in differences {
                        writeln!(f, "            {d}")?;
                    }
                }
                PathReport::NotRun { why, .. } => writeln!(f, "  {name:<9} not run: {why}")?,
                PathReport::Failed { error } => writeln!(f, "  {name:<9} FAILED: {error}")?,
            }
        }
        let verdict = if self.ok() {
            "ok: every sequence's effect is as written"
        } else if self.dgc.is_bad() || self.fallback.is_bad() {
            "FAILED"
        } else if !self.refusal_codes().is_empty() {
            "FAILED: the device refuses the layout, and the fallback did not check it"
        } else {
            "NOT CHECKED: neither path could run and check this layout (see why above)"
        };
        writeln!(f, "  {verdict}")
    }
}

/// Whether `layout`'s execution set can run as a real set of the rig's two tally (or counting)
/// pipelines on `dev`: a set of pipelines with room for two entries (with one, whose effect
/// could not differ, it proves nothing) that the device can bind. Otherwise it runs binned.
pub fn set_of_two_binds(dev: &DgcDevice, m: &Manifest, layout: &CompiledLayout) -> bool {
    let pipelines = 0; // VK_INDIRECT_EXECUTION_SET_INFO_TYPE_PIPELINES_EXT
    layout.execution_set().is_some_and(|s| s.kind == pipelines && s.max_entries >= 2)
        && dev.execution_set_unbindable(layout, &m.push_constants).is_none()
}

/// Options of a check.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions {
    /// Write this sequence's record wrong while expecting what it should have been (a test's
    /// deliberate mistake, `dgcc run --corrupt-sequence`): the report must name it.
    pub corrupt: Option<u32>,
    /// The description is in the `.dgc` language: the device's refusals are quoted in its
    /// spelling.
    pub dgc: bool,
}

/// Run `layout` of `m` on the device through DGC (when `dev` is given) and the fallback, and
/// check each sequence's effect.
pub fn check(
    ctx: &GpuContext,
    dev: Option<&DgcDevice>,
    m: &Manifest,
    layout: &CompiledLayout,
    options: CheckOptions,
) -> LayoutReport {
    let action = layout.action().map(|a| a.token_type);
    let action_name = action.map_or("no action", |a| a.manifest_name()).to_string();
    let kind = match action {
        Some(TokenType::Dispatch) => Kind::Dispatch,
        Some(TokenType::Draw | TokenType::DrawCount | TokenType::DrawIndexed | TokenType::DrawIndexedCount) => {
            Kind::Indexed
        }
        Some(TokenType::DrawMeshTasks) => Kind::Mesh,
        _ => Kind::None,
    };
    let sequences = match kind {
        Kind::Dispatch | Kind::None => dispatch::SEQUENCES,
        Kind::Indexed => indexed::sequence_count(layout),
        Kind::Mesh => mesh::sequence_count(),
    };
    let dgc = match dev {
        None => PathReport::not_run("the device has no VK_EXT_device_generated_commands"),
        Some(dev) => match dev.check_layout(layout, &m.push_constants) {
            Err(e) => PathReport::refused(e, options.dgc),
            Ok(()) => run_dgc(ctx, dev, m, layout, kind, options),
        },
    };
    let fallback = match Fallback::new(layout, FallbackCaps::from(ctx)) {
        Err(e) => PathReport::not_run(e.to_string()),
        Ok(f) if f.is_draw() => fallback_draw(ctx, m, layout, &f, options),
        Ok(_) if kind == Kind::Dispatch => dispatch_report(ctx, dev, m, layout, dispatch::Path::Fallback, options),
        Ok(_) => PathReport::not_run("no tally for this action"),
    };
    LayoutReport {
        layout: layout.name.clone(),
        device: ctx.device_name().to_owned(),
        action: action_name,
        sequences,
        dgc,
        fallback,
    }
}

/// A draw layout through the fallback: one indirect multi-draw, pushed words read from the
/// records by the vertex shader.
fn fallback_draw(
    ctx: &GpuContext,
    m: &Manifest,
    layout: &CompiledLayout,
    f: &Fallback,
    options: CheckOptions,
) -> PathReport {
    let shape = match indexed::shape(layout) {
        Ok(shape) => shape,
        Err(why) => return PathReport::not_run(format!("the fallback accepts this layout; no tally for it: {why}")),
    };
    // The pushed words are read from the records by gl_DrawID; without a pushed slot the slot
    // is gl_InstanceIndex, which counts from firstInstance.
    let pushed = shape.pushed() != indexed::Pushed::Nothing;
    if !ctx.caps().fragment_stores_and_atomics
        || !ctx.caps().draw_indirect_first_instance
        || (pushed && !ctx.caps().shader_draw_parameters)
    {
        return PathReport::not_run(format!(
            "the fallback's draw tally needs fragmentStoresAndAtomics, drawIndirectFirstInstance{}",
            if pushed { " and shaderDrawParameters (gl_DrawID)" } else { "" }
        ));
    }
    let checked = match indexed::run_fallback(ctx, m, layout, f, options.corrupt) {
        Ok(c) => c,
        Err(e) => return PathReport::Failed { error: e.to_string() },
    };
    let words = checked.words.as_ref().map_or(String::new(), |w| w.summary());
    let slot = (shape.slot() == indexed::SlotFrom::Instance).then_some("tally slot from firstInstance");
    let notes: Vec<&str> = slot.into_iter().chain((!words.is_empty()).then_some(words.as_str())).collect();
    let ran = format!(
        "1 indirect multi-draw of {} record(s){}{}",
        indexed::sequence_count(layout),
        if shape.indexed() { ", one index buffer bound" } else { "" },
        if notes.is_empty() { String::new() } else { format!(" ({})", notes.join("; ")) }
    );
    tally_report(ran, &checked, layout)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Dispatch,
    Indexed,
    Mesh,
    None,
}

fn run_dgc(
    ctx: &GpuContext,
    dev: &DgcDevice,
    m: &Manifest,
    layout: &CompiledLayout,
    kind: Kind,
    options: CheckOptions,
) -> PathReport {
    let draws_ok = || {
        (!ctx.caps().fragment_stores_and_atomics).then(|| {
            PathReport::not_run(
                "the draw tally counts fragments with storage-buffer atomics, and the device lacks fragmentStoresAndAtomics",
            )
        })
    };
    let first_instance_ok = || {
        (!ctx.caps().draw_indirect_first_instance).then(|| {
            PathReport::not_run(
                "the draw tally's draws start at non-zero instances (firstInstance), and the device lacks drawIndirectFirstInstance",
            )
        })
    };
    match kind {
        Kind::Dispatch => dispatch_report(ctx, Some(dev), m, layout, dispatch::Path::Dgc, options),
        Kind::Indexed => {
            if let Some(no) = draws_ok().or_else(first_instance_ok) {
                return no;
            }
            let shape = match indexed::shape(layout) {
                Ok(shape) => shape,
                Err(why) => return PathReport::not_run(format!("no tally for this layout: {why}")),
            };
            if let Some(why) = rig::vertex_input_unfit(&ctx.properties().limits, shape.vertex_bindings()) {
                return PathReport::not_run(format!("no tally for this layout on this device: {why}"));
            }
            let set = if layout.execution_set().is_none() {
                ""
            } else if indexed::binds_set(dev, m, layout) {
                " through an execution set of 2 pipelines"
            } else {
                ", the execution set binned (one tally pipeline bound)"
            };
            let what = if shape.indexed() { "indexed draw" } else { "draw" };
            let checked = match indexed::check(ctx, dev, m, layout, options.corrupt) {
                Ok(c) => c,
                Err(e) => return PathReport::Failed { error: e.to_string() },
            };
            let words = checked.words.as_ref().map_or(String::new(), |w| w.summary());
            let ran = format!("{} {what} sequence(s){}{set}", indexed::sequence_count(layout), shape.notes(&words));
            tally_report(ran, &checked, layout)
        }
        Kind::Mesh => {
            if let Some(no) = draws_ok() {
                return no;
            }
            if let Err(why) = mesh::shape(layout) {
                return PathReport::not_run(format!("no tally for this layout: {why}"));
            }
            let ran = format!("{} mesh-task sequence(s)", mesh::sequence_count());
            match mesh::run(ctx, dev, m, layout, options.corrupt) {
                Ok((got, want, slots)) => {
                    tally_report(ran, &indexed::DrawChecked { got, want, slots, words: None }, layout)
                }
                Err(e) => PathReport::Failed { error: e.to_string() },
            }
        }
        Kind::None => PathReport::not_run(format!(
            "no tally for a {} layout (dispatch, draw, indexed draw and mesh-task layouts are checked)",
            layout.action().map_or("action-less", |a| a.token_type.manifest_name())
        )),
    }
}

fn dispatch_report(
    ctx: &GpuContext,
    dev: Option<&DgcDevice>,
    m: &Manifest,
    layout: &CompiledLayout,
    path: dispatch::Path,
    options: CheckOptions,
) -> PathReport {
    let with_set = path == dispatch::Path::Dgc && dispatch::through_set(dev, m, layout);
    let n = dispatch::SEQUENCES;
    let checked = match dispatch::run(ctx, dev, m, layout, path, options.corrupt) {
        Ok(c) => c,
        Err(e) => return PathReport::Failed { error: e.to_string() },
    };
    let seen = dispatch::what_was_checked(&checked, path);
    let ran = match (path, with_set, layout.execution_set().is_some()) {
        (dispatch::Path::Fallback, ..) => format!("{n} vkCmdDispatchIndirect ({seen})"),
        (_, true, _) => format!("{n} dispatch sequence(s) through an execution set of 2 pipelines ({seen})"),
        (_, false, true) => {
            format!("{n} dispatch sequence(s), the execution set binned (one tally pipeline bound; {seen})")
        }
        (_, false, false) => format!("{n} dispatch sequence(s) ({seen})"),
    };
    let differences = dispatch::differences(layout, &checked, path, with_set);
    if differences.is_empty() {
        PathReport::Ok { ran }
    } else {
        PathReport::Differs { ran, differences }
    }
}

/// Compare tallies slot by slot; `c.slots[k]` are the slots sequence `k` draws into (one, or
/// for a count layout alone each draw's gl_DrawID, which several sequences share). Where the
/// pushed words are read back, each word a sequence's fragments saw other than its record asks
/// is named too.
fn tally_report(ran: String, c: &indexed::DrawChecked, layout: &CompiledLayout) -> PathReport {
    let (got, want): (&Tally, &Tally) = (&c.got, &c.want);
    if got == want {
        return PathReport::Ok { ran };
    }
    let mut differences = vec![];
    for (slot, (g, w)) in got.slots.iter().zip(&want.slots).enumerate() {
        let owners: Vec<usize> =
            c.slots.iter().enumerate().filter(|(_, s)| s.contains(&(slot as u32))).map(|(k, _)| k).collect();
        let names: Vec<String> = owners.iter().map(|k| k.to_string()).collect();
        let who = if owners.is_empty() {
            format!("slot {slot}, which no sequence pushed")
        } else {
            format!("sequence {} (slot {slot})", names.join(", "))
        };
        if g != w {
            differences.push(format!(
                "{who}: {} fragment(s) carrying sums {:?}, the records asked for {} carrying {:?}",
                g[0],
                &g[1..],
                w[0],
                &w[1..]
            ));
        }
        if let (Some(words), &[k]) = (&c.words, &owners[..]) {
            differences.extend(words.differences(layout, got, slot, k as u32, &who));
        }
    }
    if got.stray != want.stray {
        differences.push(format!("{} fragment(s) in no sequence's slot (expected {})", got.stray, want.stray));
    }
    PathReport::Differs { ran, differences }
}
