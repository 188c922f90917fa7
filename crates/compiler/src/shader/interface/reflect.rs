//! What naga reads out of a shader's SPIR-V: the push-constant block (each member's offset,
//! size, type and whether the shader uses it) and a vertex shader's input locations.
//!
//! Why SPIR-V and not the GLSL: the offsets glslang decorates the block with are the layout the
//! device reads (as for the kernels' record struct), whatever `layout(offset = …)`, `std430` or
//! `scalar` the source wrote, and a `.spv` file has nothing else. Static use is read from the
//! functions' expressions: a member is used where an access chain into the block names it, and
//! a load of the whole block uses every member. Inputs are the entry point's arguments bound to
//! a location, all of which the pipeline's vertex input state must provide.

use dgcc_core::stages::Stage;
use naga::{AddressSpace, Binding, Expression, Handle, Module, ScalarKind, TypeInner};

/// A shader's interface with the layouts.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Interface {
    /// The members of the `push_constant` block, in offset order; empty without a block.
    pub push: Vec<Member>,
    /// A vertex shader's inputs, in location order.
    pub inputs: Vec<Input>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Member {
    pub name: String,
    pub offset: u32,
    pub size: u32,
    /// The GLSL spelling of its type (`uint`, `vec4`, `float[4]`).
    pub glsl: String,
    /// Whether its scalars are floating point; `None` for a type of mixed or other scalars.
    pub float: Option<bool>,
    /// Whether the shader reads it.
    pub used: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Input {
    pub location: u32,
    pub name: String,
}

/// A SPIR-V module as naga reads it for its interface, its specialization constants frozen to
/// their defaults first (`crate::shader::freeze`: naga reads no `OpSpecConstantOp`, and no
/// specialization moves a declaration). Capabilities naga's IR does not list are let through:
/// these checks read declarations, not code, and the generated reader include uses `gl_DrawID`
/// (`DrawParameters`), which naga's strict reading refuses. `Err` says which of the two stopped.
pub(crate) fn parse(words: &[u32]) -> Result<Module, String> {
    let words = crate::shader::freeze::freeze(words).map_err(|e| e.to_string())?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let options = naga::front::spv::Options { strict_capabilities: false, ..Default::default() };
    naga::front::spv::parse_u8_slice(&bytes, &options).map_err(|e| format!("naga: {e}"))
}

/// Whether the module loads built-in `which` (`gl_InstanceIndex` for `InstanceIndex`,
/// `gl_DrawID` for `DrawIndex`) anywhere: a variable decorated `BuiltIn which` that an `OpLoad`
/// reads. Read from the words, not naga's IR, where the input is an argument of the entry point
/// whether or not anything reads it. As with push-constant members, a load under a
/// specialization constant that turns it off still counts.
pub(crate) fn reads_built_in(words: &[u32], which: spirv::BuiltIn) -> bool {
    let body = words.get(crate::shader::words::HEADER_WORDS..).unwrap_or_default();
    let Some(instructions) = crate::shader::words::instructions(body) else { return false };
    let opcode = |i: &[u32]| i[0] & 0xffff;
    let built_in = spirv::Decoration::BuiltIn as u32;
    let which = which as u32;
    let variables: Vec<u32> = instructions
        .iter()
        .filter(|i| opcode(i) == spirv::Op::Decorate as u32)
        .filter_map(|i| match i[1..] {
            [target, d, b, ..] if d == built_in && b == which => Some(target),
            _ => None,
        })
        .collect();
    // OpLoad: result type, result id, pointer.
    instructions.iter().any(|i| opcode(i) == spirv::Op::Load as u32 && i.get(3).is_some_and(|p| variables.contains(p)))
}

/// naga's name for a stage; `None` for the stages naga's IR has no entry points of.
pub(crate) fn naga_stage(stage: Stage) -> Option<naga::ShaderStage> {
    Some(match stage {
        Stage::Vertex => naga::ShaderStage::Vertex,
        Stage::Fragment => naga::ShaderStage::Fragment,
        Stage::Compute => naga::ShaderStage::Compute,
        Stage::Task => naga::ShaderStage::Task,
        Stage::Mesh => naga::ShaderStage::Mesh,
        Stage::RayGen => naga::ShaderStage::RayGeneration,
        Stage::Miss => naga::ShaderStage::Miss,
        Stage::AnyHit => naga::ShaderStage::AnyHit,
        Stage::ClosestHit => naga::ShaderStage::ClosestHit,
        Stage::TessControl | Stage::TessEval | Stage::Geometry | Stage::Intersection | Stage::Callable => return None,
    })
}

/// The interface of entry point `main` of `stage`; `None` when the module has no such entry.
pub(crate) fn interface(m: &Module, stage: naga::ShaderStage) -> Option<Interface> {
    let entry = m.entry_points.iter().find(|e| e.stage == stage && e.name == "main")?;
    let mut out = Interface::default();
    if let Some((block, members)) = m.global_variables.iter().find_map(|(h, g)| match &m.types[g.ty].inner {
        TypeInner::Struct { members, .. } if g.space == AddressSpace::Immediate => Some((h, members)),
        _ => None,
    }) {
        let used = used_members(m, block, members.len());
        for (i, member) in members.iter().enumerate() {
            let inner = &m.types[member.ty].inner;
            out.push.push(Member {
                name: member.name.clone().unwrap_or_else(|| format!("member {i}")),
                offset: member.offset,
                size: inner.size(m.to_ctx()),
                glsl: glsl(m, inner),
                float: float(m, inner),
                used: used[i],
            });
        }
        out.push.sort_by_key(|p| p.offset);
    }
    if stage == naga::ShaderStage::Vertex {
        for a in &entry.function.arguments {
            if let Some(Binding::Location { location, .. }) = a.binding {
                out.inputs.push(Input { location, name: a.name.clone().unwrap_or_default() });
            }
        }
        out.inputs.sort_by_key(|i| i.location);
    }
    Some(out)
}

/// Which members of the block `block` any function reads.
fn used_members(m: &Module, block: Handle<naga::GlobalVariable>, count: usize) -> Vec<bool> {
    let mut used = vec![false; count];
    let functions = m.functions.iter().map(|(_, f)| f).chain(m.entry_points.iter().map(|e| &e.function));
    for f in functions {
        let roots: Vec<Handle<Expression>> = f
            .expressions
            .iter()
            .filter(|(_, e)| matches!(e, Expression::GlobalVariable(g) if *g == block))
            .map(|(h, _)| h)
            .collect();
        for (_, e) in f.expressions.iter() {
            match *e {
                Expression::AccessIndex { base, index } if roots.contains(&base) => {
                    if let Some(u) = used.get_mut(index as usize) {
                        *u = true;
                    }
                }
                Expression::Load { pointer } if roots.contains(&pointer) => used.iter_mut().for_each(|u| *u = true),
                _ => {}
            }
        }
    }
    used
}

fn scalar_name(kind: ScalarKind, width: u8) -> &'static str {
    match (kind, width) {
        (ScalarKind::Float, 8) => "double",
        (ScalarKind::Float, 2) => "float16_t",
        (ScalarKind::Float, _) => "float",
        (ScalarKind::Uint, 8) => "uint64_t",
        (ScalarKind::Uint, _) => "uint",
        (ScalarKind::Sint, 8) => "int64_t",
        (ScalarKind::Sint, _) => "int",
        (ScalarKind::Bool, _) => "bool",
        _ => "?",
    }
}

