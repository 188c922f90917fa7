//! The freezing pass on hand-assembled modules: each opcode family at 32 and 64 bits, signed
//! and unsigned, narrow integers, composites, and what it refuses.

use super::{freeze, instruction, Unfrozen};
use crate::shader::words::instructions as split;
use spirv::Op;
use std::collections::HashMap;

// Types every module below declares.
const U32: u32 = 1;
const I32: u32 = 2;
const BOOL: u32 = 3;
const U64: u32 = 4;
const I64: u32 = 5;
const UVEC2: u32 = 6;
const I16: u32 = 7;
const BVEC2: u32 = 8;
const F32: u32 = 9;
const BOUND: u32 = 100;

fn module(constants: &[Vec<u32>], spec_ids: &[u32]) -> Vec<u32> {
    let mut w = vec![spirv::MAGIC_NUMBER, 0x0001_0300, 0, BOUND, 0];
    w.extend(instruction(Op::Capability, &[spirv::Capability::Shader as u32]));
    for (n, id) in spec_ids.iter().enumerate() {
        w.extend(instruction(Op::Decorate, &[*id, spirv::Decoration::SpecId as u32, n as u32]));
    }
    w.extend(instruction(Op::TypeInt, &[U32, 32, 0]));
    w.extend(instruction(Op::TypeInt, &[I32, 32, 1]));
    w.extend(instruction(Op::TypeBool, &[BOOL]));
    w.extend(instruction(Op::TypeInt, &[U64, 64, 0]));
    w.extend(instruction(Op::TypeInt, &[I64, 64, 1]));
    w.extend(instruction(Op::TypeVector, &[UVEC2, U32, 2]));
    w.extend(instruction(Op::TypeInt, &[I16, 16, 1]));
    w.extend(instruction(Op::TypeVector, &[BVEC2, BOOL, 2]));
    w.extend(instruction(Op::TypeFloat, &[F32, 32]));
    constants.iter().for_each(|c| w.extend(c));
    w
}

/// A scalar constant's instruction (`spec`: a specialization constant) of type `ty`.
fn scalar(spec: bool, ty: u32, id: u32, value: u64) -> Vec<u32> {
    let op = if spec { Op::SpecConstant } else { Op::Constant };
    if [U64, I64].contains(&ty) {
        instruction(op, &[ty, id, value as u32, (value >> 32) as u32])
    } else {
        instruction(op, &[ty, id, value as u32])
    }
}

fn spec_op(ty: u32, id: u32, op: Op, operands: &[u32]) -> Vec<u32> {
    let mut words = vec![ty, id, op as u32];
    words.extend(operands);
    instruction(Op::SpecConstantOp, &words)
}

#[derive(Clone, Debug, PartialEq)]
enum C {
    Bool(bool),
    /// The literal words.
    Words(Vec<u32>),
    Composite(Vec<u32>),
}

/// Every constant of a frozen module, after checking that nothing of specialization is left
/// and that every id is below the bound.
fn constants(words: &[u32]) -> HashMap<u32, C> {
    let mut out = HashMap::new();
    for inst in split(&words[5..]).unwrap() {
        let op = Op::from_u32(inst[0] & 0xffff).unwrap();
        assert!(
            !matches!(
                op,
                Op::SpecConstant
                    | Op::SpecConstantTrue
                    | Op::SpecConstantFalse
                    | Op::SpecConstantComposite
                    | Op::SpecConstantOp
            ),
            "{op:?} left"
        );
        assert!(!(op == Op::Decorate && inst[2] == spirv::Decoration::SpecId as u32), "a SpecId left");
        let c = match op {
            Op::ConstantTrue => C::Bool(true),
            Op::ConstantFalse => C::Bool(false),
            Op::Constant => C::Words(inst[3..].to_vec()),
            Op::ConstantComposite => C::Composite(inst[3..].to_vec()),
            _ => continue,
        };
        assert!(inst[2] < words[3], "%{} is not below the bound {}", inst[2], words[3]);
        assert!(out.insert(inst[2], c).is_none(), "%{} defined twice", inst[2]);
    }
    out
}

