//! Notes (N0xxx): what a description chose that changes how it runs on a target, stated per
//! target so nobody is surprised, and never a failure (`--deny-warnings` does not count them).

use crate::rules::Rule;
use crate::severity::Severity::*;

pub const RULES: &[Rule] = &[
    Rule {
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
    },
    Rule {
        code: "N0002",
        vuid: None,
        severity: Note,
        title: "NVIDIA's driver needs every entry of a compute execution set written, each pipeline in one entry",
        explanation: r#"The layout's `ExecutionSet` token selects compute pipelines (or compute shader objects), and a target is an NVIDIA device: its profile states `vendorID` = 0x10DE (`dgcc profiles nvidia`; Mesa's NVK reports the same id, so `nvk` gets the note too, though only NVIDIA's own driver was measured; a profile that does not state its vendor gets no note). The specification allows both things below, but NVIDIA's driver (580.159.04: both measured on an H100, the crash first seen on an H200; no validation-layer message either way) does not:

- A pipeline set with an entry never written crashes the process while `vkCmdExecuteGeneratedCommandsEXT` is recorded, even if no sequence selects that entry. (Shader-object sets are not affected.)
- A compute pipeline or compute shader object written into two entries of one set runs only from the entry it was written to last. A sequence that selects the other entry never finishes: the GPU hangs and the submission's fence never signals.

Sets of graphics pipelines are not affected, and get no note: the same driver on an H100 drew through a set of 16 with 14 entries never written, and through one pipeline held by two or fifteen entries selected at any of them, every sequence with the pipeline it selected.

dgcc's runtime works around both: `create_execution_set` writes the initial pipeline into every entry, entry 0 last, and on an NVIDIA device `write_execution_set` and `write_execution_set_shader` refuse a compute pipeline or shader that another entry already holds, naming that entry. An engine that creates and writes its own sets from dgcc's layouts must do the same; this note says so once per layout and NVIDIA target. It is never a failure, and `--deny-warnings` does not count it.

```ron
// targets: ["nvidia"]
ExecutionSet(name: "pipeline", kind: Pipelines, stages: [Compute], max_entries: 16),
```

Fix: nothing in the description. In the engine, write every entry of a pipeline set before executing (the initial pipeline into the unused ones, entry 0 last), and give each entry its own pipeline or shader object: to run the same code from two entries, create a second pipeline from it. `-A N0002` silences the note."#,
    },
];
