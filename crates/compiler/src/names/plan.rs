//! Every identifier the emitters print, listed once per output language and scope, and what is
//! wrong with them: two that are spelled the same in one scope, one that the language
//! reserves, one longer than the language's compiler reads.
//!
//! Why a list of the printed names rather than rules on the written ones: the duplicate checks
//! used to compare names as written while the emitters cased them, joined them (`A` + `b_c`
//! and `A_B` + `c` are both `A_B_C_OFFSET`) and shortened nothing, so `dgcc check` passed
//! descriptions whose C header defined one macro twice, whose Rust opened `pub mod type {` or
//! whose GLSL glslang refused. Here the spellings come from the same functions the emitters
//! call (`super::snake`, `super::member`, …), per scope: one C translation unit (macros are
//! global and also replace struct members), one GLSL shader, each Rust module and each record
//! struct. `dgcc check` (the driver) turns every [`Problem`] into a diagnostic on the names that
//! produced it, and the emitters refuse a manifest with a hard problem, so check and compile
//! agree on every name. `tests/emit.rs` (`every_macro_the_outputs_define_is_planned`) holds
//! the C, C++, GLSL, HLSL and Slang outputs of every fixture and example to this list for the
//! names that do the most harm when missed: macros, which replace a word in every scope.

use super::{camel, member, screaming, snake};
use dgcc_core::ir::{CompiledLayout, CompiledToken, Manifest, TokenType};
use foldhash::HashMap;
use foldhash::HashMapExt as _;
use std::collections::hash_map::Entry;
use std::rc::Rc;

/// The longest identifier glslang reads (its `MaxTokenLength`): longer ones are an error.
pub const GLSL_MAX_IDENTIFIER: usize = 1024;
/// The longest file name most file systems take (`NAME_MAX`), in bytes.
pub const MAX_FILE_NAME: usize = 255;

/// What produced an identifier.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// The pipeline's name.
    Pipeline,
    /// Layout `i`'s name.
    Layout(usize),
    /// Token `t` of layout `l`.
    Token(usize, usize),
    /// Record member `m` of layout `l`.
    Member(usize, usize),
    /// Kernel `k`'s name.
    Kernel(usize),
    /// Target `name` of kernel `k`, spelled in its per-target constants.
    Target(usize, String),
    /// A name every output declares itself (`DGCC_STATIC_ASSERT`, `vk`, `LAYOUTS`).
    Fixed,
}

/// The output an identifier is printed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    Rust,
    C,
    Glsl,
    Hlsl,
    Slang,
    /// A file name of `dgcc compile`.
    File,
}

impl Lang {
    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "Rust",
            Lang::C => "C",
            Lang::Glsl => "GLSL",
            Lang::Hlsl => "HLSL",
            Lang::Slang => "Slang",
            Lang::File => "the output file names",
        }
    }
}

/// One printed identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub lang: Lang,
    /// The scope it is declared in: `""` for the file's global scope, else a name. Shared
    /// between the identifiers of one scope (a few hundred thousand for a large description).
    pub scope: Rc<str>,
    pub name: String,
    pub owner: Owner,
    /// A preprocessor macro: it replaces the same word in every scope of its file.
    pub is_macro: bool,
    /// A name cased from the description's that is a reserved word, which the emitters
    /// print with `_` appended.
    pub escaped_from: Option<String>,
}

/// What is wrong with the printed names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Two identifiers spelled the same in one scope (or a macro and any other identifier).
    Clash { first: Ident, second: Ident },
    /// The language reserves the identifier. `hard`: the emitters cannot escape it (a macro
    /// GLSL reserves, `__`); otherwise they append `_`, which the check does not let pass.
    Reserved { ident: Ident, why: String, hard: bool },
    /// Longer than the language's compiler or the file system reads.
    TooLong { ident: Ident, limit: usize },
}

impl Problem {
    /// Whether the emitters must refuse: their output would not compile or not be written.
    pub fn is_hard(&self) -> bool {
        match self {
            Problem::Reserved { hard, .. } => *hard,
            _ => true,
        }
    }

