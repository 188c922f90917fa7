//! From pest pairs to `ast::Pipeline`: the pipeline, layout and kernel blocks, and the
//! checks shared by every item (names, strings, numbers, stage lists, words of fixed meaning).
//!
//! Why checks here and not in the grammar: a grammar can only say "syntax error"; here a
//! misspelt stage is E0006 with a suggestion, a number past 2³²−1 is E0010 under its digits,
//! a setting written twice is E0004 pointing at both, and the builder goes on to the next
//! item, so one run reports all of them.

use pest::iterators::Pair;

use super::Rule;
use crate::ast::{
    Attribute, GlslLayout, Kernel, Layout, Pipeline, PushConstantRange, Shader, Spanned, StageList, SubgroupReq,
};
use crate::syntax::comments::{Of, Part};
use crate::syntax::docs::Docs;
use crate::syntax::limits::{self, Count};
use crate::syntax::names::{self, a, did_you_mean, one_of, Table};
use crate::syntax::ron::out_of_range;
use crate::syntax::SyntaxKind::Dsl as DSL;
use dgcc_core::diag::Diagnostic;
use dgcc_core::span::Span;

pub struct Builder<'s, 'd> {
    pub docs: &'d Docs<'s>,
    pub diags: Vec<Diagnostic>,
}

pub fn span(pair: &Pair<Rule>) -> Span {
    Span::new(pair.as_span().start(), pair.as_span().end())
}

/// An empty span at the start of `pair`: where a defaulted value "is".
pub fn at_start(pair: &Pair<Rule>) -> Span {
    let start = pair.as_span().start();
    Span::new(start, start)
}

/// The first inner pair of a rule (`None` for an unexpected tree; never panics).
pub fn child<'s>(pair: &Pair<'s, Rule>, rule: Rule) -> Option<Pair<'s, Rule>> {
    pair.clone().into_inner().find(|p| p.as_rule() == rule)
}

/// Marks the brackets of `block` (a pair with `lbrace` and `rbrace` children) for the item
/// `item` (whose own span is `of`'s): from the item's start through `{`, and `}` to its end.
pub fn mark_block(docs: &Docs, of: Of, item: &Pair<Rule>, block: &Pair<Rule>) {
    let start = item.as_span().start();
    if let Some(open) = child(block, Rule::lbrace) {
        docs.mark(of, Part::Open, Span::new(start, open.as_span().end()));
    }
    if let Some(close) = child(block, Rule::rbrace) {
        docs.mark(of, Part::Close, Span::new(close.as_span().start(), item.as_span().end()));
    }
}

/// Remembers the first occurrence of each setting of a block, to report a second one.
#[derive(Default)]
pub struct Seen {
    first: Vec<(&'static str, Span)>,
}

impl Builder<'_, '_> {
    /// Whether `keyword` (at `span`) is new in this block; E0004 if it was seen before.
    pub fn first(&mut self, seen: &mut Seen, keyword: &'static str, span: Span, block: &str) -> bool {
        if let Some((_, first)) = seen.first.iter().find(|(k, _)| *k == keyword) {
            let first = *first;
            self.diags.push(
                Diagnostic::new("E0004", format!("`{keyword}` is given twice in {block}"))
                    .primary(span, "given again here")
                    .secondary(first, "first given here"),
            );
            return false;
        }
        seen.first.push((keyword, span));
        true
    }
}

impl<'s, 'd> Builder<'s, 'd> {
    pub fn new(docs: &'d Docs<'s>) -> Self {
        Builder { docs, diags: Vec::new() }
    }

    /// A `name` pair: an identifier, or a string literal (span with its quotes).
    pub fn name(&mut self, pair: Option<Pair<Rule>>) -> Option<Spanned<String>> {
        let pair = pair?;
        let inner = pair.clone().into_inner().next().unwrap_or(pair);
        match inner.as_rule() {
            Rule::string | Rule::source => self.string(inner),
            _ => Some(Spanned::new(inner.as_str().to_string(), span(&inner))),
        }
    }

