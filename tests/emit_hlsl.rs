//! The HLSL and Slang includes, judged by the Slang compiler (from the `slangpy` package,
//! through `tests/emit/slang.py`) on every emitter fixture and every example.
//!
//! Three proofs per layout and language:
//! 1. A compute shader that defines `<L>_WRITER` and `<L>_READER`, calls every writer, loader
//!    and reader, and uses the record struct in a `RWStructuredBuffer`, compiles to SPIR-V that
//!    spirv-val accepts; under `-fvk-use-scalar-layout` the struct's `Offset` decorations and
//!    the buffer's `ArrayStride` are the manifest's offsets and stride, and the push-constant
//!    struct's offsets are where the tokens push their data.
//! 2. With `<L>_READER` alone (a shader that only reads), it compiles too: the read-only stream;
//!    for a draw layout with a fallback, a vertex shader passes `SV_DrawIndex` to every reader
//!    and gets the `DrawIndex` built-in and the specialization constant.
//! 3. A kernel that stores a known value in every member (`<l>_store_record` into record 1,
//!    every `<l>_write_<token>` into record 2, `<l>_load_record(1)` copied to record 0) runs on a
//!    Vulkan device, and the bytes of the stream are exactly where the manifest puts each
//!    member: the writers' byte addresses are proven, not only their spelling.
//!
//! The HLSL file is compiled with `-lang hlsl`; the run (3) uses slangpy's own session, which
//! reads both. Without python3, slangpy or spirv-tools the test is a visible skip, and a failure
//! under `CI` or `DGCC_REQUIRE_TOOLS=1` (`.ci/setup.sh` installs them; the interpreter is
//! `DGCC_PYTHON`, else `/opt/dgcc/slang/bin/python3` where setup put slangpy, else `python3`).

#[path = "emit/load.rs"]
mod load;
#[path = "emit/tools.rs"]
mod tools;

use dgcc::emit::{self, names, Output};
use dgcc::ir::{CompiledLayout, Manifest, RecordMember, TokenType};
use dgcc::names::plan;
use dgcc::types::Component;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURES: [&str; 6] = ["scene", "mesh", "pinned", "compute", "raytrace", "overlap"];

/// Every fixture (labelled by its name) and every example description (`example-<name>`).
fn fixtures() -> Vec<(String, Manifest)> {
    let root = Path::new(env!("DGCC_CHECKOUT"));
    let mut all: Vec<(String, Manifest)> = FIXTURES
        .iter()
        .map(|&n| (n.to_string(), load::load(&root.join(format!("tests/emit/fixtures/{n}.ron"))).1))
        .collect();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    for p in paths {
        all.push((format!("example-{}", p.file_stem().unwrap().to_str().unwrap()), load::load(&p).1));
    }
    all
}

fn slang_py(test: &str) -> Option<Command> {
    tools::slang(test)
}

#[derive(Clone, Copy, PartialEq)]
enum Lang {
    Hlsl,
    Slang,
}

impl Lang {
    fn output(self) -> Output {
        match self {
            Lang::Hlsl => Output::Hlsl,
            Lang::Slang => Output::Slang,
        }
    }
    fn attr(self, a: &str) -> String {
        match self {
            Lang::Hlsl => format!("[[{a}]]"),
            Lang::Slang => format!("[{a}]"),
        }
    }
}

/// The members of token `t` that its writer takes, in order (padding and a `TraceRays2` tail
/// left out).
fn token_members(l: &CompiledLayout, t: usize) -> Vec<&RecordMember> {
    l.record.iter().filter(|m| m.token == Some(t) && !plan::is_tail(l, m)).collect()
}

fn is_padding(l: &CompiledLayout, m: &RecordMember) -> bool {
    m.token.is_none() || plan::is_tail(l, m)
}

/// A std430 `vec3` array element, which the record struct declares as a `float4`.
fn padded(m: &RecordMember) -> bool {
    m.array > 0 && m.glsl_type.dims() == [3] && m.array_stride == m.glsl_type.size() + 4
}

/// Components per element as the record struct declares it, and the element stride.
fn shape(m: &RecordMember) -> (u32, u32) {
    let comps = m.glsl_type.dims().iter().product::<u32>().max(1) + u32::from(padded(m));
    (comps, if m.array > 0 { m.array_stride } else { m.size })
}