    /// One sentence, without the owners' names (the check adds those).
    pub fn message(&self) -> String {
        match self {
            Problem::Clash { first, .. } => {
                format!("`{}` is declared twice in the generated {}", first.name, first.lang.name())
            }
            Problem::Reserved { ident, why, .. } => {
                format!("the generated {} name `{}` {why}", ident.lang.name(), ident.name)
            }
            Problem::TooLong { ident, limit } => {
                let (what, reader) = match ident.lang {
                    Lang::File => ("the output file name".to_string(), "a file system"),
                    lang => (format!("the generated {} name", lang.name()), "glslang"),
                };
                format!(
                    "{what} `{}…` is {} characters long; {reader} reads at most {limit}",
                    ident.name.chars().take(24).collect::<String>(),
                    ident.name.len(),
                )
            }
        }
    }
}

/// A token's name in every output: as written, made an identifier.
pub fn token(name: &str) -> String {
    member(name)
}

/// A token's name in constants: `object` → `OBJECT` (`<L>_OBJECT_OFFSET`).
pub fn token_upper(name: &str) -> String {
    upper_of_token(&token(name))
}

/// [`token_upper`] of a name already made a token's ([`token`]).
fn upper_of_token(token: &str) -> String {
    token.to_ascii_uppercase()
}

/// The record struct of a layout: `SceneDraw` → `SceneDrawRecord`.
pub fn record_type(layout: &str) -> String {
    format!("{}Record", camel(layout))
}

/// The C record struct of a layout, prefixed by its pipeline (C has one global scope, and two
/// pipelines' headers may be included together): `scene` + `SceneDraw` → `SceneSceneDrawRecord`.
pub fn c_record_type(pipeline: &str, layout: &str) -> String {
    c_record_of(&camel(pipeline), &camel(layout))
}

/// [`c_record_type`] of names already cased ([`camel`]).
fn c_record_of(pipeline_camel: &str, layout_camel: &str) -> String {
    format!("{pipeline_camel}{layout_camel}Record")
}

/// The prefix of a layout's or kernel's C functions and arrays: `scene` + `SceneDraw` →
/// `scene_scene_draw`.
pub fn c_lower(pipeline: &str, name: &str) -> String {
    c_joined(&snake(pipeline), &snake(name))
}

/// The prefix of a layout's or kernel's C macros: `scene` + `cull` → `SCENE_CULL`.
pub fn c_upper(pipeline: &str, name: &str) -> String {
    c_joined(&screaming(pipeline), &screaming(name))
}

/// [`c_lower`] and [`c_upper`] of names already cased: the pipeline's, `_`, the other's.
fn c_joined(pipeline: &str, name: &str) -> String {
    format!("{pipeline}_{name}")
}

/// A Rust module named after a layout or a kernel: `SceneDraw` → `scene_draw`.
pub fn rust_module(name: &str) -> String {
    member(&snake(name))
}

/// The writer parameter of record member `member_name` of token `t`: a command member without
/// its token's prefix (`draw_index_count` → `index_count`), a push-constant field as it is.
pub fn param(t: &CompiledToken, member_name: &str) -> String {
    let name = member(member_name);
    if t.token_type == TokenType::PushConstant {
        return name;
    }
    match member_name.strip_prefix(&format!("{}_", t.name)) {
        Some(rest) if !rest.is_empty() => member(rest),
        _ => name,
    }
}

/// The parameter for the sequence index that none of `params` uses.
pub fn sequence_param<'a>(params: impl Iterator<Item = &'a str> + Clone) -> String {
    unused("sequence", |name| params.clone().any(|p| p == name))
}

/// `base`, with underscores appended until `taken` says no: a generated local that cannot
/// shadow a name built from the description (a parameter, a member).
pub fn unused(base: &str, taken: impl Fn(&str) -> bool) -> String {
    let mut name = base.to_string();
    while taken(&name) {
        name.push('_');
    }
    name
}

/// Whether token `t` of `l` puts data in push-constant space that a shader reads.
pub fn reads_push(l: &CompiledLayout, t: usize) -> bool {
    is_push(l, t) && l.record.iter().any(|m| m.token == Some(t) && !is_tail(l, m))
}

/// Whether token `t` of `l` is one whose data lands in push-constant space.
fn is_push(l: &CompiledLayout, t: usize) -> bool {
    l.tokens.get(t).is_some_and(|t| matches!(t.token_type, TokenType::PushConstant | TokenType::SequenceIndex))
}