    /// A string literal, unescaped. A bad escape is E0001 at the escape.
    pub fn string(&mut self, pair: Pair<Rule>) -> Option<Spanned<String>> {
        let pair = if pair.as_rule() == Rule::string { pair } else { child(&pair, Rule::string)? };
        let text = pair.as_str();
        let base = pair.as_span().start();
        let body = text.get(1..text.len().saturating_sub(1)).unwrap_or_default();
        let mut out = String::with_capacity(body.len());
        let mut chars = body.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            let escape = match chars.next() {
                Some((_, '"')) => Some('"'),
                Some((_, '\\')) => Some('\\'),
                Some((_, 'n')) => Some('\n'),
                Some((_, 'r')) => Some('\r'),
                Some((_, 't')) => Some('\t'),
                Some((_, '0')) => Some('\0'),
                Some((_, 'u')) => unicode_escape(&mut chars),
                _ => None,
            };
            match escape {
                Some(c) => out.push(c),
                None => {
                    let end = chars.peek().map_or(body.len(), |(j, _)| *j);
                    let at = Span::new(base + 1 + i, base + 1 + end);
                    self.diags.push(
                        Diagnostic::new(
                            "E0001",
                            format!("syntax error: unknown escape `{}` in a string", &body[i..end]),
                        )
                        .primary(at, "unknown escape")
                        .note("escapes are `\\\"`, `\\\\`, `\\n`, `\\r`, `\\t`, `\\0` and `\\u{…}`"),
                    );
                    return None;
                }
            }
        }
        Some(Spanned::new(out, span(&pair)))
    }

    /// A `number` pair (or a rule holding one) as a `uint32_t`.
    pub fn number(&mut self, pair: Option<Pair<Rule>>, what: &str) -> Option<Spanned<u32>> {
        let pair = pair?;
        let pair = if pair.as_rule() == Rule::number { pair } else { child(&pair, Rule::number)? };
        let text = pair.as_str();
        let digits: String = text.chars().filter(|c| *c != '_').collect();
        let (negative, digits) = match digits.strip_prefix('-') {
            Some(rest) => (true, rest.to_string()),
            None => (false, digits),
        };
        let value = match digits.strip_prefix("0x") {
            Some(hex) => u128::from_str_radix(hex, 16),
            None => digits.parse::<u128>(),
        };
        match value {
            Ok(v) if !negative || v == 0 => match u32::try_from(v) {
                Ok(n) => return Some(Spanned::new(n, span(&pair))),
                Err(_) => self.diags.push(out_of_range(span(&pair), text, what)),
            },
            Ok(_) => self.diags.push(out_of_range(span(&pair), text, what)),
            Err(_) if !digits.trim_start_matches("0x").is_empty() => {
                self.diags.push(out_of_range(span(&pair), text, what))
            }
            Err(_) => self.diags.push(
                Diagnostic::new("E0001", "syntax error: a number needs digits").primary(span(&pair), "no digits"),
            ),
        }
        None
    }

    /// A word of fixed meaning, looked up in `table`; `code` for an unknown one.
    pub fn word<T: Copy + PartialEq>(
        &mut self,
        pair: Option<Pair<Rule>>,
        table: &Table<T>,
        code: &'static str,
        what: &str,
    ) -> Option<Spanned<T>> {
        let pair = pair?;
        match table.parse(pair.as_str(), DSL) {
            Some(v) => Some(Spanned::new(v, span(&pair))),
            None => {
                self.unknown(code, what, pair.as_str(), span(&pair), &table.names(DSL));
                None
            }
        }
    }

    pub fn unknown(&mut self, code: &'static str, what: &str, found: &str, at: Span, known: &[&str]) {
        let mut diag =
            Diagnostic::new(code, format!("unknown {what} `{found}`")).primary(at, format!("not {}", a(what)));
        if let Some(close) = did_you_mean(found, known.iter().copied()) {
            diag = diag.note(format!("help: did you mean `{close}`?"));
        }
        self.diags.push(diag.note(format!("expected {}", one_of(known))));
    }

    pub fn stage_list(&mut self, pair: Option<Pair<Rule>>) -> Option<StageList> {
        let pair = pair?;
        let stages: Vec<_> = pair
            .clone()
            .into_inner()
            .filter(|p| p.as_rule() == Rule::stage)
            .map(|p| self.word(Some(p), &names::STAGES, "E0006", "stage"))
            .collect();
        Some(StageList { items: stages.into_iter().collect::<Option<_>>()?, span: span(&pair) })
    }

