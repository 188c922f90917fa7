//! `dgcc_compiler::build`: compile descriptions from a crate's build script into `OUT_DIR`.
//!
//! ```no_run
//! // build.rs of a crate with `dgcc-compiler` under [build-dependencies]
//! fn main() -> Result<(), dgcc_compiler::build::Failure> {
//!     dgcc_compiler::build::Build::new().file("layouts/scene.ron").compile()?;
//!     Ok(())
//! }
//! ```
//! ```ignore
//! // src/lib.rs of the same crate, with `dgcc` (its default: the runtime) under [dependencies]
//! include!(concat!(env!("OUT_DIR"), "/scene.rs"));
//! let tokens = scene::layouts::scene_draw::tokens();
//! ```
//!
//! Why it is shaped this way:
//! - It runs the same driver and the same emitters as `dgcc compile`, so a crate embeds exactly
//!   what the command line would write, and a description that `dgcc check` rejects fails the
//!   crate's build with the same rendered diagnostics.
//! - [`Build::run`] computes and writes, and prints nothing: it returns the files written and every input the result
//!   depends on (descriptions, profile files, kernel sources, watched folders). Printing the
//!   `cargo:rerun-if-changed` lines and warnings is [`Build::compile`]'s job, the one place that
//!   talks to Cargo, so Cargo reruns the script exactly when an input changes.
//! - Files are rewritten only when their contents change, so an unchanged description does not
//!   make Cargo rebuild the crate that includes them.

use crate::driver::{self, Options};
use crate::emit::{self, Output};
use crate::render::{self, SourceFile};
use dgcc_core::diag::{has_errors, Diagnostic, Severity};
use dgcc_core::ir::Manifest;
/// A code's level for [`Build::level`] (re-exported: a build script depends on this crate only).
pub use dgcc_core::levels::Level;
use dgcc_core::levels::Levels;
use std::path::{Path, PathBuf};

/// What to compile and where to put it. Built with chained calls, run with [`Build::compile`].
#[derive(Clone, Debug)]
pub struct Build {
    files: Vec<PathBuf>,
    dirs: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    outputs: Vec<Output>,
    targets: Vec<String>,
    deny_warnings: bool,
    levels: Vec<(String, Level)>,
    check_kernels: bool,
    spelling: emit::Options,
}

impl Default for Build {
    fn default() -> Self {
        Build::new()
    }
}

/// What a successful build produced.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every file under the output directory that this build wrote or found up to date.
    pub files: Vec<PathBuf>,
    /// Everything the result depends on: Cargo reruns the build script when one changes.
    pub inputs: Vec<PathBuf>,
    /// Warnings, rendered as `dgcc check` renders them.
    pub warnings: Vec<String>,
    /// The compiled pipelines.
    pub manifests: Vec<Manifest>,
}

/// Why a build failed: the rendered errors (and warnings, with `deny_warnings`), and the inputs
/// that were read, so that Cargo still reruns the script when one of them is fixed.
pub struct Failure {
    pub message: String,
    pub inputs: Vec<PathBuf>,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Like `Display`, so that `fn main() -> Result<(), Failure>` in a build script prints the
/// diagnostics as they are.
impl std::fmt::Debug for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

impl Build {
    /// A build with no inputs that writes every output (`.rs`, `.h`, `.glsl`, `.hlsl`, `.slang`,
    /// `.dgc.json`, `.svg`, `.hpp`) to `OUT_DIR` and checks the kernels.
    pub fn new() -> Build {
        Build {
            files: vec![],
            dirs: vec![],
            out_dir: None,
            outputs: Output::ALL.to_vec(),
            targets: vec![],
            deny_warnings: false,
            levels: vec![],
            check_kernels: true,
            spelling: emit::Options::default(),
        }
    }

    /// Compile one description (`.ron` or `.dgc`), relative to the crate root.
    pub fn file(mut self, path: impl AsRef<Path>) -> Build {
        self.files.push(path.as_ref().to_path_buf());
        self
    }

    /// Compile every `.ron` and `.dgc` file in a folder (not recursive); adding a file to it
    /// reruns the build script.
    pub fn dir(mut self, path: impl AsRef<Path>) -> Build {
        self.dirs.push(path.as_ref().to_path_buf());
        self
    }

