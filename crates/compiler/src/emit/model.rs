//! What every emitter needs to know about a compiled layout, computed once and checked.
//!
//! Why a model between the manifest and the printers: the printers must agree on every
//! name and every byte, so the decisions (how a `vec3` array is spelled in C, which member is
//! padding, what a writer's parameter is called) are made here, once, and the printers only
//! spell them. It is also where the emitters re-check their input: a manifest may come from a
//! file rather than from the layout engine, and printing a struct whose offsets do not hold
//! would be worse than refusing, so `model` runs the layout invariants again (from
//! `dgcc_core::check::invariants`, with their codes, not the layout engine) and rejects
//! anything it cannot spell exactly. Member types arrive typed (`MemberType`, a row of the
//! core's type table with its component, dimensions and alignments): nothing is parsed back
//! from a string here, and a manifest naming an unknown type never gets this far.

use super::names;
use super::EmitError;
use dgcc_core::ir::{CompiledLayout, CompiledToken, GlslLayout, Manifest, MemberType, RecordMember, TokenType};
use std::collections::HashSet;

/// The scalar component of a record member, with its C and Rust spellings (a row of the core's
/// type table).
pub(crate) use dgcc_core::types::Component as Scalar;

/// One member of a record struct, spelled for every output.
#[derive(Clone, Debug)]
pub(crate) struct Member<'a> {
    pub raw: &'a RecordMember,
    /// The member name in every language.
    pub name: String,
    pub scalar: Scalar,
    /// Dimensions of one element in C and Rust. A std430 `vec3` array element is padded to
    /// four components here, because its array stride is 16 and a C `float[3]` is 12 bytes.
    pub elem_dims: Vec<u32>,
    /// Whether `elem_dims` has a padding component that GLSL does not declare.
    pub padded_elem: bool,
    /// Padding: between tokens, at the end of the record, or the tail of `TraceRays2`.
    pub is_padding: bool,
    /// The parameter name in writer functions: a command member without its token's prefix
    /// (`draw_index_count` → `index_count`), a push-constant field as it is.
    pub param: String,
    /// Whether the member is a buffer address (a `VkDeviceAddress` the stream holds as two
    /// words: the first member of an index-buffer, vertex-buffer or count token), and how a
    /// language with a 64-bit type may hold it.
    pub address: Option<Address>,
}

/// How a buffer address in a record can be spelled in a language with 8-byte-aligned 64-bit
/// integers (Rust's `u64`, `vk::DeviceAddress`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Address {
    /// At an 8-aligned offset of a record whose stride is a multiple of 8: one `u64`.
    Whole,
    /// At an offset that is only 4-aligned, or in a record whose stride is not a multiple of 8
    /// (a `u64` member would make `#[repr(C)]` insert padding or round the size up): two words.
    Split,
}

impl Member<'_> {
    pub fn glsl_type(&self) -> MemberType {
        self.raw.glsl_type
    }
    pub fn array(&self) -> u32 {
        self.raw.array
    }
    pub fn offset(&self) -> u32 {
        self.raw.offset
    }
    pub fn size(&self) -> u32 {
        self.raw.size
    }
}

/// One token with the record members that hold its data.
#[derive(Clone, Debug)]
pub(crate) struct Token<'a> {
    pub raw: &'a CompiledToken,
    /// `object` → `object`, escaped like a member.
    pub name: String,
    /// Indices into `Layout::members` of this token's data (padding excluded).
    pub members: Vec<usize>,
}

impl Token<'_> {
    /// A parameter name for the sequence index that no member parameter of this token uses.
    pub fn sequence_param(&self, members: &[Member]) -> String {
        names::plan::sequence_param(self.members.iter().map(|&i| members[i].param.as_str()))
    }
    /// Tokens whose data lands in push-constant (or, under descriptor heaps, push-data)
    /// space, so that a shader reads it per draw.
    pub fn is_push(&self) -> bool {
        matches!(
            self.raw.token_type,
            TokenType::PushConstant | TokenType::SequenceIndex | TokenType::PushData | TokenType::PushDataSequenceIndex
        )
    }
    /// A push token with data, which a shader reads through push constants. A sequence index
    /// always is: its value is pushed whether or not its placeholder word is a record member
    /// (it is not where another token reads those stream bytes).
    pub fn reads_push(&self) -> bool {
        self.is_push() && (!self.members.is_empty() || self.raw.token_type.is_sequence_index())
    }
    /// Where member `m` of this token lands in push-constant space.
    pub fn push_offset(&self, m: &Member) -> u32 {
        let base = self.raw.push_constant.map(|r| r.offset).unwrap_or(0);
        base + (m.offset() - self.raw.offset)
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Layout<'a> {
    pub raw: &'a CompiledLayout,
    /// `scene_draw`
    pub snake: String,
    /// `SceneDraw`
    pub camel: String,
    /// `SCENE_DRAW`
    pub upper: String,
    /// `SceneDrawRecord`
    pub record: String,
    pub scalar_layout: bool,
    pub members: Vec<Member<'a>>,
    pub tokens: Vec<Token<'a>>,
}

