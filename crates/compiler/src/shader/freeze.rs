//! Specialization constants frozen to their defaults, so that naga can read the module.
//!
//! Why: glslang writes an expression of `layout(constant_id = …)` constants (`MATERIAL % 4u`)
//! as `OpSpecConstantOp`, which naga's SPIR-V front end does not read, so a shader that uses
//! one could not be reflected at all (W0511). The checks read declarations (push-constant
//! offsets, vertex inputs, workgroup sizes), which no specialization changes, and a description
//! gives no specialization values; so before naga reads a module, every specialization constant
//! becomes the ordinary constant of its default, and every `OpSpecConstantOp` the constant it
//! evaluates to. The SPIR-V spec lists the opcodes `OpSpecConstantOp` may use in a shader: the
//! integer and boolean arithmetic, comparisons, conversions and selects evaluated here (at the
//! result's width and signedness), and the composite extractions, insertions and shuffles,
//! which rebuild constant composites. What cannot be evaluated (`QuantizeToF16`, the float and
//! pointer opcodes only kernels may use, a shift past the width, a division by zero) is
//! refused, naming the opcode, and the shader keeps W0511.
//!
//! The pass works on the words: a 5-word header, then instructions whose first word is
//! `word_count << 16 | opcode`. Constants are defined before they are used, so one pass in order
//! evaluates everything; the `SpecId` decorations are dropped (naga would read a decorated
//! constant as an override), and the header's id bound grows by the ids of the constants that
//! new vector components need.

use spirv::Op;
use std::collections::HashMap;

/// The SPIR-V decoration `SpecId`.
const SPEC_ID: u32 = spirv::Decoration::SpecId as u32;

/// Why a module's specialization constants could not be frozen.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Unfrozen(pub String);

impl std::fmt::Display for Unfrozen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot freeze the specialization constants to their defaults: {}", self.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Ty {
    Bool,
    Int {
        width: u32,
        signed: bool,
    },
    Float {
        width: u32,
    },
    Vector {
        component: u32,
        count: u32,
    },
    /// Arrays, matrices and structs: composites whose constituents are kept by id.
    Aggregate,
}

