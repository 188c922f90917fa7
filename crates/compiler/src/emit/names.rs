//! Identifier spelling shared by every emitter.
//!
//! Why one place: the record struct of a layout is declared in Rust, C and GLSL, and the whole
//! point of generating it is that the three agree. So a member is spelled the same way in all
//! three, and a name that is reserved in *any* of them gets the same trailing `_` everywhere
//! (rather than `r#type` in Rust and `type` elsewhere). Names are cased from the description's
//! spelling: `SceneDraw`, `sceneDraw` and `scene_draw` all give `scene_draw` / `SceneDraw` /
//! `SCENE_DRAW`. The validator rejects names that are not identifiers; these functions still
//! turn anything into a valid identifier, so that emitting never fails on a strange name.

/// Words reserved in Rust, C11, C++17 or GLSL 4.60 (keywords and the GLSL type names), which
/// cannot be member, function or variable names in all of the outputs.
const RESERVED: &[&str] = &[
    // Rust
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "gen",
    "macro",
    "override",
    "priv",
    "try",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    // C and C++
    "auto",
    "case",
    "char",
    "default",
    "double",
    "float",
    "goto",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "short",
    "signed",
    "sizeof",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "bool",
    "class",
    "delete",
    "explicit",
    "friend",
    "mutable",
    "namespace",
    "new",
    "operator",
    "private",
    "protected",
    "public",
    "template",
    "this",
    "throw",
    "typename",
    "using",
    "alignas",
    "alignof",
    "constexpr",
    "decltype",
    "noexcept",
    "nullptr",
    "static_assert",
    "thread_local",
    // GLSL
    "attribute",
    "uniform",
    "varying",
    "buffer",
    "shared",
    "coherent",
    "readonly",
    "writeonly",
    "layout",
    "centroid",
    "flat",
    "smooth",
    "noperspective",
    "patch",
    "sample",
    "invariant",
    "precise",
    "discard",
    "out",
    "inout",
    "lowp",
    "mediump",
    "highp",
    "precision",
    "subroutine",
    "uint",
    "dvec2",
    "dvec3",
    "dvec4",
    "vec2",
    "vec3",
    "vec4",
    "ivec2",
    "ivec3",
    "ivec4",
    "uvec2",
    "uvec3",
    "uvec4",
    "bvec2",
    "bvec3",
    "bvec4",
    "mat2",
    "mat3",
    "mat4",
    "dmat2",
    "dmat3",
    "dmat4",
    "sampler",
    "image",
    "texture",
    "input",
    "output",
    "filter",
    "common",
    "partition",
    "active",
    "main",
];

/// Whether `word` is reserved in one of the output languages.
pub fn is_reserved(word: &str) -> bool {
    RESERVED.contains(&word) || word.starts_with("gl_") || word.starts_with("__")
}

/// Split a name into lower-case words at `_`, non-alphanumerics and case changes.
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out: Vec<String> = vec![];
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if c.is_ascii_uppercase() && !cur.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            // `sceneDraw` → scene|draw; `HTTPServer` → http|server; `Vec3A` stays one word.
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit() && next_lower
                || prev.is_ascii_uppercase() && next_lower
            {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn not_digit_first(s: String) -> String {
    match s.chars().next() {
        None => "_".into(),
        Some(c) if c.is_ascii_digit() => format!("_{s}"),
        _ => s,
    }
}

/// `SceneDraw` → `scene_draw`.
pub fn snake(name: &str) -> String {
    not_digit_first(words(name).join("_"))
}

/// `scene_draw` → `SceneDraw`.
pub fn camel(name: &str) -> String {
    let s: String = words(name)
        .iter()
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect();
    not_digit_first(s)
}

/// `SceneDraw` → `SCENE_DRAW`.
pub fn screaming(name: &str) -> String {
    snake(name).to_ascii_uppercase()
}

/// A member or variable name as written in the description, made valid in every output
/// language: characters other than `[A-Za-z0-9_]` become `_`, a leading digit gets a `_`
/// prefix, a reserved word gets a `_` suffix. The description's own casing is kept.
pub fn member(name: &str) -> String {
    let s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    let s = not_digit_first(s);
    if is_reserved(&s) {
        format!("{s}_")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casing() {
        assert_eq!(snake("SceneDraw"), "scene_draw");
        assert_eq!(snake("sceneDraw"), "scene_draw");
        assert_eq!(snake("scene_draw"), "scene_draw");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(snake("Draw2D"), "draw2d");
        assert_eq!(camel("scene_draw"), "SceneDraw");
        assert_eq!(camel("SceneDraw"), "SceneDraw");
        assert_eq!(screaming("SceneDraw"), "SCENE_DRAW");
        assert_eq!(snake("3d-view"), "_3d_view");
        assert_eq!(snake(""), "_");
    }

    #[test]
    fn members_are_escaped_the_same_everywhere() {
        assert_eq!(member("object_id"), "object_id");
        assert_eq!(member("type"), "type_");
        assert_eq!(member("float"), "float_");
        assert_eq!(member("vec3"), "vec3_");
        assert_eq!(member("gl_Position"), "gl_Position_");
        assert_eq!(member("9lives"), "_9lives");
        assert_eq!(member("a-b"), "a_b");
    }
}
