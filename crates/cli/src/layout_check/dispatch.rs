//! Dispatch layouts executed for real, through DGC and through the runtime's [`Fallback`].
//!
//! Why this kernel and these group counts: `shaders/runtime/dispatch_tally.comp` finds its
//! sequence by its y and z group counts (sequence `k` dispatches `2^k` groups of one
//! invocation, one wide in x, each sequence with a y and z of its own), adds its entry's weight
//! to that sequence's count (entry 0 of an execution set adds 1, entry 1 [`SECOND_ENTRY`]), and
//! keeps the lowest and highest value it saw of every pushed word. So the host reads, per
//! sequence, how many invocations ran with which pipeline, and what each one was pushed: a group
//! more in x, a lost or repeated sequence, y and z read from the wrong place, the wrong entry,
//! a push-constant field read from the wrong record bytes, or a wrong sequence index, each
//! changes a number the report names.
//!
//! What is pushed where: every word a PUSH_CONSTANT token pushes for the compute stage holds a
//! value that differs per sequence and per word, and a SEQUENCE_INDEX word must read the
//! sequence. The rig pushes other values over the whole block first, so a token that pushed
//! nothing leaves those. Under the fallback only the sequence index is pushed (a shader reads
//! the rest from its record, as the generated readers do), so only it is checked there.

use super::push_block;
use super::pushed::{misread, wanted, word_name, word_to_flip, write_pushed};
pub use super::pushed::{PushBlock, Word};
use super::rig::Records;
use ash::vk;
use dgcc::ir::{CompiledLayout, Manifest, TokenType};
use dgcc::runtime::descriptors::StorageSet;
use dgcc::runtime::error::Result;
use dgcc::runtime::memory::{Buffer, Location};
use dgcc::runtime::push::{push, push_pieces, vk_ranges};
use dgcc::runtime::shaders::{compute_pipeline_with, PipelineFlags};
use dgcc::runtime::{Bound, DgcDevice, Execution, Fallback, FallbackCaps, GpuContext, NoPass, RuntimeError, Stream};

const TALLY_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/dispatch_tally.comp.spv");
const NOTHING_PUSHED_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/dispatch_tally.unpushed.comp.spv");
/// Sequences written.
pub const SEQUENCES: u32 = 4;
/// The kernel's slots: one per sequence, then one for group counts no sequence was given.
const SLOTS: usize = SEQUENCES as usize + 1;
/// What entry 1 of an execution set adds per invocation (entry 0 adds 1).
pub const SECOND_ENTRY: u32 = 1000;

/// Sequence `k`'s group counts: `2^k` groups in all, one in x, and a y and z no other sequence
/// has (`slot_of` in the kernel tells the sequences apart by them).
fn groups(k: u32) -> [u32; 3] {
    match k {
        0 => [1, 1, 1],
        1 => [1, 2, 1],
        2 => [1, 2, 2],
        _ => [1, 4, 2],
    }
}

/// What sequence `k` adds to its count.
pub fn share(k: u32, with_set: bool) -> u32 {
    let [x, y, z] = groups(k);
    x * y * z * entry_weight(k, with_set)
}

fn entry_weight(k: u32, with_set: bool) -> u32 {
    if with_set && k % 2 == 1 {
        SECOND_ENTRY
    } else {
        1
    }
}

/// Whether DGC runs the layout's execution set for real, as a set of the two tally pipelines:
/// a set of pipelines with room for two that the device can bind. Otherwise (a set of shader
/// objects, of one entry, or one the device cannot bind) the layout runs binned, without its
/// EXECUTION_SET token and one tally pipeline bound, as an engine would.
pub fn through_set(dev: Option<&DgcDevice>, m: &Manifest, layout: &CompiledLayout) -> bool {
    dev.is_some_and(|dev| super::set_of_two_binds(dev, m, layout))
}

/// How to execute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    Dgc,
    Fallback,
}

