//! The rules on a description's `shaders` that need no shader file: a push-constant token for a
//! stage none of them has (W0510), and an input location mapped twice (E0004).
//!
//! Why here and not with the shader checks (`crate::shader::interface`): these read only the
//! description, so they run in every build and in `dgcc check` without the sources (and the
//! test data folder can state them); what the shader files declare is compared there.

use crate::ast::{Pipeline, PushSpace, TokenKind};
use dgcc_core::diag::Diagnostic;
use dgcc_core::stages::StageMask;

pub fn diagnostics(pipeline: &Pipeline) -> Vec<Diagnostic> {
    let mut out = vec![];
    let named = StageMask::of(pipeline.shaders.iter().map(|s| s.stage.node));
    for layout in &pipeline.layouts {
        // A layout is checked only when the description names a shader of its stages: naming
        // the compute shader of a dispatch layout says nothing of a draw layout's shaders.
        if !layout.stages.mask().intersects(named) {
            continue;
        }
        for token in &layout.tokens {
            let stages = match &token.kind {
                TokenKind::PushConstant { stages, space: PushSpace::Constants, .. }
                | TokenKind::SequenceIndex { stages, space: PushSpace::Constants, .. } => stages,
                _ => continue,
            };
            for stage in stages.items.iter().filter(|s| !named.has(s.node)) {
                out.push(
                    Diagnostic::new_by("W0510", |dgc| {
                        format!(
                            "`{}` pushes to the {} stage, which none of the pipeline's shaders has",
                            token.field_name(),
                            dgcc_core::spell::stage(stage.node, dgc)
                        )
                    })
                    .primary(stage.span, "no shader of this stage")
                    .note_by(|dgc| format!("the pipeline's shaders are {}", dgcc_core::spell::stages(named, dgc)))
                    .help_spelled(
                        "give the token the stage of the shader that reads it, or name the missing shader in `shaders`",
                        "give the token the stage of the shader that reads it, or add a `shader` for the missing stage",
                    ),
                );
            }
        }
    }
    for shader in &pipeline.shaders {
        // The first attribute at each location (a map: a shader may list a hundred thousand).
        let mut first_at = std::collections::HashMap::new();
        for a in &shader.attributes {
            let first = *first_at.entry(a.location.node).or_insert(a);
            if !std::ptr::eq(first, a) {
                out.push(
                    Diagnostic::new(
                        "E0004",
                        format!("vertex input location {} is given twice in a shader's attributes", a.location.node),
                    )
                    .primary(a.location.span, "given again here")
                    .secondary(first.location.span, "first given here"),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::syntax::{parse, SyntaxKind};

    #[test]
    fn a_location_given_twice_is_e0004_at_the_second() {
        let src = "pipeline p { shader vertex \"v.vert\" { attribute location 0 binding 0; attribute location 0 binding 1; } }";
        let p = parse(src, SyntaxKind::Dsl).unwrap();
        let d = super::diagnostics(&p);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, "E0004");
        let at = d[0].primary_span().unwrap();
        assert_eq!(&src[at.range()], "0");
        assert!(at.start > src.find("binding 0").unwrap(), "the second one");
    }
}
