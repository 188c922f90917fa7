//! The RON front end: `Pipeline( … )`, the shape of the book's "The description language", into
//! `ast::Pipeline`.
//!
//! Why in two layers: `reader` knows RON (serde, spans, shapes) and nothing of pipelines;
//! this module and `tokens` know the schema (which fields, which defaults) and nothing of
//! serde. Every item is read on its own, so one run reports every problem of the file: a bad
//! token does not hide a bad kernel. A defaulted value gets an empty span at the start of the
//! item that omits it, so a later diagnostic about it still points at that item.

mod fields;
mod reader;
mod tokens;
mod visitors;

use self::fields::Fields;
use self::reader::{Raw, Reader};
use super::comments::{List, Of, Part};
use super::docs::Docs;
use super::lex;
use super::limits::{self, Count};
use super::SyntaxKind;
use crate::ast::{Attribute, GlslLayout, Kernel, Layout, Pipeline, PushConstantRange, Shader, Spanned, SubgroupReq};
use dgcc_core::diag::Diagnostic;
use dgcc_core::span::Span;

pub(crate) use reader::out_of_range;

const PIPELINE: &[&str] = &["name", "targets", "lints", "push_constants", "layouts", "kernels", "shaders"];
const RANGE: &[&str] = &["stages", "offset", "size"];
const LAYOUT: &[&str] =
    &["name", "stages", "flags", "max_sequences", "glsl_layout", "stride", "align", "lints", "tokens"];
const KERNEL: &[&str] = &["name", "source", "local_size", "subgroup", "writes"];
const SHADER: &[&str] = &["stage", "source", "attributes"];
const ATTRIBUTE: &[&str] = &["location", "binding"];

/// Reads one RON description. The caller has checked the size and nesting limits.
pub fn parse(source: &str, docs: &Docs) -> Result<Pipeline, Vec<Diagnostic>> {
    let mut ron = Ron { r: Reader::new(source), docs };
    let pipeline = ron.pipeline();
    match pipeline {
        Some(p) if ron.r.diags.is_empty() => Ok(p),
        _ => Err(ron.r.diags),
    }
}

/// The schema reader: a value reader plus the comments for docs.
pub(super) struct Ron<'s, 'd> {
    pub(super) r: Reader<'s>,
    pub(super) docs: &'d Docs<'s>,
}

/// An empty span at the start of `head`: where a defaulted value "is".
fn at(head: Span) -> Span {
    Span::new(head.start, head.start)
}

