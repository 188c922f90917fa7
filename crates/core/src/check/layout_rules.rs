//! Rules about one layout that hold on every device: token order and counts, which tokens a
//! stage set allows, offsets, and the few numbers that are wrong whatever the target.
//!
//! Why they read a `CompiledLayout` and not the AST: the runtime loads manifests, which may be
//! written by an older dgcc or edited by hand, and must refuse a broken layout with the same
//! codes `dgcc check` uses. Everything here is decided from the manifest's numbers alone.
//!
//! Stage rules: a token gets every stage rule it breaks, as the validation layers report each
//! (a `Dispatch` in a graphics layout breaks both 11105 and 11109: E0111 and E0115);
//! layout-wide stage rules (empty, mixed groups, fragment alone) are reported once.

use super::finding::{Finding, Location, TokenPart};
use crate::ir::{CompiledLayout, CompiledToken, TokenType};
use crate::spell;
use crate::stages::StageMask;

/// Graphics stages as VUID 11104 and 11109 mean them: the vertex pipeline and task/mesh.
pub(crate) const GRAPHICS: u32 = 0x1F | 0xC0;
pub(crate) const COMPUTE: u32 = 0x20;
pub(crate) const RAY_TRACING: u32 = 0x3F00;
const FRAGMENT: u32 = 0x10;
const VERTEX: u32 = 0x1;
const MESH: u32 = 0x80;
/// `VK_INDIRECT_COMMANDS_LAYOUT_USAGE_UNORDERED_SEQUENCES_BIT_EXT`.
const UNORDERED_SEQUENCES: u32 = 0x2;
/// `VK_SHADER_STAGE_ALL`: the stages of every push-data range (11333), and a stage group of its
/// own for a layout's stages under descriptor heaps (11112).
pub(crate) const ALL_STAGES: u32 = 0x7FFF_FFFF;
/// The stage groups of VUID 11112: a layout's stages come from exactly one.
const GROUPS: [(u32, &str); 4] = [
    (0x1F, "graphics (Vertex, TessControl, TessEval, Geometry, Fragment)"),
    (COMPUTE, "compute"),
    (0xC0 | FRAGMENT, "mesh (Task, Mesh, Fragment)"),
    (RAY_TRACING, "ray tracing"),
];

/// The variant name a description uses for a token type (`DrawIndexed`): its row of the token
/// table.
pub const fn written_name(tt: TokenType) -> &'static str {
    tt.ron_name()
}

/// How messages name a token: "`draw` (DrawIndexed)" in RON's spelling, "`draw` (draw_indexed)"
/// in the `.dgc` language's.
pub(crate) fn show_in(t: &CompiledToken, dgc: bool) -> String {
    format!("`{}` ({})", t.name, spell::token(t.token_type, dgc))
}

fn kind(i: usize) -> Location {
    Location::token(i, TokenPart::Kind)
}

/// The action token the layout-wide rules talk about: the last action in the list.
pub(crate) fn action_index(layout: &CompiledLayout) -> Option<usize> {
    layout.tokens.iter().rposition(|t| t.token_type.is_action())
}

/// Every device-independent rule about one layout except push constants (`push_rules`).
pub fn structure_findings(layout: &CompiledLayout) -> Vec<Finding> {
    let mut out = vec![];
    order(layout, &mut out);
    stages(layout, &mut out);
    set_stages(layout, &mut out);
    offsets(layout, &mut out);
    numbers(layout, &mut out);
    out
}

