//! Executing a draw layout for real and reading back what ran: the rig behind the draw part of
//! `dgcc run --layout` and `tests/runtime_examples.rs`.
//!
//! Why a tally and a 1×1 target rather than an image to compare: every triangle the test
//! shaders draw covers the one pixel, so each triangle instance or mesh primitive that ran is
//! exactly one fragment, and the fragment shader (`shaders/runtime/draw_tally.frag`) adds what
//! its draw carried to per-slot counters with atomics. The CPU computes the same tally from the
//! records it wrote (`Tally::add`), so a token that was ignored or misread — wrong push data,
//! index buffer, draw count, group count — changes a number, and the failure names the slot.
//!
//! Why records are written through `Records` by member name: the offsets come from the
//! manifest's record layout (what the emitters declare), not from offsets typed into the test.

use ash::vk;
use dgcc::ir::{CompiledLayout, Manifest, RecordMember, TokenType};
use dgcc::requirements::RecordState;
use dgcc::runtime::descriptors::StorageSet;
use dgcc::runtime::error::Result;
use dgcc::runtime::memory::{Buffer, Image, Location};
use dgcc::runtime::push::{push, push_pieces, vk_ranges};
use dgcc::runtime::shaders::module;
use dgcc::runtime::{Bound, DgcDevice, Execution, GpuContext, Pass, RuntimeError, Stream};

/// Slots per tally array (`TALLY_SLOTS` in `draw_tally.glsl`).
pub const TALLY_SLOTS: usize = 16;
const TALLY_WORDS: usize = 1 + 4 * TALLY_SLOTS;
const FRAG_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_tally.frag.spv");
const COLOR_FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;

/// What the fragment shader counted: fragments whose slot was out of range, and per slot the
/// fragments and the sums of the three values each carried; for a layout whose pushed words
/// are read back (`draw_tally_carried.frag`), per slot and word the lowest and highest value
/// seen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub stray: u32,
    /// `[fragments, Σy, Σz, Σw]` per slot.
    pub slots: [[u32; 4]; TALLY_SLOTS],
    /// `[lowest, highest]` of word `j` in slot `s` at `s · words + j` (empty when no words are
    /// read); a slot no fragment reached holds [`Tally::UNSEEN`].
    pub seen: Vec<[u32; 2]>,
}

impl Tally {
    /// One fragment in `slot` carrying `(y, z, w)`, as the shader adds it.
    pub fn add(&mut self, slot: u32, y: u32, z: u32, w: u32) {
        match self.slots.get_mut(slot as usize) {
            Some(s) => {
                s[0] += 1;
                s[1] = s[1].wrapping_add(y);
                s[2] = s[2].wrapping_add(z);
                s[3] = s[3].wrapping_add(w);
            }
            None => self.stray += 1,
        }
    }

    /// What the shader starts a word's lowest and highest value at.
    pub const UNSEEN: [u32; 2] = [u32::MAX, 0];

    /// The buffer's starting words for `words` pushed words per slot.
    fn start(words: usize) -> Vec<u8> {
        let mut start = vec![0u32; TALLY_WORDS];
        start.extend(Tally::UNSEEN.repeat(TALLY_SLOTS * words));
        start.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn from_words(words: &[u32], per_slot: usize) -> Result<Tally> {
        if words.len() != TALLY_WORDS + 2 * TALLY_SLOTS * per_slot {
            return Err(RuntimeError::Invalid("the tally buffer is not mapped".into()));
        }
        let mut t = Tally { stray: words[0], ..Tally::default() };
        for (slot, s) in t.slots.iter_mut().enumerate() {
            for (k, v) in s.iter_mut().enumerate() {
                *v = words[1 + k * TALLY_SLOTS + slot];
            }
        }
        t.seen = words[TALLY_WORDS..].chunks_exact(2).map(|c| [c[0], c[1]]).collect();
        Ok(t)
    }

    pub fn fragments(&self) -> u32 {
        self.stray + self.slots.iter().map(|s| s[0]).sum::<u32>()
    }
}

/// A stream of `n` records for `layout`, written member by member at the manifest's offsets.
pub struct Records<'a> {
    layout: &'a CompiledLayout,
    pub bytes: Vec<u8>,
}

impl<'a> Records<'a> {
    pub fn new(layout: &'a CompiledLayout, n: u32) -> Records<'a> {
        Records { layout, bytes: vec![0; (layout.stride * n) as usize] }
    }

    /// The layout the records are written for.
    pub fn layout(&self) -> &'a CompiledLayout {
        self.layout
    }

    /// The token of type `tt`; the rigs run layouts with exactly one.
    pub fn token(&self, tt: TokenType) -> Result<usize> {
        let found: Vec<_> = (0..self.layout.tokens.len()).filter(|&i| self.layout.tokens[i].token_type == tt).collect();
        match found[..] {
            [one] => Ok(one),
            _ => Err(RuntimeError::Invalid(format!(
                "layout `{}` has {} {} tokens; the tally rig writes layouts with one",
                self.layout.name,
                found.len(),
                tt.manifest_name()
            ))),
        }
    }

