//! The scene's world on the host: the objects of each scene, the meshes (four kinds, three
//! levels of detail each), the camera and its path, and the reference frustum culling that
//! every mode must agree with.
//!
//! Two scenes. `City`, the default, is where occlusion matters: on a ground slab, blocks of four
//! buildings (the occluders, boxes 8 to 48 units tall, wall to wall) with trees, rocks and
//! barrels on the sidewalks, and a
//! camera walking down the streets at eye height, swaying left and right, cutting to another
//! street every `cut_every` frames; from the street most of the city is behind a building.
//! `Field` is the scene of dgcc 0.1: spheres scattered over a 200 × 200 field under a fixed
//! camera, nothing hiding anything; the bench's throughput rows and the book's bandwidth
//! analysis are measured on it.
//!
//! Why no two objects touch: the `occlusion` image must equal the `none` image pixel for pixel,
//! and the two draw objects in different orders. Where two surfaces meet, some pixel's depths
//! tie in f32 and the first drawn wins; disjoint objects never tie. So every object owns its
//! own box of space: buildings inside their quarter of a block, props inside a sidewalk cell.
//!
//! Why the culling is written twice (here and in `scene_data.glsl`) with the same operation
//! order: the GPU's answer is checked against this one exactly, object by object, so both
//! evaluate `((n.x·c.x + n.y·c.y) + n.z·c.z) + w` in f32 without fused multiply-adds (`precise`
//! on the GPU; Rust never contracts). The RNG is a fixed SplitMix64, so a seed is a scene.

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

/// `Frame` in `scene_data.glsl` (std430, 544 bytes; `Pod`: no padding, uploaded as bytes).
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
    /// Objects, firstInstance = object id, culling choice, history valid.
    pub counts: [u32; 4],
    pub index_buffer: [u32; 4],
    /// Levels, level-0 width and height, test fault.
    pub pyramid: [u32; 4],
    /// x: where the normals start in the vertex buffer (`Meshes::normal_offset`), y: how many
    /// vertices the sphere meshes have (they come first: `Meshes::sphere_vertices`).
    pub mesh: [u32; 4],
    /// x: materials, y: frame number (the wind's clock).
    pub materials: [u32; 4],
    pub lods: [Lod; 3 * MESH_KINDS],
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

/// SplitMix64: tiny, fixed, good enough for placing objects.
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32)
    }
    /// Uniform in [lo, hi) on a grid of quarters (exact in f16 for the sizes used here).
    fn quarter(&mut self, lo: f32, hi: f32) -> f32 {
        (self.range(lo, hi) * 4.0).floor() / 4.0
    }
}

/// An object of `kind` at `center` with half extents `half` (a unit mesh scaled by them); the
/// bounding radius is the half extents' length for boxes and the largest one otherwise (every
/// other mesh fits in the unit sphere). Half extents are stored as f16 and the radius computed
/// from the stored values, so the GPU scales exactly what the host bounds.
pub fn object(kind: u32, material: u32, center: [f32; 3], half: [f32; 3]) -> Object {
    let h = half.map(half::f16::from_f32);
    let hf = h.map(half::f16::to_f32);
    let radius = if kind == KIND_BOX {
        (hf[0] * hf[0] + hf[1] * hf[1] + hf[2] * hf[2]).sqrt()
    } else {
        hf[0].max(hf[1]).max(hf[2])
    };
    let pack = |a: half::f16, b: half::f16| a.to_bits() as u32 | (b.to_bits() as u32) << 16;
    Object {
        center_radius: [center[0], center[1], center[2], radius],
        info: [material, kind, pack(h[0], h[1]), pack(h[2], half::f16::ZERO)],
    }
}

/// The objects of a scene.
pub fn objects(scene: SceneKind, count: u32, seed: u64) -> Vec<Object> {
    match scene {
        SceneKind::City => city(count, seed),
        SceneKind::Field => field(count, seed),
        SceneKind::Cubes => cubes(count),
    }
}

/// Cubes per side of the cubes scene's square grid.
pub fn cubes_side(count: u32) -> u32 {
    (count as f64).sqrt().ceil().max(1.0) as u32
}

