//! The names as printed (E0701–E0703, E0706, E0707, E0709): every problem that
//! `crate::names::plan` finds in the identifiers the emitters would print, reported on the
//! names the description wrote.
//!
//! Why after the manifest and not with the other name rules: the printed names are cased,
//! joined and qualified from the compiled layouts (record members included), so the list the
//! emitters spell is only known then. The driver runs this on every compilation, so `dgcc
//! check` and `dgcc compile` refuse the same descriptions, and the emitters, reading the same
//! list, never print a file that redefines a name.

use crate::ast::{Pipeline, PushData, TokenKind};
use crate::names::plan::{Ident, Owner, Problem};
use dgcc_core::diag::Diagnostic;
use dgcc_core::ir::Manifest;
use dgcc_core::span::Span;

/// The description's words for what produced a name.
fn describe(m: &Manifest, owner: &Owner) -> String {
    let layout = |l: usize| m.layouts.get(l).map(|l| l.name.as_str()).unwrap_or("?");
    match owner {
        Owner::Pipeline => format!("pipeline `{}`", m.pipeline),
        Owner::Layout(l) => format!("layout `{}`", layout(*l)),
        Owner::Token(l, t) => {
            let name = m.layouts.get(*l).and_then(|x| x.tokens.get(*t)).map(|t| t.name.as_str()).unwrap_or("?");
            format!("token `{name}` of layout `{}`", layout(*l))
        }
        Owner::Member(l, i) => {
            let Some(rm) = m.layouts.get(*l).and_then(|x| x.record.get(*i)) else { return "a record member".into() };
            match rm.token.and_then(|t| m.layouts[*l].tokens.get(t)) {
                Some(t) => format!("member `{}` of token `{}` (layout `{}`)", rm.name, t.name, layout(*l)),
                None => format!("padding `{}` of layout `{}`", rm.name, layout(*l)),
            }
        }
        Owner::Kernel(k) => format!("kernel `{}`", m.kernels.get(*k).map(|k| k.name.as_str()).unwrap_or("?")),
        Owner::Target(k, t) => {
            format!("target `{t}` of kernel `{}`", m.kernels.get(*k).map(|k| k.name.as_str()).unwrap_or("?"))
        }
        Owner::Fixed => "a name the generated file declares itself".into(),
    }
}

/// Where the description wrote the name that produced an identifier.
fn span(p: &Pipeline, m: &Manifest, owner: &Owner) -> Option<Span> {
    match owner {
        Owner::Pipeline => Some(p.name.span),
        Owner::Layout(l) => p.layouts.get(*l).map(|l| l.node.name.span),
        Owner::Token(l, t) => {
            let t = p.layouts.get(*l)?.node.tokens.get(*t)?;
            Some(t.node.name.as_ref().map(|n| n.span).unwrap_or(t.node.kind_span))
        }
        Owner::Member(l, i) => {
            let layout = p.layouts.get(*l)?;
            let rm = m.layouts.get(*l)?.record.get(*i)?;
            let Some(ti) = rm.token else { return Some(layout.node.name.span) };
            let tok = layout.node.tokens.get(ti)?;
            if let TokenKind::PushConstant { data: PushData::Fields(fs), .. } = &tok.node.kind {
                let k = m.layouts[*l].record.iter().take(*i).filter(|r| r.token == Some(ti)).count();
                if let Some(f) = fs.get(k) {
                    return Some(f.node.name.span);
                }
            }
            span(p, m, &Owner::Token(*l, ti))
        }
        Owner::Kernel(k) => p.kernels.get(*k).map(|k| k.node.name.span),
        Owner::Target(k, t) => p
            .targets
            .iter()
            .find(|x| &x.node == t && !p.targets_defaulted)
            .map(|x| x.span)
            .or_else(|| span(p, m, &Owner::Kernel(*k))),
        Owner::Fixed => None,
    }
}

fn clash_code(a: &Owner, b: &Owner) -> &'static str {
    match (a, b) {
        (Owner::Layout(_), Owner::Layout(_)) => "E0701",
        (Owner::Kernel(_), Owner::Kernel(_)) => "E0702",
        (Owner::Token(l, _), Owner::Token(k, _)) if l == k => "E0703",
        _ => "E0707",
    }
}

fn labelled(d: Diagnostic, s: Option<Span>, primary: bool, label: String) -> Diagnostic {
    match (s, primary) {
        (Some(s), true) => d.primary(s, label),
        (Some(s), false) => d.secondary(s, label),
        (None, _) => d.note(label),
    }
}

fn in_what(id: &Ident) -> String {
    if id.scope.is_empty() {
        format!("the generated {}", id.lang.name())
    } else {
        format!("`{}` of the generated {}", id.scope, id.lang.name())
    }
}

/// Diagnostics for every problem with the printed names of `m`, which `problems` lists
/// (`names::plan::problems(m)`).
pub fn diagnostics(p: &Pipeline, m: &Manifest, problems: &[Problem]) -> Vec<Diagnostic> {
    let mut out = vec![];
    for problem in problems {
        let d = match problem {
            Problem::Clash { first, second } => {
                let (a, b) = (describe(m, &first.owner), describe(m, &second.owner));
                let both = if first.owner == Owner::Fixed {
                    format!("{b} is spelled `{}` in {}, a name the file declares itself", second.name, in_what(second))
                } else if first.is_macro && first.scope != second.scope {
                    format!("{b} is spelled `{}` in {}, which the macro of {a} replaces", second.name, in_what(second))
                } else {
                    format!("{a} and {b} are both spelled `{}` in {}", second.name, in_what(second))
                };
                let d = Diagnostic::new(clash_code(&first.owner, &second.owner), both);
                let d = labelled(d, span(p, m, &second.owner), true, format!("spelled `{}`", second.name));
                let d = if first.owner == Owner::Fixed {
                    d
                } else {
                    labelled(d, span(p, m, &first.owner), false, format!("also spelled `{}`", first.name))
                };
                d.note("generated names are cased from the description's (`SceneDraw`, `scene_draw`, `SCENE_DRAW`) and joined with `_` (`<LAYOUT>_<TOKEN>_OFFSET`), so names that differ as written can meet")
                    .note("help: rename one of them")
            }
            Problem::Reserved { ident, .. } => {
                let d = Diagnostic::new(
                    "E0706",
                    format!("{} cannot be used in generated code: {}", describe(m, &ident.owner), problem.message()),
                );
                labelled(
                    d,
                    span(p, m, &ident.owner),
                    true,
                    format!("becomes `{}` in {}", ident.name, ident.lang.name()),
                )
                .note("help: use another name")
            }
            Problem::TooLong { ident, limit } => {
                let d = Diagnostic::new(
                    "E0709",
                    format!("{} is too long for generated code", describe_short(m, &ident.owner)),
                );
                labelled(
                    d,
                    span(p, m, &ident.owner),
                    true,
                    format!("gives a {}-character name in {}", ident.name.len(), ident.lang.name()),
                )
                .note(problem.message())
                .note(format!(
                    "help: shorten the name so that what dgcc prints from it stays within {limit} characters"
                ))
            }
        };
        out.push(d);
    }
    out
}

/// [`describe`] without quoting a name that may be thousands of characters long.
fn describe_short(m: &Manifest, owner: &Owner) -> String {
    let full = describe(m, owner);
    if full.chars().count() <= 120 {
        return full;
    }
    let kind = full.split(' ').next().unwrap_or("name");
    format!("a {kind} name")
}