    /// Write here instead of `OUT_DIR`.
    pub fn out_dir(mut self, path: impl AsRef<Path>) -> Build {
        self.out_dir = Some(path.as_ref().to_path_buf());
        self
    }

    /// Which outputs to write (default: every one, `Output::ALL`).
    pub fn emit(mut self, outputs: &[Output]) -> Build {
        self.outputs = outputs.to_vec();
        self
    }

    /// Check against this target instead of the descriptions' `targets` (like `--target`);
    /// call again for more.
    pub fn target(mut self, target: impl Into<String>) -> Build {
        self.targets.push(target.into());
        self
    }

    /// Fail the build on warnings too.
    pub fn deny_warnings(mut self, deny: bool) -> Build {
        self.deny_warnings = deny;
        self
    }

    /// Set one code's level, like `-A`/`-W`/`-D CODE` on the command line: after the
    /// descriptions' own `lints`, the last call for a code wins. An unknown code, or an error
    /// code allowed or made a warning, fails the build.
    pub fn level(mut self, code: impl Into<String>, level: Level) -> Build {
        self.levels.push((code.into(), level));
        self
    }

    /// Silence a warning or note code (`-A CODE`).
    pub fn allow(self, code: impl Into<String>) -> Build {
        self.level(code, Level::Allow)
    }

    /// Report a code as an error (`-D CODE`).
    pub fn deny(self, code: impl Into<String>) -> Build {
        self.level(code, Level::Deny)
    }

    /// Run the shader checks on the kernels and on the shaders a description names (default
    /// on; the compiled checks need the `shaderc` feature of the build dependency).
    pub fn check_kernels(mut self, check: bool) -> Build {
        self.check_kernels = check;
        self
    }

    /// The ash path the generated Rust names (default `::dgcc::ash`): `::ash` for a crate that
    /// depends on ash 0.38 itself (`--rust-ash-path`).
    pub fn rust_ash_path(mut self, path: impl Into<String>) -> Build {
        self.spelling.rust.ash_path = path.into();
        self
    }
    /// Implement `bytemuck::Pod` and `Zeroable` for the generated record structs (default off;
    /// the crate then depends on `bytemuck`), like `--rust-bytemuck`.
    pub fn rust_bytemuck(mut self, implement: bool) -> Build {
        self.spelling.rust.bytemuck = implement;
        self
    }
    /// The Vulkan header the generated C includes by default (`<vulkan/vulkan.h>`), like
    /// `--c-vulkan-include`: `volk.h` for volk.
    pub fn c_vulkan_include(mut self, header: impl Into<String>) -> Build {
        self.spelling.c.vulkan_include = header.into();
        self
    }
    /// Compile and write, and tell Cargo: `cargo:rerun-if-changed` for every input and
    /// `cargo:warning` for every warning. The only function of dgcc that prints.
    #[allow(clippy::print_stdout)]
    pub fn compile(&self) -> Result<Report, Failure> {
        let result = self.run();
        let inputs = match &result {
            Ok(r) => &r.inputs,
            Err(f) => &f.inputs,
        };
        for i in inputs {
            println!("cargo:rerun-if-changed={}", i.display());
        }
        if let Ok(r) = &result {
            for w in &r.warnings {
                for line in w.lines().filter(|l| !l.trim().is_empty()) {
                    println!("cargo:warning={line}");
                }
            }
        }
        result
    }