/// `count` cubes of half extent 0.8 on a square grid of pitch 2 in the plane z = 0, row by row:
/// each in its own cell, so no two overlap and the pictures compare exactly.
fn cubes(count: u32) -> Vec<Object> {
    let side = cubes_side(count);
    let origin = -(side as f32 - 1.0);
    (0..count)
        .map(|i| {
            let (col, row) = (i % side, i / side);
            let c = [origin + 2.0 * col as f32, origin + 2.0 * row as f32, 0.0];
            object(KIND_BOX, i % 8, c, [0.8; 3])
        })
        .collect()
}

/// `count` spheres in a 200 × 9 × 200 field around the origin.
fn field(count: u32, seed: u64) -> Vec<Object> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let c = [rng.range(-100.0, 100.0), rng.range(-3.0, 6.0), rng.range(-100.0, 100.0)];
            let r = rng.range(0.6, 1.6);
            let material = (rng.next_u64() % 8) as u32;
            // A sphere is drawn at its exact radius (the vertex shader scales by it), as in dgcc
            // 0.1; the f16 half extents are unused for spheres.
            let mut o = object(KIND_SPHERE, material, c, [r; 3]);
            o.center_radius[3] = r;
            o
        })
        .collect()
}

/// A block repeats every `BLOCK` units: 40 × 40 of buildings, then a 16-unit street on its +x
/// and +z sides (4-unit sidewalks, an 8-unit road).
pub const BLOCK: f32 = 56.0;
const BUILDINGS_PER_BLOCK: u32 = 4;
const PROPS_PER_BLOCK: u32 = 36;
const OBJECTS_PER_BLOCK: u32 = BUILDINGS_PER_BLOCK + PROPS_PER_BLOCK;

/// Blocks along each side of the city for `count` objects.
pub fn city_blocks(count: u32) -> u32 {
    let blocks = count.div_ceil(OBJECTS_PER_BLOCK).max(1);
    (blocks as f64).sqrt().ceil() as u32
}

/// The sidewalk cells of a block (4 × 4 units, lower corners relative to the block's corner):
/// both sidewalks of the street on +x (not the crossing) and of the street on +z.
fn sidewalk_cells() -> Vec<[f32; 2]> {
    let mut cells = vec![];
    for z in 0..10 {
        for x in [40.0, 52.0] {
            cells.push([x, z as f32 * 4.0]);
        }
    }
    for x in 0..10 {
        for z in [40.0, 52.0] {
            cells.push([x as f32 * 4.0, z]);
        }
    }
    cells
}

fn city(count: u32, seed: u64) -> Vec<Object> {
    let mut rng = Rng::new(seed);
    let side = city_blocks(count);
    let origin = -(side as f32) * BLOCK / 2.0;
    let cells = sidewalk_cells();
    let mut out = Vec::with_capacity(count as usize);
    // The ground: a slab under the whole city whose top is a hair below every object's bottom
    // (touching surfaces could tie in depth), the first object.
    let ground = side as f32 * BLOCK / 2.0 + BLOCK;
    out.push(object(KIND_BOX, 7, [0.0, -0.51, 0.0], [ground, 0.5, ground]));
    'blocks: for bz in 0..side {
        for bx in 0..side {
            let corner = [origin + bx as f32 * BLOCK, origin + bz as f32 * BLOCK];
            for q in 0..BUILDINGS_PER_BLOCK {
                if out.len() == count as usize {
                    break 'blocks;
                }
                // Each building fills its 20 × 20 quarter but for a slit of under a tenth of a
                // unit to its neighbours (touching walls could tie in depth): a block is one wall
                // of facades along its streets, of varying height.
                let (hx, hz) = (9.95, 9.95);
                let hy = rng.quarter(4.0, 24.0);
                let c = [corner[0] + 10.0 + 20.0 * (q % 2) as f32, hy, corner[1] + 10.0 + 20.0 * (q / 2) as f32];
                let material = [0, 6, 4, 2][(rng.next_u64() % 4) as usize];
                out.push(object(KIND_BOX, material, c, [hx, hy, hz]));
            }
            // PROPS_PER_BLOCK of the 40 cells, in cell order.
            let mut order: Vec<usize> = (0..cells.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
            }
            let mut chosen = order[..PROPS_PER_BLOCK as usize].to_vec();
            chosen.sort_unstable();
            for cell in chosen {
                if out.len() == count as usize {
                    break 'blocks;
                }
                let roll = rng.next_u64() % 10;
                let (kind, material, r) = match roll {
                    0..=4 => (KIND_TREE, 1, rng.quarter(1.25, 1.9)),
                    5..=7 => (KIND_ROCK, 6, rng.quarter(0.5, 1.25)),
                    _ => (KIND_SPHERE, [0, 3, 5][(rng.next_u64() % 3) as usize], rng.quarter(0.5, 1.0)),
                };
                // The sphere stays inside its cell (and so apart from every other object).
                let slack = 2.0 - r;
                let c = [
                    corner[0] + cells[cell][0] + 2.0 + rng.range(-slack, slack),
                    r,
                    corner[1] + cells[cell][1] + 2.0 + rng.range(-slack, slack),
                ];
                out.push(object(kind, material, c, [r; 3]));
            }
        }
    }
    out
}