    pub fn pipeline(&mut self, pair: Pair<'s, Rule>) -> Option<Pipeline> {
        mark_block(self.docs, Of::Pipeline, &pair, &pair);
        let doc = self.docs.above(pair.as_span().start());
        let name = self.name(child(&pair, Rule::name));
        let (mut targets, mut ranges, mut layouts, mut kernels, mut shaders) =
            (Some(vec![]), Some(vec![]), Some(vec![]), Some(vec![]), Some(vec![]));
        let mut lints = Some(vec![]);
        let mut seen = Seen::default();
        let (mut layout_count, mut kernel_count, mut shader_count) = (0, 0, 0);
        for item in pair.clone().into_inner() {
            match item.as_rule() {
                Rule::targets => {
                    let keyword = child(&item, Rule::kw_targets).map_or(span(&item), |k| span(&k));
                    if self.first(&mut seen, "targets", keyword, "the pipeline") {
                        let names: Vec<_> = item
                            .into_inner()
                            .filter(|p| p.as_rule() == Rule::name)
                            .map(|p| self.name(Some(p)))
                            .collect();
                        targets = names.into_iter().collect();
                    }
                }
                Rule::lints => {
                    let keyword = child(&item, Rule::kw_lints).map_or(span(&item), |k| span(&k));
                    if self.first(&mut seen, "lints", keyword, "the pipeline") {
                        lints = self.lints(item);
                    }
                }
                Rule::pc_range => push(&mut ranges, self.range(item)),
                Rule::layout => {
                    layout_count += 1;
                    if let Some(d) = limits::check_count(Count::Layouts, layout_count, || span(&item)) {
                        self.diags.push(d);
                        return None;
                    }
                    push(&mut layouts, self.layout(item));
                }
                Rule::kernel => {
                    kernel_count += 1;
                    if let Some(d) = limits::check_count(Count::Kernels, kernel_count, || span(&item)) {
                        self.diags.push(d);
                        return None;
                    }
                    push(&mut kernels, self.kernel(item));
                }
                Rule::shader => {
                    shader_count += 1;
                    if let Some(d) = limits::check_count(Count::Shaders, shader_count, || span(&item)) {
                        self.diags.push(d);
                        return None;
                    }
                    push(&mut shaders, self.shader(item));
                }
                Rule::unknown_pipeline_item => self.unknown_item(
                    &item,
                    "E0002",
                    "pipeline item",
                    &["targets", "lints", "push_constant", "layout", "kernel", "shader"],
                ),
                _ => {}
            }
        }
        let mut targets = targets?;
        let targets_defaulted = targets.is_empty();
        if targets_defaulted {
            targets.push(Spanned::new("minimum".to_string(), at_start(&pair)));
        }
        Some(Pipeline {
            doc,
            name: name?,
            targets,
            targets_defaulted,
            lints: lints?,
            push_constants: ranges?,
            layouts: layouts?,
            kernels: kernels?,
            shaders: shaders?,
        })
    }

    /// The entries of a `lints` item, the pipeline's or a layout's.
    fn lints(&mut self, item: Pair<Rule>) -> Option<Vec<crate::ast::Lint>> {
        let read: Vec<_> = item.into_inner().filter(|p| p.as_rule() == Rule::lint).map(|p| self.lint(p)).collect();
        read.into_iter().collect()
    }

    /// One `LEVEL CODE` of `lints`.
    fn lint(&mut self, pair: Pair<Rule>) -> Option<crate::ast::Lint> {
        let level = self.word(child(&pair, Rule::lint_level), &names::LINT_LEVELS, "E0008", "lint level");
        let code = child(&pair, Rule::lint_code).map(|c| Spanned::new(c.as_str().to_string(), span(&c)));
        Some(crate::ast::Lint { level: level?, code: code? })
    }

    pub fn unknown_item(&mut self, item: &Pair<Rule>, code: &'static str, what: &str, known: &[&str]) {
        if let Some(word) = child(item, Rule::ident) {
            self.unknown(code, what, word.as_str(), span(&word), known);
        }
    }

    fn range(&mut self, pair: Pair<Rule>) -> Option<Spanned<PushConstantRange>> {
        let stages = self.stage_list(child(&pair, Rule::stage_list));
        let offset = self.number(child(&pair, Rule::offset), "`offset`");
        let size = self.number(child(&pair, Rule::size), "`size`");
        let doc = self.docs.above(pair.as_span().start());
        Some(Spanned::new(PushConstantRange { doc, stages: stages?, offset: offset?, size: size? }, span(&pair)))
    }

