//! Bytes the culling passes move per frame, counted from what their shaders read and write.
//!
//! Why count instead of asking a profiler: the bench must run anywhere, and an effective
//! bandwidth (bytes ÷ GPU time) is only honest if the bytes are the shaders' own. The counts
//! below follow `cull.comp`, `compact.comp` and `cull_compact.comp` line by line:
//!
//! - an `Object` is 32 bytes and is read whole (its two vec4s fill one 32-byte sector);
//! - a visible object's record is written field by field by the generated writers: the
//!   layout's token bytes (`record_bytes`, 44 for the scene), not the padding up to the stride;
//! - the two-kernel ordered compaction (where the one kernel's shared memory does not fit)
//!   copies whole records (`stride` bytes read and written), reads the visibility flags twice
//!   (once per phase), and in phase 1 each workgroup's first invocation reads the sums of all
//!   workgroups before it — `4·g·(g−1)/2` bytes, which grows with the square of the object
//!   count and is why that path is not the fast one;
//! - the one kernel reads each object once, assembles visible records in shared memory and
//!   copies them out whole, padding included (`stride` bytes per visible object). Unordered,
//!   its count takes one atomic per workgroup (`local_size × objects per invocation` objects;
//!   the subgroups add their counts in shared memory first), 4 bytes read and 4 written — at
//!   most, since a workgroup with nothing visible skips it — and the kernel stores the subgroup
//!   size once. In order, each workgroup instead takes its tile from a counter (4 bytes read
//!   and 4 written), publishes its tile's state twice (8 bytes written; the first tile's once,
//!   counted as twice) and reads at least the state of the tile before it (4 bytes; the
//!   look-back reads more when that one is not yet inclusive, which no count can know), and
//!   the last one stores the total. (The counts are cleared at the end of the previous frame,
//!   outside the timed pass.)
//!
//! The passes after culling follow their shaders the same way:
//!
//! - the depth pyramid (`depth_pyramid.comp`) reads every pixel of the 32-bit depth buffer once
//!   (reads past an edge repeat a pixel of the same tile, from cache) and writes every texel of
//!   every level once (4-byte floats); the last workgroup builds levels 6 and up from the level
//!   below each, reading each texel of levels 5 and up once more. Where it reads a copy of the
//!   depth buffer (`DepthRead::Copied`, inside the pyramid's timed span), the copy's read of the
//!   depth buffer and its write of the copy count too;
//! - the binning pass (`bin_materials.comp`) reads each kept record's material word in both
//!   phases (each counts the workgroup's records), and moves each record whole in its scatter
//!   phase (`stride` bytes read and written); its per-material counters (a few hundred bytes)
//!   are left out.
//!
//! The frame uniforms (560 bytes, the same for every invocation) are left out: they are read
//! from cache, not memory, and would be noise next to megabytes.

use crate::scene::{Compaction, DepthRead};
use serde::Serialize;

/// What the passes of one frame read and write, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Traffic {
    pub read: u64,
    pub written: u64,
}

impl Traffic {
    pub fn total(self) -> u64 {
        self.read + self.written
    }

    /// Gigabytes (10⁹ bytes) per second for the passes taking `ms` milliseconds.
    pub fn gbps(self, ms: f64) -> Option<f64> {
        (ms > 0.0).then(|| self.total() as f64 / (ms * 1e-3) / 1e9)
    }
}

/// The kernels' shape: workgroup size, objects per invocation of the one-pass kernel, record size.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub local_size: u64,
    pub objects_per_invocation: u64,
    /// Bytes of a record the writers fill (the tokens' sizes).
    pub record_bytes: u64,
    pub stride: u64,
}

/// The scene's culling passes for `objects` objects of which `visible` passed, in one kernel
/// (`one_pass`) or, ordered, in two.
pub fn cull_and_compact(compaction: Compaction, one_pass: bool, objects: u64, visible: u64, shape: &Shape) -> Traffic {
    const OBJECT: u64 = 32;
    const FLAG: u64 = 4;
    let Shape { local_size, objects_per_invocation, record_bytes, stride } = *shape;
    let groups = objects.div_ceil(local_size.max(1));
    let tiles = objects.div_ceil((local_size * objects_per_invocation).max(1));
    match (compaction, one_pass) {
        (Compaction::Ordered, true) => {
            Traffic { read: OBJECT * objects + (4 + 4) * tiles, written: stride * visible + (4 + 8) * tiles + 4 + 4 }
        }
        (Compaction::Ordered, false) => {
            let cull = Traffic { read: OBJECT * objects, written: FLAG * objects + record_bytes * visible };
            let sums = Traffic { read: FLAG * objects, written: 4 * groups };
            let scatter = Traffic {
                read: FLAG * objects + 4 * groups * groups.saturating_sub(1) / 2 + stride * visible,
                written: stride * visible + 8,
            };
            Traffic {
                read: cull.read + sums.read + scatter.read,
                written: cull.written + sums.written + scatter.written,
            }
        }
        (Compaction::Fused, _) => {
            Traffic { read: OBJECT * objects + 4 * tiles, written: stride * visible + 4 * tiles + 4 }
        }
    }
}

