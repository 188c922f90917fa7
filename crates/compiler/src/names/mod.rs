//! Identifiers in generated code: the one authority on which names every output language
//! (Rust, C, C++, GLSL, HLSL, Slang) accepts, and on how a description's names are spelled there.
//!
//! Why one place: `dgcc check` refuses a name that is reserved in an output (E0706), and the
//! emitters escape reserved words with a trailing `_` as a last resort (a manifest need not come
//! from a checked description). When the two read different tables they disagreed: `main`
//! passed the check and was silently renamed `main_` by the emitters, `mat4x4` was refused by
//! the check and unknown to the emitters. Both now read the tables below, so a name the check
//! lets through is printed exactly as written (the test `checked_names_are_never_renamed`
//! holds them to it).
//!
//! The record struct of a layout is declared in Rust, C, GLSL, HLSL and Slang, and the point of
//! generating it is that they agree. So a member is spelled the same way in all of them, and a
//! name that is reserved in *any* of them gets the same trailing `_` everywhere (rather than
//! `r#type` in Rust and `type` elsewhere). Names are cased from the description's spelling:
//! `SceneDraw`, `sceneDraw` and `scene_draw` all give `scene_draw` / `SceneDraw` /
//! `SCENE_DRAW`. The check rejects names that are not identifiers; [`member`] still turns
//! anything into a valid identifier, so that emitting never fails on a strange name.

pub mod c_headers;
pub mod plan;
pub mod platform_headers;

/// Rust keywords, strict and reserved (2024 edition).
#[rustfmt::skip]
const RUST: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super",
    "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box",
    "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];
/// C keywords: C11's and C17's, C23's additions, and `asm`, a keyword in gcc's and clang's
/// default GNU modes. The `_` and capital ones are refused anyway (C reserves the prefix); they
/// are listed so that the emitters escape them too.
#[rustfmt::skip]
const C: &[&str] = &[
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern", "float",
    "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed", "sizeof",
    "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof",
    "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local",
    // C23.
    "alignas", "alignof", "bool", "constexpr", "false", "nullptr", "static_assert", "thread_local", "true", "typeof",
    "typeof_unqual", "_BitInt", "_Decimal32", "_Decimal64", "_Decimal128",
    // GNU C.
    "asm",
];
/// C++ keywords up to C++20 beyond C's, the alternative tokens (`and`, `or_eq`, …) among them:
/// C++ includes the generated C header just as often, and the C++ header is C++17.
#[rustfmt::skip]
const CPP: &[&str] = &[
    "and", "and_eq", "bitand", "bitor", "catch", "char8_t", "char16_t", "char32_t", "class", "co_await", "co_return",
    "co_yield", "compl", "concept", "const_cast", "consteval", "constinit", "decltype", "delete", "dynamic_cast",
    "explicit", "export", "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "operator", "or",
    "or_eq", "private", "protected", "public", "reinterpret_cast", "requires", "static_cast", "template", "this",
    "throw", "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
];
/// Object-like macros that replace a word wherever the C or C++ header is compiled: the ones gcc
/// and clang predefine in their default GNU modes (`-std=gnu17`, `-std=gnu++17`; `i386` on
/// 32-bit x86), and `errno`, which the C++ header's standard headers define ([`c_macro`] says
/// which is which).
const C_MACROS: &[&str] = &["linux", "unix", "i386", "errno"];

