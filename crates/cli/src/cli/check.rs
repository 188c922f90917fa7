//! `dgcc check` and `dgcc compile`: run the driver on each file, render its diagnostics, and
//! (for compile) write the outputs.

use super::input::{self, StdinArgs};
use super::stdio::{errln, out, outln};
use super::{CompileOptions, MessageFormat, FAILED, OK, USAGE};
use dgcc::diag::{Diagnostic, Severity};
use dgcc::driver::{self, Compilation, FileError, Source};
use dgcc::emit::Output;
use dgcc::render::{self, SourceFile};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The SARIF results of the files checked so far: `--message-format sarif` prints one log for
/// all of them, after the last (each result kept as text until then).
static SARIF: Mutex<Option<render::sarif::Results>> = Mutex::new(None);
/// What stopped files from being checked at all (unreadable, a bad `-A`): the SARIF log's
/// tool notifications, so that a log with no results does not read as a clean check.
static SARIF_FAILURES: Mutex<Vec<String>> = Mutex::new(vec![]);

/// An error that stops a file from being checked: on standard error, and in the SARIF log.
fn not_checked(msg: &str) {
    errln!("error: {msg}");
    SARIF_FAILURES.lock().unwrap_or_else(|e| e.into_inner()).push(msg.to_string());
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Description files (`.ron` or `.dgc`); `-` reads one from standard input (with
    /// --stdin-name).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub stdin: StdinArgs,
    #[command(flatten)]
    pub options: CompileOptions,
}

#[derive(clap::Args, Debug)]
pub struct CompileArgs {
    /// Description files (`.ron` or `.dgc`): the outputs of all of them are written, or none
    /// (a file with errors, or two files whose outputs would have the same name, writes
    /// nothing); `-` reads one from standard input (with --stdin-name).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub stdin: StdinArgs,
    #[command(flatten)]
    pub options: CompileOptions,
    /// Outputs to write, comma-separated: json (the manifest), rust, c, glsl, hlsl, slang (shader
    /// includes with the record structs, writers and readers), svg (a picture of every layout's
    /// record, byte by byte), and on request cpp (a C++17 header over the C one: write both,
    /// `c,cpp`).
    #[arg(long, value_delimiter = ',', default_value = "json,rust,c,glsl,hlsl,slang,svg")]
    pub emit: Vec<String>,
    /// Folder to write the outputs into (created if missing).
    #[arg(long, default_value = ".")]
    pub out_dir: PathBuf,
    /// The ash crate's path in the generated Rust: `::ash` for an engine that depends on ash
    /// 0.38 itself.
    #[arg(long, value_name = "PATH", default_value = "::dgcc::ash")]
    pub rust_ash_path: String,
    /// Implement `bytemuck::Pod` and `Zeroable` for the generated Rust's record structs (the
    /// crate then depends on `bytemuck`; no feature needed).
    #[arg(long)]
    pub rust_bytemuck: bool,
    /// The Vulkan header the generated C includes unless DGCC_VULKAN_INCLUDE or
    /// DGCC_NO_VULKAN_INCLUDE is defined: `volk.h`, `"volk.h"`, `<vulkan/vulkan.h>`.
    #[arg(long, value_name = "HEADER", default_value = "<vulkan/vulkan.h>")]
    pub c_vulkan_include: String,
}

/// Compile one file (or standard input) and print its diagnostics. `None` for an I/O failure
/// (already reported).
pub(super) fn compile_and_report(source: Source, options: &CompileOptions) -> Option<(bool, Compilation)> {
    let levels = match options.levels() {
        Ok(l) => l,
        Err(e) => {
            not_checked(&e);
            return None;
        }
    };
    // `check` and `compile` make a FILE of `-` standard input (`input::sources`); `run` and
    // `bench` read files only, and a file named `-` is `./-` everywhere.
    if matches!(source, Source::File(f) if input::is_stdin(f)) {
        not_checked("`-` (standard input) is read by check, compile and fmt only: name the description's file");
        return None;
    }
    let opts = driver::Options { targets: options.targets.clone(), check_kernels: true, levels };
    let name = source.path().display().to_string();
    match driver::compile_from(source, &opts) {
        Err(FileError::Io(msg)) => {
            not_checked(&msg);
            None
        }
        Err(FileError::NotUtf8 { diagnostic, text }) => {
            report(&SourceFile { name: &name, text: &text }, &[*diagnostic], options);
            Some((false, Compilation::default()))
        }
        Err(FileError::TooLarge(d)) => {
            report(&SourceFile { name: &name, text: "" }, &[*d], options);
            Some((false, Compilation::default()))
        }
        Ok((text, c)) => {
            report(&SourceFile { name: &name, text: &text }, &c.diagnostics, options);
            let ok = !c.diagnostics.iter().any(Diagnostic::is_error);
            Some((ok, c))
        }
    }
}

fn report(file: &SourceFile, diags: &[Diagnostic], options: &CompileOptions) {
    match options.message_format {
        MessageFormat::Human => render::human_to_stderr(file, diags, super::color_stderr()),
        MessageFormat::Json => {
            for line in render::json_lines(file, diags) {
                outln!("{line}");
            }
        }
        MessageFormat::Rustc => {
            for line in render::rustc_lines(file, diags) {
                outln!("{line}");
            }
        }
        MessageFormat::Sarif => {
            SARIF.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(Default::default).add(file, diags);
        }
    }
}

/// Print the SARIF log of every file checked (`--message-format sarif`), even when none could
/// be read: a code-scanning upload expects a log.
fn finish(options: &CompileOptions) {
    if options.message_format == MessageFormat::Sarif {
        let results = SARIF.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
        let failures = std::mem::take(&mut *SARIF_FAILURES.lock().unwrap_or_else(|e| e.into_inner()));
        out!("{}", results.log(&failures));
    }
}

fn summary(errors: usize, warnings: usize, files: usize, unread: usize, options: &CompileOptions) {
    if options.message_format == MessageFormat::Human {
        if unread > 0 {
            errln!(
                "{unread} of {files} file(s) could not be read; {errors} error(s), {warnings} warning(s) in the others"
            );
        } else if errors == 0 && warnings == 0 {
            errln!("ok: {files} file(s) checked, no problems");
        } else {
            errln!("{errors} error(s), {warnings} warning(s) in {files} file(s)");
        }
    }
}

/// Say once, after the diagnostics, which kernel and shader checks this build could not run
/// on the descriptions that name kernels or shaders.
fn note_skipped_checks(options: &CompileOptions) {
    if !dgcc::shader::SKIPPED_CHECKS.is_empty() && options.message_format == MessageFormat::Human {
        errln!(
            "note: built without the `shaderc` feature, so these shader checks were skipped: {}",
            dgcc::shader::SKIPPED_CHECKS.join("; ")
        );
    }
}

pub fn run_check(args: &CheckArgs) -> i32 {
    if let Err(e) = args.options.levels() {
        errln!("error: {e}");
        return USAGE;
    }
    let sources = match input::sources(&args.files, &args.stdin) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    let mut worst = OK;
    let (mut errors, mut warnings, mut unread) = (0, 0, 0);
    let mut names_shaders = false;
    for &source in &sources {
        match compile_and_report(source, &args.options) {
            None => {
                worst = USAGE;
                unread += 1;
            }
            Some((ok, c)) => {
                names_shaders |= c.pipeline.as_ref().is_some_and(|p| !p.kernels.is_empty() || !p.shaders.is_empty());
                errors += c.diagnostics.iter().filter(|d| d.severity == Severity::Error).count()
                    + usize::from(!ok && c.diagnostics.is_empty());
                warnings += c.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count();
                if !ok && worst == OK {
                    worst = FAILED;
                }
            }
        }
    }
    if names_shaders {
        note_skipped_checks(&args.options);
    }
    summary(errors, warnings, args.files.len(), unread, &args.options);
    finish(&args.options);
    worst
}

pub fn run_compile(args: &CompileArgs) -> i32 {
    if let Err(e) = args.options.levels() {
        errln!("error: {e}");
        return USAGE;
    }
    let sources = match input::sources(&args.files, &args.stdin) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    let mut outputs = vec![];
    for e in &args.emit {
        let e = e.trim();
        if e.is_empty() {
            continue;
        }
        match e.parse::<Output>() {
            Ok(o) if !outputs.contains(&o) => outputs.push(o),
            Ok(_) => {}
            Err(msg) => {
                errln!("error: {msg} for --emit");
                return USAGE;
            }
        }
    }
    if outputs.is_empty() {
        errln!("error: --emit names no output (expected one or more of rust, c, glsl, hlsl, slang, json, svg, cpp)");
        return USAGE;
    }
    let spelling = dgcc::emit::Options {
        rust: dgcc::emit::rust::Options { ash_path: args.rust_ash_path.clone(), bytemuck: args.rust_bytemuck },
        c: dgcc::emit::c::Options { vulkan_include: args.c_vulkan_include.clone() },
    };
    if let Err(e) = spelling.c.include_operand() {
        errln!("error: {e} for --c-vulkan-include");
        return USAGE;
    }
    if let Err(e) = spelling.rust.check() {
        errln!("error: {e} for --rust-ash-path");
        return USAGE;
    }
    let mut worst = OK;
    // Every file's outputs, with the file each came from: `(name, contents, source)`.
    let mut all: Vec<(String, String, &Path)> = vec![];
    for &source in &sources {
        let Some((ok, c)) = compile_and_report(source, &args.options) else {
            worst = USAGE;
            continue;
        };
        let Some(manifest) = c.manifest.filter(|_| ok) else {
            worst = worst.max(FAILED);
            continue;
        };
        match dgcc::emit::emit_all_with(&manifest, &outputs, &spelling) {
            Ok(files) => all.extend(files.into_iter().map(|(n, t)| (n, t, source.path()))),
            Err(e) => {
                errln!("error: {}: {e}", source.path().display());
                worst = worst.max(FAILED);
            }
        }
    }
    finish(&args.options);
    if worst != OK {
        if args.files.len() > 1 {
            errln!("error: nothing written: not every file compiled");
        }
        return worst;
    }
    for (i, (name, _, from)) in all.iter().enumerate() {
        if let Some((_, _, first)) = all[..i].iter().find(|(n, _, _)| n == name) {
            errln!(
                "error: {} and {} both write `{name}` (the pipeline's name names the outputs); nothing written",
                first.display(),
                from.display()
            );
            return USAGE;
        }
    }
    let files: Vec<(String, String)> = all.into_iter().map(|(n, t, _)| (n, t)).collect();
    // A C++ header includes its C header: say so when neither this compile nor an earlier one
    // put that beside it.
    for (name, _) in &files {
        if let Some(stem) = name.strip_suffix(".hpp") {
            let header = format!("{stem}.h");
            if !files.iter().any(|(n, _)| *n == header) && !args.out_dir.join(&header).is_file() {
                errln!(
                    "warning: {name} includes {header}, which this compile does not write and {} does not hold: add `c` to --emit",
                    args.out_dir.display()
                );
            }
        }
    }
    // An output that is a link to one of the descriptions would replace it with generated text.
    let inputs: Vec<PathBuf> = sources.iter().filter_map(|s| std::fs::canonicalize(s.path()).ok()).collect();
    for (name, _) in &files {
        let path = args.out_dir.join(name);
        if std::fs::canonicalize(&path).is_ok_and(|real| inputs.contains(&real)) {
            errln!("error: {} is a link to a description being compiled; nothing written", path.display());
            return USAGE;
        }
    }
    // All or nothing, over every file: a compile that fails here leaves the previous outputs
    // as they were.
    match dgcc::output::write_all(&args.out_dir, &files, dgcc::output::Unchanged::Rewrite) {
        Ok(paths) => {
            if args.options.message_format == MessageFormat::Human {
                for p in paths {
                    errln!("wrote {}", p.display());
                }
            }
            OK
        }
        Err(e) => {
            errln!("error: {e}");
            USAGE
        }
    }
}

/// Compile a description for the commands that run it (`run`, `bench`): diagnostics are shown,
/// errors end the command with exit 1.
pub fn manifest_for_run(file: &Path, targets: &[String]) -> Result<dgcc::ir::Manifest, i32> {
    let options = CompileOptions { targets: targets.to_vec(), ..CompileOptions::default() };
    let Some((ok, c)) = compile_and_report(Source::File(file), &options) else { return Err(USAGE) };
    match c.manifest.filter(|_| ok) {
        Some(m) => Ok(m),
        None => Err(FAILED),
    }
}
