//! The words of both syntaxes: one table per enumeration, RON spelling beside `.dgc` spelling.
//!
//! Why tables: the two front ends, the two printers and the "did you mean" suggestions must
//! agree on every name. RON uses the Rust variant names (`DrawIndexed`, `Vertex`, `U32`); the
//! `.dgc` language uses their snake_case (`draw_indexed`, `vertex`, `u32`), which is also the
//! default field name of a token. A name is looked up in exactly one of the two columns.

use super::SyntaxKind;
use crate::ast::{ExecutionSetKind, FieldType, GlslLayout, IndexMode, LayoutFlag, TokenKind};
use dgcc_core::stages::Stage;

/// One enumeration: values with their RON and `.dgc` names.
pub struct Table<T: 'static> {
    pub rows: &'static [(T, &'static str, &'static str)],
}

impl<T: Copy + PartialEq> Table<T> {
    pub fn parse(&self, name: &str, kind: SyntaxKind) -> Option<T> {
        self.rows.iter().find(|row| column(row, kind) == name).map(|row| row.0)
    }

    pub fn name(&self, value: T, kind: SyntaxKind) -> &'static str {
        self.rows.iter().find(|row| row.0 == value).map_or("?", |row| column(row, kind))
    }

    pub fn names(&self, kind: SyntaxKind) -> Vec<&'static str> {
        self.rows.iter().map(|row| column(row, kind)).collect()
    }
}

fn column<T>(row: &(T, &'static str, &'static str), kind: SyntaxKind) -> &'static str {
    match kind {
        SyntaxKind::Ron => row.1,
        SyntaxKind::Dsl => row.2,
    }
}

pub static STAGES: Table<Stage> = Table {
    rows: &[
        (Stage::Vertex, "Vertex", "vertex"),
        (Stage::TessControl, "TessControl", "tess_control"),
        (Stage::TessEval, "TessEval", "tess_eval"),
        (Stage::Geometry, "Geometry", "geometry"),
        (Stage::Fragment, "Fragment", "fragment"),
        (Stage::Compute, "Compute", "compute"),
        (Stage::Task, "Task", "task"),
        (Stage::Mesh, "Mesh", "mesh"),
        (Stage::RayGen, "RayGen", "ray_gen"),
        (Stage::AnyHit, "AnyHit", "any_hit"),
        (Stage::ClosestHit, "ClosestHit", "closest_hit"),
        (Stage::Miss, "Miss", "miss"),
        (Stage::Intersection, "Intersection", "intersection"),
        (Stage::Callable, "Callable", "callable"),
    ],
};

pub static FLAGS: Table<LayoutFlag> = Table {
    rows: &[
        (LayoutFlag::ExplicitPreprocess, "ExplicitPreprocess", "explicit_preprocess"),
        (LayoutFlag::UnorderedSequences, "UnorderedSequences", "unordered_sequences"),
    ],
};

pub static GLSL_LAYOUTS: Table<GlslLayout> =
    Table { rows: &[(GlslLayout::Std430, "Std430", "std430"), (GlslLayout::Scalar, "Scalar", "scalar")] };

pub static INDEX_MODES: Table<IndexMode> =
    Table { rows: &[(IndexMode::Vulkan, "Vulkan", "vulkan"), (IndexMode::Dxgi, "Dxgi", "dxgi")] };

pub static EXECUTION_SET_KINDS: Table<ExecutionSetKind> = Table {
    rows: &[
        (ExecutionSetKind::Pipelines, "Pipelines", "pipelines"),
        (ExecutionSetKind::ShaderObjects, "ShaderObjects", "shader_objects"),
    ],
};

/// Scalar field types; arrays are written `Array(T, N)` in RON and `T[N]` in `.dgc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scalar(pub usize);

impl Scalar {
    pub fn field_type(self) -> FieldType {
        FieldType::SCALARS[self.0].0.clone()
    }
    pub fn of(ty: &FieldType) -> Option<Scalar> {
        FieldType::SCALARS.iter().position(|(t, _)| t == ty).map(Scalar)
    }
}

pub static FIELD_TYPES: Table<Scalar> = Table {
    rows: &[
        (Scalar(0), "U32", "u32"),
        (Scalar(1), "I32", "i32"),
        (Scalar(2), "F32", "f32"),
        (Scalar(3), "U64", "u64"),
        (Scalar(4), "Address", "address"),
        (Scalar(5), "Vec2", "vec2"),
        (Scalar(6), "Vec3", "vec3"),
        (Scalar(7), "Vec4", "vec4"),
        (Scalar(8), "UVec2", "uvec2"),
        (Scalar(9), "UVec3", "uvec3"),
        (Scalar(10), "UVec4", "uvec4"),
        (Scalar(11), "IVec2", "ivec2"),
        (Scalar(12), "IVec3", "ivec3"),
        (Scalar(13), "IVec4", "ivec4"),
        (Scalar(14), "Mat4", "mat4"),
    ],
};

/// The kinds of token, without their parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    ExecutionSet,
    PushConstant,
    SequenceIndex,
    IndexBuffer,
    VertexBuffer,
    Draw,
    DrawIndexed,
    DrawCount,
    DrawIndexedCount,
    Dispatch,
    DrawMeshTasks,
    DrawMeshTasksCount,
    DrawMeshTasksNv,
    DrawMeshTasksCountNv,
    TraceRays2,
}