fn vector_prefix(kind: ScalarKind, width: u8) -> &'static str {
    match (kind, width) {
        (ScalarKind::Float, 8) => "dvec",
        (ScalarKind::Float, _) => "vec",
        (ScalarKind::Uint, 8) => "u64vec",
        (ScalarKind::Uint, _) => "uvec",
        (ScalarKind::Sint, 8) => "i64vec",
        (ScalarKind::Sint, _) => "ivec",
        _ => "bvec",
    }
}

/// The GLSL spelling of a member type, for messages.
fn glsl(m: &Module, inner: &TypeInner) -> String {
    match *inner {
        TypeInner::Scalar(s) => scalar_name(s.kind, s.width).to_string(),
        TypeInner::Vector { size, scalar } => format!("{}{}", vector_prefix(scalar.kind, scalar.width), size as u8),
        TypeInner::Matrix { columns, rows, .. } if columns == rows => format!("mat{}", columns as u8),
        TypeInner::Matrix { columns, rows, .. } => format!("mat{}x{}", columns as u8, rows as u8),
        TypeInner::Array { base, size: naga::ArraySize::Constant(n), .. } => {
            format!("{}[{n}]", glsl(m, &m.types[base].inner))
        }
        TypeInner::Array { base, .. } => format!("{}[]", glsl(m, &m.types[base].inner)),
        TypeInner::Struct { .. } => "struct".to_string(),
        _ => "?".to_string(),
    }
}

/// Whether a type's scalars are floating point (`None` for structs and others).
fn float(m: &Module, inner: &TypeInner) -> Option<bool> {
    let kind = |k: ScalarKind| match k {
        ScalarKind::Float => Some(true),
        ScalarKind::Uint | ScalarKind::Sint => Some(false),
        _ => None,
    };
    match *inner {
        TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } | TypeInner::Matrix { scalar: s, .. } => {
            kind(s.kind)
        }
        TypeInner::Array { base, .. } => float(m, &m.types[base].inner),
        _ => None,
    }
}