/// Why `word` is one of [`C_MACROS`].
fn c_macro(word: &str) -> Option<&'static str> {
    match word {
        "errno" => Some("it is a macro of the C library (`errno.h`), which the C++ header's includes define"),
        _ if C_MACROS.contains(&word) => {
            Some("gcc and clang predefine it as a macro in their default GNU modes (`-std=gnu17`, `-std=gnu++17`)")
        }
        _ => None,
    }
}
/// GLSL 4.60 keywords (section 3.6) other than the type names [`glsl_types`] spells out, with the
/// words it reserves for future use; the additions of Vulkan GLSL (GL_KHR_vulkan_glsl) and of
/// GL_KHR_memory_scope_semantics; the words glslang makes keywords for the extensions a shader
/// that includes the generated file may enable; and the names a generated declaration must not
/// take from the shader it is included in.
#[rustfmt::skip]
const GLSL: &[&str] = &[
    "attribute", "const", "uniform", "varying", "buffer", "shared", "coherent", "volatile", "restrict", "readonly",
    "writeonly", "atomic_uint", "layout", "centroid", "flat", "smooth", "noperspective", "patch", "sample",
    "invariant", "precise", "break", "continue", "do", "for", "while", "switch", "case", "default", "if", "else",
    "subroutine", "in", "out", "inout", "int", "void", "bool", "true", "false", "discard", "return", "lowp",
    "mediump", "highp", "precision", "struct", "float", "double", "uint",
    // Reserved for future use.
    "common", "partition", "active", "asm", "class", "union", "enum", "typedef", "template", "this", "resource",
    "goto", "inline", "noinline", "public", "static", "extern", "external", "interface", "long", "short", "half",
    "fixed", "unsigned", "superp", "input", "output", "hvec2", "hvec3", "hvec4", "fvec2", "fvec3", "fvec4",
    "sampler3DRect", "filter", "sizeof", "cast", "namespace", "using",
    // Vulkan GLSL: the sampler types (the texture and subpass-input types are `glsl_types`').
    "sampler", "samplerShadow",
    // GL_KHR_memory_scope_semantics and GL_EXT_ray_tracing's memory qualifiers.
    "devicecoherent", "queuefamilycoherent", "workgroupcoherent", "subgroupcoherent", "nonprivate",
    "shadercallcoherent",
    // Extensions' scalar types (GL_EXT_shader_explicit_arithmetic_types, GL_EXT_bfloat16,
    // GL_EXT_float8_e5m2_e4m3; the vectors and matrices are `glsl_types`').
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "float16_t",
    "float32_t", "float64_t", "bfloat16_t", "floate5m2_t", "floate4m3_t",
    // Ray tracing and ray queries (GL_NV_ray_tracing, GL_EXT_ray_tracing, GL_EXT_ray_query, shader
    // execution reordering).
    "rayPayloadNV", "rayPayloadEXT", "rayPayloadInNV", "rayPayloadInEXT", "hitAttributeNV", "hitAttributeEXT",
    "callableDataNV", "callableDataEXT", "callableDataInNV", "callableDataInEXT", "accelerationStructureNV",
    "accelerationStructureEXT", "rayQueryEXT", "terminateRayEXT", "ignoreIntersectionEXT", "hitObjectNV",
    "hitObjectAttributeNV", "hitObjectEXT", "hitObjectAttributeEXT",
    // Mesh shading, barycentrics, and the other extensions' keywords.
    "perprimitiveNV", "perprimitiveEXT", "perviewNV", "taskNV", "taskPayloadSharedEXT", "pervertexNV",
    "pervertexEXT", "nonuniformEXT", "demote", "terminateInvocation", "nontemporal", "tileImageEXT",
    "samplerExternalOES", "fcoopmatNV", "icoopmatNV", "ucoopmatNV", "coopmat", "coopvecNV", "tensorLayoutNV",
    "tensorViewNV", "tensorARM", "spirv_instruction", "spirv_execution_mode", "spirv_execution_mode_id",
    "spirv_decorate", "spirv_decorate_id", "spirv_decorate_string", "spirv_type", "spirv_storage_class",
    "spirv_by_reference", "spirv_literal",
    // The shader's entry point, and built-in names a generated declaration would hide.
    "main", "texture", "image",
];

