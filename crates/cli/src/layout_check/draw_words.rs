//! The pushed words of a draw layout read back per sequence by the draw tally: any
//! PUSH_CONSTANT and SEQUENCE_INDEX tokens, at any offset, of any field type, for the layouts
//! [`indexed`](super::indexed) does not give a pushed tally slot (`Pushed::Words` there).
//!
//! Why the words travel to the fragment shader: the tally is kept by the fragment shader with
//! storage-buffer atomics (fragmentStoresAndAtomics, which every draw tally needs); a vertex
//! shader may write no storage buffer without vertexPipelineStoresAndAtomics, which the
//! runtime's context does not enable. So the vertex shader (`draw_pushed.vert`) reads its push
//! block, placed over exactly the layout's vertex-stage bytes as the dispatch kernel's is
//! (`push_block::place`), and hands every word on as a flat output
//! to `draw_tally_carried.frag`, which keeps per slot the lowest and highest value of each, as
//! `dispatch_tally.comp` does per sequence. Words pushed to the fragment stage are read there
//! too, from the fragment shader's own placed block (`draw_tally_pushed.frag`): a driver may
//! keep each stage's push constants apart, so a token that pushes to both stages is read in
//! both. The values are the dispatch rig's ([`pushed`](super::pushed)): a different one per
//! sequence and word, a background pushed over each block first, the sequence's index in a
//! SEQUENCE_INDEX word. Words pushed to the tessellation and geometry stages are read there, by
//! the tally pipeline's shaders of those stages ([`between`](super::between) says when it has
//! them), each handing on the words of the stages before it with its own after them.
//!
//! Why the tally slot comes from firstInstance: it must not depend on the words being checked.
//! These layouts take it from gl_InstanceIndex as layouts that push nothing do
//! (`draw_instanced.vert`), so each sequence's words land in its own slot whatever they hold,
//! and a word that differs is named with its sequence and byte.
//!
//! Why the records may be drawn more than once: the shaders before the fragment shader carry it
//! at most [`CARRIED_MAX`] words in all (what the shaders' interface holds beside the tally,
//! within the 64 components every device has for each stage's outputs and inputs), and a
//! device may take 256 bytes of push constants or more. So each carrying stage's words are cut
//! into windows of at most that many ([`PushBlock::windows`]), and the same records are
//! executed once per group of windows that fits ([`DrawWords::passes`]: consecutive windows, at
//! most one per stage), each stage's block placed over its window alone, the fragment shader's
//! block read in the last execution. The executions' tallies are joined into one ([`join`]),
//! each slot holding every window's words in order, so a word past the first window is named
//! as any other.
//!
//! What is not read, the report says (`pushed words not read: …`): words pushed only to a stage
//! the tally pipeline does not have (a tessellation or geometry stage the layout's stages do not
//! include or the device lacks, named with why), and words a stage's shader could not declare
//! (outside the pipeline layout's range for it). A sequence that draws nothing (no instance)
//! runs no shader, so its words are not read either; the ran line says `per sequence that
//! draws`.
//!
//! Under the fallback, which pushes nothing per draw, `draw_pushed_stream.vert` reads every
//! word from the draw's record, `records[gl_DrawID]`, as the generated GLSL reader does, and a
//! SEQUENCE_INDEX word is gl_DrawID (the reader's record index): a draw that reads another
//! sequence's record, or whose gl_DrawID is not its sequence's index, is named the same way. It
//! carries the words through the same interface, so it too draws once per window.

use super::between::{Between, TallyStages};
use super::push_block::place;
use super::pushed::{misread, wanted, word_name, word_to_flip, PushBlock, Word};
use super::rig::{Slots, StageShader, Tally, WordsRun, CARRIED_FRAG, TALLY_SLOTS};
use ash::vk;
use dgcc::ir::{CompiledLayout, Manifest};

const PUSHED_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_pushed.vert.spv");
const PUSHED_VERTICES_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_pushed_vertices.vert.spv");
const PUSHED_NONE_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_pushed_none.vert.spv");
const PUSHED_NONE_VERTICES_VERT: &[u8] =
    include_bytes!("../../../../shaders/runtime/spv/draw_pushed_none_vertices.vert.spv");
const PUSHED_BINDINGS_VERT: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_pushed_bindings.vert.spv");
const PUSHED_NONE_BINDINGS_VERT: &[u8] =
    include_bytes!("../../../../shaders/runtime/spv/draw_pushed_none_bindings.vert.spv");
const PUSHED_FRAG: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_tally_pushed.frag.spv");

/// The most words the shaders before the fragment shader carry to it in one execution
/// (`CARRIED_VEC4S` × 4 in `draw_carried.glsl`).
pub const CARRIED_MAX: usize = 52;
/// In the fallback's table of where each word is read (`draw_pushed_stream.vert`): the word is
/// gl_DrawID, or no token pushes it.
pub const FROM_DRAW_ID: u32 = u32::MAX;
pub const NOWHERE: u32 = u32::MAX - 1;

