//! The compiler driver: description text → AST → profiles → layouts → checks → manifest.
//!
//! Why one function: the CLI, `dgcc::build` (build scripts), the fuzzers and the tests all run
//! exactly the same stages in the same order, so a description means the same thing wherever it
//! is compiled. Every stage runs as far as it can and adds its diagnostics; the manifest exists
//! only when no stage reported an error.

use crate::ast::{self, Span};
use crate::layout::{self, LaidOut};
use crate::syntax::{self, SyntaxKind};
use dgcc_core::device::{self, Profile};
use dgcc_core::diag::{self, Diagnostic};
use dgcc_core::ir::{self, Manifest};
use std::path::{Path, PathBuf};

/// Everything one compilation produced.
#[derive(Debug, Default)]
pub struct Compilation {
    pub pipeline: Option<ast::Pipeline>,
    pub profiles: Vec<Profile>,
    pub laid: Vec<LaidOut>,
    pub manifest: Option<Manifest>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Compilation {
    pub fn has_errors(&self) -> bool {
        diag::has_errors(&self.diagnostics)
    }
}

/// Options that replace parts of the description.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--target`: replaces the description's `targets` when not empty.
    pub targets: Vec<String>,
    /// Read each kernel's source and check it (`crate::shader`): subgroup lints always, and with
    /// the `shaderc` feature its workgroup size and the offsets of the record it writes; and
    /// read each of the pipeline's `shaders` and, with the feature, compare what it declares
    /// with the layouts (`crate::shader::interface`). Off by default so that descriptions can be
    /// compiled before their shaders exist; the CLI turns it on.
    pub check_kernels: bool,
    /// Per-code levels from the command line (or `build::Build`), applied after the
    /// description's own `lints`, so that they win.
    pub levels: dgcc_core::levels::Levels,
}

/// Compile description text. `path` decides the syntax (`.ron`, `.dgc`) and the folder relative
/// paths (profile files, kernel sources) are resolved against.
pub fn compile_source(path: &Path, text: &str, options: &Options) -> Compilation {
    let mut c = Compilation::default();
    let Some(kind) = SyntaxKind::from_path(path) else {
        c.diagnostics.push(Diagnostic::new(
            "E0001",
            format!("`{}` is neither a `.ron` nor a `.dgc` description", path.display()),
        ));
        return c;
    };
    let pipeline = match syntax::parse(text, kind) {
        Ok(p) => p,
        Err(d) => {
            c.diagnostics = d;
            return c;
        }
    };
    let base = path.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
    c.profiles = resolve_targets(&pipeline, options, &base, &mut c.diagnostics);
    for l in &pipeline.layouts {
        let (out, d) = layout::compile_layout(&l.node);
        c.diagnostics.extend(d);
        c.laid.push(out);
    }
    let data = pipeline.layouts.iter().zip(&c.laid).map(|(l, out)| (out.layout.data_bytes(), l.node.name.span));
    c.diagnostics.extend(syntax::limits::check_record_data(data));
    c.diagnostics.extend(crate::check::check(&pipeline, &c.laid, &c.profiles));
    if !c.has_errors() {
        c.manifest = Some(build_manifest(&pipeline, &c.laid, &c.profiles));
        if let Some(m) = &c.manifest {
            // The names as the emitters print them, then the emitters' own check of the
            // manifest (what every output is printed from): `dgcc check` refuses exactly what
            // `dgcc compile` could not write.
            let problems = crate::names::plan::problems(m);
            c.diagnostics.extend(crate::check::generated_names(&pipeline, m, &problems));
            if !c.has_errors() {
                if let Err(e) = crate::emit::Printer::with_name_problems(m, &problems) {
                    c.diagnostics.push(
                        Diagnostic::new("E0499", format!("internal error: the outputs cannot be printed: {e}"))
                            .primary(pipeline.name.span, "while printing this pipeline")
                            .note("please report this description to the dgcc developers"),
                    );
                }
            }
            if c.has_errors() {
                c.manifest = None;
            }
        }
        if let (true, Some(m)) = (options.check_kernels, &c.manifest) {
            c.diagnostics.extend(crate::shader::check_kernels(&base, &pipeline, m, &c.profiles));
            c.diagnostics.extend(crate::shader::interface::check_shaders(&base, &pipeline, m, &c.profiles));
            if c.has_errors() {
                c.manifest = None;
            }
        }
    }
    let (levels, bad) = crate::check::lints::levels(&pipeline);
    c.diagnostics.extend(bad);
    levels.apply(&options.levels, &mut c.diagnostics);
    if c.has_errors() {
        c.manifest = None;
    }
    c.diagnostics.sort_by_key(|d| (d.description_span().map(|s| s.start).unwrap_or(0), std::cmp::Reverse(d.severity)));
    c.pipeline = Some(pipeline);
    c
}

