//! Every token kind, field type, stage, flag and subgroup form parses in both syntaxes, to
//! equal ASTs holding the expected values.

use std::collections::BTreeSet;

use dgcc::ast::{FieldType, PushData, SubgroupReq, SubgroupSize, TokenKind};
use dgcc::levels::Level;
use dgcc::stages::Stage;
use dgcc::syntax::SyntaxKind;

use crate::{fixture_of, parse_ok, FIXTURES};

#[test]
fn every_fixture_pair_parses_to_equal_asts() {
    for name in FIXTURES {
        let ron = parse_ok(&fixture_of(name, SyntaxKind::Ron), SyntaxKind::Ron);
        let dsl = parse_ok(&fixture_of(name, SyntaxKind::Dsl), SyntaxKind::Dsl);
        assert_eq!(ron, dsl, "fixture {name}: the RON and .dgc spellings differ");
    }
}

#[test]
fn all_kinds_holds_every_kind_once_with_its_values() {
    for kind in crate::BOTH {
        let p = parse_ok(&fixture_of("all_kinds", kind), kind);
        assert_eq!(p.name.node, "all kinds");
        assert_eq!(p.targets.iter().map(|t| t.node.as_str()).collect::<Vec<_>>(), ["minimum", "profiles/my gpu.json"]);
        assert!(!p.targets_defaulted);

        let kinds: BTreeSet<&str> = p.layouts.iter().flat_map(|l| &l.tokens).map(|t| t.kind.variant_name()).collect();
        assert_eq!(kinds.len(), 15, "{kinds:?}");

        let stages: BTreeSet<Stage> =
            p.push_constants.iter().flat_map(|r| r.stages.items.iter().map(|s| s.node)).collect();
        assert_eq!(stages.len(), Stage::ALL.len());

        let graphics = &p.layouts[0];
        assert_eq!(graphics.flags.len(), 2);
        let lints: Vec<(Level, &str)> = graphics.lints.iter().map(|l| (l.level.node, l.code.node.as_str())).collect();
        assert_eq!(lints, [(Level::Warn, "W0005")]);
        assert_eq!(graphics.glsl_layout.node, dgcc::ast::GlslLayout::Scalar);
        assert_eq!((graphics.stride.as_ref().unwrap().node, graphics.align.as_ref().unwrap().node), (256, 16));
        let TokenKind::PushConstant { data: PushData::Fields(fields), offset, .. } = &graphics.tokens[1].kind else {
            panic!("{:?}", graphics.tokens[1]);
        };
        assert_eq!(offset.node, 0);
        assert_eq!(graphics.tokens[1].at.as_ref().unwrap().node, 4);
        let types: Vec<FieldType> = fields.iter().map(|f| f.ty.node.clone()).collect();
        for scalar in FieldType::scalars() {
            assert!(types.contains(&scalar), "{scalar:?} missing");
        }
        let nested = FieldType::Array(Box::new(FieldType::Array(Box::new(FieldType::Vec4), 3)), 2);
        assert!(types.contains(&nested), "`vec4[2][3]` is 2 arrays of `vec4[3]`");
        assert_eq!(fields.last().unwrap().name.node, "with space");
        assert_eq!(fields[0].doc, ["The id."]);

        let subgroups: Vec<SubgroupReq> = p.kernels.iter().map(|k| k.subgroup.node).collect();
        assert_eq!(
            subgroups,
            [
                SubgroupReq::Any,
                SubgroupReq::Varying,
                SubgroupReq::Full,
                SubgroupReq::Required { size: SubgroupSize::Fixed(32), full: false },
                SubgroupReq::Required { size: SubgroupSize::Fixed(16), full: true },
                SubgroupReq::Required { size: SubgroupSize::Min, full: false },
                SubgroupReq::Required { size: SubgroupSize::Max, full: true },
            ]
        );
        assert_eq!(p.kernels[6].doc, ["Writes the mesh stream."]);
        assert_eq!(p.kernels[4].writes.as_ref().unwrap().node, "Graphics");
        assert_eq!(p.kernels[2].local_size.node, [8, 8, 1]);
        assert_eq!(p.layouts[1].tokens[0].name.as_ref().unwrap().node, "vulkan", "a token may be named like a mode");
    }
}

#[test]
fn omitted_values_take_the_contract_defaults() {
    for kind in crate::BOTH {
        let p = parse_ok(&fixture_of("minimal", kind), kind);
        assert!(p.targets_defaulted);
        assert_eq!(p.targets.len(), 1);
        assert_eq!(p.targets[0].node, "minimum");
        assert_eq!(p.targets[0].span.start, p.targets[0].span.end, "a defaulted value has an empty span");
        assert!(p.push_constants.is_empty() && p.kernels.is_empty() && p.doc.is_empty());
        let l = &p.layouts[0];
        assert!(l.flags.is_empty() && l.stride.is_none() && l.align.is_none());
        assert_eq!(l.glsl_layout.node, dgcc::ast::GlslLayout::Std430);
        assert!(l.tokens[0].name.is_none() && l.tokens[0].at.is_none());
        assert_eq!(l.tokens[0].field_name(), "dispatch");
    }
}

#[test]
fn numbers_take_every_spelling_in_dgc() {
    let src =
        "pipeline p { layout L [compute] { max_sequences 0x1_0; stride 1_024; align 0; dispatch @ 4294967295; } }";
    let p = parse_ok(src, SyntaxKind::Dsl);
    let l = &p.layouts[0];
    assert_eq!(l.max_sequences.node, 16);
    assert_eq!(l.stride.as_ref().unwrap().node, 1024);
    assert_eq!(l.tokens[0].at.as_ref().unwrap().node, u32::MAX);
}

#[test]
fn strings_unescape_alike_in_both_syntaxes() {
    let ron = r#"Pipeline(name: "a\"b\\c\n\t\u{e9}", layouts: [])"#;
    let dsl = r#"pipeline "a\"b\\c\n\t\u{e9}" { }"#;
    let (r, d) = (parse_ok(ron, SyntaxKind::Ron), parse_ok(dsl, SyntaxKind::Dsl));
    assert_eq!(r.name.node, "a\"b\\c\n\té");
    assert_eq!(r, d);
}
