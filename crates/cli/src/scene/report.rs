//! What `dgcc run` reports: per frame counts and timings, the preprocess plan, and the last
//! frame's pixels.
//!
//! Why these fields: the bench work reuses them, so every pass that can be timed on its own is
//! (cull, compact, preprocess, execute; under occlusion culling the early draw, the pyramid, the
//! late cull and the late draw), CPU recording time is separate from GPU time, and the
//! preprocess size is the driver's number for the chunk actually used. Times are `None` when
//! the device has no timestamps, never 0. Culling efficiency is drawn objects over objects
//! that own a pixel of the final image, counted from an object-id target when the run renders
//! one (`RunOptions::object_ids`).

use super::world::SceneKind;
use super::{Bind, Compaction, Culling, MaterialDraw, Mode, ObjectId};
use dgcc::runtime::preprocess::ChunkPlan;
use dgcc::runtime::validate::StreamReport;
use serde::Serialize;
use std::fmt;

/// GPU time of each pass, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PassTimes {
    /// Pass 0's culling kernel, from right before its dispatch to right after it (with one
    /// kernel, culling and compaction both; the barrier after it is in neither column); the
    /// frame's uniform upload and attachment transitions before it are in the frame's time only.
    pub cull_ms: Option<f64>,
    /// Pass 0's compaction where it is a kernel of its own (`compact.comp`'s two phases), the
    /// barrier after culling included; `None` with one kernel.
    pub compact_ms: Option<f64>,
    /// Explicit preprocessing only; implicit preprocessing is inside `execute_ms`.
    pub preprocess_ms: Option<f64>,
    /// The draw commands of both passes inside their render passes: dgc's executes, the
    /// multi-draw calls, the CPU loop's draws (the clear, the store and the barriers before
    /// are outside; a binned dgc frame gives its whole pass 0 instead).
    pub execute_ms: Option<f64>,
    /// Pass 0's draws (the early pass under occlusion culling), preprocessing included.
    pub draw_ms: Option<f64>,
    /// Building the depth pyramid, layout transitions included (occlusion).
    pub pyramid_ms: Option<f64>,
    /// The late pass's cull and compaction (occlusion), from right before its dispatch.
    pub late_cull_ms: Option<f64>,
    /// The late pass's draws (occlusion).
    pub late_draw_ms: Option<f64>,
    /// Sorting pass 0's stream by material (`bin_materials.comp`), where the run sorts or
    /// bins, with pass 0's stream validation when asked; the late pass's sorting is not timed
    /// apart (it falls between `late_cull_ms` and `late_draw_ms`).
    pub bin_ms: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrameReport {
    /// Objects in the view frustum (the host's reference culling).
    pub in_view: u32,
    /// Objects drawn (both passes).
    pub visible: u32,
    /// Draws issued: sequences executed (dgc, mdi) or vkCmdDrawIndexed calls (cpu).
    pub draws: u32,
    /// Drawn in pass 0 (the only pass without occlusion culling; the early pass with it).
    pub early_draws: u32,
    /// Drawn in the late pass (occlusion).
    pub late_draws: u32,
    /// Kept by culling but not drawn, because a pass reads at most `--max-draws` records.
    pub dropped_draws: u32,
    /// Objects owning at least one pixel of the frame's image (runs with object ids).
    pub owners: Option<u32>,
    /// The frame starts a new shot: nothing is known from the last frame.
    pub cut: bool,
    /// Host time spent recording the frame's command buffer (cpu mode includes its culling).
    pub cpu_record_ms: f64,
    /// Host time spent in `vkQueueSubmit` for the frame.
    pub cpu_submit_ms: f64,
    /// The whole frame on the GPU.
    pub gpu_ms: Option<f64>,
    pub passes: PassTimes,
    /// The frame's colour target (`RunOptions::capture_frames`).
    #[serde(skip)]
    pub image: Option<FrameImage>,
    /// The frame's object ids + 1 per pixel, 0 for background (`capture_frames` with `object_ids`).
    #[serde(skip)]
    pub ids: Option<Vec<u32>>,
    /// The objects drawn, sorted (`capture_frames` with `object_ids`, dgc and mdi).
    #[serde(skip)]
    pub drawn: Option<Vec<u32>>,
    /// Whether each pass's stream, as compaction wrote it, held its objects in increasing
    /// order (as `drawn`; `Compaction::Ordered` promises it).
    #[serde(skip)]
    pub in_object_order: Option<bool>,
}

