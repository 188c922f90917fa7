//! Draw layouts executed for real: PUSH_CONSTANT (one or two words) + INDEX_BUFFER +
//! DRAW_INDEXED or DRAW_INDEXED_COUNT, as `multi_draw.ron`'s Batches, `scene.ron`'s SceneDraw
//! and `draw_shaders.ron`'s Draws are, PUSH_CONSTANT + DRAW or DRAW_COUNT (the same
//! triangles reached through firstVertex), and a DRAW_INDEXED_COUNT alone, as `scene.ron`'s
//! SceneBatch (one index buffer bound for every sequence, each draw's gl_DrawID its tally
//! slot), through [`rig`](super::rig).
//!
//! Why the sequences look the way they do: each one differs from the others in everything a
//! token carries, so a token that was ignored or misread shows in the tally. The pushed slot is
//! not the sequence's index; index buffers alternate 32- and 16-bit indices and live at
//! different addresses (a 16-bit buffer read as 32-bit makes degenerate triangles, which draw
//! nothing); the triangles' tags differ per buffer and per draw (firstIndex, vertexOffset);
//! instance counts and firstInstance show in the instance sum; the count token's draws are read
//! with strides of 20, 24 and 32 bytes, counts of 0, 1, 3 and one above `maxDrawCount` (the
//! spec clamps it). A decoy index buffer is bound before executing, so a sequence that drew
//! with it instead of its own has tags of 500 and up.

use super::rig::{
    data_buffer, execute, execute_fallback, DrawRun, FallbackRun, Front, Records, Slots, Tally, SET_ENTRY_WEIGHT,
};
use ash::vk;
use dgcc::ir::{CompiledLayout, Manifest, TokenType};
use dgcc::runtime::error::Result;
use dgcc::runtime::RuntimeError;
use dgcc::runtime::{DgcDevice, GpuContext};

const BATCH_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_batch.vert.spv");
const OBJECT_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_object.vert.spv");
const COUNT_ID_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_count_id.vert.spv");
/// `maxDrawCount` for count layouts; one sequence asks for more.
pub const MAX_DRAW_COUNT: u32 = 4;
const DECOY_TAG: u32 = 500;
/// Each sequence's indices and draws start this far apart in their buffers.
const REGION: usize = 256;

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

#[derive(Clone)]
struct Sequence {
    /// The pushed words: the tally slot and, for layouts that push two, a value summed in w.
    slot: u32,
    extra: u32,
    /// 32-bit indices, else 16-bit.
    wide: bool,
    /// The tag of each triangle of the index buffer.
    tags: Vec<u32>,
    draws: Vec<Draw>,
    /// Bytes between draws in the count token's buffer.
    stride: u32,
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
    };
    vec![
        seq(6, 40, true, &[21, 22, 23], draw(1, 2, 1, 0, 0)),
        seq(0, 41, false, &[24, 25], draw(0, 1, 3, 2, 5)),
        seq(12, 42, true, &[26], draw(0, 1, 2, 0, 0)),
        seq(4, 43, false, &[27, 28, 29, 30], draw(2, 2, 1, 9, 1)),
        seq(10, 44, true, &[31, 32], draw(0, 2, 0, 0, 0)),
    ]
}

/// What the shaders add for `sequences` when at most `max_draws` draws of each run and draw
/// `j` of sequence `k` lands in slot `slot(k, sequence, j)`.
#[cfg(test)]
fn expected(sequences: &[Sequence], max_draws: usize, slot: impl Fn(usize, &Sequence, usize) -> u32) -> Tally {
    expected_with_set(sequences, max_draws, slot, false)
}