/// `a op b` for a specialization constant `a` and a constant `b` of type `ty`, into `result`.
fn binary(op: Op, ty: u32, result: u32, a: u64, b: u64) -> Result<C, Unfrozen> {
    let m = module(&[scalar(true, ty, 20, a), scalar(false, ty, 21, b), spec_op(result, 22, op, &[20, 21])], &[20]);
    Ok(constants(&freeze(&m)?)[&22].clone())
}

fn unary(op: Op, ty: u32, result: u32, a: u64) -> Result<C, Unfrozen> {
    let m = module(&[scalar(true, ty, 20, a), spec_op(result, 22, op, &[20])], &[20]);
    Ok(constants(&freeze(&m)?)[&22].clone())
}

fn w32(v: u32) -> C {
    C::Words(vec![v])
}

fn w64(v: u64) -> C {
    C::Words(vec![v as u32, (v >> 32) as u32])
}

#[test]
fn a_module_without_specialization_constants_is_left_as_it_is() {
    let m = module(&[scalar(false, U32, 20, 7)], &[]);
    assert_eq!(freeze(&m).unwrap(), m);
}

#[test]
fn specialization_constants_become_constants_of_their_defaults() {
    let m = module(
        &[
            scalar(true, U32, 20, 7),
            scalar(true, U64, 21, 0x1_0000_0002),
            instruction(Op::SpecConstantTrue, &[BOOL, 22]),
            instruction(Op::SpecConstantFalse, &[BOOL, 23]),
            instruction(Op::SpecConstantComposite, &[UVEC2, 24, 20, 20]),
            scalar(true, F32, 25, 1.5f32.to_bits() as u64),
        ],
        &[20, 21, 22, 23, 25],
    );
    let c = constants(&freeze(&m).unwrap());
    assert_eq!(c[&20], w32(7));
    assert_eq!(c[&21], w64(0x1_0000_0002));
    assert_eq!(c[&22], C::Bool(true));
    assert_eq!(c[&23], C::Bool(false));
    assert_eq!(c[&24], C::Composite(vec![20, 20]));
    assert_eq!(c[&25], w32(1.5f32.to_bits()));
}

#[test]
fn arithmetic_wraps_at_the_result_width() {
    assert_eq!(binary(Op::IAdd, U32, U32, 0xffff_ffff, 2), Ok(w32(1)));
    assert_eq!(binary(Op::IAdd, U64, U64, 0xffff_ffff, 2), Ok(w64(0x1_0000_0001)));
    assert_eq!(binary(Op::ISub, U32, U32, 1, 2), Ok(w32(0xffff_ffff)));
    assert_eq!(binary(Op::ISub, I64, I64, 1, 2), Ok(w64(u64::MAX)));
    assert_eq!(binary(Op::IMul, U32, U32, 0x1_0001, 0x1_0001), Ok(w32(0x2_0001)));
    assert_eq!(binary(Op::IMul, U64, U64, 0x1_0001, 0x1_0001), Ok(w64(0x1_0002_0001)));
    assert_eq!(unary(Op::SNegate, I32, I32, 5), Ok(w32(-5i32 as u32)));
    assert_eq!(unary(Op::SNegate, I64, I64, 5), Ok(w64(-5i64 as u64)));
}

#[test]
fn division_and_remainders_keep_the_spec_signs() {
    let m7 = -7i32 as u32 as u64;
    assert_eq!(binary(Op::UDiv, U32, U32, 7, 2), Ok(w32(3)));
    assert_eq!(binary(Op::UDiv, U32, U32, m7, 2), Ok(w32(0x7fff_fffc)));
    assert_eq!(binary(Op::SDiv, I32, I32, m7, 2), Ok(w32(-3i32 as u32)));
    assert_eq!(binary(Op::SDiv, I64, I64, -7i64 as u64, 2), Ok(w64(-3i64 as u64)));
    assert_eq!(binary(Op::UMod, U32, U32, 7, 3), Ok(w32(1)));
    assert_eq!(binary(Op::UMod, U64, U64, u64::MAX, 10), Ok(w64(5)));
    // SRem: the sign of the dividend; SMod: the sign of the divisor.
    assert_eq!(binary(Op::SRem, I32, I32, m7, 3), Ok(w32(-1i32 as u32)));
    assert_eq!(binary(Op::SMod, I32, I32, m7, 3), Ok(w32(2)));
    assert_eq!(binary(Op::SMod, I32, I32, 7, -3i32 as u32 as u64), Ok(w32(-2i32 as u32)));
    assert_eq!(binary(Op::SMod, I64, I64, -7i64 as u64, 3), Ok(w64(2)));
    assert_eq!(binary(Op::SMod, I32, I32, 6, 3), Ok(w32(0)));
    let zero = binary(Op::UDiv, U32, U32, 7, 0).unwrap_err();
    assert!(zero.0.contains("UDiv") && zero.0.contains("zero"), "{zero}");
}