/// Exactly one action, last (11100); execution set at most once and first (11093, 11139);
/// one sequence index (11145); index and vertex buffers only with the draws that use them.
fn order(layout: &CompiledLayout, out: &mut Vec<Finding>) {
    let tokens = &layout.tokens;
    let of = |tt: TokenType| -> Vec<usize> { (0..tokens.len()).filter(|&i| tokens[i].token_type == tt).collect() };
    let actions: Vec<usize> = (0..tokens.len()).filter(|&i| tokens[i].token_type.is_action()).collect();
    let last = tokens.len().saturating_sub(1);
    if tokens.is_empty() {
        out.push(
            Finding::new("E0109", Location::Layout, format!("layout `{}` has no tokens", layout.name))
                .label("tokenCount = 0")
                .note("a layout is the list of tokens of one sequence; the list must not be empty")
                .help_spelled(
                    "list the tokens of one sequence, ending with its action, e.g. `tokens: [Draw]`",
                    "list the tokens of one sequence, ending with its action, e.g. `draw;`",
                ),
        );
    } else if actions.is_empty() {
        out.push(
            Finding::new("E0101", Location::Layout, format!("layout `{}` has no action token", layout.name))
                .label_by(|dgc| spell::text("no Draw, Dispatch, DrawMeshTasks or TraceRays2 token", dgc))
                .note("each sequence ends with exactly one action command; without one the layout does nothing")
                .help_spelled(
                    "end `tokens` with the command each sequence runs, e.g. `DrawIndexed` or `Dispatch`",
                    "end the tokens with the command each sequence runs, e.g. `draw_indexed;` or `dispatch;`",
                ),
        );
    }
    for &a in &actions {
        if a == last {
            continue;
        }
        let f = if tokens[last].token_type.is_action() {
            Finding::new_by("E0102", kind(a), |dgc| {
                format!(
                    "{} is a second action token; a layout has exactly one, the last token",
                    show_in(&tokens[a], dgc)
                )
            })
            .label("extra action token")
            .related(kind(last), "the layout's action")
            .help("split the layout in two, one per action")
        } else {
            Finding::new_by("E0102", kind(a), |dgc| {
                format!("the action token {} must be the last token", show_in(&tokens[a], dgc))
            })
            .label("action token before the end")
            .related_by(kind(last), |dgc| format!("{} comes after it", show_in(&tokens[last], dgc)))
            .note("state tokens after the action would apply to nothing: all state changes precede the action")
            .help_spelled(
                format!("move `{}` to the end of `tokens`", tokens[a].name),
                format!("move `{}` to the end of the layout", tokens[a].name),
            )
        };
        out.push(f);
    }

    let sets = of(TokenType::ExecutionSet);
    for &s in sets.iter().skip(1) {
        out.push(
            Finding::new("E0103", kind(s), format!("layout `{}` has more than one execution set token", layout.name))
                .label_by(|dgc| spell::text("second ExecutionSet", dgc))
                .related(kind(sets[0]), "the first one")
                .help_by(|dgc| {
                    spell::text("a sequence binds one pipeline or shader set; keep one ExecutionSet token", dgc)
                }),
        );
    }
    if let Some(&s) = sets.first() {
        if s != 0 {
            out.push(
                Finding::new_by("E0104", kind(s), |dgc| {
                    format!("the execution set token {} must be the first token", show_in(&tokens[s], dgc))
                })
                .label(format!("token {} of {}", s + 1, tokens.len()))
                .related_by(kind(0), |dgc| format!("{} comes first", show_in(&tokens[0], dgc)))
                .note("binding a pipeline invalidates the state set before it, so the set is bound first")
                .help_spelled(
                    format!("move `{}` to the start of `tokens`", tokens[s].name),
                    format!("move `{}` to the start of the layout", tokens[s].name),
                ),
            );
        }
    }

    let seq = of(TokenType::SequenceIndex);
    for &s in seq.iter().skip(1) {
        out.push(
            Finding::new("E0105", kind(s), format!("layout `{}` has more than one sequence index token", layout.name))
                .label_by(|dgc| spell::text("second SequenceIndex", dgc))
                .related(kind(seq[0]), "the first one")
                .note("this also breaks VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11094 (at most one SEQUENCE_INDEX or PUSH_DATA_SEQUENCE_INDEX token)")
                .help("every sequence index token pushes the same value; keep one and read it where needed"),
        );
    }

    // 11094: one token of either sequence-index kind. Two SEQUENCE_INDEX tokens are E0105
    // (which names 11094 too); a pair with a PUSH_DATA_SEQUENCE_INDEX is this rule alone.
    let any_seq: Vec<usize> = (0..tokens.len()).filter(|&i| tokens[i].token_type.is_sequence_index()).collect();
    for &s in any_seq.iter().skip(1) {
        let first = any_seq[0];
        let both_plain = tokens[s].token_type == TokenType::SequenceIndex && seq.first() != Some(&s) && seq.len() > 1;
        if both_plain {
            continue;
        }
        out.push(
            Finding::new_by("E0124", kind(s), |dgc| {
                format!("{} is a second token that pushes the sequence index", show_in(&tokens[s], dgc))
            })
            .label("second sequence index")
            .related_by(kind(first), |dgc| format!("{} pushes it already", show_in(&tokens[first], dgc)))
            .note("a layout has at most one SEQUENCE_INDEX or PUSH_DATA_SEQUENCE_INDEX token")
            .help("keep one; every sequence-index token pushes the same value"),
        );
    }

    let index_buffers = of(TokenType::IndexBuffer);
    for &ib in index_buffers.iter().skip(1) {
        out.push(
            Finding::new("W0001", kind(ib), format!("layout `{}` binds the index buffer twice", layout.name))
                .label_by(|dgc| spell::text("second IndexBuffer", dgc))
                .related(kind(index_buffers[0]), "the first one")
                .note("the spec no longer forbids this, but the validation layers still report it as VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11094 (its pre-1.4.340 meaning), and only the last binding is used")
                .help_by(|dgc| spell::text("keep one IndexBuffer token", dgc)),
        );
    }
    let action = action_index(layout);
    if let Some(a) = action {
        let tt = tokens[a].token_type;
        if !tt.is_indexed_draw() {
            for &ib in &index_buffers {
                out.push(
                    Finding::new_by("E0106", kind(ib), |dgc| {
                        format!(
                            "an index buffer token needs an indexed draw, but the action is {}",
                            show_in(&tokens[a], dgc)
                        )
                    })
                    .label_by(|dgc| spell::text("IndexBuffer", dgc))
                    .related_by(kind(a), |dgc| spell::text("not DrawIndexed or DrawIndexedCount", dgc))
                    .help_spelled(
                        if tt.is_vertex_draw() {
                            "use `DrawIndexed` (or `DrawIndexedCount`) as the action, or remove the IndexBuffer token"
                        } else {
                            "remove the IndexBuffer token"
                        },
                        if tt.is_vertex_draw() {
                            "use `draw_indexed` (or `draw_indexed_count`) as the action, or remove the `index_buffer` token"
                        } else {
                            "remove the `index_buffer` token"
                        },
                    ),
                );
            }
        }
        if !tt.is_vertex_draw() {
            for vb in of(TokenType::VertexBuffer) {
                out.push(
                    Finding::new_by("E0107", kind(vb), |dgc| {
                        format!(
                            "a vertex buffer token needs a vertex draw, but the action is {}",
                            show_in(&tokens[a], dgc)
                        )
                    })
                    .label_by(|dgc| spell::text("VertexBuffer", dgc))
                    .related_by(kind(a), |dgc| {
                        if dgc {
                            "not draw, draw_indexed or their _count forms"
                        } else {
                            "not Draw, DrawIndexed or their Count forms"
                        }
                        .to_string()
                    })
                    .note(if tt.is_mesh() {
                        "mesh shaders fetch their own data: there is no vertex input to bind"
                    } else {
                        "only vertex-pipeline draws read vertex buffers"
                    })
                    .help_by(|dgc| spell::text("remove the VertexBuffer token", dgc)),
                );
            }
        }
    }
    let mut first_use: std::collections::HashMap<Option<u32>, usize> = std::collections::HashMap::new();
    for j in of(TokenType::VertexBuffer) {
        let bj = tokens[j].vertex_binding;
        if let Some(&i) = first_use.get(&bj) {
            let b = bj.map(|b| b.to_string()).unwrap_or_else(|| "?".into());
            out.push(
                Finding::new(
                    "E0108",
                    Location::token(j, TokenPart::Binding),
                    format!("vertex binding {b} is bound twice"),
                )
                .label(format!("binding {b} again"))
                .related(Location::token(i, TokenPart::Binding), "first bound here")
                .help_by(|dgc| spell::text("give each VertexBuffer token its own binding", dgc)),
            );
        } else {
            first_use.insert(bj, j);
        }
    }
}