#[derive(Clone, Debug, PartialEq)]
enum Value {
    Bool(bool),
    /// An integer or float's bits, zero above its width.
    Bits(u64),
    /// A composite's constituents.
    Composite(Vec<u32>),
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// `v` (of `width` bits) sign-extended.
fn signed(v: u64, width: u32) -> i64 {
    if width >= 64 {
        v as i64
    } else {
        let shift = 64 - width;
        ((v << shift) as i64) >> shift
    }
}

struct Pass {
    types: HashMap<u32, Ty>,
    /// Every constant: its type and value.
    constants: HashMap<u32, (u32, Value)>,
    bound: u32,
    out: Vec<u32>,
}

/// `words` with every specialization constant frozen to its default, or why not. A module
/// without specialization constants comes back as it is, and so does one whose header or
/// word counts are broken: naga's reader says what is wrong with it.
pub(crate) fn freeze(words: &[u32]) -> Result<Vec<u32>, Unfrozen> {
    let Some(instructions) = (words.len() >= 5 && words[0] == spirv::MAGIC_NUMBER)
        .then(|| super::words::instructions(&words[super::words::HEADER_WORDS..]))
        .flatten()
    else {
        return Ok(words.to_vec());
    };
    let spec =
        [Op::SpecConstantTrue, Op::SpecConstantFalse, Op::SpecConstant, Op::SpecConstantComposite, Op::SpecConstantOp];
    if !instructions.iter().any(|i| Op::from_u32(i[0] & 0xffff).is_some_and(|op| spec.contains(&op))) {
        return Ok(words.to_vec());
    }
    let mut pass = Pass { types: HashMap::new(), constants: HashMap::new(), bound: words[3], out: words[..5].to_vec() };
    for inst in instructions {
        pass.rewrite(inst)?;
    }
    pass.out[3] = pass.bound;
    Ok(pass.out)
}

/// The words of instruction `op` with `operands`.
fn instruction(op: Op, operands: &[u32]) -> Vec<u32> {
    let mut v = Vec::with_capacity(operands.len() + 1);
    v.push(((operands.len() as u32 + 1) << 16) | op as u32);
    v.extend_from_slice(operands);
    v
}

impl Pass {
    /// Copy `inst` to the output, frozen, and note the types and constants it defines.
    fn rewrite(&mut self, inst: &[u32]) -> Result<(), Unfrozen> {
        let short = || Unfrozen("the module is not valid SPIR-V (an instruction is too short)".into());
        let Some(op) = Op::from_u32(inst[0] & 0xffff) else {
            self.out.extend_from_slice(inst);
            return Ok(());
        };
        let arg = |i: usize| inst.get(i).copied().ok_or_else(short);
        match op {
            Op::Decorate if inst.get(2) == Some(&SPEC_ID) => return Ok(()),
            Op::TypeBool => {
                self.types.insert(arg(1)?, Ty::Bool);
            }
            Op::TypeInt => {
                self.types.insert(arg(1)?, Ty::Int { width: arg(2)?, signed: arg(3)? != 0 });
            }
            Op::TypeFloat => {
                self.types.insert(arg(1)?, Ty::Float { width: arg(2)? });
            }
            Op::TypeVector => {
                self.types.insert(arg(1)?, Ty::Vector { component: arg(2)?, count: arg(3)? });
            }
            Op::TypeArray | Op::TypeMatrix | Op::TypeStruct => {
                self.types.insert(arg(1)?, Ty::Aggregate);
            }
            Op::ConstantTrue | Op::ConstantFalse | Op::SpecConstantTrue | Op::SpecConstantFalse => {
                let value = matches!(op, Op::ConstantTrue | Op::SpecConstantTrue);
                self.constants.insert(arg(2)?, (arg(1)?, Value::Bool(value)));
                let op = if value { Op::ConstantTrue } else { Op::ConstantFalse };
                self.out.extend(instruction(op, &inst[1..]));
                return Ok(());
            }
            Op::Constant | Op::SpecConstant => {
                let (ty, id) = (arg(1)?, arg(2)?);
                let low = arg(3)? as u64;
                let high = inst.get(4).map_or(0, |&w| (w as u64) << 32);
                let width = match self.types.get(&ty) {
                    Some(Ty::Int { width, .. } | Ty::Float { width }) => *width,
                    _ => 32,
                };
                self.constants.insert(id, (ty, Value::Bits((low | high) & mask(width))));
                self.out.extend(instruction(Op::Constant, &inst[1..]));
                return Ok(());
            }
            Op::ConstantComposite | Op::SpecConstantComposite => {
                self.constants.insert(arg(2)?, (arg(1)?, Value::Composite(inst[3..].to_vec())));
                self.out.extend(instruction(Op::ConstantComposite, &inst[1..]));
                return Ok(());
            }
            Op::ConstantNull => {
                let (ty, id) = (arg(1)?, arg(2)?);
                match self.types.get(&ty) {
                    Some(Ty::Bool) => {
                        self.constants.insert(id, (ty, Value::Bool(false)));
                    }
                    Some(Ty::Int { .. } | Ty::Float { .. }) => {
                        self.constants.insert(id, (ty, Value::Bits(0)));
                    }
                    // A null composite is left to naga; an operation on it is refused below.
                    _ => {}
                }
            }
            Op::SpecConstantOp => {
                let (ty, id, opcode) = (arg(1)?, arg(2)?, arg(3)?);
                let value = self.evaluate(ty, opcode, &inst[4..])?;
                self.define(ty, id, value)?;
                return Ok(());
            }
            _ => {}
        }
        self.out.extend_from_slice(inst);
        Ok(())
    }

    /// Emit constant `id` of type `ty` with `value`.
    fn define(&mut self, ty: u32, id: u32, value: Value) -> Result<(), Unfrozen> {
        let words = match &value {
            Value::Bool(true) => instruction(Op::ConstantTrue, &[ty, id]),
            Value::Bool(false) => instruction(Op::ConstantFalse, &[ty, id]),
            Value::Bits(bits) => {
                let (width, is_signed) = match self.types.get(&ty) {
                    Some(Ty::Int { width, signed }) => (*width, *signed),
                    Some(Ty::Float { width }) => (*width, false),
                    _ => return Err(Unfrozen(format!("%{id} is a scalar of a type that is not a number"))),
                };
                if width > 32 {
                    instruction(Op::Constant, &[ty, id, *bits as u32, (*bits >> 32) as u32])
                } else {
                    // Narrower than 32 bits: sign-extended for a signed integer, else zero.
                    let word = if is_signed { signed(*bits, width) as u32 } else { *bits as u32 };
                    instruction(Op::Constant, &[ty, id, word])
                }
            }
            Value::Composite(parts) => {
                let mut operands = vec![ty, id];
                operands.extend(parts);
                instruction(Op::ConstantComposite, &operands)
            }
        };
        self.out.extend(words);
        self.constants.insert(id, (ty, value));
        Ok(())
    }

