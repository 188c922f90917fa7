//! The generated module for `layouts/sprites.ron`, and what an engine does with it: fill stream
//! records on the host and hand the tokens to `vkCreateIndirectCommandsLayoutEXT`.

include!(concat!(env!("OUT_DIR"), "/sprites.rs"));

pub use sprites::layouts::sprite_draw;
pub use sprites::SpriteDrawRecord;

/// One record per sprite, as the stream holds them.
pub fn records(tints: &[[f32; 4]]) -> Vec<SpriteDrawRecord> {
    tints
        .iter()
        .enumerate()
        .map(|(i, &tint)| SpriteDrawRecord {
            sprite_id: i as u32,
            tint,
            draw_vertex_count: 6,
            draw_instance_count: 1,
            ..Default::default()
        })
        .collect()
}

/// The GLSL include the build script generated, for a shader compiler.
pub const GLSL: &str = include_str!(concat!(env!("OUT_DIR"), "/sprites.glsl"));
