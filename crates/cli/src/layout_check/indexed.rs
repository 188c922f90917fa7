//! Draw layouts executed for real, through [`rig`](super::rig): a DRAW, DRAW_INDEXED or one of
//! their _COUNTs, after any PUSH_CONSTANT and SEQUENCE_INDEX tokens, at most one INDEX_BUFFER
//! (indexed draws) and at most sixteen VERTEX_BUFFER tokens ([`MAX_VERTEX_BUFFERS`], at any
//! bindings the device has), in any order, as `multi_draw.ron`'s Batches, `scene.ron`'s
//! SceneDraw and SceneBatch and `draw_shaders.ron`'s Draws are.
//!
//! Where a fragment's tally slot comes from ([`SlotFrom`]): for a layout that pushes one 32-bit
//! word at offset 0 to the vertex stage (or two without a _COUNT action), that word
//! ([`Pushed::Slot`]); for any other, gl_InstanceIndex / [`INSTANCES_PER_SLOT`]
//! (`draw_instanced.vert`, `draw_pushed.vert`), the draws of the sequence with slot `s`
//! starting at firstInstance 16·s + a few, so a misread firstInstance moves their fragments to
//! another slot; for a DRAW_INDEXED_COUNT alone, as `scene.ron`'s SceneBatch, the draw's
//! gl_DrawID (`draw_count_id.vert`), as it always was. A layout that pushes anything else
//! ([`Pushed::Words`]: words elsewhere, several tokens, other field types, a sequence index,
//! or a push beside two or more vertex buffers) has every pushed word read back per sequence
//! ([`draw_words`](super::draw_words) says how), so the slot never depends on what is checked.
//!
//! Why the sequences look the way they do: each one differs from the others in everything a
//! token carries, so a token that was ignored or misread shows in the tally. The slot is not
//! the sequence's index; index buffers alternate 32- and 16-bit indices and live at different
//! addresses (a 16-bit buffer read as 32-bit makes degenerate triangles, which draw nothing);
//! the triangles' tags differ per buffer and per draw (firstIndex, vertexOffset); instance
//! counts and firstInstance show in the instance sum; the count token's draws are read with
//! strides of 20, 24 and 32 bytes, counts of 0, 1, 3 and one above `maxDrawCount` (the spec
//! clamps it). A decoy index buffer is bound before executing, so a sequence that drew with it
//! instead of its own has tags of 500 and up. An indexed draw without an INDEX_BUFFER token
//! draws from the one index buffer bound before executing: every sequence's 32-bit indices are
//! in their own region of it, reached through firstIndex. With a VERTEX_BUFFER token each
//! sequence binds its own vertex buffer (`Vertices`) with its own stride (4 to 20 bytes) and
//! values, which w sums (`draw_*_vertices.vert`), and a decoy is bound before executing, so an
//! ignored token, another sequence's address or a misread stride changes w; with two to
//! sixteen, each token's buffers have values and strides of their own and w weighs each
//! binding differently (`draw_*_bindings.vert`; [`BINDING_WEIGHTS`] says why no sum hides a
//! swap), so two tokens whose buffers changed places change it too. Where the device has fewer
//! vertex input bindings or attributes than that takes, the layout is not run
//! ([`vertex_input_unfit`](super::rig::vertex_input_unfit)). The index and vertex buffers'
//! sizes are written exactly; a misread size shows only where the device bounds-checks the
//! fetches. A record written wrong on purpose (`corrupt`) has its draw changed, or where it
//! draws and a pushed data word is read back, the first such word alone, so that only the
//! word check can name it (`DrawWords::word_to_flip`).

use super::between::TallyStages;
use super::draw_words::{join, DrawWords, PassShaders};
use super::pushed::write_pushed;
use super::rig::{
    data_buffer, execute, execute_fallback, DrawRun, FallbackRun, FallbackVertex, Front, Records, Slots, Tally,
    VertexInput, BINDING_WEIGHTS, INSTANCED_VERT, MAX_VERTEX_BUFFERS, SET_ENTRY_WEIGHT,
};
use ash::vk;
use dgcc::ir::{CompiledLayout, CompiledToken, Manifest, TokenType};
use dgcc::runtime::error::Result;
use dgcc::runtime::memory::Buffer;
use dgcc::runtime::RuntimeError;
use dgcc::runtime::{DgcDevice, GpuContext};

const BATCH_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_batch.vert.spv");
const OBJECT_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_object.vert.spv");
const COUNT_ID_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_count_id.vert.spv");
const BATCH_VERTICES_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_batch_vertices.vert.spv");
const OBJECT_VERTICES_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_object_vertices.vert.spv");
const INSTANCED_VERTICES_VERT: &[u8] =
    include_bytes!("../../../../shaders/runtime/spv/draw_instanced_vertices.vert.spv");
const INSTANCED_BINDINGS_VERT: &[u8] =
    include_bytes!("../../../../shaders/runtime/spv/draw_instanced_bindings.vert.spv");
/// `maxDrawCount` for count layouts; one sequence asks for more.
pub const MAX_DRAW_COUNT: u32 = 4;
/// Instances per tally slot of a layout that pushes nothing (`draw_instanced.vert` divides
/// gl_InstanceIndex by it).
pub const INSTANCES_PER_SLOT: u32 = 16;
const DECOY_TAG: u32 = 500;
/// Each sequence's indices and draws start this far apart in their buffers.
const REGION: usize = 256;
/// Where in its draws region a count sequence keeps its spare draw, which a corrupted record
/// of a sequence whose own draws show nothing names (`corrupted_count`); past its draws.
const SPARE: usize = 192;
/// Each sequence's vertex buffer starts this far apart from the next, and holds `VERTICES`
/// vertices (the tags' vertices stay below it).
const VERTEX_REGION: usize = 4096;
const VERTICES: u32 = 128;
/// Word `i` of sequence `k`'s vertex buffer holds `VERTEX_VALUE·(k + 1) + i` (plus
/// `BINDING_VALUE` for each VERTEX_BUFFER token before its own), of the decoy's
/// `DECOY_VERTEX_VALUE + i`.
const VERTEX_VALUE: u32 = 10_000;
const BINDING_VALUE: u32 = 100_000;
const DECOY_VERTEX_VALUE: u32 = 900_000;
/// Sequence `k`'s vertex stride in bytes: `VERTEX_STRIDES[k % 6]`, neighbours differing (for
/// its second VERTEX_BUFFER token `VERTEX_STRIDES[(k + 2) % 6]`, and so on).
const VERTEX_STRIDES: [u32; 6] = [8, 4, 16, 12, 20, 4];

/// One draw: `triangles` triangles from triangle `first_triangle` of the sequence's index
/// buffer, every tag moved by `shift` (vertexOffset = 3·shift).
#[derive(Clone, Copy)]
struct Draw {
    first_triangle: u32,
    triangles: u32,
    instances: u32,
    first_instance: u32,
    shift: u32,
}

/// A sequence's vertex buffer: word `i` holds `first + i`, vertex `v` is read at byte
/// `v·stride`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Vertices {
    first: u32,
    stride: u32,
}

impl Vertices {
    /// What sequence `k`'s record binds with the layout's `i`-th VERTEX_BUFFER token.
    fn of(k: usize, i: usize) -> Vertices {
        Vertices {
            first: VERTEX_VALUE * (k as u32 + 1) + BINDING_VALUE * i as u32,
            stride: VERTEX_STRIDES[(k + 2 * i) % VERTEX_STRIDES.len()],
        }
    }

