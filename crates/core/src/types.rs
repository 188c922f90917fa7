//! The one table of data types: the field types a description writes (`U32`, `Vec3`,
//! `Array(F32, 4)`), the GLSL member types the record struct declares (`uint`, `vec3`), their
//! scalar components as C and Rust spell them, and the two GLSL block layouts.
//!
//! Why here and typed: the front ends read field type names, the layout engine sizes and aligns
//! them, the manifest stores them and the emitters spell them in every output language. Written once
//! per place they were a type table repeated four times, and the IR held strings that the
//! emitters parsed back. Now each type is one row ([`FIELD_TYPES`], [`MEMBER_TYPES`],
//! [`COMPONENTS`]), the IR holds these enums, and the manifest serializes them as the same
//! strings as before (`"U32"`, `"Array(F32, 4)"`, `"uvec2"`, `"std430"`), so an unknown string is
//! a serde error when the manifest is read, not a surprise in an emitter.
//!
//! Layout rules, std430: scalars align to their size, 2-vectors to twice the scalar, 3- and
//! 4-vectors and matrix columns to four times. Scalar block layout (GL_EXT_scalar_block_layout):
//! everything aligns to its scalar component. 64-bit device addresses are declared `uvec2` (no
//! int64 extension needed in shaders); `U64` is `uint64_t`, aligned to 8 under both.

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// How the stream record struct is declared in GLSL; drives member alignment. Serialized as
/// the GLSL qualifier (`std430`, `scalar`); descriptions write `Std430` / `std430`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GlslLayout {
    #[default]
    Std430,
    Scalar,
}

impl GlslLayout {
    /// The name descriptions use in RON (`Std430`), as messages quote it.
    pub const fn name(self) -> &'static str {
        match self {
            GlslLayout::Std430 => "Std430",
            GlslLayout::Scalar => "Scalar",
        }
    }
    /// The GLSL qualifier (`std430`), as the manifest and the generated code write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            GlslLayout::Std430 => "std430",
            GlslLayout::Scalar => "scalar",
        }
    }
}

impl fmt::Display for GlslLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The scalar component of a member type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    U32,
    I32,
    F32,
    U64,
}

/// One row of [`COMPONENTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComponentInfo {
    pub component: Component,
    /// `uint32_t`
    pub c: &'static str,
    /// `u32`
    pub rust: &'static str,
    /// `0`, `0.0`: a zero literal of the Rust type.
    pub rust_zero: &'static str,
    pub bytes: u32,
}

/// Every component, in [`Component`]'s declaration order.
pub static COMPONENTS: [ComponentInfo; 4] = [
    ComponentInfo { component: Component::U32, c: "uint32_t", rust: "u32", rust_zero: "0", bytes: 4 },
    ComponentInfo { component: Component::I32, c: "int32_t", rust: "i32", rust_zero: "0", bytes: 4 },
    ComponentInfo { component: Component::F32, c: "float", rust: "f32", rust_zero: "0.0", bytes: 4 },
    ComponentInfo { component: Component::U64, c: "uint64_t", rust: "u64", rust_zero: "0", bytes: 8 },
];

impl Component {
    pub const fn info(self) -> &'static ComponentInfo {
        &COMPONENTS[self as usize]
    }
    pub const fn c(self) -> &'static str {
        self.info().c
    }
    pub const fn rust(self) -> &'static str {
        self.info().rust
    }
    pub const fn rust_zero(self) -> &'static str {
        self.info().rust_zero
    }
    pub const fn bytes(self) -> u32 {
        self.info().bytes
    }
}

/// The GLSL type of one record member (of one element, for an array member).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemberType {
    Uint,
    Int,
    Float,
    Uint64,
    UVec2,
    UVec3,
    UVec4,
    IVec2,
    IVec3,
    IVec4,
    Vec2,
    Vec3,
    Vec4,
    Mat4,
}

/// One row of [`MEMBER_TYPES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemberTypeInfo {
    pub ty: MemberType,
    /// The GLSL spelling, which the manifest stores (`uvec2`).
    pub glsl: &'static str,
    pub component: Component,
    /// `[]` for a scalar, `[n]` for a vector, `[columns, rows]` for a matrix.
    pub dims: &'static [u32],
    pub size: u32,
    pub std430_align: u32,
    pub scalar_align: u32,
}