    /// The record member `part` of token `token`: a push-constant field by its name, a member
    /// of the token's struct (`<token>_<part>`, as the layout engine names them), or with an
    /// empty `part` the token's one word (an execution-set index is named as its token).
    pub fn member(&self, token: usize, part: &str) -> Result<&'a RecordMember> {
        let t = &self.layout.tokens[token];
        let name = if part.is_empty() {
            t.name.clone()
        } else if t.fields.iter().any(|f| f.name == part) {
            part.to_string()
        } else {
            format!("{}_{part}", t.name)
        };
        self.layout.record.iter().find(|m| m.name == name && m.token == Some(token)).ok_or_else(|| {
            let names: Vec<_> = self.layout.record.iter().map(|m| m.name.as_str()).collect();
            RuntimeError::Invalid(format!("layout `{}` has no record member `{name}`: {names:?}", self.layout.name))
        })
    }

    fn put(&mut self, sequence: u32, token: usize, part: &str, value: &[u8]) -> Result<()> {
        let m = self.member(token, part)?;
        if m.size as usize != value.len() {
            return Err(RuntimeError::Invalid(format!(
                "record member `{}` is {} bytes, the rig writes {}",
                m.name,
                m.size,
                value.len()
            )));
        }
        let at = (sequence * self.layout.stride + m.offset) as usize;
        self.bytes[at..at + value.len()].copy_from_slice(value);
        Ok(())
    }

    /// The little-endian word at member `part` of `token` in `sequence`'s record.
    pub fn get_u32(&self, sequence: u32, token: usize, part: &str) -> Result<u32> {
        let m = self.member(token, part)?;
        let at = (sequence * self.layout.stride + m.offset) as usize;
        Ok(u32::from_le_bytes(self.bytes[at..at + 4].try_into().expect("4 bytes")))
    }

    pub fn put_u32(&mut self, sequence: u32, token: usize, part: &str, value: u32) -> Result<()> {
        self.put(sequence, token, part, &value.to_le_bytes())
    }

    pub fn put_i32(&mut self, sequence: u32, token: usize, part: &str, value: i32) -> Result<()> {
        self.put(sequence, token, part, &value.to_le_bytes())
    }

    pub fn put_u64(&mut self, sequence: u32, token: usize, part: &str, value: u64) -> Result<()> {
        self.put(sequence, token, part, &value.to_le_bytes())
    }
}

/// The shaders in front of `draw_tally.frag`.
#[derive(Clone, Copy)]
pub enum Front<'a> {
    Vertex(&'a [u8]),
    TaskMesh { task: &'static [u8], mesh: &'static [u8] },
}

/// A shader of the tally pipeline between its vertex and fragment shaders (tessellation
/// control or evaluation, geometry: [`between`](super::between)), specialized with `spec`.
#[derive(Clone, PartialEq, Eq)]
pub struct StageShader {
    pub stage: vk::ShaderStageFlags,
    pub spv: Vec<u8>,
    pub spec: Vec<(u32, u32)>,
}

impl std::fmt::Debug for StageShader {
    /// The SPIR-V by its length: its bytes say nothing in a failed assertion.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let spv = format!("{} bytes", self.spv.len());
        f.debug_struct("StageShader").field("stage", &self.stage).field("spv", &spv).field("spec", &self.spec).finish()
    }
}

/// The tally slots each sequence draws into (one each, but for a count layout alone, whose
/// draws' gl_DrawID are the slots).
pub type Slots = Vec<Vec<u32>>;

/// One execution of a draw layout.
pub struct DrawRun<'a> {
    pub front: Front<'a>,
    /// The shaders between `front` and the fragment shader, in pipeline order (none for a mesh
    /// layout): the stages of the layout the device has ([`TallyStages`](super::between::TallyStages)).
    pub between: &'a [StageShader],
    pub records: &'a [u8],
    pub sequences: u32,
    /// `maxDrawCount` (for `*_COUNT` action tokens).
    pub max_draw_count: u32,
    /// An index buffer of 32-bit indices bound before executing, which the INDEX_BUFFER token
    /// must replace (a layout without one draws from it).
    pub decoy_indices: Option<vk::Buffer>,
    /// The vertex input of a layout with VERTEX_BUFFER tokens: one `uint` per vertex at
    /// location 0 (`draw_*_vertices.vert`), or one at each of the [`MAX_VERTEX_BUFFERS`]
    /// locations for two to as many tokens (`draw_*_bindings.vert`), the bindings' strides
    /// dynamic, as the token requires.
    pub vertex_input: Option<VertexInput>,
    /// Execute through the layout's execution set of two tally pipelines: entry 0 adds nothing
    /// more, entry 1 adds [`SET_ENTRY_WEIGHT`] to w per fragment. Otherwise one pipeline is
    /// bound (a layout without a set, or one run binned without it).
    pub execution_set: bool,
    /// How pushed words are read back (`draw_pushed.vert`); `None` for a layout whose are not.
    pub words: Option<WordsRun<'a>>,
}

