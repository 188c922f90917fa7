//! What a scene run is asked to do (`dgcc run`'s and `dgcc bench`'s options, as data) and the
//! combinations every run refuses before it touches a device.
//!
//! Why a file of its own: the options are the scene's vocabulary, read by the frames, the GPU
//! set-up and the bench alike, while `mod.rs` is the run itself.

use super::frame::Sorting;
use super::world::{self, Camera, SceneKind};
use dgcc::runtime::error::{Result, RuntimeError};
use serde::Serialize;

/// How the stream is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Dgc,
    Mdi,
    Cpu,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Dgc => "dgc",
            Mode::Mdi => "mdi",
            Mode::Cpu => "cpu",
        }
    }
    pub fn from_name(s: &str) -> Option<Mode> {
        [Mode::Dgc, Mode::Mdi, Mode::Cpu].into_iter().find(|m| m.name() == s)
    }
}

/// What is culled before drawing (distance LOD applies in every case). The discriminants are
/// `CULLING_*` in `scene_data.glsl` (`Frame::counts[2]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Culling {
    /// Every object is drawn through the GPU-driven path (or the CPU loop).
    None = 0,
    /// Objects outside the view frustum are not drawn.
    #[default]
    Frustum = 1,
    /// Frustum, and two-pass occlusion culling against a depth pyramid (dgc and mdi).
    Occlusion = 2,
}

impl Culling {
    pub fn name(self) -> &'static str {
        match self {
            Culling::None => "none",
            Culling::Frustum => "frustum",
            Culling::Occlusion => "occlusion",
        }
    }
    pub fn from_name(s: &str) -> Option<Culling> {
        [Culling::None, Culling::Frustum, Culling::Occlusion].into_iter().find(|c| c.name() == s)
    }
    pub(super) fn code(self) -> u32 {
        self as u32
    }
}

/// How the draws of a run with several materials change pipelines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MaterialDraw {
    /// One material: one pipeline bound for every draw (the layout's EXECUTION_SET token left
    /// out under dgc).
    #[default]
    OnePipeline,
    /// dgc: one execute per pass through an execution set of the materials' pipelines, over
    /// the stream in object order.
    Set,
    /// dgc: the stream sorted by material on the GPU first, then one execute through the set.
    SortedSet,
    /// The stream binned by material on the GPU, then one execute (dgc) or one multi-draw
    /// (mdi) per material with its pipeline bound.
    Binned,
    /// cpu: the loop binds a pipeline whenever the material changes (in object order, or
    /// sorted by material with `--sort-materials`).
    BindOnChange,
}

impl MaterialDraw {
    /// How the frames reorder the stream for this way of drawing.
    pub(super) fn sorting(self) -> Sorting {
        match self {
            MaterialDraw::SortedSet => Sorting::Packed,
            MaterialDraw::Binned => Sorting::Regions,
            _ => Sorting::None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MaterialDraw::OnePipeline => "one-pipeline",
            MaterialDraw::Set => "set",
            MaterialDraw::SortedSet => "sorted-set",
            MaterialDraw::Binned => "binned",
            MaterialDraw::BindOnChange => "bind-on-change",
        }
    }
}

/// What an execution set holds (`--bind`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bind {
    #[default]
    Pipelines,
    /// `VK_EXT_shader_object` shaders.
    ShaderObjects,
}

/// What a dgc run with several materials asks for (`--material-draw`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DgcMaterials {
    /// The execution set where the device binds the layout's stages through one, else binned
    /// (the device rule `dgcc check` reports as N0001).
    #[default]
    Auto,
    /// The execution set; refused where the device cannot bind it.
    Set,
    /// Binned, whatever the device can bind (to test the fallback anywhere).
    Binned,
}

impl DgcMaterials {
    pub fn from_name(s: &str) -> Option<DgcMaterials> {
        match s {
            "auto" => Some(DgcMaterials::Auto),
            "set" => Some(DgcMaterials::Set),
            "binned" => Some(DgcMaterials::Binned),
            _ => None,
        }
    }
}

/// A deliberate mistake in the occlusion test, for the tests that show the checks catch one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PyramidFault {
    /// Read the pyramid one level finer than the footprint needs (at that level's coordinates).
    LevelShifted,
}

/// How culled objects become the stream (dgc and mdi modes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Compaction {
    /// Records in object order: `cull_compact.comp` in order (one pass, each workgroup's first
    /// slot from a decoupled look-back), or `cull.comp` then `compact.comp` where that kernel's
    /// shared memory does not fit the device.
    #[default]
    Ordered,
    /// `cull_compact.comp`: one pass, slots claimed per workgroup with one atomic; any order.
    Fused,
}

