//! The fuzzing entry points, one per `fuzz_targets/*.rs`, shared with the regression test.
//!
//! Why one file for both: `tests/fuzz_regressions.rs` includes this file (`#[path]`) and feeds
//! every saved crash through exactly the code the fuzzer ran, so a fix is proven by the same
//! oracle that found the bug. Each entry point takes raw bytes and asserts what must hold for
//! *any* input — beyond "does not panic":
//! - profile files: whatever loads can be written in the probe format and reads back the same;
//! - front ends: whatever parses prints in the same syntax and parses back to an equal AST;
//! - the formatter: whatever parses formats in either syntax with every comment kept, to the
//!   same pipeline, and formatting that again changes nothing;
//! - the pipeline: every diagnostic has a registered code and renders (human and JSON) against
//!   the source; a compilation with errors has no manifest; a manifest survives its own JSON,
//!   prints in every output (the emitted JSON being the manifest itself), and the description
//!   printed in the other syntax compiles to the same manifest;
//! - manifest files: whatever `Manifest::from_json` accepts, the emitters print or refuse;
//! - kernel sources: the subgroup lints give registered codes on lines of the source.

use std::path::Path;

use dgcc::device::json;
use dgcc::device::{Limit, LimitKind};

/// Profile files: `device::json::parse`, then the write/read-back oracle.
pub fn profile_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(profile) = json::parse(text, Path::new("fuzz.json")) else {
        return;
    };
    let written = json::to_profiles_json(&profile, "1.3.296");
    let back = match json::parse(&written, Path::new("fuzz.json")) {
        Ok(p) => p,
        Err(e) => panic!("dgcc cannot read the profile it wrote: {e}\n{written}"),
    };
    for limit in Limit::ALL {
        // A file names flag bits; bits without a name (possible in an integer mask) are not
        // written back, as vulkaninfo does not write them either.
        let keep = |v: u64| match limit.kind() {
            LimitKind::Stages => v & u64::from(json::KNOWN_STAGE_BITS),
            LimitKind::InputModes => v & 0x3,
            _ => v,
        };
        assert_eq!(back.value(limit).map(keep), profile.value(limit).map(keep), "{limit} changed on write/read");
    }
}

pub use compiler::*;

mod compiler {
    use std::path::Path;

    use dgcc::driver::{compile_source, Options};
    use dgcc::emit::{self, Output};
    use dgcc::ir::Manifest;
    use dgcc::render::{self, SourceFile};
    use dgcc::shader::lint;
    use dgcc::syntax::{self, SyntaxKind};

    /// Which front end a target drives.
    #[derive(Clone, Copy, Debug)]
    pub enum Syntax {
        Ron,
        Dsl,
    }

    impl Syntax {
        fn kind(self) -> SyntaxKind {
            match self {
                Syntax::Ron => SyntaxKind::Ron,
                Syntax::Dsl => SyntaxKind::Dsl,
            }
        }
        fn print(self, p: &dgcc::ast::Pipeline) -> String {
            match self {
                Syntax::Ron => syntax::print_ron(p),
                Syntax::Dsl => syntax::print_dsl(p),
            }
        }
    }

    /// One front end: parse; what parses must print and parse back to an equal AST (spans
    /// aside), because `dgcc fmt` relies on it.
    pub fn front_end(data: &[u8], syntax: Syntax) {
        let Ok(text) = std::str::from_utf8(data) else { return };
        let Ok(pipeline) = syntax::parse(text, syntax.kind()) else { return };
        let printed = syntax.print(&pipeline);
        match syntax::parse(&printed, syntax.kind()) {
            Ok(again) => assert!(again == pipeline, "printing and parsing again changed the pipeline:\n{printed}"),
            Err(d) => panic!("the printed description does not parse: {d:?}\n{printed}"),
        }
    }