/// How a draw tally reads pushed words back: the fragment shader that keeps them per slot, how
/// many the vertex shader carries to it, how many it keeps per slot, and what is pushed before
/// executing (each block's background, `(offset, bytes)`), which a token that pushed nothing
/// leaves.
pub struct WordsRun<'a> {
    /// `draw_tally_carried.frag`, or `draw_tally_pushed.frag` with its block placed.
    pub fragment: &'a [u8],
    pub carried: u32,
    pub per_slot: u32,
    pub background: Vec<(u32, Vec<u8>)>,
}

/// The vertex input bindings the VERTEX_BUFFER tokens set per sequence (in token order), and
/// what is bound at each before executing, which the tokens must replace.
#[derive(Clone)]
pub struct VertexInput {
    pub bindings: Vec<u32>,
    pub decoy: vk::Buffer,
    /// The decoy's stride in bytes.
    pub decoy_stride: u32,
}

/// The most VERTEX_BUFFER tokens the tally reads: the inputs of `draw_*_bindings.vert`
/// (`BINDING_INPUTS` in `draw_indexed.glsl`), Vulkan's guaranteed maxVertexInputBindings and
/// maxVertexInputAttributes. Its pipelines declare all of them whatever the layout's count.
pub const MAX_VERTEX_BUFFERS: usize = 16;
/// What w sums input `i` of `draw_*_bindings.vert` times (`WEIGHT_i` in `draw_indexed.glsl`):
/// 2i + 1, so 1, 3, 5, 7 for the first four as before, up to 31.
///
/// Why two tokens whose buffers changed places always change the tally: token `i`'s buffer
/// reads `VERTEX_VALUE·(k + 1) + BINDING_VALUE·i + v·stride/4` at vertex `v` of sequence `k`
/// (`indexed.rs`), so swapping tokens `a` and `b` changes each of the sequence's fragments' w
/// by `(W_a − W_b)·(value_b − value_a)`. The weights are all different, so the first factor is
/// never 0; `BINDING_VALUE` is far above the stride term (under 1,000 for the rig's vertices),
/// so the second is never 0 and has the sign of `b − a` at every vertex: the changes of a
/// slot's fragments add up, never cancel. The largest change, 30 × about 1.5 million per
/// fragment, times the few fragments a slot has stays below 2^32, so the wrapping sum cannot
/// come back around to the right value either (`indexed.rs`'s
/// `swapped_bindings_cannot_cancel_in_a_slot` holds the rig to these bounds).
pub const BINDING_WEIGHTS: [u32; MAX_VERTEX_BUFFERS] = {
    let mut w = [0; MAX_VERTEX_BUFFERS];
    let mut i = 0;
    while i < MAX_VERTEX_BUFFERS {
        w[i] = 2 * i as u32 + 1;
        i += 1;
    }
    w
};

/// Why the device cannot take the tally pipeline's vertex input for `bindings` (the layout's
/// VERTEX_BUFFER tokens' bindings), if it cannot: a binding at or above maxVertexInputBindings,
/// or, for two or more, fewer than the [`MAX_VERTEX_BUFFERS`] attributes
/// `draw_*_bindings.vert` reads.
pub fn vertex_input_unfit(limits: &vk::PhysicalDeviceLimits, bindings: &[u32]) -> Option<String> {
    let max_bindings = limits.max_vertex_input_bindings;
    if let Some(b) = bindings.iter().find(|&&b| b >= max_bindings) {
        return Some(format!("vertex binding {b} is not below the device's maxVertexInputBindings = {max_bindings}"));
    }
    let attributes = if bindings.len() >= 2 { MAX_VERTEX_BUFFERS } else { bindings.len() };
    (attributes as u32 > limits.max_vertex_input_attributes).then(|| {
        format!(
            "the tally vertex shader for {} vertex buffers reads {attributes} attributes, above the device's maxVertexInputAttributes = {}",
            bindings.len(),
            limits.max_vertex_input_attributes
        )
    })
}

/// What entry 1 of a draw layout's execution set adds to a fragment's w (`ENTRY_WEIGHT` in
/// `draw_tally.frag`).
pub const SET_ENTRY_WEIGHT: u32 = 1000;

