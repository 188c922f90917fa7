//! Rules of target resolution (E002x): naming and loading the device profiles to check against.

use super::Rule;
use crate::severity::Severity::*;

pub static RULES: &[Rule] = &[
    Rule {
        code: "E0020",
        vuid: None,
        severity: Error,
        title: "unknown target",
        explanation: "A `targets` entry (or a `--target` argument) is neither a built-in profile \
(`minimum`, `lavapipe`, `nvidia`, `radv`, `radv-mesh`, `nvk`, `anv`; `dgcc profiles` lists \
them) nor a path to a Vulkan Profiles JSON file. A path in the description is taken relative to \
its folder, one given with `--target` relative to the current directory; write them with a `/` \
or a `.json` suffix so they cannot be mistaken for a profile name.\n\n\
```ron\ntargets: [\"nvidia\", \"amd\"],   // `amd` is not a built-in: use \"radv\" or a JSON file\n```",
    },
    Rule {
        code: "E0022",
        vuid: None,
        severity: Error,
        title: "a target profile file cannot be read",
        explanation: "A target names a JSON profile file that does not exist, cannot be read, is \
not JSON, or is not in a shape dgcc understands (Vulkan Profiles JSON as written by \
`vulkaninfo --json` or `dgcc probe`, a gpuinfo.org export, or a VulkanCapsViewer report). The \
message names the file and what is wrong with it.",
    },
    Rule {
        code: "E0023",
        vuid: None,
        severity: Error,
        title: "two targets of one name",
        explanation: "Two targets have the same name and different values: a built-in profile and a JSON file whose stem is that name (`targets: [\"nvidia\", \"measured/nvidia.json\"]`), or two files of one stem in different folders. Diagnostics and the manifest's per-target kernel decisions name a target by its name, so one device would be hidden behind the other; dgcc refuses instead of checking only the first. The same target twice (the same built-in, or a file whose values are the same) is checked once, without a word.\n\nFix: rename one of the files (`nvidia-h200.json`).",
    },
];