    /// The formatter (`dgcc fmt`): the first byte picks the syntax read (bit 0: `.ron`/`.dgc`)
    /// and whether to convert (bit 1). Whatever parses formats: `syntax::format` itself refuses
    /// a result that parses to another pipeline or lost a comment's text, so any refusal is a
    /// crash, and formatting the result again must give it back byte for byte.
    pub fn fmt(data: &[u8]) {
        let Some((&selector, rest)) = data.split_first() else { return };
        let Ok(text) = std::str::from_utf8(rest) else { return };
        let from = if selector & 1 == 0 { SyntaxKind::Ron } else { SyntaxKind::Dsl };
        let to = match (selector & 2 != 0, from) {
            (false, k) => k,
            (true, SyntaxKind::Ron) => SyntaxKind::Dsl,
            (true, SyntaxKind::Dsl) => SyntaxKind::Ron,
        };
        if syntax::parse(text, from).is_err() {
            return;
        }
        let out = syntax::format(text, from, to).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        let again = syntax::format(&out, to, to).unwrap_or_else(|e| panic!("the output: {e:?}\n{out}"));
        assert!(again == out, "formatting is not idempotent:\n{out}\n--- then ---\n{again}");
    }

    /// Manifest files (what the runtime and outside tools read, possibly hand-edited): any
    /// bytes through `Manifest::from_json`; whatever loads must print in every output or be
    /// refused with an `EmitError`, never panic.
    pub fn manifest(data: &[u8]) {
        let Ok(text) = std::str::from_utf8(data) else { return };
        let Ok(m) = Manifest::from_json(text) else { return };
        for output in Output::ALL {
            let _ = emit::emit(&m, output);
        }
    }

    /// GLSL kernels: the subgroup lints (`shader::lint`) on any text. The first 7 bytes are the
    /// context — `local_size` x and y (u16 LE each), the smallest subgroup size (u16 LE) and
    /// whether one is known (bit 0) — so that odd contexts, such as a profile stating a
    /// subgroup size of 0, are explored too. Every finding has a registered code and a line
    /// of the source.
    pub fn kernel_lint(data: &[u8]) {
        let Some((head, rest)) = data.split_first_chunk::<7>() else { return };
        let Ok(source) = std::str::from_utf8(rest) else { return };
        let word = |i: usize| u32::from(u16::from_le_bytes([head[i], head[i + 1]]));
        let ctx = lint::KernelContext {
            local_size: [word(0), word(2), 1],
            smallest_subgroup: (head[6] & 1 != 0).then(|| (word(4), "fuzz".to_owned())),
            required_subgroup_size: head[6] & 2 != 0,
        };
        let lines = source.lines().count().max(1);
        for f in lint::lint(source, &ctx) {
            assert!(dgcc::rules::lookup(f.code).is_some(), "lint code {} is not in the registry", f.code);
            assert!((1..=lines + 1).contains(&f.line), "line {} of a {lines}-line source: {f:?}", f.line);
            assert!(f.span.start < f.span.end && f.span.end <= source.len(), "{f:?} points outside the source");
        }
        for (line, span, _) in lint::coopmat_decls(source) {
            assert!((1..=lines + 1).contains(&line), "a cooperative matrix at line {line} of {lines}");
            assert!(span.end <= source.len() && source.is_char_boundary(span.start), "{span:?} outside the source");
        }
    }

    /// The built-in targets the pipeline target checks against when the selector asks.
    const ALL_BUILTINS: [&str; 5] = ["minimum", "lavapipe", "nvidia", "radv", "nvk"];

    /// The whole compiler. The first byte selects: bit 0 the syntax (`.ron`/`.dgc`), bit 1
    /// whether every built-in profile replaces the description's targets (so every
    /// limit-dependent rule runs), the rest is the description.
    pub fn pipeline(data: &[u8]) {
        let Some((&selector, rest)) = data.split_first() else { return };
        let Ok(text) = std::str::from_utf8(rest) else { return };
        let name = if selector & 1 == 0 { "fuzz.ron" } else { "fuzz.dgc" };
        let targets = if selector & 2 != 0 { ALL_BUILTINS.map(String::from).to_vec() } else { vec![] };
        let options = Options { targets, ..Options::default() };
        let c = compile_source(Path::new(name), text, &options);
        let file = SourceFile { name, text };
        for d in &c.diagnostics {
            assert!(dgcc::rules::lookup(d.code).is_some(), "diagnostic code {} is not in the registry: {d:?}", d.code);
            let line = render::json_line(&file, d);
            assert!(serde_json::from_str::<serde_json::Value>(&line).is_ok(), "not JSON: {line}");
        }
        let _ = render::human(&file, &c.diagnostics);
        if c.has_errors() {
            assert!(c.manifest.is_none(), "a manifest despite errors: {:?}", c.diagnostics);
        }
        if let (Some(m), Some(p)) = (&c.manifest, &c.pipeline) {
            let back = Manifest::from_json(&m.to_json()).unwrap_or_else(|e| panic!("{e}"));
            assert!(&back == m, "the manifest changed through its JSON");
            // A compiler manifest always prints, and the emitted JSON is the manifest.
            let printer = emit::Printer::new(m).unwrap_or_else(|e| panic!("{e}"));
            for output in Output::ALL {
                let text =
                    printer.print(output, &emit::Options::default()).unwrap_or_else(|e| panic!("{output:?}: {e}"));
                if output == Output::Json {
                    assert!(
                        Manifest::from_json(&text).ok().as_ref() == Some(m),
                        "the emitted JSON is not the manifest"
                    );
                }
            }
            // The other syntax must mean the same: `dgcc fmt` output compiles to the same manifest.
            let (other_name, other_text) =
                if selector & 1 == 0 { ("fuzz.dgc", syntax::print_dsl(p)) } else { ("fuzz.ron", syntax::print_ron(p)) };
            let other = compile_source(Path::new(other_name), &other_text, &options);
            assert!(
                other.manifest.as_ref() == Some(m),
                "{other_name} printed from {name} compiles differently:\n{other_text}\n{:?}",
                other.diagnostics
            );
        }
    }

