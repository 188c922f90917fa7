//! The emitters, judged by snapshots and by the compilers users run.
//!
//! Fixtures: `tests/emit/fixtures/*.ron` cover every token kind, both GLSL layouts, pinned
//! offsets and strides, and vec3/mat4/array/U64/address fields. Each output of each fixture is
//! an insta snapshot (`tests/emit/snapshots/`); glslang compiles the GLSL and its SPIR-V
//! `Offset`/`ArrayStride` decorations must equal the manifest; gcc and g++ compile the C header
//! as C11 and C++17 against headers with and without the extension, and a program built from it
//! prints sizes, offsets and tokens that must equal the manifest. The names E0706 refuses and
//! W0014 warns about are held to the macros the real headers define (the headers' own includes;
//! X11's `Xlib.h`; mingw-w64's windows.h).

#[path = "emit/load.rs"]
mod load;
#[path = "emit/spirv.rs"]
mod spirv;
#[path = "emit/tools.rs"]
mod tools;

use dgcc::emit::{self, names, Output};
use dgcc::ir::{CompiledLayout, Manifest, TokenType};
use dgcc::names::plan;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURES: [&str; 6] = ["scene", "mesh", "pinned", "compute", "raytrace", "overlap"];

fn fixture_dir() -> PathBuf {
    Path::new(env!("DGCC_CHECKOUT")).join("tests/emit/fixtures")
}

fn fixture(name: &str) -> Manifest {
    load::load(&fixture_dir().join(format!("{name}.ron"))).1
}

/// Every fixture (labelled by its name) and every example description (`example-<name>`).
fn fixtures() -> Vec<(String, Manifest)> {
    let mut all: Vec<(String, Manifest)> = FIXTURES.iter().map(|&n| (n.to_string(), fixture(n))).collect();
    let examples = Path::new(env!("DGCC_CHECKOUT")).join("examples");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&examples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    for p in paths {
        let label = format!("example-{}", p.file_stem().unwrap().to_str().unwrap());
        all.push((label, load::load(&p).1));
    }
    all
}

/// A label and an output as a file name: `scene.h`, `example-mesh.dgc.json`.
fn labelled(label: &str, output: Output) -> String {
    format!("{label}.{}", output.extension())
}

#[test]
fn every_output_of_every_fixture_matches_its_snapshot() {
    for (name, m) in fixtures() {
        for output in Output::ALL {
            let text = emit::emit(&m, output).unwrap_or_else(|e| panic!("{name}: {e}"));
            insta::with_settings!({snapshot_path => "emit/snapshots", prepend_module_to_snapshot => false}, {
                insta::assert_snapshot!(labelled(&name, output), text);
            });
        }
    }
}