/// Execute `run` with `layout` of `m` on a 1×1 target and return the tally.
pub fn execute(
    ctx: &GpuContext,
    dev: &DgcDevice,
    m: &Manifest,
    layout: &CompiledLayout,
    run: &DrawRun<'_>,
) -> Result<Tally> {
    if !ctx.caps().fragment_stores_and_atomics {
        return Err(RuntimeError::MissingFeature {
            device: ctx.device_name().to_owned(),
            feature: "fragmentStoresAndAtomics".into(),
            needed_for: "the draw tally, which counts fragments with storage-buffer atomics".into(),
        });
    }
    if let Some(why) = run.vertex_input.as_ref().and_then(|v| vertex_input_unfit(&ctx.properties().limits, &v.bindings))
    {
        return Err(RuntimeError::Invalid(why));
    }
    let d = ctx.device();
    let mut made = Made::default();
    let result = (|| {
        let per_slot = run.words.as_ref().map_or(0, |w| w.per_slot as usize);
        let (s, descriptors, pl) = made.tally_and_stream(ctx, m, run.records, run.sequences, per_slot, None)?;
        // SAFETY: `pl` is live and holds the manifest's ranges.
        let l = made.layout.insert(unsafe { dev.create_layout(layout, &m.push_constants, pl) }?);
        let binding = run.vertex_input.as_ref().map_or(&[][..], |v| &v.bindings[..]);
        let shaders = Shaders {
            front: run.front,
            between: run.between,
            vertex_spec: vec![],
            fragment: run.words.as_ref().map_or(FRAG_SPV, |w| w.fragment),
            carried: run.words.as_ref().map(|w| w.carried),
        };
        let pipeline = graphics_pipeline(d, pl, &shaders, 0, run.execution_set, binding)?;
        made.pipelines.push(pipeline);
        if run.execution_set {
            let second = graphics_pipeline(d, pl, &shaders, SET_ENTRY_WEIGHT, true, binding)?;
            made.pipelines.push(second);
            // SAFETY: indirect-bindable pipelines of `pl` for the layout's stages, alive until
            // after the set; nothing has used the set yet.
            let ies = made.set_of_two.insert(unsafe { dev.create_execution_set(l, pipeline) }?);
            unsafe { dev.write_execution_set(ies, 1, second) }?;
        }
        let bound = match &made.set_of_two {
            Some(ies) => Bound::ExecutionSet(ies.handle(), pipeline),
            None => Bound::Pipeline(pipeline),
        };
        let target = made.target.insert(target(ctx)?);
        let (image, view) = (target.image(), target.view());
        // SAFETY: `l` is `dev`'s; `pipeline` (or the set) was made with `pl` for the layout.
        let exec =
            made.exec.insert(unsafe { Execution::new(dev, l, bound, run.sequences, run.max_draw_count, 64 << 20) }?);
        if run.vertex_input.is_some() {
            // What `graphics_pipeline` made: `record` checks it against the layout (E0904).
            exec.set_record_state(RecordState {
                vertex_input_binding_stride_dynamic: Some(true),
                ..Default::default()
            });
        }
        let background = match &run.words {
            Some(w) => w
                .background
                .iter()
                .map(|(offset, bytes)| {
                    let pieces = push_pieces(&m.push_constants, *offset, bytes.len() as u32);
                    pieces.map(|p| (p, *offset, bytes.as_slice())).map_err(RuntimeError::Invalid)
                })
                .collect::<Result<Vec<_>>>()?,
            None => vec![],
        };
        ctx.one_shot(|cmd| unsafe {
            to_attachment(d, cmd, image);
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::GRAPHICS, pl, 0, &[descriptors], &[]);
            for (pieces, offset, bytes) in &background {
                // The pieces lie inside `pl`'s ranges with their stages (`push_pieces`).
                push(d, cmd, pl, pieces, *offset, bytes);
            }
            if let Some(decoy) = run.decoy_indices {
                d.cmd_bind_index_buffer(cmd, decoy, 0, vk::IndexType::UINT32);
            }
            if let Some(v) = &run.vertex_input {
                for &binding in &v.bindings {
                    // Also sets the binding's dynamic stride, which the pipeline requires set.
                    let stride = [v.decoy_stride as u64];
                    d.cmd_bind_vertex_buffers2(cmd, binding, &[v.decoy], &[0], None, Some(&stride));
                }
            }
            exec.record(dev, l, cmd, &s, &mut OnePixel { d, view })?;
            tally_to_host(d, cmd);
            Ok(())
        })?;
        Tally::from_words(&tally_words(made.tally.as_ref().expect("made above")), per_slot)
    })();
    // SAFETY: the submission finished (or failed: `one_shot` waits for the queue either way),
    // or never happened.
    unsafe { made.destroy(ctx, Some(dev)) };
    result
}

/// What one execution makes, destroyed together whatever step failed (`Made::destroy`), so
/// that an error part-way leaks nothing.
#[derive(Default)]
struct Made {
    tally: Option<Buffer>,
    stream: Option<Buffer>,
    /// Buffers bound after the stream (the fallback's table of where each word is read).
    more: Vec<Buffer>,
    set: Option<StorageSet>,
    pl: Option<vk::PipelineLayout>,
    layout: Option<dgcc::runtime::DgcLayout>,
    pipelines: Vec<vk::Pipeline>,
    set_of_two: Option<dgcc::runtime::ExecutionSet>,
    target: Option<Image>,
    exec: Option<Execution>,
}