    /// Name parts in case and separator variants: descriptions built from them meet every
    /// rule of the naming authority (`dgcc::names::plan`).
    const PARTS: &[&str] =
        &["a", "A", "b_c", "bC", "B_C", "vb", "VB", "x_", "_y", "v", "draw", "Type", "t2", "gl", "GL_", "main"];
    const FIELDS: &[&str] = &["v", "w", "draw_index_count", "_pad0", "a_v", "V", "type_", "x"];

    /// A description from bytes: every byte picks a name part, a token kind or a length. Long
    /// inputs give long names (past glslang's 1,024 characters and the 64 KiB the other targets
    /// see), repeated parts give names that differ only in case or separators.
    pub fn described(data: &[u8]) -> String {
        let mut it = data.iter().copied();
        let mut next = move || it.next();
        let name = |next: &mut dyn FnMut() -> Option<u8>, prefix: &str| -> String {
            let mut s = prefix.to_string();
            let n = next().map_or(1, |b| 1 + (b % 3) as usize);
            for _ in 0..n {
                let b = next().unwrap_or(0);
                if b == 0xff {
                    // A long run: the next byte times 64 characters.
                    let k = next().unwrap_or(1) as usize * 64;
                    s.push_str(&"n".repeat(k));
                } else {
                    s.push_str(PARTS[b as usize % PARTS.len()]);
                }
            }
            s
        };
        let pipeline = name(&mut next, "p");
        let mut out = format!("Pipeline(name: \"{pipeline}\", targets: [\"lavapipe\"], push_constants: [(stages: [Vertex], offset: 0, size: 128)], layouts: [\n");
        let layouts = next().map_or(1, |b| 1 + (b % 3) as usize);
        for _ in 0..layouts {
            let l = name(&mut next, "L");
            let mut tokens = vec![];
            let (mut push_at, mut binding) = (0u32, 0u32);
            for _ in 0..next().map_or(0, |b| (b % 4) as usize) {
                let t = name(&mut next, "");
                match next().unwrap_or(0) % 3 {
                    0 if push_at < 96 => {
                        let n = 1 + next().unwrap_or(0) as usize % 3;
                        let fs: Vec<String> = (0..n)
                            .map(|_| {
                                format!("(name: \"{}\", ty: U32)", FIELDS[next().unwrap_or(0) as usize % FIELDS.len()])
                            })
                            .collect();
                        tokens.push(format!(
                            "PushConstant(name: \"{t}\", stages: [Vertex], offset: {push_at}, fields: [{}])",
                            fs.join(", ")
                        ));
                        push_at += 4 * n as u32;
                    }
                    1 => {
                        tokens.push(format!("VertexBuffer(name: \"{t}\", binding: {binding})"));
                        binding += 1;
                    }
                    _ => tokens.push(format!("SequenceIndex(name: \"{t}\", stages: [Vertex], offset: 124)")),
                }
            }
            tokens.push("Draw(name: \"draw\")".into());
            out.push_str(&format!(
                "    (name: \"{l}\", stages: [Vertex], max_sequences: 64, align: Some(4), tokens: [{}]),\n",
                tokens.join(", ")
            ));
        }
        out.push_str("], kernels: [\n");
        for _ in 0..next().map_or(0, |b| (b % 3) as usize) {
            let k = name(&mut next, "k");
            out.push_str(&format!("    (name: \"{k}\", source: \"k.comp\", local_size: (64, 1, 1)),\n"));
        }
        out.push_str("])\n");
        out
    }