/// Every macro an output defines is in the naming plan (`names::plan::identifiers`) as a macro
/// of its language, so that `dgcc check` sees it when it looks for names a macro would replace.
/// A macro the plan missed let `dgcc check` pass a record member that the C header's own
/// `#define` then replaced, and gcc refused the header.
#[test]
fn every_macro_the_outputs_define_is_planned() {
    let mut missing = vec![];
    for (name, m) in fixtures() {
        let planned = plan::identifiers(&m);
        for (output, lang) in [
            (Output::C, plan::Lang::C),
            (Output::Cpp, plan::Lang::C),
            (Output::Glsl, plan::Lang::Glsl),
            (Output::Hlsl, plan::Lang::Hlsl),
            (Output::Slang, plan::Lang::Slang),
        ] {
            let text = emit::emit(&m, output).unwrap();
            for line in text.lines() {
                let Some(rest) = line.trim_start().strip_prefix('#') else { continue };
                let Some(rest) = rest.trim_start().strip_prefix("define") else { continue };
                let defined = macro_name(rest.trim_start());
                let known =
                    planned.iter().any(|i| i.lang == lang && i.is_macro && *i.scope == *"" && i.name == defined);
                if !known {
                    missing.push(format!("{name} {output}: {defined}"));
                }
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "macros the plan does not list:\n{}", missing.join("\n"));
}

#[test]
fn fixtures_cover_every_token_kind_and_both_glsl_layouts() {
    let all = fixtures();
    let layouts: Vec<&CompiledLayout> = all.iter().flat_map(|(_, m)| &m.layouts).collect();
    for t in [
        TokenType::ExecutionSet,
        TokenType::PushConstant,
        TokenType::SequenceIndex,
        TokenType::IndexBuffer,
        TokenType::VertexBuffer,
        TokenType::DrawIndexed,
        TokenType::Draw,
        TokenType::DrawIndexedCount,
        TokenType::DrawCount,
        TokenType::Dispatch,
        TokenType::DrawMeshTasksNv,
        TokenType::DrawMeshTasksCountNv,
        TokenType::DrawMeshTasks,
        TokenType::DrawMeshTasksCount,
        TokenType::TraceRays2,
    ] {
        assert!(layouts.iter().any(|l| l.tokens.iter().any(|k| k.token_type == t)), "no fixture has {t:?}");
    }
    for g in ["std430", "scalar"] {
        assert!(layouts.iter().any(|l| l.glsl_layout == g), "no fixture uses {g}");
    }
    let types: Vec<&str> = layouts.iter().flat_map(|l| l.record.iter().map(|m| m.glsl_type.as_str())).collect();
    for t in ["vec3", "mat4", "uint64_t", "uvec2", "vec4", "ivec2", "uvec4"] {
        assert!(types.contains(&t), "no fixture has a {t} member");
    }
    assert!(layouts.iter().any(|l| l.record.iter().any(|m| m.glsl_type == "vec3" && m.array > 0)));
}

#[test]
fn file_names_follow_the_contract() {
    let m = fixture("scene");
    let names: Vec<String> = Output::ALL.iter().map(|o| o.file_name(&m.pipeline)).collect();
    assert_eq!(
        names,
        ["scene.rs", "scene.h", "scene.glsl", "scene.hlsl", "scene.slang", "scene.dgc.json", "scene.svg", "scene.hpp"]
    );
    assert_eq!("glsl".parse::<Output>(), Ok(Output::Glsl));
    assert_eq!("slang".parse::<Output>(), Ok(Output::Slang));
    assert!("pascal".parse::<Output>().is_err());
}

#[test]
fn json_is_the_manifest_and_reads_back() {
    for (name, m) in fixtures() {
        let text = emit::json::emit(&m).unwrap();
        assert_eq!(Manifest::from_json(&text).as_ref(), Ok(&m), "{name}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        // The contract's keys in order; `doc` (the description's comment above the pipeline) is
        // optional and written only when there is one.
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).filter(|&k| k != "doc").collect();
        assert_eq!(keys, ["schema_version", "pipeline", "push_constants", "layouts", "kernels"], "{name}");
        assert_eq!(v.get("doc").is_some(), !m.doc.is_empty(), "{name}");
    }
}

#[test]
fn the_descriptions_doc_comments_reach_every_output_without_breaking_it() {
    // `compute.ron` documents its pipeline, layout, a token, a field (with an empty line) and a
    // kernel, in text that would break C or GLSL if copied as it is (the other tests compile
    // these outputs: C11, C++17, glslang, rustc).
    let m = fixture("compute");
    let layout = &m.layouts[0];
    assert_eq!(layout.doc, ["One simulation step per job ??/"]);
    let params = layout.tokens.iter().find(|t| t.name == "params").unwrap();
    assert_eq!(params.doc, ["Parameters, as in C:\\\\jobs\\\\"]);
    assert_eq!(params.fields[0].doc.len(), 3);
    assert!(m.kernels[0].doc[0].contains('\t'));
    for output in [Output::Rust, Output::C, Output::Glsl] {
        let text = emit::emit(&m, output).unwrap();
        for wanted in [
            "Compute dispatches with pipeline switching",
            "One simulation step per job ? ?/",
            "Parameters, as in C:\\\\jobs\\\\.",
            "Acceleration in m/s² — */ closes nothing here, /* opens nothing.",
            "(an empty line above)",
            "Schedules jobs: one per cell (漢字 too).",
        ] {
            assert!(text.contains(wanted), "{output:?} lacks `{wanted}`");
        }
        assert!(!text.contains("??"), "{output:?} keeps a trigraph lead-in");
        assert!(!text.lines().any(|l| l.ends_with('\\')), "{output:?} has a line ending in a backslash");
        assert!(!text.contains('\t'), "{output:?} keeps a tab");
    }
    // Without docs nothing is added: the manifest and the outputs do not mention them.
    let mut bare = m.clone();
    bare.doc.clear();
    assert!(!emit::emit(&bare, Output::Json).unwrap().contains("Compute dispatches"));
}

#[test]
fn emitters_refuse_a_manifest_that_breaks_an_invariant() {
    let good = fixture("scene");
    let mut overlapping = good.clone();
    overlapping.layouts[0].record[1].offset += 4;
    let mut short = good.clone();
    short.layouts[0].stride -= 4;
    let mut old = good.clone();
    old.schema_version += 1;
    for bad in [&overlapping, &short] {
        for output in Output::ALL {
            let err = emit::emit(bad, output).expect_err("a broken manifest must not be emitted");
            assert_eq!(err.layout.as_deref(), Some("SceneDraw"), "{err}");
        }
    }
    assert!(emit::json::emit(&old).is_err());
}

#[test]
fn emitters_refuse_a_manifest_whose_records_pass_the_data_limit() {
    // A manifest bypasses the description's E0024: the emitters check the same limit, since
    // each spells every record out member by member (gigabytes for a 4 GiB push constant).
    let good = fixture("scene");
    let mut big = good.clone();
    let first = big.layouts[0].clone();
    let copies = (dgcc::syntax::limits::MAX_RECORD_DATA_BYTES / first.data_bytes() + 1) as usize;
    for i in 0..copies {
        let mut l = first.clone();
        l.name = format!("Copy{i}");
        big.layouts.push(l);
    }
    for output in Output::ALL {
        let err = emit::emit(&big, output).expect_err("records past the limit must not be emitted");
        assert!(err.message.contains("E0024") && err.layout.is_some(), "{output:?}: {err}");
    }
    assert!(emit::emit(&good, Output::Hlsl).is_ok());
}

#[test]
fn a_manifest_with_an_unknown_type_name_is_refused_when_read() {
    // The IR is typed: a member type, field type or GLSL layout that no table row spells cannot
    // reach an emitter; reading the manifest names the word and what was expected.
    let good = emit::json::emit(&fixture("scene")).unwrap();
    for (from, to, said) in [
        (
            "\"glsl_type\": \"uint\"",
            "\"glsl_type\": \"dvec3\"",
            "unknown record member type `dvec3`, expected one of `uint`",
        ),
        (
            "\"glsl_layout\": \"std430\"",
            "\"glsl_layout\": \"std140\"",
            "unknown variant `std140`, expected `std430` or `scalar`",
        ),
        ("\"ty\": \"U32\"", "\"ty\": \"Uint\"", "unknown field type `Uint`, expected one of `U32`"),
        ("\"type\": \"DRAW_INDEXED\"", "\"type\": \"DRAW_INDEXED_TWICE\"", "unknown variant `DRAW_INDEXED_TWICE`"),
    ] {
        assert!(good.contains(from), "the scene fixture has no {from}");
        let err = Manifest::from_json(&good.replacen(from, to, 1)).expect_err(to);
        assert!(err.starts_with("not a dgcc manifest: ") && err.contains(said), "{err}");
    }
}

/// The members of a token that a writer takes, as the emitters pick them.
fn token_members(l: &CompiledLayout, i: usize) -> Vec<&dgcc::ir::RecordMember> {
    let t = &l.tokens[i];
    l.record
        .iter()
        .filter(|m| m.token == Some(i))
        .filter(|m| !(t.token_type == TokenType::TraceRays2 && m.name == format!("{}_pad", t.name)))
        .collect()
}

fn glsl_local(m: &dgcc::ir::RecordMember, var: &str) -> String {
    if m.array > 0 {
        format!("{} {var}[{}]", m.glsl_type, m.array)
    } else {
        format!("{} {var}", m.glsl_type)
    }
}

/// A compute shader that calls every writer (and, for layouts without a draw, every reader).
fn writer_shader(l: &CompiledLayout, include: &str, with_readers: bool) -> String {
    let u = names::screaming(&l.name);
    let s = names::snake(&l.name);
    let mut src = String::from("#version 460\n#extension GL_GOOGLE_include_directive : require\n");
    writeln!(src, "layout(local_size_x = 1) in;\n#define {u}_WRITER").unwrap();
    if with_readers {
        writeln!(src, "#define {u}_READER").unwrap();
    }
    writeln!(src, "#include \"{include}\"\nvoid main() {{\n    uint seq = gl_GlobalInvocationID.x;").unwrap();
    for (i, t) in l.tokens.iter().enumerate() {
        let ms = token_members(l, i);
        if ms.is_empty() || t.token_type == TokenType::SequenceIndex {
            if with_readers {
                reader_call(&mut src, l, i);
            }
            continue;
        }
        let mut args = vec!["seq".to_string()];
        for (k, m) in ms.iter().enumerate() {
            let var = format!("t{i}_{k}");
            writeln!(src, "    {};", glsl_local(m, &var)).unwrap();
            args.push(var);
        }
        writeln!(src, "    {s}_write_{}({});", names::member(&t.name), args.join(", ")).unwrap();
        if with_readers {
            reader_call(&mut src, l, i);
        }
    }
    src.push_str("}\n");
    src
}

fn reader_call(src: &mut String, l: &CompiledLayout, i: usize) {
    let s = names::snake(&l.name);
    let t = &l.tokens[i];
    let tok = names::member(&t.name);
    match t.token_type {
        TokenType::SequenceIndex => writeln!(src, "    uint r{i} = {s}_read_{tok}();").unwrap(),
        TokenType::PushConstant if !token_members(l, i).is_empty() => {
            writeln!(src, "    {}Push{} r{i} = {s}_read_{tok}();", names::camel(&l.name), names::camel(&t.name))
                .unwrap()
        }
        _ => {}
    }
}

/// A vertex shader that calls every reader of a draw layout.
fn reader_shader(l: &CompiledLayout, include: &str) -> String {
    let u = names::screaming(&l.name);
    let mut src = String::from("#version 460\n#extension GL_GOOGLE_include_directive : require\n");
    writeln!(src, "#define {u}_READER\n#include \"{include}\"\nvoid main() {{").unwrap();
    for i in 0..l.tokens.len() {
        reader_call(&mut src, l, i);
    }
    src.push_str("    gl_Position = vec4(0.0);\n}\n");
    src
}

fn is_draw(l: &CompiledLayout) -> bool {
    l.action().is_some_and(|a| a.token_type.is_vertex_draw() || a.token_type.is_mesh())
}

fn has_push_data(l: &CompiledLayout) -> bool {
    l.tokens.iter().enumerate().any(|(i, t)| {
        matches!(t.token_type, TokenType::PushConstant | TokenType::SequenceIndex) && !token_members(l, i).is_empty()
    })
}

/// Compile with glslang, validate, and return the disassembly.
fn compile_glsl(dir: &Path, file: &str, src: &str, scalar: bool) -> String {
    let path = dir.join(file);
    std::fs::write(&path, src).unwrap();
    let spv = path.with_extension(format!("{}.spv", path.extension().unwrap().to_str().unwrap()));
    tools::run(
        Command::new("glslangValidator").args(["--target-env", "vulkan1.2", "-V"]).arg(&path).arg("-o").arg(&spv),
    );
    let mut val = Command::new("spirv-val");
    val.args(["--target-env", "vulkan1.2"]);
    if scalar {
        val.arg("--scalar-block-layout");
    }
    tools::run(val.arg(&spv));
    tools::run(Command::new("spirv-dis").arg(&spv))
}

fn check_record(dis: &str, l: &CompiledLayout, what: &str) {
    let record = format!("{}Record", names::camel(&l.name));
    let s = spirv::struct_layout(dis, &record).unwrap_or_else(|| panic!("{what}: no struct {record} in the SPIR-V"));
    let expected_names: Vec<String> = l.record.iter().map(|m| names::member(&m.name)).collect();
    assert_eq!(s.member_names, expected_names, "{what}: members of {record}");
    for (k, m) in l.record.iter().enumerate() {
        assert_eq!(
            s.offsets[k], m.offset,
            "{what}: glslang puts {record}.{} at {}, the manifest at {}",
            m.name, s.offsets[k], m.offset
        );
        if m.array > 0 {
            assert_eq!(s.array_strides[k], Some(m.array_stride), "{what}: array stride of {record}.{}", m.name);
        }
        if m.glsl_type == "mat4" {
            assert_eq!(s.matrix_strides[k], Some(16), "{what}: matrix stride of {record}.{}", m.name);
        }
    }
    assert_eq!(s.runtime_array_stride, Some(l.stride), "{what}: array stride of {record}[] must be the layout stride");
}

/// The push-constant block the readers declare must put each member where the token writes it.
fn check_push_block(dis: &str, l: &CompiledLayout, what: &str) {
    let block = format!("{}Push", names::camel(&l.name));
    let s = spirv::struct_layout(dis, &block).unwrap_or_else(|| panic!("{what}: no push block {block}"));
    for (i, t) in l.tokens.iter().enumerate() {
        let Some(range) = t.push_constant else { continue };
        for m in token_members(l, i) {
            let k = s.member_names.iter().position(|n| *n == names::member(&m.name)).expect("member in push block");
            assert_eq!(s.offsets[k], range.offset + m.offset - t.offset, "{what}: push offset of {}", m.name);
        }
    }
}

#[test]
fn generated_glsl_compiles_and_glslang_places_every_member_at_the_manifest_offset() {
    let test = "generated_glsl_compiles";
    let (Some(_), Some(_), Some(_)) =
        (tools::tool("glslangValidator", test), tools::tool("spirv-dis", test), tools::tool("spirv-val", test))
    else {
        return;
    };
    for (name, m) in fixtures() {
        let dir = tools::scratch(&format!("glsl-{name}"));
        let include = Output::Glsl.file_name(&m.pipeline);
        std::fs::write(dir.join(&include), emit::glsl::emit(&m).unwrap()).unwrap();
        for l in &m.layouts {
            let scalar = l.glsl_layout == "scalar";
            let snake = names::snake(&l.name);
            let non_draw_readers = has_push_data(l) && !is_draw(l);
            let what = format!("{name}/{} writer", l.name);
            let dis = compile_glsl(
                &dir,
                &format!("{snake}_writer.comp"),
                &writer_shader(l, &include, non_draw_readers),
                scalar,
            );
            check_record(&dis, l, &what);
            if non_draw_readers {
                check_push_block(&dis, l, &what);
                let sequence_index = l.tokens.iter().any(|t| t.token_type == TokenType::SequenceIndex);
                let dispatch = l.action().is_some_and(|a| a.token_type == TokenType::Dispatch);
                assert_eq!(
                    dis.contains("SpecId"),
                    dispatch && sequence_index,
                    "{what}: a dispatch fallback needs the sequence index"
                );
            }
            if has_push_data(l) && is_draw(l) {
                let what = format!("{name}/{} reader", l.name);
                let dis = compile_glsl(&dir, &format!("{snake}_reader.vert"), &reader_shader(l, &include), true);
                check_record(&dis, l, &what);
                check_push_block(&dis, l, &what);
                assert!(dis.contains("SpecId"), "{what}: the multi-draw fallback is a specialization constant");
            }
        }
    }
}

/// A program that prints what the header declares, and what it must print.
fn c_program(m: &Manifest, header: &str) -> (String, String) {
    let mut src = format!("#include \"{header}\"\n#include <stdio.h>\n\nint main(void) {{\n");
    let mut expect = String::new();
    src.push_str("#ifdef DGCC_EXT_DGC_FALLBACK\n    printf(\"fallback\\n\");\n#endif\n");
    for l in &m.layouts {
        // Every C name of a layout starts with the pipeline's.
        let r = plan::c_record_type(&m.pipeline, &l.name);
        let s = plan::c_lower(&m.pipeline, &l.name);
        writeln!(src, "    printf(\"{r} %zu\\n\", sizeof({r}));").unwrap();
        writeln!(expect, "{r} {}", l.stride).unwrap();
        for mem in &l.record {
            let f = names::member(&mem.name);
            writeln!(src, "    printf(\"{r}.{f} %zu\\n\", offsetof({r}, {f}));").unwrap();
            writeln!(expect, "{r}.{f} {}", mem.offset).unwrap();
        }
        // The record-time checks: nothing known breaks nothing; the wrong side of a render pass
        // is the requirement `render_pass` (E0901), and the assertion holds for the first.
        let draws = l.requirements.contains(&dgcc::requirements::Requirement::RenderPass { inside: true });
        writeln!(
            src,
            "    {{\n        DgccRecordState st = dgcc_record_state_unknown();\n        {u}_ASSERT_RECORD(&st);\n        printf(\"record %d\", {s}_check_record(&st) == NULL);\n        st.inside_render_pass = {};\n        printf(\" %.5s\\n\", {s}_check_record(&st));\n    }}",
            u8::from(!draws),
            u = plan::c_upper(&m.pipeline, &l.name)
        )
        .unwrap();
        writeln!(expect, "record 1 E0901").unwrap();
        writeln!(src, "    {{\n        VkIndirectCommandsLayoutCreateInfoEXT info = {s}_create_info(VK_NULL_HANDLE);")
            .unwrap();
        src.push_str(
            "        printf(\"create %d %u %u %u %u\\n\", (int)info.sType, (unsigned)info.flags, (unsigned)info.shaderStages, (unsigned)info.indirectStride, (unsigned)info.tokenCount);\n",
        );
        writeln!(expect, "create 1000572006 {} {} {} {}", l.flags, l.shader_stages, l.stride, l.tokens.len()).unwrap();
        src.push_str(
            "        for (uint32_t i = 0; i < info.tokenCount; ++i) {
            const VkIndirectCommandsLayoutTokenEXT* t = &info.pTokens[i];
            printf(\"token %d %d %u\", (int)t->sType, (int)t->type, (unsigned)t->offset);
            switch (t->type) {
            case VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT:
            case VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT:
                printf(\" push %u %u %u\", (unsigned)t->data.pPushConstant->updateRange.stageFlags,
                       (unsigned)t->data.pPushConstant->updateRange.offset, (unsigned)t->data.pPushConstant->updateRange.size);
                break;
            case VK_INDIRECT_COMMANDS_TOKEN_TYPE_INDEX_BUFFER_EXT:
                printf(\" mode %u\", (unsigned)t->data.pIndexBuffer->mode);
                break;
            case VK_INDIRECT_COMMANDS_TOKEN_TYPE_VERTEX_BUFFER_EXT:
                printf(\" binding %u\", (unsigned)t->data.pVertexBuffer->vertexBindingUnit);
                break;
            case VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT:
                printf(\" set %d %u\", (int)t->data.pExecutionSet->type, (unsigned)t->data.pExecutionSet->shaderStages);
                break;
            default:
                break;
            }
            printf(\"\\n\");
        }
    }
",
        );
        for t in &l.tokens {
            write!(expect, "token 1000572007 {} {}", t.type_value, t.offset).unwrap();
            if let Some(r) = t.push_constant {
                write!(expect, " push {} {} {}", r.stages, r.offset, r.size).unwrap();
            }
            if let Some(mode) = t.index_mode {
                write!(expect, " mode {mode}").unwrap();
            }
            if let Some(b) = t.vertex_binding {
                write!(expect, " binding {b}").unwrap();
            }
            if let Some(e) = t.execution_set {
                write!(expect, " set {} {}", e.kind, e.stages).unwrap();
            }
            expect.push('\n');
        }
    }
    src.push_str("    return 0;\n}\n");
    (src, expect)
}

/// Compile the header's test program as C11 and C++17 against `include`, run both, compare.
fn check_c_header(include: &Path, tag: &str, expect_fallback: bool) {
    for (name, m) in fixtures() {
        let dir = tools::scratch(&format!("c-{tag}-{name}"));
        let header = Output::C.file_name(&m.pipeline);
        std::fs::write(dir.join(&header), emit::c::emit(&m).unwrap()).unwrap();
        let (src, mut expect) = c_program(&m, &header);
        if expect_fallback {
            expect.insert_str(0, "fallback\n");
        }
        for (compiler, std, ext) in [("gcc", "-std=c11", "c"), ("g++", "-std=c++17", "cpp")] {
            let file = dir.join(format!("main.{ext}"));
            std::fs::write(&file, &src).unwrap();
            let exe = dir.join(format!("main-{ext}"));
            tools::run(
                Command::new(compiler)
                    .args([std, "-Wall", "-Wextra", "-Werror", "-pedantic"])
                    .arg(format!("-I{}", include.display()))
                    .arg(format!("-I{}", dir.display()))
                    .arg(&file)
                    .arg("-o")
                    .arg(&exe),
            );
            let printed = tools::run(&mut Command::new(&exe));
            assert_eq!(printed, expect, "{name}: {compiler} {std} against {}", include.display());
        }
    }
}

#[test]
fn generated_c_header_compiles_as_c11_and_cpp17_and_holds_on_headers_with_the_extension() {
    let test = "generated_c_header_with_the_extension";
    let (Some(_), Some(_)) = (tools::tool("gcc", test), tools::tool("g++", test)) else { return };
    let Some(include) = tools::vulkan_headers("DGCC_VULKAN_HEADERS", "/opt/dgcc/trixie/usr/include", true, test) else {
        return;
    };
    check_c_header(&include, "new", false);
}

#[test]
fn generated_c_header_compiles_as_c11_and_cpp17_and_holds_on_headers_without_the_extension() {
    let test = "generated_c_header_without_the_extension";
    let (Some(_), Some(_)) = (tools::tool("gcc", test), tools::tool("g++", test)) else { return };
    let Some(include) = tools::vulkan_headers("DGCC_OLD_VULKAN_HEADERS", "/usr/include", false, test) else {
        return;
    };
    check_c_header(&include, "old", true);
}

#[test]
fn two_headers_and_two_includes_coexist_in_one_translation_unit() {
    let test = "two_headers_coexist";
    let Some(_) = tools::tool("gcc", test) else { return };
    let Some(include) = tools::vulkan_headers("DGCC_OLD_VULKAN_HEADERS", "/usr/include", false, test) else {
        return;
    };
    let dir = tools::scratch("c-two");
    let (a, b) = (fixture("scene"), fixture("compute"));
    for m in [&a, &b] {
        std::fs::write(dir.join(Output::C.file_name(&m.pipeline)), emit::c::emit(m).unwrap()).unwrap();
    }
    let file = dir.join("two.c");
    std::fs::write(&file, "#include \"scene.h\"\n#include \"compute.h\"\n#include \"scene.h\"\nint main(void) { return (int)(SCENE_SCENE_DRAW_STRIDE + COMPUTE_SIMULATE_STRIDE) - 272; }\n").unwrap();
    let exe = dir.join("two");
    tools::run(
        Command::new("gcc")
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"])
            .arg(format!("-I{}", include.display()))
            .arg(&file)
            .arg("-o")
            .arg(&exe),
    );
    tools::run(&mut Command::new(&exe));
}

#[test]
fn headers_of_two_pipelines_with_the_same_layout_and_kernel_names_compile_in_one_translation_unit() {
    let test = "two_pipelines_share_names";
    let (Some(_), Some(_)) = (tools::tool("gcc", test), tools::tool("g++", test)) else { return };
    let Some(include) = tools::vulkan_headers("DGCC_OLD_VULKAN_HEADERS", "/usr/include", false, test) else {
        return;
    };
    let dir = tools::scratch("c-shared-names");
    // The scene pipeline and a copy of it under another name: layout `SceneDraw` and kernel
    // `cull` in both (this used to be `redefinition of struct SceneDrawRecord` and of
    // `CULL_LOCAL_SIZE_X`).
    let main = fixture("scene");
    let mut shadow = main.clone();
    shadow.pipeline = "shadow".into();
    assert!(!main.kernels.is_empty() && main.layouts.iter().any(|l| l.name == "SceneDraw"));
    for m in [&main, &shadow] {
        std::fs::write(dir.join(Output::C.file_name(&m.pipeline)), emit::c::emit(m).unwrap()).unwrap();
    }
    // The GLSL keeps its names: it is one shader's.
    assert!(emit::glsl::emit(&main).unwrap().contains("struct SceneDrawRecord {"));
    let src = "#include \"scene.h\"\n#include \"shadow.h\"\n\
int main(void) {\n\
    SceneSceneDrawRecord a;\n\
    ShadowSceneDrawRecord b;\n\
    VkIndirectCommandsLayoutCreateInfoEXT x = scene_scene_draw_create_info(VK_NULL_HANDLE);\n\
    VkIndirectCommandsLayoutCreateInfoEXT y = shadow_scene_draw_create_info(VK_NULL_HANDLE);\n\
    (void)a; (void)b;\n\
    return (int)(x.indirectStride != y.indirectStride) + (int)(SCENE_CULL_LOCAL_SIZE_X != SHADOW_CULL_LOCAL_SIZE_X)\n\
        + (int)(sizeof a != SCENE_SCENE_DRAW_STRIDE);\n\
}\n";
    for (compiler, std, ext) in [("gcc", "-std=c11", "c"), ("g++", "-std=c++17", "cpp")] {
        let file = dir.join(format!("both.{ext}"));
        std::fs::write(&file, src).unwrap();
        let exe = dir.join(format!("both-{ext}"));
        tools::run(
            Command::new(compiler)
                .args([std, "-Wall", "-Wextra", "-Werror", "-pedantic"])
                .arg(format!("-I{}", include.display()))
                .arg(format!("-I{}", dir.display()))
                .arg(&file)
                .arg("-o")
                .arg(&exe),
        );
        tools::run(&mut Command::new(&exe));
    }
}

/// The generated files committed to the repository, and what the emitter prints now:
/// - `tests/emit/generated/`: the Rust and the manifest of every fixture and example, which
///   `tests/emit_generated.rs` compiles and checks, and the HLSL and Slang includes of every
///   example, for readers who want to see one without running dgcc;
/// - `book/src/layouts/<example>.svg`: the picture of every example's records, which the
///   layouts chapter shows.
///
/// Regenerate with `DGCC_BLESS=1 cargo test --test emit`.
#[test]
fn committed_generated_files_are_what_the_emitter_prints_now() {
    let root = Path::new(env!("DGCC_CHECKOUT"));
    let dir = root.join("tests/emit/generated");
    let bless = std::env::var("DGCC_BLESS").is_ok_and(|v| v == "1");
    let mut stale = vec![];
    for (name, m) in fixtures() {
        let mut files: Vec<(Output, PathBuf)> =
            [Output::Rust, Output::Json].into_iter().map(|o| (o, dir.join(labelled(&name, o)))).collect();
        if let Some(example) = name.strip_prefix("example-") {
            files.extend([Output::Hlsl, Output::Slang].into_iter().map(|o| (o, dir.join(labelled(&name, o)))));
            files.push((Output::Svg, root.join("book/src/layouts").join(format!("{example}.svg"))));
        }
        for (output, path) in files {
            let fresh = emit::emit(&m, output).unwrap();
            if bless {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &fresh).unwrap();
            } else if std::fs::read_to_string(&path).ok().as_deref() != Some(fresh.as_str()) {
                stale.push(format!("{name}: {}", path.display()));
            }
        }
    }
    assert!(stale.is_empty(), "stale generated files (regenerate with DGCC_BLESS=1):\n{}", stale.join("\n"));
}

/// Every example's picture, rasterised by librsvg (`rsvg-convert`, which `.ci/setup.sh`
/// installs), is a picture: the SVG parses, and the PNG has ink and a colour per token.
#[test]
fn every_svg_rasterises_to_a_picture_with_a_colour_per_token() {
    let test = "svg_rasterises";
    let Some(rsvg) = tools::tool("rsvg-convert", test) else { return };
    for (name, m) in fixtures() {
        let dir = tools::scratch(&format!("svg-{name}"));
        let svg = dir.join(Output::Svg.file_name(&m.pipeline));
        std::fs::write(&svg, emit::svg::emit(&m).unwrap()).unwrap();
        let png_path = dir.join("picture.png");
        tools::run(Command::new(&rsvg).arg(&svg).arg("-o").arg(&png_path));
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png_path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        let channels = info.color_type.samples();
        let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(channels).collect();
        let ink = pixels.iter().filter(|p| p[..3].iter().any(|&c| c < 200)).count();
        assert!(ink * 50 > pixels.len(), "{name}: the picture is nearly blank ({ink} of {} pixels)", pixels.len());
        let colours: std::collections::HashSet<[u8; 3]> = pixels.iter().map(|p| [p[0], p[1], p[2]]).collect();
        let tokens = m.layouts.iter().map(|l| l.tokens.len()).max().unwrap_or(0).min(10);
        assert!(colours.len() > tokens, "{name}: {} colours for up to {tokens} tokens", colours.len());
        let text = std::fs::read_to_string(&svg).unwrap();
        for l in &m.layouts {
            assert!(text.contains(&format!("stride {}:", l.stride)), "{name}/{}: the stride is marked", l.name);
            for t in &l.tokens {
                assert!(
                    text.contains(&format!(
                        "{} ({}): offset {}, {} bytes",
                        t.name,
                        t.token_type.manifest_name(),
                        t.offset,
                        t.size
                    )),
                    "{name}/{}: token {} is labelled",
                    l.name,
                    t.name
                );
            }
        }
    }
}

/// The picture of one wide record: 128 push constants of 256 `u32` fields each, 32,768 members
/// in 128 KiB. Every byte is a cell in its token's colour, each token is numbered at the start
/// of each of its 64 rows, and every member boundary is drawn on its row. The printer used to
/// look each byte's member up by scanning the members, and each boundary's row by scanning the
/// rows: billions of steps here (minutes for a record within dgcc's limits); it now searches.
#[test]
fn the_picture_of_a_record_of_thousands_of_members_finds_each_bytes_token() {
    let (tokens, fields) = (128usize, 256usize);
    let mut text = String::from("pipeline wide {\n");
    let _ = writeln!(text, "    push_constant [compute] offset 0 size {};", tokens * fields * 4);
    text.push_str("    layout Wide [compute] {\n        max_sequences 64;\n");
    for t in 0..tokens {
        let _ = writeln!(text, "        push_constant p{t} [compute] offset {} {{", t * fields * 4);
        for f in 0..fields {
            let _ = writeln!(text, "            f{f}: u32;");
        }
        text.push_str("        }\n");
    }
    text.push_str("        dispatch groups;\n    }\n}\n");
    // A profile that states no limit: only dgcc's own input limits bound the layout.
    let profile = Path::new(env!("DGCC_CHECKOUT")).join("tests/profiles/dgc-only.json");
    let options = dgcc::driver::Options { targets: vec![profile.display().to_string()], ..Default::default() };
    let c = dgcc::driver::compile_source(Path::new("wide.dgc"), &text, &options);
    let errors: Vec<String> =
        c.diagnostics.iter().filter(|d| d.is_error()).map(|d| format!("{}: {}", d.code, d.message)).collect();
    let m = c.manifest.unwrap_or_else(|| panic!("the wide description compiles: {errors:?}"));
    let l = &m.layouts[0];
    assert_eq!(l.record.len(), tokens * fields + 3, "a member per field, and the dispatch's three");
    let svg = emit::svg::emit(&m).unwrap();
    let cells = svg.matches(r#"width="30" height="30" fill=""#).count();
    assert_eq!(cells, l.stride as usize, "a cell per byte of the record");
    assert!(!svg.contains(r##"fill="url(#padding)" stroke="#ffffff""##), "no byte of this record is padding");
    for t in [1, 2, 10, 11, tokens, tokens + 1] {
        let rows = if t == tokens + 1 { 1 } else { fields * 4 / 16 };
        let numbered = svg.matches(&format!(r#"font-weight="bold">{t}</text>"#)).count();
        assert_eq!(numbered, rows, "token {t} is numbered at the start of each of its rows");
    }
    let boundaries = svg.matches(r##"stroke="#333" stroke-width="2"/>"##).count();
    assert_eq!(boundaries, l.record.len() - 1, "a line where each member but the last ends");
    // The last field's boundary is on the row of its end (the dispatch's first byte).
    let end = (tokens * fields * 4) as u32;
    let y = 50 + 30 + end / 16 * 30;
    let line = format!(r##"<line x1="70" y1="{y}" x2="70" y2="{}" stroke="#333" stroke-width="2"/>"##, y + 30);
    assert!(svg.contains(&line), "the last field's end is drawn on its row: {line}");
}

/// The Vulkan include is the engine's: a volk-style header (`VK_NO_PROTOTYPES`, then vulkan.h)
/// through `--c-vulkan-include`, through `DGCC_VULKAN_INCLUDE`, or already included with
/// `DGCC_NO_VULKAN_INCLUDE`; each compiles as C11 with no second vulkan.h. A header name that
/// would break the line is refused.
#[test]
fn the_vulkan_include_is_configurable_for_volk() {
    let test = "vulkan_include_for_volk";
    let Some(_) = tools::tool("gcc", test) else { return };
    let Some(include) = tools::vulkan_headers("DGCC_OLD_VULKAN_HEADERS", "/usr/include", false, test) else {
        return;
    };
    let dir = tools::scratch("c-volk");
    let m = fixture("scene");
    // A stand-in for volk.h: no prototypes, and a mark that it was the header included.
    std::fs::write(dir.join("myvolk.h"), "#define VK_NO_PROTOTYPES\n#include <vulkan/vulkan.h>\n#define MYVOLK 1\n")
        .unwrap();
    let option = emit::c::Options { vulkan_include: "\"myvolk.h\"".into() };
    let header = emit::c::emit_with(&m, &option).unwrap();
    assert!(header.contains("#include \"myvolk.h\"") && !header.contains("#include <vulkan/vulkan.h>"));
    std::fs::write(dir.join("scene_volk.h"), header).unwrap();
    std::fs::write(dir.join("scene.h"), emit::c::emit(&m).unwrap()).unwrap();
    let check = "#ifndef MYVOLK\n#error not the engine header\n#endif\n\
int main(void) { return (int)SCENE_SCENE_DRAW_STRIDE - 48; }\n";
    let sources = [
        ("option", format!("#include \"scene_volk.h\"\n{check}"), vec![]),
        ("macro", format!("#include \"scene.h\"\n{check}"), vec!["-DDGCC_VULKAN_INCLUDE=\"myvolk.h\""]),
        (
            "already",
            format!("#include \"myvolk.h\"\n#define DGCC_NO_VULKAN_INCLUDE\n#include \"scene.h\"\n{check}"),
            vec![],
        ),
    ];
    for (name, src, defines) in sources {
        let file = dir.join(format!("{name}.c"));
        std::fs::write(&file, src).unwrap();
        let exe = dir.join(name);
        tools::run(
            Command::new("gcc")
                .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"])
                .args(defines)
                .arg(format!("-I{}", include.display()))
                .arg(format!("-I{}", dir.display()))
                .arg(&file)
                .arg("-o")
                .arg(&exe),
        );
        tools::run(&mut Command::new(&exe));
    }
    // A bare name is put in angle brackets; a line break or a stray quote is refused.
    let bare = emit::c::Options { vulkan_include: "volk.h".into() };
    assert!(emit::c::emit_with(&m, &bare).unwrap().contains("#include <volk.h>"));
    for bad in ["volk.h\n#define X", "\"volk.h", "<a\"b>", ""] {
        assert!(emit::c::emit_with(&m, &emit::c::Options { vulkan_include: bad.into() }).is_err(), "{bad:?}");
    }
}

/// The C++17 headers of every fixture's pipeline, with their C headers, compile together in one
/// translation unit under g++ -std=c++17 -Wall -Wextra -Werror, on vulkan.hpp with the
/// extension (its C++ types) and without it (the C header's fallback types), and their
/// constants are the manifest's.
#[test]
fn cpp17_headers_of_several_pipelines_compile_together_on_vulkan_hpp_with_and_without_the_extension() {
    let test = "cpp17_headers";
    let Some(_) = tools::tool("g++", test) else { return };
    let fixtures = ["scene", "compute", "mesh", "pinned", "raytrace", "overlap"];
    for (env, default, new_enough) in [
        ("DGCC_VULKAN_HEADERS", "/opt/dgcc/trixie/usr/include", true),
        ("DGCC_OLD_VULKAN_HEADERS", "/usr/include", false),
    ] {
        let Some(include) = tools::vulkan_headers(env, default, new_enough, test) else { continue };
        let dir = tools::scratch(&format!("cpp17-{new_enough}"));
        let mut src = String::new();
        for name in fixtures {
            let m = fixture(name);
            for output in [Output::C, Output::Cpp] {
                std::fs::write(dir.join(output.file_name(&m.pipeline)), emit::emit(&m, output).unwrap()).unwrap();
            }
            src.push_str(&format!("#include \"{}\"\n", Output::Cpp.file_name(&m.pipeline)));
        }
        // The scene's header twice: its guard holds.
        src.push_str("#include \"scene.hpp\"\n");
        let scene = fixture("scene");
        let l = &scene.layouts[0];
        let k = &scene.kernels[0];
        src.push_str(&format!(
            "static_assert(dgcc::Scene::layouts::SceneDraw::stride == {}u);\n\
static_assert(dgcc::Scene::layouts::SceneDraw::shader_stages == vk::ShaderStageFlags({}u));\n\
static_assert(dgcc::Scene::layouts::SceneDraw::draw_offset == {}u);\n\
static_assert(dgcc::Scene::kernels::Cull::local_size[0] == {}u);\n\
static_assert(dgcc::Scene::kernels::Cull::targets.size() == {});\n\
static_assert(dgcc::Scene::push_constant_ranges[0].size == {}u);\n\
int main() {{\n\
    auto info = dgcc::Scene::layouts::SceneDraw::create_info(vk::PipelineLayout());\n\
    dgcc::Scene::layouts::SceneDraw::Record r{{}};\n\
    (void)r;\n\
    return static_cast<int>(info.indirectStride != dgcc::Compute::layouts::Simulate::stride - {}u);\n\
}}\n",
            l.stride,
            l.shader_stages,
            l.tokens.iter().find(|t| t.name == "draw").unwrap().offset,
            k.local_size[0],
            k.targets.len(),
            scene.push_constants[0].size,
            fixture("compute").layouts[0].stride - l.stride,
        ));
        if new_enough {
            src.push_str(&format!(
                "static_assert(dgcc::Scene::layouts::SceneDraw::token_types[2] == vk::IndirectCommandsTokenTypeEXT::eDrawIndexed);\n\
static_assert(dgcc::Scene::layouts::SceneDraw::usage_flags == vk::IndirectCommandsLayoutUsageFlagsEXT({}u));\n",
                l.flags
            ));
        }
        let file = dir.join("all.cpp");
        std::fs::write(&file, src).unwrap();
        let exe = dir.join("all");
        tools::run(
            Command::new("g++")
                .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic"])
                .arg(format!("-I{}", include.display()))
                .arg(format!("-I{}", dir.display()))
                .arg(&file)
                .arg("-o")
                .arg(&exe),
        );
        tools::run(&mut Command::new(&exe));
    }
}

/// Every macro that the includes of the C header (`stddef.h`, `stdint.h`, `assert.h`, the Vulkan
/// header) and of the C++ header (`<array>`, `<cstddef>`, `<cstdint>`, vulkan.hpp) define under
/// gcc and g++ here is a name `dgcc check` refuses where the headers would print it
/// (`names::c_headers::macro_of`, E0706), or refuses as written (`names::identifier_problem`:
/// `_` and a capital, `__`, keywords, `linux`, `errno`). A macro it missed let a record member
/// named `EOF` pass the check, and g++ refused the C++ header. A new compiler or C library that
/// defines another macro fails here: add it to `names::c_headers`.
#[test]
fn every_macro_the_includes_of_the_headers_define_is_refused() {
    let test = "includes_macros_are_refused";
    let (Some(_), Some(_)) = (tools::tool("gcc", test), tools::tool("g++", test)) else { return };
    let c = "#include <stddef.h>\n#include <stdint.h>\n#include <assert.h>\n#include <vulkan/vulkan.h>\n";
    let cpp = "#include <array>\n#include <cstddef>\n#include <cstdint>\n#include <vulkan/vulkan.hpp>\n";
    let dir = tools::scratch("includes-macros");
    let (c_file, cpp_file) = (dir.join("includes.c"), dir.join("includes.cpp"));
    std::fs::write(&c_file, c).unwrap();
    std::fs::write(&cpp_file, cpp).unwrap();
    let mut missed = std::collections::BTreeMap::new();
    let (mut runs, mut macros) = (0, 0);
    for (env, default, new_enough) in [
        ("DGCC_VULKAN_HEADERS", "/opt/dgcc/trixie/usr/include", true),
        ("DGCC_OLD_VULKAN_HEADERS", "/usr/include", false),
    ] {
        let Some(include) = tools::vulkan_headers(env, default, new_enough, test) else { continue };
        // The GNU modes are the compilers' defaults and define the most; C23 adds `_WIDTH`s.
        for (compiler, std, file) in [
            ("gcc", "-std=gnu17", &c_file),
            ("gcc", "-std=c2x", &c_file),
            ("g++", "-std=gnu++17", &cpp_file),
            ("g++", "-std=c++20", &cpp_file),
        ] {
            runs += 1;
            let out = tools::run(
                Command::new(compiler).args([std, "-dM", "-E"]).arg(format!("-I{}", include.display())).arg(file),
            );
            for line in out.lines() {
                let Some(rest) = line.strip_prefix("#define ") else { continue };
                let name = macro_name(rest);
                macros += 1;
                if passes_e0706(&name) {
                    missed.entry(name).or_insert_with(|| format!("{compiler} {std} -I{}", include.display()));
                }
            }
        }
    }
    assert!(runs == 0 || macros > 0, "the compilers defined no macros");
    assert!(
        missed.is_empty(),
        "{} macro(s) of the headers' includes pass as a member name (add them to names::c_headers):\n{}",
        missed.len(),
        missed.iter().map(|(name, by)| format!("{name} ({by})")).collect::<Vec<_>>().join("\n")
    );
}

/// A record member named like a macro of the headers' includes breaks the headers dgcc would
/// print, and the check refuses it. With placeholders for the names, the C and C++ headers
/// compile; with the names in their place (what `dgcc compile` printed before E0706 covered
/// them), g++ stops at every one of them in the C++ header, and gcc at those of `stdio.h`,
/// `errno.h` and `stdlib.h` in a C file that includes those first, as engines' files do. The
/// description with the names is refused with one E0706 each, while its layout, named `EOF`, is
/// not: C spells it `PEofRecord`.
#[test]
fn members_named_like_macros_of_the_includes_break_the_headers_and_are_refused() {
    // The name, and whether a C file that includes stdio.h, errno.h and stdlib.h first breaks.
    const NAMES: &[(&str, bool)] = &[
        ("EOF", true),
        ("EDOM", true),
        ("ERANGE", true),
        ("BUFSIZ", true),
        ("SEEK_SET", true),
        ("EXIT_FAILURE", true),
        ("CLOCK_REALTIME", false),
        ("LC_ALL", false),
        ("RTLD_NOW", false),
        ("LITTLE_ENDIAN", false),
        ("GCC_VERSION", false),
    ];
    let test = "members_named_like_macros";
    let (Some(_), Some(_)) = (tools::tool("gcc", test), tools::tool("g++", test)) else { return };
    let Some(include) = tools::vulkan_headers("DGCC_OLD_VULKAN_HEADERS", "/usr/include", false, test) else {
        return;
    };
    let description = |fields: &[&str]| {
        let fields: Vec<String> = fields.iter().map(|f| format!("(name: \"{f}\", ty: U32)")).collect();
        format!(
            "Pipeline(name: \"p\", targets: [\"lavapipe\"], push_constants: [(stages: [Vertex], offset: 0, size: {})], \
             layouts: [(name: \"EOF\", stages: [Vertex, Fragment], max_sequences: 64, align: Some(4), tokens: [\
             PushConstant(name: \"o\", stages: [Vertex], offset: 0, fields: [{}]), Draw])])",
            4 * fields.len(),
            fields.join(", ")
        )
    };
    let path = Path::new("members.ron");
    let names: Vec<&str> = NAMES.iter().map(|(n, _)| *n).collect();
    let refused = dgcc::driver::compile_source(path, &description(&names), &Default::default());
    let e0706: Vec<&str> =
        refused.diagnostics.iter().filter(|d| d.code == "E0706").map(|d| d.message.as_str()).collect();
    assert!(refused.manifest.is_none(), "the names must be refused");
    assert_eq!(e0706.len(), NAMES.len(), "one E0706 per member: {e0706:#?}");
    for name in &names {
        assert!(e0706.iter().any(|m| m.contains(&format!("the generated C name `{name}`"))), "{name}: {e0706:#?}");
    }
    // Placeholders that no name contains another of.
    let placeholders: Vec<String> = (0..NAMES.len()).map(|i| format!("probe{i}x")).collect();
    let placeholder_refs: Vec<&str> = placeholders.iter().map(String::as_str).collect();
    let ok = dgcc::driver::compile_source(path, &description(&placeholder_refs), &Default::default());
    let errors: Vec<&str> = ok.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.as_str()).collect();
    let m = ok.manifest.unwrap_or_else(|| panic!("the placeholders and the layout `EOF` must pass: {errors:#?}"));
    let dir = tools::scratch("members-named-like-macros");
    let headers = |named: bool| {
        for output in [Output::C, Output::Cpp] {
            let mut text = emit::emit(&m, output).unwrap();
            if named {
                for (p, (name, _)) in placeholders.iter().zip(NAMES) {
                    text = text.replace(p.as_str(), name);
                }
            }
            std::fs::write(dir.join(output.file_name(&m.pipeline)), text).unwrap();
        }
    };
    let c_src =
        "#include <stdio.h>\n#include <errno.h>\n#include <stdlib.h>\n#include \"p.h\"\nint main(void) { return 0; }\n";
    let cpp_src = "#include \"p.hpp\"\nint main() { return 0; }\n";
    std::fs::write(dir.join("main.c"), c_src).unwrap();
    std::fs::write(dir.join("main.cpp"), cpp_src).unwrap();
    let compile = |compiler: &str, std: &str, file: &str| {
        Command::new(compiler)
            .args([std, "-fsyntax-only"])
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", dir.display()))
            .arg(dir.join(file))
            .output()
            .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"))
    };
    headers(false);
    for (compiler, std, file) in [("gcc", "-std=c11", "main.c"), ("g++", "-std=c++17", "main.cpp")] {
        let out = compile(compiler, std, file);
        assert!(out.status.success(), "placeholders, {compiler}:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    headers(true);
    let cpp = compile("g++", "-std=c++17", "main.cpp");
    let cpp_err = String::from_utf8_lossy(&cpp.stderr);
    assert!(!cpp.status.success(), "g++ compiled the C++ header with the names");
    for (name, _) in NAMES {
        assert!(cpp_err.contains(&format!("offsetof(Record, {name})")), "g++ passed `{name}`:\n{cpp_err}");
    }
    let c = compile("gcc", "-std=c11", "main.c");
    let c_err = String::from_utf8_lossy(&c.stderr);
    assert!(!c.status.success(), "gcc compiled the C header with the names after stdio.h");
    for (name, breaks_c) in NAMES {
        assert_eq!(c_err.contains(&format!("uint32_t {name};")), *breaks_c, "gcc and `{name}`:\n{c_err}");
    }
}

// ---- W0014: the macros of windows.h and X11's Xlib.h --------------------------------------

/// The object-like macros of a preprocessor's `-dD` output, with the file that defined each (as
/// its line markers name it) and its expansion: `(name, file, expansion)`, in order.
fn object_like_macros(dd: &str) -> Vec<(String, String, String)> {
    let mut file = String::new();
    let mut out = vec![];
    for line in dd.lines() {
        if let Some(rest) = line.strip_prefix("# ") {
            if let Some(quoted) = rest.split_once(' ').map(|(_, q)| q) {
                file = quoted.trim_start_matches('"').split('"').next().unwrap_or("").to_string();
            }
            continue;
        }
        let Some(rest) = line.strip_prefix("#define ") else { continue };
        let name = macro_name(rest);
        let after = &rest[name.len()..];
        if after.starts_with('(') {
            continue;
        }
        out.push((name, file.clone(), after.trim().to_string()));
    }
    out
}

/// The macro name at the start of what follows `#define `.
fn macro_name(definition: &str) -> String {
    definition.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
}

/// Whether `name` is one a record member can take that E0706 does not refuse.
fn passes_e0706(name: &str) -> bool {
    dgcc::names::identifier_problem(name).is_none() && dgcc::names::c_headers::macro_of(name).is_none()
}

/// Whether gcc finds `<X11/Xlib.h>`; reports it missing when not.
fn xlib_found(test: &str) -> bool {
    let dir = tools::scratch(&format!("{test}-probe"));
    std::fs::write(dir.join("x.c"), "#include <X11/Xlib.h>\n").unwrap();
    let ok = Command::new("gcc").args(["-fsyntax-only"]).arg(dir.join("x.c")).status().is_ok_and(|s| s.success());
    if !ok {
        tools::missing("X11's <X11/Xlib.h> (Debian: libx11-dev)", test);
    }
    ok
}

/// Every object-like macro that `#include <X11/Xlib.h>` defines under gcc (C) and g++ (C++),
/// and that a record member could be named (E0706 lets it through), is in W0014's list as a
/// macro of the X11 header that defines it, with the expansion gcc reports; and every listed X11
/// macro is one of them. A newer libX11 that defines another fails here: add it to
/// `names::platform_headers::XLIB`.
#[test]
fn every_object_like_macro_of_xlib_is_warned_about() {
    use dgcc::names::platform_headers::{self, Reach};
    let test = "xlib_macros_are_warned_about";
    let (Some(_), Some(_)) = (tools::tool("gcc", test), tools::tool("g++", test)) else { return };
    if !xlib_found(test) {
        return;
    }
    let dir = tools::scratch("xlib-macros");
    let (c_file, cpp_file) = (dir.join("x.c"), dir.join("x.cpp"));
    std::fs::write(&c_file, "#include <X11/Xlib.h>\n").unwrap();
    std::fs::write(&cpp_file, "#include <X11/Xlib.h>\n").unwrap();
    let (mut missed, mut defined) = (std::collections::BTreeMap::new(), std::collections::BTreeSet::new());
    let mut from_x11 = 0;
    for (compiler, std, file) in [("gcc", "-std=gnu17", &c_file), ("g++", "-std=gnu++17", &cpp_file)] {
        let dd = tools::run(Command::new(compiler).args([std, "-E", "-dD"]).arg(file));
        for (name, from, expansion) in object_like_macros(&dd) {
            if !passes_e0706(&name) {
                continue;
            }
            // `/usr/include/X11/X.h` → `X11/X.h`; gcc's and glibc's own macros have no header here.
            let header = from.find("/X11/").map(|i| from[i + 1..].to_string());
            if header.is_some() {
                from_x11 += 1;
            }
            let listed = platform_headers::macros_named(&name).iter().find(|m| m.header.reach == Reach::Xlib);
            match (listed, &header) {
                (Some(m), Some(h)) if m.header.path == h && m.expansion == expansion => {
                    defined.insert(name);
                }
                _ => {
                    let found = listed.map(|m| format!("listed: {} `{}`", m.header.path, m.expansion));
                    missed.insert(name, format!("{compiler}: {from} `{expansion}`; {found:?}"));
                }
            }
        }
    }
    assert!(from_x11 > 400, "gcc reported {from_x11} macros of X11's headers");
    assert!(
        missed.is_empty(),
        "{} object-like macro(s) of <X11/Xlib.h> are not listed as gcc defines them (names::platform_headers::XLIB):\n{}",
        missed.len(),
        missed.iter().map(|(n, why)| format!("{n}: {why}")).collect::<Vec<_>>().join("\n")
    );
    let stale: Vec<&str> = platform_headers::XLIB
        .iter()
        .flat_map(|h| h.macros)
        .map(|(n, _)| *n)
        .filter(|n| !defined.contains(*n))
        .collect();
    assert!(stale.is_empty(), "listed but not defined by <X11/Xlib.h>: {stale:?}");
}

/// Members named like Xlib's macros, and a layout whose C++ namespace is one, pass `dgcc check`
/// with one W0014 each, and the headers dgcc writes for them compile alone, but not after
/// `<X11/Xlib.h>`: gcc stops at every member of the C header, and g++ at every
/// `offsetof(Record, …)` of the C++ header and at the layout's namespace where vulkan.h
/// includes Xlib.h itself (`VK_USE_PLATFORM_XLIB_KHR`). The warning is real. And the headers of
/// every fixture, whose names are none of these, compile after Xlib.h: dgcc's own names are not
/// X11's macros.
#[test]
fn members_named_like_xlib_macros_break_the_headers_after_xlib_and_are_warned_about() {
    const NAMES: &[&str] = &["None", "Bool", "Status", "True", "False", "Success", "Always"];
    let test = "members_named_like_xlib_macros";
    let (Some(_), Some(_)) = (tools::tool("gcc", test), tools::tool("g++", test)) else { return };
    if !xlib_found(test) {
        return;
    }
    let Some(include) = tools::vulkan_headers("DGCC_OLD_VULKAN_HEADERS", "/usr/include", false, test) else {
        return;
    };
    let dir = tools::scratch("members-named-like-xlib-macros");
    // Pipeline `pipeline` with one layout `layout` whose push constant has `fields`: its W0014
    // messages, and its C and C++ headers written to `dir`.
    let headers_of = |pipeline: &str, layout: &str, fields: &[&str]| {
        let typed: Vec<String> = fields.iter().map(|f| format!("(name: \"{f}\", ty: U32)")).collect();
        let description = format!(
            "Pipeline(name: \"{pipeline}\", targets: [\"lavapipe\"], push_constants: [(stages: [Vertex], offset: 0, size: {})], \
             layouts: [(name: \"{layout}\", stages: [Vertex, Fragment], max_sequences: 64, align: Some(4), tokens: [\
             PushConstant(name: \"o\", stages: [Vertex], offset: 0, fields: [{}]), Draw])])",
            4 * fields.len(),
            typed.join(", ")
        );
        let c = dgcc::driver::compile_source(Path::new("xlib.ron"), &description, &Default::default());
        let w0014: Vec<String> =
            c.diagnostics.iter().filter(|d| d.code == "W0014").map(|d| d.message.clone()).collect();
        let m = c.manifest.unwrap_or_else(|| panic!("warnings only, so {pipeline} compiles: {:#?}", c.diagnostics));
        for output in [Output::C, Output::Cpp] {
            std::fs::write(dir.join(output.file_name(&m.pipeline)), emit::emit(&m, output).unwrap()).unwrap();
        }
        w0014
    };
    let compile = |compiler: &str, std: &str, src: String, file: &str| {
        std::fs::write(dir.join(file), src + "int main(void) { return 0; }\n").unwrap();
        let out = Command::new(compiler)
            .args([std, "-fsyntax-only", "-Wall", "-Wextra", "-Werror"])
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", dir.display()))
            .arg(dir.join(file))
            .output()
            .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
        (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let xlib_c = |header: &str| format!("#include <X11/Xlib.h>\n#include \"{header}\"\n");
    let xlib_cpp = |header: &str| format!("#define VK_USE_PLATFORM_XLIB_KHR\n#include \"{header}\"\n");

    // The members.
    let w0014 = headers_of("members", "Draws", NAMES);
    assert_eq!(w0014.len(), NAMES.len(), "one W0014 per member: {w0014:#?}");
    for name in NAMES {
        let said =
            |m: &&String| m.starts_with(&format!("member `{name}` ")) && m.contains(&format!("defines `{name}` as `"));
        assert!(w0014.iter().any(|m| said(&m)), "{name}: {w0014:#?}");
    }
    for (compiler, std, header, file) in
        [("gcc", "-std=c11", "members.h", "members.c"), ("g++", "-std=c++17", "members.hpp", "members.cpp")]
    {
        let (ok, err) = compile(compiler, std, format!("#include \"{header}\"\n"), file);
        assert!(ok, "{header} without Xlib.h, {compiler}:\n{err}");
    }
    let (ok, c_err) = compile("gcc", "-std=c11", xlib_c("members.h"), "members-xlib.c");
    assert!(!ok, "gcc compiled the C header after Xlib.h");
    for name in NAMES {
        assert!(c_err.contains(&format!("uint32_t {name};")), "gcc passed `{name}`:\n{c_err}");
    }
    let (ok, cpp_err) = compile("g++", "-std=c++17", xlib_cpp("members.hpp"), "members-xlib.cpp");
    assert!(!ok, "g++ compiled the C++ header under VK_USE_PLATFORM_XLIB_KHR");
    for name in NAMES {
        assert!(cpp_err.contains(&format!("offsetof(Record, {name})")), "g++ passed `{name}`:\n{cpp_err}");
    }

    // The layout: `namespace Expose` in C++; C spells it `LayoutsExposeRecord`.
    let w0014 = headers_of("layouts", "expose", &["probe"]);
    assert_eq!(w0014.len(), 1, "{w0014:#?}");
    assert!(w0014[0].contains("`namespace Expose`") && w0014[0].contains("`X11/X.h` defines `Expose` as `12`"));
    let (ok, err) = compile("g++", "-std=c++17", "#include \"layouts.hpp\"\n".into(), "layouts.cpp");
    assert!(ok, "layouts.hpp without Xlib.h:\n{err}");
    let (ok, err) = compile("gcc", "-std=c11", xlib_c("layouts.h"), "layouts-xlib.c");
    assert!(ok, "the C header names no namespace:\n{err}");
    let (ok, cpp_err) = compile("g++", "-std=c++17", xlib_cpp("layouts.hpp"), "layouts-xlib.cpp");
    assert!(!ok && cpp_err.contains("namespace Expose {"), "g++ passed `namespace Expose`:\n{cpp_err}");

    // dgcc's own names: every fixture's headers compile after Xlib.h.
    let mut src = String::from("#include <X11/Xlib.h>\n");
    for name in FIXTURES {
        let m = fixture(name);
        for output in [Output::C, Output::Cpp] {
            std::fs::write(dir.join(output.file_name(&m.pipeline)), emit::emit(&m, output).unwrap()).unwrap();
        }
        src.push_str(&format!("#include \"{}\"\n", Output::Cpp.file_name(&m.pipeline)));
    }
    let (ok, err) = compile("g++", "-std=c++17", src, "fixtures.cpp");
    assert!(ok, "the fixtures' headers after Xlib.h:\n{err}");
}

/// The headers of mingw-w64's C runtime among those windows.h includes: mingw-w64 and MSVC each
/// bring their own, so W0014 lists none of their macros.
fn mingw_crt(header: &str) -> bool {
    const CRT: &[&str] = &[
        "corecrt.h",
        "corecrt_wstdlib.h",
        "crtdefs.h",
        "ctype.h",
        "errno.h",
        "intrin.h",
        "limits.h",
        "malloc.h",
        "setjmp.h",
        "stdarg.h",
        "stddef.h",
        "stdlib.h",
        "string.h",
        "vadefs.h",
        "psdk_inc/intrin-impl.h",
    ];
    CRT.contains(&header) || header.starts_with('_') || header.starts_with("sec_api/") || header.starts_with("sdks/")
}

/// The headers `#include <windows.h>` includes from `include` (mingw-w64's Windows headers) for
/// an x86-64 mingw-w64 target, as gcc's preprocessor walks them (`-H`), relative to `include`.
/// gcc is not a cross compiler here: the target's predefined macros stand in for it.
fn windows_h_includes(include: &Path, lean: bool) -> std::collections::BTreeSet<String> {
    const TARGET: &[&str] = &[
        "-nostdinc",
        "-U__linux__",
        "-U__linux",
        "-Ulinux",
        "-U__unix__",
        "-U__unix",
        "-Uunix",
        "-U__gnu_linux__",
        "-U__ELF__",
        "-U__LP64__",
        "-U_LP64",
        "-D_WIN32",
        "-D_WIN64",
        "-D__WIN32",
        "-D__WIN32__",
        "-D__WIN64",
        "-D__WIN64__",
        "-DWIN32",
        "-DWIN64",
        "-D__MINGW32__",
        "-D__MINGW64__",
        "-D__MSVCRT__",
        "-D__SEH__",
    ];
    let gcc_include = tools::run(Command::new("gcc").arg("-print-file-name=include")).trim().to_string();
    let dir = tools::scratch(&format!("windows-h-{lean}"));
    let file = dir.join("w.c");
    std::fs::write(&file, "#include <windows.h>\n").unwrap();
    let mut cmd = Command::new("gcc");
    cmd.args(TARGET).arg("-isystem").arg(include).arg("-isystem").arg(&gcc_include);
    if lean {
        cmd.arg("-DWIN32_LEAN_AND_MEAN");
    }
    let out = cmd.args(["-E", "-H", "-o", "/dev/null"]).arg(&file).output().expect("gcc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "gcc cannot preprocess windows.h:\n{stderr}");
    let prefix = format!("{}/", include.display());
    stderr
        .lines()
        .filter(|l| l.starts_with('.'))
        .filter_map(|l| l.trim_start_matches('.').trim_start().strip_prefix(&prefix))
        .map(str::to_string)
        .collect()
}

/// The object-like macros a header's text defines, in any branch: `(name, expansion)`, the
/// expansion without comments and with its white space collapsed.
fn defines_in_text(text: &str) -> Vec<(String, String)> {
    let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
    let mut code = String::with_capacity(joined.len());
    let mut rest = joined.as_str();
    while let Some(open) = rest.find("/*") {
        code.push_str(&rest[..open]);
        rest = rest[open + 2..].split_once("*/").map_or("", |(_, after)| after);
    }
    code.push_str(rest);
    let mut out = vec![];
    for line in code.lines() {
        let line = line.trim_start();
        let Some(after_hash) = line.strip_prefix('#') else { continue };
        let Some(def) = after_hash.trim_start().strip_prefix("define") else { continue };
        if !def.starts_with([' ', '\t']) {
            continue;
        }
        let def = def.trim_start();
        let name = macro_name(def);
        let after = &def[name.len()..];
        if name.is_empty() || !(after.is_empty() || after.starts_with([' ', '\t'])) {
            continue;
        }
        let expansion = after.split("//").next().unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
        out.push((name, expansion));
    }
    out
}

/// W0014's Windows list, held to mingw-w64's Windows headers (`.ci/setup.sh` unpacks Debian's
/// `mingw-w64-common`; `DGCC_MINGW_INCLUDE` names another copy): gcc lists the headers
/// windows.h includes with and without `WIN32_LEAN_AND_MEAN`, and their text is read both ways.
/// Every listed macro is defined by its header, with its expansion, and the header is included
/// (with the guard too where the list says so); every object-like macro those headers define
/// (the C runtime's aside) under a snake_case, camelCase or single-capital-word name that E0706
/// lets through is listed. And no identifier of the C and C++ headers of any fixture is one of
/// them: dgcc's own names survive windows.h.
#[test]
fn every_listed_windows_macro_is_defined_and_every_one_is_listed() {
    use dgcc::names::platform_headers::{self, Reach};
    use std::collections::{BTreeMap, BTreeSet};
    let test = "windows_macros_are_listed";
    let Some(_) = tools::tool("gcc", test) else { return };
    let include = std::env::var_os("DGCC_MINGW_INCLUDE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/opt/dgcc/mingw-w64/usr/share/mingw-w64/include"));
    if !include.join("windows.h").is_file() {
        tools::missing(
            &format!(
                "mingw-w64's windows.h in {} (Debian: mingw-w64-common, which .ci/setup.sh unpacks; set DGCC_MINGW_INCLUDE)",
                include.display()
            ),
            test,
        );
        return;
    }
    let full: BTreeSet<String> = windows_h_includes(&include, false).into_iter().filter(|h| !mingw_crt(h)).collect();
    let lean: BTreeSet<String> = windows_h_includes(&include, true).into_iter().filter(|h| !mingw_crt(h)).collect();
    for h in ["windows.h", "minwindef.h", "winnt.h", "rpcndr.h", "winsock.h", "dlgs.h"] {
        assert!(full.contains(h), "gcc did not find windows.h including {h}: {full:?}");
    }
    assert!(lean.contains("minwindef.h") && !lean.contains("rpcndr.h"), "{lean:?}");
    // Every definition of every object-like macro of those headers, by name.
    let mut defined: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for h in &full {
        let text = String::from_utf8_lossy(&std::fs::read(include.join(h)).unwrap()).into_owned();
        for (name, expansion) in defines_in_text(&text) {
            defined.entry(name).or_default().push((h.clone(), expansion));
        }
    }
    let windows = |name: &str| {
        platform_headers::macros_named(name).iter().find(|m| matches!(m.header.reach, Reach::Windows { .. })).copied()
    };
    // Listed → defined.
    let mut wrong = vec![];
    for h in platform_headers::WINDOWS {
        let Reach::Windows { lean: kept } = h.reach else { panic!("{} is not a Windows header", h.path) };
        if !full.contains(h.path) || lean.contains(h.path) != kept {
            wrong.push(format!(
                "{}: included {}, with WIN32_LEAN_AND_MEAN {}",
                h.path,
                full.contains(h.path),
                lean.contains(h.path)
            ));
        }
        for &(name, expansion) in h.macros {
            let here = defined.get(name).into_iter().flatten().any(|(dh, e)| dh == h.path && e == expansion);
            if !here {
                wrong.push(format!("{name}: {} does not define it as `{expansion}`: {:?}", h.path, defined.get(name)));
            }
        }
    }
    assert!(wrong.is_empty(), "names::platform_headers::WINDOWS does not match the headers:\n{}", wrong.join("\n"));
    // Defined → listed.
    let missed: Vec<String> = defined
        .iter()
        .filter(|(name, _)| platform_headers::windows_shape(name) && passes_e0706(name) && windows(name).is_none())
        .map(|(name, defs)| format!("{name}: {defs:?}"))
        .collect();
    assert!(
        missed.is_empty(),
        "{} object-like macro(s) of windows.h's headers are not listed (names::platform_headers::WINDOWS):\n{}",
        missed.len(),
        missed.join("\n")
    );
    for name in ["near", "far", "small", "hyper", "pascal", "cdecl", "IN", "OUT", "OPTIONAL", "DELETE", "s_addr"] {
        assert!(windows(name).is_some(), "{name}");
    }
    // dgcc's own names in the C and C++ headers.
    for (label, m) in fixtures() {
        for output in [Output::C, Output::Cpp] {
            // Every word outside comments and string literals.
            let code = strip_strings(&emit::emit(&m, output).unwrap());
            let hit: BTreeSet<&str> = code
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| windows(w).is_some())
                .collect();
            assert!(hit.is_empty(), "{label}: the {output:?} header uses names windows.h defines: {hit:?}");
        }
    }
}

/// `text` without its comments and string literals (C and C++).
fn strip_strings(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                out.push(' ');
            }
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for d in chars.by_ref() {
                    if last == '*' && d == '/' {
                        break;
                    }
                    last = d;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}