/// The HLSL value of one element of `m` whose bytes start at record offset `at`: each 4-byte
/// word at offset `w` holds `w + 1` (as its component type), so a misplaced store shows.
fn element_value(m: &RecordMember, at: u32) -> String {
    let c = m.glsl_type.component();
    let (comps, _) = shape(m);
    let comp = |w: u32| match c {
        Component::U32 => format!("{}u", w + 1),
        Component::I32 => format!("int({})", -(w as i64 + 1)),
        Component::F32 => format!("{}.0", w + 1),
        Component::U64 => format!("((uint64_t({}u) << 32) | uint64_t({}u))", w + 5, w + 1),
    };
    let step = c.bytes();
    let parts: Vec<String> = (0..comps).map(|i| comp(at + i * step)).collect();
    let dims = m.glsl_type.dims();
    match (dims.len(), parts.len()) {
        (_, 1) => parts[0].clone(),
        (2, _) => {
            let rows: Vec<String> = parts.chunks(4).map(|r| format!("float4({})", r.join(", "))).collect();
            format!("float4x4({})", rows.join(", "))
        }
        _ => format!("{}{}({})", base_type(c), comps, parts.join(", ")),
    }
}

fn base_type(c: Component) -> &'static str {
    match c {
        Component::U32 => "uint",
        Component::I32 => "int",
        Component::F32 => "float",
        Component::U64 => "uint64_t",
    }
}

/// The bytes element values put in a record for `members`.
fn expected(l: &CompiledLayout, members: &[&RecordMember]) -> Vec<u8> {
    let mut b = vec![0u8; l.stride as usize];
    for m in members {
        let (comps, stride) = shape(m);
        for e in 0..m.array.max(1) {
            let at = m.offset + e * stride;
            let c = m.glsl_type.component();
            for i in 0..comps {
                let w = at + i * c.bytes();
                let bytes: Vec<u8> = match c {
                    Component::U32 => (w + 1).to_le_bytes().to_vec(),
                    Component::I32 => (-(w as i32 + 1)).to_le_bytes().to_vec(),
                    Component::F32 => ((w + 1) as f32).to_le_bytes().to_vec(),
                    Component::U64 => (((w as u64 + 5) << 32) | (w as u64 + 1)).to_le_bytes().to_vec(),
                };
                b[w as usize..w as usize + bytes.len()].copy_from_slice(&bytes);
            }
        }
    }
    b
}

/// `name = value;` statements that fill every member of `members` into `target`.
fn fill(o: &mut String, target: &str, members: &[&RecordMember]) {
    for m in members {
        let n = names::member(&m.name);
        let (_, stride) = shape(m);
        if m.array > 0 {
            for e in 0..m.array {
                writeln!(o, "    {target}{n}[{e}] = {};", element_value(m, m.offset + e * stride)).unwrap();
            }
        } else {
            writeln!(o, "    {target}{n} = {};", element_value(m, m.offset)).unwrap();
        }
    }
}

fn is_draw(l: &CompiledLayout) -> bool {
    l.action().is_some_and(|a| a.token_type.is_vertex_draw() || a.token_type.is_mesh())
}

fn reads_push_any(l: &CompiledLayout) -> bool {
    (0..l.tokens.len()).any(|t| plan::reads_push(l, t))
}

/// The kernel that runs on the device: only `<L>_WRITER`, as a kernel that fills the stream.
fn run_kernel(l: &CompiledLayout, include: &str) -> String {
    let (u, s) = (names::screaming(&l.name), names::snake(&l.name));
    let record = plan::record_type(&l.name);
    let mut o = format!("#define {u}_WRITER\n#include \"{include}\"\n\n[shader(\"compute\")]\n[numthreads(1, 1, 1)]\nvoid main() {{\n    {record} r;\n");
    let data: Vec<&RecordMember> = l.record.iter().filter(|m| !is_padding(l, m)).collect();
    fill(&mut o, "r.", &data);
    writeln!(o, "    {s}_store_record(1u, r);").unwrap();
    for (ti, t) in l.tokens.iter().enumerate() {
        let members = token_members(l, ti);
        if members.is_empty() || t.token_type.is_sequence_index() {
            continue;
        }
        writeln!(o, "    {{").unwrap();
        for m in &members {
            let (_, stride) = shape(m);
            let p = plan::param(t, &m.name);
            let decl = |n: &str| {
                let ty = elem_type(m);
                if m.array > 0 {
                    format!("{ty} {n}[{}]", m.array)
                } else {
                    format!("{ty} {n}")
                }
            };
            writeln!(o, "        {};", decl(&format!("a_{p}"))).unwrap();
            if m.array > 0 {
                for e in 0..m.array {
                    writeln!(o, "        a_{p}[{e}] = {};", element_value(m, m.offset + e * stride)).unwrap();
                }
            } else {
                writeln!(o, "        a_{p} = {};", element_value(m, m.offset)).unwrap();
            }
        }
        let args: Vec<String> = members.iter().map(|m| format!("a_{}", plan::param(t, &m.name))).collect();
        writeln!(o, "        {s}_write_{}(2u, {});", plan::token(&t.name), args.join(", ")).unwrap();
        writeln!(o, "    }}").unwrap();
    }
    writeln!(o, "    {s}_store_record(0u, {s}_load_record(1u));\n}}").unwrap();
    o
}