impl Layout<'_> {
    /// The description's doc lines for member `i`: on a token's first member the token's own,
    /// then, for a push-constant field, the field's. Padding has none.
    pub fn member_doc(&self, i: usize) -> Vec<String> {
        let m = &self.members[i];
        let Some(t) = m.raw.token.filter(|_| !m.is_padding) else { return vec![] };
        let token = &self.raw.tokens[t];
        let mut doc = vec![];
        if self.tokens.get(t).and_then(|t| t.members.first()) == Some(&i) {
            doc.extend(token.doc.iter().cloned());
        }
        // A field's member is the k-th member of its token (its name may be qualified).
        let k = self.tokens.get(t).and_then(|t| t.members.iter().position(|&j| j == i));
        if let Some(f) = k.and_then(|k| token.fields.get(k)) {
            doc.extend(f.doc.iter().cloned());
        }
        doc
    }
    /// The action token's type, when the layout ends with one.
    pub fn action(&self) -> Option<TokenType> {
        self.raw.action().map(|t| t.token_type)
    }
    /// Whether the action is a draw that a multi-draw-indirect call can replay (so that
    /// `gl_DrawID` indexes the stream).
    pub fn action_is_draw(&self) -> bool {
        self.action().is_some_and(|t| t.is_vertex_draw() || t.is_mesh())
    }
    /// For a dispatch layout with a SEQUENCE_INDEX token: the push member that holds the index,
    /// which the runtime also pushes when it dispatches records one by one (the record the
    /// shader readers read under that fallback).
    pub fn dispatch_sequence_index(&self) -> Option<&str> {
        if self.action() != Some(TokenType::Dispatch) {
            return None;
        }
        let t = self.tokens.iter().find(|t| t.raw.token_type.is_sequence_index() && t.reads_push())?;
        Some(t.members.first().map(|&i| self.members[i].name.as_str()).unwrap_or(t.name.as_str()))
    }
}

/// The pipeline as the printers see it.
#[derive(Clone, Debug)]
pub(crate) struct Pipeline<'a> {
    pub raw: &'a Manifest,
    pub snake: String,
    /// The Rust module: `snake`, escaped if it is a keyword.
    pub module: String,
    pub upper: String,
    pub layouts: Vec<Layout<'a>>,
}

/// A doc line as comment text that cannot break the code around it in any output: control
/// characters become spaces, `??` (which starts a C trigraph, `??/` being a backslash) is
/// split, and a trailing backslash, which would continue a `//` comment onto the next line in
/// C and GLSL, gets a period after it.
pub(crate) fn comment_text(line: &str) -> String {
    let mut s: String = line.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    while s.contains("??") {
        s = s.replace("??", "? ?");
    }
    let mut s = s.trim_end().to_string();
    if s.ends_with('\\') {
        s.push('.');
    }
    s
}

/// The widest column the member comments of a record are aligned to; a longer declaration gets
/// one space before its comment. Padding is written by hand: `format!`'s `{:<width$}` panics
/// on a width of 65,536 or more, which a long name reached.
pub(crate) const ALIGN_COLUMN: usize = 100;

/// `text` padded with spaces to `width` characters (at most [`ALIGN_COLUMN`]), then one space.
pub(crate) fn pad(text: &str, width: usize) -> String {
    let fill = width.min(ALIGN_COLUMN).saturating_sub(text.chars().count());
    let mut s = String::with_capacity(text.len() + fill + 1);
    s.push_str(text);
    s.extend(std::iter::repeat_n(' ', fill + 1));
    s
}

