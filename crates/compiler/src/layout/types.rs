//! GLSL sizes and alignments of everything a stream record can hold, per `GlslLayout`.
//!
//! Why its own file: this table is the one place that knows std430 and scalar rules; the
//! engine (`mod.rs`) only places blocks of members, and the emitters read the result.
//! std430: scalars align to their size, 2-vectors to twice the scalar, 3- and 4-vectors and
//! matrix columns to four times; an array's stride is its element size rounded up to the
//! element alignment. Scalar block layout (GL_EXT_scalar_block_layout): everything aligns to
//! its scalar component, and arrays are tightly packed.
//! 64-bit device addresses are declared `uvec2` (no int64 extension needed in shaders).

use crate::ast::{FieldType, GlslLayout};

/// One GLSL member type: its spelling, size, and alignment under a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlslType {
    pub name: &'static str,
    pub size: u32,
    pub align: u32,
}

const fn t(name: &'static str, size: u32, align: u32) -> GlslType {
    GlslType { name, size, align }
}

/// The GLSL type of a non-array field type.
pub fn scalar_type(ty: &FieldType, layout: GlslLayout) -> Option<GlslType> {
    let std = layout == GlslLayout::Std430;
    Some(match ty {
        FieldType::U32 => t("uint", 4, 4),
        FieldType::I32 => t("int", 4, 4),
        FieldType::F32 => t("float", 4, 4),
        FieldType::U64 => t("uint64_t", 8, 8),
        FieldType::Address => uvec2(layout),
        FieldType::Vec2 => t("vec2", 8, if std { 8 } else { 4 }),
        FieldType::UVec2 => uvec2(layout),
        FieldType::IVec2 => t("ivec2", 8, if std { 8 } else { 4 }),
        FieldType::Vec3 => t("vec3", 12, if std { 16 } else { 4 }),
        FieldType::UVec3 => t("uvec3", 12, if std { 16 } else { 4 }),
        FieldType::IVec3 => t("ivec3", 12, if std { 16 } else { 4 }),
        FieldType::Vec4 => t("vec4", 16, if std { 16 } else { 4 }),
        FieldType::UVec4 => t("uvec4", 16, if std { 16 } else { 4 }),
        FieldType::IVec4 => t("ivec4", 16, if std { 16 } else { 4 }),
        FieldType::Mat4 => t("mat4", 64, if std { 16 } else { 4 }),
        FieldType::Array(..) => return None,
    })
}

pub const UINT: GlslType = t("uint", 4, 4);
pub const INT: GlslType = t("int", 4, 4);

/// `uvec2`, how dgcc declares 64-bit device addresses.
pub fn uvec2(layout: GlslLayout) -> GlslType {
    t("uvec2", 8, if layout == GlslLayout::Std430 { 8 } else { 4 })
}

/// A field's layout: element type, array length (0 for none), array stride, total size, alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldShape {
    pub elem: GlslType,
    pub array: u32,
    pub array_stride: u32,
    pub size: u32,
    pub align: u32,
}

/// Why a field type cannot be laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    NestedArray,
    EmptyArray,
    TooLarge,
}

pub fn field_shape(ty: &FieldType, layout: GlslLayout) -> Result<FieldShape, ShapeError> {
    match ty {
        FieldType::Array(inner, n) => {
            if matches!(**inner, FieldType::Array(..)) {
                return Err(ShapeError::NestedArray);
            }
            if *n == 0 {
                return Err(ShapeError::EmptyArray);
            }
            let elem = scalar_type(inner, layout).expect("non-array element");
            let stride = match layout {
                GlslLayout::Std430 => align_up(elem.size, elem.align),
                GlslLayout::Scalar => elem.size,
            };
            let size = (stride as u64) * (*n as u64);
            if size > u32::MAX as u64 / 2 {
                return Err(ShapeError::TooLarge);
            }
            Ok(FieldShape { elem, array: *n, array_stride: stride, size: size as u32, align: elem.align })
        }
        other => {
            let elem = scalar_type(other, layout).expect("non-array type");
            Ok(FieldShape { elem, array: 0, array_stride: 0, size: elem.size, align: elem.align })
        }
    }
}

pub const fn align_up(v: u32, a: u32) -> u32 {
    if a <= 1 {
        v
    } else {
        v.div_ceil(a) * a
    }
}

/// `align_up` in 64-bit, for sums that may pass 4 GiB.
pub const fn align_up64(v: u64, a: u64) -> u64 {
    if a <= 1 {
        v
    } else {
        v.div_ceil(a) * a
    }
}
