//! What the GPU's kernels must agree with, object by object: the frustum test and LOD choice of
//! the reference culling, and which material each object draws with.

use super::*;

/// The most materials a scene has: the entries of the description's execution set.
pub const MAX_MATERIALS: u32 = 16;

/// Give each object one of `materials` materials (bits 8..15 of `info.x`; the colour in bits
/// 0..7 stays). The choice is a hash of the object's index, so neighbours in the stream, which
/// follows object order, rarely share one: the unsorted stream is the hard case for a
/// renderer that switches pipelines per draw.
pub fn assign_materials(objects: &mut [Object], materials: u32) {
    let n = materials.clamp(1, MAX_MATERIALS) as u64;
    for (i, o) in objects.iter_mut().enumerate() {
        let m = if n == 1 { 0 } else { Rng::new(i as u64 ^ 0x6d61_7465_7269_616c).next_u64() % n };
        o.info[0] = (o.info[0] & 0xff) | (m as u32) << 8;
    }
}

/// An object's material (`object_material` in `scene_data.glsl`).
pub fn material_of(o: &Object) -> u32 {
    (o.info[0] >> 8) & 0xff
}

/// How many objects have each material, and where each material's region of a binned stream
/// starts (the regions follow each other in material order).
pub fn material_regions(objects: &[Object], materials: u32) -> (Vec<u32>, Vec<u32>) {
    let mut counts = vec![0u32; materials.max(1) as usize];
    for o in objects {
        if let Some(c) = counts.get_mut(material_of(o) as usize) {
            *c += 1;
        }
    }
    let mut base = 0;
    let starts = counts
        .iter()
        .map(|c| {
            let b = base;
            base += c;
            b
        })
        .collect();
    (counts, starts)
}

/// The reference frustum test, exactly as `scene_data.glsl`'s `sphere_visible`.
pub fn in_frustum(frame: &Frame, o: &Object) -> bool {
    let [cx, cy, cz, r] = o.center_radius;
    frame.planes.iter().all(|p| ((p[0] * cx + p[1] * cy) + p[2] * cz) + p[3] >= -r)
}

/// The LOD of an object, as an index into `Frame::lods`, exactly as `lod_index`.
pub fn lod_index(frame: &Frame, o: &Object) -> usize {
    let [cx, cy, cz, _] = o.center_radius;
    let v = [cx - frame.eye[0], cy - frame.eye[1], cz - frame.eye[2]];
    let d2 = (v[0] * v[0] + v[1] * v[1]) + v[2] * v[2];
    let lod = if d2 <= frame.lod_distance2[0] {
        0
    } else if d2 <= frame.lod_distance2[1] {
        1
    } else {
        2
    };
    (o.info[1] as usize).min(MESH_KINDS - 1) * 3 + lod
}

/// The reference culling: `Some(lod index)` for an object in the frustum.
pub fn cull(frame: &Frame, o: &Object) -> Option<usize> {
    in_frustum(frame, o).then(|| lod_index(frame, o))
}
