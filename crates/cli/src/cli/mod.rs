//! Argument definitions (clap derive) and dispatch to one file per command.

mod bench;
mod check;
mod completions;
mod explain;
mod fmt;
mod input;
mod man;
mod probe;
mod profiles;
mod run;
mod stdio;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use dgcc::levels::{Level, Levels};
use std::io::IsTerminal;
use std::sync::OnceLock;

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
    /// When to colour diagnostics and other text on a terminal: `auto` colours a terminal
    /// unless `NO_COLOR` is set, `always` colours pipes too, `never` colours nothing.
    #[arg(long, value_enum, global = true, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

static COLOR: OnceLock<ColorWhen> = OnceLock::new();

/// Whether to colour what goes to standard error (`--color`, `NO_COLOR`, whether it is a
/// terminal).
pub fn color_stderr() -> bool {
    match COLOR.get().copied().unwrap_or(ColorWhen::Auto) {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal(),
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and validate descriptions against every target.
    Check(check::CheckArgs),
    /// Check, then write the outputs of one or more files (manifest, Rust, C, GLSL, HLSL, Slang
    /// and SVG unless --emit says otherwise): all of them, or none.
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
    /// Run the pipeline's GPU-driven scene headless on the live device, or (`--layout NAME`) any
    /// layout with synthetic records, each sequence's effect checked on the device.
    Run(run::RunArgs),
    /// Benchmark the GPU-driven scene: CPU, multi-draw and DGC modes at several object counts.
    Bench(bench::BenchArgs),
    /// Print a shell's completion script (bash, zsh, fish, powershell, elvish) on standard output.
    Completions(completions::CompletionsArgs),
    /// Print the manual page, dgcc(1), in roff (`dgcc man | man -l -`).
    Man(man::ManArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MessageFormat {
    /// For people, on stderr, with the source quoted.
    Human,
    /// One object per diagnostic on stdout, in dgcc's own stable shape.
    Json,
    /// One object per diagnostic on stdout in rustc's JSON shape, for editors and CI tools that read it.
    Rustc,
    /// One SARIF 2.1.0 log on stdout, for code-scanning services.
    Sarif,
}

/// Common options of commands that compile descriptions.
#[derive(clap::Args, Debug, Clone)]
pub struct CompileOptions {
    /// Check against this target instead of the file's `targets` (a built-in name or a JSON
    /// profile path); repeat for several.
    #[arg(long = "target", value_name = "T")]
    pub targets: Vec<String>,
    /// How to print diagnostics: `human` on stderr; `json` (dgcc's shape) or `rustc` (rustc's
    /// shape) one object per line on stdout; `sarif` one SARIF 2.1.0 log on stdout.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// Treat warnings as errors (after `-A`: an allowed code stays silent).
    #[arg(long)]
    pub deny_warnings: bool,
    /// Silence a warning or note code (`-A W0005`); repeatable. Error codes cannot be allowed.
    #[arg(short = 'A', long = "allow", value_name = "CODE")]
    pub allow: Vec<String>,
    /// Report a code as a warning (`-W N0001`); repeatable. Error codes cannot be lowered.
    #[arg(short = 'W', long = "warn", value_name = "CODE")]
    pub warn: Vec<String>,
    /// Report a code as an error (`-D W0011`); repeatable. The last of -A, -W and -D for a
    /// code wins, and the command line wins over the description's `lints`.
    #[arg(short = 'D', long = "deny", value_name = "CODE")]
    pub deny: Vec<String>,
    /// The -A/-W/-D settings in command-line order (filled from the parsed arguments).
    #[arg(skip)]
    pub ordered: Vec<(Level, String)>,
    /// Fail when a target does not state a value a check needs (W0012) or predates
    /// VK_EXT_device_generated_commands (W0013): every rule proven on every target.
    #[arg(long)]
    pub strict: bool,
}

/// `--device N` of the commands that open the live device (`run`, `bench`, `probe`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct DeviceArg {
    /// Use Vulkan physical device N (0 is the first the loader lists) instead of the default
    /// choice (the first Vulkan 1.3 device, preferring one with VK_EXT_device_generated_commands).
    /// Wins over the `DGCC_DEVICE=<name substring>` variable; an index past the list is an error
    /// that lists the devices.
    #[arg(long = "device", value_name = "N")]
    pub device: Option<usize>,
}

impl DeviceArg {
    /// Make the runtime's contexts and probes use the chosen device.
    pub fn apply(&self) {
        if self.device.is_some() {
            dgcc::runtime::context::select_device(self.device);
        }
    }
}

/// The codes `--strict` makes errors: a check skipped for a value a target does not state.
pub const STRICT_CODES: [&str; 2] = ["W0012", "W0013"];

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            targets: vec![],
            message_format: MessageFormat::Human,
            deny_warnings: false,
            allow: vec![],
            warn: vec![],
            deny: vec![],
            ordered: vec![],
            strict: false,
        }
    }
}

