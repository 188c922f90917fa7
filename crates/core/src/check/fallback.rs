//! What the runtime's multi-draw-indirect fallback can run, as one rule for `dgcc check` and
//! the runtime alike.
//!
//! Why here: on a target without VK_EXT_device_generated_commands no indirect-commands layout
//! is created at all, so the device-generated-commands limits do not apply there; what must
//! hold instead is that the runtime's fallback (`dgcc_runtime::fallback`) can express every
//! token of the layout. `dgcc check` proves it per layout on such a target, or names the token
//! that stops it (E0214), and the fallback refuses a layout in the same words.
//!
//! The fallback replays a record as one `vkCmdDraw(Indexed)Indirect(Count)` over the stream
//! (stride = the record stride) or a loop of `vkCmdDispatchIndirect`. It can run push
//! constants (read by the shader from the record through the generated reader), a sequence
//! index, an index buffer under an indexed draw (one buffer bound for all records), and the
//! actions DRAW, DRAW_INDEXED and DISPATCH; a dispatch whose push constants the shader reads
//! needs a sequence index to find its record. Anything else changes state per sequence.

use super::finding::{Finding, Location, TokenPart};
use crate::device::{Limit, Profile};
use crate::ir::{CompiledLayout, TokenType};

/// Why the fallback cannot run `layout`, and where: `None` when it can.
pub fn fallback_blocker(layout: &CompiledLayout) -> Option<(Location, String)> {
    let Some(action) = layout.action() else {
        return Some((Location::Layout, "it has no action token".into()));
    };
    let last = layout.tokens.len().saturating_sub(1);
    let mut sequence_index = false;
    for (i, t) in layout.tokens[..last].iter().enumerate() {
        match t.token_type {
            TokenType::PushConstant => {}
            TokenType::IndexBuffer if action.token_type == TokenType::DrawIndexed => {}
            TokenType::SequenceIndex => {
                if t.push_constant.is_none() {
                    return Some((
                        Location::token(i, TokenPart::Kind),
                        format!("token `{}` has no push-constant range", t.name),
                    ));
                }
                sequence_index = true;
            }
            other => {
                return Some((
                    Location::token(i, TokenPart::Kind),
                    format!(
                        "token `{}` ({}) changes state per sequence, which a multi-draw or dispatch loop cannot",
                        t.name,
                        other.manifest_name()
                    ),
                ))
            }
        }
    }
    match action.token_type {
        TokenType::Draw | TokenType::DrawIndexed => {}
        TokenType::Dispatch => {
            if !sequence_index && layout.tokens.iter().any(|t| t.token_type == TokenType::PushConstant) {
                return Some((
                    Location::token(last, TokenPart::Kind),
                    "its push-constant data can only be read from the stream by a shader that knows its sequence index, and the layout has no SEQUENCE_INDEX token to push it".into(),
                ));
            }
        }
        other => {
            return Some((
                Location::token(last, TokenPart::Kind),
                format!(
                    "its action token is {}; the fallback runs DRAW, DRAW_INDEXED and DISPATCH",
                    other.manifest_name()
                ),
            ))
        }
    }
    None
}

/// On a target without device-generated commands: E0214 at the token that stops the fallback,
/// or nothing when the fallback runs the layout.
pub fn fallback_findings(layout: &CompiledLayout, profile: &Profile) -> Vec<Finding> {
    let Some((at, why)) = fallback_blocker(layout) else { return vec![] };
    vec![Finding::new(
        "E0214",
        at,
        format!(
            "layout `{}` cannot run on {}: the device has no device-generated commands, and the multi-draw-indirect fallback cannot run the layout: {why}",
            layout.name, profile.name
        ),
    )
    .label(format!("the fallback stops here ({} = false on {})", Limit::DeviceGeneratedCommands.vk_name(), profile.name))
    .note("the fallback runs push constants, a sequence index, an index buffer under an indexed draw, and DRAW, DRAW_INDEXED or DISPATCH")
    .help("remove the target, or split the layout so that the state it changes per sequence is set once per draw call there")
    .target(&profile.name)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Manifest;

    fn layout(tokens: &str) -> CompiledLayout {
        let json = format!(
            r#"{{"schema_version": 1, "pipeline": "p", "push_constants": [], "layouts": [{{"name": "L",
            "stride": 64, "shader_stages": 17, "flags": 0, "max_sequences": 1, "glsl_layout": "std430",
            "record_align": 4, "tokens": [{tokens}], "record": []}}]}}"#
        );
        Manifest::from_json(&json).expect("the test manifest parses").layouts.remove(0)
    }

    #[test]
    fn push_constants_and_draws_run_a_vertex_buffer_stops_them() {
        let pc = r#"{"name": "o", "type": "PUSH_CONSTANT", "type_value": 1, "offset": 0, "size": 8,
            "push_constant": {"stages": 1, "offset": 0, "size": 8}}"#;
        let draw = r#"{"name": "d", "type": "DRAW", "type_value": 6, "offset": 16, "size": 16}"#;
        assert_eq!(fallback_blocker(&layout(&format!("{pc}, {draw}"))), None);
        let vb =
            r#"{"name": "vb", "type": "VERTEX_BUFFER", "type_value": 4, "offset": 8, "size": 16, "vertex_binding": 0}"#;
        let (at, why) = fallback_blocker(&layout(&format!("{vb}, {draw}"))).expect("refused");
        assert_eq!(at, Location::token(0, TokenPart::Kind));
        assert!(why.contains("`vb` (VERTEX_BUFFER)"), "{why}");
    }
}