impl Made {
    /// The tally (with room for `words` pushed words per slot), the stream holding `records`,
    /// the descriptor set binding the tally (to the fragment shader; with `stream_bound`, the
    /// stream too and then a buffer of each of `more`, to the vertex shader that reads the
    /// pushed words from the stream under the fallback) and the pipeline layout with the
    /// manifest's push ranges: what every execution draws with.
    fn tally_and_stream(
        &mut self,
        ctx: &GpuContext,
        m: &Manifest,
        records: &[u8],
        sequences: u32,
        words: usize,
        stream_bound: Option<&[&[u8]]>,
    ) -> Result<(Stream, vk::DescriptorSet, vk::PipelineLayout)> {
        let d = ctx.device();
        let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
        let start = Tally::start(words);
        let tally = self.tally.insert(Buffer::new(ctx, start.len() as u64, storage, Location::Host)?);
        tally.write(0, &start)?;
        let tally_buffer = tally.buffer();
        let usage = storage | vk::BufferUsageFlags::INDIRECT_BUFFER;
        let stream = self.stream.insert(Buffer::new(ctx, records.len() as u64, usage, Location::Host)?);
        stream.write(0, records)?;
        let s = Stream {
            buffer: stream.buffer(),
            offset: 0,
            address: stream.address(),
            max_sequences: sequences,
            count: None,
        };
        let (stages, buffers) = match stream_bound {
            Some(more) => {
                let mut buffers = vec![tally_buffer, s.buffer];
                for data in more {
                    let b = data_buffer(ctx, storage, data)?;
                    buffers.push(b.buffer());
                    self.more.push(b);
                }
                (vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT, buffers)
            }
            None => (vk::ShaderStageFlags::FRAGMENT, vec![tally_buffer]),
        };
        // SAFETY: live storage buffers, destroyed after the set (`destroy`).
        let set = self.set.insert(unsafe { StorageSet::new(d, stages, &buffers) }?);
        let descriptors = set.set();
        let ranges = vk_ranges(&m.push_constants);
        let set_layouts = [set.layout()];
        let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts).push_constant_ranges(&ranges);
        // SAFETY: valid create info.
        let pl =
            unsafe { d.create_pipeline_layout(&info, None) }.map_err(RuntimeError::vk("vkCreatePipelineLayout"))?;
        self.pl = Some(pl);
        Ok((s, descriptors, pl))
    }

    /// # Safety
    /// Everything was made on `ctx` (and `dev`), and no pending work uses it.
    unsafe fn destroy(&mut self, ctx: &GpuContext, dev: Option<&DgcDevice>) {
        let d = ctx.device();
        // SAFETY: the caller's contract; each object is destroyed once, users before what they use.
        unsafe {
            let _ = d.device_wait_idle();
            if let Some(dev) = dev {
                if let Some(e) = &mut self.exec {
                    e.destroy(dev);
                }
                if let Some(ies) = &mut self.set_of_two {
                    ies.destroy(dev);
                }
                if let Some(l) = &mut self.layout {
                    l.destroy(dev);
                }
            }
            if let Some(t) = &mut self.target {
                t.destroy(d);
            }
            for p in self.pipelines.drain(..) {
                d.destroy_pipeline(p, None);
            }
            if let Some(pl) = self.pl.take() {
                d.destroy_pipeline_layout(pl, None);
            }
            if let Some(set) = &mut self.set {
                set.destroy(d);
            }
            for b in [&mut self.tally, &mut self.stream].into_iter().flatten().chain(&mut self.more) {
                b.destroy(d);
            }
        }
    }
}

const STREAM_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_stream.vert.spv");
const PUSHED_STREAM_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_pushed_stream.vert.spv");
/// The draw tally of a layout that pushes nothing: the slot is gl_InstanceIndex / 16, under
/// DGC and the fallback alike.
pub const INSTANCED_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_instanced.vert.spv");
/// `draw_tally.frag` keeping the words the vertex shader carried (`draw_tally_fragment.glsl`).
pub const CARRIED_FRAG: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_tally_carried.frag.spv");

/// One execution of a draw layout through the runtime's [`Fallback`](dgcc::runtime::Fallback): one indirect multi-draw
/// over the records, the vertex shader reading each draw's pushed words from its record
/// ([`FallbackVertex`]).
pub struct FallbackRun<'a> {
    pub records: &'a [u8],
    pub sequences: u32,
    /// The one index buffer every record's indices live in (indexed draws).
    pub indices: Option<vk::Buffer>,
    pub vertex: FallbackVertex<'a>,
}

/// What the vertex shader reads from the records under the fallback.
pub enum FallbackVertex<'a> {
    /// Nothing: the slot is gl_InstanceIndex / 16 (`draw_instanced.vert`).
    Instanced,
    /// The slot and the value summed in w, at these words of the record
    /// (`draw_stream.vert`).
    Slot { slot_word: u32, extra_word: Option<u32> },
    /// Pushed words carried to the fragment shader, the slot from gl_InstanceIndex
    /// (`draw_pushed_stream.vert`): where each is read, a word of the record or
    /// `draw_words::FROM_DRAW_ID` or `NOWHERE`.
    Words { sources: &'a [u32] },
}