    /// Compile and write without printing anything.
    pub fn run(&self) -> Result<Report, Failure> {
        let mut report = Report::default();
        let fail = |message: String, inputs: &[PathBuf]| Failure { message, inputs: inputs.to_vec() };
        let mut files = self.files.clone();
        for dir in &self.dirs {
            report.inputs.push(dir.clone());
            let entries = std::fs::read_dir(dir)
                .map_err(|e| fail(format!("dgcc: cannot list {}: {e}", dir.display()), &report.inputs))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && matches!(p.extension().and_then(|e| e.to_str()), Some("ron" | "dgc")))
                .collect();
            found.sort();
            files.extend(found);
        }
        let out_dir = match (&self.out_dir, std::env::var_os("OUT_DIR")) {
            (Some(d), _) => d.clone(),
            (None, Some(d)) => PathBuf::from(d),
            (None, None) => {
                return Err(fail(
                    "dgcc: OUT_DIR is not set; call dgcc::build from a build script or give Build::out_dir".into(),
                    &report.inputs,
                ))
            }
        };
        let mut levels = Levels::new(self.deny_warnings);
        for (code, level) in &self.levels {
            levels
                .set(code, *level)
                .map_err(|e| fail(format!("dgcc: {}({code:?}): {e}", level.name()), &report.inputs))?;
        }
        let mut errors = String::new();
        let options = Options { targets: self.targets.clone(), check_kernels: self.check_kernels, levels };
        for path in &files {
            report.inputs.push(path.clone());
            let bytes = match driver::read_description(path) {
                Ok(b) => b,
                Err(e) => {
                    errors.push_str(&format!("dgcc: {e}\n"));
                    continue;
                }
            };
            // Not UTF-8 is E0018 at the bad byte's line; a byte order mark is dropped.
            let text = match crate::syntax::decode(&bytes) {
                Ok(t) => t.to_string(),
                Err(d) => {
                    let (name, lossy) = (path.display().to_string(), crate::syntax::lossy(&bytes));
                    errors.push_str(&render::human(&SourceFile { name: &name, text: &lossy }, &[*d]));
                    continue;
                }
            };
            let mut c = driver::compile_source(path, &text, &options);
            let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
            if let Some(p) = &c.pipeline {
                report.inputs.extend(profile_files(p, &self.targets, &base));
                if self.check_kernels {
                    let generated = emit::Output::Glsl.file_name(&p.name.node);
                    let sources =
                        p.kernels.iter().map(|k| &k.source.node).chain(p.shaders.iter().map(|s| &s.source.node));
                    for source in sources {
                        let source = base.join(source);
                        let included = crate::shader::included_files(&source, &generated);
                        report.inputs.push(source);
                        report.inputs.extend(included);
                    }
                }
            }
            let name = path.display().to_string();
            let file = SourceFile { name: &name, text: &text };
            if has_errors(&c.diagnostics) || c.manifest.is_none() {
                errors.push_str(&render::human(&file, &c.diagnostics));
                continue;
            }
            let warnings: Vec<Diagnostic> =
                c.diagnostics.iter().filter(|d| d.severity == Severity::Warning).cloned().collect();
            if !warnings.is_empty() {
                report.warnings.push(render::human(&file, &warnings));
            }
            if let Some(m) = c.manifest.take() {
                report.manifests.push(m);
            }
        }
        if !errors.is_empty() {
            return Err(fail(errors, &report.inputs));
        }
        // Outputs are named by the pipeline's snake-case name: `Scene` and `scene` collide
        // wherever they sort.
        let mut seen: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
        for m in &report.manifests {
            if let Some(first) = seen.insert(emit::names::snake(&m.pipeline), &m.pipeline) {
                let clash = if first == m.pipeline { String::new() } else { format!(" and `{first}`") };
                return Err(fail(
                    format!(
                        "dgcc: two descriptions define pipeline `{}`{clash}; their outputs would collide",
                        m.pipeline
                    ),
                    &report.inputs,
                ));
            }
        }
        // Every output of every description is printed before the first is written, and the
        // set is written all or nothing (`crate::output`): a failed build leaves the previous
        // outputs as they were.
        let mut outputs = vec![];
        for m in &report.manifests {
            outputs.extend(
                emit::emit_all_with(m, &self.outputs, &self.spelling)
                    .map_err(|e| fail(format!("dgcc: {e}"), &report.inputs))?,
            );
        }
        let written = crate::output::write_all(&out_dir, &outputs, crate::output::Unchanged::Keep)
            .map_err(|e| fail(format!("dgcc: {e}"), &report.inputs))?;
        report.files.extend(written);
        report.inputs.sort();
        report.inputs.dedup();
        Ok(report)
    }
}

/// The profile JSON files a description's targets name (built-in names are not files), where
/// the driver reads them: the description's own relative to its folder (`base`), those given
/// with `Build::target` relative to the current directory, as `--target`'s are.
fn profile_files(p: &crate::ast::Pipeline, override_targets: &[String], base: &Path) -> Vec<PathBuf> {
    let (targets, base): (Vec<&str>, &Path) = if override_targets.is_empty() {
        (p.targets.iter().map(|t| t.node.as_str()).collect(), base)
    } else {
        (override_targets.iter().map(String::as_str).collect(), Path::new(""))
    };
    targets.into_iter().filter(|t| dgcc_core::device::builtin(t).is_none()).map(|t| base.join(t)).collect()
}
