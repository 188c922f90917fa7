//! The scene's world on the host: the objects of each scene, the meshes (four kinds, three
//! levels of detail each), the camera and its path, and the reference frustum culling that
//! every mode must agree with.
//!
//! Three scenes. `City`, the default, is where occlusion matters: on a ground slab, blocks of
//! four buildings (the occluders, boxes 8 to 48 units tall, wall to wall) with trees, rocks and
//! balls on the sidewalks, and a camera walking down the streets at eye height, swaying left
//! and right, cutting to another street every `cut_every` frames; from the street most of the
//! city is behind a building. `Field` is the scene of dgcc 0.1: spheres scattered over a
//! 200 × 200 field under a fixed camera, nothing hiding anything; the bench's throughput rows
//! and the book's bandwidth analysis are measured on it. `Cubes` is issue 14's reference
//! workload: plain cubes on a grid facing a fixed camera, every one in view.
//!
//! Why no two objects touch: the `occlusion` image must equal the `none` image pixel for pixel,
//! and the two draw objects in different orders. Where two surfaces meet, some pixel's depths
//! tie in f32 and the first drawn wins; disjoint objects never tie. So every object owns its
//! own box of space: buildings inside their quarter of a block, props inside a sidewalk cell.
//!
//! Why the culling is written twice (in `reference.rs` and in `scene_data.glsl`) with the same
//! operation order: the GPU's answer is checked against the host's exactly, object by object,
//! so both evaluate `((n.x·c.x + n.y·c.y) + n.z·c.z) + w` in f32 without fused
//! multiply-adds (`precise` on the GPU; Rust never contracts). The RNG is a fixed SplitMix64,
//! so a seed is a scene.

mod camera;
mod math;
mod meshes;
mod reference;
mod scenes;

pub use camera::*;
use math::*;
pub use meshes::*;
pub use reference::*;
pub use scenes::*;

/// `Object` in `scene_data.glsl` (std430, 32 bytes; `Pod`: no padding, uploaded as bytes).
/// `info`: colour (bits 0..7) and material (8..15: `assign_materials`), mesh kind, half extents
/// x and y, z as two `packHalf2x16` words.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Object {
    pub center_radius: [f32; 4],
    pub info: [u32; 4],
}

/// `Lod` in `scene_data.glsl` (explicit `pad`, so `Pod`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Lod {
    pub first_index: u32,
    pub index_count: u32,
    pub vertex_offset: i32,
    pub pad: u32,
}

/// Mesh kinds; `Frame::lods[kind * 3 + lod]`.
pub const MESH_KINDS: usize = 4;
pub const KIND_SPHERE: u32 = 0;
pub const KIND_BOX: u32 = 1;
pub const KIND_TREE: u32 = 2;
pub const KIND_ROCK: u32 = 3;

/// `Frame` in `scene_data.glsl` (std430, 560 bytes; `Pod`: no padding, uploaded as bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Frame {
    pub view_proj: [f32; 16],
    pub view: [f32; 16],
    pub planes: [[f32; 4]; 6],
    pub eye: [f32; 4],
    pub lod_distance2: [f32; 4],
    /// `P[0][0]`, `-P[1][1]` (positive), near.
    pub projection: [f32; 4],
    /// depth(d) = x - y / d; z, w: image size.
    pub depth_map: [f32; 4],
    /// Objects, where a draw also carries its object id (`ObjectId::code`), culling choice,
    /// history valid.
    pub counts: [u32; 4],
    pub index_buffer: [u32; 4],
    /// Levels, level-0 width and height, test fault.
    pub pyramid: [u32; 4],
    /// x: where the normals start in the vertex buffer (`Meshes::normal_offset`), y: how many
    /// vertices the sphere meshes have (they come first: `Meshes::sphere_vertices`); under
    /// `--object-id vertex` z, w: `VertexIds::shift` and `base`, else 0.
    pub mesh: [u32; 4],
    /// x: materials, y: frame number (the wind's clock).
    pub materials: [u32; 4],
    pub lods: [Lod; 3 * MESH_KINDS],
}

impl Frame {
    /// These uniforms with the meshes' LOD table and where `meshes`' vertex buffer keeps its
    /// normals and spheres: what the vertex shader needs to read a vertex.
    pub fn with_meshes(self, meshes: &Meshes) -> Frame {
        Frame { lods: meshes.lods, mesh: [meshes.normal_offset, meshes.sphere_vertices, 0, 0], ..self }
    }
}

const _: () = assert!(std::mem::size_of::<Object>() == 32);
const _: () = assert!(std::mem::size_of::<Frame>() == 560);
const _: () = assert!(std::mem::offset_of!(Frame, counts) == 288);
const _: () = assert!(std::mem::offset_of!(Frame, lods) == 368);