/// A stage list as a description writes it: `[Vertex, Fragment]`, or `[vertex, fragment]`.
fn stage_list_written(mask: u32, dgc: bool) -> String {
    let names: Vec<String> = StageMask(mask).stages().map(|st| spell::stage(st, dgc)).collect();
    format!("[{}]", names.join(", "))
}

/// 11104–11113 and the empty stage list.
fn stages(layout: &CompiledLayout, out: &mut Vec<Finding>) {
    let s = layout.shader_stages;
    if s == 0 {
        out.push(
            Finding::new("E0120", Location::LayoutStages, format!("layout `{}` has no stages", layout.name))
                .label("empty")
                .help_spelled(
                "list the shader stages of the pipelines this layout runs with, e.g. `[Vertex, Fragment]` or `[Compute]`",
                "list the shader stages of the pipelines this layout runs with, e.g. `[vertex, fragment]` or `[compute]`",
            ),
        );
        return;
    }
    if s != ALL_STAGES && !GROUPS.iter().any(|(g, _)| s & !g == 0) {
        let present = |dgc: bool| -> Vec<String> {
            GROUPS.iter().filter(|(g, _)| s & g != 0).map(|(_, n)| spell::text(n, dgc)).collect()
        };
        out.push(
            Finding::new_by("E0118", Location::LayoutStages, |dgc| {
                format!("layout `{}` mixes stage groups: {}", layout.name, spell::stages(StageMask(s), dgc))
            })
            .label_by(|dgc| format!("stages from {}", present(dgc).join(" and ")))
            .note_by(|dgc| {
                spell::text(
                    "a layout drives one kind of pipeline: graphics, compute, mesh (with Fragment) or ray tracing",
                    dgc,
                )
            })
            .help("keep the stages of one group; use a second layout for the other"),
        );
    }
    if s & FRAGMENT != 0 && s & (VERTEX | MESH) == 0 {
        out.push(
            Finding::new_by("E0119", Location::LayoutStages, |dgc| {
                format!("layout `{}` has {}", layout.name, spell::text("Fragment without Vertex or Mesh", dgc))
            })
            .label_by(|dgc| spell::stages(StageMask(s), dgc))
            .help_spelled("add `Vertex` (or `Mesh` for mesh shading)", "add `vertex` (or `mesh` for mesh shading)"),
        );
    }
    for (i, t) in layout.tokens.iter().enumerate() {
        for f in token_stage_rules(layout, i, t) {
            out.push(f);
        }
    }
}

