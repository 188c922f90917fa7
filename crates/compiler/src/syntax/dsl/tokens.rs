//! From pest pairs to tokens, push-constant fields and types, and subgroup requirements.
//!
//! Why one function per token kind is not needed: every token rule has the same parts (kind
//! keyword, optional name, parameters as tagged sub-rules, optional `@ N`), so one pass
//! gathers the parts by rule and the kind decides which ones it reads. The grammar already
//! guarantees that each kind has exactly its parameters.

use pest::iterators::Pair;

use super::build::{child, push, span, Builder};
use super::Rule;
use crate::ast::{
    Field, FieldType, PushData, PushSpace, Spanned, StageList, SubgroupReq, SubgroupSize, Token, TokenKind,
};
use crate::syntax::comments::Of;
use crate::syntax::limits::{self, Count};
use crate::syntax::names::{self, field_types, token_kinds};
use crate::syntax::SyntaxKind::Dsl as DSL;
use dgcc_core::diag::Diagnostic;

impl<'s> Builder<'s, '_> {
    pub fn token(&mut self, pair: Pair<'s, Rule>) -> Option<Spanned<Token>> {
        let doc = self.docs.above(pair.as_span().start());
        let token_span = span(&pair);
        let inner = pair.clone().into_inner().next()?;
        if let Some(block) = child(&inner, Rule::field_block) {
            super::build::mark_block(self.docs, Of::Item(token_span), &pair, &block);
        }
        let keyword = inner.clone().into_inner().next()?;
        let kind_span = span(&keyword);
        // Every part is read before any failure returns, so that all of them are reported.
        let name = child(&inner, Rule::name).map(|n| self.name(Some(n)));
        let pin = child(&inner, Rule::pin).map(|p| self.number(Some(p), "a pinned offset `@ N`"));
        let kind = match inner.as_rule() {
            Rule::execution_set => {
                let set_kind = self.word(
                    child(&inner, Rule::set_kind),
                    &names::EXECUTION_SET_KINDS,
                    "E0008",
                    "execution set kind",
                );
                let stages = self.stage_list(child(&inner, Rule::stage_list));
                let max_entries = self.number(child(&inner, Rule::max_entries), "`max_entries`");
                let fallback = match child(&inner, Rule::set_fallback) {
                    Some(f) => Some(self.word(
                        f.into_inner().find(|p| p.as_rule() == Rule::fallback_value),
                        &names::SET_FALLBACKS,
                        "E0008",
                        "execution set fallback",
                    )?),
                    None => None,
                };
                TokenKind::ExecutionSet { kind: set_kind?, stages: stages?, max_entries: max_entries?, fallback }
            }
            Rule::push_constant => {
                let stages = self.stage_list(child(&inner, Rule::stage_list));
                let offset = self.number(child(&inner, Rule::offset), "`offset`");
                let data = match child(&inner, Rule::field_block) {
                    Some(block) => self.fields(block).map(PushData::Fields),
                    None => self.number(child(&inner, Rule::size), "`size`").map(PushData::Size),
                };
                TokenKind::PushConstant { stages: stages?, offset: offset?, data: data?, space: PushSpace::Constants }
            }
            Rule::push_data => {
                let offset = self.number(child(&inner, Rule::offset), "`offset`");
                let data = match child(&inner, Rule::field_block) {
                    Some(block) => self.fields(block).map(PushData::Fields),
                    None => self.number(child(&inner, Rule::size), "`size`").map(PushData::Size),
                };
                TokenKind::PushConstant {
                    stages: StageList::default(),
                    offset: offset?,
                    data: data?,
                    space: PushSpace::Data,
                }
            }
            Rule::sequence_index => {
                let stages = self.stage_list(child(&inner, Rule::stage_list));
                let offset = self.number(child(&inner, Rule::offset), "`offset`");
                TokenKind::SequenceIndex { stages: stages?, offset: offset?, space: PushSpace::Constants }
            }
            Rule::push_data_sequence_index => {
                let offset = self.number(child(&inner, Rule::offset), "`offset`");
                TokenKind::SequenceIndex { stages: StageList::default(), offset: offset?, space: PushSpace::Data }
            }
            Rule::index_buffer => {
                let mode =
                    self.word(child(&inner, Rule::index_mode), &names::INDEX_MODES, "E0008", "index buffer mode");
                TokenKind::IndexBuffer { mode: mode? }
            }
            Rule::vertex_buffer => {
                TokenKind::VertexBuffer { binding: self.number(child(&inner, Rule::binding), "`binding`")? }
            }
            _ => match token_kinds::parse(keyword.as_str(), DSL).and_then(TokenKind::parameterless) {
                Some(action) => action,
                None => {
                    // The grammar admits only the table's keywords; a keyword it admits and the
                    // table lacks is reported, never read as some other kind.
                    let known = token_kinds::names(DSL);
                    self.unknown("E0005", "token kind", keyword.as_str(), kind_span, &known);
                    return None;
                }
            },
        };
        let name = match name {
            Some(n) => Some(n?),
            None => None,
        };
        let pin = match pin {
            Some(p) => Some(p?),
            None => None,
        };
        Some(Spanned::new(Token { doc, name, at: pin, kind, kind_span }, token_span))
    }

    fn fields(&mut self, block: Pair<'s, Rule>) -> Option<Vec<Spanned<Field>>> {
        let mut fields = Some(Vec::new());
        for (count, pair) in block.into_inner().filter(|p| p.as_rule() == Rule::field).enumerate() {
            if let Some(d) = limits::check_count(Count::FieldsPerPushConstant, count + 1, || span(&pair)) {
                self.diags.push(d);
                return None;
            }
            let doc = self.docs.above(pair.as_span().start());
            let name = self.name(child(&pair, Rule::name));
            let ty = child(&pair, Rule::field_type).and_then(|t| self.field_type(t));
            let field = match (name, ty) {
                (Some(name), Some(ty)) => Some(Spanned::new(Field { doc, name, ty }, span(&pair))),
                _ => None,
            };
            push(&mut fields, field);
        }
        fields
    }

    /// `T[A][B]`: A arrays of `T[B]`, as in GLSL.
    fn field_type(&mut self, pair: Pair<'s, Rule>) -> Option<Spanned<FieldType>> {
        let base = child(&pair, Rule::type_name)?;
        let mut known = field_types::names(DSL);
        let scalar = match field_types::parse(base.as_str(), DSL) {
            Some(s) => Some(s),
            None => {
                known.push("T[N]");
                self.unknown("E0007", "field type", base.as_str(), span(&base), &known);
                if let (Some(alias), Some(last)) = (names::type_alias(base.as_str(), DSL), self.diags.last_mut()) {
                    if !last.notes.iter().any(|n| n.starts_with("help:")) {
                        last.notes.insert(0, format!("help: did you mean `{alias}`?"));
                    }
                }
                None
            }
        };
        let dimensions: Vec<Pair<Rule>> =
            pair.clone().into_inner().filter(|p| p.as_rule() == Rule::dimension).collect();
        if let Some(excess) = dimensions.get(limits::MAX_ARRAY_DIMENSIONS) {
            self.diags.push(limits::too_many_dimensions(span(excess)));
            return None;
        }
        let lengths: Vec<_> = dimensions.into_iter().map(|d| self.number(Some(d), "an array length")).collect();
        let mut ty = scalar?;
        for len in lengths.into_iter().rev() {
            ty = FieldType::Array(Box::new(ty), len?.node);
        }
        Some(Spanned::new(ty, span(&pair)))
    }

    /// `any`, `varying`, `full`, `required N|min|max [full]`.
    pub fn subgroup(&mut self, form: Pair<'s, Rule>) -> Option<Spanned<SubgroupReq>> {
        let at = span(&form);
        let req = match child(&form, Rule::kw_required) {
            Some(_) => {
                let size_pair = child(&form, Rule::subgroup_size)?;
                let full = child(&form, Rule::kw_full).is_some();
                let size = match child(&size_pair, Rule::number) {
                    Some(n) => SubgroupSize::Fixed(self.number(Some(n), "a subgroup size")?.node),
                    None => match size_pair.as_str() {
                        "min" => SubgroupSize::Min,
                        "max" => SubgroupSize::Max,
                        other => {
                            self.unknown("E0008", "subgroup size", other, span(&size_pair), &["N", "min", "max"]);
                            return None;
                        }
                    },
                };
                SubgroupReq::Required { size, full }
            }
            None => match form.as_str() {
                "any" => SubgroupReq::Any,
                "varying" => SubgroupReq::Varying,
                "full" => SubgroupReq::Full,
                "required" => {
                    self.diags.push(
                        Diagnostic::new("E0003", "`subgroup required` needs a size")
                            .primary(at, "add a size: a number, `min` or `max`")
                            .note("help: `subgroup required 32;` or `subgroup required min full;`"),
                    );
                    return None;
                }
                other => {
                    self.unknown("E0008", "subgroup requirement", other, at, &["any", "varying", "full", "required"]);
                    return None;
                }
            },
        };
        Some(Spanned::new(req, at))
    }
}