/// Which world to build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SceneKind {
    #[default]
    City,
    Field,
    /// Plain cubes (12 triangles each) on a grid facing a fixed camera, every one in view: the
    /// per-draw cost of the front end with almost no vertex or pixel work (issue 14's reference
    /// workload).
    Cubes,
}

impl SceneKind {
    pub fn name(self) -> &'static str {
        match self {
            SceneKind::City => "city",
            SceneKind::Field => "field",
            SceneKind::Cubes => "cubes",
        }
    }
    pub fn from_name(s: &str) -> Option<SceneKind> {
        [SceneKind::City, SceneKind::Field, SceneKind::Cubes].into_iter().find(|k| k.name() == s)
    }
}

/// Where the camera is and what it sees.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Camera {
    pub eye: [f32; 3],
    pub target: [f32; 3],
    pub fov_y_degrees: f32,
    pub near: f32,
    pub far: f32,
    /// Up to this distance LOD 0, up to the second LOD 1, beyond LOD 2.
    pub lod_distances: [f32; 2],
}

impl Default for Camera {
    /// The field's camera.
    fn default() -> Self {
        Camera {
            eye: [0.0, 12.0, 70.0],
            target: [0.0, 0.0, 0.0],
            fov_y_degrees: 60.0,
            near: 0.5,
            far: 160.0,
            lod_distances: [30.0, 70.0],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_frame() -> Frame {
        frame(&Camera::default(), 256, 256).with_meshes(&meshes())
    }

    #[test]
    fn the_field_sees_some_but_not_all_objects_at_every_lod() {
        let f = field_frame();
        let objs = objects(SceneKind::Field, 10_000, 1);
        let lods: Vec<_> = objs.iter().filter_map(|o| cull(&f, o)).collect();
        assert!(lods.len() > 500 && lods.len() < 9000, "{}", lods.len());
        for l in 0..3 {
            assert!(lods.contains(&l), "no object at LOD {l}");
        }
    }

    #[test]
    fn a_point_in_front_of_the_camera_is_inside_and_one_behind_is_not() {
        let f = field_frame();
        let at = |c: [f32; 3]| Object { center_radius: [c[0], c[1], c[2], 0.1], info: [0; 4] };
        assert_eq!(cull(&f, &at([0.0, 0.0, 20.0])), Some(1));
        assert_eq!(cull(&f, &at([0.0, 0.0, 0.0])), Some(2), "71 units away");
        assert_eq!(cull(&f, &at([0.0, 5.0, 50.0])), Some(0));
        assert_eq!(cull(&f, &at([0.0, 12.0, 80.0])), None);
        assert_eq!(cull(&f, &at([0.0, 0.0, -200.0])), None, "beyond the far plane");
    }

    /// `--object-id vertex`: every vertex a scene's objects draw, raised by the last object
    /// that fits, decodes to that object and that vertex as scene.vert takes them apart, the
    /// scene's objects use only its mesh kinds, and the sizes the book names fit.
    #[test]
    fn vertex_ids_take_apart_into_the_object_and_the_vertex_for_every_scene() {
        for scene in [SceneKind::City, SceneKind::Field, SceneKind::Cubes] {
            let m = meshes_for(scene);
            let ids = m.vertex_ids;
            let kinds = mesh_kinds(scene);
            for o in objects(scene, 3000, 1) {
                assert!(kinds.contains(&o.info[1]), "{scene:?}: kind {}", o.info[1]);
            }
            let last = ids.max_objects() as u32 - 1;
            for &kind in kinds {
                for l in &m.lods[kind as usize * 3..kind as usize * 3 + 3] {
                    let end = (l.first_index + l.index_count) as usize;
                    for &i in &m.indices[l.first_index as usize..end] {
                        for object in [0, 1, 12_345, last] {
                            let vertex_offset = l.vertex_offset + (object << ids.shift) as i32;
                            let index = i as i32 + vertex_offset; // gl_VertexIndex: must not wrap
                            assert!(index >= 0, "{scene:?}: object {object}");
                            let from_base = index as u32 - ids.base;
                            assert_eq!(from_base >> ids.shift, object, "{scene:?}");
                            let vertex = ids.base + (from_base & ((1 << ids.shift) - 1));
                            assert_eq!(vertex as i32, i as i32 + l.vertex_offset, "{scene:?}");
                        }
                    }
                }
            }
        }
        assert_eq!(meshes_for(SceneKind::City).vertex_ids.max_objects(), 131_072);
        assert!(meshes_for(SceneKind::Field).vertex_ids.max_objects() >= 2_000_000);
        assert!(meshes_for(SceneKind::Cubes).vertex_ids.max_objects() >= 60_000_000);
    }

    #[test]
    fn meshes_have_three_shrinking_lods_within_bounds_and_the_unit_sphere() {
        let m = meshes();
        for kind in 0..MESH_KINDS {
            let l = &m.lods[kind * 3..kind * 3 + 3];
            assert!(l[0].index_count > l[1].index_count && l[1].index_count > l[2].index_count, "kind {kind}");
        }
        for l in m.lods {
            let end = (l.first_index + l.index_count) as usize;
            for &i in &m.indices[l.first_index as usize..end] {
                let v = (i as i32 + l.vertex_offset) as usize;
                assert!(v < m.normal_offset as usize);
            }
        }
        // Every mesh but the cube fits the unit sphere (the cube's bound is its corner).
        for (kind, lods) in m.lods.chunks(3).enumerate() {
            let limit = if kind as u32 == KIND_BOX { 3.0f32.sqrt() } else { 1.0 };
            for l in lods {
                let end = (l.first_index + l.index_count) as usize;
                for &i in &m.indices[l.first_index as usize..end] {
                    let p = m.vertices[(i as i32 + l.vertex_offset) as usize];
                    let r = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                    assert!(r <= limit * 1.0001, "kind {kind}: a vertex at radius {r}");
                }
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_scene() {
        for scene in [SceneKind::City, SceneKind::Field] {
            assert_eq!(objects(scene, 50, 7), objects(scene, 50, 7));
            assert_ne!(objects(scene, 50, 7), objects(scene, 50, 8));
            assert_eq!(objects(scene, 1234, 7).len(), 1234);
        }
    }

    /// Two objects whose boxes of space overlap could tie in depth somewhere.
    #[test]
    fn no_two_city_objects_share_space() {
        let objs = objects(SceneKind::City, 4000, 3);
        let extent = |o: &Object| -> [[f32; 2]; 3] {
            let h = [o.info[2] & 0xffff, o.info[2] >> 16, o.info[3] & 0xffff]
                .map(|b| half::f16::from_bits(b as u16).to_f32());
            let c = o.center_radius;
            let h = if o.info[1] == KIND_BOX { h } else { [c[3]; 3] };
            [0, 1, 2].map(|k| [c[k] - h[k], c[k] + h[k]])
        };
        let boxes: Vec<_> = objs.iter().map(extent).collect();
        let mut by_cell: std::collections::HashMap<(i32, i32), Vec<usize>> = Default::default();
        for (i, b) in boxes.iter().enumerate() {
            for cx in (b[0][0] / 20.0).floor() as i32..=(b[0][1] / 20.0).floor() as i32 {
                for cz in (b[2][0] / 20.0).floor() as i32..=(b[2][1] / 20.0).floor() as i32 {
                    by_cell.entry((cx, cz)).or_default().push(i);
                }
            }
        }
        for ids in by_cell.values() {
            for (k, &a) in ids.iter().enumerate() {
                for &b in &ids[k + 1..] {
                    let apart = (0..3).any(|d| boxes[a][d][1] <= boxes[b][d][0] || boxes[b][d][1] <= boxes[a][d][0]);
                    assert!(apart, "objects {a} and {b} overlap: {:?} {:?}", boxes[a], boxes[b]);
                }
            }
        }
    }

    #[test]
    fn the_city_walk_sees_much_of_the_city_in_the_frustum_and_cuts_where_asked() {
        let objs = objects(SceneKind::City, 10_000, 1);
        let path =
            CameraPath { scene: SceneKind::City, objects: 10_000, cut_every: 4, fixed: None, aspect: 2560.0 / 1440.0 };
        let m = meshes();
        for f in 0..8 {
            let fr = frame(&path.camera(f), 2560, 1440).with_meshes(&m);
            let seen = objs.iter().filter(|o| in_frustum(&fr, o)).count();
            assert!(seen > 500 && seen < 9000, "frame {f}: {seen} in view");
        }
        assert_eq!((0..8).filter(|&f| path.is_cut(f)).collect::<Vec<_>>(), vec![0, 4]);
        assert_ne!(path.camera(3).eye, path.camera(4).eye);
    }

    #[test]
    fn the_cubes_scene_is_every_cube_in_view_drawn_with_36_indices() {
        // Square, wide and tall images: the view holds the grid across as well as up.
        for (count, width, height) in [
            (1, 256, 256),
            (1000, 256, 256),
            (10_000, 256, 256),
            (1_000_000, 256, 256),
            (100, 64, 256),
            (10_000, 2560, 1440),
            (10_000, 100, 1000),
        ] {
            let objs = objects(SceneKind::Cubes, count, 1);
            assert_eq!(objs.len(), count as usize);
            let aspect = width as f32 / height as f32;
            let path = CameraPath { scene: SceneKind::Cubes, objects: count, cut_every: 50, fixed: None, aspect };
            let m = meshes_for(SceneKind::Cubes);
            let f = frame(&path.camera(3), width, height).with_meshes(&m);
            assert!(objs.iter().all(|o| in_frustum(&f, o)), "{count} cubes at {width}×{height}: one is out of view");
            assert!(!path.is_cut(3), "the cubes' camera never cuts");
            assert!(objs.iter().all(|o| m.lods[lod_index(&f, o)].index_count == 36));
        }
    }
}
