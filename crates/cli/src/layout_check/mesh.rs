//! Mesh layouts executed for real (PUSH_CONSTANT of a meshlet address and count +
//! DRAW_MESH_TASKS, as `mesh.ron`'s Meshlets) through [`rig`](super::rig), with `draw_meshlets.task` / `draw_meshlets.mesh` in front of the tally shader.
//!
//! Why the data looks the way it does: each sequence pushes the device address of its own run
//! of meshlets (two words: tally slot, weight) and how many there are; the task shader launches
//! that many mesh workgroups per task workgroup, and each mesh workgroup draws one covering
//! triangle tagged with its meshlet and the launching task workgroup's index. So per slot the
//! tally holds task groups × meshlets fragments, the weights times the task groups, and the sum
//! of task-group indices. Group counts vary per sequence (0 included, and y/z above 1), meshlet
//! counts too (0 included), and every run of meshlets is followed by a poison meshlet whose
//! slot is out of range: reading past `meshlet_count` shows as stray fragments.

use super::rig::{data_buffer, execute, DrawRun, Front, Records, Slots, Tally, TALLY_SLOTS};
use ash::vk;
use dgcc::ir::{CompiledLayout, Manifest, TokenType};
use dgcc::runtime::error::Result;
use dgcc::runtime::RuntimeError;
use dgcc::runtime::{DgcDevice, GpuContext};

const TASK_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_meshlets.task.spv");
const MESH_SPV: &[u8] = include_bytes!("../../../../shaders/runtime/spv/draw_meshlets.mesh.spv");
/// Bytes between the sequences' meshlet runs.
const REGION: usize = 64;

struct Sequence {
    slot: u32,
    /// One weight per meshlet; `meshlet_count` is their number.
    weights: Vec<u32>,
    /// DRAW_MESH_TASKS group counts.
    groups: [u32; 3],
}

fn sequences() -> Vec<Sequence> {
    let seq = |slot, weights: &[u32], groups| Sequence { slot, weights: weights.to_vec(), groups };
    vec![
        seq(4, &[3], [1, 1, 1]),
        seq(11, &[5, 6, 7], [2, 1, 1]),
        seq(6, &[], [1, 1, 1]),
        seq(2, &[9, 10], [1, 2, 3]),
        seq(8, &[1], [0, 1, 1]),
        seq(13, &[2, 4], [3, 1, 2]),
    ]
}

/// What the shaders add, when sequence `k` launches `groups(k, sequence)` task groups.
fn expected(sequences: &[Sequence], groups: impl Fn(usize, &Sequence) -> [u32; 3]) -> Tally {
    let mut t = Tally::default();
    for (k, s) in sequences.iter().enumerate() {
        let [x, y, z] = groups(k, s);
        for task_group in 0..x * y * z {
            for &w in &s.weights {
                t.add(s.slot, w, task_group, 0);
            }
        }
    }
    t
}

/// The expected tally is not blind to a misread group count (only x used, or always one group).
#[cfg(test)]
#[test]
fn misreadings_change_the_expected_tally() {
    let s = sequences();
    let right = expected(&s, |_, s| s.groups);
    assert_ne!(right, expected(&s, |_, s| [s.groups[0], 1, 1]), "only groupCountX");
    assert_ne!(right, expected(&s, |_, _| [1, 1, 1]), "one task group");
    assert_ne!(right, Tally::default(), "nothing drawn");
}

/// Whether the rig can write and read back `layout`, or why not.
pub fn shape(layout: &CompiledLayout) -> std::result::Result<(), String> {
    let kinds: Vec<TokenType> = layout.tokens.iter().map(|t| t.token_type).collect();
    if kinds != [TokenType::PushConstant, TokenType::DrawMeshTasks] {
        let names: Vec<&str> = kinds.iter().map(|k| k.manifest_name()).collect();
        return Err(format!(
            "the mesh tally rig writes PUSH_CONSTANT, DRAW_MESH_TASKS; this layout has {}",
            names.join(", ")
        ));
    }
    let push = &layout.tokens[0];
    let tys: Vec<String> = push.fields.iter().map(|f| f.ty.to_string()).collect();
    let range = push.push_constant.map(|r| (r.offset, r.size));
    if tys != ["Address", "U32"] || range != Some((0, 12)) {
        let at = range.map_or(String::new(), |(o, s)| format!(" at bytes {o}..{}", o + s));
        return Err(format!(
            "the tally task shader reads a meshlet address and a count pushed at offset 0; token `{}` pushes {}{at}",
            push.name,
            tys.join(", ")
        ));
    }
    Ok(())
}

/// How many sequences `run` writes.
pub fn sequence_count() -> u32 {
    sequences().len() as u32
}

/// Execute `layout` (a DRAW_MESH_TASKS layout) and return `(what ran, what should have, the
/// tally slot of each sequence)`. `corrupt`: launch one task group too many for that sequence.
pub fn run(
    ctx: &GpuContext,
    dev: &DgcDevice,
    m: &Manifest,
    layout: &CompiledLayout,
    corrupt: Option<u32>,
) -> Result<(Tally, Tally, Slots)> {
    shape(layout).map_err(RuntimeError::Invalid)?;
    let sequences = sequences();
    let n = sequences.len() as u32;
    let poison = [TALLY_SLOTS as u32 + 1, 1000];
    let mut meshlet_data = vec![0u8; REGION * sequences.len()];
    for (k, s) in sequences.iter().enumerate() {
        let words = s.weights.iter().flat_map(|&w| [s.slot, w]).chain(poison);
        for (j, w) in words.enumerate() {
            let at = REGION * k + 4 * j;
            meshlet_data[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    let mut records = Records::new(layout, n);
    let push = records.token(TokenType::PushConstant)?;
    let fields = &layout.tokens[push].fields;
    let (base, count) = (fields[0].name.clone(), fields[1].name.clone());
    let groups = records.token(TokenType::DrawMeshTasks)?;
    let mut meshlets = data_buffer(ctx, vk::BufferUsageFlags::STORAGE_BUFFER, &meshlet_data)?;
    let mut write = || -> Result<()> {
        for (k, s) in sequences.iter().enumerate() {
            let i = k as u32;
            records.put_u64(i, push, &base, meshlets.address() + (REGION * k) as u64)?;
            records.put_u32(i, push, &count, s.weights.len() as u32)?;
            for (axis, g) in ["group_count_x", "group_count_y", "group_count_z"].iter().zip(s.groups) {
                records.put_u32(i, groups, axis, g)?;
            }
            if corrupt == Some(i) {
                records.put_u32(i, groups, "group_count_x", s.groups[0] + 1)?;
            }
        }
        Ok(())
    };
    let ran = write().and_then(|()| {
        let run = DrawRun {
            front: Front::TaskMesh { task: TASK_SPV, mesh: MESH_SPV },
            between: &[],
            records: &records.bytes,
            sequences: n,
            max_draw_count: 0,
            decoy_indices: None,
            vertex_input: None,
            execution_set: false,
            words: None,
        };
        execute(ctx, dev, m, layout, &run)
    });
    // SAFETY: `execute` waited for the submission.
    unsafe { meshlets.destroy(ctx.device()) };
    let slots = sequences.iter().map(|s| vec![s.slot]).collect();
    Ok((ran?, expected(&sequences, |_, s| s.groups), slots))
}