/// The depth pyramid's build over a `width × height` depth buffer whose levels are
/// `levels` (`scene::pyramid::level_sizes`), read as `read` says.
pub fn pyramid(width: u64, height: u64, levels: &[(u32, u32)], read: DepthRead) -> Traffic {
    const TEXEL: u64 = 4;
    let texels = |l: &(u32, u32)| l.0 as u64 * l.1 as u64;
    let written: u64 = levels.iter().map(texels).sum::<u64>() * TEXEL;
    // Levels 6 and up read the level below them: levels 5 to the second to last.
    let reread: u64 = levels.iter().skip(5).take(levels.len().saturating_sub(6)).map(texels).sum::<u64>() * TEXEL;
    let depth = width * height * TEXEL;
    let copy = match read {
        DepthRead::Sampled => Traffic::default(),
        DepthRead::Copied => Traffic { read: depth, written: depth },
    };
    Traffic { read: depth + reread + copy.read, written: written + copy.written }
}

/// The binning pass over `records` kept records of `stride` bytes.
pub fn binning(records: u64, stride: u64) -> Traffic {
    Traffic { read: 2 * 4 * records + stride * records, written: stride * records }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHAPE: Shape = Shape { local_size: 64, objects_per_invocation: 4, record_bytes: 44, stride: 48 };

    #[test]
    fn the_fused_pass_reads_each_object_once_and_writes_each_visible_record_once() {
        let t = cull_and_compact(Compaction::Fused, true, 1_000_000, 250_000, &SHAPE);
        let atomics = 3_907; // 1,000,000 / 256 workgroups, rounded up
        assert_eq!(t.read, 32_000_000 + 4 * atomics);
        assert_eq!(t.written, 12_000_000 + 4 * atomics + 4);
        // Wider workgroups take fewer atomics.
        let wide = cull_and_compact(Compaction::Fused, true, 1_000_000, 250_000, &Shape { local_size: 256, ..SHAPE });
        assert_eq!(wide.read, 32_000_000 + 4 * 977);
    }

    #[test]
    fn the_two_ordered_kernels_pay_for_flags_record_copies_and_the_quadratic_prefix_and_one_does_not() {
        let t = cull_and_compact(Compaction::Ordered, false, 640, 100, &SHAPE);
        // 10 groups: the prefix reads 0 + 1 + … + 9 = 45 sums.
        assert_eq!(t.read, 32 * 640 + 4 * 640 + 4 * 640 + 4 * 45 + 48 * 100);
        assert_eq!(t.written, 4 * 640 + 44 * 100 + 4 * 10 + 48 * 100 + 8);
        let fused = cull_and_compact(Compaction::Fused, true, 640, 100, &SHAPE);
        assert!(fused.total() < t.total());
        // In one kernel, order costs a tile counter and two states per tile (3 tiles here),
        // the total, and the subgroup size.
        let one = cull_and_compact(Compaction::Ordered, true, 640, 100, &SHAPE);
        assert_eq!(one.read, 32 * 640 + 8 * 3);
        assert_eq!(one.written, 48 * 100 + 12 * 3 + 8);
    }

    #[test]
    fn the_pyramid_reads_the_depth_once_and_writes_every_level_once() {
        let levels = crate::scene::pyramid::level_sizes(256, 128);
        // 128×64, 64×32, … 1×1: eight levels; levels 5 (4×2), 6 (2×1) are read again for 6 and 7.
        assert_eq!(levels.len(), 8);
        let t = pyramid(256, 128, &levels, DepthRead::Sampled);
        let all: u64 = levels.iter().map(|l| l.0 as u64 * l.1 as u64).sum();
        assert_eq!(t.written, 4 * all);
        assert_eq!(t.read, 4 * 256 * 128 + 4 * (4 * 2 + 2)); // levels 5 (4×2) and 6 (2×1)
                                                             // A buffer reduced by the tiles alone (six levels or fewer) reads nothing again.
        let small = crate::scene::pyramid::level_sizes(64, 64);
        assert_eq!(pyramid(64, 64, &small, DepthRead::Sampled).read, 4 * 64 * 64);
        // A copy first reads the depth buffer and writes it again; the kernel reads the copy.
        let copied = pyramid(64, 64, &small, DepthRead::Copied);
        let sampled = pyramid(64, 64, &small, DepthRead::Sampled);
        assert_eq!(copied.read, sampled.read + 4 * 64 * 64);
        assert_eq!(copied.written, sampled.written + 4 * 64 * 64);
    }

    #[test]
    fn binning_reads_the_material_then_moves_each_record() {
        assert_eq!(binning(1000, 48), Traffic { read: 8 * 1000 + 48 * 1000, written: 48 * 1000 });
    }

    #[test]
    fn bandwidth_is_bytes_over_time_and_needs_a_time() {
        let t = Traffic { read: 3_000_000_000, written: 1_000_000_000 };
        assert_eq!(t.gbps(1000.0), Some(4.0));
        assert_eq!(t.gbps(0.0), None);
    }
}
