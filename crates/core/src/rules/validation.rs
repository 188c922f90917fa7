//! Rules of the validator (E01xx–E03xx, E05xx–E07xx, W0xxx, N0xxx), one file per area under
//! `validation/`.
//!
//! Why several files joined here: each rule carries a long explanation with an example and
//! its fix, so one table would run to well over a thousand lines. The registry wants one
//! `&'static [Rule]` per source (`rules::tables`), so the area tables are joined into one array
//! at compile time: no allocation, no lazy initialisation, the same slice everywhere.

use super::Rule;
use crate::severity::Severity;

mod kernels;
mod limits;
mod names;
mod notes;
mod push;
mod sets;
mod tokens;
mod warnings;

const AREAS: [&[Rule]; 8] = [
    tokens::RULES,
    limits::RULES,
    push::RULES,
    kernels::RULES,
    sets::RULES,
    names::RULES,
    warnings::RULES,
    notes::RULES,
];

const COUNT: usize = {
    let (mut n, mut a) = (0, 0);
    while a < AREAS.len() {
        n += AREAS[a].len();
        a += 1;
    }
    n
};

const fn join() -> [Rule; COUNT] {
    const BLANK: Rule = Rule { code: "", vuid: None, severity: Severity::Error, title: "", explanation: "" };
    let mut out = [BLANK; COUNT];
    let (mut a, mut k) = (0, 0);
    while a < AREAS.len() {
        let mut i = 0;
        while i < AREAS[a].len() {
            let r = &AREAS[a][i];
            out[k] =
                Rule { code: r.code, vuid: r.vuid, severity: r.severity, title: r.title, explanation: r.explanation };
            k += 1;
            i += 1;
        }
        a += 1;
    }
    out
}

static ALL: [Rule; COUNT] = join();

/// Every validator rule, in area order (`rules::all` sorts by code).
pub static RULES: &[Rule] = &ALL;