#[test]
fn shifts_are_logical_or_arithmetic_at_the_width() {
    assert_eq!(binary(Op::ShiftRightArithmetic, I32, I32, 0x8000_0000, 4), Ok(w32(0xf800_0000)));
    assert_eq!(binary(Op::ShiftRightLogical, I32, I32, 0x8000_0000, 4), Ok(w32(0x0800_0000)));
    assert_eq!(binary(Op::ShiftLeftLogical, U32, U32, 3, 31), Ok(w32(0x8000_0000)));
    assert_eq!(binary(Op::ShiftRightArithmetic, I64, I64, 1 << 63, 60), Ok(w64(!7)));
    assert_eq!(binary(Op::ShiftLeftLogical, U64, U64, 1, 40), Ok(w64(1 << 40)));
    let past = binary(Op::ShiftLeftLogical, U32, U32, 1, 32).unwrap_err();
    assert!(past.0.contains("ShiftLeftLogical") && past.0.contains("32"), "{past}");
}

#[test]
fn bitwise_operations() {
    assert_eq!(binary(Op::BitwiseOr, U32, U32, 0xf0, 0x0f), Ok(w32(0xff)));
    assert_eq!(binary(Op::BitwiseXor, U32, U32, 0xff, 0x0f), Ok(w32(0xf0)));
    assert_eq!(binary(Op::BitwiseAnd, U64, U64, 0xff_0000_00ff, 0xf0_0000_000f), Ok(w64(0xf0_0000_000f)));
    assert_eq!(unary(Op::Not, U32, U32, 0x0f), Ok(w32(0xffff_fff0)));
    assert_eq!(unary(Op::Not, U64, U64, 0), Ok(w64(u64::MAX)));
}

#[test]
fn comparisons_read_signed_or_unsigned_as_the_opcode_says() {
    let m1 = u32::MAX as u64;
    let cases = [
        (Op::IEqual, 3, 3, true),
        (Op::INotEqual, 3, 3, false),
        (Op::ULessThan, m1, 1, false),
        (Op::SLessThan, m1, 1, true),
        (Op::UGreaterThan, m1, 1, true),
        (Op::SGreaterThan, m1, 1, false),
        (Op::ULessThanEqual, 1, 1, true),
        (Op::SLessThanEqual, m1, 0, true),
        (Op::UGreaterThanEqual, 0, m1, false),
        (Op::SGreaterThanEqual, 0, m1, true),
    ];
    for (op, a, b, want) in cases {
        assert_eq!(binary(op, I32, BOOL, a, b), Ok(C::Bool(want)), "{op:?}");
    }
    assert_eq!(binary(Op::SLessThan, I64, BOOL, u64::MAX, 0), Ok(C::Bool(true)));
    assert_eq!(binary(Op::ULessThan, U64, BOOL, u64::MAX, 0), Ok(C::Bool(false)));
}

#[test]
fn logical_operations_and_select() {
    let bools = |a: bool, b: bool, op: Op| {
        let t = |v: bool| if v { Op::SpecConstantTrue } else { Op::SpecConstantFalse };
        let m = module(
            &[instruction(t(a), &[BOOL, 20]), instruction(t(b), &[BOOL, 21]), spec_op(BOOL, 22, op, &[20, 21])],
            &[20, 21],
        );
        constants(&freeze(&m).unwrap())[&22].clone()
    };
    assert_eq!(bools(true, false, Op::LogicalOr), C::Bool(true));
    assert_eq!(bools(true, false, Op::LogicalAnd), C::Bool(false));
    assert_eq!(bools(true, false, Op::LogicalEqual), C::Bool(false));
    assert_eq!(bools(false, false, Op::LogicalNotEqual), C::Bool(false));
    let m = module(
        &[
            instruction(Op::SpecConstantFalse, &[BOOL, 20]),
            spec_op(BOOL, 21, Op::LogicalNot, &[20]),
            scalar(false, U32, 22, 1),
            scalar(false, U32, 23, 2),
            // glslang's `uint(b)`: a select of 1 and 0.
            spec_op(U32, 24, Op::Select, &[21, 22, 23]),
            spec_op(U32, 25, Op::Select, &[20, 22, 23]),
        ],
        &[20],
    );
    let c = constants(&freeze(&m).unwrap());
    assert_eq!(c[&21], C::Bool(true));
    assert_eq!(c[&24], w32(1));
    assert_eq!(c[&25], w32(2));
}