fn elem_type(m: &RecordMember) -> String {
    let c = m.glsl_type.component();
    let dims = m.glsl_type.dims();
    match dims {
        [] => base_type(c).to_string(),
        [n] => format!("{}{}", base_type(c), n + u32::from(padded(m))),
        [a, b] => format!("{}{a}x{b}", base_type(c)),
        _ => unreachable!(),
    }
}

/// The shader compiled for reflection: writers, readers, loader, and the record struct in a
/// structured buffer, every push member copied out so that the push block stays in the SPIR-V.
fn reflect_shader(lang: Lang, l: &CompiledLayout, include: &str, writer: bool) -> String {
    let (u, s) = (names::screaming(&l.name), names::snake(&l.name));
    let record = plan::record_type(&l.name);
    let mut o = String::new();
    if writer {
        writeln!(o, "#define {u}_WRITER").unwrap();
    }
    let readers = reads_push_any(l);
    if readers {
        writeln!(o, "#define {u}_READER").unwrap();
    }
    writeln!(o, "#include \"{include}\"\n").unwrap();
    writeln!(o, "{} RWStructuredBuffer<{record}> dgcc_records;", lang.attr("vk::binding(1, 0)")).unwrap();
    writeln!(o, "{} RWByteAddressBuffer dgcc_sink;\n", lang.attr("vk::binding(2, 0)")).unwrap();
    writeln!(o, "[shader(\"compute\")]\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {{").unwrap();
    if writer || plan::glsl_fallback(l) {
        writeln!(o, "    dgcc_records[0] = {s}_load_record(id.x);").unwrap();
    }
    if writer {
        writeln!(o, "    {s}_store_record(id.x + 1u, dgcc_records[1]);").unwrap();
    }
    let draw_param = if plan::glsl_fallback(l) && is_draw(l) { "id.x" } else { "" };
    for (ti, t) in l.tokens.iter().enumerate() {
        let members = token_members(l, ti);
        let tn = plan::token(&t.name);
        if writer && !members.is_empty() && !t.token_type.is_sequence_index() {
            let args: Vec<String> =
                members.iter().map(|m| format!("dgcc_records[2].{}", names::member(&m.name))).collect();
            writeln!(o, "    {s}_write_{tn}(id.x + 2u, {});", args.join(", ")).unwrap();
        }
        if plan::reads_push(l, ti) {
            if t.token_type.is_sequence_index() {
                writeln!(o, "    dgcc_sink.Store(0u, {s}_read_{tn}({draw_param}));").unwrap();
            } else {
                writeln!(
                    o,
                    "    {{\n        {}Push{} v = {s}_read_{tn}({draw_param});",
                    names::camel(&l.name),
                    names::camel(&t.name)
                )
                .unwrap();
                for m in &members {
                    let n = names::member(&m.name);
                    writeln!(o, "        dgcc_records[3].{n} = {s}_push.{n};").unwrap();
                    if padded(m) {
                        for e in 0..m.array {
                            writeln!(o, "        dgcc_records[4].{n}[{e}].xyz = v.{n}[{e}];").unwrap();
                        }
                    } else {
                        writeln!(o, "        dgcc_records[4].{n} = v.{n};").unwrap();
                    }
                }
                writeln!(o, "    }}").unwrap();
            }
        }
    }
    writeln!(o, "}}").unwrap();
    o
}

