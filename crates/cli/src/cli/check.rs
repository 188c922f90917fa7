//! `dgcc check` and `dgcc compile`: run the driver on each file, render its diagnostics, and
//! (for compile) write the outputs.

use super::{CompileOptions, MessageFormat, FAILED, OK, USAGE};
use dgcc::diag::{Diagnostic, Severity};
use dgcc::driver::{self, Compilation, FileError};
use dgcc::emit::Output;
use dgcc::render::{self, SourceFile};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The SARIF results of the files checked so far: `--message-format sarif` prints one log for
/// all of them, after the last.
static SARIF: Mutex<Vec<serde_json::Value>> = Mutex::new(vec![]);

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Description files (`.ron` or `.dgc`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub options: CompileOptions,
}

#[derive(clap::Args, Debug)]
pub struct CompileArgs {
    /// Description files (`.ron` or `.dgc`): the outputs of all of them are written, or none
    /// (a file with errors, or two files whose outputs would have the same name, writes
    /// nothing).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
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

/// Compile one file and print its diagnostics. `None` for an I/O failure (already reported).
pub(super) fn compile_and_report(path: &Path, options: &CompileOptions) -> Option<(bool, Compilation)> {
    let levels = match options.levels() {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return None;
        }
    };
    let opts = driver::Options { targets: options.targets.clone(), check_kernels: true, levels };
    let name = path.display().to_string();
    match driver::compile_file(path, &opts) {
        Err(FileError::Io(msg)) => {
            eprintln!("error: {msg}");
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
            for d in diags {
                println!("{}", render::json_line(file, d));
            }
        }
        MessageFormat::Rustc => {
            for d in diags {
                println!("{}", render::rustc_line(file, d));
            }
        }
        MessageFormat::Sarif => {
            SARIF.lock().unwrap_or_else(|e| e.into_inner()).extend(render::sarif::results(file, diags));
        }
    }
}

/// Print the SARIF log of every file checked (`--message-format sarif`), even when none could
/// be read: a code-scanning upload expects a log.
fn finish(options: &CompileOptions) {
    if options.message_format == MessageFormat::Sarif {
        let results = std::mem::take(&mut *SARIF.lock().unwrap_or_else(|e| e.into_inner()));
        print!("{}", render::sarif::log(results));
    }
}

fn summary(errors: usize, warnings: usize, files: usize, unread: usize, options: &CompileOptions) {
    if options.message_format == MessageFormat::Human {
        if unread > 0 {
            eprintln!(
                "{unread} of {files} file(s) could not be read; {errors} error(s), {warnings} warning(s) in the others"
            );
        } else if errors == 0 && warnings == 0 {
            eprintln!("ok: {files} file(s) checked, no problems");
        } else {
            eprintln!("{errors} error(s), {warnings} warning(s) in {files} file(s)");
        }
    }
}

/// Say once which kernel and shader checks this build cannot run.
fn note_skipped_checks(options: &CompileOptions) {
    if !dgcc::shader::SKIPPED_CHECKS.is_empty() && options.message_format == MessageFormat::Human {
        eprintln!(
            "note: built without the `shaderc` feature, so these shader checks were skipped: {}",
            dgcc::shader::SKIPPED_CHECKS.join("; ")
        );
    }
}

pub fn run_check(args: &CheckArgs) -> i32 {
    if let Err(e) = args.options.levels() {
        eprintln!("error: {e}");
        return USAGE;
    }
    if args.files.iter().any(|f| file_has_shaders(f)) {
        note_skipped_checks(&args.options);
    }
    let mut worst = OK;
    let (mut errors, mut warnings, mut unread) = (0, 0, 0);
    for f in &args.files {
        match compile_and_report(f, &args.options) {
            None => {
                worst = USAGE;
                unread += 1;
            }
            Some((ok, c)) => {
                errors += c.diagnostics.iter().filter(|d| d.severity == Severity::Error).count()
                    + usize::from(!ok && c.diagnostics.is_empty());
                warnings += c.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count();
                if !ok && worst == OK {
                    worst = FAILED;
                }
            }
        }
    }
    summary(errors, warnings, args.files.len(), unread, &args.options);
    finish(&args.options);
    worst
}

