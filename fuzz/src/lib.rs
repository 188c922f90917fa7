//! The fuzzing entry points, one per `fuzz_targets/*.rs`, shared with the regression test.
//!
//! Why one file for both: `tests/fuzz_regressions.rs` includes this file (`#[path]`) and feeds
//! every saved crash through exactly the code the fuzzer ran, so a fix is proven by the same
//! oracle that found the bug. Each entry point takes raw bytes and asserts what must hold for
//! *any* input — beyond "does not panic":
//! - profile files: whatever loads can be written in the probe format and reads back the same;
//! - front ends: whatever parses prints in the same syntax and parses back to an equal AST;
//! - the pipeline: every diagnostic has a registered code and renders (human and JSON) against
//!   the source; a compilation with errors has no manifest; a manifest survives its own JSON.

use std::path::Path;

use dgcc::device::json;
use dgcc::device::{Limit, LimitKind};

/// Profile files: `device::json::parse`, then the write/read-back oracle.
pub fn profile_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(profile) = json::parse(text, Path::new("fuzz.json")) else { return };
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

#[cfg(feature = "compiler")]
pub use compiler::*;

#[cfg(feature = "compiler")]
mod compiler {
    use std::path::Path;

    use dgcc::driver::{compile_source, Options};
    use dgcc::ir::Manifest;
    use dgcc::render::{self, SourceFile};
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
        let c = compile_source(Path::new(name), text, &Options { targets });
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
        if let Some(m) = &c.manifest {
            let back = Manifest::from_json(&m.to_json()).unwrap_or_else(|e| panic!("{e}"));
            assert!(&back == m, "the manifest changed through its JSON");
        }
    }
}
