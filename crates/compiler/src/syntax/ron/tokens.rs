//! The RON schema below a layout: tokens, push-constant fields and types, stage lists, the
//! fixed-value settings and kernel subgroup requirements.
//!
//! Why the per-kind field tables: a token takes only the parameters of its kind, so `mode` on
//! a `Draw` is an unknown field (E0002) rather than something silently ignored, and a missing
//! parameter is reported against the token's variant name.

use super::fields::Fields;
use super::reader::{self, Body, Raw, Shape, Struct};
use super::Ron;
use crate::ast::{
    ExecutionSetKind, Field, FieldType, GlslLayout, LayoutFlag, PushData, PushSpace, Spanned, StageList, SubgroupReq,
    SubgroupSize, Token, TokenKind,
};
use crate::syntax::comments::{Of, Part};
use crate::syntax::limits::{self, Count};
use crate::syntax::names::{self, a, did_you_mean, field_types, one_of, token_kinds, Table};
use crate::syntax::SyntaxKind::Ron as RON;
use dgcc_core::diag::Diagnostic;
use dgcc_core::span::Span;
use dgcc_core::tokens::TokenType;

const ACTION: &[&str] = &["name", "at"];
const EXECUTION_SET: &[&str] = &["name", "at", "kind", "stages", "max_entries", "fallback"];
const PUSH_CONSTANT: &[&str] = &["name", "at", "stages", "offset", "fields", "size"];
const SEQUENCE_INDEX: &[&str] = &["name", "at", "stages", "offset"];
/// Push data has no stages to write: its range is VK_SHADER_STAGE_ALL (11333).
const PUSH_DATA: &[&str] = &["name", "at", "offset", "fields", "size"];
const PUSH_DATA_SEQUENCE_INDEX: &[&str] = &["name", "at", "offset"];
const INDEX_BUFFER: &[&str] = &["name", "at", "mode"];
const VERTEX_BUFFER: &[&str] = &["name", "at", "binding"];
const FIELD: &[&str] = &["name", "ty"];
const REQUIRED: &[&str] = &["size", "full"];

fn params(kind: TokenType) -> (&'static [&'static str], &'static str) {
    match kind {
        TokenType::ExecutionSet => (EXECUTION_SET, "an `ExecutionSet` token"),
        TokenType::PushConstant => (PUSH_CONSTANT, "a `PushConstant` token"),
        TokenType::SequenceIndex => (SEQUENCE_INDEX, "a `SequenceIndex` token"),
        TokenType::PushData => (PUSH_DATA, "a `PushData` token"),
        TokenType::PushDataSequenceIndex => (PUSH_DATA_SEQUENCE_INDEX, "a `PushDataSequenceIndex` token"),
        TokenType::IndexBuffer => (INDEX_BUFFER, "an `IndexBuffer` token"),
        TokenType::VertexBuffer => (VERTEX_BUFFER, "a `VertexBuffer` token"),
        _ => (ACTION, "an action token"),
    }
}

