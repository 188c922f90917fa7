//! Argument definitions (clap derive) and dispatch to one file per command.

mod bench;
mod check;
mod explain;
mod fmt;
mod probe;
mod profiles;
mod run;

use clap::{Parser, Subcommand, ValueEnum};

/// Exit code: success.
pub const OK: i32 = 0;
/// Exit code: the input has errors, or the device cannot run it.
pub const FAILED: i32 = 1;
/// Exit code: bad usage or I/O.
pub const USAGE: i32 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "dgcc",
    version,
    about = "The device-generated-commands compiler: VK_EXT_device_generated_commands layouts from one description, checked against real device limits."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and validate descriptions against every target.
    Check(check::CheckArgs),
    /// Check, then write the outputs (manifest, Rust, C, GLSL).
    Compile(check::CompileArgs),
    /// Explain a diagnostic code.
    Explain(explain::ExplainArgs),
    /// List the built-in device profiles, or show one (a name or a JSON file).
    Profiles(profiles::ProfilesArgs),
    /// Format descriptions in place (every comment kept), check them, or convert RON to the dgcc
    /// language and back.
    Fmt(fmt::FmtArgs),
    /// Write the live Vulkan device as a profile (Vulkan Profiles JSON).
    Probe(probe::ProbeArgs),
    /// Run the pipeline's GPU-driven scene headless on the live device.
    Run(run::RunArgs),
    /// Benchmark the GPU-driven scene: CPU, multi-draw and DGC modes at several object counts.
    Bench(bench::BenchArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MessageFormat {
    Human,
    Json,
}

/// Common options of commands that compile descriptions.
#[derive(clap::Args, Debug, Clone)]
pub struct CompileOptions {
    /// Check against this target instead of the file's `targets` (a built-in name or a JSON
    /// profile path); repeat for several.
    #[arg(long = "target", value_name = "T")]
    pub targets: Vec<String>,
    /// How to print diagnostics: `human` on stderr, `json` one object per line on stdout.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// Treat warnings as errors.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Treat this code's warnings as errors (`--deny W0011`); repeat for several.
    #[arg(long = "deny", value_name = "CODE")]
    pub deny: Vec<String>,
    /// Fail when a target does not state a value a check needs (W0012) or predates
    /// VK_EXT_device_generated_commands (W0013): every rule proven on every target.
    #[arg(long)]
    pub strict: bool,
}

/// The codes `--strict` makes errors: a check skipped for a value a target does not state.
pub const STRICT_CODES: [&str; 2] = ["W0012", "W0013"];

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            targets: vec![],
            message_format: MessageFormat::Human,
            deny_warnings: false,
            deny: vec![],
            strict: false,
        }
    }
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => OK,
                _ => USAGE,
            };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Check(a) => check::run_check(&a),
        Command::Compile(a) => check::run_compile(&a),
        Command::Explain(a) => explain::run(&a),
        Command::Profiles(a) => profiles::run(&a),
        Command::Fmt(a) => fmt::run(&a),
        Command::Probe(a) => probe::run(&a),
        Command::Run(a) => run::run(&a),
        Command::Bench(a) => bench::run(&a),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_definition_is_valid() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