/// Execute `run` with `layout` through `fallback` on a 1×1 target and return the tally.
pub fn execute_fallback(
    ctx: &GpuContext,
    m: &Manifest,
    layout: &CompiledLayout,
    fallback: &dgcc::runtime::Fallback,
    run: &FallbackRun<'_>,
) -> Result<Tally> {
    let d = ctx.device();
    let mut made = Made::default();
    let result = (|| {
        let stride_words = layout.stride / 4;
        let instanced = Shaders {
            front: Front::Vertex(INSTANCED_VERT),
            between: &[],
            vertex_spec: vec![],
            fragment: FRAG_SPV,
            carried: None,
        };
        let (shaders, table) = match run.vertex {
            FallbackVertex::Instanced => (instanced, None),
            FallbackVertex::Slot { slot_word, extra_word } => {
                let spec = vec![(0, stride_words), (1, slot_word), (2, extra_word.unwrap_or(u32::MAX))];
                (Shaders { front: Front::Vertex(STREAM_VERT), vertex_spec: spec, ..instanced }, None)
            }
            FallbackVertex::Words { sources } => {
                let n = sources.len() as u32;
                let shaders = Shaders {
                    front: Front::Vertex(PUSHED_STREAM_VERT),
                    vertex_spec: vec![(0, stride_words), (1, n)],
                    fragment: CARRIED_FRAG,
                    carried: Some(n),
                    ..instanced
                };
                (shaders, Some(sources.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()))
            }
        };
        let per_slot = shaders.carried.unwrap_or(0) as usize;
        let bound: Option<Vec<&[u8]>> = match (&run.vertex, &table) {
            (FallbackVertex::Instanced, _) => None,
            (_, table) => Some(table.iter().map(Vec::as_slice).collect()),
        };
        let (s, descriptors, pl) =
            made.tally_and_stream(ctx, m, run.records, run.sequences, per_slot, bound.as_deref())?;
        let pipeline = graphics_pipeline(d, pl, &shaders, 0, false, &[])?;
        made.pipelines.push(pipeline);
        let target = made.target.insert(target(ctx)?);
        let (image, view) = (target.image(), target.view());
        ctx.one_shot(|cmd| unsafe {
            to_attachment(d, cmd, image);
            let mut pass = OnePixel { d, view };
            pass.begin(cmd, 0);
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::GRAPHICS, pl, 0, &[descriptors], &[]);
            if let Some(indices) = run.indices {
                d.cmd_bind_index_buffer(cmd, indices, 0, vk::IndexType::UINT32);
            }
            let r = fallback.record(d, cmd, &s, pl, Some(run.sequences));
            pass.end(cmd, 0);
            r?;
            tally_to_host(d, cmd);
            Ok(())
        })?;
        Tally::from_words(&tally_words(made.tally.as_ref().expect("made above")), per_slot)
    })();
    // SAFETY: the submission finished (or failed: `one_shot` waits for the queue either way),
    // or never happened.
    unsafe { made.destroy(ctx, None) };
    result
}

fn color_range() -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    }
}

/// Rendering to the 1×1 target around each chunk: cleared for the first, loaded after.
struct OnePixel<'a> {
    d: &'a ash::Device,
    view: vk::ImageView,
}

impl Pass for OnePixel<'_> {
    fn begin(&mut self, cmd: vk::CommandBuffer, chunk: u32) {
        let attachment = vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT;
        if chunk > 0 {
            let b = [vk::MemoryBarrier2::default()
                .src_stage_mask(attachment)
                .src_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
                .dst_stage_mask(attachment)
                .dst_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_READ | vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)];
            // SAFETY: between render pass instances.
            unsafe { self.d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&b)) };
        }
        let load = if chunk == 0 { vk::AttachmentLoadOp::CLEAR } else { vk::AttachmentLoadOp::LOAD };
        let color = [vk::RenderingAttachmentInfo::default()
            .image_view(self.view)
            .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .load_op(load)
            .store_op(vk::AttachmentStoreOp::STORE)];
        let area = vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width: 1, height: 1 } };
        let info = vk::RenderingInfo::default().render_area(area).layer_count(1).color_attachments(&color);
        // SAFETY: the target is in COLOR_ATTACHMENT_OPTIMAL (see `execute`).
        unsafe { self.d.cmd_begin_rendering(cmd, &info) };
    }
    fn end(&mut self, cmd: vk::CommandBuffer, _chunk: u32) {
        // SAFETY: rendering was begun by `begin`.
        unsafe { self.d.cmd_end_rendering(cmd) };
    }
}

/// The 1×1 colour target the tallies draw into.
fn target(ctx: &GpuContext) -> Result<Image> {
    Image::new(ctx, COLOR_FORMAT, (1, 1), vk::ImageUsageFlags::COLOR_ATTACHMENT, vk::ImageAspectFlags::COLOR)
}

/// Move the target to the colour-attachment layout before its pass.
///
/// # Safety
/// `cmd` is recording on `d`, outside a render pass; `image` is a live image of `d`.
unsafe fn to_attachment(d: &ash::Device, cmd: vk::CommandBuffer, image: vk::Image) {
    let barrier = [vk::ImageMemoryBarrier2::default()
        .dst_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
        .dst_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
        .old_layout(vk::ImageLayout::UNDEFINED)
        .new_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
        .image(image)
        .subresource_range(color_range())];
    // SAFETY: the caller's contract.
    unsafe { d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&barrier)) };
}