/// The records: execution-set index `k % 2`, the sequence's group counts, every byte of every
/// PUSH_CONSTANT token's data its [`pushed_value`](super::pushed::pushed_value). `corrupt`:
/// that sequence's x one group too many and its first pushed data word flipped.
fn records(layout: &CompiledLayout, corrupt: Option<u32>) -> Result<Vec<u8>> {
    let mut r = Records::new(layout, SEQUENCES);
    let set = layout.tokens.iter().position(|t| t.token_type == TokenType::ExecutionSet);
    let dispatch = r.token(TokenType::Dispatch)?;
    // The group count is written wrong too, so the word need not be one the kernel reads.
    let flip = word_to_flip(layout, |_| true);
    for k in 0..SEQUENCES {
        if let Some(set) = set {
            r.put_u32(k, set, "", k % 2)?;
        }
        let [x, y, z] = groups(k);
        r.put_u32(k, dispatch, "x", x + u32::from(corrupt == Some(k)))?;
        r.put_u32(k, dispatch, "y", y)?;
        r.put_u32(k, dispatch, "z", z)?;
        write_pushed(&mut r, k, flip.filter(|_| corrupt == Some(k)));
    }
    Ok(r.bytes)
}

/// What the kernel counted: per slot the invocations (weighted by entry) and per slot and word
/// the lowest and highest value seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    pub count: [u32; SLOTS],
    pub seen: Vec<[u32; 2]>,
}

impl Tally {
    fn words(block_words: usize) -> usize {
        SLOTS + 2 * SLOTS * block_words
    }

    /// The buffer's starting words: no counts, the lowest values at their highest and the
    /// highest at their lowest.
    fn start(block_words: usize) -> Vec<u32> {
        let mut w = vec![0; SLOTS];
        w.extend([u32::MAX, 0].repeat(SLOTS * block_words));
        w
    }

    fn read(words: &[u32], block_words: usize) -> Tally {
        let mut count = [0; SLOTS];
        count.copy_from_slice(&words[..SLOTS]);
        let seen = words[SLOTS..].chunks_exact(2).take(SLOTS * block_words).map(|c| [c[0], c[1]]).collect();
        Tally { count, seen }
    }
}

/// One path's run of a dispatch layout: what ran, what the report can say it checked.
pub struct Checked {
    pub tally: Tally,
    pub block: Option<PushBlock>,
    /// Why pushed words were not read, where they were not.
    pub unread: Option<String>,
}