/// Resolve the target profiles; unknown names and unreadable files become diagnostics.
fn resolve_targets(
    pipeline: &ast::Pipeline,
    options: &Options,
    base: &Path,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Profile> {
    let targets: Vec<(String, Option<Span>)> = if options.targets.is_empty() {
        if pipeline.targets.is_empty() {
            vec![("minimum".to_string(), None)]
        } else {
            pipeline.targets.iter().map(|t| (t.node.clone(), (!pipeline.targets_defaulted).then_some(t.span))).collect()
        }
    } else {
        options.targets.iter().map(|t| (t.clone(), None)).collect()
    };
    // A path written in the description is relative to its folder; one given with --target is
    // relative to the current directory, like any other command-line path.
    let from_cli = !options.targets.is_empty();
    let mut profiles: Vec<Profile> = vec![];
    // Each target as written is read once: a description may name one 4 MiB profile file
    // hundreds of thousands of times. A repeat of one that loaded (`None`) is the same target
    // twice, checked once; one that failed fails again with the same message.
    let mut seen: std::collections::HashMap<String, Option<String>> = Default::default();
    for (name, span) in targets {
        // (`Path::new("")` joins to the path as written: `./x.json` is not shown as `././x.json`.)
        let base = if from_cli { Path::new("") } else { base };
        let resolved = match seen.get(&name) {
            Some(None) => continue,
            Some(Some(msg)) => Err(msg.clone()),
            None => {
                let resolved = device::resolve(&name, base);
                seen.insert(name.clone(), resolved.as_ref().err().cloned());
                resolved
            }
        };
        match resolved {
            Ok(p) => match profiles.iter().find(|q| q.name == p.name) {
                // The same target twice is checked once.
                Some(q) if q.same_values(&p) => {}
                // Diagnostics and the manifest's kernel decisions name a target by its name:
                // a second device of the same name would be hidden behind the first.
                Some(_) => {
                    let mut d = Diagnostic::new(
                        "E0023",
                        format!("two targets are named `{}`, and their values differ", p.name),
                    );
                    d = match span {
                        Some(s) => d.primary(s, "the second target of this name"),
                        None => d.note(format!("from --target {name}")),
                    };
                    diags.push(d.note(format!(
                        "help: rename one of the profile files: a profile's name is its file's stem, or the built-in's name (`{}`)",
                        p.name
                    )));
                }
                None => profiles.push(p),
            },
            Err(msg) => {
                let code = if device::builtin(&name).is_none()
                    && !(name.ends_with(".json") || name.contains('/') || name.contains('\\'))
                {
                    "E0020"
                } else {
                    "E0022"
                };
                let mut d = Diagnostic::new(code, msg);
                if let Some(s) = span {
                    d = d.primary(s, "this target");
                } else {
                    d = d.note(format!("from --target {name}"));
                }
                diags.push(d);
            }
        }
    }
    profiles
}

/// Assemble the manifest from finished layouts and the kernels' per-target subgroup decisions.
fn build_manifest(pipeline: &ast::Pipeline, laid: &[LaidOut], profiles: &[Profile]) -> Manifest {
    let mut kernels = vec![];
    for k in &pipeline.kernels {
        let mut targets = std::collections::BTreeMap::new();
        for p in profiles {
            // A target without the value the decision needs has no decision; `check` already
            // reported it (W0012 at the kernel's `subgroup`).
            if let Ok(t) = crate::check::kernel_target(&k.node, p) {
                targets.insert(p.name.clone(), t);
            }
        }
        kernels.push(ir::CompiledKernel {
            name: k.node.name.node.clone(),
            doc: k.node.doc.clone(),
            source: k.node.source.node.clone(),
            local_size: k.node.local_size.node,
            writes: k.node.writes.as_ref().map(|w| w.node.clone()),
            targets,
        });
    }
    Manifest {
        schema_version: ir::SCHEMA_VERSION,
        pipeline: pipeline.name.node.clone(),
        doc: pipeline.doc.clone(),
        push_constants: pipeline
            .push_constants
            .iter()
            .map(|r| ir::PushConstantRange {
                stages: r.node.stages.mask().0,
                offset: r.node.offset.node,
                size: r.node.size.node,
            })
            .collect(),
        layouts: laid.iter().map(|l| l.layout.clone()).collect(),
        kernels,
    }
}

/// Where a description's bytes come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source<'a> {
    /// A file, by its path.
    File(&'a Path),
    /// Standard input, standing for a file of this name (an editor's unsaved buffer, a
    /// description piped from another tool): the name's extension says the syntax, its folder
    /// is where relative paths (profile files, kernel sources) start, and diagnostics name it.
    Stdin(&'a Path),
}

impl<'a> Source<'a> {
    /// The file's path, or the name standard input stands for.
    pub fn path(&self) -> &'a Path {
        match self {
            Source::File(p) | Source::Stdin(p) => p,
        }
    }

    /// What an I/O error names: the file, or standard input.
    pub fn describe(&self) -> String {
        match self {
            Source::File(p) => p.display().to_string(),
            Source::Stdin(_) => "standard input".to_string(),
        }
    }

    fn read(&self) -> Result<Vec<u8>, dgcc_core::files::ReadError> {
        let limit = syntax::limits::MAX_SOURCE_BYTES as u64;
        match self {
            Source::File(p) => dgcc_core::files::read_regular(p, limit),
            Source::Stdin(_) => dgcc_core::files::read_stdin(limit),
        }
    }
}

/// Read and compile a description file. I/O and UTF-8 problems are `Err` (exit 2 at the CLI
/// for I/O; not-UTF-8 is a diagnostic-carrying error).
pub fn compile_file(path: &Path, options: &Options) -> Result<(String, Compilation), FileError> {
    compile_from(Source::File(path), options)
}

/// Read and compile a description from a file or standard input, as [`compile_file`] does.
pub fn compile_from(source: Source, options: &Options) -> Result<(String, Compilation), FileError> {
    let bytes = match source.read() {
        Ok(b) => b,
        // Too long is the description's fault, as E0012 says for text: exit 1, not 2.
        Err(dgcc_core::files::ReadError::TooLarge { len, .. }) => {
            let size = len.map_or_else(|| "more than 4 MiB".to_string(), |n| format!("{n} bytes"));
            return Err(FileError::TooLarge(Box::new(Diagnostic::new(
                "E0012",
                format!(
                    "the description is {size} long; dgcc reads at most {} bytes (4 MiB)",
                    syntax::limits::MAX_SOURCE_BYTES
                ),
            ))));
        }
        Err(e) => return Err(FileError::Io(format!("cannot read {}: {e}", source.describe()))),
    };
    let text = match syntax::decode(&bytes) {
        Ok(t) => t.to_string(),
        Err(d) => return Err(FileError::NotUtf8 { diagnostic: d, text: syntax::lossy(&bytes) }),
    };
    let c = compile_source(source.path(), &text, options);
    Ok((text, c))
}

/// The bytes of a description file: a regular file of at most
/// [`syntax::limits::MAX_SOURCE_BYTES`] (a FIFO or `/dev/zero` is refused, not waited on or
/// read without end). `Err` is the message, naming the file.
pub fn read_description(path: &Path) -> Result<Vec<u8>, String> {
    read_description_from(Source::File(path))
}

/// The bytes of a description from a file or standard input, as [`read_description`] reads
/// them.
pub fn read_description_from(source: Source) -> Result<Vec<u8>, String> {
    source.read().map_err(|e| format!("cannot read {}: {e}", source.describe()))
}

/// Why a file could not be compiled at all.
#[derive(Debug)]
pub enum FileError {
    Io(String),
    /// Not UTF-8 (E0018): the diagnostic, and the text to render it against
    /// ([`syntax::lossy`]), where it points at the line and column of the first bad byte.
    NotUtf8 {
        diagnostic: Box<Diagnostic>,
        text: String,
    },
    /// Longer than a description may be (E0012), refused before it is read whole.
    TooLarge(Box<Diagnostic>),
}