/// The GLSL type names that come in families, spelled out: every vector and matrix (`vec3`,
/// `dmat2x3`, `f16vec4`, `u8vec2`), and every opaque type of GLSL 4.60, Vulkan GLSL and the
/// extensions glslang knows, in every dimensionality and with every prefix (`isampler2D`,
/// `sampler2DShadow`, `uimageCubeArray`, `itexture2DMS`, `usubpassInputMS`, `f16sampler1D`,
/// `i64image3D`).
fn glsl_types() -> Vec<String> {
    const VECTORS: &[&str] = &[
        "vec", "bvec", "ivec", "uvec", "dvec", "i8vec", "u8vec", "i16vec", "u16vec", "i32vec", "u32vec", "i64vec",
        "u64vec", "f16vec", "f32vec", "f64vec", "bf16vec", "fe5m2vec", "fe4m3vec",
    ];
    const MATRICES: &[&str] = &["mat", "dmat", "f16mat", "f32mat", "f64mat"];
    // Every sampler, image and texture type comes in these; a sampler also has a `Shadow` form
    // of some.
    const DIMS: &[&str] =
        &["1D", "1DArray", "2D", "2DArray", "2DRect", "2DMS", "2DMSArray", "3D", "Cube", "CubeArray", "Buffer"];
    const SHADOW_DIMS: &[&str] = &["1D", "1DArray", "2D", "2DArray", "2DRect", "Cube", "CubeArray"];
    let mut out = vec![];
    for v in VECTORS {
        out.extend((2..=4).map(|n| format!("{v}{n}")));
    }
    for m in MATRICES {
        for c in 2..=4 {
            out.push(format!("{m}{c}"));
            out.extend((2..=4).map(|r| format!("{m}{c}x{r}")));
        }
    }
    // Float, signed and unsigned results (`f16`: GL_AMD_gpu_shader_half_float_fetch).
    for prefix in ["", "i", "u", "f16"] {
        for kind in ["sampler", "image", "texture"] {
            out.extend(DIMS.iter().map(|d| format!("{prefix}{kind}{d}")));
        }
        out.extend(["subpassInput", "subpassInputMS"].map(|s| format!("{prefix}{s}")));
    }
    for prefix in ["", "f16"] {
        out.extend(SHADOW_DIMS.iter().map(|d| format!("{prefix}sampler{d}Shadow")));
    }
    // GL_EXT_shader_image_int64.
    for prefix in ["i64", "u64"] {
        out.extend(DIMS.iter().map(|d| format!("{prefix}image{d}")));
    }
    // GL_EXT_shader_tile_image.
    out.extend(["attachmentEXT", "iattachmentEXT", "uattachmentEXT"].map(String::from));
    out
}

/// HLSL keywords and reserved words (DXC's list, C++ words included), beyond the vector and
/// matrix type names that [`is_hlsl_type_name`] recognises.
#[rustfmt::skip]
const HLSL: &[&str] = &[
    "AppendStructuredBuffer", "asm", "asm_fragment", "BlendState", "bool", "break", "Buffer", "ByteAddressBuffer",
    "case", "cbuffer", "centroid", "class", "column_major", "compile", "compile_fragment", "CompileShader", "const",
    "continue", "ComputeShader", "ConsumeStructuredBuffer", "default", "DepthStencilState", "DepthStencilView",
    "discard", "do", "double", "DomainShader", "dword", "else", "export", "extern", "false", "float", "for", "fxgroup",
    "GeometryShader", "groupshared", "half", "Hullshader", "HullShader", "if", "in", "inline", "inout", "InputPatch",
    "int", "interface", "line", "lineadj", "linear", "LineStream", "matrix", "namespace", "nointerpolation",
    "noperspective", "NULL", "out", "OutputPatch", "packoffset", "pass", "pixelfragment", "PixelShader", "point",
    "PointStream", "precise", "RasterizerState", "RenderTargetView", "return", "register", "row_major", "RWBuffer",
    "RWByteAddressBuffer", "RWStructuredBuffer", "RWTexture1D", "RWTexture1DArray", "RWTexture2D",
    "RWTexture2DArray", "RWTexture3D", "sample", "sampler", "SamplerState", "SamplerComparisonState", "shared",
    "snorm", "stateblock", "stateblock_state", "static", "string", "struct", "switch", "StructuredBuffer", "tbuffer",
    "technique", "technique10", "technique11", "texture", "Texture1D", "Texture1DArray", "Texture2D",
    "Texture2DArray", "Texture2DMS", "Texture2DMSArray", "Texture3D", "TextureCube", "TextureCubeArray", "true",
    "typedef", "triangle", "triangleadj", "TriangleStream", "uint", "uniform", "unorm", "unsigned", "vector",
    "vertexfragment", "VertexShader", "void", "volatile", "while", "ConstantBuffer",
    // Reserved for future use.
    "auto", "catch", "char", "const_cast", "delete", "dynamic_cast", "enum", "explicit", "friend", "goto", "long",
    "mutable", "new", "operator", "private", "protected", "public", "reinterpret_cast", "short", "signed", "sizeof",
    "static_cast", "template", "this", "throw", "try", "typename", "union", "using", "virtual",
    // The entry point a generated declaration must not take.
    "main",
];
/// Slang keywords beyond HLSL's (the ones slangc refuses as a name, and the declaration words of
/// its module and generics syntax).
#[rustfmt::skip]
const SLANG: &[&str] = &[
    "This", "let", "var", "func", "import", "module", "implementing", "extension", "associatedtype", "typealias",
    "property", "internal", "throws", "defer",
];