pub fn run_compile(args: &CompileArgs) -> i32 {
    if let Err(e) = args.options.levels() {
        eprintln!("error: {e}");
        return USAGE;
    }
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
                eprintln!("error: {msg} for --emit");
                return USAGE;
            }
        }
    }
    if outputs.is_empty() {
        eprintln!("error: --emit names no output (expected one or more of rust, c, glsl, hlsl, slang, json, svg, cpp)");
        return USAGE;
    }
    let spelling = dgcc::emit::Options {
        rust: dgcc::emit::rust::Options { ash_path: args.rust_ash_path.clone(), bytemuck: args.rust_bytemuck },
        c: dgcc::emit::c::Options { vulkan_include: args.c_vulkan_include.clone() },
    };
    if let Err(e) = spelling.c.include_operand() {
        eprintln!("error: {e} for --c-vulkan-include");
        return USAGE;
    }
    if let Err(e) = spelling.rust.check() {
        eprintln!("error: {e} for --rust-ash-path");
        return USAGE;
    }
    let mut worst = OK;
    // Every file's outputs, with the file each came from: `(name, contents, source)`.
    let mut all: Vec<(String, String, &Path)> = vec![];
    for f in &args.files {
        let Some((ok, c)) = compile_and_report(f, &args.options) else {
            worst = USAGE;
            continue;
        };
        let Some(manifest) = c.manifest.filter(|_| ok) else {
            worst = worst.max(FAILED);
            continue;
        };
        match dgcc::emit::emit_all_with(&manifest, &outputs, &spelling) {
            Ok(files) => all.extend(files.into_iter().map(|(n, t)| (n, t, f.as_path()))),
            Err(e) => {
                eprintln!("error: {}: {e}", f.display());
                worst = worst.max(FAILED);
            }
        }
    }
    finish(&args.options);
    if worst != OK {
        if args.files.len() > 1 {
            eprintln!("error: nothing written: not every file compiled");
        }
        return worst;
    }
    for (i, (name, _, from)) in all.iter().enumerate() {
        if let Some((_, _, first)) = all[..i].iter().find(|(n, _, _)| n == name) {
            eprintln!(
                "error: {} and {} both write `{name}` (the pipeline's name names the outputs); nothing written",
                first.display(),
                from.display()
            );
            return USAGE;
        }
    }
    let files: Vec<(String, String)> = all.into_iter().map(|(n, t, _)| (n, t)).collect();
    // All or nothing, over every file: a compile that fails here leaves the previous outputs
    // as they were.
    match dgcc::output::write_all(&args.out_dir, &files, dgcc::output::Unchanged::Rewrite) {
        Ok(paths) => {
            if args.options.message_format == MessageFormat::Human {
                for p in paths {
                    eprintln!("wrote {}", p.display());
                }
            }
            OK
        }
        Err(e) => {
            eprintln!("error: {e}");
            USAGE
        }
    }
}

/// Compile a description for the commands that run it (`run`, `bench`): diagnostics are shown,
/// errors end the command with exit 1.
pub fn manifest_for_run(file: &Path, targets: &[String]) -> Result<dgcc::ir::Manifest, i32> {
    let options = CompileOptions { targets: targets.to_vec(), ..CompileOptions::default() };
    let Some((ok, c)) = compile_and_report(file, &options) else { return Err(USAGE) };
    match c.manifest.filter(|_| ok) {
        Some(m) => Ok(m),
        None => Err(FAILED),
    }
}

/// Whether a description mentions a kernel or a shader (a cheap look, only to decide whether
/// the note about skipped shader checks is worth printing).
fn file_has_shaders(path: &Path) -> bool {
    driver::read_description(path).is_ok_and(|t| t.windows(6).any(|w| w == b"kernel" || w == b"shader"))
}