/// How the camera moves over the frames.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct CameraPath {
    pub scene: SceneKind,
    /// Objects in the scene (the city's size).
    pub objects: u32,
    /// A cut to another street every this many frames (0: never).
    pub cut_every: u32,
    /// A fixed camera instead of the path.
    pub fixed: Option<Camera>,
}

impl CameraPath {
    /// The camera of frame `f` (warm-up frames count).
    pub fn camera(&self, f: u32) -> Camera {
        if let Some(c) = self.fixed {
            return c;
        }
        match self.scene {
            SceneKind::Field => Camera::default(),
            SceneKind::Cubes => {
                // Straight at the grid, far enough back that all of it fits the 60° view.
                let half = cubes_side(self.objects) as f32;
                let distance = 1.1 * half / (30.0f32.to_radians().tan()) + 2.0;
                Camera {
                    eye: [0.0, 0.0, distance],
                    target: [0.0, 0.0, 0.0],
                    fov_y_degrees: 60.0,
                    near: 0.5,
                    far: distance + 10.0,
                    lod_distances: [distance * 2.0, distance * 4.0],
                }
            }
            SceneKind::City => {
                let (segment, t) = match self.cut_every {
                    0 => (0, f),
                    n => (f / n, f % n),
                };
                let side = city_blocks(self.objects);
                let extent = side as f32 * BLOCK;
                let origin = -extent / 2.0;
                // Down the middle of the road on the +x side of a column of blocks, going +z.
                let column = (side / 2 + segment * 5) % side;
                let x = origin + column as f32 * BLOCK + 48.0;
                let span = ((extent / 2.0) as u32).max(1);
                let z = origin + 28.0 + ((segment * 7919) % span) as f32 + 2.0 * t as f32;
                let yaw = 0.35 * (0.12 * t as f32).sin();
                let y = 3.0 + 1.5 * (0.05 * t as f32).sin();
                Camera {
                    eye: [x, y, z],
                    target: [x + 10.0 * yaw.sin(), y - 0.5, z + 10.0 * yaw.cos()],
                    fov_y_degrees: 60.0,
                    near: 0.5,
                    far: 500.0,
                    lod_distances: [60.0, 200.0],
                }
            }
        }
    }

    /// Whether frame `f` starts a new shot: no history to cull against.
    pub fn is_cut(&self, f: u32) -> bool {
        f == 0
            || (self.fixed.is_none()
                && self.scene == SceneKind::City
                && self.cut_every != 0
                && f.is_multiple_of(self.cut_every))
    }
}

/// Every mesh kind with three levels of detail in one vertex and one index array. `vertices`
/// holds every position (w = 1) and then, from `normal_offset` on, every normal (w = 0), both
/// of the unit mesh: a sphere's normal is its position, so the field's draws read positions
/// only, 16 bytes a vertex as in dgcc 0.1.
pub struct Meshes {
    pub vertices: Vec<[f32; 4]>,
    pub normal_offset: u32,
    /// The sphere meshes' vertices, the first in `vertices`.
    pub sphere_vertices: u32,
    pub indices: Vec<u32>,
    pub lods: [Lod; 3 * MESH_KINDS],
    /// The plain cube (6 quads, 36 indices), which the cubes scene draws at every level.
    pub plain_cube: Lod,
}

struct Builder {
    positions: Vec<[f32; 4]>,
    normals: Vec<[f32; 4]>,
    indices: Vec<u32>,
    base: u32,
}