impl Compaction {
    pub fn name(self) -> &'static str {
        match self {
            Compaction::Ordered => "ordered",
            Compaction::Fused => "fused",
        }
    }
    pub fn from_name(s: &str) -> Option<Compaction> {
        [Compaction::Ordered, Compaction::Fused].into_iter().find(|c| c.name() == s)
    }
}

/// Where the vertex shader finds the object a draw is for (dgc and mdi modes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectId {
    /// From the stream record: pushed by the PUSH_CONSTANT token under dgc, read through
    /// `gl_DrawID` under mdi.
    #[default]
    Record,
    /// From the draw's `firstInstance` (`gl_InstanceIndex`), which the culling kernels set to
    /// the object id; dgc leaves the layout's PUSH_CONSTANT token out, so no sequence changes
    /// any state but its draw. Needs `drawIndirectFirstInstance`.
    Instance,
    /// From the draw's vertexOffset, which the culling kernels raise by the object id shifted
    /// past the scene's meshes (`world::VertexIds`), read back from `gl_VertexIndex`: no
    /// built-in but the one every draw reads. dgc leaves the PUSH_CONSTANT token out, as with
    /// `Instance`. Only where the scene's objects fit (`VertexIds::max_objects`).
    Vertex,
}

impl ObjectId {
    /// `Frame::counts[1]`: `OBJECT_IN_*` of `scene_data.glsl`.
    pub fn code(self) -> u32 {
        match self {
            ObjectId::Record => 0,
            ObjectId::Instance => 1,
            ObjectId::Vertex => 2,
        }
    }

    /// Whether a draw carries the object outside its record, so that dgc runs the layout
    /// without its PUSH_CONSTANT token.
    pub fn outside_the_record(self) -> bool {
        self != ObjectId::Record
    }
}

#[derive(Clone, Debug)]
pub struct RunOptions {
    pub objects: u32,
    pub frames: u32,
    pub mode: Mode,
    pub seed: u64,
    pub scene: SceneKind,
    pub culling: Culling,
    /// A fixed camera instead of the scene's path.
    pub camera: Option<Camera>,
    /// The city's camera cuts to another street every this many frames (0: never).
    pub cut_every: u32,
    /// Render object ids too and count, per frame, the objects that own a pixel (slower: a
    /// second colour target read back every frame).
    pub object_ids: bool,
    /// Keep every reported frame's image (and object ids, and with them the ids of the objects
    /// each GPU-driven frame drew), not only the last one's.
    pub capture_frames: bool,
    /// A deliberate mistake in the occlusion test (tests only).
    pub pyramid_fault: Option<PyramidFault>,
    pub width: u32,
    pub height: u32,
    /// Bytes of preprocess memory the executor may use (dgc mode; an execution set takes what
    /// the whole stream needs, since its executes are never chunked).
    pub preprocess_budget: u64,
    /// The draw layout to run; `None` picks the layout a kernel `writes`, else the first.
    pub layout: Option<String>,
    /// dgc: draw each pass's records through one sequence of the batch layout (`SceneBatch`: a
    /// DRAW_INDEXED_COUNT token that multi-draws them, with the count culling wrote) instead
    /// of a sequence per draw. The draws then read their record through `gl_DrawID`, as under
    /// multi-draw, and no state changes between them. With materials, the stream is binned
    /// and each material's region is one sequence, executed with its pipeline bound.
    pub batch: bool,
    /// Frames run before the `frames` that are reported.
    pub warmup: u32,
    pub compaction: Compaction,
    /// Replace the layout's `ExplicitPreprocess` flag (dgc mode); `None` keeps it.
    pub explicit_preprocess: Option<bool>,
    /// Replace the layout's `UnorderedSequences` flag (dgc mode); `None` keeps it.
    pub unordered_sequences: Option<bool>,
    /// dgc mode: leave the layout's INDEX_BUFFER token out and bind the scene's one index
    /// buffer before executing instead (every record's index address points at it anyway), to
    /// see what binding an index buffer per sequence costs.
    pub bind_index_buffer: bool,
    /// Where the vertex shader reads the object id (dgc, mdi).
    pub object_id: ObjectId,
    /// How many materials, each its own pipeline (1..=`world::MAX_MATERIALS`).
    pub materials: u32,
    /// dgc with several materials: execution set or binned.
    pub dgc_materials: DgcMaterials,
    /// Sort the stream by material before drawing: on the GPU ahead of the execution set
    /// (dgc), on the host in the CPU loop.
    pub sort_materials: bool,
    /// What the execution set holds (dgc).
    pub bind: Bind,
    /// Write these two materials' pipelines into each other's entries of the execution set
    /// (tests only: the set, not the shaders, must decide what a sequence draws with).
    pub swap_set_entries: Option<(u32, u32)>,
    /// Check the compacted stream on the GPU before drawing it, every frame (dgc, mdi).
    pub validate_stream: bool,
    /// dgc: keep the executor's own barrier in front of the stream, as an engine gets it by
    /// default, instead of widening the scene's barrier after compaction to the preprocess
    /// stage and telling the executor (`Execution::assume_inputs_visible`): one barrier or
    /// two (`dgcc bench`'s `-barrier` variants measure the difference).
    pub executor_barrier: bool,
    /// dgc and mdi: the most draws a pass's execute or multi-draw reads (its
    /// `maxSequenceCount` / `maxDrawCount`), instead of one per object; a frame whose culling
    /// keeps more draws only the first this many (the report counts the frames that did).
    pub max_draws: Option<u32>,
    /// Run under `VK_LAYER_KHRONOS_validation`, its messages recorded here (teardown included).
    /// The default is a fresh log when `DGCC_VALIDATION=1`.
    pub layer_log: Option<std::sync::Arc<dgcc::runtime::LayerLog>>,
}

