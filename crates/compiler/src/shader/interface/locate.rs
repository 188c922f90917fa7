//! Where a GLSL shader declares what the SPIR-V says it has: the `push_constant` block, each of
//! its members by name, each `layout(location = N) in` input, and where it first reads
//! `gl_InstanceIndex` and `gl_DrawID`. Diagnostics point there.
//!
//! Why on the kernel lints' tokens and not naga's GLSL front end: naga's GLSL reader refuses
//! `layout(offset = N)` on block members (which is how a push-constant block reaches a token's
//! bytes past 0), `#include` and most extensions, so it cannot place the shaders these checks
//! are for. The facts come from the SPIR-V (`reflect`); this only finds the text of a name the
//! SPIR-V gives, so a shader whose declarations come from a macro or an include simply has no
//! place here, and its diagnostics point at the description's `source` instead.

use crate::shader::lint::{tokenize, Kind, Tok};
use dgcc_core::span::Span;

/// The places of one shader's declarations.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Places {
    /// `layout(push_constant) uniform Name`.
    pub block: Option<Span>,
    /// Each member's name inside the block's braces, with its span.
    pub members: Vec<(String, Span)>,
    /// Each input's location and its declaration, `layout(…)` to the name.
    pub inputs: Vec<(u32, Span)>,
    /// The first `gl_InstanceIndex` outside a comment.
    pub instance_index: Option<Span>,
    /// The first `gl_DrawID` (or `gl_DrawIDARB`) outside a comment.
    pub draw_id: Option<Span>,
}

impl Places {
    pub(crate) fn member(&self, name: &str) -> Option<Span> {
        self.members.iter().find(|(n, _)| n == name).map(|(_, s)| *s)
    }
    pub(crate) fn input(&self, location: u32) -> Option<Span> {
        self.inputs.iter().find(|(l, _)| *l == location).map(|(_, s)| *s)
    }
}

fn is(t: Option<&Tok>, text: &str) -> bool {
    t.is_some_and(|t| t.text == text)
}

pub(crate) fn places(src: &str) -> Places {
    let t = tokenize(src);
    let mut out = Places::default();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        match t[i].text.as_str() {
            "{" => depth += 1,
            "}" => depth = depth.saturating_sub(1),
            "push_constant" if depth == 0 && out.block.is_none() => {
                if let Some(end) = push_block(&t, i, &mut out) {
                    i = end;
                    continue;
                }
            }
            "gl_InstanceIndex" if out.instance_index.is_none() => out.instance_index = Some(t[i].span()),
            "gl_DrawID" | "gl_DrawIDARB" if out.draw_id.is_none() => out.draw_id = Some(t[i].span()),
            "in" if depth == 0 => {
                if let Some(input) = input(&t, i) {
                    out.inputs.push(input);
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The block whose `layout(…push_constant…)` is at token `at`; the index after its `}`.
fn push_block(t: &[Tok], at: usize, out: &mut Places) -> Option<usize> {
    let layout = (0..at).rev().take(8).find(|&j| t[j].text == "layout")?;
    let open = (at..t.len()).find(|&j| t[j].text == "{")?;
    let head_end = if open > 0 && t[open - 1].kind == Kind::Ident { t[open - 1].span() } else { t[at].span() };
    out.block = Some(t[layout].span().to(head_end));
    let mut depth = 0usize;
    for (j, tok) in t.iter().enumerate().skip(open) {
        match tok.text.as_str() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            // A declarator: a name followed by `;`, `,` or `[` (array dimensions).
            _ if depth == 1
                && tok.kind == Kind::Ident
                && (is(t.get(j + 1), ";") || is(t.get(j + 1), ",") || is(t.get(j + 1), "[")) =>
            {
                out.members.push((tok.text.clone(), tok.span()));
            }
            _ => {}
        }
    }
    None
}

/// `layout(… location = N …) [qualifiers] in TYPE NAME` with `in` at token `at`.
fn input(t: &[Tok], at: usize) -> Option<(u32, Span)> {
    const QUALIFIERS: [&str; 8] =
        ["flat", "smooth", "noperspective", "centroid", "sample", "patch", "invariant", "precise"];
    let mut j = at.checked_sub(1)?;
    while QUALIFIERS.contains(&t[j].text.as_str()) {
        j = j.checked_sub(1)?;
    }
    if t[j].text != ")" {
        return None;
    }
    let close = j;
    let open = (0..close).rev().find(|&k| t[k].text == "(")?;
    let layout = open.checked_sub(1).filter(|&k| t[k].text == "layout")?;
    let location = (open..close).find_map(|k| match (&t[k].text[..], t.get(k + 1), t.get(k + 2)) {
        ("location", Some(eq), Some(Tok { kind: Kind::Int(n), .. })) if eq.text == "=" => u32::try_from(*n).ok(),
        _ => None,
    })?;
    let name = (at..t.len()).take(8).find(|&k| is(t.get(k + 1), ";") || is(t.get(k + 1), "["))?;
    Some((location, t[layout].span().to(t[name].span())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_members_and_inputs_are_found_where_they_are_written() {
        let src = "#version 450\n// layout(push_constant) in a comment\nlayout(location = 0) in vec3 pos;\nlayout(location=2) flat in uint ids[2];\nlayout(push_constant, std430) uniform Push {\n    uint object_id;\n    layout(offset = 8) float scale, bias;\n    vec4 tint[2];\n} pc;\nlayout(location = 0) out vec4 colour;\nvoid f(in vec3 x) { }\n";
        let p = places(src);
        let text = |s: Span| &src[s.range()];
        assert_eq!(text(p.block.unwrap()), "layout(push_constant, std430) uniform Push");
        let names: Vec<&str> = p.members.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["object_id", "scale", "bias", "tint"]);
        assert_eq!(text(p.member("scale").unwrap()), "scale");
        assert_eq!(p.inputs.len(), 2, "{:?}", p.inputs);
        assert_eq!(text(p.input(0).unwrap()), "layout(location = 0) in vec3 pos");
        assert_eq!(text(p.input(2).unwrap()), "layout(location=2) flat in uint ids");
        assert_eq!(p.input(1), None);
        assert_eq!(p.instance_index, None);
    }

    #[test]
    fn the_first_instance_index_outside_comments_is_found() {
        let src = "// gl_InstanceIndex in a comment\nvoid main() {\n    uint id = uint(gl_InstanceIndex);\n    id += gl_InstanceIndex;\n}\n";
        let p = places(src);
        let at = p.instance_index.unwrap();
        assert_eq!(&src[at.range()], "gl_InstanceIndex");
        assert_eq!(at.start, src.find("uint(gl_").unwrap() + 5);
        assert_eq!(p.draw_id, None);
    }

    #[test]
    fn the_first_draw_id_outside_comments_is_found_in_either_spelling() {
        let src =
            "// gl_DrawID in a comment\nvoid main() {\n    uint id = uint(gl_DrawIDARB);\n    id += gl_DrawID;\n}\n";
        let at = places(src).draw_id.unwrap();
        assert_eq!(&src[at.range()], "gl_DrawIDARB");
        assert_eq!(at.start, src.find("uint(gl_").unwrap() + 5);
    }

    #[test]
    fn a_shader_without_either_has_no_places() {
        assert_eq!(places("void main() { gl_Position = vec4(0); }"), Places::default());
    }
}
