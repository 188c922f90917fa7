//! Notes (N0xxx): what a description chose that changes how it runs on a target, stated per
//! target so nobody is surprised, and never a failure (`--deny-warnings` does not count them).

use crate::rules::Rule;
use crate::severity::Severity::*;

pub const RULES: &[Rule] = &[Rule {
    code: "N0001",
    vuid: None,
    severity: Note,
    title: "an execution set the target cannot bind runs binned there",
    explanation: r#"The layout's `ExecutionSet` token says `fallback: Binned`, and a target cannot bind the set's stages through an execution set (what E0604–E0610 report for a token without a fallback: radv binds only compute pipelines this way). On that target the engine does not use the token: it bins the stream by the set index each record carries (count, scan, scatter on the GPU) and executes the layout without its EXECUTION_SET token once per entry, with that entry's pipeline (or shaders) bound; the stride and every other token stay as they are, so the kernel that writes the stream needs no change. Binding an entry's shaders needs the target's `shaderObject` feature, which the binned path does not replace (E0615). The note names what the target lacks; the dgcc runtime reads the same finding from the live device to choose the binned path, and says so.

```ron
// targets: ["radv"]
ExecutionSet(name: "material", kind: Pipelines, stages: [Vertex, Fragment], max_entries: 16, fallback: Binned),
```

Fix: nothing, where the binned path is what the engine runs on that target; drop the target to silence it. Without `fallback` the same layout is an error there."#,
}];