    /// A new constant of type `ty` (a vector's component), emitted now; its id.
    fn fresh(&mut self, ty: u32, value: Value) -> Result<u32, Unfrozen> {
        let id = self.bound;
        self.bound = self.bound.checked_add(1).ok_or_else(|| Unfrozen("the module has no ids left".into()))?;
        self.define(ty, id, value)?;
        Ok(id)
    }

    fn constant(&self, id: u32) -> Result<&(u32, Value), Unfrozen> {
        self.constants.get(&id).ok_or_else(|| Unfrozen(format!("an operand (%{id}) is not a constant it can read")))
    }

    fn ty(&self, id: u32) -> Result<Ty, Unfrozen> {
        self.types.get(&id).copied().ok_or_else(|| Unfrozen(format!("%{id} is not a type it can read")))
    }

    /// The width of scalar type `ty` (1 for a boolean).
    fn width(&self, ty: u32) -> Result<u32, Unfrozen> {
        match self.ty(ty)? {
            Ty::Int { width, .. } | Ty::Float { width } => Ok(width),
            Ty::Bool => Ok(1),
            _ => Err(Unfrozen(format!("%{ty} is not a scalar type"))),
        }
    }

    /// The lanes of constant `id`: itself for a scalar, the components of a vector, each as
    /// its scalar type and value.
    fn lanes(&self, id: u32) -> Result<Vec<(u32, Value)>, Unfrozen> {
        let (ty, value) = self.constant(id)?;
        match (self.ty(*ty)?, value) {
            (Ty::Vector { .. }, Value::Composite(parts)) => parts.iter().map(|p| self.constant(*p).cloned()).collect(),
            (Ty::Vector { .. } | Ty::Aggregate, _) => {
                Err(Unfrozen(format!("%{id} is a composite it cannot take apart (a null constant)")))
            }
            _ => Ok(vec![(*ty, value.clone())]),
        }
    }