/// An execution set's stages against its layout's: a set that binds a stage the layout does not
/// run (E0613), and a pipeline set of a graphics layout whose pipelines would have no vertex or
/// mesh stage (E0614). No creation-time rule names either, but neither layout can ever execute:
/// the set's initial pipeline or shaders have exactly the token's stages (11002) and are bound
/// at every execute (11053), and a sequence runs only its layout's stages.
fn set_stages(layout: &CompiledLayout, out: &mut Vec<Finding>) {
    let s = layout.shader_stages;
    if s == 0 {
        return; // E0120
    }
    for (i, t) in layout.tokens.iter().enumerate() {
        let Some(set) = &t.execution_set else { continue };
        let at = Location::token(i, TokenPart::Stages);
        let outside = set.stages & !s;
        if outside != 0 {
            let inside = set.stages & s;
            let layout_name = layout.name.clone();
            out.push(
                Finding::new_by("E0613", at, |dgc| {
                    format!(
                        "execution set `{}` binds {}, which layout `{}` does not run",
                        t.name,
                        spell::stages(StageMask(outside), dgc),
                        layout.name
                    )
                })
                .label_by(|dgc| format!("{} not in the layout's stages", spell::stages(StageMask(outside), dgc)))
                .related_by(Location::LayoutStages, |dgc| format!("layout stages {}", spell::stages(StageMask(s), dgc)))
                .note("a sequence runs only the stages its layout was created with, and the set's initial pipeline or shaders, bound at every execute, have exactly the token's stages (VUID-VkGeneratedCommandsInfoEXT-indirectCommandsLayout-11002)")
                .help_by(move |dgc| {
                    if inside != 0 {
                        format!(
                            "give the set the layout's stages it binds, `{}`, or add {} to layout `{layout_name}`",
                            stage_list_written(inside, dgc),
                            spell::stages(StageMask(outside), dgc)
                        )
                    } else {
                        format!(
                            "a set binds stages of its own layout: `{}` here",
                            stage_list_written(s, dgc)
                        )
                    }
                }),
            );
        }
        let graphics = s & GRAPHICS != 0;
        if set.kind == 0 && graphics && set.stages != 0 && set.stages & (VERTEX | MESH) == 0 {
            out.push(
                Finding::new_by("E0614", at, |dgc| {
                    format!(
                        "pipeline execution set `{}` binds {} alone: a graphics pipeline has a {} stage",
                        t.name,
                        spell::stages(StageMask(set.stages), dgc),
                        spell::text("Vertex or Mesh", dgc)
                    )
                })
                .label_by(|dgc| format!("no {} stage", spell::text(if s & MESH != 0 { "Mesh" } else { "Vertex" }, dgc)))
                .note("the set's initial pipeline must have exactly the token's stages, and every graphics pipeline has a vertex or mesh shader (VUID-VkGraphicsPipelineCreateInfo-stage-02096)")
                .help_spelled(
                    "list every stage of the set's pipelines, e.g. `[Vertex, Fragment]`, or use `kind: ShaderObjects` to change only these stages",
                    "list every stage of the set's pipelines, e.g. `[vertex, fragment]`, or use `shader_objects` to change only these stages",
                ),
            );
        }
    }
}