/// For each token of `l`, the indices of the record members that hold its data (its `_pad`
/// tail left out), in one pass over the record: a layout may have 256 tokens and tens of
/// thousands of members, and a pass per token was their product.
fn written_members(l: &CompiledLayout) -> Vec<Vec<usize>> {
    let mut written = vec![vec![]; l.tokens.len()];
    for (i, m) in l.record.iter().enumerate() {
        if let Some(t) = m.token.filter(|&t| t < written.len()) {
            if !is_tail(l, m) {
                written[t].push(i);
            }
        }
    }
    written
}

/// The `_pad` tail of a `TraceRays2` token, which belongs to the token but is padding.
pub fn is_tail(l: &CompiledLayout, m: &dgcc_core::ir::RecordMember) -> bool {
    m.token
        .and_then(|t| l.tokens.get(t))
        .is_some_and(|t| t.token_type == TokenType::TraceRays2 && m.name == format!("{}_pad", t.name))
}

/// Whether the GLSL readers of `l` pick the stream record under the fallback.
pub fn glsl_fallback(l: &CompiledLayout) -> bool {
    fallback_of(l, &written_members(l))
}

/// [`glsl_fallback`], given the layout's [`written_members`].
fn fallback_of(l: &CompiledLayout, written: &[Vec<usize>]) -> bool {
    let reads_push = |t: usize| is_push(l, t) && !written[t].is_empty();
    let has_push = (0..l.tokens.len()).any(reads_push);
    let action = l.action().map(|t| t.token_type);
    let draw = action.is_some_and(|t| t.is_vertex_draw() || t.is_mesh());
    let dispatch_seq = action == Some(TokenType::Dispatch)
        && l.tokens.iter().enumerate().any(|(i, t)| t.token_type == TokenType::SequenceIndex && reads_push(i));
    has_push && (draw || dispatch_seq)
}

/// Whether the C and Rust outputs declare a data struct for token `t`.
pub fn has_token_data(t: &CompiledToken) -> bool {
    match t.token_type {
        TokenType::PushConstant | TokenType::SequenceIndex => t.push_constant.is_some(),
        TokenType::VertexBuffer | TokenType::IndexBuffer => true,
        TokenType::ExecutionSet => t.execution_set.is_some(),
        _ => false,
    }
}

/// What the C and C++ headers declare themselves, whatever the pipeline (the C++ header
/// includes the C one: they are one translation unit).
const C_FIXED: &[&str] = &[
    "DGCC_COMMON_DEFINITIONS",
    "DGCC_STATIC_ASSERT",
    "DGCC_EXT_DGC_FALLBACK",
    "DGCC_TOKEN_DATA",
    "DGCC_RECORD_STATE_DEFINITIONS",
    "DGCC_UNKNOWN",
    "DGCC_HPP_COMMON",
    "dgcc_token_data_pPushConstant",
    "dgcc_token_data_pVertexBuffer",
    "dgcc_token_data_pIndexBuffer",
    "dgcc_token_data_pExecutionSet",
    // What the header defines where the Vulkan headers lack the extension.
    "VK_EXT_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME",
    "VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT",
    "VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_TOKEN_EXT",
    // The macros an engine may define to pick its Vulkan header (`#include DGCC_VULKAN_INCLUDE`).
    "DGCC_VULKAN_INCLUDE",
    "DGCC_NO_VULKAN_INCLUDE",
    // Macros of the standard headers it includes, which would replace a member of that name.
    "NULL",
    "offsetof",
];

struct Plan {
    idents: Vec<Ident>,
    /// The scopes handed out so far, so that each is allocated once, and the one asked for
    /// last (most identifiers follow one of their own scope).
    scopes: HashMap<String, Rc<str>>,
    last: Rc<str>,
}

impl Plan {
    fn new(capacity: usize) -> Plan {
        Plan { idents: Vec::with_capacity(capacity), scopes: HashMap::new(), last: "".into() }
    }
    fn scope(&mut self, scope: &str) -> Rc<str> {
        if *self.last != *scope {
            self.last = match self.scopes.get(scope) {
                Some(s) => s.clone(),
                None => {
                    let s: Rc<str> = scope.into();
                    self.scopes.insert(scope.to_string(), s.clone());
                    s
                }
            };
        }
        self.last.clone()
    }
    fn add(&mut self, lang: Lang, scope: &str, name: String, owner: Owner, is_macro: bool) {
        let scope = self.scope(scope);
        self.idents.push(Ident { lang, scope, name, owner, is_macro, escaped_from: None });
    }
    /// A Rust module named after `written` (a layout's, a kernel's or the pipeline's name).
    fn module(&mut self, scope: &str, written: &str, owner: Owner) {
        let cased = snake(written);
        let printed = member(&cased);
        let escaped_from = (printed != cased && printed != written).then_some(cased);
        let scope = self.scope(scope);
        self.idents.push(Ident { lang: Lang::Rust, scope, name: printed, owner, is_macro: false, escaped_from });
    }
}

