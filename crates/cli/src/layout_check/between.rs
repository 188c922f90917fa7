//! The draw tally pipeline's stages between its vertex and fragment shaders: tessellation
//! control and evaluation, and geometry (`draw_tally.tesc`, `draw_tally.tese`,
//! `draw_tally.geom`, through `draw_between.glsl`).
//!
//! Why the tally pipeline has them: words a layout pushes to one of these stages are read only
//! by a shader of that stage (a driver may keep each stage's push constants apart, as
//! [`draw_words`](super::draw_words) says of the fragment stage), and an execution set's
//! initial pipeline must have exactly its token's stages
//! (VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11002). So the tally pipeline has
//! those of the layout's stages (its execution-set token's, where it draws through the set)
//! that the device has enabled (`geometryShader`, `tessellationShader`, which the runtime's
//! context enables where the device has them); tessellation control and evaluation both or
//! neither, as a graphics pipeline must (VUID-VkGraphicsPipelineCreateInfo-pStages-00729,
//! -00730). The report names each stage it lacks with why ([`TallyStages::lacking`]), and the
//! words pushed only there are not read.
//!
//! Why each hands the tally on unchanged: every triangle still covers the one pixel once, as
//! the rig needs (`rig.rs`): the geometry shader emits each triangle as it came, and
//! tessellation takes each as a patch of its 3 vertices at level 1, which is one triangle with
//! the patch's corners. Where the words are read back, each stage also hands on the words the
//! stages before it carried and writes its own pushed words after them (`CARRIED_BEFORE`, a
//! specialization constant), so one execution carries every stage's words to the fragment
//! shader, at most [`CARRIED_MAX`](super::draw_words::CARRIED_MAX) in all.

use super::push_block::place;
use super::pushed::{stage_name, PushBlock};
use super::rig::StageShader;
use ash::vk;
use dgcc::ir::CompiledLayout;
use dgcc::runtime::GpuContext;

/// A stage between the vertex and fragment shaders, in pipeline order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Between {
    TessControl,
    TessEvaluation,
    Geometry,
}

impl Between {
    pub const ALL: [Between; 3] = [Between::TessControl, Between::TessEvaluation, Between::Geometry];

    pub fn flag(self) -> vk::ShaderStageFlags {
        match self {
            Between::TessControl => vk::ShaderStageFlags::TESSELLATION_CONTROL,
            Between::TessEvaluation => vk::ShaderStageFlags::TESSELLATION_EVALUATION,
            Between::Geometry => vk::ShaderStageFlags::GEOMETRY,
        }
    }

    /// `geometry`, `tessellation control`…
    pub fn name(self) -> &'static str {
        stage_name(self.flag())
    }

    /// The device feature a pipeline with this stage needs.
    fn feature(self) -> &'static str {
        match self {
            Between::Geometry => "geometryShader",
            Between::TessControl | Between::TessEvaluation => "tessellationShader",
        }
    }

    /// Its shaders: handing on the tally alone, the carried words too, and adding its own
    /// pushed words to them (its push block still to be placed).
    fn spv(self) -> [&'static [u8]; 3] {
        match self {
            Between::TessControl => [
                include_bytes!("../../../../shaders/runtime/spv/draw_tally.tesc.spv"),
                include_bytes!("../../../../shaders/runtime/spv/draw_tally.carried.tesc.spv"),
                include_bytes!("../../../../shaders/runtime/spv/draw_tally.pushed.tesc.spv"),
            ],
            Between::TessEvaluation => [
                include_bytes!("../../../../shaders/runtime/spv/draw_tally.tese.spv"),
                include_bytes!("../../../../shaders/runtime/spv/draw_tally.carried.tese.spv"),
                include_bytes!("../../../../shaders/runtime/spv/draw_tally.pushed.tese.spv"),
            ],
            Between::Geometry => [
                include_bytes!("../../../../shaders/runtime/spv/draw_tally.geom.spv"),
                include_bytes!("../../../../shaders/runtime/spv/draw_tally.carried.geom.spv"),
                include_bytes!("../../../../shaders/runtime/spv/draw_tally.pushed.geom.spv"),
            ],
        }
    }

    /// The shader handing on the tally alone (a layout whose words are not read).
    pub fn tally_only(self) -> StageShader {
        StageShader { stage: self.flag(), spv: self.spv()[0].to_vec(), spec: vec![] }
    }

    /// The shader handing on the tally and the carried words, reading none of its own.
    pub fn carrying(self) -> StageShader {
        StageShader { stage: self.flag(), spv: self.spv()[1].to_vec(), spec: vec![] }
    }

    /// The shader handing on the tally and the carried words, and `block`'s words after the
    /// first `before` of them (`CARRIED_BEFORE`, constant_id 0).
    pub fn reading(self, block: &PushBlock, before: u32) -> Result<StageShader, String> {
        let spv = place(self.spv()[2], block.first, block.words.len() as u32)?;
        Ok(StageShader { stage: self.flag(), spv, spec: vec![(0, before)] })
    }
}

/// The stages between vertex and fragment a layout's tally pipeline has, in pipeline order,
/// and why it lacks each of the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TallyStages {
    pub between: Vec<Between>,
    lacks: Vec<(Between, String)>,
}