const VERTEX: u32 = vk::ShaderStageFlags::VERTEX.as_raw();
const FRAGMENT: u32 = vk::ShaderStageFlags::FRAGMENT.as_raw();

/// Where a block's words are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadIn {
    /// The vertex shader's push block, carried to the fragment shader.
    Vertex,
    /// The push block of a stage between the vertex and fragment shaders, carried on.
    Between(Between),
    /// The fragment shader's push block.
    Fragment,
    /// The draw's record in the stream, by gl_DrawID (the fallback), carried.
    Record,
}

impl ReadIn {
    /// The stage whose shader reads the block: `vertex`, `geometry`… (a record is read by the
    /// vertex shader).
    fn stage(self) -> &'static str {
        match self {
            ReadIn::Vertex | ReadIn::Record => "vertex",
            ReadIn::Between(b) => b.name(),
            ReadIn::Fragment => "fragment",
        }
    }
}

/// One block of words and where it is read (a carried block at most [`CARRIED_MAX`] words
/// long).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub read_in: ReadIn,
    pub block: PushBlock,
}

/// The words a draw tally reads back for a layout, in the order it keeps them per slot, and
/// why the others are not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawWords {
    pub parts: Vec<Part>,
    pub unread: Vec<String>,
}

impl DrawWords {
    /// Under DGC, for a tally pipeline with `stages` between its vertex and fragment shaders:
    /// the words pushed to the vertex stage, then to each of those (carried, in windows of at
    /// most [`CARRIED_MAX`]), then those pushed to the fragment stage.
    pub fn dgc(m: &Manifest, layout: &CompiledLayout, stages: &TallyStages) -> DrawWords {
        let mut words = DrawWords { parts: vec![], unread: vec![] };
        let between = stages.between.iter().map(|&b| (b.flag(), ReadIn::Between(b)));
        let carried = [(vk::ShaderStageFlags::VERTEX, ReadIn::Vertex)].into_iter().chain(between);
        for (stage, read_in) in carried.chain([(vk::ShaderStageFlags::FRAGMENT, ReadIn::Fragment)]) {
            match PushBlock::of(m, layout, stage) {
                Ok(Some(block)) if read_in == ReadIn::Fragment => words.parts.push(Part { read_in, block }),
                Ok(Some(block)) => {
                    words.parts.extend(block.windows(CARRIED_MAX).into_iter().map(|block| Part { read_in, block }));
                }
                Ok(None) => {}
                Err(why) => words.unread.push(why),
            }
        }
        let read = VERTEX | FRAGMENT | stages.mask();
        for t in &layout.tokens {
            let Some(range) = t.push_constant.filter(|r| r.size > 0 && r.stages & !read != 0) else {
                continue;
            };
            let (alone, end) = (range.stages & read == 0, range.offset + range.size);
            words.unread.push(format!(
                "token `{}` pushes bytes {}..{end} {} to stages the tally pipeline has no shader for ({})",
                t.name,
                range.offset,
                if alone { "only" } else { "also" },
                stages.lacking(range.stages & !read),
            ));
        }
        words
    }

    /// Under the fallback: every word any token pushes, read from the draw's record (carried,
    /// in windows of at most [`CARRIED_MAX`]).
    pub fn fallback(layout: &CompiledLayout) -> DrawWords {
        let windows = PushBlock::over(layout, u32::MAX).map_or(vec![], |b| b.windows(CARRIED_MAX));
        let parts = windows.into_iter().map(|block| Part { read_in: ReadIn::Record, block }).collect();
        DrawWords { parts, unread: vec![] }
    }