/// Every identifier and file name the emitters print for `m`.
pub fn identifiers(m: &Manifest) -> Vec<Ident> {
    let mut p = Plan::new(64 + 256 * m.layouts.len());
    let (ps, pu) = (snake(&m.pipeline), screaming(&m.pipeline));
    for ext in ["rs", "h", "glsl", "hlsl", "slang", "dgc.json", "svg", "hpp"] {
        p.add(Lang::File, "", format!("{ps}.{ext}"), Owner::Pipeline, false);
    }
    // C: one translation unit.
    for f in C_FIXED {
        p.add(Lang::C, "", f.to_string(), Owner::Fixed, f.chars().all(|c| !c.is_ascii_lowercase()));
    }
    p.add(Lang::C, "", format!("DGCC_{pu}_H"), Owner::Pipeline, true);
    p.add(Lang::C, "", format!("DGCC_{pu}_HPP"), Owner::Pipeline, true);
    if !m.push_constants.is_empty() {
        p.add(Lang::C, "", format!("{pu}_PUSH_CONSTANT_RANGE_COUNT"), Owner::Pipeline, true);
        p.add(Lang::C, "", format!("{ps}_push_constant_ranges"), Owner::Pipeline, false);
    }
    // GLSL, HLSL, Slang: one shader each.
    p.add(Lang::Glsl, "", format!("DGCC_{pu}_GLSL"), Owner::Pipeline, true);
    p.add(Lang::Hlsl, "", format!("DGCC_{pu}_HLSL"), Owner::Pipeline, true);
    p.add(Lang::Slang, "", format!("DGCC_{pu}_SLANG"), Owner::Pipeline, true);
    // Rust: the module file.
    p.module("", &m.pipeline, Owner::Pipeline);
    for f in [
        "vk",
        "ext_dgc",
        "PUSH_CONSTANT_RANGES",
        "LayoutInfo",
        "LAYOUTS",
        "layout",
        "layouts",
        "SubgroupDecision",
        "kernels",
    ] {
        p.add(Lang::Rust, "mod pipeline", f.to_string(), Owner::Fixed, false);
    }
    for f in ["vk", "ext_dgc"] {
        p.add(Lang::Rust, "mod layouts", f.to_string(), Owner::Fixed, false);
        p.add(Lang::Rust, "mod kernels", f.to_string(), Owner::Fixed, false);
    }
    p.add(Lang::Rust, "mod kernels", "SubgroupDecision".into(), Owner::Fixed, false);

    let pipeline = Pipeline { snake: ps.clone(), upper: pu.clone(), camel: camel(&m.pipeline) };
    for (li, l) in m.layouts.iter().enumerate() {
        layout(&mut p, &pipeline, li, l);
    }
    for (ki, k) in m.kernels.iter().enumerate() {
        let (ku, cu) = (screaming(&k.name), c_upper(&m.pipeline, &k.name));
        for axis in ["X", "Y", "Z"] {
            p.add(Lang::C, "", format!("{cu}_LOCAL_SIZE_{axis}"), Owner::Kernel(ki), true);
            for lang in [Lang::Glsl, Lang::Hlsl, Lang::Slang] {
                p.add(lang, "", format!("{ku}_LOCAL_SIZE_{axis}"), Owner::Kernel(ki), true);
            }
        }
        for target in k.targets.keys() {
            let tu = screaming(target);
            let owner = Owner::Target(ki, target.clone());
            p.add(Lang::C, "", format!("{cu}_{tu}_REQUIRED_SUBGROUP_SIZE"), owner.clone(), true);
            p.add(Lang::C, "", format!("{cu}_{tu}_STAGE_FLAGS"), owner, true);
        }
        p.module("mod kernels", &k.name, Owner::Kernel(ki));
    }
    p.idents
}

/// The pipeline's name, cased once: the C names of every layout start with it.
struct Pipeline {
    snake: String,
    upper: String,
    camel: String,
}