impl Builder {
    fn vertex(&mut self, p: [f32; 3], n: [f32; 3]) -> u32 {
        self.positions.push([p[0], p[1], p[2], 1.0]);
        self.normals.push([n[0], n[1], n[2], 0.0]);
        (self.positions.len() - 1) as u32 - self.base
    }
    fn triangle(&mut self, a: u32, b: u32, c: u32) {
        self.indices.extend_from_slice(&[a, b, c]);
    }
}

/// A sphere of `slices × stacks`; `bump` scales each vertex's radius (at most 1).
fn sphere(b: &mut Builder, slices: u32, stacks: u32, bump: &dyn Fn(u32, u32) -> f32) {
    let mut ids = vec![];
    for i in 0..=stacks {
        let theta = std::f32::consts::PI * i as f32 / stacks as f32;
        for j in 0..=slices {
            let phi = 2.0 * std::f32::consts::PI * j as f32 / slices as f32;
            let n = [theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin()];
            let s = if i == 0 || i == stacks { 1.0 } else { bump(i, j % slices) };
            ids.push(b.vertex(n.map(|v| v * s), n));
        }
    }
    let row = slices + 1;
    for i in 0..stacks {
        for j in 0..slices {
            let (a, c) = (ids[(i * row + j) as usize], ids[((i + 1) * row + j) as usize]);
            let (a1, c1) = (ids[(i * row + j + 1) as usize], ids[((i + 1) * row + j + 1) as usize]);
            b.triangle(a, c, a1);
            b.triangle(a1, c, c1);
        }
    }
}

/// The cube [-1, 1]³ with each face split into `n × n` quads.
fn cube(b: &mut Builder, n: u32) {
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let (u_axis, v_axis) = ((axis + 1) % 3, (axis + 2) % 3);
            let mut normal = [0.0; 3];
            normal[axis] = sign;
            let first = b.positions.len() as u32 - b.base;
            for i in 0..=n {
                for j in 0..=n {
                    let mut p = [0.0; 3];
                    p[axis] = sign;
                    p[u_axis] = -1.0 + 2.0 * i as f32 / n as f32;
                    p[v_axis] = -1.0 + 2.0 * j as f32 / n as f32;
                    b.vertex(p, normal);
                }
            }
            for i in 0..n {
                for j in 0..n {
                    let a = first + i * (n + 1) + j;
                    let c = a + n + 1;
                    b.triangle(a, c, a + 1);
                    b.triangle(a + 1, c, c + 1);
                }
            }
        }
    }
}

/// A tree inside the unit sphere: a trunk (radius 0.1, y from -0.98 to -0.4) and two cones,
/// `segments` around and `stacks` rings up each part.
fn tree(b: &mut Builder, segments: u32, stacks: u32) {
    let ring = |b: &mut Builder, y: f32, r: f32, n: [f32; 2]| -> Vec<u32> {
        (0..=segments)
            .map(|k| {
                let a = 2.0 * std::f32::consts::PI * k as f32 / segments as f32;
                let (c, s) = (a.cos(), a.sin());
                b.vertex([r * c, y, r * s], normalize([n[0] * c, n[1], n[0] * s]))
            })
            .collect()
    };
    let band = |b: &mut Builder, lo: &[u32], hi: &[u32]| {
        for k in 0..segments as usize {
            b.triangle(lo[k], hi[k], lo[k + 1]);
            b.triangle(lo[k + 1], hi[k], hi[k + 1]);
        }
    };
    // A surface of revolution from (y0, r0) to (y1, r1) in `stacks` bands.
    let side = |b: &mut Builder, (y0, r0): (f32, f32), (y1, r1): (f32, f32), n: [f32; 2]| {
        let mut lo = ring(b, y0, r0, n);
        for i in 1..=stacks {
            let t = i as f32 / stacks as f32;
            let hi = ring(b, y0 + (y1 - y0) * t, r0 + (r1 - r0) * t, n);
            band(b, &lo, &hi);
            lo = hi;
        }
    };
    side(b, (-0.98, 0.1), (-0.4, 0.1), [1.0, 0.0]);
    // Cones: (base y, base radius, apex y); every base point is inside the unit sphere.
    for (y0, r, y1) in [(-0.5f32, 0.62f32, 0.45f32), (0.05, 0.45, 0.98)] {
        let slope = [y1 - y0, r];
        side(b, (y0, r), (y1, 0.0), slope);
        let base = ring(b, y0, r, [0.0, -1.0]);
        let center = b.vertex([0.0, y0, 0.0], [0.0, -1.0, 0.0]);
        for k in 0..segments as usize {
            b.triangle(center, base[k + 1], base[k]);
        }
    }
}