impl RunOptions {
    /// Whether the frames cull in two passes on the GPU around a depth pyramid (occlusion
    /// culling outside the CPU loop, which refuses it).
    pub(super) fn two_pass(&self) -> bool {
        self.culling == Culling::Occlusion && self.mode != Mode::Cpu
    }

    /// Whether the draws select their materials' shader objects through an execution set
    /// (`--bind shader-objects` with several materials, layout `SceneDrawShaders`). With one
    /// material the shader objects are bound for the draws instead, under the scene's own
    /// layouts.
    pub(super) fn shader_object_set(&self) -> bool {
        self.bind == Bind::ShaderObjects && self.materials > 1
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            objects: 10_000,
            frames: 3,
            mode: Mode::Dgc,
            seed: 1,
            scene: SceneKind::City,
            culling: Culling::Frustum,
            camera: None,
            cut_every: 50,
            object_ids: false,
            capture_frames: false,
            pyramid_fault: None,
            width: 256,
            height: 256,
            preprocess_budget: 64 << 20,
            layout: None,
            batch: false,
            warmup: 0,
            compaction: Compaction::Ordered,
            explicit_preprocess: None,
            unordered_sequences: None,
            bind_index_buffer: false,
            object_id: ObjectId::Record,
            materials: 1,
            dgc_materials: DgcMaterials::Auto,
            sort_materials: false,
            bind: Bind::Pipelines,
            swap_set_entries: None,
            validate_stream: false,
            executor_barrier: false,
            max_draws: None,
            layer_log: dgcc::runtime::LayerLog::from_env(),
        }
    }
}

/// What every run refuses before touching a device.
/// The largest image side a run renders. Devices allow more (`maxImageDimension2D` is 16384 on
/// current desktop drivers), but at 8192 each of the colour, depth and object-id targets is
/// already 256 MiB.
pub const MAX_IMAGE_SIDE: u32 = 8192;