/// A layout's names as every output spells them, cased once (the plan lists a few hundred
/// identifiers per layout, and casing a name is most of what listing one costs), by the same
/// functions the emitters call.
struct LayoutNames {
    /// `scene_draw`, `SCENE_DRAW`, `SceneDraw`, `SceneDrawRecord`.
    snake: String,
    upper: String,
    camel: String,
    record: String,
    /// Whether a shader reads push-constant data of the layout.
    has_push: bool,
    /// Whether the GLSL, HLSL and Slang readers pick the stream record under the fallback.
    fallback: bool,
    tokens: Vec<TokenNames>,
    /// Each record member's name in every language.
    members: Vec<String>,
}

/// A token's names: as a member (`object`), in constants (`OBJECT`), and the members its
/// writer takes, with their parameter names and the sequence parameter's.
struct TokenNames {
    name: String,
    upper: String,
    written: Vec<(usize, String)>,
    sequence: String,
    reads_push: bool,
}

impl LayoutNames {
    fn of(l: &CompiledLayout) -> LayoutNames {
        let members = written_members(l);
        let tokens = l
            .tokens
            .iter()
            .enumerate()
            .map(|(ti, t)| {
                let name = token(&t.name);
                let written: Vec<(usize, String)> =
                    members[ti].iter().map(|&i| (i, param(t, &l.record[i].name))).collect();
                let sequence = sequence_param(written.iter().map(|(_, p)| p.as_str()));
                let reads_push = is_push(l, ti) && !written.is_empty();
                TokenNames { upper: upper_of_token(&name), name, written, sequence, reads_push }
            })
            .collect::<Vec<_>>();
        LayoutNames {
            snake: snake(&l.name),
            upper: screaming(&l.name),
            camel: camel(&l.name),
            record: record_type(&l.name),
            has_push: tokens.iter().any(|t| t.reads_push),
            fallback: fallback_of(l, &members),
            tokens,
            members: l.record.iter().map(|m| member(&m.name)).collect(),
        }
    }
}

