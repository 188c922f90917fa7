//! The scene's world on the host: objects, the sphere meshes with three levels of detail, the
//! camera, and the reference culling that every mode must agree with.
//!
//! Why the culling is written twice (here and in `scene_data.glsl`) with the same operation
//! order: the GPU's answer is checked against this one exactly, object by object, so both
//! evaluate `((n.x·c.x + n.y·c.y) + n.z·c.z) + w` in f32 without fused multiply-adds (`precise`
//! on the GPU; Rust never contracts). The RNG is a fixed SplitMix64, so a seed is a scene.

/// `Object` in `scene_data.glsl` (std430, 32 bytes; `Pod`: no padding, uploaded as bytes).
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

/// `Frame` in `scene_data.glsl` (std430, 272 bytes; `Pod`: no padding, uploaded as bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Frame {
    pub view_proj: [f32; 16],
    pub planes: [[f32; 4]; 6],
    pub eye: [f32; 4],
    pub lod_distance2: [f32; 4],
    pub lods: [Lod; 3],
    pub counts: [u32; 4],
    pub index_buffer: [u32; 4],
}

const _: () = assert!(std::mem::size_of::<Object>() == 32);
const _: () = assert!(std::mem::size_of::<Frame>() == 272);
const _: () = assert!(std::mem::offset_of!(Frame, lods) == 192);
const _: () = assert!(std::mem::offset_of!(Frame, index_buffer) == 256);

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

/// SplitMix64: tiny, fixed, good enough for placing spheres.
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
}

/// `count` spheres in a 200 × 9 × 200 field around the origin.
pub fn objects(count: u32, seed: u64) -> Vec<Object> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let c = [rng.range(-100.0, 100.0), rng.range(-3.0, 6.0), rng.range(-100.0, 100.0), rng.range(0.6, 1.6)];
            Object { center_radius: c, info: [(rng.next_u64() % 8) as u32, 0, 0, 0] }
        })
        .collect()
}

/// Unit spheres with 32×16, 16×8 and 8×4 segments in one vertex and one index array.
pub struct Meshes {
    /// xyz position (= normal), w = 1.
    pub vertices: Vec<[f32; 4]>,
    pub indices: Vec<u32>,
    pub lods: [Lod; 3],
}