/// A vertex shader that reads per-draw data as the book shows: the draw index from
/// `SV_DrawIndex`, passed to every reader, and one component of every value used.
fn vertex_reader(l: &CompiledLayout, include: &str) -> String {
    let (u, s, c) = (names::screaming(&l.name), names::snake(&l.name), names::camel(&l.name));
    let mut o = format!(
        "#define {u}_READER\n#include \"{include}\"\n\n[shader(\"vertex\")]\nfloat4 main(uint draw_index : SV_DrawIndex) : SV_Position {{\n    float4 p = float4(0.0, 0.0, 0.0, 1.0);\n"
    );
    for (ti, t) in l.tokens.iter().enumerate() {
        if !plan::reads_push(l, ti) {
            continue;
        }
        let tn = plan::token(&t.name);
        if t.token_type.is_sequence_index() {
            writeln!(o, "    p.x += float({s}_read_{tn}(draw_index));").unwrap();
            continue;
        }
        writeln!(o, "    {{\n        {c}Push{} v = {s}_read_{tn}(draw_index);", names::camel(&t.name)).unwrap();
        for m in token_members(l, ti) {
            let mut e = format!("v.{}", names::member(&m.name));
            if m.array > 0 {
                e.push_str("[0]");
            }
            match m.glsl_type.dims().len() {
                1 => e.push_str(".x"),
                2 => e.push_str("[0].x"),
                _ => {}
            }
            writeln!(o, "        p.x += float({e});").unwrap();
        }
        writeln!(o, "    }}").unwrap();
    }
    o.push_str("    return p;\n}\n");
    o
}

/// Compile `source` (in `dir`) to SPIR-V with slangc; spirv-val it and return its disassembly.
fn compile(slang: &mut Command, dir: &Path, lang: Lang, stage: &str, source: &str, file: &str, what: &str) -> String {
    std::fs::write(dir.join(file), source).unwrap();
    let spv = dir.join(format!("{file}.spv"));
    let lang_name = match lang {
        Lang::Hlsl => "hlsl",
        Lang::Slang => "slang",
    };
    let out = slang
        .arg("compile")
        .arg(dir.join(file))
        .args(["-lang", lang_name, "-target", "spirv", "-profile", "spirv_1_5", "-entry", "main", "-stage", stage])
        .args(["-fvk-use-scalar-layout", "-I"])
        .arg(dir)
        .arg("-o")
        .arg(&spv)
        .output()
        .expect("run slang.py");
    assert!(
        out.status.success() && spv.is_file(),
        "{what}: slangc refused\n{}\n--- {file}\n{source}",
        String::from_utf8_lossy(&out.stderr)
    );
    // slangc records its source language in OpSource as Slang (11), which older SPIR-V tools
    // do not know: the oracle reads the layout, so that operand is zeroed first.
    let mut words: Vec<u32> =
        std::fs::read(&spv).unwrap().chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    let mut i = 5;
    while i < words.len() {
        let (n, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if op == 3 {
            words[i + 1] = 0;
        }
        i += n.max(1);
    }
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&spv, bytes).unwrap();
    tools::run(Command::new("spirv-val").args(["--scalar-block-layout"]).arg(&spv));
    tools::run(Command::new("spirv-dis").arg(&spv).arg("-o").arg("-"))
}

/// A struct of the SPIR-V, as far as the oracle needs it.
struct Layout {
    offsets: Vec<u32>,
    /// Per member: its array stride, through the one-member struct slangc wraps arrays in.
    array_strides: Vec<Option<u32>>,
    /// Per member: its `RowMajor` or `ColMajor` decoration (a matrix's), through that struct too.
    majors: Vec<Option<String>>,
}

