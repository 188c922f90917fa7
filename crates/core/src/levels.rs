//! Per-code levels: allow, warn or deny one diagnostic code (`-A W0005`, `-D W0011`).
//!
//! Why one type: the command line (`-A/-W/-D CODE`, `--deny CODE`, `--deny-warnings`,
//! `--strict`), a description's `lints` map and the build-script API all change how serious a
//! code is, and they must agree on what is allowed and on who wins. [`Levels`] is an ordered
//! list of settings, applied to diagnostics after the checks ran (diagnostics stay data: the
//! checks never know the levels); the last setting of a code wins, so a caller pushes the
//! description's map first and the command line after it. `deny_warnings` applies last, to
//! whatever is still a warning: an allowed code is gone, so `-A W0005` keeps a lavapipe
//! memory estimate from failing a `--deny-warnings` build.
//!
//! An error is never lowered: allowing or warning an `E` code is refused, since the layout it
//! reports would not run. An unknown code is refused too, so a typo cannot silence nothing.

use crate::diag::Diagnostic;
use crate::severity::Severity;

/// What to do with a code's diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Drop them.
    Allow,
    /// Report them as warnings.
    Warn,
    /// Report them as errors.
    Deny,
}

impl Level {
    pub const fn name(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }
    /// `allow`, `warn` or `deny`.
    pub fn parse(s: &str) -> Option<Level> {
        [Level::Allow, Level::Warn, Level::Deny].into_iter().find(|l| l.name() == s)
    }
}

/// Why a level cannot be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelError {
    /// The registry has no such code.
    Unknown(String),
    /// An error-class code cannot be allowed or made a warning.
    Error { code: &'static str, level: Level },
}

impl std::fmt::Display for LevelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LevelError::Unknown(c) => write!(f, "`{c}` is not a diagnostic code (`dgcc explain` lists them)"),
            LevelError::Error { code, level } => write!(
                f,
                "{code} is an error and cannot be {}: the layout it reports would not run",
                if *level == Level::Allow { "allowed" } else { "made a warning" }
            ),
        }
    }
}

/// The settings of one compile, in the order they were given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    settings: Vec<(&'static str, Level)>,
    /// Every warning left after the settings is an error (`--deny-warnings`).
    pub deny_warnings: bool,
}

impl Levels {
    /// No settings; `deny_warnings` as given.
    pub fn new(deny_warnings: bool) -> Levels {
        Levels { settings: vec![], deny_warnings }
    }

    /// Set `code` to `level`, after every earlier setting (the last one of a code wins).
    pub fn set(&mut self, code: &str, level: Level) -> Result<(), LevelError> {
        let rule = crate::rules::lookup(code).ok_or_else(|| LevelError::Unknown(code.to_string()))?;
        if rule.severity == Severity::Error && level != Level::Deny {
            return Err(LevelError::Error { code: rule.code, level });
        }
        self.push(rule.code, level);
        Ok(())
    }

    /// `code` (a registry code) set to `level` after every other setting, replacing its earlier
    /// setting: only the last one of a code counts, so the list holds each code at most once
    /// and stays as short as the registry however many times a description repeats a code
    /// (each layout's levels start from a copy of the pipeline's).
    fn push(&mut self, code: &'static str, level: Level) {
        self.settings.retain(|(c, _)| *c != code);
        self.settings.push((code, level));
    }

    /// The level `code` was last set to, if any.
    pub fn get(&self, code: &str) -> Option<Level> {
        self.settings.iter().rev().find(|(c, _)| c.eq_ignore_ascii_case(code)).map(|&(_, l)| l)
    }

    /// The settings in order, each code once (at the place of its last setting).
    pub fn settings(&self) -> &[(&'static str, Level)] {
        &self.settings
    }

    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        self.settings.is_empty() && !self.deny_warnings
    }

    /// Every setting of `other` after this one's (the later source wins); `deny_warnings` if
    /// either has it.
    pub fn then(mut self, other: &Levels) -> Levels {
        for &(code, level) in &other.settings {
            self.push(code, level);
        }
        self.deny_warnings |= other.deny_warnings;
        self
    }

    /// Apply the levels: allowed codes are dropped, the others get their level's severity, and
    /// with `deny_warnings` every remaining warning becomes an error. Errors stay errors.
    pub fn apply(&self, diags: &mut Vec<Diagnostic>) {
        diags.retain_mut(|d| {
            match self.get(d.code) {
                Some(Level::Allow) if d.severity != Severity::Error => return false,
                Some(Level::Warn) if d.severity != Severity::Error => d.severity = Severity::Warning,
                Some(Level::Deny) => d.severity = Severity::Error,
                _ => {}
            }
            if self.deny_warnings && d.severity == Severity::Warning {
                d.severity = Severity::Error;
            }
            true
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_setting_wins_and_errors_cannot_be_lowered() {
        let mut l = Levels::default();
        l.set("w0005", Level::Deny).unwrap();
        l.set("W0005", Level::Allow).unwrap();
        assert_eq!(l.get("W0005"), Some(Level::Allow));
        assert_eq!(l.set("E0404", Level::Allow), Err(LevelError::Error { code: "E0404", level: Level::Allow }));
        assert!(l.set("E0404", Level::Deny).is_ok());
        assert_eq!(l.set("W9999", Level::Warn), Err(LevelError::Unknown("W9999".into())));
    }

    #[test]
    fn a_code_set_many_times_is_held_once_and_the_last_setting_wins() {
        let mut pipeline = Levels::default();
        for i in 0..10_000 {
            let level = if i % 2 == 0 { Level::Deny } else { Level::Allow };
            pipeline.set("W0005", level).unwrap();
            pipeline.set("W0003", Level::Warn).unwrap();
        }
        assert_eq!(pipeline.settings(), [("W0005", Level::Allow), ("W0003", Level::Warn)]);
        let mut layout = Levels::default();
        layout.set("W0005", Level::Deny).unwrap();
        let both = pipeline.then(&layout);
        assert_eq!(both.settings(), [("W0003", Level::Warn), ("W0005", Level::Deny)]);
        assert_eq!(both.get("w0005"), Some(Level::Deny));
    }

    #[test]
    fn allow_beats_deny_warnings() {
        let mut l = Levels::new(true);
        l.set("W0005", Level::Allow).unwrap();
        let mut d =
            vec![Diagnostic::new("W0005", "big"), Diagnostic::new("W0003", "stride"), Diagnostic::new("N0001", "n")];
        l.apply(&mut d);
        let got: Vec<(&str, Severity)> = d.iter().map(|d| (d.code, d.severity)).collect();
        assert_eq!(got, [("W0003", Severity::Error), ("N0001", Severity::Note)]);
    }
}
