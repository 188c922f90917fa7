//! The fuzzing entry points, one per `fuzz_targets/*.rs`, shared with the regression test.
//!
//! Why one file for both: `tests/fuzz_regressions.rs` includes this file (`#[path]`) and feeds
//! every saved crash through exactly the code the fuzzer ran, so a fix is proven by the same
//! oracle that found the bug. Each entry point takes raw bytes and asserts what must hold for
//! *any* input — beyond "does not panic":
//! - profile files: whatever loads can be written in the probe format and reads back the same;
//! - front ends: whatever parses prints in the same syntax and parses back to an equal AST;
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
        };
        let lines = source.lines().count().max(1);
        for f in lint::lint(source, &ctx) {
            assert!(dgcc::rules::lookup(f.code).is_some(), "lint code {} is not in the registry", f.code);
            assert!((1..=lines + 1).contains(&f.line), "line {} of a {lines}-line source: {f:?}", f.line);
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
            for output in Output::ALL {
                let text = emit::emit(m, output).unwrap_or_else(|e| panic!("{output:?}: {e}"));
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
}
