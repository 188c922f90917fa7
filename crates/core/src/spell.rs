//! Description elements as each syntax spells them, for the messages, labels and notes of
//! diagnostics.
//!
//! Why here: a diagnostic is data, rendered at the edge for a `.ron` or a `.dgc` description
//! (`diag::Extra::dgc_spelling`). A rule that names a token kind, a stage list, a flag or a
//! setting writes its text once, as a function of the syntax (`Finding::message_by`,
//! `Finding::label_by`, `Diagnostic::help_by`, …), with the words below; the RON column is
//! what the text said before there were two syntaxes, so a `.ron` report does not change.
//! Vulkan names (`VK_…`, device property values such as `… = Compute on radv`) are no
//! description's spelling and stay as they are.

use crate::stages::{Stage, StageMask};
use crate::tokens::TokenType;
use crate::types::FieldType;

/// A RON variant name (`ShaderObjects`, `TessControl`) in the `.dgc` language's snake_case
/// (`shader_objects`, `tess_control`); as written for RON.
pub fn word(ron: &str, dgc: bool) -> String {
    if !dgc {
        return ron.to_string();
    }
    let mut out = String::with_capacity(ron.len() + 4);
    for (i, c) in ron.char_indices() {
        if c.is_ascii_uppercase() {
            let after_lower =
                ron[..i].chars().next_back().is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit());
            if i > 0 && after_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A token kind: `DrawIndexed` in RON, `draw_indexed` in `.dgc`.
pub fn token(tt: TokenType, dgc: bool) -> &'static str {
    if dgc {
        tt.dgc_name()
    } else {
        tt.ron_name()
    }
}

/// A stage: `Vertex` in RON, `vertex` in `.dgc`.
pub fn stage(s: Stage, dgc: bool) -> String {
    word(s.name(), dgc)
}

/// A set of stages: `Vertex | Fragment` in RON (as [`StageMask::describe`]), a stage list
/// `[vertex, fragment]` in `.dgc`.
pub fn stages(mask: StageMask, dgc: bool) -> String {
    if !dgc || mask.stages().next().is_none() {
        return mask.describe();
    }
    let names: Vec<String> = mask.stages().map(|s| stage(s, true)).collect();
    format!("[{}]", names.join(", "))
}

/// A field type: `Array(Vec4, 2)` in RON (as [`FieldType::describe`]), `vec4[2]` in `.dgc`
/// (`T[A][B]` is A arrays of `T[B]`, as in GLSL).
pub fn field_type(ty: &FieldType, dgc: bool) -> String {
    if !dgc {
        return ty.describe();
    }
    let mut dims = String::new();
    let mut t = ty;
    while let FieldType::Array(inner, n) = t {
        dims.push_str(&format!("[{n}]"));
        t = inner;
    }
    format!("{}{dims}", t.info().map_or("", |r| r.dgc))
}

/// A layout setting with its value, as a message quotes it: `max_sequences: 64` in RON,
/// `max_sequences 64;` in `.dgc` (a statement of its own there).
pub fn setting(name: &str, value: impl std::fmt::Display, dgc: bool) -> String {
    if dgc {
        format!("{name} {value};")
    } else {
        format!("{name}: {value}")
    }
}

/// A token parameter with its value: `max_entries: 4` in RON, `max_entries 4` in `.dgc`
/// (a part of the token's statement there).
pub fn parameter(name: &str, value: impl std::fmt::Display, dgc: bool) -> String {
    if dgc {
        format!("{name} {value}")
    } else {
        format!("{name}: {value}")
    }
}

/// A text whose capitalised words are RON variant names (`keep one ExecutionSet token`), with
/// each such word in the syntax's spelling (`keep one execution_set token`). Only for texts
/// that name no Vulkan value (`VUID-…`, `SEQUENCE_INDEX`), which would be respelled too.
pub fn text(ron: &str, dgc: bool) -> String {
    if !dgc {
        return ron.to_string();
    }
    let mut out = String::with_capacity(ron.len() + 8);
    let mut w = String::new();
    let flush = |w: &mut String, out: &mut String| {
        if w.starts_with(|c: char| c.is_ascii_uppercase()) {
            out.push_str(&word(w, true));
        } else {
            out.push_str(w);
        }
        w.clear();
    };
    for c in ron.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            w.push(c);
        } else {
            flush(&mut w, &mut out);
            out.push(c);
        }
    }
    flush(&mut w, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_snake_cased_for_dgc_and_kept_for_ron() {
        assert_eq!(word("ShaderObjects", true), "shader_objects");
        assert_eq!(word("TessControl", true), "tess_control");
        assert_eq!(word("TraceRays2", true), "trace_rays2");
        assert_eq!(word("Binned", false), "Binned");
        for t in TokenType::all() {
            assert_eq!(word(t.ron_name(), true), t.dgc_name());
        }
    }

    #[test]
    fn texts_respell_variant_names_only() {
        assert_eq!(text("no Draw, Dispatch or TraceRays2 token", true), "no draw, dispatch or trace_rays2 token");
        assert_eq!(text("keep one ExecutionSet token", false), "keep one ExecutionSet token");
    }

    #[test]
    fn settings_are_statements_in_dgc() {
        assert_eq!(setting("max_sequences", 64, false), "max_sequences: 64");
        assert_eq!(setting("max_sequences", 64, true), "max_sequences 64;");
        assert_eq!(parameter("max_entries", 4, false), "max_entries: 4");
        assert_eq!(parameter("max_entries", 4, true), "max_entries 4");
    }

    #[test]
    fn stage_sets_are_lists_in_dgc() {
        let m = StageMask::of([Stage::Vertex, Stage::Fragment]);
        assert_eq!(stages(m, false), "Vertex | Fragment");
        assert_eq!(stages(m, true), "[vertex, fragment]");
        assert_eq!(stages(StageMask(0), true), "none");
    }

    #[test]
    fn arrays_are_written_as_in_glsl_in_dgc() {
        let t = FieldType::parse("Array(Array(Vec4, 3), 2)").unwrap();
        assert_eq!(field_type(&t, false), "Array(Array(Vec4, 3), 2)");
        assert_eq!(field_type(&t, true), "vec4[2][3]");
    }
}
