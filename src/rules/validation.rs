//! Rules of the validator (E01xx–E07xx, W0xxx). Filled by the validation work.

use super::Rule;

pub static RULES: &[Rule] = &[];