/// The struct whose debug name is `name`, or `name` with the layout slangc appends
/// (`SceneDrawRecord_natural`, `_std430`).
fn struct_named(dis: &str, name: &str) -> Option<Layout> {
    use std::collections::HashMap;
    let (mut structs, mut strides, mut offsets, mut ids) = (HashMap::new(), HashMap::new(), HashMap::new(), vec![]);
    let mut majors = HashMap::new();
    for line in dis.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["OpName", id, n] => {
                let n = n.trim_matches('"');
                if n == name || n.strip_prefix(name).is_some_and(|r| r.starts_with('_')) {
                    ids.push(id.to_string());
                }
            }
            [id, "=", "OpTypeStruct", members @ ..] => {
                structs.insert(id.to_string(), members.iter().map(|m| m.to_string()).collect::<Vec<_>>());
            }
            ["OpDecorate", id, "ArrayStride", n] => {
                strides.insert(id.to_string(), n.parse::<u32>().ok()?);
            }
            ["OpMemberDecorate", id, i, "Offset", n] => {
                offsets.insert((id.to_string(), i.parse::<usize>().ok()?), n.parse::<u32>().ok()?);
            }
            ["OpMemberDecorate", id, i, major @ ("RowMajor" | "ColMajor")] => {
                majors.insert((id.to_string(), i.parse::<usize>().ok()?), major.to_string());
            }
            _ => {}
        }
    }
    let id = ids.into_iter().find(|id| structs.contains_key(id))?;
    let members = &structs[&id];
    let stride = |ty: &String| {
        strides.get(ty).copied().or_else(|| match structs.get(ty).map(Vec::as_slice) {
            Some([inner]) => strides.get(inner).copied(),
            _ => None,
        })
    };
    let major = |i: usize| {
        majors.get(&(id.clone(), i)).cloned().or_else(|| match structs.get(&members[i]).map(Vec::as_slice) {
            Some([_]) => majors.get(&(members[i].clone(), 0)).cloned(),
            _ => None,
        })
    };
    Some(Layout {
        offsets: (0..members.len()).map(|i| offsets.get(&(id.clone(), i)).copied().unwrap_or(u32::MAX)).collect(),
        array_strides: members.iter().map(stride).collect(),
        majors: (0..members.len()).map(major).collect(),
    })
}

fn check_record(dis: &str, l: &CompiledLayout, what: &str) {
    let record = plan::record_type(&l.name);
    let s = struct_named(dis, &record).unwrap_or_else(|| panic!("{what}: no struct {record} in\n{dis}"));
    let want: Vec<u32> = l.record.iter().map(|m| m.offset).collect();
    assert_eq!(s.offsets, want, "{what}: {record} offsets");
    for (i, m) in l.record.iter().enumerate() {
        if m.array > 0 {
            assert_eq!(s.array_strides[i], Some(m.array_stride), "{what}: {}'s array stride", m.name);
        }
    }
    let stride = dis
        .lines()
        .filter(|l| l.contains("ArrayStride"))
        .filter_map(|l| l.split_whitespace().last()?.parse::<u32>().ok())
        .any(|n| n == l.stride);
    assert!(stride, "{what}: no ArrayStride {} for the structured buffer of {record}", l.stride);
    let matrices: Vec<usize> = (0..l.record.len()).filter(|&i| l.record[i].glsl_type.dims().len() == 2).collect();
    check_majors(&s, &matrices, &format!("{what}: {record}"));
}

/// Slang (like DXC) maps an HLSL matrix row to a SPIR-V column, so `ColMajor` is the layout
/// whose HLSL row `i` is the 16 bytes at `16 × i`: what the loaders and writers read and store
/// through byte addresses. Any other decoration makes the struct (the push constants under DGC,
/// a `StructuredBuffer` of records) hold the transpose of what those paths see.
fn check_majors(s: &Layout, matrices: &[usize], what: &str) {
    for &i in matrices {
        assert_eq!(
            s.majors[i].as_deref(),
            Some("ColMajor"),
            "{what}: member {i} is a matrix whose rows are not at 16 × i"
        );
    }
}

fn check_push(dis: &str, l: &CompiledLayout, what: &str) {
    let push = format!("{}Push", names::camel(&l.name));
    let s = struct_named(dis, &push).unwrap_or_else(|| panic!("{what}: no struct {push}"));
    let mut want = vec![];
    for (ti, t) in l.tokens.iter().enumerate() {
        let pushed = plan::reads_push(l, ti) || (t.token_type.is_sequence_index() && t.push_constant.is_some());
        if !pushed {
            continue;
        }
        let base = t.push_constant.map(|r| r.offset).unwrap_or(0);
        let members = token_members(l, ti);
        if members.is_empty() {
            want.push(base);
        }
        want.extend(members.iter().map(|m| base + m.offset - t.offset));
    }
    want.sort();
    assert_eq!(s.offsets, want, "{what}: {push} offsets, in push-constant order");
    let mut matrix_at: Vec<u32> = vec![];
    for (ti, t) in l.tokens.iter().enumerate() {
        if plan::reads_push(l, ti) {
            let base = t.push_constant.map(|r| r.offset).unwrap_or(0);
            let members = token_members(l, ti);
            let matrices = members.iter().filter(|m| m.glsl_type.dims().len() == 2);
            matrix_at.extend(matrices.map(|m| base + m.offset - t.offset));
        }
    }
    let matrices: Vec<usize> = (0..want.len()).filter(|&i| matrix_at.contains(&want[i])).collect();
    check_majors(&s, &matrices, &format!("{what}: {push}"));
}

