//! The emitters: one compiled pipeline (`ir::Manifest`) printed as Rust, C, C++, GLSL, HLSL,
//! Slang, JSON and an SVG picture of its records.
//!
//! Why they read the manifest and nothing else: `dgcc compile`, `dgcc::build` (a crate's build
//! script) and the tests call the same functions on the same data, so what a build script
//! embeds is byte for byte what the command line writes, and every number printed (offsets,
//! stride, enum values) was decided by the layout engine. The printers decide spelling only;
//! the spelling decisions they share live in `model` (names, C/Rust element shapes, which
//! members are padding), so the declarations of a record cannot drift apart.
//!
//! Every output is printed from a checked model of the manifest (`model` runs the layout
//! invariants again and lists the printed names): a manifest that would print a struct that
//! does not hold gets an [`EmitError`] instead. [`Printer`] checks once for any number of
//! outputs; [`emit`] checks for one.
//!
//! ```
//! # use dgcc_core::ir::Manifest;
//! # fn demo(manifest: &Manifest) -> Result<(), dgcc_compiler::emit::EmitError> {
//! use dgcc_compiler::emit::{Options, Output, Printer};
//! let printer = Printer::new(manifest)?;
//! for output in Output::ALL {
//!     let text = printer.print(output, &Options::default())?;
//!     let file = output.file_name(&manifest.pipeline); // scene.rs, scene.h, scene.glsl, …
//!     # let _ = (text, file);
//! }
//! # Ok(()) }
//! ```

/// Append one formatted line to a `String`.
macro_rules! out {
    ($o:expr, $($t:tt)*) => {{
        $o.push_str(&format!($($t)*));
        $o.push('\n');
    }};
}

pub mod c;
pub mod cpp;
pub mod glsl;
pub mod hlsl;
pub mod json;
pub(crate) mod model;
/// The naming authority the check uses too; kept at this path for the emitters and callers.
pub use crate::names;
pub mod rust;
pub mod slang;
pub mod svg;

use dgcc_core::ir::{KernelTarget, Manifest};

/// One kind of output of `dgcc compile --emit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Output {
    Rust,
    C,
    Glsl,
    Hlsl,
    Slang,
    Json,
    Svg,
    /// A C++17 header on vulkan.hpp, over the C header (`--emit c,cpp`).
    Cpp,
}

impl Output {
    /// Every output: what `dgcc compile` writes by default (`DEFAULT`), then the C++ header.
    pub const ALL: [Output; 8] =
        [Output::Rust, Output::C, Output::Glsl, Output::Hlsl, Output::Slang, Output::Json, Output::Svg, Output::Cpp];

    /// What `dgcc compile` writes without `--emit` (every output but the C++ header, which is
    /// asked for with `--emit …,cpp`).
    pub const DEFAULT: [Output; 7] =
        [Output::Rust, Output::C, Output::Glsl, Output::Hlsl, Output::Slang, Output::Json, Output::Svg];

    /// The name used by `--emit`: `rust`, `c`, `glsl`, `hlsl`, `slang`, `json`, `svg`, `cpp`.
    pub const fn name(self) -> &'static str {
        match self {
            Output::Rust => "rust",
            Output::C => "c",
            Output::Glsl => "glsl",
            Output::Hlsl => "hlsl",
            Output::Slang => "slang",
            Output::Json => "json",
            Output::Svg => "svg",
            Output::Cpp => "cpp",
        }
    }

    pub fn from_name(name: &str) -> Option<Output> {
        Output::ALL.into_iter().find(|o| o.name() == name)
    }

    /// The file extension, after the pipeline name: `rs`, `h`, `glsl`, `hlsl`, `slang`,
    /// `dgc.json`, `svg`, `hpp`.
    pub const fn extension(self) -> &'static str {
        match self {
            Output::Rust => "rs",
            Output::C => "h",
            Output::Glsl => "glsl",
            Output::Hlsl => "hlsl",
            Output::Slang => "slang",
            Output::Json => "dgc.json",
            Output::Svg => "svg",
            Output::Cpp => "hpp",
        }
    }

    /// The file this output is written to for a pipeline: `scene.rs`, `scene.dgc.json`.
    pub fn file_name(self, pipeline: &str) -> String {
        format!("{}.{}", names::snake(pipeline), self.extension())
    }
}

impl std::fmt::Display for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Output {
    type Err = String;
    fn from_str(s: &str) -> Result<Output, String> {
        Output::from_name(s)
            .ok_or_else(|| format!("unknown output `{s}` (expected rust, c, glsl, hlsl, slang, json, svg or cpp)"))
    }
}

/// Why a manifest cannot be printed: it breaks an invariant the printers rely on. A manifest
/// from the compiler never does; one read from a hand-edited file may.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmitError {
    /// The layout at fault, if one is.
    pub layout: Option<String>,
    pub message: String,
}

impl EmitError {
    pub(crate) fn new(layout: Option<&str>, message: impl Into<String>) -> EmitError {
        EmitError { layout: layout.map(str::to_string), message: message.into() }
    }
}