    /// Names in case and separator variants: `dgcc check` accepts exactly what every emitter
    /// prints, and what it accepts has no printed name that clashes or that a compiler refuses.
    pub fn names(data: &[u8]) {
        let text = described(data);
        let c = compile_source(Path::new("fuzz.ron"), &text, &Options::default());
        match &c.manifest {
            None => assert!(c.has_errors(), "no manifest and no error:\n{text}"),
            Some(m) => {
                let problems = dgcc::names::plan::problems(m);
                assert!(problems.is_empty(), "the check passed names the plan refuses: {problems:?}\n{text}");
                for output in Output::ALL {
                    emit::emit(m, output).unwrap_or_else(|e| panic!("check passed, {output:?} refused: {e}\n{text}"));
                }
            }
        }
    }

    /// What the emitters print compiles: C with gcc (C11), C++ with g++ (C++17), GLSL with
    /// glslang, for every description from [`described`] that the check accepts; an error or a
    /// redefinition warning is a crash. The C header is included together with the header of a
    /// second pipeline that has the same layouts and kernels under another pipeline name, as an
    /// engine with a main and a shadow pass would. (rustc is left to `tests/emit_props.rs`:
    /// starting it per input would make the target too slow to explore anything.)
    pub fn emit_compile(data: &[u8]) {
        use std::process::Command;
        let text = described(data);
        let c = compile_source(Path::new("fuzz.ron"), &text, &Options::default());
        let Some(m) = &c.manifest else { return };
        let dir = std::env::temp_dir().join(format!("dgcc-fuzz-emit-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        for output in [Output::C, Output::Glsl] {
            let body = emit::emit(m, output).unwrap_or_else(|e| panic!("{output:?}: {e}"));
            let _ = std::fs::write(dir.join(output.file_name(&m.pipeline)), body);
        }
        // The same layouts and kernels in a second pipeline, whose header goes in the same unit.
        let mut twin = m.clone();
        twin.pipeline = format!("{}_twin", m.pipeline);
        let twin_header = Output::C.file_name(&twin.pipeline);
        let body = emit::emit(&twin, Output::C).unwrap_or_else(|e| panic!("the twin's C: {e}"));
        let _ = std::fs::write(dir.join(&twin_header), body);
        let check = |cmd: &mut Command, what: &str| {
            let Ok(out) = cmd.output() else { return };
            let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            assert!(out.status.success() && !all.contains("redefin"), "{what}:\n{all}\n{text}");
        };
        let main_c = dir.join("main.c");
        let _ = std::fs::write(
            &main_c,
            format!(
                "#include \"{}\"\n#include \"{twin_header}\"\nint main(void) {{ return 0; }}\n",
                Output::C.file_name(&m.pipeline)
            ),
        );
        let main_cpp = dir.join("main.cpp");
        let _ = std::fs::copy(&main_c, &main_cpp);
        check(
            Command::new("gcc").args(["-std=c11", "-fsyntax-only", "-Wall", "-Wextra", "-Wno-unused"]).arg(&main_c),
            "gcc",
        );
        check(
            Command::new("g++").args(["-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Wno-unused"]).arg(&main_cpp),
            "g++",
        );
        let mut shader = String::from("#version 460\n#extension GL_GOOGLE_include_directive : require\n");
        for l in &m.layouts {
            shader.push_str(&format!("#define {}_WRITER\n", dgcc::names::screaming(&l.name)));
        }
        shader.push_str(&format!(
            "#include \"{}\"\nlayout(local_size_x = 64) in;\nvoid main() {{}}\n",
            Output::Glsl.file_name(&m.pipeline)
        ));
        let comp = dir.join("main.comp");
        let _ = std::fs::write(&comp, shader);
        check(
            Command::new("glslangValidator")
                .args(["--target-env", "vulkan1.2", "-V"])
                .arg(&comp)
                .arg("-o")
                .arg(dir.join("main.spv")),
            "glslang",
        );
    }
}