pub fn meshes() -> Meshes {
    let mut b = Builder { positions: vec![], normals: vec![], indices: vec![], base: 0 };
    let mut lods = [Lod::default(); 3 * MESH_KINDS];
    let mut sphere_vertices = 0;
    for kind in 0..MESH_KINDS as u32 {
        if kind == KIND_SPHERE + 1 {
            sphere_vertices = b.positions.len() as u32;
        }
        for lod in 0..3usize {
            b.base = b.positions.len() as u32;
            let first_index = b.indices.len() as u32;
            match kind {
                // About 2,000–7,000 triangles at LOD 0 (the city's buildings, trees and rocks),
                // roughly halving per level, as real props' LOD chains do.
                // The sphere keeps dgcc 0.1's detail: the field's numbers stay comparable.
                KIND_SPHERE => {
                    let (slices, stacks) = [(32, 16), (16, 8), (8, 4)][lod];
                    sphere(&mut b, slices, stacks, &|_, _| 1.0);
                }
                KIND_BOX => cube(&mut b, [24, 16, 8][lod]),
                KIND_TREE => {
                    let (segments, stacks) = [(48, 8), (32, 4), (16, 2)][lod];
                    tree(&mut b, segments, stacks)
                }
                _ => {
                    let (slices, stacks) = [(40, 24), (28, 16), (16, 8)][lod];
                    // Bumps from the vertex's place on the sphere only: every LOD the same rock.
                    let bump = move |i: u32, j: u32| {
                        let h = (i * 7919 + j * 104_729 + slices).wrapping_mul(2_654_435_761);
                        0.82 + 0.18 * ((h >> 8) % 1000) as f32 / 1000.0
                    };
                    sphere(&mut b, slices, stacks, &bump);
                }
            }
            lods[kind as usize * 3 + lod] = Lod {
                first_index,
                index_count: b.indices.len() as u32 - first_index,
                vertex_offset: b.base as i32,
                pad: 0,
            };
        }
    }
    b.base = b.positions.len() as u32;
    let first_index = b.indices.len() as u32;
    cube(&mut b, 1);
    let plain_cube =
        Lod { first_index, index_count: b.indices.len() as u32 - first_index, vertex_offset: b.base as i32, pad: 0 };
    let normal_offset = b.positions.len() as u32;
    let mut vertices = b.positions;
    vertices.extend(b.normals);
    Meshes { vertices, normal_offset, sphere_vertices, indices: b.indices, lods, plain_cube }
}

/// The meshes a scene draws: the cubes scene's boxes are the plain cube at every level.
pub fn meshes_for(scene: SceneKind) -> Meshes {
    let mut m = meshes();
    if scene == SceneKind::Cubes {
        for lod in 0..3 {
            m.lods[KIND_BOX as usize * 3 + lod] = m.plain_cube;
        }
    }
    m
}

type Mat4 = [f32; 16];

fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut r = [0.0; 16];
    for c in 0..4 {
        for row in 0..4 {
            r[c * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[c * 4 + k]).sum();
        }
    }
    r
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn normalize(a: [f32; 3]) -> [f32; 3] {
    let l = dot(a, a).sqrt();
    [a[0] / l, a[1] / l, a[2] / l]
}

/// Column-major view matrix: right-handed, looking down -z.
pub fn view(cam: &Camera) -> Mat4 {
    let f = normalize(sub(cam.target, cam.eye));
    let s = normalize(cross(f, [0.0, 1.0, 0.0]));
    let u = cross(s, f);
    #[rustfmt::skip]
    let m = [
        s[0], u[0], -f[0], 0.0,
        s[1], u[1], -f[1], 0.0,
        s[2], u[2], -f[2], 0.0,
        -dot(s, cam.eye), -dot(u, cam.eye), dot(f, cam.eye), 1.0,
    ];
    m
}