/// Write `doc` as comment lines, `prefix` (indentation and comment marker) before each.
/// The kernels' section of a shader include (GLSL, HLSL, Slang): each kernel's doc, source and
/// subgroup decision per target as comments, and its local size as `#define`s. `usage` is the
/// section header's two lines saying how a shader of that language uses them.
pub(crate) fn shader_kernels(o: &mut String, m: &Manifest, usage: [&str; 2]) {
    if m.kernels.is_empty() {
        return;
    }
    out!(o, "");
    out!(o, "// ---------------------------------------------------------------------------------------------");
    for line in usage {
        out!(o, "{line}");
    }
    out!(o, "// ---------------------------------------------------------------------------------------------");
    for k in &m.kernels {
        let ku = names::screaming(&k.name);
        let writes = k.writes.as_deref().map(|w| format!(", writes `{w}`")).unwrap_or_default();
        write_doc(o, &k.doc, "// ");
        out!(o, "// Kernel `{}` ({}){writes}.", k.name, k.source);
        for (target, t) in &k.targets {
            out!(o, "//   on {target}: {}", super::subgroup_decision(t));
        }
        for (axis, n) in ["X", "Y", "Z"].iter().zip(k.local_size) {
            out!(o, "#define {ku}_LOCAL_SIZE_{axis} {n}");
        }
    }
}

pub(crate) fn write_doc(o: &mut String, doc: &[String], prefix: &str) {
    for l in doc {
        let t = comment_text(l);
        out!(o, "{}", if t.is_empty() { prefix.trim_end().to_string() } else { format!("{prefix}{t}") });
    }
}

pub(crate) fn model(m: &Manifest) -> Result<Pipeline<'_>, EmitError> {
    model_with_names(m, &names::plan::problems(m))
}

/// [`model`] of a manifest whose name problems (`names::plan::problems`) the caller has listed
/// already: the driver lists them once, for its diagnostics and for this check.
pub(crate) fn model_with_names<'a>(
    m: &'a Manifest,
    problems: &[names::plan::Problem],
) -> Result<Pipeline<'a>, EmitError> {
    // The names first: a manifest whose printed identifiers clash, or that a compiler would not
    // read, is refused here exactly as `dgcc check` refuses its description.
    if let Some(p) = problems.iter().find(|p| p.is_hard()) {
        let layout = match &p {
            names::plan::Problem::Clash { first: i, .. }
            | names::plan::Problem::Reserved { ident: i, .. }
            | names::plan::Problem::TooLong { ident: i, .. } => match i.owner {
                names::plan::Owner::Layout(l) | names::plan::Owner::Token(l, _) | names::plan::Owner::Member(l, _) => {
                    m.layouts.get(l).map(|l| l.name.as_str())
                }
                _ => None,
            },
        };
        return Err(EmitError::new(layout, p.message()));
    }
    // Every output spells the records out member by member: a manifest whose records are
    // larger than descriptions may be (E0024) would print gigabytes.
    use crate::syntax::limits::{first_past_record_data, MAX_RECORD_DATA_BYTES};
    if let Some((i, _)) = first_past_record_data(m.layouts.iter().map(CompiledLayout::data_bytes)) {
        return Err(EmitError::new(
            Some(&m.layouts[i].name),
            format!("the layouts' stream data passes {} KiB with this layout (E0024)", MAX_RECORD_DATA_BYTES / 1024),
        ));
    }
    let mut layouts = vec![];
    let mut type_names = HashSet::new();
    for l in &m.layouts {
        let layout = model_layout(l)?;
        if !type_names.insert(layout.camel.clone()) {
            return Err(EmitError::new(
                Some(&l.name),
                format!("two layouts are both spelled `{}` in generated code", layout.camel),
            ));
        }
        layouts.push(layout);
    }
    Ok(Pipeline {
        raw: m,
        snake: names::snake(&m.pipeline),
        module: names::plan::rust_module(&m.pipeline),
        upper: names::screaming(&m.pipeline),
        layouts,
    })
}