/// Every stage rule (11104–11111) the token breaks: the validation layers report each one, so
/// dgcc does too rather than stopping at the first.
fn token_stage_rules(layout: &CompiledLayout, i: usize, t: &CompiledToken) -> Vec<Finding> {
    let mut out = vec![];
    let s = layout.shader_stages;
    let tt = t.token_type;
    let have = |dgc: bool| spell::stages(StageMask(s), dgc);
    // `what` and `help` as RON writes them, and as `.dgc` does.
    let needs = |code: &'static str, what: [&str; 2], help: [&str; 2]| {
        Some(
            Finding::new_by(code, kind(i), |dgc| {
                format!(
                    "{} needs {}, but the layout's stages are {}",
                    show_in(t, dgc),
                    what[usize::from(dgc)],
                    have(dgc)
                )
            })
            .label_by(|dgc| format!("needs {}", what[usize::from(dgc)]))
            .related(Location::LayoutStages, "layout stages")
            .help_by(|dgc| help[usize::from(dgc)].to_string()),
        )
    };
    let graphics_token =
        tt.is_vertex_draw() || tt.is_mesh() || matches!(tt, TokenType::IndexBuffer | TokenType::VertexBuffer);
    if graphics_token && s & GRAPHICS == 0 {
        out.extend(needs(
            "E0110",
            ["graphics stages"; 2],
            ["use graphics stages, e.g. `[Vertex, Fragment]`", "use graphics stages, e.g. `[vertex, fragment]`"],
        ));
    }
    if tt == TokenType::Dispatch && s != COMPUTE {
        out.extend(needs(
            "E0111",
            ["the stages to be exactly [Compute]", "the stages to be exactly [compute]"],
            ["set the layout's `stages: [Compute]`", "set the layout's stages to `[compute]`"],
        ));
    }
    if matches!(tt, TokenType::DrawMeshTasks | TokenType::DrawMeshTasksCount) && s & MESH == 0 {
        out.extend(needs(
            "E0112",
            ["the Mesh stage", "the mesh stage"],
            [
                "add `Mesh` to the layout's stages, e.g. `[Task, Mesh, Fragment]`",
                "add `mesh` to the layout's stages, e.g. `[task, mesh, fragment]`",
            ],
        ));
    }
    if matches!(tt, TokenType::DrawMeshTasksNv | TokenType::DrawMeshTasksCountNv) && s & MESH == 0 {
        out.extend(needs(
            "E0113",
            ["the Mesh stage", "the mesh stage"],
            [
                "add `Mesh` to the layout's stages, e.g. `[Task, Mesh, Fragment]`",
                "add `mesh` to the layout's stages, e.g. `[task, mesh, fragment]`",
            ],
        ));
    }
    if tt == TokenType::TraceRays2 && s & RAY_TRACING == 0 {
        out.extend(needs(
            "E0114",
            ["ray tracing stages"; 2],
            [
                "use ray tracing stages, e.g. `[RayGen, Miss, ClosestHit]`",
                "use ray tracing stages, e.g. `[ray_gen, miss, closest_hit]`",
            ],
        ));
    }
    let forbids = |code: &'static str, group: &str, allowed: &str| {
        Some(
            Finding::new_by(code, kind(i), |dgc| {
                format!("{} is not allowed in a layout with {group} stages ({})", show_in(t, dgc), have(dgc))
            })
            .label(format!("not allowed with {group} stages"))
            .related(Location::LayoutStages, "layout stages")
            .note_by(|dgc| format!("{group} layouts allow only {}", spell::text(allowed, dgc))),
        )
    };
    if s & GRAPHICS != 0 && matches!(tt, TokenType::Dispatch | TokenType::TraceRays2) {
        out.extend(forbids("E0115", "graphics", "graphics state tokens and draws"));
    }
    let general =
        matches!(tt, TokenType::ExecutionSet | TokenType::PushConstant | TokenType::SequenceIndex) || tt.is_push_data();
    if s & COMPUTE != 0 && !(general || tt == TokenType::Dispatch) {
        out.extend(forbids(
            "E0116",
            "compute",
            "ExecutionSet, PushConstant, SequenceIndex, PushData, PushDataSequenceIndex and Dispatch",
        ));
    }
    if s & RAY_TRACING != 0 && !(general || tt == TokenType::TraceRays2) {
        out.extend(forbids(
            "E0117",
            "ray tracing",
            "ExecutionSet, PushConstant, SequenceIndex, PushData, PushDataSequenceIndex and TraceRays2",
        ));
    }
    out
}