pub(super) fn check_options(options: &RunOptions) -> Result<()> {
    if options.objects == 0 {
        return Err(RuntimeError::Invalid("--objects must be at least 1".into()));
    }
    if options.frames == 0 {
        return Err(RuntimeError::Invalid("--frames must be at least 1".into()));
    }
    if options.warmup.checked_add(options.frames).is_none() {
        return Err(RuntimeError::Invalid(format!(
            "--warmup {} and --frames {} come to more than {} frames",
            options.warmup,
            options.frames,
            u32::MAX
        )));
    }
    if !(1..=MAX_IMAGE_SIDE).contains(&options.width) || !(1..=MAX_IMAGE_SIDE).contains(&options.height) {
        return Err(RuntimeError::Invalid(format!(
            "image size {}x{} is outside 1..={MAX_IMAGE_SIDE} per side",
            options.width, options.height
        )));
    }
    if options.validate_stream && options.mode == Mode::Cpu {
        return Err(RuntimeError::Invalid(
            "--validate-stream checks the stream the GPU writes; --mode cpu writes none".into(),
        ));
    }
    if options.max_draws.is_some() && options.mode == Mode::Cpu {
        return Err(RuntimeError::Invalid(
            "--max-draws caps the records a GPU pass reads; --mode cpu draws every object its culling keeps".into(),
        ));
    }
    if options.max_draws == Some(0) {
        return Err(RuntimeError::Invalid("--max-draws must be at least 1".into()));
    }
    if options.max_draws.is_some() && options.materials > 1 {
        return Err(RuntimeError::Invalid(
            "--max-draws caps the one stream a pass draws; with --materials a pass may draw one region per material: leave one of them out".into(),
        ));
    }
    if options.culling == Culling::Occlusion && options.mode == Mode::Cpu {
        return Err(RuntimeError::Invalid(
            "--culling occlusion tests objects against a depth pyramid on the GPU; --mode cpu culls on the host, which has no depth buffer: use --culling none or frustum with --mode cpu".into(),
        ));
    }
    if !(1..=world::MAX_MATERIALS).contains(&options.materials) {
        return Err(RuntimeError::Invalid(format!(
            "--materials {} is outside 1..={}",
            options.materials,
            world::MAX_MATERIALS
        )));
    }
    if options.sort_materials && (options.materials == 1 || options.mode == Mode::Mdi) {
        return Err(RuntimeError::Invalid(
            if options.materials == 1 {
                "--sort-materials sorts the stream by material: give --materials 2 or more"
            } else {
                "--sort-materials sorts the stream ahead of an execution set (dgc) or the CPU loop; --mode mdi bins the stream by material anyway"
            }
            .into(),
        ));
    }
    if options.dgc_materials != DgcMaterials::Auto && (options.mode != Mode::Dgc || options.materials == 1) {
        return Err(RuntimeError::Invalid(
            "--material-draw chooses how dgc draws several materials: it needs --mode dgc and --materials 2 or more"
                .into(),
        ));
    }
    if options.shader_object_set() && options.mode != Mode::Dgc {
        return Err(RuntimeError::Invalid(
            "--bind shader-objects with several materials fills dgc's execution set with their shader objects: it needs --mode dgc (with one material every mode binds the shader objects itself)".into(),
        ));
    }
    if options.bind == Bind::ShaderObjects && options.dgc_materials == DgcMaterials::Binned {
        return Err(RuntimeError::Invalid(
            "--bind shader-objects fills the execution set with shader objects; --material-draw binned draws without a set".into(),
        ));
    }
    if options.sort_materials && options.dgc_materials == DgcMaterials::Binned {
        return Err(RuntimeError::Invalid(
            "--sort-materials sorts the stream ahead of an execution set; --material-draw binned sorts it into one region per material anyway".into(),
        ));
    }
    let batch_refusal = if !options.batch {
        None
    } else if options.mode != Mode::Dgc {
        Some("--batch draws a pass's records through one DGC sequence: it needs --mode dgc")
    } else if options.bind_index_buffer {
        Some("--batch binds the index buffer once for the multi-draw already; leave out the bound-index-buffer option")
    } else if options.materials > 1 && options.dgc_materials == DgcMaterials::Set {
        Some("--batch draws each material's records as one sequence with its pipeline bound (the batch layout has no execution set): leave out --material-draw set")
    } else if options.materials > 1 && (options.sort_materials || options.bind == Bind::ShaderObjects) {
        Some("--batch bins the stream into one region per material and binds each material's pipeline: leave out --sort-materials and --bind shader-objects")
    } else {
        None
    };
    if let Some(why) = batch_refusal {
        return Err(RuntimeError::Invalid(why.into()));
    }
    if options.batch && options.max_draws.unwrap_or(options.objects) >= 1 << 24 {
        return Err(RuntimeError::Invalid(
            "--batch draws up to one record per object in its one sequence, and maxDrawCount must stay below 2^24 (VUID-VkGeneratedCommandsInfoEXT-maxDrawCount-11078): give fewer --objects or a --max-draws below 16777216".into(),
        ));
    }
    if options.object_id == ObjectId::Instance && options.mode == Mode::Cpu {
        return Err(RuntimeError::Invalid(
            "--object-id instance reads the object id from an indirect draw's firstInstance; --mode cpu draws directly"
                .into(),
        ));
    }
    if options.object_id == ObjectId::Vertex {
        if options.mode == Mode::Cpu {
            return Err(RuntimeError::Invalid(
                "--object-id vertex reads the object id from the vertexOffset the culling kernel writes; --mode cpu draws directly"
                    .into(),
            ));
        }
        let ids = world::meshes_for(options.scene).vertex_ids;
        if u64::from(options.objects) > ids.max_objects() {
            return Err(RuntimeError::Invalid(format!(
                "--object-id vertex adds n · {span} to the vertex indices of object n (the {scene}'s meshes span {span} vertices), and gl_VertexIndex stops at 2^31 - 1: the {scene} fits at most {max} objects this way, not {objects}; give fewer --objects, or --object-id record or instance",
                span = 1u64 << ids.shift,
                scene = options.scene.name(),
                max = ids.max_objects(),
                objects = options.objects,
            )));
        }
    }
    Ok(())
}