/// Execute a dispatch layout along `path` (`dev` is needed for DGC only) and read the tally.
pub fn run(
    ctx: &GpuContext,
    dev: Option<&DgcDevice>,
    m: &Manifest,
    layout: &CompiledLayout,
    path: Path,
    corrupt: Option<u32>,
) -> Result<Checked> {
    let fallback = match path {
        Path::Fallback => Some(Fallback::new(layout, FallbackCaps::from(ctx))?.with_push_constants(&m.push_constants)?),
        Path::Dgc => None,
    };
    // The block's words name their tokens by index in the layout as written, which the report
    // names them by (the binned one below has no EXECUTION_SET token).
    let (block, unread) = match PushBlock::of(m, layout, vk::ShaderStageFlags::COMPUTE) {
        Ok(b) => (b, None),
        Err(why) => (None, Some(why)),
    };
    let binned;
    let layout = if path == Path::Dgc && layout.execution_set().is_some() && !through_set(dev, m, layout) {
        binned = layout.without_execution_set();
        &binned
    } else {
        layout
    };
    let spv = match &block {
        Some(b) => push_block::place(TALLY_SPV, b.first, b.words.len() as u32).map_err(RuntimeError::Invalid)?,
        None => NOTHING_PUSHED_SPV.to_vec(),
    };
    let block_words = block.as_ref().map_or(0, |b| b.words.len());
    let bytes = records(layout, corrupt)?;
    let d = ctx.device();
    let start: Vec<u8> = Tally::start(block_words).iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut tally = Buffer::new(ctx, start.len() as u64, vk::BufferUsageFlags::STORAGE_BUFFER, Location::Host)?;
    tally.write(0, &start)?;
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::INDIRECT_BUFFER;
    let mut stream = Buffer::new(ctx, bytes.len() as u64, usage, Location::Host)?;
    stream.write(0, &bytes)?;
    // SAFETY: a live storage buffer, destroyed after the set.
    let mut set = unsafe { StorageSet::new(d, vk::ShaderStageFlags::COMPUTE, &[tally.buffer()]) }?;
    let ranges = vk_ranges(&m.push_constants);
    let set_layouts = [set.layout()];
    let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts).push_constant_ranges(&ranges);
    // SAFETY: valid create info.
    let pl = unsafe { d.create_pipeline_layout(&info, None) }.map_err(RuntimeError::vk("vkCreatePipelineLayout"))?;
    let s =
        Stream { buffer: stream.buffer(), offset: 0, address: stream.address(), max_sequences: SEQUENCES, count: None };
    // The background: every word of the block, pushed before the sequences run.
    let before = |cmd: vk::CommandBuffer| -> Result<()> {
        let Some(b) = &block else { return Ok(()) };
        let size = 4 * b.words.len() as u32;
        let pieces = push_pieces(&m.push_constants, b.first, size).map_err(RuntimeError::Invalid)?;
        let values = b.background();
        // SAFETY: `cmd` records; the pieces lie inside `pl`'s ranges with their stages.
        unsafe { push(d, cmd, pl, &pieces, b.first, &values) };
        Ok(())
    };
    let result = match &fallback {
        Some(f) => (|| {
            // SAFETY: the kernel for `pl` (one set; its push block placed inside `pl`'s range).
            let first = unsafe { compute_pipeline_with(d, pl, &spv, &[(0, 1)], None, PipelineFlags::default()) }?;
            let r = ctx.one_shot(|cmd| unsafe {
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, first);
                d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, pl, 0, &[set.set()], &[]);
                before(cmd)?;
                f.record(d, cmd, &s, pl, Some(SEQUENCES))?;
                super::rig::writes_to_host(d, cmd, vk::PipelineStageFlags2::COMPUTE_SHADER);
                Ok(())
            });
            // SAFETY: the submission finished.
            unsafe {
                let _ = d.device_wait_idle();
                d.destroy_pipeline(first, None);
            }
            r
        })(),
        None => match dev {
            Some(dev) => dgc(ctx, dev, m, layout, pl, set.set(), &s, &spv, &before),
            None => Err(RuntimeError::Invalid("DGC needs a device with VK_EXT_device_generated_commands".into())),
        },
    };
    let words: Vec<u32> =
        tally.bytes().unwrap_or(&[]).chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    // SAFETY: the submission finished.
    unsafe {
        d.destroy_pipeline_layout(pl, None);
        set.destroy(d);
        tally.destroy(d);
        stream.destroy(d);
    }
    result?;
    if words.len() != Tally::words(block_words) {
        return Err(RuntimeError::Invalid("the tally buffer is not mapped".into()));
    }
    Ok(Checked { tally: Tally::read(&words, block_words), block, unread })
}

/// The DGC execution: the layout, its execution set of two tally pipelines if it has one.
#[allow(clippy::too_many_arguments)]
fn dgc(
    ctx: &GpuContext,
    dev: &DgcDevice,
    m: &Manifest,
    layout: &CompiledLayout,
    pl: vk::PipelineLayout,
    descriptors: vk::DescriptorSet,
    s: &Stream,
    spv: &[u8],
    before: &dyn Fn(vk::CommandBuffer) -> Result<()>,
) -> Result<()> {
    let d = ctx.device();
    // SAFETY: `pl` is live and holds the manifest's ranges.
    let mut l = unsafe { dev.create_layout(layout, &m.push_constants, pl) }?;
    let with_set = l.has_execution_set();
    let bindable = PipelineFlags { indirect_bindable: with_set, ..PipelineFlags::default() };
    let mut pipelines = vec![];
    let mut ies = None;
    let mut exec = None;
    let result = (|| {
        for weight in [1, SECOND_ENTRY] {
            // SAFETY: the kernel for `pl` (one set; its push block placed inside `pl`'s range).
            pipelines.push(unsafe { compute_pipeline_with(d, pl, spv, &[(0, weight)], None, bindable) }?);
        }
        let first = pipelines[0];
        if with_set {
            // SAFETY: indirect-bindable compute pipelines of one layout, alive until after the
            // set; nothing has used the set yet.
            let s = unsafe { dev.create_execution_set(&l, first) }?;
            let second = unsafe { dev.write_execution_set(&s, 1, pipelines[1]) };
            ies = Some(s);
            second?;
        }
        let bound = match &ies {
            Some(s) => Bound::ExecutionSet(s.handle(), first),
            None => Bound::Pipeline(first),
        };
        // SAFETY: `l` is `dev`'s; the pipeline (or the set) was made for it.
        let e = exec.insert(unsafe { Execution::new(dev, &l, bound, SEQUENCES, 0, 64 << 20) }?);
        ctx.one_shot(|cmd| unsafe {
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, first);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, pl, 0, &[descriptors], &[]);
            before(cmd)?;
            e.record(dev, &l, cmd, s, &mut NoPass(|_, _| {}))?;
            super::rig::writes_to_host(d, cmd, vk::PipelineStageFlags2::COMPUTE_SHADER);
            Ok(())
        })
    })();
    // SAFETY: the submission finished.
    unsafe {
        let _ = d.device_wait_idle();
        if let Some(e) = &mut exec {
            e.destroy(dev);
        }
        if let Some(s) = &mut ies {
            s.destroy(dev);
        }
        l.destroy(dev);
        for p in pipelines {
            d.destroy_pipeline(p, None);
        }
    }
    result
}