impl FrameReport {
    /// Drawn objects per object that owns a pixel (1.0 is perfect culling).
    pub fn culling_efficiency(&self) -> Option<f64> {
        self.owners.filter(|&o| o > 0).map(|o| self.draws as f64 / o as f64)
    }
}

/// Distinct objects in an object-id image (ids + 1; 0 is the background).
pub fn owners(ids: &[u32]) -> u32 {
    let top = ids.iter().copied().max().unwrap_or(0) as usize;
    let mut seen = vec![false; top + 1];
    let mut count = 0;
    for &i in ids.iter().filter(|&&i| i != 0) {
        if !std::mem::replace(&mut seen[i as usize], true) {
            count += 1;
        }
    }
    count
}

/// How the compaction kernel's subgroups were set up and what it ran with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubgroupReport {
    /// `requiredSubgroupSize` the pipeline was created with, if pinned.
    pub required_size: Option<u32>,
    pub require_full: bool,
    /// `gl_SubgroupSize` as the kernel saw it (not run in cpu mode).
    pub observed_size: Option<u32>,
    /// Why the kernel's description was not pinned on this device, when it was not.
    pub note: Option<String>,
}

/// The last frame's colour target.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameImage {
    pub width: u32,
    pub height: u32,
    /// Row-major RGBA8, `width * height * 4` bytes.
    pub rgba: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport {
    pub device: String,
    pub mode: Mode,
    pub scene: SceneKind,
    pub culling: Culling,
    /// The layout of the stream's records (what the culling kernels write).
    pub layout: String,
    /// The layout each pass executed as one sequence over those records (`--batch`).
    pub batch_layout: Option<String>,
    pub objects: u32,
    pub width: u32,
    pub height: u32,
    pub frames: Vec<FrameReport>,
    /// Preprocess chunking (dgc mode): chunk size, chunk count, bytes, and any size the driver
    /// reported that was not believed.
    pub preprocess: Option<ChunkPlan>,
    pub compaction: Compaction,
    /// Whether culling and compaction ran as one kernel (`cull_compact.comp`; the ordered
    /// compaction runs as two where that kernel's shared memory does not fit the device).
    pub one_pass: bool,
    /// The culling kernels' workgroup size (`local_size.x`).
    pub local_size: u32,
    /// The layout's `ExplicitPreprocess` flag as executed (dgc mode).
    pub explicit_preprocess: Option<bool>,
    /// The layout's `UnorderedSequences` flag as executed (dgc mode).
    pub unordered_sequences: Option<bool>,
    /// Whether the executed layout bound an index buffer per sequence (dgc mode).
    pub index_buffer_token: Option<bool>,
    /// Where the draws read the object id (`record` in cpu mode, which pushes it).
    pub object_id: ObjectId,
    /// How many materials (pipelines) the objects use.
    pub materials: u32,
    /// How the materials were drawn (`MaterialDraw`), and why where the run chose it.
    pub material_draw: MaterialDraw,
    pub material_note: Option<String>,
    /// What the execution set held (dgc with a set): the materials' pipelines or shader objects.
    pub bind: Bind,
    pub subgroup: SubgroupReport,
    /// How the depth pyramid's kernel was pinned (occlusion culling on the GPU).
    pub pyramid_subgroup: Option<SubgroupReport>,
    /// How the depth pyramid's kernel read the depth buffer (occlusion culling on the GPU).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pyramid_depth_read: Option<super::pyramid::DepthRead>,
    #[serde(skip)]
    pub image: FrameImage,
    /// One stream-validation report per pass and frame run (two per frame under occlusion
    /// culling, warm-up frames included), with `--validate-stream`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stream_validation: Vec<StreamReport>,
    /// The compute kernels as the driver compiled them, when the context was opened with
    /// `ContextOptions::kernel_statistics` and the device can say (`dgcc bench` asks).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kernels: Vec<super::gpu::KernelStatistics>,
}

