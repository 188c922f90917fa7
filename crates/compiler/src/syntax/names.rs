//! The words of both syntaxes: one table per enumeration, RON spelling beside `.dgc` spelling.
//!
//! Why tables: the two front ends, the two printers and the "did you mean" suggestions must
//! agree on every name. RON uses the Rust variant names (`DrawIndexed`, `Vertex`, `U32`); the
//! `.dgc` language uses their snake_case (`draw_indexed`, `vertex`, `u32`), which is also the
//! default field name of a token. A name is looked up in exactly one of the two columns.
//!
//! Token kinds and field types are not tabled here: they are the core's token and type tables
//! (`dgcc_core::tokens::TOKENS`, `dgcc_core::types::FIELD_TYPES`), which the manifest and the
//! emitters read too; [`token_kinds`] and [`field_types`] give their two name columns. A name
//! that is in no row is `None`, for the caller to report.

use super::SyntaxKind;
use crate::ast::{ExecutionSetKind, FieldType, GlslLayout, IndexMode, LayoutFlag, SetFallback};
use dgcc_core::levels::Level;
use dgcc_core::stages::Stage;
use dgcc_core::tokens::{TokenType, TOKENS};
use dgcc_core::types::FIELD_TYPES;

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

pub static LINT_LEVELS: Table<Level> =
    Table { rows: &[(Level::Allow, "Allow", "allow"), (Level::Warn, "Warn", "warn"), (Level::Deny, "Deny", "deny")] };

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

pub static SET_FALLBACKS: Table<SetFallback> = Table { rows: &[(SetFallback::Binned, "Binned", "binned")] };

pub static EXECUTION_SET_KINDS: Table<ExecutionSetKind> = Table {
    rows: &[
        (ExecutionSetKind::Pipelines, "Pipelines", "pipelines"),
        (ExecutionSetKind::ShaderObjects, "ShaderObjects", "shader_objects"),
    ],
};

/// Token kinds: the rows of the core's token table, by their RON or `.dgc` name.
pub mod token_kinds {
    use super::*;

    pub fn parse(name: &str, kind: SyntaxKind) -> Option<TokenType> {
        match kind {
            SyntaxKind::Ron => TokenType::from_ron(name),
            SyntaxKind::Dsl => TokenType::from_dgc(name),
        }
    }

    pub fn name(tt: TokenType, kind: SyntaxKind) -> &'static str {
        match kind {
            SyntaxKind::Ron => tt.ron_name(),
            SyntaxKind::Dsl => tt.dgc_name(),
        }
    }

    /// Every kind's name, in table order.
    pub fn names(kind: SyntaxKind) -> Vec<&'static str> {
        TOKENS.iter().map(|r| name(r.ty, kind)).collect()
    }
}

/// Scalar field types: the rows of the core's type table; arrays are written `Array(T, N)` in
/// RON and `T[N]` in `.dgc`.
pub mod field_types {
    use super::*;

    pub fn parse(name: &str, kind: SyntaxKind) -> Option<FieldType> {
        match kind {
            SyntaxKind::Ron => FieldType::from_ron(name),
            SyntaxKind::Dsl => FieldType::from_dgc(name),
        }
    }

    /// The name of a scalar type; `None` for an array.
    pub fn name(ty: &FieldType, kind: SyntaxKind) -> Option<&'static str> {
        ty.info().map(|r| match kind {
            SyntaxKind::Ron => r.ron,
            SyntaxKind::Dsl => r.dgc,
        })
    }

    /// Every scalar type's name, in table order.
    pub fn names(kind: SyntaxKind) -> Vec<&'static str> {
        FIELD_TYPES.iter().filter_map(|r| name(&r.ty, kind)).collect()
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
    let ty = match found {
        "float" | "f32_t" => FieldType::F32,
        "int" | "int32_t" => FieldType::I32,
        "uint" | "uint32_t" | "unsigned" => FieldType::U32,
        "uint64_t" | "uint64" => FieldType::U64,
        "VkDeviceAddress" | "DeviceAddress" => FieldType::Address,
        "mat4x4" => FieldType::Mat4,
        _ => return None,
    };
    field_types::name(&ty, kind)
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
    fn stage_names_are_the_core_names() {
        for (stage, ron, _) in STAGES.rows {
            assert_eq!(stage.name(), *ron);
        }
    }

    #[test]
    fn an_unknown_token_kind_is_none_in_both_syntaxes_not_a_draw() {
        for kind in [SyntaxKind::Ron, SyntaxKind::Dsl] {
            for word in ["Frobnicate", "", "DRAW", "draw_twice"] {
                assert_eq!(token_kinds::parse(word, kind), None, "{word}");
            }
            for tt in TokenType::all() {
                assert_eq!(token_kinds::parse(token_kinds::name(tt, kind), kind), Some(tt));
            }
        }
        assert_eq!(token_kinds::parse("draw", SyntaxKind::Ron), None, "a `.dgc` name is not RON");
        assert_eq!(token_kinds::parse("Draw", SyntaxKind::Dsl), None, "a RON name is not `.dgc`");
    }

    #[test]
    fn suggestions_ignore_case_and_underscores() {
        let kinds = token_kinds::names(SyntaxKind::Ron);
        assert_eq!(did_you_mean("Dispach", kinds.iter().copied()), Some("Dispatch"));
        assert_eq!(did_you_mean("draw_indexed", kinds.iter().copied()), Some("DrawIndexed"));
        assert_eq!(did_you_mean("Frobnicate", kinds.iter().copied()), None);
    }
}