    /// What is bound before executing, which the VERTEX_BUFFER token must replace.
    fn decoy() -> Vertices {
        Vertices { first: DECOY_VERTEX_VALUE, stride: 4 }
    }

    /// What the vertex shader reads for vertex `v`.
    fn value(&self, v: u32) -> u32 {
        self.first + v * self.stride / 4
    }

    /// The bytes of the buffer's region.
    fn bytes(&self) -> Vec<u8> {
        (0..(VERTEX_REGION / 4) as u32).flat_map(|i| (self.first + i).to_le_bytes()).collect()
    }

    /// The size the record gives: its `VERTICES` vertices.
    fn size(&self) -> u32 {
        VERTICES * self.stride
    }
}

#[derive(Clone)]
struct Sequence {
    /// The tally slot (the first pushed word, or firstInstance / 16) and, for layouts that push
    /// two words, a value summed in w.
    slot: u32,
    extra: u32,
    /// 32-bit indices, else 16-bit.
    wide: bool,
    /// The tag of each triangle of the index buffer.
    tags: Vec<u32>,
    draws: Vec<Draw>,
    /// Bytes between draws in the count token's buffer.
    stride: u32,
    /// The vertex buffers its record binds, one per VERTEX_BUFFER token, in token order.
    vertices: Vec<Vertices>,
}

const fn draw(first_triangle: u32, triangles: u32, instances: u32, first_instance: u32, shift: u32) -> Draw {
    Draw { first_triangle, triangles, instances, first_instance, shift }
}

/// Sequences for a count layout: up to `MAX_DRAW_COUNT + 1` draws each.
fn count_sequences() -> Vec<Sequence> {
    let seq = |slot, wide, tags: &[u32], draws: &[Draw], stride| Sequence {
        slot,
        extra: 0,
        wide,
        tags: tags.to_vec(),
        draws: draws.to_vec(),
        stride,
        vertices: vec![],
    };
    vec![
        seq(5, true, &[1, 2, 3], &[draw(0, 1, 1, 0, 0)], 20),
        seq(2, false, &[4, 5, 6, 7], &[], 20),
        seq(7, true, &[8, 9], &[draw(1, 1, 2, 3, 10), draw(0, 2, 1, 0, 0), draw(0, 1, 3, 7, 0)], 32),
        seq(
            1,
            false,
            &[11, 12, 13],
            &[draw(0, 3, 1, 0, 0), draw(2, 1, 2, 1, 0), draw(1, 1, 1, 0, 20), draw(0, 1, 1, 4, 0), draw(0, 3, 9, 0, 0)],
            24,
        ),
        seq(3, true, &[14, 15, 16, 17], &[draw(3, 1, 1, 0, 0), draw(1, 2, 2, 5, 1)], 20),
        seq(9, false, &[18, 19], &[draw(0, 2, 0, 0, 0)], 24),
    ]
}

/// Sequences for a DRAW_INDEXED layout: one draw each, two pushed words.
fn single_sequences() -> Vec<Sequence> {
    let seq = |slot, extra, wide, tags: &[u32], d: Draw| Sequence {
        slot,
        extra,
        wide,
        tags: tags.to_vec(),
        draws: vec![d],
        stride: 0,
        vertices: vec![],
    };
    vec![
        seq(6, 40, true, &[21, 22, 23], draw(1, 2, 1, 0, 0)),
        seq(0, 41, false, &[24, 25], draw(0, 1, 3, 2, 5)),
        seq(12, 42, true, &[26], draw(0, 1, 2, 0, 0)),
        seq(4, 43, false, &[27, 28, 29, 30], draw(2, 2, 1, 9, 1)),
        seq(10, 44, true, &[31, 32], draw(0, 2, 0, 0, 0)),
    ]
}

/// What a layout pushes, and how the tally reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    /// No PUSH_CONSTANT or SEQUENCE_INDEX token.
    Nothing,
    /// One PUSH_CONSTANT token, to the vertex stage, of one 32-bit word at offset 0 (or two
    /// without a _COUNT action), and no SEQUENCE_INDEX: the first word is the tally slot, the
    /// second summed in w (`draw_batch.vert`, `draw_object.vert`), as `scene.ron` pushes.
    Slot { words: usize },
    /// Anything else: every word read back ([`draw_words`](super::draw_words)), the slot from
    /// firstInstance.
    Words,
}

/// Where a fragment's tally slot comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotFrom {
    /// The first pushed word (`draw_batch.vert`, `draw_object.vert`).
    Pushed,
    /// The draw's gl_DrawID: a DRAW_INDEXED_COUNT alone (`draw_count_id.vert`).
    DrawId,
    /// gl_InstanceIndex / `INSTANCES_PER_SLOT`: a layout that pushes nothing
    /// (`draw_instanced.vert`), or whose pushed words are read back (`draw_pushed.vert`).
    Instance,
}

/// The slot of instance `instance` (its gl_InstanceIndex) of draw `j` of sequence `k`.
type SlotOf = fn(usize, &Sequence, usize, u32) -> u32;

impl SlotFrom {
    fn slot(self) -> SlotOf {
        match self {
            SlotFrom::Pushed => |_, s, _, _| s.slot,
            SlotFrom::DrawId => |_, _, j, _| j as u32,
            SlotFrom::Instance => |_, _, _, instance| instance / INSTANCES_PER_SLOT,
        }
    }
}

/// What the rig writes for a draw layout (its execution set left out): [`shape`]'s answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    action: TokenType,
    counted: bool,
    indexed: bool,
    pushed: Pushed,
    index_token: bool,
    /// The VERTEX_BUFFER tokens' bindings, in token order.
    vertex_bindings: Vec<u32>,
    slot: SlotFrom,
}

impl Shape {
    /// The VERTEX_BUFFER tokens' bindings, in token order.
    pub fn vertex_bindings(&self) -> &[u32] {
        &self.vertex_bindings
    }

    /// A DRAW_INDEXED or DRAW_INDEXED_COUNT.
    pub fn indexed(&self) -> bool {
        self.indexed
    }

    pub fn slot(&self) -> SlotFrom {
        self.slot
    }

    pub fn pushed(&self) -> Pushed {
        self.pushed
    }

    /// Where the indices come from and where the slot does, for the report, then `more`
    /// (what was read of the pushed words): empty for the shapes with a pushed slot and an
    /// INDEX_BUFFER token (or no indices).
    pub fn notes(&self, more: &str) -> String {
        let mut notes = vec![];
        if self.slot == SlotFrom::Instance {
            notes.push("tally slot from firstInstance");
        }
        if self.indexed && !self.index_token {
            notes.push("one index buffer bound");
        }
        let buffers = format!("{} vertex buffers each", self.vertex_bindings.len());
        match self.vertex_bindings.len() {
            0 => {}
            1 => notes.push("a vertex buffer each"),
            _ => notes.push(&buffers),
        }
        match (notes.is_empty(), more.is_empty()) {
            (true, true) => String::new(),
            (false, true) => format!(" ({})", notes.join(", ")),
            (true, false) => format!(" ({more})"),
            (false, false) => format!(" ({}; {more})", notes.join(", ")),
        }
    }

