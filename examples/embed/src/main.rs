//! Print what the embedded layout holds; `tests/emit_embed.rs` in dgcc runs this and compares.

use dgcc_embed_example::{records, sprite_draw, SpriteDrawRecord};

fn main() {
    let tokens = sprite_draw::tokens();
    let info = sprite_draw::create_info(dgcc::ash::vk::PipelineLayout::null(), &tokens);
    println!("stride {} tokens {}", info.indirect_stride, info.token_count);
    for t in &tokens {
        println!("token {} at {}", t.ty.as_raw(), t.offset);
    }
    let stream = records(&[[1.0, 0.5, 0.25, 1.0], [0.0, 0.0, 0.0, 1.0]]);
    let bytes = SpriteDrawRecord::slice_as_bytes(&stream);
    println!("stream {} bytes", bytes.len());
    let at = sprite_draw::DRAW_OFFSET as usize + sprite_draw::STRIDE as usize;
    println!("second vertex_count {}", u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]));
    println!("glsl {}", dgcc_embed_example::GLSL.contains("struct SpriteDrawRecord"));
}
