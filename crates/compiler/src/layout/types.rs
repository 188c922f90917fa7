//! The shape of a push-constant field in a stream record, per `GlslLayout`: element type, array
//! stride, size and alignment.
//!
//! Why its own file: the sizes and alignments of every type are rows of the core's type table
//! (`dgcc_core::types`, which the manifest and the emitters read too); what is decided here is
//! only how a field made of them is laid out. std430: an array's stride is its element size
//! rounded up to the element alignment. Scalar block layout (GL_EXT_scalar_block_layout):
//! arrays are tightly packed. The engine (`mod.rs`) places the resulting blocks of members.

use crate::ast::{FieldType, GlslLayout};
use dgcc_core::types::MemberType;

/// A field's layout: element type, array length (0 for none), array stride, total size, alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldShape {
    pub elem: MemberType,
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
            let Some(elem) = inner.member_type() else { return Err(ShapeError::NestedArray) };
            if *n == 0 {
                return Err(ShapeError::EmptyArray);
            }
            let align = elem.align(layout);
            let stride = match layout {
                GlslLayout::Std430 => align_up(elem.size(), align),
                GlslLayout::Scalar => elem.size(),
            };
            let size = (stride as u64) * (*n as u64);
            if size > u32::MAX as u64 / 2 {
                return Err(ShapeError::TooLarge);
            }
            Ok(FieldShape { elem, array: *n, array_stride: stride, size: size as u32, align })
        }
        other => {
            let elem = other.member_type().expect("a field type that is not an array has a row");
            Ok(FieldShape { elem, array: 0, array_stride: 0, size: elem.size(), align: elem.align(layout) })
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