/// An HLSL scalar, vector or matrix type name: `float`, `uint2`, `float4x4`, `min16float3`.
pub fn is_hlsl_type_name(word: &str) -> bool {
    #[rustfmt::skip]
    const SCALARS: &[&str] = &[
        "bool", "int", "uint", "dword", "half", "float", "double", "min16float", "min10float", "min16int", "min12int",
        "min16uint", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "float16_t", "float32_t",
        "float64_t",
    ];
    // Every scalar starts with one of these letters: most names are refused on their first.
    if !word.starts_with(['b', 'i', 'u', 'd', 'h', 'f', 'm']) {
        return false;
    }
    SCALARS.iter().any(|s| {
        let Some(rest) = word.strip_prefix(s) else { return false };
        let b = rest.as_bytes();
        let dim = |c: u8| (b'1'..=b'4').contains(&c);
        rest.is_empty() || (b.len() == 1 && dim(b[0])) || (b.len() == 3 && dim(b[0]) && b[1] == b'x' && dim(b[2]))
    })
}

/// The languages each keyword of the tables above is reserved in, as bits of `LANGS`, built
/// once: a description's names meet every table for every identifier of every output (tens
/// of thousands of lookups for a few hundred layouts), which scans of the lists made a fifth of
/// `dgcc check`'s time.
fn keywords() -> &'static foldhash::HashMap<Box<str>, u8> {
    static KEYWORDS: std::sync::OnceLock<foldhash::HashMap<Box<str>, u8>> = std::sync::OnceLock::new();
    KEYWORDS.get_or_init(|| {
        let mut map: foldhash::HashMap<Box<str>, u8> = foldhash::HashMap::default();
        let tables: [(&[&str], u8); 7] = [
            (RUST, RUST_BIT),
            (C, C_BIT),
            (CPP, C_BIT),
            (C_MACROS, C_BIT),
            (GLSL, GLSL_BIT),
            (HLSL, HLSL_BIT | SLANG_BIT),
            (SLANG, SLANG_BIT),
        ];
        for (table, bits) in tables {
            for &word in table {
                *map.entry(word.into()).or_insert(0) |= bits;
            }
        }
        for word in glsl_types() {
            *map.entry(word.into()).or_insert(0) |= GLSL_BIT;
        }
        map
    })
}

const RUST_BIT: u8 = 1;
const C_BIT: u8 = 2;
const GLSL_BIT: u8 = 4;
const HLSL_BIT: u8 = 8;
const SLANG_BIT: u8 = 16;
/// The check's names of the languages, by bit.
const LANGS: [(u8, &str); 5] =
    [(RUST_BIT, "Rust"), (C_BIT, "C/C++"), (GLSL_BIT, "GLSL"), (HLSL_BIT, "HLSL"), (SLANG_BIT, "Slang")];

/// The output languages a word is reserved in, as the check names them ("C/C++" for either).
fn reserved_in(word: &str) -> Vec<&'static str> {
    let bits = reserved_bits(word);
    LANGS.iter().filter(|(bit, _)| bits & bit != 0).map(|&(_, name)| name).collect()
}

/// The languages that reserve `word`, as bits of `LANGS` (0: none).
fn reserved_bits(word: &str) -> u8 {
    let bits = keywords().get(word).copied().unwrap_or(0);
    if is_hlsl_type_name(word) {
        bits | HLSL_BIT | SLANG_BIT
    } else {
        bits
    }
}

/// Whether the emitters escape `word` (append `_`): a reserved word of any output, or a name
/// with a prefix GLSL or C reserve (HLSL and Slang reserve `__` too). The check refuses every one of them (E0706) and more
/// (`__` inside a name, `_` and a capital), which a suffix could not fix.
pub fn is_reserved(word: &str) -> bool {
    reserved_bits(word) != 0 || word.starts_with("gl_") || word.starts_with("__")
}

