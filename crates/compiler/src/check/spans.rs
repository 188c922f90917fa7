//! From a finding's `Location` to the exact text the user wrote.
//!
//! Why a separate step: findings come from rules that also run without source text (see
//! `finding.rs`). Here, with the AST at hand, each location becomes the narrowest span that
//! shows the problem: the `at: Some(2050)` of an offset, the `mode: Dxgi` of an index buffer,
//! the `"radv"` in `targets`. A computed value (an offset or stride dgcc chose) has no text of
//! its own, so it points at the token or layout it belongs to.

use super::finding::{KernelPart, Location, RangePart, TokenPart};
use crate::ast::{Kernel, Layout, Pipeline, PushData, Spanned, StageList, Token, TokenKind};
use dgcc_core::span::Span;

/// Resolves locations inside one pipeline, for one layout or kernel at a time.
pub(crate) struct Resolver<'a> {
    pub pipeline: &'a Pipeline,
    pub layout: Option<&'a Spanned<Layout>>,
    pub kernel: Option<&'a Spanned<Kernel>>,
    pub target: Option<&'a str>,
}

fn stages_span(list: &StageList, fallback: Span) -> Span {
    if list.span == Span::default() {
        fallback
    } else {
        list.span
    }
}

fn token_span(tok: &Spanned<Token>, part: TokenPart) -> Span {
    let t = &tok.node;
    let kind = if t.kind_span == Span::default() { tok.span } else { t.kind_span };
    match (part, &t.kind) {
        (TokenPart::Kind, _) => kind,
        (TokenPart::Offset, _) => t.at.as_ref().map(|a| a.span).unwrap_or(kind),
        (TokenPart::Stages, TokenKind::PushConstant { stages, .. })
        | (TokenPart::Stages, TokenKind::SequenceIndex { stages, .. })
        | (TokenPart::Stages, TokenKind::ExecutionSet { stages, .. }) => stages_span(stages, kind),
        (TokenPart::PushOffset, TokenKind::PushConstant { offset, .. })
        | (TokenPart::PushOffset, TokenKind::SequenceIndex { offset, .. }) => offset.span,
        (TokenPart::PushSize, TokenKind::PushConstant { data: PushData::Size(s), .. }) => s.span,
        (TokenPart::PushSize, TokenKind::PushConstant { data: PushData::Fields(fs), .. }) => {
            match (fs.first(), fs.last()) {
                (Some(a), Some(b)) => a.span.to(b.span),
                _ => kind,
            }
        }
        (TokenPart::Field(i), TokenKind::PushConstant { data: PushData::Fields(fs), .. }) => {
            fs.get(i).map(|f| f.node.name.span).unwrap_or(kind)
        }
        (TokenPart::Mode, TokenKind::IndexBuffer { mode }) => mode.span,
        (TokenPart::Binding, TokenKind::VertexBuffer { binding }) => binding.span,
        (TokenPart::SetKind, TokenKind::ExecutionSet { kind: k, .. }) => k.span,
        (TokenPart::MaxEntries, TokenKind::ExecutionSet { max_entries, .. }) => max_entries.span,
        (TokenPart::Fallback, TokenKind::ExecutionSet { fallback: Some(f), .. }) => f.span,
        (TokenPart::Name, _) => t.name.as_ref().map(|n| n.span).unwrap_or(kind),
        _ => kind,
    }
}

impl<'a> Resolver<'a> {
    pub fn new(pipeline: &'a Pipeline) -> Resolver<'a> {
        Resolver { pipeline, layout: None, kernel: None, target: None }
    }
    pub fn for_layout(pipeline: &'a Pipeline, layout: &'a Spanned<Layout>) -> Resolver<'a> {
        Resolver { layout: Some(layout), ..Resolver::new(pipeline) }
    }
    pub fn for_kernel(pipeline: &'a Pipeline, kernel: &'a Spanned<Kernel>) -> Resolver<'a> {
        Resolver { kernel: Some(kernel), ..Resolver::new(pipeline) }
    }

    /// The span of the `targets` entry naming `target` (a built-in name, or a path whose file
    /// stem is the profile's name), else the pipeline's name.
    pub fn target_span(&self, target: &str) -> Span {
        let stem = |s: &str| {
            std::path::Path::new(s).file_stem().and_then(|x| x.to_str()).map(str::to_string).unwrap_or_default()
        };
        self.pipeline
            .targets
            .iter()
            .find(|t| t.node == target)
            .or_else(|| self.pipeline.targets.iter().find(|t| stem(&t.node) == target))
            .filter(|t| t.span != Span::default())
            .map(|t| t.span)
            .unwrap_or(self.pipeline.name.span)
    }

    pub fn span(&self, loc: Location) -> Span {
        let whole = self
            .layout
            .map(|l| l.node.name.span)
            .or(self.kernel.map(|k| k.node.name.span))
            .unwrap_or(self.pipeline.name.span);
        match loc {
            Location::Target => self.target.map(|t| self.target_span(t)).unwrap_or(self.pipeline.name.span),
            Location::PushConstantRange { index, part } => match self.pipeline.push_constants.get(index) {
                Some(r) => match part {
                    RangePart::Whole => r.span,
                    RangePart::Stages => stages_span(&r.node.stages, r.span),
                    RangePart::Offset => r.node.offset.span,
                    RangePart::Size => r.node.size.span,
                },
                None => self.pipeline.name.span,
            },
            Location::Kernel(part) => match self.kernel {
                Some(k) => match part {
                    KernelPart::Name => k.node.name.span,
                    KernelPart::LocalSize => k.node.local_size.span,
                    KernelPart::Subgroup => k.node.subgroup.span,
                    KernelPart::Writes => k.node.writes.as_ref().map(|w| w.span).unwrap_or(k.node.name.span),
                },
                None => whole,
            },
            _ => match self.layout {
                Some(l) => layout_span(&l.node, loc),
                None => whole,
            },
        }
    }
}

fn layout_span(l: &Layout, loc: Location) -> Span {
    match loc {
        Location::LayoutStages => stages_span(&l.stages, l.name.span),
        Location::Stride => l.stride.as_ref().map(|s| s.span).unwrap_or(l.name.span),
        Location::MaxSequences => l.max_sequences.span,
        Location::Flag(bit) => l.flags.iter().find(|f| f.node.bit() == bit).map(|f| f.span).unwrap_or(l.name.span),
        Location::Token { index, part } => l.tokens.get(index).map(|t| token_span(t, part)).unwrap_or(l.name.span),
        _ => l.name.span,
    }
}