#[test]
fn hlsl_and_slang_compile_and_place_every_member_at_the_manifest_offset() {
    let test = "hlsl_and_slang_compile";
    let (Some(_), Some(_)) = (tools::tool("spirv-dis", test), tools::tool("spirv-val", test)) else { return };
    let Some(_) = slang_py(test) else { return };
    let mut jobs = vec![];
    let mut want = vec![];
    for (label, m) in fixtures() {
        for lang in [Lang::Hlsl, Lang::Slang] {
            let out = lang.output();
            let dir = tools::scratch(&format!("{}-{label}", out.name()));
            let include = out.file_name(&m.pipeline);
            std::fs::write(dir.join(&include), emit::emit(&m, out).unwrap()).unwrap();
            let ext = out.extension();
            for l in &m.layouts {
                let s = names::snake(&l.name);
                let what = format!("{label}/{} ({})", l.name, out.name());
                let dis = compile(
                    &mut slang_py(test).unwrap(),
                    &dir,
                    lang,
                    "compute",
                    &reflect_shader(lang, l, &include, true),
                    &format!("{s}_reflect.{ext}"),
                    &what,
                );
                check_record(&dis, l, &what);
                if reads_push_any(l) {
                    check_push(&dis, l, &what);
                    let fallback = plan::glsl_fallback(l);
                    assert_eq!(dis.contains("SpecId"), fallback, "{what}: the fallback is a specialization constant");
                    let reader = reflect_shader(lang, l, &include, false);
                    let file = format!("{s}_reader.{ext}");
                    let dis = compile(&mut slang_py(test).unwrap(), &dir, lang, "compute", &reader, &file, &what);
                    check_push(&dis, l, &format!("{what} reader"));
                    if fallback && is_draw(l) {
                        let vertex = vertex_reader(l, &include);
                        let file = format!("{s}_reader_vs.{ext}");
                        let dis = compile(&mut slang_py(test).unwrap(), &dir, lang, "vertex", &vertex, &file, &what);
                        check_push(&dis, l, &format!("{what} vertex reader"));
                        assert!(dis.contains("BuiltIn DrawIndex"), "{what}: SV_DrawIndex is the draw index");
                        assert!(dis.contains("SpecId"), "{what}: the fallback is a specialization constant");
                    }
                }
                let file = dir.join(format!("{s}_run.{ext}"));
                std::fs::write(&file, run_kernel(l, &include)).unwrap();
                jobs.push(serde_json::json!({
                    "source": file, "buffer": format!("{s}_stream"), "size": 3 * l.stride,
                }));
                let data: Vec<&RecordMember> = l.record.iter().filter(|m| !is_padding(l, m)).collect();
                let written: Vec<&RecordMember> = data
                    .iter()
                    .copied()
                    .filter(|m| m.token.is_some_and(|t| l.tokens[t].token_type != TokenType::SequenceIndex))
                    .collect();
                let mut bytes = expected(l, &data);
                bytes.extend(expected(l, &data));
                bytes.extend(expected(l, &written));
                want.push((what, l.stride, bytes));
            }
        }
    }
    let dir = tools::scratch("hlsl-run");
    let jobs_file = dir.join("jobs.json");
    std::fs::write(&jobs_file, serde_json::to_string(&jobs).unwrap()).unwrap();
    let out = slang_py(test).unwrap().arg("run").arg(&jobs_file).output().expect("run slang.py");
    assert!(out.status.success(), "slang.py run failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let got: Vec<Vec<u8>> = serde_json::from_slice(&out.stdout).expect("a JSON list of byte lists");
    assert_eq!(got.len(), want.len());
    for (g, (what, stride, w)) in got.iter().zip(&want) {
        for (r, (gr, wr)) in g.chunks(*stride as usize).zip(w.chunks(*stride as usize)).enumerate() {
            assert_eq!(gr, wr, "{what}: record {r} of the stream after the writers ran");
        }
    }
}