    /// The executions that read every word, in order: each carries consecutive windows, at
    /// most one of each stage and [`CARRIED_MAX`] words in all, and the fragment block is read
    /// in the last (alone where nothing is carried). Their tallies' words, execution after
    /// execution, are the words kept per slot ([`join`]).
    pub fn passes(&self) -> impl Iterator<Item = Pass<'_>> {
        let mut starts = vec![];
        let (mut carried, mut last) = (0, None);
        for (i, p) in self.parts.iter().enumerate() {
            if p.read_in == ReadIn::Fragment {
                if starts.is_empty() {
                    starts.push(i);
                }
                continue;
            }
            let n = p.block.words.len();
            if starts.is_empty() || last == Some(p.read_in) || carried + n > CARRIED_MAX {
                starts.push(i);
                carried = 0;
            }
            carried += n;
            last = Some(p.read_in);
        }
        let ends: Vec<usize> = starts.iter().skip(1).copied().chain([self.parts.len()]).collect();
        starts.into_iter().zip(ends).map(|(from, to)| Pass { parts: &self.parts[from..to] })
    }

    /// Whether any word is read.
    pub fn reads_any(&self) -> bool {
        !self.parts.is_empty()
    }

    /// Whether the tally reads back the word a PUSH_CONSTANT token pushes at `byte`.
    pub fn reads_pushed(&self, byte: u32) -> bool {
        self.parts.iter().any(|p| {
            let mut words = p.block.words.iter().enumerate();
            words.any(|(j, w)| matches!(w, Word::Data { .. }) && p.block.byte(j) == byte)
        })
    }

    /// The pushed word a corrupted record of `layout` flips, by its byte: the first one these
    /// words read back. A word pushed only to a stage the tally has no shader for would change
    /// nothing it sees; with none read, the record's draw is written wrong instead.
    pub fn word_to_flip(&self, layout: &CompiledLayout) -> Option<u32> {
        word_to_flip(layout, |byte| self.reads_pushed(byte))
    }

    /// Words the tally keeps per slot.
    pub fn per_slot(&self) -> usize {
        self.parts.iter().map(|p| p.block.words.len()).sum()
    }

    /// Every word the tally keeps, as `(its index in a slot, its part, its index in the
    /// part's block)`.
    fn kept(&self) -> impl Iterator<Item = (usize, &Part, usize)> {
        let mut at = 0;
        self.parts.iter().flat_map(move |p| {
            let first = at;
            at += p.block.words.len();
            (0..p.block.words.len()).map(move |j| (first + j, p, j))
        })
    }

    /// Fill `want.seen`: in each slot a sequence draws into (`slots[k]`, where `want` counts
    /// fragments), each word at the value its record asks for; a slot nothing should reach
    /// unseen. A word no token pushes is not checked (as in the dispatch rig): it holds what
    /// `got` read.
    pub fn expect(&self, want: &mut Tally, got: &Tally, slots: &Slots) {
        let n = self.per_slot();
        want.seen = vec![Tally::UNSEEN; want.slots.len() * n];
        for (k, owned) in slots.iter().enumerate() {
            for &slot in owned.iter().filter(|&&s| want.slots.get(s as usize).is_some_and(|c| c[0] > 0)) {
                for (i, p, j) in self.kept() {
                    if let Some(v) = wanted(&p.block, j, k as u32) {
                        want.seen[slot as usize * n + i] = [v, v];
                    }
                }
            }
        }
        for (i, p, j) in self.kept() {
            if wanted(&p.block, j, 0).is_none() {
                for slot in 0..want.slots.len() {
                    if let Some(&seen) = got.seen.get(slot * n + i) {
                        want.seen[slot * n + i] = seen;
                    }
                }
            }
        }
    }

    /// How the words slot `slot` of `got` holds differ from what sequence `k`'s record asks,
    /// where fragments reached it: one line each, after `who` (`sequence 2 (slot 12)`).
    pub fn differences(&self, layout: &CompiledLayout, got: &Tally, slot: usize, k: u32, who: &str) -> Vec<String> {
        if got.slots.get(slot).is_none_or(|c| c[0] == 0) {
            return vec![];
        }
        let n = self.per_slot();
        let mut out = vec![];
        for (i, p, j) in self.kept() {
            let Some(want) = wanted(&p.block, j, k) else { continue };
            let Some(&seen) = got.seen.get(slot * n + i) else { continue };
            if seen == [want, want] {
                continue;
            }
            let also = match (p.read_in, &p.block.words[j]) {
                (ReadIn::Record, Word::SequenceIndex { .. }) => "; gl_DrawID under the fallback".to_string(),
                (ReadIn::Record, _) => "; read from the draw's record by gl_DrawID".to_string(),
                (read_in, _) => format!("; read in the {} stage", read_in.stage()),
            };
            out.push(format!("{who}: {} {}", word_name(layout, &p.block, j, &also), misread(&p.block, j, seen, want)));
        }
        out
    }

    /// What is read, for the report's ran line: `5 pushed word(s) read per sequence that
    /// draws (4 in the vertex stage, 1 in the fragment stage)`, in how many executions where
    /// more than one, and what is not, and why.
    pub fn summary(&self) -> String {
        let checked = |read_in: ReadIn| {
            let blocks = self.parts.iter().filter(|p| p.read_in == read_in).map(|p| &p.block);
            blocks.map(|b| (0..b.words.len()).filter(|&j| wanted(b, j, 0).is_some()).count()).sum::<usize>()
        };
        let record = checked(ReadIn::Record);
        let in_stages = [ReadIn::Vertex].into_iter().chain(Between::ALL.map(ReadIn::Between)).chain([ReadIn::Fragment]);
        let per_stage: Vec<(usize, &str)> =
            in_stages.map(|r| (checked(r), r.stage())).filter(|(n, _)| *n > 0).collect();
        let passes = self.passes().count();
        let mut out = vec![];
        if record > 0 {
            let index =
                self.parts.iter().any(|p| p.block.words.iter().any(|w| matches!(w, Word::SequenceIndex { .. })));
            out.push(format!(
                "{record} pushed word(s) read per sequence that draws, from its record by gl_DrawID{} (the fallback pushes nothing per draw)",
                if index { ", the sequence index as gl_DrawID" } else { "" }
            ));
        }
        if !per_stage.is_empty() {
            let stages: Vec<String> = per_stage.iter().map(|(n, stage)| format!("{n} in the {stage} stage")).collect();
            out.push(format!(
                "{} pushed word(s) read per sequence that draws: {}",
                per_stage.iter().map(|(n, _)| n).sum::<usize>(),
                stages.join(", ")
            ));
        }
        // The stages whose shaders carry words, in order.
        let mut carriers: Vec<&str> =
            self.parts.iter().filter(|p| p.read_in != ReadIn::Fragment).map(|p| p.read_in.stage()).collect();
        carriers.dedup();
        if let (true, Some((last, before))) = (passes > 1, carriers.split_last()) {
            let carrying = match before {
                [] => format!("the {last} shader carrying at most {CARRIED_MAX} words"),
                _ => format!(
                    "the {} and {last} shaders carrying at most {CARRIED_MAX} words between them",
                    before.join(", ")
                ),
            };
            out.push(format!("the records drawn {passes} times, {carrying} each time"));
        }
        if !self.unread.is_empty() {
            out.push(format!("pushed words not read: {}", self.unread.join("; ")));
        }
        out.join("; ")
    }
}

