//! The meshes every scene draws: four kinds with three levels of detail each, built on the host
//! into one vertex and one index array.

use super::*;

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
    /// How `--object-id vertex` packs an object into a draw's vertexOffset for the scene these
    /// meshes were made for (`meshes_for`; `meshes` covers every kind).
    pub vertex_ids: VertexIds,
}

/// An object id carried in a draw's vertexOffset (`--object-id vertex`): the culling kernels
/// write the LOD's vertexOffset plus `object << shift`, so that `gl_VertexIndex` is `base +
/// (object << shift) + d`, where `base + d` is the mesh vertex and `d < 2^shift`, and
/// `scene.vert` takes the two apart with a subtraction, a shift and a mask. `base` is the lowest
/// vertex the scene's LODs use and `2^shift` the fewest vertices that cover them all from there.
///
/// Why: under an execute on NVIDIA's driver a vertex shader that reads `gl_DrawID` or
/// `gl_InstanceIndex` pays 2.2–2.6 ns per draw that multi-draw does not, and a count token's
/// draws cannot take a push constant each; `gl_VertexIndex` is read by every draw anyway
/// (book/src/measured/h100-vertex-offset.md). The price is range: `gl_VertexIndex` is a signed
/// 32-bit integer, so a scene fits `max_objects` objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct VertexIds {
    pub base: u32,
    pub shift: u32,
}

impl VertexIds {
    /// The ids of the vertices `[first, end)`.
    fn covering(first: u32, end: u32) -> VertexIds {
        VertexIds { base: first, shift: (end - first).next_power_of_two().trailing_zeros() }
    }

    /// The most objects whose every vertex index stays at or below `i32::MAX`: object `n - 1`
    /// reaches `base + (n << shift) - 1`.
    pub fn max_objects(self) -> u64 {
        ((1u64 << 31) - u64::from(self.base)) >> self.shift
    }
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
    let vertex_ids = VertexIds::covering(0, normal_offset);
    Meshes { vertices, normal_offset, sphere_vertices, indices: b.indices, lods, plain_cube, vertex_ids }
}

impl Meshes {
    /// The vertices `[first, end)` that the LODs of mesh `kinds` reach.
    fn vertex_range(&self, kinds: &[u32]) -> (u32, u32) {
        let mut range = (u32::MAX, 0);
        for &kind in kinds {
            for lod in &self.lods[kind as usize * 3..kind as usize * 3 + 3] {
                let indices = &self.indices[lod.first_index as usize..(lod.first_index + lod.index_count) as usize];
                for &i in indices {
                    let v = (i as i64 + i64::from(lod.vertex_offset)) as u32;
                    range = (range.0.min(v), range.1.max(v + 1));
                }
            }
        }
        range
    }
}

/// The meshes a scene draws: the cubes scene's boxes are the plain cube at every level.
pub fn meshes_for(scene: SceneKind) -> Meshes {
    let mut m = meshes();
    if scene == SceneKind::Cubes {
        for lod in 0..3 {
            m.lods[KIND_BOX as usize * 3 + lod] = m.plain_cube;
        }
    }
    let (first, end) = m.vertex_range(mesh_kinds(scene));
    m.vertex_ids = VertexIds::covering(first, end);
    m
}
