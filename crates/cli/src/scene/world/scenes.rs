//! The objects of each scene: where the city's buildings and props, the field's spheres and the
//! cubes' grid stand, from a seed (a fixed SplitMix64, so a seed is a scene).

use super::*;

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

/// The mesh kinds a scene's objects are drawn with.
pub fn mesh_kinds(scene: SceneKind) -> &'static [u32] {
    match scene {
        SceneKind::City => &[KIND_SPHERE, KIND_BOX, KIND_TREE, KIND_ROCK],
        SceneKind::Field => &[KIND_SPHERE],
        SceneKind::Cubes => &[KIND_BOX],
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