fn layout(p: &mut Plan, pipeline: &Pipeline, li: usize, l: &CompiledLayout) {
    let n = LayoutNames::of(l);
    let (s, u, c, record) = (&n.snake, &n.upper, &n.camel, &n.record);
    let own = || Owner::Layout(li);
    // C: every name prefixed by the pipeline's.
    let (cs, cu, c_record) =
        (c_joined(&pipeline.snake, s), c_joined(&pipeline.upper, u), c_record_of(&pipeline.camel, c));
    p.add(Lang::C, "", c_record.clone(), own(), false);
    for suffix in ["STRIDE", "SHADER_STAGES", "USAGE_FLAGS", "MAX_SEQUENCES", "TOKEN_COUNT", "ASSERT_RECORD"] {
        p.add(Lang::C, "", format!("{cu}_{suffix}"), own(), true);
    }
    for suffix in ["tokens", "create_info", "check_record"] {
        p.add(Lang::C, "", format!("{cs}_{suffix}"), own(), false);
    }
    for (ti, (t, tn)) in l.tokens.iter().zip(&n.tokens).enumerate() {
        let owner = Owner::Token(li, ti);
        p.add(Lang::C, "", format!("{cu}_{}_OFFSET", tn.upper), owner.clone(), true);
        if has_token_data(t) {
            p.add(Lang::C, "", format!("{cs}_{}_data", tn.name), owner, false);
        }
    }
    // GLSL.
    p.add(Lang::Glsl, "", record.clone(), own(), false);
    for suffix in ["LAYOUT", "STREAM_SET", "STREAM_BINDING", "STREAM_ACCESS", "WRITER", "READER"] {
        p.add(Lang::Glsl, "", format!("{u}_{suffix}"), own(), true);
    }
    for suffix in ["STRIDE", "STRIDE_UINTS", "MAX_SEQUENCES"] {
        p.add(Lang::Glsl, "", format!("{u}_{suffix}"), own(), false);
    }
    p.add(Lang::Glsl, "", format!("{c}Stream"), own(), false);
    p.add(Lang::Glsl, "", format!("{s}_stream"), own(), false);
    if n.has_push {
        p.add(Lang::Glsl, "", format!("{u}_PUSH_EXTRA"), own(), true);
        p.add(Lang::Glsl, "", format!("{c}Push"), own(), false);
        p.add(Lang::Glsl, "", format!("{s}_push"), own(), false);
    }
    if n.fallback {
        p.add(Lang::Glsl, "", format!("{u}_MDI_CONSTANT_ID"), own(), true);
        p.add(Lang::Glsl, "", format!("{u}_RECORD_INDEX"), own(), true);
        p.add(Lang::Glsl, "", format!("{s}_fallback"), own(), false);
    }
    for (ti, (t, tn)) in l.tokens.iter().zip(&n.tokens).enumerate() {
        let owner = Owner::Token(li, ti);
        p.add(Lang::Glsl, "", format!("{u}_{}_OFFSET", tn.upper), owner.clone(), false);
        if !tn.written.is_empty() && t.token_type != TokenType::SequenceIndex {
            let scope = format!("{s}_write_{}", tn.name);
            p.add(Lang::Glsl, "", scope.clone(), owner.clone(), false);
            for (i, prm) in &tn.written {
                p.add(Lang::Glsl, &scope, prm.clone(), Owner::Member(li, *i), false);
            }
            p.add(Lang::Glsl, &scope, tn.sequence.clone(), owner.clone(), false);
            // The writer's body names the stream buffer, which a parameter must not hide.
            p.add(Lang::Glsl, &scope, format!("{s}_stream"), own(), false);
        }
        if tn.reads_push {
            p.add(Lang::Glsl, "", format!("{s}_read_{}", tn.name), owner.clone(), false);
            if t.token_type != TokenType::SequenceIndex {
                p.add(Lang::Glsl, "", format!("{c}Push{}", camel(&t.name)), owner.clone(), false);
            }
        }
    }
    for lang in [Lang::Hlsl, Lang::Slang] {
        hlsl_layout(p, lang, li, l, &n);
    }
    // The record struct: one spelling of its members for every language.
    let scopes = [
        (Lang::C, format!("struct {c_record}")),
        (Lang::Glsl, format!("struct {record}")),
        (Lang::Hlsl, format!("struct {record}")),
        (Lang::Slang, format!("struct {record}")),
        (Lang::Rust, format!("struct {record}")),
    ];
    for (i, name) in n.members.iter().enumerate() {
        for (lang, scope) in &scopes {
            p.add(*lang, scope, name.clone(), Owner::Member(li, i), false);
        }
    }
    // Rust.
    p.add(Lang::Rust, "mod pipeline", record.clone(), own(), false);
    p.module("mod layouts", &l.name, own());
    let scope = format!("mod layouts::{}", rust_module(&l.name));
    for f in [
        "vk",
        "ext_dgc",
        "Record",
        "STRIDE",
        "SHADER_STAGES",
        "USAGE_FLAGS",
        "MAX_SEQUENCES",
        "TOKEN_COUNT",
        "tokens",
        "token_vec",
        "create_info",
    ] {
        p.add(Lang::Rust, &scope, f.to_string(), Owner::Fixed, false);
    }
    for (ti, (t, tn)) in l.tokens.iter().zip(&n.tokens).enumerate() {
        p.add(Lang::Rust, &scope, format!("{}_OFFSET", tn.upper), Owner::Token(li, ti), false);
        if has_token_data(t) {
            p.add(Lang::Rust, &scope, format!("{}_DATA", tn.upper), Owner::Token(li, ti), false);
        }
    }
}

