//! Cooperative-matrix properties (`VkCooperativeMatrixPropertiesKHR`): the tile shapes and
//! component types a device runs `coopmat` operations with.
//!
//! Why a list beside the flat values: a device states a set of shapes (M×N×K with the A, B, C
//! and result component types and a scope), not one number, and a kernel that hard-codes a tile
//! (`coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>`) runs only where some entry
//! has that shape. `None` on a profile means "not stated" (the check is skipped with W0012);
//! an empty list means the device has no cooperative matrices.

/// `VkComponentTypeKHR` values and their GLSL spellings.
pub(crate) const COMPONENTS: [(u32, &str, &[&str]); 12] = [
    (0, "FLOAT16", &["float16_t"]),
    (1, "FLOAT32", &["float", "float32_t"]),
    (2, "FLOAT64", &["double", "float64_t"]),
    (3, "SINT8", &["int8_t"]),
    (4, "SINT16", &["int16_t"]),
    (5, "SINT32", &["int", "int32_t"]),
    (6, "SINT64", &["int64_t"]),
    (7, "UINT8", &["uint8_t"]),
    (8, "UINT16", &["uint16_t"]),
    (9, "UINT32", &["uint", "uint32_t"]),
    (10, "UINT64", &["uint64_t"]),
    (1_000_141_000, "BFLOAT16", &["bfloat16_t"]),
];

/// `VK_SCOPE_SUBGROUP_KHR`.
pub const SCOPE_SUBGROUP: u32 = 3;

/// The `VK_COMPONENT_TYPE_…_KHR` name of a value (`FLOAT16`), or the number.
pub fn component_name(v: u32) -> String {
    COMPONENTS.iter().find(|c| c.0 == v).map(|c| c.1.to_string()).unwrap_or_else(|| v.to_string())
}

/// The value of a `VK_COMPONENT_TYPE_…_KHR` name without prefix and suffix (`FLOAT16`).
pub fn component_from_name(name: &str) -> Option<u32> {
    COMPONENTS.iter().find(|c| c.1 == name).map(|c| c.0)
}

/// The value of a GLSL component type (`float16_t`).
pub fn component_from_glsl(name: &str) -> Option<u32> {
    COMPONENTS.iter().find(|c| c.2.contains(&name)).map(|c| c.0)
}

/// The `VK_SCOPE_…_KHR` name of a value.
pub fn scope_name(v: u32) -> &'static str {
    match v {
        1 => "DEVICE",
        2 => "WORKGROUP",
        3 => "SUBGROUP",
        5 => "QUEUE_FAMILY",
        _ => "?",
    }
}

/// The value of a GLSL scope (`gl_ScopeSubgroup`).
pub fn scope_from_glsl(name: &str) -> Option<u32> {
    match name {
        "gl_ScopeDevice" => Some(1),
        "gl_ScopeWorkgroup" => Some(2),
        "gl_ScopeSubgroup" => Some(3),
        "gl_ScopeQueueFamily" => Some(5),
        _ => None,
    }
}

/// One `VkCooperativeMatrixPropertiesKHR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct CoopMatShape {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub a: u32,
    pub b: u32,
    pub c: u32,
    pub result: u32,
    pub saturating: bool,
    pub scope: u32,
}

/// The device's shapes, with where they come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoopMatrices {
    pub shapes: Vec<CoopMatShape>,
    pub citation: String,
}

/// Which operand of a multiply a `coopmat` declaration is (`gl_MatrixUseA`…).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatrixUse {
    A,
    B,
    Accumulator,
}

impl MatrixUse {
    pub fn from_glsl(name: &str) -> Option<MatrixUse> {
        match name {
            "gl_MatrixUseA" => Some(MatrixUse::A),
            "gl_MatrixUseB" => Some(MatrixUse::B),
            "gl_MatrixUseAccumulator" => Some(MatrixUse::Accumulator),
            _ => None,
        }
    }
    pub fn glsl(self) -> &'static str {
        match self {
            MatrixUse::A => "gl_MatrixUseA",
            MatrixUse::B => "gl_MatrixUseB",
            MatrixUse::Accumulator => "gl_MatrixUseAccumulator",
        }
    }
}

/// A matrix a kernel declares: component type, scope, rows × columns, use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MatrixDecl {
    pub component: u32,
    pub scope: u32,
    pub rows: u32,
    pub cols: u32,
    pub usage: MatrixUse,
}

impl MatrixDecl {
    /// Whether an entry of the device runs this matrix: A is M×K of type A, B is K×N of type
    /// B, an accumulator is M×N of type C or the result type, all at the same scope.
    pub fn runs_on(&self, s: &CoopMatShape) -> bool {
        s.scope == self.scope
            && match self.usage {
                MatrixUse::A => s.m == self.rows && s.k == self.cols && s.a == self.component,
                MatrixUse::B => s.k == self.rows && s.n == self.cols && s.b == self.component,
                MatrixUse::Accumulator => {
                    s.m == self.rows && s.n == self.cols && (s.c == self.component || s.result == self.component)
                }
            }
    }
}

impl CoopMatrices {
    /// The entries with this scope whose shape fits the use, as `M×N×K A×B+C=R` for a message.
    pub fn describe(&self, scope: u32) -> Vec<String> {
        self.shapes.iter().filter(|s| s.scope == scope).map(describe_shape).collect()
    }
}

/// `16×16×16 FLOAT16×FLOAT16+FLOAT32=FLOAT32`.
pub fn describe_shape(s: &CoopMatShape) -> String {
    format!(
        "{}×{}×{} {}×{}+{}={}{}",
        s.m,
        s.n,
        s.k,
        component_name(s.a),
        component_name(s.b),
        component_name(s.c),
        component_name(s.result),
        if s.saturating { " (saturating)" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matrix_runs_on_the_entries_of_its_shape_type_and_scope() {
        let s = CoopMatShape { m: 16, n: 8, k: 16, a: 0, b: 0, c: 1, result: 1, saturating: false, scope: 3 };
        let d = |component, rows, cols, usage| MatrixDecl { component, scope: 3, rows, cols, usage };
        assert!(d(0, 16, 16, MatrixUse::A).runs_on(&s));
        assert!(d(0, 16, 8, MatrixUse::B).runs_on(&s));
        assert!(d(1, 16, 8, MatrixUse::Accumulator).runs_on(&s));
        assert!(!d(0, 16, 8, MatrixUse::A).runs_on(&s), "A is M×K");
        assert!(!d(1, 16, 16, MatrixUse::A).runs_on(&s), "A's type is FLOAT16");
        assert!(!MatrixDecl { scope: 2, ..d(0, 16, 16, MatrixUse::A) }.runs_on(&s));
        assert_eq!(component_from_glsl("float16_t"), Some(0));
        assert_eq!(describe_shape(&s), "16×8×16 FLOAT16×FLOAT16+FLOAT32=FLOAT32");
    }
}