/// As `expected`; `set`: sequence `k` draws with execution-set entry `k % 2`, and entry 1 adds
/// `SET_ENTRY_WEIGHT` to w.
fn expected_with_set(
    sequences: &[Sequence],
    max_draws: usize,
    slot: impl Fn(usize, &Sequence, usize) -> u32,
    set: bool,
) -> Tally {
    let mut t = Tally::default();
    for (k, s) in sequences.iter().enumerate() {
        let weight = if set && k % 2 == 1 { SET_ENTRY_WEIGHT } else { 0 };
        for (j, d) in s.draws.iter().take(max_draws).enumerate() {
            for i in 0..d.triangles {
                let tag = s.tags[(d.first_triangle + i) as usize] + d.shift;
                for n in 0..d.instances {
                    t.add(slot(k, s, j), tag, d.first_instance + n, s.extra + weight);
                }
            }
        }
    }
    t
}

/// The slot of draw `j` of a count layout without tokens but its draws: its gl_DrawID.
fn by_draw(_: usize, _: &Sequence, j: usize) -> u32 {
    j as u32
}

/// Whether `run` executes `layout` through its execution set (of pipelines, on a device that
/// can bind it); otherwise a layout with a set runs binned, without it, one pipeline bound.
pub fn binds_set(dev: &DgcDevice, m: &Manifest, layout: &CompiledLayout) -> bool {
    // A set before a count token alone runs binned too: its rig (`run_batch`) pushes no slot to
    // tell the entries' draws apart.
    let alone = layout.without_execution_set().tokens.len() == 1;
    !alone && super::set_of_two_binds(dev, m, layout)
}