/// 11103 (in order) and 11125 (4-aligned).
fn offsets(layout: &CompiledLayout, out: &mut Vec<Finding>) {
    for (i, t) in layout.tokens.iter().enumerate() {
        if i > 0 {
            let p = &layout.tokens[i - 1];
            if t.offset < p.offset {
                out.push(
                    Finding::new(
                        "E0130",
                        Location::token(i, TokenPart::Offset),
                        format!("`{}` at offset {} comes before the previous token's offset {}", t.name, t.offset, p.offset),
                    )
                    .label(format!("offset {}", t.offset))
                    .related(Location::token(i - 1, TokenPart::Offset), format!("`{}` is at {}", p.name, p.offset))
                    .note_by(|dgc| spell::text("token offsets must not decrease in token order (the validation layers skip SequenceIndex tokens here; the spec does not)", dgc))
                    .help_spelled(
                        "reorder the tokens to match their offsets, or leave `at` out and let dgcc place them",
                        "reorder the tokens to match their offsets, or leave the `@` out and let dgcc place them",
                    ),
                );
            }
        }
        if t.offset % 4 != 0 {
            out.push(
                Finding::new(
                    "E0132",
                    Location::token(i, TokenPart::Offset),
                    format!("`{}` is at offset {}, not a multiple of 4", t.name, t.offset),
                )
                .label("not 4-byte aligned")
                .help_spelled(
                    format!("pin it at {} or leave `at` out", (t.offset as u64).div_ceil(4) * 4),
                    format!("pin it at `@ {}` or leave the `@` out", (t.offset as u64).div_ceil(4) * 4),
                )
                // Rounding up may run into the next token: one fix among others.
                .suggest(
                    Location::token(i, TokenPart::Offset),
                    ((t.offset as u64).div_ceil(4) * 4).to_string(),
                    false,
                ),
            );
        }
    }
}

