//! A description's `lints`, the pipeline's and its layouts': the per-code levels they set,
//! checked against the registry, and applied to the diagnostics they are about.
//!
//! Why a check and not the parser: the front ends read any word as a code (both syntaxes the
//! same way: RON refuses a string that is not a word, which `.dgc` could not spell); whether it is a code, and whether its level may be set, is the registry's to say
//! (`dgcc_core::levels`), and the answer is a diagnostic at the code as written, so a typo in
//! `lints` is reported like any other mistake instead of silencing nothing.

use crate::ast::{Lint, Pipeline};
use dgcc_core::diag::Diagnostic;
use dgcc_core::levels::{LevelError, Levels};
use dgcc_core::span::Span;

/// The levels a description sets: its pipeline's `lints`, and each layout's own with the
/// layout's span (every layout, in order; most have none).
///
/// Which diagnostics are a layout's: those that point into it in the description, through their
/// primary label, or, where that lies outside every layout, through their first label that lies
/// inside one: a shader's W0508 is at the shader's `source`, and names the layout with a
/// secondary label at its name. A layout's levels come after the pipeline's for those, so the
/// nearer setting wins, as an `#[allow]` on an item does in Rust; the command line comes after
/// both.
#[derive(Clone, Debug, Default)]
pub struct DescriptionLevels {
    pub pipeline: Levels,
    pub layouts: Vec<(Span, Levels)>,
}

impl DescriptionLevels {
    /// Apply these levels and then `command_line`'s to each diagnostic (`Levels::apply`).
    pub fn apply(&self, command_line: &Levels, diags: &mut Vec<Diagnostic>) {
        // One group per set of levels: the pipeline's, then each layout's that sets any (a
        // layout that sets none keeps the pipeline's).
        let mut groups = vec![(self.pipeline.clone().then(command_line), vec![])];
        let mut group_of_layout = vec![0; self.layouts.len()];
        for (i, (_, own)) in self.layouts.iter().enumerate().filter(|(_, (_, own))| !own.is_empty()) {
            group_of_layout[i] = groups.len();
            groups.push((self.pipeline.clone().then(own).then(command_line), vec![]));
        }
        for d in diags.drain(..) {
            let group = self.owner(&d).map_or(0, |layout| group_of_layout[layout]);
            groups[group].1.push(d);
        }
        for (levels, mut group) in groups {
            levels.apply(&mut group);
            diags.append(&mut group);
        }
    }

    /// The index of the layout that `d` points into, if any.
    fn owner(&self, d: &Diagnostic) -> Option<usize> {
        // The layouts are in description order and do not overlap: the one that can hold `at` is
        // the last that starts at or before it (a binary search, as diagnostics can number
        // hundreds of thousands and layouts 16,384).
        let layout_of = |at: Span| {
            let i = self.layouts.partition_point(|(l, _)| l.start <= at.start).checked_sub(1)?;
            let l = self.layouts[i].0;
            (at.end <= l.end).then_some(i)
        };
        let in_description = || d.labels.iter().filter(|l| l.file.is_none());
        match in_description().find(|l| l.primary).and_then(|l| layout_of(l.span)) {
            Some(layout) => Some(layout),
            None => in_description().find_map(|l| layout_of(l.span)),
        }
    }
}

/// The description's levels, and E0008 for every code that cannot be set.
pub fn levels(pipeline: &Pipeline) -> (DescriptionLevels, Vec<Diagnostic>) {
    let mut diags = vec![];
    let mut levels = DescriptionLevels { pipeline: set(&pipeline.lints, &mut diags), layouts: vec![] };
    for layout in &pipeline.layouts {
        levels.layouts.push((layout.span, set(&layout.lints, &mut diags)));
    }
    (levels, diags)
}

/// One `lints` list as levels, in the order written; E0008 for each entry that cannot be set.
fn set(lints: &[Lint], diags: &mut Vec<Diagnostic>) -> Levels {
    let mut levels = Levels::default();
    for lint in lints {
        if let Err(e) = levels.set(&lint.code.node, lint.level.node) {
            diags.push(level_error(&e, lint.code.span, lint.level.span));
        }
    }
    levels
}

/// E0008 for a `lints` entry that cannot be set, at its code (and its level, for an error code):
/// here, and in the RON reader for a code that is not even a word.
pub(crate) fn level_error(e: &LevelError, code: Span, level: Span) -> Diagnostic {
    let label = match e {
        LevelError::Unknown(_) => "not a diagnostic code",
        LevelError::Error { .. } => "an error code",
    };
    let d = Diagnostic::new("E0008", format!("`lints`: {e}")).primary(code, label);
    match e {
        LevelError::Error { .. } => d.secondary(level, "only `deny` can be given for an error"),
        LevelError::Unknown(_) => d,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgcc_core::levels::Level;
    use dgcc_core::severity::Severity;

    /// Layout 0 spans bytes 100..200 and allows W0508; layout 1 spans 200..300 and sets nothing;
    /// the pipeline denies W0508.
    fn levels() -> DescriptionLevels {
        let mut pipeline = Levels::default();
        pipeline.set("W0508", Level::Deny).unwrap();
        let mut allowed = Levels::default();
        allowed.set("W0508", Level::Allow).unwrap();
        DescriptionLevels {
            pipeline,
            layouts: vec![(Span::new(100, 200), allowed), (Span::new(200, 300), Levels::default())],
        }
    }

    fn w0508(primary: usize, secondary: Option<usize>) -> Diagnostic {
        let d = Diagnostic::new("W0508", "unwritten").primary(Span::new(primary, primary + 5), "here");
        match secondary {
            Some(at) => d.secondary(Span::new(at, at + 5), "there"),
            None => d,
        }
    }

    #[test]
    fn a_layouts_levels_apply_where_a_diagnostic_points_into_it() {
        let l = levels();
        // Primary inside layout 0; at the shader's `source` (outside every layout) naming layout
        // 0; primary inside layout 1 naming layout 0; outside every layout.
        let mut diags = vec![w0508(120, None), w0508(400, Some(110)), w0508(250, Some(110)), w0508(400, None)];
        l.apply(&Levels::default(), &mut diags);
        let left: Vec<(usize, Severity)> =
            diags.iter().map(|d| (d.primary_span().unwrap().start, d.severity)).collect();
        assert_eq!(left, [(250, Severity::Error), (400, Severity::Error)]);
        // The command line wins over both.
        let mut cli = Levels::default();
        cli.set("W0508", Level::Warn).unwrap();
        let mut diags = vec![w0508(120, None), w0508(400, None)];
        l.apply(&cli, &mut diags);
        assert!(diags.iter().all(|d| d.severity == Severity::Warning) && diags.len() == 2, "{diags:?}");
    }
}
