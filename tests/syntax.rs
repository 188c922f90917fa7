//! Tests of `dgcc::syntax`: both front ends, spans, errors, printers and input limits.
//!
//! Fixtures live in `tests/syntax/` as pairs (`NAME.ron`, `NAME.dgc`) that describe the same
//! pipeline; error snapshots in `tests/syntax/snapshots/`.

#[path = "syntax/errors.rs"]
mod errors;
#[path = "syntax/kinds.rs"]
mod kinds;
#[path = "syntax/limits.rs"]
mod limits;
#[path = "syntax/round_trip.rs"]
mod round_trip;
#[path = "syntax/spans.rs"]
mod spans;

use dgcc::ast::Pipeline;
use dgcc::diag::Diagnostic;
use dgcc::syntax::{self, SyntaxKind};

/// The fixture pairs: each name exists as `.ron` and `.dgc`.
pub const FIXTURES: &[&str] = &["scene", "all_kinds", "minimal"];

pub fn fixture(file: &str) -> String {
    let path = format!("{}/tests/syntax/{file}", env!("DGCC_CHECKOUT"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn fixture_of(name: &str, kind: SyntaxKind) -> String {
    fixture(&format!("{name}.{}", kind.extension()))
}

/// Parses or fails the test with every diagnostic rendered.
pub fn parse_ok(source: &str, kind: SyntaxKind) -> Pipeline {
    syntax::parse(source, kind)
        .unwrap_or_else(|diags| panic!("{kind:?} did not parse:\n{}", render_all(source, &diags)))
}

/// `E0002 3:5 message [underlined text]` and its notes, one diagnostic per block.
pub fn render(source: &str, d: &Diagnostic) -> String {
    let mut out = format!("{} {}", d.code, d.message);
    for label in &d.labels {
        let (line, col) = line_col(source, label.span.start);
        let text = source.get(label.span.range()).unwrap_or("<out of range>");
        let kind = if label.primary { "" } else { " (secondary)" };
        out.push_str(&format!("\n  {line}:{col}{kind} [{text}] {}", label.message));
    }
    for note in &d.notes {
        out.push_str(&format!("\n  = {note}"));
    }
    out
}

pub fn render_all(source: &str, diags: &[Diagnostic]) -> String {
    diags.iter().map(|d| render(source, d)).collect::<Vec<_>>().join("\n")
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let before = &source[..offset.min(source.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

pub const BOTH: [SyntaxKind; 2] = [SyntaxKind::Ron, SyntaxKind::Dsl];