    /// Sequences for this shape. `shared`: every sequence's indices are 32-bit, in its region
    /// of one index buffer.
    fn sequences(&self, shared: bool) -> Vec<Sequence> {
        let base = if self.counted { count_sequences() } else { single_sequences() };
        base.into_iter()
            .enumerate()
            .map(|(k, s)| {
                let draws = match self.slot {
                    SlotFrom::Instance => s
                        .draws
                        .iter()
                        .map(|d| Draw { first_instance: INSTANCES_PER_SLOT * s.slot + d.first_instance, ..*d })
                        .collect(),
                    _ => s.draws.clone(),
                };
                Sequence {
                    extra: if self.pushed == (Pushed::Slot { words: 2 }) { s.extra } else { 0 },
                    wide: s.wide || shared,
                    draws,
                    vertices: (0..self.vertex_bindings.len()).map(|i| Vertices::of(k, i)).collect(),
                    ..s
                }
            })
            .collect()
    }

    /// A count sequence's spare draw: one triangle, one instance, in the sequence's own slot.
    fn spare(&self, s: &Sequence) -> Draw {
        let first_instance = if self.slot == SlotFrom::Instance { INSTANCES_PER_SLOT * s.slot } else { 0 };
        draw(0, 1, 1, first_instance, 0)
    }

    /// The vertex shader that tallies this shape.
    fn vertex_shader(&self) -> &'static [u8] {
        let two = self.pushed == Pushed::Slot { words: 2 };
        // Two or more vertex buffers come with a slot from firstInstance (`shape`).
        match (self.slot, two, self.vertex_bindings.len()) {
            (SlotFrom::DrawId, ..) => COUNT_ID_VERT,
            (SlotFrom::Instance, _, 0) => INSTANCED_VERT,
            (SlotFrom::Instance, _, 1) => INSTANCED_VERTICES_VERT,
            (_, _, 2..) => INSTANCED_BINDINGS_VERT,
            (SlotFrom::Pushed, true, 0) => OBJECT_VERT,
            (SlotFrom::Pushed, true, 1) => OBJECT_VERTICES_VERT,
            (SlotFrom::Pushed, false, 0) => BATCH_VERT,
            (SlotFrom::Pushed, false, 1) => BATCH_VERTICES_VERT,
        }
    }
}

/// What the shaders add for `sequences` when at most `max_draws` draws of each run and
/// instance `i` (its gl_InstanceIndex) of draw `j` of sequence `k` lands in slot
/// `slot(k, sequence, j, i)`.
#[cfg(test)]
fn expected(sequences: &[Sequence], max_draws: usize, slot: impl Fn(usize, &Sequence, usize, u32) -> u32) -> Tally {
    expected_with_set(sequences, max_draws, slot, false)
}

/// As `expected`; `set`: sequence `k` draws with execution-set entry `k % 2`, and entry 1 adds
/// `SET_ENTRY_WEIGHT` to w. A triangle's vertex-buffer value is its first vertex's (flat
/// shading keeps the provoking vertex's), each buffer's times its weight.
fn expected_with_set(
    sequences: &[Sequence],
    max_draws: usize,
    slot: impl Fn(usize, &Sequence, usize, u32) -> u32,
    set: bool,
) -> Tally {
    let mut t = Tally::default();
    for (k, s) in sequences.iter().enumerate() {
        let weight = if set && k % 2 == 1 { SET_ENTRY_WEIGHT } else { 0 };
        for (j, d) in s.draws.iter().take(max_draws).enumerate() {
            for i in 0..d.triangles {
                let tag = s.tags[(d.first_triangle + i) as usize] + d.shift;
                let weights = binding_weights(s.vertices.len());
                let value = s
                    .vertices
                    .iter()
                    .zip(weights)
                    .fold(0u32, |sum, (v, &w)| sum.wrapping_add(w.wrapping_mul(v.value(3 * tag))));
                for n in 0..d.instances {
                    let instance = d.first_instance + n;
                    t.add(slot(k, s, j, instance), tag, instance, value.wrapping_add(s.extra + weight));
                }
            }
        }
    }
    t
}

/// Whether `run` executes `layout` through its execution set (of pipelines, on a device that
/// can bind it); otherwise a layout with a set runs binned, without it, one pipeline bound.
pub fn binds_set(dev: &DgcDevice, m: &Manifest, layout: &CompiledLayout) -> bool {
    // A set before a count token alone runs binned too: its slots are the draws' gl_DrawID,
    // which the entries' draws share.
    let by_draw = shape(layout).is_ok_and(|s| s.slot == SlotFrom::DrawId);
    !by_draw && super::set_of_two_binds(dev, m, layout)
}