impl CompileOptions {
    /// The command line's levels: `--strict`'s codes first, then -A/-W/-D in the order given,
    /// `--deny-warnings` last. A usage error names the bad flag.
    pub fn levels(&self) -> Result<Levels, String> {
        let mut levels = Levels::new(self.deny_warnings);
        if self.strict {
            for c in STRICT_CODES {
                levels.set(c, Level::Deny).map_err(|e| e.to_string())?;
            }
        }
        let ordered: Vec<(Level, String)> = if self.ordered.is_empty() {
            let each = |level: Level, v: &Vec<String>| v.iter().map(move |c| (level, c.clone())).collect::<Vec<_>>();
            [each(Level::Allow, &self.allow), each(Level::Warn, &self.warn), each(Level::Deny, &self.deny)].concat()
        } else {
            self.ordered.clone()
        };
        for (level, code) in ordered {
            levels.set(&code, level).map_err(|e| format!("`--{} {code}`: {e}", level.name()))?;
        }
        Ok(levels)
    }

    /// Fill [`CompileOptions::ordered`] from the subcommand's matches, so that the last of
    /// -A/-W/-D for a code wins whichever flag it is.
    fn order_from(&mut self, m: &clap::ArgMatches) {
        let mut all: Vec<(usize, Level, String)> = vec![];
        for (id, level) in [("allow", Level::Allow), ("warn", Level::Warn), ("deny", Level::Deny)] {
            if let (Some(idx), Some(vals)) = (m.indices_of(id), m.get_many::<String>(id)) {
                all.extend(idx.zip(vals).map(|(i, v)| (i, level, v.clone())));
            }
        }
        all.sort_by_key(|(i, _, _)| *i);
        self.ordered = all.into_iter().map(|(_, l, c)| (l, c)).collect();
    }
}

pub fn main() -> i32 {
    let parsed = Cli::command().try_get_matches().and_then(|m| Cli::from_arg_matches(&m).map(|c| (c, m)));
    let cli = match parsed {
        Ok((mut c, m)) => {
            match (&mut c.command, m.subcommand()) {
                (Command::Check(a), Some((_, sub))) => a.options.order_from(sub),
                (Command::Compile(a), Some((_, sub))) => a.options.order_from(sub),
                _ => {}
            }
            c
        }
        Err(e) => {
            let code = match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => OK,
                _ => USAGE,
            };
            let _ = e.print();
            return code;
        }
    };
    let _ = COLOR.set(cli.color);
    let code = match &cli.command {
        Command::Check(a) => check::run_check(a),
        Command::Compile(a) => check::run_compile(a),
        Command::Explain(a) => explain::run(a),
        Command::Profiles(a) => profiles::run(a),
        Command::Fmt(a) => fmt::run(a),
        Command::Probe(a) => {
            a.device.apply();
            probe::run(a)
        }
        Command::Run(a) => {
            a.device.apply();
            run::run(a)
        }
        Command::Bench(a) => {
            a.device.apply();
            bench::run(a)
        }
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => man::run(a),
    };
    stdio::finish(code)
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_definition_is_valid() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