/// One execution's share of a layout's words: a window of each stage that carries words (or a
/// record window), and after the last the fragment block (see [`DrawWords::passes`]).
#[derive(Clone, Copy, Debug)]
pub struct Pass<'a> {
    parts: &'a [Part],
}

impl Pass<'_> {
    fn part(&self, read_in: ReadIn) -> Option<&PushBlock> {
        self.parts.iter().find(|p| p.read_in == read_in).map(|p| &p.block)
    }

    /// Words the tally keeps per slot in this execution.
    fn per_slot(&self) -> usize {
        self.parts.iter().map(|p| p.block.words.len()).sum()
    }

    /// Words the shaders before the fragment shader carry to it.
    fn carried(&self) -> usize {
        self.parts.iter().filter(|p| p.read_in != ReadIn::Fragment).map(|p| p.block.words.len()).sum()
    }

    /// Words the stages before `read_in`'s carry ahead of its own.
    fn carried_before(&self, read_in: ReadIn) -> usize {
        self.parts.iter().take_while(|p| p.read_in != read_in).map(|p| p.block.words.len()).sum()
    }

    /// The DGC execution's shaders for a tally pipeline with `stages` between vertex and
    /// fragment, their push blocks placed over this execution's bytes, for a layout of
    /// `vertex_buffers` VERTEX_BUFFER tokens.
    pub fn dgc_shaders(&self, vertex_buffers: usize, stages: &TallyStages) -> Result<PassShaders, String> {
        let (pushed, none) = match vertex_buffers {
            0 => (PUSHED_VERT, PUSHED_NONE_VERT),
            1 => (PUSHED_VERTICES_VERT, PUSHED_NONE_VERTICES_VERT),
            _ => (PUSHED_BINDINGS_VERT, PUSHED_NONE_BINDINGS_VERT),
        };
        let vertex = match self.part(ReadIn::Vertex) {
            Some(b) => place(pushed, b.first, b.words.len() as u32)?,
            None => none.to_vec(),
        };
        let between = stages.between.iter().map(|&b| match self.part(ReadIn::Between(b)) {
            Some(block) => b.reading(block, self.carried_before(ReadIn::Between(b)) as u32),
            None => Ok(b.carrying()),
        });
        let between = between.collect::<Result<_, _>>()?;
        let fragment = match self.part(ReadIn::Fragment) {
            Some(b) => place(PUSHED_FRAG, b.first, b.words.len() as u32)?,
            None => CARRIED_FRAG.to_vec(),
        };
        Ok(PassShaders { vertex, between, fragment })
    }

    /// What the DGC execution needs: `fragment` (from [`dgc_shaders`](Self::dgc_shaders)), the
    /// counts, and each block's background.
    pub fn run<'a>(&self, fragment: &'a [u8]) -> WordsRun<'a> {
        WordsRun {
            fragment,
            carried: self.carried() as u32,
            per_slot: self.per_slot() as u32,
            background: self.parts.iter().map(|p| (p.block.first, p.block.background())).collect(),
        }
    }

    /// The fallback's table: where `draw_pushed_stream.vert` reads each carried word, a word
    /// of the record, [`FROM_DRAW_ID`] or [`NOWHERE`].
    pub fn sources(&self, layout: &CompiledLayout) -> Vec<u32> {
        let Some(block) = self.part(ReadIn::Record) else { return vec![] };
        (0..block.words.len())
            .map(|j| match &block.words[j] {
                Word::Unpushed => NOWHERE,
                Word::SequenceIndex { .. } => FROM_DRAW_ID,
                Word::Data { token, .. } => {
                    let t = &layout.tokens[*token];
                    let range_offset = t.push_constant.map_or(0, |r| r.offset);
                    (t.offset + block.byte(j) - range_offset) / 4
                }
            })
            .collect()
    }
}

/// The shaders of one DGC execution of the draw tally ([`Pass::dgc_shaders`]).
#[derive(Clone, Debug)]
pub struct PassShaders {
    pub vertex: Vec<u8>,
    /// Those between the vertex and fragment shaders, in pipeline order.
    pub between: Vec<StageShader>,
    pub fragment: Vec<u8>,
}