/// Column-major projection for Vulkan clip space (y down, depth 0..1).
pub fn projection(cam: &Camera, aspect: f32) -> Mat4 {
    let t = 1.0 / (cam.fov_y_degrees.to_radians() / 2.0).tan();
    let (n, fa) = (cam.near, cam.far);
    #[rustfmt::skip]
    let m = [
        t / aspect, 0.0, 0.0, 0.0,
        0.0, -t, 0.0, 0.0,
        0.0, 0.0, fa / (n - fa), -1.0,
        0.0, 0.0, n * fa / (n - fa), 0.0,
    ];
    m
}

/// Column-major view-projection.
pub fn view_proj(cam: &Camera, aspect: f32) -> Mat4 {
    mul(&projection(cam, aspect), &view(cam))
}

/// The six frustum planes of a clip matrix, inward, normalized (Gribb–Hartmann, depth 0..1).
pub fn planes(m: &Mat4) -> [[f32; 4]; 6] {
    let row = |r: usize| [m[r], m[4 + r], m[8 + r], m[12 + r]];
    let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
    let add = |a: [f32; 4], b: [f32; 4]| [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]];
    let neg = |a: [f32; 4]| [-a[0], -a[1], -a[2], -a[3]];
    let raw = [add(r3, r0), add(r3, neg(r0)), add(r3, r1), add(r3, neg(r1)), r2, add(r3, neg(r2))];
    raw.map(|p| {
        let l = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
        [p[0] / l, p[1] / l, p[2] / l, p[3] / l]
    })
}

/// The frame uniforms for a camera and image size; the caller fills in what belongs to the run
/// (`counts`, `index_buffer`, `pyramid`).
pub fn frame(cam: &Camera, width: u32, height: u32, lods: &[Lod; 3 * MESH_KINDS]) -> Frame {
    let aspect = width as f32 / height as f32;
    let vp = view_proj(cam, aspect);
    let t = 1.0 / (cam.fov_y_degrees.to_radians() / 2.0).tan();
    let (n, fa) = (cam.near, cam.far);
    Frame {
        view_proj: vp,
        view: view(cam),
        planes: planes(&vp),
        eye: [cam.eye[0], cam.eye[1], cam.eye[2], 1.0],
        lod_distance2: [cam.lod_distances[0].powi(2), cam.lod_distances[1].powi(2), 0.0, 0.0],
        projection: [t / aspect, t, n, 0.0],
        depth_map: [fa / (fa - n), n * fa / (fa - n), width as f32, height as f32],
        counts: [0; 4],
        index_buffer: [0; 4],
        pyramid: [0; 4],
        mesh: [0; 4],
        materials: [1, 0, 0, 0],
        lods: *lods,
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn field_frame() -> Frame {
        frame(&Camera::default(), 256, 256, &meshes().lods)
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
        let path = CameraPath { scene: SceneKind::City, objects: 10_000, cut_every: 4, fixed: None };
        let m = meshes();
        for f in 0..8 {
            let fr = frame(&path.camera(f), 2560, 1440, &m.lods);
            let seen = objs.iter().filter(|o| in_frustum(&fr, o)).count();
            assert!(seen > 500 && seen < 9000, "frame {f}: {seen} in view");
        }
        assert_eq!((0..8).filter(|&f| path.is_cut(f)).collect::<Vec<_>>(), vec![0, 4]);
        assert_ne!(path.camera(3).eye, path.camera(4).eye);
    }

    #[test]
    fn the_cubes_scene_is_every_cube_in_view_drawn_with_36_indices() {
        for count in [1, 1000, 10_000, 1_000_000] {
            let objs = objects(SceneKind::Cubes, count, 1);
            assert_eq!(objs.len(), count as usize);
            let path = CameraPath { scene: SceneKind::Cubes, objects: count, cut_every: 50, fixed: None };
            let m = meshes_for(SceneKind::Cubes);
            let f = frame(&path.camera(3), 256, 256, &m.lods);
            assert!(objs.iter().all(|o| in_frustum(&f, o)), "{count} cubes: one is out of view");
            assert!(!path.is_cut(3), "the cubes' camera never cuts");
            assert!(objs.iter().all(|o| m.lods[lod_index(&f, o)].index_count == 36));
        }
    }
}