impl RunReport {
    /// Whether stream validation ran and found nothing in any frame.
    pub fn stream_is_clean(&self) -> bool {
        self.stream_validation.iter().all(StreamReport::is_clean)
    }

    /// The last frame: `(rgba, width, height)`; the CLI encodes it as PNG.
    pub fn last_frame_rgba(&self) -> (&[u8], u32, u32) {
        (&self.image.rgba, self.image.width, self.image.height)
    }
}

fn ms(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into())
}

impl fmt::Display for RunReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} on {}: layout `{}`, {} objects of the {} scene, {}x{}, culling {}",
            self.mode.name(),
            self.device,
            self.layout,
            self.objects,
            self.scene.name(),
            self.width,
            self.height,
            self.culling.name()
        )?;
        match (&self.batch_layout, self.material_draw) {
            (Some(batch), MaterialDraw::Binned) => writeln!(
                f,
                "each pass executed as one sequence of layout `{batch}` per material, multi-drawing the material's region of the binned records with its pipeline bound"
            )?,
            (Some(batch), _) => {
                writeln!(f, "each pass executed as one sequence of layout `{batch}`, multi-drawing its records")?
            }
            (None, _) => {}
        }
        if let Some(p) = &self.preprocess {
            if p.preprocess_bytes == 0 {
                // The executor then records no preprocess (nor its barrier), explicit or not.
                writeln!(
                    f,
                    "preprocess: none (the driver asks for 0 bytes for {} sequences per execute), {} execute(s)",
                    p.sequences_per_chunk, p.chunks
                )?;
            } else {
                writeln!(
                    f,
                    "preprocess: {} bytes for {} sequences per execute, {} execute(s)",
                    p.preprocess_bytes, p.sequences_per_chunk, p.chunks
                )?;
            }
            if let Some(a) = &p.anomaly {
                writeln!(f, "  {a}")?;
            }
        }
        match self.object_id {
            ObjectId::Instance => {
                writeln!(f, "object ids: from each draw's firstInstance (no per-sequence push constants)")?
            }
            ObjectId::Vertex => {
                writeln!(f, "object ids: from each draw's vertexOffset (no per-sequence push constants)")?
            }
            ObjectId::Record => {}
        }
        if self.materials == 1 && self.bind == Bind::ShaderObjects {
            writeln!(f, "shaders: a vertex and a fragment shader object bound (VK_EXT_shader_object), no pipeline")?;
        }
        if self.materials > 1 {
            let how = match self.material_draw {
                MaterialDraw::Set if self.bind == Bind::ShaderObjects => {
                    "one execute per pass through an execution set of their vertex and fragment shader objects"
                }
                MaterialDraw::Set => "one execute per pass through an execution set of their pipelines",
                MaterialDraw::SortedSet if self.bind == Bind::ShaderObjects => {
                    "the stream sorted by material on the GPU, then one execute per pass through an execution set of their shader objects"
                }
                MaterialDraw::SortedSet => {
                    "the stream sorted by material on the GPU, then one execute per pass through an execution set"
                }
                MaterialDraw::Binned => "the stream binned by material on the GPU, then one draw call per material",
                MaterialDraw::BindOnChange => "a pipeline bound whenever the material changes",
                MaterialDraw::OnePipeline => "one pipeline",
            };
            write!(f, "materials: {}, {how}", self.materials)?;
            if let Some(n) = &self.material_note {
                write!(f, " ({n})")?;
            }
            writeln!(f)?;
        }
        let s = &self.subgroup;
        match s.required_size {
            Some(r) => {
                write!(f, "compaction subgroups: required size {r}{}", if s.require_full { ", full" } else { "" })?
            }
            None => write!(f, "compaction subgroups: size not pinned")?,
        }
        match s.observed_size {
            Some(o) => write!(f, ", ran at {o}")?,
            None => write!(f, ", not run")?,
        }
        if let Some(n) = &s.note {
            write!(f, " ({n})")?;
        }
        writeln!(f)?;
        if let Some(p) = &self.pyramid_subgroup {
            match p.required_size {
                Some(r) => write!(
                    f,
                    "depth pyramid subgroups: required size {r}{}",
                    if p.require_full { ", full" } else { "" }
                )?,
                None => write!(f, "depth pyramid subgroups: size not pinned")?,
            }
            if let Some(n) = &p.note {
                write!(f, " ({n})")?;
            }
            writeln!(f)?;
        }
        if let Some(note) = self.pyramid_depth_read.and_then(|r| r.note()) {
            writeln!(f, "depth pyramid: {note}")?;
        }
        let two_pass = self.culling == Culling::Occlusion;
        write!(f, "frame  in view  draws   owners  cpu ms   gpu ms   cull     compact  preproc  execute")?;
        if two_pass {
            write!(f, "  early  late   e.draw   pyramid  l.cull   l.draw")?;
        }
        writeln!(f)?;
        for (i, fr) in self.frames.iter().enumerate() {
            let p = fr.passes;
            let owners = fr.owners.map_or_else(|| "-".to_string(), |o| o.to_string());
            write!(
                f,
                "{i:>5}{} {:>7}  {:>6}  {:>6}  {:>7.3}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}",
                if fr.cut && two_pass { "*" } else { " " },
                fr.in_view,
                fr.draws,
                owners,
                fr.cpu_record_ms + fr.cpu_submit_ms,
                ms(fr.gpu_ms),
                ms(p.cull_ms),
                ms(p.compact_ms),
                ms(p.preprocess_ms),
                ms(p.execute_ms)
            )?;
            if two_pass {
                write!(
                    f,
                    "  {:>5}  {:>5}  {:>7}  {:>7}  {:>7}  {:>7}",
                    fr.early_draws,
                    fr.late_draws,
                    ms(p.draw_ms),
                    ms(p.pyramid_ms),
                    ms(p.late_cull_ms),
                    ms(p.late_draw_ms)
                )?;
            }
            writeln!(f)?;
        }
        if two_pass && self.frames.iter().any(|fr| fr.cut) {
            writeln!(f, "* a camera cut: no history, everything is tested in the late pass")?;
        }
        let dropped: Vec<u32> = self.frames.iter().map(|fr| fr.dropped_draws).filter(|&n| n > 0).collect();
        if let Some(&most) = dropped.iter().max() {
            writeln!(
                f,
                "warning: in {} of {} frames culling kept more than --max-draws allows a pass to draw; up to {most} were not drawn",
                dropped.len(),
                self.frames.len()
            )?;
        }
        let eff: Vec<f64> = self.frames.iter().filter_map(FrameReport::culling_efficiency).collect();
        if !eff.is_empty() {
            let worst = eff.iter().copied().fold(0.0, f64::max);
            let mean = eff.iter().sum::<f64>() / eff.len() as f64;
            writeln!(f, "culling efficiency (draws per object owning a pixel): mean {mean:.3}, worst {worst:.3}")?;
        }
        if let Some(last) = self.stream_validation.last() {
            let frames = self.stream_validation.len();
            let found: u32 = self.stream_validation.iter().map(|r| r.total).sum();
            if found == 0 {
                writeln!(
                    f,
                    "stream validation: clean, {frames} frame(s), {} sequences in the last",
                    last.sequences_checked
                )?;
            } else {
                writeln!(f, "stream validation: {found} violation(s) in {frames} frame(s)")?;
                for (i, r) in self.stream_validation.iter().enumerate().filter(|(_, r)| !r.is_clean()) {
                    writeln!(f, "frame {i}: {r}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::owners;

    #[test]
    fn owners_counts_distinct_objects_and_not_the_background() {
        assert_eq!(owners(&[]), 0);
        assert_eq!(owners(&[0, 0, 0]), 0);
        assert_eq!(owners(&[3, 0, 3, 1, 7, 1]), 3);
    }
}