/// The tallies of the executions of [`DrawWords::passes`], in order, as one: their fragments
/// (each execution draws the same records, so each must have counted the same), and in each
/// slot the words of every execution after those of the ones before it.
pub fn join(tallies: &[Tally]) -> Result<Tally, String> {
    let Some(first) = tallies.first() else { return Err("no execution of the draw tally to join".into()) };
    let counted = |t: &Tally| (t.stray, t.slots);
    if let Some(i) = tallies.iter().position(|t| counted(t) != counted(first)) {
        return Err(format!(
            "the draw tally's {} executions of the same records counted different fragments: \
             execution {} counted (in no slot, per slot) {:?}, the first {:?}",
            tallies.len(),
            i + 1,
            counted(&tallies[i]),
            counted(first),
        ));
    }
    let mut joined = Tally { seen: vec![], ..first.clone() };
    for slot in 0..TALLY_SLOTS {
        for t in tallies {
            let n = t.seen.len() / TALLY_SLOTS;
            joined.seen.extend_from_slice(&t.seen[slot * n..(slot + 1) * n]);
        }
    }
    Ok(joined)
}

#[cfg(test)]
mod tests {
    use super::super::pushed::{background, pushed_value};
    use super::*;
    use crate::layout_check::rig::TALLY_SLOTS;

    fn manifest(text: &str) -> Manifest {
        let c = dgcc::driver::compile_source(std::path::Path::new("pushed.ron"), text, &Default::default());
        c.manifest.unwrap_or_else(|| panic!("the description compiles: {:?}", c.diagnostics))
    }