/// The expected tallies are not blind to the mistakes the GPU run is meant to catch: pushing
/// the sequence index instead of the pushed slot, not clamping the draw count to
/// `maxDrawCount`, running one draw per sequence, ignoring vertexOffset.
#[cfg(test)]
#[test]
fn misreadings_change_the_expected_tally() {
    for sequences in [count_sequences(), single_sequences()] {
        let max = MAX_DRAW_COUNT as usize;
        let right = expected(&sequences, max, |_, s, _| s.slot);
        assert_ne!(right, expected(&sequences, max, |k, _, _| k as u32), "slot = sequence index");
        assert_ne!(right, expected(&sequences, max, |_, _, _| 0), "slot = 0");
        assert_ne!(right, Tally::default(), "nothing drawn");
        let unshifted: Vec<Sequence> = sequences
            .iter()
            .map(|s| Sequence { draws: s.draws.iter().map(|d| Draw { shift: 0, ..*d }).collect(), ..s.clone() })
            .collect();
        assert_ne!(right, expected(&unshifted, max, |_, s, _| s.slot), "vertexOffset ignored");
        let set = expected_with_set(&sequences, max, |_, s, _| s.slot, true);
        assert_ne!(right, set, "execution-set entry 1 drew as entry 0");
    }
    let sequences = count_sequences();
    let right = expected(&sequences, MAX_DRAW_COUNT as usize, |_, s, _| s.slot);
    assert_ne!(right, expected(&sequences, usize::MAX, |_, s, _| s.slot), "commandCount not clamped");
    assert_ne!(right, expected(&sequences, 1, |_, s, _| s.slot), "one draw per sequence");
    // A count layout alone: gl_DrawID read as 0, or the clamp missed, or one draw each.
    let drawn = expected(&sequences, MAX_DRAW_COUNT as usize, by_draw);
    assert_ne!(drawn, expected(&sequences, MAX_DRAW_COUNT as usize, |_, _, _| 0), "gl_DrawID read as 0");
    assert_ne!(drawn, expected(&sequences, usize::MAX, by_draw), "commandCount not clamped");
    assert_ne!(drawn, expected(&sequences, 1, by_draw), "one draw per sequence");
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

/// `VkDrawIndexedIndirectCommand` of `d`.
fn command(d: &Draw) -> [u8; 20] {
    let words = [3 * d.triangles, d.instances, 3 * d.first_triangle, 3 * d.shift, d.first_instance];
    let mut out = [0u8; 20];
    for (k, w) in words.iter().enumerate() {
        out[4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// Whether the rig can write and read back `layout` (after leaving out its execution set), or
/// why not.
pub fn shape(layout: &CompiledLayout) -> std::result::Result<(), String> {
    let layout = layout.without_execution_set();
    let Some(action) = layout.action().map(|a| a.token_type) else {
        return Err("it has no action token".into());
    };
    let (counted, indexed) = kind(action).ok_or("its action is not a DRAW, DRAW_INDEXED or one of their _COUNTs")?;
    let kinds: Vec<TokenType> = layout.tokens.iter().map(|t| t.token_type).collect();
    if counted && indexed && kinds == [action] {
        // A batch: nothing per sequence but its draws.
        return Ok(());
    }
    let wanted: Vec<TokenType> = if indexed {
        vec![TokenType::PushConstant, TokenType::IndexBuffer, action]
    } else {
        vec![TokenType::PushConstant, action]
    };
    if kinds != wanted {
        let names = |k: &[TokenType]| k.iter().map(|k| k.manifest_name()).collect::<Vec<_>>().join(", ");
        return Err(format!(
            "the draw tally rig writes {} (or a DRAW_INDEXED_COUNT alone); this layout has {}",
            names(&wanted),
            names(&kinds)
        ));
    }
    let push = &layout.tokens[0];
    let words = push.fields.len();
    let fields_ok = push.fields.iter().all(|f| f.ty == "U32" || f.ty == "I32");
    let range = push.push_constant.map(|r| (r.offset, r.size));
    let fits = match (counted, words) {
        (true, 1) | (false, 1) => range == Some((0, 4)),
        (false, 2) => range == Some((0, 8)),
        _ => false,
    };
    if !fields_ok || !fits {
        let types: Vec<String> = push.fields.iter().map(|f| f.ty.to_string()).collect();
        let at = range.map_or(String::new(), |(o, s)| format!(" at bytes {o}..{}", o + s));
        return Err(format!(
            "the tally vertex shaders read one 32-bit pushed word at push-constant offset 0 (two without a _COUNT action); token `{}` pushes {}{at}",
            push.name,
            types.join(", ")
        ));
    }
    Ok(())
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

/// Execute `layout` (a DRAW, DRAW_INDEXED or _COUNT draw layout) and return `(what ran, what should have, the tally
/// slot of each sequence)`. `corrupt`: write that sequence's draw wrong (one more instance, or
/// a wrong draw count) while expecting what it should have drawn: a test's deliberate mistake.
pub fn run(
    ctx: &GpuContext,
    dev: &DgcDevice,
    m: &Manifest,
    layout: &CompiledLayout,
    corrupt: Option<u32>,
) -> Result<(Tally, Tally, Slots)> {
    shape(layout).map_err(RuntimeError::Invalid)?;
    // A draw layout that picks its pipeline through an execution set draws through a set of two
    // tally pipelines where the device can bind it (sequence k uses entry k % 2, which shows in
    // w); elsewhere (and for shader-object sets) it runs binned, with one tally pipeline bound
    // (the records are the same, the set index unread).
    let through_set = binds_set(dev, m, layout);
    let set_token = layout.tokens.iter().position(|t| t.token_type == TokenType::ExecutionSet);
    let binned;
    let layout = if layout.execution_set().is_some() && !through_set {
        binned = layout.without_execution_set();
        &binned
    } else {
        layout
    };
    let action = layout.action().map(|a| a.token_type).unwrap_or(TokenType::DrawIndexed);
    let (counted, indexed) = kind(action).unwrap_or((false, true));
    if layout.tokens.len() == 1 {
        return run_batch(ctx, dev, m, layout, corrupt);
    }
    let push = layout.tokens.iter().position(|t| t.token_type == TokenType::PushConstant).unwrap_or(0);
    let push_fields: Vec<_> = layout.tokens[push].fields.iter().map(|f| f.name.clone()).collect();
    let (sequences, vert) = match (counted, push_fields.len()) {
        (true, 1) => (count_sequences(), BATCH_VERT),
        (false, 2) => (single_sequences(), OBJECT_VERT),
        // One pushed word (scene.ron's object id, multi_draw.ron's batch): the slot, nothing summed.
        (false, 1) => (single_sequences().into_iter().map(|s| Sequence { extra: 0, ..s }).collect(), BATCH_VERT),
        other => {
            return Err(RuntimeError::Invalid(format!(
                "no indexed draw rig for `{}` ({other:?}: count token, pushed fields)",
                layout.name
            )))
        }
    };
    let n = sequences.len() as u32;

    let mut index_data = vec![0u8; REGION * sequences.len()];
    let mut draw_data = vec![0u8; REGION * sequences.len()];
    for (k, s) in sequences.iter().enumerate() {
        let bytes = index_bytes(s);
        index_data[REGION * k..REGION * k + bytes.len()].copy_from_slice(&bytes);
        for (j, d) in s.draws.iter().enumerate() {
            let at = REGION * k + j * s.stride as usize;
            let c = if indexed { command(d).to_vec() } else { plain_command(s, d).to_vec() };
            draw_data[at..at + c.len()].copy_from_slice(&c);
        }
    }
    let index_usage = vk::BufferUsageFlags::INDEX_BUFFER;
    let decoy_indices: Vec<u8> = (0..64u32).flat_map(|i| (3 * (DECOY_TAG + i / 3) + i % 3).to_le_bytes()).collect();
    let mut records = Records::new(layout, n);
    let push = records.token(TokenType::PushConstant)?;
    let index = if indexed { Some(records.token(TokenType::IndexBuffer)?) } else { None };
    let act = records.token(action)?;
    let mut indices = data_buffer(ctx, index_usage, &index_data)?;
    let mut draws = data_buffer(ctx, vk::BufferUsageFlags::INDIRECT_BUFFER, &draw_data)?;
    let mut decoy = data_buffer(ctx, index_usage, &decoy_indices)?;
    let written = write_set_indices(&mut records, set_token.filter(|_| through_set), n).and_then(|()| {
        write_records(
            &mut records,
            &sequences,
            counted,
            (push, index, act),
            &push_fields,
            [indices.address, draws.address],
            corrupt,
        )
    });
    let ran = written.and_then(|()| {
        let run = DrawRun {
            front: Front::Vertex(vert),
            records: &records.bytes,
            sequences: n,
            max_draw_count: if counted { MAX_DRAW_COUNT } else { 0 },
            decoy_indices: indexed.then_some(decoy.buffer),
            execution_set: through_set,
        };
        execute(ctx, dev, m, layout, &run)
    });
    // SAFETY: `execute` waited for the submission.
    unsafe {
        indices.destroy(ctx.device());
        draws.destroy(ctx.device());
        decoy.destroy(ctx.device());
    }
    let max_draws = if counted { MAX_DRAW_COUNT as usize } else { 1 };
    let slots = sequences.iter().map(|s| vec![s.slot]).collect();
    Ok((ran?, expected_with_set(&sequences, max_draws, |_, s, _| s.slot, through_set), slots))
}

/// `run` for a DRAW_INDEXED_COUNT alone (`shape` let nothing else through): the count
/// sequences, every one 32-bit and in its own region of one index buffer, which is bound before
/// executing; slots are the draws' gl_DrawID (`by_draw`).
fn run_batch(
    ctx: &GpuContext,
    dev: &DgcDevice,
    m: &Manifest,
    layout: &CompiledLayout,
    corrupt: Option<u32>,
) -> Result<(Tally, Tally, Slots)> {
    let sequences: Vec<Sequence> = count_sequences().into_iter().map(|s| Sequence { wide: true, ..s }).collect();
    let n = sequences.len() as u32;
    let first_index = |k: usize| (REGION * k / 4) as u32;
    let mut index_data = vec![0u8; REGION * sequences.len()];
    let mut draw_data = vec![0u8; REGION * sequences.len()];
    for (k, s) in sequences.iter().enumerate() {
        let bytes = index_bytes(s);
        index_data[REGION * k..REGION * k + bytes.len()].copy_from_slice(&bytes);
        for (j, d) in s.draws.iter().enumerate() {
            let at = REGION * k + j * s.stride as usize;
            let mut c = command(d);
            let moved = first_index(k) + 3 * d.first_triangle;
            c[8..12].copy_from_slice(&moved.to_le_bytes());
            draw_data[at..at + c.len()].copy_from_slice(&c);
        }
    }
    let mut records = Records::new(layout, n);
    let act = records.token(TokenType::DrawIndexedCount)?;
    let mut indices = data_buffer(ctx, vk::BufferUsageFlags::INDEX_BUFFER, &index_data)?;
    let mut draws = data_buffer(ctx, vk::BufferUsageFlags::INDIRECT_BUFFER, &draw_data)?;
    let mut write = || -> Result<()> {
        for k in 0..sequences.len() {
            let i = k as u32;
            let (region, count) = corrupted_count(&sequences, k, corrupt == Some(i));
            records.put_u64(i, act, "address", draws.address + (REGION * region) as u64)?;
            records.put_u32(i, act, "stride", sequences[region].stride)?;
            records.put_u32(i, act, "command_count", count)?;
        }
        Ok(())
    };
    let ran = write().and_then(|()| {
        let run = DrawRun {
            front: Front::Vertex(COUNT_ID_VERT),
            records: &records.bytes,
            sequences: n,
            max_draw_count: MAX_DRAW_COUNT,
            decoy_indices: Some(indices.buffer),
            execution_set: false,
        };
        execute(ctx, dev, m, layout, &run)
    });
    // SAFETY: `execute` waited for the submission.
    unsafe {
        indices.destroy(ctx.device());
        draws.destroy(ctx.device());
    }
    let max = MAX_DRAW_COUNT as usize;
    let slots = sequences.iter().map(|s| (0..s.draws.len().min(max) as u32).collect()).collect();
    Ok((ran?, expected_with_set(&sequences, max, by_draw, false), slots))
}

/// The draws region and count a count sequence's record names: its own and all its draws, or,
/// written wrong (`corrupt`), none of them where they show, and where they show nothing (no
/// draws, or none with an instance) sequence 0's first draw, which does: a wrong record must
/// change the tally whichever sequence it is.
fn corrupted_count(sequences: &[Sequence], k: usize, corrupt: bool) -> (usize, u32) {
    let shows = sequences[k].draws.iter().any(|d| d.instances > 0 && d.triangles > 0);
    match (corrupt, shows) {
        (false, _) => (k, sequences[k].draws.len() as u32),
        (true, true) => (k, 0),
        (true, false) => (0, 1),
    }
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

/// Write the records of `sequences` through the manifest's members.
fn write_records(
    records: &mut Records<'_>,
    sequences: &[Sequence],
    counted: bool,
    (push, index, act): (usize, Option<usize>, usize),
    push_fields: &[String],
    [indices, draws]: [u64; 2],
    corrupt: Option<u32>,
) -> Result<()> {
    for (k, s) in sequences.iter().enumerate() {
        let i = k as u32;
        let wrong = corrupt == Some(i);
        records.put_u32(i, push, &push_fields[0], s.slot)?;
        if let Some(extra) = push_fields.get(1) {
            records.put_u32(i, push, extra, s.extra)?;
        }
        if let Some(index) = index {
            records.put_u64(i, index, "address", indices + (REGION * k) as u64)?;
            records.put_u32(i, index, "size", index_bytes(s).len() as u32)?;
            let index_type = if s.wide { vk::IndexType::UINT32 } else { vk::IndexType::UINT16 };
            records.put_u32(i, index, "index_type", index_type.as_raw() as u32)?;
        }
        if counted {
            let (region, count) = corrupted_count(sequences, k, wrong);
            records.put_u64(i, act, "address", draws + (REGION * region) as u64)?;
            records.put_u32(i, act, "stride", sequences[region].stride)?;
            records.put_u32(i, act, "command_count", count)?;
        } else if index.is_some() {
            let d = &s.draws[0];
            records.put_u32(i, act, "index_count", 3 * d.triangles)?;
            records.put_u32(i, act, "instance_count", d.instances + u32::from(wrong))?;
            records.put_u32(i, act, "first_index", 3 * d.first_triangle)?;
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
/// record by `draw_stream.vert`. `corrupt` as for `run`.
pub fn run_fallback(
    ctx: &GpuContext,
    m: &Manifest,
    layout: &CompiledLayout,
    fallback: &dgcc::runtime::Fallback,
    corrupt: Option<u32>,
) -> Result<(Tally, Tally, Slots)> {
    shape(layout).map_err(RuntimeError::Invalid)?;
    let action = layout.action().map(|a| a.token_type).unwrap_or(TokenType::DrawIndexed);
    let (counted, indexed) = kind(action).unwrap_or((false, true));
    if counted {
        return Err(RuntimeError::Invalid(format!("the fallback runs no {} layout", action.manifest_name())));
    }
    let mut records = Records::new(layout, single_sequences().len() as u32);
    let push = records.token(TokenType::PushConstant)?;
    let push_fields: Vec<String> = layout.tokens[push].fields.iter().map(|f| f.name.clone()).collect();
    let two = push_fields.len() == 2;
    let sequences: Vec<Sequence> = single_sequences()
        .into_iter()
        .map(|s| Sequence { wide: true, extra: if two { s.extra } else { 0 }, ..s })
        .collect();
    let n = sequences.len() as u32;
    let act = records.token(action)?;
    let index = if indexed { Some(records.token(TokenType::IndexBuffer)?) } else { None };
    let mut index_data = vec![0u8; REGION * sequences.len()];
    for (k, s) in sequences.iter().enumerate() {
        let bytes = index_bytes(s);
        index_data[REGION * k..REGION * k + bytes.len()].copy_from_slice(&bytes);
    }
    let mut indices = data_buffer(ctx, vk::BufferUsageFlags::INDEX_BUFFER, &index_data)?;
    let mut write = || -> Result<()> {
        for (k, s) in sequences.iter().enumerate() {
            let i = k as u32;
            let wrong = corrupt == Some(i);
            records.put_u32(i, push, &push_fields[0], s.slot)?;
            if two {
                records.put_u32(i, push, &push_fields[1], s.extra)?;
            }
            let d = &s.draws[0];
            if let Some(index) = index {
                records.put_u64(i, index, "address", indices.address)?;
                records.put_u32(i, index, "size", index_data.len() as u32)?;
                records.put_u32(i, index, "index_type", vk::IndexType::UINT32.as_raw() as u32)?;
                let region = (REGION * k / 4) as u32;
                records.put_u32(i, act, "index_count", 3 * d.triangles)?;
                records.put_u32(i, act, "instance_count", d.instances + u32::from(wrong))?;
                records.put_u32(i, act, "first_index", region + 3 * d.first_triangle)?;
                records.put_i32(i, act, "vertex_offset", 3 * d.shift as i32)?;
                records.put_u32(i, act, "first_instance", d.first_instance)?;
            } else {
                let [vertex_count, instance_count, first_vertex, first_instance] = plain_words(s, d);
                records.put_u32(i, act, "vertex_count", vertex_count)?;
                records.put_u32(i, act, "instance_count", instance_count + u32::from(wrong))?;
                records.put_u32(i, act, "first_vertex", first_vertex)?;
                records.put_u32(i, act, "first_instance", first_instance)?;
            }
        }
        Ok(())
    };
    let ran = write().and_then(|()| {
        let word = |name: &str| records.member(push, name).map(|m| m.offset / 4);
        let run = FallbackRun {
            records: &records.bytes,
            sequences: n,
            indices: indexed.then_some(indices.buffer),
            slot_word: word(&push_fields[0])?,
            extra_word: if two { Some(word(&push_fields[1])?) } else { None },
        };
        execute_fallback(ctx, m, layout, fallback, &run)
    });
    // SAFETY: `execute_fallback` waited for the submission.
    unsafe { indices.destroy(ctx.device()) };
    let slots = sequences.iter().map(|s| vec![s.slot]).collect();
    Ok((ran?, expected_with_set(&sequences, 1, |_, s, _| s.slot, false), slots))
}