/// Numbers wrong on every device: zero sequences or entries, the 2^24 draw bound of count
/// tokens, index-buffer mode bits, execution-set stages; and the compute-flag warning.
fn numbers(layout: &CompiledLayout, out: &mut Vec<Finding>) {
    if layout.max_sequences == 0 {
        out.push(
            Finding::new_by("E0205", Location::MaxSequences, |dgc| {
                format!("layout `{}` has `{}`", layout.name, spell::setting("max_sequences", 0, dgc))
            })
            .label("zero")
            .help("set the largest number of sequences one execution runs"),
        );
    }
    for (i, t) in layout.tokens.iter().enumerate() {
        if let Some(set) = &t.execution_set {
            if set.max_entries == 0 {
                let code = if set.kind == 0 { "E0601" } else { "E0611" };
                out.push(
                    Finding::new_by(code, Location::token(i, TokenPart::MaxEntries), |dgc| {
                        format!("execution set `{}` has `{}`", t.name, spell::parameter("max_entries", 0, dgc))
                    })
                    .label("zero")
                    .help("give the number of pipelines or shaders the set holds (at least 1)"),
                );
            }
            let stages = set.stages.count_ones();
            if set.kind == 1 && set.max_entries > 0 && set.max_entries < stages {
                out.push(
                    Finding::new_by("E0612", Location::token(i, TokenPart::MaxEntries), |dgc| {
                        format!(
                            "shader-object execution set `{}` has `{}` but {stages} stages ({})",
                            t.name,
                            spell::parameter("max_entries", set.max_entries, dgc),
                            spell::stages(StageMask(set.stages), dgc)
                        )
                    })
                    .label(format!("{} < {stages}", set.max_entries))
                    .related(Location::token(i, TokenPart::Stages), format!("{stages} initial shaders, one per stage"))
                    .note("the set is created with one initial shader per stage, and maxShaderCount must be at least their number")
                    .help(format!("set `max_entries` to at least {stages}")),
                );
            }
            if set.stages == 0 {
                out.push(
                    Finding::new(
                        "E0122",
                        Location::token(i, TokenPart::Stages),
                        format!("execution set `{}` has no stages", t.name),
                    )
                    .label("empty")
                    .help_spelled(
                        "list the stages the set binds, e.g. `[Compute]`",
                        "list the stages the set binds, e.g. `[compute]`",
                    ),
                );
            }
        }
        if let Some(mode) = t.index_mode {
            if mode.count_ones() != 1 {
                out.push(
                    Finding::new(
                        "E0123",
                        Location::token(i, TokenPart::Mode),
                        format!("index buffer `{}` has input mode {mode:#x}, not exactly one mode bit", t.name),
                    )
                    .label_by(|dgc| spell::text("must be Vulkan (0x1) or Dxgi (0x2)", dgc)),
                );
            }
        }
        if t.token_type.is_push_data() {
            if let Some(r) = t.push_constant {
                if r.stages != ALL_STAGES {
                    out.push(
                        Finding::new_by("E0312", Location::token(i, TokenPart::Stages), |dgc| {
                            format!(
                                "push-data token `{}` updates {}, not every stage (VK_SHADER_STAGE_ALL)",
                                t.name,
                                spell::stages(StageMask(r.stages), dgc)
                            )
                        })
                        .label("stages must be VK_SHADER_STAGE_ALL (0x7FFFFFFF)"),
                    );
                }
            }
        }
        if t.token_type.is_sequence_index() {
            if let Some(r) = t.push_constant {
                if r.size != 4 {
                    out.push(
                        Finding::new(
                            "E0309",
                            Location::token(i, TokenPart::PushSize),
                            format!("sequence index `{}` pushes {} bytes, not 4", t.name, r.size),
                        )
                        .label("size must be 4"),
                    );
                }
            }
        }
        if t.token_type.is_count() && layout.max_sequences > 0 {
            draw_count_bound(layout, i, t, out);
        }
    }
    let unordered = UNORDERED_SEQUENCES;
    if layout.shader_stages == COMPUTE && layout.flags & unordered != 0 {
        out.push(
            Finding::new_by("W0004", Location::Flag(unordered), |dgc| {
                let flag = spell::word("UnorderedSequences", dgc);
                format!("`{flag}` has no effect on the compute layout `{}`", layout.name)
            })
            .label("ignored for compute")
            .note("dispatch sequences never run in a defined order; the spec says the flag is ignored when shaderStages is COMPUTE")
            .help("remove the flag"),
        );
    }
}

/// VUID 11078/11146: maxDrawCount × maxSequenceCount < 2^24 for count tokens.
fn draw_count_bound(layout: &CompiledLayout, i: usize, t: &CompiledToken, out: &mut Vec<Finding>) {
    const BOUND: u64 = 1 << 24;
    let n = layout.max_sequences as u64;
    if n >= BOUND {
        out.push(
            Finding::new_by("E0213", Location::MaxSequences, |dgc| {
                format!(
                    "`{}` leaves no room for draws: maxDrawCount × maxSequenceCount must stay below 2^24 = {BOUND}",
                    spell::setting("max_sequences", n, dgc)
                )
            })
            .label(format!("{n} ≥ 2^24"))
            .related_by(kind(i), |dgc| format!("{} draws up to maxDrawCount per sequence", show_in(t, dgc)))
            .help(format!("lower `max_sequences` below {BOUND}")),
        );
    } else {
        let largest = (BOUND - 1) / n;
        out.push(
            Finding::new_by("W0002", kind(i), |dgc| {
                format!(
                    "with `{}`, {} allows a maxDrawCount of at most {largest}",
                    spell::setting("max_sequences", n, dgc),
                    show_in(t, dgc)
                )
            })
            .label(format!("maxDrawCount ≤ {largest}"))
            .related(Location::MaxSequences, format!("{n} sequences"))
            .note("maxDrawCount × maxSequenceCount must stay below 2^24; a larger maxDrawCount is an error at execute time")
            .help(format!("clamp maxDrawCount to {largest}, or lower `max_sequences` for more draws per sequence")),
        );
    }
}
