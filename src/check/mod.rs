//! PLACEHOLDER until the validator lands (branch `check`).
use crate::{ast, device::Profile, diag::Diagnostic, ir, layout::LaidOut};
pub fn check(_p: &ast::Pipeline, _laid: &[LaidOut], _profiles: &[Profile]) -> Vec<Diagnostic> { vec![] }
pub fn kernel_target(_k: &ast::Kernel, _p: &Profile) -> Result<ir::KernelTarget, Diagnostic> {
    Ok(ir::KernelTarget { required_subgroup_size: None, flags: 0 })
}