impl std::fmt::Display for EmitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.layout {
            Some(l) => write!(f, "cannot emit layout `{l}`: {}", self.message),
            None => write!(f, "cannot emit: {}", self.message),
        }
    }
}

impl std::error::Error for EmitError {}

/// The spelling choices of the printers that have any (`dgcc compile --rust-*`/`--c-*`,
/// `dgcc::build::Build::rust`/`c`). The default is what `emit` prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub rust: rust::Options,
    pub c: c::Options,
}

/// What refuses an output before the manifest is modelled: options it cannot spell (a Rust path,
/// a C include that is not one) and, for JSON, a manifest of another schema version (whose keys
/// may mean something else, so that what else is wrong with it is beside the point).
fn refused(manifest: &Manifest, output: Output, options: &Options) -> Result<(), EmitError> {
    let spelled = match output {
        Output::Rust => options.rust.check(),
        Output::C => options.c.include_operand().map(drop),
        Output::Json => return json::this_schema(manifest),
        _ => Ok(()),
    };
    spelled.map_err(|e| EmitError::new(None, e))
}

/// Print one output of a manifest.
pub fn emit(manifest: &Manifest, output: Output) -> Result<String, EmitError> {
    emit_with(manifest, output, &Options::default())
}

/// Print one output of a manifest, spelled as `options` asks.
pub fn emit_with(manifest: &Manifest, output: Output, options: &Options) -> Result<String, EmitError> {
    refused(manifest, output, options)?;
    Printer::new(manifest)?.print(output, options)
}

/// Print several outputs: `(file name, contents)` in the order asked.
pub fn emit_all(manifest: &Manifest, outputs: &[Output]) -> Result<Vec<(String, String)>, EmitError> {
    emit_all_with(manifest, outputs, &Options::default())
}

/// Print several outputs, spelled as `options` asks.
pub fn emit_all_with(
    manifest: &Manifest,
    outputs: &[Output],
    options: &Options,
) -> Result<Vec<(String, String)>, EmitError> {
    for &o in outputs {
        refused(manifest, o, options)?;
    }
    let printer = Printer::new(manifest)?;
    outputs.iter().map(|&o| Ok((o.file_name(&manifest.pipeline), printer.print(o, options)?))).collect()
}

/// A manifest checked and modelled once, ready to print any of its outputs.
///
/// Why a value between the manifest and the printers: the check behind every output (the names
/// of every language, the layout invariants, how each member is spelled) costs more than
/// printing one, and `dgcc compile` prints seven outputs of one manifest. [`emit`] and
/// [`emit_all`] go through a printer; hold one to print outputs one at a time.
pub struct Printer<'m> {
    model: model::Pipeline<'m>,
}

impl<'m> Printer<'m> {
    /// Check `manifest` as every printer does: a manifest that breaks an invariant the printers
    /// rely on is refused here, whatever output is asked for later.
    pub fn new(manifest: &'m Manifest) -> Result<Printer<'m>, EmitError> {
        Ok(Printer { model: model::model(manifest)? })
    }

    /// [`Printer::new`] for a manifest whose name problems the caller has listed already.
    pub(crate) fn with_name_problems(
        manifest: &'m Manifest,
        problems: &[names::plan::Problem],
    ) -> Result<Printer<'m>, EmitError> {
        Ok(Printer { model: model::model_with_names(manifest, problems)? })
    }

    /// One output, spelled as `options` asks. Fails only on options that cannot be spelled (a
    /// Rust path or C include that is not one) and, for JSON, a manifest of another schema.
    pub fn print(&self, output: Output, options: &Options) -> Result<String, EmitError> {
        refused(self.model.raw, output, options)?;
        let p = &self.model;
        Ok(match output {
            Output::Rust => rust::print(p, &options.rust),
            Output::C => c::print(p, &options.c.include_operand().map_err(|e| EmitError::new(None, e))?),
            Output::Glsl => glsl::print(p),
            Output::Hlsl => hlsl::print(p, hlsl::Dialect::Hlsl),
            Output::Slang => hlsl::print(p, hlsl::Dialect::Slang),
            Output::Json => json::print(p),
            Output::Svg => svg::print(p),
            Output::Cpp => cpp::print(p),
        })
    }
}

/// A kernel's subgroup decision on one target, in words, for comments.
pub(crate) fn subgroup_decision(t: &KernelTarget) -> String {
    let mut parts = vec![];
    if let Some(n) = t.required_subgroup_size {
        parts.push(format!("requiredSubgroupSize {n}"));
    }
    if t.flags & 0x1 != 0 {
        parts.push("ALLOW_VARYING_SUBGROUP_SIZE".to_string());
    }
    if t.flags & 0x2 != 0 {
        parts.push("REQUIRE_FULL_SUBGROUPS".to_string());
    }
    if parts.is_empty() {
        "no subgroup-size control".to_string()
    } else {
        parts.join(", ")
    }
}
