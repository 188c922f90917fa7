//! `dgcc man`: the manual page, dgcc(1), in roff on standard output.
//!
//! Why written from the clap definition at run time, like the completions: the page can never
//! disagree with the flags the binary accepts. Why by hand and not with clap_mangen: that crate
//! was not available to the build; the subset of roff a man page needs (`.TH`, `.SH`, `.SS`,
//! `.TP`, bold and italic) is small, and every text is escaped so that a help string cannot
//! start a roff request.

use super::{Cli, OK, USAGE};
use clap::{Arg, Command, CommandFactory};

#[derive(clap::Args, Debug)]
pub struct ManArgs {}

pub fn run(_: &ManArgs) -> i32 {
    use std::io::Write;
    match std::io::stdout().write_all(page(&Cli::command()).as_bytes()) {
        Ok(()) => OK,
        Err(e) => {
            eprintln!("error: cannot write the manual page: {e}");
            USAGE
        }
    }
}

/// Text as roff shows it: backslashes and dashes escaped, no line starting a request.
fn esc(text: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.replace('\\', "\\e").replace('-', "\\-");
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn help(arg: &Arg) -> String {
    let mut text = arg.get_long_help().or(arg.get_help()).map(|h| h.to_string()).unwrap_or_default();
    let values: Vec<String> =
        arg.get_possible_values().iter().filter(|v| !v.is_hide_set()).map(|v| v.get_name().to_string()).collect();
    if !values.is_empty() && arg.get_action().takes_values() {
        text.push_str(&format!(" [possible values: {}]", values.join(", ")));
    }
    esc(&text)
}

fn value_name(arg: &Arg) -> String {
    arg.get_value_names()
        .and_then(|v| v.first())
        .map(|v| v.to_string())
        .unwrap_or_else(|| arg.get_id().as_str().to_uppercase())
}

/// One option or argument as a `.TP` item.
fn item(out: &mut String, arg: &Arg) {
    let mut head = vec![];
    if let Some(s) = arg.get_short() {
        head.push(format!("\\fB\\-{s}\\fR"));
    }
    if let Some(l) = arg.get_long() {
        head.push(format!("\\fB\\-\\-{}\\fR", esc(l)));
    }
    let takes = arg.get_action().takes_values();
    let mut head = head.join(", ");
    if arg.is_positional() {
        head = format!("\\fI{}\\fR", esc(&value_name(arg)));
    } else if takes {
        head.push_str(&format!(" \\fI{}\\fR", esc(&value_name(arg))));
    }
    out.push_str(&format!(".TP\n{head}\n{}\n", help(arg)));
}

fn args(out: &mut String, cmd: &Command) {
    for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
        item(out, arg);
    }
}

/// The whole page.
pub fn page(cmd: &Command) -> String {
    let mut cmd = cmd.clone();
    cmd.build();
    let name = cmd.get_name().to_string();
    let version = cmd.get_version().unwrap_or("").to_string();
    let about = cmd.get_about().map(|a| a.to_string()).unwrap_or_default();
    let mut out = String::new();
    out.push_str(&format!(".TH {} 1 \"\" \"{name} {version}\" \"User Commands\"\n", name.to_uppercase()));
    out.push_str(&format!(".SH NAME\n{name} \\- {}\n", esc(&about)));
    out.push_str(&format!(".SH SYNOPSIS\n\\fB{name}\\fR [\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n"));
    out.push_str(&format!(".SH DESCRIPTION\n{}\n", esc(&about)));
    out.push_str(".SH OPTIONS\n");
    args(&mut out, &cmd);
    out.push_str(".SH COMMANDS\n");
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        out.push_str(&format!(".SS \"{name} {}\"\n", sub.get_name()));
        if let Some(a) = sub.get_long_about().or(sub.get_about()) {
            out.push_str(&format!("{}\n", esc(&a.to_string())));
        }
        args(&mut out, sub);
    }
    out.push_str(
        ".SH EXIT STATUS\n.TP\n0\nsuccess\n.TP\n1\nthe input has errors, or the device cannot run it\n\
         .TP\n2\nbad usage or I/O\n.SH ENVIRONMENT\n.TP\nNO_COLOR\nwhen set and not empty, \
         \\fB\\-\\-color auto\\fR colours nothing\n.SH SEE ALSO\nThe dgcc book (book/ in the source tree); \
         \\fBdgcc explain\\fR \\fICODE\\fR for each diagnostic code.\n",
    );
    out
}