impl<'s> Ron<'s, '_> {
    /// Marks the opening (through its first bracket) and the closing bracket of `raw`.
    pub(super) fn mark_item(&self, of: Of, raw: Raw<'s>) {
        if let Some(open) = lex::first_open(raw.text, SyntaxKind::Ron) {
            self.docs.mark(of, Part::Open, Span::new(raw.span.start, raw.span.start + open + 1));
        }
        if raw.text.ends_with(')') {
            self.docs.mark(of, Part::Close, Span::new(raw.span.end - 1, raw.span.end));
        }
    }

    /// Marks the brackets of the list `raw`.
    fn mark_list(&self, of: Of, list: List, raw: Raw<'s>) {
        if raw.text.starts_with('[') && raw.text.ends_with(']') {
            self.docs.mark(of, Part::ListOpen(list), Span::new(raw.span.start, raw.span.start + 1));
            self.docs.mark(of, Part::ListClose(list), Span::new(raw.span.end - 1, raw.span.end));
        }
    }

    fn pipeline(&mut self) -> Option<Pipeline> {
        let s = self.r.document_struct("Pipeline")?;
        self.mark_item(Of::Pipeline, self.r.document());
        let doc = self.docs.above(s.head.start);
        let f = Fields::check(&mut self.r, s, PIPELINE, "the pipeline");
        let name = f.required(&mut self.r, "name").and_then(|raw| self.r.string(raw));
        let targets = match f.get("targets") {
            Some(raw) => self.targets(raw),
            None => Some(Vec::new()),
        };
        let lints = match f.get("lints") {
            Some(raw) => self.lints(raw),
            None => Some(Vec::new()),
        };
        let lists = [
            ("push_constants", List::Ranges),
            ("layouts", List::Layouts),
            ("kernels", List::Kernels),
            ("shaders", List::Shaders),
        ];
        for (key, list) in lists {
            if let Some(raw) = f.get(key) {
                self.mark_list(Of::Pipeline, list, raw);
            }
        }
        let push_constants = match f.get("push_constants") {
            Some(raw) => self.each(
                raw,
                "a list of push-constant ranges `[(stages: …, offset: …, size: …), …]`",
                None,
                Self::range,
            ),
            None => Some(Vec::new()),
        };
        let layouts = f
            .required(&mut self.r, "layouts")
            .and_then(|raw| self.each(raw, "a list of layouts `[( … ), …]`", Some(Count::Layouts), Self::layout));
        let kernels = match f.get("kernels") {
            Some(raw) => self.each(raw, "a list of kernels `[( … ), …]`", Some(Count::Kernels), Self::kernel),
            None => Some(Vec::new()),
        };
        let shaders = match f.get("shaders") {
            Some(raw) => {
                self.each(raw, "a list of shaders `[(stage: …, source: …), …]`", Some(Count::Shaders), Self::shader)
            }
            None => Some(Vec::new()),
        };
        let mut targets = targets?;
        let targets_defaulted = targets.is_empty();
        if targets_defaulted {
            targets.push(Spanned::new("minimum".to_string(), at(f.head)));
        }
        Some(Pipeline {
            doc,
            name: name?,
            targets,
            targets_defaulted,
            lints: lints?,
            push_constants: push_constants?,
            layouts: layouts?,
            kernels: kernels?,
            shaders: shaders?,
        })
    }

    fn targets(&mut self, raw: Raw<'s>) -> Option<Vec<Spanned<String>>> {
        let items = self.r.list(raw, "a list of profile names `[\"lavapipe\", …]`")?;
        let targets: Vec<_> = items.into_iter().map(|item| self.r.string(item)).collect();
        targets.into_iter().collect()
    }

    /// Reads every item of a list, each on its own, with an optional count limit.
    pub(super) fn each<T>(
        &mut self,
        raw: Raw<'s>,
        expected: &str,
        limit: Option<Count>,
        mut item: impl FnMut(&mut Self, Raw<'s>) -> Option<T>,
    ) -> Option<Vec<T>> {
        let items = self.r.list(raw, expected)?;
        if let Some(count) = limit {
            if let Some(diag) = limits::check_count(count, items.len(), || items[count.limit()].span) {
                self.r.report(diag);
                return None;
            }
        }
        let mut out = Some(Vec::with_capacity(items.len()));
        for raw in items {
            match (item(self, raw), out.as_mut()) {
                (Some(value), Some(list)) => list.push(value),
                _ => out = None,
            }
        }
        out
    }

    fn range(&mut self, raw: Raw<'s>) -> Option<Spanned<PushConstantRange>> {
        let s = self.r.structure(raw, "", "a push-constant range `(stages: […], offset: N, size: N)`")?;
        let f = Fields::check(&mut self.r, s, RANGE, "a push-constant range");
        let stages = f.required(&mut self.r, "stages").and_then(|v| self.stages(v));
        let offset = f.required(&mut self.r, "offset").and_then(|v| self.r.number(v, "`offset`"));
        let size = f.required(&mut self.r, "size").and_then(|v| self.r.number(v, "`size`"));
        let doc = self.docs.above(raw.span.start);
        Some(Spanned::new(PushConstantRange { doc, stages: stages?, offset: offset?, size: size? }, raw.span))
    }

    fn layout(&mut self, raw: Raw<'s>) -> Option<Spanned<Layout>> {
        let s = self.r.structure(raw, "Layout", "a layout `(name: …, stages: […], …)`")?;
        let f = Fields::check(&mut self.r, s, LAYOUT, "a layout");
        let name = f.required(&mut self.r, "name").and_then(|v| self.r.string(v));
        let stages = f.required(&mut self.r, "stages").and_then(|v| self.stages(v));
        let flags = match f.get("flags") {
            Some(v) => self.flags(v),
            None => Some(Vec::new()),
        };
        let max_sequences = f.required(&mut self.r, "max_sequences").and_then(|v| self.r.number(v, "`max_sequences`"));
        let glsl_layout = match f.get("glsl_layout") {
            Some(v) => self.glsl_layout(v),
            None => Some(Spanned::new(GlslLayout::Std430, at(f.head))),
        };
        let stride = self.optional_number(&f, "stride");
        let align = self.optional_number(&f, "align");
        let lints = match f.get("lints") {
            Some(v) => self.lints(v),
            None => Some(Vec::new()),
        };
        self.mark_item(Of::Item(raw.span), raw);
        if let Some(v) = f.get("tokens") {
            self.mark_list(Of::Item(raw.span), List::Tokens, v);
        }
        let tokens = f.required(&mut self.r, "tokens").and_then(|v| {
            self.each(v, "a list of tokens `[PushConstant( … ), Draw, …]`", Some(Count::TokensPerLayout), Self::token)
        });
        let doc = self.docs.above(raw.span.start);
        Some(Spanned::new(
            Layout {
                doc,
                name: name?,
                stages: stages?,
                flags: flags?,
                max_sequences: max_sequences?,
                glsl_layout: glsl_layout?,
                stride: stride?,
                align: align?,
                lints: lints?,
                tokens: tokens?,
            },
            raw.span,
        ))
    }

    /// `field: Some(N)` / `None` / absent.
    pub(super) fn optional_number(&mut self, f: &Fields<'s>, name: &'static str) -> Option<Option<Spanned<u32>>> {
        let Some(raw) = f.get(name) else { return Some(None) };
        match self.r.option(raw, "N")? {
            Some(inner) => self.r.number(inner, &format!("`{name}`")).map(Some),
            None => Some(None),
        }
    }

    fn kernel(&mut self, raw: Raw<'s>) -> Option<Spanned<Kernel>> {
        let s = self.r.structure(raw, "Kernel", "a kernel `(name: …, source: …, local_size: (X, Y, Z))`")?;
        let f = Fields::check(&mut self.r, s, KERNEL, "a kernel");
        self.mark_item(Of::Item(raw.span), raw);
        let name = f.required(&mut self.r, "name").and_then(|v| self.r.string(v));
        let source = f.required(&mut self.r, "source").and_then(|v| self.r.string(v));
        let local_size = f.required(&mut self.r, "local_size").and_then(|v| self.local_size(v));
        let subgroup = match f.get("subgroup") {
            Some(v) => self.subgroup(v),
            None => Some(Spanned::new(SubgroupReq::Any, at(f.head))),
        };
        let writes = match f.get("writes") {
            Some(v) => match self.r.option(v, "\"LayoutName\"") {
                Some(Some(inner)) => self.r.string(inner).map(Some),
                Some(None) => Some(None),
                None => None,
            },
            None => Some(None),
        };
        let doc = self.docs.above(raw.span.start);
        Some(Spanned::new(
            Kernel { doc, name: name?, source: source?, local_size: local_size?, subgroup: subgroup?, writes: writes? },
            raw.span,
        ))
    }

    fn shader(&mut self, raw: Raw<'s>) -> Option<Spanned<Shader>> {
        let s = self.r.structure(raw, "Shader", "a shader `(stage: Vertex, source: \"…\")`")?;
        let attributes_key = s.entries.iter().find(|e| e.key == "attributes").map(|e| e.key_span);
        let f = Fields::check(&mut self.r, s, SHADER, "a shader");
        // RON prints a shader on one line, `.dgc` around its attributes: marked for the latter.
        self.mark_item(Of::Item(raw.span), raw);
        let stage = f.required(&mut self.r, "stage").and_then(|v| self.stage(v));
        let source = f.required(&mut self.r, "source").and_then(|v| self.r.string(v));
        let attributes = match f.get("attributes") {
            Some(v) => self.each(v, "a list of attributes `[(location: N, binding: N), …]`", None, Self::attribute),
            None => Some(Vec::new()),
        };
        if let (Some(stage), Some(key)) = (&stage, attributes_key) {
            if stage.node != dgcc_core::stages::Stage::Vertex {
                self.r.report(super::attributes_off_vertex(stage.node, key));
                return None;
            }
        }
        let doc = self.docs.above(raw.span.start);
        Some(Spanned::new(Shader { doc, stage: stage?, source: source?, attributes: attributes? }, raw.span))
    }

    fn attribute(&mut self, raw: Raw<'s>) -> Option<Spanned<Attribute>> {
        let s = self.r.structure(raw, "", "an attribute `(location: N, binding: N)`")?;
        let f = Fields::check(&mut self.r, s, ATTRIBUTE, "an attribute");
        let location = f.required(&mut self.r, "location").and_then(|v| self.r.number(v, "`location`"));
        let binding = f.required(&mut self.r, "binding").and_then(|v| self.r.number(v, "`binding`"));
        Some(Spanned::new(Attribute { location: location?, binding: binding? }, raw.span))
    }

    fn local_size(&mut self, raw: Raw<'s>) -> Option<Spanned<[u32; 3]>> {
        const EXPECTED: &str = "three numbers `(X, Y, Z)`";
        let items = self.r.tuple(raw, EXPECTED)?;
        if items.len() != 3 {
            self.r.report(
                Diagnostic::new("E0009", format!("expected {EXPECTED}, found {}", items.len()))
                    .primary(raw.span, "`local_size` has three components"),
            );
            return None;
        }
        let axes = ["`local_size.x`", "`local_size.y`", "`local_size.z`"];
        let numbers: Vec<_> = items.iter().zip(axes).map(|(item, axis)| self.r.number(*item, axis)).collect();
        Some(Spanned::new([numbers[0].as_ref()?.node, numbers[1].as_ref()?.node, numbers[2].as_ref()?.node], raw.span))
    }
}