pub static TOKEN_KINDS: Table<Kind> = Table {
    rows: &[
        (Kind::ExecutionSet, "ExecutionSet", "execution_set"),
        (Kind::PushConstant, "PushConstant", "push_constant"),
        (Kind::SequenceIndex, "SequenceIndex", "sequence_index"),
        (Kind::IndexBuffer, "IndexBuffer", "index_buffer"),
        (Kind::VertexBuffer, "VertexBuffer", "vertex_buffer"),
        (Kind::Draw, "Draw", "draw"),
        (Kind::DrawIndexed, "DrawIndexed", "draw_indexed"),
        (Kind::DrawCount, "DrawCount", "draw_count"),
        (Kind::DrawIndexedCount, "DrawIndexedCount", "draw_indexed_count"),
        (Kind::Dispatch, "Dispatch", "dispatch"),
        (Kind::DrawMeshTasks, "DrawMeshTasks", "draw_mesh_tasks"),
        (Kind::DrawMeshTasksCount, "DrawMeshTasksCount", "draw_mesh_tasks_count"),
        (Kind::DrawMeshTasksNv, "DrawMeshTasksNv", "draw_mesh_tasks_nv"),
        (Kind::DrawMeshTasksCountNv, "DrawMeshTasksCountNv", "draw_mesh_tasks_count_nv"),
        (Kind::TraceRays2, "TraceRays2", "trace_rays2"),
    ],
};

impl Kind {
    /// The token kind of a parameterless (action) token.
    pub fn action(self) -> Option<TokenKind> {
        Some(match self {
            Kind::Draw => TokenKind::Draw,
            Kind::DrawIndexed => TokenKind::DrawIndexed,
            Kind::DrawCount => TokenKind::DrawCount,
            Kind::DrawIndexedCount => TokenKind::DrawIndexedCount,
            Kind::Dispatch => TokenKind::Dispatch,
            Kind::DrawMeshTasks => TokenKind::DrawMeshTasks,
            Kind::DrawMeshTasksCount => TokenKind::DrawMeshTasksCount,
            Kind::DrawMeshTasksNv => TokenKind::DrawMeshTasksNv,
            Kind::DrawMeshTasksCountNv => TokenKind::DrawMeshTasksCountNv,
            Kind::TraceRays2 => TokenKind::TraceRays2,
            Kind::ExecutionSet | Kind::PushConstant | Kind::SequenceIndex | Kind::IndexBuffer | Kind::VertexBuffer => {
                return None
            }
        })
    }

    pub fn of(kind: &TokenKind) -> Kind {
        TOKEN_KINDS.parse(kind.variant_name(), SyntaxKind::Ron).unwrap_or(Kind::Draw)
    }
}

/// The closest candidate to a misspelt name, if one is close enough to be a likely typo.
///
/// Case and underscores are ignored, so a `.dgc` spelling used in RON (`draw_indexed`) and the
/// other way round (`DrawIndexed`) are both recognised.
pub fn did_you_mean<'a>(found: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let norm = |s: &str| s.chars().filter(|c| *c != '_').flat_map(char::to_lowercase).collect::<Vec<char>>();
    let found_n = norm(found);
    let threshold = (found_n.len() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(&found_n, &norm(c)), c))
        .filter(|(d, _)| *d <= threshold)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The field type a GLSL or C spelling means (`float` → `F32`), for suggestions.
pub fn type_alias(found: &str, kind: SyntaxKind) -> Option<&'static str> {
    let scalar = match found {
        "float" | "f32_t" => 2,
        "int" | "int32_t" => 1,
        "uint" | "uint32_t" | "unsigned" => 0,
        "uint64_t" | "uint64" | "VkDeviceAddress" | "DeviceAddress" => {
            if found.contains("Address") {
                4
            } else {
                3
            }
        }
        "mat4x4" => 14,
        _ => return None,
    };
    Some(FIELD_TYPES.name(Scalar(scalar), kind))
}

/// "a stage", "an index buffer mode".
pub fn a(what: &str) -> String {
    let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {what}")
}

/// "`a`, `b` and `c`".
pub fn all_of(names: &[&str]) -> String {
    one_of(names).rsplitn(2, " or ").collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join(" and ")
}

/// "`a`, `b` or `c`".
pub fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {}", rest.join(", "), last),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_the_ast_names() {
        for (stage, ron, _) in STAGES.rows {
            assert_eq!(stage.name(), *ron);
        }
        for (i, (ty, name)) in FieldType::SCALARS.iter().enumerate() {
            assert_eq!(FIELD_TYPES.rows[i].1, *name);
            assert_eq!(FIELD_TYPES.rows[i].0.field_type(), *ty);
        }
        for (kind, ron, dsl) in TOKEN_KINDS.rows {
            if let Some(tk) = kind.action() {
                assert_eq!((tk.variant_name(), tk.default_name()), (*ron, *dsl));
            }
        }
    }

    #[test]
    fn suggestions_ignore_case_and_underscores() {
        let kinds = TOKEN_KINDS.names(SyntaxKind::Ron);
        assert_eq!(did_you_mean("Dispach", kinds.iter().copied()), Some("Dispatch"));
        assert_eq!(did_you_mean("draw_indexed", kinds.iter().copied()), Some("DrawIndexed"));
        assert_eq!(did_you_mean("Frobnicate", kinds.iter().copied()), None);
    }
}
