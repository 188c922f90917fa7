//! PLACEHOLDER until the front ends land (branch `syntax`).
use crate::ast::Pipeline;
use crate::diag::Diagnostic;
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntaxKind { Ron, Dsl }
impl SyntaxKind {
    pub fn from_path(p: &std::path::Path) -> Option<SyntaxKind> {
        match p.extension()?.to_str()? { "ron" => Some(SyntaxKind::Ron), "dgc" => Some(SyntaxKind::Dsl), _ => None }
    }
}
pub fn parse(_source: &str, _kind: SyntaxKind) -> Result<Pipeline, Vec<Diagnostic>> {
    Err(vec![Diagnostic::new("E0001", "front ends not merged yet")])
}
pub fn print_ron(_p: &Pipeline) -> String { String::new() }
pub fn print_dsl(_p: &Pipeline) -> String { String::new() }
pub fn decode(bytes: &[u8]) -> Result<&str, Diagnostic> {
    std::str::from_utf8(bytes).map_err(|e| Diagnostic::new("E0001", format!("not UTF-8 at byte {}", e.valid_up_to())))
}