const fn member(
    ty: MemberType,
    glsl: &'static str,
    component: Component,
    dims: &'static [u32],
    std430_align: u32,
) -> MemberTypeInfo {
    let mut size = component.bytes();
    let mut i = 0;
    while i < dims.len() {
        size *= dims[i];
        i += 1;
    }
    MemberTypeInfo { ty, glsl, component, dims, size, std430_align, scalar_align: component.bytes() }
}

/// Every member type, in [`MemberType`]'s declaration order.
#[rustfmt::skip]
pub static MEMBER_TYPES: [MemberTypeInfo; 14] = [
    member(MemberType::Uint, "uint", Component::U32, &[], 4),
    member(MemberType::Int, "int", Component::I32, &[], 4),
    member(MemberType::Float, "float", Component::F32, &[], 4),
    member(MemberType::Uint64, "uint64_t", Component::U64, &[], 8),
    member(MemberType::UVec2, "uvec2", Component::U32, &[2], 8),
    member(MemberType::UVec3, "uvec3", Component::U32, &[3], 16),
    member(MemberType::UVec4, "uvec4", Component::U32, &[4], 16),
    member(MemberType::IVec2, "ivec2", Component::I32, &[2], 8),
    member(MemberType::IVec3, "ivec3", Component::I32, &[3], 16),
    member(MemberType::IVec4, "ivec4", Component::I32, &[4], 16),
    member(MemberType::Vec2, "vec2", Component::F32, &[2], 8),
    member(MemberType::Vec3, "vec3", Component::F32, &[3], 16),
    member(MemberType::Vec4, "vec4", Component::F32, &[4], 16),
    member(MemberType::Mat4, "mat4", Component::F32, &[4, 4], 16),
];

const _: () = {
    let mut i = 0;
    while i < MEMBER_TYPES.len() {
        assert!(MEMBER_TYPES[i].ty as usize == i, "MEMBER_TYPES is not in MemberType's declaration order");
        i += 1;
    }
    let mut i = 0;
    while i < COMPONENTS.len() {
        assert!(COMPONENTS[i].component as usize == i, "COMPONENTS is not in Component's declaration order");
        i += 1;
    }
};

impl MemberType {
    pub const fn info(self) -> &'static MemberTypeInfo {
        &MEMBER_TYPES[self as usize]
    }
    /// The GLSL spelling (`uvec2`).
    pub const fn as_str(self) -> &'static str {
        self.info().glsl
    }
    pub fn from_glsl(glsl: &str) -> Option<MemberType> {
        MEMBER_TYPES.iter().find(|r| r.glsl == glsl).map(|r| r.ty)
    }
    /// The type of this component with these dimensions (`of(Component::F32, &[4])` is `Vec4`).
    pub fn of(component: Component, dims: &[u32]) -> Option<MemberType> {
        MEMBER_TYPES.iter().find(|r| r.component == component && r.dims == dims).map(|r| r.ty)
    }
    pub const fn component(self) -> Component {
        self.info().component
    }
    pub const fn dims(self) -> &'static [u32] {
        self.info().dims
    }
    pub const fn size(self) -> u32 {
        self.info().size
    }
    pub const fn align(self, layout: GlslLayout) -> u32 {
        match layout {
            GlslLayout::Std430 => self.info().std430_align,
            GlslLayout::Scalar => self.info().scalar_align,
        }
    }
}

impl fmt::Display for MemberType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A field type as a description writes it. The scalar (non-array) ones are the rows of
/// [`FIELD_TYPES`]; an array is written `Array(T, N)` in RON and `T[N]` in `.dgc`, and the
/// front ends accept arrays of arrays so that the layout engine can refuse them with a span.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldType {
    U32,
    I32,
    F32,
    U64,
    /// A `VkDeviceAddress`.
    Address,
    Vec2,
    Vec3,
    Vec4,
    UVec2,
    UVec3,
    UVec4,
    IVec2,
    IVec3,
    IVec4,
    Mat4,
    Array(Box<FieldType>, u32),
}

/// One row of [`FIELD_TYPES`]: a scalar field type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldTypeInfo {
    pub ty: FieldType,
    /// `U32`
    pub ron: &'static str,
    /// `u32`
    pub dgc: &'static str,
    /// How the record struct declares it (`Address` is a `uvec2`), hence its size and
    /// alignments.
    pub member: MemberType,
}

const fn field(ty: FieldType, ron: &'static str, dgc: &'static str, member: MemberType) -> FieldTypeInfo {
    FieldTypeInfo { ty, ron, dgc, member }
}