/// The shaders of a tally pipeline: `front` (its vertex shader specialized with
/// `vertex_spec`), those `between` it and the fragment shader, and the fragment shader
/// (`draw_tally.frag`, or a variant that keeps pushed words, told how many the shaders before
/// it carry).
struct Shaders<'a> {
    front: Front<'a>,
    between: &'a [StageShader],
    vertex_spec: Vec<(u32, u32)>,
    fragment: &'a [u8],
    carried: Option<u32>,
}

/// A graphics pipeline for a 1×1 target: `shaders`, the fragment shader adding `weight` to w,
/// no culling, no depth, patches of 3 control points where it tessellates; `indirect_bindable`
/// for an execution set; with one of `vertex_bindings`, one `R32_UINT` attribute at location 0
/// read from it; with several, one at each of the [`MAX_VERTEX_BUFFERS`] locations, location
/// `i` read from the `i`-th of them, whatever its number (a location past them from the first,
/// weighed 0); every binding's stride dynamic (`VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE`,
/// which a VERTEX_BUFFER token requires).
fn graphics_pipeline(
    d: &ash::Device,
    layout: vk::PipelineLayout,
    shaders: &Shaders<'_>,
    weight: u32,
    indirect_bindable: bool,
    vertex_bindings: &[u32],
) -> Result<vk::Pipeline> {
    let front = shaders.front;
    let locations = match vertex_bindings.len() {
        0 | 1 => vertex_bindings.len(),
        _ => MAX_VERTEX_BUFFERS,
    };
    let mut vertex_spec = shaders.vertex_spec.clone();
    if locations > 1 {
        // `WEIGHT_i` (constant_id 10 + i in `draw_indexed.glsl`).
        let weights = BINDING_WEIGHTS.iter().enumerate();
        vertex_spec.extend(weights.map(|(i, &w)| (10 + i as u32, if i < vertex_bindings.len() { w } else { 0 })));
    }
    // Each stage in pipeline order: its flag, SPIR-V and specialization.
    type Stage<'s> = (vk::ShaderStageFlags, &'s [u8], Vec<(u32, u32)>);
    let mut list: Vec<Stage<'_>> = match front {
        Front::Vertex(vert) => vec![(vk::ShaderStageFlags::VERTEX, vert, vertex_spec)],
        Front::TaskMesh { task, mesh } => {
            vec![(vk::ShaderStageFlags::TASK_EXT, task, vec![]), (vk::ShaderStageFlags::MESH_EXT, mesh, vec![])]
        }
    };
    list.extend(shaders.between.iter().map(|s| (s.stage, s.spv.as_slice(), s.spec.clone())));
    let fragment_spec: Vec<(u32, u32)> = [(0, weight)].into_iter().chain(shaders.carried.map(|n| (1, n))).collect();
    list.push((vk::ShaderStageFlags::FRAGMENT, shaders.fragment, fragment_spec));
    let mut modules = vec![];
    for &(_, spv, _) in &list {
        // SAFETY: committed, valid SPIR-V (or such a module with its push block placed).
        match unsafe { module(d, spv) } {
            Ok(m) => modules.push(m),
            Err(e) => {
                for m in modules {
                    // SAFETY: made above, used by nothing.
                    unsafe { d.destroy_shader_module(m, None) };
                }
                return Err(e);
            }
        }
    }
    let specs: Vec<_> = list.iter().map(|(_, _, spec)| dgcc::runtime::shaders::Spec::new(spec)).collect();
    let spec_infos: Vec<_> = specs.iter().map(|s| s.info()).collect();
    let stages: Vec<_> = list
        .iter()
        .zip(&modules)
        .zip(&spec_infos)
        .map(|(((flag, _, spec), &m), info)| {
            let stage = vk::PipelineShaderStageCreateInfo::default().stage(*flag).module(m).name(c"main");
            if spec.is_empty() {
                stage
            } else {
                stage.specialization_info(info)
            }
        })
        .collect();
    // Tessellation takes each triangle as a patch of its 3 vertices (`draw_tally.tesc`).
    let tessellates = list.iter().any(|s| s.0 == vk::ShaderStageFlags::TESSELLATION_CONTROL);
    let tessellation = vk::PipelineTessellationStateCreateInfo::default().patch_control_points(3);
    let bindings: Vec<_> = vertex_bindings
        .iter()
        .map(|&binding| vk::VertexInputBindingDescription {
            binding,
            stride: 4,
            input_rate: vk::VertexInputRate::VERTEX,
        })
        .collect();
    let attributes: Vec<_> = (0..locations)
        .map(|location| vk::VertexInputAttributeDescription {
            location: location as u32,
            binding: vertex_bindings.get(location).copied().unwrap_or(vertex_bindings[0]),
            format: vk::Format::R32_UINT,
            offset: 0,
        })
        .collect();
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_binding_descriptions(&bindings)
        .vertex_attribute_descriptions(&attributes);
    let dynamic_states = [vk::DynamicState::VERTEX_INPUT_BINDING_STRIDE];
    let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
    let topology = if tessellates { vk::PrimitiveTopology::PATCH_LIST } else { vk::PrimitiveTopology::TRIANGLE_LIST };
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(topology);
    let viewports = [vk::Viewport { x: 0.0, y: 0.0, width: 1.0, height: 1.0, min_depth: 0.0, max_depth: 1.0 }];
    let scissors = [vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width: 1, height: 1 } }];
    let viewport = vk::PipelineViewportStateCreateInfo::default().viewports(&viewports).scissors(&scissors);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .line_width(1.0);
    let multisample =
        vk::PipelineMultisampleStateCreateInfo::default().rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let attachments =
        [vk::PipelineColorBlendAttachmentState::default().color_write_mask(vk::ColorComponentFlags::RGBA)];
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&attachments);
    let formats = [COLOR_FORMAT];
    let mut rendering = vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats);
    let mut flags2 = vk::PipelineCreateFlags2CreateInfoKHR::default()
        .flags(dgcc::runtime::ext_dgc::bits::PIPELINE_CREATE_2_INDIRECT_BINDABLE_EXT);
    let mut info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .color_blend_state(&blend)
        .layout(layout)
        .push_next(&mut rendering);
    if indirect_bindable {
        info = info.push_next(&mut flags2);
    }
    if !vertex_bindings.is_empty() {
        info = info.dynamic_state(&dynamic);
    }
    if tessellates {
        info = info.tessellation_state(&tessellation);
    }
    if matches!(front, Front::Vertex(_)) {
        // Mesh pipelines have no vertex input or input assembly.
        info = info.vertex_input_state(&vertex_input).input_assembly_state(&assembly);
    }
    // SAFETY: valid create info; the modules are destroyed after creation.
    let result = unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) };
    for m in modules {
        unsafe { d.destroy_shader_module(m, None) };
    }
    result.map(|p| p[0]).map_err(|(_, r)| RuntimeError::Vulkan { call: "vkCreateGraphicsPipelines", result: r })
}