    fn layout(&mut self, pair: Pair<'s, Rule>) -> Option<Spanned<Layout>> {
        mark_block(self.docs, Of::Item(span(&pair)), &pair, &pair);
        let name = self.name(child(&pair, Rule::name));
        let stages = self.stage_list(child(&pair, Rule::stage_list));
        let mut seen = Seen::default();
        let (mut flags, mut max_sequences, mut glsl_layout, mut stride, mut align) =
            (Some(vec![]), None, Some(Spanned::new(GlslLayout::Std430, at_start(&pair))), Some(None), Some(None));
        let mut max_sequences_given = false;
        let mut lints = Some(vec![]);
        let mut tokens = Some(Vec::new());
        let mut token_count = 0;
        for item in pair.clone().into_inner() {
            let keyword = item.clone().into_inner().next().map_or(span(&item), |k| span(&k));
            let rule = item.as_rule();
            let setting = match rule {
                Rule::flags => "flags",
                Rule::max_sequences => "max_sequences",
                Rule::glsl_layout => "glsl_layout",
                Rule::stride => "stride",
                Rule::align => "align",
                Rule::lints => "lints",
                _ => "",
            };
            if !setting.is_empty() && !self.first(&mut seen, setting, keyword, "a layout") {
                continue;
            }
            match rule {
                Rule::flags => {
                    let list: Vec<_> = item
                        .into_inner()
                        .filter(|p| p.as_rule() == Rule::flag)
                        .map(|p| self.word(Some(p), &names::FLAGS, "E0008", "layout flag"))
                        .collect();
                    flags = list.into_iter().collect();
                }
                Rule::max_sequences => {
                    max_sequences_given = true;
                    max_sequences = self.number(child(&item, Rule::number), "`max_sequences`");
                }
                Rule::glsl_layout => {
                    glsl_layout =
                        self.word(child(&item, Rule::glsl_value), &names::GLSL_LAYOUTS, "E0008", "GLSL layout")
                }
                Rule::stride => stride = self.number(child(&item, Rule::number), "`stride`").map(Some),
                Rule::align => align = self.number(child(&item, Rule::number), "`align`").map(Some),
                Rule::lints => lints = self.lints(item),
                Rule::token => {
                    token_count += 1;
                    if let Some(d) = limits::check_count(Count::TokensPerLayout, token_count, || span(&item)) {
                        self.diags.push(d);
                        return None;
                    }
                    push(&mut tokens, self.token(item));
                }
                Rule::unknown_layout_item => self.unknown_layout_item(&item),
                _ => {}
            }
        }
        if !max_sequences_given {
            let start = pair.as_span().start();
            let head = child(&pair, Rule::name).map_or(span(&pair), |n| Span::new(start, n.as_span().end()));
            self.diags.push(
                Diagnostic::new("E0003", "a layout needs a `max_sequences N;` setting")
                    .primary(head, "this layout has no `max_sequences`"),
            );
        }
        let doc = self.docs.above(pair.as_span().start());
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
            span(&pair),
        ))
    }

    /// A word that starts no layout item: a misspelt setting (E0002) or token kind (E0005),
    /// whichever it is closest to.
    fn unknown_layout_item(&mut self, item: &Pair<Rule>) {
        const SETTINGS: [&str; 6] = ["flags", "max_sequences", "glsl_layout", "stride", "align", "lints"];
        let Some(word) = child(item, Rule::ident) else { return };
        let kinds = names::token_kinds::names(DSL);
        let all: Vec<&str> = SETTINGS.iter().copied().chain(kinds.iter().copied()).collect();
        let closest = did_you_mean(word.as_str(), all.iter().copied());
        if closest.is_some_and(|c| SETTINGS.contains(&c)) {
            self.unknown("E0002", "layout setting", word.as_str(), span(&word), &SETTINGS);
        } else {
            self.unknown("E0005", "token kind", word.as_str(), span(&word), &kinds);
        }
    }

    fn kernel(&mut self, pair: Pair<'s, Rule>) -> Option<Spanned<Kernel>> {
        let name = self.name(child(&pair, Rule::name));
        let source = child(&pair, Rule::source).and_then(|s| self.string(s));
        let local_size = child(&pair, Rule::local_size).and_then(|l| child(&l, Rule::size3)).and_then(|size3| {
            let axes = ["`local_size.x`", "`local_size.y`", "`local_size.z`"];
            let numbers: Vec<_> = size3
                .clone()
                .into_inner()
                .filter(|p| p.as_rule() == Rule::number)
                .zip(axes)
                .map(|(n, axis)| self.number(Some(n), axis))
                .collect();
            let [x, y, z] = <[Option<Spanned<u32>>; 3]>::try_from(numbers).ok()?;
            Some(Spanned::new([x?.node, y?.node, z?.node], span(&size3)))
        });
        if let Some(block) = child(&pair, Rule::kernel_block) {
            mark_block(self.docs, Of::Item(span(&pair)), &pair, &block);
        }
        let mut subgroup = Some(Spanned::new(SubgroupReq::Any, at_start(&pair)));
        let mut writes = Some(None);
        let mut seen = Seen::default();
        for item in child(&pair, Rule::kernel_block).into_iter().flat_map(|b| b.into_inner()) {
            let keyword = item.clone().into_inner().next().map_or(span(&item), |k| span(&k));
            match item.as_rule() {
                Rule::subgroup if self.first(&mut seen, "subgroup", keyword, "a kernel") => {
                    subgroup = child(&item, Rule::subgroup_form).and_then(|f| self.subgroup(f));
                }
                Rule::writes if self.first(&mut seen, "writes", keyword, "a kernel") => {
                    writes = self.name(child(&item, Rule::name)).map(Some);
                }
                Rule::unknown_kernel_item => {
                    self.unknown_item(&item, "E0002", "kernel setting", &["subgroup", "writes"])
                }
                _ => {}
            }
        }
        let doc = self.docs.above(pair.as_span().start());
        Some(Spanned::new(
            Kernel { doc, name: name?, source: source?, local_size: local_size?, subgroup: subgroup?, writes: writes? },
            span(&pair),
        ))
    }
}

