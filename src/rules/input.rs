//! Rules of the front ends and of loading (E00xx input and syntax, E002x profiles).

use super::Rule;
use crate::diag::Severity::*;

pub static RULES: &[Rule] = &[
    Rule {
        code: "E0001",
        vuid: None,
        severity: Error,
        title: "syntax error",
        explanation: "The description could not be parsed. The message says what was expected \
where; the label points at the first character that did not fit.",
    },
    Rule {
        code: "E0021",
        vuid: None,
        severity: Error,
        title: "a profile does not state a value a rule needs",
        explanation: "A rule compares the description with a device value (for example \
`maxIndirectCommandsTokenOffset`) and the target profile does not state it. A Vulkan Profiles \
file written by a `vulkaninfo` older than 1.3.296 lacks every VK_EXT_device_generated_commands \
property, and gpuinfo.org exports drop extensions their schema does not know. dgcc never \
guesses: add the value to the profile, or write the profile with `dgcc probe` on the device.",
    },
];