/// The expected tallies are not blind to the mistakes the GPU run is meant to catch: for every
/// slot source, a misread of each field a token carries (the pushed slot, index buffer address
/// and type, index or vertex count, instance count, firstIndex, vertexOffset, firstInstance,
/// vertex buffer address and stride), not clamping the draw count to `maxDrawCount`, running
/// one draw per sequence, an execution-set entry drawing as the other.
#[cfg(test)]
#[test]
fn misreadings_change_the_expected_tally() {
    type Misread = (&'static str, fn(usize, &Sequence, &[Sequence]) -> Sequence);
    // Each mistake as what the device would have drawn for sequence `k` instead.
    let misreadings: [Misread; 16] = [
        ("index buffer of the next sequence", |k, s, all| {
            // Its tags, as many as this sequence's draws reach (past its end, its first again).
            let next = &all[(k + 1) % all.len()].tags;
            Sequence { tags: (0..s.tags.len()).map(|i| next[i % next.len()]).collect(), ..s.clone() }
        }),
        ("the decoy index buffer", |_, s, _| Sequence { tags: (0..8).map(|t| DECOY_TAG + t).collect(), ..s.clone() }),
        ("16-bit indices read as 32-bit", |_, s, _| Sequence {
            // Degenerate triangles (two 16-bit indices per word) draw nothing.
            draws: if s.wide { s.draws.clone() } else { vec![] },
            ..s.clone()
        }),
        ("index count read as one triangle", |_, s, _| map_draws(s, |d| Draw { triangles: d.triangles.min(1), ..d })),
        ("index count read as none", |_, s, _| map_draws(s, |d| Draw { triangles: 0, ..d })),
        ("instance count read as 1", |_, s, _| map_draws(s, |d| Draw { instances: 1, ..d })),
        ("firstIndex read as 0", |_, s, _| map_draws(s, |d| Draw { first_triangle: 0, ..d })),
        ("vertexOffset ignored", |_, s, _| map_draws(s, |d| Draw { shift: 0, ..d })),
        ("firstInstance read as 0", |_, s, _| map_draws(s, |d| Draw { first_instance: 0, ..d })),
        ("firstInstance of the next sequence", |k, s, all| {
            let next = all[(k + 1) % all.len()].draws.first().map_or(0, |d| d.first_instance);
            map_draws(s, |d| Draw { first_instance: next, ..d })
        }),
        ("the next sequence's vertex-buffer addresses", |k, s, all| {
            let next = &all[(k + 1) % all.len()].vertices;
            let vertices = s.vertices.iter().zip(next).map(|(&v, n)| Vertices { first: n.first, ..v }).collect();
            Sequence { vertices, ..s.clone() }
        }),
        ("the decoy vertex buffer", |_, s, _| Sequence {
            vertices: s.vertices.iter().map(|_| Vertices::decoy()).collect(),
            ..s.clone()
        }),
        ("vertex stride read as 4", |_, s, _| Sequence {
            vertices: s.vertices.iter().map(|&v| Vertices { stride: 4, ..v }).collect(),
            ..s.clone()
        }),
        ("the last vertex-buffer token ignored", |_, s, _| {
            let mut vertices = s.vertices.clone();
            vertices.pop();
            vertices.extend((vertices.len() < s.vertices.len()).then(Vertices::decoy));
            Sequence { vertices, ..s.clone() }
        }),
        ("two vertex-buffer tokens' bindings swapped", |_, s, _| {
            let mut vertices = s.vertices.clone();
            if vertices.len() >= 2 {
                vertices.swap(0, 1);
            }
            Sequence { vertices, ..s.clone() }
        }),
        ("the first and the last vertex-buffer tokens' bindings swapped", |_, s, _| {
            let mut vertices = s.vertices.clone();
            if let Some(last) = vertices.len().checked_sub(1) {
                vertices.swap(0, last);
            }
            Sequence { vertices, ..s.clone() }
        }),
    ];
    for counted in [false, true] {
        let slot_of = |words| (Pushed::Slot { words }, SlotFrom::Pushed);
        for (pushed, slot) in
            [slot_of(1), slot_of(2), (Pushed::Nothing, SlotFrom::Instance), (Pushed::Words, SlotFrom::Instance)]
        {
            // Any binding numbers, sparse and out of order: only their count shapes the tally.
            let many = [vec![7, 0, 31, 2, 9, 4], (0..MAX_VERTEX_BUFFERS as u32).rev().collect()];
            for vertex_bindings in [vec![], vec![0], vec![1, 3], vec![0, 2, 5, 6]].into_iter().chain(many) {
                if vertex_bindings.len() >= 2 && slot == SlotFrom::Pushed {
                    continue;
                }
                let shape = Shape {
                    action: if counted { TokenType::DrawIndexedCount } else { TokenType::DrawIndexed },
                    counted,
                    indexed: true,
                    pushed,
                    index_token: true,
                    vertex_bindings,
                    slot,
                };
                if counted && pushed == (Pushed::Slot { words: 2 }) {
                    continue;
                }
                let sequences = shape.sequences(false);
                let max = if counted { MAX_DRAW_COUNT as usize } else { 1 };
                let slot_of = slot.slot();
                let right = expected(&sequences, max, slot_of);
                let case = format!("{shape:?}");
                assert_ne!(right, Tally::default(), "{case}: nothing drawn");
                if slot == SlotFrom::Pushed {
                    assert_ne!(
                        right,
                        expected(&sequences, max, |k, _, _, _| k as u32),
                        "{case}: slot = sequence index"
                    );
                    assert_ne!(right, expected(&sequences, max, |_, _, _, _| 0), "{case}: slot = 0");
                }
                let set = expected_with_set(&sequences, max, slot_of, true);
                assert_ne!(right, set, "{case}: execution-set entry 1 drew as entry 0");
                for (what, misread) in &misreadings {
                    // Each sequence misread alone: the tally changes whichever it is, unless
                    // the sequence draws nothing to show it (no instance, or no draw).
                    for k in 0..sequences.len() {
                        let shows = sequences[k].draws.iter().take(max).any(|d| d.instances > 0 && d.triangles > 0);
                        let mut wrong = sequences.clone();
                        wrong[k] = misread(k, &sequences[k], &sequences);
                        let unchanged = wrong[k].tags == sequences[k].tags
                            && wrong[k].vertices == sequences[k].vertices
                            && same_draws(&wrong[k], &sequences[k], max);
                        if shows && !unchanged {
                            assert_ne!(right, expected(&wrong, max, slot_of), "{case}: sequence {k}, {what}");
                        }
                    }
                }
            }
        }
    }
    let sequences = count_sequences();
    let pushed = SlotFrom::Pushed.slot();
    let right = expected(&sequences, MAX_DRAW_COUNT as usize, pushed);
    assert_ne!(right, expected(&sequences, usize::MAX, pushed), "commandCount not clamped");
    assert_ne!(right, expected(&sequences, 1, pushed), "one draw per sequence");
    // A count layout alone: gl_DrawID read as 0, or the clamp missed, or one draw each.
    let by_draw = SlotFrom::DrawId.slot();
    let drawn = expected(&sequences, MAX_DRAW_COUNT as usize, by_draw);
    assert_ne!(drawn, expected(&sequences, MAX_DRAW_COUNT as usize, |_, _, _, _| 0), "gl_DrawID read as 0");
    assert_ne!(drawn, expected(&sequences, usize::MAX, by_draw), "commandCount not clamped");
    assert_ne!(drawn, expected(&sequences, 1, by_draw), "one draw per sequence");
    // Without pushed data, the same for firstInstance's slots.
    let instanced = Shape {
        action: TokenType::DrawCount,
        counted: true,
        indexed: false,
        pushed: Pushed::Nothing,
        index_token: false,
        vertex_bindings: vec![],
        slot: SlotFrom::Instance,
    }
    .sequences(true);
    let by_instance = SlotFrom::Instance.slot();
    let right = expected(&instanced, MAX_DRAW_COUNT as usize, by_instance);
    assert_ne!(right, expected(&instanced, usize::MAX, by_instance), "commandCount not clamped");
    assert_ne!(right, expected(&instanced, 1, by_instance), "one draw per sequence");
}

#[cfg(test)]
fn map_draws(s: &Sequence, f: impl Fn(Draw) -> Draw) -> Sequence {
    Sequence { draws: s.draws.iter().map(|&d| f(d)).collect(), ..s.clone() }
}

#[cfg(test)]
/// Whether the first `max` draws (those that run) of `a` and `b` are the same.
fn same_draws(a: &Sequence, b: &Sequence, max: usize) -> bool {
    let words = |s: &Sequence| -> Vec<[u32; 5]> {
        s.draws
            .iter()
            .take(max)
            .map(|d| [d.first_triangle, d.triangles, d.instances, d.first_instance, d.shift])
            .collect()
    };
    words(a) == words(b)
}

/// Every sequence's slots are distinct, and a layout without pushed data keeps each
/// sequence's instances in its own slot (firstInstance + instanceCount within its 16), even
/// with the instance `--corrupt-sequence` adds; a count sequence's draws end before its spare
/// draw, which ends inside its region, as do its indices.
#[cfg(test)]
#[test]
fn instance_slots_stay_in_their_block() {
    for s in count_sequences() {
        assert!(s.draws.len() * s.stride as usize <= SPARE && SPARE + 20 <= REGION, "slot {}", s.slot);
    }
    for sequences in [count_sequences(), single_sequences()] {
        assert!(sequences.iter().all(|s| index_bytes(&Sequence { wide: true, ..s.clone() }).len() <= REGION));
        let mut slots: Vec<u32> = sequences.iter().map(|s| s.slot).collect();
        slots.sort();
        slots.dedup();
        assert_eq!(slots.len(), sequences.len());
        for s in &sequences {
            for d in &s.draws {
                assert!(d.first_instance + d.instances < INSTANCES_PER_SLOT, "slot {}", s.slot);
            }
            assert!((s.slot as usize) < super::rig::TALLY_SLOTS);
        }
    }
}

/// Every VERTEX_BUFFER token shows on its own, for every count from two to
/// [`MAX_VERTEX_BUFFERS`] and every sequence that draws: any two tokens' buffers swapped, any
/// one token ignored (the decoy left bound), its stride misread, or its address read as the next
/// sequence's, changes the expected tally.
#[cfg(test)]
#[test]
fn every_vertex_buffer_token_shows_on_its_own() {
    for n in 2..=MAX_VERTEX_BUFFERS {
        for counted in [false, true] {
            let shape = Shape {
                action: if counted { TokenType::DrawIndexedCount } else { TokenType::DrawIndexed },
                counted,
                indexed: true,
                pushed: Pushed::Nothing,
                index_token: true,
                vertex_bindings: (0..n as u32).collect(),
                slot: SlotFrom::Instance,
            };
            let sequences = shape.sequences(false);
            let max = if counted { MAX_DRAW_COUNT as usize } else { 1 };
            let slot_of = SlotFrom::Instance.slot();
            let right = expected(&sequences, max, slot_of);
            for k in (0..sequences.len()).filter(|&k| shows(&sequences[k], max)) {
                let own = &sequences[k].vertices;
                let next = &sequences[(k + 1) % sequences.len()].vertices;
                let check = |what: String, vertices: Vec<Vertices>| {
                    let mut wrong = sequences.clone();
                    wrong[k].vertices = vertices;
                    assert_ne!(
                        right,
                        expected(&wrong, max, slot_of),
                        "{n} tokens, counted {counted}, sequence {k}: {what}"
                    );
                };
                for a in 0..n {
                    for b in a + 1..n {
                        let mut swapped = own.clone();
                        swapped.swap(a, b);
                        check(format!("tokens {a} and {b} swapped"), swapped);
                    }
                    let with = |v: Vertices| {
                        let mut vertices = own.clone();
                        vertices[a] = v;
                        vertices
                    };
                    check(format!("token {a} ignored"), with(Vertices::decoy()));
                    check(
                        format!("token {a}'s stride read 4 bytes longer"),
                        with(Vertices { stride: own[a].stride + 4, ..own[a] }),
                    );
                    check(
                        format!("token {a}'s address the next sequence's"),
                        with(Vertices { first: next[a].first, ..own[a] }),
                    );
                }
            }
        }
    }
}

/// The bounds [`BINDING_WEIGHTS`]' comment rests on, for the rig's own sequences: the weights
/// all different; the stride term of any vertex a sequence draws far below `BINDING_VALUE`,
/// so that two tokens' values differ with the sign of their order at every vertex; and the most
/// a swap can change a slot's w (its fragments times the largest change of one) below 2^32,
/// so that the wrapping sum cannot come back around.
#[cfg(test)]
#[test]
fn swapped_bindings_cannot_cancel_in_a_slot() {
    let w = &BINDING_WEIGHTS;
    assert!(w.windows(2).all(|p| p[0] < p[1]), "{w:?}");
    let widest = *VERTEX_STRIDES.iter().max().unwrap() as u64 / 4 + 1;
    let (mut spread, mut fragments) = (0u64, 0u64);
    for (sequences, max) in [(count_sequences(), MAX_DRAW_COUNT as usize), (single_sequences(), 1)] {
        for s in &sequences {
            let drawn = s.draws.iter().take(max);
            fragments = fragments.max(drawn.clone().map(|d| (d.triangles * (d.instances + 1)) as u64).sum());
            for d in drawn {
                for i in 0..d.triangles {
                    let tag = s.tags[(d.first_triangle + i) as usize] + d.shift;
                    spread = spread.max(3 * tag as u64 * widest);
                }
            }
        }
    }
    assert!(spread < 1_000 && 1_000 < BINDING_VALUE as u64, "stride term {spread}");
    let most =
        (w[MAX_VERTEX_BUFFERS - 1] - w[0]) as u64 * (BINDING_VALUE as u64 * (MAX_VERTEX_BUFFERS as u64 - 1) + spread);
    assert!(fragments * most < 1 << 32, "{fragments} fragments × {most}");
}

/// The index bytes of a sequence: triangle `tag` is indices `3·tag + 0, 1, 2`.
fn index_bytes(s: &Sequence) -> Vec<u8> {
    let indices = s.tags.iter().flat_map(|&t| (0..3).map(move |c| 3 * t + c));
    if s.wide {
        indices.flat_map(u32::to_le_bytes).collect()
    } else {
        indices.flat_map(|i| u16::try_from(i).unwrap().to_le_bytes()).collect()
    }
}

/// `VkDrawIndexedIndirectCommand` of `d`, its indices from index `first_index` on.
fn command(d: &Draw, first_index: u32) -> [u8; 20] {
    let words = [3 * d.triangles, d.instances, first_index + 3 * d.first_triangle, 3 * d.shift, d.first_instance];
    let mut out = [0u8; 20];
    for (k, w) in words.iter().enumerate() {
        out[4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// Whether the rig can write and read back `layout` (after leaving out its execution set), and
/// how; or why not.
pub fn shape(layout: &CompiledLayout) -> std::result::Result<Shape, String> {
    let layout = layout.without_execution_set();
    let Some(action) = layout.action().map(|a| a.token_type) else {
        return Err("it has no action token".into());
    };
    let (counted, indexed) = kind(action).ok_or("its action is not a DRAW, DRAW_INDEXED or one of their _COUNTs")?;
    let rest = &layout.tokens[..layout.tokens.len() - 1];
    let allowed = |tt: TokenType| {
        matches!(tt, TokenType::PushConstant | TokenType::SequenceIndex | TokenType::VertexBuffer)
            || (indexed && tt == TokenType::IndexBuffer)
    };
    let of = |tt: TokenType| rest.iter().filter(move |t| t.token_type == tt);
    let fits = of(TokenType::IndexBuffer).count() <= 1 && of(TokenType::VertexBuffer).count() <= MAX_VERTEX_BUFFERS;
    if !fits || rest.iter().any(|t| !allowed(t.token_type)) {
        let names: Vec<&str> = layout.tokens.iter().map(|t| t.token_type.manifest_name()).collect();
        return Err(format!(
            "the draw tally rig writes any PUSH_CONSTANT and SEQUENCE_INDEX tokens, {}at most {MAX_VERTEX_BUFFERS} VERTEX_BUFFER tokens before the action; this layout has {}",
            if indexed { "at most one INDEX_BUFFER and " } else { "" },
            names.join(", ")
        ));
    }
    let vertex_bindings: Vec<u32> = of(TokenType::VertexBuffer).map(|t| t.vertex_binding.unwrap_or(0)).collect();
    let pushes: Vec<&CompiledToken> = of(TokenType::PushConstant).collect();
    let pushed = match (&pushes[..], of(TokenType::SequenceIndex).count()) {
        ([], 0) => Pushed::Nothing,
        ([push], 0) if vertex_bindings.len() <= 1 && pushes_a_slot(push, counted) => {
            Pushed::Slot { words: push.fields.len() }
        }
        _ => Pushed::Words,
    };
    let index_token = of(TokenType::IndexBuffer).next().is_some();
    let slot = match pushed {
        Pushed::Slot { .. } => SlotFrom::Pushed,
        Pushed::Nothing if counted && indexed && !index_token && vertex_bindings.is_empty() => SlotFrom::DrawId,
        Pushed::Nothing | Pushed::Words => SlotFrom::Instance,
    };
    Ok(Shape { action, counted, indexed, pushed, index_token, vertex_bindings, slot })
}

/// Whether `push` is shaped as a tally slot the vertex shader reads (`Pushed::Slot`): one
/// 32-bit integer word at push-constant offset 0, or two without a _COUNT action, pushed to
/// the vertex stage. (With two or more vertex buffers a layout reads its pushed words back
/// instead: their tally shader takes its slot from firstInstance.)
fn pushes_a_slot(push: &CompiledToken, counted: bool) -> bool {
    let integers = push.fields.iter().all(|f| f.ty == "U32" || f.ty == "I32");
    let vertex = push.push_constant.is_some_and(|r| r.stages & vk::ShaderStageFlags::VERTEX.as_raw() != 0);
    let range = push.push_constant.map(|r| (r.offset, r.size));
    let fits = match (counted, push.fields.len()) {
        (_, 1) => range == Some((0, 4)),
        (false, 2) => range == Some((0, 8)),
        _ => false,
    };
    integers && vertex && fits
}

/// `(counted, indexed)` of a draw action.
fn kind(action: TokenType) -> Option<(bool, bool)> {
    match action {
        TokenType::DrawIndexed => Some((false, true)),
        TokenType::DrawIndexedCount => Some((true, true)),
        TokenType::Draw => Some((false, false)),
        TokenType::DrawCount => Some((true, false)),
        _ => None,
    }
}

/// How many sequences `run` writes for `layout`.
pub fn sequence_count(layout: &CompiledLayout) -> u32 {
    if layout.action().and_then(|a| kind(a.token_type)).is_some_and(|(counted, _)| counted) {
        count_sequences().len() as u32
    } else {
        single_sequences().len() as u32
    }
}

/// `VkDrawIndirectCommand` words of `d` without an index buffer: the tags of a sequence are
/// consecutive, so vertex `3·tag + corner` is reached from firstVertex = 3·(first tag + shift).
fn plain_words(s: &Sequence, d: &Draw) -> [u32; 4] {
    let first_tag = s.tags.get(d.first_triangle as usize).copied().unwrap_or(0);
    [3 * d.triangles, d.instances, 3 * (first_tag + d.shift), d.first_instance]
}

fn plain_command(s: &Sequence, d: &Draw) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (k, w) in plain_words(s, d).iter().enumerate() {
        out[4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// Where sequence `k`'s buffer for VERTEX_BUFFER token `b` (in token order) starts in the one
/// vertex buffer of `n` sequences: each token's regions one after the other.
fn vertex_region(b: usize, k: usize, n: usize) -> usize {
    VERTEX_REGION * (b * n + k)
}

/// The weight w sums each of `n` vertex buffers' values with: one alone, the first `n` of
/// [`BINDING_WEIGHTS`] for several (`WEIGHT_i` in `draw_indexed.glsl`).
fn binding_weights(n: usize) -> &'static [u32] {
    match n {
        0 | 1 => &[1],
        _ => &BINDING_WEIGHTS[..n.min(BINDING_WEIGHTS.len())],
    }
}

/// The first index of sequence `k`'s region in a shared index buffer of 32-bit indices.
fn region_first_index(k: usize) -> u32 {
    (REGION * k / 4) as u32
}

/// Host-visible buffers made for one run, destroyed together.
#[derive(Default)]
struct Buffers(Vec<Buffer>);

impl Buffers {
    /// A buffer holding `data`; its index among the made ones.
    fn add(&mut self, ctx: &GpuContext, usage: vk::BufferUsageFlags, data: &[u8]) -> Result<usize> {
        self.0.push(data_buffer(ctx, usage, data)?);
        Ok(self.0.len() - 1)
    }

    /// # Safety
    /// No pending work uses them.
    unsafe fn destroy(&mut self, ctx: &GpuContext) {
        for b in &mut self.0 {
            // SAFETY: the caller's contract.
            unsafe { b.destroy(ctx.device()) };
        }
    }
}

/// The tokens of a layout of `shape` that the rig writes, by index.
struct Tokens {
    /// The PUSH_CONSTANT token and its fields' names.
    push: Option<(usize, Vec<String>)>,
    index: Option<usize>,
    /// The VERTEX_BUFFER tokens, in order.
    vertex: Vec<usize>,
    act: usize,
}

impl Tokens {
    fn find(records: &Records<'_>, layout: &CompiledLayout, shape: &Shape) -> Result<Tokens> {
        let push = match shape.pushed {
            Pushed::Slot { .. } => {
                let push = records.token(TokenType::PushConstant)?;
                Some((push, layout.tokens[push].fields.iter().map(|f| f.name.clone()).collect()))
            }
            Pushed::Nothing | Pushed::Words => None,
        };
        let index = if shape.index_token { Some(records.token(TokenType::IndexBuffer)?) } else { None };
        let vertex =
            (0..layout.tokens.len()).filter(|&i| layout.tokens[i].token_type == TokenType::VertexBuffer).collect();
        Ok(Tokens { push, index, vertex, act: records.token(shape.action)? })
    }
}

/// Where the records point: the index buffer (one region per sequence, or shared), the draws
/// of count layouts, the vertex buffers.
#[derive(Clone, Copy)]
struct Addresses {
    indices: u64,
    /// Bytes of the whole index buffer (what a shared buffer's records give as its size).
    indices_size: u32,
    draws: u64,
    vertices: u64,
}

/// What one path's run of a draw layout drew: what the tally shaders counted, what the records
/// asked for, the tally slots of each sequence, and for a layout whose pushed words are read
/// back (`Pushed::Words`), which words, where (their values are in the tallies' `seen`).
pub struct DrawChecked {
    pub got: Tally,
    pub want: Tally,
    pub slots: Slots,
    pub words: Option<DrawWords>,
}

/// Execute `layout` (a draw layout of [`shape`]) through DGC and return `(what ran, what
/// should have, the tally slots of each sequence)`: [`check`] without naming the words.
pub fn run(
    ctx: &GpuContext,
    dev: &DgcDevice,
    m: &Manifest,
    layout: &CompiledLayout,
    corrupt: Option<u32>,
) -> Result<(Tally, Tally, Slots)> {
    check(ctx, dev, m, layout, corrupt).map(|c| (c.got, c.want, c.slots))
}

/// Execute `layout` (a draw layout of [`shape`]) through DGC and read back what it drew.
/// `corrupt`: write that sequence's draw wrong (one more instance, or a wrong draw count), or
/// the first pushed data word it reads back, while expecting what it should have drawn: a
/// test's deliberate mistake.
pub fn check(
    ctx: &GpuContext,
    dev: &DgcDevice,
    m: &Manifest,
    layout: &CompiledLayout,
    corrupt: Option<u32>,
) -> Result<DrawChecked> {
    let shape = shape(layout).map_err(RuntimeError::Invalid)?;
    // A draw layout that picks its pipeline through an execution set draws through a set of two
    // tally pipelines where the device can bind it (sequence k uses entry k % 2, which shows in
    // w); elsewhere (and for shader-object sets) it runs binned, with one tally pipeline bound
    // (the records are the same, the set index unread).
    let through_set = binds_set(dev, m, layout);
    // The tally pipeline's stages between vertex and fragment: the layout's (the set's).
    let stages = TallyStages::of(ctx, layout, through_set);
    // Named by the layout as written (the binned one below has no EXECUTION_SET token).
    let words = (shape.pushed == Pushed::Words).then(|| DrawWords::dgc(m, layout, &stages));
    let reading = words.as_ref().filter(|w| w.reads_any());
    // The shaders of each execution that reading every word takes (`DrawWords::passes`).
    let passes: Vec<PassShaders> = match reading {
        Some(w) => w
            .passes()
            .map(|p| p.dgc_shaders(shape.vertex_bindings.len(), &stages))
            .collect::<std::result::Result<_, _>>()
            .map_err(RuntimeError::Invalid)?,
        None => vec![],
    };
    let tally_only = stages.tally_only();
    let set_token = layout.tokens.iter().position(|t| t.token_type == TokenType::ExecutionSet);
    let binned;
    let layout = if layout.execution_set().is_some() && !through_set {
        binned = layout.without_execution_set();
        &binned
    } else {
        layout
    };
    // An indexed draw without an INDEX_BUFFER token draws from the one bound before executing.
    let shared = shape.indexed && !shape.index_token;
    let sequences = shape.sequences(shared);
    let n = sequences.len() as u32;
    let mut index_data = vec![0u8; REGION * sequences.len()];
    let mut draw_data = vec![0u8; REGION * sequences.len()];
    // Each token's buffers, one region per sequence (`vertex_region`).
    let vertex_data: Vec<u8> = (0..shape.vertex_bindings.len())
        .flat_map(|i| sequences.iter().flat_map(move |s| s.vertices[i].bytes()))
        .collect();
    for (k, s) in sequences.iter().enumerate() {
        let bytes = index_bytes(s);
        index_data[REGION * k..REGION * k + bytes.len()].copy_from_slice(&bytes);
        let first_index = if shared { region_first_index(k) } else { 0 };
        let spare = shape.counted.then(|| (SPARE, shape.spare(s)));
        let draws = s.draws.iter().enumerate().map(|(j, d)| (j * s.stride as usize, *d));
        for (offset, d) in draws.chain(spare) {
            let at = REGION * k + offset;
            let c = if shape.indexed { command(&d, first_index).to_vec() } else { plain_command(s, &d).to_vec() };
            draw_data[at..at + c.len()].copy_from_slice(&c);
        }
    }
    let decoy_indices: Vec<u8> = (0..64u32).flat_map(|i| (3 * (DECOY_TAG + i / 3) + i % 3).to_le_bytes()).collect();
    let mut records = Records::new(layout, n);
    let tokens = Tokens::find(&records, layout, &shape)?;
    let mut made = Buffers::default();
    let ran = (|| {
        let index_usage = vk::BufferUsageFlags::INDEX_BUFFER;
        let vertex_usage = vk::BufferUsageFlags::VERTEX_BUFFER;
        let indices = made.add(ctx, index_usage, &index_data)?;
        let draws = made.add(ctx, vk::BufferUsageFlags::INDIRECT_BUFFER, &draw_data)?;
        let decoy = made.add(ctx, index_usage, &decoy_indices)?;
        let (vertices, decoy_vertices) = match shape.vertex_bindings.is_empty() {
            false => (
                Some(made.add(ctx, vertex_usage, &vertex_data)?),
                Some(made.add(ctx, vertex_usage, &Vertices::decoy().bytes())?),
            ),
            true => (None, None),
        };
        let b = &made.0;
        let addresses = Addresses {
            indices: b[indices].address(),
            indices_size: index_data.len() as u32,
            draws: b[draws].address(),
            vertices: vertices.map_or(0, |v| b[v].address()),
        };
        write_set_indices(&mut records, set_token.filter(|_| through_set), n)?;
        let flip = words.as_ref().and_then(|w| w.word_to_flip(layout));
        write_records(&mut records, &shape, &tokens, &sequences, addresses, shared, corrupt, flip)?;
        let mut run = DrawRun {
            front: Front::Vertex(shape.vertex_shader()),
            between: &tally_only,
            records: &records.bytes,
            sequences: n,
            max_draw_count: if shape.counted { MAX_DRAW_COUNT } else { 0 },
            // The decoy that an INDEX_BUFFER token replaces, or the one buffer every sequence
            // draws from.
            decoy_indices: match (shared, shape.indexed) {
                (true, _) => Some(b[indices].buffer()),
                (false, true) => Some(b[decoy].buffer()),
                (false, false) => None,
            },
            vertex_input: decoy_vertices.map(|decoy| VertexInput {
                bindings: shape.vertex_bindings.clone(),
                decoy: b[decoy].buffer(),
                decoy_stride: Vertices::decoy().stride,
            }),
            execution_set: through_set,
            words: None,
        };
        let Some(w) = reading else { return execute(ctx, dev, m, layout, &run) };
        let mut tallies = vec![];
        for (pass, shaders) in w.passes().zip(&passes) {
            run.front = Front::Vertex(&shaders.vertex);
            run.between = &shaders.between;
            run.words = Some(pass.run(&shaders.fragment));
            tallies.push(execute(ctx, dev, m, layout, &run)?);
        }
        join(&tallies).map_err(RuntimeError::Invalid)
    })();
    // SAFETY: `execute` waited for the submission, or nothing was submitted.
    unsafe { made.destroy(ctx) };
    let max_draws = if shape.counted { MAX_DRAW_COUNT as usize } else { 1 };
    let slots = slots(&shape, &sequences, max_draws);
    let got = ran?;
    let mut want = expected_with_set(&sequences, max_draws, shape.slot.slot(), through_set);
    if let Some(w) = reading {
        w.expect(&mut want, &got, &slots);
    }
    Ok(DrawChecked { got, want, slots, words })
}

/// The tally slots each sequence draws into (for a count layout alone, its draws' gl_DrawID).
fn slots(shape: &Shape, sequences: &[Sequence], max_draws: usize) -> Slots {
    match shape.slot {
        SlotFrom::DrawId => sequences.iter().map(|s| (0..s.draws.len().min(max_draws) as u32).collect()).collect(),
        SlotFrom::Pushed | SlotFrom::Instance => sequences.iter().map(|s| vec![s.slot]).collect(),
    }
}

/// Where in the draws buffer a count sequence's record points and how many draws it names: its
/// region and all its draws, or, written wrong (`corrupt`), none of them where they show, and
/// where they show nothing (no draws, or none with an instance) its spare draw, which does
/// (`Shape::spare`), in its own slot: a wrong record must change the tally whichever sequence
/// it is, and name that sequence.
fn corrupted_count(sequences: &[Sequence], k: usize, corrupt: bool) -> (usize, u32) {
    match (corrupt, shows(&sequences[k], usize::MAX)) {
        (false, _) => (REGION * k, sequences[k].draws.len() as u32),
        (true, true) => (REGION * k, 0),
        (true, false) => (REGION * k + SPARE, 1),
    }
}

/// Whether any of the first `max_draws` draws of `s` draws a fragment.
fn shows(s: &Sequence, max_draws: usize) -> bool {
    s.draws.iter().take(max_draws).any(|d| d.instances > 0 && d.triangles > 0)
}

/// Sequence `k` picks execution-set entry `k % 2`.
fn write_set_indices(records: &mut Records<'_>, set: Option<usize>, n: u32) -> Result<()> {
    if let Some(set) = set {
        for k in 0..n {
            records.put_u32(k, set, "", k % 2)?;
        }
    }
    Ok(())
}

/// Write the records of `sequences` through the manifest's members. `shared`: every record's
/// indices are in its region of one buffer of 32-bit indices (the INDEX_BUFFER token, if any,
/// names all of it), reached through firstIndex. `corrupt`: the sequence written wrong on
/// purpose; `flip`: the byte of the pushed word that shows it, if one is read back.
#[allow(clippy::too_many_arguments)]
fn write_records(
    records: &mut Records<'_>,
    shape: &Shape,
    tokens: &Tokens,
    sequences: &[Sequence],
    to: Addresses,
    shared: bool,
    corrupt: Option<u32>,
    flip: Option<u32>,
) -> Result<()> {
    let act = tokens.act;
    for (k, s) in sequences.iter().enumerate() {
        let i = k as u32;
        // A record written wrong on purpose: where a pushed word is read back, that word, its
        // draw left as it is when it shows (so that only the word check can name it), else
        // made to show; otherwise its draw.
        let corrupted = corrupt == Some(i);
        let flipped = shape.pushed == Pushed::Words && write_pushed(records, i, flip.filter(|_| corrupted));
        let max_draws = if shape.counted { MAX_DRAW_COUNT as usize } else { 1 };
        let wrong = corrupted && !(flipped && shows(s, max_draws));
        if let Some((push, fields)) = &tokens.push {
            records.put_u32(i, *push, &fields[0], s.slot)?;
            if let Some(extra) = fields.get(1) {
                records.put_u32(i, *push, extra, s.extra)?;
            }
        }
        if let Some(index) = tokens.index {
            let (address, size) = match shared {
                true => (to.indices, to.indices_size),
                false => (to.indices + (REGION * k) as u64, index_bytes(s).len() as u32),
            };
            records.put_u64(i, index, "address", address)?;
            records.put_u32(i, index, "size", size)?;
            let index_type = if s.wide { vk::IndexType::UINT32 } else { vk::IndexType::UINT16 };
            records.put_u32(i, index, "index_type", index_type.as_raw() as u32)?;
        }
        for (b, (&vertex, v)) in tokens.vertex.iter().zip(&s.vertices).enumerate() {
            records.put_u64(i, vertex, "address", to.vertices + vertex_region(b, k, sequences.len()) as u64)?;
            records.put_u32(i, vertex, "size", v.size())?;
            records.put_u32(i, vertex, "stride", v.stride)?;
        }
        let first_index = if shared { region_first_index(k) } else { 0 };
        if shape.counted {
            let (offset, count) = corrupted_count(sequences, k, wrong);
            records.put_u64(i, act, "address", to.draws + offset as u64)?;
            records.put_u32(i, act, "stride", s.stride)?;
            records.put_u32(i, act, "command_count", count)?;
        } else if shape.indexed {
            let d = &s.draws[0];
            records.put_u32(i, act, "index_count", 3 * d.triangles)?;
            records.put_u32(i, act, "instance_count", d.instances + u32::from(wrong))?;
            records.put_u32(i, act, "first_index", first_index + 3 * d.first_triangle)?;
            records.put_i32(i, act, "vertex_offset", 3 * d.shift as i32)?;
            records.put_u32(i, act, "first_instance", d.first_instance)?;
        } else {
            let [vertex_count, instance_count, first_vertex, first_instance] = plain_words(s, &s.draws[0]);
            records.put_u32(i, act, "vertex_count", vertex_count)?;
            records.put_u32(i, act, "instance_count", instance_count + u32::from(wrong))?;
            records.put_u32(i, act, "first_vertex", first_vertex)?;
            records.put_u32(i, act, "first_instance", first_instance)?;
        }
    }
    Ok(())
}

/// Execute `layout` (DRAW or DRAW_INDEXED, as the fallback takes them) through the runtime's
/// `Fallback` and return `(what ran, what should have, the tally slot of each sequence)`. The
/// records are ones both paths read alike: the fallback binds one index buffer for every draw
/// and ignores the records' addresses, so here every record names that one buffer, 32-bit
/// indices, and a firstIndex into its own region of it; the pushed words are read from the
/// record by `draw_stream.vert`, and a layout that pushes nothing takes its slots from
/// firstInstance as under DGC. `corrupt` as for `run`.
pub fn run_fallback(
    ctx: &GpuContext,
    m: &Manifest,
    layout: &CompiledLayout,
    fallback: &dgcc::runtime::Fallback,
    corrupt: Option<u32>,
) -> Result<DrawChecked> {
    let shape = shape(layout).map_err(RuntimeError::Invalid)?;
    if shape.counted {
        return Err(RuntimeError::Invalid(format!("the fallback runs no {} layout", shape.action.manifest_name())));
    }
    if !shape.vertex_bindings.is_empty() {
        return Err(RuntimeError::Invalid("the fallback binds no vertex buffer per draw".into()));
    }
    let sequences = shape.sequences(true);
    let n = sequences.len() as u32;
    let mut records = Records::new(layout, n);
    let tokens = Tokens::find(&records, layout, &shape)?;
    let mut index_data = vec![0u8; REGION * sequences.len()];
    for (k, s) in sequences.iter().enumerate() {
        let bytes = index_bytes(s);
        index_data[REGION * k..REGION * k + bytes.len()].copy_from_slice(&bytes);
    }
    let mut indices = data_buffer(ctx, vk::BufferUsageFlags::INDEX_BUFFER, &index_data)?;
    let to = Addresses { indices: indices.address(), indices_size: index_data.len() as u32, draws: 0, vertices: 0 };
    let words = (shape.pushed == Pushed::Words).then(|| DrawWords::fallback(layout));
    // Where each execution that reading every word takes reads its words (`DrawWords::passes`).
    let sources: Vec<Vec<u32>> = words.as_ref().map_or(vec![], |w| w.passes().map(|p| p.sources(layout)).collect());
    let flip = words.as_ref().and_then(|w| w.word_to_flip(layout));
    let ran = write_records(&mut records, &shape, &tokens, &sequences, to, true, corrupt, flip).and_then(|()| {
        let draw = |vertex| {
            let indices = shape.indexed.then_some(indices.buffer());
            let run = FallbackRun { records: &records.bytes, sequences: n, indices, vertex };
            execute_fallback(ctx, m, layout, fallback, &run)
        };
        match &tokens.push {
            Some((push, fields)) => {
                let word = |name: &str| records.member(*push, name).map(|m| m.offset / 4);
                let extra_word = match fields.get(1) {
                    Some(extra) => Some(word(extra)?),
                    None => None,
                };
                draw(FallbackVertex::Slot { slot_word: word(&fields[0])?, extra_word })
            }
            None if !sources.is_empty() => {
                let tallies = sources.iter().map(|s| draw(FallbackVertex::Words { sources: s }));
                join(&tallies.collect::<Result<Vec<_>>>()?).map_err(RuntimeError::Invalid)
            }
            None => draw(FallbackVertex::Instanced),
        }
    });
    // SAFETY: `execute_fallback` waited for the submission.
    unsafe { indices.destroy(ctx.device()) };
    let slots = slots(&shape, &sequences, 1);
    let got = ran?;
    let mut want = expected_with_set(&sequences, 1, shape.slot.slot(), false);
    if let Some(w) = words.as_ref().filter(|_| !sources.is_empty()) {
        w.expect(&mut want, &got, &slots);
    }
    Ok(DrawChecked { got, want, slots, words })
}