fn model_layout(l: &CompiledLayout) -> Result<Layout<'_>, EmitError> {
    let err = |msg: String| EmitError::new(Some(&l.name), msg);
    if let Some(f) = dgcc_core::check::invariants::first_broken(l) {
        return Err(err(format!("the layout breaks an invariant ({}): {}", f.code, f.message)));
    }
    let scalar_layout = l.glsl_layout == GlslLayout::Scalar;
    let mut tokens: Vec<Token> =
        l.tokens.iter().map(|t| Token { raw: t, name: names::plan::token(&t.name), members: vec![] }).collect();
    let mut members = vec![];
    let mut seen = HashSet::new();
    for (i, rm) in l.record.iter().enumerate() {
        let (scalar, dims) = (rm.glsl_type.component(), rm.glsl_type.dims());
        let elem_size = rm.glsl_type.size();
        let mut elem_dims = dims.to_vec();
        let mut padded_elem = false;
        if rm.array > 0 {
            if rm.array_stride == elem_size + 4 && dims.len() == 1 && dims[0] == 3 && scalar.bytes() == 4 {
                elem_dims = vec![4];
                padded_elem = true;
            } else if rm.array_stride != elem_size {
                return Err(err(format!(
                    "member `{}` is an array of `{}` with stride {}, which C and Rust cannot spell",
                    rm.name, rm.glsl_type, rm.array_stride
                )));
            }
            if rm.array as u64 * rm.array_stride as u64 != rm.size as u64 {
                return Err(err(format!(
                    "member `{}`: {} × {} is not its size {}",
                    rm.name, rm.array, rm.array_stride, rm.size
                )));
            }
        } else if rm.size != elem_size {
            return Err(err(format!("member `{}` of type `{}` has size {}", rm.name, rm.glsl_type, rm.size)));
        }
        let name = names::member(&rm.name);
        if !seen.insert(name.clone()) {
            return Err(err(format!("two record members are both spelled `{name}` in generated code")));
        }
        let token = match rm.token {
            Some(t) if t < tokens.len() => Some(t),
            Some(t) => return Err(err(format!("member `{}` belongs to token {t}, which does not exist", rm.name))),
            None => None,
        };
        let tail = names::plan::is_tail(l, rm);
        let param = match token {
            Some(t) => names::plan::param(&l.tokens[t], &rm.name),
            None => name.clone(),
        };
        if let (Some(t), false) = (token, tail) {
            tokens[t].members.push(i);
        }
        let address = match token {
            Some(t) if !tail && is_address(l, t, rm) => {
                Some(if rm.offset.is_multiple_of(8) && l.stride.is_multiple_of(8) {
                    Address::Whole
                } else {
                    Address::Split
                })
            }
            _ => None,
        };
        members.push(Member {
            address,
            raw: rm,
            name,
            scalar,
            elem_dims,
            padded_elem,
            is_padding: token.is_none() || tail,
            param,
        });
    }
    for t in &tokens {
        let mut params = HashSet::new();
        for &i in &t.members {
            if !params.insert(members[i].param.clone()) {
                return Err(err(format!("token `{}` has two members spelled `{}`", t.raw.name, members[i].param)));
            }
        }
        if t.is_push() && t.raw.push_constant.is_none() {
            return Err(err(format!("push token `{}` has no push-constant range", t.raw.name)));
        }
    }
    let camel = names::camel(&l.name);
    Ok(Layout {
        raw: l,
        snake: names::snake(&l.name),
        upper: names::screaming(&l.name),
        record: names::plan::record_type(&l.name),
        camel,
        scalar_layout,
        members,
        tokens,
    })
}

/// Whether `rm`, a member of token `t`, is the token's buffer address: the first two words of
/// an index-buffer, vertex-buffer or count token's data (`VkBindIndexBufferIndirectCommandEXT`,
/// `VkBindVertexBufferIndirectCommandEXT`, `VkDrawIndirectCountIndirectCommandEXT` all begin
/// with a `VkDeviceAddress`), spelled `uvec2` in the record.
fn is_address(l: &CompiledLayout, t: usize, rm: &RecordMember) -> bool {
    let token = &l.tokens[t];
    let has_address =
        matches!(token.token_type, TokenType::IndexBuffer | TokenType::VertexBuffer) || token.token_type.is_count();
    has_address
        && rm.offset == token.offset
        && rm.array == 0
        && rm.size == 8
        && rm.glsl_type.dims() == [2]
        && rm.glsl_type.component() == Scalar::U32
}

/// `Vertex | Fragment` as `VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT`; bits
/// without a name are kept as a hexadecimal literal; `0` for none.
pub(crate) fn stage_names(mask: u32) -> Vec<&'static str> {
    dgcc_core::stages::StageMask(mask).stages().map(|s| s.vk_name()).collect()
}

/// Bits of a stage mask that no `Stage` names.
pub(crate) fn unnamed_stage_bits(mask: u32) -> u32 {
    mask & !dgcc_core::stages::Stage::ALL.iter().fold(0, |m, s| m | s.bit())
}