/// What the HLSL and Slang includes declare for layout `li` (`emit::hlsl` prints them).
fn hlsl_layout(p: &mut Plan, lang: Lang, li: usize, l: &CompiledLayout, n: &LayoutNames) {
    let (s, u, c) = (&n.snake, &n.upper, &n.camel);
    let own = || Owner::Layout(li);
    p.add(lang, "", n.record.clone(), own(), false);
    for suffix in ["STREAM_SET", "STREAM_BINDING", "WRITER", "READER"] {
        p.add(lang, "", format!("{u}_{suffix}"), own(), true);
    }
    for suffix in ["STRIDE", "STRIDE_UINTS", "MAX_SEQUENCES", "TOKEN_COUNT"] {
        p.add(lang, "", format!("{u}_{suffix}"), own(), false);
    }
    for f in ["stream", "load_record", "store_record"] {
        p.add(lang, "", format!("{s}_{f}"), own(), false);
    }
    if n.has_push {
        p.add(lang, "", format!("{u}_PUSH_EXTRA"), own(), true);
        p.add(lang, "", format!("{c}Push"), own(), false);
        p.add(lang, "", format!("{s}_push"), own(), false);
    }
    if n.fallback {
        p.add(lang, "", format!("{u}_MDI_CONSTANT_ID"), own(), true);
        p.add(lang, "", format!("{s}_fallback"), own(), false);
    }
    for (ti, (t, tn)) in l.tokens.iter().zip(&n.tokens).enumerate() {
        let owner = Owner::Token(li, ti);
        p.add(lang, "", format!("{u}_{}_OFFSET", tn.upper), owner.clone(), false);
        p.add(lang, "", format!("{u}_{}_SIZE", tn.upper), owner.clone(), false);
        if !tn.written.is_empty() && t.token_type != TokenType::SequenceIndex {
            let scope = format!("{s}_write_{}", tn.name);
            p.add(lang, "", scope.clone(), owner.clone(), false);
            for (i, prm) in &tn.written {
                p.add(lang, &scope, prm.clone(), Owner::Member(li, *i), false);
            }
            p.add(lang, &scope, tn.sequence.clone(), owner.clone(), false);
            // The body names the stream, the stride and the intrinsics that reinterpret a value
            // as words, which a parameter must not hide.
            for body in [format!("{s}_stream"), format!("{u}_STRIDE")] {
                p.add(lang, &scope, body, own(), false);
            }
            for intrinsic in ["asuint", "asint", "asfloat"] {
                p.add(lang, &scope, intrinsic.to_string(), Owner::Fixed, false);
            }
        }
        if tn.reads_push {
            p.add(lang, "", format!("{s}_read_{}", tn.name), owner.clone(), false);
            if t.token_type != TokenType::SequenceIndex {
                p.add(lang, "", format!("{c}Push{}", camel(&t.name)), owner.clone(), false);
            }
        }
    }
}

/// Why a printed identifier is reserved in its language, and whether the emitters can escape
/// it (`None`: it is not).
fn reserved(ident: &Ident) -> Option<(String, bool)> {
    let n = ident.name.as_str();
    match ident.lang {
        Lang::Glsl if n.starts_with("GL_") && ident.is_macro => {
            Some(("starts with `GL_`, which GLSL reserves for macros".into(), true))
        }
        // Every extension a shader enables defines a macro of its name, which would replace it.
        Lang::Glsl if n.starts_with("GL_") => {
            Some(("starts with `GL_`, which GLSL reserves for macros (one per enabled extension)".into(), true))
        }
        Lang::Glsl if n == "VULKAN" => Some(("is the macro GLSL defines when it compiles for Vulkan".into(), true)),
        Lang::Glsl | Lang::C | Lang::Hlsl | Lang::Slang if n.contains("__") => {
            Some((format!("contains `__`, which {} reserves", ident.lang.name()), true))
        }
        Lang::Glsl if n.starts_with("gl_") => Some(("starts with `gl_`, which GLSL reserves".into(), true)),
        // A macro of the headers the C and C++ headers include would replace it (the names the
        // headers declare themselves include two of those macros, `NULL` and `offsetof`).
        Lang::C if !ident.is_macro && ident.owner != Owner::Fixed => {
            super::c_headers::macro_of(n).map(|why| (why, true))
        }
        // The emitters print these with a `_` appended; the check refuses them so that no name
        // is renamed behind the user's back.
        _ => ident
            .escaped_from
            .as_ref()
            .map(|w| (format!("would be `{w}`, a reserved word, and is printed `{n}`"), false)),
    }
}

