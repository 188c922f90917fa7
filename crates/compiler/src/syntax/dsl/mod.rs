//! The `.dgc` front end: the pest grammar in `grammar/dgc.pest`, and its syntax errors.
//!
//! Why pest and a separate builder: the grammar states the language in one readable file (the
//! book shows it), pest gives byte spans for every pair, and the builder (`build`) turns pairs
//! into the AST while checking what a grammar should not (words of fixed meaning, number
//! ranges, duplicates), so those get their own codes and exact spans and all of them are
//! reported in one run. A syntax error stops the parse (E0001), named in the language's own
//! words (`expected \`;\`, found \`}\``) through `describe`.

mod build;
mod tokens;

use pest::error::{ErrorVariant, InputLocation};
use pest::Parser as _;

use super::docs::Docs;
use crate::ast::Pipeline;
use dgcc_core::diag::Diagnostic;
use dgcc_core::span::Span;

#[derive(pest_derive::Parser)]
#[grammar = "../../../grammar/dgc.pest"]
struct DgcParser;

/// Reads one `.dgc` description. The caller has checked the size and nesting limits.
pub fn parse(source: &str, docs: &Docs) -> Result<Pipeline, Vec<Diagnostic>> {
    let mut pairs = DgcParser::parse(Rule::file, source).map_err(|e| vec![syntax_error(source, &e)])?;
    let file = pairs.next().ok_or_else(Vec::new)?;
    let pipeline = file.into_inner().find(|p| p.as_rule() == Rule::pipeline).ok_or_else(Vec::new)?;
    let mut builder = build::Builder::new(docs);
    match builder.pipeline(pipeline) {
        Some(p) if builder.diags.is_empty() => Ok(p),
        _ => Err(builder.diags),
    }
}

/// E0001 from a pest error: what was expected, what was found, underlining what was found.
fn syntax_error(source: &str, err: &pest::error::Error<Rule>) -> Diagnostic {
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((start, _)) => start,
    }
    .min(source.len());
    let found = found_at(source, pos);
    let found_text =
        if found.start == found.end { "end of file".to_string() } else { format!("`{}`", &source[found.range()]) };
    let expected = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => expected_list(positives),
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let (message, label) = if expected.is_empty() {
        (format!("syntax error: unexpected {found_text}"), "unexpected here".to_string())
    } else {
        (format!("syntax error: expected {expected}, found {found_text}"), format!("expected {expected}"))
    };
    Diagnostic::new("E0001", message).primary(found, label)
}

/// The span of the word, number or character at `pos` (empty at the end of the text).
fn found_at(source: &str, pos: usize) -> Span {
    let rest = &source[pos..];
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let len = match rest.chars().next() {
        None => 0,
        Some(c) if is_word(c) => rest.find(|c: char| !is_word(c)).unwrap_or(rest.len()),
        Some(c) => c.len_utf8(),
    };
    Span::new(pos, pos + len)
}

/// "`;`, a name or `}`" for the rules pest tried at the error position.
fn expected_list(rules: &[Rule]) -> String {
    let mut words: Vec<String> = Vec::new();
    for rule in rules {
        if let Some(word) = describe(*rule) {
            if !words.contains(&word) {
                words.push(word);
            }
        }
    }
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {}", rest.join(", "), last),
    }
}

/// A rule in the language's own words; `None` for rules that only stand for "any word".
fn describe(rule: Rule) -> Option<String> {
    let text = match rule {
        Rule::semi => "`;`",
        Rule::comma => "`,`",
        Rule::colon => "`:`",
        Rule::lbrace | Rule::field_block | Rule::kernel_block | Rule::shader_block => "`{`",
        Rule::rbrace => "`}`",
        Rule::lbracket | Rule::dimension => "`[`",
        Rule::rbracket => "`]`",
        Rule::lparen | Rule::size3 => "`(`",
        Rule::rparen => "`)`",
        Rule::EOI => "end of file",
        Rule::name | Rule::ident => "a name",
        Rule::string => "a string",
        Rule::source => "the shader's path (a string)",
        Rule::number => "a number",
        Rule::stage_list => "a stage list `[…]`",
        Rule::stage => "a stage",
        Rule::pin => "`@`",
        Rule::pipeline => "`pipeline`",
        Rule::targets => "`targets`",
        Rule::lints => "`lints`",
        Rule::lint => "a lint level and code",
        Rule::lint_level => "`allow`, `warn` or `deny`",
        Rule::lint_code => "a diagnostic code",
        Rule::pc_range | Rule::push_constant => "`push_constant`",
        Rule::layout => "`layout`",
        Rule::kernel => "`kernel`",
        Rule::shader => "`shader`",
        Rule::attribute => "`attribute`",
        Rule::flags | Rule::max_sequences | Rule::glsl_layout | Rule::stride | Rule::align => "a layout setting",
        Rule::token
        | Rule::execution_set
        | Rule::sequence_index
        | Rule::index_buffer
        | Rule::vertex_buffer
        | Rule::action
        | Rule::action_kind => "a token",
        Rule::flag => "a flag",
        Rule::glsl_value => "`std430` or `scalar`",
        Rule::set_kind => "`pipelines` or `shader_objects`",
        Rule::index_mode => "`vulkan` or `dxgi`",
        Rule::field => "a field `name: type;`",
        Rule::field_type | Rule::type_name => "a field type",
        Rule::offset => "`offset`",
        Rule::size => "`size`",
        Rule::binding => "`binding`",
        Rule::max_entries => "`max_entries`",
        Rule::local_size => "`local_size`",
        Rule::subgroup => "`subgroup`",
        Rule::writes => "`writes`",
        Rule::subgroup_form => "a subgroup requirement (`any`, `varying`, `full` or `required N`)",
        Rule::subgroup_size => "a subgroup size (a number, `min` or `max`)",
        Rule::kw_full => "`full`",
        Rule::unknown_pipeline_item
        | Rule::unknown_layout_item
        | Rule::unknown_kernel_item
        | Rule::unknown_shader_item
        | Rule::subgroup_word => return None,
        other => return keyword(other),
    };
    Some(text.to_string())
}

/// `kw_offset` → "`offset`".
fn keyword(rule: Rule) -> Option<String> {
    let debug = format!("{rule:?}");
    debug.strip_prefix("kw_").map(|k| format!("`{k}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(src: &str) -> Diagnostic {
        let docs = Docs::new(src, Vec::new());
        parse(src, &docs).unwrap_err().remove(0)
    }

    #[test]
    fn a_missing_semicolon_names_it() {
        let src = "pipeline p { layout L [vertex] { max_sequences 4 } }";
        let d = error(src);
        assert_eq!(d.code, "E0001");
        assert!(d.message.contains("expected `;`, found `}`"), "{}", d.message);
        assert_eq!(&src[d.primary_span().unwrap().range()], "}");
    }

    #[test]
    fn end_of_file_is_an_empty_span() {
        let src = "pipeline p {";
        let d = error(src);
        assert!(d.message.contains("found end of file"), "{}", d.message);
        assert_eq!(d.primary_span(), Some(Span::new(src.len(), src.len())));
    }
}