/// Every scalar field type, in the order descriptions list them.
pub static FIELD_TYPES: [FieldTypeInfo; 15] = [
    field(FieldType::U32, "U32", "u32", MemberType::Uint),
    field(FieldType::I32, "I32", "i32", MemberType::Int),
    field(FieldType::F32, "F32", "f32", MemberType::Float),
    field(FieldType::U64, "U64", "u64", MemberType::Uint64),
    field(FieldType::Address, "Address", "address", MemberType::UVec2),
    field(FieldType::Vec2, "Vec2", "vec2", MemberType::Vec2),
    field(FieldType::Vec3, "Vec3", "vec3", MemberType::Vec3),
    field(FieldType::Vec4, "Vec4", "vec4", MemberType::Vec4),
    field(FieldType::UVec2, "UVec2", "uvec2", MemberType::UVec2),
    field(FieldType::UVec3, "UVec3", "uvec3", MemberType::UVec3),
    field(FieldType::UVec4, "UVec4", "uvec4", MemberType::UVec4),
    field(FieldType::IVec2, "IVec2", "ivec2", MemberType::IVec2),
    field(FieldType::IVec3, "IVec3", "ivec3", MemberType::IVec3),
    field(FieldType::IVec4, "IVec4", "ivec4", MemberType::IVec4),
    field(FieldType::Mat4, "Mat4", "mat4", MemberType::Mat4),
];

/// The most array levels a manifest's field type may have (descriptions allow fewer).
const MAX_MANIFEST_ARRAY_LEVELS: usize = 16;

impl FieldType {
    /// The scalar field types, in table order.
    pub fn scalars() -> impl Iterator<Item = FieldType> {
        FIELD_TYPES.iter().map(|r| r.ty.clone())
    }
    /// The row of a scalar type; `None` for an array.
    pub fn info(&self) -> Option<&'static FieldTypeInfo> {
        FIELD_TYPES.iter().find(|r| r.ty == *self)
    }
    /// The scalar type a RON name (`U32`) names.
    pub fn from_ron(name: &str) -> Option<FieldType> {
        FIELD_TYPES.iter().find(|r| r.ron == name).map(|r| r.ty.clone())
    }
    /// The scalar type a `.dgc` name (`u32`) names.
    pub fn from_dgc(name: &str) -> Option<FieldType> {
        FIELD_TYPES.iter().find(|r| r.dgc == name).map(|r| r.ty.clone())
    }
    /// The member type a scalar field is declared as; `None` for an array.
    pub fn member_type(&self) -> Option<MemberType> {
        self.info().map(|r| r.member)
    }
    /// `Array(Vec4, 2)`, as written in RON (and in the manifest).
    pub fn describe(&self) -> String {
        match self {
            FieldType::Array(inner, n) => format!("Array({}, {})", inner.describe(), n),
            other => other.info().map_or("", |r| r.ron).to_string(),
        }
    }
    /// Reads what [`describe`](Self::describe) writes.
    pub fn parse(text: &str) -> Option<FieldType> {
        let mut lengths = vec![];
        let mut s = text;
        while let Some(inner) = s.strip_prefix("Array(").and_then(|r| r.strip_suffix(')')) {
            if lengths.len() == MAX_MANIFEST_ARRAY_LEVELS {
                return None;
            }
            let (elem, n) = inner.rsplit_once(", ")?;
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            lengths.push(n.parse::<u32>().ok()?);
            s = elem;
        }
        let mut ty = FieldType::from_ron(s)?;
        for n in lengths.into_iter().rev() {
            ty = FieldType::Array(Box::new(ty), n);
        }
        Some(ty)
    }
}

impl fmt::Display for FieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

/// Comparisons with the serialized spelling, so that code written against the string IR
/// (`m.glsl_type == "vec3"`, `l.glsl_layout == "std430"`) reads the same.
macro_rules! eq_str {
    ($t:ty, $s:ident => $e:expr) => {
        impl PartialEq<str> for $t {
            fn eq(&self, other: &str) -> bool {
                let $s = self;
                $e == other
            }
        }
        impl PartialEq<&str> for $t {
            fn eq(&self, other: &&str) -> bool {
                self == *other
            }
        }
    };
}
eq_str!(GlslLayout, s => s.as_str());
eq_str!(MemberType, s => s.as_str());
eq_str!(FieldType, s => s.describe());

/// A string-serialized type: `what` names it in the error for an unknown spelling.
struct Spelling<T> {
    what: &'static str,
    known: fn() -> String,
    parse: fn(&str) -> Option<T>,
}