impl<'s> Builder<'s, '_> {
    /// `shader STAGE "source" { attribute location N binding M; … }` or `… ;`.
    fn shader(&mut self, pair: Pair<'s, Rule>) -> Option<Spanned<Shader>> {
        let stage = self.word(child(&pair, Rule::stage), &names::STAGES, "E0006", "stage");
        let source = child(&pair, Rule::source).and_then(|s| self.string(s));
        if let Some(block) = child(&pair, Rule::shader_block) {
            mark_block(self.docs, Of::Item(span(&pair)), &pair, &block);
        }
        let mut attributes = Some(vec![]);
        let mut first_attribute = None;
        for item in child(&pair, Rule::shader_block).into_iter().flat_map(|b| b.into_inner()) {
            match item.as_rule() {
                Rule::attribute => {
                    let keyword = child(&item, Rule::kw_attribute).map_or(span(&item), |k| span(&k));
                    first_attribute.get_or_insert(keyword);
                    let location = self.number(child(&item, Rule::number), "`location`");
                    let binding = self.number(child(&item, Rule::binding), "`binding`");
                    let attribute = location
                        .zip(binding)
                        .map(|(location, binding)| Spanned::new(Attribute { location, binding }, span(&item)));
                    push(&mut attributes, attribute);
                }
                Rule::unknown_shader_item => self.unknown_item(&item, "E0002", "shader setting", &["attribute"]),
                _ => {}
            }
        }
        if let (Some(stage), Some(at)) = (&stage, first_attribute) {
            if stage.node != dgcc_core::stages::Stage::Vertex {
                self.diags.push(crate::syntax::attributes_off_vertex(stage.node, at));
                return None;
            }
        }
        let doc = self.docs.above(pair.as_span().start());
        Some(Spanned::new(Shader { doc, stage: stage?, source: source?, attributes: attributes? }, span(&pair)))
    }
}

/// Appends an item's result; one failed item makes the whole list `None` (its diagnostics
/// are already reported) while the remaining items are still read.
pub fn push<T>(list: &mut Option<Vec<T>>, item: Option<T>) {
    match (item, list.as_mut()) {
        (Some(item), Some(list)) => list.push(item),
        _ => *list = None,
    }
}

fn unicode_escape(chars: &mut std::iter::Peekable<std::str::CharIndices>) -> Option<char> {
    if chars.next()?.1 != '{' {
        return None;
    }
    let mut value = 0u32;
    for digits in 0..7 {
        let (_, c) = chars.next()?;
        if c == '}' {
            return if digits == 0 { None } else { char::from_u32(value) };
        }
        value = value * 16 + c.to_digit(16)?;
    }
    None
}