    fn layout<'m>(m: &'m Manifest, name: &str) -> &'m CompiledLayout {
        m.layouts.iter().find(|l| l.name == name).unwrap()
    }

    const PUSHED: &str = include_str!("../../../../tests/run_layout/pushed.ron");

    /// `layout`'s words under DGC on a device with geometry and tessellation shaders.
    fn dgc(m: &Manifest, layout: &CompiledLayout) -> DrawWords {
        DrawWords::dgc(m, layout, &TallyStages::new(layout.shader_stages, "the layout's", true, true))
    }

    /// A tally in which sequence `k` drew one fragment into slot `slots[k]` and every word read
    /// what its record asks, and the words it expects.
    fn right(words: &DrawWords, slots: &Slots) -> Tally {
        let mut got = Tally::default();
        for (k, s) in slots.iter().enumerate() {
            got.add(s[0], 0, 0, k as u32);
        }
        got.seen = vec![[7, 7]; TALLY_SLOTS * words.per_slot()];
        let mut want = got.clone();
        words.expect(&mut want, &got, slots);
        want
    }

    #[test]
    fn each_stage_reads_the_words_pushed_to_it_and_a_wrong_one_is_named_with_its_byte() {
        let m = manifest(PUSHED);
        let l = layout(&m, "Fields");
        let words = dgc(&m, l);
        assert!(words.unread.is_empty(), "{words:?}");
        // The vertex stage: bytes 16..52 (object at 16, the sequence index at 48, the fragment's
        // material between them unpushed there); the fragment stage: bytes 40..44.
        let blocks: Vec<(ReadIn, u32, usize)> =
            words.parts.iter().map(|p| (p.read_in, p.block.first, p.block.words.len())).collect();
        assert_eq!(blocks, [(ReadIn::Vertex, 16, 9), (ReadIn::Fragment, 40, 1)]);
        assert_eq!(
            words.summary(),
            "6 pushed word(s) read per sequence that draws: 5 in the vertex stage, 1 in the fragment stage"
        );
        let slots: Slots = vec![vec![6], vec![0], vec![12]];
        let want = right(&words, &slots);
        // Unpushed words hold what was read; the others what each sequence's record asks.
        assert_eq!(want.seen[6 * 10 + 4], [7, 7]);
        assert_eq!(want.seen[12 * 10], [pushed_value(2, 16); 2]);
        assert_eq!(want.seen[12 * 10 + 8], [2, 2], "the sequence index");
        assert_eq!(want.seen[5 * 10], Tally::UNSEEN, "a slot nothing reaches");
        for slot in [6, 0, 12] {
            let k = slots.iter().position(|s| s[0] == slot).unwrap() as u32;
            assert_eq!(words.differences(l, &want, slot as usize, k, "who"), Vec::<String>::new());
        }

        let mut index = want.clone();
        index.seen[8] = [0, 0]; // slot 0, word 8
        assert_eq!(
            words.differences(l, &index, 0, 1, "sequence 1 (slot 0)"),
            ["sequence 1 (slot 0): push-constant byte 48 (token `index` (the sequence index); read in the vertex stage) read 0x00000000 instead of 0x00000001"]
        );
        let mut fragment = want.clone();
        fragment.seen[12 * 10 + 9] = [background(40); 2];
        let d = words.differences(l, &fragment, 12, 2, "sequence 2 (slot 12)");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].starts_with("sequence 2 (slot 12): push-constant byte 40 (token `material`, field `material_id`; read in the fragment stage) read 0xb0000028 instead of"),
            "{d:?}"
        );
        assert!(d[0].ends_with("(nothing was pushed there)"), "{d:?}");
        let mut varied = want.clone();
        varied.seen[6 * 10 + 1] = [1, 2];
        let d = words.differences(l, &varied, 6, 0, "sequence 0 (slot 6)");
        assert!(
            d[0].contains("field `scale`; read in the vertex stage) read values from 0x00000001 to 0x00000002"),
            "{d:?}"
        );
        // A slot no fragment reached reads nothing, whatever it holds.
        let mut empty = varied;
        empty.slots[6] = [0; 4];
        assert!(words.differences(l, &empty, 6, 0, "who").is_empty());
    }

    #[test]
    fn under_the_fallback_every_word_is_read_from_the_record_and_the_sequence_index_is_the_draw_id() {
        let m = manifest(PUSHED);
        let l = layout(&m, "Plain");
        let words = DrawWords::fallback(l);
        // Bytes 4..36: the sequence index, two words no token pushes, `color` and `bias`.
        let index = l.tokens.iter().position(|t| t.name == "index").unwrap();
        let tint = &l.tokens[l.tokens.iter().position(|t| t.name == "tint").unwrap()];
        let data: Vec<u32> = (0..5).map(|w| tint.offset / 4 + w).collect();
        let mut expected = vec![FROM_DRAW_ID, NOWHERE, NOWHERE];
        expected.extend(data);
        let sources: Vec<Vec<u32>> = words.passes().map(|p| p.sources(l)).collect();
        assert_eq!(sources, [expected], "{:?}", l.tokens[index]);
        assert!(words.summary().starts_with("6 pushed word(s) read per sequence that draws, from its record by gl_DrawID, the sequence index as gl_DrawID"));
        let slots: Slots = vec![vec![6], vec![0]];
        let mut drawn = right(&words, &slots);
        drawn.seen[0] = [0, 0];
        assert_eq!(
            words.differences(l, &drawn, 0, 1, "sequence 1 (slot 0)"),
            ["sequence 1 (slot 0): push-constant byte 4 (token `index` (the sequence index); gl_DrawID under the fallback) read 0x00000000 instead of 0x00000001"]
        );
    }

    #[test]
    fn geometry_words_are_read_there_after_the_vertex_words_and_unread_ones_are_said_with_why() {
        let m = manifest(
            r#"Pipeline(
                name: "unread",
                targets: ["lavapipe"],
                push_constants: [
                    (stages: [Vertex], offset: 0, size: 240),
                    (stages: [Geometry], offset: 240, size: 8),
                ],
                layouts: [
                    (name: "Wide", stages: [Vertex, Fragment, Geometry], max_sequences: 64, align: Some(4), tokens: [
                        PushConstant(name: "big", stages: [Vertex], offset: 0, fields: [(name: "rows", ty: Array(Vec4, 15))]),
                        PushConstant(name: "geometry", stages: [Geometry], offset: 240, fields: [(name: "g", ty: U32), (name: "h", ty: U32)]),
                        Draw(name: "draw"),
                    ]),
                ],
            )"#,
        );
        let l = layout(&m, "Wide");
        let words = dgc(&m, l);
        assert!(words.unread.is_empty(), "{words:?}");
        // Every vertex word, 52 at a time, then the geometry stage's two, carried after the
        // last eight vertex words in the second execution.
        let geometry = ReadIn::Between(Between::Geometry);
        let passes = blocks(&words);
        assert_eq!(
            passes,
            [vec![(ReadIn::Vertex, 0, CARRIED_MAX)], vec![(ReadIn::Vertex, 208, 8), (geometry, 240, 2)]]
        );
        let runs: Vec<(u32, u32)> = words.passes().map(|p| p.run(&[])).map(|r| (r.carried, r.per_slot)).collect();
        assert_eq!(runs, [(52, 52), (10, 10)]);
        let stages = TallyStages::new(l.shader_stages, "the layout's", true, true);
        let second = words.passes().nth(1).unwrap().dgc_shaders(0, &stages).unwrap();
        assert_eq!(second.between, [Between::Geometry.reading(&words.parts[2].block, 8).unwrap()]);
        let first = words.passes().next().unwrap().dgc_shaders(0, &stages).unwrap();
        assert_eq!(first.between, [Between::Geometry.carrying()], "nothing of its own to read there");
        assert_eq!(
            words.summary(),
            "62 pushed word(s) read per sequence that draws: 60 in the vertex stage, 2 in the geometry stage; \
             the records drawn 2 times, the vertex and geometry shaders carrying at most 52 words between them each time"
        );
        // A wrong geometry word is named with the stage that read it.
        let slots: Slots = vec![vec![6], vec![0], vec![12]];
        let mut got = right(&words, &slots);
        got.seen[12 * 62 + 60] = [pushed_value(1, 240); 2];
        assert_eq!(
            words.differences(l, &got, 12, 2, "sequence 2 (slot 12)"),
            [format!(
                "sequence 2 (slot 12): push-constant byte 240 (token `geometry`, field `g`; read in the geometry stage) read {:#010x} instead of {:#010x}",
                pushed_value(1, 240),
                pushed_value(2, 240)
            )]
        );

        // Without geometryShader, or with a layout whose stages lack Geometry, the words are
        // not read, and the report says why.
        for (stages, why) in [
            (TallyStages::new(l.shader_stages, "the layout's", false, true), "the device lacks geometryShader"),
            (TallyStages::new(0x11, "the layout's", true, true), "not among the layout's stages"),
        ] {
            let words = DrawWords::dgc(&m, l, &stages);
            let unread = format!(
                "token `geometry` pushes bytes 240..248 only to stages the tally pipeline has no shader for (geometry: {why})"
            );
            assert_eq!(words.unread, std::slice::from_ref(&unread));
            assert_eq!(
                words.summary(),
                format!(
                    "60 pushed word(s) read per sequence that draws: 60 in the vertex stage; \
                     the records drawn 2 times, the vertex shader carrying at most 52 words each time; \
                     pushed words not read: {unread}"
                )
            );
        }
    }

    const BETWEEN: &str = include_str!("../../../../tests/run_layout/between.ron");

    /// The blocks each execution of `words` reads, in order.
    fn blocks(words: &DrawWords) -> Vec<Vec<(ReadIn, u32, usize)>> {
        let pass = |p: Pass<'_>| p.parts.iter().map(|p| (p.read_in, p.block.first, p.block.words.len())).collect();
        words.passes().map(pass).collect()
    }

    #[test]
    fn each_stage_between_vertex_and_fragment_carries_its_words_after_those_of_the_stages_before_it() {
        let m = manifest(BETWEEN);
        let every = layout(&m, "EveryStage");
        let stages = TallyStages::new(every.shader_stages, "the layout's", true, true);
        let words = dgc(&m, every);
        assert!(words.unread.is_empty(), "{words:?}");
        // One execution: a word (byte 4) read in each stage, the sequence index (byte 12) in the
        // tessellation evaluation and geometry stages (byte 8 between, unpushed).
        let [tcs, tes, geometry] = Between::ALL.map(ReadIn::Between);
        let one = vec![(ReadIn::Vertex, 4, 1), (tcs, 4, 1), (tes, 4, 3), (geometry, 4, 3), (ReadIn::Fragment, 4, 1)];
        assert_eq!(blocks(&words), [one]);
        let pass = words.passes().next().unwrap();
        let run = pass.run(&[]);
        assert_eq!((run.carried, run.per_slot), (8, 9));
        let shaders = pass.dgc_shaders(0, &stages).unwrap();
        let before: Vec<(vk::ShaderStageFlags, Vec<(u32, u32)>)> =
            shaders.between.iter().map(|s| (s.stage, s.spec.clone())).collect();
        assert_eq!(
            before,
            [
                (vk::ShaderStageFlags::TESSELLATION_CONTROL, vec![(0, 1)]),
                (vk::ShaderStageFlags::TESSELLATION_EVALUATION, vec![(0, 2)]),
                (vk::ShaderStageFlags::GEOMETRY, vec![(0, 5)]),
            ]
        );
        // A wrong word is named with each stage that read it.
        let slots: Slots = vec![vec![6], vec![0], vec![12]];
        let mut got = right(&words, &slots);
        got.seen[12 * 9 + 7] = [pushed_value(1, 12); 2];
        let d = words.differences(every, &got, 12, 2, "sequence 2 (slot 12)");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].contains("byte 12 (token `index` (the sequence index); read in the geometry stage)"), "{d:?}");

        // 40 vertex words and 24 geometry words do not fit one execution: the geometry words
        // go alone in the second, the vertex shader carrying none there, and in the first the
        // geometry shader hands the vertex words on.
        let wide = layout(&m, "GeometryWide");
        let (words, stages) = (dgc(&m, wide), TallyStages::new(wide.shader_stages, "the layout's", true, true));
        assert_eq!(blocks(&words), [vec![(ReadIn::Vertex, 0, 40)], vec![(geometry, 160, 24)]]);
        let shaders: Vec<PassShaders> = words.passes().map(|p| p.dgc_shaders(0, &stages).unwrap()).collect();
        assert_eq!(shaders[0].between, [Between::Geometry.carrying()]);
        assert_eq!(shaders[1].vertex, PUSHED_NONE_VERT);
        assert_eq!(shaders[1].between, [Between::Geometry.reading(&words.parts[1].block, 0).unwrap()]);
    }

    #[test]
    fn a_corrupted_record_flips_the_first_pushed_word_the_tally_reads_back() {
        let m = manifest(BETWEEN);
        let words = |name: &str, geometry_shader: bool| {
            let l = layout(&m, name);
            DrawWords::dgc(&m, l, &TallyStages::new(l.shader_stages, "the layout's", geometry_shader, true))
        };
        // GeometryWide's first token pushes to the geometry stage alone (bytes 160..256), its
        // second to the vertex stage (0..160): the first in token order where both are read,
        // the vertex stage's first word where the device lacks geometryShader.
        let wide = layout(&m, "GeometryWide");
        assert_eq!(words("GeometryWide", true).word_to_flip(wide), Some(160));
        assert_eq!(words("GeometryWide", false).word_to_flip(wide), Some(0));
        // Geometry pushes words to the geometry stage alone: none to flip without it (its
        // draw is written wrong instead), its first data word (byte 16) with it.
        let geometry = layout(&m, "Geometry");
        assert_eq!(words("Geometry", true).word_to_flip(geometry), Some(16));
        assert_eq!(words("Geometry", false).word_to_flip(geometry), None);
        // A sequence index is written by the driver, not the record: never the one flipped.
        let every = layout(&m, "EveryStage");
        assert_eq!(words("EveryStage", true).word_to_flip(every), Some(4));
    }

    const WIDE: &str = include_str!("../../../../tests/run_layout/wide.ron");

    /// `joined`'s words cut per slot into the tallies of `words`' executions, as each would
    /// have counted them.
    fn per_execution(words: &DrawWords, joined: &Tally) -> Vec<Tally> {
        let n = words.per_slot();
        let mut before = 0;
        words
            .passes()
            .map(|p| {
                let (from, to) = (before, before + p.per_slot());
                before = to;
                let seen = (0..TALLY_SLOTS).flat_map(|s| joined.seen[s * n + from..s * n + to].to_vec());
                Tally { seen: seen.collect(), ..joined.clone() }
            })
            .collect()
    }

    #[test]
    fn past_52_vertex_words_the_records_are_drawn_once_per_window_and_a_wrong_word_there_is_named() {
        let m = manifest(WIDE);
        let (wide, both) = (layout(&m, "Wide"), layout(&m, "WideBoth"));
        let words = dgc(&m, both);
        assert!(words.unread.is_empty(), "{words:?}");
        // Bytes 0..208, then the last four rows, the sequence index at 224, three words no token
        // pushes and the colour at 240..256, which the fragment stage reads too, in the second
        // execution.
        let passes = blocks(&words);
        assert_eq!(
            passes,
            [vec![(ReadIn::Vertex, 0, 52)], vec![(ReadIn::Vertex, 208, 12), (ReadIn::Fragment, 240, 4)]]
        );
        let runs: Vec<(u32, u32)> = words.passes().map(|p| p.run(&[])).map(|r| (r.carried, r.per_slot)).collect();
        assert_eq!(runs, [(52, 52), (12, 16)]);
        assert_eq!(
            words.summary(),
            "65 pushed word(s) read per sequence that draws: 61 in the vertex stage, 4 in the fragment stage; \
             the records drawn 2 times, the vertex shader carrying at most 52 words each time"
        );

        // Joined, the executions' words are the words kept per slot, in order.
        let slots: Slots = vec![vec![6], vec![0], vec![12]];
        let want = right(&words, &slots);
        let executions = per_execution(&words, &want);
        assert_eq!(
            executions[1].seen[12 * 16 + 4..12 * 16 + 6],
            [[2, 2], [7, 7]],
            "slot 12: its index, an unpushed word"
        );
        assert_eq!(join(&executions).unwrap(), want);
        // A wrong word of the second window: the vertex stage's byte 240, of sequence 2.
        let mut second = executions.clone();
        second[1].seen[12 * 16 + 8] = [pushed_value(1, 240); 2];
        let got = join(&second).unwrap();
        assert_eq!(
            words.differences(both, &got, 12, 2, "sequence 2 (slot 12)"),
            [format!(
                "sequence 2 (slot 12): push-constant byte 240 (token `tail`, field `color`; read in the vertex stage) read {:#010x} instead of {:#010x}",
                pushed_value(1, 240),
                pushed_value(2, 240)
            )]
        );
        // Executions that counted different fragments are not joined.
        let mut counted = executions;
        counted[1].slots[6][0] += 1;
        let why = join(&counted).unwrap_err();
        assert!(why.contains("2 executions of the same records counted different fragments: execution 2"), "{why}");

        // The fallback reads the same windows from the record, the sequence index as gl_DrawID.
        let words = DrawWords::fallback(wide);
        let sources: Vec<Vec<u32>> = words.passes().map(|p| p.sources(wide)).collect();
        let record = |token: &str, byte: u32| {
            let t = wide.tokens.iter().find(|t| t.name == token).unwrap();
            (t.offset + byte - t.push_constant.unwrap().offset) / 4
        };
        let rows: Vec<u32> = (0..56).map(|j| record("rows", 4 * j)).collect();
        let tail: Vec<u32> = (60..64).map(|j| record("tail", 4 * j)).collect();
        assert_eq!(sources[0], rows[..52]);
        assert_eq!(sources[1], [&rows[52..], &[FROM_DRAW_ID, NOWHERE, NOWHERE, NOWHERE][..], &tail].concat());
    }
}