impl<T> Visitor<'_> for Spelling<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} as a string", self.what)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.parse)(v)
            .ok_or_else(|| E::custom(format_args!("unknown {} `{v}`, expected {}", self.what, (self.known)())))
    }
}

fn quoted(names: impl Iterator<Item = &'static str>) -> String {
    names.map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

impl Serialize for MemberType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for MemberType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(Spelling {
            what: "record member type",
            known: || format!("one of {}", quoted(MEMBER_TYPES.iter().map(|r| r.glsl))),
            parse: MemberType::from_glsl,
        })
    }
}

impl Serialize for FieldType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.describe())
    }
}

impl<'de> Deserialize<'de> for FieldType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(Spelling {
            what: "field type",
            known: || format!("one of {} or `Array(TYPE, N)`", quoted(FIELD_TYPES.iter().map(|r| r.ron))),
            parse: FieldType::parse,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_consistent() {
        for r in &FIELD_TYPES {
            assert_eq!(format!("{:?}", r.ty), r.ron);
            assert_eq!(r.dgc, r.ron.to_ascii_lowercase());
            assert_eq!(FieldType::from_ron(r.ron), Some(r.ty.clone()));
            assert_eq!(FieldType::from_dgc(r.dgc), Some(r.ty.clone()));
            assert_eq!(FieldType::parse(r.ron), Some(r.ty.clone()));
        }
        for r in &MEMBER_TYPES {
            assert_eq!(r.ty.info(), r);
            assert_eq!(MemberType::from_glsl(r.glsl), Some(r.ty));
            assert_eq!(MemberType::of(r.component, r.dims), Some(r.ty));
            assert_eq!(r.ty.align(GlslLayout::Scalar), r.component.bytes());
            assert!(r.ty.align(GlslLayout::Std430) >= r.ty.align(GlslLayout::Scalar));
        }
        assert_eq!(MemberType::Mat4.size(), 64);
        assert_eq!(MemberType::Vec3.size(), 12);
        assert_eq!(MemberType::Uint64.align(GlslLayout::Scalar), 8);
    }

    #[test]
    fn types_serialize_as_the_strings_the_manifest_always_had() {
        let nested = FieldType::Array(Box::new(FieldType::Array(Box::new(FieldType::Vec4), 3)), 2);
        for (ty, text) in [
            (FieldType::U32, "U32"),
            (FieldType::Array(Box::new(FieldType::F32), 4), "Array(F32, 4)"),
            (nested, "Array(Array(Vec4, 3), 2)"),
        ] {
            assert_eq!(serde_json::to_string(&ty).unwrap(), format!("\"{text}\""));
            assert_eq!(serde_json::from_str::<FieldType>(&format!("\"{text}\"")).unwrap(), ty);
            assert!(ty == text);
        }
        assert_eq!(serde_json::to_string(&MemberType::UVec2).unwrap(), "\"uvec2\"");
        assert_eq!(serde_json::from_str::<MemberType>("\"mat4\"").unwrap(), MemberType::Mat4);
        assert_eq!(serde_json::to_string(&GlslLayout::Scalar).unwrap(), "\"scalar\"");
        assert_eq!(serde_json::from_str::<GlslLayout>("\"std430\"").unwrap(), GlslLayout::Std430);
    }

    #[test]
    fn an_unknown_spelling_is_a_serde_error_that_names_it() {
        let e = serde_json::from_str::<MemberType>("\"dvec3\"").unwrap_err().to_string();
        assert!(e.starts_with("unknown record member type `dvec3`, expected one of `uint`, `int`"), "{e}");
        for bad in ["u32", "Array(F32)", "Array(F32, -1)", "Array(F32, 4", "Array(Float, 4)", "Array(F32,4)", ""] {
            let e = serde_json::from_str::<FieldType>(&format!("\"{bad}\"")).unwrap_err().to_string();
            assert!(e.starts_with(&format!("unknown field type `{bad}`, expected one of `U32`")), "{e}");
        }
        let deep = format!("\"{}F32{}\"", "Array(".repeat(100_000), ", 1)".repeat(100_000));
        assert!(serde_json::from_str::<FieldType>(&deep).is_err());
        let e = serde_json::from_str::<GlslLayout>("\"std140\"").unwrap_err().to_string();
        assert!(e.starts_with("unknown variant `std140`, expected `std430` or `scalar`"), "{e}");
        assert!(serde_json::from_str::<MemberType>("4").is_err());
    }
}