/// Which words of the block `path` pushes and so can be checked: every pushed word under DGC,
/// only the sequence index under the fallback.
fn checked(word: &Word, path: Path) -> bool {
    !matches!((word, path), (Word::Unpushed, _) | (Word::Data { .. }, Path::Fallback))
}

/// What a run checked, for the report's "ran" line.
pub fn what_was_checked(c: &Checked, path: Path) -> String {
    let read = c.block.as_ref().map_or(0, |b| b.words.iter().filter(|w| checked(w, path)).count());
    match (&c.unread, read) {
        (Some(why), _) => format!("invocations counted per sequence; pushed words not read: {why}"),
        (None, 0) if path == Path::Fallback && c.block.is_some() => {
            "invocations counted per sequence; the fallback pushes no data (a shader reads it from its record)".into()
        }
        (None, 0) => "invocations counted per sequence; nothing pushed".into(),
        (None, n) => format!("invocations counted and {n} pushed word(s) read per sequence"),
    }
}

/// Each way the tally differs from what the records asked, naming the sequence.
pub fn differences(layout: &CompiledLayout, c: &Checked, path: Path, with_set: bool) -> Vec<String> {
    let mut out = vec![];
    let t = &c.tally;
    for k in 0..SEQUENCES {
        let (got, want) = (t.count[k as usize], share(k, with_set));
        if got != want {
            let entry = if with_set {
                format!(", execution-set entry {} adding {} each", k % 2, entry_weight(k, true))
            } else {
                String::new()
            };
            out.push(format!(
                "sequence {k}: its invocations add {got} instead of {want} ({} group(s) of one invocation{entry}), off by {:+}",
                want / entry_weight(k, with_set),
                i64::from(got) - i64::from(want)
            ));
        }
    }
    if t.count[SLOTS - 1] != 0 {
        out.push(format!(
            "{} invocation(s) ran with y and z group counts no sequence was given (a dispatch read from the wrong bytes)",
            t.count[SLOTS - 1]
        ));
    }
    let Some(block) = &c.block else { return out };
    let n = block.words.len();
    for k in 0..SEQUENCES {
        if t.count[k as usize] == 0 {
            continue;
        }
        for (j, word) in block.words.iter().enumerate() {
            if !checked(word, path) {
                continue;
            }
            let seen = t.seen[k as usize * n + j];
            let Some(want) = wanted(block, j, k) else { continue };
            if seen == [want, want] {
                continue;
            }
            out.push(format!("sequence {k}: {} {}", word_name(layout, block, j, ""), misread(block, j, seen, want)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::pushed::{background, pushed_value};
    use super::*;

    fn manifest(text: &str) -> Manifest {
        let c = dgcc::driver::compile_source(std::path::Path::new("compute.ron"), text, &Default::default());
        c.manifest.expect("the description compiles")
    }

    #[test]
    fn the_blocks_words_name_their_tokens_and_fields() {
        let m = manifest(include_str!("../../../../examples/compute.ron"));
        let block = PushBlock::of(&m, &m.layouts[0], vk::ShaderStageFlags::COMPUTE).unwrap().unwrap();
        assert_eq!(block.first, 0);
        let names: Vec<String> = block
            .words
            .iter()
            .map(|w| match w {
                Word::Data { field, .. } => field.clone().unwrap_or_default(),
                Word::SequenceIndex { .. } => "index".into(),
                Word::Unpushed => "-".into(),
            })
            .collect();
        assert_eq!(names, ["base", "base", "count", "index"]);
    }

    #[test]
    fn every_mistake_in_a_sequence_is_named_and_a_right_tally_has_none() {
        let m = manifest(include_str!("../../../../examples/compute.ron"));
        let layout = &m.layouts[0];
        let block = PushBlock::of(&m, layout, vk::ShaderStageFlags::COMPUTE).unwrap().unwrap();
        let n = block.words.len();
        let mut right = Tally { count: [0; SLOTS], seen: vec![[0, 0]; SLOTS * n] };
        for k in 0..SEQUENCES {
            right.count[k as usize] = share(k, false);
            for j in 0..n {
                let v = wanted(&block, j, k).unwrap();
                right.seen[k as usize * n + j] = [v, v];
            }
        }
        let checked = |tally: Tally| Checked { tally, block: Some(block.clone()), unread: None };
        assert_eq!(differences(layout, &checked(right.clone()), Path::Dgc, false), Vec::<String>::new());

        let mut one_more = right.clone();
        one_more.count[2] += 1;
        let d = differences(layout, &checked(one_more), Path::Dgc, false);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].starts_with("sequence 2: its invocations add 5 instead of 4"), "{d:?}");

        let mut wrong_index = right.clone();
        wrong_index.seen[n + 3] = [0, 0];
        let d = differences(layout, &checked(wrong_index.clone()), Path::Dgc, false);
        assert_eq!(d, ["sequence 1: push-constant byte 12 (token `job_index` (the sequence index)) read 0x00000000 instead of 0x00000001"]);
        // The fallback pushes the sequence index too.
        assert_eq!(differences(layout, &checked(wrong_index), Path::Fallback, false).len(), 1);

        let mut unpushed = right.clone();
        unpushed.seen[3 * n + 2] = [background(8); 2];
        let d = differences(layout, &checked(unpushed.clone()), Path::Dgc, false);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].starts_with("sequence 3: push-constant byte 8 (token `params`, field `count`)"), "{d:?}");
        assert!(d[0].ends_with("(nothing was pushed there)"), "{d:?}");
        // The fallback pushes no data, so its words are not checked.
        assert!(differences(layout, &checked(unpushed), Path::Fallback, false).is_empty());

        let mut varied = right.clone();
        varied.seen[1] = [1, 2];
        let d = differences(layout, &checked(varied), Path::Dgc, false);
        assert!(d[0].contains("read values from 0x00000001 to 0x00000002"), "{d:?}");

        let mut stray = right;
        stray.count[SLOTS - 1] = 2;
        assert!(
            differences(layout, &checked(stray), Path::Dgc, false)[0].starts_with("2 invocation(s) ran with y and z")
        );
    }

    #[test]
    fn the_records_push_a_different_value_per_sequence_and_word_and_corruption_flips_one() {
        let m = manifest(include_str!("../../../../examples/compute.ron"));
        let layout = &m.layouts[0];
        let right = records(layout, None).unwrap();
        let wrong = records(layout, Some(3)).unwrap();
        let stride = layout.stride as usize;
        assert_eq!(right[..3 * stride], wrong[..3 * stride], "sequences 0-2 untouched");
        let differing: Vec<usize> = (3 * stride..4 * stride).filter(|&i| right[i] != wrong[i]).collect();
        assert!(differing.len() == 2, "one byte of the first pushed word and one of x: {differing:?}");
        let values: std::collections::HashSet<u32> =
            (0..SEQUENCES).flat_map(|k| (0..12).step_by(4).map(move |b| pushed_value(k, b))).collect();
        assert_eq!(values.len(), 12);
    }
}