impl<'s> Ron<'s, '_> {
    /// A name from a fixed table; `code` is reported for a name not in it.
    fn enum_name<T: Copy + PartialEq>(
        &mut self,
        raw: Raw<'s>,
        table: &Table<T>,
        code: &'static str,
        what: &str,
    ) -> Option<Spanned<T>> {
        let v =
            self.r.variant(
                raw,
                &a(what),
                |n| {
                    if table.parse(n, RON).is_some() {
                        Shape::Unit
                    } else {
                        Shape::Unknown
                    }
                },
            )?;
        match table.parse(v.name, RON) {
            Some(value) => Some(Spanned::new(value, v.name_span)),
            None => {
                self.unknown_name(code, what, v.name, v.name_span, table.names(RON));
                None
            }
        }
    }

    fn unknown_name(
        &mut self,
        code: &'static str,
        what: &str,
        found: &str,
        span: dgcc_core::span::Span,
        known: Vec<&str>,
    ) {
        let mut diag =
            Diagnostic::new(code, format!("unknown {what} `{found}`")).primary(span, format!("not {}", a(what)));
        if let Some(close) = did_you_mean(found, known.iter().copied()) {
            diag = diag.note(format!("help: did you mean `{close}`?"));
        }
        self.r.report(diag.note(format!("expected {}", one_of(&known))));
    }

    /// Adds "did you mean `F32`?" for a GLSL spelling (`float`) to the last diagnostic.
    fn type_alias_hint(&mut self, found: &str) {
        if let (Some(alias), Some(last)) = (names::type_alias(found, RON), self.r.diags.last_mut()) {
            if !last.notes.iter().any(|n| n.starts_with("help:")) {
                last.notes.insert(0, format!("help: did you mean `{alias}`?"));
            }
        }
    }

    /// A pipeline's or a layout's `lints: [Allow("W0005"), Deny("W0011")]`.
    pub(super) fn lints(&mut self, raw: Raw<'s>) -> Option<Vec<crate::ast::Lint>> {
        let items = self.r.list(raw, "a list of lint levels `[Allow(\"W0005\"), …]`")?;
        let lints: Vec<_> = items.into_iter().map(|item| self.lint(item)).collect();
        lints.into_iter().collect()
    }

    fn lint(&mut self, raw: Raw<'s>) -> Option<crate::ast::Lint> {
        let expected = "a lint level `Allow(\"CODE\")`, `Warn(\"CODE\")` or `Deny(\"CODE\")`";
        let v = self.r.variant(raw, expected, |n| {
            if names::LINT_LEVELS.parse(n, RON).is_some() {
                Shape::Tuple
            } else {
                Shape::Unknown
            }
        })?;
        let Some(level) = names::LINT_LEVELS.parse(v.name, RON) else {
            self.unknown_name("E0008", "lint level", v.name, v.name_span, names::LINT_LEVELS.names(RON));
            return None;
        };
        match v.body {
            Body::Tuple(items) if items.len() == 1 => {
                let code = self.r.string(items[0])?;
                // A code is a word in `.dgc` (`lints allow W0005;`): one that is not could not be
                // formatted into it, and is no diagnostic code anyway.
                if !crate::names::is_word(&code.node) {
                    let e = dgcc_core::levels::LevelError::Unknown(code.node.clone());
                    self.r.report(crate::check::lints::level_error(&e, code.span, v.name_span));
                    return None;
                }
                Some(crate::ast::Lint { level: Spanned::new(level, v.name_span), code })
            }
            _ => {
                self.r.report(
                    Diagnostic::new("E0009", format!("expected {expected}, found `{}`", reader::snippet(raw.text)))
                        .primary(raw.span, "one code in quotes"),
                );
                None
            }
        }
    }

    pub(super) fn stages(&mut self, raw: Raw<'s>) -> Option<StageList> {
        let items = self.r.list(raw, "a list of stages `[Vertex, …]`")?;
        let stages: Vec<_> =
            items.into_iter().map(|item| self.enum_name(item, &names::STAGES, "E0006", "stage")).collect();
        Some(StageList { items: stages.into_iter().collect::<Option<_>>()?, span: raw.span })
    }

    /// One stage: a shader's `stage`.
    pub(super) fn stage(&mut self, raw: Raw<'s>) -> Option<Spanned<dgcc_core::stages::Stage>> {
        self.enum_name(raw, &names::STAGES, "E0006", "stage")
    }

    pub(super) fn flags(&mut self, raw: Raw<'s>) -> Option<Vec<Spanned<LayoutFlag>>> {
        let items = self.r.list(raw, "a list of flags `[UnorderedSequences, …]`")?;
        let flags: Vec<_> =
            items.into_iter().map(|item| self.enum_name(item, &names::FLAGS, "E0008", "layout flag")).collect();
        flags.into_iter().collect()
    }

    pub(super) fn glsl_layout(&mut self, raw: Raw<'s>) -> Option<Spanned<GlslLayout>> {
        self.enum_name(raw, &names::GLSL_LAYOUTS, "E0008", "GLSL layout")
    }

    pub(super) fn token(&mut self, raw: Raw<'s>) -> Option<Spanned<Token>> {
        let bare = !raw.text.ends_with(')');
        let v =
            self.r.variant(raw, "a token such as `Draw` or `PushConstant( … )`", |n| {
                match token_kinds::parse(n, RON) {
                    Some(_) if bare => Shape::Unit,
                    Some(_) => Shape::Struct,
                    None => Shape::Unknown,
                }
            })?;
        let Some(kind) = token_kinds::parse(v.name, RON) else {
            self.unknown_name("E0005", "token kind", v.name, v.name_span, token_kinds::names(RON));
            return None;
        };
        let s = match v.body {
            Body::Struct(s) => s,
            _ => Struct { head: v.name_span, entries: Vec::new() },
        };
        let (param_names, what) = params(kind);
        let f = Fields::check(&mut self.r, s, param_names, what);
        if let Some(fields) = f.get("fields").filter(|v| v.text.ends_with(']')) {
            // The token prints on two lines around its fields: up to `fields: [`, and `])`.
            let of = Of::Item(raw.span);
            self.docs.mark(of, Part::Open, Span::new(raw.span.start, fields.span.start + 1));
            self.docs.mark(of, Part::Close, Span::new(fields.span.end - 1, raw.span.end));
        }
        let name = f.get("name").map(|n| self.r.string(n));
        let pin = self.optional_number(&f, "at");
        let kind = match TokenKind::parameterless(kind) {
            Some(action) => Some(action),
            None => self.token_params(kind, &f),
        };
        let doc = self.docs.above(raw.span.start);
        let name = match name {
            Some(n) => Some(n?),
            None => None,
        };
        Some(Spanned::new(Token { doc, name, at: pin?, kind: kind?, kind_span: v.name_span }, raw.span))
    }

    fn token_params(&mut self, kind: TokenType, f: &Fields<'s>) -> Option<TokenKind> {
        let number = |this: &mut Self, name: &'static str| {
            f.required(&mut this.r, name).and_then(|v| this.r.number(v, &format!("`{name}`")))
        };
        match kind {
            TokenType::ExecutionSet => {
                let set_kind = f.required(&mut self.r, "kind").and_then(|v| {
                    self.enum_name::<ExecutionSetKind>(v, &names::EXECUTION_SET_KINDS, "E0008", "execution set kind")
                });
                let stages = f.required(&mut self.r, "stages").and_then(|v| self.stages(v));
                let max_entries = number(self, "max_entries");
                // Read after the others, so that their errors are reported too.
                let fallback = match f.get("fallback") {
                    Some(v) => Some(self.enum_name(v, &names::SET_FALLBACKS, "E0008", "execution set fallback")?),
                    None => None,
                };
                Some(TokenKind::ExecutionSet { kind: set_kind?, stages: stages?, max_entries: max_entries?, fallback })
            }
            TokenType::PushConstant => {
                let stages = f.required(&mut self.r, "stages").and_then(|v| self.stages(v));
                let offset = number(self, "offset");
                let data = self.push_data(f);
                Some(TokenKind::PushConstant {
                    stages: stages?,
                    offset: offset?,
                    data: data?,
                    space: PushSpace::Constants,
                })
            }
            TokenType::PushData => {
                let offset = number(self, "offset");
                let data = self.push_data(f);
                Some(TokenKind::PushConstant {
                    stages: StageList::default(),
                    offset: offset?,
                    data: data?,
                    space: PushSpace::Data,
                })
            }
            TokenType::SequenceIndex => {
                let stages = f.required(&mut self.r, "stages").and_then(|v| self.stages(v));
                let offset = number(self, "offset");
                Some(TokenKind::SequenceIndex { stages: stages?, offset: offset?, space: PushSpace::Constants })
            }
            TokenType::PushDataSequenceIndex => Some(TokenKind::SequenceIndex {
                stages: StageList::default(),
                offset: number(self, "offset")?,
                space: PushSpace::Data,
            }),
            TokenType::IndexBuffer => {
                let mode = f
                    .required(&mut self.r, "mode")
                    .and_then(|v| self.enum_name(v, &names::INDEX_MODES, "E0008", "index buffer mode"))?;
                Some(TokenKind::IndexBuffer { mode })
            }
            TokenType::VertexBuffer => Some(TokenKind::VertexBuffer { binding: number(self, "binding")? }),
            _ => TokenKind::parameterless(kind),
        }
    }

    fn push_data(&mut self, f: &Fields<'s>) -> Option<PushData> {
        match (f.get("fields"), f.get("size")) {
            (Some(fields), None) => {
                let expected = "a list of fields `[(name: \"…\", ty: U32), …]`";
                self.each(fields, expected, Some(Count::FieldsPerPushConstant), Self::field).map(PushData::Fields)
            }
            (None, Some(size)) => self.r.number(size, "`size`").map(PushData::Size),
            (Some(fields), Some(size)) => {
                self.r.report(
                    Diagnostic::new("E0011", "a push constant has both `fields` and `size`")
                        .primary(size.span, "`size` given here")
                        .secondary(fields.span, "`fields` given here")
                        .note("help: keep `fields` (typed data) or `size` (raw bytes), not both"),
                );
                None
            }
            (None, None) => {
                self.r.report(
                    Diagnostic::new("E0011", "a push constant needs `fields` or `size`")
                        .primary(f.head, "this push constant has no data")
                        .note("help: add `fields: [(name: \"…\", ty: U32)]` or `size: N`"),
                );
                None
            }
        }
    }

    fn field(&mut self, raw: Raw<'s>) -> Option<Spanned<Field>> {
        let s = self.r.structure(raw, "", "a field `(name: \"…\", ty: TYPE)`")?;
        let f = Fields::check(&mut self.r, s, FIELD, "a field");
        let name = f.required(&mut self.r, "name").and_then(|v| self.r.string(v));
        let ty = f.required(&mut self.r, "ty").and_then(|v| self.field_type(v, 0).map(|t| Spanned::new(t, v.span)));
        let doc = self.docs.above(raw.span.start);
        Some(Spanned::new(Field { doc, name: name?, ty: ty? }, raw.span))
    }

    fn field_type(&mut self, raw: Raw<'s>, dimensions: usize) -> Option<FieldType> {
        let v = self.r.variant(raw, "a field type such as `U32` or `Array(F32, 4)`", |n| {
            if n == "Array" {
                Shape::Tuple
            } else if field_types::parse(n, RON).is_some() {
                Shape::Unit
            } else {
                Shape::Unknown
            }
        })?;
        if v.name != "Array" {
            return match field_types::parse(v.name, RON) {
                Some(scalar) => Some(scalar),
                None => {
                    let mut known = field_types::names(RON);
                    known.push("Array");
                    self.unknown_name("E0007", "field type", v.name, v.name_span, known);
                    self.type_alias_hint(v.name);
                    None
                }
            };
        }
        if dimensions == limits::MAX_ARRAY_DIMENSIONS {
            self.r.report(limits::too_many_dimensions(raw.span));
            return None;
        }
        let Body::Tuple(items) = v.body else { return None };
        if items.len() != 2 {
            self.r.report(
                Diagnostic::new("E0009", format!("expected `Array(TYPE, N)`, found {} argument(s)", items.len()))
                    .primary(raw.span, "an array type has an element type and a length"),
            );
            return None;
        }
        let inner = self.field_type(items[0], dimensions + 1);
        let len = self.r.number(items[1], "an array length");
        Some(FieldType::Array(Box::new(inner?), len?.node))
    }

    pub(super) fn subgroup(&mut self, raw: Raw<'s>) -> Option<Spanned<SubgroupReq>> {
        const FORMS: &[&str] = &["Any", "Varying", "Full", "Required"];
        let v = self.r.variant(raw, "a subgroup requirement such as `Any` or `Required(size: …)`", |n| match n {
            "Any" | "Varying" | "Full" => Shape::Unit,
            "Required" => Shape::Struct,
            _ => Shape::Unknown,
        })?;
        let req = match (v.name, v.body) {
            ("Any", _) => SubgroupReq::Any,
            ("Varying", _) => SubgroupReq::Varying,
            ("Full", _) => SubgroupReq::Full,
            ("Required", Body::Struct(s)) => {
                let f = Fields::check(&mut self.r, s, REQUIRED, "a `Required` subgroup requirement");
                let size = f.required(&mut self.r, "size").and_then(|v| self.subgroup_size(v));
                let full = match f.get("full") {
                    Some(v) => self.r.boolean(v),
                    None => Some(false),
                };
                SubgroupReq::Required { size: size?, full: full? }
            }
            (name, _) => {
                self.unknown_name("E0008", "subgroup requirement", name, v.name_span, FORMS.to_vec());
                return None;
            }
        };
        Some(Spanned::new(req, raw.span))
    }

    fn subgroup_size(&mut self, raw: Raw<'s>) -> Option<SubgroupSize> {
        let v = self.r.variant(raw, "a subgroup size `Fixed(N)`, `Min` or `Max`", |n| match n {
            "Fixed" => Shape::Tuple,
            "Min" | "Max" => Shape::Unit,
            _ => Shape::Unknown,
        })?;
        match (v.name, v.body) {
            ("Min", _) => Some(SubgroupSize::Min),
            ("Max", _) => Some(SubgroupSize::Max),
            ("Fixed", Body::Tuple(items)) if items.len() == 1 => {
                self.r.number(items[0], "a subgroup size").map(|n| SubgroupSize::Fixed(n.node))
            }
            ("Fixed", _) => {
                self.r.report(
                    Diagnostic::new("E0009", "expected `Fixed(N)` with one number")
                        .primary(raw.span, "one number expected"),
                );
                None
            }
            (name, _) => {
                self.unknown_name("E0008", "subgroup size", name, v.name_span, vec!["Fixed", "Min", "Max"]);
                None
            }
        }
    }
}