/// A host-visible buffer holding `data` (index, indirect or storage data the records point at).
pub fn data_buffer(ctx: &GpuContext, usage: vk::BufferUsageFlags, data: &[u8]) -> Result<Buffer> {
    let mut b = Buffer::new(ctx, data.len() as u64, usage, Location::Host)?;
    if let Err(e) = b.write(0, data) {
        // SAFETY: just made, used by nothing.
        unsafe { b.destroy(ctx.device()) };
        return Err(e);
    }
    Ok(b)
}

/// The fragment shaders' tally writes, made visible to the host that reads them.
///
/// # Safety
/// `cmd` is a command buffer of `d` recording outside a render pass.
unsafe fn tally_to_host(d: &ash::Device, cmd: vk::CommandBuffer) {
    // SAFETY: the caller's contract.
    unsafe { writes_to_host(d, cmd, vk::PipelineStageFlags2::FRAGMENT_SHADER) }
}

/// Storage-buffer writes of shaders at `stage`, made visible to the host (a fence wait alone
/// does not make device writes visible to host reads).
///
/// # Safety
/// `cmd` is a command buffer of `d` recording outside a render pass.
pub(super) unsafe fn writes_to_host(d: &ash::Device, cmd: vk::CommandBuffer, stage: vk::PipelineStageFlags2) {
    let to_host = [vk::MemoryBarrier2::default()
        .src_stage_mask(stage)
        .src_access_mask(vk::AccessFlags2::SHADER_STORAGE_WRITE)
        .dst_stage_mask(vk::PipelineStageFlags2::HOST)
        .dst_access_mask(vk::AccessFlags2::HOST_READ)];
    // SAFETY: the caller's contract.
    unsafe { d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&to_host)) };
}

/// The tally buffer's words as the host reads them (none when it is not mapped).
fn tally_words(tally: &Buffer) -> Vec<u32> {
    tally.bytes().unwrap_or(&[]).chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// A device with fewer vertex input bindings or attributes than a layout's tally pipeline takes
/// is named with the limit; the spec's minimum (16 of each) takes any count up to
/// [`MAX_VERTEX_BUFFERS`] at bindings below 16.
#[cfg(test)]
#[test]
fn vertex_input_within_the_device_limits() {
    let minimum = vk::PhysicalDeviceLimits {
        max_vertex_input_bindings: 16,
        max_vertex_input_attributes: 16,
        ..Default::default()
    };
    let sixteen: Vec<u32> = (0..16).rev().collect();
    for bindings in [&[][..], &[15], &[3, 0], &sixteen] {
        assert_eq!(vertex_input_unfit(&minimum, bindings), None, "{bindings:?}");
    }
    let why = vertex_input_unfit(&minimum, &[0, 16]).unwrap();
    assert!(why.contains("vertex binding 16 is not below the device's maxVertexInputBindings = 16"), "{why}");
    let few = vk::PhysicalDeviceLimits { max_vertex_input_attributes: 8, ..minimum };
    assert_eq!(vertex_input_unfit(&few, &[5]), None);
    let why = vertex_input_unfit(&few, &[0, 1]).unwrap();
    assert!(why.contains("reads 16 attributes, above the device's maxVertexInputAttributes = 8"), "{why}");
}
