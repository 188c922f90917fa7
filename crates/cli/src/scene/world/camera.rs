//! The camera: its path over the frames, its view and projection, and the frame uniforms it
//! gives the shaders (the frustum planes the reference culling and the kernels test against).

use super::*;

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
    /// The image's width over its height: how much of the scene the view holds across.
    pub aspect: f32,
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
                // Straight at the grid, far enough back that all of it fits the 60° view, and
                // the narrower horizontal view of an image taller than wide.
                let half = cubes_side(self.objects) as f32;
                let narrowest = 30.0f32.to_radians().tan() * self.aspect.clamp(f32::MIN_POSITIVE, 1.0);
                let distance = 1.1 * half / narrowest + 2.0;
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

/// The frame uniforms for a camera and image size: the view, the frustum, the LOD distances
/// and the depth mapping. The meshes' part (`lods`, `mesh`) is zero until `Frame::with_meshes`,
/// and the caller fills in what belongs to the run (`counts`, `index_buffer`, `pyramid`,
/// `materials`).
pub fn frame(cam: &Camera, width: u32, height: u32) -> Frame {
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
        lods: [Lod::default(); 3 * MESH_KINDS],
    }
}