impl TallyStages {
    /// For `stages` (a stage mask, `whose` stages: `the layout's`), on a device with
    /// `geometry_shader` and `tessellation_shader` enabled or not.
    pub fn new(stages: u32, whose: &str, geometry_shader: bool, tessellation_shader: bool) -> TallyStages {
        let tessellation = vk::ShaderStageFlags::TESSELLATION_CONTROL | vk::ShaderStageFlags::TESSELLATION_EVALUATION;
        let mut out = TallyStages { between: vec![], lacks: vec![] };
        for b in Between::ALL {
            let (wanted, enabled) = match b {
                Between::Geometry => (stages & b.flag().as_raw() != 0, geometry_shader),
                _ => (stages & tessellation.as_raw() != 0, tessellation_shader),
            };
            match (wanted, enabled) {
                (true, true) => out.between.push(b),
                (true, false) => out.lacks.push((b, format!("the device lacks {}", b.feature()))),
                (false, _) => out.lacks.push((b, format!("not among {whose} stages"))),
            }
        }
        out
    }

    /// `layout`'s on `ctx`'s device: its stages, or where it draws through its execution set
    /// (`through_set`), the set token's.
    pub fn of(ctx: &GpuContext, layout: &CompiledLayout, through_set: bool) -> TallyStages {
        let caps = ctx.caps();
        let (stages, whose) = match layout.execution_set().filter(|_| through_set) {
            Some(set) => (set.stages, "the execution set's"),
            None => (layout.shader_stages, "the layout's"),
        };
        TallyStages::new(stages, whose, caps.geometry_shader, caps.tessellation_shader)
    }

    /// The stage mask of the stages the pipeline has between vertex and fragment.
    pub fn mask(&self) -> u32 {
        self.between.iter().fold(0, |mask, b| mask | b.flag().as_raw())
    }

    /// The shaders handing on the tally alone, for a layout whose words are not read.
    pub fn tally_only(&self) -> Vec<StageShader> {
        self.between.iter().map(|b| b.tally_only()).collect()
    }

    /// Why the pipeline has no shader of the stages of `stages` (which it lacks), for the
    /// report: `geometry: the device lacks geometryShader`, stages for the same reason named
    /// together, and a stage no vertex pipeline has said so.
    pub fn lacking(&self, stages: u32) -> String {
        let mut reasons: Vec<(String, Vec<String>)> = vec![];
        for bit in (0..32).map(|i| 1u32 << i).filter(|bit| stages & bit != 0) {
            let lacks = self.lacks.iter().find(|(b, _)| b.flag().as_raw() == bit);
            let why = lacks.map_or_else(|| "not a stage of a vertex pipeline".to_string(), |(_, why)| why.clone());
            let name = match stage_name(vk::ShaderStageFlags::from_raw(bit)) {
                "another" => format!("stage bit {bit:#x}"),
                name => name.to_string(),
            };
            match reasons.iter_mut().find(|(w, _)| *w == why) {
                Some((_, names)) => names.push(name),
                None => reasons.push((why, vec![name])),
            }
        }
        let said: Vec<String> = reasons.iter().map(|(why, names)| format!("{}: {why}", names.join(", "))).collect();
        said.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GEOMETRY: u32 = 0x8;
    const TESS_CONTROL: u32 = 0x2;
    const VERTEX_FRAGMENT: u32 = 0x1 | 0x10;

    #[test]
    fn the_pipeline_takes_the_stages_asked_for_that_the_device_has_tessellation_both_or_neither() {
        let all = |stages| TallyStages::new(stages, "the layout's", true, true).between;
        assert_eq!(all(VERTEX_FRAGMENT), []);
        assert_eq!(all(VERTEX_FRAGMENT | GEOMETRY), [Between::Geometry]);
        // Either tessellation stage brings both, in pipeline order before geometry.
        assert_eq!(all(VERTEX_FRAGMENT | TESS_CONTROL | GEOMETRY), Between::ALL);
        assert_eq!(all(VERTEX_FRAGMENT | 0x4), [Between::TessControl, Between::TessEvaluation]);

        let no_geometry = TallyStages::new(VERTEX_FRAGMENT | GEOMETRY | TESS_CONTROL, "the layout's", false, true);
        assert_eq!(no_geometry.between, [Between::TessControl, Between::TessEvaluation]);
        assert_eq!(no_geometry.mask(), TESS_CONTROL | 0x4);
        assert_eq!(no_geometry.lacking(GEOMETRY), "geometry: the device lacks geometryShader");
        let no_tessellation = TallyStages::new(VERTEX_FRAGMENT | GEOMETRY, "the execution set's", true, false);
        assert_eq!(
            no_tessellation.lacking(TESS_CONTROL | 0x4 | 0x40),
            "tessellation control, tessellation evaluation: not among the execution set's stages; task: not a stage of a vertex pipeline"
        );
        let nothing = TallyStages::new(VERTEX_FRAGMENT | GEOMETRY | TESS_CONTROL, "the layout's", false, false);
        assert_eq!(
            nothing.lacking(TESS_CONTROL | GEOMETRY),
            "tessellation control: the device lacks tessellationShader; geometry: the device lacks geometryShader"
        );
        assert_eq!(nothing.tally_only().len(), 0);
    }

    #[test]
    fn a_stage_reading_its_block_writes_it_after_the_words_carried_before_it() {
        let block = PushBlock { first: 24, words: vec![super::super::pushed::Word::Unpushed; 2] };
        for b in Between::ALL {
            let reading = b.reading(&block, 5).unwrap_or_else(|e| panic!("{b:?}: {e}"));
            assert_eq!((reading.stage, reading.spec), (b.flag(), vec![(0, 5)]));
            assert_eq!(place(b.spv()[2], 24, 2).unwrap(), reading.spv, "{b:?}: its block placed over bytes 24..32");
            // The three shaders are three variants (build.sh), not one.
            assert!(b.tally_only().spv != b.carrying().spv && b.carrying().spv != b.spv()[2], "{b:?}");
        }
    }
}