    /// The value of `OpSpecConstantOp` of result type `ty` with `opcode` and `operands`.
    fn evaluate(&mut self, ty: u32, opcode: u32, operands: &[u32]) -> Result<Value, Unfrozen> {
        let Some(op) = Op::from_u32(opcode) else {
            return Err(Unfrozen(format!("OpSpecConstantOp with the unknown opcode {opcode}")));
        };
        let refuse = |why: &str| Unfrozen(format!("OpSpecConstantOp {op:?} {why}"));
        let count = |n: usize| {
            if operands.len() == n {
                Ok(())
            } else {
                Err(refuse(&format!("has {} operands, not {n}", operands.len())))
            }
        };
        match op {
            Op::CompositeExtract => {
                let (first, indices) = operands.split_first().ok_or_else(|| refuse("has no operands"))?;
                let mut id = *first;
                for &i in indices {
                    let Value::Composite(parts) = &self.constant(id)?.1 else {
                        return Err(refuse(&format!("indexes %{id}, which is no constant composite")));
                    };
                    id = *parts.get(i as usize).ok_or_else(|| refuse(&format!("index {i} is out of bounds")))?;
                }
                Ok(self.constant(id)?.1.clone())
            }
            Op::CompositeInsert => {
                if operands.len() < 3 {
                    return Err(refuse("has fewer than 3 operands"));
                }
                let parts = self.insert(operands[1], &operands[2..], operands[0]).map_err(|e| refuse(&e))?;
                Ok(Value::Composite(parts))
            }
            Op::VectorShuffle => {
                if operands.len() < 2 {
                    return Err(refuse("has fewer than 2 operands"));
                }
                let mut all = vec![];
                for &v in &operands[..2] {
                    match &self.constant(v)?.1 {
                        Value::Composite(parts) => all.extend(parts.iter().copied()),
                        _ => return Err(refuse(&format!("shuffles %{v}, which is no constant vector"))),
                    }
                }
                let picked = operands[2..]
                    .iter()
                    .map(|&c| {
                        all.get(c as usize)
                            .copied()
                            .ok_or_else(|| refuse(&format!("picks component {c}, which is undefined or out of bounds")))
                    })
                    .collect::<Result<Vec<u32>, _>>()?;
                Ok(Value::Composite(picked))
            }
            Op::Select => {
                count(3)?;
                let condition = self.lanes(operands[0])?;
                if let [(_, Value::Bool(c))] = condition.as_slice() {
                    // A scalar condition picks a whole object.
                    return Ok(self.constant(if *c { operands[1] } else { operands[2] })?.1.clone());
                }
                let (a, b) = (self.lanes(operands[1])?, self.lanes(operands[2])?);
                if a.len() != condition.len() || b.len() != condition.len() {
                    return Err(refuse("has operands of different component counts"));
                }
                let lanes = condition
                    .iter()
                    .zip(a.iter().zip(&b))
                    .map(|((_, c), (x, y))| match c {
                        Value::Bool(true) => Ok(x.1.clone()),
                        Value::Bool(false) => Ok(y.1.clone()),
                        _ => Err(refuse("has a condition that is not boolean")),
                    })
                    .collect::<Result<Vec<Value>, _>>()?;
                self.vector(ty, lanes)
            }
            _ => {
                let arity = arity(op).ok_or_else(|| refuse("cannot be evaluated: it is not an integer or boolean operation a shader's specialization constants may use"))?;
                count(arity)?;
                let inputs = operands.iter().map(|&o| self.lanes(o)).collect::<Result<Vec<_>, _>>()?;
                let n = inputs[0].len();
                if inputs.iter().any(|l| l.len() != n) {
                    return Err(refuse("has operands of different component counts"));
                }
                let result_lane = match self.ty(ty)? {
                    Ty::Vector { component, count } if count as usize == n => component,
                    Ty::Vector { .. } | Ty::Aggregate => return Err(refuse("has a result of another component count")),
                    _ if n == 1 => ty,
                    _ => return Err(refuse("has a scalar result of vector operands")),
                };
                let result_width = self.width(result_lane)?;
                let mut lanes = vec![];
                for lane in 0..n {
                    let args = inputs
                        .iter()
                        .map(|l| {
                            let (t, v) = &l[lane];
                            Ok((v.clone(), self.width(*t)?))
                        })
                        .collect::<Result<Vec<_>, Unfrozen>>()?;
                    lanes.push(scalar(op, &args, result_width).map_err(|e| refuse(&e))?);
                }
                self.vector(ty, lanes)
            }
        }
    }

    /// The value of a result of type `ty` from its lanes: the scalar itself, or a vector of new
    /// component constants.
    fn vector(&mut self, ty: u32, lanes: Vec<Value>) -> Result<Value, Unfrozen> {
        match self.ty(ty)? {
            Ty::Vector { component, .. } => {
                let parts = lanes.into_iter().map(|v| self.fresh(component, v)).collect::<Result<Vec<u32>, _>>()?;
                Ok(Value::Composite(parts))
            }
            _ => lanes.into_iter().next().ok_or_else(|| Unfrozen("an operation has no lanes".into())),
        }
    }