/// Whether `text` is a word: an ASCII letter or `_`, then ASCII letters, digits and `_` (the
/// `.dgc` grammar's `word`, and the shape of an identifier in every output).
pub fn is_word(text: &str) -> bool {
    text.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Why `name` cannot be an identifier in generated code, with the code to report (E0705 not an
/// identifier, E0706 reserved): what `dgcc check` says about every name of a description.
pub fn identifier_problem(name: &str) -> Option<(&'static str, String)> {
    if !is_word(name) || name == "_" {
        let why = if name.is_empty() {
            "it is empty".to_string()
        } else if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_')) {
            format!("`{c}` cannot appear in an identifier")
        } else if name == "_" {
            "`_` alone is not an identifier in Rust".to_string()
        } else {
            "identifiers cannot start with a digit".to_string()
        };
        return Some(("E0705", why));
    }
    if let Some(why) = c_macro(name) {
        return Some(("E0706", why.to_string()));
    }
    let langs = reserved_in(name);
    if !langs.is_empty() {
        let list = match langs.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => langs.join(""),
        };
        return Some(("E0706", format!("it is a reserved word in {list}")));
    }
    if name.starts_with("gl_") {
        return Some(("E0706", "GLSL reserves names starting with `gl_`".into()));
    }
    if name.contains("__") {
        return Some(("E0706", "GLSL and C reserve names containing `__`".into()));
    }
    if name.starts_with('_') && name[1..].starts_with(|c: char| c.is_ascii_uppercase()) {
        return Some(("E0706", "C reserves names starting with `_` and a capital letter".into()));
    }
    None
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

/// `object` + `v` → `object_v`: a push-constant field's member name when its own name is taken.
/// The joint never doubles an underscore (`object` + `_pad0` → `object_pad0`), since GLSL and C
/// reserve names containing `__`.
pub fn qualify(token: &str, field: &str) -> String {
    let (t, f) = (token.trim_end_matches('_'), field.trim_start_matches('_'));
    match (t.is_empty(), f.is_empty()) {
        (true, _) => field.to_string(),
        (_, true) => format!("{t}_"),
        _ => format!("{t}_{f}"),
    }
}

/// Record member names made unique: `names[i]` is member `i`'s wanted name and `qualifier[i]`,
/// for a push-constant field, its token's name. A field whose name another member has too is
/// qualified with its token's name ([`qualify`]); any name still taken (the layout engine's
/// `<token>_<member>` joins can meet: a token `a` with `a_index_count` and a token named
/// `a_index_count`) gets the first free `_2`, `_3`, …, in record order. A layout is never refused
/// for the names dgcc chose for it.
pub fn unique_members(names: &[String], qualifier: &[Option<String>]) -> Vec<String> {
    use std::collections::{HashMap, HashSet};
    let mut count: HashMap<String, usize> = HashMap::new();
    for n in names {
        *count.entry(member(n)).or_default() += 1;
    }
    let mut wanted: Vec<String> = names
        .iter()
        .zip(qualifier)
        .map(|(n, q)| match q {
            Some(t) if count.get(&member(n)).copied().unwrap_or(0) > 1 => qualify(t, n),
            _ => n.clone(),
        })
        .collect();
    // Names that stay as written first, so that a qualified or numbered name never takes one.
    let mut used: HashSet<String> = HashSet::new();
    let mut taken_by: Vec<bool> = vec![false; wanted.len()];
    for (i, w) in wanted.iter().enumerate() {
        if qualifier[i].is_none() && used.insert(member(w)) {
            taken_by[i] = true;
        }
    }
    for (i, w) in wanted.iter_mut().enumerate() {
        if taken_by[i] {
            continue;
        }
        if used.insert(member(w)) {
            continue;
        }
        let mut n = 2usize;
        while used.contains(&member(&format!("{w}_{n}"))) {
            n += 1;
        }
        *w = format!("{w}_{n}");
        used.insert(member(w));
    }
    wanted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_follow_all_three_languages() {
        for ok in ["object_id", "SceneDraw", "cull2", "_private"] {
            assert_eq!(identifier_problem(ok), None, "{ok}");
        }
        for (bad, code) in [
            ("2d", "E0705"),
            ("a-b", "E0705"),
            ("", "E0705"),
            ("_", "E0705"),
            ("type", "E0706"),
            ("uniform", "E0706"),
            ("class", "E0706"),
            ("gl_Position", "E0706"),
            ("a__b", "E0706"),
            ("_Count", "E0706"),
        ] {
            assert_eq!(identifier_problem(bad).map(|p| p.0), Some(code), "{bad}");
        }
    }

    #[test]
    fn hlsl_and_slang_words_are_reserved() {
        for w in ["cbuffer", "float4x4", "uint2", "min16float3", "This", "groupshared", "matrix", "import"] {
            assert_eq!(identifier_problem(w).map(|p| p.0), Some("E0706"), "{w}");
            assert_eq!(member(w), format!("{w}_"), "{w}");
        }
        for ok in ["float5", "uint2x5", "floaty", "vector3", "points"] {
            assert!(!is_hlsl_type_name(ok), "{ok}");
            assert_eq!(identifier_problem(ok), None, "{ok}");
        }
        assert_eq!(
            identifier_problem("cbuffer").map(|p| p.1),
            Some("it is a reserved word in HLSL and Slang".to_string())
        );
    }

    #[test]
    fn push_fields_are_qualified_only_on_collision() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let q = |v: &[Option<&str>]| v.iter().map(|x| x.map(str::to_string)).collect::<Vec<_>>();
        // Each token's field is called `v`: both are qualified.
        assert_eq!(unique_members(&s(&["v", "v"]), &q(&[Some("a"), Some("b")])), s(&["a_v", "b_v"]));
        // A field named like another token's member gives way; the member keeps its name.
        assert_eq!(
            unique_members(&s(&["draw_index_count", "draw_index_count"]), &q(&[Some("object"), None])),
            s(&["object_draw_index_count", "draw_index_count"])
        );
        // `_pad0` as a field: qualified without a double underscore.
        assert_eq!(unique_members(&s(&["_pad0", "_pad0"]), &q(&[Some("object"), None])), s(&["object_pad0", "_pad0"]));
        // Joins that meet again are numbered.
        assert_eq!(
            unique_members(&s(&["b_c", "b_c", "a_b_c", "a_b_c"]), &q(&[Some("a"), Some("a_b"), None, None])),
            s(&["a_b_c_2", "a_b_b_c", "a_b_c", "a_b_c_3"])
        );
        assert_eq!(unique_members(&s(&["x", "y"]), &q(&[Some("a"), None])), s(&["x", "y"]));
    }

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

    #[test]
    fn main_and_mat4x4_are_refused_and_escaped_alike() {
        for w in ["main", "mat4x4", "decltype", "texture"] {
            assert_eq!(identifier_problem(w).map(|p| p.0), Some("E0706"), "{w}");
            assert_eq!(member(w), format!("{w}_"), "{w}");
        }
        assert_eq!(
            identifier_problem("main").map(|p| p.1),
            Some("it is a reserved word in GLSL, HLSL and Slang".to_string())
        );
    }

    /// The words an audit found accepted although the output they were printed in did not compile
    /// (glslangValidator: "unexpected ISAMPLER2D, expecting IDENTIFIER"; `g++ -std=c++17`:
    /// "expected unqualified-id"; gcc's GNU modes: `linux` replaced by `1`), each refused with
    /// the language it breaks, and escaped by the emitters alike.
    #[test]
    fn words_reserved_in_glsl_and_cpp_are_refused() {
        #[rustfmt::skip]
        const GLSL_WORDS: &[&str] = &[
            "isampler2D", "usampler2D", "sampler2DShadow", "samplerBuffer", "image1D", "iimage2D", "sampler2DMS",
            "samplerCubeArray", "dmat2x3", "texture3D", "textureCube", "subpassInput", "samplerShadow",
            "devicecoherent", "nonprivate", "shadercallcoherent", "usampler2DMSArray", "sampler1DArrayShadow",
            "uimageCubeArray", "itexture2DRect", "utextureBuffer", "isubpassInputMS", "usubpassInput",
            "queuefamilycoherent", "workgroupcoherent", "subgroupcoherent", "mat3x2", "dmat4", "dvec3", "f16vec4",
            "u8vec2", "i64vec3", "f64mat4x3", "int8_t", "float16_t", "accelerationStructureEXT", "rayQueryEXT",
            "hitObjectNV", "i64image2D", "f16sampler2DShadow", "sampler3DRect", "superp", "taskPayloadSharedEXT",
        ];
        for &w in GLSL_WORDS {
            assert_eq!(identifier_problem(w).map(|p| p.0), Some("E0706"), "{w}");
            assert!(reserved_in(w).contains(&"GLSL"), "{w}: {:?}", reserved_in(w));
            assert_eq!(member(w), format!("{w}_"), "{w}");
        }
        #[rustfmt::skip]
        const CPP_WORDS: &[&str] = &[
            "and", "or", "not", "xor", "bitand", "bitor", "compl", "and_eq", "or_eq", "xor_eq", "not_eq", "typeid",
            "wchar_t", "char8_t", "char16_t", "char32_t", "co_await", "co_yield", "co_return", "consteval", "constinit",
            "concept", "requires", "asm", "_Atomic", "_BitInt",
        ];
        for &w in CPP_WORDS {
            assert_eq!(identifier_problem(w).map(|p| p.0), Some("E0706"), "{w}");
            assert!(reserved_in(w).contains(&"C/C++"), "{w}: {:?}", reserved_in(w));
            assert_eq!(member(w), format!("{w}_"), "{w}");
        }
        assert_eq!(identifier_problem("and").map(|p| p.1), Some("it is a reserved word in C/C++".to_string()));
        assert_eq!(identifier_problem("isampler2D").map(|p| p.1), Some("it is a reserved word in GLSL".to_string()));
        for w in ["linux", "unix", "i386", "errno"] {
            let (code, why) = identifier_problem(w).unwrap_or_else(|| panic!("{w} passes"));
            assert_eq!(code, "E0706", "{w}");
            assert!(why.contains("macro"), "{w}: {why}");
            assert_eq!(member(w), format!("{w}_"), "{w}");
        }
        // Names close to them stay names.
        for ok in ["sampler2Dx", "images", "isampler", "texture3", "android", "linux2", "order", "note", "notes"] {
            assert_eq!(identifier_problem(ok), None, "{ok}");
        }
    }

    /// A name the C or C++ header prints after its includes may not be a macro of them
    /// (`c_headers::macro_of`, which the naming plan asks about every C identifier): the
    /// standard's reserved patterns, the C library's macros by header, the Vulkan headers' and
    /// those glibc brings into the C++ header. Names close to them, and mixed-case names that
    /// only share a family's prefix, stay names.
    #[test]
    fn macros_of_the_c_and_cpp_headers_includes_are_refused_in_c() {
        #[rustfmt::skip]
        const MACROS: &[&str] = &[
            // stddef.h, stdint.h, assert.h: the C header's own includes.
            "NULL", "offsetof", "unreachable", "assert", "INT32_MAX", "UINT8_C", "INT_FAST16_MIN", "UINTMAX_WIDTH",
            "SIZE_MAX", "PTRDIFF_MIN", "WCHAR_MAX", "SIG_ATOMIC_MIN",
            // The C library, which the C++ header's standard headers may include.
            "EOF", "BUFSIZ", "FILENAME_MAX", "L_tmpnam", "stdin", "stdout", "stderr", "SEEK_SET", "EXIT_SUCCESS",
            "RAND_MAX", "MB_CUR_MAX", "CLOCKS_PER_SEC", "WEOF", "CHAR_BIT", "LONG_MAX", "ULLONG_MAX", "SHRT_WIDTH",
            "FLT_EPSILON", "DBL_MAX", "LDBL_MANT_DIG", "DECIMAL_DIG", "HUGE_VAL", "INFINITY", "NAN", "FP_NAN",
            "math_errhandling", "MATH_ERRNO", "FP_INT_UPWARD", "DEC32_MAX", "ONCE_FLAG_INIT", "setjmp", "va_start",
            // C's reserved patterns.
            "EDOM", "ERANGE", "EILSEQ", "E2BIG", "EWOULDBLOCK", "ENOTSUP", "LC_ALL", "LC_MESSAGES", "SIGINT",
            "SIG_DFL", "TIME_UTC", "FE_ALL_EXCEPT", "ATOMIC_FLAG_INIT", "PRId32", "PRIX64", "SCNxFAST8",
            // Vulkan.
            "VK_TRUE", "VKAPI_CALL", "VULKAN_HPP_NAMESPACE", "STD_VIDEO_H264_MAX_NUM_LIST_REF",
            "vulkan_video_codec_h264std", "GCC_VERSION",
            // POSIX and glibc, through libstdc++ and vulkan.hpp.
            "RTLD_NOW", "LM_ID_BASE", "DL_CALL_FCT", "CLOCK_REALTIME", "TIMER_ABSTIME", "PTHREAD_MUTEX_INITIALIZER",
            "SCHED_FIFO", "CLONE_VM", "CPU_SETSIZE", "CSIGNAL", "FD_SETSIZE", "NFDBITS", "LITTLE_ENDIAN",
            "BYTE_ORDER", "htobe32", "WNOHANG", "WEXITSTATUS", "alloca", "ADJ_OFFSET", "STA_PLL", "P_tmpdir",
            "sched_priority", "pthread_cleanup_push", "strdupa", "assert_perror",
        ];
        for &w in MACROS {
            assert!(c_headers::macro_of(w).is_some(), "{w} passes");
        }
        #[rustfmt::skip]
        const NAMES: &[&str] = &[
            "object_id", "Eof", "eof", "E", "EntityId", "E2eTestsDrawRecord", "EX_vertex_count", "Ex2", "LC_all",
            "Signal", "SIG", "TIME", "TIME_of_day", "PRIORITY", "PRI", "SCN_x", "INTERVAL", "INT", "CLOCK", "SEEK",
            "CPU", "CPU_time", "NULLABLE", "null", "assert_x", "stdout2", "FLT", "LONG_", "CHAR_BITS", "vk_true",
            "nan", "infinity", "SceneDrawRecord", "scene_draw_tokens",
        ];
        for &ok in NAMES {
            assert_eq!(c_headers::macro_of(ok), None, "{ok}");
        }
        let why = |w: &str| c_headers::macro_of(w).unwrap_or_default();
        assert_eq!(why("EOF"), "is a macro of `stdio.h`, which the C++ header's standard headers may include");
        assert_eq!(why("NULL"), "is a macro of `stddef.h`, which the C header includes");
        assert_eq!(
            why("EDOM"),
            "starts with `E` and a capital letter or digit, which C reserves for the macros of `errno.h`"
        );
        assert_eq!(
            why("PRId32"),
            "starts with `PRI` and a small letter or `X`, which C reserves for the macros of `inttypes.h`"
        );
        assert_eq!(why("GCC_VERSION"), "is a macro of `vulkan.hpp`, which the C++ header includes");
        assert_eq!(
            why("CLONE_VM"),
            "starts with `CLONE_`, like the macros of glibc's `sched.h`, which libstdc++ includes in the C++ header"
        );
        assert_eq!(why("RTLD_NOW"), "starts with `RTLD_`, like the macros of `dlfcn.h`, which vulkan.hpp includes");
        assert_eq!(why("UINT32_MAX"), "is a macro name that C reserves for `stdint.h`");
        // The written names are not refused for it: a layout named `EOF` is `SceneEofRecord` in C.
        for w in ["EOF", "EDOM", "stdout", "assert", "CLOCK_REALTIME"] {
            assert_eq!(identifier_problem(w), None, "{w}");
            assert_eq!(member(w), w, "{w}");
        }
    }

    /// Every GLSL opaque type is spelled out, in every dimensionality and with every prefix.
    #[test]
    fn glsl_type_families_are_complete() {
        let types = glsl_types();
        // 19 vectors of 3 sizes; 5 matrix kinds of 12 shapes; (3 kinds × 11 dimensionalities + 2
        // subpass inputs) × 4 prefixes; 7 shadow samplers × 2; 2 × 11 64-bit images; 3 attachments.
        assert_eq!(types.len(), 19 * 3 + 5 * 12 + (3 * 11 + 2) * 4 + 7 * 2 + 2 * 11 + 3);
        let set: std::collections::HashSet<&str> = types.iter().map(String::as_str).collect();
        assert_eq!(set.len(), types.len(), "no type twice");
        for t in ["vec2", "bvec4", "dmat2x3", "mat4", "samplerCubeArrayShadow", "iimage2DMSArray", "utexture1DArray"] {
            assert!(set.contains(t), "{t}");
        }
        for not in ["isampler2DShadow", "itexture2DShadow", "vec5", "mat5", "mat2x5", "image2DShadow"] {
            assert!(!set.contains(not), "{not}");
        }
    }

    /// The check and the emitters agree: every word the emitters escape is refused, and a name
    /// the check lets through is spelled as written.
    #[test]
    fn checked_names_are_never_renamed() {
        for w in keywords().keys() {
            assert!(is_reserved(w), "{w}");
            assert_eq!(identifier_problem(w).map(|p| p.0), Some("E0706"), "{w}");
        }
        let samples = ["object_id", "SceneDraw", "cull2", "_private", "main2", "mat4x4a", "Main", "draw_", "x"];
        for n in samples.iter().copied().chain(keywords().keys().map(|w| &w[1..])) {
            if identifier_problem(n).is_none() {
                assert_eq!(member(n), n, "`{n}` passes the check, so the emitters must keep it");
            }
        }
        for n in ["gl_Position", "__x"] {
            assert!(is_reserved(n) && identifier_problem(n).is_some(), "{n}");
        }
    }
}