#[test]
fn conversions_extend_by_the_operand_and_truncate_to_the_result() {
    assert_eq!(unary(Op::UConvert, U32, U64, 0xffff_ffff), Ok(w64(0xffff_ffff)));
    assert_eq!(unary(Op::SConvert, I32, I64, 0xffff_ffff), Ok(w64(u64::MAX)));
    assert_eq!(unary(Op::UConvert, U64, U32, 0x1_2345_6789), Ok(w32(0x2345_6789)));
    // A signed 16-bit result is one word, sign-extended (SPIR-V's rule for narrow literals).
    assert_eq!(unary(Op::SConvert, I64, I16, 0x1234_8765), Ok(w32(0xffff_8765)));
    assert_eq!(unary(Op::SConvert, I64, I16, 0x1234_0765), Ok(w32(0x0765)));
    // glslang's int(uint): an IAdd of 0 at the same width.
    assert_eq!(binary(Op::IAdd, U32, I32, 0xffff_fffe, 0), Ok(w32(0xffff_fffe)));
}

#[test]
fn composites_are_extracted_inserted_and_shuffled() {
    let m = module(
        &[
            scalar(true, U32, 20, 3),
            scalar(false, U32, 21, 4),
            instruction(Op::SpecConstantComposite, &[UVEC2, 22, 20, 21]),
            spec_op(U32, 23, Op::CompositeExtract, &[22, 1]),
            spec_op(UVEC2, 24, Op::VectorShuffle, &[22, 22, 3, 0]),
            spec_op(UVEC2, 25, Op::CompositeInsert, &[21, 22, 0]),
            // Lane-wise: new component constants.
            spec_op(UVEC2, 26, Op::IMul, &[22, 24]),
            spec_op(BVEC2, 27, Op::IEqual, &[22, 25]),
        ],
        &[20],
    );
    let frozen = freeze(&m).unwrap();
    assert!(frozen[3] > BOUND, "the bound grows by the new components");
    let c = constants(&frozen);
    assert_eq!(c[&23], w32(4));
    assert_eq!(c[&24], C::Composite(vec![21, 20]));
    assert_eq!(c[&25], C::Composite(vec![21, 21]));
    let lanes = |id: u32| match &c[&id] {
        C::Composite(parts) => parts.iter().map(|p| c[p].clone()).collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    assert_eq!(lanes(26), [w32(12), w32(12)]);
    assert_eq!(lanes(27), [C::Bool(false), C::Bool(true)]);
}

#[test]
fn a_vector_condition_selects_per_component_and_an_insert_rebuilds_nested_composites() {
    const ARRAY: u32 = 10;
    let m = module(
        &[
            scalar(false, U32, 20, 1),
            scalar(false, U32, 21, 2),
            scalar(true, U32, 22, 9),
            instruction(Op::TypeArray, &[ARRAY, UVEC2, 21]),
            instruction(Op::SpecConstantComposite, &[UVEC2, 23, 20, 21]),
            instruction(Op::ConstantComposite, &[ARRAY, 24, 23, 23]),
            instruction(Op::SpecConstantTrue, &[BOOL, 25]),
            instruction(Op::ConstantFalse, &[BOOL, 26]),
            instruction(Op::SpecConstantComposite, &[BVEC2, 27, 25, 26]),
            // (true, false) ? (1, 2) : (2, 1) = (1, 1)
            spec_op(UVEC2, 28, Op::VectorShuffle, &[23, 23, 1, 0]),
            spec_op(UVEC2, 29, Op::Select, &[27, 23, 28]),
            // array[1].y = 9
            spec_op(ARRAY, 30, Op::CompositeInsert, &[22, 24, 1, 1]),
            spec_op(U32, 31, Op::CompositeExtract, &[30, 1, 1]),
            spec_op(U32, 32, Op::CompositeExtract, &[30, 0, 1]),
        ],
        &[22, 23, 25, 27],
    );
    let c = constants(&freeze(&m).unwrap());
    let lanes = |id: u32| match &c[&id] {
        C::Composite(parts) => parts.iter().map(|p| c[p].clone()).collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    assert_eq!(lanes(29), [w32(1), w32(1)]);
    assert_eq!(c[&31], w32(9));
    assert_eq!(c[&32], w32(2));
    let C::Composite(parts) = &c[&30] else { panic!() };
    assert_eq!(parts[0], 23, "the untouched element is kept");
    assert_eq!(lanes(parts[1]), [w32(1), w32(9)]);
}

#[test]
fn what_cannot_be_evaluated_is_refused_by_name() {
    let m = module(&[scalar(true, F32, 20, 0), spec_op(F32, 21, Op::QuantizeToF16, &[20])], &[20]);
    let e = freeze(&m).unwrap_err();
    assert!(e.0.contains("OpSpecConstantOp QuantizeToF16"), "{e}");
    let m = module(&[scalar(true, F32, 20, 0), spec_op(F32, 21, Op::FAdd, &[20, 20])], &[20]);
    assert!(freeze(&m).unwrap_err().0.contains("OpSpecConstantOp FAdd"));
    let m = module(&[scalar(true, U32, 20, 0), spec_op(UVEC2, 21, Op::VectorShuffle, &[20, 20, 0, 1])], &[20]);
    assert!(freeze(&m).unwrap_err().0.contains("VectorShuffle"));
}

#[test]
fn a_broken_module_is_left_to_naga() {
    assert_eq!(freeze(&[1, 2, 3]), Ok(vec![1, 2, 3]));
    let mut m = module(&[scalar(true, U32, 20, 0)], &[20]);
    m.push(0x0005_002b);
    assert_eq!(freeze(&m), Ok(m));
}

/// What glslang writes for `materials.glsl`'s constants: naga reads the module once frozen.
#[test]
fn naga_reads_glslangs_specialization_constant_expressions_once_frozen() {
    let src = "#version 460\n\
        layout(constant_id = 3) const uint MATERIAL = 0u;\n\
        layout(constant_id = 4) const int SIGNED = -3;\n\
        layout(constant_id = 5) const bool FLAG = false;\n\
        const uint KIND = MATERIAL % 4u;\n\
        const uint LEVEL = MATERIAL / 4u;\n\
        const int HALF = SIGNED >> 1;\n\
        const uint WIDE = FLAG ? 2u : uint(SIGNED);\n\
        layout(push_constant) uniform P { uint a; uint b; } p;\n\
        layout(location = 0) out uint o;\n\
        void main() { uint n = 0u; for (uint k = 0u; k < 4u * (LEVEL + 1u); k++) n += k; o = KIND != 2u ? p.a + n + uint(HALF) + WIDE : p.b; }\n";
    let compiler = shaderc::Compiler::new().unwrap();
    let mut options = shaderc::CompileOptions::new().unwrap();
    options.set_target_env(shaderc::TargetEnv::Vulkan, shaderc::EnvVersion::Vulkan1_2 as u32);
    options.set_target_spirv(shaderc::SpirvVersion::V1_3);
    let spv =
        compiler.compile_into_spirv(src, shaderc::ShaderKind::Fragment, "m.frag", "main", Some(&options)).unwrap();
    let words = spv.as_binary();
    assert!(split(&words[5..]).unwrap().iter().any(|i| i[0] & 0xffff == Op::SpecConstantOp as u32));
    let bytes = |w: &[u32]| w.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    let options = naga::front::spv::Options::default();
    assert!(naga::front::spv::parse_u8_slice(&bytes(words), &options).is_err(), "naga reads OpSpecConstantOp now");
    let frozen = freeze(words).unwrap();
    constants(&frozen);
    let module = naga::front::spv::parse_u8_slice(&bytes(&frozen), &options).unwrap();
    assert!(module.overrides.is_empty(), "{:?}", module.overrides);
}