/// Every problem with the identifiers of `m`, in a stable order.
pub fn problems(m: &Manifest) -> Vec<Problem> {
    let idents = identifiers(m);
    let mut out = vec![];
    // Clashes: per (language, scope); a macro clashes with any word of its file.
    let mut seen: HashMap<(Lang, &str, &str), usize> = HashMap::with_capacity(idents.len());
    let mut macros: HashMap<(Lang, &str), usize> = HashMap::new();
    for (i, id) in idents.iter().enumerate() {
        if id.is_macro {
            macros.entry((id.lang, id.name.as_str())).or_insert(i);
        }
    }
    // Macros are spelled in capitals, so a name with a small letter meets none of them (checked
    // here rather than assumed): the lookup it saves is a third of this loop's time.
    let lower_macros = macros.keys().any(|(_, name)| name.bytes().any(|b| b.is_ascii_lowercase()));
    for (i, id) in idents.iter().enumerate() {
        match seen.entry((id.lang, &*id.scope, id.name.as_str())) {
            Entry::Occupied(first) => {
                let j = *first.get();
                if !(idents[j].owner == id.owner && idents[j].owner == Owner::Fixed) && idents[j] != *id {
                    out.push(Problem::Clash { first: idents[j].clone(), second: id.clone() });
                }
            }
            Entry::Vacant(v) => {
                v.insert(i);
                if id.is_macro || (!lower_macros && id.name.bytes().any(|b| b.is_ascii_lowercase())) {
                    continue;
                }
                if let Some(&j) = macros.get(&(id.lang, id.name.as_str())) {
                    if j != i && idents[j].scope != id.scope {
                        out.push(Problem::Clash { first: idents[j].clone(), second: id.clone() });
                    }
                }
            }
        }
    }
    for id in &idents {
        if let Some((why, hard)) = reserved(id) {
            out.push(Problem::Reserved { ident: id.clone(), why, hard });
        }
        let limit = match id.lang {
            Lang::Glsl => GLSL_MAX_IDENTIFIER,
            Lang::File => MAX_FILE_NAME,
            _ => usize::MAX,
        };
        if id.name.len() > limit {
            out.push(Problem::TooLong { ident: id.clone(), limit });
        }
    }
    // One report per pair of names: the same two owners clash in many identifiers at once.
    // (Sets, not lists: 16,384 layouts whose names differ only in case are as many reports.)
    let mut reported: std::collections::HashSet<(Owner, Owner), foldhash::fast::RandomState> = Default::default();
    out.retain(|p| match p {
        Problem::Clash { first, second } => reported.insert((first.owner.clone(), second.owner.clone())),
        _ => true,
    });
    let mut long: std::collections::HashSet<Owner, foldhash::fast::RandomState> = Default::default();
    out.retain(|p| match p {
        Problem::TooLong { ident, .. } => long.insert(ident.owner.clone()),
        _ => true,
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The members of token `t` as a pass over the whole record finds them (what
    /// [`written_members`] gathers for every token in one pass).
    fn members_of(l: &CompiledLayout, t: usize) -> Vec<usize> {
        (0..l.record.len()).filter(|&i| l.record[i].token == Some(t) && !is_tail(l, &l.record[i])).collect()
    }

    #[test]
    fn one_pass_over_the_record_finds_each_tokens_members_and_what_it_pushes() {
        // A trace with its `_pad` tail, a sequence index, and a draw whose push constant a
        // shader reads (the GLSL fallback), and one that pushes nothing.
        let text = r#"pipeline p {
    targets lavapipe;
    push_constant [ray_gen, closest_hit, miss] offset 0 size 16;
    push_constant [vertex] offset 0 size 4;
    layout Trace [ray_gen, closest_hit, miss] {
        max_sequences 64;
        execution_set pipeline pipelines [ray_gen, closest_hit, miss] max_entries 4;
        push_constant params [ray_gen] offset 0 { scene: address; frame: u32; }
        sequence_index ray_batch [ray_gen] offset 12;
        trace_rays2 trace;
    }
    layout Draws [vertex, fragment] {
        max_sequences 64;
        push_constant object [vertex] offset 0 { id: u32; }
        index_buffer indices vulkan;
        draw_indexed draw;
    }
    layout Plain [vertex, fragment] {
        max_sequences 64;
        draw draw;
    }
}
"#;
        let c = crate::driver::compile_source(std::path::Path::new("p.dgc"), text, &Default::default());
        let m = c.manifest.unwrap_or_else(|| panic!("{:?}", c.diagnostics));
        assert!(m.layouts[0].record.iter().any(|r| is_tail(&m.layouts[0], r)), "the trace has a tail");
        let fallbacks: Vec<bool> = m.layouts.iter().map(glsl_fallback).collect();
        assert_eq!(fallbacks, [false, true, false]);
        for l in &m.layouts {
            let written = written_members(l);
            assert_eq!(written.len(), l.tokens.len());
            for (t, w) in written.iter().enumerate() {
                assert_eq!(*w, members_of(l, t), "{}: token {t}", l.name);
                let names = LayoutNames::of(l);
                assert_eq!(names.tokens[t].reads_push, reads_push(l, t), "{}: token {t}", l.name);
                assert_eq!(names.tokens[t].written.iter().map(|(i, _)| *i).collect::<Vec<_>>(), *w);
            }
        }
    }
}
