//! E03xx: push constants — the pipeline layout's ranges and the ranges tokens update.

use crate::rules::Rule;
use crate::severity::Severity::*;

pub const RULES: &[Rule] = &[
    Rule {
        code: "E0301",
        vuid: Some("VUID-VkPushConstantRange-offset-00295"),
        severity: Error,
        title: "a push-constant range starts at a byte that is not a multiple of 4",
        explanation: r#"Push constants are 32-bit words: every range's `offset` (the pipeline's `push_constants` ranges and a token's `offset:`) is a multiple of 4.

```ron
PushConstant(name: "object", stages: [Vertex], offset: 2, size: 4),
```

Fix: use a multiple of 4."#,
    },
    Rule {
        code: "E0302",
        vuid: Some("VUID-VkPushConstantRange-size-00297"),
        severity: Error,
        title: "a push-constant range's size is not a multiple of 4",
        explanation: r#"Push-constant sizes are multiples of 4, both the pipeline's ranges and a token's raw `size:`. Typed fields are always whole words; a raw `size: 6` is not.

```ron
PushConstant(name: "object", stages: [Vertex], offset: 0, size: 6),
```

Fix: round the size up to a multiple of 4 (here 8), or declare typed `fields`."#,
    },
    Rule {
        code: "E0303",
        vuid: None,
        severity: Error,
        title: "a push-constant field type cannot be laid out",
        explanation: r#"Typed push-constant fields are declared in the generated GLSL, C and Rust structs. Arrays of arrays have no single layout across the three, an array of zero elements declares nothing, and a field past 2 GiB fits no device.

```ron
PushConstant(name: "object", stages: [Vertex], offset: 0, fields: [
    (name: "m", ty: Array(Array(F32, 4), 4)),
]),
```

Fix: use `Mat4`, or flatten to `Array(F32, 16)`."#,
    },
    Rule {
        code: "E0304",
        vuid: Some("VUID-VkPushConstantRange-size-00296"),
        severity: Error,
        title: "a push-constant range is empty",
        explanation: r#"A push-constant range of size 0 is invalid: a token with `size: 0` or an empty `fields` list, or a pipeline range with `size: 0`.

```ron
PushConstant(name: "nothing", stages: [Vertex], offset: 0, fields: []),
```

Fix: give it at least one field, or remove it."#,
    },
    Rule {
        code: "E0305",
        vuid: Some("VUID-VkPushConstantRange-offset-00294"),
        severity: Error,
        title: "a push-constant range starts past maxPushConstantsSize",
        explanation: r#"A push-constant range must start below the target's `maxPushConstantsSize`: 128 bytes is all the spec guarantees, 256 on most desktop drivers.

```ron
// targets: ["minimum"]
push_constants: [(stages: [Vertex], offset: 128, size: 4)],
```

Fix: keep push constants within the first `maxPushConstantsSize` bytes; pass bulk data through a buffer and push its address."#,
    },
    Rule {
        code: "E0306",
        vuid: Some("VUID-VkPushConstantRange-size-00298"),
        severity: Error,
        title: "a push-constant range ends past maxPushConstantsSize",
        explanation: r#"`offset + size` of a push-constant range must be at most the target's `maxPushConstantsSize` (128 bytes guaranteed, 256 on most desktop drivers). A `Mat4` and a few more fields pass 128 quickly.

```ron
// targets: ["minimum"]
push_constants: [(stages: [Vertex], offset: 64, size: 128)],
```

Fix: shrink the range, or move bulk data into a buffer and push its `Address`."#,
    },
    Rule {
        code: "E0307",
        vuid: Some("VUID-VkIndirectCommandsPushConstantTokenEXT-updateRange-11132"),
        severity: Error,
        title: "a token updates push constants outside the pipeline's ranges",
        explanation: r#"A `PushConstant` or `SequenceIndex` token writes push-constant bytes `offset..offset+size`; they must lie inside the pipeline layout's `push_constants` ranges. Forgetting `push_constants` altogether is the usual cause; a range that is a few bytes too small the next.

```ron
push_constants: [(stages: [Vertex], offset: 0, size: 8)],
// …
PushConstant(name: "object", stages: [Vertex], offset: 4, size: 8),  // bytes 4..12
```

Fix: grow the pipeline range to cover the token's bytes, or move the token's `offset`. dgcc checks bytes against all ranges together, as the spec does (stages are ignored for tokens); see W0010 for what the validation layers do."#,
    },
    Rule {
        code: "E0308",
        vuid: Some("VUID-VkIndirectCommandsLayoutCreateInfoEXT-pTokens-11099"),
        severity: Error,
        title: "two tokens update the same push-constant bytes",
        explanation: r#"The push-constant ranges of `PushConstant`, `SequenceIndex` and the push-data tokens (`PushData`, `PushDataSequenceIndex`) in one layout must not overlap, whatever their stages: the later token would overwrite the earlier one's values.

```ron
PushConstant(name: "object", stages: [Vertex], offset: 0, size: 8),
SequenceIndex(stages: [Vertex], offset: 4),        // bytes 4..8 again
```

Fix: move one token's `offset` past the other's end."#,
    },
    Rule {
        code: "E0309",
        vuid: Some("VUID-VkIndirectCommandsPushConstantTokenEXT-size-11133"),
        severity: Error,
        title: "a sequence index token does not push exactly 4 bytes",
        explanation: r#"A `SequenceIndex` (or `PushDataSequenceIndex`) token pushes one `uint`, so its range's size is 4. dgcc always declares it so; this appears only for a manifest edited by hand.

```json
{"name": "index", "type": "SEQUENCE_INDEX", "push_constant": {"stages": 1, "offset": 0, "size": 8}}
```

Fix: set the token's `push_constant.size` to 4."#,
    },
    Rule {
        code: "E0310",
        vuid: Some("VUID-VkPipelineLayoutCreateInfo-pPushConstantRanges-00292"),
        severity: Error,
        title: "two pipeline push-constant ranges include the same stage",
        explanation: r#"In a pipeline layout each stage has at most one push-constant range: no two ranges may include the same stage, even if their bytes are disjoint.

```ron
push_constants: [
    (stages: [Vertex], offset: 0, size: 8),
    (stages: [Vertex, Fragment], offset: 8, size: 8),
],
```

Fix: merge them (`(stages: [Vertex, Fragment], offset: 0, size: 16)`), or give each range its own stages."#,
    },
    Rule {
        code: "E0311",
        vuid: None,
        severity: Error,
        title: "typed fields start at a push-constant byte their types cannot be declared at",
        explanation: r#"A token with typed `fields` is declared in the shader's `layout(push_constant)` block, which GLSL lays out with std430 rules: a `Vec4` or `Mat4` member sits at a multiple of 16, a `Vec2`, `U64` or `Address` at a multiple of 8. If the token's `offset:` is not a multiple of its widest field's alignment, no block declaration puts the fields where the token writes them. No VUID covers this; the shader simply reads the wrong bytes.

```ron
PushConstant(name: "object", stages: [Vertex], offset: 4, fields: [
    (name: "color", ty: Vec4),     // a std430 block places it at 16, not 4
]),
```

Fix: use an offset that is a multiple of the widest field's alignment (here 16). Under `glsl_layout: Scalar` a scalar block can declare the fields there, so that case is the warning W0007 instead."#,
    },
    Rule {
        code: "E0312",
        vuid: Some("VUID-VkIndirectCommandsLayoutTokenEXT-type-11333"),
        severity: Error,
        title: "a push-data token's range does not name every stage",
        explanation: r#"Push data is shared by every stage: the `updateRange.stageFlags` of a `PUSH_DATA` or `PUSH_DATA_SEQUENCE_INDEX` token must be `VK_SHADER_STAGE_ALL` (0x7FFFFFFF). A description writes no stages for push data and dgcc always declares them so; this appears only for a manifest edited by hand.

```json
{"name": "root", "type": "PUSH_DATA", "offset": 0, "size": 16,
 "push_constant": {"stages": 1, "offset": 0, "size": 16}}
```

Fix: `"stages": 2147483647`, or regenerate the manifest with `dgcc compile`."#,
    },
    Rule {
        code: "E0313",
        vuid: None,
        severity: Error,
        title: "a push-data token writes past maxPushDataSize",
        explanation: r#"A `PushData` or `PushDataSequenceIndex` token writes push-data bytes `offset..offset+size`, which must lie inside the device's push data: `VkPhysicalDeviceDescriptorHeapPropertiesEXT::maxPushDataSize` bytes. No valid-usage rule of the indirect-commands layout states this bound (push constants have theirs, E0305 and E0306, through the pipeline layout; push data has no pipeline layout), but `vkCmdPushDataEXT` does for the same bytes pushed from the host, and a token that writes past it writes bytes no shader can read.

```ron
PushData(name: "root", offset: 240, size: 32),   // ends at 272 on a device with maxPushDataSize 256
```

Fix: keep push data within the first `maxPushDataSize` bytes, or move bulk data into a buffer and push its address."#,
    },
];