pub fn meshes() -> Meshes {
    let mut m = Meshes { vertices: vec![], indices: vec![], lods: [Lod::default(); 3] };
    for (lod, (slices, stacks)) in [(32u32, 16u32), (16, 8), (8, 4)].into_iter().enumerate() {
        let (first_vertex, first_index) = (m.vertices.len() as i32, m.indices.len() as u32);
        for i in 0..=stacks {
            let theta = std::f32::consts::PI * i as f32 / stacks as f32;
            for j in 0..=slices {
                let phi = 2.0 * std::f32::consts::PI * j as f32 / slices as f32;
                m.vertices.push([theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin(), 1.0]);
            }
        }
        let row = slices + 1;
        for i in 0..stacks {
            for j in 0..slices {
                let (a, b) = (i * row + j, (i + 1) * row + j);
                m.indices.extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
            }
        }
        let index_count = m.indices.len() as u32 - first_index;
        m.lods[lod] = Lod { first_index, index_count, vertex_offset: first_vertex, pad: 0 };
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

/// Column-major view-projection for Vulkan clip space (y down, depth 0..1).
pub fn view_proj(cam: &Camera, aspect: f32) -> Mat4 {
    let f = normalize(sub(cam.target, cam.eye));
    let s = normalize(cross(f, [0.0, 1.0, 0.0]));
    let u = cross(s, f);
    let view = [
        s[0],
        u[0],
        -f[0],
        0.0, //
        s[1],
        u[1],
        -f[1],
        0.0, //
        s[2],
        u[2],
        -f[2],
        0.0, //
        -dot(s, cam.eye),
        -dot(u, cam.eye),
        dot(f, cam.eye),
        1.0,
    ];
    let t = 1.0 / (cam.fov_y_degrees.to_radians() / 2.0).tan();
    let (n, fa) = (cam.near, cam.far);
    let proj = [
        t / aspect,
        0.0,
        0.0,
        0.0, //
        0.0,
        -t,
        0.0,
        0.0, //
        0.0,
        0.0,
        fa / (n - fa),
        -1.0, //
        0.0,
        0.0,
        n * fa / (n - fa),
        0.0,
    ];
    mul(&proj, &view)
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

/// The frame uniforms for a camera and image size.
pub fn frame(
    cam: &Camera,
    width: u32,
    height: u32,
    objects: u32,
    lods: [Lod; 3],
    index_address: u64,
    index_bytes: u32,
) -> Frame {
    let vp = view_proj(cam, width as f32 / height as f32);
    Frame {
        view_proj: vp,
        planes: planes(&vp),
        eye: [cam.eye[0], cam.eye[1], cam.eye[2], 1.0],
        lod_distance2: [cam.lod_distances[0].powi(2), cam.lod_distances[1].powi(2), 0.0, 0.0],
        lods,
        counts: [objects, 0, 0, 0],
        index_buffer: [index_address as u32, (index_address >> 32) as u32, index_bytes, 0],
    }
}

/// The reference culling: `Some(lod)` for a visible object, exactly as `scene_data.glsl`.
pub fn cull(frame: &Frame, o: &Object) -> Option<usize> {
    let [cx, cy, cz, r] = o.center_radius;
    for p in &frame.planes {
        let d = ((p[0] * cx + p[1] * cy) + p[2] * cz) + p[3];
        if d < -r {
            return None;
        }
    }
    let v = [cx - frame.eye[0], cy - frame.eye[1], cz - frame.eye[2]];
    let d2 = (v[0] * v[0] + v[1] * v[1]) + v[2] * v[2];
    Some(if d2 <= frame.lod_distance2[0] {
        0
    } else if d2 <= frame.lod_distance2[1] {
        1
    } else {
        2
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_scene_sees_some_but_not_all_objects_at_every_lod() {
        let m = meshes();
        let f = frame(&Camera::default(), 256, 256, 10_000, m.lods, 0, 0);
        let objs = objects(10_000, 1);
        let lods: Vec<_> = objs.iter().filter_map(|o| cull(&f, o)).collect();
        assert!(lods.len() > 500 && lods.len() < 9000, "{}", lods.len());
        for l in 0..3 {
            assert!(lods.contains(&l), "no object at LOD {l}");
        }
    }

    #[test]
    fn a_point_in_front_of_the_camera_is_inside_and_one_behind_is_not() {
        let cam = Camera::default();
        let f = frame(&cam, 256, 256, 1, meshes().lods, 0, 0);
        let at = |c: [f32; 3]| Object { center_radius: [c[0], c[1], c[2], 0.1], info: [0; 4] };
        assert_eq!(cull(&f, &at([0.0, 0.0, 20.0])), Some(1));
        assert_eq!(cull(&f, &at([0.0, 0.0, 0.0])), Some(2), "71 units away");
        assert_eq!(cull(&f, &at([0.0, 5.0, 50.0])), Some(0));
        assert_eq!(cull(&f, &at([0.0, 12.0, 80.0])), None);
        assert_eq!(cull(&f, &at([0.0, 0.0, -200.0])), None, "beyond the far plane");
    }

    #[test]
    fn meshes_have_three_shrinking_lods_within_bounds() {
        let m = meshes();
        assert!(m.lods[0].index_count > m.lods[1].index_count && m.lods[1].index_count > m.lods[2].index_count);
        for l in m.lods {
            let end = (l.first_index + l.index_count) as usize;
            assert!(m.indices[l.first_index as usize..end]
                .iter()
                .all(|&i| ((i as i32 + l.vertex_offset) as usize) < m.vertices.len()));
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_scene() {
        assert_eq!(objects(50, 7), objects(50, 7));
        assert_ne!(objects(50, 7), objects(50, 8));
    }
}