    /// The constituents of composite `composite` with the part at `indices` replaced by
    /// `object`; the composites on the way are new constants.
    fn insert(&mut self, composite: u32, indices: &[u32], object: u32) -> Result<Vec<u32>, String> {
        let Some((_, Value::Composite(parts))) = self.constants.get(&composite) else {
            return Err(format!("inserts into %{composite}, which is no constant composite"));
        };
        let mut parts = parts.clone();
        let (&first, rest) = indices.split_first().ok_or("has no index")?;
        let slot = parts.get_mut(first as usize).ok_or(format!("index {first} is out of bounds"))?;
        if rest.is_empty() {
            *slot = object;
        } else {
            let inner = *slot;
            let inner_ty = self.constants.get(&inner).map(|c| c.0).ok_or("indexes a part that is not a constant")?;
            let inner_parts = self.insert(inner, rest, object)?;
            let id = self.fresh(inner_ty, Value::Composite(inner_parts)).map_err(|e| e.0)?;
            parts[first as usize] = id;
        }
        Ok(parts)
    }
}

/// The operand count of a lane-wise integer or boolean operation `OpSpecConstantOp` may use.
fn arity(op: Op) -> Option<usize> {
    use Op::*;
    Some(match op {
        SNegate | Not | LogicalNot | UConvert | SConvert => 1,
        IAdd | ISub | IMul | UDiv | SDiv | UMod | SRem | SMod | ShiftRightLogical | ShiftRightArithmetic
        | ShiftLeftLogical | BitwiseOr | BitwiseXor | BitwiseAnd | LogicalOr | LogicalAnd | LogicalEqual
        | LogicalNotEqual | IEqual | INotEqual | ULessThan | SLessThan | UGreaterThan | SGreaterThan
        | ULessThanEqual | SLessThanEqual | UGreaterThanEqual | SGreaterThanEqual => 2,
        _ => return None,
    })
}

/// One lane of `op` on `args` (each value with its width), for a result of `width` bits.
fn scalar(op: Op, args: &[(Value, u32)], width: u32) -> Result<Value, String> {
    use Op::*;
    let int = |i: usize| match &args[i] {
        (Value::Bits(b), w) => Ok((*b, *w)),
        _ => Err("has an operand that is not an integer".to_string()),
    };
    let boolean = |i: usize| match &args[i] {
        (Value::Bool(b), _) => Ok(*b),
        _ => Err("has an operand that is not a boolean".to_string()),
    };
    let m = mask(width);
    let wrap = |v: u64| Value::Bits(v & m);
    Ok(match op {
        LogicalNot => Value::Bool(!boolean(0)?),
        LogicalOr => Value::Bool(boolean(0)? | boolean(1)?),
        LogicalAnd => Value::Bool(boolean(0)? & boolean(1)?),
        LogicalEqual => Value::Bool(boolean(0)? == boolean(1)?),
        LogicalNotEqual => Value::Bool(boolean(0)? != boolean(1)?),
        SNegate => wrap(int(0)?.0.wrapping_neg()),
        Not => wrap(!int(0)?.0),
        UConvert => wrap(int(0)?.0),
        SConvert => {
            let (a, w) = int(0)?;
            wrap(signed(a, w) as u64)
        }
        _ => {
            let ((a, wa), (b, wb)) = (int(0)?, int(1)?);
            let (sa, sb) = (signed(a, wa), signed(b, wb));
            let nonzero = |v: u64| if v == 0 { Err("divides by zero".to_string()) } else { Ok(()) };
            let shift = |v: u64| {
                if v >= width as u64 {
                    Err(format!("shifts by {v}, not less than the width {width}"))
                } else {
                    Ok(v as u32)
                }
            };
            match op {
                IAdd => wrap(a.wrapping_add(b)),
                ISub => wrap(a.wrapping_sub(b)),
                IMul => wrap(a.wrapping_mul(b)),
                UDiv => {
                    nonzero(b)?;
                    wrap(a / b)
                }
                SDiv => {
                    nonzero(b)?;
                    wrap(sa.wrapping_div(sb) as u64)
                }
                UMod => {
                    nonzero(b)?;
                    wrap(a % b)
                }
                // The remainder's sign is the dividend's.
                SRem => {
                    nonzero(b)?;
                    wrap(sa.wrapping_rem(sb) as u64)
                }
                // The remainder's sign is the divisor's.
                SMod => {
                    nonzero(b)?;
                    let r = sa.wrapping_rem(sb);
                    wrap(if r != 0 && (r < 0) != (sb < 0) { r.wrapping_add(sb) } else { r } as u64)
                }
                ShiftLeftLogical => wrap(a << shift(b)?),
                ShiftRightLogical => wrap(a >> shift(b)?),
                ShiftRightArithmetic => wrap((signed(a, width) >> shift(b)?) as u64),
                BitwiseOr => wrap(a | b),
                BitwiseXor => wrap(a ^ b),
                BitwiseAnd => wrap(a & b),
                IEqual => Value::Bool(a == b),
                INotEqual => Value::Bool(a != b),
                ULessThan => Value::Bool(a < b),
                UGreaterThan => Value::Bool(a > b),
                ULessThanEqual => Value::Bool(a <= b),
                UGreaterThanEqual => Value::Bool(a >= b),
                SLessThan => Value::Bool(sa < sb),
                SGreaterThan => Value::Bool(sa > sb),
                SLessThanEqual => Value::Bool(sa <= sb),
                SGreaterThanEqual => Value::Bool(sa >= sb),
                _ => return Err("cannot be evaluated".to_string()),
            }
        }
    })
}

#[cfg(test)]
mod tests;
